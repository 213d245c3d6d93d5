"""The subcommands of studies and their results: ``run`` (an experiment spec, a calibration
study or a variant study, into a results folder), ``variants`` (a quick variant study),
``equity`` (a match-equity table), ``train`` (a learned
evaluation), ``demo`` (the built-in study), ``report``, ``verify`` and ``compare`` (a results
folder, read back).

Each ``add_<command>(sub)`` adds its subcommand's parser, with its handler ``cmd_<command>``
beside it; :data:`SUBCOMMANDS` lists them for :func:`cardsim.app.cli.make_parser`. A handler
imports the heavier modules it calls when it runs, so that the command line starts fast.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from pathlib import Path

import pandas as pd

from cardsim.errors import CardsimError
from cardsim.game import definition
from cardsim.protocol.options import parse_option_pairs, rules_from_options
from cardsim.stats import fmt_percent

from .arguments import (
    dask_address,
    folder,
    int_at_least,
    rules_option,
    seconds,
    share,
)
from .output import WIDTH, Output, add_format, wrapped

# --- run -----------------------------------------------------------------------------------------


def add_run(sub) -> None:
    p = sub.add_parser("run", help="run or resume an experiment spec (TOML) into a folder")
    p.add_argument("spec", help="an experiment spec file (see cardsim/experiments/spec.py), or a "
                   "results folder: resume it (setting damaged batches aside and computing "
                   "them again) with the spec it holds")
    p.add_argument("--out", type=folder,
                   help="results folder (runs/<spec name>); an existing one resumes")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=1,
                   help="local worker processes (1)")
    p.add_argument("--dask", metavar="ADDRESS", type=dask_address,
                   help="run the batches on the Dask cluster whose scheduler is at ADDRESS "
                   "(tcp://host:8786) instead of local processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_format(p)
    p.set_defaults(handler=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    """Run (or resume) an experiment spec into a results folder and print its tables; given a
    results folder instead of a spec, resume (and repair) it with the spec it holds."""
    from cardsim.experiments.calibration import (
        CalibrationSpec,
        calibration_from_dict,
        is_calibration,
        load_study,
    )
    from cardsim.experiments.spec import spec_from_dict
    from cardsim.experiments.store import Store
    from cardsim.experiments.variants import VariantStudy, is_study_folder, load_study_folder
    from cardsim.solvers.agent_spec import parse_agent
    if Path(args.spec).is_dir():
        if args.out and Path(args.out).resolve() != Path(args.spec).resolve():
            raise CardsimError(f"`cardsim run {args.spec}` resumes that folder itself: drop "
                               f"--out {args.out}")
        out = args.spec
        if is_study_folder(out):
            study = load_study_folder(out)
        else:
            data = Store.open(args.spec).manifest()["spec"]
            study = calibration_from_dict(data) if is_calibration(data) else spec_from_dict(data)
    else:
        study, out = load_study(args.spec), args.out or str(Path("runs") / Path(args.spec).stem)
    if isinstance(study, CalibrationSpec):
        return _calibrate(study, out, args)
    if isinstance(study, VariantStudy):
        return _run_variants(study, out, args)
    spec = study
    if not spec.equity and any(parse_agent(a, spec.game).for_the_match for a in spec.agents):
        from cardsim.experiments.equity import load_table  # the default table, computed if missing
        load_table(spec.load(), "", "cardsim run")
    return _run_and_print(spec, out, args.jobs, not args.quiet, args.dask, args.format)


def _run_and_print(spec, out: str, jobs: int, progress: bool, dask: str | None,
                   fmt: str = "table") -> int:
    """Run an experiment spec into ``out`` (warming its compiled code up first), then print
    its answer and tables (:func:`cardsim.app.results.print_run`)."""
    from cardsim.experiments.runner import RunConfig, run, used_rows, warm_up

    from .results import print_run
    warm_up(spec)                    # compile (or load) here once, before the workers start
    store = run(spec, RunConfig(out=out, jobs=jobs, progress=progress, dask=dask))
    with Output(fmt) as shown:
        print_run(spec, out, used_rows(spec, store.rows()), shown)
    return 0


# --- variants ------------------------------------------------------------------------------------


def add_variants(sub) -> None:
    p = sub.add_parser("variants", help="compare rules variants of a game: each plays the same "
                       "deals, its designer's measures against the baseline's")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("--vary", action="append", default=[], metavar="OPTION=V1,V2",
                   required=True, help="a rules option and the values to try, repeatable: "
                   "every combination is a variant, the first the baseline (see `cardsim "
                   "games`), e.g. target_score=11,21")
    rules_option(p, "a rules option every variant shares, repeatable")
    p.add_argument("--agents", default="heuristic,random", metavar="A,B",
                   help="the two agents: each variant plays A against itself and A against B "
                   "(heuristic,random)")
    p.add_argument("--deals", type=int_at_least(2, "at least 2"), default=2000,
                   help="duplicate deals per matchup and variant (2000)")
    p.add_argument("--matches", type=int_at_least(0, "non-negative"), default=200,
                   help="whole matches per matchup and variant, the same two matchups, for "
                   "the balance and skill of whole matches (200; 0: none; none either where "
                   "the baseline's match may not end: Mushka without max_deals)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=1,
                   help="the root seed, the same for every variant (1)")
    p.add_argument("--out", type=folder,
                   help="the study's folder (runs/variants_<game>); an existing one resumes")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=1,
                   help="local worker processes (1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_format(p)
    p.set_defaults(handler=cmd_variants, dask=None)


def cmd_variants(args: argparse.Namespace) -> int:
    """A quick variant study: ``--vary`` options' grid, A against itself and against B."""
    from cardsim.experiments.variants import parse_study
    grid = {}
    for text in args.vary:
        name, eq, values = text.partition("=")
        if not eq or not name.strip() or not values.strip():
            raise CardsimError(f"--vary {text!r}: expected OPTION=V1,V2 (see `cardsim games`)")
        if name.strip() in grid:
            raise CardsimError(f"--vary {name.strip()}: given twice; list its values once")
        grid[name.strip()] = [v.strip() for v in values.split(",")]
    agents = [a.strip() for a in args.agents.split(",")]
    if len(agents) != 2 or not all(agents):
        raise CardsimError(f"--agents {args.agents!r}: expected two agents, A,B")
    shared = parse_option_pairs(args.option)
    parts = [{"name": "deals", "agents": agents, "matchups": [[0, 0], [0, 1]],
              "size": {"deals": args.deals}}]
    d = definition(args.game)
    first = {k: v[0] for k, v in grid.items()}
    try:
        endless = d.match is None or d.endless_match(rules_from_options(
            d.rules_type, {**shared, **first}, args.game))
    except CardsimError:
        endless = False                  # a bad option: parse_study says which, in one line
    if args.matches and not endless:
        parts.append({**parts[0], "name": "matches", "unit": "match",
                      "size": {"deals": args.matches}})
    study = parse_study({
        "kind": "variants", "game": args.game, "seed": args.seed,
        "question": f"What does {' and '.join(grid)} change in {args.game}?", "rules": shared,
        "variants": {"grid": grid}, "parts": parts})
    return _run_variants(study, args.out or str(Path("runs") / f"variants_{args.game}"), args)


