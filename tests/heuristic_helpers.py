"""Helpers of the heuristic players' rule tests, shared by every game."""
from __future__ import annotations

import numpy as np

from cardsim.compiled.rng import rng_from_seed


def heuristic_choice(state, seed: int = 0) -> str:
    """The game's heuristic action in ``state``, as text."""
    spec = state.game.spec
    actions = np.array(state.legal_actions(), dtype=np.int64)
    i = spec.heuristic(state.vec, spec.params, actions, len(actions), rng_from_seed(seed))
    return state.action_to_string(int(actions[i]))


def assert_choice(state, expected: str) -> None:
    """The heuristic plays ``expected`` whatever its tie-break stream."""
    assert {heuristic_choice(state, seed) for seed in range(5)} == {expected}
