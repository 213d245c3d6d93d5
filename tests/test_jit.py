"""cardsim.compiled.jit and the registry: code written once, compiled per game, with only the branches a
copy runs; one record per game; clear errors for unknown games and missing capabilities."""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from numba.core.errors import TypingError

import cardsim
from cardsim.compiled.jit import EXACT_HOOKS, G, Generic, generic
from cardsim.errors import AgentError, UnknownGameError, UnsupportedError
from cardsim.protocol.registry import GAMES, definition, list_games
from cardsim.protocol.spec import ExactHooks, GameDefinition, Kernels
from cardsim.solvers import exact
from cardsim.solvers.agents import parse_agent, play, switches


@generic
def moves(state, params, out):
    return G.legal_actions(state, params, out)


WITH_BOUNDS = False


@generic(switches=("WITH_BOUNDS",))
def low_bound(state, params):
    if WITH_BOUNDS:
        lo, hi = G.exact_bounds(state, params)
        return lo
    return np.int64(-1)


@generic
def calls_low_bound(state, params):
    return low_bound(state, params)


@generic
def ping(n):
    return pong(n)


@generic
def pong(n):
    return ping(n)


@pytest.mark.parametrize("name", list_games())
def test_each_game_compiles_its_own_copy(name):
    game = cardsim.load_game(name)
    state = game.new_deal(seed=3)
    out = np.zeros(game.spec.max_actions, dtype=np.int64)
    n = moves[game.spec](state.vec, game.spec.params, out)
    assert out[:n].tolist() == state.legal_actions()
    assert moves[game] is moves[game.spec] is moves[game.definition]
    assert moves[game].py_func.__qualname__ == f"moves__{name}"
    assert moves[game].py_func.__globals__["G"].legal_actions is game.spec.legal_actions


def test_copies_of_different_games_are_different_functions():
    copies = {moves[cardsim.load_game(name)] for name in list_games()}
    assert len(copies) == len(list_games())


def test_a_switched_off_branch_is_never_typed():
    """A game without exact hooks (Mushka's record with its hooks taken away): typing
    ``G.exact_bounds`` fails for it, so the copy without the switch compiles only because
    numba pruned that branch before typing."""
    mushka = cardsim.load_game("mushka")
    bare = dataclasses.replace(definition("mushka"), name="mushka_without_exact", exact=None,
                               no_exact="no hooks (a test)")
    state = mushka.new_deal(seed=1)
    off = low_bound[bare, {"WITH_BOUNDS": False}]
    assert off(state.vec, mushka.spec.params) == -1
    with pytest.raises((TypingError, AttributeError), match="exact_bounds"):
        low_bound[bare, {"WITH_BOUNDS": True}](state.vec, mushka.spec.params)
    scopa = cardsim.load_game("scopa")
    deal = scopa.new_deal(seed=1)
    on = low_bound[scopa, {"WITH_BOUNDS": True}]
    assert on(deal.vec, scopa.spec.params) == exact.bounds(deal)[0]
    assert on is not low_bound[scopa, {"WITH_BOUNDS": False}]


def test_switches_follow_the_callees():
    assert calls_low_bound.all_switches() == ("WITH_BOUNDS",)
    scopa = cardsim.load_game("scopa")
    deal = scopa.new_deal(seed=2)
    on = calls_low_bound[scopa, {"WITH_BOUNDS": True}]
    assert on(deal.vec, scopa.spec.params) == exact.bounds(deal)[0]
    assert calls_low_bound[scopa](deal.vec, scopa.spec.params) == -1     # the module's value
    assert moves[scopa, {"WITH_BOUNDS": True}] is moves[scopa]          # not its switch


