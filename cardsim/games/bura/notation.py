"""Bura positions, actions and observations as text and JSON-ready dicts.

Position dict (``to_dict`` output, ``from_dict`` input; keys marked * are optional)::

    {"game": "bura", "rules": {...}*, "mode": "deal"* | "match",
     "phase": "check" | "claim" | "stop" | "lead" | "answer" | "deal_over" | "match_over",
     "dealer": seat, "to_move": seat (None when over), "leader": seat (scheduled or trick leader),
     "trump_card": "9d", "hands": [[cards] per seat],
     "stock": [cards, next first; the trump card is last while undrawn],
     "piles": [{"up": [cards], "down": [cards]} per seat]*,
     "thrown_down": [[cards] per seat]*   every card the seat threw face down this deal,
     "trick": None* or {"leader": s, "k": k, "played": [[cards] per seat], "top": [cards],
                        "holder": s},
     "result": None* or {"kind": ..., "winners": [seats], "multiplier": m, "claim_points": p},
     "scores": [per seat]*, "deal_number": 1*, "redeals": 0*, "last_trick_taker": None*,
     "tricks": 0*, "first_leader": seat*, "stop_round": None*, "revealed": [[cards] per seat]*,
     "revealed_at": {card: check point}*, "history": None* or [per finished trick of this deal
     {"played": [[cards] per seat], "drawn": [[cards drawn after it] per seat]}],
     "rng": [4 uint64]*}

``revealed`` holds the cards shown at a refused Stop (the leader's hand and the caller's three
cards), ``revealed_at`` the check point (0 before the first trick, ``j + 1`` after trick ``j``)
at which each was first shown. ``history`` tells which cards each seat held at every check point
so far (rules §5); without it only the current check point is known.

Action dict: ``{"play": ["As", "Ks"], "mode": "lead" | "beat" | "throw_down" | "throw_up"}``,
``{"claim": True}``, ``{"claim": False}``, ``{"stop": True, "play": [three cards]}``,
``{"stop": False}``; text: ``"lead As+Ks"``, ``"beat 9d+Js"``, ``"throw_down 6h"``,
``"claim"``, ``"no_claim"``, ``"stop Ts+Qs+6s"``, ``"pass"``.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...cards import BURA
from ...errors import IllegalActionError, PositionError
from ...options import rules_dict
from ...positions import (card_indices, check_each_card_once, check_header, position_error,
                          rng_words)
from . import kernels as K
from .layout import (CARDS_MASK, CLAIM, CLAIM_POINTS, DEAL_NUMBER, DEALER, FIRST_LEADER, HAND,
                     HAND_SIZE, KIND_NAMES, KIND_SHIFT, LAST_TRICK_TAKER, LEADER, MODE,
                     MODE_MATCH, MULTIPLIER, N_CARDS, NEXT, NO_CLAIM, PASS, PHASE, PHASE_ANSWER,
                     PHASE_CHECK, PHASE_CLAIM, PHASE_DEAL_OVER, PHASE_LEAD, PHASE_MATCH_OVER,
                     PHASE_NAMES, PHASE_STOP, PILE_DOWN, PILE_UP, POINTS, REDEALS, RESULT,
                     RESULT_NAMES, RESULT_NONE, RNG, SCORE, STATE_LEN, STOCK, STOP, THROWN,
                     TO_MOVE, TRICK_HOLDER, TRICK_K, TRICK_PLAYED, TRICK_TOP, TRICKS, TRUMP_CARD,
                     WINNERS, STOP_ROUND, REVEALED, GOT, LEFT, LOG_WORDS, SHOWN)

_KEYS = {"game", "rules", "mode", "phase", "dealer", "to_move", "leader", "trump_card", "hands",
         "stock", "piles", "thrown_down", "trick", "result", "scores", "deal_number", "redeals",
         "last_trick_taker", "tricks", "first_leader", "stop_round", "revealed", "revealed_at",
         "history", "rng"}
STOP_ROUNDS = ("small_moscow", "molodka")


def names(mask) -> list[str]:
    """Card names of a mask, in index order."""
    return BURA.names(int(mask))


def seats_of(mask) -> list[int]:
    """Seats of a seat mask."""
    return [s for s in range(4) if int(mask) >> s & 1]


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    n = rules.num_players
    phase = int(vec[PHASE])
    over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    trick = None
    if vec[TRICK_K]:
        trick = {"leader": int(vec[LEADER]), "k": int(vec[TRICK_K]),
                 "played": [names(vec[TRICK_PLAYED + p]) for p in range(n)],
                 "top": names(vec[TRICK_TOP]), "holder": int(vec[TRICK_HOLDER])}
    result = None
    if vec[RESULT] != RESULT_NONE:
        result = {"kind": RESULT_NAMES[int(vec[RESULT])], "winners": seats_of(vec[WINNERS]),
                  "multiplier": int(vec[MULTIPLIER]), "claim_points": int(vec[CLAIM_POINTS])}
    ltt = int(vec[LAST_TRICK_TAKER])
    return {
        "game": "bura", "rules": rules_dict(rules),
        "mode": "match" if vec[MODE] == MODE_MATCH else "deal",
        "phase": PHASE_NAMES[phase], "dealer": int(vec[DEALER]),
        "to_move": None if over else int(vec[TO_MOVE]), "leader": int(vec[LEADER]),
        "trump_card": BURA.name(int(vec[TRUMP_CARD])),
        "hands": [names(vec[HAND + p]) for p in range(n)],
        "stock": [BURA.name(K.deal_order.order_card(vec, K.ORDER, i))
                  for i in range(int(vec[NEXT]), N_CARDS)],
        "piles": [{"up": names(vec[PILE_UP + p]), "down": names(vec[PILE_DOWN + p])}
                  for p in range(n)],
        "thrown_down": [names(vec[THROWN + p]) for p in range(n)],
        "trick": trick, "result": result,
        "scores": [int(vec[SCORE + p]) for p in range(n)],
        "deal_number": int(vec[DEAL_NUMBER]), "redeals": int(vec[REDEALS]),
        "last_trick_taker": ltt - 1 if ltt else None, "tricks": int(vec[TRICKS]),
        "first_leader": int(vec[FIRST_LEADER]),
        "stop_round": STOP_ROUNDS[int(vec[STOP_ROUND])] if phase == PHASE_STOP else None,
        "revealed": [names(vec[REVEALED + p]) for p in range(n)],
        "revealed_at": {BURA.name(c): shown - 1
                        for c, shown in enumerate(log_bytes(vec, SHOWN)) if shown},
        "history": history(vec, n),
        "rng": [int(x) for x in vec[RNG:RNG + 4]],
    }


def log_bytes(vec: np.ndarray, offset: int) -> list[int]:
    """Every card's byte in one of the deal's logs (``GOT``, ``LEFT``, ``SHOWN``: layout.py)."""
    return vec[offset:offset + LOG_WORDS].view(np.uint8)[:N_CARDS].tolist()


def history(vec: np.ndarray, n: int) -> list[dict] | None:
    """The finished tricks of the deal from its log: who played and who drew what; None when
    the log does not reach back to the deal's start (a position given without history)."""
    got, left = log_bytes(vec, GOT), log_bytes(vec, LEFT)
    stock = int(vec[STOCK])
    if any(not got[c] for c in range(N_CARDS) if not stock >> c & 1):
        return None
    tricks = int(vec[TRICKS])
    out = [{"played": [[] for _ in range(n)], "drawn": [[] for _ in range(n)]}
           for _ in range(tricks)]
    for c in range(N_CARDS):           # in index order: every list comes out sorted
        if not got[c]:
            continue
        seat, at = (got[c] - 1) & 3, (got[c] - 1) >> 2
        if 0 < left[c] <= tricks:
            out[left[c] - 1]["played"][seat].append(BURA.name(c))
        if 0 < at <= tricks:
            out[at - 1]["drawn"][seat].append(BURA.name(c))
    return out


