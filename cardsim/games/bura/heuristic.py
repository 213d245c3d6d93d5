"""A Bura player that follows the traditional wisdom of good players (rules/bura.md).

:func:`choose` reads only what the player to move sees (rules §5): his own hand, the turned
trump card and where it is, every face-up card (piles and the current trick), the number of
face-down cards in each pile and trick, the cards he himself threw face down (``THROWN``),
cards shown at a refused Stop, and the sizes of hands and stock. The *unseen* cards are all
the others: the other hands, the stock and the face-down cards others threw. A card's *keep
value* orders what a player would rather keep: its points, a trump above any plain card (a
trump beats any plain card, BU-RESP-2), then its rank.

The rules, rule by rule:

- **H1 Claim only when sure** (BU-CLAIM-1..3, BU-END-2). The points surely in one's pile are
  its face-up cards, the face-down cards one threw there oneself (and the trump card, whose
  place is public), and every other face-down card counted as the lowest-point unseen card it
  could be. Claim when that reaches 31, never below: a false claim loses double (BU-CLAIM-2).
  With 2 players every face-down card in one's pile is the opponent's throw; with 3–4 the
  bound is the same and just as sure. When all cards are played and the claim is not sure,
  the most points decide (BU-END-2).
- **H2 Call Stop** (BU-COMBO-5..7). A Stop leads three cards out of turn, which the others must
  beat card for card: call it whenever it is allowed, unless the three cards carry 10 points
  or more and are more likely than ``RISK`` to be beaten.
- **H3 Lead a strong plain set** (BU-LEAD-4, BU-RESP-3). Lead the trump-free set of one suit
  (one to three cards) that carries the most points, at least 10 (a ten or an ace), if the
  chance that an opponent beats it is at most ``RISK``: a master card, that no unseen card
  beats, is never beaten, and each extra card of the set needs one more beater.
- **H4 Lead low.** Otherwise lead the single card of least keep value: a low plain card,
  keeping trumps, tens and aces.
- **H5 Beat cheaply** (BU-RESP-2..4, BU-RESP-7). A beat with plain cards only costs nothing
  (the cards come back with the trick): make it. A beat that spends trumps is made only when
  the stake is worth it: the face-up points of the trick plus those the cheapest throw would
  give away reach 10 (a ten or an ace). Among beats take the fewest and lowest trumps, then the
  one that banks the most points.
- **H6 Throw low, face down** (BU-RESP-6). Otherwise throw the cards of least keep value, face
  down when allowed, so that the trick's winner cannot count them.

The chance that a set is beaten is estimated for each opponent as the chance that a hand of
the current size, drawn from the unseen cards (plus the opponents' known cards), holds at
least as many cards that beat one of the set's cards as the set has cards.
"""
import numpy as np

from ...compiled.actions import find_kind, kind_of, value_of
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below
from . import layout as L
from .rules import P_NUM_PLAYERS
from .scoring import points

__all__ = ["choose", "RISK", "WORTH_TAKING", "TRUMP_KEEP"]

RISK = 0.3          # H2, H3: the largest chance of being beaten for a lead that carries points
WORTH_TAKING = 10   # H5: the stake (a ten or an ace) for which trumps are spent
TRUMP_KEEP = 12     # keep value: a trump counts as 12 points more than its own

_RANK_MASK = np.array([sum(1 << (9 * s + r) for s in range(4)) for r in range(9)],
                     dtype=np.uint64)   # the four cards of each rank, 6 .. A
_RANK_POINTS = np.array([0, 0, 0, 0, 2, 3, 4, 10, 11], dtype=np.int64)



# --- what the player to move sees -------------------------------------------------------------

@helper
def _trick_face_up(state, params):
    """Rules §5: the face-up cards of the current trick. Which cards lie face down is public as
    a count only; removing every seat's thrown cards leaves exactly the face-up ones, whatever
    the face-down cards are."""
    n = params[P_NUM_PLAYERS]
    down = ZERO
    for seat in range(n):
        down |= state[L.THROWN + seat]
    up = ZERO
    for seat in range(n):
        up |= state[L.TRICK_PLAYED + seat] & ~down
    return up


