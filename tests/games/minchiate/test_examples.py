"""Every worked example of rules/minchiate.md §5 (MI-EX-1 … MI-EX-19) as an explicit position.

Dealer seat 0 (team A), first leader seat 1, cutter seat 3 (team B); D = A − B. The cards an
example names are written as given; the cards it leaves unnamed are chosen so that the play
goes as the example says, and the rest is spread by ``test_rules.position`` so that the
position is legal. Expected legal actions, points, D and resti are the example's numbers.
"""
from __future__ import annotations

import pytest

from tests.games.minchiate.test_rules import (
    COMBO_ID,
    H,
    _discardable,
    _final,
    assert_illegal,
    assert_legal,
    combo_value,
    declare,
    declare_position,
    discards_of,
    event,
    ex18_position,
    final_rounding,
    find_seed,
    game,
    last_trick_position,
    load,
    oracle,
    play,
    play_cards,
    play_ex18_last_trick,
    plays,
    position,
    spread,
    srt,
    total,
    trick_position,
    value,
)

# MI-EX-1..4: one deal's setup. Cutter seat 3 robbed T38 Kcu T24 (stopped by 7sw); exposed
# 21st cards seat 1 T3, seat 2 8cu, seat 3 T22, seat 0 Ksw; the dealer robbed T40 and T29
# from the Fola of 10 (which holds 7sw and Fco).
EX_ROBBED = "T38 Kcu T24"
EX_EXPOSED = ["Ksw", "T3", "8cu", "T22"]


def ex_setup_position(*, dealer_robbed="T40 T29") -> dict:
    hands = [H("Ksw T40 T29", "co cu sw ba T"), H("T3", "co cu sw ba T"),
             H("8cu", "co cu sw ba T"),
             H("T38 Kcu T24 T22 6cu T7 Ccu T2 M", "co cu sw ba T")]
    return position(hands, phase="discard", cutter_robbed=EX_ROBBED,
                    dealer_robbed=dealer_robbed, exposed=EX_EXPOSED, seen_bottom="7sw",
                    fola=["7sw", "Fco"])


def test_mi_ex_1_cutters_robbing():
    """MI-EX-1: the cutter robs T38, Kcu, T24 from the bottom and stops at 7sw (not eligible,
    stays in the Fola): k = 3, B + 10 + 5 + 0 = 15 -> D = -15 (the event alone: no exposures
    here). Checked on the position and on a dealt seed whose bottom holds three eligible cards
    and then an ineligible one."""
    pos = position([H("", "co cu sw ba T"), None, None,
                    H("T38 Kcu T24", "co cu sw ba T")], phase="discard",
                   cutter_robbed=EX_ROBBED, seen_bottom="7sw", fola=["7sw"],
                   expose_last_card="none")
    s = load(pos)
    d = s.to_dict()
    assert d["points"]["cutter_rob"] == [0, 15] and d["D"] == -15 and d["resti"] == [0, 0]
    assert d["to_move"] == 3 and d["to_discard"] == 3 and len(d["fola"]) == 10
    seed = find_seed(lambda e: e["dealer"] == 0 and len(e["cutter_robbed"]) == 3)
    e = oracle(seed)
    d = game().new_deal(seed).to_dict()
    bottom = e["order"][::-1]
    assert srt(d["cutter_robbed"]) == srt(bottom[:3]) and d["seen_bottom"] == bottom[3]
    assert d["points"]["cutter_rob"] == [0, total(bottom[:3])]


def test_mi_ex_2_exposed_21st_cards():
    """MI-EX-2: exposed T3 (seat 1, 3), 8cu (seat 2, 0), T22 (seat 3, 0), Ksw (seat 0, 5):
    one event A +5, B +3 -> D = -15 + 5 - 3 = -13."""
    s = load(ex_setup_position(dealer_robbed=""))
    d = s.to_dict()
    assert d["exposed"] == EX_EXPOSED
    assert d["points"]["exposed"] == [5, 3] and d["D"] == -13


