"""The engines' subcommands: ``games`` (the games and their options), ``simulate`` (random
deals), ``compile`` (the compiled code ahead of time) and ``bench`` (the measurements of
:mod:`.bench`).

Each ``add_<command>(sub)`` adds its subcommand's parser, with its handler ``cmd_<command>``
beside it; :data:`SUBCOMMANDS` lists them for :func:`cardsim.app.cli.make_parser`. A handler
imports the heavier modules it calls when it runs, so that the command line starts fast.
"""
from __future__ import annotations

import argparse
import dataclasses
import json

import pandas as pd

from cardsim import __version__
from cardsim.errors import CardsimError
from cardsim.game import definition, list_games
from cardsim.protocol.options import describe, parse_option_pairs

from .arguments import int_at_least, rules_option, seconds, where_of
from .output import Output, add_format, text_table

# --- games ---------------------------------------------------------------------------------------


def add_games(sub) -> None:
    p = sub.add_parser("games", help="list the games, their options and defaults")
    add_format(p)
    p.set_defaults(handler=cmd_games)


def cmd_games(args: argparse.Namespace) -> int:
    """List the games, their options, allowed values and defaults (each option with the rule
    it sets, ``cardsim rules GAME RULE-ID``)."""
    with Output(args.format) as out:
        for name in list_games():
            d = definition(name)
            options = pd.DataFrame([{
                "option": o["name"], "default": o["default"],
                "meaning": f"{o['doc']}; allowed: {', '.join(o['allowed'])} ({o['rule']})"}
                for o in describe(d.rules_type)])
            out.table(name, options, title=f"{name}: {d.summary}",
                      kinds=dict.fromkeys(options.columns, "text"),
                      note=f"The rules: cardsim rules {name} [RULE-ID].")
    return 0


# --- simulate ------------------------------------------------------------------------------------

