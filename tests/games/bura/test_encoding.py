"""The learned evaluation's input encoding of Bura (cardsim/games/bura/encoding.py).

The input table of the module docstring is restated here (offsets, the card index of rules §1
from ``positions.idx``) and an encoding is worked out from a position's ``to_dict`` with it
(:func:`expected`): an oracle that does not read the state vector. Positions come from random
play of seeded deals under every preset with 2, 3 and 4 players, and from a position written
by hand (``positions.position``, loaded with ``from_dict``).
"""
from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest

from cardsim.games.bura import encoding as E
from cardsim.games.bura import layout as L
from cardsim.games.bura.rules import PRESETS, BuraRules
from tests.games.bura.positions import SUITS, idx, play, points, position
from tests.helpers import game_loader

# The module docstring's table.
HAND, PILE_UP, PILE_DOWN, TRICK, TRICK_DOWN, TURNED = 0, 144, 288, 432, 576, 612
TRUMP_SUIT, POINTS, POINTS_UP, STOCK, TO_MOVE, LEADER, HOLDER, TRICK_K, PHASE = (
    648, 652, 656, 660, 661, 665, 669, 673, 674)
PHASES = {"check": 0, "claim": 1, "lead": 4, "answer": 5, "deal_over": 6, "match_over": 6}
STOP_PHASES = {"small_moscow": 2, "molodka": 3}
CLAIM = L.CLAIM << L.KIND_SHIFT
SEEDS = range(200)


def configs() -> list[dict]:
    """Every preset with 2, 3 and 4 players (duplicates once), as ``load_game`` options, and
    face-up throws by choice (3 players)."""
    out = [{**dataclasses.asdict(BuraRules()), "num_players": 3, "facedown_discards": "choice"}]
    for rules in PRESETS.values():
        for n in (2, 3, 4):
            options = {**dataclasses.asdict(rules), "num_players": n}
            if options not in out:
                out.append(options)
    return out


CONFIGS = configs()


def short(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items() if v != getattr(BuraRules(), k)) \
        or "default"


game = game_loader("bura")


def encoded(g, vec, player: int) -> dict[int, float]:
    """``encode``'s inputs as {index: value}, after the interface's checks: at most
    MAX_ACTIVE of them, distinct, in range, finite; nothing written past ``n``."""
    idx_buf = np.full(E.MAX_ACTIVE + 4, -7, dtype=np.int64)
    val_buf = np.full(E.MAX_ACTIVE + 4, -7.0)
    n = int(E.encode(vec, g.spec.params, player, idx_buf, val_buf))
    assert 0 < n <= E.MAX_ACTIVE
    assert (idx_buf[n:] == -7).all() and (val_buf[n:] == -7.0).all()
    ids = idx_buf[:n].tolist()
    assert len(set(ids)) == n, sorted(ids)
    assert all(0 <= i < E.N_INPUTS for i in ids), sorted(ids)
    assert all(math.isfinite(v) for v in val_buf[:n])
    return dict(zip(ids, val_buf[:n].tolist()))


def expected(d: dict, player: int) -> dict[int, float]:
    """The inputs the docstring's table gives for the position dict ``d`` seen by ``player``."""
    n = len(d["hands"])
    out: dict[int, float] = {}

    def put(base, cards):
        for c in cards:
            out[base + idx(c)] = 1.0

    trick = d["trick"]
    for r in range(n):
        seat = (player + r) % n
        put(HAND + 36 * r, d["hands"][seat])
        put(PILE_UP + 36 * r, d["piles"][seat]["up"])
        put(PILE_DOWN + 36 * r, d["piles"][seat]["down"])
        if trick:
            put(TRICK + 36 * r, trick["played"][seat])
            put(TRICK_DOWN, set(trick["played"][seat]) & set(d["thrown_down"][seat]))
        up = points(d["piles"][seat]["up"])
        total = up + points(d["piles"][seat]["down"])
        if total:
            out[POINTS + r] = total / 120
        if up:
            out[POINTS_UP + r] = up / 120
    if d["stock"]:
        assert d["stock"][-1] == d["trump_card"]
        put(TURNED, [d["trump_card"]])
        out[STOCK] = len(d["stock"]) / 30
    out[TRUMP_SUIT + SUITS.index(d["trump_card"][1])] = 1.0
    if d["to_move"] is not None:
        out[TO_MOVE + (d["to_move"] - player) % n] = 1.0
    out[LEADER + (d["leader"] - player) % n] = 1.0
    if trick:
        out[HOLDER + (trick["holder"] - player) % n] = 1.0
        out[TRICK_K] = trick["k"] / 3
    phase = d["phase"]
    out[PHASE + (STOP_PHASES[d["stop_round"]] if phase == "stop" else PHASES[phase])] = 1.0
    return out


