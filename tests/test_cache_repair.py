"""A damaged, read-only or full compile cache (cardsim/compiled/cache_files.py), on four tiny
compiled functions of a group of their own (:mod:`tests.tinycache`):

- a damaged file (truncated, garbage, empty, a folder in its place, a byte flipped, another
  entry's or signature's code) is removed with one line on stderr, its function compiled
  again and cached: the next load is silent and compiles nothing; another numba's index is
  overwritten without a word;
- ``cardsim compile --repair`` lists and removes exactly the damaged files;
- a read-only cache is loaded, not compiled again, and nothing is written; a read-only,
  uncreatable or full one compiles in memory with one line, and writes nothing anywhere;
- an interrupt that numba's compiler swallows still interrupts the command (exit 130), and
  an LLVM handle it left half built shows no traceback.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from numba.core import caching

from cardsim.app import cli, engine
from cardsim.compiled import cache, cache_files
from cardsim.compiled.compiling import _Listener
from tests.tinycache import GROUP, NAMES, RESULTS, call_all, entry_files, fresh, loaded, registered

DAMAGED = re.compile(r"cardsim: the compiled code (tiny-[0-9a-f]{16}/\S+) was damaged \((.+)\): "
                     r"removed it, compiling again")


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """The tiny functions' folder, with an empty cache (``NUMBA_CACHE_DIR``)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    with registered(tmp_path / "tinygame") as folder:
        yield folder


def _compiled(folder: Path) -> Path:
    """Compile the tiny functions into the cache; returns their group folder."""
    module = fresh(folder)
    assert call_all(module) == RESULTS and not any(loaded(module).values())
    return cache.group_folder(GROUP)


