"""Bura's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`.

Every kernel takes the state vector (uint64) and the packed params (int64, see :mod:`.rules`);
card masks are uint64. The rule each kernel implements is the first line of its docstring; the
rules are those of ``../shared/rules/bura.md``. Kernels that allocate nothing are compiled with
``_nrt=False`` (no reference counting: see the Scopa kernels), their helpers inline.
"""
import numpy as np

from ...jit import helper, kernel
from ... import order as deal_order
from ...bits import ONE, ZERO, bit, lowest_index, popcount, copy_words
from ...rng import rng_below, rng_next, rng_shuffle
from .layout import (ACES, BEAT, CARDS_MASK, CLAIM, CLAIM_POINTS, CLAIM_TARGET, DEALER,
                    DEAL_NUMBER, FIRST_LEADER, GOT, HAND, HAND_SIZE, KIND_SHIFT,
                    LAST_TRICK_TAKER, LEAD, LEADER, LEFT, LOG_WORDS, MODE, MODE_MATCH,
                    MULTIPLIER, NEXT, NO_CLAIM, N_CARDS, ORDER, PASS, PHASE, PHASE_ANSWER,
                    PHASE_CHECK, PHASE_CLAIM, PHASE_DEAL_OVER, PHASE_LEAD, PHASE_MATCH_OVER,
                    PHASE_NEXT_DEAL, PHASE_STOP, PILE_DOWN, PILE_UP, POINTS, REDEALS, RESULT,
                    RESULT_BURA, RESULT_CLAIM_LOST, RESULT_CLAIM_WON, RESULT_MOSCOW,
                    RESULT_MOST_POINTS, RESULT_NONE, RESULT_VOID, REVEALED, RNG, SCORE, SHOWN,
                    SIXES, STATE_LEN, STOCK, STOP, STOP_MOLODKA, STOP_ROUND, STOP_SMALL_MOSCOW,
                    SUIT_MASK, TENS, TERMINAL, THROWN, THROW_DOWN, THROW_UP, TO_MOVE, TRICKS,
                    TRICK_HOLDER, TRICK_K, TRICK_PLAYED, TRICK_TOP, TRUMP_CARD, WINNERS)
from .rules import (FACEDOWN_CHOICE, FACEDOWN_OFF, MATCH_PENALTY_POINTS, MATCH_SINGLE_DEAL,
                    MATCH_WINS_TO_N, P_BURA_OWN_LEAD, P_DOUBLE_BURA_VOID, P_END_VOID, P_FACEDOWN,
                    P_FALSE_CLAIM_MULT, P_INITIAL_REDEAL, P_LEFT_OF_DEALER, P_MATCH_FORMAT,
                    P_MOLODKA_STOP, P_MOSCOW, P_NUM_PLAYERS, P_PENALTY_LIMIT, P_SMALL_MOSCOW,
                    P_WINS_TARGET)

_SHIFT = np.uint64(KIND_SHIFT)
_CARDS = np.uint64(CARDS_MASK)


@helper
def action(kind, cards):
    """The action id of ``kind`` with the card mask ``cards``."""
    return np.int64((np.uint64(kind) << _SHIFT) | cards)


@helper
def next_seat(seat, n_players):
    """BU-DEAL-2: the seat on the left (play goes clockwise)."""
    return seat + 1 if seat + 1 < n_players else 0


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


@helper
def points(cards):
    """BU-END-4: the card points of a set of cards."""
    total = 0
    while cards:
        total += POINTS[lowest_index(cards)]
        cards &= cards - ONE
    return total


# --- combinations (BU-COMBO-*) ---------------------------------------------------------------

@helper
def trump_mask(state):
    """The trump suit (BU-DEAL-3) as a mask."""
    return SUIT_MASK[suit_of(np.int64(state[TRUMP_CARD]))]


@helper
def has_bura(hand, trumps):
    """BU-COMBO-2: three trumps."""
    return popcount(hand & trumps) == 3


@helper
def has_molodka(hand, trumps):
    """BU-COMBO-5, BU-COMBO-9: three non-trump cards of one suit."""
    for s in range(4):
        if SUIT_MASK[s] != trumps and popcount(hand & SUIT_MASK[s]) == 3:
            return True
    return False


@helper
def has_moscow(hand, trump_card, variant):
    """BU-COMBO-1: three aces (variant 2: one of them the trump ace)."""
    if variant == 0 or popcount(hand & ACES) != 3:
        return False
    trump_ace = bit(suit_of(trump_card) * 9 + 8)
    return variant == 1 or hand & trump_ace != ZERO


