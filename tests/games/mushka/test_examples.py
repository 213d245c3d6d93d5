"""Every worked example of rules/mushka.md §4 (MU-EX-1 … MU-EX-16) as an explicit position.

4 players P1..P4 = seats 0..3, dealer P4, start_points 25, hearts trump (the turned card is Qh,
a heart no example names) unless stated. The cards an example names are written as given; the
cards it leaves unnamed are chosen so that the trick plays as the example says, and the rest is
spread by ``positions.position`` so that the position is legal. Expected legal actions,
records and returns are the example's numbers.
"""
from __future__ import annotations

import pytest

from tests.games.mushka.positions import (
    DEFAULTS,
    assert_legal,
    exchange_position,
    exchanges,
    find_seed,
    holder_of,
    match_returns,
    oracle_deal,
    play,
    play_cards,
    plays,
    position,
    srt,
)
from tests.helpers import game_loader

HEARTS = "Qh"
SPADES = "Qs"


game = game_loader("mushka")


def load(pos):
    opts = {k: v for k, v in pos["rules"].items() if v != DEFAULTS[k] and k != "num_players"}
    return game(num_players=pos["rules"]["num_players"], **opts).from_dict(pos)


def assert_over(state, *, records, returns, phase="deal_over", winners=(), stopper=None):
    d = state.to_dict()
    assert d["phase"] == phase and state.is_terminal() and state.legal_actions() == []
    assert d["records"] == records
    assert d["winners"] == sorted(winners) and d["stopper"] == stopper
    assert state.returns() == pytest.approx(returns)


# --- MU-EX-1: trick count ------------------------------------------------------------------

