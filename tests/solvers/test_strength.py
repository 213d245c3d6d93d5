"""The strong level beats the heuristic in every game (slow, statistical).

Each game's ``strong`` level (its package's ``GameDefinition.levels``) with its time budget
replaced by 1,000 iterations, so that the test is deterministic on any machine, plays the
heuristic on duplicate deals; the lower end of the 95% interval of its gain per deal must be
above zero. Mushka is not zero-sum (the seats' returns do not cancel), so there the gain is
over the heuristic in the same seat: the searching seat's return minus the mean return of a
seat in the same deal played by four heuristics. Minchiate plays partnership against
partnership. README's figures ("Agents") come from larger runs.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import cardsim
from cardsim.solvers.agent_spec import level
from cardsim.solvers.strength import gain
from cardsim.stats import fmt_interval, mean_interval

DEALS = {"scopa": 200, "bura": 300, "mushka": 200, "minchiate": 40}


def strong_at_1000_iterations(game: str) -> str:
    return re.sub(r"seconds=[0-9.]+", "iterations=1000", level("strong", game))


def gain_over_heuristic(game, agent: str, deals: int, seed: int) -> tuple[float, float, float]:
    """The agent's gain per deal over the heuristic (module docstring), with its interval."""
    return gain(game, agent, "heuristic", deals, seed, partners=game.name == "minchiate")


def test_the_strong_level_at_1000_iterations_is_what_the_slow_test_plays():
    """The slow test's agent is the level's, but for its budget."""
    assert strong_at_1000_iterations("scopa") == \
        "ismcts:iterations=1000,rollout=heuristic,model=1"
    assert strong_at_1000_iterations("bura") == level("strong", "bura")


def test_gain_over_the_heuristic_is_zero_for_the_heuristic_itself():
    """The measure can tell: in Mushka the heuristic's gain over itself is no more than its
    interval (only its tie-breaking draws differ), and random play loses to it."""
    mushka = cardsim.load_game("mushka")
    mean, lo, hi = gain_over_heuristic(mushka, "heuristic", 30, seed=1)
    assert lo <= 0.0 <= hi
    mean, lo, hi = gain_over_heuristic(mushka, "random", 30, seed=1)
    assert hi < 0, (mean, lo, hi)


def test_compare_pairs_two_agents_against_one_opponent_on_the_same_deals(capsys):
    """``--compare C``: C plays the same deals against the same opponent, and the difference
    is paired by deal: an agent minus itself is exactly zero; another agent's difference is
    the deal-by-deal difference of the two gains."""
    from cardsim.solvers.strength import gains, main
    game = cardsim.load_game("scopa")
    main(["--game", "scopa", "--agent", "random", "--compare", "random", "--deals", "6"])
    assert "random minus random, each against heuristic on the same 6 deals: 0.000 [0.000, " \
        "0.000]" in capsys.readouterr().out
    main(["--game", "scopa", "--agent", "random", "--compare", "easy", "--deals", "6",
          "--seed", "2"])
    want = mean_interval(gains(game, "random", "heuristic", 6, seed=2)
                         - gains(game, "easy", "heuristic", 6, seed=2))
    assert f"random minus easy, each against heuristic on the same 6 deals: " \
        f"{fmt_interval(*want)}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--compare", "random"])


@pytest.mark.parametrize("name", ["bura", "mushka"])
def test_the_measure_says_how_long_each_agent_thought_a_decision(name):
    """Equal time is part of a fair comparison: each agent's mean time a decision, NaN for
    the heuristic (not timed), a searching agent's at least its budget."""
    from cardsim.solvers.strength import gains
    game = cardsim.load_game(name)
    think = []
    gains(game, "pimc:leaf=net,seconds=0.002", "heuristic", 2, seed=3, think=think)
    assert len(think) == 2 and think[0] >= 0.002 and np.isnan(think[1])


MUSHKA_MISS = pytest.mark.xfail(strict=True, reason=(
    "not reached: in 4-player Mushka no search measured beats the heuristic "
    "(ISMCTS with the opponent model, 1,000 iterations: +0.06 [-0.14, +0.27] record per deal "
    "on this test's 200 deals, -0.05 [-0.17, +0.08] on 400 others; without the model -0.24 "
    "and -0.19)"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["scopa", "bura",
                                  pytest.param("mushka", marks=MUSHKA_MISS), "minchiate"])
def test_the_strong_level_beats_the_heuristic(name):
    """The best agent beats the heuristic in every game (slow, statistical)
    (at 1,000 iterations a move: module docstring). It fails in Mushka today: a strict xfail,
    so that it is reported as soon as it passes."""
    game = cardsim.load_game(name)
    mean, lo, hi = gain_over_heuristic(game, strong_at_1000_iterations(name), DEALS[name],
                                       seed=19)
    assert lo > 0, (name, mean, lo, hi)
    assert np.isfinite(hi)
