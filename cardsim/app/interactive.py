"""A person plays a deal or a match against agents at the terminal.

:func:`play_interactive` runs the game loop: the agents' seats are played by
:func:`cardsim.solvers.agents.choose`, the person's seat by lines read from ``read`` (``input`` by
default). The person's screen is built from ``state.observation(human_seat)`` only, so it
shows exactly what that seat may see; the agents' moves are announced as they happen, with any
card the person cannot see (e.g. a card thrown face down in Bura) written ``??``.

Everything here is generic: the screen is a rendering of the observation dict
(:mod:`cardsim.records.render`, which a review's report shares) in the words of the game's
``screen`` module (its lines, what each move did, the final score and the card notation), so a
new game with an observation dict works unchanged, and better with a ``screen`` module. Every
line fits 80 columns, and the hand, the table or trick and the score stay in the last 24 rows
at the prompt. Without a seed, each game is a fresh random deal; its seed is shown.

A person types the move as listed (``7co>3co+4cu``, ``lead As+Ks``, ``claim``; case and extra
spaces do not matter; ``kd`` for ``play Kd`` when no other move ends so), or its number in the
list, ``help`` (or ``?``) for the notation and the list again, or ``quit`` (``q``) to stop; end
of input stops too. Stopping returns ``None``.

Besides, each on request: the game's record written to a file when the game ends, is
quit or its input ends (``record``: :mod:`cardsim.records.record`; a stopped game's record has the
moves so far and no result); ``hint`` at the prompt (``hint=True``): the analysis of the
position from the person's view, every move's expected return with its interval, best
first; a tutor (``tutor``): before the person's move is played, its loss against the best
move is valued as a review values a decision, and a loss that reaches the threshold with an
interval above 0 asks for confirmation; at the end, the review offered (``interactive``). The
hint and the tutor value a decision exactly as ``cardsim review``'s defaults do (the same
evaluator, worlds and seed: :mod:`cardsim.solvers.review`), so their numbers are the review's.
"""
from __future__ import annotations

import math
import re
import secrets
import shlex
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from cardsim.compiled.rng import child_seed as move_seed  # the agent's seed at a move (0-based)
from cardsim.errors import AgentError, CardsimError
from cardsim.records.record import PERSON
from cardsim.records.render import MATCH_SCORE_KEYS, View, game_screen, move_list, wrap
from cardsim.solvers.agents import Agent, choose, parse_agent, workspace

HELP_WORDS = ("?", "help", "h")
QUIT_WORDS = ("quit", "q", "exit")
HINT_WORDS = ("hint",)
YES_WORDS = ("y", "yes")
HIDDEN = "??"

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_NUMBER = re.compile(r"[0-9]+")


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


def play_interactive(game, opponents: Sequence[str] | str, human_seat: int = 0,
                     seed: int | None = None,
                     match: bool = False, read: Callable[[str], str] = input,
                     write: Callable[[str], Any] = print,
                     equity=None, record=None, hint: bool = False, tutor=None,
                     interactive: bool = False) -> list[float] | None:
    """Play one deal (or a match, ``match=True``) of ``game`` from ``seed``: the person at
    ``human_seat`` against ``opponents`` (agent spec strings, one per other seat in seat order,
    or one for all); without ``seed``, a fresh random one (:func:`fresh_seed`), shown to the
    person and kept in the record. Returns ``state.returns()``, or ``None`` when the person
    quits or the input ends. ``equity``: the match-equity table of opponents with ``value=match``
    (:func:`cardsim.solvers.agents.workspace`).

    ``record``: a file the game's record is written to when it ends, is quit or its input
    ends (seats ``"person"`` and the agents' specs). ``hint``: the person may type ``hint``.
    ``tutor``: warn before a move that loses this much or more against the best (in the
    game's return units; ``True``: the review's mistake threshold) and ask to confirm it.
    ``interactive``: the person answers at a terminal: at the end, offer the review and ask
    whether to run it now (module docstring)."""
    n = game.num_players
    if isinstance(human_seat, bool) or not isinstance(human_seat, (int, np.integer)) \
            or not 0 <= human_seat < n:
        raise CardsimError(f"human_seat={human_seat!r}: expected a seat from 0 to {n - 1}")
    agents = resolve_opponents(n, int(human_seat), opponents, game)
    endless = game.definition.endless_match(game.rules) if match else None
    if endless:
        raise CardsimError(f"{game.name} --match: {endless} (--option max_deals=N)")
    if record is not None:
        check_record_path(record)
    seed = fresh_seed() if seed is None else seed
    return _Session(game, agents, int(human_seat), seed, match, read, write, equity,
                    record=record, hint=hint, tutor=tutor_threshold(game, tutor),
                    interactive=interactive).run()


