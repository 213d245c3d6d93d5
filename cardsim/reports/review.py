"""The report of a review (:mod:`cardsim.solvers.review`): a played deal's decisions rated as
the player saw them, written as a report like an experiment's (:mod:`cardsim.reports.build`):
``report.html``, one self-contained file with its figure embedded, ``report.md`` with
``plots/*.png`` beside it, and ``tables/*.csv`` (every table in full).

Sections, in order:

``review``     what was reviewed and how: the game and its rules, the record (a full one or a
               player's views), who played each seat, the seats reviewed, the evaluator, the
               worlds per decision, the seeds, the marks' thresholds.
``totals``     per reviewed seat: the decisions, the loss in all and per decision, the marks, the
               expected result before the deal, the result and luck, with
               ``result - expected = luck - loss`` in the seat's numbers.
``path``       the expected result through the deal, per seat, as a figure.
``mistakes``   the moves that lost against the best, the worst first (marked moves first, the
               worst mark first, then by loss), each with the better move and both values.
``decisions``  every reviewed decision: the move played, the best, the loss with its 95%
               interval, the mark.
``positions``  each decision's position as the reviewed player saw it (his observation, shown
               as the terminal game shows it: :mod:`cardsim.records.render`), then every legal move's
               value, best first.

Everything is read from the :class:`~cardsim.solvers.review.Review`; nothing is searched again.
"""
from __future__ import annotations

import math

import pandas as pd

from cardsim import __version__
from cardsim.protocol.options import non_default
from cardsim.records.render import View
from cardsim.solvers.review import MARKS, PLURALS, count_of
from cardsim.stats import fmt_interval

from . import plots
from .build import ReportFiles, write_report
from .content import Block, Plot, Section, Table

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The marks as written on the figure (chess annotation)."""


def write_review_report(rv, out, fmt: str = "both") -> ReportFiles:
    """Write the report of the review ``rv`` (a :class:`cardsim.solvers.review.Review`) into the folder
    ``out`` in format ``"html"``, ``"md"`` or ``"both"`` (module docstring); the folder is
    rewritten whole, as :func:`cardsim.reports.build.write_report` does. Returns what was written."""
    return write_report(lambda: review_contents(rv), out, fmt, template="review")


def review_contents(rv) -> tuple[list[Section], dict]:
    """The report's sections and what the templates say of the review (module docstring)."""
    return _ReviewReport(rv).contents()


