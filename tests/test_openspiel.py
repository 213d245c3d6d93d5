"""cardsim's games inside OpenSpiel (:mod:`cardsim.interop.openspiel`): OpenSpiel's own
checks on every game, information states against ``resample_from_infostate``, OpenSpiel's
Python ISMCTS and MCTS bots playing whole deals, serialization, the tensors' layout."""
from __future__ import annotations

import doctest
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cardsim.interop.openspiel as cos
from cardsim.app.bench import OPENSPIEL_LOOPS, openspiel_figures, openspiel_rows
from cardsim.app.openspiel_baseline import load as load_baseline
from cardsim.protocol.options import describe
from cardsim.protocol.registry import definition, list_games

GAMES = {"scopa": {}, "bura": {"num_players": 3}, "mushka": {}, "minchiate": {}}
"""Each game with the parameters its tests load it with (Bura at 3 players: a non-default
option through OpenSpiel's parameters)."""


def load(name: str) -> pyspiel.Game:
    return pyspiel.load_game(f"cardsim_{name}", GAMES[name])


def deal(state, seed: int):
    """``state`` (the chance nodes) dealt the deal of ``seed``: its digits applied."""
    for digit in cos.SeedDraw(cos.DEFAULT_DEAL_SEEDS).digits_of(seed):
        assert state.is_chance_node()
        state.apply_action(digit)
    return state


def random_states(game: pyspiel.Game, seed: int):
    """The decision states of one random deal, in order (clones: each stays as it was)."""
    rnd = random.Random(seed)
    state = deal(game.new_initial_state(), rnd.randrange(cos.DEFAULT_DEAL_SEEDS))
    while not state.is_terminal():
        yield state.clone()
        state.apply_action(rnd.choice(state.legal_actions()))


def test_every_game_is_registered_with_its_options_as_parameters():
    names = set(pyspiel.registered_names())
    for name in list_games():
        assert f"cardsim_{name}" in names
        game = pyspiel.load_game(f"cardsim_{name}")
        params = game.get_type().parameter_specification
        assert set(params) == {o["name"] for o in describe(definition(name).rules_type)} | {
            "deal_seeds"}
        assert game.max_chance_outcomes() == cos.SEED_BASE


