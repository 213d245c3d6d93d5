"""Bura's compiled scoring (numba): what the rules score, on the flat state of :mod:`.layout`.

Card points (BU-END-4), the combinations and the results they decide at a check point
(BU-COMBO-1..3, BU-DEAL-5), the claim (BU-CLAIM-1..2), the count after the last card
(BU-END-2), the deal's result (BU-END-1, BU-END-3) and the match's bookkeeping
(BU-MATCH-1..3). The play that leads there is in :mod:`.kernels`; nothing here deals or
calls back into the play.
"""
import numpy as np

from ...compiled.actions import next_seat
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from . import layout as L
from .rules import (
    MATCH_PENALTY_POINTS,
    MATCH_SINGLE_DEAL,
    MATCH_WINS_TO_N,
    P_BURA_OWN_LEAD,
    P_DOUBLE_BURA_VOID,
    P_END_VOID,
    P_FALSE_CLAIM_MULT,
    P_MATCH_FORMAT,
    P_MOLODKA_STOP,
    P_MOSCOW,
    P_NUM_PLAYERS,
    P_PENALTY_LIMIT,
    P_SMALL_MOSCOW,
    P_WINS_TARGET,
)


@helper
def suit_of(card):
    """Rules §1: the suit of a card index."""
    return card // 9


@helper
def highest_index(cards):
    """Index of the highest card of a non-empty set (the strongest within one suit)."""
    top = -1
    while cards:
        top = lowest_index(cards)
        cards &= cards - ONE
    return top


# A table summed over a card set, as other games' scoring and heuristics do over their own tables.
@helper
def points(cards):
    """BU-END-4: the card points of a set of cards."""
    total = 0
    while cards:
        total += L.POINTS[lowest_index(cards)]
        cards &= cards - ONE
    return total


@helper
def pile_points(state, seat):
    """BU-CLAIM-1, BU-END-4: the card points of a seat's pile, face-down cards included."""
    return points(state[L.PILE_UP + seat] | state[L.PILE_DOWN + seat])


# --- combinations (BU-COMBO-*) ---------------------------------------------------------------

@helper
def trump_mask(state):
    """The trump suit (BU-DEAL-3) as a mask."""
    return L.SUIT_MASK[suit_of(np.int64(state[L.TRUMP_CARD]))]


@helper
def has_bura(hand, trumps):
    """BU-COMBO-2: three trumps."""
    return popcount(hand & trumps) == 3


@helper
def has_molodka(hand, trumps):
    """BU-COMBO-5, BU-COMBO-9: three non-trump cards of one suit."""
    for s in range(4):
        if L.SUIT_MASK[s] != trumps and popcount(hand & L.SUIT_MASK[s]) == 3:
            return True
    return False


@helper
def has_moscow(hand, trump_card, variant):
    """BU-COMBO-1: three aces (variant 2: one of them the trump ace)."""
    if variant == 0 or popcount(hand & L.ACES) != 3:
        return False
    trump_ace = bit(suit_of(trump_card) * 9 + 8)
    return variant == 1 or hand & trump_ace != ZERO


@helper
def has_small_moscow(hand, trump_card, variant):
    """BU-COMBO-6: three sixes with the trump six (variant 2: three tens with the trump ten)."""
    if variant == 0:
        return False
    cards = L.SIXES if variant == 1 else L.TENS
    rank = 0 if variant == 1 else 7
    return popcount(hand & cards) == 3 and hand & bit(suit_of(trump_card) * 9 + rank) != ZERO


@helper
def has_active_combination(hand, trump_card, params):
    """BU-DEAL-5: a combination with an effect under the options (bura always)."""
    trumps = L.SUIT_MASK[suit_of(trump_card)]
    return (has_bura(hand, trumps)
            or (params[P_MOLODKA_STOP] == 1 and has_molodka(hand, trumps))
            or has_moscow(hand, trump_card, params[P_MOSCOW])
            or has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW]))


# --- results and the match -------------------------------------------------------------------

@helper
def seat_mask(seat):
    """A one-seat mask."""
    return ONE << np.uint64(seat)


@helper
def all_seats(n):
    """The mask of every seat."""
    return (ONE << np.uint64(n)) - ONE


@kernel(nrt=True)
def match_decided(state, params):
    """BU-MATCH-1..3: has the match been won (or lost) after the scores were updated?"""
    n = params[P_NUM_PLAYERS]
    fmt = params[P_MATCH_FORMAT]
    if fmt == MATCH_SINGLE_DEAL:
        return state[L.RESULT] != L.RESULT_VOID
    if fmt == MATCH_PENALTY_POINTS:
        for seat in range(n):
            if np.int64(state[L.SCORE + seat]) >= params[P_PENALTY_LIMIT]:
                return True
        return False
    for seat in range(n):
        mine = np.int64(state[L.SCORE + seat])
        if mine < params[P_WINS_TARGET]:
            continue
        leads = True
        for other in range(n):
            if other != seat and mine - np.int64(state[L.SCORE + other]) < 2:
                leads = False
        if leads:
            return True
    return False


