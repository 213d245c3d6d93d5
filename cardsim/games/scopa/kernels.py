"""Scopa's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`: the
deal, the legal actions, applying an action, the outcome and the engine's own play loop. The
scoring of a deal is in :mod:`.scoring`, the hidden information in :mod:`.worlds`.

Every kernel takes the state vector (uint64) and the packed params (int64, see
:mod:`.rules`); every card mask is uint64. The rule each kernel implements is the first line of
its docstring; the rules are those of ``../shared/rules/scopa.md``.

Kernels that allocate nothing are compiled with ``_nrt=False``: without numba's reference
counting, the small helpers inlined into them cost no atomic increments per call (measured:
those made legal-move generation about twice as slow). The helpers are LLVM-inlined
(:func:`cardsim.compiled.jit.helper`).
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled import turns
from ...compiled.actions import next_seat
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, seed_stream
from . import layout as L
from .rules import P_EQUAL_PRIORITY, P_HAND_SIZE, P_LAST_MOVE_SCOPA, P_NUM_PLAYERS, P_REDEAL_KINGS
from .scoring import deal_points, match_is_won, score_deal, score_into_match

_CAPTURE_MASK = np.uint64(L.CAPTURE_MASK)
_SHIFT = np.uint64(L.ACTION_CARD_SHIFT)


# --- deal order ----------------------------------------------------------------------------

@kernel(inline=True)
def order_card(state, i):
    """The card at position ``i`` of the deal order."""
    return deal_order.order_card(state, L.ORDER, i)


@kernel(inline=True)
def set_order_card(state, i, card):
    """Write ``card`` at position ``i`` of the deal order."""
    deal_order.set_order_card(state, L.ORDER, i, card)


@helper
def deal_next(state, n_cards):
    """Take the next ``n_cards`` of the stock, in order; return them as a mask."""
    return deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, n_cards)


# --- the deal ------------------------------------------------------------------------------

@kernel
def is_void_deal(table, params):
    """SC-DEAL-3: three or four kings among the first table cards cancel the deal."""
    return params[P_REDEAL_KINGS] == 1 and popcount(table & L.KINGS) >= 3


@helper
def deal_hands(state, params):
    """SC-DEAL-5: every player receives ``hand_size`` cards, the first player of the deal first."""
    n = params[P_NUM_PLAYERS]
    seat = np.int64(state[L.DEALER])
    for _ in range(n):
        seat = next_seat(seat, n)
        state[L.HAND + seat] = deal_next(state, params[P_HAND_SIZE])


@kernel
def deal(state, params):
    """SC-DEAL-2..4: shuffle, 4 cards to the table, hands dealt, the dealer's next player moves.

    Uses the state's own chance stream; a deal with 3-4 kings on the table is cancelled and
    the same dealer deals again (counted in ``REDEALS``).
    """
    rng = state[L.RNG:L.RNG + 4]
    deal_order.reset_order(state, L.ORDER, L.N_CARDS)
    while True:
        deal_order.shuffle_order(state, L.ORDER, L.N_CARDS, rng)
        if deal_cards(state, params):
            break
        state[L.REDEALS] += ONE


@kernel
def deal_cards(state, params):
    """SC-DEAL-2..5: the deal of the order the state holds (``deal`` after its shuffle): 4
    cards to the table, the hands, the dealer's next player moves. False, and the deal left
    unfinished, when the table cancels it (SC-DEAL-3)."""
    state[L.NEXT] = 0
    state[L.STOCK] = L.FULL_DECK
    state[L.TABLE] = deal_next(state, 4)
    if is_void_deal(state[L.TABLE], params):
        return False
    deal_hands(state, params)
    for side in range(2):
        state[L.PILE + side] = ZERO
        state[L.SCOPE + side] = ZERO
    state[L.LAST_CAPTURER] = ZERO
    state[L.TO_MOVE] = next_seat(np.int64(state[L.DEALER]), params[P_NUM_PLAYERS])
    state[L.PHASE] = L.PHASE_PLAY
    return True


@kernel
def start(params, rng, out, mode):
    """SC-DEAL-1: a dealer drawn at random, then SC-DEAL-2..4. ``mode`` 0 is one deal (terminal
    when the deal is scored), ``L.MODE_MATCH`` a whole match to the target score
    (SC-MATCH-1..3)."""
    out[:] = ZERO
    seed_stream(out, L.RNG, rng)
    out[L.MODE] = mode
    out[L.DEAL_NUMBER] = ONE
    out[L.DEALER] = rng_below(out[L.RNG:L.RNG + 4], params[P_NUM_PLAYERS])
    deal(out, params)



# --- legal actions -------------------------------------------------------------------------

@helper
def by_value(table):
    """The table as a value-major mask: bit ``4 * (value - 1) + suit`` per card, so that
    scanning its bits upwards meets the cards in increasing capture value."""
    ten = np.uint64(0x3FF)
    return (L.SPREAD_BY_VALUE[table & ten]
            | (L.SPREAD_BY_VALUE[(table >> np.uint64(10)) & ten] << ONE)
            | (L.SPREAD_BY_VALUE[(table >> np.uint64(20)) & ten] << np.uint64(2))
            | (L.SPREAD_BY_VALUE[(table >> np.uint64(30)) & ten] << np.uint64(3)))


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
                    out[n] = np.int64(head | chosen | bit(L.CARD_OF_VALUE_MAJOR[i]))
                    n += 1
            elif total + v > value:
                todo = ZERO                 # every later card is at least as high
            elif total + 2 * v <= value:    # room for one more card at least as high
                chosen |= bit(L.CARD_OF_VALUE_MAJOR[i])
                path = (path << np.uint64(6)) | np.uint64(i)
                depth += 1
                total += v
            continue
        if depth == 0:
            return n
        last = np.int64(path & np.uint64(63))
        path >>= np.uint64(6)
        depth -= 1
        chosen ^= bit(L.CARD_OF_VALUE_MAJOR[last])
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
        v = np.uint64(L.VALUE[lowest_index(table)])
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
    value = L.VALUE[card]
    start = n
    equal = table & L.VALUE_MASK[value]
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
    if state[L.PHASE] != L.PHASE_PLAY:
        return 0
    hand = state[L.HAND + state[L.TO_MOVE]]
    table = state[L.TABLE]
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
        m |= state[L.HAND + seat]
    return m == ZERO


@helper
def is_last_move(state, params):
    """SC-SCOPA-3, SC-TEAM-5: after this move the stock and every hand are empty."""
    return state[L.STOCK] == ZERO and hands_empty(state, params)


@helper
def capture(state, params, side, card, taken):
    """SC-CAPT-7, SC-SCOPA-1..3: move the cards to the side's pile; count a scopa on a sweep."""
    state[L.TABLE] &= ~taken
    state[L.PILE + side] |= taken | bit(card)
    state[L.LAST_CAPTURER] = np.uint64(side + 1)
    if state[L.TABLE] == ZERO and (params[P_LAST_MOVE_SCOPA] == 1
                                 or not is_last_move(state, params)):
        state[L.SCOPE + side] += ONE


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
    seat = np.int64(state[L.TO_MOVE])
    side = seat & 1
    state[L.HAND + seat] &= ~bit(card)
    if taken:
        capture(state, params, side, card, taken)
    else:
        state[L.TABLE] |= bit(card)
    state[L.TO_MOVE] = next_seat(seat, params[P_NUM_PLAYERS])
    if hands_empty(state, params):
        if state[L.STOCK]:
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
    if state[L.MODE] != L.MODE_MATCH:
        state[L.PHASE] = L.PHASE_DEAL_OVER
        return
    if match_is_won(state, params):
        state[L.PHASE] = L.PHASE_MATCH_OVER
        return
    state[L.DEALER] = next_seat(np.int64(state[L.DEALER]), params[P_NUM_PLAYERS])
    state[L.DEAL_NUMBER] += ONE
    state[L.REDEALS] = ZERO
    deal(state, params)


