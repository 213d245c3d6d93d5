"""``cardsim report``: a run's report written from its store alone.

The report folder (``<run>/report`` unless told otherwise) holds:

- ``report.html``: one self-contained file, the figures embedded as PNG data (at twice the
  resolution they are shown at: :mod:`cardsim.reports.plots`), no script and no link to
  anything outside it; an interval ``x [lo, hi]`` in a table cell is kept on one line;
- ``report.md`` with the figures beside it in ``plots/*.png``;
- ``tables/*.csv``: every table in full (every column, intervals as ``x``, ``x_lo``, ``x_hi``).

The folder is rewritten whole on every build: it is first built beside it (``.<name>-new-*``)
and then swapped in at one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``; where the system
cannot, two renames), so a build killed at any moment leaves the old report or the new one,
whole. One build at a time writes a folder (a lock, ``.<name>.lock`` beside it), and it
first removes what a killed build left beside it. The same store gives byte-identical files:
delete the report and rebuild it at any time with the command its footer prints
(:func:`rebuild_command`: the run's folder as it was given, relative to the current folder). A
store with a damaged batch is refused (:meth:`cardsim.experiments.store.Store.rows`).
"""
from __future__ import annotations

import base64
import ctypes
import errno
import os
import re
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2
import markupsafe
import pandas as pd

from cardsim import __version__
from cardsim.experiments.store import folder_lock
from cardsim.experiments.variants import is_study_folder

from . import plots
from .calibration import calibration_contents, is_calibration_folder
from .content import sections
from .equity import equity_contents, is_equity_folder
from .run import ReportError, Run, load_run

FORMATS = ("html", "md", "both")
_OWNED = {"report.html", "report.md", "plots", "tables"}


@dataclass(frozen=True)
class ReportFiles:
    """What a build wrote: the folder, the report files, the figures and tables."""

    folder: Path
    html: Path | None
    markdown: Path | None
    plots: tuple[Path, ...]
    tables: tuple[Path, ...]


def markdown_table(table: pd.DataFrame) -> str:
    """A pipe table (GitHub-flavoured Markdown); ``|`` in a cell is escaped."""
    def cell(v) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")
    head = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in table.itertuples(index=False)]
    return "\n".join([head, rule, *body])


_INTERVAL = re.compile(r"^[-+−]?[\d.,]+%? \[[-+−]?[\d.,]+%?, [-+−]?[\d.,]+%?\]$|^[-+−]?[\d.,]+%? ±[\d.,]+%?$")


_NUMBER = re.compile(r"^[-+−]?[\d.,]+%?$|^$")


def cell_class(value) -> str:
    """The HTML class of a table cell: ``"iv"`` (kept on one line) for an interval
    ``x [lo, hi]`` or ``x ±h``, ``"txt"`` (aligned left) for words, none for a number."""
    value = str(value)
    return "iv" if _INTERVAL.match(value) else "" if _NUMBER.match(value) else "txt"


def breakable(value) -> markupsafe.Markup:
    """A table cell's text, escaped, with a place to break the line after every comma: an
    agent spec (``ismcts:iterations=1000,rollout=heuristic``) has no space to break at."""
    return markupsafe.Markup(",<wbr>").join(markupsafe.escape(str(value)).split(","))


def _environment(html: bool) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("cardsim.reports", "templates"),
                             autoescape=html, undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)
    env.filters["markdown_table"] = markdown_table
    env.filters["cell_class"] = cell_class
    env.filters["breakable"] = breakable
    return env


def shown_path(path) -> str:
    """A folder as a command line names it from the current folder: relative where it is
    inside it, else absolute; quoted for the shell where it needs to be."""
    path = Path(path)
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            pass
    return shlex.quote(str(path))


def rebuild_command(run, out=None) -> str:
    """``cardsim report RUN`` for the run folder ``run`` as given (:func:`shown_path`), with
    ``--out OUT`` when the report goes elsewhere than ``RUN/report``."""
    command = f"cardsim report {shown_path(run)}"
    if out is not None and Path(out).resolve() != (Path(run) / "report").resolve():
        command += f" --out {shown_path(out)}"
    return command


RUN_INTERVALS = ("Intervals are 95%: paired over duplicate deals (Student's t) for means, Wilson "
                 "score intervals for rates, a bootstrap over deals for Elo ratings.")


def _check_out(out: Path) -> None:
    if out.is_symlink():                 # the swap would move the link's target's report away
        raise ReportError(f"{out} is a symbolic link (to {os.readlink(out)}): cardsim never "
                          "writes a report through a link; give a real folder (--out)")
    if out.exists() and (not out.is_dir() or set(p.name for p in out.iterdir()) - _OWNED):
        raise ReportError(f"{out} exists and holds other files than a report's (report.html, "
                          "report.md, plots/, tables/): choose another --out folder")


