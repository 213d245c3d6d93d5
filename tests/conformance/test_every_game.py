"""Conformance of every registered game to the generic API (DESIGN.md §2, /tmp/common.md).

These tests run for each name in ``cardsim.list_games()`` and use only the generic API (the
methods of ``Game`` and ``State``, the position dict, the deck of ``cardsim.cards.DECKS``).
The per-game knowledge sits in the small adapter table :data:`GAMES`: the option sets to try,
bounds on the returns, where the cards of a position dict are (``cards``), which cards are
hidden from a player and where they lie (``hidden``), which worlds are possible at all
(``world_ok``) and how a random player chooses (``choose``). A game missing from it is tested
with its default rules and the generic zones (``hands``, ``table``, ``stock``, ``piles``; hidden
= the other hands and the stock).

A hidden card's *place* is a string: ``"hand q"``, ``"stock i"`` (one slot per stock
position: the stock's order is hidden too) or, in Bura, ``"down q pile x trick j"`` / ``"down q
trick"`` (a card thrown face down by seat q in trick j, lying in x's pile, or in the current
trick; without a history ``"down q pile x"``). Cards in the same place are interchangeable; a
sampled world must put the same number of hidden cards in every place. A game may weigh its
possible worlds (``world_weight``: Bura counts the orders in which the other players can have
received their cards), hide facts besides card identities (``public``: Bura hides when the
others received their cards) and name public facts a world must share with the truth that one
dict cannot check (``public_facts``: Minchiate's Fola suit counts).

Some games need more than that (Mushka): ``deck`` (the cards in play under the rules, when
the rules choose a smaller deck than DECKS'), returns bounded by a pair (lowest, highest) and
``deal_zero_sum`` False (a deal's returns need not add up to 0), ``fixed_keys`` (dict keys
whose cards are public inferences, not places: left alone when hidden cards are moved) and
``rederive`` (what follows from the cards' places, recomputed after they are moved: the ace
holder). In Mushka a place is also ``"discard q"`` (seat q's face-down discards). Minchiate
has no stock: its hidden places are ``"hand q"``, ``"discard q"`` and ``"fola"`` (the Fola's
own part while it is closed), and ``loose_zone`` names the card list the broken-dict test
takes a card from (default ``stock``).

Random playouts choose actions with ``random.Random(seed)``; every seed is fixed, so the
statistical tests (chi-square at ``ALPHA`` = 1e-4) are deterministic.
"""
from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter, defaultdict

import pytest
from scipy.stats import chisquare

import cardsim
from cardsim.cards import DECKS, MUSHKA
from cardsim.errors import CardsimError, IllegalActionError
from cardsim.games.minchiate import choose_random as minchiate_choose_random
from cardsim.games.minchiate.layout import VALUE as MINCHIATE_VALUE
from cardsim.games.mushka import choose_random as mushka_choose_random

ALPHA = 1e-4


# --- the generic zones (Scopa, and any game not in the table) ----------------------------------

CARD_ZONES = ("hands", "table", "stock", "piles")


def _flatten(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)):
        return [c for item in x for c in _flatten(item)]
    raise AssertionError(f"unexpected value {x!r} in a card zone")


def zone_cards(d: dict) -> list[str]:
    """Every card name in the generic card zones of a position dict (with repetitions)."""
    return [c for key in CARD_ZONES if key in d for c in _flatten(d[key])]


def hands_and_stock_hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place): the other hands and the stock (in order) are hidden."""
    return ([(c, f"hand {p}") for p, h in enumerate(d["hands"]) if p != player for c in h]
            + [(c, f"stock {i}") for i, c in enumerate(d.get("stock", []))])


def uniform_choice(state, legal: list[int], rnd: random.Random) -> int:
    return rnd.choice(legal)


# --- Bura (rules/bura.md; dict format in cardsim/games/bura/notation.py) -----------------------

BURA_CLAIM = 4 << 40            # the contract's action id of "claim"
BURA_CLAIM_PROBABILITY = 0.05   # random play claims rarely, or deals end at once


def bura_cards(d: dict) -> list[str]:
    """Every card of a Bura position exactly once: hands, stock, piles (up and down) and the
    trick's played cards. Not ``trump_card`` (that card is also in the stock or elsewhere),
    not ``thrown_down`` (those cards lie in a pile or the trick) nor ``trick.top`` (played)."""
    out = [c for h in d["hands"] for c in h] + list(d["stock"])
    out += [c for pile in d["piles"] for c in pile["up"] + pile["down"]]
    if d.get("trick"):
        out += [c for played in d["trick"]["played"] for c in played]
    return out


def bura_hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) of the cards hidden from ``player`` (rules §5): the other hands, the stock,
    and the cards other players threw face down (each keeps its thrower and where it lies).
    The turned trump card is never hidden: it is seen when turned, and who draws it and every
    later move of it is public (§5: "that card's location stays known")."""
    trump = d["trump_card"]
    out = [(c, f"hand {q}") for q, h in enumerate(d["hands"]) if q != player
           for c in h if c != trump]
    out += [(c, f"stock {i}") for i, c in enumerate(d["stock"]) if c != trump]
    for q, thrown in enumerate(d["thrown_down"]):
        if q == player:
            continue
        for c in thrown:
            if c == trump:
                continue
            piles = [x for x, pile in enumerate(d["piles"]) if c in pile["down"]]
            tricks = [j for j, h in enumerate(d.get("history") or []) if c in h["played"][q]]
            if piles and tricks:    # the trick a face-down card was played in is public
                out.append((c, f"down {q} pile {piles[0]} trick {tricks[0]}"))
            elif piles:
                out.append((c, f"down {q} pile {piles[0]}"))
            else:
                assert d["trick"] and c in d["trick"]["played"][q], (
                    f"{c} thrown face down by seat {q} lies in no face-down pile nor in the trick")
                out.append((c, f"down {q} trick"))
    return out


def _bura_combos(hand: list[str], d: dict) -> set[str]:
    """The combinations (rules BU-COMBO-*) a hand of at most 3 cards holds, under d's rules."""
    rules, trump = d["rules"], d["trump_card"]
    suits = Counter(c[1] for c in hand)
    ranks = Counter(c[0] for c in hand)
    found = set()
    if len(hand) == 3 and suits[trump[1]] == 3:
        found.add("bura")
    if len(hand) == 3 and len(suits) == 1 and trump[1] not in suits and rules["molodka_stop"]:
        found.add("molodka")
    if ranks["A"] == 3 and (rules["moscow"] == "three_aces" or (
            rules["moscow"] == "three_aces_with_trump" and "A" + trump[1] in hand)):
        found.add("moscow")
    small = {"three_sixes_with_trump": "6", "three_tens_with_trump": "T"}.get(rules["small_moscow"])
    if small and ranks[small] == 3 and small + trump[1] in hand:
        found.add("small_moscow")
    return found


