"""What the exact solver needs to know of Mushka (:mod:`cardsim.solvers.exact`): a **paranoid** search
of the deal's end, for **endgames** — positions with at most :data:`MAX_CARDS` cards left.

Mushka has 3 to 7 players, each for himself, and its scores are not zero-sum, so no two-sided
value exists. The solver searches it paranoid (Sturtevant & Korf 2000): the seat it searches
for (the *root*, by default the player to move) against a coalition of every other seat, which
plays to make the root's result as bad as it can be. The value is the root's result of the
deal: the record it writes off (``start_record - record``: +1 a trick, the ace bonus, -5 a
remise; MU-SCORE-1..5, MU-STOP-1..3), what a deal's return reports. It is a lower bound on
what the root can make of the position whatever the others do.

A whole deal (the exchange, where each of up to seven players picks one of 33 moves and
draws from the stock, then up to 35 cards of play) is beyond the search, so PIMC and the
oracle are not offered; ``cardsim solve`` solves an endgame and ISMCTS plays a sampled
world's last cards exactly for its own seat (``ismcts:exact=K``, K at most
:data:`MAX_CARDS`). With 3 to 5 players every position of the play is such an endgame.
"""
import numpy as np

from ...compiled.bits import lowest_index, popcount
from ...compiled.jit import helper
from . import layout as L
from .rules import P_ACE_BONUS, P_DECLARED_STOP, P_NUM_PLAYERS, P_REMISE

MAX_CARDS = 25
"""The most cards left (hands, and in the exchange the stock) of a position the solver is
asked to solve: five players' five tricks."""
N_FEATURES = 13
BOUND = np.int64(1) << np.int64(20)
"""The values' range (far above any deal's record written off)."""
_SIX = np.uint64(0x3F)


@helper
def single_deal(state, params):
    """The solver values the current deal: a game position is solved as a lone deal."""
    state[L.MODE] = L.MODE_DEAL


@helper
def side_of(state, params, seat, root):
    """Paranoid: the root alone is side 0, every other seat side 1."""
    return 0 if seat == root else 1


@helper
def deal_value(state, params, root):
    """MU-SCORE-1..5, MU-STOP-1..3: the record the root wrote off in the finished deal."""
    return np.int64(state[L.START_RECORD + root]) - np.int64(state[L.RECORD + root])


@helper
def deal_return(value):
    """The root's return of a deal of exact value ``value``: the record written off."""
    return np.float64(value)


@helper
def cards_left(state, params):
    """The cards still in play: in the play phase (MU-PLAY-1) the active players' hands; in
    the exchange (MU-EXCH-1..6) every hand not passed and the stock, which it may draw."""
    n = 0
    phase = state[L.PHASE]
    if phase == L.PHASE_DEAL_OVER or phase == L.PHASE_MATCH_OVER:
        return 0
    exchanging = phase == L.PHASE_EXCHANGE or phase == L.PHASE_DISCARD
    for seat in range(L.MAX_PLAYERS):
        if exchanging:
            if state[L.DECISION + seat] != L.DECIDED_PASS:
                n += popcount(state[L.HAND + seat])
        elif state[L.ACTIVE] & (np.uint64(1) << np.uint64(seat)):
            n += popcount(state[L.HAND + seat])
    if exchanging:
        n += popcount(state[L.STOCK])
    return n


