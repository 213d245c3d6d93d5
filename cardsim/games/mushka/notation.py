"""Mushka positions, actions and observations as text and JSON-ready dicts.

Position dict (``to_dict`` output, ``from_dict`` input; every key required, in this order)::

    {"game": "mushka", "rules": {every MushkaRules field}, "mode": "deal" | "match",
     "phase": "discard" | "exchange" | "play" | "stop" | "deal_over" | "match_over",
     "dealer": seat, "to_move": seat (None when over), "deal_number": 1..,
     "trump_card": "9d", "trump_taken": bool,
     "records": [int per seat], "start_records": [int per seat] (when this deal began),
     "hands": [[cards] per seat] (a passed hand stays here), "discards": [[cards] per seat],
     "decisions": [None | "pass" | "stand" | k per seat], "stock": [cards, next first],
     "active": [seats] ([] until the exchange is over), "ace_holder": seat | None,
     "ace_bonus_taken": bool, "leader": seat | None (None until play starts),
     "trick": [[seat, card], ...] (playing order), "tricks_won": [int per seat],
     "tricks_played": int, "lone_tricks_left": int, "played": [[cards] per seat],
     "excluded": [[cards] per seat] (publicly known not to be in that hand),
     "stop_offer": None | {"seat": s, "at": "play" | "bonus" | "end"},
     "void": bool, "stopper": seat | None, "winners": [seats], "rng": [4 uint64]}

Card lists are sorted by index except the stock (next card first) and the trick (playing
order). ``leader`` is None while no play takes place: before the exchange is over, and in a deal
with fewer than two active seats (void, or a lone player credited with the tricks); after the
last trick it is that trick's winner. ``excluded`` lists only cards of the rules' deck (the
kernels' suit masks also cover the 2..6 of a short deck, which no hand can hold anyway).

``from_dict`` checks the types and ranges of every key, then that each card of the deck is in
exactly one place, that decisions, discards, hands, the stock, the trick, the leader and the
seat to move fit the phase, and that every record follows from its start record, the tricks
won, the ace bonus and the remises (MU-SCORE-*, MU-STOP-2/3: :mod:`.validation`); any
failure is a one-line :class:`~cardsim.errors.PositionError` (a bad card name also a
:class:`~cardsim.errors.CardError`). It rebuilds the deal order: the stock fills the last
positions (``NEXT`` = deck size - stock size, which is ``5n + 1`` before anyone drew), the
positions before it hold :data:`cardsim.compiled.order.UNKNOWN` (no kernel reads a dealt position). The
dict does not say whether a finished deal's stopper stopped at an end-of-deal offer (after the
remises) or earlier; the records tell, and ``STOP_AT`` is set to match.

Action dict: ``{"play": "Th"}``, ``{"exchange": ["7c", "9d"]}``, ``{"stand": True}``,
``{"pass": True}``, ``{"discard": "8s"}``, ``{"stop": True}``, ``{"stop": False}`` (play on);
text ``"play Th"``, ``"exchange 7c+9d"``, ``"stand"``, ``"pass"``, ``"discard 8s"``, ``"stop"``,
``"play_on"``. The ids other seats observe: an exchange of k unseen cards ``7 << 52 | k`` is
``{"exchange": k}`` / ``"exchange 3"``, the dealer's unseen discard ``4 << 52`` is
``{"discard": None}`` / ``"discard"``; neither is ever legal.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...cards import mask_of
from ...compiled.order import UNKNOWN
from ...errors import CardError, IllegalActionError
from ...protocol import planes
from ...protocol.options import rules_dict
from ...protocol.positions import Fields, check_header, is_int, require_legal, rng_words
from . import layout as L
from .layout import DECK
from .rules import MAX_DEALS
from .validation import (
    STOP_AT_NAMES,
    check_position,
    decision_value,
    nominal_bonus,
    remise_of,
    simulate_record,
)

GAME = "mushka"
KEYS = ("game", "rules", "mode", "phase", "dealer", "to_move", "deal_number", "trump_card",
        "trump_taken", "records", "start_records", "hands", "discards", "decisions", "stock",
        "active", "ace_holder", "ace_bonus_taken", "leader", "trick", "tricks_won",
        "tricks_played", "lone_tricks_left", "played", "excluded", "stop_offer", "void",
        "stopper", "winners", "rng")
MODE_NAMES = ("deal", "match")
MAX_RECORD = 1_000_000      # records are uint64 words; a sanity bound for from_dict
MAX_DEAL_NUMBER = MAX_DEALS       # the longest game (max_deals)


# --- reading the state -------------------------------------------------------------------------

def names(mask) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(int(mask))


def seats_of(mask, n: int) -> list[int]:
    """Seats of a seat mask."""
    return [s for s in range(n) if int(mask) >> s & 1]


def popcount(mask) -> int:
    """Number of set bits."""
    return bin(int(mask)).count("1")


def order_bytes(vec: np.ndarray) -> np.ndarray:
    """The deal order as bytes, a (writable) view of the state's words: byte i = position i."""
    return vec[L.ORDER:L.ORDER + L.ORDER_WORDS].view(np.uint8)