def _bura_lives(d: dict, seat: int) -> dict[str, tuple[int, int, int]]:
    """Every card ``seat`` held this deal -> (earliest, latest, until): he received it at a
    check point from ``earliest`` to ``latest`` — by the one before the trick he played it in,
    or the one it was shown at (``revealed_at``), if earlier; the turned trump card's draw is
    public — and held it up to check point ``until`` (the trick he played it in, or now)."""
    last = d["tricks"]
    until = {}
    for j, h in enumerate(d["history"]):
        until.update((c, j) for c in h["played"][seat])
    until.update((c, last) for c in (d["trick"]["played"][seat] if d["trick"] else []))
    until.update((c, last) for c in d["hands"][seat])
    lives = {c: (0, min(u, d.get("revealed_at", {}).get(c, u)), u) for c, u in until.items()}
    for j, h in enumerate(d["history"]):
        if d["trump_card"] in h["drawn"][seat]:
            lives[d["trump_card"]] = (j + 1, j + 1, until[d["trump_card"]])
    return lives


def _bura_scheduled(d: dict, cp: int) -> int:
    """The scheduled leader at check point ``cp``: the first leader, then each trick's winner
    (the seat whose pile holds its cards)."""
    if cp == 0:
        return d["first_leader"]
    card = next(c for p in d["history"][cp - 1]["played"] for c in p)
    return next(x for x, pile in enumerate(d["piles"]) if card in pile["up"] + pile["down"])


def _bura_hand_allowed(hand, d: dict, seat: int, cp: int) -> bool:
    """Rules §5: play went on after check point ``cp``, so this hand held no Moscow, no bura
    that wins there (``own_lead``: the scheduled leader's only) and, before the first trick
    with ``initial_combo_redeal``, no active combination (BU-DEAL-5)."""
    rules = d["rules"]
    found = _bura_combos(sorted(hand), d)
    if cp == 0 and rules["initial_combo_redeal"] and found:
        return False
    if "moscow" in found:
        return False
    return not ("bura" in found and (rules["bura_timing"] == "any_check_point"
                                     or seat == _bura_scheduled(d, cp)))


def bura_receipt_orders(d: dict, seat: int, check: bool = True) -> int:
    """How many orders of receiving his cards (which at which check point: the counts are
    public) give ``seat`` no combination that would have ended the deal at a check point
    passed (:func:`_bura_hand_allowed`; ``check=False`` counts them all). A dynamic programme
    over the check points on his hand there (at most 3 cards)."""
    lives = _bura_lives(d, seat)
    counts = [3] + [len(h["drawn"][seat]) for h in d["history"]]
    ways = {frozenset(): 1}
    for cp in range(d["tricks"] + 1):
        nxt = Counter()
        for hand, w in ways.items():
            received = hand | {c for c, (_, _, until) in lives.items() if until < cp - 1}
            pending = [c for c in lives if c not in received and lives[c][0] <= cp]
            if any(lives[c][1] < cp for c in lives if c not in received):
                continue
            forced = {c for c in pending if lives[c][1] == cp}
            free = [c for c in pending if lives[c][1] > cp]
            kept = {c for c in hand if lives[c][2] >= cp}
            if len(forced) > counts[cp]:
                continue
            for extra in itertools.combinations(free, counts[cp] - len(forced)):
                new = frozenset(kept | forced | set(extra))
                if not check or _bura_hand_allowed(new, d, seat, cp):
                    nxt[new] += w
        ways = nxt
    return sum(ways.values())


def bura_world_weight(d: dict, player: int) -> int:
    """Rules §5: the posterior weight of a world for ``player``: the number of deal orders that
    lead to it, i.e. the product over the other seats of their receipt orders that kept play
    going (a finished deal has shown its cards: no condition)."""
    if d.get("history") is None:
        return int(bura_world_ok(d))
    check = d["result"] is None
    return math.prod(bura_receipt_orders(d, q, check) for q in range(len(d["hands"]))
                     if q != player)


def bura_world_ok(d: dict) -> bool:
    """Is this world possible as it stands (rules §5)? Play went on, so no hand at any check
    point passed or the current one (from ``history``; without it, only the current one: the
    hand now plus its cards in the current trick) held a combination that would have ended
    the deal (:func:`_bura_hand_allowed`). A finished deal has shown its cards."""
    if d["result"] is not None:
        return True
    n = len(d["hands"])
    if d.get("history") is None:
        now = [d["hands"][q] + (d["trick"]["played"][q] if d["trick"] else []) for q in range(n)]
        return all(_bura_hand_allowed(now[q], d, q, d["tricks"]) for q in range(n))
    for q in range(n):
        got = {}
        for j, h in enumerate(d["history"]):
            got.update((c, j + 1) for c in h["drawn"][q])
        lives = _bura_lives(d, q)
        for cp in range(d["tricks"] + 1):
            hand = [c for c, (_, _, until) in lives.items() if got.get(c, 0) <= cp <= until]
            if not _bura_hand_allowed(hand, d, q, cp):
                return False
    return True


def bura_public(d: dict, player: int) -> dict:
    """``d`` without what ``player`` cannot know beyond the hidden cards' identities: when the
    other seats received their cards (only the count and the turned trump card are public)."""
    if d.get("history") is None:
        return d
    history = [{**h, "drawn": [cards if q == player else
                               [c for c in cards if c == d["trump_card"]] + [len(cards)]
                               for q, cards in enumerate(h["drawn"])]} for h in d["history"]]
    return {**d, "history": history}


def bura_choose(state, legal: list[int], rnd: random.Random) -> int:
    """Random play that claims with probability 0.05 when a claim is legal."""
    if BURA_CLAIM in legal:
        others = [a for a in legal if a != BURA_CLAIM]
        if not others or rnd.random() < BURA_CLAIM_PROBABILITY:
            return BURA_CLAIM
        return rnd.choice(others)
    return rnd.choice(legal)


# --- Mushka (rules/mushka.md; dict format in cardsim/games/mushka/notation.py) ----------------

MUSHKA_POLICY = (0.25, 0.25, 0.5)      # the contract's random player: pass, stand, stop
MUSHKA_ACE = "As"


def mushka_deck(rules) -> list[str]:
    """The cards in play under ``rules`` (deck=auto: 32 for 3-4 players, 52 for 5-7)."""
    return MUSHKA.names(rules.deck_mask)


def mushka_cards(d: dict) -> list[str]:
    """Every card of a Mushka position exactly once: hands (passed hands too), discards, the
    stock, the cards played this deal (the current trick included) and the turned card unless
    the dealer took it (it is then in his hand or among his played cards: it may not be
    discarded). Not ``trick`` (played), nor ``excluded`` (public inferences, not places)."""
    out = [c for h in d["hands"] for c in h] + [c for x in d["discards"] for c in x]
    out += list(d["stock"]) + [c for p in d["played"] for c in p]
    if not d["trump_taken"]:
        out.append(d["trump_card"])
    return out


