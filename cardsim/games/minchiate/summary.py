"""The tables of ``cardsim simulate minchiate``: the net resti and their distribution, the
points by source and team, the combinations declared, and the advantage of the cutter's and
the dealer's side, each with 95% confidence intervals.

Each random deal is one row of ``kernels.ROW_COLUMNS`` (single deals, whatever ``deals``
says). Team A = seats 0 and 2, team B = seats 1 and 3; ``net`` = resti A − resti B
(MI-RESTO-4). The cutter sits at the dealer's left (seat ``dealer + 3``); his team also leads
the first trick (MI-PLAY-1), and the dealer's team is the other one (seats ``d`` and ``d + 3``
are never partners), so the two advantages are opposite figures of the same deals.

Built chunk by chunk (:class:`cardsim.stats.Summary`): :func:`add` adds a chunk of rows to
exact sums, :func:`tables` builds the tables from them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import Summary, Sums, fmt_interval, noted, wilson_interval
from .layout import COMBO_KINDS, SOURCES
from .rules import MinchiateRules

HISTOGRAM_CAP = 8
"""Net values beyond ±this are pooled in the histogram's end rows."""

SIDES = {"cutter's team (leads first)": 3, "dealer's team": 0}
"""The sides of :func:`sides_table`, each by the seat whose team it is, counted from the
dealer: the cutter is the dealer's left (seat ``dealer + 3``)."""


def _mean(sums: Sums, name: str, digits: int = 3) -> str:
    return fmt_interval(*sums.mean_interval(name), digits=digits) if sums.n(name) > 1 else "-"


def _share(hits: int, n: int) -> str:
    return fmt_interval(*wilson_interval(hits, n)) if n else "-"


def add(sums: Sums, rows: pd.DataFrame, rules: MinchiateRules) -> None:
    """A chunk's net resti, points by source, declarations and sides' views."""
    net = rows["net"].to_numpy()
    sums.count("net", net)
    sums.add("|net|", np.abs(net))
    for name, hits in (("A wins", net > 0), ("draws", net == 0), ("B wins", net < 0),
                       ("matto_given", rows["matto_given"].to_numpy() > 0)):
        sums.add(name, hits)
    for name in ("resti_a", "resti_b", "tricks_a", "bonus_claims",
                 *(f"declared_{k}" for k in COMBO_KINDS)):
        sums.add(name, rows[name].to_numpy())
    for name in ("bonus_claims", *(f"declared_{k}" for k in COMBO_KINDS)):
        sums.add(f"{name} > 0", rows[name].to_numpy() > 0)
    team = {t: [rows[f"{s}_{t}"].to_numpy() for s in SOURCES] for t in "ab"}
    for s, a, b in zip((*SOURCES, "total"), [*team["a"], sum(team["a"])],
                       [*team["b"], sum(team["b"])]):
        sums.add(f"{s}_a", a)
        sums.add(f"{s}_b", b)
        sums.add(f"{s} a - b", a - b)
    dealer = rows["dealer"].to_numpy()
    for side, offset in SIDES.items():
        view = np.where((dealer + offset) % 4 % 2 == 0, net, -net)
        sums.add(side, view)
        sums.add(f"{side} wins", view > 0)
        sums.add(f"{side} losses", view < 0)


def net_table(sums: Sums) -> pd.DataFrame:
    """The net resti per deal from team A's view, who wins, and the resti made."""
    n = sums.n("net")
    rows = [
        {"figure": "net resti (A - B) per deal", "value [95% CI]": _mean(sums, "net")},
        {"figure": "|net resti| per deal", "value [95% CI]": _mean(sums, "|net|")},
        {"figure": "team A wins (net > 0)", "value [95% CI]": _share(sums.total("A wins"), n)},
        {"figure": "draws (net = 0)", "value [95% CI]": _share(sums.total("draws"), n)},
        {"figure": "team B wins (net < 0)", "value [95% CI]": _share(sums.total("B wins"), n)},
        {"figure": "resti of team A", "value [95% CI]": _mean(sums, "resti_a")},
        {"figure": "resti of team B", "value [95% CI]": _mean(sums, "resti_b")},
        {"figure": "tricks of team A", "value [95% CI]": _mean(sums, "tricks_a", 2)},
        {"figure": "a team without a trick (Matto given)", "value [95% CI]":
         _share(sums.total("matto_given"), n)},
    ]
    return noted(pd.DataFrame(rows).set_index("figure"),
                 ("team A = seats 0 and 2; both teams usually make resti in a deal, "
                  "the net is their difference"))


