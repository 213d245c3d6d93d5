"""The report's figures: matplotlib, labelled axes with units, 95% intervals drawn as error bars,
and grey levels, hatches, markers and line styles instead of colour alone, so that every figure
reads in black and white.

Each function takes the tables of :mod:`cardsim.reports.content` and returns a
:class:`matplotlib.figure.Figure`, or a list of them where one figure would hold too many panels
(at most :data:`PANELS` each; never shown; :func:`png` renders it). Legends sit outside the
data: beside the axes or above or below the panels. Figures are built on the Agg backend
without pyplot's global state, and :func:`png` writes no time stamp, so a report rebuilt from
the same store has byte-identical images.

Resolution: PNG at :data:`DPI` (200) pixels per inch, shown by the HTML report at half their
pixel size (:func:`shown_size`: 100 CSS pixels per inch), so a figure is as large as at 100 dpi
and sharp on screens of twice the density. PNG rather than SVG inside the HTML: one file serves
the HTML and the Markdown report alike (GitHub shows PNG), it is byte-identical from build to
build, and a histogram of thousands of bars stays small.
"""
from __future__ import annotations

import io
import re
import struct

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from cardsim.stats import fmt_interval, mean_interval

GREYS = ["0.15", "0.55", "0.85", "0.35", "0.7", "1.0"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
LINES = ["-", "--", ":", "-."]
WIDTH = 7.5
DPI = 200
"""Pixels per inch of the PNG files: twice the 100 CSS pixels per inch the HTML shows them at."""
PANELS = 12
"""The most panels one figure holds; more are split into several figures."""
BODY = 11
"""Points of the text written in a figure's cells: the HTML body text's size (16 CSS pixels)
at the 100 CSS pixels per inch the figure is shown at."""


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes at :data:`DPI`, with no metadata that changes between builds;
    a figure drawn in greys alone (as every figure here is) as an 8-bit grey image, a quarter
    of the bytes of colour with the same pixels."""
    fig.set_dpi(DPI)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    grey = (rgba[..., 0] == rgba[..., 1]).all() and (rgba[..., 1] == rgba[..., 2]).all() \
        and (rgba[..., 3] == 255).all()
    image = Image.fromarray(np.ascontiguousarray(rgba[..., 0]) if grey else rgba,
                            "L" if grey else "RGBA")
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(DPI, DPI))
    return buf.getvalue()


def shown_size(data: bytes) -> tuple[int, int]:
    """The CSS width and height at which the HTML shows the PNG ``data`` (:func:`png`): half
    its pixels, the figure's size at 100 pixels per inch."""
    width, height = struct.unpack(">II", data[16:24])
    return round(width * 100 / DPI), round(height * 100 / DPI)


def human(text) -> str:
    """A name as a title says it: ``"claim_won"`` → ``"claim won"``."""
    return str(text).replace("_", " ")


def _pages(items: list, per: int = PANELS) -> list[list]:
    """``items`` in runs of at most ``per``, of sizes as equal as can be."""
    n = max(1, -(-len(items) // per))
    size = -(-len(items) // n)
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def _title(text: str, inches: float, fontsize: float = 9) -> str:
    """A panel title wrapped to the panel's width (``inches``): :func:`_wrap`."""
    return _wrap(text, max(20, int(inches * 72 / (0.55 * fontsize))))


def _legend_beside(ax, **kw) -> None:
    """The axes' legend outside it, on its right."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              frameon=False, **kw)


def _legend_below(fig: Figure, axes, ncols: int) -> None:
    """One legend for the figure, below its panels: every label of the ``axes`` once."""
    named = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            named.setdefault(label, handle)
    if named:
        fig.legend(list(named.values()), list(named), loc="outside lower center", ncols=ncols,
                   fontsize=8, frameon=False)


def _figure(height: float, rows: int = 1, cols: int = 1, sharex: bool = False):
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    axes = fig.subplots(rows, cols, sharex=sharex, squeeze=False).ravel()
    for ax in axes:
        ax.grid(True, axis="both", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, axes


def _err(table: pd.DataFrame, x: str) -> np.ndarray:
    """Error-bar lengths (2 x n) of the ``x``, ``x_lo``, ``x_hi`` columns; NaN bounds draw none."""
    est = table[x].to_numpy(float)
    lo = np.nan_to_num(est - table[f"{x}_lo"].to_numpy(float))
    hi = np.nan_to_num(table[f"{x}_hi"].to_numpy(float) - est)
    return np.clip(np.vstack([lo, hi]), 0.0, None)   # rounding can put a bound past 0


def _bar_style(i: int) -> dict:
    return {"color": GREYS[i % len(GREYS)], "hatch": HATCHES[i % len(HATCHES)],
            "edgecolor": "black", "linewidth": 0.7,
            "error_kw": {"ecolor": "black", "capsize": 3, "elinewidth": 1}}


def grouped_bars(table: pd.DataFrame, group: str, series: list[tuple[str, str]], xlabel: str,
                 title: str, xlim: tuple[float, float] | None = None) -> Figure:
    """Horizontal bars: one group per value of ``group`` (top to bottom in table order), one bar
    per ``(column, legend label)`` of ``series``, each with its ``_lo``/``_hi`` interval."""
    groups = list(dict.fromkeys(table[group]))
    fig, (ax,) = _figure(1.2 + 0.32 * len(groups) * max(len(series), 1.5))
    k = len(series)
    height = 0.8 / k
    y = np.arange(len(groups))[::-1].astype(float)
    for i, (column, label) in enumerate(series):
        part = table.set_index(group).loc[groups].reset_index()
        ax.barh(y + (k - 1 - 2 * i) * height / 2, part[column], height=height,
                xerr=_err(part, column), label=label, **_bar_style(i))
    ax.set_yticks(y, [_wrap(g) for g in groups])
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    if xlim:
        ax.set_xlim(*xlim)
    if k > 1:
        _legend_beside(ax)
    return fig


def forest(table: pd.DataFrame, label: str, value: str, xlabel: str, title: str) -> Figure:
    """Point estimates with their 95% intervals, one row per ``label``, and a line at 0."""
    fig, (ax,) = _figure(1.2 + 0.45 * len(table))
    y = np.arange(len(table))[::-1]
    ax.errorbar(table[value], y, xerr=_err(table, value), fmt="o", color="black",
                ecolor="black", capsize=4, markersize=6)
    ax.axvline(0, color="0.4", linestyle="--", linewidth=1)
    ax.set_yticks(y, [_wrap(v) for v in table[label]])
    ax.set_ylim(-0.7, len(table) - 0.3)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return fig


def distributions(values: dict[str, np.ndarray], xlabel: str, title: str,
                  intervals: dict[str, tuple[float, float, float]] | None = None) -> list[Figure]:
    """One panel per entry (a matchup): the share of games (or deals) at each value, as bars
    when there are few distinct values and as a histogram otherwise; the mean and its 95%
    interval (``intervals[name]`` = (mean, lo, hi), else the values' own) drawn above and
    written in the panel's title. Two columns of panels beyond four, at most :data:`PANELS` a
    figure (the figures share the x axis)."""
    every = np.unique(np.concatenate([np.asarray(v, dtype=float) for v in values.values()]))
    step = np.diff(every).min() if len(every) > 1 else 1.0
    span = (every.min() - step, every.max() + step) if len(every) else (0.0, 1.0)
    pages = _pages(list(values))
    figures = []
    for page, names in enumerate(pages):
        cols = 1 if len(values) <= 4 else 2
        rows = -(-len(names) // cols)
        fig, axes = _figure(0.9 + 2.0 * rows, rows=rows, cols=cols)
        for ax in axes[len(names):]:
            ax.set_visible(False)
        for ax, name in zip(axes, names):
            v = np.asarray(values[name], dtype=float)
            distinct, counts = np.unique(v, return_counts=True)
            if len(distinct) <= 40:
                ax.bar(distinct, counts / v.size, width=0.8 * step, **_bar_style(1))
            else:
                ax.hist(v, bins=30, weights=np.full(v.size, 1 / v.size), **{
                    k: a for k, a in _bar_style(1).items() if k != "error_kw"})
            mean, lo, hi = (intervals or {}).get(name) or mean_interval(v)
            top = ax.get_ylim()[1]
            ax.errorbar([mean], [top * 0.92], xerr=np.nan_to_num([[mean - lo], [hi - mean]]),
                        fmt="D", color="black", capsize=4)
            ax.axvline(0, color="0.4", linestyle=":", linewidth=1)
            ax.set_xlim(*span)
            ax.set_ylabel("share")
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_title(_title(name, WIDTH / cols) + "\nmean " + fmt_interval(mean, lo, hi, 2),
                         fontsize=9)
        part = f" ({page + 1} of {len(pages)})" if len(pages) > 1 else ""
        fig.suptitle(title + part, fontsize=10)
        figures.append(fig)
    return figures


def panels_of_bars(table: pd.DataFrame, panel: str, x: str, series: str, value: str,
                   xlabel: str, ylabel: str, title: str, per: int = 6) -> list[Figure]:
    """One panel per value of ``panel``: bars of ``value`` (with its interval) at each ``x``,
    one bar per value of ``series`` (told apart by grey level and hatch, named in a legend
    beside the panel); at most ``per`` panels a figure."""
    panels = list(dict.fromkeys(table[panel]))
    pages = _pages(panels, per)
    figures = []
    for page, names_of_page in enumerate(pages):
        fig, axes = _figure(0.9 + 2.3 * len(names_of_page), rows=len(names_of_page))
        for ax, p in zip(axes, names_of_page):
            part = table[table[panel] == p]
            xs = list(dict.fromkeys(part[x]))
            names = list(dict.fromkeys(part[series]))
            width = 0.8 / len(names)
            for i, name in enumerate(names):
                one = part[part[series] == name].set_index(x).reindex(xs).reset_index()
                ax.bar(np.arange(len(xs)) + (i - (len(names) - 1) / 2) * width, one[value],
                       width=width, yerr=_err(one, value), label=_wrap(name), **_bar_style(i))
            ax.set_xticks(np.arange(len(xs)), [human(v) for v in xs])
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            ax.set_title(_title(p, WIDTH * 0.7), fontsize=9)
            if len(names) > 1:
                _legend_beside(ax)
        part = f" ({page + 1} of {len(pages)})" if len(pages) > 1 else ""
        fig.suptitle(title + part, fontsize=10)
        figures.append(fig)
    return figures


def panels_of_hbars(table: pd.DataFrame, panel: str, y: str, value: str, xlabels: dict,
                    title: str, marked=None, per: int = 8) -> list[Figure]:
    """One panel per value of ``panel`` (a measure, titled by it, its x axis labelled
    ``xlabels[panel value]``): a horizontal bar of ``value`` with its interval for each ``y``
    (a variant, named in full at the left, top to bottom in table order); the bar of
    ``marked`` (the baseline) dark, with a dotted line at its value through the panel; at most
    ``per`` panels a figure."""
    panels = list(dict.fromkeys(table[panel]))
    ys = list(dict.fromkeys(table[y]))
    figures = []
    pages = _pages(panels, per)
    for page, names_of_page in enumerate(pages):
        fig, axes = _figure(0.6 + (0.55 + 0.3 * len(ys)) * len(names_of_page),
                            rows=len(names_of_page))
        for ax, p in zip(axes, names_of_page):
            part = table[table[panel] == p].set_index(y).reindex(ys).reset_index()
            at = np.arange(len(ys))[::-1].astype(float)
            ax.barh(at, part[value], height=0.7, xerr=_err(part, value),
                    **{**_bar_style(2), "hatch": "", "color": [
                        GREYS[0] if v == marked else GREYS[2] for v in ys]})
            if marked in ys:
                base = part[value][ys.index(marked)]
                if np.isfinite(base):
                    ax.axvline(base, color="black", linestyle=":", linewidth=1)
            ax.set_yticks(at, [_wrap(v, 34) for v in ys], fontsize=8)
            ax.set_ylim(-0.6, len(ys) - 0.4)
            ax.set_xlabel(xlabels.get(p, ""), fontsize=8)
            ax.set_title(_title(p, WIDTH * 0.6), fontsize=9)
        part = f" ({page + 1} of {len(pages)})" if len(pages) > 1 else ""
        fig.suptitle(title + part, fontsize=10)
        figures.append(fig)
    return figures


def budget_curves(table: pd.DataFrame, ylabel: str, title: str,
                  value: str = "mean_return") -> Figure:
    """``value`` (with its ``_lo``/``_hi`` columns: the mean return, or the gain over the field)
    against search budget (log scale), one line per series, 95% intervals."""
    fig, (ax,) = _figure(4.0)
    for i, (name, part) in enumerate(table.groupby("series", sort=False)):
        part = part.sort_values("budget").dropna(subset=[value])
        ax.errorbar(part["budget"], part[value], yerr=_err(part, value),
                    marker=MARKERS[i % len(MARKERS)], linestyle=LINES[i % len(LINES)],
                    color="black", ecolor="black", capsize=4, label=name,
                    markerfacecolor=GREYS[i % len(GREYS)])
    ax.axhline(0, color="0.4", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ticks = sorted(set(table["budget"]))
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    kinds = set(table["budget_kind"])
    ax.set_xlabel("search budget: " + " / ".join(f"{k} per move" for k in sorted(kinds))
                  + " (log scale)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    _legend_beside(ax)
    return fig


def move_times(values: dict[str, np.ndarray], title: str) -> Figure:
    """Box plots (median, quartiles, 5th-95th percentile whiskers) of milliseconds per move in
    each game, one box per matchup, log scale."""
    fig, (ax,) = _figure(1.2 + 0.5 * len(values))
    names = list(values)
    data = [np.clip(np.asarray(values[n], dtype=float), 1e-4, None) for n in names]
    ax.boxplot(data[::-1], orientation="horizontal", whis=(5, 95), showfliers=False,
               medianprops={"color": "black", "linewidth": 1.5},
               boxprops={"color": "black"}, whiskerprops={"color": "black"},
               capprops={"color": "black"})
    ax.set_yticks(np.arange(1, len(names) + 1), [_wrap(n) for n in names[::-1]])
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds per move (per game, both players together; log scale)")
    ax.set_title(title, fontsize=10)
    return fig


def _wrap(text: str, width: int = 28) -> str:
    """A long label in lines of at most about ``width`` characters: broken before " vs ",
    after a comma (agent specs have no spaces) or at a space."""
    if len(str(text)) <= width:
        return str(text)
    lines = []
    for k, part in enumerate(str(text).split(" vs ")):
        line = "vs " if k else ""
        for token in re.split(r"(?<=[, ])", part):
            if line.strip() and len(line) + len(token.rstrip()) > width:
                lines.append(line.rstrip())
                line = ""
            line += token
        lines.append(line.rstrip())
    return "\n".join(lines)


def heatmap(values: pd.DataFrame, half: pd.DataFrame, xlabel: str, ylabel: str, title: str,
            label: str) -> Figure:
    """A grey-level heat map of ``values`` (chances from 0 to 1) laid out as the table of it
    is: its first row at the top, its columns across with their names above, as in the table
    beside it. Each cell is written in percent with its 95% interval's half-width (``half``,
    in percent points) at the body text's size (:data:`BODY`): on one line where the cell is
    wide, on two where it is tall, the value alone where only that fits, nothing where not even
    that does (the table holds every cell). ``label`` names the colour scale."""
    data = 100 * values.to_numpy(float)
    h = 100 * half.to_numpy(float)
    n_rows, n_cols = data.shape
    width = 9.6                                               # the report's text width
    side = min(1.5, (width - 2.2) / max(n_cols, 1))           # a cell's width, inches
    tall = float(np.clip(side, 0.3, 0.6))                     # and height
    fig = Figure(figsize=(width, 1.5 + tall * n_rows), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(data, origin="upper", cmap="Greys", vmin=0.0, vmax=100.0,
                      aspect=tall / side, interpolation="nearest")
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xticks(range(n_cols), [str(c) for c in values.columns], fontsize=9)
    ax.set_yticks(range(n_rows), [str(r) for r in values.index], fontsize=9)
    em = BODY / 72 * 0.6                                      # a digit's width, inches
    if side >= 9.5 * em:
        layout = "{v:.1f} ±{h:.1f}"
    elif side >= 5 * em and tall >= 2.3 * BODY / 72:
        layout = "{v:.1f}\n±{h:.1f}"
    elif side >= 4.5 * em and tall >= 1.2 * BODY / 72:
        layout = "{v:.0f}"
    else:
        layout = None
    if layout:
        for i in range(n_rows):
            for j in range(n_cols):
                if not np.isnan(data[i, j]):
                    ax.text(j, i, layout.format(v=data[i, j], h=h[i, j]), ha="center",
                            va="center", fontsize=BODY, linespacing=1.0,
                            color="white" if data[i, j] > 55 else "black")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, shrink=min(1.0, 4.0 / (tall * n_rows)), label=label)
    return fig


def expected_path(path: pd.DataFrame, ylabel: str, title: str, names: dict | None = None,
                  marks: dict | None = None, xlabel: str = "move of each decision") -> Figure:
    """A review's expected result through the deal (:class:`cardsim.solvers.review.Review`'s ``path``:
    ``seat``, ``step``, ``move``, ``when``, ``value``), one panel per seat: the value before
    the deal (a square), before (filled circle) and after (open circle) each decision, and the
    result (a diamond), points without a value left out. A decision's own step, before to
    after, is drawn solid (its drop is the move's loss); the way from one decision to the next
    dashed (the cards and the others' moves: luck). ``names``: seat -> panel title;
    ``marks``: (seat, move) -> a symbol written above the move's point after it; the ticks
    name each decision by its ``move`` (``xlabel``)."""
    seats = list(dict.fromkeys(path["seat"]))
    fig, axes = _figure(0.6 + 2.6 * max(len(seats), 1), rows=max(len(seats), 1))
    shapes = {"before the deal": ("s", "black"), "before": ("o", "black"),
              "after": ("o", "white"), "result": ("D", "black")}
    for ax, seat in zip(axes, seats):
        part = path[path["seat"] == seat].sort_values("step")
        steps, values = part["step"].to_numpy(float), part["value"].to_numpy(float)
        whens, moves = list(part["when"]), part["move"].to_numpy()
        steps += np.array([{"before the deal": -1.0, "result": 1.0}.get(w, 0.0) for w in whens])
        known = ~np.isnan(values)
        for i in range(len(part) - 1):
            j = i + 1
            if known[i] and known[j]:
                own = whens[i] == "before" and whens[j] == "after"
                ax.plot(steps[[i, j]], values[[i, j]], color="black" if own else "0.45",
                        linestyle="-" if own else "--", linewidth=1.6 if own else 1.0,
                        zorder=2)
        for when, (marker, face) in shapes.items():
            at = known & np.array([w == when for w in whens])
            if at.any():
                ax.plot(steps[at], values[at], linestyle="none", marker=marker,
                        markerfacecolor=face, markeredgecolor="black", markersize=6,
                        label=when, zorder=3)
        for step, value, when, move in zip(steps, values, whens, moves):
            symbol = (marks or {}).get((seat, int(move))) if when == "after" else None
            if symbol and not np.isnan(value):
                ax.annotate(symbol, (step, value), textcoords="offset points", xytext=(0, 7),
                            ha="center", fontsize=8, fontweight="bold")
        ax.plot([], [], color="black", linewidth=1.6, label="a decision (the drop: its loss)")
        ax.plot([], [], color="0.45", linestyle="--", linewidth=1.0,
                label="between decisions (luck)")
        ax.axhline(0, color="0.6", linestyle=":", linewidth=1)
        ends = {"before the deal": "start", "result": "result"}
        ticks = [(s, f"{m}" if w == "before" else ends[w])
                 for s, w, m, k in zip(steps, whens, moves, known)
                 if w == "before" or (w in ends and k)]
        ax.set_xticks([t for t, _ in ticks], [label for _, label in ticks],
                      fontsize=7 if len(ticks) > 14 else 8)
        ax.set_xlabel(f"{xlabel} (start: before the deal)")
        ax.set_ylabel(ylabel)
        ax.set_title((names or {}).get(seat, f"seat {seat}"), fontsize=9)
        if not known.any():
            ax.text(0.5, 0.5, "no value to show", transform=ax.transAxes, ha="center")
    _legend_below(fig, axes, 3)
    fig.suptitle(title, fontsize=10)
    return fig


def reliability(tables: dict[str, pd.DataFrame], title: str) -> Figure:
    """Reliability diagrams (:func:`cardsim.experiments.calibration.reliability`), one panel per
    evaluator: each bin's share that came true (its Wilson interval as error bars) against its
    mean forecast, the marker's area growing with the bin's positions, over the diagonal of
    perfect calibration."""
    fig, axes = _figure(3.4, cols=max(len(tables), 1))
    for i, (ax, (name, table)) in enumerate(zip(axes, tables.items())):
        ax.plot([0, 1], [0, 1], color="0.5", linestyle=":", linewidth=1,
                label="perfect calibration")
        if len(table):
            size = 12 + 120 * table["positions"].to_numpy(float) / table["positions"].max()
            ax.errorbar(table["predicted"], table["realized"], yerr=_err(table, "realized"),
                        fmt="none", ecolor="black", capsize=3, elinewidth=1)
            ax.scatter(table["predicted"], table["realized"], s=size,
                       marker=MARKERS[i % len(MARKERS)], color=GREYS[i % len(GREYS)],
                       edgecolors="black", linewidths=0.7, zorder=3,
                       label="share won (95% interval)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_xlabel("predicted chance of winning the deal")
        ax.set_ylabel("share of positions won")
        ax.set_title(name, fontsize=9)
    _legend_below(fig, axes, 2)
    fig.suptitle(title, fontsize=10)
    return fig
