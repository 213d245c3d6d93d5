"""Validation shared by every game's position dicts (``from_dict``).

Each game's ``notation.from_dict`` checks its own keys and flow; the checks every game needs —
the dict's header (type, known keys, game name, rules), card lists, each card exactly once,
required keys and the chance-stream words — live here once. Every failure is a
:class:`~cardsim.errors.PositionError` (or :class:`~cardsim.errors.CardError` for an unknown
card name) whose message names the value and what was expected.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import numpy as np

from ..cards import Deck
from ..compiled.rng import rng_from_seed
from ..errors import CardError, IllegalActionError, PositionError, shown
from .options import rules_dict


def position_error(game: str, msg: str) -> PositionError:
    """``invalid <game> position: <msg>``."""
    return PositionError(f"invalid {game} position: {msg}")


def check_header(d: Any, rules: Any, game: str, keys: set[str], required: Iterable[str]) -> None:
    """A dict, with only known keys, of this game, with this game's rules (when given), and
    with every required key."""
    if not isinstance(d, Mapping):
        raise position_error(game, f"expected a dict, got {type(d).__name__}")
    unknown = set(d) - keys
    if unknown:
        raise position_error(game, f"unknown key {shown(sorted(unknown)[0])}: expected some of "
                             + ", ".join(sorted(keys)))
    if d.get("game", game) != game:
        raise position_error(game, f"game={shown(d['game'])}: expected {game!r}")
    mine = rules_dict(rules)
    theirs = d.get("rules", mine)
    theirs = theirs if isinstance(theirs, Mapping) else {}
    if "rules" in d and (set(theirs) != set(mine) or any(
            type(theirs[k]) is not type(v) or theirs[k] != v for k, v in mine.items())):
        diff = [k for k, v in mine.items() if type(theirs.get(k)) is not type(v)
                or theirs.get(k) != v] + sorted(set(theirs) - set(mine))
        raise position_error(game, f"rules differ from the game's ({', '.join(diff) or d['rules']!r})"
                             ": load the game with the position's rules")
    for key in required:
        if key not in d:
            raise position_error(game, f"missing key {key!r}")


def card_indices(deck: Deck, key: str, value: Any) -> list[int]:
    """The indices of a list of distinct card names (``key`` names the list in errors)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise position_error(deck.game, f"{key}={shown(value)}: expected a list of card names")
    try:
        out = [deck.index(name) for name in value]
    except CardError as e:
        raise CardError(f"invalid {deck.game} position: {key}: {e}") from None
    if len(set(out)) != len(out):
        name = next(n for i, n in enumerate(value) if out.index(out[i]) != i)
        raise position_error(deck.game, f"card {shown(name)} is twice in {key}: each card exists "
                             "once")
    return out


def check_each_card_once(deck: Deck, zones: Mapping[str, list[int]], where: str) -> None:
    """Every card of the deck exactly once across the zones (``where`` lists them for the
    error message)."""
    seen: dict[int, str] = {}
    for zone, cards in zones.items():
        for c in cards:
            if c in seen:
                place = f"twice in {zone}" if seen[c] == zone else f"in both {seen[c]} and {zone}"
                raise position_error(deck.game, f"card {deck.name(c)!r} is {place}: each card "
                                     "exists once")
            seen[c] = zone
    missing = [deck.name(c) for c in range(deck.size) if c not in seen]
    if missing:
        raise position_error(deck.game, f"missing cards {', '.join(missing)}: all {deck.size} "
                             f"cards must be placed in {where}")


def rng_words(d: Mapping, game: str) -> np.ndarray:
    """The chance stream of later deals: ``d["rng"]`` (4 uint64, not all zero) or, when absent,
    the stream of seed 0."""
    if "rng" not in d:
        return rng_from_seed(0)
    rng = d["rng"]
    if not isinstance(rng, (list, tuple)) or len(rng) != 4 or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2 ** 64 for x in rng) \
            or not any(rng):
        raise position_error(game, f"rng={shown(rng)}: expected 4 unsigned 64-bit integers, "
                             "not all "
                             "zero")
    return np.array([int(x) for x in rng], dtype=np.uint64)


