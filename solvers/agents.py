"""Agents: named by a short spec string, run inside compiled code, one protocol for every game.

An agent is an integer kind and a float64 parameter vector (DESIGN.md §3), so a whole game
between compiled agents runs in one numba call (:func:`play_out`) and never returns to Python
between moves; a Python-level agent (a person at the terminal) plugs into the same game
through :func:`choose` move by move.

Spec strings, parsed once by :func:`parse_agent` (unknown names or values are refused with
what is allowed):

- ``random`` — uniform over the legal actions.
- ``heuristic`` — the game's heuristic player, the documented wisdom of good players
  (``cardsim/games/<game>/heuristic.py``).
- ``pimc[:worlds=N,seconds=S]`` — :mod:`solvers.pimc`: ``worlds`` sampled worlds (default
  50), each solved exactly by :mod:`solvers.exact`, the best average action played; or a
  wall-clock budget ``seconds`` per move (then the worlds are not capped unless ``worlds`` is
  given too).
- ``oracle`` — **sees every card** (it cheats): plays an action of best exact value on the
  true state (:mod:`solvers.exact`). Against PIMC it measures what seeing all cards is worth.
- ``ismcts[:key=value,...]`` — :mod:`solvers.ismcts` with ``iterations`` (default 1000; 0 =
  only the time budget), ``seconds`` (a wall-clock budget per move, default 0 = none), ``c``
  (UCT exploration constant, default 0.7, on returns divided by the game's reward scale),
  ``final`` (``visits`` | ``sample`` | ``value``), ``worlds`` (a cap on sampled worlds, 0 =
  a new one every iteration), ``rollout`` (``random`` | ``heuristic``) and ``nodes`` (the
  tree's capacity, default iterations + 1, or 1,000,000 with a time budget).

>>> parse_agent("ismcts:iterations=200,c=1.2").name
'ismcts:iterations=200,c=1.2'
>>> parse_agent("ismcts:iters=5")
Traceback (most recent call last):
...
cardsim.errors.AgentError: agent 'ismcts:iters=5': unknown parameter 'iters'; expected one of iterations, seconds, c, final, worlds, rollout, nodes
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from cardsim.errors import AgentError
from cardsim.jit import G, generic
from cardsim.rng import rng_below, rng_from_seed

from . import exact, ismcts
from .ismcts import search as ismcts_search
from .pimc import oracle as pimc_oracle
from .pimc import search as pimc_search

RANDOM, HEURISTIC, ISMCTS, PIMC, ORACLE = range(5)
KINDS = {"random": RANDOM, "heuristic": HEURISTIC, "ismcts": ISMCTS, "pimc": PIMC,
         "oracle": ORACLE}
DEFAULT_NODES_TIMED = 1_000_000

_ISMCTS_PARAMS = {   # name -> (index, default, parser description)
    "iterations": (ismcts.ITERATIONS, 1000, "an integer >= 0"),
    "seconds": (ismcts.SECONDS, 0.0, "a number of seconds >= 0"),
    "c": (ismcts.C, 0.7, "a number >= 0"),
    "final": (ismcts.FINAL, "visits", "visits, sample or value"),
    "worlds": (ismcts.WORLDS, 0, "an integer >= 0"),
    "rollout": (ismcts.ROLLOUT, "random", "random or heuristic"),
}
_CHOICES = {"final": ("visits", "sample", "value"), "rollout": ("random", "heuristic")}


@dataclass(frozen=True)
class Agent:
    """A parsed agent: its spec string, kind, parameter vector and tree capacity."""

    name: str
    kind: int
    params: np.ndarray
    nodes: int = 0

    @property
    def is_search(self) -> bool:
        """An ISMCTS agent (it needs a search tree)."""
        return self.kind == ISMCTS

    @property
    def is_exact(self) -> bool:
        """An agent that uses the exact solver (PIMC, the oracle)."""
        return self.kind == PIMC or self.kind == ORACLE


def parse_agent(spec: str) -> Agent:
    """An :class:`Agent` from its spec string (module docstring)."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentError(f"agent {spec!r}: expected one of {', '.join(KINDS)} "
                         "(with ismcts:key=value,... parameters)")
    name, _, rest = spec.strip().partition(":")
    if name not in KINDS:
        raise AgentError(f"agent {spec!r}: unknown agent {name!r}; expected one of "
                         + ", ".join(KINDS))
    params = np.zeros(ismcts.N_PARAMS, dtype=np.float64)
    if KINDS[name] == PIMC:
        return _parse_pimc(spec, rest, params)
    if KINDS[name] != ISMCTS:
        if rest:
            raise AgentError(f"agent {spec!r}: {name} takes no parameters")
        return Agent(spec.strip(), KINDS[name], params)
    values = {k: d for k, (_, d, _) in _ISMCTS_PARAMS.items()}
    nodes = None
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key == "nodes":
            nodes = _number(spec, key, text, "an integer >= 2", integer=True, low=2)
            continue
        if key not in _ISMCTS_PARAMS:
            raise AgentError(f"agent {spec!r}: unknown parameter {key!r}; expected one of "
                             + ", ".join([*_ISMCTS_PARAMS, "nodes"]))
        if not eq:
            raise AgentError(f"agent {spec!r}: expected {key}=value")
        _, _, allowed = _ISMCTS_PARAMS[key]
        if key in _CHOICES:
            if text.strip() not in _CHOICES[key]:
                raise AgentError(f"agent {spec!r}: {key}={text!r}; expected {allowed}")
            values[key] = text.strip()
        else:
            values[key] = _number(spec, key, text, allowed,
                                  integer=key in ("iterations", "worlds"))
    if values["iterations"] == 0 and values["seconds"] == 0:
        raise AgentError(f"agent {spec!r}: give iterations > 0 or seconds > 0")
    for key, (index, _, _) in _ISMCTS_PARAMS.items():
        v = values[key]
        params[index] = _CHOICES[key].index(v) if key in _CHOICES else float(v)
    if nodes is None:
        nodes = DEFAULT_NODES_TIMED if values["seconds"] else int(values["iterations"]) + 1
    return Agent(spec.strip(), ISMCTS, params, int(nodes))


