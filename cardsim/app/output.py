"""What a command prints: its answer in sentences, then its tables, in the format asked for.

``--format table`` (the default) is for a person: the answer first, then each table drawn by
`rich <https://rich.readthedocs.io>`_ — no index column, a value and its 95% interval as
``x [lo, hi]``, rounding chosen by the quantity (:func:`kind_of`: rates to 3 decimals, points to
2, times in ms or s with their unit, counts with thousands separators), every line within the
terminal's width (100 columns when the output is not a terminal, or ``COLUMNS``), no colour
when ``NO_COLOR`` is set or the output is not a terminal, plain ASCII rules where the output's
encoding has no box-drawing characters. ``markdown`` prints the same text and tables as
Markdown. ``csv`` and ``json`` are for scripts: every number as computed (an interval as its
``x``, ``x_lo``, ``x_hi`` columns), no sentences; ``csv`` writes each table under a
``# <name>`` line, ``json`` one object ``{"answer": [...], "tables": {name: [row, ...]}}``.

A command opens an :class:`Output` and writes to it::

    with Output(args.format) as out:
        out.say("ISMCTS beats the heuristic by 0.49 points a deal [0.26, 0.72].")
        out.table("matchups", frame, ["name", "games", "win_rate", "mean_return"],
                  names={"name": "agent"})
"""
from __future__ import annotations

import io
import json
import math
import os
import re
import sys
from typing import Iterable, Sequence

import pandas as pd

from cardsim.stats import fmt_interval

FORMATS = ("table", "csv", "json", "markdown")
WIDTH = 100
"""Columns of the output when it is not a terminal (``COLUMNS`` overrides)."""

RATES = {"score", "p_win", "ece", "ece_corrected", "brier", "bias", "predicted_win",
         "realized_win", "match_predicted", "match_realized", "match_ece",
         "match_ece_corrected", "share", "value_rate"}
POINTS = {"mean_return", "margin", "mean", "lead", "value", "expected", "loss", "return",
          "mean_loss", "expected_return"}
COUNTS_MEAN = {"moves", "decisions", "legal", "actions_per_decision"}
ELO = {"elo"}


def kind_of(column: str, values: pd.Series | None = None) -> str:
    """The quantity a column holds, which sets its rounding: ``rate`` (3 decimals), ``points``
    (2), ``ms`` / ``s`` (a time with its unit), ``count`` (an integer, thousands separated),
    ``mean_count`` (1 decimal), ``elo`` (no decimals), ``number`` (3 significant decimals)
    or ``text``."""
    if values is not None and values.dtype.kind not in "iufb":
        return "text"
    if column.endswith(("_a", "_b")):            # run A's and run B's (cardsim compare)
        column = column[:-2]
    if column in ELO:
        return "elo"
    if column.endswith("_rate") or column in RATES or column.startswith("p_"):
        return "rate"
    if column in POINTS or column.endswith("_return"):
        return "points"
    if column.startswith("ms_") or column.endswith("_ms"):
        return "ms"
    if column in ("seconds", "time") or column.endswith("_seconds"):
        return "s"
    if column in COUNTS_MEAN:
        return "mean_count"
    if values is not None and values.dtype.kind in "iub":
        return "count"
    return "number"


def _digits(kind: str) -> int:
    return {"rate": 3, "points": 2, "ms": 2, "s": 1, "mean_count": 1, "elo": 0,
            "number": 3}.get(kind, 3)


