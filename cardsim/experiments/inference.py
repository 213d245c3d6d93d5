"""How much inference knows: the probability weighted worlds give the true hidden cards.

For each game, whole deals are played by ``players`` (every seat) from seeded deals; at every
``every``-th decision with two or more legal moves the player to move samples ``worlds``
worlds (:func:`cardsim.solvers.inference.infer_worlds`) and the measure of the papers (Rebstock et al.
2019) is taken: the mean over the cards in the other hands of the log probability that the
worlds give each its true holder (:func:`cardsim.solvers.inference.log_prob_of_truth`), for

- ``uniform``: the worlds unweighted (every solver's worlds without inference);
- ``weighted``: the same worlds weighted by the heuristic model (``epsilon``);
- ``tempered``: those weights tempered to keep a tenth of the worlds effective (what an
  analysis with inference draws from).

The model is the heuristic: with heuristic players it is right, with any other it is wrong,
which measures how much a wrong model costs. Per game, players and third of the deal:
positions, the three means, the gain of each over uniform as a share of uniform's (positive:
the truth is more probable) with its 95% interval over deals (Student's t of the per-deal
mean differences), and the mean effective number of worlds.

    python -m cardsim.experiments.inference --game scopa --players heuristic --deals 40 \\
        --out runs/inference

writes (or adds to) ``inference.csv`` and ``inference.md`` in ``--out``; each game and
players replaces its own rows.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim.stats import mean_interval

STAGES = ("early", "middle", "late")
COLUMNS = ["game", "players", "stage", "positions", "deals", "uniform", "weighted", "tempered",
           "gain", "gain_lo", "gain_hi", "tempered_gain", "tempered_gain_lo",
           "tempered_gain_hi", "effective", "worlds", "epsilon"]


def position_rows(game_name: str, players: str, deals: int, every: int, worlds: int,
                  epsilon: float, seed: int, rules: dict | None = None) -> pd.DataFrame:
    """One row per measured position: deal, move, moves, and the three log probabilities."""
    import cardsim
    from cardsim.solvers.agents import parse_agent, play
    from cardsim.solvers.inference import infer_worlds, log_prob_of_truth
    game = cardsim.load_game(game_name, **(rules or {}))
    agents = [parse_agent(players, game)] * game.num_players
    rows = []
    for deal in range(deals):
        deal_seq, play_seq, world_seq = np.random.SeedSequence([seed, deal]).spawn(3)
        state = game.new_deal(seed=deal_seq)
        start = state.clone()
        play(state, agents, seed=play_seq)
        replay = start
        for k, action in enumerate(state.actions):
            if k % every == every - 1 and len(replay.legal_actions()) > 1:
                player = replay.current_player()
                s = int(world_seq.generate_state(1, dtype=np.uint64)[0]) + k
                w = infer_worlds(replay, player, worlds, seed=s, epsilon=epsilon)
                uniform = infer_worlds(replay, player, worlds, seed=s, epsilon=None)
                truth = {name: log_prob_of_truth(replay, player, ws) for name, ws in
                         (("uniform", uniform), ("weighted", w),
                          ("tempered", w.tempered(worlds / 10)))}
                if not math.isnan(truth["uniform"]):
                    rows.append({"deal": deal, "move": k, "moves": len(state.actions),
                                 "effective": w.effective, **truth})
            replay.apply_action(action)
    return pd.DataFrame(rows)


def summary(rows: pd.DataFrame, game: str, players: str, worlds: int,
            epsilon: float) -> pd.DataFrame:
    """Per third of the deal and overall (module docstring)."""
    stage = np.minimum((3 * rows["move"] / rows["moves"]).astype(int), 2)
    out = []
    for s in (None, 0, 1, 2):
        part = rows if s is None else rows[stage == s]
        if part.empty:
            continue
        per_deal = part.groupby("deal")[["uniform", "weighted", "tempered"]].mean()
        base = abs(per_deal["uniform"].mean())
        gains = {k: mean_interval(((per_deal[k] - per_deal["uniform"]) / base).to_numpy())
                 for k in ("weighted", "tempered")}
        out.append({"game": game, "players": players, "stage": "all" if s is None else
                    STAGES[s], "positions": len(part), "deals": len(per_deal),
                    "uniform": part["uniform"].mean(), "weighted": part["weighted"].mean(),
                    "tempered": part["tempered"].mean(), "gain": gains["weighted"][0],
                    "gain_lo": gains["weighted"][1], "gain_hi": gains["weighted"][2],
                    "tempered_gain": gains["tempered"][0],
                    "tempered_gain_lo": gains["tempered"][1],
                    "tempered_gain_hi": gains["tempered"][2],
                    "effective": part["effective"].mean(), "worlds": worlds,
                    "epsilon": epsilon})
    return pd.DataFrame(out, columns=COLUMNS)


def markdown(table: pd.DataFrame) -> str:
    """The table as Markdown, intervals in brackets."""
    def pct(v, lo, hi):
        return f"{100 * v:+.1f}% [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    lines = ["| game | players | stage | positions | uniform | weighted | tempered | gain | "
             "tempered gain | effective worlds |", "|" + "---|" * 10]
    for r in table.itertuples():
        lines.append(f"| {r.game} | {r.players} | {r.stage} | {r.positions:,} | "
                     f"{r.uniform:.3f} | {r.weighted:.3f} | {r.tempered:.3f} | "
                     f"{pct(r.gain, r.gain_lo, r.gain_hi)} | "
                     f"{pct(r.tempered_gain, r.tempered_gain_lo, r.tempered_gain_hi)} | "
                     f"{r.effective:.0f} of {r.worlds:,} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardsim.experiments.inference",
                                description="the log probability of the true hidden cards "
                                "under inference's worlds against uniform ones")
    p.add_argument("--game", required=True)
    p.add_argument("--players", default="heuristic", help="the agent of every seat")
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--every", type=int, default=3, help="measure every K-th decision")
    p.add_argument("--worlds", type=int, default=1000)
    p.add_argument("--epsilon", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--out", default="runs/inference")
    args = p.parse_args(argv)
    from cardsim.protocol.options import parse_option_pairs
    rows = position_rows(args.game, args.players, args.deals, args.every, args.worlds,
                         args.epsilon, args.seed, parse_option_pairs(args.option))
    table = summary(rows, args.game, args.players, args.worlds, args.epsilon)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "inference.csv"
    if path.exists():
        old = pd.read_csv(path)
        old = old[~((old["game"] == args.game) & (old["players"] == args.players))]
        table = pd.concat([old, table], ignore_index=True)
    table.to_csv(path, index=False)
    (out / "inference.md").write_text(markdown(table))
    print(markdown(table[(table["game"] == args.game) & (table["players"] == args.players)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
