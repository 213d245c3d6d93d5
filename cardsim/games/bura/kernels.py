"""Bura's compiled play (numba), one kernel per rule, on the flat state of :mod:`.layout`.

Every kernel takes the state vector (uint64) and the packed params (int64, see :mod:`.rules`);
card masks are uint64. The rule each kernel implements is the first line of its docstring; the
rules are those of ``../shared/rules/bura.md``. Kernels that allocate nothing are compiled with
``_nrt=False`` (no reference counting: see the Scopa kernels), their helpers inline. The deal,
the check points, legal actions and applying them are here; what the rules score (card points,
combinations, the claim, the count, the match) is in :mod:`.scoring`, hidden information
(``determinize``, ``observed_action``) in :mod:`.worlds`.
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled import turns
from ...compiled.actions import action_id, kind_of, next_seat, value_of
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, rng_next, seed_stream
from . import layout as L
from .rules import (
    FACEDOWN_CHOICE,
    FACEDOWN_OFF,
    MATCH_PENALTY_POINTS,
    MATCH_SINGLE_DEAL,
    MATCH_WINS_TO_N,
    P_FACEDOWN,
    P_INITIAL_REDEAL,
    P_LEFT_OF_DEALER,
    P_MATCH_FORMAT,
    P_MOLODKA_STOP,
    P_NUM_PLAYERS,
    P_PENALTY_LIMIT,
    P_SMALL_MOSCOW,
)
from .scoring import (
    all_seats,
    claim,
    combination_wins,
    count_piles,
    has_active_combination,
    has_molodka,
    has_small_moscow,
    next_dealer,
    seat_mask,
    share_out,
    suit_of,
    trump_mask,
)

# --- Stop rounds (BU-COMBO-5..7) --------------------------------------------------------------

@helper
def may_stop(state, params, seat):
    """BU-COMBO-5..6: may this non-leader call Stop in the current Stop round? In the
    small-Moscow round (asked first) with a small Moscow, in the molodka round with a molodka.
    Only his own hand decides; whether the leader refuses is settled when the call is made."""
    trump_card = np.int64(state[L.TRUMP_CARD])
    hand = state[L.HAND + seat]
    if state[L.STOP_ROUND] == L.STOP_SMALL_MOSCOW:
        return has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW])
    return params[P_MOLODKA_STOP] == 1 and has_molodka(hand, L.SUIT_MASK[suit_of(trump_card)])


@helper
def refuses_stop(state, params):
    """BU-COMBO-5: the scheduled leader refuses a molodka Stop when he holds a molodka or a
    small Moscow himself (he shows it: see ``REVEALED``)."""
    trump_card = np.int64(state[L.TRUMP_CARD])
    hand = state[L.HAND + np.int64(state[L.LEADER])]
    return (state[L.STOP_ROUND] == L.STOP_MOLODKA
            and (has_molodka(hand, L.SUIT_MASK[suit_of(trump_card)])
                 or has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW])))


@helper
def first_stop_round(params):
    """BU-COMBO-6..7: the first Stop round under the options."""
    return L.STOP_SMALL_MOSCOW if params[P_SMALL_MOSCOW] != 0 else L.STOP_MOLODKA


@helper
def next_asked(state, params, seat):
    """BU-COMBO-7: after ``seat`` passes, the next non-leader clockwise, then the molodka
    round (if on), then the leader leads."""
    n = params[P_NUM_PLAYERS]
    leader = np.int64(state[L.LEADER])
    nxt = next_seat(seat, n)
    if nxt == leader:
        if state[L.STOP_ROUND] == L.STOP_SMALL_MOSCOW and params[P_MOLODKA_STOP] == 1:
            state[L.STOP_ROUND] = L.STOP_MOLODKA
            state[L.TO_MOVE] = next_seat(leader, n)
            return
        state[L.PHASE] = L.PHASE_LEAD
    state[L.TO_MOVE] = nxt


# --- the next deal of a match -----------------------------------------------------------------

@kernel
def play_on(state, params):
    """BU-END-6, BU-LEAD-2: while a match is marked to deal again, the next dealer deals and
    the next first leader is set."""
    while state[L.PHASE] == L.PHASE_NEXT_DEAL:
        next_deal(state, params)


@helper
def next_deal(state, params):
    """BU-END-6, BU-LEAD-2: the next deal of a match."""
    n = params[P_NUM_PLAYERS]
    dealer = next_dealer(state, params)
    state[L.DEALER] = dealer
    leader = next_seat(dealer, n)
    if params[P_LEFT_OF_DEALER] == 0 and state[L.LAST_TRICK_TAKER]:
        leader = np.int64(state[L.LAST_TRICK_TAKER]) - 1
    state[L.LEADER] = leader
    state[L.DEAL_NUMBER] += ONE
    state[L.REDEALS] = ZERO
    deal(state, params)


# --- the deal's log (rules §5: hands at past check points) -----------------------------------

@helper
def log_received(state, seat, cards):
    """``cards`` reach ``seat``'s hand at the coming check point (``GOT`` in layout.py)."""
    code = 1 + seat + 4 * np.int64(state[L.TRICKS])
    while cards:
        deal_order.set_order_card(state, L.GOT, lowest_index(cards), code)
        cards &= cards - ONE