def _run_variants(study, out: str, args: argparse.Namespace) -> int:
    """``cardsim run`` of a variant study (:mod:`cardsim.experiments.variants`): every
    (variant, part) run or resumed, then the differences from the baseline."""
    from cardsim.experiments.runner import RunConfig, warm_up
    from cardsim.experiments.variants import run_study
    for spec in study.specs.values():
        warm_up(spec)                # compiled once here, before the workers start
    run_study(study, RunConfig(out=out, jobs=args.jobs, progress=not args.quiet,
                               dask=args.dask))
    with Output(args.format) as shown:
        print_variants(study, out, shown)
    return 0


def print_variants(study, out: str, shown: Output) -> None:
    """A variant study's answer (what differs from the baseline, significant after Holm's
    correction: :func:`cardsim.reports.variants.answer`) and a table of differences per
    variant."""
    from cardsim.experiments.variants import ALPHA, study_differences
    from cardsim.reports.variants import answer
    table = study_differences(study, out)
    for sentence in answer(study, out, table):
        shown.say(sentence)
    part = "" if len(study.parts) == 1 else table["part"] + " · "
    table = table.assign(mark=table["significant"].map({True: "*", False: ""}),
                         heading=part + table["label"])
    for k, v in enumerate(study.variants):
        mine = table[table["variant"] == v.name]
        if not len(mine):
            continue
        shown.table(f"differences_{k}", mine, ["measure", "baseline", "value", "diff",
                                               "p_holm", "mark"], groups="heading",
                    title=f"{v.name} against the baseline",
                    names={"diff": "difference [95%]", "p_holm": "p (Holm)", "mark": ""},
                    kinds={"baseline": "rate", "value": "rate", "diff": "rate",
                           "p_holm": "rate"},
                    note="" if k < len(study.variants) - 1 else (
                        "Measures per matchup, each variant's against the baseline's on the "
                        "same deals (paired bootstrap over the deals); * marks a difference "
                        "whose Holm-adjusted p-value over every table is at most "
                        f"{ALPHA}. The measures are defined in "
                        "cardsim/experiments/measures.py and in the report (cardsim report)."))