def histogram_table(sums: Sums) -> pd.DataFrame:
    """How often each net value occurs (values beyond ±``HISTOGRAM_CAP`` pooled)."""
    n = sums.n("net")
    counts = sums.counts("net")
    lo, hi = (min(counts), max(counts)) if counts else (0, 0)
    rows = []
    for v in range(max(lo, -HISTOGRAM_CAP), min(hi, HISTOGRAM_CAP) + 1):
        if v == -HISTOGRAM_CAP and lo < v:
            label, hits = f"<= {v}", sum(k for value, k in counts.items() if value <= v)
        elif v == HISTOGRAM_CAP and hi > v:
            label, hits = f">= {v}", sum(k for value, k in counts.items() if value >= v)
        else:
            label, hits = str(v), counts.get(v, 0)
        rows.append({"net resti": label, "deals": hits, "share [95% CI]": _share(hits, n)})
    return pd.DataFrame(rows).set_index("net resti")


def sources_table(sums: Sums) -> pd.DataFrame:
    """Mean points per deal by source (MI-SCORE-1, MI-END-*) and team."""
    rows = [{"source": s, "team A [95% CI]": _mean(sums, f"{s}_a", 2),
             "team B [95% CI]": _mean(sums, f"{s}_b", 2),
             "A - B [95% CI]": _mean(sums, f"{s} a - b", 2)} for s in (*SOURCES, "total")]
    return noted(pd.DataFrame(rows).set_index("source"),
                 ("points per deal; dying cards score at once and again in the pile "
                  "at the end (MI-END-5)"))


def declarations_table(sums: Sums) -> pd.DataFrame:
    """How often each kind of combination is declared (all four seats), and the bonus."""
    rows = []
    for k in (*COMBO_KINDS, "bonus_claims"):
        name = "bonus_claims" if k == "bonus_claims" else f"declared_{k}"
        rows.append({"kind": "Matto bonus claimed" if k == "bonus_claims" else k,
                     "per deal [95% CI]": _mean(sums, name),
                     "deals with one or more [95% CI]": _share(sums.total(f"{name} > 0"),
                                                                sums.n(name))})
    return noted(pd.DataFrame(rows).set_index("kind"),
                 "declarations by the four seats together, per deal")


def sides_table(sums: Sums) -> pd.DataFrame:
    """The net resti from the view of the cutter's team and of the dealer's team."""
    n = sums.n("net")
    rows = [{"side": side, "advantage: net resti [95% CI]": _mean(sums, side),
             "wins [95% CI]": _share(sums.total(f"{side} wins"), n),
             "losses [95% CI]": _share(sums.total(f"{side} losses"), n)}
            for side in SIDES]
    return noted(pd.DataFrame(rows).set_index("side"),
                 ("net resti per deal from that side's view (> 0: an advantage); the "
                  "cutter is the dealer's left (seat dealer + 3), never the dealer's "
                  "partner, so the two rows mirror each other"))


def tables(sums: Sums, rules: MinchiateRules) -> dict[str, pd.DataFrame]:
    """The tables of ``cardsim simulate minchiate`` (module docstring)."""
    return {"net resti": net_table(sums),
            "net resti histogram": histogram_table(sums),
            "points by source and team": sources_table(sums),
            "combinations declared": declarations_table(sums),
            "the cutter's and the dealer's side": sides_table(sums)}


summarize = Summary(add, tables)
"""The tables of a whole row array: ``summarize(rows, rules)``."""
