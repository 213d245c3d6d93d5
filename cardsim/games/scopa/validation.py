"""The checks that a Scopa position is possible (``notation.from_dict`` runs them on the
state vector it has built): who captured last, the hand and stock sizes, the piles, scopas,
mode, phase and scores. The rules they need (the order of the seats, the hand size, when a
match is over) are asked of the reference engine (:class:`.reference.ReferenceScopa`), not
written again. Every failure is a one-line :class:`~cardsim.errors.PositionError`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import PositionError
from ...protocol.positions import position_error
from . import layout as L
from .reference import ReferenceScopa


def _err(msg: str) -> PositionError:
    return position_error("scopa", msg)


def check_last_capturer(vec: np.ndarray) -> None:
    """SC-CAPT-7, SC-END-2: the last capturer's pile holds cards, and a pile with cards has a
    last capturer."""
    lc = int(vec[L.LAST_CAPTURER])
    if lc:
        if not vec[L.PILE + lc - 1]:
            raise _err(f"last_capturer={lc - 1}: that side's pile is empty")
    elif vec[L.PILE] or vec[L.PILE + 1]:
        raise _err("last_capturer is None but a pile holds cards: name the side that captured last")


def check_hand_sizes(vec: np.ndarray, rules: Any, stock_size: int) -> None:
    """Hand and stock sizes must be reachable (SC-DEAL-2, SC-DEAL-5, SC-TEAM-2)."""
    ref = ReferenceScopa(rules)
    n = ref.n
    size = ref.hand_size()
    sizes = [bin(int(vec[L.HAND + p])).count("1") for p in range(n)]
    if stock_size % (size * n) or (size == 9 and stock_size):
        raise _err(f"stock of {stock_size} cards: expected a multiple of {size * n}"
                   if size == 3 else f"stock of {stock_size} cards: nine_at_once leaves no stock")
    if vec[L.PHASE] != L.PHASE_PLAY:
        if any(sizes) or stock_size:
            raise _err("a finished deal has no cards in hands or stock")
        return
    first = ref.next_seat(int(vec[L.DEALER]))
    played = (int(vec[L.TO_MOVE]) - first) % n   # seats that already played this round
    h = sizes[int(vec[L.TO_MOVE])]
    expected = [h - 1 if (p - first) % n < played else h for p in range(n)]
    if h < 1 or h > size or sizes != expected:
        raise _err(f"hand sizes {sizes} with seat {int(vec[L.TO_MOVE])} to move and dealer "
                   f"{int(vec[L.DEALER])}: expected {size}-card hands played in turn order, e.g. "
                   f"{[size - 1 if (p - first) % n < played else size for p in range(n)]}")


def check_progress(vec: np.ndarray, rules: Any) -> None:
    """Piles, scopas, mode, phase and scores must be reachable (SC-CAPT-7, SC-SCOPA-1,
    SC-MATCH-2..3)."""
    for s in range(2):
        size = bin(int(vec[L.PILE + s])).count("1")
        if size == 1:
            raise _err(f"piles[{s}] holds one card: a capture takes at least two")
        if 2 * int(vec[L.SCOPE + s]) > size:
            raise _err(f"scopas[{s}]={int(vec[L.SCOPE + s])} with {size} captured cards: each "
                       "scopa captures at least two")
    mode, phase = int(vec[L.MODE]), int(vec[L.PHASE])
    a, b = int(vec[L.SCORE]), int(vec[L.SCORE + 1])
    ref = ReferenceScopa(rules)
    ref.scores = [a, b]
    decided = ref.match_is_won()
    if mode != L.MODE_MATCH and phase == L.PHASE_MATCH_OVER:
        raise _err("phase 'match_over' needs mode 'match'")
    if mode == L.MODE_MATCH and phase == L.PHASE_DEAL_OVER:
        raise _err("phase 'deal_over' needs mode 'deal': a match goes on to its next deal")
    if mode == L.MODE_MATCH and phase == L.PHASE_MATCH_OVER and not decided:
        raise _err(f"scores {[a, b]} do not end a match to {rules.target_score}: one side must "
                   "reach the target with more points than the other")
    if mode == L.MODE_MATCH and phase == L.PHASE_PLAY and decided:
        raise _err(f"scores {[a, b]} already end a match to {rules.target_score}: set phase "
                   "'match_over'")


def check_position(vec: np.ndarray, rules: Any, stock_size: int) -> None:
    """Every check of this module, in the order ``from_dict`` reports them."""
    check_hand_sizes(vec, rules, stock_size)
    check_progress(vec, rules)
