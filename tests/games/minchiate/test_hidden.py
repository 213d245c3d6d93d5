"""Minchiate's hidden information (rules/minchiate.md §6, the engine's hidden information): what
``state.sample_world(p, seed)`` (``worlds.determinize``) may and may not do, and how another player
sees an action (``worlds.observed_action``).

Hidden from p: the other hands, less the cards their seats showed (robbed, exposed, declared,
the Matto of a claimed bonus: their places stay public, the observation's ``known_cards``);
the other seats' discards and the Fola's own part (the undealt cards the dealer did not rob,
less the card the cutter saw at the bottom) until the Fola is opened — always with
``fola_visibility`` ``suit_counts`` / ``hidden`` — except that a robbing dealer saw the own
part. A sampled world keeps every public fact: hand sizes, shown cards, ``excluded``, what a
declaration proves (a declared run is maximal, three Kings lack the fourth, a one-combination
10-20-30 lacks the 40; with ``declaration_mode=all`` exactly the declared combinations and the
bonus whenever it applies), the own part without a robbable card (``dealer_rob=auto_all``) and
with the seen bottom card, discards of the first discard class (MI-DISC-2; the worlds module
documents that MI-DISC-3's fallback is not modelled), and with ``suit_counts`` from the first
lead the Fola's cards per suit.

The uniformity tests count the possible worlds by brute force (a backtracking search written
here from §6 over the position dict: :func:`possible_worlds`) and compare the sampled
frequencies with a chi-square test at ``ALPHA`` = 1e-4 (fixed seeds: deterministic). Some
positions are built with ``game.from_dict`` from end-of-deal positions of random play with
extra public voids (``excluded``). The exact sampler (``worlds.sample_world`` without
rejection tries) is tested on its own too, and against plain rejection where the worlds are
too many to count.
"""
from __future__ import annotations

import collections
import json
import math
import random

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.game import State
from cardsim.games.minchiate import choose_random, layout, worlds
from cardsim.games.minchiate.conformance import combos, declaration_excluded, eligible, first_class, own_part
from cardsim.games.minchiate.conformance import shown_cards as shown
from cardsim.games.minchiate.layout import DECK as MINCHIATE
from tests.helpers import game_loader

ALPHA = 1e-4
POLICY = (1.0,)         # the engine's random player: declares everything
NAMES = list(MINCHIATE.cards)
IDX = {c: i for i, c in enumerate(NAMES)}


game = game_loader("minchiate")


def state_of(d: dict):
    return game(**{k: v for k, v in d["rules"].items()}).from_dict(d)


def by_index(cards) -> list[str]:
    return sorted(cards, key=IDX.__getitem__)


def suit_of(card: str) -> str | None:
    """A plain suit's short name, None for trumps and the Matto."""
    return None if card == "M" or card.startswith("T") else card[-2:]


def value(card: str) -> int:
    return int(layout.VALUE[IDX[card]])


# --- the public facts of a position, from §6 ------------------------------------------------

def first_lead_made(d: dict) -> bool:
    return d["tricks_played"] > 0 or bool(d["trick"])


def hidden_places(d: dict, p: int) -> list[tuple[str, tuple]]:
    """(card, place) of the cards hidden from p (§6)."""
    out = []
    opened = d["fola_open"]
    for q in range(4):
        if q == p:
            continue
        out += [(c, ("hand", q)) for c in d["hands"][q] if c not in shown(d, q)]
        if not opened:
            out += [(c, ("discard", q)) for c in d["discards"][q] if c not in shown(d, q)]
    dealer_saw = p == d["dealer"] and d["rules"]["dealer_rob"] == "auto_all"
    if not opened and not dealer_saw:
        out += [(c, ("own", 0)) for c in own_part(d) if c != d["seen_bottom"]]
    return out


def allowed(d: dict, card: str, place: tuple) -> bool:
    """May ``card`` lie in ``place`` (one card at a time: facts 1, 4, 5)?"""
    kind, q = place
    if kind == "hand":
        return card not in d["excluded"][q] and card not in declaration_excluded(d, q)
    if kind == "own":
        return not (d["rules"]["dealer_rob"] == "auto_all" and eligible(card))
    return first_class(card, d["rules"])


