"""Calibration studies (cardsim/experiments/calibration.py): the measures on synthetic forecasts with a
known answer, the spec, and a small study end to end."""
import json

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.experiments import calibration as C
from cardsim.experiments.rows import seeded
from cardsim.experiments.store import Store, levels_of
from cardsim.solvers.agent_spec import level
from cardsim.solvers.agents import parse_agent, play


def forecasts(n: int, seed: int, shift: float = 0.0):
    """``n`` forecasts uniform on [0, 1] and outcomes drawn with the forecast's chance less
    ``shift`` (clipped): shift 0 is a perfectly calibrated forecaster."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 1, n)
    o = rng.uniform(0, 1, n) < np.clip(p - shift, 0, 1)
    return p, o


def test_a_calibrated_forecaster_has_an_ece_within_its_sampling_error():
    """ECE of a perfect forecaster over 40,000 positions: about sqrt(2/pi) times each bin's
    standard error (0.003 here), far below 0.01; one that overrates by 0.1 is caught at
    about 0.1, and the reliability table puts its bins 0.1 below the diagonal."""
    p, o = forecasts(40_000, 1)
    assert C.ece(p, o) < 0.01
    q, r = forecasts(40_000, 2, shift=0.1)
    assert C.ece(q, r) == pytest.approx(0.1, abs=0.015)
    table = C.reliability(q, r)
    middle = table[(table["from"] >= 0.2) & (table["to"] <= 0.9)]
    assert ((middle["predicted"] - middle["realized"]).between(0.07, 0.13)).all()
    assert table["positions"].sum() == 40_000
    assert ((table["realized_lo"] <= table["realized"]) &
            (table["realized"] <= table["realized_hi"])).all()


def test_the_corrected_ece_removes_the_bias_of_few_positions_a_bin():
    """With few positions a bin the plain ECE is biased upward (each bin's gap is an absolute
    value): a forecaster that overrates by 0.03 (true ECE 0.0296, 600 positions) has a plain
    ECE near 0.045 whose bootstrap percentiles cover the truth in under a tenth of
    replications; the corrected ECE is nearer the truth and its interval covers it in most
    (measured: 83% of 60 replications; README, "How far to trust the figures")."""
    covered, plain, corrected = 0, [], []
    for seed in range(40):
        p, o = forecasts(600, 300 + seed, shift=0.03)
        est, fixed, lo, hi = C.ece_interval(p, o, np.arange(600), boot=200, seed=seed)
        covered += lo <= 0.0296 <= hi
        plain.append(est)
        corrected.append(fixed)
    assert abs(np.mean(corrected) - 0.0296) < 0.5 * abs(np.mean(plain) - 0.0296)
    assert covered >= 28
    q, r = forecasts(3_000, 7, shift=0.1)
    est, fixed, lo, hi = C.ece_interval(q, r, np.arange(3_000))
    assert lo <= 0.095 <= hi


def test_brier_decomposition_is_exact_when_forecasts_are_constant_in_their_bins():
    """Murphy's identity: with one forecast value per bin, brier = reliability - resolution +
    uncertainty exactly; a perfect forecaster's reliability term is near 0, a biased one's
    about bias squared."""
    rng = np.random.default_rng(3)
    p = (rng.integers(0, 10, 20_000) + 0.5) / 10
    o = rng.uniform(0, 1, 20_000) < p
    parts = C.brier(p, o)
    assert parts["remainder"] == pytest.approx(0.0, abs=1e-12)
    assert parts["brier"] == pytest.approx(((p - o) ** 2).mean())
    assert parts["reliability"] < 0.001
    assert parts["uncertainty"] == pytest.approx(o.mean() * (1 - o.mean()))
    biased = C.brier(np.clip(p + 0.1, 0, 1), o)
    assert biased["reliability"] == pytest.approx(0.01, abs=0.003)


def test_intervals_resample_deals_and_average_per_deal():
    """The ECE interval resamples whole deals (the same seed, the same interval) and holds
    the estimate; the bias is the mean over deals of each deal's mean gap."""
    p, o = forecasts(3_000, 4)
    deal = np.repeat(np.arange(1_000), 3)
    est, corrected, lo, hi = C.ece_interval(p, o, deal)
    assert (est, corrected, lo, hi) == C.ece_interval(p, o, deal)
    assert lo <= corrected <= hi and corrected <= est
    predicted = np.array([0.0, 0.0, 1.0, 2.0])
    realized = np.array([1.0, 1.0, 1.0, 1.0])
    mean, lo, hi = C.return_bias(predicted, realized, [0, 0, 0, 1])
    assert mean == pytest.approx(((1 + 1 + 0) / 3 + (-1)) / 2) and lo < mean < hi
    assert C.stage_of([0, 9, 10, 20, 29], [30] * 5).tolist() == [0, 0, 1, 2, 2]