@helper
def log_shown(state, cards):
    """``cards`` are shown at the current check point (``SHOWN`` in layout.py), unless they
    were shown before."""
    code = 1 + np.int64(state[L.TRICKS])
    while cards:
        card = lowest_index(cards)
        if deal_order.order_card(state, L.SHOWN, card) == 0:
            deal_order.set_order_card(state, L.SHOWN, card, code)
        cards &= cards - ONE


@helper
def log_played(state, cards):
    """``cards`` are played in the current trick (``LEFT`` in layout.py)."""
    code = 1 + np.int64(state[L.TRICKS])
    while cards:
        deal_order.set_order_card(state, L.LEFT, lowest_index(cards), code)
        cards &= cards - ONE


# --- the deal --------------------------------------------------------------------------------

@helper
def no_result(state):
    """BU-END-1: the deal has no result yet."""
    state[L.RESULT] = L.RESULT_NONE
    state[L.WINNERS] = ZERO
    state[L.MULTIPLIER] = ZERO


@kernel
def deal(state, params):
    """BU-DEAL-2..5: shuffle, three cards to each player from the dealer's left, the last card
    of the stock is the turned trump card; a dealt combination cancels the deal (same dealer).
    The scheduled leader (``LEADER``) must be set; ends with the first check point."""
    rng = state[L.RNG:L.RNG + 4]
    deal_order.reset_order(state, L.ORDER, L.N_CARDS)
    while True:
        deal_order.shuffle_order(state, L.ORDER, L.N_CARDS, rng)
        if deal_cards(state, params):
            break
        state[L.REDEALS] += ONE


