"""Bura's match-equity tables (:mod:`cardsim.games.bura.match`): the model's rules,
the dynamic programming against closed forms, the deal setups that measure every deal
configuration on the same cards, a table against whole simulated matches, the checks, the
folder, its report, and the experiment spec's ``setup``."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.errors import CardsimError
from cardsim.experiments.equity import (
    EquityConfig,
    deal_outcomes,
    equity_table,
    match_model,
    run_equity,
    table_checks,
)
from cardsim.experiments.equity_folder import read_equity
from cardsim.experiments.rows import duplicate_rows
from cardsim.experiments.spec import SpecError, parse_spec, spec_from_dict
from cardsim.games.bura.match import DEALER_LEADS, decide_penalty, decide_wins
from cardsim.protocol.match import A_WINS, B_WINS
from cardsim.solvers.agents import play
from cardsim.solvers.duplicate import play_duplicate

WINS = {"match_format": "wins_to_n"}
PENALTY = {"match_format": "penalty_points"}


def bura(**options):
    return cardsim.load_game("bura", **options)


def model_of(**options):
    return match_model(bura(**options))


def synthetic_rows(outcomes) -> pd.DataFrame:
    """Store rows of duplicate deals, side a at seat 0: ``outcomes`` [(weight, winner,
    multiplier, last_trick)] (sides 0 for a, 1 for b, -1 for none or a void deal), each deal
    in the four configurations (dealer seat, first leader seat); deal i of weight w appears
    w times."""
    rows = []
    deal = 0
    for weight, winner, mult, last in outcomes:
        for _ in range(weight):
            for dealer in range(2):
                for leader in range(2):
                    ret = 0.0 if winner < 0 else (mult if winner == 0 else -mult)
                    rows.append({"deal": deal, "dealer": dealer, "first_leader": leader,
                                 "last_trick": last, "seat_0": 0, "seat_1": 1,
                                 "return_0": ret, "return_1": -ret})
            deal += 1
    return pd.DataFrame(rows)


def state_p(table: pd.DataFrame, state: tuple) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(table.columns[:4], state):
        mask &= table[column].to_numpy() == value
    (i,) = np.flatnonzero(mask)
    return table.iloc[i]


# --- the rules of the model --------------------------------------------------------------------

def test_bu_match_2_the_winner_gets_multiplier_wins_and_needs_a_lead_of_2():
    """BU-MATCH-2: a deal's winner gets its multiplier in wins (2 for the opponent's false
    claim); the first at 11 with a lead of at least 2 wins the match."""
    model = model_of(**WINS)
    assert model.step((3, 4, "b", "a"), (0, 2, 1)) == (5, 4, "a", "b")
    assert model.step((10, 9, "a", "a"), (0, 1, 0)) == A_WINS
    assert model.step((9, 9, "a", "a"), (1, 2, 0)) == B_WINS
    assert model.step((10, 10, "a", "b"), (0, 1, 1)) == (11, 10, "a", "b")
    assert decide_wins(11, 10, 11) is None and decide_wins(13, 11, 11) == A_WINS
    assert decide_wins(3, 21, 21) == B_WINS and decide_wins(20, 19, 21) is None


def test_bu_match_2_past_the_target_only_the_difference_counts():
    """BU-MATCH-2: past the target the match goes on while the scores are tied or 1 apart,
    and only the difference decides what follows: every such state is one of 11-10, 11-11
    and 10-11, so the table is finite (every score below 11 and these three, for each of the
    four configurations)."""
    model = model_of(**WINS)
    assert model.step((11, 10, "a", "a"), (1, 1, 1)) == (11, 11, "b", "b")
    assert model.step((11, 11, "b", "b"), (0, 1, 0)) == (11, 10, "a", "a")
    assert model.step((11, 10, "a", "a"), (1, 2, 1)) == (10, 11, "b", "b")
    assert model.step((10, 11, "a", "a"), (0, 2, 0)) == (11, 10, "a", "a")
    assert model.step((11, 10, "a", "a"), (0, 1, 0)) == A_WINS
    assert len(model.states) == (11 * 11 + 3) * 4
    assert len(model_of(wins_target=21, **WINS).states) == (21 * 21 + 3) * 4


def test_bu_match_3_the_loser_gets_2_penalty_points_a_multiplier_and_12_loses():
    """BU-MATCH-3: each deal's loser gets 2 x multiplier penalty points; reaching 12 loses
    the match. Penalties are even, so the table's rows are the even scores below 12."""
    model = model_of(**PENALTY)
    assert model.step((6, 8, "a", "b"), (1, 2, 1)) == (10, 8, "b", "b")
    assert model.step((10, 4, "a", "b"), (1, 1, 0)) == B_WINS
    assert model.step((2, 8, "b", "b"), (0, 2, 0)) == A_WINS
    assert decide_penalty(12, 0, 12) == B_WINS and decide_penalty(10, 10, 12) is None
    assert len(model.states) == 6 * 6 * 4
    assert {s[0] for s in model.states} == {0, 2, 4, 6, 8, 10}


