"""A person at the terminal against agents (cardsim/app/interactive.py).

``play_interactive`` is driven by a scripted ``read`` and a ``write`` that collects lines. The
game is wrapped in a spy that keeps the live state, so at every question the tests can look at
the truth: the position must not change on bad input, and nothing written to the person during
the current deal may name a card hidden from him (another seat's hand, the stock, a face-down
throw), unless it is public (Bura's turned trump card, cards revealed at a refused Stop).
"""
from __future__ import annotations

import re

import pytest

import cardsim
from cardsim.app.interactive import move_seed, play_interactive, resolve_opponents
from cardsim.errors import AgentError, CardsimError
from cardsim.records.render import render_observation
from cardsim.solvers.agents import choose, workspace

TOKEN = re.compile(r"[A-Za-z0-9]+")
MOVE_LINE = re.compile(r"^(you|seat (\d+) \([^)]*\)): (.+?)(?: — .*)?$")
"""A move line: who, the move as played, then (after `` — ``) what it did in words."""


class Spy:
    """A game that remembers the state it dealt (the live state of the session)."""

    def __init__(self, game):
        self._game = game
        self.state = None

    def __getattr__(self, name):
        return getattr(self._game, name)

    def new_deal(self, seed):
        self.state = self._game.new_deal(seed=seed)
        return self.state

    def new_match(self, seed):
        self.state = self._game.new_match(seed=seed)
        return self.state


class Console:
    """Scripted ``read`` and collecting ``write``. ``answers`` are strings, callables
    ``(state) -> str``, or ``EOFError``; when they run out, ``default`` is answered (or
    EOFError raised when it is None). Every question records the position and the output so
    far and checks that no hidden card was shown in the current deal."""

    def __init__(self, spy, answers=(), default="1", human=0, check_hidden=True):
        self.spy, self.answers, self.default = spy, list(answers), default
        self.human, self.check_hidden = human, check_hidden
        self.lines: list[str] = []
        self.asked: list[dict] = []     # {"position", "line", "prompt", "answer"}
        self.prompts: list[str] = []    # every question, answered or not

    def write(self, line):
        assert isinstance(line, str) and "\n" not in line
        self.lines.append(line)

    def read(self, prompt):
        state = self.spy.state
        self.prompts.append(prompt)
        assert state.current_player() == self.human and not state.is_terminal()
        if self.check_hidden:
            assert_nothing_hidden_shown(state, self.human, self.deal_text())
        answer = self.answers.pop(0) if self.answers else self.default
        if answer is None or answer is EOFError:
            raise EOFError
        if callable(answer):
            answer = answer(state)
        self.asked.append({"position": state.to_dict(), "line": len(self.lines),
                           "prompt": prompt, "answer": answer})
        return answer

    def deal_text(self) -> str:
        """Everything written since the current deal's header."""
        start = max((i for i, l in enumerate(self.lines) if l.startswith("=== deal ")),
                    default=0)
        return "\n".join(self.lines[start:])

    def moves(self):
        """(seat or None for the person, text) of every move line."""
        out = []
        for line in self.lines:
            m = MOVE_LINE.match(line)
            if m:
                out.append((None if m.group(1) == "you" else int(m.group(2)), m.group(3)))
        return out


def unwrapped(lines: list[str]) -> list[str]:
    """The lines as written before wrapping to the screen's width (a wrapped line goes on in
    lines indented by four spaces)."""
    out: list[str] = []
    for line in lines:
        if line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def hidden_cards(position: dict, human: int) -> set[str]:
    """Cards the person must not see: other hands, the stock, others' face-down throws, less
    the public ones (the turned trump card, revealed cards)."""
    hidden = set(position["stock"])
    for p, hand in enumerate(position["hands"]):
        if p != human:
            hidden |= set(hand)
    for p, thrown in enumerate(position.get("thrown_down", [])):
        if p != human:
            hidden |= set(thrown)
    public = {position.get("trump_card")}
    public |= {c for cards in position.get("revealed", []) for c in cards}
    return hidden - public


def assert_nothing_hidden_shown(state, human, text):
    cards = set(state.game.definition.deck.cards)
    shown = {t for t in TOKEN.findall(text) if t in cards}
    leaked = shown & hidden_cards(state.to_dict(), human)
    assert not leaked, f"hidden cards shown to seat {human}: {sorted(leaked)}\n{text}"


