"""Match-equity tables: the match models' rules, the dynamic programming against
closed forms, a table against whole simulated matches, the checks, and the folder."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.experiments.equity import (
    EquityConfig,
    EquityError,
    equity_table,
    match_model,
    run_equity,
    split_agents,
    table_checks,
)
from cardsim.experiments.equity_folder import read_equity
from cardsim.experiments.rows import duplicate_rows
from cardsim.games.scopa.match import decide
from cardsim.protocol.match import A_WINS, B_WINS, DRAW
from cardsim.solvers.agents import play
from cardsim.solvers.duplicate import play_duplicate


def synthetic_rows(outcomes, column: str, n_seats: int = 2) -> pd.DataFrame:
    """Store rows of duplicate deals whose outcomes (for the seat of agent 0: ``column`` of
    seat 0 and, for a second value, of seat 1) are ``outcomes`` [(weight, value...)], each in
    both dealing configurations; deal i of weight w appears w times."""
    rows = []
    deal = 0
    for weight, *values in outcomes:
        for _ in range(weight):
            for dealer in range(2):
                row = {"deal": deal, "dealer": dealer}
                for s in range(n_seats):
                    row[f"seat_{s}"] = s % 2
                    row[f"{column}_{s}"] = values[s % len(values)] if len(values) > 1 else (
                        values[0] if s % 2 == 0 else -values[0])
                rows.append(row)
            deal += 1
    return pd.DataFrame(rows)


def state_p(table: pd.DataFrame, **state) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for k, v in state.items():
        mask &= table[k].to_numpy() == v
    (i,) = np.flatnonzero(mask)
    return table.iloc[i]


# --- the rules of the models -------------------------------------------------------------------

def test_sc_match_3_one_side_at_the_target_wins():
    """SC-MATCH-3: exactly one side at or over the target wins."""
    assert decide(11, 10, 11) == A_WINS and decide(3, 12, 11) == B_WINS


def test_sc_match_3_both_over_the_target_the_higher_score_wins():
    """SC-MATCH-3: both at or over the target, the higher score wins."""
    assert decide(13, 12, 11) == A_WINS and decide(11, 14, 11) == B_WINS


def test_sc_match_3_equal_scores_at_the_target_play_another_deal():
    """SC-MATCH-3: equal scores at or over the target, and both below it, play again; the
    model's tie at the target is one state whatever the equal score."""
    assert decide(12, 12, 11) is None and decide(10, 9, 11) is None
    model = match_model(cardsim.load_game("scopa"))
    assert model.step((10, 10, "a"), (2, 2)) == (11, 11, "b")
    assert model.step((11, 11, "b"), (1, 1)) == (11, 11, "a")
    assert model.step((11, 11, "b"), (1, 2)) == B_WINS


def test_sc_deal_6_the_dealing_side_alternates():
    """SC-DEAL-6: the next deal is dealt by the other side (in 2x2 the deal passes round the
    table, so the dealing team alternates too)."""
    for players in (2, 4):
        model = match_model(cardsim.load_game("scopa", num_players=players))
        assert model.step((0, 0, "a"), (3, 1)) == (3, 1, "b")


def test_sc_match_1_the_table_covers_every_score_below_the_target():
    """SC-MATCH-1: a table to 21 holds every pair of scores below 21, both dealers, and the
    tie at the target."""
    model = match_model(cardsim.load_game("scopa", target_score=21))
    assert len(model.states) == 21 * 21 * 2 + 2
    assert (20, 0, "b") in model.states and (21, 21, "a") in model.states


def test_mi_resto_4_the_last_deal_decides_by_the_sign_of_the_net():
    """MI-RESTO-4: after the match's last deal a positive net wins, a negative one loses and 0
    is a draw."""
    model = match_model(cardsim.load_game("minchiate", deals=3))
    assert model.step((2, 1, "a"), (-2,)) == DRAW
    assert model.step((2, 1, "a"), (-1,)) == A_WINS
    assert model.step((-1, 1, "b"), (0,)) == B_WINS
    assert model.step((0, 3, "b"), (4,)) == (4, 2, "a")


