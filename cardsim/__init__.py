"""cardsim: Monte Carlo analysis and solvers for Scopa, Bura, Mushka and Minchiate.

>>> import cardsim
>>> "scopa" in cardsim.list_games()
True
"""
from .compiled import cache as _cache

_cache.configure()     # numba's cache locator, before any compiled function is defined

from .errors import CardError, CardsimError, IllegalActionError, OptionError, PositionError, UnknownGameError  # noqa: E402
from .game import Game, State, load_game  # noqa: E402
from .protocol.registry import list_games  # noqa: E402

__version__ = "0.1.0"

__all__ = ["CardError", "CardsimError", "Game", "IllegalActionError", "OptionError",
           "PositionError", "State", "UnknownGameError", "list_games", "load_game"]
