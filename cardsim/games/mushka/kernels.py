"""Mushka's compiled play (numba), one kernel per rule, on the flat state of :mod:`.layout`:
the deal, the exchange, legal actions, tricks, the outcome and ``play_random_deals``. What a
trick or a deal scores and the stop at 0 are in :mod:`.scoring`; hidden information
(``determinize``, ``observed_action``) in :mod:`.worlds`.

Every kernel takes the state vector (uint64) and the packed params (int64, see :mod:`.rules`);
card masks are uint64 in the universal 52-card index. The rule each kernel implements is the
first line of its docstring; the rules are those of ``../shared/rules/mushka.md``, with the
decisions of ``cardsim/games/mushka/__init__.py`` where it is silent. Kernels that allocate
nothing are compiled with ``_nrt=False``, their helpers inline.

The flow of a deal is a small state machine: a decision (``apply_action``) is followed by the
automatic steps up to the next decision (:func:`step`): the end of the exchange, tricks,
the crediting of a lone player, the end of the deal and, in a match, the next deal. A trick
that brings a record to 0 stops the game at once (``stop_mode=automatic``) or offers the stop
(``declared``); ``STOP_AT`` says where a declined stop resumes.
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled import turns
from ...compiled.actions import action_id, kind_of, next_seat, value_of
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, rng_shuffle, rng_unit, seed_stream
from . import layout as L
from .rules import (
    P_ACE_DISCARDABLE,
    P_DEALER_TAKES_TRUMP,
    P_LONE_REDEAL,
    P_LOWEST_RANK,
    P_MUST_HEAD,
    P_MUST_OVERTRUMP,
    P_NUM_PLAYERS,
    P_START_POINTS,
)
from .scoring import (
    deal_row,
    end_of_deal,
    end_offers,
    finish_deal,
    remise,
    stop_game,
    suit_of,
    trump_suit,
    win_trick,
)


@helper
def above(card):
    """The cards of ``card``'s suit ranked above it."""
    return L.SUIT_MASK[suit_of(card)] & ~((bit(card) << ONE) - ONE)


# --- the deal -----------------------------------------------------------------------------------

@kernel
def deal(state, params):
    """MU-DEAL-2..4: shuffle the deck, five cards to each player one at a time from the
    dealer's left, turn the next card for trump; the rest is the stock. With
    ``dealer_takes_trump_card`` the dealer takes the turned card and must discard one."""
    lowest = params[P_LOWEST_RANK]
    rng = state[L.RNG:L.RNG + 4]
    cards = deal_order.order_bytes(state, L.ORDER, L.N_CARDS)
    k = 0
    for c in range(L.N_CARDS):
        if c % 13 >= lowest:
            cards[k] = c
            k += 1
    rng_shuffle(cards, k, rng)
    deal_cards(state, params)


@kernel
def deal_cards(state, params):
    """MU-DEAL-2..4: the deal of the order the state holds (``deal`` after its shuffle): five
    cards to each player, the turned card, the stock; with ``dealer_takes_trump_card`` the
    dealer takes the turned card. Always True: Mushka voids no deal at dealing."""
    n = params[P_NUM_PLAYERS]
    k = 4 * (13 - params[P_LOWEST_RANK])
    cards = deal_order.order_bytes(state, L.ORDER, L.N_CARDS)
    dealer = np.int64(state[L.DEALER])
    for seat in range(L.MAX_PLAYERS):
        for w in (L.HAND, L.DISCARDS, L.TRICK_CARD, L.TRICKS_WON, L.EXCLUDED, L.PLAYED, L.DECISION):
            state[w + seat] = ZERO
        state[L.START_RECORD + seat] = state[L.RECORD + seat]
    for i in range(L.HAND_SIZE * n):
        state[L.HAND + (dealer + 1 + i) % n] |= bit(cards[i])
    trump_card = np.int64(cards[L.HAND_SIZE * n])
    state[L.TRUMP_CARD] = trump_card
    stock = ZERO
    for i in range(L.HAND_SIZE * n + 1, k):
        stock |= bit(cards[i])
    state[L.STOCK] = stock
    state[L.NEXT] = L.HAND_SIZE * n + 1
    for w in (L.ACTIVE, L.ACE_HOLDER, L.BONUS_TAKEN, L.TRICK_NUMBER, L.LONE_LEFT, L.STOP_SEAT, L.STOP_AT,
              L.VOID_DEAL, L.TRUMP_TAKEN):
        state[w] = ZERO
    state[L.LEADER] = next_seat(dealer, n)
    if params[P_DEALER_TAKES_TRUMP] == 1:
        state[L.HAND + dealer] |= bit(trump_card)
        state[L.TRUMP_TAKEN] = ONE
        state[L.PHASE] = L.PHASE_DISCARD
        state[L.TO_MOVE] = dealer
    else:
        state[L.PHASE] = L.PHASE_EXCHANGE
        state[L.TO_MOVE] = next_seat(dealer, n)
    return True


