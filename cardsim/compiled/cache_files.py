"""The files of cardsim's compiled code, and what happens when they are damaged or cannot be
written (:mod:`.cache` says where they are).

- **Sealed files.** Each compiled function has an index and a data file per signature, in
  numba's layout, each sealed by a digest (:class:`EntryFiles`). Reading one checks it is a
  regular file and its digest before anything is unpickled.
- **A damaged file** — truncated, emptied, flipped, garbage, another entry's copied over it,
  a folder, a link or a pipe in its place, or one numba cannot rebuild — is removed and its
  function compiled again, with one line on stderr (:func:`set_aside`); ``cardsim compile
  --repair`` looks for them all (:func:`cardsim.compiled.cache.repair`).
- **A folder that cannot be written** (read-only, full, not creatable): what is already there
  is loaded; what must be compiled is compiled in memory, and one line says, once, that
  nothing is cached (:func:`refuse`). Nothing is ever written elsewhere.
- **An interrupt** that lands while LLVM hands machine code back to numba is kept and raised
  again (:func:`keep_interrupt`).
"""
from __future__ import annotations

import errno
import hashlib
import io
import os
import pickle
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import numba
from numba.core import caching

MAGIC = b"cardsim1"
"""The first bytes of a checked index's or data file's sealed part (:class:`EntryFiles`)."""
VERSION = f"{numba.__version__}+{MAGIC.decode()}"
"""The version an index starts with: numba's, and the format of :class:`EntryFiles` (an index
of numba's own format, or of another numba's, is another version's: ignored, overwritten)."""


