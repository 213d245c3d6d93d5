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
won, the ace bonus and the remises (MU-SCORE-*, MU-STOP-2/3: :func:`simulate_record`); any
failure is a one-line :class:`~cardsim.errors.PositionError` (a bad card name also a
:class:`~cardsim.errors.CardError`). It rebuilds the deal order: the stock fills the last
positions (``NEXT`` = deck size - stock size, which is ``5n + 1`` before anyone drew), the
positions before it hold :data:`cardsim.order.UNKNOWN` (no kernel reads a dealt position). The
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

from ...cards import MUSHKA
from ...errors import CardError, IllegalActionError
from ...options import rules_dict
from ...order import UNKNOWN
from ...positions import Fields, check_header, is_int, rng_words
from .layout import (ACE_HOLDER, ACE_OF_SPADES, ACTIVE, AT_BONUS, AT_END, AT_PLAY, BONUS_TAKEN,
                     CARDS_MASK, DEAL_NUMBER, DEALER, DECIDED_NONE, DECIDED_PASS, DECIDED_STAND,
                     DECISION, DISCARD, DISCARDS, EXCHANGE, EXCHANGE_SEEN, EXCLUDED, HAND,
                     HAND_SIZE, KIND_NAMES, KIND_SHIFT, LEADER, LONE_LEFT, MODE, MODE_DEAL,
                     MODE_MATCH, N_CARDS, NEXT, ORDER, ORDER_WORDS, PASS, PHASE, PHASE_DEAL_OVER,
                     PHASE_DISCARD, PHASE_EXCHANGE, PHASE_MATCH_OVER, PHASE_NAMES, PHASE_PLAY,
                     PHASE_STOP, PLAY, PLAY_ON, PLAYED, RECORD, RNG, SPADES, STAND, START_RECORD,
                     STATE_LEN, STOCK, STOP, STOP_AT, STOP_SEAT, STOPPER, TO_MOVE, TRICK_CARD,
                     TRICK_NUMBER, TRICKS_PER_DEAL, TRICKS_WON, TRUMP_CARD, TRUMP_TAKEN,
                     VOID_DEAL, WINNERS)

GAME = "mushka"
KEYS = ("game", "rules", "mode", "phase", "dealer", "to_move", "deal_number", "trump_card",
        "trump_taken", "records", "start_records", "hands", "discards", "decisions", "stock",
        "active", "ace_holder", "ace_bonus_taken", "leader", "trick", "tricks_won",
        "tricks_played", "lone_tricks_left", "played", "excluded", "stop_offer", "void",
        "stopper", "winners", "rng")
STOP_AT_NAMES = ("play", "bonus", "end")
MODE_NAMES = ("deal", "match")
MAX_RECORD = 1_000_000      # records are uint64 words; a sanity bound for from_dict
MAX_DEAL_NUMBER = 1_000_000


# --- reading the state -------------------------------------------------------------------------

def names(mask) -> list[str]:
    """Card names of a mask, in index order."""
    return MUSHKA.names(int(mask))


def seats_of(mask, n: int) -> list[int]:
    """Seats of a seat mask."""
    return [s for s in range(n) if int(mask) >> s & 1]


def popcount(mask) -> int:
    """Number of set bits."""
    return bin(int(mask)).count("1")


def order_bytes(vec: np.ndarray) -> np.ndarray:
    """The deal order as bytes, a (writable) view of the state's words: byte i = position i."""
    return vec[ORDER:ORDER + ORDER_WORDS].view(np.uint8)


def stock_cards(vec: np.ndarray, rules: Any) -> list[int]:
    """The stock, next card first (deal-order positions ``NEXT`` .. deck size - 1)."""
    order = order_bytes(vec)
    return [int(order[i]) for i in range(int(vec[NEXT]), rules.deck_size)]


def decision_value(word) -> Any:
    """A ``DECISION`` word as the dict's value: None, "pass", "stand" or k."""
    w = int(word)
    if w == DECIDED_NONE:
        return None
    if w == DECIDED_PASS:
        return "pass"
    if w == DECIDED_STAND:
        return "stand"
    return w - DECIDED_STAND


def play_started(vec: np.ndarray) -> bool:
    """True once the exchange is over with at least two active seats (the play phase, or
    later)."""
    phase = int(vec[PHASE])
    return phase not in (PHASE_DISCARD, PHASE_EXCHANGE) and popcount(vec[ACTIVE]) >= 2


