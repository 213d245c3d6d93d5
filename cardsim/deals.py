"""Deals conditioned on the initial cards: ``game.new_deal(seed, where=...)``.

A condition (``where``) is a dict of any of these keys, all of which must hold:

``hold``     ``{seat: [cards]}``: these cards are in that seat's first hand.
``table``    ``[cards]``: these cards are on Scopa's opening table.
``turned``   a card: Bura's or Mushka's turned trump card.
``count``    a list of ``{"seat": s, "cards": set, "min": a, "max": b}``: how many cards of
             ``set`` lie in seat ``s``'s first hand (``"seat": "table"``: on Scopa's opening
             table); ``set`` is a list of cards or a named set of the game (:data:`NAMED_SETS`:
             Scopa ``coins``, ``sevens``, ``kings``; Bura ``trumps``, ``tens``, ``aces``; Mushka
             ``trumps``, ``aces``, ``ace_of_spades``; Minchiate ``trumps`` (T1..T40), ``kings``);
             ``min`` defaults to 0 and ``max`` to the whole set. Bura's and Mushka's trumps are
             the suit of the deal's turned card.

A seat's *first hand* is its hand in the state ``new_deal`` returns: after the deal and its
automatic steps (Minchiate: the cutter's and the dealer's robbing; Scopa: the redeal of an
opening table of kings, SC-DEAL-3; Bura: the redeal of a combination, BU-DEAL-5), before any
decision.

Method: rejection. Try ``k`` deals the seed's deal when ``k == 0``, else the deal of the
sub-seed ``k`` of the seed (:func:`sub_seed`), each dealt by the game's own kernel, so that
every deal-time rule of the game holds; the first try that satisfies the condition is the
deal. The tries are independent draws of the game's deals, so the deal is uniform among the
deals the *game* produces that satisfy the condition, and the same seed gives the same deal.
When 1,000 tries fail, a fixed trial of :data:`TRIAL` deals estimates the acceptance rate
(once per game, rules and condition in a process); a rate of 0 is refused in one line
(:class:`DealError`, with the estimate), else the search goes on up to ``50 / rate`` tries (a
failure chance of about ``e**-50``). Nothing is constructed: a condition rarer than about
1 in :data:`TRIAL` is refused rather than drawn from a constructed deal, as a construction
would have to redo each game's redeal rules to stay uniform among the game's deals.

Impossible conditions are refused before any deal (:func:`parse_where`): unknown cards, seats
or sets, a card required in two places, more cards than a hand holds or a set has, ``min``
above ``max``, a bura in Bura's first hand while ``initial_combo_redeal`` is on, three kings on Scopa's
opening table while ``redeal_kings_on_table`` is on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from .cards import SCOPA, Deck
from .errors import CardError, CardsimError
from .rng import rng_from_seed

__all__ = ["DealError", "NAMED_SETS", "Where", "deal_where", "parse_where", "sub_seed"]

FIRST_TRIES = 1_000
"""Tries before the acceptance rate is estimated."""
TRIAL = 20_000
"""Deals of the trial that estimates a condition's acceptance rate."""
TRIAL_SEED = 0x6465616C
"""The trial's seed (fixed: the estimate, hence the bound on tries, depends on no user seed)."""
SUB_SEED_KEY = 0x77686572
"""The spawn-key element that marks the sub-seeds of a seed."""
MARGIN = 50.0
"""Tries allowed beyond the first ones: ``MARGIN / rate``."""


class DealError(CardsimError):
    """A deal condition that is malformed, impossible, or too rare to draw."""


def _suit_set(deck: Deck, suit: str) -> int:
    return deck.mask([c for c in deck.cards if c.endswith(suit)])


def _rank_set(deck: Deck, rank: str) -> int:
    return deck.mask([c for c in deck.cards if c[:-2 if deck.game in ("scopa", "minchiate")
                                                   else -1] == rank])


def _turned_suit(deck: Deck) -> Callable[[int], int]:
    """The mask of the turned card's suit (Bura's and Mushka's trumps), given that card."""
    by_suit = {s: _suit_set(deck, s) for s in "scdh"}
    return lambda turned: by_suit[deck.name(turned)[-1]]


