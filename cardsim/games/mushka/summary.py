"""The tables of ``cardsim simulate mushka``: tricks and remises by seat, the exchange, the ace
of spades, and whole games, each with 95% confidence intervals.

The random deals are played as whole games one after another (records carry over from deal to
deal, so the stops at 0 happen); a seat is named by its place after the dealer, which moves
every deal (1 = the dealer's left, who decides and leads first; n = the dealer).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats import fmt_interval, mean_interval, noted, wilson_interval
from .rules import MushkaRules


def _share(hits, n: int) -> str:
    return fmt_interval(*wilson_interval(int(np.sum(hits)), n)) if n else "-"


def _mean(values, digits: int = 3) -> str:
    values = np.asarray(values, dtype=float)
    return fmt_interval(*mean_interval(values), digits=digits) if len(values) > 1 else "-"


def _ratio(num: np.ndarray, den: np.ndarray) -> str:
    """sum(num) / sum(den) with a delta-method 95% interval over the deals."""
    total = den.sum()
    if total < 2:
        return "-"
    r = num.sum() / total
    resid = (num - r * den) / den.mean()
    half = 1.96 * resid.std(ddof=1) / np.sqrt(len(num))
    return fmt_interval(r, r - half, r + half, digits=2)


def _bits(masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
    return (masks >> seats) & 1 == 1


def by_place(records: pd.DataFrame, n: int) -> pd.DataFrame:
    """Per place after the dealer: how often it plays, its tricks, remises and record."""
    dealer = records["dealer"].to_numpy()
    active = records["active"].to_numpy()
    played_out = (records["void"].to_numpy() == 0) & (records["lone"].to_numpy() == 0)
    tricks = records[[f"tricks_{s}" for s in range(n)]].to_numpy()
    change = records[[f"change_{s}" for s in range(n)]].to_numpy()
    remised = records["remised"].to_numpy()
    rows = []
    for place in range(1, n + 1):
        seat = (dealer + place) % n
        plays = _bits(active, seat) & played_out
        mine = tricks[np.arange(len(records)), seat]
        rows.append({
            "place after the dealer": place if place < n else f"{n} (dealer)",
            "plays [95% CI]": _share(plays, len(records)),
            "tricks per played deal [95% CI]": _mean(mine[plays]),
            "remise rate when playing [95% CI]": _share(_bits(remised, seat)[plays],
                                                        int(plays.sum())),
            "record written off per deal [95% CI]": _mean(change[np.arange(len(records)),
                                                                 seat]),
        })
    return noted(pd.DataFrame(rows).set_index("place after the dealer"),
                 ("played deals: two or more players stayed in; 5 tricks per played "
                  "deal are shared among those who play; written off = start record "
                  "- end record (higher is better)"))


def exchange_table(records: pd.DataFrame, n: int) -> pd.DataFrame:
    """Decisions of the exchange round, and deals without play."""
    deals = len(records)
    decisions = deals * n
    passes = sum(int(np.sum((records["passes"].to_numpy() >> s) & 1)) for s in range(n))
    stands = sum(int(np.sum((records["stands"].to_numpy() >> s) & 1)) for s in range(n))
    exchanges = int(records["exchanges"].sum())
    rows = [
        {"what": "decisions: pass", "value [95% CI]": _share(passes, decisions)},
        {"what": "decisions: stand", "value [95% CI]": _share(stands, decisions)},
        {"what": "decisions: exchange", "value [95% CI]": _share(exchanges, decisions)},
        {"what": "cards per exchange", "value [95% CI]": _ratio(
            records["cards_exchanged"].to_numpy(), records["exchanges"].to_numpy())},
        {"what": "void deals (everyone passed)", "value [95% CI]":
         _share(records["void"].to_numpy() == 1, deals)},
        {"what": "lone player takes all 5", "value [95% CI]":
         _share(records["lone"].to_numpy() > 0, deals)},
    ]
    return pd.DataFrame(rows).set_index("what")


def ace_table(records: pd.DataFrame) -> pd.DataFrame:
    """The ace of spades: held in play, its bonus, its holder's remise and stops."""
    deals = len(records)
    holder = records["ace_holder"].to_numpy()
    held = holder > 0
    seat = np.maximum(holder - 1, 0)
    remised = _bits(records["remised"].to_numpy(), seat) & held
    stopper = records["stopper"].to_numpy()
    stops = stopper > 0
    rows = [
        {"what": "deals with an active ace holder", "value [95% CI]": _share(held, deals)},
        {"what": "  ace bonus written off", "value [95% CI]":
         _share(records["ace_bonus"].to_numpy()[held] == 1, int(held.sum()))},
        {"what": "  holder remised (+10)", "value [95% CI]": _share(remised[held],
                                                                     int(held.sum()))},
        {"what": "games stopped at 0 by the ace holder", "value [95% CI]":
         _share((stopper == holder)[stops], int(stops.sum()))},
    ]
    return pd.DataFrame(rows).set_index("what")


def games_table(records: pd.DataFrame, n: int) -> pd.DataFrame:
    """Whole games: deals per game and the winner's place after the first dealer."""
    over = records["match_over"].to_numpy() == 1
    first = records["deal_number"].to_numpy() == 1
    game = np.cumsum(first) - 1               # each game begins with its deal number 1
    first_dealer = records["dealer"].to_numpy()[first][game[over]]
    ends = records.loc[over]
    rows = [{"what": "complete games", "value [95% CI]": str(int(over.sum()))},
            {"what": "deals per game", "value [95% CI]":
             _mean(ends["deal_number"].to_numpy(), digits=2)},
            {"what": "games ended by a stop at 0", "value [95% CI]":
             _share(ends["stopper"].to_numpy() > 0, len(ends))}]
    winners = ends["winners"].to_numpy()
    for place in range(1, n + 1):
        seat = (first_dealer + place) % n
        name = f"place {place} after the first dealer" if place < n else "the first dealer"
        rows.append({"what": f"wins: {name}",
                     "value [95% CI]": _share(_bits(winners, seat), len(ends))})
    return noted(pd.DataFrame(rows).set_index("what"),
                 (f"a win share above {1 / n:.3f} (1 / players) is an advantage; the "
                  "game cut off by the end of the run is not counted"))


def summarize(records: pd.DataFrame, rules: MushkaRules) -> dict[str, pd.DataFrame]:
    """The tables of ``cardsim simulate mushka`` (module docstring)."""
    n = rules.num_players
    places = by_place(records, n)
    places.attrs["note"] += f"; {records['moves'].mean():.1f} moves per deal on average"
    return {"tricks and records by place": places,
            "the exchange": exchange_table(records, n),
            "the ace of spades": ace_table(records),
            "whole games": games_table(records, n)}
