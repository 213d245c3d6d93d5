"""Reading a match-equity folder (``cardsim equity --out DIR``; :mod:`.equity` computes
one): its manifest and table, the table a game's rules ask for, and the match values that
agents with ``value=match`` read (:func:`table_values`). A layer below the runner, which
reads tables and never computes them (``cardsim run`` computes a missing default table first,
:func:`.equity.load_table`)."""
from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pandas as pd

from cardsim.errors import CardsimError
from cardsim.files import MANIFEST_BYTES, TABLE_BYTES, read_limited
from cardsim.protocol.match import MatchModel, dense_equity
from cardsim.protocol.options import non_default, rules_dict

SCHEMA = 1
"""The version of an equity folder's manifest and table."""
MANIFEST, TABLE, CSV, DEALS = "manifest.json", "equity.parquet", "equity.csv", "deals"
"""An equity folder's files (:mod:`.equity`'s module docstring)."""


class EquityError(CardsimError):
    """A bad equity table request or folder (one line)."""


def match_model(game) -> MatchModel:
    """The game's match model, or :class:`EquityError` when it has none (or none under these
    rules: Bura's single deal, or more than two players)."""
    make = game.definition.match
    if make is None:
        raise EquityError(f"{game.name} has no match model of states: its chances come "
                          f"from whole games (`cardsim equity {game.name}`), not a table a "
                          "deal's end can be valued by")
    try:
        return make(game.rules)
    except EquityError:
        raise
    except CardsimError as e:
        raise EquityError(str(e)) from None


def read_manifest(folder) -> dict:
    """An equity folder's manifest, or :class:`EquityError`."""
    path = Path(folder) / MANIFEST
    if not os.path.lexists(path):
        raise EquityError(f"{folder}: no {MANIFEST}: not an equity folder")
    data = read_limited(path, MANIFEST_BYTES, "an equity folder's manifest", EquityError)
    try:
        manifest = json.loads(data)
    except (ValueError, RecursionError) as e:
        raise EquityError(f"{path}: unreadable ({str(e).splitlines()[0]})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "equity":
        raise EquityError(f"{folder}: not an equity folder (its manifest is no equity "
                          "table's)")
    if manifest.get("schema") != SCHEMA:
        raise EquityError(f"{path}: equity schema {manifest.get('schema')!r}; this cardsim "
                          f"reads {SCHEMA}")
    return manifest


def read_equity(folder) -> tuple[dict, pd.DataFrame]:
    """An equity folder's manifest and table (a folder whose table is missing or damaged is
    refused in one line: ``cardsim equity`` with the same request computes it again)."""
    manifest = read_manifest(folder)
    data = read_limited(Path(folder) / TABLE, TABLE_BYTES, "an equity table", EquityError)
    try:
        table = pd.read_parquet(io.BytesIO(data))
    except Exception as e:  # pyarrow raises many kinds; every one is a damaged file here
        raise EquityError(f"{Path(folder) / TABLE}: unreadable ({type(e).__name__}); run "
                          "the same `cardsim equity` again to rebuild it") from None
    return manifest, table


def default_folder(game: str, options: dict) -> str:
    """``cardsim equity``'s default folder: runs/equity_<game>[_<option>-<value>...]."""
    parts = [f"{k}-{v}" for k, v in sorted(options.items())]
    return str(Path("runs") / "_".join([f"equity_{game}", *parts]))


def read_table(game, folder: str = "") -> tuple[dict, pd.DataFrame]:
    """The manifest and table of the equity folder ``folder`` for ``game`` (a
    :class:`cardsim.Game`) under its own rules (an empty ``folder``: ``cardsim equity``'s
    default one, ``runs/equity_<game>[_<option>-<value>...]``). A folder without a table, or
    a table of another game or other rules, is refused in one line."""
    folder = folder or default_folder(game.name, non_default(game.rules))
    if not (Path(folder) / TABLE).exists():
        raise EquityError(f"no equity table in {folder}: compute it with `cardsim equity "
                          f"{game.name} --out {folder}` and the game's options")
    manifest, table = read_equity(folder)
    if manifest["game"] != game.name or manifest["rules"] != rules_dict(game.rules):
        raise EquityError(f"{folder}: the equity table of {manifest['game']} with other "
                          f"rules than this {game.name} game's; compute one with `cardsim "
                          f"equity {game.name}` and the same options")
    return manifest, table


def table_values(game, folder: str = ""):
    """The match values per cell (:func:`cardsim.protocol.match.dense_equity`) of :func:`read_table`'s
    table: what agents with ``value=match`` read."""
    _, table = read_table(game, folder)
    return dense_equity(match_model(game), table)
