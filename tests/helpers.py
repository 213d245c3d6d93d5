"""Helpers every game's tests share.

:func:`load_game` is ``cardsim.load_game`` loaded once per distinct arguments: tests ask for the
same game under the same options many times, and loading checks the options and builds the
game's spec each time. A game's test module binds it to its game once::

    from tests.helpers import game_loader

    game = game_loader("scopa")      # game(num_players=4) is load_game("scopa", num_players=4)

:func:`shipped_specs` lists the studies the repository ships.

Tests of ``cardsim.load_game`` itself (its errors, options given as strings or a mapping) call
``cardsim.load_game`` directly: an error is never cached, but a test of loading should load.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

import cardsim

ROOT = Path(__file__).resolve().parent.parent
"""The repository's folder."""
DEMO_SPEC = ROOT / "cardsim" / "experiments" / "demo.toml"
"""``cardsim demo``'s study, shipped in the package."""


def shipped_specs() -> list[Path]:
    """Every study the repository ships: ``experiments/specs/*.toml`` and the demo's."""
    return sorted([*(ROOT / "experiments" / "specs").glob("*.toml"), DEMO_SPEC])


@functools.lru_cache(maxsize=None)
def _loaded(name: str, rules: Any, options: tuple) -> cardsim.Game:
    return cardsim.load_game(name, rules, **dict(options))


def load_game(name: str, rules: Any = None, **options: Any) -> cardsim.Game:
    """``cardsim.load_game(name, rules, **options)``, loaded once per distinct arguments (the
    same ``Game`` object is returned again); unhashable arguments load afresh every time."""
    key = tuple(sorted(options.items()))
    try:
        hash((rules, key))
    except TypeError:
        return cardsim.load_game(name, rules, **options)
    return _loaded(name, rules, key)


def game_loader(name: str) -> Callable[..., cardsim.Game]:
    """:func:`load_game` for one game: ``game_loader("bura")(num_players=3)`` is
    ``load_game("bura", num_players=3)``."""
    def game(rules: Any = None, **options: Any) -> cardsim.Game:
        return load_game(name, rules, **options)
    game.__doc__ = f"The {name} game under these options (:func:`tests.helpers.load_game`)."
    return game
