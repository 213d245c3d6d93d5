"""Conformance of every registered game to the generic API (DESIGN.md §2, /tmp/common.md).

These tests run for each name in ``cardsim.list_games()`` and use only the generic API: the
position dict's card zones (``hands``, ``table``, ``stock``, ``piles``), the deck of
``cardsim.cards.DECKS`` and the methods of ``State``. The only per-game knowledge is the small
table :data:`GAMES` (option sets to try and a bound on the returns); a game missing from it is
tested with its default rules.

Random playouts choose actions with ``random.Random(seed)``; every seed is fixed, so the
statistical tests (chi-square at ``ALPHA`` = 1e-4) are deterministic.
"""
from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
from scipy.stats import chisquare

import cardsim
from cardsim.cards import DECKS
from cardsim.errors import CardsimError, IllegalActionError

ALPHA = 1e-4

# The per-game table: option sets to try, the largest |return| of a deal and of a match.
GAMES = {
    "scopa": {
        "options": [
            {},
            {"num_players": 4},
            {"num_players": 4, "four_player_deal": "nine_at_once"},
            {"equal_card_priority": False},
            {"redeal_kings_on_table": "off", "last_move_scopa_counts": True,
             "leftover_to_last_capturer": False, "primiera_missing_suit": "forfeit"},
        ],
        "deal_return_bound": 40,     # 4 category points + at most 36 scopas
        "match_return_bound": 1,
    },
}

# Position-dict keys that hold cards, and the keys of the hidden ones (besides other hands).
CARD_ZONES = ("hands", "table", "stock", "piles")


def _entry(name: str) -> dict:
    return GAMES.get(name, {"options": [{}]})


CASES = [pytest.param(name, opts, id=f"{name}-{json.dumps(opts, sort_keys=True)}")
         for name in cardsim.list_games() for opts in _entry(name)["options"]]
GAME_NAMES = cardsim.list_games()


def test_registry():
    games = cardsim.list_games()
    assert "scopa" in games
    assert games == sorted(games) and len(set(games)) == len(games)
    for name in games:
        assert name in DECKS, f"{name} has no deck in cardsim.cards.DECKS"
    with pytest.raises(cardsim.UnknownGameError, match="'no_such_game'"):
        cardsim.load_game("no_such_game")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_option_raises(name):
    with pytest.raises(cardsim.OptionError, match="no_such_option"):
        cardsim.load_game(name, no_such_option=1)


# --- helpers ------------------------------------------------------------------------------------

def _flatten(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)):
        return [c for item in x for c in _flatten(item)]
    raise AssertionError(f"unexpected value {x!r} in a card zone")


def cards_of(d: dict) -> list[str]:
    """Every card name in the card zones of a position dict (with repetitions)."""
    return [c for key in CARD_ZONES if key in d for c in _flatten(d[key])]


def check_cards_conserved(game, d: dict) -> None:
    deck = DECKS[game.name]
    cards = cards_of(d)
    counts = Counter(cards)
    dup = [c for c, k in counts.items() if k > 1]
    assert not dup, f"cards appear twice: {dup}"
    assert set(cards) == set(deck.cards), (
        f"missing {sorted(set(deck.cards) - set(cards))}, extra {sorted(set(cards) - set(deck.cards))}")


def check_state(game, state, bound: float) -> dict:
    """Invariants of one state; returns its dict."""
    d = state.to_dict()
    check_cards_conserved(game, d)
    legal = state.legal_actions()
    terminal = state.is_terminal()
    player = state.current_player()
    assert isinstance(player, int) and isinstance(terminal, bool)
    assert (player == -1) == terminal
    if terminal:
        assert legal == []
        ret = state.returns()
        assert len(ret) == game.num_players
        assert abs(sum(ret)) < 1e-9, ret
        assert all(abs(r) <= bound for r in ret), ret
    else:
        assert 0 <= player < game.num_players
        assert legal, "no legal action in a non-terminal state"
        assert all(isinstance(a, int) for a in legal)
        assert all(a < b for a, b in zip(legal, legal[1:])), "legal actions not strictly sorted"
        assert state.returns() == [0.0] * game.num_players
    # the dict is JSON-ready
    assert json.loads(json.dumps(d)) == d
    return d


def check_round_trip(game, state, d: dict) -> None:
    back = game.from_dict(d)
    assert back.to_dict() == d
    assert back.legal_actions() == state.legal_actions()
    assert back.current_player() == state.current_player()
    assert back.is_terminal() == state.is_terminal()
    assert back.returns() == state.returns()


def check_actions(state) -> None:
    legal = state.legal_actions()
    strings = set()
    for a in legal:
        ad = state.action_to_dict(a)
        assert json.loads(json.dumps(ad)) == ad
        assert state.action_from_dict(ad) == a
        s = state.action_to_string(a)
        assert isinstance(s, str) and s and s == s.strip()
        strings.add(s)
    assert len(strings) == len(legal), "two legal actions share a string form"


