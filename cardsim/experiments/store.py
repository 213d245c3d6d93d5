"""The results store of an experiment: a folder with ``manifest.json`` and, per finished batch,
one Parquet file in ``batches/`` and its record in ``records/``.

``manifest.json`` holds the version of the rows' format (:data:`cardsim.experiments.rows.SCHEMA_VERSION`:
:mod:`cardsim.experiments.rows` defines the format; stores of the versions in
:data:`~cardsim.experiments.rows.READS` read), the package version, the full spec, its sha256
(``spec_sha256``: a spec edited by hand is refused), the root seed and what each named level
among the agents stood for (``levels``, :func:`levels_of`: a run resumed by a cardsim whose
levels differ is refused, so that one store never mixes two agents under one name). A batch
``batches/m<matchup>-b<batch>.parquet`` is written to a temporary file, synced and renamed
into place; then its record ``records/m<matchup>-b<batch>.json`` (the file's size
in bytes, its rows and its sha256) is written the same way (``batches/`` holds Parquet files
only, so that it reads as one Parquet data set). A run killed at any moment (even by SIGKILL)
leaves only whole batches; temporary leftovers are removed when a run opens the folder again.

A study may **grow**: a spec that is the folder's own with agents and matchups appended (and
perhaps another question; :func:`grows`) is taken, its manifest rewritten with the new spec
(the checksums of the specs it grew from kept in ``grown_from``), and a run computes only the
new matchups: the old ones keep their batches, whose deals and agents' streams depend only on
the seed and the matchup's place (``cardsim/experiments/runner.py``). Any other change is refused.

Every read checks each batch against its record and the rows' format. A batch that is missing
(a record without its file), truncated, fails its checksum, does not read, holds rows of another
batch or breaks the format (a column missing, of another dtype or unknown:
:func:`cardsim.experiments.rows.schema_problem` — the checksum proves the file is the one
written, the format that it holds the rows a report reads) is *damaged*: :meth:`Store.rows` (and so ``cardsim report``) refuses in one line naming it, and
:meth:`Store.check` (``cardsim verify``) lists every batch without changing anything. The
record is a batch's commit: a batch file without its record — left by a run killed between the
rename and the record, or whose record was lost — is damaged too, since nothing vouches for its
bytes (a flipped byte can leave a Parquet file readable), and the next run sets it aside and
computes it again. Only in a store of a cardsim older than the records (a manifest without
``spec_sha256``) is a batch without a record trusted, when it reads whole as Parquet and holds
its own matchup and batch; the next run records it. A run (:meth:`Store.writer`) is the folder's only writer: it holds an exclusive lock on the
folder and moves damaged batches into ``quarantine/`` (never deleting one), so that they are
computed again from their seeds. A changed spec on an existing folder is refused.

The lock (:func:`folder_lock`) is an ``flock`` on ``<folder>/.lock`` (Linux; POSIX systems):
the operating system releases it when its process ends, however it ends, so a killed run never
leaves a stale lock.

Every file is read with a size limit (:mod:`cardsim.files`: a manifest or record 1 MB, a batch
no more than its record says, 1 GB at most) and only when it is a regular file: a FIFO, a
device or a folder in its place is refused in one line, or is a damaged batch.

Nothing leads out of the folder: the lock is opened without following a link and must be a
regular file of the user's; ``batches/``, ``records/`` and ``quarantine/`` are refused when they
are links (:func:`real_folder`); a temporary file is never written through a link at its name.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import io
import json
import os
import re
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pandas as pd
import pyarrow as pa

from cardsim import __version__
from cardsim.errors import CardsimError, shown
from cardsim.files import BATCH_BYTES, MANIFEST_BYTES, RECORD_BYTES, read_limited
from cardsim.records.documents import read_document
from cardsim.solvers.agent_spec import level

from .rows import READS, SCHEMA_VERSION, schema_problem

LOCK = ".lock"
QUARANTINE = "quarantine"
_FILE = re.compile(r"^m(\d{3,})-b(\d{6,})\.(parquet|json)$")   # as batch_name writes
_KINDS = {"parquet": "batches", "json": "records"}          # where each kind of file lives


class StoreError(CardsimError):
    """A folder that cannot hold (or does not hold) this experiment, or holds damaged batches."""


@contextmanager
def folder_lock(folder, name: str = LOCK, user: str = "a `cardsim run`") -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (an ``flock`` on the file ``folder/name``, which
    keeps the holder's process id) while the block runs; :class:`StoreError` naming the holder's
    process when another process holds it, or a folder the user cannot lock (a link, not a
    folder, not theirs); the machine's faults (a full disk, a read-only file system) are
    raised as they are."""
    folder = Path(folder)
    lock = folder / name
    not_regular = (f"{lock} is not a regular file of yours: cardsim writes its lock there; "
                   "remove it and run again")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:             # a link planted where the lock goes
            raise StoreError(f"{lock} is a symbolic link: cardsim never follows a link out of "
                             "a results folder; remove it and run again") from None
        if e.errno == errno.EISDIR:
            raise StoreError(not_regular) from None
        if e.errno in (errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.ENAMETOOLONG):
            raise StoreError(f"cannot lock {folder} ({e.strerror}): choose a folder you can "
                             "write") from None
        raise                          # the machine's fault (a full disk…): the caller's line
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        os.close(fd)
        raise StoreError(not_regular)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            holder = f"process {pid}" if pid.isdigit() else "another process"
            raise StoreError(f"{folder} is in use by {holder} ({user} on it): wait for it to "
                             "end, or use another folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)                   # releases the lock


def write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step: a temporary file (never through a link planted
    at its name), synced, renamed into place (a link at ``path`` is replaced, not followed)."""
    tmp = path.with_name(path.name + ".tmp")
    if tmp.is_symlink():
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o644)
    try:
        with open(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:                    # a full disk: the part written goes, the old file stays
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def real_folder(folder: Path) -> Path:
    """``folder``, a subfolder of a results folder, when it is not a symbolic link;
    :class:`StoreError` naming the link otherwise: cardsim writes, moves and deletes only inside
    the folder it was given, never through a link out of it."""
    if folder.is_symlink():
        raise StoreError(f"{folder} is a symbolic link (to {os.readlink(folder)}): cardsim "
                         "never writes through a link out of a results folder; replace it "
                         "with a real folder")
    return folder


@dataclass(frozen=True)
class Batch:
    """One batch as read back: its rows (None when damaged), what is wrong with it ("" when
    whole) and whether a record vouches for it (False: none yet, but it reads whole)."""

    key: tuple[int, int]
    rows: pd.DataFrame | None
    problem: str = ""
    recorded: bool = True

    @property
    def name(self) -> str:
        return batch_name(*self.key)


def spec_checksum(spec: dict) -> str:
    """The sha256 of ``spec`` written as canonical JSON (sorted keys), kept in the manifest."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode("utf-8")).hexdigest()


def levels_of(spec: dict) -> dict[str, str]:
    """The agent spec string each named level among ``spec``'s agents (and a calibration
    study's evaluators) stands for in its game, in this cardsim
    (:func:`cardsim.solvers.agent_spec.level`)."""
    named = [*spec.get("agents", []), *(e.get("agent") for e in spec.get("evaluators", [])
                                         if isinstance(e, dict))]
    stands = {a.strip(): level(a.strip(), spec.get("game")) for a in named if isinstance(a, str)}
    return {name: agent for name, agent in stands.items() if agent}


GROWING = ("agents", "matchups", "question")
"""The keys of a spec that a study may grow in (module docstring)."""


def grows(old: dict, new: dict) -> bool:
    """Whether spec ``new`` is ``old`` grown: more agents or matchups, ``old``'s the first of
    them in the same order, perhaps another question, every other key the same (specs as
    stored, ``ExperimentSpec.to_dict``)."""
    if any(old.get(k) != new.get(k) for k in set(old) | set(new) if k not in GROWING):
        return False
    lists = [(list(old.get(k) or []), list(new.get(k) or [])) for k in ("agents", "matchups")]
    return (all(n[:len(o)] == o for o, n in lists)
            and any(len(n) > len(o) for o, n in lists))


def batch_name(matchup: int, batch: int) -> str:
    """A batch's file name without its suffix: ``m<matchup>-b<batch>``, at least 3 and 6
    digits (more for a matchup past 999 or a batch past 999,999: any batch of up to
    :data:`cardsim.simulate.MAX_DEALS` deals has its name)."""
    return f"m{matchup:03d}-b{batch:06d}"


def _record_of(data: bytes, rows: pd.DataFrame) -> dict:
    return {"bytes": len(data), "rows": len(rows), "sha256": hashlib.sha256(data).hexdigest()}


def in_order(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of batch frames in the store's order: (matchup, batch, deal, rotation)."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame()
    rows = pd.concat(frames, ignore_index=True)
    return rows.sort_values(["matchup", "batch", "deal", "rotation"],
                            kind="stable").reset_index(drop=True)


class Store:
    """An experiment folder (module docstring)."""

    def __init__(self, path) -> None:
        self.path = Path(path)
        self.batches = self.path / "batches"
        self.records = self.path / "records"

    # --- opening -----------------------------------------------------------------------------

    @classmethod
    @contextmanager
    def writer(cls, path, spec: dict) -> Iterator["Store"]:
        """The store at ``path`` for ``spec`` (:meth:`create_or_resume`), under the folder's
        lock until the block ends: one writer per folder."""
        _refuse_foreign(Path(path))    # before the lock file is made in someone else's folder
        with folder_lock(path):
            yield cls.create_or_resume(path, spec)

    @classmethod
    def create_or_resume(cls, path, spec: dict) -> "Store":
        """Open ``path`` for ``spec`` (the caller holds the folder's lock, :meth:`writer`): a new
        folder gets a manifest; an existing one must hold the same spec, or one it grows into
        (:func:`grows`: the manifest then takes the new spec), else :class:`StoreError` says
        which key differs. Temporary leftovers are removed."""
        store = cls(path)
        if (store.path / "manifest.json").exists():
            manifest = store.manifest()
            old = manifest["spec"]
            if old != spec and not grows(old, spec):
                keys = sorted(k for k in set(old) | set(spec) if old.get(k) != spec.get(k))
                raise StoreError(
                    f"{store.path} holds a different experiment ({', '.join(keys)} differ: "
                    f"{keys[0]}={shown(old.get(keys[0]))} there, {shown(spec.get(keys[0]))} "
                    "here); use "
                    "another folder (--out), the same spec, or one with agents and matchups "
                    "appended")
            recorded = manifest.get("levels", {})      # none in a store older than levels
            for name, now in levels_of(spec).items():
                if name in recorded and recorded[name] != now:
                    raise StoreError(
                        f"{store.path}: agent {name!r} stood for {recorded[name]!r} when this "
                        f"run began; this cardsim ({__version__}) makes it {now!r}: finish the "
                        f"run with cardsim {manifest.get('package_version', '?')}, or start "
                        "it again in another folder (--out)")
            if old != spec:
                store._grow(manifest, spec)
        else:
            _refuse_foreign(store.path)
            real_folder(store.batches).mkdir(parents=True, exist_ok=True)
            store._write_json("manifest.json", {
                "schema_version": SCHEMA_VERSION, "package_version": __version__,
                "spec": spec, "spec_sha256": spec_checksum(spec), "root_seed": spec["seed"],
                "levels": levels_of(spec)})
        for folder in (store.batches, store.records, store.path / QUARANTINE):
            if real_folder(folder).exists() and not folder.is_dir():
                raise StoreError(f"{store.path} is damaged: {folder.name} is a file, not a "
                                 "folder; move it away and run again")
        store.batches.mkdir(parents=True, exist_ok=True)
        store.records.mkdir(exist_ok=True)
        for folder in (store.path, store.batches, store.records):
            for leftover in folder.glob("*.tmp"):
                if leftover.is_file():
                    leftover.unlink()
        return store

    def _grow(self, manifest: dict, spec: dict) -> None:
        """Rewrite the manifest for ``spec``, a growth of its own (module docstring)."""
        grown = {**manifest, "spec": spec, "spec_sha256": spec_checksum(spec),
                 "levels": {**levels_of(spec), **manifest.get("levels", {})},
                 "grown_from": [*manifest.get("grown_from", []),
                                manifest.get("spec_sha256") or spec_checksum(manifest["spec"])]}
        self._write_json("manifest.json", grown)

    @classmethod
    def open(cls, path) -> "Store":
        """An existing store, for reading (reports, tables, ``cardsim verify``)."""
        store = cls(path)
        if not store.path.exists():
            raise StoreError(f"{store.path}: no such folder (a results folder, as `cardsim run "
                             "SPEC --out FOLDER` makes)")
        if not store.path.is_dir():
            raise StoreError(f"{store.path} is a file, not a results folder")
        if not (store.path / "manifest.json").exists():
            raise StoreError(f"{store.path} holds no experiment (no manifest.json)")
        store.manifest()
        return store

    def manifest(self) -> dict:
        """The folder's manifest, checked: a JSON object of this schema version whose spec is
        an object and matches its checksum (``spec_sha256``; a manifest of a cardsim older than
        the checksum has none, and is trusted)."""
        where = f"{self.path}/manifest.json"
        manifest = read_document(self.path / "manifest.json", "JSON", StoreError,
                                 limit=MANIFEST_BYTES, what="a results folder's manifest")
        if not isinstance(manifest, dict):
            raise StoreError(f"{where} is damaged: a JSON object was expected, not "
                             f"{type(manifest).__name__}")
        version = manifest.get("schema_version")
        if version not in READS or isinstance(version, bool):
            raise StoreError(f"{self.path} was written with store schema version {version!r}; "
                             f"this cardsim ({__version__}) reads versions "
                             f"{', '.join(map(str, READS))}: rerun the experiment with this "
                             "version")
        spec = manifest.get("spec")
        if not isinstance(spec, dict):
            raise StoreError(f"{where} is damaged: its spec is not an object")
        if "spec_sha256" in manifest and manifest["spec_sha256"] != spec_checksum(spec):
            raise StoreError(f"{where} is damaged: its spec does not match its checksum "
                             "(spec_sha256); restore the manifest, or run the experiment again "
                             "in a new folder")
        levels = manifest.get("levels", {})
        if not (isinstance(levels, dict) and all(isinstance(v, str) for v in levels.values())):
            raise StoreError(f"{where} is damaged: its levels are not an object of agent "
                             "spec strings")
        return manifest

    # --- batches -----------------------------------------------------------------------------

    def done(self) -> set[tuple[int, int]]:
        """(matchup, batch) of every batch file in the store (after :meth:`repair`: every
        finished batch)."""
        return {k for k, kind in self._files() if kind == "parquet"}

    def write_batch(self, matchup: int, batch: int, rows: pd.DataFrame) -> pd.DataFrame:
        """Write one batch, then its record, each in one step (:func:`write_synced`); returns
        the rows as a read of the store gives them back (from the bytes written)."""
        buffer = io.BytesIO()
        rows.to_parquet(buffer, index=False)
        data = buffer.getvalue()
        name = batch_name(matchup, batch)
        write_synced(self.batches / f"{name}.parquet", data)
        self._write_record(name, _record_of(data, rows))
        return pd.read_parquet(io.BytesIO(data))

    def check(self) -> list[Batch]:
        """Every batch (a file or a record), read and checked against its record and the
        store's schema, in (matchup, batch) order. Changes nothing."""
        return list(self.each())

    def each(self) -> Iterator[Batch]:
        """:meth:`check`'s batches one by one, each read when its turn comes (a caller that
        keeps none holds one batch's rows at a time)."""
        manifest = self.manifest()
        for key in sorted({k for k, _ in self._files()}):
            yield self._read(key, manifest)

    def rows(self) -> pd.DataFrame:
        """Every finished batch's rows, in (matchup, batch, deal, rotation) order;
        :class:`StoreError` naming the first damaged batch, if any."""
        batches = self.check()
        damaged = [b for b in batches if b.problem]
        if damaged:
            raise self.damage_error(damaged)
        return in_order([b.rows for b in batches])

    def damage_error(self, damaged: list[Batch]) -> StoreError:
        """The one-line refusal of a store with ``damaged`` batches: the first, how many more,
        and what to do."""
        first, more = damaged[0], damaged[1:]
        also = ""
        if more:
            names = ", ".join(b.name for b in more[:3]) + (", ..." if len(more) > 3 else "")
            also = f" (and {len(more)} more damaged: {names})"
        return StoreError(f"{self.path}: batch {first.name} {first.problem}{also}: run "
                          f"`cardsim run {self.path}` to set the damaged batches aside and "
                          "compute them again")

    def repair(self) -> tuple[list[tuple[Batch, Path]], list[Batch]]:
        """Move every damaged batch (its file and its record) into ``quarantine/`` and record
        every whole batch that has no record; the caller holds the lock (:meth:`writer`).
        Returns (damaged batch, ``quarantine/<n>-<name>``: its new name without the suffix) and
        the batches recorded."""
        moved, recorded = [], []
        for b in self.each():
            if b.problem:
                moved.append((Batch(b.key, None, b.problem), self._quarantine(b.name)))
            elif not b.recorded:
                data = read_limited(self.batches / f"{b.name}.parquet", BATCH_BYTES, "a batch",
                                    StoreError)
                self._write_record(b.name, _record_of(data, b.rows))
                recorded.append(Batch(b.key, None, recorded=False))
        return moved, recorded

    # --- inside ------------------------------------------------------------------------------

    def _files(self) -> list[tuple[tuple[int, int], str]]:
        """((matchup, batch), "parquet" or "json") of every batch file and record."""
        found = [(kind, _FILE.match(f.name)) for kind, folder in _KINDS.items()
                 if (self.path / folder).is_dir() for f in (self.path / folder).iterdir()]
        return [((int(m.group(1)), int(m.group(2))), kind) for kind, m in found
                if m and m.group(3) == kind
                and batch_name(int(m.group(1)), int(m.group(2))) == m.group(0).rsplit(".")[0]]

    def _read(self, key: tuple[int, int], manifest: dict) -> Batch:
        """Batch ``key`` read back whole (one bounded read of its file,
        :func:`cardsim.files.read_limited`) and checked (module docstring) in the store of
        ``manifest`` (an older cardsim's, without ``spec_sha256``, has no records)."""
        name = batch_name(*key)
        record = None
        where = self.records / f"{name}.json"
        if os.path.lexists(where):
            try:
                record = json.loads(read_limited(where, RECORD_BYTES, "a batch record",
                                                 StoreError))
            except (ValueError, RecursionError):        # a StoreError too
                record = None
            if not (isinstance(record, dict) and isinstance(record.get("bytes"), int)
                    and isinstance(record.get("rows"), int)
                    and isinstance(record.get("sha256"), str)):
                return Batch(key, None, f"has an unreadable record ({name}.json)")
        path = self.batches / f"{name}.parquet"
        if not os.path.lexists(path):
            said = f" (its record says {record['rows']:,} rows)" if record else ""
            return Batch(key, None, f"is missing{said}")
        if record is None and "spec_sha256" in manifest:
            return Batch(key, None, "has no record (its run stopped before recording it, or the "
                                    "record was lost): its rows cannot be vouched for")
        size = _size(path)
        if record is not None and size is not None and size != record["bytes"]:
            return Batch(key, None, _length_problem(size, record["bytes"]))
        try:                       # no more than the record says: a file can grow meanwhile
            data = read_limited(path, min(BATCH_BYTES, record["bytes"]) if record
                                else BATCH_BYTES, "a batch", StoreError)
        except StoreError as e:
            return Batch(key, None, f"cannot be read ({str(e).removeprefix(f'{path} ')})")
        if record is not None:
            if len(data) != record["bytes"]:
                return Batch(key, None, _length_problem(len(data), record["bytes"]))
            if hashlib.sha256(data).hexdigest() != record["sha256"]:
                return Batch(key, None, "fails its checksum (sha256 of the file differs from "
                                        "its record)")
        try:
            rows = pd.read_parquet(io.BytesIO(data))
        except (pa.ArrowException, OSError, ValueError) as e:
            return Batch(key, None, "does not read as Parquet ("
                         + (str(e).splitlines() or [type(e).__name__])[0] + ")")
        if record is not None and len(rows) != record["rows"]:
            return Batch(key, None, f"holds {len(rows):,} rows, {record['rows']:,} recorded")
        if not _holds(rows, key):                 # e.g. another batch's file and record
            return Batch(key, None, "holds no rows of its own matchup and batch")
        problem = _schema_problem(rows, manifest, key[0])
        if problem:
            return Batch(key, None, f"does not hold the store's columns ({problem})")
        return Batch(key, rows, recorded=record is not None)

    def _quarantine(self, name: str) -> Path:
        """Move batch ``name``'s file and record to ``quarantine/<n>-<name>.*`` (n counts up);
        the file first, so that a kill in between leaves a record without its file (missing,
        set aside next time), never an unrecorded damaged file. Returns
        ``quarantine/<n>-<name>``."""
        folder = real_folder(self.path / QUARANTINE)
        folder.mkdir(exist_ok=True)
        taken = [int(p.name.split("-", 1)[0]) for p in folder.iterdir()
                 if p.name.split("-", 1)[0].isdigit()]
        dest = folder / f"{max(taken, default=0) + 1:04d}-{name}"
        for kind, where in _KINDS.items():
            src = self.path / where / f"{name}.{kind}"
            if src.exists():
                os.replace(src, dest.with_name(f"{dest.name}.{kind}"))
        return dest

    def _write_record(self, name: str, record: dict) -> None:
        write_synced(self.records / f"{name}.json",
                     json.dumps(record, sort_keys=True).encode("utf-8"))

    def _write_json(self, name: str, data: dict) -> None:
        write_synced(self.path / name,
                     json.dumps(data, indent=2, sort_keys=True).encode("utf-8"))


def _size(path: Path) -> int | None:
    """The size of ``path`` when it is a regular file (links followed), else None."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _length_problem(size: int, recorded: int) -> str:
    """A batch file of ``size`` bytes whose record says ``recorded``, in words."""
    what = "is truncated" if size < recorded else "is too long"
    return f"{what} ({size:,} bytes, {recorded:,} recorded)"


def _schema_problem(rows: pd.DataFrame, manifest: dict, matchup: int) -> str:
    """What in a batch's columns breaks the schema of the store of ``manifest``
    (:func:`cardsim.experiments.rows.schema_problem`, with the seats of the batch's matchup);
    a calibration study's rows (a spec with a ``kind``) follow their own format, of which the
    matchup and batch, int64, are checked here."""
    spec = manifest["spec"]
    if "kind" in spec:
        return next((f"column {c} holds {rows[c].dtype}, expected int64"
                     for c in ("matchup", "batch") if str(rows[c].dtype) != "int64"), "")
    matchups = spec.get("matchups")
    if not (isinstance(matchups, list) and matchup < len(matchups)
            and isinstance(matchups[matchup], list)):
        return f"matchup {matchup} is not in the spec"
    return schema_problem(rows, len(matchups[matchup]), manifest["schema_version"])


def _holds(rows: pd.DataFrame, key: tuple[int, int]) -> bool:
    """Whether ``rows`` are (all) of matchup ``key[0]`` and batch ``key[1]``."""
    return (len(rows) > 0 and {"matchup", "batch"} <= set(rows.columns)
            and bool((rows["matchup"] == key[0]).all()) and bool((rows["batch"] == key[1]).all()))


def _refuse_foreign(path: Path) -> None:
    """:class:`StoreError` when ``path`` is not a folder, or a non-empty folder without a
    manifest (someone else's files; the lock file, an empty ``batches/`` and the manifest's
    temporary file alone, as a run stopped before its manifest was written leaves them, do not
    count)."""
    if path.exists() and not path.is_dir():
        raise StoreError(f"{path} is a file, not a folder: choose an empty or new folder")

    def ours(p: Path) -> bool:
        return p.name in (LOCK, "manifest.json.tmp") or (
            p.name == "batches" and p.is_dir() and not p.is_symlink() and not any(p.iterdir()))
    if (path.is_dir() and not (path / "manifest.json").exists()
            and not all(ours(p) for p in path.iterdir())):
        raise StoreError(f"{path} is not empty and holds no manifest.json: "
                         "choose an empty or new folder")
