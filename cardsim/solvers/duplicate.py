"""Duplicate play: every deal played once per rotation of the seats over the same cards.

With 2 players each deal is played twice, the agents swapping seats; with more, once per
rotation (seat ``s`` plays ``agents[(s + r) % n]`` in rotation ``r``). Luck of the cards then
cancels out of the comparison: a deal's *margin* for agent 0 is the mean over rotations of
its return. Deal ``i`` comes from ``SeedSequence([*seed, i])``; each rotation's agents draw
from their own stream spawned from it, so results do not depend on how deals are split into
batches or workers.

Rows follow the experiment store's format (cardsim/experiments/README in ``experiments``): ``deal``,
``rotation``, ``seed``, ``dealer``, ``seat_<s>`` (the agent index at seat s), ``return_<s>``,
``moves``, ``seconds`` (the game's wall-clock time), ``decisions_<s>`` (the moves seat s chose
among two or more), ``think_<s>`` (the seconds seat s's agent spent on them, measured for the
searching agents — ISMCTS, PIMC, the oracle —; NaN for the random and heuristic players, which
are not timed), ``cat_<category>_<s>`` (the game's per-seat scoring categories), ``end`` (how
the deal ended, where the game says) and the columns of the game's ``deal_columns(vec,
rules)`` where its notation module has one (Bura: ``first_leader``, ``last_trick``, which a
match's next deal depends on).

A deal may start from a *setup* (``setup``: what ``Game.new_deal(seed, **setup)`` takes besides
the seed, such as Bura's ``first_leader`` or Mushka's ``records``); the cards are the seed's
either way, so the same seeds played from two setups are the same deals. A deal condition
(``where``: :mod:`cardsim.deals`) deals every deal under it.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from cardsim.errors import AgentError, CardsimError
from cardsim.stats import mean_interval

from .agents import NO_LINE, parse_agent, play_out, prime_record, switches, workspace


def categories(state, n: int) -> dict:
    """The game's scoring categories per seat from ``score_breakdown``: every list of numbers
    per seat (or per side: seat s belongs to side s % sides) becomes ``cat_<name>_<s>``; a
    result kind becomes ``end``."""
    out = {}
    for name, value in state.score_breakdown().items():
        if isinstance(value, list) and value and all(isinstance(v, (int, float)) and
                                                     not isinstance(v, bool) for v in value):
            if n % len(value) == 0:
                for s in range(n):
                    out[f"cat_{name}_{s}"] = float(value[s % len(value)])
        elif isinstance(value, dict) and isinstance(value.get("kind"), str):
            out["end"] = value["kind"]
    return out


def play_duplicate(game, agents, deals, seed=0, match: bool = False, rotate: bool = True,
                   progress=None, equity=None, setup=None, where=None) -> pd.DataFrame:
    """One row per deal and rotation (module docstring). ``deals`` is a count or an iterable
    of deal indices; ``seed`` an int or a tuple of ints (the deal's entropy prefix); with
    ``rotate=False`` each deal is played once, seat s by ``agents[s]``; ``equity`` is the
    match-equity table of agents with ``value=match`` (:func:`cardsim.solvers.agents.workspace`);
    ``setup`` (a dict) starts every deal from it and ``where`` (a deal condition, parsed or
    not) deals every deal under it (module docstring; not a match: ``Game.new_match`` takes a
    seed only)."""
    agents = [parse_agent(a, game) if isinstance(a, str) else a for a in agents]
    spec = game.spec
    n = spec.n_players
    if len(agents) != n:
        raise AgentError(f"expected {n} agents, one per seat, got {len(agents)}")
    prefix = list(seed) if isinstance(seed, (tuple, list)) else [seed]
    setup = dict(setup or {})
    if (setup or where) and match:
        raise CardsimError("a deal setup or condition starts single deals, not matches (" +
                           ", ".join(sorted(setup) + (["where"] if where else [])) + ")")
    if where:
        from cardsim.deals import parse_where
        where = parse_where(game, where)          # once, not at every deal
    facts = getattr(game.definition.codec, "deal_columns", None)
    ws = workspace(spec, agents, equity)
    run = play_out[spec, switches(agents)]
    rows = []
    for i in (range(deals) if isinstance(deals, int) else deals):
        seq = np.random.SeedSequence([*prefix, i])
        deal_seq, *agent_seqs = seq.spawn(1 + n)
        start = (game.new_match(seed=deal_seq) if match
                 else game.new_deal(seed=deal_seq, where=where or None, **setup))
        dealer = int(start.vec[spec.dealer_word]) if spec.dealer_word >= 0 else -1
        for r in range(n if rotate else 1):
            order = [(s + r) % n for s in range(n)]
            state = start.clone()
            kinds = np.array([agents[k].kind for k in order], dtype=np.int64)
            params = np.stack([agents[k].params for k in order])
            rng = agent_seqs[r].generate_state(4, dtype=np.uint64)
            ws.think[:] = 0.0
            ws.decisions[:] = 0
            prime_record(ws, state)
            t = time.perf_counter()
            moves = run(spec.params, state.vec, kinds, params, rng, ws, spec.reward_scale, 0,
                        NO_LINE)
            seconds = time.perf_counter() - t
            row = {"deal": i, "rotation": r, "seed": int(seq.entropy[-1]), "dealer": dealer,
                   "moves": int(moves), "seconds": seconds}
            ret = state.returns()
            for s in range(n):
                row[f"seat_{s}"] = order[s]
                row[f"return_{s}"] = float(ret[s])
            for s in range(n):
                row[f"decisions_{s}"] = int(ws.decisions[s])
            for s in range(n):
                timed = agents[order[s]].searches
                row[f"think_{s}"] = float(ws.think[s]) if timed else float("nan")
            row.update(categories(state, n))
            if facts is not None:
                row.update(facts(state.vec, game.rules))
            rows.append(row)
        if progress is not None:
            progress(1)
    return pd.DataFrame(rows)


def agent_returns(table: pd.DataFrame, agent: int) -> pd.Series:
    """Each row's return of the seat ``agent`` played."""
    n = sum(1 for c in table.columns if c.startswith("seat_"))
    out = pd.Series(np.nan, index=table.index)
    for s in range(n):
        mine = table[f"seat_{s}"] == agent
        out[mine] = table.loc[mine, f"return_{s}"]
    return out


def think_per_decision(table: pd.DataFrame, agent: int) -> float:
    """The mean seconds agent ``agent`` thought a decision (a move among two or more) over
    ``table``'s rows; NaN for an agent that is not timed."""
    n = sum(1 for c in table.columns if c.startswith("seat_"))
    think = decisions = 0.0
    for s in range(n):
        mine = table[f"seat_{s}"] == agent
        think += table.loc[mine, f"think_{s}"].sum(min_count=1)
        decisions += table.loc[mine, f"decisions_{s}"].sum()
    return float(think / decisions) if decisions else float("nan")


def margin(table: pd.DataFrame, agent: int = 0) -> tuple[float, float, float]:
    """Agent ``agent``'s mean return per deal (averaged over rotations first, so the paired
    deals give the standard error) with its 95% interval."""
    per_deal = agent_returns(table, agent).groupby(table["deal"]).mean()
    return mean_interval(per_deal.to_numpy())
