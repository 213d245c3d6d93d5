"""Two experiment runs of the same game side by side: the tables ``cardsim compare RUN_A
RUN_B`` prints (:func:`cardsim.app.results.print_comparison`).

Rows are matched by name, not by index: a matchup by its label (``"random vs heuristic"``)
and first agent (:func:`cardsim.experiments.tables.matchup_agents`), so the two specs may list their
agents and matchups in different orders. A row present in one run only is kept with ``NaN`` on
the other side (outer join), in run A's order, then run B's extra rows.

A difference is always ``b - a``. The runs are treated as independent samples (true when their
seeds differ), so its 95% interval is ``diff ± t·√(se_a² + se_b²)`` from each run's paired
(duplicate) standard error, t Student's at Welch's degrees of freedom. Interval columns follow :mod:`cardsim.experiments.tables`: ``x``, ``x_lo``,
``x_hi``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.experiments.tables import matchup_label, report_tables
from cardsim.protocol.options import non_default
from cardsim.reports.run import ReportError, Run, load_run
from cardsim.stats import welch_t95

_DIFF = ("and the difference B - A, whose 95% interval is +-t*sqrt(se_A^2 + se_B^2) from "
         "the two runs' paired standard errors (the runs are independent; t is Student's at "
         "Welch's degrees of freedom over the runs' deals)")


def _labels(run: Run) -> str:
    return "; ".join(matchup_label(run.agents, m) for m in run.spec.matchups)


def _size(run: Run) -> str:
    s = run.spec
    if s.deals is not None:
        return f"deals={s.deals}"
    if s.half_width is not None:
        return f"half_width={s.half_width:g}, max_deals={s.max_deals}"
    p = s.sprt
    return (f"sprt {p['kind']} [{p['lower']:g}, {p['upper']:g}] alpha={p['alpha']:g} "
            f"beta={p['beta']:g}, max_deals={s.max_deals}")


def _settings(run: Run) -> dict:
    rules = non_default(run.spec.load().rules)
    return {"question": run.spec.question, "game": run.spec.game,
            "rules": ", ".join(f"{k}={v}" for k, v in rules.items()) or "defaults",
            "agents": ", ".join(run.agents), "matchups": _labels(run), "unit": run.spec.unit,
            "duplicate": run.spec.duplicate, "size": _size(run), "seed": run.spec.seed,
            "package version": run.manifest.get("package_version", "unknown"),
            "games stored": run.stored_games, "games used": len(run.rows)}


def _spec_table(a: Run, b: Run) -> pd.DataFrame:
    """One row per setting of the two runs (``setting``, ``a``, ``b``, ``same``); ``rules``
    lists only the options that differ from the game's defaults."""
    sa, sb = _settings(a), _settings(b)
    table = pd.DataFrame({"setting": list(sa), "a": list(sa.values()), "b": list(sb.values()),
                          "same": [sa[k] == sb[k] for k in sa]})
    table.attrs["note"] = ("The two runs' specs side by side: rules lists the options that "
                           "differ from the game's defaults, games used counts each matchup's "
                           "games up to its stopping batch.")
    return table


def _triple(table: pd.DataFrame, base: str) -> list[str]:
    return [base, f"{base}_lo", f"{base}_hi"] if f"{base}_lo" in table.columns else [base]


def _side(column: str, side: str) -> str:
    """``mean_return_lo`` → ``mean_return_a_lo``; ``games`` → ``games_a``."""
    if column.endswith(("_lo", "_hi")):
        return f"{column[:-3]}_{side}{column[-3:]}"
    return f"{column}_{side}"


