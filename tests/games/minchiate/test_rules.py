"""One test (or more) per rule ID of rules/minchiate.md §2, and per option of §3.

Every expectation is worked out from the rules file and the action encoding documented in
``cardsim/games/minchiate/layout.py``, never copied from the engine: the card values, the combination
catalogue, the deal a seed gives and the resto arithmetic are restated below (section
"Oracle") from the rules text, and each test states its numbers by hand where they are small.
Positions are written in card notation with :func:`position` (the cards that matter; the rest
spread so that the position is legal: every card once among hands, Fola, played cards and
piles, hand sizes matching the tricks played, points matching D and the resti) and actions go
through ``action_from_dict``.

Seats 0..3 in playing order; unless a test says otherwise the dealer is seat 0 (team A), so
seat 1 leads first and seat 3 is the cutter (the setting of rules §5). D = A − B.
"""
from __future__ import annotations

import functools
import random
from math import ceil

import pytest

from cardsim.compiled.rng import PyRng, rng_from_seed
from cardsim.errors import CardsimError, IllegalActionError
from tests.helpers import game_loader

# =============================================================================================
# Oracle: cards, values, combinations, actions (restated from rules §1, §2.8 and the engine's
# layout)
# =============================================================================================

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F", "C", "Q", "K"]
SUITS = ["co", "cu", "sw", "ba"]
ALL97 = [f"T{n}" for n in range(1, 41)] + ["M"] + [r + s for s in SUITS for r in RANKS]
IDX = {c: i for i, c in enumerate(ALL97)}
KINGS = ["K" + s for s in SUITS]
TEAM = "AB"


def trump_no(card: str) -> int:
    """n of trump Tn, else 0."""
    return int(card[1:]) if card.startswith("T") else 0


def suit_of(card: str) -> str:
    """"T" for trumps, "M" for the Matto, else the suit short."""
    if card.startswith("T"):
        return "T"
    if card == "M":
        return "M"
    return card[-2:]


def rank_of(card: str) -> str:
    return card[:-2]


def value(card: str) -> int:
    """Rules §1.3."""
    n = trump_no(card)
    if n:
        if n >= 36:
            return 10
        if n in (30, 31, 32, 33, 34, 35, 28, 20, 13, 10, 1):
            return 5
        if 2 <= n <= 5:
            return 3
        return 0
    if card == "M" or rank_of(card) == "K":
        return 5
    return 0


def eligible(card: str) -> bool:
    """Rules §1.4: a counting card or a trump above 20 (robbing, MI-CUT-1, MI-ROB-1)."""
    return value(card) > 0 or trump_no(card) > 20


def strength(card: str) -> int:
    """Rules §1.2: within its suit, higher wins (trumps by number)."""
    n = trump_no(card)
    if n:
        return n
    f = RANKS.index(rank_of(card))
    if suit_of(card) in ("co", "cu") and f <= 9:
        return 9 - f
    return f


def srt(spec) -> list[str]:
    """Cards sorted by index (how the position dicts list them)."""
    return sorted(cards(spec), key=IDX.__getitem__)


def cards(spec) -> list[str]:
    if spec is None:
        return []
    return spec.split() if isinstance(spec, str) else list(spec)


def total(spec) -> int:
    return sum(value(c) for c in cards(spec))


assert len(ALL97) == 97 and total(ALL97) == 142
assert sum(1 for c in ALL97 if value(c) > 0) == 25 and sum(map(eligible, ALL97)) == 33


def _catalogue():
    """The engine's combination ids: runs in 1-5, runs in 28-40 (by low, then high end),
    Matto-1-40, 1-13-28, 10-20-30, 20-30-40, 10-20-30-40, three Kings (by the missing suit),
    four Kings. Each combination is its cards in index order."""
    out = []
    for lo, hi in ((1, 5), (28, 40)):
        for a in range(lo, hi - 1):
            for b in range(a + 2, hi + 1):
                out.append(tuple(f"T{n}" for n in range(a, b + 1)))
    out += [("T1", "T40", "M"), ("T1", "T13", "T28"), ("T10", "T20", "T30"),
            ("T20", "T30", "T40"), ("T10", "T20", "T30", "T40")]
    out += [tuple(k for k in KINGS if k != KINGS[m]) for m in range(4)]
    out.append(tuple(KINGS))
    return out


CATALOGUE = _catalogue()
COMBO_ID = {c: i for i, c in enumerate(CATALOGUE)}
assert len(CATALOGUE) == 82


def combo_value(combo) -> int:
    """MI-COMB-3: the sum of the card values, T29 counting 5."""
    return sum(5 if c == "T29" else value(c) for c in combo)


def combos_of(spec, *, decine_two: bool = False) -> list[tuple]:
    """MI-COMB-1/2: every combination a set of cards holds, in id order."""
    have = set(cards(spec))
    out = []
    for lo, hi in ((1, 5), (28, 40)):              # maximal runs of 3+
        n = lo
        while n <= hi:
            if f"T{n}" in have:
                m = n
                while m + 1 <= hi and f"T{m + 1}" in have:
                    m += 1
                if m - n >= 2:
                    out.append(tuple(f"T{k}" for k in range(n, m + 1)))
                n = m + 1
            else:
                n += 1
    if {"M", "T1", "T40"} <= have:
        out.append(("T1", "T40", "M"))
    if {"T1", "T13", "T28"} <= have:
        out.append(("T1", "T13", "T28"))
    low, high = {"T10", "T20", "T30"} <= have, {"T20", "T30", "T40"} <= have
    if low and high and not decine_two:
        out.append(("T10", "T20", "T30", "T40"))
    else:
        if low:
            out.append(("T10", "T20", "T30"))
        if high:
            out.append(("T20", "T30", "T40"))
    kings = [k for k in KINGS if k in have]
    if len(kings) >= 3:
        out.append(tuple(kings))
    return sorted(out, key=COMBO_ID.__getitem__)


def combos_points(spec, *, with_matto: bool, decine_two: bool = False,
                  bonus_on_matto_combo: bool = False) -> int:
    """MI-COMB-3/4: the value of every combination of the set, plus 5 for each combination
    without the Matto when the holder has the Matto (all of them with the option)."""
    cs = combos_of(spec, decine_two=decine_two)
    pts = sum(combo_value(c) for c in cs)
    if with_matto:
        pts += 5 * sum(1 for c in cs if bonus_on_matto_combo or "M" not in c)
    return pts


# --- actions (the engine: kind << 8 | value) ---------------------------------------------------

KINDS = {"play": 0, "discard": 1, "declare": 2, "done": 3}


def action_id(text: str) -> int:
    kind, _, rest = text.partition(" ")
    if kind in ("play", "discard"):
        return KINDS[kind] << 8 | IDX[rest]
    if kind == "declare":
        return KINDS[kind] << 8 | COMBO_ID[tuple(srt(rest.split("+")))]
    if kind == "done":
        assert rest in ("", "bonus"), text
        return KINDS[kind] << 8 | (rest == "bonus")
    raise AssertionError(f"test error: unknown action {text!r}")


def action_dict(text: str) -> dict:
    kind, _, rest = text.partition(" ")
    if kind in ("play", "discard"):
        return {kind: rest}
    if kind == "declare":
        return {"declare": srt(rest.split("+"))}
    return {"done": True, "bonus": rest == "bonus"}


def canonical(text: str) -> str:
    kind, _, rest = text.partition(" ")
    if kind == "declare":
        return "declare " + "+".join(srt(rest.split("+")))
    return text


def declare(combo) -> str:
    return "declare " + "+".join(srt(combo))


def plays(*cs: str) -> list[str]:
    return ["play " + c for c in cs]


def discards_of(*cs: str) -> list[str]:
    return ["discard " + c for c in cs]


