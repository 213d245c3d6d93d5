"""Mushka's encoding for the learned evaluation (:mod:`cardsim.solvers.evaluation`): a sampled world as
the sparse input of the value model, seen from one seat.

The model values a *world* (every card placed: a determinized state) for the seat
``player``, so every seat is relative to it: seat ``(player + r) % n`` (``n`` players) is zone
``r``, in playing order; zones ``r >= n`` stay empty. Cards use the universal 52-card index
(rules §1) whatever the deck. Each card in a zone is one input set to 1 (one-hot by zone and
card); per-seat counters and flags follow, then the position's own (``val`` holds a counter's
size, scaled to about [0, 1]).

========  ========================================================================
inputs    what
========  ========================================================================
0-363     the hand of seat ``player + r`` (``r`` 0..6, zone ``r``; 52 each)
364-727   the card seat ``player + r`` played to the current trick (TRICK_CARD)
728-779   the stock (the discard and exchange phases only: dead afterwards)
780-786   tricks won this deal by seat ``player + r``, / 5
787-793   the record written off this deal (``start_record - record``: the deal's return so
          far; negative after a remise or an overshoot reset), / 5
794-800   the record, ``min(record, 25) / 25`` (a record above 15 cannot reach 0 in one deal:
          5 tricks and a 10-point bonus)
801-807   seat ``player + r`` passed (DECISION)
808-814   seat ``player + r`` stood or exchanged (DECISION; neither: undecided)
815-821   seat ``player + r`` is in the play (ACTIVE)
822-828   seat ``player + r`` is the holder of the ace of spades (ACE_HOLDER)
829-835   the dealer is seat ``player + r`` (the exchange's order, ending with him; MU-PLAY-2)
836-842   the leader of the current trick is seat ``player + r`` (LEADER)
843-849   the seat to move is ``player + r`` (TO_MOVE; none once the deal is over)
850-853   the trump suit (TRUMP_CARD's suit: spades, clubs, diamonds, hearts)
854-859   the phase (discard, exchange, play, stop, deal over, match over)
860-862   where a declined stop resumes (STOP_AT: play, bonus, end; the stop phase only)
863       the ace bonus was written off this deal (BONUS_TAKEN)
864       the dealer took the turned card (TRUMP_TAKEN: he may not discard it)
865       tricks completed this deal / 5 (TRICK_NUMBER)
866       tricks still to credit to a lone player / 5 (LONE_LEFT, MU-PASS-3)
867-871   the number of players, 3..7
========  ========================================================================

Left out: the discards (DISCARDS) and the cards played to earlier tricks (PLAYED) are dead
(MU-EXCH-6): no rule reads them again, and in a world they are simply the cards in no zone;
EXCLUDED is what the others know, which a world with every card placed no longer needs;
the exchanged count ``k`` of DECISION is already in the hand it drew; START_RECORD is in the
record written off; STOP_SEAT is the seat to move at an offer; the deal order, NEXT and RNG
(a sampled world forgets the dealt order), and MODE, DEAL_NUMBER, WINNERS, STOPPER and
VOID_DEAL (the match's bookkeeping, or set only once the deal is over, which the phase says).
The rules options are not inputs: a model is trained under one set of rules.

The model's outputs (:data:`N_SEATS`) are the deal returns (the record written off) of the
seats ``player + r`` for ``r`` = 0 .. ``N_SEATS - 1`` (zero for seats that do not play).
"""
import numpy as np

from ...compiled.bits import ZERO, bit, put_cards, put_input
from ...compiled.jit import kernel
from . import layout as L
from .rules import P_NUM_PLAYERS

N_INPUTS = 872
"""The number of distinct inputs (the model's input width)."""
MAX_ACTIVE = 52 + 5 * 7 + 4 + 8
"""The most inputs one world sets: each card at most once (hands, trick and stock hold
distinct cards, 52 at most); per seat at most 5 counters and flags (tricks, written off,
record, passed or playing, active) for up to 7 seats; one seat each for the ace holder, the
dealer, the leader and the seat to move; 8 for the rest (trump, phase, stop, bonus, taken
card, tricks completed, lone tricks, players)."""
N_SEATS = L.MAX_PLAYERS
"""The model's return outputs: one per seat relative to ``player`` (with fewer players the
last ones are always 0)."""
VERSION = 1
"""The encoding's version: weights trained on another are refused."""