def _err(msg: str) -> PositionError:
    return position_error("bura", msg)


def _seat(d: Mapping, key: str, n: int, value: Any = ..., optional: bool = False) -> int | None:
    value = d.get(key) if value is ... else value
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise _err(f"{key}={value!r}: expected a seat from 0 to {n - 1}")
    return value


def _count(d: Mapping, key: str, default: int, hi: int) -> int:
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise _err(f"{key}={value!r}: expected an integer from 0 to {hi}")
    return value


def _cards(key: str, value: Any) -> list[int]:
    return card_indices(BURA, key, value)


def _per_seat(d: Mapping, key: str, n: int, default: Any) -> list:
    value = d.get(key, default)
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise _err(f"{key}: expected one entry per seat ({n}), got {value!r}")
    return list(value)


def _mask(cards: list[int]) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem."""
    check_header(d, rules, "bura", _KEYS, ("phase", "dealer", "leader", "trump_card", "hands",
                                           "stock"))
    n = rules.num_players
    vec = np.zeros(STATE_LEN, dtype=np.uint64)
    if d.get("mode", "deal") not in ("deal", "match"):
        raise _err(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    vec[MODE] = MODE_MATCH if d.get("mode", "deal") == "match" else 0
    if d["phase"] not in PHASE_NAMES:
        raise _err(f"phase={d['phase']!r}: expected one of {', '.join(PHASE_NAMES)}")
    phase = PHASE_NAMES.index(d["phase"])
    vec[PHASE] = phase
    over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    vec[DEALER] = _seat(d, "dealer", n)
    vec[LEADER] = _seat(d, "leader", n)
    vec[TO_MOVE] = 0 if over else _seat(d, "to_move", n)
    trump = _cards("trump_card", [d["trump_card"]])[0]
    vec[TRUMP_CARD] = trump

    zones: dict[str, list[int]] = {}
    hands = _per_seat(d, "hands", n, None)
    for p in range(n):
        zones[f"hands[{p}]"] = _cards(f"hands[{p}]", hands[p])
    stock = _cards("stock", d["stock"])
    zones["stock"] = stock
    piles = _per_seat(d, "piles", n, [{"up": [], "down": []}] * n)
    for p in range(n):
        if not isinstance(piles[p], Mapping) or set(piles[p]) - {"up", "down"}:
            raise _err(f"piles[{p}]={piles[p]!r}: expected {{'up': [cards], 'down': [cards]}}")
        zones[f"piles[{p}].up"] = _cards(f"piles[{p}].up", piles[p].get("up", []))
        zones[f"piles[{p}].down"] = _cards(f"piles[{p}].down", piles[p].get("down", []))
    trick = d.get("trick")
    if trick is not None:
        if not isinstance(trick, Mapping) or set(trick) != {"leader", "k", "played", "top",
                                                           "holder"}:
            raise _err(f"trick={trick!r}: expected leader, k, played, top and holder")
        played = _per_seat(trick, "played", n, None)
        for p in range(n):
            zones[f"trick.played[{p}]"] = _cards(f"trick.played[{p}]", played[p])
    check_each_card_once(BURA, zones, "hands, stock, piles or the trick")

    for p in range(n):
        vec[HAND + p] = _mask(zones[f"hands[{p}]"])
        vec[PILE_UP + p] = _mask(zones[f"piles[{p}].up"])
        vec[PILE_DOWN + p] = _mask(zones[f"piles[{p}].down"])
    vec[STOCK] = _mask(stock)
    vec[NEXT] = N_CARDS - len(stock)
    for i, c in enumerate(stock):
        K.deal_order.set_order_card(vec, K.ORDER, N_CARDS - len(stock) + i, c)
    if stock and trump in stock and stock[-1] != trump:
        raise _err(f"trump card {d['trump_card']!r} is in the stock but not last: the turned "
                   "card is drawn last")
    if stock and trump not in stock:
        raise _err(f"trump card {d['trump_card']!r} is not in the stock, which still holds "
                   "cards: the turned card is drawn last")
    thrown = _per_seat(d, "thrown_down", n, [[]] * n)
    all_down = int(sum(int(vec[PILE_DOWN + p]) for p in range(n)))
    for p in range(n):
        cards = _mask(_cards(f"thrown_down[{p}]", thrown[p]))
        vec[THROWN + p] = cards
    if trick is not None:
        k = _count(trick, "k", 1, 3)
        if k < 1:
            raise _err("trick.k=0: a trick has 1 to 3 cards per player")
        vec[TRICK_K] = k
        vec[LEADER] = _seat(trick, "leader", n)
        vec[TRICK_HOLDER] = _seat(trick, "holder", n)
        vec[TRICK_TOP] = _mask(_cards("trick.top", trick["top"]))
        for p in range(n):
            vec[TRICK_PLAYED + p] = _mask(zones[f"trick.played[{p}]"])
    in_trick = int(sum(int(vec[TRICK_PLAYED + p]) for p in range(n)))
    thrown_all = int(sum(int(vec[THROWN + p]) for p in range(n)))
    if thrown_all and rules.facedown_discards == "off":
        raise _err("face-down cards with facedown_discards='off': every card is played face up")
    if thrown_all & ~(all_down | in_trick) or all_down & ~thrown_all:
        raise _err("thrown_down must list exactly the face-down cards of the piles (and any "
                   "face-down cards in the trick)")
    _check_flow(vec, rules, d, phase, trick is not None)
    result = d.get("result")
    if result is not None:
        if not isinstance(result, Mapping) or result.get("kind") not in RESULT_NAMES[1:]:
            raise _err(f"result={result!r}: expected kind one of {', '.join(RESULT_NAMES[1:])}")
        vec[RESULT] = RESULT_NAMES.index(result["kind"])
        vec[WINNERS] = sum(1 << _seat(result, "winners", n, w) for w in result.get("winners", []))
        vec[MULTIPLIER] = _count(result, "multiplier", 1, 2)
        vec[CLAIM_POINTS] = _count(result, "claim_points", 0, 120)
    if over != (result is not None):
        raise _err("a finished deal or match needs a result, and only it")
    scores = _per_seat(d, "scores", n, [0] * n)
    for p in range(n):
        vec[SCORE + p] = _count({"scores": scores[p]}, "scores", 0, 1000)
    vec[DEAL_NUMBER] = max(1, _count(d, "deal_number", 1, 1_000_000))
    vec[REDEALS] = _count(d, "redeals", 0, 1_000_000)
    vec[TRICKS] = _count(d, "tricks", 0, 36)
    ltt = _seat(d, "last_trick_taker", n, optional=True)
    vec[LAST_TRICK_TAKER] = 0 if ltt is None else ltt + 1
    vec[FIRST_LEADER] = _seat(d, "first_leader", n, d.get("first_leader", d["leader"]))
    stop_round = d.get("stop_round")
    if phase == PHASE_STOP:
        if stop_round not in STOP_ROUNDS:
            raise _err(f"stop_round={stop_round!r}: expected 'small_moscow' or 'molodka' in "
                       "phase 'stop'")
        if (stop_round == "molodka" and not rules.molodka_stop) or (
                stop_round == "small_moscow" and rules.small_moscow == "off"):
            raise _err(f"stop_round={stop_round!r}: that Stop is off under these rules")
        vec[STOP_ROUND] = STOP_ROUNDS.index(stop_round)
    elif stop_round is not None:
        raise _err("stop_round is only set in phase 'stop'")
    revealed = _per_seat(d, "revealed", n, [[]] * n)
    for p in range(n):
        vec[REVEALED + p] = _mask(_cards(f"revealed[{p}]", revealed[p]))
    _set_log(vec, rules, d)
    vec[RNG:RNG + 4] = rng_words(d, "bura")
    return vec


def _bits(mask) -> list[int]:
    return [c for c in range(N_CARDS) if int(mask) >> c & 1]


def _set_log(vec: np.ndarray, rules: Any, d: Mapping) -> None:
    """The deal's log (layout.py) from ``history`` and ``revealed_at``, validated against the
    hands, piles and trick already in ``vec``."""
    n = rules.num_players
    tricks = int(vec[TRICKS])
    piles = [int(vec[PILE_UP + p]) | int(vec[PILE_DOWN + p]) for p in range(n)]
    if bool(tricks) != any(piles):
        raise _err(f"tricks={tricks} with {'no' if tricks else 'some'} cards in the piles")
    owner: dict[int, int] = {}      # card -> the seat that held it this deal
    left: dict[int, int] = {}       # card -> the trick it was played in
    for p in range(n):
        owner.update((c, p) for c in _bits(vec[HAND + p]))
        for c in _bits(vec[TRICK_PLAYED + p]):
            owner[c], left[c] = p, tricks
    hist = d.get("history")
    if hist is None:
        got = {c: (p, tricks) for c, p in owner.items()}
    else:
        got = _history(vec, rules, hist, owner, left, piles)
    for c, (p, cp) in got.items():
        K.deal_order.set_order_card(vec, GOT, c, 1 + p + 4 * cp)
    for c, j in left.items():
        K.deal_order.set_order_card(vec, LEFT, c, 1 + j)
    shown = d.get("revealed_at", {})
    if not isinstance(shown, Mapping):
        raise _err(f"revealed_at={shown!r}: expected {{card: check point}}")
    revealed = int(sum(int(vec[REVEALED + p]) for p in range(n)))
    for name, cp in shown.items():
        card = _cards("revealed_at", [name])[0]
        if not revealed >> card & 1:
            raise _err(f"revealed_at: {name} is not a revealed card")
        K.deal_order.set_order_card(vec, SHOWN, card, 1 + _count({"revealed_at": cp},
                                                                  "revealed_at", 0, tricks))


def _history(vec: np.ndarray, rules: Any, hist: Any, owner: dict, left: dict,
             piles: list[int]) -> dict[int, tuple[int, int]]:
    """Check ``history`` (module docstring) and complete ``owner`` and ``left`` from it;
    returns card -> (seat, check point at which he received it)."""
    n = rules.num_players
    tricks = int(vec[TRICKS])
    if not isinstance(hist, list) or len(hist) != tricks:
        raise _err(f"history: expected a list of the {tricks} finished tricks, got {hist!r}")
    drawn_at: dict[int, tuple[int, int]] = {}
    for j, entry in enumerate(hist):
        where = f"history[{j}]"
        if not isinstance(entry, Mapping) or set(entry) != {"played", "drawn"}:
            raise _err(f"{where}={entry!r}: expected {{'played': [...], 'drawn': [...]}}")
        played = _per_seat(entry, "played", n, None)
        drawn = _per_seat(entry, "drawn", n, None)
        trick = 0
        sizes = set()
        for p in range(n):
            cards = _cards(f"{where}.played[{p}]", played[p])
            sizes.add(len(cards))
            for c in cards:
                if c in owner:
                    raise _err(f"{where}.played[{p}]: {BURA.name(c)} is held or played twice")
                owner[c], left[c] = p, j
                trick |= 1 << c
            for c in _cards(f"{where}.drawn[{p}]", drawn[p]):
                if c in drawn_at:
                    raise _err(f"{where}.drawn[{p}]: {BURA.name(c)} is drawn twice")
                drawn_at[c] = (p, j + 1)
        if len(sizes) != 1 or not 1 <= min(sizes) <= HAND_SIZE:
            raise _err(f"{where}.played: 1 to 3 cards from every seat, the same number")
        if not any(trick & ~pile == 0 for pile in piles):
            raise _err(f"{where}: the trick's cards do not lie in one pile")
    in_piles = [c for pile in piles for c in _bits(pile)]
    if any(c not in left for c in in_piles):
        raise _err("history: every card of the piles must be a played card of the history")
    for c, (p, cp) in drawn_at.items():
        if owner.get(c) != p or left.get(c, tricks) < cp:
            raise _err(f"history: {BURA.name(c)}, drawn by seat {p} after trick {cp - 1}, is "
                       "not in his hand nor played by him later")
    trump = int(vec[TRUMP_CARD])
    if trump in drawn_at and any(cp > drawn_at[trump][1] for _, cp in drawn_at.values()):
        raise _err("history: the turned trump card is the last card drawn")
    got = {c: drawn_at.get(c, (p, 0)) for c, p in owner.items()}
    for p in range(n):
        if sum(1 for q, cp in got.values() if (q, cp) == (p, 0)) != HAND_SIZE:
            raise _err(f"history: seat {p} must have been dealt {HAND_SIZE} cards")
        if any(owner.get(c) != p for c in _bits(vec[THROWN + p])):
            raise _err(f"thrown_down[{p}]: a card seat {p} did not play")
    for cp in range(tricks + 1):
        sizes = {sum(1 for c, (q, at) in got.items() if q == p and at <= cp
                     and left.get(c, tricks) >= cp) for p in range(n)}
        if len(sizes) != 1:
            raise _err(f"history: the hands differ in size at check point {cp}")
    return got


def _check_flow(vec: np.ndarray, rules: Any, d: Mapping, phase: int, in_trick: bool) -> None:
    """Hand and stock sizes, the trick and whose turn it is must fit the phase (BU-DRAW-3,
    BU-RESP-1)."""
    n = rules.num_players
    sizes = [bin(int(vec[HAND + p])).count("1") for p in range(n)]
    stock = N_CARDS - int(vec[NEXT])
    if stock % n:
        raise _err(f"stock of {stock} cards: expected a multiple of {n} (hands stay equal)")
    if any(s > HAND_SIZE for s in sizes):
        raise _err(f"hand sizes {sizes}: at most {HAND_SIZE} cards")
    leader, to_move = int(vec[LEADER]), int(vec[TO_MOVE])
    if phase == PHASE_ANSWER:
        if not in_trick:
            raise _err("phase 'answer' needs a trick")
        k = int(vec[TRICK_K])
        order = [(leader + i) % n for i in range(n)]
        done = order[:order.index(to_move)] if to_move != leader else None
        if done is None:
            raise _err(f"to_move={to_move} is the trick's leader: the answers go round once")
        played = [bin(int(vec[TRICK_PLAYED + p])).count("1") for p in range(n)]
        expected = [k if p in done else 0 for p in range(n)]
        if played != expected:
            raise _err(f"trick.played sizes {played}: expected {expected} ({k} cards each from "
                       f"the leader {leader} up to seat {to_move})")
        before = [sizes[p] + played[p] for p in range(n)]
        if len(set(before)) != 1:
            raise _err(f"hand sizes {sizes}: with the trick's cards they must be equal")
        if stock and before[0] != HAND_SIZE:
            raise _err(f"hand sizes {sizes}: {HAND_SIZE} cards each while the stock holds cards")
        return
    if in_trick:
        raise _err(f"a trick lies on the table in phase {PHASE_NAMES[phase]!r}")
    if phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER):
        return
    if len(set(sizes)) != 1 or (stock and sizes[0] != HAND_SIZE):
        raise _err(f"hand sizes {sizes}: equal, and {HAND_SIZE} each while the stock holds cards")
    if phase == PHASE_STOP and to_move == leader:
        raise _err("phase 'stop' asks a player other than the leader")
    if phase in (PHASE_CHECK, PHASE_CLAIM, PHASE_LEAD) and to_move != leader:
        raise _err(f"to_move={to_move}: the leader {leader} decides in phase "
                   f"{PHASE_NAMES[phase]!r}")
    if sizes[0] == 0 and phase != PHASE_CLAIM:
        raise _err("every card is played: only the claim decision (phase 'claim') remains")


# --- actions -----------------------------------------------------------------------------------

def action_parts(action: int) -> tuple[int, int]:
    """(kind, card mask) of an action id."""
    kind = action >> KIND_SHIFT
    if action < 0 or kind >= len(KIND_NAMES) or (action & CARDS_MASK) >> N_CARDS:
        raise IllegalActionError(f"{action!r} is not a bura action id")
    return kind, action & CARDS_MASK


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, cards = action_parts(action)
    if kind in (CLAIM, NO_CLAIM):
        return {"claim": kind == CLAIM}
    if kind == PASS:
        return {"stop": False}
    if kind == STOP:
        return {"stop": True, "play": names(cards)}
    return {"play": names(cards), "mode": KIND_NAMES[kind]}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"lead As+Ks"``, ``"beat 9d"``, ``"claim"``, ``"pass"``, ..."""
    kind, cards = action_parts(action)
    text = KIND_NAMES[kind]
    return f"{text} {'+'.join(names(cards))}" if cards else text


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict; it must be legal here."""
    expected = ("{'play': [cards], 'mode': 'lead'|'beat'|'throw_down'|'throw_up'}, "
                "{'claim': true|false} or {'stop': true, 'play': [cards]} / {'stop': false}")
    if not isinstance(d, Mapping):
        raise IllegalActionError(f"action {d!r}: expected {expected}")
    if set(d) == {"claim"} and isinstance(d["claim"], bool):
        action = (CLAIM if d["claim"] else NO_CLAIM) << KIND_SHIFT
    elif set(d) == {"stop"} and d["stop"] is False:
        action = PASS << KIND_SHIFT
    elif set(d) == {"stop", "play"} and d["stop"] is True:
        action = STOP << KIND_SHIFT | BURA.mask(d["play"])
    elif set(d) == {"play", "mode"} and d["mode"] in KIND_NAMES[:4]:
        action = KIND_NAMES.index(d["mode"]) << KIND_SHIFT | BURA.mask(d["play"])
    else:
        raise IllegalActionError(f"action {d!r}: expected {expected}")
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {action_to_string(vec, action)}: expected one of "
            + (", ".join(action_to_string(vec, a) for a in legal) or "nothing (terminal)"))
    return action


# --- views -------------------------------------------------------------------------------------

def pile_points(vec: np.ndarray, seat: int) -> int:
    """BU-END-4: the points of a seat's whole pile (face-down cards included)."""
    cards = int(vec[PILE_UP + seat]) | int(vec[PILE_DOWN + seat])
    return sum(int(POINTS[c]) for c in range(N_CARDS) if cards >> c & 1)