def test_bu_end_6_the_winner_deals_next_and_a_void_deal_keeps_the_dealer():
    """BU-END-6: the deal's winner deals the next deal; after a void deal (no winner, no
    score) the same dealer deals again."""
    for options in (WINS, PENALTY):
        model = model_of(**options)
        assert model.step((0, 0, "a", "b"), (1, 1, 1))[2] == "b"
        assert model.step((0, 0, "b", "b"), (0, 1, 1))[2] == "a"
        assert model.step((4, 2, "b", "a"), (-1, 0, 0)) == (4, 2, "b", "a")


def test_bu_lead_2_the_last_tricks_taker_leads_next_else_the_dealers_left():
    """BU-LEAD-2: the next deal's first leader is the last trick's taker (whoever won the
    deal); a deal without a trick (-1) gives the first lead to the new dealer's left, the
    other side. So every deal configuration (a or b deals, a or b leads) occurs, and the
    configurations where the dealer leads are measured by the setup first_leader="dealer"."""
    model = model_of(**WINS)
    assert model.step((0, 0, "a", "a"), (0, 1, 1)) == (1, 0, "a", "b")
    assert model.step((0, 0, "a", "a"), (0, 1, 0)) == (1, 0, "a", "a")
    assert model.step((0, 0, "a", "a"), (1, 1, -1)) == (0, 1, "b", "a")
    assert model.step((5, 5, "b", "a"), (-1, 0, 1)) == (5, 5, "b", "b")
    assert len(model.configs) == 4
    assert model.setups == (("", {}), ("dealer_leads", DEALER_LEADS))


def test_bu_lead_2_left_of_dealer_needs_two_configurations_and_no_setup():
    """BU-LEAD-2 with next_deal_first_leader=left_of_dealer: the dealer's left always leads,
    whoever took the last trick; two configurations, all measured by plain deals."""
    model = model_of(next_deal_first_leader="left_of_dealer", **PENALTY)
    assert model.step((0, 0, "a", "b"), (0, 1, 0)) == (0, 2, "a", "b")
    assert model.step((0, 0, "a", "b"), (1, 1, 1)) == (2, 0, "b", "a")
    assert len(model.configs) == 2 and model.setups == (("", {}),)
    assert all(s[2] != s[3] for s in model.states)


@pytest.mark.parametrize("options, words", [
    ({}, "a single deal is the match"), ({"num_players": 3, **WINS}, "for two sides"),
    ({"num_players": 4, **PENALTY}, "for two sides")])
def test_bu_match_1_a_single_deal_and_more_players_get_no_table(options, words, capsys):
    """BU-MATCH-1: with match_format=single_deal a deal is the match (no table); with 3 or 4
    players every player is for himself, which two sides cannot hold: one line each, in the
    API and on the command line."""
    with pytest.raises(CardsimError, match=words):
        model_of(**options)
    argv = ["equity", "bura", *sum((["--option", f"{k}={v}"] for k, v in options.items()), [])]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


# --- the dynamic programming against closed forms ---------------------------------------------

