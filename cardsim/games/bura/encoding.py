"""Bura's encoding for the learned evaluation (:mod:`cardsim.solvers.evaluation`): a sampled world as
the sparse input of the value model, seen from one seat.

The model values a *world* (every card placed: a determinized state) for the seat
``player``, so every zone is relative to that seat: seat ``(player + r) % n`` is zone ``r``
(``n`` the number of players; zones ``r >= n`` stay empty). Each card in a zone is one input
set to 1 (one-hot by zone and card: index = suit * 9 + rank, rules §1); a card in none of the
card zones is in the stock, whose order a sampled world does not keep (the turned trump card,
drawn last, has its own zone). A few counters follow (``val`` holds their size).

========  ========================================================================
inputs    what
========  ========================================================================
0-143     the hand of seat ``player + r`` (zone ``r``, 36 inputs each)
144-287   the face-up won cards of seat ``player + r`` (BU-RESP-5)
288-431   the face-down won cards of seat ``player + r`` (BU-RESP-6: unseen by their owner)
432-575   the cards seat ``player + r`` played to the current trick
576-611   the cards of the current trick thrown face down (who threw them: 432-575)
612-647   the turned trump card, while it is in the stock (BU-DEAL-3, BU-DRAW-2)
648-651   the trump suit (s c d h)
652-655   the pile points of seat ``player + r``, face-down cards included, / 120
656-659   the face-up pile points of seat ``player + r`` (what its owner sees) / 120
660       the stock's size / 30 (its most: 36 - 3 * 2)
661-664   the seat to move, relative to ``player`` (none once the deal is over)
665-668   the leader, relative: the scheduled one at a check point, else the trick's
669-672   the current trick's holder (its top's), relative (while a trick is on)
673       the current trick's size ``k`` / 3 (while a trick is on)
674-680   the phase: check (claim or lead), claim or not, Stop round (small Moscow),
          Stop round (molodka), lead (claim declined), answer, over
========  ========================================================================

Left out: the deal order, the next draw and the chance stream (``ORDER``, ``NEXT``, ``RNG``: a
sampled world forgets the dealt order); the current trick's top (the holder's cards); the
tricks played and the last trick's taker (the piles and the leader tell what play needs);
who threw each settled face-down card (``THROWN``), the cards shown at a refused Stop
(``REVEALED``) and the deal's log (``GOT``, ``LEFT``, ``SHOWN``, ``FIRST_LEADER``): what
players know and infer, not where the cards are; the deal's result (``RESULT``, ``WINNERS``,
``MULTIPLIER``, ``CLAIM_POINTS``: a finished deal's return is its result's, not the model's);
and the match (``SCORE``, ``DEAL_NUMBER``, ``REDEALS``, ``DEALER``, ``MODE``): nothing in a
deal's play reads them, and the model predicts the deal's return. The rules options are not
inputs either, as in Scopa's encoding.

The model's outputs (:data:`N_SEATS`) are the deal returns of the seats ``player + r`` for
``r`` = 0 .. ``N_SEATS - 1`` (zero for seats that do not play).
"""
import numpy as np

from ...compiled.bits import ZERO, bit, popcount, put_cards, put_input
from ...compiled.jit import kernel
from . import layout as L
from .rules import P_NUM_PLAYERS
from .scoring import points, suit_of

N_INPUTS = 681
"""The number of distinct inputs (the model's input width)."""
MAX_ACTIVE = 36 + 9 + 15
"""The most inputs one world sets. Every card lies in exactly one place (a hand, a face-up or
face-down pile, the current trick, the stock), and only the turned card of the stock has an
input: at most 36 from 0-575 and 612-647. The trick's face-down marks (576-611) repeat trick
cards: the lead is face up, so at most three answers of k <= 3 cards, 9. The counters: 4 + 4
pile points, the trump suit, the stock, the seat to move, the leader, the holder, k and the
phase, 15."""
N_SEATS = 4
"""The model's return outputs: one per seat relative to ``player`` (2 or 3 players: the last
ones are always 0)."""
VERSION = 1
"""The encoding's version: weights trained on another are refused."""

