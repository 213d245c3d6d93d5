"""The public Python API: games, states and the registry (DESIGN.md §2).

A :class:`Game` is an immutable factory of states for one game under one set of rules; a
:class:`State` is the only mutable object and wraps the flat ``uint64`` state vector that the
kernels work on. Both are generic: everything game-specific comes from the game's definition
(:class:`~cardsim.protocol.spec.GameDefinition`, found by :mod:`cardsim.protocol.registry`): its rules class,
its kernels and its notation codec.

>>> import cardsim
>>> game = cardsim.load_game("scopa")
>>> state = game.new_deal(seed=7)
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)
>>> cardsim.load_game("scopa", target_score=12)
Traceback (most recent call last):
...
cardsim.errors.OptionError: option target_score='12' is not allowed: expected one of 11, 21, 31, 41, 51, 61, 71, 81, 91, 101
"""
from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any, Callable, Mapping

import numpy as np

from .compiled.rng import rng_from_seed
from .errors import CardsimError, IllegalActionError
from .protocol.options import rules_from_options
from .protocol.registry import definition, list_games
from .protocol.spec import GameDefinition, GameSpec

__all__ = ["Game", "GameDefinition", "State", "definition", "list_games", "load_game"]


def load_game(name: str, rules: Any = None, **options: Any) -> "Game":
    """A :class:`Game` by name, with rules options as keyword arguments (values or strings),
    or ``rules``: the game's rules object, or a mapping of options like the keywords."""
    d = definition(name)
    if rules is None or isinstance(rules, Mapping):
        rules = rules_from_options(d.rules_type, {**(rules or {}), **options}, name)
    elif not isinstance(rules, d.rules_type):
        raise CardsimError(f"rules={rules!r}: expected a {d.rules_type.__name__} or a mapping "
                           f"of {name} options")
    elif options:
        rules = dataclasses.replace(rules, **options)
    return Game(d, rules)


class Game:
    """A game under fixed rules: a factory of :class:`State` objects."""

    def __init__(self, definition: GameDefinition, rules: Any) -> None:
        self.definition = definition
        self.rules = rules
        self.spec: GameSpec = definition.spec(rules)

    @property
    def name(self) -> str:
        """The game's registered name."""
        return self.definition.name

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.spec.n_players

    def __repr__(self) -> str:
        return f"Game({self.name!r}, {self.rules!r})"

    def _dealt(self, kernel: Callable, seed: Any) -> np.ndarray:
        vec = np.zeros(self.spec.state_len, dtype=np.uint64)
        kernel(self.spec.params, rng_from_seed(seed), vec)
        return vec

    def new_deal(self, seed: Any, where: Any = None, **setup: Any) -> "State":
        """One deal, dealt from ``seed``; the state is terminal when the deal is scored.
        ``where`` conditions the initial cards (:mod:`cardsim.deals`: the deal is drawn
        uniformly among those that satisfy it, from ``seed``); ``setup`` sets what the game
        allows besides the cards (Mushka: ``records``)."""
        if setup and self.definition.deal_setup is None:
            raise CardsimError(f"{self.name} deals take only a seed, not "
                               + ", ".join(sorted(setup)))
        condition = None
        if where:
            from .deals import deal_where, parse_where
            condition = parse_where(self, where)
            vec = deal_where(self, seed, condition)
        else:
            vec = self._dealt(self.spec.new_deal, seed)
        if setup:
            self.definition.deal_setup(vec, self.rules, **setup)
        return State(self, vec).started(seed, dict(condition.canonical) if condition and
                                        condition.canonical else None)

    def new_match(self, seed: Any) -> "State":
        """A whole match (or game), dealt from ``seed``; terminal when it is decided."""
        return State(self, self._dealt(self.spec.new_match, seed)).started(seed)

    def from_dict(self, position: Mapping[str, Any]) -> "State":
        """A state from a position dict, validated (:class:`~cardsim.errors.PositionError`)."""
        vec = self.definition.codec.from_dict(position, self.rules)
        return State(self, vec).started()


