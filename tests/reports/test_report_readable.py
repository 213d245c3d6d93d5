"""Reports a person can read: figures at twice the resolution they are shown at,
legends outside the data, many panels split into several figures with human titles, the
equity heat map laid out as its table in one unit with a headline, intervals kept on one line,
times that cannot be negative never shown below 0, and a spec table with every key the spec
set."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from cardsim.app.cli import main
from cardsim.experiments.equity import grids
from cardsim.experiments.equity_folder import read_equity
from cardsim.experiments.spec import ExperimentSpec, spec_from_dict
from cardsim.reports import build_report, load_run, plots
from cardsim.reports.build import cell_class
from cardsim.reports.content import pages, sections, spec_settings
from cardsim.reports.equity import equity_contents
from cardsim.stats import fmt_percent

DATA = Path(__file__).resolve().parents[1] / "data"
SCOPA, BURA = DATA / "scopa_budget", DATA / "bura_ends"
DEALS = 30


@pytest.fixture(scope="module")
def parts():
    return {store.name: {s.key: s for s in sections(load_run(store))} for store in (SCOPA, BURA)}


# --- figures --------------------------------------------------------------------------------

def test_figures_are_twice_the_resolution_they_are_shown_at(parts, tmp_path):
    """A figure's PNG has 200 pixels per inch; the HTML shows it at half that (its size at 100
    pixels per inch), as the img's width and height say."""
    figure = parts[BURA.name]["results"].plots[0].figure
    data = plots.png(figure)
    width, height = figure.get_size_inches()
    assert data[16:24] == np.array([round(200 * width), round(200 * height)], ">u4").tobytes()
    assert plots.shown_size(data) == (round(100 * width), round(100 * height))
    files = build_report(BURA, out=tmp_path / "r", fmt="html")
    html = files.html.read_text(encoding="utf-8")
    assert f'width="{round(100 * width)}" height="{round(100 * height)}"' in html


@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_legends_sit_outside_the_data(parts, store):
    """No legend of any figure overlaps any of its axes."""
    legends = 0
    for s in parts[store.name].values():
        for p in s.plots:
            fig = p.figure
            FigureCanvasAgg(fig).draw()
            boxes = [ax.get_window_extent() for ax in fig.axes if ax.get_visible()]
            for legend in [ax.get_legend() for ax in fig.axes] + list(fig.legends):
                if legend is None:
                    continue
                legends += 1
                box = legend.get_window_extent()
                assert not any(box.overlaps(b) for b in boxes), p.name
    assert legends > 0


def test_many_panels_are_split_into_figures_of_at_most_twelve():
    values = {f"matchup {i}: claim_won": np.arange(5.0) + i for i in range(30)}
    figures = plots.distributions(values, "points", "Points at the claim")
    assert [sum(ax.get_visible() for ax in f.axes) for f in figures] == [10, 10, 10]
    assert [f._suptitle.get_text() for f in figures] == [
        f"Points at the claim ({i} of 3)" for i in (1, 2, 3)]
    named = pages("claim_points", "Points.", figures)
    assert [p.name for p in named] == ["claim_points", "claim_points_2", "claim_points_3"]
    assert named[1].caption == "Points. (part 2 of 3)"
    assert [p.name for p in pages("one", "One.", figures[:1])] == ["one"]
    table = pd.DataFrame({"label": [f"m{i}" for i in range(14) for _ in range(2)],
                          "category": ["match_scores", "cards"] * 14, "name": "a",
                          "mean": 1.0, "mean_lo": 0.5, "mean_hi": 1.5})
    bars = plots.panels_of_bars(table, "label", "category", "name", "mean", "x", "y", "t")
    assert [len(f.axes) for f in bars] == [5, 5, 4]
    ticks = [t.get_text() for t in bars[0].axes[0].get_xticklabels()]
    assert ticks == ["match scores", "cards"]


@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_titles_and_ticks_of_the_data_are_human(parts, store):
    """No snake_case name of the data (a category, a way a deal ends) in a figure's titles or
    tick labels, nor in the report's tables of them."""
    for key in ("categories", "ends"):
        if key not in parts[store.name]:
            continue
        s = parts[store.name][key]
        for p in s.plots:
            texts = [ax.get_title() for ax in p.figure.axes] + [
                t.get_text() for ax in p.figure.axes for t in ax.get_xticklabels()]
            assert not [t for t in texts if re.search(r"[a-z]_[a-z]", t)], p.name
        for column in ("category", "end"):
            for t in s.tables:
                if column in t.shown:
                    assert not any("_" in v for v in t.shown[column]), t.name


# --- tables ---------------------------------------------------------------------------------

def test_an_interval_stays_on_one_line(tmp_path):
    """A cell holding an interval has the class that keeps it on one line; no other cell
    does."""
    assert cell_class("0.963 [0.893, 0.987]") == cell_class("-0.925 [-1.010, -0.840]") == "iv"
    assert cell_class("50.2% [50.0, 50.5]") == cell_class("50.2 ±0.3") == "iv"
    assert cell_class("heuristic vs random") == "txt"
    assert cell_class("0.963") == cell_class("-1,200") == cell_class("") == ""
    html = build_report(BURA, out=tmp_path / "r", fmt="html").html.read_text(encoding="utf-8")
    assert "td.iv { white-space: nowrap; }" in html

    class Cells(HTMLParser):
        cells, cls = [], None

        def handle_starttag(self, tag, attrs):
            self.cls = dict(attrs).get("class") if tag == "td" else self.cls

        def handle_data(self, data):
            if self.cls is not None:
                self.cells.append((self.cls, data))
                self.cls = None
    page = Cells()
    page.feed(html)
    intervals = [(c, d) for c, d in page.cells if re.fullmatch(r"-?[\d.]+ \[-?[\d.]+, -?[\d.]+\]", d)]
    assert intervals and all(c == "iv" for c, _ in intervals)