def test_mi_ex_3_dealers_robbing():
    """MI-EX-3: the Fola of 10 holds T40, T29, 7sw, Fco and six others; the dealer takes T40
    and T29 (trumps above 20): A +10 -> D = -3; he must discard 2."""
    s = load(ex_setup_position())
    d = s.to_dict()
    assert d["points"]["dealer_rob"] == [10, 0] and d["D"] == -3
    assert len(d["fola"]) == 10 - 2 and "7sw" in d["fola"] and "Fco" in d["fola"]
    assert {"T40", "T29"} <= set(d["hands"][0]) and len(d["hands"][0]) == 23


def test_mi_ex_4_legal_discards():
    """MI-EX-4: the cutter must discard 3: T24 (robbed, worth 0), 6cu, T7, Ccu are legal;
    Kcu (5), T2 (3), M (5) are not. The dealer (2 to discard) may not discard the T29 he
    robbed. Afterwards the Fola holds 10 - 2 + 3 + 2 = 13 cards."""
    s = load(ex_setup_position())
    hand = s.to_dict()["hands"][3]
    assert {"T24", "6cu", "T7", "Ccu"} <= set(_discardable(hand))
    assert_legal(s, *discards_of(*_discardable(hand)))
    for bad in ("Kcu", "T2", "M"):
        assert_illegal(s, "discard " + bad)
    play(s, "discard T24", "discard 6cu", "discard T7")
    d = s.to_dict()
    assert d["to_move"] == 0 and d["to_discard"] == 2
    assert_illegal(s, "discard T29")
    dealer_hand = d["hands"][0]
    assert "T29" not in _discardable(dealer_hand)
    assert_legal(s, *discards_of(*_discardable(dealer_hand)))
    play(s, *discards_of(*_discardable(dealer_hand)[:2]))
    d = s.to_dict()
    assert len(d["fola"]) == 13 and d["phase"] == "declare" and d["fola_open"] is False


def test_mi_ex_5_declaration_arithmetic():
    """MI-EX-5: T28 T29 T30 T31 T33 T1 T2 T3 M Kco Kcu Ksw: run 28-31 = 20, run 1-3 = 11,
    three Kings = 15, Matto bonus 3 x 5 = 15: 61 (T33 alone no run; no 1-13-28, no M-1-40).
    Declared by seat 1: B +61 -> 1 resto for B, D = -1."""
    hand = "T28 T29 T30 T31 T33 T1 T2 T3 M Kco Kcu Ksw"
    cs = [("T1", "T2", "T3"), ("T28", "T29", "T30", "T31"), ("Kco", "Kcu", "Ksw")]
    s = load(declare_position([[], hand, [], []]))
    assert_legal(s, *[declare(c) for c in cs], "done")
    play(s, *[declare(c) for c in cs], "done bonus")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 61]
    assert d["resti"] == [0, 1] and d["D"] == -1


@pytest.mark.parametrize("decine,combos,points", [
    ("one_combination", [("T10", "T20", "T30", "T40"), ("T1", "T40", "M")], 50),
    ("two_triples", [("T10", "T20", "T30"), ("T20", "T30", "T40"), ("T1", "T40", "M")], 65),
])
def test_mi_ex_6_decine_and_the_matto_combination(decine, combos, points):
    """MI-EX-6: T10 T20 T30 T40 M T1 (no T13): 10-20-30-40 = 25 + 5 bonus = 30; M-1-40 = 20
    without bonus: 50. With decine_four=two_triples: (15 + 5) + (20 + 5) + 20 = 65."""
    pos = declare_position([[], "T10 T20 T30 T40 M T1", [], []], decine_four=decine)
    s = load(pos)
    assert_legal(s, *sorted([declare(c) for c in combos]), "done")
    play(s, *[declare(c) for c in sorted(combos, key=COMBO_ID.__getitem__)])
    play(s, "done bonus")
    assert s.to_dict()["points"]["declarations"] == [0, points]


def _winner(trick):
    s = load(trick_position(1, trick[:3], H(trick[3], "ba")))
    play_cards(s, trick[3])
    return s.to_dict()["last_winner"]


def test_mi_ex_7_round_vs_long_suit_order():
    """MI-EX-7: lead 3co; 10co, Aco, 7co -> Aco wins (seat 3). Lead 3sw; 10sw, Asw, 7sw ->
    10sw wins (seat 2)."""
    assert _winner(["3co", "10co", "Aco", "7co"]) == 3
    assert _winner(["3sw", "10sw", "Asw", "7sw"]) == 2


