"""The ``cardsim`` command line: thin handlers that build a config and call a plain function.

``main(argv) -> int``. A user error (any :class:`~cardsim.errors.CardsimError`) prints one line
to stderr and returns 2; a bug keeps its traceback.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

import pandas as pd

from cardsim import __version__
from cardsim.errors import CardsimError
from cardsim.game import definition, list_games
from cardsim.options import check_option_names, describe, parse_option_pairs, rules_from_options


class _StoreOnce(argparse._StoreAction):
    """argparse's ``store``, refusing a second occurrence: ``--seed 1 --seed 2`` would drop the
    first value silently (a repeatable option says so: ``action="append"``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())
        if self.dest in given:
            parser.error(f"argument {'/'.join(self.option_strings) or self.dest}: given twice")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> None:  # argparse's usage errors: one line, exit 2
        raise CardsimError(f"{self.prog}: {message}")

    def parse_known_args(self, args=None, namespace=None):
        """argparse's, refusing ``--name=--``: Python 3.11's argparse takes it for an empty list
        of values (no value, no type check: ``--jobs=--`` would give ``jobs=[]``)."""
        given = sys.argv[1:] if args is None else list(args)
        for arg in given[:given.index("--") if "--" in given else None]:
            if arg.startswith("-") and arg.endswith("=--"):
                self.error(f"argument {arg[:-3]}: expected a value, got '--'")
        return super().parse_known_args(args, namespace)


def _print_table(title: str, table: pd.DataFrame) -> None:
    print(f"\n{title}")
    print(table.to_string())
    if table.attrs.get("note"):
        print(f"  ({table.attrs['note']})")


def cmd_games(args: argparse.Namespace) -> int:
    """List the games, their options, allowed values and defaults."""
    for name in list_games():
        d = definition(name)
        print(f"{name}: {d.summary}")
        for opt in describe(d.rules_type):
            print(f"  {opt['name']:28s} default {opt['default']:16s} allowed: "
                  f"{', '.join(opt['allowed'])}")
            print(f"  {'':28s} {opt['doc']} ({opt['rule']})")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play random deals and print the game's tables."""
    from cardsim.options import non_default
    from cardsim.simulate import SimulationConfig, simulate
    options = parse_option_pairs(args.option)
    if args.players is not None:
        import dataclasses

        from cardsim.game import definition as game_definition
        fields = {f.name for f in dataclasses.fields(game_definition(args.game).rules_type)}
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
    changed = non_default(result.rules)
    d = definition(config.game)
    player = ", ".join(f"{name}={config.player.get(name, default)}"
                       for name, default, _ in d.random_player)
    print(f"{config.game}: {config.deals:,} deals with random legal actions"
          + (f" ({player})" if player else "") + f", seed {config.seed}, rules: "
          + (", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"))
    print("95% confidence intervals in brackets.")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        for title, table in result.tables.items():
            _print_table(title, table)
    return 0


