"""``cardsim report``: reports built from the example stores in tests/data (no game is played
here; tests/data/make_stores.py wrote the stores)."""
from __future__ import annotations

import base64
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer

from cardsim.app.cli import main
from cardsim.experiments.store import StoreError
from cardsim.experiments.tables import report_tables
from cardsim.reports import ReportError, build_report, load_run
from cardsim.reports.budgets import agents_base
from cardsim.reports.build import rebuild_command
from cardsim.reports.content import sections
from cardsim.reports.headline import agent_words
from cardsim.stats import mean_interval

DATA = Path(__file__).resolve().parents[1] / "data"
SCOPA, BURA = DATA / "scopa_budget", DATA / "bura_ends"
PNG = b"\x89PNG\r\n\x1a\n"
SCOPA_SECTIONS = ["summary", "study", "results", "ratings", "distributions", "categories",
                  "seats", "budget", "timing"]
BURA_SECTIONS = ["summary", "study", "results", "distributions", "categories", "ends", "seats",
                 "timing"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Both example reports, built once: {name: (run, files)}."""
    root = tmp_path_factory.mktemp("reports")
    return {store.name: (load_run(store), build_report(store, out=root / store.name))
            for store in (SCOPA, BURA)}


@pytest.fixture(scope="module")
def parts():
    return {store.name: {s.key: s for s in sections(load_run(store))} for store in (SCOPA, BURA)}


def _csv(files, name: str) -> pd.DataFrame:
    return pd.read_csv(files.folder / "tables" / f"{name}.csv")


# --- what the report holds ------------------------------------------------------------------

@pytest.mark.parametrize("store, expected", [(SCOPA, SCOPA_SECTIONS), (BURA, BURA_SECTIONS)])
def test_sections_are_chosen_by_what_the_run_holds(parts, store, expected):
    """Scopa's budget run has a budget section and no endings; Bura's has endings (with the
    points at the claim) and no budget section; every section has text and a table."""
    got = parts[store.name]
    assert list(got) == expected
    for s in got.values():
        assert s.title and s.text and s.tables, s.key
        assert all(t.caption for t in s.tables)


@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_csv_tables_are_the_experiment_tables(built, store):
    """matchups, seats, dealer, categories (and sprt) are exactly cardsim.experiments.tables' tables of
    the rows the run used."""
    run, files = built[store.name]
    expected = report_tables(run.rows, run.agents, run.spec.sprt)
    for name in ("matchups", "seats", "dealer", "categories") + (
            ("sprt",) if run.spec.sprt else ()):
        got = _csv(files, name)
        want = expected[name].reset_index(drop=True)
        assert list(got.columns) == list(want.columns), name
        pd.testing.assert_frame_equal(got, want, check_dtype=False, check_exact=False,
                                      rtol=1e-12, obj=name)


def test_spec_section_states_the_question_and_non_default_rules(built):
    run, files = built[BURA.name]
    spec = dict(_csv(files, "spec").values)
    assert spec["game"] == "bura"
    assert spec["rules"] == "false_claim_penalty=single, moscow=three_aces"
    assert spec["agents"] == "0: heuristic; 1: random"
    assert spec["seed"] == 3 or spec["seed"] == "3"
    assert spec["run by"] == "cardsim " + run.manifest["package_version"]
    assert spec["games"] == f"{len(run.rows)} used ({run.stored_games} stored)"
    text = (files.folder / "report.md").read_text()
    assert f"*{run.spec.question}*" in text
    scopa_spec = dict(_csv(built[SCOPA.name][1], "spec").values)
    assert scopa_spec["rules"] == "defaults"
    assert "SPRT on the margin (0 against 1" in scopa_spec["size"]


def test_summary_says_who_is_better_with_the_interval_and_the_sprt_verdict(built, parts):
    """Each sentence names the better agent with the paired 95% interval of its margin, from
    the matchups table; the SPRT verdict comes from the sprt table."""
    run, files = built[SCOPA.name]
    tables = report_tables(run.rows, run.agents, run.spec.sprt)
    first = tables["matchups"].drop_duplicates("matchup")
    text = parts[SCOPA.name]["summary"].text
    assert len(text) == len(first) == 3
    for line, (_, r), (_, t) in zip(text, first.iterrows(), tables["sprt"].iterrows()):
        est, lo, hi = r["mean_return"], r["mean_return_lo"], r["mean_return_hi"]
        if hi < 0:
            assert line.startswith(f"The heuristic beats {agent_words(r['name'])} by "
                                   f"{-est:.2f} points a deal [{-hi:.2f}, {-lo:.2f}]")
        else:
            assert line.startswith(f"No clear difference between {agent_words(r['name'])} "
                                   f"and the heuristic: {est:+.2f} points a deal [{lo:.2f}, "
                                   f"{hi:.2f}]".replace("-0.00", "0.00"))
        assert f", {int(r['deals'])} duplicate deals ({int(r['games'])} games)." in line
        assert t["verdict"] == "H0" and "SPRT: accepts H0 (margin 0)" in line
    summary = _csv(files, "summary")
    assert list(summary["verdict"]) == ["worse" if v < 0 else "no clear difference"
                                        for v in first["mean_return_hi"]]
    bura = parts[BURA.name]["summary"].text[0]
    assert bura.startswith("The heuristic beats the random player by ") and "stakes a deal" in bura


def test_summary_of_a_game_that_is_not_zero_sum_compares_returns_at_one_table(monkeypatch):
    """Where a deal's returns need not add up to 0 (Mushka), who is better is the first
    agent's return minus the other's in the same games (twice the matchups table's margin),
    not the sign of its own return; the text says so. Scopa's store stands in for such a game
    here, its definition marked not zero-sum."""
    import dataclasses

    import cardsim.reports.content as content
    from cardsim.game import definition
    scopa = dataclasses.replace(definition("scopa"), zero_sum=False)
    monkeypatch.setattr(content, "definition", lambda name: scopa)
    run = load_run(SCOPA)
    summary = {s.key: s for s in sections(run)}["summary"]
    assert "do not add up to 0" in summary.text[0]
    first = report_tables(run.rows, run.agents)["matchups"].drop_duplicates("matchup")
    lines = summary.text[1:]
    assert len(lines) == len(first) == 3
    for line, (_, r) in zip(lines, first.iterrows()):
        est, lo, hi = 2 * r["margin"], 2 * r["margin_lo"], 2 * r["margin_hi"]
        assert est == pytest.approx(2 * r["mean_return"])     # Scopa is zero-sum after all
        if hi < 0:
            assert f"beats {agent_words(r['name'])} by {-est:.2f} points a deal" in line
            assert f"[{-hi:.2f}, {-lo:.2f}]" in line
        else:
            assert f"No clear difference between {agent_words(r['name'])}" in line
            assert f"[{lo:.2f}, {hi:.2f}]".replace("-0.00", "0.00") in line
        assert "(its points minus the other's)" in line
    assert list(summary.tables[0].data.columns)[2] == "return minus the other's"


@pytest.mark.parametrize("game", ["scopa", "bura", "mushka", "minchiate"])
def test_a_games_zero_sum_flag_is_its_conformance_suites(game):
    """The definition's ``zero_sum`` (what reports read) agrees with the conformance adapter's
    ``DEAL_ZERO_SUM`` (what the suite checks on played deals); only Mushka is not zero-sum."""
    import importlib

    from cardsim.game import definition
    d = definition(game)
    adapter = importlib.import_module(d.conformance)
    assert d.zero_sum == getattr(adapter, "DEAL_ZERO_SUM", True) == (game != "mushka")


def test_distributions_are_the_first_agents_games_and_paired_deals(built):
    run, files = built[SCOPA.name]
    table = _csv(files, "distributions")
    rows = run.rows[run.rows["matchup"] == 1]            # ismcts:iterations=10 vs heuristic
    seat = np.where(rows["seat_0"] == 2, 0, 1)
    mine = rows[["return_0", "return_1"]].to_numpy()[np.arange(len(rows)), seat]
    per_deal = pd.Series(mine).groupby(rows["deal"].to_numpy()).mean().to_numpy()
    games = table[(table["agent"] == "ismcts:iterations=10") & (table["value"] == "return per game")]
    deals = table[(table["agent"] == "ismcts:iterations=10") & (table["value"] == "margin per deal")]
    assert games["n"].item() == len(mine) and deals["n"].item() == len(per_deal)
    assert games["max"].item() == mine.max() and games["median"].item() == np.median(mine)
    assert deals["mean_lo"].item() == pytest.approx(mean_interval(per_deal)[1])
    assert deals["mean"].item() == pytest.approx(mine.mean())


def test_categories_show_the_games_categories_in_order(parts):
    scopa = parts[SCOPA.name]["categories"].tables[0].shown
    assert list(dict.fromkeys(scopa["category"])) == ["cards", "coins", "settebello",
                                                      "primiera", "scopas"]
    bura = parts[BURA.name]["categories"].tables[0].shown
    assert list(dict.fromkeys(bura["category"])) == ["points up", "points down", "points"]


def test_bura_ends_and_points_at_the_claim(built):
    """Shares of each ending; the claimant's points are the winner's pile points after a
    true claim (always >= 31) and the loser's after a false one (always < 31)."""
    run, files = built[BURA.name]
    ends = _csv(files, "ends")
    counts = run.rows["end"].value_counts()
    assert dict(zip(ends["end"], ends["count"])) == counts.to_dict()
    claims = _csv(files, "claim_points")
    assert claims["claims"].sum() == counts[["claim_won", "claim_lost"]].sum()
    won, lost = claims[claims["end"] == "claim_won"], claims[claims["end"] == "claim_lost"]
    assert (won["min"] >= 31).all() and (lost["max"] < 31).all()
    rows = run.rows[run.rows["end"] == "claim_lost"]
    loser = np.argmin(rows[["return_0", "return_1"]].to_numpy(), axis=1)
    points = rows[["cat_points_0", "cat_points_1"]].to_numpy()[np.arange(len(rows)), loser]
    assert lost["claims"].sum() == len(points) and lost["min"].min() == points.min()


def test_budget_section_follows_the_search_budget(built):
    run, files = built[SCOPA.name]
    budget = _csv(files, "budget")
    assert list(budget["budget"]) == [10, 40]
    assert set(budget["series"]) == {"ismcts vs heuristic"}
    matchups = _csv(files, "matchups")
    for _, b in budget.iterrows():
        m = matchups[matchups["name"] == b["agent"]]
        assert b["mean_return"] == pytest.approx(m["mean_return"].item())
        assert b["mean_return_lo"] == pytest.approx(m["mean_return_lo"].item())
    assert agents_base("ismcts:iterations=40,c=1") == "ismcts:c=1"


def test_budget_table_reads_a_level_as_the_manifest_recorded_it():
    """A named level in the budget table is the agent the run's manifest says it stood for
    (``levels``), not today's: recorded as 1,000 iterations, ``best`` joins the 2,000-iteration
    agent's series, even in a game whose ``best`` is today 1 s a move (Scopa), where without
    the record it would not."""
    from cardsim.reports.budgets import budget_table
    agents = ["heuristic", "best", "ismcts:iterations=2000,rollout=heuristic,c=2"]
    order = {0: (1, 0), 1: (2, 0)}
    cols = {"games": 10, "mean_return": 0.1, "mean_return_lo": 0.0, "mean_return_hi": 0.2,
            "win_rate": 0.5, "win_rate_lo": 0.4, "win_rate_hi": 0.6, "ms_per_move": 1.0}
    matchups = pd.DataFrame([{"matchup": m, "agent": k, **cols}
                             for m, seating in order.items() for k in set(seating)])
    recorded = {"best": "ismcts:iterations=1000,rollout=heuristic,c=2"}
    table = budget_table(None, agents, matchups, order, "bura", recorded)
    assert list(table["budget"]) == [1000, 2000] and list(table["agent"])[0] == "best"
    assert budget_table(None, agents, matchups, order, "scopa", recorded) is not None
    assert budget_table(None, agents, matchups, order, "scopa") is None     # 1 s a move


def test_budget_gain_is_over_the_field_when_the_game_is_not_zero_sum():
    """A run with a *field* matchup (the heuristic in every seat, as Mushka's strength study
    has) gives each searcher's gain: its mean return minus the field's, with the interval of
    two independent means (the matchups play different deals; Welch's t); without a field there is no
    gain column, and a searcher against another opponent gets NaN."""
    from scipy.special import stdtrit

    from cardsim.reports.budgets import budget_table
    agents = ["heuristic", "ismcts:iterations=10", "ismcts:iterations=40", "random"]
    order = {0: (0, 0, 0, 0), 1: (1, 0, 0, 0), 2: (2, 0, 0, 0), 3: (1, 3, 3, 3),
             4: (2, 3, 3, 3)}
    mean = {(0, 0): 1.3, (1, 1): 1.5, (2, 2): 2.1, (3, 1): 4.0, (4, 2): 4.5}
    se = {(0, 0): 0.2, (1, 1): 0.1, (2, 2): 0.15, (3, 1): 0.3, (4, 2): 0.3}
    rows = []
    for m, seating in order.items():
        for k in sorted(set(seating)):
            mr = mean.get((m, k), 0.0)
            rows.append({"matchup": m, "agent": k, "games": 40, "deals": 10, "mean_return": mr,
                         "mean_return_lo": mr - 0.5, "mean_return_hi": mr + 0.5,
                         "return_se": se.get((m, k), 0.1), "win_rate": 0.5,
                         "win_rate_lo": 0.4, "win_rate_hi": 0.6, "ms_per_move": 1.0})
    matchups = pd.DataFrame(rows)
    table = budget_table(None, agents, matchups, order, "mushka")
    field = table[table["opponent"] == "heuristic"].set_index("budget")
    assert field.loc[10, "gain"] == pytest.approx(0.2)
    assert field.loc[40, "gain"] == pytest.approx(0.8)
    a, b = 0.15 ** 2, 0.2 ** 2          # Welch's degrees of freedom over 10 deals each
    half = float(stdtrit((a + b) ** 2 / (a * a / 9 + b * b / 9), 0.975)) * (a + b) ** 0.5
    assert half > 1.96 * (a + b) ** 0.5
    assert field.loc[40, "gain_hi"] - field.loc[40, "gain"] == pytest.approx(half)
    assert table[table["opponent"] == "random"]["gain"].isna().all()
    no_field = {m: t for m, t in order.items() if m != 0}
    assert "gain" not in budget_table(None, agents, matchups, no_field, "mushka")


def test_budget_gain_is_paired_by_deal_when_the_matchups_played_the_same_deals():
    """With ``same_deals`` the gain over the field is the mean of the per-deal differences and
    its interval theirs: a searcher exactly 0.5 above the field in every deal gets 0.5 with a
    zero-width interval, where the unpaired interval of the same rows is wide."""
    from cardsim.experiments.tables import matchup_table
    from cardsim.reports.budgets import budget_table
    agents = ["heuristic", "ismcts:iterations=10", "ismcts:iterations=40"]
    order = {0: (0, 0, 0, 0), 1: (1, 0, 0, 0), 2: (2, 0, 0, 0)}
    rows = []
    for m, seating in order.items():
        for deal in range(30):
            luck = float(deal % 7)                    # the deal's cards: the same in each
            for rot in range(4):
                row = {"matchup": m, "deal": deal, "rotation": rot, "seed": deal}
                for s in range(4):
                    k = seating[(s + rot) % 4]
                    row[f"seat_{s}"] = k
                    row[f"return_{s}"] = luck + (0.5 * m if k else 0.0)
                rows.append(row)
    rows = pd.DataFrame(rows)
    matchups = matchup_table(rows, agents)
    paired = budget_table(rows, agents, matchups, order, "mushka", same_deals=True)
    assert paired["gain"].tolist() == pytest.approx([0.5, 1.0])
    assert (paired["gain_hi"] - paired["gain_lo"]).tolist() == pytest.approx([0.0, 0.0])
    assert "per-deal differences" in paired.attrs["note"]
    unpaired = budget_table(rows, agents, matchups, order, "mushka")
    assert unpaired["gain"].tolist() == pytest.approx([0.5, 1.0])
    assert ((unpaired["gain_hi"] - unpaired["gain_lo"]) > 1.0).all()
    assert "independent means" in unpaired.attrs["note"]


def test_budget_table_gives_each_searchers_own_time_per_decision():
    """Given the run's thinking table, a budget row carries the searcher's own milliseconds
    per decision (the budget as spent), not the matchup's time per move, which mixes in the
    opponent's fast moves: a searcher thinking 4 ms a decision against a heuristic is 4."""
    from cardsim.experiments.tables import matchup_table, thinking_table
    from cardsim.reports.budgets import budget_table
    agents = ["heuristic", "ismcts:iterations=10", "ismcts:iterations=40"]
    order = {0: (1, 0), 1: (2, 0)}
    rows = []
    for m, seating in order.items():
        for deal in range(6):
            for rot in range(2):
                row = {"matchup": m, "deal": deal, "rotation": rot, "seed": deal}
                for s in range(2):
                    k = seating[(s + rot) % 2]
                    row |= {f"seat_{s}": k, f"return_{s}": float(k - 1),
                            f"decisions_{s}": 5, f"think_{s}": 0.004 * 5 * (m + 1) if k else 0.0}
                rows.append(row)
    rows = pd.DataFrame(rows)
    table = budget_table(rows, agents, matchup_table(rows, agents), order, "bura",
                         thinking=thinking_table(rows, agents))
    assert table["ms_per_decision"].tolist() == pytest.approx([4.0, 8.0])
    assert "own thinking time" in table.attrs["note"]
    assert "ms_per_decision" not in budget_table(rows, agents, matchup_table(rows, agents),
                                                 order, "bura")


def test_timing_counts_every_game(built):
    run, files = built[SCOPA.name]
    timing = _csv(files, "timing")
    assert timing["games"].sum() == len(run.rows)
    ms = 1000 * run.rows["seconds"] / run.rows["moves"]
    first = run.rows["matchup"] == 0
    assert timing["ms_per_move"][0] == pytest.approx(ms[first].mean())
    assert timing["seconds"].sum() == pytest.approx(run.rows["seconds"].sum())


# --- figures --------------------------------------------------------------------------------

@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_every_plot_is_labelled_with_intervals_and_readable_in_black_and_white(parts, store):
    """Every figure: a title, labelled axes, intervals drawn (error bars) except the box plot
    of move times, and bar series told apart by hatch or grey level, not colour alone."""
    names = []
    for s in parts[store.name].values():
        for p in s.plots:
            names.append(p.name)
            fig = p.figure
            assert p.caption
            axes = fig.axes
            assert any(ax.get_title() for ax in axes) or fig._suptitle is not None
            assert axes[-1].get_xlabel() or any(ax.get_xlabel() for ax in axes), p.name
            assert all(ax.get_ylabel() or ax.get_yticklabels() for ax in axes), p.name
            if p.name != "move_times":
                bars = [c for ax in axes for c in ax.containers if isinstance(c, BarContainer)]
                errs = [c for ax in axes for c in ax.containers
                        if isinstance(c, ErrorbarContainer)]
                assert errs or any(b.errorbar is not None for b in bars), p.name
            for ax in axes:
                series = [c for c in ax.containers if isinstance(c, BarContainer)]
                looks = {(c.patches[0].get_hatch(), tuple(c.patches[0].get_facecolor()))
                         for c in series if c.patches}
                assert len(looks) == len(series), p.name
    expected = {"mean_return", "win_draw_loss", "returns", "margins", "categories", "seats",
                "move_times"} | ({"budget", "ratings"} if store == SCOPA
                                 else {"ends", "claim_points"})
    assert set(names) == expected


# --- files ----------------------------------------------------------------------------------

class _Page(HTMLParser):
    VOID = {"meta", "img", "br", "hr", "link", "input", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack, self.tags, self.images, self.ids, self.urls = [], [], [], set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("src", "href"):
            if key in attrs:
                self.urls.append(attrs[key])
        if tag == "img":
            self.images.append(attrs)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_html_parses_is_self_contained_and_embeds_every_plot(built, parts, store):
    _, files = built[store.name]
    text = files.html.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    page.close()
    assert page.stack == [], "unclosed tags"
    assert not {"script", "link", "iframe", "object", "embed"} & set(page.tags)
    assert not re.search(r"url\(|@import|https?://", text)
    for url in page.urls:
        assert url.startswith(("#", "data:image/png;base64,")), url
    plots = [p for s in parts[store.name].values() for p in s.plots]
    assert len(page.images) == len(plots)
    for img, p in zip(page.images, plots):
        assert img["alt"] == p.caption
        assert base64.b64decode(img["src"].split(",", 1)[1]).startswith(PNG)
    assert {f"plot-{p.name}" for p in plots} <= page.ids
    assert set(parts[store.name]) <= page.ids
    for s in parts[store.name].values():
        for t in s.tables:
            assert f"table-{t.name}" in page.ids


@pytest.mark.parametrize("store", [SCOPA, BURA])
def test_markdown_links_its_png_plots_and_holds_every_table(built, parts, store):
    _, files = built[store.name]
    text = files.markdown.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]+\]\((plots/[a-z_]+\.png)\)", text)
    assert sorted(links) == sorted(f"plots/{p.name}.png" for s in parts[store.name].values()
                                   for p in s.plots)
    for link in links:
        assert (files.folder / link).read_bytes().startswith(PNG)
    assert sorted(files.plots) == sorted(files.folder / link for link in links)
    for s in parts[store.name].values():
        assert f"## {s.title}" in text
        for t in s.tables:
            header = "| " + " | ".join(map(str, t.shown.columns)) + " |"
            assert header in text, (s.key, t.name)
            assert f"`tables/{t.name}.csv`" in text


def test_rebuilding_gives_the_same_files(built, tmp_path):
    """Delete the report and rebuild it with the same command: byte-identical files (no time
    stamps anywhere)."""
    _, files = built[SCOPA.name]
    old = {p.relative_to(files.folder): p.read_bytes() for p in files.folder.rglob("*")
           if p.is_file()}
    out = tmp_path / "again"
    build_report(SCOPA, out=out, rebuild=rebuild_command(SCOPA, files.folder))
    new = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert sorted(old) == sorted(new)
    for rel in old:
        assert old[rel] == new[rel], rel
    build_report(SCOPA, out=out)                      # over an existing report: rewritten
    assert sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file()) == sorted(new)


