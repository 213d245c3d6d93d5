"""The exact (double-dummy) solver, :mod:`cardsim.solvers.exact`, against an independent oracle.

The oracle (``tests/solvers/exact_oracle.py``) is a plain brute-force minimax over the
plain-Python REFERENCE engines (``cardsim/games/<game>/reference.py``), no pruning and no
table, with the value of a finished deal taken from the reference's own scoring: Scopa, side
0's deal points minus side 1's (SC-SCORE-1..6, SC-TEAM-3); Bura (2 players), ``256 * return of
seat 0 + card points of seat 0's piles - those of seat 1's`` (BU-END-1..4, BU-CLAIM-1..2). The
solver's hooks (``cardsim/games/<game>/exact.py``) define these values in their docstrings; the
oracle never calls them.

1. Thousands of small endgames (random legal play from a seeded deal until a few moves remain):
   ``solve`` equals the brute-force value, ``solve_actions`` the brute-force value of every
   legal action, the game's ``bounds`` contain the value; with a workspace cleared before each
   position, one kept across all of them, and a tiny table whose buckets are always full.
2. Whole deals: the value of ``solve`` is what the solver's own line (``principal_line``)
   achieves when played out, and every step of the line keeps it.
3. The bounds hook contains the exact value all along random deals.
4. Positions with equal features (piles that differ only in cards that score the same) have
   equal brute-force values, and the solver gives both that value from one shared table.
5. 3- and 4-player Bura are refused with an UnsupportedError; Minchiate's endgame solver
   (its brute-force endgames, its features, its refusal of more than ``max_cards``).
6. A match position is solved to the end of its current deal.

Normal suite: 1,500 Scopa 2-player, 300 Scopa 2x2 and 1,500 Bura endgames (brute force), plus
the whole deals. ``-m slow`` runs ten times as many endgames, longer ones.
"""
from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, UnsupportedError
from cardsim.games.bura.layout import HAND as BURA_HAND
from cardsim.games.bura.layout import STOCK as BURA_STOCK
from cardsim.games.mushka import layout as MUSHKA_LAYOUT
from cardsim.solvers import exact
from tests.solvers.exact_oracle import (
    OUTCOME,
    Oracle,
    bura_card_points,
    bura_pile_points,
    choose,
    play_line,
    random_prefix,
    reference_of,
    side_of,
)

# --- option sets -----------------------------------------------------------------------------

SCOPA_2P = {
    "default": {},
    # SC-SCOPA-3 (a last-move sweep scores), SC-PRIM-2 (a missing suit forfeits primiera),
    # SC-END-2/3 (left-over cards stay unowned).
    "variant": {"last_move_scopa_counts": True, "primiera_missing_suit": "forfeit",
                "leftover_to_last_capturer": False},
}
SCOPA_4P = {
    "2x2": {"num_players": 4},
    # SC-DEAL-5 nine at once, SC-CAPT-3 off (sums and singles both), SC-SCOPA-3, SC-PRIM-2.
    "2x2-variant": {"num_players": 4, "four_player_deal": "nine_at_once",
                    "equal_card_priority": False, "last_move_scopa_counts": True,
                    "primiera_missing_suit": "forfeit"},
}
BURA_SETS = {
    "default": {},
    # BU-CLAIM-2 single, BU-END-2 void, BU-COMBO-1 Moscow, BU-COMBO-2 own lead, BU-RESP-7 off.
    "variant": {"false_claim_penalty": "single", "end_without_claim": "void",
                "moscow": "three_aces", "bura_timing": "own_lead", "facedown_discards": "off"},
    # BU-COMBO-3 void double bura, BU-COMBO-5..7 Stop rounds, BU-RESP-6 choice.
    "stops": {"facedown_discards": "choice", "molodka_stop": True,
              "small_moscow": "three_sixes_with_trump", "double_bura": "void_deal",
              "moscow": "three_aces_with_trump", "initial_combo_redeal": False},
}

# Endgame sizes: Scopa, moves left in the deal (36 moves a deal, SC-DEAL-5 / SC-TEAM-5); Bura,
# cards left in the hands and the stock (positions with a little stock left draw the last
# cards, BU-DRAW-1/2).
# With the Stop rounds on (BU-COMBO-5..7) every trick has more moves, so its endgames hold
# fewer cards.
SCOPA_PLIES = (4, 5, 6, 7, 8)
SCOPA_PLIES_SLOW = (4, 5, 6, 7, 8, 9, 10)
BURA_CARDS = {"default": (3, 4, 4, 5, 5, 6, 6), "variant": (3, 4, 4, 5, 5, 6, 6),
              "stops": (3, 4, 4, 5, 5)}
BURA_CARDS_SLOW = {"default": (3, 4, 5, 6, 7, 5, 6, 7), "variant": (3, 4, 5, 6, 7, 5, 6, 7),
                   "stops": (3, 4, 5, 6, 4, 5, 6)}

SCOPA_2P_POSITIONS = 750      # per option set: 1,500 in all
SCOPA_4P_POSITIONS = 150      # per option set: 300 in all
BURA_POSITIONS = {"default": 600, "variant": 500, "stops": 400}     # 1,500 in all
SLOW_FACTOR = 10

_GAMES: dict = {}


