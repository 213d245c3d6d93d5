"""Every study shipped in ``experiments/specs`` is a valid spec (its game, rules, agents and
matchups load; a calibration study's agents and evaluators; a variant study's variants and
parts), so ``cardsim run experiments/specs/<name>.toml`` starts."""

import pytest

from cardsim.experiments.calibration import is_calibration, load_calibration, load_study
from cardsim.experiments.spec import load_spec
from cardsim.experiments.variants import is_study
from cardsim.records.documents import read_document
from cardsim.solvers.inference import DEFAULT_EPSILON
from tests.helpers import shipped_specs

SPECS = shipped_specs()


def test_specs_are_found():
    assert len(SPECS) >= 8
    kinds = [is_calibration(read_document(p, "TOML")) for p in SPECS]
    assert sum(kinds) == 11    # per game calibration_<game>.toml and its heuristic play-on;
    # calibration_<game>_match.toml where the game's positions give a match state


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_shipped_spec_loads(path):
    if is_calibration(read_document(path, "TOML")):
        spec = load_calibration(path)
        assert path.stem.startswith(f"calibration_{spec.game}")
        default = DEFAULT_EPSILON if spec.load().definition.analysis_infers else None
        assert ("heuristic", 200, spec.positions, default) in spec.evaluators  # analyze's
        assert (spec.match is not None) == path.stem.endswith("_match")
        least = 2_000 if path.stem.endswith("_heuristic_play") else 3_000
        assert spec.deals * spec.positions >= least   # several thousand (strong play-on)
        return
    if is_study(read_document(path, "TOML")):
        study = load_study(path)
        assert len(study.variants) >= 2 and study.parts and study.baseline
        assert len(study.specs) == len(study.variants) * len(study.parts)
        return
    spec = load_spec(path)
    assert spec.game and spec.agents and spec.matchups
