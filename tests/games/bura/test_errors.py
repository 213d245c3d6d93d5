"""Bad input gives the right error class, with a message that names the offending value.

Unknown card, duplicated card, missing card, impossible hand sizes (unequal hands where the rules
need equal ones, more than 3 cards, short hands with a stock), a stock that is not a multiple of
the player count, the trump card not last in the stock, illegal actions (state unchanged),
unknown option, bad option value.
"""
from __future__ import annotations

import copy
import re

import pytest

import cardsim
from cardsim.errors import CardError, CardsimError, IllegalActionError, OptionError, PositionError
from tests.games.bura.positions import action_dict, action_id, play, position
from tests.helpers import game_loader

game = game_loader("bura")


def base():
    """A legal check point: seat 0 to claim or lead with 9s Ks 7h against 8s 8c 8h; 10 cards in
    the stock (trump card Jd last); the other 20 cards in the piles."""
    return position(hands=["9s Ks 7h", "8s 8c 8h"], leader=0, trump="Jd", stock_size=10)


def answering():
    """A legal answer point: seat 0 has led Qs; seat 1 holds Ks 7c 8c."""
    return position(hands=["9h Jh", "Ks 7c 8c"], leader=0, trump="7d", stock_size=2,
                    trick={"leader": 0, "top": ["Qs"]})


def test_base_positions_are_legal():
    for pos in (base(), answering()):
        s = game().from_dict(pos)
        assert game().from_dict(s.to_dict()).to_dict() == s.to_dict()
    assert game().from_dict(base()).to_dict()["hands"][0] == ["9s", "Ks", "7h"]


# --- cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["Xs", "10s", "1s", "as", "Ts ", "6x", ""])
def test_unknown_card_in_position(bad):
    pos = base()
    pos["piles"][0]["up"] = pos["piles"][0]["up"] + [bad]
    with pytest.raises(CardError) as e:
        game().from_dict(pos)
    assert repr(bad) in str(e.value)


@pytest.mark.parametrize("where", ["hand", "stock", "trump_card", "down", "trick"])
def test_unknown_card_in_each_zone(where):
    pos = answering()
    if where == "hand":
        pos["hands"][1][0] = "Zs"
    elif where == "stock":
        pos["stock"][0] = "Zs"
    elif where == "trump_card":
        pos["trump_card"] = "Zs"
    elif where == "down":
        pos["piles"][1]["down"] = ["Zs"]
    else:
        pos["trick"]["top"] = ["Zs"]
        pos["trick"]["played"][0] = ["Zs"]
    with pytest.raises(CardError) as e:
        game().from_dict(pos)
    assert "'Zs'" in str(e.value)


def test_unknown_card_in_action():
    s = game().from_dict(base())
    before = s.to_dict()
    with pytest.raises(CardError) as e:
        s.action_from_dict({"play": ["10s"], "mode": "lead"})
    assert "'10s'" in str(e.value)
    assert s.to_dict() == before


def test_duplicated_card_across_zones():
    pos = base()
    pos["stock"][0], moved = "Ks", pos["stock"][0]      # Ks is also in seat 0's hand
    pos["piles"][1]["up"] = sorted(pos["piles"][1]["up"] + [moved])
    with pytest.raises((PositionError, CardError)) as e:
        game().from_dict(pos)
    assert "'Ks'" in str(e.value)


def test_duplicated_card_in_one_list():
    pos = base()
    pos["hands"][1] = ["8s", "8s", "8h"]
    pos["piles"][1]["up"] = pos["piles"][1]["up"] + ["8c"]
    with pytest.raises((PositionError, CardError)) as e:
        game().from_dict(pos)
    assert "'8s'" in str(e.value)


def test_duplicated_card_face_up_and_face_down():
    pos = base()
    card = pos["piles"][0]["up"][0]
    pos["piles"][0]["down"] = [card]
    pos["thrown_down"][1] = [card]
    with pytest.raises((PositionError, CardError)) as e:
        game().from_dict(pos)
    assert card in str(e.value)


def test_missing_card():
    pos = base()
    card = pos["piles"][1]["up"][-1]
    pos["piles"][1]["up"] = pos["piles"][1]["up"][:-1]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert card in str(e.value)


# --- sizes ---------------------------------------------------------------------------------

def test_unequal_hands_at_check_point():
    """BU-DRAW-3: hands are equal at a lead; [3, 2] (a card moved to a pile) is impossible."""
    pos = base()
    card = pos["hands"][1].pop()
    pos["piles"][1]["up"] = sorted(pos["piles"][1]["up"] + [card])
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    msg = str(e.value)
    assert "hand" in msg.lower() and re.search(r"\b2\b", msg)


def test_more_than_three_cards_in_a_hand():
    """BU-DEAL-2: nobody holds more than 3 cards ([4, 4], taken from the stock)."""
    pos = base()
    pos["hands"][0] = pos["hands"][0] + [pos["stock"].pop(0)]
    pos["hands"][1] = pos["hands"][1] + [pos["stock"].pop(0)]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    msg = str(e.value)
    assert "hand" in msg.lower() and re.search(r"\b4\b", msg)