def load(name: str, **options):
    """The compiled game for these options (cached)."""
    key = (name, tuple(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = cardsim.load_game(name, **options)
    return _GAMES[key]


# --- positions -------------------------------------------------------------------------------

def bura_cards_left(state) -> int:
    """Cards still in the hands and the stock of a 2-player Bura state (read off the state
    vector only to pick positions; the values never depend on it)."""
    v = state.vec
    return sum(bin(int(v[BURA_HAND + seat])).count("1") for seat in range(2)) + bin(
        int(v[BURA_STOCK])).count("1")


def scopa_endgame(game, seed: int, plies_left: int):
    """A Scopa deal from ``seed`` played at random until ``plies_left`` moves remain."""
    state = game.new_deal(seed=seed)
    assert random_prefix(state, 36 - plies_left, random.Random(seed))
    return state


def bura_endgame(game, seed: int, cards_left: int):
    """A Bura deal from ``seed`` played at random (claims avoided) until at most
    ``cards_left`` cards remain in the hands and the stock; None if the deal ended first."""
    state = game.new_deal(seed=seed)
    chooser = random.Random(seed)
    while not state.is_terminal() and bura_cards_left(state) > cards_left:
        state.apply_action(choose(state.legal_actions(), chooser, avoid_claims=True))
    return None if state.is_terminal() else state


def endgames(name: str, game, count: int, base: int, sizes):
    """``count`` live endgames of the game, seeds from ``base``, sizes cycling over ``sizes``."""
    out = []
    for i in itertools.count():
        if len(out) == count:
            return out
        size = sizes[i % len(sizes)]
        if name == "scopa":
            out.append(scopa_endgame(game, base + i, size))
        else:
            state = bura_endgame(game, base + i, size)
            if state is not None:
                out.append(state)


def describe(state) -> str:
    """The position for a failure message (without rules, chance stream and logs)."""
    d = state.to_dict()
    for k in ("rules", "rng", "history", "revealed", "revealed_at", "thrown_down", "scores",
              "deal_number", "redeals", "game"):
        d.pop(k, None)
    return repr(d)


def finished_engine_value(state) -> int:
    """The value for side 0 of a finished deal, from the ENGINE's returns, score breakdown and
    position dict (not from the solver): Scopa, the deal's point difference of side 0
    (SC-SCORE-6; ``returns`` and the breakdown's totals must agree); Bura, ``256 * return of
    seat 0`` plus the card-point margin of the piles (BU-END-1..4)."""
    assert state.is_terminal()
    if state.game.name == "scopa":
        total = state.score_breakdown()["total"]
        assert state.returns()[0] == total[0] - total[1]
        return total[0] - total[1]
    d = state.to_dict()
    ret = state.returns()[0]
    assert ret == int(ret)
    return OUTCOME * int(ret) + bura_pile_points(d, 0) - bura_pile_points(d, 1)


# --- 1. exact = brute force on small endgames -------------------------------------------------

class Checker:
    """Solves endgames three ways and compares each answer with the oracle.

    ``cleared``: a workspace cleared before every position; ``kept``: one workspace whose
    table is never cleared; ``tiny``: a never-cleared table of 8 entries (4 buckets), so that
    entries are replaced all the time. Failures are collected as messages."""

    def __init__(self, game) -> None:
        self.game = game
        self.spec = game.spec
        self.cleared = exact.workspace(self.spec, table_bits=16)
        self.kept = exact.workspace(self.spec, table_bits=16)
        self.tiny = exact.workspace(self.spec, table_bits=3)
        self.oracle = Oracle()
        self.failures: list[str] = []
        self.checked = 0

    def fail(self, i: int, state, what: str, expected, got) -> None:
        self.failures.append(f"#{i} {what}: expected {expected}, got {got}\n"
                             f"    position: {describe(state)}")

    def check(self, i: int, state, root: int | None = None) -> None:
        """All the comparisons for one live position, searched for seat ``root`` (a paranoid
        game's; None: the solver's default, the player to move)."""
        self.checked += 1
        before = state.vec.copy()
        ref = reference_of(state)
        seat = ref.current_player() if root is None else root
        children = self.oracle.child_values(ref, seat)     # action -> brute-force value
        side = side_of(ref, ref.current_player(), seat)
        expected = max(children.values()) if side == 0 else min(children.values())

        if exact.side_to_move(state, root) != side:
            self.fail(i, state, "side_to_move", side, exact.side_to_move(state, root))
        lo, hi = exact.bounds(state)
        if not lo <= expected <= hi:
            self.fail(i, state, "bounds contain the value", expected, (int(lo), int(hi)))

        exact.clear(self.cleared)
        for label, ws in (("solve (cleared table)", self.cleared),
                          ("solve (table kept)", self.kept),
                          ("solve (tiny table)", self.tiny)):
            got = exact.solve(state, ws, root)
            if got != expected:
                self.fail(i, state, label, expected, got)
        if i % 100 == 0:                                   # the default workspace, sometimes
            got = exact.solve(state, root=root)
            if got != expected:
                self.fail(i, state, "solve (own workspace)", expected, got)

        wanted = (list(children), list(children.values()))
        exact.clear(self.cleared)
        for label, ws, same in (("solve_actions (cleared table)", self.cleared, False),
                                ("solve_actions (table kept, same deal)", self.kept, True),
                                ("solve_actions (tiny table)", self.tiny, False)):
            actions, values = exact.solve_actions(state, ws, same_deal=same, root=root)
            got = ([int(a) for a in actions], [int(v) for v in values])
            if got != wanted:
                self.fail(i, state, label, wanted, got)
        if not np.array_equal(state.vec, before):
            self.fail(i, state, "the solved state is left unchanged", before, state.vec)

    def run(self, states, roots=None) -> None:
        for i, state in enumerate(states):
            self.check(i, state, None if roots is None else roots[i])
        assert self.checked == len(states)
        assert not self.failures, (f"{len(self.failures)} disagreements with the brute force "
                                   f"in {self.checked} positions:\n"
                                   + "\n".join(self.failures[:5]))


def check_scopa(options: dict, count: int, base: int, sizes) -> Checker:
    game = load("scopa", **options)
    checker = Checker(game)
    checker.run(endgames("scopa", game, count, base, sizes))
    return checker


def check_bura(options: dict, count: int, base: int, sizes) -> Checker:
    game = load("bura", **options)
    checker = Checker(game)
    checker.run(endgames("bura", game, count, base, sizes))
    return checker


@pytest.mark.parametrize("name", list(SCOPA_2P))
def test_scopa_2p_exact_equals_brute_force(name):
    """SC-SCORE-1..6, SC-PRIM-1..3, SC-SCOPA-1..3, SC-END-1..3: on 750 two-player endgames
    (4 to 8 moves left) per option set, ``solve`` and ``solve_actions`` equal the brute-force
    values, the bounds contain them; cleared, kept and tiny tables agree."""
    checker = check_scopa(SCOPA_2P[name], SCOPA_2P_POSITIONS, 10_000 * (1 + list(SCOPA_2P).index(
        name)), SCOPA_PLIES)
    assert checker.oracle.nodes > 50 * SCOPA_2P_POSITIONS   # real trees were searched


@pytest.mark.parametrize("name", list(SCOPA_4P))
def test_scopa_2x2_exact_equals_brute_force(name):
    """SC-TEAM-1..5 (partners share a side, seat p plays for side p & 1), with the rules of
    the 2-player test: 150 endgames of 4 to 8 moves per 2x2 option set."""
    checker = check_scopa(SCOPA_4P[name], SCOPA_4P_POSITIONS, 30_000 + 10_000 * list(
        SCOPA_4P).index(name), SCOPA_PLIES)
    assert checker.oracle.nodes > 10 * SCOPA_4P_POSITIONS


@pytest.mark.parametrize("name", list(BURA_SETS))
def test_bura_exact_equals_brute_force(name):
    """BU-END-1..4, BU-CLAIM-1..3, BU-COMBO-1..9, BU-RESP-1..7, BU-DRAW-1..3: on 400 to 600
    endgames per option set (3 to 6 cards left in the hands and stock), ``solve`` and
    ``solve_actions`` equal the brute-force value ``256 * return + card-point margin``; the
    bounds contain it."""
    checker = check_bura(BURA_SETS[name], BURA_POSITIONS[name], 50_000 + 10_000 * list(
        BURA_SETS).index(name), BURA_CARDS[name])
    assert checker.oracle.nodes > 20 * BURA_POSITIONS[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCOPA_2P))
def test_scopa_2p_exact_equals_brute_force_slow(name):
    """The 2-player test with ten times the positions and endgames of up to 10 moves."""
    check_scopa(SCOPA_2P[name], SLOW_FACTOR * SCOPA_2P_POSITIONS,
                1_000_000 + 100_000 * list(SCOPA_2P).index(name), SCOPA_PLIES_SLOW)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCOPA_4P))