def test_a_game_without_a_model_is_refused_in_one_line():
    """Mushka has no table of match states (its chances come from whole games), and Bura's
    single deal needs none: both are refused in one line."""
    with pytest.raises(EquityError, match="no match model of states"):
        match_model(cardsim.load_game("mushka"))
    with pytest.raises(EquityError, match="a single deal is the match"):
        match_model(cardsim.load_game("bura"))


# --- the dynamic programming against closed forms ---------------------------------------------

def test_one_point_a_deal_is_the_race_of_the_binomial_closed_form():
    """Deals that give one point to a (chance q) or to b: a wins from (x, y) when it takes its
    T - x points before b takes T - y, which the negative binomial gives in closed form."""
    q, target = 0.6, 11
    rows = synthetic_rows([(3, 1, 0), (2, 0, 1)], "cat_total")
    table = equity_table(rows, match_model(cardsim.load_game("scopa")), boot=0)
    for x, y in [(0, 0), (8, 5), (10, 10), (3, 9)]:
        need_a, need_b = target - x, target - y
        closed = sum(math.comb(need_a - 1 + k, k) * q ** need_a * (1 - q) ** k
                     for k in range(need_b))
        for dealer in "ab":
            assert state_p(table, score_a=x, score_b=y, dealer=dealer)["p_win"] == \
                pytest.approx(closed, abs=1e-10)


def test_the_tie_at_the_target_is_solved_as_a_fixed_point():
    """SC-MATCH-3's extra deals: with deals of (1, 1) (chance 1/2), (1, 0) (0.3) and (0, 1)
    (0.2), the tie at 11 is worth t = 0.3 + 0.5 t, so 0.6, and 10-10 is worth the same."""
    rows = synthetic_rows([(5, 1, 1), (3, 1, 0), (2, 0, 1)], "cat_total")
    table = equity_table(rows, match_model(cardsim.load_game("scopa")), boot=0)
    assert state_p(table, score_a=11, score_b=11, dealer="a")["p_win"] == pytest.approx(0.6)
    assert state_p(table, score_a=10, score_b=10, dealer="b")["p_win"] == pytest.approx(0.6)


def test_a_minchiate_match_of_two_deals_with_coin_tosses():
    """Deals of net +1 or -1 for team A at even chances: from 0 with 2 deals to go team A wins
    one time in four and draws half the time; from +1 with 1 to go it wins half the time and
    draws the other half."""
    rows = synthetic_rows([(1, 1), (1, -1)], "cat_net", n_seats=4)
    table = equity_table(rows, match_model(cardsim.load_game("minchiate", deals=2)), boot=0)
    start = state_p(table, net=0, deals_left=2, dealer="a")
    assert (start["p_win"], start["p_draw"]) == pytest.approx((0.25, 0.5))
    one = state_p(table, net=1, deals_left=1, dealer="b")
    assert (one["p_win"], one["p_draw"]) == pytest.approx((0.5, 0.5))


def test_the_bootstrap_interval_holds_the_estimate_and_narrows_with_more_deals():
    rng = np.random.default_rng(5)
    model = match_model(cardsim.load_game("scopa"))
    widths = []
    for n in (100, 1600):
        pts = rng.integers(0, 6, size=(n, 2))
        rows = synthetic_rows([(1, int(a), int(b)) for a, b in pts], "cat_total")
        table = equity_table(rows, model, boot=100, seed=1)
        assert (table["p_low"] <= table["p_win"] + 1e-12).all()
        assert (table["p_win"] <= table["p_high"] + 1e-12).all()
        widths.append(float((table["p_high"] - table["p_low"]).mean()))
    assert widths[1] < widths[0] / 2.5


# --- a table from simulated deals against whole matches ----------------------------------------

@pytest.fixture(scope="module")
def scopa_table():
    game = cardsim.load_game("scopa")
    rows = duplicate_rows(play_duplicate(game, ["heuristic", "heuristic"], 4000, seed=(20, 1)))
    return game, equity_table(rows, match_model(game), boot=100, seed=1)