@pytest.mark.parametrize("seeds", [1, 2, 31, 32, 33, 1000, 1024, 1025, 40_000])
def test_the_seed_digits_draw_every_seed_equally_likely(seeds):
    """Walking every chance node of :class:`SeedDraw` reaches each seed once, by its digits,
    at chance 1 / ``seeds``; no node has more than 32 outcomes, none an impossible one."""
    draw = cos.SeedDraw(seeds)
    reached = {}
    stack = [(0, 0, 1.0)]
    while stack:
        depth, prefix, p = stack.pop()
        if depth == draw.nodes:
            reached[prefix] = p
            continue
        outcomes = draw.outcomes(depth, prefix)
        assert 0 < len(outcomes) <= cos.SEED_BASE
        assert [d for d, _ in outcomes] == list(range(len(outcomes)))
        assert abs(sum(q for _, q in outcomes) - 1.0) < 1e-12 and min(q for _, q in outcomes) > 0
        stack += [(depth + 1, prefix * cos.SEED_BASE + d, p * q) for d, q in outcomes]
    assert sorted(reached) == list(range(seeds))
    assert np.allclose(list(reached.values()), 1.0 / seeds, rtol=1e-12, atol=0)
    assert all(draw.digits_of(k) for k in (0, seeds - 1))
    for k in {0, seeds // 2, seeds - 1}:
        prefix = 0
        for d in draw.digits_of(k):
            prefix = prefix * cos.SEED_BASE + d
        assert prefix == k


def test_the_chance_nodes_deal_the_seed_they_spell():
    """Two chance nodes of at most 32 outcomes at the default 1,000 seeds; their digits of
    seed ``k`` deal ``new_deal(seed=k)``; a game of 20 seeds has one node."""
    game = pyspiel.load_game("cardsim_scopa")
    for k in (0, 31, 32, 999):
        state = game.new_initial_state()
        assert state.is_chance_node() and len(state.chance_outcomes()) == 32
        state.apply_action(k // 32)
        assert state.is_chance_node() and not state.is_terminal()
        assert len(state.legal_actions()) == (8 if k // 32 == 31 else 32)
        state.apply_action(k % 32)
        assert not state.is_chance_node()
        assert (state.vec == game.cardsim_game.new_deal(seed=k).vec).all()
        assert state.history()[:2] == [k // 32, k % 32]
    small = pyspiel.load_game("cardsim_scopa", {"deal_seeds": 20})
    state = small.new_initial_state()
    assert small.max_chance_outcomes() == 20 and len(state.chance_outcomes()) == 20
    state.apply_action(19)
    assert (state.vec == small.cardsim_game.new_deal(seed=19).vec).all()


def test_game_type_and_info():
    bura = pyspiel.load_game("cardsim_bura", {"num_players": 3})
    assert bura.num_players() == 3
    assert (bura.min_utility(), bura.max_utility()) == (-2.0, 4.0)
    kind = bura.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    mushka = pyspiel.load_game("cardsim_mushka", {"num_players": 5})
    assert mushka.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert mushka.num_players() == 5
    scopa = pyspiel.load_game("cardsim_scopa")
    assert scopa.num_distinct_actions() == scopa.cardsim_game.spec.max_actions
    assert scopa.max_game_length() == 36
    with pytest.raises(Exception, match="not allowed"):
        pyspiel.load_game("cardsim_scopa", {"target_score": 12})


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name):
    """OpenSpiel's own random-simulation checks, with serialization."""
    pyspiel.random_sim_test(load(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_information_states_survive_resampling(name):
    """A world resampled for a seat keeps that seat's information-state string, and his legal
    actions when he is to move; the returns of a finished deal lie within the bounds."""
    game = load(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    states = [s for seed in range(4) for s in random_states(game, seed)]
    for state in states[::3]:
        for seat in {state.current_player(), (state.current_player() + 1) % game.num_players()}:
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.observation_string(seat) == state.observation_string(seat)
            if seat == state.current_player():
                assert world.legal_actions() == state.legal_actions()
                assert world.current_player() == seat
    final = states[-1].clone()
    final.apply_action(final.legal_actions()[0])
    while not final.is_terminal():
        final.apply_action(final.legal_actions()[0])
    assert all(game.min_utility() <= r <= game.max_utility() for r in final.returns())


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_and_mcts_bots_play_a_whole_deal(name):
    game = load(name)
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng),
            mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rng)]
    state = deal(game.new_initial_state(), 7)
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.returns()) == game.num_players()


def test_clone_and_serialization_round_trip():
    game = load("bura")
    states = list(random_states(game, seed=2))
    state = states[len(states) // 2]
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for seat in range(game.num_players()):
        assert state2.information_state_string(seat) == state.information_state_string(seat)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.vec is not state.vec and str(state) == str(state2)


@pytest.mark.parametrize("name", GAMES)
def test_tensors_have_the_documented_layout(name):
    """The seat, the seat to move and the hand planes of the tensors (module docstring)."""
    game = load(name)
    state = next(s for k, s in enumerate(random_states(game, seed=2)) if k == 4)
    seat = state.current_player()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, seat)
    n = game.num_players()
    assert observer.dict["seat"].tolist() == [float(s == seat) for s in range(n)]
    assert observer.dict["to_move"].tolist() == [float(s == seat) for s in range(n)]
    deck = definition(name).deck.cards
    hand = {deck[i] for i in np.flatnonzero(observer.dict["hand"][0])}
    assert hand == set(state.cardsim_state().observation(seat)["hand"])
    assert len(state.observation_tensor(seat)) == len(observer.tensor)
    assert np.array_equal(state.information_state_tensor(seat), state.observation_tensor(seat))
    assert state.information_state_string(seat).startswith(state.observation_string(seat))


def test_openspiel_figures_are_positive():
    """Both loops over cardsim's game and over the baseline, and their ratios, as the bench
    prints them (speeds are the bench's to report, not asserted here)."""
    figures = openspiel_figures("scopa", 0.2)
    assert figures["deals_per_s"] > 0 and figures["moves_per_s"] > 0
    assert figures["deals_per_s_median"] > 0
    for loop in OPENSPIEL_LOOPS:
        assert figures[loop] > 0 and figures[f"{loop}_baseline"] > 0
        assert figures[f"{loop}_ratio"] > 0
    assert figures["chance_draw_us"] > 0
    printed = dict(openspiel_rows(figures))
    for loop in ("standard", "direct"):
        assert f"OpenSpiel {loop} loop over cardsim, median run (deals/s, 1 core)" in printed
        assert f"OpenSpiel {loop} loop over the Python reference, median (deals/s)" in printed
        assert printed[f"OpenSpiel {loop} loop: cardsim / Python reference"].endswith("x")
    assert all(len(figure) <= 72 for figure in printed)     # the bench's column


@pytest.mark.parametrize("name", GAMES)
def test_the_benchs_baseline_plays_the_same_deals(name):
    """The bench's baseline (the reference engine as an OpenSpiel game) deals the same cards
    from a seed, numbers the same moves and scores them alike."""
    ours, baseline = pyspiel.load_game(f"cardsim_{name}"), load_baseline(name)
    assert baseline.max_chance_outcomes() == ours.max_chance_outcomes()
    for seed in range(3):
        rnd = random.Random(seed)
        a, b = ours.new_initial_state(), baseline.new_initial_state()
        assert a.chance_outcomes() == b.chance_outcomes()
        for state in (a, b):
            deal(state, seed * 331)
        while not a.is_terminal():
            assert b.current_player() == a.current_player()
            assert b.legal_actions() == a.legal_actions()
            action = rnd.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal() and b.returns() == a.returns()


def test_docstring_examples():
    result = doctest.testmod(cos, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def ismcts_duel(name: str, deals: int, iterations: int, seed: int = 0) -> np.ndarray:
    """cardsim's ISMCTS against OpenSpiel's Python ISMCTS (random rollouts both) at equal
    iterations a move, on the same deals with the seats swapped (duplicate): cardsim's return
    per deal and seating."""
    from cardsim.game import State
    from cardsim.solvers.agents import choose, parse_agent
    game = load(name)
    ours = parse_agent(f"ismcts:iterations={iterations}")
    rng = np.random.RandomState(seed)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                              uct_c=2.0, max_simulations=iterations, random_state=rng)
    out = []
    for k in range(deals):
        for mine in range(2):
            state = deal(game.new_initial_state(), k)
            while not state.is_terminal():
                seat = state.current_player()
                if seat == mine:
                    view = State(state.context.game, state.vec.copy())
                    chosen = choose(ours, view, seed=(seed * 1000 + k) * 1000 + state.n_moves)
                    action = int(np.flatnonzero(state._legal_ids() == chosen)[0])   # its index
                else:
                    action = theirs.step(state)
                state.apply_action(action)
            out.append(state.returns()[mine])
    return np.array(out)


@pytest.mark.slow
def test_cardsim_ismcts_and_openspiels_agree_at_equal_iterations():
    """The same algorithm on both sides (ISMCTS, random rollouts, 50 iterations a move): over
    200 duplicate Bura deals cardsim's return against OpenSpiel's is within ±0.25 stakes of
    0 (a large difference means a bug on one side); the figure is in README, "OpenSpiel"."""
    from cardsim.stats import mean_interval
    returns = ismcts_duel("bura", 200, 50)
    mean, low, high = mean_interval(returns)
    print(f"cardsim ISMCTS - OpenSpiel ISMCTS: {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
    assert abs(mean) < 0.25


def test_cardsim_ismcts_plays_openspiel_ismcts_on_the_same_deals():
    """A few duplicate deals of the duel run and give each seating a return in the game's
    bounds (the measured figure comes from the slow test)."""
    returns = ismcts_duel("bura", 2, 8)
    assert len(returns) == 4 and np.all(np.abs(returns) <= 2)
