"""The registered games: one line per game, its package; the package's ``GAME`` is its
definition (:class:`cardsim.protocol.spec.GameDefinition`), which everything else reads. A game
package outside cardsim is one :func:`register` call.

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
import importlib.util

from ..compiled import cache
from ..errors import UnknownGameError, nearest, shown
from .spec import GameDefinition

GAMES = {
    "bura": "cardsim.games.bura",
    "minchiate": "cardsim.games.minchiate",
    "mushka": "cardsim.games.mushka",
    "scopa": "cardsim.games.scopa",
}
"""Game name -> the package that declares its definition as ``GAME``."""


def register(name: str, package: str) -> None:
    """Register the game package ``package`` (any importable package declaring ``GAME``,
    named ``name``) from outside this module, as a test registers a toy game; ``ValueError``
    when ``name`` is another package's. :func:`unregister` takes it back."""
    if GAMES.get(name, package) != package:
        raise ValueError(f"game {shown(name)} is already registered as {GAMES[name]}")
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise ValueError(f"{package!r} is not an importable package")
    cache.add_game(name, found.submodule_search_locations[0])   # before its kernels compile
    GAMES[name] = package


def unregister(name: str) -> None:
    """Forget the game ``name`` that :func:`register` added."""
    if GAMES.pop(name, None) is not None:
        cache.add_game(name, None)


def list_games() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(GAMES)


def definition(name: str) -> GameDefinition:
    """The definition of a registered game; :class:`UnknownGameError` names an unknown one."""
    if not isinstance(name, str) or name not in GAMES:
        near = nearest(name, list_games())
        raise UnknownGameError(f"unknown game {shown(name)}: " + (f"did you mean {near!r}? "
                               if near else "") + "expected one of " + ", ".join(list_games()))
    found = importlib.import_module(GAMES[name]).GAME
    if found.name != name:
        raise RuntimeError(f"{GAMES[name]}.GAME is named {found.name!r}, registered as "
                           f"{shown(name)}")
    return found
