"""The play screens of every game at 80×24 (``cardsim play``; cardsim/app/interactive.py and
each game's ``screen`` module).

A deal of each game is played with a scripted ``read`` (``help`` first, then always the first
legal move): at every prompt, the last 24 lines a terminal of 80×24 shows (23 written lines and
the prompt) must hold the person's hand, the table or the trick, and the score, and no line may
be wider than 80 columns; the observation's internal fields are never dumped. What a move did
is checked in words against the engine's truth over random deals (rule IDs in the test names).
The deal's seed is fresh each time without ``--seed``, shown, and kept in the record.
"""
from __future__ import annotations

import io
import random
import re

import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.app.interactive import play_interactive, verdict
from cardsim.records.render import WIDTH, View, columns, game_screen, move_list
from cardsim.records.replay import read_record
from tests.solvers.test_interactive import Spy, unwrapped

ROWS = 24
GAMES = [("scopa", {}, 0, 1), ("scopa", {"num_players": 4}, 1, 2), ("bura", {}, 0, 3),
         ("bura", {"num_players": 3}, 2, 4), ("mushka", {}, 0, 5), ("minchiate", {}, 2, 6)]
INTERNAL = ("D: ", "matto debt", "cutter: ", "net total", "start dealer", "fola size",
            "declared done", "down by thrower", "revealed at", "lone tricks left")


class Terminal:
    """A scripted person at an 80×24 terminal: ``answers`` (strings, or callables of the live
    state) first, then ``default``; at every prompt, the rows in view and the observation of
    the live state are kept."""

    def __init__(self, spy, seat, answers=(), default="1"):
        self.spy, self.seat = spy, seat
        self.answers, self.default = list(answers), default
        self.lines: list[str] = []
        self.screens: list[tuple[list[str], dict]] = []

    def write(self, line):
        assert isinstance(line, str) and "\n" not in line
        self.lines.append(line)

    def read(self, prompt):
        rows = self.lines[-(ROWS - 1):] + [prompt]
        self.screens.append((rows, self.spy.state.observation(self.seat)))
        answer = self.answers.pop(0) if self.answers else self.default
        return answer(self.spy.state) if callable(answer) else answer


def play(name, options, seat, seed, answers=("help",), opponents="heuristic", **kw):
    spy = Spy(cardsim.load_game(name, **options))
    term = Terminal(spy, seat, answers)
    result = play_interactive(spy, opponents, human_seat=seat, seed=seed, read=term.read,
                              write=term.write, **kw)
    return result, spy, term


MATCHES = [("scopa", {"target_score": 11}, 1, 7), ("bura", {"match_format": "wins_to_n"}, 0, 8),
           ("mushka", {"max_deals": 2}, 1, 9), ("minchiate", {"deals": 2}, 3, 10)]


OPTIONS = [("minchiate", {"expose_last_card": "none"}, 1, 11)]
"""Options that change what a screen shows (no card exposed: MI-DEAL-3)."""


@pytest.mark.parametrize("name, options, seat, seed, match",
                         [(*g, False) for g in GAMES + OPTIONS] + [(*g, True) for g in MATCHES])
def test_every_prompt_shows_hand_table_and_score_within_80_by_24(name, options, seat, seed,
                                                                 match):
    """At every prompt of a whole deal (or match), the 24 rows in view hold the hand, the
    table or the trick and the score, each row at most 80 columns; so does every line
    written. A match ends with who won it and its score in words."""
    result, spy, term = play(name, options, seat, seed, match=match)
    assert spy.state.is_terminal() and result == spy.state.returns()
    assert len(term.screens) > 3
    for rows, obs in term.screens:
        text = "\n".join(rows)
        assert all(len(row) <= WIDTH for row in rows), text
        assert any(row.startswith("your hand: ") for row in rows), text
        assert any(row.startswith(("table: ", "trick")) for row in rows), text
        assert any(row.startswith("score") for row in rows), text
        assert rows[-1].startswith("your move (1-")
    assert all(len(line) <= WIDTH for line in term.lines)
    if match:
        assert re.fullmatch(r"(You( and seat \d)? win|You lose) the match .+\.|The match is "
                            r"drawn.*\.", unwrapped(term.lines)[-1])


