"""Duplicate play: every deal played once per rotation of the seats over the same cards.

With 2 players each deal is played twice, the agents swapping seats; with more, once per
rotation (seat ``s`` plays ``agents[(s + r) % n]`` in rotation ``r``). Luck of the cards then
cancels out of the comparison: a deal's *margin* for agent 0 is the mean over rotations of
its return. Deal ``i`` comes from ``SeedSequence([*seed, i])``; each rotation's agents draw
from their own stream spawned from it, so results do not depend on how deals are split into
batches or workers.

:func:`play_duplicate` returns the games as :class:`DuplicateResults`: per game its deal,
rotation and dealer, the agent at each seat, each seat's return, decisions and thinking time,
the moves and wall-clock time, and what the game says of the deal at its end (its scoring
categories per seat and its deal facts: :mod:`cardsim.protocol.outcome`). The experiment
store's rows are built from them in :mod:`cardsim.experiments.rows`.

A deal may start from a *setup* (``setup``: what ``Game.new_deal(seed, **setup)`` takes besides
the seed, such as Bura's ``first_leader`` or Mushka's ``records``); the cards are the seed's
either way, so the same seeds played from two setups are the same deals. A deal condition
(``where``: :mod:`cardsim.deals`) deals every deal under it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.errors import AgentError, CardsimError
from cardsim.protocol.outcome import deal_facts, match_facts, seat_scores
from cardsim.stats import mean_interval

from .agents import (
    NO_LINE,
    parse_agent,
    play_deal_by_deal,
    play_out,
    prime_record,
    switches,
    workspace,
)


@dataclass(frozen=True)
class DuplicateResults:
    """The games of :func:`play_duplicate` in the order played (deal by deal, each deal's
    rotations in order): one entry per game; the per-seat arrays have a column per seat."""

    deal: np.ndarray
    """int64: the deal's index ``i``."""
    rotation: np.ndarray
    """int64: the rotation ``r`` (seat ``s`` played by ``agents[(s + r) % n]``)."""
    seed: np.ndarray
    """int64: the last word of the deal's entropy ``[*seed, i]``."""
    dealer: np.ndarray
    """int64: the dealer's seat (-1 in a game without one)."""
    seats: np.ndarray
    """int64, per seat: the index in ``agents`` of the agent at the seat."""
    returns: np.ndarray
    """float64, per seat: the seat's return."""
    moves: np.ndarray
    """int64: the moves played."""
    seconds: np.ndarray
    """float64: the game's wall-clock time."""
    decisions: np.ndarray
    """int64, per seat: the moves the seat chose among two or more legal ones."""
    options: np.ndarray
    """int64, per seat: the legal moves the seat chose among in those decisions, summed."""
    think: np.ndarray
    """float64, per seat: the seconds the seat's agent spent on its decisions, measured for the
    searching agents (ISMCTS, PIMC, the oracle); NaN for the random and heuristic players,
    which are not timed."""
    scores: tuple[dict, ...]
    """Per game, the game's scoring categories per seat and how the deal ended
    (:func:`cardsim.protocol.outcome.seat_scores`)."""
    facts: tuple[dict, ...]
    """Per game, the game's ``deal_columns(vec, rules)`` where its notation module has one
    (Bura: ``first_leader``, ``last_trick``, which a match's next deal depends on), else
    empty; a whole match's also its trajectory (:func:`cardsim.protocol.outcome.match_facts`),
    where the game has a ``standing``."""

    def __len__(self) -> int:
        return len(self.deal)


