"""One test (or more) per rule ID of rules/bura.md §2, and per option of §3.

Every expectation is worked out by hand from the rules file and the engine's layout and notation:
exact legal-action sets (ids and strings), piles, draws, results and returns. Positions are written
in card notation with ``positions.position`` / ``positions.after_trick`` (the cards that matter; the
rest spread so that the position is legal) and actions go through ``action_from_dict``. Only what a
seed deals, which no one works out by hand, is compared with the reference engine's dealing
(``positions.oracle_start`` / ``oracle_next_deal``).
"""
from __future__ import annotations

import functools
import json
import random
from collections import Counter

import pytest
from scipy.stats import chisquare

from cardsim.errors import IllegalActionError
from tests.games.bura.positions import (
    ALL_CARDS,
    CHECK,
    KINDS,
    RNG_WORDS,
    action_id,
    after_trick,
    all_cards,
    assert_legal,
    assert_next_deal,
    combos,
    core,
    find_seed,
    first_shuffle,
    legal_strings,
    match_check,
    oracle_start,
    pile,
    play,
    points,
    position,
    result,
    srt,
    suit,
)
from tests.helpers import game_loader

game = game_loader("bura")


def load(pos, **options):
    return game(**options).from_dict(pos)


def assert_illegal(state, text):
    before = state.to_dict()
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(action_id(text))
    assert state.to_dict() == before and state.legal_actions() == legal


def assert_deal_over(state, expected_result, returns):
    d = state.to_dict()
    assert d["phase"] == "deal_over" and d["to_move"] is None
    assert core(d["result"]) == expected_result
    assert state.is_terminal() and state.current_player() == -1 and state.legal_actions() == []
    assert state.returns() == pytest.approx(returns)


def hand_sizes(d):
    return [len(h) for h in d["hands"]]


def check_position(**kw):
    """A 2-player check point in mid-deal: seat ``leader`` to claim or lead."""
    kw.setdefault("hands", ["9s 9c 9h", "8s 8c 8h"])
    kw.setdefault("leader", 0)
    kw.setdefault("trump", "7d")
    kw.setdefault("stock_size", 10)
    return position(**kw)


# =============================================================================================
# 2.1 Deal
# =============================================================================================

def test_bu_deal_1_first_dealer_by_lot():
    """BU-DEAL-1: the first dealer is drawn from the seed's stream (``below(n)``): every seat
    deals for some seed; a match starts with the same draw."""
    for n in (2, 3, 4):
        g = game(num_players=n)
        dealers = [g.new_deal(seed=s).to_dict()["dealer"] for s in range(40)]
        assert dealers == [oracle_start(s, num_players=n)["dealer"] for s in range(40)]
        assert set(dealers) == set(range(n))
        assert [g.new_match(seed=s).to_dict()["dealer"] for s in range(40)] == dealers


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bu_deal_2_three_cards_each_one_at_a_time_from_dealers_left(n):
    """BU-DEAL-2: 3 cards each, dealt one at a time in rounds from the dealer's left: card i
    of the shuffled pack goes to seat (dealer + 1 + i) % n; exactly as the engine deals."""
    g = game(num_players=n)
    for seed in range(30):
        d = g.new_deal(seed=seed).to_dict()
        exp = oracle_start(seed, num_players=n)
        assert d["dealer"] == exp["dealer"], seed
        assert d["hands"] == exp["hands"], seed
        assert d["stock"] == exp["stock"], seed
        assert d["trump_card"] == exp["trump_card"], seed
        assert d["redeals"] == exp["redeals"], seed
        assert d["rng"] == exp["rng"], seed
        assert hand_sizes(d) == [3] * n
        assert d["piles"] == [{"up": [], "down": []}] * n
        assert d["thrown_down"] == [[]] * n
        assert d["trick"] is None and d["result"] is None and d["last_trick_taker"] is None
        assert d["deal_number"] == 1 and d["scores"] == [0] * n and d["mode"] == "deal"
        assert srt(all_cards(d)) == ALL_CARDS


def test_bu_deal_3_turned_card_is_last_of_stock_and_sets_trump():
    """BU-DEAL-3: the turned card is the last card of the stock; its suit is trump: the same
    answer beats with the trump card 8d and does not with 8c (and vice versa)."""
    for seed in range(30):
        d = game().new_deal(seed=seed).to_dict()
        assert d["trump_card"] == d["stock"][-1]
    for trump, beater in (("8d", "6d"), ("8c", "6c")):
        pos = position(hands=["9h Jh", "6c 6d 7h"], leader=0, trump=trump, stock_size=2,
                       trick={"leader": 0, "top": ["Qs"]})
        s = load(pos)
        assert s.to_dict()["trump_card"] == trump
        assert_legal(s, f"beat {beater}", "throw_down 6c", "throw_down 6d", "throw_down 7h")


@pytest.mark.parametrize("n,size", [(2, 30), (3, 27), (4, 24)])
def test_bu_deal_4_stock_size(n, size):
    """BU-DEAL-4: the stock holds 36 - 3n cards, the turned card included (option
    num_players)."""
    g = game(num_players=n)
    assert g.num_players == n
    for seed in range(10):
        d = g.new_deal(seed=seed).to_dict()
        assert len(d["stock"]) == size and len(d["hands"]) == n
        assert len(d["stock"]) + sum(hand_sizes(d)) == 36


@functools.lru_cache(maxsize=None)
def seed_with(kind: str, exclude=("bura",), n: int = 2) -> int:
    """First seed whose first shuffle gives some hand the combination ``kind`` and no hand any
    of ``exclude``."""
    def pred(d):
        t = suit(d["trump_card"])
        cs = [combos(h, t) for h in d["hands"]]
        return any(kind in c for c in cs) and not any(e in c for c in cs for e in exclude)
    return find_seed(pred, num_players=n)


def test_bu_deal_5_bura_in_a_hand_redeals_same_dealer():
    """BU-DEAL-5: a bura right after the deal cancels it; the same dealer redeals, nothing is
    scored. With initial_combo_redeal off the first shuffle stands."""
    seed = seed_with("bura", exclude=())
    first = first_shuffle(seed)
    on = game().new_deal(seed=seed).to_dict()
    assert on["redeals"] >= 1 and on["redeals"] == oracle_start(seed)["redeals"]
    assert on["dealer"] == first["dealer"]
    assert on["hands"] == oracle_start(seed)["hands"] and on["hands"] != first["hands"]
    t = suit(on["trump_card"])
    assert not any("bura" in combos(h, t) for h in on["hands"])
    assert on["scores"] == [0, 0] and on["result"] is None and on["phase"] == CHECK
    off = game(initial_combo_redeal=False).new_deal(seed=seed).to_dict()
    assert off["redeals"] == 0 and off["hands"] == first["hands"]
    assert off["stock"] == first["stock"] and off["dealer"] == first["dealer"]


@pytest.mark.parametrize("kind,exclude,on_options,off_options", [
    ("molodka", ("bura",), {"molodka_stop": True}, {}),
    ("moscow", ("bura",), {"moscow": "three_aces"}, {}),
    ("small_moscow_sixes", ("bura", "small_moscow_tens"),
     {"small_moscow": "three_sixes_with_trump"}, {"small_moscow": "three_tens_with_trump"}),
    ("small_moscow_tens", ("bura", "small_moscow_sixes"),
     {"small_moscow": "three_tens_with_trump"}, {"small_moscow": "three_sixes_with_trump"}),
])
def test_bu_deal_5_only_active_combinations_redeal(kind, exclude, on_options, off_options):
    """BU-DEAL-5: a molodka, Moscow or small Moscow forces a redeal only when its option makes
    it active (options molodka_stop, moscow, small_moscow)."""
    seed = seed_with(kind, exclude=exclude)
    first = first_shuffle(seed)
    on = game(**on_options).new_deal(seed=seed).to_dict()
    assert on["redeals"] >= 1 and on["redeals"] == oracle_start(seed, **on_options)["redeals"]
    assert on["hands"] == oracle_start(seed, **on_options)["hands"]
    assert on["dealer"] == first["dealer"]
    off = game(**off_options).new_deal(seed=seed).to_dict()
    assert off["redeals"] == 0 and off["hands"] == first["hands"]


def test_bu_deal_5_moscow_with_trump_needs_the_trump_ace():
    """BU-DEAL-5, option moscow=three_aces_with_trump: three aces without the trump ace are no
    active combination, so they do not force a redeal."""
    def pred(d):
        t = suit(d["trump_card"])
        cs = [combos(h, t) for h in d["hands"]]
        return any("moscow" in c and "moscow_trump" not in c for c in cs) and \
            not any(("bura" in c or "moscow_trump" in c) for c in cs)
    seed = find_seed(pred)
    first = first_shuffle(seed)
    d = game(moscow="three_aces_with_trump").new_deal(seed=seed).to_dict()
    assert d["redeals"] == 0 and d["hands"] == first["hands"]
    d = game(moscow="three_aces").new_deal(seed=seed).to_dict()
    assert d["redeals"] >= 1


