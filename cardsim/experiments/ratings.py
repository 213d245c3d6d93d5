"""A rating list: every agent of a round robin on one Elo scale, from duplicate deals.

The Bradley–Terry model (Bradley and Terry 1952; Elo's scale, 400 points per factor 10 of
odds): agent ``i`` scores against agent ``j`` with probability
``1 / (1 + 10 ** ((R_j - R_i) / 400))``. Its ratings are fitted by maximum likelihood with
Hunter's MM iteration (Hunter 2004, "MM algorithms for generalized Bradley–Terry models") to the
paired scores of every 2-agent matchup of the rows:

- a matchup's result for its first agent is the sum over deals of its per-deal score against
  the second in the same games (win 1 when its return, the mean over its seats, is above the
  other's, draw 1/2, loss 0; averaged over the deal's rotations, so that the luck of the cards
  cancels; :meth:`cardsim.experiments.rows.Games.first_agent_deals` ``"head"``), the second agent
  scoring the rest. In a zero-sum game of two sides this is the sign of its return; in a game
  that is not (Mushka, one agent against a field of the other) it is who wrote off more at
  the same table, not whether a record went down;
- one virtual draw is added to every pair that played (half a point each way), so that an agent
  that won or lost every deal still has a finite rating (a weak prior toward equality, negligible
  beside hundreds of deals);
- ratings are anchored at the ``anchor`` agent (the heuristic, or the ``medium`` level that
  stands for it, when it plays; else the first agent): its rating is 0;
- 95% intervals come from a bootstrap over deals (every matchup's deals resampled with
  replacement, ``bootstrap`` times, from a fixed seed, so the same rows give the same table)
  — the percentile interval of each agent's rating relative to the anchor, widened about the
  rating by :func:`cardsim.stats.bootstrap_widening` of the fewest deals a pair played (the
  percentile interval alone covered a true rating 93.7% of the time at 20 deals a pair).

Agents not connected to the anchor through matchups get no rating (NaN). Matchups of three or
more distinct agents are left out.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from cardsim.solvers.agent_spec import LEVELS
from cardsim.stats import bootstrap_widening, noted

from .rows import Games, agent_name, distinct_agents

ELO = 400.0 / math.log(10.0)          # Elo points per unit of natural-log strength
_COLUMNS = ["agent", "name", "elo", "elo_lo", "elo_hi", "matchups", "deals", "score"]


def fit_strengths(wins: np.ndarray, n: np.ndarray, iterations: int = 10_000,
                  tol: float = 1e-12) -> np.ndarray:
    """Bradley–Terry strengths ``gamma`` (their sum = the number of agents) maximizing the
    likelihood of ``wins[i, j]`` (i's points against j) out of ``n[i, j] = n[j, i]`` games,
    by Hunter's MM iteration; agents without games keep strength 1."""
    k = len(wins)
    gamma = np.ones(k)
    total = wins.sum(axis=1)
    played = n.sum(axis=1) > 0
    for _ in range(iterations):
        denom = (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(played, total / np.where(denom > 0, denom, 1.0), 1.0)
        new *= played.sum() / new[played].sum() if played.any() else 1.0
        new = np.where(played, new, 1.0)
        if np.max(np.abs(new - gamma)) < tol:
            return new
        gamma = new
    return gamma


def _components(n: np.ndarray, start: int) -> np.ndarray:
    """The agents connected to ``start`` through pairs with games."""
    seen = np.zeros(len(n), dtype=bool)
    todo = [start]
    seen[start] = True
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(n[i] > 0):
            if not seen[j]:
                seen[j] = True
                todo.append(int(j))
    return seen


def _elo(wins, n, anchor, linked) -> np.ndarray:
    gamma = fit_strengths(wins, n)
    with np.errstate(divide="ignore"):
        elo = ELO * (np.log(gamma) - np.log(gamma[anchor]))
    return np.where(linked, elo, np.nan)


def rating_table(rows: pd.DataFrame, agents: Sequence[str], anchor: int | None = None,
                 bootstrap: int = 400, seed: int = 19) -> pd.DataFrame:
    """The rating list of the rows' 2-agent matchups (module docstring), best first: each
    agent's Elo rating with its 95% bootstrap interval, its matchups, deals and mean score."""
    g = Games(rows)
    note = ("Elo ratings (Bradley–Terry, maximum likelihood) from the paired scores of every "
            "2-agent matchup on duplicate deals, anchored at {anchor} = 0, with 95% bootstrap "
            "intervals over deals; one virtual draw per pair.")
    pairs = []
    for m, t in g.order.items():
        two = distinct_agents(t)
        if len(two) == 2:
            scores = g.first_agent_deals(m, "head")
            if len(scores):
                pairs.append((two[0], two[1], scores))
    if not pairs:
        return noted(pd.DataFrame(columns=_COLUMNS), note.format(anchor="an agent"))
    k = max(len(agents), 1 + max(max(a, b) for a, b, _ in pairs))
    in_pairs = sorted({a for a, _, _ in pairs} | {b for _, b, _ in pairs})
    if anchor is None:
        anchor = next((i for i in in_pairs
                       if LEVELS.get(str(agents[i]), str(agents[i])) == "heuristic"), in_pairs[0])

    def tally(resampled):
        wins, n = np.zeros((k, k)), np.zeros((k, k))
        for (a, b, _), s in zip(pairs, resampled):
            wins[a, b] += s.sum() + 0.5
            wins[b, a] += len(s) - s.sum() + 0.5
            n[a, b] += len(s) + 1.0
            n[b, a] += len(s) + 1.0
        return wins, n

    wins, n = tally([s for _, _, s in pairs])
    linked = _components(n, anchor)
    elo = _elo(wins, n, anchor, linked)
    rng = np.random.default_rng(seed)
    draws = np.empty((bootstrap, k))
    for r in range(bootstrap):
        sample = [s[rng.integers(0, len(s), len(s))] for _, _, s in pairs]
        draws[r] = _elo(*tally(sample), anchor, linked)
    lo, hi = (np.percentile(draws, q, axis=0) if bootstrap else np.full(k, np.nan)
              for q in (2.5, 97.5))
    widen = bootstrap_widening(min(len(s) for _, _, s in pairs))
    if not math.isnan(widen):
        lo, hi = elo - (elo - lo) * widen, elo + (hi - elo) * widen
    out = []
    for i in in_pairs:
        mine = [(s if a == i else 1.0 - s) for a, b, s in pairs if i in (a, b)]
        out.append({"agent": i, "name": agent_name(agents, i), "elo": elo[i],
                    "elo_lo": lo[i] if linked[i] else math.nan,
                    "elo_hi": hi[i] if linked[i] else math.nan, "matchups": len(mine),
                    "deals": int(sum(len(s) for s in mine)),
                    "score": float(np.concatenate(mine).mean())})
    table = pd.DataFrame(out, columns=_COLUMNS).sort_values("elo", ascending=False,
                                                            kind="stable")
    return noted(table.reset_index(drop=True), note.format(anchor=agent_name(agents, anchor)))


__all__ = ["ELO", "fit_strengths", "rating_table"]
