"""Every study shipped in ``experiments/specs`` is a valid spec (its game, rules, agents and
matchups load), so ``cardsim run experiments/specs/<name>.toml`` starts."""
from pathlib import Path

import pytest

from experiments.spec import load_spec

SPECS = sorted((Path(__file__).resolve().parents[2] / "experiments" / "specs").glob("*.toml"))


def test_specs_are_found():
    assert len(SPECS) >= 8


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_shipped_spec_loads(path):
    spec = load_spec(path)
    assert spec.game and spec.agents and spec.matchups
