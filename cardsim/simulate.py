"""Random-playout simulation: N deals with uniformly random legal actions, summarised.

The deals run in the game's own compiled loop (``GameSpec.play_random_deals``) in chunks, so a
progress bar can follow long runs; one chance stream runs through all chunks, so the result
does not depend on the chunk size.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from .errors import CardsimError
from .game import definition, load_game
from .rng import rng_from_seed

CHUNK = 20_000


@dataclass(frozen=True)
class SimulationConfig:
    """What ``cardsim simulate`` runs."""

    game: str
    deals: int
    seed: int
    options: dict = field(default_factory=dict)
    progress: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise CardsimError(f"deals={self.deals!r}: expected a positive integer")


@dataclass(frozen=True)
class SimulationResult:
    """The records of every deal (one row each) and the game's summary tables."""

    config: SimulationConfig
    rules: Any
    records: pd.DataFrame
    tables: dict[str, pd.DataFrame]


def play_random_deals(game_name: str, deals: int, seed: int, options: dict | None = None,
                      progress: bool = False) -> tuple[Any, pd.DataFrame]:
    """Play ``deals`` random deals; return the rules and one record row per deal."""
    game = load_game(game_name, **(options or {}))
    spec = game.spec
    rng = rng_from_seed(seed)
    records = np.zeros((deals, len(spec.record_columns)), dtype=np.int64)
    with tqdm(total=deals, unit="deal", disable=None if progress else True,
              desc=f"{game_name} deals",
              leave=False) as bar:
        for start in range(0, deals, CHUNK):
            stop = min(deals, start + CHUNK)
            spec.play_random_deals(spec.params, rng, stop - start, records[start:stop],
                                   spec.max_actions)
            bar.update(stop - start)
    return game.rules, pd.DataFrame(records, columns=list(spec.record_columns))


def simulate(config: SimulationConfig) -> SimulationResult:
    """Run a simulation and build the game's summary tables."""
    rules, records = play_random_deals(config.game, config.deals, config.seed, config.options,
                                       config.progress)
    tables = definition(config.game).summarize(records, rules)
    return SimulationResult(config, rules, records, tables)
