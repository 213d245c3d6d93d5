"""Strength figures on duplicate deals: ``python -m solvers.strength --game scopa --deals 200``.

Plays the issue's matchups (heuristic vs random; ISMCTS with 1,000 iterations vs random and vs
heuristic; ISMCTS with 100, 1,000 and 10,000 iterations vs heuristic) on duplicate deals and
prints each one's mean return per deal for the first agent with its 95% interval and its
share of deals won (return > 0, averaged over the seatings), in one process. For larger or
resumable studies use an experiment spec (``cardsim run``, :mod:`experiments.runner`).
"""
from __future__ import annotations

import argparse
import time

import cardsim
from cardsim.stats import fmt_interval

from .duplicate import agent_returns, margin, play_duplicate

MATCHUPS = (
    ("heuristic", "random"),
    ("ismcts:iterations=1000", "random"),
    ("ismcts:iterations=1000", "heuristic"),
    ("ismcts:iterations=100", "heuristic"),
    ("ismcts:iterations=10000", "heuristic"),
)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m solvers.strength")
    parser.add_argument("--game", default="scopa")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matchup", type=int, action="append",
                        help="index into MATCHUPS (repeatable; default all)")
    args = parser.parse_args(argv)
    game = cardsim.load_game(args.game)
    for k in args.matchup or range(len(MATCHUPS)):
        a, b = MATCHUPS[k]
        start = time.perf_counter()
        table = play_duplicate(game, [a, b], args.deals, seed=args.seed)
        mean, lo, hi = margin(table)
        won = (agent_returns(table, 0).groupby(table["deal"]).mean() > 0).mean()
        print(f"{args.game}: {a} vs {b}: {args.deals} duplicate deals, mean return "
              f"{fmt_interval(mean, lo, hi)} per deal, deals won {won:.3f} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
