"""cardsim's games inside OpenSpiel: importing this module registers every game as an OpenSpiel
Python game, ``cardsim_scopa``, ``cardsim_bura``, ``cardsim_mushka`` and ``cardsim_minchiate``
(needs the optional extra ``cardsim[openspiel]``, ``open_spiel==2.0.2``).

>>> import pyspiel, cardsim.interop.openspiel
>>> game = pyspiel.load_game("cardsim_bura", {"num_players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 16)

**One game is one deal.** Its parameters are the game's rules options (``cardsim games``) as
OpenSpiel parameters (an int option an int, a true/false one a bool, any other a string,
``"none"`` for no value), plus ``deal_seeds``. The per-game facts below come from each game's
package, through its :class:`~cardsim.protocol.spec.GameDefinition`; look there for them.

**Chance: the deal's seed, digit by digit.** The deal's seed ``k`` is drawn from ``deal_seeds``
(1,000 by default) equally likely seeds, in base-32 digits, the most significant first: one
chance node a digit (two for 1,000 seeds; :class:`SeedDraw`), each digit as likely as the share
of the seeds below it. The last digit deals ``cardsim.load_game(...).new_deal(seed=k)``
(Mushka's from every seat's starting record). Every later random event is fixed in the state
vector, so no other chance node follows. Digits rather than one node of 1,000 outcomes: a
chance draw as OpenSpiel's loops make it (``zip`` of ``chance_outcomes()``, numpy's ``choice``)
costs about 170 microseconds over 1,000 outcomes, most of a deal's time, and about 20 over 32.
Not a node per card: the engines shuffle in compiled code, and a Python dealing path would
escape their differential tests. Not ``SAMPLED_STOCHASTIC``: listed outcomes keep
``chance_outcomes``, serialization and the algorithms that walk chance nodes working. The
price: the tree holds ``deal_seeds`` deals, not every deal.

**Actions.** An OpenSpiel action is the index of the move in the state's sorted legal action
ids (cardsim's ids are sparse); ``num_distinct_actions`` is the game's
:attr:`~cardsim.protocol.spec.GameSpec.max_actions`. The player to move knows his legal
actions, so an index names the same move in every world of his information set, as ISMCTS
needs. ``action_to_string`` writes the move in the game's notation.

**Utilities.** ``ZERO_SUM`` or ``GENERAL_SUM`` by the game's ``zero_sum``; the bounds are its
``return_bounds`` (:func:`utility_bounds`); ``max_game_length`` is its ``MAX_DEAL_MOVES``.

**Information states and observations.** The observation string is ``State.observation(player)``
as canonical JSON; the information-state string adds the deal's moves as the player saw them
(each move's seat and ``observed_action``). The two tensors are the same, in one layout a game:
one-hot ``seat``, ``to_move`` and ``dealer``, ``hand_sizes`` and ``stock_size`` over the deck's
size, then a block of card planes (bit-index order of ``cardsim.cards``) for each of the game's
``observation_planes`` (its notation's ``OBSERVATION_PLANES``). Every game's observation keeps
the cards each seat has shown; the order of the moves is in the string only.

**Sampling worlds.** ``resample_from_infostate(player, sampler)`` gives the state of
``State.sample_world(player, seed)``, the seed drawn from ``sampler``: any deal consistent with
what the player has seen (maybe none of the chance node's), his information-state string and,
when he is to move, his legal actions unchanged; the other seats' histories are his view of the
moves, and it has no ``history()``. OpenSpiel's Python ISMCTS calls it; its C++ algorithms
cannot (a Python game cannot override ``ResampleFromInfostate``).

**Clone and serialization.** A state's attributes (:class:`CardsimState`) share one picklable
game context, so OpenSpiel's default ``clone`` (a deep copy) and ``serialize_game_and_state``
(a pickle of the attributes with the history) work as for any Python game.
"""
from __future__ import annotations

import dataclasses
import functools
import json

import numpy as np
import pyspiel

