"""PIMC (cardsim/solvers/pimc.py), the oracle agent, and ``cardsim solve``.

PIMC must not leak hidden cards: its totals over sampled worlds are the same for two true
states the player cannot tell apart; and its totals are exactly the exact solver's values of
each action summed over the worlds it sampled.
"""
from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError
from cardsim.game import State
from cardsim.games.bura.exact import split_value
from cardsim.solvers import exact, ismcts, pimc
from cardsim.solvers.agents import choose, parse_agent, play, workspace
from tests.conformance.test_every_game import _permuted_truth
from tests.solvers.test_agents import _positions, _scopa_settebello_scopa

GAMES = ("scopa", "bura")


def test_parse_pimc_and_oracle():
    a = parse_agent("pimc")
    assert a.is_exact and a.params[ismcts.WORLDS] == 50 and a.params[ismcts.SECONDS] == 0
    a = parse_agent("pimc:seconds=0.2")
    assert a.params[ismcts.WORLDS] == 0 and a.params[ismcts.SECONDS] == 0.2
    a = parse_agent("pimc:worlds=7,seconds=1")
    assert a.params[ismcts.WORLDS] == 7 and a.params[ismcts.SECONDS] == 1
    assert parse_agent("oracle").is_exact and not parse_agent("oracle").is_search
    for spec, words in (("pimc:iterations=5", "unknown parameter 'iterations'"),
                        ("pimc:worlds=0", "worlds > 0 or seconds > 0"),
                        ("pimc:worlds=x", "worlds='x'"),
                        ("pimc:worlds", "expected worlds=value"),
                        ("oracle:worlds=3", "takes no parameters")):
        with pytest.raises(AgentError, match=re.escape(words)):
            parse_agent(spec)


def test_pimc_refuses_games_the_solver_does_not_cover():
    game = cardsim.load_game("bura", num_players=3)
    with pytest.raises(AgentError, match="covers 2-player Bura"):
        play(game.new_deal(seed=1), ["pimc:worlds=2", "heuristic", "heuristic"])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("agents", [["pimc:worlds=3", "heuristic"], ["oracle", "random"]])
def test_pimc_and_oracle_play_legal_deterministic_deals(name, agents):
    game = cardsim.load_game(name)
    for seed in range(2):
        state = game.new_deal(seed=seed)
        moves = play(state, agents, seed=seed)
        assert state.is_terminal() and moves > 0
        again = game.new_deal(seed=seed)
        assert play(again, agents, seed=seed) == moves
        assert again.to_dict() == state.to_dict()


def _pimc(state, agent, seed):
    spec = state.game.spec
    ws = workspace(spec, [agent])
    actions = np.array(state.legal_actions(), dtype=np.int64)
    best, worlds = pimc.search[spec](spec.params, state.vec, agent.params,
                                     rng_from_seed(seed), actions, len(actions), ws.world,
                                     ws.totals, ws.values, ws.exact)
    return actions, int(best), int(worlds), ws.totals[:len(actions)].copy()


@pytest.mark.parametrize("name", GAMES)
def test_pimc_totals_are_the_exact_values_of_its_sampled_worlds(name):
    """Each action's total is the sum, over the worlds ``determinize`` gave for the mover from
    the same random stream, of the exact solver's value of that action for the mover's side;
    PIMC plays the first action of best total."""
    game, positions = _positions(name, {}, every=6)
    agent = parse_agent("pimc:worlds=4")
    spec = game.spec
    for state in positions[::3]:
        actions, best, worlds, totals = _pimc(state, agent, 11)
        assert worlds == 4
        rng = rng_from_seed(11)
        world = np.zeros(spec.state_len, dtype=np.uint64)
        expected = np.zeros(len(actions), dtype=np.int64)
        sign = 1 if exact.side_to_move(state) == 0 else -1
        for _ in range(worlds):
            spec.determinize(state.vec, spec.params, state.current_player(), rng, world)
            _, values = exact.solve_actions(State(game, world.copy()))
            expected += sign * values
        assert totals.tolist() == expected.tolist()
        assert best == int(np.argmax(totals))


