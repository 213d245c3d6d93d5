"""Strength against search budget, and whether searching agents thought for equal time: the
report's ``budget`` section and the sentence of its ``timing`` section
(:mod:`cardsim.reports.content`)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from cardsim.experiments import tables as T
from cardsim.solvers.agent_spec import parse_agent, search_budget
from cardsim.stats import mean_interval, welch_t95


def equal_time(thinking: pd.DataFrame, asked) -> str:
    """Whether the searching agents of each matchup of the ``thinking`` table thought for equal
    time per decision (:data:`cardsim.experiments.tables.EQUAL_TIME`). ``asked(name)`` is an agent's
    budget (kind and amount; None for an agent without one): two agents given different budgets
    (a study of strength against budget) think for different times by design, and are named
    apart, not as a failure of equal time."""
    uneven, by_design, pairs = [], [], 0
    for label, group in thinking.groupby("label", sort=False):
        timed = group.dropna(subset=["time_ratio"])
        ratios = timed["time_ratio"]
        pairs += len(ratios) > 1
        if len(ratios) > 1 and (abs(ratios - 1) > T.EQUAL_TIME).any():
            worst = ratios.iloc[int(np.argmax(abs(ratios.to_numpy() - 1)))]
            budgets = [asked(name) for name in timed["name"]]
            differ = None not in budgets and len(set(budgets)) == len(budgets)
            (by_design if differ else uneven).append(f"{label} (time ratio {worst:.2f})")
    if not pairs:
        return ("Thinking time per decision of each searching agent (no matchup has two "
                "searching agents to compare).")
    design = ("" if not by_design else
              " Agents given different budgets think for different times by design: "
              + "; ".join(by_design) + ".")
    if not uneven and len(by_design) == pairs:
        return "No matchup pits two searching agents of the same budget." + design
    if not uneven:
        return ("Equal time per move: in every matchup of two or more searching agents "
                + ("with the same budget " if by_design else "")
                + f"their thinking times per decision agree within {T.EQUAL_TIME:.0%}."
                + design)
    return (f"Not equal time per move: {'; '.join(uneven)} — their thinking times per "
            f"decision differ by more than {T.EQUAL_TIME:.0%}." + design)


def budget_table(rows: pd.DataFrame, agents: list[str], matchups: pd.DataFrame,
                 order: dict, game: str | None = None, levels: dict | None = None,
                 same_deals: bool = False,
                 thinking: pd.DataFrame | None = None) -> pd.DataFrame | None:
    """Strength against budget: for each group of searching agents equal but for their budget
    (:func:`cardsim.solvers.agent_spec.search_budget`), every matchup in which one of them meets the same
    opponents, as one series; None when no series has two budgets or more. A named level is
    the agent ``levels`` (the manifest's) says it stood for, else ``game``'s today. With a
    field matchup, the gain over it (:func:`_gain_over_field`; paired by deal when the run
    played the ``same_deals`` in every matchup). Given the run's ``thinking`` table (store
    schema 2), each row also has the searcher's own ``ms_per_decision``: its budget as spent,
    where ``ms_per_move`` is the matchup's, every player's moves together."""
    out = []
    for m, seating in order.items():
        names = T.distinct_agents(seating)
        if len(names) != 2:
            continue
        for k in names:
            b = search_budget(parse_agent((levels or {}).get(agents[k], agents[k]), game))
            if b is None:
                continue
            opp = [j for j in names if j != k]
            r = matchups[(matchups["matchup"] == m) & (matchups["agent"] == k)].iloc[0]
            opponent = ", ".join(agents[j] for j in opp)
            out.append({"key": (b[2], opponent), "agent": agents[k], "matchup": m,
                        "agent_index": k, "budget_kind": b[0],
                        "budget": b[1], "opponent": opponent, "games": r["games"],
                        **{c: r[c] for c in ("mean_return", "mean_return_lo", "mean_return_hi",
                                             "win_rate", "win_rate_lo", "win_rate_hi",
                                             "ms_per_move")}})
    if not out:
        return None
    data = pd.DataFrame(out)
    _gain_over_field(data, agents, matchups, order, rows if same_deals else None)
    keys = [key for key, part in data.groupby("key", sort=False)
            if part["budget"].nunique() >= 2]
    if not keys:
        return None
    data = data[data["key"].isin(keys)].copy()
    base = {key: agents_base(part["agent"].iloc[0]) for key, part in data.groupby(
        "key", sort=False)}
    data["series"] = [f"{base[k]} vs {opp}" for k, opp in zip(data["key"], data["opponent"])]
    data = data.drop(columns="key").sort_values(["series", "budget"], kind="stable")
    gain = ["gain", "gain_lo", "gain_hi"] if "gain" in data else []
    own = []
    if thinking is not None and len(thinking) and thinking["ms_per_decision"].notna().any():
        spent = thinking.set_index(["matchup", "agent"])["ms_per_decision"]
        data["ms_per_decision"] = [spent.get((m, k), math.nan) for m, k in
                                   zip(data["matchup"], data["agent_index"])]
        own = ["ms_per_decision"]
    data = data[["series", "agent", "budget_kind", "budget", "opponent", "games",
                 "mean_return", "mean_return_lo", "mean_return_hi", *gain, "win_rate",
                 "win_rate_lo", "win_rate_hi", "ms_per_move", *own]].reset_index(drop=True)
    paired = "the per-deal differences, every matchup having played the same deals"
    data.attrs["note"] = ("Each searching agent's mean return and win rate against the same "
                          "opponent by budget (paired 95% intervals; Wilson for win rates)"
                          + ("; gain: the mean return minus that of the opponent playing every "
                             "seat (the field), 95% interval of "
                             + (paired if same_deals and rows is not None else
                                "the difference of the two independent means")
                             if gain else "")
                          + ("; ms_per_decision: the searcher's own thinking time per "
                             "decision (ms_per_move: the matchup's, all players together)"
                             if own else "") + ".")
    return data


def _gain_over_field(data: pd.DataFrame, agents: list[str], matchups: pd.DataFrame,
                     order: dict, rows: pd.DataFrame | None = None) -> None:
    """Add ``gain``, ``gain_lo``, ``gain_hi`` to the budget rows when the run has a *field*: a
    matchup in which one opponent plays every seat. In a game that is not zero-sum (Mushka: a
    field of heuristics writes records off every deal) a searcher's mean return means little
    alone; its gain is its mean return minus the field's mean return per seat. Given ``rows``
    of a run whose matchups played the same deals, the interval is paired: that of the
    per-deal differences. Otherwise the two means are independent and the interval is
    ``gain ± t·sqrt(se² + se_field²)`` (t at Welch's degrees of freedom over the deals:
    :func:`cardsim.stats.welch_t95`). Rows without a field get NaN; nothing is added when no
    row has one."""
    fields = {}
    for m, seating in order.items():
        if len(set(seating)) == 1:
            r = matchups[matchups["matchup"] == m].iloc[0]
            fields[agents[seating[0]]] = (m, r["mean_return"], r["return_se"], r["deals"])
    if not fields:
        return
    own = matchups.set_index(["matchup", "agent"])[["return_se", "deals"]]
    means = None
    if rows is not None:
        means = T.deal_means(T.agent_results(rows, agents)).set_index(
            ["matchup", "agent", "deal"])["return"]
    out = []
    for _, r in data.iterrows():
        base = fields.get(r["opponent"])
        if base is None:
            out.append((math.nan,) * 3)
        elif means is not None:
            mine = means.loc[(r["matchup"], r["agent_index"])]
            field_deals = means.loc[(base[0], order[base[0]][0])]
            diff = (mine - field_deals.reindex(mine.index)).dropna().to_numpy()
            out.append(mean_interval(diff))
        else:
            g = r["mean_return"] - base[1]
            se, deals = own.loc[(r["matchup"], r["agent_index"])]
            half = float(welch_t95(se, deals, base[2], base[3])) * math.hypot(se, base[2])
            out.append((g, g - half, g + half))
    if not all(math.isnan(g) for g, _, _ in out):
        data["gain"], data["gain_lo"], data["gain_hi"] = (list(c) for c in zip(*out))


def agents_base(agent: str) -> str:
    """An agent string without its budget: ``ismcts:iterations=40,c=1`` -> ``ismcts:c=1``,
    ``pimc:worlds=20`` -> ``pimc``."""
    kind, _, rest = agent.partition(":")
    budget = ("seconds", "worlds") if kind == "pimc" else ("iterations", "seconds")
    keep = [p for p in rest.split(",") if p and p.split("=")[0].strip() not in budget]
    return kind + (":" + ",".join(keep) if keep else "")
