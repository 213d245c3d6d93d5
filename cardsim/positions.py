"""Validation shared by every game's position dicts (``from_dict``).

Each game's ``notation.from_dict`` checks its own keys and flow; the checks every game needs —
the dict's header (type, known keys, game name, rules), card lists, each card exactly once,
required keys and the chance-stream words — live here once. Every failure is a
:class:`~cardsim.errors.PositionError` (or :class:`~cardsim.errors.CardError` for an unknown
card name) whose message names the value and what was expected.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping

import numpy as np

from .cards import Deck
from .errors import CardError, PositionError
from .rng import rng_from_seed


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
        raise position_error(game, f"unknown key {sorted(unknown)[0]!r}: expected some of "
                             + ", ".join(sorted(keys)))
    if d.get("game", game) != game:
        raise position_error(game, f"game={d['game']!r}: expected {game!r}")
    mine = dataclasses.asdict(rules)
    if "rules" in d and d["rules"] != mine:
        theirs = d["rules"] if isinstance(d["rules"], Mapping) else {}
        diff = [k for k, v in mine.items() if theirs.get(k) != v]
        raise position_error(game, f"rules differ from the game's ({', '.join(diff) or d['rules']!r})"
                             ": load the game with the position's rules")
    for key in required:
        if key not in d:
            raise position_error(game, f"missing key {key!r}")


def card_indices(deck: Deck, key: str, value: Any) -> list[int]:
    """The indices of a list of card names (``key`` names the list in errors)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise position_error(deck.game, f"{key}={value!r}: expected a list of card names")
    try:
        return [deck.index(name) for name in value]
    except CardError as e:
        raise CardError(f"invalid {deck.game} position: {key}: {e}") from None


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
    rng = d.get("rng")
    if rng is None:
        return rng_from_seed(0)
    if not isinstance(rng, (list, tuple)) or len(rng) != 4 or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2 ** 64 for x in rng) \
            or not any(rng):
        raise position_error(game, f"rng={rng!r}: expected 4 unsigned 64-bit integers, not all "
                             "zero")
    return np.array([int(x) for x in rng], dtype=np.uint64)
