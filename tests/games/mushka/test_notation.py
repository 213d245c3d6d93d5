"""Mushka's notation: position dicts, the action codec, observations and score breakdowns.

- ``from_dict(to_dict(state))`` on states reached by random play (deals and matches, many rules
  variants, every phase) gives the same dict, the same legal actions, and plays on identically
  (the same actions give the same positions, later deals of a match included).
- Actions: dict and text round trips for every legal action met in play, the observed forms.
- Observations: two states that differ only in cards hidden from a player look the same to
  him; no hidden card name appears; the ace holder only once public (or to himself).
- Score breakdowns: the categories add up to the record change; the clamped ace bonus; remises.

What ``from_dict`` and the action codec reject is in ``test_errors.py``.
"""
from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

import cardsim
from cardsim.compiled.order import UNKNOWN
from cardsim.errors import PositionError
from cardsim.games.mushka import layout, notation
from cardsim.games.mushka.layout import DECK as MUSHKA
from tests.games.mushka.positions import (
    DISCARD,
    EXCHANGE,
    PASS,
    PLAY,
    PLAY_ON,
    SEEN,
    STAND,
    STOP,
    aid,
    reach,
    rebuild,
    walk,
)
from tests.helpers import game_loader

KEYS = ["game", "rules", "mode", "phase", "dealer", "to_move", "deal_number", "trump_card",
        "trump_taken", "records", "start_records", "hands", "discards", "decisions", "stock",
        "active", "ace_holder", "ace_bonus_taken", "leader", "trick", "tricks_won",
        "tricks_played", "lone_tricks_left", "played", "excluded", "stop_offer", "void",
        "stopper", "winners", "rng"]
POLICY = (0.25, 0.25, 0.5)

VARIANTS = [
    {},
    {"num_players": 3},
    {"num_players": 7},
    {"num_players": 5, "deck": "36"},
    {"stop_mode": "declared"},
    {"stop_mode": "declared", "ace_bonus_timing": "end_of_deal", "overshoot_reset": "start"},
    {"ace_bonus_timing": "end_of_deal"},
    {"dealer_takes_trump_card": True, "must_overtrump": True, "must_head_trick": True},
    {"lone_player": "redeal"},
    {"max_deals": 10},
    {"stop_mode": "declared", "max_deals": 10, "start_points": 30,
     "ace_of_spades_discardable": True},
]

game = game_loader("mushka")


# --- round trips -------------------------------------------------------------------------------

@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in
                                                                      o.items()) or "default")
def test_round_trip_on_random_play(options):
    g = game(**options)
    phases = set()
    for seed in range(6):
        match = seed % 2 == 1
        states = list(walk(g, seed, match, 0.25 if seed % 3 else 0.6, limit=120))
        for i, (s, a) in enumerate(states):
            d = s.to_dict()
            phases.add(d["phase"])
            assert list(d) == KEYS
            t = rebuild(g, d)
            assert t.to_dict() == d
            assert t.legal_actions() == s.legal_actions()
            assert t.current_player() == s.current_player()
            assert t.returns() == s.returns()
            assert t.score_breakdown() == s.score_breakdown()
            if i % 7 == 0:      # the rebuilt state plays on exactly like the original
                for s2, a2 in states[i:]:
                    assert t.to_dict() == s2.to_dict()
                    if a2 is None:
                        assert t.is_terminal()
                        break
                    t.apply_action(a2)
    assert {"exchange", "play"} <= phases


def low_deal(g, seed: int, low: int = 1, high: int = 4):
    """A fresh deal whose records (and start records) are drawn from ``low..high``."""
    d = g.new_deal(seed).to_dict()
    rnd = random.Random(seed)
    d["records"] = d["start_records"] = [rnd.randint(low, high) for _ in d["records"]]
    return rebuild(g, d)


