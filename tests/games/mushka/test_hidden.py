"""Mushka's hidden information (rules/mushka.md §5): what ``state.sample_world(p, seed)`` may
and may not do, and what ``state.observation(p)`` shows.

§5 and the engine's layout and notation: hidden from p are the other hands (passed hands too), the
other seats' discards, the stock and its order, and the ace holder until the bonus is written off or
the ace of spades is played. A sampled world is uniform over the placements of those cards that keep
every public constraint: a pass proves no ``As``; a void shown in play (and, under
``must_head_trick`` / ``must_overtrump``, the cards above the best one a player failed to beat) is
honoured; with ``ace_bonus_timing=first_trick`` a first trick won without the bonus proves no
``As``, and the bonus pins ``As`` to its holder; discards never hold ``As`` unless
``ace_of_spades_discardable``; the turned card the dealer took stays in his hand.

The uniformity tests count the possible worlds by brute force (a backtracking search over the
hidden cards and their places, written here from §5: it reads the position dict only) and
compare the sampled frequencies with a chi-square test at ``ALPHA`` = 1e-4 (fixed seeds, so
the tests are deterministic). One position is so constrained that the engine's rejection
sampling almost never succeeds and its exact draw (``worlds.exact_world``) does the work;
``exact_world`` is also tested on its own.
"""
from __future__ import annotations

import collections
import json
import math
import random

import numpy as np
import pytest
from scipy.stats import binomtest, chisquare

from cardsim.compiled.rng import rng_from_seed
from cardsim.game import State
from cardsim.games.mushka import choose_random
from cardsim.games.mushka import layout as L
from cardsim.games.mushka import worlds as sampler
from tests.games.mushka.positions import ALL52, deck_cards, idx, play, position
from tests.helpers import game_loader

ALPHA = 1e-4
ACE = "As"
POLICY = (0.25, 0.25, 0.5)      # the engine's random player


game = game_loader("mushka")


def suit(s: str, size: int = 32) -> list[str]:
    """Every card of suit ``s`` in the deck of ``size`` cards."""
    return [c for c in deck_cards(size) if c[1] == s]


def only(size: int, *suits: str) -> list[str]:
    """The cards of every other suit: a hand restricted to ``suits``."""
    return [c for c in deck_cards(size) if c[1] not in suits]


def state_of(d: dict):
    """The state of a position dict (its rules from the dict)."""
    return game(**d["rules"]).from_dict(d)


def samples(state, player: int, n: int, start: int = 0) -> list[dict]:
    return [state.sample_world(player, seed=s).to_dict() for s in range(start, start + n)]


# --- the possible worlds, from §5 ----------------------------------------------------------

def hidden_places(d: dict, p: int, ordered_stock: bool = False) -> list[tuple[str, tuple]]:
    """(card, place) of the cards hidden from p: other hands, other discards, the stock (one
    unordered place, or one place per position). The turned card is never hidden; the one the
    dealer took stays known in his hand."""
    taken = d["trump_card"] if d["trump_taken"] else None
    out = [(c, ("hand", q)) for q, h in enumerate(d["hands"]) if q != p for c in h if c != taken]
    out += [(c, ("discard", q)) for q, x in enumerate(d["discards"]) if q != p for c in x]
    out += [(c, ("stock", i if ordered_stock else 0)) for i, c in enumerate(d["stock"])]
    return out


def allowed(d: dict, card: str, place: tuple) -> bool:
    """§5: may ``card`` lie in ``place`` in a world of this position? A hand never holds a
    card excluded from it, a passer never holds As, a discard holds As only when it is
    discardable, and a public ace holder keeps As."""
    kind = place[0]
    if card == ACE and (d["ace_bonus_taken"] or any(ACE in p for p in d["played"])):
        return kind == "hand" and place[1] == d["ace_holder"]
    if kind == "hand":
        q = place[1]
        return card not in d["excluded"][q] and not (card == ACE and d["decisions"][q] == "pass")
    if kind == "discard":
        return card != ACE or d["rules"]["ace_of_spades_discardable"]
    return True


