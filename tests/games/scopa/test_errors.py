"""Bad input gives the right error class, with a message that names the offending value.

Unknown card, duplicated card, missing card, impossible hand or stock size, illegal action (state
unchanged), unknown option, bad option value, unknown game.
"""
from __future__ import annotations

import copy

import pytest

import cardsim
from cardsim.errors import (
    CardError,
    CardsimError,
    IllegalActionError,
    OptionError,
    PositionError,
    UnknownGameError,
)
from tests.games.scopa.positions import action_id, complement, position
from tests.helpers import game_loader

game = game_loader("scopa")


def base():
    """A legal position: seat 0 to move with [7sw, 2co, Kba] on [7cu, 3ba, 4sw]."""
    return position(hands=[["7sw", "2co", "Kba"], ["Aco", "Acu", "Asw"]], table="7cu 3ba 4sw",
                    to_move=0, stock=12)


def test_base_position_is_legal():
    s = game().from_dict(base())
    assert s.to_dict()["hands"][0] == ["2co", "7sw", "Kba"]
    assert game().from_dict(s.to_dict()).to_dict() == s.to_dict()


# --- cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["7x", "Zco", "10co", "7CO", ""])
def test_unknown_card_in_position(bad):
    pos = base()
    pos["table"] = pos["table"] + [bad]
    with pytest.raises(CardError) as e:
        game().from_dict(pos)
    assert repr(bad) in str(e.value)


def test_unknown_card_in_action():
    s = game().from_dict(base())
    with pytest.raises(CardError) as e:
        s.action_from_dict({"play": ["8sw"], "capture": []})
    assert "'8sw'" in str(e.value)


def test_duplicated_card_across_zones():
    pos = base()
    pos["table"] = pos["table"] + ["Kba"]            # also in seat 0's hand
    pos["piles"][0] = [c for c in pos["piles"][0] if c != "Kba"]
    with pytest.raises((PositionError, CardError)) as e:
        game().from_dict(pos)
    assert "'Kba'" in str(e.value)


def test_duplicated_card_in_one_list():
    pos = base()
    pos["hands"][1] = ["Aco", "Aco", "Asw"]
    pos["piles"][0] = pos["piles"][0] + ["Acu"]
    with pytest.raises((PositionError, CardError)) as e:
        game().from_dict(pos)
    assert "'Aco'" in str(e.value)


def test_missing_card():
    pos = base()
    pos["piles"][1] = [c for c in pos["piles"][1] if c != "Jba"]
    assert "Jba" not in pos["piles"][0]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "Jba" in str(e.value)


# --- sizes ---------------------------------------------------------------------------------

def move_card(pos, src, dst):
    """Move the last card of hands[src] to hands[dst] (same set of cards overall)."""
    pos = copy.deepcopy(pos)
    pos["hands"][dst].append(pos["hands"][src].pop())
    return pos


def test_impossible_hand_sizes():
    pos = move_card(base(), 1, 0)                    # 4 cards against 2
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    msg = str(e.value)
    assert "hand" in msg and "[4, 2]" in msg


def test_hand_sizes_inconsistent_with_turn_order():
    # seat 1 (dealer) to move with 3 cards while seat 0, who moved first, holds 3 as well
    pos = base()
    pos["to_move"] = 1
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "[3, 3]" in str(e.value)


def test_player_to_move_with_no_card():
    pos = position(hands=[[], []], table="7cu", to_move=0, stock=6, piles=[[], []])
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "[0, 0]" in str(e.value)


def test_impossible_stock_size():
    pos = base()
    card = pos["stock"].pop()
    pos["piles"][0] = pos["piles"][0] + [card]
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert "11" in str(e.value) and "stock" in str(e.value)


@pytest.mark.parametrize("key,value", [("dealer", 2), ("to_move", -1), ("last_capturer", 5)])
def test_seat_out_of_range(key, value):
    pos = base()
    pos[key] = value
    with pytest.raises(PositionError) as e:
        game().from_dict(pos)
    assert f"{key}={value}" in str(e.value)


def test_wrong_number_of_hands():
    pos = base()
    pos["hands"] = pos["hands"] + [[]]
    with pytest.raises(PositionError, match="hands"):
        game().from_dict(pos)


def test_rules_of_position_differ_from_game():
    pos = game().from_dict(base()).to_dict()
    pos["rules"]["equal_card_priority"] = False
    with pytest.raises(CardsimError) as e:
        game().from_dict(pos)
    assert "equal_card_priority" in str(e.value)


