"""PIMC over the learned evaluation (``pimc:leaf=net``): the shallow search of a world
(cardsim/solvers/lookahead.py) against the exact solver, and the agent legal, deterministic and blind
to hidden cards in every game."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError
from cardsim.solvers import exact, lookahead
from cardsim.solvers.agents import choose, parse_agent, play, workspace
from tests.solvers.test_evaluation import (
    GAMES,
    assert_legal_line,
    indistinguishable,
    presets,
    random_weights,
    saved,
)

ENDGAME = {"scopa": 6, "bura": 6, "mushka": 5, "minchiate": 8}
"""Cards left in the endgames searched to their end (a few thousand positions)."""


def endgames(game, cards, count, seed=0):
    """``count`` positions with ``cards`` cards left or fewer, where the player to move has a
    choice, of deals played at random but for Bura's claims (which end a deal early)."""
    rnd = random.Random(seed)
    found = []
    for s in range(seed, seed + 200):
        state = game.new_deal(seed=s)
        while not state.is_terminal():
            legal = state.legal_actions()
            if exact.cards_left(state) <= cards and len(legal) > 1:
                found.append(state.clone())
                break
            plays = [a for a in legal if not state.action_to_string(a).startswith("claim")]
            state.apply_action(rnd.choice(plays or legal))
        if len(found) == count:
            return found
    raise AssertionError(f"fewer than {count} endgames")


def best_play_return(state, root):
    """Seat ``root``'s return when the deal is played out along the exact solver's line of
    best play (side 0 against side 1; in Mushka the others against ``root``)."""
    end = state.clone()
    for a in exact.principal_line(end.clone(), root=root):
        end.apply_action(a)
    assert end.is_terminal()
    return end.returns()[root]


@pytest.mark.parametrize("name", GAMES)
def test_searched_to_the_end_it_is_the_exact_solver(name):
    """Without a network there is no depth limit (``depth=1`` is ignored): the alpha-beta
    over returns finds the deal's result
    under best play, for the player to move and for another seat: the exact solver's. With
    ``model`` (an opponent plays the heuristic's move) the searcher can only do as well or
    better."""
    game = cardsim.load_game(name)
    for state in endgames(game, ENDGAME[name], 4):
        for root in {state.current_player(), (state.current_player() + 1) % game.num_players}:
            want = best_play_return(state, root)
            assert lookahead.value(state, 1, root=root) == pytest.approx(want), root
            assert lookahead.value(state, 1, root=root, model=True) >= want - 1e-9


@pytest.mark.parametrize("name", GAMES)
def test_an_exact_endgame_replaces_the_network_below_its_threshold(name):
    """One move ahead of a position with K + 1 cards left, ``exact=K`` solves every child
    exactly: the value is best play's, whatever the network (random weights) says."""
    game = cardsim.load_game(name)
    weights = random_weights(game, seed=4)
    for state in endgames(game, ENDGAME[name], 3, seed=50):
        k = exact.cards_left(state) - 1
        root = state.current_player()
        want = best_play_return(state, root)
        assert lookahead.value(state, 1, weights, exact=k) == pytest.approx(want)


def test_at_the_depth_limit_the_network_values_the_position(tmp_path):
    """Depth 0 is the network's value of the position itself, for the seat asked."""
    from cardsim.solvers.evaluation import world_value
    game = cardsim.load_game("scopa")
    weights = random_weights(game, seed=2)
    state = game.new_deal(seed=3)
    for root in (0, 1):
        assert lookahead.value(state, 0, weights, root=root) == pytest.approx(
            world_value(weights, state, root)[root])


def pimc_net(path, worlds=6, depth=2, extra=""):
    return parse_agent(f"pimc:leaf=net,worlds={worlds},depth={depth},weights={path}{extra}")


@pytest.mark.parametrize("name", GAMES)
def test_pimc_over_the_network_plays_legal_deals_under_every_preset(name, tmp_path):
    """``pimc:leaf=net`` (with the opponent model, and an exact endgame where the exact solver
    covers the rules) plays whole deals of every preset; every move it made is legal where it
    was made."""
    for preset, game, path in presets(name, tmp_path):
        start = game.new_deal(seed=2)
        state = start.clone()
        endgame = ",exact=4" if game.spec.exact is not None else ""   # Bura of 3 or 4
        agents = [pimc_net(path, 2, 2, endgame + ",model=1")] + ["heuristic"] * (
            game.num_players - 1)
        play(state, agents, seed=5)
        assert_legal_line(start, state.actions, preset)


@pytest.mark.parametrize("name", GAMES)
def test_pimc_over_the_network_is_deterministic(name, tmp_path):
    """Under a worlds budget the same seed gives the same move and the same totals."""
    game = cardsim.load_game(name)
    agent = pimc_net(saved(random_weights(game), tmp_path), 4, 2)
    state = game.new_deal(seed=7)
    runs = []
    for _ in range(2):
        ws = workspace(game.spec, [agent])
        runs.append((choose(agent, state, seed=4, ws=ws), ws.sums.tolist()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name,opts", [("scopa", {}), ("bura", {}),
                                       ("bura", {"facedown_discards": "choice"}),
                                       ("mushka", {}), ("minchiate", {})])
