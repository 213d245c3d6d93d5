"""Mushka's compiled kernels (numba), one per rule, on the flat state of :mod:`.layout`.

Every kernel takes the state vector (uint64) and the packed params (int64, see :mod:`.rules`);
card masks are uint64 in the universal 52-card index. The rule each kernel implements is the
first line of its docstring; the rules are those of ``../shared/rules/mushka.md``, with the
decisions of ``cardsim/games/mushka/__init__.py`` where it is silent. Kernels that allocate
nothing are compiled with ``_nrt=False``, their helpers inline.

The flow of a deal is a small state machine: a decision (``apply_action``) is followed by the
automatic steps up to the next decision (:func:`advance`): the end of the exchange, tricks,
the crediting of a lone player, the end of the deal and, in a match, the next deal. A trick
that brings a record to 0 stops the game at once (``stop_mode=automatic``) or offers the stop
(``declared``); ``STOP_AT`` says where a declined stop resumes.
"""
import numpy as np

from ...jit import helper, kernel
from ... import order as deal_order
from ...bits import ONE, ZERO, bit, lowest_index, popcount, copy_words
from ...rng import rng_below, rng_next, rng_shuffle
from .layout import (ACE_HOLDER, ACE_OF_SPADES, ACTIVE, AT_BONUS, AT_END, AT_PLAY,
                     BONUS_TAKEN, CARDS_MASK, DEALER, DEAL_NUMBER, DECIDED_PASS, DECIDED_STAND,
                     DECISION, DISCARD, DISCARDS, EXCHANGE, EXCHANGE_SEEN, EXCLUDED, HAND,
                     HAND_SIZE, KIND_SHIFT, LEADER, LONE_LEFT, MAX_PLAYERS, MODE, MODE_MATCH,
                     N_CARDS, NEXT, ORDER, PASS, PHASE, PHASE_DEAL_OVER, PHASE_DISCARD,
                     PHASE_EXCHANGE, PHASE_MATCH_OVER, PHASE_NEXT_DEAL, PHASE_PLAY, PHASE_STOP,
                     PLAY, PLAY_ON, PLAYED, RECORD, RNG, SPADES, STAND, START_RECORD,
                     STATE_LEN, STOCK, STOP, STOPPER, STOP_AT, STOP_SEAT, SUIT_MASK, TERMINAL,
                     TO_MOVE, TRICKS_PER_DEAL, TRICKS_WON, TRICK_CARD, TRICK_NUMBER, TRUMP_CARD,
                     TRUMP_TAKEN, VOID_DEAL, WINNERS)
from .rules import (P_ACE_BONUS, P_ACE_DISCARDABLE, P_BONUS_AT_END, P_DEALER_TAKES_TRUMP,
                    P_DECLARED_STOP, P_LONE_REDEAL, P_LOWEST_RANK, P_MAX_DEALS,
                    P_MUST_HEAD, P_MUST_OVERTRUMP, P_NUM_PLAYERS, P_REMISE, P_RESET_TO_START,
                    P_START_POINTS)

_SHIFT = np.uint64(KIND_SHIFT)
_CARDS = np.uint64(CARDS_MASK)
_ACE_OF_SPADES = np.uint64(1) << np.uint64(ACE_OF_SPADES)


@helper
def action(kind, cards):
    """The action id of ``kind`` with the card mask ``cards``."""
    return np.int64((np.uint64(kind) << _SHIFT) | cards)


@helper
def next_seat(seat, n_players):
    """MU-DEAL-1, MU-PLAY-1: the seat on the left (play goes clockwise)."""
    return seat + 1 if seat + 1 < n_players else 0


@helper
def suit_of(card):
    """Rules §1: the suit of a card index."""
    return card // 13


@helper
def trump_suit(state):
    """MU-DEAL-3: the suit of the turned card."""
    return suit_of(np.int64(state[TRUMP_CARD]))


@helper
def above(card):
    """The cards of ``card``'s suit ranked above it."""
    return SUIT_MASK[suit_of(card)] & ~((bit(card) << ONE) - ONE)


@helper
def ace_bonus(state, params):
    """MU-SCORE-3: 5 written off for the ace of spades, 10 when spades are trump."""
    return params[P_ACE_BONUS] * (2 if trump_suit(state) == SPADES else 1)


# --- the deal -----------------------------------------------------------------------------------

