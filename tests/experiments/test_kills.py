"""Killed at any moment, nothing lost: runs SIGKILLed at each step of writing a batch
and at random moments (drawn from a fixed seed) leave only whole batches, and the resumed run
equals an uninterrupted one. The runs are forked copies of the test process (they start in
milliseconds); the slow variant also kills ``cardsim run`` processes."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest

from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import load_spec, parse_spec
from cardsim.experiments.store import Store
from tests.experiments.processes import die_at_call, fork, kill_after, wait

SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 7, "batch_size": 1,
        "size": {"deals": 16}}                 # 16 small batches: most of the time is writing


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An uninterrupted run, and how long an uninterrupted forked run took (after a one-deal
    run has loaded the compiled code, as the forked runs find it loaded): the time the kills
    are drawn within."""
    run(parse_spec({**SPEC, "size": {"deals": 1}}),
        RunConfig(str(tmp_path_factory.mktemp("warm") / "run"), progress=False))
    store = run(parse_spec(SPEC), RunConfig(str(tmp_path_factory.mktemp("clean") / "run"),
                                            progress=False))
    start = time.perf_counter()
    forked = fork(run, parse_spec(SPEC), RunConfig(str(tmp_path_factory.mktemp("forked") / "run"),
                                                   progress=False))
    assert wait(forked) == 0
    return store, time.perf_counter() - start


def _rows(store):
    return seeded(store.rows())


def _whole(out) -> list:
    """The store's whole batches after a kill: every batch whole but at most one, the batch
    being written, renamed into place and not yet recorded (its record is its commit: the next
    run computes it again); AssertionError naming any other damage."""
    batches = Store(out).check() if (out / "batches").exists() else []
    damaged = [(b.name, b.problem) for b in batches if b.problem]
    assert len(damaged) <= 1 and all(p.startswith("has no record") for _, p in damaged), damaged
    return [b for b in batches if not b.problem]


def _finish_and_compare(out, clean_store) -> None:
    """The run finished after the kills equals an uninterrupted one; what it set aside are
    only batch files that had no record (uncommitted)."""
    resumed = run(parse_spec(SPEC), RunConfig(str(out), progress=False))
    assert _rows(resumed).equals(_rows(clean_store))
    assert all(b.recorded for b in resumed.check())
    assert not list(out.rglob("*.tmp"))
    aside = sorted(p.name for p in (out / "quarantine").iterdir()) if (
        out / "quarantine").exists() else []
    assert all(n.endswith(".parquet") for n in aside), aside


def _run_dying(out, nth: int, after: bool) -> None:
    """In a child: run, and die at the ``nth`` ``os.replace`` of the second batch it writes (1:
    the batch file's rename, 2: its record's)."""
    original, writes = Store.write_batch, [0]

    def write_batch(self, *args):
        writes[0] += 1
        if writes[0] == 2:
            die_at_call(os, "replace", nth, after)
        return original(self, *args)

    Store.write_batch = write_batch
    run(parse_spec(SPEC), RunConfig(str(out), progress=False))


def test_a_kill_at_each_step_of_writing_a_batch_loses_nothing(clean, tmp_path):
    out = tmp_path / "run"
    steps = [(1, False, "the batch written to its temporary file, not renamed"),
             (1, True, "the batch renamed into place, its record not written"),
             (2, False, "the record written to its temporary file, not renamed"),
             (2, True, "batch and record in place")]
    for nth, after, state in steps:
        before = len(_whole(out))
        assert wait(fork(_run_dying, out, nth, after)) == -9, state
        batches = _whole(out)
        tmp = sorted(p.name for p in out.rglob("*.tmp"))
        last = Store(out).check()[-1]
        uncommitted = last.problem.startswith("has no record")
        if (nth, after) == (1, False):
            assert len(batches) == before + 1 and tmp and tmp[0].endswith(".parquet.tmp")
        elif (nth, after) == (1, True):                # renamed, its record not written
            assert len(batches) == before + 1 and uncommitted and not tmp, state
        elif (nth, after) == (2, False):               # the record not renamed
            assert len(batches) == before + 1 and uncommitted, state
            assert tmp and tmp[0].endswith(".json.tmp"), state
        else:
            assert len(batches) == before + 2 and not last.problem and not tmp, state
    _finish_and_compare(out, clean[0])


def _random_kills(tmp_path, clean, kills: int, seed: int, needed: int) -> int:
    """Runs on one folder, each SIGKILLed at a random moment of its share of the work (a
    fraction drawn from ``seed``), each leaving only whole batches, until ``needed`` kills
    interrupted a run in the middle or ``kills`` were made (a loaded machine runs slower than
    the clean run measured, and a kill may come before the first batch or after the last: a
    finished folder is checked and the kills go on in a new one); then the run finishes.
    Returns how many kills interrupted a run in the middle."""
    store, seconds = clean
    out, total = tmp_path / "run", len(store.done())
    interrupted = 0
    for k, fraction in enumerate(np.random.default_rng(seed).uniform(0.0, 1.0, kills)):
        if len(_whole(out)) == total:                  # finished: checked, and a new folder
            _finish_and_compare(out, store)
            out = tmp_path / f"run{k}"
        left = total - len(_whole(out))
        pid = fork(run, parse_spec(SPEC), RunConfig(str(out), progress=False))
        if kill_after(pid, fraction * seconds * max(left, 1) / total):
            interrupted += 0 < len(_whole(out)) < total
        if interrupted >= needed:
            break
    _finish_and_compare(out, store)
    return interrupted


def test_random_kills_during_a_run_lose_nothing(clean, tmp_path):
    assert _random_kills(tmp_path, clean, kills=12, seed=18, needed=2) >= 2


@pytest.mark.slow
def test_many_random_kills_during_a_run_lose_nothing(clean, tmp_path):
    assert _random_kills(tmp_path, clean, kills=90, seed=1818, needed=30) >= 30


@pytest.mark.slow
def test_random_kills_of_cardsim_run_processes(clean, tmp_path):
    """``cardsim run`` processes killed at random moments after their first batch is in place;
    the resumed run equals an uninterrupted one."""
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text('game = "scopa"\nagents = ["heuristic", "random"]\nseed = 7\n'
                         'batch_size = 1\n[size]\ndeals = 16\n')
    assert load_spec(spec_file) == parse_spec(SPEC)
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "cardsim", "run", str(spec_file), "--out", str(out),
            "--quiet"]
    _, seconds = clean
    for fraction in np.random.default_rng(81).uniform(0.0, 1.0, 8):
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = len(list(out.glob("batches/*.parquet")))
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and len(
                list(out.glob("batches/*.parquet"))) == seen:
            time.sleep(0.005)
        time.sleep(fraction * seconds / 2)
        proc.kill()
        proc.wait()
        _whole(out)
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    _finish_and_compare(out, clean[0])
