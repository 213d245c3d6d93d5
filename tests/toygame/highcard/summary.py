"""The tables of ``cardsim simulate`` for High card: tricks per seat and the dealer's
advantage, with 95% confidence intervals, built chunk by chunk (:class:`cardsim.stats.Summary`)."""
from __future__ import annotations

import pandas as pd

from cardsim.stats import Summary, Sums, fmt_interval


def add(sums: Sums, records: pd.DataFrame, rules) -> None:
    """A chunk's tricks of each seat, and the dealer's tricks minus the other's."""
    tricks = [records[f"tricks{s}"].to_numpy() for s in range(2)]
    for s in range(2):
        sums.add(f"tricks {s}", tricks[s])
    dealer = records["dealer"].to_numpy()
    sums.add("dealer advantage", (tricks[1] - tricks[0]) * (2 * dealer - 1))


def tables(sums: Sums, rules) -> dict[str, pd.DataFrame]:
    """Mean tricks per seat and the dealer's advantage in tricks per deal."""
    rows = {"figure": ["tricks of seat 0", "tricks of seat 1", "dealer advantage (tricks)"],
            "estimate [95% CI]": [fmt_interval(*sums.mean_interval(name)) for name in
                                  ("tricks 0", "tricks 1", "dealer advantage")]}
    return {"tricks": pd.DataFrame(rows).set_index("figure")}


summarize = Summary(add, tables)
"""The tables of a whole record array: ``summarize(records, rules)``."""