def mushka_hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) hidden from ``player`` (rules §5): the other hands (passed hands too),
    the other seats' discards and the stock (each position a place: its order is hidden).
    Never the turned card: seen when turned, and when the dealer took it (contract) it stays
    publicly known in his hand. The ace of spades after its bonus is listed where it lies: its
    place is public then, which :func:`mushka_world_ok` enforces."""
    taken = d["trump_card"] if d["trump_taken"] else None
    out = [(c, f"hand {q}") for q, h in enumerate(d["hands"]) if q != player
           for c in h if c != taken]
    out += [(c, f"discard {q}") for q, x in enumerate(d["discards"]) if q != player for c in x]
    out += [(c, f"stock {i}") for i, c in enumerate(d["stock"])]
    return out


def mushka_holder(d: dict):
    """MU-ACE-5: the active seat with the ace of spades in hand (or played), else None; None
    until the exchange is over (``active`` is [] then, and after everyone passed)."""
    return next((s for s in d["active"]
                 if MUSHKA_ACE in d["hands"][s] + d["played"][s]), None)


def _mushka_ace_public(d: dict) -> bool:
    """Rules §5: the ace holder is public once the bonus was written off or the ace played
    (or the ace is the turned card)."""
    return (d["trump_card"] == MUSHKA_ACE or d["ace_bonus_taken"]
            or any(MUSHKA_ACE in p for p in d["played"]))


def _mushka_end_bonus_passed(d: dict) -> bool:
    """With ``ace_bonus_timing=end_of_deal``: the end of the deal was reached, so a holder
    with a trick has written off the bonus (a stop after the fifth trick may come before it:
    not counted)."""
    if d["tricks_played"] < 5:
        return False
    if d["stop_offer"] is not None:
        return d["stop_offer"]["at"] in ("bonus", "end")
    return d["phase"] in ("deal_over", "match_over") and d["stopper"] is None


def mushka_world_ok(d: dict) -> bool:
    """Is this world possible (rules §5, contract: excluded)? No hand holds a card its seat
    is publicly known not to hold (a pass, a trick won without the bonus, voids shown in play,
    the head / overtrump duties), nobody passed with the ace of spades (MU-EXCH-3), no discard
    holds it unless ``ace_of_spades_discardable`` (MU-EXCH-4), the ace holder is the active
    seat with the ace (MU-ACE-5) — once public it stays with him — and a holder with a trick
    has written off his bonus when its time has come (first trick, or the end of the deal)."""
    rules = d["rules"]
    for q, hand in enumerate(d["hands"]):
        if set(hand) & set(d["excluded"][q]):
            return False
        if d["decisions"][q] == "pass" and MUSHKA_ACE in hand:
            return False
        if not rules["ace_of_spades_discardable"] and MUSHKA_ACE in d["discards"][q]:
            return False
    holder = mushka_holder(d)
    if holder != d["ace_holder"]:
        return False
    if holder is not None and d["tricks_won"][holder] and not d["ace_bonus_taken"]:
        if rules["ace_bonus_timing"] == "first_trick" or _mushka_end_bonus_passed(d):
            return False
    return True


def mushka_rederive(d: dict) -> dict:
    """After the hidden cards were moved: the ace holder follows the ace (MU-ACE-5) unless its
    place is public (then a world that moves it is impossible, :func:`mushka_world_ok`)."""
    if not _mushka_ace_public(d):
        d["ace_holder"] = mushka_holder(d)
    return d


def mushka_public(d: dict, player: int) -> dict:
    """``d`` without the ace holder when ``player`` cannot know it (rules §5): it is public
    once the bonus was written off or the ace played (or turned), and known to the player
    whose hand, discards or played cards hold the ace."""
    own = d["hands"][player] + d["discards"][player] + d["played"][player]
    if _mushka_ace_public(d) or MUSHKA_ACE in own:
        return d
    return {**d, "ace_holder": "hidden"}


def mushka_choose(state, legal: list[int], rnd: random.Random) -> int:
    """The contract's random player (``choose_random``, policy 0.25 / 0.25 / 0.5)."""
    return mushka_choose_random(legal, MUSHKA_POLICY, rnd)


def mushka_deal_bounds(rules) -> tuple[int, int]:
    """A seat's record change in one deal (start record - record; not zero-sum): at most 5
    tricks and the ace bonus of 10 (spades trump), +15; at worst a remise of 10 (the holder
    without a trick), -10, or with ``stop_mode=declared`` an overshoot reset (MU-STOP-3): from
    a record r at 0 or near it back to ``start_points`` (or one less), -start_points."""
    worst = max(rules.remise_points + rules.ace_bonus,
                rules.start_points if rules.stop_mode == "declared" else 0)
    return -worst, 5 + 2 * rules.ace_bonus


# --- Minchiate (rules/minchiate.md; dict format in cardsim/games/minchiate/notation.py) ----------

MINCHIATE_DECLARE_PROBABILITY = 0.7     # the random player declares most combinations
MINCHIATE_KINGS = ("Kco", "Kcu", "Ksw", "Kba")


def _mi_value(card: str) -> int:
    return int(MINCHIATE_VALUE[DECKS["minchiate"].index(card)])


def _mi_trump(card: str) -> int | None:
    return int(card[1:]) if card.startswith("T") else None


def _mi_eligible(card: str) -> bool:
    """MI-CUT-1: counting cards and trumps above 20 may be robbed."""
    n = _mi_trump(card)
    return _mi_value(card) > 0 or (n is not None and n > 20)


def _mi_first_class(card: str, rules: dict) -> bool:
    """MI-DISC-2: a discard is worth 0, is not T29, and a trump only with discard_trumps."""
    if _mi_value(card) or card == "T29":
        return False
    return rules["discard_trumps"] or _mi_trump(card) is None


def minchiate_cards(d: dict) -> list[str]:
    """Every card of a Minchiate position exactly once: hands, the Fola (the discards are a
    part of it), the two piles and the current trick."""
    out = [c for h in d["hands"] for c in h] + list(d["fola"])
    out += [c for pile in d["piles"] for c in pile] + [c for _, c in d["trick"]]
    return out


def minchiate_shown(d: dict, q: int) -> set[str]:
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


def _mi_own_part(d: dict) -> list[str]:
    discards = {c for x in d["discards"] for c in x}
    return [c for c in d["fola"] if c not in discards]


