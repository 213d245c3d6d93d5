"""A results folder never leads cardsim out of itself: a symbolic link planted
where the store keeps its lock, its batches, records or set-aside batches, or where a report
goes, is refused in one line before anything is written, moved or deleted, and the link's
target is left as it was.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardsim.app.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def run(tmp_path) -> Path:
    """A finished store (``cardsim run`` on it resumes with nothing left to play)."""
    folder = tmp_path / "run"
    shutil.copytree(DATA / "scopa_budget", folder)
    return folder


@pytest.fixture
def victim(tmp_path) -> Path:
    """A folder outside the store, with a file a careless cleanup would take."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me\n")
    (outside / "work.tmp").write_text("not the store's\n")
    return outside


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _refused(capsys, argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error: ") and len(err.splitlines()) == 1, err
    assert needle in err and "symbolic link" in err, err


def test_a_linked_lock_file_is_refused_and_its_target_kept(capsys, run, victim):
    target = victim / "precious.txt"
    (run / ".lock").unlink(missing_ok=True)
    (run / ".lock").symlink_to(target)
    _refused(capsys, ["run", str(run), "--quiet"], f"{run / '.lock'}")
    assert target.read_text() == "keep me\n"


def test_a_linked_report_lock_is_refused_and_its_target_kept(capsys, run, victim):
    target = victim / "precious.txt"
    (run / ".report.lock").symlink_to(target)
    _refused(capsys, ["report", str(run)], ".report.lock")
    assert target.read_text() == "keep me\n"


def test_a_lock_that_is_not_a_regular_file_is_refused(capsys, run):
    (run / ".lock").unlink(missing_ok=True)
    (run / ".lock").mkdir()
    assert main(["run", str(run), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is not a regular file of yours" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("name", ["batches", "records", "quarantine"])
def test_a_linked_store_folder_is_refused_and_nothing_written_or_deleted_there(
        capsys, run, victim, name):
    """A linked ``batches/`` would take every batch out of the folder and its cleanup would
    delete the target's ``*.tmp`` files; ``quarantine/`` would move damaged batches out."""
    real = run / name
    if real.exists():
        for p in real.iterdir():
            shutil.copy(p, victim / p.name)
        shutil.rmtree(real)
    before = _snapshot(victim)
    real.symlink_to(victim, target_is_directory=True)
    _refused(capsys, ["run", str(run), "--quiet"], f"{real}")
    assert _snapshot(victim) == before and (victim / "work.tmp").exists()


def test_a_linked_report_folder_is_refused_and_its_target_kept(capsys, run, victim):
    (run / "report").symlink_to(victim, target_is_directory=True)
    before = _snapshot(victim)
    _refused(capsys, ["report", str(run)], f"{run / 'report'}")
    assert _snapshot(victim) == before
    assert not list(run.glob(".report-new-*"))


def test_a_leftover_link_of_a_killed_build_is_removed_not_followed(capsys, run, victim):
    link = run / ".report-new-x1"
    link.symlink_to(victim, target_is_directory=True)
    before = _snapshot(victim)
    assert main(["report", str(run)]) == 0, capsys.readouterr().err
    assert not link.exists() and not link.is_symlink()
    assert _snapshot(victim) == before and (run / "report" / "report.html").exists()


def test_a_link_at_a_temporary_name_is_not_written_through(tmp_path, victim):
    from cardsim.experiments.store import write_synced
    target = victim / "precious.txt"
    (tmp_path / "manifest.json.tmp").symlink_to(target)
    write_synced(tmp_path / "manifest.json", b"{}")
    assert target.read_text() == "keep me\n"
    assert (tmp_path / "manifest.json").read_bytes() == b"{}"
