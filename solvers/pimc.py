"""Perfect Information Monte Carlo (PIMC): sample worlds the player cannot tell from the truth,
solve each exactly, play the action with the best average.

For each sampled world (the game's ``determinize`` for the player to move: consistent with
everything he has seen, never the true hidden cards) every legal action is solved to the end of
the deal by :mod:`solvers.exact`, and its exact value, from the mover's side, is added up; the
action with the highest total wins (the first in canonical order on a tie). The budget is a
number of worlds (``worlds``, default 50) and/or a wall-clock time per move (``seconds``: at
least one world is always solved). One transposition table serves every world and move.

PIMC's known blind spots (Frank & Basin 1998; Long et al. 2010): it assumes every player will
know every card from the next move on ("strategy fusion"), so it never plays to keep its own
cards hidden or to learn the others'. Deterministic for a given seed under a worlds budget;
under a time budget the number of worlds solved depends on the machine's speed, as with
ISMCTS's ``seconds``.
"""
from __future__ import annotations

import numpy as np

from cardsim.clock import clock
from cardsim.jit import G, generic, helper

from .agent_spec import SECONDS, WORLDS
from .exact import solve_children


@generic(inline=True, nrt=False)
def mover_sign(state, params, root):
    """+1 when the player to move is on side 0 of a search for seat ``root`` (values are side
    0's), else -1."""
    player = G.current_player(state, params)
    return 1 if G.exact_side(state, params, player, root) == 0 else -1


@helper
def first_best(values, sign, n):
    """The index of the largest ``sign * values[i]`` of ``values[:n]``, the first on a tie."""
    best = 0
    for i in range(1, n):
        if sign * values[i] > sign * values[best]:
            best = i
    return best


@generic(inline="ir")
def search(params, state, agent_params, rng, actions, n, world, totals, values, ws):
    """The index in ``actions[:n]`` of the action PIMC plays in ``state`` (module docstring);
    ``totals[:n]`` gets each action's summed value for the mover's side. Returns
    ``(index, worlds solved)``."""
    player = G.current_player(state, params)
    sign = mover_sign(state, params, player)
    max_worlds = np.int64(agent_params[WORLDS])
    seconds = agent_params[SECONDS]
    start = clock() if seconds > 0 else 0.0
    totals[:n] = 0
    solved = 0
    while True:
        if max_worlds > 0 and solved >= max_worlds:
            break
        if seconds > 0 and solved > 0 and clock() - start >= seconds:
            break
        G.determinize(state, params, player, rng, world)
        solve_children(params, world, ws, actions, n, values, False, player)
        for i in range(n):
            totals[i] += sign * values[i]
        solved += 1
    return first_best(totals, 1, n), solved


@generic(inline="ir")
def oracle(params, state, actions, n, values, ws):
    """The index of an action of best exact value on the true ``state`` for the mover's side
    (the ``oracle`` agent, which sees every card; the first in canonical order on a tie)."""
    player = G.current_player(state, params)
    solve_children(params, state, ws, actions, n, values, False, player)
    return first_best(values, mover_sign(state, params, player), n)
