"""Minchiate's hidden information (rules/minchiate.md §6, the engine's hidden information): worlds
sampled for an observer (:func:`determinize`) and actions as another player sees them
(:func:`observed_action`).

A *world* places every card hidden from the observer ``p`` in one of the places hidden from
him, each holding as many hidden cards as it does in truth (the sizes are public):

- the hand of each other seat ``q``, except its *pinned* cards: those shown in it (``SHOWN``:
  robbed, exposed, declared, the Matto shown for its bonus) and still held. A shown card's
  place is public wherever it is (hand, played, or discarded: the observation's
  ``known_cards`` are the shown cards still held, so a shown card that was discarded is known
  to lie in its seat's discards) — shown cards never move between worlds;
- the discards of the cutter and of the dealer (less shown cards), while p cannot see them
  (before the Fola is opened, or always with ``fola_visibility`` ``suit_counts`` /
  ``hidden``), unless they are his own;
- the Fola's *own part*, the undealt cards left after the dealer's robbing (``FOLA`` minus
  all discards) without the card that stopped the cutter's robbing (``SEEN_BOTTOM``, public),
  while p cannot see it: the dealer saw it while robbing (``dealer_rob=auto_all``), the others
  see it when it is opened.

The public facts a world keeps (every one reads only what p may know):

1. each hand avoids the cards its seat is publicly known not to hold: ``EXCLUDED`` (voids and
   the King rule, from play) and what its declarations prove (MI-DECL-2, the catalogue lists
   only maximal runs): a declared run lo..hi proves no trump lo-1 / hi+1 within its range
   (1-5 or 28-40); three Kings prove no fourth; with ``decine_four=one_combination`` 10-20-30
   proves no 40 and 20-30-40 no 10; with ``declaration_mode=all`` a declarer who declared a
   combination the bonus applies to without claiming the bonus holds no Matto;
2. with ``declaration_mode=all``, the combinations of each seat that has declared are exactly
   the ones it declared (of its hand now plus its played cards, which is its declaring set:
   declarations come before any card but the first); checked on the drawn world;
3. shown cards keep their places (above);
4. the Fola's own part holds no card eligible for robbing when ``dealer_rob=auto_all`` (the
   dealer took them all) and keeps ``SEEN_BOTTOM``;
5. discards are cards of the first discard class (MI-DISC-2: zero-value, not T29, no trumps
   with ``discard_trumps=false``). **Simplification:** the MI-DISC-3 fallback (a discarder
   with too few such cards) is not modelled, except that when no world at all fits these
   rules (only a fallback discard can cause that) the discards may be any cards;
6. with ``fola_visibility=suit_counts`` from the first lead (a card on the table in trick 1,
   or a trick complete: when the observation starts showing them), the Fola's number of cards
   of each plain suit (hence also of trumps and the Matto together).

The worlds are drawn **uniformly** among the placements that keep facts 1-6 (the policy that chose
the discards is not modelled: every allowed discard set weighs the same, as for Mushka's exchange).
First by rejection: the hidden cards (in index order) are shuffled and dealt to the places in a
fixed order, at most :data:`MAX_WORLD_TRIES` times, until every fact holds. Then exactly
(:func:`_exact_world`, counting in :mod:`.placements`): a dynamic programme over the free slots of
the other hands counts the placements that keep every hand's exclusions (fact 1), with the hidden
Fola parts as one pool (each card allowed there when some Fola place may hold it; the pool's suit
counts, fact 6, checked at the suit boundaries of the cards taken in index order); a placement is
drawn exactly from the counts, the pool is split uniformly among its places and the draw is kept
when the split (facts 4, 5) and the declarations (2) hold, else drawn again — a rejection from a
uniform superset, so the result stays uniform. Only if :data:`MAX_EXACT_TRIES` draws all fail (never
seen in the tests) is the last draw kept although its Fola split or declarations do not fit: that is
the one approximation. A position that no world fits (impossible, e.g. hand-made) is returned as it
is.

Besides the cards, the world forgets the deal order (every byte ``order.UNKNOWN``: it holds
every player's cards) and replaces the chance stream (later deals of a match) by fresh draws.
Only public words and the observer's own cards are read; the hidden cards' identities enter
only as the set of cards p has not seen, so two true states with the same observation give
the same world for the same ``rng``.
"""
import numpy as np

