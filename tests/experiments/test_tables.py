"""cardsim.experiments.tables: hand-worked small tables, and the intervals checked against exact truth.

Hand-made rows follow the store's row format (2 players, duplicate: in rotation r seat s is
played by matchup[(s + r) % 2]). The truth checks play real deals and verify that the 95%
intervals the tables report cover an exactly known probability at the right rate.
"""
import math
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from cardsim.experiments.tables import (
    TableError,
    agent_results,
    category_table,
    dealer_table,
    end_table,
    format_table,
    half_width,
    matchup_agents,
    matchup_table,
    report_tables,
    seat_table,
    thinking_table,
)
from cardsim.simulate import play_random_deals
from cardsim.stats import mean_interval, t95, wilson_interval

AGENTS = ["A", "B"]

T_2 = 4.302652729911275     # the 97.5% point of Student's t with 2 degrees of freedom


def duplicate_rows(a_returns, matchup=0, dealers=None, extra=None):
    """2-player rows from agent A's return per (deal, rotation): A (agent 0) sits at seat 0 in
    rotation 0 and at seat 1 in rotation 1; the game is zero-sum."""
    rows = []
    for (deal, rot), v in sorted(a_returns.items()):
        a_seat = rot % 2
        row = {"matchup": matchup, "deal": deal, "rotation": rot, "seed": 100 + deal,
               "dealer": (dealers or {}).get(deal, 0), "seat_0": 0 if a_seat == 0 else 1,
               "seat_1": 1 if a_seat == 0 else 0, "return_0": float(v if a_seat == 0 else -v),
               "return_1": float(-v if a_seat == 0 else v), "moves": 10, "seconds": 0.02}
        row.update((extra or {}).get((deal, rot), {}))
        rows.append(row)
    return pd.DataFrame(rows)


# A's returns: deal 0 (+2, +1), deal 1 (0, -1), deal 2 (+3, -3)
BASIC = {(0, 0): 2, (0, 1): 1, (1, 0): 0, (1, 1): -1, (2, 0): 3, (2, 1): -3}


def test_agent_results_long_form():
    long = agent_results(duplicate_rows(BASIC), AGENTS)
    assert len(long) == 12
    a = long[long["agent"] == 0]
    assert a["return"].tolist() == [2, 1, 0, -1, 3, -3]
    assert a["seat"].tolist() == [0, 1, 0, 1, 0, 1]
    assert a["win"].sum() == 3 and a["draw"].sum() == 1 and a["loss"].sum() == 2
    assert a["score"].tolist() == [1, 1, 0.5, 0, 1, 0]
    assert set(a["opponents"]) == {"B"} and set(long.loc[long["agent"] == 1, "opponents"]) == {"A"}
    assert set(long["label"]) == {"A vs B"}
    assert long.attrs["note"]


def test_matchup_table_by_hand():
    t = matchup_table(duplicate_rows(BASIC), AGENTS).set_index("name")
    a, b = t.loc["A"], t.loc["B"]
    assert (a["games"], a["deals"], a["wins"], a["draws"], a["losses"]) == (6, 3, 3, 1, 2)
    assert (b["wins"], b["draws"], b["losses"]) == (2, 1, 3)
    # rates over the deals: A's wins per deal 2, 0, 1 of 2 (p 1/2): the ratio estimator's
    # variance 3/2 * (1 + 1 + 0) / 6**2 = 1/12, so 3 effective games; Student's t, 3 deals
    assert (a["win_rate"], a["win_rate_lo"], a["win_rate_hi"]) == pytest.approx(
        wilson_interval(1.5, 3, t95(3)))
    assert (b["loss_rate"], b["loss_rate_lo"], b["loss_rate_hi"]) == pytest.approx(
        wilson_interval(1.5, 3, t95(3)))
    assert a["draw_rate"] == pytest.approx(1 / 6)
    assert a["score"] == pytest.approx(3.5 / 6)
    # paired: per-deal means 1.5, -0.5, 0 -> mean 1/3, sd sqrt(13/12), se sqrt(13/36); the
    # interval's factor is Student's t with 2 degrees of freedom (3 deals)
    se = math.sqrt(13 / 36)
    assert a["mean_return"] == pytest.approx(1 / 3)
    assert a["return_se"] == pytest.approx(se)
    assert a["mean_return_lo"] == pytest.approx(1 / 3 - T_2 * se)
    assert a["mean_return_hi"] == pytest.approx(1 / 3 + T_2 * se)
    # unpaired: the 6 game returns 2, 1, 0, -1, 3, -3: sd sqrt(14/3), se sqrt(14/18)
    assert a["return_se_unpaired"] == pytest.approx(math.sqrt(14 / 18))
    # zero-sum 2-player: the margin is the first agent's mean return; B's is its negative
    assert a["margin"] == pytest.approx(1 / 3) and b["margin"] == pytest.approx(-1 / 3)
    assert b["margin_lo"] == pytest.approx(-a["margin_hi"])
    assert b["mean_return"] == pytest.approx(-1 / 3)
    assert a["moves"] == 10 and a["ms_per_move"] == pytest.approx(2.0)
    assert "Wilson" in matchup_table(duplicate_rows(BASIC), AGENTS).attrs["note"]


