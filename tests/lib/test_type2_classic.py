"""The classic Type 2 measures (metabits.sdt) against independent computations.

References: brute-force counting over all (correct, error) pairs of trials for gamma and
AUROC2, scikit-learn's roc_auc_score, numpy's Pearson correlation on the trials for phi, the
2 × 2 phi formula, scipy's point-biserial correlation, metabits.fit_meta_d for
meta-d′ − d′, and a trial-level recomputation from the MaskOri CSV with pandas.
"""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from sklearn.metrics import roc_auc_score
from conftest import MASKORI_SOAS

import metabits as mb
from metabits.sdt._metad import _meta_d_or_nan
from metabits.sdt import auroc2, classic_type2, confidence_by_correctness, gamma, phi, type2_roc


def trials_of(table):
    """Expand a 2 × 2K count table into per-trial (correct, level) arrays, levels 0..K-1."""
    table = np.asarray(table, int)
    K = table.shape[1] // 2
    correct, level = [], []
    for s in range(2):
        for j in range(2 * K):
            says_s2 = j >= K
            lev = j - K if says_s2 else K - 1 - j
            correct += [int(says_s2 == bool(s))] * table[s, j]
            level += [lev] * table[s, j]
    return np.array(correct), np.array(level)


def brute_pairs(correct, level):
    """(concordant, discordant, tied) over every (correct trial, error trial) pair."""
    c_lev, e_lev = level[correct == 1], level[correct == 0]
    conc = disc = tie = 0
    for a, b in itertools.product(c_lev, e_lev):
        conc += a > b
        disc += a < b
        tie += a == b
    return conc, disc, tie


tables = arrays(np.int64, st.sampled_from([(2, 4), (2, 6), (2, 10)]),
                elements=st.integers(0, 12)).filter(lambda t: np.all(t.sum(axis=1) > 0))


@given(tables)
def test_gamma_and_auroc2_equal_brute_force_pair_counts(table):
    correct, level = trials_of(table)
    assume(0 < correct.sum() < correct.size)
    conc, disc, tie = brute_pairs(correct, level)
    total = conc + disc + tie
    assert auroc2(table) == pytest.approx((conc + 0.5 * tie) / total, abs=1e-12)
    assume(conc + disc > 0)
    assert gamma(table) == pytest.approx((conc - disc) / (conc + disc), abs=1e-12)


@given(tables)
def test_auroc2_equals_sklearn_and_phi_equals_pearson(table):
    correct, level = trials_of(table)
    assume(0 < correct.sum() < correct.size and np.ptp(level) > 0)
    assert auroc2(table) == pytest.approx(roc_auc_score(correct, level), abs=1e-12)
    assert phi(table) == pytest.approx(np.corrcoef(correct, level)[0, 1], abs=1e-10)
    assert phi(table) == pytest.approx(stats.pointbiserialr(correct, level)[0], abs=1e-10)


def test_phi_with_two_levels_is_the_2x2_phi_coefficient(table1):
    (low_c, high_c), (low_e, high_e) = confidence_by_correctness(table1)
    a, b, c, d = high_c, low_c, high_e, low_e
    expected = (a * d - b * c) / np.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    assert phi(table1) == pytest.approx(expected, abs=1e-12)


