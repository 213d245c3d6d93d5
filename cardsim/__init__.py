"""cardsim: Monte Carlo analysis and solvers for Scopa, Bura, Mushka and Minchiate.

>>> import cardsim
>>> "scopa" in cardsim.list_games()
True
"""
from .errors import (CardError, CardsimError, IllegalActionError, OptionError, PositionError,
                     UnknownGameError)
from .game import Game, State, list_games, load_game

__version__ = "0.1.0"

__all__ = ["CardError", "CardsimError", "Game", "IllegalActionError", "OptionError",
           "PositionError", "State", "UnknownGameError", "list_games", "load_game"]
