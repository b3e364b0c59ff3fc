"""Parameter recovery of the Bayesian meta-d′ (metabits_book.studies.bayes_recovery).

Fast: bad input, and the shipped study (book/_support/metabits_book/data/bayes_recovery.csv,
scripts/bayes_recovery.py; small tables with K = 2, and the LLMs' regime with K = 5, thousands of
trials and d′ estimated): coverage of the 95% intervals within Monte Carlo error of 95%, no
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


#: the two regimes of the shipped study (scripts/bayes_recovery.py): small tables (K = 2, d′ from
#: the padded counts) and the LLMs' (K = 5, d′ estimated)
SMALL = dict(K=2, estimate_dprime=False, fits=100, seed=2026)
LLM = dict(K=5, estimate_dprime=True, fits=200, seed=2027)


def _regime(frame, regime):
    return frame[(frame.K == regime["K"]) & (frame.estimate_dprime == regime["estimate_dprime"])]


def test_shipped_study_layout(shipped, summary):
    assert len(summary) == 7 and len(shipped) == 4 * 100 + 3 * 200
    assert (summary.level == 0.95).all() and (summary.c == 0).all()
    small, llm = _regime(summary, SMALL), _regime(summary, LLM)
    assert len(small) == 4 and (small.fits == 100).all()
    assert set(small.n_per_stimulus) == {50, 200} and set(small.meta_d) == {0.75, 1.5}
    assert (small.d == 1.5).all()
    assert len(llm) == 3 and (llm.fits == 200).all()
    assert sorted(zip(llm.d, llm.meta_d, llm.n_per_stimulus)) == [
        (1.25, 0.875, 5000), (2.3, 1.8, 1000), (3.25, 2.8, 10000)]
    for regime in (SMALL, LLM):
        rows = _regime(shipped, regime)
        assert (rows.seed == regime["seed"]).all()
        for _, g in rows.groupby(["d", "meta_d", "n_per_stimulus"]):
            assert list(g["set"]) == list(range(regime["fits"]))


def test_shipped_study_diagnostics(shipped):
    """Every fit converged, with these short chains (4 x 500 draws): small tables, R-hat below
    1.02 (above 1.01 in 4 of 400 fits) and bulk ESS above 400; the LLMs' regime (K = 5, twelve
    parameters), R-hat below 1.03 (above 1.01 in 33 of 600) and bulk ESS above 350; no
    divergences."""
    small, llm = _regime(shipped, SMALL), _regime(shipped, LLM)
    assert small.r_hat.max() < 1.02 and (small.r_hat > 1.01).sum() <= 4
    assert small.ess_bulk.min() > 400
    assert llm.r_hat.max() < 1.03 and (llm.r_hat > 1.01).sum() <= 33
    assert llm.ess_bulk.min() > 350
    assert shipped.divergences.sum() == 0


@pytest.mark.parametrize("regime", [SMALL, LLM], ids=["small", "llm"])
def test_coverage_of_meta_d_is_95_percent(summary, regime):
    """The 95% intervals of meta-d′ cover the truth in 95% of the tables, within 3 Monte Carlo
    SEs (binomial, at the nominal 95%: 2.2 points for 100 fits, 1.5 for 200) in every condition,
    and within 3 SEs over each regime's fits."""
    summary = _regime(summary, regime)
    se = np.sqrt(0.95 * 0.05 / summary.fits)
    assert (abs(summary.coverage_meta_d - 0.95) <= 3 * se).all()
    pooled = np.average(summary.coverage_meta_d, weights=summary.fits)
    assert abs(pooled - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / summary.fits.sum())


@pytest.mark.parametrize("regime", [SMALL, LLM], ids=["small", "llm"])
def test_coverage_of_m_ratio(summary, regime):
    """Small tables: the M-ratio's interval, meta-d′'s divided by d′ from the padded counts,
    ignores d′'s uncertainty, yet its coverage is within 3 SEs of 95% in every condition and
    over all 400 fits (lower than meta-d′'s: 93.5% against 95.25%). The LLMs' regime: d′ is
    estimated, and the interval of the ratio's draws covers within 3 SEs too."""
    summary = _regime(summary, regime)
    se = np.sqrt(0.95 * 0.05 / summary.fits)
    assert (abs(summary.coverage_m_ratio - 0.95) <= 3 * se).all()
    pooled = np.average(summary.coverage_m_ratio, weights=summary.fits)
    assert abs(pooled - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / summary.fits.sum())


