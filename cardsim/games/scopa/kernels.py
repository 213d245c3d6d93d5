"""Scopa's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`: the
deal, the legal actions, applying an action, the outcome and the engine's own play loop. The
scoring of a deal is in :mod:`.scoring`, the hidden information in :mod:`.worlds`.

Every kernel takes the state vector (uint64) and the packed params (int64, see
:mod:`.rules`); every card mask is uint64. The rule each kernel implements is the first line of
its docstring; the rules are those of ``../shared/rules/scopa.md``.

Kernels that allocate nothing are compiled with ``_nrt=False``: without numba's reference
counting, the small helpers inlined into them cost no atomic increments per call (measured:
those made legal-move generation about twice as slow). The helpers are LLVM-inlined
(:func:`cardsim.jit.helper`).
"""
import numpy as np

from ... import order as deal_order
from ...actions import next_seat
from ...bits import ONE, ZERO, bit, lowest_index, popcount
from ...jit import helper, kernel
from ...rng import rng_below, rng_next
from .layout import (
    ACTION_CARD_SHIFT,
    CAPTURE_MASK,
    CARD_OF_VALUE_MAJOR,
    DEAL_NUMBER,
    DEALER,
    FULL_DECK,
    HAND,
    KINGS,
    LAST_CAPTURER,
    MODE,
    MODE_MATCH,
    N_CARDS,
    N_CATEGORIES,
    NEXT,
    ORDER,
    PHASE,
    PHASE_DEAL_OVER,
    PHASE_MATCH_OVER,
    PHASE_PLAY,
    PILE,
    REDEALS,
    RNG,
    SCOPE,
    SCORE,
    SPREAD_BY_VALUE,
    STATE_LEN,
    STOCK,
    TABLE,
    TERMINAL,
    TO_MOVE,
    VALUE,
    VALUE_MASK,
)
from .rules import P_EQUAL_PRIORITY, P_HAND_SIZE, P_LAST_MOVE_SCOPA, P_NUM_PLAYERS, P_REDEAL_KINGS
from .scoring import deal_points, match_is_won, score_deal, score_into_match

_CAPTURE_MASK = np.uint64(CAPTURE_MASK)
_SHIFT = np.uint64(ACTION_CARD_SHIFT)


# --- deal order ----------------------------------------------------------------------------

@kernel(inline=True)
def order_card(state, i):
    """The card at position ``i`` of the deal order."""
    return deal_order.order_card(state, ORDER, i)


@kernel(inline=True)
def set_order_card(state, i, card):
    """Write ``card`` at position ``i`` of the deal order."""
    deal_order.set_order_card(state, ORDER, i, card)


@helper
def deal_next(state, n_cards):
    """Take the next ``n_cards`` of the stock, in order; return them as a mask."""
    return deal_order.deal_next(state, ORDER, NEXT, STOCK, n_cards)


# --- the deal ------------------------------------------------------------------------------

@kernel
def is_void_deal(table, params):
    """SC-DEAL-3: three or four kings among the first table cards cancel the deal."""
    return params[P_REDEAL_KINGS] == 1 and popcount(table & KINGS) >= 3


@helper
def deal_hands(state, params):
    """SC-DEAL-5: every player receives ``hand_size`` cards, the first player of the deal first."""
    n = params[P_NUM_PLAYERS]
    seat = np.int64(state[DEALER])
    for _ in range(n):
        seat = next_seat(seat, n)
        state[HAND + seat] = deal_next(state, params[P_HAND_SIZE])


@kernel
def deal(state, params):
    """SC-DEAL-2..4: shuffle, 4 cards to the table, hands dealt, the dealer's next player moves.

    Uses the state's own chance stream; a deal with 3-4 kings on the table is cancelled and
    the same dealer deals again (counted in ``REDEALS``).
    """
    rng = state[RNG:RNG + 4]
    deal_order.reset_order(state, ORDER, N_CARDS)
    while True:
        deal_order.shuffle_order(state, ORDER, N_CARDS, rng)
        state[NEXT] = 0
        state[STOCK] = FULL_DECK
        state[TABLE] = deal_next(state, 4)
        if not is_void_deal(state[TABLE], params):
            break
        state[REDEALS] += ONE
    deal_hands(state, params)
    for side in range(2):
        state[PILE + side] = ZERO
        state[SCOPE + side] = ZERO
    state[LAST_CAPTURER] = ZERO
    state[TO_MOVE] = next_seat(np.int64(state[DEALER]), params[P_NUM_PLAYERS])
    state[PHASE] = PHASE_PLAY


# start/new_deal/new_match stand in every game's kernels alike: the protocol takes them by name
# (spec.Kernels), and one factory in the core would cache them blind to edits of this module.
@kernel
def start(params, rng, out, mode):
    """SC-DEAL-1: a new deal or match with a dealer drawn at random, then SC-DEAL-2..4."""
    out[:] = ZERO
    for k in range(4):
        out[RNG + k] = rng_next(rng)
    out[MODE] = mode
    out[DEAL_NUMBER] = ONE
    out[DEALER] = rng_below(out[RNG:RNG + 4], params[P_NUM_PLAYERS])
    deal(out, params)