def _calibrate(spec, out: str, args: argparse.Namespace) -> int:
    """``cardsim run`` of a calibration study (:mod:`cardsim.experiments.calibration`): its missing
    batches, then its summary."""
    from cardsim.experiments.calibration import run_calibration
    if args.dask:
        raise CardsimError("a calibration study runs on local processes: drop --dask")

    def say(done: int, total: int) -> None:
        print(f"calibration: {done} of {total} batches", file=sys.stderr, flush=True)
    rows = run_calibration(spec, out, args.jobs, None if args.quiet else say)
    with Output(args.format) as shown:
        print_calibration(spec, out, rows, shown)
    return 0


def print_calibration(spec, out: str, rows: pd.DataFrame, shown: Output) -> None:
    """A calibration study's positions, then its summary per evaluator (and stage)."""
    from cardsim.experiments.calibration import summary
    shown.say(f"{spec.game}: {rows['deal'].nunique():,} {spec.units}, {len(rows):,} positions "
              f"and evaluations in {out}.")
    if spec.question:
        shown.say(f"Question: {spec.question}")
    table = summary(rows, spec.names)
    keep = ["stage", "positions", "predicted_win", "realized_win",
            "ece_corrected", "brier", "bias", "match_predicted", "match_realized",
            "match_ece_corrected"]
    shown.table("calibration", table, [c for c in keep if c in table.columns],
                title="Calibration per evaluator", kinds={"bias": "points"}, groups="evaluator",
                names={"predicted_win": "predicted", "realized_win": "realized",
                       "ece_corrected": "ECE", "bias": "bias [95%]",
                       "match_predicted": "match predicted", "match_realized": "realized",
                       "match_ece_corrected": "match ECE"},
                plain=["ece_corrected", "match_ece_corrected"],
                note="Predicted and realized: the mean predicted win probability and the share "
                     "won; ECE: the expected calibration error, corrected for the noise of the "
                     "bins; bias: the realized less the predicted mean return. The report "
                     "(cardsim report) has every column.")


# --- equity --------------------------------------------------------------------------------------

