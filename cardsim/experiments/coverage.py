"""How often the toolkit's 95% intervals cover the truth: the coverage study.

Each *case* is one kind of interval cardsim prints, computed exactly as the toolkit computes it,
on a quantity whose true value is known. A replication draws fresh deals from
``SeedSequence([seed, case, replication])`` and yields one or more intervals; the case's
*coverage* is the share of its intervals that hold the truth, with the Wilson interval of that
share (which takes the intervals as independent: those of one replication, such as an equity
table's cells, are not, so for such a case it is too narrow). An honest 95% interval covers 95%
of the time: with 2,000 replications a coverage is known to about ±1%, so the study runs at
least that many.

The cases (:data:`CASES`):

- ``wilson-redeal-N``: the share of N random Scopa deals that were redealt (three or four kings
  on the first table, SC-DEAL-3) with its Wilson interval (:func:`cardsim.stats.
  wilson_interval`, the toolkit's interval of every rate); truth 145/91390.
- ``wins-scopa-N``: a study's win rate (:func:`cardsim.experiments.tables.matchup_table`: the first
  agent's share of games won, Wilson's interval over the deals: :func:`cardsim.stats.
  clustered_wilson`) of random against random on N duplicate deals; the truth is the mean of
  every replication's share.
- ``mean-redeals-N``: ``cardsim simulate``'s "redeals per deal" (:meth:`cardsim.stats.Sums.
  mean_interval`); truth p/(1 - p), the mean of a geometric count.
- ``paired-G-N``: the paired duplicate margin of random against random over N deals
  (:func:`cardsim.solvers.duplicate.margin`, the interval of every study's matchup table); truth 0 by
  symmetry.
- ``elo-scopa-N``: a rating list (:func:`cardsim.experiments.ratings.rating_table`, its bootstrap
  intervals) of three random players in a round robin of N deals a pair, anchored at the first;
  each other player's true rating is 0.
- ``equity-scopa-N``: every cell of a Scopa match-equity table (:func:`cardsim.experiments.equity.
  equity_table`: exact dynamic programming over the deal outcomes of N duplicate deals between
  heuristics, 200 bootstrap resamples, the percentile interval); the truth is the table of
  200,000 other deals (its error is 1/20 of one replication's).
- ``analysis-scopa``: ``cardsim analyze``'s mean-return interval and win-rate Wilson interval of
  every action of one Scopa position (200 worlds, heuristic play-outs: the defaults); the truth
  is the mean of every replication's estimate, whose error is 1/√replications of one
  replication's (so it moves the coverage by far less than the study can see).

``python -m cardsim.experiments.coverage --replications 2000 --out DIR`` runs every case (``--case``
picks some) on ``--jobs`` processes and writes ``DIR/coverage.csv``, a row per case, and
``DIR/coverage.md`` after each case: a run stopped part way keeps the cases it finished and the
next run skips them. The same seed gives the same table on any number of processes.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError
from cardsim.stats import Sums, wilson_interval

P_REDEAL = 145 / 91390
"""The chance that a Scopa deal's first table holds three or four kings (SC-DEAL-3)."""

COLUMNS = ["case", "kind", "truth", "replications", "intervals", "covered", "coverage",
           "coverage_lo", "coverage_hi", "exact", "mean_width"]


def wilson_coverage(n: int, p: float) -> float:
    """The exact chance that the Wilson interval of a binomial(n, p) count covers p: the sum of
    the binomial's probabilities over the counts whose interval holds p. Counts are discrete, so
    this swings round 95% as p or n moves (Brown, Cai and DasGupta 2001): at p = 145/91390 it
    is 97.7% for 1,000 deals, 94.3% for 10,000 and 95.3% for 100,000."""
    from scipy.stats import binom
    x = np.arange(n + 1)
    lo, hi = np.array([wilson_interval(int(k), n)[1:] for k in x]).T
    return float((binom.pmf(x, n, p) * ((lo <= p) & (p <= hi))).sum())


