"""A game designer's measures of a rules variant, from an experiment store's rows.

Each measure is one number with its 95% interval, computed per matchup from the rows of
duplicate play (:mod:`cardsim.experiments.rows`: a deal played once in each rotation of the
seats). :data:`MEASURES` defines each one; :func:`measures` computes them all:

- **balance** — ``seat_<s>``: seat ``s``'s mean return per game, and ``dealer``: the dealer's
  return minus the others' mean (:func:`cardsim.experiments.tables.seat_table`,
  :func:`~cardsim.experiments.tables.dealer_table`: paired over the rotations of each deal, so
  the agents' strength cancels and what is left is the seat's);
- **skill** — ``margin``: the matchup's first agent's mean return per game (its return minus the
  others' mean in a game that is not zero-sum), and the shares of the variance of seat 0's
  return that the **players** (which agent sits where: the rotation), the **cards** (the deal)
  and their **interplay** (the rest: how the cards suit each player, and the agents' own
  chance) explain: a two-way analysis of variance of seat 0's return by deal and rotation, with
  bootstrap intervals over the deals (:func:`variance_shares`);
- **decisiveness** — ``draws``: the share of games whose seats all return the same;
- **pace and choice** — ``moves``: moves per game; ``decisions``: moves chosen among two or
  more legal ones, per game; ``choice``: the share of moves that were such decisions;
- **scoring mix** — ``share_<category>``: the share of all the points scored in the game's
  scoring categories (:attr:`cardsim.game.GameDefinition.categories`) that came from each.

Means are paired over the rotations of each deal with Student's t over the deals
(:func:`cardsim.stats.mean_interval`), rates have clustered Wilson intervals
(:func:`cardsim.stats.clustered_wilson`), ratios of sums the ratio estimator's interval over the
deals (:func:`ratio_interval`), and the variance shares a percentile bootstrap over the deals
from a fixed seed, so the same rows always give the same table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from cardsim.stats import clustered_wilson, mean_interval, t95

from .rows import DECISIONS, Games, at_seat, category, seat_columns
from .tables import dealer_table, seat_table


@dataclass(frozen=True)
class Measure:
    """One designer's measure: its group, what it is, and the unit it is in."""

    group: str
    definition: str
    unit: str = ""


MEASURES = {
    "seat": Measure("balance", "a seat's mean return per game, its agents' strength cancelled "
                    "by duplicate rotation (seat_<s>)", "return"),
    "dealer": Measure("balance", "the dealer's mean return minus the other seats' mean",
                      "return"),
    "margin": Measure("skill", "the first agent's mean return per game (its return minus the "
                      "others' mean where the game is not zero-sum)", "return"),
    "players": Measure("skill", "the share of the variance of seat 0's return explained by "
                       "which agent sits where", "share"),
    "cards": Measure("skill", "the share of the variance of seat 0's return explained by the "
                     "deal's cards", "share"),
    "interplay": Measure("skill", "the share of the variance of seat 0's return explained by "
                         "neither alone: how the cards suit each player, and chance in play",
                         "share"),
    "draws": Measure("decisiveness", "the share of games whose seats all return the same",
                     "share"),
    "moves": Measure("pace", "moves per game", "moves"),
    "decisions": Measure("pace", "moves per game chosen among two or more legal ones",
                         "moves"),
    "choice": Measure("pace", "the share of moves chosen among two or more legal ones",
                      "share"),
    "share": Measure("scoring", "the share of the points scored that came from a category "
                     "(share_<category>)", "share"),
}
"""Every measure by its stem (module docstring)."""

COLUMNS = ["matchup", "group", "measure", "value", "value_lo", "value_hi", "deals"]
"""The columns of :func:`measures`' table."""
BOOT = 1000
"""Bootstrap resamples of the variance shares."""


def measures(rows: pd.DataFrame, categories: Sequence[str] = (), zero_sum: bool = True,
             boot: int = BOOT) -> pd.DataFrame:
    """Every measure of :data:`MEASURES` for each matchup of ``rows`` (a store's rows of
    duplicate play), one row per measure (:data:`COLUMNS`); ``categories``: the game's scoring
    categories (:attr:`~cardsim.game.GameDefinition.categories`), for the scoring mix."""
    g = Games(rows)
    out = []
    for m in sorted(g.order):
        mine = rows[rows["matchup"] == m]
        out += [{"matchup": m, **r} for r in _matchup_measures(mine, categories, zero_sum, boot)]
    return pd.DataFrame(out, columns=COLUMNS)


def _row(measure: str, value, lo, hi, deals: int) -> dict:
    stem = measure.split("_", 1)[0]
    return {"group": MEASURES[stem].group, "measure": measure, "value": float(value),
            "value_lo": float(lo), "value_hi": float(hi), "deals": int(deals)}


