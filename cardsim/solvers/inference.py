"""Inference: the worlds a player samples, weighted by how likely the other players' moves
of the deal so far are in each (DESIGN.md §8).

A world of the game's ``determinize`` is consistent with what the player has seen, drawn
uniformly among those. But the other players chose their moves knowing their own cards: a
player who kept the seven of coins back when a capture of it was open probably could not
take it. Policy-based inference (Rebstock, Solinas, Buro and Sturtevant, "Policy Based
Inference in Trick-Taking Card Games", 2019) weighs each world by the likelihood of those
moves under a model of the players' play. Here:

1. ``n`` worlds are sampled for the player (``determinize``, the same stream as the uniform
   worlds of every other solver);
2. for each, the game's ``world_start`` rebuilds the deal's start the world grew from and its
   ``world_action`` each of the deal's moves as made there (of the deal's true start and
   moves they read only what the player saw: the weights never read a hidden card), and the
   moves are replayed from it (:func:`replay_world`). Where the world leaves part of the
   start open (Mushka: which cards a player drew in his exchange), the game's
   ``WORLD_START_DRAWS`` starts are drawn and the world's likelihood is their mean (the open
   part summed out by Monte Carlo);
3. at every decision of another seat with two or more legal moves, the model gives the move
   as made in the world (its hidden part, a face-down throw's or an exchange's cards, is the
   world's, so the weights also say which of those are likely) its probability; the
   world's weight is the product (its logarithm is returned). Where a world cannot say in
   which order hidden moves were made (Minchiate's discards, one card at a time), the game
   says so (``WORLD_MOVES_WHOLE = False``) and each move counts as the player saw it (the
   game's ``observed_action``), among the legal moves that look alike.

The model (``epsilon``) is the game's heuristic player, softened: of ``n`` legal moves, a move
(or the ``m`` that look alike) has probability ``(1 - epsilon) * share + epsilon * m / n``,
``share`` the share of :data:`TIE_DRAWS` draws of the heuristic's choice that chose it (it
breaks ties at random); a move the world makes illegal has probability 0. ``epsilon =
None`` is the uniform model: every weight is 1, the worlds those the solvers sample without
inference. The heuristic's ties and what a world leaves open draw from the model's own
stream, so that a model weighs the very worlds the uniform model samples.

The state must carry its deal's record (``State.start`` at the deal's start and its moves
since: a state dealt by ``new_deal`` and played on, or a game record's); a position without
one (``from_dict``) has no moves to read, and every weight is 1.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from cardsim.compiled.jit import G, generic, helper
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import CardsimError

DEFAULT_EPSILON = 0.3
"""The model's chance of a move other than the heuristic's (module docstring)."""

MODEL_KEY = 0x6D6F64   # the model's stream beside the worlds'

TIE_DRAWS = 8
"""How many times the heuristic chooses at each decision: it breaks ties at random (in
Scopa two choices from different streams differ at 16% of heuristic decisions), so the
model's probability of a move is ``(1 - epsilon)`` times the share of the draws that chose
it, plus ``epsilon / n`` (module docstring)."""


@generic(inline="ir")
def replay_world(params, world, player, start, actions, n_actions, epsilon, heur, scratch,
                 legal, made):
    """Replay the deal's ``n_actions`` moves in ``world`` into ``scratch``: from the start the
    game's ``world_start`` builds (drawing what the world leaves open from ``heur``), each
    move as made there (``G.world_action``, into ``made``). Returns the log likelihood of the
    other seats' moves under the model ``epsilon`` (module docstring; 0 when ``epsilon <
    0``), ``-inf`` when the world has no such start or a move is not legal there."""
    if not G.world_start(world, params, player, start, actions, n_actions, scratch, heur):
        return -np.inf
    total = 0.0
    for k in range(n_actions):
        a = G.world_action(world, scratch, params, player, actions[k])
        made[k] = a
        n = G.legal_actions(scratch, params, legal)
        found = False
        for i in range(n):
            if legal[i] == a:
                found = True
        if not found:
            return -np.inf
        if epsilon >= 0.0 and n > 1 and G.current_player(scratch, params) != player:
            seen = a if G.world_moves_whole else G.observed_action(scratch, params, a, player)
            alike = 1
            if not G.world_moves_whole:
                alike = 0
                for i in range(n):
                    if G.observed_action(scratch, params, legal[i], player) == seen:
                        alike += 1
            hits = 0
            for _ in range(TIE_DRAWS):
                pick = legal[G.heuristic(scratch, params, legal, n, heur)]
                if not G.world_moves_whole:
                    pick = G.observed_action(scratch, params, pick, player)
                if pick == seen:
                    hits += 1
            total += np.log((1.0 - epsilon) * hits / TIE_DRAWS + epsilon * alike / n)
        G.apply_action(scratch, params, a)
    return total


@generic(nrt=True)
def weigh_worlds(params, root, player, start, actions, n_actions, epsilon, rng, model_rng,
                 worlds, logw, scratch, made, legal):
    """Sample ``len(worlds)`` worlds of ``root`` for ``player`` into ``worlds`` (from ``rng``,
    as the uniform worlds are) and write each one's log weight to ``logw`` (module
    docstring; ``epsilon < 0``: the uniform model, every log weight 0). The model's ties and
    what a world leaves open draw from ``model_rng``. ``scratch`` (a state) and ``made``
    (moves) are work space."""
    draws = G.world_start_draws
    logs = np.empty(draws, dtype=np.float64)
    for w in range(worlds.shape[0]):
        G.determinize(root, params, player, rng, worlds[w])
        logw[w] = 0.0
        if epsilon >= 0.0 and n_actions > 0:
            for r in range(draws):
                logs[r] = replay_world(params, worlds[w], player, start, actions, n_actions,
                                       epsilon, model_rng, scratch, legal, made)
            top = logs.max()
            if top > -np.inf:
                top += np.log(np.exp(logs - top).mean())
            logw[w] = top


@generic(nrt=True)
def replayed_world(params, world, player, start, actions, n_actions, rng, out, made, legal):
    """The state the deal's moves reach in ``world`` (``out``) and the moves as made there
    (``made``); False when it has no such replay (:func:`replay_world`)."""
    return replay_world(params, world, player, start, actions, n_actions, -1.0, rng, out,
                        legal, made) == 0.0


@helper
def _effective(logw, n, top, beta):
    """Kish's effective number of the first ``n`` worlds with log weights ``beta * logw``
    (``top`` their largest finite log weight)."""
    total, squares = 0.0, 0.0
    for i in range(n):
        if logw[i] > -np.inf:
            w = np.exp(beta * (logw[i] - top))
            total += w
            squares += w * w
    return total * total / squares


@helper
def tempered_cumulative(logw, n, effective, cum):
    """``cum[:n]``: the cumulative normalised weights of the first ``n`` worlds, their log
    weights tempered to keep at least ``effective`` effective worlds (:meth:`Worlds.tempered`,
    compiled, for a search that draws its worlds by weight: :func:`draw_weighted`); uniform
    when every world is impossible."""
    top = -np.inf
    for i in range(n):
        top = max(top, logw[i])
    if top == -np.inf:
        for i in range(n):
            cum[i] = (i + 1.0) / n
        return
    beta = 1.0
    if _effective(logw, n, top, 1.0) < effective:
        low, high = 0.0, 1.0
        for _ in range(30):
            mid = (low + high) / 2
            if _effective(logw, n, top, mid) >= effective:
                low = mid
            else:
                high = mid
        beta = low
    total = 0.0
    for i in range(n):
        if logw[i] > -np.inf:
            total += np.exp(beta * (logw[i] - top))
        cum[i] = total
    for i in range(n):
        cum[i] /= total


@helper
def draw_weighted(cum, n, u):
    """The world of cumulative weights ``cum[:n]`` that the uniform ``u`` in [0, 1) falls in
    (bisection)."""
    low, high = 0, n - 1
    while low < high:
        mid = (low + high) // 2
        if cum[mid] > u:
            high = mid
        else:
            low = mid + 1
    return low


class Worlds(NamedTuple):
    """Sampled worlds (one state vector a row) and each one's log weight."""

    vecs: np.ndarray
    logw: np.ndarray

    @property
    def weights(self) -> np.ndarray:
        """The weights, normalised to sum 1 (uniform when every world is impossible)."""
        finite = np.isfinite(self.logw)
        if not finite.any():
            return np.full(len(self.logw), 1.0 / len(self.logw))
        w = np.where(finite, np.exp(self.logw - self.logw[finite].max()), 0.0)
        return w / w.sum()

    @property
    def effective(self) -> float:
        """Kish's effective number of worlds, ``1 / sum(w**2)`` of the normalised weights."""
        return float(1.0 / (self.weights ** 2).sum())

    def tempered(self, effective: float) -> "Worlds":
        """These worlds with their log weights scaled by the largest ``beta`` in [0, 1] that
        keeps at least ``effective`` effective worlds (bisection; ``beta`` 1 when they
        already have as many): the likelihood of many moves under a rough model is sharper
        than the model deserves, and a few worlds would stand for all (tempering, as in
        annealed importance sampling)."""
        if self.effective >= effective:
            return self
        finite = np.isfinite(self.logw)
        low, high = 0.0, 1.0
        for _ in range(30):
            mid = (low + high) / 2
            if Worlds(self.vecs, np.where(finite, self.logw * mid, -np.inf)).effective \
                    >= effective:
                low = mid
            else:
                high = mid
        return Worlds(self.vecs, np.where(finite, self.logw * low, -np.inf))

    def resample(self, k: int, seed) -> np.ndarray:
        """``k`` of the worlds drawn by their weights (systematic resampling: each world
        about ``k`` times its weight), in a random order; rows of ``vecs``."""
        rng = np.random.default_rng(seed)
        edges = np.cumsum(self.weights)
        edges[-1] = 1.0
        picks = np.searchsorted(edges, (rng.random() + np.arange(k)) / k, side="right")
        return self.vecs[rng.permutation(np.minimum(picks, len(edges) - 1))]


