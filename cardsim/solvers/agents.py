"""Agents: the compiled game loop, one protocol for every game.

An agent (parsed from its spec string by :mod:`cardsim.solvers.agent_spec`, whose names this module
re-exports) is an integer kind and a float64 parameter vector (DESIGN.md §3), so a whole game
between compiled agents runs in one numba call (:func:`play_out`) and never returns to Python
between moves; a Python-level agent (a person at the terminal) plugs into the same game
through :func:`choose` move by move.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.compiled.bits import copy_words
from cardsim.compiled.clock import clock
from cardsim.compiled.jit import G, generic
from cardsim.compiled.rng import rng_below, rng_from_seed
from cardsim.errors import AgentError

from . import evaluation, exact, ismcts, lookahead
from .agent_spec import (
    DEPTH,
    EXACT,
    HEURISTIC,
    ISMCTS,
    ORACLE,
    PIMC,
    POOL,
    WORLDS,
    Agent,
    parse_agent,
    search_budget,
)
from .inference import known_record
from .ismcts import REC_DEAL, REC_MOVES, REC_PRIMED
from .ismcts import search as ismcts_search
from .pimc import net_search as pimc_net_search
from .pimc import oracle as pimc_oracle
from .pimc import search as pimc_search

__all__ = ["Agent", "NO_LINE", "TO_DEAL_END", "TRACK", "Workspace", "choose", "choose_action",
           "parse_agent", "play", "play_deal_by_deal", "play_out", "search_budget", "switches",
           "workspace"]


Workspace = namedtuple("Workspace", "search exact world totals values look sums think "
                                    "decisions options track tracked")
"""What the agents of a game need: the ISMCTS workspace (:mod:`cardsim.solvers.ismcts`), the exact
solver's (:mod:`cardsim.solvers.exact`, full-size only when a PIMC agent plays), PIMC's scratch
arrays, the look-ahead's of PIMC over the network (:mod:`cardsim.solvers.lookahead`) and its float
totals, and per seat the seconds its searching agent thought (``think``), the moves it
chose among two or more (``decisions``) and the legal moves it chose among in them
(``options``), which :func:`play_out` adds to; and the state at each deal's end of a match
played to :data:`TO_DEAL_END` (``track``, :data:`TRACK` rows; ``tracked[0]`` of them
filled)."""


def workspace(spec, agents, equity=None) -> Workspace:
    """One workspace large enough for every agent of ``agents``; ``equity`` is the match
    values per cell of a match-equity table (:func:`cardsim.protocol.match.dense_equity`), which an
    agent with ``value=match`` needs (:class:`AgentError` without it). Agents with
    ``leaf=net`` (ISMCTS and PIMC) share one value network (:func:`cardsim.solvers.evaluation.net_for`): the same
    weights for all of them."""
    agents = [parse_agent(a, spec.name) if isinstance(a, str) else a for a in agents]
    match_agents(spec, agents, equity)
    net = None
    netted = [a for a in agents if a.uses_net]
    if netted:
        if len({a.weights for a in netted}) > 1:
            raise AgentError(f"{', '.join(a.name for a in netted)}: agents with different "
                             "weights cannot play in one game (they share one network)")
        if (not netted[0].weights and any(a.looks_ahead for a in netted)
                and evaluation.shipped_weights(spec) is None):
            raise AgentError(f"{', '.join(a.name for a in netted if a.looks_ahead)}: "
                             f"{spec.name} has no learned evaluation for these rules: give "
                             "weights=PATH (cardsim train makes them)")
        net = evaluation.net_for(spec, netted[0].weights)
    nodes = max([a.nodes for a in agents if a.is_search] or [2])
    worlds = max([int(a.params[WORLDS]) for a in agents if a.is_search] or [0])
    solving = any(a.is_exact for a in agents)
    if solving and spec.exact is None:
        names = ", ".join(a.name for a in agents if a.is_exact)
        raise AgentError(f"{names}: {spec.no_exact}")
    looking = [a.name for a in agents if a.looks_ahead]
    if looking and spec.definition.exact is None:     # its order, sides and lone deal
        raise AgentError(f"{', '.join(looking)}: {spec.no_exact}")
    if solving:
        endgames_only(spec, agents)
    inferring = [a.name for a in agents if a.infers]
    if inferring and spec.definition.world_start is None:
        raise AgentError(f"{', '.join(inferring)}: inference is not available for {spec.name} "
                         "yet: its worlds module has no world_start")
    pool = max([int(a.params[POOL]) for a in agents if a.infers] or [0])
    depth = max([int(a.params[DEPTH]) for a in agents if a.looks_ahead] or [0])
    solver = (exact.workspace(spec) if any(a.solves_deals for a in agents)
              else exact.workspace(spec, table_bits=ENDGAME_TABLE_BITS) if solving
              else exact.workspace(spec, table_bits=1, plies=2))
    return Workspace(
        search=ismcts.workspace(spec, nodes, worlds, solver,
                                equity if any(a.for_the_match for a in agents) else None, net,
                                pool),
        exact=solver,
        world=np.zeros(spec.state_len, dtype=np.uint64),
        totals=np.zeros(spec.max_actions, dtype=np.int64),
        values=np.zeros(spec.max_actions, dtype=np.int64),
        look=lookahead.workspace(spec, depth),
        sums=np.zeros(spec.max_actions, dtype=np.float64),
        think=np.zeros(spec.n_players, dtype=np.float64),
        decisions=np.zeros(spec.n_players, dtype=np.int64),
        options=np.zeros(spec.n_players, dtype=np.int64),
        track=np.zeros((TRACK, spec.state_len), dtype=np.uint64),
        tracked=np.zeros(1, dtype=np.int64))


def match_agents(spec, agents, equity) -> None:
    """:class:`AgentError` for an agent with ``value=match`` where it cannot play: a game with
    no match model, or no table (``equity``) given."""
    names = ", ".join(a.name for a in agents if a.for_the_match)
    if not names:
        return
    make = spec.definition.match
    if make is None or spec.definition.match_cell is None:
        raise AgentError(f"{names}: value=match: {spec.name} has no table of match states to "
                         "value a deal's end by")
    if equity is None:
        raise AgentError(f"{names}: value=match values a deal's end by a match-equity table, "
                         "and none was given (an experiment's `equity = DIR`, a folder of "
                         "`cardsim equity`)")


def endgames_only(spec, agents) -> None:
    """:class:`AgentError` for an agent that asks more of an endgame solver (a game's
    ``max_cards``: Minchiate) than endgames: PIMC and the oracle, which solve whole deals, and
    ISMCTS or PIMC over the network with ``exact`` above the limit."""
    limit = spec.exact.max_cards
    if not limit:
        return
    whole = [a.name for a in agents if a.solves_deals]
    if whole:
        raise AgentError(f"{', '.join(whole)}: the exact solver covers {spec.name} endgames "
                         f"only (at most {limit} cards left), not the whole deals PIMC and "
                         f"the oracle solve; ismcts:exact=K (K at most {limit}) plays the "
                         "last tricks exactly")
    deep = [a.name for a in agents if a.params[EXACT] > limit]
    if deep:
        raise AgentError(f"{', '.join(deep)}: exact is at most {limit} in {spec.name} (the "
                         f"exact solver covers endgames of at most {limit} cards left)")


ENDGAME_TABLE_BITS = 12
"""The exact solver's table for ISMCTS's exact endgames alone (2**12 entries, 100 KB): each
endgame is small, and a table in the processor's cache solves it about twice as fast as the
full one of PIMC (2**20 entries; measured on Scopa, ``exact=6``)."""

WITH_ISMCTS = True
WITH_PIMC = True
WITH_EXACT = True
WITH_LOOKAHEAD = True
WITH_INFER = True
WITH_HEURISTIC = True
"""The agent loop's switches (:mod:`cardsim.compiled.jit`): whether a compiled loop can run the ISMCTS
agents, PIMC and the oracle, exact endgames (:data:`cardsim.solvers.ismcts.WITH_EXACT`,
:data:`cardsim.solvers.lookahead.WITH_EXACT`), PIMC over the network (``WITH_LOOKAHEAD``), the
deal's record of inferring searches (``WITH_INFER``: :func:`note_deal`) and the game's heuristic
(``WITH_HEURISTIC``: as a player, a rollout player, an opponent model or a prior).
A loop is compiled for the kinds it runs (:func:`switches`): two random players never compile
a search, and an exact-endgame ISMCTS does not compile PIMC's loop."""


