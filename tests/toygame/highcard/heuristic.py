"""High card's heuristic player: lead the lowest card; follow with the lowest card that wins
the trick, else with the lowest card."""
import numpy as np

from cardsim.compiled.jit import kernel

from . import layout as L
from .kernels import beats


@kernel
def choose(state, params, actions, n_actions, rng):
    """The index into ``actions[:n_actions]`` (the legal cards, in index order) of the card
    to play: the lowest rank that takes the trick, else the lowest rank."""
    led = np.int64(state[L.TRICK_CARD]) - 1
    best, best_rank, best_wins = 0, 99, False
    for i in range(n_actions):
        rank = actions[i] % 6
        wins = led >= 0 and beats(actions[i], led, params)
        if (wins and not best_wins) or (wins == best_wins and rank < best_rank):
            best, best_rank, best_wins = i, rank, wins
    return best
