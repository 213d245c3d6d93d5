"""Conformance of every registered game to the generic API (DESIGN.md §2, /tmp/common.md).

These tests run for each name in ``cardsim.list_games()`` and use only the generic API (the
methods of ``Game`` and ``State``, the position dict, the deck of the game's definition).
The per-game knowledge sits in each game's small adapter module, named by its record's
``conformance`` field (``cardsim/games/<game>/conformance.py``) and read through
:func:`cardsim.protocol.conformance.adapter`: the option sets to try, bounds on the returns, where the
cards of a position dict are (``cards``), which cards are hidden from a player and where they
lie (``hidden``), which worlds are possible at all (``world_ok``) and how a random player
chooses (``choose``). ``cardsim/protocol/conformance.py`` documents the protocol: every attribute, its
default, and the places of hidden cards (``"hand q"``, ``"stock i"``, ...).

Random playouts choose actions with ``random.Random(seed)``; every seed is fixed, so the
statistical tests (chi-square at ``ALPHA`` = 1e-4) are deterministic.

The tests take the game (``name``, and ``opts`` for one of its option sets) as parameters that
:func:`pytest_generate_tests` gives them, so that another module can import them and run them
on its own games (:func:`parametrize_games`): ``tests/conformance/test_toy_game.py`` runs them
on a toy game registered for its tests only.
"""
from __future__ import annotations

import importlib
import itertools
import json
import math
import random
from collections import Counter, defaultdict

import pytest
from scipy.stats import chisquare

import cardsim
from cardsim.errors import CardsimError, IllegalActionError
from cardsim.protocol.conformance import Adapter, adapter
from cardsim.protocol.registry import definition
from tests.helpers import load_game

ALPHA = 1e-4


# --- the adapters (cardsim/protocol/conformance.py, cardsim/games/<game>/conformance.py) ---------------

def _entry(name: str) -> Adapter:
    return adapter(name)


def _bound(game, key: str) -> tuple[float, float]:
    """(lowest, highest) return of a seat: the adapter gives a bound b (for -b..b) or a pair."""
    b = getattr(_entry(game.name), key)(game.rules)
    return tuple(b) if isinstance(b, tuple) else (-b, b)


def deck_cards(game) -> list[str]:
    """The cards in play under the game's rules (default: its record's whole deck)."""
    return _entry(game.name).deck(game.rules)


def cards_of(game, d: dict) -> list[str]:
    """Every card of a position dict (each card once when the dict is consistent)."""
    return _entry(game.name).cards(d)


def hidden_slots(game, d: dict, player: int) -> list[tuple[str, str]]:
    """(card, place) of every card hidden from ``player``."""
    return _entry(game.name).hidden(d, player)


def world_ok(game, d: dict) -> bool:
    """Could this world be the truth? (default: always)"""
    return _entry(game.name).world_ok(d)


def world_weight(game, d: dict, player: int) -> int:
    """The posterior weight of a world for ``player`` (default: 1 if possible, else 0): the
    sampled worlds must follow it."""
    return _entry(game.name).world_weight(d, player)


def public_facts(game, d: dict, player: int):
    """Public facts of a world that one dict alone cannot check against the truth (default:
    None): every possible world of ``player`` has the truth's (Minchiate's Fola suit counts
    with ``fola_visibility=suit_counts``)."""
    return _entry(game.name).public_facts(d, player)


def public_view(game, d: dict, player: int) -> dict:
    """``d`` without facts ``player`` cannot know other than hidden cards' identities (default:
    none)."""
    return _entry(game.name).public(d, player)


def choose(game, state, rnd: random.Random) -> int:
    """The random player's choice among the legal actions."""
    return _entry(game.name).choose(state, state.legal_actions(), rnd)


def parametrize_games(metafunc, options: dict[str, list[dict]]) -> None:
    """Run a test of this suite for each game of ``options`` (name -> its option sets): a test
    taking ``name`` and ``opts`` once per option set of each game, one taking ``name`` alone
    once per game. This module's :func:`pytest_generate_tests` runs it for every registered
    game; a module that imports the tests runs it for its own games (a toy game's)."""
    if {"name", "opts"} <= set(metafunc.fixturenames):
        metafunc.parametrize("name,opts", [
            pytest.param(name, opts, id=f"{name}-{json.dumps(opts, sort_keys=True)}")
            for name, sets in options.items() for opts in sets])
    elif "name" in metafunc.fixturenames:
        metafunc.parametrize("name", list(options))