@pytest.mark.parametrize("name, options, seat, seed", GAMES)
def test_internal_fields_are_not_shown(name, options, seat, seed):
    """No observation key is dumped as ``key: value``; Minchiate's D, Matto debt and cutter are
    not shown (the difference is told as a side's lead towards a resto)."""
    result, spy, term = play(name, options, seat, seed, answers=())
    view = View(spy.num_players, seat)
    for rows, obs in term.screens:
        text = "\n".join(rows)
        for key, value in obs.items():
            raw = f"{key.replace('_', ' ')}: {view.fmt(value, key)}"
            if key not in ("hand", "table", "trick"):
                assert not any(row.startswith(raw) for row in rows), (key, text)
        assert not any(word in text for word in INTERNAL), text
    if name == "minchiate":
        assert any(re.search(r"(your side|the other side) is \d+ points ahead|the points are even", "\n".join(r))
                   for r, _ in term.screens)


@pytest.mark.parametrize("name, options, seat, seed", GAMES)
def test_help_explains_the_notation_and_keeps_the_hand_in_view(name, options, seat, seed):
    """``help`` (and ``?``) prints the game's card notation and move syntax, what may be
    typed, then the screen and the legal moves again."""
    words = game_screen(cardsim.load_game(name, **options))
    result, spy, term = play(name, options, seat, seed, answers=("help", "?"))
    first = next(i for i, line in enumerate(term.lines) if line.startswith("your hand: "))
    text = "\n".join(term.lines[first:])
    notation = words.NOTATION.splitlines()
    assert text.count(notation[0]) == 2 and text.count(notation[-1]) == 2
    assert "Moves: " in words.NOTATION and "Cards: " in words.NOTATION
    rows, _ = term.screens[1]                   # the prompt after ``help``
    assert "legal moves:" in rows
    assert any(row.startswith("your hand: ") for row in rows)


def test_every_game_has_its_screen_module():
    for name in ("scopa", "bura", "mushka", "minchiate"):
        words = game_screen(cardsim.load_game(name))
        for attr in ("NOTATION", "BREAKDOWN", "status", "events", "final"):
            assert hasattr(words, attr), (name, attr)
        assert all(len(line) <= WIDTH for line in words.NOTATION.splitlines())


def test_moves_are_listed_in_columns_that_fit():
    """Moves that share a verb are listed once under it, numbered in the list's order."""
    moves = [f"play T{k}" for k in range(1, 22)] + ["claim"]
    lines = move_list(moves)
    assert all(len(line) <= WIDTH for line in lines) and 1 < len(lines) < len(moves)
    assert lines[0] == "  play:" and lines[-1] == "  22. claim"
    listed = re.findall(r"(\d+)\. (T\d+)", " ".join(lines))
    assert sorted((int(n), f"play {m}") for n, m in listed) == list(enumerate(moves[:-1], 1))
    assert move_list(["lead Kd", "lead Kd+Td", "claim"]) == ["  lead: 1. Kd   2. Kd+Td",
                                                            "  3. claim"]
    long = "a very long move " * 6
    assert columns([long]) == ["  " + long.rstrip()]


def test_a_move_may_be_typed_without_its_verb_when_unique():
    typed = []

    def without_verb(state):
        strings = [state.action_to_string(a) for a in state.legal_actions()]
        move = next(s for s in strings if " " in s and sum(
            t.partition(" ")[2] == s.partition(" ")[2] for t in strings) == 1)
        typed.append(move)
        return move.partition(" ")[2].swapcase()

    result, spy, term = play("minchiate", {}, 0, 3, answers=(without_verb, without_verb))
    assert len(typed) == 2
    for move in typed:
        assert any(line.startswith(f"you: {move} — ") for line in term.lines)


# --- the end in words ---------------------------------------------------------------------------

