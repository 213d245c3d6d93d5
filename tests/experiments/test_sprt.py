"""cardsim.experiments.sprt: the GSPRT formulas by hand, on rows, and its error rates on simulated data.

Formulas (module docstring of cardsim.experiments.sprt): with deal values x_1..x_N, mean x̄ and
empirical variance σ̂² (divisor N), hypotheses θ0 < θ1 on the mean (scores L(elo0), L(elo1)
for kind "elo", margins for kind "margin"):  LLR = N (θ1 - θ0)(2 x̄ - θ0 - θ1) / (2 σ̂²).
"""
import math

import numpy as np
import pandas as pd
import pytest

from cardsim.errors import CardsimError
from cardsim.experiments.sprt import (
    MIN_DEALS,
    SprtError,
    SprtResult,
    bounds,
    deal_values,
    elo_to_score,
    first_crossing,
    llr,
    llr_elo,
    llr_margin,
    llr_path,
    score_to_elo,
    sprt,
    sprt_table,
    sprt_values,
    verdict,
)

AGENTS = ["A", "B"]
ELO_06 = 400 * math.log10(1.5)           # logistic Elo of a 0.6 score


def rows_from(a_returns, matchup=0, rotations=2):
    """2-player duplicate rows from A's return per deal and rotation (A at seat r % 2)."""
    rows = []
    for d, per_rotation in enumerate(a_returns):
        for r, v in enumerate(per_rotation[:rotations]):
            a_seat = r % 2
            rows.append({"matchup": matchup, "deal": d, "rotation": r, "seed": d, "dealer": 0,
                         "seat_0": 0 if a_seat == 0 else 1, "seat_1": 1 if a_seat == 0 else 0,
                         "return_0": float(v if a_seat == 0 else -v),
                         "return_1": float(-v if a_seat == 0 else v),
                         "moves": 1, "seconds": 0.0})
    return pd.DataFrame(rows)


def test_bounds_and_elo_scale():
    lo, hi = bounds(0.05, 0.05)
    assert lo == pytest.approx(math.log(0.05 / 0.95)) and hi == pytest.approx(math.log(19))
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(18)))
    assert elo_to_score(0) == 0.5 and elo_to_score(ELO_06) == pytest.approx(0.6)
    assert score_to_elo(0.6) == pytest.approx(ELO_06)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    assert score_to_elo(elo_to_score(-123.0)) == pytest.approx(-123.0)


def test_llr_by_hand():
    # elo: scores 1, 1/2, 0, 1; s0 = 0.5, s1 = 0.6; mean 0.625, var 0.5625 - 0.390625 = 0.171875
    # LLR = 4 * 0.1 * (1.25 - 1.1) / (2 * 0.171875) = 0.06 / 0.34375
    assert llr_elo([1, 0.5, 0, 1], 0, ELO_06) == pytest.approx(0.06 / 0.34375)
    # margin: y = 1, 3, -1, 5; m0 = 0, m1 = 1; S = 8, var = 5; LLR = 1 * (16 - 4) / 10
    assert llr_margin([1, 3, -1, 5], 0, 1) == pytest.approx(1.2)
    assert llr([1, 3, -1, 5], "margin", -1, 1) == pytest.approx(
        2 * (2 * 8 - 0) / (2 * 5))


def test_llr_degenerate_cases():
    assert llr_elo([], 0, 20) == 0.0
    assert llr_elo([1.0], 0, 20) == 0.0                      # one deal: no variance yet
    assert llr_elo([0.5] * 50, 0, 20) == 0.0                 # no spread at all
    assert llr_margin([2.0, 2.0, 2.0], 0, 1) == 0.0
    res = sprt_values([], "margin", 0, 1)
    assert (res.n, res.verdict, res.llr) == (0, "continue", 0.0) and math.isnan(res.estimate)


def test_llr_path_matches_llr():
    rng = np.random.default_rng(3)
    x = rng.choice([0, 0.25, 0.5, 0.75, 1.0], size=300, p=[.1, .2, .3, .25, .15])
    path = llr_path(x, "elo", -10, 30)
    for k in (2, 3, 17, 150, 300):
        assert path[k - 1] == pytest.approx(llr(x[:k], "elo", -10, 30), rel=1e-9, abs=1e-12)
    assert path[0] == 0.0
    y = rng.normal(0.2, 3.0, size=200)
    assert llr_path(y, "margin", 0, 0.5)[-1] == pytest.approx(llr_margin(y, 0, 0.5))


