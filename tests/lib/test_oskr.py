"""OSKR = I(S;T)/H(T) (Roberts, 2026): estimators, bootstrap intervals, edge cases, identities.

Independent checks: entropies written out from their definitions, pandas' crosstab, a
brute-force O(N²) nearest-neighbour estimator, numerical integration of a Gaussian mixture's
mutual information, a trial-by-trial jackknife, scipy.stats.bootstrap's BCa, and simulated
coverage.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import integrate, stats
from scipy.special import digamma

import metabits as mb
from metabits.oskr._estimators import _oskr_kernel
from metabits._resampling import jackknife_acceleration, leave_one_out


# --- independent reference computations ----------------------------------------------------------

def brute_oskr(table):
    """OSKR from the definitions: H(T) and H(T|S) = sum_s p(s) H(T | S = s), with loops."""
    table = np.asarray(table, float)
    n = table.sum()
    h_t = sum(-(r / n) * np.log2(r / n) for r in table.sum(axis=1) if r > 0)
    h_cond = 0.0
    for col in table.T:
        m = col.sum()
        if m > 0:
            h_cond += (m / n) * sum(-(c / m) * np.log2(c / m) for c in col if c > 0)
    return (h_t - h_cond) / h_t, h_t, h_t - h_cond


def brute_ksg_bits(t, s, k=3):
    """Ross's (2014) nearest-neighbour estimator, O(N²), as scikit-learn defines the counts."""
    t, s = np.asarray(t), np.asarray(s, float)
    n = len(s)
    dist = np.abs(s[:, None] - s[None, :])
    radius = np.empty(n)
    n_x = np.empty(n)
    for i in range(n):
        same = np.flatnonzero((t == t[i]) & (np.arange(n) != i))
        radius[i] = np.sort(dist[i, same])[k - 1]
        n_x[i] = len(same) + 1
    m = (dist < radius[:, None]).sum(axis=1)  # within the radius, the point itself included
    nats = digamma(n) + digamma(k) - digamma(n_x).mean() - digamma(m).mean()
    return max(nats, 0.0) / np.log(2)


# fill: the cells Hypothesis does not draw one by one are drawn non-zero, so an all-zero row (no
# outcome entropy: the tests assume it away) is rare and most examples test something
tables = arrays(np.int64, st.tuples(st.integers(2, 3), st.integers(1, 5)),
                elements=st.integers(0, 60), fill=st.integers(1, 60))


# --- plug-in and Miller-Madow --------------------------------------------------------------------

@given(tables)
def test_plugin_matches_the_definitions(table):
    assume((table.sum(axis=1) > 0).sum() >= 2)  # H(T) > 0
    ref, h_t, mi = brute_oskr(table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mb.oskr.LowOutcomeEntropyWarning)
        r = mb.oskr_from_table(table)
    assert r.oskr == pytest.approx(ref, abs=1e-12)
    assert r.h_outcome == pytest.approx(h_t, abs=1e-12)
    assert r.mutual_info == pytest.approx(mi, abs=1e-12)
    assert -1e-12 <= r.oskr <= 1 + 1e-12


@given(tables)
def test_miller_madow_subtracts_the_appendix_term(table):
    assume((table.sum(axis=1) > 0).sum() >= 2)
    _, h_t, mi = brute_oskr(table)
    n = table.sum()
    k_t, k_s = (table.sum(axis=1) > 0).sum(), (table.sum(axis=0) > 0).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mb.oskr.LowOutcomeEntropyWarning)
        r = mb.oskr_from_table(table, estimator="miller-madow")
    expected = (mi - (k_t - 1) * (k_s - 1) / (2 * n * np.log(2))) / h_t
    assert r.oskr == pytest.approx(expected, abs=1e-12)


@given(arrays(np.int64, st.tuples(st.integers(2, 3), st.integers(2, 5)),
              elements=st.integers(0, 60), fill=st.integers(1, 60)), st.data())