def test_mi_ex_8_courts_and_trumps():
    """MI-EX-8: lead 3co; Fco, Aco, T6 -> T6 wins (seat 0); without the trump, Fco beats Aco
    (seat 2)."""
    assert _winner(["3co", "Fco", "Aco", "T6"]) == 0
    assert _winner(["3co", "Fco", "Aco", "5co"]) == 2


@pytest.mark.parametrize("trick,hand,legal", [
    (["Cba"], "5ba Qba T4 2co M", ["5ba", "Qba", "M"]),
    (["Cba", "T30"], "T2 T17 2co 5cu M", ["T2", "T17", "M"]),
    (["Cba"], "2co 5cu 7sw Kco M", ["2co", "5cu", "7sw", "Kco", "M"]),
])
def test_mi_ex_9_following(trick, hand, legal):
    """MI-EX-9: a batons trick that is not the first led in batons, led with Cba: a player
    with batons plays a baton; one without batons but with trumps a trump (T2 even after
    T30); one with neither anything; the Matto is legal for all three."""
    s = load(trick_position(0, trick, hand, suits_led=("co", "cu", "sw", "ba")))
    assert_legal(s, *plays(*legal))


FIRST_CUPS = ("co", "sw", "ba")


def test_mi_ex_10_king_rule():
    """MI-EX-10: trick 5 is the first led in cups. Seat 1 leads 5cu, seat 2 (no cups) T12:
    seat 3 holding Kcu 8cu M may only play Kcu. Seat 0 holding Qcu 2cu M may play Qcu, 2cu or
    M. Had seat 2 followed with a cup, seat 3 could play Kcu, 8cu or M. In a later cups trick
    Kcu 9cu (and the Matto) are all legal."""
    pos = position([None, None, H("", "co sw ba T"), H("Kcu 8cu M", "co sw ba T")],
                   leader=1, trick=["5cu", "T12"], tricks_won=(2, 2), suits_led=FIRST_CUPS)
    s = load(pos)
    assert_legal(s, "play Kcu")
    assert_illegal(s, "play 8cu")
    assert_illegal(s, "play M")
    pos = position([H("Qcu 2cu M", "co sw ba T"), None, H("", "co sw ba T"), None],
                   leader=1, trick=["5cu", "T12", "Kcu"], tricks_won=(2, 2),
                   suits_led=FIRST_CUPS)
    s = load(pos)
    assert_legal(s, *plays("Qcu", "2cu", "M"))
    pos = position([None, None, None, H("Kcu 8cu M", "co sw ba T")],
                   leader=1, trick=["5cu", "9cu"], tricks_won=(2, 2), suits_led=FIRST_CUPS)
    assert_legal(load(pos), *plays("Kcu", "8cu", "M"))
    pos = position([None, None, H("", "co sw ba T"), H("Kcu 9cu M", "co sw ba T")],
                   leader=1, trick=["5cu", "T12"], tricks_won=(4, 4),
                   suits_led=("co", "cu", "sw", "ba"))
    assert_legal(load(pos), *plays("Kcu", "9cu", "M"))


def test_mi_ex_11_matto_led():
    """MI-EX-11: seat 2 (A) leads M; seat 3 plays 4sw: swords are led; seats 0 and 1 must
    follow swords. Seat 1 (B) wins: the Matto goes to A's pile, A owes B one card."""
    pos = position([H("9sw 2sw", "co cu ba T"), H("Ksw 3sw", "co cu ba T"), None,
                    H("4sw", "co cu ba T")], leader=2, trick=["M"], tricks_won=(8, 8))
    s = load(pos)
    play(s, "play 4sw")
    assert_legal(s, *plays("2sw", "9sw"))
    play(s, "play 9sw")
    assert_legal(s, *plays("3sw", "Ksw"))
    before = s.to_dict()
    play(s, "play Ksw")
    d = s.to_dict()
    assert d["last_winner"] == 1
    assert d["piles"][0] == srt(before["piles"][0] + ["M"])
    assert d["matto_team"] == "A" and d["matto_debt"] is True


