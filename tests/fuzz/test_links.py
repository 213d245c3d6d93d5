"""Fuzz: symbolic links planted in a results folder.

A finished run's folder (Scopa, four batches with their records) gets one to three links drawn
by hypothesis, each in place of (or beside) one of the store's paths — the locks, ``batches/``,
``records/``, ``quarantine/``, ``report/``, a batch, a record, the manifest, a temporary file's
name, a killed report build's leftover — pointing at a folder or a file outside it, or at
another path of the folder. Then ``cardsim verify``, ``cardsim run`` and ``cardsim report``:

- each works or fails in one line (exit 2);
- nothing outside the folder is written, moved or deleted: the outside folder is byte for byte
  what it was;
- when ``run`` works, the store's rows are the undamaged run's.

The normal run tries a bounded number of examples; ``-m slow`` tries a tenth of
``CARDSIM_FUZZ_EXAMPLES`` (:data:`tests.fuzz.outcome.SLOW_EXAMPLES`: each input builds a
report).
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from cardsim.experiments.rows import seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import parse_spec
from cardsim.experiments.store import Store
from tests.fuzz.outcome import SLOW_EXAMPLES, counted, run_cli, works_or_one_line

SPEC = {"game": "scopa", "agents": ["heuristic", "random"], "seed": 5, "batch_size": 3,
        "size": {"deals": 12}}
PLACES = (".lock", ".report.lock", "batches", "records", "quarantine", "report",
          "batches/m000-b000001.parquet", "records/m000-b000002.json", "manifest.json",
          "batches/m000-b000003.parquet.tmp", "manifest.json.tmp", ".report-new-x",
          "report/report.md")
TARGETS = ("outside folder", "outside file", "missing outside", "inside batches",
           "inside manifest")

FAST = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
SLOW = settings(FAST, max_examples=max(1, SLOW_EXAMPLES // 10))


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An undamaged run of SPEC and its rows (without the measured seconds)."""
    result = run(parse_spec(SPEC), RunConfig(str(tmp_path_factory.mktemp("clean") / "run"),
                                             progress=False))
    return Path(result.path), seeded(Store(result.path).rows())


def plant(root: Path, outside: Path, place: str, target: str) -> str:
    """A link at ``root/place`` (what was there removed) to ``target``; what was done."""
    path = root / place
    if not path.parent.is_dir() or path.parent.is_symlink():
        return f"{place}: no folder"
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    to = {"outside folder": outside / "folder", "outside file": outside / "precious.txt",
          "missing outside": outside / "nothing", "inside batches": root / "batches",
          "inside manifest": root / "manifest.json"}[target]
    path.symlink_to(to)
    return f"{place} -> {target}"


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def check_links(clean, links) -> None:
    clean_path, clean_rows = clean
    with tempfile.TemporaryDirectory() as tmp:
        root, outside = Path(tmp) / "run", Path(tmp) / "outside"
        shutil.copytree(clean_path, root)
        (outside / "folder").mkdir(parents=True)
        (outside / "folder" / "work.tmp").write_text("not the store's\n")
        (outside / "folder" / "m000-b000000.parquet").write_text("not a batch\n")
        (outside / "precious.txt").write_text("keep me\n")
        before = _snapshot(outside)
        for place, target in links:
            event(plant(root, outside, place, target).split(" -> ")[0])
        for argv in (["verify", "run"], ["run", "run", "--quiet"], ["report", "run"]):
            code, _, err = run_cli(argv, Path(tmp))
            works_or_one_line(argv, code, err)
            event(f"{argv[0]}: exit {code}")
            assert _snapshot(outside) == before, f"{argv[0]} wrote outside the folder"
            if argv[0] == "run" and code == 0:
                assert seeded(Store(root).rows()).equals(clean_rows)


links = st.lists(st.tuples(st.sampled_from(PLACES), st.sampled_from(TARGETS)), min_size=1,
                 max_size=3)


@FAST
@given(links)
def test_a_linked_folder_is_worked_or_refused_and_nothing_outside_changes(clean, links):
    check_links(clean, links)


@pytest.mark.slow
@SLOW
@given(links)
@counted
def test_slow_a_linked_folder_is_worked_or_refused_and_nothing_outside_changes(clean, links):
    check_links(clean, links)