from ..compiled.logged_step import logged_step
from ..game import Game, State, load_game
from ..protocol.registry import definition, list_games

__all__ = ["CardsimGame", "CardsimState", "DEFAULT_DEAL_SEEDS", "SEED_BASE", "SeedDraw",
           "game_type", "utility_bounds"]

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

DEFAULT_DEAL_SEEDS = 1000
"""The deal seeds by default (the ``deal_seeds`` parameter)."""

SEED_BASE = 32
"""The most outcomes of a chance node: the seed's digits are in this base (module docstring)."""


class SeedDraw:
    """The chance nodes that draw a deal's seed among ``seeds``, a digit each (module
    docstring): ``nodes`` of them; :meth:`outcomes` of the node after the digits that make
    ``prefix``."""

    def __init__(self, seeds: int) -> None:
        self.seeds = seeds
        self.nodes = 1
        while SEED_BASE ** self.nodes < seeds:
            self.nodes += 1
        self._outcomes: dict[tuple[int, int], list[tuple[int, float]]] = {}

    def outcomes(self, depth: int, prefix: int) -> list[tuple[int, float]]:
        """(digit, chance) of node ``depth`` (0: the first) after the digits making ``prefix``:
        each digit as likely as the share of the seeds below it. A shared list: copy it before
        handing it out."""
        found = self._outcomes.get((depth, prefix))
        if found is None:
            span = SEED_BASE ** (self.nodes - depth - 1)       # the seeds below one digit
            low = prefix * SEED_BASE * span                       # the node's first seed
            below = [min(span, self.seeds - low - d * span) for d in range(SEED_BASE)
                     if low + d * span < self.seeds]
            found = [(d, b / sum(below)) for d, b in enumerate(below)]
            if len(self._outcomes) < 4096:
                self._outcomes[(depth, prefix)] = found
        return found

    def digits_of(self, seed: int) -> list[int]:
        """The chance actions that draw ``seed``, the first node's first."""
        return [seed // SEED_BASE ** (self.nodes - 1 - j) % SEED_BASE for j in range(self.nodes)]

_DEALS_KEPT = 1024
"""The deals a game keeps dealt (:meth:`_Context.deal`): every seed of the default chance node,
at most about a megabyte."""


# --- tensors -----------------------------------------------------------------------------------

class _Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) for one game; ``perfect_recall`` adds the moves seen to the string."""

    def __init__(self, context: "_Context", perfect_recall: bool) -> None:
        self.context = context
        self.perfect_recall = perfect_recall
        n, n_cards = context.n_players, context.n_cards
        obs = context.sample_observation
        pieces = [("seat", n), ("to_move", n), ("dealer", n), ("hand_sizes", n), ("stock_size", 1)]
        pieces += [(name, len(planes(obs, n)) * n_cards)
                   for name, planes in context.definition.observation_planes]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, size in pieces:
            shape = (size,) if name in ("seat", "to_move", "dealer", "hand_sizes", "stock_size") \
                else (size // n_cards, n_cards)
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: "CardsimState", player: int) -> None:
        """The tensor of ``state`` seen by ``player`` (module docstring)."""
        self.tensor.fill(0.0)
        c = self.context
        self.dict["seat"][player] = 1.0
        if state.vec is None:
            return
        o = state.cardsim_state().observation(player)
        if state.player >= 0:
            self.dict["to_move"][state.player] = 1.0
        if o.get("dealer") is not None:
            self.dict["dealer"][o["dealer"]] = 1.0
        self.dict["hand_sizes"][:] = np.asarray(o.get("hand_sizes") or [0] * c.n_players,
                                                dtype=np.float32) / c.n_cards
        self.dict["stock_size"][0] = (o.get("stock_size") or 0) / c.n_cards
        for name, planes in c.definition.observation_planes:
            for k, cards in enumerate(planes(o, c.n_players)):
                for card in cards:
                    self.dict[name][k, c.index[card]] = 1.0

    def string_from(self, state: "CardsimState", player: int) -> str:
        """The observation (JSON), and with perfect recall the moves as ``player`` saw them."""
        if state.vec is None:
            return f"p{player} before the deal"
        text = json.dumps(state.cardsim_state().observation(player), sort_keys=True,
                          separators=(",", ":"))
        if not self.perfect_recall:
            return text
        log = state.log[:state.n_moves]
        return text + " moves:" + " ".join(f"{actor}:{seen}" for actor, seen
                                           in zip(log[:, 0].tolist(), log[:, 1 + player].tolist()))


# --- the game ----------------------------------------------------------------------------------

def _parameter(value):
    """An option's default as an OpenSpiel parameter value (module docstring)."""
    if value is None:
        return "none"
    return value if isinstance(value, (bool, int)) else str(value)


