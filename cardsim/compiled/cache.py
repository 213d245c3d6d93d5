"""Where numba keeps cardsim's compiled code: a folder per compile group and per version of its
sources.

Numba decides whether a cached function is current from its own source file only, but a
function's machine code holds every kernel it calls (they are inlined or linked in): a change
in a game's kernels would leave stale code in the cached solver. So cardsim puts each compiled
function in the folder of its *group*, named after a hash of every source its code can hold
(and of the cache files' format, :mod:`.cache_files`). A group is found by the folder its function is defined in:

====================  ==========================================  ==========================
group                 its functions                               the folder's hash covers
====================  ==========================================  ==========================
``core``              ``cardsim/compiled/`` (bits, RNG, deal order)  core
``<game>``            ``cardsim/games/<game>/``                    core, the game's package
``solvers``           ``cardsim/solvers/`` (shared by every game)   core, solvers
``<game>-solvers``    the copies of generic functions for a game   core, the game, solvers
====================  ==========================================  ==========================

A part's hashed files are those of its folder that define compiled code (a line starting
``@kernel``, ``@helper``, ``@leaf``, ``@generic``, ``@njit`` or ``@intrinsic``), every module
of the group's folders they import (a layout's or rules' constants, which compiled code bakes
in) and ``cardsim/compiled/jit.py``, which says how everything compiles. A game registered from
a package outside cardsim (``cardsim.protocol.registry.register``) is a group of its folder
like any other. A module outside the group's
folders is never hashed: editing an error message, a notation or a report compiles nothing
again. Compiled code therefore reads constants only from its group's folders, which
``tests/test_cache.py`` checks. Editing one game's kernels starts new folders for that game's
kernels and for the solvers compiled for it, and for no other game.

The folder is ``<base>/<group>-<hash>``, where ``<base>`` is ``NUMBA_CACHE_DIR`` when set, else
``<user cache>/cardsim`` (``$XDG_CACHE_HOME`` or ``~/.cache``). Folders are only ever added:
``cardsim compile --prune`` removes those of other versions. Functions outside these folders
keep numba's own places; a function of a group is never cached anywhere else, even when its
folder cannot be written (:class:`GroupLocator`).

Every function numba caches gets a :class:`GroupCache`: for a function of a group, its files
are sealed by a digest, a damaged one is removed and its function compiled again with one line
saying so, and a folder that cannot be written is read but not written, the run compiling in
memory (:mod:`.cache_files`); ``cardsim compile --repair`` removes every damaged file
(:func:`repair`).

A cached function is current when its folder's hash matches, so the index ignores file times
(a fresh clone or a reinstall of the same sources still finds its cache). The hash is of each
file's code, not its text: layout, comments and docstrings are left out, and a cached
function's file name does not hold its line, so editing a docstring, even in a kernel's
module, compiles nothing again.
"""
from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import sys
from functools import lru_cache
from pathlib import Path

from numba.core import caching, dispatcher

from . import cache_files as files

ROOT = Path(__file__).resolve().parent.parent
"""The ``cardsim`` package's folder."""
FOLDERS = {"core": ("compiled",), "solvers": ("solvers",)}
"""The folders of the shared parts, under :data:`ROOT`; a game's is ``games/<game>``."""
OUTSIDE: dict[str, Path] = {}
"""The folder of each game registered from a package outside cardsim (:func:`add_game`)."""
_COMPILED = re.compile(rb"^@(kernel|helper|leaf|generic|njit|intrinsic)\b", re.M)
"""A line that starts compiled code: such a file's source is part of its group's hash (and
``compiled/jit.py``, which says how everything compiles)."""


def base_folder() -> Path:
    """Where the group folders live (module docstring)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "cardsim"


def add_game(name: str, folder) -> None:
    """A game package outside cardsim, in ``folder``: its compiled functions are kept and
    hashed as a game's group (``None`` forgets it). Called by the registry before the game's
    modules are imported."""
    if folder is None:
        OUTSIDE.pop(name, None)
    else:
        OUTSIDE[name] = Path(folder).resolve()
    group_hash.cache_clear()


def part_folder(root: Path, part: str) -> Path:
    """The folder of one part: ``core``, ``solvers`` or a game's name."""
    if part in OUTSIDE and root == ROOT:
        return OUTSIDE[part]
    return root.joinpath(*FOLDERS.get(part, ("games", part)))


def _sources(root: Path, part: str) -> list[Path]:
    """The compiling ``.py`` files of one part (module docstring)."""
    files = sorted(part_folder(root, part).rglob("*.py"))
    return [f for f in files if f.name == "jit.py" and part == "core"
            or _COMPILED.search(f.read_bytes())]