# =============================================================================================
# 2.2 Who leads
# =============================================================================================

@pytest.mark.parametrize("n", [2, 3, 4])
def test_bu_lead_1_first_lead_left_of_dealer(n):
    """BU-LEAD-1: the player on the dealer's left makes the first lead."""
    for seed in range(20):
        s = game(num_players=n).new_deal(seed=seed)
        d = s.to_dict()
        assert d["phase"] == CHECK
        assert d["to_move"] == d["leader"] == (d["dealer"] + 1) % n == s.current_player()


@pytest.mark.parametrize("option,leader", [("last_trick_taker", 1), ("left_of_dealer", 0)])
def test_bu_lead_2_next_deal_led_by_last_trick_taker(option, leader):
    """BU-LEAD-2: the first lead of the next deal goes to the last trick's taker (3 players:
    seat 1 took the last trick and claims falsely; winners 2 and 0; seat 2 deals, BU-END-6);
    option next_deal_first_leader=left_of_dealer gives it to the dealer's left (seat 0)."""
    opts = {"num_players": 3, "match_format": "wins_to_n", "next_deal_first_leader": option}
    pos = match_check(3, leader=1, pile_cards="9d 8d 6d", dealer=0)
    s = load(pos, **opts)
    play(s, "claim")
    assert_next_deal(s, dealer=2, leader=leader, scores=[2, 0, 2], n=3,
                     **{k: v for k, v in opts.items() if k != "num_players"})


@pytest.mark.parametrize("option", ["last_trick_taker", "left_of_dealer"])
def test_bu_lead_2_no_trick_left_of_dealer(option):
    """BU-LEAD-2: a deal that ended at its first check point had no trick: the next deal is led
    by the dealer's left (3 players: dealer 2, seat 0 claims at once and loses; winners 1 and 2;
    seat 1 deals; seat 2 leads)."""
    opts = {"num_players": 3, "match_format": "wins_to_n", "next_deal_first_leader": option}
    pos = position(hands=["9s 9c 9h", "8s 8c 8h", "7s 7c 7h"], leader=0, dealer=2, trump="Jd",
                   stock_size=27, mode="match", rng=RNG_WORDS)
    assert pos["last_trick_taker"] is None and pos["piles"][0] == {"up": [], "down": []}
    s = load(pos, **opts)
    play(s, "claim")
    assert_next_deal(s, dealer=1, leader=2, scores=[0, 2, 2], n=3,
                     **{k: v for k, v in opts.items() if k != "num_players"})


def test_bu_lead_3_trick_winner_leads_next():
    """BU-LEAD-3: the winner of a trick leads to the next one (the answerer after a beat, the
    leader when nobody beat)."""
    pos = position(hands=["Js Qc", "Ts 7c 8h"], leader=0, trump="6d", stock_size=4,
                   stock=["7d", "8d"], trick={"leader": 0, "top": ["9s"]})
    s = load(pos)
    play(s, "beat Ts")
    d = s.to_dict()
    assert d["phase"] == CHECK and d["to_move"] == 1 and d["leader"] == 1
    assert d["last_trick_taker"] == 1 and d["trick"] is None
    assert d["hands"] == [srt("Js Qc 8d"), srt("7c 8h 7d")]
    s = load(pos)
    play(s, "throw_down Ts")
    d = s.to_dict()
    assert d["phase"] == CHECK and d["to_move"] == 0 and d["leader"] == 0
    assert d["last_trick_taker"] == 0
    assert d["hands"] == [srt("Js Qc 7d"), srt("7c 8h 8d")]


def test_bu_lead_4_one_card_or_two_three_of_one_suit():
    """BU-LEAD-4: a lead is one card, or 2-3 cards of one suit; never mixed suits."""
    s = load(check_position(hands=["Ks As 9h", "8s 8c 8h"]))
    assert_legal(s, "lead Ks", "lead As", "lead Ks+As", "lead 9h", "claim")
    assert_illegal(s, "lead Ks+9h")
    assert_illegal(s, "lead Ks+As+9h")
    s = load(check_position(hands=["7c Qc Ac", "8s 8d 8h"]))
    assert_legal(s, "lead 7c", "lead Qc", "lead Ac", "lead 7c+Qc", "lead 7c+Ac", "lead Qc+Ac",
                 "lead 7c+Qc+Ac", "claim")
    s = load(check_position(hands=["6s 7s 9s", "8s 8c 8h"], trump="Jd"))
    assert_legal(s, "lead 6s", "lead 7s", "lead 9s", "lead 6s+7s", "lead 6s+9s", "lead 7s+9s",
                 "lead 6s+7s+9s", "claim")
    s = load(check_position(hands=["7c Qd Ah", "8s 8c 8h"]))
    assert_legal(s, "lead 7c", "lead Qd", "lead Ah", "claim")
    play(s, "lead Qd")
    d = s.to_dict()
    assert d["phase"] == "answer" and d["to_move"] == 1
    assert d["trick"] == {"leader": 0, "k": 1, "played": [["Qd"], []], "top": ["Qd"],
                          "holder": 0}
    assert d["hands"][0] == ["7c", "Ah"]


def test_bu_lead_5_no_more_cards_than_held_and_everyone_can_answer():
    """BU-LEAD-5: with 2 cards left no 3-card lead exists; the opponent, holding as many cards,
    answers a 2-card lead with exactly his two cards."""
    pos = position(hands=["Qs Ks", "7h 8c"], leader=0, trump="6d")
    assert pos["stock"] == []
    s = load(pos)
    assert_legal(s, "lead Qs", "lead Ks", "lead Qs+Ks", "claim")
    play(s, "lead Qs+Ks")
    assert_legal(s, "throw_down 8c+7h")
    assert_illegal(s, "throw_down 8c")


# =============================================================================================
# 2.3 Answering and beating
# =============================================================================================

def answer_position(lead, answer_hand, *, trump="7d", leader_rest=None, **kw):
    """2 players: seat 0 has led ``lead`` (k cards), seat 1 holds ``answer_hand`` (3 cards)."""
    lead = lead.split()
    if leader_rest is None:
        leader_rest = ["9h", "Jh"][:3 - len(lead)]
    kw.setdefault("stock_size", 2)
    return position(hands=[leader_rest, answer_hand], leader=0, trump=trump,
                    trick={"leader": 0, "top": lead}, **kw)


def test_bu_resp_1_any_k_cards_no_obligation():
    """BU-RESP-1: the answer is exactly k cards, any k cards: no duty to follow suit or beat."""
    s = load(answer_position("Qs", "Ks 6d 7h"))
    assert_legal(s, "beat Ks", "beat 6d", "throw_down Ks", "throw_down 6d", "throw_down 7h")
    s = load(answer_position("Qs 7s", "Ks 6d 7h", stock=["Jc", "Jh", "Qc", "Qh"],
                             stock_size=6, leader_rest=["9h"]))
    assert_legal(s, "beat Ks+6d", "throw_down Ks+6d", "throw_down Ks+7h", "throw_down 6d+7h")
    assert_illegal(s, "throw_down 7h")
    assert_illegal(s, "throw_down Ks+6d+7h")
    before = s.to_dict()
    play(s, "throw_down 6d+7h")
    d = s.to_dict()
    assert d["piles"][0]["up"] == srt(before["piles"][0]["up"] + ["Qs", "7s"])
    assert d["piles"][0]["down"] == srt(before["piles"][0]["down"] + ["6d", "7h"])
    assert d["piles"][1] == before["piles"][1]
    assert d["thrown_down"][1] == srt(before["thrown_down"][1] + ["6d", "7h"])
    assert d["hands"] == [srt("9h Jc Qc"), srt("Ks Jh Qh")]      # drawn one at a time
    assert d["stock"] == before["stock"][4:]


@pytest.mark.parametrize("lead,card,beats", [
    ("Qs", "Ks", True), ("Qs", "Ts", True), ("Qs", "As", True), ("Qs", "6d", True),
    ("Qs", "Ah", False), ("Qs", "Js", False), ("Qs", "6s", False),
    ("9d", "Td", True), ("9d", "8d", False), ("9d", "As", False), ("Td", "Ad", True),
    ("Ah", "Kh", False), ("Ah", "6d", True), ("6c", "6d", True), ("6c", "Ac", True),
])
def test_bu_resp_2_card_beats_card(lead, card, beats):
    """BU-RESP-2: x beats y if same suit and higher (A > T > K > Q > J > 9..6), or x is a trump
    and y is not (trump diamonds)."""
    s = load(answer_position(lead, [card, "7c", "8c"] if lead[1] != "c" else
                             [card, "7h", "8h"], trump="7d"))
    others = ["7c", "8c"] if lead[1] != "c" else ["7h", "8h"]
    expected = [f"throw_down {c}" for c in [card] + others]
    if beats:
        expected.append(f"beat {card}")
    assert_legal(s, *expected)