def build_report(run, out=None, fmt: str = "both", rebuild: str | None = None) -> ReportFiles:
    """Write the report of the run at ``run`` (a folder or a :class:`~cardsim.reports.run.Run`) into
    ``out`` (default ``<run>/report``) in format ``"html"``, ``"md"`` or ``"both"``; its footer
    names ``rebuild`` as the command that rebuilds it (default :func:`rebuild_command`)."""
    if fmt not in FORMATS:
        raise ReportError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    folder = run.path if isinstance(run, Run) else run
    rebuild = rebuild or rebuild_command(folder, out)
    out = Path(out) if out is not None else Path(folder) / "report"
    if not isinstance(run, Run) and is_study_folder(run):
        from .variants import variants_contents
        contents = variants_contents(run)
    elif not isinstance(run, Run) and is_equity_folder(run):
        contents = equity_contents(run)
    elif not isinstance(run, Run) and is_calibration_folder(run):
        contents = calibration_contents(run)
    else:
        run = run if isinstance(run, Run) else load_run(run)
        contents = None

    def with_footer():                   # called once the folder is locked
        parts, context = contents or (sections(run), _context(run))
        return parts, {"intervals": RUN_INTERVALS, **context, "rebuild": rebuild}
    return write_report(with_footer, out, fmt)


def write_report(contents, out, fmt: str = "both", template: str = "report") -> ReportFiles:
    """Write a report into the folder ``out`` as the module docstring says: ``contents()``
    gives its sections and what the templates say of it (called once the folder is locked);
    ``template`` names the templates (``<template>.html.j2``, ``<template>.md.j2``)."""
    if fmt not in FORMATS:
        raise ReportError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    out = Path(out)
    _check_out(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with folder_lock(out.parent, f".{out.name}.lock", f"a `cardsim report` writing {out}"):
        parts, context = contents()
        for leftover in out.parent.glob(f".{out.name}-new-*"):    # of a killed build
            if leftover.is_symlink():
                leftover.unlink()                  # the link only, never its target
            else:
                shutil.rmtree(leftover, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
        tmp.chmod(0o755)
        try:
            _write(context, parts, tmp, fmt, template)
            _swap_in(tmp, out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)       # the old report, after the swap
    return ReportFiles(
        folder=out, html=out / "report.html" if fmt != "md" else None,
        markdown=out / "report.md" if fmt != "html" else None,
        plots=tuple(sorted((out / "plots").glob("*.png"))),
        tables=tuple(sorted((out / "tables").glob("*.csv"))))


def _swap_in(new: Path, out: Path) -> None:
    """Put the folder ``new`` at ``out`` at one step; an existing ``out`` is exchanged with it
    (``new`` then holds the old report)."""
    if not out.exists():
        new.rename(out)
    elif not _exchange(new, out):
        old = new.with_name(new.name + "-old")
        out.rename(old)
        new.rename(out)
        old.rename(new)


def _exchange(a: Path, b: Path) -> bool:
    """Exchange the paths ``a`` and ``b`` atomically (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``); False where the system or the file system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _context(run: Run) -> dict:
    """What the templates say of an experiment's run."""
    return {"title": f"{run.spec.game.capitalize()} experiment {run.name}",
            "run_name": run.name, "game": run.spec.game, "games": f"{len(run.rows):,}"}


def _write(context: dict, parts, folder: Path, fmt: str, template: str = "report") -> None:
    (folder / "tables").mkdir()
    for s in parts:
        for t in s.tables:
            t.data.to_csv(folder / "tables" / f"{t.name}.csv", index=False)
    images = {p.name: plots.png(p.figure) for s in parts for p in s.plots}
    context = {**context, "version": __version__, "sections": parts,
               "sizes": {k: plots.shown_size(v) for k, v in images.items()}}
    if fmt in ("md", "both"):
        (folder / "plots").mkdir()
        for name, data in images.items():
            (folder / "plots" / f"{name}.png").write_bytes(data)
        text = _environment(False).get_template(f"{template}.md.j2").render(**context)
        (folder / "report.md").write_text(text, encoding="utf-8")
    if fmt in ("html", "both"):
        encoded = {k: base64.b64encode(v).decode("ascii") for k, v in images.items()}
        html = _environment(True).get_template(f"{template}.html.j2")
        text = html.render(images=encoded, **context)
        (folder / "report.html").write_text(text, encoding="utf-8")
