"""``cardsim simulate minchiate``: the compiled random loop's records and the tables.

The loop (``kernels.play_random_deals``) plays single deals and writes one row per deal
(``kernels.ROW_COLUMNS``); the tables (``summary.summarize``) are recomputed here from the
rows, and the rows themselves are checked against the rules: the net is the resti's
difference, the card points in the piles add up to the 142 of the pack (the Fola holds no
counting card with the default robbing), the cards beyond 42 follow from the tricks
(MI-END-2), the last trick gives 10 to one team (MI-END-4), the random player declares
everything by default and nothing with ``declare_probability=0``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.app.cli import main
from cardsim.games.minchiate.layout import COMBO_KINDS, SOURCES
from cardsim.games.minchiate.summary import HISTOGRAM_CAP, summarize
from cardsim.simulate import play_random_deals


@pytest.fixture(scope="module")
def deals():
    return play_random_deals("minchiate", 4_000, seed=11)


def col(r: pd.DataFrame, name: str) -> np.ndarray:
    return r[name].to_numpy()


def test_rows_follow_the_rules(deals):
    """MI-RESTO-4, MI-END-1/2/4: per deal, net = resti A - resti B; the piles' card points
    add up to 142; the cards beyond 42 are 4t - 42 for the team with t >= 11 tricks; one
    team scores the last trick's 10."""
    rules, r = deals
    assert list(r.columns[:6]) == ["dealer", "net", "resti_a", "resti_b", "tricks_a",
                                   "matto_given"]
    assert (col(r, "net") == col(r, "resti_a") - col(r, "resti_b")).all()
    assert ((col(r, "pile_a") + col(r, "pile_b")) == 142).all()
    ta = col(r, "tricks_a")
    assert ((0 <= ta) & (ta <= 21)).all()
    # the Matto's team may have one card more or less (the debt), and a team without a
    # trick gives the Matto away; most deals are exact
    expect_a = np.maximum(0, 4 * ta - 42)
    assert np.mean(col(r, "beyond_42_a") == expect_a) > 0.4
    assert (np.abs(col(r, "beyond_42_a") - expect_a) <= 1).all()
    last = col(r, "last_trick_a") + col(r, "last_trick_b")
    assert (last == 10).all() and set(np.unique(col(r, "last_trick_a"))) <= {0, 10}
    assert set(np.unique(col(r, "dealer"))) == {0, 1, 2, 3}


def test_random_player_declares_everything_by_default():
    """The random player's ``declare_probability``: 1 (default) declares every combination
    and claims the bonus whenever possible (so some deals have claims); 0 never declares."""
    _, r = play_random_deals("minchiate", 1_000, seed=3)
    kinds = r[[f"declared_{k}" for k in COMBO_KINDS]].to_numpy()
    assert kinds.sum() > 0 and col(r, "bonus_claims").sum() > 0
    declared = col(r, "declarations_a") + col(r, "declarations_b")
    assert ((kinds.sum(axis=1) > 0) == (declared > 0)).all()
    _, r0 = play_random_deals("minchiate", 1_000, seed=3,
                              player={"declare_probability": 0})
    assert (r0[[f"declared_{k}" for k in COMBO_KINDS]].to_numpy() == 0).all()
    assert (col(r0, "bonus_claims") == 0).all()
    assert (col(r0, "declarations_a") + col(r0, "declarations_b") == 0).all()


