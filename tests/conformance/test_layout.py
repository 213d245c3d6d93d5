"""Every game's state layout: the named slots of its state vector do not overlap.

A game's state is a flat ``numpy.uint64`` vector whose words are named by the offsets of its
layout module (``cardsim/games/<game>/layout.py``, the block that starts at its "state vector
offsets" comment and ends at ``STATE_LEN``). :data:`SLOTS` restates, for each game, how many
words each offset spans; the check runs for every registered game and requires that

- the table names exactly the layout's offsets (a new offset needs its width here), and
- the slots cover the words ``0 .. STATE_LEN - 1`` exactly once (no overlap, no gap).

The layouts differ in their tables only: a per-seat block is 4 words in Scopa and Bura (at most
4 players), 7 in Mushka (``MAX_PLAYERS``); Minchiate's card sets take 2 words
(``N_WORDS = 2``), so its per-seat blocks of cards take 2 words a seat and its team piles 2 a
team.
"""
from __future__ import annotations

import ast
import importlib
import inspect

import numpy as np
import pytest

import cardsim


def _scopa(L):
    return [("HAND", 4), ("TABLE", 1), ("PILE", L.N_SIDES), ("STOCK", 1),
            ("ORDER", L.ORDER_WORDS), ("NEXT", 1), ("TO_MOVE", 1), ("DEALER", 1),
            ("LAST_CAPTURER", 1), ("SCOPE", L.N_SIDES), ("SCORE", L.N_SIDES), ("DEAL_NUMBER", 1),
            ("REDEALS", 1), ("PHASE", 1), ("MODE", 1), ("RNG", 4)]


def _bura(L):
    seats = 4
    return [("HAND", seats), ("PILE_UP", seats), ("PILE_DOWN", seats), ("THROWN", seats),
            ("TRICK_PLAYED", seats), ("STOCK", 1), ("ORDER", L.ORDER_WORDS), ("NEXT", 1),
            ("TRUMP_CARD", 1), ("DEALER", 1), ("LEADER", 1), ("TO_MOVE", 1), ("PHASE", 1),
            ("TRICK_K", 1), ("TRICK_TOP", 1), ("TRICK_HOLDER", 1), ("RESULT", 1),
            ("WINNERS", 1), ("MULTIPLIER", 1), ("CLAIM_POINTS", 1), ("SCORE", seats),
            ("DEAL_NUMBER", 1), ("REDEALS", 1), ("LAST_TRICK_TAKER", 1), ("TRICKS", 1),
            ("FIRST_LEADER", 1), ("MODE", 1), ("RNG", 4), ("STOP_ROUND", 1),
            ("REVEALED", seats), ("GOT", L.LOG_WORDS), ("LEFT", L.LOG_WORDS),
            ("SHOWN", L.LOG_WORDS)]


def _mushka(L):
    seats = L.MAX_PLAYERS
    return [("HAND", seats), ("DISCARDS", seats), ("TRICK_CARD", seats), ("TRICKS_WON", seats),
            ("RECORD", seats), ("START_RECORD", seats), ("EXCLUDED", seats), ("PLAYED", seats),
            ("DECISION", seats), ("STOCK", 1), ("ORDER", L.ORDER_WORDS), ("NEXT", 1),
            ("TRUMP_CARD", 1), ("DEALER", 1), ("LEADER", 1), ("TO_MOVE", 1), ("PHASE", 1),
            ("ACTIVE", 1), ("ACE_HOLDER", 1), ("BONUS_TAKEN", 1), ("TRICK_NUMBER", 1),
            ("LONE_LEFT", 1), ("STOP_SEAT", 1), ("STOP_AT", 1), ("WINNERS", 1), ("STOPPER", 1),
            ("MODE", 1), ("DEAL_NUMBER", 1), ("RNG", 4), ("VOID_DEAL", 1), ("TRUMP_TAKEN", 1)]


def _minchiate(L):
    seat_sets = L.N_PLAYERS * L.N_WORDS          # a card set per seat
    teams = 2
    combo_words = (L.N_COMBOS + 63) // 64         # DECLARED: a bit per combination id
    return [("HAND", seat_sets), ("PLAYED", seat_sets), ("SHOWN", seat_sets),
            ("EXCLUDED", seat_sets), ("DISCARDS", seat_sets), ("PILE", teams * L.N_WORDS),
            ("FOLA", L.N_WORDS), ("CUTTER_ROBBED", L.N_WORDS), ("DEALER_ROBBED", L.N_WORDS),
            ("EXPOSED", L.N_WORDS), ("DECLARED", L.N_PLAYERS * combo_words),
            ("TRICK_CARD", L.N_PLAYERS), ("ORDER", L.ORDER_WORDS),
            ("POINTS", teams * len(L.SOURCES)), ("RNG", 4), ("DEALER", 1), ("LEADER", 1),
            ("TO_MOVE", 1), ("PHASE", 1), ("TRICK_NUMBER", 1), ("LED_SUIT", 1),
            ("SUITS_LED", 1), ("TRICKS_WON", teams), ("MATTO_TEAM", 1), ("MATTO_DEBT", 1),
            ("LAST_WINNER", 1), ("D_WORD", 1), ("RESTI", teams), ("TO_DISCARD", 1),
            ("DECL_LAST", 1), ("DECLARED_DONE", 1), ("BONUS_CLAIMED", 1), ("FOLA_OPEN", 1),
            ("SEEN_BOTTOM", 1), ("PAID_CARD", 1), ("MATTO_GIVEN", 1), ("NET", 1),
            ("NET_TOTAL", 1), ("MODE", 1), ("DEAL_NUMBER", 1), ("START_DEALER", 1)]


SLOTS = {"scopa": _scopa, "bura": _bura, "mushka": _mushka, "minchiate": _minchiate}
"""Each game's slots, (offset name, words), from its layout module."""


def layout_of(game: str):
    return importlib.import_module(f"cardsim.games.{game}.layout")


def offset_names(layout) -> list[str]:
    """The names the layout assigns after its "state vector offsets" comment, up to
    ``STATE_LEN``, widths (``*_WORDS``) aside."""
    source = inspect.getsource(layout)
    start = next((n for n, line in enumerate(source.splitlines(), 1)
                  if line.startswith("#") and "state vector offsets" in line.lower()), None)
    assert start is not None, f"{layout.__name__}: no '# State vector offsets' comment"
    names = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and node.lineno > start:
            name = node.targets[0].id
            if name == "STATE_LEN":
                return names
            if not name.endswith("_WORDS"):
                names.append(name)
    raise AssertionError(f"{layout.__name__}: no STATE_LEN after the offsets")


@pytest.mark.parametrize("game", cardsim.list_games())
def test_state_offsets_do_not_overlap(game):
    """The slots of the game's state vector cover each word exactly once, and every offset of
    its layout has a slot."""
    assert game in SLOTS, f"no slot table for {game}: add its layout's slots to SLOTS"
    L = layout_of(game)
    slots = SLOTS[game](L)
    names = [name for name, _ in slots]
    assert len(set(names)) == len(names)
    assert set(names) == set(offset_names(L)), \
        f"{game}: offsets without a slot {set(offset_names(L)) - set(names)}, " \
        f"slots without an offset {set(names) - set(offset_names(L))}"
    used = np.zeros(L.STATE_LEN, dtype=int)
    for name, width in slots:
        start = getattr(L, name)
        assert 0 <= start and start + width <= L.STATE_LEN, (name, start, width)
        used[start:start + width] += 1
    assert (used == 1).all(), \
        f"{game}: words used twice {np.flatnonzero(used > 1)}, unused {np.flatnonzero(used == 0)}"
