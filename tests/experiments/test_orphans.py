"""Stopped or killed, a command leaves no process behind and its store resumes: SIGTERM stops
``cardsim run`` and ``cardsim equity`` as Ctrl-C does (one line, exit 143, no warning, its worker
processes and their resource trackers gone); the worker processes of a parent killed with
SIGKILL end by themselves (:mod:`cardsim.workers`); a Dask scheduler lost mid-run is one line,
exit 1. The commands are real processes; their descendants are read from Linux's ``/proc``."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from cardsim.app.cli import main
from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import parse_spec
from cardsim.workers import PERIOD
from tests.experiments.processes import TIMEOUT, descendants, wait_gone

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 7, "batch_size": 4,
        "size": {"deals": 200}}           # 50 batches: a second or more after the first one
SPEC_TOML = ('game = "scopa"\nagents = ["heuristic", "random"]\nseed = 7\nbatch_size = 4\n'
             '[size]\ndeals = 200\n')
GONE = PERIOD + 4.0                        # seconds a stopped command's processes may take


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The rows of an uninterrupted run of SPEC (in this process)."""
    folder = tmp_path_factory.mktemp("clean") / "run"
    return seeded(run(parse_spec(SPEC), RunConfig(str(folder), progress=False)).rows())


def _spec_file(tmp_path) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(SPEC_TOML)
    return path


def _start(tmp_path, *args) -> tuple[subprocess.Popen, Path]:
    """``cardsim ARGS --quiet`` started; the process and the file that receives its stderr (a
    file, not a pipe: a resource tracker keeps its parent's stderr open until it ends)."""
    err = tmp_path / "stderr.txt"
    with err.open("w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "cardsim", *map(str, args), "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=f)
    return proc, err


def _at_first_batch(proc: subprocess.Popen, batches: Path) -> set[int]:
    """Wait until the process has written a batch into the folder ``batches``; its
    descendants then (its worker processes among them)."""
    deadline = time.monotonic() + TIMEOUT
    while not any(batches.glob("*.parquet")):
        assert proc.poll() is None, f"ended ({proc.returncode}) before writing a batch"
        assert time.monotonic() < deadline, "no batch written"
        time.sleep(0.005)
    return descendants(proc.pid)


def _stopped(proc: subprocess.Popen, batches: Path, signum: int) -> tuple[int, set[int]]:
    """Send ``signum`` to the process after its first batch; its exit status, and those of its
    descendants (there were three at least: two workers and a resource tracker) still running
    after GONE seconds (then killed)."""
    children = _at_first_batch(proc, batches)
    assert len(children) >= 3, children
    proc.send_signal(signum)
    status = proc.wait(TIMEOUT)
    return status, _gone(children)


def _gone(pids) -> set[int]:
    """Those of ``pids`` still running after GONE seconds, then killed (a failed test leaves no
    process behind)."""
    left = wait_gone(pids, GONE)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def test_sigterm_stops_a_run_and_its_workers_and_the_run_resumes(clean, tmp_path):
    out = tmp_path / "run"
    proc, err = _start(tmp_path, "run", _spec_file(tmp_path), "--out", out, "--jobs", "2")
    status, left = _stopped(proc, out / "batches", signal.SIGTERM)
    text = err.read_text()
    assert status == 143 and not left, (status, left, text)
    assert text.splitlines() == ["cardsim: terminated"], text      # no warning either
    resumed = run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    assert seeded(resumed.rows()).equals(clean)


PARENT = """
import time
from joblib import delayed
from cardsim.workers import parallel
parallel(2)(delayed(time.sleep)(60) for _ in range(2))
"""


def _workers(pid: int) -> set[int]:
    """The loky worker processes among the process's descendants."""
    found = set()
    for child in descendants(pid):
        try:
            if b"LokyProcess" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            pass
    return found


def test_workers_end_when_their_parent_is_killed():
    """A pool's two worker processes and its resource tracker end within seconds of their
    parent's SIGKILL (the workers within PERIOD; the tracker when they have), and nothing
    warns of "leaked" objects (the tracker removes them silently)."""
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-c", PARENT], stderr=err)
    deadline = time.monotonic() + TIMEOUT
    while len(_workers(proc.pid)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "no workers started"
        time.sleep(0.02)
    children = descendants(proc.pid)
    proc.kill()
    proc.wait()
    assert not _gone(children)
    err.seek(0)
    assert b"leaked" not in err.read()           # the tracker cleaned up silently


def _scheduler(tmp_path) -> tuple[subprocess.Popen, str]:
    """A ``dask scheduler`` process on a free local port, and its address."""
    found = tmp_path / "scheduler.json"
    proc = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                             "--port", "0", "--no-dashboard", "--scheduler-file", str(found)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + TIMEOUT
    while not (found.exists() and found.stat().st_size):
        assert proc.poll() is None and time.monotonic() < deadline, "no Dask scheduler"
        time.sleep(0.02)
    time.sleep(0.05)                                  # written whole
    return proc, json.loads(found.read_text())["address"]


def test_a_lost_dask_scheduler_is_one_line_and_the_run_resumes(clean, tmp_path, capfd):
    """The scheduler SIGKILLed once the run has stored a batch: ``cardsim: error: lost the Dask
    scheduler …``, exit 1, nothing else printed; the run resumed in a local process equals an
    uninterrupted one. The signal handlers main installs are gone after it."""
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    scheduler, address = _scheduler(tmp_path)
    worker = subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nthreads",
                               "1", "--no-nanny", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killer = threading.Thread(target=lambda: (_at_first_batch(scheduler, out / "batches"),
                                              scheduler.kill()))
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    try:
        capfd.readouterr()
        killer.start()
        status = main(["run", str(_spec_file(tmp_path)), "--out", str(out), "--dask", address,
                       "--quiet"])
        killer.join()
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait()
    err = capfd.readouterr().err
    assert status == 1, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"cardsim: error: lost the Dask scheduler at {address} (")
    assert err.endswith("): the batches finished so far are stored; run again to resume\n")
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == handlers
    resumed = run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    assert seeded(resumed.rows()).equals(clean)


@pytest.mark.slow
def test_sigkill_of_a_run_leaves_no_worker_and_the_run_resumes(clean, tmp_path):
    out = tmp_path / "run"
    proc, _ = _start(tmp_path, "run", _spec_file(tmp_path), "--out", out, "--jobs", "2")
    status, left = _stopped(proc, out / "batches", signal.SIGKILL)
    assert status == -9 and not left, (status, left)
    resumed = run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    assert seeded(resumed.rows()).equals(clean)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_stopped_equity_run_leaves_no_worker_and_resumes(tmp_path, signum):
    """``cardsim equity --jobs 2`` stopped after its first batch: no process left (SIGTERM: one
    line, exit 143); run again, it prints the table of an uninterrupted request."""
    args = ["equity", "scopa", "--deals", "400", "--jobs", "2"]
    proc, err = _start(tmp_path, *args, "--out", tmp_path / "stopped")
    status, left = _stopped(proc, tmp_path / "stopped" / "deals" / "batches", signum)
    assert status == (143 if signum == signal.SIGTERM else -9) and not left, (status, left)
    if signum == signal.SIGTERM:
        assert err.read_text().splitlines() == ["cardsim: terminated"], err.read_text()
    tables = []
    for folder in ("stopped", "clean"):
        done = subprocess.run([sys.executable, "-m", "cardsim", *args, "--out",
                               str(tmp_path / folder), "--quiet", "--format", "csv"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        tables.append(done.stdout)
    assert tables[0] == tables[1]
