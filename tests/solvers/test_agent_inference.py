"""An inferring search (``ismcts:infer=ε``, cardsim/solvers/ismcts.py): the game loop's record of the
deal, the root's pool of weighted worlds, and what the search may read.

The record the game loop keeps (cardsim/solvers/agents.py, ``note_deal``) is the deal's start and moves
that ``State``'s own record gives (also across a match's deals); without the deal's moves the
search is the same as without inference, move for move; two true deals the searcher cannot
tell apart give the same search; and the pool's weights give the true hidden cards more
probability than its uniform worlds, as inference does in analysis."""
from __future__ import annotations

import numpy as np
import pytest

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError
from cardsim.game import State
from cardsim.solvers import ismcts
from cardsim.solvers.agents import choose, parse_agent, play_out, prime_record, switches, workspace
from cardsim.solvers.inference import Worlds, known_record, log_prob_of_truth, world_replay
from tests.solvers.test_inference import positions

GAMES = ["scopa", "bura", "mushka", "minchiate"]
TWO_FAST = ["scopa", "bura", pytest.param("mushka", marks=pytest.mark.slow),
            pytest.param("minchiate", marks=pytest.mark.slow)]
"""Games whose check compiles a loop of its own: Mushka's and Minchiate's in the slow suite
(their inferring loop is compiled and checked by the no-leak test by default)."""
MATCHES = {"scopa": {}, "bura": {"match_format": "penalty_points"}, "mushka": {},
           "minchiate": {"deals": 3}}


def searched(state, agent, seed, ws=None):
    """``(action, root children as (key, visits, total), workspace)`` of one move of
    ``agent`` in ``state`` (the game loop primed with the state's record)."""
    ws = workspace(state.game.spec, [agent]) if ws is None else ws
    action = choose(agent, state, seed=seed, ws=ws)
    tree, stats = ws.search.tree, ws.search.stats
    children, child = [], tree[0, ismcts.CHILD]
    while child >= 0:
        children.append((int(tree[child, ismcts.KEY]), stats[child, ismcts.VISITS],
                         stats[child, ismcts.TOTAL]))
        child = tree[child, ismcts.SIBLING]
    return action, children, ws


@pytest.mark.parametrize("name", TWO_FAST)
def test_the_game_loop_keeps_the_deals_record_across_a_match(name):
    """After any number of moves of a match played by the compiled loop, the record an
    inferring search reads is the deal's start and its moves, as ``State``'s record gives
    them; a loop whose caller did not prime it knows no moves of the deal at hand."""
    game = cardsim.load_game(name, **MATCHES[name])
    agents = [parse_agent("heuristic", game)] * (game.num_players - 1) + [
        parse_agent("ismcts:iterations=4,infer=0.3", game)]
    spec = game.spec
    kinds = np.array([a.kind for a in agents], dtype=np.int64)
    params = np.stack([a.params for a in agents])
    run = play_out[spec, switches(agents)]
    word = game.definition.layout.DEAL_NUMBER
    later = 0
    for seed, moves in enumerate((5, 40, 90, 130, 200)):
        state = game.new_match(seed=seed)
        ws = workspace(spec, agents)
        prime_record(ws, state)
        line = np.zeros(moves, dtype=np.int64)
        done = int(run(spec.params, state.vec.copy(), kinds, params, rng_from_seed(seed), ws,
                       spec.reward_scale, moves, line))
        for a in line[:done]:
            state.apply_action(int(a))
        start, made = known_record(state)
        rec = ws.search.record
        assert rec[ismcts.REC_MOVES] == len(made)
        assert rec[ismcts.REC_DEAL] == state.vec[word]
        assert np.array_equal(ws.search.deal_moves[:len(made)], made)
        if not state.is_terminal() or len(made):
            assert np.array_equal(ws.search.deal_start, start)
        later += int(state.vec[word]) > 1
        run(spec.params, state.vec.copy(), kinds, params, rng_from_seed(seed), ws,
            spec.reward_scale, 1, line)               # not primed: the deal's moves unknown
        assert rec[ismcts.REC_MOVES] in (-1, 0, 1)    # 0 or 1: a new deal began
    assert later >= 2


