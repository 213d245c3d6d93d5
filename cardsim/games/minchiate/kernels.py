"""Minchiate's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`.

Every kernel takes the state vector (uint64) and the packed params (int64, see :mod:`.rules`).
A card set is two words (rules §1.4): no kernel assumes one. The rule each kernel implements
is the first line of its docstring; the rules are those of ``../shared/rules/minchiate.md``,
with the decisions listed in ``cardsim/games/minchiate/__init__.py`` where it is silent.

The flow of a deal is a small state machine: a decision (:func:`apply_action`) is followed by
the automatic steps up to the next decision: the robbing, the deal and the exposures at the
start, the end of the discards, the opening of the Fola, the tricks, the end of the deal and,
in a match, the next deal. Every scoring event of MI-SCORE-1 goes through :func:`event`, which
applies the resto conversion MI-RESTO-2 at once.
"""
import numpy as np

from ...jit import helper, kernel
from ... import order as deal_order
from ...bits import ONE, ZERO, lowest_index, popcount
from ...rng import rng_below, rng_next
from .layout import (COMBO_HAS_MATTO, COMBO_KIND_ID, COMBO_MASK, COMBO_VALUE, COMBO_KINDS,
                     CUTTER_ROBBED, D_BIAS, D_WORD, DEALER, DEALER_ROBBED, DEAL_NUMBER,
                     DECINE_FOUR, DECINE_HIGH, DECINE_LOW, DECLARE, DECLARED, DECLARED_DONE,
                     DECL_LAST, DISCARD, DISCARDABLE, DISCARDABLE_NO_TRUMPS, DISCARDS, DONE,
                     BONUS_CLAIMED, EXCLUDED, EXPOSED, FOLA, FOLA_OPEN, HAND, HALF_PACK,
                     KIND_SHIFT, KINGS, KINGS_FOUR, KINGS_THREE, LAST_TRICK_POINTS,
                     LAST_WINNER, LEADER, LED_SUIT, MATTO, MATTO_1_40, MATTO_BONUS, MATTO_DEBT,
                     MATTO_GIVEN, MATTO_TEAM, MODE, MODE_MATCH, N_CARDS, NET, NET_TOTAL,
                     NO_SUIT, ORDER, PAID_CARD, PAPI_1_13_28, PHASE, PHASE_DEAL_OVER,
                     PHASE_DECLARE, PHASE_DISCARD, PHASE_MATCH_OVER, PHASE_NEXT_DEAL,
                     PHASE_PLAY, PILE, PLAY,
                     PLAYED, POINTS, RESTI, RNG, ROB_ELIGIBLE, RUN_ID, SEEN_BOTTOM, SHOWN,
                     SOURCES, SRC_BEYOND_42, SRC_CUTTER_ROB, SRC_DEALER_ROB, SRC_DECLARED,
                     SRC_DYING, SRC_EXPOSED, SRC_LAST_TRICK, SRC_PILE, SRC_PILE_COMBOS,
                     START_DEALER, STATE_LEN, STRENGTH, SUIT, SUIT_MASK, SUITS_LED, T29,
                     TO_DISCARD, TO_MOVE, TRICKS_PER_DEAL, TRICKS_WON, TRICK_CARD,
                     TRICK_NUMBER, TRUMPS, VALUE, VALUE_MASK, WORD1_START)
from .rules import (P_BONUS_ON_MATTO_COMBO, P_CAPOT, P_CUTTER_ROB, P_DEALER_ROB, P_DEALS,
                    P_DECINE_TWO, P_DECLARE_AFTER_CARD, P_DECLARE_ALL, P_DISCARD_TRUMPS,
                    P_EXPOSE, P_FOLA, P_RESTO, P_ROB_CAP)

TERMINAL = -1
_SHIFT = np.uint64(KIND_SHIFT)
_VALUE_MASK = np.uint64(VALUE_MASK)
_BIAS = np.int64(D_BIAS)


def _value_masks():
    """The cards worth 10, 5 and 3 as two-word masks (rules §1.3)."""
    out = np.zeros((3, 2), dtype=np.uint64)
    for c in range(N_CARDS):
        row = {10: 0, 5: 1, 3: 2}.get(int(VALUE[c]))
        if row is not None:
            w, b = (0, c) if c < WORD1_START else (1, c - WORD1_START)
            out[row, w] |= np.uint64(1 << b)
    return out


VALUE_MASKS = _value_masks()


# --- two-word card sets ------------------------------------------------------------------------

@helper
def word_of(card):
    return 0 if card < WORD1_START else 1


@helper
def bit_of(card):
    """The card's bit inside its word."""
    return ONE << np.uint64(card if card < WORD1_START else card - WORD1_START)


@helper
def add_card(state, at, card):
    state[at + word_of(card)] |= bit_of(card)