@helper
def features(state, params, out):
    """The words that identify a position of the deal: the hands and the stock, the current
    trick's cards, leader and player to move, the phase and where a declined stop resumes
    (MU-STOP-4), the ace's holder and whether its bonus was taken (MU-SCORE-3), the tricks
    played, won and still to credit to a lone player (MU-PASS-3), each seat's exchange
    decision, the active seats and the stock's next card, the stop offered and made, a void
    deal, the turned card taken, the winners and every record (MU-STOP-1..3 read them). What
    is fixed within a deal (dealer, trump, the stock's order, the records it began with) and
    the public record (cards played, known absent, discards) do not change what is still to
    happen."""
    for seat in range(L.MAX_PLAYERS):
        out[seat] = state[L.HAND + seat]
    trick = np.uint64(0)
    won = np.uint64(0)
    decided = np.uint64(0)
    for seat in range(L.MAX_PLAYERS):
        trick |= (state[L.TRICK_CARD + seat] & _SIX) << np.uint64(6 * seat)
        won |= state[L.TRICKS_WON + seat] << np.uint64(3 * seat)
        decided |= state[L.DECISION + seat] << np.uint64(3 * seat)
    out[7] = (trick | state[L.LEADER] << np.uint64(42) | state[L.TO_MOVE] << np.uint64(45)
              | state[L.PHASE] << np.uint64(48) | state[L.BONUS_TAKEN] << np.uint64(51)
              | state[L.ACE_HOLDER] << np.uint64(52) | state[L.TRICK_NUMBER] << np.uint64(55)
              | state[L.LONE_LEFT] << np.uint64(58) | state[L.STOP_AT] << np.uint64(61))
    out[8] = (won | decided << np.uint64(21) | state[L.ACTIVE] << np.uint64(42)
              | state[L.NEXT] << np.uint64(49) | state[L.STOP_SEAT] << np.uint64(55)
              | state[L.STOPPER] << np.uint64(58) | state[L.VOID_DEAL] << np.uint64(62)
              | state[L.TRUMP_TAKEN] << np.uint64(63))
    out[9] = state[L.WINNERS] | state[L.MODE] << np.uint64(8)
    out[10] = np.uint64(0)
    out[11] = np.uint64(0)
    for seat in range(L.MAX_PLAYERS):
        word = 10 + seat // 4
        out[word] |= (state[L.RECORD + seat] & np.uint64(0xFFFF)) << np.uint64(16 * (seat % 4))
    out[12] = state[L.STOCK]
    return N_FEATURES


@helper
def bounds(state, params):
    """Bounds on any seat's result, so on the root's whatever it is: what a seat has written
    off so far moves, by the deal's end, down at most by a remise with the ace (MU-SCORE-2/4)
    and up at most by a trick for each one still to play and the ace bonus (MU-SCORE-1/3; the
    clamp, MU-STOP-2, only lowers it). With ``stop_mode=declared`` a record can start again
    from 25 (MU-STOP-3): the values' range only (:data:`BOUND`)."""
    if params[P_DECLARED_STOP] == 1:
        return -BOUND, BOUND
    low = BOUND
    high = -BOUND
    for seat in range(params[P_NUM_PLAYERS]):
        done = np.int64(state[L.START_RECORD + seat]) - np.int64(state[L.RECORD + seat])
        low = min(low, done)
        high = max(high, done)
    bonus = 2 * np.int64(params[P_ACE_BONUS])
    left = np.int64(L.TRICKS_PER_DEAL) - np.int64(state[L.TRICK_NUMBER])
    return low - np.int64(params[P_REMISE]) - bonus, high + left + bonus


@helper
def move_order(state, params, actions, n, scores):
    """A guess of each move's worth, best first: trumps by rank above other cards by rank
    (the ace of spades as a trump's equal); a stop first; standing before exchanging fewer
    cards before more, passing last; the dealer's lowest card discarded first."""
    trump = np.int64(state[L.TRUMP_CARD]) // 13
    for i in range(n):
        kind = np.int64(actions[i]) >> np.int64(L.KIND_SHIFT)
        cards = np.uint64(actions[i]) & np.uint64(L.CARDS_MASK)
        s = 0
        if kind == L.PLAY:
            card = lowest_index(cards)
            s = card % 13 + (20 if card // 13 == trump or card == L.ACE_OF_SPADES else 0)
        elif kind == L.STOP:
            s = 100
        elif kind == L.STAND:
            s = 50
        elif kind == L.EXCHANGE:
            s = 40 - popcount(cards)
        elif kind == L.DISCARD:
            s = -(lowest_index(cards) % 13)
        scores[i] = s
