"""High card's hidden information, compiled: worlds sampled for an observer
(:func:`determinize`) and actions as another player sees them (:func:`observed_action`).

Every card is played face up: only the other hand and the stock (and its order) are hidden.
"""
import numpy as np

from cardsim.compiled import order as deal_order
from cardsim.compiled.bits import ZERO, bit, copy_words, indices_of, popcount
from cardsim.compiled.jit import helper, kernel
from cardsim.compiled.rng import rng_next, rng_shuffle

from . import layout as L


@helper
def observed_action(state, params, a, observer):
    """Every move is played face up: everyone sees it whole."""
    return a


@kernel(nrt=True)
def determinize(state, params, observer, rng, out):
    """A world consistent with what ``observer`` has seen, uniformly at random: the cards
    outside his hand, the piles and the trick are shuffled and dealt again to the other hand
    (its size kept) and to the stock (its size kept, in a new order). The true hidden cards
    are never read, only counted; the chance stream is replaced and the dealt part of the
    deal order forgotten."""
    copy_words(out, state)
    seen = state[L.HAND + observer] | state[L.PILE] | state[L.PILE + 1]
    if state[L.TRICK_CARD]:
        seen |= bit(np.int64(state[L.TRICK_CARD]) - 1)
    unseen = L.FULL_DECK & ~seen
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    k = indices_of(unseen, cards)
    rng_shuffle(cards, k, rng)
    other = 1 - observer
    used = popcount(state[L.HAND + other])
    hand = ZERO
    for i in range(used):
        hand |= bit(cards[i])
    out[L.HAND + other] = hand
    stock = ZERO
    for i in range(np.int64(state[L.NEXT]), L.N_CARDS):
        deal_order.set_order_card(out, L.ORDER, i, cards[used])
        stock |= bit(cards[used])
        used += 1
    out[L.STOCK] = stock
    deal_order.forget_dealt(out, L.ORDER, L.NEXT)
    for j in range(4):
        out[L.RNG + j] = rng_next(rng)