@helper
def has_small_moscow(hand, trump_card, variant):
    """BU-COMBO-6: three sixes with the trump six (variant 2: three tens with the trump ten)."""
    if variant == 0:
        return False
    cards = SIXES if variant == 1 else TENS
    rank = 0 if variant == 1 else 7
    return popcount(hand & cards) == 3 and hand & bit(suit_of(trump_card) * 9 + rank) != ZERO


@helper
def has_active_combination(hand, trump_card, params):
    """BU-DEAL-5: a combination with an effect under the options (bura always)."""
    trumps = SUIT_MASK[suit_of(trump_card)]
    return (has_bura(hand, trumps)
            or (params[P_MOLODKA_STOP] == 1 and has_molodka(hand, trumps))
            or has_moscow(hand, trump_card, params[P_MOSCOW])
            or has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW]))


@helper
def may_stop(state, params, seat):
    """BU-COMBO-5..6: may this non-leader call Stop in the current Stop round? In the
    small-Moscow round (asked first) with a small Moscow, in the molodka round with a molodka.
    Only his own hand decides; whether the leader refuses is settled when the call is made."""
    trump_card = np.int64(state[TRUMP_CARD])
    hand = state[HAND + seat]
    if state[STOP_ROUND] == STOP_SMALL_MOSCOW:
        return has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW])
    return params[P_MOLODKA_STOP] == 1 and has_molodka(hand, SUIT_MASK[suit_of(trump_card)])


@helper
def refuses_stop(state, params):
    """BU-COMBO-5: the scheduled leader refuses a molodka Stop when he holds a molodka or a
    small Moscow himself (he shows it: see ``REVEALED``)."""
    trump_card = np.int64(state[TRUMP_CARD])
    hand = state[HAND + np.int64(state[LEADER])]
    return (state[STOP_ROUND] == STOP_MOLODKA
            and (has_molodka(hand, SUIT_MASK[suit_of(trump_card)])
                 or has_small_moscow(hand, trump_card, params[P_SMALL_MOSCOW])))


@helper
def first_stop_round(params):
    """BU-COMBO-6..7: the first Stop round under the options."""
    return STOP_SMALL_MOSCOW if params[P_SMALL_MOSCOW] != 0 else STOP_MOLODKA


@helper
def next_asked(state, params, seat):
    """BU-COMBO-7: after ``seat`` passes, the next non-leader clockwise, then the molodka
    round (if on), then the leader leads."""
    n = params[P_NUM_PLAYERS]
    leader = np.int64(state[LEADER])
    nxt = next_seat(seat, n)
    if nxt == leader:
        if state[STOP_ROUND] == STOP_SMALL_MOSCOW and params[P_MOLODKA_STOP] == 1:
            state[STOP_ROUND] = STOP_MOLODKA
            state[TO_MOVE] = next_seat(leader, n)
            return
        state[PHASE] = PHASE_LEAD
    state[TO_MOVE] = nxt


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
        return state[RESULT] != RESULT_VOID
    if fmt == MATCH_PENALTY_POINTS:
        for seat in range(n):
            if np.int64(state[SCORE + seat]) >= params[P_PENALTY_LIMIT]:
                return True
        return False
    for seat in range(n):
        mine = np.int64(state[SCORE + seat])
        if mine < params[P_WINS_TARGET]:
            continue
        leads = True
        for other in range(n):
            if other != seat and mine - np.int64(state[SCORE + other]) < 2:
                leads = False
        if leads:
            return True
    return False


@kernel(nrt=True)
def update_scores(state, params):
    """BU-MATCH-2..3: wins to the deal's winners, or penalty points to its losers."""
    n = params[P_NUM_PLAYERS]
    if state[RESULT] == RESULT_VOID:
        return
    mult = state[MULTIPLIER]
    for seat in range(n):
        won = state[WINNERS] & seat_mask(seat) != ZERO
        if params[P_MATCH_FORMAT] == MATCH_WINS_TO_N and won:
            state[SCORE + seat] += mult
        elif params[P_MATCH_FORMAT] == MATCH_PENALTY_POINTS and not won:
            state[SCORE + seat] += np.uint64(2) * mult


@kernel(nrt=True)
def next_dealer(state, params):
    """BU-END-6: the deal's winner deals; with several winners the first clockwise from the
    claimant's left; after a void deal the same dealer."""
    n = params[P_NUM_PLAYERS]
    if state[RESULT] == RESULT_VOID:
        return np.int64(state[DEALER])
    seat = np.int64(state[LEADER])
    for _ in range(n):
        seat = next_seat(seat, n)
        if state[WINNERS] & seat_mask(seat):
            return seat
    return np.int64(state[DEALER])


@kernel
def end_deal(state, params, kind, winners, multiplier):
    """BU-END-1, BU-END-3: record the result; a match updates its scores and either ends or
    is marked to deal again (:func:`play_on` deals; no kernel calls back into the deal, so
    the compiled code has no recursion)."""
    state[RESULT] = kind
    state[WINNERS] = winners
    state[MULTIPLIER] = multiplier
    state[TO_MOVE] = ZERO
    if state[MODE] != MODE_MATCH:
        state[PHASE] = PHASE_DEAL_OVER
        return
    update_scores(state, params)
    state[PHASE] = PHASE_MATCH_OVER if match_decided(state, params) else PHASE_NEXT_DEAL


@kernel
def play_on(state, params):
    """BU-END-6, BU-LEAD-2: while a match is marked to deal again, the next dealer deals and
    the next first leader is set."""
    while state[PHASE] == PHASE_NEXT_DEAL:
        next_deal(state, params)


@helper
def next_deal(state, params):
    """BU-END-6, BU-LEAD-2: the next deal of a match."""
    n = params[P_NUM_PLAYERS]
    dealer = next_dealer(state, params)
    state[DEALER] = dealer
    leader = next_seat(dealer, n)
    if params[P_LEFT_OF_DEALER] == 0 and state[LAST_TRICK_TAKER]:
        leader = np.int64(state[LAST_TRICK_TAKER]) - 1
    state[LEADER] = leader
    state[DEAL_NUMBER] += ONE
    state[REDEALS] = ZERO
    deal(state, params)


# --- the deal's log (rules §5: hands at past check points) -----------------------------------

@helper
def log_received(state, seat, cards):
    """``cards`` reach ``seat``'s hand at the coming check point (``GOT`` in layout.py)."""
    code = 1 + seat + 4 * np.int64(state[TRICKS])
    while cards:
        deal_order.set_order_card(state, GOT, lowest_index(cards), code)
        cards &= cards - ONE


@helper
def log_shown(state, cards):
    """``cards`` are shown at the current check point (``SHOWN`` in layout.py), unless they
    were shown before."""
    code = 1 + np.int64(state[TRICKS])
    while cards:
        card = lowest_index(cards)
        if deal_order.order_card(state, SHOWN, card) == 0:
            deal_order.set_order_card(state, SHOWN, card, code)
        cards &= cards - ONE


@helper
def log_played(state, cards):
    """``cards`` are played in the current trick (``LEFT`` in layout.py)."""
    code = 1 + np.int64(state[TRICKS])
    while cards:
        deal_order.set_order_card(state, LEFT, lowest_index(cards), code)
        cards &= cards - ONE


# --- the deal --------------------------------------------------------------------------------

@kernel
def deal(state, params):
    """BU-DEAL-2..5: shuffle, three cards to each player from the dealer's left, the last card
    of the stock is the turned trump card; a dealt combination cancels the deal (same dealer).
    The scheduled leader (``LEADER``) must be set; ends with the first check point."""
    n = params[P_NUM_PLAYERS]
    rng = state[RNG:RNG + 4]
    deal_order.reset_order(state, ORDER, N_CARDS)
    while True:
        deal_order.shuffle_order(state, ORDER, N_CARDS, rng)
        trump_card = deal_order.order_card(state, ORDER, N_CARDS - 1)
        for seat in range(n):
            state[HAND + seat] = ZERO
        for i in range(HAND_SIZE * n):
            seat = (np.int64(state[DEALER]) + 1 + i) % n
            state[HAND + seat] |= bit(deal_order.order_card(state, ORDER, i))
        for w in range(GOT, GOT + 3 * LOG_WORDS):
            state[w] = ZERO
        redeal = False
        if params[P_INITIAL_REDEAL] == 1:
            for seat in range(n):
                if has_active_combination(state[HAND + seat], trump_card, params):
                    redeal = True
        if not redeal:
            break
        state[REDEALS] += ONE
    state[TRUMP_CARD] = trump_card
    state[NEXT] = HAND_SIZE * n
    stock = ZERO
    for i in range(HAND_SIZE * n, N_CARDS):
        stock |= bit(deal_order.order_card(state, ORDER, i))
    state[STOCK] = stock
    for seat in range(4):
        state[PILE_UP + seat] = ZERO
        state[PILE_DOWN + seat] = ZERO
        state[THROWN + seat] = ZERO
        state[TRICK_PLAYED + seat] = ZERO
        state[REVEALED + seat] = ZERO
    state[TRICK_K] = ZERO
    state[TRICK_TOP] = ZERO
    state[TRICK_HOLDER] = ZERO
    state[RESULT] = RESULT_NONE
    state[WINNERS] = ZERO
    state[MULTIPLIER] = ZERO
    state[CLAIM_POINTS] = ZERO
    state[LAST_TRICK_TAKER] = ZERO
    state[TRICKS] = ZERO
    state[FIRST_LEADER] = state[LEADER]
    for seat in range(n):
        log_received(state, seat, state[HAND + seat])
    check_point(state, params)