def test_mi_ex_12_dying_cards():
    """MI-EX-12 (as the 21st trick): seat 1 (B) leads T35; seat 2 (A) T38; seat 3 (B, no
    trumps) Ksw; seat 0 (A) T2. T38 wins for A: A scores T35 + Ksw = 10 at once; T38 and T2
    nothing now. At the end all four (10 + 5 + 5 + 3 = 23) count in A's pile."""
    pos = last_trick_position(["T2", "T35", "T38", "Ksw"], leader=1, tricks_won=(10, 10))
    s = load(pos)
    before = s.to_dict()
    play_cards(s, "T35", "T38", "Ksw", "T2")
    d = _final(s)
    assert d["points"]["dying"] == [before["points"]["dying"][0] + 10,
                                    before["points"]["dying"][1]]
    assert total("T35 T38 Ksw T2") == 23
    assert {"T35", "T38", "Ksw", "T2"} <= set(d["piles"][0])
    assert d["points"]["pile"][0] == total(d["piles"][0])
    assert d["points"]["pile"][0] - total([c for c in d["piles"][0]
                                            if c not in ("T35", "T38", "Ksw", "T2")]) == 23


def test_mi_ex_13_cards_beyond_42():
    """MI-EX-13: A won 12 tricks -> 48 cards -> 6 points; B won 9 -> 36 cards -> 0."""
    pos = last_trick_position(["4co", "2co", "T6", "3co"], leader=1, tricks_won=(11, 9))
    s = load(pos)
    play_cards(s, "2co", "T6", "3co", "4co")
    d = _final(s)
    assert d["tricks_won"] == [12, 9] and [len(p) for p in d["piles"]] == [48, 36]
    assert d["points"]["beyond_42"] == [6, 0]


def test_mi_ex_14_matto_settlement():
    """MI-EX-14: A's Matto fell in a trick won by B: at the end A moves a card worth 0 from
    its pile to B's. If A won no trick, B receives the Matto: B's pile is all 84 cards -> 42
    card points, and the Matto's 5 among its pile values (never as a dying card)."""
    pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(9, 11),
                              piles=[["M", "6ba"], []], matto_debt=True)
    s = load(pos)
    before = s.to_dict()
    play_cards(s, "T30", "4co", "5co", "3co")
    d = _final(s)
    paid = d["paid_card"]
    assert value(paid) == 0 and paid != "T29" and paid in before["piles"][0]
    assert paid in d["piles"][1] and [len(p) for p in d["piles"]] == [36, 48]
    pos = last_trick_position(["3co", "T30", "4co", "5co"], leader=1, tricks_won=(0, 20),
                              piles=[["M"], []], matto_debt=True)
    s = load(pos)
    before = s.to_dict()
    play_cards(s, "T30", "4co", "5co", "3co")
    d = _final(s)
    assert d["matto_given"] is True and len(d["piles"][1]) == 84 and d["piles"][0] == []
    assert d["points"]["beyond_42"] == [0, 42]
    assert d["points"]["pile"] == [0, 142]
    assert d["points"]["dying"] == before["points"]["dying"]
    # every combination is B's: 17 + 90 + 20 + 15 + 25 + 20, and 5 x 5 Matto bonus
    assert d["points"]["pile_combinations"] == [0, 212]


def test_mi_ex_15_resto_during_play():
    """MI-EX-15: D = +52. A captures B's T36: +10 -> D 62 -> A gains 1 resto, D = 2. Next
    trick B captures A's T37 and T38: D = 2 - 20 = -18; no conversion."""
    cap52 = "T35 T34 T33 T32 T31 T30 T28 T20 T2 T3 T4 T5"
    pos = position([H("T7 T38", "co cu"), H("T36 T8", "co cu"), H("T40 T37", "co cu"),
                    H("T6 T39", "co cu")], leader=1, tricks_won=(8, 8),
                   piles=[cap52, ""], captured=[cap52, ""])
    s = load(pos)
    d = s.to_dict()
    assert d["D"] == 52 and d["resti"] == [0, 0]
    play_cards(s, "T36", "T40", "T6", "T7")
    d = s.to_dict()
    assert d["last_winner"] == 2 and d["resti"] == [1, 0] and d["D"] == 2
    play_cards(s, "T37", "T39", "T38", "T8")
    d = s.to_dict()
    assert d["last_winner"] == 3 and d["resti"] == [1, 0] and d["D"] == -18


