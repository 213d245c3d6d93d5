"""Scopa's adapter for the conformance suite (protocol: :mod:`cardsim.protocol.conformance`).

Scopa's position dict uses the generic zones (``hands``, ``table``, ``stock``, ``piles``;
rules/scopa.md, dict format in :mod:`.notation`): the other hands and the stock are hidden.
"""
from __future__ import annotations

from ...protocol.conformance import hands_and_stock_hidden, zone_cards

OPTIONS = [
    {},
    {"num_players": 4},
    {"num_players": 4, "four_player_deal": "nine_at_once"},
    {"equal_card_priority": False},
    {"redeal_kings_on_table": "off", "last_move_scopa_counts": True,
     "leftover_to_last_capturer": False, "primiera_missing_suit": "forfeit"},
]


def deal_return_bound(rules) -> int:
    return 40     # 4 category points + at most 36 scopas


def match_return_bound(rules) -> int:
    return 1


cards = zone_cards
hidden = hands_and_stock_hidden
