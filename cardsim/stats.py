"""Confidence intervals used by every table of cardsim (95% unless told otherwise)."""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval ``mean ± z·sd/√n``."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Share and its Wilson score interval (good near 0 and 1, unlike the normal one)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def fmt_interval(est: float, lo: float, hi: float, digits: int = 3) -> str:
    """``0.512 [0.498, 0.526]``."""
    if math.isnan(lo):
        return f"{est:.{digits}f}"
    return f"{est:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def noted(table, note: str):
    """``table`` (a pandas DataFrame) with its one-sentence ``attrs["note"]``, which every
    table of cardsim carries (the command line and the reports print it under the table)."""
    table.attrs["note"] = note
    return table
