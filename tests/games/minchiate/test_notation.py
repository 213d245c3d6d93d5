"""Minchiate's notation: position dicts, the action codec, observations and score breakdowns.

- ``from_dict(to_dict(state))`` on states reached by random play (deals and matches, many rules
  variants, every phase) gives the same dict, the same state vector (the deal order aside, which
  ``from_dict`` fills with ``UNKNOWN``), the same legal actions and breakdown, and plays on
  identically.
- Actions: dict and text round trips for every legal action met in play, the observed discard.
- Observations: no hidden card name appears, under each ``fola_visibility``; what the Fola
  shows to whom; two states that differ only in hidden cards look the same.
- Score breakdowns: per-team lists that add up to the points, the experiment store's categories.

What ``from_dict`` and the action codec reject is in ``test_errors.py``.
"""
from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from cardsim.compiled.order import UNKNOWN
from cardsim.games.minchiate import layout, notation

from .positions import (
    BASE,
    DECL,
    DECLARE,
    DISC,
    DISCARD,
    DONE,
    PLAY,
    SEEN,
    aid,
    game,
    idx,
    move,
    play_position,
    random_state,
    rebuild,
    walk,
)

KEYS = ["game", "rules", "mode", "deal_number", "phase", "dealer", "cutter", "to_move", "hands",
        "cutter_robbed", "seen_bottom", "exposed", "dealer_robbed", "discards", "to_discard",
        "fola", "fola_open", "declared", "declared_done", "bonus_claimed", "leader", "trick",
        "tricks_played", "tricks_won", "played", "suits_led", "excluded", "piles",
        "matto_team", "matto_debt", "last_winner", "points", "D", "resti", "paid_card",
        "matto_given", "net", "net_total", "start_dealer", "rng"]
ORDER_WORDS = slice(layout.ORDER, layout.ORDER + layout.ORDER_WORDS)

VARIANTS = [
    {},
    {"declaration_mode": "all"},
    {"declaration_timing": "after_own_first_card"},
    {"declaration_timing": "after_own_first_card", "declaration_mode": "all"},
    {"fola_visibility": "suit_counts", "capot": "it_rules"},
    {"fola_visibility": "hidden"},
    {"cutter_rob": "off", "dealer_rob": "off"},
    {"discard_trumps": False, "expose_last_card": "none"},
    {"decine_four": "two_triples", "matto_bonus_on_matto_combo": True},
    {"deals": 3},
]


def same_vector(a: np.ndarray, b: np.ndarray) -> bool:
    keep = np.ones(len(a), dtype=bool)
    keep[ORDER_WORDS] = False
    return bool(np.array_equal(a[keep], b[keep]))


def _id(o):
    return ",".join(f"{k}={v}" for k, v in o.items()) or "default"


# --- round trips -------------------------------------------------------------------------------

@pytest.mark.parametrize("options", VARIANTS, ids=_id)
def test_round_trip_on_random_play(options):
    g = game(**options)
    phases = set()
    for seed in range(2):
        match = g.rules.deals > 1
        states = list(walk(g, seed, match, 0.5 if seed else 0.9))
        for i, (s, a) in enumerate(states):
            if i % 3 and a is not None and s.to_dict()["tricks_played"] > 1:
                continue            # every state of the start, a third of the play
            d = s.to_dict()
            phases.add(d["phase"])
            assert list(d) == KEYS
            t = rebuild(g, d)
            assert t.to_dict() == d
            assert same_vector(t.vec, s.vec)
            assert t.legal_actions() == s.legal_actions()
            assert t.current_player() == s.current_player()
            assert t.returns() == s.returns()
            assert t.score_breakdown() == s.score_breakdown()
            if i % 40 == 0:         # the rebuilt state plays on exactly like the original
                for s2, a2 in states[i:]:
                    assert same_vector(t.vec, s2.vec)
                    if a2 is None:
                        assert t.is_terminal()
                        break
                    t.apply_action(a2)
    assert "play" in phases and phases & {"deal_over", "match_over"}


def test_round_trip_every_phase():
    seen = set()
    for options in ({}, {"declaration_timing": "after_own_first_card"}, {"deals": 2}):
        g = game(**options)
        for seed in range(3):
            for s, _ in walk(g, seed, g.rules.deals > 1, 0.7):
                d = s.to_dict()
                if d["phase"] not in seen:
                    seen.add(d["phase"])
                    assert rebuild(g, d).to_dict() == d
    assert seen == {"discard", "declare", "play", "deal_over", "match_over"}


def test_match_plays_on_into_later_deals():
    g = game(deals=3)
    s = g.new_match(5)
    rnd = random.Random(1)
    for _ in range(30):
        s.apply_action(g.definition.choose_random(s.legal_actions(), (1.0,), rnd))
    t = rebuild(g, s.to_dict())
    deals = set()
    while not s.is_terminal():
        a = g.definition.choose_random(s.legal_actions(), (1.0,), rnd)
        s.apply_action(a)
        t.apply_action(a)
        assert same_vector(t.vec, s.vec)
        deals.add(s.to_dict()["deal_number"])
    assert deals == {1, 2, 3}
    assert s.to_dict()["phase"] == "match_over"


