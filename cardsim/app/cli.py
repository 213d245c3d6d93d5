"""The ``cardsim`` command line: ``main(argv) -> int`` and its parser.

A user error (any :class:`~cardsim.errors.CardsimError`, a usage error among them) prints one
line to stderr and returns 2 (a misspelt command or game names the nearest); a fault of the
environment — an :class:`OSError` (a full disk, a read-only file system, a folder removed while
the command ran: :func:`fault`) or an :class:`~cardsim.errors.EnvironmentFault` (a lost Dask
scheduler) — one line and 1; Ctrl-C returns 130, SIGTERM 143 and SIGHUP 129, each after one
line, stopped the same way (the workers stopped, a results folder left to resume); a closed
pipe (``| head``) 141, silently; a bug keeps its traceback. An output whose encoding cannot
take cardsim's characters gets their ASCII spelling
(:func:`~cardsim.app.output.degrade_to_ascii`). Bare ``cardsim`` prints the help.

The subcommands live with their workflow, each module adding its subcommands' parsers beside
their handlers (thin: they build a config and call a plain function):

- :mod:`.engine`: ``games``, ``simulate``, ``compile``, ``bench``;
- :mod:`.rulebook`: ``rules``;
- :mod:`.studies`: ``run``, ``variants``, ``equity``, ``train``, ``demo``, ``report``, ``verify``,
  ``compare``;
- :mod:`.positions`: ``analyze``, ``review``, ``solve``, ``play``;

and the argument types they share in :mod:`.arguments`.
"""
from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import threading
from typing import Sequence

from cardsim import __version__
from cardsim.errors import CardsimError, nearest
from cardsim.game import definition
from cardsim.protocol.options import check_option_names, parse_option_pairs
from cardsim.protocol.registry import list_games

from . import engine, positions, rulebook, studies


class _StoreOnce(argparse._StoreAction):
    """argparse's ``store``, refusing a second occurrence: ``--seed 1 --seed 2`` would drop the
    first value silently (a repeatable option says so: ``action="append"``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())
        if self.dest in given:
            parser.error(f"argument {'/'.join(self.option_strings) or self.dest}: given twice")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> None:  # argparse's usage errors: one line, exit 2
        command = self.prog.removeprefix("cardsim").strip()      # a subcommand's own parser
        raise CardsimError(f"{command}: {message}" if command else message)

    def _check_value(self, action, value) -> None:
        """argparse's check of a choice, naming the nearest choice of a misspelt one (and, for
        a game named where the command goes, the order)."""
        if action.choices is None or value in action.choices:
            return
        choices = ", ".join(map(str, action.choices))
        command = action.dest == "command"
        game = nearest(value, list_games()) if command else None
        near = nearest(value, action.choices)
        raise argparse.ArgumentError(None if command else action, (
            f"unknown command {value!r}" if command else f"invalid choice: {value!r}") + (
            f": the command comes first, then the game (cardsim simulate {game} ...); "
            f"commands: {choices}" if game
            else f"; did you mean {near!r}?" if near else f" (choose from {choices})"))

    def parse_known_args(self, args=None, namespace=None):
        """argparse's, refusing ``--name=--``: Python 3.11's argparse takes it for an empty list
        of values (no value, no type check: ``--jobs=--`` would give ``jobs=[]``)."""
        given = sys.argv[1:] if args is None else list(args)
        for arg in given[:given.index("--") if "--" in given else None]:
            if arg.startswith("-") and arg.endswith("=--"):
                self.error(f"argument {arg[:-3]}: expected a value, got '--'")
        return super().parse_known_args(args, namespace)


COMMANDS = ("games", "rules", "simulate", "run", "variants", "equity", "train", "demo", "report", "verify",
            "compare", "analyze", "review", "solve", "play", "compile", "bench")
"""The subcommands in the order of ``cardsim --help``: the order of work."""


def make_parser() -> argparse.ArgumentParser:
    """The argument parser, subcommands in workflow order (:data:`COMMANDS`), each added by its
    workflow module."""
    parser = _Parser(prog="cardsim", description="Monte Carlo analysis and solvers for Scopa, "
                     "Bura, Mushka and Minchiate.")
    parser.add_argument("--version", action="version", version=f"cardsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    add = {**engine.SUBCOMMANDS, **rulebook.SUBCOMMANDS, **studies.SUBCOMMANDS,
           **positions.SUBCOMMANDS}
    for name in COMMANDS:
        add[name](sub)
    return parser


def _one_line(text: str) -> str:
    """``text`` with line breaks and other unprintable characters escaped (an argument may hold
    them, and messages quote arguments): an error is one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class Terminated(KeyboardInterrupt):
    """A SIGTERM or SIGHUP received by :func:`main`: raised in the main thread wherever it is, so
    that the command stops as at Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum, frame) -> None:
    signal.signal(signum, signal.SIG_DFL)       # a second one ends the process at once
    raise Terminated(signum)


def _terminate_on_signals():
    """From now on, SIGTERM and SIGHUP raise :class:`Terminated`, each where it has its default
    action (one ignored, as under ``nohup``, stays ignored) and in the main thread only (signals
    are handled nowhere else); returns the function that puts the previous handlers back."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) is signal.SIG_DFL:
                previous[signum] = signal.signal(signum, _terminate)

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return restore


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    from cardsim.compiled.compiling import watch

    from .output import degrade_to_ascii
    degrade_to_ascii(sys.stdout, sys.stderr)   # an ASCII terminal gets ASCII, not a traceback
    argv = sys.argv[1:] if argv is None else list(argv)
    restore = _terminate_on_signals()
    try:
        parser = make_parser()
        if not argv:                          # bare ``cardsim``: what it can do
            parser.print_help()
            return 0
        args = parser.parse_args(argv)
        if getattr(args, "option", None):     # before any work, and before load_game: an option
            check_option_names(definition(args.game).rules_type,   # named like its parameters
                               parse_option_pairs(args.option), args.game)
        quiet = getattr(args, "quiet", False)   # a long compile says what it compiles, and
        with watch(None if quiet else "stderr"):  # that it is alive (not asked for --quiet)
            return args.handler(args)
    except CardsimError as e:
        print(f"cardsim: error: {_one_line(str(e))}", file=sys.stderr)
        return getattr(e, "exit_status", 2)
    except Terminated as e:
        print("cardsim: terminated", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("cardsim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:           # ``cardsim report … | head``: the reader has gone
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())        # no second error at exit's flush
        return 141
    except OSError as e:              # the machine's fault, not the user's: one line, 1
        print(f"cardsim: error: {_one_line(fault(e))}", file=sys.stderr)
        return 1
    finally:
        restore()


FAULTS = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "disk quota exceeded",
          errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
          errno.EPERM: "operation not permitted", errno.EIO: "input/output error",
          errno.ENOENT: "no such file or folder (was it removed while cardsim ran?)",
          errno.ESTALE: "the network file system lost it"}
"""The words for the environment faults a command meets (any other says the system's)."""
RESUME = "what was written before is kept: fix this and run the command again to resume"
"""What a user does after a fault: a store writes each file whole, by rename, so a run
stopped by a fault resumes where it stopped (a removed folder is not named so)."""


def fault(e: OSError) -> str:
    """The one line for an environment fault: what failed, on which file, and what to do."""
    what = FAULTS.get(e.errno, e.strerror or type(e).__name__)
    where = f": {e.filename}" if e.filename else ""
    return f"{what}{where}" + ("" if e.errno == errno.ENOENT else f"; {RESUME}")


if __name__ == "__main__":
    sys.exit(main())
