"""Fuzz: results folders whose files are special, huge or crafted.

A finished run's folder (:mod:`tests.fuzz.test_store_folders`' clean run) has one or two of its
files replaced, drawn by hypothesis: a batch, a record or the manifest made a FIFO, a link to
``/dev/zero``, a link to a copy next to the folder, a sparse file one byte over its kind's
limit (:mod:`cardsim.files`; sparse, so it costs no disk) or a folder; or a batch crafted — one
of the row format's columns dropped, renamed or retyped, or a column added that the format
does not allow — with its record rewritten to match (size, rows, checksum). The contract is
:func:`tests.fuzz.test_store_folders.check_folder`'s: ``verify`` and the report's read work
or fail in one line (without blocking on a FIFO or reading ``/dev/zero``), ``cardsim run``
repairs the folder (its rows then the undamaged run's) or fails in one line, nothing is lost
(what it moved is in ``quarantine/``) and nothing outside the folder changes.

The normal run tries a few examples; ``-m slow`` tries :data:`tests.fuzz.outcome.SLOW_EXAMPLES`
(a tenth of them through the repair).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.experiments.rows import COLUMNS, SEATED, seat_columns
from cardsim.files import BATCH_BYTES, GAME_RECORD_BYTES, MANIFEST_BYTES, RECORD_BYTES
from tests.fuzz.outcome import SLOW_EXAMPLES, counted, run_cli, works_or_one_line
from tests.fuzz.test_store_folders import BATCHES, FAST, FILES, check_folder, clean_run

SPECIAL = ("fifo", "dev_zero", "link_out", "sparse", "folder")
"""What a file is replaced by."""
CRAFTS = ("drop", "rename", "retype", "extra")
"""How a batch is crafted (its record rewritten to match)."""
CORE = [*COLUMNS, *(c for stem in SEATED for c in seat_columns(stem, 2))]
"""The columns every batch of the clean run (two seats) has, with their dtypes
(:data:`cardsim.experiments.rows.COLUMNS`, :data:`~cardsim.experiments.rows.SEATED`)."""
EXTRA = [("x", "s"), ("cat_new_5", 0.0), ("end", 1), ("notes", 1.5), ("seat_7", 0)]
"""Columns a batch of the row format cannot have: an unknown one of strings, a category of a
seat the game lacks, ``end`` not strings, a deal fact not int64, a seat the game lacks."""

@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An undamaged run and its rows (:func:`tests.fuzz.test_store_folders.clean_run`)."""
    return clean_run(tmp_path_factory.mktemp("clean"))


hurts = st.lists(st.one_of(
    st.tuples(st.just("special"), st.sampled_from(SPECIAL), st.integers(0, 10 ** 6)),
    st.tuples(st.just("craft"), st.sampled_from(CRAFTS), st.integers(0, 10 ** 6))),
    min_size=1, max_size=2)
"""One or two hurts: (special or craft, how, which file or column)."""


def _limit(name: str) -> int:
    """The size limit of the file ``name`` of a results folder."""
    if name.endswith(".parquet"):
        return BATCH_BYTES
    return RECORD_BYTES if name.startswith("records/") else MANIFEST_BYTES


def hurt(root: Path, group: str, how: str, which: int) -> str:
    """Replace or craft a file of the folder ``root``; returns what was done."""
    if group == "craft":
        return craft(root, how, which)
    name = FILES[which % len(FILES)]
    path = root / name
    if not os.path.lexists(path):
        return f"{how} {name}: nothing there"
    data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "dev_zero":
        path.symlink_to("/dev/zero")
    elif how == "link_out":                    # a copy next to the folder, linked
        copy = root.parent / f"copy-{which}"
        copy.write_bytes(data)
        path.symlink_to(copy)
    elif how == "sparse":
        with open(path, "wb") as f:
            f.truncate(_limit(name) + 1)
    else:
        path.mkdir()
    return f"{how} {name}"


def craft(root: Path, how: str, which: int) -> str:
    """Rewrite a batch with a column dropped, renamed, retyped or added, and its record to
    match."""
    name = BATCHES[which % len(BATCHES)]
    path = root / "batches" / f"{name}.parquet"
    record = root / "records" / f"{name}.json"
    if path.is_symlink() or not path.is_file():
        return f"craft {name}: not a file"
    if record.is_symlink() or not record.is_file():    # a FIFO would block the write
        return f"craft {name}: its record is not a file"
    try:
        rows = pd.read_parquet(path)
    except Exception:                          # hurt already: nothing to craft
        return f"craft {name}: unreadable"
    column = CORE[which % len(CORE)]
    if column not in rows.columns:             # crafted already
        return f"craft {name}: {column} gone"
    if how == "drop":
        rows = rows.drop(columns=[column])
    elif how == "rename":
        rows = rows.rename(columns={column: f"{column}x"})
    elif how == "retype":
        kind = "float64" if rows[column].dtype == "int64" and which % 2 else str
        rows = rows.assign(**{column: rows[column].astype(kind)})
    else:
        extra, value = EXTRA[which % len(EXTRA)]
        rows = rows.assign(**{extra: value})
        column = extra
    buffer = io.BytesIO()
    rows.to_parquet(buffer, index=False)
    data = buffer.getvalue()
    path.write_bytes(data)
    record.write_text(json.dumps(
        {"bytes": len(data), "rows": len(rows), "sha256": hashlib.sha256(data).hexdigest()}))
    return f"{how} {column}"


@settings(FAST, max_examples=5)
@given(hurts)
def test_a_folder_with_special_or_crafted_files_is_repaired_or_refused_in_one_line(clean,
                                                                                  found):
    check_folder(clean, found, damage=hurt)


@pytest.mark.slow
@settings(FAST, max_examples=SLOW_EXAMPLES)
@given(hurts)
@counted
def test_slow_a_folder_with_special_or_crafted_files_is_verified_or_refused(clean, found):
    """Special and crafted folders (:data:`SLOW_EXAMPLES`) through ``verify`` and the read."""
    check_folder(clean, found, repair=False, damage=hurt)


@pytest.mark.slow
@settings(FAST, max_examples=max(1, SLOW_EXAMPLES // 10))
@given(hurts)
@counted
def test_slow_a_folder_with_special_or_crafted_files_is_repaired_or_refused(clean, found):
    """Special and crafted folders through ``verify``, the read and ``cardsim run``."""
    check_folder(clean, found, damage=hurt)


COMMANDS = (["run", "FILE"], ["review", "FILE"], ["review", "--game", "scopa", "--deal-seed", "1",
                                                  "FILE"],
            ["analyze", "scopa", "FILE", "--player", "0"])
"""Commands that read a file named on the command line (a spec, a game record, a list of
moves, a position)."""


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("how", ["fifo", "dev_zero", "sparse", "folder"])
def test_a_file_named_on_the_command_line_that_is_special_or_huge_is_refused_in_one_line(
        tmp_path, command, how):
    path = tmp_path / "file"
    if how == "fifo":
        os.mkfifo(path)
    elif how == "dev_zero":
        path.symlink_to("/dev/zero")
    elif how == "sparse":
        with open(path, "wb") as f:
            f.truncate(GAME_RECORD_BYTES + 1)
    else:
        path.mkdir()
    argv = [str(path) if a == "FILE" else a for a in command]
    code, _, err = run_cli(argv, tmp_path)
    works_or_one_line(argv, code, err)
    assert code == 2, err