def minchiate_hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) hidden from ``player`` (rules §6): the other hands less their shown cards;
    until the Fola is opened (always with fola_visibility suit_counts / hidden) the other
    seats' discards ("discard q", less shown cards) and the Fola's own part ("fola": the
    undealt cards left after the dealer's robbing, less the bottom card the cutter saw),
    which the robbing dealer saw."""
    out = []
    for q in range(4):
        if q == player:
            continue
        shown = minchiate_shown(d, q)
        out += [(c, f"hand {q}") for c in d["hands"][q] if c not in shown]
        if not d["fola_open"]:
            out += [(c, f"discard {q}") for c in d["discards"][q] if c not in shown]
    dealer_saw = player == d["dealer"] and d["rules"]["dealer_rob"] == "auto_all"
    if not d["fola_open"] and not dealer_saw:
        out += [(c, "fola") for c in _mi_own_part(d) if c != d["seen_bottom"]]
    return out


def _mi_combos(cards, two_triples: bool) -> set[tuple]:
    """MI-COMB-1, -2: the combinations among ``cards`` (each as its sorted card names)."""
    have = set(cards)
    trumps = {_mi_trump(c) for c in have if _mi_trump(c) is not None}
    out = set()
    for lo, hi in ((1, 5), (28, 40)):
        n = lo
        while n <= hi:
            m = n
            while m <= hi and m in trumps:
                m += 1
            if m - n >= 3:
                out.add(tuple(sorted(f"T{k}" for k in range(n, m))))
            n = max(m, n + 1)
    for combo in (("M", "T1", "T40"), ("T1", "T13", "T28")):
        if set(combo) <= have:
            out.add(tuple(sorted(combo)))
    if {10, 20, 30, 40} <= trumps:
        out |= ({("T10", "T20", "T30"), ("T20", "T30", "T40")} if two_triples
                else {("T10", "T20", "T30", "T40")})
    elif {10, 20, 30} <= trumps:
        out.add(("T10", "T20", "T30"))
    elif {20, 30, 40} <= trumps:
        out.add(("T20", "T30", "T40"))
    kings = [k for k in MINCHIATE_KINGS if k in have]
    if len(kings) >= 3:
        out.add(tuple(sorted(kings)))
    return out


def _mi_declaration_excluded(d: dict, q: int) -> set[str]:
    """What seat q's declarations prove it does not hold (MI-DECL-2: only maximal runs, the
    largest King and decine sets are combinations; with declaration_mode=all the Matto bonus
    is claimed whenever it applies)."""
    rules = d["rules"]
    two = rules["decine_four"] == "two_triples"
    out = set()
    bonus_applies = False
    for combo in d["declared"][q]:
        bonus_applies |= "M" not in combo or rules["matto_bonus_on_matto_combo"]
        ns = [_mi_trump(c) for c in combo]
        if None not in ns:
            ns.sort()
            if ns == list(range(ns[0], ns[-1] + 1)) and (ns[-1] <= 5 or ns[0] >= 28):
                lo, hi = (1, 5) if ns[-1] <= 5 else (28, 40)
                out |= {f"T{n}" for n in (ns[0] - 1, ns[-1] + 1) if lo <= n <= hi}
            elif ns == [10, 20, 30] and not two:
                out.add("T40")
            elif ns == [20, 30, 40] and not two:
                out.add("T10")
        elif len(combo) == 3 and set(combo) <= set(MINCHIATE_KINGS):
            out |= set(MINCHIATE_KINGS) - set(combo)
    if rules["declaration_mode"] == "all" and d["declared_done"][q] and bonus_applies \
            and not d["bonus_claimed"][q]:
        out.add("M")
    return out


def minchiate_world_ok(d: dict) -> bool:
    """Could this world be the truth (rules §6)? No hand holds a card its seat is publicly
    known not to hold (``excluded``, what its declarations prove); with declaration_mode=all
    each seat that declared holds (hand and played cards) exactly the combinations it declared;
    discards are of the first class (MI-DISC-2; MI-DISC-3's fallback is not modelled); the
    Fola's own part holds the seen bottom card and, with dealer_rob=auto_all, no robbable
    card. (With fola_visibility=suit_counts the Fola's suit counts are public from the first
    lead: a fact of the truth, :func:`minchiate_public_facts`.)"""
    rules = d["rules"]
    two = rules["decine_four"] == "two_triples"
    for q in range(4):
        hand = set(d["hands"][q])
        if hand & (set(d["excluded"][q]) | _mi_declaration_excluded(d, q)):
            return False
        if not all(_mi_first_class(c, rules) for c in d["discards"][q]):
            return False
        if rules["declaration_mode"] == "all" and d["declared_done"][q]:
            if _mi_combos(hand | set(d["played"][q]), two) != \
                    {tuple(sorted(c)) for c in d["declared"][q]}:
                return False
    own = _mi_own_part(d)
    if d["seen_bottom"] and d["seen_bottom"] not in own:
        return False
    return not (rules["dealer_rob"] == "auto_all" and any(_mi_eligible(c) for c in own))


def minchiate_public_facts(d: dict, player: int):
    """With fola_visibility=suit_counts, from the first lead: the Fola's cards per plain suit
    (public: the dealer's partner announces them)."""
    if d["rules"]["fola_visibility"] != "suit_counts" or not (d["tricks_played"] or d["trick"]):
        return None
    return sorted(Counter(c[-2:] for c in d["fola"] if c != "M" and not c.startswith("T"))
                  .items())


def minchiate_choose(state, legal: list[int], rnd: random.Random) -> int:
    """The contract's random player, declaring each combination with probability 0.7."""
    return minchiate_choose_random(legal, (MINCHIATE_DECLARE_PROBABILITY,), rnd)


def minchiate_deal_bound(rules) -> int:
    """A deal's net resti: all the points of a deal stay far below 1800 (30 resti); capot
    doubles."""
    return 60 if rules.capot == "it_rules" else 30


# --- the per-game table ------------------------------------------------------------------------

GAMES = {
    "scopa": {
        "options": [
            {},
            {"num_players": 4},
            {"num_players": 4, "four_player_deal": "nine_at_once"},
            {"equal_card_priority": False},
            {"redeal_kings_on_table": "off", "last_move_scopa_counts": True,
             "leftover_to_last_capturer": False, "primiera_missing_suit": "forfeit"},
        ],
        "deal_return_bound": lambda rules: 40,     # 4 category points + at most 36 scopas
        "match_return_bound": lambda rules: 1,
        "cards": zone_cards,
        "hidden": hands_and_stock_hidden,
    },
    "bura": {
        "options": [
            {},
            {"num_players": 3},
            {"num_players": 4},
            {"facedown_discards": "choice"},
            {"facedown_discards": "off"},
            {"molodka_stop": True, "moscow": "three_aces",
             "small_moscow": "three_sixes_with_trump"},
            {"initial_combo_redeal": False, "double_bura": "void_deal", "bura_timing": "own_lead"},
            {"match_format": "wins_to_n"},
            {"match_format": "penalty_points"},
        ],
        # BU-END-3: a loser pays the multiplier (at most 2), a single winner takes n-1 stakes
        "deal_return_bound": lambda rules: max(2, rules.num_players - 1),
        # wins_to_n: +1 / -1/(n-1); penalty_points: -1 per loser, the others share
        "match_return_bound": lambda rules: max(2, rules.num_players - 1),
        "cards": bura_cards,
        "hidden": bura_hidden,
        "world_ok": bura_world_ok,
        "world_weight": bura_world_weight,
        "public": bura_public,
        "choose": bura_choose,
    },
    "minchiate": {
        "options": [
            {},
            {"declaration_mode": "all"},
            {"declaration_timing": "after_own_first_card"},
            {"fola_visibility": "hidden"},
            {"fola_visibility": "suit_counts", "discard_trumps": False},
            {"cutter_rob": "off", "dealer_rob": "off"},
            {"capot": "it_rules", "expose_last_card": "none"},
            {"deals": 3, "decine_four": "two_triples", "matto_bonus_on_matto_combo": True},
        ],
        # net resti of team A to seats 0 and 2, the opposite to 1 and 3 (zero-sum)
        "deal_return_bound": minchiate_deal_bound,
        "match_return_bound": lambda rules: rules.deals * minchiate_deal_bound(rules),
        "cards": minchiate_cards,
        "hidden": minchiate_hidden,
        "world_ok": minchiate_world_ok,
        "public_facts": minchiate_public_facts,
        "fixed_keys": ("excluded",),                # public inferences name cards, not places
        "loose_zone": "fola",                       # a zone to lose a card from / add one to
        "choose": minchiate_choose,
    },
    "mushka": {
        "options": [
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
        ],
        "deck": mushka_deck,
        "deal_return_bound": mushka_deal_bounds,
        "deal_zero_sum": False,                     # record changes: tricks, bonus, remise
        # a match: each loser -1/(n-1), the winners share the losers' total (one winner +1)
        "match_return_bound": lambda rules: 1,
        "cards": mushka_cards,
        "hidden": mushka_hidden,
        "world_ok": mushka_world_ok,
        "public": mushka_public,
        "fixed_keys": ("excluded",),                # public inferences name cards, not places
        "rederive": mushka_rederive,
        "choose": mushka_choose,
    },
}

DEFAULT_ENTRY = {"options": [{}], "cards": zone_cards, "hidden": hands_and_stock_hidden}


def _entry(name: str) -> dict:
    return GAMES.get(name, DEFAULT_ENTRY)


def _bound(game, key: str) -> tuple[float, float]:
    """(lowest, highest) return of a seat: the adapter gives a bound b (for -b..b) or a pair."""
    f = _entry(game.name).get(key)
    b = len(DECKS[game.name].cards) if f is None else f(game.rules)
    return tuple(b) if isinstance(b, tuple) else (-b, b)


def deck_cards(game) -> list[str]:
    """The cards in play under the game's rules (default: its whole deck of DECKS)."""
    f = _entry(game.name).get("deck")
    return list(DECKS[game.name].cards) if f is None else f(game.rules)


def cards_of(game, d: dict) -> list[str]:
    """Every card of a position dict (each card once when the dict is consistent)."""
    return _entry(game.name)["cards"](d)


def hidden_slots(game, d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) of every card hidden from ``player``."""
    return _entry(game.name)["hidden"](d, player)


def world_ok(game, d: dict) -> bool:
    """Could this world be the truth? (default: always)"""
    f = _entry(game.name).get("world_ok")
    return True if f is None else f(d)


def world_weight(game, d: dict, player: int) -> int:
    """The posterior weight of a world for ``player`` (default: 1 if possible, else 0): the
    sampled worlds must follow it."""
    f = _entry(game.name).get("world_weight")
    return int(world_ok(game, d)) if f is None else f(d, player)


def public_facts(game, d: dict, player: int):
    """Public facts of a world that one dict alone cannot check against the truth (default:
    None): every possible world of ``player`` has the truth's (Minchiate's Fola suit counts
    with ``fola_visibility=suit_counts``)."""
    f = _entry(game.name).get("public_facts")
    return None if f is None else f(d, player)


def public_view(game, d: dict, player: int) -> dict:
    """``d`` without facts ``player`` cannot know other than hidden cards' identities (default:
    none)."""
    f = _entry(game.name).get("public")
    return d if f is None else f(d, player)


def choose(game, state, rnd: random.Random) -> int:
    """The random player's choice among the legal actions."""
    return _entry(game.name).get("choose", uniform_choice)(state, state.legal_actions(), rnd)


