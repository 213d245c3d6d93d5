"""What the exact (double-dummy) solver needs to know of Minchiate (:mod:`cardsim.solvers.exact`): the
value of a finished deal, what makes two positions equivalent, bounds and a move order — for
**endgames**: positions with at most :data:`MAX_CARDS` cards left in the hands.

A whole deal (21 tricks of four cards) is far beyond a double-dummy search, so the solver,
PIMC and the oracle are not offered for Minchiate; ISMCTS plays a sampled world's last tricks
exactly (``ismcts:exact=K``, K at most :data:`MAX_CARDS`) and ``cardsim solve`` solves an
endgame. Such a position is in the play phase after the first trick: every declaration is
made, and the rest of the deal depends only on the words :func:`features` lists.

Values are integers for side 0, team A (seats 0 and 2; ``side = seat & 1``, rules §1.4): the
deal's net resti of team A (MI-RESTO-3/4), the quantity a deal's returns report.
"""
import numpy as np

from ...compiled.bits import popcount
from ...compiled.jit import helper
from . import layout as L

MAX_CARDS = 20
"""The most cards left in the hands (five tricks) of a position the solver is asked to solve."""
N_FEATURES = 15
_BIAS = np.int64(L.D_BIAS)
_HALF = np.int64(1) << np.int64(31)
BOUND = np.int64(1) << np.int64(20)
"""No cheap bound on the net resti yet: the values' range only (far above any deal's net)."""


@helper
def single_deal(state, params):
    """The solver values the current deal: a match position is solved as a lone deal."""
    state[L.MODE] = L.MODE_DEAL


@helper
def side_of(state, params, seat, root):
    """Rules §1.4: seats 0 and 2 are team A (side 0), seats 1 and 3 team B."""
    return seat & 1


@helper
def deal_value(state, params, root):
    """MI-RESTO-3/4: the finished deal's net resti of team A (``capot`` included)."""
    return np.int64(state[L.NET]) - _BIAS


@helper
def deal_return(value):
    """Side 0's return of a deal of exact value ``value``: the value is team A's net resti,
    the return of seats 0 and 2 (MI-RESTO-4)."""
    return np.float64(value)


@helper
def cards_left(state, params):
    """The cards still in the four hands (MI-PLAY-1: one a trick each)."""
    n = 0
    for w in range(2 * L.N_PLAYERS):
        n += popcount(state[L.HAND + w])
    return n


@helper
def features(state, params, out):
    """The words that identify an endgame position (the play phase after the first trick, no
    declaration still to come): the hands and the teams' piles (MI-END-1..4 score the piles'
    cards and combinations), the current trick's cards, led suit and the suits led before
    (MI-KING-1), leader and player to move, the Matto's team and debt (MI-MATTO-1..3), the
    last trick's winner (MI-END-4), the points difference and the resti made (MI-RESTO-1..3)
    and the tricks each team won (MI-MATTO-3, ``capot``). The public record of the deal (cards
    played, shown, known absent, declared) does not change what is still to happen."""
    for w in range(2 * L.N_PLAYERS):
        out[w] = state[L.HAND + w]
    for w in range(4):
        out[8 + w] = state[L.PILE + w]
    trick = np.uint64(0)
    for seat in range(L.N_PLAYERS):
        trick |= state[L.TRICK_CARD + seat] << np.uint64(7 * seat)
    out[12] = (trick | state[L.LED_SUIT] << np.uint64(28) | state[L.SUITS_LED] << np.uint64(32)
               | state[L.LEADER] << np.uint64(36) | state[L.TO_MOVE] << np.uint64(40)
               | state[L.PHASE] << np.uint64(44) | state[L.MATTO_TEAM] << np.uint64(48)
               | state[L.MATTO_DEBT] << np.uint64(52) | state[L.LAST_WINNER] << np.uint64(56))
    d = np.int64(state[L.D_WORD]) - _BIAS + _HALF
    out[13] = (np.uint64(d) & np.uint64(0xFFFFFFFF) | state[L.RESTI] << np.uint64(32)
               | state[L.RESTI + 1] << np.uint64(48))
    out[14] = (state[L.TRICKS_WON] | state[L.TRICKS_WON + 1] << np.uint64(8)
               | state[L.TRICK_NUMBER] << np.uint64(16) | state[L.MODE] << np.uint64(24))
    return N_FEATURES


@helper
def bounds(state, params):
    """No cheap bounds yet (:data:`BOUND`): the search relies on its table and move order."""
    return -BOUND, BOUND


@helper
def move_order(state, params, actions, n, scores):
    """A guess of each move's worth, best first: trumps by rank above suit cards by rank,
    counting cards a little ahead of others of their strength; the Matto last."""
    for i in range(n):
        card = np.int64(actions[i]) & np.int64(L.VALUE_MASK)
        if card == L.MATTO:
            s = -100
        elif L.SUIT[card] == L.TRUMPS:
            s = 50 + L.STRENGTH[card] + L.VALUE[card]
        else:
            s = L.STRENGTH[card] + L.VALUE[card]
        scores[i] = s