@dataclass(frozen=True)
class Case:
    """One kind of interval on a known truth: ``draw(seq)`` plays one replication from a
    ``numpy.random.SeedSequence`` and returns ``(estimate, low, high)``, arrays of the same
    length for every replication; ``truth`` is their true values (a number for all, or a
    function computing one per interval), or None when the truth is the mean of every
    replication's estimate (module docstring); ``exact()``, where known, the coverage the
    replications estimate."""

    name: str
    kind: str
    draw: Callable
    truth: float | Callable | None
    exact: Callable | None = None


def _redeals(seq, deals: int) -> np.ndarray:
    from cardsim.simulate import play_random_deals
    seed = int(seq.generate_state(1, dtype=np.uint32)[0])
    return play_random_deals("scopa", deals, seed)[1]["redeals"].to_numpy()


def _wilson_redeal(deals: int) -> Callable:
    def draw(seq):
        k = int((_redeals(seq, deals) > 0).sum())
        p, lo, hi = wilson_interval(k, deals)
        return np.array([p]), np.array([lo]), np.array([hi])
    return draw


def _mean_redeals(deals: int) -> Callable:
    def draw(seq):
        sums = Sums()
        sums.add("redeals", _redeals(seq, deals))
        return tuple(np.array([v]) for v in sums.mean_interval("redeals"))
    return draw


def _paired(game_name: str, deals: int) -> Callable:
    def draw(seq):
        from cardsim.game import load_game
        from cardsim.solvers.duplicate import margin, play_duplicate
        table = play_duplicate(load_game(game_name), ["random", "random"], deals,
                               seed=tuple(int(v) for v in seq.entropy))
        return tuple(np.array([v]) for v in margin(table, 0))
    return draw


def _wins(deals: int) -> Callable:
    def draw(seq):
        from cardsim.experiments.rows import duplicate_rows
        from cardsim.experiments.tables import matchup_table
        from cardsim.game import load_game
        from cardsim.solvers.duplicate import play_duplicate
        rows = duplicate_rows(play_duplicate(load_game("scopa"), ["random", "random"], deals,
                                             seed=tuple(int(v) for v in seq.entropy)))
        rows.insert(0, "matchup", 0)
        first = matchup_table(rows, ["r0", "r1"]).set_index("agent").loc[0]
        return tuple(np.array([first[c]]) for c in ("win_rate", "win_rate_lo", "win_rate_hi"))
    return draw


def _elo(deals: int) -> Callable:
    def draw(seq):
        from cardsim.experiments.ratings import rating_table
        from cardsim.experiments.rows import duplicate_rows
        from cardsim.game import load_game
        from cardsim.solvers.duplicate import play_duplicate
        game = load_game("scopa")
        prefix = tuple(int(v) for v in seq.entropy)
        parts = []
        for m, seating in enumerate(((0, 1), (0, 2), (1, 2))):
            t = duplicate_rows(play_duplicate(game, ["random", "random"], deals,
                                              seed=(*prefix, m)), seating)
            t.insert(0, "matchup", m)
            parts.append(t)
        table = rating_table(pd.concat(parts, ignore_index=True), ["r0", "r1", "r2"],
                             anchor=0, seed=int(seq.generate_state(1)[0]))
        table = table.set_index("agent").loc[[1, 2]]
        return (table["elo"].to_numpy(), table["elo_lo"].to_numpy(),
                table["elo_hi"].to_numpy())
    return draw


TRUTH_DEALS = 200_000


def _equity_rows(deals: int, seed):
    from cardsim.experiments.rows import duplicate_rows
    from cardsim.game import load_game
    from cardsim.solvers.duplicate import play_duplicate
    return duplicate_rows(play_duplicate(load_game("scopa"), ["heuristic", "heuristic"], deals,
                                         seed=seed))