def test_bu_resp_3_pairing_is_one_to_one():
    """BU-RESP-3: every answering card must beat its own partner: one trump that beats both led
    cards does not make a pair beat them if its companion beats neither."""
    s = load(answer_position("Qs 7s", "Ad 6h Ks", leader_rest=["9h"]))
    assert_legal(s, "beat Ks+Ad", "throw_down Ks+Ad", "throw_down Ks+6h", "throw_down Ad+6h")


def test_bu_resp_3_any_pairing_not_greedy():
    """BU-RESP-3: the answer {7s, As} beats {6s, Ts} by As->Ts, 7s->6s, although As could take
    either card (a greedy match of As to 6s would fail)."""
    s = load(answer_position("6s Ts", "7s As 9h", leader_rest=["9c"]))
    assert_legal(s, "beat 7s+As", "throw_down 7s+As", "throw_down 7s+9h", "throw_down As+9h")
    s = load(answer_position("6s Ts Ks", "7s As 9h", leader_rest=[], trump="7d"))
    assert_legal(s, "throw_down 7s+As+9h")
    s = load(answer_position("6s Ts Ks", "7s As Ad", leader_rest=[], trump="7d"))
    assert_legal(s, "beat 7s+As+Ad", "throw_down 7s+As+Ad")


def three_player_trick(**kw):
    """3 players: seat 0 has led 9s; seat 1 holds Ks 7c 8c, seat 2 Qs As 6h; trump diamonds."""
    kw.setdefault("stock", ["Jd", "Qd", "Kd"])
    kw.setdefault("stock_size", 6)
    return position(hands=["Jc Qc", "Ks 7c 8c", "Qs As 6h"], leader=0, trump="7d",
                    trick={"leader": 0, "top": ["9s"]}, **kw)


def test_bu_resp_4_beater_becomes_holder_and_sets_new_top():
    """BU-RESP-4: after seat 1 beats 9s with Ks, Ks is the top: seat 2's Qs beats 9s but not
    Ks, so only As beats; As makes seat 2 the holder."""
    s = load(three_player_trick(), num_players=3)
    play(s, "beat Ks")
    d = s.to_dict()
    assert d["trick"] == {"leader": 0, "k": 1, "played": [["9s"], ["Ks"], []], "top": ["Ks"],
                          "holder": 1}
    assert d["to_move"] == 2 and d["phase"] == "answer" and d["hands"][1] == ["7c", "8c"]
    assert_legal(s, "beat As", "throw_down Qs", "throw_down As", "throw_down 6h")
    before = s.to_dict()
    play(s, "beat As")
    d = s.to_dict()
    assert d["piles"][2]["up"] == srt(before["piles"][2]["up"] + ["9s", "Ks", "As"])
    assert d["to_move"] == 2 and d["leader"] == 2 and d["last_trick_taker"] == 2


def test_bu_resp_5_trick_to_last_beater_or_leader():
    """BU-RESP-5: the whole trick goes to the last player who beat (seat 1 here, although seat 2
    answered after him), or to the leader when nobody beat; drawing starts with the taker."""
    s = load(three_player_trick(), num_players=3)
    before = s.to_dict()
    play(s, "beat Ks", "throw_down 6h")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["9s", "Ks"])
    assert d["piles"][1]["down"] == srt(before["piles"][1]["down"] + ["6h"])
    assert d["piles"][0] == before["piles"][0] and d["piles"][2] == before["piles"][2]
    assert d["thrown_down"][2] == srt(before["thrown_down"][2] + ["6h"])
    assert d["hands"] == [srt("Jc Qc Kd"), srt("7c 8c Jd"), srt("Qs As Qd")]
    assert d["to_move"] == 1 and d["leader"] == 1 and d["phase"] == CHECK
    s = load(three_player_trick(), num_players=3)
    play(s, "throw_down 7c", "throw_down 6h")
    d = s.to_dict()
    assert d["piles"][0]["up"] == srt(before["piles"][0]["up"] + ["9s"])
    assert d["piles"][0]["down"] == srt(before["piles"][0]["down"] + ["7c", "6h"])
    assert d["hands"] == [srt("Jc Qc Jd"), srt("Ks 8c Qd"), srt("Qs As Kd")]
    assert d["to_move"] == 0 and d["leader"] == 0


@pytest.mark.parametrize("option,expected", [
    ("always", ["beat Ks", "throw_down Ks", "throw_down 7c", "throw_down 8c"]),
    ("choice", ["beat Ks", "throw_down Ks", "throw_down 7c", "throw_down 8c", "throw_up Ks",
                "throw_up 7c", "throw_up 8c"]),
    ("off", ["beat Ks", "throw_up 7c", "throw_up 8c"]),
])
def test_bu_resp_6_facedown_discards(option, expected):
    """BU-RESP-6, option facedown_discards: ``always`` every non-beating answer is face down;
    ``choice`` the answerer chooses; ``off`` every card is face up. A face-down card goes to
    the winner's face-down pile and is recorded as thrown by its owner."""
    pos = answer_position("Qs", "Ks 7c 8c", stock=["Jd", "Qd"], stock_size=4)
    s = load(pos, facedown_discards=option)
    assert_legal(s, *expected)
    for mode in ("throw_down", "throw_up"):
        if f"{mode} 7c" not in expected:
            assert_illegal(s, f"{mode} 7c")
            continue
        t = load(pos, facedown_discards=option)
        play(t, f"{mode} 7c")
        d = t.to_dict()
        up, down = pos["piles"][0]["up"], pos["piles"][0]["down"]
        if mode == "throw_down":
            assert d["piles"][0] == {"up": srt(up + ["Qs"]), "down": srt(down + ["7c"])}
            assert d["thrown_down"][1] == srt(pos["thrown_down"][1] + ["7c"])
        else:
            assert d["piles"][0] == {"up": srt(up + ["Qs", "7c"]), "down": down}
            assert d["thrown_down"] == pos["thrown_down"]


def test_bu_resp_6_face_down_card_hidden_from_winner():
    """BU-RESP-6: the trick's winner must not see the face-down cards: they are absent from his
    observation, present in the thrower's (and in the full position)."""
    pos = answer_position("Qs", "Ks 7c 8c", stock=["Jd", "Qd"], stock_size=4)
    s = load(pos)
    play(s, "throw_down 7c")
    assert "7c" in s.to_dict()["piles"][0]["down"]
    assert '"7c"' not in json.dumps(s.observation(0))
    assert '"7c"' in json.dumps(s.observation(1))


@pytest.mark.parametrize("option,expected", [
    ("always", ["beat 8s+Ks", "throw_down 8s+Ks", "throw_down 8s+9h", "throw_down Ks+9h"]),
    ("choice", ["beat 8s+Ks", "throw_down 8s+Ks", "throw_down 8s+9h", "throw_down Ks+9h",
                "throw_up 8s+Ks", "throw_up 8s+9h", "throw_up Ks+9h"]),
    ("off", ["beat 8s+Ks", "throw_up 8s+9h", "throw_up Ks+9h"]),
])
def test_bu_resp_7_answer_is_cards_and_mode(option, expected):
    """BU-RESP-7: beat is legal only for cards that beat the top; a throw is always legal, even
    with cards that beat; with facedown_discards=off beating cards always beat."""
    s = load(answer_position("Qs 7s", "8s Ks 9h", leader_rest=["9c"]), facedown_discards=option)
    assert_legal(s, *expected)
    assert_illegal(s, "beat 8s+9h")
    before = s.to_dict()
    play(s, "beat 8s+Ks")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["Qs", "7s", "8s", "Ks"])
    assert d["to_move"] == 1 and d["leader"] == 1


# =============================================================================================
# 2.4 Drawing
# =============================================================================================

def test_bu_draw_1_one_card_at_a_time_from_the_winner():
    """BU-DRAW-1: 3 players; seat 2 takes a 2-card trick; the draw goes 2, 0, 1, 2, 0, 1 from
    the top of the stock until every hand holds 3 cards."""
    pos = position(hands=["9c", "Jc 8c As", "Ks 8s Tc"], leader=0, trump="6h",
                   stock=["7d", "8d", "9d", "Jd", "Qd", "Kd"], stock_size=9,
                   trick={"leader": 0, "top": ["Qs", "7s"]})
    s = load(pos, num_players=3)
    play(s, "throw_down 8c+Jc", "beat 8s+Ks")
    d = s.to_dict()
    assert d["hands"] == [srt("9c 8d Qd"), srt("As 9d Kd"), srt("Tc 7d Jd")]
    assert d["stock"] == pos["stock"][6:] and len(d["stock"]) == 3
    assert d["piles"][2]["up"] == srt(pos["piles"][2]["up"] + ["Qs", "7s", "8s", "Ks"])
    assert d["piles"][2]["down"] == srt(pos["piles"][2]["down"] + ["8c", "Jc"])
    assert d["phase"] == CHECK and d["to_move"] == 2 and d["last_trick_taker"] == 2


