"""Hypothesis property tests of Mushka (rules/mushka.md) through the public API.

Seeds, option combinations and player counts (3..7) are drawn by hypothesis; each deal is played
to its end by a seeded random player (pass / stand / exchange chosen by kind first, so that
passes, lone players and void deals all occur). Checked on the position dicts alone:

* the deal (MU-DEAL-1..4): 5 cards each, a stock of deck - 5n - 1, every card once, the same
  seed giving the same deal, the engine's dealing;
* the play (MU-PLAY-1): among the active players exactly 5 tricks, sum of tricks_won equal to
  tricks_played, 5 unless a stop ended the deal or the deal was void;
* the scoring (MU-SCORE-5/6, MU-PASS-1): records never below 0, passed players' records
  unchanged, returns = start_records - records (deal mode), zero-sum match returns;
* the flow: legal actions non-empty exactly until the end, sorted, and the current player the
  engine's ``to_move``.

numba compiles on first use, so every test has ``deadline=None``; ``max_examples`` is kept
small to hold the whole file to a few tens of seconds.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.mushka.positions import ALL52, all_cards, deck_cards, deck_size_for, oracle_deal
from tests.helpers import game_loader

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTION_AXES = {
    "start_points": (25, 30),
    "ace_bonus_timing": ("first_trick", "end_of_deal"),
    "stop_mode": ("automatic", "declared"),
    "overshoot_reset": ("start_minus_excess", "start"),
    "must_overtrump": (False, True),
    "must_head_trick": (False, True),
    "ace_of_spades_discardable": (False, True),
    "dealer_takes_trump_card": (False, True),
    "lone_player": ("takes_all", "redeal"),
}


game = game_loader("mushka")


@st.composite
def rules_st(draw):
    n = draw(st.integers(3, 7))
    decks = ["auto", "36", "52"] + (["32"] if n <= 6 else [])
    opts = {"num_players": n, "deck": draw(st.sampled_from(decks))}
    for name, values in OPTION_AXES.items():
        opts[name] = draw(st.sampled_from(values))
    return opts


def choose(state, r: random.Random) -> int:
    """A random legal action: in the exchange pass / stand / exchange by kind first."""
    legal = state.legal_actions()
    kinds = {}
    for a in legal:
        kinds.setdefault(a >> 52, []).append(a)
    if 1 in kinds or 2 in kinds or 3 in kinds:      # exchange phase
        kind = r.choice(sorted(kinds))
        return r.choice(kinds[kind])
    return r.choice(legal)


def deck_of(opts) -> list[str]:
    return deck_cards(deck_size_for(opts["num_players"], opts["deck"]))


def check_position(d, opts, start_records):
    n = opts["num_players"]
    assert sorted(all_cards(d), key=ALL52.index) == deck_of(opts)
    assert all(r >= 0 for r in d["records"])
    assert d["start_records"] == start_records
    if d["phase"] in ("play", "stop", "deal_over", "match_over") and not d["void"]:
        assert sum(d["tricks_won"]) == d["tricks_played"] <= 5
        for s in range(n):
            if d["decisions"][s] == "pass":
                assert d["records"][s] == d["start_records"][s]
                assert d["tricks_won"][s] == 0 and d["played"][s] == []
                assert len(d["hands"][s]) == 5


def play_deal(state, r, opts, *, records=None):
    """Play one deal to its end, checking the invariants after every step."""
    n = opts["num_players"]
    start = list(records) if records is not None else [opts["start_points"]] * n
    steps = 0
    while not state.is_terminal():
        d = state.to_dict()
        check_position(d, opts, start)
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        assert state.current_player() == d["to_move"]
        assert state.returns() == [0.0] * n
        state.apply_action(choose(state, r))
        steps += 1
        assert steps < 200
    d = state.to_dict()
    check_position(d, opts, start)
    assert state.legal_actions() == [] and state.current_player() == -1
    assert d["to_move"] is None
    return d


@settings(max_examples=40, **SETTINGS)
@given(opts=rules_st(), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**16))
def test_deal_played_out_invariants(opts, seed, choice_seed):
    """MU-DEAL-2/4, MU-PLAY-1, MU-PASS-1/2, MU-SCORE-5/6, MU-STOP-1: a random deal from a
    seed: the deal as the engine deals it, 5 tricks among the actives (unless stopped or
    void), records never below 0, passed records unchanged, returns = start - records."""
    n = opts["num_players"]
    g = game(**opts)
    s = g.new_deal(seed=seed)
    d = s.to_dict()
    exp = oracle_deal(seed, n, opts["deck"])
    size = deck_size_for(n, opts["deck"])
    assert d["dealer"] == exp["dealer"] and d["trump_card"] == exp["trump_card"]
    assert d["stock"] == exp["stock"] and len(d["stock"]) == size - 5 * n - 1
    if opts["dealer_takes_trump_card"]:
        assert d["phase"] == "discard" and d["trump_taken"]
        hands = [list(h) for h in exp["hands"]]
        hands[exp["dealer"]] = sorted(hands[exp["dealer"]] + [exp["trump_card"]],
                                      key=ALL52.index)
        assert d["hands"] == hands
    else:
        assert d["phase"] == "exchange" and d["hands"] == exp["hands"]
        assert [len(h) for h in d["hands"]] == [5] * n
    assert g.new_deal(seed=seed).to_dict() == d          # same seed, same deal
    end = play_deal(s, random.Random(choice_seed), opts)
    if end["void"]:
        assert end["records"] == end["start_records"] and s.returns() == [0.0] * n
        assert end["tricks_won"] == [0] * n
    else:
        active = end["active"]
        assert active == [i for i in range(n) if end["decisions"][i] != "pass"]
        assert len(active) >= 1
        assert sum(end["tricks_won"]) == end["tricks_played"]
        if end["stopper"] is None:
            assert end["tricks_played"] == 5
            if len(active) >= 2:
                assert all(len(end["played"][i]) == 5 for i in active)
                assert all(end["hands"][i] == [] for i in active)
        else:
            assert end["records"][end["stopper"]] == 0
            assert end["winners"] == [end["stopper"]]
    assert s.returns() == pytest.approx(
        [a - b for a, b in zip(end["start_records"], end["records"])])
    assert end["phase"] == "deal_over"


@settings(max_examples=25, **SETTINGS)
@given(opts=rules_st(), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**16),
       records=st.lists(st.integers(1, 40), min_size=7, max_size=7))
def test_deal_from_given_records(opts, seed, choice_seed, records):
    """MU-SCORE-1..6 from given records (``new_deal(seed, records=...)``): low records make
    stops (MU-STOP-1/2) frequent; the same invariants hold."""
    n = opts["num_players"]
    recs = records[:n]
    s = game(**opts).new_deal(seed=seed, records=recs)
    d = s.to_dict()
    assert d["records"] == recs and d["start_records"] == recs
    end = play_deal(s, random.Random(choice_seed), opts, records=recs)
    assert s.returns() == pytest.approx([a - b for a, b in zip(recs, end["records"])])
    if end["stopper"] is not None:
        assert end["records"][end["stopper"]] == 0


@settings(max_examples=12, **SETTINGS)
@given(opts=rules_st(), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**16))
def test_match_invariants(opts, seed, choice_seed):
    """MU-DEAL-1, MU-MATCH-1/2: a match with max_deals=10: the dealer passes to the left
    after every deal, records carry over as the next deal's start records, it ends with a
    stop or after deal 10 with the lowest records winning; returns are zero-sum."""
    n = opts["num_players"]
    g = game(max_deals=10, **opts)
    s = g.new_match(seed=seed)
    r = random.Random(choice_seed)
    d = s.to_dict()
    assert d["dealer"] == oracle_deal(seed, n, opts["deck"])["dealer"]
    assert d["records"] == [opts["start_points"]] * n
    deal_number, dealer, start = 1, d["dealer"], d["start_records"]
    prev = d
    steps = 0
    while not s.is_terminal():
        d = s.to_dict()
        if d["deal_number"] != deal_number:
            assert d["deal_number"] == deal_number + 1
            assert d["dealer"] == (dealer + 1) % n
            # the new deal starts from the records the last one ended with
            assert d["records"] == d["start_records"]
            for i in range(n):
                if prev["decisions"][i] == "pass" or prev["void"]:
                    assert d["start_records"][i] == prev["records"][i]
            deal_number, dealer, start = d["deal_number"], d["dealer"], d["start_records"]
        check_position(d, opts, start)
        assert all(r_ >= 0 for r_ in d["records"])
        assert s.legal_actions()
        prev = d
        s.apply_action(choose(s, r))
        steps += 1
        assert steps < 10 * 200
    d = s.to_dict()
    assert d["phase"] == "match_over" and d["winners"]
    if d["stopper"] is not None:
        assert d["winners"] == [d["stopper"]] and d["records"][d["stopper"]] == 0
    else:
        assert d["deal_number"] == 10
        low = min(d["records"])
        assert d["winners"] == [i for i in range(n) if d["records"][i] == low]
    ret = s.returns()
    assert sum(ret) == pytest.approx(0)
    k = len(d["winners"])
    for i in range(n):
        assert ret[i] == pytest.approx((n - k) / (n - 1) / k if i in d["winners"]
                                       else -1 / (n - 1))


@settings(max_examples=20, **SETTINGS)
@given(opts=rules_st(), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**16),
       cut=st.integers(0, 40))
def test_to_dict_from_dict_round_trip(opts, seed, choice_seed, cut):
    """The position dict: ``from_dict(to_dict())`` rebuilds the same position, with the
    same legal actions, at any point of a random deal."""
    g = game(**opts)
    s = g.new_deal(seed=seed)
    r = random.Random(choice_seed)
    for _ in range(cut):
        if s.is_terminal():
            break
        s.apply_action(choose(s, r))
    d = s.to_dict()
    t = g.from_dict(d)
    assert t.to_dict() == d
    assert t.legal_actions() == s.legal_actions()
    assert t.current_player() == s.current_player()
    assert t.returns() == s.returns()


def _names(obj, skip=("excluded",)):
    """Every card name in a JSON-like observation, outside the keys ``skip`` (the excluded
    lists name cards that are *not* in a hand, which reveals nothing hidden)."""
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


@settings(max_examples=20, **SETTINGS)
@given(opts=rules_st(), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**16),
       cut=st.integers(0, 40), world_seed=st.integers(0, 2**16))
def test_observation_hides_and_sample_world_agrees(opts, seed, choice_seed, cut, world_seed):
    """Rules §5 (information): a player's observation names no card hidden from him (other
    hands, passed hands, the stock, others' discards); a world sampled for him looks the same
    to him, keeps every card once, and respects the public constraints (passers and discards
    never hold As unless discardable; no hand holds a card excluded from it)."""
    n = opts["num_players"]
    g = game(**opts)
    s = g.new_deal(seed=seed)
    r = random.Random(choice_seed)
    for _ in range(cut):
        if s.is_terminal():
            break
        s.apply_action(choose(s, r))
    d = s.to_dict()
    for p in range(n):
        obs = s.observation(p)
        visible = set(d["hands"][p]) | set(d["discards"][p]) | {d["trump_card"]}
        for played in d["played"]:
            visible |= set(played)
        assert _names(obs) <= visible, (p, _names(obs) - visible)
        w = s.sample_world(p, world_seed)
        wd = w.to_dict()
        assert w.observation(p) == obs
        assert wd["hands"][p] == d["hands"][p] and wd["discards"][p] == d["discards"][p]
        assert [len(h) for h in wd["hands"]] == [len(h) for h in d["hands"]]
        assert [len(x) for x in wd["discards"]] == [len(x) for x in d["discards"]]
        assert len(wd["stock"]) == len(d["stock"])
        assert sorted(all_cards(wd), key=ALL52.index) == deck_of(opts)
        for i in range(n):
            assert not set(wd["hands"][i]) & set(d["excluded"][i])
            if d["decisions"][i] == "pass":
                assert "As" not in wd["hands"][i]
            if not opts["ace_of_spades_discardable"]:
                assert "As" not in wd["discards"][i]
        if not s.is_terminal() and s.current_player() == p:
            assert w.legal_actions() == s.legal_actions()
        assert g.from_dict(wd).to_dict() == wd