def play_duplicate(game, agents, deals, seed=0, match: bool = False, rotate: bool = True,
                   progress=None, equity=None, setup=None, where=None) -> DuplicateResults:
    """Every deal played once per rotation (module docstring). ``deals`` is a count or an
    iterable of deal indices; ``seed`` an int or a tuple of ints (the deal's entropy prefix);
    with ``rotate=False`` each deal is played once, seat s by ``agents[s]``; ``equity`` is the
    match-equity table of agents with ``value=match`` (:func:`cardsim.solvers.agents.workspace`);
    ``setup`` (a dict) starts every deal from it and ``where`` (a deal condition, parsed or
    not) deals every deal under it (module docstring; not a match: ``Game.new_match`` takes a
    seed only); ``progress(1)`` is called after each deal."""
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
    ws = workspace(spec, agents, equity)
    run = play_out[spec, switches(agents)]
    games = {k: [] for k in ("deal", "rotation", "seed", "dealer", "seats", "returns", "moves",
                             "seconds", "decisions", "options", "think", "scores", "facts")}
    standing = game.definition.standing if match else None
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
            ws.options[:] = 0
            prime_record(ws, state)
            t = time.perf_counter()
            if standing is None:
                moves = run(spec.params, state.vec, kinds, params, rng, ws, spec.reward_scale,
                            0, NO_LINE)
            else:
                standings = [standing(state.vec, game.rules, n)]
                moves = play_deal_by_deal(run, spec, state, kinds, params, rng, ws, lambda v:
                                          standings.append(standing(v, game.rules, n)))
            seconds = time.perf_counter() - t
            ret = state.returns()
            facts = deal_facts(state)
            if standing is not None:
                facts.update(match_facts(standings, ret))
            game_of = {"deal": i, "rotation": r, "seed": int(seq.entropy[-1]),
                       "dealer": dealer, "seats": order,
                       "returns": [float(ret[s]) for s in range(n)], "moves": int(moves),
                       "seconds": seconds,
                       "decisions": [int(ws.decisions[s]) for s in range(n)],
                       "options": [int(ws.options[s]) for s in range(n)],
                       "think": [float(ws.think[s]) if agents[order[s]].searches
                                 else float("nan") for s in range(n)],
                       "scores": seat_scores(state, n),
                       "facts": facts}
            for k, v in game_of.items():
                games[k].append(v)
        if progress is not None:
            progress(1)
    per_seat = {"seats": np.int64, "returns": np.float64, "decisions": np.int64,
                "options": np.int64, "think": np.float64}
    per_game = {"deal": np.int64, "rotation": np.int64, "seed": np.int64, "dealer": np.int64,
                "moves": np.int64, "seconds": np.float64}
    return DuplicateResults(
        **{k: np.array(games[k], dtype=t).reshape(-1, n) for k, t in per_seat.items()},
        **{k: np.array(games[k], dtype=t) for k, t in per_game.items()},
        scores=tuple(games["scores"]), facts=tuple(games["facts"]))


def agent_returns(results: DuplicateResults, agent: int) -> np.ndarray:
    """Each game's return of the seat ``agent`` played (its last seat when it held several;
    NaN in a game it did not play)."""
    out = np.full(len(results), np.nan)
    for s in range(results.seats.shape[1]):
        mine = results.seats[:, s] == agent
        out[mine] = results.returns[mine, s]
    return out


def deal_returns(results: DuplicateResults, agent: int) -> np.ndarray:
    """Agent ``agent``'s return per deal, averaged over the deal's rotations, in deal order."""
    return pd.Series(agent_returns(results, agent)).groupby(results.deal).mean().to_numpy()


def think_per_decision(results: DuplicateResults, agent: int) -> float:
    """The mean seconds agent ``agent`` thought a decision (a move among two or more) over the
    games; NaN for an agent that is not timed."""
    think = decisions = 0.0
    for s in range(results.seats.shape[1]):
        mine = results.seats[:, s] == agent
        think += pd.Series(results.think[mine, s]).sum(min_count=1)
        decisions += results.decisions[mine, s].sum()
    return float(think / decisions) if decisions else float("nan")


def margin(results: DuplicateResults, agent: int = 0) -> tuple[float, float, float]:
    """Agent ``agent``'s mean return per deal (averaged over rotations first, so the paired
    deals give the standard error) with its 95% interval."""
    return mean_interval(deal_returns(results, agent))
