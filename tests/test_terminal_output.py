"""What the commands print (cardsim/app/output.py): the answer first, tables a person reads at
100 columns, and ``--format csv|json|markdown`` that carry the same numbers.

The golden files (``tests/data/golden/terminal/<name>.txt``) hold each command's output at 100
columns, so that any change of what a user sees shows as a diff; after a deliberate change,
rewrite them with ``CARDSIM_UPDATE_GOLDEN=1 python -m pytest tests/test_terminal_output.py``
and review ``git diff``.
"""
from __future__ import annotations

import io
import json
import random
import re
import shutil

import pandas as pd
import pytest

import cardsim
from cardsim.app.cli import main
from cardsim.app.output import Output, fmt_cell, kind_of, text_table
from cardsim.stats import fmt_amount, fmt_percent
from tests.terminal import DATA, check_golden, fits


def _cli(capsys, monkeypatch, *argv: str) -> str:
    monkeypatch.delenv("COLUMNS", raising=False)
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


# --- the renderer ------------------------------------------------------------------------------

@pytest.mark.parametrize("column, value, shown", [
    ("win_rate", 0.70012, "0.700"), ("mean_return", -0.004, "0.00"),
    ("mean_return", 1.8756, "1.88"), ("ms_per_move", 0.0144, "0.01 ms"),
    ("seconds", 12.345, "12.3 s"), ("decisions", 12.05, "12.1"), ("elo", 57.276, "57"),
])
def test_each_quantity_is_rounded_by_its_kind(column, value, shown):
    assert fmt_cell(kind_of(column), value) == shown


def test_an_interval_is_one_cell_and_never_minus_zero():
    assert fmt_cell("points", 0.487, 0.256, 0.717) == "0.49 [0.26, 0.72]"
    assert fmt_cell("points", -0.001, -0.002, 0.0) == "0.00 [0.00, 0.00]"
    assert fmt_cell("rate", 0.5, float("nan"), float("nan")) == "0.500"
    assert fmt_amount(-0.001, -0.5, 0.004, "points", signed=True) == "+0.00 points [-0.50, 0.00]"
    assert fmt_amount(1.876, 1.6, 2.16, "points a deal") == "1.88 points a deal [1.60, 2.16]"
    assert fmt_percent(0.3124, 0.306, 0.319) == "31.2% [30.6, 31.9]"


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"label": ["a vs b", "a vs b", "c vs d"], "name": ["a", "b", "c"],
                         "games": [300, 300, 12_000], "mean_return": [0.5, -0.5, 0.25],
                         "mean_return_lo": [0.1, -0.9, 0.0], "mean_return_hi": [0.9, -0.1, 0.5],
                         "win_rate": [0.6, 0.3, 0.55]})


def test_a_table_has_no_index_groups_its_rows_and_shows_intervals_in_brackets():
    buffer = io.StringIO()
    with Output("table", buffer, width=80) as out:
        out.say("The answer.")
        out.table("t", _frame(), ["name", "games", "mean_return", "win_rate"], groups="label",
                  title="A title", note="A note.")
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "The answer." and lines[2] == "A title"
    assert lines[5] == "a vs b" and re.match(r"^  a\s+300\s+0\.50 \[0\.10, 0\.90\]\s+0\.600$",
                                             lines[6])
    assert re.match(r"^  c\s+12,000\s", lines[9]) and lines[-1] == "A note."
    assert not any(re.match(r"^\s*[0-9]+\s+a", line) for line in lines)       # no index


def test_a_terminal_without_box_characters_gets_ascii_rules():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    with Output("table", stream, width=80) as out:
        out.table("t", _frame(), ["name", "mean_return"])
    stream.flush()
    assert raw.getvalue().decode("ascii").count("-") > 10


def test_a_narrow_terminal_wraps_cells_within_its_width():
    buffer = io.StringIO()
    frame = _frame().assign(name=["a very long agent name indeed " * 3] * 3)
    with Output("table", buffer, width=60) as out:
        out.table("t", frame, ["name", "games", "mean_return", "win_rate"])
    fits(buffer.getvalue(), 60)


