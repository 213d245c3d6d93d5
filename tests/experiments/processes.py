"""Child processes for the store's kill and lock tests: a function run in a forked copy of the
test process (its modules, compiled code included, already loaded, so a child starts in
milliseconds), SIGKILL at a chosen moment, and a process's descendants (Linux's ``/proc``).

A forked child shares the parent's inter-process locks: tqdm's write lock holds a
multiprocessing lock, and a child killed while holding it would leave the parent waiting for
it for ever. So a child first gives tqdm a lock of its own."""
from __future__ import annotations

import os
import signal
import threading
import time
import traceback
from pathlib import Path

import tqdm.auto
import tqdm.std

TIMEOUT = 120.0                  # seconds a child may take before a test calls it hung


def fork(fn, *args) -> int:
    """Run ``fn(*args)`` in a forked child; its pid. The child exits with status 0 when ``fn``
    returns, 1 when it raises (its traceback on stderr)."""
    pid = os.fork()
    if pid == 0:                                         # pragma: no cover (the child)
        code = 1
        try:
            for cls in (tqdm.std.tqdm, tqdm.auto.tqdm):
                cls.set_lock(threading.RLock())
            fn(*args)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def wait(pid: int) -> int:
    """The child's exit status (-N when a signal N ended it); a child still running after
    TIMEOUT seconds is killed and fails the test."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.001)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"child {pid} still ran after {TIMEOUT:.0f} s")


def kill_after(pid: int, seconds: float) -> bool:
    """SIGKILL the child ``seconds`` from now, unless it ended before; True when it was killed,
    False when it had ended (with status 0, else AssertionError)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0, "the child failed (see its stderr)"
            return False
        time.sleep(0.001)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


def die_at_call(module, name: str, nth: int, after: bool) -> None:
    """In a child: replace ``module.name`` so that the process SIGKILLs itself just before
    (or just after) its ``nth`` call from now on."""
    original, calls = getattr(module, name), [0]

    def dying(*args, **kwargs):
        calls[0] += 1
        if calls[0] == nth and not after:
            os.kill(os.getpid(), signal.SIGKILL)
        result = original(*args, **kwargs)
        if calls[0] == nth and after:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(module, name, dying)


def descendants(pid: int) -> set[int]:
    """The processes that ``pid`` started, and those they started, and so on (read from
    ``/proc``: Linux)."""
    parent = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:                                     # ended meanwhile
            continue
        parent[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pids) -> set[int]:
    """Those of ``pids`` still running (a zombie, ended and not yet reaped, is not)."""
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def wait_gone(pids, seconds: float) -> set[int]:
    """Wait until none of ``pids`` runs, at most ``seconds``; those still running then."""
    deadline = time.monotonic() + seconds
    while (left := alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left