def play(name, opponents, answers=(), default="1", human=0, seed=0, match=False,
         check_hidden=True, **options):
    spy = Spy(cardsim.load_game(name, **options))
    console = Console(spy, answers, default, human, check_hidden)
    result = play_interactive(spy, opponents, human_seat=human, seed=seed, match=match,
                              read=console.read, write=console.write)
    return result, spy, console


def replay(game, opponents, human, seed, match, human_moves):
    """The same game played again outside the session: agents from the per-move seeds, the
    person's moves from their text in the output."""
    agents = resolve_opponents(game.num_players, human, opponents)
    ws = workspace(game.spec, list(agents.values()))
    state = game.new_match(seed=seed) if match else game.new_deal(seed=seed)
    moves, texts, move = iter(human_moves), [], 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == human:
            text = next(moves)
            action = next(a for a in legal if state.action_to_string(a) == text)
        else:
            action = choose(agents[seat], state, seed=move_seed(seed, move), ws=ws)
        texts.append((None if seat == human else seat, state.action_to_string(action)))
        state.apply_action(action)
        move += 1
    assert next(moves, None) is None
    return state, texts


def same_move(shown: str, true: str) -> bool:
    """The written move equals the true one, ``??`` standing for a hidden card."""
    a, b = TOKEN.findall(shown.replace("??", "QQHIDDEN")), TOKEN.findall(true)
    return len(a) == len(b) and all(x == "QQHIDDEN" or x == y for x, y in zip(a, b))


def check_replay(result, spy, console, opponents, human, seed, match):
    moves = console.moves()
    state, texts = replay(spy._game, opponents, human, seed, match,
                          [t for s, t in moves if s is None])
    assert result == state.returns() == spy.state.returns()
    assert state.to_dict() == spy.state.to_dict()
    assert len(moves) == len(texts)
    for (seat, shown), (true_seat, true) in zip(moves, texts):
        assert seat == true_seat and same_move(shown, true), (shown, true)
    return state


# --- whole games --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options, opponents, human, seed", [
    ("scopa", {}, ["heuristic"], 0, 1),
    ("scopa", {}, ["random"], 1, 2),
    ("scopa", {"num_players": 4}, ["random", "heuristic", "random"], 2, 3),
    ("bura", {}, ["heuristic"], 0, 4),
    ("bura", {}, ["random"], 1, 5),
    ("bura", {"num_players": 3}, ["random", "heuristic"], 1, 6),
    ("bura", {"num_players": 3}, "heuristic", 2, 7),
])
def test_full_deal_returns_and_replays(name, options, opponents, human, seed):
    result, spy, console = play(name, opponents, human=human, seed=seed, **options)
    assert spy.state.is_terminal()
    check_replay(result, spy, console, opponents, human, seed, match=False)
    assert console.asked, "the person was never asked"
    assert re.match(r"You( and seat \d)? (win|lose) the deal|The deal is drawn",
                    unwrapped(console.lines)[-1]), console.lines[-1]
    assert "=== deal over ===" in console.lines
    assert any(line.startswith("score breakdown ") for line in console.lines)


@pytest.mark.parametrize("seed", [0, 1])
def test_scopa_match_announces_every_deal(seed):
    result, spy, console = play("scopa", ["random"], seed=seed, match=True, target_score=11)
    state = check_replay(result, spy, console, ["random"], 0, seed, match=True)
    last_deal = state.observation(0)["deal_number"]
    assert last_deal > 1
    lines = unwrapped(console.lines)
    over = [i for i, l in enumerate(lines) if re.match(r"deal \d+ over, ", l)]
    assert [int(lines[i].split()[1].rstrip(",")) for i in over] == list(range(1, last_deal))
    for i in over:
        assert "total " in lines[i]
        assert lines[i + 1].startswith("match score: ")
        assert lines[i + 2] == f"=== deal {int(lines[i].split()[1].rstrip(',')) + 1} ==="
    # the deal's real points (not the next deal's empty piles): the totals add up to the
    # match score announced after it, and the deal's score in words is its total
    totals = [0, 0]
    for i in over:
        total = re.search(r"\btotal (\d+)/(\d+)", lines[i])
        assert f"over, {total.group(1)}–{total.group(2)}; points " in lines[i]
        totals = [t + int(x) for t, x in zip(totals, total.groups())]
        assert lines[i + 1] == f"match score: you {totals[0]}, seat 1 {totals[1]}"
    assert "=== match over ===" in lines
    final = state.observation(0)["scores"]
    verb = "win" if final[0] > final[1] else "lose"
    assert lines[-1] == f"You {verb} the match {final[0]}–{final[1]}."


