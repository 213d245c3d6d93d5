"""The experiment store's rows: their format, how a batch's rows are built from duplicate
play, and the rows read back as games.

**The format.** One row per game, a deal played in one rotation of the seats
(:func:`cardsim.solvers.duplicate.play_duplicate`); its columns, in order, with their dtypes:

* ``matchup``, ``batch`` (int64): the matchup's index in the spec and the batch's within the
  matchup (a store's rows only: :func:`batch_rows`);
* ``deal``, ``rotation``, ``seed``, ``dealer``, ``moves`` (int64), ``seconds`` (float64): the
  deal's index (it is dealt from ``SeedSequence([*prefix, deal])``, the prefix the matchup's:
  :func:`cardsim.experiments.runner.deal_seed`), the rotation (seat ``s`` is played by
  ``matchup[(s + rotation) % n]``), the last word of the deal's entropy (the deal's index), the
  dealer's seat (-1 in a game without one), the moves played and the game's wall-clock time;
* ``seat_<s>`` (int64) and ``return_<s>`` (float64), seat by seat: the agent at seat ``s`` (its
  index in the spec's agents) and the seat's return;
* ``decisions_<s>`` (int64): the moves seat ``s`` chose among two or more legal ones, and
  ``options_<s>`` (int64): the legal moves it chose among in them, summed;
* ``think_<s>`` (float64): the seconds seat ``s``'s agent thought on them, measured for the
  searching agents (ISMCTS, PIMC, the oracle); NaN for the random and heuristic players, which
  are not timed;
* ``cat_<name>_<s>`` (float64): the game's scoring categories at seat ``s``
  (:func:`cardsim.protocol.outcome.seat_scores`; NaN in a game where the game gives none), and ``end``
  (strings): how the deal ended, where the game says (Bura), in the game's order;
* the game's deal facts, its notation module's ``deal_columns`` where it has one (Bura:
  ``first_leader``, ``last_trick``, int64); in a store of whole matches (``unit = "match"``)
  also the match's trajectory (:func:`cardsim.protocol.outcome.match_facts`: ``match_deals``,
  ``match_lead_changes``, ``match_comeback``, ``match_decided``, int64).

The per-seat columns are ``<stem>_<s>`` (:func:`at_seat`); a category's stem is
``cat_<name>`` (:func:`category`). The names of a deal's outcome (``return_<s>``, ``cat_<name>_<s>``,
``end``, the deal facts, ``dealer``) are :mod:`cardsim.protocol.outcome`'s, which the games' match
models read (:class:`cardsim.protocol.match.MatchModel`) and ``analyze --match`` builds for its
play-outs. The :data:`MEASURED` columns differ from run to run; everything else is the
seeds'.

**Versions.** A store's manifest holds the version of the format its rows follow
(:data:`SCHEMA_VERSION`, written by :mod:`cardsim.experiments.store`); the versions in :data:`READS`
read. Version 2 added ``decisions_<s>`` and ``think_<s>``, version 3 ``options_<s>`` and a
match's trajectory (:data:`ADDED`); rows of version 1 lack the first two and read as rows that
do not record the thinking time (:func:`thinking_recorded`: the thinking table is empty, the
report says so), rows of version 2 lack the others (the measures that need them are left out:
:mod:`cardsim.experiments.measures`), and a run that resumes an older store writes its new
batches with them.

**Reading.** :class:`Games` holds the rows as validated arrays, for :mod:`cardsim.experiments.tables`
(which builds the tables, and states the conventions of matchup order and paired statistics)
and :mod:`cardsim.experiments.sprt` (the sequential test).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError
from cardsim.protocol.outcome import (  # noqa: F401  (the row format's names, shared)
    END,
    RETURN,
    at_seat,
    category,
    score_columns,
    seat_columns,
)

if TYPE_CHECKING:
    from cardsim.solvers.duplicate import DuplicateResults

SCHEMA_VERSION = 3
"""The version of the rows' format that this cardsim writes (module docstring)."""
READS = (1, 2, 3)
"""The versions of the rows' format that this cardsim reads."""

SEAT, DECISIONS, OPTIONS, THINK = "seat", "decisions", "options", "think"
"""The stems of the per-seat columns besides ``return`` (:func:`at_seat`)."""
KEY = ["matchup", "deal", "rotation"]
"""The columns that name a game in a store's rows."""
STORED = ("matchup", "batch")
"""The columns that a store's rows have before a game's (:func:`batch_rows`)."""
COLUMNS = {"matchup": "int64", "batch": "int64", "deal": "int64", "rotation": "int64",
           "seed": "int64", "dealer": "int64", "moves": "int64", "seconds": "float64"}