def legal_strings(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_legal(state, *texts: str) -> None:
    """The legal actions are exactly ``texts``: the same ids in ascending order, the same
    string forms and the engine's dict forms both ways."""
    for t in texts:
        assert t == canonical(t), f"test error: write {canonical(t)!r}"
    expected = sorted(texts, key=action_id)
    assert state.legal_actions() == sorted(action_id(t) for t in texts), \
        (legal_strings(state), expected)
    assert legal_strings(state) == expected
    for a, text in zip(state.legal_actions(), expected):
        assert state.action_to_dict(a) == action_dict(text)
        assert state.action_from_dict(action_dict(text)) == a


def assert_illegal(state, text: str) -> None:
    before = state.to_dict()
    with pytest.raises((IllegalActionError, CardsimError)):
        state.apply_action(action_id(text))
    assert state.to_dict() == before


def play(state, *texts: str):
    """Apply the actions written as text, each through ``action_from_dict``."""
    for text in texts:
        a = state.action_from_dict(action_dict(text))
        assert a == action_id(text), (text, a)
        state.apply_action(a)
    return state


def play_cards(state, *cs: str):
    return play(state, *plays(*cs))


# --- the trick, restated (MI-PLAY-5, MI-PLAY-2) ---------------------------------------------

def led_suit(trick_cards) -> str | None:
    """The suit of the first non-Matto card (MI-PLAY-2)."""
    for c in trick_cards:
        if c != "M":
            return suit_of(c)
    return None


def trick_winner(trick) -> int:
    """MI-PLAY-5: the seat of the highest trump, else of the highest card of the led suit;
    ``trick`` is [[seat, card], ...] in playing order."""
    cs = [c for _, c in trick]
    trumps = [(trump_no(c), s) for s, c in trick if suit_of(c) == "T"]
    if trumps:
        return max(trumps)[1]
    led = led_suit(cs)
    return max((strength(c), s) for s, c in trick if suit_of(c) == led)[1]


# --- resti (MI-RESTO-1..3) -------------------------------------------------------------------

def event(D: int, resti, a: int, b: int):
    """MI-RESTO-2 after one scoring event: returns (D, [resti A, resti B])."""
    r = list(resti)
    D += a - b
    while D >= 60:
        r[0] += 1
        D -= 60
    while D <= -60:
        r[1] += 1
        D += 60
    return D, r


def final_rounding(D: int, resti):
    """MI-RESTO-3: the remaining lead rounded up in units of 60."""
    r = list(resti)
    if D > 0:
        r[0] += ceil(D / 60)
    elif D < 0:
        r[1] += ceil(-D / 60)
    return r


# --- rules options (rules §3 restated) -------------------------------------------------------

DEFAULTS = {
    "deals": 1, "cutter_rob": "auto", "dealer_rob": "auto_all", "rob_cap": 13,
    "expose_last_card": "all_players", "discard_trumps": True, "declaration_mode": "choice",
    "declaration_timing": "before_first_lead", "fola_visibility": "open",
    "decine_four": "one_combination", "matto_bonus_on_matto_combo": False,
    "resto_points": 60, "capot": "off",
}
SOURCES = ("cutter_rob", "exposed", "dealer_rob", "declarations", "dying", "pile",
           "beyond_42", "pile_combinations", "last_trick")
RNG_WORDS = [11, 22, 33, 44]


game = game_loader("minchiate")


def load(pos):
    """The position under the rules its dict names."""
    opts = {k: v for k, v in pos["rules"].items() if v != DEFAULTS[k]}
    return game(**opts).from_dict(pos)


# =============================================================================================
# The deal a seed gives (rules MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1)
# =============================================================================================

def deal_from(rng: PyRng, dealer: int, **options) -> dict:
    """One deal from the stream ``rng`` (advanced in place), by the engine's procedure."""
    r = {**DEFAULTS, **options}
    P = list(range(97))
    rng.shuffle(P)
    order = [ALL97[i] for i in P]                  # order[0] top, order[96] bottom
    cutter = (dealer + 3) % 4
    robbed, seen = [], None
    if r["cutter_rob"] == "auto":
        while len(robbed) < 13:
            c = order[96 - len(robbed)]
            if eligible(c):
                robbed.append(c)
            else:
                seen = c
                break
    k = len(robbed)
    dealt = [[] for _ in range(4)]
    exposed = [None] * 4
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        dealt[seat] = order[10 * j:10 * j + 10] + order[40 + 11 * j:40 + 11 * j + 11]
        if r["expose_last_card"] == "all_players":
            exposed[seat] = order[40 + 11 * j + 10]
    undealt = order[84:97 - k]
    d_robbed = [c for c in undealt if eligible(c)] if r["dealer_rob"] == "auto_all" else []
    fola = [c for c in undealt if c not in d_robbed]
    points = {s: [0, 0] for s in SOURCES}
    D, resti = 0, [0, 0]
    # the three scoring events of the deal (MI-SCORE-1 (1)-(3))
    pts = [0, 0]
    pts[cutter & 1] = total(robbed)
    points["cutter_rob"] = list(pts)
    D, resti = event(D, resti, *pts)
    pts = [0, 0]
    for s in range(4):
        if exposed[s] is not None:
            pts[s & 1] += value(exposed[s])
    points["exposed"] = list(pts)
    D, resti = event(D, resti, *pts)
    pts = [0, 0]
    pts[dealer & 1] = total(d_robbed)
    points["dealer_rob"] = list(pts)
    D, resti = event(D, resti, *pts)
    hands = [list(h) for h in dealt]
    hands[cutter] += robbed
    hands[dealer] += d_robbed
    return {"dealer": dealer, "cutter": cutter, "order": order, "dealt": [srt(h) for h in dealt],
            "hands": [srt(h) for h in hands], "cutter_robbed": robbed, "seen_bottom": seen,
            "exposed": exposed, "dealer_robbed": d_robbed, "undealt": undealt,
            "fola": srt(fola), "points": points, "D": D, "resti": resti, "rng": list(rng.s)}


def oracle_deal(seed: int, **options) -> dict:
    """What ``new_deal(seed)`` deals: the state's stream is 4 outputs of the seed's generator,
    the dealer ``below(4)`` (MI-DEAL-1), then the shuffle and the deal."""
    caller = PyRng(rng_from_seed(seed))
    rng = PyRng([caller.next() for _ in range(4)])
    dealer = rng.below(4)
    return deal_from(rng, dealer, **options)


@functools.lru_cache(maxsize=None)
def _oracle_cached(seed: int, items) -> dict:
    return oracle_deal(seed, **dict(items))


def oracle(seed: int, **options) -> dict:
    return _oracle_cached(seed, tuple(sorted(options.items())))


def find_seed(predicate, limit: int = 5000, **options) -> int:
    for seed in range(limit):
        if predicate(oracle(seed, **options)):
            return seed
    raise AssertionError("no seed found")


# =============================================================================================
# Positions (the position dict of notation.py)
# =============================================================================================

FILL_ORDER = {0: "suit card worth 0", 1: "trump 6..19 worth 0", 2: "T21..T27, T29",
              3: "counting card"}


def _klass(c: str) -> int:
    if value(c) > 0:
        return 3
    if eligible(c):
        return 2
    return 1 if suit_of(c) == "T" else 0


def H(named="", fill="co cu sw ba"):
    """A hand spec: the ``named`` cards plus filler from the suits in ``fill`` (suit shorts,
    "T" for trumps), worth 0 first."""
    return ("spec", cards(named), fill.split())


def inferences(card: str, before: list[str], suits_led) -> set[str]:
    """Rules §6 / engine: what playing ``card`` after ``before`` shows absent from the hand:
    a card not of the led suit L shows a void in L, and one neither of L nor a trump no
    trumps; under the King rule any card but the King of L shows that King absent."""
    led = led_suit(before)
    out = set()
    if led is None:
        return out
    if led in SUITS and led not in suits_led and any(suit_of(c) == "T" for c in before) \
            and card != "K" + led:
        out.add("K" + led)
    if card != "M" and suit_of(card) != led:
        out |= {c for c in ALL97 if suit_of(c) == led}
        if suit_of(card) != "T":
            out |= {c for c in ALL97 if suit_of(c) == "T"}
    return out


def position(hands, *, dealer: int = 0, phase: str = "play", tricks_won=(0, 0),
             leader=None, trick=(), played=None, piles=None, captured=None, fola=(),
             discards=None, cutter_robbed=(), dealer_robbed=(), exposed=None, declared=None,
             declared_done=None, bonus_claimed=None, suits_led=(), matto_debt: bool = False,
             to_move="auto", D=None, resti=None, rng=None, mode: str = "deal",
             deal_number: int = 1, net_total: int = 0, start_dealer=None,
             seen_bottom=None, **options) -> dict:
    """A legal position dict (the position dict of notation.py).

    ``hands``: per seat a string or list (the whole hand), ``H(named, fill)`` (named cards plus
    filler from the given suits) or None (filler). ``tricks_won``: tricks completed per team
    ([A, B]); ``trick``: the current trick's cards, from ``leader`` (the last trick's winner);
    ``played``: per seat cards played in earlier tricks; ``piles``: per team cards of its
    pile, played by its own seats except those also listed in ``captured`` (per team: cards it
    took from the other team, which died). The rest is filler, cards worth 0 first. ``fola``:
    named Fola cards (not discards); ``discards`` per seat. ``exposed``: per seat (default a
    card worth 0 of the seat's). The points of each source follow from the cards as the rules
    say; ``D`` (checked) and ``resti`` default to the events' result."""
    r = {**DEFAULTS, **options}
    assert set(options) <= set(DEFAULTS), options
    cutter = (dealer + 3) % 4
    tw = list(tricks_won)
    t = sum(tw)
    trick = cards(trick)
    started = phase == "play" or bool(trick) or t > 0
    cutter_robbed, dealer_robbed = cards(cutter_robbed), cards(dealer_robbed)
    if leader is None and started:
        assert t == 0, "test error: name the leader (the last trick's winner)"
        leader = (dealer + 1) % 4
    trick_seats = [(leader + j) % 4 for j in range(len(trick))]
    disc = [cards(x) for x in discards] if discards is not None else [[] for _ in range(4)]

    want = []
    for s in range(4):
        if phase == "discard":
            k = 21
            if s == cutter:
                k += len(cutter_robbed) - len(disc[s])
            if s == dealer:
                k += len(dealer_robbed) - len(disc[s])
        else:
            k = 21 - t - (1 if s in trick_seats else 0)
        want.append(k)

    named = list(trick) + [c for x in disc for c in x] + cards(fola)
    specs = []
    for s in range(4):
        h = hands[s]
        if h is None:
            specs.append(([], None))
        elif isinstance(h, tuple) and h and h[0] == "spec":
            specs.append((list(h[1]), h[2]))
        else:
            hc = cards(h)
            assert len(hc) == want[s], f"test error: seat {s} holds {len(hc)}, wants {want[s]}"
            specs.append((hc, []))
        named += specs[s][0]
    pl_named = [cards(p) for p in played] if played is not None else [[] for _ in range(4)]
    pile_named = [cards(p) for p in piles] if piles is not None else [[], []]
    capt = [set(cards(c)) for c in captured] if captured is not None else [set(), set()]
    assert capt[0] <= set(pile_named[0]) and capt[1] <= set(pile_named[1])
    named += [c for p in pl_named for c in p]
    assert not {c for p in pile_named for c in p} & (set(named) - {c for p in pl_named
                                                                  for c in p}), \
        "test error: a pile card is named in a hand, the trick or the Fola"
    named += [c for p in pile_named for c in p if c not in named]
    assert len(named) == len(set(named)), f"test error: a card named twice: {srt(named)}"
    pool = sorted((c for c in ALL97 if c not in set(named)),
                  key=lambda c: (_klass(c), IDX[c]))

    def take(k, pred=lambda c: True, reverse=False):
        src = [c for c in (reversed(pool) if reverse else pool) if pred(c)]
        out = src[:k]
        assert len(out) == k, "test error: not enough filler"
        for c in out:
            pool.remove(c)
        return out

    # 0. a card of each suit led already in the earlier tricks (in a pile)
    reserved = []
    earlier_named = {c for p in pl_named for c in p} | {c for p in pile_named for c in p}
    for x in suits_led:
        if not any(suit_of(c) == x for c in earlier_named):
            reserved += take(1, lambda c, x=x: suit_of(c) == x and value(c) == 0)
    # the discards owed after the discard phase: cards worth 0 (MI-DISC-1)
    if phase != "discard":
        for seat, k in ((cutter, len(cutter_robbed)), (dealer, len(dealer_robbed))):
            if len(disc[seat]) < k:
                disc[seat] = disc[seat] + take(
                    k - len(disc[seat]),
                    lambda c: _klass(c) <= (1 if r["discard_trumps"] else 0), reverse=True)
    # 2. the Fola
    if phase == "discard":
        fola_size = 13 - len(cutter_robbed) - len(dealer_robbed) + sum(len(x) for x in disc)
    else:
        fola_size = 13
    fola_named = cards(fola)
    fola_fill = fola_size - len(fola_named) - sum(len(x) for x in disc)
    assert fola_fill >= 0
    fola_list = fola_named + take(fola_fill, lambda c: _klass(c) <= 1, reverse=True)
    fola_list += [c for x in disc for c in x]
    # 1. hands with restricted filler
    hand_list = [None] * 4
    for s in range(4):
        nm, fill = specs[s]
        if fill is not None and fill:
            extra = want[s] - len(nm)
            assert extra >= 0, f"test error: seat {s} named too many cards"
            hand_list[s] = srt(nm + take(extra, lambda c, f=fill: suit_of(c) in f))
        elif fill is not None:
            hand_list[s] = srt(nm)
    # 3. the earlier tricks: who played each pile card
    earlier = [list(p) for p in pl_named]
    placed = {c for p in pl_named for c in p}
    for team in (0, 1):
        for c in pile_named[team]:
            if c in placed:
                continue
            by = 1 - team if c in capt[team] else team
            seats = [s for s in range(4) if s & 1 == by and len(earlier[s]) < t]
            assert seats, "test error: too many pile cards for the tricks played"
            s = max(seats, key=lambda x: (t - len(earlier[x]), -x))
            earlier[s].append(c)
            placed.add(c)
    for c in reserved:
        s = max(range(4), key=lambda x: (t - len(earlier[x]), -x))
        assert len(earlier[s]) < t, "test error: more suits led than tricks"
        earlier[s].append(c)
    for s in range(4):
        assert len(earlier[s]) <= t, f"test error: seat {s} played too many cards"
        earlier[s] += take(t - len(earlier[s]))
    player = {c: s for s in range(4) for c in earlier[s]}
    for s, c in zip(trick_seats, trick):
        player[c] = s
    matto_team = TEAM[player["M"] & 1] if "M" in player else None
    size = [4 * tw[0], 4 * tw[1]]
    if matto_debt:
        assert "M" in [c for p in earlier for c in p], "test error: the Matto was not played"
        mt = TEAM.index(matto_team)
        size[mt] += 1
        size[1 - mt] -= 1
    pile_list = [list(pile_named[0]), list(pile_named[1])]
    all_earlier = [c for p in earlier for c in p]
    if "M" in all_earlier and "M" not in pile_list[0] + pile_list[1]:
        pile_list[TEAM.index(matto_team)].append("M")
    rest = [c for c in all_earlier if c not in pile_list[0] + pile_list[1]]
    for team in (0, 1):
        k = size[team] - len(pile_list[team])
        assert k >= 0, f"test error: pile {team} too big"
        rest.sort(key=lambda c: (player[c] & 1 != team, IDX[c]))   # own cards first
        pile_list[team] += rest[:k]
        rest = rest[k:]
    assert not rest
    # 4. the other hands
    for s in range(4):
        if hand_list[s] is None:
            hand_list[s] = srt(take(want[s]))
    assert not pool, f"test error: {len(pool)} cards left over: {pool}"

    played_list = [srt(earlier[s] + [c for seat, c in zip(trick_seats, trick) if seat == s])
                   for s in range(4)]
    excluded = [set() for _ in range(4)]
    for i, (s, c) in enumerate(zip(trick_seats, trick)):
        excluded[s] |= inferences(c, trick[:i], suits_led)
    for s in range(4):
        assert not excluded[s] & set(hand_list[s]), f"test error: seat {s}'s play was illegal"

    # the public cards of the deal
    robbed = set(cutter_robbed) | set(dealer_robbed)
    if r["expose_last_card"] == "all_players":
        if exposed is None:
            exposed = []
            for s in range(4):
                own = earlier[s] + hand_list[s] + disc[s]
                src = [c for c in own if value(c) == 0 and c not in robbed] or \
                      [c for c in own if c not in robbed]
                exposed.append(src[0])
    else:
        exposed = [None] * 4
    seen = None
    if r["cutter_rob"] == "auto" and len(cutter_robbed) < 13:
        discarded = {x for d in disc for x in d}
        seen = seen_bottom or [c for c in fola_list
                               if not eligible(c) and c not in discarded][0]

    if declared is None:
        declared = [[] for _ in range(4)]
    declared = [[srt(c) for c in x] for x in declared]
    if declared_done is None:
        declared_done = [phase != "discard" and started] * 4
    if bonus_claimed is None:
        bonus_claimed = [False] * 4

    # points: each source from the cards (MI-SCORE-1 events before the play, dying cards)
    points = {s: [0, 0] for s in SOURCES}
    Dk, rk = 0, [0, 0]
    pts = [0, 0]
    pts[cutter & 1] = total(cutter_robbed)
    points["cutter_rob"] = pts
    Dk, rk = event(Dk, rk, *pts)
    pts = [0, 0]
    for s in range(4):
        if exposed[s] is not None:
            pts[s & 1] += value(exposed[s])
    points["exposed"] = pts
    Dk, rk = event(Dk, rk, *pts)
    pts = [0, 0]
    pts[dealer & 1] = total(dealer_robbed)
    points["dealer_rob"] = pts
    Dk, rk = event(Dk, rk, *pts)
    for j in range(4):
        s = (dealer + 1 + j) % 4
        if declared_done[s]:
            v = sum(combo_value(c) for c in declared[s])
            if bonus_claimed[s]:
                v += 5 * sum(1 for c in declared[s]
                             if r["matto_bonus_on_matto_combo"] or "M" not in c)
            pts = [0, 0]
            pts[s & 1] = v
            points["declarations"][s & 1] += v
            Dk, rk = event(Dk, rk, *pts)
    points["dying"] = [sum(value(c) for c in pile_list[team]
                           if c != "M" and player[c] & 1 != team) for team in (0, 1)]
    diff = sum(a - b for a, b in points.values())
    if D is None:
        D, resti = event(Dk, rk, *points["dying"]) if resti is None else (None, resti)
        if D is None:
            D = diff - 60 * (resti[0] - resti[1])
    else:
        assert (diff - D) % 60 == 0, f"test error: the points give D = {diff} mod 60, not {D}"
        n = (diff - D) // 60
        if resti is None:
            resti = [max(n, 0), max(-n, 0)]
            lift = max(0, rk[0] - resti[0], rk[1] - resti[1])
            resti = [resti[0] + lift, resti[1] + lift]
        assert resti[0] - resti[1] == n, f"test error: resti {resti} do not give D = {D}"
    assert -60 < D < 60

    last_winner = leader if t > 0 else None
    if to_move == "auto":
        if phase == "play":
            to_move = (trick_seats[-1] + 1) % 4 if trick else leader
        elif phase == "discard":
            to_move = cutter if len(disc[cutter]) < len(cutter_robbed) else dealer
        elif phase == "declare" and trick:
            to_move = trick_seats[-1]
        else:
            to_move = None
    to_discard = 0
    if phase == "discard":
        to_discard = (len(cutter_robbed) - len(disc[cutter]) if to_move == cutter
                      else len(dealer_robbed) - len(disc[dealer]))
    fola_open = started and phase != "discard" and r["fola_visibility"] == "open"
    return {
        "game": "minchiate", "rules": dict(r), "mode": mode, "deal_number": deal_number,
        "phase": phase, "dealer": dealer, "cutter": cutter, "to_move": to_move,
        "hands": [srt(h) for h in hand_list], "cutter_robbed": srt(cutter_robbed),
        "seen_bottom": seen, "exposed": list(exposed), "dealer_robbed": srt(dealer_robbed),
        "discards": [srt(x) for x in disc], "to_discard": to_discard,
        "fola": srt(fola_list), "fola_open": bool(fola_open),
        "declared": declared, "declared_done": list(declared_done),
        "bonus_claimed": list(bonus_claimed), "leader": leader if started else None,
        "trick": [[s, c] for s, c in zip(trick_seats, trick)], "tricks_played": t,
        "tricks_won": tw, "played": played_list,
        "suits_led": [x for x in SUITS if x in suits_led],
        "excluded": [srt(e) for e in excluded], "piles": [srt(p) for p in pile_list],
        "matto_team": matto_team, "matto_debt": bool(matto_debt), "last_winner": last_winner,
        "points": points, "D": D, "resti": list(resti), "paid_card": None,
        "matto_given": False, "net": None, "net_total": net_total,
        "start_dealer": dealer if start_dealer is None else start_dealer,
        "rng": list(rng if rng is not None else RNG_WORDS),
    }


def last_trick_position(hands, *, leader, tricks_won, piles=None, **kw) -> dict:
    """A position before the 21st trick: one card in each hand."""
    assert sum(tricks_won) == 20
    return position([[c] if isinstance(c, str) else c for c in hands], leader=leader,
                    tricks_won=tricks_won, piles=piles, **kw)


def all_cards(d: dict) -> list[str]:
    """Every card of a position dict, once: hands, Fola, piles and the current trick."""
    out = [c for h in d["hands"] for c in h] + list(d["fola"])
    out += [c for p in d["piles"] for c in p] + [c for _, c in d["trick"]]
    return out


def end_scoring(piles, last_team: int, **options) -> dict:
    """MI-END-1..4 on the piles after the Matto settlement: per source [A, B]."""
    r = {**DEFAULTS, **options}
    out = {"pile": [total(p) for p in piles],
           "beyond_42": [max(0, len(p) - 42) for p in piles],
           "pile_combinations": [combos_points(
               p, with_matto="M" in p, decine_two=r["decine_four"] == "two_triples",
               bonus_on_matto_combo=r["matto_bonus_on_matto_combo"]) for p in piles],
           "last_trick": [10 * (last_team == 0), 10 * (last_team == 1)]}
    return out


def random_playout(state, r: random.Random, *, on_step=None):
    """Play to the end with uniformly random legal actions."""
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        a = r.choice(legal)
        before = state.to_dict() if on_step else None
        state.apply_action(a)
        if on_step:
            on_step(before, a, state)
        steps += 1
        assert steps < 300
    return state


def spread(named, *, closed=(), sizes=(21, 21, 21, 21)) -> list[list[str]]:
    """Whole hands from the cards named per seat: the seats of ``closed`` get no other
    eligible card; the other eligible cards (counting cards and trumps above 20) go round the
    other seats one at a time in index order (so no run or other combination forms among them
    unless named), then cards worth 0 fill the hands; 13 cards worth 0 are left for the Fola."""
    hands = [cards(x) for x in named]
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "test error: a card named twice"
    open_seats = [s for s in range(4) if s not in closed]
    i = 0
    for c in [c for c in ALL97 if eligible(c) and c not in used]:
        for _ in range(4):
            s = open_seats[i % len(open_seats)]
            i += 1
            if len(hands[s]) < sizes[s]:
                hands[s].append(c)
                break
        else:
            raise AssertionError("test error: no room for the eligible cards")
    zeros = sorted((c for c in ALL97 if not eligible(c) and c not in used),
                   key=lambda c: (suit_of(c) == "T", IDX[c]))
    for s in range(4):
        k = sizes[s] - len(hands[s])
        hands[s] += zeros[:k]
        del zeros[:k]
    return [srt(h) for h in hands]


def declare_position(named, *, to_move=1, closed=None, declared=None, declared_done=None,
                     bonus_claimed=None, **kw) -> dict:
    """A declaration-phase position (before the first lead, dealer 0): hands spread from the
    named cards (a seat with named cards gets no other eligible card); seats before
    ``to_move`` (from seat 1) are done."""
    if closed is None:
        closed = [s for s in range(4) if cards(named[s])]
    hands = spread(named, closed=closed)
    if declared_done is None:
        order = [1, 2, 3, 0]
        declared_done = [order.index(s) < order.index(to_move) for s in range(4)]
    return position(hands, phase="declare", to_move=to_move, declared=declared,
                    declared_done=declared_done, bonus_claimed=bonus_claimed, **kw)


# =============================================================================================
# 2.1 Dealer, shuffle, cut and the cutter's robbing
# =============================================================================================

SEEDS = range(40)


def test_mi_deal_1_dealer_at_random_and_uniform_shuffle_from_the_seed():
    """MI-DEAL-1: the dealer is drawn at random (``below(4)`` of the deal's stream) and the pack
    shuffled: each seed deals exactly the engine's cards; every seat deals for some seed; the
    same seed deals the same cards, different seeds different ones."""
    g = game()
    dealers = []
    for seed in SEEDS:
        d = g.new_deal(seed).to_dict()
        exp = oracle(seed)
        assert d["dealer"] == exp["dealer"], seed
        assert d["hands"] == exp["hands"], seed
        assert d["fola"] == exp["fola"], seed
        assert d["mode"] == "deal" and d["deal_number"] == 1
        assert d["start_dealer"] == exp["dealer"]
        dealers.append(d["dealer"])
    assert set(dealers) == {0, 1, 2, 3}
    assert g.new_deal(5).to_dict() == g.new_deal(5).to_dict()
    assert g.new_deal(5).to_dict()["hands"] != g.new_deal(6).to_dict()["hands"]


def test_mi_cut_1_cutter_robs_eligible_cards_from_the_bottom():
    """MI-CUT-1: the cutter is the dealer's left (d+3); he robs the bottom cards while they are
    counting cards or trumps above 20, and stops at the first other card, which is seen
    (public) and stays in the Fola."""
    ks = []
    for seed in SEEDS:
        d = game().new_deal(seed).to_dict()
        exp = oracle(seed)
        assert d["cutter"] == (exp["dealer"] + 3) % 4
        robbed = exp["order"][::-1][:len(exp["cutter_robbed"])]
        assert all(eligible(c) for c in robbed)
        assert srt(d["cutter_robbed"]) == srt(robbed), seed
        k = len(robbed)
        ks.append(k)
        if k < 13:
            bottom = exp["order"][96 - k]
            assert not eligible(bottom)
            assert d["seen_bottom"] == bottom, seed
            assert bottom in d["fola"]
    assert 0 in ks and max(ks) >= 2


def test_mi_cut_1_option_cutter_rob_off():
    """MI-CUT-1, option cutter_rob=off: nobody robs the pack; the Fola is the 13 undealt
    cards less the dealer's robbing, no card is seen, no cutter points."""
    for seed in range(12):
        d = game(cutter_rob="off").new_deal(seed).to_dict()
        exp = oracle(seed, cutter_rob="off")
        assert d["cutter_robbed"] == [] and d["seen_bottom"] is None
        assert d["points"]["cutter_rob"] == [0, 0]
        assert d["hands"] == exp["hands"] and d["fola"] == exp["fola"]
        assert srt(d["fola"] + d["dealer_robbed"]) == srt(exp["order"][84:])


def test_mi_cut_2_robbed_cards_join_the_hand_and_score_at_once():
    """MI-CUT-2: the robbed cards join the cutter's hand (21 + k cards) and his team scores
    their values at once; the three events before the play give the engine's D and resti."""
    seen = False
    for seed in SEEDS:
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        cutter = exp["cutter"]
        k = len(exp["cutter_robbed"])
        assert set(exp["cutter_robbed"]) <= set(d["hands"][cutter])
        assert len(d["hands"][cutter]) == 21 + k + (len(exp["dealer_robbed"])
                                                    if cutter == exp["dealer"] else 0)
        pts = [0, 0]
        pts[cutter & 1] = total(exp["cutter_robbed"])
        assert d["points"]["cutter_rob"] == pts
        assert d["D"] == exp["D"] and d["resti"] == exp["resti"], seed
        seen = seen or pts[cutter & 1] > 0
    assert seen


def test_mi_cut_3_at_most_13_robbed_and_84_cards_dealt():
    """MI-CUT-3: k <= 13, and 97 - k >= 84 cards remain: 21 dealt to each seat (84), the Fola
    13 - k before the dealer's robbing; every card once."""
    for seed in range(60):
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        k = len(d["cutter_robbed"])
        assert k <= 13 and 97 - k >= 84
        m = len(d["dealer_robbed"])
        sizes = [21] * 4
        sizes[exp["cutter"]] += k
        sizes[exp["dealer"]] += m
        assert [len(h) for h in d["hands"]] == sizes
        assert len(d["fola"]) == 13 - k - m
        assert sorted(all_cards(d), key=IDX.__getitem__) == ALL97


# =============================================================================================
# 2.2 Deal and exposed cards
# =============================================================================================

def test_mi_deal_2_packets_of_10_then_11_from_the_dealers_right():
    """MI-DEAL-2: from the top, 10 cards to d+1, d+2, d+3, d, then 11 to each in the same
    order: seat d+1+j gets cards 10j..10j+9 and 40+11j..40+11j+10 of the pack."""
    for seed in SEEDS:
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        order = exp["order"]
        for j in range(4):
            seat = (exp["dealer"] + 1 + j) % 4
            dealt = order[10 * j:10 * j + 10] + order[40 + 11 * j:51 + 11 * j]
            extra = []
            if seat == exp["cutter"]:
                extra += exp["cutter_robbed"]
            if seat == exp["dealer"]:
                extra += exp["dealer_robbed"]
            assert d["hands"][seat] == srt(dealt + extra), (seed, seat)


def test_mi_deal_3_each_21st_card_is_exposed_and_scored():
    """MI-DEAL-3: each seat's 21st card (the last of its 11-card packet) is public, and its
    value is scored for the holder's team (one event for the four)."""
    scored = False
    for seed in SEEDS:
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        pts = [0, 0]
        for j in range(4):
            seat = (exp["dealer"] + 1 + j) % 4
            card = exp["order"][40 + 11 * j + 10]
            assert d["exposed"][seat] == card
            assert card in d["hands"][seat]
            pts[seat & 1] += value(card)
        assert d["points"]["exposed"] == pts
        scored = scored or pts != [0, 0]
    assert scored


def test_mi_deal_3_option_expose_last_card_none():
    """MI-DEAL-3, option expose_last_card=none: no card is exposed, nothing scored for them."""
    for seed in range(12):
        d = game(expose_last_card="none").new_deal(seed).to_dict()
        exp = oracle(seed, expose_last_card="none")
        assert d["exposed"] == [None] * 4
        assert d["points"]["exposed"] == [0, 0]
        assert d["hands"] == exp["hands"] and d["D"] == exp["D"]


def test_mi_deal_4_the_undealt_cards_are_the_fola():
    """MI-DEAL-4: the 13 - k undealt cards (pack positions 84..96-k) are the Fola (less what the
    dealer robs from it), in no hand."""
    for seed in SEEDS:
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        k = len(exp["cutter_robbed"])
        undealt = exp["order"][84:97 - k]
        assert len(undealt) == 13 - k
        assert srt(d["fola"] + d["dealer_robbed"]) == srt(undealt)
        assert not set(d["fola"]) & {c for h in d["hands"] for c in h}


# =============================================================================================
# 2.3 Dealer's robbing and the discards
# =============================================================================================

def test_mi_rob_1_dealer_robs_every_eligible_fola_card():
    """MI-ROB-1: the dealer takes every Fola card that is a counting card or a trump above 20
    (public), his team scores their values at once; no eligible card stays in the Fola."""
    robbed_some = False
    for seed in SEEDS:
        exp = oracle(seed)
        d = game().new_deal(seed).to_dict()
        k = len(exp["cutter_robbed"])
        want = [c for c in exp["order"][84:97 - k] if eligible(c)]
        assert srt(d["dealer_robbed"]) == srt(want)
        assert set(want) <= set(d["hands"][exp["dealer"]])
        assert not any(eligible(c) for c in d["fola"])
        pts = [0, 0]
        pts[exp["dealer"] & 1] = total(want)
        assert d["points"]["dealer_rob"] == pts
        robbed_some = robbed_some or bool(want)
    assert robbed_some


def test_mi_rob_1_option_dealer_rob_off():
    """MI-ROB-1, option dealer_rob=off: the dealer takes nothing; the Fola keeps its eligible
    cards; only the cutter discards."""
    seed = find_seed(lambda e: any(eligible(c) for c in e["undealt"]))
    exp = oracle(seed, dealer_rob="off")
    s = game(dealer_rob="off").new_deal(seed)
    d = s.to_dict()
    assert d["dealer_robbed"] == [] and d["points"]["dealer_rob"] == [0, 0]
    assert d["fola"] == srt(exp["undealt"]) and any(eligible(c) for c in d["fola"])
    assert len(d["hands"][exp["dealer"]]) == 21 + (len(exp["cutter_robbed"])
                                                   if exp["cutter"] == exp["dealer"] else 0)
    while s.to_dict()["phase"] == "discard":
        assert s.current_player() == exp["cutter"]
        s.apply_action(s.legal_actions()[0])
    d = s.to_dict()
    assert d["phase"] == "declare" and d["discards"][exp["dealer"]] == []


def _discardable(hand, trumps=True):
    return [c for c in hand if value(c) == 0 and c != "T29" and (trumps or suit_of(c) != "T")]


def test_mi_disc_1_cutter_then_dealer_discard_back_to_21():
    """MI-DISC-1: the cutter discards as many cards as he robbed, one at a time, then the
    dealer as many as he robbed; each discard goes to the Fola (13 cards after), both hands
    are back to 21; then the declarations start at d+1."""
    seed = find_seed(lambda e: len(e["cutter_robbed"]) >= 1 and len(e["dealer_robbed"]) >= 1)
    exp = oracle(seed)
    s = game().new_deal(seed)
    cutter, dealer = exp["cutter"], exp["dealer"]
    k, m = len(exp["cutter_robbed"]), len(exp["dealer_robbed"])
    out = {cutter: [], dealer: []}
    for seat, n in ((cutter, k), (dealer, m)):
        for i in range(n):
            d = s.to_dict()
            assert d["phase"] == "discard" and d["to_move"] == seat == s.current_player()
            assert d["to_discard"] == n - i
            hand = d["hands"][seat]
            assert_legal(s, *discards_of(*_discardable(hand)))
            c = _discardable(hand)[-1]
            play(s, "discard " + c)
            out[seat].append(c)
            d = s.to_dict()
            assert c not in d["hands"][seat] and c in d["fola"] and c in d["discards"][seat]
    d = s.to_dict()
    assert d["phase"] == "declare" and d["to_move"] == (dealer + 1) % 4
    assert [len(h) for h in d["hands"]] == [21] * 4
    assert d["fola"] == srt(exp["fola"] + out[cutter] + out[dealer]) and len(d["fola"]) == 13
    assert d["discards"][cutter] == srt(out[cutter])
    assert d["discards"][dealer] == srt(out[dealer])


CUTTER_HAND = ("T29 T24 Kco "                                     # robbed
               "M T1 T2 T36 Kcu T7 T8 T21 T22 Aco 2co 3co Fco 6cu Ccu 2sw 3sw 4sw 5ba 6ba 7ba")


def test_mi_disc_2_only_zero_value_cards_never_T29():
    """MI-DISC-2: the cutter (robbed T29 T24 Kco) may discard any card worth 0 — zero trumps
    and the robbed T24 included — but not T29, the Matto, Kings or Papi."""
    pos = position([None, None, None, CUTTER_HAND], phase="discard",
                   cutter_robbed="T29 T24 Kco")
    s = load(pos)
    assert s.current_player() == 3 and s.to_dict()["to_discard"] == 3
    assert_legal(s, *discards_of("T7", "T8", "T21", "T22", "T24", "Aco", "2co", "3co", "Fco",
                                 "6cu", "Ccu", "2sw", "3sw", "4sw", "5ba", "6ba", "7ba"))
    for bad in ("T29", "M", "T1", "T2", "T36", "Kcu", "Kco"):
        assert_illegal(s, "discard " + bad)


def test_mi_disc_2_option_discard_trumps_false():
    """MI-DISC-2, option discard_trumps=false: only suit cards worth 0 may be discarded."""
    pos = position([None, None, None, CUTTER_HAND], phase="discard",
                   cutter_robbed="T29 T24 Kco", discard_trumps=False)
    s = load(pos)
    assert_legal(s, *discards_of("Aco", "2co", "3co", "Fco", "6cu", "Ccu", "2sw", "3sw", "4sw",
                                 "5ba", "6ba", "7ba"))
    assert_illegal(s, "discard T7")


def test_mi_disc_2_discard_trumps_false_falls_back_to_zero_trumps():
    """MI-DISC-2/-3 with discard_trumps=false: with one zero suit card and three to discard,
    the cutter discards it, then (discard class 1) zero trumps other than T29."""
    hand = ("T21 T22 T23 2co T6 T7 T1 T2 T3 T4 T5 T10 T13 T20 T28 T29 "
            "T30 T31 T32 T33 T34 T35 M Kco")
    pos = position([None, None, None, hand], phase="discard", cutter_robbed="T21 T22 T23",
                   discard_trumps=False)
    s = load(pos)
    assert_legal(s, "discard 2co")
    play(s, "discard 2co")
    assert_legal(s, *discards_of("T6", "T7", "T21", "T22", "T23"))
    play(s, "discard T21", "discard T6")
    d = s.to_dict()
    assert d["discards"][3] == ["T6", "T21", "2co"] and d["phase"] == "declare"


def test_mi_disc_3_too_few_zero_cards_then_T29_then_3_point_cards():
    """MI-DISC-3: the cutter robbed 13 cards (T30..T40, M, Kco: B +90 -> 1 resto, D -30) and
    holds only 8 cards worth 0: he discards those 8, then T29, then four 3-point cards
    (T2..T5), never a 5- or 10-point card while a cheaper one is left."""
    robbed = "T30 T31 T32 T33 T34 T35 T36 T37 T38 T39 T40 M Kco"
    zeros = "2co 3co 4co 5co 6co 7co 8co 9co"
    hand = robbed + " T1 T2 T3 T4 T5 T10 T13 T20 T28 T29 Kcu Ksw Kba " + zeros
    pos = position([None, None, None, hand], phase="discard", cutter_robbed=robbed)
    assert pos["seen_bottom"] is None and pos["fola"] == []
    assert pos["points"]["cutter_rob"] == [0, 90] and pos["resti"] == [0, 1]
    assert pos["D"] == -30
    s = load(pos)
    for i, c in enumerate(cards(zeros)):
        assert s.to_dict()["to_discard"] == 13 - i
        assert_legal(s, *discards_of(*cards(zeros)[i:]))
        play(s, "discard " + c)
    assert_legal(s, "discard T29")
    play(s, "discard T29")
    assert_legal(s, *discards_of("T2", "T3", "T4", "T5"))
    play(s, "discard T5", "discard T3", "discard T2", "discard T4")
    d = s.to_dict()
    assert d["phase"] == "declare" and d["to_move"] == 1
    assert d["discards"][3] == srt(zeros + " T29 T2 T3 T4 T5")
    assert d["fola"] == d["discards"][3] and len(d["fola"]) == 13
    assert d["hands"][3] == srt(robbed + " T1 T10 T13 T20 T28 Kcu Ksw Kba")


# =============================================================================================
# 2.4 Declarations; 2.5 the Fola is opened
# =============================================================================================

DECL_HAND = "T1 T2 T3 T4 T13 T28 T29 T30 T40 M Kco Kcu Ksw Kba"
RUN_1_4 = ("T1", "T2", "T3", "T4")
RUN_28_30 = ("T28", "T29", "T30")
MATTO_1_40 = ("T1", "T40", "M")
PAPI = ("T1", "T13", "T28")
KINGS4 = tuple(KINGS)


def test_mi_decl_1_every_seat_in_turn_from_d_plus_1_then_the_fola_opens():
    """MI-DECL-1 / MI-FOLA-1: after the discards the seats declare in playing order from the
    dealer's right (1, 2, 3, 0), each getting a turn even with nothing to declare (only
    "done"); then the Fola (13 cards) is opened and seat 1 leads."""
    s = load(declare_position([[], DECL_HAND, [], []]))
    assert combos_of(s.to_dict()["hands"][2]) == []
    order = []
    while s.to_dict()["phase"] == "declare":
        seat = s.current_player()
        order.append(seat)
        hand = s.to_dict()["hands"][seat]
        cs = combos_of(hand)
        assert_legal(s, *[declare(c) for c in cs], "done")
        assert s.to_dict()["fola_open"] is False
        play(s, "done")
    assert order == [1, 2, 3, 0]
    d = s.to_dict()
    assert d["phase"] == "play" and d["to_move"] == 1 and d["leader"] == 1
    assert d["fola_open"] is True and len(d["fola"]) == 13
    assert d["declared_done"] == [True] * 4 and d["declared"] == [[], [], [], []]
    assert d["points"]["declarations"] == [0, 0]


def test_mi_decl_2_choice_per_combination_in_ascending_order():
    """MI-DECL-2: each combination (a run always maximal) may be declared or not; after
    declaring one only later ones (ascending id) are offered; "done bonus" only for a holder
    of the Matto who declared a combination the bonus applies to; declared cards are shown."""
    s = load(declare_position([[], DECL_HAND, [], []]))
    assert combos_of(DECL_HAND) == [RUN_1_4, RUN_28_30, MATTO_1_40, PAPI, KINGS4]
    assert_legal(s, declare(RUN_1_4), declare(RUN_28_30), declare(MATTO_1_40),
                 declare(PAPI), declare(KINGS4), "done")
    for part in (("T1", "T2", "T3"), ("T2", "T3", "T4"), ("T28", "T29")):
        if part in COMBO_ID:
            assert action_id(declare(part)) not in s.legal_actions()
        with pytest.raises(CardsimError):
            s.action_from_dict({"declare": list(part)})
    play(s, declare(RUN_28_30))
    d = s.to_dict()
    assert d["declared"][1] == [list(RUN_28_30)] and d["to_move"] == 1
    assert d["points"]["declarations"] == [0, 0]          # scored only with "done"
    assert_legal(s, declare(MATTO_1_40), declare(PAPI), declare(KINGS4), "done", "done bonus")
    play(s, declare(MATTO_1_40))
    assert_legal(s, declare(PAPI), declare(KINGS4), "done", "done bonus")
    play(s, "done")
    d = s.to_dict()
    assert d["declared"][1] == [list(RUN_28_30), list(MATTO_1_40)]
    assert d["bonus_claimed"][1] is False and d["to_move"] == 2
    # 28-29-30 = 15 (T29 counts 5), M-1-40 = 20: B +35
    assert d["points"]["declarations"] == [0, 35] and d["D"] == -35


def test_mi_decl_2_bonus_needs_an_eligible_declared_combination():
    """MI-DECL-2 / MI-COMB-4: having declared only Matto-1-40 (which gets no bonus), "done
    bonus" is not offered; without the Matto it never is."""
    s = load(declare_position([[], DECL_HAND, [], []]))
    play(s, declare(MATTO_1_40))
    assert_legal(s, declare(PAPI), declare(KINGS4), "done")
    s = load(declare_position([[], "T1 T2 T3 Kco Kcu Ksw", [], []]))
    play(s, declare(("T1", "T2", "T3")))
    assert_legal(s, declare(("Kco", "Kcu", "Ksw")), "done")


def test_mi_decl_3_declaration_scored_once_per_player_with_bonus():
    """MI-DECL-3: seat 1 declares 1-2-3-4 (14), 28-29-30 (15) and four Kings (20) and claims
    the bonus (+5 each, 15): one event, B +64 -> 1 resto for B, D = -4; the Matto is shown."""
    s = load(declare_position([[], DECL_HAND, [], []]))
    play(s, declare(RUN_1_4), declare(RUN_28_30), declare(KINGS4))
    assert s.to_dict()["resti"] == [0, 0]
    play(s, "done bonus")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 64]
    assert d["resti"] == [0, 1] and d["D"] == -4
    assert d["bonus_claimed"][1] is True and d["declared_done"][1] is True