def test_penalty_points_with_one_deal_at_a_time_is_the_binomial_race():
    """Deals won by a with chance q (never doubled): a wins from penalties (x, y) when b loses
    (12 - y) / 2 deals before a loses (12 - x) / 2, the negative binomial's closed form, in
    every configuration (nothing depends on the dealer or the leader here)."""
    q = 0.6
    table = equity_table(synthetic_rows([(3, 0, 1, 0), (2, 1, 1, 1)]),
                         model_of(**PENALTY), boot=0)
    for x, y in [(0, 0), (10, 10), (4, 8), (8, 2)]:
        need_b, need_a = (12 - y) // 2, (12 - x) // 2
        closed = sum(math.comb(need_b - 1 + k, k) * q ** need_b * (1 - q) ** k
                     for k in range(need_a))
        for d in "ab":
            for lead in "ab":
                assert state_p(table, (x, y, d, lead))["p_win"] == pytest.approx(closed, abs=1e-10)


def test_the_tie_past_the_target_is_solved_as_a_fixed_point():
    """BU-MATCH-2's lead of 2: with one-win deals won by a with chance q, from a tie a needs
    two wins in a row before b does: q^2 / (q^2 + (1 - q)^2), at 10-10 as at the tie past
    11; one ahead adds a win now: q + (1 - q) times the tie."""
    q = 0.6
    table = equity_table(synthetic_rows([(3, 0, 1, 0), (2, 1, 1, 1)]), model_of(**WINS), boot=0)
    tie = q * q / (q * q + (1 - q) ** 2)
    for state, p in [((10, 10, "a", "b"), tie), ((11, 11, "b", "b"), tie),
                     ((11, 10, "a", "a"), q + (1 - q) * tie), ((10, 11, "b", "a"), q * tie)]:
        assert state_p(table, state)["p_win"] == pytest.approx(p, abs=1e-10)


def test_the_leader_of_the_next_deal_follows_the_last_trick():
    """BU-LEAD-2 through the table: deals that the first leader always wins, taking the last
    trick, make the side that leads at a tie win the match (it leads every deal after), and
    with left_of_dealer (the winner deals, the other leads) the leader alternates."""
    rows = synthetic_rows([(1, 0, 1, 0)])
    lead_wins = rows.assign(return_0=np.where(rows["first_leader"] == 0, 1.0, -1.0),
                            last_trick=rows["first_leader"])
    lead_wins["return_1"] = -lead_wins["return_0"]
    table = equity_table(lead_wins, model_of(**WINS), boot=0)
    assert state_p(table, (11, 11, "b", "a"))["p_win"] == pytest.approx(1.0)
    assert state_p(table, (0, 0, "a", "b"))["p_win"] == pytest.approx(0.0)


# --- deals of both setups: the outcomes read from real rows ------------------------------------

@pytest.fixture(scope="module")
def bura_rows():
    """Duplicate heuristic deals from both setups, on the same seeds (1,000 deals, each
    played 4 times: two rotations x two first leaders)."""
    game = bura(**WINS)
    parts = [duplicate_rows(play_duplicate(game, ["heuristic", "heuristic"], 1000, seed=(20, 2),
                                           setup=setup)) for setup in ({}, DEALER_LEADS)]
    return pd.concat(parts, ignore_index=True)


def test_bu_lead_2_rows_of_both_setups_give_the_four_configurations(bura_rows):
    """BU-LEAD-2, BU-END-3: each row's configuration (dealing side, first leading side) and
    outcome (winner side, multiplier, last trick's side) as the model reads them: the plain
    deals have the dealer's left leading, the set-up ones the dealer; each deal's index and
    cards are the same in both."""
    deals, configs, outcomes = deal_outcomes(bura_rows, model_of(**WINS))
    assert np.bincount(configs, minlength=4).tolist() == [1000] * 4
    side_a = bura_rows["seat_0"].to_numpy() % 2                     # side of seat 0
    ret_a = np.where(side_a == 0, bura_rows["return_0"], bura_rows["return_1"])
    assert (outcomes[:, 0] == np.where(ret_a > 0, 0, np.where(ret_a < 0, 1, -1))).all()
    assert set(outcomes[:, 1]) <= {0, 1, 2}
    last = bura_rows["last_trick"].to_numpy()
    last_side = np.where(last == 0, side_a, 1 - side_a)
    assert (outcomes[:, 2] == np.where(last < 0, -1, last_side)).all()
    plain, setup = bura_rows.iloc[:2000], bura_rows.iloc[2000:]
    assert (plain["first_leader"] != plain["dealer"]).all()
    assert (setup["first_leader"] == setup["dealer"]).all()
    assert (plain["deal"].to_numpy() == setup["deal"].to_numpy()).all()
    assert (plain["seed"].to_numpy() == setup["seed"].to_numpy()).all()