def whole_world_ok(truth: dict, p: int, w: dict) -> bool:
    """The facts on the whole world: suit counts of the Fola (``suit_counts``, from the first
    lead) and, with ``declaration_mode=all``, each declarer's exact combinations."""
    rules = truth["rules"]
    if rules["fola_visibility"] == "suit_counts" and first_lead_made(truth):
        count = collections.Counter(suit_of(c) for c in truth["fola"])
        if collections.Counter(suit_of(c) for c in w["fola"]) != count:
            return False
    if rules["declaration_mode"] == "all":
        two = rules["decine_four"] == "two_triples"
        for q in range(4):
            if q != p and truth["declared_done"][q]:
                held = combos(set(w["hands"][q]) | set(truth["played"][q]), two)
                if held != {tuple(c) for c in truth["declared"][q]}:
                    return False
    return True


def world_from(truth: dict, p: int, placed: dict) -> dict:
    """The truth with the hidden places' cards replaced (``placed``: place -> cards)."""
    w = json.loads(json.dumps(truth))
    hidden = {c for c, _ in hidden_places(truth, p)}
    for q in range(4):
        w["hands"][q] = by_index([c for c in truth["hands"][q] if c not in hidden]
                                 + list(placed.get(("hand", q), ())))
        w["discards"][q] = by_index([c for c in truth["discards"][q] if c not in hidden]
                                    + list(placed.get(("discard", q), ())))
    rest = [c for c in truth["fola"] if c not in hidden]
    rest += [c for place, cs in placed.items() if place[0] != "hand" for c in cs]
    w["fola"] = by_index(rest)
    return w


def whole_rules(d: dict) -> bool:
    """Does a fact on the whole world (:func:`whole_world_ok`) apply to this position?"""
    rules = d["rules"]
    return rules["declaration_mode"] == "all" or (rules["fola_visibility"] == "suit_counts"
                                                  and first_lead_made(d))


def possible_worlds(d: dict, p: int) -> list[tuple]:
    """Every placement of the hidden cards keeping the places' sizes and the facts of §6, as
    assignments ((place, cards), ...) — by backtracking over the cards."""
    slots = hidden_places(d, p)
    cards = by_index({c for c, _ in slots})
    caps = collections.Counter(place for _, place in slots)
    places = sorted(caps)
    now = {place: [] for place in places}
    whole = whole_rules(d)
    out = []

    def rec(i):
        if i == len(cards):
            if not whole or whole_world_ok(d, p, world_from(d, p, now)):
                out.append(tuple((place, tuple(now[place])) for place in places))
            return
        for place in places:
            if len(now[place]) < caps[place] and allowed(d, cards[i], place):
                now[place].append(cards[i])
                rec(i + 1)
                now[place].pop()

    rec(0)
    return out


def assignment(w: dict, p: int) -> tuple:
    groups = collections.defaultdict(list)
    for c, place in hidden_places(w, p):
        groups[place].append(c)
    return tuple((place, tuple(by_index(cs))) for place, cs in sorted(groups.items()))


