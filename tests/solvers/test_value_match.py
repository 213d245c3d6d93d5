"""ISMCTS's ``value``: what a simulation's end is worth in a match — the match's
end (``game``), the deal's points (``points``) or the chance of winning the match from the
score the deal leaves, read from a match-equity table (``match``); and the game's compiled
``match_cell`` against its match model's ``cell``."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError
from cardsim.experiments.equity import match_model
from cardsim.game import State
from cardsim.protocol.match import dense_equity
from cardsim.solvers import ismcts
from cardsim.solvers.agents import parse_agent, workspace

DATA = Path(__file__).resolve().parent.parent / "data"


def constant_table(model, p: float) -> pd.DataFrame:
    """An equity table that gives side a the chance ``p`` from every state."""
    table = pd.DataFrame(list(model.states), columns=list(model.columns))
    table["p_win"] = p
    return table


def search(state, agent: str, equity=None, seed: int = 3):
    """One search of ``agent`` from ``state``; its action and its root children's (key,
    visits, mean) sorted by key."""
    spec = state.game.spec
    a = parse_agent(agent, state.game)
    ws = workspace(spec, [a], equity).search
    run = ismcts.search[spec, {"WITH_MATCH": a.for_the_match, "WITH_POINTS": a.for_the_points}]
    action, _ = run(spec.params, state.vec.copy(), a.params, rng_from_seed(seed), ws,
                    spec.reward_scale)
    children = []
    child = ws.tree[0, ismcts.CHILD]
    while child >= 0:
        visits = ws.stats[child, ismcts.VISITS]
        children.append((int(ws.tree[child, ismcts.KEY]), visits,
                         ws.stats[child, ismcts.TOTAL] / visits))
        child = ws.tree[child, ismcts.SIBLING]
    return int(action), sorted(children)


def match_vector_states(game, matches: int, seed: int = 0):
    """Every state vector met while random players play ``matches`` whole matches."""
    out = []
    rnd = random.Random(seed)
    for i in range(matches):
        state = game.new_match(seed=seed + i)
        while not state.is_terminal():
            out.append(state.vec.copy())
            state.apply_action(rnd.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("options", [{}, {"num_players": 4}, {"target_score": 21}])
def test_sc_match_3_the_compiled_cell_is_the_models(options):
    """SC-MATCH-3, SC-DEAL-6: at every state of whole Scopa matches, the compiled
    ``match_cell`` for either side is the model's ``cell`` of the position's match state seen
    by that side (scores, the tie at the target, the dealing side)."""
    game = cardsim.load_game("scopa", **options)
    model = match_model(game)
    cell = game.definition.match_cell
    seen = set()
    for vec in match_vector_states(game, 6):
        d = State(game, vec).to_dict()
        for side in (0, 1):
            state = model.position(d, side)
            assert cell(vec, game.spec.params, side) == model.cell(state)
            seen.add(state)
    assert len(seen) > 20


def test_mi_resto_4_the_compiled_cell_is_the_models():
    """MI-RESTO-4: at every state of whole Minchiate matches of three deals, the compiled
    ``match_cell`` is the model's ``cell`` of the position's match state (the net resti of
    the deals before, the deals to go, the dealing team), for either team."""
    game = cardsim.load_game("minchiate", deals=3)
    model = match_model(game)
    cell = game.definition.match_cell
    nets = set()
    for vec in match_vector_states(game, 2)[::5]:
        d = State(game, vec).to_dict()
        for side in (0, 1):
            state = model.position(d, side)
            assert cell(vec, game.spec.params, side) == model.cell(state)
            nets.add(state[:2])
    assert len({left for _, left in nets}) == 3


@pytest.mark.parametrize("options", [
    {"match_format": "wins_to_n"}, {"match_format": "penalty_points"},
    {"match_format": "wins_to_n", "next_deal_first_leader": "left_of_dealer"}])
def test_bu_match_2_3_the_compiled_cell_is_the_models(options):
    """BU-MATCH-2/3, BU-END-6, BU-LEAD-2: at every state of whole Bura matches, the compiled
    ``match_cell`` for either player is the model's ``cell`` of the position's match state
    seen by him (the scores before the deal, past the target as their difference; the
    dealing side; the first leading side), and that state is one of the table's."""
    game = cardsim.load_game("bura", **options)
    model = match_model(game)
    cell = game.definition.match_cell
    states = set(model.states)
    seen = set()
    for vec in match_vector_states(game, 3):
        d = State(game, vec).to_dict()
        for side in (0, 1):
            state = model.position(d, side)
            assert state in states
            assert cell(vec, game.spec.params, side) == model.cell(state)
            seen.add(state)
    assert len(seen) > 15
    assert len({s[2:] for s in seen}) == len(model.configs)


def test_the_dense_table_holds_each_states_match_value():
    """A dense table holds 2 p_win + p_draw - 1 at each state's cell, side a's match value."""
    game = cardsim.load_game("minchiate", deals=2)
    model = match_model(game)
    table = constant_table(model, 0.25)
    table["p_draw"] = 0.5
    values = dense_equity(model, table)
    cells = [model.cell(s) for s in model.states]
    assert len(set(cells)) == len(cells)
    assert np.allclose(values[cells], 0.0)
    for name, options in (("scopa", {}), ("bura", {"match_format": "wins_to_n"}),
                          ("bura", {"match_format": "penalty_points"})):
        model = match_model(cardsim.load_game(name, **options))
        cells = [model.cell(s) for s in model.states]
        assert len(set(cells)) == len(cells) and max(cells) < model.cells
        values = dense_equity(model, constant_table(model, 0.8))
        assert np.allclose(values[cells], 0.6)


