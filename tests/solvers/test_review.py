"""The review of a played deal (:mod:`cardsim.solvers.review`): known answers (a passed
settebello is a blunder, the evaluator's own play loses nothing, an open position agrees with
the exact solver), the review never reads a hidden card, luck and loss add up to the result,
and ``cardsim review`` on the command line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.records.record import FORMAT, VERSION
from cardsim.records.replay import from_dict, from_moves
from cardsim.solvers import exact
from cardsim.solvers.agents import choose, parse_agent, play
from cardsim.solvers.review import MARKS, ReviewConfig, default_thresholds, evaluator_choice, mark_of, review

GAMES = ["scopa", "bura", "mushka", "minchiate"]


def heuristic_record(game, seed: int, prefix=()):
    """The record of the deal of ``seed``: the moves ``prefix`` first, then the heuristic."""
    state = game.new_deal(seed=seed)
    for text in prefix:
        state.apply_action([a for a in state.legal_actions()
                            if state.action_to_string(a) == text][0])
    agent = parse_agent("heuristic", game)
    while not state.is_terminal():
        state.apply_action(choose(agent, state, seed=len(state.actions)))
    return state.record()


def test_sc_capt_passing_on_the_seven_of_coins_is_a_blunder():
    """SC-CAPT-1, SC-SCORE-3 (settebello): in the Scopa deal of seed 15, seat 0's fourth move
    can take the seven of coins (Jcu>7co+Acu); taking the knight of swords instead
    (Cba>Csw) leaves it to the opponent. The review marks that move a blunder, with the
    capture of the seven the best move; the deal where seat 0 takes it has no mark there."""
    game = cardsim.load_game("scopa")
    agent = parse_agent("heuristic", game)
    state = game.new_deal(seed=15)
    prefix = []
    while len(prefix) < 6:
        a = choose(agent, state, seed=len(prefix))
        prefix.append(state.action_to_string(a))
        state.apply_action(a)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert state.current_player() == 0 and {"Cba>Csw", "Jcu>7co+Acu"} <= set(legal)
    config = ReviewConfig(players=(0,), worlds=100, baseline=0)
    rv = review(heuristic_record(game, 15, prefix + ["Cba>Csw"]), config)
    row = rv.decisions[rv.decisions["move"] == 6].iloc[0]
    assert row["played"] == "Cba>Csw" and row["best"] == "Jcu>7co+Acu"
    assert row["mark"] == "blunder" and row["loss_low"] > default_thresholds(game)[0]
    good = review(heuristic_record(game, 15, prefix + ["Jcu>7co+Acu"]), config)
    assert good.decisions[good.decisions["move"] == 6].iloc[0]["mark"] == ""


@pytest.mark.parametrize("name", GAMES)
def test_the_evaluators_own_play_has_zero_loss(name):
    """Every game: a deal played throughout by the review's own evaluator (the same worlds:
    the same seed and move numbers) is reviewed with zero loss at every decision of every
    seat, and no mark."""
    game = cardsim.load_game(name)
    state = game.new_deal(seed=11)
    worlds = 6
    while not state.is_terminal():
        move = len(state.actions)
        if len(state.legal_actions()) < 2:
            state.apply_action(state.legal_actions()[0])
            continue
        state.apply_action(evaluator_choice(state, worlds=worlds, seed=3, move=move))
    rv = review(state.record(), ReviewConfig(worlds=worlds, seed=3, baseline=0))
    assert len(rv.decisions) > 2
    assert (rv.decisions["loss"] == 0).all() and (rv.decisions["mark"] == "").all()
    assert (rv.decisions["played"] == rv.decisions["best"]).all()


def test_an_open_position_agrees_with_the_exact_solver():
    """In Scopa's last six cards every card is known to the player: reviewed with the oracle
    as the evaluator (both sides best), each action's value is the exact solver's and the
    loss of the move played is the exact difference."""
    game = cardsim.load_game("scopa")
    state = game.new_deal(seed=21)
    agent = parse_agent("heuristic", game)
    while exact.cards_left(state) > 6:
        state.apply_action(choose(agent, state, seed=len(state.actions)))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    mover = state.current_player()
    actions, values = exact.solve_actions(state)
    sign = 1 if exact.side_to_move(state) == 0 else -1
    worst = int(actions[int(np.argmin(sign * values))])
    position = state.clone()
    state.apply_action(worst)
    play(state, ["oracle"] * 2, seed=0)
    rv = review(state.record(), ReviewConfig(players=(mover,), worlds=4, agent="oracle",
                                             baseline=0))
    row = rv.decisions[rv.decisions["move"] == len(position.actions)].iloc[0]
    exact_values = {position.action_to_string(int(a)): sign * int(v)
                    for a, v in zip(actions, values)}
    got = rv.actions[rv.actions["decision"] == row["decision"]].set_index("action")["value"]
    assert got.to_dict() == pytest.approx(exact_values)
    assert row["loss"] == pytest.approx(max(exact_values.values()) - min(exact_values.values()))
    assert row["played"] == position.action_to_string(worst)


@pytest.mark.parametrize("name", GAMES)
def test_the_review_never_reads_a_hidden_card(name):
    """Every game: a view record of seat 0's decisions, and the same one whose every position
    has the cards seat 0 could not see dealt again (``sample_world``), give the same review."""
    game = cardsim.load_game(name)
    record = heuristic_record(game, 13)
    decisions = [(s, a) for s, a, seat in record.decisions() if seat == 0][:6]
    d = {"format": FORMAT, "version": VERSION, "game": name,
         "rules": record.to_dict()["rules"], "seats": list(record.seats), "start": None,
         "moves": [], "player": 0, "result": None}
    views = [{"position": s.to_dict(), "move": s.action_to_string(a)} for s, a in decisions]
    other = [{"position": s.sample_world(0, 99 + k).to_dict(), "move": s.action_to_string(a)}
             for k, (s, a) in enumerate(decisions)]
    assert any(v["position"] != o["position"] for v, o in zip(views, other))
    config = ReviewConfig(worlds=8, baseline=0)
    one = review(from_dict({**d, "views": views}), config)
    two = review(from_dict({**d, "views": other}), config)
    assert len(one.decisions) > 0
    assert one.decisions.equals(two.decisions) and one.actions.equals(two.actions)


@pytest.mark.parametrize("name", GAMES)
def test_luck_minus_loss_is_the_result_against_the_expectation(name):
    """Every game: per reviewed seat, result - expected before the deal = luck - loss, and the
    path of the expected result runs from the expectation to the result."""
    game = cardsim.load_game(name)
    rv = review(heuristic_record(game, 17), ReviewConfig(players=(1,), worlds=6, baseline=40))
    t = rv.totals.iloc[0]
    assert t["result"] - t["expected_before"] == pytest.approx(t["luck"] - t["loss"])
    path = rv.path[rv.path["seat"] == 1]
    assert path["value"].iloc[0] == t["expected_before"] and path["value"].iloc[-1] == t["result"]
    assert len(path) == 2 * t["decisions"] + 2


def test_marks_need_their_threshold_and_an_interval_above_zero():
    thresholds = (0.2, 0.4, 0.8)
    assert mark_of(1.0, 0.5, thresholds) == "blunder"
    assert mark_of(0.5, 0.1, thresholds) == "mistake"
    assert mark_of(0.25, 0.01, thresholds) == "inaccuracy"
    assert mark_of(1.0, 0.0, thresholds) == ""        # within its interval of 0
    assert mark_of(0.1, 0.05, thresholds) == ""
    assert MARKS == ("inaccuracy", "mistake", "blunder")


def test_bad_review_requests_are_one_line():
    game = cardsim.load_game("scopa")
    record = heuristic_record(game, 3)
    with pytest.raises(cardsim.errors.CardsimError, match="player 5 does not exist"):
        review(record, ReviewConfig(players=(5,)))
    with pytest.raises(cardsim.errors.CardsimError, match="three increasing positive"):
        review(record, ReviewConfig(thresholds=(0.5, 0.2, 0.9)))


def test_cardsim_review_prints_json_and_reads_a_list_of_moves(tmp_path, capsys):
    """``cardsim review`` prints the review (and ``--json`` the same as JSON); a text file of
    moves with ``--game`` and ``--deal-seed`` is reviewed like its record."""
    game = cardsim.load_game("scopa")
    record = heuristic_record(game, 3)
    path = tmp_path / "deal.json"
    record.write(path)
    args = ["review", str(path), "--player", "0", "--worlds", "4", "--baseline", "20"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "scopa" and len(data["decisions"]) > 0
    assert data["thresholds"] == {"inaccuracy": 0.2, "mistake": 0.4, "blunder": 0.8}
    assert main([*args, "--report", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Seat 0 (") and "result - expected = luck - loss" in out
    assert "Every decision, valued from the player's view" in out
    assert f"report: {tmp_path / 'report'}" in out
    html = (tmp_path / "report" / "report.html").read_text()
    assert "data:image/png;base64" in html and data["decisions"][0]["played"] in html
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(record.moves) + "\n")
    assert main(["review", str(moves), "--game", "scopa", "--deal-seed", "3", "--player", "0",
                 "--worlds", "4", "--baseline", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"] == data["decisions"]
    assert from_moves(game, list(record.moves), seed=3).to_dict() == record.to_dict()


@pytest.mark.parametrize("argv, needle", [
    (["review", "missing.json"], "cannot read"),
    (["review", "moves.txt", "--game", "scopa"], "needs --deal-seed"),
    (["review", "deal.json", "--thresholds", "1,2"], "three increasing positive numbers"),
    (["review", "deal.json", "--deal-seed", "3"], "are for a list of moves"),
])
def test_cardsim_review_refuses_bad_input_in_one_line(tmp_path, monkeypatch, capsys, argv,
                                                       needle):
    monkeypatch.chdir(tmp_path)
    heuristic_record(cardsim.load_game("scopa"), 3).write(tmp_path / "deal.json")
    (tmp_path / "moves.txt").write_text("4cu\n")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and err.startswith("cardsim: error:") and "\n" not in err


def test_the_loss_in_match_winning_chance_reads_the_table():
    """With a match-equity table, each decision also has its loss in match-winning chance: in
    the first deal of a Scopa match to 21 (no deal decides it) with a table worth 0.5 from
    every state, every action keeps the chance at 0.5, so that loss is 0 everywhere while
    the loss in points is not."""
    from cardsim.experiments.equity import match_model
    game = cardsim.load_game("scopa", target_score=21)
    state = game.new_match(seed=4)
    agent = parse_agent("heuristic", game)
    while len(state.actions) < 30:                       # within the first deal (36 moves)
        state.apply_action(choose(agent, state, seed=len(state.actions)))
    assert state.to_dict()["deal_number"] == 1
    table = {s: 0.5 for s in match_model(game).states}
    rv = review(state.record(), ReviewConfig(players=(0,), worlds=6, baseline=0), table)
    assert {"match_loss", "match_low", "match_high"} <= set(rv.decisions.columns)
    assert (rv.decisions["match_loss"] == 0).all() and len(rv.decisions) > 5
    assert rv.decisions["loss"].sum() > 0


def test_a_matchs_decisions_are_valued_for_their_deals_points():
    """In a match's record without a table, each decision is valued for the points of its
    deal (a match's returns are +-1 and would hide them) and luck, a single deal's, is not
    given."""
    game = cardsim.load_game("scopa")
    state = game.new_match(seed=6)
    agent = parse_agent("heuristic", game)
    while len(state.actions) < 44:                     # into the second deal
        state.apply_action(choose(agent, state, seed=len(state.actions)))
    rv = review(state.record(), ReviewConfig(players=(0,), worlds=8, baseline=50))
    assert set(rv.decisions["deal"]) == {1, 2}
    assert rv.actions["value"].abs().max() > 1
    assert np.isnan(rv.totals.iloc[0]["luck"])