@kernel
def start(params, rng, out, mode):
    """BU-DEAL-1, BU-LEAD-1: a first dealer by lot; the dealer's left leads first."""
    out[:] = ZERO
    for k in range(4):
        out[RNG + k] = rng_next(rng)
    out[MODE] = mode
    out[DEAL_NUMBER] = ONE
    n = params[P_NUM_PLAYERS]
    dealer = rng_below(out[RNG:RNG + 4], n)
    out[DEALER] = dealer
    out[LEADER] = next_seat(dealer, n)
    deal(out, params)
    play_on(out, params)


@kernel
def new_deal(params, rng, out):
    """One deal (terminal when it has a result): BU-DEAL-1..5."""
    start(params, rng, out, 0)


@kernel
def new_match(params, rng, out):
    """A whole match in the chosen format (BU-MATCH-1..3)."""
    start(params, rng, out, MODE_MATCH)


# --- check points ------------------------------------------------------------------------------

@helper
def stops_enabled(params):
    """BU-COMBO-5/6: is any Stop call possible under the options?"""
    return params[P_MOLODKA_STOP] == 1 or params[P_SMALL_MOSCOW] != 0


@kernel
def check_point(state, params):
    """BU-COMBO-1..4, BU-COMBO-8, BU-END-2: before a lead, Moscow then bura win at once (two
    buras: BU-COMBO-3); otherwise the scheduled leader decides (claim, or lead; the Stop round
    follows a declined claim when Stop options are on; with every card played only claim or
    not remains)."""
    n = params[P_NUM_PLAYERS]
    leader = np.int64(state[LEADER])
    trump_card = np.int64(state[TRUMP_CARD])
    trumps = SUIT_MASK[suit_of(trump_card)]
    for seat in range(n):
        if has_moscow(state[HAND + seat], trump_card, params[P_MOSCOW]):
            end_deal(state, params, RESULT_MOSCOW, seat_mask(seat), ONE)
            return
    holders = ZERO
    for seat in range(n):
        if has_bura(state[HAND + seat], trumps) and (params[P_BURA_OWN_LEAD] == 0
                                                     or seat == leader):
            holders |= seat_mask(seat)
    if holders:
        if popcount(holders) > 1 and params[P_DOUBLE_BURA_VOID] == 1:
            end_deal(state, params, RESULT_VOID, ZERO, ZERO)
            return
        best = -1
        winner = 0
        for seat in range(n):
            if holders & seat_mask(seat):
                top = highest_index(state[HAND + seat] & trumps)
                if top > best:
                    best = top
                    winner = seat
        end_deal(state, params, RESULT_BURA, seat_mask(winner), ONE)
        return
    state[TO_MOVE] = leader
    if state[HAND + leader] == ZERO or stops_enabled(params):
        state[PHASE] = PHASE_CLAIM
    else:
        state[PHASE] = PHASE_CHECK


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
    return cards & SUIT_MASK[suit_of(lowest_index(cards))] == cards


@helper
def add_leads(hand, out, n):
    """BU-LEAD-4, BU-COMBO-9: one card, or two or three cards of one suit."""
    sub = hand
    while sub:  # every non-empty subset of the hand (at most 7)
        if popcount(sub) == 1 or one_suit(sub):
            out[n] = action(LEAD, sub)
            n += 1
        sub = (sub - ONE) & hand
    return n


@helper
def add_answers(state, params, hand, out, n):
    """BU-RESP-1, BU-RESP-6, BU-RESP-7: every k cards of the hand, as a beat (if they beat the
    current top), a face-down throw (always/choice) or a face-up throw (choice; off: only
    cards that do not beat)."""
    k = np.int64(state[TRICK_K])
    top = state[TRICK_TOP]
    trumps = trump_mask(state)
    facedown = params[P_FACEDOWN]
    sub = hand
    while sub:
        if popcount(sub) == k:
            beat = set_beats(sub, top, trumps)
            if beat:
                out[n] = action(BEAT, sub)
                n += 1
            if facedown != FACEDOWN_OFF:
                out[n] = action(THROW_DOWN, sub)
                n += 1
            if facedown == FACEDOWN_CHOICE or (facedown == FACEDOWN_OFF and not beat):
                out[n] = action(THROW_UP, sub)
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
    phase = state[PHASE]
    seat = np.int64(state[TO_MOVE])
    hand = state[HAND + seat]
    n = 0
    if phase == PHASE_CHECK:
        out[0] = action(CLAIM, ZERO)
        n = add_leads(hand, out, 1)
    elif phase == PHASE_CLAIM:
        out[0] = action(CLAIM, ZERO)
        out[1] = action(NO_CLAIM, ZERO)
        n = 2
    elif phase == PHASE_STOP:
        if may_stop(state, params, seat):
            out[n] = action(STOP, hand)
            n += 1
        out[n] = action(PASS, ZERO)
        n += 1
    elif phase == PHASE_LEAD:
        n = add_leads(hand, out, 0)
    elif phase == PHASE_ANSWER:
        n = add_answers(state, params, hand, out, 0)
    sort_actions(out, n)
    return n


