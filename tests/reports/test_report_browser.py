"""Every kind of report, rendered in a real browser (Debian's headless ``chromium``): a run's
report (the example stores of tests/data), a match-equity table's, a calibration study's, a
variant study's and a review's. At a 1,280 and an 800 pixel wide window, every image loads
(``naturalWidth > 0``) and no element reaches past the page's right edge (a wide table may
scroll inside its own box at 800 pixels, not at 1,280). Skipped, saying so, where chromium is
not installed (``.ci/run`` installs it).

The page is probed by a copy of the report with a script added (the report itself has none):
on load it writes what it measured into the page, which ``chromium --dump-dom`` prints.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardsim.app.cli import main
from cardsim.experiments import calibration as C
from cardsim.reports import build_report
from cardsim.reports.review import write_review_report
from cardsim.solvers.review import review
from tests.experiments.test_calibration import SPEC
from tests.reports.test_review_report import CONFIG, played_record

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (`apt-get install chromium`; "
    ".ci/run installs it): the reports are not rendered in a browser")

DATA = Path(__file__).resolve().parents[1] / "data"
WIDTHS = (1280, 800)

PROBE = """<script>
addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const inBox = el => {        // inside a box that scrolls or clips (not the page itself)
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className ? "." + el.className : "");
  const out = {width: width, page: document.documentElement.scrollWidth, images: 0,
               broken: [], over: [], scrolled: []};
  for (const img of document.images) {
    out.images += 1;
    if (!(img.complete && img.naturalWidth > 0)) out.broken.push(img.alt);
  }
  for (const el of document.body.querySelectorAll("*")) {
    const right = el.getBoundingClientRect().right;
    if (right > width + 0.5 && !inBox(el)) out.over.push(name(el) + " to " + Math.round(right));
    const o = getComputedStyle(el).overflowX;
    if ((o === "auto" || o === "scroll") && el.scrollWidth > el.clientWidth + 1)
      out.scrolled.push(name(el.firstElementChild || el) + " " + el.scrollWidth);
  }
  const pre = document.createElement("pre");
  pre.id = "cardsim-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def render(page: Path, width: int, tmp: Path) -> dict:
    """What :data:`PROBE` measured of the HTML file ``page`` in chromium at ``width`` pixels."""
    probed = tmp / f"probed-{width}.html"
    text = page.read_text(encoding="utf-8")
    probed.write_text(text.replace("</body>", PROBE + "\n</body>"), encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", f"--user-data-dir={tmp / 'profile'}",
         f"--window-size={width},900", "--virtual-time-budget=5000", "--dump-dom",
         probed.as_uri()], capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="cardsim-probe">(.*?)</pre>', done.stdout, re.S)
    assert found, f"chromium printed no probe (exit {done.returncode}): {done.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """One report.html of every kind: {kind: path}."""
    root = tmp_path_factory.mktemp("browser")
    out = {}
    for store in ("bura_ends", "scopa_budget"):
        out[f"run {store}"] = build_report(DATA / store, out=root / store, fmt="html").html
    equity = root / "equity"
    assert main(["equity", "scopa", "--deals", "30", "--boot", "10", "--out", str(equity),
                 "--quiet"]) == 0
    out["equity"] = build_report(equity, fmt="html").html
    study = root / "calibration"
    C.run_calibration(C.calibration_from_dict(SPEC), study)
    out["calibration"] = build_report(study, fmt="html").html
    variants = root / "variants"
    assert main(["variants", "scopa", "--vary", "target_score=11,21", "--deals", "6",
                 "--matches", "3", "--out", str(variants), "--quiet"]) == 0
    out["variants"] = build_report(variants, fmt="html").html
    out["review"] = write_review_report(review(played_record("scopa"), CONFIG),
                                        root / "review", "html").html
    return out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", ["run bura_ends", "run scopa_budget", "equity", "calibration",
                                  "variants", "review"])
def test_every_image_loads_and_nothing_overflows_the_page(reports, kind, width, tmp_path):
    got = render(reports[kind], width, tmp_path)
    assert got["images"] > 0 and got["broken"] == [], got
    assert got["over"] == [] and got["page"] <= got["width"], got
    if width >= 1280:
        assert got["scrolled"] == [], got


def test_the_probe_sees_a_broken_image_and_an_overflow(tmp_path):
    """The checks can fail: an image that does not load and an element wider than the page
    are both reported."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><img src="data:image/png;base64,AAAA" alt="x">'
                    '<div id="wide" style="width: 2000px">wide</div></body></html>',
                    encoding="utf-8")
    got = render(page, 1280, tmp_path)
    assert got["broken"] == ["x"]
    assert any(o.startswith("div#wide") for o in got["over"]) and got["page"] > 1280