def _join(ta: pd.DataFrame, tb: pd.DataFrame, keys: list[str], values: list[str],
         diff: str | None = None, se: str | None = None, note: str = "") -> pd.DataFrame:
    """Outer join of the same table of runs A and B on ``keys`` (run A's row order, then B's
    extra rows): each of ``values`` (with its ``_lo``/``_hi`` columns, if any) as ``<x>_a`` and
    ``<x>_b``; with ``diff``, also ``diff = <diff>_b - <diff>_a`` with the 95% interval
    ``± t·√(<se>_a² + <se>_b²)`` (independent runs; t at Welch's degrees of freedom over each
    row's ``deals``: :func:`cardsim.stats.welch_t95`), and the ``<se>_a``, ``<se>_b`` used."""
    parts = []
    for t, side in ((ta, "a"), (tb, "b")):
        extra = [se, "deals"] if se else []
        cols = [c for v in values + extra for c in _triple(t, v)]
        part = t[keys + cols].rename(columns={c: _side(c, side) for c in cols})
        part["_k"] = part.groupby(keys, sort=False).cumcount()   # repeated keys pair in order
        part[f"_order_{side}"] = np.arange(len(part), dtype=float)
        parts.append(part)
    out = parts[0].merge(parts[1], on=keys + ["_k"], how="outer", sort=False)
    order = out["_order_a"].fillna(len(ta) + out["_order_b"])
    out = out.iloc[np.argsort(order.to_numpy(), kind="stable")].reset_index(drop=True)
    columns = list(keys)
    for v in values:
        columns += [_side(c, s) for s in "ab" for c in _triple(ta, v)]
        if v == diff:
            d = out[f"{v}_b"] - out[f"{v}_a"]
            half = welch_t95(out[f"{se}_a"], out["deals_a"], out[f"{se}_b"],
                             out["deals_b"]) * np.sqrt(out[f"{se}_a"] ** 2 + out[f"{se}_b"] ** 2)
            out["diff"], out["diff_lo"], out["diff_hi"] = d, d - half, d + half
            columns += ["diff", "diff_lo", "diff_hi"]
    columns += [f"{se}_a", f"{se}_b"] if se else []
    out = out[columns].copy()
    for c in columns:
        if c.startswith(("games_", "count_")):
            out[c] = out[c].astype("Int64")
    out.attrs["note"] = note
    return out


def _first_agents(matchups: pd.DataFrame) -> pd.DataFrame:
    """Each matchup's first row in :func:`cardsim.experiments.tables.matchup_table`: its first agent."""
    return matchups.drop_duplicates("matchup", keep="first")


def compare_runs(a, b) -> dict[str, pd.DataFrame]:
    """Tables comparing runs ``a`` and ``b`` (run folders or :class:`cardsim.reports.run.Run`):
    ``spec``, ``matchups``, ``dealer`` (when both have one), ``categories`` and ``ends`` (when
    either has an end column); every table carries ``attrs["note"]``. Returns are in the
    game's points per game; :class:`ReportError` when the runs play different games."""
    a, b = (r if isinstance(r, Run) else load_run(r) for r in (a, b))
    if a.spec.game != b.spec.game:
        raise ReportError(f"{a.name} plays {a.spec.game} and {b.name} plays {b.spec.game}: "
                          "compare two runs of the same game (rules, agents and sizes may "
                          "differ)")
    ta = report_tables(a.rows, a.agents)
    tb = report_tables(b.rows, b.agents)
    out = {"spec": _spec_table(a, b)}
    out["matchups"] = _join(
        _first_agents(ta["matchups"]), _first_agents(tb["matchups"]), ["label", "name"],
        ["games", "mean_return", "win_rate"], diff="mean_return", se="return_se",
        note="Per matchup, its first agent's games, mean return per game (paired 95% "
             "interval) and win rate (Wilson 95% interval) in runs A and B, " + _DIFF + ".")
    if "dealer" in ta and "dealer" in tb:
        out["dealer"] = _join(
            ta["dealer"], tb["dealer"], ["position"], ["games", "mean_return"],
            diff="mean_return", se="return_se",
            note="Mean return per position relative to the dealer, and the dealer's minus "
                 "the others' mean, in runs A and B (paired 95% intervals), " + _DIFF + ".")
    out["categories"] = _join(
        ta["categories"], tb["categories"], ["label", "name", "category"], ["mean"],
        diff="mean", se="se",
        note="Mean points per game in each scoring category per matchup and agent (paired "
             "95% intervals) in runs A and B, " + _DIFF + ".")
    if "end" in a.rows.columns or "end" in b.rows.columns:
        out["ends"] = _join(
            ta["ends"], tb["ends"], ["label", "end"], ["count", "share"],
            note="Share of games ending each way per matchup in runs A and B, each with its "
                 "Wilson 95% interval.")
    out["spec"].attrs["runs"] = (a.name, b.name)
    return out