def check_epsilon(epsilon) -> float:
    """``epsilon`` as the compiled loop reads it (-1 for the uniform model); a
    :class:`CardsimError` outside (0, 1)."""
    if epsilon is None:
        return -1.0
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not (
            0.0 < float(epsilon) < 1.0):
        raise CardsimError(f"infer={epsilon!r}: expected the model's epsilon, a number "
                           "between 0 and 1 (exclusive)")
    return float(epsilon)


def infer_worlds(state, player: int, n: int, seed=0,
                 epsilon: float | None = DEFAULT_EPSILON) -> Worlds:
    """``n`` worlds of ``state`` (a :class:`cardsim.State`) for ``player``, from ``seed``,
    with their log weights under the model ``epsilon`` (module docstring): the same worlds
    whatever the model, so that models are compared on them."""
    spec = state.game.spec
    eps = check_epsilon(epsilon)
    if spec.definition.world_start is None and eps >= 0:
        raise CardsimError(f"inference is not available for {spec.name} yet: its worlds "
                           "module has no world_start")
    if n < 1:
        raise CardsimError(f"worlds={n}: expected at least 1")
    start, actions = deal_record(state)
    vecs = np.zeros((n, spec.state_len), dtype=np.uint64)
    logw = np.zeros(n, dtype=np.float64)
    weigh = weigh_worlds[spec]
    weigh(spec.params, state.vec, int(player), start, actions, len(actions), eps,
          rng_from_seed(seed), rng_from_seed(_model_seed(seed)), vecs, logw,
          np.zeros(spec.state_len, dtype=np.uint64),
          np.zeros(max(len(actions), 1), dtype=np.int64),
          np.zeros(spec.max_actions, dtype=np.int64))
    return Worlds(vecs, logw)