def add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play random deals and print statistics")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("--deals", type=int_at_least(1, "positive"), default=10_000,
                   help="deals to play (10000; at most 2**63 - 1), summarised chunk by chunk "
                   "in constant memory")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=0,
                   help="root seed (0)")
    rules_option(p, "a rules option, repeatable (see `cardsim games`)")
    p.add_argument("--player", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the random player, repeatable. The random player picks "
                   "uniformly among the legal actions; in Bura it claims 31 with probability "
                   "claim_probability (default 0.1) at each check point where a claim is legal "
                   "and otherwise picks uniformly among its other actions. In Mushka's exchange "
                   "it passes with probability pass_probability (0.25; it stands instead while "
                   "holding the ace of spades), stands with stand_probability (0.25) and "
                   "otherwise exchanges a uniformly chosen allowed set of cards; offered the "
                   "stop (stop_mode=declared) it stops with stop_probability (0.5). Mushka's "
                   "deals are played as whole games, one after another")
    p.add_argument("--players", type=int_at_least(2, "at least 2"), default=None,
                   help="number of players (the same as --option num_players=N)")
    p.add_argument("--where", metavar="JSON", default=None,
                   help="deal only deals whose initial cards satisfy this condition (JSON, "
                   "cardsim.deals), e.g. '{\"hold\": {\"0\": [\"7co\"]}}', played one by one "
                   "by the uniform random agent; prints each seat's mean return and categories")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_format(p)
    p.set_defaults(handler=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play random deals and print the game's tables."""
    from cardsim.simulate import SimulationConfig, simulate
    options = parse_option_pairs(args.option)
    if args.players is not None:
        fields = {f.name for f in dataclasses.fields(definition(args.game).rules_type)}
        if "num_players" not in fields:
            raise CardsimError(f"{args.game} has a fixed number of players: drop --players")
        if "num_players" in options and options["num_players"] != str(args.players):
            raise CardsimError(f"--players {args.players} contradicts --option "
                               f"num_players={options['num_players']}")
        options["num_players"] = str(args.players)
    if args.where is not None:
        return _simulate_where(args, options)
    config = SimulationConfig(game=args.game, deals=args.deals, seed=args.seed,
                              options=options,
                              player=parse_option_pairs(args.player),
                              progress=not args.quiet)
    definition(config.game)
    result = simulate(config)
    with Output(args.format) as out:
        print_simulation(config, result, out)
    return 0


def print_simulation(config, result, out: Output) -> None:
    """What was played (the random player's parameters, the seed, the rules changed from their
    defaults), then the game's tables."""
    from cardsim.protocol.options import non_default
    changed = non_default(result.rules)
    d = definition(config.game)
    player = ", ".join(f"{name}={config.player.get(name, default)}"
                       for name, default, _ in d.random_player)
    out.say(f"{config.game}: {config.deals:,} deals with random legal actions"
            + (f" ({player})" if player else "") + f", seed {config.seed}, rules: "
            + (", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults")
            + "; 95% confidence intervals in brackets.")
    for title, table in result.tables.items():
        out.table(title, text_table(table))


def _simulate_where(args: argparse.Namespace, options: dict) -> int:
    """``cardsim simulate --where``: deals drawn under the condition one by one (deal ``i``
    from ``SeedSequence([seed, i])``, :mod:`cardsim.deals`), played by the uniform random agent;
    each seat's mean return and scoring categories."""
    from tqdm import tqdm

    from cardsim.deals import parse_where
    from cardsim.experiments.rows import duplicate_rows
    from cardsim.game import load_game
    from cardsim.solvers.duplicate import play_duplicate
    if args.player:
        raise CardsimError("--player sets the compiled random loop's player; with --where the "
                           "deals are played by the uniform random agent: drop --player")
    where = where_of(args.where)
    game = load_game(args.game, **options)
    condition = parse_where(game, where)
    with tqdm(total=args.deals, unit="deal", disable=True if args.quiet else None,
              leave=False, desc=f"{game.name} deals") as bar:
        rows = duplicate_rows(play_duplicate(game, ["random"] * game.num_players, args.deals,
                                             seed=(args.seed,), rotate=False,
                                             progress=bar.update, where=condition))
    with Output(args.format) as out:
        print_where(game, condition, args.deals, args.seed, rows, out)
    return 0


def print_where(game, condition, deals: int, seed: int, rows: pd.DataFrame,
                out: Output) -> None:
    """``simulate --where``'s table: each seat's mean return and categories per deal."""
    from cardsim.experiments.rows import RETURN, at_seat, category, category_names
    from cardsim.stats import mean_interval
    out.say(f"{game.name}: {deals:,} deals where {json.dumps(dict(condition.canonical))}, "
            f"uniform random legal actions, seed {seed}; 95% confidence intervals in "
            "brackets.")
    present = set(category_names(rows))       # the categories the game shows, in its order
    names = [c for c in (*game.definition.categories, "total") if c in present]
    stems = [RETURN] + [category(name) for name in names]
    table: dict[str, list] = {"figure": ["return", *names]}
    seats = [f"seat {s}" for s in range(game.num_players)]
    for s, seat in enumerate(seats):
        values = [mean_interval(rows[at_seat(stem, s)].to_numpy()) for stem in stems]
        for k, end in enumerate(("", "_lo", "_hi")):
            table[f"{seat}{end}"] = [v[k] for v in values]
    out.table("per seat", pd.DataFrame(table), title="Per seat: mean per deal [95%]",
              kinds=dict.fromkeys(seats, "points"))


# --- compile ---------------------------------------------------------------------------------------

def add_compile(sub) -> None:
    p = sub.add_parser("compile", help="compile the games' engines, agents and solvers ahead "
                       "of time (one process per game), so that no later command waits")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to compile (all)")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=2,
                   help="games compiled at once, one process each (2)")
    p.add_argument("--part", action="append", choices=["engine", "agents", "analyze", "exact"],
                   help="only this part, repeatable (all: engine, agents, analyze, exact)")
    p.add_argument("--prune", action="store_true",
                   help="first remove the cache folders of other versions of the sources "
                   "(it reads no file: --repair checks them)")
    p.add_argument("--repair", action="store_true",
                   help="first remove the damaged files of this version's cache folders (an "
                   "index or compiled code whose checksum or contents do not load, a folder "
                   "or a link in the place of one), a line each; a command that meets one "
                   "removes it too and compiles its function again")
    p.set_defaults(handler=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile (or load) the games' compiled code ahead of time, one process per game; first,
    with ``--prune``, remove the cache folders of other versions and, with ``--repair``, the
    damaged files of this version's (each named; one not removable is an error)."""
    from cardsim.compiled.cache import base_folder, prune, repair
    for name in args.games:               # before pruning anything
        definition(name)
    if args.prune:
        removed = prune(list_games())
        print(f"removed {len(removed)} cache folder(s) of other versions from {base_folder()}")
    if args.repair:
        found = repair(list_games())
        for path, why, error in found:
            print(f"{'removed' if error is None else 'cannot remove'} "
                  f"{path.parent.name}/{path.name}: {why}" + (f" ({error})" if error else ""))
        kept = sum(error is not None for _, _, error in found)
        print(f"removed {len(found) - kept} damaged cache file(s) from {base_folder()}")
        if kept:
            raise CardsimError(f"{kept} damaged cache file(s) could not be removed: see above")
    if (args.prune or args.repair) and not args.games:
        return 0
    games = args.games or list_games()
    from cardsim.solvers.warmup import compile_games
    for result in compile_games(games, jobs=args.jobs, parts=tuple(args.part or ())):
        what = (f"compiled in {result['compile_seconds']:.1f} s" if result["compiled"]
                else "already compiled (loaded from the cache)")
        print(f"{result['game']}: {what}, {result['seconds']:.1f} s in all")
    print(f"cache: {base_folder()}")
    return 0


# --- bench -----------------------------------------------------------------------------------------

def add_bench(sub) -> None:
    p = sub.add_parser("bench", help="measure engine speed (compiled vs reference, start-up)")
    p.add_argument("--game", default=None, help="game to measure (scopa; with --startup: "
                   "every game)")
    p.add_argument("--startup", action="store_true",
                   help="only the start-up figures, per game: cold (an empty cache) and warm "
                   "starts of simulate, a one-batch run (heuristic against ISMCTS), analyze "
                   "and solve, and the peak memory of each cold start")
    p.add_argument("--demo", action="store_true",
                   help="with --startup: also cardsim demo, cold and warm")
    p.add_argument("--seconds", type=seconds, default=2.0, help="budget per measurement (2)")
    p.add_argument("--no-startup", action="store_true",
                   help="skip the cold-compile and warm-start measurements")
    p.add_argument("--no-solver", action="store_true",
                   help="skip the exact solver and PIMC measurements")
    p.add_argument("--runner", action="store_true",
                   help="also measure the experiment runner: deals/s with 1 and 2 worker "
                   "processes and its overhead per batch (random-agent Scopa)")
    p.set_defaults(handler=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure the engines and print the figures (:mod:`.bench`)."""
    from .bench import BenchConfig, bench, startup_rows
    if args.game is not None:
        definition(args.game)
    if args.demo and not args.startup:
        raise CardsimError("--demo goes with --startup (the demo's cold and warm starts)")
    other = [flag for flag, given in (("--no-startup", args.no_startup), ("--runner", args.runner),
                                      ("--no-solver", args.no_solver)) if given]
    if args.startup and other:
        raise CardsimError(f"--startup measures only the start-ups: drop {' and '.join(other)}")
    if args.startup:
        games = [args.game] if args.game else list_games()
        print(f"cardsim {__version__} bench --startup: {', '.join(games)}; each command in a "
              "fresh process, cold (an empty cache folder) then warm, this machine, one run")
        for figure, value in startup_rows(games, demo=args.demo):
            print(f"  {figure:72s} {value:>14s}", flush=True)
        return 0
    config = BenchConfig(game=args.game or "scopa", seconds=args.seconds,
                         startup=not args.no_startup, runner=args.runner,
                         solver=not args.no_solver)
    print(f"cardsim {__version__} bench: {config.game}, random playouts, this machine, one run")
    for figure, value in bench(config):
        print(f"  {figure:72s} {value:>14s}")
    return 0


SUBCOMMANDS = {"games": add_games, "simulate": add_simulate, "compile": add_compile,
               "bench": add_bench}
"""Subcommand -> the function that adds its parser and handler to ``cardsim``'s subparsers."""