# --- applying an action ------------------------------------------------------------------------

@helper
def start_trick(state, seat, cards):
    """BU-LEAD-4, BU-COMBO-5..7: ``seat`` leads ``cards``; answers go clockwise from his left."""
    state[HAND + seat] &= ~cards
    state[LEADER] = seat
    state[TRICK_K] = popcount(cards)
    state[TRICK_TOP] = cards
    state[TRICK_HOLDER] = seat
    state[TRICK_PLAYED + seat] = cards
    log_played(state, cards)
    state[PHASE] = PHASE_ANSWER


@kernel
def claim(state, params):
    """BU-CLAIM-1..2: count the leader's pile, face-down cards included: 31 or more wins,
    otherwise the claimant loses (double by default)."""
    n = params[P_NUM_PLAYERS]
    seat = np.int64(state[LEADER])
    total = points(state[PILE_UP + seat] | state[PILE_DOWN + seat])
    state[CLAIM_POINTS] = total
    if total >= CLAIM_TARGET:
        end_deal(state, params, RESULT_CLAIM_WON, seat_mask(seat), ONE)
    else:
        end_deal(state, params, RESULT_CLAIM_LOST, all_seats(n) & ~seat_mask(seat),
                 np.uint64(params[P_FALSE_CLAIM_MULT]))


@kernel
def count_piles(state, params):
    """BU-END-2: all cards played and no claim: most points wins; a tie (or the `void`
    option) voids the deal."""
    n = params[P_NUM_PLAYERS]
    if params[P_END_VOID] == 1:
        end_deal(state, params, RESULT_VOID, ZERO, ZERO)
        return
    best = -1
    winner = -1
    for seat in range(n):
        total = points(state[PILE_UP + seat] | state[PILE_DOWN + seat])
        if total > best:
            best = total
            winner = seat
        elif total == best:
            winner = -1
    if winner < 0:
        end_deal(state, params, RESULT_VOID, ZERO, ZERO)
    else:
        end_deal(state, params, RESULT_MOST_POINTS, seat_mask(winner), ONE)


@kernel
def finish_trick(state, params):
    """BU-RESP-5, BU-DRAW-1..3, BU-LEAD-3: the trick to its holder (face-down cards to his
    face-down pile), drawing in rotation from him, then a check point with him to lead."""
    n = params[P_NUM_PLAYERS]
    holder = np.int64(state[TRICK_HOLDER])
    trick = ZERO
    thrown = ZERO
    for seat in range(n):
        trick |= state[TRICK_PLAYED + seat]
        thrown |= state[THROWN + seat]
        state[TRICK_PLAYED + seat] = ZERO
    state[PILE_DOWN + holder] |= trick & thrown
    state[PILE_UP + holder] |= trick & ~thrown
    state[TRICK_K] = ZERO
    state[TRICK_TOP] = ZERO
    state[TRICK_HOLDER] = ZERO
    state[LAST_TRICK_TAKER] = np.uint64(holder + 1)
    state[TRICKS] += ONE
    seat = holder
    while state[STOCK] and popcount(state[HAND + seat]) < HAND_SIZE:
        drawn = deal_order.deal_next(state, ORDER, NEXT, STOCK, 1)
        state[HAND + seat] |= drawn
        log_received(state, seat, drawn)
        seat = next_seat(seat, n)
    state[LEADER] = holder
    check_point(state, params)


@kernel
def apply_action(state, params, a):
    """Play the action ``a`` (it must be legal: the Python API checks it)."""
    n = params[P_NUM_PLAYERS]
    kind = np.int64(np.uint64(a) >> _SHIFT)
    cards = np.uint64(a) & _CARDS
    seat = np.int64(state[TO_MOVE])
    if kind == CLAIM:
        claim(state, params)
    elif kind == NO_CLAIM:
        if state[HAND + seat] == ZERO:
            count_piles(state, params)
        else:
            state[PHASE] = PHASE_STOP
            state[STOP_ROUND] = first_stop_round(params)
            state[TO_MOVE] = next_seat(seat, n)
    elif kind == PASS:
        next_asked(state, params, seat)
    elif kind == STOP and refuses_stop(state, params):
        leader = np.int64(state[LEADER])
        state[REVEALED + leader] |= state[HAND + leader]
        state[REVEALED + seat] |= cards
        log_shown(state, state[HAND + leader] | cards)
        state[PHASE] = PHASE_LEAD
        state[TO_MOVE] = leader
    elif kind == STOP or kind == LEAD:
        start_trick(state, seat, cards)
        state[TO_MOVE] = next_seat(seat, n)
    else:
        state[HAND + seat] &= ~cards
        state[TRICK_PLAYED + seat] = cards
        log_played(state, cards)
        if kind == BEAT:
            state[TRICK_TOP] = cards
            state[TRICK_HOLDER] = seat
        elif kind == THROW_DOWN:
            state[THROWN + seat] |= cards
        nxt = next_seat(seat, n)
        if nxt == np.int64(state[LEADER]):
            finish_trick(state, params)
        else:
            state[TO_MOVE] = nxt
    play_on(state, params)


