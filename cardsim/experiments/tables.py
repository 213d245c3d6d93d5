"""Aggregation of an experiment store's rows into pandas tables (DESIGN.md §4).

Every function takes the rows DataFrame of the store (one row per game, in the format that
:mod:`cardsim.experiments.rows` defines) and, where names are shown, ``agents``: the spec's list of
agent spec strings, indexed by the ``seat_<s>`` values. Every table carries a one-sentence
``table.attrs["note"]``.

Conventions used by all tables:

* **Matchup order.** With duplicate play, seat ``s`` of rotation ``r`` is played by
  ``matchup[(s + r) % n]``; :func:`matchup_agents` recovers each matchup's seat tuple from the
  rows, and its first entry is the matchup's *first agent* (the one whose mean return,
  half-width and SPRT are reported).
* **An agent's result in a game** is its seat's return (the mean over its seats when it holds
  more than one, as in a 2x2 partnership matchup ``(0, 1, 0, 1)``); a *win* is a return > 0, a
  *draw* == 0, a *loss* < 0; the *score* is 1, 1/2, 0.
* **Paired (duplicate) statistics.** A mean over games is computed per deal first (averaging
  the rotations of the same cards, so the luck of the cards cancels), then the mean and its
  95% interval ``mean ± t·sd/√deals`` (Student's t with deals - 1 degrees of freedom) are
  taken over deals (:func:`cardsim.stats.mean_interval`). With one rotation per deal this is
  the plain standard error.
* **Rates** (win/draw/loss, seat wins, how deals end) use Wilson score intervals over the
  deals (:func:`cardsim.stats.clustered_wilson`): duplicate games of one deal are not
  independent (for an agent's wins typically negatively correlated: the cards favour one
  seat), so the interval takes the effective number of games from the spread of the deals'
  totals and Student's t over the deals; Wilson's over games, which treats them as
  independent, covered 96.7% on 20 duplicate deals (``experiments/results/coverage``).
* Interval columns are named ``<x>``, ``<x>_lo``, ``<x>_hi``; :func:`format_table` turns each
  triple into one ``"0.512 [0.498, 0.526]"`` column (:func:`cardsim.stats.fmt_interval`).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from cardsim.stats import clustered_wilson, fmt_interval, mean_interval, noted, t95

from .rows import (
    DECISIONS,
    THINK,
    Games,
    TableError,
    agent_name,
    at_seat,
    category,
    category_names,
    distinct_agents,
    matchup_label,
    require_columns,
    score_of,
    seat_columns,
    thinking_recorded,
)
from .sprt import sprt_table

# --- helpers -----------------------------------------------------------------------------------

def _group(*columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group codes of the rows by the given integer columns, numbered in sorted key order,
    and the index of each group's first row."""
    shifted = [c.astype(np.int64) - (int(c.min()) if len(c) else 0) for c in columns]
    sizes = [int(c.max()) + 1 if len(c) else 1 for c in shifted]
    if math.prod(sizes) < 2 ** 62:
        key = np.zeros(len(columns[0]), dtype=np.int64)
        for c, size in zip(shifted, sizes):
            key = key * size + c
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, inv = np.unique(np.column_stack(shifted), axis=0, return_index=True,
                                  return_inverse=True)
    return inv.ravel(), first


def _paired(matchup: np.ndarray, agent: np.ndarray, deal: np.ndarray, values: np.ndarray):
    """Per (matchup, agent) in sorted order: ``(matchup, agent, games, per-deal means in deal
    order, deal ids, indices of its games)`` — the per-deal mean averages the rotations."""
    if not len(values):
        return []
    code, first = _group(matchup, agent)
    dcode, dfirst = _group(code, deal)
    deal_mean = (np.bincount(dcode, weights=values, minlength=len(dfirst))
                 / np.bincount(dcode, minlength=len(dfirst)))
    parent = code[dfirst]                      # sorted: each group's deals are contiguous
    bounds = np.searchsorted(parent, np.arange(len(first) + 1))
    games = np.argsort(code, kind="stable")
    gbounds = np.searchsorted(code[games], np.arange(len(first) + 1))
    return [(int(matchup[first[j]]), int(agent[first[j]]), int(gbounds[j + 1] - gbounds[j]),
             deal_mean[bounds[j]:bounds[j + 1]], deal[dfirst[bounds[j]:bounds[j + 1]]],
             games[gbounds[j]:gbounds[j + 1]]) for j in range(len(first))]


