"""Bura's hidden information, compiled (rules §5): worlds sampled for an observer
(:func:`determinize`) and actions as another player sees them (:func:`observed_action`).

Unseen by an observer: the other hands, the stock and every card another player threw face
down (BU-RESP-6), except the turned trump card (its every move is public) and the cards shown
at a refused Stop (BU-COMBO-5). A world deals those cards back to the same places; when each
other player received each of his cards is unseen too. The public inferences a world keeps are
read from the deal's log (``GOT``, ``LEFT``, ``SHOWN``: :mod:`.layout`): no hand at a check
point already passed held a combination that would have ended the deal.
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled.actions import action_id, kind_of, value_of
from ...compiled.bits import ONE, ZERO, bit, copy_words, indices_of, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, rng_next, rng_shuffle
from . import layout as L
from .kernels import deal_cards, is_terminal
from .rules import P_BURA_OWN_LEAD, P_INITIAL_REDEAL, P_MOSCOW, P_NUM_PLAYERS
from .scoring import has_active_combination, has_bura, has_moscow, suit_of

MAX_WORLD_TRIES = 1000
HELD_NOW = 255        # the bound of a card still in hand: any check point so far

# analysis calibrates better on inference's worlds: ECE 0.024 against 0.058 uniform
# with strong play-on (experiments/results/calibration_bura)
ANALYSIS_INFERS = True


@helper
def held_until(state, card):
    """The last check point at which ``card`` was surely in its holder's hand: the one before
    the trick it was played in, the one it was shown at (if earlier), else ``HELD_NOW``."""
    left = deal_order.order_card(state, L.LEFT, card)
    shown = deal_order.order_card(state, L.SHOWN, card)
    bound = HELD_NOW if left == 0 else left - 1
    if shown and shown - 1 < bound:
        bound = shown - 1
    return bound


@helper
def scheduled_leaders(state, params, out):
    """``out[c]`` = the scheduled leader at check point ``c`` (BU-LEAD-1..3): the first leader,
    then each trick's winner (found by where its cards lie); -1 where the log cannot tell."""
    n = params[P_NUM_PLAYERS]
    last = np.int64(state[L.TRICKS])
    out[0] = np.int64(state[L.FIRST_LEADER])
    for c in range(1, last + 1):
        out[c] = -1
    for card in range(L.N_CARDS):
        left = deal_order.order_card(state, L.LEFT, card)
        if 0 < left <= last:
            for seat in range(n):
                if (state[L.PILE_UP + seat] | state[L.PILE_DOWN + seat]) & bit(card):
                    out[left] = seat
    if last > 0 and state[L.LAST_TRICK_TAKER]:
        out[last] = np.int64(state[L.LAST_TRICK_TAKER]) - 1


@helper
def past_hands_allowed(state, params, leaders, hands):
    """Rules §5: play went on, so at no check point passed (and at the current one) did a hand
    hold an enabled Moscow or a bura that wins there (BU-COMBO-1..3; with ``own_lead`` only the
    scheduled leader's), nor, before the first trick with ``initial_combo_redeal``, any active
    combination (BU-DEAL-5). The hands at each check point come from the log (layout.py);
    ``hands`` is a scratch array of at least 4 * (tricks + 1) words."""
    n = params[P_NUM_PLAYERS]
    trump_card = np.int64(state[L.TRUMP_CARD])
    trumps = L.SUIT_MASK[suit_of(trump_card)]
    last = np.int64(state[L.TRICKS])
    for i in range(4 * (last + 1)):
        hands[i] = ZERO
    for card in range(L.N_CARDS):
        got = deal_order.order_card(state, L.GOT, card)
        if got == 0:
            continue
        left = deal_order.order_card(state, L.LEFT, card)
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
        deal_order.set_order_card(out, L.GOT, card, got)
        deal_order.set_order_card(out, L.LEFT, card, left)
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
    for card in range(L.N_CARDS):
        got = deal_order.order_card(out, L.GOT, card)
        if got and (got - 1) & 3 == seat and card != trump_card:
            mine |= bit(card)
    for i in range(n_slots):
        taken[i] = False
    last = np.int64(out[L.TRICKS])
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
                        deal_order.set_order_card(out, L.GOT, card, 1 + seat + 4 * slot_cp[i])
                        break
                    pick -= 1
            done += 1