def pytest_generate_tests(metafunc):
    parametrize_games(metafunc, {name: _entry(name).options for name in cardsim.list_games()})


def test_registry():
    games = cardsim.list_games()
    assert "scopa" in games and "bura" in games
    assert games == sorted(games) and len(set(games)) == len(games)
    for name in games:
        assert definition(name).deck.game == name, f"{name}'s record has another game's deck"
        path = definition(name).conformance
        assert path, f"{name}'s record names no conformance module"
        module = importlib.import_module(path)
        for attr in ("OPTIONS", "cards", "hidden"):
            assert hasattr(module, attr), f"{path} has no {attr}"
    with pytest.raises(cardsim.UnknownGameError, match="'no_such_game'"):
        cardsim.load_game("no_such_game")


def test_bad_option_raises(name):
    with pytest.raises(cardsim.OptionError, match="no_such_option"):
        cardsim.load_game(name, no_such_option=1)


def test_adapter_sees_every_card_once(name, opts):
    """The adapter itself: at the start of a deal every card is listed once, the hidden cards
    are distinct cards of the position, and a player's own hand is never hidden from him."""
    game = load_game(name, **opts)
    d = game.new_deal(seed=4).to_dict()
    assert sorted(cards_of(game, d)) == sorted(deck_cards(game))
    for player in range(game.num_players):
        hidden = [c for c, _ in hidden_slots(game, d, player)]
        assert len(set(hidden)) == len(hidden) and set(hidden) <= set(cards_of(game, d))
        assert not set(hidden) & set(d["hands"][player])
        assert hidden


# --- helpers ------------------------------------------------------------------------------------

def check_cards_conserved(game, d: dict) -> None:
    deck = set(deck_cards(game))
    cards = cards_of(game, d)
    counts = Counter(cards)
    dup = [c for c, k in counts.items() if k > 1]
    assert not dup, f"cards appear twice: {dup}"
    assert set(cards) == deck, (
        f"missing {sorted(deck - set(cards))}, extra {sorted(set(cards) - deck)}")


def check_state(game, state, bound: tuple[float, float], zero_sum: bool = True) -> dict:
    """Invariants of one state; returns its dict. ``bound``: (lowest, highest) return of a
    seat; ``zero_sum``: the terminal returns add up to 0."""
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
        if zero_sum:
            assert abs(sum(ret)) < 1e-9, ret
        assert all(bound[0] <= r <= bound[1] for r in ret), (ret, bound)
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
    """Play random legal actions (the game's random player) to the end; call ``on_step(state)``
    before each move."""
    moves = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state)
        state.apply_action(choose(game, state, rnd))
        moves += 1
        assert moves < 100_000, "playout does not end"
    if on_step is not None:
        on_step(state)
    return moves


# --- full per-step conformance ------------------------------------------------------------------

N_PLAYOUTS = 12


def test_random_playouts_every_step(name, opts):
    game = load_game(name, **opts)
    bound = _bound(game, "deal_return_bound")
    terminal_seen = 0
    for seed in range(N_PLAYOUTS):
        rnd = random.Random(seed)
        state = game.new_deal(seed=1000 + seed)
        before = state.to_dict()

        def step(s):
            d = check_state(game, s, bound, _entry(name).deal_zero_sum)
            check_round_trip(game, s, d)
            check_actions(s)
            check_illegal_rejected(game, s, d)
            if not s.is_terminal():
                # the round-tripped state continues exactly like the original
                a = choose(game, s, rnd)
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


def test_returns_not_all_zero(name, opts):
    """Some deal ends with a non-zero return (so the returns are really computed)."""
    game = load_game(name, **opts)
    nonzero = 0
    for seed in range(20):
        state = game.new_deal(seed=seed)
        playout(game, state, random.Random(seed))
        nonzero += any(r != 0 for r in state.returns())
    assert nonzero > 0


def test_clone_independent(name, opts):
    game = load_game(name, **opts)
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

def test_same_seed_same_deal(name, opts):
    game = load_game(name, **opts)
    for seed in (0, 1, 12345, 2**40 + 3):
        assert game.new_deal(seed=seed).to_dict() == game.new_deal(seed=seed).to_dict()
        assert game.new_match(seed=seed).to_dict() == game.new_match(seed=seed).to_dict()
    # the same seeds and actions give the same whole playout
    a = game.new_deal(seed=77)
    b = game.new_deal(seed=77)
    playout(game, a, random.Random(3))
    playout(game, b, random.Random(3))
    assert a.to_dict() == b.to_dict() and a.returns() == b.returns()


