"""Agent spec strings, parsed without compiled code (a store's reader needs only this).

An agent is an integer kind and a float64 parameter vector (DESIGN.md §3), run by the compiled
game loop of :mod:`cardsim.solvers.agents`. Spec strings, parsed once by :func:`parse_agent` (unknown
names or values are refused with what is allowed):

- ``random`` — uniform over the legal actions.
- ``heuristic`` — the game's heuristic player, the documented wisdom of good players
  (``cardsim/games/<game>/heuristic.py``).
- ``pimc[:worlds=N,seconds=S]`` — :mod:`cardsim.solvers.pimc`: ``worlds`` sampled worlds (default
  50), each solved exactly by :mod:`cardsim.solvers.exact`, the best average action played; or a
  wall-clock budget ``seconds`` per move (then the worlds are not capped unless ``worlds`` is
  given too). With ``leaf=net`` each world is searched ``depth`` moves ahead (default 2, the
  move itself included; at most :data:`MAX_DEPTH`) by :mod:`cardsim.solvers.lookahead`, an
  alpha-beta whose leaves the value network values (``weights=PATH``, or the game's shipped
  weights), the deal's last ``exact`` cards (default 0 = never) are solved exactly, and with
  ``model=1`` the opponents play the game's heuristic move instead of their best: no
  whole-deal solve, so Mushka, Minchiate and Bura of three or four can play it too.
- ``oracle`` — **sees every card** (it cheats): plays an action of best exact value on the
  true state (:mod:`cardsim.solvers.exact`). Against PIMC it measures what seeing all cards is worth.
- ``ismcts[:key=value,...]`` — :mod:`cardsim.solvers.ismcts` with ``iterations`` (default 1000, or
  none when ``seconds`` is given alone: ``ismcts:seconds=1`` thinks for a second; 0 = only the
  time budget), ``seconds`` (a wall-clock budget per move, default 0 = none; with
  ``iterations`` too, whichever ends first), ``c``
  (UCT exploration constant, default 0.7, on returns divided by the game's reward scale),
  ``final`` (``visits`` | ``sample`` | ``value``), ``worlds`` (a cap on sampled worlds, 0 =
  a new one every iteration), ``rollout`` (``random`` | ``heuristic``), ``epsilon`` (in a
  heuristic rollout, the chance of a uniformly random move instead: ε-greedy, default 0),
  ``exact`` (play a rollout's last ``exact`` cards of the deal exactly, both sides best, by
  :mod:`cardsim.solvers.exact`, instead of by the rollout player: Scopa's last six are every card
  known; default 0 = never; games with the exact solver), ``model`` (the chance that an
  opponent in the tree plays the game's heuristic move instead of its UCB choice: an opponent
  model, default 0 = none), ``value`` (what a simulation's end is worth in a match or
  game: ``game`` plays it out to the match's end, ``points`` stops at the end of the deal and
  counts its points — the position searched as a lone deal —, ``match`` stops there and
  counts the chance of winning the match from the score it leaves, read from a match-equity
  table that whoever runs the agent supplies: :mod:`cardsim.experiments.equity`; default ``game``;
  in a lone deal all three are the deal's points), ``leaf`` (``playout``: a leaf is played out
  to the end; ``net``: after ``playout`` moves, default 0, a value network values it —
  :mod:`cardsim.solvers.evaluation`, the game's shipped weights for the rules, or ``weights=PATH``;
  the deal is searched for its points, ``value=points``; ``mix=λ`` below 1, default 1, plays
  the leaf out too and values it ``λ`` × the network's value + (1 − ``λ``) × the play-out's,
  as AlphaGo mixed its value network with its play-outs), ``prior`` (the game's heuristic
  as a policy: its move is expanded first and gains ``prior / (visits + 1)`` in the UCB
  choice — progressive bias; default 0 = none), ``infer`` (the worlds are weighed by the
  likelihood of the other players' moves of the deal so far, :mod:`cardsim.solvers.inference`, under
  the game's heuristic softened by this epsilon: ``pool`` worlds, default 300, are sampled and
  weighed at the root, within the time budget, and each iteration plays one drawn by its
  weight; default 0 = uniform worlds) and ``nodes`` (the tree's capacity, default
  iterations + 1, or 1,000,000 with a time budget).

- ``easy``, ``medium``, ``strong``, ``best``, ``fast`` — the named levels, each one of the agents above
  (:data:`LEVELS`, or the game's own: :attr:`cardsim.protocol.spec.GameDefinition.levels`).

Each parameter is given at most once; counts have upper bounds (:data:`MAX_COUNT` iterations or
PIMC worlds, :data:`MAX_FIXED_WORLDS` fixed ISMCTS worlds, :data:`MAX_NODES` tree nodes) so
that a typo is refused in one line instead of failing later on memory, or silently, when the
count no longer fits the float64 parameter vector exactly. The default tree of a larger
``iterations`` holds :data:`MAX_NODES` nodes (a full tree stops growing; the search goes on).

This module imports no numba and no compiled module: ``tests/test_layers.py`` checks that
reading a store and parsing its agents leaves :mod:`cardsim.solvers.agents` unimported.

>>> parse_agent("ismcts:iterations=200,c=1.2").name
'ismcts:iterations=200,c=1.2'
>>> parse_agent("ismcts:iters=5")
Traceback (most recent call last):
...
cardsim.errors.AgentError: agent 'ismcts:iters=5': unknown parameter 'iters'; expected one of iterations, seconds, c, final, worlds, rollout, epsilon, exact, model, value, leaf, playout, mix, prior, infer, pool, nodes, weights
>>> parse_agent("strong").params.tolist() == parse_agent(LEVELS["strong"]).params.tolist()
True
>>> parse_agent("best", "bura").name, float(parse_agent("best", "bura").params[C])
('best', 2.0)
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from cardsim.errors import AgentError, CardsimError, shown

# The search's parameters (a float64 vector; names as in the spec string), read by the
# compiled searches (cardsim/solvers/ismcts.py, cardsim/solvers/pimc.py). Numba freezes these values into the
# compiled code, and cardsim/compiled/cache.py hashes only the files that define compiled functions:
# a change here must come with a change of cardsim/solvers/ismcts.py (or an empty cache).
ITERATIONS, SECONDS, C, FINAL, WORLDS, ROLLOUT, EPSILON, EXACT, MODEL, VALUE, LEAF, PLAYOUT, \
    DEPTH, MIX, PRIOR, INFER, POOL = range(17)
N_PARAMS = 17
FINAL_VISITS, FINAL_SAMPLE, FINAL_VALUE = range(3)
ROLLOUT_RANDOM, ROLLOUT_HEURISTIC = range(2)
VALUE_GAME, VALUE_POINTS, VALUE_MATCH = range(3)
LEAF_PLAYOUT, LEAF_NET = range(2)
MAX_PLAYOUT = 1000
"""The most play-out moves before a network values a leaf (``playout``)."""
MAX_DEPTH = 12
"""The deepest look-ahead of PIMC over the network (``pimc:leaf=net,depth=D``, in moves)."""

RANDOM, HEURISTIC, ISMCTS, PIMC, ORACLE = range(5)
KINDS = {"random": RANDOM, "heuristic": HEURISTIC, "ismcts": ISMCTS, "pimc": PIMC,
         "oracle": ORACLE}
DEFAULT_NODES_TIMED = 1_000_000
MAX_COUNT = 10**9
"""The most ISMCTS iterations or PIMC worlds per move (exact in float64, far beyond any budget
run so far: about 3 hours of ISMCTS per move)."""
MAX_FIXED_WORLDS = 1_000_000
"""The most fixed worlds of an ISMCTS search (``worlds``: one state vector each, allocated)."""
MAX_EXACT = 97
"""The largest ``exact`` threshold of ISMCTS (cards left in a deal; the largest deck has 97)."""
MAX_NODES = 100_000_000
"""The largest ISMCTS tree (``nodes``: 56 bytes each, allocated: 5.6 GB)."""
MAX_POOL = 100_000
"""The most worlds an inferring ISMCTS weighs at the root (``pool``: one state vector each,
allocated)."""
DEFAULT_POOL = 300
"""An inferring ISMCTS's pool of root worlds (``pool``): in Bura 300 played better than 100
(README, "Inference in play")."""

_ISMCTS_PARAMS = {   # name -> (index, default, parser description)
    "iterations": (ITERATIONS, 1000, f"an integer >= 0 (at most {MAX_COUNT:,})"),
    "seconds": (SECONDS, 0.0, "a number of seconds >= 0"),
    "c": (C, 0.7, "a number >= 0"),
    "final": (FINAL, "visits", "visits, sample or value"),
    "worlds": (WORLDS, 0, f"an integer >= 0 (at most {MAX_FIXED_WORLDS:,})"),
    "rollout": (ROLLOUT, "random", "random or heuristic"),
    "epsilon": (EPSILON, 0.0, "a probability from 0 to 1"),
    "exact": (EXACT, 0, f"an integer >= 0 (at most {MAX_EXACT})"),
    "model": (MODEL, 0.0, "a probability from 0 to 1"),
    "value": (VALUE, "game", "game, points or match"),
    "leaf": (LEAF, "playout", "playout or net"),
    "playout": (PLAYOUT, 0, f"an integer >= 0 (at most {MAX_PLAYOUT})"),
    "mix": (MIX, 1.0, "a number from 0 to 1"),
    "prior": (PRIOR, 0.0, "a number >= 0"),
    "infer": (INFER, 0.0, "the inference model's epsilon, a number from 0 (none) to 1 "
                          "(exclusive)"),
    "pool": (POOL, DEFAULT_POOL, f"an integer >= 1 (at most {MAX_POOL:,})"),
}
_CHOICES = {"final": ("visits", "sample", "value"), "rollout": ("random", "heuristic"),
            "value": ("game", "points", "match"), "leaf": ("playout", "net")}

LEVELS = {
    "easy": "ismcts:iterations=50",
    "medium": "heuristic",
    "strong": "ismcts:seconds=0.1,rollout=heuristic",
    "best": "ismcts:seconds=1,rollout=heuristic",
    "fast": "ismcts:seconds=0.004,rollout=heuristic,leaf=net",
}
"""The named levels: ``easy``, ``medium``, ``strong`` and ``best`` are agent spec
strings accepted wherever an agent is, each standing for the agent given here, or for the
game's own where its measured best differs (its :attr:`~cardsim.protocol.spec.GameDefinition.levels`;
for this version of cardsim: a store's manifest records the version). ``best`` is the
strongest agent measured at up to 1 s a move on one core; ``strong`` is ``cardsim play``'s
default opponent; ``fast`` (for apps: at most 5 ms a move, 4 ms of search) values its leaves
by the game's learned evaluation (:mod:`cardsim.solvers.evaluation`) where that measured better than
play-outs at equal time. Their figures are in README, "Agents" and "Learned evaluation"."""


def level(name: str, game=None) -> str | None:
    """The agent spec string the level ``name`` stands for in ``game`` (a game name or a
    :class:`cardsim.Game`; None, or a name no game has, for the default of every game), or
    None if it is no level."""
    if name not in LEVELS:
        return None
    if isinstance(game, str):
        from cardsim.protocol.registry import definition  # the game's package: only when named
        try:
            game = definition(game)
        except CardsimError:
            game = None
    own = getattr(game, "definition", game)
    return (own.levels if own is not None else {}).get(name, LEVELS[name])


_HIGH = {"iterations": MAX_COUNT, "worlds": MAX_FIXED_WORLDS}
_INTEGER = ("iterations", "worlds", "exact", "playout", "pool")
_TOP = {**_HIGH, "epsilon": 1.0, "model": 1.0, "exact": MAX_EXACT, "playout": MAX_PLAYOUT,
        "mix": 1.0, "infer": 1.0, "pool": MAX_POOL}


@dataclass(frozen=True)
class Agent:
    """A parsed agent: its spec string, kind, parameter vector and tree capacity."""

    name: str
    kind: int
    params: np.ndarray
    nodes: int = 0
    weights: str = ""
    """``leaf=net``: the weights file given (``weights=PATH``), "" for the game's shipped
    weights (:func:`cardsim.solvers.evaluation.net_for`)."""

    @property
    def is_search(self) -> bool:
        """An ISMCTS agent (it needs a search tree)."""
        return self.kind == ISMCTS

    @property
    def searches(self) -> bool:
        """An agent that searches (ISMCTS, PIMC, the oracle): its thinking time is measured."""
        return self.kind in (ISMCTS, PIMC, ORACLE)

    @property
    def is_exact(self) -> bool:
        """An agent that uses the exact solver (PIMC, the oracle, ISMCTS or PIMC over the
        network with exact endgames)."""
        return self.solves_deals or self.params[EXACT] > 0

    @property
    def solves_deals(self) -> bool:
        """An agent that solves whole deals exactly (PIMC, the oracle)."""
        return self.kind == ORACLE or (self.kind == PIMC and self.params[LEAF] != LEAF_NET)

    @property
    def looks_ahead(self) -> bool:
        """PIMC over the network (``pimc:leaf=net``): a shallow search of each world."""
        return self.kind == PIMC and self.params[LEAF] == LEAF_NET

    @property
    def for_the_match(self) -> bool:
        """An ISMCTS agent that values a deal's end by a match-equity table (``value=match``):
        it needs the table (:func:`cardsim.solvers.agents.workspace`)."""
        return self.kind == ISMCTS and self.params[VALUE] == VALUE_MATCH

    @property
    def uses_net(self) -> bool:
        """A search whose leaves a value network values (``leaf=net``)."""
        return self.kind in (ISMCTS, PIMC) and self.params[LEAF] == LEAF_NET

    @property
    def uses_heuristic(self) -> bool:
        """An agent that plays or consults the game's heuristic: the heuristic itself, a
        search with heuristic rollouts, an opponent model (``model``), the heuristic as a prior
        (``prior``) or inference (whose model of the players is the heuristic)."""
        if self.kind == HEURISTIC:
            return True
        if self.kind == PIMC:
            return self.looks_ahead and self.params[MODEL] > 0
        return self.kind == ISMCTS and (self.params[ROLLOUT] == ROLLOUT_HEURISTIC
                                        or self.params[MODEL] > 0 or self.params[PRIOR] > 0
                                        or self.params[INFER] > 0)

    @property
    def infers(self) -> bool:
        """An ISMCTS agent that weighs its worlds by the deal's moves (``infer``)."""
        return self.kind == ISMCTS and self.params[INFER] > 0

    @property
    def for_the_points(self) -> bool:
        """An ISMCTS agent that searches a match's deal alone for its points
        (``value=points``)."""
        return self.kind == ISMCTS and self.params[VALUE] == VALUE_POINTS


