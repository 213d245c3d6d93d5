"""Mushka's adapter for the conformance suite (protocol: :mod:`cardsim.protocol.conformance`).

rules/mushka.md; dict format in :mod:`.notation`. The rules choose the deck (32, 36 or 52
cards); a deal's returns are record changes (not zero-sum); hidden places include the other
seats' face-down discards; ``excluded`` names public inferences, not places; the ace holder
follows the ace of spades until its place is public.
"""
from __future__ import annotations

import random

from . import choose_random
from .layout import DECK

OPTIONS = [
    {},
    {"num_players": 3},
    {"num_players": 5},
    {"num_players": 7},
    {"num_players": 6, "deck": "36", "lone_player": "redeal"},
    {"num_players": 7, "deck": "36", "must_overtrump": True, "must_head_trick": True,
     "max_deals": 50},
    {"must_overtrump": True, "must_head_trick": True},
    {"dealer_takes_trump_card": True},
    {"dealer_takes_trump_card": True, "ace_of_spades_discardable": True,
     "num_players": 5},
    {"ace_bonus_timing": "end_of_deal"},
    {"stop_mode": "declared", "overshoot_reset": "start", "start_points": 30},
    {"stop_mode": "declared", "ace_bonus_timing": "end_of_deal", "max_deals": 20},
    {"lone_player": "redeal", "max_deals": 10, "num_players": 6},
]
DEAL_ZERO_SUM = False                   # record changes: tricks, bonus, remise
FIXED_KEYS = ("excluded",)              # public inferences name cards, not places

POLICY = (0.25, 0.25, 0.5)      # the engine's random player: pass, stand, stop
ACE = "As"


def deck(rules) -> list[str]:
    """The cards in play under ``rules`` (deck=auto: 32 for 3-4 players, 52 for 5-7)."""
    return DECK.names(rules.deck_mask)


def cards(d: dict) -> list[str]:
    """Every card of a Mushka position exactly once: hands (passed hands too), discards, the
    stock, the cards played this deal (the current trick included) and the turned card unless
    the dealer took it (it is then in his hand or among his played cards: it may not be
    discarded). Not ``trick`` (played), nor ``excluded`` (public inferences, not places)."""
    out = [c for h in d["hands"] for c in h] + [c for x in d["discards"] for c in x]
    out += list(d["stock"]) + [c for p in d["played"] for c in p]
    if not d["trump_taken"]:
        out.append(d["trump_card"])
    return out


def hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) hidden from ``player`` (rules §5): the other hands (passed hands too),
    the other seats' discards and the stock (each position a place: its order is hidden).
    Never the turned card: seen when turned, and when the dealer took it it stays
    publicly known in his hand. The ace of spades after its bonus is listed where it lies: its
    place is public then, which :func:`world_ok` enforces."""
    taken = d["trump_card"] if d["trump_taken"] else None
    out = [(c, f"hand {q}") for q, h in enumerate(d["hands"]) if q != player
           for c in h if c != taken]
    out += [(c, f"discard {q}") for q, x in enumerate(d["discards"]) if q != player for c in x]
    out += [(c, f"stock {i}") for i, c in enumerate(d["stock"])]
    return out


def ace_holder(d: dict):
    """MU-ACE-5: the active seat with the ace of spades in hand (or played), else None; None
    until the exchange is over (``active`` is [] then, and after everyone passed)."""
    return next((s for s in d["active"]
                 if ACE in d["hands"][s] + d["played"][s]), None)


def _ace_public(d: dict) -> bool:
    """Rules §5: the ace holder is public once the bonus was written off or the ace played
    (or the ace is the turned card)."""
    return (d["trump_card"] == ACE or d["ace_bonus_taken"]
            or any(ACE in p for p in d["played"]))


def _end_bonus_passed(d: dict) -> bool:
    """With ``ace_bonus_timing=end_of_deal``: the end of the deal was reached, so a holder
    with a trick has written off the bonus (a stop after the fifth trick may come before it:
    not counted)."""
    if d["tricks_played"] < 5:
        return False
    if d["stop_offer"] is not None:
        return d["stop_offer"]["at"] in ("bonus", "end")
    return d["phase"] in ("deal_over", "match_over") and d["stopper"] is None


def world_ok(d: dict) -> bool:
    """Is this world possible (rules §5, engine: excluded)? No hand holds a card its seat
    is publicly known not to hold (a pass, a trick won without the bonus, voids shown in play,
    the head / overtrump duties), nobody passed with the ace of spades (MU-EXCH-3), no discard
    holds it unless ``ace_of_spades_discardable`` (MU-EXCH-4), the ace holder is the active
    seat with the ace (MU-ACE-5) — once public it stays with him — and a holder with a trick
    has written off his bonus when its time has come (first trick, or the end of the deal)."""
    rules = d["rules"]
    for q, hand in enumerate(d["hands"]):
        if set(hand) & set(d["excluded"][q]):
            return False
        if d["decisions"][q] == "pass" and ACE in hand:
            return False
        if not rules["ace_of_spades_discardable"] and ACE in d["discards"][q]:
            return False
    holder = ace_holder(d)
    if holder != d["ace_holder"]:
        return False
    if holder is not None and d["tricks_won"][holder] and not d["ace_bonus_taken"]:
        if rules["ace_bonus_timing"] == "first_trick" or _end_bonus_passed(d):
            return False
    return True


def rederive(d: dict) -> dict:
    """After the hidden cards were moved: the ace holder follows the ace (MU-ACE-5) unless its
    place is public (then a world that moves it is impossible, :func:`world_ok`)."""
    if not _ace_public(d):
        d["ace_holder"] = ace_holder(d)
    return d


def public(d: dict, player: int) -> dict:
    """``d`` without the ace holder when ``player`` cannot know it (rules §5): it is public
    once the bonus was written off or the ace played (or turned), and known to the player
    whose hand, discards or played cards hold the ace."""
    own = d["hands"][player] + d["discards"][player] + d["played"][player]
    if _ace_public(d) or ACE in own:
        return d
    return {**d, "ace_holder": "hidden"}


def choose(state, legal: list[int], rnd: random.Random) -> int:
    """The engine's random player (``choose_random``, policy 0.25 / 0.25 / 0.5)."""
    return choose_random(legal, POLICY, rnd)


def deal_return_bound(rules) -> tuple[int, int]:
    """A seat's record change in one deal (start record - record; not zero-sum): at most 5
    tricks and the ace bonus of 10 (spades trump), +15; at worst a remise of 10 (the holder
    without a trick), -10, or with ``stop_mode=declared`` an overshoot reset (MU-STOP-3): from
    a record r at 0 or near it back to ``start_points`` (or one less), -start_points."""
    worst = max(rules.remise_points + rules.ace_bonus,
                rules.start_points if rules.stop_mode == "declared" else 0)
    return -worst, 5 + 2 * rules.ace_bonus


def match_return_bound(rules) -> int:
    # a match: each loser -1/(n-1), the winners share the losers' total (one winner +1)
    return 1