def add_equity(sub) -> None:
    p = sub.add_parser("equity", help="a match-equity table: the chance of winning the match "
                       "from every match score, from simulated deals (resumable)")
    p.add_argument("game", help="a game name (see `cardsim games`; Scopa, Bura with "
                   "match_format=wins_to_n or penalty_points, Minchiate and Mushka)")
    rules_option(p, "a rules option, repeatable (see `cardsim games`), e.g. target_score=21")
    p.add_argument("--agents", default="heuristic", metavar="A,B",
                   help="side a's and side b's agents (heuristic for both: a table needs about "
                   "20,000 deals, which the heuristic plays in seconds and a searching agent "
                   "in hours); one agent plays both sides (Mushka: A plays the mover, B every "
                   "other seat)")
    p.add_argument("--deals", type=int_at_least(1, "positive"), default=20_000,
                   help="duplicate deals simulated (20000: Scopa to 11 then has every 95%% "
                   "interval within ±0.01)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=0,
                   help="root seed (0) of the deals and of the bootstrap")
    p.add_argument("--games", type=int_at_least(1, "positive"), default=None,
                   help="Mushka: whole games played (20000); every Mushka request needs "
                   "--option max_deals=N (a game without it may never end)")
    p.add_argument("--records", metavar="R0,R1,...",
                   help="Mushka: each position's chance to win the game from these records, "
                   "listed from the first player to decide (the dealer's left, agent A) round "
                   "to the dealer (agent B at every other seat), one per player; without it, "
                   "the table of the mover's chance by his record against the best other")
    p.add_argument("--boot", type=int_at_least(10, "at least 10", 10_000), default=200,
                   help="bootstrap resamples for the intervals (200)")
    p.add_argument("--out", type=folder, help="the table's folder (runs/equity_<game>"
                   "[_<option>-<value>...]); an existing one resumes")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=1,
                   help="local worker processes (1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_format(p)
    p.set_defaults(handler=cmd_equity)


def cmd_equity(args: argparse.Namespace) -> int:
    """Compute (or resume) a match-equity table into a folder and print it as grids."""
    from cardsim.experiments.equity import (
        EquityConfig,
        default_folder,
        match_model,
        run_equity,
        split_agents,
    )
    from cardsim.game import load_game
    options = parse_option_pairs(args.option)
    game = load_game(args.game, **options)
    given = getattr(args, "_given", set())
    if game.definition.records_match is not None:   # no small table: whole games
        return _records_equity(args, options, game, given)
    if "records" in given or "games" in given:
        raise CardsimError(f"equity {game.name}: --records and --games are for a game decided "
                           f"by seat records (Mushka); {game.name}'s table counts --deals")
    model = match_model(game)
    config = EquityConfig(game=game.name, rules=options, agents=split_agents(args.agents),
                          deals=args.deals, seed=args.seed, boot=args.boot)
    out = args.out or default_folder(game.name, options)
    table = run_equity(config, out, jobs=args.jobs, progress=not args.quiet)
    a, b = config.agents
    with Output(args.format) as shown:
        shown.say(f"{game.name}: the chance that side a ({a}) wins the match against side b "
                  f"({b}) from each state ({model.description}); {args.deals:,} duplicate "
                  f"deals, 95% bootstrap intervals of {args.boot} resamples, in {out}.")
        print_equity(table, model, shown, symmetric=a == b)
    return 0


def _records_equity(args: argparse.Namespace, options: dict, game, given: set) -> int:
    """``cardsim equity`` of a game decided by seat records (Mushka): the chances of winning
    whole games, by the players' records (:mod:`cardsim.experiments.records_equity`)."""
    from cardsim.experiments import records_equity as me
    from cardsim.experiments.equity import default_folder, split_agents
    if "deals" in given:
        raise CardsimError(f"equity {game.name}: --deals is for a table of match states; "
                           f"{game.name}'s equity counts whole games (--games N)")
    records = None if args.records is None else me.parse_records(args.records)
    config = me.GameEquityConfig(game=game.name, rules=options,
                                 agents=split_agents(args.agents),
                                 games=args.games or me.GAMES, seed=args.seed,
                                 records=records, boot=args.boot)
    name = dict(options, **({} if records is None else
                            {"records": "-".join(map(str, records))}))
    out = args.out or default_folder(game.name, name)
    table, rows = me.run_game_equity(config, out, jobs=args.jobs, progress=not args.quiet)
    with Output(args.format) as shown:
        print_records_equity(table, rows, config, game, out, shown)
    return 0


