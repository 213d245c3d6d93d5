"""The report of a match-equity folder (``cardsim equity --out DIR``; :mod:`cardsim.experiments.equity`).

In percent throughout. It opens with the answer: side a's chance to win the match from its
start, per dealing side, with its 95% interval, over how many deals and games. Then how the
table was measured, one section per part of the table (per dealing side; and first leading
side, Bura) — the grid as a table, each cell with its interval's half-width, and the same as a
grey-level heat map laid out as the table is (its first row at the top, its columns across
with their names above, cell labels at the body text's size) — and the checks every table
must pass. Built from the folder's manifest, table and batch records alone.

A Mushka folder (whole games, :mod:`cardsim.experiments.records_equity`) opens with its answer
too, then one section: a records query's chances by position as bars with their intervals and
a table, or the mover table as a heat map (the cells of at least
:func:`~cardsim.experiments.records_equity.shown_count` snapshots) and as a grid, with how
often ``max_deals`` cut a game short (from its stored games).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from cardsim.errors import CardsimError
from cardsim.experiments.equity import (
    EquityError,
    grids,
    match_model,
    splits,
    table_checks,
)
from cardsim.experiments.equity_folder import read_equity, read_manifest
from cardsim.experiments.records_equity import (
    config_from_dict,
    describe,
    is_game_equity,
    mover_grid,
    positions,
    read_games,
    record_label,
    shown_count,
    summary,
)
from cardsim.files import RECORD_BYTES, read_limited
from cardsim.game import load_game
from cardsim.stats import fmt_percent

from . import plots
from .content import Plot, Section, Table
from .plots import human


def is_equity_folder(path) -> bool:
    """Whether ``path`` is an equity folder (its manifest says so)."""
    try:
        read_manifest(path)
    except EquityError:
        return False
    return True


def _grid_text(values: pd.DataFrame, half: pd.DataFrame) -> pd.DataFrame:
    """A grid's cells in percent as ``"63.2 ±0.4"`` strings (the half-width of the 95%
    interval in percent points), its index as a first column named ``"rows \\ columns"``."""
    cells = pd.DataFrame({str(c): ["" if pd.isna(x) else f"{100 * x:.1f} ±{100 * y:.1f}"
                                   for x, y in zip(values[c], half[c])]
                          for c in values.columns}, index=values.index)
    corner = f"{human(values.index.name)} \\ {human(values.columns.name)}"
    return cells.rename_axis(corner).reset_index().astype(str)


def games_played(folder) -> int:
    """The games an equity folder's deals stores hold (their batch records' rows): every
    duplicate deal once per rotation of the seats and per deal setup; :class:`CardsimError`
    in one line for a record that is no record."""
    total = 0
    for p in Path(folder).glob("deals*/records/*.json"):
        data = read_limited(p, RECORD_BYTES, "a batch record")
        try:
            rows = json.loads(data)["rows"]
        except (ValueError, TypeError, KeyError, RecursionError):
            rows = None
        if not isinstance(rows, int) or isinstance(rows, bool):
            raise CardsimError(f"{p} is damaged: not a batch record; run the same `cardsim "
                               "equity` again to set its batch aside and compute it again")
        total += rows
    return total


EQUITY_INTERVALS = ("Chances are in percent; intervals are 95% percentile intervals of a "
                    "bootstrap over the deals (each deal with all its rotations and setups), a "
                    "cell's written as the half-width of its interval in percent points.")


def equity_contents(folder) -> tuple[list[Section], dict]:
    """The report's sections and what the templates say of the folder: the chance from the
    start of a match first, how it was measured, then one section per part of the table (a
    heat map laid out as the table beside it), then the checks."""
    manifest, table = read_equity(folder)
    if is_game_equity(manifest):
        return game_equity_contents(folder, manifest, table)
    config = manifest["config"]
    game = load_game(config["game"], **config["rules"])
    model = match_model(game)
    a, b = manifest["agents"]
    columns = model.columns
    parts = grids(table, columns)
    rows_of = splits(table, columns)
    name = Path(folder).resolve().name
    games = games_played(folder)
    half = (table["p_high"] - table["p_low"]) / 2
    size = (f"{config['deals']:,} duplicate deals ({games:,} games)" if games
            else f"{config['deals']:,} duplicate deals")
    start = []
    for title, part in rows_of.items():
        r = part.iloc[0]
        draw = (f", a draw {100 * r['p_draw']:.1f}%" if "p_draw" in part else "")
        start.append({"match state": ", ".join(f"{human(c)} {r[c]}" for c in columns),
                      "side a wins": fmt_percent(r["p_win"], r["p_low"], r["p_high"]),
                      **({"draw": f"{100 * r['p_draw']:.1f}%"} if "p_draw" in part else {}),
                      "_text": f"{fmt_percent(r['p_win'], r['p_low'], r['p_high'])} with "
                               f"{title}{draw}"})
    first = rows_of[next(iter(rows_of))].iloc[0]
    at = ", ".join(f"{human(c)} {first[c]}" for c in columns[:2])
    answer = Section("answer", "The answer", text=[
        f"From the start of a match ({at}), side a ({a}) wins against side b ({b}) "
        + "; ".join(s.pop("_text") for s in start)
        + f". 95% bootstrap intervals over {size}."])
    answer.tables.append(Table("start", "Side a's chance to win the match from its start, "
                               "per dealing side, in percent with its 95% interval",
                               pd.concat([p.head(1) for p in rows_of.values()],
                                         ignore_index=True), pd.DataFrame(start)))
    text = [f"The chance that side a ({a}) wins the match against side b ({b}), from each "
            f"match state: {model.description} ({model.rules}). From {size} between them "
            f"(seed {config['seed']}), by dynamic programming over the match states; 95% "
            f"percentile intervals of a bootstrap of {config['boot']} resamples of the deals. "
            f"The widest interval is ±{100 * half.max():.2f} percent points (mean "
            f"±{100 * half.mean():.2f})."]
    if manifest.get("deal_setups"):
        text.append("Each deal was played from every deal setup the configurations need, on "
                    "the same cards: " + "; ".join(
                        f"{where}/ {setup or 'as dealt'}"
                        for where, setup in manifest["deal_setups"].items()) + ".")
    sections = [answer, Section("equity", "Match equity", text=text)]
    down, across = human(columns[0]), human(columns[1])
    for title, (values, widths) in parts.items():
        key = title.replace(", ", "_").replace(" ", "_")
        part = Section(f"equity_{key}", f"Side a's chance, {title}", text=[
            f"Side a's chance to win the match in percent, {title}: {down} down, {across} "
            "across; each cell with the half-width of its 95% interval in percent points."])
        part.tables.append(Table(f"equity_{key}", f"{title}: side a's chance in percent with "
                                 "the half-width of its 95% interval", rows_of[title],
                                 _grid_text(values, widths)))
        part.plots.append(Plot(f"equity_{key}", f"Side a's chance to win in percent, {title} "
                               f"({down} down, {across} across, as in the table)",
                               plots.heatmap(values, widths, across, down,
                                             f"{game.name.capitalize()}: side a's chance to win "
                                             f"the match, {title}",
                                             "chance that side a wins (%)")))
        sections.append(part)
    checks = table_checks(table, model, symmetric=a == b)
    check = Section("checks", "Checks", text=[
        "Every table must pass these: a cell fails when the difference is wider than the two "
        "cells' intervals together (worst: the largest difference, in percent points; for the "
        "second check a negative worst means side a's chance never falls)."])
    shown = checks.rename(columns={"worst": "worst (percent points)"})
    shown["worst (percent points)"] = [f"{100 * w:.2f}" for w in checks["worst"]]
    check.tables.append(Table("checks", "checks of the table", checks, shown.astype(str)))
    sections.append(check)
    context = {"title": f"{game.name.capitalize()} match equity {name}", "run_name": name,
               "game": game.name, "games": f"{games:,}", "intervals": EQUITY_INTERVALS}
    return sections, context


def game_equity_contents(folder, manifest: dict, table: pd.DataFrame) -> tuple[list[Section],
                                                                               dict]:
    """The report of a Mushka folder (module docstring)."""
    config = config_from_dict(manifest["config"])
    game = load_game(config.game, **config.rules)
    n = game.num_players
    facts = summary(read_games(folder, config))
    who = describe(config, n)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(config.rules.items()))
    text = [f"Mushka ({rules}), {who}: {facts['games']:,} whole games (seed {config.seed}), "
            f"{facts['deals_mean']:.1f} deals a game on average; max_deals cut "
            f"{fmt_percent(*facts['cut'])} of them short (MU-MATCH-2: the lowest record "
            f"won; {facts['ties']} ties for it shared the win)."]
    section = Section("equity", "Game equity", text=text)
    half = (table["p_high"] - table["p_low"]) / 2
    if config.records is not None:
        text.append("Each position's chance to win the game from the records "
                    f"{', '.join(map(str, config.records))}, listed from the dealer's left "
                    "(the first to decide) round to the dealer; a win shared by a tie counts "
                    "its share; 95% Wilson intervals (widest "
                    f"±{100 * half.max():.2f} percent points).")
        chances = [fmt_percent(*r) for r in table[["p_win", "p_low", "p_high"]].itertuples(
            index=False)]
        answer = ("From the records " + ", ".join(map(str, config.records)) + ": "
                  + "; ".join(f"the {where} wins {c}" for where, c in zip(positions(n), chances))
                  + " (95% Wilson intervals).")
        bars = table.assign(who=[f"{name}: {r}" for name, r in zip(positions(n),
                                                                    table["record"])],
                            p_win=100 * table["p_win"], p_win_lo=100 * table["p_low"],
                            p_win_hi=100 * table["p_high"])
        section.plots.append(Plot("chances", "Each position's chance to win the game in "
                                  "percent, with its 95% interval", plots.grouped_bars(
                                      bars, "who", [("p_win", "chance to win")],
                                      "chance to win the game (%)",
                                      "Mushka: chance to win by position (record)", (0, 100))))
        shown = pd.DataFrame({"position": positions(n), "record": table["record"],
                              "agent": table["agent"], "chance to win [95% interval]": chances})
        section.tables.append(Table("chances", "each position's chance to win the game",
                                    table, shown.astype(str)))
        intervals = "Chances are in percent; intervals are 95% Wilson score intervals."
    else:
        start = game.rules.start_points
        least = shown_count(table)
        often = table["count"] >= least
        text.append("At the start of every deal, the mover's (the first to decide: the "
                    "dealer's left) chance to win the game by his record against the best "
                    "(lowest) other record; a cell is the share of its snapshots whose mover "
                    "won, in percent, with the 2.5% and 97.5% points of a bootstrap resampling "
                    f"whole games ({config.boot} resamples). Shown: the {int(often.sum())} "
                    f"cells of at least {least} snapshots of {len(table)} (all in the CSV, with "
                    f"their counts); the widest shown interval is ±{100 * half[often].max():.2f} "
                    f"percent points. {start + 10}+ stands for that record or more.")
        values, widths = mover_grid(table)
        labels = [record_label(r, start) for r in values.index]
        columns = [record_label(c, start) for c in values.columns]
        values.index, widths.index = labels, labels
        values.columns, widths.columns = columns, columns
        values.index.name, values.columns.name = "mover's record", "best other record"
        first = table[(table["mover_record"] == start) & (table["best_other"] == start)]
        answer = ("At the first deal (every record {s}), the mover wins the game {c} (95% "
                  "bootstrap interval).".format(s=start, c=fmt_percent(
                      *first[["p_win", "p_low", "p_high"]].iloc[0])) if len(first)
                  else "No cell of the table is the game's start.")
        section.plots.append(Plot("equity", "The mover's chance to win in percent (his record "
                                  "down, the best other across, as in the table)",
                                  plots.heatmap(values, widths, "best other record",
                                                "mover's record",
                                                "Mushka: the mover's chance to win the game",
                                                "chance that the mover wins (%)")))
        section.tables.append(Table("equity_mover", "the mover's chance in percent with the "
                                    "half-width of its 95% interval (cells of at least "
                                    f"{least} snapshots)", table, _grid_text(values, widths)))
        intervals = ("Chances are in percent; intervals are 95% percentile intervals of a "
                     "bootstrap resampling whole games.")
    name = Path(folder).resolve().name
    context = {"title": f"Mushka game equity {name}", "run_name": name, "game": game.name,
               "games": f"{facts['games']:,}", "intervals": intervals}
    return [Section("answer", "The answer", text=[answer]), section], context