def test_round_trip_every_phase():
    seen = set()
    for options in ({"stop_mode": "declared", "dealer_takes_trump_card": True},
                    {"stop_mode": "declared", "ace_bonus_timing": "end_of_deal"}):
        g = game(**options)
        for seed in range(150):
            s = low_deal(g, seed, 0, 3)
            rnd = random.Random(seed)
            while True:
                d = s.to_dict()
                key = (d["phase"], d["stop_offer"]["at"] if d["stop_offer"] else None)
                if key not in seen:
                    seen.add(key)
                    assert rebuild(g, d).to_dict() == d
                if s.is_terminal():
                    break
                s.apply_action(g.definition.choose_random(s.legal_actions(), (0.4, 0.2, 0.3),
                                                          rnd))
    assert {("discard", None), ("exchange", None), ("play", None), ("stop", "play"),
            ("stop", "bonus"), ("stop", "end"), ("deal_over", None)} <= seen


def test_round_trip_from_low_records():
    """Stops, clamps, overshoot resets and lone players: positions from records near 0."""
    for options in ({}, {"stop_mode": "declared"},
                    {"stop_mode": "declared", "ace_bonus_timing": "end_of_deal"}):
        g = game(**options)
        for seed in range(40):
            s = low_deal(g, seed, 0 if options else 1, 4)
            rnd = random.Random(seed)
            while True:
                d = s.to_dict()
                assert rebuild(g, d).to_dict() == d
                assert rebuild(g, d).score_breakdown() == s.score_breakdown()
                if s.is_terminal():
                    break
                s.apply_action(g.definition.choose_random(s.legal_actions(), (0.5, 0.2, 0.5),
                                                          rnd))


def test_match_plays_on_into_later_deals():
    g = game()
    s = g.new_match(5)
    rnd = random.Random(1)
    for _ in range(12):
        s.apply_action(g.definition.choose_random(s.legal_actions(), POLICY, rnd))
    t = rebuild(g, s.to_dict())
    deals = set()
    while not s.is_terminal():
        a = g.definition.choose_random(s.legal_actions(), POLICY, rnd)
        s.apply_action(a)
        t.apply_action(a)
        assert t.to_dict() == s.to_dict()
        deals.add(s.to_dict()["deal_number"])
    assert len(deals) >= 2


def test_from_dict_deal_order():
    """The stock fills the last positions of the deal order; NEXT = deck size - stock size
    (5n + 1 before any draw); the dealt positions are UNKNOWN."""
    g = game()
    d = g.new_deal(3).to_dict()
    vec = notation.from_dict(d, g.rules)
    assert int(vec[layout.NEXT]) == 21
    order = vec[layout.ORDER:layout.ORDER + layout.ORDER_WORDS].view(np.uint8)
    assert list(order[:21]) == [UNKNOWN] * 21
    assert [MUSHKA.name(c) for c in order[21:32]] == d["stock"]
    s = g.from_dict(d)
    seat = s.current_player()
    legal = [a for a in s.legal_actions() if a >> 52 == EXCHANGE
             and bin(a & ((1 << 52) - 1)).count("1") == 3]
    s.apply_action(legal[0])
    after = s.to_dict()
    assert after["stock"] == d["stock"][3:]
    assert set(d["stock"][:3]) <= set(after["hands"][seat])
    assert int(notation.from_dict(after, g.rules)[layout.NEXT]) == 24


def test_to_dict_fresh_deal():
    g = game()
    d = g.new_deal(11).to_dict()
    assert d["game"] == "mushka" and d["mode"] == "deal" and d["phase"] == "exchange"
    assert d["rules"]["deck"] == "auto" and d["rules"]["max_deals"] is None
    assert d["to_move"] == (d["dealer"] + 1) % 4
    assert [len(h) for h in d["hands"]] == [5] * 4 and len(d["stock"]) == 11
    assert all(h == sorted(h, key=MUSHKA.index) for h in d["hands"])
    assert d["active"] == [] and d["ace_holder"] is None and d["leader"] is None
    assert d["decisions"] == [None] * 4 and d["records"] == d["start_records"] == [25] * 4
    assert d["stop_offer"] is None and d["stopper"] is None and d["winners"] == []


