"""Scopa positions, actions and observations as text and JSON-ready dicts.

Position dict (``to_dict`` output, ``from_dict`` input; keys marked * are optional and take the
default shown)::

    {"game": "scopa",
     "rules": {...}*              every option; must equal the game's rules when given
     "mode": "deal"* | "match",   "phase": "play"* | "deal_over" | "match_over",
     "dealer": seat, "to_move": seat,
     "hands": [[cards] per seat], "table": [cards],
     "stock": [cards, next card first],
     "piles": [[cards], [cards]]* per side (side of seat p = p & 1),
     "scopas": [0, 0]*, "last_capturer": side or None*, "scores": [0, 0]* (match score),
     "deal_number": 1*, "redeals": 0*, "rng": [4 uint64]* (chance of later deals)}

Action dict ``{"play": ["7sw"], "capture": ["7cu"]}`` (``[]`` when the card stays on the
table); action text ``"7sw>7cu"``, ``"6cu>2co+4sw"``, ``"3co"``.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...cards import mask_of
from ...errors import IllegalActionError, PositionError
from ...protocol import planes
from ...protocol.options import rules_dict
from ...protocol.positions import (
    card_indices,
    check_each_card_once,
    check_header,
    position_error,
    require_legal,
    rng_words,
)
from . import kernels as K
from . import layout as L
from . import scoring, validation
from .layout import DECK

PHASES = {"play": L.PHASE_PLAY, "deal_over": L.PHASE_DEAL_OVER, "match_over": L.PHASE_MATCH_OVER}
MODES = {"deal": 0, "match": L.MODE_MATCH}
_KEYS = {"game", "rules", "mode", "phase", "dealer", "to_move", "hands", "table", "stock",
         "piles", "scopas", "last_capturer", "scores", "deal_number", "redeals", "rng"}


def names(mask: int) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(int(mask))


def stock_order(vec: np.ndarray) -> list[str]:
    """The stock, next card first."""
    return [DECK.name(int(K.order_card(vec, i))) for i in range(int(vec[L.NEXT]), L.N_CARDS)]


def _rev(table: Mapping[str, int], value: int) -> str:
    return next(k for k, v in table.items() if v == value)


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    n = rules.num_players
    lc = int(vec[L.LAST_CAPTURER])
    return {
        "game": "scopa",
        "rules": rules_dict(rules),
        "mode": _rev(MODES, int(vec[L.MODE])),
        "phase": _rev(PHASES, int(vec[L.PHASE])),
        "dealer": int(vec[L.DEALER]),
        "to_move": int(vec[L.TO_MOVE]),
        "hands": [names(vec[L.HAND + p]) for p in range(n)],
        "table": names(vec[L.TABLE]),
        "stock": stock_order(vec),
        "piles": [names(vec[L.PILE + s]) for s in range(2)],
        "scopas": [int(vec[L.SCOPE + s]) for s in range(2)],
        "last_capturer": lc - 1 if lc else None,
        "scores": [int(vec[L.SCORE + s]) for s in range(2)],
        "deal_number": int(vec[L.DEAL_NUMBER]),
        "redeals": int(vec[L.REDEALS]),
        "rng": [int(x) for x in vec[L.RNG:L.RNG + 4]],
    }


def _err(msg: str) -> PositionError:
    return position_error("scopa", msg)


def _int(d: Mapping, key: str, default: Any, lo: int, hi: int) -> int:
    value = d.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int) \
            or not lo <= value <= hi:
        raise _err(f"{key}={value!r}: expected an integer from {lo} to {hi}")
    return value


def _cards(d: Mapping, key: str, value: Any) -> list[int]:
    return card_indices(DECK, key, value)


def _pair(d: Mapping, key: str, lo: int, hi: int) -> list[int]:
    value = d.get(key, [0, 0])
    if not isinstance(value, (list, tuple)) or len(value) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi for v in value):
        raise _err(f"{key}={value!r}: expected two integers (one per side) from {lo} to {hi}")
    return list(value)


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem."""
    check_header(d, rules, "scopa", _KEYS, ("dealer", "to_move", "hands", "table", "stock"))
    n = rules.num_players
    vec = np.zeros(L.STATE_LEN, dtype=np.uint64)
    mode = d.get("mode", "deal")
    phase = d.get("phase", "play")
    if not isinstance(mode, str) or mode not in MODES:
        raise _err(f"mode={mode!r}: expected 'deal' or 'match'")
    if not isinstance(phase, str) or phase not in PHASES:
        raise _err(f"phase={phase!r}: expected 'play', 'deal_over' or 'match_over'")
    vec[L.MODE] = MODES[mode]
    vec[L.PHASE] = PHASES[phase]
    dealer = _int(d, "dealer", None, 0, n - 1)
    to_move = _int(d, "to_move", None, 0, n - 1)
    vec[L.DEALER], vec[L.TO_MOVE] = dealer, to_move

    hands = d["hands"]
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise _err(f"hands: expected {n} lists of cards (one per seat), got {hands!r}")
    zones = {f"hands[{p}]": _cards(d, f"hands[{p}]", h) for p, h in enumerate(hands)}
    zones["table"] = _cards(d, "table", d["table"])
    stock = _cards(d, "stock", d["stock"])
    zones["stock"] = stock
    piles = d.get("piles", [[], []])
    if not isinstance(piles, (list, tuple)) or len(piles) != 2:
        raise _err(f"piles: expected 2 lists of cards (one per side), got {piles!r}")
    for s in range(2):
        zones[f"piles[{s}]"] = _cards(d, f"piles[{s}]", piles[s])
    check_each_card_once(DECK, zones, "hands, table, stock or piles")

    def mask(cards: list[int]) -> np.uint64:
        return np.uint64(mask_of(cards))

    for p in range(n):
        vec[L.HAND + p] = mask(zones[f"hands[{p}]"])
    vec[L.TABLE] = mask(zones["table"])
    for s in range(2):
        vec[L.PILE + s] = mask(zones[f"piles[{s}]"])
    vec[L.STOCK] = mask(stock)
    vec[L.NEXT] = L.N_CARDS - len(stock)
    for i, c in enumerate(stock):
        K.set_order_card(vec, L.N_CARDS - len(stock) + i, c)
    scopas = _pair(d, "scopas", 0, 40)
    scores = _pair(d, "scores", 0, 10_000)
    for s in range(2):
        vec[L.SCOPE + s], vec[L.SCORE + s] = scopas[s], scores[s]
    vec[L.DEAL_NUMBER] = _int(d, "deal_number", 1, 1, 1_000_000)
    vec[L.REDEALS] = _int(d, "redeals", 0, 0, 1_000_000)
    if d.get("last_capturer") is not None:
        vec[L.LAST_CAPTURER] = _int(d, "last_capturer", None, 0, 1) + 1
    validation.check_last_capturer(vec)
    vec[L.RNG:L.RNG + 4] = rng_words(d, "scopa")
    validation.check_position(vec, rules, len(stock))
    return vec


