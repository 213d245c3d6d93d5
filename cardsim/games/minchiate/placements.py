"""Minchiate's exact draw of the hidden cards (rules §6; the method in :mod:`.worlds`):
the placements of the constrained hidden cards into the other hands and the Fola's pool,
counted by a dynamic programme over the hands' free slots, and one placement drawn uniformly
from the counts. :func:`.worlds._exact_world` checks the draw against the Fola split and the
declarations.
"""
import numpy as np

from ...compiled.bits import ZERO
from ...compiled.jit import helper
from ...compiled.rng import rng_shuffle, rng_unit
from . import layout as L
from .scoring import bit_of, word_of

N_PLACES = 6                # the other three hands (ascending seats), the Fola's own part,
O_PLACE = 3                 # the cutter's discards, the dealer's discards
POOL_PLACES = np.int64(0b111000)


@helper
def group_of(c):
    """Fact 6's groups: 0 the trumps and the Matto, 1 + s the suit s."""
    return 0 if c < L.WORD1_START else 1 + (c - L.WORD1_START) // 14


@helper
def split_constrained(hidden_cards, n, allow, hand, m, n_pool_slots, with_quota, cards, free):
    """Rules §6, facts 1 and 6: the hidden cards some place refuses (every card, when the
    Fola's suit counts are public) go to ``cards`` for the dynamic programme, in index order;
    the others, which fit anywhere, to ``free``. Returns both numbers."""
    n_con = 0
    n_free = 0
    for i in range(n):
        c = hidden_cards[i]
        con = with_quota
        for r in range(m):
            if not (allow[c] >> hand[r]) & 1:
                con = True
        if n_pool_slots > 0 and not allow[c] & POOL_PLACES:
            con = True
        if con:
            cards[n_con] = c
            n_con += 1
        else:
            free[n_free] = c
            n_free += 1
    return n_con, n_free


@helper(nrt=True)
def suit_count_targets(cards, n_con, quota, need):
    """Rules §6, fact 6 at the group boundaries: ``need[i]`` is the number of pool cards
    among ``cards[:i]`` where ``cards[i - 1]`` ends a group (all cards are in ``cards`` then,
    in index order), -1 elsewhere. False when no pool fits the counts."""
    cum = np.zeros(5, dtype=np.int64)
    acc = 0
    for g in range(5):
        acc += quota[g]
        cum[g] = acc
        if quota[g] < 0:
            return False
    present = np.zeros(5, dtype=np.bool_)
    for i in range(n_con):
        present[group_of(cards[i])] = True
    for g in range(5):
        if not present[g] and quota[g] != 0:
            return False
    for i in range(1, n_con + 1):
        if i == n_con or group_of(cards[i]) != group_of(cards[i - 1]):
            need[i] = cum[group_of(cards[i - 1])]
    return True


@helper(nrt=True)
def count_placements(cards, n_con, n_free, allow, hand, m, cap_size, stride, n_pool_slots,
                     need, ways):
    """Rules §6, facts 1 and 6: ``ways[i, x]`` counts the placements of ``cards[i:]`` and
    the free cards when the other hands' free slots are ``x`` (radix ``stride``), each card
    in a hand that may hold it or in the pool, the pool's size at the group boundaries
    ``need``."""
    fact = np.ones(L.N_CARDS + 1, dtype=np.float64)
    for i in range(1, L.N_CARDS + 1):
        fact[i] = fact[i - 1] * i
    cs0, cs1, cs2 = cap_size[0], cap_size[1], cap_size[2]
    st0, st1, st2 = stride[0], stride[1], stride[2]
    for i in range(n_con, -1, -1):
        left = n_con - i + n_free
        # only the states whose implied pool (left - hand slots) fits are reachable
        if need[i] >= 0:
            tot_lo = left - (n_pool_slots - need[i])
            tot_hi = tot_lo
        else:
            tot_lo = max(0, left - n_pool_slots)
            tot_hi = left
        c = cards[i] if i < n_con else 0
        al = allow[c] if i < n_con else 0
        a0 = m > 0 and ((al >> hand[0]) & 1) == 1
        a1 = m > 1 and ((al >> hand[1]) & 1) == 1
        a2 = m > 2 and ((al >> hand[2]) & 1) == 1
        ap = (al & POOL_PLACES) != 0
        for x0 in range(cs0 + 1):
            for x1 in range(cs1 + 1):
                lo = max(0, tot_lo - x0 - x1)
                hi = min(cs2, tot_hi - x0 - x1)
                for x2 in range(lo, hi + 1):
                    x = x0 * st0 + x1 * st1 + x2 * st2
                    pool = left - x0 - x1 - x2
                    if i == n_con:
                        ways[i, x] = fact[n_free] / (fact[pool] * fact[x0] * fact[x1]
                                                     * fact[x2])
                        continue
                    w = 0.0
                    if a0 and x0:
                        w += ways[i + 1, x - st0]
                    if a1 and x1:
                        w += ways[i + 1, x - st1]
                    if a2 and x2:
                        w += ways[i + 1, x - st2]
                    if ap and pool:
                        w += ways[i + 1, x]
                    ways[i, x] = w


@helper
def draw_placement(rng, ways, cards, n_con, free, n_free, allow, hand, m, cap_size, stride,
                   n_states, pool_cards, got):
    """Rules §6: one placement drawn exactly from the counts ``ways``: each of ``cards``
    to a hand of ``got[:3]`` or the pool, then the free cards shuffled into the hands' slots
    left; the pool's cards go to ``pool_cards``. Returns their number."""
    for j in range(3):
        got[j, 0] = ZERO
        got[j, 1] = ZERO
    x = n_states - 1
    n_pool = 0
    for i in range(n_con):
        c = cards[i]
        u = rng_unit(rng) * ways[i, x]
        pick = -1                               # -1: the pool
        last = -1
        chosen = False
        for r in range(m):
            if x // stride[r] % (cap_size[r] + 1) and (allow[c] >> hand[r]) & 1:
                w = ways[i + 1, x - stride[r]]
                if w > 0.0:
                    last = r
                    if u < w:
                        pick = r
                        chosen = True
                        break
                    u -= w
        if not chosen:
            total = 0
            for r in range(m):
                total += x // stride[r] % (cap_size[r] + 1)
            w = 0.0
            if n_con - i + n_free - total > 0 and allow[c] & POOL_PLACES:
                w = ways[i + 1, x]
            pick = -1 if w > 0.0 else last      # (a rounding error of the last option)
        if pick < 0:
            pool_cards[n_pool] = c
            n_pool += 1
        else:
            got[hand[pick], word_of(c)] |= bit_of(c)
            x -= stride[pick]
    rng_shuffle(free, n_free, rng)
    k = 0
    for r in range(m):
        j = hand[r]
        for _i in range(x // stride[r] % (cap_size[r] + 1)):
            c = free[k]
            k += 1
            got[j, word_of(c)] |= bit_of(c)
    while k < n_free:
        pool_cards[n_pool] = free[k]
        n_pool += 1
        k += 1
    return n_pool