def fmt_value(kind: str, value) -> str:
    """One value as a person reads it (empty for a missing one)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if kind == "text":
        return str(value)
    if kind == "count":
        return f"{int(value):,}"
    digits = _digits(kind)
    text = f"{float(value):,.{digits}f}"
    if text.startswith("-") and float(text.replace(",", "")) == 0:
        text = text[1:]
    return text + {"ms": " ms", "s": " s"}.get(kind, "")


def fmt_cell(kind: str, est, lo=None, hi=None) -> str:
    """A value, with its interval ``[lo, hi]`` when it has one."""
    if lo is None or hi is None or math.isnan(float(lo)) or math.isnan(float(est)):
        return fmt_value(kind, est)
    if kind in ("ms", "s"):
        unit = f" {kind}"
        return fmt_interval(float(est), float(lo), float(hi), _digits(kind)) + unit
    return fmt_interval(float(est), float(lo), float(hi), _digits(kind))


def shown_frame(data: pd.DataFrame, columns: Sequence[str],
                names: dict | None = None, kinds: dict | None = None) -> pd.DataFrame:
    """``data``'s ``columns`` as strings a person reads: an ``x``/``x_lo``/``x_hi`` triple
    as one ``x [lo, hi]`` column, each value rounded by its kind (:func:`kind_of`, or
    ``kinds[column]``), headers renamed by ``names`` (default: ``_`` as a space)."""
    out = {}
    for c in columns:
        if c not in data.columns:
            continue
        kind = (kinds or {}).get(c) or kind_of(c, data[c])
        lo, hi = f"{c}_lo", f"{c}_hi"
        if lo in data.columns and hi in data.columns:
            cells = [fmt_cell(kind, e, a, b) for e, a, b in zip(data[c], data[lo], data[hi])]
        else:
            cells = [fmt_value(kind, v) for v in data[c]]
        out[(names or {}).get(c, c.replace("_", " "))] = cells
    return pd.DataFrame(out)


def raw_frame(data: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """``data``'s ``columns`` with their interval bounds, as computed (csv and json)."""
    keep = []
    for c in columns:
        if c in data.columns:
            keep += [c] + [b for b in (f"{c}_lo", f"{c}_hi") if b in data.columns]
    return data[keep].reset_index(drop=True)


_INTERVAL = re.compile(r"^\s*(-?[0-9.]+) \[(-?[0-9.]+), (-?[0-9.]+)\]\s*$")


def text_table(table: pd.DataFrame) -> pd.DataFrame:
    """A table of preformatted text (a game's simulation summary: an index of one or more
    levels, cells such as ``"0.460 [0.438, 0.482]"``) as a flat table of numbers: the index
    levels as columns (a repeated value of an outer level blank), every column of intervals
    as its ``x``, ``x_lo``, ``x_hi`` numbers and every column of numbers as numbers, so that
    csv and json carry numbers and the terminal shows them as they were."""
    flat = table.reset_index() if any(n is not None for n in table.index.names) else table
    flat = flat.copy()
    out = {}
    for c in flat.columns:
        cells = [str(v) for v in flat[c]]
        name = str(c)
        matches = [_INTERVAL.match(v) for v in cells]
        if cells and all(matches):
            for k, end in enumerate(("", "_lo", "_hi")):
                out[f"{name}{end}"] = [float(m.group(k + 1)) for m in matches]
            continue
        numbers = pd.to_numeric(pd.Series(cells), errors="coerce")
        if cells and numbers.notna().all() and flat[c].dtype.kind != "O":
            out[name] = flat[c].to_numpy()
        elif cells and numbers.notna().all():
            out[name] = numbers.to_numpy()
        else:
            out[name] = cells
    frame = pd.DataFrame(out)
    frame.attrs = dict(table.attrs)
    return frame


ASCII = {"—": "-", "–": "-", "−": "-", "‐": "-", "±": "+/-", "×": "x", "·": ".", "…": "...",
         "→": "->", "←": "<-", "≤": "<=", "≥": ">=", "≈": "~", "²": "^2", "§": "S.", "‘": "'",
         "’": "'", "“": '"', "”": '"', "«": '"', "»": '"', "─": "-", "━": "-", "│": "|",
         "┃": "|", "•": "*", "♠": "S", "♥": "H", "♦": "D", "♣": "C", "\u00a0": " "}
"""The ASCII spelling of the characters cardsim prints, for an output that cannot encode them
(:func:`degrade_to_ascii`); any other character is spelt by its letters without accents, box
corners as ``+``, else ``?``."""