@helper
def remove_card(state, at, card):
    state[at + word_of(card)] &= ~bit_of(card)


@helper
def card_at(word, bits):
    """The lowest card of ``bits`` (non-zero) in word ``word``."""
    return lowest_index(bits) + (0 if word == 0 else WORD1_START)


@helper
def set_value(w0, w1):
    """The value of a set of cards (rules §1.3)."""
    return (10 * (popcount(w0 & VALUE_MASKS[0, 0]) + popcount(w1 & VALUE_MASKS[0, 1]))
            + 5 * (popcount(w0 & VALUE_MASKS[1, 0]) + popcount(w1 & VALUE_MASKS[1, 1]))
            + 3 * (popcount(w0 & VALUE_MASKS[2, 0]) + popcount(w1 & VALUE_MASKS[2, 1])))


@helper
def seat_team(seat):
    return seat & 1


# --- combinations (MI-COMB-*) -----------------------------------------------------------------

@helper
def with_combo(lo, hi, combo):
    """Add a combination id to a set of ids held in two words."""
    if combo < 64:
        return lo | (ONE << np.uint64(combo)), hi
    return lo, hi | (ONE << np.uint64(combo - 64))


@helper
def runs_of(w0, low, high, lo, hi):
    """MI-COMB-1: each maximal run of 3+ consecutive trumps within indices low..high."""
    i = low
    while i <= high:
        if w0 & (ONE << np.uint64(i)):
            j = i
            while j + 1 <= high and w0 & (ONE << np.uint64(j + 1)):
                j += 1
            if j - i >= 2:
                lo, hi = with_combo(lo, hi, RUN_ID[i, j])
            i = j + 1
        else:
            i += 1
    return lo, hi


@helper
def has_all(w0, w1, combo):
    return (w0 & COMBO_MASK[combo, 0]) == COMBO_MASK[combo, 0] and \
        (w1 & COMBO_MASK[combo, 1]) == COMBO_MASK[combo, 1]


@kernel
def combo_set(w0, w1, params):
    """MI-COMB-1, MI-COMB-2: the combinations a set of cards holds, as a set of ids in two
    words. Maximal runs only; a card may serve in several combinations."""
    lo, hi = runs_of(w0, 0, 4, ZERO, ZERO)
    lo, hi = runs_of(w0, 27, 39, lo, hi)
    if has_all(w0, w1, MATTO_1_40):
        lo, hi = with_combo(lo, hi, MATTO_1_40)
    if has_all(w0, w1, PAPI_1_13_28):
        lo, hi = with_combo(lo, hi, PAPI_1_13_28)
    if has_all(w0, w1, DECINE_FOUR):
        if params[P_DECINE_TWO] == 1:
            lo, hi = with_combo(lo, hi, DECINE_LOW)
            lo, hi = with_combo(lo, hi, DECINE_HIGH)
        else:
            lo, hi = with_combo(lo, hi, DECINE_FOUR)
    elif has_all(w0, w1, DECINE_LOW):
        lo, hi = with_combo(lo, hi, DECINE_LOW)
    elif has_all(w0, w1, DECINE_HIGH):
        lo, hi = with_combo(lo, hi, DECINE_HIGH)
    kings = 0
    missing = 0
    for s in range(4):
        if w1 & (ONE << np.uint64(KINGS[s] - WORD1_START)):
            kings += 1
        else:
            missing = s
    if kings == 4:
        lo, hi = with_combo(lo, hi, KINGS_FOUR)
    elif kings == 3:
        lo, hi = with_combo(lo, hi, KINGS_THREE + missing)
    return lo, hi


@kernel
def combos_of(w0, w1, params, out):
    """The combinations of a set of cards (:func:`combo_set`) as ids in ``out``, ascending;
    returns their number."""
    lo, hi = combo_set(w0, w1, params)
    n = 0
    while lo:
        out[n] = lowest_index(lo)
        lo &= lo - ONE
        n += 1
    while hi:
        out[n] = lowest_index(hi) + 64
        hi &= hi - ONE
        n += 1
    return n


@helper
def bonus_applies(params, combo):
    """MI-COMB-4: the Matto bonus applies to this combination."""
    return COMBO_HAS_MATTO[combo] == 0 or params[P_BONUS_ON_MATTO_COMBO] == 1


@kernel
def combinations_score(w0, w1, params, with_bonus):
    """MI-COMB-3, MI-COMB-4, MI-END-3: the combinations in a set of cards, with the Matto
    bonus when ``with_bonus``."""
    lo, hi = combo_set(w0, w1, params)
    total = 0
    for w in range(2):
        rest = lo if w == 0 else hi
        while rest:
            combo = lowest_index(rest) + 64 * w
            rest &= rest - ONE
            total += COMBO_VALUE[combo]
            if with_bonus and bonus_applies(params, combo):
                total += MATTO_BONUS
    return total


