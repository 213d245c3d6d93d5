"""Deals conditioned on the initial cards: ``game.new_deal(seed, where=...)``.

A condition (``where``) is a dict of any of these keys, all of which must hold:

``hold``     ``{seat: [cards]}``: these cards are in that seat's first hand.
``table``    ``[cards]``: these cards are on Scopa's opening table.
``turned``   a card: Bura's or Mushka's turned trump card.
``count``    a list of ``{"seat": s, "cards": set, "min": a, "max": b}``: how many cards of
             ``set`` lie in seat ``s``'s first hand (``"seat": "table"``: on Scopa's opening
             table); ``set`` is a list of cards or a named set of the game (:func:`named_sets`:
             Scopa ``coins``, ``sevens``, ``kings``; Bura ``trumps``, ``tens``, ``aces``; Mushka
             ``trumps``, ``aces``, ``ace_of_spades``; Minchiate ``trumps`` (T1..T40), ``kings``);
             ``min`` defaults to 0 and ``max`` to the whole set. Bura's and Mushka's trumps are
             the suit of the deal's turned card.

A seat's *first hand* is its hand in the state ``new_deal`` returns: after the deal and its
automatic steps (Minchiate: the cutter's and the dealer's robbing; Scopa: the redeal of an
opening table of kings, SC-DEAL-3; Bura: the redeal of a combination, BU-DEAL-5), before any
decision.

Method. First rejection: try ``k`` deals the seed's deal when ``k == 0``, else the deal of
the sub-seed ``k`` of the seed (:func:`sub_seed`), each dealt by the game's own kernel, so that
every deal-time rule of the game holds; the first of :data:`FIRST_TRIES` tries that satisfies
the condition is the deal. The tries are independent draws of the game's deals, so the deal is
uniform among the deals the *game* produces that satisfy the condition, and the same seed
gives the same deal.

When those tries fail, or at once when the constructed event below has a chance under
``1 / FIRST_TRIES`` (a rare condition), the deal is *constructed*: each further try deals
the sub-seed's deal (its dealer and chance stream), then replaces its shuffled order by one
drawn uniformly among the orders that put the ``hold``, ``table`` and ``turned`` cards in
their places' positions (the game's ``deal_slots``) and, for one ``count`` (the rarest), put
a number of its cards in its place drawn from the exact (hypergeometric) distribution under
those placements; Bura's and Mushka's trumps first draw the turned card, weighed by the
count's chance under each. The game's ``deal_cards`` deals that order; the try is kept when
the game does not void it (a redeal) and the whole condition holds, which also checks the
other counts and the places a robber's choice makes loose (Minchiate: the cutter's and the
dealer's first hands). A constructed deal counts no redeal
(Scopa's and Bura's ``redeals`` column is 0). A try is also kept only with probability ``P_d / max P``, ``P_d`` the
chance of the constructed event under the try's dealer ``d``, so that dealers stay weighed as
the game weighs them. A mixture of uniform draws over the same set is uniform: the deal is
uniform among the game's deals satisfying the condition either way. A condition whose places
overlap under some dealer (Mushka's turned card in a dealer's hand, Minchiate's two robbers)
is not constructed but left to rejection.

Without a construction, a fixed trial of :data:`TRIAL` deals estimates the acceptance rate
(once per game, rules and condition in a process; with one, :data:`CONSTRUCT_TRIAL`
constructed tries); a rate of 0 is refused in one line (:class:`DealError`, with the
estimate), else the search goes on up to ``50 / rate`` tries (a failure chance of about
``e**-50``).

Impossible conditions are refused before any deal (:func:`parse_where`): unknown cards, seats
or sets, a card required in two places, more cards than a hand holds or a set has, ``min``
above ``max``, a bura in Bura's first hand while ``initial_combo_redeal`` is on, three kings on Scopa's
opening table while ``redeal_kings_on_table`` is on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .cards import Deck
from .compiled.rng import rng_from_seed
from .errors import CardError, CardsimError

__all__ = ["Construction", "DealError", "METHODS", "Where", "acceptance", "construction",
           "deal_where", "named_sets", "parse_where", "sub_seed"]

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
CONSTRUCT_TRIAL = 2_000
"""Constructed tries of the trial that estimates their acceptance rate."""
CONSTRUCT_KEY = 0x636F6E73
"""The spawn-key element of a constructed try's draws."""
TABLE_PLACE, TURNED_PLACE = -1, -2
"""The places of ``deal_slots`` besides the seats."""


