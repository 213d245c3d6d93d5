"""The baseline of ``cardsim bench``'s OpenSpiel figures: a game's plain-Python reference engine
(``cardsim/games/<game>/reference.py``, the tests' oracle, named by the game's
:attr:`~cardsim.protocol.spec.GameDefinition.reference`) as an OpenSpiel Python game,
``python_reference_<game>``, under the game's default rules.

It is the deal of :mod:`cardsim.interop.openspiel` in plain Python: the same chance nodes (the
deal seed's digits, :class:`~cardsim.interop.openspiel.SeedDraw`; a seed deals the same cards
in both engines), the same actions
(indices into the sorted legal action ids), the same returns. It is written as OpenSpiel's
Python games are (``_legal_actions``, ``_apply_action``), with the legal list generated once a
position: the engine, written for clarity (Python sets and lists), checks each move it is given
against the list the state already holds (:class:`GivenLegalList`) rather than generating it
again. It has no observations: the bench only plays it.
"""
from __future__ import annotations

import importlib
import json

import pyspiel

from cardsim.game import load_game
from cardsim.interop.openspiel import (
    DEFAULT_DEAL_SEEDS,
    SEED_BASE,
    SeedDraw,
    game_type,
    utility_bounds,
)

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


class GivenLegalList:
    """Mixed into a reference engine: the legality check that opens its ``apply_action`` (its
    only call of ``legal_actions`` there) reads the list set in ``given``, once, instead of
    generating the list again."""

    given = None

    def legal_actions(self) -> list[int]:
        given, self.given = self.given, None
        return super().legal_actions() if given is None else given


class ReferenceGame(pyspiel.Game):
    """A reference engine as an OpenSpiel game of one deal (module docstring); one subclass a
    game (:func:`load`), naming it."""

    name = ""

    def __init__(self, params=None) -> None:
        name = self.name
        game = load_game(name)
        module, _, engine = game.definition.reference.partition(":")
        engine = getattr(importlib.import_module(module), engine)
        self.engine = type(engine.__name__, (GivenLegalList, engine), {})
        self.rules = game.rules
        self.draw = SeedDraw(DEFAULT_DEAL_SEEDS)
        low, high = utility_bounds(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.spec.max_actions, max_chance_outcomes=SEED_BASE,
            num_players=game.num_players, min_utility=low, max_utility=high,
            utility_sum=0.0 if game.definition.zero_sum else None,
            max_game_length=game.definition.layout.MAX_DEAL_MOVES)
        super().__init__(_game_type(name), info, params or {})

    def new_initial_state(self) -> "ReferenceState":
        """The chance node that deals."""
        return ReferenceState(self)


class ReferenceState(pyspiel.State):
    """A deal of the reference engine: None before the chance node's seed, then the engine."""

    def __init__(self, game: ReferenceGame) -> None:
        super().__init__(game)
        self.game = game
        self.engine = None
        self.ids = None
        self.digits = self.seed = 0

    def current_player(self) -> int:
        if self.engine is None:
            return _CHANCE
        return _TERMINAL if self.engine.is_terminal() else self.engine.current_player()

    def _legal_ids(self) -> list[int]:
        if self.ids is None:
            self.ids = self.engine.legal_actions()
        return self.ids

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None:
            return list(range(len(self.chance_outcomes())))
        return list(range(len(self._legal_ids())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.game.draw.outcomes(self.digits, self.seed).copy()

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.seed = self.seed * SEED_BASE + int(action)
            self.digits += 1
            if self.digits == self.game.draw.nodes:
                self.engine = self.game.engine.new_deal(self.game.rules, self.seed)
        else:
            ids = self.engine.given = self._legal_ids()
            self.engine.apply_action(ids[action])
        self.ids = None

    def _action_to_string(self, player: int, action: int) -> str:
        if self.engine is None:
            return f"deal seed digit {action}"
        return str(self._legal_ids()[action])

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_terminal()

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.get_game().num_players()
        return list(self.engine.returns())

    def __str__(self) -> str:
        return "chance node" if self.engine is None else json.dumps(self.engine.to_dict())


def _game_type(name: str) -> pyspiel.GameType:
    kind = game_type(name)
    n = load_game(name).num_players
    return pyspiel.GameType(
        short_name=f"python_reference_{name}",
        long_name=f"cardsim's Python reference {name} (one deal)", dynamics=kind.dynamics,
        chance_mode=kind.chance_mode, information=kind.information, utility=kind.utility,
        reward_model=kind.reward_model, max_num_players=n, min_num_players=n,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})


_REGISTERED: dict[str, type] = {}
"""The game classes registered with OpenSpiel, by game (kept while the process lives: OpenSpiel
holds them to the end)."""


def load(name: str) -> pyspiel.Game:
    """The game ``python_reference_<name>``, registered with OpenSpiel on first use."""
    if name not in _REGISTERED:
        cls = type(f"Reference{name.capitalize()}Game", (ReferenceGame,), {"name": name})
        pyspiel.register_game(_game_type(name), cls)
        _REGISTERED[name] = cls
    return pyspiel.load_game(f"python_reference_{name}")