@kernel
def deal_cards(state, params):
    """BU-DEAL-2..5: the deal of the order the state holds (``deal`` after its shuffle), to
    its first check point. False, and the deal left unfinished, when a dealt combination
    cancels it (BU-DEAL-5)."""
    n = params[P_NUM_PLAYERS]
    trump_card = deal_order.order_card(state, L.ORDER, L.N_CARDS - 1)
    for seat in range(n):
        state[L.HAND + seat] = ZERO
    for i in range(L.HAND_SIZE * n):
        seat = (np.int64(state[L.DEALER]) + 1 + i) % n
        state[L.HAND + seat] |= bit(deal_order.order_card(state, L.ORDER, i))
    for w in range(L.GOT, L.GOT + 3 * L.LOG_WORDS):
        state[w] = ZERO
    if params[P_INITIAL_REDEAL] == 1:
        for seat in range(n):
            if has_active_combination(state[L.HAND + seat], trump_card, params):
                return False
    state[L.TRUMP_CARD] = trump_card
    state[L.NEXT] = L.HAND_SIZE * n
    stock = ZERO
    for i in range(L.HAND_SIZE * n, L.N_CARDS):
        stock |= bit(deal_order.order_card(state, L.ORDER, i))
    state[L.STOCK] = stock
    for seat in range(4):
        state[L.PILE_UP + seat] = ZERO
        state[L.PILE_DOWN + seat] = ZERO
        state[L.THROWN + seat] = ZERO
        state[L.TRICK_PLAYED + seat] = ZERO
        state[L.REVEALED + seat] = ZERO
    state[L.TRICK_K] = ZERO
    state[L.TRICK_TOP] = ZERO
    state[L.TRICK_HOLDER] = ZERO
    no_result(state)
    state[L.CLAIM_POINTS] = ZERO
    state[L.LAST_TRICK_TAKER] = ZERO
    state[L.TRICKS] = ZERO
    state[L.FIRST_LEADER] = state[L.LEADER]
    for seat in range(n):
        log_received(state, seat, state[L.HAND + seat])
    check_point(state, params)
    return True


@kernel
def start(params, rng, out, mode):
    """BU-DEAL-1, BU-LEAD-1: a first dealer by lot; the dealer's left leads first. ``mode``
    0 is one deal (terminal when it has a result: BU-DEAL-1..5), ``L.MODE_MATCH`` a whole match
    in the chosen format (BU-MATCH-1..3)."""
    out[:] = ZERO
    seed_stream(out, L.RNG, rng)
    out[L.MODE] = mode
    out[L.DEAL_NUMBER] = ONE
    n = params[P_NUM_PLAYERS]
    dealer = rng_below(out[L.RNG:L.RNG + 4], n)
    out[L.DEALER] = dealer
    out[L.LEADER] = next_seat(dealer, n)
    deal(out, params)
    play_on(out, params)


@kernel
def lead_first(state, params, seat):
    """BU-LEAD-2: a fresh deal (``start`` in deal mode, no action yet) set up to start from
    ``seat`` as its scheduled first leader, as a later deal of a match may (the last trick's
    taker); the cards dealt do not depend on the leader. Its first check point is resolved
    again for him (BU-COMBO-1..4): a deal it had already decided is reopened first, since
    what decides there may depend on the leader (``bura_timing=own_lead``)."""
    state[L.LEADER] = seat
    state[L.FIRST_LEADER] = seat
    no_result(state)
    check_point(state, params)



# --- check points ------------------------------------------------------------------------------

@helper
def stops_enabled(params):
    """BU-COMBO-5/6: is any Stop call possible under the options?"""
    return params[P_MOLODKA_STOP] == 1 or params[P_SMALL_MOSCOW] != 0


@kernel
def check_point(state, params):
    """BU-COMBO-1..4, BU-COMBO-8, BU-END-2: before a lead, Moscow then bura win at once
    (:func:`.scoring.combination_wins`); otherwise the scheduled leader decides (claim, or
    lead; the Stop round follows a declined claim when Stop options are on; with every card
    played only claim or not remains)."""
    if combination_wins(state, params):
        return
    leader = np.int64(state[L.LEADER])
    state[L.TO_MOVE] = leader
    if state[L.HAND + leader] == ZERO or stops_enabled(params):
        state[L.PHASE] = L.PHASE_CLAIM
    else:
        state[L.PHASE] = L.PHASE_CHECK


# --- legal actions -----------------------------------------------------------------------------

@helper
def beats(x, y, trumps):
    """BU-RESP-2: card ``x`` beats card ``y`` (same suit and higher, or trump over plain)."""
    if suit_of(x) == suit_of(y):
        return x > y
    return bit(x) & trumps != ZERO and bit(y) & trumps == ZERO


