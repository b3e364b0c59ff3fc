"""Relabelled and re-coded responses (metabits.info): what the information measures do not see.

Part of book/meyen/09_limits. Each check is against an independent computation: a hand-permuted
table, the plug-in information by first principles, d′ by hand and the reported measures' mutual
information by hand.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm

import metabits as mb
from metabits.info import _relabel as relabel

INFO = ("acc", "info", "meta_I", "meta_I1r", "meta_I2r", "RMI")


def _plug_in_by_hand(table):
    """acc, info and RMI of a count table from first principles (log2, no metabits)."""
    t = np.asarray(table, float)
    p = t / t.sum()
    m = p.sum(axis=0)
    acc = p.max(axis=0).sum()
    py = p.sum(axis=1)
    nz = p > 0
    info = np.sum(p[nz] * np.log2(p[nz] / np.outer(py, m)[nz]))

    def H(x):
        return -x * np.log2(x) - (1 - x) * np.log2(1 - x)

    lo, hi = H(py.max()) - H(acc), H(py.max()) - 2 * (1 - acc)
    return acc, info, (info - lo) / (hi - lo)


# --- relabelling -------------------------------------------------------------------------------

def test_swap_confidence_matches_hand_permuted_table(table1):
    hand = [[56, 84, 12, 48], [56, 4, 76, 64]]     # S1 high <-> S1 low, S2 low <-> S2 high
    np.testing.assert_array_equal(relabel.swap_confidence(table1), hand)
    a, b = mb.type2_measures(table1), mb.type2_measures(hand)
    for k in INFO:
        assert a[k] == pytest.approx(b[k], abs=1e-12), k
    acc, info, rmi = _plug_in_by_hand(hand)
    assert (b.acc, b.info, b.RMI) == pytest.approx((acc, info, rmi), abs=1e-12)
    # the SDT measures read the order of the columns: the swapped table looks anti-metacognitive
    m_a = mb.fit_meta_d(np.asarray(table1, float)).m_ratio
    m_b = mb.fit_meta_d(np.asarray(hand, float)).m_ratio
    assert m_a > 1 and m_b < 0
    # and so does calibration: stated 90% / 60% fit the original far better than the swap
    stated = [0.9, 0.6, 0.6, 0.9]
    assert relabel.calibration_error(hand, stated) > 3 * relabel.calibration_error(table1, stated)


@given(st.lists(st.integers(0, 60), min_size=8, max_size=8), st.permutations(range(4)))
def test_information_measures_ignore_the_names_of_responses(cells, perm):
    t = np.array(cells, float).reshape(2, 4)
    assume(t[0].sum() > 0 and t[1].sum() > 0)
    a = mb.type2_measures(t, undefined="nan")
    b = mb.type2_measures(t[:, list(perm)], undefined="nan")
    for k in ("acc", "info", "meta_I", "meta_I2r", "RMI"):   # meta-I1r reads the Type 1 split
        assert np.allclose(a[k], b[k], atol=1e-12, equal_nan=True), k


def test_calibration_error_by_hand():
    t = np.array([[30, 10, 5, 5], [5, 5, 10, 30]], float)
    stated = np.array([0.8, 0.6, 0.6, 0.8])
    acc_col = np.array([30 / 35, 10 / 15, 10 / 15, 30 / 35])
    m = t.sum(0) / t.sum()
    assert relabel.calibration_error(t, stated) == pytest.approx(np.sum(m * abs(stated - acc_col)))


# --- the Type 1 / Type 2 trade-off ---------------------------------------------------------------

RATER = np.array([[6.0, 0.0, 150.0, 44.0],     # S1 trials: mostly "S2 low" (its errors)
                  [1.0, 0.0, 14.0, 185.0]])     # S2 trials: mostly "S2 high"; no "S1 low"


def test_inverting_low_confidence_trades_type1_for_type2():
    f = np.linspace(0.0, 1.0, 6)
    tabs = relabel.invert_predictions(RATER, columns=[2], fraction=f)
    fits = [mb.fit_meta_d(t, pad=0.25) for t in tabs]
    for t, fit in zip(tabs, fits):               # d' by hand: z(HR) - z(FAR), padded counts
        p = t + 0.25
        hr, far = p[1, 2:].sum() / p[1].sum(), p[0, 2:].sum() / p[0].sum()
        assert fit.d == pytest.approx(norm.ppf(hr) - norm.ppf(far), abs=1e-9)
    assert np.all(np.diff([fit.d for fit in fits]) > 0)          # Type 1 up ...
    assert np.all(np.diff([fit.m_ratio for fit in fits]) < 0)    # ... Type 2 efficiency down
    ref = mb.type2_measures(RATER, undefined="nan")
    i1r = []
    for t in tabs:                               # the inverted responses keep their posterior
        m = mb.type2_measures(t, undefined="nan")
        for k in ("acc", "info", "meta_I", "meta_I2r", "RMI"):
            assert m[k] == pytest.approx(ref[k], abs=1e-12), k
        i1r.append(m.meta_I1r)
    assert np.all(np.diff(i1r) < 0)              # meta-I1r normalises by d': it is confounded too


def test_chapter_tradeoff_accuracy_has_one_value_and_one_rounding():
    """Chapter 9's trade-off rater: its recoded accuracy (the same at every inverted share, and the
    reported accuracy once all low-confidence answers are inverted) is 341/400 = 0.8525. The text
    (glue, Python's format) and the tables (Styler.format with the same format) all show 0.853,
    where pandas' round(3) gives 0.852 (it rounds the scaled value half to even)."""
    chapter_rater = np.array([[6.0, 0.0, 150.0, 44.0], [1.0, 0.0, 14.0, 185.0]])
    tabs = relabel.invert_predictions(chapter_rater, columns=[2],
                                      fraction=np.linspace(0.0, 1.0, 11))
    recoded = mb.type2_measures(tabs, undefined="nan").acc
    assert np.allclose(recoded, 341 / 400, atol=1e-15)
    assert relabel.reported_measures(tabs).acc[-1] == pytest.approx(341 / 400, abs=1e-15)
    acc = float(recoded[0])
    assert f"{acc:.3f}" == "{:.3f}".format(acc) == "0.853"
    assert float(np.round(acc, 3)) == 0.852                 # the rule the tables do not use


def test_reported_measures_by_hand():
    r = relabel.reported_measures(RATER)
    p = RATER / RATER.sum()
    pred = np.stack([p[:, :2].sum(1), p[:, 2:].sum(1)], axis=1)

    def mi(j):
        px, py = j.sum(1, keepdims=True), j.sum(0, keepdims=True)
        nz = j > 0
        return np.sum(j[nz] * np.log2(j[nz] / (px * py)[nz]))

    acc = pred[0, 0] + pred[1, 1]
    h = -acc * np.log2(acc) - (1 - acc) * np.log2(1 - acc)
    assert r.acc == pytest.approx(acc)
    assert r.meta_I == pytest.approx(mi(p) - mi(pred), abs=1e-12)
    assert r.meta_I2r == pytest.approx((mi(p) - mi(pred)) / h, abs=1e-12)
    assert r.info == pytest.approx(mb.type2_measures(RATER).info, abs=1e-12)


def test_invert_predictions_rejects_bad_columns():
    with pytest.raises(ValueError, match="mirror"):
        relabel.invert_predictions(RATER, columns=[1, 2])
    with pytest.raises(ValueError, match="fraction"):
        relabel.invert_predictions(RATER, columns=[2], fraction=1.5)
