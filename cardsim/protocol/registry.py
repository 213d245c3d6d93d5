"""The registered games: one line per game, its package; the package's ``GAME`` is its record
(:class:`cardsim.protocol.spec.GameDefinition`), which everything else reads.

>>> from cardsim.protocol.registry import definition
>>> definition("scopa").exact.max_cards, definition("mushka").exact.max_cards
(0, 25)
>>> definition("skat")
Traceback (most recent call last):
...
cardsim.errors.UnknownGameError: unknown game 'skat': expected one of bura, minchiate, mushka, scopa
"""
from __future__ import annotations

import importlib

from ..errors import UnknownGameError
from .spec import GameDefinition

GAMES = {
    "bura": "cardsim.games.bura",
    "minchiate": "cardsim.games.minchiate",
    "mushka": "cardsim.games.mushka",
    "scopa": "cardsim.games.scopa",
}
"""Game name -> the package that declares its record as ``GAME``."""


def list_games() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(GAMES)


def definition(name: str) -> GameDefinition:
    """The record of a registered game; :class:`UnknownGameError` names an unknown one."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}: expected one of "
                               + ", ".join(list_games()))
    record = importlib.import_module(GAMES[name]).GAME
    if record.name != name:
        raise RuntimeError(f"{GAMES[name]}.GAME is named {record.name!r}, registered as "
                           f"{name!r}")
    return record