def _option_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@functools.cache
def parameter_specification(name: str) -> dict:
    """The game's OpenSpiel parameters and their defaults: its rules options and ``deal_seeds``."""
    spec = {f.name: _parameter(f.default) for f in dataclasses.fields(definition(name).rules_type)}
    spec["deal_seeds"] = DEFAULT_DEAL_SEEDS
    return spec


def _allowed_players(name: str) -> tuple[int, int]:
    rules = definition(name).rules_type
    fields = {f.name: f for f in dataclasses.fields(rules)}
    if "num_players" not in fields:
        n = definition(name).n_players(rules())
        return n, n
    allowed = [a for a in fields["num_players"].metadata["allowed"] if isinstance(a, int)]
    return min(allowed), max(allowed)


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of cardsim's game ``name`` (module docstring)."""
    low, high = _allowed_players(name)
    zero_sum = definition(name).zero_sum
    return pyspiel.GameType(
        short_name=f"cardsim_{name}", long_name=f"cardsim {name.capitalize()} (one deal)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_specification(name))


def utility_bounds(game: Game) -> tuple[float, float]:
    """Bounds on a deal's return for any seat under ``game``'s rules (module docstring; the
    game's :attr:`~cardsim.protocol.spec.GameDefinition.return_bounds`)."""
    return game.definition.return_bounds(game.rules, game.num_players)


def _compiled(kernel, *example):
    """The compiled function that the numba dispatcher ``kernel`` runs for arguments of the
    types of ``example`` (compiled, or loaded from the cache, now). Called directly it skips
    the dispatcher's look-up of the arguments' types, most of the cost of a move's call; its
    arguments must then have exactly those types (C-contiguous, writeable arrays of the same
    dtypes; integers)."""
    return kernel.compile(tuple(kernel.typeof_pyval(a) for a in example))


def _new_log(moves: int, n_players: int) -> np.ndarray:
    """A deal's empty log (:class:`CardsimState`): per move, the seat, then the move as each
    seat saw it."""
    return np.zeros((moves, 1 + n_players), np.int64)


class _Context:
    """What every state of one game shares: the cardsim game, its kernels, the card index.
    Shared by clones (``deepcopy`` returns it) and pickled by name and options."""

    def __init__(self, name: str, options: dict, deal_seeds: int) -> None:
        self.name, self.options, self.deal_seeds = name, dict(options), deal_seeds
        self.game = load_game(name, **{k: _option_text(v) for k, v in options.items()})
        spec = self.game.spec
        self.spec, self.params = spec, spec.params
        self.n_players, self.n_cards = spec.n_players, spec.n_cards
        self.definition = self.game.definition
        self.max_moves = self.definition.layout.MAX_DEAL_MOVES
        self.index = {card: i for i, card in enumerate(self.game.definition.deck.cards)}
        self.draw = SeedDraw(deal_seeds)
        self.buffer = np.empty(spec.max_actions, dtype=np.int64)
        self.legal_actions = spec.legal_actions
        self.deals: dict[int, tuple[np.ndarray, int]] = {}
        self.indices: dict[int, list[int]] = {}
        sample = self.game.new_deal(seed=0)
        self.sample_observation = sample.observation(0)
        self.step = _compiled(logged_step[spec], sample.vec, self.params, 0, self.n_players,
                              _new_log(self.max_moves, self.n_players), 0, self.buffer)
        self.observers = {True: _Observer(self, True), False: _Observer(self, False)}

    def deal(self, seed: int) -> tuple[np.ndarray, int]:
        """The deal of ``seed``: its vector (read-only: the caller copies it) and the seat to
        move. The first :data:`_DEALS_KEPT` seeds drawn are kept, so that the chance node does
        not derive a seed's generator again."""
        dealt = self.deals.get(seed)
        if dealt is None:
            vec = self.game.new_deal(seed=seed).vec
            dealt = vec, (_TERMINAL if self.spec.is_terminal(vec, self.params)
                          else int(self.spec.current_player(vec, self.params)))
            vec.flags.writeable = False
            if len(self.deals) < _DEALS_KEPT:
                self.deals[seed] = dealt
        return dealt

    def actions(self, n: int) -> list[int]:
        """A new list of the action indices ``0 .. n - 1``."""
        indices = self.indices.get(n)
        if indices is None:
            indices = self.indices[n] = list(range(n))
        return indices.copy()

    def __deepcopy__(self, memo) -> "_Context":
        return self

    def __reduce__(self):
        return _context, (self.name, tuple(sorted(self.options.items())), self.deal_seeds)


@functools.lru_cache(maxsize=64)
def _context(name: str, options: tuple, deal_seeds: int) -> _Context:
    return _Context(name, dict(options), deal_seeds)


class CardsimGame(pyspiel.Game):
    """One of cardsim's games as an OpenSpiel game: one deal (module docstring)."""

    cardsim_name = ""

    def __init__(self, params=None) -> None:
        name = self.cardsim_name
        values = {**parameter_specification(name), **(params or {})}
        deal_seeds = int(values.pop("deal_seeds"))
        if deal_seeds < 1:
            raise ValueError(f"deal_seeds={deal_seeds}: expected at least 1")
        self.context = _context(name, tuple(sorted(values.items())), deal_seeds)
        game = self.context.game
        low, high = utility_bounds(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.spec.max_actions,
            max_chance_outcomes=min(deal_seeds, SEED_BASE),
            num_players=game.num_players, min_utility=low, max_utility=high,
            utility_sum=0.0 if game.definition.zero_sum else None,
            max_game_length=self.context.max_moves)
        super().__init__(game_type(name), info, {**values, "deal_seeds": deal_seeds})

    @property
    def cardsim_game(self) -> Game:
        """The cardsim :class:`~cardsim.game.Game` under these rules."""
        return self.context.game

    def new_initial_state(self) -> "CardsimState":
        """The chance node that deals (module docstring)."""
        return CardsimState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        """The observer of information states (perfect recall) or observations."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.context, perfect_recall)


class CardsimState(pyspiel.State):
    """A deal: the chance node before it, then a cardsim state vector (module docstring).

    Attributes (all that ``clone`` copies and serialization pickles): ``vec`` (the ``uint64``
    state vector, None at the chance node; a writeable, C-contiguous array of its own, as the
    compiled step takes it), ``player`` (the seat to move), ``digits`` and ``seed`` (the seed's
    digits drawn so far and the number they make), ``log`` (per move: the seat that moved,
    then the move's id as each seat saw it), ``n_moves``, ``_ids`` (the legal action ids, None
    until asked for after the deal) and ``context``."""

    def __init__(self, game: CardsimGame) -> None:
        super().__init__(game)
        self.context = game.context
        self.vec = None
        self.player = _CHANCE
        self.digits = self.seed = 0
        self.log = _new_log(self.context.max_moves, self.context.n_players)
        self.n_moves = 0
        self._ids = None

    def cardsim_state(self) -> State:
        """The position as a cardsim :class:`~cardsim.game.State` (sharing the vector)."""
        return State(self.context.game, self.vec)

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` before the deal, ``TERMINAL`` after it."""
        return self.player

    def is_chance_node(self) -> bool:
        """True before the deal (answered in Python: OpenSpiel's would call back into it)."""
        return self.player == _CHANCE

    def _set_player(self) -> None:
        c = self.context
        self.player = (_TERMINAL if c.spec.is_terminal(self.vec, c.params)
                       else int(c.spec.current_player(self.vec, c.params)))

    def _legal_ids(self) -> np.ndarray:
        if self._ids is None:
            c = self.context
            n = c.legal_actions(self.vec, c.params, c.buffer)
            self._ids = c.buffer[:n].copy()
        return self._ids

    def _legal_actions(self, player: int) -> list[int]:
        """Indices into the sorted cardsim legal actions (module docstring)."""
        return self.context.actions(len(self._legal_ids()))

    def legal_actions(self, player=None) -> list[int]:
        """As OpenSpiel's ``State.legal_actions``, answered in Python: the legal actions of the
        seat to move (the deal seeds at the chance node), none for another seat."""
        if player is not None and player != self.player:
            return []
        if self.player >= 0:
            return self.context.actions(len(self._legal_ids()))
        if self.player != _CHANCE:
            return []
        return self.context.actions(len(self.context.draw.outcomes(self.digits, self.seed)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seed's next digits and their chances (module docstring; a new list of the
        game's shared pairs)."""
        return self.context.draw.outcomes(self.digits, self.seed).copy()

    def _apply_action(self, action: int) -> None:
        c = self.context
        if self.vec is None:
            self.seed = self.seed * SEED_BASE + int(action)
            self.digits += 1
            if self.digits == c.draw.nodes:
                vec, self.player = c.deal(self.seed)
                self.vec = vec.copy()
            return
        k = self.n_moves
        if k == len(self.log):
            self.log = np.concatenate([self.log, np.zeros_like(self.log)])
        code = c.step(self.vec, c.params, self._legal_ids()[action], c.n_players, self.log, k,
                      c.buffer)
        self.n_moves = k + 1
        if code == 0:
            self.player, self._ids = _TERMINAL, c.buffer[:0].copy()
        else:
            self.player, self._ids = (code >> 16) - 1, c.buffer[:code & 65535].copy()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.vec is None:
            return f"deal seed digit {action}"
        return self.cardsim_state().action_to_string(int(self._legal_ids()[action]))

    def is_terminal(self) -> bool:
        """True when the deal is scored."""
        return self.player == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's return of the deal (zeros before its end)."""
        if self.vec is None:
            return [0.0] * self.context.n_players
        return self.cardsim_state().returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "CardsimState":
        """A state of a world consistent with what ``player_id`` has seen, drawn by cardsim's
        compiled ``determinize`` with a seed from ``probability_sampler`` (module docstring)."""
        if self.vec is None:
            return self.clone()
        seed = int(probability_sampler() * 2 ** 31) << 31 | int(probability_sampler() * 2 ** 31)
        world = self.cardsim_state().sample_world(player_id, seed)
        out = self.get_game().new_initial_state()
        out.vec = world.vec
        out.digits, out.seed = self.digits, self.seed
        out._set_player()
        out.n_moves = self.n_moves
        out.log = self.log.copy()
        out.log[:, 1:] = self.log[:, 1 + player_id:2 + player_id]
        return out

    def __str__(self) -> str:
        if self.vec is None:
            return f"chance node: the deal seed's digit {self.digits + 1}"
        return json.dumps(self.cardsim_state().to_dict(), sort_keys=True)


def _register(name: str) -> None:
    cls = type(f"Cardsim{name.capitalize()}Game", (CardsimGame,),
               {"cardsim_name": name, "__module__": __name__,
                "__doc__": f"cardsim's {name} as an OpenSpiel game (module docstring)."})
    globals()[cls.__name__] = cls
    pyspiel.register_game(game_type(name), cls)


for _name in list_games():
    _register(_name)
