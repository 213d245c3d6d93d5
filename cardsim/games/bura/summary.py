"""The tables of ``cardsim simulate bura``: how deals end, points at the claim, and the
advantage of the first leader and of the dealer, each with 95% confidence intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import fmt_interval, mean_interval, wilson_interval
from .layout import RESULT_CLAIM_LOST, RESULT_CLAIM_WON, RESULT_NAMES
from .rules import BuraRules

ENDINGS = {"claim_won": "true claim (31 or more)", "claim_lost": "false claim",
           "bura": "bura", "moscow": "Moscow", "most_points": "played out, most points",
           "void": "void deal"}


def summarize(records: pd.DataFrame, rules: BuraRules) -> dict[str, pd.DataFrame]:
    """How deals end; pile points at true and false claims; win shares of the first leader,
    the dealer and each seat."""
    n = len(records)
    result = records["result"].to_numpy()
    endings = pd.DataFrame([
        {"ending": text, "share of deals [95% CI]":
         fmt_interval(*wilson_interval(int((result == RESULT_NAMES.index(kind)).sum()), n))}
        for kind, text in ENDINGS.items()]).set_index("ending")
    endings.attrs["note"] = (f"{int(records['tricks'].mean() * 10) / 10} tricks and "
                             f"{records['moves'].mean():.1f} moves per deal on average, "
                             f"{records['redeals'].mean():.3f} redeals per deal")

    rows = []
    for kind, text in ((RESULT_CLAIM_WON, "true claims"), (RESULT_CLAIM_LOST, "false claims")):
        pts = records.loc[result == kind, "claim_points"].to_numpy()
        rows.append({"claims": text, "count": len(pts),
                     "pile points [95% CI]": fmt_interval(*mean_interval(pts), digits=1)
                     if len(pts) else "-"})
    claims = pd.DataFrame(rows).set_index("claims")

    winners = records["winners"].to_numpy()
    decided = result != RESULT_NAMES.index("void")
    m = int(decided.sum())

    def share(seats: np.ndarray) -> str:
        won = int(((winners >> seats) & 1)[decided].sum())
        return fmt_interval(*wilson_interval(won, m))

    fair = 1 / rules.num_players
    rows = [{"who": "first leader", "share of decided deals won [95% CI]":
             share(records["first_leader"].to_numpy())},
            {"who": "dealer", "share of decided deals won [95% CI]":
             share(records["dealer"].to_numpy())}]
    rows += [{"who": f"seat {s}", "share of decided deals won [95% CI]":
              share(np.full(n, s))} for s in range(rules.num_players)]
    advantage = pd.DataFrame(rows).set_index("who")
    advantage.attrs["note"] = (f"a share above {fair:.3f} (1 / players) is an advantage; a "
                               "false claim makes every other player a winner")
    return {"how deals end": endings, "points at the claim": claims,
            "leader's and dealer's advantage": advantage}
