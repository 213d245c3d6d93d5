"""Minchiate's compiled scoring (numba): what the rules score, on the flat state of :mod:`.layout`.

The two-word card sets the kernels share (rules §1.4), the combinations (MI-COMB-*), the
scoring events and their resto conversion (MI-SCORE-1, MI-RESTO-2), the trick's pile and dying
cards (MI-SCORE-2, MI-MATTO-1), the end of the deal (MI-MATTO-2/3, MI-END-*, MI-RESTO-3/4) and
the row of a finished deal for ``cardsim simulate`` (:data:`ROW_COLUMNS`). Play is in
:mod:`.kernels`, which imports this module.
"""
import numpy as np

from ...compiled.bits import ONE, ZERO, lowest_index, popcount
from ...compiled.jit import helper, kernel
from . import layout as L
from .rules import P_BONUS_ON_MATTO_COMBO, P_CAPOT, P_DEALS, P_DECINE_TWO, P_RESTO

_BIAS = np.int64(L.D_BIAS)



def _value_masks():
    """The cards worth 10, 5 and 3 as two-word masks (rules §1.3)."""
    out = np.zeros((3, 2), dtype=np.uint64)
    for c in range(L.N_CARDS):
        row = {10: 0, 5: 1, 3: 2}.get(int(L.VALUE[c]))
        if row is not None:
            w, b = (0, c) if c < L.WORD1_START else (1, c - L.WORD1_START)
            out[row, w] |= np.uint64(1 << b)
    return out


VALUE_MASKS = _value_masks()


# --- two-word card sets ------------------------------------------------------------------------

@helper
def word_of(card):
    return 0 if card < L.WORD1_START else 1


@helper
def bit_of(card):
    """The card's bit inside its word."""
    return ONE << np.uint64(card if card < L.WORD1_START else card - L.WORD1_START)


@helper
def set_size(a0, a1):
    """The number of cards of a set of two words."""
    return popcount(a0) + popcount(a1)


@helper
def set_of(c):
    """The two words of card ``c``."""
    if c < L.WORD1_START:
        return ONE << np.uint64(c), ZERO
    return ZERO, ONE << np.uint64(c - L.WORD1_START)


@helper
def in_set(a0, a1, c):
    """Card ``c`` is in the set of two words."""
    if c < L.WORD1_START:
        return (a0 >> np.uint64(c)) & ONE != ZERO
    return (a1 >> np.uint64(c - L.WORD1_START)) & ONE != ZERO


@helper
def pop_lowest(a0, a1):
    """The lowest card of a non-empty set and the set without it."""
    if a0 != ZERO:
        c = lowest_index(a0)
        return c, a0 & (a0 - ONE), a1
    c = lowest_index(a1)
    return c + L.WORD1_START, a0, a1 & (a1 - ONE)


@helper
def add_card(state, at, card):
    state[at + word_of(card)] |= bit_of(card)


@helper
def remove_card(state, at, card):
    state[at + word_of(card)] &= ~bit_of(card)


@helper
def card_at(word, bits):
    """The lowest card of ``bits`` (non-zero) in word ``word``."""
    return lowest_index(bits) + (0 if word == 0 else L.WORD1_START)


@helper
def set_value(w0, w1):
    """The value of a set of cards (rules §1.3)."""
    return (10 * (popcount(w0 & VALUE_MASKS[0, 0]) + popcount(w1 & VALUE_MASKS[0, 1]))
            + 5 * (popcount(w0 & VALUE_MASKS[1, 0]) + popcount(w1 & VALUE_MASKS[1, 1]))
            + 3 * (popcount(w0 & VALUE_MASKS[2, 0]) + popcount(w1 & VALUE_MASKS[2, 1])))


@helper
def seat_team(seat):
    return seat & 1


# --- combinations (MI-COMB-*) -----------------------------------------------------------------

@helper
def with_combo(lo, hi, combo):
    """Add a combination id to a set of ids held in two words."""
    if combo < 64:
        return lo | (ONE << np.uint64(combo)), hi
    return lo, hi | (ONE << np.uint64(combo - 64))