@kernel
def deal(state, params):
    """MU-DEAL-2..4: shuffle the deck, five cards to each player one at a time from the
    dealer's left, turn the next card for trump; the rest is the stock. With
    ``dealer_takes_trump_card`` the dealer takes the turned card and must discard one."""
    n = params[P_NUM_PLAYERS]
    lowest = params[P_LOWEST_RANK]
    rng = state[RNG:RNG + 4]
    cards = deal_order.order_bytes(state, ORDER, N_CARDS)
    k = 0
    for c in range(N_CARDS):
        if c % 13 >= lowest:
            cards[k] = c
            k += 1
    rng_shuffle(cards, k, rng)
    dealer = np.int64(state[DEALER])
    for seat in range(MAX_PLAYERS):
        for w in (HAND, DISCARDS, TRICK_CARD, TRICKS_WON, EXCLUDED, PLAYED, DECISION):
            state[w + seat] = ZERO
        state[START_RECORD + seat] = state[RECORD + seat]
    for i in range(HAND_SIZE * n):
        state[HAND + (dealer + 1 + i) % n] |= bit(cards[i])
    trump_card = np.int64(cards[HAND_SIZE * n])
    state[TRUMP_CARD] = trump_card
    stock = ZERO
    for i in range(HAND_SIZE * n + 1, k):
        stock |= bit(cards[i])
    state[STOCK] = stock
    state[NEXT] = HAND_SIZE * n + 1
    for w in (ACTIVE, ACE_HOLDER, BONUS_TAKEN, TRICK_NUMBER, LONE_LEFT, STOP_SEAT, STOP_AT,
              VOID_DEAL, TRUMP_TAKEN):
        state[w] = ZERO
    state[LEADER] = next_seat(dealer, n)
    if params[P_DEALER_TAKES_TRUMP] == 1:
        state[HAND + dealer] |= bit(trump_card)
        state[TRUMP_TAKEN] = ONE
        state[PHASE] = PHASE_DISCARD
        state[TO_MOVE] = dealer
    else:
        state[PHASE] = PHASE_EXCHANGE
        state[TO_MOVE] = next_seat(dealer, n)


@kernel
def start(params, rng, out, mode):
    """MU-DEAL-1: a first dealer by lot; every record at ``start_points``."""
    out[:] = ZERO
    for k in range(4):
        out[RNG + k] = rng_next(rng)
    out[MODE] = mode
    out[DEAL_NUMBER] = ONE
    for seat in range(params[P_NUM_PLAYERS]):
        out[RECORD + seat] = params[P_START_POINTS]
    out[DEALER] = rng_below(out[RNG:RNG + 4], params[P_NUM_PLAYERS])
    deal(out, params)


@kernel
def new_deal(params, rng, out):
    """One deal from ``start_points`` (the Python API may set other records)."""
    start(params, rng, out, 0)


@kernel
def new_match(params, rng, out):
    """A whole game, until a player stops at 0 (MU-MATCH-1) or ``max_deals`` (MU-MATCH-2)."""
    start(params, rng, out, MODE_MATCH)


# --- the end of a deal and of the game -----------------------------------------------------

@helper
def stop_game(state, seat):
    """MU-STOP-1, MU-MATCH-1: the player at 0 stops and wins; nothing more is scored."""
    state[STOPPER] = seat + 1
    state[WINNERS] = bit(seat)
    state[TO_MOVE] = ZERO
    state[PHASE] = PHASE_MATCH_OVER if state[MODE] == MODE_MATCH else PHASE_DEAL_OVER


@helper
def finish_deal(state, params):
    """MU-MATCH-2: a deal ends; a match deals again, or ends after ``max_deals`` with the
    lowest records winning."""
    state[TO_MOVE] = ZERO
    if state[MODE] != MODE_MATCH:
        state[PHASE] = PHASE_DEAL_OVER
        return
    limit = params[P_MAX_DEALS]
    if limit and np.int64(state[DEAL_NUMBER]) >= limit:
        n = params[P_NUM_PLAYERS]
        best = np.int64(state[RECORD])
        for seat in range(n):
            best = min(best, np.int64(state[RECORD + seat]))
        winners = ZERO
        for seat in range(n):
            if np.int64(state[RECORD + seat]) == best:
                winners |= bit(seat)
        state[WINNERS] = winners
        state[PHASE] = PHASE_MATCH_OVER
        return
    state[PHASE] = PHASE_NEXT_DEAL


@helper
def offer_stop(state, seat, at):
    """MU-STOP-4: ``seat``, at 0, is offered the stop; a refusal resumes at ``at``."""
    state[PHASE] = PHASE_STOP
    state[STOP_SEAT] = seat
    state[STOP_AT] = at
    state[TO_MOVE] = seat


@helper
def reached_zero(state, params, seat, at):
    """MU-STOP-1/4: a record of 0 stops the game (automatic) or offers the stop (declared).
    Returns True when the flow is interrupted."""
    if state[RECORD + seat] != ZERO:
        return False
    if params[P_DECLARED_STOP] == 1:
        offer_stop(state, seat, at)
    else:
        stop_game(state, seat)
    return True


@helper
def write_off(state, seat, amount):
    """MU-SCORE-5, MU-STOP-2: a write-off never takes a record below 0 (the clamp)."""
    record = np.int64(state[RECORD + seat])
    state[RECORD + seat] = max(0, record - amount)


