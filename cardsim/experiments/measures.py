"""A game designer's measures of a rules variant, from an experiment store's rows.

Each measure is one number with its 95% interval, computed per matchup from the rows of
duplicate play (:mod:`cardsim.experiments.rows`: a deal played once in each rotation of the
seats). :data:`MEASURES` defines each one:

- **balance** — ``seat_<s>``: seat ``s``'s mean return per game, and ``dealer``: the dealer's
  return minus the others' mean, per game (every agent sits at every seat of a deal, so the
  agents' strength cancels and what is left is the seat's);
- **skill** — ``margin``: the matchup's first agent's mean return per game (its return minus the
  others' mean in a game that is not zero-sum; not for an agent against itself), and the shares
  of the variance of seat 0's return that the **players** (which agent sits where: the
  rotation), the **cards** (the deal) and their **interplay** (the rest: how the cards suit
  each player, and the agents' own chance) explain: the sums of squares of a two-way analysis of
  variance of seat 0's return by deal and rotation, over the deals played in every rotation,
  each divided by the total;
- **decisiveness** — ``draws``: the share of games whose seats all return the same; and over
  whole matches (their trajectory, :func:`cardsim.protocol.outcome.match_facts`): ``deals``:
  deals per match; ``leads``: lead changes per match; ``comebacks``: the share of the matches
  with a leader after half their deals that seats not leading then won; ``decided``: the
  share of a match's deals played before its winners led for good (near 0: decided at once,
  near 1: open to the end), over the matches somebody won;
- **pace and choice** — ``moves``: moves per game; ``decisions``: moves chosen among two or
  more legal ones, per game; ``choice``: the share of moves that were such decisions;
  ``legal``: the legal moves per such decision;
- **scoring mix** — ``share_<category>``: the share of all the points scored in the game's
  scoring categories (:attr:`cardsim.game.GameDefinition.categories`) that came from each.

**How.** Every measure is a function of sums over the deals of a few numbers per deal
(:func:`deal_sums`: a deal's returns, moves, points, …), so one bootstrap serves them all: the
deals are resampled with replacement (``boot`` times, from a fixed seed: the same rows always
give the same table) and each measure is computed from the resampled sums; its interval is the
bootstrap's 2.5% and 97.5% points, widened about the estimate by
:func:`cardsim.stats.bootstrap_widening` (which makes a mean's interval Student's t's).
:func:`compare` resamples the deals two variants share with the same draws, so a difference
between variants that play the same cards is paired.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from cardsim.protocol.outcome import MATCH_FACTS
from cardsim.stats import bootstrap_widening

from .rows import DECISIONS, OPTIONS, Games, at_seat, category, seat_columns


@dataclass(frozen=True)
class Measure:
    """One designer's measure: its group, what it is, and its unit."""

    group: str
    definition: str
    unit: str = ""


MEASURES = {
    "seat": Measure("balance", "a seat's mean return per game, its agents' strength cancelled "
                    "by duplicate rotation (seat_<s>)", "return"),
    "dealer": Measure("balance", "the dealer's mean return minus the other seats' mean, per "
                      "game", "return"),
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
    "deals": Measure("decisiveness", "deals per match", "deals"),
    "leads": Measure("decisiveness", "lead changes per match: the lead passing to seats that "
                     "did not share it", "changes"),
    "comebacks": Measure("decisiveness", "the share of the matches with a leader after half "
                         "their deals that seats not leading then won", "share"),
    "decided": Measure("decisiveness", "the share of a match's deals played before its "
                       "winners led for good", "share"),
    "moves": Measure("pace", "moves per game", "moves"),
    "decisions": Measure("pace", "moves per game chosen among two or more legal ones",
                         "moves"),
    "choice": Measure("pace", "the share of moves chosen among two or more legal ones",
                      "share"),
    "legal": Measure("pace", "the legal moves per move chosen among two or more", "moves"),
    "share": Measure("scoring", "the share of the points scored that came from a category "
                     "(share_<category>)", "share"),
}
"""Every measure by its stem (module docstring)."""

COLUMNS = ["matchup", "group", "measure", "value", "value_lo", "value_hi", "deals"]
"""The columns of :func:`measures`' table."""
BOOT = 1000
"""Bootstrap resamples of the deals."""


