"""Real people: the MaskOri data, its count tables, the recoding of predictions and the bootstrap
of every measure (metabits.studies.datasets, metabits.studies.bayes_recoding, metabits.studies.measure_bootstrap).

Independent checks: pandas' crosstab and groupby on the trials, the trials' own accuracy,
metabits.type2_measures' estimated accuracy and Monte Carlo bias reduction, the binomial
standard error of an accuracy, and a trial-by-trial bootstrap of one table.
"""

from importlib.resources import files

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metabits as mb
from metabits import datasets
from metabits.studies.measure_bootstrap import MEASURES, PLUGIN, all_measures, bootstrap_measures
from metabits.studies.bayes_recoding import recoding


@pytest.fixture(scope="module")
def trials():
    return datasets.maskori_trials()


@pytest.fixture(scope="module")
def tables():
    return datasets.maskori_counts()


# --- the data and its source -------------------------------------------------------------------

def test_data_ships_with_its_source_and_licence():
    note = files("metabits").joinpath("data", "maskori.README.md").read_text(encoding="utf-8")
    assert "Hellmann" in note and "10.1037/rev0000411" in note and "GPL" in note
    assert "S1 is the horizontal grating (0)" in note


def test_the_trials_are_as_described(trials):
    assert trials.shape == (25920, 7)
    assert trials.groupby(["participant", "soa_ms"]).size().eq(324).all()
    assert sorted(trials.soa_ms.unique()) == list(datasets.MASKORI_SOAS)
    # response is derived from stimulus and correctness
    assert ((trials.response == trials.stimulus) == (trials.correct == 1)).all()


def test_count_tables_equal_pandas_crosstabs(trials, tables):
    K = 5
    col = np.where(trials.response == 0, K - 1 - trials.rating, K + trials.rating)
    for (p, soa), g in trials.assign(col=col).groupby(["participant", "soa_ms"]):
        ct = pd.crosstab(g.stimulus, g.col).reindex(index=[0, 90], columns=range(10),
                                                    fill_value=0)
        i, j = list(tables.levels[0]).index(p), list(tables.levels[1]).index(soa)
        assert np.array_equal(tables.counts[i, j], ct.to_numpy())
    assert tables.counts.sum() == len(trials)


def test_rows_are_orientations_and_columns_run_from_s1_to_s2_confidence():
    trials = {"stimulus": [0, 90, 90], "response": [0, 90, 0], "rating": [4, 4, 0]}
    t = datasets.count_tables(trials, by=()).counts
    assert t[0, 0] == 1  # horizontal, answered horizontal with top confidence: "S1, most confident"
    assert t[1, 9] == 1  # vertical, answered vertical with top confidence: "S2, most confident"
    assert t[1, 4] == 1  # vertical, answered horizontal with lowest confidence: "S1, least"


def test_pooled_and_by_condition_tables_are_sums(tables):
    by_soa = datasets.maskori_counts(by="soa_ms").counts
    pooled = datasets.maskori_counts(by=()).counts
    assert np.array_equal(by_soa, tables.counts.sum(axis=0))
    assert np.array_equal(pooled, tables.counts.sum(axis=(0, 1)))


@pytest.mark.parametrize("change, match", [
    (dict(stimulus=[0, 45]), "must be one of \\(0, 90\\)"),
    (dict(response=[0, 1]), "must be one of"),
    (dict(rating=[0, 5]), "integers >= 0 and <= 4"),
    (dict(rating=[0.0, 1.5]), "integers"),
    (dict(rating=[0, 1, 2]), "one value per trial"),
])
def test_bad_trials_are_refused(change, match):
    trials = {"stimulus": [0, 90], "response": [0, 90], "rating": [0, 1]} | change
    with pytest.raises(ValueError, match=match):
        datasets.count_tables(trials, by=())


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match="no column 'participant'"):
        datasets.count_tables({"stimulus": [0], "response": [0], "rating": [0]})


# --- recoding ----------------------------------------------------------------------------------

def test_reached_accuracy_is_the_trials_accuracy(trials, tables):
    r = recoding(tables.counts)
    acc = trials.groupby(["participant", "soa_ms"]).correct.mean().unstack().to_numpy()
    assert np.allclose(r.acc_reached, acc, atol=1e-12)


def test_recoded_accuracy_is_the_information_measures_accuracy(tables):
    r = recoding(tables.counts)
    assert np.allclose(r.acc_recoded, mb.type2_measures(tables.counts, undefined="nan").acc,
                       atol=1e-12)


count_tables = arrays(np.int64, st.sampled_from([(2, 4), (2, 10)]), elements=st.integers(0, 20)
                      ).filter(lambda t: np.all(t.sum(axis=1) > 0))


@given(count_tables)
def test_recoding_never_lowers_accuracy_and_gains_exactly_the_majority_wrong_columns(table):
    r = recoding(table)
    K = table.shape[1] // 2
    own = np.r_[table[0, :K], table[1, K:]]
    other = np.r_[table[1, :K], table[0, K:]]
    gain = ((other - own) * (other > own)).sum() / table.sum()
    assert r.acc_recoded - r.acc_reached == pytest.approx(gain, abs=1e-12)
    assert r.acc_recoded >= r.acc_reached
    assert r.n_majority_wrong == int((other > own).sum())


# --- all measures and the bootstrap --------------------------------------------------------------

def test_all_measures_agree_with_the_single_functions(tables):
    t = tables.counts[:, 2]  # 33.3 ms: every measure defined
    a = all_measures(t)
    c = mb.type2_classic.classic_type2(t)
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
])
def test_bootstrap_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bootstrap_measures([[5, 4, 3, 2], [2, 3, 4, 5]], **kwargs)


def test_bootstrap_refuses_fractional_counts():
    with pytest.raises(ValueError, match="whole numbers"):
        bootstrap_measures([[5.5, 4, 3, 2], [2, 3, 4, 5]])


def test_unknown_measure_is_named():
    b = bootstrap_measures([[5, 4, 3, 2], [2, 3, 4, 5]], n_boot=10, rng=0)
    with pytest.raises(ValueError, match="unknown measure 'auc'"):
        b.interval("auc")
