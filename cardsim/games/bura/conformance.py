"""Bura's adapter for the conformance suite (protocol: :mod:`cardsim.protocol.conformance`).

rules/bura.md; dict format in :mod:`.notation`. Besides hands and stock, the cards other
players threw face down are hidden ("down q pile x trick j" and the like); the possible worlds
are weighed by the orders in which the other players can have received their cards, and those
orders are hidden too. :func:`combos` (the combinations a hand holds) serves the property
tests as well.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter

CLAIM = 4 << 40            # the engine's action id of "claim"
CLAIM_PROBABILITY = 0.05   # random play claims rarely, or deals end at once

OPTIONS = [
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
]


def deal_return_bound(rules) -> int:
    # BU-END-3: a loser pays the multiplier (at most 2), a single winner takes n-1 stakes
    return max(2, rules.num_players - 1)


def match_return_bound(rules) -> int:
    # wins_to_n: +1 / -1/(n-1); penalty_points: -1 per loser, the others share
    return max(2, rules.num_players - 1)


def cards(d: dict) -> list[str]:
    """Every card of a Bura position exactly once: hands, stock, piles (up and down) and the
    trick's played cards. Not ``trump_card`` (that card is also in the stock or elsewhere),
    not ``thrown_down`` (those cards lie in a pile or the trick) nor ``trick.top`` (played)."""
    out = [c for h in d["hands"] for c in h] + list(d["stock"])
    out += [c for pile in d["piles"] for c in pile["up"] + pile["down"]]
    if d.get("trick"):
        out += [c for played in d["trick"]["played"] for c in played]
    return out


def hidden(d: dict, player: int) -> list[tuple[str, str]]:
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


def combos(hand: list[str], d: dict) -> set[str]:
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


def _lives(d: dict, seat: int) -> dict[str, tuple[int, int, int]]:
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


def _scheduled(d: dict, cp: int) -> int:
    """The scheduled leader at check point ``cp``: the first leader, then each trick's winner
    (the seat whose pile holds its cards)."""
    if cp == 0:
        return d["first_leader"]
    card = next(c for p in d["history"][cp - 1]["played"] for c in p)
    return next(x for x, pile in enumerate(d["piles"]) if card in pile["up"] + pile["down"])


def _hand_allowed(hand, d: dict, seat: int, cp: int) -> bool:
    """Rules §5: play went on after check point ``cp``, so this hand held no Moscow, no bura
    that wins there (``own_lead``: the scheduled leader's only) and, before the first trick
    with ``initial_combo_redeal``, no active combination (BU-DEAL-5)."""
    rules = d["rules"]
    found = combos(sorted(hand), d)
    if cp == 0 and rules["initial_combo_redeal"] and found:
        return False
    if "moscow" in found:
        return False
    return not ("bura" in found and (rules["bura_timing"] == "any_check_point"
                                     or seat == _scheduled(d, cp)))


def receipt_orders(d: dict, seat: int, check: bool = True) -> int:
    """How many orders of receiving his cards (which at which check point: the counts are
    public) give ``seat`` no combination that would have ended the deal at a check point
    passed (:func:`_hand_allowed`; ``check=False`` counts them all). A dynamic programme
    over the check points on his hand there (at most 3 cards)."""
    lives = _lives(d, seat)
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
                if not check or _hand_allowed(new, d, seat, cp):
                    nxt[new] += w
        ways = nxt
    return sum(ways.values())


def world_weight(d: dict, player: int) -> int:
    """Rules §5: the posterior weight of a world for ``player``: the number of deal orders that
    lead to it, i.e. the product over the other seats of their receipt orders that kept play
    going (a finished deal has shown its cards: no condition)."""
    if d.get("history") is None:
        return int(world_ok(d))
    check = d["result"] is None
    return math.prod(receipt_orders(d, q, check) for q in range(len(d["hands"]))
                     if q != player)


def world_ok(d: dict) -> bool:
    """Is this world possible as it stands (rules §5)? Play went on, so no hand at any check
    point passed or the current one (from ``history``; without it, only the current one: the
    hand now plus its cards in the current trick) held a combination that would have ended
    the deal (:func:`_hand_allowed`). A finished deal has shown its cards."""
    if d["result"] is not None:
        return True
    n = len(d["hands"])
    if d.get("history") is None:
        now = [d["hands"][q] + (d["trick"]["played"][q] if d["trick"] else []) for q in range(n)]
        return all(_hand_allowed(now[q], d, q, d["tricks"]) for q in range(n))
    for q in range(n):
        got = {}
        for j, h in enumerate(d["history"]):
            got.update((c, j + 1) for c in h["drawn"][q])
        lives = _lives(d, q)
        for cp in range(d["tricks"] + 1):
            hand = [c for c, (_, _, until) in lives.items() if got.get(c, 0) <= cp <= until]
            if not _hand_allowed(hand, d, q, cp):
                return False
    return True


def public(d: dict, player: int) -> dict:
    """``d`` without what ``player`` cannot know beyond the hidden cards' identities: when the
    other seats received their cards (only the count and the turned trump card are public)."""
    if d.get("history") is None:
        return d
    history = [{**h, "drawn": [cards if q == player else
                               [c for c in cards if c == d["trump_card"]] + [len(cards)]
                               for q, cards in enumerate(h["drawn"])]} for h in d["history"]]
    return {**d, "history": history}


def choose(state, legal: list[int], rnd: random.Random) -> int:
    """Random play that claims with probability 0.05 when a claim is legal."""
    if CLAIM in legal:
        others = [a for a in legal if a != CLAIM]
        if not others or rnd.random() < CLAIM_PROBABILITY:
            return CLAIM
        return rnd.choice(others)
    return rnd.choice(legal)