def print_records_equity(table: pd.DataFrame, rows: pd.DataFrame, config, game, folder,
                         out: Output) -> None:
    """``cardsim equity`` of a game of seat records: what was computed, the table (a records
    query's chances, or the mover table's grid of the cells with at least
    :func:`~cardsim.experiments.records_equity.shown_count` snapshots), its widest interval,
    and how often ``max_deals`` cut a game short."""
    from cardsim.experiments import records_equity as me
    n = game.num_players
    model = game.definition.records_match(game.rules)
    s = me.summary(rows)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(config.rules.items()))
    out.say(f"{game.name} ({rules}): {me.describe(config, n)}; {s['games']:,} whole games "
            f"(seed {config.seed}), {s['deals_mean']:.1f} deals a game on average, in "
            f"{folder}.")
    half = (table["p_high"] - table["p_low"]) / 2
    cut = (f"{model.cut} cut {fmt_percent(*s['cut'])} of the games short (the lowest "
           f"record won; {s['ties']} ties for it shared the win).")
    if config.records is not None:
        best = int(table["p_win"].to_numpy().argmax())
        out.say(f"The best placed: {me.positions(n)[best]} (record {table['record'].iloc[best]}"
                f"), {fmt_percent(*table[['p_win', 'p_low', 'p_high']].iloc[best])} to win "
                "the game.", cut)
        shown = table.assign(position=me.positions(n)).rename(
            columns={"p_low": "p_win_lo", "p_high": "p_win_hi"})
        out.table("chances", shown, ["position", "record", "agent", "p_win"],
                  names={"p_win": "chance to win [95%]"}, kinds={"record": "count"},
                  title="Each position's chance to win the game (records from the dealer's "
                        "left round to the dealer)",
                  note=f"The chances add up to {table['p_win'].sum():.6f}; widest 95% interval "
                       f"±{100 * half.max():.2f} percentage points.")
        return
    often = table["count"] >= me.shown_count(table)
    out.say(f"Widest 95% interval ±{100 * half[often].max():.2f} percentage points among the "
            f"cells shown (mean ±{100 * half[often].mean():.2f}), ±{100 * half.max():.2f} "
            "among all.", cut)
    if out.fmt in ("csv", "json"):
        out.table("equity", table.rename(columns={"p_low": "p_win_lo", "p_high": "p_win_hi"}))
        return
    values, _ = me.mover_grid(table)
    start = model.start_points
    grid = (100 * values).map(lambda v: "" if pd.isna(v) else f"{v:.0f}")
    grid.columns = [me.record_label(c, start) for c in grid.columns]
    grid.insert(0, "", [me.record_label(r, start) for r in grid.index])
    out.table("grid", grid.reset_index(drop=True), kinds=dict.fromkeys(grid.columns, "text"),
              title="The mover's chance to win the game, percent, by his record (down) against "
                    "the best other record (across), at the start of every deal",
              note=f"Cells of at least {me.shown_count(table)} snapshots ({int(often.sum())} of "
                   f"{len(table)}); 95% bootstrap intervals over {config.boot} resamples of "
                   "the games.")