@dataclass(frozen=True)
class DealSums:
    """Per deal of one matchup (rows, in deal order ``deals``), the numbers whose sums give
    every measure (``columns``: their names), and how each measure is computed from the sums
    (``formulas``: name -> function of a ``{column: sum}`` mapping, vectorized over
    resamples)."""

    deals: np.ndarray
    columns: tuple[str, ...]
    values: np.ndarray
    formulas: dict[str, Callable]


def deal_sums(rows: pd.DataFrame, categories: Sequence[str] = (),
              zero_sum: bool = True) -> DealSums:
    """The per-deal numbers of one matchup's rows and the formulas of its measures (module
    docstring)."""
    g = Games(rows)
    deal_ids, code = np.unique(g.deal, return_inverse=True)
    code = code.ravel()
    n, games = g.n, len(g.deal)
    per_game: dict[str, np.ndarray] = {"games": np.ones(games)}
    formulas: dict[str, Callable] = {}

    def mean_of(column: str) -> Callable:
        return lambda s: s[column] / s["games"]

    for seat in range(n):
        per_game[f"seat_{seat}"] = g.returns[:, seat]
        formulas[f"seat_{seat}"] = mean_of(f"seat_{seat}")
    dealer = g.rows["dealer"].to_numpy(np.int64) if "dealer" in g.rows else np.full(games, -1)
    if n > 1 and ((dealer >= 0) & (dealer < n)).all():
        own = g.returns[np.arange(games), dealer]
        per_game["dealer"] = own - (g.returns.sum(axis=1) - own) / (n - 1)
        formulas["dealer"] = mean_of("dealer")
    first = g.order[int(g.matchup[0])] if games else ()
    if len(set(first)) > 1:                               # not an agent against itself
        mine = g.seats == first[0]
        margin = np.where(mine, g.returns, 0).sum(axis=1) / mine.sum(axis=1)
        if not zero_sum:
            margin -= np.where(~mine, g.returns, 0).sum(axis=1) / (~mine).sum(axis=1)
        per_game["margin"] = margin
        formulas["margin"] = mean_of("margin")
    per_game["draws"] = (g.returns == g.returns[:, :1]).all(axis=1).astype(np.float64)
    formulas["draws"] = mean_of("draws")
    per_game["moves"] = g.rows["moves"].to_numpy(np.float64)
    formulas["moves"] = mean_of("moves")
    decisions = seat_columns(DECISIONS, n)
    if _recorded(g.rows, decisions):
        per_game["decisions"] = g.rows[decisions].to_numpy(np.float64).sum(axis=1)
        formulas["decisions"] = mean_of("decisions")
        formulas["choice"] = lambda s: s["decisions"] / s["moves"]
        options = seat_columns(OPTIONS, n)
        if _recorded(g.rows, options):
            per_game["options"] = g.rows[options].to_numpy(np.float64).sum(axis=1)
            formulas["legal"] = lambda s: s["options"] / s["decisions"]
    if _recorded(g.rows, MATCH_FACTS):
        deals = g.rows["match_deals"].to_numpy(np.float64)
        comeback = g.rows["match_comeback"].to_numpy(np.float64)
        decided = g.rows["match_decided"].to_numpy(np.float64)
        per_game.update(deals=deals, leads=g.rows["match_lead_changes"].to_numpy(np.float64),
                        comebacks=(comeback == 1).astype(np.float64),
                        led=(comeback >= 0).astype(np.float64),
                        decided=np.where(decided >= 0, decided / np.maximum(deals, 1), 0.0),
                        won=(decided >= 0).astype(np.float64))
        formulas.update(deals=mean_of("deals"), leads=mean_of("leads"),
                        comebacks=lambda s: s["comebacks"] / s["led"],
                        decided=lambda s: s["decided"] / s["won"])
    points = []
    for cat in categories:
        columns = [at_seat(category(cat), s) for s in range(n)]
        if all(c in g.rows for c in columns):
            values = g.rows[columns].apply(pd.to_numeric, errors="coerce").to_numpy(np.float64)
            per_game[f"points_{cat}"] = np.nan_to_num(values).sum(axis=1)
            points.append(f"points_{cat}")
    for p in points:
        formulas["share_" + p.removeprefix("points_")] = (
            lambda s, p=p: s[p] / sum(s[q] for q in points))
    columns = list(per_game)
    values = np.zeros((len(deal_ids), len(columns)))
    for k, c in enumerate(columns):
        values[:, k] = np.bincount(code, weights=per_game[c], minlength=len(deal_ids))
    anova, names = _anova_sums(g, code, len(deal_ids))
    if anova is not None:
        values = np.column_stack([values, anova])
        columns += names
        formulas.update(_ANOVA_FORMULAS(len(names) - 3))
    return DealSums(deals=deal_ids, columns=tuple(columns), values=values, formulas=formulas)


