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

``from_dict`` checks, each failure a one-line :class:`~cardsim.errors.PositionError` naming
the key (a bad card name also a :class:`~cardsim.errors.CardError`):

- types and ranges of every key; ``cutter`` = dealer + 3; the mode, deal number, start dealer
  and phase agree (``deal_over`` only in a deal, ``match_over`` only after deal ``deals``);
- each of the 97 cards exactly once in hands, Fola, piles and the trick; discards within the
  Fola; the trick's cards within ``played``, the piles' cards with the trick's = all played;
- the robbing (MI-CUT-1, MI-ROB-1): robbed cards eligible and the robber's (in his hand, his
  played cards or his discards), at most 13; ``seen_bottom`` present exactly when the cutter
  robbed fewer than 13 (``cutter_rob=auto``), a non-eligible card of the Fola; the Fola's
  undiscarded cards hold no eligible card after ``dealer_rob=auto_all``; the Fola holds
  13 − (robbed cards) + (discards) cards; one exposed card per seat exactly when
  ``expose_last_card=all_players``, held, played or discarded by its seat;
- the discards (MI-DISC-1..3): only the cutter (as many as he robbed) then the dealer (as many
  as he robbed) discard; a card above the cheapest discard class (T29, counting cards, or a
  zero-value trump with ``discard_trumps=false``) only when the seat's cards since then (hand
  and played) hold no cheaper class; ``to_discard`` is what the mover still owes;
- the phase fits the counts: hand sizes (21 + still to discard in phase discard, else
  21 − cards played), cards played per seat (tricks played, plus one in the current trick),
  declarations in turn (seats ``d+1, d+2, d+3, d`` before the first lead; after the own first
  card in trick 1 with ``after_own_first_card``), ``to_move``, ``leader`` (``d+1`` in trick 1,
  else the last trick's winner), ``fola_open`` (from the start of play, only with
  ``fola_visibility=open``);
- declarations (MI-DECL-*): each a combination of the seat's cards (hand + played: his 21
  cards after the discards), ascending, only by seats that declared or are declaring; with
  ``declaration_mode=all`` all of them and the bonus whenever it can be claimed; a bonus needs
  the Matto and a declared combination it applies to;
- the current trick: each card legal when it was played (its seat's hand then = hand now + that
  card, MI-PLAY-2..4, MI-KING-1) and its public inferences in ``excluded``; ``excluded`` never
  lists a card of the seat's hand, and only for a seat that played;
- tricks and piles (MI-MATTO-*): ``tricks_won`` add up to ``tricks_played``; ``last_winner``
  (None before the first trick) is of a team with a trick; each pile holds 4 × its tricks, the
  Matto's ±1 while a debt is open (``matto_debt``: the Matto lies in its team's pile after a
  trick the other team won); ``matto_team`` is the team of the seat that played the Matto; at
  the end the settlement: the Matto given (``matto_given``) when its team won nothing, else
  ``paid_card`` = the engine's choice (MI-MATTO-2) moved to the creditor; ``suits_led`` at
  most one plain suit per trick, each with a card in the piles;
