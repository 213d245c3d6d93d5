"""``cardsim bench``: speed of the compiled engine against the reference engine, in one run.

Measures random-playout deals per second of the compiled engine (its own play loop, one core)
and of the plain-Python reference engine on the same machine in the same run, and their ratio;
the cold compile time (a fresh process with an empty numba cache) and the warm start time of
``cardsim simulate`` (a fresh process with the cache filled); ISMCTS iterations per second
from the opening position of a deal (2 players, random rollouts); and the exact solver's time
per deal over a fixed set of seeded deals (median, 99th percentile, nodes per second) with
PIMC's time per decision. Figures are measurements, never
guesses: report them as printed.
"""
from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from .game import load_game
from .rng import rng_from_seed
from .simulate import random_policy


@dataclass(frozen=True)
class BenchConfig:
    """What ``cardsim bench`` measures."""

    game: str = "scopa"
    seconds: float = 2.0        # time budget of each engine measurement
    startup: bool = True        # also measure cold compile and warm start in fresh processes
    runner: bool = False        # also measure the experiment runner (1 vs 2 workers, overhead)
    solver: bool = True         # also measure the exact solver and PIMC

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            from .errors import CardsimError
            raise CardsimError(f"seconds={self.seconds!r}: expected a positive number")


def compiled_deals_per_second(game_name: str, seconds: float) -> tuple[float, float]:
    """(best, median) deals per second of the game's compiled random-playout loop.

    The budget is split into many short runs (about 50 ms each); the best run is the machine's
    speed with the least interference from other processes (the convention of ``timeit``),
    the median says how noisy the machine was.
    """
    game = load_game(game_name)
    spec = game.spec
    policy = random_policy(game.definition)
    rng = rng_from_seed(12345)
    records = np.zeros((1, len(spec.record_columns)), dtype=np.int64)
    spec.play_random_deals(spec.params, rng, 1, records, spec.max_actions, policy)  # compile
    n = 1000
    while True:  # size one run to about 50 ms
        records = np.zeros((n, len(spec.record_columns)), dtype=np.int64)
        t = time.perf_counter()
        spec.play_random_deals(spec.params, rng, n, records, spec.max_actions, policy)
        dt = time.perf_counter() - t
        if dt > 0.05 or n >= 10_000_000:
            break
        n *= 2
    rates = [n / dt]
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end or len(rates) < 5:
        t = time.perf_counter()
        spec.play_random_deals(spec.params, rng, n, records, spec.max_actions, policy)
        rates.append(n / (time.perf_counter() - t))
    return max(rates), float(np.median(rates))


def ismcts_iterations_per_second(game_name: str, seconds: float) -> tuple[float, float]:
    """(best, median) ISMCTS iterations per second (one core, random rollouts) from the
    opening position of a seeded deal, in runs of about 0.1 s each."""
    from solvers import ismcts
    from solvers.agents import parse_agent, workspace
    spec = load_game(game_name).spec
    root = load_game(game_name).new_deal(seed=2024).vec
    rng = rng_from_seed(7)

    def run(iterations: int) -> float:
        agent = parse_agent(f"ismcts:iterations={iterations}")
        ws = workspace(spec, [agent])
        t = time.perf_counter()
        ismcts.search(spec.game_id, spec.params, root, agent.params, rng, ws.search,
                      spec.reward_scale)
        return iterations / (time.perf_counter() - t)

    run(10)  # compile
    n = 1000
    while n / run(n) < 0.1 and n < 10_000_000:
        n *= 2
    rates = []
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end or len(rates) < 5:
        rates.append(run(n))
    return max(rates), float(np.median(rates))


SOLVER_POSITIONS = 40
"""Seeded deals whose first position the solver benchmark solves (deals 0..39)."""


def solver_figures(game_name: str, positions: int = SOLVER_POSITIONS, pimc_deals: int = 2,
                   pimc_worlds: int = 50) -> dict:
    """The exact solver on ``positions`` seeded deals, each from its first move to the deal's
    end with an empty table: median and 99th-percentile seconds, nodes per second over all;
    and PIMC with ``pimc_worlds`` worlds: its mean seconds per decision over ``pimc_deals``
    whole deals (every decision of seat 0 with a choice, against the heuristic). Empty when
    the solver does not cover the game."""
    from solvers import exact, pimc
    from solvers.agents import choose, parse_agent, workspace
    game = load_game(game_name)
    spec = game.spec
    if exact.unsupported(spec):
        return {}
    ws = exact.workspace(spec)
    exact.solve(game.new_deal(seed=10_000), ws)                      # compile / load
    times, nodes = [], 0
    for seed in range(positions):
        state = game.new_deal(seed=seed)
        exact.clear(ws)
        t = time.perf_counter()
        exact.solve(state, ws)
        times.append(time.perf_counter() - t)
        nodes += int(ws.stats[exact.NODES])
    out = {"median": float(np.median(times)), "p99": float(np.quantile(times, 0.99)),
           "nodes_per_s": nodes / sum(times), "positions": positions,
           "pimc_worlds": pimc_worlds}
    agent = parse_agent(f"pimc:worlds={pimc_worlds}")
    heuristic = parse_agent("heuristic")
    aws = workspace(spec, [agent])
    rng = rng_from_seed(3)
    spent = []
    for seed in range(pimc_deals):
        state = game.new_deal(seed=seed)
        while not state.is_terminal():
            actions = np.array(state.legal_actions(), dtype=np.int64)
            if state.current_player() != 0 or len(actions) == 1:
                state.apply_action(choose(heuristic, state, seed=len(spent), ws=aws))
                continue
            t = time.perf_counter()
            best, _ = pimc.search(spec.game_id, spec.params, state.vec, agent.params, rng,
                                  actions, len(actions), aws.world, aws.totals, aws.values,
                                  aws.exact)
            spent.append(time.perf_counter() - t)
            state.apply_action(int(actions[best]))
    out["pimc_decision"] = float(np.mean(spent)) if spent else float("nan")
    out["pimc_decisions"] = len(spent)
    return out


