"""The xoshiro256** generator of ``cardsim.compiled.rng``: compiled kernels vs. the Python twin, the
published reference stream, uniformity (chi-square) and seed handling.

All chi-square tests use fixed seeds, so they are deterministic; the threshold ``ALPHA`` = 1e-4
would reject a correct generator for only 1 seed in 10 000, while a biased ``below`` (e.g. a
plain modulo of a 32-bit draw for a large n, or an off-by-one Fisher-Yates) fails by a wide margin.
"""
import itertools
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from cardsim.compiled.rng import PyRng, rng_below, rng_from_seed, rng_next, rng_shuffle
from cardsim.errors import CardsimError

ALPHA = 1e-4
SEEDS = list(range(40)) + [2**31 - 1, 2**32, 2**63 + 5, 10**30]


@njit(cache=False)
def _nexts(rng, k):
    out = np.empty(k, dtype=np.uint64)
    for i in range(k):
        out[i] = rng_next(rng)
    return out


@njit(cache=False)
def _belows(rng, n, k):
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = rng_below(rng, n)
    return out


@njit(cache=False)
def _perm_codes(rng, k):
    """Shuffle [0, 1, 2, 3] k times (fresh each time); code each result as a base-4 number."""
    out = np.empty(k, dtype=np.int64)
    items = np.empty(4, dtype=np.int64)
    for i in range(k):
        for j in range(4):
            items[j] = j
        rng_shuffle(items, 4, rng)
        out[i] = ((items[0] * 4 + items[1]) * 4 + items[2]) * 4 + items[3]
    return out


# --- the reference stream -----------------------------------------------------------------------

# First outputs of xoshiro256** from the state {1, 2, 3, 4} (Blackman & Vigna's reference code).
REFERENCE = [11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
             607988272756665600, 16172922978634559625, 8476171486693032832,
             10595114339597558777, 2904607092377533576]


def test_reference_vector_python():
    r = PyRng([1, 2, 3, 4])
    assert [r.next() for _ in range(10)] == REFERENCE


def test_reference_vector_numba():
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert [int(x) for x in _nexts(state, 10)] == REFERENCE
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert [int(rng_next(state)) for _ in range(10)] == REFERENCE   # the dispatcher itself


# --- numba == Python ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_next_matches_python(seed):
    state = rng_from_seed(seed)
    py = PyRng(state)
    got = _nexts(state.copy(), 500)
    assert [int(x) for x in got] == [py.next() for _ in range(500)]


@pytest.mark.parametrize("seed", SEEDS)
def test_next_advances_state_like_python(seed):
    state = rng_from_seed(seed)
    py = PyRng(state)
    for _ in range(7):
        rng_next(state)
        py.next()
    assert [int(x) for x in state] == py.s


@pytest.mark.parametrize("seed", SEEDS[:20])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 36, 40, 97, 1000, 65537, 2**31 + 11, 2**32 - 1])
def test_below_matches_python(seed, n):
    state = rng_from_seed(seed)
    py = PyRng(state)
    got = _belows(state.copy(), n, 200)
    want = [py.below(n) for _ in range(200)]
    assert [int(x) for x in got] == want
    assert all(0 <= x < n for x in want)


def test_below_rejection_path_matches_python():
    """n close to 2**32 makes Lemire's rejection frequent: the two must still agree."""
    n = 2**32 - 3
    for seed in range(30):
        state = rng_from_seed(seed)
        py = PyRng(state)
        got = _belows(state.copy(), n, 100)
        assert [int(x) for x in got] == [py.below(n) for _ in range(100)]
        # both consumed the same number of draws
        _belows(state, n, 100)
        assert [int(x) for x in state] == py.s


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", [1, 2, 4, 40, 97])
def test_shuffle_matches_python(seed, size):
    state = rng_from_seed(seed)
    py = PyRng(state)
    items = np.arange(size, dtype=np.int64)
    ref = list(range(size))
    for _ in range(3):   # repeated shuffles of the same list, as the deal does on a redeal
        rng_shuffle(items, size, state)
        py.shuffle(ref)
        assert items.tolist() == ref
    assert sorted(ref) == list(range(size))
    assert [int(x) for x in state] == py.s


def test_shuffle_prefix_only():
    state = rng_from_seed(3)
    items = np.arange(10, dtype=np.int64)
    rng_shuffle(items, 6, state)
    assert items[6:].tolist() == [6, 7, 8, 9]
    assert sorted(items[:6].tolist()) == list(range(6))
    py = PyRng(rng_from_seed(3))
    ref = list(range(6))
    py.shuffle(ref)
    assert items[:6].tolist() == ref


