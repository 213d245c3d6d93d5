"""Bitboard helpers for uint64 card masks, shared by every game's kernels.

All arithmetic stays in ``np.uint64``: mixing int64 and uint64 makes numba promote to float64.
"""
import numpy as np
from numba import njit

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64 (SWAR count; numba has no portable intrinsic)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest_index(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return popcount((x & (~x + ONE)) - ONE)


@njit(cache=True, inline="always")
def bit(i):
    """The uint64 mask with only bit ``i`` set."""
    return ONE << np.uint64(i)


@njit(cache=True, inline="always")
def has(mask, i):
    """True when bit ``i`` of ``mask`` is set."""
    return (mask >> np.uint64(i)) & ONE == ONE


@njit(cache=True)
def mask_to_indices(mask, out):
    """Write the set-bit indices of ``mask`` (ascending) to ``out``; return how many."""
    n = 0
    while mask:
        out[n] = lowest_index(mask)
        mask &= mask - ONE
        n += 1
    return n