def test_bu_draw_1_stock_runs_out():
    """BU-DRAW-1: drawing stops when the stock is empty: after a 2-card trick with 2 cards in
    the stock each player draws one and holds 2."""
    pos = position(hands=["9c", "Ks 8s Tc"], leader=0, trump="8h", stock=["Jd", "8h"],
                   trick={"leader": 0, "top": ["Qs", "7s"]})
    s = load(pos)
    play(s, "beat 8s+Ks")
    d = s.to_dict()
    assert d["stock"] == [] and d["hands"] == [srt("9c 8h"), srt("Tc Jd")]
    assert_legal(s, "lead Tc", "lead Jd", "claim")


def test_bu_draw_2_turned_card_drawn_last_into_hand():
    """BU-DRAW-2: the turned trump card is the last card drawn and is a card like any other in
    the hand that takes it; hearts stay trump."""
    pos = position(hands=["9c", "Ks 8s Tc"], leader=0, trump="8h", stock=["Jd", "8h"],
                   trick={"leader": 0, "top": ["Qs", "7s"]})
    s = load(pos)
    play(s, "beat 8s+Ks")
    assert s.to_dict()["hands"][0] == srt("9c 8h")
    play(s, "lead Tc")
    d = s.to_dict()
    assert d["trump_card"] == "8h" and d["stock"] == []
    assert_legal(s, "beat 8h", "throw_down 9c", "throw_down 8h")


def test_bu_draw_3_hands_stay_equal_play_on_without_stock():
    """BU-DRAW-3: with the stock empty, play continues with the cards in hand, hands equal, no
    drawing; the last trick's winner then gets the final claim decision (BU-END-2)."""
    pos = position(hands=["Qs 9c 8d", "Tc Jd 7s"], leader=0, trump="6h")
    s = load(pos)
    play(s, "lead Qs", "throw_down 7s")
    d = s.to_dict()
    assert d["hands"] == [srt("9c 8d"), srt("Tc Jd")] and d["stock"] == []
    assert d["phase"] == CHECK and d["to_move"] == 0
    play(s, "lead 9c", "beat Tc")
    d = s.to_dict()
    assert d["hands"] == [["8d"], ["Jd"]] and d["to_move"] == 1
    play(s, "lead Jd", "throw_down 8d")
    d = s.to_dict()
    assert d["hands"] == [[], []] and d["phase"] == "claim" and d["to_move"] == 1
    assert_legal(s, "claim", "no_claim")


def random_play(state, rnd: random.Random, on_step=None, max_steps=400):
    """Play random legal actions (claim rarely) to the end; ``on_step(before, action, after)``
    is called on each step's position dicts."""
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        claim = action_id("claim")
        choices = [a for a in legal if a != claim] or legal
        if claim in legal and rnd.random() < 0.03:
            a = claim
        else:
            a = rnd.choice(choices)
        before = state.to_dict()
        state.apply_action(a)
        if on_step:
            on_step(before, a, state.to_dict())
        steps += 1
        assert steps < max_steps


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bu_draw_3_hands_equal_in_random_deals(n):
    """BU-DRAW-3: at every lead decision all hands are equal; with stock left they hold 3; the
    stock stays a multiple of n."""
    rnd = random.Random(n)

    def check(before, a, after):
        for d in (before, after):
            if d["phase"] in (CHECK, "claim", "stop", "lead"):
                sizes = set(hand_sizes(d))
                assert len(sizes) == 1, hand_sizes(d)
                assert len(d["stock"]) % n == 0
                if d["stock"]:
                    assert sizes == {3}

    for seed in range(15):
        random_play(game(num_players=n).new_deal(seed=seed), rnd, check)


@pytest.mark.parametrize("n", [2, 3])
def test_bu_draw_4_drawing_is_automatic(n):
    """BU-DRAW-4: out-of-turn and double draws are not modelled: no action draws (every action
    is one of the 8 kinds), and the end of a trick refills the hands in rotation by itself."""
    rnd = random.Random(10 + n)
    seen = {"refills": 0}

    def check(before, a, after):
        assert a >> 40 in KINDS.values()
        if before["phase"] == "answer" and after["trick"] is None and after["phase"] not in (
                "deal_over", "match_over") and before["stock"]:
            k = before["trick"]["k"]
            winner = after["leader"]
            drawn = min(len(before["stock"]), n * k)
            assert after["stock"] == before["stock"][drawn:]
            assert set(hand_sizes(after)) == {3 if len(before["stock"]) >= n * k
                                              else 3 - k + drawn // n}
            for j, card in enumerate(before["stock"][:drawn]):
                assert card in after["hands"][(winner + j) % n]
            seen["refills"] += 1

    for seed in range(10):
        s = game(num_players=n).new_deal(seed=seed)
        random_play(s, rnd, check)
    assert seen["refills"] > 20
    s = game(num_players=n).new_deal(seed=1)
    words = {text.split()[0] for text in legal_strings(s)}
    assert words <= set(KINDS) and "draw" not in " ".join(legal_strings(s))


# =============================================================================================
# 2.5 Check points and combinations
# =============================================================================================

def moscow_position():
    """After the trick seat 1 draws Ad and holds As Ac Ad; trump hearts (no Ah)."""
    return after_trick("Js Qc 8c", "As Ac Ad", trump="Jh", draws=("8c", "Ad"), lead="9s",
                       throw="7c")


@pytest.mark.parametrize("option,wins", [("three_aces", True),
                                         ("three_aces_with_trump", False), ("off", False)])
def test_bu_combo_1_moscow_wins_at_once(option, wins):
    """BU-COMBO-1, option moscow: three aces win the deal at the check point, also for a
    player who is not the leader; the with-trump variant needs the trump ace (Ah here)."""
    s = load(moscow_position(), moscow=option)
    play(s, "throw_down 7c")
    if wins:
        assert_deal_over(s, result("moscow", [1]), [-1, 1])
    else:
        d = s.to_dict()
        assert d["phase"] == CHECK and d["to_move"] == 0 and d["result"] is None
        assert d["hands"] == [srt("Js Qc 8c"), srt("As Ac Ad")]


def test_bu_combo_1_moscow_with_trump_ace():
    """BU-COMBO-1: with moscow=three_aces_with_trump, three aces including the trump ace win."""
    pos = after_trick("Js Qc 8c", "As Ac Ah", trump="Jh", draws=("8c", "Ah"), lead="9s",
                      throw="7c")
    s = load(pos, moscow="three_aces_with_trump")
    play(s, "throw_down 7c")
    assert_deal_over(s, result("moscow", [1]), [-1, 1])


def bura_position():
    """After the trick seat 1 draws Qh and holds 7h Th Qh (bura, trump hearts); then the stock
    holds Kh for seat 1 and 9c for seat 0 after a trick that seat 1 takes."""
    return position(hands=["Js Qc", "7h Th 7c"], leader=0, trump="6h",
                    stock=["8c", "Qh", "Kh", "9c"], stock_size=6,
                    trick={"leader": 0, "top": ["9s"]})


def test_bu_combo_2_bura_wins_at_any_check_point():
    """BU-COMBO-2: a bura wins at once at a check point, whatever the points, also for a
    player who is not the scheduled leader (bura_timing=any_check_point)."""
    s = load(bura_position())
    play(s, "throw_down 7c")
    d = s.to_dict()
    assert d["hands"][1] == srt("7h Th Qh")
    assert_deal_over(s, result("bura", [1]), [-1, 1])


def test_bu_combo_2_bura_timing_own_lead():
    """BU-COMBO-2, option bura_timing=own_lead: only the scheduled leader's bura counts; seat 1
    keeps his bura through seat 0's lead and wins at his own next check point."""
    s = load(bura_position(), bura_timing="own_lead")
    play(s, "throw_down 7c")
    d = s.to_dict()
    assert d["phase"] == CHECK and d["to_move"] == 0 and d["result"] is None
    assert d["hands"] == [srt("Js Qc 8c"), srt("7h Th Qh")]
    assert_legal(s, "lead Js", "lead 8c", "lead Qc", "lead 8c+Qc", "claim")
    play(s, "lead 8c")
    assert_legal(s, "beat 7h", "beat Th", "beat Qh", "throw_down 7h", "throw_down Th",
                 "throw_down Qh")
    play(s, "beat 7h")
    d = s.to_dict()
    assert d["hands"] == [srt("Js Qc 9c"), srt("Th Qh Kh")]
    assert_deal_over(s, result("bura", [1]), [-1, 1])


def double_bura_position():
    """3 players, trump hearts: after seat 0 takes the trick, seat 1 draws 8h (6h 7h 8h) and
    seat 2 draws Jh (9h Jh Ah): two buras at the same check point."""
    return position(hands=["Js Qc", "6h 7h 7c", "9h Ah 8c"], leader=0, trump="Kh",
                    stock=["9c", "8h", "Jh"], stock_size=6, trick={"leader": 0, "top": ["9s"]})


@pytest.mark.parametrize("option,expected,returns", [
    ("higher_top_card", result("bura", [2]), [-1, -1, 2]),
    ("void_deal", None, [0, 0, 0]),
])
def test_bu_combo_3_double_bura(option, expected, returns):
    """BU-COMBO-3, option double_bura: two buras at one check point; higher_top_card: the
    highest trump wins (Ah over 8h); void_deal: the deal is thrown in, nothing counts."""
    s = load(double_bura_position(), num_players=3, double_bura=option)
    play(s, "throw_down 7c", "throw_down 8c")
    d = s.to_dict()
    assert d["hands"] == [srt("Js Qc 9c"), srt("6h 7h 8h"), srt("9h Jh Ah")]
    if expected is None:
        assert d["result"]["kind"] == "void" and d["result"]["winners"] == []
        assert d["phase"] == "deal_over" and s.is_terminal()
        assert s.returns() == returns
    else:
        assert_deal_over(s, expected, returns)


def molodka_claim_position():
    """Seat 0 takes the trick (pile 36 points) and keeps the lead; seat 1 draws 9c: 7c 8c 9c,
    a molodka (trump diamonds)."""
    return after_trick("Jh Qh 8d", "7c 8c 9c", trump="Kd", draws=("8d", "9c"), lead="9s",
                       throw="6h", piles=["As Ah Tc Kc", []], fill_seat=1)


def test_bu_combo_4_claim_before_stop():
    """BU-COMBO-4: with a Stop option on, the scheduled leader first decides claim / no claim;
    a claim ends the deal before any Stop can be called."""
    s = load(molodka_claim_position(), molodka_stop=True)
    play(s, "throw_down 6h")
    d = s.to_dict()
    assert d["phase"] == "claim" and d["to_move"] == 0 and d["leader"] == 0
    assert points(pile(d, 0)) == 36
    assert_legal(s, "claim", "no_claim")
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [0]), [1, -1])
    s = load(molodka_claim_position(), molodka_stop=True)
    play(s, "throw_down 6h", "no_claim")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["to_move"] == 1 and d["leader"] == 0
    assert_legal(s, "stop 7c+8c+9c", "pass")


