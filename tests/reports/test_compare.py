"""cardsim.reports.compare: two stored runs side by side, checked against each run's own tables.

No games are played: the tests read the example stores in tests/data (made by
tests/data/make_stores.py) and recompute every expected figure from
:func:`cardsim.experiments.tables.report_tables` of each run independently.
"""
import io
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cardsim.experiments.store import StoreError
from cardsim.experiments.tables import report_tables
from cardsim.reports.compare import compare_runs
from cardsim.reports.run import ReportError, load_run
from cardsim.stats import Z95, welch_t95

DATA = Path(__file__).resolve().parents[1] / "data"
COMMON = ["random vs heuristic", "ismcts:iterations=10 vs heuristic"]
ONLY_A = "ismcts:iterations=40 vs heuristic"


@pytest.fixture(scope="module")
def budget():
    return load_run(DATA / "scopa_budget")


@pytest.fixture(scope="module")
def variant():
    return load_run(DATA / "scopa_variant")


@pytest.fixture(scope="module")
def tables(budget, variant):
    return compare_runs(budget, variant)


def first_agent(run, label):
    """The first agent's row of ``label`` in the run's own matchups table."""
    m = report_tables(run.rows, run.agents)["matchups"]
    return m[m["label"] == label].iloc[0]


def check_diff(row, x, a, b, se_a, se_b, n_a, n_b):
    """``row``'s diff is b - a exactly, with half-width t·sqrt(se_a² + se_b²), t Student's at
    Welch's degrees of freedom over the ``n_a`` and ``n_b`` deals (wider than the normal's)."""
    t = float(welch_t95(se_a, n_a, se_b, n_b))
    assert Z95 < t < 2.2
    half = t * math.sqrt(se_a ** 2 + se_b ** 2)
    assert row[f"{x}_a"] == a and row[f"{x}_b"] == b
    assert row["diff"] == b - a
    assert row["diff_lo"] == pytest.approx(b - a - half, abs=1e-12)
    assert row["diff_hi"] == pytest.approx(b - a + half, abs=1e-12)


def test_spec_table_flags_what_differs(tables):
    spec = tables["spec"].set_index("setting")
    assert bool(spec.loc["game", "same"]) and spec.loc["game", "a"] == "scopa"
    assert not spec.loc["rules", "same"] and not spec.loc["agents", "same"]
    assert spec.loc["rules", "a"] == "defaults"
    assert spec.loc["rules", "b"] == "last_move_scopa_counts=True"
    assert spec.loc["matchups", "b"] == "; ".join(COMMON)
    assert spec.loc["size", "b"] == "deals=20" and spec.loc["size", "a"].startswith("sprt")
    assert spec.loc["package version", "a"] == "0.1.0"
    assert (spec.loc["games stored", "a"], spec.loc["games used", "b"]) == (180, 80)
    assert tables["spec"].attrs["note"]


def test_matchups_joined_by_label_with_independent_difference(tables, budget, variant):
    m = tables["matchups"]
    assert list(m["label"]) == COMMON + [ONLY_A]
    assert list(m["name"]) == ["random", "ismcts:iterations=10", "ismcts:iterations=40"]
    for label in COMMON:
        row = m[m["label"] == label].iloc[0]
        ra, rb = first_agent(budget, label), first_agent(variant, label)
        assert row["name"] == ra["name"] == rb["name"]
        assert (row["games_a"], row["games_b"]) == (ra["games"], rb["games"])
        check_diff(row, "mean_return", ra["mean_return"], rb["mean_return"],
                   ra["return_se"], rb["return_se"], ra["deals"], rb["deals"])
        for side, r in (("a", ra), ("b", rb)):
            for end in ("", "_lo", "_hi"):
                assert row[f"win_rate_{side}{end}"] == r[f"win_rate{end}"]
                assert row[f"mean_return_{side}{end}"] == r[f"mean_return{end}"]
    only = m[m["label"] == ONLY_A].iloc[0]
    assert only["mean_return_a"] == first_agent(budget, ONLY_A)["mean_return"]
    assert pd.isna(only["games_b"])
    for c in ("mean_return_b", "mean_return_b_lo", "win_rate_b", "diff", "diff_hi"):
        assert np.isnan(only[c]), c


def test_rows_of_b_only_come_after_a_rows(budget, variant):
    m = compare_runs(variant, budget)["matchups"]
    assert list(m["label"]) == COMMON + [ONLY_A]
    assert m["games_a"].isna().tolist() == [False, False, True]
    assert m["mean_return_b"].iloc[2] == first_agent(budget, ONLY_A)["mean_return"]
    assert m["diff"].iloc[:2].tolist() == [first_agent(budget, lb)["mean_return"]
                                           - first_agent(variant, lb)["mean_return"]
                                           for lb in COMMON]


