"""Mushka's game as seat records (:class:`cardsim.protocol.match.RecordsModel`), for whole-game equity.

Each seat writes its own record down from ``start_points`` (MU-SCORE-1); the first to reach
exactly 0 wins (MU-STOP-1, MU-MATCH-1), and ``max_deals`` ends an unfinished game with the
lowest record winning, a tie sharing the win (MU-MATCH-2). With 3 to 7 seats there is no small
table of match states, so :mod:`cardsim.experiments.records_equity` counts whole games, reading the
state vector through this model between calls of the compiled game loop.
"""
from __future__ import annotations

import numpy as np

from ...protocol.match import RecordsModel
from . import layout as L
from .rules import P_ACE_BONUS, P_NUM_PLAYERS, MushkaRules


def over(vec: np.ndarray) -> bool:
    """Whether the game has ended."""
    return int(vec[L.PHASE]) == L.PHASE_MATCH_OVER


def deal_start(vec: np.ndarray, n: int) -> tuple[int, int, list]:
    """The deal's number, its dealer and each seat's record at its start (the state's
    ``START_RECORD`` words keep them all through the deal)."""
    return (int(vec[L.DEAL_NUMBER]), int(vec[L.DEALER]),
            vec[L.START_RECORD:L.START_RECORD + n].tolist())


def result(vec: np.ndarray, n: int) -> tuple[list, list, int, bool]:
    """A finished game's final records, each seat's share of the win (a tie for the lowest
    record at ``max_deals`` shares it, MU-MATCH-2), the deals played and whether ``max_deals``
    ended it (no seat stopped)."""
    winners = int(vec[L.WINNERS])
    share = [1.0 / winners.bit_count() if winners >> s & 1 else 0.0 for s in range(n)]
    return (vec[L.RECORD:L.RECORD + n].tolist(), share, int(vec[L.DEAL_NUMBER]),
            bool(vec[L.STOPPER] == 0))


def moves_left(vec: np.ndarray, params: np.ndarray) -> int:
    """A lower bound (at least 1) on the moves left in the deal of ``vec``. In the exchange:
    the seats yet to decide (MU-EXCH-1; the deal may end right after the dealer's decision,
    MU-PASS-2/3). In play: the cards left in the active hands when no active record can reach
    0 in this deal (a trick writes off 1, MU-SCORE-1, and the ace of spades' holder his bonus
    once, doubled when spades are trump, MU-SCORE-3), else the cards to the end of the first
    trick after which one could (a stop comes only when a trick, or its ace bonus, is written
    off: MU-STOP-1). Elsewhere (the dealer's discard, a stop offer) 1."""
    v = vec.tolist()                   # Python ints: a numpy scalar per word costs more
    n = int(params[P_NUM_PLAYERS])
    phase = v[L.PHASE]
    if phase == L.PHASE_EXCHANGE:
        return (v[L.DEALER] - v[L.TO_MOVE]) % n + 1
    if phase != L.PHASE_PLAY:
        return 1
    active = [s for s in range(n) if v[L.ACTIVE] >> s & 1]
    holder = v[L.ACE_HOLDER] - 1
    bonus = 0 if v[L.BONUS_TAKEN] or holder < 0 else int(params[P_ACE_BONUS]) * (
        2 if v[L.TRUMP_CARD] // 13 == L.SPADES else 1)
    first = min(max(1, v[L.RECORD + s] - (bonus if s == holder else 0)) for s in active)
    if first > L.TRICKS_PER_DEAL - v[L.TRICK_NUMBER]:
        return sum(v[L.HAND + s].bit_count() for s in active)
    in_trick = sum(1 for s in active if v[L.TRICK_CARD + s] == 0)
    return in_trick + (first - 1) * len(active)


def model(rules: MushkaRules) -> RecordsModel:
    """The game under ``rules`` as seat records."""
    return RecordsModel(start_points=rules.start_points, over=over, deal_start=deal_start,
                        result=result, moves_left=moves_left,
                        cut=f"max_deals ({rules.max_deals})",
                        rules="MU-SCORE-1, MU-STOP-1, MU-MATCH-1, MU-MATCH-2")


def standing(vec: np.ndarray, rules: MushkaRules, n: int) -> list[float]:
    """MU-MATCH-1: each seat's standing in the game, higher is better: its record negated (the
    records count down to 0)."""
    return [-float(vec[L.RECORD + s]) for s in range(n)]
