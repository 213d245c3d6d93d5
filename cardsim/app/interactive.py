"""A person plays a deal or a match against agents at the terminal.

:func:`play_interactive` runs the game loop: the agents' seats are played by
:func:`solvers.agents.choose`, the person's seat by lines read from ``read`` (``input`` by
default). The person's screen is built from ``state.observation(human_seat)`` only, so it
shows exactly what that seat may see; the agents' moves are announced as they happen, with any
card the person cannot see (e.g. a card thrown face down in Bura) written ``??``.

Everything here is generic: the screen is a rendering of the observation dict, with small
formatting helpers for keys that several games share (``hand``, ``table``, ``trick``,
``trump_card``, ``piles``, ``scores``...) and a plain ``key: value`` line for any other key, so
a new game with an observation dict works unchanged.

A person types the move as listed (``7co>3co+4cu``, ``lead As+Ks``, ``claim``; case and extra
spaces do not matter), or its number in the list, ``help`` (or ``?``) to see the list again, or
``quit`` (``q``) to stop; end of input stops too. Stopping returns ``None``.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Sequence

import numpy as np

from cardsim.errors import AgentError, CardsimError
from solvers.agents import Agent, choose, parse_agent, workspace

HELP_WORDS = ("?", "help", "h")
QUIT_WORDS = ("quit", "q", "exit")
HIDDEN = "??"

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

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_NUMBER = re.compile(r"[0-9]+")


def move_seed(seed: int, move: int) -> int:
    """The seed of the agent's choice at move ``move`` (0-based, counting every seat's moves)
    of the game played from ``seed``."""
    return int(np.random.SeedSequence([int(seed), int(move)])
               .generate_state(1, dtype=np.uint64)[0])


def resolve_opponents(n_players: int, human_seat: int, opponents,
                      game=None) -> dict[int, Agent]:
    """Seat -> parsed agent for every seat but ``human_seat``: one spec per other seat in seat
    order, or a single spec for all of them (named levels as ``game`` has them);
    :class:`AgentError` otherwise."""
    if isinstance(opponents, (str, Agent)):
        opponents = [opponents]
    opponents = list(opponents)
    seats = [p for p in range(n_players) if p != human_seat]
    if len(opponents) == 1:
        opponents = opponents * len(seats)
    if len(opponents) != len(seats):
        raise AgentError(
            f"expected {len(seats)} opponent agent{'s' if len(seats) != 1 else ''} (one per "
            f"other seat: {', '.join(map(str, seats))}) or a single one for all, "
            f"got {len(opponents)}")
    return {p: a if isinstance(a, Agent) else parse_agent(a, game)
            for p, a in zip(seats, opponents)}


def render_observation(obs: dict, human_seat: int, n_players: int) -> list[str]:
    """The lines of the screen that shows observation ``obs`` to the person at ``human_seat``."""
    return _View(n_players, human_seat).render(obs)


def play_interactive(game, opponents: Sequence[str] | str, human_seat: int = 0, seed: int = 0,
                     match: bool = False, read: Callable[[str], str] = input,
                     write: Callable[[str], Any] = print,
                     equity=None) -> list[float] | None:
    """Play one deal (or a match, ``match=True``) of ``game`` from ``seed``: the person at
    ``human_seat`` against ``opponents`` (agent spec strings, one per other seat in seat order,
    or one for all). Returns ``state.returns()``, or ``None`` when the person quits or the
    input ends. ``equity``: the match-equity table of opponents with ``value=match``
    (:func:`solvers.agents.workspace`)."""
    n = game.num_players
    if isinstance(human_seat, bool) or not isinstance(human_seat, (int, np.integer)) \
            or not 0 <= human_seat < n:
        raise CardsimError(f"human_seat={human_seat!r}: expected a seat from 0 to {n - 1}")
    agents = resolve_opponents(n, int(human_seat), opponents, game)
    endless = game.definition.endless_match(game.rules) if match else None
    if endless:
        raise CardsimError(f"{game.name} --match: {endless} (--option max_deals=N)")
    return _Session(game, agents, int(human_seat), seed, match, read, write, equity).run()


class _Session:
    """One game between the person and the agents (the loop of :func:`play_interactive`)."""

    def __init__(self, game, agents: dict[int, Agent], human: int, seed: int, match: bool,
                 read: Callable[[str], str], write: Callable[[str], Any], equity=None) -> None:
        self.game, self.agents, self.human, self.seed = game, agents, human, seed
        self.match, self.read, self.write = match, read, write
        self.n = game.num_players
        self.state = game.new_match(seed=seed) if match else game.new_deal(seed=seed)
        self.ws = workspace(game.spec, list(agents.values()), equity)
        self.cards = frozenset(game.definition.deck.cards)
        self.view = _View(self.n, human)

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> list[float] | None:
        state, write = self.state, self.write
        others = ", ".join(f"seat {p} is {a.name}" for p, a in self.agents.items())
        write(f"{self.game.name}, {'a match' if self.match else 'one deal'}: you are seat "
              f"{self.human}; {others}")
        deal = state.observation(self.human).get("deal_number")
        write(f"=== deal {deal if deal is not None else 1} ===")
        move = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == self.human:
                action = self.ask()
                if action is None:
                    return None
            else:
                action = choose(self.agents[seat], state, seed=move_seed(self.seed, move),
                                ws=self.ws)
            text = state.action_to_string(action)
            before = state.clone()
            state.apply_action(action)
            move += 1
            obs = state.observation(self.human)
            finished = None
            new_deal = obs.get("deal_number")
            if new_deal != deal and not state.is_terminal():
                finished = _finished_deal(self.game, before, action)
            if seat != self.human:
                seen = finished.observation(self.human) if finished is not None else obs
                text = self.mask(text, _cards_in(seen, self.cards))
            write(f"{self.view.who(seat, agent=self.agents.get(seat))}: {text}")
            if new_deal != deal and not state.is_terminal():
                self.announce_deal_end(deal, finished, obs)
                deal = new_deal
                write(f"=== deal {deal} ===")
        self.announce_end()
        return state.returns()

    def ask(self) -> int | None:
        """Show the person's screen and read his move: an action id, or None to stop."""
        state, write = self.state, self.write
        legal = state.legal_actions()
        strings = [state.action_to_string(a) for a in legal]
        for line in self.view.render(state.observation(self.human)):
            write(line)
        self.list_moves(strings)
        prompt = f"your move (1-{len(legal)}, a move as shown, help, quit): "
        while True:
            try:
                raw = self.read(prompt)
            except (EOFError, KeyboardInterrupt):
                write("end of input: game abandoned")
                return None
            text = " ".join(str(raw).split())
            if text in strings:
                return legal[strings.index(text)]
            if _NUMBER.fullmatch(text) and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            folded = [i for i, s in enumerate(strings) if s.casefold() == text.casefold()]
            if len(folded) == 1:
                return legal[folded[0]]
            if text.casefold() in HELP_WORDS:
                self.list_moves(strings)
                write("type the number of a move, or the move as shown; quit to stop")
                continue
            if text.casefold() in QUIT_WORDS:
                write("quit: game abandoned")
                return None
            write(f"not a legal move: {str(raw).strip()!r}; type a number 1-{len(legal)}, "
                  "a move as shown, help or quit")

    def list_moves(self, strings: list[str]) -> None:
        self.write("legal moves:")
        width = len(str(len(strings)))
        for i, s in enumerate(strings, 1):
            self.write(f"  {i:>{width}}. {s}")

    def mask(self, text: str, visible: set[str]) -> str:
        """``text`` with every card the person cannot see replaced by ``??``."""
        return _TOKEN.sub(lambda m: HIDDEN if m.group(0) in self.cards
                          and m.group(0) not in visible else m.group(0), text)

    # --- announcements -----------------------------------------------------------------------

    def announce_deal_end(self, deal, finished, obs: dict) -> None:
        """Two lines at the end of a match's deal: its points, then the match score."""
        if finished is not None:
            self.write(f"deal {deal} over {self.view.order_of(finished.score_breakdown())}: "
                       + self.view.breakdown(finished.score_breakdown(), skip=MATCH_SCORE_KEYS))
        else:
            self.write(f"deal {deal} over")
        if obs.get("scores") is not None:
            self.write("match score: " + self.view.fmt(obs["scores"], "scores"))

    def announce_end(self) -> None:
        state, view = self.state, self.view
        self.write(f"=== {'match' if self.match else 'deal'} over ===")
        bd = state.score_breakdown()
        self.write(f"score breakdown {view.order_of(bd)}: " + view.breakdown(bd))
        self.write("result: " + ", ".join(f"{view.who(p)} {r:+g}"
                                          for p, r in enumerate(state.returns())))