# --- actions ---------------------------------------------------------------------------------

def action_parts(action: int) -> tuple[int, int]:
    """(card index, capture mask) of an action id."""
    if action < 0 or action >> L.ACTION_CARD_SHIFT >= L.N_CARDS:
        raise IllegalActionError(f"{action!r} is not a scopa action id")
    return action >> L.ACTION_CARD_SHIFT, action & L.CAPTURE_MASK


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """``{"play": [card], "capture": [cards]}``."""
    card, taken = action_parts(action)
    return {"play": [DECK.name(card)], "capture": names(taken)}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"7sw>7cu"``, ``"6cu>2co+4sw"``, or ``"3co"`` when nothing is captured."""
    card, taken = action_parts(action)
    text = DECK.name(card)
    return text + (">" + "+".join(names(taken)) if taken else "")


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of ``{"play": [card], "capture": [cards]}``; it must be legal here."""
    if not isinstance(d, Mapping) or set(d) - {"play", "capture"} or "play" not in d:
        raise IllegalActionError(f"action {d!r}: expected {{'play': [card], 'capture': [cards]}}")
    play = d["play"]
    if isinstance(play, str):
        play = [play]
    if not isinstance(play, (list, tuple)) or len(play) != 1:
        raise IllegalActionError(f"action {d!r}: 'play' must name exactly one card")
    card = DECK.index(play[0])
    taken = DECK.mask(d.get("capture", []))
    return require_legal(card << L.ACTION_CARD_SHIFT | taken, legal,
                         lambda a: action_to_string(vec, a))


# --- views -----------------------------------------------------------------------------------

def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """Points per category and side from the current piles, with the figures behind them."""
    table = np.zeros((2, L.N_CATEGORIES), dtype=np.int64)
    params = rules.kernel_params()
    scoring.score_deal(vec, params, table)
    forfeit = rules.primiera_missing_suit == "forfeit"
    out = {cat: [int(table[s, c]) for s in range(2)] for c, cat in enumerate(L.CATEGORIES)}
    out["total"] = [int(table[s].sum()) for s in range(2)]
    piles = [int(vec[L.PILE + s]) for s in range(2)]
    out["card_count"] = [bin(p).count("1") for p in piles]
    out["coin_count"] = [bin(p & int(L.COINS)).count("1") for p in piles]
    out["settebello_side"] = next((s for s in range(2) if piles[s] >> L.SETTEBELLO & 1), None)
    totals = [int(scoring.primiera_total(np.uint64(p), forfeit)) for p in piles]
    out["primiera_total"] = [t if t >= 0 else None for t in totals]
    out["match_scores"] = [int(vec[L.SCORE + s]) for s in range(2)]
    return out


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees (rules §5): own hand, public cards and counters, hand sizes."""
    n = rules.num_players
    lc = int(vec[L.LAST_CAPTURER])
    return {
        "player": player,
        "hand": names(vec[L.HAND + player]),
        "hand_sizes": [bin(int(vec[L.HAND + p])).count("1") for p in range(n)],
        "table": names(vec[L.TABLE]),
        "piles": [names(vec[L.PILE + s]) for s in range(2)],
        "scopas": [int(vec[L.SCOPE + s]) for s in range(2)],
        "stock_size": L.N_CARDS - int(vec[L.NEXT]),
        "to_move": int(vec[L.TO_MOVE]),
        "dealer": int(vec[L.DEALER]),
        "scores": [int(vec[L.SCORE + s]) for s in range(2)],
        "phase": _rev(PHASES, int(vec[L.PHASE])),
        "mode": _rev(MODES, int(vec[L.MODE])),
        "deal_number": int(vec[L.DEAL_NUMBER]),
        "last_capturer": lc - 1 if lc else None,
    }


OBSERVATION_PLANES = (
    ("hand", planes.one(lambda o: o["hand"])), ("table", planes.one(lambda o: o["table"])),
    ("piles", lambda o, n: [planes.flat(o["piles"][0]), planes.flat(o["piles"][1])]))
"""The card planes of the observation tensors (:attr:`cardsim.protocol.spec.GameDefinition.
observation_planes`): hand, table, pile of side 0, pile of side 1."""
