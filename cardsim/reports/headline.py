"""The answer of a run in a few plain sentences: who is better, by how much, how sure.

The same sentences open the terminal output of ``cardsim run`` / ``cardsim demo`` and the
report's "Who is better" section, so the two never disagree. Computed from the matchups table
(:func:`cardsim.experiments.tables.matchup_table`) and, for an agent playing itself, from the
seat table of that matchup's games:

- two agents, deals: the first agent's mean return per deal (a zero-sum game) or its return
  minus the other's (Mushka: every seat can gain at once), paired over duplicate deals —
  "ISMCTS (500 iterations) beats the heuristic by 0.49 points a deal [0.26, 0.72], 150
  duplicate deals";
- two agents, matches: the first agent's share of matches won, with its Wilson interval over
  the duplicate pairs;
- one agent against itself: only the seats differ, so the answer is seat 0's mean return (the
  worth of what a ``[deal]`` condition gives seat 0, or the seat's advantage).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from cardsim.experiments import tables as T
from cardsim.experiments.rows import distinct_agents
from cardsim.solvers.agent_spec import level
from cardsim.stats import fmt_amount, fmt_interval, fmt_percent

SEARCHES = {"ismcts": "ISMCTS", "pimc": "PIMC", "exact": "the exact solver"}
"""Agent kinds written as their names (the rest as ``the <kind>``)."""

COUNTED = ("iterations", "worlds")
"""Budget options written as a count: ``ismcts:iterations=500`` is ISMCTS (500 iterations)."""


def agent_words(spec: str) -> str:
    """An agent spec in words: ``random`` -> the random player, ``heuristic`` -> the heuristic,
    ``ismcts:iterations=500`` -> ISMCTS (500 iterations), a named level as its name."""
    kind, _, rest = spec.partition(":")
    if not rest and level(kind) is not None:
        return kind
    name = {"random": "the random player"}.get(kind) or SEARCHES.get(kind) or f"the {kind}"
    if not rest:
        return name
    parts = []
    for item in rest.split(","):
        key, _, value = item.partition("=")
        parts.append(f"{value} {key}" if key in COUNTED else f"{key}={value}")
    return f"{name} ({', '.join(parts)})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass
class Answer:
    """One matchup's answer: the sentence, and its row of the summary table (``verdict``:
    better, worse, no clear difference; ``None`` for an agent against itself)."""

    text: str
    matchup: str
    figure: str
    verdict: str | None
    count: int


def answers(rows: pd.DataFrame, agents: Sequence[str], unit: str, return_unit: str,
            zero_sum: bool, matchups: pd.DataFrame | None = None) -> list[Answer]:
    """Each matchup's answer (module docstring), in matchup order. ``unit``: the spec's
    (``deal`` or ``match``); ``return_unit``: the game's (points, stakes, ...);
    ``matchups``: the matchup table when the caller has it."""
    m = T.matchup_table(rows, agents) if matchups is None else matchups
    first = m.drop_duplicates("matchup", keep="first")
    order = T.matchup_agents(rows)
    match = unit == "match"
    count_word = "matches" if match else "deals"
    out = []
    for _, r in first.iterrows():
        k = int(r["matchup"])
        names = distinct_agents(order[k])
        n = int(r["deals"])
        games = int(r["games"])
        over = (f"{n:,} duplicate {count_word} ({games:,} games)" if games > n
                else f"{n:,} {count_word}")
        me = agent_words(str(r["name"]))
        if len(names) == 1:
            out.append(_self_play(rows[rows["matchup"] == k], me, str(r["label"]), match,
                                  return_unit, over))
            continue
        other = " and ".join(agent_words(agents[a]) for a in names[1:])
        if match:
            est, lo, hi = (float(r[f"win_rate{e}"]) for e in ("", "_lo", "_hi"))
            figure = fmt_percent(est, lo, hi)
            verdict = "better" if lo > 0.5 else "worse" if hi < 0.5 else "no clear difference"
            text = (f"{_capital(me)} wins {figure} of its matches against {other}"
                    + (": no clear difference" if verdict == "no clear difference" else "")
                    + f", {over}.")
        else:
            key = "mean_return" if zero_sum else "margin"
            scale = 1.0 if zero_sum else 2.0
            est, lo, hi = (scale * float(r[f"{key}{e}"]) for e in ("", "_lo", "_hi"))
            per = f"{return_unit} a deal"
            if lo > 0:
                verdict, text = "better", (f"{_capital(me)} beats {other} by "
                                           f"{fmt_amount(est, lo, hi, per)}")
            elif hi < 0:
                verdict, text = "worse", (f"{_capital(other)} beats {me} by "
                                          f"{fmt_amount(-est, -hi, -lo, per)}")
            else:
                verdict, text = "no clear difference", (
                    f"No clear difference between {me} and {other}: "
                    f"{fmt_amount(est, lo, hi, per, signed=True)}")
            if not zero_sum:
                text += f" (its {return_unit} minus the other's)"
            figure = fmt_interval(est, lo, hi, 2)
            text += f", {over}."
        out.append(Answer(text, str(r["label"]), figure, verdict, n))
    return out


def _self_play(rows: pd.DataFrame, me: str, label: str, match: bool, return_unit: str,
               over: str) -> Answer:
    """An agent against itself: seat 0's mean return (or match win rate) against the others'."""
    seat = T.seat_table(rows).iloc[0]
    if match:
        est, lo, hi = (float(seat[f"win_rate{e}"]) for e in ("", "_lo", "_hi"))
        figure = fmt_percent(est, lo, hi)
        text = f"{_capital(me)} against itself: seat 0 wins {figure} of the matches ({over})."
    else:
        est, lo, hi = (float(seat[f"mean_return{e}"]) for e in ("", "_lo", "_hi"))
        figure = fmt_interval(est, lo, hi, 2)
        text = (f"{_capital(me)} against itself: seat 0's mean return is "
                f"{fmt_amount(est, lo, hi, f'{return_unit} a deal', signed=True)}, {over}.")
    return Answer(text, label, figure, None, int(seat["deals"]))
