"""Random-playout simulation: N deals with uniformly random legal actions, summarised.

The deals run in the game's own compiled loop (``GameSpec.play_random_deals``) in chunks of
:data:`CHUNK` deals, so a progress bar can follow long runs; one chance stream runs through all
chunks, and a game under way (Mushka plays whole games) goes on into the next chunk, so the
rows do not depend on the chunk size. ``simulate`` adds each chunk to exact sums (the game's
:class:`~cardsim.stats.Summary`) and drops it, so its memory does not grow with the number of
deals; the rows of every deal are kept only when asked (``SimulationConfig(keep_rows=True)``, or
:func:`play_random_deals`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np
import pandas as pd
from tqdm import tqdm

from .compiled.rng import rng_from_seed
from .errors import CardsimError, OptionError
from .game import Game, GameDefinition, load_game
from .stats import Sums

CHUNK = 20_000
"""Deals per call of the compiled loop (a progress step); the rows do not depend on it: a game
under way (Mushka's) is carried into the next call."""

MAX_DEALS = 2**63 - 1
"""The most deals a run may ask for: deal counts are int64 in the compiled loops and the
tables (the chance stream, one xoshiro256** of period 2**256 - 1, allows far more)."""


def check_deals(deals) -> None:
    """:class:`CardsimError` unless ``deals`` is an integer from 1 to :data:`MAX_DEALS`."""
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise CardsimError(f"deals={deals!r}: expected a positive integer")
    if deals > MAX_DEALS:
        raise CardsimError(f"deals={deals}: at most {MAX_DEALS:,} (2**63 - 1, as deal counts "
                           "are int64)")


@dataclass(frozen=True)
class SimulationConfig:
    """What ``cardsim simulate`` runs."""

    game: str
    deals: int
    seed: int
    options: dict = field(default_factory=dict)
    player: dict = field(default_factory=dict)
    progress: bool = False
    keep_rows: bool = False
    """Keep every deal's row in the result (memory grows with ``deals``)."""

    def __post_init__(self) -> None:
        check_deals(self.deals)


@dataclass(frozen=True)
class SimulationResult:
    """The game's summary tables, and the rows of every deal (one each) when the
    config asked to keep them (else None)."""

    config: SimulationConfig
    rules: Any
    rows: pd.DataFrame | None
    tables: dict[str, pd.DataFrame]


def random_policy(d: GameDefinition, player: dict | None = None) -> np.ndarray:
    """The random player's parameter vector of a game, defaults overridden by ``player``
    (values or strings); :class:`OptionError` names an unknown or bad parameter."""
    known = {name: (default, doc) for name, default, doc in d.random_player}
    for name in player or {}:
        if name not in known:
            raise OptionError(f"unknown random-player parameter {name!r} for {d.name}: expected "
                              + (", ".join(known) or "none (it has no parameter)"))
    values = []
    for name, (default, _) in known.items():
        value = (player or {}).get(name, default)
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise OptionError(f"random-player parameter {name}={value!r}: expected a number "
                              "from 0 to 1") from None
        if not 0.0 <= value <= 1.0:
            raise OptionError(f"random-player parameter {name}={value!r}: expected a number "
                              "from 0 to 1")
        values.append(value)
    return np.array(values, dtype=np.float64)


def row_chunks(game: Game, deals: int, seed, player: dict | None = None,
               progress: bool = False) -> Iterator[pd.DataFrame]:
    """The rows of ``deals`` random deals of ``game``, one DataFrame of at most
    :data:`CHUNK` rows at a time, each made when asked for; one chance stream from ``seed``
    runs through them all."""
    check_deals(deals)
    spec = game.spec
    policy = random_policy(game.definition, player)
    rng = rng_from_seed(seed)
    columns = list(spec.row_columns)
    carry = np.zeros(spec.state_len + 1, dtype=np.uint64)     # a game under way (Mushka)
    with tqdm(total=deals, unit="deal", disable=None if progress else True,
              desc=f"{game.definition.name} deals", leave=False) as bar:
        for start in range(0, deals, CHUNK):
            rows = np.zeros((min(CHUNK, deals - start), len(columns)), dtype=np.int64)
            spec.play_random_deals(spec.params, rng, len(rows), rows, spec.max_actions, policy,
                                   carry)
            bar.update(len(rows))
            yield pd.DataFrame(rows, columns=columns, copy=False)


def play_random_deals(game_name: str, deals: int, seed: int, options: dict | None = None,
                      progress: bool = False,
                      player: dict | None = None) -> tuple[Any, pd.DataFrame]:
    """Play ``deals`` random deals; return the rules and one row per deal (all in
    memory: ``simulate`` summarises long runs chunk by chunk instead)."""
    game = load_game(game_name, **(options or {}))
    chunks = list(row_chunks(game, deals, seed, player, progress))
    return game.rules, pd.concat(chunks, ignore_index=True)


def simulate(config: SimulationConfig) -> SimulationResult:
    """Run a simulation and build the game's summary tables, chunk by chunk (module
    docstring)."""
    game = load_game(config.game, **config.options)
    summary = game.definition.summarize
    sums = Sums()
    kept = []
    for chunk in row_chunks(game, config.deals, config.seed, config.player, config.progress):
        summary.add(sums, chunk, game.rules)
        if config.keep_rows:
            kept.append(chunk)
    rows = pd.concat(kept, ignore_index=True) if config.keep_rows else None
    return SimulationResult(config, game.rules, rows, summary.tables(sums, game.rules))
