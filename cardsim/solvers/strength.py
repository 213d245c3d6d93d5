"""Strength figures on duplicate deals: ``python -m cardsim.solvers.strength --game scopa --deals 200``.

Plays matchups on duplicate deals in one process and prints, for each, the first agent's
:func:`gain` per deal over the second with its 95% interval and its share of deals won
(the gain above zero): by default the matchups of
:data:`MATCHUPS`, or ``--agent A --vs B`` (agent spec strings, levels too). ``--compare C``
also plays ``C`` against ``B`` on the same deals and prints ``A``'s gain minus ``C``'s,
paired by deal: the way to compare two agents that cannot share a game (networks of
different weights). For larger or resumable studies use an experiment spec (``cardsim run``,
:mod:`cardsim.experiments.runner`).

>>> import cardsim
>>> mean, lo, hi = gain(cardsim.load_game("scopa"), "heuristic", "random", 10, seed=1)
>>> lo < mean < hi and mean > 0
True
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import cardsim
from cardsim.stats import fmt_interval, mean_interval

from .duplicate import deal_returns, play_duplicate, think_per_decision

MATCHUPS = (
    ("heuristic", "random"),
    ("ismcts:iterations=1000", "random"),
    ("ismcts:iterations=1000", "heuristic"),
    ("ismcts:iterations=100", "heuristic"),
    ("ismcts:iterations=10000", "heuristic"),
)


def gain(game, agent: str, opponent: str, deals: int, seed: int = 1,
         partners: bool = False) -> tuple[float, float, float]:
    """``agent``'s mean gain per deal over ``opponent`` on duplicate deals, with its 95%
    interval (:func:`gains`)."""
    return mean_interval(gains(game, agent, opponent, deals, seed, partners))


def gains(game, agent: str, opponent: str, deals: int, seed: int = 1,
          partners: bool = False, think: list | None = None) -> np.ndarray:
    """``agent``'s gain over ``opponent`` in each of ``deals`` duplicate deals. Two players:
    its return, averaged over the seats swapped over the same cards. With ``partners``: a
    partnership of ``agent`` against one of ``opponent`` (seats alternate). Otherwise one
    ``agent`` among ``opponent`` players, rotated through the seats, and the gain is over
    ``opponent`` in the same seat: its return minus the mean return of a seat in the same deal
    played by ``opponent`` everywhere (the measure for a game that is not zero-sum, such as
    Mushka). ``think``, a list, gets each agent's mean seconds a decision (NaN if not
    timed): equal time is part of a fair comparison."""
    n = game.num_players
    if n == 2 or partners:
        games = play_duplicate(game, [agent, opponent] * (n // 2), deals, seed=seed)
        if think is not None:
            think[:] = [think_per_decision(games, 0), think_per_decision(games, 1)]
        return deal_returns(games, 0)
    games = play_duplicate(game, [agent] + [opponent] * (n - 1), deals, seed=seed)
    if think is not None:
        think[:] = [think_per_decision(games, a) for a in (0, 1)]
    base = play_duplicate(game, [opponent] * n, deals, seed=seed, rotate=False)
    return deal_returns(games, 0) - base.returns.mean(axis=1)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardsim.solvers.strength")
    parser.add_argument("--game", default="scopa")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matchup", type=int, action="append",
                        help="index into MATCHUPS (repeatable; default all)")
    parser.add_argument("--agent", help="play this agent against --vs instead")
    parser.add_argument("--vs", default="heuristic", help="--agent's opponent (heuristic)")
    parser.add_argument("--partners", action="store_true",
                        help="with four players: a partnership of A against one of B")
    parser.add_argument("--compare", metavar="C",
                        help="also play C against --vs on the same deals and print --agent's "
                        "gain minus C's, paired by deal")
    args = parser.parse_args(argv)
    if args.compare and not args.agent:
        parser.error("--compare goes with --agent")
    game = cardsim.load_game(args.game)
    matchups = ([(args.agent, args.vs)] if args.agent
                else [MATCHUPS[k] for k in args.matchup or range(len(MATCHUPS))])
    for a, b in matchups:
        start = time.perf_counter()
        think: list = []
        per_deal = gains(game, a, b, args.deals, args.seed, args.partners, think)
        mean, lo, hi = mean_interval(per_deal)
        ms = " / ".join("–" if np.isnan(t) else f"{1000 * t:.1f}" for t in think)
        print(f"{args.game}: {a} vs {b}: {args.deals} duplicate deals, gain "
              f"{fmt_interval(mean, lo, hi)} per deal, deals won {(per_deal > 0).mean():.3f}, "
              f"ms a decision {ms} ({time.perf_counter() - start:.0f} s)", flush=True)
    if args.compare:
        other = gains(game, args.compare, args.vs, args.deals, args.seed, args.partners)
        print(f"{args.game}: {args.agent} minus {args.compare}, each against {args.vs} on the "
              f"same {args.deals} deals: {fmt_interval(*mean_interval(per_deal - other))} "
              f"per deal (alone: {fmt_interval(*mean_interval(other))})", flush=True)


if __name__ == "__main__":
    main()