def test_from_dict_deal_order_is_unknown():
    g = game()
    vec = notation.from_dict(g.new_deal(3).to_dict(), g.rules)
    order = vec[ORDER_WORDS].view(np.uint8)
    assert list(order[:97]) == [UNKNOWN] * 97


def test_to_dict_fresh_deal():
    g = game()
    d = g.new_deal(1).to_dict()
    assert d["cutter"] == (d["dealer"] + 3) % 4
    assert sum(len(h) for h in d["hands"]) + len(d["fola"]) == 97
    assert d["leader"] is None and d["trick"] == [] and d["net"] is None
    assert all(d["exposed"][s] in d["hands"][s] for s in range(4))
    assert set(d["points"]) == set(layout.SOURCES)


def test_built_positions_are_valid():
    g = game()
    for d in (BASE(), DISC(), DECL()):
        assert rebuild(g, d).to_dict() == d
    # the King rule example MI-EX-10 from a built position
    d = play_position({3: "Kcu 8cu M"}, trick=[[1, "5cu"], [2, "T12"]], tricks_played=4,
                      suits_led=["co"])
    s = rebuild(g, d)
    assert s.legal_actions() == [aid(PLAY, idx("Kcu"))]


# --- actions -----------------------------------------------------------------------------------

def test_action_round_trips_in_play():
    for options in ({}, {"declaration_timing": "after_own_first_card"}):
        g = game(**options)
        kinds = set()
        for seed in range(2):
            for s, _ in walk(g, seed, declare_probability=0.8):
                for a in s.legal_actions():
                    d = s.action_to_dict(a)
                    text = s.action_to_string(a)
                    assert json.loads(json.dumps(d)) == d
                    assert s.action_from_dict(d) == a
                    assert notation.action_id(notation.action_from_string(text)) == a
                    kinds.add(a >> 8)
        assert kinds == {PLAY, DISCARD, DECLARE, DONE}


def test_action_forms():
    vec = game().new_deal(0).vec
    cases = [
        (aid(PLAY, idx("T29")), {"play": "T29"}, "play T29"),
        (aid(DISCARD, idx("6cu")), {"discard": "6cu"}, "discard 6cu"),
        (aid(DECLARE, layout.RUN_ID[27, 30]), {"declare": ["T28", "T29", "T30", "T31"]},
         "declare T28+T29+T30+T31"),
        (aid(DECLARE, layout.KINGS_THREE + 3), {"declare": ["Kco", "Kcu", "Ksw"]},
         "declare Kco+Kcu+Ksw"),
        (aid(DECLARE, layout.MATTO_1_40), {"declare": ["T1", "T40", "M"]},
         "declare T1+T40+M"),
        (aid(DONE, 0), {"done": True, "bonus": False}, "done"),
        (aid(DONE, 1), {"done": True, "bonus": True}, "done bonus"),
        (aid(SEEN), {"discard": None}, "discard"),
    ]
    for a, d, text in cases:
        assert notation.action_to_dict(vec, int(a)) == d
        assert notation.action_to_string(vec, int(a)) == text
    assert notation.action_id({"declare": ["T31", "T30", "T29", "T28"]}) == \
        aid(DECLARE, layout.RUN_ID[27, 30])          # any order of the cards
    assert notation.action_id({"done": True}) == aid(DONE, 0)


# --- observations ------------------------------------------------------------------------------