CASES = [pytest.param(name, opts, id=f"{name}-{json.dumps(opts, sort_keys=True)}")
         for name in cardsim.list_games() for opts in _entry(name)["options"]]
GAME_NAMES = cardsim.list_games()


def test_registry():
    games = cardsim.list_games()
    assert "scopa" in games and "bura" in games
    assert set(GAMES) <= set(games), "the adapter table names an unregistered game"
    assert games == sorted(games) and len(set(games)) == len(games)
    for name in games:
        assert name in DECKS, f"{name} has no deck in cardsim.cards.DECKS"
    with pytest.raises(cardsim.UnknownGameError, match="'no_such_game'"):
        cardsim.load_game("no_such_game")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_option_raises(name):
    with pytest.raises(cardsim.OptionError, match="no_such_option"):
        cardsim.load_game(name, no_such_option=1)


@pytest.mark.parametrize("name,opts", CASES)
def test_adapter_sees_every_card_once(name, opts):
    """The adapter itself: at the start of a deal every card is listed once, the hidden cards
    are distinct cards of the position, and a player's own hand is never hidden from him."""
    game = cardsim.load_game(name, **opts)
    d = game.new_deal(seed=4).to_dict()
    assert sorted(cards_of(game, d)) == sorted(deck_cards(game))
    for player in range(game.num_players):
        hidden = [c for c, _ in hidden_slots(game, d, player)]
        assert len(set(hidden)) == len(hidden) and set(hidden) <= set(cards_of(game, d))
        assert not set(hidden) & set(d["hands"][player])
        assert hidden


# --- helpers ------------------------------------------------------------------------------------

def check_cards_conserved(game, d: dict) -> None:
    deck = set(deck_cards(game))
    cards = cards_of(game, d)
    counts = Counter(cards)
    dup = [c for c, k in counts.items() if k > 1]
    assert not dup, f"cards appear twice: {dup}"
    assert set(cards) == deck, (
        f"missing {sorted(deck - set(cards))}, extra {sorted(set(cards) - deck)}")


def check_state(game, state, bound: tuple[float, float], zero_sum: bool = True) -> dict:
    """Invariants of one state; returns its dict. ``bound``: (lowest, highest) return of a
    seat; ``zero_sum``: the terminal returns add up to 0."""
    d = state.to_dict()
    check_cards_conserved(game, d)
    legal = state.legal_actions()
    terminal = state.is_terminal()
    player = state.current_player()
    assert isinstance(player, int) and isinstance(terminal, bool)
    assert (player == -1) == terminal
    if terminal:
        assert legal == []
        ret = state.returns()
        assert len(ret) == game.num_players
        if zero_sum:
            assert abs(sum(ret)) < 1e-9, ret
        assert all(bound[0] <= r <= bound[1] for r in ret), (ret, bound)
    else:
        assert 0 <= player < game.num_players
        assert legal, "no legal action in a non-terminal state"
        assert all(isinstance(a, int) for a in legal)
        assert all(a < b for a, b in zip(legal, legal[1:])), "legal actions not strictly sorted"
        assert state.returns() == [0.0] * game.num_players
    # the dict is JSON-ready
    assert json.loads(json.dumps(d)) == d
    return d


def check_round_trip(game, state, d: dict) -> None:
    back = game.from_dict(d)
    assert back.to_dict() == d
    assert back.legal_actions() == state.legal_actions()
    assert back.current_player() == state.current_player()
    assert back.is_terminal() == state.is_terminal()
    assert back.returns() == state.returns()


def check_actions(state) -> None:
    legal = state.legal_actions()
    strings = set()
    for a in legal:
        ad = state.action_to_dict(a)
        assert json.loads(json.dumps(ad)) == ad
        assert state.action_from_dict(ad) == a
        s = state.action_to_string(a)
        assert isinstance(s, str) and s and s == s.strip()
        strings.add(s)
    assert len(strings) == len(legal), "two legal actions share a string form"


def check_illegal_rejected(game, state, d: dict) -> None:
    legal = set(state.legal_actions())
    candidates = [-1, 1 << 62]
    if legal:
        candidates.append(max(legal) + 1)
        candidates.append(min(legal) - 1)
    for bad in candidates:
        if bad in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_dict() == d, "a rejected action changed the state"


