"""The results store of an experiment: a folder with ``manifest.json`` and one Parquet file per
finished batch.

``manifest.json`` holds the schema version, the package version, the full spec and the root
seed. A batch file is written to a temporary name and renamed into place, so a run killed at
any moment (even by SIGKILL) leaves only whole batches; leftovers are removed when the store
is opened again, and the run resumes with the batches that are missing. A changed spec on an
existing folder is refused.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pandas as pd

from cardsim import __version__
from cardsim.errors import CardsimError

SCHEMA_VERSION = 1
_BATCH = re.compile(r"^m(\d{3})-b(\d{6})\.parquet$")


class StoreError(CardsimError):
    """A folder that cannot hold (or does not hold) this experiment."""


class Store:
    """An experiment folder (module docstring)."""

    def __init__(self, path) -> None:
        self.path = Path(path)
        self.batches = self.path / "batches"

    # --- opening -----------------------------------------------------------------------------

    @classmethod
    def create_or_resume(cls, path, spec: dict) -> "Store":
        """Open ``path`` for ``spec``: a new folder gets a manifest; an existing one must hold
        the same spec (else :class:`StoreError` says which key differs)."""
        store = cls(path)
        if (store.path / "manifest.json").exists():
            old = store.manifest()["spec"]
            if old != spec:
                keys = sorted(k for k in set(old) | set(spec) if old.get(k) != spec.get(k))
                raise StoreError(
                    f"{store.path} holds a different experiment ({', '.join(keys)} differ: "
                    f"{keys[0]}={old.get(keys[0])!r} there, {spec.get(keys[0])!r} here); use "
                    "another folder (--out) or the same spec")
        else:
            if store.path.exists() and any(store.path.iterdir()):
                raise StoreError(f"{store.path} is not empty and holds no manifest.json: "
                                 "choose an empty or new folder")
            store.batches.mkdir(parents=True, exist_ok=True)
            store._write_json("manifest.json", {
                "schema_version": SCHEMA_VERSION, "package_version": __version__,
                "spec": spec, "root_seed": spec["seed"]})
        store.batches.mkdir(parents=True, exist_ok=True)
        for leftover in store.batches.glob("*.tmp"):
            leftover.unlink()
        return store

    @classmethod
    def open(cls, path) -> "Store":
        """An existing store, for reading (reports, tables)."""
        store = cls(path)
        if not (store.path / "manifest.json").exists():
            raise StoreError(f"{store.path} holds no experiment (no manifest.json)")
        store.manifest()
        return store

    def manifest(self) -> dict:
        try:
            manifest = json.loads((self.path / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise StoreError(f"{self.path}/manifest.json cannot be read: {e}") from None
        version = manifest.get("schema_version")
        if version != SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written with store schema version {version!r}; "
                             f"this cardsim ({__version__}) reads version {SCHEMA_VERSION}: "
                             "rerun the experiment with this version")
        return manifest

    # --- batches -----------------------------------------------------------------------------

    def done(self) -> set[tuple[int, int]]:
        """(matchup, batch) of every finished batch."""
        out = set()
        for f in self.batches.iterdir():
            m = _BATCH.match(f.name)
            if m:
                out.add((int(m.group(1)), int(m.group(2))))
        return out

    def write_batch(self, matchup: int, batch: int, rows: pd.DataFrame) -> None:
        """Write one batch atomically (temporary file, then rename)."""
        final = self.batches / f"m{matchup:03d}-b{batch:06d}.parquet"
        tmp = final.with_suffix(".tmp")
        rows.to_parquet(tmp, index=False)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, final)

    def rows(self) -> pd.DataFrame:
        """Every finished batch's rows, in (matchup, batch, deal, rotation) order."""
        files = sorted(f for f in self.batches.iterdir() if _BATCH.match(f.name))
        if not files:
            return pd.DataFrame()
        rows = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
        return rows.sort_values(["matchup", "batch", "deal", "rotation"],
                                kind="stable").reset_index(drop=True)

    def _write_json(self, name: str, data: dict) -> None:
        tmp = self.path / (name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path / name)