def _imported(root: Path, path: Path) -> set[Path]:
    """The files that the module at ``path`` imports by name, relatively (``from . import
    layout as L``, ``from .rules import P_X``) or from the ``cardsim`` package in ``root``
    (``from cardsim.compiled.bits import ONE``): the constants compiled code reads from them are
    baked into its machine code."""
    found = set()
    for node in _imports_in(path.read_bytes()):
        if isinstance(node, ast.ImportFrom) and node.level:
            folder = path.parent
            for _ in range(node.level - 1):
                folder = folder.parent
            base = (folder, (node.module or "").split(".") if node.module else [])
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            module = node.module if isinstance(node, ast.ImportFrom) else ""
            parts = module.split(".") if module else []
            if parts and parts[0] != root.name:
                continue
            base = (root, parts[1:])
        else:
            continue
        folder, parts = base
        names = [a.name for a in node.names]
        for name in names:
            candidates = [parts + name.split("."), parts] if isinstance(node, ast.ImportFrom) \
                else [name.split(".")[1:]] if name.split(".")[0] == root.name else []
            for tail in candidates:
                hit = next((f for f in (folder.joinpath(*tail).with_suffix(".py"),
                                        folder.joinpath(*tail, "__init__.py"))
                            if tail and f.is_file()), None)
                if hit is not None:
                    found.add(hit)
                    break
    return found


def _hashed(root: Path, group: str) -> list[Path]:
    """The files of a group's hash: the compiling sources of its parts and, transitively, the
    modules of those parts they import (a layout's or rules' constants)."""
    allowed = [part_folder(root, p) for p in group_parts(group)]

    def inside(f: Path) -> bool:
        return any(a in f.parents for a in allowed)

    todo = [f for part in group_parts(group) for f in _sources(root, part)]
    seen: set[Path] = set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(g for g in _imported(root, f) if g not in seen and inside(g))
    return sorted(seen)


def group_parts(group: str) -> tuple[str, ...]:
    """The parts whose sources a group's code can hold (module docstring)."""
    if group == "core":
        return ("core",)
    if group == "solvers":
        return ("core", "solvers")
    if group.endswith("-solvers"):
        return ("core", group.removesuffix("-solvers"), "solvers")
    return ("core", group)


@lru_cache(maxsize=None)
def _imports_in(source: bytes) -> tuple[ast.stmt, ...]:
    """The import statements of a module's source, anywhere in it (none if it does not
    parse); kept per source, as every group's hash reads the core's files again."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    return tuple(n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


def _code_of(path: Path) -> bytes:
    """A module's code without its layout, comments and docstrings (its syntax tree with every
    bare string statement left out): what compiled code can hold of it."""
    return _code_of_source(path.read_bytes())


@lru_cache(maxsize=None)
def _code_of_source(source: bytes) -> bytes:
    """:func:`_code_of` of a module's source, kept per source."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body:
                kept = [s for s in body if not (isinstance(s, ast.Expr)
                                                and isinstance(s.value, ast.Constant)
                                                and isinstance(s.value.value, str))]
                setattr(node, name, kept or [ast.Pass()])
    return ast.dump(tree).encode()


@lru_cache(maxsize=None)
def group_hash(group: str, root: Path = ROOT) -> str:
    """A hash of the code (:func:`_code_of`) of every file of :func:`_hashed`, and of the
    cache files' format (:data:`.cache_files.MAGIC`: a cache of another format is another
    version's folder, which ``--prune`` removes)."""
    h = hashlib.sha256(files.MAGIC)
    game = part_folder(root, group.removesuffix("-solvers"))
    for f in _hashed(root, group):
        name = f.relative_to(root if root in f.parents else game.parent)
        h.update(name.as_posix().encode() + b"\0" + _code_of(f))
    return h.hexdigest()[:16]


def group_of(py_func) -> str | None:
    """The cache group of a compiled function, or None for a function outside cardsim."""
    game = getattr(py_func, "_cardsim_game", None)
    if game is not None:
        return f"{game}-solvers"
    try:
        path = Path(py_func.__code__.co_filename).resolve()
    except OSError:
        return None
    for name, folder in OUTSIDE.items():
        if folder in path.parents:
            return name
    try:
        parts = path.relative_to(ROOT).parts
    except ValueError:
        return None
    for group, folder in FOLDERS.items():
        if parts[:len(folder)] == folder and len(parts) > len(folder):
            return group
    if len(parts) >= 3 and parts[0] == "games":
        return parts[1]
    return None


def group_folder(group: str) -> Path:
    """The folder of a group's compiled code."""
    return base_folder() / f"{group}-{group_hash(group)}"


