"""The tables of ``cardsim simulate mushka``: tricks and remises by seat, the exchange, the ace
of spades, and whole games, each with 95% confidence intervals.

The random deals are played as whole games one after another (records carry over from deal to
deal, so the stops at 0 happen); a seat is named by its place after the dealer, which moves
every deal (1 = the dealer's left, who decides and leads first; n = the dealer).

Built chunk by chunk (:class:`cardsim.stats.Summary`): :func:`add` adds a chunk of rows to
exact sums (and carries the first dealer of the game in progress to the next chunk),
:func:`tables` builds the tables from them.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from ...stats import Summary, Sums, fmt_interval, noted, t95, wilson_interval
from .rules import MushkaRules


def _share(hits: int, n: int) -> str:
    return fmt_interval(*wilson_interval(hits, n)) if n else "-"


def _mean(sums: Sums, name: str, digits: int = 3) -> str:
    return fmt_interval(*sums.mean_interval(name), digits=digits) if sums.n(name) > 1 else "-"


def _ratio(sums: Sums, num: str, den: str) -> str:
    """sum(num) / sum(den) with a delta-method 95% interval over the deals, from the exact
    sums of ``num``, ``den``, their squares and ``num x den``."""
    n, s_num, ss_num = sums.moments(num)
    _, s_den, ss_den = sums.moments(den)
    if s_den < 2:
        return "-"
    r = s_num / s_den
    exact = Fraction(s_num, s_den)   # sum(num - r den) = 0: the residuals' variance
    squares = ss_num - 2 * exact * sums.total(f"{num} x {den}") + exact * exact * ss_den
    half = t95(n) * math.sqrt(squares / (n - 1)) / (s_den / n) / math.sqrt(n) if n > 1 \
        else math.nan
    return fmt_interval(r, r - half, r + half, digits=2)


def _bits(masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
    return (masks >> seats) & 1 == 1


def add(sums: Sums, rows: pd.DataFrame, rules: MushkaRules) -> None:
    """A chunk's figures by place, of the exchange, the ace of spades and whole games."""
    n = rules.num_players
    deals = np.arange(len(rows))
    dealer = rows["dealer"].to_numpy()
    active = rows["active"].to_numpy()
    remised = rows["remised"].to_numpy()
    played_out = (rows["void"].to_numpy() == 0) & (rows["lone"].to_numpy() == 0)
    tricks = rows[[f"tricks_{s}" for s in range(n)]].to_numpy()
    change = rows[[f"change_{s}" for s in range(n)]].to_numpy()
    for place in range(1, n + 1):
        seat = (dealer + place) % n
        plays = _bits(active, seat) & played_out
        sums.add(f"plays {place}", plays)
        sums.add(f"tricks {place}", tricks[deals, seat][plays])
        sums.add(f"remised {place}", _bits(remised, seat)[plays])
        sums.add(f"change {place}", change[deals, seat])
    sums.add("moves", rows["moves"].to_numpy())

    for kind in ("passes", "stands"):
        masks = rows[kind].to_numpy()
        sums.add(kind, sum((masks >> s) & 1 for s in range(n)))
    exchanges, cards = rows["exchanges"].to_numpy(), rows["cards_exchanged"].to_numpy()
    sums.add("exchanges", exchanges)
    sums.add("cards", cards)
    sums.add("cards x exchanges", cards * exchanges)
    sums.add("void", rows["void"].to_numpy() == 1)
    sums.add("lone", rows["lone"].to_numpy() > 0)

    holder = rows["ace_holder"].to_numpy()
    held = holder > 0
    stopper = rows["stopper"].to_numpy()
    sums.add("ace held", held)
    sums.add("ace bonus", rows["ace_bonus"].to_numpy()[held] == 1)
    sums.add("ace remised", (_bits(remised, np.maximum(holder - 1, 0)) & held)[held])
    sums.add("ace stops", (stopper == holder)[stopper > 0])

    over = rows["match_over"].to_numpy() == 1
    first = rows["deal_number"].to_numpy() == 1
    # each game begins with its deal number 1; index 0: the game going on when the chunk began
    first_dealers = np.concatenate([[sums.carried.get("first dealer", -1)], dealer[first]])
    sums.carried["first dealer"] = int(first_dealers[-1])
    first_dealer = first_dealers[np.cumsum(first)][over]
    winners = rows["winners"].to_numpy()[over]
    sums.add("deals per game", rows["deal_number"].to_numpy()[over])
    sums.add("games stopped", stopper[over] > 0)
    for place in range(1, n + 1):
        sums.add(f"wins {place}", _bits(winners, (first_dealer + place) % n))


