"""Observations as readable lines of text: what one seat sees, as the terminal game shows it
(``cardsim play``) and as a review's report prints each decision's position.

Everything here is generic: the screen is a rendering of the observation dict
(``State.observation``), with small formatting helpers for keys that several games share
(``hand``, ``table``, ``trick``, ``trump_card``, ``piles``, ``scores``...) and a plain
``key: value`` line for any other key, so a new game with an observation dict works unchanged.
Seats are named from the viewer's side: ``you`` for the viewer, ``seat 1`` for the others, and
``your side``/``side 1`` for partnerships.

The play screen (``cardsim play``) is shorter: a game package may have a ``screen`` module (the
same role in every game) with the game's own lines in words (:func:`game_screen`); the helpers
here fit them to :data:`WIDTH` columns (:func:`wrap`, :func:`columns`).
"""
from __future__ import annotations

import importlib
import textwrap
from types import ModuleType
from typing import Any

WIDTH = 80
"""The play screen's width: every line it writes fits a terminal of 80 columns."""

# Observation keys whose integer value is a seat, or a side (Scopa's partnerships).
SEAT_KEYS = {"to_move", "dealer", "leader", "holder", "player", "seat", "first_leader",
             "last_trick_taker", "trump_card_holder"}
SIDE_KEYS = {"last_capturer", "settebello_side"}
SEAT_LIST_KEYS = {"winners"}
# Keys shown in the screen's header or folded into another line, and keys too long to show
# (the person saw the history happen, move by move).
HEADER_KEYS = {"player", "mode", "phase", "to_move", "deal_number", "trump_card_place",
               "trump_card_holder", "history", "revealed_at"}
# Keys of the score breakdown that are the match's running score, not the deal's points.
MATCH_SCORE_KEYS = {"scores", "match_scores"}


def render_observation(obs: dict, human_seat: int, n_players: int) -> list[str]:
    """The lines of the screen that shows observation ``obs`` to the person at ``human_seat``."""
    return View(n_players, human_seat).render(obs)


def game_screen(game) -> ModuleType | None:
    """The ``screen`` module of ``game``'s package (its play screen's lines, events and card
    notation in words), or None when the game has none."""
    package = game.definition.codec.__name__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.screen")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.screen":
            raise
        return None


def wrap(text: str, width: int = WIDTH, indent: int = 4) -> list[str]:
    """``text`` as lines of at most ``width`` columns (words kept whole), the lines after the
    first indented by ``indent``."""
    return textwrap.wrap(text, width, subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False) or [""]


def columns(cells: list[str], width: int = WIDTH, indent: int = 2, gap: int = 3) -> list[str]:
    """``cells`` read down each column, in the fewest rows whose columns (each as wide as its
    widest cell) fit in ``width``."""
    if not cells:
        return []
    for rows in range(1, len(cells) + 1):
        cols = [cells[c:c + rows] for c in range(0, len(cells), rows)]
        widths = [max(len(x) for x in col) for col in cols]
        if indent + sum(widths) + gap * (len(cols) - 1) <= width or rows == len(cells):
            break
    return [(" " * indent + (" " * gap).join(col[r].ljust(w) for col, w in zip(cols, widths)
                                             if r < len(col))).rstrip()
            for r in range(rows)]


def move_list(moves: list[str], width: int = WIDTH) -> list[str]:
    """The legal moves numbered from 1, in columns that fit ``width``: moves that share a
    verb (``play Kd``, ``play T5``...) listed once under it (``play: 1. Kd  2. T5``), moves of
    one word (``claim``, ``stand``, ``7co>3co+4cu``) as they are."""
    digits = len(str(len(moves)))
    groups: dict[str, list[str]] = {}
    for i, move in enumerate(moves, 1):
        verb, space, rest = move.partition(" ")
        groups.setdefault(verb if space else "", []).append(
            f"{i:>{digits}}. {rest if space else move}")
    lines = []
    for verb, cells in groups.items():
        if not verb:
            lines += columns(cells, width)
            continue
        one = f"  {verb}: " + "   ".join(cells)
        lines += [one] if len(one) <= width else [f"  {verb}:"] + columns(cells, width, 4)
    return lines