def test_mi_decl_3_each_player_is_its_own_event():
    """MI-DECL-3 / MI-SCORE-1: seat 1 (B) declares 28..40 (90): B gains 1 resto at once
    (D -30); then seat 2 (A) declares three Kings (15): D -15, no resto back."""
    high = " ".join(f"T{n}" for n in range(28, 41))
    s = load(declare_position([[], high, "Kco Kcu Ksw", []]))
    play(s, declare(tuple(f"T{n}" for n in range(28, 41))), "done")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 90] and d["resti"] == [0, 1] and d["D"] == -30
    play(s, declare(("Kco", "Kcu", "Ksw")), "done")
    d = s.to_dict()
    assert d["points"]["declarations"] == [15, 90] and d["resti"] == [0, 1] and d["D"] == -15


def test_mi_decl_2_option_declaration_mode_all():
    """MI-DECL-2, option declaration_mode=all: no declaration turns; after the last discard
    every seat declares every combination it holds, claiming the bonus when it can: seat 1
    (1-2-3 and the Matto: 11 + 5) B +16, seat 2 (three Kings) A +15."""
    hands = spread([[], "T1 T2 T3 M T21", "Kco Kcu Ksw T10 T20", "T22"], closed=(1, 2),
                   sizes=(21, 21, 21, 22))
    pos = position(hands, phase="discard", cutter_robbed="T22", declaration_mode="all")
    s = load(pos)
    assert s.current_player() == 3
    hand3 = s.to_dict()["hands"][3]
    assert combos_of(hand3) == [] and combos_of(s.to_dict()["hands"][0]) == []
    play(s, "discard " + _discardable(hand3)[0])
    d = s.to_dict()
    assert d["phase"] == "play" and d["to_move"] == 1
    assert d["declared"] == [[], [["T1", "T2", "T3"]], [["Kco", "Kcu", "Ksw"]], []]
    assert d["bonus_claimed"] == [False, True, False, False]
    assert d["points"]["declarations"] == [15, 16] and d["D"] == -1


