"""Minchiate's encoding for the learned evaluation (:mod:`cardsim.solvers.evaluation`): a sampled world
as the sparse input of the value model, seen from one seat.

The model values a *world* (every card placed: a determinized state) for the seat
``player``, so every zone is relative to that seat: hands and the current trick's cards by
their distance from it in playing order, piles as its team's and the other team's (the team of
seat ``s`` is ``s & 1``, so zones 0 and 2 are ``player``'s team). Each card in a zone is one
input set to 1 (one-hot by zone and card, ``card`` the layout's index 0..96: T1..T40 0..39,
the Matto 40, the suit cards 41..96); a card in none of them is in the Fola, which takes no
part in tricks and belongs to nobody (MI-FOLA-1). A few counters follow (``val`` holds their
size).

==========  ====================================================================
inputs      what
==========  ====================================================================
0-387       the hand of seat ``player + r`` (``r`` 0..3, zone ``r``): ``97 r + card``
388-484     the trick pile of ``player``'s team
485-581     the trick pile of the other team
582-969     the card seat ``player + r`` played to the current trick: ``582 + 97 r + card``
970-973     the seat to move, relative to ``player`` (before the deal's end)
974-977     the leader of the current trick, relative to ``player`` (once play began)
978-981     the dealer, relative to ``player`` (before play begins: the discards and the
            declarations follow from him, his right leads first)
982-984     the phase when it is not the play: discard, declare, the deal is over
985         tricks completed / 21
986-989     suit ``s`` (coins, cups, swords, batons) was led in an earlier trick (MI-KING-1)
990-994     the current trick's suit: the four suits, trumps (MI-PLAY-2)
995, 996    the running difference D (MI-RESTO-1) in favour of ``player``'s team, of the
            other team / ``resto_points`` (below one resto after each conversion)
997, 998    resti made this deal: ``player``'s team, the other team (a count)
999, 1000   the Matto's team owes a card (MI-MATTO-2; paid at the deal's end): ``player``'s
            team, the other team
1001-1004   seat ``player + r`` has yet to make its declaration (MI-DECL-1)
1005        cards the player to move must still discard / 13 (MI-DISC-1)
1006        the combinations the declarer to move has declared, not yet scored (MI-DECL-3):
            their points / ``resto_points``
1007        the Matto bonus those would add if claimed (MI-COMB-4) / ``resto_points``
1008        1 + the highest combination id he declared so far / 82 (he declares ascending)
==========  ====================================================================

Left out: the Fola (the complement of the zones above; the discards in it are part of it), the
discards, SHOWN, EXCLUDED, the robbed and exposed cards and the other seats' declared
combinations (information-set facts: a world already places every card, and what they scored
is in D and the resti); the points by source (D and the resti are all the scoring keeps,
MI-RESTO-1); the tricks won (each pile holds 4 per trick won, one card more or less by the
Matto's debt), the Matto's team (the pile or trick holding the Matto) and the last trick's
winner (the leader); the deal order and the chance stream (a sampled world forgets the dealt
order); the match words (earlier deals' resti, the deal number: the outputs are this deal's
returns); the Fola's visibility and the bottom card seen (knowledge only).

The model's outputs (:data:`N_SEATS`) are the deal returns (net resti) of the seats
``player + r`` for ``r`` = 0 .. 3.
"""
import numpy as np

from ...compiled.bits import ONE, ZERO, put_cards, put_input
from ...compiled.jit import kernel
from . import layout as L
from .rules import P_DECLARE_AFTER_CARD, P_RESTO
from .scoring import combos_points

N_INPUTS = 1009
"""The number of distinct inputs (the model's input width)."""
MAX_ACTIVE = L.N_CARDS + 22
"""The most inputs one world sets: each card at most once (hands, piles, trick and Fola are
disjoint), plus the counters: seat to move 1, leader 1, dealer 1, phase 1, trick number 1,
suits led 4, the trick's suit 1, D 1 (one sign), resti 2, the Matto's debt 1 (one team),
seats yet to declare 4, discards due 1, the declarer's pending points, bonus and last id 3."""
N_SEATS = 4
"""The model's return outputs: one per seat relative to ``player``."""
VERSION = 1
"""The encoding's version: weights trained on another are refused."""

_OWN_PILE = 4 * L.N_CARDS
_OTHER_PILE = _OWN_PILE + L.N_CARDS
_TRICK = _OTHER_PILE + L.N_CARDS
_COUNTERS = _TRICK + 4 * L.N_CARDS
_TO_MOVE = _COUNTERS
_LEADER = _COUNTERS + 4
_DEALER = _COUNTERS + 8
_PHASE = _COUNTERS + 12
_TRICKS = _COUNTERS + 15
_SUITS_LED = _COUNTERS + 16
_LED_SUIT = _COUNTERS + 20
_D = _COUNTERS + 25
_RESTI = _COUNTERS + 27
_DEBT = _COUNTERS + 29
_TO_DECLARE = _COUNTERS + 31
_TO_DISCARD = _COUNTERS + 35
_PENDING = _COUNTERS + 36
_PENDING_BONUS = _COUNTERS + 37
_DECL_LAST = _COUNTERS + 38
_BIAS = np.int64(L.D_BIAS)


