"""The registered games: one line per game, its package; the package's ``GAME`` is its
definition (:class:`cardsim.protocol.spec.GameDefinition`), which everything else reads.

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
"""Game name -> the package that declares its definition as ``GAME``."""


def list_games() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(GAMES)


def definition(name: str) -> GameDefinition:
    """The definition of a registered game; :class:`UnknownGameError` names an unknown one."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r}: expected one of "
                               + ", ".join(list_games()))
    found = importlib.import_module(GAMES[name]).GAME
    if found.name != name:
        raise RuntimeError(f"{GAMES[name]}.GAME is named {found.name!r}, registered as "
                           f"{name!r}")
    return found