def test_agent_loops_switch_on_only_the_kinds_they_run():
    kinds = [parse_agent(a) for a in ("random", "heuristic", "ismcts:iterations=5", "pimc",
                                      "ismcts:iterations=5,exact=6", "oracle",
                                      "ismcts:value=match", "ismcts:value=points",
                                      "ismcts:leaf=net", "pimc:leaf=net",
                                      "pimc:leaf=net,exact=6", "ismcts:infer=0.3")]
    off = {"WITH_ISMCTS": False, "WITH_PIMC": False, "WITH_EXACT": False,
           "WITH_MATCH": False, "WITH_POINTS": False, "WITH_NET": False,
           "WITH_LOOKAHEAD": False, "WITH_INFER": False, "WITH_HEURISTIC": False}
    h = {"WITH_HEURISTIC": True}                     # the heuristic player among them
    assert switches(kinds[:1]) == off
    assert switches(kinds[:2]) == {**off, **h}
    assert switches(kinds[:3]) == {**off, **h, "WITH_ISMCTS": True}
    assert switches([kinds[2], kinds[0]]) == {**off, "WITH_ISMCTS": True}
    assert switches([kinds[3], kinds[0]]) == {**off, "WITH_PIMC": True}
    assert switches([kinds[5], kinds[1]]) == {**off, **h, "WITH_PIMC": True}
    assert switches([kinds[4], kinds[0]]) == {**off, "WITH_ISMCTS": True, "WITH_EXACT": True}
    assert switches([kinds[6], kinds[2]]) == {**off, "WITH_ISMCTS": True, "WITH_MATCH": True}
    assert switches([kinds[7], kinds[1]]) == {**off, **h, "WITH_ISMCTS": True,
                                              "WITH_POINTS": True}
    assert switches([kinds[8], kinds[1]]) == {**off, **h, "WITH_ISMCTS": True,
                                              "WITH_POINTS": True, "WITH_NET": True}
    assert switches([kinds[9], kinds[0]]) == {**off, "WITH_LOOKAHEAD": True, "WITH_NET": True}
    assert switches([kinds[10], kinds[1]]) == {**off, **h, "WITH_LOOKAHEAD": True,
                                               "WITH_NET": True, "WITH_EXACT": True}
    assert switches([kinds[11], kinds[0]]) == {**off, **h, "WITH_ISMCTS": True,
                                               "WITH_INFER": True}


@pytest.mark.parametrize("agent, uses", [
    ("random", False), ("heuristic", True), ("ismcts", False), ("ismcts:rollout=heuristic", True),
    ("ismcts:model=0.5", True), ("ismcts:prior=1", True), ("ismcts:infer=0.3", True),
    ("ismcts:leaf=net", False), ("pimc", False), ("pimc:leaf=net", False),
    ("pimc:leaf=net,model=1", True), ("oracle", False)])
def test_only_agents_that_play_or_consult_the_heuristic_compile_it(agent, uses):
    """The game loop's ``WITH_HEURISTIC``: on for the heuristic player and for a search that
    consults it (heuristic rollouts, an opponent model, a prior, inference); off otherwise,
    so that a plain ISMCTS or PIMC loop compiles no heuristic."""
    assert switches([parse_agent(agent)])["WITH_HEURISTIC"] is uses


def test_exact_endgames_and_pimc_have_separate_switches():
    """ISMCTS with ``exact`` has its own switch (the search's ``WITH_EXACT``), apart from the
    game loop's PIMC and oracle branch (``WITH_PIMC``): an exact-endgame ISMCTS loop does not
    compile PIMC, and a PIMC loop does not compile the search's endgames. PIMC over the
    network has its own (``WITH_LOOKAHEAD``): it compiles neither whole-deal PIMC nor ISMCTS."""
    from cardsim.solvers import agents, ismcts, lookahead, pimc
    assert agents.choose_action.all_switches() == ("WITH_EXACT", "WITH_HEURISTIC", "WITH_INFER",
                                                   "WITH_ISMCTS", "WITH_LOOKAHEAD", "WITH_MATCH",
                                                   "WITH_NET", "WITH_PIMC", "WITH_POINTS")
    assert "WITH_PIMC" in agents.choose_action.switches
    assert pimc.net_search.all_switches() == ("WITH_EXACT", "WITH_HEURISTIC", "WITH_LOOKAHEAD")
    assert lookahead.world_value.all_switches() == ("WITH_EXACT", "WITH_HEURISTIC")
    # called with no switches, a copy takes each from the module that declares it
    assert pimc.net_search.switch_defaults() == {"WITH_EXACT": False, "WITH_HEURISTIC": True,
                                                 "WITH_LOOKAHEAD": False}
    assert agents.choose_action.switch_defaults()["WITH_EXACT"] is True    # its own module's
    assert "WITH_EXACT" not in agents.choose_action.switches
    assert ismcts.iterate.all_switches() == ("WITH_EXACT", "WITH_HEURISTIC", "WITH_MATCH",
                                             "WITH_NET")
    assert ismcts.search.all_switches() == ("WITH_EXACT", "WITH_HEURISTIC", "WITH_INFER",
                                            "WITH_MATCH", "WITH_NET", "WITH_POINTS")