def _named_sets() -> dict[str, dict[str, int | Callable[[int], int]]]:
    from .cards import BURA, MINCHIATE, MUSHKA
    return {
        "scopa": {"coins": _suit_set(SCOPA, "co"), "sevens": _rank_set(SCOPA, "7"),
                  "kings": _rank_set(SCOPA, "K")},
        "bura": {"trumps": _turned_suit(BURA), "tens": _rank_set(BURA, "T"),
                 "aces": _rank_set(BURA, "A")},
        "mushka": {"trumps": _turned_suit(MUSHKA), "aces": _rank_set(MUSHKA, "A"),
                   "ace_of_spades": MUSHKA.mask(["As"])},
        "minchiate": {"trumps": MINCHIATE.mask([f"T{n}" for n in range(1, 41)]),
                      "kings": _rank_set(MINCHIATE, "K")},
    }


NAMED_SETS = _named_sets()
"""Per game, the named card sets of ``count``: a mask, or a function of the turned card."""
_SUIT_SIZE = {"bura": 9, "mushka": 13}
_HAS_TABLE = {"scopa"}
_HAS_TURNED = {"bura", "mushka"}


@dataclass(frozen=True)
class Count:
    """``min <= |place & cards| <= max``; ``place`` a seat or -1 (the table); ``cards`` a
    mask or a function of the turned card."""

    place: int
    cards: Any
    low: int
    high: int


@dataclass(frozen=True)
class Where:
    """A parsed, checked condition (module docstring); ``canonical`` is its JSON-ready form."""

    hold: tuple[tuple[int, int], ...]       # (seat, mask)
    table: int
    turned: int                             # card index, -1 none
    counts: tuple[Count, ...]
    canonical: Mapping[str, Any]

    def accepts(self, game, vec: np.ndarray) -> bool:
        """True when the dealt state vector ``vec`` satisfies the condition."""
        layout, deck = game.definition.layout, game.definition.deck
        turned = int(vec[layout.TRUMP_CARD]) if game.name in _HAS_TURNED else -1
        if self.turned >= 0 and turned != self.turned:
            return False
        places: dict[int, int] = {}

        def place(p: int) -> int:
            if p not in places:
                places[p] = (int(vec[layout.TABLE]) if p < 0 else deck.from_words(
                    vec[layout.HAND + deck.n_words * p:layout.HAND + deck.n_words * (p + 1)]))
            return places[p]

        for seat, mask in self.hold:
            if place(seat) & mask != mask:
                return False
        if self.table and place(-1) & self.table != self.table:
            return False
        for c in self.counts:
            cards = c.cards(turned) if callable(c.cards) else c.cards
            if not c.low <= (place(c.place) & cards).bit_count() <= c.high:
                return False
        return True


def sub_seed(seed: Any, k: int) -> Any:
    """The seed of try ``k``: the seed itself for 0, else a child of its SeedSequence."""
    if k == 0:
        return seed
    base = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))
    return np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, SUB_SEED_KEY, k))


def _cards(deck: Deck, value: Any, key: str) -> int:
    try:
        return deck.mask(value)
    except CardError as e:
        raise DealError(f"where.{key}: {e}") from None