def playout(game, state, rnd: random.Random, on_step=None) -> int:
    """Play random legal actions (the game's random player) to the end; call ``on_step(state)``
    before each move."""
    moves = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state)
        state.apply_action(choose(game, state, rnd))
        moves += 1
        assert moves < 100_000, "playout does not end"
    if on_step is not None:
        on_step(state)
    return moves


# --- full per-step conformance ------------------------------------------------------------------

N_PLAYOUTS = 12


@pytest.mark.parametrize("name,opts", CASES)
def test_random_playouts_every_step(name, opts):
    game = cardsim.load_game(name, **opts)
    bound = _bound(game, "deal_return_bound")
    terminal_seen = 0
    for seed in range(N_PLAYOUTS):
        rnd = random.Random(seed)
        state = game.new_deal(seed=1000 + seed)
        before = state.to_dict()

        def step(s):
            d = check_state(game, s, bound, _entry(name).get("deal_zero_sum", True))
            check_round_trip(game, s, d)
            check_actions(s)
            check_illegal_rejected(game, s, d)
            if not s.is_terminal():
                # the round-tripped state continues exactly like the original
                a = choose(game, s, rnd)
                twin = game.from_dict(d)
                c = s.clone()
                c.apply_action(a)
                twin.apply_action(a)
                assert twin.to_dict() == c.to_dict()
                # clone independence
                assert s.to_dict() == d, "playing on a clone changed the original"
                c3 = s.clone()
                s2 = s.clone()
                s2.apply_action(a)
                assert c3.to_dict() == d

        playout(game, state, rnd, step)
        assert state.is_terminal()
        assert state.to_dict() != before
        terminal_seen += 1
    assert terminal_seen == N_PLAYOUTS


@pytest.mark.parametrize("name,opts", CASES)
def test_returns_not_all_zero(name, opts):
    """Some deal ends with a non-zero return (so the returns are really computed)."""
    game = cardsim.load_game(name, **opts)
    nonzero = 0
    for seed in range(20):
        state = game.new_deal(seed=seed)
        playout(game, state, random.Random(seed))
        nonzero += any(r != 0 for r in state.returns())
    assert nonzero > 0


@pytest.mark.parametrize("name,opts", CASES)
def test_clone_independent(name, opts):
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=5)
    d0 = state.to_dict()
    c = state.clone()
    playout(game, c, random.Random(1))
    assert c.is_terminal() and not state.is_terminal()
    assert state.to_dict() == d0
    c2 = state.clone()
    playout(game, state, random.Random(2))
    assert c2.to_dict() == d0


# --- seeds --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,opts", CASES)
def test_same_seed_same_deal(name, opts):
    game = cardsim.load_game(name, **opts)
    for seed in (0, 1, 12345, 2**40 + 3):
        assert game.new_deal(seed=seed).to_dict() == game.new_deal(seed=seed).to_dict()
        assert game.new_match(seed=seed).to_dict() == game.new_match(seed=seed).to_dict()
    # the same seeds and actions give the same whole playout
    a = game.new_deal(seed=77)
    b = game.new_deal(seed=77)
    playout(game, a, random.Random(3))
    playout(game, b, random.Random(3))
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()


@pytest.mark.parametrize("name,opts", CASES)
def test_different_seeds_different_deals(name, opts):
    game = cardsim.load_game(name, **opts)
    deals = [json.dumps(game.new_deal(seed=s).to_dict(), sort_keys=True) for s in range(30)]
    assert len(set(deals)) == 30
    # not only the rng words: the cards differ too
    hands = {json.dumps(cards_of(game, json.loads(x))) for x in deals}
    assert len(hands) == 30


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("bad", [-1, 1.5, None, "7"])
def test_bad_seed(name, bad):
    game = cardsim.load_game(name)
    with pytest.raises(CardsimError):
        game.new_deal(seed=bad)


# --- matches ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,opts", CASES)
def test_playthrough_match(name, opts):
    """A whole match (new_match) played to the end, with per-step invariants."""
    game = cardsim.load_game(name, **opts)
    bound = _bound(game, "match_return_bound")
    for seed in range(3):
        rnd = random.Random(seed)
        state = game.new_match(seed=500 + seed)
        steps = [0]

        def step(s):
            d = check_state(game, s, bound)
            steps[0] += 1
            if steps[0] % 5 == 0 or s.is_terminal():
                check_round_trip(game, s, d)
                check_actions(s)

        moves = playout(game, state, rnd, step)
        assert state.is_terminal() and state.current_player() == -1
        ret = state.returns()
        assert abs(sum(ret)) < 1e-9 and any(r != 0 for r in ret)
        assert moves > 0
        # the finished match is stable under the round trip
        check_round_trip(game, state, state.to_dict())


@pytest.mark.parametrize("name,opts", CASES)
def test_match_round_trip_continues_identically(name, opts):
    """from_dict(to_dict()) mid-match carries everything the later deals depend on."""
    game = cardsim.load_game(name, **opts)
    for seed in range(99, 80, -1):   # the first match still going after 20 moves
        state = game.new_match(seed=seed)
        rnd = random.Random(seed)
        for _ in range(20):
            if state.is_terminal():
                break
            state.apply_action(choose(game, state, rnd))
        if not state.is_terminal():
            break
    assert not state.is_terminal(), "every match tried ended within 20 moves"
    twin = game.from_dict(state.to_dict())
    ra, rb = random.Random(5), random.Random(5)
    playout(game, state, ra)
    playout(game, twin, rb)
    assert state.to_dict() == twin.to_dict()


# --- sample_world -------------------------------------------------------------------------------

def _hidden(game, d: dict, player: int) -> list[str]:
    """The cards hidden from ``player``, sorted."""
    return sorted(c for c, _ in hidden_slots(game, d, player))


def _groups(game, d: dict, player: int) -> dict[str, list[str]]:
    """Place -> the hidden cards lying there."""
    out = defaultdict(list)
    for c, place in hidden_slots(game, d, player):
        out[place].append(c)
    return out


def _assignment(game, d: dict, player: int) -> tuple:
    """Where the hidden cards are: each place with its cards (as a set)."""
    return tuple(sorted((place, tuple(sorted(cards)))
                        for place, cards in _groups(game, d, player).items()))


def _place_sizes(game, d: dict, player: int) -> Counter:
    return Counter(place for _, place in hidden_slots(game, d, player))


def _masked(d, hidden: set):
    """``d`` with the identity of every hidden card wiped out: in each list the visible cards
    keep their order and the hidden ones become a count. What is left is public to the player
    (or his own) and must survive sample_world."""
    if isinstance(d, dict):
        return {k: _masked(v, hidden) for k, v in d.items()}
    if isinstance(d, list):
        kept = [_masked(x, hidden) for x in d if not (isinstance(x, str) and x in hidden)]
        n_hidden = sum(1 for x in d if isinstance(x, str) and x in hidden)
        return kept + ([{"hidden": n_hidden}] if n_hidden else [])
    return d


