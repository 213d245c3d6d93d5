"""The learned evaluation's input (cardsim/games/minchiate/encoding.py): well-formed on random
play under every preset, the documented table on a built position, relative to the seat, and
sensitive to the counters it encodes."""
from __future__ import annotations

import math

import numpy as np
import pytest

from cardsim.games.minchiate import encoding as E
from cardsim.games.minchiate import layout as L
from cardsim.games.minchiate.rules import PRESETS
from tests.games.minchiate.positions import game, play_position, random_state, walk

SENTINEL = -7
CARD_INPUTS = 10 * L.N_CARDS          # hands, piles and the current trick: 970


def encode(vec, params, player: int) -> dict[int, float]:
    """``{input: value}``, checking the kernel's contract on the way: at most MAX_ACTIVE
    distinct indices in range, finite values, nothing written past ``n``."""
    idx = np.full(E.MAX_ACTIVE + 32, SENTINEL, dtype=np.int64)
    val = np.zeros(E.MAX_ACTIVE + 32, dtype=np.float64)
    n = int(E.encode(vec, params, player, idx, val))
    assert 0 < n <= E.MAX_ACTIVE
    assert (idx[n:] == SENTINEL).all()
    got = idx[:n].tolist()
    assert len(set(got)) == n
    assert all(0 <= i < E.N_INPUTS for i in got)
    assert all(math.isfinite(v) for v in val[:n])
    return dict(zip(got, val[:n].tolist()))


def cards_of(vec, at: int) -> set[int]:
    """The cards of the two-word set at ``at`` (word 0: cards 0..40, word 1: 41..96)."""
    w0, w1 = int(vec[at]), int(vec[at + 1])
    return ({b for b in range(64) if w0 >> b & 1}
            | {L.WORD1_START + b for b in range(64) if w1 >> b & 1})


def rotated(vec) -> np.ndarray:
    """The same world with every seat moved on by one (seat s becomes s + 1), so the teams
    swap: what seat p saw, seat p + 1 sees in the result."""
    out = vec.copy()
    for s in range(4):
        t = (s + 1) % 4
        for base, width in ((L.HAND, 2), (L.DECLARED, 2), (L.TRICK_CARD, 1)):
            out[base + width * t:base + width * (t + 1)] = vec[base + width * s:base + width * (s + 1)]
    for base in (L.PILE, L.RESTI, L.TRICKS_WON):
        width = 2 if base == L.PILE else 1
        out[base:base + width], out[base + width:base + 2 * width] = \
            vec[base + width:base + 2 * width].copy(), vec[base:base + width].copy()
    for w in (L.TO_MOVE, L.LEADER, L.DEALER):
        out[w] = (vec[w] + np.uint64(1)) % np.uint64(4)
    for w in (L.DECLARED_DONE, L.BONUS_CLAIMED):
        bits = int(vec[w])
        out[w] = np.uint64(((bits << 1) | (bits >> 3)) & 15)
    if vec[L.MATTO_TEAM]:
        out[L.MATTO_TEAM] = np.uint64(3) - vec[L.MATTO_TEAM]
    if vec[L.LAST_WINNER]:
        out[L.LAST_WINNER] = vec[L.LAST_WINNER] % np.uint64(4) + np.uint64(1)
    out[L.D_WORD] = np.uint64(2 * L.D_BIAS - int(vec[L.D_WORD]))
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_play_encodes_within_bounds(preset):
    """Seeds 0..99, every state of a random deal, every seat: the kernel's contract; each card
    in at most one card zone, with value 1; 97 card inputs less the Fola's."""
    rules = PRESETS[preset]
    g = game(**{k: getattr(rules, k) for k in rules.__dataclass_fields__})
    params = g.spec.params
    largest = 0
    for seed in range(100):
        for s, _ in walk(g, seed):
            vec = s.vec
            fola = len(cards_of(vec, L.FOLA))
            for player in range(4):
                enc = encode(vec, params, player)
                largest = max(largest, len(enc))
                card_inputs = [i for i in enc if i < CARD_INPUTS]
                assert all(enc[i] == 1.0 for i in card_inputs)
                assert len({i % L.N_CARDS for i in card_inputs}) == len(card_inputs)
                assert len(card_inputs) == L.N_CARDS - fola
    assert largest <= E.MAX_ACTIVE


