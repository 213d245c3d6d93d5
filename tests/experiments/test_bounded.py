"""Bounded by design: a run of any size starts at once in little memory, every file is read
with a size limit and only when it is a regular file, an error quotes long input cut, and a
batch whose columns break the store's row format is damage (named by ``cardsim verify``, set
aside and computed again by ``cardsim run``)."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import socket
import tracemalloc

import pandas as pd
import pytest

from cardsim.app.cli import main
from cardsim.errors import CardsimError, shown
from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import parse_spec
from cardsim.experiments.store import QUARANTINE, Store, StoreError
from cardsim.files import FileError, read_limited
from cardsim.reports import load_run
from cardsim.simulate import MAX_DEALS

SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 4, "batch_size": 4,
        "size": {"deals": 8}}                                       # 2 batches of 8 rows


# --- a run of the most deals -------------------------------------------------------------------

@pytest.mark.parametrize("size", [{"deals": MAX_DEALS},
                                  {"half_width": 1e-9, "max_deals": MAX_DEALS}],
                         ids=["fixed", "sequential"])
def test_a_run_of_the_most_deals_starts_at_once_in_little_memory(tmp_path, monkeypatch, size):
    """The batches are handed out as they are generated (a list of every batch of 2**63 - 1
    deals could not be built): the first is written, in a few MB."""
    s = parse_spec({**SPEC, "batch_size": 2, "size": size})
    run(parse_spec({**SPEC, "size": {"deals": 2}}), RunConfig(str(tmp_path / "warm"),
                                                              progress=False))
    written = Store.write_batch

    def write_then_stop(self, matchup, batch, rows):
        written(self, matchup, batch, rows)
        raise KeyboardInterrupt
    monkeypatch.setattr(Store, "write_batch", write_then_stop)
    tracemalloc.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run(s, RunConfig(str(tmp_path / "run"), progress=False))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [p.name for p in (tmp_path / "run" / "batches").iterdir()] == \
        ["m000-b000000.parquet"]
    assert peak < 16 * 2 ** 20, f"{peak / 2 ** 20:.1f} MB"


def test_a_batch_numbered_past_a_million_has_a_name_the_store_reads(tmp_path):
    store = run(parse_spec(SPEC), RunConfig(str(tmp_path / "run"), progress=False))
    rows = store.rows()
    far = rows[rows["batch"] == 1].assign(batch=10 ** 7)
    store.write_batch(0, 10 ** 7, far)
    assert (store.batches / "m000-b10000000.parquet").is_file()
    shutil.copy(store.batches / "m000-b000001.parquet", store.batches / "m000-b0000001.parquet")
    assert store.done() == {(0, 0), (0, 1), (0, 10 ** 7)}   # a name it never writes: not a batch
    assert not [b for b in store.check() if b.problem]


# --- bounded reads ----------------------------------------------------------------------------

def test_read_limited_reads_a_regular_file_up_to_its_limit(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_limited(path, 10, "a test") == b"x" * 10
    with pytest.raises(FileError, match=rf"^{path} is too large for a test: 10 bytes, at most "
                                        "9$"):
        read_limited(path, 9, "a test")
    with pytest.raises(StoreError, match="cannot read .*: No such file"):
        read_limited(tmp_path / "none", 9, "a test", StoreError)


def test_read_limited_refuses_special_files_without_blocking(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as f:
        f.truncate(2 ** 40)                                         # 1 TB, no disk used
    server = socket.socket(socket.AF_UNIX)
    sock = tmp_path / "s"
    server.bind(str(sock))
    try:
        for path, said in [(fifo, "a FIFO"), ("/dev/zero", "a character device"),
                           (tmp_path, "a folder"), (sock, "not a regular file"),
                           (sparse, "too large for a test: 1,099,511,627,776 bytes")]:
            with pytest.raises(FileError, match=said) as e:
                read_limited(path, 100, "a test")
            assert "\n" not in str(e.value)
    finally:
        server.close()


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardsim: error: ")
    return err


@pytest.mark.parametrize("argv,said", [
    (["run", "/dev/zero"], "/dev/zero is a character device, not a regular file: a spec"),
    (["review", "/dev/zero"], "a game record"),
    (["analyze", "scopa", "/dev/zero", "--player", "0"], "a position or game record"),
    (["review", "FIFO"], "is a FIFO (named pipe), not a regular file"),
    (["run", "SPARSE"], "is too large for a spec: 1,048,577 bytes, at most 1,048,576"),
])
def test_the_command_line_refuses_special_and_huge_files_in_one_line(tmp_path, capsys, argv,
                                                                      said):
    os.mkfifo(tmp_path / "fifo")
    with open(tmp_path / "sparse.toml", "wb") as f:
        f.truncate(2 ** 20 + 1)
    argv = [{"FIFO": str(tmp_path / "fifo"), "SPARSE": str(tmp_path / "sparse.toml")}.get(a, a)
            for a in argv]
    assert main(argv) == 2
    assert said in _one_line(capsys)


@pytest.mark.parametrize("how", ["dev_zero", "fifo"])
def test_a_manifest_that_is_no_file_is_refused_in_one_line(tmp_path, capsys, how):
    store = run(parse_spec(SPEC), RunConfig(str(tmp_path / "run"), progress=False))
    manifest = store.path / "manifest.json"
    manifest.unlink()
    if how == "fifo":
        os.mkfifo(manifest)
    else:
        manifest.symlink_to("/dev/zero")
    for command in ("verify", "run", "report"):
        assert main([command, str(store.path)]) == 2
        assert "manifest.json is a " in _one_line(capsys)


def test_a_batch_or_record_that_is_no_file_is_damage(tmp_path, capsys):
    store = run(parse_spec(SPEC), RunConfig(str(tmp_path / "run"), progress=False))
    clean = seeded(store.rows())
    (store.records / "m000-b000000.json").unlink()
    os.mkfifo(store.records / "m000-b000000.json")
    (store.batches / "m000-b000001.parquet").unlink()
    (store.batches / "m000-b000001.parquet").symlink_to("/dev/zero")
    problems = {b.name: b.problem for b in store.check()}
    assert problems == {"m000-b000000": "has an unreadable record (m000-b000000.json)",
                        "m000-b000001": "cannot be read (is a character device, not a "
                                        "regular file: a batch is read from a file)"}
    assert main(["run", str(store.path), "--quiet"]) == 0
    assert seeded(store.rows()).equals(clean)
    assert len(list((store.path / QUARANTINE).iterdir())) == 4


# --- echoed input ---------------------------------------------------------------------------

def test_shown_cuts_a_long_value_and_says_its_length():
    assert shown("ab") == "'ab'" and shown(12) == "12"
    assert shown("x" * 1000, 5) == "'xxxxx…' (1,000 characters)"
    assert shown(list(range(1000)), 10) == "[0, 1, 2, … (4,890 characters)"


def test_a_huge_move_is_quoted_cut(tmp_path):
    from cardsim.game import load_game
    from cardsim.records.replay import from_moves
    with pytest.raises(CardsimError) as e:
        from_moves(load_game("scopa"), ["x" * 50_000_000], seed=1)
    assert len(str(e.value)) < 200 and "(50,000,000 characters)" in str(e.value)


def test_a_huge_spec_value_is_quoted_cut():
    with pytest.raises(CardsimError) as e:
        parse_spec({**SPEC, "unit": "u" * 10 ** 6})
    assert len(str(e.value)) < 200 and "(1,000,000 characters)" in str(e.value)


# --- the schema -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An undamaged run of SPEC and its rows (without the measured columns)."""
    store = run(parse_spec(SPEC), RunConfig(str(tmp_path_factory.mktemp("clean") / "run"),
                                            progress=False))
    return store, seeded(store.rows())