_Z = L.N_CARDS
_TRICK = L.MAX_PLAYERS * _Z
_STOCK = _TRICK + L.MAX_PLAYERS * _Z
_TRICKS = _STOCK + _Z
_WRITTEN = _TRICKS + L.MAX_PLAYERS
_RECORD = _WRITTEN + L.MAX_PLAYERS
_PASSED = _RECORD + L.MAX_PLAYERS
_PLAYS = _PASSED + L.MAX_PLAYERS
_ACTIVE = _PLAYS + L.MAX_PLAYERS
_ACE = _ACTIVE + L.MAX_PLAYERS
_DEALER = _ACE + L.MAX_PLAYERS
_LEADER = _DEALER + L.MAX_PLAYERS
_TO_MOVE = _LEADER + L.MAX_PLAYERS
_TRUMP = _TO_MOVE + L.MAX_PLAYERS
_PHASE = _TRUMP + 4
_STOP_AT = _PHASE + 6
_BONUS = _STOP_AT + 3
_TAKEN = _BONUS + 1
_TRICK_NUMBER = _TAKEN + 1
_LONE = _TRICK_NUMBER + 1
_PLAYERS = _LONE + 1
assert _PLAYERS + 5 == N_INPUTS


@kernel(inline=True)
def encode(state, params, player, idx, val):
    """The active inputs of ``state`` seen from seat ``player`` (module docstring) in
    ``idx[:n]``, their values in ``val[:n]``; returns ``n`` (at most :data:`MAX_ACTIVE`)."""
    n_players = params[P_NUM_PLAYERS]
    phase = np.int64(state[L.PHASE])
    exchanging = phase == L.PHASE_DISCARD or phase == L.PHASE_EXCHANGE
    n = 0
    for r in range(n_players):
        seat = (player + r) % n_players
        n = put_cards(state[L.HAND + seat], r * _Z, idx, val, n)
        card = np.int64(state[L.TRICK_CARD + seat])
        if card > 0:
            n = put_input(idx, val, n, _TRICK + r * _Z + card - 1, 1.0)
    if exchanging:
        n = put_cards(state[L.STOCK], _STOCK, idx, val, n)
    active = state[L.ACTIVE]
    for r in range(n_players):
        seat = (player + r) % n_players
        tricks = np.int64(state[L.TRICKS_WON + seat])
        if tricks > 0:
            n = put_input(idx, val, n, _TRICKS + r, tricks / 5.0)
        record = np.int64(state[L.RECORD + seat])
        written = np.int64(state[L.START_RECORD + seat]) - record
        if written != 0:
            n = put_input(idx, val, n, _WRITTEN + r, written / 5.0)
        if record > 0:
            n = put_input(idx, val, n, _RECORD + r, min(record, 25) / 25.0)
        decision = np.int64(state[L.DECISION + seat])
        if decision != L.DECIDED_NONE:
            n = put_input(idx, val, n, (_PASSED if decision == L.DECIDED_PASS else _PLAYS) + r, 1.0)
        if active & bit(seat):
            n = put_input(idx, val, n, _ACTIVE + r, 1.0)
    holder = np.int64(state[L.ACE_HOLDER])
    if holder > 0:
        n = put_input(idx, val, n, _ACE + (holder - 1 - player) % n_players, 1.0)
    idx[n] = _DEALER + (np.int64(state[L.DEALER]) - player) % n_players
    val[n] = 1.0
    idx[n + 1] = _LEADER + (np.int64(state[L.LEADER]) - player) % n_players
    val[n + 1] = 1.0
    idx[n + 2] = _TRUMP + np.int64(state[L.TRUMP_CARD]) // 13
    val[n + 2] = 1.0
    n += 3
    if phase < L.PHASE_DEAL_OVER:
        n = put_input(idx, val, n, _TO_MOVE + (np.int64(state[L.TO_MOVE]) - player) % n_players, 1.0)
    if phase <= L.PHASE_MATCH_OVER:
        n = put_input(idx, val, n, _PHASE + phase, 1.0)
    if phase == L.PHASE_STOP:
        n = put_input(idx, val, n, _STOP_AT + np.int64(state[L.STOP_AT]), 1.0)
    if state[L.BONUS_TAKEN] != ZERO:
        n = put_input(idx, val, n, _BONUS, 1.0)
    if state[L.TRUMP_TAKEN] != ZERO:
        n = put_input(idx, val, n, _TAKEN, 1.0)
    done = np.int64(state[L.TRICK_NUMBER])
    if done > 0:
        n = put_input(idx, val, n, _TRICK_NUMBER, done / 5.0)
    lone = np.int64(state[L.LONE_LEFT])
    if lone > 0:
        n = put_input(idx, val, n, _LONE, lone / 5.0)
    idx[n] = _PLAYERS + n_players - 3
    val[n] = 1.0
    return n + 1
