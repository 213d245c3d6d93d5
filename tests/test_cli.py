"""The command line, run in-process through ``cardsim.app.cli.main`` (the real parser)."""
import json
import re
from pathlib import Path

import pytest

from cardsim.app.cli import main
from tests.terminal import check_golden


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_scopa_option_with_default_and_allowed_values(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert re.search(r"^scopa: ", out, re.M) and re.search(r"^bura: ", out, re.M)
    for name, default in [("num_players", "2"), ("target_score", "11"),
                          ("redeal_kings_on_table", "three_or_more"),
                          ("last_move_scopa_counts", "false"),
                          ("leftover_to_last_capturer", "true"),
                          ("equal_card_priority", "true"), ("primiera_missing_suit", "zero"),
                          ("four_player_deal", "three_at_a_time"),
                          ("tie_at_target", "extra_deal")]:
        assert re.search(rf"^{name}\s+{default}\s", out, re.M), name
    code, out, _ = run(capsys, "games", "--format", "json")
    options = {o["option"]: o for o in json.loads(out)["tables"]["scopa"]}
    assert "allowed: 11, 21, 31, 41, 51, 61, 71, 81, 91, 101 (SC-" in options["target_score"][
        "meaning"] and options["target_score"]["default"] == "11"


def test_simulate_prints_every_category_per_side_with_intervals(capsys):
    code, out, err = run(capsys, "simulate", "scopa", "--deals", "2000", "--seed", "5",
                         "--quiet")
    assert code == 0, err
    assert "2,000 deals" in out and "seed 5" in out
    for cat in ("cards", "coins", "settebello", "primiera", "scopas", "total"):
        assert re.search(rf"^{cat}\s+seat 0\s+\d\.\d+ \[\d\.\d+, \d\.\d+\]", out, re.M), cat
    assert "dealer advantage (points per deal)" in out
    assert "P(>=1 scopa)" in out


def test_simulate_is_reproducible_and_seed_dependent(capsys):
    outs = [run(capsys, "simulate", "scopa", "--deals", "500", "--seed", str(s), "--quiet")[1]
            for s in (1, 1, 2)]
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]


