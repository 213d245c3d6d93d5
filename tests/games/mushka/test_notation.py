"""Mushka's notation: position dicts, the action codec, observations and score breakdowns.

- ``from_dict(to_dict(state))`` on states reached by random play (deals and matches, many rules
  variants, every phase) gives the same dict, the same legal actions, and plays on identically
  (the same actions give the same positions, later deals of a match included).
- Every inconsistency ``from_dict`` rejects raises :class:`PositionError` with a one-line
  message naming the key (one test each).
- Actions: dict and text round trips for every legal action met in play, the observed forms,
  malformed and illegal actions.
- Observations: two states that differ only in cards hidden from a player look the same to
  him; no hidden card name appears; the ace holder only once public (or to himself).
- Score breakdowns: the categories add up to the record change; the clamped ace bonus; remises.
"""
from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

import cardsim
from cardsim.cards import MUSHKA
from cardsim.errors import CardError, IllegalActionError, PositionError
from cardsim.games.mushka import layout, notation
from cardsim.order import UNKNOWN

# The engine's action kinds (kind << 52 | card mask), restated as an oracle.
PLAY, EXCHANGE, STAND, PASS, DISCARD, STOP, PLAY_ON, SEEN = range(8)
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

_GAMES: dict = {}


def game(**options):
    key = tuple(sorted(options.items()))
    if key not in _GAMES:
        _GAMES[key] = cardsim.load_game("mushka", **options)
    return _GAMES[key]


def aid(kind: int, cards=()) -> int:
    return kind << 52 | sum(1 << MUSHKA.index(c) for c in cards)


def walk(g, seed: int, match: bool, pass_probability: float = 0.25, limit: int = 10_000):
    """Every state of one random deal (or match) with the action taken from it (None at the
    end), at most ``limit`` states."""
    rnd = random.Random(seed)
    s = g.new_match(seed) if match else g.new_deal(seed)
    policy = (pass_probability, 0.25, 0.5)
    for _ in range(limit):
        if s.is_terminal():
            yield s.clone(), None
            return
        a = g.definition.choose_random(s.legal_actions(), policy, rnd)
        yield s.clone(), a
        s.apply_action(a)


def reach(g, want, seeds=range(200), match=False, pass_probability=0.25):
    """The first state of random play that satisfies ``want``."""
    for seed in seeds:
        for s, _ in walk(g, seed, match, pass_probability):
            if want(s.to_dict()):
                return s
    raise AssertionError("no such state in the seeds tried")


def rebuild(g, d):
    return g.from_dict(json.loads(json.dumps(d)))


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