@pytest.fixture(scope="module")
def tables(bura_rows):
    """The heuristic's tables of both formats, from the same deals (a deal plays alike under
    either format)."""
    return {name: equity_table(bura_rows, model_of(**options), boot=100, seed=1)
            for name, options in (("wins", WINS), ("penalty", PENALTY))}


@pytest.mark.parametrize("name, options", [("wins", WINS), ("penalty", PENALTY)])
def test_a_symmetric_table_passes_the_checks(tables, name, options):
    """The table's checks: the heuristic against itself gives p(state) + p(mirror) = 1 (scores,
    dealer and leader mirrored) within the intervals, and side a's chance does not fall one
    win better (or one lost deal's penalty better)."""
    checks = table_checks(tables[name], model_of(**options), symmetric=True)
    assert len(checks) == 2 and (checks["failures"] == 0).all(), checks
    assert (checks["cells"] > 100).all()


def whole_matches(game, start: tuple, matches: int, seed: int) -> tuple[float, float]:
    """Side a's (seat 0's) wins in ``matches`` whole heuristic matches from ``start`` (scores,
    dealing side, first leading side of the next deal), with the standard error."""
    score_a, score_b, dealer, leader = start
    wins = 0
    for i in range(matches):
        d = game.new_match(seed=np.random.SeedSequence([seed, i])).to_dict()
        d["scores"], d["dealer"] = [score_a, score_b], "ab".index(dealer)
        d["leader"] = d["to_move"] = d["first_leader"] = "ab".index(leader)
        state = game.from_dict(d)
        play(state, ["heuristic", "heuristic"], seed=np.random.SeedSequence([seed, i, 1]))
        wins += state.returns()[0] > 0
    p = wins / matches
    return p, math.sqrt(p * (1 - p) / matches)


@pytest.mark.parametrize("name, options, start", [
    ("wins", WINS, (0, 0, "b", "a")), ("wins", WINS, (7, 9, "a", "a")),
    ("wins", WINS, (11, 11, "b", "b")), ("wins", WINS, (10, 11, "a", "b")),
    ("penalty", PENALTY, (0, 0, "a", "b")), ("penalty", PENALTY, (6, 10, "b", "b")),
    ("penalty", PENALTY, (8, 4, "a", "a"))])
def test_the_table_agrees_with_whole_matches_played_from_a_state(tables, name, options, start):
    """BU-MATCH-2/3, BU-END-6, BU-LEAD-2 by the engine: the table's chance from a
    state against 400 whole heuristic matches played from it (the scores, the dealer and
    the first leader set in the first deal's position): they agree within their
    intervals."""
    row = state_p(tables[name], start)
    p, se = whole_matches(bura(**options), start, 400,
                          seed=1000 * start[0] + 10 * start[1] + "ab".index(start[2]))
    half = (row["p_high"] - row["p_low"]) / 2
    assert abs(p - row["p_win"]) <= half + 2.0 * se, (start, p, se, dict(row))


# --- the folder, the command and the report ----------------------------------------------------

