"""The coverage study (cardsim/experiments/coverage.py) and the intervals it checks, on synthetic data
with a known answer."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cardsim.experiments import coverage
from cardsim.stats import Z95, clustered_wilson, mean_interval, t95, wilson_interval


def test_t95_is_students_t_and_tends_to_the_normal():
    """The factor of a mean's 95% interval: Student's t with n - 1 degrees of freedom."""
    assert t95(2) == pytest.approx(12.706205, abs=1e-6)
    assert t95(3) == pytest.approx(4.302653, abs=1e-6)
    assert t95(20) == pytest.approx(2.093024, abs=1e-6)
    assert t95(200) == pytest.approx(1.971957, abs=1e-6)
    assert t95(10 ** 9) == pytest.approx(Z95, abs=1e-6)
    assert math.isnan(t95(1))


def test_the_mean_interval_covers_95_percent_where_the_normal_one_does_not():
    """20 normal values, 20,000 times: ``mean_interval`` covers the true mean 95% of the time
    (its Wilson interval of the coverage holds 0.95), the normal z's interval about 93.8%
    (its Wilson interval lies below 0.95): the paired interval's old defect, caught."""
    values = np.random.default_rng(3).normal(0.7, 2.0, size=(20_000, 20))
    ours = np.array([mean_interval(v)[1:] for v in values])
    assert ours[:, 0].min() < 0.7 < ours[:, 1].max()
    row = coverage.coverage_row("t", "mean", values.mean(axis=1)[:, None], ours[:, :1],
                                ours[:, 1:], 0.7)
    assert row["coverage_lo"] < 0.95 < row["coverage_hi"]
    half = Z95 * values.std(axis=1, ddof=1) / math.sqrt(20)
    mean = values.mean(axis=1)
    normal = coverage.coverage_row("z", "mean", mean[:, None], (mean - half)[:, None],
                                   (mean + half)[:, None], 0.7)
    assert normal["coverage_hi"] < 0.95
    assert normal["coverage"] == pytest.approx(0.938, abs=0.006)


def test_a_rate_over_correlated_games_is_never_narrower_than_95_percent():
    """Win rates of duplicate games (two per deal, the second often the first's reverse: the
    cards favour a seat), 20 deals, 4,000 times each for three strengths of the correlation:
    the interval over the deals (``clustered_wilson``) covers the true rate 95-97.5% of the
    time, and is narrower than Wilson's over the games where the games are correlated;
    games of one deal each give Wilson's interval at n - 1 games (Student's t)."""
    deal = np.repeat(np.arange(20), 2)
    for flip in (0.0, 0.3, 0.6):
        rng = np.random.default_rng(5)
        first = rng.random((4_000, 20)) < 0.45
        second = np.where(rng.random((4_000, 20)) < flip, ~first,
                          rng.random((4_000, 20)) < 0.45)
        truth = (0.45 + flip * 0.55 + (1 - flip) * 0.45) / 2
        cover = width = wide = 0.0
        for a, b in zip(first, second):
            hits = np.column_stack([a, b]).ravel()
            _, lo, hi = clustered_wilson(hits, deal)
            _, wlo, whi = wilson_interval(int(hits.sum()), hits.size)
            cover += lo <= truth <= hi
            width += hi - lo
            wide += whi - wlo
        assert 0.945 <= cover / 4_000 <= 0.975, (flip, cover / 4_000)
        if flip:
            assert width < wide
    hits = np.random.default_rng(1).random(20) < 0.4
    assert clustered_wilson(hits, np.arange(20)) == pytest.approx(
        wilson_interval(hits.sum() * 19 / 20, 19, t95(20)))


def test_coverage_row_of_a_known_forecaster_and_a_biased_one():
    """Intervals built to cover 95% (a known sigma) are found to; the same intervals shifted
    by half a standard error are caught; a NaN interval is a miss; a pooled truth is the
    mean estimate per interval."""
    rng = np.random.default_rng(11)
    est = rng.normal(3.0, 1.0, size=(4_000, 2))
    lo, hi = est - Z95, est + Z95
    honest = coverage.coverage_row("h", "k", est, lo, hi, 3.0)
    assert honest["intervals"] == 8_000 and honest["replications"] == 4_000
    assert honest["coverage_lo"] < 0.95 < honest["coverage_hi"]
    assert honest["mean_width"] == pytest.approx(2 * Z95)
    shifted = coverage.coverage_row("b", "k", est, lo + 0.5, hi + 0.5, 3.0)
    assert shifted["coverage_hi"] < 0.94
    pooled = coverage.coverage_row("p", "k", est, lo, hi, None)
    assert math.isnan(pooled["truth"])
    assert pooled["coverage_lo"] < 0.95 < pooled["coverage_hi"]
    per_interval = coverage.coverage_row("i", "k", est, lo, hi, np.array([3.0, 3.0]))
    assert per_interval["covered"] == honest["covered"]
    first_only = ((lo[:, 0] <= 3.0) & (3.0 <= hi[:, 0])).sum()   # the second truth is never in
    assert coverage.coverage_row("s", "k", est, lo, hi, np.array([3.0, 99.0]))["covered"] == (
        first_only)
    lo[0, 0] = np.nan
    assert coverage.coverage_row("n", "k", est, lo, hi, 3.0)["covered"] == honest["covered"] - (
        abs(est[0, 0] - 3.0) <= Z95)


