"""The self-checking store: every batch is read back against its record (size, rows, sha256);
damaged batches are named by ``cardsim verify`` and refused by ``cardsim report`` in one line,
and ``cardsim run RUN`` sets them aside in ``quarantine/`` and computes them again, bit for bit
."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardsim.app.cli import main
from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import parse_spec
from cardsim.experiments.store import QUARANTINE, Store, StoreError
from cardsim.reports import load_run

DATA = Path(__file__).resolve().parents[1] / "data"
SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 11, "batch_size": 5,
        "size": {"deals": 30}}                                      # 6 batches of 10 rows


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An undamaged run of SPEC."""
    return run(parse_spec(SPEC), RunConfig(str(tmp_path_factory.mktemp("clean") / "run"),
                                           progress=False))


@pytest.fixture
def store(clean, tmp_path):
    """A copy of the clean run, to damage."""
    shutil.copytree(clean.path, tmp_path / "run")
    return Store(tmp_path / "run")


def _rows(store):
    return seeded(store.rows())


def _file(store, name, kind="parquet"):
    return (store.batches if kind == "parquet" else store.records) / f"{name}.{kind}"


def _problems(store):
    return {b.name: b.problem for b in store.check() if b.problem}


def _truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def _flip_byte(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_every_batch_has_a_record_of_its_size_rows_and_checksum(clean):
    import hashlib
    records = sorted(clean.records.iterdir())
    assert [r.name for r in records] == [f"m000-b{b:06d}.json" for b in range(6)]
    assert sorted(p.suffix for p in clean.batches.iterdir()) == [".parquet"] * 6
    for r in records:
        record = json.loads(r.read_text())
        data = (clean.batches / f"{r.stem}.parquet").read_bytes()
        assert record == {"bytes": len(data), "rows": 10,
                          "sha256": hashlib.sha256(data).hexdigest()}
    assert all(b.recorded and not b.problem for b in clean.check())


def test_each_kind_of_damage_is_named(store):
    _truncate(_file(store, "m000-b000000"), 100)                    # a truncation
    _flip_byte(_file(store, "m000-b000001"))
    _file(store, "m000-b000002").unlink()
    _file(store, "m000-b000003", "json").write_text("{not json")
    with open(_file(store, "m000-b000004"), "ab") as f:
        f.write(b"more")
    problems = _problems(store)
    assert problems == {
        "m000-b000000": problems["m000-b000000"], "m000-b000001": "fails its checksum (sha256 "
        "of the file differs from its record)", "m000-b000002": "is missing (its record says "
        "10 rows)", "m000-b000003": "has an unreadable record (m000-b000003.json)",
        "m000-b000004": problems["m000-b000004"]}
    assert problems["m000-b000000"].startswith("is truncated (100 bytes, ")
    assert problems["m000-b000004"].startswith("is too long (")
    with pytest.raises(StoreError, match=r"batch m000-b000000 is truncated .*\(and 4 more "
                       r"damaged: m000-b000001, m000-b000002, m000-b000003, \.\.\.\): run "
                       r"`cardsim run .*` to set the damaged batches aside"):
        store.rows()


def _as_an_older_cardsim_wrote_it(store):
    """No records, and a manifest without the spec's checksum: a store of a cardsim older than
    the records."""
    if store.records.exists():
        shutil.rmtree(store.records)
    manifest = json.loads((store.path / "manifest.json").read_text())
    del manifest["spec_sha256"]
    (store.path / "manifest.json").write_text(json.dumps(manifest))


def test_a_batch_without_its_record_is_damaged_and_computed_again(store, clean, capsys):
    """The record is a batch's commit: a batch file without its record (a run killed between
    the rename and the record, or a lost record) is damaged, even when it reads whole — a
    flipped byte can leave a Parquet file readable with other values (found by the slow store
    fuzz, seed 18: a flipped byte in a record-less batch renamed a column and was trusted).
    ``cardsim run`` sets it aside and computes it again."""
    _file(store, "m000-b000002", "json").unlink()
    data = bytearray(_file(store, "m000-b000000").read_bytes())
    _file(store, "m000-b000000", "json").unlink()
    assert _problems(store) == dict.fromkeys(
        ["m000-b000000", "m000-b000002"], "has no record (its run stopped before recording "
        "it, or the record was lost): its rows cannot be vouched for")
    assert main(["run", str(store.path), "--quiet"]) == 0
    assert capsys.readouterr().err.count("set aside as") == 2
    assert _rows(store).equals(_rows(clean)) and not _problems(store)
    assert next((store.path / QUARANTINE).glob("*-m000-b000000.parquet")).read_bytes() == data


def test_in_an_older_store_a_batch_is_trusted_only_when_it_reads_whole(store):
    """A store of a cardsim older than the records: a file that reads whole with its own
    matchup and batch is whole but unrecorded; a truncated one, or one holding another batch's
    rows, is damaged."""
    _as_an_older_cardsim_wrote_it(store)
    _truncate(_file(store, "m000-b000001"), 200)
    shutil.copy(_file(store, "m000-b000000"), _file(store, "m000-b000002"))
    checked = {b.name: b for b in store.check()}
    assert not checked["m000-b000000"].problem and not checked["m000-b000000"].recorded
    assert checked["m000-b000001"].problem.startswith("does not read as Parquet (")
    assert checked["m000-b000002"].problem == "holds no rows of its own matchup and batch"
    assert all(not checked[f"m000-b00000{b}"].problem for b in (3, 4, 5))


def test_three_damaged_batches_verify_report_and_repair(store, clean, capsys):
    """What the user sees: ``cardsim verify`` lists them, ``cardsim report`` refuses in one line
    naming the first, ``cardsim run RUN`` sets them aside and computes them again; the rows then
    equal the undamaged run's and the damaged files are kept in quarantine/, byte for byte."""
    run_dir = str(store.path)
    _truncate(_file(store, "m000-b000001"), 100)
    _flip_byte(_file(store, "m000-b000003"))
    _file(store, "m000-b000004").unlink()
    damaged = {n: _file(store, n).read_bytes() for n in ("m000-b000001", "m000-b000003")}
    assert main(["verify", run_dir]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"  m000-b00000{b}: {_problems(store)[f'm000-b00000{b}']}"
                                for b in (1, 3, 4)]
    assert err.count("\n") == 1 and err.startswith(f"cardsim: error: {run_dir}: batch "
                                                   "m000-b000001 is truncated")
    assert main(["report", run_dir]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "batch m000-b000001" in err
    assert f"run `cardsim run {run_dir}` to set the damaged batches aside" in err
    assert not (store.path / "report").exists()
    assert main(["run", run_dir, "--quiet"]) == 0
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "set aside as" in line]
    assert len(said) == 3 and all("computing it again from its seed" in s for s in said)
    assert "batch m000-b000003 fails its checksum" in said[1]
    assert _rows(store).equals(_rows(clean))
    aside = sorted(p.name for p in (store.path / QUARANTINE).iterdir())
    assert aside == ["0001-m000-b000001.json", "0001-m000-b000001.parquet",
                     "0002-m000-b000003.json", "0002-m000-b000003.parquet",
                     "0003-m000-b000004.json"]
    for n, data in damaged.items():
        assert next((store.path / QUARANTINE).glob(f"*-{n}.parquet")).read_bytes() == data
    assert main(["verify", run_dir]) == 0
    assert capsys.readouterr().out == (f"{run_dir}: 6 batches whole, 60 rows; 3 damaged "
                                       f"batch(es) set aside earlier in {run_dir}/quarantine\n")
    assert len(load_run(run_dir).rows) == 60                        # the report reads it


def test_an_older_store_without_records_loads_and_a_run_records_it(store, clean, capsys):
    _as_an_older_cardsim_wrote_it(store)
    assert _rows(store).equals(_rows(clean))
    assert main(["verify", str(store.path)]) == 0
    assert "6 of them without a checksum yet" in capsys.readouterr().out
    assert main(["run", str(store.path), "--quiet"]) == 0
    assert "6 batch(es) had no checksum" in capsys.readouterr().err
    assert all(b.recorded for b in store.check()) and _rows(store).equals(_rows(clean))
    assert not (store.path / QUARANTINE).exists()


def test_the_example_stores_of_an_older_cardsim_still_read():
    """tests/data's stores predate the records: every batch reads whole, unrecorded."""
    batches = Store.open(DATA / "bura_ends").check()
    assert batches and all(not b.problem and not b.recorded for b in batches)


def test_run_on_a_folder_needs_a_store_and_no_other_out(store, tmp_path, capsys):
    assert main(["run", str(store.path), "--out", str(tmp_path / "elsewhere")]) == 2
    assert "resumes that folder itself: drop --out" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["run", str(tmp_path / "empty")]) == 2
    assert "holds no experiment" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "empty")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _swap(a: Path, b: Path) -> None:
    data = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(data)


