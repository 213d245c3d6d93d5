"""High card's adapter for the conformance suite (protocol: :mod:`cardsim.protocol.conformance`): the
generic zones (``hands``, ``table``, ``stock``, ``piles``), the other hand and the stock
hidden."""
from __future__ import annotations

from cardsim.protocol.conformance import hands_and_stock_hidden, zone_cards

OPTIONS = [{}, {"ties": "suit", "match_wins": 3}]


def deal_return_bound(rules) -> int:
    return 6        # six tricks a deal


def match_return_bound(rules) -> int:
    return 1


cards = zone_cards
hidden = hands_and_stock_hidden
