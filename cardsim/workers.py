"""Worker processes that end with the process that started them.

Every pool of local worker processes in cardsim is :func:`parallel`'s (joblib's ``Parallel``),
whose workers each run :func:`watch_parent` as they start: a thread that ends the worker once
the process that started it has gone, however it went (SIGKILL included), within
:data:`PERIOD` seconds. A worker busy in a compiled kernel (which holds the interpreter) ends
when the kernel returns. A parent stopped by an exception (Ctrl-C, or SIGTERM:
:func:`cardsim.app.cli.main`) stops its workers itself, as joblib does on any exception.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from joblib import Parallel

PERIOD = 1.0
"""Seconds between a worker's checks that its parent is alive."""


class _Parallel(Parallel):
    """joblib's ``Parallel``, silent when its results are left unread: that happens only when
    an exception (an interrupt, an error) stops the loop reading them, and joblib's warning
    would advise a smaller input."""

    def _warn_exit_early(self) -> None:
        pass


TRACKER_QUIET = "ignore:resource_tracker:UserWarning"
"""The ``-W`` option that keeps loky's resource tracker from printing, after this process was
killed (SIGKILL: it could not say which shared objects it had finished with), that it found
"leaked" semaphores and folders: the tracker removes them all the same, and a user can do
nothing with the warning. The tracker is started with this process's ``-W`` options."""


def parallel(n_jobs: int, **kwargs) -> Parallel:
    """``joblib.Parallel(n_jobs, **kwargs)`` whose worker processes end when this process
    does (:func:`watch_parent`), and whose resource tracker cleans up silently after a killed
    parent (:data:`TRACKER_QUIET`)."""
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)
    return _Parallel(n_jobs=n_jobs, initializer=watch_parent, initargs=(os.getpid(),), **kwargs)


def watch_parent(parent: int, period: float = PERIOD) -> None:
    """Start a daemon thread that ends this process (exit status 1) once its parent is no
    longer the process ``parent`` (an orphan's parent is another)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(period)
        os._exit(1)

    threading.Thread(target=watch, name="cardsim-watch-parent", daemon=True).start()
