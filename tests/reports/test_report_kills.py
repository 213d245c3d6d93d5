"""A report is swapped in whole or not at all: builds SIGKILLed just before and just
after the swap, and at random moments (drawn from a fixed seed), leave the folder holding the
old report or the new one, whole, byte for byte; the next build removes what they left beside
it. The builds are forked copies of the test process; in the fast tests their sections and
PNG files come ready-made (everything else — every file written, the swap — is the real
build); the slow variant kills real ``cardsim report`` processes."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cardsim.reports.build
from cardsim.reports import build_report, load_run
from cardsim.reports.build import rebuild_command
from cardsim.reports.content import sections
from tests.experiments.processes import die_at_call, fork, kill_after, wait

BURA = Path(__file__).resolve().parents[1] / "data" / "bura_ends"
FORMATS = ("html", "md")         # each build writes the other format than the folder holds


def _files(folder: Path) -> dict | None:
    """{relative path: bytes} of every file in ``folder``; None when there is no folder."""
    if not folder.exists():
        return None
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def parts():
    return sections(load_run(BURA))


@pytest.fixture
def quick(monkeypatch, tmp_path, parts):
    """Ready-made sections and PNG bytes (the builds then take milliseconds), the run copied
    into ``tmp_path``, and each format's report, built once: (run folder, {format: files})."""
    monkeypatch.setattr(cardsim.reports.build, "sections", lambda run: parts)
    monkeypatch.setattr(cardsim.reports.build.plots, "png", lambda fig: b"\x89PNG\r\n\x1a\n" + b"0" * 4096)
    run = tmp_path / "run"
    shutil.copytree(BURA, run)
    expected = {}
    for fmt in FORMATS:
        build_report(run, out=tmp_path / fmt, fmt=fmt, rebuild=rebuild_command(run))
        expected[fmt] = _files(tmp_path / fmt)
    return run, expected


def _state(out: Path, expected: dict) -> str | None:
    """Which whole report ``out`` holds (a format, or None: no report); AssertionError when it
    holds anything else."""
    files = _files(out)
    if files is None:
        return None
    found = [fmt for fmt, want in expected.items() if files == want]
    assert found, f"{out} holds a report that is neither old nor new: {sorted(files)}"
    return found[0]


def _leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.glob(f".{out.name}-new-*"))


def _build_dying(run, out, fmt, after: bool) -> None:
    """In a child: build, dying just before (or just after) the swap."""
    die_at_call(cardsim.reports.build, "_swap_in", 1, after)
    build_report(run, out=out, fmt=fmt)


@pytest.mark.parametrize("after", [False, True], ids=["before-swap", "after-swap"])
def test_a_kill_next_to_the_swap_leaves_the_old_report_or_the_new(quick, after):
    run, expected = quick
    out = run / "report"
    build_report(run, fmt="html")
    assert wait(fork(_build_dying, run, out, "md", after)) == -9
    assert _state(out, expected) == ("md" if after else "html")
    assert len(_leftovers(out)) == 1             # the new report before, the old one after
    build_report(run, fmt="html")
    assert _state(out, expected) == "html" and not _leftovers(out)


def _random_kills(run, expected, kills: int, seed: int) -> dict:
    """Builds killed at random moments of a build's duration (fractions drawn from ``seed``),
    each writing the other format; how often each outcome came (old, new, no report yet)."""
    out = run / "report"
    times = []
    for _ in range(3):                            # a whole build in a child, timed
        start = time.perf_counter()
        assert wait(fork(build_report, run, run / "timed", "md")) == 0
        times.append(time.perf_counter() - start)
    seconds = float(np.median(times))
    seen, held = {"old": 0, "new": 0, "none": 0}, None
    for i, fraction in enumerate(np.random.default_rng(seed).uniform(0.0, 1.5, kills)):
        target = FORMATS[i % 2] if held is None else FORMATS[1 - FORMATS.index(held)]
        kill_after(fork(build_report, run, out, target), fraction * seconds)
        now = _state(out, expected)
        seen["none" if now is None else "new" if now == target else "old"] += 1
        held = now
    build_report(run, fmt="md")
    assert _state(out, expected) == "md" and not _leftovers(out)
    return seen


def test_random_kills_while_a_report_is_written_leave_it_whole(quick):
    run, expected = quick
    seen = _random_kills(run, expected, kills=6, seed=18)
    assert seen["old"] + seen["none"] and seen["new"], seen


@pytest.mark.slow
def test_many_random_kills_while_a_report_is_written(quick):
    run, expected = quick
    seen = _random_kills(run, expected, kills=80, seed=1818)
    assert seen["old"] >= 10 and seen["new"] >= 10, seen


@pytest.mark.slow
def test_random_kills_of_cardsim_report_processes(tmp_path):
    """Real ``cardsim report`` processes (real plots), killed at random moments after they
    start writing (their temporary folder exists): the report is the old one or the new one."""
    run = tmp_path / "run"
    shutil.copytree(BURA, run)
    out = run / "report"
    expected = {}
    for fmt in FORMATS:
        build_report(run, out=tmp_path / fmt, fmt=fmt, rebuild=rebuild_command(run))
        expected[fmt] = _files(tmp_path / fmt)
    def started(fmt):
        """A ``cardsim report`` process, once it has started writing; and when it did."""
        proc = subprocess.Popen([sys.executable, "-m", "cardsim", "report", str(run),
                                 "--format", fmt], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        before, deadline = set(_leftovers(out)), time.time() + 120   # a killed one's
        while time.time() < deadline and proc.poll() is None and not (
                set(_leftovers(out)) - before):
            time.sleep(0.002)
        return proc, time.perf_counter()

    proc, start = started("html")                 # a whole build: how long it writes
    assert proc.wait() == 0
    seconds, held, outcomes = time.perf_counter() - start, "html", []
    for fraction in np.random.default_rng(81).uniform(0.0, 1.5, 8):
        target = FORMATS[1 - FORMATS.index(held)]
        proc, _ = started(target)
        time.sleep(fraction * seconds)
        proc.kill()
        proc.wait()
        held = _state(out, expected)
        outcomes.append(held == target)
    assert any(outcomes) and not all(outcomes), (outcomes, seconds)


def test_the_swap_exchanges_two_folders_at_one_step(tmp_path, quick, monkeypatch):
    """renameat2(RENAME_EXCHANGE) works here (Linux); where it cannot, two renames do."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    assert cardsim.reports.build._exchange(a, b) and (b / "x").read_text() == "a"
    assert not (a / "x").exists()
    run, expected = quick
    monkeypatch.setattr(cardsim.reports.build, "_exchange", lambda a, b: False)
    for fmt in ("html", "md"):
        build_report(run, fmt=fmt)
        assert _state(run / "report", expected) == fmt and not _leftovers(run / "report")
