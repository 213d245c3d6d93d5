"""The report of a match-equity folder (``cardsim equity --out DIR``; :mod:`experiments.equity`).

One section for the table — a grey-level heat map per dealing side, each cell side a's chance
in percent over its 95% interval's half-width, and the same as readable grids — and one for
the checks every table must pass. Built from the folder's manifest and table alone.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardsim.game import load_game
from experiments.equity import (
    EquityError,
    grids,
    match_model,
    read_equity,
    read_manifest,
    table_checks,
)

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
    config = manifest["config"]
    game = load_game(config["game"], **config["rules"])
    model = match_model(game)
    a, b = manifest["agents"]
    columns = model.columns
    parts = grids(table, columns)
    name = Path(folder).resolve().name
    half = (table["p_high"] - table["p_low"]) / 2
    text = [f"The chance that side a ({a}) wins the match against side b ({b}), from each "
            f"match state: {model.description} ({model.rules}). From {config['deals']:,} "
            f"duplicate single deals between them (seed {config['seed']}), by dynamic "
            f"programming over the match states; 95% percentile intervals of a bootstrap of "
            f"{config['boot']} resamples of the deals. The widest interval is "
            f"±{half.max():.4f} (mean ±{half.mean():.4f})."]
    equity = Section("equity", "Match equity", text=text)
    equity.plots.append(Plot("equity", f"Side a's chance to win ({columns[0]} up, "
                             f"{columns[1]} across), in percent over its interval's "
                             "half-width", plots.heatmaps(parts, columns[1], columns[0],
                                                         f"{game.name}: match equity")))
    for title, (values, widths) in parts.items():
        key = title.replace(" ", "_")
        equity.tables.append(Table(f"equity_{key}", f"{title}: side a's chance with the "
                                   "half-width of its 95% interval", table[
                                       table[columns[2]] == title.split(" ", 1)[1]],
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
