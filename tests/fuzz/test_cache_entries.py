"""Fuzz: compile cache files, damaged.

The cache of four tiny compiled functions (:mod:`tests.tinycache`) is damaged in one to
three ways drawn by hypothesis — an index or a data file truncated, a byte flipped, emptied,
overwritten by another entry's file, made a folder, made a link to a file outside the cache.
Then the functions, defined anew as in a new process:

- give their values, with at most one line on stderr per damaged file, each saying it was
  removed and compiled again, and no traceback;
- leave every file outside the cache folder as it was (what a link points to included);
- are cached again: defined anew once more, every one loads, silently.

The normal run tries a few examples (each compiles); ``-m slow`` tries
``CARDSIM_FUZZ_EXAMPLES`` (:data:`tests.fuzz.outcome.SLOW_EXAMPLES`).
"""
from __future__ import annotations

import contextlib
import io
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardsim.compiled import cache, cache_files
from tests.fuzz.outcome import SLOW_EXAMPLES, counted
from tests.tinycache import GROUP, NAMES, RESULTS, call_all, entry_files, fresh, loaded, registered

FAST = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(FAST, max_examples=SLOW_EXAMPLES)

KINDS = ("truncate", "flip", "empty", "other", "folder", "link")
LINE = re.compile(r"cardsim: the compiled code tiny-[0-9a-f]{16}/\S+ was damaged \(.+\): "
                  r"removed it, compiling again")

damages = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 7), st.integers(0, 10 ** 6)),
                   min_size=1, max_size=3)
"""One to three damages: (kind, which of the eight files, a size, position or other file)."""


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A folder of the tiny functions and their cache, compiled once: (folder, cache base)."""
    root = tmp_path_factory.mktemp("tiny")
    with pytest.MonkeyPatch.context() as mp, registered(root / "tinygame") as folder:
        mp.setenv("NUMBA_CACHE_DIR", str(root / "cache"))
        assert call_all(fresh(folder)) == RESULTS
        yield folder, root / "cache"


def _files(group: Path) -> list[Path]:
    return [path for name in NAMES for path in entry_files(group, name)]


def damage(group: Path, outside: Path, kind: str, which: int, arg: int) -> str:
    """Damage one of the group folder's files in place; returns what was done."""
    files = _files(group)
    path = files[which % len(files)]
    if not path.is_file() or path.is_symlink():
        return f"{kind}: already damaged"
    data = path.read_bytes()
    if not data:
        return f"{kind}: empty already"
    if kind == "truncate":
        path.write_bytes(data[:arg % len(data)])
    elif kind == "flip":
        at = arg % len(data)
        path.write_bytes(data[:at] + bytes([data[at] ^ (1 + arg % 255)]) + data[at + 1:])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "other":
        other = files[arg % len(files)]
        if other.is_file() and not other.is_symlink():
            path.write_bytes(other.read_bytes())
    elif kind == "folder":
        path.unlink()
        path.mkdir()
        (path / "inside").write_bytes(b"x")
    elif kind == "link":
        path.unlink()
        path.symlink_to(outside)
    return kind


def _outside(root: Path, cache_base: Path) -> dict[str, bytes]:
    """Every file under ``root`` outside the cache (Python's own bytecode aside)."""
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and cache_base not in p.parents and p.suffix != ".pyc"}


def check_damaged_cache(pristine, hurts) -> None:
    """The oracle of the module docstring on one damaged copy of the pristine cache."""
    folder, clean = pristine
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        root = Path(tmp)
        base = root / "cache"
        shutil.copytree(clean, base)
        mp.setenv("NUMBA_CACHE_DIR", str(base))
        mp.setattr(cache_files, "_REFUSED", [])      # each example a new process
        mp.setattr(cache_files, "_SET_ASIDE", set())
        outside = root / "outside.nbc"
        outside.write_bytes(b"someone else's file")
        for hurt in hurts:
            event(damage(cache.group_folder(GROUP), outside, *hurt))
        before = _outside(root, base) | _outside(folder, base)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            module = fresh(folder)
            assert call_all(module) == RESULTS
        lines = err.getvalue().splitlines()
        assert len(lines) <= len(hurts) and all(LINE.fullmatch(line) for line in lines), lines
        assert _outside(root, base) | _outside(folder, base) == before
        again = io.StringIO()
        with contextlib.redirect_stderr(again):
            module = fresh(folder)
            assert call_all(module) == RESULTS
        assert again.getvalue() == "" and all(loaded(module).values())


@FAST
@given(damages)
def test_a_damaged_cache_entry_is_compiled_again_in_at_most_one_line(pristine, hurts):
    check_damaged_cache(pristine, hurts)


@pytest.mark.slow
@SLOW
@given(damages)
@counted
def test_slow_a_damaged_cache_entry_is_compiled_again_in_at_most_one_line(pristine, hurts):
    """Damaged caches (:data:`SLOW_EXAMPLES`)."""
    check_damaged_cache(pristine, hurts)