@pytest.mark.parametrize("n, human, returns, score, expected", [
    (2, 0, [1, -1], " 11–7", "You win the match 11–7."),
    (2, 1, [1, -1], " 7–11", "You lose the match 7–11."),
    (2, 0, [0, 0], " 4–4", "The match is drawn 4–4."),
    (4, 2, [2, -2, 2, -2], " 2–0 in resti", "You and seat 0 win the match 2–0 in resti."),
    (4, 0, [1, 8, -5, 1], " (records you 24)", "You lose the match (records you 24): seat 1 wins."),
])
def test_the_end_says_who_won_and_the_score(n, human, returns, score, expected):
    assert verdict(View(n, human), returns, "match", score) == expected


def test_a_scopa_deal_ends_with_its_points_in_words():
    result, spy, term = play("scopa", {}, 0, 7, answers=())
    total = spy.state.score_breakdown()["total"]
    last = unwrapped(term.lines)[-1]
    verb = "win" if total[0] > total[1] else "lose" if total[0] < total[1] else None
    assert last == (f"You {verb} the deal {total[0]}–{total[1]}." if verb
                    else f"The deal is drawn {total[0]}–{total[1]}.")


# --- what a move did, in words, against the engine's truth ---------------------------------------

def moves_seen(name, seeds, viewer=0, **options):
    """(view, before, after, position before, position after, seat, move, words) of every move
    of random deals, as ``viewer`` sees them."""
    game = cardsim.load_game(name, **options)
    words = game_screen(game)
    view = View(game.num_players, viewer)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_terminal():
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(action)
            before, position = state.observation(viewer), state.to_dict()
            state.apply_action(action)
            after = state.observation(viewer)
            yield (view, before, after, position, state.to_dict(), seat, text,
                   words.events(before, after, seat, text, view))


@pytest.mark.parametrize("players", [2, 4])
def test_sc_scopa_1_and_sc_end_2_a_scopa_and_the_last_sweep_are_told(players):
    """SC-SCOPA-1: a capture that empties the table is announced as a scopa, and only then;
    SC-END-2: the cards left on the table at the deal's end are told as going to the last side
    to take, and they are in that side's pile."""
    scopas = sweeps = 0
    for view, before, after, pos, end, seat, move, words in moves_seen(
            "scopa", range(12), num_players=players):
        side = seat % 2
        card, _, taken = move.partition(">")
        assert words[0] == (f"takes {taken.replace('+', ' ')} with {card}" if taken
                            else f"lays {card} on the table")
        made = after["scopas"][side] > before["scopas"][side]
        assert made == any(w.startswith("scopa!") for w in words)
        scopas += made
        sweep = [w for w in words if "left on the table go to" in w]
        if after["phase"] != "play" and end["last_capturer"] is not None:
            last = end["last_capturer"]
            gained = set(end["piles"][last]) - set(pos["piles"][last])
            left = gained - ({card, *taken.split("+")} if taken and side == last else set())
            assert bool(sweep) == bool(left), (words, left)
            if left:
                shown = sweep[0].split(": ")[1].split(" left on")[0].split()
                assert set(shown) == left
                assert sweep[0].endswith(f"go to {view.short(end['last_capturer'], 2)}, "
                                         "the last to take")
                sweeps += 1
        else:
            assert not sweep
    assert scopas and sweeps


def test_bu_claim_2_and_bu_combo_2_claims_and_buras_are_told():
    """BU-CLAIM-2: a claim is told with its points, true (31 or more: the claimant wins) or
    false (it counts double); BU-COMBO-2: a bura ends the deal, told as three trumps in hand;
    a trick's taker is told when the trick is taken."""
    kinds = set()
    for view, before, after, pos, end, seat, move, words in moves_seen("bura", range(60)):
        result = after.get("result")
        if move == "claim":
            assert words[0] == "claims 31 points or more"
        if result and not before.get("result"):
            kinds.add(result["kind"])
            told = words[-1]
            assert told.startswith("the deal is over: ")
            if result["kind"] == "claim_won":
                assert result["claim_points"] >= 31 and move == "claim"
                assert f"a true claim with {result['claim_points']} points" in told
            elif result["kind"] == "claim_lost":
                assert result["claim_points"] <= 30 and move == "claim"
                assert "a false claim (it counts double)" in told
            elif result["kind"] == "bura":
                assert "a bura: three trumps in hand" in told
            winners = result["winners"]
            assert all(view.who(p) in told for p in winners)
        taken = after["tricks"] > before["tricks"]
        assert taken == any(w.endswith("the trick") for w in words)
        if taken:
            assert view.who(after["last_trick_taker"]) in next(w for w in words
                                                               if w.endswith("the trick"))
    assert {"claim_won", "claim_lost", "bura"} <= kinds


