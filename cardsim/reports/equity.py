"""The report of a match-equity folder (``cardsim equity --out DIR``; :mod:`cardsim.experiments.equity`).

One section for the table — a grey-level heat map per dealing side (and first leading side,
Bura), each cell side a's chance
in percent over its 95% interval's half-width, and the same as readable grids — and one for
the checks every table must pass. Built from the folder's manifest and table alone.

A Mushka folder (whole games, :mod:`cardsim.experiments.records_equity`) has one section: a records
query's chances by position as bars with their intervals and a table, or the mover table as
a heat map (the cells of at least :func:`~cardsim.experiments.records_equity.shown_count` snapshots)
and as a readable grid, with how often ``max_deals`` cut a game short (from its stored games).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

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
    interval_text,
    is_game_equity,
    mover_grid,
    positions,
    read_games,
    record_label,
    shown_count,
    summary,
)
from cardsim.game import load_game

from . import plots
from .content import Plot, Section, Table


def is_equity_folder(path) -> bool:
    """Whether ``path`` is an equity folder (its manifest says so)."""
    try:
        read_manifest(path)
    except EquityError:
        return False
    return True


def _grid_text(values: pd.DataFrame, half: pd.DataFrame) -> pd.DataFrame:
    """A grid's cells as ``"0.63 ±0.01"`` strings, its index as a first column."""
    cells = pd.DataFrame({str(c): ["" if pd.isna(x) else f"{x:.3f} ±{y:.3f}"
                                   for x, y in zip(values[c], half[c])]
                          for c in values.columns}, index=values.index)
    return cells.reset_index().astype(str)


def equity_contents(folder) -> tuple[list[Section], dict]:
    """The report's sections and what the templates say of the folder."""
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
    half = (table["p_high"] - table["p_low"]) / 2
    text = [f"The chance that side a ({a}) wins the match against side b ({b}), from each "
            f"match state: {model.description} ({model.rules}). From {config['deals']:,} "
            f"duplicate single deals between them (seed {config['seed']}), by dynamic "
            f"programming over the match states; 95% percentile intervals of a bootstrap of "
            f"{config['boot']} resamples of the deals. The widest interval is "
            f"±{half.max():.4f} (mean ±{half.mean():.4f})."]
    if manifest.get("deal_setups"):
        text.append("Each deal was played from every deal setup the configurations need, on "
                    "the same cards: " + "; ".join(
                        f"{where}/ {setup or 'as dealt'}"
                        for where, setup in manifest["deal_setups"].items()) + ".")
    equity = Section("equity", "Match equity", text=text)
    equity.plots.append(Plot("equity", f"Side a's chance to win ({columns[0]} up, "
                             f"{columns[1]} across), in percent over its interval's "
                             "half-width", plots.heatmaps(parts, columns[1], columns[0],
                                                         f"{game.name}: match equity")))
    for title, (values, widths) in parts.items():
        key = title.replace(", ", "_").replace(" ", "_")
        equity.tables.append(Table(f"equity_{key}", f"{title}: side a's chance with the "
                                   "half-width of its 95% interval", rows_of[title],
                                   _grid_text(values, widths)))
    checks = table_checks(table, model, symmetric=a == b)
    check = Section("checks", "Checks", text=[
        "Every table must pass these: a cell fails when the difference is wider than the two "
        "cells' intervals together (worst: the largest difference; for the second check a "
        "negative worst means side a's chance never falls)."])
    shown = checks.copy()
    shown["worst"] = [f"{w:.4f}" for w in shown["worst"]]
    check.tables.append(Table("checks", "checks of the table", checks, shown.astype(str)))
    context = {"title": f"{game.name.capitalize()} match equity {name}", "run_name": name,
               "game": game.name, "games": f"{config['deals']:,}"}
    return [equity, check], context


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
            f"{interval_text(*facts['cut'])} of them short (MU-MATCH-2: the lowest record "
            f"won; {facts['ties']} ties for it shared the win)."]
    section = Section("equity", "Game equity", text=text)
    half = (table["p_high"] - table["p_low"]) / 2
    if config.records is not None:
        text.append("Each position's chance to win the game from the records "
                    f"{', '.join(map(str, config.records))}, listed from the dealer's left "
                    "(the first to decide) round to the dealer; a win shared by a tie counts "
                    "its share; 95% Wilson intervals (widest "
                    f"±{half.max():.4f}).")
        bars = table.assign(who=[f"{name}: {r}" for name, r in zip(positions(n),
                                                                    table["record"])],
                            p_win_lo=table["p_low"], p_win_hi=table["p_high"])
        section.plots.append(Plot("chances", "Each position's chance to win the game, with its "
                                  "95% interval", plots.grouped_bars(
                                      bars, "who", [("p_win", "p_win")], "chance to win the game",
                                      "Mushka: chance to win by position (record)", (0, 1))))
        shown = pd.DataFrame({"position": positions(n), "record": table["record"],
                              "agent": table["agent"],
                              "p_win [95% interval]": [interval_text(*r) for r in table[
                                  ["p_win", "p_low", "p_high"]].itertuples(index=False)]})
        section.tables.append(Table("chances", "each position's chance to win the game",
                                    table, shown.astype(str)))
    else:
        start = game.rules.start_points
        least = shown_count(table)
        often = table["count"] >= least
        text.append("At the start of every deal, the mover's (the first to decide: the "
                    "dealer's left) chance to win the game by his record against the best "
                    "(lowest) other record; a cell is the share of its snapshots whose mover "
                    "won, with the 2.5% and 97.5% points of a bootstrap resampling whole games "
                    f"({config.boot} resamples). Shown: the {int(often.sum())} cells of at "
                    f"least {least} snapshots of {len(table)} (all in the CSV, with their "
                    f"counts); the widest shown interval is ±{half[often].max():.4f}. "
                    f"{start + 10}+ stands for that record or more.")
        values, widths = mover_grid(table)
        labels = [record_label(r, start) for r in values.index]
        columns = [record_label(c, start) for c in values.columns]
        values.index, widths.index = labels, labels
        values.columns, widths.columns = columns, columns
        figure = plots.heatmaps({"the mover's chance": (values, widths)}, "best other record",
                                "mover's record", "Mushka: the mover's game equity")
        figure.axes[-1].set_ylabel("chance that the mover wins")
        section.plots.append(Plot("equity", "The mover's chance to win (his record up, the "
                                  "best other across), in percent over its interval's "
                                  "half-width", figure))
        section.tables.append(Table("equity_mover", "the mover's chance with the half-width of "
                                    "its 95% interval (cells of at least "
                                    f"{least} snapshots)", table, _grid_text(values, widths)))
    name = Path(folder).resolve().name
    context = {"title": f"Mushka game equity {name}", "run_name": name, "game": game.name,
               "games": f"{facts['games']:,}"}
    return [section], context
