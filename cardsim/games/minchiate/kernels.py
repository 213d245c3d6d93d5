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

from ...compiled import order as deal_order
from ...compiled import turns
from ...compiled.actions import action_id, kind_of, value_of
from ...compiled.bits import ONE, ZERO, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, rng_unit, seed_stream
from . import layout as L
from .rules import (
    P_CUTTER_ROB,
    P_DEALER_ROB,
    P_DECLARE_AFTER_CARD,
    P_DECLARE_ALL,
    P_DISCARD_TRUMPS,
    P_EXPOSE,
    P_FOLA,
    P_ROB_CAP,
)
from .scoring import (
    VALUE_MASKS,
    add_card,
    bit_of,
    bonus_applies,
    card_at,
    collect_trick,
    combo_set,
    combos_of,
    combos_points,
    deal_row,
    end_of_deal,
    event,
    remove_card,
    seat_team,
    set_value,
    team_event,
    word_of,
)

_BIAS = np.int64(L.D_BIAS)


# --- the deal -----------------------------------------------------------------------------------

@kernel
def deal(state, params):
    """MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1: shuffle; the cutter robs from the bottom; 10 + 11
    cards each from the dealer's right, the 21st face up; the rest is the Fola, which the
    dealer robs; then the discards (or the declarations)."""
    rng = state[L.RNG:L.RNG + 4]
    deal_order.reset_order(state, L.ORDER, L.N_CARDS)
    deal_order.shuffle_order(state, L.ORDER, L.N_CARDS, rng)
    deal_cards(state, params)


@kernel
def deal_cards(state, params):
    """MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1: the deal of the order the state holds (``deal``
    after its shuffle), to the first decision. Always True: Minchiate voids no deal."""
    for w in range(L.RNG):
        if w < L.ORDER or w >= L.ORDER + L.ORDER_WORDS:
            state[w] = ZERO
    for w in range(L.LEADER, L.STATE_LEN):
        if w != L.MODE and w != L.DEAL_NUMBER and w != L.START_DEALER and w != L.NET_TOTAL:
            state[w] = ZERO
    state[L.D_WORD] = np.uint64(_BIAS)
    state[L.NET] = np.uint64(_BIAS)
    state[L.LED_SUIT] = L.NO_SUIT
    dealer = np.int64(state[L.DEALER])
    cutter = (dealer + 3) % 4
    # MI-CUT-1: the cutter robs from the bottom of the pack
    k = 0
    if params[P_CUTTER_ROB] == 1:
        while k < params[P_ROB_CAP]:
            c = deal_order.order_card(state, L.ORDER, L.N_CARDS - 1 - k)
            if not L.ROB_ELIGIBLE[word_of(c)] & bit_of(c):
                state[L.SEEN_BOTTOM] = np.uint64(c + 1)
                break
            add_card(state, L.CUTTER_ROBBED, c)
            k += 1
    # MI-DEAL-2, -3: packets of 10 then 11 from the dealer's right; the 21st card face up
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        for i in range(10):
            add_card(state, L.HAND + 2 * seat, deal_order.order_card(state, L.ORDER, 10 * j + i))
        for i in range(11):
            add_card(state, L.HAND + 2 * seat,
                     deal_order.order_card(state, L.ORDER, 40 + 11 * j + i))
        if params[P_EXPOSE] == 1:
            last = deal_order.order_card(state, L.ORDER, 40 + 11 * j + 10)
            add_card(state, L.EXPOSED, last)
            add_card(state, L.SHOWN + 2 * seat, last)
    # MI-DEAL-4: the Fola
    for i in range(84, L.N_CARDS - k):
        add_card(state, L.FOLA, deal_order.order_card(state, L.ORDER, i))
    # MI-CUT-2: the cutter's robbed cards join his hand, scored at once (event 1)
    for w in range(2):
        state[L.HAND + 2 * cutter + w] |= state[L.CUTTER_ROBBED + w]
        state[L.SHOWN + 2 * cutter + w] |= state[L.CUTTER_ROBBED + w]
    team_event(state, params, L.SRC_CUTTER_ROB, seat_team(cutter),
               set_value(state[L.CUTTER_ROBBED], state[L.CUTTER_ROBBED + 1]))
    # MI-DEAL-3: the exposed cards, one event
    if params[P_EXPOSE] == 1:
        a = 0
        b = 0
        for seat in range(4):
            v = set_value(state[L.EXPOSED] & state[L.HAND + 2 * seat],
                          state[L.EXPOSED + 1] & state[L.HAND + 2 * seat + 1])
            if seat_team(seat) == 0:
                a += v
            else:
                b += v
        event(state, params, L.SRC_EXPOSED, a, b)
    # MI-ROB-1: the dealer robs the Fola (event 3)
    if params[P_DEALER_ROB] == 1:
        for w in range(2):
            robbed = state[L.FOLA + w] & L.ROB_ELIGIBLE[w]
            state[L.DEALER_ROBBED + w] = robbed
            state[L.FOLA + w] &= ~robbed
            state[L.HAND + 2 * dealer + w] |= robbed
            state[L.SHOWN + 2 * dealer + w] |= robbed
        team_event(state, params, L.SRC_DEALER_ROB, seat_team(dealer),
                   set_value(state[L.DEALER_ROBBED], state[L.DEALER_ROBBED + 1]))
    # MI-DISC-1: the cutter discards first, then the dealer
    begin_discards(state, params, cutter)
    return True


