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

from ...cards import mask_of
from ...compiled import order as deal_order
from ...errors import IllegalActionError
from ...protocol import planes
from ...protocol.options import rules_dict
from ...protocol.positions import check_each_card_once, check_header, require_legal, rng_words
from . import layout as L
from . import validation as V
from .layout import DECK

_KEYS = {"game", "rules", "mode", "phase", "dealer", "to_move", "leader", "trump_card", "hands",
         "stock", "piles", "thrown_down", "trick", "result", "scores", "deal_number", "redeals",
         "last_trick_taker", "tricks", "first_leader", "stop_round", "revealed", "revealed_at",
         "history", "rng"}


def names(mask) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(int(mask))


def seats_of(mask) -> list[int]:
    """Seats of a seat mask."""
    return [s for s in range(4) if int(mask) >> s & 1]


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    n = rules.num_players
    phase = int(vec[L.PHASE])
    over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    trick = None
    if vec[L.TRICK_K]:
        trick = {"leader": int(vec[L.LEADER]), "k": int(vec[L.TRICK_K]),
                 "played": [names(vec[L.TRICK_PLAYED + p]) for p in range(n)],
                 "top": names(vec[L.TRICK_TOP]), "holder": int(vec[L.TRICK_HOLDER])}
    result = None
    if vec[L.RESULT] != L.RESULT_NONE:
        result = {"kind": L.RESULT_NAMES[int(vec[L.RESULT])], "winners": seats_of(vec[L.WINNERS]),
                  "multiplier": int(vec[L.MULTIPLIER]), "claim_points": int(vec[L.CLAIM_POINTS])}
    ltt = int(vec[L.LAST_TRICK_TAKER])
    return {
        "game": "bura", "rules": rules_dict(rules),
        "mode": "match" if vec[L.MODE] == L.MODE_MATCH else "deal",
        "phase": L.PHASE_NAMES[phase], "dealer": int(vec[L.DEALER]),
        "to_move": None if over else int(vec[L.TO_MOVE]), "leader": int(vec[L.LEADER]),
        "trump_card": DECK.name(int(vec[L.TRUMP_CARD])),
        "hands": [names(vec[L.HAND + p]) for p in range(n)],
        "stock": [DECK.name(deal_order.order_card(vec, L.ORDER, i))
                  for i in range(int(vec[L.NEXT]), L.N_CARDS)],
        "piles": [{"up": names(vec[L.PILE_UP + p]), "down": names(vec[L.PILE_DOWN + p])}
                  for p in range(n)],
        "thrown_down": [names(vec[L.THROWN + p]) for p in range(n)],
        "trick": trick, "result": result,
        "scores": [int(vec[L.SCORE + p]) for p in range(n)],
        "deal_number": int(vec[L.DEAL_NUMBER]), "redeals": int(vec[L.REDEALS]),
        "last_trick_taker": ltt - 1 if ltt else None, "tricks": int(vec[L.TRICKS]),
        "first_leader": int(vec[L.FIRST_LEADER]),
        "stop_round": V.STOP_ROUNDS[int(vec[L.STOP_ROUND])] if phase == L.PHASE_STOP else None,
        "revealed": [names(vec[L.REVEALED + p]) for p in range(n)],
        "revealed_at": {DECK.name(c): shown - 1
                        for c, shown in enumerate(log_bytes(vec, L.SHOWN)) if shown},
        "history": history(vec, n),
        "rng": [int(x) for x in vec[L.RNG:L.RNG + 4]],
    }


def log_bytes(vec: np.ndarray, offset: int) -> list[int]:
    """Every card's byte in one of the deal's logs (``GOT``, ``LEFT``, ``SHOWN``: layout.py)."""
    return vec[offset:offset + L.LOG_WORDS].view(np.uint8)[:L.N_CARDS].tolist()


