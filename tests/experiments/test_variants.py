"""Variant studies (:mod:`cardsim.experiments.variants`): a grid or a list of rules option sets,
each (variant, part) an ordinary stored run with the same seeds; bad tables refused in one line.
"""
from __future__ import annotations

import copy
import json

import pytest

from cardsim.app.cli import main
from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig
from cardsim.experiments.spec import SpecError
from cardsim.experiments.store import Store
from cardsim.experiments.variants import (
    STUDY,
    is_study,
    parse_study,
    run_study,
    study_differences,
    study_measures,
)

STUDY_DICT = {
    "kind": "variants", "game": "scopa", "seed": 3, "batch_size": 4,
    "question": "Does the target change the deal?",
    "variants": {"baseline": "target_score=11", "grid": {"target_score": [11, 21]}},
    "parts": [{"name": "play", "agents": ["heuristic", "random"], "matchups": [[0, 0], [0, 1]],
               "size": {"deals": 8}}],
}


def test_a_grid_makes_every_combination_named_by_its_options():
    data = copy.deepcopy(STUDY_DICT)
    data["variants"]["grid"]["primiera_missing_suit"] = ["zero", "forfeit"]
    data["variants"]["baseline"] = "target_score=11,primiera_missing_suit=zero"
    study = parse_study(data)
    assert is_study(data)
    assert [v.name for v in study.variants] == [
        "target_score=11,primiera_missing_suit=zero",
        "target_score=11,primiera_missing_suit=forfeit",
        "target_score=21,primiera_missing_suit=zero",
        "target_score=21,primiera_missing_suit=forfeit"]
    spec = study.specs["target_score=21,primiera_missing_suit=forfeit", "play"]
    assert dict(spec.rules) == {"target_score": 21, "primiera_missing_suit": "forfeit"}
    assert spec.seed == 3 and spec.batch_size == 4 and spec.deals == 8
    assert study.folder("target_score=21,primiera_missing_suit=zero") == \
        "02-target_score=21,primiera_missing_suit=zero"


def test_a_list_names_its_variants_and_the_baseline_defaults_to_the_first():
    data = copy.deepcopy(STUDY_DICT)
    data["variants"] = {"list": [{"name": "short", "target_score": 11},
                                 {"name": "long", "target_score": 21}]}
    study = parse_study(data)
    assert [v.name for v in study.variants] == ["short", "long"] and study.baseline == "short"


@pytest.mark.parametrize("change, words", [
    (lambda d: d["variants"]["grid"].update(target_scor=[1]), "unknown scopa option"),
    (lambda d: d["variants"]["grid"].update(target_score=[11, "eleven"]), "not allowed"),
    (lambda d: d["variants"].update(grid={}), "variants.grid={}"),
    (lambda d: d["variants"]["grid"].update(target_score=[]), "a non-empty list"),
    (lambda d: d["variants"].update(grid={f"o{k}": list(range(1000)) for k in range(4)}),
     "1,000,000,000,000 combinations, at most 64"),
    (lambda d: d["variants"].update(grid={"target_score": [11, 11]}), "the same rules"),
    (lambda d: d["variants"].update(baseline="nope"), "variants.baseline"),
    (lambda d: d["variants"].update(list=[]), "exactly one of grid"),
    (lambda d: d.update(variants={"list": []}), "variants.list=[]"),
    (lambda d: d.update(variants={"list": [{"name": "a"}, {"name": "a", "target_score": 21}]}),
     "two variants are named 'a'"),
    (lambda d: d.update(parts=[]), "parts=[]"),
    (lambda d: d["parts"][0].update(agnets=[]), "unknown key parts[0].agnets"),
    (lambda d: d["parts"][0].update(name="a/b"), "parts[0].name"),
    (lambda d: d["parts"][0].update(size={"deals": 0}), "parts[0] (play), variant"),
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d.pop("variants"), "missing key 'variants'"),
    (lambda d: d["parts"][0].update(agents=["fast", "random"]),
     "variant target_score=21: agent 'fast' values positions by the learned evaluation, which "
     "scopa has not for these rules"),
])
def test_bad_variant_tables_are_one_line(change, words):
    data = copy.deepcopy(STUDY_DICT)
    change(data)
    with pytest.raises(SpecError) as e:
        parse_study(data)
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_every_variant_is_a_stored_run_on_the_same_deals(tmp_path):
    study = parse_study(STUDY_DICT)
    out = tmp_path / "study"
    stores = run_study(study, RunConfig(out=str(out), progress=False))
    assert (out / STUDY).is_file()
    short, long = (seeded(Store(stores[v, "play"].path).rows()) for v in
                   ("target_score=11", "target_score=21"))
    # the same seeds deal the same cards: a deal's seed column is the same in both variants
    assert short["seed"].equals(long["seed"]) and len(short) == 2 * 8 * 2
    again = run_study(study, RunConfig(out=str(out), progress=False))     # resumes: nothing new
    assert seeded(Store(again["target_score=21", "play"].path).rows()).equals(long)
    other = copy.deepcopy(STUDY_DICT)
    other["seed"] = 4
    with pytest.raises(SpecError, match="holds another variant study"):
        run_study(parse_study(other), RunConfig(out=str(out), progress=False))


