"""The subcommands on positions and deals: ``analyze`` (value every action of a position),
``review`` (a played deal, decision by decision), ``solve`` (a fully known position, exactly)
and ``play`` (a person at the terminal, :mod:`.interactive`), with the reading of a position
from a position file or a game record.

Each ``add_<command>(sub)`` adds its subcommand's parser, with its handler ``cmd_<command>``
beside it; :data:`SUBCOMMANDS` lists them for :func:`cardsim.app.cli.make_parser`. A handler
imports the heavier modules it calls when it runs, so that the command line starts fast.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError, shown
from cardsim.game import definition
from cardsim.protocol.options import parse_option_pairs, rules_from_options

from .arguments import (
    folder,
    infer_choice,
    infer_option,
    int_at_least,
    position_command,
    rules_option,
    where_of,
)
from .output import Output, add_format, wrapped

# --- a position from a file ------------------------------------------------------------------------


def _load_position(game_name: str, path: str, options: list[str], at: int | None = None):
    """(game, state) from a position JSON file; the file's ``rules`` are the game's options
    unless ``--option`` gives others. A game record (``cardsim play --record``) gives the
    position after its first ``at`` moves (all by default), with the moves that led there."""
    from cardsim.files import GAME_RECORD_BYTES
    from cardsim.game import load_game
    from cardsim.records.documents import read_document
    definition(game_name)
    position = read_document(path, "JSON", limit=GAME_RECORD_BYTES,
                             what="a position or game record")
    if not isinstance(position, dict):
        raise CardsimError(f"{path}: expected a position object, got {type(position).__name__}")
    if position.get("format") == "cardsim-record":
        return _record_position(game_name, path, options, at)
    if at is not None:
        raise CardsimError("--at goes with a game record (the position after its first N "
                           "moves)")
    named = position.get("game", game_name)
    if named != game_name:
        raise CardsimError(f"{path}: a position of {str(named)[:40]}, not "
                           f"{game_name}")
    rules = position.get("rules", {})
    if not isinstance(rules, dict):
        raise CardsimError(f"{path}: rules={shown(rules)}: expected an object of rules options")
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
    from cardsim.records.replay import action_from_string, read_record
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


def _conditioned_opening(args: argparse.Namespace):
    """``analyze --where``: (game, state) of the opening of the deal of ``--deal-seed`` drawn
    under the condition (:mod:`cardsim.deals`); the player must be the first to decide."""
    from cardsim.game import load_game
    if args.position is not None:
        raise CardsimError("--where draws the deal to analyze: give no position file")
    where = where_of(args.where)
    game = load_game(args.game, **parse_option_pairs(args.option))
    state = game.new_deal(seed=args.deal_seed or 0, where=where)
    if state.current_player() != args.player:
        raise CardsimError(f"the drawn deal's first decision is seat {state.current_player()}'s: "
                           f"--player {state.current_player()}")
    return game, state


def _equity(game, match: str | None):
    """The match-equity table of ``--match [EQUITY_DIR]``, or None without it."""
    from cardsim.experiments.equity import analysis_equity
    return analysis_equity(game, match, "cardsim analyze --match") if match is not None else None


# --- analyze ---------------------------------------------------------------------------------------

def add_analyze(sub) -> None:
    p = position_command(sub, "analyze", "value every legal action of a position (win "
                         "probability and expected return, with intervals)", ", or a game "
                         "record (`cardsim play --record`; --at N); only what the "
                         "player sees is used: sampled worlds replace the hidden cards; "
                         "without it, --where", optional=True)
    p.add_argument("--player", type=int_at_least(0, "non-negative"), required=True,
                   help="the seat to move, as whom the position is seen")
    p.add_argument("--agent", default="heuristic",
                   help="the agent that plays every seat after the first move (heuristic; "
                   "random; ismcts:iterations=N,...; pimc:worlds=N; a level easy, medium, "
                   "fast, strong, best)")
    p.add_argument("--worlds", type=int_at_least(2, "at least 2", 1_000_000), default=200,
                   help="sampled worlds per action (200)")
    infer_option(p, "read from a game record given as the position")
    p.add_argument("--at", type=int_at_least(0, "non-negative"), default=None, metavar="N",
                   help="with a game record as the position: the position after its first N "
                   "moves (all)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=0, help="seed (0)")
    p.add_argument("--match", nargs="?", const="", default=None, metavar="EQUITY_DIR",
                   help="also each action's chance of winning the match, from the position's "
                   "scores and a match-equity table (`cardsim equity --out EQUITY_DIR`; "
                   "without a folder, cardsim equity's default one, computed first if "
                   "missing): the player's side is side a")
    p.add_argument("--where", metavar="JSON", default=None,
                   help="instead of a position file: the opening of a deal drawn under this "
                   "condition on the initial cards (cardsim.deals), e.g. "
                   "'{\"hold\": {\"0\": [\"7co\"]}}'")
    p.add_argument("--deal-seed", type=int_at_least(0, "non-negative"), default=None,
                   help="with --where: the seed of the drawn deal (0)")
    rules_option(p, "a rules option (default: the position's rules)")
    add_format(p)
    p.set_defaults(handler=cmd_analyze)


def cmd_analyze(args: argparse.Namespace) -> int:
    """Every legal action of a position, as the player to move sees it, with its expected
    return and win probability."""
    from cardsim.solvers.analyze import AnalysisConfig, analyze
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
                            seed=args.seed, infer=infer_choice(args))
    table = analyze(state, config, _equity(game, args.match))
    with Output(args.format) as out:
        print_analysis(game, args.player, table, out)
    return 0


def print_analysis(game, player: int, table: pd.DataFrame, out: Output) -> None:
    """analyze's answer (the best action, and how close the next is), its table (an
    action's expected return and win rate with their 95% intervals, best first) and the
    match's line if it has one."""
    shown = table.rename(columns={
        "return_low": "mean_return_lo", "return_high": "mean_return_hi",
        "win_low": "win_rate_lo", "win_high": "win_rate_hi", "match_low": "match_win_lo",
        "match_high": "match_win_hi"})
    unit = game.definition.return_unit
    best = shown.iloc[0]
    out.say(f"{game.name}: player {player} to move, {len(shown)} legal action"
            f"{'s' if len(shown) != 1 else ''}.")
    out.say(f"Best: {best['action']}, {_expected(best, unit)}.")
    if len(shown) > 1:
        second = shown.iloc[1]
        close = second["mean_return_hi"] >= best["mean_return_lo"]
        out.say(f"Next: {second['action']}, {_expected(second, unit)}"
                + (": within the best one's interval, too close to call." if close
                   else "."))
    columns = ["action", "mean_return", "win_rate"] + (
        ["match_win"] if "match_win" in shown.columns else [])
    out.table("actions", shown, columns, title="Every legal action, best first",
              names={"mean_return": f"expected {unit} [95%]", "win_rate": "won [95%]",
                     "match_win": "match won [95%]"},
              kinds={"match_win": "rate"})
    if "match" in table.attrs:
        out.say(table.attrs["match"])