def test_scopa_position_with_finished_phase_but_cards_in_hand():
    pos = base()
    pos["phase"] = "deal_over"
    with pytest.raises(PositionError, match="phase|finished"):
        game().from_dict(pos)


def finished(**keys):
    """A finished deal: side 0 holds every card but Jba and Kba."""
    pos = {"game": "scopa", "dealer": 0, "to_move": 1, "hands": [[], []], "table": [],
           "stock": [], "piles": [complement("Kba Jba"), ["Kba", "Jba"]], "last_capturer": 0}
    pos.update(keys)
    return pos


def test_finished_positions_are_accepted():
    s = game().from_dict(finished(phase="deal_over", mode="deal", scores=[4, 0]))
    assert s.is_terminal() and s.returns() == [4.0, -4.0]
    s = game().from_dict(finished(phase="match_over", mode="match", scores=[13, 6]))
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


@pytest.mark.parametrize("mode,phase,scores", [
    ("deal", "match_over", [4, 0]),      # a single deal never ends a match
    ("match", "deal_over", [4, 0]),      # a match goes on to the next deal or ends
    ("match", "match_over", [12, 12]),   # equal scores: another deal (SC-MATCH-3)
    ("match", "match_over", [4, 0]),     # nobody reached the target (SC-MATCH-3)
])
def test_unreachable_finished_position(mode, phase, scores):
    """A finished position whose mode, phase and scores no play can produce is refused
    (PositionError: "a position that no legal play of the game can reach")."""
    with pytest.raises(PositionError) as e:
        game().from_dict(finished(phase=phase, mode=mode, scores=scores))
    msg = str(e.value)
    assert phase in msg or mode in msg or str(scores) in msg


# --- actions -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "7sw",            # capture is compulsory (SC-CAPT-5)
    "7sw>4sw+3ba",    # the sum is excluded by the equal card (SC-CAPT-3)
    "2co>7cu",        # a 2 cannot take a 7
    "Acu",            # not in the player's hand
    "Kba>4sw",        # a set that does not sum to 10
])
def test_illegal_action_raises_and_leaves_state_unchanged(text):
    s = game().from_dict(base())
    before = s.to_dict()
    legal_before = s.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(action_id(text))
    assert text.split(">")[0] in str(e.value)
    assert s.to_dict() == before and s.legal_actions() == legal_before


def test_illegal_action_dict_raises_and_leaves_state_unchanged():
    s = game().from_dict(base())
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(s.action_from_dict({"play": ["7sw"], "capture": ["3ba", "4sw"]}))
    assert "7sw" in str(e.value)
    assert s.to_dict() == before


@pytest.mark.parametrize("bad", [-1, 1 << 60, "7sw", 3.5, None, True])
def test_not_an_action_id(bad):
    s = game().from_dict(base())
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(bad)
    assert s.to_dict() == before


def test_action_after_the_end():
    pos = position(hands=[[], ["6co"]], table="6ba", to_move=1, dealer=1, stock=0)
    s = game().from_dict(pos)
    s.apply_action(action_id("6co>6ba"))
    before = s.to_dict()
    assert s.is_terminal() and s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("6co>6ba"))
    assert s.to_dict() == before


# --- options and games ---------------------------------------------------------------------

def test_unknown_option():
    with pytest.raises(OptionError) as e:
        cardsim.load_game("scopa", jokers=True)
    assert "'jokers'" in str(e.value)


@pytest.mark.parametrize("name,value", [
    ("num_players", 3), ("target_score", 15), ("redeal_kings_on_table", "always"),
    ("last_move_scopa_counts", "maybe"), ("leftover_to_last_capturer", 1),
    ("equal_card_priority", "no"), ("primiera_missing_suit", "half"),
    ("four_player_deal", "six_at_once"), ("tie_at_target", "coin_flip"),
])
def test_bad_option_value(name, value):
    with pytest.raises(OptionError) as e:
        cardsim.load_game("scopa", **{name: value})
    msg = str(e.value)
    assert name in msg and str(value) in msg


def test_option_values_as_strings():
    g = cardsim.load_game("scopa", num_players="4", equal_card_priority="false",
                          target_score="21")
    assert (g.rules.num_players, g.rules.equal_card_priority, g.rules.target_score) == \
        (4, False, 21)


def test_unknown_game():
    with pytest.raises(UnknownGameError) as e:
        cardsim.load_game("briscola")
    assert "'briscola'" in str(e.value)


def test_bad_seed():
    with pytest.raises(CardsimError) as e:
        game().new_deal(seed=-3)
    assert "-3" in str(e.value)