@kernel(inline=True)
def encode(state, params, player, idx, val):
    """The active inputs of ``state`` seen from seat ``player`` (module docstring) in
    ``idx[:n]``, their values in ``val[:n]``; returns ``n`` (at most :data:`MAX_ACTIVE`)."""
    n = 0
    own = player & 1
    for r in range(4):
        seat = (player + r) % 4
        base = r * L.N_CARDS
        n = put_cards(state[L.HAND + 2 * seat], base, idx, val, n)
        n = put_cards(state[L.HAND + 2 * seat + 1], base + L.WORD1_START, idx, val, n)
    for k in range(2):
        team = own if k == 0 else 1 - own
        base = _OWN_PILE if k == 0 else _OTHER_PILE
        n = put_cards(state[L.PILE + 2 * team], base, idx, val, n)
        n = put_cards(state[L.PILE + 2 * team + 1], base + L.WORD1_START, idx, val, n)
    for r in range(4):
        t = np.int64(state[L.TRICK_CARD + (player + r) % 4])
        if t > 0:
            n = put_input(idx, val, n, _TRICK + r * L.N_CARDS + t - 1, 1.0)
    phase = np.int64(state[L.PHASE])
    resto = float(params[P_RESTO])
    if phase < L.PHASE_DEAL_OVER:
        to_move = np.int64(state[L.TO_MOVE])
        n = put_input(idx, val, n, _TO_MOVE + (to_move - player) % 4, 1.0)
        started = phase == L.PHASE_PLAY or (phase == L.PHASE_DECLARE
                                            and params[P_DECLARE_AFTER_CARD] == 1)
        seat, base = ((np.int64(state[L.LEADER]), _LEADER) if started
                      else (np.int64(state[L.DEALER]), _DEALER))
        n = put_input(idx, val, n, base + (seat - player) % 4, 1.0)
        done = np.int64(state[L.DECLARED_DONE])
        for r in range(4):
            if (done >> ((player + r) % 4)) & 1 == 0:
                n = put_input(idx, val, n, _TO_DECLARE + r, 1.0)
        if phase == L.PHASE_DISCARD:
            n = put_input(idx, val, n, _TO_DISCARD, np.int64(state[L.TO_DISCARD]) / 13.0)
        elif phase == L.PHASE_DECLARE:
            lo = state[L.DECLARED + 2 * to_move]
            hi = state[L.DECLARED + 2 * to_move + 1]
            if lo != ZERO or hi != ZERO:
                points = combos_points(lo, hi, params, False)
                n = put_input(idx, val, n, _PENDING, points / resto)
                bonus = combos_points(lo, hi, params, True) - points
                if bonus > 0:
                    n = put_input(idx, val, n, _PENDING_BONUS, bonus / resto)
            last = np.int64(state[L.DECL_LAST])
            if last > 0:
                n = put_input(idx, val, n, _DECL_LAST, last / float(L.N_COMBOS))
    if phase != L.PHASE_PLAY:
        stage = 0 if phase == L.PHASE_DISCARD else (1 if phase == L.PHASE_DECLARE else 2)
        n = put_input(idx, val, n, _PHASE + stage, 1.0)
    tricks = np.int64(state[L.TRICK_NUMBER])
    if tricks > 0:
        n = put_input(idx, val, n, _TRICKS, tricks / float(L.TRICKS_PER_DEAL))
    led = state[L.SUITS_LED]
    for s in range(4):
        if (led >> np.uint64(s)) & ONE != ZERO:
            n = put_input(idx, val, n, _SUITS_LED + s, 1.0)
    suit = np.int64(state[L.LED_SUIT])
    if suit < L.NO_SUIT:
        n = put_input(idx, val, n, _LED_SUIT + suit, 1.0)
    d = np.int64(state[L.D_WORD]) - _BIAS
    if own == 1:
        d = -d
    if d != 0:
        n = put_input(idx, val, n, _D + (0 if d > 0 else 1), abs(d) / resto)
    for k in range(2):
        resti = np.int64(state[L.RESTI + (own if k == 0 else 1 - own)])
        if resti > 0:
            n = put_input(idx, val, n, _RESTI + k, float(resti))
    m_team = np.int64(state[L.MATTO_TEAM]) - 1
    if m_team >= 0 and np.int64(state[L.MATTO_DEBT]) == 1 and phase < L.PHASE_DEAL_OVER:
        n = put_input(idx, val, n, _DEBT + (0 if m_team == own else 1), 1.0)
    return n
