"""The one random-number generator of cardsim: xoshiro256** on an explicit state array.

Kernels take ``rng``, a uint64 array of shape (4,), and advance it in place; nothing in cardsim
uses a global random state. :func:`rng_from_seed` derives that array from any seed through
:class:`numpy.random.SeedSequence`, so an integer seed, a spawned child sequence or its entropy
all work. :class:`PyRng` is the same generator in plain Python, used by the reference engines
so that a seed deals the same cards in both.
"""
from __future__ import annotations

import numpy as np

from .jit import helper, kernel

U64 = (1 << 64) - 1


def rng_from_seed(seed) -> np.ndarray:
    """A fresh xoshiro256** state (uint64[4]) from an int, a SeedSequence or None is refused."""
    if isinstance(seed, np.random.SeedSequence):
        seq = seed
    else:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            from ..errors import CardsimError
            raise CardsimError(f"seed must be a non-negative integer, got {seed!r}")
        seq = np.random.SeedSequence(int(seed))
    state = seq.generate_state(4, dtype=np.uint64)
    if not state.any():  # the all-zero state is the generator's only fixed point
        state[0] = np.uint64(0x9E3779B97F4A7C15)
    return state


def child_seed(seed: int, k: int) -> int:
    """The ``k``-th seed derived from ``seed`` (``SeedSequence([seed, k])``, one uint64): the
    seed of a game's move ``k`` (``cardsim play``'s agents, a review's decision worlds)."""
    return int(np.random.SeedSequence([int(seed), int(k)]).generate_state(1, dtype=np.uint64)[0])


@helper
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel(inline=True)
def rng_next(rng):
    """Next 64-bit output of xoshiro256** (Blackman & Vigna); advances ``rng`` in place."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    return result


@helper
def rng_unit(rng):
    """A float uniform in [0, 1) from the top 53 bits of :func:`rng_next`."""
    return np.float64(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def seed_stream(out, at, rng):
    """A state's own chance stream: the four words ``out[at:at + 4]`` drawn from ``rng`` (each
    game's ``start``)."""
    for k in range(4):
        out[at + k] = rng_next(rng)


@kernel(inline=True)
def rng_below(rng, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32, exactly unbiased (Lemire's method)."""
    bound = np.uint64(n)
    m = (rng_next(rng) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (rng_next(rng) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@kernel(inline=True)
def rng_shuffle(items, n, rng):
    """Fisher–Yates shuffle of ``items[:n]`` in place (uniform over the n! orders)."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


class PyRng:
    """xoshiro256** in plain Python; the same stream as the compiled kernels."""

    def __init__(self, state) -> None:
        self.s = [int(x) for x in state]

    def next(self) -> int:
        """Next 64-bit output."""
        s = self.s
        rot = lambda x, k: ((x << k) | (x >> (64 - k))) & U64  # noqa: E731
        result = rot((s[1] * 5) & U64, 7) * 9 & U64
        t = (s[1] << 17) & U64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rot(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), the same draw as :func:`rng_below`."""
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            threshold = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place, the same permutation as :func:`rng_shuffle`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
