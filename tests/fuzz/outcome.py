"""What the fuzz suite asks of every command: it works (status 0) or fails with one line
``cardsim: error: …`` and status 2, never a traceback."""
from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import signal
import sys
from collections import Counter
from pathlib import Path

from cardsim.app import cli

SLOW_EXAMPLES = int(os.environ.get("CARDSIM_FUZZ_EXAMPLES", "2000"))
"""Inputs each slow fuzz test tries: the environment variable ``CARDSIM_FUZZ_EXAMPLES``, else
a count that keeps the whole slow suite within an hour on two cores (``100000`` for a long
run)."""

HANG = 600
"""Seconds after which a command counts as hung (a cold compile of the agent loop takes up to
a minute or two; every fuzzed command does tiny work once compiled)."""


class Hung(AssertionError):
    """A command still running after :data:`HANG` seconds."""


def run_cli(argv: list[str], root: Path) -> tuple[int, str, str]:
    """``main(argv)`` in ``root``, stdin empty: (status, stdout, stderr). A command still
    running after :data:`HANG` seconds fails the test (:class:`Hung`) instead of stalling the
    fuzzing (the alarm interrupts the Python code between two compiled calls)."""
    out, err = io.StringIO(), io.StringIO()
    cwd, stdin = os.getcwd(), sys.stdin
    os.chdir(root)
    sys.stdin = io.StringIO("")

    def hung(signum, frame):
        raise Hung(f"{argv}: still running after {HANG} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as e:            # --help, --version
                code = e.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(cwd)
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def works_or_one_line(argv: list[str], code: int, err: str) -> list[str]:
    """Assert that ``main(argv)`` worked or failed in one line (the last of stderr; a progress
    bar or a compile notice may come before it); returns its error lines."""
    assert "Traceback" not in err, f"{argv}: {err}"
    assert code in (0, 2), f"{argv}: exit {code}: {err}"
    lines = err.rstrip("\n").split("\n")
    errors = [line for line in lines if "cardsim: error:" in line]
    if code == 2:
        assert len(errors) == 1 and lines[-1].startswith("cardsim: error: ") and lines[-1][16:], \
            f"{argv}: not one error line: {err!r}"
    else:
        assert not errors, f"{argv}: exit 0 with {err!r}"
    return errors


_TRIED: Counter = Counter()


def counted(fn):
    """Count the inputs a fuzz test tries (put it under ``@given``): with the environment
    variable ``CARDSIM_FUZZ_PROGRESS`` set to a file, every 1,000th input rewrites that file
    with the count of each test so far (JSON), so that a long slow run can be followed, and
    stopped with its counts known."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        _TRIED[fn.__name__] += 1
        where = os.environ.get("CARDSIM_FUZZ_PROGRESS")
        if where and _TRIED[fn.__name__] % 1000 == 0:
            Path(where).write_text(json.dumps(dict(_TRIED), indent=1, sort_keys=True))
        return fn(*args, **kwargs)
    return run
