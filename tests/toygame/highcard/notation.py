"""High card positions, actions and observations as JSON-ready dicts and text.

Position dict (``to_dict`` output, ``from_dict`` input; keys marked * are optional and take the
default shown)::

    {"game": "highcard", "rules": {...}*,
     "mode": "deal"* | "match", "phase": "play"* | "deal_over" | "match_over",
     "dealer": seat, "leader": seat, "to_move": seat,
     "hands": [[cards], [cards]], "table": [] or [the card led to the current trick],
     "stock": [cards, next card first], "piles": [[cards], [cards]]* (tricks won, per seat),
     "scores": [0, 0]* (deals won in the match), "deal_number": 1*, "rng": [4 uint64]*}

Action dict ``{"play": "7r"}``; action text ``"7r"``.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from cardsim.cards import mask_of
from cardsim.errors import IllegalActionError
from cardsim.protocol.options import rules_dict
from cardsim.protocol.positions import Fields, check_each_card_once, check_header, require_legal, rng_words

from . import layout as L
from .layout import DECK

PHASES = ("play", "deal_over", "match_over")       # index = L.PHASE_*
MODES = ("deal", "match")                          # index = L.MODE_*
_KEYS = {"game", "rules", "mode", "phase", "dealer", "leader", "to_move", "hands", "table",
         "stock", "piles", "scores", "deal_number", "rng"}
_F = Fields(DECK)


def names(mask) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(int(mask))


def _order(vec: np.ndarray) -> np.ndarray:
    """The deal order, a card a byte (a view of the state's words: little-endian, as
    :mod:`cardsim.compiled.order` reads it)."""
    return vec[L.ORDER:L.ORDER + L.ORDER_WORDS].view(np.uint8)[:L.N_CARDS]


def _table(vec: np.ndarray) -> list[str]:
    led = int(vec[L.TRICK_CARD])
    return [DECK.name(led - 1)] if led else []


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    return {
        "game": "highcard", "rules": rules_dict(rules),
        "mode": MODES[int(vec[L.MODE])], "phase": PHASES[int(vec[L.PHASE])],
        "dealer": int(vec[L.DEALER]), "leader": int(vec[L.LEADER]),
        "to_move": int(vec[L.TO_MOVE]),
        "hands": [names(vec[L.HAND + p]) for p in range(L.N_PLAYERS)],
        "table": _table(vec),
        "stock": [DECK.name(int(c)) for c in _order(vec)[int(vec[L.NEXT]):]],
        "piles": [names(vec[L.PILE + p]) for p in range(L.N_PLAYERS)],
        "scores": [int(vec[L.SCORE + p]) for p in range(L.N_PLAYERS)],
        "deal_number": int(vec[L.DEAL_NUMBER]),
        "rng": [int(x) for x in vec[L.RNG:L.RNG + 4]],
    }


def _choice(key: str, value: Any, allowed: tuple) -> int:
    if not isinstance(value, str) or value not in allowed:
        raise _F.error(f"{key}={value!r}: expected one of {', '.join(allowed)}")
    return allowed.index(value)


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the
    problem."""
    check_header(d, rules, "highcard", _KEYS,
                 ("dealer", "leader", "to_move", "hands", "table", "stock"))
    n = L.N_PLAYERS
    mode = _choice("mode", d.get("mode", "deal"), MODES)
    phase = _choice("phase", d.get("phase", "play"), PHASES)
    dealer = _F.seat("dealer", d["dealer"], n)
    leader = _F.seat("leader", d["leader"], n)
    to_move = _F.seat("to_move", d["to_move"], n)
    hands = [_F.cards(f"hands[{p}]", h) for p, h in enumerate(_F.per("hands", d["hands"], n))]
    table = _F.cards("table", d["table"])
    stock = _F.cards("stock", d["stock"])
    piles = [_F.cards(f"piles[{p}]", c)
             for p, c in enumerate(_F.per("piles", d.get("piles", [[], []]), n))]
    zones = {f"hands[{p}]": hands[p] for p in range(n)}
    zones.update({"table": table, "stock": stock},
                 **{f"piles[{p}]": piles[p] for p in range(n)})
    check_each_card_once(DECK, zones, "hands, table, stock or piles")
    scores = [_F.integer(f"scores[{p}]", s, 0, rules.match_wins)
              for p, s in enumerate(_F.per("scores", d.get("scores", [0, 0]), n))]
    deal_number = _F.integer("deal_number", d.get("deal_number", 1), 1, 2 * rules.match_wins)
    _check(rules, mode, phase, leader, to_move, hands, table, stock, piles, scores, deal_number)

    vec = np.zeros(L.STATE_LEN, dtype=np.uint64)
    vec[L.MODE], vec[L.PHASE] = mode, phase
    vec[L.DEALER], vec[L.LEADER], vec[L.TO_MOVE] = dealer, leader, to_move
    for p in range(n):
        vec[L.HAND + p] = mask_of(hands[p])
        vec[L.PILE + p] = mask_of(piles[p])
        vec[L.SCORE + p] = scores[p]
    vec[L.TRICK_CARD] = table[0] + 1 if table else 0
    vec[L.STOCK] = mask_of(stock)
    vec[L.NEXT] = L.N_CARDS - len(stock)
    _order(vec)[L.N_CARDS - len(stock):] = stock
    vec[L.DEAL_NUMBER] = deal_number
    vec[L.RNG:L.RNG + 4] = rng_words(d, "highcard")
    return vec


