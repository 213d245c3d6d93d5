"""Reading game records back (:mod:`cardsim.records.record`): a record's JSON checked field by field
and by replaying its moves from its start, so that a bad record is refused in one line naming
the first wrong field or move; and a record made from a plain list of moves."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..errors import CardsimError, shown
from ..files import GAME_RECORD_BYTES
from ..game import load_game
from .documents import read_document
from .record import FORMAT, KEYS, VERSION, GameRecord, RecordError, action_from_string, check_seats, record_of


def from_moves(game, moves: Sequence[str], seed: int | None = None, start=None,
               seats: Sequence[str] | None = None) -> GameRecord:
    """A full record from a plain list of moves, played from ``start`` (a position dict or
    state) or from the deal of ``seed``; the first move that is not legal is refused."""
    if start is None:
        if seed is None:
            raise RecordError("a list of moves needs the deal it was played on: a seed or a "
                              "start position")
        state = game.new_deal(seed=seed)
    else:
        state = game.from_dict(start) if isinstance(start, Mapping) else start.clone()
    actions = []
    play = state.clone()
    for i, text in enumerate(moves, 1):
        try:
            a = action_from_string(play, text)
        except RecordError as e:
            raise RecordError(f"move {i}: {e}") from None
        actions.append(a)
        play.apply_action(a)
    return record_of(state, actions, seats, seed)


def from_dict(d: Any) -> GameRecord:
    """A record from its JSON form, checked (module docstring)."""
    if not isinstance(d, Mapping):
        raise RecordError("a record is a JSON object")
    if d.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {shown(d.get('format'))}")
    if d.get("version") != VERSION:
        raise RecordError(f"version: this cardsim reads version {VERSION}, got "
                          f"{shown(d.get('version'))}")
    unknown = sorted(set(d) - KEYS)
    if unknown:
        raise RecordError(f"unknown field {shown(unknown[0])}: expected {', '.join(sorted(KEYS))}")
    rules = d.get("rules", {})
    if not isinstance(rules, Mapping):
        raise RecordError("rules: expected an object of rules options")
    try:
        game = load_game(d.get("game"), **rules)
    except CardsimError as e:
        raise RecordError(f"game/rules: {e}") from None
    n = game.num_players
    seats = check_seats(d.get("seats"), n)
    moves = d.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves: expected a list of move strings")
    seed = d.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise RecordError(f"seed: expected a non-negative integer, got {shown(seed)}")
    result = d.get("result")
    if result is not None and (not isinstance(result, list) or len(result) != n or not all(
            isinstance(r, (int, float)) and not isinstance(r, bool) for r in result)):
        raise RecordError(f"result: expected {n} numbers, one per seat, or null")
    if d.get("views") is not None:
        return _view_record(d, game, seats, moves, seed, result)
    if d.get("start") is None:
        raise RecordError("start: a record needs its start position (or a player's views)")
    where = d.get("where")
    if where is not None:
        from ..deals import parse_where
        try:
            where = dict(parse_where(game, where).canonical)
        except CardsimError as e:
            raise RecordError(str(e) if str(e).startswith("where") else f"where: {e}") from None
    try:
        state = game.from_dict(d["start"])
    except CardsimError as e:
        raise RecordError(f"start: {e}") from None
    start = state.to_dict()
    for i, text in enumerate(moves, 1):
        try:
            state.apply_action(action_from_string(state, text))
        except RecordError as e:
            raise RecordError(f"move {i}: {e}") from None
    if result is not None and state.is_terminal() and [float(r) for r in result] != \
            state.returns():
        raise RecordError(f"result: {result} is not the returns of the moves played "
                          f"({state.returns()})")
    return GameRecord(game=game, seats=seats, moves=tuple(moves), start=start, seed=seed,
                      where=where, result=None if result is None else tuple(float(r) for r in result))


def _view_record(d, game, seats, moves, seed, result) -> GameRecord:
    player = d.get("player")
    n = game.num_players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise RecordError(f"player: expected the seat whose views these are, 0..{n - 1}")
    views = d["views"]
    if not isinstance(views, list) or not views:
        raise RecordError("views: expected a list of the player's decisions")
    checked = []
    for i, v in enumerate(views, 1):
        if not isinstance(v, Mapping) or set(v) != {"position", "move"}:
            raise RecordError(f"views[{i}]: expected an object with position and move")
        try:
            state = game.from_dict(v["position"])
        except CardsimError as e:
            raise RecordError(f"views[{i}].position: {e}") from None
        if state.current_player() != player:
            raise RecordError(f"views[{i}].position: seat {state.current_player()} is to move, "
                              f"not the player {player}")
        try:
            action_from_string(state, v["move"])
        except RecordError as e:
            raise RecordError(f"views[{i}].move: {e}") from None
        checked.append({"position": state.to_dict(), "move": v["move"]})
    if moves and moves != [v["move"] for v in checked]:
        raise RecordError("moves: a view record's moves are its views' moves, in order")
    return GameRecord(game=game, seats=seats, moves=tuple(v["move"] for v in checked),
                      player=player, views=tuple(checked), seed=seed,
                      result=None if result is None else tuple(float(r) for r in result))


def read_record(path) -> GameRecord:
    """A record file: a JSON record, checked; :class:`RecordError` in one line otherwise."""
    data = read_document(path, "JSON", RecordError, limit=GAME_RECORD_BYTES,
                         what="a game record")
    try:
        return from_dict(data)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