@pytest.mark.parametrize("name", GAMES)
def test_pimc_ignores_the_hidden_truth(name):
    """No leak: for two true states the player to move cannot tell apart, PIMC's totals over
    its sampled worlds (and so its action) are the same for the same seed."""
    game, positions = _positions(name, {}, every=6)
    rnd = random.Random(3)
    agent = parse_agent("pimc:worlds=3")
    compared = 0
    for state in positions:
        player = state.current_player()
        other = _permuted_truth(game, state.to_dict(), player, rnd)
        if other.to_dict() == state.to_dict():
            continue
        assert other.observation(player) == state.observation(player)
        a1, b1, _, t1 = _pimc(state, agent, 5)
        a2, b2, _, t2 = _pimc(other, agent, 5)
        assert a1.tolist() == a2.tolist() and b1 == b2 and t1.tolist() == t2.tolist()
        compared += 1
    assert compared >= 4


@pytest.mark.parametrize("name", GAMES)
def test_oracle_plays_a_best_move_of_the_true_state(name):
    """The oracle sees every card: its move has the best exact value of the true state for
    the mover's side."""
    game, positions = _positions(name, {}, every=9)
    oracle = parse_agent("oracle")
    for state in positions[:6]:
        move = choose(oracle, state, seed=1)
        actions, values = exact.solve_actions(state)
        mine = values if exact.side_to_move(state) == 0 else -values
        assert mine[list(actions).index(move)] == mine.max()


def test_pimc_time_budget_stops():
    """``seconds``: at least one world, then no new world once the time is spent."""
    import time
    state = cardsim.load_game("scopa").new_deal(seed=2)
    agent = parse_agent("pimc:seconds=0.05")
    _pimc(state, agent, 1)                                # compile / load
    t = time.perf_counter()
    _, _, worlds, _ = _pimc(state, agent, 1)
    spent = time.perf_counter() - t
    assert worlds >= 1
    assert spent < 0.05 + 2.0                             # one world past the budget at most


def test_pimc_takes_the_settebello_with_a_scopa():
    """Seat 1 holds 7sw, Asw, 5sw and the table only the 7co: taking it is a scopa and the
    settebello (SC-CAPT-1, SC-SCOPA-1, SC-SCORE-3); every sampled world agrees."""
    state = _scopa_settebello_scopa()
    move = choose(parse_agent("pimc:worlds=5"), state, seed=3)
    assert state.action_to_string(move).startswith("7sw>7co")