def _simulate_where(args: argparse.Namespace, options: dict) -> int:
    """``cardsim simulate --where``: deals drawn under the condition one by one (deal ``i``
    from ``SeedSequence([seed, i])``, :mod:`cardsim.deals`), played by the uniform random agent;
    each seat's mean return and scoring categories."""
    import json

    from tqdm import tqdm

    from cardsim.deals import parse_where
    from cardsim.game import load_game
    from cardsim.stats import fmt_interval, mean_interval
    from experiments.spec import SetUpGame
    from solvers.duplicate import play_duplicate
    if args.player:
        raise CardsimError("--player sets the compiled random loop's player; with --where the "
                           "deals are played by the uniform random agent: drop --player")
    where = _where_of(args.where)
    game = load_game(args.game, **options)
    condition = parse_where(game, where)
    with tqdm(total=args.deals, unit="deal", disable=True if args.quiet else None,
              leave=False, desc=f"{game.name} deals") as bar:
        rows = play_duplicate(SetUpGame(game, {}, condition.canonical), ["random"] * game.num_players,
                              args.deals, seed=(args.seed,), rotate=False, progress=bar.update)
    print(f"{game.name}: {args.deals:,} deals where {json.dumps(dict(condition.canonical))}, "
          f"uniform random legal actions, seed {args.seed}")
    print("95% confidence intervals in brackets.")
    columns = ["return"] + sorted({c.rsplit("_", 1)[0] for c in rows.columns if c.startswith("cat_")})
    table = pd.DataFrame([[fmt_interval(*mean_interval(rows[f"{c}_{s}"].to_numpy()))
                           for c in columns] for s in range(game.num_players)],
                         columns=[c.removeprefix("cat_") for c in columns],
                         index=pd.Index(range(game.num_players), name="seat"))
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        _print_table("Per seat (mean per deal)", table)
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    """Compile (or load) the games' compiled code ahead of time, one process per game."""
    from cardsim._cache import base_folder, prune
    for name in args.games:               # before pruning anything
        definition(name)
    if args.prune:
        removed = prune()
        print(f"removed {len(removed)} cache folder(s) of other versions from {base_folder()}")
        if not args.games:
            return 0
    games = args.games or list_games()
    from solvers.warmup import compile_games
    for result in compile_games(games, jobs=args.jobs, parts=tuple(args.part or ())):
        what = (f"compiled in {result['compile_seconds']:.1f} s" if result["compiled"]
                else "already compiled (loaded from the cache)")
        print(f"{result['game']}: {what}, {result['seconds']:.1f} s in all")
    print(f"cache: {base_folder()}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure the engines and print the figures."""
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


def _load_position(game_name: str, path: str, options: list[str], at: int | None = None):
    """(game, state) from a position JSON file; the file's ``rules`` are the game's options
    unless ``--option`` gives others. A game record (``cardsim play --record``) gives the
    position after its first ``at`` moves (all by default), with the moves that led there."""
    from cardsim.documents import read_document
    from cardsim.game import load_game
    definition(game_name)
    position = read_document(path, "JSON")
    if not isinstance(position, dict):
        raise CardsimError(f"{path}: expected a position object, got {type(position).__name__}")
    if position.get("format") == "cardsim-record":
        return _record_position(game_name, path, options, at)
    if at is not None:
        raise CardsimError("--at goes with a game record (the position after its first N "
                           "moves)")
    rules = position.get("rules", {})
    if not isinstance(rules, dict):
        raise CardsimError(f"{path}: rules={rules!r}: expected an object of rules options")
    rules = {**rules, **parse_option_pairs(options)}
    game = load_game(game_name, rules_from_options(definition(game_name).rules_type, rules,
                                                   game_name))
    if options:
        position = {k: v for k, v in position.items() if k != "rules"}
    state = game.from_dict(position)
    endless = game.definition.endless_match(game.rules)
    if endless and state.to_dict().get("mode") == "match":
        raise CardsimError(f"{path}: a match position: {endless} (in its rules, or "
                           "--option max_deals=N)")
    return game, state


def _record_position(game_name: str, path: str, options: list[str], at: int | None):
    """(game, state): the position of a full game record after its first ``at`` moves."""
    from cardsim.replay import action_from_string, read_record
    record = read_record(path)
    if record.game.name != game_name:
        raise CardsimError(f"{path}: a record of {record.game.name}, not {game_name}")
    if options:
        raise CardsimError("--option: a game record's rules are its own")
    if record.is_view:
        raise CardsimError(f"{path}: a view record holds one player's positions, not the "
                           "deal's moves: analyze one of its positions instead")
    moves = list(record.moves)
    if at is not None and at > len(moves):
        raise CardsimError(f"--at {at}: the record has {len(moves)} moves")
    state = record.game.from_dict(record.start)
    for text in moves[:len(moves) if at is None else at]:
        state.apply_action(action_from_string(state, text))
    return record.game, state


def cmd_analyze(args: argparse.Namespace) -> int:
    """Every legal action of a position, as the player to move sees it, with its expected
    return and win probability."""
    from experiments.equity import analysis_equity
    from solvers.analyze import AnalysisConfig, analyze
    if args.where is not None:
        game, state = _conditioned_opening(args)
    elif args.position is None:
        raise CardsimError("analyze: give a position file, or --where JSON for the opening of a "
                           "deal drawn under a condition")
    else:
        if args.deal_seed is not None:
            raise CardsimError("--deal-seed goes with --where (the seed of the drawn deal)")
        game, state = _load_position(args.game, args.position, args.option, args.at)
    config = AnalysisConfig(player=args.player, agent=args.agent, worlds=args.worlds,
                            seed=args.seed, infer=_infer_choice(args))
    equity = analysis_equity(game, args.match, "cardsim analyze --match") if args.match is not None else None
    table = analyze(state, config, equity)
    shown = table.copy()
    for col in shown.columns[1:]:
        shown[col] = shown[col].map(lambda x: f"{x:.3f}")
    _print_table(f"{args.game}: player {args.player} to move, {len(table)} legal actions",
                 shown.set_index("action"))
    if "match" in table.attrs:
        print(table.attrs["match"])
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """Review a played deal: every decision of the player (or of every seat) valued from his
    view, the loss of the move played, marks, totals and luck (solvers/review.py)."""
    import json

    from cardsim.game import load_game
    from cardsim.replay import from_moves, read_record
    from experiments.equity import analysis_equity
    from solvers.review import ReviewConfig, review, text
    if args.game is not None:             # a plain list of moves, one a line
        game = load_game(args.game, **parse_option_pairs(args.option))
        if args.deal_seed is None:
            raise CardsimError("a list of moves (--game) needs --deal-seed, the seed of the "
                               "deal it was played on")
        lines = _read_text(args.record).splitlines()
        record = from_moves(game, [m for m in (x.strip() for x in lines) if m],
                            seed=args.deal_seed)
    else:
        if args.deal_seed is not None or args.option:
            raise CardsimError("--deal-seed and --option are for a list of moves (--game)")
        record = read_record(args.record)
        game = record.game
    config = ReviewConfig(players=None if args.player is None else (args.player,),
                          agent=args.agent, worlds=args.worlds, seed=args.seed,
                          thresholds=args.thresholds, baseline=args.baseline,
                          infer=_infer_choice(args))
    equity = analysis_equity(game, args.match, "cardsim analyze --match") if args.match is not None else None
    rv = review(record, config, equity, progress=None if args.json else _decision_counter())
    if args.report:
        from reports.review import write_review_report
        write_review_report(rv, args.report)
    if args.json:
        print(json.dumps(rv.to_dict(), indent=1))
    else:
        print("\n".join(text(rv)))
        if args.report:
            print(f"report: {args.report}")
    return 0


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise CardsimError(f"{path}: unreadable ({e.__class__.__name__})") from None


def _decision_counter():
    """Progress of a review on standard error: a line every ten decisions."""
    def tick(k: int) -> None:
        if k % 10 == 0:
            print(f"reviewed {k} decisions", file=sys.stderr)
    return tick


def _thresholds(text: str) -> tuple[float, float, float]:
    """``--thresholds I,M,B``: three increasing positive numbers."""
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or not all(0 < v < float("inf") for v in values) \
            or list(values) != sorted(values):
        raise argparse.ArgumentTypeError(f"{text!r}: expected three increasing positive "
                                         "numbers I,M,B (inaccuracy, mistake, blunder)")
    return values


def _where_of(text: str):
    """``--where JSON``: the condition it holds, or one line when it is not JSON."""
    import json
    try:
        return json.loads(text)
    except RecursionError:
        raise CardsimError("--where: JSON nested too deeply") from None
    except ValueError as e:                   # JSONDecodeError, or a number too long
        raise CardsimError(f"--where {text[:60]!r}: not JSON ({e})") from None


def _conditioned_opening(args: argparse.Namespace):
    """``analyze --where``: (game, state) of the opening of the deal of ``--deal-seed`` drawn
    under the condition (:mod:`cardsim.deals`); the player must be the first to decide."""

    from cardsim.game import load_game
    if args.position is not None:
        raise CardsimError("--where draws the deal to analyze: give no position file")
    where = _where_of(args.where)
    game = load_game(args.game, **parse_option_pairs(args.option))
    state = game.new_deal(seed=args.deal_seed or 0, where=where)
    if state.current_player() != args.player:
        raise CardsimError(f"the drawn deal's first decision is seat {state.current_player()}'s: "
                           f"--player {state.current_player()}")
    return game, state


def cmd_solve(args: argparse.Namespace) -> int:
    """Every legal action of a fully known position with its exact value, and the line of best
    play (solvers/exact.py)."""
    import time

    import numpy as np

    from solvers import exact
    game, state = _load_position(args.game, args.position, args.option)
    if state.is_terminal():
        raise CardsimError(f"{args.position}: the deal is over; nothing to solve")
    spec = game.spec
    if spec.exact is None:
        raise CardsimError(spec.no_exact)
    ws = exact.workspace(spec)
    none = np.zeros(1, dtype=np.int64)           # load the compiled solver before timing it
    exact.solve_children[spec](spec.params, state.vec, ws, none, 0, none, False, 0)
    start = time.perf_counter()
    actions, values = exact.solve_actions(state, ws)
    seconds = time.perf_counter() - start
    nodes, hits, cuts = (int(ws.stats[k]) for k in (exact.NODES, exact.HITS, exact.CUTS))
    side = exact.side_to_move(state)
    sign = 1 if side == 0 else -1
    line = exact.principal_line(state, ws)
    unit = spec.exact.unit
    mover = state.current_player()
    print(f"{game.name}: seat {mover} to move (side {side}); exact values for the mover's side "
          f"({unit}), every card known, to the end of the deal")
    best = max(sign * int(v) for v in values)
    rows = [{"action": state.action_to_string(int(a)), "value": sign * int(v),
             "best": "*" if sign * int(v) == best else ""} for a, v in zip(actions, values)]
    for row in rows:                          # the value's parts, where the game has them
        row.update(spec.exact.columns(row["value"]))
    table = pd.DataFrame(rows).sort_values("value", ascending=False, kind="stable")
    print(table.to_string(index=False))
    print(f"\nvalue of the position: {best}")
    s = state.clone()
    steps = []
    for a in line:
        steps.append(f"{s.current_player()}:{s.action_to_string(a)}")
        s.apply_action(a)
    print("principal line: " + " ".join(steps))
    if args.stats:
        print(f"stats (the action values): {nodes:,} nodes, {hits:,} table hits, {cuts:,} "
              f"cut-offs by bounds, {seconds:.3f} s ({nodes / max(seconds, 1e-9):,.0f} "
              f"nodes/s), table of {ws.keys.size:,} entries")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run (or resume) an experiment spec into a results folder and print its tables; given a
    results folder instead of a spec, resume (and repair) it with the spec it holds."""
    from pathlib import Path

    from experiments.calibration import (
        CalibrationSpec,
        calibration_from_dict,
        is_calibration,
        load_study,
    )
    from experiments.spec import spec_from_dict
    from experiments.store import Store
    from solvers.agent_spec import parse_agent
    if Path(args.spec).is_dir():
        if args.out and Path(args.out).resolve() != Path(args.spec).resolve():
            raise CardsimError(f"`cardsim run {args.spec}` resumes that folder itself: drop "
                               f"--out {args.out}")
        data, out = Store.open(args.spec).manifest()["spec"], args.spec
        study = calibration_from_dict(data) if is_calibration(data) else spec_from_dict(data)
    else:
        study, out = load_study(args.spec), args.out or str(Path("runs") / Path(args.spec).stem)
    if isinstance(study, CalibrationSpec):
        return _calibrate(study, out, args)
    spec = study
    if not spec.equity and any(parse_agent(a, spec.game).for_the_match for a in spec.agents):
        from experiments.equity import load_table  # the default table, computed if missing
        load_table(spec.load(), "", "cardsim run")
    return _run_and_print(spec, out, args.jobs, not args.quiet, args.dask)


def cmd_train(args: argparse.Namespace) -> int:
    """Train (or go on training) a game's learned evaluation by self-play into a folder, then
    write its report (:mod:`solvers.training`, :mod:`reports.training`)."""
    from dataclasses import fields
    from pathlib import Path

    from reports.training import write_training_report
    from solvers.training import Plan, train
    rules_from_options(definition(args.game).rules_type, parse_option_pairs(args.option),
                       args.game)
    given = {f.name: getattr(args, f.name) for f in fields(Plan)
             if f.name not in ("game", "rules") and getattr(args, f.name, None) is not None}
    plan = Plan(args.game, parse_option_pairs(args.option), **given)
    out = args.out or str(Path("runs") / f"train-{args.game}")
    state = train(plan, out, jobs=args.jobs, budget_minutes=args.budget,
                  say=(lambda s: None) if args.quiet else (lambda s: print(s, flush=True)))
    report = write_training_report(out)
    print(f"{len(state['rounds'])} of {plan.rounds} rounds done; weights: "
          f"{Path(out) / 'weights.npz'} (use: ismcts:leaf=net,weights=PATH); report: {report}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a run's store without running anything: every batch read back and checked against
    its record (size, rows, sha256)."""
    from experiments.store import QUARANTINE, Store
    store = Store.open(args.run)
    batches = store.check()
    damaged = [b for b in batches if b.problem]
    for b in damaged:
        print(f"  {b.name}: {b.problem}")
    if damaged:
        raise store.damage_error(damaged)
    unrecorded = sum(not b.recorded for b in batches)
    aside = store.path / QUARANTINE
    aside = len({p.stem for p in aside.iterdir()}) if aside.is_dir() else 0
    print(f"{store.path}: {len(batches)} batches whole, {sum(len(b.rows) for b in batches):,} "
          "rows" + (f"; {unrecorded} of them without a checksum yet (written by an older "
                    f"cardsim, or by a run stopped before recording it): `cardsim run "
                    f"{store.path}` records them" if unrecorded else "")
          + (f"; {aside} damaged batch(es) set aside earlier in {store.path / QUARANTINE}"
             if aside else ""))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """The built-in study (experiments/specs/demo.toml) on 2 local processes."""
    from pathlib import Path

    import experiments
    from experiments.spec import load_spec
    spec = load_spec(Path(experiments.__file__).resolve().parent / "specs" / "demo.toml")
    print(f"cardsim demo: {spec.question}")
    print(f"  {len(spec.matchups)} matchups x {spec.deals} duplicate deals, seed {spec.seed}, "
          f"into {args.out}")
    status = _run_and_print(spec, args.out, args.jobs, not args.quiet, None)
    return status or _write_report(args.out, None, "both")


def cmd_report(args: argparse.Namespace) -> int:
    """Write a run's report (HTML, Markdown, CSV) from its store alone."""
    return _write_report(args.run, args.out, args.format)


def _write_report(run: str, out: str | None, fmt: str) -> int:
    from reports import build_report
    files = build_report(run, out=out, fmt=fmt)
    shown = [str(p) for p in (files.html, files.markdown) if p is not None]
    print(f"\nreport: {' and '.join(shown)} ({len(files.plots) or 'embedded'} plots, "
          f"{len(files.tables)} tables as CSV in {files.folder / 'tables'})")
    return 0


def cmd_equity(args: argparse.Namespace) -> int:
    """Compute (or resume) a match-equity table into a folder and print it as grids."""
    from cardsim.game import load_game
    from experiments.equity import (
        EquityConfig,
        default_folder,
        match_model,
        run_equity,
        split_agents,
        table_checks,
    )
    options = parse_option_pairs(args.option)
    game = load_game(args.game, **options)
    given = getattr(args, "_given", set())
    if game.definition.records_match is not None:  # no small table: whole games
        from experiments import records_equity as me
        if "deals" in given:
            raise CardsimError(f"equity {game.name}: --deals is for a table of match states; "
                               f"{game.name}'s equity counts whole games (--games N)")
        records = None if args.records is None else me.parse_records(args.records)
        config = me.GameEquityConfig(rules=options, agents=split_agents(args.agents),
                                     games=args.games or me.GAMES, seed=args.seed,
                                     records=records, boot=args.boot)
        folder = dict(options, **({} if records is None else
                                  {"records": "-".join(map(str, records))}))
        out = args.out or default_folder(game.name, folder)
        table, rows = me.run_game_equity(config, out, jobs=args.jobs, progress=not args.quiet)
        print("\n".join(me.text(table, rows, config, game, out)))
        return 0
    if "records" in given or "games" in given:
        raise CardsimError(f"equity {game.name}: --records and --games are for a game decided "
                           f"by seat records (Mushka); {game.name}'s table counts --deals")
    model = match_model(game)
    config = EquityConfig(game=game.name, rules=options, agents=split_agents(args.agents),
                          deals=args.deals, seed=args.seed, boot=args.boot)
    out = args.out or default_folder(game.name, options)
    table = run_equity(config, out, jobs=args.jobs, progress=not args.quiet)
    a, b = config.agents
    print(f"{game.name}: the chance that side a ({a}) wins the match against side b ({b}) "
          f"from each state ({model.description}); {args.deals:,} duplicate deals, 95% "
          f"bootstrap intervals of {args.boot} resamples, in {out}")
    print_equity(table, model)
    checks = table_checks(table, model, symmetric=a == b)
    print("\nchecks:")
    print(checks.to_string(index=False))
    return 0


def print_equity(table: pd.DataFrame, model) -> None:
    """The table's grids (side a's chance in percent) and its widest interval."""
    from experiments.equity import grids
    for name, (values, half) in grids(table, model.columns).items():
        shown = (100 * values).map(lambda v: "" if pd.isna(v) else f"{v:.0f}")
        _print_table(f"{name}: p_win in percent ({model.columns[0]} down, "
                     f"{model.columns[1]} across)", shown)
    half = (table["p_high"] - table["p_low"]) / 2
    print(f"\nwidest 95% interval: ±{half.max():.4f} (mean ±{half.mean():.4f})")


def cmd_compare(args: argparse.Namespace) -> int:
    """Two runs of the same game side by side."""
    from reports.compare import compare_runs, format_comparison
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.max_colwidth", 40):
        print(format_comparison(compare_runs(args.run_a, args.run_b)))
    return 0


def _calibrate(spec, out: str, args: argparse.Namespace) -> int:
    """``cardsim run`` of a calibration study (:mod:`experiments.calibration`): its missing
    batches, then its summary."""
    from experiments.calibration import run_calibration, summary
    from experiments.tables import format_table
    if args.dask:
        raise CardsimError("a calibration study runs on local processes: drop --dask")

    def say(done: int, total: int) -> None:
        print(f"calibration: {done} of {total} batches", file=sys.stderr, flush=True)
    rows = run_calibration(spec, out, args.jobs, None if args.quiet else say)
    print(f"{spec.game}: {rows['deal'].nunique():,} {spec.units}, {len(rows):,} positions and "
          f"evaluations in {out}" + (f" — {spec.question}" if spec.question else ""))
    table = format_table(summary(rows, spec.names))
    keep = ["evaluator", "stage", "positions", "predicted_win", "realized_win", "ece",
            "ece_corrected", "brier", "bias", "match_predicted", "match_realized", "match_ece",
            "match_ece_corrected", "seconds"]
    _print_table("calibration", table[[c for c in keep if c in table.columns]])
    return 0


def _run_and_print(spec, out: str, jobs: int, progress: bool, dask: str | None) -> int:
    from experiments.runner import RunConfig, run, used_rows, warm_up
    warm_up(spec)                    # compile (or load) here once, before the workers start
    store = run(spec, RunConfig(out=out, jobs=jobs, progress=progress, dask=dask))
    rows = used_rows(spec, store.rows())
    print(f"{spec.game}: {len(rows):,} games in {out}" + (f" — {spec.question}"
                                                           if spec.question else ""))
    from experiments.tables import format_table, report_tables
    shown = {"matchups": ["label", "name", "games", "win_rate", "draw_rate", "loss_rate",
                          "mean_return", "margin", "ms_per_move"],
             "categories": ["label", "name", "category", "mean"]}
    for title, table in report_tables(rows, list(spec.agents), spec.sprt,
                                      definition(spec.game).zero_sum).items():
        if len(table):
            table = format_table(table)
            keep = [c for c in shown.get(title, table.columns) if c in table.columns]
            _print_table(title, table[keep].rename(columns={"label": "matchup"}))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a deal (or a match) at the terminal against agents."""
    from cardsim.game import load_game
    from solvers.agent_spec import parse_agent

    from .interactive import play_interactive
    game = load_game(args.game, **parse_option_pairs(args.option))
    if args.seat >= game.num_players:
        raise CardsimError(f"--seat {args.seat}: expected a seat from 0 to "
                           f"{game.num_players - 1}")
    opponents = args.vs or ["strong"]
    equity = None
    if any(parse_agent(a, game).for_the_match for a in opponents):
        from experiments.equity import equity_values
        equity = equity_values(game, "", "cardsim play")
    try:
        interactive = sys.stdin.isatty()
    except (AttributeError, ValueError):      # no standard input, or a closed one
        interactive = False
    play_interactive(game, opponents, human_seat=args.seat, seed=args.seed, match=args.match,
                     equity=equity, record=args.record, hint=args.hint, tutor=args.tutor,
                     interactive=interactive)
    return 0


def _int_at_least(minimum: int, what: str, maximum: int | None = None):
    """An argparse type: an integer >= ``minimum`` (and <= ``maximum``), with a one-line error
    otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: expected an integer {what}"
                                             if what.startswith("at least")
                                             else f"{text!r}: expected a {what} integer")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{text!r}: at most {maximum:,}")
        return value
    return parse