def switches(agents) -> dict[str, bool]:
    """The switches of a compiled loop among ``agents``: only the kinds they are."""
    return {"WITH_ISMCTS": any(a.is_search for a in agents),
            "WITH_PIMC": any(a.solves_deals for a in agents),
            "WITH_LOOKAHEAD": any(a.looks_ahead for a in agents),
            "WITH_EXACT": any(a.params[EXACT] > 0 for a in agents),
            "WITH_MATCH": any(a.for_the_match for a in agents),
            "WITH_POINTS": any(a.for_the_points for a in agents),
            "WITH_NET": any(a.uses_net for a in agents),
            "WITH_INFER": any(a.infers for a in agents),
            "WITH_HEURISTIC": any(a.uses_heuristic for a in agents)}


@generic(switches=("WITH_ISMCTS", "WITH_PIMC", "WITH_LOOKAHEAD", "WITH_HEURISTIC"), inline="ir")
def choose_action(params, kind, agent_params, state, rng, ws, reward_scale, n, seat):
    """The action of the agent (``kind``, ``agent_params``) for the player to move (``seat``),
    whose ``n`` legal actions are in ``ws.search.actions``; a searching agent's thinking time
    is added to ``ws.think[seat]`` (:func:`cardsim.compiled.clock.clock` read before and after: tens of
    nanoseconds against the milliseconds of a search)."""
    actions = ws.search.actions
    if n == 1:
        return actions[0]
    if WITH_HEURISTIC:
        if kind == HEURISTIC:
            return actions[G.heuristic(state, params, actions, n, rng)]
    if WITH_LOOKAHEAD:
        if kind == PIMC and agent_params[DEPTH] > 0:
            start = clock()
            best, _ = pimc_net_search(params, state, agent_params, rng, actions, n, ws.sums,
                                      ws.look, ws.exact, ws.search.net, reward_scale)
            ws.think[seat] += clock() - start
            return actions[best]
    if WITH_PIMC:
        if kind == PIMC or kind == ORACLE:
            start = clock()
            if kind == PIMC:
                best, _ = pimc_search(params, state, agent_params, rng, actions, n, ws.world,
                                      ws.totals, ws.values, ws.exact)
            else:
                best = pimc_oracle(params, state, actions, n, ws.values, ws.exact)
            ws.think[seat] += clock() - start
            return actions[best]
    if WITH_ISMCTS:
        if kind == ISMCTS:
            start = clock()
            action, _ = ismcts_search(params, state, agent_params, rng, ws.search,
                                      reward_scale)
            ws.think[seat] += clock() - start
            return action
    return actions[rng_below(rng, n)]


