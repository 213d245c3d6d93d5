"""Minchiate positions, actions and observations as text and JSON-ready dicts.

Position dict (``to_dict`` output, ``from_dict`` input; every key required, in this order)::

    {"game": "minchiate", "rules": {every MinchiateRules field}, "mode": "deal" | "match",
     "deal_number": 1.., "phase": "discard" | "declare" | "play" | "deal_over" | "match_over",
     "dealer": seat, "cutter": seat (dealer + 3), "to_move": seat (None when over),
     "hands": [[cards] per seat], "cutter_robbed": [cards], "seen_bottom": card | None,
     "exposed": [card | None per seat], "dealer_robbed": [cards],
     "discards": [[cards] per seat], "to_discard": int (the mover's, phase discard),
     "fola": [cards] (the discards included), "fola_open": bool,
     "declared": [[[cards of one combination], ...] per seat] (ascending combination id),
     "declared_done": [bool per seat], "bonus_claimed": [bool per seat],
     "leader": seat | None (None until play starts), "trick": [[seat, card], ...] (playing
     order), "tricks_played": int, "tricks_won": [A, B], "played": [[cards] per seat],
     "suits_led": ["co", ...], "excluded": [[cards] per seat] (publicly known not to be in
     that hand), "piles": [[cards] A, [cards] B], "matto_team": "A" | "B" | None,
     "matto_debt": bool, "last_winner": seat | None,
     "points": {source: [A, B]} (layout.SOURCES), "D": int, "resti": [A, B],
     "paid_card": card | None, "matto_given": bool, "net": int | None (this deal's, None
     before its end), "net_total": int, "start_dealer": seat, "rng": [4 uint64]}

Card lists are sorted by index except the trick (playing order). Teams: A = seats 0 and 2,
B = seats 1 and 3 (the team of seat ``s`` is ``s & 1``). Where the cards are: every card is in
exactly one of the hands, the Fola, the two piles and the current trick; the discards are a
part of the Fola; ``played`` lists every card a seat played this deal (in a pile or in the
current trick); the robbed, exposed and declared cards (and the Matto of a claimed bonus) are
annotations of cards the seat showed, wherever they are now (hand, played, or a discarded
robbed or exposed card).

``from_dict`` checks that the position is possible (:func:`.validation.check`, which lists
the checks; each failure a one-line :class:`~cardsim.errors.PositionError` naming the key,
a bad card name also a :class:`~cardsim.errors.CardError`), then it rebuilds the state
vector: ``SHOWN`` from the robbed, exposed and declared cards and the
claimed Matto, ``LED_SUIT`` from the trick, ``DECL_LAST`` from the declarer's last
combination, ``TO_DISCARD``; the deal order ``ORDER`` holds :data:`cardsim.compiled.order.UNKNOWN`
(no kernel reads it after the deal).

Actions (the engine: ``kind << 8 | value``): ``{"play": "T29"}`` / ``"play T29"``,
``{"discard": "6cu"}`` / ``"discard 6cu"``, ``{"declare": ["T28", "T29", "T30"]}`` /
``"declare T28+T29+T30"`` (the combination's cards in index order), ``{"done": True,
"bonus": False}`` / ``"done"``, ``{"done": True, "bonus": True}`` / ``"done bonus"``. A discard
as the other players observe it (``discard_seen``, never legal) is ``{"discard": None}`` /
``"discard"``.
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
from .reference import led_suit
from .validation import COMBO_BITS, check, shown_of
from .validation_scoring import SUIT_BITS, team_of

GAME = "minchiate"
KEYS = ("game", "rules", "mode", "deal_number", "phase", "dealer", "cutter", "to_move",
        "hands", "cutter_robbed", "seen_bottom", "exposed", "dealer_robbed", "discards",
        "to_discard", "fola", "fola_open", "declared", "declared_done", "bonus_claimed",
        "leader", "trick", "tricks_played", "tricks_won", "played", "suits_led", "excluded",
        "piles", "matto_team", "matto_debt", "last_winner", "points", "D", "resti",
        "paid_card", "matto_given", "net", "net_total", "start_dealer", "rng")
MODE_NAMES = ("deal", "match")
TEAM_NAMES = ("A", "B")
SUIT_SHORTS = ("co", "cu", "sw", "ba")
MAX_RESTI = 1_000_000          # a sanity bound for from_dict (resti, net totals)
N = L.N_PLAYERS

# --- card sets as Python ints (bit = card index) ------------------------------------------------

def words(vec: np.ndarray, at: int) -> int:
    """The two-word card set at ``at`` as one int."""
    return DECK.from_words(vec[at:at + 2])


def put(vec: np.ndarray, at: int, mask: int) -> None:
    """Write a card set (int) as its two words at ``at``."""
    vec[at:at + 2] = DECK.to_words(mask)


def names(mask: int) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(int(mask))


def combo_id(cards: list[int]) -> int:
    """The combination id of a set of cards (MI-COMB-1/2), -1 when it is none."""
    try:
        return COMBO_BITS.index(mask_of(cards))
    except ValueError:
        return -1


# --- reading the state -------------------------------------------------------------------------

def trick_of(vec: np.ndarray) -> list[tuple[int, int]]:
    """The current trick as (seat, card) in playing order from the leader."""
    leader = int(vec[L.LEADER]) % N
    out = []
    for i in range(N):
        s = (leader + i) % N
        t = int(vec[L.TRICK_CARD + s])
        if t:
            out.append((s, t - 1))
    return out


def play_started(vec: np.ndarray, rules: Any) -> bool:
    """True once the first trick can be (or was) led."""
    phase = int(vec[L.PHASE])
    if phase == L.PHASE_DISCARD:
        return False
    if phase == L.PHASE_DECLARE:
        return rules.declaration_timing == "after_own_first_card"
    return True


def declared_ids(vec: np.ndarray, seat: int) -> list[int]:
    """The combination ids the seat declared, ascending."""
    w0, w1 = int(vec[L.DECLARED + 2 * seat]), int(vec[L.DECLARED + 2 * seat + 1])
    return [c for c in range(L.N_COMBOS) if (w0 >> c & 1 if c < 64 else w1 >> (c - 64) & 1)]


def exposed_of(vec: np.ndarray, seat: int) -> int | None:
    """The seat's exposed 21st card (wherever it is now), None when there is none."""
    own = words(vec, L.HAND + 2 * seat) | words(vec, L.PLAYED + 2 * seat) \
        | words(vec, L.DISCARDS + 2 * seat)
    mine = words(vec, L.EXPOSED) & own
    return mine.bit_length() - 1 if mine else None


