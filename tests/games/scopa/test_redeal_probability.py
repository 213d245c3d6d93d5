"""SC-DEAL-3: the rate of cancelled deals (3 or 4 kings among the 4 first table cards).

Exact probability. The 4 table cards are a uniform 4-subset of the 40 cards, 4 of which are kings,
so the number of kings on the table is hypergeometric(40, 4, 4):

    P(cancel) = [C(4,3) * C(36,1) + C(4,4) * C(36,0)] / C(40,4) = (144 + 1) / 91390 = 145 / 91390
              ~ 0.0015866.

Sampling model. Every attempt to deal is an independent Bernoulli(p) "cancelled" trial; a deal
stops at its first valid attempt. Over ``n`` deals the number of cancelled attempts ``R`` (the
sum of column ``2 * 5 + 1`` of the kernel's records) is therefore exactly negative binomial:
``R ~ NegBin(n successes, success probability 1 - p)``, i.e. ``scipy.stats.nbinom(n, 1 - p)``,
and ``R / (n + R)`` estimates ``p``.

Test. Two-sided exact test at ``ALPHA`` = 1e-4: the p-value is
``min(1, 2 * min(P(X <= R), P(X >= R)))`` under that negative binomial. As a cross-check, the
exact two-sided binomial test of ``R`` cancelled out of ``n + R`` attempts
(``scipy.stats.binomtest``, which conditions on the number of attempts and differs from the
negative binomial only at order 1/n) must also pass at the same level. Per deal, the number of
deals with at least one redeal must pass the exact binomial test of ``p`` too, and no deal may
be redealt four times or more (probability ``n p^4`` < 2e-5).

Tolerance this implies. With n = 300 000 deals, E[R] = n p / (1 - p) ~ 477 and
sd(R) = sqrt(n p) / (1 - p) ~ 21.8; alpha = 1e-4 is about 3.9 sd, so the estimate must lie within
roughly +-18 % of 145/91390 (the slow variant, 10x the sample: +-5.7 %). Plausible mistakes are
far outside: checking for 2+ kings (p ~ 0.0354), 4 kings only (1/91390), or only the first 3
table cards (4/9880 ~ 0.0004). A correct engine fails with probability 1e-4 per seed; the seeds
are fixed, so the outcome is deterministic.
"""
import numpy as np
import pytest
from scipy.stats import binomtest, nbinom

from cardsim.compiled.rng import rng_from_seed
from cardsim.games.scopa import kernels, layout
from cardsim.games.scopa.rules import ScopaRules

P_CANCEL = 145 / 91390
ALPHA = 1e-4
REDEALS_COLUMN = 2 * 5 + 1
MOVES_COLUMN = 2 * 5 + 2


def test_exact_probability_derivation():
    from math import comb
    assert comb(4, 3) * comb(36, 1) + comb(4, 4) == 145
    assert comb(40, 4) == 91390
    assert REDEALS_COLUMN == 2 * layout.N_CATEGORIES + 1
    assert kernels.N_ROW == 2 * layout.N_CATEGORIES + 3


def _play(n_deals, seed, **options):
    params = ScopaRules(**options).kernel_params()
    records = np.zeros((n_deals, kernels.N_ROW), np.int64)
    kernels.play_random_deals(params, rng_from_seed(seed), n_deals, records,
                              layout.MAX_ACTIONS_3, np.zeros(0),
                              np.zeros(layout.STATE_LEN + 1, np.uint64))
    return records


def _two_sided_nbinom_pvalue(r, n, p):
    dist = nbinom(n, 1 - p)
    return min(1.0, 2 * min(dist.cdf(r), dist.sf(r - 1)))


def _check_rate(n_deals, seed):
    records = _play(n_deals, seed)
    redeals = records[:, REDEALS_COLUMN]
    assert (records[:, MOVES_COLUMN] == 36).all()          # every deal was played out
    # Per deal the redeals are geometric: at least one with probability p (so the deals with
    # a redeal are binomial(n, p)), four or more with p ** 4 (~6e-12: n * p ** 4 < 2e-5).
    assert redeals.max() <= 3, f"a deal was redealt {int(redeals.max())} times"
    redealt = int((redeals > 0).sum())
    p_deals = binomtest(redealt, n_deals, P_CANCEL).pvalue
    assert p_deals > ALPHA, (f"{redealt} of {n_deals} deals redealt: expected about "
                             f"{n_deals * P_CANCEL:.0f} (binomial p={p_deals:.2e})")
    r = int(redeals.sum())
    attempts = n_deals + r
    p_nb = _two_sided_nbinom_pvalue(r, n_deals, P_CANCEL)
    p_binom = binomtest(r, attempts, P_CANCEL).pvalue
    msg = (f"{r} cancelled of {attempts} attempts: rate {r / attempts:.6f}, "
           f"expected {P_CANCEL:.6f} (nbinom p={p_nb:.2e}, binomial p={p_binom:.2e})")
    assert p_nb > ALPHA, msg
    assert p_binom > ALPHA, msg


def test_redeal_rate():
    _check_rate(300_000, seed=20240601)


@pytest.mark.slow
def test_redeal_rate_large():
    _check_rate(3_000_000, seed=20240602)


def test_redeal_off_never_redeals():
    records = _play(50_000, seed=5, redeal_kings_on_table="off")
    assert (records[:, REDEALS_COLUMN] == 0).all()
    assert (records[:, MOVES_COLUMN] == 36).all()


def test_test_has_power():
    """The test rejects a rate that is 30 % off, so it is not vacuous at this sample size."""
    n = 300_000
    r_expected = n * P_CANCEL / (1 - P_CANCEL)
    assert _two_sided_nbinom_pvalue(round(1.3 * r_expected), n, P_CANCEL) < ALPHA
    assert _two_sided_nbinom_pvalue(round(0.7 * r_expected), n, P_CANCEL) < ALPHA
    assert _two_sided_nbinom_pvalue(round(r_expected), n, P_CANCEL) > 0.5