def test_scopa_2x2_exact_equals_brute_force_slow(name):
    """The 2x2 test with ten times the positions and endgames of up to 10 moves."""
    check_scopa(SCOPA_4P[name], SLOW_FACTOR * SCOPA_4P_POSITIONS,
                1_300_000 + 100_000 * list(SCOPA_4P).index(name), SCOPA_PLIES_SLOW)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BURA_SETS))
def test_bura_exact_equals_brute_force_slow(name):
    """The Bura test with ten times the positions and endgames of up to 7 cards."""
    check_bura(BURA_SETS[name], SLOW_FACTOR * BURA_POSITIONS[name],
               1_600_000 + 100_000 * list(BURA_SETS).index(name), BURA_CARDS_SLOW[name])


@pytest.mark.parametrize("name,options", [("scopa", {}), ("scopa", {"num_players": 4}),
                                          ("bura", {}), ("bura", BURA_SETS["stops"])],
                         ids=["scopa", "scopa-2x2", "bura", "bura-stops"])
def test_reused_workspace_gives_the_values_of_a_cleared_one(name, options):
    """One workspace kept (never cleared) over many positions of many deals — larger ones,
    where the table matters — gives exactly the values of a workspace cleared before each
    position, for ``solve`` and for ``solve_actions`` (also with ``same_deal`` along one deal:
    the positions of a random line of the same deal, one after the other)."""
    game = load(name, **options)
    kept = exact.workspace(game.spec, table_bits=18)
    cleared = exact.workspace(game.spec, table_bits=18)
    compared = 0
    for seed in range(6 if name == "scopa" else 4):
        state = game.new_deal(seed=70_000 + seed)
        chooser = random.Random(seed)
        # From a few moves in: the first positions of a deal are the slow ones to solve.
        if name == "scopa":
            random_prefix(state, 12 if options.get("num_players") == 4 else 0, chooser)
        while name == "bura" and not state.is_terminal() and bura_cards_left(state) > 26:
            state.apply_action(choose(state.legal_actions(), chooser, avoid_claims=True))
        first = True
        while not state.is_terminal():
            exact.clear(cleared)
            a = exact.solve(state, cleared)
            exact.clear(cleared)
            acts_a, vals_a = exact.solve_actions(state, cleared)
            b = exact.solve(state, kept)
            acts_b, vals_b = exact.solve_actions(state, kept, same_deal=not first)
            assert b == a, f"seed {seed}: kept table {b}, cleared {a}: {describe(state)}"
            assert list(acts_b) == list(acts_a) and list(vals_b) == list(vals_a), describe(state)
            best = max(vals_a) if exact.side_to_move(state) == 0 else min(vals_a)
            assert best == a, f"the best action's value {best} is not the value {a}"
            compared += 1
            first = False
            state.apply_action(choose(state.legal_actions(), chooser, avoid_claims=True))
    assert compared >= 50
    assert kept.stats[exact.HITS] > 0                    # the kept table was used


# --- 2. whole deals: the solver's own line achieves the value ------------------------------

FULL_DEALS = [
    ("scopa", "default", {}, range(6)),
    ("scopa", "variant", SCOPA_2P["variant"], range(3)),
    ("scopa", "2x2", {"num_players": 4}, range(1)),
    ("bura", "default", {}, range(4)),
    ("bura", "variant", BURA_SETS["variant"], range(4)),
    ("bura", "stops", BURA_SETS["stops"], range(2)),
]


@pytest.mark.parametrize("name,label,options,seeds", FULL_DEALS,
                         ids=[f"{n}-{lab}" for n, lab, _, _ in FULL_DEALS])
def test_principal_line_achieves_the_value(name, label, options, seeds):
    """SC-SCORE-6 / BU-END-1..4: for whole seeded deals, ``v = solve(state)``; the solver's
    ``principal_line`` played out on a copy ends the deal with the value ``v``, computed from
    the engine's returns, score breakdown and piles and again by replaying the line in the
    reference engine; at every step the chosen action's exact value (``solve_actions``) is
    ``v`` and is the best for the side to move, and the last few positions of the line have
    the brute-force value ``v``."""
    game = load(name, **options)
    oracle = Oracle()
    for seed in seeds:
        state = game.new_deal(seed=90_000 + seed)
        before = state.to_dict()
        v = exact.solve(state)
        line = exact.principal_line(state)
        assert state.to_dict() == before, "principal_line changed its state"
        ws = exact.workspace(game.spec)
        s = state.clone()
        for k, action in enumerate(line):
            actions, values = exact.solve_actions(s, ws, same_deal=k > 0)
            actions = [int(a) for a in actions]
            assert actions == s.legal_actions()
            assert action in actions, f"seed {seed} step {k}: the line's move is not legal"
            assert values[actions.index(action)] == v, (
                f"seed {seed} step {k}: the line's move has value "
                f"{values[actions.index(action)]}, the deal {v}: {describe(s)}")
            best = max(values) if exact.side_to_move(s) == 0 else min(values)
            assert best == v, f"seed {seed} step {k}: best {best} != {v}: {describe(s)}"
            small = (len(line) - k <= 6) if name == "scopa" else bura_cards_left(s) <= 4
            if small:
                assert oracle.value(reference_of(s)) == v, (
                    f"seed {seed} step {k}: brute force disagrees with {v}: {describe(s)}")
            s.apply_action(action)
        assert s.is_terminal(), f"seed {seed}: the line stops before the deal's end"
        assert finished_engine_value(s) == v, f"seed {seed}: the line reaches " \
                                              f"{finished_engine_value(s)}, solve says {v}"
        assert play_line(reference_of(state), line) == v, f"seed {seed}: reference replay"