def test_simulate_2x2_names_the_teams(capsys):
    code, out, _ = run(capsys, "simulate", "scopa", "--deals", "300", "--seed", "1",
                       "--option", "num_players=4", "--quiet")
    assert code == 0
    assert "seats 0+2" in out and "seats 1+3" in out and "num_players=4" in out


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "chess"], "unknown game 'chess'"),
    (["simulate", "scopa", "--option", "colour=red"], "unknown scopa option 'colour'"),
    (["simulate", "scopa", "--option", "target_score=12"], "target_score='12'"),
    (["simulate", "scopa", "--option", "target_score"], "expected name=value"),
    (["simulate", "scopa", "--deals", "0"], "expected a positive integer"),
    (["simulate", "scopa", "--deals", "many"], "'many' is not an integer"),
    (["simulate", "scopa", "--seed", "-3"], "non-negative"),
    (["frobnicate"], "unknown command"),
])
def test_user_errors_print_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_games_lists_every_bura_option(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for name, default in [("num_players", "2"), ("facedown_discards", "always"),
                          ("false_claim_penalty", "double"), ("match_format", "single_deal"),
                          ("wins_target", "11"), ("penalty_limit", "12"),
                          ("initial_combo_redeal", "true"), ("molodka_stop", "false"),
                          ("moscow", "off"), ("small_moscow", "off"),
                          ("double_bura", "higher_top_card"),
                          ("next_deal_first_leader", "last_trick_taker"),
                          ("bura_timing", "any_check_point"),
                          ("end_without_claim", "most_points")]:
        assert re.search(rf"^{name}\s+{default}\s", out, re.M), name


def test_simulate_bura_prints_endings_claims_and_advantages(capsys):
    code, out, err = run(capsys, "simulate", "bura", "--deals", "3000", "--seed", "2",
                         "--player", "claim_probability=0.2", "--quiet")
    assert code == 0, err
    assert "claim_probability=0.2" in out
    for row in ("true claim (31 or more)", "false claim", "bura", "Moscow",
                "played out, most points", "void deal", "true claims", "false claims",
                "first leader", "dealer", "seat 1"):
        assert re.search(rf"^{re.escape(row)}\s", out, re.M), row
    labels = ("true claim (31 or more)", "false claim", "bura", "Moscow",
              "played out, most points", "void deal")
    shares = [float(re.search(rf"^{re.escape(label)}\s+(\d\.\d+) \[", out, re.M).group(1))
              for label in labels]
    assert abs(sum(shares) - 1) < 0.01


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "bura", "--player", "claim_probability=2"], "from 0 to 1"),
    (["simulate", "bura", "--player", "bluff=1"], "unknown random-player parameter 'bluff'"),
    (["simulate", "scopa", "--player", "claim_probability=0.1"], "it has no parameter"),
    (["simulate", "bura", "--option", "num_players=5"], "num_players='5'"),
    (["simulate", "minchiate", "--players", "3"], "minchiate has a fixed number of players"),
    (["bench", "--seconds", "0"], "expected a positive number"),
])
def test_player_and_bench_errors(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and needle in err and "Traceback" not in err


def test_bench_prints_every_figure(capsys, monkeypatch):
    import cardsim.app.bench as bench
    monkeypatch.setattr(bench, "startup_figures", lambda game, commands: [
        {"command": "simulate", "cold": 12.5, "warm": 1.25, "memory": 300.0}])
    real = bench.solver_figures
    monkeypatch.setattr(bench, "solver_figures", lambda game: real(
        game, positions=3, pimc_deals=1, pimc_worlds=2))
    code, out, _ = run(capsys, "bench", "--seconds", "0.2")
    assert code == 0
    for figure in ("cold start of cardsim simulate incl. compile (s)",
                   "warm start of cardsim simulate (s)",
                   "compiled engine, best run (deals/s, 1 core)",
                   "compiled engine, median run (deals/s)", "reference engine (deals/s)",
                   "compiled (best) / reference",
                   "OpenSpiel random play over cardsim, best run (deals/s, 1 core)",
                   "OpenSpiel standard loop over cardsim, median run (deals/s, 1 core)",
                   "OpenSpiel standard loop: cardsim / Python reference",
                   "OpenSpiel direct loop over cardsim, median run (deals/s, 1 core)",
                   "OpenSpiel direct loop: cardsim / Python reference",
                   "OpenSpiel's Python ISMCTS over cardsim (simulations/s, random rollouts)",
                   "ISMCTS from the opening, best run (iterations/s, 1 core, random rollouts)",
                   "ISMCTS, median run (iterations/s)",
                   "ISMCTS, heuristic play-outs, best run (iterations/s)",
                   "ISMCTS, leaves valued by the learned evaluation (leaf=net), best run "
                   "(iterations/s)", "leaf=net / heuristic play-outs", "a plain new_deal (ms)",
                   "a deal under the rare condition (ms)",
                   '{"hold": {"0": ["7co", "7cu", "7sw"]}}',
                   "constructed event's chance; constructed tries kept"):
        assert figure in out
    assert "12.50" in out and "1.25" in out
    assert re.search(r"rare deal / plain deal\s+[\d,]+x", out)
    ratio = re.search(r"compiled \(best\) / reference\s+([\d,]+)x", out)
    assert ratio and int(ratio.group(1).replace(",", "")) > 1
    median = re.search(r"exact solver, a deal from its first move, median of 3 \(ms, 1 core\)"
                       r"\s+([\d.,]+)", out)
    assert median and float(median.group(1).replace(",", "")) > 0
    assert re.search(r"exact solver \(nodes/s\)\s+[\d,]+", out)
    assert re.search(r"PIMC 2 worlds, mean decision over \d+ decisions \(s\)\s+\d", out)


def _position_file(tmp_path, game="bura", seed=5):
    import json

    import cardsim
    state = cardsim.load_game(game).new_deal(seed=seed)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_dict()))
    return path, state