from ...compiled import order as deal_order
from ...compiled.actions import kind_of
from ...compiled.bits import ONE, ZERO, copy_words, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_next, rng_shuffle
from . import layout as L
from .kernels import deal_cards
from .placements import (
    N_PLACES,
    O_PLACE,
    count_placements,
    draw_placement,
    split_constrained,
    suit_count_targets,
)
from .rules import (
    FOLA_SUIT_COUNTS,
    P_DEALER_ROB,
    P_DECINE_TWO,
    P_DECLARE_ALL,
    P_DISCARD_TRUMPS,
    P_EXPOSE,
    P_FOLA,
)
from .scoring import bit_of, bonus_applies, card_at, combo_set, word_of

MAX_WORLD_TRIES = 200       # plain rejection tries before the exact draw
WORLD_MOVES_WHOLE = False   # inference: the order of another's discards is not the world's
MAX_EXACT_TRIES = 20_000    # exact draws whose Fola split / declarations are checked

_UNKNOWN = deal_order.UNKNOWN


def _declaration_excludes():
    """DECL_EXCLUDES[two_triples, combo]: the cards (two words) a declared combination proves
    its declarer did not hold (the catalogue names maximal runs and the largest King and
    decine sets only)."""
    out = np.zeros((2, L.N_COMBOS, 2), dtype=np.uint64)
    for combo in range(L.N_COMBOS):
        for two in range(2):
            ex = []
            if combo < L.MATTO_1_40:                      # a run, maximal in 1-5 or 28-40
                cards = [c for c in range(40) if int(L.COMBO_MASK[combo, 0]) >> c & 1]
                lo, hi = min(cards), max(cards)
                start, end = (0, 4) if hi <= 4 else (27, 39)
                if lo > start:
                    ex.append(lo - 1)
                if hi < end:
                    ex.append(hi + 1)
            elif combo == L.DECINE_LOW and not two:
                ex.append(39)                           # 10-20-30 without 40
            elif combo == L.DECINE_HIGH and not two:
                ex.append(9)                            # 20-30-40 without 10
            elif L.KINGS_THREE <= combo < L.KINGS_FOUR:
                ex.append(int(L.KINGS[combo - L.KINGS_THREE]))
            for c in ex:
                if c < L.WORD1_START:
                    out[two, combo, 0] |= np.uint64(1 << c)
                else:
                    out[two, combo, 1] |= np.uint64(1 << (c - L.WORD1_START))
    return out


DECL_EXCLUDES = _declaration_excludes()
ALL_WORDS = np.array([(1 << L.WORD1_START) - 1, (1 << (L.N_CARDS - L.WORD1_START)) - 1],
                     dtype=np.uint64)

# analysis on uniform worlds: inference's calibrate worse with strong play-on (ECE
# 0.049 against 0.032, experiments/results/calibration_minchiate)
ANALYSIS_INFERS = False


@helper
def _has(w0, w1, c):
    if c < L.WORD1_START:
        return ((w0 >> np.uint64(c)) & ONE) == ONE
    return ((w1 >> np.uint64(c - L.WORD1_START)) & ONE) == ONE


@helper
def declaration_excluded(state, params, seat):
    """Fact 1 of the module docstring: the cards the seat's declarations prove it does not
    hold (two words)."""
    two = 1 if params[P_DECINE_TWO] == 1 else 0
    e0 = ZERO
    e1 = ZERO
    eligible = False
    for w in range(2):
        d = state[L.DECLARED + 2 * seat + w]
        while d:
            combo = lowest_index(d) + 64 * w
            d &= d - ONE
            e0 |= DECL_EXCLUDES[two, combo, 0]
            e1 |= DECL_EXCLUDES[two, combo, 1]
            if bonus_applies(params, combo):
                eligible = True
    if params[P_DECLARE_ALL] == 1 and eligible and (state[L.DECLARED_DONE] >> np.uint64(seat)) \
            & ONE and not (state[L.BONUS_CLAIMED] >> np.uint64(seat)) & ONE:
        e0 |= ONE << np.uint64(L.MATTO)           # the bonus is claimed whenever it can be
    return e0, e1