def test_mi_ex_16_event_granularity():
    """MI-EX-16: D = 0; event X gives A +70 (seat 2 declares the run 28-38), then event Y gives
    B +20 (seat 3 declares four Kings): after X A has 1 resto and D = 10; after Y D = -10, so
    nothing more -> B gains 1 at the end: net 0 (one event of +50 would have given net +1)."""
    run = tuple(f"T{n}" for n in range(28, 39))
    assert combo_value(run) == 70
    s = load(declare_position([[], [], run, "Kco Kcu Ksw Kba"], to_move=2))
    assert s.to_dict()["D"] == 0
    play(s, declare(run), "done")
    d = s.to_dict()
    assert d["resti"] == [1, 0] and d["D"] == 10
    play(s, declare(("Kco", "Kcu", "Ksw", "Kba")), "done")
    d = s.to_dict()
    assert d["resti"] == [1, 0] and d["D"] == -10
    assert final_rounding(d["D"], d["resti"]) == [1, 1]
    assert final_rounding(*event(0, [0, 0], 50, 0)) == [1, 0]


@pytest.mark.parametrize("captured,resti,final_D,gain", [
    (20, [0, 0], 61, [2, 0]),
    (19, [0, 0], 60, [1, 0]),
    (20, [1, 0], 1, [1, 0]),
    (19, [1, 0], 0, [0, 0]),
])
def test_mi_ex_17_final_rounding(captured, resti, final_D, gain):
    """MI-EX-17: final D = 61 -> A +2 resti; 60 -> A +1; 1 -> A +1; 0 -> nothing (the end
    event of MI-EX-18's piles is +41 for A, on top of the D before it)."""
    s = load(ex18_position(captured, resti))
    assert s.to_dict()["D"] + 41 == final_D
    d = play_ex18_last_trick(s)
    assert [d["resti"][0] - resti[0], d["resti"][1] - resti[1]] == gain


def test_mi_ex_18_whole_deal():
    """MI-EX-18: before the end A has 1 resto, D = -5. A's pile: counting cards 89, 13 tricks
    (52 cards, +10), run 33-34-35 (15) + Matto bonus 5; B's: 53, 8 tricks, three Kings 15,
    the last trick +10. A = 119, B = 78: D = 36 -> A +1. Final A 2, B 0: net +2."""
    s = load(ex18_position(55, [1, 0]))
    d = s.to_dict()
    assert d["D"] == -5 and d["resti"] == [1, 0]
    d = play_ex18_last_trick(s)
    end = {k: d["points"][k] for k in ("pile", "beyond_42", "pile_combinations",
                                       "last_trick")}
    assert end == {"pile": [89, 53], "beyond_42": [10, 0], "pile_combinations": [20, 15],
                   "last_trick": [0, 10]}
    assert sum(v[0] for v in end.values()) == 119 and sum(v[1] for v in end.values()) == 78
    assert d["tricks_won"] == [13, 8]
    assert d["resti"] == [2, 0] and d["net"] == 2 and s.returns() == [2, -2, 2, -2]


def test_mi_ex_19_no_conversion_below_60():
    """MI-EX-19: cutter's robbing B +18 (T36 T30 T5) -> D -18; exposed A +5 (Ksw), B +3
    (T3) -> -16; dealer's robbing A +20 (T40 T39) -> +4; seat 1 declares 1-2-3-4 (14) with
    the Matto bonus (+5): B +19 -> D -15. No resto is made."""
    hands = spread(["T40 T39 Ksw", "T1 T2 T3 T4 M", [], "T36 T30 T5"], closed=(1,))
    pos = position(hands, phase="declare", to_move=1, cutter_robbed="T36 T30 T5",
                   dealer_robbed="T40 T39", declared_done=[False] * 4,
                   exposed=["Ksw", "T3", [c for c in hands[2] if value(c) == 0][0],
                            [c for c in hands[3] if value(c) == 0][0]])
    assert pos["points"]["cutter_rob"] == [0, 18] and pos["points"]["exposed"] == [5, 3]
    assert pos["points"]["dealer_rob"] == [20, 0]
    s = load(pos)
    assert s.to_dict()["D"] == 4
    play(s, declare(("T1", "T2", "T3", "T4")), "done bonus")
    d = s.to_dict()
    assert d["points"]["declarations"] == [0, 19]
    assert d["D"] == -15 and d["resti"] == [0, 0]