@helper
def win_trick(state, params, seat):
    """MU-SCORE-1, MU-SCORE-3, MU-STOP-3: a trick won writes off 1 at once (a record at 0
    restarts from ``start_points - 1``, or ``start_points``); the holder's first trick also
    writes off the ace bonus (``first_trick``). Returns True when a stop interrupts."""
    if state[RECORD + seat] == ZERO:
        state[RECORD + seat] = params[P_START_POINTS] - (0 if params[P_RESET_TO_START] else 1)
    else:
        state[RECORD + seat] -= ONE
    state[TRICKS_WON + seat] += ONE
    if params[P_BONUS_AT_END] == 0 and state[TRICKS_WON + seat] == ONE:
        if np.int64(state[ACE_HOLDER]) == seat + 1:
            write_off(state, seat, ace_bonus(state, params))
            state[BONUS_TAKEN] = ONE
        else:
            state[EXCLUDED + seat] |= _ACE_OF_SPADES   # rules §5: no bonus, so no ace
    return reached_zero(state, params, seat, AT_PLAY)


@helper
def end_offers(state, params, after):
    """MU-STOP-4: at the end of the deal every player at 0, from the dealer's left, is offered
    the stop (the offers after seat ``after``; -1 = from the start)."""
    n = params[P_NUM_PLAYERS]
    dealer = np.int64(state[DEALER])
    start = 1 if after < 0 else (after - dealer - 1 + n) % n + 2   # the dealer is i = n
    for i in range(start, n + 1):
        seat = (dealer + i) % n
        if state[RECORD + seat] == ZERO:
            offer_stop(state, seat, AT_END)
            return
    finish_deal(state, params)


@helper
def remise(state, params):
    """MU-SCORE-2, MU-SCORE-4: an active player without a trick adds the remise; the ace
    holder without a trick adds 5 more. Then the offers of MU-STOP-4 (declared mode)."""
    n = params[P_NUM_PLAYERS]
    holder = np.int64(state[ACE_HOLDER]) - 1
    for seat in range(n):
        if state[ACTIVE] & bit(seat) and state[TRICKS_WON + seat] == ZERO:
            state[RECORD + seat] += params[P_REMISE] + (params[P_ACE_BONUS] if seat == holder
                                                        else 0)
    if params[P_DECLARED_STOP] == 1:
        end_offers(state, params, -1)
    else:
        finish_deal(state, params)


@helper
def end_of_deal(state, params):
    """MU-SCORE-3 (``end_of_deal`` timing), then the remises: the holder with a trick writes
    off the ace bonus; a record of 0 stops (or is offered the stop) before any remise."""
    holder = np.int64(state[ACE_HOLDER]) - 1
    if params[P_BONUS_AT_END] == 1 and holder >= 0 and state[TRICKS_WON + holder] != ZERO:
        write_off(state, holder, ace_bonus(state, params))
        state[BONUS_TAKEN] = ONE
        if reached_zero(state, params, holder, AT_BONUS):
            return
    remise(state, params)


@helper
def play_on(state, params):
    """MU-PLAY-2, MU-PASS-3: after a trick (or a declined stop) the lone player's next credited
    trick, the end of the deal, or the next lead by the trick's winner."""
    while True:
        if state[LONE_LEFT] != ZERO:
            state[LONE_LEFT] -= ONE
            state[TRICK_NUMBER] += ONE
            if win_trick(state, params, np.int64(state[LEADER])):
                return
            continue
        if state[TRICK_NUMBER] == TRICKS_PER_DEAL:
            end_of_deal(state, params)
            return
        state[PHASE] = PHASE_PLAY
        state[TO_MOVE] = state[LEADER]
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
        if state[DECISION + seat] != DECIDED_PASS:
            active |= bit(seat)
            if state[HAND + seat] & _ACE_OF_SPADES:
                state[ACE_HOLDER] = seat + 1
    state[ACTIVE] = active
    count = popcount(active)
    if count == 0 or (count == 1 and params[P_LONE_REDEAL] == 1):
        state[VOID_DEAL] = ONE
        finish_deal(state, params)
        return
    seat = next_seat(np.int64(state[DEALER]), n)
    while not active & bit(seat):
        seat = next_seat(seat, n)
    state[LEADER] = seat
    if count == 1:
        state[LONE_LEFT] = TRICKS_PER_DEAL
    play_on(state, params)


@helper
def next_deal(state, params):
    """MU-DEAL-1: the deal passes to the left after every deal, a void deal included."""
    state[DEALER] = next_seat(np.int64(state[DEALER]), params[P_NUM_PLAYERS])
    state[DEAL_NUMBER] += ONE
    deal(state, params)


@helper
def deal_again(state, params):
    """While a match is marked to deal again, the next dealer deals."""
    while state[PHASE] == PHASE_NEXT_DEAL:
        next_deal(state, params)


# --- play -----------------------------------------------------------------------------------

@helper
def led_card(state):
    """The first card of the current trick, or -1."""
    return np.int64(state[TRICK_CARD + np.int64(state[LEADER])]) - 1


