"""The deal order of a state vector, shared by every game's kernels.

A game keeps its shuffled deck in a run of uint64 words starting at offset ``order`` of the
state, one card per byte (position ``i`` = byte ``i``), plus a word ``next_`` holding the
position of the next card to deal and a word ``stock`` holding the undealt cards as a mask.
These helpers read, write, shuffle and deal from it; the offsets are the game's layout
constants.
"""
import sys

import numpy as np

from .bits import ZERO, bit
from .jit import leaf
from .rng import rng_shuffle

if sys.byteorder != "little":  # positions are read both as bytes and as bits of words
    raise ImportError("cardsim's deal order needs a little-endian machine")


@leaf
def order_bytes(state, order, n_cards):
    """The deal order as bytes, a view of the state's words (little-endian: byte i is
    position i, the same as :func:`order_card`)."""
    return state[order:order + (n_cards + 7) // 8].view(np.uint8)


@leaf
def order_card(state, order, i):
    """The card at position ``i`` of the deal order."""
    return np.int64((state[order + (i >> 3)] >> np.uint64((i & 7) << 3)) & np.uint64(0xFF))


@leaf
def set_order_card(state, order, i, card):
    """Write ``card`` at position ``i`` of the deal order."""
    shift = np.uint64((i & 7) << 3)
    w = order + (i >> 3)
    state[w] = (state[w] & ~(np.uint64(0xFF) << shift)) | (np.uint64(card) << shift)


@leaf
def reset_order(state, order, n_cards):
    """Positions 0..n_cards-1 hold cards 0..n_cards-1 (before the first shuffle of a deal)."""
    cards = order_bytes(state, order, n_cards)
    for i in range(n_cards):
        cards[i] = i


@leaf
def shuffle_order(state, order, n_cards, rng):
    """Shuffle the deal order in place (uniform Fisher–Yates from ``rng``)."""
    rng_shuffle(order_bytes(state, order, n_cards), n_cards, rng)


@leaf
def deal_next(state, order, next_, stock, n_cards):
    """Take the next ``n_cards`` of the deal order; remove them from the stock mask; return
    them as a mask."""
    m = ZERO
    first = np.int64(state[next_])
    for i in range(first, first + n_cards):
        m |= bit(order_card(state, order, i))
    state[next_] = np.uint64(first + n_cards)
    state[stock] &= ~m
    return m


UNKNOWN = 0xFF   # a deal-order byte whose card the observer of a sampled world cannot know


@leaf
def forget_dealt(state, order, next_):
    """Overwrite the positions already dealt (0 .. next-1) with ``UNKNOWN``: a sampled world
    must not carry the true deal, which holds other players' cards (no kernel reads them)."""
    for i in range(np.int64(state[next_])):
        set_order_card(state, order, i, UNKNOWN)


@leaf
def continue_from_world(out, world, order, next_, rng, p, n_cards):
    """The tail of a deal's start rebuilt from a sampled ``world`` (for inference): when ``p``,
    the position up to which ``out``'s deal order is rebuilt, is where the world's deal stands,
    copy the rest of the world's deal order (positions ``p`` .. ``n_cards`` - 1) and its chance
    stream (the 4 words at ``rng``) into ``out`` and return True; else False (the world has no
    such start)."""
    if p != np.int64(world[next_]):
        return False
    for i in range(p, n_cards):
        set_order_card(out, order, i, order_card(world, order, i))
    for j in range(4):
        out[rng + j] = world[rng + j]
    return True