def check_illegal_rejected(game, state, d: dict) -> None:
    legal = set(state.legal_actions())
    candidates = [-1, 1 << 62]
    if legal:
        candidates.append(max(legal) + 1)
        candidates.append(min(legal) - 1)
    for bad in candidates:
        if bad in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_dict() == d, "a rejected action changed the state"


def playout(game, state, rnd: random.Random, on_step=None) -> int:
    """Play random legal actions to the end; call ``on_step(state)`` before each move."""
    moves = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state)
        state.apply_action(rnd.choice(state.legal_actions()))
        moves += 1
        assert moves < 100_000, "playout does not end"
    if on_step is not None:
        on_step(state)
    return moves


# --- full per-step conformance ------------------------------------------------------------------

N_PLAYOUTS = 12


@pytest.mark.parametrize("name,opts", CASES)
def test_random_playouts_every_step(name, opts):
    game = cardsim.load_game(name, **opts)
    bound = _entry(name).get("deal_return_bound", len(DECKS[name].cards))
    terminal_seen = 0
    for seed in range(N_PLAYOUTS):
        rnd = random.Random(seed)
        state = game.new_deal(seed=1000 + seed)
        before = state.to_dict()

        def step(s):
            d = check_state(game, s, bound)
            check_round_trip(game, s, d)
            check_actions(s)
            check_illegal_rejected(game, s, d)
            if not s.is_terminal():
                # the round-tripped state continues exactly like the original
                a = rnd.choice(s.legal_actions())
                twin = game.from_dict(d)
                c = s.clone()
                c.apply_action(a)
                twin.apply_action(a)
                assert twin.to_dict() == c.to_dict()
                # clone independence
                assert s.to_dict() == d, "playing on a clone changed the original"
                c3 = s.clone()
                s2 = s.clone()
                s2.apply_action(a)
                assert c3.to_dict() == d

        playout(game, state, rnd, step)
        assert state.is_terminal()
        assert state.to_dict() != before
        terminal_seen += 1
    assert terminal_seen == N_PLAYOUTS


@pytest.mark.parametrize("name,opts", CASES)
def test_returns_not_all_zero(name, opts):
    """Some deal ends with a non-zero return (so the returns are really computed)."""
    game = cardsim.load_game(name, **opts)
    nonzero = 0
    for seed in range(20):
        state = game.new_deal(seed=seed)
        playout(game, state, random.Random(seed))
        nonzero += any(r != 0 for r in state.returns())
    assert nonzero > 0


@pytest.mark.parametrize("name,opts", CASES)
def test_clone_independent(name, opts):
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=5)
    d0 = state.to_dict()
    c = state.clone()
    playout(game, c, random.Random(1))
    assert c.is_terminal() and not state.is_terminal()
    assert state.to_dict() == d0
    c2 = state.clone()
    playout(game, state, random.Random(2))
    assert c2.to_dict() == d0


# --- seeds --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,opts", CASES)
def test_same_seed_same_deal(name, opts):
    game = cardsim.load_game(name, **opts)
    for seed in (0, 1, 12345, 2**40 + 3):
        assert game.new_deal(seed=seed).to_dict() == game.new_deal(seed=seed).to_dict()
        assert game.new_match(seed=seed).to_dict() == game.new_match(seed=seed).to_dict()
    # the same seeds and actions give the same whole playout
    a = game.new_deal(seed=77)
    b = game.new_deal(seed=77)
    playout(game, a, random.Random(3))
    playout(game, b, random.Random(3))
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()


@pytest.mark.parametrize("name,opts", CASES)
def test_different_seeds_different_deals(name, opts):
    game = cardsim.load_game(name, **opts)
    deals = [json.dumps(game.new_deal(seed=s).to_dict(), sort_keys=True) for s in range(30)]
    assert len(set(deals)) == 30
    # not only the rng words: the cards differ too
    hands = {json.dumps(cards_of(json.loads(x))) for x in deals}
    assert len(hands) == 30


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("bad", [-1, 1.5, None, "7"])
def test_bad_seed(name, bad):
    game = cardsim.load_game(name)
    with pytest.raises(CardsimError):
        game.new_deal(seed=bad)