def test_wilson_case_is_the_toolkits_interval_of_the_redeal_share():
    """A replication of ``wilson-redeal-1000`` is the Wilson interval of the share of 1,000
    random Scopa deals that were redealt, and its truth is SC-DEAL-3's 145/91390."""
    case = coverage.CASES["wilson-redeal-1000"]
    assert case.truth == pytest.approx(145 / 91390)
    seq = np.random.SeedSequence([5, 0, 0])
    est, lo, hi = case.draw(seq)
    redealt = int((coverage._redeals(np.random.SeedSequence([5, 0, 0]), 1_000) > 0).sum())
    assert (est[0], lo[0], hi[0]) == pytest.approx(wilson_interval(redealt, 1_000))


@pytest.mark.parametrize("name", ["paired-scopa-20", "wins-scopa-20", "elo-scopa-20",
                                  "equity-scopa-500",
                                  "analysis-scopa"])
def test_cases_repeat_from_their_seed(name):
    """The same seed gives the same intervals; another seed others; each interval has
    low <= estimate <= high."""
    a = coverage.replicate(name, 2, seed=4)
    assert all(np.array_equal(x, y, equal_nan=True)
               for x, y in zip(a, coverage.replicate(name, 2, seed=4)))
    assert not np.array_equal(a[0], coverage.replicate(name, 2, seed=5)[0])
    est, lo, hi = a
    assert ((lo <= est) & (est <= hi)).all()


def test_run_writes_each_case_and_resumes(tmp_path, capsys):
    """``run`` writes coverage.csv after each case and skips the cases already there for the
    same seed and replications; ``main`` refuses bad input in one line."""
    table = coverage.run(["mean-redeals-10000"], 3, seed=2, jobs=1, out=str(tmp_path))
    assert list(table["case"]) == ["mean-redeals-10000"]
    stored = pd.read_csv(tmp_path / "coverage.csv")
    assert stored.loc[0, "intervals"] == 3 and stored.loc[0, "seed"] == 2
    assert (tmp_path / "coverage.md").read_text() == coverage.markdown(stored)
    assert "| `mean-redeals-10000` | mean (simulate) | 3 | 3 |" in coverage.markdown(stored)
    said = []
    coverage.run(["mean-redeals-10000"], 3, seed=2, jobs=1, out=str(tmp_path), say=said.append)
    assert said == []
    with pytest.raises(SystemExit):
        coverage.main(["--replications", "1", "--out", str(tmp_path)])
    assert "expected at least 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        coverage.main(["--case", "nothing", "--out", str(tmp_path)])


def test_the_equity_truth_is_a_table_of_other_deals_cell_for_cell(monkeypatch):
    """``equity-scopa-500``'s truth is the table of other deals (no bootstrap), one value per
    cell of a replication's table, in the same order."""
    monkeypatch.setattr(coverage, "TRUTH_DEALS", 300)
    truth = coverage._equity_truth()
    est, lo, hi = coverage.CASES["equity-scopa-500"].draw(np.random.SeedSequence([1, 2, 3]))
    assert truth.shape == est.shape == lo.shape
    assert np.abs(truth - est).max() < 0.2 and not np.array_equal(truth, est)


def test_wilson_coverage_is_exact_and_discrete():
    """The exact coverage of the Wilson interval (a sum over the binomial's counts): a brute
    force over the counts' intervals agrees; it swings round 95% at a small rate (97.7% at
    1,000 deals of the redeal rate, 94.3% at 10,000) and averages 95% over rates."""
    from scipy.stats import binom
    p = coverage.P_REDEAL
    n = 60
    brute = sum(binom.pmf(k, n, 0.3) for k in range(n + 1)
                if wilson_interval(k, n)[1] <= 0.3 <= wilson_interval(k, n)[2])
    assert coverage.wilson_coverage(n, 0.3) == pytest.approx(brute, abs=1e-12)
    assert coverage.wilson_coverage(1_000, p) == pytest.approx(0.9772, abs=5e-4)
    assert coverage.wilson_coverage(10_000, p) == pytest.approx(0.9427, abs=5e-4)
    average = np.mean([coverage.wilson_coverage(100, q) for q in np.linspace(0.05, 0.95, 91)])
    assert average == pytest.approx(0.95, abs=0.003)


PUBLISHED = Path(__file__).resolve().parents[2] / "experiments" / "results" / "coverage"


def test_the_published_coverage_study_is_whole_and_honest():
    """``experiments/results/coverage``: every case, at least 2,000 replications each, its
    Markdown the table's; every interval kind covers 95% within 1%, but the Wilson rate of a
    rare event, whose exact coverage (which the replications reproduce) swings with the
    count's discreteness. (A study's win rate over duplicate games covered 96.7% with Wilson's
    interval over the games; over the deals, 95.3%.)"""
    table = pd.read_csv(PUBLISHED / "coverage.csv")
    assert sorted(table["case"]) == sorted(coverage.CASES)
    assert (table["replications"] >= 2_000).all()
    assert (PUBLISHED / "coverage.md").read_text() == coverage.markdown(table)
    for r in table.itertuples():
        if not math.isnan(r.exact):
            assert r.coverage_lo <= r.exact + 0.002 and r.exact - 0.002 <= r.coverage_hi, r
        else:
            assert abs(r.coverage - 0.95) <= 0.01, r
