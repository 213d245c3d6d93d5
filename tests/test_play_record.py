"""``cardsim play``'s record, hint, tutor and review offer.

The command is run in-process (``cardsim.app.cli.main``) with piped moves on standard input,
and ``play_interactive`` directly with a scripted ``read`` and a collecting ``write``.

The tutor's position: Scopa's deal of seed 2, seat 0 to move first with 7co, Cba, ... in hand;
valued as the review values it (200 worlds, seed 0), ``Cba>4cu+5cu`` loses about 1.5 points
against ``7co>3co+4cu`` with an interval well above 0 (found by a search over seeds).
"""
from __future__ import annotations

import io
import json

import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.app.interactive import play_interactive
from cardsim.records.replay import read_record
from cardsim.solvers.analyze import AnalysisConfig, analyze
from cardsim.solvers.review import ReviewConfig, decision_seed, review
from tests.solvers.test_interactive import unwrapped

TUTOR_SEED = 2
BEST = "7co>3co+4cu"
BLUNDER = "Cba>4cu+5cu"


def run(capsys, monkeypatch, stdin: str, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class Script:
    """A scripted ``read`` (answers in order, then ``default``; None raises EOFError) and a
    collecting ``write``; every prompt is kept."""

    def __init__(self, answers=(), default="1"):
        self.answers, self.default = list(answers), default
        self.lines: list[str] = []
        self.prompts: list[str] = []

    def read(self, prompt):
        self.prompts.append(prompt)
        answer = self.answers.pop(0) if self.answers else self.default
        if answer is None:
            raise EOFError
        return answer

    def write(self, line):
        assert isinstance(line, str) and "\n" not in line
        self.lines.append(line)


def play(game, script, opponents="random", **kw):
    return play_interactive(game, opponents, read=script.read, write=script.write, **kw)


# --- the record ---------------------------------------------------------------------------------

def test_a_piped_scopa_deal_with_record_writes_a_record_that_reads_back(capsys, monkeypatch,
                                                                         tmp_path):
    path = tmp_path / "deal.json"
    code, out, err = run(capsys, monkeypatch, "1\n" * 100, "play", "scopa", "--vs", "random",
                         "--seed", "5", "--record", str(path))
    assert code == 0, err
    record = read_record(path)
    assert record.seats == ("person", "random") and record.seed == 5
    assert record.result is not None
    assert list(record.result) == record.final_state().returns()
    assert record.final_state().is_terminal()
    assert json.loads(path.read_text())["format"] == "cardsim-record"
    assert f"record written to {path}" in out
    assert f"review it: cardsim review {path} --player 0" in out
    assert "review it now?" not in out          # piped moves: the review is not asked


def test_without_the_new_flags_a_piped_deal_writes_and_offers_nothing(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "1\n" * 100, "play", "scopa", "--vs", "random",
                         "--seed", "5")
    assert code == 0, err
    assert "record" not in out and "review" not in out and "hint" not in out
    assert "your move (1-" in out and ", a move as shown, help, quit): " in out


@pytest.mark.parametrize("stdin, why", [("1\n1\n1\nquit\n", "quit: game abandoned"),
                                        ("1\n1\n", "end of input: game abandoned")])
def test_a_game_stopped_midway_writes_the_moves_so_far(capsys, monkeypatch, tmp_path, stdin,
                                                       why):
    path = tmp_path / "partial.json"
    code, out, err = run(capsys, monkeypatch, stdin, "play", "scopa", "--vs", "random",
                         "--seed", "5", "--record", str(path), "--seat", "1")
    assert code == 0, err
    assert why in out and "(the moves so far, no result)" in out
    record = read_record(path)
    assert record.result is None and record.seats == ("random", "person")
    state = record.final_state()
    assert not state.is_terminal() and state.current_player() == 1
    person = [seat for _, _, seat in record.decisions() if seat == 1]
    assert len(person) == stdin.count("1\n")
    assert f"review it: cardsim review {path} --player 1" in out


def test_a_bura_deal_with_record(capsys, monkeypatch, tmp_path):
    path = tmp_path / "bura.json"
    code, out, err = run(capsys, monkeypatch, "1\n" * 200, "play", "bura", "--vs", "random",
                         "--seed", "3", "--record", str(path))
    assert code == 0, err
    record = read_record(path)
    assert record.game.name == "bura" and record.seats == ("person", "random")
    assert record.result is not None and list(record.result) == record.final_state().returns()


def test_a_minchiate_deal_with_record_through_the_hooks(tmp_path):
    game = cardsim.load_game("minchiate")
    path = tmp_path / "minchiate.json"
    result = play(game, Script(), ["random", "heuristic", "random"], human_seat=2, seed=1,
                  record=path)
    record = read_record(path)
    assert record.seats == ("random", "heuristic", "person", "random")
    assert list(record.result) == result == record.final_state().returns()


@pytest.mark.parametrize("argv, needle", [
    (["--record", "DIR"], "is a folder, not a file"),
    (["--record", "DIR/nowhere/deal.json"], "does not exist"),
    (["--record", ""], "expected a file name"),
    (["--tutor", "x"], "--tutor 'x': expected a positive number"),
    (["--tutor", "0"], "--tutor '0': expected a positive number"),
    (["--tutor", "nan"], "expected a positive number"),
])
def test_wrong_record_and_tutor_arguments_fail_in_one_line(capsys, monkeypatch, tmp_path, argv,
                                                           needle):
    argv = [a.replace("DIR", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, monkeypatch, "1\n" * 100, "play", "scopa", "--vs", "random",
                         *argv)
    assert code == 2 and needle in err and err.startswith("cardsim: error: ")
    assert "Traceback" not in err and "=== deal" not in out


# --- hint -------------------------------------------------------------------------------------

def test_hint_prints_every_legal_move_valued_best_first_then_asks_again():
    game = cardsim.load_game("scopa")
    start = game.new_deal(seed=TUTOR_SEED)
    script = Script(["hint", "quit"])
    assert play(game, script, seed=TUTOR_SEED, hint=True) is None
    assert "hint, help, quit): " in script.prompts[0] and len(script.prompts) == 2
    head = next(i for i, l in enumerate(script.lines) if l.startswith("hint: "))
    table = analyze(start, AnalysisConfig(player=0, worlds=200, seed=decision_seed(0, 0)))
    shown = script.lines[head + 1:head + 1 + len(table)]
    strings = [start.action_to_string(a) for a in start.legal_actions()]
    for line, row in zip(shown, table.itertuples(index=False)):
        number = strings.index(row.action) + 1
        assert line.split() == [f"{number}.", row.action, f"{row.mean_return:+.2f}",
                                f"[{row.return_low:+.2f},", f"{row.return_high:+.2f}]"]
    assert shown[0].split()[1] == BEST
    assert script.lines[head + 1 + len(table)] == "quit: game abandoned"


def test_hint_is_a_wrong_move_without_the_flag():
    script = Script(["hint", "quit"])
    play(cardsim.load_game("scopa"), script, seed=TUTOR_SEED)
    assert "not a legal move: 'hint'" in " ".join(script.lines)


def test_hint_through_the_command_line(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "hint\nquit\n", "play", "scopa", "--vs",
                         "random", "--seed", str(TUTOR_SEED), "--hint")
    assert code == 0, err
    assert "hint: expected return (points)" in out and BLUNDER in out


# --- tutor ------------------------------------------------------------------------------------

def test_tutor_warns_before_a_blunder_and_asks_the_move_again(tmp_path):
    game = cardsim.load_game("scopa")
    script = Script([BLUNDER, "n", BEST, "quit"])
    path = tmp_path / "deal.json"
    play(game, script, seed=TUTOR_SEED, tutor=True, record=path)
    said = unwrapped(script.lines)
    warning = [line for line in said if "loses about" in line]
    assert len(warning) == 1 and warning[0].startswith("this move loses about ")
    assert f"points against {BEST} " in warning[0]
    asked = script.prompts.index("play it anyway? [y/N] ")
    assert script.prompts.count("play it anyway? [y/N] ") == 1
    assert script.prompts[asked + 1].startswith("your move")
    assert all(len(line) <= 80 for line in script.lines if str(tmp_path) not in line)
    record = read_record(path)
    assert record.moves[0] == BEST
    # the tutor's loss is the review's, to the digit shown
    loss = float(warning[0].split("about ")[1].split()[0])
    blundered = read_record(_written(tmp_path, game, [BLUNDER, "y", "quit"]))
    assert blundered.moves[0] == BLUNDER
    rv = review(blundered, ReviewConfig(players=(0,), baseline=0))
    assert rv.decisions.iloc[0]["played"] == BLUNDER and rv.decisions.iloc[0]["best"] == BEST
    assert f"{rv.decisions.iloc[0]['loss']:.2f}" == f"{loss:.2f}" and loss >= 1.0
    assert rv.decisions.iloc[0]["mark"] == "blunder"


def _written(tmp_path, game, answers):
    path = tmp_path / "blunder.json"
    play(game, Script(answers), seed=TUTOR_SEED, tutor=True, record=path)
    return path


def test_tutor_does_not_warn_for_the_best_move_nor_below_its_threshold():
    game = cardsim.load_game("scopa")
    script = Script([BEST, "quit"])
    play(game, script, seed=TUTOR_SEED, tutor=True)
    assert not any("loses about" in line for line in script.lines)
    script = Script([BLUNDER, "quit"])
    play(game, script, seed=TUTOR_SEED, tutor=5.0)
    assert not any("loses about" in line for line in script.lines)
    assert any(line.startswith("you: " + BLUNDER + " — ") for line in script.lines)


def test_tutor_through_the_command_line_and_end_of_input_at_its_question(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, f"{BLUNDER}\nno\n{BEST}\nquit\n", "play",
                         "scopa", "--vs", "random", "--seed", str(TUTOR_SEED), "--tutor", "0.5")
    assert code == 0, err
    assert out.count("this move loses about") == 1 and "you: " + BEST in out
    code, out, err = run(capsys, monkeypatch, f"{BLUNDER}\n", "play", "scopa", "--vs",
                         "random", "--seed", str(TUTOR_SEED), "--tutor")
    assert code == 0, err
    assert "this move loses about" in out and "end of input: game abandoned" in out


# --- the review offered at the end -----------------------------------------------------------

def test_at_a_terminal_the_review_is_offered_and_run_on_yes(tmp_path):
    game = cardsim.load_game("scopa")
    path = tmp_path / "deal.json"
    script = Script([], default="1")
    script.read = _answering(script, "y")
    result = play(game, script, seed=5, record=path, interactive=True)
    assert result is not None
    assert script.prompts[-1] == "review it now? [y/N] "
    text = "\n".join(script.lines)
    assert f"review it: cardsim review {path} --player 0" in text
    assert "scopa review: " in text and "seat 0 (person): " in text


def test_at_a_terminal_without_record_no_means_no_review():
    script = Script([], default="1")
    script.read = _answering(script, "")
    play(cardsim.load_game("scopa"), script, seed=5, interactive=True)
    assert script.prompts[-1] == "review it now? [y/N] "
    assert "to review it later, play with --record FILE" in script.lines
    assert not any(line.startswith("scopa review: ") for line in script.lines)


def _answering(script, answer):
    """``script.read`` that answers ``answer`` to the review's question, else the default."""
    def read(prompt):
        script.prompts.append(prompt)
        return answer if prompt.startswith("review it now?") else script.default
    return read


class _CtrlC(io.StringIO):
    """Standard input whose person presses Ctrl-C once the lines run out."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_writes_the_moves_so_far_and_exits_130(capsys, monkeypatch,
                                                                     tmp_path):
    """Ctrl-C is not a finished command: the record keeps the moves so far, the exit status is
    130 (as for any command interrupted), and no review is offered."""
    path = tmp_path / "partial.json"
    monkeypatch.setattr("sys.stdin", _CtrlC("1\n1\n"))
    code = main(["play", "scopa", "--vs", "random", "--seed", "5", "--record", str(path)])
    out, err = capsys.readouterr()
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "cardsim: interrupted"
    assert "(the moves so far, no result)" in out and "review it now" not in out
    assert read_record(path).result is None
