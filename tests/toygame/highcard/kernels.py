"""High card's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`.

The rules, in full: two players, a deck of 12 cards (ranks 2..7 in two suits). HC-DEAL-1: the
first dealer is drawn by lot, later deals of a match pass the deal to the other player.
HC-DEAL-2: the dealer's opponent gets three cards, then the dealer three; six stay in the
stock. HC-TRICK-1: the dealer's opponent leads the first trick, the other plays any card; the
higher rank wins, HC-TRICK-2: of two equal ranks the leader wins (``ties=suit``: the higher
suit, black over red). HC-TRICK-3: the winner takes both cards, draws from the stock first
(while it lasts) and leads the next trick. HC-END-1: after six tricks each player's return is
his tricks minus the other's. HC-MATCH-1: a match is won by the first to win ``match_wins``
deals; a deal of three tricks each goes to the winner of its last trick.
"""
import numpy as np

from cardsim.compiled import order as deal_order
from cardsim.compiled import turns
from cardsim.compiled.actions import next_seat
from cardsim.compiled.bits import ONE, ZERO, bit, indices_of, popcount
from cardsim.compiled.jit import helper, kernel
from cardsim.compiled.rng import rng_below, seed_stream

from . import layout as L
from .rules import P_MATCH_WINS, P_SUIT_BREAKS_TIES

ROW_COLUMNS = ("tricks0", "tricks1", "dealer", "moves")


@helper
def draw(state, seat):
    """Move the next card of the stock into ``seat``'s hand."""
    state[L.HAND + seat] |= deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, 1)


@kernel
def deal_cards(state, params):
    """HC-DEAL-2: the deal of the order the state holds: three cards to the dealer's opponent,
    three to the dealer, who is then led to (HC-TRICK-1). Never a redeal: True."""
    dealer = np.int64(state[L.DEALER])
    first = next_seat(dealer, L.N_PLAYERS)
    state[L.NEXT] = ZERO
    state[L.STOCK] = L.FULL_DECK
    state[L.HAND + first] = deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, L.HAND_SIZE)
    state[L.HAND + dealer] = deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, L.HAND_SIZE)
    for seat in range(L.N_PLAYERS):
        state[L.PILE + seat] = ZERO
    state[L.TRICK_CARD] = ZERO
    state[L.LEADER] = first
    state[L.TO_MOVE] = first
    state[L.PHASE] = L.PHASE_PLAY
    return True


@kernel
def deal(state, params):
    """HC-DEAL-2: shuffle the whole deck with the state's own chance stream, then deal it."""
    deal_order.reset_order(state, L.ORDER, L.N_CARDS)
    deal_order.shuffle_order(state, L.ORDER, L.N_CARDS, state[L.RNG:L.RNG + 4])
    deal_cards(state, params)


@kernel
def start(params, rng, out, mode):
    """HC-DEAL-1: the first dealer drawn by lot, then the first deal. ``mode`` 0 is one deal,
    ``L.MODE_MATCH`` a whole match (HC-MATCH-1)."""
    out[:] = ZERO
    seed_stream(out, L.RNG, rng)
    out[L.MODE] = mode
    out[L.DEAL_NUMBER] = ONE
    out[L.DEALER] = rng_below(out[L.RNG:L.RNG + 4], L.N_PLAYERS)
    deal(out, params)


@kernel
def legal_actions(state, params, out):
    """HC-TRICK-1: any card of the hand of the player to move, in index order."""
    if state[L.PHASE] != L.PHASE_PLAY:
        return 0
    return indices_of(state[L.HAND + state[L.TO_MOVE]], out)


@helper
def beats(card, led, params):
    """HC-TRICK-2: ``card`` beats the ``led`` card: a higher rank, or with ``ties=suit`` the
    same rank in the higher suit."""
    rank, led_rank = card % 6, led % 6
    return rank > led_rank or (rank == led_rank and params[P_SUIT_BREAKS_TIES] == 1
                               and card > led)