def fresh_seed() -> int:
    """A new random deal's seed (from the operating system's randomness), short enough to
    type again after ``--seed``."""
    return secrets.randbelow(1_000_000_000)


def check_record_path(path) -> None:
    """Refuse at once, in one line, a record file that could not be written at the end: an
    empty name, a folder, or a file in a folder that does not exist."""
    text = str(path)
    target = Path(text)
    if not text:
        raise CardsimError("--record: expected a file name, got an empty one")
    if target.is_dir():
        raise CardsimError(f"--record {text}: is a folder, not a file")
    if not target.parent.is_dir():
        raise CardsimError(f"--record {text}: the folder {str(target.parent)!r} does not exist")


def tutor_threshold(game, tutor) -> float | None:
    """The tutor's threshold: None (no tutor), the review's mistake threshold for ``True``, or
    a positive number (in the game's return units); :class:`CardsimError` otherwise."""
    from cardsim.solvers.review import default_thresholds
    if tutor is None or tutor is False:
        return None
    if tutor is True:
        return float(default_thresholds(game)[1])
    value = math.nan
    if isinstance(tutor, (int, float, np.integer, np.floating)) or isinstance(tutor, str):
        try:
            value = float(tutor)
        except ValueError:
            pass
    if not (math.isfinite(value) and value > 0):
        raise CardsimError(f"--tutor {tutor!r}: expected a positive number, the loss (in "
                           f"{game.definition.return_unit}) that asks before a move is played")
    return value


