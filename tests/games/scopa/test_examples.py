"""Every worked example of rules/scopa.md §4 (SC-EX-1 … SC-EX-16) as an explicit position.

The cards the example names are written as given; the cards it leaves unnamed are chosen by
``positions.position`` so that the position is legal (all 40 cards once, hand sizes consistent
with the turn order, stock a multiple of 3 × players). Expected legal actions, piles, scopas and
scores are copied from the example.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardsim.errors import IllegalActionError
from tests.games.scopa.positions import (
    action_id,
    assert_breakdown,
    assert_legal,
    complement,
    find_redeal_seed,
    idx,
    kings,
    last_move_position,
    play,
    position,
    reference_deal,
    srt,
)
from tests.helpers import game_loader

game = game_loader("scopa")


def load(pos, **options):
    return game(**options).from_dict(pos)


def added(pos, side, new):
    """The pile of ``side`` of ``pos`` plus the cards ``new``, sorted."""
    return srt(pos["piles"][side] + new.split())


def assert_illegal(state, text):
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply_action(action_id(text))
    assert state.to_dict() == before


def test_sc_ex_1_equal_card_beats_sum():
    """SC-EX-1: table [7cu, 3ba, 4sw], 7sw: only {7cu}; {3ba, 4sw} is illegal."""
    pos = position(hands=[["7sw"], 1], table="7cu 3ba 4sw", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "7sw>7cu")
    assert_illegal(s, "7sw>4sw+3ba")
    play(s, "7sw>7cu")
    d = s.to_dict()
    assert d["piles"][0] == added(pos, 0, "7sw 7cu") and d["piles"][1] == pos["piles"][1]
    assert d["table"] == ["4sw", "3ba"] and d["scopas"] == [0, 0]


def test_sc_ex_2_several_sums_choice_compulsory():
    """SC-EX-2: table [2co, 3cu, 4sw, 5ba, Asw], 6cu: exactly {2co,4sw}, {5ba,Asw},
    {2co,3cu,Asw}; no discard. Taking {2co,4sw} leaves [3cu, 5ba, Asw]."""
    pos = position(hands=[["6cu"], 1], table="2co 3cu 4sw 5ba Asw", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "6cu>2co+4sw", "6cu>Asw+5ba", "6cu>2co+3cu+Asw")
    assert_illegal(s, "6cu")
    play(s, "6cu>2co+4sw")
    d = s.to_dict()
    assert d["piles"][0] == added(pos, 0, "6cu 2co 4sw")
    assert d["table"] == ["3cu", "Asw", "5ba"] and d["scopas"] == [0, 0]


def test_sc_ex_3_no_capture():
    """SC-EX-3: table [Ksw, Ccu], 3co: no 3 and no sum of 3: it stays."""
    pos = position(hands=[["3co"], 1], table="Ksw Ccu", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "3co")
    play(s, "3co")
    d = s.to_dict()
    assert d["table"] == ["3co", "Ccu", "Ksw"] and d["piles"] == pos["piles"]


def test_sc_ex_4_scopa_then_empty_table():
    """SC-EX-4: table [4cu], not the last move; 4co takes it: scopa +1; the opponent's next
    card lands on the empty table."""
    pos = position(hands=[["4co", "2sw", "3sw"], ["Aco", "7ba", "Kcu"]], table="4cu",
                   to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "4co>4cu", "2sw", "3sw")
    play(s, "4co>4cu")
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["table"] == []
    assert d["piles"][0] == added(pos, 0, "4co 4cu")
    assert s.current_player() == 1
    assert_legal(s, "Aco", "Kcu", "7ba")
    play(s, "Kcu")
    d = s.to_dict()
    assert d["table"] == ["Kcu"] and d["scopas"] == [1, 0]


def test_sc_ex_5_primiera_on_partial_piles():
    """SC-EX-5: A's bests 7co 6cu Asw Kba = 65, B's 6co 5cu 5sw Jba = 58: one point to A."""
    a, b = "7co 6cu Asw Kba", "6co 5cu 5sw Jba"
    pos = position(hands=[3, 3], table=8, to_move=0, stock=18, piles=[a, b], exact_piles=True)
    bd = load(pos).score_breakdown()
    assert bd["primiera_total"] == [65, 58]
    assert bd["primiera"] == [1, 0]                 # one point, not 21


def test_sc_ex_6_several_equal_cards():
    """SC-EX-6: table [5co, 5cu, 2sw, 3ba], 5sw: {5co} or {5cu}; {2sw,3ba} illegal; taking
    5co counts one more coin."""
    pos = position(hands=[["5sw"], 1], table="5co 5cu 2sw 3ba", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "5sw>5co", "5sw>5cu")
    assert_illegal(s, "5sw>2sw+3ba")
    with_coin, with_cup = s.clone(), s.clone()
    play(with_coin, "5sw>5co")
    play(with_cup, "5sw>5cu")
    assert with_coin.to_dict()["table"] == ["5cu", "2sw", "3ba"]
    assert with_cup.to_dict()["table"] == ["5co", "2sw", "3ba"]
    coins = [st.score_breakdown()["coin_count"][0] for st in (with_coin, with_cup)]
    assert coins[0] == coins[1] + 1
    assert s.to_dict() == load(pos).to_dict()      # the clones did not touch the original


def test_sc_ex_7_sum_clearing_table_is_scopa():
    """SC-EX-7: table [2co, 3sw], stock not empty; 5cu: only {2co,3sw}; scopa +1."""
    pos = position(hands=[["5cu"], 1], table="2co 3sw", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "5cu>2co+3sw")
    play(s, "5cu>2co+3sw")
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["table"] == []
    assert d["piles"][0] == added(pos, 0, "5cu 2co 3sw")


def test_sc_ex_8_last_move_no_scopa():
    """SC-EX-8: stock empty, the dealer's last card 6co, the opponent's hand empty, table
    [6ba]: 6co takes 6ba, no scopa; nothing left over."""
    pos = position(hands=[[], ["6co"]], table="6ba", to_move=1, dealer=1, stock=0,
                   last_capturer=0)
    s = load(pos)
    assert_legal(s, "6co>6ba")
    play(s, "6co>6ba")
    d = s.to_dict()
    assert d["scopas"] == [0, 0] and d["table"] == [] and d["phase"] == "deal_over"
    assert d["piles"] == [pos["piles"][0], added(pos, 1, "6co 6ba")]
    assert s.score_breakdown()["scopas"] == [0, 0]


def test_sc_ex_9_leftover_to_last_capturer():
    """SC-EX-9: the non-dealer captured last; the dealer lays Kco on [2cu]; [2cu, Kco] go to
    the non-dealer's pile; no scopa."""
    pos = position(hands=[[], ["Kco"]], table="2cu", to_move=1, dealer=1, stock=0,
                   last_capturer=0)
    s = load(pos)
    assert_legal(s, "Kco")
    play(s, "Kco")
    d = s.to_dict()
    assert d["table"] == [] and d["scopas"] == [0, 0] and d["phase"] == "deal_over"
    assert d["piles"] == [added(pos, 0, "2cu Kco"), pos["piles"][1]]