def _finished_deal(game, before, action):
    """The deal that ``action`` ended in a match, as a terminal one-deal state (the match has
    already dealt the next one, so its score breakdown is no longer in the live state); None
    when the game's position dict has no ``mode`` or the replay fails."""
    try:
        position = before.to_dict()
        if position.get("mode") != "match":
            return None
        position["mode"] = "deal"
        state = game.from_dict(position)
        state.apply_action(action)
        return state if state.is_terminal() else None
    except (CardsimError, KeyError, TypeError):
        return None


def _cards_in(value: Any, cards: frozenset) -> set[str]:
    """Every card name anywhere in a JSON-like value (strings, keys, nested lists/dicts)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in cards:
                found.add(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return found


class _View:
    """Text of observations and score breakdowns for the person at seat ``human``."""

    def __init__(self, n: int, human: int) -> None:
        self.n, self.human = n, human
        self.sides = n

    # --- names -------------------------------------------------------------------------------

    def who(self, index: int, count: int | None = None, agent: Agent | None = None) -> str:
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

    def breakdown(self, bd: dict, skip: set = frozenset()) -> str:
        """A score breakdown on one line: per-seat numbers as ``a/b``."""
        parts = []
        for k, v in bd.items():
            if k in skip:
                continue
            if isinstance(v, list) and v and all(x is None or isinstance(x, (int, float))
                                                 and not isinstance(x, bool) for x in v):
                text = "/".join("-" if x is None else f"{x:g}" for x in v)
            else:
                text = self.fmt(v, k)
            parts.append(f"{k.replace('_', ' ')} {text}")
        return ", ".join(parts)

    # --- the screen --------------------------------------------------------------------------

    def render(self, obs: dict) -> list[str]:
        """The person's screen: every key of his observation, known keys first."""
        scores = obs.get("scores")
        self.sides = len(scores) if isinstance(scores, list) and scores else self.n
        turn = obs.get("to_move")
        head = [f"your turn (seat {self.human})" if turn in (None, self.human)
                else f"{self.who(turn)} to move"]
        if obs.get("deal_number") is not None:
            head.append(f"deal {obs['deal_number']}")
        if obs.get("phase") is not None:
            head.append(f"phase {obs['phase']}")
        lines = ["--- " + ", ".join(head) + " ---"]
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
