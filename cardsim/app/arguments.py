"""What the subcommands of the command line share: argument types that refuse a bad value in one
line, the arguments several subcommands take (``--option``, a position file, ``--infer``), and
the printing of a table.

An argument type raises :class:`argparse.ArgumentTypeError`, whose message argparse prints as
the error (``cardsim: error: argument --jobs: '0': expected a positive integer``).
"""
from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path

from cardsim.errors import CardsimError

# --- argument types ------------------------------------------------------------------------------


def int_at_least(minimum: int, what: str, maximum: int | None = None):
    """An argparse type: an integer >= ``minimum`` (and <= ``maximum``), with a one-line error
    otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: expected an integer {what}"
                                             if what.startswith("at least")
                                             else f"{text!r}: expected a {what} integer")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{text!r}: at most {maximum:,}")
        return value
    return parse


def epsilon(text: str) -> float:
    """An argparse type: the inference model's epsilon, a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number between 0 and 1 "
                                         "(exclusive)")
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number of seconds")
    return value


def share(text: str) -> float:
    """An argparse type: a share in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a share above 0, at most 1")
    return value


def folder(text: str) -> str:
    """An argparse type: a folder to write into; refused at once when it cannot be one (an empty
    name, an existing file, or a path through a file)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a folder, got an empty name")
    path = Path(text)
    for p in (path, *path.parents):
        if p.exists():
            if not p.is_dir():
                raise argparse.ArgumentTypeError(
                    f"{text!r} is a file, not a folder" if p == path
                    else f"{text!r}: {str(p)!r} is a file, not a folder")
            break
    return text


def dask_address(text: str) -> str:
    """An argparse type: a Dask scheduler's address, ``[tcp://]HOST:PORT`` (or tls, ws, wss,
    ucx); checked here, as the cluster's client would fail on it only after the warm-up."""
    m = re.fullmatch(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})",
                     text)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a scheduler address such as "
                                         "tcp://host:8786")
    return text


def where_of(text: str):
    """``--where JSON``: the condition it holds, or one line when it is not JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        raise CardsimError("--where: JSON nested too deeply") from None
    except ValueError as e:                   # JSONDecodeError, or a number too long
        raise CardsimError(f"--where {text[:60]!r}: not JSON ({e})") from None


# --- arguments several subcommands take ------------------------------------------------------------

def rules_option(p: argparse.ArgumentParser, help: str) -> None:
    """The repeatable ``--option NAME=VALUE`` of a subcommand."""
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=help)


def position_command(sub, name: str, help: str, position_help: str,
                     optional: bool = False) -> argparse.ArgumentParser:
    """A subcommand on a position file: its ``game`` and ``position`` arguments (``optional``:
    the position may be left out)."""
    p = sub.add_parser(name, help=help)
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("position", nargs="?" if optional else None,
                   help="a position JSON file (State.to_dict format)" + position_help)
    return p


def infer_option(p: argparse.ArgumentParser, moves: str) -> None:
    """``--infer [EPSILON]`` or ``--uniform``: worlds weighted by the other players' moves
    (cardsim/solvers/inference), or not; neither: the game's default (:func:`infer_choice`)."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--infer", nargs="?", type=epsilon, const=0.3, default=None,
                       metavar="EPSILON", help="draw the worlds by inference from the other "
                       f"players' moves of the deal so far, {moves}: each world weighted by "
                       "their likelihood under the heuristic player, softened by EPSILON "
                       "(0.3). Default: inference where the game's analysis measured better "
                       "calibrated on it (Bura, Mushka), else uniform worlds")
    which.add_argument("--uniform", dest="infer", action="store_const", const=False,
                       help="sample the worlds uniformly, ignoring what the other players' "
                       "moves say")


def infer_choice(args: argparse.Namespace):
    """``AnalysisConfig.infer`` from ``--infer [EPSILON]`` (the epsilon), ``--uniform`` (None)
    or neither (the game's default, ``cardsim.solvers.analyze.GAME_DEFAULT``)."""
    from cardsim.solvers.analyze import GAME_DEFAULT
    return GAME_DEFAULT if args.infer is None else None if args.infer is False else args.infer