# --- 3. the bounds contain the value -----------------------------------------------------------

BOUNDS_GAMES = [     # (game, options, deals, random moves before the first position checked)
    ("scopa", {}, 8, 0), ("scopa", SCOPA_2P["variant"], 6, 0),
    ("scopa", {"num_players": 4}, 2, 14), ("scopa", SCOPA_4P["2x2-variant"], 2, 18),
    ("bura", {}, 8, 4), ("bura", BURA_SETS["variant"], 8, 4), ("bura", BURA_SETS["stops"], 4, 6),
    # the exchange's decisions first (a whole exchange is beyond the endgame solver)
    ("mushka", {}, 8, 4), ("mushka", {"num_players": 5, "must_overtrump": True}, 4, 5),
]


@pytest.mark.parametrize("name,options,deals,skip", BOUNDS_GAMES,
                         ids=["scopa", "scopa-variant", "scopa-2x2", "scopa-2x2-variant",
                              "bura", "bura-variant", "bura-stops", "mushka", "mushka-5"])
def test_bounds_contain_the_exact_value(name, options, deals, skip):
    """``bounds`` of the game's exact hooks (through ``cardsim.solvers.exact.bounds``) holds
    the exact value of every live position met along random deals, and of each position one
    move further (the values of ``solve_actions``); Bura's claim bound (BU-CLAIM-1: a leader
    with 31 at his check point gets at least a won claim) included."""
    game = load(name, **options)
    spec = game.spec
    ws = exact.workspace(spec, table_bits=18)
    checked = 0
    for seed in range(deals):
        state = game.new_deal(seed=110_000 + seed)
        chooser = random.Random(seed)
        random_prefix(state, skip, chooser, avoid_claims=True)
        first = True
        while not state.is_terminal():
            lo, hi = exact.bounds(state)
            actions, values = exact.solve_actions(state, ws, same_deal=not first)
            first = False
            v = max(values) if exact.side_to_move(state) == 0 else min(values)
            assert lo <= v <= hi, f"value {v} outside the bounds [{lo}, {hi}]: {describe(state)}"
            checked += 1
            for action, value in zip(actions, values):
                child = state.clone()
                child.apply_action(int(action))
                if child.is_terminal():
                    continue
                lo, hi = exact.bounds(child)
                assert lo <= value <= hi, (f"value {value} outside the bounds [{lo}, {hi}]: "
                                           f"{describe(child)}")
                checked += 1
            state.apply_action(choose(state.legal_actions(), chooser, avoid_claims=True))
    assert checked >= 20 * deals


# --- 4. equivalent positions ---------------------------------------------------------------

def features(state) -> np.ndarray:
    """The solver's features of a position (the words that identify it up to equivalence)."""
    return exact.features(state).copy()


def scopa_swaps(d: dict):
    """Position dicts from ``d`` with one card of side 0's pile exchanged for one of side 1's
    pile (all such exchanges)."""
    for x in d["piles"][0]:
        for y in d["piles"][1]:
            e = {**d, "piles": [sorted(set(d["piles"][0]) - {x} | {y}),
                                sorted(set(d["piles"][1]) - {y} | {x})]}
            yield (x, y), e


def bura_swaps(d: dict):
    """Position dicts from ``d`` with one card of seat 0's piles exchanged for one of seat
    1's (each keeps the other's face-up / face-down place)."""
    def cards(seat):
        p = d["piles"][seat]
        return [(c, "up") for c in p["up"]] + [(c, "down") for c in p["down"]]

    for (x, px), (y, py) in itertools.product(cards(0), cards(1)):
        piles = [{"up": list(p["up"]), "down": list(p["down"])} for p in d["piles"]]
        piles[0][px].remove(x)
        piles[0][px].append(y)
        piles[1][py].remove(y)
        piles[1][py].append(x)
        for p in piles:
            p["up"].sort()
            p["down"].sort()
        thrown = [sorted((set(t) - {x, y}) | ({y} if x in t else set())
                         | ({x} if y in t else set())) for t in d["thrown_down"]]
        yield (x, y), {**d, "piles": piles, "thrown_down": thrown}


def equivalent_variants(game, state, swaps):
    """The pile-swapped variants of ``state`` (those the engine accepts) whose features equal
    ``state``'s, and how many variants were tried."""
    base = features(state)
    d = state.to_dict()
    d.pop("history", None)
    same, tried = [], 0
    for swap, e in swaps(d):
        try:
            other = game.from_dict(e)
        except CardsimError:
            continue
        tried += 1
        if np.array_equal(features(other), base):
            same.append((swap, other))
    return same, tried