def test_excluded_stays_within_the_deck():
    """A 32-card deck: not following suit excludes the deck's cards of the suit only."""
    g = game()
    s = reach(g, lambda d: any(len(x) > 1 for x in d["excluded"]))
    d = s.to_dict()
    deck = set(MUSHKA.names(g.rules.deck_mask))
    assert all(set(x) <= deck for x in d["excluded"])


# --- actions -------------------------------------------------------------------------------------

def expected_text(a: int) -> str:
    kind, cards = a >> 52, MUSHKA.names(a & ((1 << 52) - 1))
    word = ["play", "exchange", "stand", "pass", "discard", "stop", "play_on"][kind]
    return f"{word} {'+'.join(cards)}" if cards else word


def expected_dict(a: int) -> dict:
    kind, cards = a >> 52, MUSHKA.names(a & ((1 << 52) - 1))
    return [{"play": cards[0] if cards else None}, {"exchange": cards}, {"stand": True},
            {"pass": True}, {"discard": cards[0] if cards else None}, {"stop": True},
            {"stop": False}][kind]


def test_action_round_trips_in_play():
    kinds = set()
    for options in ({"stop_mode": "declared", "dealer_takes_trump_card": True}, {}):
        g = game(**options)
        for seed in range(25):
            s = low_deal(g, seed, 1, 3)
            rnd = random.Random(seed)
            while not s.is_terminal():
                for a in s.legal_actions():
                    kinds.add(a >> 52)
                    d = s.action_to_dict(a)
                    assert d == expected_dict(a)
                    assert s.action_to_string(a) == expected_text(a)
                    assert s.action_from_dict(json.loads(json.dumps(d))) == a
                s.apply_action(g.definition.choose_random(s.legal_actions(), POLICY, rnd))
    assert kinds == {PLAY, EXCHANGE, STAND, PASS, DISCARD, STOP, PLAY_ON}


def test_action_forms():
    g = game()
    vec = g.new_deal(1).vec
    assert notation.action_to_string(vec, aid(EXCHANGE, ["9d", "7c"])) == "exchange 7c+9d"
    assert notation.action_to_dict(vec, aid(EXCHANGE, ["9d", "7c"])) == {"exchange": ["7c", "9d"]}
    assert notation.action_to_string(vec, aid(PLAY, ["Th"])) == "play Th"
    assert notation.action_to_dict(vec, aid(PLAY_ON)) == {"stop": False}
    assert notation.action_parts(aid(DISCARD, ["8s"])) == (DISCARD, 1 << MUSHKA.index("8s"))


def test_observed_action_forms():
    vec = game().new_deal(1).vec
    assert notation.action_to_dict(vec, SEEN << 52 | 3) == {"exchange": 3}
    assert notation.action_to_string(vec, SEEN << 52 | 3) == "exchange 3"
    assert notation.action_to_dict(vec, DISCARD << 52) == {"discard": None}
    assert notation.action_to_string(vec, DISCARD << 52) == "discard"


# --- observations ---------------------------------------------------------------------------------

def hidden_cards(d: dict, player: int) -> set:
    """Cards ``player`` cannot see: other hands and discards, the stock (the taken turned card
    is public)."""
    out = set(d["stock"])
    for s in range(len(d["hands"])):
        if s != player:
            out |= set(d["hands"][s]) | set(d["discards"][s])
    if d["trump_taken"]:
        out.discard(d["trump_card"])
    return out


def test_observation_shows_no_hidden_card():
    for options in ({}, {"dealer_takes_trump_card": True}, {"num_players": 6}):
        g = game(**options)
        for seed in range(8):
            for s, _ in walk(g, seed, match=False):
                d = s.to_dict()
                for p in range(g.num_players):
                    obs = s.observation(p)
                    assert obs["hand"] == d["hands"][p]
                    assert obs["discards"] == d["discards"][p]
                    assert obs["stock_size"] == len(d["stock"])
                    shown = dict(obs)
                    del shown["excluded"]         # lists cards, never where they are
                    text = json.dumps(shown)
                    for c in hidden_cards(d, p):
                        assert f'"{c}"' not in text, (c, p, shown)
                    assert "rng" not in obs and "stock" not in obs and "hands" not in obs


