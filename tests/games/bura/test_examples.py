"""Every worked example of rules/bura.md §4 (BU-EX-1 … BU-EX-15) as an explicit position.

The cards the example names are written as given; the cards it leaves unnamed are chosen by
``positions.position`` so that the position is legal (all 36 cards once, hand sizes consistent
with the trick, a stock that is a multiple of the player count with the trump card last).
"P1"/"P2" of the examples are seats 0/1 unless the test says otherwise. Expected legal actions,
piles, results and returns are copied from the example; where the example states a point total,
a claim at the next check point shows that the engine counts the same total.
"""
from __future__ import annotations

import functools
import json
import random

import pytest

from cardsim.errors import IllegalActionError
from tests.games.bura.positions import (
    CHECK,
    RNG_WORDS,
    action_id,
    after_trick,
    assert_legal,
    assert_next_deal,
    combos,
    core,
    find_seed,
    first_shuffle,
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
    with pytest.raises(IllegalActionError):
        state.apply_action(action_id(text))
    assert state.to_dict() == before


def assert_deal_over(state, expected_result, returns):
    d = state.to_dict()
    assert d["phase"] == "deal_over" and core(d["result"]) == expected_result
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == pytest.approx(returns)


def answer_position(lead, answer_hand, *, trump="7d", leader_rest=None, **kw):
    """2 players: seat 0 has led ``lead`` (k cards), seat 1 holds ``answer_hand``."""
    lead = lead.split()
    if leader_rest is None:
        leader_rest = ["9h", "Jh"][:3 - len(lead)]
    kw.setdefault("stock_size", 2)
    return position(hands=[leader_rest, answer_hand], leader=0, trump=trump,
                    trick={"leader": 0, "top": lead}, **kw)


# --- BU-EX-1 .. BU-EX-4: beating -------------------------------------------------------------

@pytest.mark.parametrize("card,beats", [("Ks", True), ("Ts", True), ("6d", True),
                                        ("Ah", False), ("Js", False)])
def test_bu_ex_1_single_card(card, beats):
    """BU-EX-1: lead Qs (trump diamonds): Ks, Ts (10 > K > Q) and 6d (trump) beat; Ah (other
    plain suit) and Js (lower) do not."""
    s = load(answer_position("Qs", [card, "7c", "8c"]))
    expected = [f"throw_down {c}" for c in (card, "7c", "8c")]
    if beats:
        expected.append(f"beat {card}")
    assert_legal(s, *expected)
    if not beats:
        assert_illegal(s, f"beat {card}")


def test_bu_ex_2_two_card_lead_beaten():
    """BU-EX-2: lead {Qs, 7s}; {9d, Js} beats (9d->Qs, Js->7s); the answerer wins a trick worth
    Q3 + 0 + 0 + J2 = 5: with 26 points before, his claim at the next check point wins (31)."""
    pos = answer_position("Qs 7s", "9d Js 8c", trump="6d", leader_rest=["9h"],
                          stock=["7c", "8h", "9s", "Th"], stock_size=6,
                          piles=["", "As Tc Qd Jh"], fill_seat=0)
    assert points(pile(pos, 1)) == 26
    s = load(pos)
    assert_legal(s, "beat Js+9d", "throw_down Js+8c", "throw_down Js+9d", "throw_down 8c+9d")
    before = s.to_dict()
    play(s, "beat Js+9d")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["Qs", "7s", "Js", "9d"])
    assert points(pile(d, 1)) - points(pile(before, 1)) == 5
    assert d["hands"] == [srt("9h 8h Th"), srt("8c 7c 9s")]
    assert d["phase"] == CHECK and d["to_move"] == 1
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [1]), [-1, 1])


def test_bu_ex_2_two_card_lead_not_beaten():
    """BU-EX-2: {As, 8h} does not beat {Qs, 7s} (8h beats neither card): the leader wins
    Q3 + 0 + A11 + 0 = 14: with 17 points before, his claim wins (31), the face-down As
    counted."""
    pos = answer_position("Qs 7s", "As 8h 9c", trump="6d", leader_rest=["9h"],
                          stock=["7c", "9s", "Jc", "Th"], stock_size=6,
                          piles=["Ac Kd Jh", ""], fill_seat=1)
    assert points(pile(pos, 0)) == 17
    s = load(pos)
    assert_legal(s, "throw_down As+9c", "throw_down As+8h", "throw_down 9c+8h")
    assert_illegal(s, "beat As+8h")
    before = s.to_dict()
    play(s, "throw_down As+8h")
    d = s.to_dict()
    assert d["piles"][0]["up"] == srt(before["piles"][0]["up"] + ["Qs", "7s"])
    assert d["piles"][0]["down"] == srt(before["piles"][0]["down"] + ["As", "8h"])
    assert points(pile(d, 0)) - points(pile(before, 0)) == 14
    assert d["phase"] == CHECK and d["to_move"] == 0
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [0]), [1, -1])


