"""What a report says: its sections, chosen by what the run holds, each with text, tables and
figures. Everything here is computed from the store's manifest and rows
(:class:`cardsim.reports.run.Run`); nothing is replayed.

Sections, in order (a section is left out when the run holds nothing for it):

``summary``        the answer first: who is better and how sure we are (the
                   sentences the terminal prints, :mod:`.headline`): each matchup's first
                   agent's mean return per deal with its paired 95% interval, in words and as
                   a plot; the SPRT verdicts when the run used one.
``study``          the question and the spec: game, rules that differ from the default, agents,
                   matchups, size, seed, the cardsim version that ran it, games used.
``results``        win, draw and loss rates per matchup (Wilson 95% intervals), table and plot.
``ratings``        the rating list: every agent on one Elo scale (Bradley–Terry from the 2-agent
                   matchups, 95% bootstrap intervals), when three or more agents are rated.
``distributions``  the first agent's return in each game and its duplicate margin per deal.
``categories``     mean points per game in each scoring category the game declares.
``ends``           how the deals ended, and the claimant's points at the claim (Bura).
``seats``          seat and dealer advantage.
``budget``         strength against search budget, when the run has searching agents that differ
                   only in their budget and meet the same opponent.
``timing``         moves per game and milliseconds per move.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardsim.experiments import tables as T
from cardsim.experiments.rows import RETURN, SEAT, category, n_seats, seat_columns, thinking_recorded
from cardsim.experiments.spec import ExperimentSpec
from cardsim.game import definition
from cardsim.protocol.options import non_default
from cardsim.solvers.agent_spec import parse_agent, search_budget
from cardsim.stats import mean_interval

from . import plots
from .budgets import budget_table, equal_time
from .headline import answers
from .plots import human
from .run import Run


@dataclass
class Table:
    """A table of a section: ``data`` is written to CSV as it is; ``shown`` (intervals as
    ``"m [lo, hi]"`` strings, chosen columns) is what the report prints."""

    name: str
    caption: str
    data: pd.DataFrame
    shown: pd.DataFrame


@dataclass
class Plot:
    """A figure of a section, rendered to ``plots/<name>.png``."""

    name: str
    caption: str
    figure: object


def pages(name: str, caption: str, figures) -> list[Plot]:
    """The plots of a figure split into several (a list of figures: ``name``, ``name_2``, ...,
    each caption saying which part it is); one figure is one plot."""
    if not isinstance(figures, list):
        return [Plot(name, caption, figures)]
    if len(figures) == 1:
        return [Plot(name, caption, figures[0])]
    return [Plot(name if i == 0 else f"{name}_{i + 1}",
                 f"{caption} (part {i + 1} of {len(figures)})", f)
            for i, f in enumerate(figures)]


@dataclass
class Block:
    """Preformatted lines of a section, printed as they are (a position as a player saw it,
    in a review's report); ``name`` is its anchor in the report."""

    name: str
    caption: str
    lines: list[str]


@dataclass
class Section:
    key: str
    title: str
    text: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


def _show(data: pd.DataFrame, columns: list[str], names: dict | None = None,
          digits: int = 3) -> pd.DataFrame:
    shown = T.format_table(data, digits)
    shown = shown[[c for c in columns if c in shown.columns]]
    for c in ("category", "end"):                  # names of the data, as a title says them
        if c in shown.columns:
            shown[c] = [human(v) for v in shown[c]]
    shown = shown.rename(columns=names or {})
    shown.columns = [human(c) for c in shown.columns]
    for c in shown.columns:
        if shown[c].dtype.kind == "f":
            shown[c] = [("" if math.isnan(v) else f"{v:.{digits}f}") for v in shown[c]]
    return shown


def at_least_zero(data: pd.DataFrame, column: str) -> pd.DataFrame:
    """``data`` with the lower bound of ``column``'s interval clipped at 0 (a quantity that
    cannot be negative: its t interval may reach below 0, its true value not)."""
    return data.assign(**{f"{column}_lo": data[f"{column}_lo"].clip(lower=0.0)})


def shown_table(name: str, data: pd.DataFrame, columns: list[str], names: dict | None = None,
           caption: str | None = None, digits: int = 3) -> Table:
    return Table(name, caption or data.attrs.get("note", ""), data,
                 _show(data, columns, names, digits))


class _Report:
    """The sections of one run's report (module docstring)."""

    def __init__(self, run: Run):
        self.run = run
        self.spec = run.spec
        self.agents = run.agents
        self.game = self.spec.load()
        self.definition = definition(self.spec.game)
        self.rows = run.rows
        self.tables = T.report_tables(self.rows, self.agents, self.spec.sprt,
                                      self.definition.zero_sum)
        self.long = T.agent_results(self.rows, self.agents)
        self.order = T.matchup_agents(self.rows)
        per = "match" if self.spec.unit == "match" else "deal"
        self.unit = ("per match (+1 won, -1 lost)" if per == "match"
                     else f"{self.definition.return_unit} per deal")
        self.per = per
        m = self.tables["matchups"]
        self.first = m.drop_duplicates("matchup", keep="first").reset_index(drop=True)
        for end in ("", "_lo", "_hi"):      # the first agent's return minus the other's
            self.first[f"lead{end}"] = 2.0 * self.first[f"margin{end}"]
        self.contests = self.first[[len(set(self.order[k])) > 1 for k in self.first["matchup"]]]

    def sections(self) -> list[Section]:
        out = [self.summary(), self.study(), self.results(), self.ratings(),
               self.distributions(), self.categories(), self.ends(), self.seats(),
               self.budget(), self.timing()]
        return [s for s in out if s is not None]

    # --- the study ---------------------------------------------------------------------------

    def study(self) -> Section:
        run = self.run
        data = pd.DataFrame(spec_settings(self.spec, run.manifest, self.unit)
                            + [("games", f"{len(self.rows):,} used ({run.stored_games:,} stored)"),
                               ("run by", f"cardsim {run.manifest.get('package_version', '?')}")],
                            columns=["setting", "value"])
        text = [self.spec.question or "The run's spec states no question."]
        return Section("study", "The study", text,
                       [Table("spec", "The experiment's spec as the store's manifest keeps it: "
                              "every key it set.", data, data)])

    # --- who is better ------------------------------------------------------------------------

    def summary(self) -> Section:
        """The run's answer: one sentence per matchup (:mod:`.headline`, as the terminal
        prints it), with the SPRT's verdict where the run used one."""
        text, rows = [], []
        value, column = "mean_return", "mean return"
        if not self.definition.zero_sum:
            text.append(f"A deal's returns in {self.spec.game} do not add up to 0: every seat "
                        "can gain at once, so a return alone does not say who is better. Two "
                        "agents are compared by the difference of their returns in the same "
                        "games: the first agent's mean return minus the other's (each the mean "
                        "over its seats), paired over duplicate deals.")
            value, column = "lead", "return minus the other's"
        if self.per == "match":
            column = "share of matches won (percent)"
        sprt = self.tables.get("sprt")
        said = answers(self.rows, self.agents, self.spec.unit, self.definition.return_unit,
                       self.definition.zero_sum, self.tables["matchups"])
        for (_, r), answer in zip(self.first.iterrows(), said):
            line = answer.text
            row = {"matchup": r["label"], "first agent": r["name"], column: answer.figure,
                   "deals": answer.count, "verdict": answer.verdict}
            if sprt is not None:
                t = sprt[sprt["matchup"] == int(r["matchup"])]
                if len(t):
                    row["SPRT"] = _sprt_words(t.iloc[0])
                    line += f" SPRT: {row['SPRT']}."
            text.append(line)
            if answer.verdict is not None:
                rows.append(row)
        section = Section("summary", "Who is better", text)
        if rows:
            data = pd.DataFrame(rows)
            section.tables.append(Table(
                "summary", f"Each matchup's first agent: its {column} with the 95% "
                "interval paired over duplicate deals, and the verdict at 95%.", data, data))
            section.plots.append(Plot(
                "mean_return", f"The first agent's {column} per matchup, 95% intervals; "
                "right of the dashed line it wins.",
                plots.forest(self.contests, "label", value,
                             f"first agent's {column} ({self.unit})",
                             f"{column.capitalize()} of the first agent of each matchup")))
        if sprt is not None and len(sprt):
            section.tables.append(shown_table(
                "sprt", sprt, ["label", "name", "kind", "lower", "upper", "n", "estimate",
                               "llr", "lower_bound", "upper_bound", "verdict"],
                {"label": "matchup", "name": "first agent", "n": "deals"}))
        return section

    # --- results -----------------------------------------------------------------------------

    def results(self) -> Section:
        m = self.tables["matchups"]
        table = shown_table("matchups", m, [          # a zero-sum game's margin is the return
            "label", "name", "games", "deals", "win_rate", "draw_rate", "loss_rate", "score",
            "mean_return", *([] if self.definition.zero_sum else ["margin"])],
            {"label": "matchup", "name": "agent"})
        section = Section("results", "Win, draw and loss per matchup", [
            f"Every agent's share of games won, drawn and lost (return > 0, = 0, < 0), its "
            f"score (1 a win, 1/2 a draw) and its mean return in {self.unit}."], [table])
        if len(self.contests):
            section.plots.append(Plot(
                "win_draw_loss", "Win, draw and loss rates of each matchup's first agent, "
                "95% Wilson intervals.",
                plots.grouped_bars(self.contests, "label", [
                    ("win_rate", "won"), ("draw_rate", "drawn"), ("loss_rate", "lost")],
                    "share of games (0 to 1)", "Results of the first agent of each matchup",
                    xlim=(0, 1))))
        return section

    # --- ratings -----------------------------------------------------------------------------

    def ratings(self) -> Section | None:
        data = self.tables["ratings"]
        if not len(data):
            return None
        best = data.iloc[0]
        text = [f"Every agent on one Elo scale, from the paired scores of its matchups: "
                f"{best['name']} is rated highest, {best['elo']:+.0f} "
                f"[{best['elo_lo']:+.0f}, {best['elo_hi']:+.0f}]. "
                "A difference of 100 Elo is a score of about 0.64 (wins plus half the draws) "
                "between the two agents."]
        text += _same_agents(list(data["name"]), self.run.manifest.get("levels", {}))
        return Section(
            "ratings", "Rating list", text,
            [shown_table("ratings", data, ["name", "elo", "matchups", "deals", "score"],
                    {"name": "agent"}, digits=1)],
            [Plot("ratings", "Elo ratings with 95% bootstrap intervals.",
                  plots.forest(data, "name", "elo", "Elo rating (anchor = 0)",
                               "Rating list"))])

    # --- distributions -----------------------------------------------------------------------

    def distributions(self) -> Section | None:
        if not len(self.contests):
            return None
        games, deals, paired, rows = {}, {}, {}, []
        means = T.deal_means(self.long)
        for _, r in self.contests.iterrows():
            m, k = int(r["matchup"]), int(r["agent"])
            g = self.long[(self.long["matchup"] == m) & (self.long["agent"] == k)]["return"]
            d = means[(means["matchup"] == m) & (means["agent"] == k)]["return"]
            label = f"{r['label']} ({r['name']})"
            games[label], deals[label] = g.to_numpy(float), d.to_numpy(float)
            paired[label] = (r["mean_return"], r["mean_return_lo"], r["mean_return_hi"])
            for what, v in (("return per game", games[label]),
                            ("margin per deal", deals[label])):
                q = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95])
                est, lo, hi = mean_interval(v)
                if what == "return per game":     # games of a deal are not independent:
                    lo = hi = math.nan              # the paired interval is the margin's
                rows.append({"matchup": r["label"], "agent": r["name"], "value": what,
                             "n": v.size, "mean": est, "mean_lo": lo, "mean_hi": hi,
                             "sd": float(v.std(ddof=1)) if v.size > 1 else math.nan,
                             "min": v.min(), "p5": q[0], "p25": q[1], "median": q[2],
                             "p75": q[3], "p95": q[4], "max": v.max()})
        data = pd.DataFrame(rows)
        data.attrs["note"] = (f"The first agent's return per game and its duplicate margin per "
                              f"deal (its games of the deal averaged over the seat rotations), "
                              f"in {self.unit}: mean (with its paired 95% interval on the "
                              "margin's row), spread and quantiles.")
        what = "points" if self.per == "deal" else "result"
        return Section(
            "distributions", f"Distributions of deal {what} and margins",
            [f"How the first agent's return ({self.unit}) spreads over the games, and the "
             "duplicate margin over the deals: the same cards played from every seat, so the "
             "luck of the deal cancels and the margin's spread is the players' difference."],
            [shown_table("distributions", data, list(data.columns[:4]) + [
                "mean", "sd", "min", "p5", "p25", "median", "p75", "p95", "max"], digits=2)],
            [*pages("returns", "Share of games at each return of the first agent; the diamond "
                    "is the mean with its 95% interval, paired over duplicate deals.",
                    plots.distributions(games, f"return of the first agent ({self.unit})",
                                        "The first agent's return per game", paired)),
             *pages("margins", "Share of deals at each duplicate margin of the first agent; the "
                    "diamond is the mean with its 95% interval.",
                    plots.distributions(deals, f"duplicate margin ({self.unit})",
                                        "The first agent's margin per deal (mean over seat "
                                        "rotations)"))])

    # --- categories --------------------------------------------------------------------------

    def categories(self) -> Section | None:
        c = self.tables["categories"]
        wanted = [k for k in self.definition.categories if k in set(c["category"])]
        if not wanted:
            return None
        main = c[c["category"].isin(wanted)].copy()
        main["category"] = pd.Categorical(main["category"], wanted, ordered=True)
        main = main.sort_values(["matchup", "agent", "category"], kind="stable")
        main["category"] = main["category"].astype(str)
        main.attrs = dict(c.attrs)
        for name in wanted:                     # a category that never scores below 0
            columns = [x for x in seat_columns(category(name), n_seats(self.rows))
                       if x in self.rows]
            if columns and (self.rows[columns].to_numpy(float) >= 0).all():
                at = main["category"] == name
                main.loc[at, "mean_lo"] = main.loc[at, "mean_lo"].clip(lower=0.0)
        return Section(
            "categories", "Scoring by category",
            [f"Mean points per game each agent took in each of {self.spec.game}'s scoring "
             f"categories ({', '.join(wanted)}), with paired 95% intervals. The CSV file "
             "categories.csv holds every category of the score breakdown; where a category "
             "never scores below 0, an interval's lower bound below 0 is shown as 0."],
            [Table("categories", c.attrs["note"], c,
                   _show(main, ["label", "name", "category", "games", "mean"],
                         {"label": "matchup", "name": "agent"}))],
            pages("categories", "Mean points per game by category and agent, 95% intervals.",
                  plots.panels_of_bars(main, "label", "category", "name", "mean",
                                       "scoring category", "mean points per game",
                                       "Scoring by category")))

    # --- how deals end -----------------------------------------------------------------------

    def ends(self) -> Section | None:
        e = self.tables["ends"]
        if not len(e):
            return None
        section = Section(
            "ends", "How deals end",
            ["The share of games ending each way, with Wilson 95% intervals."],
            [shown_table("ends", e, ["label", "end", "count", "games", "share"],
                    {"label": "matchup"})],
            pages("ends", "Share of games ending each way per matchup, 95% Wilson "
                  "intervals.", plots.panels_of_bars(
                      e.assign(one="share"), "label", "end", "one", "share",
                      "how the deal ended", "share of games", "How deals end")))
        claims = self._claims()
        if claims is not None:
            data, values, intervals = claims
            section.text.append("The claimant's points at the claim: the points in his piles "
                                "when he claimed 31 (a true claim has at least 31).")
            section.tables.append(shown_table("claim_points", data, [
                "label", "claimant", "end", "claims", "points", "min", "median", "max"],
                {"label": "matchup"}, digits=1))
            section.plots.extend(pages(
                "claim_points",
                "The claimant's points at the claim, per matchup, claimant and outcome; the "
                "diamond is the mean with its 95% interval.",
                plots.distributions(values, "claimant's points at the claim",
                                    "Points at the claim", intervals)))
        return section

    def _claims(self):
        """Per matchup and claim outcome, the claimant's points: the winner's in a true claim,
        the loser's in a false one (``cat_points_<s>`` at the seat)."""
        n = n_seats(self.rows)
        at_claim = seat_columns(category("points"), n)
        if "end" not in self.rows or not all(c in self.rows for c in at_claim):
            return None
        rows = self.rows[self.rows["end"].isin(["claim_won", "claim_lost"])]
        if not len(rows):
            return None
        ret = rows[seat_columns(RETURN, n)].to_numpy(float)
        pts = rows[at_claim].to_numpy(float)
        won = (rows["end"] == "claim_won").to_numpy()
        seat = np.where(won, ret.argmax(axis=1), ret.argmin(axis=1))
        points = pts[np.arange(len(rows)), seat]
        labels = rows["matchup"].map({m: T.matchup_label(self.agents, t)
                                      for m, t in self.order.items()}).to_numpy()
        seats = rows[seat_columns(SEAT, n)].to_numpy(np.int64)
        who = np.array([self.agents[k] for k in seats[np.arange(len(rows)), seat]])
        out, values, intervals = [], {}, {}
        groups = pd.DataFrame({"label": labels, "claimant": who, "end": rows["end"].to_numpy()})
        for (label, claimant, end), part in groups.groupby(["label", "claimant", "end"],
                                                            sort=True):
            v = points[part.index.to_numpy()]
            est, lo, hi = mean_interval(v)
            lo = max(lo, 0.0)                     # points are never negative
            out.append({"label": label, "claimant": claimant, "end": end, "claims": v.size,
                        "points": est, "points_lo": lo, "points_hi": hi, "min": v.min(),
                        "median": float(np.median(v)), "max": v.max()})
            values[f"{label}: {claimant}, {human(end)}"] = v
            intervals[f"{label}: {claimant}, {human(end)}"] = (est, lo, hi)
        data = pd.DataFrame(out)
        data.attrs["note"] = ("The claimant's pile points when he claimed 31, by matchup, "
                              "claimant and outcome: mean with 95% interval, minimum, median, "
                              "maximum.")
        return data, values, intervals

    # --- seats -------------------------------------------------------------------------------

    def seats(self) -> Section:
        seats = self.tables["seats"]
        columns = ["games", "deals", "mean_return", "win_rate"]
        section = Section("seats", "Seat and dealer advantage", [
            "Every seat's mean return over all games (paired over the rotations of each deal, "
            "so with duplicate play every agent sits at every seat equally and only the seat "
            "remains)."], [shown_table("seats", seats, ["seat"] + columns)])
        shown = seats.assign(label=[f"seat {s}" for s in seats["seat"]])
        if "dealer" in self.tables:
            dealer = self.tables["dealer"]
            section.text.append("By position relative to the dealer; 'dealer - others' is the "
                                "dealer's return minus the others' mean: positive means "
                                "dealing is an advantage.")
            section.tables.append(shown_table("dealer", dealer, ["position"] + columns))
            shown = pd.concat([shown, dealer.assign(label=dealer["position"])],
                              ignore_index=True)
        section.plots.append(Plot(
            "seats", "Mean return by seat and by position relative to the dealer, 95% "
            "intervals.", plots.forest(shown, "label", "mean_return",
                                       f"mean return ({self.unit})",
                                       "Seat and dealer advantage")))
        return section

    # --- budget ------------------------------------------------------------------------------

    def budget(self) -> Section | None:
        data = budget_table(self.rows, self.agents, self.tables["matchups"], self.order,
                            self.spec.game, self.run.manifest.get("levels", {}),
                            self.spec.same_deals, self.tables["thinking"])
        if data is None:
            return None
        text = [f"Searching agents that differ only in their budget, each against the same "
                f"opponent: mean return ({self.unit}) with paired 95% intervals, by budget."]
        shown, value, what = ["mean_return"], "mean_return", "Mean return"
        if "gain" in data:
            text.append("The game is not zero-sum, so a return alone says little: the gain is "
                        "the searcher's mean return minus that of a seat when the opponent "
                        "plays every seat (the field matchup), with the 95% interval of that "
                        "difference — " + ("paired deal by deal, since every matchup played "
                                           "the same deals (same_deals)." if self.spec.same_deals
                                           else "of two independent means, since each "
                                           "matchup played its own deals.")
                        + " The plot shows the gain.")
            shown, value, what = ["mean_return", "gain"], "gain", "Gain over the field"
        return Section(
            "budget", "Strength against search budget", text,
            [shown_table("budget", data, ["series", "agent", "budget", "opponent", "games",
                                     *shown, "win_rate",
                                     "ms_per_decision" if "ms_per_decision" in data
                                     else "ms_per_move"])],
            [Plot("budget", f"{what} against search budget, 95% intervals.",
                  plots.budget_curves(data, f"{what.lower()} ({self.unit})",
                                      "Strength against search budget", value))])

    # --- timing ------------------------------------------------------------------------------

    def timing(self) -> Section | None:
        if not {"seconds", "moves"} <= set(self.rows.columns):
            return None
        labels = {m: T.matchup_label(self.agents, t) for m, t in self.order.items()}
        ms = 1000 * self.rows["seconds"].to_numpy(float) / np.maximum(
            self.rows["moves"].to_numpy(float), 1)
        values, out = {}, []
        for m, label in labels.items():
            mine = (self.rows["matchup"] == m).to_numpy()
            v, moves = ms[mine], self.rows["moves"].to_numpy(float)[mine]
            q = np.quantile(v, [0.5, 0.9])
            est, lo, hi = mean_interval(v)
            lo = max(lo, 0.0)                     # a time is never negative
            out.append({"matchup": label, "games": int(mine.sum()), "moves": moves.mean(),
                        "ms_per_move": est, "ms_per_move_lo": lo, "ms_per_move_hi": hi,
                        "median": q[0], "p90": q[1], "max": v.max(),
                        "seconds": float(self.rows["seconds"].to_numpy(float)[mine].sum())})
            values[label] = v
        data = pd.DataFrame(out)
        data.attrs["note"] = ("Per matchup: mean moves per game and milliseconds per move (per "
                              "game, both players together: the rows do not split time by "
                              "player), mean with 95% interval, median, 90th percentile, "
                              "maximum, and the total seconds of play; an interval's lower "
                              "bound below 0 is shown as 0.")
        text = ["Wall-clock time of play per game divided by its moves, measured in the worker "
                "that played it (a shared machine adds noise; compare matchups of one run)."]
        timing = shown_table("timing", data, list(data.columns[:3]) + [
            "ms_per_move", "median", "p90", "max", "seconds"], digits=3)
        timing.shown["moves"] = [f"{m:.1f}" for m in data["moves"]]
        timing.shown["seconds"] = [f"{t:,.1f}" for t in data["seconds"]]
        tables = [timing]
        thinking = self.tables["thinking"]
        if len(thinking) and thinking["ms_per_decision"].notna().any():
            text.append(self._equal_time(thinking))
            tables.append(shown_table("thinking", at_least_zero(thinking, "ms_per_decision"), [
                "label", "name", "games", "decisions", "ms_per_decision", "time_ratio"],
                {"label": "matchup", "name": "agent"}, digits=3))
        elif not thinking_recorded(self.rows):
            text.append("Each seat's thinking time is not in these rows (a store of schema "
                        "version 1): equal time per move cannot be checked.")
        return Section(
            "timing", "Move times", text, tables,
            [Plot("move_times", "Milliseconds per move in each game: median, quartiles and "
                  "5th-95th percentiles.", plots.move_times(values, "Time per move"))])

    def _equal_time(self, thinking: pd.DataFrame) -> str:
        levels = self.run.manifest.get("levels", {})

        def asked(name: str):
            b = search_budget(parse_agent(levels.get(name, name), self.spec.game))
            return None if b is None else b[:2]
        return equal_time(thinking, asked)