@helper
def declarations_fit(state, params, observer, wh):
    """Fact 2: with ``declaration_mode=all`` each other seat that has declared holds (hand
    ``wh[seat]`` plus its played cards) exactly the combinations it declared."""
    if params[P_DECLARE_ALL] != 1:
        return True
    for q in range(4):
        if q == observer or not (state[L.DECLARED_DONE] >> np.uint64(q)) & ONE:
            continue
        lo, hi = combo_set(wh[q, 0] | state[L.PLAYED + 2 * q], wh[q, 1] | state[L.PLAYED + 2 * q + 1],
                           params)
        if lo != state[L.DECLARED + 2 * q] or hi != state[L.DECLARED + 2 * q + 1]:
            return False
    return True


@helper
def first_lead_made(state):
    """The first card of the deal has been led (a trick is complete or under way): from then
    on ``suit_counts`` makes the Fola's suit counts public."""
    if state[L.TRICK_NUMBER] != ZERO:
        return True
    for q in range(4):
        if state[L.TRICK_CARD + q] != ZERO:
            return True
    return False


@helper(nrt=True)
def allowed_places(state, params, p, level, seats, h0, h1, allow):
    """Rules §6, facts 1, 4, 5: ``allow[card]``, the places each hidden card may lie in (a
    bit per place; -1 for the cards p knows): a hand unless excluded there, the Fola's own
    part unless the dealer robbed it, the discards when of the first discard class (MI-DISC-2;
    any card at ``level`` 1)."""
    if params[P_DISCARD_TRUMPS] == 1:
        k0 = L.DISCARDABLE[0]
        k1 = L.DISCARDABLE[1]
    else:
        k0 = L.DISCARDABLE_NO_TRUMPS[0]
        k1 = L.DISCARDABLE_NO_TRUMPS[1]
    if level > 0:
        k0 = ALL_WORDS[0]
        k1 = ALL_WORDS[1]
    ex = np.zeros((4, 2), dtype=np.uint64)
    for q in range(4):
        if q != p:
            e0, e1 = declaration_excluded(state, params, q)
            ex[q, 0] = state[L.EXCLUDED + 2 * q] | e0
            ex[q, 1] = state[L.EXCLUDED + 2 * q + 1] | e1
    rob = params[P_DEALER_ROB] == 1
    for c in range(L.N_CARDS):
        allow[c] = -1
        if not _has(h0, h1, c):
            continue
        a = 0
        for j in range(3):
            q = seats[j]
            if not _has(ex[q, 0], ex[q, 1], c):
                a |= 1 << j
        if not (rob and _has(L.ROB_ELIGIBLE[0], L.ROB_ELIGIBLE[1], c)):
            a |= 1 << O_PLACE
        if _has(k0, k1, c):
            a |= 1 << (O_PLACE + 1) | 1 << (O_PLACE + 2)
        allow[c] = a


@helper
def fola_suit_quota(state, params, size, v1, quota):
    """Rules §6, fact 6 (``fola_visibility=suit_counts`` from the first lead): ``quota``, the
    hidden Fola places' cards per group (trumps and the Matto, then the four suits; -1 when
    not public), from the Fola's suit counts less the cards p has seen (``v1``: word 1)."""
    for g in range(5):
        quota[g] = -1
    pool = size[O_PLACE] + size[O_PLACE + 1] + size[O_PLACE + 2]
    if params[P_FOLA] == FOLA_SUIT_COUNTS and first_lead_made(state) and pool > 0:
        rest = pool
        for s in range(4):
            m1 = L.SUIT_MASK[s, 1]
            quota[1 + s] = popcount(state[L.FOLA + 1] & m1) - popcount(state[L.FOLA + 1] & m1 & v1)
            rest -= quota[1 + s]
        quota[0] = rest