def swap_hidden(d: dict, player: int, rnd: random.Random) -> dict:
    """The same position with the cards hidden from ``player`` (other hands, discards and
    the stock, sizes kept) dealt again at random, each hand avoiding its excluded cards and
    the ace of spades staying where the rules make its place public."""
    n = len(d["hands"])
    fixed = {d["trump_card"]} if d["trump_taken"] else set()
    if d["ace_bonus_taken"] or any("As" in x for x in d["played"]) \
            or d["trump_card"] == "As":
        fixed.add("As")
    places = [("stock", None)] + [(k, s) for s in range(n) if s != player
                                  for k in ("hands", "discards")]
    for _ in range(1000):
        e = copy.deepcopy(d)
        pool = [c for k, s in places for c in (e[k] if s is None else e[k][s]) if c not in fixed]
        rnd.shuffle(pool)
        for k, s in places:
            cur = e[k] if s is None else e[k][s]
            new = [c if c in fixed else pool.pop() for c in cur]
            if k != "stock":
                new.sort(key=MUSHKA.index)
            if s is None:
                e[k] = new
            else:
                e[k][s] = new
        ok = all(not set(e["hands"][s]) & set(e["excluded"][s]) for s in range(n))
        ok = ok and not any("As" in e["discards"][s] for s in range(n))
        ok = ok and not any("As" in e["hands"][s] for s in range(n)
                            if e["decisions"][s] == "pass")
        if ok:
            if e["active"]:
                e["ace_holder"] = next((s for s in e["active"]
                                        if "As" in e["hands"][s] + e["played"][s]), None)
            return e
    raise AssertionError("no world")


def test_observation_same_for_states_differing_in_hidden_cards():
    rnd = random.Random(7)
    compared = 0
    for options in ({}, {"ace_bonus_timing": "end_of_deal"}):
        g = game(**options)
        for seed in range(10):
            for s, _ in walk(g, seed, match=False):
                d = s.to_dict()
                if d["phase"] in ("deal_over", "match_over") or rnd.random() < 0.7:
                    continue
                p = rnd.randrange(g.num_players)
                try:
                    e = swap_hidden(d, p, rnd)
                except AssertionError:
                    continue
                try:
                    t = g.from_dict(e)
                except PositionError:
                    continue       # e.g. the new cards break a remembered inference
                assert t.observation(p) == s.observation(p)
                compared += 1
    assert compared > 50


def test_ace_holder_hidden_until_public():
    g = game()
    s = reach(g, lambda d: d["phase"] == "play" and d["tricks_played"] == 0 and not d["trick"]
              and d["ace_holder"] is not None and d["trump_card"] != "As")
    d = s.to_dict()
    holder = d["ace_holder"]
    other = next(p for p in range(4) if p != holder)
    assert s.observation(other)["ace_holder"] is None
    assert s.observation(other)["ace_holder_known"] is False
    assert s.observation(holder)["ace_holder"] == holder
    assert s.observation(holder)["ace_holder_known"] is True
    # once the bonus is written off everyone knows
    t = reach(g, lambda d: d["ace_bonus_taken"] and d["phase"] == "play")
    h = t.to_dict()["ace_holder"]
    assert all(t.observation(p)["ace_holder"] == h for p in range(4))


def test_observation_of_the_taken_trump_card():
    g = game(dealer_takes_trump_card=True)
    s = g.new_deal(2)
    d = s.to_dict()
    other = (d["dealer"] + 1) % 4
    obs = s.observation(other)
    assert obs["known_cards"][d["dealer"]] == [d["trump_card"]]
    assert obs["hand_sizes"][d["dealer"]] == 6


def test_observation_bad_player():
    s = game().new_deal(1)
    with pytest.raises(cardsim.errors.CardsimError):
        s.observation(4)


# --- score breakdown ------------------------------------------------------------------------------