def test_sc_ex_10_king_takes_sum_of_ten():
    """SC-EX-10: table [6ba, 4co, 3sw], Kcu: only {6ba, 4co}; table [3sw]."""
    pos = position(hands=[["Kcu"], 1], table="6ba 4co 3sw", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "Kcu>4co+6ba")
    assert_illegal(s, "Kcu")
    play(s, "Kcu>4co+6ba")
    d = s.to_dict()
    assert d["table"] == ["3sw"] and d["piles"][0] == added(pos, 0, "Kcu 6ba 4co")


EX11_A = ("Aco 2co 3co 4co 7co 3cu 4cu 5cu 6cu 7cu Asw 2sw 3sw 4sw 6sw "
          "Aba 2ba 3ba 4ba 5ba")
EX12_A = ("Aco 2co 3co 4co 7co Jco Cco Acu 2cu 3cu 6cu 7cu Jcu Ccu "
          "Asw 2sw 3sw 4sw 6sw Aba 2ba 3ba 4ba")


def end_of_deal(side_a, *, play_card, take, scopas, mode="deal", scores=(0, 0), **options):
    a = srt(side_a)
    pos = last_move_position([a, complement(a)], capturer=0, play=play_card, take=take,
                             scopas=scopas, mode=mode, scores=scores, rng=[1, 2, 3, 4])
    s = load(pos, **options)
    play(s, f"{play_card}>{take}")
    return s


def test_sc_ex_11_deal_scoring_with_ties():
    """SC-EX-11: 20-20 cards, 5-5 coins, settebello to A, primiera 76-76, scopas 1-2:
    A = 2, B = 2."""
    b = complement(EX11_A)
    assert len(b) == 20 and {"7sw", "7ba", "6co", "Acu"} <= set(b)
    s = end_of_deal(EX11_A, play_card="4cu", take="4co", scopas=(1, 2))
    assert_breakdown(s, {
        "cards": [0, 0], "coins": [0, 0], "settebello": [1, 0], "primiera": [0, 0],
        "scopas": [1, 2], "total": [2, 2], "card_count": [20, 20], "coin_count": [5, 5],
        "primiera_total": [76, 76], "match_scores": [2, 2]})
    assert s.returns() == [0.0, 0.0]