def possible_worlds(d: dict, p: int, ordered_stock: bool = False) -> list[tuple]:
    """Every placement of the hidden cards that :func:`allowed` permits, as assignments
    ((place, cards), ...) — by backtracking over the cards."""
    slots = hidden_places(d, p, ordered_stock)
    cards = sorted({c for c, _ in slots}, key=idx)
    caps = collections.Counter(place for _, place in slots)
    places = sorted(caps)
    now = {place: [] for place in places}
    out = []

    def rec(i):
        if i == len(cards):
            out.append(tuple((place, tuple(now[place])) for place in places))
            return
        for place in places:
            if len(now[place]) < caps[place] and allowed(d, cards[i], place):
                now[place].append(cards[i])
                rec(i + 1)
                now[place].pop()

    rec(0)
    return out


def assignment(w: dict, p: int, ordered_stock: bool = False) -> tuple:
    """Where the hidden cards of a sampled world lie, in the form of :func:`possible_worlds`."""
    groups = collections.defaultdict(list)
    for c, place in hidden_places(w, p, ordered_stock):
        groups[place].append(c)
    return tuple((place, tuple(sorted(cs, key=idx))) for place, cs in sorted(groups.items()))


def n_placements(d: dict, p: int, ordered_stock: bool = False) -> int:
    """Every placement of the hidden cards keeping the places' sizes, possible or not."""
    caps = collections.Counter(place for _, place in hidden_places(d, p, ordered_stock))
    return (math.factorial(sum(caps.values()))
            // math.prod(math.factorial(k) for k in caps.values()))


def check_world(state, p: int, w: dict) -> None:
    """A sampled world: every card once, the same observation for p, a legal position, and
    the constraints of :func:`allowed`."""
    d = state.to_dict()
    deck = deck_cards(state.game.rules.deck_size)
    cards = [c for h in w["hands"] for c in h] + [c for x in w["discards"] for c in x]
    cards += w["stock"] + [c for x in w["played"] for c in x]
    if not w["trump_taken"]:
        cards.append(w["trump_card"])
    assert sorted(cards, key=idx) == deck
    assert state.game.from_dict(w).to_dict() == w
    assert state.game.from_dict(w).observation(p) == state.observation(p)
    for c, place in hidden_places(w, p):
        assert allowed(d, c, place), (c, place)


def chi_square_uniform(state, p: int, worlds: list, n_per_cell: int,
                       ordered_stock: bool = False, draw=None) -> None:
    """Draw ``n_per_cell`` worlds per possible world; every one is drawn, none else, and the
    counts pass a chi-square test of uniformity."""
    cells = set(worlds)
    n = n_per_cell * len(cells)
    if draw is None:
        got = collections.Counter(assignment(state.sample_world(p, seed=s).to_dict(), p,
                                             ordered_stock) for s in range(n))
    else:
        got = collections.Counter(draw(s) for s in range(n))
    assert set(got) <= cells, "an impossible world was drawn"
    assert len(got) == len(cells), f"{len(got)} of {len(cells)} possible worlds drawn"
    counts = [got[c] for c in sorted(cells)]
    assert chisquare(counts).pvalue > ALPHA


# --- positions ----------------------------------------------------------------------------

def first_trick_position(holder_plays: bool = False, **options) -> dict:
    """4 players, hearts trump (9h turned), seat 3 deals, seat 0 leads 9c to the first trick.
    Seat 1 has no club (he trumps with 7h); seat 2 has neither clubs nor hearts; seat 3 (the
    observer of the tests) holds Tc. ``As`` is in seat 1's hand when ``holder_plays``, else in
    the stock."""
    hands = ["9c 7d 8d 9d Td",
             ("As 7h Kd Qd 8s" if holder_plays else "7h Kd Qd 7s 8s"),
             "Js Qs Ks Jd Ad",
             "Tc 8h Jc Qc Kc"]
    return position(hands, trump="9h", dealer=3, stock=[] if holder_plays else ["As"], **options)


WORLD_A_HANDS = ["Kc", "Qd", "Jh", "7c 7d", "Ks Kd", "Qs Qc", "Js Jc"]


def world_a() -> dict:
    """7 players, 36 cards (no stock), the fourth trick under way: seats 0-2 have played to
    it (one card left), seats 3-6 two cards; ``As`` was played (public). Nine cards hidden
    from seat 3 in six hands, with voids: 144 possible worlds of 45,360 placements."""
    size = 36
    s, c, d, h = (suit(x, size) for x in "scdh")
    excluded = [s, s + c, s + c + d, [], c, h + d, d + h]
    return position(WORLD_A_HANDS, trump="6h", tricks_played=3, leader=0, trick="8s 9s Ts",
                    num_players=7, deck="36", tricks_won=[1, 1, 1, 0, 0, 0, 0],
                    played=[None, None, None, "As 8c 9c", None, None, None], excluded=excluded)


def world_b() -> dict:
    """7 players, 36 cards, seat 0 (the observer) to lead the fourth trick; the six other
    hands (two cards each) restricted to one or two suits each: 81 possible worlds of
    7,484,400 placements (a rejection sampler succeeds about once in 92,000 tries)."""
    size = 36
    excluded = [[], only(size, "s"), only(size, "s", "c"), only(size, "c"),
                only(size, "d", "c"), only(size, "d", "h"), only(size, "h", "s")]
    hands = ["6c 6d", "Ks Qs", "Js Kc", "Qc Jc", "Kd Qd", "Jd Kh", "Qh Jh"]
    return position(hands, trump="6h", tricks_played=3, leader=0, num_players=7, deck="36",
                    dealer=6, tricks_won=[3, 0, 0, 0, 0, 0, 0],
                    played=["As 6s 7s", None, None, None, None, None, None], excluded=excluded)


def world_c(discardable: bool) -> dict:
    """6 players, 36 cards: seat 0 exchanged 1 card, seat 1 two (stock 2 left, 3 discards);
    the last trick under way, seats 0-3 have played to it: hidden from seat 5 are seat 4's
    last card, the 3 discards and the 2 stock cards (``As`` among them, in the stock), seat 4
    void in clubs."""
    hands = [[], [], [], [], ["Kd"], ["Qd"]]
    return position(hands, trump="6h", tricks_played=4, leader=0, trick="Ts Js Qs Ks",
                    num_players=6, deck="36", decisions=[1, 2, "stand", "stand", "stand", "stand"],
                    tricks_won=[1, 1, 1, 1, 0, 0], stock=["Ac", ACE], discards=[["Jc"],
                                                                             ["Qc", "Kc"],
                                                                             [], [], [], []],
                    excluded=[[ACE], [ACE], [ACE], [ACE], suit("c", 36), []],
                    ace_of_spades_discardable=discardable)


# --- public constraints ---------------------------------------------------------------------

def test_a_pass_proves_no_ace():
    """MU-EXCH-3: a player holding As may not pass, so no sampled world gives a passer As —
    while a seat that stood may well hold it."""
    g = game()
    for seed in range(200):
        state = g.new_deal(seed=seed)
        d = state.to_dict()
        first = d["to_move"]
        if ACE not in d["hands"][first] and ACE != d["trump_card"]:
            break
    else:
        raise AssertionError("no seed in 0..199 whose first mover lacks As (and As not turned)")
    play(state, "pass", "stand")
    d = state.to_dict()
    assert ACE in d["excluded"][first]
    observer = (first + 2) % 4
    stood = (first + 1) % 4
    held = collections.Counter()
    for w in samples(state, observer, 300):
        assert ACE not in w["hands"][first]
        for q in range(4):
            if ACE in w["hands"][q]:
                held[q] += 1
    if ACE not in d["hands"][observer]:
        assert held[stood] > 0, "As never sampled into a hand that stood"


def test_voids_shown_in_play_are_honoured():
    """A follower without the led suit is void in it; one who neither follows nor trumps is
    void in trumps too (the engine: excluded); no sampled world breaks either."""
    state = state_of(first_trick_position())
    play(state, "play 9c", "play 7h", "play Js")
    d = state.to_dict()
    clubs, hearts = suit("c"), suit("h")
    assert d["excluded"][1] == clubs
    assert d["excluded"][2] == clubs + hearts
    for w in samples(state, 3, 150):
        assert not set(w["hands"][1]) & set(clubs)
        assert not set(w["hands"][2]) & set(clubs + hearts)
        check_world(state, 3, w)


def test_partial_void_under_must_head_trick():
    """``must_head_trick``: a follower who plays under the best card of the suit holds none
    above it — but may hold lower ones."""
    hands = ["9c 7d 8d 9d Td", "7c 8c Kd Qd 8s", "Js Qs Ks Jd Ad", "Tc 8h Jc Qc Kc"]
    state = state_of(position(hands, trump="9h", dealer=3, stock=[ACE], must_head_trick=True))
    play(state, "play 9c", "play 7c")
    d = state.to_dict()
    assert d["excluded"][1] == ["Tc", "Jc", "Qc", "Kc", "Ac"]
    low = 0
    for w in samples(state, 3, 150):
        assert not {"Tc", "Jc", "Qc", "Kc", "Ac"} & set(w["hands"][1])
        low += "8c" in w["hands"][1]
        check_world(state, 3, w)
    assert low > 0, "the partial void excluded a lower club too"


def test_partial_void_under_must_overtrump():
    """``must_overtrump``: a player trumping under the best trump of the trick holds no trump
    above it (and no card of the led suit) — lower trumps stay possible."""
    hands = ["9c 7d 8d 9d Td", "Kh Jd Qd 7s 8s", "8h 7h Ks Kd Ad", "Tc Th Jc Qc Kc"]
    state = state_of(position(hands, trump="9h", dealer=3, stock=[ACE, "Ah"],
                              must_overtrump=True))
    play(state, "play 9c", "play Kh", "play 8h")
    d = state.to_dict()
    assert d["excluded"][2] == suit("c") + ["Ah"]
    low = 0
    for w in samples(state, 3, 150):
        assert "Ah" not in w["hands"][2] and not set(suit("c")) & set(w["hands"][2])
        low += "7h" in w["hands"][2]
        check_world(state, 3, w)
    assert low > 0


@pytest.mark.parametrize("timing", ["first_trick", "end_of_deal"])
def test_first_trick_without_bonus_proves_no_ace(timing):
    """``ace_bonus_timing=first_trick``: seat 1 wins his first trick and writes off no bonus,
    so he does not hold As; with ``end_of_deal`` nothing is proved yet (As may be his)."""
    state = state_of(first_trick_position(ace_bonus_timing=timing))
    play(state, "play 9c", "play 7h", "play Js", "play Tc")     # seat 1's trump wins
    d = state.to_dict()
    winner = d["leader"]
    assert winner == 1 and d["tricks_won"][1] == 1 and not d["ace_bonus_taken"]
    assert (ACE in d["excluded"][winner]) == (timing == "first_trick")
    observer = 3
    has = sum(ACE in w["hands"][winner] for w in samples(state, observer, 200))
    if timing == "first_trick":
        assert has == 0
    else:
        assert has > 0


def test_bonus_reveals_the_holder():
    """MU-SCORE-3: the holder's first trick writes off the bonus, which reveals him (§5): As
    then stays in his hand in every world, for every observer, and every observation shows
    him; before that the others do not know him and As moves between the worlds."""
    state = state_of(first_trick_position(holder_plays=True))
    play(state, "play 9c", "play 7h", "play Js")
    assert state.observation(3)["ace_holder"] is None
    assert state.observation(1)["ace_holder"] == 1
    before = {tuple(q for q in range(4) if ACE in w["hands"][q])
              for w in samples(state, 3, 100)}
    assert len(before) > 1
    play(state, "play Tc")                          # seat 1's 7h, the only trump, wins
    d = state.to_dict()
    assert d["ace_bonus_taken"] and d["ace_holder"] == 1
    for p in (0, 2, 3):
        assert state.observation(p)["ace_holder"] == 1
        for w in samples(state, p, 60):
            assert ACE in w["hands"][1] and w["ace_holder"] == 1
            check_world(state, p, w)


@pytest.mark.parametrize("discardable", [False, True])
def test_discards_and_the_ace(discardable):
    """MU-EXCH-4: discards never hold As — unless ``ace_of_spades_discardable``, when As lies
    in a discard as often as a uniform world puts it there (4 of the 26 cards hidden from
    seat 2 lie in discards: seat 0 exchanged 1, seat 1 three)."""
    hands = ["7c 8c 9c Tc Jc", "7d 8d 9d Td Jd", "Qc Kc Ac Qd Kd", "Ad 7h 8h Jh Qh"]
    d = position(hands, trump="9h", dealer=3, decisions=[1, 3, "stand", "stand"], phase="play",
                 ace_of_spades_discardable=discardable)
    assert ACE in d["stock"]
    state = state_of(d)
    n = 600
    hits = 0
    for w in samples(state, 2, n):
        hits += any(ACE in x for x in w["discards"])
    hidden = len(hidden_places(d, 2))
    if not discardable:
        assert hits == 0
    else:
        assert binomtest(hits, n, 4 / hidden).pvalue > ALPHA


def test_dealer_keeps_the_taken_trump_card():
    """``dealer_takes_trump_card``: the card the dealer took stays known in his hand (it may not
    be discarded), in every world of every other player; his face-down discard is hidden and
    never the taken card nor As."""
    g = game(dealer_takes_trump_card=True)
    state = g.new_deal(seed=7)
    d = state.to_dict()
    dealer, trump = d["dealer"], d["trump_card"]
    assert trump in d["hands"][dealer] and len(d["hands"][dealer]) == 6
    play(state, "discard " + next(c for c in d["hands"][dealer] if c not in (trump, ACE)))
    rnd = random.Random(3)
    while not state.is_terminal() and state.to_dict()["phase"] == "exchange":
        state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
    d = state.to_dict()
    seen_discards = set()
    for p in range(4):
        if p == dealer:
            continue
        assert state.observation(p)["known_cards"][dealer] == (
            [trump] if trump in d["hands"][dealer] else [])
        for w in samples(state, p, 60):
            assert trump in w["hands"][dealer] + w["played"][dealer]
            assert trump not in w["discards"][dealer] and ACE not in w["discards"][dealer]
            seen_discards.add(tuple(w["discards"][dealer]))
            check_world(state, p, w)
    assert len(seen_discards) > 1, "the dealer's discard is hidden: it must vary"


def test_end_of_deal_without_bonus_proves_no_ace():
    """``ace_bonus_timing=end_of_deal``, a lone player (everyone else passed) credited his 5
    tricks: the deal ended without the bonus, so he does not hold As (he would have written it
    off). No world of another player gives it to him (such a world is not even a legal
    position). Found with seed 10: As lies in the stock there."""
    g = game(ace_bonus_timing="end_of_deal")
    state = g.new_deal(seed=10)
    d = state.to_dict()
    assert all(ACE not in h for h in d["hands"]) and d["trump_card"] != ACE
    lone = d["dealer"]
    while not state.is_terminal():
        play(state, "stand" if state.current_player() == lone else "pass")
    d = state.to_dict()
    assert d["active"] == [lone] and d["tricks_won"][lone] == 5 and not d["ace_bonus_taken"]
    for p in range(4):
        if p == lone:
            continue
        for w in samples(state, p, 100):
            assert ACE not in w["hands"][lone]
            check_world(state, p, w)


# --- sample_world reads no hidden card ------------------------------------------------------

OPTION_SETS = [
    {},
    {"num_players": 5, "must_head_trick": True, "must_overtrump": True},
    {"num_players": 3, "dealer_takes_trump_card": True, "ace_of_spades_discardable": True},
    {"num_players": 7, "deck": "36", "ace_bonus_timing": "end_of_deal"},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_sample_world_ignores_the_hidden_cards(opts):
    """Two true states with the same observation for p — the position, and a world sampled for
    p from it (also rebuilt through ``from_dict``) — give p identical samples for the same
    seed: sample_world reads only what p may know."""
    g = game(**opts)
    compared = 0
    for seed in range(3):
        state = g.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while True:
            if k % 3 == 0:
                for p in range(g.num_players):
                    other = state.sample_world(p, seed=10_000 + k)
                    assert other.observation(p) == state.observation(p)
                    rebuilt = g.from_dict(other.to_dict())
                    if other.to_dict()["hands"] != state.to_dict()["hands"]:
                        compared += 1
                    for s in range(2):
                        mine = state.sample_world(p, seed=s).to_dict()
                        assert other.sample_world(p, seed=s).to_dict() == mine
                        assert rebuilt.sample_world(p, seed=s).to_dict() == mine
            if state.is_terminal():
                break
            state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
            k += 1
    assert compared > 0


# --- uniformity -----------------------------------------------------------------------------

def test_uniform_over_the_possible_worlds_with_voids():
    """Chi-square: world A (:func:`world_a`), 144 possible worlds: each drawn, none other,
    uniformly."""
    d = world_a()
    state = state_of(d)
    worlds = possible_worlds(d, 3)
    assert len(worlds) == 144 and n_placements(d, 3) == 45_360
    chi_square_uniform(state, 3, worlds, 30)


def test_uniform_when_rejection_fails():
    """Chi-square: world B (:func:`world_b`), 81 possible worlds among 7.5 million placements,
    so a rejection sampler (10,000 tries) nearly always fails and the exact draw takes over:
    still uniform, and every world legal."""
    d = world_b()
    state = state_of(d)
    worlds = possible_worlds(d, 0)
    assert len(worlds) == 81 and n_placements(d, 0) == 7_484_400
    for w in samples(state, 0, 5):
        check_world(state, 0, w)
    chi_square_uniform(state, 0, worlds, 25)


@pytest.mark.parametrize("discardable", [False, True])
def test_uniform_with_discards_and_stock_order(discardable):
    """Chi-square: world C (:func:`world_c`): seat 4's card, the discards and the stock in
    order (each stock position a place); As not in a discard unless discardable."""
    d = world_c(discardable)
    state = state_of(d)
    worlds = possible_worlds(d, 5, ordered_stock=True)
    # 6 cards (Kd Jc Qc Kc Ac As): seat 4's hand (1 card, no club: Kd or As), discards 1 + 2,
    # stock positions 0 and 1. Kd in hand: 5!/2! = 60 placements of the rest, of which As
    # avoids the discards in 2 * 4!/2! = 24; As in hand: 60.
    assert len(worlds) == (120 if discardable else 84)
    chi_square_uniform(state, 5, worlds, 25, ordered_stock=True)


def _exact_draw(state, p: int, ordered_stock: bool):
    """Draws of ``worlds.exact_world`` alone (the engine's exact sampler, without the
    rejection tries before it), as assignments."""
    vec, params = state.vec, state.game.spec.params
    d = state.to_dict()
    hidden = 0
    for c, _ in hidden_places(d, p):
        hidden |= 1 << ALL52.index(c)
    forbid = np.zeros(L.MAX_PLAYERS, dtype=np.uint64)
    sampler.forbidden_cards(vec, params, p, forbid)
    out = np.empty_like(vec)

    def draw(seed):
        assert sampler.exact_world(vec, params, p, rng_from_seed(seed), np.uint64(hidden),
                                    forbid, out)
        return assignment(State(state.game, out.copy()).to_dict(), p, ordered_stock)

    return draw


@pytest.mark.parametrize("which", ["a", "c", "c_discardable"])
def test_exact_sampler_alone_is_uniform(which):
    """Chi-square on ``worlds.exact_world`` by itself (it only runs when rejection fails):
    world A (voids in hands) and world C (discards, the stock's order, As kept out of the
    discards by its weight in the pool)."""
    if which == "a":
        d, p, ordered = world_a(), 3, False
    else:
        d, p, ordered = world_c(which == "c_discardable"), 5, True
    state = state_of(d)
    worlds = possible_worlds(d, p, ordered)
    chi_square_uniform(state, p, worlds, 25, ordered, draw=_exact_draw(state, p, ordered))


# --- observation --------------------------------------------------------------------------------

def _names(obj, skip=("excluded",)) -> set[str]:
    """Card names anywhere in a JSON-like value, outside the keys ``skip`` (``excluded``
    names cards *not* in a hand: public inferences)."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k not in skip:
                out |= _names(v, skip)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= _names(v, skip)
    elif isinstance(obj, str) and obj in ALL52:
        out.add(obj)
    return out


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_observation_hides_what_section_5_hides(opts):
    """``observation(p)`` names only cards p has seen (his hand and discards, the turned card,
    the played cards), shows the public counts (hand sizes, discards, stock size, decisions
    with k) and the ace holder only once public (bonus, As played or turned) or to the one who
    has it; it is the same in every world sampled for p."""
    g = game(**opts)
    for seed in range(3):
        state = g.new_deal(seed=seed)
        rnd = random.Random(seed)
        while True:
            d = state.to_dict()
            for p in range(g.num_players):
                obs = state.observation(p)
                seen = set(d["hands"][p]) | set(d["discards"][p]) | {d["trump_card"]}
                for x in d["played"]:
                    seen |= set(x)
                assert _names(obs) <= seen, (p, _names(obs) - seen)
                assert obs["hand"] == d["hands"][p] and obs["discards"] == d["discards"][p]
                assert obs["hand_sizes"] == [len(h) for h in d["hands"]]
                assert obs["discard_counts"] == [len(x) for x in d["discards"]]
                assert obs["stock_size"] == len(d["stock"])
                assert obs["decisions"] == d["decisions"]
                assert obs["excluded"] == d["excluded"] and obs["played"] == d["played"]
                public = (d["ace_bonus_taken"] or d["trump_card"] == ACE
                          or any(ACE in x for x in d["played"]))
                own = ACE in d["hands"][p] + d["discards"][p]
                assert obs["ace_holder"] == (d["ace_holder"] if public or own else None)
                assert "stock" not in obs and "rng" not in obs and "hands" not in obs
                assert state.sample_world(p, seed=seed).observation(p) == obs
            if state.is_terminal():
                break
            state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