def n_placements(d: dict, p: int) -> int:
    caps = collections.Counter(place for _, place in hidden_places(d, p))
    return (math.factorial(sum(caps.values()))
            // math.prod(math.factorial(k) for k in caps.values()))


def check_world(state, p: int, w: dict) -> None:
    """A sampled world: a legal position (from_dict checks every card once, the robbing, the
    discard classes, declarations against the cards, points), the same observation for p,
    every shown card in place, the hidden cards only where §6 allows them."""
    truth = state.to_dict()
    g = state.game
    assert g.from_dict(w).to_dict() == w
    assert g.from_dict(w).observation(p) == state.observation(p)
    assert w["hands"][p] == truth["hands"][p] and w["discards"][p] == truth["discards"][p]
    assert [len(h) for h in w["hands"]] == [len(h) for h in truth["hands"]]
    assert [len(x) for x in w["discards"]] == [len(x) for x in truth["discards"]]
    for q in range(4):
        for c in shown(truth, q):
            for key in ("hands", "discards", "played"):
                assert (c in truth[key][q]) == (c in w[key][q]), (q, c, key)
    hidden = sorted(c for c, _ in hidden_places(truth, p))
    assert sorted(c for c, _ in hidden_places(w, p)) == hidden
    for c, place in hidden_places(w, p):
        assert allowed(truth, c, place), (c, place)
    assert whole_world_ok(truth, p, w)
    if truth["seen_bottom"]:
        assert truth["seen_bottom"] in own_part(w)
    if truth["fola_open"] or (p == truth["dealer"] and truth["rules"]["dealer_rob"] == "auto_all"):
        assert own_part(w) == own_part(truth)
    if truth["fola_open"]:
        assert w["fola"] == truth["fola"] and w["discards"] == truth["discards"]


def chi_square_uniform(worlds_list: list, draws: list) -> None:
    """Every possible world drawn, none else, with counts passing a chi-square test."""
    cells = set(worlds_list)
    got = collections.Counter(draws)
    assert set(got) <= cells, "an impossible world was drawn"
    assert len(got) == len(cells), f"{len(got)} of {len(cells)} possible worlds drawn"
    counts = [got[c] for c in sorted(cells)]
    assert chisquare(counts).pvalue > ALPHA


def exact_draw(state, p: int, seed: int) -> dict:
    """A world from the exact sampler alone (no rejection tries before it)."""
    out = np.empty_like(state.vec)
    assert worlds.sample_world(state.vec, state.game.spec.params, p, rng_from_seed(seed), out,
                               0, 0, True)
    return State(state.game, out).to_dict()


def rejection_draw(state, p: int, seed: int) -> dict:
    """A world from plain rejection alone (up to a million tries)."""
    out = np.empty_like(state.vec)
    assert worlds.sample_world(state.vec, state.game.spec.params, p, rng_from_seed(seed), out,
                               0, 1_000_000, False)
    return State(state.game, out).to_dict()


# --- positions --------------------------------------------------------------------------------

def play_until(g, seed: int, stop) -> cardsim.game.State | None:
    """Random play (the engine's random player) from deal ``seed`` until ``stop(dict)``;
    None if the deal ends first."""
    state = g.new_deal(seed=seed)
    rnd = random.Random(seed)
    while not state.is_terminal():
        if stop(state.to_dict()):
            return state
        state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
    return state if stop(state.to_dict()) else None


def tricks_done(n: int):
    return lambda d: d["tricks_played"] == n and not d["trick"] and d["phase"] == "play"


def with_voids(d: dict, p: int, voids: dict[int, list[str]]) -> dict:
    """``d`` with more public inferences: seat q is known not to hold ``voids[q]`` (cards not
    in its hand)."""
    e = json.loads(json.dumps(d))
    for q, cards in voids.items():
        assert not set(cards) & set(d["hands"][q])
        e["excluded"][q] = by_index(set(e["excluded"][q]) | set(cards))
    return e


def constrained_end(opts: dict, tricks: int = 19, p: int = 0, most: int = 300) -> dict:
    """The first end-of-deal position (``tricks`` complete; deals 0, 1, ...) where, each other
    seat made publicly void in one more card of another hidden hand, p has from 6 to ``most``
    possible worlds, fewer than the placements."""
    g = game(**opts)
    for seed in range(100):
        state = play_until(g, seed, tricks_done(tricks))
        if state is None:
            continue
        d = _with_extra_voids(state.to_dict(), p)
        n = len(possible_worlds(d, p))
        if 6 <= n <= most and n < n_placements(d, p):
            return d
    raise AssertionError("no such position")


def _with_extra_voids(d: dict, p: int) -> dict:
    """Each seat but p publicly void in the first hidden card of the next one's hand."""
    others = [q for q in range(4) if q != p]
    voids = {}
    for i, q in enumerate(others):
        nxt = others[(i + 1) % 3]
        free = [c for c in d["hands"][nxt] if c not in shown(d, nxt)]
        if free:
            voids[q] = free[:1]
    return with_voids(d, p, voids)


OPTION_SETS = [
    {},
    {"declaration_mode": "all"},
    {"declaration_timing": "after_own_first_card"},
    {"fola_visibility": "hidden"},
    {"fola_visibility": "suit_counts", "discard_trumps": False},
    {"cutter_rob": "off", "dealer_rob": "off"},
    {"decine_four": "two_triples", "matto_bonus_on_matto_combo": True,
     "declaration_mode": "all"},
]
OPT_IDS = [json.dumps(o, sort_keys=True) for o in OPTION_SETS]


def positions(opts: dict, seeds=range(3), every: int = 5):
    """States along random playouts: every decision before the first lead, then every
    ``every``-th one, and the end."""
    g = game(**opts)
    for seed in seeds:
        state = g.new_deal(seed=seed)
        rnd = random.Random(seed)
        k = 0
        while not state.is_terminal():
            if state.to_dict()["phase"] != "play" or k % every == 0:
                yield state.clone()
            state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
            k += 1
        yield state


# --- public facts -------------------------------------------------------------------------------

@pytest.mark.parametrize("opts", OPTION_SETS, ids=OPT_IDS)
def test_sampled_worlds_keep_the_public_facts(opts):
    """Along random playouts, for every observer: each sampled world is a legal position with
    the same observation, keeps every fact of §6 (:func:`check_world`), and the hidden cards
    do move."""
    moved = collections.Counter()
    for state in positions(opts):
        truth = state.to_dict()
        for p in range(4):
            for s in range(3):
                w = state.sample_world(p, seed=s).to_dict()
                check_world(state, p, w)
                for key in ("hands", "fola"):
                    moved[key] += w[key] != truth[key]
    assert moved["hands"] > 0
    if opts.get("fola_visibility") in ("hidden", "suit_counts") or opts.get("cutter_rob") == "off":
        assert moved["fola"] > 0, "the hidden Fola never changed"


def test_declaration_proofs_are_honoured():
    """A declared maximal run proves its neighbours absent, three Kings the fourth: found in
    random play, a card so excluded from a seat's hand is never sampled into it (while it does
    reach the other hands)."""
    g = game()
    found = 0
    for seed in range(60):
        state = play_until(g, seed, tricks_done(10))
        if state is None:
            continue
        d = state.to_dict()
        for q in range(4):
            ex = declaration_excluded(d, q) - set(d["excluded"][q])
            for p in range(4):
                hidden = {c for c, _ in hidden_places(d, p)}
                for card in ex & hidden:
                    found += 1
                    elsewhere = 0
                    for s in range(40):
                        w = state.sample_world(p, seed=s).to_dict()
                        assert card not in w["hands"][q]
                        elsewhere += any(card in w["hands"][r] for r in range(4) if r != q)
                    assert elsewhere > 0
        if found >= 3:
            break
    assert found >= 1, "no declaration proof met in random play"


def test_suit_counts_public_from_the_first_lead():
    """``suit_counts``: before the first lead the Fola's suits are free (they vary between
    worlds); from the first lead on they are those of the truth in every world."""
    g = game(fola_visibility="suit_counts")
    state = play_until(g, 5, lambda d: d["phase"] == "play" and not d["trick"]
                       and d["tricks_played"] == 0)
    p = (state.to_dict()["dealer"] + 1) % 4           # the leader: not the dealer
    counts = {tuple(sorted(collections.Counter(
        str(suit_of(c)) for c in state.sample_world(p, seed=s).to_dict()["fola"]).items()))
        for s in range(30)}
    assert len(counts) > 1
    state.apply_action(state.legal_actions()[0])
    truth = state.to_dict()
    want = collections.Counter(suit_of(c) for c in truth["fola"])
    seen = set()
    for s in range(60):
        w = state.sample_world(p, seed=s).to_dict()
        assert collections.Counter(suit_of(c) for c in w["fola"]) == want
        seen.add(tuple(w["fola"]))
    assert len(seen) > 1


def test_dealer_knows_the_fola_he_robbed():
    """The dealer saw the Fola while robbing: before it is opened his worlds keep its own part
    (and his discards) — the cutter's discards are hidden from him; the other players' worlds
    vary it, never with a robbable card, always with the seen bottom card."""
    g = game()
    for seed in range(50):
        state = g.new_deal(seed=seed)
        d = state.to_dict()
        if d["phase"] == "discard" and d["to_move"] == d["cutter"] and d["to_discard"] >= 2:
            break
    rnd = random.Random(0)
    while state.to_dict()["phase"] == "discard":
        state.apply_action(choose_random(state.legal_actions(), POLICY, rnd))
    d = state.to_dict()
    dealer, cutter = d["dealer"], d["cutter"]
    cutter_discards = set()
    for s in range(40):
        w = state.sample_world(dealer, seed=s).to_dict()
        assert own_part(w) == own_part(d) and w["discards"][dealer] == d["discards"][dealer]
        cutter_discards.add(tuple(w["discards"][cutter]))
    assert len(cutter_discards) > 1
    other = (dealer + 1) % 4
    parts = set()
    for s in range(40):
        w = state.sample_world(other, seed=s).to_dict()
        part = own_part(w)
        assert not any(eligible(c) for c in part)
        if d["seen_bottom"]:
            assert d["seen_bottom"] in part
        parts.add(tuple(part))
    assert len(parts) > 1


def test_discarded_shown_cards_stay_discarded():
    """A shown card discarded face down (the cutter's exposed 6sw, the dealer's robbed T26,
    deal 22) is still known to lie in its seat's discards (the observation's known cards no
    longer list it): every world keeps it there, and the other discards vary."""
    g = game()
    state = g.new_deal(seed=22)
    d = state.to_dict()
    cutter, dealer = d["cutter"], d["dealer"]
    assert d["to_move"] == cutter and d["to_discard"] == 3 and d["exposed"][cutter] == "6sw"
    others = [c for c in d["hands"][cutter] if first_class(c, d["rules"]) and c != "6sw"]
    for card in ["6sw"] + others[:2]:
        state.apply_action(state.action_from_dict({"discard": card}))
    assert "T26" in d["dealer_robbed"] and state.current_player() == dealer
    state.apply_action(state.action_from_dict({"discard": "T26"}))
    d = state.to_dict()
    assert d["phase"] == "declare" and not d["fola_open"]
    for p in range(4):
        varied = set()
        for s in range(30):
            w = state.sample_world(p, seed=s).to_dict()
            check_world(state, p, w)
            assert "6sw" in w["discards"][cutter] and "T26" in w["discards"][dealer]
            varied.add(tuple(w["discards"][cutter]))
        assert (len(varied) > 1) == (p != cutter)      # hidden from all but the cutter


# --- no leak ------------------------------------------------------------------------------------

@pytest.mark.parametrize("opts", OPTION_SETS, ids=OPT_IDS)
def test_samples_ignore_the_hidden_truth(opts):
    """Two true states with the same observation for p — the position and a world sampled for
    p from it (also rebuilt through from_dict) — give identical worlds (the whole state
    vector) for the same seed: determinize reads only what p may know."""
    compared = 0
    for k, state in enumerate(positions(opts, seeds=range(2), every=7)):
        for p in range(4):
            other = state.sample_world(p, seed=10_000 + k)
            assert other.observation(p) == state.observation(p)
            rebuilt = other.game.from_dict(other.to_dict())
            if other.to_dict()["hands"] != state.to_dict()["hands"] \
                    or other.to_dict()["fola"] != state.to_dict()["fola"]:
                compared += 1
            for s in range(2):
                mine = state.sample_world(p, seed=s).vec
                assert np.array_equal(other.sample_world(p, seed=s).vec, mine)
                assert np.array_equal(rebuilt.sample_world(p, seed=s).vec, mine)
    assert compared > 0


def test_world_forgets_the_deal_order_and_the_chance_stream():
    """The deal order (it holds every hand) is all ``order.UNKNOWN`` in a world, and the
    chance stream of later deals is replaced (a match's next deal is not the true one)."""
    g = game(deals=2)
    state = g.new_match(seed=3)
    w = state.sample_world(0, seed=1)
    order = w.vec[layout.ORDER:layout.ORDER + layout.ORDER_WORDS].view(np.uint8)
    assert (order[:layout.N_CARDS] == cardsim.compiled.order.UNKNOWN).all()
    assert not np.array_equal(w.vec[layout.RNG:layout.RNG + 4],
                              state.vec[layout.RNG:layout.RNG + 4])


# --- uniformity ---------------------------------------------------------------------------------

def test_uniform_end_of_deal_with_voids():
    """Chi-square: default rules, 19 tricks played (two cards in each hand), extra public
    voids: every possible world drawn, none other, uniformly."""
    d = constrained_end({})
    p = 0
    worlds_list = possible_worlds(d, p)
    assert 6 <= len(worlds_list) < n_placements(d, p)
    state = state_of(d)
    n = 40 * len(worlds_list)
    chi_square_uniform(worlds_list, [assignment(state.sample_world(p, seed=s).to_dict(), p)
                                     for s in range(n)])


def test_exact_sampler_alone_is_uniform():
    """Chi-square on the exact sampler by itself (rejection skipped): the same kind of
    position, three cards a hand (18 tricks), with voids."""
    d = constrained_end({}, tricks=18, p=2)
    p = 2
    worlds_list = possible_worlds(d, p)
    assert 6 <= len(worlds_list) < n_placements(d, p)
    state = state_of(d)
    n = 30 * len(worlds_list)
    chi_square_uniform(worlds_list, [assignment(exact_draw(state, p, s), p) for s in range(n)])


def _hidden_fola_position(opts: dict, tricks: int):
    """The dealer's view late in a deal with ``fola_visibility`` hidden or suit_counts, the
    cutter having discarded at least 2 cards (hidden from the dealer)."""
    g = game(**opts)
    for seed in range(400):
        state = g.new_deal(seed=seed)
        d = state.to_dict()
        if d["phase"] != "discard" or d["to_move"] != d["cutter"] or d["to_discard"] < 2:
            continue
        state = play_until(g, seed, tricks_done(tricks))
        if state is not None:
            return state, state.to_dict()["dealer"]
    raise AssertionError("no deal with a cutter's robbing of 2 cards or more")


@pytest.mark.parametrize("visibility", ["hidden", "suit_counts"])
@pytest.mark.parametrize("exact", [False, True])
def test_uniform_with_hidden_discards(visibility, exact):
    """Chi-square: the dealer's worlds at trick 20 (one card a hand) with the cutter's discards
    hidden (first-class cards only), and with ``suit_counts`` the Fola's suits fixed — by
    ``determinize`` and by the exact sampler alone."""
    state, p = _hidden_fola_position({"fola_visibility": visibility}, tricks=20)
    d = state.to_dict()
    worlds_list = possible_worlds(d, p)
    assert len(worlds_list) >= 2
    n = 40 * len(worlds_list)
    if exact:
        draws = [assignment(exact_draw(state, p, s), p) for s in range(n)]
    else:
        draws = [assignment(state.sample_world(p, seed=s).to_dict(), p) for s in range(n)]
    chi_square_uniform(worlds_list, draws)


def test_uniform_declare_all():
    """Chi-square with ``declaration_mode=all`` where the exact combinations rule some
    placements out (found in random play, late in the deal)."""
    g = game(declaration_mode="all")
    for seed in range(200):
        state = play_until(g, seed, tricks_done(19))
        if state is None:
            continue
        d = state.to_dict()
        for p in range(4):
            if n_placements(d, p) > 2000:
                continue
            base = len([1 for _ in _without_declarations(d, p)])
            worlds_list = possible_worlds(d, p)
            if base > len(worlds_list) >= 3:
                n = 40 * len(worlds_list)
                chi_square_uniform(worlds_list,
                                   [assignment(state.sample_world(p, seed=s).to_dict(), p)
                                    for s in range(n)])
                return
    pytest.fail("no position in deals 0..199 where declaration_mode=all rules a placement "
                "out: search more deals")


def _without_declarations(d: dict, p: int):
    """The possible worlds if ``declaration_mode`` were ``choice`` (no exact-combination
    rule)."""
    e = json.loads(json.dumps(d))
    e["rules"]["declaration_mode"] = "choice"
    return possible_worlds(e, p)


def _where(w: dict, cards: list[str]) -> tuple:
    """Where each of ``cards`` lies in a world: a hand or discards (with the seat) or the
    Fola's own part."""
    out = []
    for c in cards:
        if c in own_part(w):
            out.append("own")
        else:
            out.append(next(f"{kind}{q}" for kind, key in (("h", "hands"), ("d", "discards"))
                            for q in range(4) if c in w[key][q]))
    return tuple(out)


@pytest.mark.parametrize("phase,opts,n", [
    ("declare", {}, 1500),
    ("play", {"fola_visibility": "suit_counts"}, 400),     # rejection is slow there
    ("play", {"fola_visibility": "hidden", "discard_trumps": False}, 1500),
])
def test_exact_sampler_agrees_with_rejection(phase, opts, n):
    """Where the worlds are too many to count (the Fola and discards hidden, before or early
    in play): the exact sampler alone and plain rejection draw the same distribution of where
    a few hidden cards lie (chi-square homogeneity, per card)."""
    g = game(**opts)
    if phase == "declare":
        stop = lambda d: d["phase"] == "declare" and sum(d["declared_done"]) == 0  # noqa: E731
    else:
        stop = lambda d: d["phase"] == "play" and d["tricks_played"] == 1 \
            and not d["trick"]  # noqa: E731
    for seed in range(50):
        d0 = g.new_deal(seed=seed).to_dict()
        if d0["phase"] == "discard" and d0["to_discard"] >= 2:
            state = play_until(g, seed, stop)
            if state is not None:
                break
    else:
        pytest.fail(f"no deal in 0..49 with a discard of 2+ cards reaching {phase!r}: search "
                    "more deals")
    d = state.to_dict()
    p = (d["dealer"] + 1) % 4                   # neither discarder: every Fola part hidden
    slots = hidden_places(d, p)
    kinds = {place[0] for _, place in slots}
    assert {"hand", "discard", "own"} <= kinds
    # when hidden: a counting card (hands only), a zero-value trump above 20 (never in the own
    # part), a first-class suit card and a zero-value trump below 20 (anywhere, or not in the
    # discards with discard_trumps=false)
    picks = []
    for test in (lambda c: value(c) > 0, lambda c: eligible(c) and value(c) == 0,
                 lambda c: suit_of(c) is not None and first_class(c, d["rules"]),
                 lambda c: c.startswith("T") and not eligible(c) and value(c) == 0):
        cand = [c for c, _ in slots if test(c) and c not in picks]
        if cand:
            picks.append(cand[0])
    a = [_where(exact_draw(state, p, s), picks) for s in range(n)]
    b = [_where(rejection_draw(state, p, 50_000 + s), picks) for s in range(n)]
    for i in range(len(picks)):
        ca = collections.Counter(x[i] for x in a)
        cb = collections.Counter(x[i] for x in b)
        keys = sorted(set(ca) | set(cb))
        if len(keys) < 2:
            continue
        table = [[ca[k] for k in keys], [cb[k] for k in keys]]
        assert chi2_contingency(table).pvalue > ALPHA, (picks[i], table)


# --- observed actions ---------------------------------------------------------------------------

def test_observed_action_hides_discards_only():
    """A discard is seen face down by the other players (``discard_seen``, no card: equal ids
    for every card) and whole by the discarder, except a card the table has seen in his hand
    (robbed or exposed), whose discard is public; declarations, ``done`` and cards played are
    seen whole by everybody."""
    g = game()
    for seed in range(50):
        state = g.new_deal(seed=seed)
        if state.to_dict()["phase"] == "discard":
            break
    params = g.spec.params
    seen_kinds = set()
    public_discards = 0
    rnd = random.Random(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        mover = state.current_player()
        shown = set(state.to_dict()["cutter_robbed"] + state.to_dict()["dealer_robbed"]
                    + [c for c in state.to_dict()["exposed"] if c])
        for a in legal:
            kind = a >> layout.KIND_SHIFT
            seen_kinds.add(kind)
            public = kind == layout.DISCARD and state.action_to_string(a).split()[1] in shown
            public_discards += public
            for p in range(4):
                o = int(worlds.observed_action(state.vec, params, a, p))
                if kind == layout.DISCARD and p != mover and not public:
                    assert o == layout.DISCARD_SEEN << layout.KIND_SHIFT
                else:
                    assert o == a
        state.apply_action(choose_random(legal, POLICY, rnd))
    assert {layout.DISCARD, layout.DONE, layout.PLAY} <= seen_kinds