def test_different_seeds_different_deals(name, opts):
    game = load_game(name, **opts)
    deals = [json.dumps(game.new_deal(seed=s).to_dict(), sort_keys=True) for s in range(30)]
    assert len(set(deals)) == 30
    # not only the rng words: the cards differ too
    hands = {json.dumps(cards_of(game, json.loads(x))) for x in deals}
    assert len(hands) == 30


@pytest.mark.parametrize("bad", [-1, 1.5, None, "7"])
def test_bad_seed(name, bad):
    game = load_game(name)
    with pytest.raises(CardsimError):
        game.new_deal(seed=bad)


# --- matches ------------------------------------------------------------------------------------

def test_playthrough_match(name, opts):
    """A whole match (new_match) played to the end, with per-step invariants."""
    game = load_game(name, **opts)
    bound = _bound(game, "match_return_bound")
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


def test_match_round_trip_continues_identically(name, opts):
    """from_dict(to_dict()) mid-match carries everything the later deals depend on."""
    game = load_game(name, **opts)
    for seed in range(99, 80, -1):   # the first match still going after 20 moves
        state = game.new_match(seed=seed)
        rnd = random.Random(seed)
        for _ in range(20):
            if state.is_terminal():
                break
            state.apply_action(choose(game, state, rnd))
        if not state.is_terminal():
            break
    assert not state.is_terminal(), "every match tried ended within 20 moves"
    twin = game.from_dict(state.to_dict())
    ra, rb = random.Random(5), random.Random(5)
    playout(game, state, ra)
    playout(game, twin, rb)
    assert state.to_dict() == twin.to_dict()


# --- sample_world -------------------------------------------------------------------------------

def _hidden(game, d: dict, player: int) -> list[str]:
    """The cards hidden from ``player``, sorted."""
    return sorted(c for c, _ in hidden_slots(game, d, player))


def _groups(game, d: dict, player: int) -> dict[str, list[str]]:
    """Place -> the hidden cards lying there."""
    out = defaultdict(list)
    for c, place in hidden_slots(game, d, player):
        out[place].append(c)
    return out


def _assignment(game, d: dict, player: int) -> tuple:
    """Where the hidden cards are: each place with its cards (as a set)."""
    return tuple(sorted((place, tuple(sorted(cards)))
                        for place, cards in _groups(game, d, player).items()))


def _place_sizes(game, d: dict, player: int) -> Counter:
    return Counter(place for _, place in hidden_slots(game, d, player))


def _masked(d, hidden: set):
    """``d`` with the identity of every hidden card wiped out: in each list the visible cards
    keep their order and the hidden ones become a count. What is left is public to the player
    (or his own) and must survive sample_world."""
    if isinstance(d, dict):
        return {k: _masked(v, hidden) for k, v in d.items()}
    if isinstance(d, list):
        kept = [_masked(x, hidden) for x in d if not (isinstance(x, str) and x in hidden)]
        n_hidden = sum(1 for x in d if isinstance(x, str) and x in hidden)
        return kept + ([{"hidden": n_hidden}] if n_hidden else [])
    return d


def _relabel(game, d: dict, sigma: dict) -> dict:
    """``d`` with every card c replaced by sigma[c] (a permutation of some cards): sigma[c]
    lies where c lay. Lists that were sorted by card index are sorted again; others (the
    stock) keep their order. The adapter's ``fixed_keys`` are left alone (cards named there
    are public facts, not places: Mushka's ``excluded``), and its ``rederive`` then updates
    what follows from the cards' places (Mushka's ace holder)."""
    index = game.definition.deck.index
    names = set(game.definition.deck.cards)
    fixed = _entry(game.name).fixed_keys
    rederive = _entry(game.name).rederive

    def walk(x, ordered=False):
        if isinstance(x, dict):
            return {k: v if k in fixed else walk(v, k == "stock") for k, v in x.items()}
        if isinstance(x, list):
            out = [walk(v) for v in x]
            if not ordered and all(isinstance(v, str) and v in names for v in x) \
                    and [index(v) for v in x] == sorted(index(v) for v in x):
                out.sort(key=index)
            return out
        if isinstance(x, str) and x in sigma:
            return sigma[x]
        return x

    out = walk(d)
    return rederive(out)