def test_generic_functions_are_not_called_directly():
    with pytest.raises(TypeError, match=r"moves\[spec\]"):
        moves(None, None, None)


def test_helpers_refuse_calls_from_python():
    """A helper has no Python wrapper: a call from Python is refused, not a jump into no code."""
    from cardsim.compiled.bits import popcount
    with pytest.raises(TypeError, match="compiled helper"):
        popcount(np.uint64(7))


def test_recursive_generic_functions_are_refused():
    with pytest.raises(RuntimeError, match="must not be recursive"):
        ping[cardsim.load_game("scopa")]


def test_exact_hook_names_match_the_record():
    hooks = [f.name for f in dataclasses.fields(ExactHooks) if f.type == "Callable"]
    assert list(EXACT_HOOKS) == hooks


@pytest.mark.parametrize("name", list_games())
def test_one_record_per_game(name):
    """Every registered game declares one record, in its own package, with all the kernels of
    the protocol, and names its conformance adapter; the registry line is its package."""
    record = definition(name)
    assert isinstance(record, GameDefinition) and record.name == name
    assert GAMES[name] == f"cardsim.games.{name}"
    assert record.conformance == f"cardsim.games.{name}.conformance"
    for f in dataclasses.fields(Kernels):
        assert getattr(record.kernels, f.name) is not None, f.name
    assert (record.exact is None) == bool(record.no_exact)
    assert definition(name) is record


def test_an_unknown_game_is_a_clear_error():
    for bad in ("skat", "", "Scopa", None):
        with pytest.raises(UnknownGameError, match="expected one of bura, minchiate, mushka, "
                                                   "scopa"):
            cardsim.load_game(bad)


def test_pimc_and_the_solver_refuse_rules_the_exact_solver_does_not_cover():
    """3-player Bura has no two sides (every game has exact hooks; these rules are refused)."""
    game = cardsim.load_game("bura", num_players=3)
    state = game.new_deal(seed=1)
    reason = game.spec.no_exact
    assert reason.startswith("the exact solver covers 2-player Bura")
    n = game.num_players
    with pytest.raises(AgentError, match="pimc:worlds=2: " + reason[:30]):
        play(state, ["pimc:worlds=2"] + ["heuristic"] * (n - 1))
    with pytest.raises(AgentError, match="ismcts:exact=6: " + reason[:30]):
        play(state, ["ismcts:exact=6"] + ["heuristic"] * (n - 1))
    for call in (exact.solve, exact.solve_actions, exact.principal_line, exact.bounds):
        with pytest.raises(UnsupportedError, match=reason[:30]):
            call(state)


def test_solve_on_the_command_line_refuses_in_one_line(tmp_path):
    import json
    game = cardsim.load_game("bura", num_players=3)
    position = tmp_path / "p.json"
    position.write_text(json.dumps(game.new_deal(seed=1).to_dict()))
    run = subprocess.run([sys.executable, "-m", "cardsim", "solve", "bura", str(position)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == f"cardsim: error: {game.spec.no_exact}"


def test_generic_is_the_decorated_object():
    assert isinstance(moves, Generic) and moves.__name__ == "moves"