def test_analyze_prints_every_legal_action_with_intervals(capsys, tmp_path):
    path, state = _position_file(tmp_path)
    code, out, err = run(capsys, "analyze", "bura", str(path), "--player",
                         str(state.current_player()), "--worlds", "40", "--seed", "3")
    assert code == 0, err
    for a in state.legal_actions():         # points to 2 decimals, rates to 3, with intervals
        assert re.search(rf"^{re.escape(state.action_to_string(a))}\s+-?\d+\.\d{{2}} "
                         r"\[-?\d+\.\d{2}, -?\d+\.\d{2}\]\s+\d\.\d{3} \[", out,
                         re.M), state.action_to_string(a)
    assert re.search(r"^claim\s+-2\.00 \[-2\.00, -2\.00\]\s+0\.000 \[", out, re.M)
    assert re.search(r"^Best: \S.*, [-+]\d+\.\d\d stakes expected \[", out, re.M)
    assert "40 sampled worlds" in out


@pytest.mark.parametrize("argv,needle", [
    (["analyze", "bura", "/nonexistent.json", "--player", "0"], "cannot read /nonexistent.json"),
    (["analyze", "bura", "POS", "--player", "3"], "player 3 is not to move"),
    (["analyze", "bura", "POS", "--player", "1", "--agent", "deep"], "unknown agent 'deep'"),
    (["analyze", "bura", "POS", "--player", "1", "--worlds", "1"], "at least 2"),
    (["analyze", "chess", "POS", "--player", "1"], "unknown game 'chess'"),
    (["play", "scopa", "--seat", "2"], "--seat 2: expected a seat from 0 to 1"),
    (["play", "scopa", "--vs", "ismcts:c=x"], "c='x'"),
])
def test_analyze_and_play_errors(capsys, tmp_path, argv, needle):
    path, _ = _position_file(tmp_path)
    code, out, err = run(capsys, *[str(path) if a == "POS" else a for a in argv])
    assert code == 2 and needle in err and "Traceback" not in err


def test_play_a_deal_from_the_terminal(capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("oops\n" + "1\n" * 100))
    code, out, err = run(capsys, "play", "scopa", "--vs", "random", "--seed", "2")
    assert code == 0, err
    assert "not a legal move: 'oops'" in out


def test_play_s_default_opponent_is_the_strong_level(capsys, monkeypatch):
    """Without ``--vs`` the opponents are ``strong``; a level is accepted by
    ``--vs`` as any agent is (the game itself is not played here)."""
    import cardsim.app.interactive as interactive
    seen = []
    monkeypatch.setattr(interactive, "play_interactive",
                        lambda game, agents, **kw: seen.append(list(agents)))
    assert run(capsys, "play", "scopa")[0] == 0
    assert run(capsys, "play", "scopa", "--vs", "best")[0] == 0
    assert seen == [["strong"], ["best"]]


def test_bench_starts_exact_ismcts_cold_and_warm(tmp_path):
    """``cardsim bench --startup`` starts a run with an exact-endgame ISMCTS agent (its own
    compiled copy of the game loop) where the game has the exact solver: every game's default
    rules now (Mushka's is paranoid)."""
    import cardsim.app.bench as bench
    from cardsim.experiments.spec import load_spec
    assert "run-exact" in bench.STARTUP_COMMANDS
    argv = bench.startup_argv("scopa", "run-exact", str(tmp_path), "cold")
    spec = load_spec(argv[argv.index("run") + 1])
    assert spec.agents[1] == "ismcts:iterations=50,exact=6"
    assert argv[argv.index("--out") + 1].endswith("run-exact-cold")
    mushka = bench.startup_argv("mushka", "run-exact", str(tmp_path), "cold")   # paranoid
    assert load_spec(mushka[mushka.index("run") + 1]).agents[1] == "ismcts:iterations=50,exact=6"