def test_mi_decl_1_option_declaration_timing_after_own_first_card():
    """MI-DECL-1, option declaration_timing=after_own_first_card: play starts at once; right
    after a seat plays its first card it declares from its hand plus that card; a seat with
    nothing only says done."""
    hands = spread([[], "T1 T2 T3 T7", [], []], closed=(1,))
    pos = position(hands, declaration_timing="after_own_first_card",
                   declared_done=[False] * 4)
    s = load(pos)
    assert s.to_dict()["phase"] == "play" and s.current_player() == 1
    play(s, "play T3")
    d = s.to_dict()
    assert d["phase"] == "declare" and d["to_move"] == 1
    assert_legal(s, declare(("T1", "T2", "T3")), "done")
    play(s, declare(("T1", "T2", "T3")), "done")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 11]
    assert d["phase"] == "play" and d["to_move"] == 2
    hand2 = d["hands"][2]
    assert combos_of(hand2) == []
    c = sorted(hand2, key=IDX.__getitem__)[0]
    assert suit_of(c) == "T"       # seat 2 must trump-follow: it holds trumps
    play(s, "play " + c)
    assert s.to_dict()["phase"] == "declare" and s.current_player() == 2
    assert_legal(s, "done")
    play(s, "done")
    assert s.to_dict()["phase"] == "play" and s.current_player() == 3