def test_paired_se_removes_the_luck_of_the_cards():
    """Each deal favours seat 0 by a large deal-specific amount L_d; A is 0.5 better. Rotation
    0: A at seat 0 gets L_d + 0.5; rotation 1: A at seat 1 gets -(L_d - 0.5). Paired per deal
    A gets exactly 0.5, so the paired SE is 0 while the unpaired SE is large."""
    luck = [10, -4, 7, 0, 3]
    a_returns = {}
    for d, lk in enumerate(luck):
        a_returns[(d, 0)] = lk + 0.5
        a_returns[(d, 1)] = -(lk - 0.5)
    a = matchup_table(duplicate_rows(a_returns), AGENTS).set_index("name").loc["A"]
    assert a["mean_return"] == pytest.approx(0.5)
    assert a["return_se"] == pytest.approx(0.0, abs=1e-12)
    assert a["return_se_unpaired"] > 1.0
    assert half_width(duplicate_rows(a_returns), AGENTS, 0) == pytest.approx(0.0, abs=1e-12)


def test_without_rotation_paired_is_plain_se():
    a_returns = {(d, 0): v for d, v in enumerate([1, -2, 4, 0, 3, 1])}
    rows = duplicate_rows(a_returns)
    a = matchup_table(rows, AGENTS).set_index("name").loc["A"]
    assert a["return_se"] == pytest.approx(a["return_se_unpaired"])
    assert (a["mean_return"], a["mean_return_lo"], a["mean_return_hi"]) == pytest.approx(
        mean_interval(np.array([1, -2, 4, 0, 3, 1.0])))


def test_half_width():
    rows = duplicate_rows(BASIC)
    assert half_width(rows, AGENTS, 0) == pytest.approx(T_2 * math.sqrt(13 / 36))
    assert half_width(duplicate_rows({(0, 0): 1, (0, 1): 2}), AGENTS, 0) == math.inf
    assert half_width(rows, AGENTS, 7) == math.inf            # no rows yet for matchup 7


def test_seat_table():
    t = seat_table(duplicate_rows(BASIC)).set_index("seat")
    # seat 0 per deal: (2 + -1)/2, (0 + 1)/2, (3 + 3)/2 -> 0.5, 0.5, 3
    assert t.loc[0, "mean_return"] == pytest.approx(4 / 3)
    assert t.loc[1, "mean_return"] == pytest.approx(-4 / 3)
    assert t.loc[0, "mean_return_lo"] == pytest.approx(mean_interval(np.array([.5, .5, 3]))[1])
    # seat 0 wins 1, 1, 2 of 2 per deal (p 2/3): variance 3/2 * (1/9 + 1/9 + 4/9) / 36 = 1/36,
    # so 8 effective games
    assert (t.loc[0, "win_rate"], t.loc[0, "win_rate_lo"]) == pytest.approx(
        wilson_interval(16 / 3, 8, t95(3))[:2])
    assert "seat" in seat_table(duplicate_rows(BASIC)).attrs["note"]


def test_dealer_advantage_sign():
    """Dealer seat alternates by deal; the dealer's returns are +2, +1 (deal 0), +1, 0 (deal 1),
    +3, -1 (deal 2): a positive dealer advantage."""
    dealers = {0: 0, 1: 1, 2: 0}
    dealer_return = {(0, 0): 2, (0, 1): 1, (1, 0): 1, (1, 1): 0, (2, 0): 3, (2, 1): -1}
    a_returns = {}
    for (d, r), v in dealer_return.items():
        a_seat = r % 2
        a_returns[(d, r)] = v if a_seat == dealers[d] else -v
    table = dealer_table(duplicate_rows(a_returns, dealers=dealers)).set_index("position")
    # per deal: 1.5, 0.5, 1.0 -> mean 1.0
    assert table.loc["dealer", "mean_return"] == pytest.approx(1.0)
    assert table.loc["dealer+1", "mean_return"] == pytest.approx(-1.0)
    assert table.loc["dealer - others", "mean_return"] == pytest.approx(2.0)
    assert table.loc["dealer", "mean_return_lo"] == pytest.approx(
        mean_interval(np.array([1.5, 0.5, 1.0]))[1])
    assert table.loc["dealer", "win_rate"] == pytest.approx(4 / 6)
    # the other sign
    flipped = {k: -v for k, v in a_returns.items()}
    table = dealer_table(duplicate_rows(flipped, dealers=dealers)).set_index("position")
    assert table.loc["dealer - others", "mean_return"] == pytest.approx(-2.0)