def _opt_card(word: Any) -> str | None:
    w = int(word)
    return DECK.name(w - 1) if w else None


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    phase = int(vec[L.PHASE])
    over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    started = play_started(vec, rules)
    dealer = int(vec[L.DEALER])
    mt, lw = int(vec[L.MATTO_TEAM]), int(vec[L.LAST_WINNER])
    exposed = [exposed_of(vec, s) for s in range(N)]
    return {
        "game": GAME, "rules": rules_dict(rules),
        "mode": MODE_NAMES[int(vec[L.MODE])],
        "deal_number": int(vec[L.DEAL_NUMBER]),
        "phase": L.PHASE_NAMES[phase],
        "dealer": dealer, "cutter": (dealer + 3) % N,
        "to_move": None if over else int(vec[L.TO_MOVE]),
        "hands": [names(words(vec, L.HAND + 2 * s)) for s in range(N)],
        "cutter_robbed": names(words(vec, L.CUTTER_ROBBED)),
        "seen_bottom": _opt_card(vec[L.SEEN_BOTTOM]),
        "exposed": [None if c is None else DECK.name(c) for c in exposed],
        "dealer_robbed": names(words(vec, L.DEALER_ROBBED)),
        "discards": [names(words(vec, L.DISCARDS + 2 * s)) for s in range(N)],
        "to_discard": int(vec[L.TO_DISCARD]),
        "fola": names(words(vec, L.FOLA)),
        "fola_open": bool(vec[L.FOLA_OPEN]),
        "declared": [[names(COMBO_BITS[c]) for c in declared_ids(vec, s)] for s in range(N)],
        "declared_done": [bool(int(vec[L.DECLARED_DONE]) >> s & 1) for s in range(N)],
        "bonus_claimed": [bool(int(vec[L.BONUS_CLAIMED]) >> s & 1) for s in range(N)],
        "leader": int(vec[L.LEADER]) if started else None,
        "trick": [[s, DECK.name(c)] for s, c in trick_of(vec)] if started else [],
        "tricks_played": int(vec[L.TRICK_NUMBER]),
        "tricks_won": [int(vec[L.TRICKS_WON + t]) for t in range(2)],
        "played": [names(words(vec, L.PLAYED + 2 * s)) for s in range(N)],
        "suits_led": [SUIT_SHORTS[s] for s in range(4) if int(vec[L.SUITS_LED]) >> s & 1],
        "excluded": [names(words(vec, L.EXCLUDED + 2 * s)) for s in range(N)],
        "piles": [names(words(vec, L.PILE + 2 * t)) for t in range(2)],
        "matto_team": TEAM_NAMES[mt - 1] if mt else None,
        "matto_debt": bool(vec[L.MATTO_DEBT]),
        "last_winner": lw - 1 if lw else None,
        "points": {src: [int(vec[L.POINTS + 2 * i + t]) for t in range(2)]
                   for i, src in enumerate(L.SOURCES)},
        "D": int(vec[L.D_WORD]) - L.D_BIAS,
        "resti": [int(vec[L.RESTI + t]) for t in range(2)],
        "paid_card": _opt_card(vec[L.PAID_CARD]),
        "matto_given": bool(vec[L.MATTO_GIVEN]),
        "net": int(vec[L.NET]) - L.D_BIAS if over else None,
        "net_total": int(vec[L.NET_TOTAL]) - L.D_BIAS,
        "start_dealer": int(vec[L.START_DEALER]),
        "rng": [int(x) for x in vec[L.RNG:L.RNG + 4]],
    }


