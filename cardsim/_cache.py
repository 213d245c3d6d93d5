"""Where numba keeps cardsim's compiled code: one folder per version of the compiled sources.

Numba decides whether a cached function is current from its own source file only: a change in
a kernel that another module's cached function inlines (the game kernels inside the agents'
loop, the solver's hooks inside the solver) would leave stale machine code in use. So, unless
``NUMBA_CACHE_DIR`` is set, the cache goes to ``<user cache>/cardsim/numba-<hash>``, where the
hash covers every source file of ``cardsim`` and ``solvers`` that holds compiled code: any
change to one of them starts a fresh cache. Folders of other versions unused for a week are
removed.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

_PACKAGES = ("cardsim", "solvers")
_KEEP_SECONDS = 7 * 24 * 3600


def sources_hash(root: Path) -> str:
    """A hash of every ``.py`` file of cardsim and solvers that uses numba's ``njit``."""
    h = hashlib.sha256()
    for package in _PACKAGES:
        for f in sorted((root / package).rglob("*.py")):
            data = f.read_bytes()
            if b"njit" in data:
                h.update(f.relative_to(root).as_posix().encode() + b"\0" + data)
    return h.hexdigest()[:16]


def _user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) if base else Path.home() / ".cache"


def configure() -> None:
    """Point numba's cache at this version's folder (module docstring); must run before the
    first ``@njit(cache=True)`` function is defined."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import numba
    root = Path(__file__).resolve().parent.parent
    try:
        parent = _user_cache() / "cardsim"
        folder = parent / f"numba-{sources_hash(root)}"
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
    except OSError:
        return                              # no writable user cache: numba's own default
    numba.config.CACHE_DIR = str(folder)
    now = time.time()
    for old in parent.glob("numba-*"):
        try:
            if old != folder and now - old.stat().st_mtime > _KEEP_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass
