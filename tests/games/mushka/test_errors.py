"""Bad input gives the right error class, with a message that names the offending value.

- Every inconsistency ``from_dict`` rejects raises :class:`PositionError` with a one-line
  message naming the key (one test each); a bad card name is also a :class:`CardError`.
- Actions: ids that are not Mushka actions, malformed action dicts, bad or duplicated cards,
  illegal actions (the message lists the legal ones, the state is unchanged).

Round trips of good positions and actions are in ``test_notation.py``.
"""
from __future__ import annotations

import copy

import pytest

from cardsim.errors import CardError, IllegalActionError, PositionError
from cardsim.games.mushka import notation
from tests.games.mushka.positions import EXCHANGE, PLAY, SEEN, STAND, aid, reach, rebuild
from tests.helpers import game_loader

game = game_loader("mushka")


# --- from_dict errors ----------------------------------------------------------------------------

def exchange_pos():
    """Seat to move in the exchange after one decision: the dealer's left has stood."""
    g = game()
    s = g.new_deal(11)
    s.apply_action(aid(STAND))
    return s.to_dict()


def play_pos():
    """A play position with a trick on the table (default rules)."""
    g = game()
    return reach(g, lambda d: d["phase"] == "play" and len(d["trick"]) == 1
                 and len(d["active"]) >= 3 and d["tricks_played"] == 1).to_dict()


def bad(d, *fragments, g=None, error=PositionError):
    g = g or game()
    with pytest.raises(error) as e:
        g.from_dict(d)
    msg = str(e.value)
    assert msg.startswith("invalid mushka position: ") and "\n" not in msg
    for f in fragments:
        assert f in msg, msg
    return msg


def test_base_positions_are_valid():
    for d in (exchange_pos(), play_pos()):
        assert rebuild(game(), d).to_dict() == d


def test_not_a_dict():
    bad([1, 2], "expected a dict")


def test_unknown_key():
    d = exchange_pos()
    d["scores"] = [0, 0, 0, 0]
    bad(d, "unknown key 'scores'")


@pytest.mark.parametrize("key", ["rng", "excluded", "game", "rules"])
def test_missing_key(key):
    d = exchange_pos()
    del d[key]
    bad(d, f"missing key {key!r}")


def test_wrong_game():
    d = exchange_pos()
    d["game"] = "bura"
    bad(d, "game='bura'", "expected 'mushka'")


def test_rules_differ():
    d = exchange_pos()
    d["rules"]["must_overtrump"] = True
    bad(d, "rules differ", "must_overtrump")


def test_bad_mode():
    d = exchange_pos()
    d["mode"] = "tournament"
    bad(d, "mode='tournament'")


def test_bad_phase():
    d = exchange_pos()
    d["phase"] = "bidding"
    bad(d, "phase='bidding'", "expected one of discard, exchange")


def test_match_over_in_deal_mode():
    d = exchange_pos()
    d["phase"], d["to_move"] = "match_over", None
    bad(d, "phase='match_over' with mode='deal'")


def test_deal_over_in_match_mode():
    d = exchange_pos()
    d["mode"], d["phase"], d["to_move"] = "match", "deal_over", None
    bad(d, "phase='deal_over' with mode='match'")


def test_dealer_out_of_range():
    d = exchange_pos()
    d["dealer"] = 4
    bad(d, "dealer=4", "expected a seat from 0 to 3")


def test_seat_not_an_int():
    d = exchange_pos()
    d["dealer"] = True
    bad(d, "dealer=True")


def test_to_move_out_of_range():
    d = exchange_pos()
    d["to_move"] = -1
    bad(d, "to_move=-1")


def test_to_move_none_while_playing():
    d = exchange_pos()
    d["to_move"] = None
    bad(d, "to_move=None")


def test_to_move_wrong_seat_in_exchange():
    d = exchange_pos()
    d["to_move"] = (d["to_move"] + 1) % 4
    bad(d, f"to_move={d['to_move']}", "the next to decide in the exchange")


def test_to_move_wrong_seat_in_play():
    d = play_pos()
    d["to_move"] = d["trick"][0][0]
    bad(d, f"to_move={d['to_move']}", "next in the trick")


def test_to_move_set_when_over():
    g = game()
    s = reach(g, lambda d: d["phase"] == "deal_over")
    d = s.to_dict()
    d["to_move"] = 0
    bad(d, "to_move=0", "expected None in phase 'deal_over'")


