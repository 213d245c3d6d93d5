"""Rules options: declared once, validated, parsed from text, described."""
import dataclasses

import pytest

import cardsim
from cardsim.errors import OptionError
from cardsim.games.scopa.rules import PRESETS, ScopaRules
from cardsim.protocol.options import describe, non_default, parse_option_pairs


def test_defaults_are_the_rules_file_defaults():
    r = cardsim.load_game("scopa").rules
    assert r == ScopaRules()
    assert (r.num_players, r.target_score, r.redeal_kings_on_table, r.last_move_scopa_counts,
            r.leftover_to_last_capturer, r.equal_card_priority, r.primiera_missing_suit,
            r.four_player_deal, r.tie_at_target) == (
        2, 11, "three_or_more", False, True, True, "zero", "three_at_a_time", "extra_deal")


def test_text_values_are_parsed_to_typed_values():
    g = cardsim.load_game("scopa", num_players="4", last_move_scopa_counts="true",
                          target_score="101", primiera_missing_suit="forfeit")
    assert g.rules.num_players == 4 and g.rules.last_move_scopa_counts is True
    assert g.rules.target_score == 101 and g.num_players == 4


@pytest.mark.parametrize("options, needle", [
    ({"num_players": 3}, "num_players='3'"),
    ({"target_score": 12}, "expected one of 11, 21"),
    ({"equal_card_priority": "maybe"}, "equal_card_priority='maybe'"),
    ({"redeal_kings_on_table": "always"}, "off, three_or_more"),
    ({"players": 2}, "unknown scopa option 'players'"),
    ({"num_players": True}, "num_players='true'"),
])
def test_bad_options_name_the_value_and_what_is_allowed(options, needle):
    with pytest.raises(OptionError, match=needle.replace("(", r"\(")):
        cardsim.load_game("scopa", **options)


def test_option_error_is_a_value_error():
    with pytest.raises(ValueError):
        ScopaRules(target_score=5)


def test_rules_are_frozen_and_replace_validates():
    r = ScopaRules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.num_players = 4
    with pytest.raises(OptionError):
        dataclasses.replace(r, num_players=5)


def test_presets_are_valid_and_distinct():
    assert PRESETS["classic"] == ScopaRules()
    assert PRESETS["two_by_two"].num_players == 4
    assert len(set(PRESETS.values())) == len(PRESETS)


def test_describe_and_non_default():
    rows = {row["name"]: row for row in describe(ScopaRules)}
    assert rows["primiera_missing_suit"]["allowed"] == ["zero", "forfeit"]
    assert rows["primiera_missing_suit"]["rule"] == "SC-PRIM-2"
    assert non_default(ScopaRules(num_players=4)) == {"num_players": 4}


def test_parse_option_pairs():
    assert parse_option_pairs(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    for bad in ("a", "=1", "a="):
        with pytest.raises(OptionError, match="name=value"):
            parse_option_pairs([bad])


def test_unknown_game():
    with pytest.raises(cardsim.UnknownGameError, match="unknown game 'tresette'"):
        cardsim.load_game("tresette")
