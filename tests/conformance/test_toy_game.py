"""A fifth game from its package and one registry line: the conformance suite on a toy game.

``tests/toygame/highcard`` is a whole game package outside cardsim (rules, deck and layout,
kernels, worlds, heuristic, notation, reference engine, conformance adapter); the fixture
below registers it for this module's tests only (:func:`cardsim.protocol.registry.register`, the one
line, then :func:`~cardsim.protocol.registry.unregister`), and every test of the conformance suite
(``test_every_game.py``, ``test_layout.py``) runs on it under each of its adapter's option
sets.
"""
from __future__ import annotations

import random

import pytest

from cardsim.protocol.registry import list_games, register, unregister
from tests.conformance import test_every_game as suite
from tests.conformance import test_layout
from tests.helpers import load_game
from tests.toygame.highcard import conformance
from tests.toygame.highcard.reference import ReferenceHighCard

NAME, PACKAGE = "highcard", "tests.toygame.highcard"

for _module in (suite, test_layout):
    globals().update({k: v for k, v in vars(_module).items() if k.startswith("test_")})


@pytest.fixture(autouse=True, scope="module")
def registered():
    register(NAME, PACKAGE)
    yield
    unregister(NAME)


def pytest_generate_tests(metafunc):
    suite.parametrize_games(metafunc, {NAME: conformance.OPTIONS})


def test_registered_once_under_its_name():
    assert NAME in list_games()
    register(NAME, PACKAGE)                     # again, the same package: nothing changes
    assert list_games().count(NAME) == 1
    with pytest.raises(ValueError, match="already registered"):
        register(NAME, "tests.toygame.another")


def test_its_compiled_code_is_cached_by_its_own_sources():
    """A game from a package outside cardsim is a compile group of its folder: its kernels are
    kept in its own cache folder, whose hash covers its layout (compiled in as constants), so an
    edit of its layout cannot leave stale kernels."""
    from cardsim.compiled.cache import ROOT, _hashed, group_of
    from cardsim.game import definition
    kernels = definition(NAME).kernels
    assert group_of(kernels.apply_action.py_func) == NAME
    hashed = {f.name for f in _hashed(ROOT, NAME)}
    assert {"kernels.py", "layout.py", "jit.py"} <= hashed
    assert "notation.py" not in hashed


@pytest.mark.parametrize("opts", conformance.OPTIONS)
def test_kernels_agree_with_the_reference_engine(opts):
    """The same seeds and moves give the same positions and returns in the kernels and in the
    plain-Python reference engine, for deals and matches."""
    game = load_game(NAME, **opts)
    for seed in range(40):
        for start in ("deal", "match"):
            state = getattr(game, f"new_{start}")(seed=seed)
            ref = getattr(ReferenceHighCard, f"new_{start}")(game.rules, seed)
            rnd = random.Random(seed)
            while True:
                assert state.to_dict() == ref.to_dict()
                assert state.legal_actions() == ref.legal_actions()
                assert state.returns() == ref.returns()
                if state.is_terminal():
                    break
                a = rnd.choice(state.legal_actions())
                state.apply_action(a)
                ref.apply_action(a)


def test_simulate_and_the_heuristic():
    """What the suite does not call: ``cardsim simulate``'s random deals and tables, and the
    heuristic kernel, which beats random play from either seat."""
    import numpy as np

    from cardsim.compiled.rng import rng_from_seed
    from cardsim.simulate import SimulationConfig, simulate

    result = simulate(SimulationConfig(game=NAME, deals=2000, seed=1, keep_rows=True))
    rows = result.rows
    assert (rows["tricks0"] + rows["tricks1"] == 6).all() and (rows["moves"] == 12).all()
    assert "dealer advantage (tricks)" in result.tables["tricks"].index
    game = load_game(NAME)
    spec, rng, actions = game.spec, rng_from_seed(5), np.empty(3, dtype=np.int64)
    total = 0.0
    for seed in range(400):
        state, rnd = game.new_deal(seed=seed), random.Random(seed)
        clever = seed % 2
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == clever:
                actions[:len(legal)] = legal
                a = legal[spec.heuristic(state.vec, spec.params, actions, len(legal), rng)]
            else:
                a = rnd.choice(legal)
            state.apply_action(a)
        total += state.returns()[clever]
    assert total / 400 > 0.3
