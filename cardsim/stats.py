"""Confidence intervals used by every table of cardsim (95% unless told otherwise)."""
from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


@functools.lru_cache(maxsize=4096)
def t95(n: int) -> float:
    """The 97.5% point of Student's t with ``n - 1`` degrees of freedom: the factor of the 95%
    interval of a mean of ``n`` values whose spread is estimated from them (2.093 at 20 values,
    2.023 at 40, 1.972 at 200; the normal's 1.960 undercovers: 93.8% at 20 deals, measured in
    ``experiments/results/coverage``)."""
    if n < 2:
        return math.nan
    from scipy.special import stdtrit  # imported here: most commands never print a mean
    return float(stdtrit(n - 1, 0.975))


def welch_t95(se_a, n_a, se_b, n_b):
    """The 97.5% point of Student's t for the difference of two independent means with
    standard errors ``se_a`` and ``se_b`` estimated from ``n_a`` and ``n_b`` values, at
    Welch and Satterthwaite's degrees of freedom (arrays too; NaN where a side has fewer than
    2 values). The normal's 1.96 undercovers a difference of small samples as it does one
    mean (:func:`t95`)."""
    from scipy.special import stdtrit
    a, b = np.square(np.asarray(se_a, dtype=float)), np.square(np.asarray(se_b, dtype=float))
    n_a, n_b = np.asarray(n_a, dtype=float), np.asarray(n_b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (a + b) ** 2 / (a * a / (n_a - 1) + b * b / (n_b - 1))
    df = np.where((n_a >= 2) & (n_b >= 2), np.where(np.isfinite(df), df, np.inf), np.nan)
    return stdtrit(df, 0.975)


def bootstrap_widening(n: int) -> float:
    """How much wider the 95% interval of a mean of ``n`` values is with Student's t than a
    percentile bootstrap's: ``t95(n) / 1.96 * sqrt(n / (n - 1))`` (the bootstrap's spread is
    the plug-in one, divided by n, and its quantiles the normal's). A bootstrap interval of a
    statistic of n paired deals widened by it about its estimate covers like the t interval:
    1.096 at 20 deals, 1.045 at 40, 1.009 at 200 (the Elo intervals at 20 deals a pair
    covered 93.7% without it: ``experiments/results/coverage``)."""
    return t95(n) / Z95 * math.sqrt(n / (n - 1)) if n >= 2 else math.nan


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% interval ``mean ± t·sd/√n`` (Student's t with n - 1 degrees of
    freedom, :func:`t95`)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = t95(n) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """Share and its Wilson score interval (good near 0 and 1, unlike the normal one); ``n``
    may be an effective number of trials (:func:`clustered_wilson`)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def clustered_wilson(hits, cluster) -> tuple[float, float, float]:
    """Share of ``hits`` (one 0/1 per game) and its 95% interval when the games come in
    clusters (``cluster``: each game's, e.g. the rotations of a duplicate deal, whose results
    are correlated): Wilson's interval at the *effective* number of games
    ``p (1 - p) / var``, ``var`` the ratio estimator's variance estimated from the clusters'
    totals, and Student's t over the clusters for the normal's 1.96 (the spread is estimated
    from them). Games of one deal each give Wilson's interval at ``n - 1`` games; where the
    clusters show no spread (or the share is 0 or 1) the games count as independent.
    Measured on 20 duplicate Scopa deals (random against random, 8,000 replications): 95.9%
    coverage, Wilson's over the 40 games 96.9%, this with 1.96 94.7% (and down to 91% on
    strongly correlated synthetic pairs, where this keeps 96%)."""
    hits = np.asarray(hits, dtype=np.float64)
    n = hits.size
    if n == 0:
        return math.nan, math.nan, math.nan
    _, code = np.unique(np.asarray(cluster), return_inverse=True)
    h, m = np.bincount(code, weights=hits), np.bincount(code).astype(np.float64)
    d, p = h.size, float(hits.mean())
    if d < 2:
        return wilson_interval(int(hits.sum()), n)
    var = d / (d - 1) * float(((h - p * m) ** 2).sum()) / (n * n)
    eff = p * (1 - p) / var if var > 0 and 0 < p < 1 else n
    return wilson_interval(p * eff, eff, t95(d))


def _rounded(x: float, digits: int) -> float:
    """``x`` rounded to ``digits``, a rounded negative zero made zero (no ``-0.00``)."""
    return round(x, digits) + 0.0 if math.isfinite(x) else x


def fmt_interval(est: float, lo: float, hi: float, digits: int = 3) -> str:
    """``0.512 [0.498, 0.526]`` (never ``-0.000``)."""
    est, lo, hi = (_rounded(float(v), digits) for v in (est, lo, hi))
    if math.isnan(lo):
        return f"{est:.{digits}f}"
    return f"{est:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_percent(p: float, low: float, high: float) -> str:
    """A share and its interval in percent: ``31.2% [30.6, 31.9]`` (empty for a missing one)."""
    if math.isnan(p):
        return ""
    return f"{100 * p:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def fmt_amount(est: float, lo: float, hi: float, unit: str, signed: bool = False) -> str:
    """A value with its unit, then its interval: ``0.49 points a deal [0.26, 0.72]``
    (``+0.49 …`` when ``signed``; never ``-0.00``)."""
    value, _, bounds = fmt_interval(est, lo, hi, 2).partition(" ")
    return " ".join(t for t in (fmt_signed(est) if signed else value, unit, bounds) if t)


def fmt_signed(x: float, digits: int = 2) -> str:
    """``+0.51``, ``-1.20``, ``+0.00`` (never ``-0.00``)."""
    return f"{_rounded(float(x), digits):+.{digits}f}"


def noted(table, note: str):
    """``table`` (a pandas DataFrame) with its one-sentence ``attrs["note"]``, which every
    table of cardsim carries (the command line and the reports print it under the table)."""
    table.attrs["note"] = note
    return table


class Sums:
    """Exact running sums of integer values per deal, by name, added chunk by chunk.

    ``add(name, values)`` adds a chunk's values (ints or bools) to the name's count, sum and
    sum of squares, kept as Python ints: exact, whatever the number of deals, so a figure
    built from them does not depend on how the deals were cut into chunks. ``count(name,
    values)`` also keeps how often each value occurs. ``carried`` holds what a summary needs
    from one chunk in the next (Mushka: the first dealer of the game in progress).
    """

    def __init__(self) -> None:
        self._moments: dict[str, list[int]] = {}
        self._counts: dict[str, dict[int, int]] = {}
        self.carried: dict = {}

    def add(self, name: str, values) -> None:
        """Add a chunk's values of ``name``; an empty chunk still makes the name known."""
        v = np.asarray(values, dtype=np.int64).ravel()
        m = self._moments.setdefault(name, [0, 0, 0])
        top = int(np.abs(v).max()) if v.size else 0
        if v.size * top * top >= 1 << 62:       # the chunk's int64 squares could overflow
            m[0] += v.size
            m[1] += sum(int(x) for x in v)
            m[2] += sum(int(x) * int(x) for x in v)
            return
        m[0] += v.size
        m[1] += int(v.sum())
        m[2] += int((v * v).sum())

    def count(self, name: str, values) -> None:
        """Add a chunk's values of ``name`` (as :meth:`add`) and how often each occurs."""
        self.add(name, values)
        counts = self._counts.setdefault(name, {})
        for value, k in zip(*np.unique(np.asarray(values, dtype=np.int64), return_counts=True)):
            counts[int(value)] = counts.get(int(value), 0) + int(k)

    def moments(self, name: str) -> tuple[int, int, int]:
        """``(n, sum, sum of squares)`` of ``name``'s values so far."""
        n, s, ss = self._moments[name]
        return n, s, ss

    def n(self, name: str) -> int:
        """How many values of ``name`` were added."""
        return self._moments[name][0]

    def total(self, name: str) -> int:
        """The sum of ``name``'s values (for bools: how many are true)."""
        return self._moments[name][1]

    def counts(self, name: str) -> dict[int, int]:
        """How often each value of ``name`` occurred (names added with :meth:`count`)."""
        return dict(sorted(self._counts.get(name, {}).items()))

    def mean(self, name: str) -> float:
        """The mean of ``name``'s values (nan when there are none)."""
        n, s, _ = self._moments[name]
        return s / n if n else math.nan

    def mean_interval(self, name: str) -> tuple[float, float, float]:
        """:func:`mean_interval` of every value of ``name``: the same mean (an exact sum
        divided by n, as numpy's sum of integers is exact below 2**53), the standard deviation
        from the exact variance ``(n·Σx² - (Σx)²) / (n(n-1))`` (numpy's two-pass figure can
        differ from it in the last bits)."""
        n, s, ss = self._moments[name]
        mean = s / n if n else math.nan
        if n < 2:
            return mean, math.nan, math.nan
        half = t95(n) * math.sqrt((n * ss - s * s) / (n * (n - 1))) / math.sqrt(n)
        return mean, mean - half, mean + half


class Summary:
    """A game's tables of random deals, built chunk by chunk: ``add(sums, records, rules)``
    adds one chunk of records (a DataFrame, one row per deal, in play order) to a
    :class:`Sums`, ``tables(sums, rules)`` builds the tables at the end. Called on the whole
    record array, ``summary(records, rules)`` does both at once."""

    def __init__(self, add, tables) -> None:
        self.add = add
        self.tables = tables

    def __call__(self, records, rules) -> dict:
        sums = Sums()
        self.add(sums, records, rules)
        return self.tables(sums, rules)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjustment of ``pvalues`` (NaN stays NaN): a hypothesis is rejected
    at level α when its adjusted p-value is ≤ α, and the chance of rejecting any true one
    stays ≤ α however many are tested (the family-wise error rate)."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m, running = len(order), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        out[i] = running
    return out