class _Session:
    """One game between the person and the agents (the loop of :func:`play_interactive`)."""

    def __init__(self, game, agents: dict[int, Agent], human: int, seed: int, match: bool,
                 read: Callable[[str], str], write: Callable[[str], Any], equity=None, *,
                 record=None, hint: bool = False, tutor: float | None = None,
                 interactive: bool = False) -> None:
        self.game, self.agents, self.human, self.seed = game, agents, human, seed
        self.match, self.read, self.write = match, read, write
        self.n = game.num_players
        self.state = game.new_match(seed=seed) if match else game.new_deal(seed=seed)
        self.ws = workspace(game.spec, list(agents.values()), equity)
        self.cards = frozenset(game.definition.deck.cards)
        self.view = View(self.n, human)
        self.words = game_screen(game)      # the game's screen in words, or None
        self.record_path = None if record is None else Path(record)
        self.hint, self.tutor, self.interactive = bool(hint), tutor, bool(interactive)
        self.move = 0                   # moves played so far, every seat's
        self.values: dict[int, Any] = {}    # move -> its decision's ActionValues

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> list[float] | None:
        try:
            result = self.play()
        except BaseException:
            try:                          # the moves so far, whatever stopped the game
                self.save()
            except CardsimError:
                pass
            raise
        self.save()
        self.offer_review(finished=result is not None)
        return result

    def play(self) -> list[float] | None:
        state, write = self.state, self.write
        others = ", ".join(f"seat {p} is {a.name}" for p, a in self.agents.items())
        self.say(f"{self.game.name}, {'a match' if self.match else 'one deal'}: you are seat "
                 f"{self.human}; {others}")
        write(f"deal seed {self.seed}: replay with --seed {self.seed}")
        deal = state.observation(self.human).get("deal_number")
        write(f"=== deal {deal if deal is not None else 1} ===")
        while not state.is_terminal():
            seat = state.current_player()
            if seat == self.human:
                action = self.ask()
                if action is None:
                    return None
            else:
                action = choose(self.agents[seat], state, seed=move_seed(self.seed, self.move),
                                ws=self.ws)
            text = state.action_to_string(action)
            before = state.clone()
            seen_before = state.observation(self.human)
            state.apply_action(action)
            self.move += 1
            obs = state.observation(self.human)
            finished = None
            new_deal = obs.get("deal_number")
            if new_deal != deal and not state.is_terminal():
                finished = _finished_deal(self.game, before, action)
            seen = finished.observation(self.human) if finished is not None else obs
            if seat != self.human:
                text = self.mask(text, _cards_in(seen, self.cards))
            self.announce_move(seat, text, seen_before, seen)
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
        self.show_screen(strings)
        prompt = (f"your move (1-{len(legal)}, a move as shown, {'hint, ' if self.hint else ''}"
                  "help, quit): ")
        while True:
            try:
                raw = self.read(prompt)
            except EOFError:
                write("end of input: game abandoned")
                return None
            text = " ".join(str(raw).split())
            chosen = None
            if text in strings:
                chosen = legal[strings.index(text)]
            elif _NUMBER.fullmatch(text) and 1 <= int(text) <= len(legal):
                chosen = legal[int(text) - 1]
            else:
                chosen = _typed(text, strings, legal)
            if chosen is not None:
                verdict = self.check(chosen)
                if verdict is None:
                    return None
                if verdict:
                    return chosen
                continue
            if text.casefold() in HELP_WORDS:
                self.show_help(strings)
                continue
            if self.hint and text.casefold() in HINT_WORDS:
                self.show_hint(strings)
                continue
            if text.casefold() in QUIT_WORDS:
                write("quit: game abandoned")
                return None
            write(f"not a legal move: {str(raw).strip()!r}; type a number 1-{len(legal)}, "
                  "a move as shown, help or quit")

    # --- hint, tutor, record and review --------------------------------------------------------

    def config(self):
        """The analysis of the current decision as the review's defaults value it: the same
        evaluator, worlds and seed (:mod:`cardsim.solvers.review`), from the person's view."""
        from cardsim.solvers.analyze import AnalysisConfig
        from cardsim.solvers.review import ReviewConfig, decision_seed
        defaults = ReviewConfig()
        return AnalysisConfig(player=self.human, agent=defaults.agent, worlds=defaults.worlds,
                              seed=decision_seed(defaults.seed, self.move))

    def action_values(self):
        """Every legal action of the current decision valued in the same worlds (kept for the
        decision: a move asked again is not valued again)."""
        from cardsim.solvers.analyze import evaluate_actions
        from cardsim.solvers.review import deal_alone
        if self.move not in self.values:
            self.values = {self.move: evaluate_actions(deal_alone(self.state), self.config())}
        return self.values[self.move]

    def show_hint(self, strings: list[str]) -> None:
        """The analysis of the position from the person's view, best first, each move with its
        number in the list."""
        from cardsim.solvers.analyze import analyze
        from cardsim.solvers.review import deal_alone
        config = self.config()
        table = analyze(deal_alone(self.state), config)
        what = (f"expected return ({self.game.definition.return_unit}"
                + (" of this deal" if self.match else "") + ")")
        self.write(f"hint: {what} of each move with its 95% interval, "
                   f"{config.worlds} worlds sampled from your view, played out by "
                   f"{config.agent}; best first:")
        width = len(str(len(strings)))
        name = max(len(s) for s in strings)
        for row in table.itertuples(index=False):
            number = strings.index(row.action) + 1
            self.write(f"  {number:>{width}}. {row.action:<{name}}  {row.mean_return:+.2f} "
                       f"[{row.return_low:+.2f}, {row.return_high:+.2f}]")

    def check(self, action: int) -> bool | None:
        """The tutor's word on the person's move: True to play it, False to ask for another,
        None when the input ends. Without a tutor, or with one legal move, True."""
        if self.tutor is None or len(self.state.legal_actions()) < 2:
            return True
        from cardsim.solvers.review import move_loss
        values = self.action_values()
        best, _, loss, low, high = move_loss(values, action)
        if not (loss >= self.tutor and low > 0):
            return True
        self.say(f"this move loses about {loss:.2f} {self.game.definition.return_unit} "
                 f"against {self.state.action_to_string(int(values.legal[best]))} (95% "
                 f"interval {low:.2f} to {high:.2f})")
        try:
            answer = self.read("play it anyway? [y/N] ")
        except EOFError:
            self.write("end of input: game abandoned")
            return None
        return str(answer).strip().casefold() in YES_WORDS

    def seats(self) -> list[str]:
        """Who played each seat, for the record."""
        return [PERSON if p == self.human else self.agents[p].name for p in range(self.n)]

    def save(self) -> None:
        """Write the game's record (the moves so far) to the record file, if any."""
        if self.record_path is None:
            return
        record = self.state.record(self.seats())
        try:
            record.write(self.record_path)
        except OSError as e:
            raise CardsimError(f"--record {self.record_path}: cannot write the record "
                               f"({e.strerror or e.__class__.__name__})") from None
        self.write(f"record written to {self.record_path}"
                   + ("" if record.result is not None else " (the moves so far, no result)"))

    def offer_review(self, finished: bool) -> None:
        """After the game: how to review its record; at the end of a finished game at a
        terminal, the review now if the person wants it."""
        if self.record_path is not None:
            self.write(f"review it: cardsim review {shlex.quote(str(self.record_path))} "
                       f"--player {self.human}")
        elif finished and self.interactive:
            self.write("to review it later, play with --record FILE")
        if not (finished and self.interactive):
            return
        try:
            answer = self.read("review it now? [y/N] ")
        except EOFError:
            return
        if str(answer).strip().casefold() not in YES_WORDS:
            return
        from cardsim.solvers.review import ReviewConfig, review, text
        self.write("reviewing your moves...")
        rv = review(self.state.record(self.seats()), ReviewConfig(players=(self.human,)))
        for line in text(rv):
            self.write(line)

    def list_moves(self, strings: list[str]) -> None:
        """The legal moves, numbered, in as many columns as fit the screen."""
        self.write("legal moves:")
        for line in move_list(strings):
            self.write(line)

    def show_screen(self, strings: list[str]) -> None:
        """The person's screen (:meth:`View.screen`) and the legal moves."""
        for line in self.view.screen(self.state.observation(self.human), self.words):
            self.write(line)
        self.list_moves(strings)

    def show_help(self, strings: list[str]) -> None:
        """The game's card notation and move syntax, what may be typed, then the screen again
        with the legal moves (so that the hand stays in view at the prompt)."""
        if self.words is not None:
            for line in self.words.NOTATION.splitlines():
                self.say(line)
        self.say("type the number of a move, or the move as shown (case and spaces do not "
                 "matter)" + ("; hint to see each move valued" if self.hint else "")
                 + "; help or ? for this; quit to stop")
        self.show_screen(strings)

    def say(self, text: str) -> None:
        """``text`` written in lines that fit the screen."""
        for line in wrap(text):
            self.write(line)

    def mask(self, text: str, visible: set[str]) -> str:
        """``text`` with every card the person cannot see replaced by ``??``."""
        return _TOKEN.sub(lambda m: HIDDEN if m.group(0) in self.cards
                          and m.group(0) not in visible else m.group(0), text)

    # --- announcements -----------------------------------------------------------------------

    def announce_move(self, seat: int, text: str, before: dict, after: dict) -> None:
        """A move as played (``seat 1 (random): 7co>3co+4cu``), then what it did in words (the
        game's ``events``: cards taken, a scopa, a trick won, a claim...), both seen by the
        person: ``before`` and ``after`` are his observations around the move."""
        line = f"{self.view.who(seat, agent=self.agents.get(seat))}: {text}"
        if self.words is not None:
            words = self.words.events(before, after, seat, text, self.view)
            if words:
                line += " — " + "; ".join(words)
        self.say(line)

    def points(self, bd: dict, skip=frozenset()) -> str:
        """A score breakdown in words: the game's ``BREAKDOWN`` keys, per seat or side."""
        labels = None if self.words is None else self.words.BREAKDOWN
        return f"{self.view.order_of(bd)}: {self.view.breakdown(bd, skip, labels)}"

    def announce_deal_end(self, deal, finished, obs: dict) -> None:
        """At the end of a match's deal: its points, then the match score."""
        if finished is not None:
            bd = finished.score_breakdown()
            score = "" if self.words is None else \
                f", {self.words.final(finished.observation(self.human), bd, self.view)};"
            self.say(f"deal {deal} over{score} points {self.points(bd, MATCH_SCORE_KEYS)}")
        else:
            self.write(f"deal {deal} over")
        if obs.get("scores") is not None:
            self.say("match score: " + self.view.fmt(obs["scores"], "scores"))

    def announce_end(self) -> None:
        """The end: the score breakdown, then who won and the final score in words."""
        state, view = self.state, self.view
        what = "match" if self.match else "deal"
        self.write(f"=== {what} over ===")
        bd = state.score_breakdown()
        self.say("score breakdown " + self.points(bd))
        obs = state.observation(self.human)
        score = "" if self.words is None else " " + self.words.final(obs, bd, view)
        self.say(verdict(view, state.returns(), what, score))