def _equity(deals: int) -> Callable:
    def draw(seq):
        from cardsim.experiments.equity import equity_table, match_model
        from cardsim.game import load_game
        table = equity_table(_equity_rows(deals, tuple(int(v) for v in seq.entropy)),
                             match_model(load_game("scopa")), seed=int(seq.generate_state(1)[0]))
        return (table["p_win"].to_numpy(), table["p_low"].to_numpy(),
                table["p_high"].to_numpy())
    return draw


def _equity_truth() -> np.ndarray:
    from cardsim.experiments.equity import equity_table, match_model
    from cardsim.game import load_game
    rows = _equity_rows(TRUTH_DEALS, (2 ** 32 - 1,))       # deals no replication plays
    return equity_table(rows, match_model(load_game("scopa")), boot=0)["p_win"].to_numpy()


def _analysis_position():
    from cardsim.game import load_game
    from cardsim.solvers.agents import choose, parse_agent
    game = load_game("scopa")
    state, heuristic = game.new_deal(seed=41), parse_agent("heuristic", game)
    for _ in range(9):                      # the fifth move of the second player's hand
        state.apply_action(choose(heuristic, state, seed=0))
    return state


def _analysis(seq):
    from cardsim.solvers.analyze import AnalysisConfig, analyze
    state = _analysis_position()
    table = analyze(state, AnalysisConfig(player=state.current_player(),
                                          seed=int(seq.generate_state(1)[0])))
    table = table.sort_values("action", kind="stable")
    return (np.concatenate([table["mean_return"], table["win_rate"]]),
            np.concatenate([table["return_low"], table["win_low"]]),
            np.concatenate([table["return_high"], table["win_high"]]))


CASES = {c.name: c for c in [
    *(Case(f"wilson-redeal-{n}", "Wilson rate", _wilson_redeal(n), P_REDEAL,
           lambda n=n: wilson_coverage(n, P_REDEAL)) for n in (1_000, 10_000)),
    Case("mean-redeals-10000", "mean (simulate)", _mean_redeals(10_000),
         P_REDEAL / (1 - P_REDEAL)),
    *(Case(f"paired-scopa-{n}", "paired duplicate mean", _paired("scopa", n), 0.0)
      for n in (20, 40, 200)),
    Case("wins-scopa-20", "Wilson rate over deals (duplicate games)", _wins(20), None),
    Case("paired-bura-20", "paired duplicate mean", _paired("bura", 20), 0.0),
    Case("elo-scopa-20", "Elo rating (bootstrap)", _elo(20), 0.0),
    Case("equity-scopa-500", "equity cell (bootstrap)", _equity(500), _equity_truth),
    Case("analysis-scopa", "analysis value and win rate", _analysis, None),
]}


def _draw_many(name: str, seed: int, reps: range) -> list:
    case, index = CASES[name], list(CASES).index(name)
    return [case.draw(np.random.SeedSequence([seed, index, r])) for r in reps]


def replicate(name: str, replications: int, seed: int = 1, jobs: int = 1):
    """``(estimate, low, high)`` of case ``name``'s replications, each an array of shape
    (replications, intervals per replication); the same for any ``jobs``."""
    if name not in CASES:
        raise CardsimError(f"unknown case {name!r}: expected one of {', '.join(CASES)}")
    chunks = [range(i, min(i + 50, replications)) for i in range(0, replications, 50)]
    if jobs > 1:
        from joblib import delayed

        from cardsim.workers import parallel
        parts = parallel(jobs)(delayed(_draw_many)(name, seed, c) for c in chunks)
    else:
        parts = [_draw_many(name, seed, c) for c in chunks]
    draws = [d for part in parts for d in part]
    return tuple(np.array([d[k] for d in draws], dtype=np.float64) for k in range(3))