def test_short_hands_with_a_stock():
    """BU-DRAW-1: while the stock lasts every hand is refilled to 3; [2, 2] with a stock of 10
    is impossible."""
    pos = base()
    moved = [pos["hands"][0].pop(), pos["hands"][1].pop()]
    pos["piles"][0]["up"] = pos["piles"][0]["up"] + moved
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    msg = str(e.value)
    assert "hand" in msg.lower() or "stock" in msg.lower()
    assert re.search(r"\b2\b", msg)


def test_answer_hand_sizes_inconsistent_with_trick():
    """BU-RESP-1: after a 1-card lead the leader holds one card fewer than the answerer;
    3 against 3 is impossible."""
    pos = answering()
    card = pos["piles"][0]["up"].pop()
    pos["hands"][0] = pos["hands"][0] + [card]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "hand" in str(e.value).lower()


def test_stock_not_a_multiple_of_player_count():
    """BU-DRAW-3: the stock is a multiple of n: 9 cards with 2 players is impossible."""
    pos = base()
    card = pos["stock"].pop(0)
    pos["piles"][0]["up"] = sorted(pos["piles"][0]["up"] + [card])
    assert len(pos["stock"]) == 9
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    msg = str(e.value)
    assert "stock" in msg.lower() and re.search(r"\b9\b", msg)


def test_stock_not_a_multiple_three_players():
    pos = position(hands=["9s Ks 7h", "8s 8c 8h", "7s 7c 6h"], leader=0, trump="Jd",
                   stock_size=9)
    card = pos["stock"].pop(0)
    pos["piles"][0]["up"] = sorted(pos["piles"][0]["up"] + [card])
    with pytest.raises(PositionError) as e:
        game(num_players=3).from_dict(pos)
    assert "stock" in str(e.value).lower() and re.search(r"\b8\b", str(e.value))


def test_trump_card_not_last_in_stock():
    """BU-DEAL-3: while the stock lasts the turned card is its last card."""
    pos = base()
    pos["trump_card"] = pos["stock"][0]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert pos["stock"][0] in str(e.value) or "Jd" in str(e.value)


@pytest.mark.parametrize("key,value", [("dealer", 2), ("to_move", 5), ("leader", -1)])
def test_seat_out_of_range(key, value):
    pos = base()
    pos[key] = value
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert key in str(e.value) and str(value) in str(e.value)


def test_wrong_number_of_hands():
    pos = base()
    pos["hands"] = pos["hands"] + [[]]
    with pytest.raises(PositionError, match="hands"):
        game().from_dict(pos)


def test_unknown_phase():
    pos = base()
    pos["phase"] = "bidding"
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "bidding" in str(e.value)


def test_rules_of_position_differ_from_game():
    pos = game().from_dict(base()).to_dict()
    pos["rules"]["false_claim_penalty"] = "single"
    with pytest.raises(CardsimError) as e:
        game().from_dict(pos)
    assert "false_claim_penalty" in str(e.value)


def test_face_down_cards_with_facedown_discards_off():
    """BU-RESP-6: with facedown_discards=off no card is ever face down."""
    pos = base()
    card = pos["piles"][0]["up"].pop()
    pos["piles"][0]["down"] = [card]
    pos["thrown_down"][1] = [card]
    game().from_dict(pos)                                    # fine by default
    with pytest.raises(PositionError) as e:
        game(facedown_discards="off").from_dict(pos)
    assert "down" in str(e.value).lower() or card in str(e.value)


# --- actions -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "lead Ks+7h",        # mixed suits (BU-LEAD-4)
    "lead 9s+Ks+7h",     # mixed suits
    "lead As",           # not in the hand
    "beat Ks",           # nothing to answer
    "throw_down 9s",
    "no_claim",          # no separate claim decision without a Stop option
    "pass",
    "stop 9s+Ks+7h",
])
def test_illegal_action_at_check_point(text):
    s = game().from_dict(base())
    before = s.to_dict()
    legal = s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id(text))
    assert s.to_dict() == before and s.legal_actions() == legal
    with pytest.raises(IllegalActionError):
        s.apply_action(s.action_from_dict(action_dict(text)))
    assert s.to_dict() == before


@pytest.mark.parametrize("text", [
    "beat 7c",            # does not beat Qs (BU-RESP-2)
    "beat Ks+7c",         # 2 cards to a 1-card lead (BU-RESP-1)
    "throw_down Ks+7c",
    "throw_up 7c",        # face up is not allowed with facedown_discards=always
    "claim",              # never while answering (BU-CLAIM-3)
    "lead Ks",
    "throw_down 9h",      # the leader's card
])
def test_illegal_answer(text):
    s = game().from_dict(answering())
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(action_id(text))
    assert s.to_dict() == before
    card = text.split()[-1].split("+")[0] if " " in text else text
    assert card in str(e.value)