def _relabel(game, d: dict, sigma: dict) -> dict:
    """``d`` with every card c replaced by sigma[c] (a permutation of some cards): sigma[c]
    lies where c lay. Lists that were sorted by card index are sorted again; others (the
    stock) keep their order. The adapter's ``fixed_keys`` are left alone (cards named there
    are public facts, not places: Mushka's ``excluded``), and its ``rederive`` then updates
    what follows from the cards' places (Mushka's ace holder)."""
    index = DECKS[game.name].index
    names = set(DECKS[game.name].cards)
    fixed = _entry(game.name).get("fixed_keys", ())
    rederive = _entry(game.name).get("rederive")

    def walk(x, ordered=False):
        if isinstance(x, dict):
            return {k: v if k in fixed else walk(v, k == "stock") for k, v in x.items()}
        if isinstance(x, list):
            out = [walk(v) for v in x]
            if not ordered and all(isinstance(v, str) and v in names for v in x) \
                    and [index(v) for v in x] == sorted(index(v) for v in x):
                out.sort(key=index)
            return out
        if isinstance(x, str) and x in sigma:
            return sigma[x]
        return x

    out = walk(d)
    return out if rederive is None else rederive(out)


def _placements(groups: dict[str, list[str]]):
    """Every distinct placement of the hidden cards into the places (same sizes): yields
    sigma, the relabelling that turns the given placement into it."""
    places = sorted(groups)
    pool = sorted(c for cards in groups.values() for c in cards)

    def rec(i, left):
        if i == len(places):
            yield {}
            return
        here = sorted(groups[places[i]])
        for chosen in itertools.combinations(left, len(here)):
            rest = [c for c in left if c not in chosen]
            for sigma in rec(i + 1, rest):
                yield {**sigma, **dict(zip(here, sorted(chosen)))}

    yield from rec(0, pool)


def _n_placements(game, d: dict, player: int) -> int:
    """Number of placements of the hidden cards that keep every place's size (legal or not)."""
    sizes = list(_place_sizes(game, d, player).values())
    return math.factorial(sum(sizes)) // math.prod(math.factorial(k) for k in sizes)


def _legal_assignments(game, d: dict, player: int) -> dict:
    """Assignment -> its posterior weight (:func:`world_weight`), for every possible world of
    ``player``."""
    groups = _groups(game, d, player)
    facts = public_facts(game, d, player)
    out = {}
    for sigma in _placements(groups):
        w = _relabel(game, d, sigma)
        weight = world_weight(game, w, player) if public_facts(game, w, player) == facts else 0
        if weight:
            out[_assignment(game, w, player)] = weight
    return out


def _positions(name, opts, seeds=range(4), every=3):
    """(game, state) pairs along random playouts, some with many unseen cards, some with few."""
    game = cardsim.load_game(name, **opts)
    out = []
    for seed in seeds:
        state = game.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == 0:
                out.append(state.clone())
            state.apply_action(choose(game, state, rnd))
            k += 1
        out.append(state.clone())
    return game, out


def _permuted_truth(game, d: dict, player: int, rnd: random.Random):
    """A second true state: the same observation for ``player``, hidden cards permuted among
    their slots (a possible world, when a shuffle gives one within a few tries)."""
    hidden = _hidden(game, d, player)
    for _ in range(20):
        shuffled = hidden[:]
        rnd.shuffle(shuffled)
        e = _relabel(game, d, dict(zip(hidden, shuffled)))
        if world_ok(game, e) and public_facts(game, e, player) == public_facts(game, d, player):
            break
    else:
        e = json.loads(json.dumps(d))
    assert _place_sizes(game, e, player) == _place_sizes(game, d, player)
    assert _hidden(game, e, player) == hidden
    return game.from_dict(e)


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_consistent(name, opts):
    game, positions = _positions(name, opts)
    differs = 0
    with_unseen = 0
    for state in positions:
        truth = state.to_dict()
        for player in range(game.num_players):
            obs = state.observation(player)
            hidden = _hidden(game, truth, player)
            public = _masked(public_view(game, truth, player), set(hidden))
            del public["rng"]
            sizes = _place_sizes(game, truth, player)
            for s in range(3):
                w = state.sample_world(player, seed=s)
                wd = w.to_dict()
                check_cards_conserved(game, wd)
                assert game.from_dict(wd).to_dict() == wd
                assert w.observation(player) == obs
                assert [len(h) for h in wd["hands"]] == [len(h) for h in truth["hands"]]
                assert public_facts(game, wd, player) == public_facts(game, truth, player)
                assert wd["hands"][player] == truth["hands"][player]
                assert len(wd.get("stock", [])) == len(truth.get("stock", []))
                assert _hidden(game, wd, player) == hidden        # same unseen set, reshuffled
                assert _place_sizes(game, wd, player) == sizes    # as many in every place
                # every public field (everything but the hidden cards' identities) is kept
                mine = _masked(public_view(game, wd, player), set(hidden))
                del mine["rng"]
                assert mine == public
                if not state.is_terminal():
                    assert world_ok(game, wd), "sample_world gave an impossible world"
                assert w.current_player() == state.current_player()
                assert w.is_terminal() == state.is_terminal()
                if player == state.current_player():   # his legal actions are his to know
                    assert w.legal_actions() == state.legal_actions()
                # deterministic per seed
                assert state.sample_world(player, seed=s).to_dict() == wd
                # sampling leaves the true state alone
                assert state.to_dict() == truth
                if _assignment(game, wd, player) != _assignment(game, truth, player):
                    differs += 1
            if len(hidden) >= 2 and len(sizes) >= 2:
                with_unseen += 1
    assert with_unseen > 0
    assert differs > 0, "sample_world never changed the hidden cards"


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_seeds_differ(name, opts):
    """At the start of a deal many worlds are possible: 20 seeds give 20 different ones."""
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=3)
    player = state.current_player()
    worlds = {json.dumps(_assignment(game, state.sample_world(player, seed=s).to_dict(), player))
              for s in range(20)}
    assert len(worlds) == 20


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_ignores_hidden_truth(name, opts):
    """Two true states with the same observation for p give the same samples for p."""
    game, positions = _positions(name, opts, seeds=range(3), every=4)
    rnd = random.Random(2024)
    compared = 0
    for state in positions:
        truth = state.to_dict()
        for player in range(game.num_players):
            other = _permuted_truth(game, truth, player, rnd)
            assert other.observation(player) == state.observation(player)
            if _assignment(game, other.to_dict(), player) != _assignment(game, truth, player):
                compared += 1
            for s in range(3):
                assert (state.sample_world(player, seed=s).to_dict()
                        == other.sample_world(player, seed=s).to_dict())
    assert compared > 0, "no position had hidden cards to permute"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sample_world_bad_player(name):
    game = cardsim.load_game(name)
    state = game.new_deal(seed=1)
    for bad in (-1, game.num_players, 1.0, None):
        with pytest.raises(CardsimError):
            state.sample_world(bad, seed=1)