def test_mi_fola_1_fola_opened_and_never_in_tricks():
    """MI-FOLA-1: after the declarations the Fola — what the dealer left plus every discard,
    13 cards — is face up; its cards never take part in tricks: at the end they are in no
    pile and the piles hold the other 84 cards."""
    seed = find_seed(lambda e: len(e["cutter_robbed"]) >= 1 and len(e["dealer_robbed"]) >= 1)
    s = game().new_deal(seed)
    r = random.Random(1)
    while s.to_dict()["phase"] != "play":
        s.apply_action(r.choice(s.legal_actions()))
    d = s.to_dict()
    fola = d["fola"]
    assert d["fola_open"] is True and len(fola) == 13
    assert set(d["discards"][d["cutter"]] + d["discards"][d["dealer"]]) <= set(fola)
    random_playout(s, r)
    d = s.to_dict()
    assert d["fola"] == fola
    assert not set(fola) & {c for p in d["piles"] for c in p}
    assert sorted(fola + [c for p in d["piles"] for c in p], key=IDX.__getitem__) == ALL97


@pytest.mark.parametrize("mode", ["suit_counts", "hidden"])
def test_mi_fola_1_option_fola_visibility_does_not_change_play(mode):
    """MI-FOLA-1, option fola_visibility: only what is seen changes; the same actions give the
    same deal, points and returns as with the open Fola (which stays face down)."""
    for seed in (3, 4):
        runs = []
        for vis in ("open", mode):
            s = game(fola_visibility=vis).new_deal(seed)
            r = random.Random(seed)
            seq = []
            while not s.is_terminal():
                legal = s.legal_actions()
                a = r.choice(legal)
                seq.append((legal, a))
                s.apply_action(a)
            d = s.to_dict()
            runs.append((seq, d, s.returns()))
        (seq_o, d_o, ret_o), (seq_m, d_m, ret_m) = runs
        assert seq_o == seq_m and ret_o == ret_m
        assert d_m["fola_open"] is False and d_o["fola_open"] is True
        for key in ("hands", "piles", "points", "D", "resti", "net", "fola", "tricks_won"):
            assert d_o[key] == d_m[key], key


# =============================================================================================
# 2.6 Play of the tricks
# =============================================================================================

ALL_LED = ("co", "cu", "sw", "ba")


def trick_position(leader, trick, next_hand, *, tricks_won=(8, 8), suits_led=ALL_LED,
                   **kw) -> dict:
    """A position in the middle of a trick: the seats that played hold only cards of the
    suits their plays left possible (so each play was legal); ``next_hand`` is the hand of
    the seat to move (a string: the whole hand, or an ``H`` spec)."""
    trick = cards(trick)
    hands = [None] * 4
    for i, c in enumerate(trick):
        seat = (leader + i) % 4
        gone = inferences(c, trick[:i], suits_led)
        fill = [x for x in ("co", "cu", "sw", "ba", "T")
                if not any(suit_of(g) == x for g in gone)]
        hands[seat] = H("", " ".join(fill))
    hands[(leader + len(trick)) % 4] = next_hand
    return position(hands, leader=leader, trick=trick, tricks_won=tricks_won,
                    suits_led=suits_led, **kw)


def test_mi_play_1_21_tricks_first_led_by_d_plus_1_winner_leads():
    """MI-PLAY-1: a whole deal has 21 tricks; the dealer's right leads the first; each trick's
    winner (MI-PLAY-5, restated) leads the next and his team's trick count grows."""
    for seed in (0, 1, 2):
        s = game().new_deal(seed)
        r = random.Random(seed)
        while s.to_dict()["phase"] != "play":
            s.apply_action(r.choice(s.legal_actions()))
        d = s.to_dict()
        assert d["leader"] == (d["dealer"] + 1) % 4 == s.current_player()
        tricks = []

        def check(before, a, state):
            if before["phase"] != "play" or len(before["trick"]) != 3:
                return
            seat = before["to_move"]
            trick = before["trick"] + [[seat, ALL97[a]]]
            w = trick_winner(trick)
            after = state.to_dict()
            tricks.append(w)
            assert after["tricks_played"] == before["tricks_played"] + 1
            assert after["last_winner"] == w
            won = list(before["tricks_won"])
            won[w & 1] += 1
            assert after["tricks_won"] == won
            if after["phase"] == "play":
                assert after["leader"] == w and after["trick"] == []
                assert state.current_player() == w

        random_playout(s, r, on_step=check)
        d = s.to_dict()
        assert len(tricks) == 21 == d["tricks_played"] == sum(d["tricks_won"])
        assert d["hands"] == [[], [], [], []]