@kernel
def start(params, rng, out, mode):
    """MU-DEAL-1: a first dealer by lot; every record at ``start_points``. ``mode`` 0 is one
    deal (the Python API may set other records), ``L.MODE_MATCH`` a whole game, until a player
    stops at 0 (MU-MATCH-1) or ``max_deals`` (MU-MATCH-2)."""
    out[:] = ZERO
    seed_stream(out, L.RNG, rng)
    out[L.MODE] = mode
    out[L.DEAL_NUMBER] = ONE
    for seat in range(params[P_NUM_PLAYERS]):
        out[L.RECORD + seat] = params[P_START_POINTS]
    out[L.DEALER] = rng_below(out[L.RNG:L.RNG + 4], params[P_NUM_PLAYERS])
    deal(out, params)



@helper
def play_on(state, params):
    """MU-PLAY-2, MU-PASS-3: after a trick (or a declined stop) the lone player's next credited
    trick, the end of the deal, or the next lead by the trick's winner."""
    while True:
        if state[L.LONE_LEFT] != ZERO:
            state[L.LONE_LEFT] -= ONE
            state[L.TRICK_NUMBER] += ONE
            if win_trick(state, params, np.int64(state[L.LEADER])):
                return
            continue
        if state[L.TRICK_NUMBER] == L.TRICKS_PER_DEAL:
            end_of_deal(state, params)
            return
        state[L.PHASE] = L.PHASE_PLAY
        state[L.TO_MOVE] = state[L.LEADER]
        return


@helper
def end_exchange(state, params):
    """MU-PASS-1..3, MU-ACE-5, MU-PLAY-2: after the dealer's decision the players who did not
    pass play; the ace holder is fixed; nobody left voids the deal, one player left takes all
    5 tricks (or voids it with ``lone_player=redeal``); the first active seat from the
    dealer's left leads."""
    n = params[P_NUM_PLAYERS]
    active = ZERO
    for seat in range(n):
        if state[L.DECISION + seat] != L.DECIDED_PASS:
            active |= bit(seat)
            if state[L.HAND + seat] & L.ACE_MASK:
                state[L.ACE_HOLDER] = seat + 1
    state[L.ACTIVE] = active
    count = popcount(active)
    if count == 0 or (count == 1 and params[P_LONE_REDEAL] == 1):
        state[L.VOID_DEAL] = ONE
        finish_deal(state, params)
        return
    seat = next_seat(np.int64(state[L.DEALER]), n)
    while not active & bit(seat):
        seat = next_seat(seat, n)
    state[L.LEADER] = seat
    if count == 1:
        state[L.LONE_LEFT] = L.TRICKS_PER_DEAL
    play_on(state, params)


@helper
def next_deal(state, params):
    """MU-DEAL-1: the deal passes to the left after every deal, a void deal included."""
    state[L.DEALER] = next_seat(np.int64(state[L.DEALER]), params[P_NUM_PLAYERS])
    state[L.DEAL_NUMBER] += ONE
    deal(state, params)


@helper
def deal_again(state, params):
    """While a match is marked to deal again, the next dealer deals."""
    while state[L.PHASE] == L.PHASE_NEXT_DEAL:
        next_deal(state, params)


# --- play -----------------------------------------------------------------------------------

@helper
def led_card(state):
    """The first card of the current trick, or -1."""
    return np.int64(state[L.TRICK_CARD + np.int64(state[L.LEADER])]) - 1