@helper
def runs_of(w0, low, high, lo, hi):
    """MI-COMB-1: each maximal run of 3+ consecutive trumps within indices low..high."""
    i = low
    while i <= high:
        if w0 & (ONE << np.uint64(i)):
            j = i
            while j + 1 <= high and w0 & (ONE << np.uint64(j + 1)):
                j += 1
            if j - i >= 2:
                lo, hi = with_combo(lo, hi, L.RUN_ID[i, j])
            i = j + 1
        else:
            i += 1
    return lo, hi


@helper
def has_all(w0, w1, combo):
    return (w0 & L.COMBO_MASK[combo, 0]) == L.COMBO_MASK[combo, 0] and \
        (w1 & L.COMBO_MASK[combo, 1]) == L.COMBO_MASK[combo, 1]


@kernel
def combo_set(w0, w1, params):
    """MI-COMB-1, MI-COMB-2: the combinations a set of cards holds, as a set of ids in two
    words. Maximal runs only; a card may serve in several combinations."""
    lo, hi = runs_of(w0, 0, 4, ZERO, ZERO)
    lo, hi = runs_of(w0, 27, 39, lo, hi)
    if has_all(w0, w1, L.MATTO_1_40):
        lo, hi = with_combo(lo, hi, L.MATTO_1_40)
    if has_all(w0, w1, L.PAPI_1_13_28):
        lo, hi = with_combo(lo, hi, L.PAPI_1_13_28)
    if has_all(w0, w1, L.DECINE_FOUR):
        if params[P_DECINE_TWO] == 1:
            lo, hi = with_combo(lo, hi, L.DECINE_LOW)
            lo, hi = with_combo(lo, hi, L.DECINE_HIGH)
        else:
            lo, hi = with_combo(lo, hi, L.DECINE_FOUR)
    elif has_all(w0, w1, L.DECINE_LOW):
        lo, hi = with_combo(lo, hi, L.DECINE_LOW)
    elif has_all(w0, w1, L.DECINE_HIGH):
        lo, hi = with_combo(lo, hi, L.DECINE_HIGH)
    kings = 0
    missing = 0
    for s in range(4):
        if w1 & (ONE << np.uint64(L.KINGS[s] - L.WORD1_START)):
            kings += 1
        else:
            missing = s
    if kings == 4:
        lo, hi = with_combo(lo, hi, L.KINGS_FOUR)
    elif kings == 3:
        lo, hi = with_combo(lo, hi, L.KINGS_THREE + missing)
    return lo, hi


@kernel
def combos_of(w0, w1, params, out):
    """The combinations of a set of cards (:func:`combo_set`) as ids in ``out``, ascending;
    returns their number."""
    lo, hi = combo_set(w0, w1, params)
    n = 0
    while lo:
        out[n] = lowest_index(lo)
        lo &= lo - ONE
        n += 1
    while hi:
        out[n] = lowest_index(hi) + 64
        hi &= hi - ONE
        n += 1
    return n


@helper
def bonus_applies(params, combo):
    """MI-COMB-4: the Matto bonus applies to this combination."""
    return L.COMBO_HAS_MATTO[combo] == 0 or params[P_BONUS_ON_MATTO_COMBO] == 1


@helper
def combos_points(lo, hi, params, with_bonus):
    """MI-COMB-3, MI-COMB-4: the points of a set of combination ids (two words), with the
    Matto bonus on each one it applies to when ``with_bonus``."""
    total = 0
    for w in range(2):
        rest = lo if w == 0 else hi
        while rest:
            combo = lowest_index(rest) + 64 * w
            rest &= rest - ONE
            total += L.COMBO_VALUE[combo]
            if with_bonus and bonus_applies(params, combo):
                total += L.MATTO_BONUS
    return total


@kernel
def combinations_score(w0, w1, params, with_bonus):
    """MI-COMB-3, MI-COMB-4, MI-END-3: the combinations in a set of cards, with the Matto
    bonus when ``with_bonus``."""
    lo, hi = combo_set(w0, w1, params)
    return combos_points(lo, hi, params, with_bonus)


# --- scoring events and resti (MI-SCORE-1, MI-RESTO-*) -----------------------------------------

