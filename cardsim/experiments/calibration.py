"""Calibration: how often what ``cardsim analyze`` predicts comes true.

A calibration study plays whole deals between its ``agents`` (``strong`` in every seat by
default) from seeded deals. In each deal it draws ``positions`` decisions uniformly among those
with two or more legal actions (so every stage of the deal), and at each asks the analysis
(:func:`cardsim.solvers.analyze.evaluate_actions`, once per evaluator: the agent that plays the
worlds out, ``worlds`` worlds) for the mover's chance of winning the deal (a return above 0)
and mean return after the action the agent actually played (that action alone is valued:
its values are distributed as in the full analysis). The realized result is the deal's
own return for the mover: the same agents played on from every drawn position.

**For the match** (``match = true``, cardsim equity's default table of the spec's rules, or
``match = "DIR"``, the equity folder ``DIR``; Scopa, Bura with a match format, Minchiate's
deals: the games whose positions give a match state, as ``cardsim analyze --match``): the
study plays whole matches (``[size] matches = N``) instead of single deals, and the positions
are drawn among a match's decisions. At each the analysis also predicts the mover's chance of
winning the match after the move played (:func:`cardsim.solvers.analyze.evaluate_actions` with the
table: the deal played out, then the table's chance from the match state it reached), and the
match's own result is what came true (1 won, 0 lost, 1/2 drawn); the deal's result is that of
the position's deal within the match.

```toml
kind = "calibration"
question = "Do analyze's chances come true when strong players play on?"
game = "scopa"
agents = ["strong"]               # one for every seat, or one per seat
evaluators = ["heuristic", {agent = "heuristic", infer = 0.1},
              {agent = "fast", worlds = 40, positions = 1}]
                                  # analyze's play-out agents (its default first), each
                                  # with the study's worlds or its own, at every drawn
                                  # position or at the first ``positions`` drawn (a costly
                                  # evaluator on a random subset), with inference's worlds
                                  # (``infer``: its epsilon, cardsim.solvers.inference) or uniform
worlds = 200                      # analyze's worlds per position (its default)
positions = 3                     # decisions drawn per deal
seed = 1
batch_size = 10                   # deals per batch (the unit of work and of resumption)

[size]
deals = 1000                      # matches = N for a study of the match
```

Deal ``i`` comes from ``SeedSequence([seed, i])``: its cards, the agents' stream, the drawn
decisions and the analysis seeds, so the rows do not depend on the batches or the processes.
The rows are kept in an experiment store (:class:`cardsim.experiments.store.Store`: checked, resumable,
``cardsim verify``), one row per drawn position and evaluator: ``deal``, ``rotation`` (the
position's place in the deal's draw: random, so an evaluator of the first ``positions`` sees a
uniform subset), ``move`` (the decision's index among the deal's moves),
``moves`` (the deal's length), ``seat``, ``actions`` (legal), ``evaluator``,
``predicted_win``, ``predicted_return``, ``realized_return``, ``realized_win`` and ``seconds``
(the analysis's wall-clock time: measured, the only column a seed does not fix); a study of the
match numbers its matches in ``deal``, counts ``move`` and ``moves`` over the match, and adds
``predicted_match`` and ``realized_match``.

What is measured of a forecast ``p`` of an outcome ``o`` (0 or 1) over N positions, the
positions put in ten bins of equal width of ``p``:

- the *reliability diagram*: per bin, the mean forecast against the share that came true
  (Wilson interval);
- the *Brier score* ``mean((p - o)^2)`` and Murphy's decomposition (Murphy 1973) over the bins,
  ``reliability - resolution + uncertainty`` (exact when the forecasts within a bin are equal;
  the remainder is reported);
- the *expected calibration error* ``sum_k n_k/N |mean p_k - mean o_k|`` (Naeini, Cooper and
  Hauskrecht 2015), and the same corrected for its upward bias with a 95% interval, by a
  bootstrap over deals (the positions of one deal share its outcome, so deals are resampled
  whole; :func:`ece_interval`);
- the *bias of the mean return*: the realized return less the predicted, averaged per deal
  first, with its 95% interval over deals (Student's t).
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError
from cardsim.files import SPEC_BYTES
from cardsim.records.documents import read_document
from cardsim.stats import mean_interval, noted, wilson_interval

from .spec import game_with_rules

KIND = "calibration"
BINS = 10
_TOP = {"kind", "question", "game", "rules", "agents", "evaluators", "worlds", "positions",
        "seed", "batch_size", "size", "match"}
ROW_COLUMNS = ["matchup", "batch", "deal", "rotation", "move", "moves", "seat", "actions",
               "evaluator", "predicted_win", "predicted_return", "realized_return",
               "realized_win", "seconds"]
MATCH_COLUMNS = ["predicted_match", "realized_match"]


class CalibrationError(CardsimError):
    """A bad calibration spec or folder: the message names the key and what is allowed."""


@dataclass(frozen=True)
class CalibrationSpec:
    """A parsed, validated calibration study (module docstring)."""

    game: str
    deals: int
    agents: tuple[str, ...] = ("strong",)
    evaluators: tuple[tuple[str, int, int, float | None], ...] = (("heuristic", 200, 3, None),)
    worlds: int = 200
    positions: int = 3
    seed: int = 1
    batch_size: int = 10
    question: str = ""
    rules: Mapping[str, Any] = field(default_factory=dict)
    match: str | None = None
    """None: a study of single deals (``deals`` of them); else whole matches (``deals``
    counts them), valued by the equity folder ``match`` ("": cardsim equity's default)."""

    def to_dict(self) -> dict:
        """The spec as the store's manifest keeps it (``kind`` first)."""
        d = asdict(self)
        size = {self.units: d.pop("deals")}
        if self.match is None:
            del d["match"]
        elif not self.match:
            d["match"] = True                 # cardsim equity's default table
        d["agents"] = list(self.agents)
        d["evaluators"] = [{"agent": a, "worlds": w, "positions": p,
                            **({} if i is None else {"infer": i})}
                           for a, w, p, i in self.evaluators]
        d["rules"] = dict(self.rules)
        return {"kind": KIND, **d, "size": size}

    def load(self):
        """The game under the spec's rules."""
        return game_with_rules(self.game, dict(self.rules))

    def seats(self, n: int) -> list[str]:
        """The agent of each of ``n`` seats."""
        return list(self.agents) * n if len(self.agents) == 1 else list(self.agents)

    @property
    def names(self) -> list[str]:
        """Each evaluator's name: its agent and worlds."""
        return [f"{a}, {w} worlds" + ("" if i is None else f", inference {i:g}")
                for a, w, _, i in self.evaluators]

    @property
    def units(self) -> str:
        """What the study plays: ``deals`` or ``matches`` (its ``[size]`` key)."""
        return "deals" if self.match is None else "matches"

    @property
    def batches(self) -> int:
        """How many batches the deals fill."""
        return -(-self.deals // self.batch_size)


def is_calibration(d: Any) -> bool:
    """Whether ``d`` (a spec as a dict) is a calibration study's."""
    return isinstance(d, dict) and d.get("kind") == KIND


def _int(d: dict, key: str, default: int, low: int, high: int = 10 ** 9) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise CalibrationError(f"{key} = {v!r}: expected an integer from {low:,} to {high:,}")
    return v


def _strings(d: dict, key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    v = d.get(key, list(default))
    if not isinstance(v, list) or not v or not all(isinstance(a, str) and a.strip() for a in v):
        raise CalibrationError(f"{key} = {v!r}: expected a list of agent spec strings")
    return tuple(a.strip() for a in v)


def _evaluators(d: dict, worlds: int,
                positions: int) -> tuple[tuple[str, int, int, float | None], ...]:
    v = d.get("evaluators", ["heuristic"])
    if not isinstance(v, list) or not v:
        raise CalibrationError(f"evaluators = {v!r}: expected a list of agent spec strings or "
                               "tables {agent = \"...\", worlds = N, positions = K, "
                               "infer = EPSILON}")
    out = []
    for e in v:
        if isinstance(e, dict):
            if (set(e) - {"agent", "worlds", "positions", "infer"}
                    or not isinstance(e.get("agent"), str)):
                raise CalibrationError(f"evaluator {e!r}: expected {{agent = \"...\", worlds "
                                       "= N, positions = K, infer = EPSILON}}")
            infer = e.get("infer")
            if infer is not None:
                from cardsim.solvers.inference import check_epsilon
                try:
                    infer = check_epsilon(infer)
                except CardsimError as err:
                    raise CalibrationError(f"evaluator {e!r}: {err}") from None
            out.append((e["agent"].strip(), _int(e, "worlds", worlds, 2, 100_000),
                        _int(e, "positions", positions, 1, positions), infer))
        elif isinstance(e, str) and e.strip():
            out.append((e.strip(), worlds, positions, None))
        else:
            raise CalibrationError(f"evaluators: {e!r} is not an agent spec string")
    return tuple(out)


def calibration_from_dict(d: Mapping[str, Any]) -> CalibrationSpec:
    """A :class:`CalibrationSpec` from its TOML table or its manifest copy; every key and value
    checked (:class:`CalibrationError` names the first bad one)."""
    from cardsim.solvers.agent_spec import parse_agent
    d = dict(d)
    unknown = sorted(set(d) - _TOP)
    if unknown:
        raise CalibrationError(f"unknown key {unknown[0]!r} in a calibration spec: expected "
                               + ", ".join(sorted(_TOP)))
    if d.get("kind") != KIND:
        raise CalibrationError(f"kind = {d.get('kind')!r}: expected {KIND!r}")
    game = d.get("game")
    if not isinstance(game, str):
        raise CalibrationError(f"game = {game!r}: expected a game's name")
    rules = d.get("rules", {})
    if not isinstance(rules, dict):
        raise CalibrationError(f"rules = {rules!r}: expected a table of options")
    loaded = game_with_rules(game, rules)      # an unknown game or option: its own one line
    match = d.get("match", False)
    if match is True:
        match = ""
    elif match is False:
        match = None
    elif not isinstance(match, str) or not match.strip():
        raise CalibrationError(f"match = {match!r}: expected true (cardsim equity's default "
                               "table) or the folder of a match-equity table")
    if match is not None:
        model = loaded.definition.match(loaded.rules) if loaded.definition.match else None
        if model is None or model.position is None:
            raise CalibrationError(f"{game}: no match analysis for these rules (its positions "
                                   "do not give a match state): drop match")
    unit = "deals" if match is None else "matches"
    size = d.get("size")
    if not isinstance(size, dict) or set(size) != {unit}:
        raise CalibrationError(f"[size] = {size!r}: expected {unit} = N")
    question = d.get("question", "")
    if not isinstance(question, str):
        raise CalibrationError(f"question = {question!r}: expected a string")
    spec = CalibrationSpec(
        game=game, rules=rules, question=question,
        deals=_int(size, unit, 0, 1, 10 ** 7), match=match,
        agents=_strings(d, "agents", ("strong",)),
        evaluators=_evaluators(d, _int(d, "worlds", 200, 2, 100_000),
                               _int(d, "positions", 3, 1, 1_000)),
        worlds=_int(d, "worlds", 200, 2, 100_000), positions=_int(d, "positions", 3, 1, 1_000),
        seed=_int(d, "seed", 1, 0, 2 ** 63 - 1), batch_size=_int(d, "batch_size", 10, 1))
    n = loaded.num_players
    if len(spec.agents) not in (1, n):
        raise CalibrationError(f"agents: {len(spec.agents)} given; expected one for every "
                               f"seat or one per seat ({n})")
    for a in (*spec.agents, *(e[0] for e in spec.evaluators)):
        parse_agent(a, loaded)
    return spec


def load_study(path):
    """A spec file as ``cardsim run`` reads it: a :class:`CalibrationSpec` for ``kind =
    "calibration"``, a :class:`cardsim.experiments.variants.VariantStudy` for ``kind =
    "variants"``, else an :class:`cardsim.experiments.spec.ExperimentSpec` (which has no kind: any
    other kind is refused in one line)."""
    from .spec import SpecError, parse_spec
    from .variants import is_study, parse_study
    data = read_document(path, "TOML", SpecError, limit=SPEC_BYTES, what="a spec")
    if is_calibration(data):
        return calibration_from_dict(data)
    if is_study(data):
        return parse_study(data)
    if isinstance(data, dict) and "kind" in data:
        raise SpecError(f"kind = {data['kind']!r}: expected \"calibration\" or \"variants\" "
                        "(an experiment's spec has no kind)")
    return parse_spec(data)


def load_calibration(path) -> CalibrationSpec:
    """A calibration spec from a TOML file."""
    return calibration_from_dict(read_document(path, "TOML", CalibrationError, limit=SPEC_BYTES,
                                               what="a spec"))


# --- playing -----------------------------------------------------------------------------------

def deal_rows(spec: CalibrationSpec, game, deal: int, evaluators: list,
              equity=None) -> list[dict]:
    """The rows of deal (or match) ``deal`` (module docstring); ``evaluators``: (agent,
    worlds, positions, infer) tuples; ``equity``: a study of the match's table
    (:func:`cardsim.experiments.equity.analysis_equity`)."""
    from cardsim.solvers.agents import parse_agent, play
    from cardsim.solvers.analyze import AnalysisConfig, evaluate_actions
    seq = np.random.SeedSequence([spec.seed, deal])
    deal_seq, play_seq, pick_seq = seq.spawn(3)
    state = game.new_deal(seed=deal_seq) if equity is None else game.new_match(seed=deal_seq)
    start = state.clone()
    agents = [parse_agent(a, game) for a in spec.seats(game.num_players)]
    play(state, agents, seed=play_seq)
    final = state.returns()
    replay, decisions = start.clone(), []
    for k, action in enumerate(state.actions):
        if len(replay.legal_actions()) > 1:
            decisions.append((k, replay.clone(), action))
        replay.apply_action(action)
    rng = np.random.default_rng(pick_seq)
    picked = rng.choice(len(decisions), size=min(spec.positions, len(decisions)),
                        replace=False) if decisions else []
    seeds = rng.integers(0, 2 ** 63 - 1, size=len(picked))
    rows = []
    for r, (i, seed) in enumerate(zip(picked, seeds)):
        move, position, action = decisions[i]
        seat = position.current_player()
        more, realized = {}, float(final[seat])
        if equity is not None:
            more["realized_match"] = 1.0 if final[seat] > 0 else 0.0 if final[seat] < 0 else 0.5
            realized = deal_return(position, state.actions[move:], seat)
        for e, (agent, worlds, positions, infer) in enumerate(evaluators):
            if r >= positions:
                continue
            t = time.perf_counter()
            values = evaluate_actions(position, AnalysisConfig(
                player=seat, agent=agent, worlds=worlds, seed=int(seed), infer=infer),
                actions=[action], equity=equity)
            seconds = time.perf_counter() - t
            out = values.out[0]
            if equity is not None:
                more["predicted_match"] = float(values.match[0].mean())
            rows.append({"deal": deal, "rotation": r, "move": move, "moves": len(state.actions),
                         "seat": seat, "actions": len(position.legal_actions()), "evaluator": e,
                         "predicted_win": float((out > 0).mean()),
                         "predicted_return": float(out.mean()),
                         "realized_return": realized, "realized_win": bool(realized > 0),
                         "seconds": seconds, **more})
    return rows


def deal_return(position, actions, seat: int) -> float:
    """``seat``'s return of the deal that a match's ``position`` is in, its moves from there
    on being ``actions`` (the match's: they run past the deal's end): the deal replayed alone
    (:class:`cardsim.protocol.match.MatchModel`'s ``alone``) until it ends."""
    game = position.game
    lone = game.from_dict(game.definition.match(game.rules).alone(position.to_dict()))
    for action in actions:
        if lone.is_terminal():
            break
        lone.apply_action(int(action))
    if not lone.is_terminal():
        raise CalibrationError(f"{game.name}: a deal of the match did not end within its "
                               "match's moves")
    return float(lone.returns()[seat])


def batch_rows(spec_dict: dict, batch: int) -> pd.DataFrame:
    """The rows of batch ``batch`` (its deals or matches), in a worker."""
    from cardsim.solvers.agents import parse_agent
    spec = calibration_from_dict(spec_dict)
    game = spec.load()
    evaluators = [(parse_agent(a, game), *rest) for a, *rest in spec.evaluators]
    equity = None
    if spec.match is not None:
        from .equity import analysis_equity
        equity = analysis_equity(game, spec.match, "calibration")
    rows = []
    for deal in range(batch * spec.batch_size, min(spec.deals, (batch + 1) * spec.batch_size)):
        rows.extend(deal_rows(spec, game, deal, evaluators, equity))
    columns = ROW_COLUMNS[2:] + (MATCH_COLUMNS if equity is not None else [])
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "batch", batch)
    frame.insert(0, "matchup", 0)
    return frame


def warm_up(spec: CalibrationSpec) -> None:
    """Compile (or load) what a batch runs, in this process, before the workers start (they
    then find it in the cache instead of each compiling it at once); a study of the match's
    table is read here first (the default one computed if missing)."""
    from cardsim.solvers.agent_spec import least_budget
    from cardsim.solvers.agents import parse_agent, play
    from cardsim.solvers.analyze import AnalysisConfig, evaluate_actions
    game = spec.load()
    if spec.match is not None:
        from .equity import analysis_equity
        analysis_equity(game, spec.match, "calibration")
    state = game.new_deal(seed=0)
    play(state.clone() if spec.match is None else game.new_match(seed=0),
         [least_budget(parse_agent(a, game)) for a in spec.seats(game.num_players)], seed=0)
    for a, *_ in spec.evaluators:
        evaluate_actions(state, AnalysisConfig(player=state.current_player(), worlds=2,
                                               agent=least_budget(parse_agent(a, game))))


def run_calibration(spec: CalibrationSpec, out, jobs: int = 1,
                    progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Play the study's missing batches into the store ``out`` (created, or resumed and
    repaired), ``jobs`` processes; every row. ``progress(done, total)`` after each batch."""
    from joblib import delayed

    from cardsim.experiments.store import Store
    from cardsim.workers import parallel
    d = spec.to_dict()
    with Store.writer(out, d) as store:
        store.repair()
        todo = [b for b in range(spec.batches) if (0, b) not in store.done()]
        done = spec.batches - len(todo)
        if todo:
            warm_up(spec)
            work = parallel(jobs, return_as="generator")(
                delayed(batch_rows)(d, b) for b in todo)
            for b, rows in zip(todo, work):
                store.write_batch(0, b, rows)
                done += 1
                if progress is not None:
                    progress(done, spec.batches)
        return store.rows()


# --- measuring ---------------------------------------------------------------------------------

def bin_of(p: np.ndarray, bins: int = BINS) -> np.ndarray:
    """Each forecast's bin of equal width over [0, 1] (1 falls in the last)."""
    return np.minimum((np.asarray(p, dtype=np.float64) * bins).astype(np.int64), bins - 1)


def reliability(p, o, bins: int = BINS) -> pd.DataFrame:
    """The reliability diagram's table: per bin with forecasts, its range, positions, mean
    forecast and the share that came true with its Wilson interval (an outcome may be 1/2, a
    drawn match: counted as half a success)."""
    p, o = np.asarray(p, dtype=np.float64), np.asarray(o, dtype=np.float64)
    k = bin_of(p, bins)
    out = []
    for b in range(bins):
        mine = k == b
        n = int(mine.sum())
        if n:
            share, lo, hi = wilson_interval(float(o[mine].sum()), n)
            out.append({"bin": b, "from": b / bins, "to": (b + 1) / bins, "positions": n,
                        "predicted": float(p[mine].mean()), "realized": share,
                        "realized_lo": lo, "realized_hi": hi})
    return noted(pd.DataFrame(out, columns=["bin", "from", "to", "positions", "predicted",
                                            "realized", "realized_lo", "realized_hi"]),
                 f"Forecasts in {bins} bins of equal width: the mean forecast against the share "
                 "that came true, with its Wilson 95% interval.")


def ece(p, o, bins: int = BINS) -> float:
    """The expected calibration error: the bins' gaps between mean forecast and frequency,
    weighted by their positions."""
    p, o = np.asarray(p, dtype=np.float64), np.asarray(o, dtype=np.float64)
    if not len(p):
        return math.nan
    k = bin_of(p, bins)
    gap = np.abs(np.bincount(k, p, bins) - np.bincount(k, o, bins))
    return float(gap.sum() / len(p))


def brier(p, o, bins: int = BINS) -> dict:
    """The Brier score and Murphy's decomposition over the bins: ``reliability`` (lower is
    better), ``resolution`` (higher is better), ``uncertainty`` (of the outcomes alone) and the
    ``remainder`` ``brier - (reliability - resolution + uncertainty)`` (the forecasts' spread
    within the bins)."""
    p, o = np.asarray(p, dtype=np.float64), np.asarray(o, dtype=np.float64)
    n = len(p)
    score = float(((p - o) ** 2).mean())
    k = bin_of(p, bins)
    count = np.bincount(k, minlength=bins).astype(np.float64)
    full = count > 0
    mean_p = np.bincount(k, p, bins)[full] / count[full]
    mean_o = np.bincount(k, o, bins)[full] / count[full]
    base = float(o.mean())
    rel = float((count[full] * (mean_p - mean_o) ** 2).sum() / n)
    res = float((count[full] * (mean_o - base) ** 2).sum() / n)
    unc = base * (1 - base)
    return {"brier": score, "reliability": rel, "resolution": res, "uncertainty": unc,
            "remainder": score - (rel - res + unc)}


def ece_interval(p, o, deal, bins: int = BINS, boot: int = 400,
                 seed: int = 41) -> tuple[float, float, float, float]:
    """``(ece, corrected, lo, hi)``: :func:`ece`, and the same corrected for its bias with its
    95% interval, by a bootstrap that resamples whole deals. The ECE of noisy bins is biased
    upward (each bin's gap is an absolute value), so its bootstrap draws sit above it and
    their percentiles can exclude it; the bootstrap's own bias, the draws' mean less the
    estimate, estimates that bias: ``corrected = ece - bias`` and the basic bootstrap interval
    ``[2 ece - q97.5, 2 ece - q2.5]`` (Efron and Tibshirani 1993, §13.4), clipped at 0."""
    p, o, deal = (np.asarray(a) for a in (p, o, deal))
    est = ece(p, o, bins)
    ids, where = np.unique(deal, return_inverse=True)
    members = [np.flatnonzero(where == i) for i in range(len(ids))]
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(boot):
        take = np.concatenate([members[i] for i in rng.integers(0, len(ids), len(ids))])
        draws.append(ece(p[take], o[take], bins))
    if not draws:
        return est, math.nan, math.nan, math.nan
    q_lo, q_hi = np.percentile(draws, [2.5, 97.5])
    return (est, max(0.0, 2 * est - float(np.mean(draws))), max(0.0, 2 * est - float(q_hi)),
            max(0.0, 2 * est - float(q_lo)))


def return_bias(predicted, realized, deal) -> tuple[float, float, float]:
    """The realized return less the predicted, averaged per deal first, with its 95% interval
    over deals (the positions of a deal share its outcome)."""
    gap = pd.Series(np.asarray(realized, dtype=np.float64) - np.asarray(predicted, np.float64))
    return mean_interval(gap.groupby(np.asarray(deal)).mean().to_numpy())


STAGES = ("early", "middle", "late")


def stage_of(move, moves) -> np.ndarray:
    """Each position's third of its deal: 0 early, 1 middle, 2 late."""
    return np.minimum((3 * np.asarray(move) / np.asarray(moves)).astype(np.int64), 2)


def forecast_scores(p, o, deal, prefix: str = "") -> dict:
    """What the summary says of the forecasts ``p`` of the outcomes ``o`` (the positions of
    ``deal``'s deals): the mean of each, ECE with its correction and interval, and the Brier
    score with its parts; every key after ``prefix``."""
    e_, corrected, e_lo, e_hi = ece_interval(p, o, deal)
    scores = {"predicted": float(np.mean(p)), "realized": float(np.mean(o)), "ece": e_,
              "ece_corrected": corrected, "ece_corrected_lo": e_lo, "ece_corrected_hi": e_hi,
              **brier(p, o)}
    return {prefix + k: v for k, v in scores.items()}


def summary(rows: pd.DataFrame, evaluators) -> pd.DataFrame:
    """Per evaluator, and per evaluator and third of the deal (of the match in a study of the
    match): positions, deals, the mean forecast and the share won, ECE with its interval, the
    Brier score and its parts, the mean return predicted and realized and the bias with its
    interval; in a study of the match, the same of the match (``match_…``)."""
    out = []
    stage = stage_of(rows["move"], rows["moves"])
    match = "predicted_match" in rows.columns
    for e, name in enumerate(evaluators):
        for s in (None, 0, 1, 2):
            mine = (rows["evaluator"] == e) & ((stage == s) if s is not None else True)
            part = rows[mine]
            if not len(part):
                continue
            deal = part["deal"]
            scores = forecast_scores(part["predicted_win"], part["realized_win"], deal)
            bias = return_bias(part["predicted_return"], part["realized_return"], deal)
            out.append({"evaluator": name, "stage": "all" if s is None else STAGES[s],
                        "positions": len(part), "deals": int(deal.nunique()),
                        "predicted_win": scores.pop("predicted"),
                        "realized_win": scores.pop("realized"), **scores,
                        "predicted_return": float(part["predicted_return"].mean()),
                        "realized_return": float(part["realized_return"].mean()),
                        "bias": bias[0], "bias_lo": bias[1], "bias_hi": bias[2],
                        "seconds": float(part["seconds"].mean())})
            if match:
                out[-1].update(forecast_scores(part["predicted_match"],
                                               part["realized_match"], deal, "match_"))
    return noted(pd.DataFrame(out), "Per evaluator (and third of the deal): the expected "
                 "calibration error of the chance of winning the deal (10 bins), the same "
                 "corrected for its upward bias with its 95% interval (bootstrap over deals), "
                 "the Brier score with Murphy's decomposition, the "
                 "realized less the predicted mean return (95% interval over deals), and the "
                 "analysis's mean seconds a position"
                 + ("; the same of the chance of winning the match (match_…; a study of the "
                    "match: the deals column counts matches, the thirds are the match's)"
                    if match else "") + ".")