# --- matches ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,opts", CASES)
def test_playthrough_match(name, opts):
    """A whole match (new_match) played to the end, with per-step invariants."""
    game = cardsim.load_game(name, **opts)
    bound = _entry(name).get("match_return_bound", len(DECKS[name].cards))
    for seed in range(3):
        rnd = random.Random(seed)
        state = game.new_match(seed=500 + seed)
        steps = [0]

        def step(s):
            d = check_state(game, s, bound)
            steps[0] += 1
            if steps[0] % 5 == 0 or s.is_terminal():
                check_round_trip(game, s, d)
                check_actions(s)

        moves = playout(game, state, rnd, step)
        assert state.is_terminal() and state.current_player() == -1
        ret = state.returns()
        assert abs(sum(ret)) < 1e-9 and any(r != 0 for r in ret)
        assert moves > 0
        # the finished match is stable under the round trip
        check_round_trip(game, state, state.to_dict())


@pytest.mark.parametrize("name,opts", CASES)
def test_match_round_trip_continues_identically(name, opts):
    """from_dict(to_dict()) mid-match carries everything the later deals depend on."""
    game = cardsim.load_game(name, **opts)
    state = game.new_match(seed=99)
    rnd = random.Random(99)
    for _ in range(20):
        state.apply_action(rnd.choice(state.legal_actions()))
    twin = game.from_dict(state.to_dict())
    ra, rb = random.Random(5), random.Random(5)
    playout(game, state, ra)
    playout(game, twin, rb)
    assert state.to_dict() == twin.to_dict()


# --- sample_world -------------------------------------------------------------------------------

def _hidden(d: dict, player: int) -> list[str]:
    """Cards hidden from ``player``: the other hands and the stock."""
    return sorted([c for p, h in enumerate(d["hands"]) if p != player for c in h]
                  + list(d.get("stock", [])))


def _assignment(d: dict, player: int) -> tuple:
    """Where the hidden cards are: other hands (as sets) and the stock (in order)."""
    return (tuple(tuple(sorted(h)) for p, h in enumerate(d["hands"]) if p != player),
            tuple(d.get("stock", [])))


def _positions(name, opts, seeds=range(4), every=3):
    """(game, state) pairs along random playouts, some with many unseen cards, some with few."""
    game = cardsim.load_game(name, **opts)
    out = []
    for seed in seeds:
        state = game.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == 0:
                out.append(state.clone())
            state.apply_action(rnd.choice(state.legal_actions()))
            k += 1
        out.append(state.clone())
    return game, out


def _permuted_truth(game, d: dict, player: int, rnd: random.Random):
    """A second true state: the same observation for ``player``, hidden cards permuted."""
    hidden = _hidden(d, player)
    rnd.shuffle(hidden)
    e = json.loads(json.dumps(d))
    k = 0
    for p, h in enumerate(e["hands"]):
        if p != player:
            e["hands"][p] = sorted(hidden[k:k + len(h)], key=DECKS[game.name].index)
            k += len(h)
    e["stock"] = hidden[k:k + len(e["stock"])]
    k += len(e["stock"])
    assert k == len(hidden)
    return game.from_dict(e)


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_consistent(name, opts):
    game, positions = _positions(name, opts)
    differs = 0
    with_unseen = 0
    for state in positions:
        truth = state.to_dict()
        for player in range(game.num_players):
            obs = state.observation(player)
            hidden = _hidden(truth, player)
            for s in range(3):
                w = state.sample_world(player, seed=s)
                wd = w.to_dict()
                check_cards_conserved(game, wd)
                assert w.observation(player) == obs
                assert [len(h) for h in wd["hands"]] == [len(h) for h in truth["hands"]]
                assert wd["hands"][player] == truth["hands"][player]
                assert len(wd["stock"]) == len(truth["stock"])
                for key in set(truth) - {"hands", "stock", "rng"}:
                    assert wd[key] == truth[key], key
                assert _hidden(wd, player) == hidden        # same unseen set, reshuffled
                assert w.current_player() == state.current_player()
                assert w.is_terminal() == state.is_terminal()
                # deterministic per seed
                assert state.sample_world(player, seed=s).to_dict() == wd
                # sampling leaves the true state alone
                assert state.to_dict() == truth
                if _assignment(wd, player) != _assignment(truth, player):
                    differs += 1
            if len(hidden) >= 2 and any(
                    len(h) for p, h in enumerate(truth["hands"]) if p != player) and (
                    truth["stock"] or sum(1 for p, h in enumerate(truth["hands"])
                                          if p != player and h) >= 2):
                with_unseen += 1
    assert with_unseen > 0
    assert differs > 0, "sample_world never changed the hidden cards"


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_seeds_differ(name, opts):
    """At the start of a deal many worlds are possible: 20 seeds give 20 different ones."""
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=3)
    player = state.current_player()
    worlds = {json.dumps(_assignment(state.sample_world(player, seed=s).to_dict(), player))
              for s in range(20)}
    assert len(worlds) == 20


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_ignores_hidden_truth(name, opts):
    """Two true states with the same observation for p give the same samples for p."""
    game, positions = _positions(name, opts, seeds=range(3), every=4)
    rnd = random.Random(2024)
    compared = 0
    for state in positions:
        truth = state.to_dict()
        for player in range(game.num_players):
            other = _permuted_truth(game, truth, player, rnd)
            assert other.observation(player) == state.observation(player)
            if _assignment(other.to_dict(), player) != _assignment(truth, player):
                compared += 1
            for s in range(3):
                assert (state.sample_world(player, seed=s).to_dict()
                        == other.sample_world(player, seed=s).to_dict())
    assert compared > 0, "no position had hidden cards to permute"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sample_world_bad_player(name):
    game = cardsim.load_game(name)
    state = game.new_deal(seed=1)
    for bad in (-1, game.num_players, 1.0, None):
        with pytest.raises(CardsimError):
            state.sample_world(bad, seed=1)