def test_deal_number_in_deal_mode():
    d = exchange_pos()
    d["deal_number"] = 2
    bad(d, "deal_number=2", "expected 1 in mode 'deal'")


def test_deal_number_beyond_max_deals():
    g = game(max_deals=10)
    d = g.new_match(1).to_dict()
    d["deal_number"] = 11
    bad(d, "deal_number=11", "max_deals=10", g=g)


def test_deal_number_not_positive():
    d = exchange_pos()
    d["deal_number"] = 0
    bad(d, "deal_number=0")


def test_bad_card_name():
    d = exchange_pos()
    d["hands"][2][0] = "10h"
    msg = bad(d, "hands[2]", "'10h'")
    with pytest.raises(CardError):       # a bad card is both a position and a card error
        game().from_dict(d)
    assert "rank" in msg


def test_bad_trump_card_name():
    d = exchange_pos()
    d["trump_card"] = "Zz"
    bad(d, "trump_card", "'Zz'")


def test_card_outside_the_deck():
    d = exchange_pos()
    d["stock"][0] = "2s"
    bad(d, "stock", "'2s' is not in the 32-card deck")


def test_cards_not_a_list():
    d = exchange_pos()
    d["stock"] = "7s 8s"
    bad(d, "stock='7s 8s'", "expected a list of card names")


def test_per_seat_list_of_wrong_length():
    d = exchange_pos()
    d["hands"] = d["hands"][:3]
    bad(d, "hands=", "one entry per seat (4)")


def test_duplicate_card_in_one_list():
    d = exchange_pos()
    d["hands"][1][1] = d["hands"][1][0]
    bad(d, "hands[1]", "listed twice")


def test_card_in_two_places():
    d = exchange_pos()
    d["stock"][0] = d["hands"][3][0]
    bad(d, f"card {d['hands'][3][0]!r} is in both hands[3] and stock")


def test_turned_card_also_in_a_hand():
    d = exchange_pos()
    d["hands"][0][0], lost = d["trump_card"], d["hands"][0][0]
    d["stock"].append(lost)
    bad(d, "in both", "trump_card")


def test_missing_card():
    d = exchange_pos()
    lost = d["stock"].pop()
    bad(d, f"missing cards {lost}", "every card of the 32-card deck")


def test_trump_taken_differs_from_rules():
    d = exchange_pos()
    d["trump_taken"] = True
    bad(d, "trump_taken=True", "dealer_takes_trump_card=False")


def test_taken_trump_card_elsewhere():
    g = game(dealer_takes_trump_card=True)
    d = g.new_deal(4).to_dict()
    dealer, other = d["dealer"], (d["dealer"] + 1) % 4
    t = d["trump_card"]
    d["hands"][dealer].remove(t)
    d["hands"][dealer].append(d["hands"][other].pop())
    d["hands"][other].append(t)
    bad(d, f"trump_card {t!r} is in hands[{other}]", "the dealer took it", g=g)


def test_negative_record():
    d = exchange_pos()
    d["records"][1] = -3
    bad(d, "records[1]=-3", "non-negative integer")


def test_negative_start_record():
    d = exchange_pos()
    d["start_records"][2] = -1
    bad(d, "start_records[2]=-1")


def test_record_not_an_int():
    d = exchange_pos()
    d["records"][0] = 25.0
    bad(d, "records[0]=25.0")


def test_records_differ_from_start_in_exchange():
    d = exchange_pos()
    d["records"][0] = 24
    bad(d, "records=[24, 25, 25, 25]", "expected [25, 25, 25, 25]")


def test_records_inconsistent_with_tricks():
    d = play_pos()
    winner = d["tricks_won"].index(1)
    d["records"][winner] += 1
    bad(d, "records=", "start_records, tricks_won")


def test_record_zero_automatic_while_play_goes_on():
    d = play_pos()
    winner = d["tricks_won"].index(1)
    d["start_records"][winner] = 1
    d["records"][winner] = 0
    bad(d, f"records[{winner}]=0 with stop_mode=automatic")


def test_start_record_zero_automatic():
    d = exchange_pos()
    d["start_records"][1] = d["records"][1] = 0
    bad(d, "start_records[1]=0 with stop_mode=automatic")


def test_match_first_deal_starts_at_start_points():
    g = game()
    d = g.new_match(2).to_dict()
    d["start_records"][0] = d["records"][0] = 20
    bad(d, "start_records[0]=20", "start_points=25")