def test_score_breakdown_adds_up():
    """Without overshoot (stop_mode=automatic) the record change is tricks + ace bonus -
    remise, and it is the deal's return."""
    for options in ({}, {"ace_bonus_timing": "end_of_deal"}, {"num_players": 5}):
        g = game(**options)
        for seed in range(30):
            s = g.new_deal(seed)
            d = s.to_dict()
            d["records"] = d["start_records"] = [random.Random(seed).randint(1, 9)] * \
                g.num_players if seed % 2 else d["records"]
            s = rebuild(g, d)
            rnd = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(g.definition.choose_random(s.legal_actions(), POLICY, rnd))
            b = s.score_breakdown()
            assert set(b) == {"tricks", "ace_bonus", "remise", "record_change", "records"}
            for p in range(g.num_players):
                assert b["record_change"][p] == b["tricks"][p] + b["ace_bonus"][p] \
                    - b["remise"][p]
            assert [float(x) for x in b["record_change"]] == s.returns()


def lone_holder_position(g, record: int):
    """Everyone but the dealer passed; the dealer, holding As, decides last; his record
    ``record``."""
    for seed in range(500):
        s = g.new_deal(seed)
        d = s.to_dict()
        if "As" not in d["hands"][d["dealer"]] or d["trump_card"][1] == "s":
            continue
        while s.current_player() != d["dealer"]:
            s.apply_action(aid(PASS))
        d = s.to_dict()
        d["records"][d["dealer"]] = d["start_records"][d["dealer"]] = record
        return g.from_dict(d)
    raise AssertionError("no deal found")


def test_clamped_ace_bonus():
    """MU-EX-11: record 4, the holder's first trick 4 - 1 = 3, bonus 5 clamps to 3: 0, stop."""
    g = game()
    s = lone_holder_position(g, 4)
    dealer = s.to_dict()["dealer"]
    s.apply_action(aid(STAND))
    d = s.to_dict()
    assert d["stopper"] == dealer and d["records"][dealer] == 0 and d["lone_tricks_left"] == 4
    b = s.score_breakdown()
    assert b["tricks"][dealer] == 1 and b["ace_bonus"][dealer] == 3
    assert b["remise"] == [0] * 4 and b["record_change"][dealer] == 4
    assert rebuild(g, d).score_breakdown() == b


def test_lone_holder_full_bonus():
    """MU-EX-15: the lone dealer with As is credited 5 tricks and the bonus: 25 - 5 - 5."""
    g = game()
    s = lone_holder_position(g, 25)
    dealer = s.to_dict()["dealer"]
    s.apply_action(aid(STAND))
    b = s.score_breakdown()
    assert b["records"][dealer] == 15
    assert (b["tricks"][dealer], b["ace_bonus"][dealer], b["remise"][dealer]) == (5, 5, 0)


def test_remise_of_the_ace_holder():
    """MU-EX-10: the holder without a trick adds 10."""
    g = game()
    for seed in range(300):
        s = g.new_deal(seed)
        rnd = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(g.definition.choose_random(s.legal_actions(), POLICY, rnd))
        d = s.to_dict()
        h = d["ace_holder"]
        if h is not None and d["tricks_won"][h] == 0 and d["stopper"] is None:
            b = s.score_breakdown()
            assert b["remise"][h] == 10 and b["ace_bonus"][h] == 0
            assert b["records"][h] == d["start_records"][h] + 10
            return
    raise AssertionError("no such deal")


def test_declared_stop_at_end_keeps_the_remises():
    """stop_mode=declared: a stop at an end-of-deal offer comes after the remises; from_dict
    infers it from the records, so the breakdown survives the round trip."""
    g = game(stop_mode="declared")
    found = 0
    for seed in range(300):
        s = g.new_deal(seed)
        d = s.to_dict()
        d["records"] = d["start_records"] = [3, 4, 5, 3]
        s = g.from_dict(d)
        rnd = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            d = s.to_dict()
            if d["phase"] == "stop":
                a = aid(STOP) if d["stop_offer"]["at"] == "end" else aid(PLAY_ON)
            else:
                a = g.definition.choose_random(legal, (0.1, 0.3, 0.5), rnd)
            s.apply_action(a)
        d = s.to_dict()
        b = s.score_breakdown()
        if d["stopper"] is not None and any(b["remise"]):
            assert rebuild(g, d).score_breakdown() == b
            found += 1
    assert found
