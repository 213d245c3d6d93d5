"""``cardsim bench``: speed of the compiled engine against the reference engine, in one run.

Measures random-playout deals per second of the compiled engine (its own play loop, one core)
and of the plain-Python reference engine on the same machine in the same run, and their ratio;
the cold compile time (a fresh process with an empty numba cache) and the warm start time of
``cardsim simulate`` (a fresh process with the cache filled); ISMCTS iterations per second
from the opening position of a deal (2 players, random rollouts); the time of a deal drawn
under a rare condition (the game's :attr:`~cardsim.protocol.spec.GameDefinition.bench_where`,
constructed) against a plain deal; and the exact
solver's time
per deal over a fixed set of seeded deals (median, 99th percentile, nodes per second) with
PIMC's time per decision. With the ``openspiel`` extra: random play through OpenSpiel over
cardsim's game and over the game's reference engine written as an OpenSpiel Python game
(:mod:`.openspiel_baseline`), in OpenSpiel's standard loop and with the chance action given
directly (the direct loop), in the same rounds, with their ratios (:func:`openspiel_figures`).
Figures are measurements, never guesses: report them as printed.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from cardsim.compiled.rng import rng_from_seed
from cardsim.game import load_game
from cardsim.simulate import random_policy


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
            from cardsim.errors import CardsimError
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
    rows = np.zeros((1, len(spec.row_columns)), dtype=np.int64)
    carry = np.zeros(spec.state_len + 1, dtype=np.uint64)
    spec.play_random_deals(spec.params, rng, 1, rows, spec.max_actions, policy, carry)  # compile
    n = 1000
    while True:  # size one run to about 50 ms
        rows = np.zeros((n, len(spec.row_columns)), dtype=np.int64)
        t = time.perf_counter()
        spec.play_random_deals(spec.params, rng, n, rows, spec.max_actions, policy, carry)
        dt = time.perf_counter() - t
        if dt > 0.05 or n >= 10_000_000:
            break
        n *= 2
    rates = [n / dt]
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end or len(rates) < 5:
        t = time.perf_counter()
        spec.play_random_deals(spec.params, rng, n, rows, spec.max_actions, policy, carry)
        rates.append(n / (time.perf_counter() - t))
    return max(rates), float(np.median(rates))


def ismcts_iterations_per_second(game_name: str, seconds: float,
                                 options: str = "") -> tuple[float, float]:
    """(best, median) ISMCTS iterations per second (one core; random rollouts, or the search
    ``options`` ask for, such as ``rollout=heuristic`` or ``leaf=net``) from the opening
    position of a seeded deal, in runs of about 0.1 s each."""
    from cardsim.solvers import ismcts
    from cardsim.solvers.agents import parse_agent, switches, workspace
    spec = load_game(game_name).spec
    root = load_game(game_name).new_deal(seed=2024).vec
    rng = rng_from_seed(7)

    def run(iterations: int) -> float:
        agent = parse_agent(f"ismcts:iterations={iterations}" + (f",{options}" if options
                                                                  else ""))
        ws = workspace(spec, [agent])
        on = {k: v for k, v in switches([agent]).items() if k in ismcts.search.all_switches()}
        t = time.perf_counter()
        ismcts.search[spec, on](spec.params, root, agent.params, rng, ws.search,
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


def endgame(game, seed: int, limit: int):
    """Seeded deal ``seed``: its first position, or for an endgame solver (``limit`` =
    ``max_cards``) the first position of a random line of play with at most ``limit`` cards
    left to play (the next seed's, when the line ends the deal first)."""
    import random
    if not limit:
        return game.new_deal(seed=seed)
    from cardsim.solvers import exact
    while True:
        state = game.new_deal(seed=seed)
        rnd = random.Random(seed)
        while exact.cards_left(state) > limit:
            state.apply_action(rnd.choice(state.legal_actions()))
        if not state.is_terminal():
            return state
        seed += 1


def solver_figures(game_name: str, positions: int = SOLVER_POSITIONS, pimc_deals: int = 2,
                   pimc_worlds: int = 50) -> dict:
    """The exact solver on ``positions`` seeded deals, each from its first move to the deal's
    end with an empty table (an endgame solver, Minchiate: from the endgame of at most
    ``max_cards`` cards left, :func:`endgame`): median and 99th-percentile seconds, nodes per
    second over all; and PIMC with ``pimc_worlds`` worlds: its mean seconds per decision over
    ``pimc_deals`` whole deals (every decision of seat 0 with a choice, against the
    heuristic; not for an endgame solver). Empty when the solver does not cover the game."""
    from cardsim.solvers import exact, pimc
    from cardsim.solvers.agents import choose, parse_agent, workspace
    game = load_game(game_name)
    spec = game.spec
    if spec.exact is None:
        return {}
    ws = exact.workspace(spec)
    limit = spec.exact.max_cards
    exact.solve(endgame(game, 10_000, limit), ws)                     # compile / load
    times, nodes = [], 0
    for seed in range(positions):
        state = endgame(game, seed, limit)
        exact.clear(ws)
        t = time.perf_counter()
        exact.solve(state, ws)
        times.append(time.perf_counter() - t)
        nodes += int(ws.stats[exact.NODES])
    out = {"median": float(np.median(times)), "p99": float(np.quantile(times, 0.99)),
           "nodes_per_s": nodes / sum(times), "positions": positions,
           "pimc_worlds": pimc_worlds, "cards_left": limit or None}
    if limit:                        # an endgame solver: no PIMC (cardsim.solvers.agents.endgames_only)
        out.update(pimc_decision=float("nan"), pimc_decisions=0)
        return out
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
            best, _ = pimc.search[spec](spec.params, state.vec, agent.params, rng, actions,
                                        len(actions), aws.world, aws.totals, aws.values,
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

    from cardsim.experiments.runner import RunConfig, run, run_batch
    from cardsim.experiments.spec import parse_spec
    study = {"game": "scopa", "agents": ["random", "random"], "seed": 1,
             "size": {"deals": deals}}
    spec = parse_spec(study)
    out = {"batch_size": spec.batch_size, "deals": deals}
    with tempfile.TemporaryDirectory() as tmp:
        run_batch(spec, 0, 0)                                  # compile / load in-process
        t = time.perf_counter()
        for b in range(-(-deals // spec.batch_size)):
            run_batch(spec, 0, b)
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
    module, _, name = game.definition.reference.partition(":")
    engine = getattr(importlib.import_module(module), name)
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


def rare_deal_figures(game_name: str, deals: int = 200) -> dict:
    """A deal drawn under the game's :attr:`~cardsim.protocol.spec.GameDefinition.bench_where`
    (constructed) against a plain
    ``new_deal``, in seconds a deal (after the condition's one-time trial), with the chance of
    the constructed event and the share of constructed tries kept."""
    from cardsim.deals import acceptance, construction, deal_where, parse_where
    game = load_game(game_name)
    where = parse_where(game, game.definition.bench_where)
    deal_where(game, 0, where)
    made = construction(game, where)
    start = time.perf_counter()
    for seed in range(1, deals + 1):
        deal_where(game, seed, where)
    rare = (time.perf_counter() - start) / deals
    start = time.perf_counter()
    for seed in range(10 * deals):
        game.new_deal(seed)
    plain = (time.perf_counter() - start) / (10 * deals)
    return {"rare": rare, "plain": plain, "chance": made.chance,
            "kept": acceptance(game, where, made)}


def openspiel_standard_deal(game, sampler: np.random.RandomState, chooser: random.Random) -> int:
    """One deal of OpenSpiel's standard random loop (its ``example.py``; its MCTS rollouts
    sample chance alike): at a chance node ``chance_outcomes()``, split by ``zip`` and drawn
    by ``numpy``'s ``choice`` with their probabilities; at a decision ``random.choice`` of
    ``legal_actions()``; then ``apply_action``; the returns read at the end. Its moves."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = sampler.choice(actions, p=probs)
        else:
            action = chooser.choice(state.legal_actions())
            moves += 1
        state.apply_action(action)
    state.returns()
    return moves


def openspiel_direct_deal(game, sampler: np.random.RandomState, chooser: random.Random) -> int:
    """One deal of the direct loop: the standard loop with the chance actions given directly (a
    deal seed drawn by ``random.randrange``, the seeds being equally likely, its digits
    applied without ``chance_outcomes()``); the decisions as there."""
    from cardsim.interop.openspiel import DEFAULT_DEAL_SEEDS, SeedDraw
    state = game.new_initial_state()
    for digit in SeedDraw(DEFAULT_DEAL_SEEDS).digits_of(chooser.randrange(DEFAULT_DEAL_SEEDS)):
        state.apply_action(digit)
    moves = 0
    while not state.is_terminal():
        state.apply_action(chooser.choice(state.legal_actions()))
        moves += 1
    state.returns()
    return moves


def openspiel_chance_draw(game, sampler: np.random.RandomState, chooser: random.Random) -> int:
    """The standard loop's draws at the chance nodes alone (:func:`openspiel_standard_deal`):
    what they cost a deal over the direct loop, whatever the game. No moves."""
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(sampler.choice(actions, p=probs))
    return 0


OPENSPIEL_LOOPS = {"standard": openspiel_standard_deal, "direct": openspiel_direct_deal}
"""The loops of :func:`openspiel_figures`, by name."""


def openspiel_figures(game_name: str, seconds: float) -> dict:
    """Random play through OpenSpiel (the ``openspiel`` extra): deals per second of each loop
    of :data:`OPENSPIEL_LOOPS` over cardsim's game (:mod:`cardsim.interop.openspiel`) and over
    the baseline, the game's plain-Python reference engine as an OpenSpiel Python game
    (:mod:`cardsim.app.openspiel_baseline`), one core. The budget is split into rounds; a round
    runs each loop over each game for about 0.1 s, one after the other, so that the two games
    share the machine's load; each figure is the median (and the best) of its rounds, each
    ratio the median of the rounds' ratios. Keys: ``<loop>`` and ``<loop>_baseline`` (median
    deals/s), ``<loop>_best``, ``<loop>_ratio`` (cardsim / baseline), ``chance_draw_us``
    (:func:`openspiel_chance_draw`, microseconds, median), and for the direct loop
    ``deals_per_s`` (best), ``deals_per_s_median`` and ``moves_per_s`` (of the best run)."""
    import pyspiel

    import cardsim.interop.openspiel  # noqa: F401  (registers the games)
    from cardsim.app.openspiel_baseline import load
    games = {"": pyspiel.load_game(f"cardsim_{game_name}"), "_baseline": load(game_name)}
    sampler, chooser = np.random.RandomState(1), random.Random(1)

    def run(loop, game, budget: float) -> tuple[float, float]:
        deals = moves = 0
        t0 = time.perf_counter()
        while True:
            moves += loop(game, sampler, chooser)
            deals += 1
            dt = time.perf_counter() - t0
            if dt >= budget:
                return deals / dt, moves / dt

    for loop in OPENSPIEL_LOOPS.values():      # compile and warm up
        for game in games.values():
            run(loop, game, 0.02)
    runs: dict[str, list[tuple[float, float]]] = {}
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end or len(runs.get("direct", ())) < 3:
        for name, loop in OPENSPIEL_LOOPS.items():
            for suffix, game in games.items():
                runs.setdefault(name + suffix, []).append(run(loop, game, 0.1))
        runs.setdefault("draw", []).append(run(openspiel_chance_draw, games[""], 0.02))
    out = {"chance_draw_us": 1e6 / float(np.median([d for d, _ in runs["draw"]]))}
    for name in OPENSPIEL_LOOPS:
        ours, theirs = runs[name], runs[name + "_baseline"]
        out[name] = float(np.median([d for d, _ in ours]))
        out[name + "_best"] = max(d for d, _ in ours)
        out[name + "_baseline"] = float(np.median([d for d, _ in theirs]))
        out[name + "_ratio"] = float(np.median([a / b for (a, _), (b, _) in zip(ours, theirs)]))
    best = max(runs["direct"])
    out.update(deals_per_s=best[0], deals_per_s_median=out["direct"], moves_per_s=best[1])
    return out


def openspiel_ismcts_per_second(game_name: str, seconds: float) -> float:
    """OpenSpiel's Python ISMCTS bot (random rollouts) over cardsim's game: its simulations
    per second from the opening position of the deal of seed 2024, the figure to set beside
    :func:`ismcts_iterations_per_second` (the same algorithm compiled)."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from cardsim.interop.openspiel import DEFAULT_DEAL_SEEDS, SeedDraw  # registers the games
    game = pyspiel.load_game(f"cardsim_{game_name}")
    state = game.new_initial_state()
    for digit in SeedDraw(DEFAULT_DEAL_SEEDS).digits_of(2024 % DEFAULT_DEAL_SEEDS):
        state.apply_action(digit)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    sims = 20
    while True:
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims,
                               random_state=rng)
        t = time.perf_counter()
        bot.step(state)
        dt = time.perf_counter() - t
        if dt >= min(seconds, 1.0) or sims >= 100_000:
            return sims / dt
        sims *= 2


def openspiel_rows(o: dict) -> list[tuple[str, str]]:
    """:func:`openspiel_figures` as printed rows: each loop over cardsim and over the baseline
    (the Python reference), and their ratio; the standard loop's chance draw alone."""
    rows = []
    for loop in OPENSPIEL_LOOPS:
        what = f"OpenSpiel {loop} loop"
        rows += [(f"{what} over cardsim, median run (deals/s, 1 core)", f"{o[loop]:,.0f}"),
                 (f"{what} over the Python reference, median (deals/s)",
                  f"{o[loop + '_baseline']:,.0f}"),
                 (f"{what}: cardsim / Python reference", f"{o[loop + '_ratio']:.1f}x")]
    return rows + [("OpenSpiel standard loop: its chance draws alone (us a deal, any game)",
                    f"{o['chance_draw_us']:,.0f}"),
                   ("OpenSpiel random play over cardsim, best run (deals/s, 1 core)",
                    f"{o['deals_per_s']:,.0f}")]


def _timed_run(argv: list[str], env: dict, cwd: str | None = None) -> tuple[float, float]:
    """(seconds, peak resident memory in MB) of a command run to its end in a fresh process;
    a failure is raised with the command's own last lines."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read()
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[2:])} failed ({proc.returncode}): {err[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


STARTUP_COMMANDS = ("simulate", "simulate-where", "run", "run-exact", "run-match", "run-net",
                    "run-pimc-net", "run-infer", "analyze", "solve", "equity", "review",
                    "review-infer", "train")
"""The commands :func:`startup_figures` starts cold and warm (``run-exact``: ``run`` with an
ISMCTS agent that plays exact endgames, ``exact=6``; it and ``solve`` where the game has an
exact solver; ``run-match``: a whole match against an ISMCTS agent that values a deal's end
by a match-equity table, ``value=match``, and ``equity``, a table from 20 heuristic deals,
where the game has a match model; under its :attr:`~cardsim.protocol.spec.GameDefinition.match_rules`; ``review``: a heuristic deal's
record reviewed for seat 0, 200 worlds a decision (the game's default worlds: inference's in
Bura and Mushka), and ``review-infer`` the same on inference's worlds in every game
(``--infer``: the weighing of worlds and the game's ``world_start``);
``run-net``:
``run`` with an ISMCTS agent whose leaves the game's shipped value network values,
``leaf=net``; ``run-pimc-net``: ``run`` with PIMC over that network, ``pimc:leaf=net``, four
worlds a move; ``run-infer``: ``run`` with an ISMCTS agent whose worlds inference weighs,
``infer=0.3`` (the game loop's record of the deal and the weighing at the root); ``train``: ``cardsim train`` on 20 deals, one round, a check of 2 deals;
``simulate-where``: 200 deals drawn under the game's
:attr:`~cardsim.protocol.spec.GameDefinition.bench_where`, which rejection cannot draw
in reasonable time, so that they are constructed and dealt by ``deal_cards``)."""
def startup_argv(game_name: str, command: str, folder: str, tag: str) -> list[str] | None:
    """The command line of one start-up measurement of ``command`` for the game (files it
    needs are written into ``folder``; ``tag`` keeps a run's output folder new), or None when
    the game has no such command (``solve`` without an exact solver)."""
    game = load_game(game_name)
    cli = [sys.executable, "-m", "cardsim"]
    if command == "simulate":
        return cli + ["simulate", game_name, "--deals", "1000", "--seed", "1", "--quiet"]
    if command == "simulate-where":
        return cli + ["simulate", game_name, "--deals", "200", "--seed", "1", "--quiet",
                      "--where", json.dumps(game.definition.bench_where)]
    rules = game.definition.match_rules
    if command == "train":
        return cli + ["train", game_name, "--deals", "20", "--rounds", "1", "--hidden", "4",
                      "--epochs", "1", "--check-deals", "2", "--check-iterations", "10",
                      "--out", os.path.join(folder, f"train-{tag}"), "--quiet"]
    if command in ("run", "run-exact", "run-match", "run-net", "run-pimc-net",
                   "run-infer"):  # against the heuristic
        if (command == "run-exact" and game.spec.exact is None
                or command == "run-match" and game.definition.match_cell is None):
            return None
        n = game.num_players
        agent = ("pimc:leaf=net,worlds=4" if command == "run-pimc-net" else
                 "ismcts:iterations=50" + {"run-exact": ",exact=6", "run-match": ",value=match",
                                           "run-net": ",leaf=net",
                                           "run-infer": ",infer=0.3"}.get(command, ""))
        extra = ""
        if command == "run-match":      # a whole match; its table made here, not timed
            table = os.path.join(folder, "match-equity")
            if not os.path.exists(table):
                from cardsim.experiments.equity import EquityConfig, run_equity
                run_equity(EquityConfig(game=game_name, rules=rules, deals=20, boot=10),
                           table, progress=False)
            extra = f'unit = "match"\nequity = "{table}"\n' + "".join(
                f"rules.{k} = {json.dumps(v)}\n" for k, v in rules.items())
        spec = os.path.join(folder, f"startup-{command}.toml")
        with open(spec, "w", encoding="utf-8") as f:
            f.write(f'game = "{game_name}"\nagents = ["heuristic", "{agent}"]\n{extra}'
                    f"matchups = [{[s % 2 for s in range(n)]}]\nbatch_size = {1 if extra else 2}\n"
                    f"seed = 1\n[size]\ndeals = {1 if extra else 2}\n")
        return cli + ["run", spec, "--out", os.path.join(folder, f"{command}-{tag}"), "--quiet"]
    if command == "equity":
        if game.definition.match is None:
            return None
        options = [w for k, v in rules.items() for w in ("--option", f"{k}={v}")]
        return cli + ["equity", game_name, *options, "--deals", "20", "--boot", "10",
                      "--out", os.path.join(folder, f"equity-{tag}"), "--quiet"]
    if command in ("review", "review-infer"):
        record = os.path.join(folder, "record.json")
        if not os.path.exists(record):
            from cardsim.solvers.agents import play
            deal = game.new_deal(seed=1)
            play(deal, ["heuristic"] * game.num_players, seed=1)
            deal.record(["heuristic"] * game.num_players).write(record)
        return cli + ["review", record, "--player", "0", "--worlds", "200", "--json",
                      *(["--infer"] if command == "review-infer" else [])]
    position = os.path.join(folder, "position.json")
    state = game.new_deal(seed=1)
    if command == "solve":
        if game.spec.exact is None:
            return None
        import random
        if game.spec.exact.max_cards:   # an endgame solver: an endgame
            state = endgame(game, 1, game.spec.exact.max_cards)
        else:
            rnd = random.Random(1)
            for _ in range(12):         # a position some moves into the deal
                if not state.is_terminal() and len(state.legal_actions()) > 0:
                    actions = [a for a in state.legal_actions() if state.action_to_string(a)
                               != "claim"]
                    state.apply_action(rnd.choice(actions or state.legal_actions()))
            if state.is_terminal():
                state = game.new_deal(seed=1)
    with open(position, "w", encoding="utf-8") as f:
        json.dump(state.to_dict(), f)
    if command == "solve":
        return cli + ["solve", game_name, position]
    return cli + ["analyze", game_name, position, "--player", str(state.current_player()),
                  "--worlds", "4", "--agent", "ismcts:iterations=50"]


def startup_figures(game_name: str, commands=STARTUP_COMMANDS) -> list[dict]:
    """For each command: the seconds of a cold start (a fresh process, an empty cache folder:
    everything it runs compiles), of a warm start (the same again: everything loads), and the
    peak memory of the cold one."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for command in commands:
            cache = os.path.join(folder, f"cache-{command}")
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            argv = startup_argv(game_name, command, folder, "cold")
            if argv is None:
                continue
            cold, memory = _timed_run(argv, env)
            warm = min(_timed_run(startup_argv(game_name, command, folder, f"warm{i}"), env)[0]
                       for i in range(2))
            out.append({"command": command, "cold": cold, "warm": warm, "memory": memory})
    return out


def demo_figures() -> dict:
    """``cardsim demo`` cold (an empty cache folder) and warm (again, into a new folder), in
    seconds, and the cold run's peak memory (the largest of its processes)."""
    argv = [sys.executable, "-m", "cardsim", "demo", "--quiet"]
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(folder, "cache"))
        cold, memory = _timed_run(argv + ["--out", os.path.join(folder, "cold")], env)
        warm, _ = _timed_run(argv + ["--out", os.path.join(folder, "warm")], env)
    return {"cold": cold, "warm": warm, "memory": memory}


def startup_rows(games, demo: bool = False) -> list[tuple[str, str]]:
    """:func:`startup_figures` of each game (and :func:`demo_figures`) as printed rows."""
    rows = []
    for name in games:
        for f in startup_figures(name):
            rows += [(f"{name} {f['command']}: cold start (s, empty cache)", f"{f['cold']:.1f}"),
                     (f"{name} {f['command']}: warm start (s)", f"{f['warm']:.2f}"),
                     (f"{name} {f['command']}: peak memory of the cold start (MB)",
                      f"{f['memory']:,.0f}")]
    if demo:
        f = demo_figures()
        rows += [("cardsim demo: cold (s, empty cache)", f"{f['cold']:.1f}"),
                 ("cardsim demo: warm (s)", f"{f['warm']:.1f}"),
                 ("cardsim demo: peak memory of the cold run (MB)", f"{f['memory']:,.0f}")]
    return rows


def bench(config: BenchConfig) -> list[tuple[str, str]]:
    """Run the measurements; return (figure, value) rows in print order."""
    rows = []
    if config.startup:
        f = startup_figures(config.game, ("simulate",))[0]
        rows += [("cold start of cardsim simulate incl. compile (s)", f"{f['cold']:.2f}"),
                 ("warm start of cardsim simulate (s)", f"{f['warm']:.2f}")]
    fast, typical = compiled_deals_per_second(config.game, config.seconds)
    slow = reference_deals_per_second(config.game, config.seconds)
    rows += [("compiled engine, best run (deals/s, 1 core)", f"{fast:,.0f}"),
             ("compiled engine, median run (deals/s)", f"{typical:,.0f}"),
             ("reference engine (deals/s)", f"{slow:,.0f}"),
             ("compiled (best) / reference", f"{fast / slow:,.0f}x")]
    if importlib.util.find_spec("pyspiel") is not None:     # the openspiel extra
        rows += openspiel_rows(openspiel_figures(config.game, config.seconds))
    d = rare_deal_figures(config.game)
    rows += [("rare condition (drawn by construction)", json.dumps(load_game(config.game).definition.bench_where)),
             ("a deal under the rare condition (ms)", f"{1000 * d['rare']:.2f}"),
             ("a plain new_deal (ms)", f"{1000 * d['plain']:.3f}"),
             ("rare deal / plain deal", f"{d['rare'] / d['plain']:,.0f}x"),
             ("constructed event's chance; constructed tries kept",
              f"{d['chance']:.1e}; {100 * d['kept']:.1f}%")]
    best, median = ismcts_iterations_per_second(config.game, config.seconds)
    rows += [("ISMCTS from the opening, best run (iterations/s, 1 core, random rollouts)",
              f"{best:,.0f}"),
             ("ISMCTS, median run (iterations/s)", f"{median:,.0f}")]
    heuristic, _ = ismcts_iterations_per_second(config.game, config.seconds, "rollout=heuristic")
    net, _ = ismcts_iterations_per_second(config.game, config.seconds,
                                          "rollout=heuristic,leaf=net")
    rows += [("ISMCTS, heuristic play-outs, best run (iterations/s)", f"{heuristic:,.0f}"),
             ("ISMCTS, leaves valued by the learned evaluation (leaf=net), best run "
              "(iterations/s)", f"{net:,.0f}"),
             ("leaf=net / heuristic play-outs", f"{net / heuristic:.1f}x")]
    if importlib.util.find_spec("pyspiel") is not None:
        rows.append(("OpenSpiel's Python ISMCTS over cardsim (simulations/s, random rollouts)",
                     f"{openspiel_ismcts_per_second(config.game, config.seconds):,.0f}"))
    if config.solver:
        f = solver_figures(config.game)
        if f:
            start = (f"an endgame of {f['cards_left']} cards left" if f["cards_left"]
                     else "a deal from its first move")
            rows += [(f"exact solver, {start}, median of {f['positions']} (ms, 1 core)",
                      f"{1000 * f['median']:,.1f}"),
                     ("exact solver, 99th percentile (ms)", f"{1000 * f['p99']:,.1f}"),
                     ("exact solver (nodes/s)", f"{f['nodes_per_s']:,.0f}")]
            if f["pimc_decisions"]:
                rows.append((f"PIMC {f['pimc_worlds']} worlds, mean decision over "
                             f"{f['pimc_decisions']} decisions (s)", f"{f['pimc_decision']:.3f}"))
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