def test_the_footer_names_the_command_that_rebuilds_the_report(tmp_path, monkeypatch):
    """The rebuild command names the run folder as it was given, relative to the current
    folder (``runs/demo``, not ``demo``), with ``--out`` only when the report goes elsewhere
    than RUN/report; and it works as printed."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(BURA, tmp_path / "runs" / "demo")
    build_report("runs/demo", fmt="md")
    text = (tmp_path / "runs/demo/report/report.md").read_text(encoding="utf-8")
    assert "rebuild with `cardsim report runs/demo`." in text
    build_report(tmp_path / "runs" / "demo", out=tmp_path / "elsewhere", fmt="html")
    html = (tmp_path / "elsewhere" / "report.html").read_text(encoding="utf-8")
    assert "rebuild with\n<code>cardsim report runs/demo --out elsewhere</code>." in html
    assert rebuild_command("/no where/x") == "cardsim report '/no where/x'"
    before = (tmp_path / "runs/demo/report/report.md").read_bytes()
    shutil.rmtree(tmp_path / "runs/demo/report")
    assert main(["report", "runs/demo", "--format", "md"]) == 0
    assert (tmp_path / "runs/demo/report/report.md").read_bytes() == before


def test_formats_and_the_default_folder(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(BURA, run)
    files = build_report(run, fmt="html")
    assert files.folder == run / "report" and files.markdown is None and not files.plots
    assert sorted(p.name for p in (run / "report").iterdir()) == ["report.html", "tables"]
    files = build_report(run, fmt="md")
    assert sorted(p.name for p in (run / "report").iterdir()) == ["plots", "report.md",
                                                                  "tables"]
    assert files.html is None and files.plots
    with pytest.raises(ReportError, match="format 'pdf'"):
        build_report(run, fmt="pdf")


# --- refusals -------------------------------------------------------------------------------

def test_unknown_schema_version_is_refused_with_what_to_do(capsys):
    with pytest.raises(StoreError, match=r"schema version 99.*reads versions 1, 2, 3: rerun"):
        build_report(DATA / "future_schema")
    assert main(["report", str(DATA / "future_schema")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "schema version 99" in err


def test_other_bad_runs_get_one_clear_line(tmp_path, capsys):
    empty = tmp_path / "empty"
    shutil.copytree(BURA, empty)
    for f in (empty / "batches").iterdir():
        f.unlink()
    with pytest.raises(ReportError, match="no finished batch yet: run"):
        build_report(empty)
    odd = tmp_path / "odd"
    shutil.copytree(BURA, odd)
    manifest = json.loads((odd / "manifest.json").read_text())
    manifest["spec"]["agents"] = ["heuristic", "alphazero:worlds=5"]
    (odd / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ReportError, match="spec this cardsim cannot read.*0.1"):
        build_report(odd)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(ReportError, match="holds other files"):
        build_report(BURA, out=busy)
    assert (busy / "notes.txt").exists()
    for argv in (["report", str(tmp_path / "missing")], ["report", str(empty)],
                 ["report", str(BURA), "--format", "pdf"]):
        assert main(argv) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_report_and_compare_commands(capsys, tmp_path):
    out = tmp_path / "r"
    assert main(["report", str(SCOPA), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{out / 'report.html'} and {out / 'report.md'}" in " ".join(printed.split())
    assert "9 plots" in printed and (out / "report.html").exists()
    assert main(["compare", str(SCOPA), str(DATA / "scopa_variant")]) == 0
    printed = capsys.readouterr().out
    assert "A: scopa_budget" in printed and "B: scopa_variant" in printed
    assert main(["compare", str(SCOPA), str(BURA)]) == 2
    assert "same game" in capsys.readouterr().err


def test_a_run_of_whole_partnership_matches():
    """unit = match with 2x2 Scopa: returns are match results (+1 / -1), the sentences say so
    and count matches, and the seat table has the four seats."""
    run = load_run(DATA / "scopa_matches")
    got = {s.key: s for s in sections(run)}
    line = got["summary"].text[0]
    first = report_tables(run.rows, run.agents)["matchups"].iloc[0]
    assert line.startswith(f"{agent_words(first['name']).capitalize()} wins "
                           f"{100 * first['win_rate']:.1f}% [{100 * first['win_rate_lo']:.1f}, "
                           f"{100 * first['win_rate_hi']:.1f}] of its matches against ")
    assert line.endswith(f", {run.rows['deal'].nunique()} duplicate matches ({len(run.rows)} "
                         "games).")
    spec = dict(got["study"].tables[0].data.values)
    assert spec["unit"].startswith("match") and spec["rules"] == "num_players=4"
    assert list(got["seats"].tables[0].data["seat"]) == [0, 1, 2, 3]
    assert set(run.rows[[f"return_{s}" for s in range(4)]].stack()) <= {-1.0, 1.0}


# --- thinking time (store schema 2) -----------------------------------------------

def test_a_schema_1_store_reads_and_says_time_per_seat_was_not_recorded(parts):
    """The example stores are of schema version 1 (no ``think_<s>`` columns): they still read,
    and the timing section says that equal time cannot be checked."""
    assert json.loads((SCOPA / "manifest.json").read_text())["schema_version"] == 1
    assert any("schema version 1" in t for t in parts[SCOPA.name]["timing"].text)


def _with_thinking(ratio: float):
    """The Scopa example run with thinking times: every seat but the random player's (agent 1,
    not timed: NaN) thinks 1 ms per decision over 10 decisions, agent 3
    (``ismcts:iterations=40``) ``ratio`` times as long."""
    import dataclasses
    run = load_run(SCOPA)
    rows = run.rows.copy()
    for s in range(2):
        agent = rows[f"seat_{s}"]
        rows[f"decisions_{s}"] = 10
        rows[f"think_{s}"] = np.where(agent != 1, 0.01 * np.where(agent == 3, ratio, 1.0),
                                      np.nan)
    return dataclasses.replace(run, rows=rows)


def test_the_report_says_whether_agents_thought_for_equal_time():
    """Matchups of two timed agents are checked for equal time per decision (within 10%):
    1.05 ms against 1 ms is equal, 2 ms against 1 ms is not, and the sentence names the matchup
    and its ratio; the thinking table gives each timed agent's milliseconds per decision."""
    timing = {s.key: s for s in sections(_with_thinking(1.05))}["timing"]
    assert any(t.startswith("Equal time per move") for t in timing.text), timing.text
    table = next(t for t in timing.tables if t.name == "thinking").data
    timed = table.dropna(subset=["ms_per_decision"]).set_index(["label", "name"])
    assert timed.loc[("ismcts:iterations=40 vs heuristic", "ismcts:iterations=40"),
                     "ms_per_decision"] == pytest.approx(1.05)
    assert timed.loc[("ismcts:iterations=40 vs heuristic", "heuristic"),
                     "time_ratio"] == pytest.approx(1 / 1.05)
    assert "random" not in set(timed.index.get_level_values("name"))
    uneven = {s.key: s for s in sections(_with_thinking(2.0))}["timing"]
    line = next(t for t in uneven.text if t.startswith("Not equal time per move"))
    assert "ismcts:iterations=40 vs heuristic (time ratio 0.50)" in line, line
    assert "ismcts:iterations=10" not in line