def test_mu_ex_1_three_tricks_25_to_22():
    """MU-EX-1: a whole deal in which P1 takes 3 tricks: 25 - 3 = 22 (P2 and P3 one each:
    24; P4 none: 30)."""
    pos = position(["Ac Ad Kc Ks Kd", "7c 7d Th 8h 7s", "8c 8d Jh 9s Ts", "9c 9d Tc Js Td"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "Ac", "7c", "8c", "9c")          # P1
    play_cards(s, "Ad", "7d", "8d", "9d")          # P1
    play(s, "play Kc")
    assert_legal(s, "play 8h", "play Th")          # P2 void in clubs: any trump
    play_cards(s, "8h", "Jh", "Tc")                # P3 overtrumps: P3
    assert s.current_player() == 2
    play_cards(s, "9s", "Js", "Ks", "7s")          # P1
    play(s, "play Kd")
    assert_legal(s, "play Th")
    play_cards(s, "Th", "Ts", "Td")                # P2 trumps
    d = s.to_dict()
    assert d["tricks_won"] == [3, 1, 1, 0]
    assert_over(s, records=[22, 24, 24, 30], returns=[3, 1, 1, -5])


# --- MU-EX-2 .. MU-EX-7: legal cards and trick winners -------------------------------------

def test_mu_ex_2_must_follow_either_club():
    """MU-EX-2: P1 leads 9c; P2 holds Kc 7c Ah Qd 8s: legal Kc, 7c (either; no need to
    beat)."""
    pos = position([None, "Kc 7c Ah Qd 8s", None, None], trump=HEARTS, leader=0, trick=["9c"])
    s = load(pos)
    assert s.current_player() == 1
    assert_legal(s, "play 7c", "play Kc")
    for card in ("7c", "Kc"):
        t = load(pos)
        play(t, "play " + card)
        assert t.to_dict()["trick"] == [[0, "9c"], [1, card]]


def test_mu_ex_3_must_trump_no_overtrump():
    """MU-EX-3: P1 leads 9c, P2 (void in clubs) played Kh; P3 (7h Ad Qs 8d Jd) must trump and
    may play under: 7h only. P4 follows with Tc: P2 wins with Kh."""
    pos = position([None, None, "7h Ad Qs 8d Jd", "Tc 7s 8s 9s Ks"], trump=HEARTS, leader=0,
                   trick=["9c", "Kh"])
    s = load(pos)
    assert s.current_player() == 2
    assert_legal(s, "play 7h")
    play(s, "play 7h")
    assert_legal(s, "play Tc")
    play(s, "play Tc")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["leader"] == 1 and d["trick"] == []
    assert d["records"] == [25, 24, 25, 25]


def test_mu_ex_4_void_in_suit_and_trumps_any_card():
    """MU-EX-4: P1 leads 9c; P4 holds Ad Qs 8d Jd Ts (no club, no heart): any card."""
    pos = position([None, None, None, "Ad Qs 8d Jd Ts"], trump=HEARTS, leader=0,
                   trick=["9c", "8c", "7c"])
    s = load(pos)
    assert s.current_player() == 3
    assert_legal(s, *plays("Ad", "Qs", "8d", "Jd", "Ts"))


def ex5_position():
    return position(["Ah 7c 9c Tc Jc", "As 7h Kd Qd 8c", "Th 9d Td Jd 7d", "8h 7s 8s 9s Ts"],
                    trump=HEARTS)


def test_mu_ex_5_ace_of_spades_beats_a_led_trump_ace():
    """MU-EX-5: hearts trump, P1 leads Ah; P2 holds As 7h Kd Qd 8c: legal 7h or As. P2 plays
    As, P3 Th, P4 8h: P2 wins the trick (and, as holder, writes off 1 + 5)."""
    s = load(ex5_position())
    play(s, "play Ah")
    assert_legal(s, "play As", "play 7h")
    play_cards(s, "As", "Th", "8h")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["leader"] == 1
    assert d["records"] == [25, 19, 25, 25]


def test_mu_ex_5_following_with_the_seven_loses():
    """MU-EX-5, the other choice: P2 follows with 7h and P1's Ah wins."""
    s = load(ex5_position())
    play_cards(s, "Ah", "7h", "Th", "8h")
    d = s.to_dict()
    assert d["tricks_won"] == [1, 0, 0, 0] and d["records"] == [24, 25, 25, 25]


def test_mu_ex_6_trump_ace_not_led_no_power():
    """MU-EX-6: P1 leads 9h, P2 plays Ah, P3 (As, no heart) plays As: Ah wins. Had P3 a
    heart, he would have had to play it."""
    pos = position(["9h 7c 9c Tc Jc", "Ah Kc 8d 9d Td", "As Kd Qd Jd 8c", "8h 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "9h", "Ah")
    assert_legal(s, *plays("As", "8c", "Jd", "Qd", "Kd"))
    play_cards(s, "As", "8h")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["leader"] == 1
    s = load(position([None, None, "As 7h Kd Qd 8c", None], trump=HEARTS, leader=0,
                      trick=["9h", "Ah"]))
    assert_legal(s, "play 7h")


def test_mu_ex_7_ace_of_spades_does_not_beat_other_trumps():
    """MU-EX-7: P1 leads Kh; P2 (no heart) may play any card and plays As; P3 7h, P4 9h:
    Kh wins."""
    pos = position(["Kh 7c 9c Tc Jc", "As Kd Qd 8d 8c", "7h 9d Td Jd 7d", "9h 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play(s, "play Kh")
    assert_legal(s, *plays("As", "8c", "8d", "Qd", "Kd"))
    play_cards(s, "As", "7h", "9h")
    d = s.to_dict()
    assert d["tricks_won"] == [1, 0, 0, 0] and d["leader"] == 0
    assert d["records"] == [24, 25, 25, 25]


# --- MU-EX-8 .. MU-EX-13: scoring ----------------------------------------------------------

def test_mu_ex_8_remise():
    """MU-EX-8: P3 plays the deal and takes no trick: 25 + 5 = 30."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 0, 1])
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    assert_over(s, records=[22, 24, 30, 24], returns=[3, 1, -5, 1])


@pytest.mark.parametrize("trump,p2", [(HEARTS, 18), (SPADES, 13)])
def test_mu_ex_9_ace_bonus(trump, p2):
    """MU-EX-9: P2 holds As and takes 2 tricks: 25 - 2 - 5 = 18; with spades trump
    25 - 2 - 10 = 13. (P2 won trick 3, and wins trick 4; P1 wins trick 5.)"""
    pos = position(["7c Ad", "Kc 7d", "8c 8d", "9c 9d"], trump=trump, leader=1,
                   tricks_won=[2, 1, 0, 0], played=[None, ["As", "Jc", "Jd"], None, None])
    s = load(pos)
    d = s.to_dict()
    assert d["ace_holder"] == 1 and d["ace_bonus_taken"] is True
    assert d["records"][1] == p2 + 1
    play_cards(s, "Kc", "8c", "9c", "7c")
    assert s.to_dict()["records"][1] == p2
    play_cards(s, "7d", "8d", "9d", "Ad")
    assert_over(s, records=[22, p2, 30, 30], returns=[3, 25 - p2, -5, -5])


def test_mu_ex_10_ace_holder_without_tricks():
    """MU-EX-10: P2 holds As (hearts trump) and takes no trick: 25 + 10 = 35."""
    pos = position(["Ac", "As", "7c", "8c"], trump=HEARTS, leader=0, tricks_won=[2, 0, 1, 1])
    s = load(pos)
    assert s.to_dict()["ace_holder"] == 1
    play_cards(s, "Ac", "As", "7c", "8c")
    assert_over(s, records=[22, 35, 24, 24], returns=[3, -10, 1, 1])


def test_mu_ex_11_clamp_stop_in_time():
    """MU-EX-11: P2's record is 4, he holds As (hearts trump) and wins his first trick:
    4 - 1 = 3, the bonus 5 > 3 clamps to 0: the game stops and P2 wins; nothing else of the
    deal is scored (no remise for P3, P4)."""
    pos = position(["7c 8d 9d Td", "Ac As 7s 8s", "8c Qd Kd 7d", "9c Jc Qc Tc"],
                   trump=HEARTS, leader=0, tricks_won=[1, 0, 0, 0], records=[24, 4, 25, 25])
    s = load(pos)
    assert s.to_dict()["start_records"] == [25, 4, 25, 25]
    play_cards(s, "7c", "Ac", "8c", "9c")
    assert_over(s, records=[24, 0, 25, 25], returns=[1, 4, 0, 0], winners=[1], stopper=1)
    assert s.to_dict()["ace_bonus_taken"] is True


@pytest.mark.parametrize("mode", ["deal", "match"])
def test_mu_ex_12_compulsory_stop(mode):
    """MU-EX-12: P3's record is 1; he wins a trick: 0, the game stops at once; P3 wins."""
    pos = position(["7c 8d 9d Td Jd", "8c 7s 8s 9s Ts", "Ac Qd Kd Ad 7d", "9c Js Qs Ks Tc"],
                   trump=HEARTS, records=[25, 25, 1, 25], mode=mode)
    s = load(pos)
    play_cards(s, "7c", "8c", "Ac", "9c")
    if mode == "deal":
        assert_over(s, records=[25, 25, 0, 25], returns=[0, 0, 1, 0], winners=[2], stopper=2)
    else:
        assert_over(s, phase="match_over", records=[25, 25, 0, 25],
                    returns=match_returns(4, [2]), winners=[2], stopper=2)


@pytest.mark.parametrize("reset,record", [("start_minus_excess", 24), ("start", 25)])
def test_mu_ex_13_overshoot_reset(reset, record):
    """MU-EX-13: stop_mode=declared: P3 reaches 0 and declines to stop; he then wins another
    trick: record 24 (25 with overshoot_reset=start)."""
    pos = position(["7c 8d 9d Td Jd", "8c 7s 8s 9s Ts", "Ac Kd Qd Ad 7d", "9c Js Qs Ks Tc"],
                   trump=HEARTS, records=[25, 25, 1, 25], stop_mode="declared",
                   overshoot_reset=reset)
    s = load(pos)
    play_cards(s, "7c", "8c", "Ac", "9c")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["records"][2] == 0
    assert d["stop_offer"] == {"seat": 2, "at": "play"}
    assert_legal(s, "stop", "play_on")
    play(s, "play_on")
    assert s.current_player() == 2 and s.to_dict()["phase"] == "play"
    play_cards(s, "Ad", "Tc", "8d", "7s")
    d = s.to_dict()
    assert d["records"] == [25, 25, record, 25] and d["phase"] == "play"
    assert d["tricks_won"] == [0, 0, 2, 0]


# --- MU-EX-14 .. MU-EX-16: passing, lone player, exchange ----------------------------------

def test_mu_ex_14_passing():
    """MU-EX-14: P1 holds As: "pass" is not offered to him. P2 passes: he plays no card,
    cannot be remised, and his record stays 17."""
    pos = exchange_position(["As 7c 8c 9d Td", "Kc Qc Jc 7d 8d", None, None], trump=HEARTS,
                            records=[25, 17, 25, 25])
    s = load(pos)
    assert_legal(s, *exchanges("As 7c 8c 9d Td", 5), "stand")
    play(s, "stand", "pass", "stand", "stand")
    d = s.to_dict()
    assert d["active"] == [0, 2, 3] and d["ace_holder"] == 0
    movers = set()
    while not s.is_terminal():
        movers.add(s.current_player())
        s.apply_action(s.legal_actions()[0])
    d = s.to_dict()
    assert 1 not in movers and d["played"][1] == [] and d["tricks_won"][1] == 0
    assert d["hands"][1] == srt("Kc Qc Jc 7d 8d")
    assert d["records"][1] == 17 and s.returns()[1] == 0


@pytest.mark.parametrize("hand,record", [("7c 8c 9d Td Js", 20), ("As 7c 8c 9d Td", 15)])
def test_mu_ex_15_lone_player(hand, record):
    """MU-EX-15: P1, P2, P3 pass; P4 (dealer) stands: he is credited 5 tricks: 25 - 5 = 20
    (and 5 more, 15, when he holds As)."""
    pos = exchange_position([None, None, None, hand], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None])
    s = load(pos)
    play(s, "stand")
    assert_over(s, records=[25, 25, 25, record], returns=[0, 0, 0, 25 - record])
    assert s.to_dict()["tricks_won"] == [0, 0, 0, 5]


def test_mu_ex_16_exchange_order_and_stock():
    """MU-EX-16: 4 players, 32 cards: 20 dealt + 1 turned -> stock 11. P1 exchanges 5
    (stock 6), P2 exchanges 4 (stock 2), P3 may exchange at most 2, and when he takes 2, P4
    can only stand or pass (only stand if he holds As)."""
    seed = find_seed(lambda d: d["dealer"] == 3 and holder_of(d) not in (0, 1, 2))
    exp = oracle_deal(seed)
    s = game().new_deal(seed=seed)
    d = s.to_dict()
    assert d["dealer"] == 3 and len(d["stock"]) == 11 and s.current_player() == 0
    stock = exp["stock"]
    play(s, "exchange " + "+".join(exp["hands"][0]))
    d = s.to_dict()
    assert len(d["stock"]) == 6 and d["hands"][0] == srt(stock[:5])
    out = exp["hands"][1][:4]
    play(s, "exchange " + "+".join(out))
    d = s.to_dict()
    assert len(d["stock"]) == 2 and d["hands"][1] == srt(exp["hands"][1][4:] + stock[5:9])
    assert s.current_player() == 2
    assert_legal(s, *exchanges(exp["hands"][2], 2), "stand", "pass")
    play(s, "exchange " + "+".join(exp["hands"][2][:2]))
    d = s.to_dict()
    assert d["stock"] == [] and d["hands"][2] == srt(exp["hands"][2][2:] + stock[9:11])
    assert d["decisions"] == [5, 4, 2, None] and s.current_player() == 3
    if "As" in exp["hands"][3]:
        assert_legal(s, "stand")
    else:
        assert_legal(s, "stand", "pass")
