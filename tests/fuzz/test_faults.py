"""Fuzz: environment faults while a run writes its store.

Hypothesis draws which of the run's system calls that write (``open`` for writing, ``mkdir``,
``fsync``, ``replace``) fails, and with which fault (a full disk, a quota, a read-only file
system, an input/output error, a permission refused). Then:

- ``cardsim run`` works, or fails in one line ``cardsim: error: …`` with exit status 1 (2 for
  a folder it may not lock: the user's to choose);
- no partly written file (``*.tmp``) is left in the folder, and nothing is written beside it;
- the same command run again, without the fault, finishes with the undamaged run's rows, and
  ``cardsim verify`` passes: nothing is lost.

The normal run tries a bounded number of examples; ``-m slow`` tries ``CARDSIM_FUZZ_EXAMPLES``
(:data:`tests.fuzz.outcome.SLOW_EXAMPLES`).
"""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from cardsim.experiments.rows import seeded
from cardsim.experiments.store import Store
from tests.fuzz.outcome import SLOW_EXAMPLES, counted, run_cli

SPEC = """game = "scopa"
agents = ["heuristic", "random"]
seed = 5
batch_size = 3

[size]
deals = 12
"""
FAULTS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EACCES)
CALLS = ("open", "mkdir", "fsync", "replace")

FAST = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
SLOW = settings(FAST, max_examples=SLOW_EXAMPLES)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The spec's file and an undamaged run's rows (without the measured seconds)."""
    root = tmp_path_factory.mktemp("faults")
    (root / "spec.toml").write_text(SPEC)
    code, _, err = run_cli(["run", "spec.toml", "--out", "clean", "--quiet"], root)
    assert code == 0, err
    return root / "spec.toml", seeded(Store(root / "clean").rows())


@contextlib.contextmanager
def failing(call: str, nth: int, fault: int):
    """The ``nth`` call (from 0) of ``os.<call>`` that writes fails with ``fault``."""
    real = getattr(os, call)
    seen = [0]

    def writes(*args, **kwargs) -> bool:
        if call == "mkdir":            # an existing folder is EEXIST, whatever the disk
            return not os.path.lexists(args[0])
        if call != "open":
            return True
        flags = args[1] if len(args) > 1 else kwargs.get("flags", 0)
        return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))

    def patched(*args, **kwargs):
        if writes(*args, **kwargs):
            seen[0] += 1
            if seen[0] - 1 == nth:
                raise OSError(fault, os.strerror(fault), str(args[0]))
        return real(*args, **kwargs)

    setattr(os, call, patched)
    try:
        yield seen
    finally:
        setattr(os, call, real)


def check(clean, call: str, nth: int, fault: int) -> None:
    spec, rows = clean
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        argv = ["run", str(spec), "--out", "run", "--quiet"]
        with failing(call, nth, fault) as seen:
            code, _, err = run_cli(argv, root)
        event(f"{call} {errno.errorcode[fault]}: {'failed' if code else 'no such call'}")
        assert "Traceback" not in err, err
        if seen[0] > nth:
            lines = err.rstrip("\n").split("\n")
            assert code in (1, 2) and lines[-1].startswith("cardsim: error: "), (call, err)
            assert sum("cardsim: error:" in line for line in lines) == 1, err
        else:
            assert code == 0, err
        assert sorted(p.name for p in root.iterdir()) in ([], ["run"])   # nothing beside it
        assert not list(root.rglob("*.tmp"))
        code, _, err = run_cli(argv, root)
        assert code == 0, err
        assert seeded(Store(root / "run").rows()).equals(rows)
        assert run_cli(["verify", "run"], root)[0] == 0


calls = st.sampled_from(CALLS)
faults = st.sampled_from(FAULTS)


@FAST
@given(call=calls, nth=st.integers(0, 12), fault=faults)
def test_a_run_stopped_by_a_fault_fails_in_one_line_and_resumes(clean, call, nth, fault):
    check(clean, call, nth, fault)


@pytest.mark.slow
@SLOW
@given(call=calls, nth=st.integers(0, 60), fault=faults)
@counted
def test_a_run_stopped_by_a_fault_fails_in_one_line_and_resumes_slow(clean, call, nth, fault):
    check(clean, call, nth, fault)