@pytest.mark.parametrize("name", TWO_FAST)
def test_without_the_deals_moves_an_inferring_search_is_the_uniform_one(name):
    """At a deal's first decision, and in a position read without its record, ``infer``
    changes nothing: the same move and the same root statistics from the same seed."""
    game = cardsim.load_game(name)
    plain = parse_agent("ismcts:iterations=200,rollout=heuristic", game)
    inferring = parse_agent("ismcts:iterations=200,rollout=heuristic,infer=0.3", game)
    first = game.new_deal(seed=4)
    later = next(positions(name, 1, 4))
    bare = game.from_dict(later.to_dict())
    for state in (first, bare):
        a1, c1, _ = searched(state, plain, 3)
        a2, c2, ws = searched(state, inferring, 3)
        assert a1 == a2 and c1 == c2
        assert ws.search.record[ismcts.REC_MOVES] == 1     # the move just chosen alone


@pytest.mark.parametrize("name", GAMES)
def test_an_inferring_search_never_reads_a_hidden_card(name):
    """Two true deals the searcher cannot tell apart (a sampled world's own start and moves)
    give the same move and the same root statistics from the same seed."""
    game = cardsim.load_game(name)
    agent = parse_agent("ismcts:iterations=150,rollout=heuristic,infer=0.3,pool=40", game)
    compared = 0
    for state in positions(name, 2, 5):
        player = state.current_player()
        world = state.sample_world(player, seed=11)
        _, begin, made, _ = world_replay(state, player, world)
        other = State(game, begin.copy()).started()
        for a in made:
            other.apply_action(int(a))
        assert other.observation(player) == state.observation(player)
        a1, c1, _ = searched(state, agent, 8)
        a2, c2, _ = searched(other, agent, 8)
        assert a1 == a2 and c1 == c2
        compared += not np.array_equal(other.vec, state.vec)
        if compared >= 4:
            break
    assert compared >= 4


@pytest.mark.parametrize("name", ["bura", pytest.param("minchiate", marks=pytest.mark.slow)])
def test_the_searchs_pool_finds_the_hidden_cards(name):
    """In heuristic self-play (the model right) the root pool's weights give the true hidden
    cards more probability than its worlds unweighted, on average over the deal."""
    game = cardsim.load_game(name)
    agent = parse_agent("ismcts:iterations=2,infer=0.3,pool=200", game)
    ws = workspace(game.spec, [agent])
    gains = []
    for state in positions(name, 4, 4):
        searched(state, agent, 1, ws)
        if ws.search.record[ismcts.REC_MOVES] <= 0:
            continue
        pool = Worlds(ws.search.pool.copy(), ws.search.logw.copy())
        player = state.current_player()
        gains.append(log_prob_of_truth(state, player, pool.tempered(20))
                     - log_prob_of_truth(state, player, Worlds(pool.vecs, 0 * pool.logw)))
    assert len(gains) >= 10
    assert np.mean(gains) > 0.02


@pytest.mark.parametrize("spec,words", [
    ("ismcts:infer=1", ["infer=1.0", "from 0 (none) to 1 (exclusive)"]),
    ("ismcts:infer=-0.1", ["infer='-0.1'"]),
    ("ismcts:pool=10", ["pool is for infer"]),
    ("ismcts:infer=0.3,pool=0", ["pool='0'", "an integer >= 1"]),
    ("pimc:infer=0.3", ["unknown parameter 'infer'"]),
])
def test_bad_infer_options_are_refused(spec, words):
    with pytest.raises(AgentError) as err:
        parse_agent(spec)
    for w in words:
        assert w in str(err.value)
