"""The GameSpec protocol: the narrow record every solver sees.

A :class:`GameSpec` bundles one game under one set of rules: its sizes, its packed rules
parameters and its compiled kernels. Solvers take a GameSpec and import no game. Every kernel
works on a flat ``uint64`` state vector of length ``state_len`` and the ``int64`` ``params``:

======================  ==================================================================
``new_deal``            ``(params, rng, out_state) -> None`` one deal from the chance stream
``new_match``           ``(params, rng, out_state) -> None`` a whole match
``legal_actions``       ``(state, params, out_actions) -> n`` sorted int64 action ids
``apply_action``        ``(state, params, action) -> None`` in place; the action must be legal
``is_terminal``         ``(state, params) -> bool``
``current_player``      ``(state, params) -> int`` seat to move, -1 when terminal
``returns``             ``(state, params, out_float64[n_players]) -> None``
``determinize``         ``(state, params, observer, rng, out_state) -> None`` a world sampled
                        uniformly from those consistent with what ``observer`` has seen
``play_random_deals``   ``(params, rng, n_deals, records, max_actions, policy) -> None`` the
                        engine's own random-playout loop, one ``records`` row per deal;
                        ``policy`` (float64) holds the random player's parameters, in the
                        order of ``GameDefinition.random_player``
======================  ==================================================================
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


GAME_IDS = {"scopa": 0, "bura": 1, "mushka": 2, "minchiate": 3}
"""Each game's integer id in compiled code (:mod:`cardsim.dispatch`)."""


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything a solver may know about a game: names, sizes, packed rules and kernels."""

    name: str
    n_players: int
    n_cards: int
    n_words: int
    state_len: int
    max_actions: int
    params: np.ndarray
    new_deal: Callable
    new_match: Callable
    legal_actions: Callable
    apply_action: Callable
    is_terminal: Callable
    current_player: Callable
    returns: Callable
    determinize: Callable
    play_random_deals: Callable
    record_columns: tuple[str, ...]
    game_id: int = -1
    """The game's id in :mod:`cardsim.dispatch` (the protocol inside compiled code)."""
    dealer_word: int = -1
    """The state word holding the dealer's seat (-1: the game has no dealer)."""
    reward_scale: float = 1.0
    """A typical size of a deal's returns: searches divide returns by it, so that one UCT
    exploration constant suits every game."""
    max_deal_moves: int = 0
    """The most moves one deal can take (the exact solver's stack depth)."""