def test_bura_match_announces_deal_results():
    result, spy, console = play("bura", ["random"], seed=3, match=True,
                                match_format="wins_to_n")
    check_replay(result, spy, console, ["random"], 0, 3, match=True)
    over = [l for l in unwrapped(console.lines) if re.match(r"deal \d+ over, ", l)]
    assert over and all(" in card points, by " in l for l in over)


def test_ismcts_opponent():
    spec = "ismcts:iterations=50"
    result, spy, console = play("bura", [spec], seed=8)
    check_replay(result, spy, console, [spec], 0, 8, match=False)
    result, spy, console = play("scopa", spec, human=1, seed=9)
    check_replay(result, spy, console, [spec], 1, 9, match=False)


# --- input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["scopa", "bura"])
def test_bad_input_one_line_and_asks_again(name):
    bad = ["xyz", "0", "999", "", "   ", "1.5", "-1", "7co>", "lead", "quitt", "¹"]
    # (the person's own typing is echoed in the message: no hidden-card check here)
    result, spy, console = play(name, ["random"], answers=bad + ["help", "?", "1"],
                                default="1", seed=11, check_hidden=False)
    assert result == spy.state.returns()
    asked = console.asked[:len(bad) + 3]
    first = asked[0]
    n_legal = int(re.search(r"1-(\d+)", first["prompt"]).group(1))
    for q, nxt in zip(asked, asked[1:]):
        assert nxt["position"] == first["position"], "the position changed on bad input"
        assert nxt["prompt"] == first["prompt"]
        written = console.lines[q["line"]:nxt["line"]]
        if q["answer"] in ("help", "?"):
            # the legal moves, the game's notation, then what may be typed
            legal = [spy.state.action_to_string(a) for a in spy.state.legal_actions()]
            head = written.index("legal moves:")
            listed = re.split(r"\s{2,}|\d+\. ", " ".join(written[head + 1:]))
            assert written[0].startswith("Cards: rank then suit.") and all(m in listed
                                                                           for m in legal)
            assert any(line.startswith("type the number of a move") for line in written)
            assert any(line.startswith("your hand: ") for line in written[:head])
        else:
            assert written == [f"not a legal move: {q['answer'].strip()!r}; type a number "
                               f"1-{n_legal}, a move as shown, help or quit"]
    assert not any("Traceback" in l for l in console.lines)


@pytest.mark.parametrize("name, match, options", [
    ("scopa", False, {}), ("bura", True, {"match_format": "wins_to_n"})])
def test_string_and_number_forms(name, match, options):
    expected = []

    def by_string(state):            # the last legal move, typed as shown
        text = state.action_to_string(state.legal_actions()[-1])
        expected.append(text)
        return text

    def by_number(state):            # the second legal move (or the only one), by number
        legal = state.legal_actions()
        k = min(2, len(legal))
        expected.append(state.action_to_string(legal[k - 1]))
        return f" {k} "

    def by_other_case(state):        # case and spacing do not matter
        text = state.action_to_string(state.legal_actions()[0])
        expected.append(text)
        return "  " + text.swapcase().replace(" ", "   ") + " "

    answers = [by_string, by_number, by_other_case] * 3
    result, spy, console = play(name, ["heuristic"], answers=answers, seed=12, match=match,
                                **options)
    mine = [t for s, t in console.moves() if s is None]
    assert mine[:len(expected)] == expected and len(expected) == 9
    check_replay(result, spy, console, ["heuristic"], 0, 12, match=match)


@pytest.mark.parametrize("word", ["quit", "q", "QUIT", " q "])
def test_quit_returns_none(word):
    result, spy, console = play("scopa", ["random"], answers=["1", "1", word], seed=13)
    assert result is None
    assert not spy.state.is_terminal()
    assert console.lines[-1] == "quit: game abandoned"
    assert len([1 for s, _ in console.moves() if s is None]) == 2