def test_csv_and_json_carry_every_number_as_computed():
    frame = _frame()
    buffer = io.StringIO()
    with Output("json", buffer) as out:
        out.say("The answer.")
        out.table("t", frame, ["name", "mean_return"])
    data = json.loads(buffer.getvalue())
    assert data["answer"] == ["The answer."]
    assert [r["mean_return_lo"] for r in data["tables"]["t"]] == [0.1, -0.9, 0.0]
    buffer = io.StringIO()
    with Output("csv", buffer) as out:
        out.say("left out of csv")
        out.table("t", frame, ["name", "mean_return"])
        out.table("u", frame, ["games"])
    text = buffer.getvalue()
    assert "left out" not in text
    first, second = text.split("\n\n")
    assert first.startswith("# t\n") and second.startswith("# u\n")
    back = pd.read_csv(io.StringIO(first), comment="#")
    pd.testing.assert_frame_equal(back, frame[["name", "mean_return", "mean_return_lo",
                                               "mean_return_hi"]])


def test_text_tables_become_numbers():
    table = pd.DataFrame({"mean": ["0.460 [0.438, 0.482]", "-0.100 [-0.2, 0.0]"],
                          "moves": ["36.0", "35.5"]},
                         index=pd.Index(["cards", "coins"], name="category"))
    flat = text_table(table)
    assert list(flat.columns) == ["category", "mean", "mean_lo", "mean_hi", "moves"]
    assert flat["mean_lo"].tolist() == [0.438, -0.2] and flat["moves"].tolist() == [36.0, 35.5]


def test_an_unknown_format_is_one_line(capsys):
    assert main(["games", "--format", "xml"]) == 2
    err = capsys.readouterr()[1]
    assert err.startswith("cardsim: error: games: argument --format: invalid choice: 'xml'")
    assert len(err.splitlines()) == 1


# --- every command of a kind, golden at 100 columns ---------------------------------------------

def test_games_golden(capsys, monkeypatch):
    check_golden("games", _cli(capsys, monkeypatch, "games"))


def test_simulate_golden(capsys, monkeypatch):
    check_golden("simulate_scopa", _cli(capsys, monkeypatch, "simulate", "scopa", "--deals",
                                        "2000", "--seed", "5", "--quiet"))


def _run_copy(tmp_path, name: str) -> str:
    folder = tmp_path / name
    shutil.copytree(DATA / name, folder)
    return str(folder)


def test_run_golden_answers_first(capsys, monkeypatch, tmp_path):
    """A finished store run again prints its answer, then its tables (here with a sequential
    test and a budget pair)."""
    monkeypatch.chdir(tmp_path)
    _run_copy(tmp_path, "scopa_budget")
    out = _cli(capsys, monkeypatch, "run", "scopa_budget", "--quiet")
    check_golden("run_scopa_budget", out)
    lines = out.splitlines()
    assert lines[0] == "scopa: 180 games in scopa_budget."
    answer = " ".join(lines[lines.index("") + 1:lines.index("") + 3])   # wrapped at 100
    assert re.match(r"^The heuristic beats the random player by \d\.\d\d points a deal "
                    r"\[\d\.\d\d, \d\.\d\d\], \d+ duplicate deals \(\d+ games\)\.", answer)


def test_run_golden_bura_ends(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    _run_copy(tmp_path, "bura_ends")
    check_golden("run_bura_ends", _cli(capsys, monkeypatch, "run", "bura_ends", "--quiet"))


def test_compare_golden(capsys, monkeypatch):
    monkeypatch.chdir(DATA)
    check_golden("compare", _cli(capsys, monkeypatch, "compare", "scopa_budget",
                                 "scopa_variant"))


def _position(tmp_path, game: str, seed: int, moves: int) -> tuple[str, object]:
    state = cardsim.load_game(game).new_deal(seed=seed)
    pick = random.Random(seed)
    for _ in range(moves):
        state.apply_action(pick.choice(state.legal_actions()))
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(state.to_dict()))
    return str(path), state


