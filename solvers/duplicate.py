"""Duplicate play: every deal played once per rotation of the seats over the same cards.

With 2 players each deal is played twice, the agents swapping seats; with more, once per
rotation (seat ``s`` plays ``agents[(s + r) % n]`` in rotation ``r``). Luck of the cards then
cancels out of the comparison: a deal's *margin* for agent 0 is the mean over rotations of
its return. Deal ``i`` comes from ``SeedSequence([seed, i])``; each rotation's agents draw
from their own stream spawned from it, so results do not depend on how deals are split.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.errors import AgentError
from cardsim.stats import mean_interval

from .agents import parse_agent, play_out, workspace


def play_duplicate(game, agents, deals: int, seed: int = 0, match: bool = False,
                   progress=None) -> pd.DataFrame:
    """One row per deal and rotation: ``deal``, ``rotation``, ``return_<k>`` for each agent
    ``k`` (the return of the seat it played) and ``moves``."""
    agents = [parse_agent(a) if isinstance(a, str) else a for a in agents]
    spec = game.spec
    n = spec.n_players
    if len(agents) != n:
        raise AgentError(f"expected {n} agents, one per seat, got {len(agents)}")
    ws = workspace(spec, agents)
    rows = []
    for i in range(deals):
        seq = np.random.SeedSequence([seed, i])
        deal_seq, *agent_seqs = seq.spawn(1 + n)
        start = game.new_match(seed=deal_seq) if match else game.new_deal(seed=deal_seq)
        for r in range(n):
            seating = [agents[(s + r) % n] for s in range(n)]
            state = start.clone()
            kinds = np.array([a.kind for a in seating], dtype=np.int64)
            params = np.stack([a.params for a in seating])
            rng = agent_seqs[r].generate_state(4, dtype=np.uint64)
            moves = play_out(spec.game_id, spec.params, state.vec, kinds, params, rng, ws,
                             spec.reward_scale)
            ret = state.returns()
            row = {"deal": i, "rotation": r, "moves": int(moves)}
            for s in range(n):
                row[f"return_{(s + r) % n}"] = ret[s]
            rows.append(row)
        if progress is not None:
            progress(1)
    return pd.DataFrame(rows)


def margin(table: pd.DataFrame, agent: int = 0) -> tuple[float, float, float]:
    """Agent ``agent``'s mean return per deal (averaged over rotations first, so the paired
    deals give the standard error) with its 95% interval."""
    per_deal = table.groupby("deal")[f"return_{agent}"].mean()
    return mean_interval(per_deal.to_numpy())
