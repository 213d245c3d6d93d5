"""One writer per folder: ``cardsim run`` holds an exclusive lock on its folder (an
``flock`` the system releases when the process dies), a second run on the folder says in one
line which process has it and touches nothing, and a SIGKILLed run leaves no stale lock."""
from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from cardsim.app.cli import main
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import parse_spec
from cardsim.experiments.store import Store, StoreError, folder_lock
from tests.experiments.processes import fork, wait

SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 2, "batch_size": 5,
        "size": {"deals": 10}}


def _spec_file(tmp_path, batch_size=5, deals=10):
    path = tmp_path / "spec.toml"
    path.write_text('game = "scopa"\nagents = ["heuristic", "random"]\nseed = 2\n'
                    f'batch_size = {batch_size}\n[size]\ndeals = {deals}\n')
    return path


def _hold(folder, ready_fd):
    """In a child: take the folder's lock, say so, and keep it until killed."""
    with folder_lock(folder):
        os.write(ready_fd, b"x")
        signal.pause()


def _holder(folder) -> int:
    """A child process holding ``folder``'s lock; its pid."""
    r, w = os.pipe()
    pid = fork(_hold, folder, w)
    os.close(w)
    assert os.read(r, 1) == b"x"
    os.close(r)
    return pid


def test_a_second_run_says_which_process_has_the_folder(tmp_path, capsys):
    out = tmp_path / "run"
    run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    before = Store(out).rows()
    leftover = out / "batches" / "m000-b000009.parquet.tmp"          # the other run's file
    leftover.write_bytes(b"being written")
    pid = _holder(out)
    try:
        assert main(["run", str(_spec_file(tmp_path)), "--out", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err == (f"cardsim: error: {out} is in use by process {pid} (a `cardsim run` on "
                       "it): wait for it to end, or use another folder\n")
        assert leftover.exists(), "the refused run removed the running one's temporary file"
        with pytest.raises(StoreError, match=f"in use by process {pid}"):
            run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    finally:
        os.kill(pid, signal.SIGKILL)
        assert wait(pid) == -signal.SIGKILL
    assert main(["run", str(out), "--quiet"]) == 0                   # no stale lock
    assert not leftover.exists() and Store(out).rows().equals(before)


def test_a_run_started_while_another_runs_is_refused(tmp_path):
    """The race: a second ``cardsim run`` on a folder while the first is writing its
    batches. The second says in one line that the folder is in use by the first (and touches
    nothing); the first finishes, its store whole."""
    spec_file, out = _spec_file(tmp_path, batch_size=1, deals=20), tmp_path / "run"
    logs = [tmp_path / f"err{i}" for i in range(2)]

    def cli(log):                         # in a child: main's status, its stderr in ``log``
        with open(log, "w") as sys.stderr:
            code = main(["run", str(spec_file), "--out", str(out), "--quiet"])
        os._exit(code)

    first = fork(cli, logs[0])
    deadline = time.time() + 120
    while not list(out.glob("batches/*.parquet")) and time.time() < deadline:
        time.sleep(0.001)
    second = fork(cli, logs[1])
    assert wait(second) == 2
    assert logs[1].read_text() == (f"cardsim: error: {out} is in use by process {first} (a "
                                   "`cardsim run` on it): wait for it to end, or use another "
                                   "folder\n")
    assert wait(first) == 0, logs[0].read_text()
    assert all(not b.problem for b in Store(out).check()) and len(Store(out).rows()) == 40


def test_a_foreign_folder_gets_no_lock_file(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty"):
        run(parse_spec(SPEC), RunConfig(str(tmp_path), progress=False))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    with pytest.raises(StoreError, match="notes.txt is a file, not a folder"):
        run(parse_spec(SPEC), RunConfig(str(tmp_path / "notes.txt"), progress=False))
    with pytest.raises(StoreError, match=r"cannot lock .*notes.txt/run \(Not a directory\)"):
        run(parse_spec(SPEC), RunConfig(str(tmp_path / "notes.txt" / "run"), progress=False))


def test_a_report_being_written_is_not_written_twice_at_once(tmp_path):
    from cardsim.reports import build_report
    from tests.reports.test_report import BURA
    with folder_lock(tmp_path, ".report.lock"):
        with pytest.raises(StoreError, match=f"in use by process {os.getpid()} .*cardsim report"):
            build_report(BURA, out=tmp_path / "report")      # the same lock, another holder
    assert not (tmp_path / "report").exists()
