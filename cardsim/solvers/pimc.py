"""Perfect Information Monte Carlo (PIMC): sample worlds the player cannot tell from the truth,
solve each exactly, play the action with the best average.

For each sampled world (the game's ``determinize`` for the player to move: consistent with
everything he has seen, never the true hidden cards) every legal action is solved to the end of
the deal by :mod:`cardsim.solvers.exact`, and its exact value, from the mover's side, is added up; the
action with the highest total wins (the first in canonical order on a tie). The budget is a
number of worlds (``worlds``, default 50) and/or a wall-clock time per move (``seconds``: at
least one world is always solved). One transposition table serves every world and move.

With ``leaf=net`` (``pimc:leaf=net,depth=D``) a world is not solved to the deal's end but
searched ``depth`` moves ahead by :mod:`cardsim.solvers.lookahead`, whose leaves the learned evaluation
values (the deal's last ``exact`` cards still solved exactly): the determinized search with an
evaluation of the position and an exact endgame of GIB (Ginsberg 2001, "GIB: imperfect
information in a computationally challenging game") and the Skat programs after it (Buro et
al. 2009, "Improving state evaluation, inference, and search in trick-based card games"), with
the evaluation learned by self-play (:mod:`cardsim.solvers.training`). It needs no solve of a whole
deal, so Mushka and Minchiate play it too. Under a time budget the clock is read inside a
world's search too, and a world it runs out in is dropped unfinished, so that a deep search
keeps to its time: a world searched one move deep comes first, and is played from if not even
one world of the full depth finishes in time.

PIMC's known blind spots (Frank & Basin 1998; Long et al. 2010): it assumes every player will
know every card from the next move on ("strategy fusion"), so it never plays to keep its own
cards hidden or to learn the others'. Deterministic for a given seed under a worlds budget;
under a time budget the number of worlds solved depends on the machine's speed, as with
ISMCTS's ``seconds``.
"""
from __future__ import annotations

import numpy as np

from cardsim.compiled.clock import clock
from cardsim.compiled.jit import G, generic, helper

from .agent_spec import DEPTH, EXACT, MODEL, SECONDS, WORLDS
from .exact import solve_children
from .lookahead import action_values

WITH_LOOKAHEAD = False
"""The switch (:mod:`cardsim.compiled.jit`): whether a copy can run PIMC over the network
(``leaf=net``; the game loop turns it on for an agent that asks)."""


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


@helper
def worlds_left(max_worlds, seconds, start, done):
    """Whether another world fits the budget: ``max_worlds`` (0: no cap) and ``seconds``
    since ``start`` (0: no limit), after ``done`` worlds (the first always fits)."""
    if max_worlds > 0 and done >= max_worlds:
        return False
    return not (seconds > 0 and done > 0 and clock() - start >= seconds)


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
    while worlds_left(max_worlds, seconds, start, solved):
        G.determinize(state, params, player, rng, world)
        solve_children(params, world, ws, actions, n, values, False, player)
        for i in range(n):
            totals[i] += sign * values[i]
        solved += 1
    return first_best(totals, 1, n), solved


@generic(switches=("WITH_LOOKAHEAD",), inline="ir")
def net_search(params, state, agent_params, rng, actions, n, totals, look, solver, net, scale):
    """The index in ``actions[:n]`` of the action PIMC over the network plays in ``state``
    (``leaf=net``, module docstring); ``totals[:n]`` gets each action's summed value (the
    mover's return). Returns ``(index, worlds searched)``; (0, 0) in a copy without the
    switch."""
    if WITH_LOOKAHEAD:
        player = G.current_player(state, params)
        max_worlds = np.int64(agent_params[WORLDS])
        seconds = agent_params[SECONDS]
        depth = np.int64(agent_params[DEPTH])
        endgame = np.int64(agent_params[EXACT])
        model = agent_params[MODEL] > 0
        start = clock() if seconds > 0 else 0.0
        fallback = seconds > 0 and depth > 1  # a one-move-deep world, in case time runs out
        if fallback:
            look.fallback[:n] = 0.0
            action_values(params, state, player, actions, n, 1, endgame, model, net, look,
                          solver, rng, look.fallback, scale, 0.0)
        totals[:n] = 0.0
        searched = 0
        while worlds_left(max_worlds, seconds, start, searched):
            deadline = start + seconds if fallback or searched > 0 else 0.0
            if not action_values(params, state, player, actions, n, depth, endgame, model,
                                 net, look, solver, rng, totals, scale, deadline):
                break                          # out of time inside a world: dropped
            searched += 1
        if searched == 0:
            totals[:n] = look.fallback[:n]
        return first_best(totals, 1, n), searched
    return 0, 0


@generic(inline="ir")
def oracle(params, state, actions, n, values, ws):
    """The index of an action of best exact value on the true ``state`` for the mover's side
    (the ``oracle`` agent, which sees every card; the first in canonical order on a tie)."""
    player = G.current_player(state, params)
    solve_children(params, state, ws, actions, n, values, False, player)
    return first_best(values, mover_sign(state, params, player), n)
