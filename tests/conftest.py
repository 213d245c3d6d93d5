"""Test-wide settings.

- hypothesis draws the same examples on every CI run (derandomized, so a green CI stays green
  on the same code); local runs explore new examples each time.
- **Compile once, before the test processes start.** When the whole suite runs (``python -m
  pytest``, the README's command), the controlling process first compiles (or loads) every
  game's compiled code with ``cardsim compile``'s warm-up, one process per game on every core
  the suite uses; the test processes then load it from the cache instead of compiling the same
  functions side by side. ``--warm-up`` asks for it on a partial run, ``--no-warm-up`` skips it.
- **The command line prints at 100 columns** in every test (its width when the output is not
  a terminal): ``COLUMNS``, which pytest-xdist's workers set to 80, is removed.
"""
import os
import sys
import time

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)


def pytest_addoption(parser):
    group = parser.getgroup("cardsim")
    group.addoption("--warm-up", action="store_true",
                    help="compile every game's code before the tests, even on a partial run")
    group.addoption("--no-warm-up", action="store_true",
                    help="do not compile every game's code before the tests")


def pytest_configure(config):
    if hasattr(config, "workerinput") or config.option.collectonly:
        return                                  # a test process: the controller warmed up
    if config.getoption("no_warm_up"):
        return
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS
    if not (whole or config.getoption("warm_up")):
        return
    import cardsim
    from cardsim.solvers.warmup import compile_games
    jobs = max(1, int(getattr(config.option, "numprocesses", None) or 1))
    start = time.perf_counter()
    done = []
    for result in compile_games(_heaviest_first(cardsim.list_games()), jobs=jobs, quiet=True):
        done.append(f"{result['game']} {result['compile_seconds']:.0f} s")
    sys.stderr.write(f"warm-up: compiled on {jobs} process(es) in "
                     f"{time.perf_counter() - start:.0f} s ({', '.join(done)} of compiling)\n")


def _heaviest_first(games):
    """The games in the order that keeps both cores busy: the longest compiles first."""
    order = ["mushka", "minchiate", "bura", "scopa"]   # measured: 173, 171, 158, 118 s
    return sorted(games, key=lambda g: order.index(g) if g in order else -1)