class DealError(CardsimError):
    """A deal condition that is malformed, impossible, or too rare to draw."""


def named_sets(game) -> dict:
    """The named card sets of ``count`` in ``game``: a mask, or a function of the turned card
    (its :class:`~cardsim.protocol.spec.DealConditions`)."""
    return game.definition.deal_conditions.sets


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
        turned = (int(vec[layout.TRUMP_CARD]) if game.definition.deal_conditions.turned
                  else -1)
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
    base = _sequence(seed)
    return np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, SUB_SEED_KEY, k))


def _sequence(seed: Any) -> np.random.SeedSequence:
    return seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(int(seed))


def _key(game, where: Where) -> tuple:
    """The key of the per-process caches of a condition under a game's rules."""
    return game.name, repr(game.rules), repr(where.canonical)


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


_SIZES: dict[tuple, tuple[int, int, int]] = {}


def _sizes(game) -> tuple[int, int, int]:
    """(largest first hand, opening-table size, mask of the cards in play) of the game's deals
    (from one deal)."""
    key = (game.name, repr(game.rules))
    if key not in _SIZES:
        _SIZES[key] = _dealt_sizes(game)
    return _SIZES[key]


def _dealt_sizes(game) -> tuple[int, int, int]:
    vec = np.zeros(game.spec.state_len, dtype=np.uint64)
    game.spec.new_deal(game.spec.params, rng_from_seed(0), vec)
    layout, deck = game.definition.layout, game.definition.deck
    hand = max(deck.from_words(vec[layout.HAND + deck.n_words * s:
                                   layout.HAND + deck.n_words * (s + 1)]).bit_count()
               for s in range(game.num_players))
    table = int(vec[layout.TABLE]).bit_count() if game.definition.deal_conditions.table else 0
    positions = game.definition.deal_slots(game.rules, 0)[0]
    order = vec[layout.ORDER:layout.ORDER + layout.ORDER_WORDS].view(np.uint8)[:positions]
    return hand, table, sum(1 << int(c) for c in set(order.tolist()))


_KEYS = ("hold", "table", "turned", "count")
_COUNT_KEYS = {"seat", "cards", "min", "max"}


def parse_where(game, where: Mapping[str, Any] | Where) -> Where:
    """Check a condition against ``game`` and parse it; :class:`DealError` (one line) when it
    is malformed or impossible. A parsed one is returned as it is."""
    if isinstance(where, Where):
        return where
    if not isinstance(where, Mapping):
        raise DealError(f"where={where!r}: expected a dict with some of {', '.join(_KEYS)}")
    unknown = sorted(map(str, set(where) - set(_KEYS)))
    if unknown:
        raise DealError(f"unknown where key {unknown[0]!r}: expected some of {', '.join(_KEYS)}")
    deck, n = game.definition.deck, game.num_players
    conditions = game.definition.deal_conditions
    hand_size, table_size, in_play = _sizes(game)
    used: dict[int, str] = {}                 # card index -> where the condition puts it

    def put(mask: int, place: str) -> None:
        if mask & ~in_play:
            raise DealError(f"impossible condition: {deck.names(mask & ~in_play)[0]} is not "
                            f"in play under these rules")
        for i in range(deck.size):
            if mask >> i & 1:
                if i in used and used[i] != place:
                    raise DealError(f"impossible condition: {deck.name(i)} is asked in "
                                    f"{used[i]} and in {place}")
                used[i] = place

    def seat_of(value: Any, key: str, table_ok: bool = False) -> int:
        if table_ok and value == "table":
            if not conditions.table:
                raise DealError(f"where.{key}: {game.name} has no opening table")
            return -1
        seat = _int(value, key)
        if not 0 <= seat < n:
            raise DealError(f"where.{key}={value!r}: no such seat, expected 0..{n - 1}"
                            + (" or 'table'" if table_ok and conditions.table else ""))
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
        if not conditions.table:
            raise DealError(f"where.table: {game.name} has no opening table")
        table = _cards(deck, where["table"], "table")
        if table.bit_count() > table_size:
            raise DealError(f"impossible condition: where.table asks {table.bit_count()} "
                            f"cards, the opening table holds {table_size}")
        _refuse(game, "where.table", -1, table, table.bit_count())
        put(table, "the table")
        canonical["table"] = deck.names(table)
    turned = -1
    if "turned" in where:
        if not conditions.turned:
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
    deck, sets = game.definition.deck, named_sets(game)
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
            size = cards.size if callable(cards) else cards.bit_count()
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
        _refuse(game, f"where.{key}", place, cards, low)
        out.append((Count(place, cards, max(low, 0), high),
                    {"seat": "table" if place < 0 else place, "cards": named, "min": low,
                     "max": high}))
    return out