def test_agents_given_different_budgets_think_for_different_times_by_design():
    """In a study of strength against budget, 1 s against 0.1 s a move is a time ratio of 0.1
    by design: the sentence names it apart and does not call the run unequal; the same ratio
    between two agents of one budget (or against an agent without a budget) is unequal time."""
    from cardsim.reports.budgets import equal_time
    budgets = {"a": ("seconds", 1.0), "b": ("seconds", 0.1), "c": ("seconds", 1.0),
               "h": None}
    thinking = pd.DataFrame([
        {"label": "a vs b", "name": "a", "time_ratio": 1.0},
        {"label": "a vs b", "name": "b", "time_ratio": 0.1},
        {"label": "a vs c", "name": "a", "time_ratio": 1.0},
        {"label": "a vs c", "name": "c", "time_ratio": 1.05}])
    line = equal_time(thinking, budgets.get)
    assert line.startswith("Equal time per move") and "with the same budget" in line, line
    assert "by design: a vs b (time ratio 0.10)" in line
    only = equal_time(thinking[thinking["label"] == "a vs b"], budgets.get)
    assert only.startswith("No matchup pits two searching agents of the same budget"), only
    unequal = thinking.replace({"name": {"c": "h"}}).assign(time_ratio=[1.0, 0.1, 1.0, 0.5])
    line = equal_time(unequal, budgets.get)
    assert line.startswith("Not equal time per move: a vs c (time ratio 0.50)"), line
    assert "by design: a vs b" in line