def _placements(groups: dict[str, list[str]]):
    """Every distinct placement of the hidden cards into the places (same sizes): yields
    sigma, the relabelling that turns the given placement into it."""
    places = sorted(groups)
    pool = sorted(c for cards in groups.values() for c in cards)

    def rec(i, left):
        if i == len(places):
            yield {}
            return
        here = sorted(groups[places[i]])
        for chosen in itertools.combinations(left, len(here)):
            rest = [c for c in left if c not in chosen]
            for sigma in rec(i + 1, rest):
                yield {**sigma, **dict(zip(here, sorted(chosen)))}

    yield from rec(0, pool)


def _n_placements(game, d: dict, player: int) -> int:
    """Number of placements of the hidden cards that keep every place's size (legal or not)."""
    sizes = list(_place_sizes(game, d, player).values())
    return math.factorial(sum(sizes)) // math.prod(math.factorial(k) for k in sizes)


def _legal_assignments(game, d: dict, player: int) -> dict:
    """Assignment -> its posterior weight (:func:`world_weight`), for every possible world of
    ``player``."""
    groups = _groups(game, d, player)
    facts = public_facts(game, d, player)
    out = {}
    for sigma in _placements(groups):
        w = _relabel(game, d, sigma)
        weight = world_weight(game, w, player) if public_facts(game, w, player) == facts else 0
        if weight:
            out[_assignment(game, w, player)] = weight
    return out


def _positions(name, opts, seeds=range(4), every=3):
    """(game, state) pairs along random playouts, some with many unseen cards, some with few."""
    game = load_game(name, **opts)
    out = []
    for seed in seeds:
        state = game.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if k % every == 0:
                out.append(state.clone())
            state.apply_action(choose(game, state, rnd))
            k += 1
        out.append(state.clone())
    return game, out


def _permuted_truth(game, d: dict, player: int, rnd: random.Random):
    """A second true state: the same observation for ``player``, hidden cards permuted among
    their slots (a possible world, when a shuffle gives one within a few tries)."""
    hidden = _hidden(game, d, player)
    for _ in range(20):
        shuffled = hidden[:]
        rnd.shuffle(shuffled)
        e = _relabel(game, d, dict(zip(hidden, shuffled)))
        if world_ok(game, e) and public_facts(game, e, player) == public_facts(game, d, player):
            break
    else:
        e = json.loads(json.dumps(d))
    assert _place_sizes(game, e, player) == _place_sizes(game, d, player)
    assert _hidden(game, e, player) == hidden
    return game.from_dict(e)


def test_sample_world_consistent(name, opts):
    game, positions = _positions(name, opts)
    differs = 0
    with_unseen = 0
    for state in positions:
        truth = state.to_dict()
        for player in range(game.num_players):
            obs = state.observation(player)
            hidden = _hidden(game, truth, player)
            public = _masked(public_view(game, truth, player), set(hidden))
            del public["rng"]
            sizes = _place_sizes(game, truth, player)
            for s in range(3):
                w = state.sample_world(player, seed=s)
                wd = w.to_dict()
                check_cards_conserved(game, wd)
                assert game.from_dict(wd).to_dict() == wd
                assert w.observation(player) == obs
                assert [len(h) for h in wd["hands"]] == [len(h) for h in truth["hands"]]
                assert public_facts(game, wd, player) == public_facts(game, truth, player)
                assert wd["hands"][player] == truth["hands"][player]
                assert len(wd.get("stock", [])) == len(truth.get("stock", []))
                assert _hidden(game, wd, player) == hidden        # same unseen set, reshuffled
                assert _place_sizes(game, wd, player) == sizes    # as many in every place
                # every public field (everything but the hidden cards' identities) is kept
                mine = _masked(public_view(game, wd, player), set(hidden))
                del mine["rng"]
                assert mine == public
                if not state.is_terminal():
                    assert world_ok(game, wd), "sample_world gave an impossible world"
                assert w.current_player() == state.current_player()
                assert w.is_terminal() == state.is_terminal()
                if player == state.current_player():   # his legal actions are his to know
                    assert w.legal_actions() == state.legal_actions()
                # deterministic per seed
                assert state.sample_world(player, seed=s).to_dict() == wd
                # sampling leaves the true state alone
                assert state.to_dict() == truth
                if _assignment(game, wd, player) != _assignment(game, truth, player):
                    differs += 1
            if len(hidden) >= 2 and len(sizes) >= 2:
                with_unseen += 1
    assert with_unseen > 0
    assert differs > 0, "sample_world never changed the hidden cards"