class Damaged(Exception):
    """A cache file that cannot be loaded: ``path`` and why, in a few words (``reason``)."""

    def __init__(self, path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = str(path), reason


class EntryFiles(caching.IndexDataCacheFile):
    """The index and data files of one function in a group folder, each sealed by a digest.

    A file is :data:`MAGIC`, the SHA-256 of its folder's and its own name and of its pickle,
    then the pickle (an index starts with its version, as numba's do). Reading one checks it
    is a regular file (not a folder, a link or a pipe) and its digest before unpickling
    anything, so a truncated, emptied, flipped or garbage file, or another entry's file copied
    over it, is :class:`Damaged`, never loaded as machine code. A data file holds its index
    key beside the code: two processes saving two signatures of one function at once can
    leave an index naming the other's file (numba numbers data files per index), which is
    then damage too, not another signature's code run. :attr:`reading` is the file
    :meth:`load` read last (None before it reads one): the one to blame if numba cannot
    rebuild what it read.
    """

    def __init__(self, cache_path, filename_base, source_stamp) -> None:
        super().__init__(cache_path, filename_base, source_stamp)
        self._version = VERSION
        self.reading: str | None = None

    def save(self, key, data) -> None:
        super().save(key, (key, data))

    def load(self, key):
        self.reading = None
        found = super().load(key)
        if found is None:
            return None
        if not (isinstance(found, tuple) and len(found) == 2 and found[0] == key):
            raise Damaged(self.reading, "it holds another signature's code")
        return found[1]

    def _load_index(self):
        try:
            blob = self._read(self._index_name)
        except OSError:                 # none, or none this process may read
            return {}
        if not blob:
            raise Damaged(self._index_path, "empty")
        stream = io.BytesIO(blob)
        try:
            version = _VersionReader(stream).load()
        except Exception as e:
            raise Damaged(self._index_path, reason(e)) from None
        if version != self._version:
            return {}                   # another numba's or format's: overwritten when saved
        stamp, overloads = self._unpickle(self._index_name, stream.read())
        caching._cache_log("[cache] index loaded from %r", self._index_path)
        return overloads if stamp == self._source_stamp else {}

    def _save_index(self, overloads) -> None:
        with self._open_for_write(self._index_path) as f:
            pickle.dump(self._version, f, protocol=-1)
            f.write(self._seal(self._index_name, (self._source_stamp, overloads)))
        caching._cache_log("[cache] index saved to %r", self._index_path)

    def _load_data(self, name):
        data = self._unpickle(name, self._read(name))
        caching._cache_log("[cache] data loaded from %r", self._data_path(name))
        return data

    def _save_data(self, name, data) -> None:
        with self._open_for_write(self._data_path(name)) as f:
            f.write(self._seal(name, data))
        caching._cache_log("[cache] data saved to %r", self._data_path(name))

    def _open_for_write(self, filepath):
        if os.path.isdir(filepath) and not os.path.islink(filepath):
            set_aside(filepath, "a folder, not a file")   # a file cannot replace it
        return super()._open_for_write(filepath)

    def _digest(self, name: str, pickled: bytes) -> bytes:
        label = f"{Path(self._cache_path).name}/{name}\0".encode()
        return hashlib.sha256(label + pickled).digest()

    def _seal(self, name: str, obj) -> bytes:
        pickled = self._dump(obj)
        return MAGIC + self._digest(name, pickled) + pickled

    def _unseal(self, name: str, sealed: bytes) -> bytes:
        """The pickle of a sealed file's part (:meth:`_seal`), its digest checked."""
        head = len(MAGIC) + 32
        if len(sealed) < head and MAGIC.startswith(sealed[:len(MAGIC)]):
            raise Damaged(self._data_path(name), "empty" if not sealed else "truncated")
        if not sealed.startswith(MAGIC):
            raise Damaged(self._data_path(name), "not a cardsim cache file")
        pickled = sealed[head:]
        if sealed[len(MAGIC):head] != self._digest(name, pickled):
            raise Damaged(self._data_path(name), "its checksum does not match")
        return pickled

    def _unpickle(self, name: str, sealed: bytes):
        """The object of a sealed file's part, its digest checked first."""
        pickled = self._unseal(name, sealed)
        try:
            return pickle.loads(pickled)
        except Exception as e:
            raise Damaged(self._data_path(name), reason(e)) from None

    def check(self, name: str) -> None:
        """Raise :class:`Damaged` if the folder's file ``name`` (an index, or a data file by
        its digest) cannot be loaded, ``OSError`` if it cannot be opened (:meth:`_read`)."""
        if name.endswith(".nbi"):
            EntryFiles(self._cache_path, name.removesuffix(".nbi"),
                       self._source_stamp)._load_index()
        else:
            self._unseal(name, self._read(name))

    def _read(self, name: str) -> bytes:
        """The bytes of the file ``name`` of the folder, if it is a regular file (a link is
        not followed, a pipe not waited on); ``OSError`` if there is none this process may
        open (none, or the folder unreadable or missing)."""
        path = self.reading = self._data_path(name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise Damaged(path, "a link, not a file") from None
            raise
        try:
            kind = os.fstat(fd).st_mode
            if not stat.S_ISREG(kind):
                raise Damaged(path, "a folder, not a file" if stat.S_ISDIR(kind)
                              else "not a regular file")
            with os.fdopen(os.dup(fd), "rb") as f:
                return f.read()
        except OSError as e:
            raise Damaged(path, e.strerror) from None
        finally:
            os.close(fd)


class _VersionReader(pickle.Unpickler):
    """Unpickles an index's version, a string: a damaged one cannot name a class to build."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"not a version: it names {module}.{name}")


_REFUSED: list[OSError] = []
"""Why this process has stopped writing compiled code (:func:`refuse`), if it has."""
UNWRITABLE: dict[str, OSError] = {}
"""Group folder -> why it cannot be written, found when a function of its group is defined."""
_WRITABLE: set[str] = set()
"""The group folders this process has found writable."""
_SET_ASIDE: set[str] = set()
"""The damaged files this process has said it set aside (each is said once)."""
_INTERRUPTED: list[BaseException] = []
"""An interrupt that numba's compiler swallowed (:func:`keep_interrupt`), to raise again."""


def check_writable(folder: str) -> None:
    """Note in :data:`UNWRITABLE` whether ``folder`` can be created and written (once a
    process and folder)."""
    if folder in UNWRITABLE or folder in _WRITABLE:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        UNWRITABLE[folder] = e
    else:
        _WRITABLE.add(folder)


def refused() -> OSError | None:
    """Why this process writes no more compiled code, or None while it does."""
    return _REFUSED[0] if _REFUSED else None


def refuse(error: OSError, folder: str) -> None:
    """Stop writing compiled code for the rest of the process, saying why in one line (the
    first time): what is compiled stays in memory."""
    if _REFUSED:
        return
    _REFUSED.append(error)
    why = {errno.EROFS: "is read-only", errno.EACCES: "is not writable",
           errno.EPERM: "is not writable", errno.ENOSPC: "is full",
           errno.EDQUOT: "is full (disk quota)"}.get(error.errno, "cannot be written")
    print(f"cardsim: the compile cache {folder} {why} ({error.strerror or error}): compiling "
          "in memory for this run, nothing is cached", file=sys.stderr, flush=True)


def set_aside(path, reason: str) -> None:
    """Remove a damaged cache file (:func:`remove`) and say so in one line on stderr, once a
    process and file."""
    error = remove(Path(path))
    if str(path) not in _SET_ASIDE:
        _SET_ASIDE.add(str(path))
        done = f"cannot remove it ({error})" if error else "removed it"
        print(f"cardsim: the compiled code {Path(path).parent.name}/{Path(path).name} was "
              f"damaged ({reason}): {done}, compiling again", file=sys.stderr, flush=True)


def remove(path: Path) -> str | None:
    """Remove a damaged cache file, folder or link (never what a link points to); returns why
    it could not be removed, or None.

    Removed, not kept aside: compiled code is rebuilt from the sources by compiling again, so
    a damaged copy holds nothing to recover (unlike a batch of results, which the store
    quarantines), and a removal needs no second folder, which could itself be damaged or a
    link out of the cache."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError as e:
        return e.strerror or str(e)
    return None


def reason(error: BaseException) -> str:
    """An exception in a few words, on one line."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= 100 else text[:99] + "…"


def keep_interrupt(unraisable) -> None:
    """``sys.unraisablehook``: an interrupt raised while numba's compiler was inside a C
    callback (LLVM handing back machine code) is swallowed there, and the compile fails later
    on what the callback did not do (``RuntimeError: no compiled object yet``). It is kept
    instead and raised again when the compile ends (:mod:`.compiling`'s listener) or reaches
    the cache (:class:`cardsim.compiled.cache.GroupCache`), so a Ctrl-C during a compile
    always interrupts. An LLVM handle that an interrupt left half built (llvmlite's
    ``ObjectRef`` without its ``_as_parameter_``) fails in its finaliser: that is said by no
    traceback after ``cardsim: interrupted``. Anything else goes to the previous hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        _INTERRUPTED.append(unraisable.exc_value)
    elif not _half_built(unraisable):
        keep_interrupt.previous(unraisable)


def _half_built(unraisable) -> bool:
    """Whether an unraisable error is an llvmlite handle's finaliser failing on a handle
    that an interrupt left half built (:func:`keep_interrupt`)."""
    where = unraisable.object
    return (isinstance(unraisable.exc_value, AttributeError)
            and "_as_parameter_" in str(unraisable.exc_value)
            and getattr(where, "__module__", "").startswith("llvmlite.")
            and getattr(where, "__name__", "") == "__del__")


keep_interrupt.previous = sys.unraisablehook


def raise_kept_interrupt() -> None:
    """Raise the interrupt :func:`keep_interrupt` kept, if any."""
    if _INTERRUPTED:
        _INTERRUPTED.clear()
        raise KeyboardInterrupt


