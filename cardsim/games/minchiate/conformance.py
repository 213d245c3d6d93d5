"""Minchiate's adapter for the conformance suite (protocol: :mod:`cardsim.protocol.conformance`).

rules/minchiate.md; dict format in :mod:`.notation`. No stock: the hidden places are the
other hands, their discards and the Fola's own part while the Fola is closed ("hand q",
"discard q", "fola"); the cards a seat showed (robbed, exposed, declared) stay public;
declarations restrict the possible worlds, and with fola_visibility=suit_counts the Fola's
suit counts are a public fact.
"""
from __future__ import annotations

import random
from collections import Counter

from . import choose_random
from .layout import DECK, VALUE
from .reference_scoring import combos_of
from .validation import COMBO_BITS

OPTIONS = [
    {},
    {"declaration_mode": "all"},
    {"declaration_timing": "after_own_first_card"},
    {"fola_visibility": "hidden"},
    {"fola_visibility": "suit_counts", "discard_trumps": False},
    {"cutter_rob": "off", "dealer_rob": "off"},
    {"capot": "it_rules", "expose_last_card": "none"},
    {"deals": 3, "decine_four": "two_triples", "matto_bonus_on_matto_combo": True},
]
FIXED_KEYS = ("excluded",)              # public inferences name cards, not places
LOOSE_ZONE = "fola"                     # a zone to lose a card from / add one to

DECLARE_PROBABILITY = 0.7     # the random player declares most combinations
KINGS = ("Kco", "Kcu", "Ksw", "Kba")


def _value(card: str) -> int:
    return int(VALUE[DECK.index(card)])


def _trump(card: str) -> int | None:
    return int(card[1:]) if card.startswith("T") else None


def eligible(card: str) -> bool:
    """MI-CUT-1: counting cards and trumps above 20 may be robbed."""
    n = _trump(card)
    return _value(card) > 0 or (n is not None and n > 20)


def first_class(card: str, rules: dict) -> bool:
    """MI-DISC-2: a discard is worth 0, is not T29, and a trump only with discard_trumps."""
    if _value(card) or card == "T29":
        return False
    return rules["discard_trumps"] or _trump(card) is None


def cards(d: dict) -> list[str]:
    """Every card of a Minchiate position exactly once: hands, the Fola (the discards are a
    part of it), the two piles and the current trick."""
    out = [c for h in d["hands"] for c in h] + list(d["fola"])
    out += [c for pile in d["piles"] for c in pile] + [c for _, c in d["trick"]]
    return out


def shown_cards(d: dict, q: int) -> set[str]:
    """The cards seat q showed this deal: robbed, exposed, declared, the Matto of a claimed
    bonus. Their places stay public (the observation's known cards)."""
    out = {c for combo in d["declared"][q] for c in combo}
    if q == d["cutter"]:
        out |= set(d["cutter_robbed"])
    if q == d["dealer"]:
        out |= set(d["dealer_robbed"])
    if d["exposed"][q]:
        out.add(d["exposed"][q])
    if d["bonus_claimed"][q]:
        out.add("M")
    return out


def own_part(d: dict) -> list[str]:
    discards = {c for x in d["discards"] for c in x}
    return [c for c in d["fola"] if c not in discards]


def hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) hidden from ``player`` (rules §6): the other hands less their shown cards;
    until the Fola is opened (always with fola_visibility suit_counts / hidden) the other
    seats' discards ("discard q", less shown cards) and the Fola's own part ("fola": the
    undealt cards left after the dealer's robbing, less the bottom card the cutter saw),
    which the robbing dealer saw."""
    out = []
    for q in range(4):
        if q == player:
            continue
        shown = shown_cards(d, q)
        out += [(c, f"hand {q}") for c in d["hands"][q] if c not in shown]
        if not d["fola_open"]:
            out += [(c, f"discard {q}") for c in d["discards"][q] if c not in shown]
    dealer_saw = player == d["dealer"] and d["rules"]["dealer_rob"] == "auto_all"
    if not d["fola_open"] and not dealer_saw:
        out += [(c, "fola") for c in own_part(d) if c != d["seen_bottom"]]
    return out


def combos(cards, two_triples: bool) -> set[tuple]:
    """MI-COMB-1, -2: the combinations among ``cards`` (names), each as its card names in
    index order like the position dict's ``declared`` (the reference engine's
    :func:`.reference_scoring.combos_of`)."""
    held = {DECK.index(c) for c in cards}
    return {tuple(DECK.names(COMBO_BITS[i])) for i in combos_of(held, two_triples)}


def declaration_excluded(d: dict, q: int) -> set[str]:
    """What seat q's declarations prove it does not hold (MI-DECL-2: only maximal runs, the
    largest King and decine sets are combinations; with declaration_mode=all the Matto bonus
    is claimed whenever it applies)."""
    rules = d["rules"]
    two = rules["decine_four"] == "two_triples"
    out = set()
    bonus_applies = False
    for combo in d["declared"][q]:
        bonus_applies |= "M" not in combo or rules["matto_bonus_on_matto_combo"]
        ns = [_trump(c) for c in combo]
        if None not in ns:
            ns.sort()
            if ns == list(range(ns[0], ns[-1] + 1)) and (ns[-1] <= 5 or ns[0] >= 28):
                lo, hi = (1, 5) if ns[-1] <= 5 else (28, 40)
                out |= {f"T{n}" for n in (ns[0] - 1, ns[-1] + 1) if lo <= n <= hi}
            elif ns == [10, 20, 30] and not two:
                out.add("T40")
            elif ns == [20, 30, 40] and not two:
                out.add("T10")
        elif len(combo) == 3 and set(combo) <= set(KINGS):
            out |= set(KINGS) - set(combo)
    if rules["declaration_mode"] == "all" and d["declared_done"][q] and bonus_applies \
            and not d["bonus_claimed"][q]:
        out.add("M")
    return out


def world_ok(d: dict) -> bool:
    """Could this world be the truth (rules §6)? No hand holds a card its seat is publicly
    known not to hold (``excluded``, what its declarations prove); with declaration_mode=all
    each seat that declared holds (hand and played cards) exactly the combinations it declared;
    discards are of the first class (MI-DISC-2; MI-DISC-3's fallback is not modelled); the
    Fola's own part holds the seen bottom card and, with dealer_rob=auto_all, no robbable
    card. (With fola_visibility=suit_counts the Fola's suit counts are public from the first
    lead: a fact of the truth, :func:`public_facts`.)"""
    rules = d["rules"]
    two = rules["decine_four"] == "two_triples"
    for q in range(4):
        hand = set(d["hands"][q])
        if hand & (set(d["excluded"][q]) | declaration_excluded(d, q)):
            return False
        if not all(first_class(c, rules) for c in d["discards"][q]):
            return False
        if rules["declaration_mode"] == "all" and d["declared_done"][q]:
            if combos(hand | set(d["played"][q]), two) != {tuple(c) for c in d["declared"][q]}:
                return False
    own = own_part(d)
    if d["seen_bottom"] and d["seen_bottom"] not in own:
        return False
    return not (rules["dealer_rob"] == "auto_all" and any(eligible(c) for c in own))


def public_facts(d: dict, player: int):
    """With fola_visibility=suit_counts, from the first lead: the Fola's cards per plain suit
    (public: the dealer's partner announces them)."""
    if d["rules"]["fola_visibility"] != "suit_counts" or not (d["tricks_played"] or d["trick"]):
        return None
    return sorted(Counter(c[-2:] for c in d["fola"] if c != "M" and not c.startswith("T"))
                  .items())


def choose(state, legal: list[int], rnd: random.Random) -> int:
    """The engine's random player, declaring each combination with probability 0.7."""
    return choose_random(legal, (DECLARE_PROBABILITY,), rnd)


def deal_return_bound(rules) -> int:
    """A deal's net resti: all the points of a deal stay far below 1800 (30 resti); capot
    doubles."""
    return 60 if rules.capot == "it_rules" else 30


def match_return_bound(rules) -> int:
    # net resti of team A to seats 0 and 2, the opposite to 1 and 3 (zero-sum)
    return rules.deals * deal_return_bound(rules)