def runner_figures(deals: int = 20_000) -> dict:
    """The experiment runner on a random-agent Scopa experiment at the default batch size:
    deals per second with 1 and 2 local worker processes (workers started and warmed up
    first, as in a long run), and the overhead per batch — the run's wall time beyond the
    batches' own compute time (scheduling, Parquet writes), relative to that compute."""
    import shutil
    from experiments.runner import RunConfig, run, run_batch
    from experiments.spec import parse_spec
    study = {"game": "scopa", "agents": ["random", "random"], "seed": 1,
             "size": {"deals": deals}}
    spec = parse_spec(study)
    out = {"batch_size": spec.batch_size, "deals": deals}
    with tempfile.TemporaryDirectory() as tmp:
        d = spec.to_dict()
        run_batch(d, 0, 0)                                     # compile / load in-process
        t = time.perf_counter()
        for b in range(-(-deals // spec.batch_size)):
            run_batch(d, 0, b)
        compute = time.perf_counter() - t
        for jobs in (1, 2):
            warm = parse_spec({**study, "seed": 2, "size": {"deals": 400}})
            run(warm, RunConfig(f"{tmp}/warm{jobs}", jobs=jobs, progress=False))
            t = time.perf_counter()
            run(spec, RunConfig(f"{tmp}/run{jobs}", jobs=jobs, progress=False))
            out[f"deals_per_s_{jobs}"] = deals / (time.perf_counter() - t)
            if jobs == 1:
                out["overhead"] = (deals / out["deals_per_s_1"] - compute) / compute
            shutil.rmtree(f"{tmp}/run{jobs}")
    return out


def reference_deals_per_second(game_name: str, seconds: float) -> float:
    """Deals per second of the game's plain-Python reference engine, with the same random
    player as the compiled loop."""
    game = load_game(game_name)
    module = importlib.import_module(f"cardsim.games.{game_name}.reference")
    engine = next(getattr(module, name) for name in dir(module) if name.startswith("Reference"))
    policy = random_policy(game.definition)
    choose = game.definition.choose_random or (lambda legal, policy, rnd: rnd.choice(legal))
    chooser = random.Random(1)
    deals = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = engine.new_deal(game.rules, deals)
        while not state.is_terminal():
            state.apply_action(choose(state.legal_actions(), policy, chooser))
        deals += 1
    return deals / (time.perf_counter() - t0)


def _timed_run(argv: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def startup_times(game_name: str) -> tuple[float, float]:
    """(cold, warm) seconds of ``cardsim simulate <game> --deals 1000`` in a fresh process:
    cold with an empty numba cache directory (everything compiles), warm with it filled."""
    argv = [sys.executable, "-m", "cardsim", "simulate", game_name, "--deals", "1000",
            "--seed", "1"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _timed_run(argv, env)
        warm = min(_timed_run(argv, env) for _ in range(2))
    return cold, warm


def bench(config: BenchConfig) -> list[tuple[str, str]]:
    """Run the measurements; return (figure, value) rows in print order."""
    rows = []
    if config.startup:
        cold, warm = startup_times(config.game)
        rows += [("cold start incl. compile (s)", f"{cold:.2f}"),
                 ("warm start of cardsim simulate (s)", f"{warm:.2f}")]
    fast, typical = compiled_deals_per_second(config.game, config.seconds)
    slow = reference_deals_per_second(config.game, config.seconds)
    rows += [("compiled engine, best run (deals/s, 1 core)", f"{fast:,.0f}"),
             ("compiled engine, median run (deals/s)", f"{typical:,.0f}"),
             ("reference engine (deals/s)", f"{slow:,.0f}"),
             ("compiled (best) / reference", f"{fast / slow:,.0f}x")]
    best, median = ismcts_iterations_per_second(config.game, config.seconds)
    rows += [("ISMCTS from the opening, best run (iterations/s, 1 core, random rollouts)",
              f"{best:,.0f}"),
             ("ISMCTS, median run (iterations/s)", f"{median:,.0f}")]
    if config.solver:
        f = solver_figures(config.game)
        if f:
            rows += [(f"exact solver, a deal from its first move, median of {f['positions']} "
                      "(ms, 1 core)", f"{1000 * f['median']:,.1f}"),
                     ("exact solver, 99th percentile (ms)", f"{1000 * f['p99']:,.1f}"),
                     ("exact solver (nodes/s)", f"{f['nodes_per_s']:,.0f}"),
                     (f"PIMC {f['pimc_worlds']} worlds, mean decision over "
                      f"{f['pimc_decisions']} decisions (s)",
                      f"{f['pimc_decision']:.3f}")]
    if config.runner:
        r = runner_figures()
        rows += [(f"runner, 1 worker (deals/s; random Scopa, batches of {r['batch_size']})",
                  f"{r['deals_per_s_1']:,.0f}"),
                 ("runner, 2 workers (deals/s)", f"{r['deals_per_s_2']:,.0f}"),
                 ("runner, 2 workers / 1 worker",
                  f"{r['deals_per_s_2'] / r['deals_per_s_1']:.2f}x"),
                 ("runner overhead per batch (of the batch's compute)",
                  f"{100 * r['overhead']:.1f}%")]
    return rows