@helper
def begin_discards(state, params, seat):
    """MI-DISC-1: ``seat`` (the cutter, then the dealer) discards as many cards as he robbed
    (MI-CUT-2, MI-ROB-1); one who robbed nothing is skipped; after the dealer, the
    declarations."""
    dealer = np.int64(state[L.DEALER])
    n = 0
    if seat != dealer:
        n = popcount(state[L.CUTTER_ROBBED]) + popcount(state[L.CUTTER_ROBBED + 1])
    if n == 0:
        seat = dealer
        n = popcount(state[L.DEALER_ROBBED]) + popcount(state[L.DEALER_ROBBED + 1])
    if n > 0:
        state[L.PHASE] = L.PHASE_DISCARD
        state[L.TO_MOVE] = seat
        state[L.TO_DISCARD] = n
    else:
        begin_declarations(state, params)


@helper
def begin_declarations(state, params):
    """MI-DECL-1: before the first lead each player from the dealer's right declares; with
    ``declaration_mode=all`` automatically. With ``after_own_first_card`` play starts."""
    dealer = np.int64(state[L.DEALER])
    if params[P_DECLARE_AFTER_CARD] == 1:
        start_play(state, params)
    elif params[P_DECLARE_ALL] == 1:
        for j in range(4):
            declare_all(state, params, (dealer + 1 + j) % 4)
        start_play(state, params)
    else:
        state[L.PHASE] = L.PHASE_DECLARE
        state[L.TO_MOVE] = (dealer + 1) % 4
        state[L.DECL_LAST] = ZERO


@helper
def start_play(state, params):
    """MI-FOLA-1, MI-PLAY-1: the Fola is opened; the dealer's right leads the first trick."""
    if params[P_FOLA] == 0:
        state[L.FOLA_OPEN] = ONE
    leader = (np.int64(state[L.DEALER]) + 1) % 4
    state[L.PHASE] = L.PHASE_PLAY
    state[L.LEADER] = leader
    state[L.TO_MOVE] = leader
    state[L.LED_SUIT] = L.NO_SUIT


@kernel
def start(params, rng, out, mode):
    """MI-DEAL-1: the first dealer by lot. ``mode`` 0 is one deal, the game (rules §1);
    ``MODE_MATCH`` plays ``deals`` deals, the resti added up, the deal passing to the dealer's
    right."""
    out[:] = ZERO
    seed_stream(out, L.RNG, rng)
    out[L.MODE] = mode
    out[L.DEAL_NUMBER] = ONE
    out[L.NET_TOTAL] = np.uint64(_BIAS)
    dealer = rng_below(out[L.RNG:L.RNG + 4], 4)
    out[L.DEALER] = dealer
    out[L.START_DEALER] = dealer
    deal(out, params)


# --- discards (MI-DISC-*) ------------------------------------------------------------------------