def world_replay(state, player: int, world, seed=0):
    """``(ok, start, moves, end)``: the deal start ``world_start`` builds for ``world`` (a
    sampled :class:`cardsim.State` of ``state`` for ``player``), the deal's moves as made
    there and the state they reach (:func:`replayed_world`), from ``state``'s record."""
    spec = state.game.spec
    start, actions = deal_record(state)
    end = np.zeros(spec.state_len, dtype=np.uint64)
    made = np.zeros(max(len(actions), 1), dtype=np.int64)
    ok = replayed_world[spec](spec.params, world.vec, int(player), start, actions, len(actions),
                              rng_from_seed(seed), end, made,
                              np.zeros(spec.max_actions, dtype=np.int64))
    begin = np.zeros(spec.state_len, dtype=np.uint64)
    spec.definition.world_start(world.vec, spec.params, int(player), start, actions,
                                len(actions), begin, rng_from_seed(seed))
    return bool(ok), begin, made[:len(actions)], end


def _model_seed(seed) -> int:
    """The model's seed beside the worlds' ``seed``."""
    key = seed if isinstance(seed, (list, tuple)) else [seed]
    return int(np.random.SeedSequence([*key, MODEL_KEY]).generate_state(1, dtype=np.uint64)[0])


def deal_record(state) -> tuple[np.ndarray, np.ndarray]:
    """The start of ``state``'s deal and its moves since, from the state's record
    (:func:`known_record`); no moves when the record does not reach back to the deal's start
    (a position read from a dict with no moves, or a state whose vector was changed otherwise
    than by its moves)."""
    known = known_record(state)
    if known is None:
        return state.vec, np.zeros(0, dtype=np.int64)
    return known


