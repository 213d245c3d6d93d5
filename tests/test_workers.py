"""cardsim.workers' pools (their workers' watch of their parent is tested by
tests/experiments/test_orphans.py, with real processes), and main's handling of SIGTERM."""
from __future__ import annotations

import os
import signal
import threading
import time
import warnings

import pytest
from joblib import delayed

import cardsim.app.cli as cli
from cardsim.workers import parallel


def test_results_left_unread_give_no_warning():
    """A loop stopped by an exception leaves a pool's results unread: joblib's advice to give
    it fewer tasks is not printed (the tasks are stopped all the same)."""
    results = parallel(2, prefer="threads", return_as="generator")(
        delayed(time.sleep)(0.01) for _ in range(8))
    next(results)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results.close()
    assert not caught, [str(w.message) for w in caught]


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals are handled in the main thread only")
def test_main_stops_on_sigterm_as_on_ctrl_c_and_leaves_an_ignored_signal_ignored(
        monkeypatch, capsys):
    """SIGTERM in the middle of a command: one line, exit 143; SIGHUP ignored before (as under
    nohup) stays ignored; the handlers of before are back after."""
    seen = {}

    def make_parser():
        seen.update(term=signal.getsignal(signal.SIGTERM), hup=signal.getsignal(signal.SIGHUP))
        if seen["term"] is cli._terminate:               # else the signal would end the test
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)                                # interrupted at once
        raise AssertionError(f"SIGTERM's handler is {seen['term']}")

    monkeypatch.setattr(cli, "make_parser", make_parser)
    hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        term = signal.getsignal(signal.SIGTERM)
        started = time.monotonic()
        status = cli.main(["games"])
        assert time.monotonic() - started < 4
        assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == (
            term, signal.SIG_IGN)
    finally:
        signal.signal(signal.SIGHUP, hup)
    assert status == 143 and capsys.readouterr().err == "cardsim: terminated\n"
    assert seen["hup"] is signal.SIG_IGN