@helper
def trick_best(state, params, suit):
    """The highest card of ``suit`` in the current trick, or -1."""
    best = -1
    for seat in range(params[P_NUM_PLAYERS]):
        c = np.int64(state[TRICK_CARD + seat]) - 1
        if c >= 0 and suit_of(c) == suit and c > best:
            best = c
    return best


@helper
def ace_beats_lead(state, lead):
    """MU-ACE-2: spades are not trump and the trick was led with the ace of trumps."""
    t = trump_suit(state)
    return t != SPADES and lead == 13 * t + 12


@helper
def legal_cards(state, params, seat):
    """MU-PLAY-3..5, MU-ACE-2..4: follow suit, else trump, else any card (with
    ``must_head_trick``: above the trick's best of the suit while it is not trumped; with
    ``must_overtrump``: above its best trump); the ace of spades may answer a led trump ace."""
    hand = state[HAND + seat]
    lead = led_card(state)
    if lead < 0:
        return hand
    led = suit_of(lead)
    t = trump_suit(state)
    follow = hand & SUIT_MASK[led]
    trumps = hand & SUIT_MASK[t]
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
    if ace_beats_lead(state, lead) and hand & _ACE_OF_SPADES:
        legal |= _ACE_OF_SPADES
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
    if card == ACE_OF_SPADES and ace_beats_lead(state, lead):
        return ZERO
    if s == led:
        if params[P_MUST_HEAD] == 1 and (led == t or trick_best(state, params, t) < 0):
            best = trick_best(state, params, led)
            if card < best:
                return above(best)
        return ZERO
    proof = SUIT_MASK[led]
    if s != t:
        return proof | SUIT_MASK[t]
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
        c = np.int64(state[TRICK_CARD + seat]) - 1
        if c < 0:
            continue
        if c == ACE_OF_SPADES and ace_beats_lead(state, lead):
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
    state[EXCLUDED + seat] |= shown_not_held(state, params, seat, card)
    state[HAND + seat] &= ~bit(card)
    state[PLAYED + seat] |= bit(card)
    state[TRICK_CARD + seat] = card + 1
    nxt = next_seat(seat, n)
    while not state[ACTIVE] & bit(nxt):
        nxt = next_seat(nxt, n)
    if nxt != np.int64(state[LEADER]):
        state[TO_MOVE] = nxt
        return
    winner = trick_winner(state, params)
    for s in range(n):
        state[TRICK_CARD + s] = ZERO
    state[TRICK_NUMBER] += ONE
    state[LEADER] = winner
    if not win_trick(state, params, winner):
        play_on(state, params)


# --- the exchange -------------------------------------------------------------------------------

@helper
def keep_mask(state, params, seat):
    """MU-EXCH-4 and the taken turned card: cards that may not be discarded."""
    keep = ZERO
    if params[P_ACE_DISCARDABLE] == 0:
        keep |= _ACE_OF_SPADES
    if state[TRUMP_TAKEN] and seat == np.int64(state[DEALER]):
        keep |= bit(np.int64(state[TRUMP_CARD]))
    return keep


@helper
def exchange(state, params, seat, cards):
    """MU-EXCH-2, MU-EXCH-6: discard ``cards`` face down and draw as many from the stock."""
    state[HAND + seat] &= ~cards
    state[DISCARDS + seat] |= cards
    k = popcount(cards)
    state[HAND + seat] |= deal_order.deal_next(state, ORDER, NEXT, STOCK, k)
    state[DECISION + seat] = DECIDED_STAND + k


@kernel
def legal_actions(state, params, out):
    """The legal action ids, ascending: MU-EXCH-2..5 in the exchange, MU-PLAY-3..5 and
    MU-ACE-2 in play, MU-STOP-4 at an offer, the dealer's discard for the turned card."""
    phase = state[PHASE]
    if phase == PHASE_DEAL_OVER or phase == PHASE_MATCH_OVER:
        return 0
    seat = np.int64(state[TO_MOVE])
    n = 0
    if phase == PHASE_PLAY:
        cards = legal_cards(state, params, seat)
        while cards:
            out[n] = action(PLAY, bit(lowest_index(cards)))
            n += 1
            cards &= cards - ONE
    elif phase == PHASE_EXCHANGE:
        hand = state[HAND + seat]
        free = hand & ~keep_mask(state, params, seat)
        limit = min(HAND_SIZE, popcount(state[STOCK]))
        sub = (ZERO - free) & free                 # the non-empty subsets, ascending
        while sub:
            if popcount(sub) <= limit:
                out[n] = action(EXCHANGE, sub)
                n += 1
            sub = (sub - free) & free
        out[n] = action(STAND, ZERO)
        n += 1
        if not hand & _ACE_OF_SPADES:              # MU-EXCH-3
            out[n] = action(PASS, ZERO)
            n += 1
    elif phase == PHASE_DISCARD:
        cards = state[HAND + seat] & ~keep_mask(state, params, seat)
        while cards:
            out[n] = action(DISCARD, bit(lowest_index(cards)))
            n += 1
            cards &= cards - ONE
    else:
        out[0] = action(STOP, ZERO)
        out[1] = action(PLAY_ON, ZERO)
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
    kind = np.int64(np.uint64(a) >> _SHIFT)
    cards = np.uint64(a) & _CARDS
    seat = np.int64(state[TO_MOVE])
    if kind == PLAY:
        play_card(state, params, seat, lowest_index(cards))
    elif kind == DISCARD:
        state[HAND + seat] &= ~cards
        state[DISCARDS + seat] |= cards
        state[PHASE] = PHASE_EXCHANGE
        state[TO_MOVE] = next_seat(seat, n)
    elif kind == STOP:
        stop_game(state, seat)
    elif kind == PLAY_ON:
        at = state[STOP_AT]
        if at == AT_PLAY:
            play_on(state, params)
        elif at == AT_BONUS:
            remise(state, params)
        else:
            end_offers(state, params, seat)
    else:
        if kind == EXCHANGE:
            exchange(state, params, seat, cards)
        elif kind == STAND:
            state[DECISION + seat] = DECIDED_STAND
        else:
            state[DECISION + seat] = DECIDED_PASS
            state[EXCLUDED + seat] |= _ACE_OF_SPADES     # MU-EXCH-3: a pass proves no ace
        if seat == np.int64(state[DEALER]):
            end_exchange(state, params)
        else:
            state[TO_MOVE] = next_seat(seat, n)