def whole_matches(game, start: tuple, matches: int, seed: int) -> tuple[float, float]:
    """Side a's (seat 0's) wins in ``matches`` whole heuristic matches from ``start``, with the
    standard error."""
    score_a, score_b, dealer = start
    wins = 0
    for i in range(matches):
        d = game.new_match(seed=np.random.SeedSequence([seed, i])).to_dict()
        d["scores"], d["dealer"] = [score_a, score_b], "ab".index(dealer)
        d["to_move"] = 1 - d["dealer"]
        state = game.from_dict(d)
        play(state, ["heuristic", "heuristic"], seed=np.random.SeedSequence([seed, i, 1]))
        wins += state.returns()[0] > 0
    p = wins / matches
    return p, math.sqrt(p * (1 - p) / matches)


@pytest.mark.parametrize("start", [(0, 0, "b"), (8, 5, "a"), (6, 9, "b"), (10, 10, "a")])
def test_the_table_agrees_with_whole_matches_played_from_a_score(scopa_table, start):
    """The table's chance from a score against whole heuristic matches played from
    it (SC-MATCH-2/3 by the engine): they agree within their intervals."""
    game, table = scopa_table
    row = state_p(table, score_a=start[0], score_b=start[1], dealer=start[2])
    p, se = whole_matches(game, start, 400, seed=100 * start[0] + 2 * start[1]
                          + "ab".index(start[2]))
    half = (row["p_high"] - row["p_low"]) / 2
    assert abs(p - row["p_win"]) <= half + 2.0 * se, (start, p, se, dict(row))


def test_a_symmetric_table_passes_the_checks(scopa_table):
    """The table's checks: the heuristic against itself gives p(a, b) + p(b, a) = 1 (dealer
    mirrored) within the intervals, p grows with one's own score and falls with the other's,
    and one point from the target against 0 is nearly won."""
    game, table = scopa_table
    checks = table_checks(table, match_model(game), symmetric=True)
    assert len(checks) == 2 and (checks["failures"] == 0).all(), checks
    assert (checks["cells"] > 200).all()
    assert state_p(table, score_a=10, score_b=0, dealer="a")["p_win"] > 0.97


def test_the_checks_can_fail():
    """A table that falls one step better for side a, or is not symmetric, fails its checks."""
    model = match_model(cardsim.load_game("scopa"))
    rows = synthetic_rows([(3, 1, 0), (2, 0, 1)], "cat_total")
    table = equity_table(rows, model, boot=0)
    assert table_checks(table, model, symmetric=False)["failures"].sum() == 0
    assert table_checks(table, model, symmetric=True)["failures"].iloc[0] > 0  # q = 0.6
    broken = table.copy()
    broken.loc[(broken.score_a == 5) & (broken.score_b == 5), "p_win"] = 0.99
    assert table_checks(broken, model, symmetric=False)["failures"].iloc[0] > 0


# --- the folder and the command --------------------------------------------------------------

def test_agents_are_split_where_a_new_agent_starts():
    assert split_agents("heuristic") == ("heuristic", "heuristic")
    assert split_agents("ismcts:seconds=1,rollout=heuristic,heuristic") == (
        "ismcts:seconds=1,rollout=heuristic", "heuristic")
    with pytest.raises(EquityError, match="expected two agents"):
        split_agents("random,heuristic,random")


def test_a_folder_resumes_to_the_same_table_on_any_number_of_workers(tmp_path):
    config = EquityConfig(game="scopa", deals=300, seed=4, boot=20, batch_size=100)
    one = run_equity(config, tmp_path / "one", jobs=1, progress=False)
    two = run_equity(config, tmp_path / "two", jobs=2, progress=False)
    pd.testing.assert_frame_equal(one, two)
    again = run_equity(config, tmp_path / "one", jobs=1, progress=False)   # resumes: nothing new
    pd.testing.assert_frame_equal(one, again)
    manifest, stored = read_equity(tmp_path / "one")
    assert manifest["kind"] == "equity" and manifest["config"]["deals"] == 300
    pd.testing.assert_frame_equal(stored, one)
    csv = pd.read_csv(tmp_path / "one" / "equity.csv")
    assert list(csv.columns) == ["score_a", "score_b", "dealer", "p_win", "p_low", "p_high"]