def test_bad_decision_value():
    d = exchange_pos()
    d["decisions"][d["to_move"]] = 6
    bad(d, f"decisions[{d['to_move']}]=6", "expected None, 'pass', 'stand'")


def test_decisions_out_of_turn():
    d = exchange_pos()
    d["decisions"][(d["to_move"] + 1) % 4] = "stand"
    bad(d, "decisions=", "seats decide in turn from the dealer's left")


def test_pass_while_holding_the_ace():
    g = game()
    s = reach(g, lambda d: d["phase"] == "exchange" and d["decisions"].count(None) == 4
              and "As" in d["hands"][d["to_move"]])
    s2 = rebuild(g, s.to_dict())
    d = s2.to_dict()
    seat = d["to_move"]
    d["decisions"][seat] = "pass"
    d["to_move"] = (seat + 1) % 4
    bad(d, f"decisions[{seat}]='pass' but hands[{seat}] holds 'As'")


def test_wrong_discard_count():
    d = exchange_pos()
    first = (d["dealer"] + 1) % 4
    d["decisions"][first] = 2
    bad(d, f"discards[{first}] holds 0 cards: expected 2")


def test_stock_size():
    d = exchange_pos()
    seat = d["to_move"]
    d["played"][seat] = [d["stock"].pop()]
    bad(d, "stock holds 10 cards: expected 11")


def test_ace_in_discards():
    g = game()
    d = reach(g, lambda d: d["phase"] == "exchange" and any(d["discards"])
              and any("As" in d["hands"][s] for s in range(4)
                      if d["decisions"][s] not in (None, "pass", "stand"))).to_dict()
    seat = next(s for s in range(4) if "As" in d["hands"][s] and d["discards"][s])
    d["hands"][seat].remove("As")
    d["hands"][seat].append(d["discards"][seat].pop())
    d["discards"][seat].append("As")
    bad(d, f"discards[{seat}] holds 'As'", "ace_of_spades_discardable=false")


def test_wrong_hand_size_in_exchange():
    d = exchange_pos()
    d["hands"][0].append(d["hands"][1].pop())
    bad(d, "hands[0] holds 6 cards: expected 5 in phase 'exchange'")


def test_wrong_hand_size_in_play():
    d = play_pos()
    seat = d["to_move"]
    other = next(s for s in d["active"] if s != seat)
    d["hands"][seat].append(d["hands"][other].pop())
    bad(d, "hands[", "expected")


def test_discard_phase_needs_the_option():
    d = exchange_pos()
    d["phase"] = "discard"
    bad(d, "phase='discard' needs dealer_takes_trump_card=true")


def test_discard_phase_to_move_is_the_dealer():
    g = game(dealer_takes_trump_card=True)
    d = g.new_deal(4).to_dict()
    assert d["phase"] == "discard"
    d["to_move"] = (d["dealer"] + 1) % 4
    bad(d, f"to_move={d['to_move']}", "the dealer", g=g)


def test_active_before_the_exchange_is_over():
    d = exchange_pos()
    d["active"] = [0, 1]
    bad(d, "active: expected [] before the exchange is over")


def test_active_wrong():
    d = play_pos()
    d["active"] = [0, 1, 2, 3] if len(d["active"]) == 3 else [0, 1, 2]
    bad(d, "active=", "the seats that did not pass")


def test_active_not_sorted():
    d = play_pos()
    d["active"] = list(reversed(d["active"]))
    bad(d, "active=", "sorted list of distinct seats")


def test_ace_holder_wrong():
    d = play_pos()
    d["ace_holder"] = next(s for s in d["active"] if s != d["ace_holder"])
    bad(d, f"ace_holder={d['ace_holder']}", "the active seat with 'As'")


def test_void_wrong():
    d = play_pos()
    d["void"] = True
    bad(d, "void=True", "expected False")


def test_leader_of_the_first_trick():
    g = game()
    d = reach(g, lambda d: d["phase"] == "play" and d["tricks_played"] == 0
              and not d["trick"] and len(d["active"]) >= 3).to_dict()
    other = next(s for s in d["active"] if s != d["leader"])
    d["leader"] = d["to_move"] = other
    bad(d, f"leader={other}", "first active seat from the dealer's left")


def test_leader_none_during_play():
    d = play_pos()
    d["leader"] = None
    bad(d, "leader=None", "expected an active seat")