def test_sprt_on_rows_uses_paired_scores():
    # A's two rotations per deal: pair scores (1+1)/2, (1+0.5)/2, (0+1)/2, (0.5+0)/2
    a_returns = [(3, 1), (2, 0), (-1, 4), (0, -2)]
    rows = rows_from(a_returns)
    assert deal_values(rows, AGENTS, 0, "elo").tolist() == [1.0, 0.75, 0.5, 0.25]
    assert deal_values(rows, AGENTS, 0, "margin").tolist() == [2.0, 1.0, 1.5, -1.0]
    res = sprt(rows, AGENTS, 0, kind="elo", lower=0, upper=ELO_06)
    assert isinstance(res, SprtResult)
    assert res.llr == pytest.approx(llr_elo([1.0, 0.75, 0.5, 0.25], 0, ELO_06))
    assert (res.n, res.verdict, res.kind) == (4, "continue", "elo")
    assert res.estimate == pytest.approx(0.625) and res.elo == pytest.approx(score_to_elo(0.625))
    assert (res.lower_bound, res.upper_bound) == pytest.approx(bounds(0.05, 0.05))
    m = sprt(rows, AGENTS, 0, kind="margin", lower=0, upper=1, alpha=0.1, beta=0.2)
    assert m.llr == pytest.approx(llr_margin([2.0, 1.0, 1.5, -1.0], 0, 1))
    assert (m.lower_bound, m.upper_bound) == pytest.approx(bounds(0.1, 0.2))
    # the hand margin example through rows: pair means 1, 3, -1, 5
    rows = rows_from([(0, 2), (3, 3), (-2, 0), (4, 6)])
    assert sprt(rows, AGENTS, 0, kind="margin", lower=0, upper=1).llr == pytest.approx(1.2)
    # the first agent is the matchup's first seat in rotation 0, whatever the agent indices
    swapped = rows.assign(seat_0=1 - rows["seat_0"], seat_1=1 - rows["seat_1"])
    assert deal_values(swapped, AGENTS, 0, "margin").tolist() == [1.0, 3.0, -1.0, 5.0]


def mushka_rows(deals):
    """4-seat rows of a game that is not zero-sum: agent A at seats 0 and 2 and B at 1 and 3
    in rotation 0, the other way round in rotation 1; ``deals`` gives each rotation's four
    seat returns."""
    rows = []
    for d, per_rotation in enumerate(deals):
        for r, rets in enumerate(per_rotation):
            seats = [0, 1, 0, 1] if r == 0 else [1, 0, 1, 0]
            rows.append({"matchup": 0, "deal": d, "rotation": r, "seed": d, "dealer": 0,
                         **{f"seat_{s}": seats[s] for s in range(4)},
                         **{f"return_{s}": float(rets[s]) for s in range(4)},
                         "moves": 1, "seconds": 0.0})
    return pd.DataFrame(rows)


def test_in_a_game_that_is_not_zero_sum_the_test_is_against_the_other_agent():
    """Mushka (not zero-sum): the margin is the first agent's return minus the other's at the
    same table and the score whether it wrote off more, each the mean over its seats, then
    over the rotations; in a zero-sum game it is its return, as before."""
    # deal 0: A's seats +1, +3 / -2, +2 (B's -1, -1 / 0, +4); deal 1: A -3, -1 / -1, -1, B 0s
    rows = mushka_rows([[(1, -1, 3, -1), (0, -2, 4, 2)], [(-3, 0, -1, 0), (0, -1, 0, -1)]])
    # deal 0: A 2 - B -1 = 3, A 0 - B 2 = -2 -> 0.5; deal 1: -2 - 0, -1 - 0 -> -1.5
    assert deal_values(rows, AGENTS, 0, "margin", zero_sum=False).tolist() == [0.5, -1.5]
    assert deal_values(rows, AGENTS, 0, "elo", zero_sum=False).tolist() == [0.5, 0.0]
    assert deal_values(rows, AGENTS, 0, "margin").tolist() == [1.0, -1.5]   # A's own return
    res = sprt(rows, AGENTS, 0, kind="margin", lower=0, upper=1, zero_sum=False)
    assert res.llr == pytest.approx(llr_margin([0.5, -1.5], 0, 1))
    table = sprt_table(rows, AGENTS, kind="margin", lower=0, upper=1, zero_sum=False)
    assert table["estimate"].tolist() == [-0.5]
    assert "against the other agent at the same table" in table.attrs["note"]
    assert "same table" not in sprt_table(rows_from([(3, 1)]), AGENTS, kind="margin", lower=0,
                                          upper=1).attrs["note"]
    zero_sum = rows_from([(3, 1), (2, 0)])
    assert (deal_values(zero_sum, AGENTS, 0, "margin", zero_sum=False) / 2).tolist() == \
        deal_values(zero_sum, AGENTS, 0, "margin").tolist()


