"""Compile (or load from the cache) a game's compiled code ahead of time: what ``cardsim
compile`` runs, one process per game.

:func:`warm_up` drives every compiled entry point of the game once, through the same calls the
commands make (so the compiled signatures are theirs): the engine (``cardsim simulate``) and
the state API; the agent loops for random and heuristic players, with ISMCTS (also with leaves
valued by the learned evaluation, ``leaf=net``, as the ``fast`` level plays, and PIMC over
it, ``pimc:leaf=net``), and — where the
game has an exact solver — with PIMC and the oracle, alone and beside ISMCTS; one move of each
agent (``choose``, the terminal game), also of an inferring ISMCTS (``infer``); ISMCTS and
PIMC searches on their own (``cardsim bench``); position analysis with each kind of agent and
with inference's worlds, and inference's replay of a world (``cardsim analyze``); and the exact
solver's entry points (``cardsim solve``) — for an endgame solver (Minchiate) with ISMCTS's
exact endgames instead of PIMC and the oracle. Parts can be chosen (:data:`PARTS`).

``python -m cardsim.solvers.warmup GAME [PART ...]`` prints one JSON line: the game, the seconds spent,
the seconds spent compiling and what was compiled.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np

PARTS = ("engine", "agents", "analyze", "exact")
"""What :func:`warm_up` can compile: ``engine`` (random playouts and the state API),
``agents`` (agent loops, single moves, the ISMCTS search), ``analyze`` (position analysis) and
``exact`` (the exact solver and PIMC, where the game has them)."""


def _engine(game) -> None:
    from cardsim.simulate import play_random_deals
    play_random_deals(game.name, 2, 0)
    state = game.new_deal(seed=0)
    match = game.new_match(seed=0)
    for s in (state, match):
        s.to_dict()
        s.observation(0)
        s.sample_world(0, seed=0)
        game.from_dict(s.to_dict())
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()
    state.score_breakdown()


def _agents(game) -> None:
    from cardsim.solvers import ismcts
    from cardsim.solvers.agents import choose, parse_agent, play, workspace
    n = game.num_players
    search = parse_agent("ismcts:iterations=4")
    netted = parse_agent("ismcts:iterations=4,leaf=net")       # the learned evaluation's
    looked = parse_agent("pimc:worlds=1,leaf=net")              # PIMC over it
    inferring = parse_agent("ismcts:iterations=4,infer=0.3,pool=4")   # worlds by inference
    for agents in (["random", "heuristic"], [search, "heuristic"], [netted, "heuristic"],
                   [looked, "heuristic"], [inferring, "heuristic"]):
        play(game.new_deal(seed=1), (agents * n)[:n], seed=1)
    state = game.new_deal(seed=2)
    for agent in ("random", "heuristic", search, netted, inferring):
        choose(parse_agent(agent) if isinstance(agent, str) else agent, state, seed=0)
    spec = game.spec
    ws = workspace(spec, [search])
    rng = np.zeros(4, dtype=np.uint64) + np.uint64(1)
    ismcts.search[spec](spec.params, state.vec, search.params, rng, ws.search,
                        spec.reward_scale)


def _analyze(game) -> None:
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    from cardsim.solvers.inference import world_replay
    played = game.new_deal(seed=3)                      # inference's worlds (analyze's default)
    for _ in range(3):
        played.apply_action(played.legal_actions()[0])
    player = played.current_player()
    analyze(played, AnalysisConfig(player=player, worlds=2))
    world_replay(played, player, played.sample_world(player, seed=0))
    state = game.new_deal(seed=3)
    agents = ["heuristic", "ismcts:iterations=2"]
    if game.spec.exact is not None and not game.spec.exact.max_cards:
        agents.append("pimc:worlds=1")
    for agent in agents:
        analyze(state, AnalysisConfig(player=state.current_player(), agent=agent, worlds=2))


def _late(game, seed: int, moves_left: int):
    """A position of a seeded deal a few moves before its end (random legal play)."""
    import random
    rnd = random.Random(seed)
    state = game.new_deal(seed=seed)
    line = []
    probe = state.clone()
    while not probe.is_terminal():
        a = rnd.choice(probe.legal_actions())
        line.append(a)
        probe.apply_action(a)
    for a in line[:max(0, len(line) - moves_left)]:
        state.apply_action(a)
    return state


def _exact(game) -> None:
    spec = game.spec
    if spec.exact is None:
        return
    from cardsim.solvers import exact, pimc
    from cardsim.solvers.agents import choose, parse_agent, play, workspace
    state = _late(game, 4, 6)
    ws = exact.workspace(spec, table_bits=12)
    exact.solve(state, ws)
    exact.solve_actions(state, ws)
    exact.principal_line(state, ws)
    exact.bounds(state)
    exact.features(state)
    exact.side_to_move(state)
    n = game.num_players
    if spec.exact.max_cards:          # an endgame solver: ISMCTS's exact endgames, no PIMC
        play(_late(game, 5, 8), (["ismcts:iterations=2,exact=4", "heuristic"] * n)[:n], seed=1)
        return
    solver = parse_agent("pimc:worlds=1")
    for agents in ([solver, "oracle"], [solver, "ismcts:iterations=2"]):
        play(_late(game, 5, 4), (agents * n)[:n], seed=1)
    choose(solver, state, seed=0)
    aws = workspace(spec, [solver])
    actions = np.array(state.legal_actions(), dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64) + np.uint64(1)
    pimc.search[spec](spec.params, state.vec, solver.params, rng, actions, len(actions),
                      aws.world, aws.totals, aws.values, aws.exact)


def warm_up(name: str, parts=PARTS, stream=None) -> dict:
    """Compile (or load) ``parts`` of game ``name``; returns what happened (module docstring).
    Long compiles are reported on ``stream`` (:func:`cardsim.compiled.compiling.watch`), line by line."""
    import cardsim
    from cardsim.compiled.compiling import watch
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise cardsim.CardsimError(f"unknown part {sorted(unknown)[0]!r}: expected one of "
                                   + ", ".join(PARTS))
    start = time.perf_counter()
    with watch(stream=stream, tty=False) as log:
        game = cardsim.load_game(name)
        for part in PARTS:
            if part in parts:
                globals()[f"_{part}"](game)
    return {"game": name, "seconds": time.perf_counter() - start,
            "compile_seconds": log.seconds,
            "compiled": sorted({what for what, _ in log.compiles})}


def compile_games(games, jobs: int = 2, parts=(), quiet: bool = False):
    """Warm up each of ``games`` in its own process, ``jobs`` at a time; yields each game's
    result (:func:`warm_up`) as it finishes. A child's failure is raised here with its
    output."""
    import os
    import subprocess
    waiting = list(games)
    running = []
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                name = waiting.pop(0)
                argv = [sys.executable, "-m", "cardsim.solvers.warmup", name, *parts]
                proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True,
                                        stderr=subprocess.DEVNULL if quiet else None,
                                        env=dict(os.environ, PYTHONWARNINGS="ignore"))
                running.append((name, proc))
            time.sleep(0.2)
            for name, proc in list(running):
                if proc.poll() is None:
                    continue
                running.remove((name, proc))
                out = proc.stdout.read()
                if proc.returncode != 0:
                    raise RuntimeError(f"compiling {name} failed (exit {proc.returncode}):"
                                       f"\n{out}")
                yield json.loads(out.strip().splitlines()[-1])
    finally:                         # an error, Ctrl-C or SIGTERM here: no child goes on
        for _, other in running:
            other.kill()
            other.wait()


if __name__ == "__main__":
    try:
        print(json.dumps(warm_up(sys.argv[1], tuple(sys.argv[2:]) or PARTS,
                                 stream=sys.stderr)))
    except KeyboardInterrupt:        # Ctrl-C reaches every process of the terminal: the
        sys.exit(130)                # parent says so, once