def test_sc_ex_12_full_scoring_arithmetic():
    """SC-EX-12: A 23 cards, 7 coins with 7co, primiera 76, 2 scopas; B 17 cards, 3 coins,
    primiera 75, 1 scopa: A = 6, B = 1."""
    s = end_of_deal(EX12_A, play_card="2cu", take="2co", scopas=(2, 1))
    assert_breakdown(s, {
        "cards": [1, 0], "coins": [1, 0], "settebello": [1, 0], "primiera": [1, 0],
        "scopas": [2, 1], "total": [6, 1], "card_count": [23, 17], "coin_count": [7, 3],
        "primiera_total": [76, 75], "match_scores": [6, 1]})
    assert s.returns() == [5.0, -5.0]
    assert s.to_dict()["scores"] == [6, 1]


def test_sc_ex_13_redeal():
    """SC-EX-13: [Kco, Kcu, Ksw, 5ba] (3 kings) is redealt by the same dealer with no score;
    [Kco, Kcu, 5sw, 5ba] is played."""
    from cardsim.games.scopa.kernels import is_void_deal

    params = game().rules.kernel_params()
    mask = lambda spec: np.uint64(sum(1 << idx(c) for c in spec.split()))  # noqa: E731
    assert is_void_deal(mask("Kco Kcu Ksw 5ba"), params)
    assert not is_void_deal(mask("Kco Kcu 5sw 5ba"), params)
    seed = find_redeal_seed()
    d = game().new_deal(seed=seed).to_dict()
    first = game(redeal_kings_on_table="off").new_deal(seed=seed).to_dict()
    assert kings(first["table"]) >= 3                  # the cancelled deal
    assert d["redeals"] > 0 and kings(d["table"]) < 3 and d["dealer"] == first["dealer"]
    assert d["scores"] == [0, 0] and d["phase"] == "play" and d["deal_number"] == 1
    assert d == reference_deal(game().rules, seed)     # the deal dealt again


def test_sc_ex_14_missing_suit_default_and_variant():
    """SC-EX-14: A 7co 7cu 7sw and no batons = 63; B all batons, best 5co 4cu Ksw 7ba = 60.
    Default: A wins primiera; forfeit: B wins."""
    b = srt(["5co", "4cu", "Ksw"] + [r + "ba" for r in "A234567JCK"])
    a = complement(b)
    s = end_of_deal(a, play_card="7cu", take="7co", scopas=(0, 0))
    bd = s.score_breakdown()
    assert bd["primiera_total"] == [63, 60] and bd["primiera"] == [1, 0]
    assert bd["total"] == [4, 0]
    s = end_of_deal(a, play_card="7cu", take="7co", scopas=(0, 0),
                    primiera_missing_suit="forfeit")
    bd = s.score_breakdown()
    assert bd["primiera_total"] == [None, 60] and bd["primiera"] == [0, 1]
    assert bd["total"] == [3, 1]


@pytest.mark.parametrize("scopas,after,winner", [
    ((2, 1), [12, 11], 0),      # A +3, B +1: both reached, A higher
    ((1, 1), [11, 11], None),   # A +2, B +1: 11-11, another deal
    ((1, 0), [11, 10], 0),      # A +2, B +0: A wins
])
def test_sc_ex_15_match_end(scopas, after, winner):
    """SC-EX-15: target 11, A 9 and B 10 before the deal (deal points = settebello to A plus
    the scopas, SC-EX-11's piles)."""
    s = end_of_deal(EX11_A, play_card="4cu", take="4co", scopas=scopas, mode="match",
                    scores=(9, 10))
    d = s.to_dict()
    assert d["scores"] == after
    if winner is None:
        assert d["phase"] == "play" and d["deal_number"] == 2 and not s.is_terminal()
    else:
        assert d["phase"] == "match_over" and s.returns() == [1.0, -1.0]


def test_sc_ex_16_two_by_two_order():
    """SC-EX-16: dealer seat 3: the order is 0, 1, 2, 3, 0, …; three hands of 3; the 36th card
    (seat 3's last) is the last move."""
    g = game(num_players=4)
    seed = next(s for s in range(1000) if g.new_deal(seed=s).to_dict()["dealer"] == 3)
    s = g.new_deal(seed=seed)
    movers, full_hands = [], []
    while not s.is_terminal():
        d = s.to_dict()
        if [len(h) for h in d["hands"]] == [3, 3, 3, 3]:
            full_hands.append(len(movers))
        movers.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert movers == [0, 1, 2, 3] * 9
    assert full_hands == [0, 12, 24]
    assert s.to_dict()["phase"] == "deal_over"
    # seat 3's last card sweeps the table: the last move, no scopa; team {1, 3} takes it
    pos = position(hands=[[], [], [], ["Jcu"]], table="Jba", to_move=3, dealer=3, stock=0,
                   last_capturer=0)
    s = load(pos, num_players=4)
    play(s, "Jcu>Jba")
    d = s.to_dict()
    assert d["scopas"] == [0, 0] and d["piles"][1] == added(pos, 1, "Jcu Jba")