def three_players_ex3(**kw):
    return position(hands=["9h", "9d Js 8c", "Kd 8d 9s"], leader=0, trump="6d", stock_size=3,
                    trick={"leader": 0, "top": ["Qs", "7s"]}, **kw)


def test_bu_ex_3_three_players_beat_the_last_beater():
    """BU-EX-3: A leads {Qs, 7s}, B beats with {9d, Js}; C (Kd 8d 9s) must beat B's cards:
    {Kd, 8d} does (Kd->9d, 8d->Js) and C wins; {Kd, 9s} does not, so B wins."""
    s = load(three_players_ex3(), num_players=3)
    play(s, "beat Js+9d")
    d = s.to_dict()
    assert d["trick"]["holder"] == 1 and d["trick"]["top"] == ["Js", "9d"]
    assert_legal(s, "beat 8d+Kd", "throw_down 9s+8d", "throw_down 9s+Kd", "throw_down 8d+Kd")
    before = s.to_dict()
    t = s.clone()
    play(s, "beat 8d+Kd")
    d = s.to_dict()
    assert d["piles"][2]["up"] == srt(before["piles"][2]["up"]
                                      + "Qs 7s Js 9d 8d Kd".split())
    assert d["to_move"] == 2 and d["leader"] == 2
    play(t, "throw_down 9s+Kd")
    d = t.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + "Qs 7s Js 9d".split())
    assert d["piles"][1]["down"] == srt(before["piles"][1]["down"] + ["9s", "Kd"])
    assert d["to_move"] == 1 and d["leader"] == 1


def test_bu_ex_3_same_cards_beat_the_original_lead():
    """BU-EX-3: had B not beaten, {Kd, 9s} would have beaten A's lead (Kd->Qs, 9s->7s)."""
    pos = position(hands=["9h", "9d", "Kd 8d 9s"], leader=0, trump="6d", stock_size=3,
                   trick={"leader": 0, "top": ["Qs", "7s"],
                          "played": [["Qs", "7s"], ["Js", "8c"], []], "down": ["Js", "8c"]})
    s = load(pos, num_players=3)
    assert s.current_player() == 2
    assert_legal(s, "beat 9s+8d", "beat 9s+Kd", "beat 8d+Kd", "throw_down 9s+8d",
                 "throw_down 9s+Kd", "throw_down 8d+Kd")


def test_bu_ex_4_matching_must_not_be_greedy():
    """BU-EX-4: trump clubs, lead {Ah, Th, 6h}: {7c, 6c, Kh} beats (Kh->6h, 6c->Ah, 7c->Th);
    {7c, Kh, Qh} does not (Kh and Qh can both only beat 6h) and the leader wins."""
    pos = answer_position("Ah Th 6h", "7c 6c Kh", trump="8c", leader_rest=[])
    s = load(pos)
    assert_legal(s, "beat 6c+7c+Kh", "throw_down 6c+7c+Kh")
    before = s.to_dict()
    play(s, "beat 6c+7c+Kh")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + "Ah Th 6h 7c 6c Kh".split())
    s = load(answer_position("Ah Th 6h", "7c Kh Qh", trump="8c", leader_rest=[]))
    assert_legal(s, "throw_down 7c+Qh+Kh")
    assert_illegal(s, "beat 7c+Qh+Kh")
    before = s.to_dict()
    play(s, "throw_down 7c+Qh+Kh")
    d = s.to_dict()
    assert d["piles"][0]["up"] == srt(before["piles"][0]["up"] + ["Ah", "Th", "6h"])
    assert d["piles"][0]["down"] == srt(before["piles"][0]["down"] + ["7c", "Kh", "Qh"])


# --- BU-EX-5 .. BU-EX-7: claims, face-down cards, drawing -----------------------------------

def claim_position(pile0, **kw):
    return position(hands=["8s 8c 8h", "7s 7c 7h"], leader=0, trump="6d", stock_size=10,
                    piles=[pile0, []], fill_seat=1, **kw)