def test_a_folder_of_another_request_is_refused(tmp_path, capsys):
    out = str(tmp_path / "eq")
    assert main(["equity", "scopa", "--deals", "40", "--boot", "10", "--out", out,
                 "--quiet"]) == 0
    assert main(["equity", "scopa", "--deals", "50", "--boot", "10", "--out", out,
                 "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another request" in err[0] and "deals 40 there" in err[0]


def test_the_command_prints_grids_and_checks_and_the_report_draws_the_heatmap(tmp_path, capsys):
    out = tmp_path / "eq"
    assert main(["equity", "minchiate", "--option", "deals=2", "--deals", "30", "--boot",
                 "10", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert ("dealer a: side a's chance to win the match, percent (net down, deals_left "
            "across)") in text
    assert "\nChecks\n" in text and "Widest 95% interval" in text
    csv = pd.read_csv(out / "equity.csv")
    assert list(csv.columns)[:3] == ["net", "deals_left", "dealer"] and "p_draw" in csv
    assert main(["report", str(out)]) == 0
    html = (out / "report" / "report.html").read_text()
    assert "Match equity" in html and "data:image/png;base64" in html
    assert (out / "report" / "tables" / "checks.csv").exists()


def test_bad_requests_get_one_line(tmp_path, capsys):
    for argv in (["equity", "bura"], ["equity", "scopa", "--agents", "a,b,c"],
                 ["equity", "scopa", "--agents", "nonsense", "--out", str(tmp_path / "x")],
                 ["equity", "mushka"], ["equity", "scopa", "--boot", "3"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("cardsim: error:"), (argv, err)


# --- match-winning chance in analysis -----------------------------------------------------------

DATA = __import__("pathlib").Path(__file__).resolve().parent.parent / "data"


def equity_dict(table: pd.DataFrame) -> dict:
    states = table[["score_a", "score_b", "dealer"]].itertuples(index=False, name=None)
    return dict(zip(states, table["p_win"]))


def test_playing_for_the_match_changes_the_move_at_7_10(scopa_table):
    """A line where the move that maximises match-winning chance differs from the
    one that maximises expected points": a real position (a heuristic match from seed 32, the
    scores set to 7-10 for the player to move, the other side one point from the target). The
    safe card loses fewer points; the match needs the gamble, and the difference's interval
    over the same worlds excludes 0."""
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    game, table = scopa_table
    state = game.from_dict(__import__("json").loads((DATA / "scopa_match_7_10.json").read_text()))
    result = analyze(state, AnalysisConfig(player=1, worlds=300, seed=1), equity_dict(table))
    assert result.iloc[0]["action"] == "Cco"                       # the most points
    assert result.loc[result["match_win"].idxmax(), "action"] == "7cu"
    assert "playing for the match changes the move: 7cu" in result.attrs["match"]
    assert result.attrs["match"].startswith("at score_a 7, score_b 10, dealer a")
    assert ((result["match_low"] <= result["match_win"]) &
            (result["match_win"] <= result["match_high"])).all()


def test_match_chances_follow_the_deal_points_far_from_the_target(scopa_table):
    """At 0-0 of a match to 11 the match chance of each action lies in [0, 1] and ranks the
    actions almost as the points do: the best for the points is within the interval of the
    best for the match, and the line says so."""
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    game, table = scopa_table
    state = game.new_match(seed=5)
    result = analyze(state, AnalysisConfig(player=state.current_player(), worlds=200, seed=2),
                     equity_dict(table))
    assert result["match_win"].between(0, 1).all()
    assert "changes the move" not in result.attrs["match"], result.attrs["match"]


def test_analyze_match_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "eq"
    assert main(["equity", "scopa", "--deals", "400", "--boot", "10", "--out", str(out),
                 "--quiet"]) == 0
    capsys.readouterr()
    position = str(DATA / "scopa_match_7_10.json")
    assert main(["analyze", "scopa", position, "--player", "1", "--worlds", "50",
                 "--match", str(out)]) == 0
    text = capsys.readouterr().out
    assert "match won [95%]" in text and "at score_a 7, score_b 10, dealer a" in text
    assert main(["analyze", "scopa", position, "--player", "1", "--option",
                 "target_score=21", "--match", str(out)]) == 2
    assert "other rules than this scopa game's" in capsys.readouterr().err


def test_mi_resto_4_analyze_match_reads_a_minchiate_positions_match_state(tmp_path):
    """MI-RESTO-4: a Minchiate match position holds the nets of the deals before it and the
    deal's number, so ``analyze --match`` values each action by the match state its deal
    leaves (the deal's own net, not the match's running total): in the last deal of a match
    where the player's team leads by far more than a deal can change, every action wins the
    match; trailing by as much, none does."""
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    game = cardsim.load_game("minchiate", deals=2)
    run_equity(EquityConfig(game="minchiate", rules={"deals": 2}, deals=40, boot=10),
               tmp_path / "eq", progress=False)
    _, table = read_equity(tmp_path / "eq")
    equity = {tuple(s): p for s, p in zip(
        table[["net", "deals_left", "dealer"]].itertuples(index=False, name=None),
        table["p_win"])}
    d = game.new_match(seed=3).to_dict()
    player = d["to_move"]
    model = match_model(game)
    for total, expected in ((40, 1.0), (-40, 0.0)):
        position = {**d, "deal_number": 2, "start_dealer": (d["dealer"] - 1) % 4,
                    "net_total": total if player % 2 == 0 else -total}
        state = game.from_dict(position)
        assert model.position(state.to_dict(), player) == (total, 1, model.position(
            state.to_dict(), player)[2])
        result = analyze(state, AnalysisConfig(player=player, worlds=4), equity)
        assert (result["match_win"] == expected).all()


def test_match_interval_adds_the_tables_own_error():
    """A match-winning chance's interval carries the equity table's error. Every
    world reaching one state of standard error 0.02 (the worlds agreeing exactly) gives
    ±1.96·0.02; half the worlds at each of two such states, the larger of the correlated
    (0.02) and independent (0.014) errors; two actions reaching the same states as often, a
    loss without table error; the match's end (None) has no error."""
    from cardsim.solvers.analyze import match_interval
    from cardsim.stats import Z95
    flat = np.full(100, 0.5)
    se = {(1, 2): 0.02, (3, 4): 0.02}
    mean, lo, hi = match_interval(flat, [(1, 2)] * 100, se)
    assert mean == 0.5 and hi - mean == pytest.approx(Z95 * 0.02)
    _, lo, hi = match_interval(flat, [(1, 2), (3, 4)] * 50, se)
    assert (hi - lo) / 2 == pytest.approx(Z95 * 0.02)
    _, lo, hi = match_interval(flat, [(1, 2), (3, 4)] * 50, se, flat, [(3, 4), (1, 2)] * 50)
    assert lo == pytest.approx(0.0, abs=1e-15) and hi == pytest.approx(0.0, abs=1e-15)
    _, lo, hi = match_interval(flat, [None] * 100, se)
    assert lo == hi == 0.5
    assert match_interval(flat, [(1, 2)] * 100, {}) == (0.5, 0.5, 0.5)


def test_analyze_match_intervals_widen_when_the_table_is_less_sure(scopa_table):
    """``analyze --match``'s intervals carry the table's uncertainty: the same
    position and worlds give equal chances whatever the table's errors, and intervals that
    widen as they grow (a table without errors: the worlds' intervals alone), except an
    action's whose every world ends the match (no table cell read)."""
    from cardsim.solvers.analyze import AnalysisConfig, Equity, analyze
    game, table = scopa_table
    state = game.from_dict(__import__("json").loads((DATA / "scopa_match_7_10.json").read_text()))
    chances = equity_dict(table)
    widths = []
    for error in (0.0, 0.01, 0.05):
        result = analyze(state, AnalysisConfig(player=1, worlds=60, seed=1),
                         Equity(chances, {s: error for s in chances}))
        result = result.sort_values("action")
        widths.append((result["match_high"] - result["match_low"]).to_numpy())
        if error == 0.0:
            plain = analyze(state, AnalysisConfig(player=1, worlds=60, seed=1), chances)
            pd.testing.assert_frame_equal(result, plain.sort_values("action"))
    assert (widths[0] <= widths[1]).all() and (widths[1] <= widths[2]).all()
    assert (widths[0] < widths[1]).sum() >= 2 and (widths[1] < widths[2]).sum() >= 2