def test_found_by_fuzzing_two_batches_swapped_with_their_records_are_damaged(store, clean,
                                                                               capsys):
    """Each file matches its (swapped) record, but holds another batch's rows."""
    for kind in ("parquet", "json"):
        _swap(_file(store, "m000-b000001", kind), _file(store, "m000-b000002", kind))
    assert _problems(store) == {n: "holds no rows of its own matchup and batch"
                                for n in ("m000-b000001", "m000-b000002")}
    assert main(["run", str(store.path), "--quiet"]) == 0
    assert _rows(store).equals(_rows(clean))


@pytest.mark.parametrize("edit, needle", [
    (lambda m: m["spec"].update(seed=12), "does not match its checksum"),
    (lambda m: m.update(spec=[1]), "its spec is not an object"),
    (lambda m: [m], "a JSON object was expected, not list"),
    (lambda m: m.update(schema_version=True), "store schema version True"),
    (lambda m: m.update(levels=[1]), "its levels are not an object"),
    (lambda m: m.update(levels={"best": 3}), "its levels are not an object")])
def test_found_by_fuzzing_an_edited_manifest_is_refused_in_one_line(store, capsys, edit,
                                                                    needle):
    path = store.path / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest = edit(manifest) or manifest
    path.write_text(json.dumps(manifest))
    for command in (["verify", str(store.path)], ["run", str(store.path)],
                    ["report", str(store.path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and needle in err, err


def test_an_older_manifest_without_a_spec_checksum_is_trusted(store, clean):
    path = store.path / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["spec_sha256"]
    path.write_text(json.dumps(manifest))
    assert Store.open(store.path).manifest()["spec"] == parse_spec(SPEC).to_dict()
    assert _rows(store).equals(_rows(clean))


@pytest.mark.parametrize("name", ["batches", "records", QUARANTINE])
def test_found_by_fuzzing_a_file_where_a_folder_belongs_is_refused_in_one_line(store, capsys,
                                                                               name):
    folder = store.path / name
    if folder.is_dir():
        shutil.rmtree(folder)
    folder.write_bytes(b"")
    assert main(["run", str(store.path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name} is a file, not a folder" in err, err


def test_a_run_records_what_its_levels_stood_for_and_refuses_to_resume_with_others(tmp_path,
                                                                                  capsys,
                                                                                  monkeypatch):
    """The named levels differ per game and may change between versions: the manifest records
    what each level among the agents stood for (``levels``), the report shows it, and a run
    resumed by a cardsim whose level means another agent is refused in one line instead of
    mixing two agents' rows under one name."""
    from cardsim.solvers import agent_spec
    spec = {"game": "bura", "agents": ["best", "heuristic"], "seed": 3, "batch_size": 1,
            "size": {"deals": 2}}
    folder = tmp_path / "run"
    run(parse_spec(spec), RunConfig(str(folder), progress=False))
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["levels"] == {"best": agent_spec.level("best", "bura")}
    assert main(["run", str(folder), "--quiet"]) == 0               # the same levels: resumes
    capsys.readouterr()
    from cardsim.reports.content import sections
    study = {s.key: s for s in sections(load_run(folder))}["study"]
    assert dict(study.tables[0].data.values)["levels"] == \
        "best = " + agent_spec.level("best", "bura")
    from cardsim.protocol.registry import definition  # another version's Bura levels
    monkeypatch.setitem(definition("bura").levels, "best", "ismcts:iterations=7")
    assert main(["run", str(folder), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "agent 'best' stood for" in err and "iterations=7" in err