def test_mi_play_2_matto_led_second_card_fixes_the_suit():
    """MI-PLAY-2 (and MI-MATTO-1): seat 2 leads the Matto; seat 3 may play any card; his 4sw
    fixes swords: seat 0 must follow swords, seat 1 (no swords) must trump. Seat 1's T9
    wins for B; the Matto goes to A's pile, and A owes B a card."""
    pos = position([H("9sw Qsw T8 3co 5cu", "co"), H("T7 T9 3cu 4cu 6ba", "cu"), H("", "co"),
                    "4sw Kco T5 7cu 2ba"], leader=2, trick=["M"], tricks_won=(8, 8))
    s = load(pos)
    assert s.current_player() == 3
    assert_legal(s, *plays("4sw", "Kco", "T5", "7cu", "2ba"))
    play(s, "play 4sw")
    assert_legal(s, *plays("9sw", "Qsw"))
    play(s, "play 9sw")
    assert_legal(s, *plays("T7", "T9"))
    before = s.to_dict()
    play(s, "play T9")
    d = s.to_dict()
    assert d["last_winner"] == 1 and d["leader"] == 1 and d["tricks_won"] == [8, 9]
    assert d["piles"][0] == srt(before["piles"][0] + ["M"])
    assert d["piles"][1] == srt(before["piles"][1] + ["4sw", "9sw", "T9"])
    assert d["matto_team"] == "A" and d["matto_debt"] is True
    assert d["suits_led"] == ["sw"]


@pytest.mark.parametrize("leader,trick,hand,legal", [
    # follow the led suit (any card of it; no need to beat it), the Matto also legal
    (0, ["Cba"], "5ba 9ba T3 Kco M", ["5ba", "9ba", "M"]),
    # no batons: a trump, any trump (no duty to overtrump T31)
    (0, ["Cba", "T31"], "T2 T30 Kco 4co 7sw", ["T2", "T30"]),
    # neither batons nor trumps: any card
    (0, ["Cba"], "Kco 4co 7sw 2cu M", ["Kco", "4co", "7sw", "2cu", "M"]),
    # trumps led count as a suit: follow with a trump
    (0, ["T10"], "T3 T25 Kco 4co 7sw", ["T3", "T25"]),
    # trumps led, none held: any card
    (0, ["T10"], "Kco 4co 7sw 2cu 3cu", ["Kco", "4co", "7sw", "2cu", "3cu"]),
])
def test_mi_play_3_follow_suit_else_trump_else_any(leader, trick, hand, legal):
    """MI-PLAY-3: follow the led suit (trumps are a suit) if possible, else play a trump if
    possible, else any card; there is no duty to win or to overtrump."""
    s = load(trick_position(leader, trick, hand))
    assert_legal(s, *plays(*legal))
    for c in cards(hand):
        if c not in legal:
            assert_illegal(s, "play " + c)


@pytest.mark.parametrize("trick,hand,legal", [
    (["Cba"], "5ba T3 Kco M 2cu", ["5ba", "M"]),
    (["Cba"], "T2 T30 Kco 4co M", ["T2", "T30", "M"]),
    (["T10"], "T3 Kco 4co M 2cu", ["T3", "M"]),
    (["Cba", "T31", "T33"], "3ba Kco 4co M 2cu", ["3ba", "M"]),
])
def test_mi_play_4_matto_may_excuse_any_play(trick, hand, legal):
    """MI-PLAY-4: the Matto may be played instead of the card MI-PLAY-3 requires, at any turn
    (the King rule aside)."""
    s = load(trick_position(0, trick, hand))
    assert_legal(s, *plays(*legal))


def test_mi_play_4_matto_may_be_led():
    """MI-PLAY-2/-4: the leader may lead any card, the Matto included."""
    s = load(position([None, "M 3co T4 Kba 7sw", None, None], leader=1, tricks_won=(8, 8)))
    assert_legal(s, *plays("M", "3co", "T4", "Kba", "7sw"))


@pytest.mark.parametrize("leader,trick,winner", [
    (1, ["3ba", "10ba", "Aba", "7ba"], 2),          # batons: 10 highest pip, ace lowest
    (1, ["5cu", "10cu", "Acu", "2cu"], 3),          # cups: ace highest pip, ten lowest
    (1, ["2cu", "Kba", "3cu", "4cu"], 1),           # 2 beats 3 and 4 in cups; Kba off-suit
    (1, ["3cu", "Fcu", "Acu", "9cu"], 2),           # a court beats every pip
    (1, ["Fsw", "Qsw", "Csw", "Ksw"], 0),           # K > Q > C > F
    (1, ["Kco", "2co", "T1", "3co"], 3),            # the lowest trump beats the led suit
    (1, ["4sw", "T12", "T13", "T11"], 3),           # the highest trump
    (1, ["M", "5sw", "3sw", "2sw"], 2),             # the Matto never wins
    (1, ["T2", "T3", "T40", "M"], 3),               # ... not even last
])
def test_mi_play_5_trick_winner(leader, trick, winner):
    """MI-PLAY-5: the highest trump wins, else the highest card of the led suit by §1.2
    (courts K Q C F over pips; swords and batons 10 high, coins and cups ace high); the Matto
    never wins; the winner's team takes the cards (the Matto goes to its own team)."""
    pos = trick_position(leader, trick[:3], H(trick[3], "co"), suits_led=ALL_LED)
    s = load(pos)
    before = s.to_dict()
    play_cards(s, trick[3])
    d = s.to_dict()
    assert d["last_winner"] == winner and d["leader"] == winner
    team = winner & 1
    won = list(before["tricks_won"])
    won[team] += 1
    assert d["tricks_won"] == won
    seats = [(leader + i) % 4 for i in range(4)]
    gained = [c for c in trick if c != "M"]
    assert d["piles"][team] == srt(before["piles"][team] + gained)
    if "M" in trick:
        mteam = seats[trick.index("M")] & 1
        assert "M" in d["piles"][mteam]
        assert d["matto_debt"] is (mteam != team)


def test_mi_king_1_king_must_be_played_after_a_trump():
    """MI-KING-1: trick 13 is the first led in cups: seat 1 leads 5cu, seat 2 trumps with T12;
    seat 3 holding Kcu 8cu M may play only Kcu (not 8cu, not the Matto); seat 0, without the
    King, plays under MI-PLAY-3/4 (Qcu, 2cu or M)."""
    pos = position([H("Qcu 2cu", "co sw ba"), H("", "co sw ba"), H("", "co sw ba T"),
                    H("Kcu 8cu M", "co sw ba")], leader=1, trick=["5cu", "T12"],
                   tricks_won=(6, 6), suits_led=("co", "sw", "ba"))
    s = load(pos)
    assert s.current_player() == 3
    assert_legal(s, "play Kcu")
    assert_illegal(s, "play 8cu")
    assert_illegal(s, "play M")
    play(s, "play Kcu")
    hand0 = s.to_dict()["hands"][0]
    assert_legal(s, *plays(*[c for c in hand0 if suit_of(c) == "cu"]))
    play(s, "play 2cu")
    d = s.to_dict()
    assert d["last_winner"] == 2 and "cu" in d["suits_led"]
    assert "Kcu" in d["piles"][0]


def test_mi_king_1_no_trump_in_the_trick_no_king_duty():
    """MI-KING-1: had seat 2 followed with a cup, seat 3 could play Kcu, 8cu or the Matto."""
    pos = position([None, H("", "co sw ba"), H("", "co cu sw ba"), H("Kcu 8cu M", "co sw ba")],
                   leader=1, trick=["5cu", "9cu"], tricks_won=(6, 6),
                   suits_led=("co", "sw", "ba"))
    s = load(pos)
    assert_legal(s, *plays("Kcu", "8cu", "M"))


def test_mi_king_1_king_duty_when_the_matto_was_led():
    """MI-KING-1 / MI-KING-2: a trick led with the Matto is led in the suit of its second
    card: M, 5cu, T12 -> seat 0 holding Kcu must play it."""
    pos = position([H("Kcu 8cu", "co sw ba"), H("", "co sw ba"), H("", "co sw ba cu"),
                    H("", "co sw ba T")], leader=1, trick=["M", "5cu", "T12"],
                   tricks_won=(6, 6), suits_led=("co", "sw", "ba"))
    s = load(pos)
    assert_legal(s, "play Kcu")
    play(s, "play Kcu")
    assert "cu" in s.to_dict()["suits_led"]


def test_mi_king_2_king_may_be_kept_in_later_tricks():
    """MI-KING-2: in a later cups trick (cups already led) seat 3 holding Kcu 9cu may play
    either, or the Matto, though a trump is in the trick."""
    pos = position([None, H("", "co sw ba"), H("", "co sw ba T"), H("Kcu 9cu M", "co sw ba")],
                   leader=1, trick=["5cu", "T12"], tricks_won=(6, 6), suits_led=ALL_LED)
    s = load(pos)
    assert_legal(s, *plays("Kcu", "9cu", "M"))


# =============================================================================================
# 2.7 The Matto
# =============================================================================================

def test_mi_matto_1_matto_stays_with_its_team_when_it_wins():
    """MI-MATTO-1: seat 0 (A) plays the Matto and his partner wins: A takes all four cards,
    no debt."""
    pos = position([H("M", "co cu sw"), H("", "co cu sw ba"), H("", "co cu sw ba T"),
                    H("", "co cu sw ba T")], leader=1, trick=["3ba", "T14", "5ba"],
                   tricks_won=(8, 8))
    s = load(pos)
    before = s.to_dict()
    play(s, "play M")
    d = s.to_dict()
    assert d["last_winner"] == 2 and d["matto_team"] == "A" and d["matto_debt"] is False
    assert d["piles"][0] == srt(before["piles"][0] + ["3ba", "T14", "5ba", "M"])
    assert d["piles"][1] == before["piles"][1]


def test_mi_matto_4_matto_is_never_captured_nor_dying():
    """MI-MATTO-4 / MI-MATTO-1: B wins a trick with A's Matto in it: B scores as dying only
    A's other counting card (T20: 5), never the Matto; the Matto goes to A's pile."""
    pos = position([H("", "co cu sw ba T"), H("", "co cu sw ba T"), H("M", "co cu sw ba"),
                    H("", "co cu sw ba")], leader=0, trick=["T20", "T39"],
                   tricks_won=(8, 8))
    s = load(pos)
    before = s.to_dict()
    play(s, "play M", "play " + s.to_dict()["hands"][3][0])
    d = s.to_dict()
    assert d["last_winner"] == 1
    assert d["points"]["dying"] == [before["points"]["dying"][0],
                                    before["points"]["dying"][1] + 5]
    assert "M" in d["piles"][0] and "M" not in d["piles"][1]
    assert d["matto_debt"] is True


def _final(s):
    d = s.to_dict()
    assert d["phase"] == "deal_over" and s.is_terminal() and s.legal_actions() == []
    assert d["to_move"] is None and s.current_player() == -1
    return d


def _settled_end_check(before, d, **options):
    """The end event of ``d`` against the rules: each source from the final piles, D and
    the resti by MI-RESTO-2/3, net, returns."""
    last = d["last_winner"] & 1
    exp = end_scoring(d["piles"], last, **options)
    for src, v in exp.items():
        assert d["points"][src] == v, src
    # the last trick's dying cards, then the end event (one event each)
    dy = [d["points"]["dying"][t] - before["points"]["dying"][t] for t in (0, 1)]
    D, resti = event(before["D"], before["resti"], *dy)
    a = sum(v[0] for v in exp.values())
    b = sum(v[1] for v in exp.values())
    D, resti = event(D, resti, a, b)
    resti = final_rounding(D, resti)
    assert d["resti"] == resti
    net = resti[0] - resti[1]
    return net