_PILE_UP = 4 * L.N_CARDS
_PILE_DOWN = _PILE_UP + 4 * L.N_CARDS
_TRICK = _PILE_DOWN + 4 * L.N_CARDS
_TRICK_DOWN = _TRICK + 4 * L.N_CARDS
_TURNED = _TRICK_DOWN + L.N_CARDS
_TRUMP_SUIT = _TURNED + L.N_CARDS
_POINTS = _TRUMP_SUIT + 4
_POINTS_UP = _POINTS + 4
_STOCK = _POINTS_UP + 4
_TO_MOVE = _STOCK + 1
_LEADER = _TO_MOVE + 4
_HOLDER = _LEADER + 4
_TRICK_K = _HOLDER + 4
_PHASE = _TRICK_K + 1         # check, claim, Stop (small Moscow), Stop (molodka), lead, answer, over


@kernel(inline=True)
def encode(state, params, player, idx, val):
    """The active inputs of ``state`` seen from seat ``player`` (module docstring) in
    ``idx[:n]``, their values in ``val[:n]``; returns ``n`` (at most :data:`MAX_ACTIVE`)."""
    n_players = params[P_NUM_PLAYERS]
    n = 0
    down = ZERO
    for r in range(n_players):
        seat = (player + r) % n_players
        base = r * L.N_CARDS
        n = put_cards(state[L.HAND + seat], base, idx, val, n)
        n = put_cards(state[L.PILE_UP + seat], _PILE_UP + base, idx, val, n)
        n = put_cards(state[L.PILE_DOWN + seat], _PILE_DOWN + base, idx, val, n)
        played = state[L.TRICK_PLAYED + seat]
        n = put_cards(played, _TRICK + base, idx, val, n)
        down |= played & state[L.THROWN + seat]
    n = put_cards(down, _TRICK_DOWN, idx, val, n)
    trump_card = np.int64(state[L.TRUMP_CARD])
    n = put_cards(state[L.STOCK] & bit(trump_card), _TURNED, idx, val, n)
    n = put_input(idx, val, n, _TRUMP_SUIT + suit_of(trump_card), 1.0)
    for r in range(n_players):
        seat = (player + r) % n_players
        up = points(state[L.PILE_UP + seat])
        total = up + points(state[L.PILE_DOWN + seat])
        if total > 0:
            n = put_input(idx, val, n, _POINTS + r, total / 120.0)
        if up > 0:
            n = put_input(idx, val, n, _POINTS_UP + r, up / 120.0)
    stock = popcount(state[L.STOCK])
    if stock > 0:
        n = put_input(idx, val, n, _STOCK, stock / 30.0)
    phase = np.int64(state[L.PHASE])
    over = phase >= L.PHASE_DEAL_OVER
    if not over:
        n = put_input(idx, val, n, _TO_MOVE + (np.int64(state[L.TO_MOVE]) - player) % n_players, 1.0)
    n = put_input(idx, val, n, _LEADER + (np.int64(state[L.LEADER]) - player) % n_players, 1.0)
    k = np.int64(state[L.TRICK_K])
    if k > 0:
        idx[n] = _HOLDER + (np.int64(state[L.TRICK_HOLDER]) - player) % n_players
        val[n] = 1.0
        idx[n + 1] = _TRICK_K
        val[n + 1] = k / 3.0
        n += 2
    if over:
        step = 6
    elif phase == L.PHASE_STOP:
        step = 2 + np.int64(state[L.STOP_ROUND])
    elif phase < L.PHASE_STOP:
        step = phase
    else:
        step = phase + 1
    idx[n] = _PHASE + step
    val[n] = 1.0
    return n + 1
