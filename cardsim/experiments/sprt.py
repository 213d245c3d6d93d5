r"""Sequential probability ratio tests for the first agent of a 2-agent matchup.

Two kinds, both a *generalized* SPRT (GSPRT) on one value per deal, the first agent's paired
(duplicate) result: its games of the deal averaged over the rotations of the seats.

**kind="elo"** — bounds ``lower = elo0``, ``upper = elo1`` in logistic Elo on the *score*
(win 1, draw 1/2, loss 0; "win" = return > 0). A deal's value is the mean score of its
rotations: with 2 seats the pair score in {0, 1/4, 1/2, 3/4, 1} (the *pentanomial* model of
fishtest's game pairs), with one rotation per deal the game score in {0, 1/2, 1} (the
*trinomial* model). The hypotheses are on the expected score ``s``:

    H0: s = s0 = L(elo0)   against   H1: s = s1 = L(elo1),   L(e) = 1 / (1 + 10^(-e/400)).

The multinomial likelihood with the mean constrained to ``s`` is maximized approximately
(second order in ``s1 - s0``) by the normal likelihood with the empirical variance, which
gives the normal approximation of the GSPRT that fishtest implements as ``LLR_alt2`` in
``server/fishtest/stats/LLRcalc.py`` (next to its exact multinomial-MLE ``LLR``; M. Van den
Bergh, http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf and
http://hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf; the GSPRT itself:
http://stat.columbia.edu/~jcliu/paper/GSPRT_SQA3.pdf; also the chessprogramming wiki,
"Match Statistics", section SPRT):

    LLR = N · (s1 - s0) · (2·x̄ - s0 - s1) / (2·σ̂²)

with ``N`` the number of deals, ``x̄`` the mean deal value and ``σ̂²`` its empirical variance
(divisor ``N``, the plug-in maximum-likelihood value, as fishtest).

**kind="margin"** — bounds ``lower = margin0``, ``upper = margin1`` on the mean paired
return ``μ`` (points or stakes per deal). Model: deal values ``y_i ~ Normal(μ, σ²)``,
``H0: μ = m0`` against ``H1: μ = m1``. With ``σ²`` known,

    log f1(y)/f0(y) = [(y - m0)² - (y - m1)²] / (2σ²) = (m1 - m0)(2y - m0 - m1) / (2σ²),

and summing over ``N`` deals with ``S = Σ y_i``:

    LLR = (m1 - m0) · (2·S - N·(m0 + m1)) / (2·σ²),

where the GSPRT plugs in the empirical variance ``σ̂²`` (divisor ``N``) for ``σ²``. This is
the same formula as the Elo kind with ``s0, s1`` replaced by ``m0, m1``.

**Decision** (Wald's bounds): ``lower_bound = log(β / (1 - α))``,
``upper_bound = log((1 - β) / α)``; ``LLR >= upper_bound`` accepts H1, ``LLR <= lower_bound``
accepts H0, otherwise the test continues. ``α`` is the probability of accepting H1 when H0
holds and ``β`` of accepting H0 when H1 holds (approximately: the GSPRT's error rates are close
to them for small ``s1 - s0``, and a test checked only after whole batches overshoots the bounds
slightly, which lowers them). With fewer than 2 deals, or no spread at all among the deal
values (``σ̂² = 0``), the LLR is 0 — the test continues; the experiment's ``max_deals``
caps it.

**No verdict before ``min_deals`` (default 30) deals.** The approximation plugs in a variance
estimated from the deals so far; on a handful of deals that estimate can be tiny by chance and
the LLR huge, so a test watched from the first deal stops wrongly far too often (simulated, 1000
runs, alpha = beta = 0.05, checked after every deal: about 0.11 wrong verdicts for Elo bounds
0/40 on pair scores, 0.19 for margin bounds 0/0.3 on normal returns with sd 1.5; from 30 deals
on: 0.05-0.057 for both; checked every 25 deals: 0.03-0.04). The LLR itself is reported from
the first deal on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from cardsim.errors import CardsimError

from .rows import Games, agent_name, matchup_label

KINDS = ("elo", "margin")
MIN_DEALS = 30


class SprtError(CardsimError):
    """A bad SPRT setting (kind, bounds, alpha, beta) or a matchup the test cannot judge; the
    message names the value."""


@dataclass(frozen=True)
class SprtResult:
    """The state of a test: its log-likelihood ratio, Wald's bounds, the verdict ("H1", "H0"
    or "continue") after ``n`` deals, the settings and the estimate (the mean deal score for
    ``kind="elo"``, with ``elo`` its logistic Elo; the mean paired return for ``"margin"``)."""

    llr: float
    lower_bound: float
    upper_bound: float
    verdict: str
    n: int
    kind: str = "elo"
    lower: float = math.nan
    upper: float = math.nan
    alpha: float = 0.05
    beta: float = 0.05
    estimate: float = math.nan
    elo: float = math.nan

    @property
    def done(self) -> bool:
        """True once the test has accepted H0 or H1."""
        return self.verdict != "continue"


# --- settings --------------------------------------------------------------------------------

def _number(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise SprtError(f"{name}={value!r}: expected a number")
    value = float(value)
    if not math.isfinite(value):
        raise SprtError(f"{name}={value!r}: expected a finite number")
    return value


def check_settings(kind: str, lower, upper, alpha, beta) -> tuple[str, float, float, float,
                                                                  float]:
    """Validate the settings of a test; :class:`SprtError` names the bad value."""
    if kind not in KINDS:
        raise SprtError(f"kind={kind!r}: expected 'elo' or 'margin'")
    if lower is None or upper is None:
        raise SprtError(f"lower={lower!r}, upper={upper!r}: the test needs both bounds "
                        f"({'elo0, elo1' if kind == 'elo' else 'margin0, margin1'})")
    lower, upper = _number("lower", lower), _number("upper", upper)
    if not lower < upper:
        raise SprtError(f"upper={upper!r}: expected a number above lower={lower!r}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        v = _number(name, value)
        if not 0.0 < v <= 0.5:
            raise SprtError(f"{name}={value!r}: expected a number in (0, 0.5]")
    return kind, lower, upper, float(alpha), float(beta)


def _check_min_deals(min_deals) -> None:
    if isinstance(min_deals, bool) or not isinstance(min_deals, (int, np.integer)) \
            or min_deals < 1:
        raise SprtError(f"min_deals={min_deals!r}: expected an integer >= 1")


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(β/(1-α)), log((1-β)/α))``."""
    check_settings("elo", 0.0, 1.0, alpha, beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def elo_to_score(elo: float) -> float:
    """Expected score of a logistic Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of an expected score (±inf at 0 and 1, nan outside)."""
    if not 0.0 <= score <= 1.0 or math.isnan(score):
        return math.nan
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _hypotheses(kind: str, lower: float, upper: float) -> tuple[float, float]:
    """The means ``(θ0, θ1)`` the deal values are tested for."""
    if kind == "elo":
        return elo_to_score(lower), elo_to_score(upper)
    return lower, upper


# --- the log-likelihood ratio ----------------------------------------------------------------

def _gsprt(n: int, mean: float, var: float, t0: float, t1: float) -> float:
    scale = max(1.0, abs(t0), abs(t1), abs(mean))
    if n < 2 or var <= 1e-15 * scale * scale:
        return 0.0
    return n * (t1 - t0) * (2.0 * mean - t0 - t1) / (2.0 * var)


def llr(values, kind: str, lower: float, upper: float) -> float:
    """The GSPRT log-likelihood ratio of deal ``values`` (scores in [0, 1] for ``"elo"``,
    paired returns for ``"margin"``) for H1 (``upper``) against H0 (``lower``)."""
    kind, lower, upper, _, _ = check_settings(kind, lower, upper, 0.05, 0.05)
    x = np.asarray(values, dtype=np.float64).ravel()
    t0, t1 = _hypotheses(kind, lower, upper)
    if x.size == 0:
        return 0.0
    return _gsprt(x.size, float(x.mean()), float(x.var()), t0, t1)


def llr_elo(scores, elo0: float, elo1: float) -> float:
    """``N (s1 - s0)(2 x̄ - s0 - s1) / (2 σ̂²)`` for deal scores (module docstring)."""
    return llr(scores, "elo", elo0, elo1)


def llr_margin(values, margin0: float, margin1: float) -> float:
    """``(m1 - m0)(2 S - N (m0 + m1)) / (2 σ̂²)`` for paired returns (module docstring)."""
    return llr(values, "margin", margin0, margin1)


def llr_path(values, kind: str, lower: float, upper: float) -> np.ndarray:
    """The LLR after each of the first 1, 2, ..., N deal values (a test checked after every
    deal); ``llr_path(x, ...)[-1] == llr(x, ...)`` up to rounding."""
    kind, lower, upper, _, _ = check_settings(kind, lower, upper, 0.05, 0.05)
    x = np.asarray(values, dtype=np.float64).ravel()
    t0, t1 = _hypotheses(kind, lower, upper)
    if x.size == 0:
        return np.zeros(0)
    c = 0.5 * (t0 + t1)                         # centred: 2·x̄ - t0 - t1 = 2·mean(x - c)
    y = x - c
    k = np.arange(1, x.size + 1, dtype=np.float64)
    mean = np.cumsum(y) / k
    var = np.maximum(np.cumsum(y * y) / k - mean * mean, 0.0)
    scale = max(1.0, abs(t0), abs(t1), float(np.abs(x).max()))
    ok = (k >= 2) & (var > 1e-15 * scale * scale)
    out = np.zeros(x.size)
    out[ok] = k[ok] * (t1 - t0) * (2.0 * mean[ok]) / (2.0 * var[ok])
    return out


def verdict(value: float, lower_bound: float, upper_bound: float, n: int | None = None,
            min_deals: int = MIN_DEALS) -> str:
    """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else
    ``"continue"``; always ``"continue"`` while ``n < min_deals``."""
    if n is not None and n < min_deals:
        return "continue"
    if value >= upper_bound:
        return "H1"
    if value <= lower_bound:
        return "H0"
    return "continue"


def first_crossing(path: np.ndarray, lower_bound: float, upper_bound: float, every: int = 1,
                   min_deals: int = MIN_DEALS) -> tuple[str, int]:
    """A test run along an LLR path (:func:`llr_path`), checked after every ``every`` deals
    and from ``min_deals`` on: its verdict and the number of deals it stopped at (the path's
    length when it never stopped)."""
    path = np.asarray(path, dtype=np.float64)
    n = np.arange(1, path.size + 1)
    checked = (n % every == 0) & (n >= min_deals)
    hit = np.flatnonzero(checked & ((path >= upper_bound) | (path <= lower_bound)))
    if not hit.size:
        return "continue", int(path.size)
    i = int(hit[0])
    return ("H1" if path[i] >= upper_bound else "H0"), i + 1


def sprt_values(values, kind: str = "elo", lower: float | None = None,
                upper: float | None = None, alpha: float = 0.05, beta: float = 0.05,
                min_deals: int = MIN_DEALS) -> SprtResult:
    """The test on deal values directly (scores in [0, 1] for ``"elo"``, returns for
    ``"margin"``); no verdict before ``min_deals`` values."""
    kind, lower, upper, alpha, beta = check_settings(kind, lower, upper, alpha, beta)
    _check_min_deals(min_deals)
    x = np.asarray(values, dtype=np.float64).ravel()
    lo, hi = bounds(alpha, beta)
    value = llr(x, kind, lower, upper)
    estimate = float(x.mean()) if x.size else math.nan
    return SprtResult(llr=value, lower_bound=lo, upper_bound=hi,
                      verdict=verdict(value, lo, hi, x.size, min_deals), n=int(x.size),
                      kind=kind, lower=lower, upper=upper, alpha=alpha, beta=beta,
                      estimate=estimate,
                      elo=score_to_elo(estimate) if kind == "elo" else math.nan)


# --- on an experiment's rows -----------------------------------------------------------------

def _deal_values(g: Games, matchup: int, kind: str, zero_sum: bool = True) -> np.ndarray:
    order = g.order.get(int(matchup))
    if order is None:
        return np.zeros(0)
    if len(set(order)) != 2:
        raise SprtError(f"matchup {matchup} has agents {list(order)}: an SPRT needs exactly 2 "
                        "distinct agents")
    if zero_sum:
        column = "score" if kind == "elo" else "return"
    else:
        column = "head" if kind == "elo" else "head_return"
    return g.first_agent_deals(int(matchup), column)


def deal_values(rows: pd.DataFrame, agents: Sequence[str], matchup: int,
                kind: str = "elo", zero_sum: bool = True) -> np.ndarray:
    """The first agent's per-deal values of ``matchup`` in deal order, the means over the
    rotations of: its score (``"elo"``) or its return (``"margin"``); in a game that is not
    zero-sum (``zero_sum=False``: Mushka, where one seat's return says nothing of the other
    agent's) its score and its return *against the other agent at the same table* (its return
    minus the other's, each the mean over its seats). :class:`SprtError` unless the matchup
    has exactly 2 distinct agents; empty while it has no rows."""
    if kind not in KINDS:
        raise SprtError(f"kind={kind!r}: expected 'elo' or 'margin'")
    return _deal_values(Games(rows), matchup, kind, zero_sum)


def sprt(rows: pd.DataFrame, agents: Sequence[str], matchup: int, kind: str = "elo",
         lower: float | None = None, upper: float | None = None, alpha: float = 0.05,
         beta: float = 0.05, min_deals: int = MIN_DEALS, zero_sum: bool = True) -> SprtResult:
    """The SPRT of ``matchup``'s first agent on the rows so far (module docstring): for
    ``kind="elo"`` ``lower``/``upper`` are elo0/elo1, for ``"margin"`` margin0/margin1, on
    :func:`deal_values` (``zero_sum``: of the game); no verdict before ``min_deals`` deals. A
    matchup without rows yet gives ``n=0`` and ``"continue"``."""
    kind, lower, upper, alpha, beta = check_settings(kind, lower, upper, alpha, beta)
    _check_min_deals(min_deals)
    return sprt_values(deal_values(rows, agents, matchup, kind, zero_sum), kind, lower, upper,
                       alpha, beta, min_deals)


_SPRT_COLUMNS = ["matchup", "label", "agent", "name", "kind", "lower", "upper", "alpha", "beta",
                 "n", "estimate", "elo", "llr", "lower_bound", "upper_bound", "verdict"]


def sprt_table(rows: pd.DataFrame, agents: Sequence[str], kind: str = "elo",
               lower: float | None = None, upper: float | None = None, alpha: float = 0.05,
               beta: float = 0.05, matchups: Iterable[int] | None = None,
               min_deals: int = MIN_DEALS, zero_sum: bool = True) -> pd.DataFrame:
    """One row per 2-agent matchup (or the given ``matchups``): the first agent, the test's
    settings, deals ``n``, estimate (mean deal score and its Elo, or mean paired return), LLR,
    bounds and verdict."""
    kind, lower, upper, alpha, beta = check_settings(kind, lower, upper, alpha, beta)
    _check_min_deals(min_deals)
    g = Games(rows)
    order = g.order
    wanted = list(order) if matchups is None else [int(m) for m in matchups]
    out = []
    for m in wanted:
        if m not in order:
            raise SprtError(f"matchup {m} has no rows: expected one of {sorted(order)}")
        if matchups is None and len(set(order[m])) != 2:
            continue
        res = sprt_values(_deal_values(g, m, kind, zero_sum), kind, lower, upper, alpha, beta,
                          min_deals)
        first = order[m][0]
        out.append({"matchup": m, "label": matchup_label(agents, order[m]), "agent": first,
                    "name": agent_name(agents, first), "kind": kind, "lower": lower, "upper": upper,
                    "alpha": alpha, "beta": beta, "n": res.n, "estimate": res.estimate,
                    "elo": res.elo, "llr": res.llr, "lower_bound": res.lower_bound,
                    "upper_bound": res.upper_bound, "verdict": res.verdict})
    what = ("Elo bounds elo0, elo1 on the score (win 1, draw 1/2)" if kind == "elo"
            else "bounds margin0, margin1 on the mean paired return")
    if not zero_sum:
        what += (" against the other agent at the same table (its return minus the other's, "
                 "the game not being zero-sum)")
    table = pd.DataFrame(out, columns=_SPRT_COLUMNS)
    table.attrs["note"] = (f"Sequential test (GSPRT, {what}) of each matchup's first agent: "
                           "log-likelihood ratio against Wald's bounds, and the verdict H1, H0 "
                           "or continue.")
    return table