@kernel(nrt=True)
def world_problem(state, params, observer, level, seats, pinned, size, allow, quota):
    """The places hidden from ``observer`` and what each may hold (module docstring), from
    public words and his own cards only. Fills ``seats`` (the other seats, ascending),
    ``pinned[seat]`` (two words), ``size[place]``, ``allow[card]`` (a bit per place, for the
    hidden cards; -1 for the others) and ``quota`` (the pool's cards per group: trumps and the
    Matto, then the four suits; -1 when not public). ``level`` 1 lets discards be any cards
    (MI-DISC-3). Returns the hidden cards as two words and whether the sizes add up."""
    p = observer
    dealer = np.int64(state[L.DEALER])
    cutter = (dealer + 3) % 4
    fola_open = state[L.FOLA_OPEN] != ZERO
    d0 = ZERO
    d1 = ZERO
    for q in range(4):
        d0 |= state[L.DISCARDS + 2 * q]
        d1 |= state[L.DISCARDS + 2 * q + 1]
    own0 = state[L.FOLA] & ~d0                    # the Fola's own part
    own1 = state[L.FOLA + 1] & ~d1
    sb = np.int64(state[L.SEEN_BOTTOM]) - 1
    own_hidden = not fola_open and not (p == dealer and params[P_DEALER_ROB] == 1)
    v0 = state[L.HAND + 2 * p] | state[L.DISCARDS + 2 * p]
    v1 = state[L.HAND + 2 * p + 1] | state[L.DISCARDS + 2 * p + 1]
    for q in range(4):
        v0 |= state[L.PLAYED + 2 * q]
        v1 |= state[L.PLAYED + 2 * q + 1]
    if sb >= 0:
        if sb < L.WORD1_START:
            v0 |= bit_of(sb)
        else:
            v1 |= bit_of(sb)
    if not own_hidden:
        v0 |= own0
        v1 |= own1
    disc_hidden = np.zeros(4, dtype=np.bool_)
    j = 0
    for q in range(4):
        # a shown card's place is public (the observation's known cards): in the hand, played
        # or discarded
        v0 |= state[L.SHOWN + 2 * q]
        v1 |= state[L.SHOWN + 2 * q + 1]
        pinned[q, 0] = ZERO
        pinned[q, 1] = ZERO
        if q == p:
            continue
        seats[j] = q
        j += 1
        pinned[q, 0] = state[L.SHOWN + 2 * q] & state[L.HAND + 2 * q]
        pinned[q, 1] = state[L.SHOWN + 2 * q + 1] & state[L.HAND + 2 * q + 1]
        if fola_open:
            v0 |= state[L.DISCARDS + 2 * q]
            v1 |= state[L.DISCARDS + 2 * q + 1]
        else:
            disc_hidden[q] = True
    h0 = ALL_WORDS[0] & ~v0
    h1 = ALL_WORDS[1] & ~v1
    total = 0
    for j in range(3):
        q = seats[j]
        size[j] = (popcount(state[L.HAND + 2 * q]) + popcount(state[L.HAND + 2 * q + 1])
                   - popcount(pinned[q, 0]) - popcount(pinned[q, 1]))
        total += size[j]
    size[O_PLACE] = 0
    if own_hidden:
        size[O_PLACE] = popcount(own0) + popcount(own1) - (1 if sb >= 0 else 0)
    for i in range(2):
        q = cutter if i == 0 else dealer
        size[O_PLACE + 1 + i] = 0
        if q != p and disc_hidden[q]:
            size[O_PLACE + 1 + i] = \
                popcount(state[L.DISCARDS + 2 * q] & ~state[L.SHOWN + 2 * q]) \
                + popcount(state[L.DISCARDS + 2 * q + 1] & ~state[L.SHOWN + 2 * q + 1])
    for i in range(3):
        total += size[O_PLACE + i]
    n_hidden = popcount(h0) + popcount(h1)
    allowed_places(state, params, p, level, seats, h0, h1, allow)
    fola_suit_quota(state, params, size, v1, quota)
    return h0, h1, total == n_hidden


@helper
def pool_fits(pool, n_pool, size, allow, rng, got):
    """Split the pool's cards uniformly among the Fola places (own part, the cutter's
    discards, the dealer's discards: ``size[3:6]``) into ``got[3:6]``; True when every card
    may lie where it fell (facts 4, 5; the suit counts are the dynamic programme's)."""
    rng_shuffle(pool, n_pool, rng)
    ok = True
    k = 0
    for i in range(3):
        got[O_PLACE + i, 0] = ZERO
        got[O_PLACE + i, 1] = ZERO
        for _ in range(size[O_PLACE + i]):
            c = pool[k]
            k += 1
            if not (allow[c] >> (O_PLACE + i)) & 1:
                ok = False
            got[O_PLACE + i, word_of(c)] |= bit_of(c)
    return ok