@helper
def hidden_from(state, params, observer):
    """Rules §5, BU-RESP-6: the cards ``observer`` cannot see: the other hands, the stock and
    the cards others threw face down, less the turned trump card and the shown cards."""
    n = params[P_NUM_PLAYERS]
    known = bit(np.int64(state[L.TRUMP_CARD]))
    hidden = state[L.STOCK]
    for seat in range(n):
        known |= state[L.REVEALED + seat]
        if seat != observer:
            hidden |= state[L.HAND + seat] | state[L.THROWN + seat]
    return hidden & ~known


@helper
def receipt_slots(state, slot_cp, n_slots):
    """Rules §5: the check points at which each seat received his cards, as public counts
    (``slot_cp[seat, :n_slots[seat]]``, sorted; the turned trump card's draw is left out)."""
    trump_card = np.int64(state[L.TRUMP_CARD])
    for c in range(np.int64(state[L.TRICKS]) + 1):
        for card in range(L.N_CARDS):
            got = deal_order.order_card(state, L.GOT, card)
            if got and (got - 1) >> 2 == c and card != trump_card:
                seat = (got - 1) & 3
                slot_cp[seat, n_slots[seat]] = c
                n_slots[seat] += 1


@helper
def deal_hidden_back(state, params, observer, hidden, cards, played_in, out):
    """Rules §5, BU-RESP-6: ``out`` from the truth with the shuffled hidden ``cards`` dealt back
    to the places they came from: the other hands, then each seat's face-down throws (keeping
    thrower, trick and pile: the face-down piles, then the current trick), then the stock."""
    n = params[P_NUM_PLAYERS]
    last = np.int64(state[L.TRICKS])
    trump = bit(np.int64(state[L.TRUMP_CARD]))
    used = 0
    for seat in range(n):
        if seat == observer:
            continue
        m = take_cards(cards, used, popcount(state[L.HAND + seat] & hidden))
        used += popcount(m)
        out[L.HAND + seat] |= m
        set_log(out, m, 1 + seat, 0)
        thrown = state[L.THROWN + seat] & hidden
        for place in range(n + 1):   # the face-down piles, then the current trick
            where = L.TRICK_PLAYED + seat if place == n else L.PILE_DOWN + place
            for v in range(last + 2):
                m = take_cards(cards, used, popcount(thrown & state[where] & played_in[v]))
                used += popcount(m)
                out[where] |= m
                out[L.THROWN + seat] |= m
                set_log(out, m, 1 + seat if v else 0, v)   # v = 0: the log is not known
    stock = state[L.STOCK] & trump
    end = L.N_CARDS - 1 if state[L.STOCK] & trump else L.N_CARDS
    for i in range(np.int64(state[L.NEXT]), end):
        deal_order.set_order_card(out, L.ORDER, i, cards[used])
        stock |= bit(cards[used])
        used += 1
    out[L.STOCK] = stock


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
    last = np.int64(state[L.TRICKS])
    trump_card = np.int64(state[L.TRUMP_CARD])
    hidden = hidden_from(state, params, observer)
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    k = indices_of(hidden, cards)
    played_in = np.zeros(last + 2, dtype=np.uint64)   # played_in[v]: cards with LEFT byte v
    slot_cp = np.zeros((4, L.N_CARDS), dtype=np.int64)  # each seat's receipt check points
    n_slots = np.zeros(4, dtype=np.int64)
    for card in range(L.N_CARDS):
        played_in[deal_order.order_card(state, L.LEFT, card)] |= bit(card)
    receipt_slots(state, slot_cp, n_slots)
    leaders = np.empty(last + 1, dtype=np.int64)
    scheduled_leaders(state, params, leaders)
    hands = np.empty(4 * (last + 1), dtype=np.uint64)
    taken = np.empty(L.N_CARDS, dtype=np.bool_)
    for _ in range(MAX_WORLD_TRIES):
        copy_words(out, state)
        out[L.STOCK] &= ~hidden
        for seat in range(n):
            for where in (L.HAND, L.PILE_DOWN, L.TRICK_PLAYED, L.THROWN):
                out[where + seat] &= ~hidden
        set_log(out, hidden, 0, 0)
        rng_shuffle(cards, k, rng)
        deal_hidden_back(state, params, observer, hidden, cards, played_in, out)
        for seat in range(n):
            if seat != observer:
                match_receipts(out, seat, slot_cp[seat], n_slots[seat], taken, trump_card, rng)
        if is_terminal(state, params) or past_hands_allowed(out, params, leaders, hands):
            break
    deal_order.forget_dealt(out, L.ORDER, L.NEXT)
    for j in range(4):
        out[L.RNG + j] = rng_next(rng)