def test_posterior_means_and_ml(shipped, summary):
    """With 200 trials per stimulus (the prior weak) the posterior mean of meta-d′ is unbiased
    (within 3 Monte Carlo SEs) and agrees with the ML estimate to a tenth of a posterior SD on
    average; with 50 trials the prior, centred on d′ = 1.5, pulls the mean up at meta-d′ = 0.75
    (bias 0.13 ± 0.04; ML's is 0.08 ± 0.05)."""
    shipped, summary = _regime(shipped, SMALL), _regime(summary, SMALL)
    big = summary[summary.n_per_stimulus == 200]
    assert (abs(big.bias_meta_d) <= 3 * big.bias_meta_d_se).all()
    rows = shipped[shipped.n_per_stimulus == 200]
    sd = (rows.meta_d_upper - rows.meta_d_lower) / 3.92  # posterior SD, as if normal
    assert (abs(big.bayes_minus_ml_meta_d) < 0.1 * sd.mean()).all()
    small = summary[(summary.n_per_stimulus == 50) & (summary.meta_d == 0.75)].iloc[0]
    assert small.bias_meta_d > 2 * small.bias_meta_d_se


#: the refitted rows of the shipped study: (meta-d′, trials per stimulus, set), one of each
#: level of both factors of the small tables and one of the LLMs' regime, and sets other than
#: the first (``start``: a row is reproduced alone)
REFITTED = ((0.75, 50, 17), (1.5, 200, 63), (1.8, 1000, 41))


@pytest.mark.slow
def test_shipped_rows_are_what_bayes_recovery_gives(shipped):
    """Three of the tables (:data:`REFITTED`) refitted alone with their seeds and the shipped
    sampler settings (4 chains x (500 + 500)): the ML estimates (and so the simulated tables)
    agree exactly, and so does d′ where it is the padded counts'; the posterior summaries (and
    an estimated d′'s posterior mean) to 4 Monte Carlo SEs (another CPU's floating point sends
    NUTS along other trajectories)."""
    for meta_d, n, i in REFITTED:
        old = shipped[(shipped.meta_d == meta_d) & (shipped.n_per_stimulus == n)
                      & (shipped["set"] == i)].reset_index(drop=True)
        assert len(old) == 1
        row0 = old.iloc[0]
        r = bayes_recovery(row0.d, meta_d, n, 1, K=int(row0.K), start=i, seed=int(row0.seed),
                           estimate_dprime=bool(row0.estimate_dprime), chains=4, draws=500,
                           tune=500)
        assert isinstance(r, BayesRecovery)
        new = r.rows()
        assert list(new["set"]) == [i]
        pd.testing.assert_series_equal(new.ml_meta_d, old.ml_meta_d, rtol=1e-9)
        sd = (old.meta_d_upper - old.meta_d_lower) / 3.92
        mcse = sd / np.sqrt(old.ess_bulk)
        if row0.estimate_dprime:  # a posterior mean: its SE, at most meta-d′'s here
            assert (abs(new.d_hat - old.d_hat) <= 4 * mcse).all()
        else:
            assert np.allclose(new.d_hat, old.d_hat, rtol=1e-12)
        for col in ("meta_d_mean", "meta_d_lower", "meta_d_upper"):
            assert (abs(new[col] - old[col]) <= 4 * mcse * (1 if col == "meta_d_mean" else 2)).all(), col


def test_recovery_summary_bad_input(shipped):
    with pytest.raises(ValueError, match="DataFrame"):
        recovery_summary(shipped.to_dict())
    with pytest.raises(ValueError, match="lacks the columns"):
        recovery_summary(shipped.drop(columns="ml_meta_d"))
    with pytest.raises(ValueError, match="empty"):
        recovery_summary(shipped.iloc[:0])