def _num(v, spec: str = "+.2f") -> str:
    """A number for the report, ``n/a`` when it is missing."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return format(v + 0.0, spec)              # + 0.0: no "-0.00"


def _mark_order(mark: str) -> int:
    return MARKS.index(mark) + 1 if mark in MARKS else 0


class _ReviewReport:
    """The sections of one review's report (module docstring)."""

    def __init__(self, rv) -> None:
        self.rv = rv
        self.record = rv.record
        self.game = rv.record.game
        self.n = self.game.num_players
        self.unit = self.game.definition.return_unit
        self.decisions = rv.decisions.reset_index(drop=True)
        self.match = "match_loss" in self.decisions.columns
        self.seats = [int(s) for s in rv.totals["seat"]] if len(rv.totals) else []
        self.who = {int(t.seat): str(t.who) for t in rv.totals.itertuples(index=False)}

    def contents(self) -> tuple[list[Section], dict]:
        parts = [self.settings(), self.totals(), self.path(), self.mistakes(),
                 self.decision_table(), self.positions()]
        return [s for s in parts if s is not None], self.context()

    # --- what the templates say -------------------------------------------------------------

    def seat_names(self) -> str:
        return ", ".join(f"{s} ({self.who[s]})" for s in self.seats)

    def context(self) -> dict:
        rv, record = self.rv, self.record
        seats = "seat" + ("s" if len(self.seats) != 1 else "")
        title = (f"{self.game.name.capitalize()} review of {seats} "
                 f"{', '.join(str(s) for s in self.seats)}")
        if record.is_view:
            what = f"view record of seat {record.player}'s {len(record.views)} decisions"
        else:
            what = f"record of {len(record.moves)} moves" + (
                f", dealt from seed {record.seed}" if record.seed is not None else "")
        byline = (f"{self.game.name} · {what} · {len(self.decisions)} reviewed decisions · "
                  f"review by cardsim {__version__}")
        footer = (f"Built from the review alone. Values are expected returns in {self.unit} "
                  "from the reviewed player's information only: "
                  f"{rv.config.worlds} worlds per decision sampled from what he had seen (never "
                  f"the true hidden cards), the rest of the deal played out by "
                  f"{rv.config.agent}. Intervals are 95%, over the worlds: a loss's is paired "
                  "world by world.")
        return {"title": title, "byline": byline, "footer": footer, "game": self.game.name}

    # --- the review -------------------------------------------------------------------------

    def settings(self) -> Section:
        rv, record = self.rv, self.record
        changed = non_default(self.game.rules)
        if record.is_view:
            kind = (f"a view record: seat {record.player}'s decisions as he saw them (the "
                    "cards he could not see are sampled again)")
        else:
            kind = f"a full record: every card known, {len(record.moves)} moves"
        if record.result is not None:
            result = ", ".join(f"seat {s} {r:+g}" for s, r in enumerate(record.result))
        else:
            result = "not given" if record.is_view else "none (the record stops before the end)"
        rows = [
            ("game", self.game.name),
            ("rules", ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"),
            ("record", kind),
            *([("deal seed", str(record.seed))] if record.seed is not None else []),
            ("seats", "; ".join(f"{s}: {who}" for s, who in enumerate(record.seats))),
            ("result", result),
            ("reviewed", self.seat_names() or "none"),
            ("evaluator", rv.config.agent),
            ("worlds per decision", str(rv.config.worlds)),
            ("review seed", str(rv.config.seed)),
            ("marks at", ", ".join(f"{m} {t:g}" for m, t in zip(MARKS, rv.thresholds))
             + f" {self.unit}"),
            ("expected before the deal", f"{rv.config.baseline:,} deals of {rv.config.agent} "
             "against itself" if rv.config.baseline > 0 and not record.is_view
             else "not measured"),
        ]
        data = pd.DataFrame(rows, columns=["setting", "value"])
        text = [f"Each decision of the reviewed seats with two or more legal moves is valued "
                f"from the deciding player's information only: {rv.config.worlds} worlds "
                "sampled from what he had seen, every legal move played in each, the rest of "
                f"the deal played out by {rv.config.agent}. The best move has the highest mean "
                "return; a move's loss is the best's return minus its own, paired world by "
                "world, with its 95% interval. A move is marked (" + ", ".join(
                    f"{m} from {t:g}" for m, t in zip(MARKS, rv.thresholds))
                + f" {self.unit}) only when its loss reaches the threshold and the interval "
                "of the loss lies above 0."]
        if self.match:
            text.append("With a match-equity table, each loss is also given in match-winning "
                        "chance (match loss).")
        return Section("review", "The review", text,
                       [Table("review", "What was reviewed and how.", data, data)])

    # --- totals -----------------------------------------------------------------------------

    def totals(self) -> Section:
        data = self.rv.totals.copy()
        text = ["A deal's result splits into what the player's choices cost and luck: "
                "result − expected before the deal = luck − loss. The loss is the sum of his "
                "moves' losses; luck is what moved his expected result between his decisions "
                "(the cards he received and the others' moves, valued from his information)."]
        for t in data.itertuples(index=False):
            marks = ", ".join(count_of(int(getattr(t, PLURALS[m])), m) for m in MARKS)
            line = (f"Seat {t.seat} ({t.who}): {t.decisions} decisions, loss {t.loss:.2f} "
                    f"±{t.loss_half:.2f} {self.unit} ({t.loss_per_decision:.3f} a decision); "
                    f"{marks}. ")
            if not math.isnan(t.luck):
                line += (f"Expected before the deal {t.expected_before:+.2f}, result "
                         f"{t.result:+g}: result − expected = {t.result - t.expected_before:+.2f}"
                         f" = luck {t.luck:+.2f} ±{t.luck_half:.2f} − loss {t.loss:.2f}.")
            else:
                line += "Luck is not known: " + self.no_luck(t) + "."
            text.append(line)
        shown = pd.DataFrame({
            "seat": data["seat"].astype(str), "who": data["who"].astype(str),
            "decisions": data["decisions"].astype(str),
            "loss": [_num(v, ".2f") for v in data["loss"]],
            "± (95%)": [_num(v, ".2f") for v in data["loss_half"]],
            "loss per decision": [_num(v, ".3f") for v in data["loss_per_decision"]],
            **{PLURALS[m]: data[PLURALS[m]].astype(str) for m in MARKS},
            "expected before": [_num(v) for v in data["expected_before"]],
            "result": [_num(v, "+g") for v in data["result"]],
            "luck": [_num(v) for v in data["luck"]],
            "luck ± (95%)": [_num(v, ".2f") for v in data["luck_half"]]})
        return Section("totals", "Totals", text, [Table(
            "totals", f"Per reviewed seat, in {self.unit}: result − expected before = luck − "
            "loss.", data, shown)])

    def no_luck(self, t) -> str:
        if self.record.is_view:
            return "a view record has neither the deal's start nor its other seats' cards"
        if math.isnan(t.result):
            return "the record stops before the deal's end (no result)"
        if math.isnan(t.expected_before):
            return "the expected result before the deal was not measured (no baseline deals)"
        return "the seat made no reviewed decision"

    # --- the expected result through the deal ------------------------------------------------

    def path(self) -> Section:
        path = self.rv.path
        marks = {(int(d.seat), int(d.move)): SYMBOLS[d.mark]
                 for d in self.decisions.itertuples(index=False) if d.mark in SYMBOLS}
        names = {s: f"seat {s} ({self.who[s]})" for s in self.seats}
        text = ["The reviewed player's expected result through the deal: before the deal "
                "(the evaluator's mean return at his seat over random deals), before and after "
                "each of his decisions (the best move's value, then the played move's), and the "
                "result. Within a decision the expected result drops by the move's loss; "
                "between decisions it moves by luck. Marks: "
                + ", ".join(f"{s} {m}" for m, s in SYMBOLS.items()) + "."]
        missing = path[path["value"].isna() & path["when"].isin(["before the deal", "result"])]
        if len(missing):
            text.append("Not drawn, being unknown: " + "; ".join(
                f"seat {r.seat}'s {'expected result before the deal' if r.when != 'result' else 'result'}"
                for r in missing.itertuples(index=False)) + ".")
        figure = plots.expected_path(
            path, f"expected result ({self.unit})",
            f"{self.game.name}: the expected result through the deal", names, marks,
            xlabel="decision" if self.record.is_view else "move of each decision")
        return Section("path", "The expected result through the deal", text, [],
                       [Plot("path", "Expected result before the deal, before and after each "
                             "decision, and the result.", figure)])

    # --- mistakes ---------------------------------------------------------------------------

    def worst_first(self) -> pd.DataFrame:
        """The decisions whose move lost against the best: marked ones first, the worst mark
        first, then by loss, largest first."""
        lost = self.decisions[self.decisions["loss"] > 0].copy()
        lost["_order"] = [_mark_order(m) for m in lost["mark"]]
        lost = lost.sort_values(["_order", "loss", "decision"], ascending=[False, False, True],
                                kind="stable")
        return lost.drop(columns="_order").reset_index(drop=True)

    def mistakes(self) -> Section:
        lost = self.worst_first()
        if not len(lost):
            return Section("mistakes", "Biggest mistakes", [
                "No reviewed move lost against the best move of its decision: every move "
                "played was the best in its worlds."])
        counts = {m: int((lost["mark"] == m).sum()) for m in MARKS}
        text = [f"{len(lost)} of {len(self.decisions)} reviewed moves lost against the best "
                "move of their decision; " + (", ".join(
                    count_of(c, m) for m, c in counts.items() if c)
                    or "none is marked (no loss reached a threshold with its interval above 0)")
                + ". The worst first: marked moves by their mark, then by loss."]
        for rank, d in enumerate(lost.head(5).itertuples(index=False), 1):
            text.append(f"{rank}. {self.decision_words(d)}")
        data = lost.copy()
        data.insert(0, "rank", range(1, len(lost) + 1))
        shown = pd.DataFrame({
            "rank": data["rank"].astype(str), "decision": data["decision"].astype(str),
            **self.moves(data), "seat": data["seat"].astype(str),
            "played": data["played"], "played value": [_num(v) for v in data["played_value"]],
            "better move": data["best"], "better value": [_num(v) for v in data["best_value"]],
            "loss [95%]": self.losses(data), **self.match_losses(data), "mark": data["mark"]})
        return Section("mistakes", "Biggest mistakes", text, [Table(
            "mistakes", f"The moves that lost against the best, the worst first (values in "
            f"{self.unit}); each decision's position is under Positions.", data, shown)])

    def decision_words(self, d) -> str:
        """A decision in one sentence: where, the move played, the better one, the loss."""
        where = [] if self.record.is_view else [f"move {d.move + 1}"]
        where.append(f"seat {d.seat}")
        if self.decisions["deal"].nunique() > 1:
            where.append(f"deal {d.deal}")
        head = f"Decision {d.decision} ({', '.join(where)}): played {d.played} "
        if d.played == d.best:
            return head + f"({_num(d.played_value)}), the best move."
        mark = f", {'an' if d.mark == 'inaccuracy' else 'a'} {d.mark}" if d.mark else ""
        return head + (f"({_num(d.played_value)}); better {d.best} ({_num(d.best_value)}); loss "
                       f"{fmt_interval(d.loss, d.loss_low, d.loss_high, 2)} {self.unit}{mark}.")

    def moves(self, data: pd.DataFrame) -> dict:
        """The move-number column, but for a view record (its decisions have no move number in
        the deal)."""
        return {} if self.record.is_view else {"move": (data["move"] + 1).astype(str)}

    def losses(self, data: pd.DataFrame) -> list[str]:
        return [fmt_interval(v, lo, hi, 2) for v, lo, hi in
                zip(data["loss"], data["loss_low"], data["loss_high"])]

    def match_losses(self, data: pd.DataFrame) -> dict:
        if not self.match:
            return {}
        return {"match loss [95%]": [fmt_interval(v, lo, hi, 3) for v, lo, hi in zip(
            data["match_loss"], data["match_low"], data["match_high"])]}

    # --- decisions --------------------------------------------------------------------------

    def decision_table(self) -> Section:
        data = self.decisions
        deals = data["deal"].nunique() > 1 if len(data) else False
        shown = pd.DataFrame({
            "decision": data["decision"].astype(str), **self.moves(data),
            "seat": data["seat"].astype(str),
            **({"deal": data["deal"].astype(str)} if deals else {}),
            "played": data["played"], "played value": [_num(v) for v in data["played_value"]],
            "best": data["best"], "best value": [_num(v) for v in data["best_value"]],
            "loss [95%]": self.losses(data), **self.match_losses(data), "mark": data["mark"],
            "moves": data["actions"].astype(str)})
        text = [f"Every reviewed decision in the order played: the move played and the best "
                f"with their expected returns ({self.unit}), the loss with its 95% interval, "
                "the mark, and the number of legal moves."]
        if not len(data):
            text = ["No decision to review: the reviewed seats never chose among two or more "
                    "legal moves."]
        return Section("decisions", "Decisions", text, [Table(
            "decisions", f"Reviewed decisions (values in {self.unit}).", data, shown)])

    # --- positions --------------------------------------------------------------------------

    def positions(self) -> Section | None:
        rv = self.rv
        if not len(self.decisions) or len(rv.positions) != len(self.decisions):
            return None
        blocks = []
        actions = rv.actions
        for d, position in zip(self.decisions.itertuples(index=False), rv.positions):
            seat = int(d.seat)
            obs = self.game.from_dict(position).observation(seat)
            lines = View(self.n, seat).render(obs)
            mine = actions[actions["decision"] == d.decision].sort_values(
                "value", ascending=False, kind="stable")
            width = max((len(a) for a in mine["action"]), default=0)
            lines.append("")
            lines.append(f"moves: expected return ({self.unit}) [95% interval], best first")
            for a in mine.itertuples(index=False):
                notes = [w for w, flag in (("played", a.played), ("best", a.best)) if flag]
                lines.append(f"  {a.action:<{width}}  {a.value:+.2f} [{a.low:+.2f}, "
                             f"{a.high:+.2f}]" + (f"  <- {', '.join(notes)}" if notes else ""))
            blocks.append(Block(f"position-{d.decision}", self.decision_words(d), lines))
        text = ["Each decision's position as the reviewed player saw it: his hand, the table "
                "or the trick, and what else he knew (his observation; the cards he could not "
                "see are not shown), then the value of every legal move in the same worlds."]
        return Section("positions", "Positions", text, blocks=blocks)


__all__ = ["review_contents", "write_review_report"]
