"""MU-MATCH-2: a Mushka game without ``max_deals`` ends only when a record reaches 0, and random
games of 5 to 7 players can last thousands of deals; cardsim refuses to play such a game to its
end (``play --match``, ``unit = "match"``, analysis of a match position), in one line naming
the option, instead of searching forever."""
from __future__ import annotations

import json

import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.app.interactive import play_interactive
from cardsim.errors import CardsimError
from cardsim.experiments.spec import SpecError, load_spec
from cardsim.game import definition
from tests.helpers import load_game


def test_mu_match_2_a_game_without_max_deals_is_endless_and_with_it_ends():
    """MU-MATCH-2: the definition says why a game without ``max_deals`` may never end."""
    d = definition("mushka")
    assert "set max_deals" in d.endless_match(load_game("mushka").rules)
    assert d.endless_match(load_game("mushka", max_deals=10).rules) is None
    assert definition("scopa").endless_match(load_game("scopa").rules) is None


def test_mu_match_2_play_match_without_max_deals_is_refused_in_one_line():
    """MU-MATCH-2: ``play --match`` of a game that may never end is refused before any move;
    with ``max_deals`` it is played (the input ends at once)."""
    game = load_game("mushka", num_players=7)
    with pytest.raises(CardsimError, match=r"mushka --match: .*set max_deals \(--option"):
        play_interactive(game, ["heuristic"], match=True, read=lambda _: "",
                         write=lambda _: None)
    lines = []

    def read(prompt):
        raise EOFError

    ended = load_game("mushka", num_players=7, max_deals=10)
    assert play_interactive(ended, ["heuristic"], match=True, read=read,
                            write=lines.append) is None
    assert lines[-1] == "end of input: game abandoned"


def test_mu_match_2_a_match_experiment_without_max_deals_is_refused(tmp_path):
    """MU-MATCH-2 (the runner's refusal): ``unit = "match"`` for Mushka needs ``max_deals``."""
    text = 'game = "mushka"\nagents = ["random", "heuristic"]\nunit = "{}"\n{}[size]\ndeals = 2\n'
    path = tmp_path / "spec.toml"
    path.write_text(text.format("match", ""))
    with pytest.raises(SpecError, match=r'unit = "match": .*set max_deals \(max_deals = N'):
        load_spec(path)
    path.write_text(text.format("match", "[rules]\nmax_deals = 10\n"))
    assert load_spec(path).unit == "match"
    path.write_text(text.format("deal", ""))
    assert load_spec(path).unit == "deal"


def test_mu_match_2_analyzing_a_match_position_without_max_deals_is_refused(tmp_path, capsys):
    """MU-MATCH-2: a match position's analysis rolls out to the match's end: refused without
    ``max_deals``, in one line."""
    state = load_game("mushka").new_match(seed=1)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(state.to_dict()))
    code = main(["analyze", "mushka", str(path), "--player", str(state.current_player()),
                 "--worlds", "2", "--agent", "heuristic"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "a match position" in err
    assert "set max_deals" in err


def test_load_game_takes_a_mapping_of_options_or_refuses_in_one_line():
    """``load_game(name, rules)``: rules as a mapping of options work like keywords; another
    object is refused with a clear error, not an AttributeError."""
    assert cardsim.load_game("bura", {"num_players": 3}).num_players == 3
    assert cardsim.load_game("mushka", {"num_players": "5"}, max_deals=10).rules.max_deals == 10
    with pytest.raises(CardsimError, match="expected a ScopaRules or a mapping"):
        cardsim.load_game("scopa", 5)


@pytest.mark.parametrize("value", [6, "6", " 6 ", 1, 1_000_000])
def test_mu_match_2_max_deals_takes_any_positive_integer(value):
    """MU-MATCH-2 (rules/mushka.md §3): ``max_deals`` is none or any positive integer, not a
    menu of values (6 was once refused)."""
    assert cardsim.load_game("mushka", max_deals=value).rules.max_deals == int(value)


@pytest.mark.parametrize("value", [0, -1, "0", "6.0", 6.0, True, "1e3", "+5", "٣", 1_000_001,
                                   "x", ""])
def test_mu_match_2_max_deals_refuses_what_is_not_a_count_of_deals(value):
    """MU-MATCH-2: anything else is refused in one line naming what is allowed."""
    with pytest.raises(CardsimError, match=r"max_deals=.*expected one of none, an integer "
                                           r"from 1 to 1,000,000"):
        cardsim.load_game("mushka", max_deals=value)


def test_mu_match_2_a_game_of_six_deals_ends_after_the_sixth():
    """MU-MATCH-2: with ``max_deals=6`` a game ends after six deals at the latest (or when a
    record reaches 0 first, MU-MATCH-1), on the compiled engine and its position round trip."""
    import random
    game = load_game("mushka", max_deals=6, num_players=7)
    lengths = []
    for seed in range(12):
        state, rnd = game.new_match(seed=seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rnd.choice(state.legal_actions()))
        d = state.to_dict()
        assert d["phase"] == "match_over" and 1 <= d["deal_number"] <= 6
        assert game.from_dict(d).to_dict() == d
        if min(d["records"]) > 0:
            assert d["deal_number"] == 6        # no record reached 0: the cap ended it
        lengths.append(d["deal_number"])
    assert 6 in lengths