# --- scoring events and resti (MI-SCORE-1, MI-RESTO-*) -----------------------------------------

@helper
def add_points(state, source, a, b):
    state[POINTS + 2 * source] += np.uint64(a)
    state[POINTS + 2 * source + 1] += np.uint64(b)


@helper
def convert(state, params):
    """MI-RESTO-2: while a team leads by a resto or more, it gains one and the difference
    shrinks by a resto."""
    resto = params[P_RESTO]
    d = np.int64(state[D_WORD]) - _BIAS
    while d >= resto:
        state[RESTI] += ONE
        d -= resto
    while d <= -resto:
        state[RESTI + 1] += ONE
        d += resto
    state[D_WORD] = np.uint64(d + _BIAS)


@helper
def event(state, params, source, a, b):
    """MI-SCORE-1: one scoring event of ``a`` points for team A and ``b`` for team B, then
    the conversion MI-RESTO-2."""
    add_points(state, source, a, b)
    state[D_WORD] = np.uint64(np.int64(state[D_WORD]) + a - b)
    convert(state, params)


@helper
def team_event(state, params, source, team, points):
    if team == 0:
        event(state, params, source, points, 0)
    else:
        event(state, params, source, 0, points)


# --- the deal -----------------------------------------------------------------------------------

@kernel
def deal(state, params):
    """MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1: shuffle; the cutter robs from the bottom; 10 + 11
    cards each from the dealer's right, the 21st face up; the rest is the Fola, which the
    dealer robs; then the discards (or the declarations)."""
    for w in range(RNG):
        state[w] = ZERO
    for w in range(LEADER, STATE_LEN):
        if w != MODE and w != DEAL_NUMBER and w != START_DEALER and w != NET_TOTAL:
            state[w] = ZERO
    state[D_WORD] = np.uint64(_BIAS)
    state[NET] = np.uint64(_BIAS)
    state[LED_SUIT] = NO_SUIT
    rng = state[RNG:RNG + 4]
    deal_order.reset_order(state, ORDER, N_CARDS)
    deal_order.shuffle_order(state, ORDER, N_CARDS, rng)
    dealer = np.int64(state[DEALER])
    cutter = (dealer + 3) % 4
    # MI-CUT-1: the cutter robs from the bottom of the pack
    k = 0
    if params[P_CUTTER_ROB] == 1:
        while k < params[P_ROB_CAP]:
            c = deal_order.order_card(state, ORDER, N_CARDS - 1 - k)
            if not ROB_ELIGIBLE[word_of(c)] & bit_of(c):
                state[SEEN_BOTTOM] = np.uint64(c + 1)
                break
            add_card(state, CUTTER_ROBBED, c)
            k += 1
    # MI-DEAL-2, -3: packets of 10 then 11 from the dealer's right; the 21st card face up
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        for i in range(10):
            add_card(state, HAND + 2 * seat, deal_order.order_card(state, ORDER, 10 * j + i))
        for i in range(11):
            add_card(state, HAND + 2 * seat,
                     deal_order.order_card(state, ORDER, 40 + 11 * j + i))
        if params[P_EXPOSE] == 1:
            last = deal_order.order_card(state, ORDER, 40 + 11 * j + 10)
            add_card(state, EXPOSED, last)
            add_card(state, SHOWN + 2 * seat, last)
    # MI-DEAL-4: the Fola
    for i in range(84, N_CARDS - k):
        add_card(state, FOLA, deal_order.order_card(state, ORDER, i))
    # MI-CUT-2: the cutter's robbed cards join his hand, scored at once (event 1)
    for w in range(2):
        state[HAND + 2 * cutter + w] |= state[CUTTER_ROBBED + w]
        state[SHOWN + 2 * cutter + w] |= state[CUTTER_ROBBED + w]
    team_event(state, params, SRC_CUTTER_ROB, seat_team(cutter),
               set_value(state[CUTTER_ROBBED], state[CUTTER_ROBBED + 1]))
    # MI-DEAL-3: the exposed cards, one event
    if params[P_EXPOSE] == 1:
        a = 0
        b = 0
        for seat in range(4):
            v = set_value(state[EXPOSED] & state[HAND + 2 * seat],
                          state[EXPOSED + 1] & state[HAND + 2 * seat + 1])
            if seat_team(seat) == 0:
                a += v
            else:
                b += v
        event(state, params, SRC_EXPOSED, a, b)
    # MI-ROB-1: the dealer robs the Fola (event 3)
    if params[P_DEALER_ROB] == 1:
        for w in range(2):
            robbed = state[FOLA + w] & ROB_ELIGIBLE[w]
            state[DEALER_ROBBED + w] = robbed
            state[FOLA + w] &= ~robbed
            state[HAND + 2 * dealer + w] |= robbed
            state[SHOWN + 2 * dealer + w] |= robbed
        team_event(state, params, SRC_DEALER_ROB, seat_team(dealer),
                   set_value(state[DEALER_ROBBED], state[DEALER_ROBBED + 1]))
    # MI-DISC-1: the cutter discards first, then the dealer
    if k > 0:
        state[PHASE] = PHASE_DISCARD
        state[TO_MOVE] = cutter
        state[TO_DISCARD] = k
    else:
        after_cutter_discards(state, params)