class State:
    """A position of a game; the only mutable object of the API.

    A state made by ``new_deal``, ``new_match`` or ``from_dict`` remembers where it started
    and the actions applied to it since (:meth:`apply_action`, ``cardsim.solvers.agents.play``), so
    that :meth:`record` gives the game's record (:mod:`cardsim.records.record`)."""

    __slots__ = ("game", "vec", "start", "seed", "where", "actions")

    def __init__(self, game: Game, vec: np.ndarray) -> None:
        self.game = game
        self.vec = vec
        self.start: np.ndarray | None = None
        self.seed: Any = None
        self.where: dict | None = None
        self.actions: list[int] = []

    def started(self, seed: Any = None, where: dict | None = None) -> "State":
        """This state as the start of its record (what :meth:`record` replays from), dealt
        from ``seed`` under the condition ``where`` (canonical form) when given."""
        self.start = self.vec.copy()
        self.seed = seed if isinstance(seed, (int, np.integer)) and not isinstance(
            seed, bool) else None
        self.where = where
        self.actions = []
        return self

    def record(self, seats=None):
        """The :class:`cardsim.records.record.GameRecord` of the moves played on this state since its
        start (``seats``: who played each seat, ``"person"`` by default). Refused in one line
        when the state does not know its start, or its vector was changed otherwise than by
        its moves."""
        from .records.record import RecordError, record_of
        if self.start is None:
            raise RecordError("this state was not made by new_deal, new_match or from_dict: "
                              "it has no record of its moves")
        start = State(self.game, self.start.copy())
        record = record_of(start, self.actions, seats,
                           None if self.seed is None else int(self.seed), self.where)
        replayed = start.clone()
        for a in self.actions:
            replayed.apply_action(a)
        if not np.array_equal(replayed.vec, self.vec):
            raise RecordError("the state was changed otherwise than by its moves: no record")
        return record

    @property
    def _spec(self) -> GameSpec:
        return self.game.spec

    @property
    def _codec(self) -> ModuleType:
        return self.game.definition.codec

    def current_player(self) -> int:
        """The seat to move, or -1 when the deal or match is over."""
        return int(self._spec.current_player(self.vec, self._spec.params))

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted ascending; empty when terminal."""
        buf = np.empty(self._spec.max_actions, dtype=np.int64)
        n = self._spec.legal_actions(self.vec, self._spec.params, buf)
        return buf[:n].tolist()

    def apply_action(self, action: int) -> None:
        """Play ``action``; :class:`IllegalActionError` (state unchanged) if it is not legal."""
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or int(action) not in legal:
            shown = self.action_to_string(action) if self._is_action_id(action) else repr(action)
            raise IllegalActionError(
                f"illegal action {shown} for seat {self.current_player()}: expected one of "
                + (", ".join(self.action_to_string(a) for a in legal) or "nothing (terminal)"))
        self._spec.apply_action(self.vec, self._spec.params, np.int64(action))
        self.actions.append(int(action))

    def _is_action_id(self, action: Any) -> bool:
        try:
            self._codec.action_to_dict(self.vec, int(action))
            return True
        except (TypeError, ValueError, IndexError):
            return False

    def is_terminal(self) -> bool:
        """True when the deal (or match) is over."""
        return bool(self._spec.is_terminal(self.vec, self._spec.params))

    def returns(self) -> list[float]:
        """Per seat: the outcome (see the game's docs); zeros before the end."""
        out = np.zeros(self._spec.n_players, dtype=np.float64)
        self._spec.returns(self.vec, self._spec.params, out)
        return out.tolist()

    def score_breakdown(self) -> dict:
        """Points per scoring category and side (or player)."""
        return self._codec.score_breakdown(self.vec, self.game.rules)

    def observation(self, player: int) -> dict:
        """What ``player`` sees, as a JSON-ready dict."""
        return self._codec.observation(self.vec, self.game.rules, self._seat(player))

    def sample_world(self, player: int, seed: Any) -> "State":
        """A full state consistent with ``player``'s observation, sampled from ``seed``."""
        out = np.empty_like(self.vec)
        self._spec.determinize(self.vec, self._spec.params, self._seat(player),
                               rng_from_seed(seed), out)
        return State(self.game, out)

    def _seat(self, player: Any) -> int:
        n = self._spec.n_players
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
                or not 0 <= player < n:
            raise CardsimError(f"player {player!r} does not exist: expected a seat 0..{n - 1}")
        return int(player)

    def clone(self) -> "State":
        """An independent copy (with its record so far)."""
        copy = State(self.game, self.vec.copy())
        copy.start, copy.seed, copy.actions = self.start, self.seed, list(self.actions)
        copy.where = self.where
        return copy

    def to_dict(self) -> dict:
        """The position as a JSON-ready dict; ``game.from_dict`` rebuilds it."""
        return self._codec.to_dict(self.vec, self.game.rules)

    def action_to_dict(self, action: int) -> dict:
        """The stable dict form of an action id."""
        return self._codec.action_to_dict(self.vec, int(action))

    def action_from_dict(self, d: Mapping[str, Any]) -> int:
        """The action id of a dict form (validated against this state's legal actions)."""
        return self._codec.action_from_dict(self.vec, self.game.rules, d, self.legal_actions())

    def action_to_string(self, action: int) -> str:
        """The short text form of an action id."""
        return self._codec.action_to_string(self.vec, int(action))

    def __repr__(self) -> str:
        return f"State({self.game.name}, to_move={self.current_player()})"
