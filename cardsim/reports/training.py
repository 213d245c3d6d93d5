"""The training report of ``cardsim train``: a training folder's ``train.json`` alone →
``report.md`` and ``learning.png`` in that folder (no new results; rebuilt byte for byte).

The learning curve (held-out squared error of the returns, in units of the game's reward
scale squared, per epoch of every round, beside the error of predicting the mean), and a
table per round: positions, the best epoch, the held-out error, and the strength of the
round's network in search against the heuristic on duplicate deals, beside the same search
with heuristic play-outs.
"""
from __future__ import annotations

import json
from pathlib import Path

from matplotlib.figure import Figure

from .plots import png


def learning_figure(state: dict) -> Figure:
    """Held-out error against epochs, rounds one after another."""
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    ax = fig.subplots()
    ax.grid(True, color="0.9", linewidth=0.6)
    x0 = 0
    styles = ["-", "--", ":", "-."]
    for k, r in enumerate(state["rounds"]):
        xs = [x0 + e["epoch"] for e in r["curve"]]
        ax.plot(xs, [e["held_mse"] for e in r["curve"]], styles[k % 4], color="0.15",
                marker="o", markersize=3, label=f"round {r['round']}: held-out")
        ax.plot(xs, [e["train_mse"] for e in r["curve"]], styles[k % 4], color="0.6",
                linewidth=1, label=f"round {r['round']}: training")
        ax.hlines(r["baseline_mse"], xs[0] - 0.5, xs[-1] + 0.5, color="0.4", linewidth=0.8)
        x0 = xs[-1]
    ax.set_xlabel("epoch (rounds one after another)")
    ax.set_ylabel("squared error of the returns")
    ax.set_title("Learning curve (flat lines: the error of predicting the mean)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def markdown(state: dict) -> str:
    plan = state["plan"]
    rules = ", ".join(f"{k}={v}" for k, v in sorted(plan["rules"].items())) or "default rules"
    lines = [f"# Learned evaluation of {plan['game']} ({rules})", ""]
    if plan.get("view", "world") == "info":
        lines += ["Shown to the network: a world sampled for the seat (the value of its "
                  "information state), not the true one.", ""]
    rounds = state["rounds"]
    if rounds:
        last = rounds[-1]
        net = last.get("strength", {}).get("net")
        if net:
            lines += [f"**After {len(rounds)} round(s)**: `{net['agent']}` gains "
                      f"{net['gain']:+.2f} [{net['low']:+.2f}, {net['high']:+.2f}] per deal "
                      f"against the heuristic ({plan['check_deals']} duplicate deals, 95% "
                      "interval).", ""]
    lines += ["| round | played by | positions | best epoch | held-out error (mean's) "
              "| net search vs heuristic | play-out search vs heuristic | minutes |",
              "| --- | --- | ---: | ---: | --- | --- | --- | ---: |"]
    for r in rounds:
        best = min(r["curve"], key=lambda e: e["held_mse"]) if r["curve"] else {}
        s = r.get("strength", {})

        def cell(name):
            x = s.get(name)
            return (f"{x['gain']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]" if x else "–")
        minutes = sum(r["seconds"].values()) / 60
        lines.append(f"| {r['round']} | `{r['agents']}` | {r['positions']:,} | "
                     f"{r['best_epoch']} | {best.get('held_mse', float('nan')):.3f} "
                     f"({r['baseline_mse']:.3f}) | {cell('net')} | {cell('playout')} | "
                     f"{minutes:.1f} |")
    lines += ["", "![learning curve](learning.png)", "",
              f"Searches in the checks: {plan['check_iterations']} iterations a move. "
              "Rebuild the weights: `" + state.get("command", "cardsim train …") + "`.", ""]
    return "\n".join(lines)


def write_training_report(folder) -> Path:
    """Write ``report.md`` and ``learning.png`` of the training folder ``folder``."""
    folder = Path(folder)
    state = json.loads((folder / "train.json").read_text())
    (folder / "learning.png").write_bytes(png(learning_figure(state)))
    path = folder / "report.md"
    path.write_text(markdown(state))
    return path
