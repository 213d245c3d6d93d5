"""Game records (:mod:`cardsim.records.record`, read back by :mod:`cardsim.records.replay`): the
format round-trips for every game, a state gives its record, a plain list of moves imports,
and a bad record is refused in one line naming the first wrong field or move."""
from __future__ import annotations

import json

import pytest

import cardsim
from cardsim.records.record import FORMAT, VERSION, RecordError
from cardsim.records.replay import from_dict, from_moves, read_record
from cardsim.solvers.agents import play

GAMES = ["scopa", "bura", "mushka", "minchiate"]


def played(name: str, seed: int = 5, **options):
    """A deal of ``name`` played to its end by the heuristic in every seat."""
    game = cardsim.load_game(name, **options)
    state = game.new_deal(seed=seed)
    play(state, ["heuristic"] * game.num_players, seed=1)
    return game, state


@pytest.mark.parametrize("name", GAMES)
def test_a_record_round_trips_and_replays_to_the_same_end(name, tmp_path):
    """Every game: ``State.record()`` of a played deal, written and read back, is the same
    record; its moves replayed from its start reach the same final state and returns."""
    game, state = played(name)
    record = state.record(["heuristic"] * game.num_players)
    assert record.seed == 5 and record.result == tuple(state.returns())
    path = tmp_path / "deal.json"
    record.write(path)
    back = read_record(path)
    assert back.to_dict() == record.to_dict()
    d = json.loads(path.read_text())
    assert d["format"] == FORMAT and d["version"] == VERSION and d["game"] == name
    assert back.final_state().to_dict() == state.to_dict()
    decisions = list(back.decisions())
    assert len(decisions) == len(record.moves)
    assert [s.action_to_string(a) for s, a, _ in decisions] == list(record.moves)


@pytest.mark.parametrize("name", GAMES)
def test_a_plain_list_of_moves_imports(name):
    """A list of move strings and the deal's seed give the same record as the state's."""
    game, state = played(name, seed=8)
    record = state.record()
    imported = from_moves(game, list(record.moves), seed=8)
    assert imported.to_dict() == record.to_dict()
    with pytest.raises(RecordError, match=r"^move 2: 'nonsense' is not a legal move"):
        from_moves(game, [record.moves[0], "nonsense"], seed=8)


def test_a_match_and_a_position_give_their_records():
    """A match played move by move, and a state made from a position, give their records; a
    state whose vector was changed otherwise than by its moves has none."""
    game = cardsim.load_game("scopa")
    match = game.new_match(seed=2)
    for _ in range(5):
        match.apply_action(match.legal_actions()[0])
    record = match.record()
    assert len(record.moves) == 5 and record.result is None
    assert from_dict(record.to_dict()).to_dict() == record.to_dict()
    position = game.from_dict(match.to_dict())
    position.apply_action(position.legal_actions()[0])
    assert position.record().start == match.to_dict()
    position.vec[:] = game.new_deal(seed=3).vec
    with pytest.raises(RecordError, match="changed otherwise than by its moves"):
        position.record()
    with pytest.raises(RecordError, match="has no record"):
        cardsim.State(game, match.vec.copy()).record()


def test_a_view_record_holds_one_players_decisions():
    """A view record (one player's positions and moves, as after a real game) is checked and
    round-trips; its moves are the views' moves."""
    game, state = played("scopa", seed=4)
    record = state.record()
    views = [{"position": s.to_dict(), "move": s.action_to_string(a)}
             for s, a, seat in record.decisions() if seat == 0]
    d = {"format": FORMAT, "version": VERSION, "game": "scopa", "rules": {},
         "seats": ["person", "strong"], "start": None, "moves": [], "player": 0,
         "views": views, "result": None}
    view = from_dict(d)
    assert view.is_view and view.player == 0 and len(view.moves) == len(views)
    assert from_dict(view.to_dict()).to_dict() == view.to_dict()
    with pytest.raises(RecordError, match=r"views\[1\]: expected an object"):
        from_dict({**d, "views": [{"position": views[0]["position"]}]})
    other = [{"position": s.to_dict(), "move": s.action_to_string(a)}
             for s, a, seat in record.decisions() if seat == 1][:1]
    with pytest.raises(RecordError, match=r"views\[1\].position: seat 1 is to move"):
        from_dict({**d, "views": other})


@pytest.mark.parametrize("change, needle", [
    ({"format": "pgn"}, "format: expected 'cardsim-record'"),
    ({"version": 2}, "version: this cardsim reads version 1"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"game": "poker"}, "game/rules:"),
    ({"rules": {"target_score": 12}}, "game/rules:"),
    ({"seats": ["person"]}, "seats: expected 2 non-empty strings"),
    ({"moves": "7co"}, "moves: expected a list"),
    ({"start": None}, "start: a record needs its start position"),
    ({"result": [1, 2, 3]}, "result: expected 2 numbers"),
    ({"result": [9.0, -9.0]}, "result: [9.0, -9.0] is not the returns"),
    ({"seed": -1}, "seed: expected a non-negative integer"),
])
def test_a_bad_record_is_refused_in_one_line_naming_the_field(change, needle):
    game, state = played("scopa")
    d = {**state.record().to_dict(), **change}
    with pytest.raises(RecordError) as e:
        from_dict(d)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_a_wrong_move_is_named_by_its_number():
    game, state = played("bura")
    d = state.record().to_dict()
    d["moves"][3] = "lead Zz"
    with pytest.raises(RecordError, match=r"^move 4: 'lead Zz' is not a legal move for seat"):
        from_dict(d)


def test_unreadable_record_files_are_one_line(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="is not valid JSON"):
        read_record(tmp_path / "bad.json")
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        read_record(tmp_path / "list.json")