@helper
def after_cutter_discards(state, params):
    dealer = np.int64(state[DEALER])
    j = popcount(state[DEALER_ROBBED]) + popcount(state[DEALER_ROBBED + 1])
    if j > 0:
        state[PHASE] = PHASE_DISCARD
        state[TO_MOVE] = dealer
        state[TO_DISCARD] = j
    else:
        begin_declarations(state, params)


@helper
def begin_declarations(state, params):
    """MI-DECL-1: before the first lead each player from the dealer's right declares; with
    ``declaration_mode=all`` automatically. With ``after_own_first_card`` play starts."""
    dealer = np.int64(state[DEALER])
    if params[P_DECLARE_AFTER_CARD] == 1:
        start_play(state, params)
    elif params[P_DECLARE_ALL] == 1:
        for j in range(4):
            declare_all(state, params, (dealer + 1 + j) % 4)
        start_play(state, params)
    else:
        state[PHASE] = PHASE_DECLARE
        state[TO_MOVE] = (dealer + 1) % 4
        state[DECL_LAST] = ZERO


@helper
def start_play(state, params):
    """MI-FOLA-1, MI-PLAY-1: the Fola is opened; the dealer's right leads the first trick."""
    if params[P_FOLA] == 0:
        state[FOLA_OPEN] = ONE
    leader = (np.int64(state[DEALER]) + 1) % 4
    state[PHASE] = PHASE_PLAY
    state[LEADER] = leader
    state[TO_MOVE] = leader
    state[LED_SUIT] = NO_SUIT


@kernel
def start(params, rng, out, mode):
    """MI-DEAL-1: the first dealer by lot."""
    out[:] = ZERO
    for k in range(4):
        out[RNG + k] = rng_next(rng)
    out[MODE] = mode
    out[DEAL_NUMBER] = ONE
    out[NET_TOTAL] = np.uint64(_BIAS)
    dealer = rng_below(out[RNG:RNG + 4], 4)
    out[DEALER] = dealer
    out[START_DEALER] = dealer
    deal(out, params)


@kernel
def new_deal(params, rng, out):
    """One deal: the game (rules §1)."""
    start(params, rng, out, 0)


@kernel
def new_match(params, rng, out):
    """``deals`` deals, the resti added up, the deal passing to the dealer's right."""
    start(params, rng, out, MODE_MATCH)


# --- discards (MI-DISC-*) ------------------------------------------------------------------------

@helper
def discard_class(state, params, seat):
    """MI-DISC-2, MI-DISC-3: the cards the seat may discard (two words in ``out``): zero-value
    cards other than T29 (without trumps when ``discard_trumps=false``); when he has none,
    other zero-value cards but T29, then T29, then 3-, 5- and 10-point cards. Two words."""
    h0 = state[HAND + 2 * seat]
    h1 = state[HAND + 2 * seat + 1]
    if params[P_DISCARD_TRUMPS] == 1:
        c0 = h0 & DISCARDABLE[0]
        c1 = h1 & DISCARDABLE[1]
    else:
        c0 = h0 & DISCARDABLE_NO_TRUMPS[0]
        c1 = h1 & DISCARDABLE_NO_TRUMPS[1]
    if c0 | c1:
        return c0, c1
    c0 = h0 & DISCARDABLE[0]
    c1 = h1 & DISCARDABLE[1]
    if c0 | c1:
        return c0, c1
    t29 = ONE << np.uint64(T29)
    if h0 & t29:
        return t29, ZERO
    for row in range(2, -1, -1):
        c0 = h0 & VALUE_MASKS[row, 0]
        c1 = h1 & VALUE_MASKS[row, 1]
        if c0 | c1:
            return c0, c1
    return ZERO, ZERO


@helper
def discard(state, params, seat, card):
    """MI-DISC-1: one card face down into the Fola."""
    remove_card(state, HAND + 2 * seat, card)
    add_card(state, DISCARDS + 2 * seat, card)
    add_card(state, FOLA, card)
    state[TO_DISCARD] -= ONE
    if state[TO_DISCARD] == ZERO:
        if seat == (np.int64(state[DEALER]) + 3) % 4:
            after_cutter_discards(state, params)
        else:
            begin_declarations(state, params)