@kernel(nrt=True)
def _exact_world(state, params, observer, rng, hidden_cards, n, seats, pinned, size, allow,
                 quota, got):
    """The exact draw (module docstring): the other hands' placements counted by a dynamic
    programme, the Fola places as one pool, drawn again until the pool's split and the
    declarations fit. Fills ``got[place]``; returns 0 when no world fits, 1 for a world drawn
    exactly, 2 when every draw failed the checks (the last one is kept)."""
    hand = np.empty(3, dtype=np.int64)         # radix position -> hand place
    cap_size = np.zeros(3, dtype=np.int64)
    stride = np.zeros(3, dtype=np.int64)
    m = 0
    n_states = 1
    for j in range(3):
        if size[j] > 0:
            hand[m] = j
            cap_size[m] = size[j]
            stride[m] = n_states
            n_states *= size[j] + 1
            m += 1
    # (unused radix positions have size 0: their caps stay 0)
    n_pool_slots = size[O_PLACE] + size[O_PLACE + 1] + size[O_PLACE + 2]
    with_quota = quota[0] >= 0
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    free = np.empty(L.N_CARDS, dtype=np.int64)
    n_con, n_free = split_constrained(hidden_cards, n, allow, hand, m, n_pool_slots, with_quota,
                                      cards, free)
    need = np.full(n_con + 1, -1, dtype=np.int64)
    if with_quota and not suit_count_targets(cards, n_con, quota, need):
        return 0
    ways = np.zeros((n_con + 1, n_states), dtype=np.float64)
    count_placements(cards, n_con, n_free, allow, hand, m, cap_size, stride, n_pool_slots,
                     need, ways)
    if not ways[0, n_states - 1] > 0.0:
        return 0
    pool_cards = np.empty(L.N_CARDS, dtype=np.int64)
    wh = np.zeros((4, 2), dtype=np.uint64)
    for _try in range(MAX_EXACT_TRIES):
        n_pool = draw_placement(rng, ways, cards, n_con, free, n_free, allow, hand, m,
                                cap_size, stride, n_states, pool_cards, got)
        if pool_fits(pool_cards, n_pool, size, allow, rng, got):
            for j in range(3):
                q = seats[j]
                wh[q, 0] = pinned[q, 0] | got[j, 0]
                wh[q, 1] = pinned[q, 1] | got[j, 1]
            if declarations_fit(state, params, observer, wh):
                return 1
    return 2


@kernel(nrt=True)
def sample_world(state, params, observer, rng, out, level, tries, exact):
    """One attempt at a world under the discard rules of ``level`` (0: MI-DISC-2 classes; 1:
    any cards): ``tries`` rejection tries, then (if ``exact``) the exact draw; writes it to
    ``out`` (the cards only) and returns True, or False when no world was found."""
    seats = np.zeros(3, dtype=np.int64)
    pinned = np.zeros((4, 2), dtype=np.uint64)
    size = np.zeros(N_PLACES, dtype=np.int64)
    allow = np.empty(L.N_CARDS, dtype=np.int64)
    quota = np.empty(5, dtype=np.int64)
    h0, h1, sizes_ok = world_problem(state, params, observer, level, seats, pinned, size,
                                     allow, quota)
    if not sizes_ok:
        return False
    cards = np.empty(L.N_CARDS, dtype=np.int64)
    n = 0
    for c in range(L.N_CARDS):
        if allow[c] >= 0:
            cards[n] = c
            n += 1
    got = np.zeros((N_PLACES, 2), dtype=np.uint64)
    wh = np.zeros((4, 2), dtype=np.uint64)
    found = False
    shuffled = cards.copy()
    for _try in range(tries):
        rng_shuffle(shuffled, n, rng)
        k = 0
        ok = True
        for j in range(N_PLACES):
            got[j, 0] = ZERO
            got[j, 1] = ZERO
            for _i in range(size[j]):
                c = shuffled[k]
                k += 1
                if not (allow[c] >> j) & 1:
                    ok = False
                    break
                got[j, word_of(c)] |= bit_of(c)
            if not ok:
                break
        if not ok:
            continue
        if quota[0] >= 0:
            for g in range(5):
                cnt = 0
                for i in range(3):
                    if g == 0:
                        cnt += popcount(got[O_PLACE + i, 0])
                    else:
                        cnt += popcount(got[O_PLACE + i, 1] & L.SUIT_MASK[g - 1, 1])
                if cnt != quota[g]:
                    ok = False
            if not ok:
                continue
        for j in range(3):
            q = seats[j]
            wh[q, 0] = pinned[q, 0] | got[j, 0]
            wh[q, 1] = pinned[q, 1] | got[j, 1]
        if declarations_fit(state, params, observer, wh):
            found = True
            break
    if not found:
        if not exact or _exact_world(state, params, observer, rng, cards, n, seats, pinned,
                                     size, allow, quota, got) == 0:
            return False
    # write the world: the hidden places, the Fola
    copy_words(out, state)
    dealer = np.int64(state[L.DEALER])
    cutter = (dealer + 3) % 4
    for j in range(3):
        q = seats[j]
        out[L.HAND + 2 * q] = pinned[q, 0] | got[j, 0]
        out[L.HAND + 2 * q + 1] = pinned[q, 1] | got[j, 1]
    for i in range(2):
        q = cutter if i == 0 else dealer
        if size[O_PLACE + 1 + i] > 0:          # (a shown card discarded stays there)
            out[L.DISCARDS + 2 * q] = (state[L.DISCARDS + 2 * q] & ~h0) | got[O_PLACE + 1 + i, 0]
            out[L.DISCARDS + 2 * q + 1] = (state[L.DISCARDS + 2 * q + 1] & ~h1) \
                | got[O_PLACE + 1 + i, 1]
    f0 = (state[L.FOLA] & ~h0) | got[O_PLACE, 0]
    f1 = (state[L.FOLA + 1] & ~h1) | got[O_PLACE, 1]
    for q in range(4):
        f0 |= out[L.DISCARDS + 2 * q]
        f1 |= out[L.DISCARDS + 2 * q + 1]
    out[L.FOLA] = f0
    out[L.FOLA + 1] = f1
    return True