def _toml(value) -> str:
    """A spec value written as its TOML spec says it: ``{0 = ["7co"]}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _size(s: ExperimentSpec) -> str:
    if s.deals is not None:
        return f"{s.deals:,} deals per matchup"
    if s.half_width is not None:
        return (f"until the first agent's 95% interval is ±{s.half_width:g} wide, at most "
                f"{s.max_deals:,} deals per matchup")
    p = s.sprt
    return (f"SPRT on the {p['kind']} ({p['lower']:g} against {p['upper']:g}, alpha "
            f"{p['alpha']:g}, beta {p['beta']:g}), at most {s.max_deals:,} deals per matchup")


_SIZE_KEYS = ("deals", "half_width", "max_deals", "sprt")


def spec_settings(s: ExperimentSpec, manifest: dict, unit: str) -> list[tuple[str, str]]:
    """The spec's settings as (setting, value) rows: one for every key the spec sets
    (:meth:`ExperimentSpec.to_dict`, the manifest's spec), in the spec file's order, the size
    keys as one row; a key this function does not know is shown as the TOML wrote it, so that no
    key a spec sets is left out. The question is not a row (the report states it above)."""
    game = s.load()
    changed = non_default(game.rules)
    levels = manifest.get("levels") or {}
    known = {
        "game": lambda: s.game,
        "rules": lambda: ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults",
        "agents": lambda: "; ".join(f"{i}: {a}" for i, a in enumerate(s.agents)),
        "matchups": lambda: "; ".join(T.matchup_label(list(s.agents), m) for m in s.matchups),
        "unit": lambda: f"{s.unit} ({unit})",
        "equity": lambda: f"match equity from {s.equity}",
        "duplicate": lambda: ("yes: every deal played once per rotation of the seats, same cards"
                              if s.duplicate else "no: every deal played once"),
        "same_deals": lambda: ("yes: every matchup played the same deals" if s.same_deals
                               else "no: every matchup played its own deals"),
        "setup": lambda: "every deal starts from " + _toml(s.setup),
        "deal": lambda: "every deal's cards satisfy " + _toml(s.deal),
        "size": lambda: _size(s),
        "batch_size": lambda: f"{s.batch_size:,} deals",
        "seed": lambda: str(s.seed),
    }
    names = {"same_deals": "same deals", "batch_size": "batch size", "deal": "deal condition",
             "setup": "deal setup"}
    given = {k: v for k, v in s.to_dict().items() if k != "question" and v is not None}
    if any(k in given for k in _SIZE_KEYS):
        given = {k: v for k, v in given.items() if k not in _SIZE_KEYS} | {"size": True}
    keys = [k for k in known if k in given] + sorted(k for k in given if k not in known)
    rows = []
    for key in keys:
        rows.append((names.get(key, human(key)), known[key]() if key in known
                     else _toml(given[key])))
        if key == "agents" and levels:
            rows.append(("levels", "; ".join(f"{k} = {v}" for k, v in levels.items())))
    return rows


def _same_agents(names: list[str], levels: dict) -> list[str]:
    """A sentence for each group of rated names that stand for one agent (two named levels of
    a game that are the same search, as Bura's ``strong`` and ``best``): their ratings differ
    only by chance."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(levels.get(name, name), []).append(name)
    return [f"{' and '.join(sorted(same))} are the same agent here ({agent}): their ratings "
            "differ only by chance." for agent, same in groups.items() if len(same) > 1]


def _sprt_words(r: pd.Series) -> str:
    hyp = {"H0": f"accepts H0 ({r['kind']} {r['lower']:g})",
           "H1": f"accepts H1 ({r['kind']} {r['upper']:g})"}
    return (hyp.get(r["verdict"], "no verdict yet")
            + f" after {int(r['n']):,} deals, LLR {r['llr']:.2f} in "
              f"[{r['lower_bound']:.2f}, {r['upper_bound']:.2f}]")


def sections(run: Run) -> list[Section]:
    """The report's sections for ``run`` (module docstring)."""
    return _Report(run).sections()


__all__ = ["Block", "Plot", "Section", "Table", "sections"]
