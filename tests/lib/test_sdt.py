"""metabits.sdt: Type 1 SDT from counts, the meta-d′ model's rating probabilities, simulated
rating data and the bootstrap (Servajean & Servajean, 2026).

Independent checks: scipy.stats.norm for the rates, the single-evidence SDT model (which the
meta-d′ model must equal when meta-d′ = d′), the maximum-likelihood fit recovering the
generating parameters from exact probabilities, and Monte Carlo for sampling variability.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm

import metabits as mb
from metabits import sdt

finite = dict(allow_nan=False, allow_infinity=False)


# ------------------------------------------------------------------------------ Type 1 SDT

def test_type1_sdt_matches_scipy_and_ignores_confidence_levels():
    table = np.array([[120, 60, 30, 20, 10, 5, 3, 1, 1, 0], [2, 3, 5, 10, 20, 30, 40, 50, 60, 30]])
    r = mb.type1_sdt(table)
    hr, far = 210 / 250, 10 / 250
    assert r.hit_rate == pytest.approx(hr) and r.fa_rate == pytest.approx(far)
    assert r.d == pytest.approx(norm.ppf(hr) - norm.ppf(far), abs=1e-12)
    assert r.c == pytest.approx(-(norm.ppf(hr) + norm.ppf(far)) / 2, abs=1e-12)
    collapsed = mb.type1_sdt(np.stack([table[:, :5].sum(1), table[:, 5:].sum(1)], axis=1))
    assert collapsed.d == pytest.approx(r.d) and collapsed.c == pytest.approx(r.c)
    assert (r.n_s1, r.n_s2) == (250, 250)


def test_type1_sdt_agrees_with_the_meta_d_fit(table1):
    counts = np.array(table1)
    fit = mb.fit_meta_d(counts)
    r = mb.type1_sdt(counts)
    assert r.d == pytest.approx(fit.d, abs=1e-12) and r.c == pytest.approx(fit.c, abs=1e-12)


def test_type1_sdt_stack():
    r = mb.type1_sdt([[[80, 20], [10, 90]], [[70, 30], [30, 70]]])
    assert r.d.shape == (2,) and r.d[1] == pytest.approx(2 * norm.ppf(0.7))


# ---------------------------------------------------------------- the meta-d' model

@given(d=st.floats(0.2, 3.5, **finite), c=st.floats(-0.8, 0.8, **finite),
       k=st.integers(2, 6))
def test_ideal_observer_is_single_evidence_sdt(d, c, k):
    """meta-d′ = d′: confidence and decision read one evidence sample, so every column is just
    P(x in its bin) — no renormalisation by side."""
    lo, hi = mb.sdt.equiprobable_criteria(d, d, c, K=k)
    p = mb.sdt.rating_probabilities(d, d, c, K=k)
    edges = np.concatenate([[-np.inf], lo, [c], hi, [np.inf]])
    for row, mu in enumerate((-d / 2, d / 2)):
        expected = np.diff(norm.cdf(edges, loc=mu))
        np.testing.assert_allclose(p[row], expected, atol=1e-12)


@given(d=st.floats(0.3, 3.5, **finite), ratio=st.floats(0.2, 1.3, **finite),
       c=st.floats(-0.6, 0.6, **finite))
def test_fit_recovers_the_generating_parameters_from_exact_probabilities(d, ratio, c):
    """The model is the one fit_meta_d inverts: at infinite sample size the MLE is exact."""
    meta_d = ratio * d
    p = mb.sdt.rating_probabilities(d, meta_d, c)
    assume(p.min() > 1e-9)  # the fit refuses empty cells
    fit = mb.fit_meta_d(np.asarray(p) * 1e6)
    assert fit.d == pytest.approx(d, abs=1e-7)
    assert fit.c == pytest.approx(c, abs=1e-7)
    assert fit.meta_d == pytest.approx(meta_d, abs=1e-5)
    lo, hi = mb.sdt.equiprobable_criteria(d, meta_d, c)
    np.testing.assert_allclose(fit.t2c_S1, lo, atol=1e-5)
    np.testing.assert_allclose(fit.t2c_S2, hi, atol=1e-5)


@given(d=st.floats(0.2, 4.0, **finite), ratio=st.floats(0.0, 1.5, **finite),
       c=st.floats(-1.0, 1.0, **finite), k=st.integers(2, 7))
def test_equiprobable_criteria_make_levels_equally_frequent(d, ratio, c, k):
    lo, hi = mb.sdt.equiprobable_criteria(d, ratio * d, c, K=k)
    meta_c = c * ratio
    assert np.all(np.diff(lo) > 0) and np.all(np.diff(hi) > 0)
    assert np.all(lo < meta_c + 1e-12) and np.all(hi > meta_c - 1e-12)
    p = mb.sdt.rating_probabilities(d, ratio * d, c, K=k)
    joint = p.sum(axis=0)  # equal priors: P(column) up to the factor 2
    for side in (joint[:k], joint[k:]):
        np.testing.assert_allclose(side / side.sum(), 1 / k, atol=1e-9)


def test_rating_probabilities_rows_sum_to_one_and_type1_rates_hold():
    d, m, c = np.array([1.0, 2.0, 3.2]), np.array([0.5, 1.8, 2.8]), np.array([0.3, 0.0, -0.2])
    p = mb.sdt.rating_probabilities(d, m, c)
    assert p.shape == (3, 2, 10)
    np.testing.assert_allclose(p.sum(-1), 1, atol=1e-12)
    np.testing.assert_allclose(p[:, 1, 5:].sum(-1), norm.cdf(d / 2 - c), atol=1e-12)
    np.testing.assert_allclose(p[:, 0, 5:].sum(-1), norm.cdf(-d / 2 - c), atol=1e-12)


def test_explicit_criteria_and_their_checks():
    p = mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=2, criteria=([-1.0], [1.0]))
    np.testing.assert_allclose(p[1], [norm.cdf(-1.5), norm.cdf(-0.5) - norm.cdf(-1.5),
                                      norm.cdf(0.5) - norm.cdf(-0.5), norm.sf(0.5)], atol=1e-12)
    with pytest.raises(ValueError, match="K - 1 = 2"):
        mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=3, criteria=([-1.0], [1.0]))
    with pytest.raises(ValueError, match="increasing"):
        mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=3, criteria=([-0.5, -1.0], [0.5, 1.0]))
    with pytest.raises(ValueError, match="below and"):
        mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=2, criteria=([0.5], [1.0]))


# ---------------------------------------------------------------- simulation

def test_simulated_counts_have_the_model_means():
    d, m, c, n, sets = 2.0, 1.5, 0.2, 400, 4000
    x = mb.sdt.simulate_ratings(d, m, n, n_sets=sets, c=c, rng=7)
    assert x.shape == (sets, 2, 10) and x.dtype == np.int64
    assert np.all(x.sum(-1) == n)
    p = mb.sdt.rating_probabilities(d, m, c)
    se = np.sqrt(n * p * (1 - p) / sets)
    assert np.all(np.abs(x.mean(0) - n * p) < 5 * se + 1e-9)


def test_simulation_is_reproducible_and_broadcasts():
    a = mb.sdt.simulate_ratings([1.0, 2.0, 3.0], [0.8, 1.6, 2.4], 50, n_sets=3, c=0.1, rng=3)
    b = mb.sdt.simulate_ratings([1.0, 2.0, 3.0], [0.8, 1.6, 2.4], 50, n_sets=3, c=0.1, rng=3)
    assert a.shape == (3, 3, 2, 10) and np.array_equal(a, b)


def test_mle_recovery_is_unbiased_at_the_papers_trial_counts():
    """At 5,000 trials per stimulus the MLE of meta-d′ is unbiased to within its MC error."""
    d, m = 2.3074, 1.9972  # GPT-5, task B (Table S1)
    x = mb.sdt.simulate_ratings(d, m, 5000, n_sets=400, c=-0.13, rng=11)
    fit = mb.fit_meta_d(x, pad=0.1)
    mc_se = fit.meta_d.std(ddof=1) / np.sqrt(len(x))
    assert abs(fit.meta_d.mean() - m) < 4 * mc_se + 0.005  # 0.005: bias from the padding
    assert 0.03 < fit.meta_d.std() < 0.08


# ---------------------------------------------------------------- bootstrap

def test_bootstrap_se_matches_the_sampling_sd():
    """The bootstrap SD of meta-d′ estimates the SD across independent data sets (±25%)."""
    d, m, n = 2.0, 1.6, 3000
    sims = mb.sdt.simulate_ratings(d, m, n, n_sets=300, rng=21)
    true_sd = mb.fit_meta_d(sims, pad=0.1).meta_d.std(ddof=1)
    b = mb.sdt.bootstrap_meta_d(sims[:6], n_boot=300, pad=0.1, rng=22)
    assert b.meta_d_se.shape == (6,)
    assert np.median(b.meta_d_se) == pytest.approx(true_sd, rel=0.25)
    assert np.all(b.meta_d_ci.lower < b.meta_d) and np.all(b.meta_d < b.meta_d_ci.upper)
    np.testing.assert_allclose(b.m_ratio, b.meta_d / b.d)
    assert b.meta_d_samples.shape == (6, 300) and b.level == 0.95


def test_bootstrap_of_one_table_and_reproducibility():
    x = mb.sdt.simulate_ratings(2.5, 2.0, 2000, rng=4)[0]
    a = mb.sdt.bootstrap_meta_d(x, n_boot=50, pad=0.1, rng=9)
    b = mb.sdt.bootstrap_meta_d(x, n_boot=50, pad=0.1, rng=9)
    assert isinstance(a.meta_d, float) and isinstance(a.m_ratio_ci.lower, float)
    np.testing.assert_array_equal(a.meta_d_samples, b.meta_d_samples)
    fit = mb.fit_meta_d(x, pad=0.1)
    assert a.meta_d == pytest.approx(fit.meta_d)


@pytest.mark.parametrize("func", [mb.fit_meta_d, mb.sdt.bootstrap_meta_d])
def test_pad_none_is_one_over_2k(func):
    """pad=None adds 1/(2K) (0.25 for Table 1's K = 2), as each docstring says."""
    table = [[84, 56, 48, 12], [4, 56, 64, 76]]
    kw = {"n_boot": 20, "rng": 3} if func is mb.sdt.bootstrap_meta_d else {}
    assert func(table, pad=None, **kw).meta_d == func(table, pad=0.25, **kw).meta_d
    assert "pad : float or None" in func.__doc__ and "1/(2K)" in func.__doc__


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("call, match", [
    (lambda: mb.type1_sdt([[1, 2, 3], [3, 2, 1]]), "even number"),
    (lambda: mb.type1_sdt([[0, 0], [3, 2]]), "empty row"),
    (lambda: mb.type1_sdt([[10, 0], [3, 2]]), "false-alarm rate is 0"),
    (lambda: mb.type1_sdt([[10, 2], [0, 5]]), "hit rate is 1"),
    (lambda: mb.sdt.rating_probabilities(0.0, 1.0), "d' must be > 0"),
    (lambda: mb.sdt.rating_probabilities(1.0, -0.1), "meta-d' must be >= 0"),
    (lambda: mb.sdt.rating_probabilities(1.0, 1.0, K=1), "K \\(confidence levels\\)"),
    (lambda: mb.sdt.rating_probabilities([1.0, 2.0], [1.0, 2.0, 3.0]), "broadcast"),
    # criteria must be a pair: True was "'bool' object is not iterable", a triple was cut
    (lambda: mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=2, criteria=True),
     r"criteria must be a pair \(t2c_S1, t2c_S2\) .* got True"),
    (lambda: mb.sdt.rating_probabilities(1.0, 1.0, 0.0, K=2, criteria=([-1.0], [1.0], [2.0])),
     "criteria must be a pair"),
    (lambda: mb.sdt.simulate_ratings(1.0, 1.0, 10, K=2, criteria="ab"), "criteria must be a pair"),
    (lambda: mb.sdt.simulate_ratings(1.0, 1.0, 0), "n_per_stimulus"),
    (lambda: mb.sdt.simulate_ratings(1.0, 1.0, 10, n_sets=0), "n_sets"),
    (lambda: mb.sdt.bootstrap_meta_d([[1, 2], [2, 1]]), "2K >= 4"),
    (lambda: mb.sdt.bootstrap_meta_d([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]), "even number"),
    (lambda: mb.sdt.bootstrap_meta_d([[0, 0, 0, 0], [5, 4, 3, 2]]), "empty row"),
    (lambda: mb.sdt.bootstrap_meta_d([[5, 4, 3, 2], [2, 3, 4, 5]], n_boot=1), "n_boot"),
    (lambda: mb.sdt.bootstrap_meta_d([[5, 4, 3, 2], [2, 3, 4, 5]], level=1.0), "level"),
    (lambda: mb.sdt.bootstrap_meta_d([[5.5, 4, 3, 2], [2, 3, 4, 5]]), "whole numbers"),
    # Table 1 times 1e12, and n_boot x counts beyond 10**8: MemoryErrors before
    (lambda: mb.sdt.bootstrap_meta_d(np.array([[84, 56, 48, 12], [4, 56, 64, 76]]) * 1e12),
     r"a row of counts of 200,000,000,000,000 trials"),
    (lambda: mb.sdt.bootstrap_meta_d([[5, 4, 3, 2], [2, 3, 4, 5]], n_boot=10 ** 8),
     r"n_boot = 100,000,000 resamples"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_module_exports():
    assert set(sdt.__all__) <= set(dir(sdt))
    assert all(getattr(mb, name) is getattr(sdt, name)
               for name in ("fit_meta_d", "type1_sdt", "classic_type2"))
