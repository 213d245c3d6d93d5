"""Training the learned evaluation (:mod:`cardsim.solvers.evaluation`) by self-play: ``cardsim train``.

Deep Monte-Carlo (Zha et al., "DouZero", ICML 2021; TD-Gammon's self-play before it): play
deals with the current agents, keep positions along the way, each with the seat it is seen
from, and regress the network on the returns the deals really ended with. Then play again
with the search the new network guides, and fit again on everything played so far. A round:

1. **Play** ``deals`` deals (:func:`record_deals`, compiled; in chunks over ``jobs``
   processes, chunk ``k`` of round ``r`` from ``SeedSequence([seed, r, k])``: the same data on
   any number of workers). Round 0 is played by the game's heuristic, later rounds by
   ``ismcts:iterations=N,leaf=net`` with the previous round's weights. With chance
   ``explore`` a move is a uniform one instead (the deals then reach positions the agents
   avoid). Each position is kept with chance ``keep``, seen from a seat drawn uniformly: the
   true world, or with ``view="info"`` a world sampled for that seat (:data:`VIEWS`). Its
   target is the return the deal ended with, or with ``playouts`` the mean return of that
   many play-outs of it by the heuristic (:func:`playout_targets`).
2. **Fit** (:func:`fit`, numpy and scipy's sparse products): one hidden layer of ``hidden``
   rectified units, Adam, mean squared error on every seat's return divided by the game's
   ``reward_scale`` plus the win / draw / loss cross-entropy; a tenth of the deals (by deal,
   not by position) held out; the epoch with the least held-out error kept.
3. **Measure**: the new network's search against the heuristic on duplicate deals (and the
   same search with heuristic play-outs, for comparison).

Everything a round makes is saved in the training folder before the next starts
(``train.json``, ``round-<r>.npz``, the data of each chunk); run the same command again and
it goes on where it stopped, to the same result. ``--budget`` minutes start no new round
past them.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import cardsim
from cardsim.compiled.bits import copy_words
from cardsim.compiled.jit import G, generic
from cardsim.compiled.rng import rng_below
from cardsim.compiled.turns import DEAL
from cardsim.errors import AgentError, CardsimError
from cardsim.files import DOCUMENT_BYTES, read_limited
from cardsim.protocol.options import rules_dict
from cardsim.stats import mean_interval

from .agent_spec import ROLLOUT_HEURISTIC, level
from .agents import choose, choose_action, parse_agent, switches, workspace
from .evaluation import N_WDL, Weights, read_weights
from .ismcts import policy_action, uniform
from .strength import gains

PAD = -1
"""An unused input slot of a kept position."""


@generic(inline="ir")
def position_inputs(params, state, player, info_view, rng, world, idx, val):
    """A kept position's active inputs seen from ``player`` (``idx[:n]``, ``val[:n]``; returns
    ``n``): of ``state`` itself, or with ``info_view`` of a world sampled for ``player`` into
    ``world`` (:data:`VIEWS`)."""
    if info_view:
        G.determinize(state, params, player, rng, world)
        return G.encode(world, params, player, idx, val)
    return G.encode(state, params, player, idx, val)


@generic(inline="ir")
def playout_targets(params, state, player, info_view, n_playouts, rng, world, actions, rets,
                    reward_scale, row):
    """``row[j]``: the mean return of seat ``player + j`` (divided by ``reward_scale``; 0 for
    ``j`` past the players) over ``n_playouts`` play-outs of ``state`` to the deal's end by the
    game's heuristic, each from the state itself or, with ``info_view``, from a world sampled
    anew for ``player`` (:data:`VIEWS`)."""
    n_players = rets.shape[0]
    row[:] = 0.0
    for _ in range(n_playouts):
        if info_view:
            G.determinize(state, params, player, rng, world)
        else:
            copy_words(world, state)
        while not G.is_terminal(world, params):
            n = G.legal_actions(world, params, actions)
            G.apply_action(world, params, policy_action(world, params, ROLLOUT_HEURISTIC, 0.0,
                                                        actions, n, rng))
        G.returns(world, params, rets)
        for j in range(n_players):
            row[j] += rets[(player + j) % n_players] / (reward_scale * n_playouts)


@generic
def record_deals(params, rng, n_deals, kinds, agent_params, ws, reward_scale, keep, explore,
                 info_view, n_playouts, playout_rng, state, world, idx, val, player, deal,
                 targets):
    """Play ``n_deals`` deals from ``rng`` (module docstring, step 1): seat ``s`` by agent
    (``kinds[s]``, ``agent_params[s]``), a uniform move instead with chance ``explore``; each
    position kept with chance ``keep`` while the arrays have room: its encoding from a seat
    drawn uniformly (:func:`position_inputs`; ``idx``, ``val``: one row each, :data:`PAD`
    after its inputs), the seat (``player``), the deal's number (``deal``) and the returns of
    the seats ``player + r`` divided by ``reward_scale`` (``targets``): the deal's, once it is
    over, or with ``n_playouts`` the mean of that many play-outs from the position
    (:func:`playout_targets`, drawing from ``playout_rng``, so that the deals and the kept
    positions are the same with or without them). Returns the rows kept."""
    actions = ws.search.actions
    rets = ws.search.rets
    n_players = rets.shape[0]
    cap = idx.shape[0]
    width = idx.shape[1]
    scratch_idx = ws.search.net.idx
    scratch_val = ws.search.net.val
    rows = 0
    for d in range(n_deals):
        G.start(params, rng, state, DEAL)
        first = rows
        while not G.is_terminal(state, params):
            if rows < cap and uniform(rng) < keep:
                p = rng_below(rng, n_players)
                k = position_inputs(params, state, p, info_view, rng, world, scratch_idx,
                                    scratch_val)
                for j in range(width):
                    idx[rows, j] = scratch_idx[j] if j < k else PAD
                    val[rows, j] = scratch_val[j] if j < k else 0.0
                player[rows] = p
                deal[rows] = d
                if n_playouts > 0:
                    playout_targets(params, state, p, info_view, n_playouts, playout_rng,
                                    world, actions, rets, reward_scale, targets[rows])
                rows += 1
            seat = G.current_player(state, params)
            n = G.legal_actions(state, params, actions)
            if explore > 0.0 and n > 1 and uniform(rng) < explore:
                a = actions[rng_below(rng, n)]
            else:
                a = choose_action(params, kinds[seat], agent_params[seat], state, rng, ws,
                                  reward_scale, n, seat)
            G.apply_action(state, params, a)
        if n_playouts > 0:
            continue                      # the kept rows have their play-outs' returns
        G.returns(state, params, rets)
        for r in range(first, rows):
            for j in range(targets.shape[1]):
                targets[r, j] = (rets[(player[r] + j) % n_players] / reward_scale
                                 if j < n_players else 0.0)
    return rows


@dataclass
class Data:
    """Kept positions (module docstring): inputs, seats, deal numbers (unique within a
    round's chunk set) and targets."""

    idx: np.ndarray
    val: np.ndarray
    player: np.ndarray
    deal: np.ndarray
    targets: np.ndarray

    @staticmethod
    def concat(parts: list["Data"]) -> "Data":
        return Data(*(np.concatenate([getattr(p, f) for p in parts])
                      for f in ("idx", "val", "player", "deal", "targets")))

    def save(self, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, idx=self.idx, val=self.val, player=self.player, deal=self.deal,
                     targets=self.targets)
        tmp.replace(path)

    @staticmethod
    def load(path: Path) -> "Data":
        with np.load(path, allow_pickle=False) as z:
            return Data(z["idx"], z["val"], z["player"], z["deal"], z["targets"])


def play_chunk(game_name: str, rules: dict, agents: list[str], weights: str, seed: list,
               n_deals: int, keep: float, explore: float, view: str = "world",
               playouts: int = 0) -> Data:
    """The kept positions of ``n_deals`` deals (:func:`record_deals`) from ``seed`` (a
    SeedSequence entropy list); ``weights`` for the agents with ``leaf=net``; ``view``
    (:data:`VIEWS`) what a position's encoding shows; ``playouts`` > 0 for targets from that
    many heuristic play-outs (:func:`playout_targets`)."""
    game = cardsim.load_game(game_name, rules)
    spec = game.spec
    enc = spec.definition.encoding
    parsed = [parse_agent(a, game) for a in agents]
    if weights:
        parsed = [parse_agent(f"{a.name},weights={weights}", game) if a.uses_net else a
                  for a in parsed]
    ws = workspace(spec, parsed)
    cap = int(n_deals * spec.max_deal_moves * keep * 1.5) + 64
    idx = np.full((cap, enc.MAX_ACTIVE), PAD, dtype=np.int64)
    val = np.zeros((cap, enc.MAX_ACTIVE), dtype=np.float64)
    player = np.zeros(cap, dtype=np.int64)
    deal = np.zeros(cap, dtype=np.int64)
    targets = np.zeros((cap, enc.N_SEATS), dtype=np.float64)
    rng = np.random.SeedSequence(seed).generate_state(4, dtype=np.uint64)
    kinds = np.array([a.kind for a in parsed], dtype=np.int64)
    params = np.stack([a.params for a in parsed])
    run = record_deals[spec, switches(parsed)]
    rows = int(run(spec.params, rng, n_deals, kinds, params, ws, spec.reward_scale, keep,
                   explore, view == "info", playouts,
                   np.random.SeedSequence([*seed, 1]).generate_state(4, dtype=np.uint64),
                   np.zeros(spec.state_len, dtype=np.uint64),
                   np.zeros(spec.state_len, dtype=np.uint64), idx, val, player, deal, targets))
    return Data(idx[:rows].astype(np.int16), val[:rows].astype(np.float32),
                player[:rows].astype(np.int8), deal[:rows].astype(np.int32),
                targets[:rows].astype(np.float32))


# --- the fit ------------------------------------------------------------------------------

def _matrix(data: Data, n_inputs: int):
    """The inputs as a sparse matrix (rows × ``n_inputs``)."""
    from scipy.sparse import csr_matrix
    mask = data.idx >= 0
    counts = mask.sum(axis=1)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    return csr_matrix((data.val[mask].astype(np.float64), data.idx[mask].astype(np.int64),
                       indptr), shape=(len(data.idx), n_inputs))


def _wdl(targets: np.ndarray) -> np.ndarray:
    """The win / draw / loss class of each row's return for its seat (0, 1, 2)."""
    r = targets[:, 0]
    return np.where(r > 0, 0, np.where(r < 0, 2, 1))


@dataclass
class Fit:
    """A fitted network's arrays and its learning curve (held-out error per epoch)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    curve: list = field(default_factory=list)
    best_epoch: int = 0


def _forward(X, w1, b1, w2, b2):
    pre = X @ w1 + b1
    h = np.maximum(pre, 0.0)
    return h, h @ w2 + b2


def _losses(out, y, wdl, n_seats):
    mse = ((out[:, :n_seats] - y) ** 2).sum(axis=1).mean()
    logits = out[:, n_seats:]
    logits = logits - logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    ce = -logp[np.arange(len(wdl)), wdl].mean()
    return float(mse), float(ce)


def fit(train: Data, held: Data, n_inputs: int, n_seats: int, hidden: int, seed: int,
        epochs: int = 20, batch: int = 256, rate: float = 1e-3, start: Fit | None = None,
        progress=None) -> Fit:
    """A network fitted to ``train`` by Adam (module docstring, step 2), from ``start``'s
    arrays or a seeded initialisation; the epoch with the least held-out return error is
    kept (``curve``: per epoch, the training and held-out squared errors and the held-out
    win / draw / loss cross-entropy)."""
    rng = np.random.default_rng(seed)
    X, Xh = _matrix(train, n_inputs), _matrix(held, n_inputs)
    y, yh = train.targets.astype(np.float64), held.targets.astype(np.float64)
    c, ch = _wdl(y), _wdl(yh)
    active = max(1.0, float((train.idx >= 0).sum(axis=1).mean()))
    if start is None:
        params = [rng.normal(0.0, np.sqrt(2.0 / active), (n_inputs, hidden)),
                  np.zeros(hidden), rng.normal(0.0, np.sqrt(1.0 / hidden),
                                               (hidden, n_seats + N_WDL)),
                  np.zeros(n_seats + N_WDL)]
    else:
        params = [start.w1.copy(), start.b1.copy(), start.w2.copy(), start.b2.copy()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    step = 0
    best = (np.inf, [p.copy() for p in params], 0)
    curve = []
    n = X.shape[0]
    for epoch in range(1, epochs + 1):
        order = rng.permutation(n)
        train_mse = 0.0
        for lo in range(0, n, batch):
            rows = order[lo:lo + batch]
            xb, yb, cb = X[rows], y[rows], c[rows]
            w1, b1, w2, b2 = params
            h, out = _forward(xb, w1, b1, w2, b2)
            k = len(rows)
            g = np.zeros_like(out)
            g[:, :n_seats] = 2.0 * (out[:, :n_seats] - yb) / k
            logits = out[:, n_seats:] - out[:, n_seats:].max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(k), cb] -= 1.0
            g[:, n_seats:] = p / k
            train_mse += float(((out[:, :n_seats] - yb) ** 2).sum()) / n
            gw2 = h.T @ g
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h > 0)
            gw1 = xb.T @ gh
            gb1 = gh.sum(axis=0)
            step += 1
            for i, gp in enumerate((np.asarray(gw1), gb1, gw2, gb2)):
                m[i] = b1_ * m[i] + (1 - b1_) * gp
                v[i] = b2_ * v[i] + (1 - b2_) * gp * gp
                mh = m[i] / (1 - b1_ ** step)
                vh = v[i] / (1 - b2_ ** step)
                params[i] -= rate * mh / (np.sqrt(vh) + eps)
        _, out_h = _forward(Xh, *params)
        held_mse, held_ce = _losses(out_h, yh, ch, n_seats)
        curve.append({"epoch": epoch, "train_mse": train_mse, "held_mse": held_mse,
                      "held_wdl_ce": held_ce})
        if progress is not None:
            progress(curve[-1])
        if held_mse < best[0]:
            best = (held_mse, [p.copy() for p in params], epoch)
        elif epoch - best[2] >= 3:
            break                                     # three epochs without progress
    w1, b1, w2, b2 = best[1]
    return Fit(w1, b1, w2, b2, curve, best[2])


def baseline_mse(held: Data, n_seats: int) -> float:
    """The held-out squared error of predicting every return by its mean (the error a
    network must beat to have learned anything)."""
    y = held.targets.astype(np.float64)
    return float(((y - y.mean(axis=0)) ** 2).sum(axis=1).mean())


def split(data: Data, seed: int) -> tuple[Data, Data]:
    """A tenth of the deals held out (by deal: positions of one deal are alike)."""
    deals = np.unique(data.deal)
    rng = np.random.default_rng(seed)
    held_deals = rng.choice(deals, size=max(1, len(deals) // 10), replace=False)
    held = np.isin(data.deal, held_deals)
    pick = (lambda m: Data(data.idx[m], data.val[m], data.player[m], data.deal[m],
                           data.targets[m]))
    return pick(~held), pick(held)


class TrainError(CardsimError):
    """A training folder or plan that cannot be used."""


VIEWS = ("world", "info")
"""What a kept position's encoding shows the network (``--view``):

- ``world``: the true state, every card where it is. The network learns the value of a world
  (a perfect-information value), which a search applies to the worlds it samples.
- ``info``: a world sampled for the seat it is seen from (the game's ``determinize``), so the
  hidden cards are placed at random among the places the seat cannot see. They carry nothing
  about the true outcome, so the regression learns the expected return given what the seat
  knows: the value of its *information state*, with the game's one encoding and no second
  one. A search applies it to its sampled worlds alike."""


@dataclass(frozen=True)
class Plan:
    """What ``cardsim train`` does (module docstring): the same plan and seed give the same
    weights."""

    game: str
    rules: dict
    seed: int = 0
    rounds: int = 3
    """Rounds of play and fit; it may grow between runs of one folder (the rounds done are
    kept: the others of the plan must stay as they were)."""
    deals: int = 20_000
    hidden: int = 64
    epochs: int = 20
    keep: float = 0.25
    explore: float = 0.05
    iterations: int = 100
    """The self-play search's iterations after round 0 (``ismcts:iterations=N,leaf=net``)."""
    check_deals: int = 200
    """Duplicate deals of each round's strength check (0: none)."""
    check_iterations: int = 300
    chunk: int = 500
    view: str = "world"
    """What the network is shown of a position (:data:`VIEWS`)."""
    playouts: int = 0
    """0: a kept position's target is the return its deal ended with; K > 0: the mean return
    of K play-outs of it by the heuristic (from worlds sampled for its seat with the ``info``
    view): less noise for the same expectation under the heuristic's play."""

    def __post_init__(self) -> None:
        if self.view not in VIEWS:
            raise TrainError(f"view {self.view!r}: one of {', '.join(VIEWS)}")
        if not (isinstance(self.playouts, int) and 0 <= self.playouts <= 10_000):
            raise TrainError(f"playouts {self.playouts!r}: an integer from 0 to 10,000")

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def agent(self, r: int) -> str:
        """The agent at every seat of round ``r``'s self-play."""
        return ("heuristic" if r == 0
                else f"ismcts:iterations={self.iterations},rollout=heuristic,leaf=net")


# --- the rounds ---------------------------------------------------------------------------

STATE_FILE = "train.json"


def _load_state(folder: Path, plan: Plan) -> dict:
    path = folder / STATE_FILE
    if not path.exists():
        return {"format": "cardsim-train", "plan": plan.as_dict(), "rounds": []}
    data = read_limited(path, DOCUMENT_BYTES, "a training state", TrainError)
    try:
        state = json.loads(data)
        if not isinstance(state, dict) or state.get("format") != "cardsim-train" or \
                not isinstance(state.get("rounds"), list):
            raise ValueError("not a training folder")
    except (OSError, ValueError) as e:
        raise TrainError(f"{path}: cannot be read ({e}): not a cardsim training folder, or "
                         "damaged; give another --out") from None
    same = {k: v for k, v in plan.as_dict().items() if k != "rounds"}
    stored = {"view": "world", "playouts": 0, **state.get("plan", {})}   # older folders
    if {k: v for k, v in stored.items() if k != "rounds"} != same:
        differ = sorted(k for k, v in same.items() if stored.get(k) != v)
        raise TrainError(f"{folder}: trained with another plan ({', '.join(differ)} differ): "
                         "give the same options to go on, or another --out")
    return state


def _save_state(folder: Path, state: dict) -> None:
    tmp = folder / f".{STATE_FILE}.tmp"
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    tmp.replace(folder / STATE_FILE)


def round_data(plan: Plan, folder: Path, r: int, weights: str, jobs: int, progress=None) -> Data:
    """Round ``r``'s kept positions, played in chunks (module docstring); a chunk already in
    ``folder`` is read back, not played again (a damaged one is played again: the same)."""
    agents = [plan.agent(r)] * cardsim.load_game(plan.game, plan.rules).num_players
    chunks = [(k, min(plan.chunk, plan.deals - k * plan.chunk))
              for k in range((plan.deals + plan.chunk - 1) // plan.chunk)]
    todo = [(k, n) for k, n in chunks if _chunk(folder, r, k) is None]
    if todo:
        from joblib import delayed

        from cardsim.workers import parallel
        work = (delayed(_chunk_to_file)(plan, folder, r, k, n, agents, weights) for k, n in todo)
        for _ in parallel(jobs, return_as="generator_unordered")(work):
            if progress is not None:
                progress(1)
    parts = []
    for k, _ in chunks:
        part = _chunk(folder, r, k)
        if part is None:
            raise TrainError(f"{folder / f'data-{r}-{k}.npz'}: written but unreadable (a full "
                             "disk?): run the same command again")
        part.deal = part.deal + k * plan.chunk
        parts.append(part)
    return Data.concat(parts)


def _chunk(folder: Path, r: int, k: int) -> Data | None:
    """Chunk ``k`` of round ``r``, or None when it is missing or damaged."""
    path = folder / f"data-{r}-{k}.npz"
    try:
        return Data.load(path)
    except FileNotFoundError:
        return None
    except Exception:                   # damaged: numpy's zip, pickle or shape errors
        return None


def _chunk_to_file(plan: Plan, folder: Path, r: int, k: int, n: int, agents, weights) -> None:
    data = play_chunk(plan.game, plan.rules, agents, weights, [plan.seed, r, k], n, plan.keep,
                      plan.explore, plan.view, plan.playouts)
    data.save(folder / f"data-{r}-{k}.npz")


def check_agents(game, iterations: int) -> tuple[str, str]:
    """The agents of a strength check: the game's ``strong`` level with ``iterations`` for its
    budget and leaves valued by the network, and the same search with play-outs."""
    _, _, rest = level("strong", game).partition(":")
    kept = [i for i in rest.split(",") if i and not i.startswith(("seconds=", "iterations="))]
    playout = ",".join([f"ismcts:iterations={iterations}", *kept])
    return playout + ",leaf=net", playout


def check(plan: Plan, weights: str) -> dict:
    """The strength check of a round (module docstring, step 3): the network's search and the
    same search with play-outs (:func:`check_agents`), each against the heuristic on the same
    duplicate deals (a partnership against one where the game plays in partnerships)."""
    game = cardsim.load_game(plan.game, plan.rules)
    net, playout = check_agents(game, plan.check_iterations)
    out = {}
    for name, agent in (("net", f"{net},weights={weights}"), ("playout", playout)):
        start = time.perf_counter()
        g = gains(game, agent, "heuristic", plan.check_deals, seed=[plan.seed, 99],
                  partners=game.definition.partnerships(game.rules))
        mean, lo, hi = mean_interval(g)
        out[name] = {"agent": agent.split(",weights=")[0], "gain": mean, "low": lo,
                     "high": hi, "seconds": time.perf_counter() - start}
    return out


def train(plan: Plan, folder, jobs: int = 1, budget_minutes: float = 0.0, say=print) -> dict:
    """Run ``plan``'s rounds in ``folder`` (module docstring), going on where a previous run
    stopped; returns the training state (``train.json``). The final weights are
    ``weights.npz``: the last round's."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    state = _load_state(folder, plan)
    state["plan"] = plan.as_dict()                  # more rounds than before: go on
    state["command"] = command(plan, folder)
    game = cardsim.load_game(plan.game, plan.rules)
    spec = game.spec
    enc = spec.definition.encoding
    if enc is None:
        raise TrainError(f"{plan.game} has no encoding for a learned evaluation")
    started = time.monotonic()
    previous = None
    data_parts: list[Data] = []
    for r in range(plan.rounds):
        done = r < len(state["rounds"])
        if not done and budget_minutes and time.monotonic() - started > 60 * budget_minutes:
            say(f"budget of {budget_minutes:g} minutes spent: round {r} not started "
                "(run the same command again to go on)")
            break
        weights_in = str(folder / f"round-{r - 1}.npz") if r > 0 else ""
        t0 = time.perf_counter()
        say(f"round {r}: playing {plan.deals:,} deals ({plan.agent(r)})")
        data = round_data(plan, folder, r, weights_in, jobs)
        data_parts.append(data)
        if done:
            previous = read_fit(folder / f"round-{r}.npz")
            continue
        play_s = time.perf_counter() - t0
        all_data = Data.concat([_renumber(p, i) for i, p in enumerate(data_parts)])
        train_set, held = split(all_data, plan.seed + r)
        say(f"round {r}: fitting {len(train_set.idx):,} positions "
            f"({len(held.idx):,} held out)")
        t1 = time.perf_counter()
        result = fit(train_set, held, enc.N_INPUTS, enc.N_SEATS, plan.hidden, plan.seed + r,
                     plan.epochs, start=previous,
                     progress=lambda e: say(f"  epoch {e['epoch']}: held-out error "
                                            f"{e['held_mse']:.4f}"))
        fit_s = time.perf_counter() - t1
        weights = Weights(game=plan.game, encoding=enc.VERSION,
                          params=tuple(int(x) for x in spec.params),
                          rules=_plain(game.rules), w1=result.w1, b1=result.b1, w2=result.w2,
                          b2=result.b2, made={"command": command(plan, folder),
                                              "round": r, "plan": plan.as_dict()})
        weights.save(folder / f"round-{r}.npz")
        t2 = time.perf_counter()
        strength = check(plan, str(folder / f"round-{r}.npz")) if plan.check_deals else {}
        state["rounds"].append({
            "round": r, "agents": plan.agent(r), "positions": int(len(data.idx)),
            "train_positions": int(len(train_set.idx)), "held_positions": int(len(held.idx)),
            "baseline_mse": baseline_mse(held, enc.N_SEATS), "curve": result.curve,
            "best_epoch": result.best_epoch, "strength": strength,
            "seconds": {"play": play_s, "fit": fit_s, "check": time.perf_counter() - t2}})
        _save_state(folder, state)
        previous = read_fit(folder / f"round-{r}.npz")   # as saved: a resumed run starts there
        for name, s in strength.items():
            say(f"round {r}: {s['agent']} vs heuristic {s['gain']:+.3f} "
                f"[{s['low']:+.3f}, {s['high']:+.3f}] per deal")
    if state["rounds"]:
        last = folder / f"round-{len(state['rounds']) - 1}.npz"
        tmp = folder / ".weights.npz.tmp"
        tmp.write_bytes(last.read_bytes())
        tmp.replace(folder / "weights.npz")
    return state


def _renumber(data: Data, r: int) -> Data:
    """Deal numbers unique across rounds (the held-out split is by deal)."""
    return Data(data.idx, data.val, data.player, data.deal.astype(np.int64) + r * 10**9,
                data.targets)


def read_fit(path: Path) -> Fit:
    try:
        w = read_weights(path)
    except AgentError as e:
        raise TrainError(f"{e}: remove it to fit that round again") from None
    return Fit(w.w1, w.b1, w.w2, w.b2)


def _plain(rules) -> dict:
    return {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v))
            for k, v in rules_dict(rules).items()}


def command(plan: Plan, folder) -> str:
    """The ``cardsim train`` command that makes ``plan`` (its options, the defaults left
    out)."""
    default = Plan(plan.game, {})
    parts = ["cardsim", "train", plan.game]
    for k, v in sorted(plan.rules.items()):
        parts.append(f"--option {k}={v}")
    for k in ("seed", "rounds", "deals", "hidden", "epochs", "keep", "explore", "iterations",
              "check_deals", "check_iterations", "chunk", "view", "playouts"):
        if getattr(plan, k) != getattr(default, k):
            parts.append(f"--{k.replace('_', '-')} {getattr(plan, k)}")
    parts.append(f"--out {folder}")
    return " ".join(parts)


def ship(folder, name: str = "default", round_: int | None = None) -> Path:
    """Copy a training folder's weights into its game's package as ``<name>.npz``
    (:func:`cardsim.solvers.evaluation.weights_folder`): ``weights.npz``, or round ``round_``'s (then
    its command is the one that stops after that round), with the moves it plays in a few
    openings recorded in its header (:func:`fingerprint`), which the tests replay."""
    import dataclasses

    from .evaluation import weights_folder
    folder = Path(folder)
    source = folder / ("weights.npz" if round_ is None else f"round-{round_}.npz")
    w = read_weights(source)
    made = dict(w.made)
    if round_ is not None:
        plan = Plan(**{**made["plan"], "rounds": round_ + 1})
        made.update(plan=plan.as_dict(), command=command(plan, made["command"].rpartition(
            "--out ")[2]))
    game = cardsim.load_game(w.game, w.rules)
    out = weights_folder(w.game) / f"{name}.npz"
    out.parent.mkdir(exist_ok=True)
    made["choices"] = fingerprint(source, game)
    dataclasses.replace(w, made=made).save(out)
    return out


def fingerprint(weights_path, game, positions: int = 6, iterations: int = 200) -> list:
    """The moves a search with the weights in ``weights_path`` chooses in ``positions``
    positions of ``game`` (the opening of deal ``k``, seed ``k``): recorded beside shipped
    weights, so a test can tell that they load and play as they did when they were made."""
    agent = parse_agent(f"ismcts:iterations={iterations},rollout=heuristic,leaf=net,"
                        f"weights={weights_path}", game)
    out = []
    for k in range(positions):
        state = game.new_deal(seed=k)
        out.append({"deal": k, "seed": k, "iterations": iterations,
                    "action": int(choose(agent, state, seed=k))})
    return out