# --- declarations (MI-DECL-*) ----------------------------------------------------------------

@helper
def declaring_set(state, params, seat):
    """The cards a declarer declares from (two words): his hand, plus his first card when he
    declares after it (``after_own_first_card``)."""
    c0 = state[HAND + 2 * seat]
    c1 = state[HAND + 2 * seat + 1]
    t = np.int64(state[TRICK_CARD + seat])
    if params[P_DECLARE_AFTER_CARD] == 1 and t > 0 and state[TRICK_NUMBER] == ZERO:
        if t - 1 < WORD1_START:
            c0 |= bit_of(t - 1)
        else:
            c1 |= bit_of(t - 1)
    return c0, c1


@helper
def bonus_claimable(state, params, seat, c0):
    """MI-DECL-2: he holds the Matto (``c0``: word 0 of his declaring set) and has declared a
    combination the bonus applies to."""
    if not c0 & (ONE << np.uint64(MATTO)):
        return False
    for w in range(2):
        d = state[DECLARED + 2 * seat + w]
        while d:
            combo = lowest_index(d) + 64 * w
            d &= d - ONE
            if bonus_applies(params, combo):
                return True
    return False


@helper
def declare(state, seat, combo):
    """MI-DECL-2: a combination declared is shown."""
    state[DECLARED + 2 * seat + (combo >> 6)] |= ONE << np.uint64(combo & 63)
    state[SHOWN + 2 * seat] |= COMBO_MASK[combo, 0]
    state[SHOWN + 2 * seat + 1] |= COMBO_MASK[combo, 1]
    state[DECL_LAST] = np.uint64(combo + 1)


@helper
def finish_declaration(state, params, seat, claim):
    """MI-DECL-3: the declarer's combinations score at once, one event (with the Matto bonus
    when he claims it, which shows the Matto)."""
    points = 0
    for w in range(2):
        d = state[DECLARED + 2 * seat + w]
        while d:
            combo = lowest_index(d) + 64 * w
            d &= d - ONE
            points += COMBO_VALUE[combo]
            if claim and bonus_applies(params, combo):
                points += MATTO_BONUS
    if claim:
        state[BONUS_CLAIMED] |= ONE << np.uint64(seat)
        state[SHOWN + 2 * seat] |= ONE << np.uint64(MATTO)
    state[DECLARED_DONE] |= ONE << np.uint64(seat)
    state[DECL_LAST] = ZERO
    team_event(state, params, SRC_DECLARED, seat_team(seat), points)


@kernel
def declare_all(state, params, seat):
    """``declaration_mode=all``: every combination declared, the bonus claimed when it can."""
    c0, c1 = declaring_set(state, params, seat)
    lo, hi = combo_set(c0, c1, params)
    for w in range(2):
        rest = lo if w == 0 else hi
        while rest:
            declare(state, seat, lowest_index(rest) + 64 * w)
            rest &= rest - ONE
    finish_declaration(state, params, seat, bonus_claimable(state, params, seat, c0))


@helper
def after_declaration(state, params, seat):
    """The next declarer, or play (before the first lead); or the trick goes on (after one's
    first card)."""
    if params[P_DECLARE_AFTER_CARD] == 1:
        state[PHASE] = PHASE_PLAY
        after_card(state, params, seat)
    elif seat == np.int64(state[DEALER]):
        start_play(state, params)
    else:
        state[TO_MOVE] = (seat + 1) % 4


# --- play (MI-PLAY-*, MI-KING-*) -------------------------------------------------------------

@helper
def trick_has_trump(state):
    for seat in range(4):
        t = np.int64(state[TRICK_CARD + seat])
        if t > 0 and t - 1 < 40:
            return True
    return False


@helper
def king_rule_applies(state, led):
    """MI-KING-1: the first trick led in a plain suit, a trump already played to it."""
    return led < 4 and not (state[SUITS_LED] >> np.uint64(led)) & ONE and trick_has_trump(state)


@helper
def legal_cards(state, params, seat):
    """MI-PLAY-2..4, MI-KING-1: the cards the seat may play (two words)."""
    h0 = state[HAND + 2 * seat]
    h1 = state[HAND + 2 * seat + 1]
    led = np.int64(state[LED_SUIT])
    if led == NO_SUIT:
        return h0, h1
    if led < 4 and h1 & bit_of(KINGS[led]) and king_rule_applies(state, led):
        return ZERO, bit_of(KINGS[led])
    matto = h0 & (ONE << np.uint64(MATTO))
    s0 = h0 & SUIT_MASK[led, 0]
    s1 = h1 & SUIT_MASK[led, 1]
    if s0 | s1:
        return s0 | matto, s1
    t0 = h0 & SUIT_MASK[TRUMPS, 0]
    if t0:
        return t0 | matto, ZERO
    return h0, h1