class GroupLocator(caching._CacheLocator):
    """Numba's cache locator for cardsim's functions: the folder of their group, even when it
    cannot be written (the code there is loaded, nothing is saved: module docstring)."""

    def __init__(self, py_func, py_file, group: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._group = group
        self._cache_path = str(group_folder(group))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self):
        return group_hash(self._group)

    def get_disambiguator(self) -> str:
        return "0"      # not the line: a docstring edit moves functions, not their code

    @classmethod
    def from_function(cls, py_func, py_file):
        group = group_of(py_func)
        if group is None:
            return None
        self = cls(py_func, py_file, group)
        files.check_writable(self._cache_path)
        return self


class GroupCache(caching.FunctionCache):
    """Numba's cache of one compiled function. A function of a cardsim group keeps its files
    as :class:`~.cache_files.EntryFiles`: a damaged one is removed and the function compiled
    again, with a line saying so; when its folder cannot be written it is compiled in memory,
    with a line said once (:mod:`.cache_files`). Any other function is cached as numba does."""

    def __init__(self, py_func) -> None:
        super().__init__(py_func)
        locator = self._impl.locator
        if isinstance(locator, GroupLocator):
            self._cache_file = files.EntryFiles(self._cache_path, self._impl.filename_base,
                                                locator.get_source_stamp())

    def _load_overload(self, sig, target_context):
        entry = self._cache_file
        if not isinstance(entry, files.EntryFiles):
            return super()._load_overload(sig, target_context)
        try:
            found = super()._load_overload(sig, target_context)
        except files.Damaged as e:
            files.set_aside(e.path, e.reason)
            found = None
        except Exception as e:          # a sealed file that numba cannot rebuild
            if entry.reading is None:
                raise
            files.set_aside(entry.reading, files.reason(e))
            found = None
        files.raise_kept_interrupt()
        return found

    def save_overload(self, sig, data) -> None:
        files.raise_kept_interrupt()
        if not isinstance(self._cache_file, files.EntryFiles):
            super().save_overload(sig, data)
            return
        error = files.refused() or files.UNWRITABLE.get(self._cache_path)
        if error is None:
            try:
                super().save_overload(sig, data)
                return
            except OSError as e:
                error = e
            except files.Damaged as e:  # damaged since it was read (another process)
                files.set_aside(e.path, e.reason)
                return
        files.refuse(error, self._cache_path)


def caches(py_func) -> bool:
    """Whether compiling ``py_func`` now saves it for the next run: not once this process
    writes no more compiled code, nor when its group's folder cannot be written."""
    if files.refused():
        return False
    group = group_of(py_func)
    return group is None or str(group_folder(group)) not in files.UNWRITABLE


def configure() -> None:
    """Plug cardsim into numba's caching; must run before the first ``@njit(cache=True)``
    function of cardsim is defined: :class:`GroupLocator` first among numba's locators,
    :class:`GroupCache` the cache of every function numba caches, and an interrupt that lands
    in numba's compiler kept (:func:`.cache_files.keep_interrupt`)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if GroupLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, GroupLocator)
    dispatcher.FunctionCache = GroupCache
    if sys.unraisablehook is not files.keep_interrupt:
        files.keep_interrupt.previous = sys.unraisablehook
        sys.unraisablehook = files.keep_interrupt


def _groups(games) -> list[str]:
    """Every group of this version's sources, given every game's name."""
    return ["core", "solvers", *games, *(f"{g}-solvers" for g in games)]


def prune(games) -> list[Path]:
    """Remove the group folders of other versions of the sources, given every game's name;
    returns them."""
    base = base_folder()
    if not base.is_dir():
        return []
    current = {group_folder(g).name for g in _groups(games)}
    removed = []
    for folder in sorted(base.iterdir()):
        name, _, digest = folder.name.rpartition("-")
        if folder.is_dir() and len(digest) == 16 and name and folder.name not in current:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def repair(games) -> list[tuple[Path, str, str | None]]:
    """Remove every damaged file of this version's group folders, given every game's name:
    an index that does not load, a data file whose digest does not match, anything else
    named as one of them (a folder, a link); returns (path, why, why it could not be removed
    or None) of each."""
    found = []
    for group in _groups(games):
        folder = group_folder(group)
        if not folder.is_dir():
            continue
        entry = files.EntryFiles(str(folder), "", group_hash(group))
        for path in sorted(folder.iterdir()):
            if path.suffix not in (".nbi", ".nbc"):
                continue
            try:
                entry.check(path.name)
            except OSError:
                continue
            except files.Damaged as e:
                found.append((path, e.reason, files.remove(path)))
    return found