@pytest.mark.parametrize("answers", [[], ["1", EOFError], ["xyz", EOFError]])
def test_end_of_input_returns_none(answers):
    result, spy, console = play("bura", ["random"], answers=answers, default=None, seed=15)
    assert result is None and len(console.prompts) == max(len(answers), 1)
    assert console.lines[-1] == "end of input: game abandoned"


# --- what the person sees -------------------------------------------------------------------

@pytest.mark.parametrize("name, options, human, seed", [
    ("scopa", {}, 0, 20), ("scopa", {"num_players": 4}, 1, 21),
    ("bura", {}, 0, 22), ("bura", {}, 1, 23), ("bura", {"num_players": 3}, 2, 24),
    ("bura", {"num_players": 4}, 3, 25),
    ("bura", {"facedown_discards": "choice", "molodka_stop": True}, 0, 26),
])
def test_screen_never_shows_hidden_cards(name, options, human, seed):
    # Console.read checks every question; a match covers several deals
    for s in range(seed, seed + 3):
        result, spy, console = play(name, "random", human=human, seed=s, **options)
        assert result == spy.state.returns() and console.asked
    result, spy, console = play(name, "random", human=human, seed=seed, match=True,
                                **({"target_score": 11} if name == "scopa"
                                   else {"match_format": "wins_to_n"}), **options)
    assert result == spy.state.returns()


def test_bura_face_down_throws_are_masked():
    shown = []
    for seed in range(30, 36):
        result, spy, console = play("bura", "random", seed=seed)
        shown += [t for s, t in console.moves() if s is not None]
    masked = [t for t in shown if "??" in t]
    assert masked, "no face-down throw by an agent in these deals"
    assert all(t.startswith("throw_down ") for t in masked)


def test_screen_shows_the_observation():
    result, spy, console = play("bura", "random", seed=40)
    screen = console.lines[:console.asked[0]["line"]]
    text = "\n".join(screen)
    for label in ("trump: ", "your hand: ", "stock ", "legal moves:",
                  "score: card points taken: you 0, seat 1 0"):
        assert label in text
    assert re.search(r"^--- your turn \(seat 0\), deal 1, phase \w+ ---$", text, re.M)
    result, spy, console = play("scopa", "random", human=1, seed=41)
    text = "\n".join(console.lines[:console.asked[0]["line"]])
    for label in ("table: ", "your hand: ", "stock ", "taken: ", "scopas ", "  1. "):
        assert label in text


def test_unknown_observation_keys_are_printed():
    obs = {"player": 0, "hand": ["7co"], "to_move": 0, "table": [], "fancy_counter": [3, 4],
           "weather": "rainy", "nested": {"a_b": 1, "seat": 1}, "nothing": None}
    lines = render_observation(obs, human_seat=0, n_players=2)
    assert "your hand: 7co" in lines and "table: (empty)" in lines
    assert "fancy counter: you 3, seat 1 4" in lines
    assert "weather: rainy" in lines
    assert "nested: a b 1, seat seat 1" in lines
    assert not any("nothing" in l for l in lines)


# --- opponents ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options, opponents", [
    ("scopa", {}, ["random", "random"]),
    ("scopa", {}, []),
    ("bura", {"num_players": 3}, ["random", "random", "random"]),
    ("scopa", {"num_players": 4}, ["random", "heuristic"]),
])
def test_wrong_opponent_count(name, options, opponents):
    game = cardsim.load_game(name, **options)
    with pytest.raises(AgentError, match="expected .* opponent agent"):
        play_interactive(game, opponents, read=lambda p: "1", write=lambda l: None)


def test_bad_agent_spec_and_seat():
    game = cardsim.load_game("scopa")
    with pytest.raises(AgentError, match="unknown agent"):
        play_interactive(game, ["nobody"], read=lambda p: "1", write=lambda l: None)
    with pytest.raises(CardsimError, match="human_seat=2"):
        play_interactive(game, ["random"], human_seat=2, read=lambda p: "1",
                         write=lambda l: None)


def test_move_seed_is_deterministic_and_distinct():
    # pinned: the same in every process and run (NumPy's SeedSequence is stable), so a
    # replayed game sees the same agent choices
    assert move_seed(5, 3) == 8065153966420768690
    assert len({move_seed(s, m) for s in range(20) for m in range(50)}) == 1000
