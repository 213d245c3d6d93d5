"""Golden terminal output (``tests/data/golden/terminal/<name>.txt``): a command's output at
100 columns, compared whole, so that any change of what a user sees shows as a diff. After a
deliberate change, rewrite the files with ``CARDSIM_UPDATE_GOLDEN=1 python -m pytest
tests/test_terminal_output.py tests/test_cli.py`` and review ``git diff``."""
from __future__ import annotations

import os
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = DATA / "golden" / "terminal"
WIDTH = 100


def fits(text: str, width: int = WIDTH) -> None:
    wide = [line for line in text.splitlines() if len(line) > width]
    assert not wide, wide
    assert all(line == line.rstrip() for line in text.splitlines())


def check_golden(name: str, text: str) -> None:
    """``text`` is the golden file ``name`` (rewritten under ``CARDSIM_UPDATE_GOLDEN=1``)."""
    fits(text)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("CARDSIM_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {path}: run with CARDSIM_UPDATE_GOLDEN=1"
    assert text == path.read_text()