def _refuse(game, key: str, place: int, cards, low: int) -> None:
    """Refuse a condition the game's rules always redeal (its ``DealConditions.refuses``)."""
    reason = game.definition.deal_conditions.refuses(game.rules, place, cards, low)
    if reason:
        raise DealError(f"impossible condition: {key}: {reason}")


@dataclass(frozen=True)
class Draw:
    """How a constructed try draws the order of a deal with one dealer (module docstring)."""

    positions: int                          # positions of the deal order in play
    places: Mapping[int, tuple[int, ...]]   # place -> its positions
    loose: frozenset[int]                   # places whose positions hold more than their cards
    in_play: int                            # the mask of the cards the deal uses
    required: Mapping[int, tuple[int, ...]]  # place -> the cards asked there
    count: Count | None                     # the count drawn exactly, or None
    turned: tuple[tuple[int, float], ...]   # (card, weight) of a drawn turned card, or ()
    probability: float                      # the constructed event's chance under the dealer


def _window(free: int, marked: int, drawn: int, low: int, high: int) -> list[tuple[int, int]]:
    """``(k, ways)`` for ``low <= k <= high``: the ways ``drawn`` of ``free`` cards hold ``k``
    of the ``marked`` ones (the hypergeometric law's numerators)."""
    return [(k, math.comb(marked, k) * math.comb(free - marked, drawn - k))
            for k in range(max(low, 0), min(high, marked, drawn) + 1)]


def _draw(game, where: Where, dealer: int) -> Draw | None:
    """The construction of a try under ``dealer``; None when its places overlap."""
    positions, places, loose = game.definition.deal_slots(game.rules, dealer)
    required: dict[int, int] = dict(where.hold)
    if where.table:
        required[TABLE_PLACE] = where.table
    if where.turned >= 0:
        required[TURNED_PLACE] = 1 << where.turned
    all_required = sum(required.values())
    r = all_required.bit_count()
    free = positions - r
    in_play = _sizes(game)[2]
    if any(m.bit_count() > len(places[p]) for p, m in required.items()):
        return Draw(positions, places, loose, in_play, {}, None, (), 0.0)
    placed = math.prod(math.perm(len(places[p]), m.bit_count()) for p, m in required.items()) \
        / math.perm(positions, r)
    best: tuple[float, Count | None, tuple] = (1.0, None, ())
    for c in where.counts:
        slots = len(places[c.place]) - required.get(c.place, 0).bit_count()
        high = len(places[c.place]) if c.place in loose else c.high

        def chance(cards: int, free: int) -> float:
            shift = (required.get(c.place, 0) & cards).bit_count()
            ways = _window(free, (cards & in_play & ~all_required).bit_count(), slots,
                           c.low - shift, high - shift)
            return sum(w for _, w in ways) / math.comb(free, slots)

        if not callable(c.cards):
            p, turned = chance(c.cards, free), ()
        elif where.turned >= 0:
            p, turned = chance(c.cards(where.turned), free), ()
        else:
            cands = [t for t in range(game.definition.deck.size)
                     if in_play >> t & 1 and not all_required >> t & 1]
            turned = tuple((t, chance(c.cards(t) & ~(1 << t), free - 1)) for t in cands)
            p = sum(w for _, w in turned) / len(cands)
        if p < best[0]:
            best = (p, c, turned)
    probability, count, turned = best
    used = set(required) | ({count.place} if count else set()) | ({TURNED_PLACE} if turned else set())
    taken: set[int] = set()
    for place in used:
        if taken & set(places[place]):
            return None
        taken |= set(places[place])
    cards = {p: tuple(i for i in range(game.definition.deck.size) if m >> i & 1)
             for p, m in required.items()}
    return Draw(positions, places, loose, in_play, cards, count, turned, placed * probability)