def stock_cards(vec: np.ndarray, rules: Any) -> list[int]:
    """The stock, next card first (deal-order positions ``NEXT`` .. deck size - 1)."""
    order = order_bytes(vec)
    return [int(order[i]) for i in range(int(vec[L.NEXT]), rules.deck_size)]


def play_started(vec: np.ndarray) -> bool:
    """True once the exchange is over with at least two active seats (the play phase, or
    later)."""
    phase = int(vec[L.PHASE])
    return phase not in (L.PHASE_DISCARD, L.PHASE_EXCHANGE) and popcount(vec[L.ACTIVE]) >= 2


def trick_of(vec: np.ndarray, n: int) -> list[list]:
    """The current trick as [[seat, card name], ...] in playing order (from the leader)."""
    leader = int(vec[L.LEADER]) % n
    out = []
    for i in range(n):
        s = (leader + i) % n
        t = int(vec[L.TRICK_CARD + s])
        if t:
            out.append([s, DECK.name(t - 1)])
    return out


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    n = rules.num_players
    phase = int(vec[L.PHASE])
    over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    started = play_started(vec)
    holder, stopper = int(vec[L.ACE_HOLDER]), int(vec[L.STOPPER])
    offer = None
    if phase == L.PHASE_STOP:
        offer = {"seat": int(vec[L.STOP_SEAT]), "at": STOP_AT_NAMES[int(vec[L.STOP_AT])]}
    return {
        "game": GAME, "rules": rules_dict(rules),
        "mode": "match" if int(vec[L.MODE]) == L.MODE_MATCH else "deal",
        "phase": L.PHASE_NAMES[phase], "dealer": int(vec[L.DEALER]),
        "to_move": None if over else int(vec[L.TO_MOVE]),
        "deal_number": int(vec[L.DEAL_NUMBER]),
        "trump_card": DECK.name(int(vec[L.TRUMP_CARD])), "trump_taken": bool(vec[L.TRUMP_TAKEN]),
        "records": [int(vec[L.RECORD + p]) for p in range(n)],
        "start_records": [int(vec[L.START_RECORD + p]) for p in range(n)],
        "hands": [names(vec[L.HAND + p]) for p in range(n)],
        "discards": [names(vec[L.DISCARDS + p]) for p in range(n)],
        "decisions": [decision_value(vec[L.DECISION + p]) for p in range(n)],
        "stock": [DECK.name(c) for c in stock_cards(vec, rules)],
        "active": seats_of(vec[L.ACTIVE], n),
        "ace_holder": holder - 1 if holder else None,
        "ace_bonus_taken": bool(vec[L.BONUS_TAKEN]),
        "leader": int(vec[L.LEADER]) if started else None,
        "trick": trick_of(vec, n) if started else [],
        "tricks_won": [int(vec[L.TRICKS_WON + p]) for p in range(n)],
        "tricks_played": int(vec[L.TRICK_NUMBER]),
        "lone_tricks_left": int(vec[L.LONE_LEFT]),
        "played": [names(vec[L.PLAYED + p]) for p in range(n)],
        "excluded": [names(int(vec[L.EXCLUDED + p]) & rules.deck_mask) for p in range(n)],
        "stop_offer": offer,
        "void": bool(vec[L.VOID_DEAL]),
        "stopper": stopper - 1 if stopper else None,
        "winners": seats_of(vec[L.WINNERS], n),
        "rng": [int(x) for x in vec[L.RNG:L.RNG + 4]],
    }


# --- from_dict ---------------------------------------------------------------------------------

_F = Fields(DECK)
_err = _F.error


def _int(key: str, value: Any, lo: int, hi: int) -> int:
    return _F.integer(key, value, lo, hi,
                      "a non-negative integer" if lo == 0 and hi >= MAX_RECORD else None)