# --- from_dict: parsing ------------------------------------------------------------------------

_F = Fields(DECK)
_err = _F.error
_int = _F.integer
_bool = _F.flag
_list = _F.per
_card = _F.card
_cards = _F.cards


def _seat(key: str, v: Any, optional: bool = False) -> int | None:
    return _F.seat(key, v, N, optional)


def _opt(key: str, name: Any) -> int | None:
    return None if name is None else _card(key, name)





def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem
    (the checks are listed in the module docstring)."""
    check_header(d, rules, GAME, set(KEYS), KEYS)
    p = _parse(d, rules)
    check(p, rules)
    return _build(p, rules)


def _parse(d: Mapping[str, Any], rules: Any) -> dict:
    """Every value of the dict, type- and range-checked, cards as indices (masks for sets)."""
    p: dict[str, Any] = {}
    if d["mode"] not in MODE_NAMES:
        raise _err(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    p["mode"] = MODE_NAMES.index(d["mode"])
    p["deal_number"] = _int("deal_number", d["deal_number"], 1, rules.deals)
    if d["phase"] not in L.PHASE_NAMES:
        raise _err(f"phase={d['phase']!r}: expected one of {', '.join(L.PHASE_NAMES)}")
    p["phase"] = L.PHASE_NAMES.index(d["phase"])
    p["over"] = p["phase"] in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    p["dealer"] = _seat("dealer", d["dealer"])
    p["cutter"] = _seat("cutter", d["cutter"])
    if p["over"]:
        if d["to_move"] is not None:
            raise _err(f"to_move={d['to_move']!r}: expected None in phase {d['phase']!r}")
        p["to_move"] = None
    else:
        p["to_move"] = _seat("to_move", d["to_move"])
    for key in ("hands", "discards", "played", "excluded"):
        p[key] = [mask_of(_cards(f"{key}[{s}]", v))
                  for s, v in enumerate(_list(key, d[key], N, "seat"))]
    p["piles"] = [mask_of(_cards(f"piles[{t}]", v))
                  for t, v in enumerate(_list("piles", d["piles"], 2, "team (A, B)"))]
    for key in ("cutter_robbed", "dealer_robbed", "fola"):
        p[key] = mask_of(_cards(key, d[key]))
    p["seen_bottom"] = _opt("seen_bottom", d["seen_bottom"])
    p["exposed"] = [_opt(f"exposed[{s}]", v)
                    for s, v in enumerate(_list("exposed", d["exposed"], N, "seat"))]
    p["to_discard"] = _int("to_discard", d["to_discard"], 0, 13)
    p["fola_open"] = _bool("fola_open", d["fola_open"])
    p["declared"] = [_declared(s, v)
                     for s, v in enumerate(_list("declared", d["declared"], N, "seat"))]
    for key in ("declared_done", "bonus_claimed"):
        p[key] = [_bool(f"{key}[{s}]", v) for s, v in enumerate(_list(key, d[key], N, "seat"))]
    p["leader"] = _seat("leader", d["leader"], optional=True)
    trick = d["trick"]
    if isinstance(trick, str) or not isinstance(trick, (list, tuple)):
        raise _err(f"trick={trick!r}: expected a list of [seat, card] in playing order")
    p["trick"] = []
    for i, entry in enumerate(trick):
        if isinstance(entry, str) or not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise _err(f"trick[{i}]={entry!r}: expected [seat, card]")
        p["trick"].append((_seat(f"trick[{i}] seat", entry[0]), _card(f"trick[{i}]", entry[1])))
    p["tricks_played"] = _int("tricks_played", d["tricks_played"], 0, L.TRICKS_PER_DEAL)
    p["tricks_won"] = [_int(f"tricks_won[{t}]", v, 0, L.TRICKS_PER_DEAL)
                       for t, v in enumerate(_list("tricks_won", d["tricks_won"], 2,
                                                   "team (A, B)"))]
    suits = d["suits_led"]
    if isinstance(suits, str) or not isinstance(suits, (list, tuple)) \
            or any(s not in SUIT_SHORTS for s in suits):
        raise _err(f"suits_led={suits!r}: expected a list of suits from co, cu, sw, ba")
    if list(suits) != [s for s in SUIT_SHORTS if s in suits]:
        raise _err(f"suits_led={suits!r}: expected distinct suits in the order co, cu, sw, ba")
    p["suits_led"] = sum(1 << SUIT_SHORTS.index(s) for s in suits)
    mt = d["matto_team"]
    if mt is not None and mt not in TEAM_NAMES:
        raise _err(f"matto_team={mt!r}: expected 'A', 'B' or None")
    p["matto_team"] = None if mt is None else TEAM_NAMES.index(mt)
    p["matto_debt"] = _bool("matto_debt", d["matto_debt"])
    p["last_winner"] = _seat("last_winner", d["last_winner"], optional=True)
    pts = d["points"]
    if not isinstance(pts, Mapping) or set(pts) != set(L.SOURCES):
        raise _err(f"points={pts!r}: expected a dict with the sources {', '.join(L.SOURCES)}")
    p["points"] = [[_int(f"points[{src!r}][{t}]", v, 0, MAX_RESTI)
                    for t, v in enumerate(_list(f"points[{src!r}]", pts[src], 2,
                                                "team (A, B)"))] for src in L.SOURCES]
    resto = rules.resto_points
    p["D"] = _int("D", d["D"], -resto + 1, resto - 1)
    p["resti"] = [_int(f"resti[{t}]", v, 0, MAX_RESTI)
                  for t, v in enumerate(_list("resti", d["resti"], 2, "team (A, B)"))]
    p["paid_card"] = _opt("paid_card", d["paid_card"])
    p["matto_given"] = _bool("matto_given", d["matto_given"])
    p["net"] = None if d["net"] is None else _int("net", d["net"], -MAX_RESTI, MAX_RESTI)
    p["net_total"] = _int("net_total", d["net_total"], -MAX_RESTI, MAX_RESTI)
    p["start_dealer"] = _seat("start_dealer", d["start_dealer"])
    p["rng"] = rng_words(d, GAME)
    return p


def _declared(seat: int, v: Any) -> list[int]:
    """A seat's declared combinations as ids (ascending, each a catalogue combination)."""
    key = f"declared[{seat}]"
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise _err(f"{key}={v!r}: expected a list of combinations (lists of card names)")
    ids = []
    for i, combo in enumerate(v):
        c = combo_id(_cards(f"{key}[{i}]", combo))
        if c < 0:
            raise _err(f"{key}[{i}]={combo!r}: not a combination (MI-COMB-1/2)")
        ids.append(c)
    if ids != sorted(set(ids)):
        raise _err(f"{key}: expected distinct combinations in ascending id order (runs low to "
                   "high, Matto-1-40, 1-13-28, decine, Kings)")
    return ids