def _expected(row: pd.Series, unit: str) -> str:
    from cardsim.stats import fmt_amount
    return (fmt_amount(row["mean_return"], row["mean_return_lo"], row["mean_return_hi"],
                       f"{unit} expected", signed=True)
            + f", won in {100 * row['win_rate']:.0f}% of the worlds")


# --- review ----------------------------------------------------------------------------------------

def add_review(sub) -> None:
    p = sub.add_parser("review", help="review a played deal: every decision valued from the "
                       "player's view, the loss of each move, mistakes marked, luck told "
                       "apart from skill")
    p.add_argument("record", help="a game record (JSON, `cardsim play --record`), or with "
                   "--game a text file of moves, one a line")
    p.add_argument("--player", type=int_at_least(0, "non-negative"), default=None,
                   help="the seat to review (every seat of a full record; a view record's "
                   "player)")
    p.add_argument("--agent", default="heuristic",
                   help="the agent that plays every seat out after each action (heuristic)")
    p.add_argument("--worlds", type=int_at_least(2, "at least 2", 1_000_000), default=200,
                   help="sampled worlds per decision, from the player's view (200)")
    infer_option(p, "the record's moves before each decision (a full record)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=0, help="seed (0)")
    p.add_argument("--thresholds", type=_thresholds, default=None, metavar="I,M,B",
                   help="the losses that make an inaccuracy, a mistake and a blunder, in the "
                   "game's return units (default 0.05, 0.1, 0.2 times its reward scale: "
                   "Scopa 0.2,0.4,0.8 points)")
    p.add_argument("--baseline", type=int_at_least(0, "non-negative", 1_000_000),
                   default=2000, help="deals of the evaluator against itself that give the "
                   "expected result before the deal, for luck (2000; 0: no luck)")
    p.add_argument("--match", nargs="?", const="", default=None, metavar="EQUITY_DIR",
                   help="also the loss in match-winning chance, from a match-equity table "
                   "(as analyze --match)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--report", type=folder, default=None, metavar="DIR",
                   help="also write the review report (HTML and Markdown) into DIR")
    p.add_argument("--game", default=None,
                   help="the RECORD file is a list of moves of this game")
    p.add_argument("--deal-seed", type=int_at_least(0, "non-negative"), default=None,
                   help="with --game: the seed of the deal the moves were played on")
    rules_option(p, "with --game: a rules option")
    add_format(p)
    p.set_defaults(handler=cmd_review)


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


def cmd_review(args: argparse.Namespace) -> int:
    """Review a played deal: every decision of the player (or of every seat) valued from his
    view, the loss of the move played, marks, totals and luck (cardsim/solvers/review.py)."""
    from cardsim.game import load_game
    from cardsim.records.replay import from_moves, read_record
    from cardsim.solvers.review import ReviewConfig, review
    if args.game is not None:             # a plain list of moves, one a line
        game = load_game(args.game, **parse_option_pairs(args.option))
        if args.deal_seed is None:
            raise CardsimError("a list of moves (--game) needs --deal-seed, the seed of the "
                               "deal it was played on")
        moves = [m for m in (x.strip() for x in _read_text(args.record).splitlines()) if m]
        if not moves:
            raise CardsimError(f"{args.record}: no moves: expected the deal's moves, one a "
                               "line")
        record = from_moves(game, moves, seed=args.deal_seed)
    else:
        if args.deal_seed is not None or args.option:
            raise CardsimError("--deal-seed and --option are for a list of moves (--game)")
        record = read_record(args.record)
        game = record.game
    config = ReviewConfig(players=None if args.player is None else (args.player,),
                          agent=args.agent, worlds=args.worlds, seed=args.seed,
                          thresholds=args.thresholds, baseline=args.baseline,
                          infer=infer_choice(args))
    equity = _equity(game, args.match)
    rv = review(record, config, equity, progress=None if args.json else _decision_counter())
    if args.report:
        from cardsim.reports.review import write_review_report
        write_review_report(rv, args.report)
    if args.json:
        print(json.dumps(rv.to_dict(), indent=1))
        return 0
    with Output(args.format) as out:
        print_review(rv, out)
        if args.report and out.fmt == "table":
            out.say(f"report: {args.report}")
    return 0


def print_review(rv, out: Output) -> None:
    """A review's answer (each seat's loss, marks and luck in a sentence), then its decisions
    and the settings in a note."""
    from cardsim.solvers.review import MARKS, PLURALS, count_of
    from cardsim.stats import fmt_signed
    game = rv.record.game
    unit = game.definition.return_unit
    for t in rv.totals.itertuples(index=False):
        marks = ", ".join(count_of(getattr(t, PLURALS[m]), m) for m in reversed(MARKS))
        luck = ("" if np.isnan(t.luck) else
                f" Expected before the deal {fmt_signed(t.expected_before)}, result "
                f"{fmt_signed(t.result)}: luck {fmt_signed(t.luck)} ±{t.luck_half:.2f} "
                "(result - expected = luck - loss).")
        out.say(f"Seat {t.seat} ({t.who}) lost {t.loss:.2f} ±{t.loss_half:.2f} {unit} against "
                f"the best moves over {count_of(t.decisions, 'decision')} "
                f"({t.loss_per_decision:.3f} a decision): {marks}.{luck}")
    d = rv.decisions.assign(
        move=rv.decisions["move"] + 1, loss_lo=rv.decisions["loss_low"],
        loss_hi=rv.decisions["loss_high"],
        best=[b if b != p else "" for b, p in zip(rv.decisions["best"], rv.decisions["played"])],
        best_value=[v if b != p else np.nan for v, b, p in zip(
            rv.decisions["best_value"], rv.decisions["best"], rv.decisions["played"])])
    out.table("decisions", d, ["move", "seat", "played", "played_value", "best", "best_value",
                               "loss", "mark"],
              names={"played_value": "value", "best": "best (if other)",
                     "best_value": "its value", "loss": "loss [95%]"},
              kinds={"played_value": "points", "best_value": "points", "loss": "points"},
              title="Every decision, valued from the player's view",
              note=f"{rv.config.worlds} worlds each, played out by {rv.config.agent}; values "
                   f"and losses in {unit}, 95% intervals; marks at " + ", ".join(
                       f"{m} {t:g}" for m, t in zip(MARKS, rv.thresholds)) + ".")


def _read_text(path: str) -> str:
    """A list of moves (UTF-8 text) from ``path``, bounded as a game record is
    (:func:`cardsim.files.read_limited`)."""
    from cardsim.files import GAME_RECORD_BYTES, read_limited
    data = read_limited(path, GAME_RECORD_BYTES, "a list of moves", CardsimError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CardsimError(f"{path} is not UTF-8 text: {e.reason} at byte {e.start}") from None


def _decision_counter():
    """Progress of a review on standard error: a line every ten decisions."""
    def tick(k: int) -> None:
        if k % 10 == 0:
            print(f"reviewed {k} decisions", file=sys.stderr)
    return tick


# --- solve -----------------------------------------------------------------------------------------

def add_solve(sub) -> None:
    p = position_command(sub, "solve", "exact values of every legal action of a fully known "
                         "position (all hands and the stock order), and the line of best play",
                         " with every card known")
    p.add_argument("--stats", action="store_true",
                   help="also print nodes searched, table hits, cut-offs and time")
    rules_option(p, "a rules option (default: the position's rules)")
    add_format(p)
    p.set_defaults(handler=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    """Every legal action of a fully known position with its exact value, and the line of best
    play (cardsim/solvers/exact.py)."""
    from cardsim.solvers import exact
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
    with Output(args.format) as out:
        print_solution(game, state, ws, actions, values, seconds if args.stats else None, out)
    return 0


def print_solution(game, state, ws, actions, values, seconds: float | None,
                   out: Output) -> None:
    """solve's output: the position's value and best action, every action's exact value for
    the mover's side (with the value's parts where the game has them), the principal line
    wrapped to the width, and given the search's ``seconds``, its statistics (read from the
    workspace ``ws`` before the line is searched)."""
    from cardsim.solvers import exact
    nodes, hits, cuts = (int(ws.stats[k]) for k in (exact.NODES, exact.HITS, exact.CUTS))
    side = exact.side_to_move(state)
    sign = 1 if side == 0 else -1
    line = exact.principal_line(state, ws)
    spec = game.spec
    unit = spec.exact.unit
    mover = state.current_player()
    best = max(sign * int(v) for v in values)
    rows = [{"action": state.action_to_string(int(a)), "value": sign * int(v),
             "best": "*" if sign * int(v) == best else ""} for a, v in zip(actions, values)]
    for row in rows:                          # the value's parts, where the game has them
        row.update(spec.exact.columns(row["value"]))
    table = pd.DataFrame(rows).sort_values("value", ascending=False, kind="stable")
    firsts = [r["action"] for r in rows if r["value"] == best]
    out.say(f"{game.name}: seat {mover} to move (side {side}), every card known. The position "
            f"is worth {best} ({unit}) to the mover's side with best play to the end of the "
            f"deal: {' or '.join(firsts)}.")
    whole = {c: "count" for c in table.columns
             if table[c].dtype.kind in "iuf" and (table[c] % 1 == 0).all()}
    out.table("actions", table, list(table.columns), title="Every legal action, exactly",
              note=f"value: {unit} for the mover's side; * the best", kinds=whole)
    s = state.clone()
    steps = []
    for a in line:
        steps.append(f"{s.current_player()}:{s.action_to_string(a)}")
        s.apply_action(a)
    if out.fmt == "json":
        out.answer.append("principal line: " + " ".join(steps))
    elif out.fmt != "csv":
        out.blank()
        for text in wrapped(steps, out.width, first="principal line (seat:move):"):
            out.say(text)
    if seconds is not None:
        out.say(f"stats (the action values): {nodes:,} nodes, {hits:,} table hits, {cuts:,} "
                f"cut-offs by bounds, {seconds:.3f} s ({nodes / max(seconds, 1e-9):,.0f} "
                f"nodes/s), table of {ws.keys.size:,} entries")


# --- play ------------------------------------------------------------------------------------------

def add_play(sub) -> None:
    p = sub.add_parser("play", help="play a deal (or a match) against agents at the terminal")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("--vs", action="append", default=[], metavar="AGENT",
                   help="the opponents' agent (strong): a level easy, medium, fast, strong "
                   "or best, or random, heuristic, ismcts:seconds=0.5,...; once for all, or once "
                   "per other seat")
    p.add_argument("--seat", type=int_at_least(0, "non-negative"), default=0,
                   help="your seat (0)")
    p.add_argument("--seed", type=int_at_least(0, "non-negative"), default=None,
                   help="the deal's seed, to play a deal again (a fresh random deal each time "
                   "without it; the seed is shown and kept in the record)")
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
    rules_option(p, "a rules option, repeatable (see `cardsim games`)")
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """Play a deal (or a match) at the terminal against agents (:mod:`.interactive`)."""
    from cardsim.game import load_game
    from cardsim.solvers.agent_spec import parse_agent

    from .interactive import play_interactive
    game = load_game(args.game, **parse_option_pairs(args.option))
    if args.seat >= game.num_players:
        raise CardsimError(f"--seat {args.seat}: expected a seat from 0 to "
                           f"{game.num_players - 1}")
    opponents = args.vs or ["strong"]
    equity = None
    if any(parse_agent(a, game).for_the_match for a in opponents):
        from cardsim.experiments.equity import equity_values
        equity = equity_values(game, "", "cardsim play")
    try:
        interactive = sys.stdin.isatty()
    except (AttributeError, ValueError):      # no standard input, or a closed one
        interactive = False
    play_interactive(game, opponents, human_seat=args.seat, seed=args.seed, match=args.match,
                     equity=equity, record=args.record, hint=args.hint, tutor=args.tutor,
                     interactive=interactive)
    return 0


SUBCOMMANDS = {"analyze": add_analyze, "review": add_review, "solve": add_solve,
               "play": add_play}
"""Subcommand -> the function that adds its parser and handler to ``cardsim``'s subparsers."""
