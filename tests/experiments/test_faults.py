"""Environment faults end a command in one line, exit status 1, and lose nothing: a disk that
fills while a run writes a batch, a read-only file system under ``equity --out``, a results
folder removed while its run goes on, and an output that cannot encode cardsim's characters
(it gets their ASCII spelling instead). A run stopped by a fault resumes to the rows of an
uninterrupted run.
"""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.app.cli import main
from cardsim.experiments.rows import seeded
from cardsim.experiments.store import Store

SPEC = """game = "scopa"
agents = ["heuristic", "random"]
seed = 11
batch_size = 2

[size]
deals = 8
"""


@pytest.fixture
def spec(tmp_path) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(SPEC)
    return path


def _one_line(capsys, status: int, needle: str) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines and lines[-1].startswith("cardsim: error: ") and needle in lines[-1], err
    assert status == 1 and "Traceback" not in err, err
    return lines[-1]


def _rows(folder: Path):
    return seeded(Store(folder).rows()).sort_values(["matchup", "deal", "rotation"],
                                                     ignore_index=True)


@pytest.fixture
def whole(tmp_path, spec) -> Path:
    """The uninterrupted run."""
    folder = tmp_path / "whole"
    assert main(["run", str(spec), "--out", str(folder), "--quiet"]) == 0
    return folder


def test_a_full_disk_mid_run_is_one_line_and_the_run_resumes(tmp_path, spec, whole, capsys,
                                                            monkeypatch):
    folder = tmp_path / "run"
    fsync = os.fsync

    def full(fd):                    # the disk fills while the third batch is written
        if "b000002.parquet" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", full)
    line = _one_line(capsys, main(["run", str(spec), "--out", str(folder), "--quiet"]),
                     "no space left on the device")
    assert "run the command again to resume" in line
    assert not list(folder.rglob("*.tmp"))          # the part written is removed
    monkeypatch.setattr(os, "fsync", fsync)
    assert main(["run", str(spec), "--out", str(folder), "--quiet"]) == 0
    assert _rows(folder).equals(_rows(whole))


def test_a_read_only_file_system_under_equity_out_is_one_line(tmp_path, capsys, monkeypatch):
    mkdir = os.mkdir

    def read_only(path, *args, **kwargs):
        if str(path).startswith(str(tmp_path / "ro")):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", read_only)
    status = main(["equity", "scopa", "--out", str(tmp_path / "ro" / "eq"), "--quiet"])
    line = _one_line(capsys, status, "the file system is read-only")
    assert str(tmp_path / "ro") in line


def test_a_folder_removed_during_its_run_is_one_line(tmp_path, spec, whole, capsys,
                                                    monkeypatch):
    folder = tmp_path / "run"
    write = Store.write_batch

    def removed(self, matchup, batch, rows):
        if batch == 1:
            shutil.rmtree(folder)
        return write(self, matchup, batch, rows)

    monkeypatch.setattr(Store, "write_batch", removed)
    _one_line(capsys, main(["run", str(spec), "--out", str(folder), "--quiet"]),
              "removed while cardsim ran")
    monkeypatch.setattr(Store, "write_batch", write)
    assert main(["run", str(spec), "--out", str(folder), "--quiet"]) == 0   # starts again
    assert _rows(folder).equals(_rows(whole))


def test_an_ascii_terminal_gets_ascii_not_a_traceback(tmp_path, spec):
    """``LC_ALL=C`` with ``PYTHONUTF8=0``: stdout and stderr are ASCII, and ``run`` prints
    its answer and tables in ASCII."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run([sys.executable, "-m", "cardsim", "run", str(spec), "--out",
                           str(tmp_path / "run"), "--quiet"], env=env, capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert done.stdout.isascii() and done.stderr.isascii()
    assert b"The heuristic beats the random player" in done.stdout and b"-----" in done.stdout


def test_the_ascii_spelling_of_what_cardsim_prints():
    import io

    from cardsim.app.output import degrade_to_ascii
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    degrade_to_ascii(stream)
    stream.write("0.49 [0.26, 0.72] — ±1.2 × 3 … é ─│┼ ♠ 漢")
    stream.flush()
    assert raw.getvalue() == b"0.49 [0.26, 0.72] - +/-1.2 x 3 ... e -|+ S ?"
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    degrade_to_ascii(utf8)
    assert utf8.errors == "strict"                  # an output that can encode them is kept


def test_a_full_disk_while_a_report_is_written_keeps_the_old_report(tmp_path, whole, capsys,
                                                                    monkeypatch):
    assert main(["report", str(whole)]) == 0
    before = (whole / "report" / "report.md").read_bytes()
    write_text = Path.write_text

    def full(self, *args, **kwargs):
        if self.name == "report.md":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    _one_line(capsys, main(["report", str(whole)]), "no space left on the device")
    assert (whole / "report" / "report.md").read_bytes() == before
    assert not list(whole.glob(".report-new-*"))