def test_move_times_never_go_below_zero_and_moves_have_one_decimal():
    """A skewed time per move (one slow game) gives a t interval reaching below 0: shown as 0;
    moves per game with one decimal."""
    run = load_run(BURA)
    seconds = np.full(len(run.rows), 0.001)
    seconds[0] = 5.0
    run.rows["seconds"] = seconds
    timing = {s.key: s for s in sections(run)}["timing"].tables[0]
    assert (timing.data["ms_per_move_lo"] == 0).all()
    assert timing.shown["ms per move"].str.contains(r"\[0\.000, ").all()
    assert timing.shown["moves"].str.fullmatch(r"\d+\.\d").all()


def test_the_spec_table_shows_every_key_the_spec_set(monkeypatch):
    """Every key of the spec is a row: the deal condition a study is about, same_deals, the
    size, and a key this version of the table does not know, as its TOML says it."""
    run = load_run(SCOPA)
    data = {**run.manifest["spec"], "deal": {"hold": {"0": ["7co"]}}, "same_deals": True}
    spec = spec_from_dict(data)
    rows = dict(spec_settings(spec, run.manifest, "points per deal"))
    assert rows["deal condition"] == 'every deal\'s cards satisfy {hold = {0 = ["7co"]}}'
    assert rows["same deals"].startswith("yes")
    assert rows["size"].startswith("SPRT on the margin")
    assert {"game", "rules", "agents", "matchups", "unit", "duplicate", "batch size",
            "seed"} <= set(rows)
    to_dict = ExperimentSpec.to_dict
    monkeypatch.setattr(ExperimentSpec, "to_dict", lambda s: {**to_dict(s), "colour": ["blue"]})
    assert dict(spec_settings(spec, run.manifest, "points per deal"))["colour"] == '["blue"]'


# --- the equity report ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def equity(tmp_path_factory):
    """A Scopa equity folder of 30 duplicate deals: (folder, its sections by key, context)."""
    out = tmp_path_factory.mktemp("equity") / "eq"
    assert main(["equity", "scopa", "--deals", str(DEALS), "--boot", "10", "--out", str(out),
                 "--quiet"]) == 0
    parts, context = equity_contents(out)
    return out, {s.key: s for s in parts}, context


def test_the_equity_report_opens_with_the_chance_from_the_start(equity):
    out, parts, context = equity
    _, table = read_equity(out)
    assert list(parts)[0] == "answer"
    start = table[(table["score_a"] == 0) & (table["score_b"] == 0)]
    text = parts["answer"].text[0]
    assert text.startswith("From the start of a match (score a 0, score b 0), side a")
    for r in start.itertuples(index=False):
        assert f"{fmt_percent(r.p_win, r.p_low, r.p_high)} with dealer {r.dealer}" in text
    assert f"{DEALS} duplicate deals ({2 * DEALS} games)" in text
    assert context["games"] == f"{2 * DEALS}"
    assert "bootstrap" in context["intervals"] and "Wilson" not in context["intervals"]


def test_the_heat_map_reads_as_its_table_in_percent(equity):
    """Rows down in the table's order (the first at the top), columns across with their names
    above; every cell written in percent at the body text's size, as the table beside it."""
    out, parts, _ = equity
    _, table = read_equity(out)
    values, half = grids(table, ["score_a", "score_b", "dealer"])["dealer a"]
    section = parts["equity_dealer_a"]
    shown = section.tables[0].shown
    assert list(shown.columns) == ["score a \\ score b", *map(str, values.columns)]
    assert shown.iloc[0, 1] == f"{100 * values.iloc[0, 0]:.1f} ±{100 * half.iloc[0, 0]:.1f}"
    fig = section.plots[0].figure
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    assert top < bottom                                     # the first row at the top
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(v) for v in values.index]
    assert ax.xaxis.get_ticks_position() == "top"
    cells = [t for t in ax.texts]
    assert cells and all(t.get_fontsize() == plots.BODY for t in cells)
    first = cells[0].get_text().split()[0]
    assert float(first) == pytest.approx(100 * values.iloc[0, 0], abs=0.051)
    assert "%" in fig.axes[-1].get_ylabel()
    checks = {s.key: s for s in parts.values()}["checks"].tables[0].shown
    assert "worst (percent points)" in checks.columns


def test_the_equity_report_builds_with_its_footer(equity, tmp_path):
    out, _, _ = equity
    files = build_report(out, out=tmp_path / "r", fmt="md")
    text = files.markdown.read_text(encoding="utf-8")
    assert "Chances are in percent; intervals are 95% percentile intervals of a bootstrap" in text
    assert f"`cardsim report {out} --out {tmp_path / 'r'}`" in text
    assert json.loads((out / "manifest.json").read_text())["kind"] == "equity"