def test_analyze_golden(capsys, monkeypatch, tmp_path):
    path, state = _position(tmp_path, "bura", 4, 0)
    monkeypatch.chdir(tmp_path)
    out = _cli(capsys, monkeypatch, "analyze", "bura", "bura.json", "--player",
               str(state.current_player()), "--worlds", "40", "--seed", "3")
    check_golden("analyze_bura", out)
    assert out.splitlines()[1].startswith("Best: ")


def test_solve_golden(capsys, monkeypatch, tmp_path):
    path, state = _position(tmp_path, "scopa", 1, 26)
    monkeypatch.chdir(tmp_path)
    out = _cli(capsys, monkeypatch, "solve", "scopa", "scopa.json")
    check_golden("solve_scopa", out)
    assert "The position is worth" in out.splitlines()[0] + out.splitlines()[1]


def test_equity_golden(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    out = _cli(capsys, monkeypatch, "equity", "scopa", "--deals", "300", "--boot", "10",
               "--option", "target_score=21", "--out", "eq", "--quiet")
    check_golden("equity_scopa", out)
    assert re.search(r"^At score_a 0, score_b 0 \(dealer a\): side a wins \d+\.\d% \[", out,
                     re.M)


def test_review_golden(capsys, monkeypatch, tmp_path):
    """A review opens with each reviewed seat's loss, marks and luck in a sentence."""
    from tests.solvers.test_review import heuristic_record
    monkeypatch.chdir(tmp_path)
    heuristic_record(cardsim.load_game("scopa"), 15).write(tmp_path / "deal.json")
    out = _cli(capsys, monkeypatch, "review", "deal.json", "--player", "0", "--worlds", "8",
               "--baseline", "20")
    check_golden("review_scopa", out)
    assert re.match(r"^Seat 0 \(person\) lost \d+\.\d\d ±\d+\.\d\d points against the best "
                    r"moves over \d+ decisions", out)


# --- the formats parse back to the same numbers -------------------------------------------------

def test_run_formats_carry_the_tables_numbers(capsys, monkeypatch, tmp_path):
    from cardsim.experiments.tables import matchup_table
    from cardsim.reports.run import load_run
    monkeypatch.chdir(tmp_path)
    folder = _run_copy(tmp_path, "scopa_budget")
    run = load_run(folder)
    expected = matchup_table(run.rows, run.agents)
    data = json.loads(_cli(capsys, monkeypatch, "run", folder, "--quiet", "--format", "json"))
    got = pd.DataFrame(data["tables"]["matchups"])
    for column in ("games", "win_rate", "mean_return", "mean_return_lo", "mean_return_hi"):
        assert got[column].tolist() == pytest.approx(expected[column].tolist(), rel=1e-12)
    assert data["answer"][2].startswith("The heuristic beats the random player")
    text = _cli(capsys, monkeypatch, "run", folder, "--quiet", "--format", "csv")
    sections = {part.splitlines()[0][2:]: pd.read_csv(io.StringIO(part), comment="#")
                for part in text.strip().split("\n\n")}
    assert set(sections) == set(data["tables"])
    for name, frame in sections.items():
        back = pd.DataFrame(data["tables"][name])
        assert frame.shape == back.shape, name
        for column in frame.columns:
            if frame[column].dtype.kind == "f":
                assert frame[column].tolist() == pytest.approx(back[column].tolist(),
                                                               nan_ok=True), (name, column)
    markdown = _cli(capsys, monkeypatch, "run", folder, "--quiet", "--format", "markdown")
    table = _cli(capsys, monkeypatch, "run", folder, "--quiet")
    for cell in re.findall(r"-?\d+\.\d\d \[-?\d+\.\d\d, -?\d+\.\d\d\]", table):
        assert cell in markdown
    assert "### Results per matchup" in markdown and "| --- |" not in markdown