def test_bench_starts_reviews_and_an_inferring_search_cold_and_warm(tmp_path, capsys):
    """``cardsim bench --startup`` measures ``review`` (the game's default worlds), ``review
    --infer`` and a run with an inferring ISMCTS (``infer``: the game loop's record and the
    weighing at the root, compiled only there); their command lines run."""
    import cardsim.app.bench as bench
    from cardsim.experiments.spec import load_spec
    for command in ("review", "review-infer", "run-infer"):
        assert command in bench.STARTUP_COMMANDS
    argv = bench.startup_argv("bura", "review-infer", str(tmp_path), "cold")
    assert argv[-1] == "--infer" and argv[3] == "review"
    argv[argv.index("--worlds") + 1] = "4"
    assert run(capsys, *argv[3:])[0] == 0
    argv = bench.startup_argv("scopa", "run-infer", str(tmp_path), "cold")
    assert load_spec(argv[argv.index("run") + 1]).agents[1] == "ismcts:iterations=50,infer=0.3"


def test_bench_starts_rare_conditioned_deals_cold_and_warm(capsys):
    """``cardsim bench --startup`` measures ``simulate --where`` on a rare condition per game
    (constructed deals, dealt by the compiled ``deal_cards``), and its command line
    runs; three of the four are rarer than rejection's first tries, so drawn by construction."""
    import cardsim
    import cardsim.app.bench as bench
    from cardsim.deals import FIRST_TRIES, construction
    assert "simulate-where" in bench.STARTUP_COMMANDS
    for name in cardsim.list_games():
        game = cardsim.load_game(name)
        chance = construction(game, game.definition.bench_where).chance
        assert (chance < 1 / FIRST_TRIES) == (name != "minchiate"), name
    argv = bench.startup_argv("scopa", "simulate-where", "unused", "cold")
    assert run(capsys, *argv[3:5], "--deals", "20", *argv[7:])[0] == 0


def test_bench_starts_equity_cold_and_warm_where_the_game_has_a_match_model(tmp_path, capsys):
    """``cardsim bench --startup`` measures ``cardsim equity`` for the games with a
    match model (Bura's under its match format to 11 wins), and its command lines run."""
    import cardsim.app.bench as bench
    argv = bench.startup_argv("scopa", "equity", str(tmp_path), "cold")
    assert argv[3:5] == ["equity", "scopa"] and argv[argv.index("--out") + 1].endswith(
        "equity-cold")
    assert run(capsys, *argv[3:])[0] == 0
    bura = bench.startup_argv("bura", "equity", str(tmp_path), "bura")
    assert bura[5:7] == ["--option", "match_format=wins_to_n"]
    assert run(capsys, *bura[3:])[0] == 0
    assert bench.startup_argv("mushka", "equity", str(tmp_path), "cold") is None


def test_bench_starts_a_match_for_the_match_cold_and_warm(tmp_path):
    """``cardsim bench --startup`` runs a whole match against ``ismcts:value=match`` (its own
    compiled copy of the agent loop) with a table it made first, where the game has one."""
    import cardsim.app.bench as bench
    from cardsim.experiments.spec import load_spec
    assert "run-match" in bench.STARTUP_COMMANDS
    for game, rules in (("scopa", {}), ("bura", {"match_format": "wins_to_n"})):
        (tmp_path / game).mkdir()
        argv = bench.startup_argv(game, "run-match", str(tmp_path / game), "cold")
        spec = load_spec(argv[argv.index("run") + 1])
        assert spec.unit == "match" and spec.agents[1] == "ismcts:iterations=50,value=match"
        assert (tmp_path / game / "match-equity" / "equity.csv").exists()
        assert spec.equity == str(tmp_path / game / "match-equity")
        assert {k: v for k, v in spec.rules.items() if k in rules} == rules
    assert bench.startup_argv("mushka", "run-match", str(tmp_path), "cold") is None


