"""A shallow search of one world whose leaves the learned evaluation values: PIMC's search
over the network (``pimc:leaf=net,depth=D``, :mod:`cardsim.solvers.pimc`).

A sampled world has every card placed, so it is a game of perfect information. From a
position, :func:`world_value` searches ``depth`` moves ahead by **alpha-beta** (Knuth & Moore
1975, "An analysis of alpha-beta pruning"), fail-soft, over float values, and values what it
reaches:

- the deal's end by its returns (the world is searched as a lone deal: the exact solver's
  ``single_deal`` hook);
- a position within ``exact`` cards of the deal's end by the exact solver
  (:mod:`cardsim.solvers.exact`: every card of the world is known, so the endgame is solved, as the
  perfect-information programs of Scopa and Skat do once every card is known);
- any other position at the depth limit by the value network (:mod:`cardsim.solvers.evaluation`,
  seen from the searcher's seat; an empty network sets no limit).

Values are the searcher's (``root``) return. The searcher's side maximizes and the others
minimize: partners share a side, and in a game of more sides (Mushka) every other seat plays
against the searcher (**paranoid**, Sturtevant & Korf 2000), as in the exact solver. Moves are
tried in the order of the game's guess of their worth (the exact solver's ``order`` hook), so
that the cut-offs come early. There is no transposition table: a shallow search meets few
positions twice. The search is iterative over a ply stack (numba caches no recursive
function) and allocates nothing.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.compiled.bits import copy_words
from cardsim.compiled.clock import clock
from cardsim.compiled.jit import G, generic

from .evaluation import net_returns
from .exact import solve_root

WITH_EXACT = False
"""The switch (:mod:`cardsim.compiled.jit`): whether a copy can solve the deal's last cards exactly
(``exact=K``)."""
WITH_HEURISTIC = True
"""The search's switch for ``model`` (the opponents play the game's heuristic move): a copy
without it compiles no heuristic."""

# Columns of the int64 ``moves`` stack and of the float64 ``window`` stack.
N, K, MAXIMIZE = range(3)
ALPHA, BETA, BEST = range(3)
CLOCK_EVERY = 16
"""A search past a deadline reads the clock once every this many positions opened (a read
costs about 25 ns, a position opened about a microsecond or more)."""

Workspace = namedtuple("Workspace",
                       "states actions scores order moves window rets world solves values "
                       "fallback")
"""The look-ahead's preallocated arrays: the state, legal-action, guess and order stacks (one
row per ply), each ply's move count, next move and side (``moves``), its window and best value
so far (``window``), the returns of a leaf, the sampled world, the exact solves in the
current world (``solves[0]``: the first one starts the solver's table afresh), the values
of the actions in the current world (``values``) and in a world searched one move deep, the
fallback of a time budget (``fallback``, :func:`cardsim.solvers.pimc.net_search`)."""


def workspace(spec, depth: int) -> Workspace:
    """A :class:`Workspace` for searches of ``spec``'s game up to ``depth`` moves ahead."""
    plies = max(depth, 1) + 1
    return Workspace(
        states=np.zeros((plies, spec.state_len), dtype=np.uint64),
        actions=np.zeros((plies, spec.max_actions), dtype=np.int64),
        scores=np.zeros((plies, spec.max_actions), dtype=np.int64),
        order=np.zeros((plies, spec.max_actions), dtype=np.int64),
        moves=np.zeros((plies, 3), dtype=np.int64),
        window=np.zeros((plies, 3), dtype=np.float64),
        rets=np.zeros(spec.n_players, dtype=np.float64),
        world=np.zeros(spec.state_len, dtype=np.uint64),
        solves=np.zeros(1, dtype=np.int64),
        values=np.zeros(spec.max_actions, dtype=np.float64),
        fallback=np.zeros(spec.max_actions, dtype=np.float64))


@generic(switches=("WITH_EXACT",), inline=True)
def leaf(params, ply, depth, root, endgame, net, ws, solver, scale):
    """(True, value) when ``ws.states[ply]`` is a leaf: the deal's end, an exact endgame or
    the depth limit (module docstring); else (False, 0)."""
    state = ws.states[ply]
    if G.is_terminal(state, params):
        G.returns(state, params, ws.rets)
        return True, ws.rets[root]
    if WITH_EXACT:
        if endgame > 0 and G.exact_cards_left(state, params) <= endgame:
            value = solve_root(params, state, solver, ws.solves[0] > 0, root)
            ws.solves[0] += 1
            r = np.float64(G.exact_deal_return(value))
            return True, r if G.exact_side(state, params, root, root) == 0 else -r
    if ply >= depth and net.w1.shape[0] > 0:
        net_returns(params, state, root, net, ws.rets, scale)
        return True, ws.rets[root]
    return False, 0.0


@generic(switches=("WITH_HEURISTIC",), inline=True)
def open_node(params, ply, depth, root, endgame, model, net, ws, solver, scale, rng):
    """Value a leaf at once (:func:`leaf`), or generate and order the moves of
    ``ws.states[ply]`` and return (False, 0). With ``model``, an opponent of the searcher
    has one move: the game's heuristic's."""
    done, value = leaf(params, ply, depth, root, endgame, net, ws, solver, scale)
    if done:
        return True, value
    state = ws.states[ply]
    actions = ws.actions[ply]
    scores = ws.scores[ply]
    order = ws.order[ply]
    n = G.legal_actions(state, params, actions)
    mover = G.current_player(state, params)
    side = G.exact_side(state, params, root, root)
    if WITH_HEURISTIC:
        if model and n > 1 and G.exact_side(state, params, mover, root) != side:
            actions[0] = actions[G.heuristic(state, params, actions, n, rng)]
            n = 1
    G.exact_order(state, params, actions, n, scores)
    for i in range(n):                     # the best guess first (insertion sort of indices)
        j = i
        while j > 0 and scores[order[j - 1]] < scores[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    f = ws.moves[ply]
    f[N] = n
    f[K] = 0
    f[MAXIMIZE] = 1 if G.exact_side(state, params, mover, root) == side else 0
    ws.window[ply, BEST] = -np.inf if f[MAXIMIZE] else np.inf
    return False, 0.0


@generic(inline="ir")
def world_value(params, root, depth, endgame, model, net, ws, solver, scale, rng, deadline):
    """The value for seat ``root`` of the position ``ws.states[0]`` of a world, searched
    ``depth`` moves ahead (module docstring; ``model``: :func:`open_node`); NaN if the clock
    passes ``deadline`` (0: none) before the search ends."""
    ply = 0
    opened = 0
    ws.window[0, ALPHA] = -np.inf
    ws.window[0, BETA] = np.inf
    done, value = open_node(params, 0, depth, root, endgame, model, net, ws, solver, scale,
                            rng)
    while True:
        if not done:                       # down to the node's next move
            child = ws.states[ply + 1]
            copy_words(child, ws.states[ply])
            G.apply_action(child, params, ws.actions[ply, ws.order[ply, ws.moves[ply, K]]])
            ws.window[ply + 1, ALPHA] = ws.window[ply, ALPHA]
            ws.window[ply + 1, BETA] = ws.window[ply, BETA]
            ply += 1
            opened += 1
            if deadline > 0.0 and opened % CLOCK_EVERY == 0 and clock() > deadline:
                return np.nan
            done, value = open_node(params, ply, depth, root, endgame, model, net, ws, solver,
                                    scale, rng)
            continue
        if ply == 0:
            return value
        ply -= 1                           # back up with the child's value
        f = ws.moves[ply]
        w = ws.window[ply]
        if f[MAXIMIZE]:
            if value > w[BEST]:
                w[BEST] = value
            if value > w[ALPHA]:
                w[ALPHA] = value
        else:
            if value < w[BEST]:
                w[BEST] = value
            if value < w[BETA]:
                w[BETA] = value
        f[K] += 1
        if w[ALPHA] < w[BETA] and f[K] < f[N]:
            done = False
            continue
        value = w[BEST]


@generic(inline="ir")
def action_values(params, state, player, actions, n, depth, endgame, model, net, ws, solver,
                  rng, totals, scale, deadline):
    """Sample one world of ``state`` for ``player`` (the player to move), as a lone deal, and
    add to ``totals[i]`` the value of playing ``actions[i]`` there, searched ``depth`` moves
    ahead in all (the move itself included). Past ``deadline`` (0: none) the world is dropped
    unfinished, ``totals`` left as they were, and False returned; True when it is added."""
    G.determinize(state, params, player, rng, ws.world)
    G.exact_single_deal(ws.world, params)
    ws.solves[0] = 0                       # the first exact solve starts a new table
    for i in range(n):
        if deadline > 0.0 and clock() > deadline:
            return False
        copy_words(ws.states[0], ws.world)
        G.apply_action(ws.states[0], params, actions[i])
        v = world_value(params, player, depth - 1, endgame, model, net, ws, solver, scale, rng,
                        deadline)
        if np.isnan(v):
            return False
        ws.values[i] = v
    for i in range(n):
        totals[i] += ws.values[i]
    return True


@generic(switches=("WITH_EXACT",), nrt=False)
def _value(params, state, root, depth, endgame, model, net, ws, solver, scale, rng):
    copy_words(ws.states[0], state)
    G.exact_single_deal(ws.states[0], params)
    ws.solves[0] = 0
    return world_value(params, root, depth, endgame, model, net, ws, solver, scale, rng, 0.0)


def value(state, depth: int, weights=None, root: int | None = None, exact: int = 0,
          model: bool = False, seed=0) -> float:
    """The value for seat ``root`` (default: the player to move) of ``state``, a world (a
    :class:`cardsim.State` whose every card is placed), as a lone deal, searched ``depth``
    moves ahead (module docstring): its leaves valued by ``weights`` (a
    :class:`cardsim.solvers.evaluation.Weights`; None: no depth limit, the search goes to the deal's
    end, for small endgames), the deal's
    last ``exact`` cards solved exactly, and ``model``: the opponents play the heuristic's
    move (its ties broken from ``seed``)."""
    from cardsim.compiled.rng import rng_from_seed

    from . import exact as exact_solver
    from .evaluation import no_net

    spec = state.game.spec
    if state.is_terminal():
        raise ValueError("the position is over: nothing to search")
    root = state.current_player() if root is None else int(root)
    net = no_net(spec) if weights is None else weights.net(spec)
    solver = exact_solver.workspace(spec, table_bits=12)
    run = _value[spec, {"WITH_EXACT": exact > 0, "WITH_HEURISTIC": bool(model)}]
    plies = depth if weights is not None else max(depth, spec.max_deal_moves)   # no limit
    result = run(spec.params, state.vec, root, depth, exact, model, net,
                 workspace(spec, plies), solver, spec.reward_scale, rng_from_seed(seed))
    return float(result)