@pytest.mark.parametrize("name", ["scopa", "bura"])
def test_equal_features_mean_equal_values(name):
    """Positions whose piles differ but whose features are equal are one position for the
    solver; the brute force shows their values really are equal (Scopa, SC-SCORE-1..4 and
    SC-PRIM-1: piles count only by cards, coins, the settebello and the best primiera card of
    each suit — e.g. a knight and a king of one suit exchanged between the piles; Bura, BU-END-4:
    piles count only by card points — e.g. two sixes exchanged). Each such pair is solved with
    one table shared as one deal (the second position finds the first one's entries), and
    every value equals the brute force."""
    game = load(name)
    spec = game.spec
    oracle = Oracle()
    pairs = 0
    constructed = False
    for seed in range(400):
        state = (scopa_endgame(game, 130_000 + seed, 6) if name == "scopa"
                 else bura_endgame(game, 130_000 + seed, 4))
        if state is None:
            continue
        variants, _ = equivalent_variants(game, state,
                                          scopa_swaps if name == "scopa" else bura_swaps)
        variants = [(swap, other) for swap, other in variants if swap[0] != swap[1]]
        if not variants:
            continue
        value = oracle.value(reference_of(state))
        ws = exact.workspace(spec, table_bits=16)
        assert exact.solve(state, ws) == value, describe(state)
        _, vals = exact.solve_actions(state, ws)
        for swap, other in variants[:3]:
            assert other.to_dict()["piles"] != state.to_dict()["piles"]
            other_value = oracle.value(reference_of(other))
            assert other_value == value, (f"equal features, different brute-force values "
                                          f"{value} and {other_value} (swap {swap}): "
                                          f"{describe(state)}")
            _, other_vals = exact.solve_actions(other, ws, same_deal=True)   # shared table
            assert list(other_vals) == list(vals), f"swap {swap}: {describe(other)}"
            assert exact.solve(other) == value
            if name == "scopa":
                x, y = swap
                constructed |= x[-2:] == y[-2:] and {x[:-2], y[:-2]} <= {"J", "C", "K"}
            else:
                x, y = swap
                constructed |= x != y and bura_card_points(x) == bura_card_points(y)
            pairs += 1
        if pairs >= 30 and constructed:
            break
    assert constructed, "no pair of the constructed kind was found"
    assert pairs >= 30


@pytest.mark.parametrize("name", ["scopa", "bura"])
def test_features_tell_apart_positions_of_different_value(name):
    """The other half of equivalence: pile exchanges that change the brute-force value always
    change the features (else the table would give one of them the other's value)."""
    game = load(name)
    oracle = Oracle()
    differing = 0
    for seed in range(60):
        state = (scopa_endgame(game, 150_000 + seed, 4) if name == "scopa"
                 else bura_endgame(game, 150_000 + seed, 3))
        if state is None:
            continue
        value = oracle.value(reference_of(state))
        base = features(state)
        d = state.to_dict()
        d.pop("history", None)
        for swap, e in list((scopa_swaps if name == "scopa" else bura_swaps)(d))[:12]:
            try:
                other = game.from_dict(e)
            except CardsimError:
                continue
            if oracle.value(reference_of(other)) != value:
                differing += 1
                assert not np.array_equal(features(other), base), f"swap {swap}: {describe(state)}"
    assert differing >= 20


def stock_reordered(game, state, chooser: random.Random):
    """The position with two cards of its stock exchanged (the turned Bura trump card, last,
    stays), or None when there are not two such cards."""
    d = state.to_dict()
    d.pop("history", None)
    stock = list(d["stock"])
    n = len(stock) - (1 if game.name == "bura" else 0)
    if n < 2:
        return None
    i, j = chooser.sample(range(n), 2)
    stock[i], stock[j] = stock[j], stock[i]
    return game.from_dict({**d, "stock": stock})


@pytest.mark.parametrize("name", ["scopa", "bura"])
def test_kept_table_does_not_leak_between_deals(name):
    """The features leave out the stock's order (fixed within one deal), so a position with
    the stock reordered has the same features — and often another value. Solved one after the
    other with one workspace, each gets its own exact value (Scopa: the brute force; Bura: a
    fresh workspace): ``solve`` starts a new deal in the table."""
    game = load(name)
    chooser = random.Random(5)
    ws = exact.workspace(game.spec, table_bits=16)
    oracle = Oracle()
    pairs = differing = 0
    for seed in range(200):
        state = (scopa_endgame(game, 210_000 + seed, 8) if name == "scopa"
                 else bura_endgame(game, 210_000 + seed, 12))
        other = None if state is None else stock_reordered(game, state, chooser)
        if other is None:
            continue
        assert np.array_equal(features(other), features(state))
        if name == "scopa":
            a, b = oracle.value(reference_of(state)), oracle.value(reference_of(other))
        else:
            a, b = exact.solve(state), exact.solve(other)
        assert exact.solve(state, ws) == a, describe(state)
        assert exact.solve(other, ws) == b, f"after the reordered deal: {describe(other)}"
        _, vals = exact.solve_actions(state, ws)
        _, fresh = exact.solve_actions(state)
        assert list(vals) == list(fresh), describe(state)
        pairs += 1
        differing += a != b
        if differing >= 15:
            break
    assert pairs >= 15 and differing >= 15, (pairs, differing)


# --- 5. errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_bura_is_refused(players):
    """The solver covers 2-player Bura only (the hooks value seat 0 against one opponent):
    ``solve``, ``solve_actions`` and ``principal_line`` raise an UnsupportedError saying so."""
    state = load("bura", num_players=players).new_deal(seed=1)
    for call in (exact.solve, exact.solve_actions, exact.principal_line):
        with pytest.raises(UnsupportedError) as err:
            call(state)
        assert "2-player Bura" in str(err.value)
        assert str(players) in str(err.value)
    exact.solve(load("bura").new_deal(seed=1))                      # 2 players: solved


# --- 5b. Minchiate: an endgame solver ---------------------------------------------------------

MINCHIATE_SETS = {
    "default": {},
    # MI-DECL-1 after one's first card, MI-RESTO-4 capot, MI-COMB-2 two triples, MI-COMB-4.
    "variant": {"declaration_timing": "after_own_first_card", "capot": "it_rules",
                "decine_four": "two_triples", "matto_bonus_on_matto_combo": True},
}
MINCHIATE_CARDS = (4, 5, 6, 7, 8, 9, 10)     # cards left in the four hands: 1 to 3 tricks
MINCHIATE_POSITIONS = 120                     # per option set


