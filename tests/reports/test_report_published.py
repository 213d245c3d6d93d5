"""The published studies (``experiments/results/<name>/``): every report's footer names the
command that regenerates it from the shipped spec, and works as printed from the repository's
root; ``experiments/publish.py`` writes a study's HTML and Markdown report from its store."""
from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "experiments" / "results"
PUBLISHED = sorted(p for p in RESULTS.iterdir() if (p / "manifest.json").is_file())
BURA = REPO / "tests" / "data" / "bura_ends"


def _publish_module():
    spec = importlib.util.spec_from_file_location("publish", REPO / "experiments" / "publish.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("folder", PUBLISHED, ids=lambda p: p.name)
def test_a_published_footer_names_the_command_that_regenerates_it(folder):
    name = folder.name
    command = (f"cardsim run experiments/specs/{name}.toml --out runs/{name} && "
               f"cardsim report runs/{name}")
    assert (REPO / "experiments" / "specs" / f"{name}.toml").is_file()
    for report in ("report.md", "report.html"):
        if (folder / report).exists() or report == "report.md":
            text = (folder / report).read_text(encoding="utf-8")
            said = re.findall(r"rebuild with\s+(?:`|<code>)([^`<]*)(?:`|</code>)", text)
            assert [s.replace("&amp;", "&") for s in said] == [command], report


def test_publish_writes_the_reports_and_the_manifest_of_a_store(tmp_path, monkeypatch):
    """A store in RUNS/<name> is published whole (HTML, Markdown, plots, tables, manifest),
    its footer the regenerating command; a published study without a store keeps its
    files, its footer rewritten; one with another spec is left alone."""
    publish = _publish_module()
    monkeypatch.setattr(publish, "RESULTS", tmp_path / "results")
    runs = tmp_path / "runs"
    shutil.copytree(BURA, runs / "bura_ends")
    assert publish.publish("bura_ends", runs) == "rebuilt"
    out = tmp_path / "results" / "bura_ends"
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "plots", "report.html",
                                                     "report.md", "tables"]
    assert publish.command("bura_ends") in (out / "report.md").read_text(encoding="utf-8")
    assert json.loads((out / "manifest.json").read_text()) == json.loads(
        (BURA / "manifest.json").read_text())
    old = tmp_path / "results" / "old"
    old.mkdir()
    (old / "report.md").write_text("# x\n\nrebuild with `cardsim report old`.\n")
    assert publish.publish("old", runs) == "no store: footer only"
    assert f"rebuild with `{publish.command('old')}`." in (old / "report.md").read_text()
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["spec"]["seed"] += 1
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert publish.publish("bura_ends", runs).startswith("not rebuilt")
    assert publish.publish("nothing", runs).startswith("not published")