def _ascii(error: UnicodeError) -> tuple[str, int]:
    """The ``cardsim-ascii`` codec error handler: :data:`ASCII`'s spelling of the characters
    that the output's encoding cannot take."""
    import unicodedata
    if not isinstance(error, UnicodeEncodeError):
        raise error
    spelt = []
    for c in error.object[error.start:error.end]:
        plain = unicodedata.normalize("NFKD", c).encode("ascii", "ignore").decode()
        spelt.append(ASCII.get(c) or plain or (
            "+" if unicodedata.name(c, "").startswith("BOX DRAWINGS") else "?"))
    return "".join(spelt), error.end


def degrade_to_ascii(*streams) -> None:
    """Make each text stream whose encoding cannot take cardsim's characters (``LC_ALL=C``
    with ``PYTHONUTF8=0``: ASCII) print them in ASCII (:data:`ASCII`) instead of failing: a
    result is never lost to the terminal's encoding."""
    import codecs
    try:
        codecs.lookup_error("cardsim-ascii")
    except LookupError:
        codecs.register_error("cardsim-ascii", _ascii)
    for stream in streams:
        if not _encodes(stream, "—±×…─│") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="cardsim-ascii")
            except (ValueError, OSError):      # closed, or not reconfigurable: left as is
                pass


