"""Every Type 2 measure of many tables with bootstrap intervals (metabits._bootstrap), on
the MaskOri tables (fixtures in conftest.py): the single functions, metabits.type2_measures' Monte
Carlo bias reduction, the binomial standard error of an accuracy and a trial-by-trial bootstrap
of one table.
"""

import numpy as np
import pytest

import metabits as mb
from metabits.info import recoding
from metabits._bootstrap import MEASURES, PLUGIN, all_measures, bootstrap_measures


# --- all measures and the bootstrap --------------------------------------------------------------

def test_all_measures_agree_with_the_single_functions(tables):
    t = tables.counts[:, 2]  # 33.3 ms: every measure defined
    a = all_measures(t)
    c = mb.classic_type2(t)
    m = mb.type2_measures(t)
    for name, ref in [("auroc2", c.auroc2), ("gamma", c.gamma), ("phi", c.phi),
                      ("meta_d", c.meta_d), ("m_ratio", c.m_ratio), ("m_diff", c.m_diff),
                      ("d_prime", c.d), ("meta_I", m.meta_I), ("meta_I1r", m.meta_I1r),
                      ("meta_I2r", m.meta_I2r), ("RMI", m.RMI),
                      ("acc", recoding(t).acc_reached)]:
        assert np.allclose(a.value(name), ref, atol=1e-10), name
    assert a.names == PLUGIN


def test_bootstrap_estimates_are_the_plug_in_values_and_reproducible(tables):
    t = tables.counts[:3]
    b1 = bootstrap_measures(t, n_boot=50, rng=7)
    b2 = bootstrap_measures(t, n_boot=50, rng=7)
    assert b1.estimate.shape == (3, 5, len(MEASURES))
    assert np.array_equal(b1.lower, b2.lower, equal_nan=True)
    plug = all_measures(t).estimate
    assert np.array_equal(b1.estimate[..., :len(PLUGIN)], plug, equal_nan=True)


def test_bootstrap_se_of_accuracy_matches_the_binomial_formula():
    table = np.array([[60, 40, 30, 20, 10, 5, 10, 15, 5, 5],
                      [8, 10, 12, 20, 20, 30, 35, 30, 20, 15]])
    b = bootstrap_measures(table, n_boot=4000, rng=3)
    n = table.sum(axis=1)
    p = np.array([table[0, :5].sum(), table[1, 5:].sum()]) / n  # rows resampled separately
    se = np.sqrt((n * p * (1 - p)).sum()) / n.sum()
    # the SD of 4000 replicates is within a few per cent of the truth (its own SE is ~1.1%)
    assert b.se[MEASURES.index("acc")] == pytest.approx(se, rel=0.05)


def test_bias_reduction_equals_type2_measures_monte_carlo_bias_reduction():
    table = np.array([[30, 20, 15, 10, 5, 3, 4, 6, 5, 2], [3, 5, 6, 8, 10, 12, 15, 16, 15, 10]])
    b = bootstrap_measures(table, n_boot=3000, rng=11)
    m = mb.type2_measures(table, bias_reduction=3000, rng=12)
    for k in ("meta_I", "meta_I2r", "RMI"):
        j = MEASURES.index(f"{k}_br")
        # two independent Monte Carlo estimates of the same bias: they differ by about
        # sqrt(2) * SD / sqrt(m); allow 5 such standard errors
        tol = 5 * np.sqrt(2) * b.se[j] / np.sqrt(3000)
        assert b.estimate[j] == pytest.approx(m[k], abs=tol), k
        lo, hi = b.interval(f"{k}_br")
        lo0, hi0 = b.interval(k)
        assert hi - lo == pytest.approx(hi0 - lo0, abs=1e-12)  # shifted, not rescaled


def test_bootstrap_counts_undefined_replicates(tables):
    ceiling = tables.counts[2, 4]  # participant 3 at 133.3 ms: no errors at all
    b = bootstrap_measures(ceiling, n_boot=20, rng=1)
    assert np.isnan(b.value("gamma")) and b.n_undefined[MEASURES.index("gamma")] == 20
    assert np.isfinite(b.value("meta_d"))  # padded: defined


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_boot=1), "n_boot"), (dict(level=1.0), "level"), (dict(pad=0.0), "pad must be > 0"),
    (dict(n_boot=10 ** 8), r"n_boot = 100,000,000 resamples of 8 counts"),
])
def test_bootstrap_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bootstrap_measures([[5, 4, 3, 2], [2, 3, 4, 5]], **kwargs)


def test_bootstrap_refuses_rows_too_large_to_resample():
    # Table 1 times 1e12 was a MemoryError in the resampler's tables
    with pytest.raises(ValueError, match=r"a row of counts of 200,000,000,000,000 trials"):
        bootstrap_measures(np.array([[84, 56, 48, 12], [4, 56, 64, 76]]) * 1e12, n_boot=20)


def test_bootstrap_refuses_fractional_counts():
    with pytest.raises(ValueError, match="whole numbers"):
        bootstrap_measures([[5.5, 4, 3, 2], [2, 3, 4, 5]])


def test_unknown_measure_is_named():
    b = bootstrap_measures([[5, 4, 3, 2], [2, 3, 4, 5]], n_boot=10, rng=0)
    with pytest.raises(ValueError, match="unknown measure 'auc'"):
        b.interval("auc")
