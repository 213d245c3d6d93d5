"""The rating list (cardsim/experiments/ratings.py): Bradley–Terry Elo from duplicate round robins."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cardsim.experiments.ratings import fit_strengths, rating_table


def pair_rows(matchup: int, a: int, b: int, wins: int, losses: int, draws: int = 0):
    """2-player duplicate rows of matchup ``(a, b)``: per deal both rotations go the same way
    for ``a`` — ``wins`` deals won twice, ``losses`` lost twice, ``draws`` drawn twice."""
    rows, deal = [], 0
    for outcome, count in ((1.0, wins), (-1.0, losses), (0.0, draws)):
        for _ in range(count):
            for rot in range(2):
                a_seat = rot
                ret_a = outcome
                rows.append({"matchup": matchup, "deal": deal, "rotation": rot,
                             "seat_0": a if a_seat == 0 else b, "seat_1": b if a_seat == 0 else a,
                             "return_0": ret_a if a_seat == 0 else -ret_a,
                             "return_1": -ret_a if a_seat == 0 else ret_a})
            deal += 1
    return rows


def test_two_agents_rating_difference_is_the_log_odds_of_their_score():
    """Two agents, A scoring 300 of 400 deals: the one virtual draw makes it 300.5 to 100.5,
    and the Elo difference is 400·log10(300.5 / 100.5) exactly (the two-agent maximum
    likelihood); A is listed first, the heuristic (B) is the anchor at 0."""
    rows = pd.DataFrame(pair_rows(0, 0, 1, wins=300, losses=100))
    table = rating_table(rows, ["ismcts", "heuristic"], bootstrap=50)
    assert list(table["name"]) == ["ismcts", "heuristic"]
    assert table["elo"][0] == pytest.approx(400 * math.log10(300.5 / 100.5), abs=1e-6)
    assert table["elo"][1] == 0.0 and table["score"][0] == pytest.approx(0.75)
    assert table["elo_lo"][0] < table["elo"][0] < table["elo_hi"][0]
    assert table["deals"].tolist() == [400, 400] and "heuristic = 0" in table.attrs["note"]


def test_three_agents_of_known_strengths_are_recovered():
    """A round robin whose scores follow Bradley–Terry exactly (ratings 0, 100, 250; 4,000 deals
    per pair, scores rounded to whole deals): the fitted ratings are the true ones within
    1 Elo; the same rows give the same table (the bootstrap has a fixed seed)."""
    true = np.array([0.0, 100.0, 250.0])
    rows, m = [], 0
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            wins = round(4000 * p)
            rows += pair_rows(m, i, j, wins=wins, losses=4000 - wins)
            m += 1
    rows = pd.DataFrame(rows)
    agents = ["heuristic", "b", "c"]
    table = rating_table(rows, agents, bootstrap=100).set_index("name")
    for k, name in enumerate(agents):
        assert table.loc[name, "elo"] == pytest.approx(true[k], abs=1.0)
        assert table.loc[name, "elo_lo"] <= table.loc[name, "elo"] <= table.loc[name, "elo_hi"]
    assert rating_table(rows, agents, bootstrap=100).equals(rating_table(rows, agents,
                                                                         bootstrap=100))


def test_an_agent_not_linked_to_the_anchor_has_no_rating():
    rows = pd.DataFrame(pair_rows(0, 0, 1, 6, 4) + pair_rows(1, 2, 3, 5, 5))
    table = rating_table(rows, ["heuristic", "b", "c", "d"], bootstrap=20).set_index("name")
    assert not math.isnan(table.loc["b", "elo"])
    assert math.isnan(table.loc["c", "elo"]) and math.isnan(table.loc["d", "elo_lo"])


def test_an_agent_that_wins_every_deal_has_a_finite_rating():
    table = rating_table(pd.DataFrame(pair_rows(0, 0, 1, wins=50, losses=0)),
                         ["a", "heuristic"], bootstrap=20)
    assert np.isfinite(table["elo"]).all() and table["elo"][0] > 300


def test_fit_strengths_solves_the_likelihood_equations():
    """At the maximum, each agent's points equal its expected points (the score equations)."""
    wins = np.array([[0, 30, 12], [20, 0, 25], [8, 15, 0]], dtype=float)
    n = wins + wins.T
    g = fit_strengths(wins, n)
    expected = (n * g[:, None] / (g[:, None] + g[None, :])).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1), rel=1e-9)


def test_the_medium_level_anchors_the_list_as_the_heuristic_does():
    """``medium`` stands for the heuristic (the named levels): it is the anchor at 0."""
    rows = pd.DataFrame(pair_rows(0, 0, 1, wins=30, losses=10) + pair_rows(1, 1, 2, 20, 20))
    table = rating_table(rows, ["easy", "medium", "random"], bootstrap=20).set_index("name")
    assert table.loc["medium", "elo"] == 0 and table.loc["easy", "elo"] > 0


def test_in_a_game_that_is_not_zero_sum_the_score_is_head_to_head():
    """Mushka-like rows (4 seats, one agent against a field of the other, every record written
    down a little): the searcher's return is above 0 in every game but below the field's in
    3 deals of 4, so it scores 1/4 against the heuristic, not 1 — the rating list compares
    the two agents at the same table, not each with 0."""
    rows = []
    for deal in range(400):
        beaten = deal % 4 != 0
        for rot in range(4):
            row = {"matchup": 0, "deal": deal, "rotation": rot}
            for s in range(4):
                k = (0, 1, 1, 1)[(s + rot) % 4]
                row[f"seat_{s}"] = k
                row[f"return_{s}"] = (1.0 if beaten else 3.0) if k == 0 else 2.0
            rows.append(row)
    table = rating_table(pd.DataFrame(rows), ["ismcts", "heuristic"],
                         bootstrap=20).set_index("name")
    assert table.loc["ismcts", "score"] == pytest.approx(0.25)
    assert table.loc["ismcts", "elo"] == pytest.approx(400 * math.log10(100.5 / 300.5),
                                                       abs=1e-6)


def test_the_elo_interval_is_the_bootstrap_widened_for_few_deals(monkeypatch):
    """The percentile interval of the bootstrap, widened about the rating by the factor that
    makes a mean's bootstrap interval a Student's t one at the fewest deals a pair played (12
    here: 1.16); the anchor keeps [0, 0]."""
    from cardsim.experiments import ratings
    from cardsim.stats import bootstrap_widening
    rows = pd.DataFrame(pair_rows(0, 0, 1, wins=8, losses=4)
                        + pair_rows(1, 1, 2, wins=9, losses=6, draws=1))
    agents = ["a", "heuristic", "c"]
    wide = rating_table(rows, agents, bootstrap=200).set_index("name")
    monkeypatch.setattr(ratings, "bootstrap_widening", lambda n: 1.0)
    raw = rating_table(rows, agents, bootstrap=200).set_index("name")
    k = bootstrap_widening(12)
    assert k == pytest.approx(2.200985 / 1.959964 * math.sqrt(12 / 11), abs=1e-5)
    for side in ("elo_lo", "elo_hi"):
        assert (wide[side] - wide["elo"]).to_numpy() == pytest.approx(
            (raw[side] - raw["elo"]).to_numpy() * k)
    assert wide.loc["heuristic", ["elo_lo", "elo_hi"]].tolist() == [0.0, 0.0]
