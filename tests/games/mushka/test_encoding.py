"""Mushka's input encoding for the learned evaluation (cardsim/games/mushka/encoding.py).

Checked through the public API (``new_deal``, ``from_dict``, ``apply_action``) and the compiled
``encode``: over random deals of every preset and player count, from every seat, the active
inputs are distinct, in range, at most ``MAX_ACTIVE`` and finite; a hand-checked position whose
expected indices come from the module's documented table and the card index of rules §1
(restated in ``positions.py``); every zone relative to the seat encoded for; and a change of
one encoded counter changes the encoding.
"""
from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from cardsim.errors import OptionError
from cardsim.games.mushka import encoding as E
from cardsim.games.mushka import layout as L
from cardsim.games.mushka.rules import PRESETS
from tests.games.mushka.positions import action_id, idx, play, position
from tests.helpers import game_loader

# the documented table (module docstring), restated
HANDS, TRICK, STOCK = 0, 364, 728
ACE, DEALER, TRUMP, PHASE, PLAYERS = 822, 829, 850, 854, 867
ZONE = 52


game = game_loader("mushka")


def encode(state, player):
    """The active inputs as (idx, val) arrays."""
    ix = np.full(E.MAX_ACTIVE, -1, dtype=np.int64)
    val = np.full(E.MAX_ACTIVE, np.nan)
    n = E.encode(state.vec, state.game.spec.params, np.int64(player), ix, val)
    assert 0 < n <= E.MAX_ACTIVE
    return ix[:n].copy(), val[:n].copy()


def dense(state, player):
    ix, val = encode(state, player)
    out = np.zeros(E.N_INPUTS)
    out[ix] = val
    return out


def choose(state, r: random.Random) -> int:
    """A random legal action: in the exchange pass / stand / exchange by kind first, so that
    passes, lone players and void deals occur."""
    kinds = {}
    for a in state.legal_actions():
        kinds.setdefault(a >> 52, []).append(a)
    return r.choice(kinds[r.choice(sorted(kinds))])


def check_all_seats(state, n_players):
    for p in range(n_players):
        ix, val = encode(state, p)
        assert len(set(ix.tolist())) == len(ix), (p, sorted(ix.tolist()))
        assert ix.min() >= 0 and ix.max() < E.N_INPUTS
        assert np.all(np.isfinite(val)) and np.all(np.abs(val) <= 10.0)


CONFIGS = [(name, n) for name in PRESETS for n in range(3, 8)]


def test_constants():
    assert E.N_INPUTS == PLAYERS + 5
    assert E.N_SEATS == L.MAX_PLAYERS == 7
    assert E.VERSION == 1
    assert E.MAX_ACTIVE == 99


@pytest.mark.parametrize("name,n", CONFIGS)
def test_random_positions_in_range(name, n):
    """Every position of 200 random deals, every seat: distinct indices in [0, N_INPUTS), at
    most MAX_ACTIVE of them, finite values."""
    try:
        rules = dataclasses.replace(PRESETS[name], num_players=n)
    except OptionError:
        pytest.skip(f"{name}: the deck is too small for {n} players")
    g = game(rules)
    for seed in range(200):
        r = random.Random(seed)
        state = g.new_deal(seed=seed)
        while True:
            check_all_seats(state, n)
            if state.is_terminal():
                break
            state.apply_action(choose(state, r))


@pytest.mark.parametrize("n", [3, 5, 7])
def test_low_records_declared_stop(n):
    """Stop offers, overshoot resets and lone players' credited tricks: low records under
    stop_mode=declared reach the stop phase and negative written-off records."""
    g = game(num_players=n, stop_mode="declared", ace_bonus_timing="end_of_deal")
    phases = set()
    for seed in range(100):
        r = random.Random(seed)
        state = g.new_deal(seed=seed, records=[r.randrange(0, 4) for _ in range(n)])
        while True:
            check_all_seats(state, n)
            phases.add(int(state.vec[L.PHASE]))
            if state.is_terminal():
                break
            state.apply_action(choose(state, r))
    assert L.PHASE_STOP in phases