- the points: every source follows from the cards (robbed, exposed, declared with the bonus,
  dying cards = counting cards a team took from the other team's players, the end sources from
  the final piles, zero before the end); the resti (MI-RESTO-*): −60 < D < 60, and with
  T = Σ points A − Σ points B, ``T − D = 60 × (resti A − resti B − R)`` where R is the final
  rounding (⌈D/60⌉ for D > 0, −⌈−D/60⌉ for D < 0, only once the deal is over, else 0) — the
  order of the events within play is not in the dict, so this is all the totals tell; before
  the first trick is complete every event is known (cutter, exposures, dealer, each declarer in
  turn) and D and the resti are replayed exactly; the resti never fall below that replay;
  ``net`` = resti A − resti B (with ``capot=it_rules`` the capot rule) once over, else None;
  ``net_total`` = ``net`` once over in a deal, 0 before (and in a match's first deal).

It rebuilds the state vector: ``SHOWN`` from the robbed, exposed and declared cards and the
claimed Matto, ``LED_SUIT`` from the trick, ``DECL_LAST`` from the declarer's last
combination, ``TO_DISCARD``; the deal order ``ORDER`` holds :data:`cardsim.order.UNKNOWN`
(no kernel reads it after the deal).

Actions (contract: ``kind << 8 | value``): ``{"play": "T29"}`` / ``"play T29"``,
``{"discard": "6cu"}`` / ``"discard 6cu"``, ``{"declare": ["T28", "T29", "T30"]}`` /
``"declare T28+T29+T30"`` (the combination's cards in index order), ``{"done": True,
"bonus": False}`` / ``"done"``, ``{"done": True, "bonus": True}`` / ``"done bonus"``. A discard
as the other players observe it (``discard_seen``, never legal) is ``{"discard": None}`` /
``"discard"``.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...cards import MINCHIATE
from ...errors import CardError, IllegalActionError
from ...options import rules_dict
from ...order import UNKNOWN
from ...positions import Fields, check_header, is_int, rng_words
from .layout import (BONUS_CLAIMED, COMBO_CARDS, COMBO_HAS_MATTO, COMBO_KIND_ID, COMBO_KINDS,
                     COMBO_VALUE, CUTTER_ROBBED, D_BIAS, D_WORD, DEAL_NUMBER, DEALER,
                     DEALER_ROBBED, DECINE_FOUR, DECINE_HIGH, DECINE_LOW, DECL_LAST, DECLARE,
                     DECLARED, DECLARED_DONE, DISCARD, DISCARD_SEEN, DISCARDS, DONE, EXCLUDED,
                     EXPOSED, FOLA, FOLA_OPEN, FOLA_SIZE, HALF_PACK, HAND, HAND_SIZE,
                     KIND_NAMES, KIND_SHIFT, KINGS, KINGS_FOUR, KINGS_THREE, LAST_TRICK_POINTS,
                     LAST_WINNER, LEADER, LED_SUIT, MATTO, MATTO_1_40, MATTO_BONUS, MATTO_DEBT,
                     MATTO_GIVEN, MATTO_TEAM, MODE, MODE_DEAL, MODE_MATCH, N_CARDS, N_COMBOS,
                     N_PLAYERS, NET, NET_TOTAL, NO_SUIT, ORDER, ORDER_WORDS, PAID_CARD,
                     PAPI_1_13_28, PHASE, PHASE_DEAL_OVER, PHASE_DECLARE, PHASE_DISCARD,
                     PHASE_MATCH_OVER, PHASE_NAMES, PHASE_PLAY, PILE, PLAY, PLAYED, POINTS,
                     RESTI, RNG, ROB_ELIGIBLE, RUN_ID, SEEN_BOTTOM, SHOWN, SOURCES,
                     SRC_BEYOND_42, SRC_CUTTER_ROB, SRC_DEALER_ROB, SRC_DECLARED, SRC_DYING,
                     SRC_EXPOSED, SRC_LAST_TRICK, SRC_PILE, SRC_PILE_COMBOS, START_DEALER,
                     STATE_LEN, SUIT, SUITS_LED, T29, TO_DISCARD, TO_MOVE, TRICK_CARD,
                     TRICK_NUMBER, TRICKS_PER_DEAL, TRICKS_WON, TRUMPS, VALUE, VALUE_MASK)

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
N = N_PLAYERS

# --- card sets as Python ints (bit = card index) ------------------------------------------------

ALL = (1 << N_CARDS) - 1
M_BIT = 1 << MATTO


def _bits(pred) -> int:
    return sum(1 << c for c in range(N_CARDS) if pred(c))


SUIT_BITS = tuple(_bits(lambda c, s=s: SUIT[c] == s) for s in range(5))
"""SUIT_BITS[s]: the cards of suit s (4 = the trumps; the Matto is in none)."""
TRUMP_BITS = SUIT_BITS[TRUMPS]
ELIGIBLE_BITS = MINCHIATE.from_words(ROB_ELIGIBLE)
COMBO_BITS = tuple(sum(1 << c for c in cards) for cards in COMBO_CARDS)
KING_BITS = tuple(1 << int(k) for k in KINGS)


def words(vec: np.ndarray, at: int) -> int:
    """The two-word card set at ``at`` as one int."""
    return MINCHIATE.from_words(vec[at:at + 2])


def put(vec: np.ndarray, at: int, mask: int) -> None:
    """Write a card set (int) as its two words at ``at``."""
    vec[at:at + 2] = MINCHIATE.to_words(mask)


def names(mask: int) -> list[str]:
    """Card names of a mask, in index order."""
    return MINCHIATE.names(int(mask))


def popcount(mask: int) -> int:
    """Number of set bits."""
    return bin(int(mask)).count("1")


def value(mask: int) -> int:
    """MI-CARD values of a set of cards (rules §1.3)."""
    return sum(int(VALUE[c]) for c in _cards_of(mask))


def _cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def team_of(seat: int) -> int:
    """Team A = 0 (seats 0, 2), B = 1 (seats 1, 3)."""
    return seat & 1


def declaring_order(dealer: int) -> list[int]:
    """MI-DECL-1: the seats from the dealer's right, the dealer last (also trick 1's order)."""
    return [(dealer + 1 + j) % N for j in range(N)]


# --- combinations (MI-COMB-*) ------------------------------------------------------------------

def combos_of(mask: int, rules: Any) -> list[int]:
    """MI-COMB-1/2: the ids of the combinations a set of cards holds, ascending (maximal runs;
    ``decine_four`` decides whether 10-20-30-40 is one combination or two triples)."""
    out = []
    for low, high in ((0, 4), (27, 39)):
        i = low
        while i <= high:
            if mask >> i & 1:
                j = i
                while j + 1 <= high and mask >> (j + 1) & 1:
                    j += 1
                if j - i >= 2:
                    out.append(int(RUN_ID[i, j]))
                i = j + 1
            else:
                i += 1

    def has(combo: int) -> bool:
        return mask & COMBO_BITS[combo] == COMBO_BITS[combo]

    for combo in (MATTO_1_40, PAPI_1_13_28):
        if has(combo):
            out.append(combo)
    if has(DECINE_FOUR):
        out += [DECINE_LOW, DECINE_HIGH] if rules.decine_four == "two_triples" else [DECINE_FOUR]
    elif has(DECINE_LOW):
        out.append(DECINE_LOW)
    elif has(DECINE_HIGH):
        out.append(DECINE_HIGH)
    kings = [s for s in range(4) if mask & KING_BITS[s]]
    if len(kings) == 4:
        out.append(KINGS_FOUR)
    elif len(kings) == 3:
        out.append(KINGS_THREE + next(s for s in range(4) if s not in kings))
    return sorted(out)


def bonus_applies(combo: int, rules: Any) -> bool:
    """MI-COMB-4: the Matto bonus applies to this combination."""
    return not COMBO_HAS_MATTO[combo] or rules.matto_bonus_on_matto_combo


def declaration_points(combos: list[int], bonus: bool, rules: Any) -> int:
    """MI-DECL-3, MI-COMB-3/4: declared combinations, with the Matto bonus when claimed."""
    return sum(int(COMBO_VALUE[c]) + (MATTO_BONUS if bonus and bonus_applies(c, rules) else 0)
               for c in combos)


def pile_points(pile: int, rules: Any) -> tuple[int, int, int]:
    """MI-END-1..3: (card values, cards beyond 42, combinations with the Matto bonus when the
    pile holds the Matto) of a final pile."""
    combos = combos_of(pile, rules)
    return (value(pile), max(0, popcount(pile) - HALF_PACK),
            declaration_points(combos, bool(pile & M_BIT), rules))


def combo_id(cards: list[int]) -> int:
    """The combination id of a set of cards, -1 when it is none."""
    mask = sum(1 << c for c in cards)
    try:
        return COMBO_BITS.index(mask)
    except ValueError:
        return -1


# --- play (MI-PLAY-*, MI-KING-1) ---------------------------------------------------------------

def led_suit(trick: list[tuple[int, int]]) -> int:
    """The trick's led suit: the suit of its first non-Matto card (4 trumps, NO_SUIT none)."""
    return next((int(SUIT[c]) for _, c in trick if c != MATTO), NO_SUIT)


def king_rule(led: int, suits_led: int, before: list[int]) -> bool:
    """MI-KING-1: the first trick led in a plain suit, a trump already played to it."""
    return led < 4 and not suits_led >> led & 1 and any(SUIT[c] == TRUMPS for c in before)


def legal_plays(hand: int, led: int, suits_led: int, before: list[int]) -> int:
    """MI-PLAY-2..4, MI-KING-1: the cards a hand may play after the cards ``before``."""
    if led == NO_SUIT:
        return hand
    if led < 4 and hand & KING_BITS[led] and king_rule(led, suits_led, before):
        return KING_BITS[led]
    follow = hand & SUIT_BITS[led]
    if follow:
        return follow | hand & M_BIT
    trumps = hand & TRUMP_BITS
    if trumps:
        return trumps | hand & M_BIT
    return hand


def inferences(card: int, led: int, suits_led: int, before: list[int]) -> int:
    """Rules §6: the cards publicly shown absent from a hand by playing ``card``."""
    out = 0
    if led == NO_SUIT:
        return 0
    if led < 4 and king_rule(led, suits_led, before) and card != int(KINGS[led]):
        out |= KING_BITS[led]
    if card != MATTO and SUIT[card] != led:
        out |= SUIT_BITS[led]
        if SUIT[card] != TRUMPS:
            out |= TRUMP_BITS
    return out


def payment_card(pile: int) -> int:
    """MI-MATTO-2 (engine default): the debtor's lowest-index zero-value card other than T29,
    else its lowest-valued card (lowest index among equals)."""
    cards = _cards_of(pile)
    zero = [c for c in cards if VALUE[c] == 0 and c != T29]
    if zero:
        return zero[0]
    return min(cards, key=lambda c: (int(VALUE[c]), c))


def discard_class(card: int, rules: Any) -> int:
    """MI-DISC-2/3: 0 the zero-value cards but T29 (without trumps when
    ``discard_trumps=false``), 1 the other zero-value cards but T29, 2 T29, 3/4/5 the 3-, 5-
    and 10-point cards."""
    v = int(VALUE[card])
    if card == T29:
        return 2
    if v == 0:
        return 0 if rules.discard_trumps or SUIT[card] != TRUMPS else 1
    return {3: 3, 5: 4, 10: 5}[v]


def convert(d: int, resti: list[int], resto: int) -> int:
    """MI-RESTO-2 after one event: returns the new D, resti updated in place."""
    while d >= resto:
        resti[0] += 1
        d -= resto
    while d <= -resto:
        resti[1] += 1
        d += resto
    return d


def final_rounding(d: int, resto: int) -> int:
    """MI-RESTO-3: the resti team A gains (negative: team B) from the final D."""
    if d > 0:
        return -(-d // resto)
    if d < 0:
        return -((-d + resto - 1) // resto)
    return 0


# --- reading the state -------------------------------------------------------------------------

def trick_of(vec: np.ndarray) -> list[tuple[int, int]]:
    """The current trick as (seat, card) in playing order from the leader."""
    leader = int(vec[LEADER]) % N
    out = []
    for i in range(N):
        s = (leader + i) % N
        t = int(vec[TRICK_CARD + s])
        if t:
            out.append((s, t - 1))
    return out


def play_started(vec: np.ndarray, rules: Any) -> bool:
    """True once the first trick can be (or was) led."""
    phase = int(vec[PHASE])
    if phase == PHASE_DISCARD:
        return False
    if phase == PHASE_DECLARE:
        return rules.declaration_timing == "after_own_first_card"
    return True


def declared_ids(vec: np.ndarray, seat: int) -> list[int]:
    """The combination ids the seat declared, ascending."""
    w0, w1 = int(vec[DECLARED + 2 * seat]), int(vec[DECLARED + 2 * seat + 1])
    return [c for c in range(N_COMBOS) if (w0 >> c & 1 if c < 64 else w1 >> (c - 64) & 1)]


def exposed_of(vec: np.ndarray, seat: int) -> int | None:
    """The seat's exposed 21st card (wherever it is now), None when there is none."""
    own = words(vec, HAND + 2 * seat) | words(vec, PLAYED + 2 * seat) \
        | words(vec, DISCARDS + 2 * seat)
    mine = words(vec, EXPOSED) & own
    return mine.bit_length() - 1 if mine else None


def _opt_card(word: Any) -> str | None:
    w = int(word)
    return MINCHIATE.name(w - 1) if w else None


def to_dict(vec: np.ndarray, rules: Any) -> dict:
    """The position as a JSON-ready dict (format in the module docstring)."""
    phase = int(vec[PHASE])
    over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    started = play_started(vec, rules)
    dealer = int(vec[DEALER])
    mt, lw = int(vec[MATTO_TEAM]), int(vec[LAST_WINNER])
    exposed = [exposed_of(vec, s) for s in range(N)]
    return {
        "game": GAME, "rules": rules_dict(rules),
        "mode": MODE_NAMES[int(vec[MODE])],
        "deal_number": int(vec[DEAL_NUMBER]),
        "phase": PHASE_NAMES[phase],
        "dealer": dealer, "cutter": (dealer + 3) % N,
        "to_move": None if over else int(vec[TO_MOVE]),
        "hands": [names(words(vec, HAND + 2 * s)) for s in range(N)],
        "cutter_robbed": names(words(vec, CUTTER_ROBBED)),
        "seen_bottom": _opt_card(vec[SEEN_BOTTOM]),
        "exposed": [None if c is None else MINCHIATE.name(c) for c in exposed],
        "dealer_robbed": names(words(vec, DEALER_ROBBED)),
        "discards": [names(words(vec, DISCARDS + 2 * s)) for s in range(N)],
        "to_discard": int(vec[TO_DISCARD]),
        "fola": names(words(vec, FOLA)),
        "fola_open": bool(vec[FOLA_OPEN]),
        "declared": [[names(COMBO_BITS[c]) for c in declared_ids(vec, s)] for s in range(N)],
        "declared_done": [bool(int(vec[DECLARED_DONE]) >> s & 1) for s in range(N)],
        "bonus_claimed": [bool(int(vec[BONUS_CLAIMED]) >> s & 1) for s in range(N)],
        "leader": int(vec[LEADER]) if started else None,
        "trick": [[s, MINCHIATE.name(c)] for s, c in trick_of(vec)] if started else [],
        "tricks_played": int(vec[TRICK_NUMBER]),
        "tricks_won": [int(vec[TRICKS_WON + t]) for t in range(2)],
        "played": [names(words(vec, PLAYED + 2 * s)) for s in range(N)],
        "suits_led": [SUIT_SHORTS[s] for s in range(4) if int(vec[SUITS_LED]) >> s & 1],
        "excluded": [names(words(vec, EXCLUDED + 2 * s)) for s in range(N)],
        "piles": [names(words(vec, PILE + 2 * t)) for t in range(2)],
        "matto_team": TEAM_NAMES[mt - 1] if mt else None,
        "matto_debt": bool(vec[MATTO_DEBT]),
        "last_winner": lw - 1 if lw else None,
        "points": {src: [int(vec[POINTS + 2 * i + t]) for t in range(2)]
                   for i, src in enumerate(SOURCES)},
        "D": int(vec[D_WORD]) - D_BIAS,
        "resti": [int(vec[RESTI + t]) for t in range(2)],
        "paid_card": _opt_card(vec[PAID_CARD]),
        "matto_given": bool(vec[MATTO_GIVEN]),
        "net": int(vec[NET]) - D_BIAS if over else None,
        "net_total": int(vec[NET_TOTAL]) - D_BIAS,
        "start_dealer": int(vec[START_DEALER]),
        "rng": [int(x) for x in vec[RNG:RNG + 4]],
    }


# --- from_dict: parsing ------------------------------------------------------------------------

_F = Fields(MINCHIATE)
_err = _F.error
_is_int = is_int
_int = _F.integer
_bool = _F.flag
_list = _F.per
_card = _F.card
_cards = _F.cards


def _seat(key: str, v: Any, optional: bool = False) -> int | None:
    return _F.seat(key, v, N, optional)


def _opt(key: str, name: Any) -> int | None:
    return None if name is None else _card(key, name)




def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _show(mask: int) -> str:
    return "[" + ", ".join(names(mask)) + "]"


def from_dict(d: Mapping[str, Any], rules: Any) -> np.ndarray:
    """A validated state vector from a position dict; :class:`PositionError` names the problem
    (the checks are listed in the module docstring)."""
    check_header(d, rules, GAME, set(KEYS), KEYS)
    p = _parse(d, rules)
    _check_header_values(p, rules)
    _check_cards(p, rules)
    _check_discards(p, rules)
    _check_flow(p, rules)
    _check_declarations(p, rules)
    _check_trick(p, rules)
    _check_piles(p, rules)
    _check_points(p, rules)
    return _build(p, rules)


def _parse(d: Mapping[str, Any], rules: Any) -> dict:
    """Every value of the dict, type- and range-checked, cards as indices (masks for sets)."""
    p: dict[str, Any] = {}
    if d["mode"] not in MODE_NAMES:
        raise _err(f"mode={d['mode']!r}: expected 'deal' or 'match'")
    p["mode"] = MODE_NAMES.index(d["mode"])
    p["deal_number"] = _int("deal_number", d["deal_number"], 1, rules.deals)
    if d["phase"] not in PHASE_NAMES:
        raise _err(f"phase={d['phase']!r}: expected one of {', '.join(PHASE_NAMES)}")
    p["phase"] = PHASE_NAMES.index(d["phase"])
    p["over"] = p["phase"] in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    p["dealer"] = _seat("dealer", d["dealer"])
    p["cutter"] = _seat("cutter", d["cutter"])
    if p["over"]:
        if d["to_move"] is not None:
            raise _err(f"to_move={d['to_move']!r}: expected None in phase {d['phase']!r}")
        p["to_move"] = None
    else:
        p["to_move"] = _seat("to_move", d["to_move"])
    for key in ("hands", "discards", "played", "excluded"):
        p[key] = [_mask(_cards(f"{key}[{s}]", v))
                  for s, v in enumerate(_list(key, d[key], N, "seat"))]
    p["piles"] = [_mask(_cards(f"piles[{t}]", v))
                  for t, v in enumerate(_list("piles", d["piles"], 2, "team (A, B)"))]
    for key in ("cutter_robbed", "dealer_robbed", "fola"):
        p[key] = _mask(_cards(key, d[key]))
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
    p["tricks_played"] = _int("tricks_played", d["tricks_played"], 0, TRICKS_PER_DEAL)
    p["tricks_won"] = [_int(f"tricks_won[{t}]", v, 0, TRICKS_PER_DEAL)
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
    if not isinstance(pts, Mapping) or set(pts) != set(SOURCES):
        raise _err(f"points={pts!r}: expected a dict with the sources {', '.join(SOURCES)}")
    p["points"] = [[_int(f"points[{src!r}][{t}]", v, 0, MAX_RESTI)
                    for t, v in enumerate(_list(f"points[{src!r}]", pts[src], 2,
                                                "team (A, B)"))] for src in SOURCES]
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

def _check_header_values(p: dict, rules: Any) -> None:
    """Mode, deal number, dealers and the phase."""
    phase, mode = p["phase"], p["mode"]
    if mode == MODE_DEAL:
        if p["deal_number"] != 1:
            raise _err(f"deal_number={p['deal_number']}: expected 1 in mode 'deal'")
        if phase == PHASE_MATCH_OVER:
            raise _err("phase='match_over' with mode='deal': a single deal ends in 'deal_over'")
        if p["start_dealer"] != p["dealer"]:
            raise _err(f"start_dealer={p['start_dealer']}: expected the dealer {p['dealer']} "
                       "in mode 'deal'")
    else:
        if phase == PHASE_DEAL_OVER:
            raise _err("phase='deal_over' with mode='match': a match deals again after a deal, "
                       "or ends in 'match_over'")
        if phase == PHASE_MATCH_OVER and p["deal_number"] != rules.deals:
            raise _err(f"phase='match_over' at deal_number={p['deal_number']}: a match ends "
                       f"after deal {rules.deals} (deals={rules.deals})")
        want = (p["start_dealer"] + p["deal_number"] - 1) % N
        if p["dealer"] != want:
            raise _err(f"dealer={p['dealer']}: expected {want}, the deal passing to the right "
                       f"from start_dealer={p['start_dealer']} (deal {p['deal_number']})")
    cutter = (p["dealer"] + 3) % N
    if p["cutter"] != cutter:
        raise _err(f"cutter={p['cutter']}: expected {cutter}, the dealer's left (MI-CUT-1)")


def _check_cards(p: dict, rules: Any) -> None:
    """Each card once in hands, Fola, piles and trick; where the robbed, exposed, discarded and
    played cards are."""
    zones = [(f"hands[{s}]", p["hands"][s]) for s in range(N)]
    zones += [("fola", p["fola"]), ("piles[0]", p["piles"][0]), ("piles[1]", p["piles"][1]),
              ("trick", _mask(c for _, c in p["trick"]))]
    seen = 0
    where: dict[int, str] = {}
    for zone, mask in zones:
        clash = seen & mask
        if clash:
            c = (clash & -clash).bit_length() - 1
            raise _err(f"card {MINCHIATE.name(c)!r} is in both {where[c]} and {zone}: each card "
                       "exists once")
        for c in _cards_of(mask):
            where[c] = zone
        seen |= mask
    if seen != ALL:
        raise _err(f"missing cards {', '.join(names(ALL & ~seen))}: all 97 cards must be in "
                   "the hands, the fola, the piles or the trick")
    p["where"] = where
    dealer, cutter = p["dealer"], p["cutter"]
    own = [p["hands"][s] | p["played"][s] | p["discards"][s] for s in range(N)]
    p["own"] = own
    # played cards: in the piles or the current trick
    played_all = 0
    for s in range(N):
        if played_all & p["played"][s]:
            c = _cards_of(played_all & p["played"][s])[0]
            raise _err(f"played[{s}] lists {MINCHIATE.name(c)!r}, which another seat played")
        played_all |= p["played"][s]
    in_play = p["piles"][0] | p["piles"][1] | _mask(c for _, c in p["trick"])
    if played_all != in_play:
        diff = played_all ^ in_play
        c = _cards_of(diff)[0]
        raise _err(f"played: {MINCHIATE.name(c)!r} is " + (
            f"played but in {where[c]}" if played_all >> c & 1 else
            f"in {where[c]} but in no seat's played list") + ": the piles and the trick hold "
            "exactly the played cards")
    for s in range(N):
        if p["hands"][s] & p["played"][s]:
            raise _err(f"played[{s}] and hands[{s}] share {_show(p['hands'][s] & p['played'][s])}")
        if p["discards"][s] & ~p["fola"]:
            raise _err(f"discards[{s}] lists {_show(p['discards'][s] & ~p['fola'])}, not in the "
                       "fola: discards go to the fola (MI-DISC-1)")
        if p["discards"][s] and s not in (cutter, dealer):
            raise _err(f"discards[{s}]: only the cutter ({cutter}) and the dealer ({dealer}) "
                       "discard (MI-DISC-1)")
        if p["excluded"][s] & p["hands"][s]:
            raise _err(f"excluded[{s}] lists {_show(p['excluded'][s] & p['hands'][s])}, which "
                       f"is in hands[{s}]")
        if p["excluded"][s] and not p["played"][s]:
            raise _err(f"excluded[{s}]: expected [] for a seat that has played no card (the "
                       "inferences come from plays)")
    # the cutter's robbing
    k = popcount(p["cutter_robbed"])
    p["k"] = k
    if rules.cutter_rob == "off" and k:
        raise _err("cutter_robbed: expected [] with cutter_rob=off")
    if p["cutter_robbed"] & ~ELIGIBLE_BITS:
        raise _err(f"cutter_robbed lists {_show(p['cutter_robbed'] & ~ELIGIBLE_BITS)}: only "
                   "counting cards and trumps above 20 are robbed (MI-CUT-1)")
    if k > rules.rob_cap:
        raise _err(f"cutter_robbed holds {k} cards: at most {rules.rob_cap} (MI-CUT-1)")
    if p["cutter_robbed"] & ~own[cutter]:
        raise _err(f"cutter_robbed lists {_show(p['cutter_robbed'] & ~own[cutter])}, not the "
                   f"cutter's: robbed cards are in hands[{cutter}], played[{cutter}] or "
                   f"discards[{cutter}]")
    sb = p["seen_bottom"]
    if rules.cutter_rob == "auto" and k < rules.rob_cap:
        if sb is None:
            raise _err(f"seen_bottom=None: the cutter robbed {k} < {rules.rob_cap} cards, so a "
                       "non-eligible bottom card stopped him (MI-CUT-1)")
        if ELIGIBLE_BITS >> sb & 1:
            raise _err(f"seen_bottom={MINCHIATE.name(sb)!r}: an eligible card would have been "
                       "robbed (MI-CUT-1)")
        if not p["fola"] >> sb & 1 or any(p["discards"][s] >> sb & 1 for s in range(N)):
            raise _err(f"seen_bottom={MINCHIATE.name(sb)!r} is in {where[sb]}: it stays at the "
                       "bottom of the pack, in the fola (not a discard)")
    elif sb is not None:
        raise _err(f"seen_bottom={MINCHIATE.name(sb)!r}: expected None "
                   + ("with cutter_rob=off" if rules.cutter_rob == "off"
                      else f"after {rules.rob_cap} robbed cards"))
    # the exposures
    exposed = p["exposed"]
    if rules.expose_last_card == "none":
        if any(c is not None for c in exposed):
            raise _err(f"exposed={[None if c is None else MINCHIATE.name(c) for c in exposed]}:"
                       " expected None for every seat with expose_last_card=none")
    else:
        for s in range(N):
            c = exposed[s]
            if c is None:
                raise _err(f"exposed[{s}]=None: every seat's 21st card is exposed "
                           "(expose_last_card=all_players)")
            if not own[s] >> c & 1:
                raise _err(f"exposed[{s}]={MINCHIATE.name(c)!r} is not seat {s}'s: it is in "
                           f"{where[c]}")
            robbed = p["cutter_robbed"] | p["dealer_robbed"]
            if robbed >> c & 1:
                raise _err(f"exposed[{s}]={MINCHIATE.name(c)!r} is a robbed card: the exposed "
                           "card is dealt")
    # the dealer's robbing
    m = popcount(p["dealer_robbed"])
    p["m"] = m
    if rules.dealer_rob == "off" and m:
        raise _err("dealer_robbed: expected [] with dealer_rob=off")
    if p["dealer_robbed"] & ~ELIGIBLE_BITS:
        raise _err(f"dealer_robbed lists {_show(p['dealer_robbed'] & ~ELIGIBLE_BITS)}: only "
                   "counting cards and trumps above 20 are robbed (MI-ROB-1)")
    if p["dealer_robbed"] & ~own[dealer]:
        raise _err(f"dealer_robbed lists {_show(p['dealer_robbed'] & ~own[dealer])}, not the "
                   f"dealer's: robbed cards are in hands[{dealer}], played[{dealer}] or "
                   f"discards[{dealer}]")
    discards = p["discards"][0] | p["discards"][1] | p["discards"][2] | p["discards"][3]
    base = p["fola"] & ~discards
    if rules.dealer_rob == "auto_all" and base & ELIGIBLE_BITS:
        raise _err(f"fola holds {_show(base & ELIGIBLE_BITS)}, which the dealer robs "
                   "(dealer_rob=auto_all, MI-ROB-1)")
    if FOLA_SIZE - k - m < 0:
        raise _err(f"cutter_robbed and dealer_robbed hold {k + m} cards: at most {FOLA_SIZE} "
                   "undealt cards can be robbed")
    if popcount(base) != FOLA_SIZE - k - m:
        raise _err(f"fola holds {popcount(base)} cards besides the discards: expected "
                   f"{FOLA_SIZE - k - m} (13 less {k} + {m} robbed cards)")
    p["fola_base"] = base


def _check_discards(p: dict, rules: Any) -> None:
    """MI-DISC-1..3: counts and classes of the discards; ``to_discard``."""
    cutter, dealer, k, m = p["cutter"], p["dealer"], p["k"], p["m"]
    dc, dd = popcount(p["discards"][cutter]), popcount(p["discards"][dealer])
    if dc > k:
        raise _err(f"discards[{cutter}] holds {dc} cards: the cutter discards as many as he "
                   f"robbed ({k})")
    if dd > m:
        raise _err(f"discards[{dealer}] holds {dd} cards: the dealer discards as many as he "
                   f"robbed ({m})")
    if dd and dc < k:
        raise _err(f"discards[{dealer}]: the dealer discards after the cutter, who still owes "
                   f"{k - dc}")
    p["discarding"] = dc < k or dd < m
    for s in (cutter, dealer):
        since = p["hands"][s] | p["played"][s]
        for c in _cards_of(p["discards"][s]):
            cls = discard_class(c, rules)
            cheaper = [x for x in _cards_of(since) if discard_class(x, rules) < cls]
            if cheaper:
                raise _err(f"discards[{s}] holds {MINCHIATE.name(c)!r} while the seat kept "
                           f"{MINCHIATE.name(cheaper[0])!r}, a cheaper discard (MI-DISC-2/3)")
    if p["phase"] == PHASE_DISCARD:
        if not p["discarding"]:
            raise _err("phase='discard' but every discard is made (MI-DISC-1)")
        mover, owed = (cutter, k - dc) if dc < k else (dealer, m - dd)
        if p["to_move"] != mover:
            raise _err(f"to_move={p['to_move']}: expected {mover}, the "
                       f"{'cutter' if mover == cutter else 'dealer'} who discards now")
        if p["to_discard"] != owed:
            raise _err(f"to_discard={p['to_discard']}: expected {owed}, the cards the mover "
                       "still discards")
    else:
        if p["discarding"]:
            raise _err(f"phase={PHASE_NAMES[p['phase']]!r} with discards still owed: the "
                       f"cutter {k - dc}, the dealer {m - dd} (MI-DISC-1)")
        if p["to_discard"]:
            raise _err(f"to_discard={p['to_discard']}: expected 0 outside phase 'discard'")


def _check_flow(p: dict, rules: Any) -> None:
    """Hand and played sizes, who declared, who moves, the leader, the Fola's opening."""
    phase, dealer, cutter, k, m = p["phase"], p["dealer"], p["cutter"], p["k"], p["m"]
    t, trick = p["tricks_played"], p["trick"]
    after = rules.declaration_timing == "after_own_first_card"
    started = phase != PHASE_DISCARD and not (phase == PHASE_DECLARE and not after)
    p["started"] = started
    order = declaring_order(dealer)
    done = p["declared_done"]
    if phase == PHASE_DECLARE and rules.declaration_mode == "all":
        raise _err("phase='declare' with declaration_mode=all: declarations are automatic")
    if p["over"] and t != TRICKS_PER_DEAL:
        raise _err(f"tricks_played={t} in phase {PHASE_NAMES[phase]!r}: a deal ends after "
                   f"{TRICKS_PER_DEAL} tricks")
    if phase == PHASE_PLAY and t == TRICKS_PER_DEAL:
        raise _err(f"tricks_played={t} in phase 'play': the deal is over")
    if not started:
        for key in ("trick", "played"):
            if any(p[key]):
                raise _err(f"{key}: expected nothing played before play starts")
        if t or any(p["tricks_won"]):
            raise _err("tricks_played, tricks_won: expected 0 before play starts")
        if p["leader"] is not None:
            raise _err(f"leader={p['leader']}: expected None before play starts")
        for s in range(N):
            size = HAND_SIZE
            if phase == PHASE_DISCARD and s == cutter:
                size += k - popcount(p["discards"][s])
            if phase == PHASE_DISCARD and s == dealer:
                size += m - popcount(p["discards"][s])
            if popcount(p["hands"][s]) != size:
                raise _err(f"hands[{s}] holds {popcount(p['hands'][s])} cards: expected {size} "
                           f"in phase {PHASE_NAMES[phase]!r}")
    else:
        seats = [s for s, _ in trick]
        if p["leader"] is None:
            raise _err("leader=None: expected the seat that leads the current trick")
        first = (dealer + 1) % N
        if t == 0 and p["leader"] != first:
            raise _err(f"leader={p['leader']}: the first trick is led by seat {first}, the "
                       "dealer's right (MI-PLAY-1)")
        if t and p["leader"] != p["last_winner"]:
            raise _err(f"leader={p['leader']}: expected the last trick's winner "
                       f"(last_winner={p['last_winner']})")
        ring = [(p["leader"] + i) % N for i in range(N)]
        full = N if phase == PHASE_DECLARE else N - 1     # the 4th card's declaration
        if len(seats) > full or seats != ring[:len(seats)]:
            raise _err(f"trick seats {seats}: expected the first seats of {ring}, in playing "
                       "order from the leader, and not all four (a full trick is taken) "
                       "unless the fourth declares")
        if p["over"] and trick:
            raise _err("trick: expected [] once the deal is over")
        if phase == PHASE_DECLARE and not trick:
            raise _err("trick: expected the declarer's first card in phase 'declare' "
                       "(declaration_timing=after_own_first_card)")
        for s in range(N):
            size = t + (1 if s in seats else 0)
            if popcount(p["played"][s]) != size:
                raise _err(f"played[{s}] holds {popcount(p['played'][s])} cards: expected "
                           f"{size} (tricks_played={t})")
            if popcount(p["hands"][s]) + size != HAND_SIZE:
                raise _err(f"hands[{s}] holds {popcount(p['hands'][s])} cards: expected "
                           f"{HAND_SIZE - size} ({size} played)")
        if phase == PHASE_PLAY and p["to_move"] != ring[len(seats)]:
            raise _err(f"to_move={p['to_move']}: expected seat {ring[len(seats)]}, next in the "
                       "trick")
        if phase == PHASE_DECLARE and p["to_move"] != seats[-1]:
            raise _err(f"to_move={p['to_move']}: expected seat {seats[-1]}, who declares after "
                       "his first card")
    if (p["last_winner"] is None) != (t == 0):
        raise _err(f"last_winner={p['last_winner']}: expected " + (
            "None before the first trick is complete" if t == 0 else "the winner of trick "
            f"{t}"))
    if p["last_winner"] is not None and not p["tricks_won"][team_of(p["last_winner"])]:
        raise _err(f"last_winner={p['last_winner']}: his team won no trick (tricks_won="
                   f"{p['tricks_won']})")
    # who declared
    if phase == PHASE_DISCARD:
        want = []
    elif not after:
        if phase == PHASE_DECLARE:
            j = order.index(p["to_move"])
            want = order[:j]
        else:
            want = order
    elif t == 0 and phase != PHASE_DISCARD:
        want = [s for s, _ in trick]
        if phase == PHASE_DECLARE:
            want = want[:-1]
    else:
        want = order
    got = [s for s in order if done[s]]
    if sorted(got) != sorted(want):
        raise _err(f"declared_done={done}: expected True for seats {sorted(want)} "
                   + ("(in turn from the dealer's right)" if not after else
                      "(each after his first card in trick 1)"))
    # the Fola's opening
    fola_open = started and rules.fola_visibility == "open"
    if p["fola_open"] != fola_open:
        raise _err(f"fola_open={p['fola_open']}: expected {fola_open} (opened before the first "
                   f"lead with fola_visibility=open; fola_visibility={rules.fola_visibility})")


def _check_declarations(p: dict, rules: Any) -> None:
    """MI-DECL-*: each declared combination is the seat's; who may have declared; the bonus."""
    for s in range(N):
        ids = p["declared"][s]
        held = p["hands"][s] | p["played"][s]
        mine = combos_of(held, rules)
        declaring = p["phase"] == PHASE_DECLARE and p["to_move"] == s
        if ids and not p["declared_done"][s] and not declaring:
            raise _err(f"declared[{s}]: expected [] for a seat that has not declared yet")
        for c in ids:
            if c not in mine:
                raise _err(f"declared[{s}]: {'+'.join(names(COMBO_BITS[c]))} is not a "
                           f"combination of seat {s}'s cards (hand and played, MI-COMB-1/2)")
        claimable = bool(held & M_BIT) and any(bonus_applies(c, rules) for c in ids)
        if p["bonus_claimed"][s]:
            if not p["declared_done"][s]:
                raise _err(f"bonus_claimed[{s}]=True: the bonus is claimed with 'done'")
            if not claimable:
                raise _err(f"bonus_claimed[{s}]=True: expected the Matto and a declared "
                           "combination the bonus applies to (MI-COMB-4)")
        if rules.declaration_mode == "all" and p["declared_done"][s]:
            if ids != mine:
                raise _err(f"declared[{s}]: expected every combination of the seat "
                           f"({len(mine)}) with declaration_mode=all")
            if p["bonus_claimed"][s] != claimable:
                raise _err(f"bonus_claimed[{s}]={p['bonus_claimed'][s]}: the bonus is claimed "
                           "whenever it can be with declaration_mode=all")


def _check_trick(p: dict, rules: Any) -> None:
    """The current trick: each card legal when played, its inferences in ``excluded``."""
    before: list[int] = []
    for s, c in p["trick"]:
        if not p["played"][s] >> c & 1:
            raise _err(f"trick: {MINCHIATE.name(c)!r} of seat {s} must be in played[{s}]")
        led = led_suit([(0, x) for x in before])
        hand = p["hands"][s] | 1 << c
        if not legal_plays(hand, led, p["suits_led"], before) >> c & 1:
            raise _err(f"trick: {MINCHIATE.name(c)!r} of seat {s} was not a legal play with "
                       f"hands[{s}] (MI-PLAY-3/4, MI-KING-1)")
        inf = inferences(c, led, p["suits_led"], before)
        if inf & ~p["excluded"][s]:
            raise _err(f"excluded[{s}] lacks {_show(inf & ~p['excluded'][s])}, shown absent by "
                       f"{MINCHIATE.name(c)!r} in the current trick (rules §6)")
        before.append(c)


def _check_piles(p: dict, rules: Any) -> None:
    """Tricks won, pile sizes, the Matto's team, debt and settlement, suits led."""
    t, won, piles = p["tricks_played"], p["tricks_won"], p["piles"]
    if sum(won) != t:
        raise _err(f"tricks_won={won}: expected {t} tricks in all (tricks_played={t})")
    suits_led = p["suits_led"]
    if popcount(suits_led) > t:
        raise _err(f"suits_led lists {popcount(suits_led)} suits after {t} tricks: each trick "
                   "is led in at most one suit")
    for s in range(4):
        if suits_led >> s & 1 and not (piles[0] | piles[1]) & SUIT_BITS[s]:
            raise _err(f"suits_led lists {SUIT_SHORTS[s]!r} but no card of it is in the piles")
    holder = next((s for s in range(N) if p["played"][s] & M_BIT), None)
    mt = None if holder is None else team_of(holder)
    if p["matto_team"] != mt:
        raise _err(f"matto_team={_team(p['matto_team'])}: expected {_team(mt)}, "
                   + ("the team of the seat that played the Matto" if mt is not None else
                      "the Matto was not played"))
    debt, paid, given = p["matto_debt"], p["paid_card"], p["matto_given"]
    in_pile = bool((piles[0] | piles[1]) & M_BIT)
    if debt and not in_pile:
        raise _err("matto_debt=True: the Matto is not in a pile (no completed trick of it)")
    settled = list(piles)
    if not p["over"]:
        if paid is not None or given:
            raise _err("paid_card, matto_given: the Matto is settled only at the end")
    elif mt is not None and won[mt] == 0:
        if not given:
            raise _err(f"matto_given=False: team {TEAM_NAMES[mt]} won no trick, so it gives "
                       "the Matto away (MI-MATTO-3)")
        if paid is not None:
            raise _err("paid_card: expected None when the Matto itself is given (MI-MATTO-3)")
        if not piles[1 - mt] & M_BIT:
            raise _err(f"matto_given=True: the Matto must be in piles[{1 - mt}]")
        settled = [0, 0]
        settled[mt] = M_BIT
        settled[1 - mt] = piles[1 - mt] & ~M_BIT
    elif given:
        raise _err("matto_given=True: only a Matto team without tricks gives the Matto")
    elif debt:
        if paid is None:
            raise _err("paid_card=None: the Matto's team owes a card, paid at the end "
                       "(MI-MATTO-2)")
        if not piles[1 - mt] >> paid & 1:
            raise _err(f"paid_card={MINCHIATE.name(paid)!r} must be in piles[{1 - mt}], the "
                       "creditor's")
        before = piles[mt] | 1 << paid
        want = payment_card(before)
        if paid != want:
            raise _err(f"paid_card={MINCHIATE.name(paid)!r}: the engine pays "
                       f"{MINCHIATE.name(want)!r} (lowest zero-value card but T29, MI-MATTO-2)")
        settled = [0, 0]
        settled[mt] = before
        settled[1 - mt] = piles[1 - mt] & ~(1 << paid)
    elif paid is not None:
        raise _err(f"paid_card={MINCHIATE.name(paid)!r}: expected None without a Matto debt")
    p["unsettled"] = settled          # the piles before the end's settlement
    for team in range(2):
        if mt is not None and team != mt and settled[team] & M_BIT:
            raise _err(f"piles[{team}] holds the Matto of team {TEAM_NAMES[mt]}: it stays "
                       "with its team (MI-MATTO-1)")
        extra = 0
        if debt:
            extra = 1 if team == mt else -1
        size = 4 * won[team] + extra
        if popcount(settled[team]) != size:
            raise _err(f"piles[{team}] holds {popcount(piles[team])} cards: expected "
                       f"{_final_size(p, team, size)} after {won[team]} tricks won"
                       + (" and the Matto's debt" if debt else ""))


def _final_size(p: dict, team: int, size: int) -> int:
    if not p["over"] or p["matto_team"] is None:
        return size
    if p["matto_given"]:
        return 84 if team != p["matto_team"] else 0
    if p["matto_debt"]:
        return size + (-1 if team == p["matto_team"] else 1)
    return size


def _team(t: int | None) -> str:
    return "None" if t is None else repr(TEAM_NAMES[t])


def expected_points(p: dict, rules: Any) -> list[list[int]]:
    """[source][team]: what each source must hold from the cards of a parsed position."""
    pts = [[0, 0] for _ in SOURCES]
    dealer, cutter = p["dealer"], p["cutter"]
    pts[SRC_CUTTER_ROB][team_of(cutter)] = value(p["cutter_robbed"])
    for s in range(N):
        if p["exposed"][s] is not None:
            pts[SRC_EXPOSED][team_of(s)] += int(VALUE[p["exposed"][s]])
    pts[SRC_DEALER_ROB][team_of(dealer)] = value(p["dealer_robbed"])
    for s in range(N):
        if p["declared_done"][s]:
            pts[SRC_DECLARED][team_of(s)] += declaration_points(p["declared"][s],
                                                                p["bonus_claimed"][s], rules)
    for team in range(2):
        others = p["played"][1 - team] | p["played"][3 - team]
        pts[SRC_DYING][team] = value(p["unsettled"][team] & others & ~M_BIT)
    if p["over"]:
        for team in range(2):
            pile, beyond, combos = pile_points(p["piles"][team], rules)
            pts[SRC_PILE][team] = pile
            pts[SRC_BEYOND_42][team] = beyond
            pts[SRC_PILE_COMBOS][team] = combos
        pts[SRC_LAST_TRICK][team_of(p["last_winner"])] = LAST_TRICK_POINTS
    return pts


def replay_before_play(p: dict, rules: Any) -> tuple[int, list[int]]:
    """(D, resti) after the events before the first trick's end (MI-SCORE-1): the cutter's
    robbing, the exposures, the dealer's robbing, each declarer in turn."""
    resto = rules.resto_points
    pts = expected_points(p, rules)
    d, resti = 0, [0, 0]
    events = [pts[SRC_CUTTER_ROB]]
    if rules.expose_last_card == "all_players":
        events.append(pts[SRC_EXPOSED])
    if rules.dealer_rob == "auto_all":
        events.append(pts[SRC_DEALER_ROB])
    for s in declaring_order(p["dealer"]):
        if p["declared_done"][s]:
            v = declaration_points(p["declared"][s], p["bonus_claimed"][s], rules)
            events.append([v, 0] if team_of(s) == 0 else [0, v])
    for a, b in events:
        d = convert(d + a - b, resti, resto)
    return d, resti


def _check_points(p: dict, rules: Any) -> None:
    """Each source from the cards; D and the resti (MI-RESTO-*); net and net_total."""
    want = expected_points(p, rules)
    for i, src in enumerate(SOURCES):
        if p["points"][i] != want[i]:
            raise _err(f"points[{src!r}]={p['points'][i]}: expected {want[i]} from the cards")
    resto, d, resti = rules.resto_points, p["D"], p["resti"]
    total = sum(a - b for a, b in p["points"])
    rounding = final_rounding(d, resto) if p["over"] else 0
    if total - d != resto * (resti[0] - resti[1] - rounding):
        raise _err(f"D={d}, resti={resti}: the points differ by {total} (A - B), which must "
                   f"equal D + {resto} x (resti A - resti B"
                   + (f" - {rounding} of the final rounding" if p["over"] else "") + ")")
    early_d, early_resti = replay_before_play(p, rules)
    if p["tricks_played"] == 0 and (d, resti) != (early_d, early_resti):
        raise _err(f"D={d}, resti={resti}: the events so far give D={early_d}, "
                   f"resti={early_resti} (MI-SCORE-1, MI-RESTO-2)")
    if resti[0] < early_resti[0] or resti[1] < early_resti[1]:
        raise _err(f"resti={resti}: the events before play already made {early_resti}, and "
                   "resti never decrease")
    if p["over"]:
        net = resti[0] - resti[1]
        if rules.capot == "it_rules":
            if p["tricks_won"][1] == 0:
                net = max(14, 2 * net)
            elif p["tricks_won"][0] == 0:
                net = -max(14, -2 * net)
        if p["net"] != net:
            raise _err(f"net={p['net']}: expected {net} (resti A - resti B"
                       + (", capot=it_rules" if rules.capot == "it_rules" else "") + ")")
    elif p["net"] is not None:
        raise _err(f"net={p['net']}: expected None before the deal's end")
    if p["mode"] == MODE_DEAL:
        want_total = p["net"] if p["over"] else 0
        if p["net_total"] != want_total:
            raise _err(f"net_total={p['net_total']}: expected {want_total} in a single deal")
    elif p["deal_number"] == 1 and not p["over"] and p["net_total"] != 0:
        raise _err(f"net_total={p['net_total']}: expected 0 during a match's first deal")


def shown_of(p: dict, seat: int) -> int:
    """The cards the seat showed this deal: robbed, exposed, declared, the claimed Matto."""
    out = 0
    if seat == p["cutter"]:
        out |= p["cutter_robbed"]
    if seat == p["dealer"]:
        out |= p["dealer_robbed"]
    if p["exposed"][seat] is not None:
        out |= 1 << p["exposed"][seat]
    for c in p["declared"][seat]:
        out |= COMBO_BITS[c]
    if p["bonus_claimed"][seat]:
        out |= M_BIT
    return out


def _build(p: dict, rules: Any) -> np.ndarray:
    """The state vector of a validated position."""
    vec = np.zeros(STATE_LEN, dtype=np.uint64)
    u = np.uint64
    for s in range(N):
        put(vec, HAND + 2 * s, p["hands"][s])
        put(vec, PLAYED + 2 * s, p["played"][s])
        put(vec, SHOWN + 2 * s, shown_of(p, s))
        put(vec, EXCLUDED + 2 * s, p["excluded"][s])
        put(vec, DISCARDS + 2 * s, p["discards"][s])
        dw = [0, 0]
        for c in p["declared"][s]:
            dw[c >> 6] |= 1 << (c & 63)
        vec[DECLARED + 2 * s] = u(dw[0])
        vec[DECLARED + 2 * s + 1] = u(dw[1])
    for t in range(2):
        put(vec, PILE + 2 * t, p["piles"][t])
        vec[TRICKS_WON + t] = u(p["tricks_won"][t])
        vec[RESTI + t] = u(p["resti"][t])
    put(vec, FOLA, p["fola"])
    put(vec, CUTTER_ROBBED, p["cutter_robbed"])
    put(vec, DEALER_ROBBED, p["dealer_robbed"])
    put(vec, EXPOSED, _mask(c for c in p["exposed"] if c is not None))
    for s, c in p["trick"]:
        vec[TRICK_CARD + s] = u(c + 1)
    order = vec[ORDER:ORDER + ORDER_WORDS].view(np.uint8)
    order[:N_CARDS] = UNKNOWN
    for i, src in enumerate(SOURCES):
        for t in range(2):
            vec[POINTS + 2 * i + t] = u(p["points"][i][t])
    vec[RNG:RNG + 4] = p["rng"]
    vec[DEALER] = u(p["dealer"])
    vec[LEADER] = u(p["leader"] if p["started"] else 0)
    vec[TO_MOVE] = u(p["to_move"] or 0)
    vec[PHASE] = u(p["phase"])
    vec[TRICK_NUMBER] = u(p["tricks_played"])
    vec[LED_SUIT] = u(led_suit(p["trick"]))
    vec[SUITS_LED] = u(p["suits_led"])
    vec[MATTO_TEAM] = u(0 if p["matto_team"] is None else p["matto_team"] + 1)
    vec[MATTO_DEBT] = u(p["matto_debt"])
    vec[LAST_WINNER] = u(0 if p["last_winner"] is None else p["last_winner"] + 1)
    vec[D_WORD] = u(p["D"] + D_BIAS)
    vec[TO_DISCARD] = u(p["to_discard"])
    if p["phase"] == PHASE_DECLARE and p["declared"][p["to_move"]]:
        vec[DECL_LAST] = u(p["declared"][p["to_move"]][-1] + 1)
    vec[DECLARED_DONE] = u(sum(1 << s for s in range(N) if p["declared_done"][s]))
    vec[BONUS_CLAIMED] = u(sum(1 << s for s in range(N) if p["bonus_claimed"][s]))
    vec[FOLA_OPEN] = u(p["fola_open"])
    vec[SEEN_BOTTOM] = u(0 if p["seen_bottom"] is None else p["seen_bottom"] + 1)
    vec[PAID_CARD] = u(0 if p["paid_card"] is None else p["paid_card"] + 1)
    vec[MATTO_GIVEN] = u(p["matto_given"])
    vec[NET] = u((p["net"] or 0) + D_BIAS)
    vec[NET_TOTAL] = u(p["net_total"] + D_BIAS)
    vec[MODE] = u(MODE_MATCH if p["mode"] == MODE_MATCH else MODE_DEAL)
    vec[DEAL_NUMBER] = u(p["deal_number"])
    vec[START_DEALER] = u(p["start_dealer"])
    return vec


# --- actions -----------------------------------------------------------------------------------

_ACTION_FORMS = ("{'play': card}, {'discard': card}, {'declare': [cards]} or "
                 "{'done': true, 'bonus': false|true}")


def action_parts(action: Any) -> tuple[int, int]:
    """(kind, value) of a Minchiate action id; :class:`IllegalActionError` for anything else."""
    bad = IllegalActionError(f"{action!r} is not a minchiate action id")
    if not _is_int(action) or action < 0:
        raise bad
    action = int(action)
    kind, v = action >> KIND_SHIFT, action & VALUE_MASK
    ok = {PLAY: v < N_CARDS, DISCARD: v < N_CARDS, DECLARE: v < N_COMBOS,
          DONE: v <= 1, DISCARD_SEEN: v == 0}.get(kind, False)
    if not ok:
        raise bad
    return kind, v


def action_to_dict(vec: np.ndarray, action: int) -> dict:
    """The dict form of an action id (module docstring)."""
    kind, v = action_parts(action)
    if kind == PLAY:
        return {"play": MINCHIATE.name(v)}
    if kind == DISCARD:
        return {"discard": MINCHIATE.name(v)}
    if kind == DECLARE:
        return {"declare": names(COMBO_BITS[v])}
    if kind == DONE:
        return {"done": True, "bonus": bool(v)}
    return {"discard": None}


def action_to_string(vec: np.ndarray, action: int) -> str:
    """``"play T29"``, ``"discard 6cu"``, ``"declare T28+T29+T30"``, ``"done"``,
    ``"done bonus"``; an unseen discard ``"discard"``."""
    kind, v = action_parts(action)
    if kind in (PLAY, DISCARD):
        return f"{KIND_NAMES[kind]} {MINCHIATE.name(v)}"
    if kind == DECLARE:
        return "declare " + "+".join(names(COMBO_BITS[v]))
    if kind == DONE:
        return "done bonus" if v else "done"
    return "discard"


def _action_card(d: Mapping, name: Any) -> int:
    try:
        return MINCHIATE.index(name)
    except CardError as e:
        raise IllegalActionError(f"action {dict(d)!r}: {e}") from None


def action_id(d: Any) -> int:
    """The id of an action dict (module docstring), not checked for legality."""
    if not isinstance(d, Mapping) or not d:
        raise IllegalActionError(f"action {d!r}: expected one of {_ACTION_FORMS}")
    keys = set(d)
    if keys in ({"play"}, {"discard"}) and isinstance(next(iter(d.values())), str):
        (key, name), = d.items()
        return (PLAY if key == "play" else DISCARD) << KIND_SHIFT | _action_card(d, name)
    if keys == {"declare"} and isinstance(d["declare"], (list, tuple)) \
            and all(isinstance(x, str) for x in d["declare"]):
        cards = [_action_card(d, x) for x in d["declare"]]
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"action {dict(d)!r}: a card is listed twice")
        c = combo_id(cards)
        if c < 0:
            raise IllegalActionError(f"action {dict(d)!r}: {'+'.join(d['declare'])} is not a "
                                     "combination (MI-COMB-1/2)")
        return DECLARE << KIND_SHIFT | c
    if keys <= {"done", "bonus"} and d.get("done") is True \
            and isinstance(d.get("bonus", False), bool):
        return DONE << KIND_SHIFT | int(d.get("bonus", False))
    raise IllegalActionError(f"action {dict(d)!r}: expected one of {_ACTION_FORMS}")


def action_from_dict(vec: np.ndarray, rules: Any, d: Mapping[str, Any], legal: list[int]) -> int:
    """The id of an action dict (module docstring); it must be legal here."""
    action = action_id(d)
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {action_to_string(vec, action)}: expected one of "
            + (", ".join(action_to_string(vec, a) for a in legal) or "nothing (terminal)"))
    return action


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
    fola = words(vec, FOLA)
    if vec[FOLA_OPEN]:
        return fola
    known = words(vec, DISCARDS + 2 * player)
    if vec[SEEN_BOTTOM]:
        known |= 1 << (int(vec[SEEN_BOTTOM]) - 1)
    discards = shown = 0
    for s in range(N):
        discards |= words(vec, DISCARDS + 2 * s)
        shown |= words(vec, DISCARDS + 2 * s) & words(vec, SHOWN + 2 * s)
    known |= shown          # a robbed or exposed card discarded: public where it went
    if player == int(vec[DEALER]) and rules.dealer_rob == "auto_all":
        known |= fola & ~discards
    return fola & known


def first_lead_made(vec: np.ndarray) -> bool:
    """The first card of trick 1 is on the table (or a trick is complete)."""
    return int(vec[TRICK_NUMBER]) > 0 or any(int(vec[TRICK_CARD + s]) for s in range(N))


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
    fola = words(vec, FOLA)
    opened = bool(vec[FOLA_OPEN])
    out: dict[str, Any] = {"player": player}
    for key in ("mode", "deal_number", "phase", "dealer", "cutter", "to_move"):
        out[key] = full[key]
    out["hand"] = full["hands"][player]
    out["hand_sizes"] = [len(h) for h in full["hands"]]
    out["known_cards"] = [names(words(vec, SHOWN + 2 * s) & words(vec, HAND + 2 * s))
                          for s in range(N)]
    for key in ("cutter_robbed", "seen_bottom", "exposed", "dealer_robbed"):
        out[key] = full[key]
    out["discards"] = [full["discards"][s] if s == player or opened else None
                       for s in range(N)]
    out["discard_counts"] = [len(x) for x in full["discards"]]
    out["to_discard"] = full["to_discard"]
    out["fola"] = names(fola_known_to(vec, rules, player))
    out["fola_size"] = popcount(fola)
    out["fola_open"] = opened
    counts = None
    if rules.fola_visibility == "suit_counts" and first_lead_made(vec):
        counts = {SUIT_SHORTS[s]: popcount(fola & SUIT_BITS[s]) for s in range(4)}
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
            out |= words(vec, HAND + 2 * s) & ~words(vec, SHOWN + 2 * s)
    return out | words(vec, FOLA) & ~fola_known_to(vec, rules, player)


def score_breakdown(vec: np.ndarray, rules: Any) -> dict:
    """This deal's points per team ``[A, B]`` (seat s plays for team ``s & 1``): one entry per
    source (layout.SOURCES) and their ``total``; ``declared_<kind>`` the combinations each
    team declared by kind (layout.COMBO_KINDS) and ``bonus_claims``; ``tricks``; ``resti``;
    ``net`` (``[net, -net]``, zeros before the end, like the returns) and ``net_total`` (the
    match's); ``D`` the running difference (an int)."""
    phase = int(vec[PHASE])
    over = phase in (PHASE_DEAL_OVER, PHASE_MATCH_OVER)
    out: dict[str, Any] = {}
    for i, src in enumerate(SOURCES):
        out[src] = [int(vec[POINTS + 2 * i + t]) for t in range(2)]
    out["total"] = [sum(out[src][t] for src in SOURCES) for t in range(2)]
    kinds = [[0, 0] for _ in COMBO_KINDS]
    for s in range(N):
        for c in declared_ids(vec, s):
            kinds[int(COMBO_KIND_ID[c])][team_of(s)] += 1
    for k, kind in enumerate(COMBO_KINDS):
        out[f"declared_{kind}"] = kinds[k]
    claimed = int(vec[BONUS_CLAIMED])
    out["bonus_claims"] = [sum(claimed >> s & 1 for s in range(N) if team_of(s) == t)
                           for t in range(2)]
    out["tricks"] = [int(vec[TRICKS_WON + t]) for t in range(2)]
    out["resti"] = [int(vec[RESTI + t]) for t in range(2)]
    net = int(vec[NET]) - D_BIAS if over else 0
    out["net"] = [net, -net]
    total = int(vec[NET_TOTAL]) - D_BIAS
    out["net_total"] = [total, -total]
    out["D"] = int(vec[D_WORD]) - D_BIAS
    return out