# --- outcome -----------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """BU-END-1 (a deal) or BU-MATCH-1..3 (a match): nothing is left to play."""
    return state[PHASE] == PHASE_DEAL_OVER or state[PHASE] == PHASE_MATCH_OVER


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1)."""
    if is_terminal(state, params):
        return TERMINAL
    return np.int64(state[TO_MOVE])


@kernel
def returns(state, params, out):
    """Per seat, zero-sum. A deal: each loser -multiplier, the winners share the losers' total;
    a void deal 0. A match: single_deal as its deal; wins_to_n +1 to the winner and
    -1/(n-1) to the others; penalty_points -1 to each player at the limit, the others share."""
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    if state[MODE] == MODE_MATCH and params[P_MATCH_FORMAT] != MATCH_SINGLE_DEAL:
        losers = ZERO
        for seat in range(n):
            score = np.int64(state[SCORE + seat])
            if params[P_MATCH_FORMAT] == MATCH_PENALTY_POINTS:
                if score >= params[P_PENALTY_LIMIT]:
                    losers |= seat_mask(seat)
        if params[P_MATCH_FORMAT] == MATCH_WINS_TO_N:
            best = 0
            for seat in range(n):
                if np.int64(state[SCORE + seat]) > np.int64(state[SCORE + best]):
                    best = seat
            share_out(all_seats(n) & ~seat_mask(best), n, 1.0 / (n - 1), out)
        else:
            share_out(losers, n, 1.0, out)
        return
    if state[RESULT] == RESULT_VOID:
        return
    share_out(all_seats(n) & ~state[WINNERS], n, float(state[MULTIPLIER]), out)


@helper
def share_out(losers, n, stake, out):
    """Each loser pays ``stake``; the others share it equally."""
    n_losers = popcount(losers)
    gain = stake * n_losers / (n - n_losers)
    for seat in range(n):
        out[seat] = 0.0 - stake if losers & seat_mask(seat) else gain


# --- hidden information --------------------------------------------------------------------

MAX_WORLD_TRIES = 1000
HELD_NOW = 255        # the bound of a card still in hand: any check point so far


@helper
def held_until(state, card):
    """The last check point at which ``card`` was surely in its holder's hand: the one before
    the trick it was played in, the one it was shown at (if earlier), else ``HELD_NOW``."""
    left = deal_order.order_card(state, LEFT, card)
    shown = deal_order.order_card(state, SHOWN, card)
    bound = HELD_NOW if left == 0 else left - 1
    if shown and shown - 1 < bound:
        bound = shown - 1
    return bound


@helper
def scheduled_leaders(state, params, out):
    """``out[c]`` = the scheduled leader at check point ``c`` (BU-LEAD-1..3): the first leader,
    then each trick's winner (found by where its cards lie); -1 where the log cannot tell."""
    n = params[P_NUM_PLAYERS]
    last = np.int64(state[TRICKS])
    out[0] = np.int64(state[FIRST_LEADER])
    for c in range(1, last + 1):
        out[c] = -1
    for card in range(N_CARDS):
        left = deal_order.order_card(state, LEFT, card)
        if 0 < left <= last:
            for seat in range(n):
                if (state[PILE_UP + seat] | state[PILE_DOWN + seat]) & bit(card):
                    out[left] = seat
    if last > 0 and state[LAST_TRICK_TAKER]:
        out[last] = np.int64(state[LAST_TRICK_TAKER]) - 1