def _parse_pimc(spec: str, rest: str, params: np.ndarray) -> Agent:
    """``pimc:worlds=N,seconds=S`` (module docstring)."""
    given = {}
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key not in ("worlds", "seconds"):
            raise AgentError(f"agent {spec!r}: unknown parameter {key!r}; expected one of "
                             "worlds, seconds")
        if not eq:
            raise AgentError(f"agent {spec!r}: expected {key}=value")
        given[key] = (_number(spec, key, text, "an integer >= 0", integer=True)
                      if key == "worlds" else
                      _number(spec, key, text, "a number of seconds >= 0"))
    seconds = given.get("seconds", 0.0)
    worlds = given.get("worlds", 0 if seconds else 50)
    if worlds == 0 and seconds == 0:
        raise AgentError(f"agent {spec!r}: give worlds > 0 or seconds > 0")
    params[ismcts.WORLDS] = worlds
    params[ismcts.SECONDS] = seconds
    return Agent(spec.strip(), PIMC, params)


def search_budget(agent: Agent) -> tuple[str, float, tuple] | None:
    """For a searching agent: what ends its search (``"iterations"`` for ISMCTS, ``"worlds"``
    for PIMC, or ``"seconds"`` when a time budget is given), how much, and the rest of its
    settings as a key (two agents with the same key differ only in that budget); None for an
    agent that does not search."""
    if not (agent.is_search or agent.is_exact):
        return None
    p = agent.params.copy()
    kind, index = (("seconds", ismcts.SECONDS) if p[ismcts.SECONDS] > 0
                   else ("worlds", ismcts.WORLDS) if agent.is_exact
                   else ("iterations", ismcts.ITERATIONS))
    value = float(p[index])
    p[index] = 0.0
    return kind, value, (agent.kind, kind, *p.tolist())


def _number(spec: str, key: str, text: str, allowed: str, integer: bool = False,
            low: float = 0) -> float:
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise AgentError(f"agent {spec!r}: {key}={text!r}; expected {allowed}") from None
    if not value >= low or value != value or value == float("inf"):
        raise AgentError(f"agent {spec!r}: {key}={text!r}; expected {allowed}")
    return value


Workspace = namedtuple("Workspace", "search exact world totals values")
"""What the agents of a game need: the ISMCTS workspace (:mod:`solvers.ismcts`), the exact
solver's (:mod:`solvers.exact`, full-size only when a PIMC agent plays) and PIMC's scratch
arrays."""