def parse_agent(spec: str, game=None) -> Agent:
    """An :class:`Agent` from its spec string (module docstring); a named level stands for
    ``game``'s agent (:func:`level`: a game name or a :class:`cardsim.Game`)."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentError(f"agent {shown(spec)}: expected one of {', '.join([*KINDS, *LEVELS])} "
                         "(with ismcts:key=value,... parameters)")
    if spec.strip() in LEVELS:
        return replace(parse_agent(level(spec.strip(), game)), name=spec.strip())
    name, _, rest = spec.strip().partition(":")
    if name not in KINDS:
        raise AgentError(f"agent {shown(spec)}: unknown agent {shown(name)}; expected one of "
                         + ", ".join([*KINDS, *LEVELS]))
    params = np.zeros(N_PARAMS, dtype=np.float64)
    if KINDS[name] == PIMC:
        return _parse_pimc(spec, rest, params)
    if KINDS[name] != ISMCTS:
        if rest:
            raise AgentError(f"agent {shown(spec)}: {name} takes no parameters")
        return Agent(spec.strip(), KINDS[name], params)
    values = {k: d for k, (_, d, _) in _ISMCTS_PARAMS.items()}
    nodes = None
    weights = ""
    for key, eq, text in _items(spec, rest):
        if key == "weights":
            if not eq or not text.strip():
                raise AgentError(f"agent {shown(spec)}: expected weights=PATH (a file of cardsim "
                                 "train)")
            weights = text.strip()
            continue
        if key == "nodes":
            nodes = _number(spec, key, text, f"an integer >= 2 (at most {MAX_NODES:,})",
                            integer=True, low=2, high=MAX_NODES)
            continue
        if key not in _ISMCTS_PARAMS:
            raise AgentError(f"agent {shown(spec)}: unknown parameter {shown(key)}; expected "
                             "one of "
                             + ", ".join([*_ISMCTS_PARAMS, "nodes", "weights"]))
        if not eq:
            raise AgentError(f"agent {shown(spec)}: expected {key}=value")
        _, _, allowed = _ISMCTS_PARAMS[key]
        if key in _CHOICES:
            if text.strip() not in _CHOICES[key]:
                raise AgentError(f"agent {shown(spec)}: {key}={shown(text)}; expected {allowed}")
            values[key] = text.strip()
        else:
            values[key] = _number(spec, key, text, allowed, integer=key in _INTEGER,
                                  low=1 if key == "pool" else 0,
                                  high=_TOP.get(key, float("inf")))
    if values["seconds"] and "iterations" not in [k for k, _, _ in _items(spec, rest)]:
        values["iterations"] = 0                    # a time budget given alone is the budget
    if values["iterations"] == 0 and values["seconds"] == 0:
        raise AgentError(f"agent {shown(spec)}: give iterations > 0 or seconds > 0")
    given = [k for k, _, _ in _items(spec, rest)]
    if values["leaf"] == "net":
        if "value" in given and values["value"] != "points":
            raise AgentError(f"agent {shown(spec)}: leaf=net values the deal (a network predicts "
                             "the deal's return): value=points, or leave value out")
        values["value"] = "points"
    elif weights or "playout" in given or "mix" in given:
        raise AgentError(f"agent {shown(spec)}: "
                         f"{'weights' if weights else 'playout' if 'playout' in given else 'mix'}"
                         " is for leaf=net")
    if values["infer"] >= 1:
        raise AgentError(f"agent {shown(spec)}: infer={shown(values['infer'])}; expected "
                         f"{_ISMCTS_PARAMS['infer'][2]}")
    if "pool" in given and not values["infer"]:
        raise AgentError(f"agent {shown(spec)}: pool is for infer (the worlds inference weighs)")
    for key, (index, _, _) in _ISMCTS_PARAMS.items():
        v = values[key]
        params[index] = _CHOICES[key].index(v) if key in _CHOICES else float(v)
    if nodes is None:
        nodes = (DEFAULT_NODES_TIMED if values["seconds"]
                 else min(int(values["iterations"]) + 1, MAX_NODES))
    return Agent(spec.strip(), ISMCTS, params, int(nodes), weights)


def _parse_pimc(spec: str, rest: str, params: np.ndarray) -> Agent:
    """``pimc:worlds=N,seconds=S[,leaf=net,depth=D,exact=K,model=M,weights=PATH]`` (module
    docstring)."""
    counts = f"an integer >= 0 (at most {MAX_COUNT:,})"
    allowed = {"worlds": counts, "seconds": "a number of seconds >= 0",
               "leaf": "exact or net", "depth": f"an integer from 1 to {MAX_DEPTH}",
               "exact": f"an integer >= 0 (at most {MAX_EXACT})", "model": "0 or 1",
               "weights": "PATH"}
    given = {}
    for key, eq, text in _items(spec, rest):
        if key not in allowed:
            raise AgentError(f"agent {shown(spec)}: unknown parameter {shown(key)}; expected "
                             "one of "
                             + ", ".join(allowed))
        if not eq or not text.strip():
            raise AgentError(f"agent {shown(spec)}: expected {key}=value")
        if key == "leaf":
            if text.strip() not in ("exact", "net"):
                raise AgentError(f"agent {shown(spec)}: leaf={shown(text)}; expected "
                                 f"{allowed[key]}")
            given[key] = text.strip()
        elif key == "weights":
            given[key] = text.strip()
        elif key == "model":
            if text.strip() not in ("0", "1"):
                raise AgentError(f"agent {shown(spec)}: model={shown(text)}; expected "
                                 f"{allowed[key]}")
            given[key] = int(text)
        else:
            given[key] = _number(spec, key, text, allowed[key], integer=key != "seconds",
                                 low=1 if key == "depth" else 0,
                                 high={"worlds": MAX_COUNT, "depth": MAX_DEPTH,
                                       "exact": MAX_EXACT}.get(key, float("inf")))
    net = given.get("leaf") == "net"
    for key in ("depth", "exact", "model", "weights"):
        if key in given and not net:
            raise AgentError(f"agent {shown(spec)}: {key} is for leaf=net")
    seconds = given.get("seconds", 0.0)
    worlds = given.get("worlds", 0 if seconds else 50)
    if worlds == 0 and seconds == 0:
        raise AgentError(f"agent {shown(spec)}: give worlds > 0 or seconds > 0")
    params[WORLDS] = worlds
    params[SECONDS] = seconds
    params[LEAF] = LEAF_NET if net else LEAF_PLAYOUT
    params[DEPTH] = given.get("depth", 2) if net else 0
    params[EXACT] = given.get("exact", 0)
    params[MODEL] = given.get("model", 0)
    return Agent(spec.strip(), PIMC, params, weights=given.get("weights", ""))


def least_budget(agent: Agent) -> Agent:
    """``agent`` with the smallest budget: two ISMCTS iterations or one PIMC world, no time
    budget. It runs the same compiled loop (its switches depend on what an agent does, not on
    how long), so a warm-up can compile that loop in moments."""
    if not (agent.is_search or agent.kind == PIMC):
        return agent
    p = agent.params.copy()
    p[SECONDS] = 0.0
    if agent.is_search:
        p[ITERATIONS] = 2
        return replace(agent, params=p, nodes=3)
    p[WORLDS] = 1
    return replace(agent, params=p)


def search_budget(agent: Agent) -> tuple[str, float, tuple] | None:
    """For a searching agent: what ends its search (``"iterations"`` for ISMCTS, ``"worlds"``
    for PIMC, or ``"seconds"`` when a time budget is given), how much, and the rest of its
    settings as a key (two agents with the same key differ only in that budget); None for an
    agent that does not search."""
    if not agent.searches:
        return None
    p = agent.params.copy()
    kind, index = (("seconds", SECONDS) if p[SECONDS] > 0
                   else ("iterations", ITERATIONS) if agent.is_search
                   else ("worlds", WORLDS))
    value = float(p[index])
    p[index] = 0.0
    return kind, value, (agent.kind, kind, *p.tolist())


def _items(spec: str, rest: str) -> list[tuple[str, str, str]]:
    """The ``key=value`` items of a spec's parameters as (key, "=" or "", value), each key at
    most once (a repeated one would silently replace the first)."""
    items = []
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key in [k for k, _, _ in items]:
            raise AgentError(f"agent {shown(spec)}: {shown(key)} is given twice: give it once")
        items.append((key, eq, text))
    return items


def _number(spec: str, key: str, text: str, allowed: str, integer: bool = False,
            low: float = 0, high: float = float("inf")) -> float:
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise AgentError(f"agent {shown(spec)}: {key}={shown(text)}; expected {allowed}") from None
    if not low <= value <= high or value == float("inf"):
        raise AgentError(f"agent {shown(spec)}: {key}={shown(text)}; expected {allowed}")
    return value