"""The columns of one value per game and their dtypes, in the rows' order."""
SEATED = {SEAT: "int64", RETURN: "float64", DECISIONS: "int64", OPTIONS: "int64",
          THINK: "float64"}
"""The stems of the columns of one value per seat and their dtypes, in the rows' order
(``seat_<s>`` and ``return_<s>`` alternate seat by seat)."""
ADDED = {DECISIONS: 2, OPTIONS: 3, THINK: 2}
"""The per-seat stems added after version 1, and the version that added each."""
MEASURED = re.compile(rf"^(seconds|{THINK}_\d+)$")
"""The columns that are measured, not drawn from the seeds: the game's wall-clock ``seconds``
and each seat's thinking time ``think_<s>``. Everything else in a row is the same for the same
seed on any machine and any number of workers."""
_SEAT = re.compile(rf"^{SEAT}_(\d+)$")
_CATEGORY = re.compile(r"^cat_(.+)_(\d+)$")
_PER_SEAT = re.compile(rf"^({'|'.join(SEATED)})_(\d+)$")


def category_names(rows: pd.DataFrame) -> list[str]:
    """The names of the scoring categories that ``rows`` carry (their ``cat_<name>_<s>``
    columns), in column order."""
    return list(dict.fromkeys(m.group(1) for c in rows.columns
                              if (m := _CATEGORY.match(str(c)))))


def thinking_recorded(rows: pd.DataFrame) -> bool:
    """Whether ``rows`` record each seat's decisions and thinking time (``decisions_<s>``,
    ``think_<s>``: rows of version 2 on)."""
    n = sum(1 for c in rows.columns if _SEAT.match(str(c)))
    return n > 0 and set(seat_columns(DECISIONS, n) + seat_columns(THINK, n)) <= set(rows.columns)


# --- building ------------------------------------------------------------------------------

def duplicate_rows(results: DuplicateResults, seating: Sequence[int] | None = None) -> pd.DataFrame:
    """One row per game of ``results`` (:func:`cardsim.solvers.duplicate.play_duplicate`), without a
    matchup and batch; ``seating`` maps the agents' indices in the list played to those the
    ``seat_<s>`` columns record (a matchup's seat tuple: indices in the spec's agents)."""
    return pd.DataFrame(_rows(results, {}, seating))


def batch_rows(results: DuplicateResults, matchup: int, batch: int,
               seating: Sequence[int]) -> pd.DataFrame:
    """Batch ``batch`` of matchup ``matchup`` as the store keeps it: the rows of ``results``,
    played by ``seating``'s agents (the matchup's seat tuple) in that order."""
    return pd.DataFrame(_rows(results, dict(zip(STORED, (matchup, batch))), seating))


def _rows(results: DuplicateResults, first: dict, seating) -> list[dict]:
    """The rows as dicts, columns in the format's order (module docstring): ``first``, then the
    game's columns."""
    n = results.seats.shape[1]
    seats = results.seats if seating is None else np.asarray(seating, dtype=np.int64)[
        results.seats]
    game = {c: getattr(results, c).tolist() for c in COLUMNS if c not in STORED}  # same names
    seat, ret = seats.tolist(), results.returns.tolist()
    later = {DECISIONS: results.decisions.tolist(), OPTIONS: results.options.tolist(),
             THINK: results.think.tolist()}
    out = []
    for i, (scores, facts) in enumerate(zip(results.scores, results.facts)):
        row = {**first, **{c: values[i] for c, values in game.items()}}
        for s in range(n):
            row[at_seat(SEAT, s)] = seat[i][s]
            row[at_seat(RETURN, s)] = ret[i][s]
        for stem, values in later.items():
            for s in range(n):
                row[at_seat(stem, s)] = values[i][s]
        row.update(score_columns(scores))
        row.update(facts)
        out.append(row)
    return out


# --- reading -------------------------------------------------------------------------------