def test_hand_checked_position():
    """4 players, dealer seat 3, hearts trump, seat 0 to lead holding the ace of spades: from
    seat 0 its hand is zone 0 and seat 1's zone 1; from seat 3 they are zones 1 and 2; a card
    led by seat 0 is in seat 1's trick zone 3."""
    g = game(num_players=4)
    hand0 = "As Kh 9c 8d 7s".split()
    hand1 = "Ah Qd Jc Ts 8c".split()
    state = g.from_dict(position([hand0, hand1, None, None], trump="7h", dealer=3))

    ix, val = encode(state, 0)
    got = set(ix.tolist())
    assert {HANDS + idx(c) for c in hand0} <= got
    assert {HANDS + ZONE + idx(c) for c in hand1} <= got
    assert {x for x in got if x < 2 * ZONE} == ({HANDS + idx(c) for c in hand0}
                                                | {HANDS + ZONE + idx(c) for c in hand1})
    assert {TRUMP + 3, ACE + 0, DEALER + 3, PHASE + L.PHASE_PLAY, PLAYERS + 1} <= got
    assert not got & set(range(TRUMP, TRUMP + 3))
    assert np.all(val[ix < TRICK] == 1.0)

    got3 = set(encode(state, 3)[0].tolist())
    assert {HANDS + ZONE + idx(c) for c in hand0} <= got3
    assert {HANDS + 2 * ZONE + idx(c) for c in hand1} <= got3
    assert {ACE + 1, DEALER + 0} <= got3

    play(state, "play 9c")
    got1 = set(encode(state, 1)[0].tolist())
    assert TRICK + 3 * ZONE + idx("9c") in got1
    assert HANDS + 3 * ZONE + idx("9c") not in got1
    assert {x for x in got1 if TRICK <= x < STOCK} == {TRICK + 3 * ZONE + idx("9c")}


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_zones_relative_to_player(n):
    """The hand of seat (p + r) % n is zone r from seat p, for every p and r (zone 1: the
    next seat's), at the deal and after a random part of it."""
    g = game(num_players=n)
    for seed in range(5):
        r = random.Random(seed)
        state = g.new_deal(seed=seed)
        for _ in range(r.randrange(0, 12)):
            if state.is_terminal():
                break
            state.apply_action(choose(state, r))
        hands = state.to_dict()["hands"]
        for p in range(n):
            got = set(encode(state, p)[0].tolist())
            for z in range(L.MAX_PLAYERS):
                zone = {x - z * ZONE for x in got if HANDS + z * ZONE <= x < HANDS + (z + 1) * ZONE}
                want = {idx(c) for c in hands[(p + z) % n]} if z < n else set()
                assert zone == want, (seed, p, z)


def _mid_play():
    """4 players, everyone stood, one card led."""
    g = game(num_players=4)
    state = g.new_deal(seed=3)
    while state.to_dict()["phase"] == "exchange":
        state.apply_action(action_id("stand"))
    state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("word,value", [
    (L.TRICKS_WON + 2, 1), (L.RECORD + 1, 20), (L.START_RECORD + 3, 27), (L.BONUS_TAKEN, 1),
    (L.TRICK_NUMBER, 1), (L.LONE_LEFT, 2), (L.TRUMP_TAKEN, 1), (L.ACE_HOLDER, 3),
    (L.DECISION + 1, L.DECIDED_PASS), (L.ACTIVE, 0b0111)])
def test_counter_changes_encoding(word, value):
    """Two states differing only in one encoded word encode differently, from every seat."""
    base = _mid_play()
    other = base.clone()
    assert int(other.vec[word]) != value
    other.vec[word] = value
    for p in range(4):
        assert not np.array_equal(dense(base, p), dense(other, p)), (word, p)


def test_records_change_encoding():
    """new_deal(records=...): a different record of one seat is a different input."""
    g = game(num_players=4)
    a = g.new_deal(seed=5, records=[25, 25, 25, 25])
    b = g.new_deal(seed=5, records=[25, 25, 3, 25])
    for p in range(4):
        da, db = dense(a, p), dense(b, p)
        diff = np.flatnonzero(da != db)
        assert len(diff) == 1 and db[diff[0]] == pytest.approx(3 / 25), (p, diff)