def print_equity(table: pd.DataFrame, model, out: Output, symmetric: bool) -> None:
    """The table's answer (side a's chance from the first state of each part), its grids
    (side a's chance in percent; csv and json: the table itself, one row a state) and its
    checks (:func:`cardsim.experiments.equity.table_checks`)."""
    from cardsim.experiments.equity import grids, splits, table_checks
    rows, cols = model.columns[:2]
    for name, part in splits(table, model.columns).items():
        first = part.sort_values([rows, cols], kind="stable").iloc[0]
        out.say(f"At {rows} {first[rows]}, {cols} {first[cols]} ({name}): side a wins "
                f"{fmt_percent(first['p_win'], first['p_low'], first['p_high'])} of the "
                "matches.")
    half = (table["p_high"] - table["p_low"]) / 2
    out.say(f"Widest 95% interval ±{100 * half.max():.2f} percentage points (mean "
            f"±{100 * half.mean():.2f}).")
    if out.fmt in ("csv", "json"):
        out.table("equity", table.rename(columns={"p_low": "p_win_lo", "p_high": "p_win_hi"}),
                  [*model.columns, "p_win"])
    else:
        for name, (values, _) in grids(table, model.columns).items():
            grid = (100 * values).map(lambda v: "" if pd.isna(v) else f"{v:.0f}")
            grid.columns = [str(c) for c in grid.columns]
            grid.insert(0, "", [str(i) for i in grid.index])     # score_a down (the title)
            out.table(f"grid {name}", grid.reset_index(drop=True), title=(
                f"{name}: side a's chance to win the match, percent ({rows} down, {cols} "
                "across)"), kinds={c: "text" for c in grid.columns}, note="")
    checks = table_checks(table, model, symmetric=symmetric)
    out.table("checks", checks, title="Checks", kinds={"worst": "number"})


# --- train ---------------------------------------------------------------------------------------