def craft(store: Store, name: str, change) -> None:
    """Rewrite batch ``name`` as ``change(rows)`` and its record to match (size, rows,
    checksum): a batch whose checksum holds, crafted."""
    path = store.batches / f"{name}.parquet"
    buffer = io.BytesIO()
    change(pd.read_parquet(path)).to_parquet(buffer, index=False)
    data = buffer.getvalue()
    path.write_bytes(data)
    rows = len(pd.read_parquet(io.BytesIO(data)))
    (store.records / f"{name}.json").write_text(json.dumps(
        {"bytes": len(data), "rows": rows, "sha256": hashlib.sha256(data).hexdigest()}))


@pytest.mark.parametrize("change,problem", [
    (lambda r: r.drop(columns=["return_0"]), "column return_0 missing"),
    (lambda r: r.assign(seat_0=r["seat_0"].astype(str)),
     "column seat_0 holds strings, expected int64"),
    (lambda r: r.assign(return_1=r["return_1"].astype("int64")),
     "column return_1 holds int64, expected float64"),
    (lambda r: r.assign(extra="x"), "column extra holds strings, expected int64 (a deal fact)"),
    (lambda r: r.assign(cat_scope_2=0.0), "column cat_scope_2 is of seat 2, in a game of 2 "
                                          "seats"),
], ids=["missing", "strings", "retyped", "extra", "seat"])
def test_a_crafted_batch_is_damage_named_refused_and_repaired(clean, tmp_path, capsys, change,
                                                              problem):
    """A batch with its checksum rewritten to match: ``verify`` names what breaks the schema,
    the report refuses it, ``cardsim run`` sets it aside and computes it again."""
    original, rows = clean
    shutil.copytree(original.path, tmp_path / "run")
    store = Store(tmp_path / "run")
    craft(store, "m000-b000001", change)
    path = str(store.path)
    assert main(["verify", path]) == 2
    out, err = capsys.readouterr()
    assert out == f"  m000-b000001: does not hold the store's columns ({problem})\n"
    assert err.count("\n") == 1
    with pytest.raises(StoreError, match="batch m000-b000001 does not hold the store's"):
        load_run(path)
    assert main(["run", path, "--quiet"]) == 0
    assert "set aside as" in capsys.readouterr().err
    assert seeded(store.rows()).equals(rows)
    assert len(list((store.path / QUARANTINE).iterdir())) == 2