def test_sample_world_seeds_differ(name, opts):
    """At the start of a deal many worlds are possible: 20 seeds give 20 different ones."""
    game = load_game(name, **opts)
    state = game.new_deal(seed=3)
    player = state.current_player()
    worlds = {json.dumps(_assignment(game, state.sample_world(player, seed=s).to_dict(), player))
              for s in range(20)}
    assert len(worlds) == 20


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
            if _assignment(game, other.to_dict(), player) != _assignment(game, truth, player):
                compared += 1
            for s in range(3):
                assert (state.sample_world(player, seed=s).to_dict()
                        == other.sample_world(player, seed=s).to_dict())
    assert compared > 0, "no position had hidden cards to permute"


def test_sample_world_bad_player(name):
    game = load_game(name)
    state = game.new_deal(seed=1)
    for bad in (-1, game.num_players, 1.0, None):
        with pytest.raises(CardsimError):
            state.sample_world(bad, seed=1)


def _small_positions(name) -> list:
    """Positions met by random play, over the game's option sets, where some player has 6..120
    possible worlds (placements of his hidden cards that pass ``world_ok``; at most 1500
    placements are enumerated): the first one, the first where some placements are impossible
    and the first with hidden cards in three kinds of place (hand, stock, face down), when
    there are such. Items: (game, state, player, the possible worlds as assignments)."""
    wanted = {"any": None, "impossible": None, "kinds": None}
    if "world_ok" not in _entry(name).defined:
        wanted = {"any": None}
    most = 1500 if "world_ok" in _entry(name).defined else 120
    for opts in _entry(name).options:
        game = load_game(name, **opts)
        for seed in range(40):
            state = game.new_deal(seed=seed)
            rnd = random.Random(seed)
            while not state.is_terminal():
                d = state.to_dict()
                for player in range(game.num_players):
                    n_all = _n_placements(game, d, player)
                    if not 6 <= n_all <= most:
                        continue
                    kinds = {place.split()[0] for _, place in hidden_slots(game, d, player)}
                    if all(found is not None or (key == "kinds" and len(kinds) < 3)
                           for key, found in wanted.items()):
                        continue        # nothing still wanted can be found here
                    worlds = _legal_assignments(game, d, player)
                    if not 6 <= len(worlds) <= 120:
                        continue
                    for key, fits in (("any", True), ("impossible", len(worlds) < n_all),
                                      ("kinds", len(kinds) >= 3)):
                        if key in wanted and wanted[key] is None and fits:
                            wanted[key] = (game, state.clone(), player, worlds)
                    if all(wanted.values()):
                        break
                if all(wanted.values()):
                    break
                state.apply_action(choose(game, state, rnd))
            if all(wanted.values()):
                break
        if all(wanted.values()):
            break
    out = []
    for found in wanted.values():
        if found is not None and all(found is not f for f in out):
            out.append(found)
    return out


def test_sample_world_uniform_small_position(name):
    """Chi-square: on a position with few unseen cards every possible world is drawn with its
    posterior weight (:func:`world_weight`: equally likely, unless a game weighs them).

    Small positions are found by random play (:func:`_small_positions`); on each, every
    possible placement must be drawn, no impossible one, with counts that pass a chi-square
    goodness-of-fit test against those weights.
    """
    found = _small_positions(name)
    assert found, (f"random play from seeds 0..39 over {len(_entry(name).options)} {name} "
                   "option sets met no position with 6..120 possible worlds for a player: "
                   "widen the search of _small_positions (more seeds) so the test checks one")
    for game, state, player, worlds in found:
        n_cells = len(worlds)
        n = 40 * n_cells
        counts = Counter(_assignment(game, state.sample_world(player, seed=s).to_dict(), player)
                         for s in range(n))
        assert set(counts) <= set(worlds), "an impossible world was drawn"
        assert len(counts) == n_cells, f"{len(counts)} of {n_cells} placements ever drawn"
        total = sum(worlds.values())
        cells = sorted(worlds)
        expected = [n * worlds[c] / total for c in cells]
        assert chisquare([counts[c] for c in cells], expected).pvalue > ALPHA