# --- outcome -------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """SC-END-1 (a deal) or SC-MATCH-3 (a match): nothing is left to play."""
    return turns.is_over(state, L.PHASE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
    return turns.seat_to_move(state, L.PHASE, L.TO_MOVE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def returns(state, params, out):
    """Per seat: a deal's point difference (own side minus the other), or a match's +1 / -1;
    zeros before the end."""
    out[:] = 0.0
    if state[L.PHASE] == L.PHASE_PLAY:
        return
    diff = 0.0
    if state[L.MODE] == L.MODE_MATCH:
        diff = 1.0 if state[L.SCORE] > state[L.SCORE + 1] else -1.0
    else:
        points = deal_points(state, params)
        diff = float(points[0] - points[1])
    for seat in range(params[P_NUM_PLAYERS]):
        out[seat] = diff if seat & 1 == 0 else 0.0 - diff


# --- the engine's own play loop --------------------------------------------------------------

N_ROW = 2 * L.N_CATEGORIES + 3   # per side 5 categories, then dealer, redeals, moves


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, rows, max_actions, policy, carry):
    """Play ``n_deals`` deals with uniformly random legal actions; one row per deal
    (``policy`` is empty: Scopa's random player has no parameter).

    Row: side 0's five category points, side 1's five, the dealer seat, the number of redeals
    and the number of moves. Used by ``cardsim simulate`` and ``cardsim bench``.
    """
    state = np.zeros(L.STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    table = np.zeros((2, L.N_CATEGORIES), dtype=np.int64)
    for d in range(n_deals):
        start(params, rng, state, 0)
        moves = 0
        while state[L.PHASE] == L.PHASE_PLAY:
            n = legal_actions(state, params, actions)
            apply_action(state, params, actions[rng_below(rng, n)])
            moves += 1
        score_deal(state, params, table)
        for c in range(L.N_CATEGORIES):
            rows[d, c] = table[0, c]
            rows[d, L.N_CATEGORIES + c] = table[1, c]
        rows[d, 2 * L.N_CATEGORIES] = np.int64(state[L.DEALER])
        rows[d, 2 * L.N_CATEGORIES + 1] = np.int64(state[L.REDEALS])
        rows[d, 2 * L.N_CATEGORIES + 2] = moves