def molodka_position(hand0="9c Jd Kh", draw0="Jd", lead="8h", throw="8c"):
    """Trump spades; seat 1 draws Qd and holds 7d 9d Qd (a molodka); seat 0 leads next."""
    return after_trick(hand0, "7d 9d Qd", trump="Ks", draws=(draw0, "Qd"), lead=lead,
                       throw=throw)


def test_bu_combo_5_molodka_stop():
    """BU-COMBO-5: a non-leader with 3 non-trump cards of one suit may call Stop and lead them;
    the leader answers with 3 cards; the caller's trick is resolved and drawn for normally."""
    pos = molodka_position()
    s = load(pos, molodka_stop=True)
    play(s, "throw_down 8c", "no_claim")
    assert_legal(s, "stop 7d+9d+Qd", "pass")
    play(s, "stop 7d+9d+Qd")
    d = s.to_dict()
    assert d["phase"] == "answer" and d["to_move"] == 0 and d["hands"][1] == []
    assert d["trick"] == {"leader": 1, "k": 3, "played": [[], srt("7d 9d Qd")],
                          "top": srt("7d 9d Qd"), "holder": 1}
    assert_legal(s, "throw_down 9c+Jd+Kh")
    before = s.to_dict()
    play(s, "throw_down 9c+Jd+Kh")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["7d", "9d", "Qd"])
    assert d["piles"][1]["down"] == srt(before["piles"][1]["down"] + ["9c", "Jd", "Kh"])
    assert d["hands"] == [["Ks"], [before["stock"][0]]] and d["stock"] == []
    assert d["phase"] == "claim" and d["to_move"] == 1 and d["leader"] == 1


def test_bu_combo_5_stop_is_a_choice():
    """BU-COMBO-5: the Stop is the holder's choice: after a pass the scheduled leader leads
    (no claim any more: it was decided)."""
    s = load(molodka_position(), molodka_stop=True)
    play(s, "throw_down 8c", "no_claim", "pass")
    d = s.to_dict()
    assert d["phase"] == "lead" and d["to_move"] == 0
    assert_legal(s, "lead 9c", "lead Jd", "lead Kh")


def test_bu_combo_5_leader_molodka_blocks_stop():
    """BU-COMBO-5: if the scheduled leader holds a molodka himself (9h Jh Kh), the Stop is not
    allowed: the other player's call (legal by his own hand: the leader's hand is hidden) is
    refused, the leader shows his molodka and the caller his three cards (rules §5: calls show
    their cards; both stay known for the rest of the deal, with the check point they were
    shown at) and the leader leads (any 3-card lead of one suit included, BU-COMBO-9)."""
    s = load(molodka_position("9h Jh Kh", "Kh", lead="6c", throw="8c"), molodka_stop=True)
    play(s, "throw_down 8c", "no_claim")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["to_move"] == 1 and d["stop_round"] == "molodka"
    assert_legal(s, "stop 7d+9d+Qd", "pass")
    play(s, "stop 7d+9d+Qd")
    d = s.to_dict()
    assert d["phase"] == "lead" and d["to_move"] == 0 and d["trick"] is None
    assert d["revealed"] == [["9h", "Jh", "Kh"], ["7d", "9d", "Qd"]]
    assert d["revealed_at"] == {c: d["tricks"] for c in ["9d", "Qd", "7d", "9h", "Jh", "Kh"]}
    assert d["hands"][1] == ["7d", "9d", "Qd"]
    assert s.observation(1)["revealed"][0] == ["9h", "Jh", "Kh"]
    assert s.observation(0)["revealed"][1] == ["7d", "9d", "Qd"]
    assert_legal(s, "lead 9h", "lead Jh", "lead Kh", "lead 9h+Jh", "lead 9h+Kh", "lead Jh+Kh",
                 "lead 9h+Jh+Kh")


def test_bu_combo_5_leader_small_moscow_blocks_molodka_stop():
    """BU-COMBO-5: a small Moscow in the scheduled leader's hand (6s 6c 6h, trump six 6s)
    blocks a molodka Stop."""
    s = load(molodka_position("6s 6c 6h", "6h", lead="8c", throw="8h"), molodka_stop=True,
             small_moscow="three_sixes_with_trump")
    play(s, "throw_down 8h", "no_claim")
    assert s.to_dict()["to_move"] == 1
    assert_legal(s, "pass")


def test_bu_combo_5_option_off_no_stop_round():
    """Option molodka_stop=off: no Stop round; the leader's claim and leads are one decision."""
    s = load(molodka_position())
    play(s, "throw_down 8c")
    d = s.to_dict()
    assert d["phase"] == CHECK and d["to_move"] == 0
    assert_legal(s, "lead 9c", "lead Jd", "lead Kh", "claim")


def small_moscow_position(hand1="6c 6h 6d", draw1="6d", trump="Kc"):
    """Seat 0 holds 7c 7h 7d after the draw; seat 1 holds ``hand1``; seat 0 leads next."""
    return after_trick("7c 7h 7d", hand1, trump=trump, draws=("7d", draw1), lead="8s",
                       throw="9s")


@pytest.mark.parametrize("option", ["three_sixes_with_trump", "three_tens_with_trump"])
def test_bu_combo_6_small_moscow_stop(option):
    """BU-COMBO-6, option small_moscow: a non-leader with 3 sixes including the trump six may
    Stop and lead them (3 suits); the tens variant does not know sixes. The lead is beaten by
    a one-to-one pairing: 7c->6c, 7d->6d, 7h->6h."""
    s = load(small_moscow_position(), small_moscow=option)
    play(s, "throw_down 9s", "no_claim")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["to_move"] == 1
    if option == "three_tens_with_trump":
        assert_legal(s, "pass")
        return
    assert_legal(s, "stop 6c+6d+6h", "pass")
    play(s, "stop 6c+6d+6h")
    assert_legal(s, "beat 7c+7d+7h", "throw_down 7c+7d+7h")
    before = s.to_dict()
    play(s, "beat 7c+7d+7h")
    d = s.to_dict()
    assert d["piles"][0]["up"] == srt(before["piles"][0]["up"] + "6c 6d 6h 7c 7d 7h".split())
    assert d["to_move"] == 0 and d["leader"] == 0 and d["last_trick_taker"] == 0


def test_bu_combo_6_small_moscow_tens_variant():
    """BU-COMBO-6, small_moscow=three_tens_with_trump: three tens including the trump ten."""
    pos = small_moscow_position("Tc Th Td", "Td")
    s = load(pos, small_moscow="three_tens_with_trump")
    play(s, "throw_down 9s", "no_claim")
    assert_legal(s, "stop Tc+Td+Th", "pass")
    s = load(pos, small_moscow="three_sixes_with_trump")
    play(s, "throw_down 9s", "no_claim")
    assert_legal(s, "pass")


def test_bu_combo_6_small_moscow_needs_trump_six():
    """BU-COMBO-6: three sixes without the trump six (trump clubs: 6s 6d 6h) are no small
    Moscow."""
    s = load(small_moscow_position("6s 6h 6d", "6d"), small_moscow="three_sixes_with_trump")
    play(s, "throw_down 9s", "no_claim")
    assert_legal(s, "pass")