@helper
def tricks(state, seat):
    """The tricks ``seat`` won in this deal."""
    return popcount(state[L.PILE + seat]) // 2


@kernel
def apply_action(state, params, action):
    """HC-TRICK-1..3: lead, or follow and settle the trick; HC-END-1 at the deal's end. The
    action must be legal (the Python API checks it)."""
    seat = np.int64(state[L.TO_MOVE])
    state[L.HAND + seat] &= ~bit(action)
    if state[L.TRICK_CARD] == ZERO:
        state[L.TRICK_CARD] = np.uint64(action + 1)
        state[L.TO_MOVE] = next_seat(seat, L.N_PLAYERS)
        return
    led = np.int64(state[L.TRICK_CARD]) - 1
    winner = seat if beats(action, led, params) else np.int64(state[L.LEADER])
    state[L.PILE + winner] |= bit(action) | bit(led)
    state[L.TRICK_CARD] = ZERO
    if state[L.STOCK]:
        draw(state, winner)
        draw(state, next_seat(winner, L.N_PLAYERS))
    state[L.LEADER] = winner
    state[L.TO_MOVE] = winner
    if state[L.HAND + winner] == ZERO:
        end_deal(state, params)


@helper
def deal_winner(state):
    """HC-MATCH-1: the seat with more tricks, the last trick's winner at three each."""
    t0, t1 = tricks(state, 0), tricks(state, 1)
    if t0 == t1:
        return np.int64(state[L.LEADER])
    return 0 if t0 > t1 else 1


@kernel
def end_deal(state, params):
    """HC-END-1, HC-MATCH-1: one deal ends; a match counts its winner's deal and either ends or
    goes on with the other player's deal (HC-DEAL-1)."""
    if state[L.MODE] != L.MODE_MATCH:
        state[L.PHASE] = L.PHASE_DEAL_OVER
        return
    winner = deal_winner(state)
    state[L.SCORE + winner] += ONE
    if state[L.SCORE + winner] >= np.uint64(params[P_MATCH_WINS]):
        state[L.PHASE] = L.PHASE_MATCH_OVER
        return
    state[L.DEALER] = next_seat(np.int64(state[L.DEALER]), L.N_PLAYERS)
    state[L.DEAL_NUMBER] += ONE
    deal(state, params)


@kernel
def is_terminal(state, params):
    """HC-END-1 (a deal) or HC-MATCH-1 (a match): nothing is left to play."""
    return turns.is_over(state, L.PHASE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
    return turns.seat_to_move(state, L.PHASE, L.TO_MOVE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def returns(state, params, out):
    """Per seat: a deal's tricks minus the other's (HC-END-1), a match's +1 / -1 (HC-MATCH-1);
    zeros before the end."""
    out[:] = 0.0
    if state[L.PHASE] == L.PHASE_PLAY:
        return
    if state[L.MODE] == L.MODE_MATCH:
        diff = 1.0 if state[L.SCORE] > state[L.SCORE + 1] else -1.0
    else:
        diff = float(tricks(state, 0) - tricks(state, 1))
    out[0] = diff
    out[1] = 0.0 - diff


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, rows, max_actions, policy, carry):
    """Play ``n_deals`` deals with uniformly random legal actions (``policy`` is empty); one
    row per deal: the tricks of seat 0 and seat 1, the dealer and the number of moves."""
    state = np.zeros(L.STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    for d in range(n_deals):
        start(params, rng, state, L.MODE_DEAL)
        moves = 0
        while state[L.PHASE] == L.PHASE_PLAY:
            n = legal_actions(state, params, actions)
            apply_action(state, params, actions[rng_below(rng, n)])
            moves += 1
        rows[d, 0] = tricks(state, 0)
        rows[d, 1] = tricks(state, 1)
        rows[d, 2] = np.int64(state[L.DEALER])
        rows[d, 3] = moves