def matchup_agents(rows: pd.DataFrame) -> dict[int, tuple[int, ...]]:
    """Each matchup's seat tuple ``m`` (agent indices), recovered from ``seat_s = m[(s + r) % n]``
    of every row; :class:`TableError` if two rows of a matchup disagree."""
    return Games(rows).order


def _interval(values: np.ndarray) -> tuple[float, float, float, float]:
    """mean, lo, hi, standard error (``nan`` below 2 values)."""
    values = np.asarray(values, dtype=np.float64)
    mean, lo, hi = mean_interval(values)
    se = float(values.std(ddof=1)) / math.sqrt(values.size) if values.size >= 2 else math.nan
    return mean, lo, hi, se


def _rate(prefix: str, hits: np.ndarray, deal: np.ndarray) -> dict:
    """A per-game rate with its interval over the deals (:func:`clustered_wilson`: a
    duplicate deal's rotations are correlated games)."""
    p, lo, hi = clustered_wilson(hits, deal)
    return {prefix: p, f"{prefix}_lo": lo, f"{prefix}_hi": hi}


# --- the long form ---------------------------------------------------------------------------

_LONG_COLUMNS = ["matchup", "label", "deal", "rotation", "agent", "name", "seat", "seats",
                 "opponents", "return", "win", "draw", "loss", "score"]


def _long(g: Games, agents: Sequence[str]) -> pd.DataFrame:
    row, agent, seat, seats, ret = g.per_agent()
    long = pd.DataFrame({"matchup": g.matchup[row], "deal": g.deal[row],
                         "rotation": g.rotation[row], "agent": agent, "seat": seat,
                         "seats": seats, "return": ret})
    names = {k: agent_name(agents, k) for k in np.unique(agent).tolist()}
    labels = {m: matchup_label(agents, t) for m, t in g.order.items()}
    opponents = {(m, k): ", ".join(names[j] for j in distinct_agents(t) if j != k)
                 for m, t in g.order.items() for k in t}
    pair, inv = np.unique(np.column_stack([long["matchup"].to_numpy(), agent]), axis=0,
                          return_inverse=True)
    long["label"] = long["matchup"].map(labels)
    long["name"] = long["agent"].map(names)
    long["opponents"] = np.array([opponents[(int(m), int(k))] for m, k in pair],
                                 dtype=object)[inv.ravel()]
    long["win"] = ret > 0
    long["draw"] = ret == 0
    long["loss"] = ret < 0
    long["score"] = score_of(ret)
    return long[_LONG_COLUMNS]


