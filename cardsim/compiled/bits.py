"""Bitboard helpers for uint64 card masks, shared by every game's kernels.

``popcount`` and ``lowest_index`` compile to single LLVM intrinsics (``ctpop``, ``cttz``), i.e.
one machine instruction where the processor has it. All arithmetic stays in ``np.uint64``:
mixing int64 and uint64 makes numba promote to float64.
"""
import numpy as np
from numba import types
from numba.extending import intrinsic

from .jit import helper

ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def _ctpop(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))
    return types.int64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        zero_undefined = context.get_constant(types.boolean, False)
        return builder.zext(builder.cttz(args[0], zero_undefined),
                            context.get_value_type(types.int64))
    return types.int64(types.uint64), codegen


@helper
def popcount(x):
    """Number of set bits of a uint64 mask."""
    return _ctpop(np.uint64(x))


@helper
def lowest_index(x):
    """Index of the lowest set bit of a non-zero uint64 mask (64 for zero)."""
    return _cttz(np.uint64(x))


@helper
def bit(i):
    """The uint64 mask with only bit ``i`` set."""
    return ONE << np.uint64(i)


@helper
def copy_words(dst, src):
    """``dst[:] = src`` for two vectors of one length, as a loop: numba's slice assignment
    compiles its shape-mismatch message (string formatting) into every caller, seconds of each
    cold compile."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@helper
def indices_of(mask, out):
    """Write the indices of the set bits of ``mask`` into ``out``, ascending; their number."""
    k = 0
    while mask:
        out[k] = lowest_index(mask)
        mask &= mask - ONE
        k += 1
    return k


@helper
def put_cards(mask, base, idx, val, n):
    """The learned evaluation's one-hot inputs (a game's ``encoding.py``): ``base + i`` for
    every set bit ``i`` of ``mask``, written at ``idx[n:]`` with value 1 in ``val``; the new
    count."""
    while mask:
        idx[n] = base + lowest_index(mask)
        val[n] = 1.0
        mask &= mask - ONE
        n += 1
    return n


@helper
def put_input(idx, val, n, i, v):
    """One input of the learned evaluation (a game's ``encoding.py``): index ``i`` with value
    ``v`` written at ``idx[n]``, ``val[n]``; the new count."""
    idx[n] = i
    val[n] = v
    return n + 1