def random_positions(g, seed: int):
    """Every state of a deal played from ``new_deal(seed)`` with random legal actions (a
    claim, where legal, with probability 0.1), the final one included."""
    rnd = random.Random(seed)
    state = g.new_deal(seed=seed)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        others = [a for a in legal if a != CLAIM]
        if CLAIM in legal and (not others or rnd.random() < 0.1):
            state.apply_action(CLAIM)
        else:
            state.apply_action(rnd.choice(others))
        yield state


def test_constants():
    """The table's end is the input width; the outputs cover the most seats of any rules."""
    assert E.N_INPUTS == PHASE + 7
    num_players = next(f for f in dataclasses.fields(BuraRules) if f.name == "num_players")
    assert E.N_SEATS == max(num_players.metadata["allowed"]) == 4
    assert E.MAX_ACTIVE == 60 and E.VERSION == 1


@pytest.mark.parametrize("options", CONFIGS, ids=short)
def test_every_position_and_seat_gives_valid_inputs(options):
    """Random positions of 200 seeded deals, every seat as player: at most MAX_ACTIVE
    inputs, distinct, in range, finite values (checked by :func:`encoded`)."""
    g = game(**options)
    n = options["num_players"]
    most = 0
    for seed in SEEDS:
        for state in random_positions(g, seed):
            for player in range(n):
                most = max(most, len(encoded(g, state.vec, player)))
    assert most > 30


@pytest.mark.parametrize("options", CONFIGS, ids=short)
def test_inputs_are_the_table_of_the_docstring_from_every_seat(options):
    """Every input, zone for zone, is what the docstring's table says of the position's dict,
    for every seat as player (e.g. the hand of seat p + 1 in zone 1 for every p)."""
    g = game(**options)
    n = options["num_players"]
    for seed in SEEDS[::10]:
        for state in random_positions(g, seed):
            d = state.to_dict()
            for player in range(n):
                assert encoded(g, state.vec, player) == pytest.approx(expected(d, player)), \
                    (seed, player, d)


def zone(inputs: dict, base: int, r: int) -> set[int]:
    """The cards (indices 0..35) of zone ``r`` of a 4 x 36 card table at ``base``."""
    lo = base + 36 * r
    return {i - lo for i in inputs if lo <= i < lo + 36}


@pytest.mark.parametrize("n", (2, 3, 4))
def test_seat_zones_rotate_with_the_player(n):
    """Relativity: seat ``p + r``'s cards are zone ``r`` of ``p``'s view and zone ``r - 1`` of
    ``p + 1``'s; the card zones of seats that do not play stay empty."""
    g = game(num_players=n)
    for seed in range(10):
        for state in random_positions(g, seed):
            views = [encoded(g, state.vec, p) for p in range(n)]
            for p in range(n):
                for base in (HAND, PILE_UP, PILE_DOWN, TRICK):
                    for r in range(n):
                        seat = (p + r) % n
                        mask = int(state.vec[{HAND: L.HAND, PILE_UP: L.PILE_UP,
                                              PILE_DOWN: L.PILE_DOWN,
                                              TRICK: L.TRICK_PLAYED}[base] + seat])
                        assert zone(views[p], base, r) == {c for c in range(36) if mask >> c & 1}
                        assert zone(views[p], base, r) == zone(views[(p + 1) % n], base,
                                                               (r - 1) % n)
                    for r in range(n, 4):
                        assert not zone(views[p], base, r)