def test_analyze_can_use_pimc(tmp_path, capsys):
    state = cardsim.load_game("scopa").new_deal(seed=4)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(state.to_dict()))
    code = main(["analyze", "scopa", str(path), "--player", str(state.current_player()),
                 "--agent", "pimc:worlds=2", "--worlds", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "legal actions" in out


# --- cardsim solve --------------------------------------------------------------------------

@pytest.mark.parametrize("name,moves", [("scopa", 24), ("bura", 0)])
def test_solve_prints_every_action_its_exact_value_and_the_line(tmp_path, capsys, name, moves):
    game = cardsim.load_game(name)
    state = game.new_deal(seed=6)
    rnd = random.Random(1)
    for _ in range(moves):
        state.apply_action(rnd.choice(state.legal_actions()))
    path = tmp_path / "p.json"
    path.write_text(json.dumps(state.to_dict()))
    assert main(["solve", name, str(path), "--stats"]) == 0
    out = capsys.readouterr().out
    actions, values = exact.solve_actions(state)
    sign = 1 if exact.side_to_move(state) == 0 else -1
    for a, v in zip(actions, values):
        assert re.search(rf"^\s*{re.escape(state.action_to_string(int(a)))}\s+{sign * v}\b",
                         out, re.M), state.action_to_string(int(a))
        if name == "bura":                   # the value split into result and margin
            result, margin = split_value(sign * int(v))
            text = "void" if result == 0 else f"{'win' if result > 0 else 'loss'} x{abs(result)}"
            assert abs(margin) <= 120 and sign * v == 256 * result + margin
            assert re.search(rf"^\s*{re.escape(state.action_to_string(int(a)))}\s+{sign * v}"
                             rf"\s+\*?\s+{text}\s+{margin}\s*$", out, re.M)
    words = " ".join(out.split())                  # the text as one line (wrapped at 100)
    best = sign * values.max() if sign > 0 else -values.min()
    assert f"The position is worth {best} " in words
    line = exact.principal_line(state)
    shown = re.search(r"principal line \(seat:move\): (.*?) stats", words).group(1).split(" ")
    assert len(shown) >= len(line) and shown[0].startswith(f"{state.current_player()}:")
    assert re.search(r"stats \(the action values\): [\d,]+ nodes, [\d,]+ table hits", out)


def test_solve_errors(tmp_path, capsys):
    state = cardsim.load_game("bura", num_players=3).new_deal(seed=1)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(state.to_dict()))
    assert main(["solve", "bura", str(path)]) == 2
    assert "covers 2-player Bura" in capsys.readouterr().err
    done = cardsim.load_game("scopa").new_deal(seed=1)
    play(done, ["random", "random"], seed=1)
    path.write_text(json.dumps(done.to_dict()))
    assert main(["solve", "scopa", str(path)]) == 2
    assert "nothing to solve" in capsys.readouterr().err


# --- ISMCTS's exact endgames -----------------------------------------------------

def _scopa_endgames(count: int):
    """2-player Scopa positions with six cards or fewer left (the stock empty: every card
    known to the player to move), from random play, each with two or more legal moves."""
    from cardsim.games.scopa import layout as L
    game = cardsim.load_game("scopa")
    found, seed = [], 0

    def left(vec, params):                   # the hook cards_left, in Python
        return sum(bin(int(vec[w])).count("1") for w in (L.HAND, L.HAND + 1, L.STOCK))

    while len(found) < count:
        state, rnd = game.new_deal(seed=seed), random.Random(seed)
        seed += 1
        while not state.is_terminal():
            if left(state.vec, None) <= 6 and len(state.legal_actions()) > 1:
                found.append(state.clone())
                break
            state.apply_action(rnd.choice(state.legal_actions()))
    return found


def test_ismcts_exact_endgames_play_a_best_move_where_every_card_is_known():
    """Scopa's last six cards are perfect information: with ``exact=6`` every rollout from the
    root is the exact value, so ISMCTS (final=value) plays a move of best exact value, as
    the exact solver says."""
    agent = parse_agent("ismcts:iterations=60,exact=6,final=value")
    for state in _scopa_endgames(8):
        move = choose(agent, state, seed=3)
        actions, values = exact.solve_actions(state)
        mine = values if exact.side_to_move(state) == 0 else -values
        assert mine[list(actions).index(move)] == mine.max()


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_exact_endgames_are_legal_and_deterministic(name):
    """``exact=K`` plays whole legal deals, the same for the same seed; it is an exact agent
    (the full solver workspace) and a search (its budget is iterations)."""
    agent = parse_agent("ismcts:iterations=100,exact=8")
    assert agent.is_exact and agent.is_search
    game = cardsim.load_game(name)
    ends = []
    for _ in range(2):
        state = game.new_deal(seed=5)
        play(state, [agent, "heuristic"], seed=2)
        assert state.is_terminal()
        ends.append(list(state.returns()))
    assert ends[0] == ends[1]
    from cardsim.solvers.agent_spec import search_budget
    assert search_budget(agent)[:2] == ("iterations", 100.0)


def test_bura_deal_return_is_the_result_of_split_value():
    """Bura's ``deal_return`` hook (ISMCTS's exact endgames) reads a deal's exact value as its
    result in stakes, as :func:`split_value` does, for every result and margin; Scopa's is
    the value itself."""
    from numba import njit

    from cardsim.games.bura.exact import OUTCOME
    from cardsim.games.bura.exact import deal_return as bura_return
    from cardsim.games.scopa.exact import deal_return as scopa_return

    bura = njit(lambda v: bura_return(v))
    scopa = njit(lambda v: scopa_return(v))
    for result in (-6, -3, -2, -1, 0, 1, 2, 3, 6):
        for margin in (-120, -61, -1, 0, 1, 60, 120):
            value = OUTCOME * result + margin
            assert bura(value) == split_value(value)[0] == result
    assert [scopa(v) for v in (-7, 0, 5)] == [-7.0, 0.0, 5.0]