def _n_assignments(d: dict, player: int) -> int:
    """Number of placements of the hidden cards consistent with the sizes (stock ordered)."""
    sizes = [len(h) for p, h in enumerate(d["hands"]) if p != player]
    u = sum(sizes) + len(d["stock"])
    return math.factorial(u) // math.prod(math.factorial(k) for k in sizes)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sample_world_uniform_small_position(name):
    """Chi-square: on a position with few unseen cards every consistent world is equally likely.

    A small position is found by random play (the first with 6..200 consistent placements of
    the unseen cards, over the game's option sets); each placement must be drawn, with counts
    that pass a chi-square goodness-of-fit test against the uniform distribution.
    """
    found = None
    for opts in _entry(name)["options"]:
        game = cardsim.load_game(name, **opts)
        for seed in range(40):
            state = game.new_deal(seed=seed)
            rnd = random.Random(seed)
            while not state.is_terminal() and found is None:
                d = state.to_dict()
                for player in range(game.num_players):
                    if 6 <= _n_assignments(d, player) <= 200:
                        found = (game, state.clone(), player, _n_assignments(d, player))
                        break
                state.apply_action(rnd.choice(state.legal_actions()))
            if found:
                break
        if found:
            break
    if found is None:
        pytest.skip(f"no {name} position with a small number of unseen placements")
    game, state, player, n_cells = found
    n = 40 * n_cells
    counts = Counter(_assignment(state.sample_world(player, seed=s).to_dict(), player)
                     for s in range(n))
    assert len(counts) == n_cells, f"{len(counts)} of {n_cells} placements ever drawn"
    assert chisquare(list(counts.values())).pvalue > ALPHA


@pytest.mark.parametrize("name,opts", CASES)
def test_sample_world_card_placement_uniform(name, opts):
    """Chi-square: at the start of a deal, a given unseen card lands in each hidden slot (another
    hand, weighted by its size, or a stock position) with probability slot size / unseen."""
    game = cardsim.load_game(name, **opts)
    state = game.new_deal(seed=11)
    player = state.current_player()
    d = state.to_dict()
    hidden = _hidden(d, player)
    if len(hidden) < 2:
        pytest.skip("nothing hidden")
    card = min(hidden, key=DECKS[name].index)
    slots = [p for p in range(game.num_players) if p != player]
    n_stock = len(d["stock"])
    expected = [len(d["hands"][p]) for p in slots] + [1] * n_stock
    assert sum(expected) == len(hidden)
    n = 60 * len(hidden)
    counts = [0] * len(expected)
    for s in range(n):
        wd = state.sample_world(player, seed=s).to_dict()
        where = [i for i, p in enumerate(slots) if card in wd["hands"][p]]
        if not where:
            where = [len(slots) + wd["stock"].index(card)]
        counts[where[0]] += 1
    probs = [e / len(hidden) for e in expected]
    assert chisquare(counts, [n * p for p in probs]).pvalue > ALPHA


# --- illegal input to from_dict -----------------------------------------------------------------

@pytest.mark.parametrize("name", GAME_NAMES)
def test_from_dict_rejects_broken_card_sets(name):
    game = cardsim.load_game(name)
    d = game.new_deal(seed=8).to_dict()
    # a card lost
    e = json.loads(json.dumps(d))
    e["stock"] = e["stock"][1:] if e["stock"] else e["stock"]
    if d["stock"]:
        with pytest.raises(CardsimError):
            game.from_dict(e)
    # a card duplicated
    e = json.loads(json.dumps(d))
    e["table" if "table" in e else "stock"].append(d["hands"][0][0])
    with pytest.raises(CardsimError):
        game.from_dict(e)
    # an unknown card
    e = json.loads(json.dumps(d))
    e["hands"][0][0] = "no_such_card"
    with pytest.raises(cardsim.CardError, match="no_such_card"):
        game.from_dict(e)
    # the original still loads
    assert game.from_dict(d).to_dict() == d