def tables(sums: Sums, rules: MushkaRules) -> dict[str, pd.DataFrame]:
    """The tables of ``cardsim simulate mushka`` (module docstring)."""
    n = rules.num_players
    deals = sums.n("moves")
    places = noted(pd.DataFrame([{
        "place after the dealer": place if place < n else f"{n} (dealer)",
        "plays [95% CI]": _share(sums.total(f"plays {place}"), deals),
        "tricks per played deal [95% CI]": _mean(sums, f"tricks {place}"),
        "remise rate when playing [95% CI]": _share(sums.total(f"remised {place}"),
                                                    sums.n(f"remised {place}")),
        "record written off per deal [95% CI]": _mean(sums, f"change {place}"),
    } for place in range(1, n + 1)]).set_index("place after the dealer"),
        ("played deals: two or more players stayed in; 5 tricks per played deal are shared "
         "among those who play; written off = start record - end record (higher is better)"
         f"; {sums.mean('moves'):.1f} moves per deal on average"))

    decisions = deals * n
    exchange = pd.DataFrame([
        {"what": "decisions: pass", "value [95% CI]": _share(sums.total("passes"), decisions)},
        {"what": "decisions: stand", "value [95% CI]": _share(sums.total("stands"), decisions)},
        {"what": "decisions: exchange", "value [95% CI]":
         _share(sums.total("exchanges"), decisions)},
        {"what": "cards per exchange", "value [95% CI]": _ratio(sums, "cards", "exchanges")},
        {"what": "void deals (everyone passed)", "value [95% CI]":
         _share(sums.total("void"), deals)},
        {"what": "lone player takes all 5", "value [95% CI]": _share(sums.total("lone"), deals)},
    ]).set_index("what")

    held = sums.total("ace held")
    ace = pd.DataFrame([
        {"what": "deals with an active ace holder", "value [95% CI]": _share(held, deals)},
        {"what": "  ace bonus written off", "value [95% CI]":
         _share(sums.total("ace bonus"), held)},
        {"what": "  holder remised (+10)", "value [95% CI]":
         _share(sums.total("ace remised"), held)},
        {"what": "games stopped at 0 by the ace holder", "value [95% CI]":
         _share(sums.total("ace stops"), sums.n("ace stops"))},
    ]).set_index("what")

    ends = sums.n("deals per game")
    rows = [{"what": "complete games", "value [95% CI]": str(ends)},
            {"what": "deals per game", "value [95% CI]": _mean(sums, "deals per game", 2)},
            {"what": "games ended by a stop at 0", "value [95% CI]":
             _share(sums.total("games stopped"), ends)}]
    for place in range(1, n + 1):
        name = f"place {place} after the first dealer" if place < n else "the first dealer"
        rows.append({"what": f"wins: {name}",
                     "value [95% CI]": _share(sums.total(f"wins {place}"), ends)})
    games = noted(pd.DataFrame(rows).set_index("what"),
                  (f"a win share above {1 / n:.3f} (1 / players) is an advantage; the "
                   "game cut off by the end of the run is not counted"))
    return {"tricks and records by place": places, "the exchange": exchange,
            "the ace of spades": ace, "whole games": games}


summarize = Summary(add, tables)
"""The tables of a whole row array: ``summarize(rows, rules)``."""
