"""The report of a review (:mod:`cardsim.reports.review`): for every game, a deal played by
the heuristic and reviewed with small worlds gives one self-contained HTML file and a Markdown
report with the decisions table, the biggest mistake first, the totals with result − expected
= luck − loss, the expected result through the deal as a figure, and every decision's position
as the player saw it; a view record has no luck and says why."""
from __future__ import annotations

import base64
import dataclasses
import re
from html import escape
from html.parser import HTMLParser

import pytest

import cardsim
from cardsim.records.record import GameRecord
from cardsim.records.render import render_observation
from cardsim.reports import ReportError
from cardsim.reports.review import review_contents, write_review_report
from cardsim.solvers.agents import play
from cardsim.solvers.review import MARKS, ReviewConfig, review

GAMES = ["scopa", "bura", "mushka", "minchiate"]
PNG = b"\x89PNG\r\n\x1a\n"
CONFIG = ReviewConfig(players=(0,), worlds=8, baseline=50)


def played_record(name: str, seed: int = 3):
    """The record of the deal of ``seed`` played by the heuristic at every seat (seed 3: a
    Scopa and a Minchiate deal with blunders, a Mushka one where no move of seat 0 lost)."""
    game = cardsim.load_game(name)
    state = game.new_deal(seed=seed)
    play(state, ["heuristic"] * game.num_players, seed=1)
    return state.record()


@pytest.fixture(scope="module")
def reviews():
    """Each game's review, made once: {game: Review}."""
    return {name: review(played_record(name), CONFIG) for name in GAMES}


class _Page(HTMLParser):
    """Tags, ids, images, links and the text of every ``<pre>`` of an HTML page."""

    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.images, self.urls, self.pres = [], set(), [], [], []
        self.rows: dict[str, int] = {}
        self.table = None
        self.in_pre = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "img":
            self.images.append(attrs)
        for key in ("src", "href"):
            if key in attrs:
                self.urls.append(attrs[key])
        if tag == "table":
            self.table = attrs.get("id")
        if tag == "tr" and self.table:
            self.rows[self.table] = self.rows.get(self.table, 0) + 1
        if tag == "pre":
            self.in_pre = True
            self.pres.append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        if tag == "pre":
            self.in_pre = False

    def handle_data(self, data):
        if self.in_pre:
            self.pres[-1] += data


def worst_first(decisions):
    """The decisions that lost, the worst first: marked ones by their mark, then by loss."""
    lost = decisions[decisions["loss"] > 0]
    rank = {m: i + 1 for i, m in enumerate(MARKS)}
    return sorted(lost.itertuples(index=False),
                  key=lambda d: (-rank.get(d.mark, 0), -d.loss, d.decision))


def hands(rv) -> list[str]:
    """The hand line each decision's position must show (from the player's observation)."""
    game = rv.record.game
    return ["your hand: " + " ".join(game.from_dict(p).observation(int(seat))["hand"])
            for p, seat in zip(rv.positions, rv.decisions["seat"])]


@pytest.mark.parametrize("name", GAMES)
def test_the_html_report_is_one_self_contained_file(reviews, tmp_path, name):
    """One HTML file: no script, link or outside address; the decisions table with a row per
    decision; the figure of the expected result embedded as PNG; every position in a block
    with the player's hand."""
    rv = reviews[name]
    assert len(rv.decisions) > 0
    files = write_review_report(rv, tmp_path / "report", fmt="html")
    assert files.markdown is None and files.html == tmp_path / "report" / "report.html"
    assert sorted(p.name for p in files.folder.iterdir()) == ["report.html", "tables"]
    text = files.html.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    page.close()
    assert not {"script", "link", "iframe", "object", "embed"} & set(page.tags)
    assert not re.search(r"url\(|@import|https?://", text)
    for url in page.urls:
        assert url.startswith(("#", "data:image/png;base64,")), url
    assert {"review", "totals", "path", "mistakes", "decisions", "positions"} <= page.ids
    assert page.rows["table-decisions"] == len(rv.decisions) + 1          # and the header
    (img,) = page.images
    assert base64.b64decode(img["src"].split(",", 1)[1]).startswith(PNG)
    assert len(page.pres) == len(rv.decisions)
    for pre, hand in zip(page.pres, hands(rv)):
        assert hand in pre.splitlines()
    for d in rv.decisions.itertuples(index=False):
        assert f"<td class=\"txt\">{escape(d.played)}</td>" in text
        assert f"<td class=\"txt\">{escape(d.best)}</td>" in text


