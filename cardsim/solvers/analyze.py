"""Position analysis: every legal action's expected return and win probability, for a position
as the player to move sees it (DESIGN.md §3).

For each of ``worlds`` sampled worlds (the game's ``determinize``: consistent with what the
player has seen, never the true hidden cards) every legal action is played and the rest of
the deal is played out by an agent in every seat (``heuristic`` by default, any agent spec).
The same worlds and the same random stream serve every action (common random numbers), so the
differences between actions are measured more precisely than each value alone. A deal's
return is the game's: Scopa's point difference, Bura's stakes; *win* means a return above 0.
Intervals: 95% interval of the mean return (Student's t over the worlds), Wilson interval of
the win rate.

**Inference** (``AnalysisConfig.infer``; by default where the game's analysis measured better
calibrated on it, Bura and Mushka: :data:`GAME_DEFAULT`; ``cardsim analyze --infer`` or
``--uniform`` chooses): the worlds are drawn, by their weights, from :data:`INFER_POOL` times
as many, each weighted by how likely the other players' moves of the deal so far are in it
(:mod:`cardsim.solvers.inference`). A position without its deal's moves is analyzed on the uniform
worlds.

**For the match** (``equity`` given: a match-equity table of the game, as
:mod:`cardsim.experiments.equity` computes it): each play-out stops at the end of the position's deal,
and its final points move the position's match state (its scores and dealer, seen by the
player: :class:`cardsim.protocol.match.MatchModel`) to the next state or to the match's result; the
action's *match-winning chance* is the mean over the worlds of the table's chance at that
state (1 for a won match, 0 for a lost one, 1/2 for a drawn one), with its 95% interval
(GNU Backgammon's analysis in match-winning chance, "MWC"): the worlds' interval widened by the
table's own error where the table gives it (:class:`Equity`, :func:`match_interval`). The move
that maximises it can differ from the one that maximises expected points: at 10-10 to 11 the
deal's winner matters, not its margin.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from cardsim.compiled.bits import copy_words
from cardsim.compiled.jit import G, generic
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import CardsimError
from cardsim.game import State
from cardsim.protocol.outcome import outcome_row
from cardsim.stats import Z95, mean_interval, wilson_interval

from .agents import Agent, parse_agent, play_out, switches, workspace
from .inference import DEFAULT_EPSILON, deal_record, infer_worlds

INFER_POOL = 10
"""With inference, the worlds of an analysis are resampled from this many times as many
weighted worlds (tempered: :data:`INFER_EFFECTIVE`)."""
INFER_EFFECTIVE = 0.1
"""With inference, the weights are tempered to keep at least this share of the analysis's
worlds effective (:meth:`cardsim.solvers.inference.Worlds.tempered`; measured on Mushka's heuristic
play-on, 1,000 positions: ECE 0.040 at 0.1, 0.058 at 1, 0.066 uniform), and the intervals
widened for the effective number (:meth:`ActionValues.widening`)."""
GAME_DEFAULT = "game"
"""``AnalysisConfig.infer``'s default: inference's worlds (:data:`DEFAULT_EPSILON`) in a game
whose analysis measured better calibrated on them (``GameDefinition.analysis_infers``: Bura,
Mushka), else the uniform worlds (Scopa: as well calibrated and cheaper; Minchiate: worse
calibrated on inference's; README, "How far to trust the figures")."""


def infer_epsilon(config, game) -> float | None:
    """The inference epsilon ``config`` (an :class:`AnalysisConfig` or ``ReviewConfig``) asks
    for in ``game`` (None: uniform worlds), its :data:`GAME_DEFAULT` resolved."""
    if isinstance(config.infer, str):
        if config.infer != GAME_DEFAULT:
            raise CardsimError(f"infer={config.infer!r}: expected a number between 0 and 1, "
                               f"None or {GAME_DEFAULT!r}")
        return DEFAULT_EPSILON if game.definition.analysis_infers else None
    return config.infer


INFER_KEY = 0x696E66   # the seeds of inference's worlds and draw, beside the analysis's own


class Equity(dict):
    """A match-equity table as the analysis reads it: match state -> side a's chance of
    winning the match, and ``se``: match state -> that chance's standard error, from the
    table's 95% bootstrap interval (``(p_high - p_low) / (2 * 1.96)``). A plain dict is a table
    without error."""

    def __init__(self, chances=(), se=None) -> None:
        super().__init__(chances)
        self.se = dict(se or {})


def match_interval(values: np.ndarray, reached, se: dict, minus: np.ndarray | None = None,
                   minus_reached=None) -> tuple[float, float, float]:
    """The mean over the worlds of the match-winning chances ``values`` (less ``minus``'s, the
    same worlds' chances of another action, for a loss) with its 95% interval: the worlds'
    interval (Student's t) and the table's own error added in quadrature. ``reached`` holds
    each world's match state (None where the match ended, a chance without error). The table's
    error of a mean over states is taken as the larger of its two extremes, the states' errors
    fully correlated (the bootstrap resamples every state's deals at once) or independent, so
    the interval never narrows for it."""
    diff = values if minus is None else values - minus
    mean, lo, hi = mean_interval(diff)
    if not se or np.isnan(lo):
        return mean, lo, hi
    weight: dict = {}
    for keys, sign in ((reached, 1.0), (minus_reached, -1.0)):
        for k in (keys if keys is not None else ()):
            if k is not None:
                weight[k] = weight.get(k, 0.0) + sign / len(diff)
    terms = np.array([w * se.get(k, 0.0) for k, w in weight.items()])
    table = Z95 * max(abs(terms.sum()), float(np.sqrt((terms ** 2).sum()))) if terms.size else 0.0
    half = float(np.hypot(hi - mean, table))
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class AnalysisConfig:
    """What to analyze: the player (must be the one to move), the agent that plays every
    seat after the first move, the number of sampled worlds and the seed."""

    player: int
    agent: str = "heuristic"
    worlds: int = 200
    seed: int = 0
    infer: float | None | str = GAME_DEFAULT
    """The inference model's epsilon (:mod:`cardsim.solvers.inference`): the worlds are drawn from
    :data:`INFER_POOL` times as many, by their weights (a position without the deal's moves is
    analyzed on uniform worlds); None samples them uniformly; :data:`GAME_DEFAULT`, the
    default, is the game's choice (:func:`infer_epsilon`)."""


@generic
def _evaluate(params, root, player, actions, n_actions, n_worlds, kinds, agent_params,
              rng, ws, reward_scale, world, state, out, finals, given):
    """``out[i, w]`` = the player's return after action ``i`` in world ``w``; with ``finals``
    of a row per action and world (else none), the final state there too. World ``w`` is
    ``given[w]`` when ``given`` has rows (inference's), else sampled uniformly."""
    seeds = np.empty(4, dtype=np.uint64)
    line = np.zeros(0, dtype=np.int64)
    for w in range(n_worlds):
        if given.shape[0] > 0:
            copy_words(world, given[w])
        else:
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
            if finals.shape[0] > 0:
                copy_words(finals[i * n_worlds + w], state)


class ActionValues(NamedTuple):
    """What :func:`evaluate_actions` measured: the position it played from (a match
    position's deal alone when valued for the match), its legal actions, the player's return
    ``out[i, w]`` after action ``i`` in world ``w``, the match-winning chances likewise (None
    without a table), the match model and state, the play-out agent, and with a table the
    match state each world reached (``reached[i, w]``, None where the match ended) and the
    table's errors (:class:`Equity`)."""

    state: Any
    legal: np.ndarray
    out: np.ndarray
    match: np.ndarray | None
    model: Any
    start: Any
    agent: Agent
    reached: np.ndarray | None = None
    table_se: dict | None = None
    effective: float | None = None

    def widening(self) -> float:
        """How much wider a 95% interval over the worlds must be than the worlds' own: 1 for
        uniform worlds, ``sqrt(worlds / effective)`` for worlds drawn by inference from fewer
        effective ones (a drawn world repeats)."""
        n = self.out.shape[1]
        return 1.0 if self.effective is None else float(np.sqrt(n / min(n, self.effective)))

    def interval(self, values: np.ndarray) -> tuple[float, float, float]:
        """The mean of ``values`` (one per world) with its 95% interval, widened
        (:meth:`widening`)."""
        mean, lo, hi = mean_interval(values)
        f = self.widening()
        return mean, mean - f * (mean - lo), mean + f * (hi - mean)

    def match_interval(self, i: int, minus: int | None = None) -> tuple[float, float, float]:
        """Action ``i``'s match-winning chance (less action ``minus``'s) with its 95%
        interval (:func:`match_interval`)."""
        return match_interval(self.match[i], self.reached[i], self.table_se or {},
                              None if minus is None else self.match[minus],
                              None if minus is None else self.reached[minus])


def evaluate_actions(state, config: AnalysisConfig, equity: dict | None = None,
                     actions=None) -> ActionValues:
    """Every legal action of ``state`` (or only ``actions``, legal ones) played in the same
    ``config.worlds`` worlds sampled for the player to move (module docstring): the values per
    action and world, which :func:`analyze` summarises and ``cardsim.solvers.review`` pairs. An
    action's values are distributed alike whichever others are valued beside it (the worlds
    after the first then differ: each follows the stream its predecessor's play-outs left)."""
    spec = state.game.spec
    if state.is_terminal():
        raise CardsimError("the position is over: nothing to analyze")
    mover = state.current_player()
    if config.player != mover:
        raise CardsimError(f"player {config.player} is not to move (seat {mover} is): analyze "
                           "the position of the player to move")
    if config.worlds < 2:
        raise CardsimError(f"worlds={config.worlds}: expected at least 2")
    given = np.zeros((0, spec.state_len), dtype=np.uint64)
    effective = None
    epsilon = infer_epsilon(config, state.game)
    if epsilon is not None and len(deal_record(state)[1]):   # no moves: uniform worlds
        draw, pick = (int(v) for v in np.random.SeedSequence(
            [config.seed, INFER_KEY]).generate_state(2, dtype=np.uint64))
        pool = infer_worlds(state, config.player, INFER_POOL * config.worlds, seed=draw,
                            epsilon=epsilon).tempered(INFER_EFFECTIVE * config.worlds)
        given = pool.resample(config.worlds, seed=pick)
        effective = pool.effective
    model = start = None
    if equity is not None:
        alone = state
        model, start, state = _for_the_match(state, config.player)
        if state is not alone and len(given):
            given = np.stack([_for_the_match(State(state.game, v), config.player)[2].vec
                              for v in given])
    agent = (config.agent if isinstance(config.agent, Agent)
             else parse_agent(config.agent, state.game))
    legal = np.array(state.legal_actions(), dtype=np.int64)
    if actions is not None:
        wanted = np.array(list(actions), dtype=np.int64)
        if wanted.size == 0 or not np.isin(wanted, legal).all():
            raise CardsimError(f"actions {wanted.tolist()}: expected legal actions of the "
                               "position")
        legal = wanted
    out = np.zeros((len(legal), config.worlds), dtype=np.float64)
    finals = np.zeros((len(legal) * config.worlds if model else 0, spec.state_len),
                      dtype=np.uint64)
    kinds = np.full(spec.n_players, agent.kind, dtype=np.int64)
    params = np.stack([agent.params] * spec.n_players)
    evaluate = _evaluate[spec, switches([agent])]
    evaluate(spec.params, state.vec, config.player, legal, len(legal), config.worlds, kinds,
             params, rng_from_seed(config.seed), workspace(spec, [agent]), spec.reward_scale,
             np.zeros(spec.state_len, dtype=np.uint64),
             np.zeros(spec.state_len, dtype=np.uint64), out, finals, given)
    match = reached = None
    if model:
        match, reached = _match_values(state, finals, config.player, model, start, equity)
        match, reached = (a.reshape(len(legal), config.worlds) for a in (match, reached))
    return ActionValues(state, legal, out, match, model, start, agent, reached,
                        getattr(equity, "se", None), effective)


def analyze(state, config: AnalysisConfig, equity: dict | None = None) -> pd.DataFrame:
    """One row per legal action of ``state`` (a :class:`cardsim.State`): mean return with its
    95% interval, win rate with its Wilson interval, sorted best first; with ``equity`` (match
    state -> side a's chance, side a the player's: module docstring) also the chance of
    winning the match (``match_win``, ``match_low``, ``match_high``), and the table's
    ``attrs["match"]`` says whether the move that maximises it differs from the one that
    maximises the expected points."""
    epsilon = infer_epsilon(config, state.game)
    recorded = len(deal_record(state)[1]) if epsilon is not None else 0
    values = evaluate_actions(state, config, equity)
    state, legal, out, match, model, start, agent = values[:7]
    rows = []
    n = config.worlds / values.widening() ** 2        # the worlds' effective number
    for i, a in enumerate(legal):
        mean, lo, hi = values.interval(out[i])
        wins = int((out[i] > 0).sum())
        _, wlo, whi = wilson_interval(wins / config.worlds * n, n)
        rows.append({"action": state.action_to_string(int(a)), "mean_return": mean,
                     "return_low": lo, "return_high": hi,
                     "win_rate": wins / config.worlds, "win_low": wlo, "win_high": whi})
        if match is not None:
            rows[-1].update(zip(("match_win", "match_low", "match_high"),
                                values.match_interval(i)))
    table = pd.DataFrame(rows).sort_values("mean_return", ascending=False, kind="stable")
    drawn = (f"{config.worlds} sampled worlds" if epsilon is None
             else f"{config.worlds} sampled worlds (no moves of the deal recorded to infer "
             "from)" if not recorded
             else f"{config.worlds} worlds drawn by inference (epsilon {epsilon:g}) from "
             f"{INFER_POOL} times as many")
    table.attrs["note"] = (f"{drawn} for player {config.player}, played out by {agent.name}; "
                           "95% intervals")
    table = table.reset_index(drop=True)
    if match is not None:
        by_action = {state.action_to_string(int(a)): i for i, a in enumerate(legal)}
        table.attrs["match"] = _match_line(table, values, by_action, start, model)
    return table


def _for_the_match(state, player: int):
    """The game's match model, the position's match state seen by ``player``, and the
    position as a lone deal (its play-outs end with the deal)."""
    game = state.game
    model = game.definition.match(game.rules) if game.definition.match else None
    if model is None or model.position is None:
        raise CardsimError(f"{game.name}: no match analysis yet (its positions do not give a "
                           "match state)")
    d = state.to_dict()
    start = model.position(d, player)
    if d.get("mode") == "match":
        state = game.from_dict(model.alone(d))
    return model, start, state


def _match_values(state, finals, player: int, model, start, equity: dict):
    """Each final state's match-winning chance for ``player`` (module docstring), and the
    match state it reached (None where the match ended)."""
    game = state.game
    n = game.num_players
    dealer = state.to_dict()["dealer"]
    rows = pd.DataFrame([outcome_row(State(game, vec), dealer) for vec in finals])
    side = np.array([[(s - player) % 2 for s in range(n)]] * len(rows))
    _, outcomes = model.outcomes(rows, side)
    worth = {"a": 1.0, "b": 0.0, "draw": 0.5}
    values, reached = np.empty(len(rows)), np.empty(len(rows), dtype=object)
    for k, o in enumerate(outcomes):
        nxt = model.step(start, tuple(int(v) for v in o))
        values[k] = worth[nxt] if isinstance(nxt, str) else equity[nxt]
        reached[k] = None if isinstance(nxt, str) else nxt
    return values, reached


def _match_line(table: pd.DataFrame, values: ActionValues, index: dict, start, model) -> str:
    """Whether playing for the match changes the move (``analyze``'s docstring): the move of
    the highest match-winning chance against the move of the most expected points, by their
    difference over the same worlds with its 95% interval; a change is called only when the
    interval excludes 0."""
    points = table.iloc[0]
    match = table.loc[table["match_win"].idxmax()]
    where = ", ".join(f"{c} {v}" for c, v in zip(model.columns, start))
    if match["action"] == points["action"]:
        return (f"at {where}: {points['action']} is best both for the points and for the "
                f"match ({match['match_win']:.3f})")
    diff, lo, hi = values.match_interval(index[match["action"]], index[points["action"]])
    gain = (f"{match['action']} (match {match['match_win']:.3f}, points "
            f"{match['mean_return']:+.3f}) rather than {points['action']} (match "
            f"{points['match_win']:.3f}, points {points['mean_return']:+.3f}): "
            f"{diff:+.3f} [{lo:+.3f}, {hi:+.3f}] match-winning chance")
    if lo > 0:
        return f"at {where}: playing for the match changes the move: {gain}"
    return (f"at {where}: {points['action']} is best for the points; for the match {gain}, "
            "a difference within its interval")


__all__ = ["AnalysisConfig", "Equity", "analyze", "match_interval"]
