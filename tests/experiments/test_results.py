"""The published studies in ``experiments/results/<spec>/`` (a report's ``report.md``, its plots
and tables, and the run's ``manifest.json``) are today's: each is a whole run of the shipped spec
of the same name, by agents that are still what its named levels stand for, and its report
refers only to files that are there. A change to a spec or to a level that a published study
used fails here until the study is run again."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from cardsim.experiments.calibration import is_calibration, load_calibration
from cardsim.experiments.spec import SpecError, load_spec
from cardsim.experiments.store import levels_of
from cardsim.experiments.variants import STUDY, parse_study
from cardsim.records.documents import read_document

ROOT = Path(__file__).resolve().parents[2] / "experiments"
PUBLISHED = sorted(p for p in (ROOT / "results").iterdir()
                   if p.is_dir() and (p / "manifest.json").exists())
"""The published experiments (the coverage study, ``results/coverage``, has no store: its
checks are in tests/experiments/test_coverage.py)."""
STUDIES = sorted(p for p in (ROOT / "results").iterdir()
                 if p.is_dir() and (p / STUDY).exists())
"""The published variant studies (:mod:`cardsim.experiments.variants`)."""


def test_studies_are_published():
    assert PUBLISHED


@pytest.mark.parametrize("folder", PUBLISHED, ids=lambda p: p.name)
def test_a_published_study_is_a_whole_run_of_its_shipped_spec(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    if is_calibration(manifest["spec"]):
        spec = load_calibration(ROOT / "specs" / f"{folder.name}.toml")
        assert manifest["spec"] == spec.to_dict()
        assert manifest["levels"] == levels_of(spec.to_dict())
        summary = pd.read_csv(folder / "tables" / "summary.csv")
        whole = summary[summary["stage"] == "all"].set_index("evaluator")
        assert list(whole.index) == spec.names
        for name, (_, _, positions, _) in zip(spec.names, spec.evaluators):
            # every deal played (a deal without two legal moves anywhere has no position)
            assert whole.loc[name, "deals"] >= 0.98 * spec.deals
            assert whole.loc[name, "positions"] >= 0.9 * spec.deals * positions
        return
    spec = load_spec(ROOT / "specs" / f"{folder.name}.toml")
    assert manifest["spec"] == spec.to_dict()
    assert manifest["levels"] == levels_of(spec.to_dict())
    matchups = pd.read_csv(folder / "tables" / "matchups.csv")
    rotations = spec.load().num_players if spec.duplicate else 1
    games = matchups.groupby("matchup")["games"].max().to_dict()
    if spec.sprt is None:
        assert games == {m: spec.deals * rotations for m in range(len(spec.matchups))}
        return
    # a sequential study is whole when every matchup's test decided or reached max_deals
    sprt = pd.read_csv(folder / "tables" / "sprt.csv").set_index("matchup")
    assert sorted(games) == sorted(sprt.index) == list(range(len(spec.matchups)))
    for m, n in games.items():
        assert n <= spec.max_deals * rotations
        assert sprt.loc[m, "verdict"] in ("H0", "H1") or n == spec.max_deals * rotations


@pytest.mark.parametrize("folder", STUDIES, ids=lambda p: p.name)
def test_a_published_variant_study_is_a_whole_run_of_its_shipped_spec(folder):
    """Its ``study.json`` is the shipped spec's, and every part of every variant measured all
    the deals (or matches) the spec plays."""
    held = json.loads((folder / STUDY).read_text())
    shipped = read_document(ROOT / "specs" / f"{folder.name}.toml", "TOML", SpecError)
    assert held == json.loads(json.dumps(shipped))
    study = parse_study(held)
    for part in study.parts:
        measures = pd.read_csv(folder / "tables" / f"measures_{part}.csv")
        assert set(measures["variant"]) == {v.name for v in study.variants}
        size = study.specs[study.baseline, part].deals
        assert (measures["deals"] == size).all(), part


@pytest.mark.parametrize("folder", PUBLISHED + STUDIES, ids=lambda p: p.name)
def test_a_published_report_refers_only_to_files_it_has(folder):
    text = (folder / "report.md").read_text()
    linked = re.findall(r"\]\(((?:plots|tables)/[^)]+)\)", text)
    linked += re.findall(r"`(tables/[^`]+\.csv)`", text)
    assert linked
    for name in linked:
        assert (folder / name).is_file(), name


def test_the_published_inference_table_is_its_csv():
    """``experiments/results/inference``: the Markdown table is the CSV's, row for row (both
    written by ``python -m cardsim.experiments.inference``; neither edited by hand)."""
    from cardsim.experiments.inference import markdown
    folder = ROOT / "results" / "inference"
    table = pd.read_csv(folder / "inference.csv")
    assert len(table) >= 32                        # 4 games x 2 kinds of players x 4 stages
    assert (folder / "inference.md").read_text() == markdown(table)