# --- outcome ----------------------------------------------------------------------------------

@kernel
def is_terminal(state, params):
    """The deal (MU-STOP-1, MU-PASS-2) or the game (MU-MATCH-1/2) is over."""
    return state[PHASE] == PHASE_DEAL_OVER or state[PHASE] == PHASE_MATCH_OVER


@kernel
def current_player(state, params):
    """The seat to move, or ``TERMINAL`` (-1)."""
    if is_terminal(state, params):
        return TERMINAL
    return np.int64(state[TO_MOVE])


@kernel
def returns(state, params, out):
    """Per seat. A deal: the record written off (``start_record - record``: +1 a trick, the
    ace bonus, -5 a remise). A match: each loser -1/(n-1), the winners share the losers'
    total (one winner +1). Zeros before the end."""
    n = params[P_NUM_PLAYERS]
    out[:] = 0.0
    if not is_terminal(state, params):
        return
    if state[MODE] != MODE_MATCH:
        for seat in range(n):
            out[seat] = float(np.int64(state[START_RECORD + seat]) - np.int64(state[RECORD + seat]))
        return
    winners = state[WINNERS]
    n_win = popcount(winners)
    stake = 1.0 / (n - 1)
    for seat in range(n):
        out[seat] = stake * (n - n_win) / n_win if winners & bit(seat) else 0.0 - stake


# --- hidden information --------------------------------------------------------------------

MAX_WORLD_TRIES = 10_000     # rejection tries before the exact draw (:func:`exact_world`)


@helper
def ace_public(state):
    """Rules §5: the ace of spades' place is public once it was played or its bonus written
    off (or it is the turned card, or the dealer took it as the turned card)."""
    if state[TRUMP_CARD] == ACE_OF_SPADES:
        return True
    if state[BONUS_TAKEN]:
        return True
    for seat in range(MAX_PLAYERS):
        if state[PLAYED + seat] & _ACE_OF_SPADES:
            return True
    return False


@helper
def end_bonus_reached(state):
    """With ``ace_bonus_timing=end_of_deal``: the end of the deal was reached (MU-SCORE-3), so
    a holder with a trick has written off the bonus. A stop after the fifth trick is not
    counted: the position dict does not say whether it came before the bonus or after."""
    if state[TRICK_NUMBER] != TRICKS_PER_DEAL:
        return False
    phase = state[PHASE]
    if phase == PHASE_STOP:
        return state[STOP_AT] != AT_PLAY
    return (phase == PHASE_DEAL_OVER or phase == PHASE_MATCH_OVER) and state[STOPPER] == ZERO


@kernel(nrt=True)
def forbidden_cards(state, params, observer, out):
    """Rules §5: per seat, the hidden cards its hand cannot hold: ``EXCLUDED``, and with
    ``ace_bonus_timing=end_of_deal`` the ace of spades for every active seat with a trick once
    the end of the deal passed without the bonus (it was not his to write off)."""
    n = params[P_NUM_PLAYERS]
    no_bonus = (params[P_BONUS_AT_END] == 1 and state[BONUS_TAKEN] == ZERO
                and end_bonus_reached(state))
    for seat in range(n):
        out[seat] = state[EXCLUDED + seat]
        if no_bonus and state[ACTIVE] & bit(seat) and state[TRICKS_WON + seat] != ZERO:
            out[seat] |= _ACE_OF_SPADES