@dataclass(frozen=True)
class Construction:
    """How constructed tries draw a condition's deals: a :class:`Draw` per dealer, and
    ``chance``, the largest of their events' chances (a try under dealer ``d`` is kept with
    probability ``draws[d].probability / chance``)."""

    draws: tuple[Draw, ...]
    chance: float


_CONSTRUCTIONS: dict[tuple, Construction | None] = {}


def construction(game, where: Mapping[str, Any] | Where) -> Construction | None:
    """The construction of ``where``'s deals (cached), or None when some dealer's places
    overlap (rejection alone then); :class:`DealError` when no dealer can deal it."""
    where = parse_where(game, where)
    key = _key(game, where)
    if key not in _CONSTRUCTIONS:
        draws = tuple(_draw(game, where, d) for d in range(game.num_players))
        made = None if None in draws else Construction(draws, max(d.probability for d in draws))
        if made is not None and not made.chance:
            raise DealError(f"impossible condition: no deal can satisfy {dict(where.canonical)}")
        _CONSTRUCTIONS[key] = made
    return _CONSTRUCTIONS[key]


def _pick(rng: np.random.Generator, items: list[int], k: int) -> list[int]:
    """``k`` of ``items`` in a uniformly random order (all ``k``-orders equally likely)."""
    return [items[i] for i in rng.permutation(len(items))[:k]]


def _left(draw: Draw, order: np.ndarray) -> list[int]:
    """The cards in play that ``order`` has not placed yet, ascending."""
    placed = sum(1 << int(c) for c in order if c >= 0)
    return [c for c in range(draw.in_play.bit_length()) if (draw.in_play & ~placed) >> c & 1]


def _rejected(game, where: Where, seed: Any, k: int, vec: np.ndarray) -> bool:
    """Rejection try ``k`` into ``vec``: the sub-seed's deal; True when it satisfies ``where``."""
    game.spec.new_deal(game.spec.params, rng_from_seed(sub_seed(seed, k)), vec)
    return where.accepts(game, vec)


def _constructed(game, made: Construction, where: Where, seed: Any, k: int,
                 vec: np.ndarray) -> bool:
    """Constructed try ``k`` (module docstring) into ``vec``: True when it is a deal under
    ``where``."""
    spec, layout = game.spec, game.definition.layout
    base = _sequence(sub_seed(seed, k))
    spec.new_deal(spec.params, rng_from_seed(base), vec)
    draw = made.draws[int(vec[layout.DEALER])]
    rng = np.random.default_rng(np.random.SeedSequence(
        base.entropy, spawn_key=(*base.spawn_key, CONSTRUCT_KEY)))
    if rng.random() * made.chance >= draw.probability:
        return False
    order = np.full(draw.positions, -1, dtype=np.int64)
    for place, cards in draw.required.items():
        order[_pick(rng, list(draw.places[place]), len(cards))] = cards
    count = draw.count
    if count is not None:
        marked = count.cards
        if draw.turned:
            weights = np.array([w for _, w in draw.turned])
            turned = draw.turned[rng.choice(len(weights), p=weights / weights.sum())][0]
            order[draw.places[TURNED_PLACE][0]] = turned
            marked = count.cards(turned) & ~(1 << turned)
        elif callable(marked):
            marked = marked(where.turned)
        left = _left(draw, order)
        inside = [c for c in left if marked >> c & 1]
        outside = [c for c in left if not marked >> c & 1]
        slots = [p for p in draw.places[count.place] if order[p] < 0]
        shift = sum(marked >> c & 1 for c in draw.required.get(count.place, ()))
        high = len(slots) if count.place in draw.loose else count.high - shift
        ways = _window(len(left), len(inside), len(slots), count.low - shift, high)
        weights = np.array([float(w) for _, w in ways])
        n_in = ways[rng.choice(len(ways), p=weights / weights.sum())][0]
        chosen = _pick(rng, inside, n_in) + _pick(rng, outside, len(slots) - n_in)
        order[slots] = [chosen[i] for i in rng.permutation(len(chosen))]
    left = _left(draw, order)
    order[order < 0] = _pick(rng, left, len(left))
    vec[layout.ORDER:layout.ORDER + layout.ORDER_WORDS].view(np.uint8)[:draw.positions] = order
    if hasattr(layout, "REDEALS"):      # the sub-seed's redeals are not this deal's: none
        vec[layout.REDEALS] = 0
    return bool(spec.deal_cards(vec, spec.params)) and where.accepts(game, vec)