@kernel(nrt=True)
def determinize(state, params, observer, rng, out):
    """Rules §6: a world consistent with everything ``observer`` has seen, uniformly at random
    among the placements of the module docstring (facts 1-6), written to ``out``; the deal
    order is forgotten and the chance stream replaced."""
    if not sample_world(state, params, observer, rng, out, 0, MAX_WORLD_TRIES, True):
        if not sample_world(state, params, observer, rng, out, 1, MAX_WORLD_TRIES, True):
            copy_words(out, state)  # no world fits (an impossible position): as it is
    for i in range(L.N_CARDS):
        deal_order.set_order_card(out, L.ORDER, i, _UNKNOWN)
    for j in range(4):
        out[L.RNG + j] = rng_next(rng)


@kernel
def observed_action(state, params, action, observer):
    """Rules §6: the action of the player to move as ``observer`` sees it: another player's
    discard is face down (``DISCARD_SEEN << KIND_SHIFT``, no card), except a card the table
    has seen in his hand (robbed or exposed), whose discard is public (the decision in
    ``cardsim/games/minchiate/__init__.py``); everything else is seen whole."""
    if kind_of(action, L.KIND_SHIFT) == L.DISCARD:
        seat = np.int64(state[L.TO_MOVE])
        card = np.int64(np.uint64(action) & np.uint64(0xFF))
        w = 0 if card < 41 else 1
        shown = (state[L.SHOWN + 2 * seat + w] >> np.uint64(card if w == 0 else card - 41)) & ONE
        if seat != observer and shown == ZERO:
            return np.int64(L.DISCARD_SEEN << L.KIND_SHIFT)
    return np.int64(action)


@helper
def _write(out, w0, w1, first, last):
    """Write the cards of the two-word set ``w0, w1`` at deal-order positions ``first ..
    last - 1`` (in card order); the number of positions written."""
    i = first
    for w in range(2):
        m = w0 if w == 0 else w1
        while m and i < last:
            deal_order.set_order_card(out, L.ORDER, i, np.int64(card_at(w, m)))
            m &= m - ONE
            i += 1
    return i - first