def workspace(spec, agents) -> Workspace:
    """One workspace large enough for every agent of ``agents``."""
    agents = [parse_agent(a) if isinstance(a, str) else a for a in agents]
    nodes = max([a.nodes for a in agents if a.is_search] or [2])
    worlds = max([int(a.params[ismcts.WORLDS]) for a in agents if a.is_search] or [0])
    solving = any(a.is_exact for a in agents)
    if solving and spec.exact is None:
        raise AgentError(f"pimc and oracle: {spec.no_exact}")
    return Workspace(
        search=ismcts.workspace(spec, nodes, worlds),
        exact=(exact.workspace(spec) if solving
               else exact.workspace(spec, table_bits=1, plies=2)),
        world=np.zeros(spec.state_len, dtype=np.uint64),
        totals=np.zeros(spec.max_actions, dtype=np.int64),
        values=np.zeros(spec.max_actions, dtype=np.int64))


WITH_ISMCTS = True
WITH_EXACT = True
"""The agent loop's switches (:mod:`cardsim.jit`): whether a compiled loop can run the ISMCTS
agents, and PIMC and the oracle. A loop is compiled for the kinds it runs
(:func:`switches`): two random players never compile a search."""


def switches(agents) -> dict[str, bool]:
    """The switches of a compiled loop among ``agents``: only the kinds they are."""
    return {"WITH_ISMCTS": any(a.is_search for a in agents),
            "WITH_EXACT": any(a.is_exact for a in agents)}


@generic(switches=("WITH_ISMCTS", "WITH_EXACT"), inline="ir")
def choose_action(params, kind, agent_params, state, rng, ws, reward_scale):
    """The action of the agent (``kind``, ``agent_params``) for the player to move."""
    actions = ws.search.actions
    n = G.legal_actions(state, params, actions)
    if n == 1:
        return actions[0]
    if kind == HEURISTIC:
        return actions[G.heuristic(state, params, actions, n, rng)]
    if WITH_EXACT:
        if kind == PIMC:
            best, _ = pimc_search(params, state, agent_params, rng, actions, n, ws.world,
                                  ws.totals, ws.values, ws.exact)
            return actions[best]
        if kind == ORACLE:
            return actions[pimc_oracle(params, state, actions, n, ws.values, ws.exact)]
    if WITH_ISMCTS:
        if kind == ISMCTS:
            action, _ = ismcts_search(params, state, agent_params, rng, ws.search,
                                      reward_scale)
            return action
    return actions[rng_below(rng, n)]


@generic(inline="ir")
def play_out(params, state, kinds, agent_params, rng, ws, reward_scale, max_moves, line):
    """Play ``state`` to its end, or for ``max_moves`` moves when that is > 0, seat ``s``
    played by agent (``kinds[s]``, ``agent_params[s]``); the first ``len(line)`` moves are
    written to ``line``. Returns the number of moves. (One compiled loop serves a whole game
    and a single move, :func:`choose`.)"""
    moves = 0
    while not G.is_terminal(state, params) and (max_moves <= 0 or moves < max_moves):
        seat = G.current_player(state, params)
        a = choose_action(params, kinds[seat], agent_params[seat], state, rng, ws,
                          reward_scale)
        if moves < line.shape[0]:
            line[moves] = a
        G.apply_action(state, params, a)
        moves += 1
    return moves


NO_LINE = np.zeros(0, dtype=np.int64)
"""``play_out``'s ``line`` when the moves are not wanted."""


def choose(agent: Agent, state, seed=0, ws: Workspace | None = None) -> int:
    """The action ``agent`` plays in ``state`` (a :class:`cardsim.State`), from ``seed``; the
    state is left as it is."""
    spec = state.game.spec
    if state.is_terminal():
        raise AgentError("the position is over: no move to choose")
    ws = workspace(spec, [agent]) if ws is None else ws
    kinds = np.full(spec.n_players, agent.kind, dtype=np.int64)
    params = np.stack([agent.params] * spec.n_players)
    line = np.zeros(1, dtype=np.int64)
    play_out[spec, switches([agent])](spec.params, state.vec.copy(), kinds, params,
                                      rng_from_seed(seed), ws, spec.reward_scale, 1, line)
    return int(line[0])


def play(state, agents, seed=0) -> int:
    """Play ``state`` to its end in place, seat ``s`` by ``agents[s]`` (parsed agents or spec
    strings); returns the number of moves."""
    agents = [a if isinstance(a, Agent) else parse_agent(a) for a in agents]
    spec = state.game.spec
    if len(agents) != spec.n_players:
        raise AgentError(f"expected {spec.n_players} agents, one per seat, got {len(agents)}")
    kinds = np.array([a.kind for a in agents], dtype=np.int64)
    params = np.stack([a.params for a in agents])
    rng = rng_from_seed(seed)
    run = play_out[spec, switches(agents)]
    return int(run(spec.params, state.vec, kinds, params, rng, workspace(spec, agents),
                   spec.reward_scale, 0, NO_LINE))