def _epsilon(text: str) -> float:
    """An argparse type: the inference model's epsilon, a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number between 0 and 1 "
                                         "(exclusive)")
    return value


def _infer_option(p: argparse.ArgumentParser, moves: str) -> None:
    """``--infer [EPSILON]`` or ``--uniform``: worlds weighted by the other players' moves
    (solvers/inference), or not; neither: the game's default (:func:`_infer_choice`)."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--infer", nargs="?", type=_epsilon, const=0.3, default=None,
                       metavar="EPSILON", help="draw the worlds by inference from the other "
                       f"players' moves of the deal so far, {moves}: each world weighted by "
                       "their likelihood under the heuristic player, softened by EPSILON "
                       "(0.3). Default: inference where the game's analysis measured better "
                       "calibrated on it (Bura, Mushka), else uniform worlds")
    which.add_argument("--uniform", dest="infer", action="store_const", const=False,
                       help="sample the worlds uniformly, ignoring what the other players' "
                       "moves say")


def _infer_choice(args: argparse.Namespace):
    """``AnalysisConfig.infer`` from ``--infer [EPSILON]`` (the epsilon), ``--uniform`` (None)
    or neither (the game's default, ``solvers.analyze.GAME_DEFAULT``)."""
    from solvers.analyze import GAME_DEFAULT
    return GAME_DEFAULT if args.infer is None else None if args.infer is False else args.infer


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    import math
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number of seconds")
    return value


