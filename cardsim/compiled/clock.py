"""A monotonic clock for compiled code: ``clock()`` is seconds from the operating system's
``CLOCK_MONOTONIC`` (the clock of Python's ``time.monotonic``), read by a direct call of the C
library's ``clock_gettime`` from the compiled code.

It costs about 25 ns a read and is cached with the code that calls it, unlike a read through
Python (numba's ``objmode``: a few microseconds, and an object-mode block that every process
compiles again the first time it runs). The searches read it for their time budgets
(:mod:`cardsim.solvers.ismcts`, :mod:`cardsim.solvers.pimc`) and the game loop for each seat's thinking time
(:mod:`cardsim.solvers.agents`). Linux (``CLOCK_MONOTONIC`` is 1 there), as the store's file locks.

>>> import time
>>> abs(clock() - time.monotonic()) < 0.5
True
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import kernel

CLOCK_MONOTONIC = 1          # <time.h> on Linux


@intrinsic
def _monotonic_ns(typingctx):
    """``clock_gettime(CLOCK_MONOTONIC, &ts)`` as int64 nanoseconds, in compiled code."""
    def codegen(context, builder, signature, args):
        i64, i32 = ir.IntType(64), ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])             # tv_sec, tv_nsec
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]),
            "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [ir.Constant(i32, CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)
    return types.int64(), codegen


@kernel(inline=True)
def clock():
    """Seconds from the monotonic clock (module docstring)."""
    return _monotonic_ns() * 1e-9


__all__ = ["clock"]
