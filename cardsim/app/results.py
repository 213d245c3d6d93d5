"""A run's results at the terminal: the answer first, then the key tables, each narrow enough
for a 100-column terminal (the full detail is the report's: ``cardsim report RUN``).

- the answer: one sentence per matchup (:mod:`cardsim.reports.headline`, the report's own);
- ``matchups``: per matchup (a heading row) and agent, games, the shares won, drawn and lost
  and the mean return with its 95% interval;
- ``advantage``: the mean return and win rate by seat and by position from the dealer;
- ``categories``: each agent's mean points per game in each scoring category the game shows
  (``GameDefinition.categories``) and in all;
- ``ends`` (Bura), ``thinking`` (searching agents' time per decision), ``ratings`` (three or
  more agents), ``sprt`` when the run has them.
"""
from __future__ import annotations

import math

import pandas as pd

from cardsim.game import definition

from .output import Output


def print_run(spec, folder: str, rows: pd.DataFrame, out: Output) -> None:
    """A run's answer and key tables (module docstring)."""
    from cardsim.experiments.tables import report_tables
    from cardsim.reports.headline import answers
    d = definition(spec.game)
    tables = report_tables(rows, list(spec.agents), spec.sprt, d.zero_sum)
    m = tables["matchups"]
    out.say(f"{spec.game}: {len(rows):,} games in {folder}.")
    if spec.question:
        out.say(f"Question: {spec.question}")
    out.blank()
    out.say(*(a.text for a in answers(rows, list(spec.agents), spec.unit, d.return_unit,
                                      d.zero_sum, m)))
    rates = ["win_rate", "draw_rate", "loss_rate"]
    per = "match" if spec.unit == "match" else "game"
    out.table("matchups", m, ["name", "games", *rates, "mean_return"], plain=rates,
              names={"name": "agent", "win_rate": "won", "draw_rate": "drawn",
                     "loss_rate": "lost", "mean_return": "mean return [95%]"}, groups="label",
              title="Results per matchup",
              note=f"Shares of games won, drawn and lost; mean return in {d.return_unit} a "
                   f"{per} with its 95% interval paired over duplicate deals.")
    advantage = _advantage(tables)
    out.table("advantage", advantage, ["position", "mean_return", "win_rate"],
              names={"mean_return": "mean return [95%]", "win_rate": "won [95%]"},
              title="Seat and dealer advantage", note=(
                  "Every game's return by seat, and by position from the dealer ('dealer - "
                  "others': the dealer's return minus the others' mean); paired over the "
                  "rotations of each deal."))
    cats = _categories(tables["categories"], d)
    if len(cats):
        out.table("categories", cats, [c for c in cats.columns if c != "label"],
                  names={"name": "agent"}, groups="label",
                  kinds={c: "points" for c in cats.columns if c not in ("label", "name")},
                  title="Mean per game in each scoring category", note="")
    ends = tables.get("ends")
    if ends is not None and len(ends):
        out.table("ends", ends, ["end", "count", "share"], groups="label",
                  names={"share": "share [95%]"}, title="How the games ended", note="")
    thinking = tables["thinking"]
    thinking = thinking[thinking["ms_per_decision"].notna()] if len(thinking) else thinking
    if len(thinking):
        columns = ["name", "decisions", "ms_per_decision"]
        if any(not math.isnan(v) and abs(v - 1.0) > 1e-12 for v in thinking["time_ratio"]):
            columns.append("time_ratio")
        out.table("thinking", thinking, columns, groups="label",
                  names={"name": "agent", "decisions": "decisions a game",
                         "ms_per_decision": "ms a decision [95%]",
                         "time_ratio": "time ratio"},
                  kinds={"time_ratio": "points"}, title="Thinking time of the searching agents",
                  note="A decision is a move among two or more legal ones.")
    ratings = tables["ratings"]
    if len(ratings):
        anchor = (ratings["elo_lo"] == 0) & (ratings["elo_hi"] == 0)
        ratings = ratings.assign(elo_lo=ratings["elo_lo"].mask(anchor),
                                 elo_hi=ratings["elo_hi"].mask(anchor))
        out.table("ratings", ratings, ["name", "elo", "score", "deals"],
                  names={"name": "agent", "elo": "Elo [95%]"}, title="Ratings",
                  note=ratings.attrs.get("note", ""))
    sprt = tables.get("sprt")
    if sprt is not None and len(sprt):
        out.table("sprt", sprt, ["name", "n", "estimate", "llr", "verdict"], groups="label",
                  names={"name": "first agent", "n": "deals"},
                  kinds={"estimate": "points", "llr": "points"},
                  title="Sequential test (SPRT)", note=(
                      "The verdict H0 or H1 accepts the test's lower or upper value (at the error "
                      "rates the spec asks); continue: not decided yet."))