def hand_position(g):
    """3 players, trump 7d (suit 2) with 6 cards left in the stock; seat 0 led 9s (index 3)
    and seat 1 threw 7c (10) face down; seat 2 to answer. Hands: seat 0 Jc Qc (13, 14), seat 1
    Ks 8c (6, 11), seat 2 Qs As 6h (5, 8, 27)."""
    state = g.from_dict(position(hands=["Jc Qc", "Ks 7c 8c", "Qs As 6h"], leader=0, trump="7d",
                                 stock=["Jd", "Qd", "Kd"], stock_size=6,
                                 trick={"leader": 0, "top": ["9s"]}))
    return play(state, "throw_down 7c")


def without_piles(inputs: dict) -> dict:
    return {i: v for i, v in inputs.items()
            if not (PILE_UP <= i < TRICK or POINTS <= i < STOCK)}


def test_a_position_worked_out_by_hand():
    """Indices computed by hand from the table: the player's own hand in zone 0, the next
    seat's in zone 1, the one after in zone 2; the trick by seat, its face-down card, the
    turned card, the trump suit and the counters. The piles (filler) follow the table too."""
    g = game(num_players=3)
    state = hand_position(g)
    d = state.to_dict()
    assert d["to_move"] == 2 and d["phase"] == "answer" and d["hands"][1] == ["Ks", "8c"]
    common = {631: 1.0, 650: 1.0, 660: 0.2, 673: 1 / 3, 679: 1.0}   # 7d turned, d, 6/30, k, answer
    # seat 2 (to move): zone 0 seat 2, zone 1 seat 0, zone 2 seat 1
    view2 = {5: 1.0, 8: 1.0, 27: 1.0,                    # own hand: Qs As 6h
             36 + 13: 1.0, 36 + 14: 1.0,                 # seat 0: Jc Qc
             72 + 6: 1.0, 72 + 11: 1.0,                  # seat 1: Ks 8c
             432 + 36 + 3: 1.0, 432 + 72 + 10: 1.0,      # trick: seat 0's 9s, seat 1's 7c
             576 + 10: 1.0,                              # 7c face down
             661 + 0: 1.0, 665 + 1: 1.0, 669 + 1: 1.0,   # to move, leader, holder
             **common}
    assert without_piles(encoded(g, state.vec, 2)) == pytest.approx(view2)
    # seat 0: zone 0 seat 0, zone 1 seat 1, zone 2 seat 2
    view0 = {13: 1.0, 14: 1.0, 36 + 6: 1.0, 36 + 11: 1.0, 72 + 5: 1.0, 72 + 8: 1.0, 72 + 27: 1.0,
             432 + 3: 1.0, 432 + 36 + 10: 1.0, 576 + 10: 1.0,
             661 + 2: 1.0, 665 + 0: 1.0, 669 + 0: 1.0, **common}
    assert without_piles(encoded(g, state.vec, 0)) == pytest.approx(view0)
    for p in range(3):
        assert encoded(g, state.vec, p) == pytest.approx(expected(d, p))


def test_a_counter_changes_the_inputs_and_left_out_words_do_not():
    """States differing only in one encoded word give different inputs (the seat to move, the
    leader, the trick's holder and size, the phase, the Stop round); the match's words and the
    deal order are left out (the docstring) and change nothing."""
    g = game(num_players=3)
    vec = hand_position(g).vec
    base = encoded(g, vec, 0)
    for word, value in ((L.TO_MOVE, 1), (L.LEADER, 1), (L.TRICK_HOLDER, 2), (L.TRICK_K, 2),
                        (L.PHASE, L.PHASE_LEAD)):
        other = vec.copy()
        other[word] = value
        assert encoded(g, other, 0) != base, word
    stop = vec.copy()
    stop[L.PHASE] = L.PHASE_STOP
    rounds = []
    for r in (L.STOP_SMALL_MOSCOW, L.STOP_MOLODKA):
        stop[L.STOP_ROUND] = r
        rounds.append(encoded(g, stop, 0))
    assert rounds[0] != rounds[1]
    for word in (L.SCORE, L.SCORE + 1, L.DEAL_NUMBER, L.REDEALS, L.DEALER, L.ORDER, L.RNG,
                 L.LAST_TRICK_TAKER, L.TRICKS, L.MODE):
        other = vec.copy()
        other[word] = np.uint64(int(other[word]) ^ 1)
        assert encoded(g, other, 0) == base, word