def _load(folder: Path) -> tuple[dict, dict, str]:
    """The tiny functions defined anew and called: their values, which were loaded, stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        module = fresh(folder)
        values = call_all(module)
    return values, loaded(module), err.getvalue()


def test_a_damaged_file_is_removed_in_one_line_and_compiled_again(tiny):
    group = _compiled(tiny)
    plus, minus, times, half = (entry_files(group, name) for name in NAMES)
    plus[0].write_bytes(plus[0].read_bytes()[:40])                 # an index truncated
    minus[1].write_bytes(b"garbage\n" * 20)                        # data: garbage
    times[1].write_bytes(b"")                                      # data: empty
    half[0].unlink()                                               # an index: a folder
    half[0].mkdir()
    (half[0] / "x").write_bytes(b"")
    values, hits, err = _load(tiny)
    assert values == RESULTS and not any(hits.values())
    lines = err.splitlines()
    assert len(lines) == 4, err
    said = dict(DAMAGED.fullmatch(line).groups() for line in lines)
    assert set(said) == {f"{group.name}/{p.name}" for p in (plus[0], minus[1], times[1],
                                                            half[0])}
    assert said[f"{group.name}/{times[1].name}"] == "empty"
    assert said[f"{group.name}/{half[0].name}"] == "a folder, not a file"
    values, hits, err = _load(tiny)                                # cached again: silent
    assert values == RESULTS and all(hits.values()) and err == ""


def test_compiled_code_with_a_byte_changed_is_never_loaded(tiny):
    """A byte flipped in the machine code would load and run wrong: the file's digest finds
    it; another entry's file copied over one is found too (the digest covers its name)."""
    group = _compiled(tiny)
    data = entry_files(group, "plus")[1]
    flipped = bytearray(data.read_bytes())
    flipped[len(flipped) // 2] ^= 0x10
    data.write_bytes(bytes(flipped))
    entry_files(group, "minus")[1].write_bytes(entry_files(group, "times")[1].read_bytes())
    values, hits, err = _load(tiny)
    assert values == RESULTS and hits == {"plus": False, "minus": False, "times": True,
                                          "half": True}
    assert sorted(DAMAGED.fullmatch(line).group(2) for line in err.splitlines()) == \
        ["its checksum does not match"] * 2


def test_another_signatures_code_is_never_loaded(tiny):
    """Two processes saving two signatures of one function at once can leave the index
    naming the other's data file, sealed under the right name: its key tells."""
    module = fresh(tiny)
    assert module.plus(6) == 7 and module.plus(1.5) == 2.5
    group = cache.group_folder(GROUP)
    index, first = entry_files(group, "plus")
    second = first.with_name(first.name.replace(".1.nbc", ".2.nbc"))
    files = cache_files.EntryFiles(str(group), index.name.removesuffix(".nbi"),
                                   cache.group_hash(GROUP))
    files._save_data(first.name, files._load_data(second.name))
    values, hits, err = _load(tiny)
    assert values == RESULTS and not hits["plus"]
    assert DAMAGED.fullmatch(err.strip()).group(2) == "it holds another signature's code"


def test_another_numba_versions_index_is_overwritten_silently(tiny):
    group = _compiled(tiny)
    index = entry_files(group, "plus")[0]
    index.write_bytes(pickle.dumps("0.1.0") + b"numba's own index of another version")
    values, hits, err = _load(tiny)
    assert values == RESULTS and not hits["plus"] and err == ""
    values, hits, err = _load(tiny)
    assert all(hits.values()) and err == ""


def test_compile_repair_removes_exactly_the_damaged_files(tmp_path, monkeypatch, capsys):
    """Sealed files of two groups, some damaged (another entry's bytes, truncated, empty, a
    folder, a link out of the cache): ``compile --repair`` names and removes those, keeps
    the rest, and leaves what a link points to alone."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    outside = tmp_path / "outside.nbi"
    outside.write_bytes(b"not yours")
    damaged = set()
    for group in ("core", "scopa-solvers"):
        folder = cache.group_folder(group)
        folder.mkdir(parents=True)
        files = cache_files.EntryFiles(str(folder), "m.f-0.py311", cache.group_hash(group))
        files._save_index({("sig",): "m.f-0.py311.1.nbc"})
        files._save_data("m.f-0.py311.1.nbc", ("code", 1))
        good = (folder / "m.f-0.py311.1.nbc").read_bytes()
        (folder / "m.g-0.py311.1.nbc").write_bytes(good)                # another entry's
        (folder / "m.h-0.py311.nbi").write_bytes((folder / "m.f-0.py311.nbi").read_bytes()[:30])
        (folder / "m.i-0.py311.2.nbc").write_bytes(b"")
        (folder / "m.j-0.py311.3.nbc").mkdir()
        (folder / "m.k-0.py311.nbi").symlink_to(outside)
        (folder / "notes.txt").write_bytes(b"kept")
        damaged |= {f"{folder.name}/m.{x}" for x in ("g-0.py311.1.nbc", "h-0.py311.nbi",
                                                     "i-0.py311.2.nbc", "j-0.py311.3.nbc",
                                                     "k-0.py311.nbi")}
    assert cli.main(["compile", "--repair"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert {line.split()[1].rstrip(":") for line in out[:-1]} == damaged
    assert all(line.startswith("removed ") for line in out) and len(out) == 11
    assert out[-1] == f"removed 10 damaged cache file(s) from {tmp_path / 'cache'}"
    for group in ("core", "scopa-solvers"):
        assert sorted(p.name for p in cache.group_folder(group).iterdir()) == [
            "m.f-0.py311.1.nbc", "m.f-0.py311.nbi", "notes.txt"]
    assert outside.read_bytes() == b"not yours"
    assert cli.main(["compile", "--repair"]) == 0
    assert capsys.readouterr().out.startswith("removed 0 damaged cache file(s)")


def test_a_full_disk_compiles_in_memory_and_says_so_once(tiny, monkeypatch):
    """Every write fails as on a full disk (``/dev/full``): the functions compile in memory,
    one line says nothing is cached, and a compile's notice does not say it is cached."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")

    @contextlib.contextmanager
    def full(self, path):
        with open("/dev/full", "wb") as f:
            yield f

    monkeypatch.setattr(cache_files, "_REFUSED", [])
    monkeypatch.setattr(caching.IndexDataCacheFile, "_open_for_write", full)
    values, hits, err = _load(tiny)
    assert values == RESULTS and not any(hits.values())
    assert err == (f"cardsim: the compile cache {cache.group_folder(GROUP)} is full (No space "
                   "left on device): compiling in memory for this run, nothing is cached\n")
    assert not [p for p in cache.group_folder(GROUP).iterdir()]
    values, hits, err = _load(tiny)                         # said once
    assert values == RESULTS and not any(hits.values()) and err == ""
    notice = io.StringIO()
    listener = _Listener(notice, tty=False, after=0.0, every=15.0)
    module = fresh(tiny)
    listener.on_start(SimpleNamespace(data={"dispatcher": module.plus}))
    listener.tick()
    listener.on_end(None)
    assert "\ncompiled tiny: " in notice.getvalue() and "cached" not in notice.getvalue()


CHILD = """
import json, sys
from pathlib import Path
from tests.tinycache import call_all, fresh, loaded, registered
with registered(Path(sys.argv[1])) as folder:
    module = fresh(folder)
    print(json.dumps([call_all(module), loaded(module)]))
"""


def _files(root: Path) -> dict[str, tuple]:
    """Every path under ``root``: its kind, size and time of change."""
    return {str(p.relative_to(root)): (p.is_dir(), p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*"))}


def _read_only(root: Path, on: bool) -> None:
    for p in [root, *root.rglob("*")]:
        mode = p.stat().st_mode
        p.chmod(mode & ~0o222 if on else mode | stat.S_IWUSR)


def test_a_read_only_cache_is_loaded_and_nothing_is_written(tmp_path, monkeypatch):
    """A read-only cache holding the tiny functions loads them all (no compile, no line); a
    read-only empty one and one that cannot be created compile in memory with one line each.
    Nothing is written in the cache, beside the functions' source (numba's ``__pycache__``)
    or in the user's caches. Root is stripped of its right to write anywhere
    (``setpriv``)."""
    user = tmp_path / "user"
    user.mkdir()
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent),
               XDG_CACHE_HOME=str(user / "cache"), HOME=str(user), PYTHONDONTWRITEBYTECODE="1")
    prefix = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root without setpriv: a read-only folder is writable")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
    full, empty, blocked = tmp_path / "full", tmp_path / "empty", tmp_path / "file"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(full))
    with registered(tmp_path / "tinygame") as folder:
        _compiled(folder)
    empty.mkdir()
    blocked.write_bytes(b"")
    before = {p: _files(p) for p in (full, empty, user, folder)}
    _read_only(full, True)
    _read_only(empty, True)
    try:
        runs = [subprocess.Popen([*prefix, sys.executable, "-c", CHILD, str(folder)],
                                 env=dict(env, NUMBA_CACHE_DIR=str(base)), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for base in (full, empty, blocked / "cache")]
        outs = [run.communicate(timeout=120) + (run.returncode,) for run in runs]
    finally:
        _read_only(full, False)
        _read_only(empty, False)
    for _, err, code in outs:
        assert code == 0, err
    (values, hits), err = json.loads(outs[0][0]), outs[0][1]
    assert values == RESULTS and all(hits.values()) and err == ""
    for (out, err, _), why in zip(outs[1:], ("is not writable (Permission denied)",
                                             "cannot be written (Not a directory)")):
        values, hits = json.loads(out)
        assert values == RESULTS and not any(hits.values())
        assert re.fullmatch(rf"cardsim: the compile cache \S+/tiny-[0-9a-f]{{16}} {re.escape(why)}"
                            r": compiling in memory for this run, nothing is cached\n", err), err
    assert {p: _files(p) for p in before} == before
    assert blocked.read_bytes() == b""


def test_an_interrupt_swallowed_by_the_compiler_still_interrupts(tiny, monkeypatch, capsys):
    """A Ctrl-C landing while LLVM hands machine code back to numba (a C callback, where
    Python swallows it) ended a command in ``RuntimeError: no compiled object yet``; it now
    ends it as any interrupt: one line, exit 130."""
    from numba.core.registry import cpu_target
    engine_ = cpu_target.target_context.codegen()._engine._ee
    notify = engine_._object_cache_notify
    pressed = []

    def interrupted(module, buffer):
        if not pressed:
            pressed.append(1)
            raise KeyboardInterrupt
        notify(module, buffer)

    monkeypatch.setattr(engine_, "_object_cache_notify", interrupted)
    module = fresh(tiny)
    monkeypatch.setattr(engine, "cmd_games", lambda args: module.plus(1))
    assert cli.main(["games"]) == 130
    assert pressed and capsys.readouterr().err == "cardsim: interrupted\n"


def test_a_half_built_llvm_handle_says_nothing_after_an_interrupt(monkeypatch):
    """An interrupt inside llvmlite's constructor of a handle leaves it without
    ``_as_parameter_``: its finaliser's error is not shown after ``cardsim: interrupted``;
    any other unraisable error still is."""
    from llvmlite.binding import ffi
    shown = []
    monkeypatch.setattr(cache_files.keep_interrupt, "previous", shown.append)
    half = SimpleNamespace(object=ffi.ObjectRef.__del__, exc_value=AttributeError(
        "'PassBuilder' object has no attribute '_as_parameter_'"))
    other = SimpleNamespace(object=ffi.ObjectRef.__del__, exc_value=ValueError("a bug"))
    cache_files.keep_interrupt(half)
    cache_files.keep_interrupt(other)
    assert shown == [other]