@helper
def trick_best(state, params, suit):
    """The highest card of ``suit`` in the current trick, or -1."""
    best = -1
    for seat in range(params[P_NUM_PLAYERS]):
        c = np.int64(state[L.TRICK_CARD + seat]) - 1
        if c >= 0 and suit_of(c) == suit and c > best:
            best = c
    return best


@helper
def ace_beats_lead(state, lead):
    """MU-ACE-2: spades are not trump and the trick was led with the ace of trumps."""
    t = trump_suit(state)
    return t != L.SPADES and lead == 13 * t + 12


@helper
def legal_cards(state, params, seat):
    """MU-PLAY-3..5, MU-ACE-2..4: follow suit, else trump, else any card (with
    ``must_head_trick``: above the trick's best of the suit while it is not trumped; with
    ``must_overtrump``: above its best trump); the ace of spades may answer a led trump ace."""
    hand = state[L.HAND + seat]
    lead = led_card(state)
    if lead < 0:
        return hand
    led = suit_of(lead)
    t = trump_suit(state)
    follow = hand & L.SUIT_MASK[led]
    trumps = hand & L.SUIT_MASK[t]
    if follow:
        legal = follow
        if params[P_MUST_HEAD] == 1 and (led == t or trick_best(state, params, t) < 0):
            higher = follow & above(trick_best(state, params, led))
            if higher:
                legal = higher
    elif trumps:
        legal = trumps
        best = trick_best(state, params, t)
        if params[P_MUST_OVERTRUMP] == 1 and best >= 0 and trumps & above(best):
            legal = trumps & above(best)
    else:
        legal = hand
    if ace_beats_lead(state, lead) and hand & L.ACE_MASK:
        legal |= L.ACE_MASK
    return legal


@helper
def shown_not_held(state, params, seat, card):
    """Rules §5: what playing ``card`` to the current trick proves ``seat`` does not hold
    (before it is played): the led suit when he does not follow (except the MU-ACE-2 answer),
    the trumps when he neither follows nor trumps, and with ``must_head_trick`` /
    ``must_overtrump`` the cards above the best he failed to beat."""
    lead = led_card(state)
    if lead < 0:
        return ZERO
    led = suit_of(lead)
    t = trump_suit(state)
    s = suit_of(card)
    if card == L.ACE_OF_SPADES and ace_beats_lead(state, lead):
        return ZERO
    if s == led:
        if params[P_MUST_HEAD] == 1 and (led == t or trick_best(state, params, t) < 0):
            best = trick_best(state, params, led)
            if card < best:
                return above(best)
        return ZERO
    proof = L.SUIT_MASK[led]
    if s != t:
        return proof | L.SUIT_MASK[t]
    best = trick_best(state, params, t)
    if params[P_MUST_OVERTRUMP] == 1 and best > card:
        proof |= above(best)
    return proof


@helper
def trick_winner(state, params):
    """MU-PLAY-6, MU-ACE-1..3: the ace of spades on a led trump ace, else the highest trump,
    else the highest card of the led suit."""
    n = params[P_NUM_PLAYERS]
    lead = led_card(state)
    t = trump_suit(state)
    winner = -1
    best = -1
    for seat in range(n):
        c = np.int64(state[L.TRICK_CARD + seat]) - 1
        if c < 0:
            continue
        if c == L.ACE_OF_SPADES and ace_beats_lead(state, lead):
            return seat
        # a trump outranks every plain card, and the led suit every other plain suit
        strength = c % 13 + (200 if suit_of(c) == t else (100 if suit_of(c) == suit_of(lead)
                                                             else 0))
        if strength > best:
            best = strength
            winner = seat
    return winner


@helper
def play_card(state, params, seat, card):
    """MU-PLAY-1..6: play a card; after the last active player the trick is won (MU-SCORE-1)."""
    n = params[P_NUM_PLAYERS]
    state[L.EXCLUDED + seat] |= shown_not_held(state, params, seat, card)
    state[L.HAND + seat] &= ~bit(card)
    state[L.PLAYED + seat] |= bit(card)
    state[L.TRICK_CARD + seat] = card + 1
    nxt = next_seat(seat, n)
    while not state[L.ACTIVE] & bit(nxt):
        nxt = next_seat(nxt, n)
    if nxt != np.int64(state[L.LEADER]):
        state[L.TO_MOVE] = nxt
        return
    winner = trick_winner(state, params)
    for s in range(n):
        state[L.TRICK_CARD + s] = ZERO
    state[L.TRICK_NUMBER] += ONE
    state[L.LEADER] = winner
    if not win_trick(state, params, winner):
        play_on(state, params)