@helper
def past_hands_allowed(state, params, leaders, hands):
    """Rules §5: play went on, so at no check point passed (and at the current one) did a hand
    hold an enabled Moscow or a bura that wins there (BU-COMBO-1..3; with ``own_lead`` only the
    scheduled leader's), nor, before the first trick with ``initial_combo_redeal``, any active
    combination (BU-DEAL-5). The hands at each check point come from the log (layout.py);
    ``hands`` is a scratch array of at least 4 * (tricks + 1) words."""
    n = params[P_NUM_PLAYERS]
    trump_card = np.int64(state[TRUMP_CARD])
    trumps = SUIT_MASK[suit_of(trump_card)]
    last = np.int64(state[TRICKS])
    for i in range(4 * (last + 1)):
        hands[i] = ZERO
    for card in range(N_CARDS):
        got = deal_order.order_card(state, GOT, card)
        if got == 0:
            continue
        left = deal_order.order_card(state, LEFT, card)
        until = last if left == 0 else left - 1
        for c in range((got - 1) >> 2, until + 1):
            hands[4 * c + ((got - 1) & 3)] |= bit(card)
    for c in range(last + 1):
        for seat in range(n):
            hand = hands[4 * c + seat]
            if c == 0 and params[P_INITIAL_REDEAL] == 1 and has_active_combination(
                    hand, trump_card, params):
                return False
            if has_moscow(hand, trump_card, params[P_MOSCOW]):
                return False
            if has_bura(hand, trumps) and (params[P_BURA_OWN_LEAD] == 0 or seat == leaders[c]):
                return False
    return True


@helper
def take_cards(cards, used, count):
    """The next ``count`` cards of the shuffled pool as a mask."""
    m = ZERO
    for i in range(used, used + count):
        m |= bit(cards[i])
    return m


@helper
def set_log(out, cards, got, left):
    """Write the log bytes of ``cards`` in a sampled world."""
    while cards:
        card = lowest_index(cards)
        deal_order.set_order_card(out, GOT, card, got)
        deal_order.set_order_card(out, LEFT, card, left)
        cards &= cards - ONE


@helper
def match_receipts(out, seat, slot_cp, n_slots, taken, trump_card, rng):
    """Rules §5: when each of ``seat``'s cards reached his hand is hidden (only the trump card's
    draw is public). Give his cards the receipt check points ``slot_cp[:n_slots]`` (sorted; the
    truth's, public as counts) uniformly among the matchings in which every card was received
    by the last check point it was surely held at (:func:`held_until`). Taking the cards by
    that bound, the slots open to a card include those of every earlier card, so the number of
    choices at each step is fixed and every valid matching is equally likely."""
    mine = ZERO
    for card in range(N_CARDS):
        got = deal_order.order_card(out, GOT, card)
        if got and (got - 1) & 3 == seat and card != trump_card:
            mine |= bit(card)
    for i in range(n_slots):
        taken[i] = False
    last = np.int64(out[TRICKS])
    done = 0
    for b in range(last + 2):
        bound = HELD_NOW if b == last + 1 else b
        open_slots = 0
        while open_slots < n_slots and slot_cp[open_slots] <= bound:
            open_slots += 1
        rest = mine
        while rest:
            card = lowest_index(rest)
            rest &= rest - ONE
            if held_until(out, card) != bound:
                continue
            pick = rng_below(rng, max(open_slots - done, 1))
            for i in range(n_slots):
                if not taken[i]:
                    if pick == 0:
                        taken[i] = True
                        deal_order.set_order_card(out, GOT, card, 1 + seat + 4 * slot_cp[i])
                        break
                    pick -= 1
            done += 1