def known_record(state) -> tuple[np.ndarray, np.ndarray] | None:
    """``(start, moves)``: the state the current deal of ``state`` started from and its moves
    since, from the state's record (in a match, the last deal's: the state its first move was
    made from); None when the state has no record or its vector is not its record's end."""
    if state.start is None:
        return None
    actions = np.array(state.actions, dtype=np.int64)
    spec = state.game.spec
    word = getattr(state.game.definition.layout, "DEAL_NUMBER", None)
    vec, begin, first = state.start.copy(), state.start, 0
    for k, a in enumerate(actions):
        spec.apply_action(vec, spec.params, int(a))
        if word is not None and vec[word] != begin[word]:
            begin, first = vec.copy(), k + 1
    if not np.array_equal(vec, state.vec):
        return None
    return begin, actions[first:]


def log_prob_of_truth(state, player: int, worlds: Worlds) -> float:
    """The mean over the cards in the other hands of ``state`` (the truth) of the log
    probability the weighted worlds give that card's true holder (the papers' measure of
    inference). A world's hands are read as the game writes them (``to_dict``); each
    probability is smoothed by one world of the unweighted share (and at least half a world)
    so that a card no world gave its holder stays finite."""
    from cardsim.game import State
    truth = state.to_dict()["hands"]
    hands = [set(h) for h in truth]
    held = [State(state.game, v).to_dict()["hands"] for v in worlds.vecs]
    w, n = worlds.weights, len(worlds.vecs)
    total, count = 0.0, 0
    for s, cards in enumerate(hands):
        if s == player:
            continue
        for c in cards:
            has = np.array([c in h[s] for h in held], dtype=np.float64)
            p = (n * float(w @ has) + has.mean()) / (n + 1)
            total += math.log(max(p, 0.5 / n))
            count += 1
    return total / count if count else math.nan