def schema_problem(rows: pd.DataFrame, seats: int, version: int = SCHEMA_VERSION) -> str:
    """What in ``rows``' columns breaks the format (module docstring) of a store of
    ``version`` whose matchups have ``seats`` seats, in words ("column return_0 missing",
    "column seat_0 holds strings, expected int64"); "" when nothing does. The columns of
    :data:`COLUMNS` and :data:`SEATED` (those of :data:`ADDED` from their version on) must be
    there with their dtypes, and no per-seat column of another seat; the game's own are known
    by their form: ``cat_<name>_<s>`` float64 (``s`` a seat), ``end`` strings, any other a deal
    fact, int64. (Which categories a batch has is the game's: a category is left out where a
    deal's breakdown gives none, :func:`cardsim.protocol.outcome.seat_scores`, so a batch
    missing one is not told apart here.)"""
    expected = dict(COLUMNS)
    for stem, dtype in SEATED.items():
        expected.update((c, dtype) for c in seat_columns(stem, seats))
    optional = {c for stem, v in ADDED.items() if version < v for c in seat_columns(stem, seats)}
    for column, dtype in expected.items():
        if column not in rows.columns:
            if column not in optional:
                return f"column {column} missing"
        elif str(rows[column].dtype) != dtype:
            return f"column {column} holds {_held(rows[column])}, expected {dtype}"
    for column in rows.columns:
        if column in expected:
            continue
        m = _CATEGORY.match(str(column)) or _PER_SEAT.match(str(column))
        if column == END:
            if not pd.api.types.is_string_dtype(rows[column]):
                return f"column {END} holds {_held(rows[column])}, expected strings"
        elif m and int(m.group(2)) >= seats:
            return f"column {column} is of seat {m.group(2)}, in a game of {seats} seats"
        elif m and m.re is _PER_SEAT:                              # e.g. seat_01
            return f"column {column} is not one of the format's"
        elif str(rows[column].dtype) != ("float64" if m else "int64"):
            return (f"column {column} holds {_held(rows[column])}, expected "
                    + ("float64" if m else "int64 (a deal fact)"))
    return ""


def _held(column: pd.Series) -> str:
    """What a column holds, in words: its dtype, or for objects the kind of value inferred
    (strings, mixed, ...)."""
    if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
        kind = pd.api.types.infer_dtype(column, skipna=True)
        return "strings" if kind == "string" else f"{kind} values"
    return str(column.dtype)


class TableError(CardsimError):
    """Rows that do not follow the store's row format (a missing column, an agent index that
    ``agents`` does not have, duplicated games, a matchup whose seats disagree)."""