def test_merging_signal_values_never_raises_plugin_oskr(table, data):
    """Data-processing inequality: a coarser self-assessment carries no more information."""
    assume((table.sum(axis=1) > 0).sum() >= 2 and table.shape[1] >= 2)
    j = data.draw(st.integers(0, table.shape[1] - 2))
    merged = np.column_stack([table[:, :j], table[:, j] + table[:, j + 1], table[:, j + 2:]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mb.oskr.LowOutcomeEntropyWarning)
        assert mb.oskr_from_table(merged).oskr <= mb.oskr_from_table(table).oskr + 1e-12


@given(tables, st.randoms(use_true_random=False))
def test_oskr_ignores_the_names_of_outcomes_and_signals(table, rnd):
    assume((table.sum(axis=1) > 0).sum() >= 2)
    rows, cols = list(range(table.shape[0])), list(range(table.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mb.oskr.LowOutcomeEntropyWarning)
        assert mb.oskr_from_table(table[rows][:, cols]).oskr == pytest.approx(
            mb.oskr_from_table(table).oskr, abs=1e-12)


def test_trials_and_table_agree_with_pandas_crosstab():
    rng = np.random.default_rng(0)
    t = rng.choice(["fail", "partial", "success"], size=500, p=[0.2, 0.3, 0.5])
    s = rng.integers(1, 5, size=500)
    counts = mb.oskr.contingency_table(t, s)
    assert np.array_equal(counts, pd.crosstab(t, s).to_numpy())
    assert mb.oskr.oskr(t, s).oskr == pytest.approx(brute_oskr(counts)[0], abs=1e-12)
    assert mb.oskr.oskr(t, s).n == 500


def test_bins_count_like_numpy_histogram():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 2, 1000)
    conf = rng.beta(2 + 3 * t, 2, size=1000)
    edges = [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    counts = mb.oskr.contingency_table(t, conf, bins=edges)
    for row, label in zip(counts, (0, 1)):
        assert np.array_equal(row, np.histogram(conf[t == label], bins=edges)[0])
    counts10 = mb.oskr.contingency_table(t, conf, bins=10)
    assert np.array_equal(counts10.sum(axis=0), np.histogram(conf, bins=10)[0])
    assert mb.oskr.oskr(t, conf, bins=edges).oskr == pytest.approx(brute_oskr(counts)[0])


def test_miller_madow_reduces_the_bias_of_the_plugin():
    """Against the true OSKR of a binary symmetric channel (closed form), at N = 100."""
    rng = np.random.default_rng(2)
    truth = mb.oskr.feedback_channel(0.5, 0.2, 0.0)
    p = truth.confusion.ravel()
    sims = rng.multinomial(100, p, size=20000).reshape(-1, 2, 2).astype(float)
    plug = _oskr_kernel(sims, "plugin")
    mm = _oskr_kernel(sims, "miller-madow")
    ok = np.isfinite(plug)
    bias_plug = plug[ok].mean() - truth.oskr
    bias_mm = mm[ok].mean() - truth.oskr
    se = plug[ok].std() / np.sqrt(ok.sum())
    assert bias_plug > 5 * se  # the plug-in overestimates
    assert abs(bias_mm) < bias_plug / 3


# --- KSG -----------------------------------------------------------------------------------------

def test_ksg_matches_a_brute_force_implementation():
    rng = np.random.default_rng(3)
    t = rng.integers(0, 2, 300)
    s = rng.normal(1.5 * t, 1.0)
    r = mb.oskr.oskr(t, s, estimator="ksg")
    assert r.mutual_info == pytest.approx(brute_ksg_bits(t, s), abs=1e-6)
    h_t = stats.entropy(np.bincount(t), base=2)
    assert r.oskr == pytest.approx(r.mutual_info / h_t, rel=1e-12)


def test_ksg_approaches_the_true_information_of_a_gaussian_mixture():
    d = 1.0
    f0, f1 = stats.norm(0, 1).pdf, stats.norm(d, 1).pdf

    def integrand(s):
        m = 0.5 * f0(s) + 0.5 * f1(s)
        return 0.5 * f0(s) * np.log2(f0(s) / m) + 0.5 * f1(s) * np.log2(f1(s) / m)

    true_mi = integrate.quad(integrand, -12, 13)[0]
    rng = np.random.default_rng(4)
    t = rng.integers(0, 2, 20000)
    s = rng.normal(d * t, 1.0)
    r = mb.oskr.oskr(t, s, estimator="ksg")
    assert r.mutual_info == pytest.approx(true_mi, abs=0.01)


# --- edge cases ----------------------------------------------------------------------------------

def test_constant_outcome_is_undefined():
    with pytest.raises(ValueError, match="H\\(T\\) = 0"):
        mb.oskr.oskr([1, 1, 1, 1], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="H\\(T\\) = 0"):
        mb.oskr_from_table([[3, 4], [0, 0]])
    with pytest.raises(ValueError, match="H\\(T\\) = 0"):
        mb.oskr_ci_from_table([[3, 4], [0, 0]], rng=0)
    with pytest.raises(ValueError, match="H\\(T\\) = 0"):
        mb.oskr.oskr([1.0] * 10, np.linspace(0, 1, 10), estimator="ksg")


def test_low_outcome_entropy_warns_and_reports_the_information():
    table = [[990, 0], [5, 5]]  # H(T) = H2(0.01) = 0.081 bit
    with pytest.warns(mb.oskr.LowOutcomeEntropyWarning, match="report I\\(S;T\\)"):
        r = mb.oskr_from_table(table)
    assert r.h_outcome == pytest.approx(stats.entropy([990, 10], base=2))
    assert r.mutual_info == pytest.approx(brute_oskr(table)[2])


@pytest.mark.parametrize("call, match", [
    (lambda: mb.oskr.oskr([0, 1, 1], [0, 1]), "one value per trial"),
    (lambda: mb.oskr.oskr([], []), "non-empty"),
    (lambda: mb.oskr.oskr([0, 1, np.nan], [0, 1, 1]), "finite"),
    (lambda: mb.oskr.oskr([0, 1], [0, 1], estimator="knn"), "unknown estimator"),
    (lambda: mb.oskr.oskr([0, 1, 0], [0.1, 0.5, 0.9], estimator="ksg", bins=2), "bins"),
    (lambda: mb.oskr.oskr([0, 1, 0], [0.1, 0.5, 0.9], estimator="ksg"), "neighbors"),
    (lambda: mb.oskr.oskr([0, 1, 0], [0.1, 0.5, 1.5], bins=[0, 0.5, 1]), "outside the bins"),
    (lambda: mb.oskr.oskr([0, 1, 0], [0.1, 0.5, 0.9], bins=[0, 1, 0.5]), "increasing"),
    (lambda: mb.oskr_from_table([[1, -1], [2, 2]]), "non-negative"),
    (lambda: mb.oskr_from_table([[0, 0], [0, 0]]), "empty table"),
    (lambda: mb.oskr_from_table([[1, 2], [2, 1]], estimator="ksg"), "unknown estimator"),
    (lambda: mb.oskr_ci_from_table([[1.5, 2], [2, 1]]), "whole numbers"),
    (lambda: mb.oskr_ci_from_table([[10, 2], [2, 10]], method="normal"), "interval method"),
    (lambda: mb.oskr_ci_from_table([[10, 2], [2, 10]], level=1.0), "level"),
    (lambda: mb.oskr_ci_from_table([[10, 2], [2, 10]], n_boot=1), "n_boot"),
    # Table 1 times 1e12, and n_boot x counts beyond 10**8: MemoryErrors before
    (lambda: mb.oskr_ci_from_table(np.array([[84, 56, 48, 12], [4, 56, 64, 76]]) * 1e12),
     r"a row of counts of 400,000,000,000,000 trials"),
    (lambda: mb.oskr_ci_from_table([[10, 2], [2, 10]], n_boot=10 ** 8),
     r"n_boot = 100,000,000 resamples"),
    (lambda: mb.oskr.oskr_ci([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], estimator="ksg"), "KSG"),
])
def test_bad_input_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_continuous_signal_without_bins_warns():
    rng = np.random.default_rng(5)
    with pytest.warns(UserWarning, match="pass bins="):
        mb.oskr.oskr(rng.integers(0, 2, 100), rng.random(100))


# --- bootstrap intervals -------------------------------------------------------------------------

def test_cellwise_jackknife_equals_the_trialwise_jackknife():
    table = np.array([[7.0, 3.0, 5.0], [2.0, 6.0, 1.0]])
    trials = [(i, j) for i in range(2) for j in range(3) for _ in range(int(table[i, j]))]
    values = []
    for k in range(len(trials)):
        loo = table.copy()
        loo[trials[k]] -= 1
        values.append(brute_oskr(loo)[0])
    values = np.array(values)
    d = values.mean() - values
    a_brute = (d ** 3).sum() / (6 * ((d ** 2).sum()) ** 1.5)
    loo, w = leave_one_out(table[None])  # the engine's jackknife, one table per cell
    a = jackknife_acceleration(_oskr_kernel(loo, "plugin"), w, axis=-1)[0]
    assert a == pytest.approx(a_brute, rel=1e-10)


@pytest.mark.slow
def test_bca_agrees_with_scipy_bootstrap():
    rng = np.random.default_rng(6)
    t = (rng.random(600) < 0.7).astype(int)
    s = np.where(rng.random(600) < 0.8, t, 1 - t)

    def stat(idx, axis=-1):
        idx = np.asarray(idx)
        k = 2 * t[idx] + s[idx]
        counts = np.stack([(k == c).sum(axis=axis) for c in range(4)], axis=-1)
        return _oskr_kernel(counts.reshape(counts.shape[:-1] + (2, 2)).astype(float), "plugin")

    ref = stats.bootstrap((np.arange(600),), stat, n_resamples=20000, method="BCa",
                          random_state=7, vectorized=True).confidence_interval
    lo, hi = mb.oskr.oskr_ci(t, s, method="bca", n_boot=20000, rng=8)
    assert lo == pytest.approx(ref.low, abs=0.006)
    assert hi == pytest.approx(ref.high, abs=0.006)


def test_percentile_interval_is_the_quantiles_of_resampled_trials():
    """The table's multinomial equals resampling (T, S) pairs: same quantiles up to MC error."""
    rng = np.random.default_rng(9)
    t = (rng.random(800) < 0.6).astype(int)
    s = np.where(rng.random(800) < 0.75, t, 1 - t)
    idx = rng.integers(0, 800, size=(20000, 800))
    counts = np.stack([((t[idx] == a) & (s[idx] == b)).sum(axis=1) for a in (0, 1)
                       for b in (0, 1)], axis=-1).reshape(-1, 2, 2).astype(float)
    ref = np.quantile(_oskr_kernel(counts, "plugin"), [0.025, 0.975])
    lo, hi = mb.oskr.oskr_ci(t, s, n_boot=20000, rng=10)
    assert lo == pytest.approx(ref[0], abs=0.006)
    assert hi == pytest.approx(ref[1], abs=0.006)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_interval_covers_the_true_oskr_about_95_percent_of_the_time(method):
    truth = mb.oskr.feedback_channel(0.7, 0.15, 0.0)
    rng = np.random.default_rng(11)
    reps = 600
    tables = rng.multinomial(1000, truth.confusion.ravel(), size=reps).reshape(-1, 2, 2)
    lo, hi = mb.oskr_ci_from_table(tables, method=method, n_boot=1000, rng=12)
    cover = np.mean((lo <= truth.oskr) & (truth.oskr <= hi))
    se = np.sqrt(0.95 * 0.05 / reps)
    assert abs(cover - 0.95) < 4 * se, f"{method}: coverage {cover:.3f}"


def test_stacked_intervals_equal_one_at_a_time_in_distribution():
    tables = np.array([[[400, 100], [100, 400]], [[40, 10], [10, 40]]])
    lo, hi = mb.oskr_ci_from_table(tables, method="bca", rng=0)
    assert lo.shape == (2,) and np.all(lo < hi)
    for i in range(2):
        lo1, hi1 = mb.oskr_ci_from_table(tables[i], method="bca", n_boot=4000, rng=i + 1)
        assert lo[i] == pytest.approx(lo1, abs=0.03) and hi[i] == pytest.approx(hi1, abs=0.03)


def test_undefined_nan_for_simulated_stacks():
    stack = np.array([[[3, 4], [0, 0]], [[40, 10], [10, 40]]])
    r = mb.oskr_from_table(stack, undefined="nan")
    assert np.isnan(r.oskr[0]) and r.oskr[1] == pytest.approx(brute_oskr(stack[1])[0])
    with pytest.raises(ValueError, match="table \\(0,\\)"):
        mb.oskr_from_table(stack)


def test_float_of_an_estimate_is_its_oskr():
    r = mb.oskr.oskr([1, 1, 0, 0, 1, 0], [1, 1, 0, 0, 0, 1])
    assert float(r) == r.oskr == pytest.approx(brute_oskr([[2, 1], [1, 2]])[0])
    with pytest.raises(ValueError, match="stack"):
        float(mb.oskr_from_table(np.array([[[1, 2], [2, 1]], [[3, 1], [1, 3]]])))