ENTRY, BEFORE, AFTER = range(3)
"""When :func:`note_deal` is called: at the game loop's entry, before a move, after it."""


@generic(switches=("WITH_INFER",), inline="ir")
def note_deal(params, state, ws, a, when):
    """``infer``: keep the record of the deal's start and moves in ``ws.search`` that an
    inferring search reads (:mod:`cardsim.solvers.ismcts`). At the game loop's entry (``when`` =
    :data:`ENTRY`), a record the caller did not prime (:func:`prime_record`) is unknown for the
    deal at hand; before each move (:data:`BEFORE`) a new deal (the layout's ``DEAL_NUMBER``
    changed) starts a new record from ``state``; after it (:data:`AFTER`), the move ``a`` is
    added (the record is lost past its room)."""
    if WITH_INFER:
        rec = ws.search.record
        deal = np.int64(state[G.deal_word])
        if when == ENTRY:
            if rec[REC_PRIMED] == 0:
                rec[REC_MOVES] = -1
                rec[REC_DEAL] = deal
            rec[REC_PRIMED] = 0
        elif when == BEFORE:
            if deal != rec[REC_DEAL]:
                copy_words(ws.search.deal_start, state)
                rec[REC_MOVES] = 0
                rec[REC_DEAL] = deal
        elif rec[REC_MOVES] >= 0:
            if rec[REC_MOVES] < ws.search.deal_moves.shape[0]:
                ws.search.deal_moves[rec[REC_MOVES]] = a
                rec[REC_MOVES] += 1
            else:
                rec[REC_MOVES] = -1


def prime_record(ws: Workspace, state) -> None:
    """Give the game loop's next run the record of ``state``'s deal (its start and moves,
    :func:`cardsim.solvers.inference.known_record`) for inferring searches; without a record (or one
    longer than the workspace holds) the deal's moves are unknown and their worlds uniform."""
    rec = ws.search.record
    known = known_record(state)
    word = state.game.definition.layout.DEAL_NUMBER
    rec[REC_DEAL] = int(state.vec[word])
    rec[REC_MOVES] = -1
    if known is not None and len(known[1]) <= len(ws.search.deal_moves):
        start, moves = known
        ws.search.deal_start[:] = start
        ws.search.deal_moves[:len(moves)] = moves
        rec[REC_MOVES] = len(moves)
    rec[REC_PRIMED] = 1


