"""Mushka's game equity from whole games (:mod:`cardsim.experiments.records_equity`): the rules
the games follow, the chances' sums and symmetry, the deal-by-deal snapshots, the folder and the
command line."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.app.cli import main
from cardsim.experiments.equity import EquityError
from cardsim.experiments.records_equity import (
    GameEquityConfig,
    check,
    parse_records,
    play_games,
    read_games,
    run_game_equity,
)

RULES = {"max_deals": 50}


def query(records, games=300, seed=0, rules=RULES, agents=("heuristic", "heuristic")):
    return GameEquityConfig(game="mushka", rules=dict(rules), agents=agents, games=games, seed=seed,
                            records=tuple(records))


def overlap(a: pd.Series, b: pd.Series) -> bool:
    """Whether two rows' 95% intervals overlap."""
    return a["p_low"] <= b["p_high"] and b["p_low"] <= a["p_high"]


# --- the rules the games follow ----------------------------------------------------------------

def test_mu_stop_1_mu_match_1_a_seat_at_record_1_wins_far_more_often(tmp_path):
    """MU-STOP-1, MU-MATCH-1: the first to write his record down to exactly 0 wins the game, so
    a seat at 1 (one trick to go) against three at 25 wins far more often than 1 in 4 — and
    more often than the other three together."""
    table, rows = run_game_equity(query([25, 1, 25, 25]), tmp_path, progress=False)
    one = table.iloc[1]
    assert one["record"] == 1 and one["p_low"] > 0.5
    assert all(one["p_low"] > table.iloc[p]["p_high"] for p in (0, 2, 3))
    assert table["p_win"].sum() == pytest.approx(1.0)
    assert not rows["cut"].any()              # every game stopped at 0 (MU-STOP-1)