@helper
def set_beats(mine, top, trumps):
    """BU-RESP-3: the k cards ``mine`` beat the k cards ``top`` under some one-to-one pairing
    (every pairing is tried: k! <= 6, never a greedy match)."""
    x0 = lowest_index(mine)
    y0 = lowest_index(top)
    k = popcount(mine)
    if k == 1:
        return beats(x0, y0, trumps)
    rest_x = mine & (mine - ONE)
    rest_y = top & (top - ONE)
    x1 = lowest_index(rest_x)
    y1 = lowest_index(rest_y)
    if k == 2:
        return ((beats(x0, y0, trumps) and beats(x1, y1, trumps))
                or (beats(x0, y1, trumps) and beats(x1, y0, trumps)))
    x2 = lowest_index(rest_x & (rest_x - ONE))
    y2 = lowest_index(rest_y & (rest_y - ONE))
    b00, b01, b02 = beats(x0, y0, trumps), beats(x0, y1, trumps), beats(x0, y2, trumps)
    b10, b11, b12 = beats(x1, y0, trumps), beats(x1, y1, trumps), beats(x1, y2, trumps)
    b20, b21, b22 = beats(x2, y0, trumps), beats(x2, y1, trumps), beats(x2, y2, trumps)
    return ((b00 and b11 and b22) or (b00 and b12 and b21) or (b01 and b10 and b22)
            or (b01 and b12 and b20) or (b02 and b10 and b21) or (b02 and b11 and b20))


@helper
def one_suit(cards):
    """BU-LEAD-4: all the cards are of one suit."""
    return cards & L.SUIT_MASK[suit_of(lowest_index(cards))] == cards


@helper
def add_leads(hand, out, n):
    """BU-LEAD-4, BU-COMBO-9: one card, or two or three cards of one suit."""
    sub = hand
    while sub:  # every non-empty subset of the hand (at most 7)
        if popcount(sub) == 1 or one_suit(sub):
            out[n] = action_id(L.LEAD, sub, L.KIND_SHIFT)
            n += 1
        sub = (sub - ONE) & hand
    return n


@helper
def add_answers(state, params, hand, out, n):
    """BU-RESP-1, BU-RESP-6, BU-RESP-7: every k cards of the hand, as a beat (if they beat the
    current top), a face-down throw (always/choice) or a face-up throw (choice; off: only
    cards that do not beat)."""
    k = np.int64(state[L.TRICK_K])
    top = state[L.TRICK_TOP]
    trumps = trump_mask(state)
    facedown = params[P_FACEDOWN]
    sub = hand
    while sub:
        if popcount(sub) == k:
            beat = set_beats(sub, top, trumps)
            if beat:
                out[n] = action_id(L.BEAT, sub, L.KIND_SHIFT)
                n += 1
            if facedown != FACEDOWN_OFF:
                out[n] = action_id(L.THROW_DOWN, sub, L.KIND_SHIFT)
                n += 1
            if facedown == FACEDOWN_CHOICE or (facedown == FACEDOWN_OFF and not beat):
                out[n] = action_id(L.THROW_UP, sub, L.KIND_SHIFT)
                n += 1
        sub = (sub - ONE) & hand
    return n


