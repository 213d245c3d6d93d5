"""Match-equity tables: the chance that side a wins the match from every match state.

The game's :class:`cardsim.protocol.match.MatchModel` says what a match state is and how a deal's
outcome moves it. The outcomes' distribution is measured by simulation: single deals between
the two agents (agent 0 plays side a, agent 1 side b; in 4-seat games each agent takes both
seats of its team), on duplicate deals — every deal once per rotation of the seats — so that
each configuration (which side deals) is measured on the same cards. The table is then exact
dynamic programming over the states for that distribution::

    p(state) = sum over outcomes o of P(o | config(state)) * p(step(state, o))

with ``p`` = 1 where side a has won, 0 where it has lost (and, for draws, a second table for
the chance of a draw). The equations are solved by iteration from 0: every match ends after
finitely many deals but for ties (Scopa's tie at the target plays again), so the iteration
reaches the exact values after the longest path and converges geometrically round the ties;
it stops when nothing changes by more than 1e-12.

Intervals: a bootstrap over the simulated deals (Efron and Tibshirani 1993, the percentile
interval): ``boot`` resamples of the deals (each deal with all its rotations, so the duplicate
pairing is kept), each through the same dynamic programming; ``p_low`` and ``p_high`` are the
2.5% and 97.5% points of a state's resampled values. The resamples come from the run's seed.

Where a configuration cannot start a single deal as it comes (Bura: a deal whose dealer leads
first, as a later deal of a match may), the model names the *deal setups* its configurations
need (``setups``: ``Game.new_deal(seed, **setup)``); the deals are then played once per setup
from the same seeds — the same cards — and a deal's rows of every setup stay together in the
bootstrap (they share the deal's index).

A table is stored like an experiment (:func:`run_equity`): a folder with ``manifest.json``
(kind ``equity``: game, rules, agents and what each level stood for, deals, seed, bootstrap,
cardsim version, and the deal setups where there are several), ``deals/`` (the simulated
deals: an experiment store, resumable and reproducible like ``cardsim run``, readable by
``cardsim report``; ``deals_<name>/`` the deals of each other setup), and the table as
``equity.parquet`` and ``equity.csv`` in tidy form: one row per match state, the state's
columns first, then ``p_win``, ``p_low``, ``p_high`` (and ``p_draw`` where a match can be
drawn).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import __version__
from cardsim.game import load_game
from cardsim.protocol.match import A_WINS, B_WINS, DRAW, MatchModel, dense_equity
from cardsim.protocol.options import rules_dict

from .equity_folder import (
    CSV,
    DEALS,
    MANIFEST,
    SCHEMA,
    TABLE,
    EquityError,
    default_folder,
    match_model,
    read_manifest,
    read_table,
)
from .rows import SEAT, n_seats, seat_columns
from .spec import ExperimentSpec, parse_spec
from .store import folder_lock, levels_of, write_synced

BOOT = 200
"""Bootstrap resamples of an equity table (its intervals)."""
AGENTS = ("heuristic", "heuristic")
"""The default players of a table: the heuristic against itself. A table needs about 10^5
deals for intervals of +-0.01 (rules/scopa to 11: module docstring of the command), which the
heuristic plays in seconds and a searching agent at 1 s a move in days."""
MAX_STATES = 2_000_000
"""The most match states a table's dynamic programming holds."""
CHUNK = 4_000_000
"""Resamples are solved together, as many as keep one array under this many numbers."""
_RESULTS = {A_WINS: 0, B_WINS: 1, DRAW: 2}


@dataclass(frozen=True)
class EquityConfig:
    """What an equity table is computed from (module docstring); ``rules`` as options."""

    game: str
    rules: dict = field(default_factory=dict)
    agents: tuple[str, str] = AGENTS
    deals: int = 100_000
    seed: int = 0
    boot: int = BOOT
    batch_size: int = 0        # deals per batch of the simulation (0: chosen from deals)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["agents"] = list(self.agents)
        return d


def deal_setups(model: MatchModel) -> tuple[tuple[str, dict], ...]:
    """The deal setups a model's configurations need, as ``(name, setup)`` (module docstring);
    one plain setup (name ``""``) for most games."""
    return tuple(getattr(model, "setups", None) or (("", {}),))


def deals_folder(name: str) -> str:
    """The folder of an equity folder that holds the deals of the setup ``name``."""
    return f"{DEALS}_{name}" if name else DEALS