def _small_positions(name) -> list:
    """Positions met by random play, over the game's option sets, where some player has 6..120
    possible worlds (placements of his hidden cards that pass ``world_ok``; at most 1500
    placements are enumerated): the first one, the first where some placements are impossible
    and the first with hidden cards in three kinds of place (hand, stock, face down), when
    there are such. Items: (game, state, player, the possible worlds as assignments)."""
    wanted = {"any": None, "impossible": None, "kinds": None}
    if "world_ok" not in _entry(name):
        wanted = {"any": None}
    most = 1500 if "world_ok" in _entry(name) else 120
    for opts in _entry(name)["options"]:
        game = cardsim.load_game(name, **opts)
        for seed in range(40):
            state = game.new_deal(seed=seed)
            rnd = random.Random(seed)
            while not state.is_terminal():
                d = state.to_dict()
                for player in range(game.num_players):
                    n_all = _n_placements(game, d, player)
                    if not 6 <= n_all <= most:
                        continue
                    kinds = {place.split()[0] for _, place in hidden_slots(game, d, player)}
                    if all(found is not None or (key == "kinds" and len(kinds) < 3)
                           for key, found in wanted.items()):
                        continue        # nothing still wanted can be found here
                    worlds = _legal_assignments(game, d, player)
                    if not 6 <= len(worlds) <= 120:
                        continue
                    for key, fits in (("any", True), ("impossible", len(worlds) < n_all),
                                      ("kinds", len(kinds) >= 3)):
                        if key in wanted and wanted[key] is None and fits:
                            wanted[key] = (game, state.clone(), player, worlds)
                    if all(wanted.values()):
                        break
                if all(wanted.values()):
                    break
                state.apply_action(choose(game, state, rnd))
            if all(wanted.values()):
                break
        if all(wanted.values()):
            break
    out = []
    for found in wanted.values():
        if found is not None and all(found is not f for f in out):
            out.append(found)
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sample_world_uniform_small_position(name):
    """Chi-square: on a position with few unseen cards every possible world is drawn with its
    posterior weight (:func:`world_weight`: equally likely, unless a game weighs them).

    Small positions are found by random play (:func:`_small_positions`); on each, every
    possible placement must be drawn, no impossible one, with counts that pass a chi-square
    goodness-of-fit test against those weights.
    """
    found = _small_positions(name)
    if not found:
        pytest.skip(f"no {name} position with a small number of unseen placements")
    for game, state, player, worlds in found:
        n_cells = len(worlds)
        n = 40 * n_cells
        counts = Counter(_assignment(game, state.sample_world(player, seed=s).to_dict(), player)
                         for s in range(n))
        assert set(counts) <= set(worlds), "an impossible world was drawn"
        assert len(counts) == n_cells, f"{len(counts)} of {n_cells} placements ever drawn"
        total = sum(worlds.values())
        cells = sorted(worlds)
        expected = [n * worlds[c] / total for c in cells]
        assert chisquare([counts[c] for c in cells], expected).pvalue > ALPHA


def _hand_probabilities(game, d: dict, player: int, card: str, limit: int = 20_000):
    """P(``card`` is in each other hand) over the possible worlds, exactly, when the other
    hands can be enumerated within ``limit`` placements (the stock taken as one unordered
    place: ``world_ok`` does not look at the stock's order); else None."""
    groups = defaultdict(list)
    for c, place in hidden_slots(game, d, player):
        groups["stock" if place.startswith("stock") else place].append(c)
    sizes = [len(v) for v in groups.values()]
    if math.factorial(sum(sizes)) // math.prod(math.factorial(k) for k in sizes) > limit:
        return None
    hits = Counter()
    total = 0
    for sigma in _placements(groups):
        w = _relabel(game, d, sigma)
        weight = world_weight(game, w, player) \
            if public_facts(game, w, player) == public_facts(game, d, player) else 0
        total += weight
        for p, h in enumerate(w["hands"]):
            if card in h:
                hits[p] += weight
    return {p: hits[p] / total for p in range(game.num_players) if p != player}


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_card_placement_uniform(name, opts):
    """Chi-square: at the start of a deal, a given unseen card lands in each hidden slot
    (another hand, or a stock position) with its probability over the possible worlds: slot
    size / unseen when every placement is possible; else the probabilities of the hands are
    enumerated, or (too many worlds) estimated from the counts under the symmetry of the seats
    (a common share per hidden hand slot: one degree of freedom less), and the stock positions
    share the rest equally (or, when some hidden place is neither a hand nor the stock, every
    place outside the hands is one cell)."""
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=11)
    player = state.current_player()
    d = state.to_dict()
    hidden = _hidden(game, d, player)
    if len(hidden) < 2:
        pytest.skip("nothing hidden")
    card = min(hidden, key=DECKS[name].index)
    slots = [p for p in range(game.num_players) if p != player]
    places = [place for _, place in hidden_slots(game, d, player)]
    in_hand = [places.count(f"hand {p}") for p in slots]
    stock_slots = [int(place.split()[1]) for place in places if place.startswith("stock")]
    # hidden places that are neither a hand nor a stock position (Minchiate's Fola and
    # discards) form one more cell, which then takes the stock positions too
    others = sum(1 for place in places if not place.startswith(("hand ", "stock ")))
    assert sum(in_hand) + len(stock_slots) + others == len(hidden)
    n = 60 * len(hidden)
    cells = (len(stock_slots) if not others else 1) if stock_slots or others else 0
    counts = [0] * (len(slots) + cells)
    for s in range(n):
        wd = state.sample_world(player, seed=s).to_dict()
        where = [i for i, p in enumerate(slots) if card in wd["hands"][p]]
        if not where:
            where = [len(slots) + (stock_slots.index(wd["stock"].index(card)) if not others
                                   else 0)]
        counts[where[0]] += 1
    ddof = 0
    if "world_ok" not in _entry(name):
        hand_p = [k / len(hidden) for k in in_hand]
    else:
        exact = _hand_probabilities(game, d, player, card)
        if exact is not None:
            hand_p = [exact[p] for p in slots]
        else:       # the seats are symmetric at the start: estimate the share of a hidden slot
            share = sum(counts[:len(slots)]) / n / sum(in_hand)
            hand_p = [share * k for k in in_hand]
            ddof = 1
    rest = (1 - sum(hand_p)) / cells if cells else 0.0
    probs = hand_p + [rest] * cells
    assert abs(sum(probs) - 1) < 1e-9
    assert chisquare(counts, [n * p for p in probs], ddof=ddof).pvalue > ALPHA


# --- illegal input to from_dict -----------------------------------------------------------------

@pytest.mark.parametrize("name", GAME_NAMES)
def test_from_dict_rejects_broken_card_sets(name):
    game = cardsim.load_game(name)
    d = game.new_deal(seed=8).to_dict()
    # a card lost
    loose = _entry(name).get("loose_zone", "stock")
    e = json.loads(json.dumps(d))
    e[loose] = e[loose][1:] if e[loose] else e[loose]
    if d[loose]:
        with pytest.raises(CardsimError):
            game.from_dict(e)
    # a card duplicated
    e = json.loads(json.dumps(d))
    e["table" if "table" in e else loose].append(d["hands"][0][0])
    with pytest.raises(CardsimError):
        game.from_dict(e)
    # an unknown card
    e = json.loads(json.dumps(d))
    e["hands"][0][0] = "no_such_card"
    with pytest.raises(cardsim.CardError, match="no_such_card"):
        game.from_dict(e)
    # the original still loads
    assert game.from_dict(d).to_dict() == d