def test_the_rating_list_puts_every_agent_of_the_budget_run_on_one_scale(parts):
    """The Scopa example run (heuristic against random and two ISMCTS budgets) rates its four
    agents, anchored at the heuristic, the larger budget above the smaller; the table is the
    one cardsim.experiments.ratings computes from the rows."""
    from cardsim.experiments.ratings import rating_table
    section = parts[SCOPA.name]["ratings"]
    data = section.tables[0].data
    assert set(data["name"]) == {"heuristic", "random", "ismcts:iterations=10",
                                 "ismcts:iterations=40"}
    elo = data.set_index("name")["elo"]
    assert elo["heuristic"] == 0 and elo["ismcts:iterations=40"] > elo["random"]
    run = load_run(SCOPA)
    assert data.reset_index(drop=True).equals(rating_table(run.rows, run.agents))
    assert section.plots and "rated highest" in section.text[0]


def test_the_rating_list_says_when_two_levels_are_one_agent():
    """Bura's ``strong`` and ``best`` are one search: the rating list says their ratings differ
    only by chance, read from the levels the manifest recorded; distinct agents get no such
    sentence."""
    from cardsim.reports.content import _same_agents
    same = "ismcts:iterations=1000,rollout=heuristic,c=2"
    levels = {"strong": same, "best": same, "medium": "heuristic"}
    (line,) = _same_agents(["best", "strong", "medium", "random"], levels)
    assert line.startswith("best and strong are the same agent here (") and same in line
    assert _same_agents(["best", "strong", "medium"], {"strong": "a", "best": "b"}) == []
    assert len(_same_agents(["medium", "heuristic"], levels)) == 1