def _recorded(rows: pd.DataFrame, columns) -> bool:
    """Whether every row holds ``columns`` (rows of an older store, or of single deals, may
    lack them: :mod:`cardsim.experiments.rows`)."""
    return all(c in rows for c in columns) and not rows[list(columns)].isna().any().any()


def _anova_sums(g: Games, code: np.ndarray, n_deals: int):
    """Per deal played in every rotation (others all zero): a 1, seat 0's return in each
    rotation, the sum of their squares and the square of their sum (the sums of squares of the
    analysis of variance are functions of these numbers' sums)."""
    rotations = np.unique(g.rotation)
    if len(rotations) < 2:
        return None, []
    z = np.full((n_deals, len(rotations)), np.nan)
    z[code, np.searchsorted(rotations, g.rotation)] = g.returns[:, 0]
    whole = ~np.isnan(z).any(axis=1)
    z = np.where(whole[:, None], z, 0.0)
    sums = np.column_stack([whole.astype(np.float64), z, (z ** 2).sum(axis=1),
                            z.sum(axis=1) ** 2])
    names = ["anova_deals"] + [f"anova_z{r}" for r in range(len(rotations))] + \
        ["anova_squares", "anova_deal_squares"]
    return sums, names


def _ANOVA_FORMULAS(n_rot: int) -> dict[str, Callable]:
    """The variance shares from the sums of :func:`_anova_sums` (``n_rot`` rotations)."""
    def parts(s):
        d = s["anova_deals"]
        column = [s[f"anova_z{r}"] for r in range(n_rot)]
        grand = sum(column) / (d * n_rot)
        total = s["anova_squares"] - d * n_rot * grand ** 2
        rotation = sum((c / d - grand) ** 2 for c in column) * d
        deal = s["anova_deal_squares"] / n_rot - d * n_rot * grand ** 2
        with np.errstate(invalid="ignore", divide="ignore"):
            return rotation / total, deal / total, (total - rotation - deal) / total
    return {"players": lambda s: parts(s)[0], "cards": lambda s: parts(s)[1],
            "interplay": lambda s: parts(s)[2]}


WORDS = {"seat": "seat {}'s mean return", "dealer": "the dealer's edge",
         "margin": "the first agent's margin", "players": "the players' share of the variance",
         "cards": "the cards' share of the variance",
         "interplay": "the interplay's share of the variance", "draws": "the share of draws",
         "deals": "the deals a match", "leads": "the lead changes a match",
         "comebacks": "the share of comebacks", "decided": "how late a match is decided",
         "moves": "the moves a game", "decisions": "the decisions a game",
         "choice": "the share of moves with a choice", "legal": "the legal moves a decision",
         "share": "the share of the points from {}"}
"""How a sentence names each measure (:func:`words`)."""


def words(measure: str) -> str:
    """A measure's name in a sentence: ``seat_1`` is "seat 1's mean return", ``share_coins``
    "the share of the points from coins"."""
    stem, _, rest = measure.partition("_")
    return WORDS[stem].format(rest)


def _weights(n_deals: int, boot: int, seed: int) -> np.ndarray:
    """``boot`` resamples of ``n_deals`` deals with replacement, as counts (boot × deals)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_deals, np.full(n_deals, 1.0 / n_deals), size=boot).astype(
        np.float64) if n_deals else np.zeros((boot, 0))


def _evaluate(sums: DealSums, totals: np.ndarray) -> dict[str, np.ndarray]:
    """Every measure from the column totals ``totals`` (… × columns)."""
    named = {c: totals[..., k] for k, c in enumerate(sums.columns)}
    with np.errstate(invalid="ignore", divide="ignore"):
        return {m: np.asarray(f(named), dtype=np.float64) for m, f in sums.formulas.items()}


def _interval(estimate: float, draws: np.ndarray, n: int) -> tuple[float, float]:
    """The bootstrap's 95% interval, widened about the estimate (module docstring)."""
    draws = draws[np.isfinite(draws)]
    if n < 2 or not draws.size or not math.isfinite(estimate):
        return math.nan, math.nan
    lo, hi = np.percentile(draws, [2.5, 97.5])
    w = bootstrap_widening(n)
    return estimate - w * (estimate - lo), estimate + w * (hi - estimate)