# --- from_dict: consistency --------------------------------------------------------------------

def _build(p: dict, rules: Any) -> np.ndarray:
    """The state vector of a validated position."""
    vec = np.zeros(L.STATE_LEN, dtype=np.uint64)
    u = np.uint64
    for s in range(N):
        put(vec, L.HAND + 2 * s, p["hands"][s])
        put(vec, L.PLAYED + 2 * s, p["played"][s])
        put(vec, L.SHOWN + 2 * s, shown_of(p, s))
        put(vec, L.EXCLUDED + 2 * s, p["excluded"][s])
        put(vec, L.DISCARDS + 2 * s, p["discards"][s])
        dw = [0, 0]
        for c in p["declared"][s]:
            dw[c >> 6] |= 1 << (c & 63)
        vec[L.DECLARED + 2 * s] = u(dw[0])
        vec[L.DECLARED + 2 * s + 1] = u(dw[1])
    for t in range(2):
        put(vec, L.PILE + 2 * t, p["piles"][t])
        vec[L.TRICKS_WON + t] = u(p["tricks_won"][t])
        vec[L.RESTI + t] = u(p["resti"][t])
    put(vec, L.FOLA, p["fola"])
    put(vec, L.CUTTER_ROBBED, p["cutter_robbed"])
    put(vec, L.DEALER_ROBBED, p["dealer_robbed"])
    put(vec, L.EXPOSED, mask_of(c for c in p["exposed"] if c is not None))
    for s, c in p["trick"]:
        vec[L.TRICK_CARD + s] = u(c + 1)
    order = vec[L.ORDER:L.ORDER + L.ORDER_WORDS].view(np.uint8)
    order[:L.N_CARDS] = UNKNOWN
    for i, src in enumerate(L.SOURCES):
        for t in range(2):
            vec[L.POINTS + 2 * i + t] = u(p["points"][i][t])
    vec[L.RNG:L.RNG + 4] = p["rng"]
    vec[L.DEALER] = u(p["dealer"])
    vec[L.LEADER] = u(p["leader"] if p["started"] else 0)
    vec[L.TO_MOVE] = u(p["to_move"] or 0)
    vec[L.PHASE] = u(p["phase"])
    vec[L.TRICK_NUMBER] = u(p["tricks_played"])
    led = led_suit(p["trick"])
    vec[L.LED_SUIT] = u(L.NO_SUIT if led is None else led)
    vec[L.SUITS_LED] = u(p["suits_led"])
    vec[L.MATTO_TEAM] = u(0 if p["matto_team"] is None else p["matto_team"] + 1)
    vec[L.MATTO_DEBT] = u(p["matto_debt"])
    vec[L.LAST_WINNER] = u(0 if p["last_winner"] is None else p["last_winner"] + 1)
    vec[L.D_WORD] = u(p["D"] + L.D_BIAS)
    vec[L.TO_DISCARD] = u(p["to_discard"])
    if p["phase"] == L.PHASE_DECLARE and p["declared"][p["to_move"]]:
        vec[L.DECL_LAST] = u(p["declared"][p["to_move"]][-1] + 1)
    vec[L.DECLARED_DONE] = u(sum(1 << s for s in range(N) if p["declared_done"][s]))
    vec[L.BONUS_CLAIMED] = u(sum(1 << s for s in range(N) if p["bonus_claimed"][s]))
    vec[L.FOLA_OPEN] = u(p["fola_open"])
    vec[L.SEEN_BOTTOM] = u(0 if p["seen_bottom"] is None else p["seen_bottom"] + 1)
    vec[L.PAID_CARD] = u(0 if p["paid_card"] is None else p["paid_card"] + 1)
    vec[L.MATTO_GIVEN] = u(p["matto_given"])
    vec[L.NET] = u((p["net"] or 0) + L.D_BIAS)
    vec[L.NET_TOTAL] = u(p["net_total"] + L.D_BIAS)
    vec[L.MODE] = u(L.MODE_MATCH if p["mode"] == L.MODE_MATCH else L.MODE_DEAL)
    vec[L.DEAL_NUMBER] = u(p["deal_number"])
    vec[L.START_DEALER] = u(p["start_dealer"])
    return vec