def _matchup_measures(rows: pd.DataFrame, categories, zero_sum: bool, boot: int) -> list[dict]:
    g = Games(rows)
    deals = len(np.unique(g.deal))
    out = []
    for r in seat_table(rows).itertuples():
        out.append(_row(f"seat_{r.seat}", r.mean_return, r.mean_return_lo, r.mean_return_hi,
                        r.deals))
    if "dealer" in rows and (rows["dealer"] >= 0).all():
        last = dealer_table(rows).iloc[-1]
        if last["position"] == "dealer - others":
            out.append(_row("dealer", last["mean_return"], last["mean_return_lo"],
                            last["mean_return_hi"], last["deals"]))
    if len(set(g.order[int(g.matchup[0])])) > 1:            # not an agent against itself
        out.append(_row("margin", *mean_interval(_first_agent_margin(g, zero_sum)), deals))
    for name, (value, lo, hi) in variance_shares(g, boot).items():
        out.append(_row(name, value, lo, hi, deals))
    same = (g.returns == g.returns[:, :1]).all(axis=1)
    out.append(_row("draws", *clustered_wilson(same, g.deal), deals))
    moves = g.rows["moves"].to_numpy(np.float64)
    out.append(_row("moves", *mean_interval(_per_deal(g, moves)), deals))
    decision_columns = seat_columns(DECISIONS, g.n)
    if all(c in g.rows for c in decision_columns):
        decided = g.rows[decision_columns].to_numpy(np.float64).sum(axis=1)
        out.append(_row("decisions", *mean_interval(_per_deal(g, decided)), deals))
        out.append(_row("choice", *ratio_interval(_deal_sums(g, decided),
                                                  _deal_sums(g, moves)), deals))
    points = {}
    for cat in categories:
        columns = [at_seat(category(cat), s) for s in range(g.n)]
        if all(c in g.rows for c in columns):
            values = g.rows[columns].apply(pd.to_numeric, errors="coerce").to_numpy(np.float64)
            points[cat] = _deal_sums(g, np.nan_to_num(values).sum(axis=1))
    if points:
        total = sum(points.values())
        for cat, part in points.items():
            out.append(_row(f"share_{cat}", *ratio_interval(part, total), deals))
    return out


def _deal_code(g: Games) -> np.ndarray:
    """Each game's deal, numbered from 0 in the rows' (sorted) order."""
    return np.unique(g.deal, return_inverse=True)[1].ravel()


def _deal_sums(g: Games, values: np.ndarray) -> np.ndarray:
    return np.bincount(_deal_code(g), weights=values)


def _per_deal(g: Games, values: np.ndarray) -> np.ndarray:
    code = _deal_code(g)
    return np.bincount(code, weights=values) / np.bincount(code)


def _first_agent_margin(g: Games, zero_sum: bool) -> np.ndarray:
    """Per deal: the first agent's mean return over its games (its return minus the others'
    mean where the game is not zero-sum)."""
    first = g.order[int(g.matchup[0])][0]
    mine = g.seats == first
    own = np.where(mine, g.returns, 0).sum(axis=1) / mine.sum(axis=1)
    if not zero_sum:
        others = (~mine).sum(axis=1)
        own = own - np.where(~mine, g.returns, 0).sum(axis=1) / np.maximum(others, 1)
    return _per_deal(g, own)


def ratio_interval(part: np.ndarray, whole: np.ndarray) -> tuple[float, float, float]:
    """``Σ part / Σ whole`` over the deals (one value of each per deal) and its 95% interval:
    the ratio estimator's standard error from the deals' residuals ``part - r·whole``, with
    Student's t over the deals (nan below 2 deals, or when nothing was scored)."""
    part, whole = np.asarray(part, np.float64), np.asarray(whole, np.float64)
    n, total = part.size, float(whole.sum())
    if not n or total == 0:
        return math.nan, math.nan, math.nan
    r = float(part.sum()) / total
    if n < 2:
        return r, math.nan, math.nan
    se = float(np.std(part - r * whole, ddof=1)) * math.sqrt(n) / total
    return r, r - t95(n) * se, r + t95(n) * se


def variance_shares(g: Games, boot: int = BOOT, seed: int = 0) -> dict:
    """The shares of the variance of seat 0's return explained by the players (the rotation),
    the cards (the deal) and their interplay (the rest): the sums of squares of a two-way
    analysis of variance over the deals that were played in every rotation, each divided by
    the total; each with a percentile bootstrap interval over the deals (``boot`` resamples
    drawn from ``seed``). Empty with fewer than 2 such deals or 2 rotations."""
    code = _deal_code(g)
    rotations = np.unique(g.rotation)
    table = np.full((code.max() + 1 if len(code) else 0, len(rotations)), np.nan)
    table[code, np.searchsorted(rotations, g.rotation)] = g.returns[:, 0]
    table = table[~np.isnan(table).any(axis=1)]
    if len(table) < 2 or len(rotations) < 2:
        return {}
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(table), size=(boot, len(table)))
    shares = np.array([_anova(table)] + [_anova(table[p]) for p in picks])
    out = {}
    for k, name in enumerate(("players", "cards", "interplay")):
        lo, hi = np.nanpercentile(shares[1:, k], [2.5, 97.5]) if boot else (math.nan,) * 2
        out[name] = (shares[0, k], lo, hi)
    return out


def _anova(z: np.ndarray) -> tuple[float, float, float]:
    """The shares of the total sum of squares of ``z`` (deals × rotations) of the rotations,
    the deals and the rest."""
    mean = z.mean()
    total = float(((z - mean) ** 2).sum())
    if total == 0:
        return math.nan, math.nan, math.nan
    rotations = z.shape[0] * float(((z.mean(axis=0) - mean) ** 2).sum())
    deals = z.shape[1] * float(((z.mean(axis=1) - mean) ** 2).sum())
    return rotations / total, deals / total, (total - rotations - deals) / total