def trick_of(vec: np.ndarray, n: int) -> list[list]:
    """The current trick as [[seat, card name], ...] in playing order (from the leader)."""
    leader = int(vec[LEADER]) % n
    out = []
    for i in range(n):
        s = (leader + i) % n
        t = int(vec[TRICK_CARD + s])
        if t:
            out.append([s, MUSHKA.name(t - 1)])
    return out


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    n = rules.num_players
    phase = int(vec[PHASE])
    over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    started = play_started(vec)
    holder, stopper = int(vec[ACE_HOLDER]), int(vec[STOPPER])
    offer = None
    if phase == PHASE_STOP:
        offer = {"seat": int(vec[STOP_SEAT]), "at": STOP_AT_NAMES[int(vec[STOP_AT])]}
    return {
        "game": GAME, "rules": rules_dict(rules),
        "mode": "match" if int(vec[MODE]) == MODE_MATCH else "deal",
        "phase": PHASE_NAMES[phase], "dealer": int(vec[DEALER]),
        "to_move": None if over else int(vec[TO_MOVE]),
        "deal_number": int(vec[DEAL_NUMBER]),
        "trump_card": MUSHKA.name(int(vec[TRUMP_CARD])), "trump_taken": bool(vec[TRUMP_TAKEN]),
        "records": [int(vec[RECORD + p]) for p in range(n)],
        "start_records": [int(vec[START_RECORD + p]) for p in range(n)],
        "hands": [names(vec[HAND + p]) for p in range(n)],
        "discards": [names(vec[DISCARDS + p]) for p in range(n)],
        "decisions": [decision_value(vec[DECISION + p]) for p in range(n)],
        "stock": [MUSHKA.name(c) for c in stock_cards(vec, rules)],
        "active": seats_of(vec[ACTIVE], n),
        "ace_holder": holder - 1 if holder else None,
        "ace_bonus_taken": bool(vec[BONUS_TAKEN]),
        "leader": int(vec[LEADER]) if started else None,
        "trick": trick_of(vec, n) if started else [],
        "tricks_won": [int(vec[TRICKS_WON + p]) for p in range(n)],
        "tricks_played": int(vec[TRICK_NUMBER]),
        "lone_tricks_left": int(vec[LONE_LEFT]),
        "played": [names(vec[PLAYED + p]) for p in range(n)],
        "excluded": [names(int(vec[EXCLUDED + p]) & rules.deck_mask) for p in range(n)],
        "stop_offer": offer,
        "void": bool(vec[VOID_DEAL]),
        "stopper": stopper - 1 if stopper else None,
        "winners": seats_of(vec[WINNERS], n),
        "rng": [int(x) for x in vec[RNG:RNG + 4]],
    }


# --- from_dict ---------------------------------------------------------------------------------

_F = Fields(MUSHKA)
_err = _F.error
_is_int = is_int
_seat = _F.seat
_bool = _F.flag
_per_seat = _F.per
_card = _F.card
_cards = _F.cards


def _int(key: str, value: Any, lo: int, hi: int) -> int:
    return _F.integer(key, value, lo, hi,
                      "a non-negative integer" if lo == 0 and hi >= MAX_RECORD else None)


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _decision(key: str, value: Any) -> int:
    """A decision of the dict as its ``DECISION`` word."""
    if value is None:
        return DECIDED_NONE
    if value == "pass" and isinstance(value, str):
        return DECIDED_PASS
    if value == "stand" and isinstance(value, str):
        return DECIDED_STAND
    if _is_int(value) and 1 <= value <= HAND_SIZE:
        return DECIDED_STAND + int(value)
    raise _err(f"{key}={value!r}: expected None, 'pass', 'stand' or the number of cards "
               f"exchanged (1 to {HAND_SIZE})")


def simulate_record(start: int, tricks: int, bonus: int, bonus_at_first: bool,
                    remise: int, rules: Any) -> tuple[int, int]:
    """A seat's record after ``tricks`` won this deal from ``start`` (MU-SCORE-1, MU-STOP-3),
    the ace bonus ``bonus`` (0: none) written off after the first trick or after the last
    (clamped at 0, MU-STOP-2), then ``remise`` added. Returns (record, bonus written off)."""
    reset = rules.start_points - (0 if rules.overshoot_reset == "start" else 1)
    r, taken = start, 0
    for i in range(tricks):
        r = reset if r == 0 else r - 1
        if bonus and i == 0 and bonus_at_first:
            taken = min(r, bonus)
            r -= taken
    if bonus and not bonus_at_first:
        taken = min(r, bonus)
        r -= taken
    return r + remise, taken