def test_categories_joined_per_label_agent_category(tables, budget, variant):
    key = ("ismcts:iterations=10 vs heuristic", "ismcts:iterations=10", "scopas")
    cats = tables["categories"].set_index(["label", "name", "category"])
    row = cats.loc[key]
    ca = report_tables(budget.rows, budget.agents)["categories"]
    cb = report_tables(variant.rows, variant.agents)["categories"]
    ea, eb = (c.set_index(["label", "name", "category"]).loc[key] for c in (ca, cb))
    check_diff(row, "mean", ea["mean"], eb["mean"], ea["se"], eb["se"], ea["deals"],
               eb["deals"])
    assert (row["mean_a_lo"], row["mean_b_hi"]) == (ea["mean_lo"], eb["mean_hi"])
    assert len(tables["categories"]) == len(ca)           # B's categories are a subset of A's
    only = tables["categories"][tables["categories"]["label"] == ONLY_A]
    assert len(only) == (ca["label"] == ONLY_A).sum() and only["mean_b"].isna().all()


def test_dealer_side_by_side(tables, budget, variant):
    d = tables["dealer"].set_index("position")
    assert list(d.index) == ["dealer", "dealer+1", "dealer - others"]
    da, db = (report_tables(r.rows, r.agents)["dealer"].set_index("position")
              for r in (budget, variant))
    for p in d.index:
        check_diff(d.loc[p], "mean_return", da.loc[p, "mean_return"],
                   db.loc[p, "mean_return"], da.loc[p, "return_se"], db.loc[p, "return_se"],
                   da.loc[p, "deals"], db.loc[p, "deals"])
    assert "ends" not in tables                        # Scopa rows have no end column


@pytest.mark.parametrize("store", ["scopa_budget", "bura_ends"])
def test_a_run_against_itself(store):
    run = load_run(DATA / store)
    out = compare_runs(run, DATA / store)              # a Run and a path both work
    assert out["spec"]["same"].all()
    for key in ("matchups", "dealer", "categories"):
        assert (out[key]["diff"] == 0).all(), key
        assert ((out[key]["diff_lo"] <= 0) & (out[key]["diff_hi"] >= 0)).all(), key
    if store == "bura_ends":
        ends = out["ends"]
        assert len(ends) == len(report_tables(run.rows, run.agents)["ends"]) > 0
        assert (ends["share_a"] == ends["share_b"]).all()
        assert (ends["count_a"] == ends["count_b"]).all()


def test_different_games_refused(budget):
    with pytest.raises(ReportError) as e:
        compare_runs(budget, DATA / "bura_ends")
    assert "scopa" in str(e.value) and "bura" in str(e.value)


def test_store_errors_pass_through(tmp_path, budget):
    with pytest.raises(StoreError, match="schema version 99"):
        compare_runs(DATA / "future_schema", budget)
    with pytest.raises(StoreError) as e:
        compare_runs(budget, tmp_path / "missing")
    assert "missing" in str(e.value)


def _printed(tables) -> str:
    from cardsim.app.output import Output
    from cardsim.app.results import print_comparison
    buffer = io.StringIO()
    with Output("table", buffer) as out:
        print_comparison(tables, out)
    return buffer.getvalue()


def test_a_copied_store_is_compared_by_its_folder_name(tmp_path, variant):
    copy = tmp_path / "variant_copy"
    shutil.copytree(DATA / "scopa_variant", copy)
    text = _printed(compare_runs(variant, copy))
    assert text.splitlines()[:2] == ["A: scopa_variant", "B: variant_copy"]


def test_the_comparison_printed(tables):
    """The settings that differ, each matchup's answer in a sentence, then the tables with the
    difference B - A and its interval, within 100 columns."""
    text = _printed(tables)
    flat = " ".join(text.split())
    assert "A: scopa_budget" in text and "B: scopa_variant" in text
    assert "Settings that differ" in text and "last_move_scopa_counts=True" in text
    for title in ("Mean return of each matchup's first agent", "Dealer advantage",
                  "Scoring categories of each matchup's first agent (mean points a game)"):
        assert title in text.splitlines()
    assert max(len(line) for line in text.splitlines()) <= 100
    m = tables["matchups"].iloc[0]
    assert (f"B - A {m['diff']:.2f} [{m['diff_lo']:.2f}, {m['diff_hi']:.2f}]: no clear "
            "difference.") in flat