def test_trick_out_of_order():
    g = game()
    d = reach(g, lambda d: d["phase"] == "play" and len(d["trick"]) == 2
              and len(d["active"]) >= 3).to_dict()
    d["trick"].reverse()
    bad(d, "trick seats", "in playing order from the leader")


def test_trick_card_not_played():
    d = play_pos()
    seat, card = d["trick"][0]
    other = d["hands"][seat][0]
    d["trick"][0] = [seat, other]
    bad(d, f"trick: {other!r} of seat {seat} must be in played[{seat}]")


def test_trick_entry_malformed():
    d = play_pos()
    d["trick"][0] = {"seat": 0}
    bad(d, "trick[0]=", "expected [seat, card]")


def test_tricks_won_sum():
    d = play_pos()
    seat = next(s for s in d["active"] if d["tricks_won"][s] == 0)
    d["tricks_won"][seat] = 1
    bad(d, "tricks_won=", "tricks in all")


def test_tricks_won_out_of_range():
    d = play_pos()
    d["tricks_won"][0] = 6
    bad(d, "tricks_won[0]=6", "from 0 to 5")


def test_played_sizes():
    d = play_pos()
    seat = d["trick"][0][0]
    card = next(c for c in d["played"][seat] if [seat, c] not in d["trick"])
    d["played"][seat].remove(card)
    d["hands"][seat].append(card)
    bad(d, f"played[{seat}] holds 1 cards: expected 2")


def test_passed_seat_plays_no_card():
    g = game()
    d = reach(g, lambda d: d["phase"] == "play" and d["tricks_played"] == 1
              and not d["trick"] and len(d["active"]) == 3).to_dict()
    passed = next(s for s in range(4) if s not in d["active"])
    d["played"][passed].append(d["hands"][passed].pop())
    bad(d, f"played[{passed}] / tricks_won[{passed}]: seat {passed} is not active")


def test_lone_tricks_left_with_play():
    d = play_pos()
    d["lone_tricks_left"] = 2
    bad(d, "lone_tricks_left=2", "active seats")


def test_stop_offer_outside_phase_stop():
    d = play_pos()
    d["stop_offer"] = {"seat": 0, "at": "play"}
    bad(d, "stop_offer: expected None in phase 'play'")


def test_stop_offer_malformed():
    d = play_pos()
    d["stop_offer"] = {"seat": 0, "at": "lunch"}
    bad(d, "stop_offer=", "'play'|'bonus'|'end'")


def test_phase_stop_needs_declared_mode():
    d = reach(game(), lambda d: d["phase"] == "play" and d["tricks_played"] == 1
              and not d["trick"]).to_dict()
    d["phase"] = "stop"
    bad(d, "phase='stop' needs stop_mode=declared")


def test_stop_offer_needs_a_zero_record():
    g = game(stop_mode="declared")
    d = reach(g, lambda d: d["phase"] == "play" and d["tricks_played"] >= 1 and not d["trick"]
              and len(d["active"]) >= 2).to_dict()
    d["phase"] = "stop"
    d["stop_offer"] = {"seat": d["leader"], "at": "play"}
    d["to_move"] = d["leader"]
    bad(d, f"stop_offer.seat={d['leader']}", "only a record of 0", g=g)


def test_stopper_while_play_goes_on():
    d = play_pos()
    d["stopper"] = d["leader"]
    bad(d, f"stopper={d['leader']} in phase 'play'")


def test_stopper_needs_zero_record():
    g = game()
    d = reach(g, lambda d: d["phase"] == "deal_over" and not d["void"]
              and d["active"]).to_dict()
    d["stopper"] = d["active"][0]
    d["winners"] = [d["active"][0]]
    bad(d, f"stopper={d['active'][0]}: his record is", "a stop needs 0")


def test_winners_without_a_stop():
    g = game()
    d = reach(g, lambda d: d["phase"] == "deal_over").to_dict()
    d["winners"] = [0]
    bad(d, "winners=[0]", "nobody stopped")


def test_winners_after_max_deals():
    g = game(max_deals=10)
    s = reach(g, lambda d: d["phase"] == "match_over" and d["stopper"] is None,
              seeds=range(40), match=True)
    d = s.to_dict()
    loser = next(x for x in range(4) if x not in d["winners"])
    d["winners"] = [loser]
    bad(d, f"winners=[{loser}]", "the lowest records", g=g)


def test_match_over_without_stop_before_max_deals():
    g = game(max_deals=10)
    d = reach(g, lambda d: d["phase"] == "play" and not d["trick"] and d["tricks_played"] == 2,
              match=True).to_dict()
    d["phase"], d["to_move"] = "match_over", None
    bad(d, "only max_deals ends a match", g=g)