def _seat_list(key: str, value: Any, n: int) -> list[int]:
    """A sorted list of distinct seats (``active``, ``winners``)."""
    if not isinstance(value, (list, tuple)):
        raise _err(f"{key}={value!r}: expected a sorted list of seats")
    seats = [_F.seat(key, s, n) for s in value]
    if seats != sorted(set(seats)):
        raise _err(f"{key}={value!r}: expected a sorted list of distinct seats")
    return seats


def _decision(key: str, value: Any) -> int:
    """A decision of the dict as its ``DECISION`` word."""
    if value is None:
        return L.DECIDED_NONE
    if value == "pass" and isinstance(value, str):
        return L.DECIDED_PASS
    if value == "stand" and isinstance(value, str):
        return L.DECIDED_STAND
    if is_int(value) and 1 <= value <= L.HAND_SIZE:
        return L.DECIDED_STAND + int(value)
    raise _err(f"{key}={value!r}: expected None, 'pass', 'stand' or the number of cards "
               f"exchanged (1 to {L.HAND_SIZE})")


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem
    (format in the module docstring)."""
    check_header(d, rules, GAME, set(KEYS), KEYS)
    p = _parse(d, rules)
    check_position(p, rules)
    return _build(p, rules)


def _parse(d: Mapping[str, Any], rules: Any) -> dict:
    """Every value of the dict, type- and range-checked, cards as indices."""
    n, deck = rules.num_players, rules.deck_mask
    p: dict[str, Any] = {}
    if d["mode"] not in MODE_NAMES:
        raise _err(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    p["mode"] = MODE_NAMES.index(d["mode"])
    if d["phase"] not in L.PHASE_NAMES:
        raise _err(f"phase={d['phase']!r}: expected one of {', '.join(L.PHASE_NAMES)}")
    p["phase"] = phase = L.PHASE_NAMES.index(d["phase"])
    if phase == L.PHASE_MATCH_OVER and p["mode"] == L.MODE_DEAL:
        raise _err("phase='match_over' with mode='deal': a single deal ends in 'deal_over'")
    if phase == L.PHASE_DEAL_OVER and p["mode"] == L.MODE_MATCH:
        raise _err("phase='deal_over' with mode='match': a match deals again after a deal, "
                   "or ends in 'match_over'")
    p["dealer"] = _F.seat("dealer", d["dealer"], n)
    p["over"] = over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    if over:
        if d["to_move"] is not None:
            raise _err(f"to_move={d['to_move']!r}: expected None in phase {d['phase']!r}")
        p["to_move"] = None
    else:
        p["to_move"] = _F.seat("to_move", d["to_move"], n)
    p["deal_number"] = _int("deal_number", d["deal_number"], 1, MAX_DEAL_NUMBER)
    if p["mode"] == L.MODE_DEAL and p["deal_number"] != 1:
        raise _err(f"deal_number={p['deal_number']}: expected 1 in mode 'deal'")
    if rules.max_deals is not None and p["deal_number"] > rules.max_deals:
        raise _err(f"deal_number={p['deal_number']}: expected at most max_deals="
                   f"{rules.max_deals}")
    if not isinstance(d["trump_card"], str):
        raise _err(f"trump_card={d['trump_card']!r}: expected a card name")
    p["trump"] = _F.card("trump_card", d["trump_card"], deck)
    p["taken"] = _F.flag("trump_taken", d["trump_taken"])
    if p["taken"] != rules.dealer_takes_trump_card:
        raise _err(f"trump_taken={p['taken']}: expected {rules.dealer_takes_trump_card} "
                   f"(dealer_takes_trump_card={rules.dealer_takes_trump_card})")
    for key in ("records", "start_records", "tricks_won"):
        hi = L.TRICKS_PER_DEAL if key == "tricks_won" else MAX_RECORD
        p[key] = [_int(f"{key}[{s}]", v, 0, hi) for s, v in enumerate(_F.per(key, d[key], n))]
    for key in ("hands", "discards", "played", "excluded"):
        p[key] = [_F.cards(f"{key}[{s}]", v, deck)
                  for s, v in enumerate(_F.per(key, d[key], n))]
    p["stock"] = _F.cards("stock", d["stock"], deck)
    p["decisions"] = [_decision(f"decisions[{s}]", v)
                      for s, v in enumerate(_F.per("decisions", d["decisions"], n))]
    p["active"] = _seat_list("active", d["active"], n)
    p["holder"] = _F.seat("ace_holder", d["ace_holder"], n, optional=True)
    p["bonus_taken"] = _F.flag("ace_bonus_taken", d["ace_bonus_taken"])
    p["leader"] = _F.seat("leader", d["leader"], n, optional=True)
    trick = d["trick"]
    if not isinstance(trick, (list, tuple)):
        raise _err(f"trick={trick!r}: expected a list of [seat, card] in playing order")
    p["trick"] = []
    for i, entry in enumerate(trick):
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise _err(f"trick[{i}]={entry!r}: expected [seat, card]")
        p["trick"].append((_F.seat(f"trick[{i}] seat", entry[0], n),
                           _F.card(f"trick[{i}]", entry[1], deck)))
    p["tricks_played"] = _int("tricks_played", d["tricks_played"], 0, L.TRICKS_PER_DEAL)
    p["lone_left"] = _int("lone_tricks_left", d["lone_tricks_left"], 0, L.TRICKS_PER_DEAL)
    offer = d["stop_offer"]
    if offer is None:
        p["offer"] = None
    else:
        if not isinstance(offer, Mapping) or set(offer) != {"seat", "at"} \
                or offer["at"] not in STOP_AT_NAMES:
            raise _err(f"stop_offer={offer!r}: expected None or {{'seat': s, 'at': 'play'|"
                       "'bonus'|'end'}")
        p["offer"] = (_F.seat("stop_offer.seat", offer["seat"], n), STOP_AT_NAMES.index(offer["at"]))
    p["void"] = _F.flag("void", d["void"])
    p["stopper"] = _F.seat("stopper", d["stopper"], n, optional=True)
    p["winners"] = _seat_list("winners", d["winners"], n)
    p["rng"] = rng_words(d, GAME)
    return p


def _build(p: dict, rules: Any) -> np.ndarray:
    """The state vector of a validated position."""
    n = rules.num_players
    vec = np.zeros(L.STATE_LEN, dtype=np.uint64)
    u = np.uint64
    for s in range(n):
        vec[L.HAND + s] = u(mask_of(p["hands"][s]))
        vec[L.DISCARDS + s] = u(mask_of(p["discards"][s]))
        vec[L.TRICKS_WON + s] = u(p["tricks_won"][s])
        vec[L.RECORD + s] = u(p["records"][s])
        vec[L.START_RECORD + s] = u(p["start_records"][s])
        vec[L.EXCLUDED + s] = u(mask_of(p["excluded"][s]))
        vec[L.PLAYED + s] = u(mask_of(p["played"][s]))
        vec[L.DECISION + s] = u(p["decisions"][s])
    for s, c in p["trick"]:
        vec[L.TRICK_CARD + s] = u(c + 1)
    vec[L.STOCK] = u(mask_of(p["stock"]))
    nxt = rules.deck_size - len(p["stock"])
    order = order_bytes(vec)
    order[:nxt] = UNKNOWN
    order[nxt:rules.deck_size] = p["stock"]
    vec[L.NEXT] = u(nxt)
    vec[L.TRUMP_CARD] = u(p["trump"])
    vec[L.DEALER] = u(p["dealer"])
    active = p["active"]
    if p["leader"] is not None:
        leader = p["leader"]
    elif len(active) == 1:
        leader = active[0]            # the lone player is credited the tricks as the leader
    else:
        leader = (p["dealer"] + 1) % n
    vec[L.LEADER] = u(leader)
    vec[L.TO_MOVE] = u(p["to_move"] or 0)
    vec[L.PHASE] = u(p["phase"])
    vec[L.ACTIVE] = u(mask_of(active))
    vec[L.ACE_HOLDER] = u(0 if p["holder"] is None else p["holder"] + 1)
    vec[L.BONUS_TAKEN] = u(p["bonus_taken"])
    vec[L.TRICK_NUMBER] = u(p["tricks_played"])
    vec[L.LONE_LEFT] = u(p["lone_left"])
    if p["offer"] is not None:
        vec[L.STOP_SEAT], vec[L.STOP_AT] = u(p["offer"][0]), u(p["offer"][1])
    elif p["stopper"] is not None:
        vec[L.STOP_SEAT], vec[L.STOP_AT] = u(p["stopper"]), u(p["stop_at"])
    vec[L.WINNERS] = u(mask_of(p["winners"]))
    vec[L.STOPPER] = u(0 if p["stopper"] is None else p["stopper"] + 1)
    vec[L.MODE] = u(p["mode"])
    vec[L.DEAL_NUMBER] = u(p["deal_number"])
    vec[L.RNG:L.RNG + 4] = p["rng"]
    vec[L.VOID_DEAL] = u(p["void"])
    vec[L.TRUMP_TAKEN] = u(p["taken"])
    return vec


# --- actions -----------------------------------------------------------------------------------

_ACTION_FORMS = ("{'play': card}, {'exchange': [cards]}, {'stand': true}, {'pass': true}, "
                 "{'discard': card}, {'stop': true} or {'stop': false}")


def action_parts(action: Any) -> tuple[int, int]:
    """(kind, card mask) of a Mushka action id (an observed exchange's mask is its size k);
    :class:`IllegalActionError` for anything else."""
    bad = IllegalActionError(f"{action!r} is not a mushka action id")
    if not is_int(action) or action < 0:
        raise bad
    action = int(action)
    kind, cards = action >> L.KIND_SHIFT, action & L.CARDS_MASK
    if kind >= len(L.KIND_NAMES):
        raise bad
    size = popcount(cards)
    ok = {L.PLAY: size == 1, L.EXCHANGE: 1 <= size <= L.HAND_SIZE, L.DISCARD: size <= 1,
          L.EXCHANGE_SEEN: 1 <= cards <= L.HAND_SIZE}.get(kind, cards == 0)
    if not ok:
        raise bad
    return kind, cards


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, cards = action_parts(action)
    if kind == L.PLAY:
        return {"play": names(cards)[0]}
    if kind == L.EXCHANGE:
        return {"exchange": names(cards)}
    if kind == L.EXCHANGE_SEEN:
        return {"exchange": cards}
    if kind == L.DISCARD:
        return {"discard": names(cards)[0] if cards else None}
    if kind in (L.STOP, L.PLAY_ON):
        return {"stop": kind == L.STOP}
    return {L.KIND_NAMES[kind]: True}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"play Th"``, ``"exchange 7c+9d"``, ``"stand"``, ``"pass"``, ``"discard 8s"``,
    ``"stop"``, ``"play_on"``; an observed exchange ``"exchange 3"``, an unseen discard
    ``"discard"``."""
    kind, cards = action_parts(action)
    if kind == L.EXCHANGE_SEEN:
        return f"exchange {cards}"
    text = L.KIND_NAMES[kind]
    return f"{text} {'+'.join(names(cards))}" if cards else text


def _action_card(d: Mapping, key: str) -> int:
    name = d[key]
    try:
        return DECK.index(name)
    except CardError as e:
        raise IllegalActionError(f"action {dict(d)!r}: {e}") from None


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict (module docstring); it must be legal here."""
    if not isinstance(d, Mapping) or len(d) != 1:
        raise IllegalActionError(f"action {d!r}: expected one of {_ACTION_FORMS}")
    (key, value), = d.items()
    if key in ("play", "discard") and isinstance(value, str):
        action = (L.PLAY if key == "play" else L.DISCARD) << L.KIND_SHIFT | 1 << _action_card(d, key)
    elif key == "exchange" and isinstance(value, (list, tuple)) and value \
            and all(isinstance(v, str) for v in value):
        cards = [_action_card({key: v}, key) for v in value]
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"action {dict(d)!r}: a card is listed twice")
        action = L.EXCHANGE << L.KIND_SHIFT | mask_of(cards)
    elif key in ("stand", "pass") and value is True:
        action = (L.STAND if key == "stand" else L.PASS) << L.KIND_SHIFT
    elif key == "stop" and isinstance(value, bool):
        action = (L.STOP if value else L.PLAY_ON) << L.KIND_SHIFT
    else:
        raise IllegalActionError(f"action {dict(d)!r}: expected one of {_ACTION_FORMS}")
    return require_legal(action, legal, lambda a: action_to_string(vec, a))


# --- views -------------------------------------------------------------------------------------

def ace_holder_public(vec: np.ndarray, n: int) -> bool:
    """Rules §5: the ace holder is public once the bonus was written off or the ace of spades
    was played (or it is the turned card, whose place everyone knows)."""
    if int(vec[L.TRUMP_CARD]) == L.ACE_OF_SPADES or vec[L.BONUS_TAKEN]:
        return True
    return any(int(vec[L.PLAYED + s]) >> L.ACE_OF_SPADES & 1 for s in range(n))


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees (rules §5). Own hand and own discards; of the others, hand sizes,
    discard counts and the taken turned card while it is in the dealer's hand
    (``known_cards``); the stock's size; the ace holder (``ace_holder``, None when not known
    to the player; ``ace_holder_known``) once the bonus was written off or ``As`` was played,
    or when ``As`` is in the player's own hand or discards; everything public: decisions with
    k, records, tricks, played cards, the trick, the public inferences (``excluded``), the
    stop offer and the result. Never the other hands, discards, the stock or the chance
    stream."""
    n = rules.num_players
    full = to_dict(vec, rules)
    own = int(vec[L.HAND + player]) | int(vec[L.DISCARDS + player]) | int(vec[L.PLAYED + player])
    known = ace_holder_public(vec, n) or bool(own >> L.ACE_OF_SPADES & 1)
    dealer, trump = int(vec[L.DEALER]), int(vec[L.TRUMP_CARD])
    known_cards: list[list[str]] = [[] for _ in range(n)]
    if vec[L.TRUMP_TAKEN] and int(vec[L.HAND + dealer]) >> trump & 1:
        known_cards[dealer] = [DECK.name(trump)]
    out = {"player": player}
    for key in ("mode", "phase", "dealer", "to_move", "deal_number", "trump_card",
                "trump_taken", "records", "start_records"):
        out[key] = full[key]
    out["hand"] = full["hands"][player]
    out["hand_sizes"] = [len(h) for h in full["hands"]]
    out["known_cards"] = known_cards
    out["discards"] = full["discards"][player]
    out["discard_counts"] = [len(x) for x in full["discards"]]
    out["decisions"] = full["decisions"]
    out["stock_size"] = len(full["stock"])
    out["active"] = full["active"]
    out["ace_holder"] = full["ace_holder"] if known else None
    out["ace_holder_known"] = known
    for key in ("ace_bonus_taken", "leader", "trick", "tricks_won", "tricks_played",
                "lone_tricks_left", "played", "excluded", "stop_offer", "void", "stopper",
                "winners"):
        out[key] = full[key]
    return out


def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """Per seat, this deal: ``tricks`` won (or credited), ``ace_bonus`` the bonus actually
    written off (0, or 5 / 10 less the clamp of MU-STOP-2), ``remise`` added (MU-SCORE-2/4;
    0 until the deal's end is reached), ``record_change`` (start record - record, positive is
    good: each trick 1 and the bonus, less the remise; a trick at 0 that restarts the record
    under MU-STOP-3 counts as the record's whole change), and the ``records``."""
    n = rules.num_players
    phase = int(vec[L.PHASE])
    holder = int(vec[L.ACE_HOLDER]) - 1
    stopped = int(vec[L.STOPPER]) != 0
    ended = not vec[L.VOID_DEAL] and (
        (phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER) and (not stopped
                                                           or int(vec[L.STOP_AT]) == L.AT_END))
        or (phase == L.PHASE_STOP and int(vec[L.STOP_AT]) == L.AT_END))
    bonus = nominal_bonus(int(vec[L.TRUMP_CARD]), rules)
    first = rules.ace_bonus_timing == "first_trick"
    tricks, aces, remises = [], [], []
    for s in range(n):
        won = int(vec[L.TRICKS_WON + s])
        b = bonus if s == holder and vec[L.BONUS_TAKEN] else 0
        taken = simulate_record(int(vec[L.START_RECORD + s]), won, b, first, 0, rules)[1]
        tricks.append(won)
        aces.append(taken)
        remises.append(remise_of(s, won, holder, rules)
                       if ended and int(vec[L.ACTIVE]) >> s & 1 else 0)
    records = [int(vec[L.RECORD + s]) for s in range(n)]
    return {"tricks": tricks, "ace_bonus": aces, "remise": remises,
            "record_change": [int(vec[L.START_RECORD + s]) - records[s] for s in range(n)],
            "records": records}


OBSERVATION_PLANES = (
    ("hand", planes.one(lambda o: o["hand"])),
    ("trump_card", planes.one(lambda o: o["trump_card"])),
    ("trick", planes.one(lambda o: o["trick"])), ("discards", planes.one(lambda o: o["discards"])),
    ("played", planes.per_seat("played")), ("known_cards", planes.per_seat("known_cards")))
"""The card planes of the observation tensors (:attr:`cardsim.protocol.spec.GameDefinition.
observation_planes`): hand, trump card, current trick, the player's discards, then per seat:
cards played, cards known to be in his hand."""