# --- actions -----------------------------------------------------------------------------------

_ACTION_FORMS = ("{'play': card}, {'discard': card}, {'declare': [cards]} or "
                 "{'done': true, 'bonus': false|true}")


def action_parts(action: Any) -> tuple[int, int]:
    """(kind, value) of a Minchiate action id; :class:`IllegalActionError` for anything else."""
    bad = IllegalActionError(f"{action!r} is not a minchiate action id")
    if not is_int(action) or action < 0:
        raise bad
    action = int(action)
    kind, v = action >> L.KIND_SHIFT, action & L.VALUE_MASK
    ok = {L.PLAY: v < L.N_CARDS, L.DISCARD: v < L.N_CARDS, L.DECLARE: v < L.N_COMBOS,
          L.DONE: v <= 1, L.DISCARD_SEEN: v == 0}.get(kind, False)
    if not ok:
        raise bad
    return kind, v


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, v = action_parts(action)
    if kind == L.PLAY:
        return {"play": DECK.name(v)}
    if kind == L.DISCARD:
        return {"discard": DECK.name(v)}
    if kind == L.DECLARE:
        return {"declare": names(COMBO_BITS[v])}
    if kind == L.DONE:
        return {"done": True, "bonus": bool(v)}
    return {"discard": None}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"play T29"``, ``"discard 6cu"``, ``"declare T28+T29+T30"``, ``"done"``,
    ``"done bonus"``; an unseen discard ``"discard"``."""
    kind, v = action_parts(action)
    if kind in (L.PLAY, L.DISCARD):
        return f"{L.KIND_NAMES[kind]} {DECK.name(v)}"
    if kind == L.DECLARE:
        return "declare " + "+".join(names(COMBO_BITS[v]))
    if kind == L.DONE:
        return "done bonus" if v else "done"
    return "discard"


def _action_card(d: Mapping, name: Any) -> int:
    try:
        return DECK.index(name)
    except CardError as e:
        raise IllegalActionError(f"action {dict(d)!r}: {e}") from None


def action_id(d: Any) -> int:
    """The id of an action dict (module docstring), not checked for legality."""
    if not isinstance(d, Mapping) or not d:
        raise IllegalActionError(f"action {d!r}: expected one of {_ACTION_FORMS}")
    keys = set(d)
    if keys in ({"play"}, {"discard"}) and isinstance(next(iter(d.values())), str):
        (key, name), = d.items()
        return (L.PLAY if key == "play" else L.DISCARD) << L.KIND_SHIFT | _action_card(d, name)
    if keys == {"declare"} and isinstance(d["declare"], (list, tuple)) \
            and all(isinstance(x, str) for x in d["declare"]):
        cards = [_action_card(d, x) for x in d["declare"]]
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"action {dict(d)!r}: a card is listed twice")
        c = combo_id(cards)
        if c < 0:
            raise IllegalActionError(f"action {dict(d)!r}: {'+'.join(d['declare'])} is not a "
                                     "combination (MI-COMB-1/2)")
        return L.DECLARE << L.KIND_SHIFT | c
    if keys <= {"done", "bonus"} and d.get("done") is True \
            and isinstance(d.get("bonus", False), bool):
        return L.DONE << L.KIND_SHIFT | int(d.get("bonus", False))
    raise IllegalActionError(f"action {dict(d)!r}: expected one of {_ACTION_FORMS}")


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict (module docstring); it must be legal here."""
    return require_legal(action_id(d), legal, lambda a: action_to_string(vec, a))