def test_bench_solves_minchiate_endgames_only(tmp_path):
    """Minchiate's solver covers endgames (``max_cards``): the bench solves endgames of at most
    that many cards (no PIMC figure), and its cold and warm ``solve`` start from one."""
    import json

    import cardsim
    import cardsim.app.bench as bench
    from cardsim.solvers import exact
    limit = cardsim.load_game("minchiate").spec.exact.max_cards
    f = bench.solver_figures("minchiate", positions=2)
    assert f["cards_left"] == limit and f["pimc_decisions"] == 0 and f["nodes_per_s"] > 0
    argv = bench.startup_argv("minchiate", "solve", str(tmp_path), "cold")
    game = cardsim.load_game("minchiate")
    state = game.from_dict(json.loads(open(argv[-1]).read()))
    assert 0 < exact.cards_left(state) <= limit
    assert bench.startup_argv("minchiate", "run-exact", str(tmp_path), "cold") is not None


def test_bench_runner_figures(capsys, monkeypatch):
    import cardsim.app.bench as bench
    monkeypatch.setattr(bench, "runner_figures", lambda: {
        "batch_size": 500, "deals": 10, "deals_per_s_1": 1000.0, "deals_per_s_2": 1900.0,
        "overhead": 0.031})
    code, out, _ = run(capsys, "bench", "--seconds", "0.1", "--no-startup", "--runner")
    assert code == 0
    assert re.search(r"runner, 2 workers / 1 worker\s+1\.90x", out)
    assert re.search(r"runner overhead per batch \(of the batch's compute\)\s+3\.1%", out)


def _thinking_masked(text: str) -> str:
    """``text`` with the thinking-time table's times (which vary from run to run) masked and
    its spacing, which follows their widths, collapsed."""
    lines, inside = [], False
    for line in text.splitlines():
        inside = line.startswith("Thinking time") or (inside and bool(line))
        if inside:
            line = re.sub(r"\d+\.\d+ \[\d+\.\d+, \d+\.\d+\] ms", "<ms>", line)
            line = re.sub("─+", "─", re.sub(" {2,}", "  ", line))
        lines.append(line)
    return "\n".join(lines) + "\n"


def test_demo_runs_the_built_in_study(capsys, tmp_path, monkeypatch):
    """``cardsim demo``: the built-in Scopa study (cardsim/experiments/demo.toml) into a folder,
    then its tables and its report; run again, it resumes (nothing left to do) and prints the
    same."""
    monkeypatch.chdir(tmp_path)                  # the folder as given: the same text anywhere
    out = Path("demo")
    code = main(["demo", "--out", str(out), "--quiet", "--jobs", "1"])
    first, err = capsys.readouterr()
    assert code == 0, err
    check_golden("demo", _thinking_masked(first))
    lines = first.splitlines()
    assert lines[lines.index("") + 1].startswith("The heuristic beats the random player by ")
    assert "Who plays Scopa better" in first and "900 games" in first
    for agent in ("heuristic", "random", "ismcts:iterations=500"):
        assert agent in first
    assert (out / "manifest.json").exists() and len(list((out / "batches").iterdir())) == 18
    report = out / "report"
    assert (f"report: {report / 'report.html'} and {report / 'report.md'}"
            in " ".join(line.strip() for line in first.splitlines()))
    html = (report / "report.html").read_text()
    assert "Who plays Scopa better" in html and "Strength against search budget" not in html
    assert "Rating list" in html                  # three agents of a round robin
    assert len(list((report / "plots").glob("*.png"))) == 8
    code = main(["demo", "--out", str(out), "--quiet", "--jobs", "1"])
    assert code == 0 and capsys.readouterr()[0] == first