@helper
def _face_up(state, params):
    """Rules §5: every face-up card played this deal (piles and the current trick)."""
    up = _trick_face_up(state, params)
    for seat in range(params[P_NUM_PLAYERS]):
        up |= state[L.PILE_UP + seat]
    return up


@helper
def _known_held(state, params, me):
    """Rules §5: the cards the others are known to hold (the trump card once drawn, cards
    shown at a refused Stop)."""
    trump = bit(np.int64(state[L.TRUMP_CARD]))
    held = ZERO
    for seat in range(params[P_NUM_PLAYERS]):
        if seat != me:
            held |= state[L.HAND + seat] & (trump | state[L.REVEALED + seat])
    return held


@helper
def _unseen_cards(state, params, me):
    """Rules §5: the cards whose place the player to move does not know."""
    trump = bit(np.int64(state[L.TRUMP_CARD]))
    seen = (state[L.HAND + me] | trump | state[L.THROWN + me] | _face_up(state, params)
            | _known_held(state, params, me))
    return L.FULL_DECK & ~seen


@helper
def _keep_value(cards, trumps):
    """The keep value of a set of cards: 16 per point (a trump 12 points more), plus ranks."""
    total = 0
    while cards:
        c = lowest_index(cards)
        cards &= cards - ONE
        total += 16 * (L.POINTS[c] + (TRUMP_KEEP if bit(c) & trumps else 0)) + c % 9
    return total


# --- H1: the claim ----------------------------------------------------------------------------

@helper
def _sure_points(state, params, me):
    """H1: the points surely in ``me``'s pile: face-up cards, his own face-down cards (and the
    trump card), and each other face-down card as the lowest-point unseen card."""
    trump = bit(np.int64(state[L.TRUMP_CARD]))
    down = state[L.PILE_DOWN + me]
    known = down & (state[L.THROWN + me] | trump)
    total = points(state[L.PILE_UP + me] | known)
    left = popcount(down & ~known)
    pool = _unseen_cards(state, params, me)
    for r in range(9):
        if left == 0:
            break
        take = min(left, popcount(pool & _RANK_MASK[r]))
        total += take * _RANK_POINTS[r]
        left -= take
    return total


# --- chance of being beaten -------------------------------------------------------------------

@helper
def _choose_k(n, k):
    """The binomial coefficient C(n, k) as a float (0 outside the range)."""
    if k < 0 or k > n:
        return 0.0
    c = 1.0
    for i in range(k):
        c = c * (n - i) / (i + 1)
    return c