def minchiate_endgame(game, seed: int, cards_left: int):
    """A Minchiate deal from ``seed`` played at random (discards, declarations, cards) until
    at most ``cards_left`` cards remain in the hands."""
    state = game.new_deal(seed=seed)
    chooser = random.Random(seed)
    while exact.cards_left(state) > cards_left:
        state.apply_action(chooser.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", list(MINCHIATE_SETS))
def test_minchiate_exact_equals_brute_force(name):
    """MI-PLAY-2..5, MI-KING-1, MI-MATTO-1..3, MI-END-1..4, MI-RESTO-2..4: on 120 endgames per
    option set (4 to 10 cards left in the hands, inside a trick or between tricks), ``solve``
    and ``solve_actions`` equal the brute-force net resti of team A (seats 0 and 2 one side);
    the bounds contain them; cleared, kept and tiny tables agree."""
    game = load("minchiate", **MINCHIATE_SETS[name])
    checker = Checker(game)
    base = 70_000 + 10_000 * list(MINCHIATE_SETS).index(name)
    checker.run([minchiate_endgame(game, base + i, MINCHIATE_CARDS[i % len(MINCHIATE_CARDS)])
                 for i in range(MINCHIATE_POSITIONS)])
    assert checker.oracle.nodes > 20 * MINCHIATE_POSITIONS


def test_minchiate_features_tell_the_piles_apart():
    """MI-END-1..3 score the piles' cards and combinations at the deal's end: an endgame and
    the same position with one counting card moved from team A's pile to team B's have
    different features (else the table could share their entries), and the solver gives
    each its own brute-force value; in some of them the values differ."""
    from cardsim.games.minchiate import layout as ML
    game = load("minchiate")
    oracle = Oracle()
    differ = 0
    for i in range(12):
        state = minchiate_endgame(game, 78_000 + i, 4 + i % 4)
        pile = [int(state.vec[ML.PILE + w]) & int(ML.COUNTING[w]) for w in range(2)]
        w = 0 if pile[0] else 1
        bit = pile[w] & -pile[w]
        moved = state.clone()
        moved.vec[ML.PILE + w] ^= np.uint64(bit)
        moved.vec[ML.PILE + 2 + w] |= np.uint64(bit)
        assert not np.array_equal(exact.features(state), exact.features(moved))
        values = []
        for s in (state, moved):
            v = oracle.value(reference_of(s))
            assert exact.solve(s) == v, describe(s)
            values.append(v)
        differ += values[0] != values[1]
    assert differ >= 3, differ


def test_minchiate_principal_line_achieves_the_value():
    """MI-RESTO-4: from endgames of the solver's limit (``max_cards`` = 20 cards left, five
    tricks), the principal line played out ends the deal with the engine's net resti of team
    A equal to ``solve``'s value, and every step of it keeps that value."""
    game = load("minchiate")
    limit = game.spec.exact.max_cards
    for seed in range(3):
        state = minchiate_endgame(game, 75_000 + seed, limit)
        v = exact.solve(state)
        s = state.clone()
        ws = exact.workspace(game.spec)
        for k, action in enumerate(exact.principal_line(state)):
            actions, values = exact.solve_actions(s, ws, same_deal=k > 0)
            assert values[[int(a) for a in actions].index(action)] == v, (seed, k)
            s.apply_action(action)
        assert s.is_terminal() and s.returns()[0] == v, (seed, s.returns(), v)


def test_minchiate_solver_refuses_more_than_an_endgame():
    """A whole Minchiate deal is beyond the solver: ``solve``, ``solve_actions`` and
    ``principal_line`` of a position with more than ``max_cards`` cards left raise an
    UnsupportedError naming the limit and the position's count; the bounds, features and side
    to move are still read; at the limit it solves."""
    game = load("minchiate")
    limit = game.spec.exact.max_cards
    state = minchiate_endgame(game, 5, limit + 1)
    over = exact.cards_left(state)
    assert over > limit
    for call in (exact.solve, exact.solve_actions, exact.principal_line):
        with pytest.raises(UnsupportedError, match=f"at most {limit} cards left to play; "
                                                   f"this position has {over}"):
            call(state)
    assert exact.side_to_move(state) == state.current_player() % 2
    assert len(exact.features(state)) == 15 and exact.bounds(state)[0] < 0
    exact.solve(minchiate_endgame(game, 5, limit))


def test_solve_on_the_command_line_refuses_a_whole_minchiate_deal_in_one_line(tmp_path):
    import json
    position = tmp_path / "p.json"
    position.write_text(json.dumps(load("minchiate").new_deal(seed=1).to_dict()))
    run = subprocess.run([sys.executable, "-m", "cardsim", "solve", "minchiate", str(position)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.startswith("cardsim: error: the exact solver covers minchiate endgames: "
                                 "at most 20 cards left") and run.stderr.count("\n") == 1


def test_minchiate_agents_that_solve_whole_deals_are_refused():
    """PIMC and the oracle solve whole deals: refused in Minchiate in one line, as is an
    ISMCTS exact endgame above the limit; ``ismcts:exact=8`` plays a whole deal, the same
    moves for the same seed."""
    from cardsim.errors import AgentError
    from cardsim.solvers.agents import play
    game = load("minchiate")
    limit = game.spec.exact.max_cards
    for agent, words in (("pimc:worlds=2", "not the whole deals PIMC and the oracle solve"),
                         ("oracle", "not the whole deals"),
                         (f"ismcts:exact={limit + 1}", f"exact is at most {limit}")):
        with pytest.raises(AgentError, match=words):
            play(game.new_deal(seed=1), [agent, "heuristic"] * 2, seed=1)
    lines = []
    for _ in range(2):
        state = game.new_deal(seed=2)
        play(state, ["ismcts:iterations=30,exact=8", "heuristic"] * 2, seed=3)
        assert state.is_terminal()
        lines.append(state.to_dict())
    assert lines[0] == lines[1]


# --- 5c. Mushka: a paranoid endgame solver ----------------------------------------------------

MUSHKA_SETS = {       # (options, the records the deals start from: low ones reach 0 mid-deal)
    "default": ({}, None),
    # MU-STOP-1/2: records of 1 to 3 stop the deal at 0, the ace bonus clamped.
    "stops": ({}, [2, 1, 3, 1]),
    # MU-PLAY-4/5 must_head_trick and must_overtrump, MU-SCORE-3 the bonus at the deal's end,
    # the dealer takes the turned card, 3 players.
    "variant": ({"num_players": 3, "must_head_trick": True, "must_overtrump": True,
                 "ace_bonus_timing": "end_of_deal", "dealer_takes_trump_card": True},
                [3, 1, 2]),
    # MU-STOP-3/4: a player at 0 is offered the stop and may play on; 5 players, 52 cards.
    "declared": ({"num_players": 5, "stop_mode": "declared", "overshoot_reset": "start"},
                 [1, 0, 2, 1, 3]),
}
MUSHKA_CARDS = (4, 6, 8, 10, 12)     # cards left in the active hands: one to three tricks
MUSHKA_POSITIONS = 120                # per option set


def mushka_endgame(game, seed: int, cards_left: int, records=None):
    """A Mushka deal from ``seed`` (from ``records``) played at random until at most
    ``cards_left`` cards are left to play; None when the deal ended first."""
    state = game.new_deal(seed=seed, records=records)
    chooser = random.Random(seed)
    while not state.is_terminal() and exact.cards_left(state) > cards_left:
        state.apply_action(chooser.choice(state.legal_actions()))
    return None if state.is_terminal() else state


def mushka_positions(name: str, count: int, base: int):
    """``count`` live endgames of the option set, each with a root: the player to move
    (None, the solver's default) or, every other position, another active seat."""
    options, records = MUSHKA_SETS[name]
    game = load("mushka", **options)
    states, roots = [], []
    for i in itertools.count(base):
        if len(states) == count:
            return game, states, roots
        state = mushka_endgame(game, i, MUSHKA_CARDS[i % len(MUSHKA_CARDS)], records)
        if state is None:
            continue
        others = [s for s in range(game.rules.num_players)
                  if s != state.current_player() and state.vec[MUSHKA_LAYOUT.ACTIVE] >> s & 1]
        roots.append(random.Random(i).choice(others) if others and i % 2 else None)
        states.append(state)



@pytest.mark.parametrize("name", list(MUSHKA_SETS))
def test_mushka_paranoid_exact_equals_brute_force(name):
    """MU-PLAY-1..6, MU-ACE-1..4, MU-SCORE-1..5, MU-STOP-1..4: on 120 endgames per option set
    (4 to 12 cards left, inside a trick or between tricks; low records, so that tricks and the
    ace bonus stop the deal at 0), ``solve`` and ``solve_actions`` equal the brute-force
    paranoid value — the record the root writes off when every other seat plays against it —
    for the player to move and for another seat as the root; cleared, kept and tiny tables
    agree; the bounds contain the value."""
    game, states, roots = mushka_positions(name, MUSHKA_POSITIONS,
                                           90_000 + 10_000 * list(MUSHKA_SETS).index(name))
    checker = Checker(game)
    checker.run(states, roots)
    assert sum(r is not None for r in roots) > MUSHKA_POSITIONS // 4
    assert checker.oracle.nodes > 20 * MUSHKA_POSITIONS


def test_mushka_last_exchange_decision_equals_brute_force():
    """MU-EXCH-2..5, MU-PASS-2/3, MU-SCORE-3: the dealer decides last after every other seat
    passed — standing or exchanging makes him the lone player credited with five tricks (and
    the ace bonus when he holds the ace of spades), passing voids the deal; with
    ``lone_player=redeal`` every choice voids it. ``solve_actions`` of each choice (up to 33)
    equals the brute force, for him and for a seat that passed."""
    checked = 0
    for options in ({}, {"lone_player": "redeal"}, {"num_players": 3}):
        game = load("mushka", **options)
        oracle = Oracle()
        for seed in range(40):
            state = game.new_deal(seed=200 + seed)
            for _ in range(game.rules.num_players - 1):        # everyone before the dealer
                passes = [a for a in state.legal_actions() if state.action_to_string(a) == "pass"]
                if not passes:
                    break
                state.apply_action(passes[0])
            else:
                dealer = state.current_player()
                for root in (dealer, (dealer + 1) % game.rules.num_players):
                    children = oracle.child_values(reference_of(state), root)
                    actions, values = exact.solve_actions(state, root=root)
                    assert dict(zip(map(int, actions), map(int, values))) == children
                    side = side_of(reference_of(state), dealer, root)
                    want = max(children.values()) if side == 0 else min(children.values())
                    assert exact.solve(state, root=root) == want
                checked += 1
    assert checked >= 30


def test_mushka_principal_line_achieves_the_value():
    """MU-SCORE-1..5: from the start of the play (every position of a 4-player play is within
    the solver's limit), the root's principal line played out ends the deal with the engine's
    own record written off by the root equal to ``solve``'s value, and every step keeps it."""
    game = load("mushka")
    for seed in range(4):
        state = mushka_endgame(game, 61_000 + seed, 20)
        root = state.current_player()
        v = exact.solve(state, root=root)
        s = state.clone()
        ws = exact.workspace(game.spec)
        for k, action in enumerate(exact.principal_line(state, root=root)):
            actions, values = exact.solve_actions(s, ws, same_deal=k > 0, root=root)
            assert values[[int(a) for a in actions].index(action)] == v, (seed, k)
            s.apply_action(action)
        assert s.is_terminal() and s.returns()[root] == v, (seed, s.returns(), v)


def test_mushka_features_tell_records_apart():
    """MU-STOP-1: a trick that brings a record to 0 ends the deal, so the records are part of
    a position: the same endgame with one seat's record changed has other features, and the
    solver, sharing one table for both, gives each its brute-force value (which differ in
    some of them)."""
    game = load("mushka")
    oracle = Oracle()
    ws = exact.workspace(game.spec)
    differ = 0
    live = 0
    for i in range(80):
        state = mushka_endgame(game, 52_000 + i, 8 + i % 5, [2, 3, 2, 3])
        if state is None:
            continue
        live += 1
        seat = state.current_player()
        changed = state.clone()
        changed.vec[MUSHKA_LAYOUT.RECORD + seat] = np.uint64(9)
        changed.vec[MUSHKA_LAYOUT.START_RECORD + seat] = np.uint64(9)
        assert not np.array_equal(exact.features(state), exact.features(changed))
        values = []
        for s in (state, changed):
            v = oracle.value(reference_of(s), seat)
            assert exact.solve_actions(s, ws, same_deal=True, root=seat)[1].max() == v
            values.append(v)
        differ += values[0] != values[1]
    assert live >= 20 and differ >= 3, (live, differ)


def test_mushka_solver_is_an_endgame_solver():
    """The exchange of a whole deal is beyond the solver: ``solve`` of a new deal's first
    position (hands and stock: 31 cards) raises an UnsupportedError naming the limit; PIMC
    and the oracle are refused in one line, as is an ISMCTS exact endgame above the limit;
    ``ismcts:exact=8`` plays a whole deal, the same moves for the same seed."""
    from cardsim.errors import AgentError
    from cardsim.solvers.agents import play
    game = load("mushka")
    limit = game.spec.exact.max_cards
    state = game.new_deal(seed=5)
    assert exact.cards_left(state) == 31
    for call in (exact.solve, exact.solve_actions, exact.principal_line):
        with pytest.raises(UnsupportedError, match=f"at most {limit} cards left to play; "
                                                   "this position has 31"):
            call(state)
    for agent, words in (("pimc:worlds=2", "not the whole deals PIMC and the oracle solve"),
                         ("oracle", "not the whole deals"),
                         (f"ismcts:exact={limit + 1}", f"exact is at most {limit}")):
        with pytest.raises(AgentError, match=words):
            play(game.new_deal(seed=1), [agent] + ["heuristic"] * 3, seed=1)
    lines = []
    for _ in range(2):
        state = game.new_deal(seed=2)
        play(state, ["ismcts:iterations=30,exact=8"] + ["heuristic"] * 3, seed=3)
        assert state.is_terminal()
        lines.append(state.to_dict())
    assert lines[0] == lines[1]


# --- 6. match positions ----------------------------------------------------------------------

def into_second_deal(game, seed: int, left) -> object:
    """A match from ``seed`` played at random into its second deal, until ``left(state)``."""
    state = game.new_match(seed=seed)
    chooser = random.Random(seed)
    while not state.is_terminal():
        if state.to_dict()["deal_number"] >= 2 and left(state):
            return state
        state.apply_action(choose(state.legal_actions(), chooser, avoid_claims=True))
    return None


MATCHES = [
    ("scopa", {"target_score": 21}),
    ("scopa", {"num_players": 4, "target_score": 21}),
    ("bura", {"match_format": "wins_to_n"}),
    ("bura", {"match_format": "penalty_points", **BURA_SETS["variant"]}),
]


def lone_deal(match_state):
    """The same position as a lone deal: the position dict with ``mode = "deal"``."""
    return match_state.game.from_dict({**match_state.to_dict(), "mode": "deal"})


@pytest.mark.parametrize("name,options", MATCHES,
                         ids=["scopa", "scopa-2x2", "bura-wins", "bura-penalty"])
def test_match_position_is_solved_to_the_end_of_its_deal(name, options):
    """SC-END-1 / BU-END-1: a position of a match's second deal (match scores not zero) is
    solved to the end of that deal: ``solve`` and ``solve_actions`` give the values of the
    same position as a lone deal (``mode = "deal"``) and the brute-force values of the
    reference position as a lone deal; the principal line ends exactly at the deal's end (the
    match then deals again or is over) and reaches the value in the lone deal."""
    game = load(name, **options)
    oracle = Oracle()
    found = 0
    for seed in range(60):
        if name == "scopa":
            small = into_second_deal(game, 170_000 + seed,
                                     lambda s: s.to_dict()["stock"] == [] and sum(
                                         len(h) for h in s.to_dict()["hands"]) <= 6)
        else:
            small = into_second_deal(game, 170_000 + seed, lambda s: bura_cards_left(s) <= 5)
        if small is None:
            continue
        d = small.to_dict()
        assert d["mode"] == "match" and d["deal_number"] >= 2
        lone = lone_deal(small)
        v = exact.solve(small)
        assert v == exact.solve(lone), describe(small)
        assert v == oracle.value(reference_of(small)), describe(small)
        acts_m, vals_m = exact.solve_actions(small)
        acts_l, vals_l = exact.solve_actions(lone)
        assert list(acts_m) == list(acts_l) and list(vals_m) == list(vals_l), describe(small)
        assert small.to_dict() == d, "solving changed the match position"

        line = exact.principal_line(small)
        s = small.clone()
        for action in line:
            assert s.to_dict()["deal_number"] == d["deal_number"], "the line runs past the deal"
            s.apply_action(action)
        after = s.to_dict()
        assert s.is_terminal() or after["deal_number"] == d["deal_number"] + 1 or (
            after["redeals"] > d["redeals"]), "the line stops before the deal's end"
        t = lone.clone()
        for action in line:
            t.apply_action(action)
        assert t.is_terminal() and finished_engine_value(t) == v
        found += 1
        if found >= 3:
            break
    assert found >= 3


def test_whole_deal_of_a_match_equals_the_lone_deal():
    """SC-DEAL-6, SC-END-1: a match position at the start of its second deal (scores not zero)
    has the value of the same deal played alone."""
    game = load("scopa", target_score=21)
    state = into_second_deal(game, 190_001, lambda s: True)
    d = state.to_dict()
    assert d["deal_number"] == 2 and sum(d["scores"]) > 0
    assert exact.solve(state) == exact.solve(lone_deal(state))


# --- the compiled solver is cached ------------------------------------------------------------

_CACHE_PROBE = """
import cardsim
from cardsim.solvers import exact
state = cardsim.load_game("scopa").new_deal(seed=4)
print("VALUE", exact.solve(state))
"""


def test_solver_loads_from_the_cache_in_a_new_process():
    """A new process loads the compiled solver from numba's cache (it compiled it, or an
    earlier test process did) and solves: a recursive ``njit(cache=True)`` search crashes such
    a process (numba cannot cache recursion), so this test runs it in a subprocess, twice when
    the first one had to compile."""
    expected = exact.solve(load("scopa").new_deal(seed=4))
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    for attempt in range(2):
        run = subprocess.run([sys.executable, "-c", _CACHE_PROBE], env=env, capture_output=True,
                             text=True, timeout=600, cwd=os.path.dirname(os.path.dirname(
                                 os.path.dirname(os.path.abspath(__file__)))))
        out = run.stdout + run.stderr
        assert run.returncode == 0, (f"the solver process failed (exit {run.returncode}):\n"
                                     + out[-1500:])
        assert f"VALUE {expected}" in run.stdout
        compiled = any("data saved" in line and "exact.solve_root" in line
                       for line in out.splitlines())
        if not compiled:
            break
    assert any("data loaded" in line and "exact.solve_root" in line for line in out.splitlines())