def history(vec: np.ndarray, n: int) -> list[dict] | None:
    """The finished tricks of the deal from its log: who played and who drew what; None when
    the log does not reach back to the deal's start (a position given without history)."""
    got, left = log_bytes(vec, L.GOT), log_bytes(vec, L.LEFT)
    stock = int(vec[L.STOCK])
    if any(not got[c] for c in range(L.N_CARDS) if not stock >> c & 1):
        return None
    tricks = int(vec[L.TRICKS])
    out = [{"played": [[] for _ in range(n)], "drawn": [[] for _ in range(n)]}
           for _ in range(tricks)]
    for c in range(L.N_CARDS):           # in index order: every list comes out sorted
        if not got[c]:
            continue
        seat, at = (got[c] - 1) & 3, (got[c] - 1) >> 2
        if 0 < left[c] <= tricks:
            out[left[c] - 1]["played"][seat].append(DECK.name(c))
        if 0 < at <= tricks:
            out[at - 1]["drawn"][seat].append(DECK.name(c))
    return out


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem
    (the checks: :mod:`.validation`)."""
    check_header(d, rules, "bura", _KEYS, ("phase", "dealer", "leader", "trump_card", "hands",
                                           "stock"))
    n = rules.num_players
    vec = np.zeros(L.STATE_LEN, dtype=np.uint64)
    if d.get("mode", "deal") not in ("deal", "match"):
        raise V.error(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    vec[L.MODE] = L.MODE_MATCH if d.get("mode", "deal") == "match" else 0
    if d["phase"] not in L.PHASE_NAMES:
        raise V.error(f"phase={d['phase']!r}: expected one of {', '.join(L.PHASE_NAMES)}")
    phase = L.PHASE_NAMES.index(d["phase"])
    vec[L.PHASE] = phase
    over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    vec[L.DEALER] = V.seat(d, "dealer", n)
    vec[L.LEADER] = V.seat(d, "leader", n)
    if over and d.get("to_move") is not None:
        raise V.error(f"to_move={d['to_move']!r}: expected None once the deal is over")
    vec[L.TO_MOVE] = 0 if over else V.seat(d, "to_move", n)
    trump = V.cards("trump_card", [d["trump_card"]])[0]
    vec[L.TRUMP_CARD] = trump
    trick = _cards_into(vec, rules, d, trump)
    V.check_flow(vec, rules, phase, trick is not None)
    _result_into(vec, rules, d, over)
    _counters_into(vec, rules, d)
    stop_round = V.stop_round_index(rules, phase, d.get("stop_round"))
    if stop_round is not None:
        vec[L.STOP_ROUND] = stop_round
    revealed = V.per_seat(d, "revealed", n, [[]] * n)
    for p in range(n):
        vec[L.REVEALED + p] = _mask(V.cards(f"revealed[{p}]", revealed[p]))
    got, left, shown = V.deal_log(vec, rules, d,
                                  int(sum(int(vec[L.REVEALED + p]) for p in range(n))))
    for c, (p, cp) in got.items():
        deal_order.set_order_card(vec, L.GOT, c, 1 + p + 4 * cp)
    for c, j in left.items():
        deal_order.set_order_card(vec, L.LEFT, c, 1 + j)
    for c, cp in shown.items():
        deal_order.set_order_card(vec, L.SHOWN, c, 1 + cp)
    vec[L.RNG:L.RNG + 4] = rng_words(d, "bura")
    return vec


def _cards_into(vec: np.ndarray, rules: Any, d: Mapping, trump: int) -> Any:
    """Hands, stock, piles, face-down throws and the trick into ``vec``, each card exactly
    once; returns the trick dict (or None)."""
    n = rules.num_players
    zones: dict[str, list[int]] = {}
    hands = V.per_seat(d, "hands", n, None)
    for p in range(n):
        zones[f"hands[{p}]"] = V.cards(f"hands[{p}]", hands[p])
    stock = V.cards("stock", d["stock"])
    zones["stock"] = stock
    piles = V.per_seat(d, "piles", n, [{"up": [], "down": []}] * n)
    for p in range(n):
        if not isinstance(piles[p], Mapping) or set(piles[p]) - {"up", "down"}:
            raise V.error(f"piles[{p}]={piles[p]!r}: expected {{'up': [cards], 'down': [cards]}}")
        zones[f"piles[{p}].up"] = V.cards(f"piles[{p}].up", piles[p].get("up", []))
        zones[f"piles[{p}].down"] = V.cards(f"piles[{p}].down", piles[p].get("down", []))
    trick = d.get("trick")
    if trick is not None:
        if not isinstance(trick, Mapping) or set(trick) != {"leader", "k", "played", "top",
                                                           "holder"}:
            raise V.error(f"trick={trick!r}: expected leader, k, played, top and holder")
        played = V.per_seat(trick, "played", n, None)
        for p in range(n):
            zones[f"trick.played[{p}]"] = V.cards(f"trick.played[{p}]", played[p])
    check_each_card_once(DECK, zones, "hands, stock, piles or the trick")

    for p in range(n):
        vec[L.HAND + p] = _mask(zones[f"hands[{p}]"])
        vec[L.PILE_UP + p] = _mask(zones[f"piles[{p}].up"])
        vec[L.PILE_DOWN + p] = _mask(zones[f"piles[{p}].down"])
    vec[L.STOCK] = _mask(stock)
    vec[L.NEXT] = L.N_CARDS - len(stock)
    for i, c in enumerate(stock):
        deal_order.set_order_card(vec, L.ORDER, L.N_CARDS - len(stock) + i, c)
    V.check_stock(stock, trump, d["trump_card"])
    thrown = V.per_seat(d, "thrown_down", n, [[]] * n)
    for p in range(n):
        vec[L.THROWN + p] = _mask(V.cards(f"thrown_down[{p}]", thrown[p]))
    if trick is not None:
        k = V.count(trick, "k", 1, 3)
        if k < 1:
            raise V.error("trick.k=0: a trick has 1 to 3 cards per player")
        vec[L.TRICK_K] = k
        if V.seat(trick, "leader", n) != vec[L.LEADER]:       # one leader, written twice
            raise V.error(f"trick.leader={trick['leader']!r} but leader={d['leader']!r}: the "
                          "trick's leader is the leader")
        vec[L.TRICK_HOLDER] = V.seat(trick, "holder", n)
        vec[L.TRICK_TOP] = _mask(V.cards("trick.top", trick["top"]))
        for p in range(n):
            vec[L.TRICK_PLAYED + p] = _mask(zones[f"trick.played[{p}]"])
    V.check_thrown_down(vec, rules)
    return trick


def _result_into(vec: np.ndarray, rules: Any, d: Mapping, over: bool) -> None:
    """The deal's result into ``vec``: there is one exactly when the deal or match is over."""
    n = rules.num_players
    result = d.get("result")
    if result is not None:
        if not isinstance(result, Mapping) or result.get("kind") not in L.RESULT_NAMES[1:] \
                or set(result) - {"kind", "winners", "multiplier", "claim_points"}:
            raise V.error(f"result={result!r}: expected kind one of {', '.join(L.RESULT_NAMES[1:])}"
                          " and some of winners, multiplier, claim_points")
        vec[L.RESULT] = L.RESULT_NAMES.index(result["kind"])
        winners = result.get("winners", [])
        if isinstance(winners, str) or not isinstance(winners, (list, tuple)) \
                or len(set(map(repr, winners))) != len(winners):
            raise V.error(f"result.winners={winners!r}: expected a list of distinct seats")
        vec[L.WINNERS] = sum(1 << V.seat(result, "winners", n, w) for w in winners)
        vec[L.MULTIPLIER] = V.count(result, "multiplier", 1, 2)
        vec[L.CLAIM_POINTS] = V.count(result, "claim_points", 0, 120)
    if over != (result is not None):
        raise V.error("a finished deal or match needs a result, and only it")