def add_train(sub) -> None:
    p = sub.add_parser("train", help="train a game's learned evaluation by self-play "
                       "(deep Monte-Carlo) and write its report; run again to go on")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    rules_option(p, "a rules option the weights are for, repeatable (see `cardsim games`)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), help="root seed (0)")
    p.add_argument("--rounds", type=int_at_least(1, "positive", 100),
                   help="rounds of play and fit (3)")
    p.add_argument("--deals", type=int_at_least(10, "at least 10", 10**7),
                   help="deals played a round (20000)")
    p.add_argument("--hidden", type=int_at_least(1, "positive", 4096),
                   help="hidden units of the network (64)")
    p.add_argument("--epochs", type=int_at_least(1, "positive", 1000),
                   help="most epochs a fit (20)")
    p.add_argument("--iterations", type=int_at_least(1, "positive", 10**6),
                   help="ISMCTS iterations a move of the self-play after round 0 (100)")
    p.add_argument("--check-deals", dest="check_deals", type=int_at_least(0, "non-negative",
                                                                         10**6),
                   help="duplicate deals of each round's strength check (200; 0: none)")
    p.add_argument("--check-iterations", dest="check_iterations",
                   type=int_at_least(1, "positive", 10**6),
                   help="ISMCTS iterations a move in the strength check (300)")
    p.add_argument("--keep", type=share,
                   help="the share of the positions played that the fit learns from (0.25)")
    p.add_argument("--playouts", type=int_at_least(0, "non-negative", 10_000),
                   help="learn from the mean return of this many play-outs of each kept "
                   "position by the heuristic, not from the deal's own return (0)")
    p.add_argument("--view", choices=("world", "info"),
                   help="what the network sees of a position: the true world (a perfect-"
                   "information value) or a world sampled for the seat (the value of what it "
                   "knows) (world)")
    p.add_argument("--budget", type=seconds, default=0.0, metavar="MINUTES",
                   help="start no new round after this many minutes (none)")
    p.add_argument("--out", type=folder, help="training folder (runs/train-<game>); an "
                   "existing one goes on where it stopped")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=1,
                   help="worker processes playing the deals (1)")
    p.add_argument("--quiet", action="store_true", help="print only the last line")
    p.set_defaults(handler=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    """Train (or go on training) a game's learned evaluation by self-play into a folder, then
    write its report (:mod:`cardsim.solvers.training`, :mod:`cardsim.reports.training`)."""
    from cardsim.reports.training import write_training_report
    from cardsim.solvers.training import Plan, train
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


# --- demo, report --------------------------------------------------------------------------------

def add_demo(sub) -> None:
    p = sub.add_parser("demo", help="a built-in study: Scopa's random, heuristic and ISMCTS "
                       "players on duplicate deals, ending with its report in OUT/report")
    p.add_argument("--out", type=folder, default="runs/demo", help="results folder (runs/demo)")
    p.add_argument("--jobs", type=int_at_least(1, "positive"), default=2,
                   help="local worker processes (2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_format(p)
    p.set_defaults(handler=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """The built-in study (cardsim/experiments/demo.toml) on 2 local processes."""
    import cardsim.experiments
    from cardsim.experiments.spec import load_spec
    spec = load_spec(Path(cardsim.experiments.__file__).resolve().parent / "demo.toml")
    print(f"cardsim demo: {len(spec.matchups)} matchups x {spec.deals} duplicate deals of "
          f"{spec.game}, seed {spec.seed}, into {args.out}",
          file=sys.stdout if args.format == "table" else sys.stderr)
    status = _run_and_print(spec, args.out, args.jobs, not args.quiet, None, args.format)
    return status or _write_report(args.out, None, "both",
                                   sys.stdout if args.format == "table" else sys.stderr)


def add_report(sub) -> None:
    p = sub.add_parser("report", help="write a run's report (HTML with embedded plots, "
                       "Markdown with PNG plots, tables as CSV) from its results store alone")
    p.add_argument("run", help="a results folder written by `cardsim run` or `cardsim demo`")
    p.add_argument("--format", choices=["html", "md", "both"], default="both",
                   help="report.html, report.md or both (both)")
    p.add_argument("--out", type=folder,
                   help="report folder (RUN/report); rewritten whole on every build")
    p.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    """Write a run's report (HTML, Markdown, CSV) from its store alone."""
    return _write_report(args.run, args.out, args.format)


def _write_report(run: str, out: str | None, fmt: str, file=None) -> int:
    from cardsim.reports import build_report
    files = build_report(run, out=out, fmt=fmt)
    shown = [str(p) for p in (files.html, files.markdown) if p is not None]
    words = (f"report: {' and '.join(shown)} ({len(files.plots) or 'embedded'} plots, "
             f"{len(files.tables)} tables as CSV in {files.folder / 'tables'})").split(" ")
    print("\n" + "\n".join(wrapped(words, WIDTH)), file=file)
    return 0


# --- verify, compare -----------------------------------------------------------------------------

def add_verify(sub) -> None:
    p = sub.add_parser("verify", help="check a run's results store without running anything: "
                       "every batch against its recorded size, rows and checksum, and the store's "
                       "columns")
    p.add_argument("run", help="a results folder written by `cardsim run` or `cardsim demo`")
    p.set_defaults(handler=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a run's store without running anything: every batch read back and checked against
    its record (size, rows, sha256) and the store's columns."""
    from cardsim.experiments.store import QUARANTINE, Store
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


def add_compare(sub) -> None:
    p = sub.add_parser("compare", help="two runs of the same game side by side: spec "
                       "differences, results and their differences with 95%% intervals")
    p.add_argument("run_a", metavar="RUN_A", help="a results folder")
    p.add_argument("run_b", metavar="RUN_B", help="another results folder of the same game")
    add_format(p)
    p.set_defaults(handler=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """Two runs of the same game side by side."""
    from cardsim.reports.compare import compare_runs

    from .results import print_comparison
    with Output(args.format) as out:
        print_comparison(compare_runs(args.run_a, args.run_b), out)
    return 0


SUBCOMMANDS = {"run": add_run, "variants": add_variants, "equity": add_equity, "train": add_train, "demo": add_demo,
               "report": add_report, "verify": add_verify, "compare": add_compare}
"""Subcommand -> the function that adds its parser and handler to ``cardsim``'s subparsers."""