def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """Per seat: pile points (face-up, face-down, total), the deal's result and the scores."""
    n = rules.num_players
    up = [sum(int(POINTS[c]) for c in range(N_CARDS) if int(vec[PILE_UP + p]) >> c & 1)
          for p in range(n)]
    total = [pile_points(vec, p) for p in range(n)]
    result = to_dict(vec, rules)["result"]
    return {"points_up": up, "points_down": [t - u for t, u in zip(total, up)],
            "points": total, "result": result, "scores": [int(vec[SCORE + p]) for p in range(n)]}


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees (rules §5): own hand and own face-down throws, every face-up card,
    the count of face-down cards in each pile and in the trick (a face-down card is known when
    it is the turned trump card or was shown at a refused Stop), sizes, turn and result, and
    the deal's history as he saw it: each trick's visible cards, and his own draws (of the
    others' draws only their number and the turned trump card)."""
    n = rules.num_players
    full = to_dict(vec, rules)
    trump = int(vec[TRUMP_CARD])
    holder = next((p for p in range(n) if int(vec[HAND + p]) >> trump & 1), None)
    mine = int(vec[THROWN + player])
    shown = int(sum(int(vec[REVEALED + p]) for p in range(n)))
    hidden = int(sum(int(vec[THROWN + p]) for p in range(n))) & ~(mine | 1 << trump | shown)
    secret = set(names(hidden))
    past = full["history"]
    if past is not None:
        past = [{"played": [[c for c in h["played"][p] if c not in secret] for p in range(n)],
                 "face_down": [sum(c in secret for c in h["played"][p]) for p in range(n)],
                 "drawn": [h["drawn"][p] if p == player else
                           [c for c in h["drawn"][p] if c == full["trump_card"]]
                           for p in range(n)],
                 "drawn_count": [len(h["drawn"][p]) for p in range(n)]} for h in past]
    trick = None
    if full["trick"] is not None:
        t = full["trick"]
        trick = {**t, "played": [names(int(vec[TRICK_PLAYED + p]) & ~hidden) for p in range(n)],
                 "face_down": [bin(int(vec[TRICK_PLAYED + p]) & hidden).count("1")
                               for p in range(n)]}
    zones = [("stock", None)] + [(z, p) for p in range(n) for z in ("hand", "pile_up",
                                                                   "pile_down", "trick")]
    offsets = {"hand": HAND, "pile_up": PILE_UP, "pile_down": PILE_DOWN, "trick": TRICK_PLAYED}
    place = next({"zone": z, "seat": p} for z, p in zones
                 if (z == "stock" and int(vec[STOCK]) >> trump & 1)
                 or (z != "stock" and int(vec[offsets[z] + p]) >> trump & 1))
    return {
        "player": player, "hand": full["hands"][player],
        "trump_card_place": place, "stop_round": full["stop_round"],
        "revealed": full["revealed"], "revealed_at": full["revealed_at"], "history": past,
        "hand_sizes": [len(h) for h in full["hands"]],
        "trump_card": full["trump_card"], "trump_card_holder": holder,
        "stock_size": len(full["stock"]),
        "piles": [{"up": full["piles"][p]["up"],
                   "down": names(int(vec[PILE_DOWN + p]) & ~hidden),
                   "down_unknown": bin(int(vec[PILE_DOWN + p]) & hidden).count("1"),
                   "down_by_thrower": [bin(int(vec[PILE_DOWN + p]) & int(vec[THROWN + q]))
                                       .count("1") for q in range(n)]}
                  for p in range(n)],
        "thrown_down": full["thrown_down"][player],
        "trick": trick, "phase": full["phase"], "to_move": full["to_move"],
        "leader": full["leader"], "dealer": full["dealer"], "result": full["result"],
        "scores": full["scores"], "mode": full["mode"], "deal_number": full["deal_number"],
        "last_trick_taker": full["last_trick_taker"], "tricks": full["tricks"],
    }
