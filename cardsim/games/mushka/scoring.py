"""Mushka's compiled scoring (numba): what a trick, the ace bonus and the end of a deal write
off or add, and the stop at 0 (MU-SCORE-*, MU-STOP-*, MU-MATCH-*), on the flat state of
:mod:`.layout`.

The kernels of play (:mod:`.kernels`) call these helpers after each trick and at the end of a
deal; each helper's docstring starts with the rule it implements. ``suit_of`` and
``trump_suit`` live here because the ace bonus (MU-SCORE-3) is the lowest layer that needs
them; :mod:`.kernels` and :mod:`.heuristic` import them from here. Last, the row a finished
deal adds to the rows of ``play_random_deals`` (:data:`ROW_COLUMNS`).
"""
import numpy as np

from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper
from . import layout as L
from .rules import (
    P_ACE_BONUS,
    P_BONUS_AT_END,
    P_DECLARED_STOP,
    P_MAX_DEALS,
    P_NUM_PLAYERS,
    P_REMISE,
    P_RESET_TO_START,
    P_START_POINTS,
)


@helper
def suit_of(card):
    """Rules §1: the suit of a card index."""
    return card // 13


@helper
def trump_suit(state):
    """MU-DEAL-3: the suit of the turned card."""
    return suit_of(np.int64(state[L.TRUMP_CARD]))


@helper
def ace_bonus(state, params):
    """MU-SCORE-3: 5 written off for the ace of spades, 10 when spades are trump."""
    return params[P_ACE_BONUS] * (2 if trump_suit(state) == L.SPADES else 1)


# --- the end of a deal and of the game -----------------------------------------------------

@helper
def stop_game(state, seat):
    """MU-STOP-1, MU-MATCH-1: the player at 0 stops and wins; nothing more is scored."""
    state[L.STOPPER] = seat + 1
    state[L.WINNERS] = bit(seat)
    state[L.TO_MOVE] = ZERO
    state[L.PHASE] = L.PHASE_MATCH_OVER if state[L.MODE] == L.MODE_MATCH else L.PHASE_DEAL_OVER


@helper
def finish_deal(state, params):
    """MU-MATCH-2: a deal ends; a match deals again, or ends after ``max_deals`` with the
    lowest records winning."""
    state[L.TO_MOVE] = ZERO
    if state[L.MODE] != L.MODE_MATCH:
        state[L.PHASE] = L.PHASE_DEAL_OVER
        return
    limit = params[P_MAX_DEALS]
    if limit and np.int64(state[L.DEAL_NUMBER]) >= limit:
        n = params[P_NUM_PLAYERS]
        best = np.int64(state[L.RECORD])
        for seat in range(n):
            best = min(best, np.int64(state[L.RECORD + seat]))
        winners = ZERO
        for seat in range(n):
            if np.int64(state[L.RECORD + seat]) == best:
                winners |= bit(seat)
        state[L.WINNERS] = winners
        state[L.PHASE] = L.PHASE_MATCH_OVER
        return
    state[L.PHASE] = L.PHASE_NEXT_DEAL


@helper
def offer_stop(state, seat, at):
    """MU-STOP-4: ``seat``, at 0, is offered the stop; a refusal resumes at ``at``."""
    state[L.PHASE] = L.PHASE_STOP
    state[L.STOP_SEAT] = seat
    state[L.STOP_AT] = at
    state[L.TO_MOVE] = seat


@helper
def reached_zero(state, params, seat, at):
    """MU-STOP-1/4: a record of 0 stops the game (automatic) or offers the stop (declared).
    Returns True when the flow is interrupted."""
    if state[L.RECORD + seat] != ZERO:
        return False
    if params[P_DECLARED_STOP] == 1:
        offer_stop(state, seat, at)
    else:
        stop_game(state, seat)
    return True


@helper
def write_off(state, seat, amount):
    """MU-SCORE-5, MU-STOP-2: a write-off never takes a record below 0 (the clamp)."""
    record = np.int64(state[L.RECORD + seat])
    state[L.RECORD + seat] = max(0, record - amount)


@helper
def win_trick(state, params, seat):
    """MU-SCORE-1, MU-SCORE-3, MU-STOP-3: a trick won writes off 1 at once (a record at 0
    restarts from ``start_points - 1``, or ``start_points``); the holder's first trick also
    writes off the ace bonus (``first_trick``). Returns True when a stop interrupts."""
    if state[L.RECORD + seat] == ZERO:
        state[L.RECORD + seat] = params[P_START_POINTS] - (0 if params[P_RESET_TO_START] else 1)
    else:
        state[L.RECORD + seat] -= ONE
    state[L.TRICKS_WON + seat] += ONE
    if params[P_BONUS_AT_END] == 0 and state[L.TRICKS_WON + seat] == ONE:
        if np.int64(state[L.ACE_HOLDER]) == seat + 1:
            write_off(state, seat, ace_bonus(state, params))
            state[L.BONUS_TAKEN] = ONE
        else:
            state[L.EXCLUDED + seat] |= L.ACE_MASK   # rules §5: no bonus, so no ace
    return reached_zero(state, params, seat, L.AT_PLAY)


