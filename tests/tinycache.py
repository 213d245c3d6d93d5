"""Four tiny compiled functions in a folder of their own, cached as a compile group of cardsim
(a game package outside cardsim, :func:`cardsim.compiled.cache.add_game`): compiled in a
fraction of a second, for the tests of a damaged or read-only cache."""
from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path

from cardsim.compiled import cache

SOURCE = '''
from numba import njit


@njit(cache=True)
def plus(x):
    return x + 1


@njit(cache=True)
def minus(x):
    return x - 1


@njit(cache=True)
def times(x):
    return x * 3


@njit(cache=True)
def half(x):
    return x // 2
'''
NAMES = ("plus", "minus", "times", "half")
RESULTS = {"plus": 7, "minus": 5, "times": 18, "half": 3}
"""Each function's value at 6."""
GROUP = "tiny"


@contextmanager
def registered(folder: Path):
    """``folder`` with ``tiny.py`` in it (written if missing), a compile group while the block runs."""
    source = folder / "tiny.py"
    if not source.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        source.write_text(SOURCE)
    cache.add_game(GROUP, folder)
    try:
        yield folder
    finally:
        cache.add_game(GROUP, None)


def fresh(folder: Path):
    """The module ``tiny.py`` of ``folder`` defined anew, as a new process would: each of its
    functions compiles or loads at its first call."""
    spec = importlib.util.spec_from_file_location("tiny", folder / "tiny.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["tiny"] = module            # importable by its name, as numba's cache wants
    spec.loader.exec_module(module)
    return module


def call_all(module) -> dict[str, int]:
    """Each function's value at 6."""
    return {name: int(getattr(module, name)(6)) for name in NAMES}


def loaded(module) -> dict[str, bool]:
    """Whether each function was loaded from the cache (numba's hits) rather than compiled."""
    return {name: sum(getattr(module, name).stats.cache_hits.values()) > 0 for name in NAMES}


def entry_files(folder: Path, name: str) -> tuple[Path, Path]:
    """The index and the (first) data file of the function ``name`` in the group folder."""
    base = f"tiny.{name}-0.py{sys.version_info[0]}{sys.version_info[1]}{sys.abiflags}"
    return folder / f"{base}.nbi", folder / f"{base}.1.nbc"