@helper
def discard_class(state, params, seat):
    """MI-DISC-2, MI-DISC-3: the cards the seat may discard (two words in ``out``): zero-value
    cards other than T29 (without trumps when ``discard_trumps=false``); when he has none,
    other zero-value cards but T29, then T29, then 3-, 5- and 10-point cards. Two words."""
    h0 = state[L.HAND + 2 * seat]
    h1 = state[L.HAND + 2 * seat + 1]
    if params[P_DISCARD_TRUMPS] == 1:
        c0 = h0 & L.DISCARDABLE[0]
        c1 = h1 & L.DISCARDABLE[1]
    else:
        c0 = h0 & L.DISCARDABLE_NO_TRUMPS[0]
        c1 = h1 & L.DISCARDABLE_NO_TRUMPS[1]
    if c0 | c1:
        return c0, c1
    c0 = h0 & L.DISCARDABLE[0]
    c1 = h1 & L.DISCARDABLE[1]
    if c0 | c1:
        return c0, c1
    t29 = ONE << np.uint64(L.T29)
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
    remove_card(state, L.HAND + 2 * seat, card)
    add_card(state, L.DISCARDS + 2 * seat, card)
    add_card(state, L.FOLA, card)
    state[L.TO_DISCARD] -= ONE
    if state[L.TO_DISCARD] == ZERO:
        if seat == (np.int64(state[L.DEALER]) + 3) % 4:
            begin_discards(state, params, np.int64(state[L.DEALER]))
        else:
            begin_declarations(state, params)


# --- declarations (MI-DECL-*) ----------------------------------------------------------------

@helper
def declaring_set(state, params, seat):
    """The cards a declarer declares from (two words): his hand, plus his first card when he
    declares after it (``after_own_first_card``)."""
    c0 = state[L.HAND + 2 * seat]
    c1 = state[L.HAND + 2 * seat + 1]
    t = np.int64(state[L.TRICK_CARD + seat])
    if params[P_DECLARE_AFTER_CARD] == 1 and t > 0 and state[L.TRICK_NUMBER] == ZERO:
        if t - 1 < L.WORD1_START:
            c0 |= bit_of(t - 1)
        else:
            c1 |= bit_of(t - 1)
    return c0, c1


@helper
def bonus_claimable(state, params, seat, c0):
    """MI-DECL-2: he holds the Matto (``c0``: word 0 of his declaring set) and has declared a
    combination the bonus applies to."""
    if not c0 & (ONE << np.uint64(L.MATTO)):
        return False
    for w in range(2):
        d = state[L.DECLARED + 2 * seat + w]
        while d:
            combo = lowest_index(d) + 64 * w
            d &= d - ONE
            if bonus_applies(params, combo):
                return True
    return False


@helper
def declare(state, seat, combo):
    """MI-DECL-2: a combination declared is shown."""
    state[L.DECLARED + 2 * seat + (combo >> 6)] |= ONE << np.uint64(combo & 63)
    state[L.SHOWN + 2 * seat] |= L.COMBO_MASK[combo, 0]
    state[L.SHOWN + 2 * seat + 1] |= L.COMBO_MASK[combo, 1]
    state[L.DECL_LAST] = np.uint64(combo + 1)


@helper
def finish_declaration(state, params, seat, claim):
    """MI-DECL-3: the declarer's combinations score at once, one event (with the Matto bonus
    when he claims it, which shows the Matto)."""
    points = combos_points(state[L.DECLARED + 2 * seat], state[L.DECLARED + 2 * seat + 1],
                           params, claim)
    if claim:
        state[L.BONUS_CLAIMED] |= ONE << np.uint64(seat)
        state[L.SHOWN + 2 * seat] |= ONE << np.uint64(L.MATTO)
    state[L.DECLARED_DONE] |= ONE << np.uint64(seat)
    state[L.DECL_LAST] = ZERO
    team_event(state, params, L.SRC_DECLARED, seat_team(seat), points)


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
        state[L.PHASE] = L.PHASE_PLAY
        after_card(state, params, seat)
    elif seat == np.int64(state[L.DEALER]):
        start_play(state, params)
    else:
        state[L.TO_MOVE] = (seat + 1) % 4


# --- play (MI-PLAY-*, MI-KING-*) -------------------------------------------------------------

@helper
def trick_has_trump(state):
    for seat in range(4):
        t = np.int64(state[L.TRICK_CARD + seat])
        if t > 0 and t - 1 < 40:
            return True
    return False


@helper
def king_rule_applies(state, led):
    """MI-KING-1: the first trick led in a plain suit, a trump already played to it."""
    return led < 4 and not (state[L.SUITS_LED] >> np.uint64(led)) & ONE and trick_has_trump(state)