def action_from_string(text: str) -> dict:
    """The dict form of an action's text (``action_to_string``'s inverse, the unseen discard
    excepted): ``"play T29"``, ``"discard 6cu"``, ``"declare T1+T2+T3"``, ``"done"``,
    ``"done bonus"``."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) == 2 and parts[0] in ("play", "discard"):
        return {parts[0]: parts[1]}
    if len(parts) == 2 and parts[0] == "declare":
        return {"declare": parts[1].split("+")}
    if parts == ["done"] or parts == ["done", "bonus"]:
        return {"done": True, "bonus": len(parts) == 2}
    raise IllegalActionError(f"action {text!r}: expected 'play <card>', 'discard <card>', "
                             "'declare <card>+<card>+...', 'done' or 'done bonus'")


# --- views -------------------------------------------------------------------------------------

def fola_known_to(vec: np.ndarray, rules: Any, player: int) -> int:
    """The Fola cards ``player`` knows (rules §6): all of them once opened; else his own
    discards, the robbed or exposed cards discarded (their place is public), the card seen at
    the bottom, and to the dealer the cards he saw robbing (``dealer_rob=auto_all``: the Fola
    less every discard)."""
    fola = words(vec, L.FOLA)
    if vec[L.FOLA_OPEN]:
        return fola
    known = words(vec, L.DISCARDS + 2 * player)
    if vec[L.SEEN_BOTTOM]:
        known |= 1 << (int(vec[L.SEEN_BOTTOM]) - 1)
    discards = shown = 0
    for s in range(N):
        discards |= words(vec, L.DISCARDS + 2 * s)
        shown |= words(vec, L.DISCARDS + 2 * s) & words(vec, L.SHOWN + 2 * s)
    known |= shown          # a robbed or exposed card discarded: public where it went
    if player == int(vec[L.DEALER]) and rules.dealer_rob == "auto_all":
        known |= fola & ~discards
    return fola & known


def first_lead_made(vec: np.ndarray) -> bool:
    """The first card of trick 1 is on the table (or a trick is complete)."""
    return int(vec[L.TRICK_NUMBER]) > 0 or any(int(vec[L.TRICK_CARD + s]) for s in range(N))


def observation(vec: np.ndarray, rules: Any, player: int) -> dict:
    """What ``player`` sees (rules §6), a JSON-ready dict: his own hand and discards; of the
    others, hand sizes, the cards they publicly showed and still hold (``known_cards``:
    robbed, exposed, declared, the claimed Matto) and discard counts (their discards only once
    the Fola is opened); the Fola cards he knows (``fola``: all once opened; before, his own
    discards, shown cards (robbed, exposed) that were discarded, the bottom card the cutter
    saw and, to a robbing dealer, the undiscarded Fola)
    and its size; with ``fola_visibility=suit_counts`` the Fola's cards per plain suit from the
    first lead (``fola_suit_counts``, else None); everything public: robbed and exposed cards,
    declarations, tricks, played cards, piles, the inferences (``excluded``), points, D, resti
    and the result. Never the other hands, hidden discards or Fola cards, nor the chance
    stream."""
    full = to_dict(vec, rules)
    fola = words(vec, L.FOLA)
    opened = bool(vec[L.FOLA_OPEN])
    out: dict[str, Any] = {"player": player}
    for key in ("mode", "deal_number", "phase", "dealer", "cutter", "to_move"):
        out[key] = full[key]
    out["hand"] = full["hands"][player]
    out["hand_sizes"] = [len(h) for h in full["hands"]]
    out["known_cards"] = [names(words(vec, L.SHOWN + 2 * s) & words(vec, L.HAND + 2 * s))
                          for s in range(N)]
    for key in ("cutter_robbed", "seen_bottom", "exposed", "dealer_robbed"):
        out[key] = full[key]
    out["discards"] = [full["discards"][s] if s == player or opened else None
                       for s in range(N)]
    out["discard_counts"] = [len(x) for x in full["discards"]]
    out["to_discard"] = full["to_discard"]
    out["fola"] = names(fola_known_to(vec, rules, player))
    out["fola_size"] = fola.bit_count()
    out["fola_open"] = opened
    counts = None
    if rules.fola_visibility == "suit_counts" and first_lead_made(vec):
        counts = {SUIT_SHORTS[s]: (fola & SUIT_BITS[s]).bit_count() for s in range(4)}
    out["fola_suit_counts"] = counts
    for key in ("declared", "declared_done", "bonus_claimed", "leader", "trick",
                "tricks_played", "tricks_won", "played", "suits_led", "excluded", "piles",
                "matto_team", "matto_debt", "last_winner", "points", "D", "resti",
                "paid_card", "matto_given", "net", "net_total", "start_dealer"):
        out[key] = full[key]
    return out


def hidden_cards(vec: np.ndarray, rules: Any, player: int) -> int:
    """The cards ``player`` cannot see (rules §6): the other hands less their shown cards, the
    Fola less what he knows of it."""
    out = 0
    for s in range(N):
        if s != player:
            out |= words(vec, L.HAND + 2 * s) & ~words(vec, L.SHOWN + 2 * s)
    return out | words(vec, L.FOLA) & ~fola_known_to(vec, rules, player)


def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """This deal's points per team ``[A, B]`` (seat s plays for team ``s & 1``): one entry per
    source (layout.SOURCES) and their ``total``; ``declared_<kind>`` the combinations each
    team declared by kind (layout.COMBO_KINDS) and ``bonus_claims``; ``tricks``; ``resti``;
    ``net`` (``[net, -net]``, zeros before the end, like the returns) and ``net_total`` (the
    match's); ``D`` the running difference (an int)."""
    phase = int(vec[L.PHASE])
    over = phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER)
    out: dict[str, Any] = {}
    for i, src in enumerate(L.SOURCES):
        out[src] = [int(vec[L.POINTS + 2 * i + t]) for t in range(2)]
    out["total"] = [sum(out[src][t] for src in L.SOURCES) for t in range(2)]
    kinds = [[0, 0] for _ in L.COMBO_KINDS]
    for s in range(N):
        for c in declared_ids(vec, s):
            kinds[int(L.COMBO_KIND_ID[c])][team_of(s)] += 1
    for k, kind in enumerate(L.COMBO_KINDS):
        out[f"declared_{kind}"] = kinds[k]
    claimed = int(vec[L.BONUS_CLAIMED])
    out["bonus_claims"] = [sum(claimed >> s & 1 for s in range(N) if team_of(s) == t)
                           for t in range(2)]
    out["tricks"] = [int(vec[L.TRICKS_WON + t]) for t in range(2)]
    out["resti"] = [int(vec[L.RESTI + t]) for t in range(2)]
    net = int(vec[L.NET]) - L.D_BIAS if over else 0
    out["net"] = [net, -net]
    total = int(vec[L.NET_TOTAL]) - L.D_BIAS
    out["net_total"] = [total, -total]
    out["D"] = int(vec[L.D_WORD]) - L.D_BIAS
    return out

OBSERVATION_PLANES = (
    ("hand", planes.one(lambda o: o["hand"])), ("trick", planes.one(lambda o: o["trick"])),
    ("fola", planes.one(lambda o: o["fola"])), ("exposed", planes.one(lambda o: o["exposed"])),
    ("played", planes.per_seat("played")), ("known_cards", planes.per_seat("known_cards")),
    ("discards", planes.per_seat("discards")),
    ("piles", lambda o, n: [planes.flat(o["piles"][0]), planes.flat(o["piles"][1])]))
"""The card planes of the observation tensors (:attr:`cardsim.protocol.spec.GameDefinition.
observation_planes`): hand, current trick, the Fola (as far as it is seen), exposed cards, then
per seat: cards played, cards known in his hand, discards seen; then per team: pile."""