def test_mi_matto_2_debt_paid_with_a_zero_card_at_the_end():
    """MI-MATTO-2 / MI-MATTO-5: A's Matto fell in a trick won by B (A's pile 4t + 1, B's
    4t - 1); at the end A moves its lowest-index card worth 0 other than T29 (T7 here: T6 is
    B's) to B's pile: both piles are then 4 x tricks."""
    pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(9, 11),
                              piles=[["M", "T7", "T29", "T21"], ["T6"]], matto_debt=True)
    s = load(pos)
    before = s.to_dict()
    assert len(before["piles"][0]) == 37 and len(before["piles"][1]) == 43
    play_cards(s, "T30", "4co", "5co", "3co")
    d = _final(s)
    zero = [c for c in before["piles"][0] if value(c) == 0 and c != "T29"]
    assert min(zero, key=IDX.__getitem__) == "T7"
    assert d["paid_card"] == "T7" and d["matto_given"] is False
    assert "T7" in d["piles"][1] and "M" in d["piles"][0]
    assert [len(p) for p in d["piles"]] == [36, 48]
    net = _settled_end_check(before, d)
    assert d["net"] == net and s.returns() == [net, -net, net, -net]


def test_mi_matto_2_debt_paid_with_the_cheapest_card_when_no_zero_card():
    """MI-MATTO-2 (engine default): A's pile holds only counting cards besides the Matto
    (its one trick: T2 T3 T36 Kco): it pays its lowest-valued card, the lowest index among
    equals: T2."""
    pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(1, 19),
                              piles=[["M", "T2", "T3", "T36", "Kco"], []], matto_debt=True)
    s = load(pos)
    assert len(s.to_dict()["piles"][0]) == 5
    play_cards(s, "T30", "4co", "5co", "3co")
    d = _final(s)
    assert d["paid_card"] == "T2"
    assert d["piles"][0] == srt("M T3 T36 Kco") and "T2" in d["piles"][1]


def test_mi_matto_3_team_without_a_trick_gives_the_matto():
    """MI-MATTO-3: A won no trick (its pile is only its Matto); B takes the last trick too:
    at the end B receives the Matto itself and holds all 84 cards; nothing is paid."""
    pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(0, 20),
                              piles=[["M"], []], matto_debt=True)
    s = load(pos)
    before = s.to_dict()
    play_cards(s, "T30", "4co", "5co", "3co")
    d = _final(s)
    assert d["matto_given"] is True and d["paid_card"] is None
    assert d["piles"][0] == [] and len(d["piles"][1]) == 84 and "M" in d["piles"][1]
    net = _settled_end_check(before, d)
    assert d["net"] == net < 0


def test_mi_matto_3_a_last_trick_saves_the_matto():
    """MI-MATTO-3 / -2: A's only trick is the last one: it keeps its Matto and pays a card
    (the lowest-index card worth 0 of its pile) instead."""
    pos = last_trick_position(["T30", "3co", "4co", "5co"], leader=1, tricks_won=(0, 20),
                              piles=[["M"], []], matto_debt=True)
    s = load(pos)
    play_cards(s, "3co", "4co", "5co", "T30")
    d = _final(s)
    assert d["last_winner"] == 0 and d["tricks_won"] == [1, 20]
    assert d["matto_given"] is False and d["paid_card"] == "3co"
    assert d["piles"][0] == srt("M 4co 5co T30") and len(d["piles"][1]) == 80


def test_mi_matto_4_matto_in_the_last_trick_same_rules():
    """MI-MATTO-4: the Matto played in the 21st trick, won by the other team, still goes to
    its team's pile, which pays one card at the end."""
    pos = last_trick_position(["T30", "M", "4co", "5co"], leader=1, tricks_won=(10, 10))
    s = load(pos)
    before = s.to_dict()
    play_cards(s, "M", "4co", "5co", "T30")
    d = _final(s)
    assert d["last_winner"] == 0 and d["matto_team"] == "B" and d["matto_debt"] is True
    zero = [c for c in before["piles"][1] if value(c) == 0 and c != "T29"]
    paid = min(zero, key=IDX.__getitem__)
    assert d["paid_card"] == paid and paid in d["piles"][0] and "M" in d["piles"][1]
    assert [len(p) for p in d["piles"]] == [44, 40]
    assert d["points"]["dying"] == before["points"]["dying"]


def test_mi_matto_5_piles_are_multiples_of_4_after_the_settlement():
    """MI-MATTO-5: over random deals, after the settlement each pile holds 4 x (tricks won)
    cards, or 0 and 84 when the Matto was given away."""
    for seed in range(6):
        s = random_playout(game().new_deal(seed), random.Random(seed))
        d = _final(s)
        sizes = [len(p) for p in d["piles"]]
        if d["matto_given"]:
            assert sorted(sizes) == [0, 84]
        else:
            assert sizes == [4 * w for w in d["tricks_won"]]


# =============================================================================================
# 2.8 Combinations (through the declarations and the piles)
# =============================================================================================

def _declarable(pos) -> list[str]:
    s = load(pos)
    return [t for t in legal_strings(s) if t.startswith("declare")]


@pytest.mark.parametrize("held,runs", [
    ("T28 T29 T30 T31 T33", [("T28", "T29", "T30", "T31")]),        # one maximal run
    ("T1 T2 T3 T4 T5", [("T1", "T2", "T3", "T4", "T5")]),
    ("T3 T4 T5 T6 T7", [("T3", "T4", "T5")]),                       # 6, 7 are no run trumps
    ("T25 T26 T27 T28 T29", []),                                    # below 28: no run
    ("T26 T27 T28 T29 T30", [("T28", "T29", "T30")]),
    ("T1 T2 T4 T5 T30 T31 T33 T34", []),                            # pairs only
    ("T34 T35 T36 T38 T39 T40", [("T34", "T35", "T36"), ("T38", "T39", "T40")]),
])
def test_mi_comb_1_runs_are_maximal_within_1_5_and_28_40(held, runs):
    """MI-COMB-1: 3+ consecutive trumps, all in 1-5 or all in 28-40; adjacent runs merge, only
    maximal runs count (28-29-30-31 is one run, never 28-29-30)."""
    assert combos_of(held) == runs
    pos = declare_position([[], held, [], []])
    assert _declarable(pos) == [declare(r) for r in runs]


@pytest.mark.parametrize("held,combos", [
    ("M T1 T40", [("T1", "T40", "M")]),
    ("T1 T13 T28", [("T1", "T13", "T28")]),
    ("T10 T20 T30", [("T10", "T20", "T30")]),
    ("T20 T30 T40", [("T20", "T30", "T40")]),
    ("T10 T20 T30 T40", [("T10", "T20", "T30", "T40")]),
    ("Kco Kcu Kba", [("Kco", "Kcu", "Kba")]),
    ("Kco Kcu Ksw Kba", [("Kco", "Kcu", "Ksw", "Kba")]),
    ("Kco Kcu T10 T20 T40 M T1", [("T1", "T40", "M")]),              # no triple: nothing else
    # a card in several combinations: T1 in 1-2-3, 1-13-28 and M-1-40
    ("T1 T2 T3 T13 T28 M T40", [("T1", "T2", "T3"), ("T1", "T40", "M"), ("T1", "T13", "T28")]),
])
def test_mi_comb_2_other_combinations(held, combos):
    """MI-COMB-2: the Matto with 1 and 40; 1-13-28; 10-20-30 or 20-30-40, all four one
    combination; three or four Kings; a card may serve in several combinations."""
    assert combos_of(held) == combos
    pos = declare_position([[], held, [], []])
    assert _declarable(pos) == [declare(c) for c in combos]


def test_mi_comb_2_option_decine_four_two_triples():
    """MI-COMB-2, option decine_four=two_triples: 10-20-30-40 are two combinations, 10-20-30
    (15) and 20-30-40 (20): declared both, B +35."""
    pos = declare_position([[], "T10 T20 T30 T40", [], []], decine_four="two_triples")
    s = load(pos)
    assert_legal(s, declare(("T10", "T20", "T30")), declare(("T20", "T30", "T40")), "done")
    play(s, declare(("T10", "T20", "T30")), declare(("T20", "T30", "T40")), "done")
    assert s.to_dict()["points"]["declarations"] == [0, 35]


@pytest.mark.parametrize("combo,points", [
    (("T1", "T2", "T3"), 11), (("T1", "T2", "T3", "T4", "T5"), 17),
    (("T28", "T29", "T30"), 15), (("T36", "T37", "T38"), 30),
    (tuple(f"T{n}" for n in range(28, 41)), 90), (("T1", "T40", "M"), 20),
    (("T1", "T13", "T28"), 15), (("T10", "T20", "T30"), 15), (("T20", "T30", "T40"), 20),
    (("T10", "T20", "T30", "T40"), 25), (("Kco", "Kcu", "Ksw"), 15), (tuple(KINGS), 20),
])
def test_mi_comb_3_and_mi_comb_5_combination_values(combo, points):
    """MI-COMB-3 (the sum of the card values, T29 worth 5 inside) and the values of MI-COMB-5:
    declaring the combination alone scores exactly its value (B, seat 1)."""
    assert combo_value(combo) == points
    pos = declare_position([[], combo, [], []])
    s = load(pos)
    play(s, declare(combo), "done")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, points]
    D, resti = event(0, [0, 0], 0, points)
    assert d["D"] == D and d["resti"] == resti


def test_mi_comb_4_matto_bonus_in_a_declaration():
    """MI-COMB-4: a declarer claiming the Matto bonus scores 5 more for each declared
    combination without the Matto: 1-2-3 (11) + three Kings (15) + M-1-40 (20) = 46, bonus 2
    x 5 = 10 (not for M-1-40): B +56."""
    pos = declare_position([[], "T1 T2 T3 T40 M Kco Kcu Ksw", [], []])
    s = load(pos)
    play(s, declare(("T1", "T2", "T3")), declare(("T1", "T40", "M")),
         declare(("Kco", "Kcu", "Ksw")), "done bonus")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 56] and d["bonus_claimed"][1] is True


def test_mi_comb_4_option_matto_bonus_on_matto_combo():
    """MI-COMB-4, option matto_bonus_on_matto_combo=true: Matto-1-40 gets the bonus too:
    declared alone with the bonus, 20 + 5 = 25."""
    pos = declare_position([[], "T1 T40 M", [], []], matto_bonus_on_matto_combo=True)
    s = load(pos)
    play(s, declare(("T1", "T40", "M")))
    assert_legal(s, "done", "done bonus")
    play(s, "done bonus")
    assert s.to_dict()["points"]["declarations"] == [0, 25]


def test_mi_comb_4_without_the_option_no_bonus_for_matto_combo_alone():
    """MI-COMB-4 (default): Matto-1-40 alone gives no bonus to claim."""
    pos = declare_position([[], "T1 T40 M", [], []])
    s = load(pos)
    play(s, declare(("T1", "T40", "M")))
    assert_legal(s, "done")


# =============================================================================================
# 2.9 Scoring, the end of the deal; 2.10 resti
# =============================================================================================

# The piles of MI-EX-18 before the 21st trick: A (13 tricks) holds counting cards worth 89
# with the Matto, B (7 tricks) 53 and T29; the last trick (T6 2co 3co 4co, led by seat 1) is
# B's and worth nothing.
EX18_A = "M T2 T3 T5 T10 T13 T28 T30 T31 T33 T34 T35 T37 T38 T40 Kco"
EX18_B = "T1 T4 T20 T32 T36 T39 Kcu Ksw Kba T29"
CAP = {
    10: "T40",
    19: "T40 T2 T3 T5",
    20: "T40 T38",
    50: "T40 T38 T37 T35 T34 T33 T31",
    55: "T40 T38 T37 T35 T34 T33 T31 T30",
}