def test_verdicts_on_clear_rows():
    strong = rows_from([(1, 1)] * 30 + [(1, -1)] * 10 + [(-1, -1)] * 2)
    assert sprt(strong, AGENTS, 0, kind="elo", lower=0, upper=50).verdict == "H1"
    weak = rows_from([(-1, -1)] * 30 + [(1, -1)] * 10 + [(1, 1)] * 2)
    assert sprt(weak, AGENTS, 0, kind="elo", lower=0, upper=50).verdict == "H0"
    assert sprt(weak, AGENTS, 0, kind="margin", lower=0, upper=0.5).verdict == "H0"
    no_rows = sprt(strong, AGENTS, 5, kind="elo", lower=0, upper=50)
    assert (no_rows.n, no_rows.verdict, no_rows.done) == (0, "continue", False)


def test_sprt_table():
    rows = pd.concat([rows_from([(1, 1)] * 30 + [(1, -1)] * 10, matchup=0),
                      rows_from([(0, 1), (1, -1)] * 3, matchup=1)], ignore_index=True)
    t = sprt_table(rows, AGENTS, kind="elo", lower=0, upper=50)
    assert t["matchup"].tolist() == [0, 1]
    assert t["verdict"].tolist()[0] == "H1" and t["n"].tolist() == [40, 6]
    assert t.attrs["note"] and "GSPRT" in t.attrs["note"]
    assert set(t.columns) >= {"llr", "lower_bound", "upper_bound", "verdict", "estimate", "elo"}
    assert sprt_table(rows, AGENTS, kind="margin", lower=0, upper=1,
                      matchups=[1])["matchup"].tolist() == [1]
    with pytest.raises(SprtError, match="matchup 9"):
        sprt_table(rows, AGENTS, kind="margin", lower=0, upper=1, matchups=[9])


def test_three_agent_matchup_is_refused():
    rows = pd.DataFrame([{"matchup": 0, "deal": 0, "rotation": 0, "dealer": 0, "seat_0": 0,
                          "seat_1": 1, "seat_2": 2, "return_0": 1.0, "return_1": 0.0,
                          "return_2": -1.0}])
    with pytest.raises(SprtError, match="exactly 2 distinct agents"):
        sprt(rows, ["a", "b", "c"], 0, kind="elo", lower=0, upper=10)
    assert sprt_table(rows, ["a", "b", "c"], kind="elo", lower=0, upper=10).empty


@pytest.mark.parametrize("kwargs, bad", [
    ({"alpha": 0}, "alpha=0"), ({"alpha": 0.6}, "alpha=0.6"), ({"beta": -0.1}, "beta=-0.1"),
    ({"beta": True}, "beta=True"), ({"alpha": "x"}, "alpha='x'"),
    ({"lower": 10, "upper": 5}, "upper=5"), ({"lower": 1, "upper": 1}, "upper=1"),
    ({"kind": "bayes"}, "kind='bayes'"), ({"upper": None}, "upper=None"),
    ({"upper": math.inf}, "upper=inf")])
def test_bad_settings_are_named(kwargs, bad):
    settings = {"kind": "elo", "lower": 0, "upper": 10, "alpha": 0.05, "beta": 0.05, **kwargs}
    with pytest.raises(SprtError) as err:
        sprt(rows_from([(1, 0)]), AGENTS, 0, **settings)
    assert bad in str(err.value)
    assert isinstance(err.value, CardsimError) and isinstance(err.value, ValueError)
    with pytest.raises(SprtError):
        sprt_values([0.5, 1.0], **settings)


def test_alpha_beta_half_allowed():
    assert sprt_values([1, 0, 1], "elo", 0, 10, alpha=0.5, beta=0.5).lower_bound == 0.0


# --- error rates on simulated data ----------------------------------------------------------

RUNS = 200
N_MAX = 5000


def pair_scores(rng, elo: float, draw: float, n: int) -> np.ndarray:
    """Mean score of 2 independent games (win 1, draw 1/2, loss 0) at a true Elo ``elo``."""
    s = elo_to_score(elo)
    win, loss = s - draw / 2, 1 - s - draw / 2
    games = rng.choice([1.0, 0.5, 0.0], size=(n, 2), p=[win, draw, loss])
    return games.mean(axis=1)


def verdicts(sample, kind, lower, upper, seed, every=1, alpha=0.05, beta=0.05,
             min_deals=MIN_DEALS):
    """Shares of H1 / H0 / continue over RUNS seeded runs of a test checked after every
    ``every`` deals from ``min_deals`` on."""
    lo, hi = bounds(alpha, beta)
    out = []
    for i in range(RUNS):
        rng = np.random.default_rng([seed, i])
        path = llr_path(sample(rng), kind, lower, upper)
        out.append(first_crossing(path, lo, hi, every, min_deals)[0])
    return {v: out.count(v) / RUNS for v in ("H1", "H0", "continue")}


