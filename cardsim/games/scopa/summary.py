"""The tables of ``cardsim simulate scopa``: scoring per category and side, and the dealer's
advantage, each with 95% confidence intervals.

Built chunk by chunk (:class:`cardsim.stats.Summary`): :func:`add` adds a chunk of rows to
exact sums, :func:`tables` builds the tables from them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import Summary, Sums, fmt_interval, wilson_interval
from .layout import CATEGORIES
from .rules import ScopaRules

ROLES = ("dealer", "other")


def add(sums: Sums, rows: pd.DataFrame, rules: ScopaRules) -> None:
    """A chunk's points per category and side, and the dealer's side against the other."""
    points = [np.stack([rows[f"side{s}_{c}"].to_numpy() for c in CATEGORIES], axis=1)
              for s in range(2)]
    totals = np.stack([p.sum(axis=1) for p in points], axis=1)
    for s in range(2):
        for k, cat in enumerate(CATEGORIES):
            sums.add(f"{cat} {s}", points[s][:, k])
        sums.add(f"total {s}", totals[:, s])
        sums.add(f"scopas won {s}", points[s][:, CATEGORIES.index("scopas")] > 0)
        sums.add(f"total won {s}", totals[:, s] > totals[:, 1 - s])
    dealer_side = rows["dealer"].to_numpy() & 1
    idx = np.arange(len(rows))
    scopas = np.stack([p[:, CATEGORIES.index("scopas")] for p in points], axis=1)
    pts = {"dealer": totals[idx, dealer_side], "other": totals[idx, 1 - dealer_side]}
    for role, other in zip(ROLES, ROLES[::-1]):
        side = dealer_side if role == "dealer" else 1 - dealer_side
        sums.add(f"{role} points", pts[role])
        sums.add(f"{role} scopa", scopas[idx, side] > 0)
        sums.add(f"{role} won", pts[role] > pts[other])
    sums.add("dealer advantage", pts["dealer"] - pts["other"])
    sums.add("tied", pts["dealer"] == pts["other"])
    sums.add("redeals", rows["redeals"].to_numpy())
    sums.add("moves", rows["moves"].to_numpy())


def tables(sums: Sums, rules: ScopaRules) -> dict[str, pd.DataFrame]:
    """Per category and side: mean points and share of deals the point was won; then the
    dealer's side against the other: points, P(at least one scopa), deals won, advantage."""
    n = sums.n("moves")
    label = ["seats 0+2", "seats 1+3"] if rules.num_players == 4 else ["seat 0", "seat 1"]

    def share(name: str) -> str:
        return fmt_interval(*wilson_interval(sums.total(name), n))

    def mean(name: str) -> str:
        return fmt_interval(*sums.mean_interval(name))

    rows = []
    for cat in (*CATEGORIES, "total"):
        for s in range(2):
            won = f"{cat} won {s}" if cat in ("scopas", "total") else f"{cat} {s}"
            rows.append({"category": cat, "side": label[s],
                         "mean points [95% CI]": mean(f"{cat} {s}"),
                         "share won [95% CI]": share(won)})
    by_side = pd.DataFrame(rows).set_index(["category", "side"])
    by_side.attrs["note"] = ("share won: deals in which the side took the category's point; "
                             "for scopas, P(at least one scopa); for total, deals with more "
                             "points than the other side")
    role = pd.DataFrame({
        "role": ["dealer's side", "other side"],
        "mean points": [mean(f"{r} points") for r in ROLES],
        "P(>=1 scopa)": [share(f"{r} scopa") for r in ROLES],
        "share of deals won": [share(f"{r} won") for r in ROLES],
    }).set_index("role")
    advantage = pd.DataFrame({
        "figure": ["dealer advantage (points per deal)", "tied deals", "redeals per deal",
                   "moves per deal"],
        "estimate [95% CI]": [mean("dealer advantage"), share("tied"), mean("redeals"),
                              f"{sums.mean('moves'):.1f}"],
    }).set_index("figure")
    return {"points by category and side": by_side, "dealer's side against the other": role,
            "dealer advantage": advantage}


summarize = Summary(add, tables)
"""The tables of a whole row array: ``summarize(rows, rules)``."""
