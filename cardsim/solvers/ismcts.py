"""Information-Set Monte Carlo Tree Search, one implementation for every game.

Single-Observer ISMCTS (Cowling, Powley and Whitehouse, 2012) with availability counts, for
the player to move at the root (the *observer*). Each iteration:

1. **Determinize**: sample one world consistent with what the observer has seen, from the
   game's own ``determinize`` kernel (uniform over the consistent worlds; with
   ``worlds=K`` > 0, K worlds are sampled once and used in turn — OpenSpiel's
   ``max_world_samples``).
2. **Select**: from the root, while every move available in this world already has a child,
   go to the child with the highest UCB1 value ``mean + c * sqrt(ln(availability) /
   visits)``, where *availability* counts the iterations in which that move was legal (the
   SO-ISMCTS correction for moves that are not always possible). Every available child's
   availability goes up by one.
3. **Expand** one move without a child (uniformly among them), then **roll out** to the end
   with the ``random`` or ``heuristic`` player (ε-greedy with ``epsilon``: a uniform move
   with that chance) — with ``exact=K``, the deal's last K cards are played exactly instead,
   both sides best (:mod:`cardsim.solvers.exact` on the sampled world, whose every card is known; the
   "exact endgame" of perfect-information search, as Scopa's last six cards are every card
   known), and **back up** the returns: each node adds
   the return of the player who made its move, divided by the game's ``reward_scale``.

**Moves the observer only partly sees** (Bura's face-down throws by others) must not leak: a
node's children are keyed by the game's ``observed_action`` — the move as the observer sees
it — so the tree holds one child "threw two cards face down" rather than one per card pair
(SO-ISMCTS + partially observable moves, "POM", of the same paper). When the search follows
such a child in a world, the concrete move is drawn uniformly among the world's legal moves
that look the same. This is the cheaper alternative to MO-ISMCTS (one tree per player): the
opponents' own information sets are not modelled, but no hidden card reaches the observer's
tree, and in a game where only discards are hidden (Bura) the loss is small. Scopa hides no
move, so there the search is plain SO-ISMCTS.

**An opponent model** (``model=m``, default 0): at an opponent's node the search plays, with
chance ``m``, the game's heuristic move in the current world (expanding that move's child if it
has none) instead of the UCB choice — search against a model of the opponent (Carmel and
Markovitch, "Incorporating opponent models into adversary search", AAAI 1996), here the
heuristic, which reads only what that opponent sees in the sampled world. Plain SO-ISMCTS
lets the opponent's statistics average over worlds that all hold the observer's true hand, so
the opponent in the tree plays as if it saw that hand; the model removes that. Its key is the
move as the observer sees it, like any other move. What it buys differs by game (README,
"Agents"), so each game's levels choose it.

**A prior** (``prior=w``, default 0): at a node where the UCB choice plays, the game's
heuristic move in the current world is expanded first, and its child's score gains
``w / (visits + 1)`` — progressive bias (Chaslot et al., "Progressive strategies for
Monte-Carlo tree search", 2008), a policy's advice that fades as the child's own statistics
grow; AlphaZero's PUCT prior is the learned form of the same idea. The heuristic stands for a
policy: it reads only what the mover sees in the sampled world.

**Inference** (``infer=ε``): the worlds are weighed by the likelihood of the other players'
moves of the deal so far (:mod:`cardsim.solvers.inference`: policy-based inference, Rebstock et al.
2019, the heuristic softened by ``ε`` as the model of their play). At the root, ``pool``
worlds are sampled and weighed (their weights tempered to keep a tenth of them effective,
:data:`INFER_EFFECTIVE`), and each iteration plays one drawn by its weight (with ``worlds=K``,
the K fixed worlds are drawn so). The weighing counts against the time budget. The deal's
start and moves come from the workspace's record, which the game loop keeps
(:func:`cardsim.solvers.agents.play_out`); without one (a position whose deal's moves are unknown) the
worlds are uniform.

**What a simulation's end is worth** in a match (``value``): with ``game`` (the default) the
world is played to the end of the match and backs up the match's returns; with ``points`` the
position is searched as a lone deal (the exact solver's ``single_deal`` hook), so the search
plays for the deal's points alone, as it does in a deal; with ``match`` the walk stops where
the deal does (the match state the next deal starts from differs from the root's: the game's
``match_cell``) and every seat backs up the *match value* of that state for its side, its
chance to win the match less its chance to lose, from a match-equity table
(:func:`cardsim.protocol.match.dense_equity`, given in the workspace) — a match decided in the deal
backs up +1, -1 or 0. This is how GNU Backgammon's rollouts score a game's end by a match
equity table rather than by its points. Match values are backed up as they are (from -1 to 1),
not divided by the reward scale.

**Leaves valued by a network** (``leaf=net``): instead of one play-out to the end, a new
leaf's world is played ``playout`` moves on (default 0) and then valued by the game's learned
evaluation (:mod:`cardsim.solvers.evaluation`: every seat's expected return of that world, learned from
self-play), so each iteration backs up an average instead of one noisy sample, and costs
less. The value of a search that stops at a leaf to evaluate it rather than rolling out is
AlphaGo's (Silver et al., Nature 2016: a value network at the leaves, there mixed with a
play-out) and AlphaZero's (without play-outs); in an imperfect-information game, valuing the
sampled worlds of determinized search with a learned function is the Skat programs' way
(Buro et al., IJCAI 2009; Rebstock et al., 2019). The network predicts a deal's return, so the
deal is searched for its points (``value=points``). With ``mix=λ`` below 1 the leaf is
played out as well and backs up λ × the network's returns + (1 − λ) × the play-out's:
AlphaGo's mix (λ = 0.5 there), an unbiased but noisy sample beside a smooth but biased one.
With ``exact=K``, the last K cards are still solved exactly. Without weights for the rules the
search plays out as before.

The final move is the root child with the most visits (``final=visits``, ties to the higher
mean), one drawn in proportion to the visits (``final=sample``), or the one with the highest
mean (``final=value``). The budget is a number of iterations, a wall-clock time, or both
(whichever ends first). The tree lives in preallocated arrays (:class:`Workspace`); when it
is full the search goes on without expanding. Every random number comes from the ``rng``
passed in, so a search is deterministic for a given seed (with a time budget, the number of
iterations depends on the machine).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from cardsim.compiled.bits import copy_words
from cardsim.compiled.clock import clock
from cardsim.compiled.jit import G, generic, helper
from cardsim.compiled.rng import rng_below, rng_next

# The search's parameters (a float64 vector; names as in the agent spec string).
from . import exact
from .agent_spec import (
    EPSILON,
    EXACT,
    FINAL,
    FINAL_SAMPLE,
    FINAL_VALUE,
    INFER,
    ITERATIONS,
    LEAF,
    LEAF_NET,
    MIX,
    MODEL,
    PLAYOUT,
    POOL,
    PRIOR,
    ROLLOUT,
    ROLLOUT_HEURISTIC,
    SECONDS,
    VALUE,
    VALUE_MATCH,
    VALUE_POINTS,
    WORLDS,
    C,
)
from .evaluation import net_returns, no_net
from .exact import solve_children, solve_root
from .inference import draw_weighted, tempered_cumulative, weigh_worlds
from .pimc import first_best, mover_sign

WITH_EXACT = False
"""The search's switch (:mod:`cardsim.compiled.jit`): whether a copy can play exact endgames
(``exact=K``); off unless the game loop turns it on for an agent that asks (a game without the
exact solver's hooks never compiles them)."""
WITH_MATCH = False
"""The search's switch for ``value=match``: whether a copy reads the game's ``match_cell`` and
a match-equity table (off unless the game loop turns it on for an agent that asks; a game
without a match model never compiles it)."""
WITH_POINTS = False
"""The search's switch for ``value=points``: whether a copy can search a match's deal alone
(the exact solver's ``single_deal`` hook; off unless an agent asks)."""
WITH_NET = False
"""The search's switch for ``leaf=net``: whether a copy can value a leaf by the learned
evaluation (the game's ``encode`` and :func:`cardsim.solvers.evaluation.net_returns`; off unless an
agent asks)."""
WITH_INFER = False
"""The search's switch for ``infer``: whether a copy weighs its worlds by the deal's moves
(the game's ``world_start`` and :mod:`cardsim.solvers.inference`; off unless an agent asks)."""

WITH_HEURISTIC = True
"""The search's switch for the game's heuristic (``rollout=heuristic``, ``model``, ``prior``,
``infer``): a copy without it compiles no heuristic (turned off by the game loop for agents
that use none)."""

INFER_EFFECTIVE = 0.1
"""``infer``: the share of the root's pool kept effective by tempering the weights (as
:data:`cardsim.solvers.analyze.INFER_EFFECTIVE`)."""

# The deal's record in the workspace (``record``): its moves so far (-1: not known), the
# deal's number (the layout's ``DEAL_NUMBER`` word) and whether the caller primed it.
REC_MOVES, REC_DEAL, REC_PRIMED = range(3)

# Columns of the int64 tree array and of the float64 statistics array.
KEY, PLAYER, CHILD, SIBLING, AVAIL = range(5)
VISITS, TOTAL = range(2)


MAX_DEPTH = 1024          # moves from the root to the end of a match

Workspace = namedtuple("Workspace", "tree stats world worlds actions keys seen path rets "
                                    "exact values scratch lone equity net valued record "
                                    "deal_start deal_moves pool logw cum made model_rng")
"""Preallocated arrays of a search: the tree (``int64[max_nodes, 5]``), its statistics
(``float64[max_nodes, 2]``), the current world, the fixed worlds (``worlds=K``), and
scratch arrays for legal actions, their observed keys, a flag per action, the path and the
returns; for exact endgames (``exact=K``) the exact solver's workspace, its values per action
and a scratch state; the root as a lone deal (``value=points``), the match values of a
match-equity table's cells (``value=match``; empty otherwise), the value network of
``leaf=net`` (:class:`cardsim.solvers.evaluation.Net`, empty otherwise) and its returns of a leaf that
is also played out (``mix``); for ``infer``, the deal's record (``record``: the moves so far,
the deal's number, primed; the deal's start and its moves), the root's pool of worlds, their
log weights and cumulative weights, the moves as made in a world and the model's stream."""


def workspace(spec, max_nodes: int, max_worlds: int = 0, solver=None,
              equity=None, net=None, pool: int = 0) -> Workspace:
    """A :class:`Workspace` for searches of ``spec``'s game with up to ``max_nodes`` nodes;
    ``solver`` is the exact solver's workspace for exact endgames (a minimal one when None);
    ``equity`` the match values per cell of ``value=match``; ``net`` the value network of
    ``leaf=net``; ``pool`` the most worlds an inferring search weighs (module docstring)."""
    n_actions = spec.max_actions
    moves = spec.definition.layout.MAX_DEAL_MOVES
    return Workspace(
        tree=np.zeros((max(max_nodes, 2), 5), dtype=np.int64),
        stats=np.zeros((max(max_nodes, 2), 2), dtype=np.float64),
        world=np.zeros(spec.state_len, dtype=np.uint64),
        worlds=np.zeros((max(max_worlds, 1), spec.state_len), dtype=np.uint64),
        actions=np.zeros(n_actions, dtype=np.int64),
        keys=np.zeros(n_actions, dtype=np.int64),
        seen=np.zeros(n_actions, dtype=np.bool_),
        path=np.zeros(MAX_DEPTH, dtype=np.int64),
        rets=np.zeros(spec.n_players, dtype=np.float64),
        exact=(exact.workspace(spec, table_bits=1, plies=2) if solver is None else solver),
        values=np.zeros(n_actions, dtype=np.int64),
        scratch=np.zeros(spec.state_len, dtype=np.uint64),
        lone=np.zeros(spec.state_len, dtype=np.uint64),
        equity=(np.zeros(0, dtype=np.float64) if equity is None
                else np.ascontiguousarray(equity, dtype=np.float64)),
        net=no_net(spec) if net is None else net,
        valued=np.zeros(spec.n_players, dtype=np.float64),
        record=np.array([-1, -1, 0], dtype=np.int64),
        deal_start=np.zeros(spec.state_len, dtype=np.uint64),
        deal_moves=np.zeros(moves, dtype=np.int64),
        pool=np.zeros((max(pool, 1), spec.state_len), dtype=np.uint64),
        logw=np.zeros(max(pool, 1), dtype=np.float64),
        cum=np.zeros(max(pool, 1), dtype=np.float64),
        made=np.zeros(moves, dtype=np.int64),
        model_rng=np.zeros(4, dtype=np.uint64))


@generic(switches=("WITH_HEURISTIC",), inline=True, nrt=False)
def policy_action(state, params, rollout, epsilon, actions, n, rng):
    """The rollout player's action: uniform, or the game's heuristic — except, with
    probability ``epsilon``, a uniform one (ε-greedy rollouts, Sutton and Barto 2018, §2.2;
    used in MCTS playouts by Sturtevant 2008)."""
    if WITH_HEURISTIC:
        if rollout == ROLLOUT_HEURISTIC:
            if epsilon <= 0.0 or uniform(rng) >= epsilon:
                return actions[G.heuristic(state, params, actions, n, rng)]
    return actions[rng_below(rng, n)]


@helper
def uniform(rng):
    """A float64 uniform on [0, 1) from 53 bits of ``rng``."""
    return (rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def any_with_key(actions, keys, n, key, rng):
    """A concrete action drawn uniformly among those of ``actions[:n]`` seen as ``key``."""
    count = 0
    for i in range(n):
        if keys[i] == key:
            count += 1
    pick = rng_below(rng, count)
    for i in range(n):
        if keys[i] == key:
            if pick == 0:
                return actions[i]
            pick -= 1
    return actions[0]


@helper
def not_seen(keys, seen, n, key):
    """Whether some action of ``keys[:n]`` with ``key`` has no child yet (``seen`` False)."""
    for i in range(n):
        if keys[i] == key and not seen[i]:
            return True
    return False


@helper
def ucb(stats, tree, child, c):
    """UCB1 with the availability count in place of the parent's visits."""
    visits = stats[child, VISITS]
    return (stats[child, TOTAL] / visits
            + c * np.sqrt(np.log(max(tree[child, AVAIL], 1)) / visits))


@generic(inline="ir")
def exact_endgame(params, world, ws, root):
    """Play ``world`` to the end of its deal with a best move for the mover at every turn, in
    a search for seat ``root`` (the searcher: a paranoid game's others play against him)
    (:func:`cardsim.solvers.exact.solve_children` on the world: every card of a sampled world is
    known, and the table serves each move of the same world). Returns the moves played (0 when
    the deal is over)."""
    actions, values, scratch = ws.actions, ws.values, ws.scratch
    moves = 0
    while True:
        copy_words(scratch, world)
        G.exact_single_deal(scratch, params)          # the deal's end, in a match too
        if G.is_terminal(scratch, params):
            return moves
        n = G.legal_actions(world, params, actions)
        best = 0
        if n > 1:
            solve_children(params, world, ws.exact, actions, n, values, moves > 0, root)
            best = first_best(values, mover_sign(world, params, root), n)
        G.apply_action(world, params, actions[best])
        moves += 1


@generic(inline=True, nrt=False)
def lone_deal(params, world, scratch):
    """Whether ``world`` is a lone deal (not a match): the exact solver's ``single_deal``
    leaves it as it is."""
    copy_words(scratch, world)
    G.exact_single_deal(scratch, params)
    for i in range(world.shape[0]):
        if scratch[i] != world[i]:
            return False
    return True


@generic(inline="ir")
def exact_returns(params, world, ws, root):
    """``ws.rets``: every seat's return of the lone deal ``world`` under best play by both sides
    of a search for seat ``root`` (one exact solve; the deal's value as a return by the game's
    ``deal_return`` hook; in a paranoid game the others' return is the root's, negated: what
    they play for)."""
    r = G.exact_deal_return(solve_root(params, world, ws.exact, False, root))
    for p in range(ws.rets.shape[0]):
        ws.rets[p] = r if G.exact_side(world, params, p, root) == 0 else -r


# The search's switches are read where their functions are called, so that a copy without a
# switch never types (never compiles) the functions it turns off: :func:`deal_ended`,
# :func:`match_values`, :func:`match_start` (``WITH_MATCH``), :func:`alone` (``WITH_POINTS``),
# :func:`net_leaf` (``WITH_NET``), :func:`infer_pool` and inference's draw (``WITH_INFER``).


@generic(inline=True, nrt=False)
def deal_ended(params, world, stop_cell):
    """``value=match``: whether ``world``'s deal is over, its match gone on to another state
    than the root's (``stop_cell``, -1 for a search of another value). Only a copy with
    ``WITH_MATCH`` calls it."""
    if stop_cell >= 0 and G.match_cell(world, params, 0) != stop_cell:
        return True
    return False


@generic(inline=True, nrt=False)
def match_values(params, world, rets, equity):
    """``value=match`` (module docstring): each seat's match value at ``world``, the end of a
    deal — the table's (``equity``, seat ``p`` playing for side ``p % 2``: tables are of two
    sides), or the sign of the returns of a match decided there. Only a copy with
    ``WITH_MATCH`` calls it."""
    if G.is_terminal(world, params):
        G.returns(world, params, rets)
        for p in range(rets.shape[0]):
            rets[p] = np.sign(rets[p])
    else:
        for p in range(rets.shape[0]):
            rets[p] = equity[G.match_cell(world, params, p % 2)]


@generic(inline="ir")
def net_leaf(params, world, observer, search, rng, ws, reward_scale):
    """``leaf=net``: play ``playout`` moves of the rollout player from the leaf ``world``, then,
    unless the deal is over or within ``exact`` cards of its end (solved exactly instead),
    value it by the network into ``ws.rets`` (module docstring).
    Whether the network valued it (False for another leaf or an empty network: the search
    plays out as before). Only a copy with ``WITH_NET`` calls it."""
    if search[LEAF] == LEAF_NET and ws.net.w1.shape[0] > 0:
        actions = ws.actions
        rollout = np.int64(search[ROLLOUT])
        epsilon = search[EPSILON]
        for _ in range(np.int64(search[PLAYOUT])):
            if G.is_terminal(world, params):
                return False
            n = G.legal_actions(world, params, actions)
            G.apply_action(world, params,
                           policy_action(world, params, rollout, epsilon, actions, n, rng))
        endgame = np.int64(search[EXACT])
        if G.is_terminal(world, params) or (
                endgame > 0 and G.exact_cards_left(world, params) <= endgame):
            return False                  # over, or an exact endgame (``exact=K``)
        net_returns(params, world, observer, ws.net, ws.rets, reward_scale)
        return True
    return False


@generic(switches=("WITH_EXACT", "WITH_MATCH", "WITH_NET", "WITH_HEURISTIC"), inline=True,
         nrt=False)
def iterate(params, observer, search, rng, ws, n_nodes, reward_scale, stop_cell):
    """One ISMCTS iteration on the world in ``ws.world``; returns the new node count.
    ``stop_cell`` (``value=match``) is the root's match cell, else -1.

    It allocates nothing, so it is compiled without reference counting and inlined by LLVM:
    taken in as numba IR by the reference-counted :func:`search`, each iteration would count
    a reference to every array of the workspace in and out (two calls an array, every
    feature's arrays among them), most of an iteration's time near the end of a deal."""
    tree, stats, world = ws.tree, ws.stats, ws.world
    actions, keys, seen, path = ws.actions, ws.keys, ws.seen, ws.path
    c = search[C]
    rollout = np.int64(search[ROLLOUT])
    epsilon = search[EPSILON]
    endgame = np.int64(search[EXACT])
    model = search[MODEL]
    prior = search[PRIOR]
    node = 0
    depth = 0
    while not G.is_terminal(world, params):
        if WITH_MATCH:
            if deal_ended(params, world, stop_cell):
                break
        n = G.legal_actions(world, params, actions)
        for i in range(n):
            keys[i] = G.observed_action(world, params, actions[i], observer)
            seen[i] = False
        modelled = -1                     # the opponent model's action, if it plays
        key = -1
        hinted = -1                       # ``prior``: the heuristic's move, as a key
        if WITH_HEURISTIC:
            if model > 0.0 and G.current_player(world, params) != observer and (
                    model >= 1.0 or uniform(rng) < model):
                modelled = actions[G.heuristic(world, params, actions, n, rng)]
                key = G.observed_action(world, params, modelled, observer)
            if prior > 0.0 and modelled < 0 and n > 1:
                hinted = keys[G.heuristic(world, params, actions, n, rng)]
        best = -1
        best_score = -np.inf
        child = tree[node, CHILD]
        while child >= 0:
            present = False
            for i in range(n):
                if keys[i] == tree[child, KEY]:
                    seen[i] = True
                    present = True
            if present:
                tree[child, AVAIL] += 1
                if modelled >= 0:
                    if tree[child, KEY] == key:
                        best = child
                else:
                    score = ucb(stats, tree, child, c)
                    if tree[child, KEY] == hinted:
                        score += prior / (stats[child, VISITS] + 1.0)
                    if score > best_score:
                        best_score = score
                        best = child
            child = tree[child, SIBLING]
        if modelled >= 0:
            new_keys = 1 if best < 0 else 0
        else:
            new_keys = 0                  # distinct keys without a child
            for i in range(n):
                if not seen[i]:
                    new_keys += 1
                    for j in range(i + 1, n):
                        if keys[j] == keys[i]:
                            seen[j] = True
        if new_keys > 0 and n_nodes < tree.shape[0]:
            if modelled < 0 and hinted >= 0 and not_seen(keys, seen, n, hinted):
                key = hinted              # ``prior``: the heuristic's move first
            elif modelled < 0:
                pick = rng_below(rng, new_keys)
                key = keys[0]
                for i in range(n):        # the pick-th first occurrence of a new key
                    if not seen[i]:
                        if pick == 0:
                            key = keys[i]
                            break
                        pick -= 1
            new = n_nodes
            n_nodes += 1
            tree[new, KEY] = key
            tree[new, PLAYER] = G.current_player(world, params)
            tree[new, CHILD] = -1
            tree[new, SIBLING] = tree[node, CHILD]
            tree[new, AVAIL] = 1
            stats[new, VISITS] = 0.0
            stats[new, TOTAL] = 0.0
            tree[node, CHILD] = new
            depth += 1
            path[depth] = new
            G.apply_action(world, params, modelled if modelled >= 0
                           else any_with_key(actions, keys, n, key, rng))
            break
        if best < 0:
            break                         # the tree is full: roll out from here
        depth += 1
        path[depth] = best
        node = best
        G.apply_action(world, params, modelled if modelled >= 0
                       else any_with_key(actions, keys, n, tree[best, KEY], rng))
    solved = False
    mixed = False
    if WITH_NET:
        solved = net_leaf(params, world, observer, search, rng, ws, reward_scale)
        mixed = solved and search[MIX] < 1.0     # ``mix``: the play-out's returns too
        if mixed:
            copy_words(ws.valued, ws.rets)
            solved = False
    while not solved and not G.is_terminal(world, params):
        if WITH_MATCH:
            if deal_ended(params, world, stop_cell):
                break
        if WITH_EXACT:
            if endgame > 0 and G.exact_cards_left(world, params) <= endgame:
                if lone_deal(params, world, ws.scratch):
                    exact_returns(params, world, ws, observer)  # the deal's end: the game's
                    solved = True
                    break
                if exact_endgame(params, world, ws, observer) > 0:
                    continue                  # a match goes on with the rollout player
        n = G.legal_actions(world, params, actions)
        G.apply_action(world, params,
                       policy_action(world, params, rollout, epsilon, actions, n, rng))
    scale = reward_scale
    matched = False
    if WITH_MATCH:
        matched = stop_cell >= 0
        if matched:
            match_values(params, world, ws.rets, ws.equity)
            scale = 1.0
    if not matched and not solved:
        G.returns(world, params, ws.rets)
    if WITH_NET:
        if mixed:
            for p in range(ws.rets.shape[0]):
                ws.rets[p] = search[MIX] * ws.valued[p] + (1.0 - search[MIX]) * ws.rets[p]
    stats[0, VISITS] += 1.0
    for d in range(1, depth + 1):
        nd = path[d]
        stats[nd, VISITS] += 1.0
        stats[nd, TOTAL] += ws.rets[tree[nd, PLAYER]] / scale
    return n_nodes


@generic(inline=True)
def match_start(params, root, value, scratch):
    """The root's match cell for ``value=match`` (where the walk stops: :func:`deal_ended`),
    -1 for another value or a lone deal (searched for its points). Only a copy with
    ``WITH_MATCH`` calls it."""
    if value == VALUE_MATCH and not lone_deal(params, root, scratch):
        return G.match_cell(root, params, 0)
    return np.int64(-1)


@generic(inline=True)
def alone(params, root, value, lone):
    """``value=points``: the root as a lone deal (module docstring), copied into ``lone``;
    else the root itself. Only a copy with ``WITH_POINTS`` calls it."""
    if value == VALUE_POINTS:
        copy_words(lone, root)
        G.exact_single_deal(lone, params)
        return lone
    return root


@generic(inline="ir")
def infer_pool(params, root, observer, search, rng, ws):
    """``infer`` (module docstring): sample the root's pool of worlds into ``ws.pool``, weigh
    them by the deal's moves in ``ws``'s record and write their tempered cumulative weights to
    ``ws.cum``; returns the pool's size, 0 when the worlds are uniform (no inference asked or
    no moves of the deal known). Only a copy with ``WITH_INFER`` calls it."""
    epsilon = search[INFER]
    moves = ws.record[REC_MOVES]
    if epsilon > 0.0 and moves > 0:
        n = min(np.int64(search[POOL]), ws.pool.shape[0])
        for k in range(4):
            ws.model_rng[k] = rng_next(rng)
        weigh_worlds(params, root, observer, ws.deal_start, ws.deal_moves, moves, epsilon,
                     rng, ws.model_rng, ws.pool[:n], ws.logw[:n], ws.scratch, ws.made,
                     ws.keys)
        tempered_cumulative(ws.logw, n, INFER_EFFECTIVE * n, ws.cum)
        return n
    return np.int64(0)


@generic(switches=("WITH_INFER",), inline=True, nrt=False)
def next_world(params, root, observer, rng, ws, n_pool, out):
    """A world for the search into ``out``: drawn from the root's pool by weight when it has
    one (``infer``; a copy without ``WITH_INFER`` has none), else sampled uniformly. Called
    each iteration with the workspace: no reference counting (as :func:`iterate`)."""
    if WITH_INFER:
        if n_pool > 0:
            copy_words(out, ws.pool[draw_weighted(ws.cum, n_pool, uniform(rng))])
            return
    G.determinize(root, params, observer, rng, out)


@generic(switches=("WITH_MATCH", "WITH_POINTS", "WITH_INFER"))
def search(params, root, search_params, rng, ws, reward_scale):
    """ISMCTS from ``root`` for the player to move; returns (action, iterations run). The
    tree is left in ``ws`` (node 0 is the root)."""
    observer = G.current_player(root, params)
    value = np.int64(search_params[VALUE])
    if WITH_POINTS:
        root = alone(params, root, value, ws.lone)
    stop_cell = np.int64(-1)
    if WITH_MATCH:
        stop_cell = match_start(params, root, value, ws.scratch)
    iterations = np.int64(search_params[ITERATIONS])
    seconds = search_params[SECONDS]
    n_worlds = np.int64(search_params[WORLDS])
    tree, stats = ws.tree, ws.stats
    tree[0, KEY] = -1
    tree[0, PLAYER] = -1
    tree[0, CHILD] = -1
    tree[0, SIBLING] = -1
    tree[0, AVAIL] = 0
    stats[0, VISITS] = 0.0
    stats[0, TOTAL] = 0.0
    n_nodes = np.int64(1)
    start = clock() if seconds > 0 else 0.0
    n_pool = np.int64(0)
    if WITH_INFER:
        n_pool = infer_pool(params, root, observer, search_params, rng, ws)
    for w in range(n_worlds):
        next_world(params, root, observer, rng, ws, n_pool, ws.worlds[w])
    it = 0
    while (iterations <= 0 or it < iterations) and not (
            seconds > 0 and it % 16 == 0 and clock() - start >= seconds):
        if n_worlds > 0:
            copy_words(ws.world, ws.worlds[it % n_worlds])
        else:
            next_world(params, root, observer, rng, ws, n_pool, ws.world)
        n_nodes = iterate(params, observer, search_params, rng, ws, n_nodes, reward_scale,
                          stop_cell)
        it += 1
    return final_action(search_params, rng, ws), it


@njit(cache=True)
def final_action(search_params, rng, ws):
    """The root child chosen by the final policy (module docstring); its key is the action
    (the observer's own moves are seen whole)."""
    tree, stats = ws.tree, ws.stats
    policy = np.int64(search_params[FINAL])
    best = -1
    best_visits = -1.0
    best_mean = -np.inf
    child = tree[0, CHILD]
    total = 0.0
    while child >= 0:
        visits = stats[child, VISITS]
        mean = stats[child, TOTAL] / visits if visits > 0 else -np.inf
        total += visits
        if policy == FINAL_VALUE:
            better = visits > 0 and mean > best_mean
        else:
            better = visits > best_visits or (visits == best_visits and mean > best_mean)
        if better:
            best, best_visits, best_mean = child, visits, mean
        child = tree[child, SIBLING]
    if policy == FINAL_SAMPLE and total > 0:
        x = uniform(rng) * total
        child = tree[0, CHILD]
        while child >= 0:
            x -= stats[child, VISITS]
            if x < 0:
                return tree[child, KEY]
            child = tree[child, SIBLING]
    return tree[best, KEY]