def _check(rules, mode, phase, leader, to_move, hands, table, stock, piles, scores,
           deal_number) -> None:
    """The position is one that play reaches (the rules in :mod:`.kernels`)."""
    follower = 1 - leader
    if len(table) > 1:
        raise _F.error(f"table holds {len(table)} cards: at most the card led")
    if any(len(p) % 2 for p in piles):
        raise _F.error("piles: each trick won puts two cards in a pile")
    if len(hands[follower]) != len(hands[leader]) + len(table):
        raise _F.error(f"hands hold {len(hands[leader])} (leader) and {len(hands[follower])} "
                       "cards: the leader holds as many as the other but the card he led")
    if stock and len(hands[follower]) != L.HAND_SIZE:
        raise _F.error(f"hands: {L.HAND_SIZE} cards each while the stock lasts (HC-TRICK-3)")
    if to_move != (follower if table else leader):
        raise _F.error(f"to_move={to_move}: expected {follower if table else leader}, who "
                       "plays next in the trick")
    over = PHASES[phase] != "play"
    if over != (not hands[follower]):
        raise _F.error(f"phase={PHASES[phase]!r} with {len(hands[follower])} cards in hand")
    if PHASES[phase] == "deal_over" and MODES[mode] == "match" \
            or PHASES[phase] == "match_over" and MODES[mode] == "deal":
        raise _F.error(f"phase={PHASES[phase]!r} in mode {MODES[mode]!r}")
    if MODES[mode] == "deal":
        if any(scores) or deal_number != 1:
            raise _F.error("a single deal has scores [0, 0] and deal_number 1")
        return
    done = deal_number - 1 + over
    if sum(scores) != done or max(scores) >= rules.match_wins and not over \
            or over and max(scores) != rules.match_wins:
        raise _F.error(f"scores={scores}: expected one deal won for each of the {done} deals "
                       f"over, {rules.match_wins} for the match's winner alone")
    if over:
        t0, t1 = len(piles[0]) // 2, len(piles[1]) // 2
        last = leader if t0 == t1 else int(t1 > t0)
        if scores[last] != rules.match_wins:
            raise _F.error(f"scores={scores}: seat {last} won the last deal and the match")


# --- actions ---------------------------------------------------------------------------------

def _card(action: Any) -> int:
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
            or not 0 <= action < L.N_CARDS:
        raise IllegalActionError(f"{action!r} is not a highcard action id")
    return int(action)


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """``{"play": card}``."""
    return {"play": DECK.name(_card(action))}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """The card's name."""
    return DECK.name(_card(action))


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of ``{"play": card}``; it must be legal here."""
    if not isinstance(d, Mapping) or set(d) != {"play"}:
        raise IllegalActionError(f"action {d!r}: expected {{'play': card}}")
    return require_legal(DECK.index(d["play"]), legal, lambda a: action_to_string(vec, a))


# --- views -----------------------------------------------------------------------------------

def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """Tricks won in this deal and deals won in the match, per seat."""
    return {"tricks": [int(vec[L.PILE + p]).bit_count() // 2 for p in range(L.N_PLAYERS)],
            "match_scores": [int(vec[L.SCORE + p]) for p in range(L.N_PLAYERS)]}


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees: his hand, the hands' sizes, the trick, the piles, the stock's
    size and the public counters."""
    return {
        "player": player, "hand": names(vec[L.HAND + player]),
        "hand_sizes": [int(vec[L.HAND + p]).bit_count() for p in range(L.N_PLAYERS)],
        "table": _table(vec), "piles": [names(vec[L.PILE + p]) for p in range(L.N_PLAYERS)],
        "stock_size": L.N_CARDS - int(vec[L.NEXT]), "to_move": int(vec[L.TO_MOVE]),
        "leader": int(vec[L.LEADER]), "dealer": int(vec[L.DEALER]),
        "scores": [int(vec[L.SCORE + p]) for p in range(L.N_PLAYERS)],
        "phase": PHASES[int(vec[L.PHASE])], "mode": MODES[int(vec[L.MODE])],
        "deal_number": int(vec[L.DEAL_NUMBER]),
    }