@helper
def uniform01(rng):
    """A float uniform in [0, 1) from 53 random bits."""
    return np.float64(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(nrt=True)
def exact_world(state, params, observer, rng, hidden, forbid, out):
    """Rules §5: the hidden cards dealt to their places uniformly among the worlds that keep
    every hand clear of its ``forbid`` cards and the discards clear of the ace of spades
    (unless ``ace_of_spades_discardable``) — exactly, by counting. The hands are the places
    that constrain; the discards and the stock form one pool P (the ace of spades in P weighs
    s / (d + s): it must lie in one of the s stock positions, not in the d discard slots).
    Cards that every hand may hold are counted in closed form (a multinomial); the others
    one at a time by a dynamic programme over the hands' free slots. Returns False when no
    world is possible (``out`` is then left alone)."""
    n = params[P_NUM_PLAYERS]
    seats = np.empty(MAX_PLAYERS, dtype=np.int64)
    size = np.zeros(MAX_PLAYERS, dtype=np.int64)
    stride = np.zeros(MAX_PLAYERS, dtype=np.int64)
    m = 0
    n_states = 1
    d = 0
    for seat in range(n):
        if seat == observer:
            continue
        h = np.int64(popcount(state[HAND + seat] & hidden))
        d += np.int64(popcount(state[DISCARDS + seat] & hidden))
        if h:
            seats[m] = seat
            size[m] = h
            stride[m] = n_states
            n_states *= h + 1
            m += 1
    s = np.int64(popcount(state[STOCK]))
    ace_to_pool = 1.0
    if params[P_ACE_DISCARDABLE] == 0:
        ace_to_pool = s / (d + s) if d + s > 0 else 0.0
    # constrained cards first (some hand may not hold them; the ace of spades always), then
    # the free ones
    cards = np.empty(N_CARDS, dtype=np.int64)
    free = np.empty(N_CARDS, dtype=np.int64)
    n_con = 0
    n_free = 0
    rest = hidden
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        con = c == ACE_OF_SPADES
        for j in range(m):
            if forbid[seats[j]] & bit(c):
                con = True
        if con:
            cards[n_con] = c
            n_con += 1
        else:
            free[n_free] = c
            n_free += 1
    fact = np.ones(N_CARDS + 1, dtype=np.float64)
    for i in range(1, N_CARDS + 1):
        fact[i] = fact[i - 1] * i
    # ways[i, slots]: the weighted worlds of cards[i:] and the free cards, with ``slots`` (in
    # the mixed radix of ``stride``) still free in the hands; the pool takes the rest
    ways = np.zeros((n_con + 1, n_states), dtype=np.float64)
    cap = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for i in range(n_con, -1, -1):
        left = n_con - i + n_free
        for x in range(n_states):
            total = 0
            rem = x
            for j in range(m):
                cap[j] = rem % (size[j] + 1)
                rem //= size[j] + 1
                total += cap[j]
            pool = left - total
            if pool < 0:
                continue
            if i == n_con:
                w = fact[n_free] / fact[pool]
                for j in range(m):
                    w /= fact[cap[j]]
                ways[i, x] = w
                continue
            c = cards[i]
            w = 0.0
            for j in range(m):
                if cap[j] and not forbid[seats[j]] & bit(c):
                    w += ways[i + 1, x - stride[j]]
            if pool:
                w += ways[i + 1, x] * (ace_to_pool if c == ACE_OF_SPADES else 1.0)
            ways[i, x] = w
    x = n_states - 1
    if not ways[0, x] > 0.0:
        return False
    got = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    pool_cards = np.empty(N_CARDS, dtype=np.int64)
    n_pool = 0
    for i in range(n_con):
        c = cards[i]
        u = uniform01(rng) * ways[i, x]
        total = 0
        for j in range(m):
            total += x // stride[j] % (size[j] + 1)
        pick = -1                       # -1: the pool
        last = -1
        chosen = False
        for j in range(m):
            if x // stride[j] % (size[j] + 1) and not forbid[seats[j]] & bit(c):
                w = ways[i + 1, x - stride[j]]
                if w > 0.0:
                    last = j
                    if u < w:
                        pick = j
                        chosen = True
                        break
                    u -= w
        if not chosen:
            w = 0.0
            if n_con - i + n_free - total > 0:
                w = ways[i + 1, x] * (ace_to_pool if c == ACE_OF_SPADES else 1.0)
            pick = -1 if w > 0.0 else last      # (a rounding error of the last option)
        if pick < 0:
            pool_cards[n_pool] = c
            n_pool += 1
        else:
            got[pick] |= bit(c)
            x -= stride[pick]
    rng_shuffle(free, n_free, rng)
    k = 0
    for j in range(m):
        for _i in range(x // stride[j] % (size[j] + 1)):
            got[j] |= bit(free[k])
            k += 1
    while k < n_free:
        pool_cards[n_pool] = free[k]
        n_pool += 1
        k += 1
    # the pool: discard slots first (seat by seat), then the stock positions; the ace of
    # spades, when it may not be discarded, is swapped into a random stock position
    rng_shuffle(pool_cards, n_pool, rng)
    if params[P_ACE_DISCARDABLE] == 0:
        for i in range(d):
            if pool_cards[i] == ACE_OF_SPADES:
                j = d + rng_below(rng, s)
                pool_cards[i] = pool_cards[j]
                pool_cards[j] = ACE_OF_SPADES
                break
    copy_words(out, state)
    used = 0
    for seat in range(n):
        if seat == observer:
            continue
        out[HAND + seat] = state[HAND + seat] & ~hidden
        for j in range(m):
            if seats[j] == seat:
                out[HAND + seat] |= got[j]
        mask = ZERO
        for _i in range(popcount(state[DISCARDS + seat] & hidden)):
            mask |= bit(pool_cards[used])
            used += 1
        out[DISCARDS + seat] = (state[DISCARDS + seat] & ~hidden) | mask
    stock = ZERO
    for i in range(np.int64(state[NEXT]), np.int64(state[NEXT]) + s):
        deal_order.set_order_card(out, ORDER, i, pool_cards[used])
        stock |= bit(pool_cards[used])
        used += 1
    out[STOCK] = stock
    return True


@kernel(nrt=True)
def determinize(state, params, observer, rng, out):
    """Rules §5: a world consistent with what ``observer`` has seen, uniformly at random.

    Unseen: the other hands (passed hands too), the other players' discards and the stock
    (in order). The unseen cards are shuffled and dealt back to the same places, and the world
    is drawn again (rejection, at most ``MAX_WORLD_TRIES`` times) unless every hand avoids the
    cards its player is publicly known not to hold (:func:`forbidden_cards`: ``EXCLUDED``, and
    the ace of spades for a seat with a trick once the end of the deal passed without the
    ``end_of_deal`` bonus) and no discard holds the ace of spades (MU-EXCH-4); when every try
    fails the world is drawn exactly (:func:`exact_world`), which keeps it uniform. The turned
    card is public; once the bonus was written off, the ace stays with its (public) holder.
    Only the sizes of the hidden places and public facts are read, never the identities of
    hidden cards; the ace holder of the world follows its cards, the chance stream of later
    deals is replaced, and the deal order keeps only the stock.
    """
    n = params[P_NUM_PLAYERS]
    public = bit(np.int64(state[TRUMP_CARD]))
    ace_fixed = ace_public(state)
    if ace_fixed:
        public |= _ACE_OF_SPADES
    hidden = state[STOCK]
    for seat in range(n):
        if seat != observer:
            hidden |= state[HAND + seat] | state[DISCARDS + seat]
    hidden &= ~public
    forbid = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    forbidden_cards(state, params, observer, forbid)
    cards = np.empty(N_CARDS, dtype=np.int64)
    k = 0
    rest = hidden
    while rest:
        cards[k] = lowest_index(rest)
        rest &= rest - ONE
        k += 1
    no_ace_discards = params[P_ACE_DISCARDABLE] == 0
    found = False
    for _ in range(MAX_WORLD_TRIES):
        copy_words(out, state)
        rng_shuffle(cards, k, rng)
        used = 0
        ok = True
        for seat in range(n):
            if seat == observer:
                continue
            for where in (HAND, DISCARDS):
                m = ZERO
                for _i in range(popcount(state[where + seat] & hidden)):
                    m |= bit(cards[used])
                    used += 1
                out[where + seat] = (state[where + seat] & ~hidden) | m
            if out[HAND + seat] & forbid[seat]:
                ok = False
            if no_ace_discards and out[DISCARDS + seat] & _ACE_OF_SPADES:
                ok = False
        if not ok:
            continue
        stock = ZERO
        for i in range(np.int64(state[NEXT]), np.int64(state[NEXT]) + popcount(state[STOCK])):
            deal_order.set_order_card(out, ORDER, i, cards[used])
            stock |= bit(cards[used])
            used += 1
        out[STOCK] = stock
        found = True
        break
    if not found and not exact_world(state, params, observer, rng, hidden, forbid, out):
        copy_words(out, state)  # no world fits (an inconsistent position): the state as it is
    deal_order.forget_dealt(out, ORDER, NEXT)
    if state[ACE_HOLDER] != ZERO or state[ACTIVE] != ZERO:
        holder = ZERO
        for seat in range(n):
            if state[ACTIVE] & bit(seat) and (out[HAND + seat] | out[PLAYED + seat]) \
                    & _ACE_OF_SPADES:
                holder = np.uint64(seat + 1)
        if not ace_fixed:
            out[ACE_HOLDER] = holder
    for j in range(4):
        out[RNG + j] = rng_next(rng)


@helper
def observed_action(state, params, a, observer):
    """Rules §5: the action ``a`` of the player to move as ``observer`` sees it. Another
    player's exchange shows only how many cards he exchanged (``EXCHANGE_SEEN << 52 | k``)
    and the dealer's discard for the turned card shows no card; every other action is seen
    whole."""
    if np.int64(state[TO_MOVE]) == observer:
        return a
    kind = np.int64(np.uint64(a) >> _SHIFT)
    if kind == EXCHANGE:
        return action(EXCHANGE_SEEN, np.uint64(popcount(np.uint64(a) & _CARDS)))
    if kind == DISCARD:
        return action(DISCARD, ZERO)
    return a


# --- the engine's own play loop -------------------------------------------------------------

RECORD_COLUMNS = (("deal_number", "dealer", "trump", "active", "passes", "stands", "exchanges",
                   "cards_exchanged", "ace_holder", "ace_bonus", "remised", "void", "lone",
                   "stopper", "match_over", "winners", "moves")
                  + tuple(f"tricks_{s}" for s in range(MAX_PLAYERS))
                  + tuple(f"change_{s}" for s in range(MAX_PLAYERS)))
"""One row per deal of ``play_random_deals`` (games follow each other: a game's first deal has
``deal_number`` 1): masks of seats (``active``, ``passes``, ``stands``, ``remised``, ``winners``), seats
as 1 + seat or 0 (``ace_holder``, ``lone``, ``stopper``), ``match_over`` (1: the game ended
with this deal; the last match of a call may be cut off), tricks and record written off per
seat (``start_record - record``); ``trump`` is the trump suit (0 spades .. 3 hearts)."""


@helper
def record_deal(state, params, row, moves):
    """Fill one row of :data:`RECORD_COLUMNS` from a finished deal."""
    n = params[P_NUM_PLAYERS]
    passes = ZERO
    stands = ZERO
    exchanges = 0
    exchanged = 0
    for seat in range(n):
        decision = state[DECISION + seat]
        if decision == DECIDED_PASS:
            passes |= bit(seat)
        elif decision == DECIDED_STAND:
            stands |= bit(seat)
        else:
            exchanges += 1
            exchanged += np.int64(decision) - DECIDED_STAND
    void = np.int64(state[VOID_DEAL])
    stopper = np.int64(state[STOPPER])
    remised = ZERO
    if void == 0 and (stopper == 0 or state[STOP_AT] == AT_END):
        for seat in range(n):
            if state[ACTIVE] & bit(seat) and state[TRICKS_WON + seat] == ZERO:
                remised |= bit(seat)
    row[0] = np.int64(state[DEAL_NUMBER])
    row[1] = np.int64(state[DEALER])
    row[2] = trump_suit(state)
    row[3] = np.int64(state[ACTIVE])
    row[4] = np.int64(passes)
    row[5] = np.int64(stands)
    row[6] = exchanges
    row[7] = exchanged
    row[8] = np.int64(state[ACE_HOLDER])
    row[9] = np.int64(state[BONUS_TAKEN])
    row[10] = np.int64(remised)
    row[11] = void
    row[12] = lowest_index(state[ACTIVE]) + 1 if popcount(state[ACTIVE]) == 1 and void == 0 \
        else 0
    row[13] = stopper
    row[14] = 1 if state[PHASE] == PHASE_MATCH_OVER else 0
    row[15] = np.int64(state[WINNERS])
    row[16] = moves
    for seat in range(MAX_PLAYERS):
        row[17 + seat] = np.int64(state[TRICKS_WON + seat]) if seat < n else 0
        row[17 + MAX_PLAYERS + seat] = (np.int64(state[START_RECORD + seat])
                                        - np.int64(state[RECORD + seat])) if seat < n else 0


@kernel(nrt=True)
def play_random_deals(params, rng, n_deals, records, max_actions, policy):
    """Play whole games (matches) with the random player until ``n_deals`` deals are
    recorded, one row per deal (:data:`RECORD_COLUMNS`); a game cut off by the end is marked
    by ``match_over`` 0 in its last row.

    The random player, in the exchange, draws u uniform in [0, 1): u < ``policy[0]`` passes,
    u < ``policy[0] + policy[1]`` stands, otherwise it exchanges a uniformly chosen legal set;
    a pass that is not legal, or an exchange with none legal, stands instead. At a stop offer
    it stops with probability ``policy[2]``; elsewhere it picks uniformly.
    """
    state = np.zeros(STATE_LEN, dtype=np.uint64)
    actions = np.empty(max_actions, dtype=np.int64)
    scale = 1.0 / 9007199254740992.0
    pass_id = action(PASS, ZERO)
    stand_id = action(STAND, ZERO)
    start(params, rng, state, MODE_MATCH)
    for d in range(n_deals):
        moves = 0
        while state[PHASE] < PHASE_DEAL_OVER:
            if state[PHASE] == PHASE_STOP:
                u = np.float64(rng_next(rng) >> np.uint64(11)) * scale
                a = action(STOP, ZERO) if u < policy[2] else action(PLAY_ON, ZERO)
            else:
                m = legal_actions(state, params, actions)
                if state[PHASE] == PHASE_EXCHANGE:
                    u = np.float64(rng_next(rng) >> np.uint64(11)) * scale
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
        record_deal(state, params, records[d], moves)
        if state[PHASE] == PHASE_NEXT_DEAL:
            deal_again(state, params)
        else:
            start(params, rng, state, MODE_MATCH)