def test_mu_score_1_a_trick_won_is_told_with_the_record_written_off():
    """MU-SCORE-1: each trick won writes 1 off the winner's record: the words name the winner,
    the trick's four cards and his record after it; MU-EXCH-2: an exchange tells how many
    cards, never which."""
    tricks = 0
    for view, before, after, pos, end, seat, move, words in moves_seen("mushka", range(10)):
        winners = [p for p, (a, b) in enumerate(zip(before["tricks_won"], after["tricks_won"]))
                   if b > a]
        told = [w for w in words if " the trick (" in w]
        assert len(told) == len(winners)
        for p, w in zip(winners, told):
            assert w.startswith(f"{view.who(p)} win") and w.endswith(
                f"record now {after['records'][p]}")
            assert len(re.search(r"\((.*)\)", w).group(1).split()) == len(pos["active"])
            tricks += 1
        if move.startswith("exchange "):
            k = len(move.split()[1].split("+"))
            assert words[0] == f"exchanges {k} card{'s' if k != 1 else ''}"
    assert tricks


def test_mi_score_1_and_mi_resto_2_tricks_points_and_resti_are_told():
    """MI-SCORE-1: every trick's winner is told with its four cards, and the points a scoring
    event gives each side; MI-RESTO-2: a resto made is told."""
    tricks = restos = 0
    for view, before, after, pos, end, seat, move, words in moves_seen("minchiate", range(3)):
        if after["tricks_played"] > before["tricks_played"]:
            w = next(w for w in words if " the trick (" in w)
            assert w.startswith(view.who(after["last_winner"]))
            assert len(re.search(r"\((.*)\)", w).group(1).split()) == 4
            tricks += 1
        gained = [sum(a[s] for a in after["points"].values())
                  - sum(b[s] for b in before["points"].values()) for s in range(2)]
        told = next((w for w in words if w.startswith("points: ")), "")
        for s, g in enumerate(gained):
            assert (f"{view.short(s, 2)} +{g}" in told) == bool(g)
        made = [b - a for a, b in zip(before["resti"], after["resti"])]
        for s, k in enumerate(made):
            if k > 0:
                assert f"{view.short(s, 2)} makes {k} resto" in " ".join(words)
                restos += 1
    assert tricks == 63


# --- the seed -----------------------------------------------------------------------------------

SEED_LINE = re.compile(r"^deal seed (\d+): replay with --seed \1$", re.M)


def first_screen(out: str) -> str:
    start = out.index("--- your turn")
    return out[start:out.index("your move", start)]


def test_without_seed_each_play_is_a_fresh_deal_shown_recorded_and_repeatable(
        capsys, monkeypatch, tmp_path):
    seeds, screens = [], []
    for k in range(2):
        path = tmp_path / f"deal{k}.json"
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["play", "scopa", "--vs", "random", "--record", str(path)]) == 0
        out = capsys.readouterr().out
        seeds.append(int(SEED_LINE.search(out).group(1)))
        screens.append(first_screen(out))
        assert read_record(path).seed == seeds[-1]
    assert seeds[0] != seeds[1]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "scopa", "--vs", "random", "--seed", str(seeds[0])]) == 0
    out = capsys.readouterr().out
    assert SEED_LINE.search(out).group(1) == str(seeds[0])
    assert first_screen(out) == screens[0]