def _order(name: str) -> tuple:
    return (list(MEASURES).index(name.split("_", 1)[0]), name)


def matchup_measures(rows: pd.DataFrame, categories: Sequence[str] = (),
                     zero_sum: bool = True, boot: int = BOOT, seed: int = 0) -> list[dict]:
    """The measures of one matchup's rows (module docstring), one dict per measure."""
    sums = deal_sums(rows, categories, zero_sum)
    estimate = _evaluate(sums, sums.values.sum(axis=0))
    draws = _evaluate(sums, _weights(len(sums.deals), boot, seed) @ sums.values)
    out = []
    for name in sorted(estimate, key=_order):
        value = float(estimate[name])
        lo, hi = _interval(value, draws[name], len(sums.deals))
        out.append({"group": MEASURES[name.split("_", 1)[0]].group, "measure": name,
                    "value": value, "value_lo": lo, "value_hi": hi,
                    "deals": len(sums.deals)})
    return out


def measures(rows: pd.DataFrame, categories: Sequence[str] = (), zero_sum: bool = True,
             boot: int = BOOT, seed: int = 0) -> pd.DataFrame:
    """Every measure of :data:`MEASURES` for each matchup of ``rows`` (a store's rows of
    duplicate play), one row per measure (:data:`COLUMNS`); ``categories``: the game's scoring
    categories (:attr:`~cardsim.game.GameDefinition.categories`), for the scoring mix."""
    g = Games(rows)
    out = []
    for m in sorted(g.order):
        out += [{"matchup": m, **r} for r in matchup_measures(
            rows[rows["matchup"] == m], categories, zero_sum, boot, seed)]
    return pd.DataFrame(out, columns=COLUMNS)


DIFF_COLUMNS = ["measure", "group", "value", "baseline", "diff", "diff_lo", "diff_hi", "p",
                "deals", "paired"]
"""The columns of :func:`compare`'s rows."""


def compare(rows: pd.DataFrame, baseline: pd.DataFrame, categories: Sequence[str] = (),
            zero_sum: bool = True, boot: int = BOOT, seed: int = 0) -> list[dict]:
    """Each measure of one matchup's ``rows`` against the same matchup's ``baseline`` rows:
    both values, their difference with its 95% interval and two-sided p-value (the
    difference over its bootstrap standard error, against the normal), one dict per measure
    both have (:data:`DIFF_COLUMNS`). Where both hold the same deals (the same seeds: the same
    cards where the rules deal alike) one resample of the deals serves both: the difference is
    paired (``paired``); otherwise each is resampled on its own."""
    a, b = deal_sums(rows, categories, zero_sum), deal_sums(baseline, categories, zero_sum)
    paired = len(a.deals) == len(b.deals) and bool((a.deals == b.deals).all())
    wa = _weights(len(a.deals), boot, seed)
    wb = wa if paired else _weights(len(b.deals), boot, seed + 1)
    ea, eb = _evaluate(a, a.values.sum(axis=0)), _evaluate(b, b.values.sum(axis=0))
    da, db = _evaluate(a, wa @ a.values), _evaluate(b, wb @ b.values)
    n = min(len(a.deals), len(b.deals))
    out = []
    for name in sorted(set(ea) & set(eb), key=_order):
        diff = float(ea[name] - eb[name])
        draws = da[name] - db[name]
        lo, hi = _interval(diff, draws, n)
        finite = draws[np.isfinite(draws)]
        se = float(finite.std(ddof=1)) if finite.size > 1 else math.nan
        p = (math.erfc(abs(diff) / se / math.sqrt(2)) if se > 0 else
             (1.0 if diff == 0 else 0.0) if se == 0 else math.nan)
        out.append({"measure": name, "group": MEASURES[name.split("_", 1)[0]].group,
                    "value": float(ea[name]), "baseline": float(eb[name]), "diff": diff,
                    "diff_lo": lo, "diff_hi": hi, "p": p, "deals": n, "paired": paired})
    return out
