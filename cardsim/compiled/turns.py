"""The protocol's turns: the modes a deal is started in, and ``is_terminal`` and
``current_player``, written once for every game.

Every game's layout has the slots ``PHASE`` (its phase) and ``TO_MOVE`` (the seat to move) and
the two phases of a finished deal and a finished match, ``PHASE_DEAL_OVER`` and
``PHASE_MATCH_OVER``; what ends a deal or a match is decided by each game's own kernels, which
set those phases. :func:`turn_kernels` compiles the two questions over one layout's numbers
(constants of each copy, so each game's copy is cached apart: numba's cache index covers a
function's closure).
"""
from __future__ import annotations

import numpy as np

from .jit import kernel

DEAL, MATCH = 0, 1
"""The ``mode`` of a game's ``start`` kernel: one deal, or the first deal of a whole match."""

TERMINAL = -1
"""``current_player`` of a finished deal or match."""


def turn_kernels(layout):
    """``(is_terminal, current_player)`` over the layout's ``PHASE``, ``TO_MOVE``,
    ``PHASE_DEAL_OVER`` and ``PHASE_MATCH_OVER``."""
    phase, to_move = layout.PHASE, layout.TO_MOVE
    deal_over, match_over = layout.PHASE_DEAL_OVER, layout.PHASE_MATCH_OVER

    @kernel
    def is_terminal(state, params):
        """The deal (or the match) is over: nothing is left to play."""
        return state[phase] == deal_over or state[phase] == match_over

    @kernel
    def current_player(state, params):
        """The seat to move, or ``TERMINAL`` (-1) once the deal or match is over."""
        if state[phase] == deal_over or state[phase] == match_over:
            return TERMINAL
        return np.int64(state[to_move])

    return is_terminal, current_player