@helper
def observed_action(state, params, a, observer):
    """Rules §5, BU-RESP-6: the action ``a`` of the player to move as ``observer`` sees it. A
    face-down throw by someone else shows only how many cards went down (and the turned trump
    card, whose every move is public): ``THROW_DOWN << 40 | count << 36 | trump bit``. Every
    other action is seen whole."""
    kind = kind_of(a, L.KIND_SHIFT)
    if kind != L.THROW_DOWN or np.int64(state[L.TO_MOVE]) == observer:
        return a
    cards = value_of(a, L.KIND_SHIFT)
    shown = cards & bit(np.int64(state[L.TRUMP_CARD]))
    return action_id(L.THROW_DOWN, (np.uint64(popcount(cards)) << np.uint64(36)) | shown,
                     L.KIND_SHIFT)


@helper
def place_cards(out, cards, positions, n_positions):
    """Write ``cards`` (a mask) at ``positions[:n_positions]`` of the deal order. False when
    the counts differ."""
    if popcount(cards) != n_positions:
        return False
    i = 0
    while cards:
        deal_order.set_order_card(out, L.ORDER, positions[i], lowest_index(cards))
        cards &= cards - ONE
        i += 1
    return True


@kernel(nrt=True)
def world_start(world, params, observer, start, actions, n_actions, out, rng):
    """Rules §5: the start of the deal a sampled ``world`` grew from, for inference
    (:mod:`cardsim.solvers.inference`). ``start`` is the deal's true start; of it only public words
    are read (dealer, leader, turned trump card, match), never its deal order.

    The world's log says when each card reached each hand (``GOT``): the initial deal gives
    the cards of check point 0 round the table from the dealer's left (BU-DEAL-2), each
    trick's draws one card at a time from its winner (BU-DRAW-1), the rest is the world's
    stock. False when the world has no such start."""
    n = params[P_NUM_PLAYERS]
    copy_words(out, start)
    trump_card = np.int64(start[L.TRUMP_CARD])
    last = np.int64(world[L.TRICKS])
    positions = np.empty(L.N_CARDS, dtype=np.int64)
    dealer = np.int64(start[L.DEALER])
    for seat in range(n):
        k = 0
        for i in range(L.HAND_SIZE * n):
            if (dealer + 1 + i) % n == seat:
                positions[k] = i
                k += 1
        if not place_cards(out, received(world, seat, 0), positions, k):
            return False
    leaders = np.empty(last + 1, dtype=np.int64)
    scheduled_leaders(world, params, leaders)
    p = L.HAND_SIZE * n
    mine = np.zeros(4, dtype=np.uint64)
    for c in range(1, last + 1):
        total = 0
        for seat in range(n):
            mine[seat] = received(world, seat, c)
            total += popcount(mine[seat])
        if total and leaders[c] < 0:
            return False
        seat = leaders[c]
        while total:
            if mine[seat]:
                rest = mine[seat] & ~bit(trump_card)
                card = trump_card if rest == ZERO else lowest_index(rest)
                deal_order.set_order_card(out, L.ORDER, p, card)
                mine[seat] &= ~bit(card)
                p += 1
                total -= 1
            seat = (seat + 1) % n
    if not deal_order.continue_from_world(out, world, L.ORDER, L.NEXT, L.RNG, p, L.N_CARDS):
        return False
    return deal_cards(out, params)


@helper
def world_action(world, state, params, observer, a):
    """Rules §5, BU-RESP-6: the move ``a`` of the player to move in ``state`` as made in a
    sampled ``world``: another player's face-down throw with the world's cards thrown by
    him in this trick (as many), every other move as it was."""
    seat = np.int64(state[L.TO_MOVE])
    if kind_of(a, L.KIND_SHIFT) != L.THROW_DOWN or seat == observer:
        return a
    code = 1 + np.int64(state[L.TRICKS])
    cards = ZERO
    thrown = world[L.THROWN + seat]
    while thrown:
        card = lowest_index(thrown)
        thrown &= thrown - ONE
        if deal_order.order_card(world, L.LEFT, card) == code:
            cards |= bit(card)
    return action_id(L.THROW_DOWN, cards, L.KIND_SHIFT)


@helper
def received(state, seat, c):
    """The cards that reached ``seat``'s hand at check point ``c`` (the log ``GOT``)."""
    code = 1 + seat + 4 * c
    m = ZERO
    for card in range(L.N_CARDS):
        if deal_order.order_card(state, L.GOT, card) == code:
            m |= bit(card)
    return m
