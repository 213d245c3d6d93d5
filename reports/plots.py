"""The report's figures: matplotlib, labelled axes with units, 95% intervals drawn as error bars,
and grey levels, hatches, markers and line styles instead of colour alone, so that every figure
reads in black and white.

Each function takes the tables of :mod:`reports.content` and returns a
:class:`matplotlib.figure.Figure` (never shown; :func:`png` renders it). Figures are built on
the Agg backend without pyplot's global state, and :func:`png` writes no time stamp, so a report
rebuilt from the same store has byte-identical images.
"""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.stats import fmt_interval, mean_interval

GREYS = ["0.15", "0.55", "0.85", "0.35", "0.7", "1.0"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
LINES = ["-", "--", ":", "-."]
WIDTH = 7.5


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (100 dpi, no metadata that changes between builds)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return buf.getvalue()


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
        ax.legend(fontsize=8, loc="best")
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
                  intervals: dict[str, tuple[float, float, float]] | None = None) -> Figure:
    """One panel per entry (a matchup): the share of games (or deals) at each value, as bars
    when there are few distinct values and as a histogram otherwise; the mean and its 95%
    interval (``intervals[name]`` = (mean, lo, hi), else the values' own) drawn above."""
    fig, axes = _figure(0.6 + 1.6 * len(values), rows=len(values), sharex=True)
    every = np.unique(np.concatenate([np.asarray(v, dtype=float) for v in values.values()]))
    step = np.diff(every).min() if len(every) > 1 else 1.0
    for ax, (name, v) in zip(axes, values.items()):
        v = np.asarray(v, dtype=float)
        distinct, counts = np.unique(v, return_counts=True)
        if len(distinct) <= 40:
            ax.bar(distinct, counts / v.size, width=0.8 * step, **_bar_style(1))
        else:
            ax.hist(v, bins=30, weights=np.full(v.size, 1 / v.size), **{
                k: a for k, a in _bar_style(1).items() if k != "error_kw"})
        mean, lo, hi = (intervals or {}).get(name) or mean_interval(v)
        top = ax.get_ylim()[1]
        ax.errorbar([mean], [top * 0.92], xerr=np.nan_to_num([[mean - lo], [hi - mean]]),
                    fmt="D", color="black", capsize=4,
                    label="mean " + fmt_interval(mean, lo, hi, 2))
        ax.axvline(0, color="0.4", linestyle=":", linewidth=1)
        ax.set_ylabel("share")
        ax.set_title(name, fontsize=9)
        ax.legend(fontsize=8, loc="upper left")
    axes[-1].set_xlabel(xlabel)
    fig.suptitle(title, fontsize=10)
    return fig


def panels_of_bars(table: pd.DataFrame, panel: str, x: str, series: str, value: str,
                   xlabel: str, ylabel: str, title: str) -> Figure:
    """One panel per value of ``panel``: bars of ``value`` (with its interval) at each ``x``,
    one bar per value of ``series`` (told apart by grey level and hatch)."""
    panels = list(dict.fromkeys(table[panel]))
    fig, axes = _figure(0.8 + 2.4 * len(panels), rows=len(panels))
    for ax, p in zip(axes, panels):
        part = table[table[panel] == p]
        xs = list(dict.fromkeys(part[x]))
        names = list(dict.fromkeys(part[series]))
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            one = part[part[series] == name].set_index(x).reindex(xs).reset_index()
            ax.bar(np.arange(len(xs)) + (i - (len(names) - 1) / 2) * width, one[value],
                   width=width, yerr=_err(one, value), label=str(name), **_bar_style(i))
        ax.set_xticks(np.arange(len(xs)), [str(v) for v in xs])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(str(p), fontsize=9)
        if len(names) > 1:
            ax.legend(fontsize=8, loc="best")
    fig.suptitle(title, fontsize=10)
    return fig


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
    ax.legend(fontsize=8, loc="best")
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
    """Long axis labels broken at " vs " or spaces."""
    text = str(text)
    if len(text) <= width:
        return text
    if " vs " in text:
        return text.replace(" vs ", "\nvs ")
    cut = text.rfind(" ", 0, width)
    return text if cut < 0 else text[:cut] + "\n" + text[cut + 1:]


def heatmaps(grids: dict[str, tuple[pd.DataFrame, pd.DataFrame]], xlabel: str, ylabel: str,
             title: str) -> Figure:
    """One grey-level heat map per ``name -> (values, half_widths)`` (rows up the y axis,
    columns along x; values from 0 to 1), each cell written as its value in percent over its
    interval's half-width ("62" over "±0.5") where the grid is small enough to read."""
    fig, axes = _figure(WIDTH / max(1, len(grids)) + 0.8, 1, len(grids))
    image = None
    for ax, (name, (values, half)) in zip(axes, grids.items()):
        ax.grid(False)
        data = values.to_numpy(float)
        image = ax.imshow(data, origin="lower", cmap="Greys", vmin=0.0, vmax=1.0,
                          aspect="auto", interpolation="nearest")
        n_rows, n_cols = data.shape
        ax.set_xticks(range(n_cols), [str(c) for c in values.columns], fontsize=6)
        ax.set_yticks(range(n_rows), [str(r) for r in values.index], fontsize=6)
        if n_rows * n_cols <= 400:
            h = half.to_numpy(float)
            for i in range(n_rows):
                for j in range(n_cols):
                    if not np.isnan(data[i, j]):
                        ax.text(j, i, f"{100 * data[i, j]:.0f}\n±{100 * h[i, j]:.1f}",
                                ha="center", va="center", fontsize=4.5,
                                color="white" if data[i, j] > 0.55 else "black")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(name, fontsize=9)
    if image is not None:
        fig.colorbar(image, ax=list(axes), shrink=0.8, label="chance that side a wins")
    fig.suptitle(title, fontsize=10)
    return fig