def three_player_stop_position():
    """3 players, trump spades; seat 0 takes the trick and leads next; after the draw seat 1
    holds 7d 9d Qd and seat 2 7c 8c Tc (two molodkas), seat 0 9c Jd Ah."""
    return position(hands=["9c Jd", "7d 9d 6h", "7c 8c 7h"], leader=0, trump="Ks",
                    stock=["Ah", "Qd", "Tc"], stock_size=6, trick={"leader": 0, "top": ["8h"]})


def test_bu_combo_7_stop_calls_asked_clockwise_first_caller_leads():
    """BU-COMBO-7: non-leaders are asked clockwise from the leader's left; the first caller
    leads; the others are not asked; the stopped trick is answered clockwise from the caller's
    left (the scheduled leader included) and its winner leads next."""
    opts = {"num_players": 3, "molodka_stop": True}
    s = load(three_player_stop_position(), **opts)
    play(s, "throw_down 6h", "throw_down 7h", "no_claim")
    d = s.to_dict()
    assert d["hands"] == [srt("9c Jd Ah"), srt("7d 9d Qd"), srt("7c 8c Tc")]
    assert d["phase"] == "stop" and d["to_move"] == 1
    assert_legal(s, "stop 7d+9d+Qd", "pass")
    play(s, "stop 7d+9d+Qd")
    d = s.to_dict()
    assert d["phase"] == "answer" and d["to_move"] == 2 and d["trick"]["leader"] == 1
    assert_legal(s, "throw_down 7c+8c+Tc")
    play(s, "throw_down 7c+8c+Tc")
    assert s.to_dict()["to_move"] == 0
    assert_legal(s, "throw_down 9c+Jd+Ah")
    before = s.to_dict()
    play(s, "throw_down 9c+Jd+Ah")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["7d", "9d", "Qd"])
    assert d["piles"][1]["down"] == srt(before["piles"][1]["down"]
                                        + "7c 8c Tc 9c Jd Ah".split())
    assert d["stock"] == [] and d["hands"] == [["Ks"]] + [[c] for c in before["stock"][:2]]
    assert d["to_move"] == 1 and d["leader"] == 1 and d["phase"] == "claim"


def test_bu_combo_7_second_caller_after_a_pass():
    """BU-COMBO-7: after seat 1 passes, seat 2 may call; his trick is answered by seat 0, then
    seat 1. If both pass, the scheduled leader leads."""
    opts = {"num_players": 3, "molodka_stop": True}
    s = load(three_player_stop_position(), **opts)
    play(s, "throw_down 6h", "throw_down 7h", "no_claim", "pass")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["to_move"] == 2
    assert_legal(s, "stop 7c+8c+Tc", "pass")
    play(s, "stop 7c+8c+Tc")
    d = s.to_dict()
    assert d["trick"]["leader"] == 2 and d["to_move"] == 0
    s = load(three_player_stop_position(), **opts)
    play(s, "throw_down 6h", "throw_down 7h", "no_claim", "pass", "pass")
    d = s.to_dict()
    assert d["phase"] == "lead" and d["to_move"] == 0 and d["leader"] == 0
    assert_legal(s, "lead 9c", "lead Jd", "lead Ah")


def test_bu_combo_8_otherwise_scheduled_leader_leads():
    """BU-COMBO-8: without a Stop the scheduled leader leads normally (BU-LEAD-4) and the trick
    is answered clockwise from him."""
    s = load(molodka_position(), molodka_stop=True)
    play(s, "throw_down 8c", "no_claim", "pass", "lead Jd")
    d = s.to_dict()
    assert d["phase"] == "answer" and d["to_move"] == 1
    assert d["trick"] == {"leader": 0, "k": 1, "played": [["Jd"], []], "top": ["Jd"],
                          "holder": 0}
    assert_legal(s, "beat Qd", "throw_down 7d", "throw_down 9d", "throw_down Qd")


def test_bu_combo_9_three_card_lead_on_own_turn_and_trump_molodka_is_bura():
    """BU-COMBO-9: a 3-card lead of one suit is always legal on one's own turn; a molodka in
    trumps is a bura (it wins at the check point instead of giving a Stop)."""
    s = load(check_position(hands=["7d 9d Qd", "8s 8c 8h"], trump="Ks"), molodka_stop=False)
    assert "lead 7d+9d+Qd" in legal_strings(s)
    pos = after_trick("9c Jd Kh", "7s 9s Qs", trump="Ks", draws=("Jd", "Qs"), lead="8h",
                      throw="8c")
    s = load(pos, molodka_stop=True)
    play(s, "throw_down 8c")
    assert_deal_over(s, result("bura", [1]), [-1, 1])


# =============================================================================================
# 2.6 Claiming 31 and end of the deal
# =============================================================================================

def test_bu_claim_1_pile_counted_with_face_down_cards():
    """BU-CLAIM-1: a claim counts the claimant's whole pile, face-down cards included:
    As Kc 6s 7s up (15) + Tc Kh Jd 6d down (16) = 31 wins; without Jd (29) it loses."""
    pos = check_position(piles=[{"up": "As Kc 6s 7s", "down": "Tc Kh Jd 6d"}, []],
                         fill_seat=1)
    assert points(pile(pos, 0)) == 31
    s = load(pos)
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [0]), [1, -1])
    pos = check_position(piles=[{"up": "As Kc 6s 7s", "down": "Tc Kh 6d 7d"}, []],
                         fill_seat=1, trump="8d")
    assert points(pile(pos, 0)) == 29
    s = load(pos)
    play(s, "claim")
    assert_deal_over(s, result("claim_lost", [1], 2), [-2, 2])


@pytest.mark.parametrize("cards,penalty,expected,returns", [
    ("As Tc Kd Kh Jc", "double", result("claim_won", [1]), [-1, 1]),
    ("As Tc Kd Qh Jc", "double", result("claim_lost", [0], 2), [2, -2]),
    ("As Tc Kd Qh Jc", "single", result("claim_lost", [0], 1), [1, -1]),
    ("As Tc Kd Kh Jc", "single", result("claim_won", [1]), [-1, 1]),
])
def test_bu_claim_2_31_wins_30_loses(cards, penalty, expected, returns):
    """BU-CLAIM-2, option false_claim_penalty: 31 or more wins (multiplier 1); 30 or fewer
    loses, a double loss by default (multiplier 2), single with ``single``."""
    pos = check_position(leader=1, piles=[[], cards], fill_seat=0)
    assert points(pile(pos, 1)) in (30, 31)
    s = load(pos, false_claim_penalty=penalty)
    play(s, "claim")
    assert_deal_over(s, expected, returns)


def test_bu_claim_3_no_claim_while_answering():
    """BU-CLAIM-3: a claim is made only on one's own turn to lead: never while answering, never
    in a Stop round, not after the leader has declined it."""
    s = load(answer_position("Qs", "Ks 7c 8c"))
    assert "claim" not in legal_strings(s)
    assert_illegal(s, "claim")
    s = load(molodka_position(), molodka_stop=True)
    play(s, "throw_down 8c", "no_claim")
    assert "claim" not in legal_strings(s)
    assert_illegal(s, "claim")
    play(s, "pass")
    assert "claim" not in legal_strings(s)
    assert_illegal(s, "claim")


def test_bu_end_1_deal_ends_at_first_win():
    """BU-END-1: the deal ends at once at a claim (cards still in hands and stock): terminal,
    nothing legal, nobody to move; actions are refused."""
    pos = check_position(piles=["As Ah Tc Kc", []], fill_seat=1)
    s = load(pos)
    play(s, "claim")
    d = s.to_dict()
    assert d["hands"] == pos["hands"] and d["stock"] == pos["stock"]
    assert_deal_over(s, result("claim_won", [0]), [1, -1])
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("lead 9s"))
    assert s.to_dict() == d


def final_trick(pile0, pile1, **kw):
    """The last trick: seat 0 has led 6s, seat 1 holds 7s (it beats); the piles before it."""
    return position(hands=[[], ["7s"]], leader=0, trump="6h", piles=[pile0, pile1],
                    trick={"leader": 0, "top": ["6s"]}, **kw)


PILE_64 = "8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac Kd 6d"
PILE_56 = "7d 8d 9d Jd Qd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah"


def test_bu_end_2_all_cards_played_last_winner_may_claim():
    """BU-END-2: after the last trick its winner (seat 1, 56 points) may claim; if he does not,
    the piles are counted and the most points win (seat 0, 64)."""
    assert points(PILE_64) == 64 and points(PILE_56) == 56
    pos = final_trick(PILE_64, PILE_56)
    s = load(pos)
    play(s, "beat 7s")
    d = s.to_dict()
    assert d["phase"] == "claim" and d["to_move"] == 1 and d["leader"] == 1
    assert d["hands"] == [[], []] and d["stock"] == []
    assert_legal(s, "claim", "no_claim")
    t = s.clone()
    play(s, "no_claim")
    assert_deal_over(s, result("most_points", [0]), [1, -1])
    play(t, "claim")
    assert_deal_over(t, result("claim_won", [1]), [-1, 1])