@pytest.mark.parametrize("name, options", [("scopa", {"target_score": 21}),
                                           ("bura", {"match_format": "wins_to_n"})])
def test_value_match_backs_up_the_tables_value_at_the_deals_end(name, options):
    """With a table worth the same from every state, every simulation of a search at 0-0 in
    a Scopa match to 21 or a Bura match to 11 wins (no deal ends either) ends where the deal
    does and backs up that value: each root child's mean is exactly the table's (a walk on to
    the match's end would back up +1 or -1)."""
    game = cardsim.load_game(name, **options)
    model = match_model(game)
    state = game.new_match(seed=5)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    _, children = search(state, "ismcts:iterations=200,value=match",
                         dense_equity(model, constant_table(model, 0.7)))
    assert len(children) > 1
    assert all(mean == pytest.approx(0.4) for _, _, mean in children)
    _, children = search(state, "ismcts:iterations=200")
    assert any(abs(mean) != pytest.approx(0.4) for _, _, mean in children)


def test_value_points_searches_the_position_as_a_lone_deal():
    """``value=points`` in a match position searches exactly as the default search of the
    same position as a lone deal: the same move and the same tree."""
    game = cardsim.load_game("scopa")
    d = json.loads((DATA / "scopa_match_7_10.json").read_text())
    match = game.from_dict(d)
    lone = game.from_dict({**d, "mode": "deal"})
    assert search(match, "ismcts:iterations=300,value=points") == search(
        lone, "ismcts:iterations=300")


def test_value_match_plays_for_the_match_at_7_10():
    """At 7-10 against a side one point from 11, the move of most points (Cco) loses the
    match more often than 7cu (analyze --match measures +0.045 [0.018, 0.072] for 7cu:
    tests/data/scopa_match_7_10.json). A search that plays for the deal's points chooses Cco
    in most of ten seeds; one that values the deal's end by a table whose only concern is the
    match (every state worth 1/2: what counts is whether a deal from 7-10 ends it) never
    does, or once at most."""
    game = cardsim.load_game("scopa")
    model = match_model(game)
    state = game.from_dict(json.loads((DATA / "scopa_match_7_10.json").read_text()))
    values = dense_equity(model, constant_table(model, 0.5))
    cco = next(a for a in state.legal_actions() if state.action_to_string(a) == "Cco")
    picks = {"points": [], "match": []}
    for seed in range(10):
        for value in picks:
            action, _ = search(state, f"ismcts:iterations=2000,rollout=heuristic,value={value}",
                               values, seed=seed)
            picks[value].append(action)
    assert picks["points"].count(cco) >= 5
    assert picks["match"].count(cco) <= 1


def test_value_match_is_refused_without_a_table_or_a_model():
    """An agent with ``value=match`` needs a table, and a game with a match model."""
    game = cardsim.load_game("scopa")
    with pytest.raises(AgentError, match="match-equity table"):
        workspace(game.spec, [parse_agent("ismcts:value=match")])
    mushka = cardsim.load_game("mushka")
    with pytest.raises(AgentError, match="no table of match states"):
        workspace(mushka.spec, [parse_agent("ismcts:value=match")], np.zeros(4))
    with pytest.raises(AgentError, match="game, points or match"):
        parse_agent("ismcts:value=deal")


def test_an_experiment_plays_value_match_agents_with_its_equity_table(tmp_path):
    """An experiment's ``equity`` names the table its ``value=match`` agents read; whole
    matches are played with it (each pair on the same cards), a table of other rules is
    refused in one line, and a game without a match model is refused in the spec."""
    from cardsim.experiments.equity import EquityConfig, EquityError, run_equity
    from cardsim.experiments.runner import RunConfig, run
    from cardsim.experiments.spec import SpecError, parse_spec
    run_equity(EquityConfig(game="scopa", deals=200, boot=10), tmp_path / "eq", progress=False)
    spec = {"game": "scopa", "unit": "match", "equity": str(tmp_path / "eq"),
            "agents": ["ismcts:iterations=30,value=match", "ismcts:iterations=30,value=points"],
            "matchups": [[0, 1]], "seed": 1, "batch_size": 1, "size": {"deals": 2}}
    rows = run(parse_spec(spec), RunConfig(out=str(tmp_path / "run"), progress=False)).rows()
    assert len(rows) == 4 and set(rows["return_0"]) <= {-1.0, 1.0}
    assert parse_spec(spec).to_dict()["equity"] == str(tmp_path / "eq")
    assert "equity" not in parse_spec({**spec, "equity": ""}).to_dict()
    empty = parse_spec({**spec, "equity": str(tmp_path / "none")})
    with pytest.raises(EquityError, match="no equity table in .*none: compute it"):
        run(empty, RunConfig(out=str(tmp_path / "run_none"), progress=False))
    other = parse_spec({**spec, "rules": {"target_score": 21}})
    with pytest.raises(EquityError, match="other rules"):
        run(other, RunConfig(out=str(tmp_path / "run21"), progress=False))
    with pytest.raises(SpecError, match="no table of match states"):
        parse_spec({**spec, "game": "mushka", "rules": {"max_deals": 5}, "matchups": "round_robin"})
    with pytest.raises(SpecError, match="a single deal is the match"):
        parse_spec({**spec, "game": "bura", "rules": {}})