class PositionCardError(PositionError, CardError):
    """A bad card name in a position: both a position error and a card error."""


def is_int(value: Any) -> bool:
    """An integer (numpy's too), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


class Fields:
    """Readers of a position dict's typed values for one game's deck: each returns the value
    as Python's type or raises a one-line :class:`PositionError` naming the key (a bad card
    name: :class:`PositionCardError`)."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck

    def error(self, msg: str) -> PositionError:
        return position_error(self.deck.game, msg)

    def seat(self, key: str, value: Any, n: int, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if not is_int(value) or not 0 <= value < n:
            raise self.error(f"{key}={shown(value)}: expected a seat from 0 to {n - 1}"
                             + (" or None" if optional else ""))
        return int(value)

    def integer(self, key: str, value: Any, lo: int, hi: int, what: str | None = None) -> int:
        if not is_int(value) or not lo <= value <= hi:
            raise self.error(f"{key}={shown(value)}: expected "
                             f"{what or f'an integer from {lo} to {hi}'}")
        return int(value)

    def flag(self, key: str, value: Any) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise self.error(f"{key}={shown(value)}: expected true or false")
        return bool(value)

    def per(self, key: str, value: Any, size: int, what: str = "seat") -> list:
        """A list with one entry per seat (or per ``what``)."""
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or len(value) != size:
            raise self.error(f"{key}={shown(value)}: expected a list with one entry per {what} "
                             f"({size})")
        return list(value)

    def card(self, key: str, name: Any, in_play: int | None = None) -> int:
        """A card's index; ``in_play`` (a mask) the cards of the deck in use, when not all."""
        try:
            c = self.deck.index(name)
        except CardError as e:
            raise PositionCardError(f"invalid {self.deck.game} position: {key}: {e}") from None
        if in_play is not None and not in_play >> c & 1:
            raise self.error(f"{key}: card {shown(name)} is not in the {bin(in_play).count('1')}-"
                             "card deck")
        return c

    def cards(self, key: str, value: Any, in_play: int | None = None) -> list[int]:
        """A list of distinct cards."""
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            raise self.error(f"{key}={shown(value)}: expected a list of card names")
        out = []
        for name in value:
            c = self.card(key, name, in_play)
            if c in out:
                raise self.error(f"{key}: card {shown(name)} is listed twice: each card exists "
                                 "once")
            out.append(c)
        return out


def check_trick_counts(err: Callable[[str], PositionError], seats: Iterable[int],
                       in_trick: list[int], tricks: int, hand_size: int,
                       played: Callable[[int], int], held: Callable[[int], int]) -> None:
    """The card counts of a trick game's seats after ``tricks`` full tricks: each seat of
    ``seats`` has played one card a trick and one more when it is in the current trick
    (``in_trick``), and holds the rest of its ``hand_size`` cards (``played(s)``/``held(s)``
    count seat ``s``'s cards)."""
    for s in seats:
        size = tricks + (1 if s in in_trick else 0)
        if played(s) != size:
            raise err(f"played[{s}] holds {played(s)} cards: expected {size} "
                      f"(tricks_played={tricks})")
        if held(s) + size != hand_size:
            raise err(f"hands[{s}] holds {held(s)} cards: expected {hand_size - size} "
                      f"({size} played)")


def require_legal(action: int, legal: list[int], to_string: Callable[[int], str]) -> int:
    """``action`` if it is among ``legal``, else :class:`~cardsim.errors.IllegalActionError`
    naming it and every legal action (by ``to_string``): the last step of each game's
    ``action_from_dict``."""
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {to_string(action)}: expected one of "
            + (", ".join(to_string(a) for a in legal) or "nothing (terminal)"))
    return action