def verdict(view: View, returns: list[float], what: str, score: str) -> str:
    """Who won ``what`` (the deal or the match) and its ``score``, from the person's side:
    ``You win the match 11–7.``, ``You lose the deal 3–5.``, ``The deal is drawn 4–4.``"""
    best = max(returns)
    if min(returns) == best:
        return f"The {what} is drawn{score}."
    winners = [p for p, r in enumerate(returns) if r == best]
    if view.human in winners:
        partners = [p for p in winners if p != view.human]
        who = "You" if not partners else f"You and {', '.join(view.who(p) for p in partners)}"
        return f"{who} win the {what}{score}."
    if view.n == 2:
        return f"You lose the {what}{score}."
    names = ", ".join(view.who(p) for p in winners)
    return f"You lose the {what}{score}: {names} {'wins' if len(winners) == 1 else 'win'}."


def _typed(text: str, strings: list[str], legal: list[int]) -> int | None:
    """The legal move ``text`` names in any case, or without its verb when that is unique
    (``kd`` for ``play Kd``); None otherwise."""
    for name in (lambda s: s, lambda s: s.partition(" ")[2] or s):
        found = [i for i, s in enumerate(strings) if name(s).casefold() == text.casefold()]
        if len(found) == 1:
            return legal[found[0]]
    return None


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
