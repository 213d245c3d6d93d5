"""The checks that a Bura position dict is possible (``notation.from_dict`` calls them).

:mod:`.notation` parses a position dict into the state vector; these functions check what the
vector and the dict must satisfy together: the turned card's place in the stock (BU-DEAL-3),
the face-down cards (BU-RESP-6), hand and stock sizes, the trick and whose turn it is against
the phase (BU-DRAW-3, BU-RESP-1), the Stop round (BU-COMBO-5..7) and the deal's log
(``history`` and ``revealed_at``, rules §5). They read the rule constants of :mod:`.layout`
and write nothing but the returned values. Every failure is a :class:`PositionError` whose
message names the key and what was expected.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...cards import bits_of
from ...errors import PositionError
from ...protocol.positions import card_indices, position_error
from . import layout as L
from .layout import DECK

STOP_ROUNDS = ("small_moscow", "molodka")


# --- reading the dict's values ----------------------------------------------------------------

def error(msg: str) -> PositionError:
    """``invalid bura position: <msg>``."""
    return position_error("bura", msg)


def seat(d: Mapping, key: str, n: int, value: Any = ..., optional: bool = False) -> int | None:
    """``d[key]`` (or ``value``) as a seat from 0 to n - 1 (None when optional)."""
    value = d.get(key) if value is ... else value
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise error(f"{key}={value!r}: expected a seat from 0 to {n - 1}")
    return value


def count(d: Mapping, key: str, default: int, hi: int) -> int:
    """``d[key]`` (default ``default``) as an integer from 0 to ``hi``."""
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise error(f"{key}={value!r}: expected an integer from 0 to {hi}")
    return value


def cards(key: str, value: Any) -> list[int]:
    """A list of card names as indices."""
    return card_indices(DECK, key, value)


def per_seat(d: Mapping, key: str, n: int, default: Any) -> list:
    """``d[key]`` (default ``default``) as a list with one entry per seat."""
    value = d.get(key, default)
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise error(f"{key}: expected one entry per seat ({n}), got {value!r}")
    return list(value)


# --- the cards --------------------------------------------------------------------------------

def check_stock(stock: list[int], trump: int, trump_name: str) -> None:
    """BU-DEAL-3, BU-DRAW-2: while the stock holds cards, the turned trump card is its last."""
    if stock and trump in stock and stock[-1] != trump:
        raise error(f"trump card {trump_name!r} is in the stock but not last: the turned "
                    "card is drawn last")
    if stock and trump not in stock:
        raise error(f"trump card {trump_name!r} is not in the stock, which still holds "
                    "cards: the turned card is drawn last")


def check_thrown_down(vec: np.ndarray, rules: Any) -> None:
    """BU-RESP-6: ``thrown_down`` lists exactly the face-down cards (of the piles and the
    trick), and there are none with ``facedown_discards='off'``."""
    n = rules.num_players
    all_down = int(sum(int(vec[L.PILE_DOWN + p]) for p in range(n)))
    in_trick = int(sum(int(vec[L.TRICK_PLAYED + p]) for p in range(n)))
    thrown_all = int(sum(int(vec[L.THROWN + p]) for p in range(n)))
    if thrown_all and rules.facedown_discards == "off":
        raise error("face-down cards with facedown_discards='off': every card is played face up")
    if thrown_all & ~(all_down | in_trick) or all_down & ~thrown_all:
        raise error("thrown_down must list exactly the face-down cards of the piles (and any "
                    "face-down cards in the trick)")


# --- the flow ---------------------------------------------------------------------------------

def check_flow(vec: np.ndarray, rules: Any, phase: int, in_trick: bool) -> None:
    """Hand and stock sizes, the trick and whose turn it is must fit the phase (BU-DRAW-3,
    BU-RESP-1)."""
    n = rules.num_players
    sizes = [bin(int(vec[L.HAND + p])).count("1") for p in range(n)]
    stock = L.N_CARDS - int(vec[L.NEXT])
    if stock % n:
        raise error(f"stock of {stock} cards: expected a multiple of {n} (hands stay equal)")
    if any(s > L.HAND_SIZE for s in sizes):
        raise error(f"hand sizes {sizes}: at most {L.HAND_SIZE} cards")
    leader, to_move = int(vec[L.LEADER]), int(vec[L.TO_MOVE])
    if phase == L.PHASE_ANSWER:
        if not in_trick:
            raise error("phase 'answer' needs a trick")
        k = int(vec[L.TRICK_K])
        order = [(leader + i) % n for i in range(n)]
        done = order[:order.index(to_move)] if to_move != leader else None
        if done is None:
            raise error(f"to_move={to_move} is the trick's leader: the answers go round once")
        played = [bin(int(vec[L.TRICK_PLAYED + p])).count("1") for p in range(n)]
        expected = [k if p in done else 0 for p in range(n)]
        if played != expected:
            raise error(f"trick.played sizes {played}: expected {expected} ({k} cards each from "
                        f"the leader {leader} up to seat {to_move})")
        before = [sizes[p] + played[p] for p in range(n)]
        if len(set(before)) != 1:
            raise error(f"hand sizes {sizes}: with the trick's cards they must be equal")
        if stock and before[0] != L.HAND_SIZE:
            raise error(f"hand sizes {sizes}: {L.HAND_SIZE} cards each while the stock holds cards")
        return
    if in_trick:
        raise error(f"a trick lies on the table in phase {L.PHASE_NAMES[phase]!r}")
    if phase in (L.PHASE_DEAL_OVER, L.PHASE_MATCH_OVER):
        return
    if len(set(sizes)) != 1 or (stock and sizes[0] != L.HAND_SIZE):
        raise error(f"hand sizes {sizes}: equal, and {L.HAND_SIZE} each while the stock holds cards")
    if phase == L.PHASE_STOP and to_move == leader:
        raise error("phase 'stop' asks a player other than the leader")
    if phase in (L.PHASE_CHECK, L.PHASE_CLAIM, L.PHASE_LEAD) and to_move != leader:
        raise error(f"to_move={to_move}: the leader {leader} decides in phase "
                    f"{L.PHASE_NAMES[phase]!r}")
    if sizes[0] == 0 and phase != L.PHASE_CLAIM:
        raise error("every card is played: only the claim decision (phase 'claim') remains")


def stop_round_index(rules: Any, phase: int, stop_round: Any) -> int | None:
    """BU-COMBO-5..7: the Stop round (an index of :data:`STOP_ROUNDS`) in phase 'stop', one
    that the rules enable; None in every other phase."""
    if phase == L.PHASE_STOP:
        if stop_round not in STOP_ROUNDS:
            raise error(f"stop_round={stop_round!r}: expected 'small_moscow' or 'molodka' in "
                        "phase 'stop'")
        if (stop_round == "molodka" and not rules.molodka_stop) or (
                stop_round == "small_moscow" and rules.small_moscow == "off"):
            raise error(f"stop_round={stop_round!r}: that Stop is off under these rules")
        return STOP_ROUNDS.index(stop_round)
    if stop_round is not None:
        raise error("stop_round is only set in phase 'stop'")
    return None


# --- the deal's log (rules §5) ----------------------------------------------------------------

def deal_log(vec: np.ndarray, rules: Any, d: Mapping, revealed: int
             ) -> tuple[dict[int, tuple[int, int]], dict[int, int], dict[int, int]]:
    """The deal's log (layout.py) from ``history`` and ``revealed_at``, checked against the
    hands, piles and trick already in ``vec``: (card -> (seat, check point at which he
    received it), card -> the trick it was played in, card -> the check point it was first
    shown at). ``revealed`` is the mask of every revealed card."""
    n = rules.num_players
    tricks = int(vec[L.TRICKS])
    piles = [int(vec[L.PILE_UP + p]) | int(vec[L.PILE_DOWN + p]) for p in range(n)]
    if bool(tricks) != any(piles):
        raise error(f"tricks={tricks} with {'no' if tricks else 'some'} cards in the piles")
    owner: dict[int, int] = {}      # card -> the seat that held it this deal
    left: dict[int, int] = {}       # card -> the trick it was played in
    for p in range(n):
        owner.update((c, p) for c in bits_of(int(vec[L.HAND + p])))
        for c in bits_of(int(vec[L.TRICK_PLAYED + p])):
            owner[c], left[c] = p, tricks
    hist = d.get("history")
    if hist is None:
        got = {c: (p, tricks) for c, p in owner.items()}
    else:
        got = check_history(vec, rules, hist, owner, left, piles)
    shown = d.get("revealed_at", {})
    if not isinstance(shown, Mapping):
        raise error(f"revealed_at={shown!r}: expected {{card: check point}}")
    shown_at: dict[int, int] = {}
    for name, cp in shown.items():
        card = cards("revealed_at", [name])[0]
        if not revealed >> card & 1:
            raise error(f"revealed_at: {name} is not a revealed card")
        shown_at[card] = count({"revealed_at": cp}, "revealed_at", 0, tricks)
    return got, left, shown_at


def check_history(vec: np.ndarray, rules: Any, hist: Any, owner: dict, left: dict,
                  piles: list[int]) -> dict[int, tuple[int, int]]:
    """Check ``history`` (:mod:`.notation`) and complete ``owner`` and ``left`` from it;
    returns card -> (seat, check point at which he received it). BU-DEAL-2 (three cards dealt
    to each), BU-DRAW-1..3 (draws, the trump card last; hands equal at every check point),
    BU-LEAD-4/BU-RESP-1 (every seat plays the same 1 to 3 cards), BU-RESP-5 (a trick lies in
    one pile)."""
    n = rules.num_players
    tricks = int(vec[L.TRICKS])
    if not isinstance(hist, list) or len(hist) != tricks:
        raise error(f"history: expected a list of the {tricks} finished tricks, got {hist!r}")
    drawn_at: dict[int, tuple[int, int]] = {}
    for j, entry in enumerate(hist):
        where = f"history[{j}]"
        if not isinstance(entry, Mapping) or set(entry) != {"played", "drawn"}:
            raise error(f"{where}={entry!r}: expected {{'played': [...], 'drawn': [...]}}")
        played = per_seat(entry, "played", n, None)
        drawn = per_seat(entry, "drawn", n, None)
        trick = 0
        sizes = set()
        for p in range(n):
            mine = cards(f"{where}.played[{p}]", played[p])
            sizes.add(len(mine))
            for c in mine:
                if c in owner:
                    raise error(f"{where}.played[{p}]: {DECK.name(c)} is held or played twice")
                owner[c], left[c] = p, j
                trick |= 1 << c
            for c in cards(f"{where}.drawn[{p}]", drawn[p]):
                if c in drawn_at:
                    raise error(f"{where}.drawn[{p}]: {DECK.name(c)} is drawn twice")
                drawn_at[c] = (p, j + 1)
        if len(sizes) != 1 or not 1 <= min(sizes) <= L.HAND_SIZE:
            raise error(f"{where}.played: 1 to 3 cards from every seat, the same number")
        if not any(trick & ~pile == 0 for pile in piles):
            raise error(f"{where}: the trick's cards do not lie in one pile")
    in_piles = [c for pile in piles for c in bits_of(pile)]
    if any(c not in left for c in in_piles):
        raise error("history: every card of the piles must be a played card of the history")
    for c, (p, cp) in drawn_at.items():
        if owner.get(c) != p or left.get(c, tricks) < cp:
            raise error(f"history: {DECK.name(c)}, drawn by seat {p} after trick {cp - 1}, is "
                        "not in his hand nor played by him later")
    trump = int(vec[L.TRUMP_CARD])
    if trump in drawn_at and any(cp > drawn_at[trump][1] for _, cp in drawn_at.values()):
        raise error("history: the turned trump card is the last card drawn")
    got = {c: drawn_at.get(c, (p, 0)) for c, p in owner.items()}
    for p in range(n):
        if sum(1 for q, cp in got.values() if (q, cp) == (p, 0)) != L.HAND_SIZE:
            raise error(f"history: seat {p} must have been dealt {L.HAND_SIZE} cards")
        if any(owner.get(c) != p for c in bits_of(int(vec[L.THROWN + p]))):
            raise error(f"thrown_down[{p}]: a card seat {p} did not play")
    for cp in range(tricks + 1):
        sizes = {sum(1 for c, (q, at) in got.items() if q == p and at <= cp
                     and left.get(c, tricks) >= cp) for p in range(n)}
        if len(sizes) != 1:
            raise error(f"history: the hands differ in size at check point {cp}")
    return got