def _encodes(stream, text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


class Output:
    """A command's printed answer and tables (module docstring). ``file``: stdout by
    default; ``width``: the terminal's (or ``COLUMNS``, or :data:`WIDTH`)."""

    def __init__(self, fmt: str = "table", file=None, width: int | None = None) -> None:
        if fmt not in FORMATS:
            from cardsim.errors import CardsimError
            raise CardsimError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
        self.fmt = fmt
        self.file = sys.stdout if file is None else file
        self.width = width or _width(self.file)
        self.answer: list[str] = []
        self.tables: dict[str, list[dict]] = {}
        self._first = True               # no csv table written yet
        self._printed = False            # nothing drawn yet (a table after text: a blank line)

    def __enter__(self) -> "Output":
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()

    # --- writing ---------------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Sentences of the answer (or a plain line): wrapped to the width in ``table`` and
        ``markdown``, kept in ``json``'s ``answer``, left out of ``csv``."""
        for line in lines:
            self.answer.append(line)
            if self.fmt in ("table", "markdown"):
                self._print_text(line)

    def blank(self) -> None:
        if self.fmt in ("table", "markdown"):
            print(file=self.file)
            self._printed = False

    def table(self, name: str, data: pd.DataFrame, columns: Sequence[str] | None = None,
              names: dict | None = None, title: str | None = None, note: str | None = None,
              kinds: dict | None = None, groups: str | None = None,
              plain: Sequence[str] = ()) -> None:
        """A table: ``data``'s ``columns`` (all but the interval bounds by default);
        ``title`` above it (``name`` by default), ``note`` below (``data.attrs["note"]``
        by default). ``groups``: a column whose runs of equal values print as a heading row
        above their rows instead of a column (a matchup's agents under the matchup).
        ``plain``: columns shown without their interval (kept in csv and json)."""
        if columns is None:
            columns = [c for c in data.columns
                       if not (str(c).endswith(("_lo", "_hi"))
                               and str(c)[:-3] in data.columns)]
        columns = list(columns)
        if note is None:
            note = data.attrs.get("note")
        if self.fmt == "json":
            frame = raw_frame(data, ([groups] if groups else []) + columns)
            self.tables[name] = json.loads(frame.to_json(orient="records", double_precision=15))
            return
        if self.fmt == "csv":
            frame = raw_frame(data, ([groups] if groups else []) + columns)
            if not self._first:
                print(file=self.file)
            print(f"# {name}", file=self.file)
            self.file.write(frame.to_csv(index=False))
            self._first = False
            return
        bounds = [f"{c}{e}" for c in plain for e in ("_lo", "_hi") if f"{c}{e}" in data.columns]
        shown = shown_frame(data.drop(columns=bounds), columns, names, kinds)
        heads = (None if groups is None
                 else [str(v) for v in data[groups]])
        if self.fmt == "markdown":
            self._markdown(title or name, shown, heads, note)
        else:
            self._rich(title or name, shown, heads, note)

    def close(self) -> None:
        if self.fmt == "json":
            json.dump({"answer": self.answer, "tables": self.tables}, self.file, indent=1)
            print(file=self.file)
        self.file.flush()

    # --- rendering -------------------------------------------------------------------------

    def _render(self, *items) -> None:
        """``items`` drawn by rich within the width, each line's trailing spaces cut."""
        from rich.console import Console
        buffer = io.StringIO()
        try:
            terminal = self.file.isatty()
        except (AttributeError, ValueError):
            terminal = False
        console = Console(file=buffer, width=self.width, highlight=False, soft_wrap=False,
                          emoji=False, markup=False, force_terminal=terminal)
        for item in items:
            console.print(item)
        self.file.write("".join(line.rstrip() + "\n"
                                for line in buffer.getvalue().splitlines()))
        self._printed = True

    def _print_text(self, text: str) -> None:
        if self.fmt == "markdown":
            print(text, file=self.file)
            return
        from rich.text import Text
        self._render(Text(text))

    def _rich(self, title: str, shown: pd.DataFrame, heads, note: str | None) -> None:
        from rich import box
        from rich.table import Table
        from rich.text import Text
        ascii_only = not _encodes(self.file, "─│")
        table = Table(box=box.ASCII2 if ascii_only else box.SIMPLE_HEAD, show_edge=False,
                      pad_edge=False, collapse_padding=True, header_style="bold")
        for c in shown.columns:
            numeric = bool(len(shown)) and all(_numeric(v) for v in shown[c] if v)
            table.add_column(str(c), justify="right" if numeric else "left",
                             overflow="fold")
        last = None
        for i, row in enumerate(shown.itertuples(index=False)):
            if heads is not None and heads[i] != last:
                table.add_row(Text(heads[i], style="bold"), *([""] * (len(shown.columns) - 1)))
                last = heads[i]
            cells = [str(v) for v in row]
            if heads is not None and cells:
                cells[0] = "  " + cells[0]
            table.add_row(*cells)
        items = ([""] if self._printed else []) + [Text(title, style="bold"), table]
        if note:
            items.append(Text(note, style="dim"))
        self._render(*items)

    def _markdown(self, title: str, shown: pd.DataFrame, heads, note: str | None) -> None:
        lines = ["", f"### {title}", ""]
        columns = ([""] if heads is not None else []) + [str(c) for c in shown.columns]
        lines.append("| " + " | ".join(columns) + " |")
        lines.append("|" + "|".join("---" for _ in columns) + "|")
        for i, row in enumerate(shown.itertuples(index=False)):
            cells = ([heads[i]] if heads is not None else []) + [str(v) for v in row]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        if note:
            lines += ["", f"*{note}*"]
        print("\n".join(lines), file=self.file)


def _numeric(text: str) -> bool:
    head = text.split(" ")[0].replace(",", "").rstrip("%")
    try:
        float(head)
        return True
    except ValueError:
        return False


def _width(stream) -> int:
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        pass
    try:
        return max(40, int(os.environ.get("COLUMNS", WIDTH)))
    except ValueError:
        return WIDTH


def add_format(p, default: str = "table") -> None:
    """``--format table|csv|json|markdown`` on a subcommand's parser."""
    p.add_argument("--format", choices=FORMATS, default=default,
                   help="how to print the results: a table for a person (default), csv or "
                   "json for scripts (every number as computed), markdown")


def wrapped(words: Iterable[str], width: int, indent: str = "  ",
            first: str = "") -> list[str]:
    """``words`` joined by spaces into lines of at most ``width`` columns (the first line
    starting with ``first``, the rest with ``indent``): a long line of moves, readable."""
    lines, line = [], first
    for w in words:
        if line.strip() and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = indent + w
        else:
            line = (line + " " + w) if line.strip() else line + w
    if line.strip():
        lines.append(line)
    return lines


__all__ = ["FORMATS", "Output", "add_format", "fmt_cell", "fmt_value", "kind_of",
           "shown_frame", "raw_frame", "wrapped"]