def deal_spec(config: EquityConfig, setup: dict | None = None) -> ExperimentSpec:
    """The experiment that measures the deal outcomes: duplicate single deals of agent 0 (side
    a) against agent 1 (side b), each agent at every seat of its side; every deal started
    from ``setup`` when one is given."""
    game = load_game(config.game, **config.rules)
    n = game.num_players
    if n not in (2, 4):
        raise EquityError(f"{game.name} with {n} players: an equity table is for two sides "
                          "(2 players, or 4 in two partnerships)")
    batch = config.batch_size or int(min(2_000, max(10, config.deals // 50)))
    return parse_spec({
        "question": f"Deal outcomes of {config.agents[0]} (side a) against "
                    f"{config.agents[1]} (side b), for a match-equity table",
        "game": config.game, "rules": dict(config.rules), "agents": list(config.agents),
        "matchups": [[s % 2 for s in range(n)]], "seed": config.seed, "batch_size": batch,
        "size": {"deals": config.deals}, **({"setup": dict(setup)} if setup else {})})


def deal_outcomes(rows: pd.DataFrame, model: MatchModel):
    """Each row's deal index, configuration and outcome (agent 0 is side a)."""
    side = rows[seat_columns(SEAT, n_seats(rows))].to_numpy() % 2
    configs, outcomes = model.outcomes(rows, side)
    return rows["deal"].to_numpy(), np.asarray(configs, dtype=np.int64), outcomes


def _graph(model: MatchModel, outcomes: list[tuple]) -> tuple[list[tuple], np.ndarray]:
    """The states reachable from the table's rows by the outcomes, and for each state and
    outcome the index of the next state (``len(states) + k`` for the result ``k``)."""
    index: dict[tuple, int] = {}
    order: list[tuple] = []
    for s in model.states:
        if s not in index:
            index[s] = len(order)
            order.append(s)
    steps = []
    i = 0
    while i < len(order):
        row = []
        for o in outcomes:
            nxt = model.step(order[i], o)
            if isinstance(nxt, str):
                row.append(-1 - _RESULTS[nxt])
                continue
            if nxt not in index:
                if len(order) >= MAX_STATES:
                    raise EquityError(f"more than {MAX_STATES:,} match states")
                index[nxt] = len(order)
                order.append(nxt)
            row.append(index[nxt])
        steps.append(row)
        i += 1
    nxt = np.array(steps, dtype=np.int64).reshape(len(order), len(outcomes))
    nxt = np.where(nxt < 0, len(order) - 1 - nxt, nxt)
    return order, nxt


def solve(nxt: np.ndarray, config: np.ndarray, probs: np.ndarray,
          results: tuple[float, float, float]) -> np.ndarray:
    """The value of every state (module docstring) under each distribution ``probs[r, c, o]``
    (the chance of outcome o in configuration c), where the results a, b and draw are worth
    ``results``: an array ``[r, state]``."""
    n_states, n_out = nxt.shape
    out = np.empty((probs.shape[0], n_states))
    step = max(1, CHUNK // max(1, n_states * n_out))
    for lo in range(0, probs.shape[0], step):
        p = probs[lo:lo + step][:, config, :]                  # [r, state, outcome]
        ext = np.zeros((p.shape[0], n_states + 3))
        ext[:, n_states:] = results
        for _ in range(100_000):
            new = np.einsum("rso,rso->rs", ext[:, nxt], p)
            change = np.max(np.abs(new - ext[:, :n_states])) if n_states else 0.0
            ext[:, :n_states] = new
            if change <= 1e-12:
                break
        out[lo:lo + step] = ext[:, :n_states]
    return out


def equity_table(rows: pd.DataFrame, model: MatchModel, boot: int = BOOT,
                 seed: int = 0) -> pd.DataFrame:
    """The equity table (module docstring) from a store's rows of deals."""
    deals, configs, outcomes = deal_outcomes(rows, model)
    n_configs = len(model.configs)
    missing = sorted(set(range(n_configs)) - set(configs.tolist()))
    if missing:
        raise EquityError("no deal measured where " + " or ".join(
            f"{model.configs[c]} deals" for c in missing))
    kinds, outcome_of = np.unique(outcomes, axis=0, return_inverse=True)
    outcome_of = outcome_of.reshape(-1)
    deal_ids, deal_of = np.unique(deals, return_inverse=True)
    cell = configs * len(kinds) + outcome_of
    counts = np.zeros((len(deal_ids), n_configs * len(kinds)))   # [deal, config x outcome]
    np.add.at(counts, (deal_of.reshape(-1), cell), 1.0)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 20]))
    weights = np.vstack([np.ones(len(deal_ids)),
                         rng.multinomial(len(deal_ids), np.full(len(deal_ids), 1 / len(deal_ids)),
                                         size=boot)])
    probs = (weights @ counts).reshape(-1, n_configs, len(kinds))
    probs /= np.maximum(probs.sum(axis=2, keepdims=True), 1e-300)
    states, nxt = _graph(model, [tuple(int(v) for v in k) for k in kinds])
    config = np.array([model.config(s) for s in states], dtype=np.int64)
    win = solve(nxt, config, probs, (1.0, 0.0, 0.0))
    shown = len(set(model.states))
    table = pd.DataFrame(states[:shown], columns=list(model.columns))
    table["p_win"] = win[0, :shown]
    table["p_low"] = np.percentile(win[1:, :shown], 2.5, axis=0) if boot else win[0, :shown]
    table["p_high"] = np.percentile(win[1:, :shown], 97.5, axis=0) if boot else win[0, :shown]
    if model.draws:
        table["p_draw"] = solve(nxt, config, probs[:1], (0.0, 0.0, 1.0))[0, :shown]
    table.attrs["deals"] = {model.configs[c]: int((configs == c).sum()) for c in
                            range(n_configs)}
    return table


# --- the folder --------------------------------------------------------------------------




def manifest_of(config: EquityConfig, model: MatchModel) -> dict:
    """An equity folder's manifest (module docstring)."""
    game = load_game(config.game, **config.rules)
    return {"kind": "equity", "schema": SCHEMA, "cardsim": __version__,
            "config": config.to_dict(), "game": game.name, "rules": rules_dict(game.rules),
            "agents": list(config.agents),
            "levels": levels_of({"game": game.name, "agents": list(config.agents)}),
            "states": list(model.columns), "model": model.description,
            "model_rules": model.rules, **({"deal_setups": {
                deals_folder(name): setup for name, setup in deal_setups(model)}}
                if len(deal_setups(model)) > 1 else {})}


def run_equity(config: EquityConfig, out, jobs: int = 1, progress: bool = True) -> pd.DataFrame:
    """Compute (or resume) the equity table of ``config`` into the folder ``out`` (module
    docstring); returns the table. A folder of another config is refused."""
    from .runner import RunConfig, run, warm_up
    game = load_game(config.game, **config.rules)
    model = match_model(game)
    specs = [(deals_folder(name), deal_spec(config, setup)) for name, setup in
             deal_setups(model)]
    out = Path(out)
    manifest = manifest_of(config, model)
    with claimed_folder(out, manifest):
        rows = []
        for folder, spec in specs:
            warm_up(spec)
            store = run(spec, RunConfig(out=str(out / folder), jobs=jobs, progress=progress))
            rows.append(store.rows())
        table = equity_table(pd.concat(rows, ignore_index=True), model, config.boot,
                             config.seed)
        write_table(out, table)
    return table


@contextmanager
def claimed_folder(out: Path, manifest: dict):
    """Hold the equity folder ``out`` (its lock) for the request of ``manifest``: a new
    folder gets the manifest, a folder of the same request resumes, a folder of another
    request is refused in one line."""
    out.mkdir(parents=True, exist_ok=True)
    with folder_lock(out, user="a `cardsim equity`"):
        path = out / MANIFEST
        if path.exists():
            old = read_manifest(out)
            if old.get("config") != manifest["config"]:
                raise EquityError(f"{out}: holds the equity table of another request "
                                  f"({_differs(old.get('config', {}), manifest['config'])}); "
                                  "use another --out")
        else:
            write_synced(path, json.dumps(manifest, indent=2).encode())
        yield


def write_table(out: Path, table: pd.DataFrame) -> None:
    """A folder's table, as Parquet and as CSV (module docstring)."""
    write_synced(out / TABLE, table.to_parquet(index=False))
    write_synced(out / CSV, table.to_csv(index=False).encode())


def _differs(old: dict, new: dict) -> str:
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(f"{k} {old.get(k)!r} there, {new.get(k)!r} asked" for k in keys)


def table_checks(table: pd.DataFrame, model: MatchModel, symmetric: bool) -> pd.DataFrame:
    """The checks every table must pass, one row each (``check``, ``cells``, ``failures``,
    ``worst``): in a symmetric matchup (both sides the same agent) p(state) + p(mirror) +
    p(draw) = 1 within the two intervals; side a's chance does not fall, beyond the
    intervals, one step better for a (:attr:`MatchModel.better`)."""
    states = list(table[list(model.columns)].itertuples(index=False, name=None))
    index = {s: i for i, s in enumerate(states)}
    p, half = table["p_win"].to_numpy(), (table["p_high"] - table["p_low"]).to_numpy() / 2
    draw = table["p_draw"].to_numpy() if "p_draw" in table else np.zeros(len(table))
    rows = []
    if symmetric:
        devs = [(abs(p[i] + p[index[m]] + draw[i] - 1), half[i] + half[index[m]])
                for i, s in enumerate(states) if (m := model.mirror(s)) in index]
        rows.append({"check": "p(state) + p(mirror) + p(draw) = 1", "cells": len(devs),
                     "failures": sum(d > h + 1e-9 for d, h in devs),
                     "worst": max((d for d, _ in devs), default=0.0)})
    drops = [(p[i] - p[index[t]], half[i] + half[index[t]])
             for i, s in enumerate(states) for t in model.better(s) if t in index]
    rows.append({"check": "p does not fall one step better for side a", "cells": len(drops),
                 "failures": sum(d > h + 1e-9 for d, h in drops),
                 "worst": max((d for d, _ in drops), default=0.0)})
    return pd.DataFrame(rows)


def splits(table: pd.DataFrame, columns) -> dict[str, pd.DataFrame]:
    """The table's rows split by the values of every state column after the first two (the
    dealing side; Bura's first leader too), titled ``"dealer a"``, ``"dealer a, leader b"``,
    in increasing order."""
    split = list(columns[2:])
    out = {}
    for values, part in table.groupby(split, sort=True):
        values = values if isinstance(values, tuple) else (values,)
        out[", ".join(f"{c} {v}" for c, v in zip(split, values))] = part
    return out


def grids(table: pd.DataFrame, columns) -> dict[str, tuple[pd.DataFrame, pd.DataFrame]]:
    """The table as grids: for each part of :func:`splits`, side a's chance and its
    interval's half-width with the first column down and the second across (rows in
    increasing order)."""
    rows, cols = columns[:2]
    out = {}
    for title, part in splits(table, columns).items():
        wide = part.pivot(index=rows, columns=cols, values="p_win").sort_index()
        half = ((part["p_high"] - part["p_low"]) / 2).to_frame("half").join(part[[rows, cols]])
        half = half.pivot(index=rows, columns=cols, values="half").reindex_like(wide)
        out[title] = (wide, half)
    return out


def split_agents(text: str) -> tuple[str, str]:
    """``--agents A,B``: two agent specs separated by a comma; a part with ``=`` but no ``:``
    continues the agent before it (``ismcts:seconds=1,rollout=heuristic,heuristic`` is two
    agents). One agent stands for both sides."""
    agents: list[str] = []
    for part in text.split(","):
        if agents and "=" in part and ":" not in part:
            agents[-1] += "," + part
        else:
            agents.append(part)
    if len(agents) == 1:
        agents *= 2
    if len(agents) != 2 or not all(agents):
        raise EquityError(f"--agents {text!r}: expected two agents, A,B (side a, side b), or "
                          "one for both")
    return agents[0], agents[1]


def load_table(game, folder: str = "", user: str = "cardsim") -> tuple[dict, pd.DataFrame]:
    """:func:`.equity_folder.read_table`, but an empty ``folder`` (``cardsim equity``'s
    default one) that holds no table yet is computed first with the defaults (``user`` says
    who asks, on standard error)."""
    import sys

    from cardsim.protocol.options import non_default
    options = non_default(game.rules)
    default = default_folder(game.name, options)
    if not folder and not (Path(default) / TABLE).exists():
        print(f"{user}: no equity table in {default}: computing it (`cardsim equity "
              f"{game.name}` with its defaults)", file=sys.stderr)
        run_equity(EquityConfig(game=game.name, rules=options), default, progress=False)
    return read_table(game, folder)


def equity_values(game, folder: str = "", user: str = "cardsim"):
    """The match values per cell (:func:`cardsim.protocol.match.dense_equity`) of :func:`load_table`'s
    table: the default table computed first if missing."""
    _, table = load_table(game, folder, user)
    return dense_equity(match_model(game), table)


def analysis_equity(game, folder: str = "", user: str = "cardsim"):
    """The table ``analyze --match`` reads (:class:`cardsim.solvers.analyze.Equity`: match state ->
    side a's chance, and its standard error from the table's 95% interval) from an equity
    folder of ``game``'s rules; :func:`load_table`'s default folder, computed first when it
    holds no table yet."""
    from cardsim.solvers.analyze import Equity
    from cardsim.stats import Z95
    manifest, table = load_table(game, folder, user)
    states = [tuple(s) for s in table[manifest["states"]].itertuples(index=False, name=None)]
    se = (table["p_high"] - table["p_low"]).to_numpy() / (2 * Z95)
    return Equity(zip(states, table["p_win"]), zip(states, se))