def test_ace_bonus_taken_without_a_trick():
    d = exchange_pos()
    d["ace_bonus_taken"] = True
    bad(d, "ace_bonus_taken=True before the exchange is over")


def test_ace_bonus_not_taken_after_the_holders_trick():
    g = game()
    d = reach(g, lambda d: d["phase"] == "play" and d["ace_holder"] is not None
              and d["tricks_won"][d["ace_holder"]] >= 1).to_dict()
    d["ace_bonus_taken"] = False
    bad(d, "ace_bonus_taken=False", "ace_bonus_timing=first_trick")


def test_ace_bonus_taken_before_the_end():
    g = game(ace_bonus_timing="end_of_deal")
    d = reach(g, lambda d: d["phase"] == "play" and d["ace_holder"] is not None
              and d["tricks_won"][d["ace_holder"]] >= 1).to_dict()
    d["ace_bonus_taken"] = True
    bad(d, "ace_bonus_taken=True before the end of the deal", g=g)


def test_excluded_card_in_the_hand():
    d = exchange_pos()
    d["excluded"][2] = [d["hands"][2][0]]
    bad(d, f"excluded[2] lists {d['hands'][2][0]!r}, which is in hands[2]")


def test_void_deal_not_over():
    g = game()
    d = reach(g, lambda d: d["void"], pass_probability=0.9).to_dict()
    d["phase"] = "play"
    d["to_move"] = 0
    msg = bad(d)
    assert "void" in msg or "leader" in msg or "phase" in msg


def test_bad_rng():
    d = exchange_pos()
    d["rng"] = [0, 0, 0, 0]
    bad(d, "rng=[0, 0, 0, 0]", "not all zero")


def test_bool_fields():
    d = exchange_pos()
    d["void"] = "no"
    bad(d, "void='no'", "expected true or false")


def test_from_dict_leaves_input_alone():
    d = play_pos()
    before = copy.deepcopy(d)
    game().from_dict(d)
    assert d == before


# --- actions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [-1, 8 << 52, aid(PLAY, ["Th", "Jh"]), aid(PLAY),
                                    aid(STAND, ["7s"]), aid(EXCHANGE),
                                    aid(EXCHANGE, ["7s", "8s", "9s", "Ts", "Js", "Qs"]),
                                    SEEN << 52 | 6, SEEN << 52, 2.5, "play Th", True])
def test_not_an_action_id(action):
    vec = game().new_deal(1).vec
    for f in (notation.action_to_dict, notation.action_to_string):
        with pytest.raises(IllegalActionError) as e:
            f(vec, action)
        assert "is not a mushka action id" in str(e.value)


def test_apply_action_error_for_a_foreign_id():
    s = game().new_deal(1)
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(9 << 52)
    assert "expected one of" in str(e.value)


@pytest.mark.parametrize("d", [{"play": "Th", "stand": True}, {"stand": False}, {"pass": 1},
                               {"play": ["Th"]}, {"exchange": []}, {"exchange": "7c"},
                               {"fold": True}, {}, "stand", None, {"stop": None}])
def test_malformed_action_dict(d):
    s = game().new_deal(1)
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict(d)
    msg = str(e.value)
    assert "expected one of {'play': card}" in msg and "\n" not in msg


def test_bad_card_in_action():
    s = game().new_deal(1)
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"exchange": ["7c", "1x"]})
    assert "'1x'" in str(e.value)


def test_duplicate_card_in_exchange():
    s = game().new_deal(1)
    card = s.to_dict()["hands"][s.current_player()][0]
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"exchange": [card, card]})
    assert "listed twice" in str(e.value)


def test_illegal_action_lists_the_legal_ones():
    s = game().new_deal(1)
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"play": "As"})
    msg = str(e.value)
    assert msg.startswith("illegal action play As: expected one of ")
    assert "stand" in msg and "exchange " in msg and "\n" not in msg
    assert s.to_dict() == before


def test_illegal_exchange_of_a_card_not_held():
    s = game().new_deal(1)
    d = s.to_dict()
    card = d["stock"][0]
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"exchange": [card]})
    assert f"illegal action exchange {card}" in str(e.value)


def test_stop_not_offered():
    s = game().new_deal(1)
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"stop": True})
    assert "illegal action stop" in str(e.value)