def test_mu_match_2_a_game_without_max_deals_is_refused_in_one_line(capsys):
    """MU-MATCH-2: without max_deals a game may never end, so whole games are refused; the one
    line names the option."""
    with pytest.raises(EquityError, match="max_deals=N"):
        check(GameEquityConfig(game="mushka", rules={}, games=10))
    for argv in (["equity", "mushka"], ["equity", "mushka", "--records", "3,12,20,25"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("cardsim: error:") and "max_deals" in err[0]


def test_mu_match_2_max_deals_ends_games_with_the_lowest_record_winning():
    """MU-MATCH-2: max_deals=1 ends every game that nobody stopped after its first deal, won by
    the lowest record (a tie shares the win), so every game has its winners and the seats'
    shares add up to 1."""
    config = query([9, 20, 25, 30], games=200, rules={"max_deals": 1})
    rows = play_games(config.to_dict(), 0, config.games)
    assert (rows["deals"] == 1).all() and rows["cut"].mean() > 0.5
    wins = rows[[f"win_{p}" for p in range(4)]].to_numpy()
    final = rows[[f"final_{p}" for p in range(4)]].to_numpy()
    np.testing.assert_allclose(wins.sum(axis=1), 1.0)
    cut = rows["cut"].to_numpy()
    lowest = final == final.min(axis=1, keepdims=True)
    assert ((wins > 0) == lowest)[cut].all()
    assert (final[~cut][wins[~cut] > 0] == 0).all()        # the others stopped at 0


@pytest.mark.parametrize("players", [3, 7])
def test_the_chances_of_every_seat_add_up_to_1(players):
    """The positions' chances add up to 1 (MU-MATCH-1/2: every game has a winner; a tie's win
    is shared), for 3 and 7 players, with random and heuristic players mixed."""
    from cardsim.experiments.records_equity import chances
    records = [5 * p + 3 for p in range(players)]
    config = query(records, games=60, rules={"max_deals": 20, "num_players": players},
                   agents=("random", "heuristic"))
    rows = play_games(config.to_dict(), 0, config.games)
    table = chances(rows, config)
    assert table["p_win"].sum() == pytest.approx(1.0)
    assert (rows["agent_0"] == 0).all() and (rows[[f"agent_{p}" for p in range(1, players)]]
                                             == 1).all().all()


def test_with_equal_records_and_one_agent_only_the_deal_order_matters():
    """With equal records and one agent the seats differ only by where they sit after the
    dealer: grouping the games by the seat the lot made dealer (MU-DEAL-1), each position's
    chance agrees across the groups within the 95% intervals."""
    from cardsim.stats import wilson_interval
    config = query([25, 25, 25, 25], games=1600, seed=3)
    rows = play_games(config.to_dict(), 0, config.games)
    for p in range(4):
        groups = [wilson_interval(float(g[f"win_{p}"].sum()), len(g))
                  for _, g in rows.groupby("dealer")]
        assert len(groups) == 4
        assert max(lo for _, lo, _ in groups) <= min(hi for _, _, hi in groups), (p, groups)


# --- the mover table ------------------------------------------------------------------------

@pytest.mark.parametrize("rules, agents", [
    ({"max_deals": 50}, ("heuristic", "heuristic")),
    ({"max_deals": 30, "num_players": 3}, ("random", "heuristic")),
    ({"max_deals": 20, "num_players": 7, "stop_mode": "declared"}, ("random", "random")),
    ({"max_deals": 40, "num_players": 5, "dealer_takes_trump_card": True,
      "lone_player": "redeal", "ace_bonus_timing": "end_of_deal"}, ("heuristic", "random")),
])
def test_the_deal_starts_are_those_of_a_move_by_move_walk(rules, agents):
    """The compiled loop's jumps (a lower bound on the deal's moves left, plus a deal's least
    moves less one) see every deal's start: the snapshots equal those read after every move,
    under rules that change how a deal ends (MU-STOP-4, MU-PASS-3, MU-SCORE-3, MU-DEAL-3)."""
    config = GameEquityConfig(game="mushka", rules=rules, agents=agents, games=25, seed=5)
    fast = play_games(config.to_dict(), 0, config.games)
    pd.testing.assert_frame_equal(fast, play_games(config.to_dict(), 0, config.games, walk=True))
    assert fast.groupby("game")["deal"].max().gt(1).any()


def test_the_table_agrees_with_a_records_query_in_a_cell_visited_in_every_game(tmp_path):
    """The mover table's cell (25, 25) — every game's first deal, and later deals with nobody
    below 25 — against a records query from 25, 25, 25, 25 on other games: the intervals
    overlap. Two agents: the table counts only the deals where agent A's seat moves."""
    config = GameEquityConfig(game="mushka", rules=RULES, agents=("random", "heuristic"), games=800,
                              seed=1, boot=50)
    table, rows = run_game_equity(config, tmp_path / "table", progress=False)
    assert table["count"].sum() == (rows["agent_0"] == 0).sum() < len(rows)
    assert sorted(rows.groupby("game")["agent_0"].size().index % 4) == sorted(
        list(range(4)) * 200)
    cell = table[(table["mover_record"] == 25) & (table["best_other"] == 25)].iloc[0]
    assert cell["count"] >= 150 and cell["p_low"] <= cell["p_win"] <= cell["p_high"]
    direct, _ = run_game_equity(query([25] * 4, games=800, seed=2,
                                      agents=("random", "heuristic")),
                                tmp_path / "query", progress=False)
    assert overlap(cell, direct.iloc[0]), (cell, direct.iloc[0])


def test_records_above_start_plus_10_share_one_row_and_column():
    from cardsim.experiments.records_equity import mover_table
    config = GameEquityConfig(game="mushka", rules=RULES, games=40, seed=2, boot=10)
    rows = play_games(config.to_dict(), 0, config.games)
    table = mover_table(rows, config, 25)
    assert table["mover_record"].max() <= 35 and table["best_other"].max() <= 35
    assert (table["p_low"] <= table["p_win"] + 1e-12).all()
    assert list(table.columns) == ["mover_record", "best_other", "p_win", "p_low", "p_high",
                                   "games", "count"]


# --- the folder and the command line --------------------------------------------------------

def test_same_seed_same_table_on_1_or_2_jobs_and_after_a_lost_batch(tmp_path):
    config = GameEquityConfig(game="mushka", rules=RULES, games=120, seed=4, boot=20, batch_size=20)
    one, rows = run_game_equity(config, tmp_path / "one", jobs=1, progress=False)
    two, rows_two = run_game_equity(config, tmp_path / "two", jobs=2, progress=False)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(rows, rows_two)
    (tmp_path / "one" / "games" / "b000003.parquet").unlink()
    (tmp_path / "one" / "games" / "b000004.parquet").write_bytes(b"damaged")
    with pytest.raises(EquityError, match="missing or damaged"):
        read_games(tmp_path / "one")
    again, _ = run_game_equity(config, tmp_path / "one", jobs=1, progress=False)
    pd.testing.assert_frame_equal(one, again)
    csv = pd.read_csv(tmp_path / "one" / "equity.csv")
    assert list(csv.columns)[:5] == ["mover_record", "best_other", "p_win", "p_low", "p_high"]


def test_a_folder_of_another_request_is_refused_in_one_line(tmp_path, capsys):
    out = str(tmp_path / "eq")
    base = ["equity", "mushka", "--option", "max_deals=50", "--games", "20", "--out", out,
            "--quiet"]
    assert main(base + ["--records", "3,12,20,25"]) == 0
    text = capsys.readouterr().out
    assert "mover (dealer's left)" in text and "chances add up to 1.000000" in text
    assert main(base + ["--records", "3,12,20,24"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another request" in err[0] and "records" in err[0]
    assert main(["equity", "scopa", "--deals", "20", "--boot", "10", "--out", out,
                 "--quiet"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize("extra", [["--records", "3,12,20"], ["--records", "0,12,20,25"],
                                   ["--records", "3,x,20,25"], ["--records", "3,12,20,1000"],
                                   ["--records", ""], ["--deals", "100"],
                                   ["--agents", "nonsense"]])
def test_bad_mushka_requests_get_one_line(tmp_path, capsys, extra):
    argv = ["equity", "mushka", "--option", "max_deals=50", "--games", "10", "--out",
            str(tmp_path / "x"), "--quiet", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cardsim: error:"), err
    assert not (tmp_path / "x").exists()


def test_records_and_games_are_for_a_game_of_seat_records(capsys):
    """``--records`` and ``--games`` belong to a game decided by seat records (its
    ``records_match``: Mushka); ``--deals`` to a table of match states."""
    assert main(["equity", "scopa", "--records", "3,12"]) == 2
    assert "are for a game decided by seat records (Mushka)" in capsys.readouterr().err
    assert main(["equity", "mushka", "--option", "max_deals=5", "--deals", "10"]) == 2
    assert "counts whole games (--games N)" in capsys.readouterr().err
    assert parse_records("3, 12,20 ,25") == (3, 12, 20, 25)


def test_the_report_draws_the_mover_table_and_the_chances(tmp_path, capsys):
    table = tmp_path / "table"
    assert main(["equity", "mushka", "--option", "max_deals=50", "--games", "60", "--boot",
                 "10", "--out", str(table), "--quiet"]) == 0
    assert "the mover's chance to win the game" in capsys.readouterr().out.lower()
    assert main(["report", str(table)]) == 0
    html = (table / "report" / "report.html").read_text()
    assert "Game equity" in html and "data:image/png;base64" in html
    assert (table / "report" / "tables" / "equity_mover.csv").exists()
    chances = tmp_path / "chances"
    assert main(["equity", "mushka", "--option", "max_deals=50", "--games", "30",
                 "--records", "3,12,20,25", "--out", str(chances), "--quiet"]) == 0
    assert main(["report", str(chances)]) == 0
    md = (chances / "report" / "report.md").read_text()
    assert "mover (dealer's left)" in md and "max_deals cut" in md