def ex18_position(captured: int, resti, **kw) -> dict:
    """MI-EX-18's deal before its last trick; A's dying points so far are ``captured`` (the
    cards of CAP it took from B), so D = captured - 60 x (resti A - resti B)."""
    return last_trick_position(["4co", "T6", "2co", "3co"], leader=1, tricks_won=(13, 7),
                               piles=[EX18_A, EX18_B], captured=[CAP[captured], ""],
                               resti=resti, **kw)


def play_ex18_last_trick(s):
    play_cards(s, "T6", "2co", "3co", "4co")
    return _final(s)


def test_mi_end_1_mi_end_2_mi_end_3_mi_end_4_the_end_event():
    """MI-END-1, MI-END-2, MI-END-3, MI-END-4 (MI-EX-18's piles): pile values A 89, B 53
    (= 142, the Fola holding no counting card); beyond 42: A 52 cards -> 10, B 32 -> 0; combinations in the piles: A's
    33-34-35 (15) + Matto bonus 5 = 20, B's three Kings 15; last trick B +10."""
    s = load(ex18_position(55, [1, 0]))
    d = play_ex18_last_trick(s)
    assert [len(p) for p in d["piles"]] == [52, 32]
    assert not any(value(c) for c in d["fola"])
    assert d["points"]["pile"] == [89, 53] and sum(d["points"]["pile"]) == 142
    assert d["points"]["beyond_42"] == [10, 0]
    assert d["points"]["pile_combinations"] == [20, 15]
    assert d["points"]["last_trick"] == [0, 10]
    assert combos_of(d["piles"][0]) == [("T33", "T34", "T35")]
    assert combos_of(d["piles"][1]) == [("Kcu", "Ksw", "Kba")]


def test_mi_end_4_last_trick_scores_10():
    """MI-END-4: the team that wins the 21st trick scores 10 in the end event: here A (seat 2
    trumps 2co with T6), so A +10 and B nothing; A's 14 tricks make 56 cards (+14)."""
    pos = last_trick_position(["4co", "2co", "T6", "3co"], leader=1, tricks_won=(13, 7),
                              piles=[EX18_A, EX18_B], captured=[CAP[55], ""], resti=[1, 0])
    s = load(pos)
    play_cards(s, "2co", "T6", "3co", "4co")
    d = _final(s)
    assert d["last_winner"] == 2 and d["points"]["last_trick"] == [10, 0]
    assert d["points"]["beyond_42"] == [14, 0]


def test_mi_end_2_no_card_bonus_up_to_42_cards():
    """MI-END-2: with 10 and 11 tricks (40 and 44 cards), only the 44-card pile scores 2."""
    pos = last_trick_position(["4co", "T6", "2co", "3co"], leader=1, tricks_won=(10, 10))
    s = load(pos)
    d = play_ex18_last_trick(s)
    assert [len(p) for p in d["piles"]] == [40, 44]
    assert d["points"]["beyond_42"] == [0, 2]


def test_mi_end_3_matto_bonus_goes_to_the_pile_holding_it():
    """MI-END-3 / MI-COMB-4: the same piles with the Matto moved to B (B played it, B's
    trick): B's Kings get the bonus (15 + 5), A's run does not (15)."""
    pos = last_trick_position(["4co", "T6", "2co", "3co"], leader=1, tricks_won=(13, 7),
                              piles=[EX18_A.replace("M ", ""), "M " + EX18_B])
    s = load(pos)
    d = play_ex18_last_trick(s)
    assert d["points"]["pile_combinations"] == [15, 20]
    assert d["points"]["pile"] == [84, 58]


def test_mi_end_5_robbed_cards_score_again_in_the_pile():
    """MI-END-5: the cutter (seat 3, B) robbed Kba (B +5 at once); it lies in B's pile at the
    end and counts again there; A's captured cards (dying, 55) count again in A's pile."""
    pos = last_trick_position(["4co", "T6", "2co", "3co"], leader=1, tricks_won=(13, 7),
                              piles=[EX18_A, EX18_B], captured=[CAP[55], ""],
                              played=[[], [], [], ["Kba"]], cutter_robbed="Kba")
    s = load(pos)
    before = s.to_dict()
    assert before["points"]["cutter_rob"] == [0, 5] and before["points"]["dying"] == [55, 0]
    d = play_ex18_last_trick(s)
    assert d["points"]["cutter_rob"] == [0, 5] and d["points"]["dying"] == [55, 0]
    assert d["points"]["pile"] == [89, 53]
    assert "Kba" in d["piles"][1] and set(cards(CAP[55])) <= set(d["piles"][0])


def test_mi_score_1_the_end_is_one_event():
    """MI-SCORE-1 (MI-EX-16): D = +50 before the end; the end gives A 119, B 78. As one
    event D = 91 -> A 1 resto, D = 31 -> rounded up A 1: net +2 (had A's and B's points been
    two events, A +2, B +1: net +1)."""
    s = load(ex18_position(50, [0, 0]))
    assert s.to_dict()["D"] == 50
    d = play_ex18_last_trick(s)
    assert d["resti"] == [2, 0] and d["net"] == 2
    assert s.returns() == [2, -2, 2, -2]


def test_mi_score_1_each_trick_is_an_event():
    """MI-SCORE-1 / MI-RESTO-2: a trick whose dying cards bring D to 60 or more converts at
    once: D 55, A captures B's T36 (10) -> A 1 resto, D 5."""
    pos = position([H("T39", "co cu sw"), H("T36", "co cu sw"), None,
                    H("", "co cu sw T")], leader=2, trick=["Cba", "T14"],
                   tricks_won=(8, 8), piles=[CAP[55], ""], captured=[CAP[55], ""])
    s = load(pos)
    assert s.to_dict()["D"] == 55 and s.to_dict()["resti"] == [0, 0]
    play(s, "play T39", "play T36")
    d = s.to_dict()
    assert d["last_winner"] == 0 and d["points"]["dying"] == [65, 0]
    assert d["resti"] == [1, 0] and d["D"] == 5


def test_mi_score_2_dying_cards():
    """MI-SCORE-2: seat 2 (A) leads T30, seat 3 (B) T3, seat 0 (A) T2, seat 1 (B) wins with
    T39: B scores A's T30 and T2 (5 + 3 = 8) at once, nothing for its own T3 and T39."""
    pos = position([H("T2", "co cu T"), H("T39", "co cu T"), H("", "co cu T"),
                    H("", "co cu T")], leader=2, trick=["T30", "T3"], tricks_won=(8, 8))
    s = load(pos)
    before = s.to_dict()
    play(s, "play T2", "play T39")
    d = s.to_dict()
    assert d["last_winner"] == 1
    assert d["points"]["dying"] == [before["points"]["dying"][0],
                                    before["points"]["dying"][1] + 8]
    assert d["D"] == before["D"] - 8


def test_mi_resto_1_only_the_difference_is_kept():
    """MI-RESTO-1: D starts at 0 and moves by (A - B) of each event; the points of every
    source satisfy sum(A) - sum(B) = D + 60 x (resti A - resti B) throughout a deal."""
    for seed in range(4):
        s = game().new_deal(seed)
        r = random.Random(seed)
        while not s.is_terminal():
            d = s.to_dict()
            diff = sum(a - b for a, b in d["points"].values())
            assert diff == d["D"] + 60 * (d["resti"][0] - d["resti"][1])
            assert -60 < d["D"] < 60
            s.apply_action(r.choice(s.legal_actions()))


def test_mi_resto_2_conversion_repeats_while_60_or_more():
    """MI-RESTO-2: the cutter (B) robbed T36..T39 (B +40, D -40); seat 3 then declares 28..40
    with the Matto bonus (90 + 5): D -135 -> B gains 2 resti, D = -15."""
    robbed = "T36 T37 T38 T39"
    hand = robbed + " T28 T29 T30 T31 T32 T33 T34 T35 T40 M"
    hands = spread([[], [], [], hand], closed=(3,))
    left = [c for c in ALL97 if not any(c in h for h in hands)]
    pos = position(hands, phase="declare", to_move=3, cutter_robbed=robbed,
                   discards=[[], [], [], left[:4]],
                   declared_done=[False, True, True, False])
    s = load(pos)
    d = s.to_dict()
    assert d["D"] == -40 and d["resti"] == [0, 0]
    play(s, declare(tuple(f"T{n}" for n in range(28, 41))), "done bonus")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 95]
    assert d["resti"] == [0, 2] and d["D"] == -15


@pytest.mark.parametrize("captured,resti,final_resti", [
    (55, [1, 0], [2, 0]),      # D -5 + 41 = 36 -> A +1
    (19, [0, 0], [1, 0]),      # 19 + 41 = 60 -> A +1, D 0, nothing more
    (20, [0, 0], [2, 0]),      # 61 -> A +1, D 1 -> A +1
    (19, [1, 0], [1, 0]),      # -41 + 41 = 0 -> nothing
    (20, [1, 0], [2, 0]),      # -40 + 41 = 1 -> A +1
    (10, [1, 0], [1, 1]),      # -50 + 41 = -9 -> B +1
])
def test_mi_resto_3_final_rounding(captured, resti, final_resti):
    """MI-RESTO-3: after the final event (A 119, B 78: +41) the remaining lead is rounded up
    in units of 60: 1..60 -> 1; 0 -> nothing."""
    s = load(ex18_position(captured, resti))
    d = play_ex18_last_trick(s)
    assert d["resti"] == final_resti


@pytest.mark.parametrize("captured,resti,net", [
    (55, [1, 0], 2), (10, [1, 0], 0), (19, [0, 0], 1),
])
def test_mi_resto_4_net_resti_and_returns(captured, resti, net):
    """MI-RESTO-4: net = resti A - resti B; the returns are +net for seats 0 and 2, -net for
    1 and 3 (0 a draw); zero before the end."""
    s = load(ex18_position(captured, resti))
    assert s.returns() == [0.0] * 4 and not s.is_terminal()
    d = play_ex18_last_trick(s)
    assert d["net"] == net == d["resti"][0] - d["resti"][1] and d["net_total"] == net
    assert s.returns() == [net, -net, net, -net]


def test_mi_resto_4_option_capot_it_rules():
    """MI-RESTO-4, option capot=it_rules: a team that won no trick loses at least 14 resti,
    twice its loss: A took no trick (its Matto given away)."""
    for capot in ("off", "it_rules"):
        pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(0, 20),
                                  piles=[["M"], []], matto_debt=True, capot=capot)
        s = load(pos)
        before = s.to_dict()
        play_cards(s, "T30", "4co", "5co", "3co")
        d = _final(s)
        plain = _settled_end_check(before, d)
        assert plain < 0
        want = plain if capot == "off" else -max(14, -2 * plain)
        assert d["net"] == want and s.returns() == [want, -want, want, -want]


def test_mi_resto_4_option_deals_match():
    """MI-RESTO-4, option deals=2: a match of two deals; the deal passes to the right (d+1),
    the second deal comes from the same stream (the engine's procedure), the resti add up."""
    g = game(deals=2)
    seed = 7
    exp1 = oracle(seed)
    s = g.new_match(seed)
    d = s.to_dict()
    assert d["mode"] == "match" and d["deal_number"] == 1 and d["hands"] == exp1["hands"]
    assert d["rng"] == exp1["rng"]
    r = random.Random(seed)
    while s.to_dict()["deal_number"] == 1:
        before = s.to_dict()
        s.apply_action(r.choice(s.legal_actions()))
    assert before["tricks_played"] == 20
    d = s.to_dict()
    exp2 = deal_from(PyRng(exp1["rng"]), (exp1["dealer"] + 1) % 4)
    assert d["dealer"] == exp2["dealer"] and d["start_dealer"] == exp1["dealer"]
    assert d["hands"] == exp2["hands"] and d["fola"] == exp2["fola"]
    assert d["D"] == exp2["D"] and d["resti"] == exp2["resti"]
    first = d["net_total"]
    assert not s.is_terminal() and s.returns() == [0.0] * 4
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
    d = s.to_dict()
    assert d["phase"] == "match_over" and d["deal_number"] == 2
    assert d["net_total"] == first + d["net"]
    n = d["net_total"]
    assert s.returns() == [n, -n, n, -n]