@helper
def play_card(state, params, seat, card):
    """MI-PLAY-2..4: the card goes to the trick; the public inferences of rules §6; the
    declaration after one's first card; the trick ends after four cards."""
    led = np.int64(state[LED_SUIT])
    suit = SUIT[card]
    if led != NO_SUIT:
        if led < 4 and king_rule_applies(state, led) and card != KINGS[led]:
            add_card(state, EXCLUDED + 2 * seat, KINGS[led])        # did not play the King
        if card != MATTO and suit != led:
            state[EXCLUDED + 2 * seat] |= SUIT_MASK[led, 0]         # void in the led suit
            state[EXCLUDED + 2 * seat + 1] |= SUIT_MASK[led, 1]
            if suit != TRUMPS:
                state[EXCLUDED + 2 * seat] |= SUIT_MASK[TRUMPS, 0]  # no trumps either
    elif card != MATTO:
        state[LED_SUIT] = suit                                      # MI-PLAY-2
    remove_card(state, HAND + 2 * seat, card)
    add_card(state, PLAYED + 2 * seat, card)
    state[TRICK_CARD + seat] = np.uint64(card + 1)
    if card == MATTO:
        state[MATTO_TEAM] = np.uint64(seat_team(seat) + 1)
    if state[TRICK_NUMBER] == ZERO and params[P_DECLARE_AFTER_CARD] == 1:
        if params[P_DECLARE_ALL] == 1:
            declare_all(state, params, seat)
        else:
            state[PHASE] = PHASE_DECLARE
            state[TO_MOVE] = seat
            state[DECL_LAST] = ZERO
            return
    after_card(state, params, seat)


@helper
def after_card(state, params, seat):
    """The next player, or the trick's end."""
    nxt = (seat + 1) % 4
    if nxt == np.int64(state[LEADER]):
        finish_trick(state, params)
    else:
        state[TO_MOVE] = nxt


@helper
def trick_winner(state):
    """MI-PLAY-5: the highest trump, else the highest card of the led suit."""
    led = np.int64(state[LED_SUIT])
    best = -1
    best_strength = -1
    best_trump = False
    for seat in range(4):
        c = np.int64(state[TRICK_CARD + seat]) - 1
        if c == MATTO:
            continue
        trump = SUIT[c] == TRUMPS
        if trump and (not best_trump or STRENGTH[c] > best_strength):
            best, best_strength, best_trump = seat, STRENGTH[c], True
        elif not best_trump and SUIT[c] == led and STRENGTH[c] > best_strength:
            best, best_strength = seat, STRENGTH[c]
    return best


@helper
def finish_trick(state, params):
    """MI-PLAY-5, MI-MATTO-1/2, MI-SCORE-2: the winner's team takes the trick (the Matto
    stays with its team, which may owe a card); the dying cards score at once; the winner
    leads the next trick."""
    winner = trick_winner(state)
    team = seat_team(winner)
    dying = 0
    for seat in range(4):
        c = np.int64(state[TRICK_CARD + seat]) - 1
        state[TRICK_CARD + seat] = ZERO
        if c == MATTO:
            own = seat_team(seat)
            add_card(state, PILE + 2 * own, c)
            if own != team:
                state[MATTO_DEBT] = ONE
            continue
        add_card(state, PILE + 2 * team, c)
        if seat_team(seat) != team:
            dying += VALUE[c]
    led = np.int64(state[LED_SUIT])
    if led < 4:
        state[SUITS_LED] |= ONE << np.uint64(led)
    state[LED_SUIT] = NO_SUIT
    state[TRICKS_WON + team] += ONE
    state[TRICK_NUMBER] += ONE
    state[LAST_WINNER] = np.uint64(winner + 1)
    state[LEADER] = winner
    state[TO_MOVE] = winner
    team_event(state, params, SRC_DYING, team, dying)
    if state[TRICK_NUMBER] == TRICKS_PER_DEAL:
        end_of_deal(state, params)


# --- the end (MI-MATTO-2/3, MI-END-*, MI-RESTO-3/4) ------------------------------------------

@helper
def move_card(state, src, dst, card):
    remove_card(state, src, card)
    add_card(state, dst, card)


@helper
def payment_card(state, team):
    """MI-MATTO-2 (engine default): the debtor's lowest zero-value card other than T29, else
    its lowest-valued card (lowest index among equals)."""
    p0 = state[PILE + 2 * team]
    p1 = state[PILE + 2 * team + 1]
    z0 = p0 & DISCARDABLE[0]
    z1 = p1 & DISCARDABLE[1]
    if z0:
        return lowest_index(z0)
    if z1:
        return card_at(1, z1)
    best = -1
    for w in range(2):
        rest = p0 if w == 0 else p1
        while rest:
            c = card_at(w, rest)
            rest &= rest - ONE
            if best < 0 or VALUE[c] < VALUE[best]:
                best = c
    return best