def test_a_bura_folder_holds_a_store_per_setup_resumes_and_reports(tmp_path, capsys):
    """A Bura folder holds the deals of each setup (``deals/``, ``deals_dealer_leads/``) and
    names them in its manifest; the same request resumes to the same table; the command
    prints a grid per configuration and the report draws them."""
    out = tmp_path / "eq"
    argv = ["equity", "bura", "--option", "match_format=penalty_points", "--deals", "60",
            "--boot", "10", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert ("dealer a, leader b: side a's chance to win the match, percent (penalty_a down, "
            "penalty_b across)") in " ".join(text.split())
    assert "\nChecks\n" in text
    assert (out / "deals").is_dir() and (out / "deals_dealer_leads").is_dir()
    manifest, table = read_equity(out)
    assert manifest["deal_setups"] == {"deals": {}, "deals_dealer_leads": DEALER_LEADS}
    assert list(table.columns) == ["penalty_a", "penalty_b", "dealer", "leader", "p_win",
                                   "p_low", "p_high"]
    config = EquityConfig(game="bura", rules=PENALTY, deals=60, seed=0, boot=10)
    again = run_equity(config, out, progress=False)
    pd.testing.assert_frame_equal(table, again)
    assert main(["report", str(out)]) == 0
    html = (out / "report" / "report.html").read_text()
    assert "Match equity" in html and "data:image/png;base64" in html
    assert (out / "report" / "tables" / "equity_dealer_a_leader_b.csv").exists()


def test_scopa_folders_keep_one_store_and_their_manifest(tmp_path):
    """A game whose configurations need no setup keeps its folder as before: ``deals/``
    only, no deal setups in the manifest."""
    out = tmp_path / "eq"
    run_equity(EquityConfig(game="scopa", deals=10, boot=10), out, progress=False)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "deals", "equity.csv", "equity.parquet", "manifest.json"]
    assert "deal_setups" not in json.loads((out / "manifest.json").read_text())


# --- the experiment spec's setup ---------------------------------------------------------------

SPEC = {"game": "bura", "agents": ["heuristic"], "matchups": [[0, 0]], "size": {"deals": 4}}


def test_a_spec_without_setup_writes_no_setup_and_one_with_it_round_trips():
    """An empty setup is left out of the spec's dict (stores written before setups existed
    resume unchanged); a given one is kept and read back."""
    plain = parse_spec(SPEC)
    assert plain.setup == {} and "setup" not in plain.to_dict()
    spec = parse_spec({**SPEC, "setup": {"first_leader": "dealer"}})
    assert spec.to_dict()["setup"] == {"first_leader": "dealer"}
    assert spec_from_dict(spec.to_dict()) == spec
    state = spec.load().new_deal(seed=3, **spec.setup)
    assert state.to_dict()["first_leader"] == state.to_dict()["dealer"]


@pytest.mark.parametrize("data, words", [
    ({**SPEC, "setup": {"first_leader": 7}}, "setup: first_leader 7: expected a seat"),
    ({**SPEC, "setup": {"leader": 0}}, "setup: bura deals take a seed and first_leader"),
    ({**SPEC, "setup": "dealer"}, "setup='dealer': expected a table"),
    ({**SPEC, "setup": {"first_leader": "dealer"}, "unit": "match",
      "rules": {"match_format": "wins_to_n"}}, 'unit = "match" takes none'),
    ({**SPEC, "game": "scopa", "setup": {"first_leader": 0}}, "scopa deals take nothing")])
def test_a_bad_setup_is_refused_in_one_line(data, words):
    with pytest.raises(SpecError) as e:
        parse_spec(data)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_bu_match_3_analyze_match_reads_a_bura_positions_match_state():
    """BU-MATCH-3, BU-END-6: a Bura match position holds the penalties before its deal, the
    dealer and the first leader, so ``analyze --match`` values each action by the state its
    deal leaves. With the opponent at 10 penalties and the player at 0, winning the deal wins
    the match (the loser's 2 reach 12) and any other end leaves an undecided state, here
    worth 0.3 from every state: each action's match chance is exactly
    win_rate + 0.3 (1 - win_rate) over the same worlds."""
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    game = bura(**PENALTY)
    model = match_model(game)
    d = game.new_match(seed=4).to_dict()
    player = d["to_move"]
    scores = [0, 0]
    scores[1 - player] = 10
    state = game.from_dict({**d, "scores": scores})
    start = model.position(state.to_dict(), player)
    assert start[:2] == (0, 10)
    assert start[2:] == ("a" if d["dealer"] == player else "b",
                         "a" if d["first_leader"] == player else "b")
    result = analyze(state, AnalysisConfig(player=player, worlds=20),
                     {s: 0.3 for s in model.states})
    assert len(result) > 1
    assert np.allclose(result["match_win"], result["win_rate"] + 0.3 * (1 - result["win_rate"]))
    assert 0 < result["win_rate"].mean() < 1