def test_a_study_compares_every_variant_with_the_baseline(tmp_path):
    study = parse_study(STUDY_DICT)
    out = tmp_path / "study"
    run_study(study, RunConfig(out=str(out), progress=False))
    table = study_measures(study, out, boot=100)
    assert set(table["variant"]) == {"target_score=11", "target_score=21"}
    assert set(table["label"]) == {"heuristic", "heuristic vs random"}   # itself; a pair
    diffs = study_differences(study, out, boot=100)
    assert set(diffs["variant"]) == {"target_score=21"} and diffs["paired"].all()
    # a deal plays alike under either target: every deal measure is the same, none differs
    same = diffs[diffs["measure"].isin(["moves", "draws", "seat_0", "share_cards"])]
    assert len(same) and (same["diff"] == 0).all() and not diffs["significant"].any()


def test_cardsim_variants_runs_a_quick_study_and_prints_its_differences(tmp_path, capsys):
    """``cardsim variants`` on a grid: deals and whole matches of A against itself and against
    B per variant; its json carries a table per variant; ``cardsim run FOLDER`` resumes it."""
    out = tmp_path / "study"
    argv = ["variants", "scopa", "--vary", "target_score=11,21", "--deals", "6",
            "--matches", "3", "--out", str(out), "--quiet", "--format", "json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["answer"][0].startswith("scopa: 2 variants of the rules, each playing deals, "
                                           "matches")
    table = printed["tables"]["differences_1"]
    assert {r["heading"] for r in table} == {"deals · heuristic", "deals · heuristic vs random",
                                             "matches · heuristic",
                                             "matches · heuristic vs random"}
    deals = [r for r in table if r["heading"].startswith("deals") and r["measure"] == "moves"]
    assert deals and all(r["diff"] == 0 for r in deals)     # a target changes no deal
    measured = {r["heading"]: set() for r in table}
    for r in table:
        measured[r["heading"]].add(r["measure"])
    trajectory = {"deals", "leads", "comebacks", "decided"}
    assert all(trajectory <= m for h, m in measured.items() if h.startswith("matches"))
    assert not any(trajectory & m for h, m in measured.items() if h.startswith("deals"))
    assert all("legal" in m for m in measured.values())
    longer = [r for r in table if r["heading"].startswith("matches") and r["measure"] == "deals"]
    assert all(r["value"] > r["baseline"] >= 1 for r in longer)   # a target of 21 takes longer
    assert main(["run", str(out), "--quiet", "--format", "csv"]) == 0
    assert "# differences_1" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["--vary", "target_score"], "expected OPTION=V1,V2"),
    (["--vary", "target_score=11", "--vary", "target_score=21"], "given twice"),
    (["--vary", "target_score=11"], "a study compares two or more"),
    (["--vary", "target_scor=11,21"], "unknown scopa option 'target_scor'"),
    (["--vary", "target_score=11,x"], "not allowed"),
    (["--vary", "target_score=11,21", "--agents", "heuristic"], "expected two agents"),
    (["--vary", "target_score=11,21", "--agents", "heuristic,deep"], "unknown agent"),
    (["--vary", "target_score=11,21", "--deals", "1"], "at least 2"),
])
def test_cardsim_variants_refuses_bad_input_in_one_line(tmp_path, capsys, argv, words):
    assert main(["variants", "scopa", *argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error: ") and len(err.splitlines()) == 1 and words in err, err


def test_a_study_s_report_answers_first_and_defines_its_measures(tmp_path):
    from cardsim.reports import build_report
    study = parse_study(STUDY_DICT)
    out = tmp_path / "study"
    run_study(study, RunConfig(out=str(out), progress=False))
    files = build_report(out, fmt="md")
    text = files.markdown.read_text()
    assert text.index("The answer") < text.index("The study") < text.index("The measures")
    assert "No measure differs from the baseline's" in text
    assert "the share of the variance of seat 0's return explained by" in text
    assert {p.name for p in files.tables} >= {"differences.csv", "definitions.csv",
                                              "measures_play.csv", "variants.csv"}
    assert files.plots


def test_a_study_stopped_midway_resumes_to_the_uninterrupted_rows(tmp_path, monkeypatch):
    """Interrupted while the second variant writes its second batch, the study run again gives
    every (variant, part) the rows of a study never stopped."""
    study = parse_study(STUDY_DICT)
    whole = run_study(study, RunConfig(out=str(tmp_path / "whole"), progress=False))
    write, seen = Store.write_batch, []

    def stop(self, matchup, batch, rows):
        seen.append(1)
        if len(seen) == 6:             # 4 batches a variant: the second's second
            raise KeyboardInterrupt
        return write(self, matchup, batch, rows)

    monkeypatch.setattr(Store, "write_batch", stop)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, RunConfig(out=str(tmp_path / "cut"), progress=False))
    monkeypatch.setattr(Store, "write_batch", write)
    resumed = run_study(study, RunConfig(out=str(tmp_path / "cut"), progress=False))
    for key, store in whole.items():
        assert seeded(Store(resumed[key].path).rows()).equals(seeded(Store(store.path).rows()))


def test_a_study_resumed_from_its_folder_keeps_its_variants_order(tmp_path, capsys):
    """A grid of two options: the folder's study file keeps their order, so ``cardsim run
    FOLDER`` names the same variants, finds their stores and computes nothing new."""
    out = tmp_path / "study"
    argv = ["--vary", "target_score=11,21", "--vary", "primiera_missing_suit=zero,forfeit",
            "--deals", "4", "--matches", "0", "--out", str(out), "--quiet"]
    assert main(["variants", "scopa", *argv]) == 0
    folders = sorted(p.name for p in out.iterdir())
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    capsys.readouterr()
    assert main(["run", str(out), "--quiet", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer[0].endswith("the baseline is target_score=11,primiera_missing_suit=zero.")
    assert sorted(p.name for p in out.iterdir()) == folders
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == stamps


def test_the_same_rules_on_other_seeds_differ_in_no_measure(tmp_path):
    """The self-check on real play: two runs of the same rules from different seeds (the
    variant identical to the baseline, its deals not shared) show no significant difference in
    any measure after Holm's correction."""
    from cardsim.experiments.measures import compare
    from cardsim.experiments.runner import run
    from cardsim.experiments.spec import parse_spec
    from cardsim.game import definition
    from cardsim.stats import holm
    rows = []
    for seed in (1, 2):
        spec = parse_spec({"game": "scopa", "agents": ["heuristic", "random"], "seed": seed,
                           "matchups": [[0, 1]], "batch_size": 100, "size": {"deals": 300}})
        store = run(spec, RunConfig(out=str(tmp_path / f"s{seed}"), progress=False))
        rows.append(store.rows())
    found = compare(rows[0], rows[1], definition("scopa").categories, boot=400)
    assert len(found) >= 12 and all(r["paired"] for r in found)   # the same deal numbers
    assert (holm([r["p"] for r in found]) > 0.05).all(), found