@generic(inline="ir")
def play_out(params, state, kinds, agent_params, rng, ws, reward_scale, max_moves, line):
    """Play ``state`` to its end, or for ``max_moves`` moves when that is > 0, seat ``s``
    played by agent (``kinds[s]``, ``agent_params[s]``); the first ``len(line)`` moves are
    written to ``line``. Returns the number of moves. (One compiled loop serves a whole game
    and a single move, :func:`choose`.) With ``max_moves`` = :data:`TO_DEAL_END` it plays
    to the end too, but copies the state after each deal of a match but its last (the next
    deal dealt: the layout's ``DEAL_NUMBER`` changed) to the next row of ``ws.track``, and
    stops when the track is full. Each seat's decisions (moves among two or more legal ones)
    are counted in ``ws.decisions``, their legal moves in ``ws.options``, and a searching
    agent's thinking time is added to ``ws.think`` (:func:`choose_action`); the random and
    heuristic players, which choose in microseconds, are not timed."""
    moves = 0
    actions = ws.search.actions
    deal = state[G.deal_word]
    note_deal(params, state, ws, 0, ENTRY)
    while not G.is_terminal(state, params) and (max_moves <= 0 or moves < max_moves):
        note_deal(params, state, ws, 0, BEFORE)
        seat = G.current_player(state, params)
        n = G.legal_actions(state, params, actions)
        if n > 1:
            ws.decisions[seat] += 1
            ws.options[seat] += n
        a = choose_action(params, kinds[seat], agent_params[seat], state, rng, ws,
                          reward_scale, n, seat)
        if moves < line.shape[0]:
            line[moves] = a
        G.apply_action(state, params, a)
        note_deal(params, state, ws, a, AFTER)
        moves += 1
        if (max_moves == TO_DEAL_END and state[G.deal_word] != deal
                and not G.is_terminal(state, params)):
            deal = state[G.deal_word]
            k = ws.tracked[0]
            copy_words(ws.track[k], state)
            ws.tracked[0] = k + 1
            if k + 1 == ws.track.shape[0]:
                break
    return moves


TO_DEAL_END = -1
""":func:`play_out`'s ``max_moves`` that tracks a match deal by deal (:func:`play_deal_by_deal`)."""
TRACK = 64
"""The deals' ends a workspace's ``track`` holds (:func:`play_out`)."""


NO_LINE = np.zeros(0, dtype=np.int64)
"""``play_out``'s ``line`` when the moves are not wanted."""


def play_deal_by_deal(run, spec, state, kinds, params, rng, ws, after_deal) -> int:
    """Play the match ``state`` to its end as ``run`` (:func:`play_out` compiled for the
    agents) does, calling ``after_deal(vec)`` with the state after each deal (the next deal
    dealt, or the match over), in order. The game loop keeps those states in ``ws.track``
    (:data:`TO_DEAL_END`) and returns when it is full, to go on from there: the same game,
    since the inferring searches' record of the deal carries over (:func:`note_deal`).
    Returns the moves played."""
    moves = 0
    while True:
        ws.tracked[0] = 0
        moves += run(spec.params, state.vec, kinds, params, rng, ws, spec.reward_scale,
                     TO_DEAL_END, NO_LINE)
        for k in range(int(ws.tracked[0])):
            after_deal(ws.track[k])
        if state.is_terminal():
            after_deal(state.vec)
            return moves
        ws.search.record[REC_PRIMED] = 1


def choose(agent: Agent, state, seed=0, ws: Workspace | None = None) -> int:
    """The action ``agent`` plays in ``state`` (a :class:`cardsim.State`), from ``seed``; the
    state is left as it is."""
    spec = state.game.spec
    if state.is_terminal():
        raise AgentError("the position is over: no move to choose")
    ws = workspace(spec, [agent]) if ws is None else ws
    prime_record(ws, state)
    kinds = np.full(spec.n_players, agent.kind, dtype=np.int64)
    params = np.stack([agent.params] * spec.n_players)
    line = np.zeros(1, dtype=np.int64)
    play_out[spec, switches([agent])](spec.params, state.vec.copy(), kinds, params,
                                      rng_from_seed(seed), ws, spec.reward_scale, 1, line)
    return int(line[0])


def play(state, agents, seed=0, equity=None) -> int:
    """Play ``state`` to its end in place, seat ``s`` by ``agents[s]`` (parsed agents or spec
    strings); returns the number of moves. ``equity``: the match-equity table of agents with
    ``value=match`` (:func:`workspace`)."""
    agents = [a if isinstance(a, Agent) else parse_agent(a, state.game) for a in agents]
    spec = state.game.spec
    if len(agents) != spec.n_players:
        raise AgentError(f"expected {spec.n_players} agents, one per seat, got {len(agents)}")
    kinds = np.array([a.kind for a in agents], dtype=np.int64)
    params = np.stack([a.params for a in agents])
    rng = rng_from_seed(seed)
    run = play_out[spec, switches(agents)]
    line = np.zeros(MAX_LINE, dtype=np.int64)
    ws = workspace(spec, agents, equity)
    prime_record(ws, state)
    moves = int(run(spec.params, state.vec, kinds, params, rng, ws, spec.reward_scale, 0, line))
    if moves > MAX_LINE:
        state.start = None                     # too long to remember: no record
    state.actions.extend(line[:moves].tolist())
    return moves


MAX_LINE = 100_000
"""The most moves :func:`play` remembers for the state's record (a longer game has none)."""