@kernel(nrt=True)
def update_scores(state, params):
    """BU-MATCH-2..3: wins to the deal's winners, or penalty points to its losers."""
    n = params[P_NUM_PLAYERS]
    if state[L.RESULT] == L.RESULT_VOID:
        return
    mult = state[L.MULTIPLIER]
    for seat in range(n):
        won = state[L.WINNERS] & seat_mask(seat) != ZERO
        if params[P_MATCH_FORMAT] == MATCH_WINS_TO_N and won:
            state[L.SCORE + seat] += mult
        elif params[P_MATCH_FORMAT] == MATCH_PENALTY_POINTS and not won:
            state[L.SCORE + seat] += np.uint64(2) * mult


@kernel(nrt=True)
def next_dealer(state, params):
    """BU-END-6: the deal's winner deals; with several winners the first clockwise from the
    claimant's left; after a void deal the same dealer."""
    n = params[P_NUM_PLAYERS]
    if state[L.RESULT] == L.RESULT_VOID:
        return np.int64(state[L.DEALER])
    seat = np.int64(state[L.LEADER])
    for _ in range(n):
        seat = next_seat(seat, n)
        if state[L.WINNERS] & seat_mask(seat):
            return seat
    return np.int64(state[L.DEALER])


@kernel
def end_deal(state, params, kind, winners, multiplier):
    """BU-END-1, BU-END-3: record the result; a match updates its scores and either ends or
    is marked to deal again (:func:`.kernels.play_on` deals; no kernel calls back into the
    deal, so the compiled code has no recursion)."""
    state[L.RESULT] = kind
    state[L.WINNERS] = winners
    state[L.MULTIPLIER] = multiplier
    state[L.TO_MOVE] = ZERO
    if state[L.MODE] != L.MODE_MATCH:
        state[L.PHASE] = L.PHASE_DEAL_OVER
        return
    update_scores(state, params)
    state[L.PHASE] = L.PHASE_MATCH_OVER if match_decided(state, params) else L.PHASE_NEXT_DEAL


@helper
def combination_wins(state, params):
    """BU-COMBO-1..3: at a check point, an enabled Moscow wins the deal at once, then a bura
    (anyone's, or with ``own_lead`` only the scheduled leader's); two buras: the higher top
    trump wins, or the deal is void. True when the deal ended."""
    n = params[P_NUM_PLAYERS]
    leader = np.int64(state[L.LEADER])
    trump_card = np.int64(state[L.TRUMP_CARD])
    trumps = L.SUIT_MASK[suit_of(trump_card)]
    for seat in range(n):
        if has_moscow(state[L.HAND + seat], trump_card, params[P_MOSCOW]):
            end_deal(state, params, L.RESULT_MOSCOW, seat_mask(seat), ONE)
            return True
    holders = ZERO
    for seat in range(n):
        if has_bura(state[L.HAND + seat], trumps) and (params[P_BURA_OWN_LEAD] == 0
                                                     or seat == leader):
            holders |= seat_mask(seat)
    if holders == ZERO:
        return False
    if popcount(holders) > 1 and params[P_DOUBLE_BURA_VOID] == 1:
        end_deal(state, params, L.RESULT_VOID, ZERO, ZERO)
        return True
    best = -1
    winner = 0
    for seat in range(n):
        if holders & seat_mask(seat):
            top = highest_index(state[L.HAND + seat] & trumps)
            if top > best:
                best = top
                winner = seat
    end_deal(state, params, L.RESULT_BURA, seat_mask(winner), ONE)
    return True


@kernel
def claim(state, params):
    """BU-CLAIM-1..2: count the leader's pile, face-down cards included: 31 or more wins,
    otherwise the claimant loses (double by default)."""
    n = params[P_NUM_PLAYERS]
    seat = np.int64(state[L.LEADER])
    total = pile_points(state, seat)
    state[L.CLAIM_POINTS] = total
    if total >= L.CLAIM_TARGET:
        end_deal(state, params, L.RESULT_CLAIM_WON, seat_mask(seat), ONE)
    else:
        end_deal(state, params, L.RESULT_CLAIM_LOST, all_seats(n) & ~seat_mask(seat),
                 np.uint64(params[P_FALSE_CLAIM_MULT]))


@kernel
def count_piles(state, params):
    """BU-END-2: all cards played and no claim: most points wins; a tie (or the `void`
    option) voids the deal."""
    n = params[P_NUM_PLAYERS]
    if params[P_END_VOID] == 1:
        end_deal(state, params, L.RESULT_VOID, ZERO, ZERO)
        return
    best = -1
    winner = -1
    for seat in range(n):
        total = pile_points(state, seat)
        if total > best:
            best = total
            winner = seat
        elif total == best:
            winner = -1
    if winner < 0:
        end_deal(state, params, L.RESULT_VOID, ZERO, ZERO)
    else:
        end_deal(state, params, L.RESULT_MOST_POINTS, seat_mask(winner), ONE)


@helper
def share_out(losers, n, stake, out):
    """Each loser pays ``stake``; the others share it equally."""
    n_losers = popcount(losers)
    gain = stake * n_losers / (n - n_losers)
    for seat in range(n):
        out[seat] = 0.0 - stake if losers & seat_mask(seat) else gain