def agent_results(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """One row per (matchup, deal, rotation, agent): the agent's return (mean over its seats),
    its first seat and number of seats, win/draw/loss flags, score (1, 1/2, 0) and the names of
    its opponents in the matchup."""
    return noted(_long(Games(rows), agents),
                  "One row per game and agent: the agent's return (mean over its seats), "
                  "win/draw/loss (return >0, =0, <0) and its opponents.")


def deal_means(long: pd.DataFrame, column: str = "return") -> pd.DataFrame:
    """Paired per-deal values: ``column`` of :func:`agent_results` averaged over the rotations
    of each (matchup, agent, deal); columns matchup, agent, deal, ``column``."""
    return long.groupby(["matchup", "agent", "deal"], sort=True)[column].mean().reset_index()


def first_agent_deals(rows: pd.DataFrame, agents: Sequence[str], matchup: int,
                      column: str = "return") -> np.ndarray:
    """The first agent of ``matchup``: its paired per-deal ``column`` (``"return"`` or
    ``"score"``, win 1, draw 1/2, loss 0), in deal order; empty when the matchup has no rows
    yet."""
    if column not in ("return", "score"):
        raise TableError(f"column={column!r}: expected 'return' or 'score'")
    return Games(rows).first_agent_deals(matchup, column)


# --- tables ------------------------------------------------------------------------------------

_MATCHUP_COLUMNS = [
    "matchup", "label", "agent", "name", "games", "deals", "wins", "draws", "losses",
    "win_rate", "win_rate_lo", "win_rate_hi", "draw_rate", "draw_rate_lo", "draw_rate_hi",
    "loss_rate", "loss_rate_lo", "loss_rate_hi", "score",
    "mean_return", "mean_return_lo", "mean_return_hi", "return_se", "return_se_unpaired",
    "margin", "margin_lo", "margin_hi", "moves", "ms_per_move"]


def matchup_table(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """Per matchup and agent in it: games, wins/draws/losses with 95% intervals (Wilson over
    the deals, :func:`_rate`), score,
    mean return with its paired 95% interval (``return_se``; ``return_se_unpaired`` treats every
    game as independent, for comparison), and for a 2-agent matchup the *margin* — half the
    per-deal difference of the two agents' paired returns, i.e. the first agent's mean return
    in a zero-sum 2-player game (Scopa: points ahead per deal) — with its interval; ``moves``
    is the mean number of moves per game and ``ms_per_move`` the compute time per move."""
    g = Games(rows)
    note = ("Per matchup and agent: win/draw/loss rates with 95% intervals (Wilson over the "
            "deals) and the mean "
            "return per game with a 95% interval from the paired (duplicate) standard error, "
            "plus the margin (half the difference of the two agents' returns) in 2-agent "
            "matchups.")
    if not g.order:
        return noted(pd.DataFrame(columns=_MATCHUP_COLUMNS), note)
    row, agent, _, _, ret = g.per_agent()
    groups = {(m, k): rest for m, k, *rest in _paired(g.matchup[row], agent, g.deal[row], ret)}
    has_moves = "moves" in g.rows.columns
    has_seconds = "seconds" in g.rows.columns
    out = []
    for m, t in g.order.items():
        in_matchup = g.matchup == m
        n_games = int(in_matchup.sum())
        moves = float(g.rows["moves"].to_numpy()[in_matchup].sum()) if has_moves else math.nan
        ms = math.nan
        if has_moves and has_seconds and moves:
            ms = 1000.0 * float(g.rows["seconds"].to_numpy()[in_matchup].sum()) / moves
        two = distinct_agents(t)
        margin = (math.nan,) * 3
        if len(two) == 2:
            (_, da, ia, _), (_, db, ib, _) = (groups[(m, k)] for k in two)
            _, at, bt = np.intersect1d(ia, ib, assume_unique=True, return_indices=True)
            margin = mean_interval((da[at] - db[bt]) / 2.0)
        for k in two:
            n, deals, _, games = groups[(m, k)]
            r, dl = ret[games], g.deal[row][games]
            wins, draws, losses = int((r > 0).sum()), int((r == 0).sum()), int((r < 0).sum())
            mean, lo, hi, se = _interval(deals)
            mg = margin if k == two[0] else (-margin[0], -margin[2], -margin[1])
            out.append({
                "matchup": m, "label": matchup_label(agents, t), "agent": k, "name": agent_name(agents, k),
                "games": n, "deals": len(deals), "wins": wins, "draws": draws,
                "losses": losses, **_rate("win_rate", r > 0, dl),
                **_rate("draw_rate", r == 0, dl), **_rate("loss_rate", r < 0, dl),
                "score": float(score_of(r).mean()),
                "mean_return": mean, "mean_return_lo": lo, "mean_return_hi": hi,
                "return_se": se,
                "return_se_unpaired": float(r.std(ddof=1)) / math.sqrt(n) if n >= 2 else math.nan,
                "margin": mg[0], "margin_lo": mg[1], "margin_hi": mg[2],
                "moves": moves / n_games if has_moves else math.nan, "ms_per_move": ms})
    return noted(pd.DataFrame(out, columns=_MATCHUP_COLUMNS), note)


def half_width(rows: pd.DataFrame, agents: Sequence[str], matchup: int) -> float:
    """The half-width of the 95% interval of the first agent's paired mean return in
    ``matchup`` (``t·sd/√deals`` over deals, :func:`cardsim.stats.t95`): the quantity a
    "stop when the half-width reaches X" rule watches; ``inf`` while the matchup has fewer
    than 2 deals."""
    values = first_agent_deals(rows, agents, matchup)
    if values.size < 2:
        return math.inf
    return t95(values.size) * float(values.std(ddof=1)) / math.sqrt(values.size)


def _paired_stats(g: Games, values: np.ndarray, label_key: str, label) -> dict:
    """Mean of ``values`` (one per game) averaged per (matchup, deal) first, its 95% interval,
    and the share of values > 0 (its interval over the deals, :func:`_rate`)."""
    new = np.ones(len(values), dtype=bool)
    new[1:] = (g.matchup[1:] != g.matchup[:-1]) | (g.deal[1:] != g.deal[:-1])
    code = np.cumsum(new) - 1
    per_deal = np.bincount(code, weights=values) / np.bincount(code)
    mean, lo, hi, se = _interval(per_deal)
    return {label_key: label, "games": len(values), "deals": len(per_deal),
            "mean_return": mean, "mean_return_lo": lo, "mean_return_hi": hi, "return_se": se,
            **_rate("win_rate", values > 0, code)}


_SEAT_COLUMNS = ["games", "deals", "mean_return", "mean_return_lo", "mean_return_hi",
                 "return_se", "win_rate", "win_rate_lo", "win_rate_hi"]


def seat_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per seat: mean return (averaged over the rotations of each deal first, so with full
    duplicate rotation every agent sits at every seat of the deal equally and the agents'
    strength cancels) with its 95% interval, and the seat's share of wins (Wilson)."""
    g = Games(rows)
    note = ("Mean return and win rate per seat over all games (paired over the rotations of "
            "each deal, 95% intervals): the seat advantage.")
    if not g.order:
        return noted(pd.DataFrame(columns=["seat"] + _SEAT_COLUMNS), note)
    out = [_paired_stats(g, g.returns[:, s], "seat", s) for s in range(g.n)]
    return noted(pd.DataFrame(out, columns=["seat"] + _SEAT_COLUMNS), note)


def dealer_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per position relative to the dealer (``dealer``, ``dealer+1`` — the player after the
    dealer, who plays first in Scopa and Bura — ...): mean return with its paired 95% interval
    and win rate; the last row, ``dealer - others``, is the dealer's return minus the mean of
    the other seats' returns per game (in a zero-sum 2-player game twice the dealer's mean
    return), with its interval: positive means dealing is an advantage."""
    g = Games(rows)
    require_columns(rows, ["dealer"])
    note = ("Mean return per position relative to the dealer, and the dealer's return minus "
            "the others' mean (paired over rotations, 95% intervals): the dealer's advantage.")
    if not g.order:
        return noted(pd.DataFrame(columns=["position"] + _SEAT_COLUMNS), note)
    n, ret = g.n, g.returns
    dealer = g.rows["dealer"].to_numpy(dtype=np.int64)
    if ((dealer < 0) | (dealer >= n)).any():
        bad = int(dealer[(dealer < 0) | (dealer >= n)][0])
        raise TableError(f"dealer={bad} in the rows: expected a seat from 0 to {n - 1}")
    at = np.arange(len(dealer))
    out = [_paired_stats(g, ret[at, (dealer + p) % n], "position",
                         "dealer" if p == 0 else f"dealer+{p}") for p in range(n)]
    if n > 1:
        own = ret[at, dealer]
        diff = own - (ret.sum(axis=1) - own) / (n - 1)
        row = _paired_stats(g, diff, "position", "dealer - others")
        row.update(win_rate=math.nan, win_rate_lo=math.nan, win_rate_hi=math.nan)
        out.append(row)
    return noted(pd.DataFrame(out, columns=["position"] + _SEAT_COLUMNS), note)


_CAT_COLUMNS = ["matchup", "label", "agent", "name", "category", "games", "deals", "mean",
                "mean_lo", "mean_hi", "se"]


def category_table(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """Per matchup, agent and scoring category (every ``cat_<name>_<s>`` column, mapped to the
    agent of ``seat_s``; the mean over its seats when it holds several): the mean points per
    game with a paired 95% interval (averaged over rotations within a deal first)."""
    g = Games(rows)
    note = ("Mean points per game in each scoring category for each agent of each matchup "
            "(paired over rotations, 95% intervals).")
    out = []
    for cat in category_names(g.rows) if g.order else []:
        values = np.full(g.returns.shape, np.nan)
        for s in range(g.n):
            column = at_seat(category(cat), s)
            if column in g.rows.columns:
                values[:, s] = pd.to_numeric(g.rows[column], errors="coerce").to_numpy(
                    np.float64)
        row, agent, _, _, v = g.per_agent(values)
        ok = ~np.isnan(v)
        for m, k, n, deals, _, _ in _paired(g.matchup[row][ok], agent[ok], g.deal[row][ok],
                                           v[ok]):
            mean, lo, hi, se = _interval(deals)
            out.append({"matchup": m, "label": matchup_label(agents, g.order[m]), "agent": k,
                        "name": agent_name(agents, k), "category": cat, "games": n,
                        "deals": len(deals), "mean": mean, "mean_lo": lo, "mean_hi": hi,
                        "se": se})
    table = pd.DataFrame(out, columns=_CAT_COLUMNS)
    if not table.empty:
        table = table.sort_values(["matchup", "agent"], kind="stable").reset_index(drop=True)
    return noted(table, note)


_END_COLUMNS = ["matchup", "label", "end", "count", "games", "share", "share_lo", "share_hi"]


def end_table(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """Per matchup: how the games ended (the ``end`` column: Bura's claim_won, claim_lost,
    bura, moscow, most_points, void), each kind's share of the games with its 95% interval
    over the deals (:func:`_rate`); empty when the rows have no ``end`` column."""
    g = Games(rows)
    note = ("Share of games ending each way (the end column) per matchup, 95% intervals (Wilson "
            "over the deals).")
    if "end" not in rows.columns or not g.order:
        return noted(pd.DataFrame(columns=_END_COLUMNS),
                      note + ("" if "end" in rows.columns else " The rows have no end column."))
    ends = pd.DataFrame({"matchup": g.matchup, "end": g.rows["end"].astype(str).to_numpy()})
    counts = ends.groupby(["matchup", "end"]).size()
    out = []
    for m, t in g.order.items():
        mine = g.matchup == m
        end, deal = ends["end"].to_numpy()[mine], g.deal[mine]
        for kind, count in counts.loc[m].items():
            out.append({"matchup": m, "label": matchup_label(agents, t), "end": kind,
                        "count": int(count), "games": int(mine.sum()),
                        **_rate("share", end == kind, deal)})
    return noted(pd.DataFrame(out, columns=_END_COLUMNS), note)


_THINK_COLUMNS = ["matchup", "label", "agent", "name", "games", "decisions",
                  "ms_per_decision", "ms_per_decision_lo", "ms_per_decision_hi", "time_ratio"]
EQUAL_TIME = 0.10
"""Two searching agents of a matchup think for equal time when their mean thinking times per
decision differ by at most this share (``time_ratio`` within 1 ± 0.10)."""


def thinking_table(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """Per matchup and agent: decisions per game (moves among two or more legal ones) and the
    agent's thinking time per decision in milliseconds (its ``think_<s>`` over its
    ``decisions_<s>``), the mean of each game's figure with a 95% interval; ``time_ratio`` is
    the agent's mean over the matchup's first timed agent's. Only searching agents are timed
    (:mod:`cardsim.experiments.rows`); empty when the rows do not record the thinking time (rows of
    version 1: :func:`cardsim.experiments.rows.thinking_recorded`)."""
    g = Games(rows)
    n = g.n
    note = ("Thinking time per decision (a move among two or more legal ones) of each "
            "searching agent, mean over games with a 95% interval; time_ratio is the agent's "
            "time over the matchup's first searching agent's: equal time means a ratio within "
            f"1 ± {EQUAL_TIME:g}.")
    recorded = thinking_recorded(rows)
    if not recorded or not g.order:
        return noted(pd.DataFrame(columns=_THINK_COLUMNS),
                     note + ("" if recorded else
                             " These rows carry no thinking times (store schema version 1)."))
    think = g.rows[seat_columns(THINK, n)].to_numpy(dtype=np.float64)
    decisions = g.rows[seat_columns(DECISIONS, n)].to_numpy(dtype=np.float64)
    row, agent, _, seats, mean_think = g.per_agent(think)
    _, _, _, _, mean_decisions = g.per_agent(decisions)
    think_sum, decision_sum = mean_think * seats, mean_decisions * seats
    out = []
    for m, t in g.order.items():
        first = None
        for k in distinct_agents(t):
            mine = (g.matchup[row] == m) & (agent == k)
            games = int(mine.sum())
            d = decision_sum[mine]
            with np.errstate(invalid="ignore", divide="ignore"):
                per = 1000.0 * think_sum[mine] / d
            per = per[np.isfinite(per)]
            est, lo, hi = mean_interval(per) if len(per) else (math.nan,) * 3
            if first is None and not math.isnan(est):
                first = est
            ratio = est / first if first and not math.isnan(est) else math.nan
            out.append({"matchup": m, "label": matchup_label(agents, t), "agent": k,
                        "name": agent_name(agents, k), "games": games,
                        "decisions": float(d.mean()) if games else math.nan,
                        "ms_per_decision": est, "ms_per_decision_lo": lo,
                        "ms_per_decision_hi": hi, "time_ratio": ratio})
    return noted(pd.DataFrame(out, columns=_THINK_COLUMNS), note)


def ratings_of(rows: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """The rating list (:func:`cardsim.experiments.ratings.rating_table`) when three or more agents
    meet in 2-agent matchups (with two, the matchup table says it all); else an empty table
    with its note."""
    from .ratings import rating_table
    g = Games(rows)
    two = [distinct_agents(t) for t in g.order.values()]
    rated = {k for t in two if len(t) == 2 for k in t}
    if len(rated) < 3:
        return noted(pd.DataFrame(columns=["agent", "name", "elo", "elo_lo", "elo_hi",
                                           "matchups", "deals", "score"]),
                     "A rating list needs three or more agents in 2-agent matchups.")
    return rating_table(rows, agents)


def report_tables(rows: pd.DataFrame, agents: Sequence[str],
                  sprt: dict | None = None, zero_sum: bool = True) -> dict[str, pd.DataFrame]:
    """All tables of a store: ``matchups``, ``seats``, ``dealer`` (when the rows have a
    ``dealer`` column), ``categories``, ``ends``, ``thinking``, ``ratings`` and ``sprt`` when
    ``sprt`` gives the test (keys kind, lower, upper, alpha, beta, as in the spec's
    ``size.sprt``; ``zero_sum``: whether the game is, :func:`cardsim.experiments.sprt.deal_values`)."""
    out = {"matchups": matchup_table(rows, agents), "seats": seat_table(rows)}
    if "dealer" in rows.columns:
        out["dealer"] = dealer_table(rows)
    out["categories"] = category_table(rows, agents)
    out["ends"] = end_table(rows, agents)
    out["thinking"] = thinking_table(rows, agents)
    out["ratings"] = ratings_of(rows, agents)
    if sprt is not None:
        out["sprt"] = sprt_table(rows, agents, **sprt, zero_sum=zero_sum)
    return out


def format_table(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """A copy for printing: every ``x``, ``x_lo``, ``x_hi`` triple of columns becomes one
    column ``x`` of ``"0.512 [0.498, 0.526]"`` strings (:func:`cardsim.stats.fmt_interval`)."""
    out = table.copy()
    for c in list(table.columns):
        lo, hi = f"{c}_lo", f"{c}_hi"
        if lo in table.columns and hi in table.columns:
            out[c] = [fmt_interval(float(e), float(a), float(b), digits)
                      if not math.isnan(float(e)) else "" for e, a, b in
                      zip(table[c], table[lo], table[hi])]
            out = out.drop(columns=[lo, hi])
    out.attrs = dict(table.attrs)
    return out