def test_bu_ex_5_claim_exact_arithmetic():
    """BU-EX-5: pile As Th Kd Qc Js 9h = 30: the claim is false, a double loss; with Jh
    (32) it wins."""
    pos = claim_position("As Th Kd Qc Js 9h")
    assert points(pile(pos, 0)) == 30
    s = load(pos)
    play(s, "claim")
    assert_deal_over(s, result("claim_lost", [1], 2), [-2, 2])
    pos = claim_position("As Th Kd Qc Js 9h Jh")
    assert points(pile(pos, 0)) == 32
    s = load(pos)
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [0]), [1, -1])


def test_bu_ex_6_face_down_discards():
    """BU-EX-6: the leader's pile holds 27 face up and the opponent's face-down Tc, 6h: the
    leader sees 27 and two unknown cards, the opponent knows 37; the claim reveals 37 and
    wins."""
    pos = claim_position({"up": "As Ks Qs Js Kd Qd", "down": "Tc 6h"})
    assert points(pos["piles"][0]["up"]) == 27 and points(pile(pos, 0)) == 37
    assert pos["thrown_down"][1] == ["Tc", "6h"]
    s = load(pos)
    mine, theirs = json.dumps(s.observation(0)), json.dumps(s.observation(1))
    for card in ("Tc", "6h"):
        assert f'"{card}"' not in mine and f'"{card}"' in theirs
    for card in ("As", "Ks", "Qs", "Js", "Kd", "Qd"):
        assert f'"{card}"' in mine and f'"{card}"' in theirs
    play(s, "claim")
    assert_deal_over(s, result("claim_won", [0]), [1, -1])


def test_bu_ex_7_draw_order_and_trump_card():
    """BU-EX-7: trump card 9d, stock [Kh, 9d]; P2 wins a 3-card trick with both hands empty:
    P2 draws Kh, P1 draws the trump card 9d; the stock is empty, one card each."""
    pos = position(hands=[[], ["Js", "Qs", "Ks"]], leader=0, trump="9d", stock=["Kh", "9d"],
                   trick={"leader": 0, "top": ["6s", "7s", "8s"]})
    assert pos["stock"] == ["Kh", "9d"]
    s = load(pos)
    assert_legal(s, "beat Js+Qs+Ks", "throw_down Js+Qs+Ks")
    play(s, "beat Js+Qs+Ks")
    d = s.to_dict()
    assert d["hands"] == [["9d"], ["Kh"]] and d["stock"] == [] and d["trump_card"] == "9d"
    assert d["phase"] == CHECK and d["to_move"] == 1
    assert_legal(s, "lead Kh", "claim")


# --- BU-EX-8 .. BU-EX-13: combinations -------------------------------------------------------

@pytest.mark.parametrize("seat", [0, 1])
def test_bu_ex_8_bura_after_drawing(seat):
    """BU-EX-8: trump hearts; after drawing P1 (either seat: the next leader or not) holds
    7h Th Qh and wins the deal at this check point, whatever the points."""
    bura, other = "7h Th Qh", "9c Jc Ks"
    hands = (bura, other) if seat == 0 else (other, bura)
    draws = ("Qh", "Ks") if seat == 0 else ("Ks", "Qh")
    s = load(after_trick(*hands, trump="6h", draws=draws, lead="9s", throw="7c"))
    play(s, "throw_down 7c")
    assert s.to_dict()["hands"][seat] == srt(bura)
    assert_deal_over(s, result("bura", [seat]), [1, -1] if seat == 0 else [-1, 1])


def ex9_position(**kw):
    return after_trick("Ah 6h 8h", "Th Kh Qh", trump="Jh", draws=("8h", "Qh"), lead="9s",
                       throw="7c", **kw)


def test_bu_ex_9_double_bura():
    """BU-EX-9: P1 Ah 6h 8h and P2 Th Kh Qh hold bura at once: with higher_top_card P1 wins
    (A > 10); with void_deal the deal is thrown in, no result."""
    s = load(ex9_position())
    play(s, "throw_down 7c")
    assert s.to_dict()["hands"] == [srt("Ah 6h 8h"), srt("Th Kh Qh")]
    assert_deal_over(s, result("bura", [0]), [1, -1])
    s = load(ex9_position(), double_bura="void_deal")
    play(s, "throw_down 7c")
    d = s.to_dict()
    assert d["phase"] == "deal_over" and d["result"]["kind"] == "void"
    assert d["result"]["winners"] == [] and s.returns() == [0, 0]


def test_bu_ex_9_void_double_bura_same_dealer_redeals():
    """BU-EX-9: in a match the thrown-in deal is redealt by the same dealer (1), nothing
    scored; seat 0 took the last trick and leads."""
    opts = {"match_format": "wins_to_n", "double_bura": "void_deal"}
    s = load(ex9_position(mode="match", rng=RNG_WORDS, dealer=1), **opts)
    play(s, "throw_down 7c")
    assert_next_deal(s, dealer=1, leader=0, scores=[0, 0], **opts)