# --- the exchange -------------------------------------------------------------------------------

@helper
def keep_mask(state, params, seat):
    """MU-EXCH-4 and the taken turned card: cards that may not be discarded."""
    keep = ZERO
    if params[P_ACE_DISCARDABLE] == 0:
        keep |= L.ACE_MASK
    if state[L.TRUMP_TAKEN] and seat == np.int64(state[L.DEALER]):
        keep |= bit(np.int64(state[L.TRUMP_CARD]))
    return keep


@helper
def exchange(state, params, seat, cards):
    """MU-EXCH-2, MU-EXCH-6: discard ``cards`` face down and draw as many from the stock."""
    state[L.HAND + seat] &= ~cards
    state[L.DISCARDS + seat] |= cards
    k = popcount(cards)
    state[L.HAND + seat] |= deal_order.deal_next(state, L.ORDER, L.NEXT, L.STOCK, k)
    state[L.DECISION + seat] = L.DECIDED_STAND + k


@kernel
def legal_actions(state, params, out):
    """The legal action ids, ascending: MU-EXCH-2..5 in the exchange, MU-PLAY-3..5 and
    MU-ACE-2 in play, MU-STOP-4 at an offer, the dealer's discard for the turned card."""
    phase = state[L.PHASE]
    if phase == L.PHASE_DEAL_OVER or phase == L.PHASE_MATCH_OVER:
        return 0
    seat = np.int64(state[L.TO_MOVE])
    n = 0
    if phase == L.PHASE_PLAY:
        cards = legal_cards(state, params, seat)
        while cards:
            out[n] = action_id(L.PLAY, bit(lowest_index(cards)), L.KIND_SHIFT)
            n += 1
            cards &= cards - ONE
    elif phase == L.PHASE_EXCHANGE:
        hand = state[L.HAND + seat]
        free = hand & ~keep_mask(state, params, seat)
        limit = min(L.HAND_SIZE, popcount(state[L.STOCK]))
        sub = (ZERO - free) & free                 # the non-empty subsets, ascending
        while sub:
            if popcount(sub) <= limit:
                out[n] = action_id(L.EXCHANGE, sub, L.KIND_SHIFT)
                n += 1
            sub = (sub - free) & free
        out[n] = action_id(L.STAND, ZERO, L.KIND_SHIFT)
        n += 1
        if not hand & L.ACE_MASK:              # MU-EXCH-3
            out[n] = action_id(L.PASS, ZERO, L.KIND_SHIFT)
            n += 1
    elif phase == L.PHASE_DISCARD:
        cards = state[L.HAND + seat] & ~keep_mask(state, params, seat)
        while cards:
            out[n] = action_id(L.DISCARD, bit(lowest_index(cards)), L.KIND_SHIFT)
            n += 1
            cards &= cards - ONE
    else:
        out[0] = action_id(L.STOP, ZERO, L.KIND_SHIFT)
        out[1] = action_id(L.PLAY_ON, ZERO, L.KIND_SHIFT)
        n = 2
    return n


@kernel
def apply_action(state, params, a):
    """Play the action ``a`` (it must be legal: the Python API checks it); a match deals on."""
    step(state, params, a)
    deal_again(state, params)


@helper
def step(state, params, a):
    """The action ``a`` and the automatic steps after it, up to the next decision or the end
    of the deal (a match is left marked to deal again)."""
    n = params[P_NUM_PLAYERS]
    kind = kind_of(a, L.KIND_SHIFT)
    cards = value_of(a, L.KIND_SHIFT)
    seat = np.int64(state[L.TO_MOVE])
    if kind == L.PLAY:
        play_card(state, params, seat, lowest_index(cards))
    elif kind == L.DISCARD:
        state[L.HAND + seat] &= ~cards
        state[L.DISCARDS + seat] |= cards
        state[L.PHASE] = L.PHASE_EXCHANGE
        state[L.TO_MOVE] = next_seat(seat, n)
    elif kind == L.STOP:
        stop_game(state, seat)
    elif kind == L.PLAY_ON:
        at = state[L.STOP_AT]
        if at == L.AT_PLAY:
            play_on(state, params)
        elif at == L.AT_BONUS:
            remise(state, params)
        else:
            end_offers(state, params, seat)
    else:
        if kind == L.EXCHANGE:
            exchange(state, params, seat, cards)
        elif kind == L.STAND:
            state[L.DECISION + seat] = L.DECIDED_STAND
        else:
            state[L.DECISION + seat] = L.DECIDED_PASS
            state[L.EXCLUDED + seat] |= L.ACE_MASK     # MU-EXCH-3: a pass proves no ace
        if seat == np.int64(state[L.DEALER]):
            end_exchange(state, params)
        else:
            state[L.TO_MOVE] = next_seat(seat, n)