def _share(text: str) -> float:
    """An argparse type: a share in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a share above 0, at most 1")
    return value


def _folder(text: str) -> str:
    """An argparse type: a folder to write into; refused at once when it cannot be one (an empty
    name, an existing file, or a path through a file)."""
    from pathlib import Path
    if not text:
        raise argparse.ArgumentTypeError("expected a folder, got an empty name")
    path = Path(text)
    for p in (path, *path.parents):
        if p.exists():
            if not p.is_dir():
                raise argparse.ArgumentTypeError(
                    f"{text!r} is a file, not a folder" if p == path
                    else f"{text!r}: {str(p)!r} is a file, not a folder")
            break
    return text


def _dask_address(text: str) -> str:
    """An argparse type: a Dask scheduler's address, ``[tcp://]HOST:PORT`` (or tls, ws, wss,
    ucx); checked here, as the cluster's client would fail on it only after the warm-up."""
    import re
    m = re.fullmatch(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})",
                     text)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a scheduler address such as "
                                         "tcp://host:8786")
    return text


def _position_command(sub, name: str, help: str, position_help: str,
                      optional: bool = False) -> argparse.ArgumentParser:
    """A subcommand on a position file: its ``game`` and ``position`` arguments (``optional``:
    the position may be left out)."""
    p = sub.add_parser(name, help=help)
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("position", nargs="?" if optional else None,
                   help="a position JSON file (State.to_dict format)" + position_help)
    return p