def test_bu_end_2_tie_is_void_and_option_end_without_claim():
    """BU-END-2, option end_without_claim: a 60-60 tie is a void deal; with ``void`` every
    deal played out without a claim is void."""
    pos = final_trick("8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac",
                      "6d 7d 8d 9d Jd Qd Kd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah")
    s = load(pos)
    play(s, "beat 7s", "no_claim")
    d = s.to_dict()
    assert d["result"]["kind"] == "void" and d["result"]["winners"] == []
    assert d["phase"] == "deal_over" and s.returns() == [0, 0]
    s = load(final_trick(PILE_64, PILE_56), end_without_claim="void")
    play(s, "beat 7s", "no_claim")
    d = s.to_dict()
    assert d["result"]["kind"] == "void" and s.returns() == [0, 0]
    s = load(final_trick(PILE_64, PILE_56), end_without_claim="void")
    play(s, "beat 7s", "claim")
    assert_deal_over(s, result("claim_won", [1]), [-1, 1])


def three_player_claim(pile0):
    return position(hands=["9s 9c 9h", "8s 8c 8h", "7s 7c 7h"], leader=0, trump="Jd",
                    stock_size=9, piles=[pile0, [], []], fill_seat=1)


@pytest.mark.parametrize("pile0,penalty,expected,returns", [
    ("As Ah Tc", "double", result("claim_won", [0]), [2, -1, -1]),
    ("6d 7d 8d", "double", result("claim_lost", [1, 2], 2), [-2, 1, 1]),
    ("6d 7d 8d", "single", result("claim_lost", [1, 2], 1), [-1, 0.5, 0.5]),
])
def test_bu_end_3_results_with_three_players(pile0, penalty, expected, returns):
    """BU-END-3: a genuine claim: the claimant wins, both others lose (multiplier 1); a false
    claim: the claimant loses, both others win (multiplier 2, or 1 with ``single``); each loser
    pays the multiplier, the winners share."""
    s = load(three_player_claim(pile0), num_players=3, false_claim_penalty=penalty)
    play(s, "claim")
    assert_deal_over(s, expected, returns)
    assert sum(s.returns()) == pytest.approx(0)


def test_bu_end_4_only_card_points_count():
    """BU-END-4: only card points of the pile count: 20 cards worth 30 (Ah Th Kh Qh Jh and
    fifteen zero cards) lose a claim; cards in the hand (three aces) count for nothing."""
    zeros = "6s 7s 8s 9s 6c 7c 8c 9c 6d 7d 8d 9d 6h 7h 8h"
    pos = check_position(hands=["As Ac Ad", "Ks Kc 9h"], trump="Td",
                         piles=["Ah Th Kh Qh Jh " + zeros, []], fill_seat=1)
    assert len(pile(pos, 0)) == 20 and points(pile(pos, 0)) == 30
    s = load(pos)
    play(s, "claim")
    assert_deal_over(s, result("claim_lost", [1], 2), [-2, 2])


def test_bu_end_5_face_down_cards_secret_until_counted():
    """BU-END-5: face-down cards stay secret from the pile's owner until the count: his
    observation lacks them; the thrower's shows them; the claim counts them (BU-CLAIM-1)."""
    pos = check_position(piles=[{"up": "As Kc 6s 7s", "down": "Tc Kh Jd 6d"}, []], fill_seat=1)
    s = load(pos)
    for card in ("Tc", "Kh", "Jd"):
        assert f'"{card}"' not in json.dumps(s.observation(0))
        assert f'"{card}"' in json.dumps(s.observation(1))
    assert '"As"' in json.dumps(s.observation(0))
    play(s, "claim")
    assert core(s.to_dict()["result"]) == result("claim_won", [0])


def test_bu_end_6_next_dealer_is_the_winner():
    """BU-END-6: the deal's winner deals next (2 players: seat 1 claims and wins, dealer was
    0)."""
    opts = {"match_format": "wins_to_n"}
    pos = match_check(2, leader=1, pile_cards="As Ah Tc", dealer=0)
    s = load(pos, **opts)
    play(s, "claim")
    assert_next_deal(s, dealer=1, leader=1, scores=[0, 1], **opts)


@pytest.mark.parametrize("claimant,dealer", [(1, 2), (2, 0), (0, 1)])
def test_bu_end_6_several_winners_first_from_claimants_left(claimant, dealer):
    """BU-END-6: after a false claim with 3 players the first winner clockwise from the
    claimant's left deals."""
    opts = {"match_format": "wins_to_n"}
    pos = match_check(3, leader=claimant, pile_cards="6d 7d 8d", dealer=(claimant - 1) % 3)
    s = load(pos, num_players=3, **opts)
    play(s, "claim")
    scores = [2, 2, 2]
    scores[claimant] = 0
    assert_next_deal(s, dealer=dealer, leader=claimant, scores=scores, n=3, **opts)


def test_bu_end_6_void_deal_same_dealer():
    """BU-END-6: after a void deal (60-60 without a claim) the same dealer deals again."""
    pos = position(hands=[[], ["7s"]], leader=0, trump="6h", dealer=1,
                   piles=["8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac",
                          "6d 7d 8d 9d Jd Qd Kd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah"],
                   trick={"leader": 0, "top": ["6s"]}, mode="match", rng=RNG_WORDS)
    s = load(pos)
    play(s, "beat 7s", "no_claim")
    assert_next_deal(s, dealer=1, leader=1, scores=[0, 0])


# =============================================================================================
# 2.7 Match
# =============================================================================================

def test_bu_match_1_single_deal_decides():
    """BU-MATCH-1: match_format=single_deal: one decided deal is the match: claim won -> match
    over, the winner positive, the loser negative."""
    pos = match_check(2, leader=0, pile_cards="As Ah Tc")
    s = load(pos)
    play(s, "claim")
    d = s.to_dict()
    assert d["phase"] == "match_over" and s.is_terminal() and s.current_player() == -1
    r = s.returns()
    assert r[0] > 0 > r[1] and sum(r) == pytest.approx(0)


def test_bu_match_1_void_deal_is_replayed():
    """BU-MATCH-1: a void deal decides nothing: the match goes on with the next deal (same
    dealer); whole random matches end in a decided deal."""
    s = load(position(hands=[[], ["7s"]], leader=0, trump="6h", dealer=0,
                      piles=["8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac",
                             "6d 7d 8d 9d Jd Qd Kd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah"],
                      trick={"leader": 0, "top": ["6s"]}, mode="match", rng=RNG_WORDS))
    play(s, "beat 7s", "no_claim")
    assert_next_deal(s, dealer=0, leader=1, scores=[0, 0])
    rnd = random.Random(5)
    for seed in range(8):
        m = game().new_match(seed=seed)
        random_play(m, rnd, max_steps=2000)
        d = m.to_dict()
        assert d["phase"] == "match_over" and d["result"]["kind"] != "void"
        r = m.returns()
        assert sorted(r)[0] < 0 < sorted(r)[-1] and sum(r) == pytest.approx(0)


@pytest.mark.parametrize("scores,claimant,pile_cards,after,over", [
    ([10, 9], 0, "As Ah Tc", [11, 9], True),      # 11 with a lead of 2
    ([10, 10], 0, "As Ah Tc", [11, 10], False),   # 11 but a lead of 1: play on
    ([9, 10], 1, "6d 7d 8d", [11, 10], False),    # a false claim gives 2 wins
    ([10, 10], 1, "6d 7d 8d", [12, 10], True),
])
def test_bu_match_2_wins_to_n(scores, claimant, pile_cards, after, over):
    """BU-MATCH-2: each deal winner gets ``multiplier`` wins; the first to 11 with a lead of 2
    wins the match (+1, the other -1); otherwise the next deal is dealt."""
    opts = {"match_format": "wins_to_n"}
    pos = match_check(2, leader=claimant, pile_cards=pile_cards, scores=scores,
                      dealer=1 - claimant)
    s = load(pos, **opts)
    play(s, "claim")
    d = s.to_dict()
    assert d["scores"] == after
    if over:
        assert d["phase"] == "match_over" and s.is_terminal()
        assert s.returns() == [1, -1]
    else:
        winner = claimant if pile_cards.startswith("As") else 1 - claimant
        assert_next_deal(s, dealer=winner, leader=claimant, scores=after, **opts)


def test_bu_match_2_three_players_and_target_21():
    """BU-MATCH-2, option wins_target: 3 players, 11 with a lead of 2 over both others wins
    (+1, the others -1/2); with wins_target=21 the same deal does not end the match."""
    pos = match_check(3, leader=0, pile_cards="As Ah Tc", scores=[10, 8, 9])
    s = load(pos, num_players=3, match_format="wins_to_n")
    play(s, "claim")
    assert s.to_dict()["phase"] == "match_over" and s.to_dict()["scores"] == [11, 8, 9]
    assert s.returns() == pytest.approx([1, -0.5, -0.5])
    pos = match_check(2, leader=0, pile_cards="As Ah Tc", scores=[10, 5])
    s = load(pos, match_format="wins_to_n")
    play(s, "claim")
    assert s.to_dict()["phase"] == "match_over" and s.returns() == [1, -1]
    s = load(pos, match_format="wins_to_n", wins_target=21)
    play(s, "claim")
    assert_next_deal(s, dealer=0, leader=0, scores=[11, 5], match_format="wins_to_n",
                     wins_target=21)