@helper
def _beaters(cards, trumps):
    """BU-RESP-2: every card that beats at least one card of ``cards``."""
    out = ZERO
    while cards:
        c = lowest_index(cards)
        cards &= cards - ONE
        suit = L.SUIT_MASK[c // 9]
        out |= suit & ~((bit(c) << ONE) - ONE)
        if suit != trumps:
            out |= trumps
    return out


@helper
def _chance_beaten(state, params, me, cards, trumps):
    """H2, H3: the chance that some opponent holds enough cards to beat ``cards`` (BU-RESP-3)
    — for each, at least as many beaters as the set has cards in a hand of the current size."""
    pool = _unseen_cards(state, params, me) | _known_held(state, params, me)
    u = popcount(pool)
    b = popcount(pool & _beaters(cards, trumps))
    k = popcount(cards)
    h = popcount(state[L.HAND + me])
    total = _choose_k(u, h)
    if total == 0.0:
        return 0.0
    p_one = 0.0
    for j in range(k, h + 1):
        p_one += _choose_k(b, j) * _choose_k(u - b, h - j) / total
    p_none = 1.0
    for _ in range(params[P_NUM_PLAYERS] - 1):
        p_none *= 1.0 - p_one
    return 1.0 - p_none


# --- choosing ---------------------------------------------------------------------------------

@helper
def _choose_stop(state, params, me, actions, n_actions, trumps):
    """H2: call Stop unless the three cards carry points and are likely to be beaten."""
    i = find_kind(actions, n_actions, L.STOP, L.KIND_SHIFT)
    if i >= 0:
        cards = value_of(actions[i], L.KIND_SHIFT)
        if (points(cards) < WORTH_TAKING
                or _chance_beaten(state, params, me, cards, trumps) <= RISK):
            return i
    return find_kind(actions, n_actions, L.PASS, L.KIND_SHIFT)


@helper
def _choose_lead(state, params, me, actions, n_actions, trumps, rng):
    """H3, H4: the strong plain set with the most points, else the single card of least keep
    value (equal keep values: at random)."""
    best = -1
    best_key = -1
    for i in range(n_actions):
        if kind_of(actions[i], L.KIND_SHIFT) != L.LEAD:
            continue
        cards = value_of(actions[i], L.KIND_SHIFT)
        pts = points(cards)
        if cards & trumps or pts < WORTH_TAKING:
            continue
        key = 4 * pts + popcount(cards)
        if key > best_key and _chance_beaten(state, params, me, cards, trumps) <= RISK:
            best, best_key = i, key
    if best >= 0:
        return best
    low = 1 << 30
    ties = 0
    for i in range(n_actions):
        cards = value_of(actions[i], L.KIND_SHIFT)
        if kind_of(actions[i], L.KIND_SHIFT) != L.LEAD or popcount(cards) != 1:
            continue
        key = _keep_value(cards, trumps)
        if key < low:
            best, low, ties = i, key, 1
        elif key == low:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return best


@helper
def _beat_cost(cards, trumps):
    """H5: fewest trumps, then lowest trumps, then most points banked (smaller is cheaper)."""
    mine = cards & trumps
    rank_sum = 0
    rest = mine
    while rest:
        rank_sum += lowest_index(rest) % 9
        rest &= rest - ONE
    return 10000 * popcount(mine) + 100 * rank_sum + 99 - points(cards)


@helper
def _choose_answer(state, params, me, actions, n_actions, trumps):
    """H5, H6: the cheapest beat when it is free or the stake is worth a trump, else the
    throw of least keep value, face down first."""
    beat = -1
    beat_key = 1 << 30
    throw = -1
    throw_key = 1 << 30
    for i in range(n_actions):
        kind = kind_of(actions[i], L.KIND_SHIFT)
        cards = value_of(actions[i], L.KIND_SHIFT)
        if kind == L.BEAT:
            key = _beat_cost(cards, trumps)
            if key < beat_key:
                beat, beat_key = i, key
        elif kind == L.THROW_DOWN or kind == L.THROW_UP:
            key = 2 * _keep_value(cards, trumps) + (1 if kind == L.THROW_UP else 0)
            if key < throw_key:
                throw, throw_key = i, key
    if beat < 0:
        return throw
    if throw < 0 or value_of(actions[beat], L.KIND_SHIFT) & trumps == ZERO:
        return beat
    stake = points(_trick_face_up(state, params) | value_of(actions[throw], L.KIND_SHIFT))
    return beat if stake >= WORTH_TAKING else throw


@kernel
def choose(state, params, actions, n_actions, rng):
    """H1-H6: the index into ``actions[:n_actions]`` (the legal actions of the player to move)
    of the heuristic's action."""
    me = np.int64(state[L.TO_MOVE])
    trumps = L.SUIT_MASK[np.int64(state[L.TRUMP_CARD]) // 9]
    phase = state[L.PHASE]
    if phase == L.PHASE_ANSWER:
        i = _choose_answer(state, params, me, actions, n_actions, trumps)
    elif phase == L.PHASE_STOP:
        i = _choose_stop(state, params, me, actions, n_actions, trumps)
    else:
        i = -1
        if phase == L.PHASE_CHECK or phase == L.PHASE_CLAIM:
            if _sure_points(state, params, me) >= L.CLAIM_TARGET:
                i = find_kind(actions, n_actions, L.CLAIM, L.KIND_SHIFT)
            elif phase == L.PHASE_CLAIM:
                i = find_kind(actions, n_actions, L.NO_CLAIM, L.KIND_SHIFT)
        if i < 0:
            i = _choose_lead(state, params, me, actions, n_actions, trumps, rng)
    return i if i >= 0 else 0