@kernel(nrt=True)
def determinize(state, params, observer, rng, out):
    """Rules §5: a world consistent with what ``observer`` has seen, uniformly at random.

    Unseen: the other hands, the stock and every card another player threw face down — except
    the turned trump card (its every move is public) and cards shown at a refused Stop. They
    are shuffled and dealt back to the same places: a face-down card keeps its thrower, the
    trick it was played in and the pile it lies in. When each other player received each of
    his cards is unseen too; it is drawn uniformly among the orders the public draws allow
    (:func:`match_receipts`). Worlds in which a hand at a check point already passed (or the
    current one) held a combination that would have ended the deal are rejected and drawn
    again (at most ``MAX_WORLD_TRIES`` times). Only counts and public labels of the true hidden
    cards are read, never their identities. The chance stream of later deals is replaced, so
    it cannot leak future deals, and the dealt part of the deal order (the true hands) is
    forgotten.
    """
    n = params[P_NUM_PLAYERS]
    last = np.int64(state[TRICKS])
    trump_card = np.int64(state[TRUMP_CARD])
    trump = bit(trump_card)
    known = trump
    hidden = state[STOCK]
    for seat in range(n):
        known |= state[REVEALED + seat]
        if seat != observer:
            hidden |= state[HAND + seat] | state[THROWN + seat]
    hidden &= ~known
    cards = np.empty(N_CARDS, dtype=np.int64)
    k = 0
    rest = hidden
    while rest:
        cards[k] = lowest_index(rest)
        rest &= rest - ONE
        k += 1
    played_in = np.zeros(last + 2, dtype=np.uint64)   # played_in[v]: cards with LEFT byte v
    slot_cp = np.zeros((4, N_CARDS), dtype=np.int64)  # each seat's receipt check points
    n_slots = np.zeros(4, dtype=np.int64)
    for card in range(N_CARDS):
        played_in[deal_order.order_card(state, LEFT, card)] |= bit(card)
    for c in range(last + 1):
        for card in range(N_CARDS):
            got = deal_order.order_card(state, GOT, card)
            if got and (got - 1) >> 2 == c and card != trump_card:
                seat = (got - 1) & 3
                slot_cp[seat, n_slots[seat]] = c
                n_slots[seat] += 1
    leaders = np.empty(last + 1, dtype=np.int64)
    scheduled_leaders(state, params, leaders)
    hands = np.empty(4 * (last + 1), dtype=np.uint64)
    taken = np.empty(N_CARDS, dtype=np.bool_)
    for _ in range(MAX_WORLD_TRIES):
        copy_words(out, state)
        out[STOCK] &= ~hidden
        for seat in range(n):
            for where in (HAND, PILE_DOWN, TRICK_PLAYED, THROWN):
                out[where + seat] &= ~hidden
        set_log(out, hidden, 0, 0)
        rng_shuffle(cards, k, rng)
        used = 0
        for seat in range(n):
            if seat == observer:
                continue
            m = take_cards(cards, used, popcount(state[HAND + seat] & hidden))
            used += popcount(m)
            out[HAND + seat] |= m
            set_log(out, m, 1 + seat, 0)
            thrown = state[THROWN + seat] & hidden
            for place in range(n + 1):   # the face-down piles, then the current trick
                where = TRICK_PLAYED + seat if place == n else PILE_DOWN + place
                for v in range(last + 2):
                    m = take_cards(cards, used, popcount(thrown & state[where] & played_in[v]))
                    used += popcount(m)
                    out[where] |= m
                    out[THROWN + seat] |= m
                    set_log(out, m, 1 + seat if v else 0, v)   # v = 0: the log is not known
        stock = state[STOCK] & trump
        end = N_CARDS - 1 if state[STOCK] & trump else N_CARDS
        for i in range(np.int64(state[NEXT]), end):
            deal_order.set_order_card(out, ORDER, i, cards[used])
            stock |= bit(cards[used])
            used += 1
        out[STOCK] = stock
        for seat in range(n):
            if seat != observer:
                match_receipts(out, seat, slot_cp[seat], n_slots[seat], taken, trump_card, rng)
        if is_terminal(state, params) or past_hands_allowed(out, params, leaders, hands):
            break
    deal_order.forget_dealt(out, ORDER, NEXT)
    for j in range(4):
        out[RNG + j] = rng_next(rng)


@helper
def observed_action(state, params, a, observer):
    """Rules §5, BU-RESP-6: the action ``a`` of the player to move as ``observer`` sees it. A
    face-down throw by someone else shows only how many cards went down (and the turned trump
    card, whose every move is public): ``THROW_DOWN << 40 | count << 36 | trump bit``. Every
    other action is seen whole."""
    kind = np.int64(np.uint64(a) >> _SHIFT)
    if kind != THROW_DOWN or np.int64(state[TO_MOVE]) == observer:
        return a
    cards = np.uint64(a) & _CARDS
    shown = cards & bit(np.int64(state[TRUMP_CARD]))
    return np.int64((np.uint64(THROW_DOWN) << _SHIFT) | (np.uint64(popcount(cards)) << np.uint64(36))
                    | shown)


# --- the engine's own play loop --------------------------------------------------------------

RECORD_COLUMNS = ("result", "winners", "multiplier", "claim_points", "dealer", "first_leader",
                  "tricks", "redeals", "moves")


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, records, max_actions, policy):
    """Play ``n_deals`` deals with random legal actions; one row per deal (RECORD_COLUMNS).

    The random player claims with probability ``policy[0]`` whenever a claim is legal, and
    otherwise picks uniformly among its other legal actions.
    """
    state = np.zeros(STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    claim_id = action(CLAIM, ZERO)
    claim_threshold = np.uint64(policy[0] * 9007199254740992.0)   # P(claim) in 53-bit units
    for d in range(n_deals):
        new_deal(params, rng, state)
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
        records[d, 0] = np.int64(state[RESULT])
        records[d, 1] = np.int64(state[WINNERS])
        records[d, 2] = np.int64(state[MULTIPLIER])
        records[d, 3] = np.int64(state[CLAIM_POINTS])
        records[d, 4] = np.int64(state[DEALER])
        records[d, 5] = np.int64(state[FIRST_LEADER])
        records[d, 6] = np.int64(state[TRICKS])
        records[d, 7] = np.int64(state[REDEALS])
        records[d, 8] = moves