# --- outcome ----------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """The deal (MU-STOP-1, MU-PASS-2) or the game (MU-MATCH-1/2) is over: nothing is left to
    play."""
    return turns.is_over(state, L.PHASE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
    return turns.seat_to_move(state, L.PHASE, L.TO_MOVE, L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)


@kernel
def returns(state, params, out):
    """Per seat. A deal: the record written off (``start_record - record``: +1 a trick, the
    ace bonus, -5 a remise). A match: each loser -1/(n-1), the winners share the losers'
    total (one winner +1). Zeros before the end."""
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    if state[L.MODE] != L.MODE_MATCH:
        for seat in range(n):
            out[seat] = float(np.int64(state[L.START_RECORD + seat]) - np.int64(state[L.RECORD + seat]))
        return
    winners = state[L.WINNERS]
    n_win = popcount(winners)
    stake = 1.0 / (n - 1)
    for seat in range(n):
        out[seat] = stake * (n - n_win) / n_win if winners & bit(seat) else 0.0 - stake


# --- the engine's own play loop -------------------------------------------------------------

@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, rows, max_actions, policy, carry):
    """Play whole games (matches) with the random player until ``n_deals`` deals are
    played, one row per deal (:data:`.scoring.ROW_COLUMNS`); a game not over at the last deal
    has ``match_over`` 0 in its last row.

    The random player, in the exchange, draws u uniform in [0, 1): u < ``policy[0]`` passes,
    u < ``policy[0] + policy[1]`` stands, otherwise it exchanges a uniformly chosen legal set;
    a pass that is not legal, or an exchange with none legal, stands instead. At a stop offer
    it stops with probability ``policy[2]``; elsewhere it picks uniformly.

    The game goes on from call to call: ``carry`` holds it (its first :data:`.layout.STATE_LEN`
    words, the next deal dealt; its last word 1 once a game is under way), so that the deals
    are the same however a run is split into calls.
    """
    state = carry[:L.STATE_LEN]
    actions = np.empty(max_actions, dtype=np.int64)
    pass_id = action_id(L.PASS, ZERO, L.KIND_SHIFT)
    stand_id = action_id(L.STAND, ZERO, L.KIND_SHIFT)
    if carry[L.STATE_LEN] == 0:
        start(params, rng, state, L.MODE_MATCH)
        carry[L.STATE_LEN] = 1
    for d in range(n_deals):
        moves = 0
        while state[L.PHASE] < L.PHASE_DEAL_OVER:
            if state[L.PHASE] == L.PHASE_STOP:
                u = rng_unit(rng)
                a = action_id(L.STOP, ZERO, L.KIND_SHIFT) if u < policy[2] \
                    else action_id(L.PLAY_ON, ZERO, L.KIND_SHIFT)
            else:
                m = legal_actions(state, params, actions)
                if state[L.PHASE] == L.PHASE_EXCHANGE:
                    u = rng_unit(rng)
                    has_pass = actions[m - 1] == pass_id
                    n_sets = m - 1 - (1 if has_pass else 0)
                    if u < policy[0]:
                        a = pass_id if has_pass else stand_id
                    elif u < policy[0] + policy[1] or n_sets == 0:
                        a = stand_id
                    else:
                        a = actions[rng_below(rng, n_sets)]
                else:
                    a = actions[rng_below(rng, m)]
            step(state, params, a)
            moves += 1
        deal_row(state, params, rows[d], moves)
        if state[L.PHASE] == L.PHASE_NEXT_DEAL:
            deal_again(state, params)
        else:
            start(params, rng, state, L.MODE_MATCH)
