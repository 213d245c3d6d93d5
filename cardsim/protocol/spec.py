"""The game definition and the GameSpec protocol: what a game declares once, what every solver
sees.

A game package declares one :class:`GameDefinition` (``GAME`` in its ``__init__``, made by
:meth:`GameDefinition.of_package` from the file roles every game package has) and its
package path is one line of :mod:`cardsim.protocol.registry`; the API, the command line, the solvers and
the conformance suite read everything about the game from that definition: its rules class, deck
and notation, its compiled :class:`Kernels`, its capabilities (:class:`ExactHooks` for the
exact solver, or the reason it has none) and its conformance-suite adapter.

A :class:`GameSpec` is the definition under one set of rules: sizes, packed rules parameters and
the kernels. Every kernel works on a flat ``uint64`` state vector of length ``state_len`` and
the ``int64`` ``params``:

======================  ==================================================================
``start``               ``(params, rng, out_state, mode) -> None`` from the chance stream,
                        one deal (``mode`` :data:`DEAL`) or a whole match (:data:`MATCH`);
                        ``spec.new_deal(params, rng, out)`` and ``spec.new_match`` call it
``legal_actions``       ``(state, params, out_actions) -> n`` sorted int64 action ids
``apply_action``        ``(state, params, action) -> None`` in place; the action must be legal
``is_terminal``         ``(state, params) -> bool``
``current_player``      ``(state, params) -> int`` seat to move, -1 when terminal
``returns``             ``(state, params, out_float64[n_players]) -> None``
``determinize``         ``(state, params, observer, rng, out_state) -> None`` a world sampled
                        uniformly from those consistent with what ``observer`` has seen
``observed_action``     ``(state, params, action, observer) -> id`` the action as ``observer``
                        sees it (equal ids for moves he cannot tell apart)
``heuristic``           ``(state, params, actions, n, rng) -> index`` the game's heuristic
                        player (``cardsim/games/<game>/heuristic.py``)
``deal_cards``          ``(state, params) -> bool`` the deal of the order the state holds,
                        as ``start`` deals its shuffled order; False when the game voids
                        that deal (a redeal). :mod:`cardsim.deals` deals a constructed
                        order with it
``play_random_deals``   ``(params, rng, n_deals, rows, max_actions, policy, carry) -> None``
                        the engine's own random-playout loop, one of ``rows`` per deal;
                        ``policy`` (float64) holds the random player's parameters, in the
                        order of ``GameDefinition.random_player``; ``carry`` (uint64,
                        ``state_len + 1`` words, zero at a run's first call) what a loop
                        keeps from one call to the next (Mushka: the game under way), so
                        that a run split into calls plays the same deals
======================  ==================================================================

Compiled solvers reach these kernels as generic functions (:mod:`cardsim.compiled.jit`),
each compiled once per game with that game's kernels in place: no game id at run time, no
other game's code.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any, Callable

import numpy as np

from ..cards import Deck
from ..compiled.turns import DEAL, MATCH


def _started(start: Callable, mode: int) -> Callable:
    """``start`` as ``(params, rng, out)`` for one mode: ``new_deal`` and ``new_match``."""
    def new(params, rng, out):
        start(params, rng, out, mode)
    return new


@dataclass(frozen=True)
class Kernels:
    """A game's compiled protocol (module docstring): ``@njit`` functions, one per name."""

    start: Callable
    legal_actions: Callable
    apply_action: Callable
    is_terminal: Callable
    current_player: Callable
    returns: Callable
    determinize: Callable
    observed_action: Callable
    heuristic: Callable
    play_random_deals: Callable
    deal_cards: Callable

    @classmethod
    def of(cls, *modules, **given: Callable) -> Kernels:
        """The kernels named as the fields, each from ``given`` or else from the first of
        ``modules`` that defines it (``Kernels.of(kernels, worlds, heuristic=heuristic.choose)``)."""
        found = dict(given)
        for name in (f.name for f in fields(cls)):
            if name not in found:
                found[name] = next((getattr(m, name) for m in modules if hasattr(m, name)), None)
                if found[name] is None:
                    raise TypeError(f"no kernel {name!r} in {[m.__name__ for m in modules]}")
        return cls(**found)


