"""What a command says while numba compiles: what it compiles, for which game, and that it is
alive (DESIGN.md §6).

:func:`watch` listens to numba's compile events. When a compile has run for
``after`` seconds it shows, on stderr, the game and the part being compiled with the time
spent so far — ``compiling scopa: the agent loop (random, heuristic, ISMCTS) … 12 s`` — redrawn
every second on a terminal, a line every ``every`` seconds otherwise; when that compile ends it
says how long it took, and that it is cached for the next run unless the cache cannot be
written (:mod:`.cache_files`). Figures are measured, never guessed; code loaded from the cache is not
announced (it takes milliseconds).

>>> with watch(stream=None) as log:
...     pass
>>> log.seconds
0.0
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from numba.core import event

from .cache import caches, group_of
from .cache_files import raise_kept_interrupt

# module -> what its compiled code is, for people
_PARTS = {
    "cardsim.solvers.agents": "the agent loop",
    "cardsim.solvers.ismcts": "ISMCTS",
    "cardsim.solvers.pimc": "PIMC",
    "cardsim.solvers.exact": "the exact solver",
    "cardsim.solvers.analyze": "position analysis",
    "kernels": "the engine",
    "heuristic": "the heuristic player",
    "worlds": "sampled worlds",
    "exact": "the exact solver's hooks",
}
_SWITCH_WORDS = {"base": "random, heuristic", "ismcts": "random, heuristic, ISMCTS",
                 "exact": "random, heuristic, PIMC, oracle",
                 "exact_ismcts": "random, heuristic, ISMCTS, PIMC, oracle"}


def describe(py_func) -> str:
    """``<game>: <part>`` of a compiled function, for people (module docstring)."""
    module = py_func.__module__
    group = group_of(py_func) or "cardsim"
    game = group.removesuffix("-solvers")
    part = _PARTS.get(module) or _PARTS.get(module.rsplit(".", 1)[-1]) or module
    name = py_func.__qualname__
    if "__" in name and module == "cardsim.solvers.agents":
        kinds = name.rsplit("__", 1)[-1]
        part += f" ({_SWITCH_WORDS.get(kinds, kinds)})"
    if game in ("core", "solvers", "cardsim"):
        return part if part != module else f"{module}.{name.split('__')[0]}"
    return f"{game}: {part}"


@dataclass
class CompileLog:
    """What :func:`watch` saw: the outermost compiles (description, seconds) and their sum."""

    compiles: list[tuple[str, float]] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """Seconds spent compiling (outermost compiles, nested ones included in them)."""
        return float(sum(s for _, s in self.compiles))


class _Listener(event.Listener):
    """Follows numba's compile events; the outermost compile is the one reported."""

    def __init__(self, stream, tty: bool, after: float, every: float) -> None:
        self.stream, self.tty, self.after, self.every = stream, tty, after, every
        self.depth = 0
        self.started = 0.0
        self.what = ""
        self.func = None            # the running compile's function
        self.shown = False          # the running compile has been announced
        self.last = 0.0             # when it was last announced (lines mode)
        self.lock = threading.Lock()
        self.log = CompileLog()

    def on_start(self, ev) -> None:
        with self.lock:
            if self.depth == 0:
                self.started = time.perf_counter()
                self.func = ev.data["dispatcher"].py_func
                self.what = describe(self.func)
                self.shown = False
            self.depth += 1

    def on_end(self, ev) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0:
                seconds = time.perf_counter() - self.started
                self.log.compiles.append((self.what, seconds))
                if self.shown:
                    text = f"compiled {self.what} in {seconds:.1f} s" + (
                        " (cached for the next run)" if caches(self.func) else "")
                    _write(self.stream, f"\r{text}\033[K\n" if self.tty else text + "\n")
                    self.shown = False
        raise_kept_interrupt()          # a Ctrl-C numba's compiler swallowed

    def tick(self) -> None:
        """Show the running compile, if it has run for ``after`` seconds."""
        with self.lock:
            now = time.perf_counter()
            if self.depth == 0 or now - self.started < self.after:
                return
            spent = f"{self.what} … {now - self.started:.0f} s"
            if self.tty:
                _write(self.stream, f"\rcompiling {spent}\033[K")
            elif not self.shown or now - self.last >= self.every:
                _write(self.stream, f"compiling {spent} so far\n")
                self.last = now
            self.shown = True


@contextmanager
def watch(stream: Any = "stderr", after: float = 3.0, every: float = 15.0,
          tty: bool | None = None):
    """Report long compiles on ``stream`` (module docstring; default: ``sys.stderr`` as it is
    when called); yields the :class:`CompileLog`. ``stream=None`` only records; ``tty=False``
    writes lines even on a terminal (for several processes sharing one)."""
    if stream == "stderr":
        stream = sys.stderr
    if tty is None:
        try:
            tty = stream is not None and stream.isatty()
        except (AttributeError, ValueError):
            tty = False
    listener = _Listener(stream, tty, after, every)
    stop = threading.Event()

    def report() -> None:
        while not stop.wait(1.0):
            listener.tick()

    thread = None
    event.register("numba:compile", listener)
    if stream is not None:
        thread = threading.Thread(target=report, name="cardsim-compile-watch", daemon=True)
        thread.start()
    try:
        yield listener.log
    finally:
        stop.set()
        if thread is not None:
            thread.join()
        event.unregister("numba:compile", listener)


def _write(stream, text: str) -> None:
    """Write and flush; a stream closed meanwhile (a finished command's) is left alone."""
    try:
        stream.write(text)
        stream.flush()
    except (ValueError, OSError):
        pass