@pytest.mark.parametrize("n,scores,claimant,pile_cards,after,returns", [
    (2, [10, 0], 0, "6d 7d 8d", [14, 0], [-1, 1]),        # false claim: 2 x 2 points
    (2, [8, 0], 1, "As Ah Tc", [10, 0], None),             # 10 < 12: play on
    (2, [10, 10], 1, "As Ah Tc", [12, 10], [-1, 1]),
    (3, [0, 10, 10], 0, "As Ah Tc", [0, 12, 12], [2, -1, -1]),
    (3, [10, 0, 0], 1, "As Ah Tc", [12, 0, 2], [-1, 0.5, 0.5]),
])
def test_bu_match_3_penalty_points(n, scores, claimant, pile_cards, after, returns):
    """BU-MATCH-3, options match_format=penalty_points, penalty_limit=12: each loser of a deal
    gets 2 x multiplier penalty points; whoever reaches 12 loses the match (-1 each), the
    others share."""
    opts = {"match_format": "penalty_points", "penalty_limit": 12}
    pos = match_check(n, leader=claimant, pile_cards=pile_cards, scores=scores,
                      dealer=(claimant - 1) % n)
    s = load(pos, num_players=n, **opts)
    play(s, "claim")
    d = s.to_dict()
    assert d["scores"] == after
    if returns is None:
        assert_next_deal(s, dealer=claimant, leader=claimant, scores=after, n=n, **opts)
    else:
        assert d["phase"] == "match_over" and s.is_terminal()
        assert s.returns() == pytest.approx(returns)


def test_bu_resp_6_sampled_world_forgets_the_true_deal_order():
    """BU-RESP-6, rules §5: a sampled world keeps no trace of the true hands: the dealt part of
    the deal order is overwritten with an unknown marker (no kernel reads it)."""
    from cardsim.compiled.order import UNKNOWN, order_card
    from cardsim.games.bura import layout
    state = game(num_players=3).new_deal(seed=5)
    world = state.sample_world(1, seed=8)
    dealt = int(world.vec[layout.NEXT])
    assert dealt == 9
    assert all(order_card(world.vec, layout.ORDER, i) == UNKNOWN for i in range(dealt))
    assert all(order_card(state.vec, layout.ORDER, i) != UNKNOWN for i in range(dealt))


# =============================================================================================
# Rules §5: the deal's history and the check points already passed
# =============================================================================================

def _played_out(seed, options, until=lambda d: False, claim_p=0.0):
    """A random playout from a seeded deal, stopped at the first position where ``until``
    holds (or at the end); no claims, so deals run long."""
    g = game(**options)
    s = g.new_deal(seed=seed)
    rnd = random.Random(seed)
    while not s.is_terminal() and not until(s.to_dict()):
        legal = [a for a in s.legal_actions() if a >> 40 != 4 or rnd.random() < claim_p]
        s.apply_action(rnd.choice(legal or s.legal_actions()))
    return s


def _hands_at(d, seat):
    """``seat``'s hand at each check point so far, from the position's history."""
    got = {}
    for j, h in enumerate(d["history"]):
        got.update((c, j + 1) for c in h["drawn"][seat])
    until = {}
    for j, h in enumerate(d["history"]):
        until.update((c, j) for c in h["played"][seat])
    now = d["hands"][seat] + (d["trick"]["played"][seat] if d["trick"] else [])
    until.update((c, d["tricks"]) for c in now)
    return [sorted(c for c, u in until.items() if got.get(c, 0) <= cp <= u)
            for cp in range(d["tricks"] + 1)]


def test_rules_5_history_records_every_trick_and_draw():
    """Rules §5: the position's ``history`` lists, per finished trick, what each seat played and
    what he drew after it; with the dealt cards it gives every hand at every check point: three
    cards each while the stock lasts, the led and answered cards among them."""
    s = _played_out(4, {}, until=lambda d: d["tricks"] >= 6)
    d = s.to_dict()
    assert len(d["history"]) == d["tricks"] == 6
    for seat in range(2):
        hands = _hands_at(d, seat)
        for j, h in enumerate(d["history"]):
            assert set(h["played"][seat]) <= set(hands[j])
            assert len(hands[j]) == 3
            assert len(h["drawn"][seat]) == len(h["played"][seat])   # the stock lasts
    assert game().from_dict(d).to_dict() == d


def test_rules_5_observation_shows_own_draws_and_only_counts_of_others():
    """Rules §5: a player sees which cards he drew after each trick, of the others only how
    many (and the turned trump card, whose draw is public); face-down cards of others are
    counted, not named."""
    s = _played_out(7, {}, until=lambda d: d["tricks"] >= 5 and any(d["thrown_down"]))
    d = s.to_dict()
    for player in range(2):
        seen = s.observation(player)["history"]
        for h, o in zip(d["history"], seen):
            other = 1 - player
            assert o["drawn"][player] == h["drawn"][player]
            assert o["drawn_count"] == [len(x) for x in h["drawn"]]
            assert o["drawn"][other] == [c for c in h["drawn"][other] if c == d["trump_card"]]
            secret = set(d["thrown_down"][other]) - {d["trump_card"]}
            assert o["played"][other] == [c for c in h["played"][other] if c not in secret]
            assert o["face_down"][other] == len(secret & set(h["played"][other]))
            assert o["played"][player] == h["played"][player]


def test_rules_5_sampled_worlds_respect_every_check_point_passed():
    """Rules §5: play went on, so no hand held a bura (or an enabled Moscow) at any check point
    already passed — not only at the last one. The position (seed 4, 28 random moves without
    claims; found by a search over seeds) gives seat 1 placements of his unseen cards that the
    current check point allows but earlier ones rule out, however seat 0 received his cards
    (the conformance suite's independent count of receipt orders). None is ever sampled; every
    sampled world passes every check point of its history; the others appear with their
    posterior weights (chi-square, alpha 1e-4)."""
    from cardsim.games.bura import conformance as bura_adapter
    from tests.conformance import test_every_game as conf
    g = game()
    s = g.new_deal(seed=4)
    rnd = random.Random(4)
    for _ in range(28):
        legal = [a for a in s.legal_actions() if a >> 40 != 4]
        s.apply_action(rnd.choice(legal or s.legal_actions()))
    d, player = s.to_dict(), 1
    allowed_now, possible = set(), {}
    for sigma in conf._placements(conf._groups(g, d, player)):
        w = conf._relabel(g, d, sigma)
        if bura_adapter.world_ok({**w, "history": None}):
            allowed_now.add(conf._assignment(g, w, player))
        weight = bura_adapter.world_weight(w, player)
        if weight:
            possible[conf._assignment(g, w, player)] = weight
    assert set(possible) < allowed_now, "the position no longer tests an earlier check point"
    counts = Counter()
    for seed in range(40 * len(possible)):
        w = s.sample_world(player, seed=seed).to_dict()
        assert bura_adapter.world_ok(w)
        counts[conf._assignment(g, w, player)] += 1
    assert set(counts) == set(possible)
    cells = sorted(possible)
    total = sum(possible.values())
    expected = [sum(counts.values()) * possible[c] / total for c in cells]
    assert chisquare([counts[c] for c in cells], expected).pvalue > 1e-4


def test_rules_5_without_history_only_the_current_check_point_binds():
    """Rules §5: a position given without ``history`` knows the hands at the current check point
    only; its sampled worlds respect that one, and say so by having no history either."""
    s = _played_out(4, {}, until=lambda d: d["tricks"] >= 4)
    d = s.to_dict()
    del d["history"]
    t = game().from_dict(d)
    assert t.to_dict()["history"] is None
    assert t.observation(0)["history"] is None
    for seed in range(20):
        w = t.sample_world(0, seed=seed).to_dict()
        assert w["history"] is None
        hand = w["hands"][1] + (w["trick"]["played"][1] if w["trick"] else [])
        assert "bura" not in combos(hand, w["trump_card"][1])


def test_rules_5_the_trump_cards_draw_is_public_in_every_world():
    """Rules §5 (and BU-DRAW-2): who drew the turned trump card, and when, is public: every
    sampled world keeps it."""
    s = _played_out(2, {}, until=lambda d: not d["stock"] and d["tricks"] >= 14)
    d = s.to_dict()
    assert not d["stock"]
    when = [(j, q) for j, h in enumerate(d["history"]) for q in range(2)
            if d["trump_card"] in h["drawn"][q]]
    assert len(when) == 1
    for player in range(2):
        for seed in range(10):
            w = s.sample_world(player, seed=seed).to_dict()
            j, q = when[0]
            assert d["trump_card"] in w["history"][j]["drawn"][q]