@pytest.mark.parametrize("option,expected", [
    ("three_aces", result("moscow", [0])),
    ("three_aces_with_trump", result("bura", [1])),
])
def test_bu_ex_10_moscow_beats_bura(option, expected):
    """BU-EX-10: trump hearts; P1 As Ac Ad, P2 7h 8h 9h: Moscow resolves first and P1 wins;
    with three_aces_with_trump P1 lacks Ah, so P2's bura wins."""
    pos = after_trick("As Ac Ad", "7h 8h 9h", trump="Jh", draws=("Ad", "9h"), lead="9s",
                      throw="7c")
    s = load(pos, moscow=option)
    play(s, "throw_down 7c")
    assert s.to_dict()["hands"] == [srt("As Ac Ad"), srt("7h 8h 9h")]
    assert_deal_over(s, expected, [1, -1] if expected["winners"] == [0] else [-1, 1])


def test_bu_ex_11_molodka_stop():
    """BU-EX-11: molodka_stop, trump clubs; leader P1 Ah 7s 9d, P2 Ts Qs 6s: P2 calls Stop
    and leads the three spades; P1's Ah 7s 9d do not beat them (7s beats 6s only) and P2
    wins the trick."""
    pos = after_trick("Ah 7s 9d", "Ts Qs 6s", trump="Kc", draws=("9d", "6s"), lead="8h",
                      throw="8d")
    s = load(pos, molodka_stop=True)
    play(s, "throw_down 8d")
    assert_legal(s, "claim", "no_claim")
    play(s, "no_claim")
    assert_legal(s, "stop 6s+Qs+Ts", "pass")
    play(s, "stop 6s+Qs+Ts")
    assert s.current_player() == 0
    assert_legal(s, "throw_down 7s+9d+Ah")
    before = s.to_dict()
    play(s, "throw_down 7s+9d+Ah")
    d = s.to_dict()
    assert d["piles"][1]["up"] == srt(before["piles"][1]["up"] + ["6s", "Qs", "Ts"])
    assert d["piles"][1]["down"] == srt(before["piles"][1]["down"] + ["7s", "9d", "Ah"])
    assert d["leader"] == 1 and d["to_move"] == 1


def test_bu_ex_11_leader_molodka_refuses_stop():
    """BU-EX-11: if P1 holds Kd 8d 7d (a molodka too) the Stop is refused and P1 leads."""
    pos = after_trick("Kd 8d 7d", "Ts Qs 6s", trump="Kc", draws=("7d", "6s"), lead="8h",
                      throw="9h")
    s = load(pos, molodka_stop=True)
    play(s, "throw_down 9h", "no_claim")
    assert_legal(s, "stop 6s+Qs+Ts", "pass")
    play(s, "stop 6s+Qs+Ts")
    assert s.to_dict()["phase"] == "lead" and s.current_player() == 0
    assert s.to_dict()["revealed"][0] == ["7d", "8d", "Kd"]
    assert_legal(s, "lead 7d", "lead 8d", "lead Kd", "lead 7d+8d", "lead 7d+Kd", "lead 8d+Kd",
                 "lead 7d+8d+Kd")


def ex12_position():
    return after_trick("Ts Qs 6s", "6c 6h 6d", trump="Kc", draws=("6s", "6d"), lead="8h",
                       throw="9h")


def test_bu_ex_12_small_moscow_over_molodka():
    """BU-EX-12: molodka_stop and small_moscow=three_sixes_with_trump, trump clubs; leader P1
    holds Ts Qs 6s (molodka), P2 6c 6h 6d (with the trump six): P2 may Stop and lead the three
    sixes together; P1's molodka does not block it."""
    opts = {"molodka_stop": True, "small_moscow": "three_sixes_with_trump"}
    s = load(ex12_position(), **opts)
    play(s, "throw_down 9h", "no_claim")
    assert_legal(s, "stop 6c+6d+6h", "pass")
    play(s, "stop 6c+6d+6h")
    d = s.to_dict()
    assert d["trick"] == {"leader": 1, "k": 3, "played": [[], ["6c", "6d", "6h"]],
                          "top": ["6c", "6d", "6h"], "holder": 1}
    assert_legal(s, "throw_down 6s+Qs+Ts")
    s = load(ex12_position(), molodka_stop=True)        # no small Moscow: nothing to call
    play(s, "throw_down 9h", "no_claim")
    assert_legal(s, "pass")


