"""Agents (cardsim/solvers/agents.py), ISMCTS (cardsim/solvers/ismcts.py), duplicate play and analysis.

ISMCTS must not leak hidden cards: its choice and whole tree are the same for two true states
that the searching player cannot tell apart (the conformance suite's permuted truths), and in
Bura an opponent's face-down throw appears in the tree only as "k cards face down".
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError, CardsimError
from cardsim.experiments.rows import duplicate_rows, seeded
from cardsim.solvers import ismcts
from cardsim.solvers.agents import choose, parse_agent, play, play_out, switches, workspace
from cardsim.solvers.analyze import AnalysisConfig, analyze
from cardsim.solvers.duplicate import margin, play_duplicate
from tests.conformance.test_every_game import _permuted_truth

GAMES = ("scopa", "bura")


# --- spec strings ---------------------------------------------------------------------------

def test_parse_agent_defaults_and_values():
    a = parse_agent("ismcts")
    assert a.is_search and a.params[ismcts.ITERATIONS] == 1000 and a.nodes == 1001
    assert a.params[ismcts.C] == pytest.approx(0.7)
    a = parse_agent("ismcts:iterations=50,c=1.5,final=value,worlds=8,rollout=heuristic")
    assert a.params[ismcts.ITERATIONS] == 50 and a.params[ismcts.C] == 1.5
    assert a.params[ismcts.FINAL] == ismcts.FINAL_VALUE
    assert a.params[ismcts.WORLDS] == 8 and a.params[ismcts.ROLLOUT] == ismcts.ROLLOUT_HEURISTIC
    a = parse_agent("ismcts:iterations=0,seconds=0.01")
    assert a.params[ismcts.SECONDS] == 0.01 and a.nodes == 1_000_000
    assert parse_agent("random").kind != parse_agent("heuristic").kind


@pytest.mark.parametrize("level", ["easy", "medium", "strong", "best", "fast"])
def test_named_levels_are_agents(level):
    """Each named level parses to its documented agent (LEVELS), keeps its name
    (what stores and reports show), and ``strong`` and ``best`` think for 0.1 s and 1 s,
    ``fast`` for 4 ms."""
    from cardsim.solvers.agent_spec import LEVELS
    agent, means = parse_agent(level), parse_agent(LEVELS[level])
    assert agent.name == level and agent.kind == means.kind and agent.nodes == means.nodes
    assert agent.params.tolist() == means.params.tolist()
    seconds = {"strong": 0.1, "best": 1.0, "fast": 0.004}.get(level)
    if seconds:
        assert agent.params[ismcts.SECONDS] == seconds and agent.params[ismcts.ITERATIONS] == 0


@pytest.mark.parametrize("name", ["scopa", "bura", "mushka", "minchiate"])
@pytest.mark.parametrize("level", ["easy", "medium", "strong", "best", "fast"])
def test_named_levels_are_each_games_own(name, level):
    """A level stands for the game's own agent where its package declares one
    (``GameDefinition.levels``), else for the default; a game object or its name give the
    same."""
    from cardsim.solvers.agent_spec import LEVELS
    game = cardsim.load_game(name)
    means = game.definition.levels.get(level, LEVELS[level])
    for g in (name, game):
        agent = parse_agent(level, g)
        assert agent.name == level
        assert agent.params.tolist() == parse_agent(means).params.tolist()
    if name in ("scopa", "mushka") and level in ("strong", "best"):
        assert parse_agent(level, name).params[ismcts.MODEL] == 1.0


def test_a_level_is_played_as_the_games_own_agent():
    """Duplicate play, analysis and ``play`` resolve a level for their game: Bura's ``best``
    (an iteration budget) plays the same deal, move for move, as its spelled-out agent."""
    bura = cardsim.load_game("bura")
    spelled = bura.definition.levels["best"]
    a = duplicate_rows(play_duplicate(bura, ["best", "heuristic"], 2, seed=3))
    b = duplicate_rows(play_duplicate(bura, [spelled, "heuristic"], 2, seed=3))
    same = [c for c in a.columns if not c.startswith(("think_", "seconds"))]
    assert a[same].equals(b[same])
    one, other = bura.new_deal(seed=5), bura.new_deal(seed=5)
    play(one, ["best", "heuristic"], seed=2)
    play(other, [spelled, "heuristic"], seed=2)
    assert one.to_dict() == other.to_dict()


@pytest.mark.parametrize("name", ["scopa", "bura", "mushka", "minchiate"])
def test_the_easy_level_plays_a_legal_deal_in_every_game(name):
    """``easy`` and ``medium`` play a whole deal in every game (``strong`` and ``best`` are
    ISMCTS under a time budget, 0.1 s and 1 s a move: too slow for a whole deal here)."""
    state = cardsim.load_game(name).new_deal(seed=4)
    play(state, ["easy"] + ["medium"] * (state.game.num_players - 1), seed=4)
    assert state.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_epsilon_greedy_rollouts_are_deterministic_and_between_their_ends(name):
    """``epsilon`` mixes uniform moves into heuristic rollouts: the same seed gives the same
    tree; epsilon=0 is the heuristic rollout, move for move, and 0.3 grows another tree."""
    state = cardsim.load_game(name).new_deal(seed=6)
    base = "ismcts:iterations=300,rollout=heuristic"
    mixed = _search(state, parse_agent(base + ",epsilon=0.3"), 2)
    assert mixed[:3] == _search(state, parse_agent(base + ",epsilon=0.3"), 2)[:3]
    assert _search(state, parse_agent(base + ",epsilon=0"), 2)[:3] == \
        _search(state, parse_agent(base), 2)[:3]
    heuristic = _search(state, parse_agent(base), 2)[2]
    assert mixed[2] != heuristic and mixed[0] in state.legal_actions()


def test_a_time_budget_given_alone_is_the_budget():
    """``ismcts:seconds=S`` thinks for S seconds: no default iteration cap stops it early (it
    stopped at 1,000 iterations, about 5 ms, before levels had time budgets); with both, whichever ends
    first."""
    alone = parse_agent("ismcts:seconds=1")
    assert alone.params[ismcts.ITERATIONS] == 0 and alone.params[ismcts.SECONDS] == 1.0
    both = parse_agent("ismcts:seconds=1,iterations=500")
    assert both.params[ismcts.ITERATIONS] == 500 and both.params[ismcts.SECONDS] == 1.0
    assert parse_agent("ismcts:iterations=500").params[ismcts.SECONDS] == 0.0


@pytest.mark.parametrize("spec,words", [
    ("", ["expected one of random, heuristic, ismcts"]),
    ("alphazero", ["unknown agent 'alphazero'", "random, heuristic, ismcts"]),
    ("random:x=1", ["takes no parameters"]),
    ("ismcts:iters=5", ["unknown parameter 'iters'", "iterations, seconds, c"]),
    ("ismcts:iterations=ten", ["iterations='ten'", "an integer >= 0"]),
    ("ismcts:c=-1", ["c='-1'", "a number >= 0"]),
    ("ismcts:final=best", ["final='best'", "visits, sample or value"]),
    ("ismcts:iterations=0", ["iterations > 0 or seconds > 0"]),
    ("ismcts:c", ["expected c=value"]),
    ("ismcts:nodes=1", ["nodes='1'"]),
    ("ismcts:epsilon=2", ["epsilon='2'", "a probability from 0 to 1"]),
    ("ismcts:exact=-1", ["exact='-1'", "an integer >= 0 (at most 97)"]),
    ("ismcts:exact=2.5", ["exact='2.5'"]),
    ("ismcts:model=1.5", ["model='1.5'", "a probability from 0 to 1"]),
    ("ismcts:prior=-1", ["prior='-1'", "a number >= 0"]),
])
def test_parse_agent_errors_name_the_problem(spec, words):
    with pytest.raises(AgentError) as err:
        parse_agent(spec)
    for w in words:
        assert w in str(err.value)
    assert isinstance(err.value, CardsimError)


# --- playing ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("agent", ["random", "heuristic", "ismcts:iterations=30",
                                   "ismcts:iterations=20,worlds=3,final=sample,rollout=heuristic",
                                   "ismcts:iterations=20,prior=2"])
def test_agents_play_legal_deals_to_the_end(name, agent):
    game = cardsim.load_game(name)
    for seed in range(3):
        state = game.new_deal(seed=seed)
        moves = play(state, [agent, "random"], seed=seed)
        assert state.is_terminal() and moves > 0
        again = game.new_deal(seed=seed)
        assert play(again, [agent, "random"], seed=seed) == moves
        assert again.to_dict() == state.to_dict()        # deterministic for a seed


@pytest.mark.parametrize("name", GAMES)
def test_every_agent_move_is_legal(name):
    """Move by move through the Python API: the chosen action is always legal."""
    game = cardsim.load_game(name, num_players=3) if name == "bura" else cardsim.load_game(name)
    agent = parse_agent("ismcts:iterations=40")
    ws = workspace(game.spec, [agent])
    state = game.new_match(seed=4)
    k = 0
    while not state.is_terminal() and k < 120:
        a = choose(agent, state, seed=k, ws=ws)
        assert a in state.legal_actions()
        state.apply_action(a)
        k += 1


def test_play_needs_one_agent_per_seat():
    with pytest.raises(AgentError, match="expected 2 agents"):
        play(cardsim.load_game("scopa").new_deal(seed=1), ["random"])


def _scopa_settebello_scopa():
    """Seat 1 to move with 7sw, Asw, 5sw; the table holds only the 7co: 7sw takes it, a scopa
    and the settebello."""
    game = cardsim.load_game("scopa")
    d = game.new_deal(seed=1).to_dict()
    d["hands"][1] = ["7sw", "Asw", "5sw"]
    d["table"] = ["7co"]
    d["stock"] = [c for c in d["stock"] if c not in ("7sw", "7co")] + ["Cco", "6sw"]
    d["piles"] = [["2co", "Kcu", "2sw"], []]
    d["last_capturer"] = 0
    return game.from_dict(d)


@pytest.mark.parametrize("final", ["visits", "value", "sample"])
def test_ismcts_takes_the_settebello_with_a_scopa(final):
    state = _scopa_settebello_scopa()
    agent = parse_agent(f"ismcts:iterations=2000,final={final}")
    for seed in range(3):
        assert state.action_to_string(choose(agent, state, seed=seed)) == "7sw>7co"


def _search(state, agent, seed):
    """Run one search; returns (action, the tree's root children as (key, visits, avail))."""
    spec = state.game.spec
    ws = workspace(spec, [agent]).search
    action, its = ismcts.search[spec](spec.params, state.vec, agent.params,
                                      rng_from_seed(seed), ws, spec.reward_scale)
    children = []
    child = ws.tree[0, ismcts.CHILD]
    while child >= 0:
        children.append((int(ws.tree[child, ismcts.KEY]), ws.stats[child, ismcts.VISITS],
                         int(ws.tree[child, ismcts.AVAIL]), ws.stats[child, ismcts.TOTAL]))
        child = ws.tree[child, ismcts.SIBLING]
    return action, its, children, ws


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_statistics_add_up(name):
    """Every iteration visits one root child: the root children's visits add up to the
    iterations, each child was available at least as often as it was visited, and the keys
    are the legal actions (the searching player sees his own moves whole)."""
    state = cardsim.load_game(name).new_deal(seed=6)
    action, its, children, _ = _search(state, parse_agent("ismcts:iterations=500"), 1)
    assert its == 500
    assert sum(v for _, v, _, _ in children) == 500
    assert all(avail >= v for _, v, avail, _ in children)
    assert sorted(k for k, *_ in children) == state.legal_actions()
    assert action in state.legal_actions()


def test_ismcts_time_budget_stops():
    state = cardsim.load_game("scopa").new_deal(seed=2)
    action, its, children, _ = _search(state, parse_agent("ismcts:iterations=0,seconds=0.05"), 3)
    assert its > 0 and action in state.legal_actions()


def test_ismcts_seconds_alone_thinks_for_its_time():
    """``ismcts:seconds=0.05`` searches until its 50 ms have passed (the clock is read every
    16 iterations), not until a default iteration count: the search takes at least 50 ms."""
    import time
    state = cardsim.load_game("scopa").new_deal(seed=2)
    _search(state, parse_agent("ismcts:iterations=10"), 3)          # compiled before timing
    start = time.perf_counter()
    _, its, _, _ = _search(state, parse_agent("ismcts:seconds=0.05"), 3)
    assert time.perf_counter() - start >= 0.05 and its > 0


def _positions(name, opts, every=5):
    game = cardsim.load_game(name, **opts)
    out = []
    for seed in range(3):
        state = game.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == 0 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(rnd.choice([a for a in legal if a >> 40 != 4] or legal))
            k += 1
    return game, out


@pytest.mark.parametrize("spec", ["ismcts:iterations=150", "ismcts:iterations=150,model=1",
                                  "ismcts:iterations=150,prior=1"])
@pytest.mark.parametrize("name,opts", [("scopa", {}), ("bura", {}),
                                       ("bura", {"facedown_discards": "choice"})])
def test_ismcts_ignores_the_hidden_truth(name, opts, spec):
    """No leak: for two true states that the player to move cannot tell apart, the search
    gives the same action and the same root statistics for the same seed (also with the
    opponent model and the prior, whose heuristic reads only the sampled world)."""
    game, positions = _positions(name, opts)
    rnd = random.Random(5)
    agent = parse_agent(spec)
    compared = 0
    for state in positions:
        player = state.current_player()
        other = _permuted_truth(game, state.to_dict(), player, rnd)
        if other.to_dict() == state.to_dict():
            continue
        assert other.observation(player) == state.observation(player)
        a1, _, c1, _ = _search(state, agent, 9)
        a2, _, c2, _ = _search(other, agent, 9)
        assert a1 == a2 and c1 == c2
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("model", [0, 1])
def test_ismcts_opponent_model_plays_the_heuristic_in_the_tree(model):
    """``model=1``: every opponent reply in the tree is the heuristic's move in one of the
    search's worlds (five fixed worlds, so the test can list them); with ``model=0`` the tree
    also tries replies the heuristic never makes."""
    state = cardsim.load_game("scopa").new_deal(seed=6)
    agent = parse_agent(f"ismcts:iterations=600,worlds=5,model={model}")
    _, _, children, ws = _search(state, agent, 2)
    heuristic = parse_agent("heuristic")
    others = []                      # (root move, opponent reply not the heuristic's)
    for key, *_ in children:
        replies = set()
        for w in range(5):
            world = state.game.from_dict(state.to_dict())
            world.vec[:] = ws.worlds[w]
            world.apply_action(key)
            replies |= {choose(heuristic, world, seed=s) for s in range(40)}
        node = ws.tree[0, ismcts.CHILD]
        while ws.tree[node, ismcts.KEY] != key:
            node = ws.tree[node, ismcts.SIBLING]
        child = ws.tree[node, ismcts.CHILD]
        while child >= 0:
            if int(ws.tree[child, ismcts.KEY]) not in replies:
                others.append((key, int(ws.tree[child, ismcts.KEY])))
            child = ws.tree[child, ismcts.SIBLING]
    assert (others == []) == (model == 1), others


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_prior_expands_the_heuristics_move_first(name):
    """``prior=w``: the first iteration expands the heuristic's move at the root (the searcher's
    own, read from what he sees), and the bias keeps that child ahead of an equal one; without
    the prior the first child is drawn uniformly, so over a few seeds it is not always the
    heuristic's."""
    state = cardsim.load_game(name).new_deal(seed=6)
    heuristic = parse_agent("heuristic")
    favoured = {choose(heuristic, state, seed=s) for s in range(40)}
    assert len(favoured) < len(state.legal_actions())
    firsts = {True: set(), False: set()}
    for seed in range(12):
        for prior in (True, False):
            agent = parse_agent("ismcts:iterations=1" + (",prior=1" if prior else ""))
            _, _, children, _ = _search(state, agent, seed)
            firsts[prior].add(children[0][0])
    assert firsts[True] <= favoured
    assert not firsts[False] <= favoured


def test_ismcts_sees_a_face_down_throw_only_as_its_size():
    """Bura, rules §5 / BU-RESP-6: in the searching player's tree, another player's face-down
    throw is keyed by the number of cards (and the turned trump card, public) only."""
    from cardsim.games.bura.layout import CARDS_MASK, KIND_SHIFT, THROW_DOWN
    state = cardsim.load_game("bura").new_deal(seed=3)
    observer = state.current_player()
    _, _, _, ws = _search(state, parse_agent("ismcts:iterations=3000"), 2)
    trump_bit = 1 << state.game.definition.deck.index(state.to_dict()["trump_card"])
    down = 0
    for node in range(1, ws.tree.shape[0]):
        key, player = int(ws.tree[node, ismcts.KEY]), int(ws.tree[node, ismcts.PLAYER])
        if key >> KIND_SHIFT == THROW_DOWN and player not in (-1, observer) and \
                ws.stats[node, ismcts.VISITS] > 0:
            cards = key & CARDS_MASK
            assert cards & ((1 << 36) - 1) & ~trump_bit == 0, hex(key)
            down += 1
    assert down > 0


# --- duplicate play and analysis ------------------------------------------------------------

def test_duplicate_deals_swap_seats_over_the_same_cards():
    game = cardsim.load_game("bura")
    table = duplicate_rows(play_duplicate(game, ["heuristic", "random"], deals=6, seed=2))
    assert len(table) == 12 and set(table["rotation"]) == {0, 1}
    assert (table["seat_0"] == table["rotation"]).all()      # agent 0 sits at seat 0, then 1
    assert (table["seat_1"] == 1 - table["rotation"]).all()
    assert np.allclose(table["return_0"] + table["return_1"], 0)   # zero-sum
    assert set(table["end"]) <= {"claim_won", "claim_lost", "bura", "moscow", "most_points",
                                 "void"}
    assert {"cat_points_0", "cat_points_1"} <= set(table.columns)
    first = table[table["rotation"] == 0].set_index("deal")
    second = table[table["rotation"] == 1].set_index("deal")
    assert (first["dealer"] == second["dealer"]).all()       # the same cards
    again = duplicate_rows(play_duplicate(game, ["heuristic", "random"], deals=6, seed=2))
    assert seeded(again).equals(seeded(table))


@pytest.mark.parametrize("name", GAMES)
def test_duplicate_rows_record_each_seats_decisions_and_thinking_time(name):
    """Rows of version 3 (:mod:`cardsim.experiments.rows`): ``decisions_<s>`` counts the moves
    seat s chose among two or more legal ones and ``options_<s>`` their legal moves (checked
    by replaying the deal's moves, drawn from the same seeds, on the state), ``think_<s>`` is
    the searching agent's thinking time (> 0) and NaN for the heuristic, which is not
    timed."""
    game = cardsim.load_game(name)
    agents = [parse_agent("ismcts:iterations=30"), parse_agent("heuristic")]
    table = duplicate_rows(play_duplicate(game, agents, deals=2, seed=3))
    spec = game.spec
    for _, row in table.iterrows():
        deal_seq, *agent_seqs = np.random.SeedSequence([3, int(row["deal"])]).spawn(3)
        state = game.new_deal(seed=deal_seq)
        order = [int(row["seat_0"]), int(row["seat_1"])]
        line = np.zeros(2000, dtype=np.int64)
        kinds = np.array([agents[k].kind for k in order], dtype=np.int64)
        params = np.stack([agents[k].params for k in order])
        moves = play_out[spec, switches(agents)](
            spec.params, state.clone().vec, kinds, params,
            agent_seqs[int(row["rotation"])].generate_state(4, dtype=np.uint64),
            workspace(spec, agents), spec.reward_scale, 0, line)
        assert moves == row["moves"]
        counted, options = [0, 0], [0, 0]
        for a in line[:moves]:
            legal = len(state.legal_actions())
            if legal > 1:
                counted[state.current_player()] += 1
                options[state.current_player()] += legal
            state.apply_action(int(a))
        assert [row["decisions_0"], row["decisions_1"]] == counted
        assert [row["options_0"], row["options_1"]] == options and sum(options) > 2 * sum(counted)
        for s in range(2):
            if order[s] == 0:
                assert row[f"think_{s}"] > 0
            else:
                assert np.isnan(row[f"think_{s}"])


def test_ismcts_beats_random_on_duplicate_scopa_deals():
    """A smoke test of strength (the figures are in the closing note): 30 duplicate deals."""
    game = cardsim.load_game("scopa")
    table = play_duplicate(game, ["ismcts:iterations=200", "random"], deals=30, seed=7)
    mean, lo, hi = margin(table)
    assert lo > 0, (mean, lo, hi)


def test_analyze_values_a_false_claim_exactly():
    """Bura at the first check point: a claim with an empty pile is false and loses double
    (BU-CLAIM-2) in every world, so its mean return is exactly -2 with a zero-width interval;
    every legal action has a row; the intervals hold their estimates."""
    game = cardsim.load_game("bura")
    state = game.new_deal(seed=5)
    table = analyze(state, AnalysisConfig(player=state.current_player(), worlds=60, seed=1))
    assert sorted(table["action"]) == sorted(state.action_to_string(a)
                                             for a in state.legal_actions())
    claim = table.set_index("action").loc["claim"]
    assert claim["mean_return"] == -2 and claim["return_low"] == claim["return_high"] == -2
    assert claim["win_rate"] == 0
    assert (table["return_low"] <= table["mean_return"]).all()
    assert (table["mean_return"] <= table["return_high"]).all()
    assert (table["win_low"] <= table["win_rate"]).all() and \
           (table["win_rate"] <= table["win_high"]).all()
    assert table["mean_return"].is_monotonic_decreasing


def test_analyze_finds_the_scopa():
    state = _scopa_settebello_scopa()
    table = analyze(state, AnalysisConfig(player=1, worlds=80, seed=2))
    assert table.iloc[0]["action"] == "7sw>7co"
    assert table.iloc[0]["return_low"] > table.iloc[1]["return_high"]


def test_analyze_refuses_the_wrong_player_and_finished_positions():
    state = _scopa_settebello_scopa()
    with pytest.raises(CardsimError, match="player 0 is not to move"):
        analyze(state, AnalysisConfig(player=0))
    with pytest.raises(CardsimError, match="worlds=1"):
        analyze(state, AnalysisConfig(player=1, worlds=1))
    with pytest.raises(AgentError):
        analyze(state, AnalysisConfig(player=1, agent="nobody"))
    done = cardsim.load_game("scopa").new_deal(seed=1)
    play(done, ["random", "random"])
    with pytest.raises(CardsimError, match="over"):
        analyze(done, AnalysisConfig(player=0))


@pytest.mark.parametrize("name", ["scopa", "bura", "mushka", "minchiate"])
def test_one_action_valued_alone_sees_the_full_analysis_first_world(name):
    """``evaluate_actions(..., actions=[a])`` values ``a`` alone (what a calibration study
    asks): in the first world exactly as the full analysis does (same world, same stream);
    an action that is not legal is refused in one line."""
    from cardsim.solvers.analyze import evaluate_actions
    state = cardsim.load_game(name).new_deal(seed=5)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    config = AnalysisConfig(player=state.current_player(), worlds=3, seed=9)
    full = evaluate_actions(state, config)
    for i, a in enumerate(full.legal):
        alone = evaluate_actions(state, config, actions=[int(a)])
        assert alone.legal.tolist() == [a] and alone.out[0, 0] == full.out[i, 0]
    with pytest.raises(CardsimError, match="expected legal actions"):
        evaluate_actions(state, config, actions=[10 ** 6])


# --- the heuristic player reads only what its player sees -----------------------------------

@pytest.mark.parametrize("name,opts", [("scopa", {}), ("scopa", {"num_players": 4}),
                                       ("bura", {}), ("bura", {"num_players": 3}),
                                       ("bura", {"facedown_discards": "choice"}),
                                       ("bura", {"molodka_stop": True, "moscow": "three_aces",
                                                 "small_moscow": "three_sixes_with_trump"})])
def test_heuristic_same_choice_in_every_sampled_world(name, opts):
    """Rules §5 of each game: the heuristic's choice depends only on what the player to move
    sees: on positions of random playouts (claims kept rare) it is the same on the true state
    and on worlds sampled for that player, with the same rng words."""
    game = cardsim.load_game(name, **opts)
    spec = game.spec
    checked = 0
    for deal in range(25):
        state = game.new_deal(seed=100 + deal)
        rnd = random.Random(deal)
        step = 0
        while not state.is_terminal():
            player = state.current_player()
            actions = np.array(state.legal_actions(), dtype=np.int64)
            words = rng_from_seed(300 + deal * 100 + step)
            expected = spec.heuristic(state.vec, spec.params, actions, len(actions),
                                      words.copy())
            for s in range(2):
                world = state.sample_world(player, seed=s + 7 * step)
                assert world.legal_actions() == actions.tolist()
                got = spec.heuristic(world.vec, spec.params, actions, len(actions),
                                     words.copy())
                assert got == expected, (deal, step, state.to_dict())
                checked += 1
            others = [a for a in actions.tolist() if a >> 40 != 4 or rnd.random() < 0.05]
            state.apply_action(rnd.choice(others or actions.tolist()) if deal % 2
                               else int(actions[expected]))
            step += 1
    assert checked > 300


@pytest.mark.parametrize("spec", [
    "ismcts:seconds=1", "ismcts:iterations=500,exact=6", "ismcts:seconds=1,value=match",
    "ismcts:iterations=900,leaf=net", "ismcts:iterations=900,value=points", "pimc:worlds=30",
    "pimc:seconds=1,leaf=net,depth=3", "pimc:worlds=9,leaf=net,exact=6", "oracle",
    "heuristic", "strong", "fast"])
def test_the_least_budget_runs_the_same_compiled_loop(spec):
    """A run's warm-up plays each agent with the least budget: the same switches (the same
    compiled loop: an exact-endgame or network agent warms its own), a budget that ends at
    once."""
    from cardsim.solvers.agent_spec import ITERATIONS, SECONDS, WORLDS, least_budget
    agent = parse_agent(spec, "scopa")
    quick = least_budget(agent)
    assert switches([quick]) == switches([agent])
    assert quick.params[SECONDS] == 0
    if agent.is_search:
        assert quick.params[ITERATIONS] == 2 and quick.nodes == 3
    elif agent.kind == parse_agent("pimc").kind:
        assert quick.params[WORLDS] == 1


def test_a_runs_warm_up_plays_every_loop_its_batches_play(monkeypatch):
    """``cardsim run`` compiles each agent loop before its workers start: the warm-up's games
    run exactly the loops (switches) of the spec's matchups — an exact-endgame ISMCTS warms
    the loop with exact endgames, not a plain one."""
    from pathlib import Path

    import cardsim.solvers.agents as agents_module
    from cardsim.experiments.runner import warm_up
    from cardsim.experiments.spec import load_spec
    spec = load_spec(Path(__file__).resolve().parents[2] / "experiments" / "specs" /
                     "mushka_paranoid_endgames.toml")
    played = []
    real = agents_module.play

    def recording(state, seated, seed=0, equity=None):
        seated = [a if not isinstance(a, str) else parse_agent(a, spec.game) for a in seated]
        played.append(tuple(sorted(switches(seated).items())))
        return real(state, seated, seed=seed, equity=equity)

    monkeypatch.setattr(agents_module, "play", recording)
    warm_up(spec)
    kinds = [parse_agent(a, spec.game) for a in spec.agents]
    wanted = {tuple(sorted(switches([kinds[k] for k in m]).items())) for m in spec.matchups}
    assert set(played) == wanted and any(dict(s)["WITH_EXACT"] for s in played)
