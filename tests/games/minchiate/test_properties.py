"""Hypothesis property tests of Minchiate (rules/minchiate.md) through the public API.

Seeds and option combinations are drawn by hypothesis; each deal is played to its end by a
seeded random player. Checked on the position dicts alone, against the rules:

* the deal (MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1): the engine's deal from the seed, robbed
  count <= 13 and 97 - k >= 84, every card once;
* the flow (MI-PLAY-1): legal actions non-empty exactly until the end, 21 tricks;
* the end (MI-END-1..3, MI-MATTO-5): 84 cards in the piles, each a multiple of 4 (or 0 and 84
  when the Matto was given away), 142 card points over the piles and the Fola, exactly 142 in
  the piles when the Fola holds no counting card; the end sources as the rules compute them;
* the resti (MI-RESTO-1..4): the final D equals sum A - sum B - 60 x (resti made by
  conversion A - B), the final rounding per MI-RESTO-3, net = resti A - resti B;
* the returns: zero-sum per team, equal for partners, zero before the end.

numba compiles on first use, so every test has ``deadline=None``.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.minchiate.test_rules import (
    ALL97,
    IDX,
    all_cards,
    end_scoring,
    final_rounding,
    game,
    oracle,
    total,
    value,
)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTION_AXES = {
    "cutter_rob": ("auto", "off"),
    "dealer_rob": ("auto_all", "off"),
    "expose_last_card": ("all_players", "none"),
    "discard_trumps": (True, False),
    "declaration_mode": ("choice", "all"),
    "declaration_timing": ("before_first_lead", "after_own_first_card"),
    "fola_visibility": ("open", "suit_counts", "hidden"),
    "decine_four": ("one_combination", "two_triples"),
    "matto_bonus_on_matto_combo": (False, True),
    "capot": ("off", "it_rules"),
}


@st.composite
def options_st(draw):
    return {name: draw(st.sampled_from(values)) for name, values in OPTION_AXES.items()}


def play_deal(state, r: random.Random):
    """Play to the end, checking the flow invariants after every step."""
    steps = 0
    while not state.is_terminal():
        d = state.to_dict()
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        assert state.current_player() == d["to_move"]
        assert state.returns() == [0.0] * 4
        assert sorted(all_cards(d), key=IDX.__getitem__) == ALL97
        assert -60 < d["D"] < 60
        assert sum(d["tricks_won"]) == d["tricks_played"] <= 21
        state.apply_action(r.choice(legal))
        steps += 1
        assert steps < 200
    assert state.legal_actions() == [] and state.current_player() == -1
    return state.to_dict()


@settings(max_examples=25, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), opts=options_st(), play_seed=st.integers(0, 1000))
def test_whole_deal_invariants(seed, opts, play_seed):
    """MI-CUT-3, MI-PLAY-1, MI-MATTO-5, MI-END-1..3, MI-RESTO-1..4 over random deals and
    random option combinations."""
    s = game(**opts).new_deal(seed)
    start = s.to_dict()
    exp = oracle(seed, **opts)
    assert start["dealer"] == exp["dealer"] and start["hands"] == exp["hands"]
    assert start["fola"] == exp["fola"]
    for src in ("cutter_rob", "exposed", "dealer_rob"):
        assert start["points"][src] == exp["points"][src]
    if start["points"]["declarations"] == [0, 0]:     # (declaration_mode=all may declare)
        assert start["D"] == exp["D"] and start["resti"] == exp["resti"]
    k = len(start["cutter_robbed"])
    assert k <= 13 and 97 - k >= 84
    d = play_deal(s, random.Random(play_seed))
    assert d["phase"] == "deal_over" and d["tricks_played"] == 21
    assert sum(d["tricks_won"]) == 21
    piles = d["piles"]
    assert sum(len(p) for p in piles) == 84 and len(d["fola"]) == 13
    if d["matto_given"]:
        assert sorted(len(p) for p in piles) == [0, 84]
    else:
        assert [len(p) for p in piles] == [4 * w for w in d["tricks_won"]]
    assert total(piles[0]) + total(piles[1]) + total(d["fola"]) == 142
    if not any(value(c) for c in d["fola"]):
        assert total(piles[0]) + total(piles[1]) == 142
    exp_end = end_scoring(piles, d["last_winner"] & 1, **opts)
    for src, v in exp_end.items():
        assert d["points"][src] == v, src
    # the resti: conversions during the deal, then the final rounding (MI-RESTO-2/3)
    diff = sum(a - b for a, b in d["points"].values())
    rounding = final_rounding(d["D"], [0, 0])
    conv = [d["resti"][0] - rounding[0], d["resti"][1] - rounding[1]]
    assert min(conv) >= 0
    assert d["D"] == diff - 60 * (conv[0] - conv[1])
    assert -60 < d["D"] < 60
    net = d["resti"][0] - d["resti"][1]
    if opts["capot"] == "it_rules" and 0 in d["tricks_won"]:
        net = max(14, 2 * net) if d["tricks_won"][1] == 0 else -max(14, -2 * net)
    assert d["net"] == net == d["net_total"]
    ret = s.returns()
    assert ret[0] == ret[2] == net and ret[1] == ret[3] == -net
    assert sum(ret) == 0


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1))
def test_deal_matches_the_engine(seed):
    """MI-DEAL-1..4, MI-CUT-1..3, MI-ROB-1: the default deal of any seed is the engine's:
    dealer, hands with the robbed cards, exposures, the Fola, the events' D and resti."""
    d = game().new_deal(seed).to_dict()
    exp = oracle(seed)
    assert d["dealer"] == exp["dealer"] and d["hands"] == exp["hands"]
    assert sorted(d["cutter_robbed"], key=IDX.__getitem__) == \
        sorted(exp["cutter_robbed"], key=IDX.__getitem__)
    assert d["seen_bottom"] == exp["seen_bottom"] and d["exposed"] == exp["exposed"]
    assert sorted(d["dealer_robbed"], key=IDX.__getitem__) == \
        sorted(exp["dealer_robbed"], key=IDX.__getitem__)
    assert d["fola"] == exp["fola"] and d["points"] == exp["points"]
    assert d["D"] == exp["D"] and d["resti"] == exp["resti"]
    k = len(d["cutter_robbed"])
    assert k <= 13 and 97 - k >= 84
    assert sorted(all_cards(d), key=IDX.__getitem__) == ALL97
