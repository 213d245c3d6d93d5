"""The tables of ``cardsim simulate bura``: how deals end, points at the claim, and the
advantage of the first leader and of the dealer, each with 95% confidence intervals.

Built chunk by chunk (:class:`cardsim.stats.Summary`): :func:`add` adds a chunk of rows to
exact sums, :func:`tables` builds the tables from them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import Summary, Sums, fmt_interval, wilson_interval
from .layout import RESULT_CLAIM_LOST, RESULT_CLAIM_WON, RESULT_NAMES
from .rules import BuraRules

ENDINGS = {"claim_won": "true claim (31 or more)", "claim_lost": "false claim",
           "bura": "bura", "moscow": "Moscow", "most_points": "played out, most points",
           "void": "void deal"}
CLAIMS = ((RESULT_CLAIM_WON, "true claims"), (RESULT_CLAIM_LOST, "false claims"))


def add(sums: Sums, rows: pd.DataFrame, rules: BuraRules) -> None:
    """A chunk's endings, pile points at claims and winners among decided deals."""
    result = rows["result"].to_numpy()
    for kind in ENDINGS:
        sums.add(kind, result == RESULT_NAMES.index(kind))
    for name in ("tricks", "moves", "redeals"):
        sums.add(name, rows[name].to_numpy())
    for kind, text in CLAIMS:
        sums.add(text, rows["claim_points"].to_numpy()[result == kind])
    winners = rows["winners"].to_numpy()
    decided = result != RESULT_NAMES.index("void")
    seats = {"first leader": rows["first_leader"].to_numpy(),
             "dealer": rows["dealer"].to_numpy()}
    seats |= {f"seat {s}": np.full(len(rows), s) for s in range(rules.num_players)}
    for who, seat in seats.items():
        sums.add(f"{who} won", ((winners >> seat) & 1)[decided])


def tables(sums: Sums, rules: BuraRules) -> dict[str, pd.DataFrame]:
    """How deals end; pile points at true and false claims; win shares of the first leader,
    the dealer and each seat."""
    n = sums.n("moves")
    endings = pd.DataFrame([
        {"ending": text, "share of deals [95% CI]":
         fmt_interval(*wilson_interval(sums.total(kind), n))}
        for kind, text in ENDINGS.items()]).set_index("ending")
    endings.attrs["note"] = (f"{int(sums.mean('tricks') * 10) / 10} tricks and "
                             f"{sums.mean('moves'):.1f} moves per deal on average, "
                             f"{sums.mean('redeals'):.3f} redeals per deal")
    claims = pd.DataFrame([
        {"claims": text, "count": sums.n(text),
         "pile points [95% CI]": fmt_interval(*sums.mean_interval(text), digits=1)
         if sums.n(text) else "-"} for _, text in CLAIMS]).set_index("claims")
    fair = 1 / rules.num_players
    whos = ["first leader", "dealer", *(f"seat {s}" for s in range(rules.num_players))]
    advantage = pd.DataFrame([
        {"who": who, "share of decided deals won [95% CI]":
         fmt_interval(*wilson_interval(sums.total(f"{who} won"), sums.n(f"{who} won")))}
        for who in whos]).set_index("who")
    advantage.attrs["note"] = (f"a share above {fair:.3f} (1 / players) is an advantage; a "
                               "false claim makes every other player a winner")
    return {"how deals end": endings, "points at the claim": claims,
            "leader's and dealer's advantage": advantage}


summarize = Summary(add, tables)
"""The tables of a whole row array: ``summarize(rows, rules)``."""
