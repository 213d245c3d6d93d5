"""Game records: a played deal (or match) as a documented, versioned JSON document.

A record says what was played, so that it can be replayed, reviewed (``cardsim review``) and
shared. Format ``cardsim-record``, version 1, a JSON object:

``format``, ``version``
    ``"cardsim-record"`` and ``1``.
``game``, ``rules``
    The game's name and every rules option (as ``cardsim games`` lists them).
``seats``
    One string per seat: ``"person"`` or the agent spec that played it (``"strong"``,
    ``"ismcts:iterations=1000"``); any other text names a player and is kept as it is.
``start``
    The position the moves start from, in ``State.to_dict`` form: every card known (a deal
    played here, or a real deal written down whole). Null in a *view record*.
``moves``
    The moves in order, in their string form (``State.action_to_string``), every seat's.
``player``, ``views``
    A view record (after a real game only one player's cards are known): ``player`` is that
    seat and ``views`` one entry per decision of his, ``{"position": ..., "move": ...}``: the
    position as he saw it (``State.to_dict`` form; the cards he could not see may be any
    that fit what he saw, since the review samples them again) and his move. ``moves`` is then
    his moves only. Absent from a full record.
``result``
    Each seat's return at the end (``State.returns``), or null when the record stops before
    the end.

``seed`` (optional) is the seed the deal was dealt from, when it was; ``where`` (optional)
the condition it was drawn under (:mod:`cardsim.deals`, canonical form): the start is then
``new_deal(seed, where=where)``'s, not ``new_deal(seed)``'s.

Every record is checked when read (:mod:`cardsim.records.replay`: its moves are replayed): a wrong
field, or the first move that is not legal where it stands, is refused in one line
(:class:`RecordError`) naming it. :func:`record_of` makes a record from a start and the
actions played; ``State.record()`` from a state played from its start;
:func:`cardsim.records.replay.from_moves` from a plain list of move strings.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..errors import CardsimError, shown
from ..protocol.options import rules_dict

FORMAT = "cardsim-record"
VERSION = 1
PERSON = "person"
KEYS = {"format", "version", "game", "rules", "seats", "start", "moves", "player", "views",
        "result", "seed", "where"}
"""The fields of a record (module docstring)."""


class RecordError(CardsimError):
    """A bad record (one line: the field or the first move that is wrong)."""


@dataclass(frozen=True)
class GameRecord:
    """A checked record (module docstring); ``game`` is the loaded :class:`cardsim.Game`."""

    game: Any
    seats: tuple[str, ...]
    moves: tuple[str, ...]
    start: dict | None = None
    player: int | None = None
    views: tuple[dict, ...] | None = None
    result: tuple[float, ...] | None = None
    seed: int | None = None
    where: dict | None = None

    @property
    def is_view(self) -> bool:
        """A view record: one player's decisions as he saw them (module docstring)."""
        return self.views is not None

    def to_dict(self) -> dict:
        d = {"format": FORMAT, "version": VERSION, "game": self.game.name,
             "rules": rules_dict(self.game.rules), "seats": list(self.seats),
             "start": self.start, "moves": list(self.moves)}
        if self.is_view:
            d["player"] = self.player
            d["views"] = [dict(v) for v in self.views]
        d["result"] = None if self.result is None else list(self.result)
        if self.seed is not None:
            d["seed"] = self.seed
        if self.where is not None:
            d["where"] = self.where
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"

    def write(self, path) -> None:
        """Write the record to ``path`` (JSON)."""
        Path(path).write_text(self.to_json(), encoding="utf-8")

    def decisions(self) -> Iterator[tuple[Any, int, int]]:
        """``(state, action, seat)`` before each move: a full record's every move replayed
        from its start, a view record's positions (each a fresh state)."""
        if self.is_view:
            for view in self.views:
                state = self.game.from_dict(view["position"])
                yield state, action_from_string(state, view["move"]), self.player
            return
        state = self.game.from_dict(self.start)
        for text in self.moves:
            action = action_from_string(state, text)
            yield state.clone(), action, state.current_player()
            state.apply_action(action)

    def final_state(self):
        """The position after the last move of a full record."""
        if self.is_view:
            raise RecordError("a view record holds one player's positions, not the deal's end")
        state = self.game.from_dict(self.start)
        for text in self.moves:
            state.apply_action(action_from_string(state, text))
        return state


def action_from_string(state, text: str) -> int:
    """The legal action of ``state`` whose string form is ``text`` (exactly, or the only one
    equal but for case); :class:`RecordError` otherwise."""
    legal = state.legal_actions()
    strings = [state.action_to_string(a) for a in legal]
    text = " ".join(str(text).split())
    if text in strings:
        return legal[strings.index(text)]
    folded = [i for i, s in enumerate(strings) if s.casefold() == text.casefold()]
    if len(folded) == 1:
        return legal[folded[0]]
    raise RecordError(f"{shown(text)} is not a legal move for seat {state.current_player()} here: "
                      f"expected one of {', '.join(strings) or 'nothing (the deal is over)'}")


def record_of(start, actions: Sequence[int], seats: Sequence[str] | None = None,
              seed: int | None = None, where: dict | None = None) -> GameRecord:
    """The full record of ``actions`` (ids) played from the state ``start`` (left as it is)."""
    state = start.clone()
    moves = []
    for a in actions:
        moves.append(state.action_to_string(int(a)))
        state.apply_action(int(a))
    n = start.game.num_players
    return GameRecord(game=start.game, seats=check_seats(seats, n), moves=tuple(moves),
                      start=start.to_dict(), seed=seed, where=where,
                      result=tuple(state.returns()) if state.is_terminal() else None)


def check_seats(seats, n: int) -> tuple[str, ...]:
    """``seats`` as a record holds them (``"person"`` each when None), or :class:`RecordError`."""
    if seats is None:
        return tuple(PERSON for _ in range(n))
    if isinstance(seats, str) or len(seats) != n or not all(isinstance(s, str) and s
                                                             for s in seats):
        raise RecordError(f"seats: expected {n} non-empty strings, one per seat, got "
                          f"{shown(seats)}")
    return tuple(seats)