def _advantage(tables: dict) -> pd.DataFrame:
    seats = tables["seats"].assign(position=lambda t: [f"seat {s}" for s in t["seat"]])
    parts = [seats.drop(columns=["seat"])]
    if "dealer" in tables:
        parts.append(tables["dealer"])
    return pd.concat(parts, ignore_index=True)


def _categories(cats: pd.DataFrame, d) -> pd.DataFrame:
    """Per matchup and agent, a column per scoring category the game shows, and the total."""
    if not len(cats):
        return cats
    keep = [c for c in (*d.categories, "total") if c in set(cats["category"])]
    if not keep:
        return cats.iloc[0:0]
    wide = cats[cats["category"].isin(keep)].pivot_table(
        index=["matchup", "label", "agent", "name"], columns="category", values="mean",
        sort=False).reset_index()
    return wide[["label", "name", *keep]]


# --- compare ---------------------------------------------------------------------------------

def print_comparison(tables: dict[str, pd.DataFrame], out: Output) -> None:
    """``cardsim compare``: which settings differ, the answer (each matchup's first agent's
    mean return from run A to run B), then the results side by side with the difference
    B - A and its 95% interval (:func:`cardsim.reports.compare.compare_runs`)."""
    spec = tables["spec"]
    a, b = spec.attrs.get("runs", ("A", "B"))
    out.say(f"A: {a}", f"B: {b}")
    same = spec[spec["same"]]
    differ = spec[~spec["same"]]
    out.say("Same in both: " + (", ".join(same["setting"]) or "nothing") + ".")
    m = tables["matchups"]
    out.blank()
    for r in m.itertuples(index=False):
        d = pd.Series(r._asdict())
        if pd.isna(d["diff"]):
            only = "A" if pd.isna(d["mean_return_b"]) else "B"
            out.say(f"{d['label']}: in run {only} only.")
            continue
        lo, hi = d["diff_lo"], d["diff_hi"]
        verdict = ("higher in B" if lo > 0 else "lower in B" if hi < 0
                   else "no clear difference")
        out.say(f"{d['label']}: {d['name']}'s mean return "
                f"{_points(d, 'mean_return_a')} in A, {_points(d, 'mean_return_b')} in B; "
                f"B - A {_points(d, 'diff')}: {verdict}.")
    if len(differ):
        out.table("settings", differ, ["setting", "a", "b"], title="Settings that differ",
                  names={"a": "A", "b": "B"}, kinds={"a": "text", "b": "text"}, note="")
    note = "B - A with its 95% interval (independent runs, Student's t at Welch's degrees of freedom)."
    out.table("matchups", m, ["name", "mean_return_a", "mean_return_b", "diff"],
              names={"name": "first agent", "mean_return_a": "A [95%]",
                     "mean_return_b": "B [95%]", "diff": "B - A [95%]"}, groups="label",
              kinds={"diff": "points"}, title="Mean return of each matchup's first agent",
              note="Paired 95% intervals in each run; " + note)
    game = definition(spec.set_index("setting").loc["game", "a"])
    for key, title, keys in (("dealer", "Dealer advantage", ["position"]),
                             ("categories", "Scoring categories of each matchup's first agent "
                              "(mean points a game)", ["category"]),
                             ("ends", "How the games ended", ["end"])):
        t = tables.get(key)
        if t is None or not len(t):
            continue
        plain: list[str] = []
        if key == "categories":
            t = t[t["category"].isin([*game.categories, "total"])]
            t = t[t["name"] == t["label"].map(dict(zip(m["label"], m["name"])))]
            t = t.drop(columns="name")
            plain = ["mean_a", "mean_b"]
        value = next(c[:-2] for c in t.columns if c.endswith("_a") and c[:-2] != "games"
                     and not c.startswith(("count", "return_se", "se_", "deals")))
        group = None
        if "label" in t.columns:
            group = "group"
            who = t["name"] if "name" in t.columns else ""
            t = t.assign(group=t["label"] + (": " + who if "name" in t.columns else ""))
        columns = keys + [f"{value}_a", f"{value}_b"] + (["diff"] if "diff" in t.columns else [])
        ab = "" if plain else " [95%]"
        out.table(key, t, columns, groups=group, title=title, plain=plain,
                  names={f"{value}_a": f"A{ab}", f"{value}_b": f"B{ab}",
                         "diff": "B - A [95%]"},
                  kinds={f"{value}_a": "points", f"{value}_b": "points", "diff": "points"}
                  if value != "share" else {}, note=note if "diff" in t.columns else "")


def _points(row: pd.Series, column: str) -> str:
    from .output import fmt_cell
    return fmt_cell("points", row[column], row.get(f"{column}_lo"), row.get(f"{column}_hi"))
