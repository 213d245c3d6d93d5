"""The rows of an experiment store as games: validated arrays, matchups and agents' names.

The lower half of :mod:`cardsim.experiments.tables` (which builds the tables) and of
:mod:`cardsim.experiments.sprt` (the sequential test), both reading the rows through :class:`Games`.
The row format and the matchup order are those of :mod:`cardsim.experiments.tables`' docstring.
"""
from __future__ import annotations

import re
from typing import Sequence

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError

KEY = ["matchup", "deal", "rotation"]
_SEAT = re.compile(r"^seat_(\d+)$")


class TableError(CardsimError):
    """Rows that do not follow the store's row format (a missing column, an agent index that
    ``agents`` does not have, duplicated games, a matchup whose seats disagree)."""


MEASURED = re.compile(r"^(seconds|think_\d+)$")
"""The columns that are measured, not drawn from the seeds: the game's wall-clock ``seconds``
and each seat's thinking time ``think_<s>``. Everything else in a row is the same for the same
seed on any machine and any number of workers."""


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
        require_columns(rows, KEY + [f"return_{s}" for s in range(n)])
        keys = [rows[c].to_numpy(dtype=np.int64) for c in KEY]
        sort = np.lexsort(keys[::-1])
        self.rows = rows.iloc[sort].reset_index(drop=True)
        self.n = n
        self.matchup, self.deal, self.rotation = (k[sort] for k in keys)
        self.seats = self.rows[[f"seat_{s}" for s in range(n)]].to_numpy(dtype=np.int64)
        self.returns = self.rows[[f"return_{s}" for s in range(n)]].to_numpy(dtype=np.float64)
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