def _counters_into(vec: np.ndarray, rules: Any, d: Mapping) -> None:
    """Scores, deal and redeal numbers, tricks, the last trick's taker and the first leader."""
    n = rules.num_players
    scores = V.per_seat(d, "scores", n, [0] * n)
    for p in range(n):
        vec[L.SCORE + p] = V.count({"scores": scores[p]}, "scores", 0, 1000)
    vec[L.DEAL_NUMBER] = V.count(d, "deal_number", 1, 1_000_000)
    if vec[L.DEAL_NUMBER] == 0:
        raise V.error("deal_number=0: expected 1 or more (the first deal is 1)")
    vec[L.REDEALS] = V.count(d, "redeals", 0, 1_000_000)
    vec[L.TRICKS] = V.count(d, "tricks", 0, 36)
    ltt = V.seat(d, "last_trick_taker", n, optional=True)
    vec[L.LAST_TRICK_TAKER] = 0 if ltt is None else ltt + 1
    vec[L.FIRST_LEADER] = V.seat(d, "first_leader", n, d.get("first_leader", d["leader"]))


def _mask(cards: list[int]) -> np.uint64:
    return np.uint64(mask_of(cards))


# --- actions -----------------------------------------------------------------------------------

def action_parts(action: int) -> tuple[int, int]:
    """(kind, card mask) of an action id."""
    kind = action >> L.KIND_SHIFT
    if action < 0 or kind >= len(L.KIND_NAMES) or (action & L.CARDS_MASK) >> L.N_CARDS:
        raise IllegalActionError(f"{action!r} is not a bura action id")
    return kind, action & L.CARDS_MASK


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, cards = action_parts(action)
    if kind in (L.CLAIM, L.NO_CLAIM):
        return {"claim": kind == L.CLAIM}
    if kind == L.PASS:
        return {"stop": False}
    if kind == L.STOP:
        return {"stop": True, "play": names(cards)}
    return {"play": names(cards), "mode": L.KIND_NAMES[kind]}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"lead As+Ks"``, ``"beat 9d"``, ``"claim"``, ``"pass"``, ..."""
    kind, cards = action_parts(action)
    text = L.KIND_NAMES[kind]
    return f"{text} {'+'.join(names(cards))}" if cards else text


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict; it must be legal here."""
    expected = ("{'play': [cards], 'mode': 'lead'|'beat'|'throw_down'|'throw_up'}, "
                "{'claim': true|false} or {'stop': true, 'play': [cards]} / {'stop': false}")
    if not isinstance(d, Mapping):
        raise IllegalActionError(f"action {d!r}: expected {expected}")
    if set(d) == {"claim"} and isinstance(d["claim"], bool):
        action = (L.CLAIM if d["claim"] else L.NO_CLAIM) << L.KIND_SHIFT
    elif set(d) == {"stop"} and d["stop"] is False:
        action = L.PASS << L.KIND_SHIFT
    elif set(d) == {"stop", "play"} and d["stop"] is True:
        action = L.STOP << L.KIND_SHIFT | DECK.mask(d["play"])
    elif set(d) == {"play", "mode"} and d["mode"] in L.KIND_NAMES[:4]:
        action = L.KIND_NAMES.index(d["mode"]) << L.KIND_SHIFT | DECK.mask(d["play"])
    else:
        raise IllegalActionError(f"action {d!r}: expected {expected}")
    return require_legal(action, legal, lambda a: action_to_string(vec, a))