def strings(x):
    """Every string inside a JSON-like value."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from strings(v)


def hidden_names(d: dict, player: int, options: dict) -> set[str]:
    """Restated from rules §6 on the position dict: other hands less the shown cards still
    held, other discards and the Fola unless opened (the dealer saw the Fola's own part while
    robbing; shown cards that were discarded are public; the seen bottom card is public)."""
    shown = [set() for _ in range(4)]
    shown[d["cutter"]] |= set(d["cutter_robbed"])
    shown[d["dealer"]] |= set(d["dealer_robbed"])
    for s in range(4):
        if d["exposed"][s]:
            shown[s].add(d["exposed"][s])
        for combo in d["declared"][s]:
            shown[s] |= set(combo)
        if d["bonus_claimed"][s]:
            shown[s].add("M")
    out = set()
    for s in range(4):
        if s != player:
            out |= set(d["hands"][s]) - shown[s]
    if not d["fola_open"]:
        discards = {c for x in d["discards"] for c in x}
        known = set(d["discards"][player]) | {d["seen_bottom"]}
        known |= {c for s in range(4) for c in d["discards"][s] if c in shown[s]}
        if player == d["dealer"] and options.get("dealer_rob", "auto_all") == "auto_all":
            known |= set(d["fola"]) - discards
        out |= set(d["fola"]) - known
    return out


@pytest.mark.parametrize("visibility", ["open", "suit_counts", "hidden"])
def test_observation_hides_what_it_must(visibility):
    options = {"fola_visibility": visibility}
    g = game(**options)
    checked = 0
    for seed in range(2):
        for i, (s, _) in enumerate(walk(g, seed, declare_probability=0.7)):
            d = s.to_dict()
            if i % 4 and d["tricks_played"] > 0:
                continue
            for p in range(4):
                obs = s.observation(p)
                json.dumps(obs)
                hidden = hidden_names(d, p, options)
                assert hidden == set(notation.names(notation.hidden_cards(s.vec, g.rules, p)))
                shown = dict(obs)
                assert shown.pop("excluded") == d["excluded"]   # names cards, never where
                leaked = hidden & set(strings(shown))
                assert not leaked, (p, d["phase"], leaked)
                assert obs["hand"] == d["hands"][p]
                assert obs["hand_sizes"] == [len(h) for h in d["hands"]]
                assert "rng" not in obs and "hands" not in obs
                checked += 1
    assert checked > 100


def test_observation_of_the_fola():
    s = random_state(0, "discard")
    d = s.to_dict()
    dealer, cutter = d["dealer"], d["cutter"]
    base = set(d["fola"]) - {c for x in d["discards"] for c in x}
    assert set(s.observation(dealer)["fola"]) >= base           # he saw it while robbing
    other = next(p for p in range(4) if p not in (dealer, cutter))
    assert set(s.observation(other)["fola"]) <= {d["seen_bottom"]}
    assert s.observation(other)["discards"][cutter] is None
    assert s.observation(cutter)["discards"][cutter] == d["discards"][cutter]
    t = random_state(0, "play")
    e = t.to_dict()
    assert e["fola_open"]
    assert t.observation(other)["fola"] == e["fola"]
    assert t.observation(other)["discards"] == e["discards"]
    assert t.observation(other)["fola_suit_counts"] is None


def test_suit_counts_from_the_first_lead():
    s = random_state(0, "play", fola_visibility="suit_counts")
    assert s.to_dict()["trick"] == [] and s.to_dict()["tricks_played"] == 0
    assert s.observation(1)["fola_suit_counts"] is None
    s.apply_action(s.legal_actions()[0])
    counts = s.observation(1)["fola_suit_counts"]
    fola = s.to_dict()["fola"]
    assert counts == {x: sum(c.endswith(x) and c[0] != "T" for c in fola)
                      for x in ("co", "cu", "sw", "ba")}
    assert not s.to_dict()["fola_open"]


def test_observation_same_for_swapped_hidden_cards():
    """Two positions that differ only by cards hidden from seat 1 look the same to him."""
    g = game()
    d = BASE()
    e = copy.deepcopy(d)
    hidden0 = [c for c in e["hands"][0] if c not in e["dealer_robbed"] and c != e["exposed"][0]
               and c not in e["excluded"][2]]
    hidden2 = [c for c in e["hands"][2] if c != e["exposed"][2] and c not in e["excluded"][0]
               and layout.VALUE[idx(c)] == layout.VALUE[idx(hidden0[0])]]
    a, b = hidden0[0], hidden2[0]
    move(e, a, ("hands", 0), ("hands", 2))
    move(e, b, ("hands", 2), ("hands", 0))
    s, t = rebuild(g, d), rebuild(g, e)
    assert s.observation(1) == t.observation(1)
    assert s.observation(0) != t.observation(0)


def test_observation_known_cards():
    g = game()
    s = rebuild(g, BASE())
    obs = s.observation(0)
    assert set(obs["known_cards"][3]) >= {"T38", "Kcu", "T24"} & set(s.to_dict()["hands"][3])
    assert obs["exposed"] == s.to_dict()["exposed"]


# --- score breakdowns --------------------------------------------------------------------------

def test_score_breakdown_adds_up():
    from cardsim.protocol.outcome import score_columns, seat_scores
    for options in ({}, {"capot": "it_rules", "declaration_mode": "all"}):
        g = game(**options)
        for seed in range(3):
            for s, _ in walk(g, seed, declare_probability=1.0):
                pass
            b = s.score_breakdown()
            d = s.to_dict()
            for src in layout.SOURCES:
                assert b[src] == d["points"][src]
            assert b["total"] == [sum(d["points"][x][t] for x in layout.SOURCES)
                                  for t in range(2)]
            assert b["tricks"] == d["tricks_won"] and b["resti"] == d["resti"]
            assert b["net"] == [d["net"], -d["net"]]
            assert b["net"][0] == s.returns()[0] == -s.returns()[1]
            assert b["D"] == d["D"]
            counted = sum(sum(b[f"declared_{k}"]) for k in layout.COMBO_KINDS)
            assert counted == sum(len(x) for x in d["declared"])
            cats = score_columns(seat_scores(s, 4))
            for src in g.definition.categories:
                for seat in range(4):
                    assert cats[f"cat_{src}_{seat}"] == b[src][seat & 1]


def test_score_breakdown_before_the_end():
    b = rebuild(game(), BASE()).score_breakdown()
    assert b["net"] == [0, 0] and b["pile"] == [0, 0]
    assert b["cutter_rob"] == [0, 15]        # T38 10 + Kcu 5 + T24 0 for team B (seat 3)
    assert b["dealer_rob"] == [10, 0]        # T40 10 + T29 0 for team A (seat 0)
