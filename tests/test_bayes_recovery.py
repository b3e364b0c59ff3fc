"""Parameter recovery of the Bayesian meta-d′ (metabits_book.studies.bayes_recovery).

Fast: bad input, and the shipped study (book/_support/metabits_book/data/bayes_recovery.csv,
scripts/bayes_recovery.py): coverage of the 95% intervals within Monte Carlo error of 95%, no
bias, agreement with maximum likelihood, clean diagnostics. Slow (NUTS): rows of the shipped
study refitted with their seeds.
"""

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits_book.studies import bayes_recovery as br
from metabits_book.studies.bayes_recovery import (BayesRecovery, bayes_recovery,
                                                  bayes_recovery_rows, recovery_summary)




@pytest.mark.parametrize("kwargs, match", [
    ({"d": 0}, "d must be positive"), ({"meta_d": -1}, "meta_d"),
    ({"n_per_stimulus": 0}, "n_per_stimulus"), ({"n_sets": 0}, "n_sets"), ({"K": 1}, "K"),
    ({"seed": -1}, "seed"), ({"seed": 20_000}, "seed"), ({"start": -1}, "start"),
    ({"level": 1.5}, "level"), ({"estimate_dprime": "no"}, "estimate_dprime"),
    ({"d": float("nan")}, "d"),
])
def test_bad_input_of_recovery(kwargs, match):
    args = dict(d=1.5, meta_d=1.0, n_per_stimulus=50, n_sets=2) | kwargs
    with pytest.raises(ValueError, match=match):
        bayes_recovery(**args)


@pytest.fixture(scope="module")
def shipped():
    return bayes_recovery_rows()


@pytest.fixture(scope="module")
def summary(shipped):
    return recovery_summary(shipped)


def test_shipped_study_layout(shipped, summary):
    assert len(summary) == 4 and (summary.fits == 100).all()
    assert len(shipped) == 400
    assert set(summary.n_per_stimulus) == {50, 200} and set(summary.meta_d) == {0.75, 1.5}
    assert (summary.d == 1.5).all() and (summary.K == 2).all() and (summary.level == 0.95).all()
    for _, g in shipped.groupby(["meta_d", "n_per_stimulus"]):
        assert list(g["set"]) == list(range(100))


def test_shipped_study_diagnostics(shipped):
    """Every fit converged: R-hat below 1.02 (above 1.01 in 4 of 400 fits of 4 chains x 500
    draws), bulk ESS above 400 of 2000 draws, no divergences."""
    assert shipped.r_hat.max() < 1.02 and (shipped.r_hat > 1.01).sum() <= 4
    assert shipped.ess_bulk.min() > 400
    assert shipped.divergences.sum() == 0


def test_coverage_of_meta_d_is_95_percent(summary):
    """The 95% intervals of meta-d′ cover the truth in 95% of the tables, within 3 Monte Carlo
    SEs (binomial, at the nominal 95%: 2.2 points for 100 fits) in every condition, and within 3
    SEs over all 400 fits (1.1 points)."""
    se = np.sqrt(0.95 * 0.05 / summary.fits)
    assert (abs(summary.coverage_meta_d - 0.95) <= 3 * se).all()
    pooled = np.average(summary.coverage_meta_d, weights=summary.fits)
    assert abs(pooled - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / summary.fits.sum())


def test_coverage_of_m_ratio(summary):
    """The M-ratio's interval, meta-d′'s divided by d′ from the padded counts, ignores d′'s
    uncertainty; at these trial numbers its coverage is still within 3 SEs of 95% in every
    condition and over all 400 fits (it runs lower than meta-d′'s: 93.5% against 95.25%)."""
    se = np.sqrt(0.95 * 0.05 / summary.fits)
    assert (abs(summary.coverage_m_ratio - 0.95) <= 3 * se).all()
    pooled = np.average(summary.coverage_m_ratio, weights=summary.fits)
    assert abs(pooled - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / summary.fits.sum())


def test_posterior_means_and_ml(shipped, summary):
    """With 200 trials per stimulus (the prior weak) the posterior mean of meta-d′ is unbiased
    (within 3 Monte Carlo SEs) and agrees with the ML estimate to a tenth of a posterior SD on
    average; with 50 trials the prior, centred on d′ = 1.5, pulls the mean up at meta-d′ = 0.75
    (bias 0.13 ± 0.04; ML's is 0.08 ± 0.05)."""
    big = summary[summary.n_per_stimulus == 200]
    assert (abs(big.bias_meta_d) <= 3 * big.bias_meta_d_se).all()
    rows = shipped[shipped.n_per_stimulus == 200]
    sd = (rows.meta_d_upper - rows.meta_d_lower) / 3.92  # posterior SD, as if normal
    assert (abs(big.bayes_minus_ml_meta_d) < 0.1 * sd.mean()).all()
    small = summary[(summary.n_per_stimulus == 50) & (summary.meta_d == 0.75)].iloc[0]
    assert small.bias_meta_d > 2 * small.bias_meta_d_se


#: the refitted rows of the shipped study: (meta-d′, trials per stimulus, set), one of each
#: level of both factors, and sets other than the first (``start``: a row is reproduced alone)
REFITTED = ((0.75, 50, 17), (1.5, 200, 63))


@pytest.mark.slow
def test_shipped_rows_are_what_bayes_recovery_gives(shipped):
    """Two of the 400 tables (:data:`REFITTED`) refitted alone with their seeds and the shipped
    sampler settings (4 chains x (500 + 500)): the ML estimates (and so the simulated tables)
    agree exactly, the posterior summaries to 4 Monte Carlo SEs (another CPU's floating point
    sends NUTS along other trajectories)."""
    for meta_d, n, i in REFITTED:
        old = shipped[(shipped.meta_d == meta_d) & (shipped.n_per_stimulus == n)
                      & (shipped["set"] == i)].reset_index(drop=True)
        assert len(old) == 1
        row0 = old.iloc[0]
        r = bayes_recovery(row0.d, meta_d, n, 1, K=int(row0.K), start=i, seed=int(row0.seed),
                           chains=4, draws=500, tune=500)
        assert isinstance(r, BayesRecovery)
        new = r.rows()
        assert list(new["set"]) == [i]
        pd.testing.assert_series_equal(new.ml_meta_d, old.ml_meta_d, rtol=1e-9)
        assert np.allclose(new.d_hat, old.d_hat, rtol=1e-12)
        sd = (old.meta_d_upper - old.meta_d_lower) / 3.92
        mcse = sd / np.sqrt(old.ess_bulk)
        for col in ("meta_d_mean", "meta_d_lower", "meta_d_upper"):
            assert (abs(new[col] - old[col]) <= 4 * mcse * (1 if col == "meta_d_mean" else 2)).all(), col


def test_recovery_summary_bad_input(shipped):
    with pytest.raises(ValueError, match="DataFrame"):
        recovery_summary(shipped.to_dict())
    with pytest.raises(ValueError, match="lacks the columns"):
        recovery_summary(shipped.drop(columns="ml_meta_d"))
    with pytest.raises(ValueError, match="empty"):
        recovery_summary(shipped.iloc[:0])