@kernel
def end_of_deal(state, params):
    """MI-MATTO-2/3, MI-END-1..4: the Matto settlement, then one scoring event (piles, cards
    beyond 42, combinations in the piles, the last trick); MI-RESTO-3 rounds the rest;
    MI-RESTO-4 the net resti (``capot``)."""
    m_team = np.int64(state[MATTO_TEAM]) - 1
    if m_team >= 0:
        other = 1 - m_team
        if state[TRICKS_WON + m_team] == ZERO:                      # MI-MATTO-3
            move_card(state, PILE + 2 * m_team, PILE + 2 * other, MATTO)
            state[MATTO_GIVEN] = ONE
        elif state[MATTO_DEBT] == ONE:                              # MI-MATTO-2
            c = payment_card(state, m_team)
            move_card(state, PILE + 2 * m_team, PILE + 2 * other, c)
            state[PAID_CARD] = np.uint64(c + 1)
    pts_a = 0
    pts_b = 0
    for team in range(2):
        p0 = state[PILE + 2 * team]
        p1 = state[PILE + 2 * team + 1]
        pile = set_value(p0, p1)
        beyond = max(0, popcount(p0) + popcount(p1) - HALF_PACK)
        combos = combinations_score(p0, p1, params, (p0 >> np.uint64(MATTO)) & ONE == ONE)
        add_points(state, SRC_PILE, pile if team == 0 else 0, pile if team == 1 else 0)
        add_points(state, SRC_BEYOND_42, beyond if team == 0 else 0, beyond if team == 1 else 0)
        add_points(state, SRC_PILE_COMBOS, combos if team == 0 else 0,
                   combos if team == 1 else 0)
        if team == 0:
            pts_a = pile + beyond + combos
        else:
            pts_b = pile + beyond + combos
    last = seat_team(np.int64(state[LAST_WINNER]) - 1)
    if last == 0:
        pts_a += LAST_TRICK_POINTS
    else:
        pts_b += LAST_TRICK_POINTS
    add_points(state, SRC_LAST_TRICK, LAST_TRICK_POINTS if last == 0 else 0,
               LAST_TRICK_POINTS if last == 1 else 0)
    state[D_WORD] = np.uint64(np.int64(state[D_WORD]) + pts_a - pts_b)
    convert(state, params)
    resto = params[P_RESTO]
    d = np.int64(state[D_WORD]) - _BIAS
    if d > 0:                                                       # MI-RESTO-3
        state[RESTI] += np.uint64((d + resto - 1) // resto)
    elif d < 0:
        state[RESTI + 1] += np.uint64((-d + resto - 1) // resto)
    net = np.int64(state[RESTI]) - np.int64(state[RESTI + 1])
    if params[P_CAPOT] == 1:
        if state[TRICKS_WON + 1] == ZERO:
            net = max(14, 2 * net)
        elif state[TRICKS_WON] == ZERO:
            net = -max(14, -2 * net)
    state[NET] = np.uint64(net + _BIAS)
    state[NET_TOTAL] = np.uint64(np.int64(state[NET_TOTAL]) + net)
    if state[MODE] == MODE_MATCH and np.int64(state[DEAL_NUMBER]) < params[P_DEALS]:
        state[PHASE] = PHASE_NEXT_DEAL                              # deals again (below)
    else:
        state[PHASE] = PHASE_MATCH_OVER if state[MODE] == MODE_MATCH else PHASE_DEAL_OVER
    state[TO_MOVE] = ZERO


@kernel
def deal_again(state, params):
    """A match deals on: the deal passes to the dealer's right."""
    if state[PHASE] == PHASE_NEXT_DEAL:
        state[DEALER] = (state[DEALER] + ONE) % np.uint64(4)
        state[DEAL_NUMBER] += ONE
        deal(state, params)


# --- the protocol -----------------------------------------------------------------------------

@helper
def action(kind, value):
    return np.int64((np.uint64(kind) << _SHIFT) | np.uint64(value))


@kernel
def legal_actions(state, params, out):
    """The legal action ids, ascending: the discards (MI-DISC-2/3), the declarations
    (MI-DECL-2), the cards (MI-PLAY-3/4, MI-KING-1)."""
    phase = state[PHASE]
    if phase >= PHASE_DEAL_OVER:
        return 0
    seat = np.int64(state[TO_MOVE])
    n = 0
    if phase == PHASE_DECLARE:
        c0, c1 = declaring_set(state, params, seat)
        m = combos_of(c0, c1, params, out)
        last = np.int64(state[DECL_LAST])
        for i in range(m):
            if out[i] >= last:
                out[n] = action(DECLARE, out[i])
                n += 1
        out[n] = action(DONE, 0)
        n += 1
        if bonus_claimable(state, params, seat, c0):
            out[n] = action(DONE, 1)
            n += 1
        return n
    if phase == PHASE_PLAY:
        c0, c1 = legal_cards(state, params, seat)
    else:
        c0, c1 = discard_class(state, params, seat)
    kind = PLAY if phase == PHASE_PLAY else DISCARD
    for w in range(2):
        rest = c0 if w == 0 else c1
        while rest:
            out[n] = action(kind, card_at(w, rest))
            n += 1
            rest &= rest - ONE
    return n


@helper
def step(state, params, a):
    """The action ``a`` and the automatic steps after it, up to the next decision or the end
    of the deal (a match is left marked to deal again)."""
    kind = np.int64(np.uint64(a) >> _SHIFT)
    value = np.int64(np.uint64(a) & _VALUE_MASK)
    seat = np.int64(state[TO_MOVE])
    if kind == PLAY:
        play_card(state, params, seat, value)
    elif kind == DISCARD:
        discard(state, params, seat, value)
    elif kind == DECLARE:
        declare(state, seat, value)
    else:
        finish_declaration(state, params, seat, value == 1)
        after_declaration(state, params, seat)


@kernel
def apply_action(state, params, a):
    """Play the action ``a`` (it must be legal: the Python API checks it); a match deals on."""
    step(state, params, a)
    deal_again(state, params)


@kernel
def is_terminal(state, params):
    """The deal (or the match) is over."""
    return state[PHASE] == PHASE_DEAL_OVER or state[PHASE] == PHASE_MATCH_OVER


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1)."""
    if is_terminal(state, params):
        return TERMINAL
    return np.int64(state[TO_MOVE])


@kernel
def returns(state, params, out):
    """MI-RESTO-4: the net resti of team A for seats 0 and 2, the opposite for 1 and 3 (a
    match: the sum over its deals). Zeros before the end."""
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    net = float(np.int64(state[NET_TOTAL]) - _BIAS)
    for seat in range(4):
        out[seat] = net if seat_team(seat) == 0 else -net


# --- the random-deal loop ------------------------------------------------------------------

RECORD_COLUMNS = (("dealer", "net", "resti_a", "resti_b", "tricks_a", "matto_given")
                  + tuple(f"{s}_{t}" for s in SOURCES for t in "ab")
                  + tuple(f"declared_{k}" for k in COMBO_KINDS) + ("bonus_claims",))
N_FIXED = 6
N_KINDS = len(COMBO_KINDS)


@kernel
def record_deal(state, row):
    """Fill one row of :data:`RECORD_COLUMNS` from a finished deal."""
    row[0] = np.int64(state[DEALER])
    row[1] = np.int64(state[NET]) - _BIAS
    row[2] = np.int64(state[RESTI])
    row[3] = np.int64(state[RESTI + 1])
    row[4] = np.int64(state[TRICKS_WON])
    row[5] = np.int64(state[MATTO_GIVEN])
    for i in range(2 * len(SOURCES)):
        row[N_FIXED + i] = np.int64(state[POINTS + i])
    base = N_FIXED + 2 * len(SOURCES)
    for k in range(N_KINDS + 1):
        row[base + k] = 0
    for seat in range(4):
        for w in range(2):
            d = state[DECLARED + 2 * seat + w]
            while d:
                combo = lowest_index(d) + 64 * w
                d &= d - ONE
                row[base + COMBO_KIND_ID[combo]] += 1
    row[base + N_KINDS] = popcount(state[BONUS_CLAIMED])


@kernel
def random_action(state, params, rng, actions, policy):
    """The random player: uniform among the legal discards and cards; in a declaration, each
    combination (ascending) is declared with probability ``policy[0]``, and the bonus claimed
    with the same probability."""
    m = legal_actions(state, params, actions)
    if state[PHASE] != PHASE_DECLARE:
        return actions[rng_below(rng, m)]
    scale = 1.0 / 9007199254740992.0
    done = action(DONE, 0)
    for i in range(m):
        if actions[i] >= done:
            break
        if np.float64(rng_next(rng) >> np.uint64(11)) * scale < policy[0]:
            return actions[i]
    if actions[m - 1] != done and \
            np.float64(rng_next(rng) >> np.uint64(11)) * scale < policy[0]:
        return actions[m - 1]
    return done


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, records, max_actions, policy):
    """Play ``n_deals`` single deals with the random player (:func:`random_action`), one row
    each (:data:`RECORD_COLUMNS`)."""
    state = np.zeros(STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    for d in range(n_deals):
        start(params, rng, state, 0)
        while state[PHASE] < PHASE_DEAL_OVER:
            step(state, params, random_action(state, params, rng, actions, policy))
        record_deal(state, records[d])