@helper
def legal_cards(state, params, seat):
    """MI-PLAY-2..4, MI-KING-1: the cards the seat may play (two words)."""
    h0 = state[L.HAND + 2 * seat]
    h1 = state[L.HAND + 2 * seat + 1]
    led = np.int64(state[L.LED_SUIT])
    if led == L.NO_SUIT:
        return h0, h1
    if led < 4 and h1 & bit_of(L.KINGS[led]) and king_rule_applies(state, led):
        return ZERO, bit_of(L.KINGS[led])
    matto = h0 & (ONE << np.uint64(L.MATTO))
    s0 = h0 & L.SUIT_MASK[led, 0]
    s1 = h1 & L.SUIT_MASK[led, 1]
    if s0 | s1:
        return s0 | matto, s1
    t0 = h0 & L.SUIT_MASK[L.TRUMPS, 0]
    if t0:
        return t0 | matto, ZERO
    return h0, h1


@helper
def play_card(state, params, seat, card):
    """MI-PLAY-2..4: the card goes to the trick; the public inferences of rules §6; the
    declaration after one's first card; the trick ends after four cards."""
    led = np.int64(state[L.LED_SUIT])
    suit = L.SUIT[card]
    if led != L.NO_SUIT:
        if led < 4 and king_rule_applies(state, led) and card != L.KINGS[led]:
            add_card(state, L.EXCLUDED + 2 * seat, L.KINGS[led])        # did not play the King
        if card != L.MATTO and suit != led:
            state[L.EXCLUDED + 2 * seat] |= L.SUIT_MASK[led, 0]         # void in the led suit
            state[L.EXCLUDED + 2 * seat + 1] |= L.SUIT_MASK[led, 1]
            if suit != L.TRUMPS:
                state[L.EXCLUDED + 2 * seat] |= L.SUIT_MASK[L.TRUMPS, 0]  # no trumps either
    elif card != L.MATTO:
        state[L.LED_SUIT] = suit                                      # MI-PLAY-2
    remove_card(state, L.HAND + 2 * seat, card)
    add_card(state, L.PLAYED + 2 * seat, card)
    state[L.TRICK_CARD + seat] = np.uint64(card + 1)
    if card == L.MATTO:
        state[L.MATTO_TEAM] = np.uint64(seat_team(seat) + 1)
    if state[L.TRICK_NUMBER] == ZERO and params[P_DECLARE_AFTER_CARD] == 1:
        if params[P_DECLARE_ALL] == 1:
            declare_all(state, params, seat)
        else:
            state[L.PHASE] = L.PHASE_DECLARE
            state[L.TO_MOVE] = seat
            state[L.DECL_LAST] = ZERO
            return
    after_card(state, params, seat)


@helper
def after_card(state, params, seat):
    """The next player, or the trick's end."""
    nxt = (seat + 1) % 4
    if nxt == np.int64(state[L.LEADER]):
        finish_trick(state, params)
    else:
        state[L.TO_MOVE] = nxt


@helper
def trick_winner(state):
    """MI-PLAY-5: the highest trump, else the highest card of the led suit."""
    led = np.int64(state[L.LED_SUIT])
    best = -1
    best_strength = -1
    best_trump = False
    for seat in range(4):
        c = np.int64(state[L.TRICK_CARD + seat]) - 1
        if c == L.MATTO:
            continue
        trump = L.SUIT[c] == L.TRUMPS
        if trump and (not best_trump or L.STRENGTH[c] > best_strength):
            best, best_strength, best_trump = seat, L.STRENGTH[c], True
        elif not best_trump and L.SUIT[c] == led and L.STRENGTH[c] > best_strength:
            best, best_strength = seat, L.STRENGTH[c]
    return best


@helper
def finish_trick(state, params):
    """MI-PLAY-5, MI-MATTO-1/2, MI-SCORE-2: the winner's team takes the trick (the Matto
    stays with its team, which may owe a card); the dying cards score at once; the winner
    leads the next trick."""
    winner = trick_winner(state)
    team = seat_team(winner)
    dying = collect_trick(state, team)
    led = np.int64(state[L.LED_SUIT])
    if led < 4:
        state[L.SUITS_LED] |= ONE << np.uint64(led)
    state[L.LED_SUIT] = L.NO_SUIT
    state[L.TRICKS_WON + team] += ONE
    state[L.TRICK_NUMBER] += ONE
    state[L.LAST_WINNER] = np.uint64(winner + 1)
    state[L.LEADER] = winner
    state[L.TO_MOVE] = winner
    team_event(state, params, L.SRC_DYING, team, dying)
    if state[L.TRICK_NUMBER] == L.TRICKS_PER_DEAL:
        end_of_deal(state, params)