@helper
def add_points(state, source, a, b):
    state[L.POINTS + 2 * source] += np.uint64(a)
    state[L.POINTS + 2 * source + 1] += np.uint64(b)


@helper
def convert(state, params):
    """MI-RESTO-2: while a team leads by a resto or more, it gains one and the difference
    shrinks by a resto."""
    resto = params[P_RESTO]
    d = np.int64(state[L.D_WORD]) - _BIAS
    while d >= resto:
        state[L.RESTI] += ONE
        d -= resto
    while d <= -resto:
        state[L.RESTI + 1] += ONE
        d += resto
    state[L.D_WORD] = np.uint64(d + _BIAS)


@helper
def event(state, params, source, a, b):
    """MI-SCORE-1: one scoring event of ``a`` points for team A and ``b`` for team B, then
    the conversion MI-RESTO-2."""
    add_points(state, source, a, b)
    state[L.D_WORD] = np.uint64(np.int64(state[L.D_WORD]) + a - b)
    convert(state, params)


@helper
def team_event(state, params, source, team, points):
    if team == 0:
        event(state, params, source, points, 0)
    else:
        event(state, params, source, 0, points)



@helper
def collect_trick(state, team):
    """MI-PLAY-5, MI-MATTO-1, MI-SCORE-2: the trick's cards go to the pile of the winner's
    team, the Matto to its own team's (which then owes a card when it lost the trick); returns
    the value of the dying cards (those the winners took from the other team)."""
    dying = 0
    for seat in range(4):
        c = np.int64(state[L.TRICK_CARD + seat]) - 1
        state[L.TRICK_CARD + seat] = ZERO
        if c == L.MATTO:
            own = seat_team(seat)
            add_card(state, L.PILE + 2 * own, c)
            if own != team:
                state[L.MATTO_DEBT] = ONE
            continue
        add_card(state, L.PILE + 2 * team, c)
        if seat_team(seat) != team:
            dying += L.VALUE[c]
    return dying


# --- the end (MI-MATTO-2/3, MI-END-*, MI-RESTO-3/4) ------------------------------------------

@helper
def move_card(state, src, dst, card):
    remove_card(state, src, card)
    add_card(state, dst, card)


@helper
def payment_card(state, team):
    """MI-MATTO-2 (engine default): the debtor's lowest zero-value card other than T29, else
    its lowest-valued card (lowest index among equals)."""
    p0 = state[L.PILE + 2 * team]
    p1 = state[L.PILE + 2 * team + 1]
    z0 = p0 & L.DISCARDABLE[0]
    z1 = p1 & L.DISCARDABLE[1]
    if z0:
        return lowest_index(z0)
    if z1:
        return card_at(1, z1)
    best = -1
    for w in range(2):
        rest = p0 if w == 0 else p1
        while rest:
            c = card_at(w, rest)
            rest &= rest - ONE
            if best < 0 or L.VALUE[c] < L.VALUE[best]:
                best = c
    return best


