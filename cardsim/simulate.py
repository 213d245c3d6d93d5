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

from .errors import CardsimError, OptionError
from .game import GameDefinition, definition, load_game
from .rng import rng_from_seed

CHUNK = 20_000


@dataclass(frozen=True)
class SimulationConfig:
    """What ``cardsim simulate`` runs."""

    game: str
    deals: int
    seed: int
    options: dict = field(default_factory=dict)
    player: dict = field(default_factory=dict)
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


def play_random_deals(game_name: str, deals: int, seed: int, options: dict | None = None,
                      progress: bool = False,
                      player: dict | None = None) -> tuple[Any, pd.DataFrame]:
    """Play ``deals`` random deals; return the rules and one record row per deal."""
    game = load_game(game_name, **(options or {}))
    spec = game.spec
    policy = random_policy(game.definition, player)
    rng = rng_from_seed(seed)
    records = np.zeros((deals, len(spec.record_columns)), dtype=np.int64)
    with tqdm(total=deals, unit="deal", disable=None if progress else True,
              desc=f"{game_name} deals",
              leave=False) as bar:
        for start in range(0, deals, CHUNK):
            stop = min(deals, start + CHUNK)
            spec.play_random_deals(spec.params, rng, stop - start, records[start:stop],
                                   spec.max_actions, policy)
            bar.update(stop - start)
    return game.rules, pd.DataFrame(records, columns=list(spec.record_columns))


def simulate(config: SimulationConfig) -> SimulationResult:
    """Run a simulation and build the game's summary tables."""
    rules, records = play_random_deals(config.game, config.deals, config.seed, config.options,
                                       config.progress, config.player)
    tables = definition(config.game).summarize(records, rules)
    return SimulationResult(config, rules, records, tables)