@kernel
def deal_again(state, params):
    """A match deals on: the deal passes to the dealer's right."""
    if state[L.PHASE] == L.PHASE_NEXT_DEAL:
        state[L.DEALER] = (state[L.DEALER] + ONE) % np.uint64(4)
        state[L.DEAL_NUMBER] += ONE
        deal(state, params)


# --- the protocol -----------------------------------------------------------------------------

@kernel
def legal_actions(state, params, out):
    """The legal action ids, ascending: the discards (MI-DISC-2/3), the declarations
    (MI-DECL-2), the cards (MI-PLAY-3/4, MI-KING-1)."""
    phase = state[L.PHASE]
    if phase >= L.PHASE_DEAL_OVER:
        return 0
    seat = np.int64(state[L.TO_MOVE])
    n = 0
    if phase == L.PHASE_DECLARE:
        c0, c1 = declaring_set(state, params, seat)
        m = combos_of(c0, c1, params, out)
        last = np.int64(state[L.DECL_LAST])
        for i in range(m):
            if out[i] >= last:
                out[n] = action_id(L.DECLARE, out[i], L.KIND_SHIFT)
                n += 1
        out[n] = action_id(L.DONE, 0, L.KIND_SHIFT)
        n += 1
        if bonus_claimable(state, params, seat, c0):
            out[n] = action_id(L.DONE, 1, L.KIND_SHIFT)
            n += 1
        return n
    if phase == L.PHASE_PLAY:
        c0, c1 = legal_cards(state, params, seat)
    else:
        c0, c1 = discard_class(state, params, seat)
    kind = L.PLAY if phase == L.PHASE_PLAY else L.DISCARD
    for w in range(2):
        rest = c0 if w == 0 else c1
        while rest:
            out[n] = action_id(kind, card_at(w, rest), L.KIND_SHIFT)
            n += 1
            rest &= rest - ONE
    return n


@helper
def step(state, params, a):
    """The action ``a`` and the automatic steps after it, up to the next decision or the end
    of the deal (a match is left marked to deal again)."""
    kind = kind_of(a, L.KIND_SHIFT)
    value = np.int64(value_of(a, L.KIND_SHIFT))
    seat = np.int64(state[L.TO_MOVE])
    if kind == L.PLAY:
        play_card(state, params, seat, value)
    elif kind == L.DISCARD:
        discard(state, params, seat, value)
    elif kind == L.DECLARE:
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
    """After the scoring of MI-END-1..4 (a deal), or of the last of a match's ``deals`` deals:
    nothing is left to play."""
    return turns.is_over(state, L.PHASE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
    return turns.seat_to_move(state, L.PHASE, L.TO_MOVE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def returns(state, params, out):
    """MI-RESTO-4: the net resti of team A for seats 0 and 2, the opposite for 1 and 3 (a
    match: the sum over its deals). Zeros before the end."""
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    net = float(np.int64(state[L.NET_TOTAL]) - _BIAS)
    for seat in range(4):
        out[seat] = net if seat_team(seat) == 0 else -net


# --- the random-deal loop ------------------------------------------------------------------

# The loop's shape parallels Bura's play_random_deals: one loop for every game would need a
# compiled function as an argument (a core change), so each game keeps its own.
@kernel
def random_action(state, params, rng, actions, policy):
    """The random player: uniform among the legal discards and cards; in a declaration, each
    combination (ascending) is declared with probability ``policy[0]``, and the bonus claimed
    with the same probability."""
    m = legal_actions(state, params, actions)
    if state[L.PHASE] != L.PHASE_DECLARE:
        return actions[rng_below(rng, m)]
    done = action_id(L.DONE, 0, L.KIND_SHIFT)
    for i in range(m):
        if actions[i] >= done:
            break
        if rng_unit(rng) < policy[0]:
            return actions[i]
    if actions[m - 1] != done and \
            rng_unit(rng) < policy[0]:
        return actions[m - 1]
    return done


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, rows, max_actions, policy, carry):
    """Play ``n_deals`` single deals with the random player (:func:`random_action`), one row
    each (:data:`ROW_COLUMNS`)."""
    state = np.zeros(L.STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    for d in range(n_deals):
        start(params, rng, state, 0)
        while state[L.PHASE] < L.PHASE_DEAL_OVER:
            step(state, params, random_action(state, params, rng, actions, policy))
        deal_row(state, rows[d])