@given(tables)
def test_type2_roc_runs_from_origin_to_one_and_its_area_is_auroc2(table):
    correct, _ = trials_of(table)
    assume(0 < correct.sum() < correct.size)
    fpr, tpr = type2_roc(table)
    assert (fpr[0], tpr[0], fpr[-1], tpr[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)
    assert np.trapezoid(tpr, fpr) == pytest.approx(auroc2(table), abs=1e-12)


def test_stacks_equal_table_by_table():
    rng = np.random.default_rng(0)
    stack = rng.integers(1, 30, size=(3, 4, 2, 8))
    for f in (auroc2, gamma, phi):
        got = f(stack)
        assert got.shape == (3, 4)
        assert np.allclose(got, [[f(stack[i, j]) for j in range(4)] for i in range(3)])


def test_perfect_and_useless_confidence():
    # every correct trial most confident, every error least: AUROC2 = gamma = 1
    perfect = [[5, 0, 3, 0], [0, 3, 0, 5]]
    assert auroc2(perfect) == 1 and gamma(perfect) == 1
    # confidence independent of correctness: AUROC2 = 0.5, gamma = phi = 0
    useless = [[4, 4, 2, 2], [2, 2, 4, 4]]
    assert auroc2(useless) == 0.5 and gamma(useless) == 0 and phi(useless) == 0


def test_undefined_tables_raise_or_give_nan():
    no_errors = [[3, 2, 0, 0], [0, 0, 1, 4]]
    for f in (auroc2, gamma, phi):
        with pytest.raises(ValueError, match="undefined"):
            f(no_errors)
        assert np.isnan(f(no_errors, undefined="nan"))
    one_level = [[0, 3, 2, 0], [0, 1, 4, 0]]  # all trials at the low level
    with pytest.raises(ValueError, match="tied"):
        gamma(one_level)
    with pytest.raises(ValueError, match="same confidence level"):
        phi(one_level)
    with pytest.raises(ValueError, match="undefined .*must be one of"):
        gamma(no_errors, undefined="zero")


@pytest.mark.parametrize("bad, match", [
    ([[1, 2, 3], [1, 2, 3]], "even number"),
    ([[-1, 2, 3, 4], [1, 2, 3, 4]], "non-negative"),
    ([[0, 0, 0, 0], [1, 2, 3, 4]], "empty row"),
    ([[np.nan, 2, 3, 4], [1, 2, 3, 4]], "finite"),
])
def test_bad_tables_are_refused(bad, match):
    for f in (auroc2, gamma, phi, type2_roc, confidence_by_correctness):
        with pytest.raises(ValueError, match=match):
            f(bad)


def test_meta_d_difference_is_fit_meta_d_many_m_diff(tables):
    stack = tables.counts[:, 2:4]  # 33.3 and 66.7 ms: no zero rows
    r = classic_type2(stack)
    fit = mb.fit_meta_d(stack.reshape(-1, 2, 10), pad=0.1)
    assert np.allclose(r.m_diff.ravel(), fit.m_diff, atol=1e-12)
    assert np.allclose(r.m_ratio.ravel(), fit.m_ratio, atol=1e-12)
    assert r.pad == 0.1  # 1/(2K) with K = 5
    lenient = classic_type2(stack, undefined="nan")
    assert np.allclose(lenient.meta_d, r.meta_d, atol=1e-12)


def test_lenient_fit_gives_nan_where_the_strict_one_raises():
    d_zero = np.array([[[5, 5, 5, 5], [5, 5, 5, 5]]], float)  # hit rate = false-alarm rate
    with pytest.raises(ValueError, match="d' = 0"):
        mb.fit_meta_d(d_zero, pad=0.25)
    d, meta = _meta_d_or_nan(d_zero, 0.25)
    assert np.isnan(meta[0])
    with pytest.raises(ValueError, match="pad must be > 0"):
        classic_type2([[5, 5, 5, 5], [1, 5, 5, 5]], pad=0, undefined="nan")


def test_trial_level_recomputation_from_the_csv(trials, tables):
    """gamma, AUROC2 and phi of all 80 MaskOri tables from the trials themselves (pandas)."""
    r = classic_type2(tables.counts, undefined="nan")
    for (p, soa), g in trials.groupby(["participant", "soa_ms"]):
        i, j = p - 1, MASKORI_SOAS.index(soa)
        correct, level = g.correct.to_numpy(), g.rating.to_numpy()
        if correct.all():
            assert np.isnan(r.auroc2[i, j]) and np.isnan(r.gamma[i, j])
            continue
        assert r.auroc2[i, j] == pytest.approx(roc_auc_score(correct, level), abs=1e-12)
        assert r.phi[i, j] == pytest.approx(np.corrcoef(correct, level)[0, 1], abs=1e-10)
        tau_pairs = stats.somersd(correct, level)  # Somers' D(level | correct)
        assert 2 * r.auroc2[i, j] - 1 == pytest.approx(tau_pairs.statistic, abs=1e-10)