def test_pimc_over_the_network_ignores_the_hidden_truth(name, opts, tmp_path):
    """No leak: two true states the player to move cannot tell apart give the same move and
    the same action totals (worlds are sampled from what the player has seen)."""
    game = cardsim.load_game(name, **opts)
    agent = pimc_net(saved(random_weights(game, seed=2), tmp_path), 5, 2)
    compared = 0
    for state, other in indistinguishable(game, 3, most=8):
        seen = []
        for truth in (state, other):
            ws = workspace(game.spec, [agent])
            seen.append((choose(agent, truth, seed=9, ws=ws), ws.sums.tolist()))
        assert seen[0] == seen[1]
        compared += 1
    assert compared >= 4


@pytest.mark.parametrize("spec,text", [
    ("pimc:depth=3", "depth is for leaf=net"),
    ("pimc:exact=6", "exact is for leaf=net"),
    ("pimc:model=1", "model is for leaf=net"),
    ("pimc:weights=w.npz", "weights is for leaf=net"),
    ("pimc:leaf=net,depth=0", "from 1 to 12"),
    ("pimc:leaf=net,depth=13", "from 1 to 12"),
    ("pimc:leaf=net,model=2", "0 or 1"),
    ("pimc:leaf=tree", "exact or net"),
    ("pimc:leaf=net,weights=", "expected weights=value"),
])
def test_bad_pimc_net_specs_are_one_line(spec, text):
    with pytest.raises(AgentError, match=text) as e:
        parse_agent(spec)
    assert "\n" not in str(e.value)


def test_pimc_over_the_network_needs_weights_and_says_so_in_one_line():
    """Rules without shipped weights and no ``weights=PATH``: refused in one line (a shallow
    search has nothing to value its leaves by)."""
    game = cardsim.load_game("scopa", target_score=21, redeal_kings_on_table="off")
    with pytest.raises(AgentError, match="no learned evaluation for these rules") as e:
        workspace(game.spec, [parse_agent("pimc:leaf=net")])
    assert "\n" not in str(e.value)


def test_exact_endgames_of_pimc_over_the_network_respect_an_endgame_solver():
    """Minchiate's exact solver covers the last 20 cards: ``exact`` above that is refused in
    one line, and PIMC over the network, which solves no whole deal, plays Minchiate."""
    game = cardsim.load_game("minchiate")
    with pytest.raises(AgentError, match="exact is at most 20"):
        workspace(game.spec, [parse_agent("pimc:leaf=net,exact=21")])
    workspace(game.spec, [parse_agent("pimc:leaf=net,exact=20")])


def test_pimc_over_the_network_plays_where_the_exact_solver_does_not(tmp_path):
    """Bura of three: no exact solver (``exact=K`` refused in one line), yet the shallow search
    plays: its sides are every seat for itself against the searcher."""
    game = cardsim.load_game("bura", num_players=3)
    path = saved(random_weights(game), tmp_path)
    with pytest.raises(AgentError, match="2-player Bura") as e:
        workspace(game.spec, [pimc_net(path, extra=",exact=4")])
    assert "\n" not in str(e.value)
    state = game.new_deal(seed=1)
    play(state, [pimc_net(path, 3, 4), "heuristic", "heuristic"], seed=2)
    assert state.is_terminal()



def test_a_world_the_clock_runs_out_in_is_dropped():
    """PIMC over the network under a time budget: a world searched past the deadline adds
    nothing to the actions' totals (every action keeps being valued in the same worlds); the
    search of a position past it stops with NaN. With no deadline (0) the same world adds a
    finite value to every action."""
    game = cardsim.load_game("minchiate")
    spec = game.spec
    state = game.new_deal(seed=2)
    net = random_weights(game).net(spec)
    solver = exact.workspace(spec, table_bits=12)
    legal = state.legal_actions()
    actions = np.zeros(spec.max_actions, dtype=np.int64)
    actions[:len(legal)] = legal
    n, depth, player = len(legal), 3, state.current_player()
    run = lookahead.action_values[spec, {"WITH_EXACT": False}]
    for deadline, added in ((0.0, True), (1e-9, False)):
        totals = np.full(n, 7.0)
        ws = lookahead.workspace(spec, depth)
        assert run(spec.params, state.vec, player, actions, n, depth, 0, False, net, ws,
                   solver, rng_from_seed(1), totals, spec.reward_scale, deadline) is added
        assert np.isfinite(totals).all() and (totals != 7.0).all() == added
        assert (totals == 7.0).all() != added
    search = lookahead.world_value[spec, {"WITH_EXACT": False}]
    for deadline in (0.0, 1e-9):
        ws = lookahead.workspace(spec, 6)
        ws.states[0][:] = state.vec
        v = search(spec.params, player, 6, 0, False, net, ws, solver, spec.reward_scale,
                   rng_from_seed(1), deadline)
        assert np.isnan(v) == (deadline > 0)


@pytest.mark.parametrize("name", GAMES)
def test_out_of_time_in_its_first_world_it_plays_a_world_one_move_deep(name, tmp_path):
    """Under a time budget too short for one world of the full depth (1 µs), PIMC over the
    network plays from the world it searched one move deep first: the move and the totals of
    ``worlds=1,depth=1`` from the same seed."""
    game = cardsim.load_game(name)
    path = saved(random_weights(game), tmp_path)
    state = game.new_deal(seed=7)
    runs = []
    for spec in ("seconds=0.000001,depth=12", "worlds=1,depth=1"):
        agent = parse_agent(f"pimc:leaf=net,{spec},weights={path}", game)
        ws = workspace(game.spec, [agent])
        runs.append((choose(agent, state, seed=4, ws=ws), ws.sums.tolist()))
    assert runs[0] == runs[1]