def coverage_row(name: str, kind: str, estimate, low, high, truth: float | None) -> dict:
    """The coverage of intervals ``[low, high]`` (arrays: replication × interval) of the
    truth (a number, one per interval, or None: the mean estimate per interval), with its
    Wilson interval; the row's ``truth`` is the number (NaN for truths per interval). A NaN
    interval (too few values to have one) counts as a miss."""
    estimate, low, high = (np.asarray(a, dtype=np.float64) for a in (estimate, low, high))
    if truth is None:
        true = estimate.mean(axis=0, keepdims=True)
    else:
        true = np.broadcast_to(np.asarray(truth, dtype=np.float64), low.shape)
    hit = (low <= true) & (true <= high)
    p, lo, hi = wilson_interval(int(hit.sum()), hit.size)
    return {"case": name, "kind": kind,
            "truth": float(truth) if truth is not None and np.ndim(truth) == 0 else math.nan,
            "replications": len(low), "intervals": int(hit.size), "covered": int(hit.sum()),
            "coverage": p, "coverage_lo": lo, "coverage_hi": hi, "exact": math.nan,
            "mean_width": float(np.nanmean(high - low))}


def markdown(table: pd.DataFrame) -> str:
    """The coverage table as Markdown: a row per case, its coverage with its 95% interval (and
    the exact coverage where known)."""
    lines = ["| case | interval | replications | intervals | coverage [95%] | exact | mean width |",
             "|---|---|---|---|---|---|---|"]
    for r in table.itertuples(index=False):
        exact = "" if pd.isna(r.exact) else f"{r.exact:.3f}"
        lines.append(f"| `{r.case}` | {r.kind} | {int(r.replications):,} | "
                     f"{int(r.intervals):,} | {r.coverage:.3f} "
                     f"[{r.coverage_lo:.3f}, {r.coverage_hi:.3f}] | {exact} | "
                     f"{r.mean_width:.4g} |")
    return "\n".join(lines) + "\n"


def run(names, replications: int, seed: int, jobs: int, out: str, say=print) -> pd.DataFrame:
    """Every case of ``names`` not yet in ``out/coverage.csv`` (for this seed and number of
    replications), the file rewritten after each (under a lock, keeping what other runs wrote
    meanwhile); the whole table."""
    from cardsim.experiments.store import folder_lock
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "coverage.csv")

    def read() -> pd.DataFrame:
        return (pd.read_csv(path) if os.path.exists(path)
                else pd.DataFrame(columns=COLUMNS + ["seed"]))
    for name in names:
        table = read()
        done = (table["case"] == name) & (table["replications"] == replications) & (
            table["seed"] == seed)
        if done.any():
            continue
        t = time.perf_counter()
        case = CASES[name]
        truth = case.truth() if callable(case.truth) else case.truth
        row = coverage_row(name, case.kind, *replicate(name, replications, seed, jobs), truth)
        row["exact"] = case.exact() if case.exact else math.nan
        row["seed"] = seed
        with folder_lock(out, ".coverage.lock", "another coverage run"):
            table = read()          # what other runs wrote meanwhile, kept
            table = pd.concat([table[table["case"] != name], pd.DataFrame([row])],
                              ignore_index=True)
            table.to_csv(path + ".tmp", index=False)
            os.replace(path + ".tmp", path)
            with open(os.path.join(out, "coverage.md"), "w", encoding="utf-8") as f:
                f.write(markdown(table))
        say(f"{name}: {row['coverage']:.3f} [{row['coverage_lo']:.3f}, "
            f"{row['coverage_hi']:.3f}] of {row['intervals']} intervals "
            f"({time.perf_counter() - t:.0f} s)")
    return read()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardsim.experiments.coverage",
                                description="How often the toolkit's 95%% intervals cover "
                                            "a known truth.")
    p.add_argument("--case", action="append", choices=list(CASES),
                   help="a case to run (repeatable; every case without it)")
    p.add_argument("--replications", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default="runs/coverage")
    args = p.parse_args(argv)
    if args.replications < 2:
        p.error(f"--replications {args.replications}: expected at least 2")
    try:
        run(args.case or list(CASES), args.replications, args.seed, args.jobs, args.out)
    except CardsimError as e:
        print(f"coverage: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
