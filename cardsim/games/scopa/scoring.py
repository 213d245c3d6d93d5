"""Scopa's compiled scoring (numba): the points of a deal and how they enter the match.

SC-PRIM-1..3 (primiera), SC-SCORE-1..6 (the five categories and the deal's total), SC-END-2..3
(the left-over table cards) and SC-MATCH-2..3 (the match score and its end), on the flat state
of :mod:`.layout`. :func:`.kernels.end_deal` calls them when the pack is played out.
"""
import numpy as np

from ...compiled.bits import ONE, ZERO, lowest_index, popcount
from ...compiled.jit import helper, kernel
from . import layout as L
from .rules import P_LEFTOVER_TO_CAPTURER, P_PRIMIERA_FORFEIT, P_TARGET_SCORE


@kernel(inline=True)
def primiera_total(pile, forfeit):
    """SC-PRIM-1..2: sum of the best primiera value per suit; a missing suit gives 0, or -1
    for the whole total when the forfeit variant is on (that side cannot win)."""
    total = 0
    for s in range(4):
        cards = pile & L.SUIT_MASK[s]
        if cards == ZERO:
            if forfeit:
                return -1
            continue
        best = 0
        while cards:
            best = max(best, L.PRIMIERA[lowest_index(cards)])
            cards &= cards - ONE
        total += best
    return total


@helper
def point_to_more(a, b):
    """SC-SCORE-1..4: one point to the side with the larger figure; a tie gives none."""
    return (1 if a > b else 0), (1 if b > a else 0)


@helper
def category_points(state, params):
    """SC-SCORE-1..5: the points of (cards, coins, settebello, primiera, scopas), each a pair
    (side 0, side 1), from the current piles and scopa counts."""
    p0 = state[L.PILE]
    p1 = state[L.PILE + 1]
    forfeit = params[P_PRIMIERA_FORFEIT] == 1
    settebello = np.uint64(L.SETTEBELLO)
    return (point_to_more(popcount(p0), popcount(p1)),
            point_to_more(popcount(p0 & L.COINS), popcount(p1 & L.COINS)),
            point_to_more((p0 >> settebello) & ONE, (p1 >> settebello) & ONE),
            point_to_more(primiera_total(p0, forfeit), primiera_total(p1, forfeit)),
            (np.int64(state[L.SCOPE]), np.int64(state[L.SCOPE + 1])))


@kernel
def score_deal(state, params, out):
    """SC-SCORE-1..5: per side (rows) the points of the five categories (columns of
    ``layout.CATEGORIES``: cards, coins, settebello, primiera, scopas) of the current piles."""
    points = category_points(state, params)
    out[0, 0], out[1, 0] = points[0]
    out[0, 1], out[1, 1] = points[1]
    out[0, 2], out[1, 2] = points[2]
    out[0, 3], out[1, 3] = points[3]
    out[0, 4], out[1, 4] = points[4]


@helper
def deal_points(state, params):
    """SC-SCORE-6: the total points of the deal, (side 0, side 1)."""
    c = category_points(state, params)
    return (c[0][0] + c[1][0] + c[2][0] + c[3][0] + c[4][0],
            c[0][1] + c[1][1] + c[2][1] + c[3][1] + c[4][1])


@helper
def score_into_match(state, params):
    """SC-END-2..3, SC-SCORE-6, SC-MATCH-2: the left-over table cards go to the last
    capturer's pile (option; with no capturer they stay unowned), then the deal's points are
    added to the match score."""
    if state[L.TABLE] and state[L.LAST_CAPTURER] and params[P_LEFTOVER_TO_CAPTURER] == 1:
        state[L.PILE + state[L.LAST_CAPTURER] - ONE] |= state[L.TABLE]
        state[L.TABLE] = ZERO
    points = deal_points(state, params)
    state[L.SCORE] += np.uint64(points[0])
    state[L.SCORE + 1] += np.uint64(points[1])


@helper
def match_is_won(state, params):
    """SC-MATCH-3: a side has reached the target score with more points than the other (equal
    scores at or above the target: another deal, tie_at_target=extra_deal)."""
    a = np.int64(state[L.SCORE])
    b = np.int64(state[L.SCORE + 1])
    return max(a, b) >= params[P_TARGET_SCORE] and a != b