@pytest.mark.parametrize("name", GAMES)
def test_the_markdown_report_names_the_biggest_mistake_first(reviews, tmp_path, name):
    """The Markdown report: the biggest mistake first (with the better move and both values),
    the totals' identity in numbers, the figure beside it, every position with the hand."""
    rv = reviews[name]
    files = write_review_report(rv, tmp_path / "report", fmt="md")
    assert files.html is None and [p.name for p in files.plots] == ["path.png"]
    assert files.plots[0].read_bytes().startswith(PNG)
    text = files.markdown.read_text(encoding="utf-8")
    assert "![" in text and "(plots/path.png)" in text
    mistakes = text.split("## Biggest mistakes", 1)[1].split("\n## ", 1)[0]
    worst = worst_first(rv.decisions)
    if worst:
        first = worst[0]
        words = (f"1. Decision {first.decision} (move {first.move + 1}, seat 0): played "
                 f"{first.played} ({first.played_value:+.2f}); better {first.best} "
                 f"({first.best_value:+.2f}); loss {first.loss:.2f} [")
        assert re.search("^" + re.escape(words), mistakes, re.M), mistakes[:800]
        rows = [line for line in mistakes.splitlines() if line.startswith("| 1 |")]
        assert rows and f"| {first.played} |" in rows[0] and f"| {first.best} |" in rows[0]
    else:
        assert "No reviewed move lost" in mistakes
    t = rv.totals.iloc[0]
    assert (f"result − expected = {t['result'] - t['expected_before']:+.2f} = luck "
            f"{t['luck']:+.2f} ±{t['luck_half']:.2f} − loss {t['loss']:.2f}") in text
    blocks = re.findall(r"```text\n(.*?)\n```", text, re.S)
    assert len(blocks) == len(rv.decisions)
    for block, hand in zip(blocks, hands(rv)):
        assert hand in block.splitlines()
        assert "<- played" in block


def test_the_csv_tables_hold_the_review(reviews, tmp_path):
    """tables/*.csv: the decisions as the review has them, and the totals."""
    import pandas as pd
    rv = reviews["scopa"]
    files = write_review_report(rv, tmp_path / "report")
    assert {p.name for p in files.tables} >= {"review.csv", "totals.csv", "decisions.csv"}
    got = pd.read_csv(files.folder / "tables" / "decisions.csv", keep_default_na=False)
    assert list(got["played"]) == list(rv.decisions["played"])
    assert got["loss"].tolist() == pytest.approx(rv.decisions["loss"].tolist())
    again = write_review_report(rv, tmp_path / "report")        # rewritten whole, same bytes
    for a, b in zip(files.plots + files.tables, again.plots + again.tables):
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("name", GAMES)
def test_a_view_record_has_no_luck_and_says_why(tmp_path, name):
    """A view record (seat 0's decisions only, no start): no expectation before the deal and no
    luck, said in words; no move numbers; positions still rendered with the hand."""
    record = played_record(name, seed=7)
    views = [{"position": s.to_dict(), "move": s.action_to_string(a)}
             for s, a, seat in record.decisions() if seat == 0 and len(s.legal_actions()) > 1]
    view = GameRecord(game=record.game, seats=record.seats, player=0, views=tuple(views[:4]),
                      moves=tuple(v["move"] for v in views[:4]))
    rv = review(view, CONFIG)
    files = write_review_report(rv, tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    assert "Luck is not known: a view record has neither the deal's start" in text
    assert "view record of seat 0's 4 decisions" in text
    header = next(line for line in text.splitlines() if line.startswith("| decision |"))
    assert "| move |" not in header
    assert "| n/a | n/a | n/a |" in text                  # expected before, result, luck
    for hand in hands(rv):
        assert hand in text
    assert files.plots[0].read_bytes().startswith(PNG)


def test_a_review_without_a_lost_move_says_so(reviews):
    rv = reviews["bura"]
    flat = rv.decisions.assign(best=rv.decisions["played"], loss=0.0, loss_low=0.0,
                               loss_high=0.0, mark="", best_value=rv.decisions["played_value"])
    parts, _ = review_contents(dataclasses.replace(rv, decisions=flat))
    mistakes = next(s for s in parts if s.key == "mistakes")
    assert mistakes.tables == [] and mistakes.text[0].startswith("No reviewed move lost")
    positions = next(s for s in parts if s.key == "positions")
    assert all(b.caption.endswith("the best move.") for b in positions.blocks)


def test_a_loss_in_match_winning_chance_is_shown(reviews):
    rv = reviews["scopa"]
    decisions = rv.decisions.assign(match_loss=0.25, match_low=0.125, match_high=0.375)
    parts, _ = review_contents(dataclasses.replace(rv, decisions=decisions))
    table = next(s for s in parts if s.key == "decisions").tables[0].shown
    assert set(table["match loss [95%]"]) == {"0.250 [0.125, 0.375]"}


def test_bad_formats_and_folders_are_refused(reviews, tmp_path):
    rv = reviews["scopa"]
    with pytest.raises(ReportError, match="format 'pdf'"):
        write_review_report(rv, tmp_path / "r", fmt="pdf")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(ReportError, match="holds other files"):
        write_review_report(rv, tmp_path / "busy")


def test_a_trick_of_seat_card_pairs_reads_in_playing_order():
    """Mushka's and Minchiate's trick (``[[seat, card], ...]``, playing order) is written as who
    played which card; an empty trick is still ``none``."""
    obs = {"player": 1, "to_move": 1, "hand": ["Js", "Ac"], "trick": [[3, "Ad"], [0, "Qc"]]}
    lines = render_observation(obs, human_seat=1, n_players=4)
    assert "trick: seat 3 Ad, seat 0 Qc" in lines
    assert "trick: none" in render_observation({**obs, "trick": []}, 1, 4)
    assert "trick: you Ad" in render_observation({**obs, "trick": [[1, "Ad"]]}, 1, 4)