@kernel
def new_deal(params, rng, out):
    """One deal (terminal when the deal is scored): SC-DEAL-1..4."""
    start(params, rng, out, 0)


@kernel
def new_match(params, rng, out):
    """A whole match to the target score (SC-MATCH-1..3), starting with SC-DEAL-1..4."""
    start(params, rng, out, MODE_MATCH)


# --- legal actions -------------------------------------------------------------------------

@helper
def by_value(table):
    """The table as a value-major mask: bit ``4 * (value - 1) + suit`` per card, so that
    scanning its bits upwards meets the cards in increasing capture value."""
    ten = np.uint64(0x3FF)
    return (SPREAD_BY_VALUE[table & ten]
            | (SPREAD_BY_VALUE[(table >> np.uint64(10)) & ten] << ONE)
            | (SPREAD_BY_VALUE[(table >> np.uint64(20)) & ten] << np.uint64(2))
            | (SPREAD_BY_VALUE[(table >> np.uint64(30)) & ten] << np.uint64(3)))


@helper
def sum_captures(table_by_value, value, card, out, n):
    """SC-CAPT-4: append every set of 2+ table cards summing to ``value`` as an action.

    Depth-first over the table cards of lower value in increasing value (the value-major mask
    of :func:`by_value`); each set is found once. Because later cards are never lower, a card
    that overshoots ends its branch, and a card is only added when a second card at least as
    high could still fit. The path is kept in one word (6 bits a card, at most ten cards), so
    the search allocates nothing. Returns the new count.
    """
    candidates = table_by_value & ((ONE << np.uint64(4 * (value - 1))) - ONE)
    head = np.uint64(card) << _SHIFT
    chosen = ZERO          # the chosen cards, as a card-index mask
    path = ZERO
    depth = 0
    total = 0
    todo = candidates
    while True:
        if todo:
            i = lowest_index(todo)
            todo &= todo - ONE
            v = (i >> 2) + 1
            if total + v == value:
                if depth:
                    out[n] = np.int64(head | chosen | bit(CARD_OF_VALUE_MAJOR[i]))
                    n += 1
            elif total + v > value:
                todo = ZERO                 # every later card is at least as high
            elif total + 2 * v <= value:    # room for one more card at least as high
                chosen |= bit(CARD_OF_VALUE_MAJOR[i])
                path = (path << np.uint64(6)) | np.uint64(i)
                depth += 1
                total += v
            continue
        if depth == 0:
            return n
        last = np.int64(path & np.uint64(63))
        path >>= np.uint64(6)
        depth -= 1
        chosen ^= bit(CARD_OF_VALUE_MAJOR[last])
        total -= (last >> 2) + 1
        todo = candidates & ~((bit(last) << ONE) - ONE)


@helper
def sort_range(a, lo, hi):
    """Insertion sort of ``a[lo:hi]`` (the few capture options of one card)."""
    for i in range(lo + 1, hi):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@helper
def sum_values(table):
    """SC-CAPT-4 pre-check: bit v is set when 2 or more table cards sum to v (v <= 10).

    A subset-sum bitset over the table, one shift per card, so that a card whose value no
    set of cards adds up to skips the search for the sets themselves.
    """
    single = ZERO      # sums of exactly one card
    several = ZERO     # sums of two or more cards
    limit = np.uint64(0x7FF)
    while table:
        v = np.uint64(VALUE[lowest_index(table)])
        table &= table - ONE
        several = (several | (single << v) | (several << v)) & limit
        single |= ONE << v
    return several


@helper
def capture_options(table, table_by_value, sums, card, params, out, n):
    """SC-CAPT-2..6: the actions of playing ``card`` onto ``table``, appended in sorted order.

    ``table_by_value`` is :func:`by_value` of the table, ``sums`` its :func:`sum_values`.
    An equal card must be taken (one of them, SC-CAPT-2) and, with equal-card priority,
    excludes every sum (SC-CAPT-3); otherwise each sum is an option (SC-CAPT-4). Capturing is
    compulsory (SC-CAPT-5); with no option the card stays on the table (SC-CAPT-6).
    """
    head = np.uint64(card) << _SHIFT
    value = VALUE[card]
    start = n
    equal = table & VALUE_MASK[value]
    while equal:
        out[n] = np.int64(head | (equal & (~equal + ONE)))
        equal &= equal - ONE
        n += 1
    if (n == start or params[P_EQUAL_PRIORITY] == 0) and (sums >> np.uint64(value)) & ONE:
        n = sum_captures(table_by_value, value, card, out, n)
        sort_range(out, start, n)
    if n == start:
        out[n] = np.int64(head)
        n += 1
    return n


@kernel
def legal_actions(state, params, out):
    """SC-CAPT-1, SC-CAPT-8: every (card, capture set) of the player to move, sorted by id."""
    if state[PHASE] != PHASE_PLAY:
        return 0
    hand = state[HAND + state[TO_MOVE]]
    table = state[TABLE]
    table_by_value = by_value(table)
    sums = sum_values(table)
    n = 0
    while hand:
        n = capture_options(table, table_by_value, sums, lowest_index(hand), params, out, n)
        hand &= hand - ONE
    return n