@functools.lru_cache(maxsize=None)
def single_bura_seed() -> int:
    """The first seed whose first shuffle gives exactly one player a bura (2 players)."""
    def pred(d):
        t = suit(d["trump_card"])
        return sum("bura" in combos(h, t) for h in d["hands"]) == 1
    return find_seed(pred)


def test_bu_ex_13_initial_redeal():
    """BU-EX-13: a bura right after the deal: by default the same dealer redeals and nothing is
    scored; with initial_combo_redeal=off its holder wins at the first check point."""
    seed = single_bura_seed()
    first = first_shuffle(seed)
    t = suit(first["trump_card"])
    holder = next(p for p, h in enumerate(first["hands"]) if "bura" in combos(h, t))
    s = game().new_deal(seed=seed)
    d = s.to_dict()
    assert d["redeals"] >= 1 and d["dealer"] == first["dealer"]
    assert d["result"] is None and d["scores"] == [0, 0] and not s.is_terminal()
    assert d["phase"] == CHECK and d["to_move"] == (first["dealer"] + 1) % 2
    s = game(initial_combo_redeal=False).new_deal(seed=seed)
    assert s.to_dict()["hands"] == first["hands"]
    assert_deal_over(s, result("bura", [holder]), [1, -1] if holder == 0 else [-1, 1])


# --- BU-EX-14, BU-EX-15: the end of a deal ---------------------------------------------------

PILE_64 = "8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac Kd 6d"
PILE_56 = "7d 8d 9d Jd Qd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah"
PILE_60A = "8s 9s Js Qs Ks Ts As 6c 7c 8c 9c Jc Qc Kc Tc Ac"
PILE_60B = "6d 7d 8d 9d Jd Qd Kd Td Ad 6h 7h 8h 9h Jh Qh Kh Th Ah"


def last_trick(pile0, pile1):
    """Seat 0 has led the last card 6s; seat 1's 7s (thrown down) leaves him the trick."""
    return position(hands=[[], ["7s"]], leader=0, trump="6h", piles=[pile0, pile1],
                    trick={"leader": 0, "top": ["6s"]})


def test_bu_ex_14_all_cards_played_no_claim():
    """BU-EX-14: final piles 64 and 56 (120), the last trick's winner does not claim: 64 wins
    (most_points); 60-60 is a void deal."""
    assert (points(PILE_64), points(PILE_56), points(PILE_60A), points(PILE_60B)) == \
        (64, 56, 60, 60)
    s = load(last_trick(PILE_64, PILE_56))
    play(s, "throw_down 7s")
    d = s.to_dict()
    assert d["phase"] == "claim" and d["to_move"] == 0
    assert (points(pile(d, 0)), points(pile(d, 1))) == (64, 56)
    assert_legal(s, "claim", "no_claim")
    play(s, "no_claim")
    assert_deal_over(s, result("most_points", [0]), [1, -1])
    s = load(last_trick(PILE_60A, PILE_60B))
    play(s, "throw_down 7s", "no_claim")
    d = s.to_dict()
    assert d["phase"] == "deal_over" and d["result"]["kind"] == "void"
    assert d["result"]["winners"] == [] and s.returns() == [0, 0]


def test_bu_ex_15_pack_total_120():
    """BU-EX-15: the pack holds 120 points, so a 2-player deal played to the end leaves one
    player with 60 or more: at every final claim point of random deals the piles sum to 120,
    the last trick's winner's claim succeeds exactly when he has 31+, and without a claim the
    larger pile (>= 60) wins."""
    assert points(PILE_64 + " " + PILE_56 + " 6s 7s") == 120
    rnd = random.Random(15)
    finals = 0
    for seed in range(40):
        s = game().new_deal(seed=seed)
        while not s.is_terminal() and s.to_dict()["phase"] != "claim":
            legal = [a for a in s.legal_actions() if a != action_id("claim")]
            s.apply_action(rnd.choice(legal))
        if s.is_terminal():
            continue
        finals += 1
        d = s.to_dict()
        pts = [points(pile(d, p)) for p in (0, 1)]
        assert sum(pts) == 120 and max(pts) >= 60
        me = d["to_move"]
        t = s.clone()
        play(t, "claim")
        assert t.to_dict()["result"]["kind"] == ("claim_won" if pts[me] >= 31 else "claim_lost")
        play(s, "no_claim")
        r = core(s.to_dict()["result"])
        if pts[0] == pts[1]:
            assert r["kind"] == "void"
        else:
            assert r == result("most_points", [pts.index(max(pts))])
    assert finals >= 10