@kernel(nrt=True)
def world_start(world, params, observer, start, actions, n_actions, out, rng):
    """Rules §6: the start of the deal a sampled ``world`` grew from, for inference
    (:mod:`cardsim.solvers.inference`). ``start`` is the deal's true start; of it only public words
    are read (dealer, robbed, exposed and seen cards, the match).

    No card is drawn after the deal, so each seat's dealt 21 are the world's hand, played
    cards and discards less the cards it robbed (MI-CUT-1, MI-ROB-1), in its packets of 10
    and 11 from the dealer's right, the exposed card last (MI-DEAL-2, -3); the cutter's
    robbed cards lie at the bottom under the card that stopped him, the Fola (the world's
    own part and the dealer's robbed cards) above them (MI-DEAL-4). False when the world has
    no such start."""
    copy_words(out, start)
    dealer = np.int64(start[L.DEALER])
    cutter = (dealer + 3) % 4
    k = popcount(start[L.CUTTER_ROBBED]) + popcount(start[L.CUTTER_ROBBED + 1])
    _write(out, start[L.CUTTER_ROBBED], start[L.CUTTER_ROBBED + 1], L.N_CARDS - k, L.N_CARDS)
    seen = np.int64(start[L.SEEN_BOTTOM]) - 1
    top = L.N_CARDS - k
    if seen >= 0:
        top -= 1
        deal_order.set_order_card(out, L.ORDER, top, seen)
    discarded = np.zeros(2, dtype=np.uint64)
    for seat in range(4):
        for w in range(2):
            discarded[w] |= world[L.DISCARDS + 2 * seat + w]
    fola = np.zeros(2, dtype=np.uint64)
    for w in range(2):
        fola[w] = (world[L.FOLA + w] & ~discarded[w]) | start[L.DEALER_ROBBED + w]
    if seen >= 0:
        fola[word_of(seen)] &= ~bit_of(seen)
    if popcount(fola[0]) + popcount(fola[1]) != top - 84:
        return False
    _write(out, fola[0], fola[1], 84, top)
    dealt = np.zeros(2, dtype=np.uint64)
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        for w in range(2):
            dealt[w] = (world[L.HAND + 2 * seat + w] | world[L.PLAYED + 2 * seat + w]
                        | world[L.DISCARDS + 2 * seat + w])
            if seat == cutter:
                dealt[w] &= ~start[L.CUTTER_ROBBED + w]
            if seat == dealer:
                dealt[w] &= ~start[L.DEALER_ROBBED + w]
        if popcount(dealt[0]) + popcount(dealt[1]) != L.HAND_SIZE:
            return False
        last = 40 + 11 * j + 10
        if params[P_EXPOSE] == 1:
            e0, e1 = dealt[0] & start[L.EXPOSED], dealt[1] & start[L.EXPOSED + 1]
            if popcount(e0) + popcount(e1) != 1:
                return False
            _write(out, e0, e1, last, last + 1)
            dealt[0] &= ~e0
            dealt[1] &= ~e1
            n_first = _write(out, dealt[0], dealt[1], 10 * j, 10 * j + 10)
            for _ in range(n_first):
                first = np.int64(card_at(0, dealt[0]) if dealt[0] else card_at(1, dealt[1]))
                dealt[word_of(first)] &= ~bit_of(first)
            _write(out, dealt[0], dealt[1], 40 + 11 * j, last)
        else:
            n_first = _write(out, dealt[0], dealt[1], 10 * j, 10 * j + 10)
            for _ in range(n_first):
                first = np.int64(card_at(0, dealt[0]) if dealt[0] else card_at(1, dealt[1]))
                dealt[word_of(first)] &= ~bit_of(first)
            _write(out, dealt[0], dealt[1], 40 + 11 * j, last + 1)
    for j in range(4):
        out[L.RNG + j] = world[L.RNG + j]
    return deal_cards(out, params)


@helper
def world_action(world, state, params, observer, a):
    """Rules §6: the move ``a`` of the player to move in ``state`` as made in a sampled
    ``world``: another player's discard (face down, MI-DISC-1) with the lowest of the world's
    discards he has not made yet; every other move as it was."""
    seat = np.int64(state[L.TO_MOVE])
    if seat == observer or kind_of(a, L.KIND_SHIFT) != L.DISCARD:
        return a
    c0 = world[L.DISCARDS + 2 * seat] & ~state[L.DISCARDS + 2 * seat]
    c1 = world[L.DISCARDS + 2 * seat + 1] & ~state[L.DISCARDS + 2 * seat + 1]
    if c0 == ZERO and c1 == ZERO:
        return np.int64(-1)
    return np.int64((L.DISCARD << L.KIND_SHIFT) | (card_at(0, c0) if c0 else card_at(1, c1)))