# --- views -------------------------------------------------------------------------------------

def pile_points(vec: np.ndarray, seat: int) -> int:
    """BU-END-4: the points of a seat's whole pile (face-down cards included)."""
    cards = int(vec[L.PILE_UP + seat]) | int(vec[L.PILE_DOWN + seat])
    return sum(int(L.POINTS[c]) for c in range(L.N_CARDS) if cards >> c & 1)


def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """Per seat: pile points (face-up, face-down, total), the deal's result and the scores."""
    n = rules.num_players
    up = [sum(int(L.POINTS[c]) for c in range(L.N_CARDS) if int(vec[L.PILE_UP + p]) >> c & 1)
          for p in range(n)]
    total = [pile_points(vec, p) for p in range(n)]
    result = to_dict(vec, rules)["result"]
    return {"points_up": up, "points_down": [t - u for t, u in zip(total, up)],
            "points": total, "result": result, "scores": [int(vec[L.SCORE + p]) for p in range(n)]}


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees (rules §5): own hand and own face-down throws, every face-up card,
    the count of face-down cards in each pile and in the trick (a face-down card is known when
    it is the turned trump card or was shown at a refused Stop), sizes, turn and result, and
    the deal's history as he saw it: each trick's visible cards, and his own draws (of the
    others' draws only their number and the turned trump card)."""
    n = rules.num_players
    full = to_dict(vec, rules)
    trump = int(vec[L.TRUMP_CARD])
    holder = next((p for p in range(n) if int(vec[L.HAND + p]) >> trump & 1), None)
    mine = int(vec[L.THROWN + player])
    shown = int(sum(int(vec[L.REVEALED + p]) for p in range(n)))
    hidden = int(sum(int(vec[L.THROWN + p]) for p in range(n))) & ~(mine | 1 << trump | shown)
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
        trick = {**t, "played": [names(int(vec[L.TRICK_PLAYED + p]) & ~hidden) for p in range(n)],
                 "face_down": [bin(int(vec[L.TRICK_PLAYED + p]) & hidden).count("1")
                               for p in range(n)]}
    zones = [("stock", None)] + [(z, p) for p in range(n) for z in ("hand", "pile_up",
                                                                   "pile_down", "trick")]
    offsets = {"hand": L.HAND, "pile_up": L.PILE_UP, "pile_down": L.PILE_DOWN, "trick": L.TRICK_PLAYED}
    place = next({"zone": z, "seat": p} for z, p in zones
                 if (z == "stock" and int(vec[L.STOCK]) >> trump & 1)
                 or (z != "stock" and int(vec[offsets[z] + p]) >> trump & 1))
    return {
        "player": player, "hand": full["hands"][player],
        "trump_card_place": place, "stop_round": full["stop_round"],
        "revealed": full["revealed"], "revealed_at": full["revealed_at"], "history": past,
        "hand_sizes": [len(h) for h in full["hands"]],
        "trump_card": full["trump_card"], "trump_card_holder": holder,
        "stock_size": len(full["stock"]),
        "piles": [{"up": full["piles"][p]["up"],
                   "down": names(int(vec[L.PILE_DOWN + p]) & ~hidden),
                   "down_unknown": bin(int(vec[L.PILE_DOWN + p]) & hidden).count("1"),
                   "down_by_thrower": [bin(int(vec[L.PILE_DOWN + p]) & int(vec[L.THROWN + q]))
                                       .count("1") for q in range(n)]}
                  for p in range(n)],
        "thrown_down": full["thrown_down"][player],
        "trick": trick, "phase": full["phase"], "to_move": full["to_move"],
        "leader": full["leader"], "dealer": full["dealer"], "result": full["result"],
        "scores": full["scores"], "mode": full["mode"], "deal_number": full["deal_number"],
        "last_trick_taker": full["last_trick_taker"], "tricks": full["tricks"],
    }


def deal_columns(vec: np.ndarray, rules: Any) -> dict:
    """What a finished deal's row in an experiment store records besides its returns and
    categories (:mod:`cardsim.experiments.rows`): the deal's first leader and the last trick's taker
    (seats; -1 when the deal had no trick), which decide the next deal's first leader in a
    match (BU-LEAD-2)."""
    return {"first_leader": int(vec[L.FIRST_LEADER]),
            "last_trick": int(vec[L.LAST_TRICK_TAKER]) - 1}


def _played(o, n):
    """Per seat, the cards it played this deal (its tricks' cards)."""
    return [[c for trick in o.get("history") or [] for c in planes.flat(trick["played"][s])]
            for s in range(n)]


OBSERVATION_PLANES = (
    ("hand", planes.one(lambda o: o["hand"])),
    ("trump_card", planes.one(lambda o: o["trump_card"])),
    ("trick", planes.one(lambda o: (o["trick"] or {}).get("played"))),
    ("thrown_down", planes.one(lambda o: o.get("thrown_down"))),
    ("pile_up", planes.per_seat("piles", "up")), ("pile_down", planes.per_seat("piles", "down")),
    ("played", _played))
"""The card planes of the observation tensors (:attr:`cardsim.protocol.spec.GameDefinition.
observation_planes`): hand, trump card, current trick, cards thrown face down (known to the
player), then per seat: face-up pile, face-down pile (cards the player knows), cards played
this deal."""
