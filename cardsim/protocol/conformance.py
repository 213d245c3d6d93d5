"""The conformance suite's per-game adapters: the protocol, the generic defaults, the loader.

The conformance suite (``tests/conformance/test_every_game.py``) runs for each name in
``cardsim.list_games()`` and uses only the generic API (the methods of ``Game`` and
``State``, the position dict, the deck of the game's definition). What it must know about
one game sits in that game's adapter module, named by its definition's ``conformance`` field
(:class:`cardsim.protocol.spec.GameDefinition`), e.g. ``cardsim.games.bura.conformance``. A game whose
definition names none is tested with its default rules and the generic zones (``hands``,
``table``, ``stock``, ``piles``; hidden = the other hands and the stock). :func:`adapter`
reads the module and fills in every name it leaves out with the default below.

The module-level names of an adapter (constants upper-case, functions lower-case; the
attribute of :class:`Adapter` is the lower-case name):

======================  ===================================================================
``OPTIONS``             the option sets to try, a list of dicts (default ``[{}]``)
``deal_return_bound``   ``(rules) -> b``: a deal's return of a seat lies in -b..b, or
                        ``(lowest, highest)`` (default: the number of cards of the deck)
``match_return_bound``  ``(rules) -> b``: the same for a match (same default)
``cards``               ``(d) -> [card]``: where the cards of a position dict are, each card
                        once when the dict is consistent (default :func:`zone_cards`)
``hidden``              ``(d, player) -> [(card, place)]``: which cards are hidden from
                        ``player`` and where they lie (default :func:`hands_and_stock_hidden`)
``world_ok``            ``(d) -> bool``: is this world possible at all (default: always)
``world_weight``        ``(d, player) -> int``: the posterior weight of a world for
                        ``player`` (default: 1 if ``world_ok``, else 0)
``public``              ``(d, player) -> d``: ``d`` without the facts besides hidden cards'
                        identities that ``player`` cannot know (default: ``d`` itself)
``public_facts``        ``(d, player) -> value``: public facts of a world that one dict
                        cannot check against the truth (default: None)
``FIXED_KEYS``          dict keys whose cards are public inferences, not places (default
                        ``()``)
``LOOSE_ZONE``          the card list the broken-dict test takes a card from (default
                        ``"stock"``)
``rederive``            ``(d) -> d``: recompute what follows from the cards' places after
                        hidden cards were moved (default: ``d`` itself)
``deck``                ``(rules) -> [card]``: the cards in play under the rules (default:
                        the definition's whole deck)
``DEAL_ZERO_SUM``       a deal's returns add up to 0 (default True)
``choose``              ``(state, legal, rnd) -> action``: how a random player chooses, with
                        ``rnd`` a ``random.Random`` (default :func:`uniform_choice`)
======================  ===================================================================

A hidden card's *place* is a string: ``"hand q"``, ``"stock i"`` (one slot per stock
position: the stock's order is hidden too) or, in Bura, ``"down q pile x trick j"`` / ``"down q
trick"`` (a card thrown face down by seat q in trick j, lying in x's pile, or in the current
trick; without a history ``"down q pile x"``). Cards in the same place are interchangeable; a
sampled world must put the same number of hidden cards in every place. A game may weigh its
possible worlds (``world_weight``: Bura counts the orders in which the other players can have
received their cards), hide facts besides card identities (``public``: Bura hides when the
others received their cards) and name public facts a world must share with the truth that one
dict cannot check (``public_facts``: Minchiate's Fola suit counts).

Some games need more than that (Mushka): ``deck`` (the cards in play under the rules, when
the rules choose a smaller deck than the definition's), returns bounded by a pair (lowest, highest) and
``DEAL_ZERO_SUM`` False (a deal's returns need not add up to 0), ``FIXED_KEYS`` (dict keys
whose cards are public inferences, not places: left alone when hidden cards are moved) and
``rederive`` (what follows from the cards' places, recomputed after they are moved: the ace
holder). In Mushka a place is also ``"discard q"`` (seat q's face-down discards). Minchiate
has no stock: its hidden places are ``"hand q"``, ``"discard q"`` and ``"fola"`` (the Fola's
own part while it is closed), and ``LOOSE_ZONE`` names the card list the broken-dict test
takes a card from (default ``stock``).

An adapter imports only from cardsim (never from the tests), so that adding a game touches
only its own package and one line of :mod:`cardsim.protocol.registry`.
"""
from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

