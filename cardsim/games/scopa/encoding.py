"""Scopa's encoding for the learned evaluation (:mod:`cardsim.solvers.evaluation`): a sampled world as
the sparse input of the value model, seen from one seat.

The model values a *world* (every card placed: a determinized state) for the seat
``player``, so every zone is relative to that seat: hands by their distance from it in playing
order, piles as its side's and the other side's. Each card in a zone is one input set to 1
(one-hot by zone and card); a card in none of them is in the stock, whose order a sampled world
does not keep. A few counters follow (``val`` holds their size).

========  ========================================================================
inputs    what
========  ========================================================================
0-159     the hand of seat ``player + r`` (``r`` 0..3, zone ``r``; 2 players: r 0, 1)
160-199   the table
200-239   the captured cards of ``player``'s side
240-279   the captured cards of the other side
280, 281  scopas of the deal: ``player``'s side, the other side (a count)
282, 283  the last capture was ``player``'s side's, the other side's
284       the stock's size / 40
285-288   the seat to move, relative to ``player`` (SC-TURN: playing order)
========  ========================================================================

The model's outputs (:data:`N_SEATS`) are the deal returns of the seats ``player + r`` for
``r`` = 0 .. ``N_SEATS - 1`` (zero for seats that do not play).
"""
import numpy as np

from ...compiled.bits import ZERO, popcount, put_cards, put_input
from ...compiled.jit import kernel
from . import layout as L
from .rules import P_NUM_PLAYERS

N_INPUTS = 289
"""The number of distinct inputs (the model's input width)."""
MAX_ACTIVE = 40 + 9
"""The most inputs one world sets: each card once, plus the counters."""
N_SEATS = 4
"""The model's return outputs: one per seat relative to ``player`` (2 players: the last two
are always 0)."""
VERSION = 1
"""The encoding's version: weights trained on another are refused."""

_TABLE = 4 * L.N_CARDS
_OWN_PILE = _TABLE + L.N_CARDS
_OTHER_PILE = _OWN_PILE + L.N_CARDS
_COUNTERS = _OTHER_PILE + L.N_CARDS


@kernel(inline=True)
def encode(state, params, player, idx, val):
    """The active inputs of ``state`` seen from seat ``player`` (module docstring) in
    ``idx[:n]``, their values in ``val[:n]``; returns ``n`` (at most :data:`MAX_ACTIVE`)."""
    n_players = params[P_NUM_PLAYERS]
    n = 0
    for r in range(n_players):
        seat = (player + r) % n_players
        n = put_cards(state[L.HAND + seat], r * L.N_CARDS, idx, val, n)
    n = put_cards(state[L.TABLE], _TABLE, idx, val, n)
    own = player & 1
    n = put_cards(state[L.PILE + own], _OWN_PILE, idx, val, n)
    n = put_cards(state[L.PILE + 1 - own], _OTHER_PILE, idx, val, n)
    for k in range(2):
        scopas = state[L.SCOPE + (own if k == 0 else 1 - own)]
        if scopas != ZERO:
            n = put_input(idx, val, n, _COUNTERS + k, float(scopas))
    last = np.int64(state[L.LAST_CAPTURER])
    if last > 0:
        n = put_input(idx, val, n, _COUNTERS + 2 + (0 if last - 1 == own else 1), 1.0)
    stock = popcount(state[L.STOCK])
    if stock > 0:
        n = put_input(idx, val, n, _COUNTERS + 4, stock / 40.0)
    idx[n] = _COUNTERS + 5 + (np.int64(state[L.TO_MOVE]) - player) % n_players
    val[n] = 1.0
    return n + 1