@pytest.mark.parametrize("d", [
    {"play": ["Ks"], "mode": "smash"},
    {"mode": "beat"},
    {"play": "Ks Qs", "mode": "beat"},
    {},
    "beat Ks",
])
def test_malformed_action_dict(d):
    s = game().from_dict(answering())
    before = s.to_dict()
    with pytest.raises(CardsimError):
        s.action_from_dict(d)
    assert s.to_dict() == before


@pytest.mark.parametrize("bad", [-1, 8 << 40, 1 << 60, "beat Ks", 2.5, None, True])
def test_not_an_action_id(bad):
    s = game().from_dict(answering())
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(bad)
    assert s.to_dict() == before


def test_action_after_the_end():
    s = game().from_dict(base())
    play(s, "claim")
    before = s.to_dict()
    assert s.is_terminal() and s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("lead 9s"))
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("claim"))
    assert s.to_dict() == before


# --- options -------------------------------------------------------------------------------

def test_unknown_option():
    with pytest.raises(OptionError) as e:
        cardsim.load_game("bura", jokers=True)
    assert "'jokers'" in str(e.value)


@pytest.mark.parametrize("name,value", [
    ("num_players", 5), ("num_players", 1), ("facedown_discards", "sometimes"),
    ("false_claim_penalty", "triple"), ("match_format", "robber"), ("wins_target", 15),
    ("penalty_limit", 10), ("initial_combo_redeal", "maybe"), ("molodka_stop", 2),
    ("moscow", "four_aces"), ("small_moscow", "three_sevens"), ("double_bura", "split"),
    ("next_deal_first_leader", "dealer"), ("bura_timing", "never"),
    ("end_without_claim", "draw"),
])
def test_bad_option_value(name, value):
    with pytest.raises(OptionError) as e:
        cardsim.load_game("bura", **{name: value})
    msg = str(e.value)
    assert name in msg and str(value) in msg


def test_option_values_as_strings():
    g = cardsim.load_game("bura", num_players="3", molodka_stop="true", wins_target="21",
                          initial_combo_redeal="false")
    assert (g.rules.num_players, g.rules.molodka_stop, g.rules.wins_target,
            g.rules.initial_combo_redeal) == (3, True, 21, False)
    assert g.num_players == 3


def test_bad_seed():
    with pytest.raises(CardsimError) as e:
        game().new_deal(seed=-4)
    assert "-4" in str(e.value)


def test_position_is_not_modified_by_from_dict():
    pos = base()
    keep = copy.deepcopy(pos)
    game().from_dict(pos)
    assert pos == keep


# --- the deal's history (rules §5) ----------------------------------------------------------

def _after_tricks(n_tricks: int = 4) -> dict:
    """A real position after ``n_tricks`` tricks of random play, with its history."""
    import random
    state = game().new_deal(seed=4)
    rnd = random.Random(4)
    while state.to_dict()["tricks"] < n_tricks or state.to_dict()["phase"] != "check":
        legal = [a for a in state.legal_actions() if a >> 40 != 4]
        state.apply_action(rnd.choice(legal))
    return state.to_dict()


def _history_error(d: dict, *words: str) -> None:
    with pytest.raises(PositionError) as err:
        game().from_dict(d)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_history_round_trips():
    d = _after_tricks()
    assert len(d["history"]) == d["tricks"] == 4
    assert game().from_dict(d).to_dict() == d


def test_history_of_the_wrong_length():
    d = _after_tricks()
    d["history"] = d["history"][:-1]
    _history_error(d, "history", "4 finished tricks")


def test_history_entry_with_unknown_keys():
    d = _after_tricks()
    d["history"][0]["seen"] = []
    _history_error(d, "history[0]", "played", "drawn")


def test_history_card_played_twice():
    d = _after_tricks()
    d["history"][1]["played"][0] = d["history"][0]["played"][0]
    _history_error(d, "history[1].played[0]", "twice")


def test_history_trick_split_between_piles():
    d = _after_tricks()
    first = d["history"][0]
    card = first["played"][0][0]
    other = next(c for h in d["history"][1:] for p in h["played"] for c in p
                 if all(c not in pile["up"] + pile["down"] for pile in d["piles"]
                        if card in pile["up"] + pile["down"]))
    d["history"][0]["played"][0] = [other]
    for h in d["history"][1:]:
        for p in h["played"]:
            if other in p:
                p[p.index(other)] = card
    _history_error(d, "history[0]", "one pile")


def test_history_drawn_card_not_held():
    d = _after_tricks()
    d["history"][0]["drawn"][0] = [d["stock"][0]]
    _history_error(d, "history", d["stock"][0])


def test_history_card_drawn_twice():
    d = _after_tricks()
    d["history"][1]["drawn"][1] = d["history"][1]["drawn"][1] + d["history"][0]["drawn"][1]
    _history_error(d, "history[1].drawn[1]", "twice")


def test_history_missing_for_pile_cards():
    d = _after_tricks()
    d["tricks"] = 0
    d["history"] = []
    _history_error(d, "tricks=0", "piles")


def test_revealed_at_names_a_card_not_revealed():
    d = _after_tricks()
    d["revealed_at"] = {d["hands"][0][0]: 0}
    _history_error(d, "revealed_at", d["hands"][0][0], "not a revealed card")