def test_hand_checked_position():
    """Seat 2 holds T12 (11), the Matto (40) and Kba (96, bit 55 of word 1), seat 3 Aco (41);
    seat 0 led 5cu (59), seat 1 played 9cu (63) after 4 tricks; seat 2 to move. Seen by seat
    2 (docstring table): its hand is zone 0, seat 3's zone 1, the trick's cards at 582 + 97 r
    + card with seat 0 at r = 2 and seat 1 at r = 3."""
    g = game()
    s = g.from_dict(play_position({2: "T12 Kba M", 3: "Aco"}, trick=[[0, "5cu"], [1, "9cu"]],
                                  tricks_played=4, leader=0))
    assert (int(s.vec[L.HAND + 2 * 2 + 1]) >> 55) & 1            # Kba: word 1, bit 55
    enc = encode(s.vec, g.spec.params, 2)
    assert {11, 40, 96} <= set(enc)                               # own hand, zone 0
    assert 97 + 41 in enc                                         # seat 3's Aco, zone 1
    assert {582 + 2 * 97 + 59, 582 + 3 * 97 + 63} <= set(enc)      # the trick by seat
    assert not {i for i in enc if 582 <= i < 582 + 2 * 97}         # seats 2, 3 not played
    assert enc[970] == 1.0 and enc[976] == 1.0                    # to move: r 0; leader: r 2
    assert enc[985] == pytest.approx(4 / 21)
    assert enc[991] == 1.0                                        # the trick's suit: cups
    assert not {978, 979, 980, 981, 982, 983, 984} & set(enc)      # no dealer or phase in play
    seen_by_1 = encode(s.vec, g.spec.params, 1)
    assert {97 + 11, 97 + 40, 97 + 96, 2 * 97 + 41} <= set(seen_by_1)
    assert {i for i in seen_by_1 if i < 97} == _hand(s.vec, 1)


def _hand(vec, seat: int) -> set[int]:
    return cards_of(vec, L.HAND + 2 * seat)


def test_relative_to_the_seat():
    """Each seat's hand is at zone (seat - player) % 4; and a world with every seat moved on
    by one (teams swapped) encodes for player + 1 as the original does for player."""
    g = game()
    params = g.spec.params
    checked = 0
    for seed in range(12):
        for k, (s, _) in enumerate(walk(g, seed)):
            if k % 7:
                continue
            vec = s.vec
            rot = rotated(vec)
            for player in range(4):
                enc = encode(vec, params, player)
                for seat in range(4):
                    r = (seat - player) % 4
                    zone = {i - r * L.N_CARDS for i in enc if r * L.N_CARDS <= i < (r + 1) * L.N_CARDS}
                    assert zone == _hand(vec, seat)
                assert encode(rot, params, (player + 1) % 4) == enc
                checked += 1
    assert checked > 100


def _changed(vec, word: int, value: int) -> np.ndarray:
    out = vec.copy()
    out[word] = np.uint64(value)
    return out


@pytest.mark.parametrize("phase, word, value", [
    ("play", L.D_WORD, L.D_BIAS + 17),
    ("play", L.D_WORD, L.D_BIAS - 17),
    ("play", L.RESTI, 1),
    ("play", L.RESTI + 1, 2),
    ("play", L.SUITS_LED, 0b1010),
    ("play", L.TRICK_NUMBER, 9),
    ("play", L.LED_SUIT, 4),
    ("discard", L.TO_DISCARD, 1),
    ("declare", L.DECL_LAST, 3),
    ("declare", L.DECLARED_DONE, 0b0101),
])
def test_counters_change_the_encoding(phase, word, value):
    """Two worlds differing in one encoded counter encode differently for every seat."""
    s = random_state(3, phase, tricks_played=5 if phase == "play" else None)
    params = game().spec.params
    vec = s.vec
    assert int(vec[word]) != value
    other = _changed(vec, word, value)
    for player in range(4):
        assert encode(vec, params, player) != encode(other, params, player)


def test_matto_debt_and_d_by_team():
    """The Matto's debt and D are encoded as the player's team's or the other's."""
    s = random_state(5, "play", tricks_played=6)
    params = game().spec.params
    vec = _changed(_changed(s.vec, L.D_WORD, L.D_BIAS + 30), L.MATTO_TEAM, 2)   # team B played it
    vec = _changed(vec, L.MATTO_DEBT, 0)
    debt = _changed(vec, L.MATTO_DEBT, 1)
    for player in range(4):
        own = player & 1
        enc = encode(vec, params, player)
        assert enc[995 + own] == pytest.approx(0.5)                 # D = +30 for team A
        assert 999 not in enc and 1000 not in enc
        assert encode(debt, params, player)[999 + (1 - own)] == 1.0  # team B owes