@pytest.mark.parametrize("every", [1, 25])
def test_elo_sprt_error_rates(every):
    """Pentanomial pair scores (draw rate 0.3): elo0 = 0, elo1 = 40, alpha = beta = 0.05."""
    h1 = verdicts(lambda rng: pair_scores(rng, 40, 0.3, N_MAX), "elo", 0, 40, 1, every)
    h0 = verdicts(lambda rng: pair_scores(rng, 0, 0.3, N_MAX), "elo", 0, 40, 2, every)
    assert h1["H1"] >= 0.88 and h0["H0"] >= 0.88, (h1, h0)
    assert h1["H0"] <= 0.12 and h0["H1"] <= 0.12, (h1, h0)        # beta, alpha: wide margin
    if every == 1:
        assert h1["H0"] >= 0.005 and h0["H1"] >= 0.005, (h1, h0)  # near, not vacuously 0


def test_elo_sprt_trinomial_and_asymmetric_errors():
    """Single games (one rotation per deal), alpha = 0.05, beta = 0.2: far fewer wrong H1
    than wrong H0."""
    def games(elo):
        s = elo_to_score(elo)
        return lambda rng: rng.choice([1.0, 0.5, 0.0], size=N_MAX, p=[s - 0.05, 0.1, 0.95 - s])
    h1 = verdicts(games(30), "elo", 0, 30, 3, alpha=0.05, beta=0.2)
    h0 = verdicts(games(0), "elo", 0, 30, 4, alpha=0.05, beta=0.2)
    assert h1["H1"] >= 0.7 and h0["H0"] >= 0.88, (h1, h0)
    assert 0.05 <= h1["H0"] <= 0.3 and h0["H1"] <= 0.12, (h1, h0)


def test_margin_sprt_error_rates():
    """Normal paired returns, sd 1.5: margin0 = 0, margin1 = 0.3, alpha = beta = 0.05."""
    h1 = verdicts(lambda rng: rng.normal(0.3, 1.5, N_MAX), "margin", 0, 0.3, 5)
    h0 = verdicts(lambda rng: rng.normal(0.0, 1.5, N_MAX), "margin", 0, 0.3, 6)
    assert h1["H1"] >= 0.88 and h0["H0"] >= 0.88, (h1, h0)
    assert 0.005 <= h1["H0"] <= 0.12 and 0.005 <= h0["H1"] <= 0.12, (h1, h0)
    # far from both hypotheses the test decides for the nearer one almost always
    far = verdicts(lambda rng: rng.normal(1.0, 1.5, N_MAX), "margin", 0, 0.3, 7)
    assert far["H1"] >= 0.98


def test_min_deals_holds_the_verdict_and_is_needed():
    clear = [1.0, 0.75] * 5                                   # 10 deals, LLR far above
    assert llr_elo(clear, 0, 40) > bounds()[1]
    assert sprt_values(clear, "elo", 0, 40).verdict == "continue"
    assert sprt_values(clear, "elo", 0, 40, min_deals=10).verdict == "H1"
    assert verdict(5.0, -2.9, 2.9, n=29) == "continue" and verdict(5.0, -2.9, 2.9, n=30) == "H1"
    assert verdict(-5.0, -2.9, 2.9) == "H0" and verdict(0.0, -2.9, 2.9) == "continue"
    path = np.array([0.0, 4.0, 1.0, -4.0, 0.5, 4.0])
    assert first_crossing(path, -3, 3, min_deals=1) == ("H1", 2)
    assert first_crossing(path, -3, 3, min_deals=3) == ("H0", 4)
    assert first_crossing(path, -3, 3, every=3, min_deals=1) == ("H1", 6)
    assert first_crossing(path, -3, 3, every=4, min_deals=1) == ("H0", 4)
    assert first_crossing(path[:3], -3, 3, min_deals=3) == ("continue", 3)
    # watched from the first deal, the plug-in variance makes wrong verdicts far too common
    h1 = verdicts(lambda rng: rng.normal(0.3, 1.5, N_MAX), "margin", 0, 0.3, 5, min_deals=1)
    assert h1["H0"] > 0.12, h1
    with pytest.raises(SprtError, match="min_deals=0"):
        sprt_values(clear, "elo", 0, 40, min_deals=0)


def test_sprt_on_simulated_rows_matches_values():
    """End to end: simulated duplicate rows give the same LLR as the pair scores directly."""
    rng = np.random.default_rng(11)
    s = elo_to_score(60)
    games = rng.choice([1, 0, -1], size=(400, 2), p=[s - 0.1, 0.2, 1 - s - 0.1])
    rows = rows_from([tuple(g) for g in games])
    scores = np.where(games > 0, 1.0, np.where(games == 0, 0.5, 0.0)).mean(axis=1)
    res = sprt(rows, AGENTS, 0, kind="elo", lower=0, upper=40)
    assert res.llr == pytest.approx(llr_elo(scores, 0, 40))
    assert res.n == 400 and res.verdict == "H1"