# --- rough edges ------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, line", [
    (["simulate", "scopa", "--bogus"], "unrecognized arguments: --bogus"),
    (["simualte", "scopa"], "unknown command 'simualte'; did you mean 'simulate'?"),
    (["scoppa"], "unknown command 'scoppa': the command comes first, then the game "
                 "(cardsim simulate scopa ...); commands: games, rules, simulate,"),
    (["simulate", "scoppa"], "unknown game 'scoppa': did you mean 'scopa'? expected one of"),
    (["frobnicate"], "unknown command 'frobnicate' (choose from games, rules, simulate, run,"),
    (["analyze", "scopa", "--agent", "x", "--player", "0", "--infer", "--uniform"],
     "analyze: argument --uniform: not allowed with argument --infer"),
    (["report", "runs/nowhere"], "runs/nowhere: no such folder (a results folder"),
    (["simulate", "scopa", "--deals", "x"], "simulate: argument --deals: 'x' is not an"),
])
def test_a_usage_error_names_its_command_once_and_the_nearest_choice(capsys, argv, line):
    """One ``cardsim: error:`` prefix, no second ``cardsim:``; a misspelt command or game
    names the nearest one, a game typed where the command goes says the order."""
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("cardsim: error: " + line), err
    assert "error: cardsim" not in err and len(err.strip().splitlines()) == 1


def test_bare_cardsim_prints_the_help(capsys):
    code, out, err = run(capsys)
    assert code == 0 and not err
    assert out.startswith("usage: cardsim") and "simulate" in out and "analyze" in out


def test_a_position_of_another_game_is_named_as_such(capsys, tmp_path):
    import json

    import cardsim
    path = tmp_path / "scopa.json"
    path.write_text(json.dumps(cardsim.load_game("scopa").new_deal(seed=1).to_dict()))
    for argv in (["analyze", "bura", str(path), "--player", "0"], ["solve", "mushka", str(path)]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err == f"cardsim: error: {path}: a position of scopa, not {argv[1]}\n"


def test_a_closed_pipe_ends_the_command_quietly():
    """``cardsim games | head -1``: the reader goes away mid-output; no traceback, status 141
    (as a process killed by SIGPIPE)."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "cardsim", "games"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert err == ""


def test_quiet_keeps_the_compile_notices_quiet_too(monkeypatch, tmp_path):
    """``--quiet``: the compile watcher writes nothing (it still records)."""
    import contextlib

    from cardsim.compiled import compiling
    streams = []

    @contextlib.contextmanager
    def watch(stream="stderr", **kwargs):
        streams.append(stream)
        yield None

    monkeypatch.setattr(compiling, "watch", watch)
    spec = str(tmp_path / "missing.toml")
    assert main(["run", spec]) == 2 and main(["run", spec, "--quiet"]) == 2
    assert streams == ["stderr", None]


def test_numbers_never_print_as_negative_zero():
    from cardsim.stats import fmt_interval, fmt_signed
    assert fmt_interval(-0.0004, -0.0021, 0.0013, 3) == "0.000 [-0.002, 0.001]"
    assert fmt_interval(-0.004, -0.01, 0.002, 2) == "0.00 [-0.01, 0.00]"
    assert fmt_signed(-0.001) == "+0.00" and fmt_signed(-0.006) == "-0.01"
    assert fmt_signed(0.5) == "+0.50"


def test_a_review_counts_in_words_and_numbers_moves_from_1():
    import cardsim
    from cardsim.solvers.agents import play
    from cardsim.solvers.review import ReviewConfig, count_of, review, text
    assert (count_of(1, "inaccuracy"), count_of(0, "inaccuracy"), count_of(2, "decision")) == (
        "1 inaccuracy", "0 inaccuracies", "2 decisions")
    state = cardsim.load_game("scopa").new_deal(seed=3)
    play(state, ["random", "random"], seed=1)
    rv = review(state.record(["random", "random"]), ReviewConfig(players=(0,), worlds=4,
                                                                 agent="random"))
    lines = text(rv)
    n = len(rv.decisions)
    assert lines[0].startswith(f"scopa review: {n} decisions of seat 0, 4 worlds each")
    first = int(lines[1].split()[1])
    assert first == int(rv.decisions["move"].iloc[0]) + 1 and first >= 1
    assert "(s)" not in "\n".join(lines) and "-0.00" not in "\n".join(lines)
