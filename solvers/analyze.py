"""Position analysis: every legal action's expected return and win probability, for a position
as the player to move sees it (DESIGN.md §3).

For each of ``worlds`` sampled worlds (the game's ``determinize``: consistent with what the
player has seen, never the true hidden cards) every legal action is played and the rest of
the deal is played out by an agent in every seat (``heuristic`` by default, any agent spec).
The same worlds and the same random stream serve every action (common random numbers), so the
differences between actions are measured more precisely than each value alone. A deal's
return is the game's: Scopa's point difference, Bura's stakes; *win* means a return above 0.
Intervals: 95% normal interval of the mean return, Wilson interval of the win rate.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.bits import copy_words
from cardsim.errors import CardsimError
from cardsim.jit import G, generic
from cardsim.rng import rng_from_seed
from cardsim.stats import mean_interval, wilson_interval

from .agents import Agent, parse_agent, play_out, switches, workspace


@dataclass(frozen=True)
class AnalysisConfig:
    """What to analyze: the player (must be the one to move), the agent that plays every
    seat after the first move, the number of sampled worlds and the seed."""

    player: int
    agent: str = "heuristic"
    worlds: int = 200
    seed: int = 0


@generic
def _evaluate(params, root, player, actions, n_actions, n_worlds, kinds, agent_params,
              rng, ws, reward_scale, world, state, out):
    """``out[i, w]`` = the player's return after action ``i`` in world ``w``."""
    seeds = np.empty(4, dtype=np.uint64)
    line = np.zeros(0, dtype=np.int64)
    for w in range(n_worlds):
        G.determinize(root, params, player, rng, world)
        for k in range(4):
            seeds[k] = rng[k]
        for i in range(n_actions):
            copy_words(state, world)
            copy_words(rng, seeds)        # the same stream after every action
            G.apply_action(state, params, actions[i])
            play_out(params, state, kinds, agent_params, rng, ws, reward_scale, 0, line)
            G.returns(state, params, ws.search.rets)
            out[i, w] = ws.search.rets[player]


def analyze(state, config: AnalysisConfig) -> pd.DataFrame:
    """One row per legal action of ``state`` (a :class:`cardsim.State`): mean return with its
    95% interval, win rate with its Wilson interval, sorted best first."""
    spec = state.game.spec
    if state.is_terminal():
        raise CardsimError("the position is over: nothing to analyze")
    mover = state.current_player()
    if config.player != mover:
        raise CardsimError(f"player {config.player} is not to move (seat {mover} is): analyze "
                           "the position of the player to move")
    if config.worlds < 2:
        raise CardsimError(f"worlds={config.worlds}: expected at least 2")
    agent = (config.agent if isinstance(config.agent, Agent)
             else parse_agent(config.agent, state.game))
    legal = np.array(state.legal_actions(), dtype=np.int64)
    out = np.zeros((len(legal), config.worlds), dtype=np.float64)
    kinds = np.full(spec.n_players, agent.kind, dtype=np.int64)
    params = np.stack([agent.params] * spec.n_players)
    evaluate = _evaluate[spec, switches([agent])]
    evaluate(spec.params, state.vec, config.player, legal, len(legal), config.worlds, kinds,
             params, rng_from_seed(config.seed), workspace(spec, [agent]), spec.reward_scale,
             np.zeros(spec.state_len, dtype=np.uint64),
             np.zeros(spec.state_len, dtype=np.uint64), out)
    rows = []
    for i, a in enumerate(legal):
        mean, lo, hi = mean_interval(out[i])
        wins = int((out[i] > 0).sum())
        _, wlo, whi = wilson_interval(wins, config.worlds)
        rows.append({"action": state.action_to_string(int(a)), "mean_return": mean,
                     "return_low": lo, "return_high": hi,
                     "win_rate": wins / config.worlds, "win_low": wlo, "win_high": whi})
    table = pd.DataFrame(rows).sort_values("mean_return", ascending=False, kind="stable")
    table.attrs["note"] = (f"{config.worlds} sampled worlds for player {config.player}, played "
                           f"out by {agent.name}; 95% intervals")
    return table.reset_index(drop=True)


__all__ = ["AnalysisConfig", "analyze"]