def _rules_option(p: argparse.ArgumentParser, help: str) -> None:
    """The repeatable ``--option NAME=VALUE`` of a subcommand."""
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=help)


def make_parser() -> argparse.ArgumentParser:
    """The argument parser, subcommands in workflow order."""
    parser = _Parser(prog="cardsim", description="Monte Carlo analysis and solvers for Scopa, "
                     "Bura, Mushka and Minchiate.")
    parser.add_argument("--version", action="version", version=f"cardsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("games", help="list the games, their options and defaults")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("simulate", help="play random deals and print statistics")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("--deals", type=_int_at_least(1, "positive"), default=10_000,
                   help="deals to play (10000; at most 2**63 - 1), summarised chunk by chunk "
                   "in constant memory")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), default=0,
                   help="root seed (0)")
    _rules_option(p, "a rules option, repeatable (see `cardsim games`)")
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
    p.add_argument("--players", type=_int_at_least(2, "at least 2"), default=None,
                   help="number of players (the same as --option num_players=N)")
    p.add_argument("--where", metavar="JSON", default=None,
                   help="deal only deals whose initial cards satisfy this condition (JSON, "
                   "cardsim.deals), e.g. '{\"hold\": {\"0\": [\"7co\"]}}', played one by one "
                   "by the uniform random agent; prints each seat's mean return and categories")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("run", help="run or resume an experiment spec (TOML) into a folder")
    p.add_argument("spec", help="an experiment spec file (see experiments/spec.py), or a "
                   "results folder: resume it (setting damaged batches aside and computing "
                   "them again) with the spec it holds")
    p.add_argument("--out", type=_folder,
                   help="results folder (runs/<spec name>); an existing one resumes")
    p.add_argument("--jobs", type=_int_at_least(1, "positive"), default=1,
                   help="local worker processes (1)")
    p.add_argument("--dask", metavar="ADDRESS", type=_dask_address,
                   help="run the batches on the Dask cluster whose scheduler is at ADDRESS "
                   "(tcp://host:8786) instead of local processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("equity", help="a match-equity table: the chance of winning the match "
                       "from every match score, from simulated deals (resumable)")
    p.add_argument("game", help="a game name (see `cardsim games`; Scopa, Bura with "
                   "match_format=wins_to_n or penalty_points, Minchiate and Mushka)")
    _rules_option(p, "a rules option, repeatable (see `cardsim games`), e.g. target_score=21")
    p.add_argument("--agents", default="heuristic", metavar="A,B",
                   help="side a's and side b's agents (heuristic for both: a table needs about "
                   "20,000 deals, which the heuristic plays in seconds and a searching agent "
                   "in hours); one agent plays both sides (Mushka: A plays the mover, B every "
                   "other seat)")
    p.add_argument("--deals", type=_int_at_least(1, "positive"), default=20_000,
                   help="duplicate deals simulated (20000: Scopa to 11 then has every 95%% "
                   "interval within ±0.01)")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), default=0,
                   help="root seed (0) of the deals and of the bootstrap")
    p.add_argument("--games", type=_int_at_least(1, "positive"), default=None,
                   help="Mushka: whole games played (20000); every Mushka request needs "
                   "--option max_deals=N (a game without it may never end)")
    p.add_argument("--records", metavar="R0,R1,...",
                   help="Mushka: each position's chance to win the game from these records, "
                   "listed from the first player to decide (the dealer's left, agent A) round "
                   "to the dealer (agent B at every other seat), one per player; without it, "
                   "the table of the mover's chance by his record against the best other")
    p.add_argument("--boot", type=_int_at_least(10, "at least 10", 10_000), default=200,
                   help="bootstrap resamples for the intervals (200)")
    p.add_argument("--out", type=_folder, help="the table's folder (runs/equity_<game>"
                   "[_<option>-<value>...]); an existing one resumes")
    p.add_argument("--jobs", type=_int_at_least(1, "positive"), default=1,
                   help="local worker processes (1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_equity)

    p = sub.add_parser("train", help="train a game's learned evaluation by self-play "
                       "(deep Monte-Carlo) and write its report; run again to go on")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    _rules_option(p, "a rules option the weights are for, repeatable (see `cardsim games`)")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), help="root seed (0)")
    p.add_argument("--rounds", type=_int_at_least(1, "positive", 100),
                   help="rounds of play and fit (3)")
    p.add_argument("--deals", type=_int_at_least(10, "at least 10", 10**7),
                   help="deals played a round (20000)")
    p.add_argument("--hidden", type=_int_at_least(1, "positive", 4096),
                   help="hidden units of the network (64)")
    p.add_argument("--epochs", type=_int_at_least(1, "positive", 1000),
                   help="most epochs a fit (20)")
    p.add_argument("--iterations", type=_int_at_least(1, "positive", 10**6),
                   help="ISMCTS iterations a move of the self-play after round 0 (100)")
    p.add_argument("--check-deals", dest="check_deals", type=_int_at_least(0, "non-negative",
                                                                          10**6),
                   help="duplicate deals of each round's strength check (200; 0: none)")
    p.add_argument("--check-iterations", dest="check_iterations",
                   type=_int_at_least(1, "positive", 10**6),
                   help="ISMCTS iterations a move in the strength check (300)")
    p.add_argument("--keep", type=_share,
                   help="the share of the positions played that the fit learns from (0.25)")
    p.add_argument("--playouts", type=_int_at_least(0, "non-negative", 10_000),
                   help="learn from the mean return of this many play-outs of each kept "
                   "position by the heuristic, not from the deal's own return (0)")
    p.add_argument("--view", choices=("world", "info"),
                   help="what the network sees of a position: the true world (a perfect-"
                   "information value) or a world sampled for the seat (the value of what it "
                   "knows) (world)")
    p.add_argument("--budget", type=_seconds, default=0.0, metavar="MINUTES",
                   help="start no new round after this many minutes (none)")
    p.add_argument("--out", type=_folder, help="training folder (runs/train-<game>); an "
                   "existing one goes on where it stopped")
    p.add_argument("--jobs", type=_int_at_least(1, "positive"), default=1,
                   help="worker processes playing the deals (1)")
    p.add_argument("--quiet", action="store_true", help="print only the last line")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("demo", help="a built-in study: Scopa's random, heuristic and ISMCTS "
                       "players on duplicate deals, ending with its report in OUT/report")
    p.add_argument("--out", type=_folder, default="runs/demo", help="results folder (runs/demo)")
    p.add_argument("--jobs", type=_int_at_least(1, "positive"), default=2,
                   help="local worker processes (2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("report", help="write a run's report (HTML with embedded plots, "
                       "Markdown with PNG plots, tables as CSV) from its results store alone")
    p.add_argument("run", help="a results folder written by `cardsim run` or `cardsim demo`")
    p.add_argument("--format", choices=["html", "md", "both"], default="both",
                   help="report.html, report.md or both (both)")
    p.add_argument("--out", type=_folder,
                   help="report folder (RUN/report); rewritten whole on every build")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("verify", help="check a run's results store without running anything: "
                       "every batch against its recorded size, rows and checksum")
    p.add_argument("run", help="a results folder written by `cardsim run` or `cardsim demo`")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("compare", help="two runs of the same game side by side: spec "
                       "differences, results and their differences with 95%% intervals")
    p.add_argument("run_a", metavar="RUN_A", help="a results folder")
    p.add_argument("run_b", metavar="RUN_B", help="another results folder of the same game")
    p.set_defaults(func=cmd_compare)

    p = _position_command(sub, "analyze", "value every legal action of a position (win "
                          "probability and expected return, with intervals)", ", or a game "
                          "record (`cardsim play --record`; --at N); only what the "
                          "player sees is used: sampled worlds replace the hidden cards; "
                          "without it, --where", optional=True)
    p.add_argument("--player", type=_int_at_least(0, "non-negative"), required=True,
                   help="the seat to move, as whom the position is seen")
    p.add_argument("--agent", default="heuristic",
                   help="the agent that plays every seat after the first move (heuristic; "
                   "random; ismcts:iterations=N,...; pimc:worlds=N; a level easy, medium, "
                   "fast, strong, best)")
    p.add_argument("--worlds", type=_int_at_least(2, "at least 2", 1_000_000), default=200,
                   help="sampled worlds per action (200)")
    _infer_option(p, "read from a game record given as the position")
    p.add_argument("--at", type=_int_at_least(0, "non-negative"), default=None, metavar="N",
                   help="with a game record as the position: the position after its first N "
                   "moves (all)")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), default=0, help="seed (0)")
    p.add_argument("--match", nargs="?", const="", default=None, metavar="EQUITY_DIR",
                   help="also each action's chance of winning the match, from the position's "
                   "scores and a match-equity table (`cardsim equity --out EQUITY_DIR`; "
                   "without a folder, cardsim equity's default one, computed first if "
                   "missing): the player's side is side a")
    p.add_argument("--where", metavar="JSON", default=None,
                   help="instead of a position file: the opening of a deal drawn under this "
                   "condition on the initial cards (cardsim.deals), e.g. "
                   "'{\"hold\": {\"0\": [\"7co\"]}}'")
    p.add_argument("--deal-seed", type=_int_at_least(0, "non-negative"), default=None,
                   help="with --where: the seed of the drawn deal (0)")
    _rules_option(p, "a rules option (default: the position's rules)")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("review", help="review a played deal: every decision valued from the "
                       "player's view, the loss of each move, mistakes marked, luck told "
                       "apart from skill")
    p.add_argument("record", help="a game record (JSON, `cardsim play --record`), or with "
                   "--game a text file of moves, one a line")
    p.add_argument("--player", type=_int_at_least(0, "non-negative"), default=None,
                   help="the seat to review (every seat of a full record; a view record's "
                   "player)")
    p.add_argument("--agent", default="heuristic",
                   help="the agent that plays every seat out after each action (heuristic)")
    p.add_argument("--worlds", type=_int_at_least(2, "at least 2", 1_000_000), default=200,
                   help="sampled worlds per decision, from the player's view (200)")
    _infer_option(p, "the record's moves before each decision (a full record)")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), default=0, help="seed (0)")
    p.add_argument("--thresholds", type=_thresholds, default=None, metavar="I,M,B",
                   help="the losses that make an inaccuracy, a mistake and a blunder, in the "
                   "game's return units (default 0.05, 0.1, 0.2 times its reward scale: "
                   "Scopa 0.2,0.4,0.8 points)")
    p.add_argument("--baseline", type=_int_at_least(0, "non-negative", 1_000_000),
                   default=2000, help="deals of the evaluator against itself that give the "
                   "expected result before the deal, for luck (2000; 0: no luck)")
    p.add_argument("--match", nargs="?", const="", default=None, metavar="EQUITY_DIR",
                   help="also the loss in match-winning chance, from a match-equity table "
                   "(as analyze --match)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--report", type=_folder, default=None, metavar="DIR",
                   help="also write the review report (HTML and Markdown) into DIR")
    p.add_argument("--game", default=None,
                   help="the RECORD file is a list of moves of this game")
    p.add_argument("--deal-seed", type=_int_at_least(0, "non-negative"), default=None,
                   help="with --game: the seed of the deal the moves were played on")
    _rules_option(p, "with --game: a rules option")
    p.set_defaults(func=cmd_review)

    p = _position_command(sub, "solve", "exact values of every legal action of a fully known "
                          "position (all hands and the stock order), and the line of best play",
                          " with every card known")
    p.add_argument("--stats", action="store_true",
                   help="also print nodes searched, table hits, cut-offs and time")
    _rules_option(p, "a rules option (default: the position's rules)")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("play", help="play a deal (or a match) against agents at the terminal")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("--vs", action="append", default=[], metavar="AGENT",
                   help="the opponents' agent (strong): a level easy, medium, fast, strong "
                   "or best, or random, heuristic, ismcts:seconds=0.5,...; once for all, or once "
                   "per other seat")
    p.add_argument("--seat", type=_int_at_least(0, "non-negative"), default=0,
                   help="your seat (0)")
    p.add_argument("--seed", type=_int_at_least(0, "non-negative"), default=0, help="seed (0)")
    p.add_argument("--match", action="store_true", help="a whole match instead of one deal")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="write the game's record (JSON) to FILE when it ends or is quit, for "
                   "`cardsim review FILE`")
    p.add_argument("--hint", action="store_true",
                   help="allow `hint` at your move prompt: every move's expected return, best "
                   "first")
    p.add_argument("--tutor", nargs="?", const=True, default=None, metavar="THRESHOLD",
                   help="ask before playing a move that loses THRESHOLD or more against the "
                   "best, in the game's return units (default: a review's mistake, Scopa 0.4)")
    _rules_option(p, "a rules option, repeatable (see `cardsim games`)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("compile", help="compile the games' engines, agents and solvers ahead "
                       "of time (one process per game), so that no later command waits")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to compile (all)")
    p.add_argument("--jobs", type=_int_at_least(1, "positive"), default=2,
                   help="games compiled at once, one process each (2)")
    p.add_argument("--part", action="append", choices=["engine", "agents", "analyze", "exact"],
                   help="only this part, repeatable (all: engine, agents, analyze, exact)")
    p.add_argument("--prune", action="store_true",
                   help="first remove the cache folders of other versions of the sources")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("bench", help="measure engine speed (compiled vs reference, start-up)")
    p.add_argument("--game", default=None, help="game to measure (scopa; with --startup: "
                   "every game)")
    p.add_argument("--startup", action="store_true",
                   help="only the start-up figures, per game: cold (an empty cache) and warm "
                   "starts of simulate, a one-batch run (heuristic against ISMCTS), analyze "
                   "and solve, and the peak memory of each cold start")
    p.add_argument("--demo", action="store_true",
                   help="with --startup: also cardsim demo, cold and warm")
    p.add_argument("--seconds", type=_seconds, default=2.0, help="budget per measurement (2)")
    p.add_argument("--no-startup", action="store_true",
                   help="skip the cold-compile and warm-start measurements")
    p.add_argument("--no-solver", action="store_true",
                   help="skip the exact solver and PIMC measurements")
    p.add_argument("--runner", action="store_true",
                   help="also measure the experiment runner: deals/s with 1 and 2 worker "
                   "processes and its overhead per batch (random-agent Scopa)")
    p.set_defaults(func=cmd_bench)
    return parser


def _one_line(text: str) -> str:
    """``text`` with line breaks and other unprintable characters escaped (an argument may hold
    them, and messages quote arguments): an error is one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    from cardsim.compiling import watch
    try:
        args = make_parser().parse_args(argv)
        if getattr(args, "option", None):     # before any work, and before load_game: an option
            check_option_names(definition(args.game).rules_type,   # named like its parameters
                               parse_option_pairs(args.option), args.game)
        with watch():                 # a long compile says what it compiles, and that it is alive
            return args.func(args)
    except CardsimError as e:
        print(f"cardsim: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardsim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
