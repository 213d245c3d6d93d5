"""The tables of ``cardsim simulate scopa``: scoring per category and side, and the dealer's
advantage, each with 95% confidence intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import fmt_interval, mean_interval, wilson_interval
from .layout import CATEGORIES
from .rules import ScopaRules


def _side_points(records: pd.DataFrame, side: int) -> pd.DataFrame:
    return pd.DataFrame({c: records[f"side{side}_{c}"].to_numpy() for c in CATEGORIES})


def summarize(records: pd.DataFrame, rules: ScopaRules) -> dict[str, pd.DataFrame]:
    """Per category and side: mean points and share of deals the point was won; then the
    dealer's side against the other: points, P(at least one scopa), deals won, advantage."""
    n = len(records)
    sides = [_side_points(records, s) for s in range(2)]
    label = ["seats 0+2", "seats 1+3"] if rules.num_players == 4 else ["seat 0", "seat 1"]
    rows = []
    for cat in (*CATEGORIES, "total"):
        for s in range(2):
            own = sides[s].sum(axis=1).to_numpy() if cat == "total" else sides[s][cat].to_numpy()
            if cat == "total":
                won = int((own > sides[1 - s].sum(axis=1).to_numpy()).sum())
            elif cat == "scopas":
                won = int((own > 0).sum())
            else:
                won = int(own.sum())
            rows.append({"category": cat, "side": label[s],
                         "mean points [95% CI]": fmt_interval(*mean_interval(own)),
                         "share won [95% CI]": fmt_interval(*wilson_interval(won, n))})
    by_side = pd.DataFrame(rows).set_index(["category", "side"])
    by_side.attrs["note"] = ("share won: deals in which the side took the category's point; "
                             "for scopas, P(at least one scopa); for total, deals with more "
                             "points than the other side")

    dealer_side = records["dealer"].to_numpy() & 1
    totals = np.stack([sides[s].sum(axis=1).to_numpy() for s in range(2)], axis=1)
    scopas = np.stack([sides[s]["scopas"].to_numpy() for s in range(2)], axis=1)
    idx = np.arange(n)
    dealer_pts, other_pts = totals[idx, dealer_side], totals[idx, 1 - dealer_side]
    dealer_sc, other_sc = scopas[idx, dealer_side], scopas[idx, 1 - dealer_side]
    role = pd.DataFrame({
        "role": ["dealer's side", "other side"],
        "mean points": [fmt_interval(*mean_interval(dealer_pts)),
                        fmt_interval(*mean_interval(other_pts))],
        "P(>=1 scopa)": [fmt_interval(*wilson_interval(int((dealer_sc > 0).sum()), n)),
                         fmt_interval(*wilson_interval(int((other_sc > 0).sum()), n))],
        "share of deals won": [fmt_interval(*wilson_interval(int((dealer_pts > other_pts).sum()), n)),
                               fmt_interval(*wilson_interval(int((other_pts > dealer_pts).sum()), n))],
    }).set_index("role")
    advantage = pd.DataFrame({
        "figure": ["dealer advantage (points per deal)", "tied deals", "redeals per deal",
                   "moves per deal"],
        "estimate [95% CI]": [fmt_interval(*mean_interval(dealer_pts - other_pts)),
                              fmt_interval(*wilson_interval(int((dealer_pts == other_pts).sum()), n)),
                              fmt_interval(*mean_interval(records["redeals"].to_numpy())),
                              f"{records['moves'].mean():.1f}"],
    }).set_index("figure")
    return {"points by category and side": by_side, "dealer's side against the other": role,
            "dealer advantage": advantage}
