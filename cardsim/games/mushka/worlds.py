"""Mushka's hidden information, compiled (numba): the worlds an observer cannot tell apart
(rules §5), drawn uniformly by :func:`determinize`, and what another player's action shows
(:func:`observed_action`).

The public inferences a world must respect: the ``EXCLUDED`` cards of each hand (recorded in
play by :func:`.kernels.shown_not_held`, a pass and a trick won without the bonus), the ace
of spades of a seat with a trick once the end of the deal passed without the ``end_of_deal``
bonus (:func:`forbidden_cards`), no ace of spades in a discard (MU-EXCH-4), and the place of
the ace once it is public (:func:`ace_public`).
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled.actions import action_id, kind_of, value_of
from ...compiled.bits import ONE, ZERO, bit, copy_words, indices_of, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below, rng_next, rng_shuffle, rng_unit
from . import layout as L
from .kernels import deal_cards
from .rules import (
    P_ACE_DISCARDABLE,
    P_BONUS_AT_END,
    P_NUM_PLAYERS,
)

MAX_WORLD_TRIES = 10_000     # rejection tries before the exact draw (:func:`exact_world`)
WORLD_START_DRAWS = 4        # inference's starts per world: which cards each exchange drew

# analysis calibrates better on inference's worlds: ECE 0.031 against 0.062 uniform
# with strong play-on (experiments/results/calibration_mushka)
ANALYSIS_INFERS = True


@helper
def ace_public(state):
    """Rules §5: the ace of spades' place is public once it was played or its bonus written
    off (or it is the turned card, or the dealer took it as the turned card)."""
    if state[L.TRUMP_CARD] == L.ACE_OF_SPADES:
        return True
    if state[L.BONUS_TAKEN]:
        return True
    for seat in range(L.MAX_PLAYERS):
        if state[L.PLAYED + seat] & L.ACE_MASK:
            return True
    return False


@helper
def end_bonus_reached(state):
    """With ``ace_bonus_timing=end_of_deal``: the end of the deal was reached (MU-SCORE-3), so
    a holder with a trick has written off the bonus. A stop after the fifth trick is not
    counted: the position dict does not say whether it came before the bonus or after."""
    if state[L.TRICK_NUMBER] != L.TRICKS_PER_DEAL:
        return False
    phase = state[L.PHASE]
    if phase == L.PHASE_STOP:
        return state[L.STOP_AT] != L.AT_PLAY
    return (phase == L.PHASE_DEAL_OVER or phase == L.PHASE_MATCH_OVER) and state[L.STOPPER] == ZERO


@kernel(nrt=True)
def forbidden_cards(state, params, observer, out):
    """Rules §5: per seat, the hidden cards its hand cannot hold: ``EXCLUDED``, and with
    ``ace_bonus_timing=end_of_deal`` the ace of spades for every active seat with a trick once
    the end of the deal passed without the bonus (it was not his to write off)."""
    n = params[P_NUM_PLAYERS]
    no_bonus = (params[P_BONUS_AT_END] == 1 and state[L.BONUS_TAKEN] == ZERO
                and end_bonus_reached(state))
    for seat in range(n):
        out[seat] = state[L.EXCLUDED + seat]
        if no_bonus and state[L.ACTIVE] & bit(seat) and state[L.TRICKS_WON + seat] != ZERO:
            out[seat] |= L.ACE_MASK


@helper(nrt=True)
def count_worlds(cards, n_con, n_free, seats, size, stride, m, n_states, forbid, ace_to_pool):
    """Rules §5, the count of :func:`exact_world`: ``ways[i, x]``, the weighted worlds of the
    constrained ``cards[i:n_con]`` and the ``n_free`` free cards with the hands' free slots
    ``x`` (in the mixed radix of ``stride``: hand j of ``seats`` has ``size[j]`` slots); the
    pool takes the rest. A free card fits every hand, so the free cards count in closed form
    (a multinomial); each constrained card goes to a hand that may hold it or to the pool (the
    ace of spades there weighs ``ace_to_pool``)."""
    fact = np.ones(L.N_CARDS + 1, dtype=np.float64)
    for i in range(1, L.N_CARDS + 1):
        fact[i] = fact[i - 1] * i
    ways = np.zeros((n_con + 1, n_states), dtype=np.float64)
    cap = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
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
                w += ways[i + 1, x] * (ace_to_pool if c == L.ACE_OF_SPADES else 1.0)
            ways[i, x] = w
    return ways


@helper
def draw_constrained(ways, cards, n_con, n_free, seats, size, stride, m, forbid, ace_to_pool,
                     rng, got, pool_cards):
    """Rules §5, the draw of :func:`exact_world`: each constrained card in turn to a hand
    (``got[j]`` |= the card) or to the pool (``pool_cards``), with the chance of the worlds
    that follow (:func:`count_worlds`). Returns the hands' free slots left and the pool's
    size."""
    x = ways.shape[1] - 1
    n_pool = 0
    for i in range(n_con):
        c = cards[i]
        u = rng_unit(rng) * ways[i, x]
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
                w = ways[i + 1, x] * (ace_to_pool if c == L.ACE_OF_SPADES else 1.0)
            pick = -1 if w > 0.0 else last      # (a rounding error of the last option)
        if pick < 0:
            pool_cards[n_pool] = c
            n_pool += 1
        else:
            got[pick] |= bit(c)
            x -= stride[pick]
    return x, n_pool


@helper
def deal_back(state, params, observer, hidden, cards, out):
    """Rules §5: a world: ``state`` with its hidden cards replaced by ``cards`` in order: each
    other seat's hidden hand cards, then his hidden discards, then the stock in drawing order
    from position ``NEXT``; every public card stays where it is."""
    copy_words(out, state)
    used = 0
    for seat in range(params[P_NUM_PLAYERS]):
        if seat == observer:
            continue
        for where in (L.HAND, L.DISCARDS):
            m = ZERO
            for _i in range(popcount(state[where + seat] & hidden)):
                m |= bit(cards[used])
                used += 1
            out[where + seat] = (state[where + seat] & ~hidden) | m
    stock = ZERO
    for i in range(np.int64(state[L.NEXT]), np.int64(state[L.NEXT]) + popcount(state[L.STOCK])):
        deal_order.set_order_card(out, L.ORDER, i, cards[used])
        stock |= bit(cards[used])
        used += 1
    out[L.STOCK] = stock


@helper
def fits_inferences(world, params, observer, forbid):
    """Rules §5, MU-EXCH-4: every other hand of ``world`` is clear of its ``forbid`` cards and
    (unless ``ace_of_spades_discardable``) no discard holds the ace of spades."""
    no_ace_discards = params[P_ACE_DISCARDABLE] == 0
    for seat in range(params[P_NUM_PLAYERS]):
        if seat == observer:
            continue
        if world[L.HAND + seat] & forbid[seat]:
            return False
        if no_ace_discards and world[L.DISCARDS + seat] & L.ACE_MASK:
            return False
    return True


@helper
def ace_to_stock(pool_cards, d, s, rng):
    """MU-EXCH-4: the ace of spades may not be discarded: when the shuffled pool put it in one
    of its ``d`` discard slots, it is swapped with a random one of the ``s`` stock positions
    after them (which gives it the weight ``s / (d + s)`` of :func:`exact_world`)."""
    for i in range(d):
        if pool_cards[i] == L.ACE_OF_SPADES:
            j = d + rng_below(rng, s)
            pool_cards[i] = pool_cards[j]
            pool_cards[j] = L.ACE_OF_SPADES
            return


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
    seats = np.empty(L.MAX_PLAYERS, dtype=np.int64)
    size = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    stride = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    m = 0
    n_states = 1
    d = 0
    for seat in range(n):
        if seat == observer:
            continue
        h = np.int64(popcount(state[L.HAND + seat] & hidden))
        d += np.int64(popcount(state[L.DISCARDS + seat] & hidden))
        if h:
            seats[m] = seat
            size[m] = h
            stride[m] = n_states
            n_states *= h + 1
            m += 1
    s = np.int64(popcount(state[L.STOCK]))
    ace_to_pool = 1.0
    if params[P_ACE_DISCARDABLE] == 0:
        ace_to_pool = s / (d + s) if d + s > 0 else 0.0
    # constrained cards first (some hand may not hold them; the ace of spades always), then
    # the free ones. (Minchiate's placements.split_constrained splits so too, by its own
    # constraints: each game's exact draw stays one unit over its own state, on purpose.)
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    free = np.empty(L.N_CARDS, dtype=np.int64)
    n_con = 0
    n_free = 0
    rest = hidden
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        con = c == L.ACE_OF_SPADES
        for j in range(m):
            if forbid[seats[j]] & bit(c):
                con = True
        if con:
            cards[n_con] = c
            n_con += 1
        else:
            free[n_free] = c
            n_free += 1
    ways = count_worlds(cards, n_con, n_free, seats, size, stride, m, n_states, forbid,
                        ace_to_pool)
    x = n_states - 1
    if not ways[0, x] > 0.0:
        return False
    got = np.zeros(L.MAX_PLAYERS, dtype=np.uint64)
    pool_cards = np.empty(L.N_CARDS, dtype=np.int64)
    x, n_pool = draw_constrained(ways, cards, n_con, n_free, seats, size, stride, m, forbid,
                                 ace_to_pool, rng, got, pool_cards)
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
    # the pool: discard slots first (seat by seat), then the stock positions
    rng_shuffle(pool_cards, n_pool, rng)
    if params[P_ACE_DISCARDABLE] == 0:
        ace_to_stock(pool_cards, d, s, rng)
    # the hidden cards in the order of :func:`deal_back`: each hand, then its discards
    placed = np.empty(L.N_CARDS, dtype=np.int64)
    k = 0
    used = 0
    for seat in range(n):
        if seat == observer:
            continue
        for j in range(m):
            if seats[j] == seat:
                rest = got[j]
                while rest:
                    placed[k] = lowest_index(rest)
                    rest &= rest - ONE
                    k += 1
        for _i in range(popcount(state[L.DISCARDS + seat] & hidden)):
            placed[k] = pool_cards[used]
            used += 1
            k += 1
    while used < n_pool:
        placed[k] = pool_cards[used]
        used += 1
        k += 1
    deal_back(state, params, observer, hidden, placed, out)
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
    public = bit(np.int64(state[L.TRUMP_CARD]))
    ace_fixed = ace_public(state)
    if ace_fixed:
        public |= L.ACE_MASK
    hidden = state[L.STOCK]
    for seat in range(n):
        if seat != observer:
            hidden |= state[L.HAND + seat] | state[L.DISCARDS + seat]
    hidden &= ~public
    forbid = np.zeros(L.MAX_PLAYERS, dtype=np.uint64)
    forbidden_cards(state, params, observer, forbid)
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    k = indices_of(hidden, cards)
    found = False
    for _ in range(MAX_WORLD_TRIES):
        rng_shuffle(cards, k, rng)
        deal_back(state, params, observer, hidden, cards, out)
        if fits_inferences(out, params, observer, forbid):
            found = True
            break
    if not found and not exact_world(state, params, observer, rng, hidden, forbid, out):
        copy_words(out, state)  # no world fits (an inconsistent position): the state as it is
    deal_order.forget_dealt(out, L.ORDER, L.NEXT)
    if state[L.ACE_HOLDER] != ZERO or state[L.ACTIVE] != ZERO:
        holder = ZERO
        for seat in range(n):
            if state[L.ACTIVE] & bit(seat) and (out[L.HAND + seat] | out[L.PLAYED + seat]) \
                    & L.ACE_MASK:
                holder = np.uint64(seat + 1)
        if not ace_fixed:
            out[L.ACE_HOLDER] = holder
    for j in range(4):
        out[L.RNG + j] = rng_next(rng)


@helper
def observed_action(state, params, a, observer):
    """Rules §5: the action ``a`` of the player to move as ``observer`` sees it. Another
    player's exchange shows only how many cards he exchanged (``EXCHANGE_SEEN << 52 | k``)
    and the dealer's discard for the turned card shows no card; every other action is seen
    whole."""
    if np.int64(state[L.TO_MOVE]) == observer:
        return a
    kind = kind_of(a, L.KIND_SHIFT)
    if kind == L.EXCHANGE:
        return action_id(L.EXCHANGE_SEEN, popcount(value_of(a, L.KIND_SHIFT)), L.KIND_SHIFT)
    if kind == L.DISCARD:
        return action_id(L.DISCARD, ZERO, L.KIND_SHIFT)
    return a


@helper
def some_cards(cards, k, rng):
    """``k`` of ``cards`` (a mask) drawn uniformly, as a mask."""
    picked = ZERO
    left = popcount(cards)
    for _ in range(k):
        pick = rng_below(rng, left)
        rest = cards & ~picked
        for _i in range(pick):
            rest &= rest - ONE
        picked |= bit(lowest_index(rest))
        left -= 1
    return picked


@kernel(nrt=True)
def world_start(world, params, observer, start, actions, n_actions, out, rng):
    """Rules §5: the start of the deal a sampled ``world`` grew from, for inference
    (:mod:`cardsim.solvers.inference`). ``start`` is the deal's true start and ``actions`` its
    ``n_actions`` moves; of ``start`` only public words are read (dealer, turned card,
    records), of an exchange only its kind and size.

    The cards each seat drew in its exchange (MU-EXCH-2) are drawn from ``rng`` among those
    the world gives it (in hand or played; not the turned card the dealer took); the rest of
    its cards, discards included, are its dealt five, dealt round the table from the dealer's
    left (MU-DEAL-2), the turned card next, the exchanges' draws in turn, then the world's
    stock. False when the world has no such start."""
    n = params[P_NUM_PLAYERS]
    copy_words(out, start)
    dealer = np.int64(start[L.DEALER])
    trump = bit(np.int64(start[L.TRUMP_CARD]))
    taken = start[L.TRUMP_TAKEN] != ZERO
    first = 1 if taken else 0
    draws = np.zeros(L.MAX_PLAYERS, dtype=np.uint64)
    order = np.full(L.MAX_PLAYERS, -1, dtype=np.int64)
    for j in range(n):
        k = first + j
        if k >= n_actions:
            break
        kind = kind_of(actions[k], L.KIND_SHIFT)
        if kind != L.EXCHANGE and kind != L.STAND and kind != L.PASS:
            return False
        seat = (dealer + 1 + j) % n
        order[j] = seat
        if kind == L.EXCHANGE:
            own = world[L.HAND + seat] | world[L.PLAYED + seat]
            if taken and seat == dealer:
                own &= ~trump
            count = popcount(value_of(actions[k], L.KIND_SHIFT))
            if popcount(own) < count:
                return False
            draws[seat] = some_cards(own, count, rng)
    for seat in range(n):
        dealt = (world[L.HAND + seat] | world[L.PLAYED + seat] | world[L.DISCARDS + seat]) \
            & ~draws[seat]
        if taken and seat == dealer:
            dealt &= ~trump
        if popcount(dealt) != L.HAND_SIZE:
            return False
        i = (seat - dealer - 1) % n
        while dealt:
            deal_order.set_order_card(out, L.ORDER, i, lowest_index(dealt))
            dealt &= dealt - ONE
            i += n
    p = L.HAND_SIZE * n
    deal_order.set_order_card(out, L.ORDER, p, np.int64(start[L.TRUMP_CARD]))
    p += 1
    for j in range(n):
        seat = order[j]
        if seat < 0:
            break
        drawn = draws[seat]
        while drawn:
            deal_order.set_order_card(out, L.ORDER, p, lowest_index(drawn))
            drawn &= drawn - ONE
            p += 1
    if not deal_order.continue_from_world(out, world, L.ORDER, L.NEXT, L.RNG, p, L.N_CARDS):
        return False
    return deal_cards(out, params)


@helper
def world_action(world, state, params, observer, a):
    """Rules §5: the move ``a`` of the player to move in ``state`` as made in a sampled
    ``world``: another player's exchange with the world's discards he has not made yet (as
    many: else no legal move, -1), the dealer's discard for the turned card with the lowest
    of them (MU-DEAL-4); every other move as it was."""
    seat = np.int64(state[L.TO_MOVE])
    kind = kind_of(a, L.KIND_SHIFT)
    if seat == observer or (kind != L.EXCHANGE and kind != L.DISCARD):
        return a
    left = world[L.DISCARDS + seat] & ~state[L.DISCARDS + seat]
    if kind == L.DISCARD:
        return action_id(L.DISCARD, bit(lowest_index(left)) if left else ZERO, L.KIND_SHIFT)
    if popcount(left) != popcount(value_of(a, L.KIND_SHIFT)):
        return np.int64(-1)
    return action_id(L.EXCHANGE, left, L.KIND_SHIFT)