@dataclass(frozen=True)
class ExactHooks:
    """What the exact solver (:mod:`cardsim.solvers.exact`) needs of a game, in compiled code:
    ``single_deal(state, params)`` (play only to the deal's end), ``side(state, params, seat,
    root)`` (0 or 1), ``value(state, params, root)`` of a finished deal for side 0 (int64),
    ``features(state, params, out) -> n`` (the words that identify a position up to
    equivalence), ``bounds(state, params) -> (lo, hi)`` on the value and
    ``order(state, params, actions, n, scores)`` (a guess of each move's worth),
    ``cards_left(state, params)`` (the cards still to be played in the deal, in hands or the
    stock: how much of the deal remains, which ISMCTS's exact endgames compare with their
    threshold), ``deal_return(value)`` (side 0's return of a deal of exact value ``value``,
    float64); and how its
    values read: ``unit`` (a phrase), ``columns(value) -> dict`` (the value's parts as table
    columns, or ``{}``) and ``refuses(rules) -> reason | None`` for rules it does not cover;
    ``max_cards``, when not 0: the solver covers endgames only, positions with at most this
    many ``cards_left`` (a whole deal is beyond it: no PIMC, no oracle, ``exact=K`` at most
    this). ``root`` is the seat the search is for: a two-sided game ignores it; a game of
    more sides than two (Mushka) is searched **paranoid** — side 0 is the root alone, side 1
    every other seat, playing against it — and its value is the root's own."""

    single_deal: Callable
    side: Callable
    value: Callable
    features: Callable
    bounds: Callable
    order: Callable
    cards_left: Callable
    deal_return: Callable
    unit: str
    columns: Callable[[int], dict] = lambda value: {}
    refuses: Callable[[Any], str | None] = lambda rules: None
    max_cards: int = 0


class TurnedSuit:
    """A named card set that is the suit of the turned trump card (Bura's and Mushka's
    ``trumps``): called with the turned card's index, the mask of its suit; ``size`` the cards
    of a suit. ``suits`` maps a suit's letter (the last of a card's name) to its mask."""

    def __init__(self, deck: Deck, suits: str) -> None:
        self.deck = deck
        self.suits = {s: deck.matching(lambda c, s=s: c.endswith(s)) for s in suits}
        self.size = next(iter(self.suits.values())).bit_count()

    def __call__(self, turned: int) -> int:
        return self.suits[self.deck.name(turned)[-1]]


@dataclass(frozen=True)
class DealConditions:
    """What a deal condition (:mod:`cardsim.deals`, ``--where``) may name in a game: its named
    card ``sets`` (a mask, or a :class:`TurnedSuit`), whether it deals an opening ``table`` and
    turns a trump card (``turned``), and ``refuses(rules, place, cards, low) -> reason | None``:
    why a condition that puts at least ``low`` of the cards ``cards`` (a mask or a
    :class:`TurnedSuit`) in ``place`` (a seat, -1 the table) can never be dealt as asked under
    ``rules`` (a deal the rules redeal), or None."""

    sets: dict = field(default_factory=dict)
    table: bool = False
    turned: bool = False
    refuses: Callable[[Any, int, Any, int], str | None] = lambda rules, place, cards, low: None