def test_tables_recomputed(deals):
    """The tables' figures equal what the rows give."""
    rules, r = deals
    tables = summarize(r, rules)
    assert list(tables) == ["net resti", "net resti histogram", "points by source and team",
                            "combinations declared", "the cutter's and the dealer's side"]
    net = col(r, "net")
    t = tables["net resti"]
    assert t.loc["net resti (A - B) per deal"].iloc[0].startswith(f"{net.mean():.3f} [")
    assert t.loc["team A wins (net > 0)"].iloc[0].startswith(f"{np.mean(net > 0):.3f}")
    assert t.loc["draws (net = 0)"].iloc[0].startswith(f"{np.mean(net == 0):.3f}")
    assert t.loc["team B wins (net < 0)"].iloc[0].startswith(f"{np.mean(net < 0):.3f}")
    h = tables["net resti histogram"]
    assert h["deals"].sum() == len(r)
    for label, row in h.iterrows():
        if label.startswith("<="):
            hits = net <= -HISTOGRAM_CAP
        elif label.startswith(">="):
            hits = net >= HISTOGRAM_CAP
        else:
            hits = net == int(label)
        assert row["deals"] == hits.sum()
        assert row["share [95% CI]"].startswith(f"{hits.mean():.3f}")
    src = tables["points by source and team"]
    assert list(src.index) == [*SOURCES, "total"]
    for s in SOURCES:
        a, b = col(r, f"{s}_a"), col(r, f"{s}_b")
        assert src.loc[s, "team A [95% CI]"].startswith(f"{a.mean():.2f}")
        assert src.loc[s, "team B [95% CI]"].startswith(f"{b.mean():.2f}")
        assert src.loc[s, "A - B [95% CI]"].startswith(f"{(a - b).mean():.2f}")
    total_a = sum(col(r, f"{s}_a") for s in SOURCES)
    assert src.loc["total", "team A [95% CI]"].startswith(f"{total_a.mean():.2f}")
    dec = tables["combinations declared"]
    for k in COMBO_KINDS:
        x = col(r, f"declared_{k}")
        assert dec.loc[k, "per deal [95% CI]"].startswith(f"{x.mean():.3f}")
        assert dec.loc[k, "deals with one or more [95% CI]"].startswith(f"{np.mean(x > 0):.3f}")
    x = col(r, "bonus_claims")
    assert dec.loc["Matto bonus claimed", "per deal [95% CI]"].startswith(f"{x.mean():.3f}")
    sides = tables["the cutter's and the dealer's side"]
    cutter_team = (col(r, "dealer") + 3) % 4 % 2
    view = np.where(cutter_team == 0, net, -net)
    row = sides.loc["cutter's team (leads first)"]
    assert row["advantage: net resti [95% CI]"].startswith(f"{view.mean():.3f}")
    assert row["wins [95% CI]"].startswith(f"{np.mean(view > 0):.3f}")
    dealer_view = np.where(col(r, "dealer") % 2 == 0, net, -net)
    assert (dealer_view == -view).all()
    assert sides.loc["dealer's team", "advantage: net resti [95% CI]"].startswith(
        f"{dealer_view.mean():.3f}")


def test_cli_tables(capsys):
    """``cardsim simulate minchiate --deals 2000 --seed 1`` prints the five tables."""
    assert main(["simulate", "minchiate", "--deals", "2000", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    for title in ("net resti", "net resti histogram", "points by source and team",
                  "combinations declared", "the cutter's and the dealer's side",
                  "team A wins (net > 0)", "pile_combinations", "run_high",
                  "Matto bonus claimed", "cutter's team (leads first)"):
        assert title in out


def test_cli_options_change_the_game(capsys):
    """An option reaches the engine: without robbing no robbing points are scored."""
    assert main(["simulate", "minchiate", "--deals", "300", "--seed", "2", "--quiet",
                 "--option", "cutter_rob=off", "--option", "dealer_rob=off"]) == 0
    out = capsys.readouterr().out
    assert "cutter_rob=off" in out
    _, r = play_random_deals("minchiate", 300, seed=2,
                             options={"cutter_rob": "off", "dealer_rob": "off"})
    for s in ("cutter_rob", "dealer_rob"):
        assert (col(r, f"{s}_a") == 0).all() and (col(r, f"{s}_b") == 0).all()


@pytest.mark.parametrize("argv,needle", [
    (["--option", "fola_visibility=glass"], "fola_visibility"),
    (["--option", "deals=0"], "deals"),
    (["--option", "no_such_option=1"], "no_such_option"),
    (["--player", "declare_probability=2"], "expected a number from 0 to 1"),
    (["--player", "pass_probability=0.1"], "unknown random-player parameter"),
])
def test_cli_errors(capsys, argv, needle):
    """Bad input prints one line naming it and exits with status 2."""
    try:
        code = main(["simulate", "minchiate", "--deals", "10", "--quiet", *argv])
    except SystemExit as e:     # argparse's own errors
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1