class View:
    """Text of observations and score breakdowns for the person at seat ``human``."""

    def __init__(self, n: int, human: int) -> None:
        self.n, self.human = n, human
        self.sides = n

    # --- names -------------------------------------------------------------------------------

    def who(self, index: int, count: int | None = None, agent: Any = None) -> str:
        """A seat's name (``you``, ``seat 1``), or a side's when ``count`` entries share the
        seats (side ``i`` holds the seats ``p`` with ``p % count == i``)."""
        count = self.n if count is None else count
        if count == self.n or count <= 0 or self.n % count:
            if index == self.human:
                return "you"
            return f"seat {index}" + (f" ({agent.name})" if agent is not None else "")
        seats = [p for p in range(self.n) if p % count == index]
        names = ", ".join(self.who(p) for p in seats)
        return f"{'your side' if self.human in seats else f'side {index}'} ({names})"

    def whose(self, index: int) -> str:
        return "your" if index == self.human else f"seat {index}'s"

    def each(self, values: list, unit: str = "") -> str:
        """Per-seat (or per-side) values as ``you 3, seat 1 2`` (``your side 3, side 1 2``)."""
        return ", ".join(f"{self.short(i, len(values))} {self.fmt(v)}{unit}"
                         for i, v in enumerate(values))

    def short(self, index: int, count: int | None = None) -> str:
        """A seat's name, or a side's without its seats (``your side``, ``the other side``)."""
        count = self.n if count is None else count
        if count == self.n or count <= 0 or self.n % count:
            return self.who(index)
        if index == self.side_of(count):
            return "your side"
        return "the other side" if count == 2 else f"side {index}"

    def side_of(self, count: int) -> int:
        """The viewer's side when ``count`` sides share the seats."""
        return self.human % count

    def versus(self, values: list) -> str:
        """Two sides' numbers as ``11–7``, the viewer's side first; more as :meth:`each`."""
        if len(values) != 2:
            return self.each(values)
        mine = self.side_of(2)
        return f"{values[mine]:g}–{values[1 - mine]:g}"

    def cards(self, label: str, cards: list[str], empty: str = "(none)") -> list[str]:
        """``label: cards`` wrapped to the screen's width."""
        return wrap(f"{label}: {' '.join(cards) if cards else empty}")

    def order_of(self, breakdown: dict) -> str:
        """``(you/seat 1)``: the order of the per-seat (or per-side) numbers of a breakdown."""
        length = next((len(v) for v in breakdown.values() if isinstance(v, list) and v
                       and all(x is None or isinstance(x, (int, float)) for x in v)), self.n)
        return "(" + "/".join(self.who(i, length) for i in range(length)) + ")"

    # --- values ------------------------------------------------------------------------------

    def fmt(self, v: Any, key: str = "") -> str:
        """A value of an observation as short text."""
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, int) and key in SEAT_KEYS:
            return self.who(v)
        if isinstance(v, int) and key in SIDE_KEYS:
            return self.who(v, self.sides)
        if isinstance(v, (int, float, str)):
            return str(v)
        if isinstance(v, dict):
            parts = [f"{k.replace('_', ' ')} {self.fmt(x, k)}" for k, x in v.items()
                     if x not in (None, [], {})]
            return ", ".join(parts) or "-"
        if isinstance(v, (list, tuple)):
            if not v:
                return "none"
            if all(isinstance(x, str) for x in v):
                return " ".join(v)
            if key in SEAT_LIST_KEYS:
                return ", ".join(self.fmt(x, "seat") for x in v)
            if len(v) > 1 and self.n % len(v) == 0:
                return ", ".join(f"{self.who(i, len(v))} {self.fmt(x)}" for i, x in enumerate(v))
            return " / ".join(self.fmt(x) for x in v)
        return str(v)

    def breakdown(self, bd: dict, skip: set = frozenset(), labels: dict | None = None) -> str:
        """A score breakdown on one line: per-seat numbers as ``a/b``; with ``labels``, only
        its keys, named as it names them."""
        parts = []
        for k, v in bd.items():
            if k in skip or (labels is not None and k not in labels):
                continue
            if isinstance(v, list) and v and all(x is None or isinstance(x, (int, float))
                                                 and not isinstance(x, bool) for x in v):
                text = "/".join("-" if x is None else f"{x:g}" for x in v)
            else:
                text = self.fmt(v, k)
            parts.append(f"{(labels or {}).get(k, k.replace('_', ' '))} {text}")
        return ", ".join(parts)

    # --- the screen --------------------------------------------------------------------------

    def render(self, obs: dict) -> list[str]:
        """The person's screen: every key of his observation, known keys first."""
        lines = [self.header(obs)]
        handlers = [("scores", self._scores), ("dealer", self._seat_line),
                    ("leader", self._seat_line), ("trump_card", self._trump),
                    ("table", self._table), ("trick", self._trick), ("hand", self._hand),
                    ("hand_sizes", self._plain), ("stock_size", self._stock),
                    ("piles", self._piles), ("scopas", self._plain),
                    ("thrown_down", self._thrown), ("revealed", self._revealed)]
        done = set(HEADER_KEYS)
        for key, handler in handlers:
            if key in obs:
                lines.extend(handler(key, obs[key], obs))
                done.add(key)
        for key, value in obs.items():
            if key not in done and value is not None:
                lines.append(f"{key.replace('_', ' ')}: {self.fmt(value, key)}")
        return lines

    def header(self, obs: dict) -> str:
        """The screen's first line: whose turn, the deal's number and the phase."""
        scores = obs.get("scores")
        self.sides = len(scores) if isinstance(scores, list) and scores else self.n
        turn = obs.get("to_move")
        head = [f"your turn (seat {self.human})" if turn in (None, self.human)
                else f"{self.who(turn)} to move"]
        if obs.get("deal_number") is not None:
            head.append(f"deal {obs['deal_number']}")
        if obs.get("phase") is not None:
            head.append(f"phase {obs['phase']}")
        return "--- " + ", ".join(head) + " ---"

    def screen(self, obs: dict, words: ModuleType | None = None) -> list[str]:
        """The play screen: the header, then the game's own lines in words (``words``, its
        ``screen`` module: :func:`game_screen`), each at most :data:`WIDTH` columns; without
        one, every key of the observation (:meth:`render`)."""
        if words is None:
            return [line for text in self.render(obs) for line in wrap(text)]
        return [self.header(obs)] + [line for text in words.status(obs, self)
                                     for line in wrap(text)]

    def _plain(self, key, value, obs):
        return [f"{key.replace('_', ' ')}: {self.fmt(value, key)}"] if value is not None else []

    _seat_line = _plain

    def _scores(self, key, value, obs):
        if value is None or (obs.get("mode") != "match" and not any(value)):
            return []
        label = "match score" if obs.get("mode") == "match" else "scores"
        return [f"{label}: {self.fmt(value, key)}"]

    def _trump(self, key, value, obs):
        if value is None:
            return []
        line = f"trump card: {value}"
        place = obs.get("trump_card_place")
        if isinstance(place, dict) and place.get("zone"):
            zone = str(place["zone"]).replace("_", " ")
            seat = place.get("seat")
            line += (f" (in the {zone})" if seat is None
                     else f" (in {self.whose(seat)} {zone})")
        return [line]

    def _table(self, key, value, obs):
        return [f"table: {' '.join(value) if value else '(empty)'}"]

    def _hand(self, key, value, obs):
        return [f"your hand: {' '.join(value) if value else '(empty)'}"]

    def _stock(self, key, value, obs):
        return [f"stock: {value} card{'s' if value != 1 else ''}"]

    def _thrown(self, key, value, obs):
        return [f"your face-down cards: {' '.join(value)}"] if value else []

    def _revealed(self, key, value, obs):
        if not isinstance(value, list) or not any(value):
            return [] if isinstance(value, list) else self._plain(key, value, obs)
        return ["revealed: " + "; ".join(f"{self.who(p, len(value))} {self.fmt(c)}"
                                         for p, c in enumerate(value) if c)]

    def _trick(self, key, value, obs):
        if _seat_cards(value):          # [[seat, card], ...] in playing order (Mushka, Minchiate)
            return ["trick: " + ", ".join(f"{self.who(seat)} {card}" for seat, card in value)]
        if not isinstance(value, dict):
            return [] if value is None else self._plain(key, value, obs)
        head = "trick"
        if value.get("leader") is not None:
            head += f" led by {self.who(value['leader'])}"
        if value.get("k") is not None:
            head += f", {value['k']} card{'s' if value['k'] != 1 else ''} each"
        lines = [head + ":"]
        played = value.get("played")
        down = value.get("face_down") or []
        if isinstance(played, list):
            for p, cards in enumerate(played):
                hidden = down[p] if p < len(down) else 0
                if cards or hidden:
                    text = " ".join(cards) if isinstance(cards, list) else self.fmt(cards)
                    if hidden:
                        text = (text + " + " if text else "") + f"{hidden} face down"
                    lines.append(f"  {self.who(p, len(played))}: {text}")
        if value.get("top"):
            top = f"  on top: {self.fmt(value['top'])}"
            if value.get("holder") is not None:
                top += f" ({self.who(value['holder'])})"
            lines.append(top)
        for k, v in value.items():
            if k not in ("leader", "k", "played", "face_down", "top", "holder") and v is not None:
                lines.append(f"  {k.replace('_', ' ')}: {self.fmt(v, k)}")
        return lines

    def _piles(self, key, value, obs):
        if not isinstance(value, list):
            return self._plain(key, value, obs)
        lines = ["piles:"]
        for i, pile in enumerate(value):
            name = self.who(i, len(value))
            if isinstance(pile, list):
                lines.append(f"  {name}: {len(pile)} card{'s' if len(pile) != 1 else ''}"
                             + (f": {' '.join(pile)}" if pile else ""))
            elif isinstance(pile, dict):
                parts = []
                for k, v in pile.items():
                    if v in (None, [], 0) or (isinstance(v, list) and not any(v)):
                        continue
                    parts.append(f"{k.replace('_', ' ')} {self.fmt(v, k)}")
                lines.append(f"  {name}: {'; '.join(parts) or 'empty'}")
            else:
                lines.append(f"  {name}: {self.fmt(pile)}")
        return lines


def _seat_cards(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of ``[seat, card]`` pairs."""
    return isinstance(value, list) and bool(value) and all(
        isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[0], int)
        and not isinstance(x[0], bool) and isinstance(x[1], str) for x in value)