def _int(value: Any, key: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise DealError(f"where.{key}={value!r}: expected a whole number")
    return int(value)


_SIZES: dict[tuple, tuple[int, int]] = {}


def _sizes(game) -> tuple[int, int]:
    """(largest first hand, opening-table size) of the game's deals (from one deal)."""
    key = (game.name, repr(game.rules))
    if key not in _SIZES:
        _SIZES[key] = _dealt_sizes(game)
    return _SIZES[key]


def _dealt_sizes(game) -> tuple[int, int]:
    vec = np.zeros(game.spec.state_len, dtype=np.uint64)
    game.spec.new_deal(game.spec.params, rng_from_seed(0), vec)
    layout, deck = game.definition.layout, game.definition.deck
    hand = max(deck.from_words(vec[layout.HAND + deck.n_words * s:
                                   layout.HAND + deck.n_words * (s + 1)]).bit_count()
               for s in range(game.num_players))
    table = int(vec[layout.TABLE]).bit_count() if game.name in _HAS_TABLE else 0
    return hand, table


_KEYS = ("hold", "table", "turned", "count")
_COUNT_KEYS = {"seat", "cards", "min", "max"}


def parse_where(game, where: Mapping[str, Any]) -> Where:
    """Check a condition against ``game`` and parse it; :class:`DealError` (one line) when it
    is malformed or impossible."""
    if not isinstance(where, Mapping):
        raise DealError(f"where={where!r}: expected a dict with some of {', '.join(_KEYS)}")
    unknown = sorted(map(str, set(where) - set(_KEYS)))
    if unknown:
        raise DealError(f"unknown where key {unknown[0]!r}: expected some of {', '.join(_KEYS)}")
    deck, n = game.definition.deck, game.num_players
    hand_size, table_size = _sizes(game)
    used: dict[int, str] = {}                 # card index -> where the condition puts it

    def put(mask: int, place: str) -> None:
        for i in range(deck.size):
            if mask >> i & 1:
                if i in used and used[i] != place:
                    raise DealError(f"impossible condition: {deck.name(i)} is asked in "
                                    f"{used[i]} and in {place}")
                used[i] = place

    def seat_of(value: Any, key: str, table_ok: bool = False) -> int:
        if table_ok and value == "table":
            if game.name not in _HAS_TABLE:
                raise DealError(f"where.{key}: {game.name} has no opening table")
            return -1
        seat = _int(value, key)
        if not 0 <= seat < n:
            raise DealError(f"where.{key}={value!r}: no such seat, expected 0..{n - 1}"
                            + (" or 'table'" if table_ok and game.name in _HAS_TABLE else ""))
        return seat

    held: dict[int, int] = {}
    canonical: dict[str, Any] = {}
    given_hold = where.get("hold", {})
    if not isinstance(given_hold, Mapping):
        raise DealError(f"where.hold={given_hold!r}: expected {{seat: [cards]}}")
    for key, names in given_hold.items():
        seat = seat_of(key, f"hold.{key}")
        mask = _cards(deck, names, f"hold.{seat}") | held.get(seat, 0)   # 0 and "0" merge
        if mask.bit_count() > hand_size:
            raise DealError(f"impossible condition: where.hold.{seat} asks {mask.bit_count()} "
                            f"cards, a first hand holds {hand_size}")
        put(mask, f"seat {seat}'s hand")
        held[seat] = mask
        canonical.setdefault("hold", {})[str(seat)] = deck.names(mask)
    table = 0
    if "table" in where:
        if game.name not in _HAS_TABLE:
            raise DealError(f"where.table: {game.name} has no opening table")
        table = _cards(deck, where["table"], "table")
        if table.bit_count() > table_size:
            raise DealError(f"impossible condition: where.table asks {table.bit_count()} "
                            f"cards, the opening table holds {table_size}")
        if (table & _KINGS).bit_count() >= 3 and game.rules.redeal_kings_on_table == "three_or_more":
            _kings_refused("where.table")
        put(table, "the table")
        canonical["table"] = deck.names(table)
    turned = -1
    if "turned" in where:
        if game.name not in _HAS_TURNED:
            raise DealError(f"where.turned: {game.name} turns no trump card")
        try:
            turned = deck.index(where["turned"])
        except CardError as e:
            raise DealError(f"where.turned: {e}") from None
        put(1 << turned, "the turned card")
        canonical["turned"] = deck.name(turned)
    counts = _parse_counts(game, where.get("count", []), seat_of, hand_size, table_size)
    if counts:
        canonical["count"] = [c[1] for c in counts]
    return Where(tuple(sorted(held.items())), table, turned, tuple(c[0] for c in counts), canonical)


def _parse_counts(game, given: Any, seat_of, hand_size: int, table_size: int) -> list:
    deck, sets = game.definition.deck, NAMED_SETS[game.name]
    if not isinstance(given, list):
        raise DealError(f"where.count={given!r}: expected a list of "
                        "{seat, cards, min, max} tables")
    out = []
    for k, c in enumerate(given):
        key = f"count[{k}]"
        if not isinstance(c, Mapping) or "cards" not in c or "seat" not in c:
            raise DealError(f"where.{key}={c!r}: expected a table with seat, cards, min, max")
        unknown = sorted(map(str, set(c) - _COUNT_KEYS))
        if unknown:
            raise DealError(f"unknown key where.{key}.{unknown[0]}: expected some of "
                            + ", ".join(sorted(_COUNT_KEYS)))
        place = seat_of(c["seat"], f"{key}.seat", table_ok=True)
        if isinstance(c["cards"], str) and c["cards"] in sets:
            cards, named = sets[c["cards"]], c["cards"]
            size = _SUIT_SIZE[game.name] if callable(cards) else cards.bit_count()
        elif isinstance(c["cards"], str) and " " not in c["cards"] and c["cards"] not in \
                deck.cards:
            raise DealError(f"where.{key}.cards={c['cards']!r}: no such {game.name} set: "
                            f"expected one of {', '.join(sets)} or a list of cards")
        else:
            cards = _cards(deck, c["cards"], f"{key}.cards")
            named, size = deck.names(cards), cards.bit_count()
        room = table_size if place < 0 else hand_size
        low = _int(c.get("min", 0), f"{key}.min")
        high = _int(c.get("max", size), f"{key}.max")
        if low > high or high < 0:
            raise DealError(f"impossible condition: where.{key} has min={low} > max={high}")
        if low > min(size, room):
            raise DealError(f"impossible condition: where.{key} asks at least {low} of "
                            f"{size} cards {'on a table of' if place < 0 else 'in a hand of'} "
                            f"{room}")
        if game.name == "bura" and named == "trumps" and low >= 3 and place >= 0 \
                and game.rules.initial_combo_redeal:
            raise DealError(f"impossible condition: where.{key}: three trumps (a bura) in a first "
                            "hand are redealt (BU-DEAL-5); set initial_combo_redeal=false")
        if game.name == "scopa" and place < 0 and low >= 3 and not cards & ~_KINGS \
                and game.rules.redeal_kings_on_table == "three_or_more":
            _kings_refused(f"where.{key}")
        out.append((Count(place, cards, max(low, 0), high),
                    {"seat": "table" if place < 0 else place, "cards": named, "min": low,
                     "max": high}))
    return out


_KINGS = NAMED_SETS["scopa"]["kings"]


def _kings_refused(key: str) -> None:
    raise DealError(f"impossible condition: {key}: an opening table with three or four kings "
                    "is redealt (SC-DEAL-3); set redeal_kings_on_table=off")


_RATES: dict[tuple, float] = {}


def _rate(game, where: Where) -> float:
    """The acceptance rate of ``where`` over :data:`TRIAL` deals from :data:`TRIAL_SEED`."""
    key = (game.name, repr(game.rules), repr(where.canonical))
    if key not in _RATES:
        vec = np.zeros(game.spec.state_len, dtype=np.uint64)
        rng = rng_from_seed(TRIAL_SEED)
        hits = 0
        for _ in range(TRIAL):
            game.spec.new_deal(game.spec.params, rng, vec)
            hits += where.accepts(game, vec)
        _RATES[key] = hits / TRIAL
    return _RATES[key]


def deal_where(game, seed: Any, where: Mapping[str, Any] | Where) -> np.ndarray:
    """The state vector of the deal of ``seed`` under ``where`` (module docstring)."""
    if not isinstance(where, Where):
        where = parse_where(game, where)
    rng_from_seed(seed)                               # a bad seed: its own error first
    vec = np.zeros(game.spec.state_len, dtype=np.uint64)
    limit = FIRST_TRIES
    k = 0
    while True:
        while k < limit:
            game.spec.new_deal(game.spec.params, rng_from_seed(sub_seed(seed, k)), vec)
            if where.accepts(game, vec):
                return vec
            k += 1
        if limit > FIRST_TRIES:
            break
        rate = _rate(game, where)
        if rate == 0:
            raise DealError(f"deal condition too rare to draw: 0 of {TRIAL:,} trial deals "
                            f"satisfy {dict(where.canonical)} (estimated acceptance below "
                            f"{3 / TRIAL:.1e}), or it is impossible")
        limit = FIRST_TRIES + math.ceil(MARGIN / rate)
    raise DealError(f"no deal satisfies {dict(where.canonical)} in {k:,} tries (estimated "
                    f"acceptance {rate:.2e})")
