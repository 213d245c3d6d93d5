"""Scopa's hidden information (rules/scopa.md §5), compiled: worlds sampled for an observer
(:func:`determinize`) and actions as another player sees them (:func:`observed_action`).

Everything but the other hands and the stock is public: the table, both piles and every move
(played face up). So a world only redistributes the unseen cards among the other hands and
the stock, keeping their public sizes.
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled.bits import ONE, ZERO, bit, copy_words, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_next, rng_shuffle
from . import layout as L
from .kernels import deal_cards, set_order_card
from .rules import P_HAND_SIZE, P_NUM_PLAYERS

# analysis on uniform worlds: as well calibrated as on inference's (ECE 0.021 both
# with strong play-on, experiments/results/calibration_scopa) and cheaper
ANALYSIS_INFERS = False


@helper
def observed_action(state, params, a, observer):
    """Rules §5: every Scopa move is played face up, so everyone sees it whole."""
    return a


@kernel(nrt=True)
def determinize(state, params, observer, rng, out):
    """Rules §5: a world consistent with what ``observer`` has seen, uniformly at random.

    The unseen cards are the deck minus the observer's hand, the table and both piles (all
    public); they are shuffled and dealt again to the other hands (keeping their public sizes)
    and to the stock (keeping its size). The true hidden cards are never read, only counted;
    the chance stream of later deals is replaced too, so it cannot leak future deals, and the
    dealt part of the deal order is forgotten (it holds the true hands).
    """
    copy_words(out, state)
    unseen = L.FULL_DECK & ~(state[L.HAND + observer] | state[L.TABLE] | state[L.PILE] | state[L.PILE + 1])
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    k = 0
    while unseen:
        cards[k] = lowest_index(unseen)
        unseen &= unseen - ONE
        k += 1
    rng_shuffle(cards, k, rng)
    used = 0
    for seat in range(params[P_NUM_PLAYERS]):
        if seat == observer:
            continue
        m = ZERO
        for _ in range(popcount(state[L.HAND + seat])):
            m |= bit(cards[used])
            used += 1
        out[L.HAND + seat] = m
    stock = ZERO
    for i in range(np.int64(state[L.NEXT]), L.N_CARDS):
        set_order_card(out, i, cards[used])
        stock |= bit(cards[used])
        used += 1
    out[L.STOCK] = stock
    deal_order.forget_dealt(out, L.ORDER, L.NEXT)
    for j in range(4):
        out[L.RNG + j] = rng_next(rng)


@kernel
def world_start(world, params, observer, start, actions, n_actions, out, rng):
    """Rules §5: the start of the deal that a sampled ``world`` grew from, for inference
    (:mod:`cardsim.solvers.inference`): ``start`` is the deal's true start and ``actions`` its
    ``n_actions`` moves so far; of ``start`` only public words are read (the opening table,
    the dealer, the match), never its deal order.

    Each move plays one card in turn from the dealer's next player, so the position of every
    played card in the deal order follows from its move's number; the cards of the hands of
    the current round not played yet come from the world, the stock from the world's order.
    Returns False when the world has no such start (never for a world of ``determinize``)."""
    copy_words(out, start)
    n, h = params[P_NUM_PLAYERS], params[P_HAND_SIZE]
    per_round = n * h
    table = start[L.TABLE]            # the opening table (a position read from a dict keeps
    for i in range(4):                # no dealt order: its dealt positions are blanks)
        set_order_card(out, i, lowest_index(table))
        table &= table - ONE
    for i in range(4, L.N_CARDS):
        set_order_card(out, i, deal_order.UNKNOWN)
    for k in range(n_actions):
        q = k % per_round
        set_order_card(out, 4 + (k - q) + (q % n) * h + q // n,
                       np.int64(np.uint64(actions[k]) >> np.uint64(L.ACTION_CARD_SHIFT)))
    p = L.N_CARDS
    if n_actions < L.N_CARDS - 4:
        base = n_actions - n_actions % per_round
        dealer = np.int64(start[L.DEALER])
        for j in range(n):
            seat = (dealer + 1 + j) % n
            played = (n_actions - base - j + n - 1) // n if n_actions - base > j else 0
            hand = world[L.HAND + seat]
            if popcount(hand) != h - played:
                return False
            t = played
            while hand:
                set_order_card(out, 4 + base + j * h + t, lowest_index(hand))
                hand &= hand - ONE
                t += 1
        p = 4 + base + per_round
    if not deal_order.continue_from_world(out, world, L.ORDER, L.NEXT, L.RNG, p, L.N_CARDS):
        return False
    return deal_cards(out, params)


@helper
def world_action(world, state, params, observer, a):
    """Rules §5: a move as made in a sampled world: Scopa's are public, the same."""
    return a
