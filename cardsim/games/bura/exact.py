"""What the exact (double-dummy) solver needs to know of Bura (:mod:`cardsim.solvers.exact`), 2 players:
the value of a finished deal, what makes two positions equivalent, bounds and a move order.

A value is one integer from seat 0's point of view that orders outcomes first by the deal's
result and then by the card points: ``OUTCOME * result + margin``, where ``result`` is seat 0's
return (+1 or -1 times the multiplier, 0 for a void deal; BU-END-1, BU-CLAIM-1..2) and
``margin`` the difference of the two piles' card points when the deal ends (BU-END-4). A claim
or a face-down throw is a move like any other.
"""
import numpy as np

from ...compiled.actions import kind_of, value_of
from ...compiled.bits import ZERO, popcount
from ...compiled.jit import helper
from . import layout as L
from .rules import P_FALSE_CLAIM_MULT
from .scoring import pile_points, points

OUTCOME = 256
"""A deal's result outweighs any margin of card points (at most 120)."""
N_FEATURES = 7


@helper
def deal_return(value):
    """Seat 0's return of a deal of exact value ``value``: its result in stakes, the nearest
    multiple of ``OUTCOME`` (the card-point margin is at most 120; :func:`split_value`)."""
    return np.float64((value + OUTCOME // 2) // OUTCOME)


@helper
def cards_left(state, params):
    """The cards still to be played in the deal, in the hands and the stock (at most: a claim
    or a throw ends it sooner)."""
    return popcount(state[L.HAND] | state[L.HAND + 1] | state[L.STOCK])


@helper
def single_deal(state, params):
    """The solver values the current deal: a match position is solved as a lone deal."""
    state[L.MODE] = L.MODE_DEAL


@helper
def side_of(state, params, seat, root):
    """Two players, each for himself."""
    return seat


@helper
def deal_value(state, params, root):
    """BU-END-1..4: seat 0's result (``OUTCOME`` times its return) plus the card-point margin."""
    margin = np.int64(pile_points(state, 0) - pile_points(state, 1))
    if state[L.RESULT] == L.RESULT_VOID:
        return margin
    stake = np.int64(state[L.MULTIPLIER])
    won = state[L.WINNERS] & np.uint64(1)
    return (OUTCOME * stake if won else -OUTCOME * stake) + margin


def split_value(value: int) -> tuple[int, int]:
    """A value (:func:`deal_value`, from either side's view) as (result in stakes, card-point
    margin): the margin is at most 120 in size, so the nearest multiple of ``OUTCOME`` is the
    result."""
    result = (int(value) + OUTCOME // 2) // OUTCOME
    return result, int(value) - OUTCOME * result


@helper
def features(state, params, out):
    """The words that identify a position up to equivalence: hands, pile points (not the pile
    cards, nor which were thrown face down: only their points count from here on), the cards
    of the current trick, how far the stock is drawn (its order is fixed within the deal),
    the trump card and the phase, leader, player to move and trick state."""
    out[0] = state[L.HAND]
    out[1] = state[L.HAND + 1]
    out[2] = np.uint64(pile_points(state, 0)) | np.uint64(pile_points(state, 1)) << np.uint64(8)
    out[3] = state[L.TRICK_PLAYED]
    out[4] = state[L.TRICK_PLAYED + 1]
    out[5] = state[L.TRICK_TOP]
    out[6] = (state[L.NEXT] | state[L.TRUMP_CARD] << np.uint64(8) | state[L.LEADER] << np.uint64(16)
              | state[L.TO_MOVE] << np.uint64(20) | state[L.PHASE] << np.uint64(24)
              | state[L.TRICK_K] << np.uint64(32) | state[L.TRICK_HOLDER] << np.uint64(36)
              | state[L.STOP_ROUND] << np.uint64(40) | state[L.TRICKS] << np.uint64(44))
    return N_FEATURES


@helper
def bounds(state, params):
    """Bounds on the value: any result, and a margin within what the cards still out can
    change (120 points in the deck); a leader with 31 at his check point can claim and win
    now (BU-CLAIM-1), so his side gets at least that."""
    p0 = pile_points(state, 0)
    p1 = pile_points(state, 1)
    free = 120 - p0 - p1
    worst = OUTCOME * max(2, params[P_FALSE_CLAIM_MULT])
    lo = np.int64(-worst + p0 - p1 - free)
    hi = np.int64(worst + p0 - p1 + free)
    phase = state[L.PHASE]
    if phase == L.PHASE_CHECK or phase == L.PHASE_CLAIM:
        leader = np.int64(state[L.LEADER])
        if pile_points(state, leader) >= L.CLAIM_TARGET:
            if leader == 0:
                lo = max(lo, np.int64(OUTCOME + p0 - p1))
            else:
                hi = min(hi, np.int64(-OUTCOME + p0 - p1))
    return lo, hi


@helper
def move_order(state, params, actions, n, scores):
    """A guess of each move's worth, best first: a claim with 31 in the piles, then beating
    with the fewest points spent, leads of high cards; a claim without 31 last."""
    seat = np.int64(state[L.TO_MOVE])
    mine = pile_points(state, seat)
    for i in range(n):
        a = np.uint64(actions[i])
        kind = kind_of(a, L.KIND_SHIFT)
        cards = value_of(a, L.KIND_SHIFT)
        if kind == L.CLAIM:
            s = 1000 if mine >= L.CLAIM_TARGET else -1000
        elif kind == L.NO_CLAIM:
            s = 0
        elif kind == L.BEAT:
            s = 300 - points(cards)
        elif kind == L.LEAD:
            s = 100 + 10 * popcount(cards) + points(cards)
        else:
            s = -points(cards) - (1 if cards == ZERO else 0)
        scores[i] = s