def seeded(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` without the :data:`MEASURED` columns: what a seed determines (two runs of one
    spec give equal frames)."""
    return rows.drop(columns=[c for c in rows.columns if MEASURED.match(str(c))])


def n_seats(rows: pd.DataFrame) -> int:
    """The number of seats: the ``seat_<s>`` columns, which must be ``seat_0 .. seat_{n-1}``."""
    seats = sorted(int(m.group(1)) for c in rows.columns if (m := _SEAT.match(str(c))))
    if not seats:
        raise TableError("rows have no seat_<s> columns: expected seat_0 .. seat_{n-1}")
    if seats != list(range(len(seats))):
        raise TableError(f"rows have seat columns {seats}: expected seat_0 .. "
                         f"seat_{len(seats) - 1}")
    return len(seats)


def require_columns(rows: pd.DataFrame, columns: Sequence[str]) -> None:
    """:class:`TableError` naming the first of ``columns`` that ``rows`` lacks."""
    missing = [c for c in columns if c not in rows.columns]
    if missing:
        raise TableError(f"rows lack column {missing[0]!r}: expected the experiment store's "
                         "row format (matchup, deal, rotation, dealer, seat_<s>, return_<s>, ...)")


class Games:
    """The rows as arrays, validated and sorted by (matchup, deal, rotation)."""

    def __init__(self, rows: pd.DataFrame):
        if not isinstance(rows, pd.DataFrame):
            raise TableError(f"rows: expected a pandas DataFrame, got {type(rows).__name__}")
        n = n_seats(rows)
        require_columns(rows, KEY + seat_columns(RETURN, n))
        keys = [rows[c].to_numpy(dtype=np.int64) for c in KEY]
        sort = np.lexsort(keys[::-1])
        self.rows = rows.iloc[sort].reset_index(drop=True)
        self.n = n
        self.matchup, self.deal, self.rotation = (k[sort] for k in keys)
        self.seats = self.rows[seat_columns(SEAT, n)].to_numpy(dtype=np.int64)
        self.returns = self.rows[seat_columns(RETURN, n)].to_numpy(dtype=np.float64)
        if len(sort) > 1:
            same = ((self.matchup[1:] == self.matchup[:-1]) & (self.deal[1:] == self.deal[:-1])
                    & (self.rotation[1:] == self.rotation[:-1]))
            if same.any():
                i = int(np.argmax(same))
                raise TableError(f"game matchup={self.matchup[i]}, deal={self.deal[i]}, "
                                 f"rotation={self.rotation[i]} appears more than once in the "
                                 "rows")
        if self.seats.size and self.seats.min() < 0:
            raise TableError(f"agent index {int(self.seats.min())} in the rows: expected "
                             "indices >= 0")
        self.order = self._matchup_agents()
        self._per_agent = None

    def _matchup_agents(self) -> dict[int, tuple[int, ...]]:
        if not len(self.matchup):
            return {}
        n = self.n
        idx = (np.arange(n)[None, :] - self.rotation[:, None]) % n  # m[j] = seat_{(j - r) % n}
        tuples = np.take_along_axis(self.seats, idx, axis=1)
        new = np.ones(len(self.matchup), dtype=bool)
        new[1:] = self.matchup[1:] != self.matchup[:-1]
        starts = np.flatnonzero(new)
        first = tuples[starts][np.cumsum(new) - 1]
        bad = np.flatnonzero((tuples != first).any(axis=1))
        if bad.size:
            m = int(self.matchup[bad[0]])
            found = [tuple(int(v) for v in t) for t in (first[bad[0]], tuples[bad[0]])]
            raise TableError(f"matchup {m}: its rows give different seat orders {found} "
                             "(expected seat s of rotation r to be played by "
                             "matchup[(s + r) % n])")
        return {int(self.matchup[i]): tuple(int(v) for v in tuples[i]) for i in starts}

    def per_agent(self, values: np.ndarray | None = None):
        """For every game and agent in it (sorted by game, then agent): the game's index, the
        agent, its first seat, its number of seats, and the mean of ``values`` (rows x seats,
        NaN ignored; the returns by default) over its seats."""
        if values is None:
            if self._per_agent is None:
                self._per_agent = self.per_agent(self.returns)
            return self._per_agent
        N, n = self.seats.shape
        a = int(self.seats.max()) + 1 if N else 1
        key = (np.arange(N, dtype=np.int64)[:, None] * a + self.seats).ravel()
        uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
        inv = inv.ravel()
        flat = values.ravel()
        ok = ~np.isnan(flat)
        sums = np.bincount(inv, weights=np.where(ok, flat, 0.0), minlength=len(uniq))
        count = np.bincount(inv, weights=ok.astype(np.float64), minlength=len(uniq))
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = sums / count
        seats = np.bincount(inv, minlength=len(uniq))
        return uniq // a, uniq % a, first % n, seats, mean

    def first_agent_deals(self, matchup: int, column: str) -> np.ndarray:
        """The first agent of ``matchup``: its paired per-deal ``column``, in deal order; empty
        when the matchup has no rows. ``"return"``; ``"score"`` (its return above 0: win 1,
        draw 1/2, loss 0); or, in a 2-agent matchup, ``"head"``: the score of its return
        against the other agent's in the same game (each the mean over its seats) — in a
        zero-sum game of two sides the same as ``"score"``, and in a game that is not (Mushka)
        who wrote off more at the same table — and ``"head_return"``: that difference of
        returns itself."""
        if int(matchup) not in self.order:
            return np.zeros(0)
        first = self.order[int(matchup)][0]
        row, agent, _, _, ret = self.per_agent()
        here = self.matchup[row] == matchup
        mine = (agent == first) & here
        if column in ("head", "head_return"):
            other = (agent != first) & here
            if len(distinct_agents(self.order[int(matchup)])) != 2:
                raise TableError(f"matchup {matchup}: a head-to-head score needs 2 agents")
            values = ret[mine] - ret[other]              # one game each, in the same order
            if column == "head":
                values = score_of(values)
        else:
            values = score_of(ret[mine]) if column == "score" else ret[mine]
        deals, inv = np.unique(self.deal[row[mine]], return_inverse=True)
        inv = inv.ravel()
        return (np.bincount(inv, weights=values, minlength=len(deals))
                / np.bincount(inv, minlength=len(deals)))


def agent_name(agents: Sequence[str], k: int) -> str:
    """Agent ``k``'s spec string; :class:`TableError` when ``agents`` has no index ``k``."""
    if not 0 <= k < len(agents):
        raise TableError(f"agent index {k} in the rows: expected 0 to {len(agents) - 1} "
                         f"(agents={list(agents)!r})")
    return str(agents[k])


def distinct_agents(seq) -> list[int]:
    """The agent indices of a seat tuple, each once, in seat order."""
    return list(dict.fromkeys(int(k) for k in seq))


def matchup_label(agents: Sequence[str], order: Sequence[int]) -> str:
    """A matchup's name: its agents' spec strings joined by " vs ", first agent first."""
    return " vs ".join(agent_name(agents, k) for k in distinct_agents(order))


def score_of(ret: np.ndarray) -> np.ndarray:
    """Win 1, draw 1/2, loss 0 of returns."""
    return np.where(ret > 0, 1.0, np.where(ret == 0, 0.5, 0.0))