# --- the generic zones (Scopa, and any game without an adapter module) --------------------------

CARD_ZONES = ("hands", "table", "stock", "piles")


def _flatten(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)):
        return [c for item in x for c in _flatten(item)]
    raise AssertionError(f"unexpected value {x!r} in a card zone")


def zone_cards(d: dict) -> list[str]:
    """Every card name in the generic card zones of a position dict (with repetitions)."""
    return [c for key in CARD_ZONES if key in d for c in _flatten(d[key])]


def hands_and_stock_hidden(d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place): the other hands and the stock (in order) are hidden."""
    return ([(c, f"hand {p}") for p, h in enumerate(d["hands"]) if p != player for c in h]
            + [(c, f"stock {i}") for i, c in enumerate(d.get("stock", []))])


def uniform_choice(state, legal: list[int], rnd: random.Random) -> int:
    return rnd.choice(legal)


# --- the loader ---------------------------------------------------------------------------------

NAMES = {
    "options": "OPTIONS", "deal_return_bound": "deal_return_bound",
    "match_return_bound": "match_return_bound", "cards": "cards", "hidden": "hidden",
    "world_ok": "world_ok", "world_weight": "world_weight", "public": "public",
    "public_facts": "public_facts", "fixed_keys": "FIXED_KEYS", "loose_zone": "LOOSE_ZONE",
    "rederive": "rederive", "deck": "deck", "deal_zero_sum": "DEAL_ZERO_SUM", "choose": "choose",
}
"""Attribute of :class:`Adapter` -> its name in an adapter module."""


@dataclass(frozen=True)
class Adapter:
    """One game's adapter with every attribute filled (module docstring for their meaning)."""
    name: str
    module: str
    """The adapter module's path ("" when the definition names none)."""
    defined: frozenset
    """The attributes the module itself defines (the others are defaults)."""
    options: list
    deal_return_bound: Callable[[Any], Any]
    match_return_bound: Callable[[Any], Any]
    cards: Callable[[dict], list]
    hidden: Callable[[dict, int], list]
    world_ok: Callable[[dict], bool]
    world_weight: Callable[[dict, int], int]
    public: Callable[[dict, int], dict]
    public_facts: Callable[[dict, int], Any]
    fixed_keys: tuple
    loose_zone: str
    rederive: Callable[[dict], dict]
    deck: Callable[[Any], list]
    deal_zero_sum: bool
    choose: Callable[[Any, list, random.Random], int]


@lru_cache(maxsize=None)
def adapter(name: str) -> Adapter:
    """The conformance adapter of the registered game ``name``: its definition's ``conformance``
    module (defaults for every name it leaves out, and for all when the definition names none)."""
    from .registry import definition
    found = definition(name)
    deck = found.deck
    path = found.conformance
    module = importlib.import_module(path) if path else None
    given = {attr: getattr(module, key) for attr, key in NAMES.items()
             if module is not None and hasattr(module, key)}
    world_ok = given.get("world_ok", lambda d: True)
    defaults = {
        "options": [{}],
        "deal_return_bound": lambda rules: len(deck.cards),
        "match_return_bound": lambda rules: len(deck.cards),
        "cards": zone_cards,
        "hidden": hands_and_stock_hidden,
        "world_ok": world_ok,
        "world_weight": lambda d, player: int(world_ok(d)),
        "public": lambda d, player: d,
        "public_facts": lambda d, player: None,
        "fixed_keys": (),
        "loose_zone": "stock",
        "rederive": lambda d: d,
        "deck": lambda rules: list(deck.cards),
        "deal_zero_sum": True,
        "choose": uniform_choice,
    }
    return Adapter(name=name, module=path, defined=frozenset(given),
                   **{**defaults, **given})
