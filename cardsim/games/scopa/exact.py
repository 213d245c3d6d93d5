"""What the exact (double-dummy) solver needs to know of Scopa (:mod:`cardsim.solvers.exact`): the value
of a finished deal, what makes two positions equivalent, cheap bounds on the value, and a move
order.

Values are integers from side 0's point of view: the deal's point difference, side 0's points
minus side 1's (SC-SCORE-6), the quantity a deal's returns report.
"""
import numpy as np

from ...compiled.bits import ONE, lowest_index, popcount
from ...compiled.jit import helper
from . import layout as L
from .rules import P_NUM_PLAYERS, P_PRIMIERA_FORFEIT
from .scoring import deal_points, primiera_total

N_FEATURES = 8
_SHIFT = np.uint64(L.ACTION_CARD_SHIFT)
_CAPTURE = np.uint64(L.CAPTURE_MASK)
_SETTE = np.uint64(1) << np.uint64(L.SETTEBELLO)


@helper
def single_deal(state, params):
    """The solver values the current deal: a match position is solved as a lone deal (its end
    is the deal's end, SC-END-1)."""
    state[L.MODE] = L.MODE_DEAL


@helper
def side_of(state, params, seat, root):
    """SC-TEAM-1: seat ``p`` plays for side ``p & 1`` (2 players: the seat itself)."""
    return seat & 1


@helper
def deal_value(state, params, root):
    """SC-SCORE-6: the finished deal's point difference, side 0 minus side 1."""
    p = deal_points(state, params)
    return np.int64(p[0] - p[1])


@helper
def deal_return(value):
    """Side 0's return of a deal of exact value ``value``: the value is the return (the deal's
    point difference, SC-SCORE-6)."""
    return np.float64(value)


@helper
def cards_left(state, params):
    """The cards still to be played in the deal: in the hands and the stock (SC-DEAL-1..2).
    Six or fewer (2 players) means the stock is empty and every card is known."""
    m = state[L.STOCK]
    for seat in range(params[P_NUM_PLAYERS]):
        m |= state[L.HAND + seat]
    return popcount(m)


@helper
def pile_summary(pile):
    """What of a pile decides its categories (SC-SCORE-1..4): cards, coins, the settebello and
    the best primiera value per suit, packed in one word (the cards themselves do not matter)."""
    w = np.uint64(popcount(pile)) | np.uint64(popcount(pile & L.COINS)) << np.uint64(6)
    w |= ((pile >> np.uint64(L.SETTEBELLO)) & ONE) << np.uint64(10)
    for s in range(4):
        cards = pile & L.SUIT_MASK[s]
        best = 0
        while cards:
            best = max(best, L.PRIMIERA[lowest_index(cards)])
            cards &= cards - ONE
        w |= np.uint64(best) << np.uint64(11 + 5 * s)
    return w


@helper
def features(state, params, out):
    """The words that identify a position of a deal up to equivalence: hands, table, how far
    the stock is dealt (its order is fixed within the deal), the player to move, the last
    capturer, the scopa counts, and each pile by :func:`pile_summary` (positions whose piles
    differ only in cards that score the same are one position for the solver). Returns the
    number of words written."""
    n = 0
    for seat in range(params[P_NUM_PLAYERS]):
        out[n] = state[L.HAND + seat]
        n += 1
    out[n] = state[L.TABLE]
    out[n + 1] = pile_summary(state[L.PILE])
    out[n + 2] = pile_summary(state[L.PILE + 1])
    out[n + 3] = state[L.NEXT] | state[L.TO_MOVE] << np.uint64(8) | state[L.LAST_CAPTURER] << np.uint64(
        16) | state[L.PHASE] << np.uint64(24) | state[L.SCOPE] << np.uint64(32) | state[
        L.SCOPE + 1] << np.uint64(48)
    return n + 4


@helper
def _more(a_min, a_max, b_min, b_max):
    """Bounds of a 'one point to the larger figure' category (SC-SCORE-1..4) for side 0 minus
    side 1 when side 0's figure ends in [a_min, a_max] and side 1's in [b_min, b_max]."""
    lo = 1 if a_min > b_max else (-1 if b_max > a_min else 0)
    hi = -1 if b_min > a_max else (1 if a_max > b_min else 0)
    return lo, hi


@helper
def bounds(state, params):
    """Cheap bounds on the deal's final point difference: the categories already decided
    count, the open ones span what the unplaced cards allow, and every move still to play
    may make at most one scopa for its side."""
    p0 = state[L.PILE]
    p1 = state[L.PILE + 1]
    free = ~(p0 | p1) & np.uint64((1 << L.N_CARDS) - 1)
    r = popcount(free)
    c0, c1 = popcount(p0), popcount(p1)
    lo, hi = _more(c0, c0 + r, c1, c1 + r)
    rc = popcount(free & L.COINS)
    k0, k1 = popcount(p0 & L.COINS), popcount(p1 & L.COINS)
    a, b = _more(k0, k0 + rc, k1, k1 + rc)
    lo += a
    hi += b
    if p0 & _SETTE:
        lo += 1
        hi += 1
    elif p1 & _SETTE:
        lo -= 1
        hi -= 1
    else:
        lo -= 1
        hi += 1
    forfeit = params[P_PRIMIERA_FORFEIT] == 1
    a, b = _more(primiera_total(p0, forfeit), primiera_total(p0 | free, forfeit),
                 primiera_total(p1, forfeit), primiera_total(p1 | free, forfeit))
    lo += a
    hi += b
    moves0 = 0
    moves1 = 0
    for seat in range(params[P_NUM_PLAYERS]):
        if seat & 1:
            moves1 += popcount(state[L.HAND + seat])
        else:
            moves0 += popcount(state[L.HAND + seat])
    stock = popcount(state[L.STOCK])        # dealt evenly to both sides
    moves0 += stock // 2
    moves1 += stock // 2
    s = np.int64(state[L.SCOPE]) - np.int64(state[L.SCOPE + 1])
    return np.int64(lo + s - moves1), np.int64(hi + s + moves0)


@helper
def move_order(state, params, actions, n, scores):
    """A guess of each move's worth, best first: sweeps, the settebello, coins and many cards
    taken; of the discards, the lowest card."""
    table = state[L.TABLE]
    for i in range(n):
        a = np.uint64(actions[i])
        taken = a & _CAPTURE
        card = np.int64(a >> _SHIFT)
        if taken:
            s = 100 + 10 * popcount(taken) + 8 * popcount((taken | (ONE << np.uint64(card)))
                                                          & L.COINS)
            if taken == table:
                s += 300
            if (taken | (ONE << np.uint64(card))) & _SETTE:
                s += 200
        else:
            s = -L.VALUE[card] - (50 if card == L.SETTEBELLO else 0)
        scores[i] = s