@helper
def end_offers(state, params, after):
    """MU-STOP-4: at the end of the deal every player at 0, from the dealer's left, is offered
    the stop (the offers after seat ``after``; -1 = from the start)."""
    n = params[P_NUM_PLAYERS]
    dealer = np.int64(state[L.DEALER])
    start = 1 if after < 0 else (after - dealer - 1 + n) % n + 2   # the dealer is i = n
    for i in range(start, n + 1):
        seat = (dealer + i) % n
        if state[L.RECORD + seat] == ZERO:
            offer_stop(state, seat, L.AT_END)
            return
    finish_deal(state, params)


@helper
def remise(state, params):
    """MU-SCORE-2, MU-SCORE-4: an active player without a trick adds the remise; the ace
    holder without a trick adds 5 more. Then the offers of MU-STOP-4 (declared mode)."""
    n = params[P_NUM_PLAYERS]
    holder = np.int64(state[L.ACE_HOLDER]) - 1
    for seat in range(n):
        if state[L.ACTIVE] & bit(seat) and state[L.TRICKS_WON + seat] == ZERO:
            state[L.RECORD + seat] += params[P_REMISE] + (params[P_ACE_BONUS] if seat == holder
                                                        else 0)
    if params[P_DECLARED_STOP] == 1:
        end_offers(state, params, -1)
    else:
        finish_deal(state, params)


@helper
def end_of_deal(state, params):
    """MU-SCORE-3 (``end_of_deal`` timing), then the remises: the holder with a trick writes
    off the ace bonus; a record of 0 stops (or is offered the stop) before any remise."""
    holder = np.int64(state[L.ACE_HOLDER]) - 1
    if params[P_BONUS_AT_END] == 1 and holder >= 0 and state[L.TRICKS_WON + holder] != ZERO:
        write_off(state, holder, ace_bonus(state, params))
        state[L.BONUS_TAKEN] = ONE
        if reached_zero(state, params, holder, L.AT_BONUS):
            return
    remise(state, params)


# --- the record of a deal ------------------------------------------------------------------

ROW_COLUMNS = (("deal_number", "dealer", "trump", "active", "passes", "stands", "exchanges",
                   "cards_exchanged", "ace_holder", "ace_bonus", "remised", "void", "lone",
                   "stopper", "match_over", "winners", "moves")
                  + tuple(f"tricks_{s}" for s in range(L.MAX_PLAYERS))
                  + tuple(f"change_{s}" for s in range(L.MAX_PLAYERS)))
"""One row per deal of ``play_random_deals`` (games follow each other: a game's first deal has
``deal_number`` 1): masks of seats (``active``, ``passes``, ``stands``, ``remised``, ``winners``), seats
as 1 + seat or 0 (``ace_holder``, ``lone``, ``stopper``), ``match_over`` (1: the game ended
with this deal; the last match of a call may be cut off), tricks and record written off per
seat (``start_record - record``); ``trump`` is the trump suit (0 spades .. 3 hearts)."""


@helper
def deal_row(state, params, row, moves):
    """Fill one row of :data:`ROW_COLUMNS` from a finished deal."""
    n = params[P_NUM_PLAYERS]
    passes = ZERO
    stands = ZERO
    exchanges = 0
    exchanged = 0
    for seat in range(n):
        decision = state[L.DECISION + seat]
        if decision == L.DECIDED_PASS:
            passes |= bit(seat)
        elif decision == L.DECIDED_STAND:
            stands |= bit(seat)
        else:
            exchanges += 1
            exchanged += np.int64(decision) - L.DECIDED_STAND
    void = np.int64(state[L.VOID_DEAL])
    stopper = np.int64(state[L.STOPPER])
    remised = ZERO
    if void == 0 and (stopper == 0 or state[L.STOP_AT] == L.AT_END):
        for seat in range(n):
            if state[L.ACTIVE] & bit(seat) and state[L.TRICKS_WON + seat] == ZERO:
                remised |= bit(seat)
    row[0] = np.int64(state[L.DEAL_NUMBER])
    row[1] = np.int64(state[L.DEALER])
    row[2] = trump_suit(state)
    row[3] = np.int64(state[L.ACTIVE])
    row[4] = np.int64(passes)
    row[5] = np.int64(stands)
    row[6] = exchanges
    row[7] = exchanged
    row[8] = np.int64(state[L.ACE_HOLDER])
    row[9] = np.int64(state[L.BONUS_TAKEN])
    row[10] = np.int64(remised)
    row[11] = void
    row[12] = lowest_index(state[L.ACTIVE]) + 1 if popcount(state[L.ACTIVE]) == 1 and void == 0 \
        else 0
    row[13] = stopper
    row[14] = 1 if state[L.PHASE] == L.PHASE_MATCH_OVER else 0
    row[15] = np.int64(state[L.WINNERS])
    row[16] = moves
    for seat in range(L.MAX_PLAYERS):
        row[17 + seat] = np.int64(state[L.TRICKS_WON + seat]) if seat < n else 0
        row[17 + L.MAX_PLAYERS + seat] = (np.int64(state[L.START_RECORD + seat])
                                        - np.int64(state[L.RECORD + seat])) if seat < n else 0