_RATES: dict[tuple, float] = {}


def acceptance(game, where: Where, made: Construction | None = None) -> float:
    """The share of a fixed trial's tries that satisfy ``where`` (cached): :data:`TRIAL`
    deals of one stream from :data:`TRIAL_SEED`, or with ``made`` :data:`CONSTRUCT_TRIAL`
    constructed tries of its sub-seeds."""
    key = (made is not None, *_key(game, where))
    if key not in _RATES:
        vec = np.zeros(game.spec.state_len, dtype=np.uint64)
        if made is None:
            rng = rng_from_seed(TRIAL_SEED)
            hits = 0
            for _ in range(TRIAL):
                game.spec.new_deal(game.spec.params, rng, vec)
                hits += where.accepts(game, vec)
            _RATES[key] = hits / TRIAL
        else:
            _RATES[key] = sum(_constructed(game, made, where, TRIAL_SEED, k, vec)
                              for k in range(1, CONSTRUCT_TRIAL + 1)) / CONSTRUCT_TRIAL
    return _RATES[key]


METHODS = ("auto", "reject", "construct")


def deal_where(game, seed: Any, where: Mapping[str, Any] | Where,
               method: str = "auto") -> np.ndarray:
    """The state vector of the deal of ``seed`` under ``where`` (module docstring); ``method``
    ``"reject"`` or ``"construct"`` draws by that method alone (the same law: for comparison
    and tests), ``"auto"`` as the module docstring says."""
    if method not in METHODS:
        raise DealError(f"method={method!r}: expected one of {', '.join(METHODS)}")
    where = parse_where(game, where)
    rng_from_seed(seed)                               # a bad seed: its own error first
    vec = np.zeros(game.spec.state_len, dtype=np.uint64)
    made = None if method == "reject" else construction(game, where)
    if method == "construct" and made is None:
        raise DealError(f"{dict(where.canonical)} cannot be constructed: its places overlap "
                        "under some dealer")
    rare = method == "construct" or (made is not None and made.chance < 1 / FIRST_TRIES)
    for k in range(0 if rare else FIRST_TRIES):
        if _rejected(game, where, seed, k, vec):
            return vec
    rate = acceptance(game, where, made)
    if rate == 0:
        raise DealError(
            f"deal condition too rare to draw: 0 of {CONSTRUCT_TRIAL:,} constructed deals "
            f"satisfy {dict(where.canonical)} (the game voids or a robber's choice undoes "
            "them), or it is impossible" if made else
            f"deal condition too rare to draw: 0 of {TRIAL:,} trial deals satisfy "
            f"{dict(where.canonical)} (estimated acceptance below {3 / TRIAL:.1e}), or it is "
            "impossible")
    for k in range(FIRST_TRIES, FIRST_TRIES + math.ceil(MARGIN / rate)):
        if (_constructed(game, made, where, seed, k, vec) if made
                else _rejected(game, where, seed, k, vec)):
            return vec
    raise DealError(f"no deal satisfies {dict(where.canonical)} in {k:,} tries (estimated "
                    f"acceptance{' of a constructed deal' if made else ''} {rate:.2e})")
