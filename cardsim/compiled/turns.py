"""The protocol's turns: the modes a deal is started in, and what every game's
``is_terminal`` and ``current_player`` kernels ask of the state.

Every game's layout has the slots ``PHASE`` (its phase) and ``TO_MOVE`` (the seat to move) and
the two phases of a finished deal and a finished match, ``PHASE_DEAL_OVER`` and
``PHASE_MATCH_OVER``; what ends a deal or a match is decided by each game's own kernels, which
set those phases. Each game's ``is_terminal`` and ``current_player`` kernels, named with the
rules that end its deal and match, call these helpers with its layout's offsets (as the deal
order's helpers are called, :mod:`.order`).
"""
from __future__ import annotations

import numpy as np

from .jit import helper

DEAL, MATCH = 0, 1
"""The ``mode`` of a game's ``start`` kernel: one deal, or the first deal of a whole match."""

TERMINAL = -1
"""``current_player`` of a finished deal or match."""


@helper
def is_over(state, phase, deal_over, match_over):
    """The deal (or the match) is over: nothing is left to play."""
    return state[phase] == deal_over or state[phase] == match_over


@helper
def seat_to_move(state, phase, to_move, deal_over, match_over):
    """The seat to move, or :data:`TERMINAL` once the deal or match is over."""
    if state[phase] == deal_over or state[phase] == match_over:
        return TERMINAL
    return np.int64(state[to_move])