def nominal_bonus(trump_card: int, rules: Any) -> int:
    """MU-SCORE-3: 5, or 10 when spades are trump."""
    return rules.ace_bonus * (2 if trump_card // 13 == SPADES else 1)


def remise_of(seat: int, tricks: int, holder: int | None, rules: Any) -> int:
    """MU-SCORE-2/4: what an active seat adds at the end of the deal."""
    if tricks:
        return 0
    return rules.remise_points + (rules.ace_bonus if seat == holder else 0)


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem
    (format in the module docstring)."""
    check_header(d, rules, GAME, set(KEYS), KEYS)
    p = _parse(d, rules)
    _check_cards(p, rules)
    _check_exchange(p, rules)
    _check_play(p, rules)
    _check_scores(p, rules)
    return _build(p, rules)


def _parse(d: Mapping[str, Any], rules: Any) -> dict:
    """Every value of the dict, type- and range-checked, cards as indices."""
    n, deck = rules.num_players, rules.deck_mask
    p: dict[str, Any] = {}
    if d["mode"] not in MODE_NAMES:
        raise _err(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    p["mode"] = MODE_NAMES.index(d["mode"])
    if d["phase"] not in PHASE_NAMES:
        raise _err(f"phase={d['phase']!r}: expected one of {', '.join(PHASE_NAMES)}")
    p["phase"] = phase = PHASE_NAMES.index(d["phase"])
    if phase == PHASE_MATCH_OVER and p["mode"] == MODE_DEAL:
        raise _err("phase='match_over' with mode='deal': a single deal ends in 'deal_over'")
    if phase == PHASE_DEAL_OVER and p["mode"] == MODE_MATCH:
        raise _err("phase='deal_over' with mode='match': a match deals again after a deal, "
                   "or ends in 'match_over'")
    p["dealer"] = _seat("dealer", d["dealer"], n)
    p["over"] = over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    if over:
        if d["to_move"] is not None:
            raise _err(f"to_move={d['to_move']!r}: expected None in phase {d['phase']!r}")
        p["to_move"] = None
    else:
        p["to_move"] = _seat("to_move", d["to_move"], n)
    p["deal_number"] = _int("deal_number", d["deal_number"], 1, MAX_DEAL_NUMBER)
    if p["mode"] == MODE_DEAL and p["deal_number"] != 1:
        raise _err(f"deal_number={p['deal_number']}: expected 1 in mode 'deal'")
    if rules.max_deals is not None and p["deal_number"] > rules.max_deals:
        raise _err(f"deal_number={p['deal_number']}: expected at most max_deals="
                   f"{rules.max_deals}")
    if not isinstance(d["trump_card"], str):
        raise _err(f"trump_card={d['trump_card']!r}: expected a card name")
    p["trump"] = _card("trump_card", d["trump_card"], deck)
    p["taken"] = _bool("trump_taken", d["trump_taken"])
    if p["taken"] != rules.dealer_takes_trump_card:
        raise _err(f"trump_taken={p['taken']}: expected {rules.dealer_takes_trump_card} "
                   f"(dealer_takes_trump_card={rules.dealer_takes_trump_card})")
    for key in ("records", "start_records", "tricks_won"):
        hi = TRICKS_PER_DEAL if key == "tricks_won" else MAX_RECORD
        p[key] = [_int(f"{key}[{s}]", v, 0, hi) for s, v in enumerate(_per_seat(key, d[key], n))]
    for key in ("hands", "discards", "played", "excluded"):
        p[key] = [_cards(f"{key}[{s}]", v, deck)
                  for s, v in enumerate(_per_seat(key, d[key], n))]
    p["stock"] = _cards("stock", d["stock"], deck)
    p["decisions"] = [_decision(f"decisions[{s}]", v)
                      for s, v in enumerate(_per_seat("decisions", d["decisions"], n))]
    active = d["active"]
    if not isinstance(active, (list, tuple)):
        raise _err(f"active={active!r}: expected a sorted list of seats")
    p["active"] = [_seat("active", s, n) for s in active]
    if p["active"] != sorted(set(p["active"])):
        raise _err(f"active={active!r}: expected a sorted list of distinct seats")
    p["holder"] = _seat("ace_holder", d["ace_holder"], n, optional=True)
    p["bonus_taken"] = _bool("ace_bonus_taken", d["ace_bonus_taken"])
    p["leader"] = _seat("leader", d["leader"], n, optional=True)
    trick = d["trick"]
    if not isinstance(trick, (list, tuple)):
        raise _err(f"trick={trick!r}: expected a list of [seat, card] in playing order")
    p["trick"] = []
    for i, entry in enumerate(trick):
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise _err(f"trick[{i}]={entry!r}: expected [seat, card]")
        p["trick"].append((_seat(f"trick[{i}] seat", entry[0], n),
                           _card(f"trick[{i}]", entry[1], deck)))
    p["tricks_played"] = _int("tricks_played", d["tricks_played"], 0, TRICKS_PER_DEAL)
    p["lone_left"] = _int("lone_tricks_left", d["lone_tricks_left"], 0, TRICKS_PER_DEAL)
    offer = d["stop_offer"]
    if offer is None:
        p["offer"] = None
    else:
        if not isinstance(offer, Mapping) or set(offer) != {"seat", "at"} \
                or offer["at"] not in STOP_AT_NAMES:
            raise _err(f"stop_offer={offer!r}: expected None or {{'seat': s, 'at': 'play'|"
                       "'bonus'|'end'}")
        p["offer"] = (_seat("stop_offer.seat", offer["seat"], n), STOP_AT_NAMES.index(offer["at"]))
    p["void"] = _bool("void", d["void"])
    p["stopper"] = _seat("stopper", d["stopper"], n, optional=True)
    winners = d["winners"]
    if not isinstance(winners, (list, tuple)):
        raise _err(f"winners={winners!r}: expected a sorted list of seats")
    p["winners"] = [_seat("winners", s, n) for s in winners]
    if p["winners"] != sorted(set(p["winners"])):
        raise _err(f"winners={winners!r}: expected a sorted list of distinct seats")
    p["rng"] = rng_words(d, GAME)
    return p


def _check_cards(p: dict, rules: Any) -> None:
    """Every card of the deck exactly once over hands, discards, stock, played cards and the
    turned card (unless the dealer took it)."""
    n, deck = rules.num_players, rules.deck_mask
    zones: list[tuple[str, list[int]]] = []
    for key in ("hands", "discards", "played"):
        zones += [(f"{key}[{s}]", p[key][s]) for s in range(n)]
    zones.append(("stock", p["stock"]))
    if not p["taken"]:
        zones.append(("trump_card", [p["trump"]]))
    seen: dict[int, str] = {}
    for zone, cards in zones:
        for c in cards:
            if c in seen:
                raise _err(f"card {MUSHKA.name(c)!r} is in both {seen[c]} and {zone}: each card "
                           "exists once")
            seen[c] = zone
    missing = [MUSHKA.name(c) for c in range(N_CARDS) if deck >> c & 1 and c not in seen]
    if missing:
        raise _err(f"missing cards {', '.join(missing)}: every card of the {popcount(deck)}-card "
                   "deck must be in hands, discards, stock, played or be the turned trump_card")
    if p["taken"]:
        where = seen[p["trump"]]
        if where not in (f"hands[{p['dealer']}]", f"played[{p['dealer']}]"):
            raise _err(f"trump_card {MUSHKA.name(p['trump'])!r} is in {where}: the dealer took "
                       f"it, so it is in hands[{p['dealer']}] or played[{p['dealer']}]")
    for s in range(n):
        clash = set(p["excluded"][s]) & set(p["hands"][s])
        if clash:
            raise _err(f"excluded[{s}] lists {MUSHKA.name(min(clash))!r}, which is in hands[{s}]")
        if ACE_OF_SPADES in p["discards"][s] and not rules.ace_of_spades_discardable:
            raise _err(f"discards[{s}] holds 'As', which may not be discarded "
                       "(ace_of_spades_discardable=false)")
        if p["taken"] and p["trump"] in p["discards"][s]:
            raise _err(f"discards[{s}] holds the taken trump card: it may not be discarded")


def _decision_order(p: dict, n: int) -> list[int]:
    return [(p["dealer"] + 1 + i) % n for i in range(n)]


def _check_exchange(p: dict, rules: Any) -> None:
    """The discard and the exchange: decisions in turn from the dealer's left, hand, discard
    and stock sizes, who is active, the ace holder, passes."""
    n, phase, dealer = rules.num_players, p["phase"], p["dealer"]
    order = _decision_order(p, n)
    decided = [s for s in order if p["decisions"][s] != DECIDED_NONE]
    j = len(decided)
    if decided != order[:j]:
        raise _err(f"decisions={_show_decisions(p)}: seats decide in turn from the dealer's left "
                   f"({', '.join(map(str, order))}), so the decided seats come first")
    if phase == PHASE_DISCARD:
        if not rules.dealer_takes_trump_card:
            raise _err("phase='discard' needs dealer_takes_trump_card=true")
        if j:
            raise _err(f"decisions={_show_decisions(p)}: expected no decision in phase 'discard'")
        if p["to_move"] != dealer:
            raise _err(f"to_move={p['to_move']}: the dealer {dealer} discards in phase 'discard'")
    elif phase == PHASE_EXCHANGE:
        if j == n:
            raise _err("decisions: every seat decided, but phase is 'exchange'")
        if p["to_move"] != order[j]:
            raise _err(f"to_move={p['to_move']}: expected seat {order[j]}, the next to decide in "
                       "the exchange")
    elif j < n:
        raise _err(f"decisions={_show_decisions(p)}: every seat decides before phase "
                   f"{PHASE_NAMES[phase]!r}")
    exchanged = 0
    for s in range(n):
        w = p["decisions"][s]
        k = w - DECIDED_STAND if w > DECIDED_STAND else 0
        exchanged += k
        extra = 1 if p["taken"] and s == dealer and phase != PHASE_DISCARD else 0
        if len(p["discards"][s]) != k + extra:
            why = f"exchanged {k}" if k else "no exchange"
            if extra:
                why += " and the discard for the taken trump card"
            raise _err(f"discards[{s}] holds {len(p['discards'][s])} cards: expected {k + extra}"
                       f" ({why})")
        if w == DECIDED_PASS and ACE_OF_SPADES in p["hands"][s]:
            raise _err(f"decisions[{s}]='pass' but hands[{s}] holds 'As': its holder may not "
                       "pass")
    stock = rules.deck_size - HAND_SIZE * n - 1 - exchanged
    if len(p["stock"]) != stock:
        raise _err(f"stock holds {len(p['stock'])} cards: expected {stock} (the deck less the "
                   f"hands, the turned card and the {exchanged} cards drawn in the exchange)")
    passed = [s for s in range(n) if p["decisions"][s] == DECIDED_PASS]
    if j < n:
        for key, empty in (("active", []), ("ace_holder", None), ("leader", None),
                           ("trick", []), ("stop_offer", None), ("stopper", None),
                           ("winners", [])):
            got = {"ace_holder": p["holder"], "stop_offer": p["offer"]}.get(key, p.get(key))
            if got != empty:
                raise _err(f"{key}: expected {empty!r} before the exchange is over")
        for key, value in (("ace_bonus_taken", p["bonus_taken"]), ("void", p["void"])):
            if value:
                raise _err(f"{key}=True before the exchange is over")
        for key, value in (("tricks_played", p["tricks_played"]),
                           ("lone_tricks_left", p["lone_left"])):
            if value:
                raise _err(f"{key}={value}: expected 0 before the exchange is over")
        for s in range(n):
            size = HAND_SIZE + (1 if phase == PHASE_DISCARD and s == dealer else 0)
            if len(p["hands"][s]) != size:
                raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: expected {size} in "
                           f"phase {PHASE_NAMES[phase]!r}")
            if p["played"][s] or p["tricks_won"][s]:
                raise _err(f"played[{s}] / tricks_won[{s}]: nothing is played before the "
                           "exchange is over")
        return
    active = [s for s in range(n) if s not in passed]
    if p["active"] != active:
        raise _err(f"active={p['active']}: expected {active}, the seats that did not pass")
    holder = next((s for s in active if ACE_OF_SPADES in p["hands"][s] + p["played"][s]), None)
    if p["holder"] != holder:
        raise _err(f"ace_holder={p['holder']}: expected {holder}, the active seat with 'As' "
                   "(MU-ACE-5)")
    void = len(active) == 0 or (len(active) == 1 and rules.lone_player == "redeal")
    if p["void"] != void:
        raise _err(f"void={p['void']}: expected {void} with {len(active)} active seats "
                   f"(lone_player={rules.lone_player})")
    if void and p["mode"] == MODE_MATCH and phase != PHASE_MATCH_OVER:
        raise _err("void=True in a match that is not over: a match deals again after a void "
                   "deal")
    if void and not p["over"]:
        raise _err(f"void=True in phase {PHASE_NAMES[phase]!r}: a void deal is over")


def _show_decisions(p: dict) -> str:
    return repr([decision_value(w) for w in p["decisions"]])


def _check_play(p: dict, rules: Any) -> None:
    """After the exchange: hand and played sizes, tricks, the current trick, the leader and
    whose turn it is, the stop offer."""
    n, phase = rules.num_players, p["phase"]
    if phase in (PHASE_DISCARD, PHASE_EXCHANGE):
        return
    active, t = p["active"], p["tricks_played"]
    lone = len(active) == 1 and not p["void"]
    playing = len(active) >= 2
    for s in range(n):
        if s not in active and (p["played"][s] or p["tricks_won"][s]):
            raise _err(f"played[{s}] / tricks_won[{s}]: seat {s} is not active and plays no card")
    if not playing:
        if p["leader"] is not None:
            raise _err(f"leader={p['leader']}: expected None, there is no play with "
                       f"{len(active)} active seat(s)")
        if p["trick"]:
            raise _err("trick: expected [] when there is no play")
        for s in range(n):
            if len(p["hands"][s]) != HAND_SIZE or p["played"][s]:
                raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: expected {HAND_SIZE} "
                           "(nobody plays a card)")
        if lone:
            s = active[0]
            if p["tricks_won"][s] != t or t + p["lone_left"] != TRICKS_PER_DEAL:
                raise _err(f"tricks_played={t}, lone_tricks_left={p['lone_left']}, tricks_won["
                           f"{s}]={p['tricks_won'][s]}: the lone player is credited the 5 tricks "
                           "one at a time")
            if p["lone_left"] and not (phase == PHASE_STOP or p["stopper"] is not None):
                raise _err(f"lone_tricks_left={p['lone_left']}: the crediting only pauses at a "
                           "stop")
        elif t or p["lone_left"] or any(p["tricks_won"]):
            raise _err("tricks_played, lone_tricks_left, tricks_won: expected 0 in a void deal")
    else:
        if p["lone_left"]:
            raise _err(f"lone_tricks_left={p['lone_left']}: expected 0 with {len(active)} "
                       "active seats")
        if sum(p["tricks_won"]) != t:
            raise _err(f"tricks_won={p['tricks_won']}: expected {t} tricks in all "
                       f"(tricks_played={t})")
        if p["leader"] is None or p["leader"] not in active:
            raise _err(f"leader={p['leader']}: expected an active seat ({active})")
        first = next(s for s in _decision_order(p, n) if s in active)
        if t == 0 and p["leader"] != first:
            raise _err(f"leader={p['leader']}: the first trick is led by seat {first}, the "
                       "first active seat from the dealer's left (MU-PLAY-2)")
        if phase == PHASE_PLAY and t == TRICKS_PER_DEAL:
            raise _err("tricks_played=5 in phase 'play': the deal is over")
        if phase != PHASE_PLAY and p["trick"]:
            raise _err(f"trick: expected [] in phase {PHASE_NAMES[phase]!r} (a trick lies on "
                       "the table only during play)")
        ring = [s for s in ((p["leader"] + i) % n for i in range(n)) if s in active]
        seats = [s for s, _ in p["trick"]]
        if len(seats) >= len(ring) or seats != ring[:len(seats)]:
            raise _err(f"trick seats {seats}: expected the first seats of {ring}, in playing "
                       "order from the leader, and not all of them (a full trick is taken)")
        for s, c in p["trick"]:
            if c not in p["played"][s]:
                raise _err(f"trick: {MUSHKA.name(c)!r} of seat {s} must be in played[{s}]")
        for s in active:
            size = t + (1 if s in seats else 0)
            if len(p["played"][s]) != size:
                raise _err(f"played[{s}] holds {len(p['played'][s])} cards: expected {size} "
                           f"(tricks_played={t})")
            if len(p["hands"][s]) + size != HAND_SIZE:
                raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: expected "
                           f"{HAND_SIZE - size} ({size} played)")
        if phase == PHASE_PLAY:
            to_move = ring[len(seats)]
            if p["to_move"] != to_move:
                raise _err(f"to_move={p['to_move']}: expected seat {to_move}, next in the trick")
    for s in range(n):
        if s not in active and len(p["hands"][s]) != HAND_SIZE:
            raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: a passed hand keeps "
                       f"{HAND_SIZE}")
    complete = t == TRICKS_PER_DEAL
    offer = p["offer"]
    if phase == PHASE_STOP:
        if rules.stop_mode != "declared":
            raise _err("phase='stop' needs stop_mode=declared")
        if offer is None:
            raise _err("stop_offer: expected {'seat': s, 'at': ...} in phase 'stop'")
        seat, at = offer
        if p["to_move"] != seat:
            raise _err(f"to_move={p['to_move']}: expected the seat offered the stop ({seat})")
        if p["records"][seat] != 0:
            raise _err(f"stop_offer.seat={seat}: his record is {p['records'][seat]}, only a "
                       "record of 0 is offered the stop")
        if at == AT_PLAY and playing and p["leader"] != seat:
            raise _err(f"stop_offer={{'seat': {seat}, 'at': 'play'}}: the offer after a trick "
                       f"goes to its winner, the leader {p['leader']}")
        if at == AT_PLAY and playing and t == 0:
            raise _err("stop_offer at 'play' with tricks_played=0: the offer follows a trick")
        if at != AT_PLAY and not complete:
            raise _err(f"stop_offer at {STOP_AT_NAMES[at]!r}: expected after the 5th trick "
                       f"(tricks_played={t})")
        if at == AT_BONUS and (rules.ace_bonus_timing != "end_of_deal" or seat != p["holder"]
                               or not p["bonus_taken"]):
            raise _err("stop_offer at 'bonus': the ace holder, after writing off the ace bonus "
                       "at the end of the deal (ace_bonus_timing=end_of_deal)")
    elif offer is not None:
        raise _err(f"stop_offer: expected None in phase {PHASE_NAMES[phase]!r}")


def _check_scores(p: dict, rules: Any) -> None:
    """Records, the ace bonus, the stop and the winners."""
    n, phase = rules.num_players, p["phase"]
    automatic = rules.stop_mode == "automatic"
    active, holder = p["active"], p["holder"]
    complete = p["tricks_played"] == TRICKS_PER_DEAL
    if p["mode"] == MODE_MATCH and p["deal_number"] == 1:
        for s in range(n):
            if p["start_records"][s] != rules.start_points:
                raise _err(f"start_records[{s}]={p['start_records'][s]}: a match starts at "
                           f"start_points={rules.start_points}")
    if automatic:
        for s in range(n):
            if p["start_records"][s] == 0:
                raise _err(f"start_records[{s}]=0 with stop_mode=automatic: a record of 0 "
                           "ends the game")
    # the ace bonus
    won = p["tricks_won"][holder] if holder is not None else 0
    if p["bonus_taken"]:
        if holder is None or not won:
            raise _err("ace_bonus_taken=True: expected an ace_holder who won a trick")
        if rules.ace_bonus_timing == "end_of_deal" and not complete:
            raise _err("ace_bonus_taken=True before the end of the deal "
                       "(ace_bonus_timing=end_of_deal)")
    elif rules.ace_bonus_timing == "first_trick" and won:
        raise _err(f"ace_bonus_taken=False: the ace_holder {holder} won a trick, which writes "
                   "off the bonus (ace_bonus_timing=first_trick)")
    elif p["over"] and p["stopper"] is None and won:
        raise _err(f"ace_bonus_taken=False: the ace_holder {holder} won a trick and the deal "
                   "is over")
    # the stop and the winners
    stopper = p["stopper"]
    if stopper is not None:
        if not p["over"]:
            raise _err(f"stopper={stopper} in phase {PHASE_NAMES[phase]!r}: a stop ends the game")
        if p["records"][stopper] != 0:
            raise _err(f"stopper={stopper}: his record is {p['records'][stopper]}, a stop needs 0")
        if p["winners"] != [stopper]:
            raise _err(f"winners={p['winners']}: expected [{stopper}], the stopper")
    elif phase == PHASE_MATCH_OVER:
        if rules.max_deals is None or p["deal_number"] != rules.max_deals:
            raise _err("phase='match_over' without a stopper: only max_deals ends a match, "
                       f"after deal {rules.max_deals} (deal_number={p['deal_number']})")
        low = min(p["records"])
        best = [s for s in range(n) if p["records"][s] == low]
        if p["winners"] != best:
            raise _err(f"winners={p['winners']}: expected {best}, the lowest records")
    elif p["winners"]:
        raise _err(f"winners={p['winners']}: expected [] (nobody stopped)")
    if automatic:
        for s in range(n):
            if p["records"][s] == 0 and s != stopper:
                raise _err(f"records[{s}]=0 with stop_mode=automatic: that seat must have "
                           "stopped (and the game be over)")
    # the records: each follows from the start record, the tricks, the bonus and the remise
    ends = [False]
    if p["void"] or not active:
        pass
    elif phase == PHASE_STOP:
        ends = [p["offer"][1] == AT_END]
    elif p["over"] and stopper is None:
        ends = [True]
    elif p["over"] and complete and not automatic:
        ends = [False, True]      # a stop after the last trick, or at an offer of the end
    p["stop_at"] = AT_PLAY
    bonus = nominal_bonus(p["trump"], rules)
    first = rules.ace_bonus_timing == "first_trick"
    tried = []
    for remised in ends:
        expected = []
        for s in range(n):
            start, won_s = p["start_records"][s], p["tricks_won"][s]
            b = bonus if s == holder and p["bonus_taken"] else 0
            r = remise_of(s, won_s, holder, rules) if remised and s in active else 0
            expected.append(simulate_record(start, won_s, b, first, r, rules)[0])
        if expected == p["records"]:
            if remised and stopper is not None:
                p["stop_at"] = AT_END
            elif stopper is not None and p["bonus_taken"] and not first and stopper == holder \
                    and not automatic:
                p["stop_at"] = AT_BONUS
            return
        tried.append(expected)
    raise _err(f"records={p['records']}: expected {' or '.join(map(str, tried))} from "
               "start_records, tricks_won, the ace bonus and the remises")


def _build(p: dict, rules: Any) -> np.ndarray:
    """The state vector of a validated position."""
    n = rules.num_players
    vec = np.zeros(STATE_LEN, dtype=np.uint64)
    u = np.uint64
    for s in range(n):
        vec[HAND + s] = u(_mask(p["hands"][s]))
        vec[DISCARDS + s] = u(_mask(p["discards"][s]))
        vec[TRICKS_WON + s] = u(p["tricks_won"][s])
        vec[RECORD + s] = u(p["records"][s])
        vec[START_RECORD + s] = u(p["start_records"][s])
        vec[EXCLUDED + s] = u(_mask(p["excluded"][s]))
        vec[PLAYED + s] = u(_mask(p["played"][s]))
        vec[DECISION + s] = u(p["decisions"][s])
    for s, c in p["trick"]:
        vec[TRICK_CARD + s] = u(c + 1)
    vec[STOCK] = u(_mask(p["stock"]))
    nxt = rules.deck_size - len(p["stock"])
    order = order_bytes(vec)
    order[:nxt] = UNKNOWN
    order[nxt:rules.deck_size] = p["stock"]
    vec[NEXT] = u(nxt)
    vec[TRUMP_CARD] = u(p["trump"])
    vec[DEALER] = u(p["dealer"])
    active = p["active"]
    if p["leader"] is not None:
        leader = p["leader"]
    elif len(active) == 1:
        leader = active[0]            # the lone player is credited the tricks as the leader
    else:
        leader = (p["dealer"] + 1) % n
    vec[LEADER] = u(leader)
    vec[TO_MOVE] = u(p["to_move"] or 0)
    vec[PHASE] = u(p["phase"])
    vec[ACTIVE] = u(_mask(active))
    vec[ACE_HOLDER] = u(0 if p["holder"] is None else p["holder"] + 1)
    vec[BONUS_TAKEN] = u(p["bonus_taken"])
    vec[TRICK_NUMBER] = u(p["tricks_played"])
    vec[LONE_LEFT] = u(p["lone_left"])
    if p["offer"] is not None:
        vec[STOP_SEAT], vec[STOP_AT] = u(p["offer"][0]), u(p["offer"][1])
    elif p["stopper"] is not None:
        vec[STOP_SEAT], vec[STOP_AT] = u(p["stopper"]), u(p["stop_at"])
    vec[WINNERS] = u(_mask(p["winners"]))
    vec[STOPPER] = u(0 if p["stopper"] is None else p["stopper"] + 1)
    vec[MODE] = u(p["mode"])
    vec[DEAL_NUMBER] = u(p["deal_number"])
    vec[RNG:RNG + 4] = p["rng"]
    vec[VOID_DEAL] = u(p["void"])
    vec[TRUMP_TAKEN] = u(p["taken"])
    return vec


# --- actions -----------------------------------------------------------------------------------

_ACTION_FORMS = ("{'play': card}, {'exchange': [cards]}, {'stand': true}, {'pass': true}, "
                 "{'discard': card}, {'stop': true} or {'stop': false}")


def action_parts(action: Any) -> tuple[int, int]:
    """(kind, card mask) of a Mushka action id (an observed exchange's mask is its size k);
    :class:`IllegalActionError` for anything else."""
    bad = IllegalActionError(f"{action!r} is not a mushka action id")
    if not _is_int(action) or action < 0:
        raise bad
    action = int(action)
    kind, cards = action >> KIND_SHIFT, action & CARDS_MASK
    if kind >= len(KIND_NAMES):
        raise bad
    size = popcount(cards)
    ok = {PLAY: size == 1, EXCHANGE: 1 <= size <= HAND_SIZE, DISCARD: size <= 1,
          EXCHANGE_SEEN: 1 <= cards <= HAND_SIZE}.get(kind, cards == 0)
    if not ok:
        raise bad
    return kind, cards


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, cards = action_parts(action)
    if kind == PLAY:
        return {"play": names(cards)[0]}
    if kind == EXCHANGE:
        return {"exchange": names(cards)}
    if kind == EXCHANGE_SEEN:
        return {"exchange": cards}
    if kind == DISCARD:
        return {"discard": names(cards)[0] if cards else None}
    if kind in (STOP, PLAY_ON):
        return {"stop": kind == STOP}
    return {KIND_NAMES[kind]: True}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"play Th"``, ``"exchange 7c+9d"``, ``"stand"``, ``"pass"``, ``"discard 8s"``,
    ``"stop"``, ``"play_on"``; an observed exchange ``"exchange 3"``, an unseen discard
    ``"discard"``."""
    kind, cards = action_parts(action)
    if kind == EXCHANGE_SEEN:
        return f"exchange {cards}"
    text = KIND_NAMES[kind]
    return f"{text} {'+'.join(names(cards))}" if cards else text


def _action_card(d: Mapping, key: str) -> int:
    name = d[key]
    try:
        return MUSHKA.index(name)
    except CardError as e:
        raise IllegalActionError(f"action {dict(d)!r}: {e}") from None


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict (module docstring); it must be legal here."""
    if not isinstance(d, Mapping) or len(d) != 1:
        raise IllegalActionError(f"action {d!r}: expected one of {_ACTION_FORMS}")
    (key, value), = d.items()
    if key in ("play", "discard") and isinstance(value, str):
        action = (PLAY if key == "play" else DISCARD) << KIND_SHIFT | 1 << _action_card(d, key)
    elif key == "exchange" and isinstance(value, (list, tuple)) and value \
            and all(isinstance(v, str) for v in value):
        cards = [_action_card({key: v}, key) for v in value]
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"action {dict(d)!r}: a card is listed twice")
        action = EXCHANGE << KIND_SHIFT | _mask(cards)
    elif key in ("stand", "pass") and value is True:
        action = (STAND if key == "stand" else PASS) << KIND_SHIFT
    elif key == "stop" and isinstance(value, bool):
        action = (STOP if value else PLAY_ON) << KIND_SHIFT
    else:
        raise IllegalActionError(f"action {dict(d)!r}: expected one of {_ACTION_FORMS}")
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {action_to_string(vec, action)}: expected one of "
            + (", ".join(action_to_string(vec, a) for a in legal) or "nothing (terminal)"))
    return action


# --- views -------------------------------------------------------------------------------------

def ace_holder_public(vec: np.ndarray, n: int) -> bool:
    """Rules §5: the ace holder is public once the bonus was written off or the ace of spades
    was played (or it is the turned card, whose place everyone knows)."""
    if int(vec[TRUMP_CARD]) == ACE_OF_SPADES or vec[BONUS_TAKEN]:
        return True
    return any(int(vec[PLAYED + s]) >> ACE_OF_SPADES & 1 for s in range(n))


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
    own = int(vec[HAND + player]) | int(vec[DISCARDS + player]) | int(vec[PLAYED + player])
    known = ace_holder_public(vec, n) or bool(own >> ACE_OF_SPADES & 1)
    dealer, trump = int(vec[DEALER]), int(vec[TRUMP_CARD])
    known_cards: list[list[str]] = [[] for _ in range(n)]
    if vec[TRUMP_TAKEN] and int(vec[HAND + dealer]) >> trump & 1:
        known_cards[dealer] = [MUSHKA.name(trump)]
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
    phase = int(vec[PHASE])
    holder = int(vec[ACE_HOLDER]) - 1
    stopped = int(vec[STOPPER]) != 0
    ended = not vec[VOID_DEAL] and (
        (phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER) and (not stopped
                                                           or int(vec[STOP_AT]) == AT_END))
        or (phase == PHASE_STOP and int(vec[STOP_AT]) == AT_END))
    bonus = nominal_bonus(int(vec[TRUMP_CARD]), rules)
    first = rules.ace_bonus_timing == "first_trick"
    tricks, aces, remises = [], [], []
    for s in range(n):
        won = int(vec[TRICKS_WON + s])
        b = bonus if s == holder and vec[BONUS_TAKEN] else 0
        taken = simulate_record(int(vec[START_RECORD + s]), won, b, first, 0, rules)[1]
        tricks.append(won)
        aces.append(taken)
        remises.append(remise_of(s, won, holder, rules)
                       if ended and int(vec[ACTIVE]) >> s & 1 else 0)
    records = [int(vec[RECORD + s]) for s in range(n)]
    return {"tricks": tricks, "ace_bonus": aces, "remise": remises,
            "record_change": [int(vec[START_RECORD + s]) - records[s] for s in range(n)],
            "records": records}