def toml(v) -> str:
    """``v`` as a TOML value (inline tables for dicts)."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(toml(x) for x in v) + "]"
    return json.dumps(v)


SPEC = {"kind": "calibration", "game": "scopa", "agents": ["heuristic"],
        "evaluators": ["heuristic", {"agent": "random", "worlds": 4, "positions": 1,
                                     "infer": 0.2}],
        "worlds": 8, "positions": 2, "seed": 3,
        "batch_size": 2, "size": {"deals": 4}}


@pytest.mark.parametrize("change, needle", [
    ({"colour": 1}, "unknown key 'colour'"),
    ({"kind": "experiment"}, "kind = 'experiment'"),
    ({"size": {"deals": 0}}, "deals = 0"),
    ({"size": {"half_width": 0.1}}, "expected deals = N"),
    ({"worlds": 1}, "worlds = 1"),
    ({"agents": ["heuristic", "random", "random"]}, "agents: 3 given"),
    ({"evaluators": []}, "evaluators = []"),
    ({"evaluators": [{"agent": "random", "world": 3}]}, "evaluator {"),
    ({"evaluators": [{"agent": "random", "worlds": 1}]}, "worlds = 1"),
    ({"evaluators": ["ismcts:iterations=x"]}, "iterations"),
    ({"evaluators": [{"agent": "random", "positions": 3}]}, "positions = 3"),
    ({"evaluators": [{"agent": "random", "infer": 1.5}]}, "infer=1.5"),
    ({"game": "chess"}, "chess"),
    ({"rules": {"target_score": 12}}, "target_score"),
    ({"match": 1}, "match = 1"),
    ({"match": ""}, "match = ''"),
    ({"match": True}, "expected matches = N"),
    ({"match": True, "game": "mushka", "size": {"matches": 2}}, "mushka: no match analysis"),
    ({"match": True, "game": "bura", "size": {"matches": 2}}, "match_format=single_deal"),
])
def test_a_bad_spec_is_refused_in_one_line(tmp_path, capsys, change, needle):
    path = tmp_path / "bad.toml"
    spec = {**SPEC, **change}
    path.write_text("\n".join(f"{k} = {toml(v)}" for k, v in spec.items()))
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cardsim: error:") and "\n" not in err and needle in err, err


def test_a_small_study_end_to_end(tmp_path, capsys):
    """``cardsim run`` of a calibration spec: a row per drawn position and evaluator, each
    position a decision of its deal with two or more actions, whose realized return is the
    deal's own for the mover (replayed here from the seed); the same rows on 2 processes and
    on a resume; ``cardsim verify`` and ``cardsim report`` read the folder."""
    spec = C.calibration_from_dict(SPEC)
    out = tmp_path / "study"
    C.run_calibration(spec, out)
    rows = Store.open(out).rows()
    assert len(rows) == 4 * 2 + 4 * 1       # the second evaluator at one position a deal
    assert set(rows["evaluator"]) == {0, 1}
    assert (rows.loc[rows["evaluator"] == 1, "rotation"] == 0).all()
    assert rows["predicted_win"].between(0, 1).all()
    assert (rows["actions"] >= 2).all() and (rows["move"] < rows["moves"]).all()
    game = cardsim.load_game("scopa")
    for deal, part in rows.groupby("deal"):
        seq = np.random.SeedSequence([3, deal])
        deal_seq, play_seq, _ = seq.spawn(3)
        state = game.new_deal(seed=deal_seq)
        play(state, [parse_agent("heuristic", game)] * 2, seed=play_seq)
        assert (part["realized_return"] == [state.returns()[s] for s in part["seat"]]).all()
        assert (part["moves"] == len(state.actions)).all()
    again = C.run_calibration(spec, tmp_path / "two", jobs=2)
    assert (rows["seconds"] > 0).all()
    pd.testing.assert_frame_equal(seeded(again), seeded(rows))
    assert main(["run", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "4 deals" in printed and "random, 4 worlds" in printed and "ECE" in printed
    assert Store.open(out).manifest()["levels"] == {}      # heuristic and random are no level
    assert levels_of({"game": "scopa", "agents": ["strong"], "evaluators": [
        {"agent": "fast", "worlds": 20}]}) == {"strong": level("strong", "scopa"),
                                               "fast": level("fast", "scopa")}
    assert main(["verify", str(out)]) == 0
    assert main(["report", str(out), "--format", "md"]) == 0
    report = (out / "report" / "report.md").read_text()
    assert "Reliability diagrams" in report and (out / "report" / "plots" /
                                                 "reliability.png").exists()
    assert (out / "report" / "tables" / "summary.csv").exists()


def deal_results(game, start, actions) -> dict[int, list[float]]:
    """Each move's deal return per seat in a Scopa match played by ``actions`` from ``start``,
    from the match's scores (SC-MATCH-1: a deal's points add to them; the deal's return is
    the difference of the points it gave): move -> returns of the deal that move is in."""
    state, at, out = start.clone(), [], {}
    before, number = state.to_dict()["scores"], state.to_dict()["deal_number"]
    for k, action in enumerate(actions):
        at.append(k)
        state.apply_action(action)
        d = state.to_dict()
        if d["deal_number"] != number or state.is_terminal():
            gained = [a - b for a, b in zip(d["scores"], before)]
            for m in at:
                out[m] = [gained[0] - gained[1], gained[1] - gained[0]]
            at, before, number = [], d["scores"], d["deal_number"]
    return out


def test_a_study_of_the_match_end_to_end(tmp_path, capsys):
    """A calibration study of the match (``match = "DIR"``): whole matches, a row per drawn
    decision of the match with the chance of winning the match predicted from the table and
    the match's own result; the deal's realized return is that of the position's deal within
    the match, checked here against the match's scores (SC-MATCH-1); the same rows on a second
    run; the report has the match's reliability diagram and summary."""
    from cardsim.experiments.equity import EquityConfig, run_equity
    run_equity(EquityConfig(game="scopa", deals=200, boot=10), tmp_path / "eq", progress=False)
    spec = C.calibration_from_dict({**SPEC, "evaluators": ["heuristic"], "positions": 4,
                                    "match": str(tmp_path / "eq"), "size": {"matches": 3}})
    assert spec.to_dict()["size"] == {"matches": 3}
    assert C.calibration_from_dict(spec.to_dict()) == spec
    out = tmp_path / "study"
    C.run_calibration(spec, out)
    rows = Store.open(out).rows()
    assert len(rows) == 3 * 4
    assert rows["predicted_match"].between(0, 1).all()
    game = cardsim.load_game("scopa")
    for match, part in rows.groupby("deal"):
        seq = np.random.SeedSequence([3, match])
        deal_seq, play_seq, _ = seq.spawn(3)
        start = game.new_match(seed=deal_seq)
        state = start.clone()
        play(state, [parse_agent("heuristic", game)] * 2, seed=play_seq)
        assert state.to_dict()["deal_number"] > 1     # a match of several deals
        won = [1.0 if r > 0 else 0.0 if r < 0 else 0.5 for r in state.returns()]
        assert (part["realized_match"] == [won[s] for s in part["seat"]]).all()
        deal = deal_results(game, start, state.actions)
        assert (part["realized_return"] == [deal[m][s] for m, s in
                                            zip(part["move"], part["seat"])]).all()
        assert (part["moves"] == len(state.actions)).all()
    again = C.run_calibration(spec, tmp_path / "two")
    pd.testing.assert_frame_equal(seeded(again), seeded(rows))
    table = C.summary(rows, spec.names)
    assert {"match_ece", "match_ece_corrected", "match_brier"} <= set(table.columns)
    assert table["match_realized"].iloc[0] == pytest.approx(rows["realized_match"].mean())
    assert main(["report", str(out), "--format", "md"]) == 0
    report = (out / "report" / "report.md").read_text()
    assert "The chance of winning the match" in report and "3 matches" in report
    assert (out / "report" / "plots" / "reliability_match.png").exists()
    capsys.readouterr()


def test_a_drawn_match_counts_half_in_every_measure():
    """A drawn match (Minchiate's match can end level) is an outcome of 1/2: the bins' share,
    the ECE and the Brier score take it as half a win; a forecaster of 1/2 for matches that are
    all drawn is perfectly calibrated and sharp."""
    p, o = np.full(50, 0.55), np.array([1.0, 0.5] * 25)
    bins = C.reliability(p, o)
    assert bins["realized"].tolist() == [0.75] and bins["realized_lo"].iloc[0] < 0.75
    assert C.ece(p, o) == pytest.approx(0.2)
    assert C.ece(np.full(9, 0.5), np.full(9, 0.5)) == 0
    assert C.brier(np.full(9, 0.5), np.full(9, 0.5))["brier"] == 0