@kernel
def end_of_deal(state, params):
    """MI-MATTO-2/3, MI-END-1..4: the Matto settlement, then one scoring event (piles, cards
    beyond 42, combinations in the piles, the last trick); MI-RESTO-3 rounds the rest;
    MI-RESTO-4 the net resti (``capot``)."""
    m_team = np.int64(state[L.MATTO_TEAM]) - 1
    if m_team >= 0:
        other = 1 - m_team
        if state[L.TRICKS_WON + m_team] == ZERO:                      # MI-MATTO-3
            move_card(state, L.PILE + 2 * m_team, L.PILE + 2 * other, L.MATTO)
            state[L.MATTO_GIVEN] = ONE
        elif state[L.MATTO_DEBT] == ONE:                              # MI-MATTO-2
            c = payment_card(state, m_team)
            move_card(state, L.PILE + 2 * m_team, L.PILE + 2 * other, c)
            state[L.PAID_CARD] = np.uint64(c + 1)
    pts_a = 0
    pts_b = 0
    for team in range(2):
        p0 = state[L.PILE + 2 * team]
        p1 = state[L.PILE + 2 * team + 1]
        pile = set_value(p0, p1)
        beyond = max(0, popcount(p0) + popcount(p1) - L.HALF_PACK)
        combos = combinations_score(p0, p1, params, (p0 >> np.uint64(L.MATTO)) & ONE == ONE)
        add_points(state, L.SRC_PILE, pile if team == 0 else 0, pile if team == 1 else 0)
        add_points(state, L.SRC_BEYOND_42, beyond if team == 0 else 0, beyond if team == 1 else 0)
        add_points(state, L.SRC_PILE_COMBOS, combos if team == 0 else 0,
                   combos if team == 1 else 0)
        if team == 0:
            pts_a = pile + beyond + combos
        else:
            pts_b = pile + beyond + combos
    last = seat_team(np.int64(state[L.LAST_WINNER]) - 1)
    if last == 0:
        pts_a += L.LAST_TRICK_POINTS
    else:
        pts_b += L.LAST_TRICK_POINTS
    add_points(state, L.SRC_LAST_TRICK, L.LAST_TRICK_POINTS if last == 0 else 0,
               L.LAST_TRICK_POINTS if last == 1 else 0)
    state[L.D_WORD] = np.uint64(np.int64(state[L.D_WORD]) + pts_a - pts_b)
    convert(state, params)
    resto = params[P_RESTO]
    d = np.int64(state[L.D_WORD]) - _BIAS
    if d > 0:                                                       # MI-RESTO-3
        state[L.RESTI] += np.uint64((d + resto - 1) // resto)
    elif d < 0:
        state[L.RESTI + 1] += np.uint64((-d + resto - 1) // resto)
    net = np.int64(state[L.RESTI]) - np.int64(state[L.RESTI + 1])
    if params[P_CAPOT] == 1:
        if state[L.TRICKS_WON + 1] == ZERO:
            net = max(14, 2 * net)
        elif state[L.TRICKS_WON] == ZERO:
            net = -max(14, -2 * net)
    state[L.NET] = np.uint64(net + _BIAS)
    state[L.NET_TOTAL] = np.uint64(np.int64(state[L.NET_TOTAL]) + net)
    if state[L.MODE] == L.MODE_MATCH and np.int64(state[L.DEAL_NUMBER]) < params[P_DEALS]:
        state[L.PHASE] = L.PHASE_NEXT_DEAL                              # deals again (below)
    else:
        state[L.PHASE] = L.PHASE_MATCH_OVER if state[L.MODE] == L.MODE_MATCH else L.PHASE_DEAL_OVER
    state[L.TO_MOVE] = ZERO


# --- the row of a finished deal (cardsim simulate) ----------------------------------------

ROW_COLUMNS = (("dealer", "net", "resti_a", "resti_b", "tricks_a", "matto_given")
                  + tuple(f"{s}_{t}" for s in L.SOURCES for t in "ab")
                  + tuple(f"declared_{k}" for k in L.COMBO_KINDS) + ("bonus_claims",))
N_FIXED = 6
N_KINDS = len(L.COMBO_KINDS)


@kernel
def deal_row(state, row):
    """Fill one row of :data:`ROW_COLUMNS` from a finished deal."""
    row[0] = np.int64(state[L.DEALER])
    row[1] = np.int64(state[L.NET]) - _BIAS
    row[2] = np.int64(state[L.RESTI])
    row[3] = np.int64(state[L.RESTI + 1])
    row[4] = np.int64(state[L.TRICKS_WON])
    row[5] = np.int64(state[L.MATTO_GIVEN])
    for i in range(2 * len(L.SOURCES)):
        row[N_FIXED + i] = np.int64(state[L.POINTS + i])
    base = N_FIXED + 2 * len(L.SOURCES)
    for k in range(N_KINDS + 1):
        row[base + k] = 0
    for seat in range(4):
        for w in range(2):
            d = state[L.DECLARED + 2 * seat + w]
            while d:
                combo = lowest_index(d) + 64 * w
                d &= d - ONE
                row[base + L.COMBO_KIND_ID[combo]] += 1
    row[base + N_KINDS] = popcount(state[L.BONUS_CLAIMED])
