"""The tables of ``cardsim simulate minchiate``: the net resti and their distribution, the
points by source and team, the combinations declared, and the advantage of the cutter's and
the dealer's side, each with 95% confidence intervals.

Each random deal is one row of ``kernels.RECORD_COLUMNS`` (single deals, whatever ``deals``
says). Team A = seats 0 and 2, team B = seats 1 and 3; ``net`` = resti A − resti B
(MI-RESTO-4). The cutter sits at the dealer's left (seat ``dealer + 3``); his team also leads
the first trick (MI-PLAY-1), and the dealer's team is the other one (seats ``d`` and ``d + 3``
are never partners), so the two advantages are opposite figures of the same deals.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import fmt_interval, mean_interval, noted, wilson_interval
from .layout import COMBO_KINDS, SOURCES
from .rules import MinchiateRules

HISTOGRAM_CAP = 8
"""Net values beyond ±this are pooled in the histogram's end rows."""


def _mean(values, digits: int = 3) -> str:
    values = np.asarray(values, dtype=float)
    return fmt_interval(*mean_interval(values), digits=digits) if len(values) > 1 else "-"


def _share(hits, n: int) -> str:
    return fmt_interval(*wilson_interval(int(np.sum(hits)), n)) if n else "-"


def net_table(records: pd.DataFrame) -> pd.DataFrame:
    """The net resti per deal from team A's view, who wins, and the resti made."""
    n = len(records)
    net = records["net"].to_numpy()
    rows = [
        {"figure": "net resti (A - B) per deal", "value [95% CI]": _mean(net)},
        {"figure": "|net resti| per deal", "value [95% CI]": _mean(np.abs(net))},
        {"figure": "team A wins (net > 0)", "value [95% CI]": _share(net > 0, n)},
        {"figure": "draws (net = 0)", "value [95% CI]": _share(net == 0, n)},
        {"figure": "team B wins (net < 0)", "value [95% CI]": _share(net < 0, n)},
        {"figure": "resti of team A", "value [95% CI]": _mean(records["resti_a"])},
        {"figure": "resti of team B", "value [95% CI]": _mean(records["resti_b"])},
        {"figure": "tricks of team A", "value [95% CI]": _mean(records["tricks_a"], 2)},
        {"figure": "a team without a trick (Matto given)", "value [95% CI]":
         _share(records["matto_given"].to_numpy() > 0, n)},
    ]
    return noted(pd.DataFrame(rows).set_index("figure"),
                 ("team A = seats 0 and 2; both teams usually make resti in a deal, "
                  "the net is their difference"))


def histogram_table(records: pd.DataFrame) -> pd.DataFrame:
    """How often each net value occurs (values beyond ±``HISTOGRAM_CAP`` pooled)."""
    n = len(records)
    net = records["net"].to_numpy()
    rows = []
    lo, hi = int(net.min()) if n else 0, int(net.max()) if n else 0
    for v in range(max(lo, -HISTOGRAM_CAP), min(hi, HISTOGRAM_CAP) + 1):
        if v == -HISTOGRAM_CAP and lo < v:
            label, hits = f"<= {v}", net <= v
        elif v == HISTOGRAM_CAP and hi > v:
            label, hits = f">= {v}", net >= v
        else:
            label, hits = str(v), net == v
        rows.append({"net resti": label, "deals": int(np.sum(hits)),
                     "share [95% CI]": _share(hits, n)})
    return pd.DataFrame(rows).set_index("net resti")


def sources_table(records: pd.DataFrame) -> pd.DataFrame:
    """Mean points per deal by source (MI-SCORE-1, MI-END-*) and team."""
    rows = []
    total_a = np.zeros(len(records))
    total_b = np.zeros(len(records))
    for s in (*SOURCES, "total"):
        if s == "total":
            a, b = total_a, total_b
        else:
            a = records[f"{s}_a"].to_numpy().astype(float)
            b = records[f"{s}_b"].to_numpy().astype(float)
            total_a, total_b = total_a + a, total_b + b
        rows.append({"source": s, "team A [95% CI]": _mean(a, 2),
                     "team B [95% CI]": _mean(b, 2), "A - B [95% CI]": _mean(a - b, 2)})
    return noted(pd.DataFrame(rows).set_index("source"),
                 ("points per deal; dying cards score at once and again in the pile "
                  "at the end (MI-END-5)"))


def declarations_table(records: pd.DataFrame) -> pd.DataFrame:
    """How often each kind of combination is declared (all four seats), and the bonus."""
    n = len(records)
    rows = []
    for k in (*COMBO_KINDS, "bonus_claims"):
        col = records["bonus_claims" if k == "bonus_claims" else f"declared_{k}"].to_numpy()
        rows.append({"kind": "Matto bonus claimed" if k == "bonus_claims" else k,
                     "per deal [95% CI]": _mean(col),
                     "deals with one or more [95% CI]": _share(col > 0, n)})
    return noted(pd.DataFrame(rows).set_index("kind"),
                 "declarations by the four seats together, per deal")


def sides_table(records: pd.DataFrame) -> pd.DataFrame:
    """The net resti from the view of the cutter's team and of the dealer's team."""
    n = len(records)
    dealer = records["dealer"].to_numpy()
    net = records["net"].to_numpy()
    rows = []
    for name, seat in (("cutter's team (leads first)", (dealer + 3) % 4),
                       ("dealer's team", dealer)):
        view = np.where(seat % 2 == 0, net, -net)
        rows.append({"side": name, "advantage: net resti [95% CI]": _mean(view),
                     "wins [95% CI]": _share(view > 0, n),
                     "losses [95% CI]": _share(view < 0, n)})
    return noted(pd.DataFrame(rows).set_index("side"),
                 ("net resti per deal from that side's view (> 0: an advantage); the "
                  "cutter is the dealer's left (seat dealer + 3), never the dealer's "
                  "partner, so the two rows mirror each other"))


def summarize(records: pd.DataFrame, rules: MinchiateRules) -> dict[str, pd.DataFrame]:
    """The tables of ``cardsim simulate minchiate`` (module docstring)."""
    return {"net resti": net_table(records),
            "net resti histogram": histogram_table(records),
            "points by source and team": sources_table(records),
            "combinations declared": declarations_table(records),
            "the cutter's and the dealer's side": sides_table(records)}
