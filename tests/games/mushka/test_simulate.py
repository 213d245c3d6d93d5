"""``cardsim simulate mushka``: the compiled random-play loop, its records and the tables.

The loop (``kernels.play_random_deals``) plays whole games one after another and writes one
row per deal; the tables (``summary.summarize``) are recomputed here from the rows, and the
rows themselves are checked against the rules: five tricks per played deal, the record
written off explained by tricks, the ace bonus and the remise, a game ending exactly when a
record reaches 0 (MU-STOP-1, MU-MATCH-1), the random player's pass, stand and exchange rates.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.app.cli import main
from cardsim.simulate import play_random_deals


@pytest.fixture(scope="module")
def four():
    rules, records = play_random_deals("mushka", 20_000, seed=11)
    return rules, records


def bits(masks: pd.Series, seat) -> np.ndarray:
    return (masks.to_numpy() >> seat) & 1 == 1


def test_records_explain_every_deal(four):
    """MU-SCORE-1..4, MU-PASS-1..3: per deal, the written-off record of a seat is its tricks,
    plus the ace bonus for the holder who took it, minus 5 for a remise (10 for a remised
    holder); passed seats keep their record; a played-out deal has exactly five tricks."""
    rules, r = four
    n = rules.num_players
    tricks = r[[f"tricks_{s}" for s in range(n)]].to_numpy()
    change = r[[f"change_{s}" for s in range(n)]].to_numpy()
    stopped = r["stopper"].to_numpy() > 0
    void = r["void"].to_numpy() == 1
    assert (tricks.sum(axis=1)[~stopped & ~void] == 5).all()
    assert (tricks.sum(axis=1)[void] == 0).all() and (change[void] == 0).all()
    holder = r["ace_holder"].to_numpy() - 1
    for s in range(n):
        expected = tricks[:, s].astype(float)
        expected -= 5 * bits(r["remised"], s) + 5 * (bits(r["remised"], s) & (holder == s))
        bonus = (r["ace_bonus"].to_numpy() == 1) & (holder == s)
        size = np.where(r["trump"].to_numpy() == 0, 10, 5)    # doubled when spades are trump
        unclamped = ~stopped                                  # MU-STOP-2 clamps only at 0
        expected[unclamped] += (size * bonus)[unclamped]
        assert (change[unclamped, s] == expected[unclamped]).all()
        passed = bits(r["passes"], s)
        assert (change[passed, s] == 0).all() and (tricks[passed, s] == 0).all()
    assert (r.loc[r["ace_holder"] > 0, "ace_bonus"].isin([0, 1])).all()


def test_games_end_exactly_at_a_stop(four):
    """MU-STOP-1, MU-MATCH-1: a game ends with the deal in which a record reached 0, and its
    winner is the player who stopped; every game's deals are numbered 1, 2, ..."""
    rules, r = four
    over = r["match_over"].to_numpy() == 1
    assert (over == (r["stopper"].to_numpy() > 0)).all()
    assert (r.loc[over, "winners"].to_numpy() == 1 << (r.loc[over, "stopper"].to_numpy() - 1)).all()
    number = r["deal_number"].to_numpy()
    follows = (number[1:] == number[:-1] + 1) | ((number[1:] == 1) & over[:-1])
    assert follows.all()
    n = rules.num_players
    dealer = r["dealer"].to_numpy()
    same_game = number[1:] > 1
    assert (dealer[1:][same_game] == (dealer[:-1][same_game] + 1) % n).all()   # MU-DEAL-1


def test_random_player_rates(four):
    """The random player's exchange decisions follow its parameters (0.25 pass, 0.25 stand,
    else exchange): the ace holder cannot pass (MU-EXCH-3) and stands instead."""
    rules, r = four
    n = rules.num_players
    decisions = len(r) * n
    passes = sum(bits(r["passes"], s).sum() for s in range(n)) / decisions
    exchanges = r["exchanges"].sum() / decisions
    # P(pass) = 0.25 * P(no ace of spades in hand) = 0.25 * (1 - 5/32) before exchanges
    assert 0.20 < passes < 0.225
    assert abs(exchanges - 0.5) < 0.01


def test_player_parameters_change_the_random_player():
    """--player pass_probability=0 never passes; stand_probability=1 never exchanges."""
    _, r = play_random_deals("mushka", 2_000, seed=3,
                             player={"pass_probability": 0, "stand_probability": 1})
    assert (r["passes"] == 0).all() and (r["exchanges"] == 0).all()


def test_tables_recomputed(four):
    """The tables' figures equal what the rows give."""
    from cardsim.games.mushka.summary import summarize
    rules, r = four
    tables = summarize(r, rules)
    assert list(tables) == ["tricks and records by place", "the exchange",
                            "the ace of spades", "whole games"]
    games = tables["whole games"]
    over = r["match_over"] == 1
    assert games.loc["complete games"].iloc[0] == str(int(over.sum()))
    mean = r.loc[over, "deal_number"].mean()
    assert games.loc["deals per game"].iloc[0].startswith(f"{mean:.2f}")
    ex = tables["the exchange"]
    share = r["exchanges"].sum() / (len(r) * rules.num_players)
    assert ex.loc["decisions: exchange"].iloc[0].startswith(f"{share:.3f}")
    cards = r["cards_exchanged"].sum() / r["exchanges"].sum()
    assert ex.loc["cards per exchange"].iloc[0].startswith(f"{cards:.2f}")
    places = tables["tricks and records by place"]
    assert len(places) == rules.num_players
    dealer = r["dealer"].to_numpy()
    seat = (dealer + 1) % rules.num_players
    change = r[[f"change_{s}" for s in range(rules.num_players)]].to_numpy()
    first = change[np.arange(len(r)), seat].mean()
    assert places.iloc[0]["record written off per deal [95% CI]"].startswith(f"{first:.3f}")
    ace = tables["the ace of spades"]
    held = r["ace_holder"] > 0
    assert ace.loc["deals with an active ace holder"].iloc[0].startswith(f"{held.mean():.3f}")


def test_cli_players_and_tables(capsys):
    """``cardsim simulate mushka --players N`` prints the four tables for N players."""
    assert main(["simulate", "mushka", "--players", "6", "--deals", "3000", "--seed", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "rules: num_players=6" in out
    for title in ("tricks and records by place", "the exchange", "the ace of spades",
                  "whole games", "6 (dealer)", "games stopped at 0 by the ace holder",
                  "deals per game", "wins: the first dealer", "pass_probability=0.25"):
        assert title in out


@pytest.mark.parametrize("argv,needle", [
    (["--players", "8"], "num_players='8' is not allowed"),
    (["--players", "7", "--option", "deck=32"], "too small for 7 players"),
    (["--players", "5", "--option", "num_players=4"], "--players 5 contradicts"),
    (["--player", "pass_probability=2"], "expected a number from 0 to 1"),
    (["--player", "claim_probability=0.1"], "unknown random-player parameter"),
])
def test_cli_errors(capsys, argv, needle):
    """Bad input prints one line naming it and exits with status 2."""
    try:
        code = main(["simulate", "mushka", "--deals", "10", "--quiet", *argv])
    except SystemExit as e:     # argparse's own errors
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1