# --- applying an action --------------------------------------------------------------------

@helper
def hands_empty(state, params):
    """True when no player holds a card."""
    m = ZERO
    for seat in range(params[P_NUM_PLAYERS]):
        m |= state[HAND + seat]
    return m == ZERO


@helper
def is_last_move(state, params):
    """SC-SCOPA-3, SC-TEAM-5: after this move the stock and every hand are empty."""
    return state[STOCK] == ZERO and hands_empty(state, params)


@helper
def capture(state, params, side, card, taken):
    """SC-CAPT-7, SC-SCOPA-1..3: move the cards to the side's pile; count a scopa on a sweep."""
    state[TABLE] &= ~taken
    state[PILE + side] |= taken | bit(card)
    state[LAST_CAPTURER] = np.uint64(side + 1)
    if state[TABLE] == ZERO and (params[P_LAST_MOVE_SCOPA] == 1
                                 or not is_last_move(state, params)):
        state[SCOPE + side] += ONE


@kernel
def apply_action(state, params, action):
    """SC-CAPT-1..7: play a card, capture or discard; then refill, or end the deal.

    The action must be legal (the Python API checks it). Advances to the next player
    (SC-DEAL-4, SC-TEAM-2), deals new hands when all are empty (SC-DEAL-5), and ends and
    scores the deal when the pack is played out (SC-END-1).
    """
    a = np.uint64(action)
    card = np.int64(a >> _SHIFT)
    taken = a & _CAPTURE_MASK
    seat = np.int64(state[TO_MOVE])
    side = seat & 1
    state[HAND + seat] &= ~bit(card)
    if taken:
        capture(state, params, side, card, taken)
    else:
        state[TABLE] |= bit(card)
    state[TO_MOVE] = next_seat(seat, params[P_NUM_PLAYERS])
    if hands_empty(state, params):
        if state[STOCK]:
            deal_hands(state, params)
        else:
            end_deal(state, params)


# --- the end of a deal (its scoring: :mod:`.scoring`) -----------------------------------------

@kernel
def end_deal(state, params):
    """SC-END-1, SC-MATCH-3, SC-DEAL-6: the deal is scored into the match score
    (:func:`.scoring.score_into_match`); a match either ends or goes on with the next
    dealer's deal."""
    score_into_match(state, params)
    if state[MODE] != MODE_MATCH:
        state[PHASE] = PHASE_DEAL_OVER
        return
    if match_is_won(state, params):
        state[PHASE] = PHASE_MATCH_OVER
        return
    state[DEALER] = next_seat(np.int64(state[DEALER]), params[P_NUM_PLAYERS])
    state[DEAL_NUMBER] += ONE
    state[REDEALS] = ZERO
    deal(state, params)


# --- outcome -------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """SC-END-1 (a deal) or SC-MATCH-3 (a match): nothing is left to play."""
    return state[PHASE] != PHASE_PLAY


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) when the deal or match is over."""
    if state[PHASE] != PHASE_PLAY:
        return TERMINAL
    return np.int64(state[TO_MOVE])


@kernel
def returns(state, params, out):
    """Per seat: a deal's point difference (own side minus the other), or a match's +1 / -1;
    zeros before the end."""
    out[:] = 0.0
    if state[PHASE] == PHASE_PLAY:
        return
    diff = 0.0
    if state[MODE] == MODE_MATCH:
        diff = 1.0 if state[SCORE] > state[SCORE + 1] else -1.0
    else:
        points = deal_points(state, params)
        diff = float(points[0] - points[1])
    for seat in range(params[P_NUM_PLAYERS]):
        out[seat] = diff if seat & 1 == 0 else 0.0 - diff


# --- the engine's own play loop --------------------------------------------------------------

N_RECORD = 2 * N_CATEGORIES + 3   # per side 5 categories, then dealer, redeals, moves


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, records, max_actions, policy):
    """Play ``n_deals`` deals with uniformly random legal actions; one row per deal
    (``policy`` is empty: Scopa's random player has no parameter).

    Row: side 0's five category points, side 1's five, the dealer seat, the number of redeals
    and the number of moves. Used by ``cardsim simulate`` and ``cardsim bench``.
    """
    state = np.zeros(STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    table = np.zeros((2, N_CATEGORIES), dtype=np.int64)
    for d in range(n_deals):
        new_deal(params, rng, state)
        moves = 0
        while state[PHASE] == PHASE_PLAY:
            n = legal_actions(state, params, actions)
            apply_action(state, params, actions[rng_below(rng, n)])
            moves += 1
        score_deal(state, params, table)
        for c in range(N_CATEGORIES):
            records[d, c] = table[0, c]
            records[d, N_CATEGORIES + c] = table[1, c]
        records[d, 2 * N_CATEGORIES] = np.int64(state[DEALER])
        records[d, 2 * N_CATEGORIES + 1] = np.int64(state[REDEALS])
        records[d, 2 * N_CATEGORIES + 2] = moves