def test_shuffle_moves_cards():
    """Not the identity: 40 cards shuffled with 20 seeds give 20 distinct orders."""
    orders = set()
    for seed in range(20):
        items = np.arange(40, dtype=np.int64)
        rng_shuffle(items, 40, rng_from_seed(seed))
        orders.add(tuple(items.tolist()))
    assert len(orders) == 20 and tuple(range(40)) not in orders


# --- uniformity ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 7, 10, 40])
def test_below_uniform(n):
    draws = _belows(rng_from_seed(1000 + n), n, 20000 * n)
    counts = np.bincount(draws, minlength=n)
    assert counts.shape == (n,)
    assert chisquare(counts).pvalue > ALPHA


@pytest.mark.parametrize("n", [3 * 2**30 + 1, 2**32 - 1])
def test_below_uniform_large_n(n):
    """For n near 2**32 a modulo-biased method would over-weight the low third/half of [0, n)."""
    draws = _belows(rng_from_seed(n), n, 300_000)
    assert draws.min() >= 0 and draws.max() < n
    bins = 12
    counts = np.bincount((draws.astype(np.float64) * bins / n).astype(np.int64), minlength=bins)
    # exact expected bin masses (the bins are not all equal in integer counts)
    edges = [math.ceil(k * n / bins) for k in range(bins + 1)]
    probs = np.diff(edges) / n
    assert chisquare(counts, probs * counts.sum()).pvalue > ALPHA


def test_below_one_is_zero():
    assert set(_belows(rng_from_seed(5), 1, 100).tolist()) == {0}


def test_shuffle_uniform_over_24_permutations():
    codes = _perm_codes(rng_from_seed(77), 240_000)
    perms = list(itertools.permutations(range(4)))
    index = {((p[0] * 4 + p[1]) * 4 + p[2]) * 4 + p[3]: i for i, p in enumerate(perms)}
    assert set(np.unique(codes).tolist()) == set(index)   # every result is a permutation
    counts = np.zeros(24, dtype=np.int64)
    for code, c in zip(*np.unique(codes, return_counts=True)):
        counts[index[int(code)]] = c
    assert chisquare(counts).pvalue > ALPHA


def test_python_shuffle_uniform_over_24_permutations():
    py = PyRng(rng_from_seed(78))
    counts = {}
    for _ in range(48_000):
        items = [0, 1, 2, 3]
        py.shuffle(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    assert chisquare(list(counts.values())).pvalue > ALPHA


def test_next_bits_balanced():
    """Each of the 64 output bits is set about half of the time."""
    out = _nexts(rng_from_seed(9), 100_000)
    for b in range(64):
        ones = int(((out >> np.uint64(b)) & np.uint64(1)).sum())
        assert abs(ones - 50_000) < 5 * math.sqrt(25_000), b


# --- seeds --------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_seed_reproducible(seed):
    a = rng_from_seed(seed)
    b = rng_from_seed(seed)
    assert a.dtype == np.uint64 and a.shape == (4,)
    assert np.array_equal(a, b)
    assert a.any()
    assert np.array_equal(_nexts(a, 50), _nexts(b, 50))


def test_numpy_integer_seed_same_as_int():
    assert np.array_equal(rng_from_seed(np.int64(12)), rng_from_seed(12))
    assert np.array_equal(rng_from_seed(np.uint32(12)), rng_from_seed(12))


def test_seed_sequence_accepted():
    assert np.array_equal(rng_from_seed(np.random.SeedSequence(12)), rng_from_seed(12))
    children = np.random.SeedSequence(12).spawn(3)
    states = [tuple(rng_from_seed(c).tolist()) for c in children]
    assert len(set(states)) == 3


def test_different_seeds_different_streams():
    states = {tuple(rng_from_seed(s).tolist()) for s in range(1000)}
    assert len(states) == 1000
    firsts = {int(_nexts(rng_from_seed(s), 1)[0]) for s in range(1000)}
    assert len(firsts) == 1000


@pytest.mark.parametrize("bad", [-1, -(2**70), 1.5, 2.0, None, "3", True, False, [1], b"1"])
def test_bad_seed_raises(bad):
    with pytest.raises(CardsimError) as info:
        rng_from_seed(bad)
    assert repr(bad) in str(info.value)