def test_category_and_end_tables():
    # pile points per seat; A sits at seat (rotation % 2)
    piles = {(0, 0): (70, 50), (0, 1): (40, 80), (1, 0): (61, 59), (1, 1): (60, 60)}
    ends = {(0, 0): "claim_won", (0, 1): "bura", (1, 0): "claim_won", (1, 1): "most_points"}
    extra = {k: {"cat_pile_0": float(p0), "cat_pile_1": float(p1), "end": ends[k]}
             for k, (p0, p1) in piles.items()}
    rows = duplicate_rows({(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 0}, extra=extra)
    t = category_table(rows, AGENTS).set_index(["name", "category"])
    # A: deal 0 (70 + 80)/2 = 75, deal 1 (61 + 60)/2 = 60.5 -> 67.75; B: 45, 59.5 -> 52.25
    assert t.loc[("A", "pile"), "mean"] == pytest.approx(67.75)
    assert t.loc[("B", "pile"), "mean"] == pytest.approx(52.25)
    assert t.loc[("A", "pile"), "games"] == 4 and t.loc[("A", "pile"), "deals"] == 2
    lo, hi = mean_interval(np.array([75, 60.5]))[1:]
    assert (t.loc[("A", "pile"), "mean_lo"], t.loc[("A", "pile"), "mean_hi"]) == pytest.approx(
        (lo, hi))
    e = end_table(rows, AGENTS).set_index("end")
    assert e.loc["claim_won", "count"] == 2 and e.loc["claim_won", "games"] == 4
    assert (e.loc["claim_won", "share"], e.loc["claim_won", "share_lo"],
            e.loc["claim_won", "share_hi"]) == pytest.approx(wilson_interval(2, 4, t95(2)))
    # (one claim won in each deal: no spread between the deals, the games count as
    # independent; Student's t with the deals' one degree of freedom)
    assert e["count"].sum() == 4
    no_end = end_table(duplicate_rows(BASIC), AGENTS)
    assert no_end.empty and "no end column" in no_end.attrs["note"]
    assert category_table(duplicate_rows(BASIC), AGENTS).empty


def test_three_seats_rotation_and_partnerships():
    """3 seats, matchup (2, 0, 1): in rotation r seat s is played by matchup[(s + r) % 3]."""
    m = (2, 0, 1)
    rows = []
    for r in range(3):
        seats = [m[(s + r) % 3] for s in range(3)]
        rows.append({"matchup": 4, "deal": 0, "rotation": r, "dealer": 0,
                     **{f"seat_{s}": seats[s] for s in range(3)},
                     **{f"return_{s}": float(seats[s]) - 1 for s in range(3)},
                     "moves": 5, "seconds": 0.0})
    rows = pd.DataFrame(rows)
    assert matchup_agents(rows) == {4: m}
    t = matchup_table(rows, ["x", "y", "z"])
    assert t["name"].tolist() == ["z", "x", "y"] and set(t["label"]) == {"z vs x vs y"}
    assert t.set_index("name")["mean_return"].to_dict() == {"z": 1.0, "x": -1.0, "y": 0.0}
    assert t["margin"].isna().all()                  # 3 agents: no margin

    # 2x2 partnership (0, 1, 0, 1): an agent's return is the mean over its two seats
    rows = pd.DataFrame([{"matchup": 0, "deal": 0, "rotation": 0, "dealer": 3,
                          "seat_0": 0, "seat_1": 1, "seat_2": 0, "seat_3": 1,
                          "return_0": 3.0, "return_1": -3.0, "return_2": 3.0, "return_3": -3.0}])
    long = agent_results(rows, AGENTS)
    assert long["seats"].tolist() == [2, 2] and long["return"].tolist() == [3.0, -3.0]
    assert matchup_table(rows, AGENTS)["games"].tolist() == [1, 1]


def test_bad_rows_are_named():
    rows = duplicate_rows(BASIC)
    with pytest.raises(TableError, match="appears more than once"):
        matchup_table(pd.concat([rows, rows.iloc[:1]]), AGENTS)
    with pytest.raises(TableError, match="'return_1'"):
        matchup_table(rows.drop(columns=["return_1"]), AGENTS)
    with pytest.raises(TableError, match="agent index 1"):
        matchup_table(rows, ["only"])
    bad = rows.copy()
    bad.loc[1, ["seat_0", "seat_1"]] = [0, 1]            # rotation 1 but not swapped
    with pytest.raises(TableError, match="matchup 0"):
        matchup_table(bad, AGENTS)
    with pytest.raises(ValueError, match="dealer=5"):
        dealer_table(rows.assign(dealer=5))


def test_empty_rows_and_formatting():
    empty = duplicate_rows(BASIC).iloc[:0]
    for table in report_tables(empty, AGENTS).values():
        assert table.empty and table.attrs["note"]
    tables = report_tables(duplicate_rows(BASIC), AGENTS,
                           sprt={"kind": "margin", "lower": 0, "upper": 1})
    assert set(tables) == {"matchups", "seats", "dealer", "categories", "ends", "thinking",
                           "ratings", "sprt"}
    assert all(t.attrs["note"] for t in tables.values())
    f = format_table(tables["matchups"])
    assert "win_rate_lo" not in f.columns
    assert f["win_rate"].iloc[0] == "0.500 [0.036, 0.964]"
    assert f.attrs["note"] == tables["matchups"].attrs["note"]


# --- statistics checked against truth ---------------------------------------------------------
#
# Bura, default rules, 2 players (BU-DEAL-5): a deal is cancelled and dealt again when a hand
# holds bura (3 trumps) right after the deal. The turned trump card is uniform, so each hand is
# a uniform 3-subset of the other 35 cards, 8 of them trumps; the two hands are disjoint:
#     P(cancel) = 2·C(8,3)/C(35,3) - C(8,3)·C(5,3)/(C(35,3)·C(32,3)) = 991/57970 ≈ 0.017095.
# Every attempt is an independent Bernoulli(p) trial, so a deal's ``redeals`` is geometric:
# P(redeals >= 1) = p and E[redeals] = p / (1 - p).
# Scopa, default rules (SC-DEAL-3): 3 or 4 kings among the 4 table cards,
#     P(cancel) = (C(4,3)·C(36,1) + 1) / C(40,4) = 145/91390 ≈ 0.0015866.

P_BURA = Fraction(991, 57970)
P_SCOPA = Fraction(145, 91390)


def test_exact_probabilities_by_counting():
    direct = (2 * Fraction(comb(8, 3), comb(35, 3))
              - Fraction(comb(8, 3) * comb(5, 3), comb(35, 3) * comb(32, 3)))
    # independently: k trumps among the 6 dealt cards, split j / k - j between the hands
    split = sum(Fraction(comb(8, k) * comb(27, 6 - k), comb(35, 6))
                * Fraction(comb(k, j) * comb(6 - k, 3 - j), comb(6, 3))
                for k in range(7) for j in range(4) if j <= k and k - j <= 3
                and (j == 3 or k - j == 3))
    assert direct == split == P_BURA
    assert Fraction(comb(4, 3) * comb(36, 1) + 1, comb(40, 4)) == P_SCOPA


def exact_wilson_coverage(p: float, n: int) -> float:
    ks = np.arange(n + 1)
    covered = [wilson_interval(int(k), n)[1] <= p <= wilson_interval(int(k), n)[2] for k in ks]
    return float(binom.pmf(ks[covered], n, p).sum())


def redeal_rows(records: pd.DataFrame) -> pd.DataFrame:
    """Store rows from random deals: agent 0 'wins' (return +1) a deal that was redealt and
    draws otherwise; ``cat_redeals_<s>`` is the deal's number of redeals."""
    redealt = (records["redeals"].to_numpy() > 0).astype(np.float64)
    n = len(records)
    return pd.DataFrame({
        "matchup": 0, "deal": np.arange(n), "rotation": 0, "seed": 0,
        "dealer": records["dealer"].to_numpy(), "seat_0": 0, "seat_1": 1,
        "return_0": redealt, "return_1": -redealt, "moves": records["moves"].to_numpy(),
        "seconds": 0.0, "cat_redeals_0": records["redeals"].to_numpy(np.float64),
        "cat_redeals_1": records["redeals"].to_numpy(np.float64)})


def intervals(game: str, batches: int, deals: int, with_mean: bool):
    """Per seeded batch: the reported Wilson interval of agent 0's win rate (= the share of
    redealt deals) and, with ``with_mean``, the interval of its mean ``redeals``."""
    wilson, mean = [], []
    for b in range(batches):
        _, records = play_random_deals(game, deals, seed=7_000_000 + b)
        rows = redeal_rows(records)
        a = matchup_table(rows, ["redeal", "other"]).iloc[0]
        assert a["agent"] == 0 and a["games"] == deals
        wilson.append((a["win_rate_lo"], a["win_rate_hi"]))
        if with_mean:
            c = category_table(rows, ["redeal", "other"]).iloc[0]
            assert c["category"] == "redeals" and c["agent"] == 0
            mean.append((c["mean_lo"], c["mean_hi"]))
    return np.array(wilson), np.array(mean)


def hits(bounds: np.ndarray, value: float) -> int:
    return int(((bounds[:, 0] <= value) & (value <= bounds[:, 1])).sum())


def check_coverage(hits: int, batches: int, expected: float) -> None:
    """Within the central 99.9% of Binomial(batches, expected) and within [0.90, 0.99]."""
    lo, hi = binom.ppf(0.0005, batches, expected), binom.isf(0.0005, batches, expected)
    assert lo <= hits <= hi, f"{hits}/{batches} covered, expected about {expected:.3f}"
    assert 0.90 <= hits / batches <= 0.99, f"{hits}/{batches} covered"


def test_bura_redeal_interval_coverage():
    """200 seeded batches of 2000 Bura deals: the Wilson 95% interval of the win rate (and the
    paired-mean interval of E[redeals]) that the tables report covers the exact value in
    about 95% of the batches (exact Wilson coverage at n=2000, p=991/57970: 0.953), and a
    value 50% off in few of them (the check has power)."""
    batches, deals, p = 200, 2000, float(P_BURA)
    expected = exact_wilson_coverage(p, deals)
    assert 0.94 <= expected <= 0.96
    wilson, mean = intervals("bura", batches, deals, with_mean=True)
    check_coverage(hits(wilson, p), batches, expected)
    check_coverage(hits(mean, p / (1 - p)), batches, 0.95)
    assert hits(wilson, 1.5 * p) < 0.5 * batches
    assert hits(mean, 1.5 * p / (1 - p)) < 0.5 * batches


def test_scopa_redeal_interval_coverage():
    """200 seeded batches of 5000 Scopa deals (about 8 redealt deals each): the Wilson
    interval covers 145/91390 at its exact rate (0.953 at n=5000)."""
    batches, deals, p = 200, 5000, float(P_SCOPA)
    expected = exact_wilson_coverage(p, deals)
    assert 0.94 <= expected <= 0.96
    wilson, _ = intervals("scopa", batches, deals, with_mean=False)
    check_coverage(hits(wilson, p), batches, expected)
    assert hits(wilson, 3 * p) < 0.3 * batches


def test_thinking_table_per_decision_and_time_ratio():
    """Thinking time per decision from ``think_<s>``/``decisions_<s>`` (store schema 2), per
    agent over its seats: A thinks 0.02 s over 10 decisions (2 ms) in every game, B 0.03 s over
    10 (3 ms): the ratio B/A is 1.5; a NaN (untimed) agent has no figure."""
    extra = {}
    for deal in range(3):
        for rot in range(2):
            a = rot % 2                      # A's seat
            extra[(deal, rot)] = {f"think_{a}": 0.02, f"think_{1 - a}": 0.03,
                                  "decisions_0": 10, "decisions_1": 10}
    rows = duplicate_rows({(d, r): 1 for d in range(3) for r in range(2)}, extra=extra)
    table = thinking_table(rows, AGENTS).set_index("name")
    assert table.loc["A", "ms_per_decision"] == pytest.approx(2.0)
    assert table.loc["B", "ms_per_decision"] == pytest.approx(3.0)
    assert table.loc["A", "time_ratio"] == pytest.approx(1.0)
    assert table.loc["B", "time_ratio"] == pytest.approx(1.5)
    assert (table["decisions"] == 10).all() and (table["games"] == 6).all()
    for deal, rot in extra:
        extra[(deal, rot)][f"think_{1 - rot % 2}"] = float("nan")        # B is not timed
    table = thinking_table(duplicate_rows({k: 1 for k in extra}, extra=extra), AGENTS)
    assert math.isnan(table.set_index("name").loc["B", "ms_per_decision"])


def test_thinking_table_of_rows_without_thinking_times_is_empty_and_says_why():
    """Rows of a store of schema version 1 carry no thinking times: an empty table whose note
    says so."""
    table = thinking_table(duplicate_rows({(0, 0): 1, (0, 1): -1}), AGENTS)
    assert table.empty and "schema version 1" in table.attrs["note"]