@dataclass(frozen=True)
class GameDefinition:
    """Everything a game package declares, once (module docstring).

    ``codec`` is the game's notation module with ``to_dict``, ``from_dict``,
    ``action_to_dict``, ``action_from_dict``, ``action_to_string``, ``observation`` and
    ``score_breakdown`` functions (each taking the state vector and the rules);
    ``summarize(rows, rules)`` turns the rows of random deals into the game's tables.
    """

    name: str
    rules_type: type
    deck: Deck
    codec: ModuleType
    summary: str
    summarize: Callable[[Any, Any], dict]
    kernels: Kernels
    layout: ModuleType
    """The game's ``layout`` module: ``N_CARDS``, ``N_WORDS``, ``STATE_LEN``, ``DEALER`` (or
    no dealer), ``MAX_DEAL_MOVES``, ``DEAL_NUMBER`` (the word that changes when a match's next
    deal is dealt: an inferring search's record of the deal starts there) and the state's named
    offsets."""
    row_columns: tuple[str, ...]
    """The columns of ``play_random_deals``' rows."""
    max_actions: Callable[[Any], int]
    """``(rules) -> int``: the most legal actions a position can have under the rules."""
    reward_scale: float = 1.0
    """A typical size of a deal's returns: searches divide returns by it, so that one UCT
    exploration constant suits every game."""
    n_players: Callable[[Any], int] = lambda rules: rules.num_players
    """``(rules) -> int``: the number of seats."""
    exact: ExactHooks | None = None
    """The exact solver's hooks, or None when the solver does not cover the game."""
    no_exact: str = ""
    """Why the exact solver (and PIMC, the oracle, ``cardsim solve``) does not cover the game,
    when ``exact`` is None."""
    conformance: str = ""
    """The module of the game's conformance-suite adapter (the protocol is
    :mod:`cardsim.protocol.conformance`): where its cards lie in a position dict, which are hidden from
    whom, which worlds are possible."""
    random_player: tuple = ()
    """The random player's parameters of ``play_random_deals``: (name, default, description)."""
    choose_random: Callable[[list, Any, Any], int] | None = None
    """The same random player in Python: ``(legal_actions, policy, random.Random) -> action``
    (default: uniform), for the reference engine's playouts in ``cardsim bench``."""
    reference: str = ""
    """``"module:Class"`` of the plain-Python reference engine (``Class.new_deal(rules,
    seed)``), the tests' oracle and ``cardsim bench``'s yardstick."""
    return_unit: str = "points"
    """What a deal's return counts (Scopa's points, Bura's stakes), for tables and plots."""
    zero_sum: bool = True
    """A deal's returns add up to 0 (False for Mushka, where every seat can write off): a
    report then says who is better by the difference of two agents' returns at one table."""
    categories: tuple = ()
    """The scoring categories of ``score_breakdown`` that reports show, in order."""
    endless_match: Callable[[Any], str | None] = lambda rules: None
    """``(rules) -> reason | None``: why a match under ``rules`` may never end (the searches
    roll out to a match's end, and a run of whole matches must finish), or None when every
    match ends. Matches are then refused where cardsim would play one to its end: ``play
    --match``, ``unit = "match"`` experiments, and analysis of a match position."""
    match: Callable[[Any], Any] | None = None
    """``(rules) -> MatchModel``: the game's match as states and deal outcomes, for match-equity
    tables (:mod:`cardsim.protocol.match`); None when there is none yet."""
    records_match: Callable[[Any], Any] | None = None
    """``(rules) -> RecordsModel``: a game decided by each seat's own record, whose chances are
    counted over whole games (:class:`cardsim.protocol.match.RecordsModel`: Mushka); None otherwise."""
    standing: Callable[[Any, Any, int], list] | None = None
    """``(vec, rules, n) -> list``: each of the ``n`` seats' standing in a match (or a game of
    several deals) after the deals played so far, higher is better, read between deals and at
    the match's end (its ``match`` module's ``standing``): what a match's trajectory facts
    follow (:func:`cardsim.protocol.outcome.match_facts`). None when the game has none."""
    match_cell: Callable | None = None
    """The compiled ``(state, params, side) -> int64``: the match-equity table cell of the
    match state a state's deal was dealt from, seen by ``side`` (:attr:`MatchModel.cell`);
    ``G.match_cell`` in generic code, which a search valuing a deal's end by the table
    (``ismcts:value=match``) reads. None when the game has no match model."""
    deal_slots: Callable[..., Any] | None = None
    """``(rules, dealer) -> (positions, {place: positions}, loose)``: where each position of
    the deal order goes (a place is a seat, -1 the opening table, -2 the turned card; a loose
    place's positions hold more than its cards: a robber's); the layout's ``deal_slots``.
    :mod:`cardsim.deals` draws rare conditions from it with ``deal_cards``."""
    partnerships: Callable[[Any], bool] = lambda rules: False
    """``(rules) -> bool``: whether seats play in two partnerships (seat ``s`` with ``s + 2``),
    so that a strength check pits one partnership against another."""
    encoding: ModuleType | None = None
    """The game's ``encoding`` module, the learned evaluation's input (:mod:`cardsim.solvers.evaluation`):
    ``encode(state, params, player, idx, val) -> n`` (compiled; ``G.encode`` in generic code),
    ``N_INPUTS``, ``MAX_ACTIVE``, ``N_SEATS``, ``VERSION``; None for a game without one."""
    world_start: Callable | None = None
    """The compiled ``(world, params, observer, start, actions, n_actions, out, rng) -> bool``:
    the start of the deal a sampled world grew from, given the deal's true start and moves,
    reading only what ``observer`` saw of them (what the world leaves open, e.g. which cards a
    player drew, is drawn from ``rng``); with ``world_action``, ``(world, state, params,
    observer, action) -> action``, each move as made in the world (a face-down card the
    world's): what :mod:`cardsim.solvers.inference` replays (``G.world_start``, ``G.world_action``).
    Both from the game's ``worlds`` module; None for a game without them."""
    world_action: Callable | None = None
    world_start_draws: int = 1
    """How many starts inference draws for a world (its ``worlds`` module's
    ``WORLD_START_DRAWS``, else 1): more where ``world_start`` draws what the world leaves
    open, to average that out."""
    analysis_infers: bool = False
    """Whether analysis (``cardsim analyze``, ``review``, ``play --hint``) draws its worlds by
    inference by default (its worlds module's ``ANALYSIS_INFERS``, else False): where that
    measured better calibrated than uniform worlds (README, "How far to trust the figures")."""
    world_moves_whole: bool = True
    """Whether ``world_action`` gives each move whole as the world made it (its module's
    ``WORLD_MOVES_WHOLE``, else True): False where the world cannot tell the order of hidden
    moves (inference then reads them as their player saw them)."""
    deal_setup: Callable[..., None] | None = None
    """``(vec, rules, **setup)``: what ``Game.new_deal(seed, **setup)`` may set besides the
    cards (Mushka: ``records``); None when a deal takes nothing but its seed."""
    deal_conditions: DealConditions = DealConditions()
    """What a deal condition may name (:class:`DealConditions`)."""
    observation_planes: tuple = ()
    """The card planes of the game's observation tensors (:mod:`cardsim.interop.openspiel`): ``(name,
    planes(observation, n_players))`` pairs, each giving a list of card-name lists (one plane
    each) from ``State.observation``'s dict; the game's notation's ``OBSERVATION_PLANES``."""
    return_bounds: Callable[[Any, int], tuple[float, float]] | None = None
    """``(rules, n_players) -> (low, high)``: bounds on a deal's return for any seat (OpenSpiel's
    utility bounds); None when unknown."""
    levels: dict = field(default_factory=dict)
    """The agent spec string of each named level (``strong``, ``best``, ``fast``, …) where the
    game's measured best differs from the default levels (:data:`cardsim.solvers.agent_spec.LEVELS`)."""
    bench_where: dict = field(default_factory=dict)
    """A deal condition rare enough that rejection cannot draw it in reasonable time (1 deal in
    7,000 or rarer): what ``cardsim bench``'s ``simulate-where`` constructs."""
    match_rules: dict = field(default_factory=dict)
    """Options under which the game has a match of several deals where its default rules have
    none (Bura's default is a single deal): what ``cardsim bench`` starts a match under."""

    @classmethod
    def of_package(cls, package: str, reference: str, **given: Any) -> GameDefinition:
        """The definition of the game package named ``package`` (its ``__name__``), its common
        fields read from the file roles every game package has: the game's name is the
        package's last part, the codec its ``notation``, the kernels those of its ``kernels``
        and ``worlds`` with ``heuristic.choose``, the layout its ``layout`` (the deck the
        layout's ``DECK``, ``max_actions`` its ``MAX_ACTIONS`` unless given), the conformance
        adapter its ``conformance`` and the reference engine the class ``reference`` of its
        ``reference``; ``given`` holds the other fields."""
        def role(name: str) -> ModuleType:
            return importlib.import_module(f"{package}.{name}")

        layout = role("layout")
        given.setdefault("deck", layout.DECK)
        given.setdefault("max_actions", lambda rules: layout.MAX_ACTIONS)
        given.setdefault("deal_slots", getattr(layout, "deal_slots", None))
        if importlib.util.find_spec(f"{package}.encoding") is not None:
            given.setdefault("encoding", role("encoding"))
        for hook in ("world_start", "world_action"):
            given.setdefault(hook, getattr(role("worlds"), hook, None))
        given.setdefault("world_start_draws", getattr(role("worlds"), "WORLD_START_DRAWS", 1))
        given.setdefault("world_moves_whole", getattr(role("worlds"), "WORLD_MOVES_WHOLE", True))
        given.setdefault("analysis_infers", getattr(role("worlds"), "ANALYSIS_INFERS", False))
        given.setdefault("standing", getattr(role("match"), "standing", None)
                         if importlib.util.find_spec(f"{package}.match") else None)
        given.setdefault("observation_planes", getattr(role("notation"), "OBSERVATION_PLANES",
                                                       ()))
        return cls(name=package.rpartition(".")[2], codec=role("notation"), layout=layout,
                   kernels=Kernels.of(role("kernels"), role("worlds"),
                                      heuristic=role("heuristic").choose),
                   conformance=f"{package}.conformance",
                   reference=f"{package}.reference:{reference}", **given)

    def exact_refusal(self, rules: Any) -> str | None:
        """Why the exact solver cannot solve this game under ``rules``, or None when it can."""
        if self.exact is None:
            return self.no_exact or f"the exact solver has no hooks for {self.name}"
        return self.exact.refuses(rules)

    def spec(self, rules: Any) -> "GameSpec":
        """The :class:`GameSpec` of this game under ``rules``."""
        layout = self.layout
        return GameSpec(
            name=self.name, definition=self, n_players=self.n_players(rules),
            n_cards=layout.N_CARDS, n_words=layout.N_WORDS, state_len=layout.STATE_LEN,
            max_actions=self.max_actions(rules), params=rules.kernel_params(),
            kernels=self.kernels, row_columns=self.row_columns,
            dealer_word=getattr(layout, "DEALER", -1), reward_scale=self.reward_scale,
            max_deal_moves=layout.MAX_DEAL_MOVES, no_exact=self.exact_refusal(rules) or "",
            exact=None if self.exact_refusal(rules) else self.exact)


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything a solver may know about a game under one set of rules: names, sizes, packed
    rules and kernels (module docstring)."""

    name: str
    definition: GameDefinition
    n_players: int
    n_cards: int
    n_words: int
    state_len: int
    max_actions: int
    params: np.ndarray
    kernels: Kernels
    row_columns: tuple[str, ...]
    dealer_word: int = -1
    """The state word holding the dealer's seat (-1: the game has no dealer)."""
    reward_scale: float = 1.0
    """A typical size of a deal's returns (:attr:`GameDefinition.reward_scale`)."""
    max_deal_moves: int = 0
    """The most moves one deal can take (the exact solver's stack depth)."""
    exact: ExactHooks | None = None
    """The exact solver's hooks when it covers the game under these rules, else None."""
    no_exact: str = ""
    """Why the exact solver does not cover the game under these rules ("" when it does)."""

    # The kernels, callable from Python (module docstring).
    new_deal = property(lambda self: _started(self.kernels.start, DEAL))
    new_match = property(lambda self: _started(self.kernels.start, MATCH))
    legal_actions = property(lambda self: self.kernels.legal_actions)
    apply_action = property(lambda self: self.kernels.apply_action)
    is_terminal = property(lambda self: self.kernels.is_terminal)
    current_player = property(lambda self: self.kernels.current_player)
    returns = property(lambda self: self.kernels.returns)
    determinize = property(lambda self: self.kernels.determinize)
    observed_action = property(lambda self: self.kernels.observed_action)
    heuristic = property(lambda self: self.kernels.heuristic)
    play_random_deals = property(lambda self: self.kernels.play_random_deals)
    deal_cards = property(lambda self: self.kernels.deal_cards)