def _hand_probabilities(game, d: dict, player: int, card: str, limit: int = 20_000):
    """P(``card`` is in each other hand) over the possible worlds, exactly, when the other
    hands can be enumerated within ``limit`` placements (the stock taken as one unordered
    place: ``world_ok`` does not look at the stock's order); else None."""
    groups = defaultdict(list)
    for c, place in hidden_slots(game, d, player):
        groups["stock" if place.startswith("stock") else place].append(c)
    sizes = [len(v) for v in groups.values()]
    if math.factorial(sum(sizes)) // math.prod(math.factorial(k) for k in sizes) > limit:
        return None
    hits = Counter()
    total = 0
    for sigma in _placements(groups):
        w = _relabel(game, d, sigma)
        weight = world_weight(game, w, player) \
            if public_facts(game, w, player) == public_facts(game, d, player) else 0
        total += weight
        for p, h in enumerate(w["hands"]):
            if card in h:
                hits[p] += weight
    return {p: hits[p] / total for p in range(game.num_players) if p != player}


def test_sample_world_card_placement_uniform(name, opts):
    """Chi-square: at the start of a deal, a given unseen card lands in each hidden slot
    (another hand, or a stock position) with its probability over the possible worlds: slot
    size / unseen when every placement is possible; else the probabilities of the hands are
    enumerated, or (too many worlds) estimated from the counts under the symmetry of the seats
    (a common share per hidden hand slot: one degree of freedom less), and the stock positions
    share the rest equally (or, when some hidden place is neither a hand nor the stock, every
    place outside the hands is one cell)."""
    game = load_game(name, **opts)
    state = game.new_deal(seed=11)
    player = state.current_player()
    d = state.to_dict()
    hidden = _hidden(game, d, player)
    assert len(hidden) >= 2, (f"{name} {opts}: the deal of seed 11 hides {len(hidden)} card(s) "
                              f"from player {player}; the test needs at least 2 hidden cards")
    card = min(hidden, key=definition(name).deck.index)
    slots = [p for p in range(game.num_players) if p != player]
    places = [place for _, place in hidden_slots(game, d, player)]
    in_hand = [places.count(f"hand {p}") for p in slots]
    stock_slots = [int(place.split()[1]) for place in places if place.startswith("stock")]
    # hidden places that are neither a hand nor a stock position (Minchiate's Fola and
    # discards) form one more cell, which then takes the stock positions too
    others = sum(1 for place in places if not place.startswith(("hand ", "stock ")))
    assert sum(in_hand) + len(stock_slots) + others == len(hidden)
    n = 60 * len(hidden)
    cells = (len(stock_slots) if not others else 1) if stock_slots or others else 0
    counts = [0] * (len(slots) + cells)
    for s in range(n):
        wd = state.sample_world(player, seed=s).to_dict()
        where = [i for i, p in enumerate(slots) if card in wd["hands"][p]]
        if not where:
            where = [len(slots) + (stock_slots.index(wd["stock"].index(card)) if not others
                                   else 0)]
        counts[where[0]] += 1
    ddof = 0
    if "world_ok" not in _entry(name).defined:
        hand_p = [k / len(hidden) for k in in_hand]
    else:
        exact = _hand_probabilities(game, d, player, card)
        if exact is not None:
            hand_p = [exact[p] for p in slots]
        else:       # the seats are symmetric at the start: estimate the share of a hidden slot
            share = sum(counts[:len(slots)]) / n / sum(in_hand)
            hand_p = [share * k for k in in_hand]
            ddof = 1
    rest = (1 - sum(hand_p)) / cells if cells else 0.0
    probs = hand_p + [rest] * cells
    assert abs(sum(probs) - 1) < 1e-9
    assert chisquare(counts, [n * p for p in probs], ddof=ddof).pvalue > ALPHA


# --- illegal input to from_dict -----------------------------------------------------------------

def test_from_dict_rejects_broken_card_sets(name):
    game = load_game(name)
    d = game.new_deal(seed=8).to_dict()
    # a card lost
    loose = _entry(name).loose_zone
    e = json.loads(json.dumps(d))
    e[loose] = e[loose][1:] if e[loose] else e[loose]
    if d[loose]:
        with pytest.raises(CardsimError):
            game.from_dict(e)
    # a card duplicated
    e = json.loads(json.dumps(d))
    e["table" if "table" in e else loose].append(d["hands"][0][0])
    with pytest.raises(CardsimError):
        game.from_dict(e)
    # an unknown card
    e = json.loads(json.dumps(d))
    e["hands"][0][0] = "no_such_card"
    with pytest.raises(cardsim.CardError, match="no_such_card"):
        game.from_dict(e)
    # the original still loads
    assert game.from_dict(d).to_dict() == d
