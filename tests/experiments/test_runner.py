"""Experiment specs, the store and the runner: validation, bit-identical results whatever the
number of workers, resumption after SIGKILL, refusal of a changed spec."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run, used_rows
from cardsim.experiments.spec import SpecError, load_spec, parse_spec
from cardsim.experiments.store import SCHEMA_VERSION, Store, StoreError

BASE = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 3, "batch_size": 10,
        "size": {"deals": 30}}


def spec(**changes):
    return parse_spec({**BASE, **changes})


# --- specs --------------------------------------------------------------------------------

def test_spec_defaults_and_matchups():
    s = spec()
    assert s.matchups == ((0, 1),) and s.unit == "deal" and s.duplicate and s.deals == 30
    s = spec(agents=["random", "heuristic", "ismcts:iterations=10"])
    assert s.matchups == ((0, 1), (0, 2), (1, 2))
    assert spec(agents=["random", "heuristic", "random"], matchups={"field": 1}).matchups == \
        ((1, 0), (1, 2))
    assert spec(matchups=[[1, 0]]).matchups == ((1, 0),)
    four = parse_spec({**BASE, "rules": {"num_players": 4}})
    assert four.matchups == ((0, 1, 0, 1),)
    s = spec(size={"sprt": {"kind": "margin", "lower": 0, "upper": 0.5}, "max_deals": 100})
    assert s.sprt == {"kind": "margin", "lower": 0.0, "upper": 0.5, "alpha": 0.05, "beta": 0.05}
    assert s.limit == 100


@pytest.mark.parametrize("changes,words", [
    ({"gmae": "scopa"}, ["unknown key 'gmae'", "expected one of"]),
    ({"game": "chess"}, ["unknown game 'chess'"]),
    ({"rules": {"target_score": 12}}, ["target_score"]),
    ({"agents": ["heuristic", "deep"]}, ["unknown agent 'deep'"]),
    ({"agents": "heuristic"}, ["agents=", "a list of agent spec strings"]),
    ({"matchups": [[0, 5]]}, ["matchups=[0, 5]", "agent indices from 0 to 1"]),
    ({"matchups": "swiss"}, ["matchups='swiss'", "round_robin"]),
    ({"unit": "trick"}, ["unit='trick'", "'deal' or 'match'"]),
    ({"seed": -1}, ["seed=-1", "an integer >= 0"]),
    ({"batch_size": 0}, ["batch_size=0"]),
    ({"size": {"deals": 10, "sprt": {}}}, ["exactly one of deals, half_width or sprt"]),
    ({"size": {"half_width": 0.1}}, ["size.max_deals is needed"]),
    ({"size": {"deals": 0}}, ["size.deals=0"]),
    ({"size": {"dels": 5}}, ["unknown key size.dels"]),
    ({"size": {"sprt": {"kind": "elo", "lower": 5, "upper": 1}, "max_deals": 9}},
     ["size.sprt.upper=1.0", "above lower=5.0"]),
    ({"size": {"sprt": {"lower": 0, "upper": 1, "alpha": 0.7}, "max_deals": 9}},
     ["size.sprt.alpha=0.7"]),
])
def test_spec_errors_name_the_key(changes, words):
    from cardsim.errors import CardsimError
    with pytest.raises(CardsimError) as err:
        spec(**changes)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_spec_file_errors(tmp_path):
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("game = \n")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_spec(bad)


# --- running --------------------------------------------------------------------------------

def _rows(store):
    return seeded(store.rows())


def test_results_are_identical_whatever_the_workers_and_batch_size(tmp_path):
    one = run(spec(), RunConfig(str(tmp_path / "one"), jobs=1, progress=False))
    two = run(spec(), RunConfig(str(tmp_path / "two"), jobs=2, progress=False))
    assert _rows(one).equals(_rows(two))
    assert len(_rows(one)) == 60 and sorted(one.done()) == [(0, 0), (0, 1), (0, 2)]
    wide = run(spec(batch_size=30), RunConfig(str(tmp_path / "wide"), progress=False))
    cols = [c for c in _rows(one).columns if c != "batch"]
    assert _rows(wide)[cols].equals(_rows(one)[cols])


def test_same_deals_deals_every_matchup_the_same_cards(tmp_path):
    """``same_deals = true``: every matchup plays deal i from the same seed (so a field or a
    budget curve compares deal by deal): two equal matchups then give equal rows, where by
    default each matchup has its own deals. Without the key the stored spec is as before (an
    older store resumes), and a non-boolean value is refused in one line."""
    results = {}
    for same in (False, True):
        store = run(spec(matchups=[[0, 1], [0, 1]], same_deals=same, size={"deals": 10}),
                    RunConfig(str(tmp_path / str(same)), progress=False))
        rows = seeded(store.rows()).drop(columns=["matchup"])
        results[same] = [rows[store.rows()["matchup"] == m].reset_index(drop=True)
                         for m in (0, 1)]
        assert ("same_deals" in store.manifest()["spec"]) is same
    assert results[True][0].equals(results[True][1])
    assert not results[False][0].equals(results[False][1])
    assert results[False][0].equals(results[True][0])      # the first matchup's deals
    assert "same_deals" not in spec().to_dict()
    with pytest.raises(SpecError, match="same_deals=1.*true or false"):
        spec(same_deals=1)


def test_manifest_and_changed_spec_refused(tmp_path):
    store = run(spec(), RunConfig(str(tmp_path / "r"), progress=False))
    manifest = store.manifest()
    assert manifest["schema_version"] == SCHEMA_VERSION and manifest["root_seed"] == 3
    assert manifest["spec"] == spec().to_dict() and manifest["package_version"]
    again = run(spec(), RunConfig(str(tmp_path / "r"), progress=False))     # nothing to do
    assert _rows(again).equals(_rows(store))
    with pytest.raises(StoreError, match="holds a different experiment .*seed"):
        run(spec(seed=4), RunConfig(str(tmp_path / "r"), progress=False))
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x.txt").write_text("x")
    with pytest.raises(StoreError, match="not empty"):
        run(spec(), RunConfig(str(tmp_path / "junk"), progress=False))


def test_a_study_grows_by_agents_and_matchups_appended(tmp_path):
    """A spec with agents and matchups appended to a folder's own (and another question)
    computes only the new matchups: the old batches stay as they were, byte for byte, and the
    grown study's rows are the ones a fresh run of it gives (times aside). The manifest takes
    the new spec and its levels, and remembers what it grew from. Reordering, or any other
    change, is still refused."""
    out = tmp_path / "r"
    first = run(spec(size={"deals": 10}), RunConfig(str(out), progress=False))
    before = {p.name: p.read_bytes() for p in (out / "batches").iterdir()}
    old_sha = first.manifest()["spec_sha256"]
    big = spec(agents=["heuristic", "random", "easy"], matchups=[[0, 1], [2, 0]],
               question="and easy?", size={"deals": 10})
    grown = run(big, RunConfig(str(out), progress=False))
    assert {p.name: p.read_bytes() for p in (out / "batches").iterdir()
            if p.name in before} == before
    assert sorted(grown.done()) == [(0, 0), (1, 0)]
    fresh = run(big, RunConfig(str(tmp_path / "fresh"), progress=False))
    assert _rows(grown).equals(_rows(fresh))
    manifest = grown.manifest()
    assert manifest["spec"] == big.to_dict() and manifest["grown_from"] == [old_sha]
    assert manifest["levels"] == {"easy": "ismcts:iterations=50"}
    for other in (spec(agents=["heuristic", "easy", "random"], matchups=[[0, 2], [1, 0]],
                       size={"deals": 10}),
                  spec(agents=["heuristic", "random", "easy"], matchups=[[2, 0], [0, 1]],
                       size={"deals": 10}),
                  spec(agents=["heuristic", "random", "easy"], matchups=[[0, 1], [2, 0]],
                       size={"deals": 20})):
        with pytest.raises(StoreError, match="holds a different experiment .*appended"):
            run(other, RunConfig(str(out), progress=False))


def test_unknown_schema_version_refused(tmp_path):
    store = run(spec(size={"deals": 10}), RunConfig(str(tmp_path / "r"), progress=False))
    path = store.path / "manifest.json"
    path.write_text(path.read_text().replace(f'"schema_version": {SCHEMA_VERSION}',
                                             '"schema_version": 99'))
    with pytest.raises(StoreError, match="schema version 99.*rerun"):
        Store.open(store.path)


def test_a_killed_run_resumes_without_losing_or_repeating_a_batch(tmp_path):
    """SIGKILL in the middle of a run, then ``cardsim run`` again on the same folder: the
    result equals an uninterrupted run's; no temporary file is left."""
    spec_file = tmp_path / "spec.toml"
    spec_file.write_text('game = "scopa"\nagents = ["ismcts:iterations=60", "random"]\n'
                         'seed = 5\nbatch_size = 2\n[size]\ndeals = 40\n')
    out = tmp_path / "killed"
    argv = [sys.executable, "-m", "cardsim", "run", str(spec_file), "--out", str(out),
            "--quiet"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240
    while time.time() < deadline:
        if (out / "batches").exists() and len(list((out / "batches").glob("*.parquet"))) >= 3:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = len(list((out / "batches").glob("*.parquet")))
    assert 3 <= killed_at < 20, "the run was not interrupted in the middle"
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not list((out / "batches").glob("*.tmp"))
    clean = run(load_spec(spec_file), RunConfig(str(tmp_path / "clean"), progress=False))
    assert _rows(Store.open(out)).equals(_rows(clean))


def test_sequential_stop_is_the_same_on_any_number_of_workers(tmp_path):
    s = spec(size={"half_width": 1.5, "max_deals": 200})
    one = run(s, RunConfig(str(tmp_path / "one"), jobs=1, progress=False))
    two = run(s, RunConfig(str(tmp_path / "two"), jobs=2, progress=False))
    a, b = used_rows(s, one.rows()), used_rows(s, two.rows())
    assert seeded(a).equals(seeded(b))
    assert 0 < a["deal"].nunique() < 200
    from cardsim.experiments.tables import half_width
    assert half_width(a, list(s.agents), 0) <= 1.5
    fewer = a[a["batch"] < a["batch"].max()]
    assert half_width(fewer, list(s.agents), 0) > 1.5       # it stopped at the first batch


def test_a_sequential_run_reads_its_store_once_not_once_per_wave(tmp_path, monkeypatch):
    """A sequential run decides after every wave of batches; it keeps the rows it writes
    instead of reading (and checking) the whole store again each time: the store is read twice
    in all (the repair's check, then the rows it resumes from), and the result is the same."""
    s = spec(size={"half_width": 0.6, "max_deals": 200})
    reads = []
    real = Store.each
    monkeypatch.setattr(Store, "each", lambda self: reads.append(1) or real(self))
    store = run(s, RunConfig(str(tmp_path / "one"), jobs=1, progress=False))
    assert len(reads) == 2
    monkeypatch.setattr(Store, "each", real)
    rows = used_rows(s, store.rows())
    assert rows["batch"].nunique() > 2                     # it took several waves
    again = run(s, RunConfig(str(tmp_path / "two"), jobs=1, progress=False))
    assert seeded(used_rows(s, again.rows())).equals(seeded(rows))


def test_cli_run_prints_the_tables(tmp_path, capsys):
    from cardsim.app.cli import main
    spec_file = tmp_path / "study.toml"
    spec_file.write_text('question = "Does the heuristic beat random?"\ngame = "bura"\n'
                         'agents = ["heuristic", "random"]\n[size]\ndeals = 20\n')
    code = main(["run", str(spec_file), "--out", str(tmp_path / "out"), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "40 games" in out and "Does the heuristic beat random?" in out
    assert Path(tmp_path / "out" / "manifest.json").exists()
    code = main(["run", str(tmp_path / "nope.toml")])
    assert code == 2 and "cannot read" in capsys.readouterr().err


def test_a_dask_cluster_gives_the_same_results(tmp_path):
    """A real dask.distributed cluster (a local one with 2 worker processes): the same rows as
    one local process, bit for bit."""
    distributed = pytest.importorskip("distributed")
    local = run(spec(), RunConfig(str(tmp_path / "local"), progress=False))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = run(spec(), RunConfig(str(tmp_path / "dask"), progress=False,
                                       dask=cluster.scheduler_address))
        seq = spec(size={"half_width": 1.5, "max_deals": 200})
        remote_seq = run(seq, RunConfig(str(tmp_path / "dask_seq"), progress=False,
                                        dask=cluster.scheduler_address))
    assert _rows(remote).equals(_rows(local))
    local_seq = run(seq, RunConfig(str(tmp_path / "local_seq"), progress=False))
    assert seeded(used_rows(seq, remote_seq.rows())).equals(
        seeded(used_rows(seq, local_seq.rows())))


def test_an_unreachable_dask_scheduler_is_one_clear_error(tmp_path):
    pytest.importorskip("distributed")
    from cardsim.errors import CardsimError
    with pytest.raises(CardsimError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run(spec(), RunConfig(str(tmp_path / "x"), progress=False, dask="tcp://127.0.0.1:9"))


def test_unit_match_plays_whole_matches(tmp_path):
    """``unit = "match"``: each row is a whole match (Scopa to 11: +1 / -1 per side)."""
    s = spec(unit="match", size={"deals": 4}, batch_size=2)
    rows = run(s, RunConfig(str(tmp_path / "m"), progress=False)).rows()
    assert len(rows) == 8
    assert set(rows["return_0"]) <= {-1.0, 1.0}
    assert (rows["return_0"] == -rows["return_1"]).all()
    assert ((rows[["cat_match_scores_0", "cat_match_scores_1"]].max(axis=1)) >= 11).all()