@helper
def sort_actions(a, n):
    """Insertion sort of the few actions (canonical order: by id)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@kernel
def legal_actions(state, params, out):
    """Every legal action of the player to move, sorted by id (kinds of :mod:`.layout`)."""
    phase = state[L.PHASE]
    seat = np.int64(state[L.TO_MOVE])
    hand = state[L.HAND + seat]
    n = 0
    if phase == L.PHASE_CHECK:
        out[0] = action_id(L.CLAIM, ZERO, L.KIND_SHIFT)
        n = add_leads(hand, out, 1)
    elif phase == L.PHASE_CLAIM:
        out[0] = action_id(L.CLAIM, ZERO, L.KIND_SHIFT)
        out[1] = action_id(L.NO_CLAIM, ZERO, L.KIND_SHIFT)
        n = 2
    elif phase == L.PHASE_STOP:
        if may_stop(state, params, seat):
            out[n] = action_id(L.STOP, hand, L.KIND_SHIFT)
            n += 1
        out[n] = action_id(L.PASS, ZERO, L.KIND_SHIFT)
        n += 1
    elif phase == L.PHASE_LEAD:
        n = add_leads(hand, out, 0)
    elif phase == L.PHASE_ANSWER:
        n = add_answers(state, params, hand, out, 0)
    sort_actions(out, n)
    return n


# --- applying an action ------------------------------------------------------------------------

@helper
def start_trick(state, seat, cards):
    """BU-LEAD-4, BU-COMBO-5..7: ``seat`` leads ``cards``; answers go clockwise from his left."""
    state[L.HAND + seat] &= ~cards
    state[L.LEADER] = seat
    state[L.TRICK_K] = popcount(cards)
    state[L.TRICK_TOP] = cards
    state[L.TRICK_HOLDER] = seat
    state[L.TRICK_PLAYED + seat] = cards
    log_played(state, cards)
    state[L.PHASE] = L.PHASE_ANSWER


@kernel
def finish_trick(state, params):
    """BU-RESP-5, BU-DRAW-1..3, BU-LEAD-3: the trick to its holder (face-down cards to his
    face-down pile), drawing in rotation from him, then a check point with him to lead."""
    n = params[P_NUM_PLAYERS]
    holder = np.int64(state[L.TRICK_HOLDER])
    trick = ZERO
    thrown = ZERO
    for seat in range(n):
        trick |= state[L.TRICK_PLAYED + seat]
        thrown |= state[L.THROWN + seat]
        state[L.TRICK_PLAYED + seat] = ZERO
    state[L.PILE_DOWN + holder] |= trick & thrown
    state[L.PILE_UP + holder] |= trick & ~thrown
    state[L.TRICK_K] = ZERO
    state[L.TRICK_TOP] = ZERO
    state[L.TRICK_HOLDER] = ZERO
    state[L.LAST_TRICK_TAKER] = np.uint64(holder + 1)
    state[L.TRICKS] += ONE
    seat = holder
    while state[L.STOCK] and popcount(state[L.HAND + seat]) < L.HAND_SIZE:
        drawn = deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, 1)
        state[L.HAND + seat] |= drawn
        log_received(state, seat, drawn)
        seat = next_seat(seat, n)
    state[L.LEADER] = holder
    check_point(state, params)


@kernel
def apply_action(state, params, a):
    """Play the action ``a`` (it must be legal: the Python API checks it)."""
    n = params[P_NUM_PLAYERS]
    kind = kind_of(a, L.KIND_SHIFT)
    cards = value_of(a, L.KIND_SHIFT)
    seat = np.int64(state[L.TO_MOVE])
    if kind == L.CLAIM:
        claim(state, params)
    elif kind == L.NO_CLAIM:
        if state[L.HAND + seat] == ZERO:
            count_piles(state, params)
        else:
            state[L.PHASE] = L.PHASE_STOP
            state[L.STOP_ROUND] = first_stop_round(params)
            state[L.TO_MOVE] = next_seat(seat, n)
    elif kind == L.PASS:
        next_asked(state, params, seat)
    elif kind == L.STOP and refuses_stop(state, params):
        leader = np.int64(state[L.LEADER])
        state[L.REVEALED + leader] |= state[L.HAND + leader]
        state[L.REVEALED + seat] |= cards
        log_shown(state, state[L.HAND + leader] | cards)
        state[L.PHASE] = L.PHASE_LEAD
        state[L.TO_MOVE] = leader
    elif kind == L.STOP or kind == L.LEAD:
        start_trick(state, seat, cards)
        state[L.TO_MOVE] = next_seat(seat, n)
    else:
        state[L.HAND + seat] &= ~cards
        state[L.TRICK_PLAYED + seat] = cards
        log_played(state, cards)
        if kind == L.BEAT:
            state[L.TRICK_TOP] = cards
            state[L.TRICK_HOLDER] = seat
        elif kind == L.THROW_DOWN:
            state[L.THROWN + seat] |= cards
        nxt = next_seat(seat, n)
        if nxt == np.int64(state[L.LEADER]):
            finish_trick(state, params)
        else:
            state[L.TO_MOVE] = nxt
    play_on(state, params)


# --- outcome -----------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """BU-END-1 (a deal) or BU-MATCH-1..3 (a match): nothing is left to play."""
    return turns.is_over(state, L.PHASE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
    return turns.seat_to_move(state, L.PHASE, L.TO_MOVE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def returns(state, params, out):
    """Per seat, zero-sum. A deal: each loser -multiplier, the winners share the losers' total;
    a void deal 0. A match: single_deal as its deal; wins_to_n +1 to the winner and
    -1/(n-1) to the others; penalty_points -1 to each player at the limit, the others share."""
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    if state[L.MODE] == L.MODE_MATCH and params[P_MATCH_FORMAT] != MATCH_SINGLE_DEAL:
        losers = ZERO
        for seat in range(n):
            score = np.int64(state[L.SCORE + seat])
            if params[P_MATCH_FORMAT] == MATCH_PENALTY_POINTS:
                if score >= params[P_PENALTY_LIMIT]:
                    losers |= seat_mask(seat)
        if params[P_MATCH_FORMAT] == MATCH_WINS_TO_N:
            best = 0
            for seat in range(n):
                if np.int64(state[L.SCORE + seat]) > np.int64(state[L.SCORE + best]):
                    best = seat
            share_out(all_seats(n) & ~seat_mask(best), n, 1.0 / (n - 1), out)
        else:
            share_out(losers, n, 1.0, out)
        return
    if state[L.RESULT] == L.RESULT_VOID:
        return
    share_out(all_seats(n) & ~state[L.WINNERS], n, float(state[L.MULTIPLIER]), out)


# --- the engine's own play loop --------------------------------------------------------------

ROW_COLUMNS = ("result", "winners", "multiplier", "claim_points", "dealer", "first_leader",
                  "tricks", "redeals", "moves")


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, rows, max_actions, policy, carry):
    """Play ``n_deals`` deals with random legal actions; one row per deal (ROW_COLUMNS).

    The random player claims with probability ``policy[0]`` whenever a claim is legal, and
    otherwise picks uniformly among its other legal actions.
    """
    state = np.zeros(L.STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    claim_id = action_id(L.CLAIM, ZERO, L.KIND_SHIFT)
    claim_threshold = np.uint64(policy[0] * 9007199254740992.0)   # P(claim) in 53-bit units
    for d in range(n_deals):
        start(params, rng, state, 0)
        moves = 0
        while not is_terminal(state, params):
            n = legal_actions(state, params, actions)
            at = -1
            for i in range(n):
                if actions[i] == claim_id:
                    at = i
            if at < 0:
                a = actions[rng_below(rng, n)]
            elif n == 1 or rng_next(rng) >> np.uint64(11) < claim_threshold:
                a = claim_id
            else:
                i = rng_below(rng, n - 1)
                a = actions[i + 1 if i >= at else i]
            apply_action(state, params, a)
            moves += 1
        rows[d, 0] = np.int64(state[L.RESULT])
        rows[d, 1] = np.int64(state[L.WINNERS])
        rows[d, 2] = np.int64(state[L.MULTIPLIER])
        rows[d, 3] = np.int64(state[L.CLAIM_POINTS])
        rows[d, 4] = np.int64(state[L.DEALER])
        rows[d, 5] = np.int64(state[L.FIRST_LEADER])
        rows[d, 6] = np.int64(state[L.TRICKS])
        rows[d, 7] = np.int64(state[L.REDEALS])
        rows[d, 8] = moves
