"""Propositions 4–5 (Meyen et al., 2025): bounds on pseudo Type 1 and Type 2 ROC curves."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import metabits as mb


def _interp(curve, x):
    fpr, tpr = curve
    return np.interp(x, fpr, tpr)


@pytest.mark.parametrize("acc", [0.6, 0.7, 0.9])
def test_uniform_attains_upper_bounds_binary_lower_type2(acc):
    x = np.linspace(0, 1, 101)
    lo1, hi1 = mb.info.roc_bounds_type1(x, acc)
    assert np.allclose(_interp(mb.info.roc_curve_type1("uniform", acc), x), hi1)
    lo2, hi2 = mb.info.roc_bounds_type2(x, acc)
    assert np.allclose(_interp(mb.info.roc_curve_type2("uniform", acc), x), hi2)
    assert np.allclose(_interp(mb.info.roc_curve_type2("binary", acc), x), lo2)


@pytest.mark.parametrize("acc", [0.6, 0.7, 0.9])
@pytest.mark.parametrize("kind", ["uniform", "normal", "binary"])
def test_noise_curves_inside_bounds(kind, acc):
    for curve, bounds in ((mb.info.roc_curve_type1, mb.info.roc_bounds_type1),
                          (mb.info.roc_curve_type2, mb.info.roc_bounds_type2)):
        fpr, tpr = curve(kind, acc)
        lo, hi = bounds(fpr, acc)
        assert np.all(tpr >= lo - 1e-9) and np.all(tpr <= hi + 1e-9)


def test_binary_noise_is_strictly_above_proposition4_lower_bound():
    """The paper's remark: binary noise is not the lower edge of Figure 4a."""
    acc = 0.7
    fpr, tpr = mb.info.roc_curve_type1("binary", acc)
    lo, _ = mb.info.roc_bounds_type1(fpr[1], acc)
    assert tpr[1] > lo + 0.1


@given(st.lists(st.tuples(st.floats(0.5, 1.0), st.floats(0.01, 1.0)), min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(0.5, 1.0), st.floats(0.01, 1.0)), min_size=1, max_size=5))
def test_random_calibrated_classifiers_inside_bounds(plus, minus):
    """Symmetric mixtures of calibrated responses (equal priors), confidences free per
    prediction."""
    c = np.array([p[0] for p in plus + minus])
    w = np.array([p[1] for p in plus + minus])
    pred = np.array([1] * len(plus) + [-1] * len(minus))
    # mirror the classifier so that the priors are exactly equal
    c, w, pred = np.concatenate([c, c]), np.concatenate([w, w]), np.concatenate([pred, -pred])
    w = w / w.sum()
    acc = float(w @ c)
    assume(0.5 + 1e-9 < acc < 1 - 1e-9)  # all confidences 0.5 or all 1: no ROC to bound
    p_plus = np.where(pred == 1, c, 1 - c)                  # P(Y=+1 | response)
    on_plus, on_minus = 2 * w * p_plus, 2 * w * (1 - p_plus)  # P(response | Y)
    order = np.argsort(-(pred * c), kind="stable")
    tpr, fpr = np.cumsum(on_plus[order]), np.cumsum(on_minus[order])
    lo, hi = mb.info.roc_bounds_type1(np.clip(fpr, 0, 1), acc)
    assert np.all(tpr <= hi + 1e-9) and np.all(tpr >= lo - 1e-9)
    # Type 2: thresholds on confidence, correct vs error
    order2 = np.argsort(-c, kind="stable")
    tpr2 = np.cumsum((w * c)[order2]) / acc
    fpr2 = np.cumsum((w * (1 - c))[order2]) / (1 - acc)
    lo2, hi2 = mb.info.roc_bounds_type2(np.clip(fpr2, 0, 1), acc)
    assert np.all(tpr2 <= hi2 + 1e-9) and np.all(tpr2 >= lo2 - 1e-9)


@pytest.mark.parametrize("call, match", [
    (lambda: mb.info.roc_bounds_type1(1.5, 0.7), r"FPR must lie in \[0, 1\]"),
    (lambda: mb.info.roc_bounds_type2(0.2, 1.0), r"\[0.5, 1\).*no errors to rate"),
    (lambda: mb.info.roc_bounds_type1(0.2, 0.3), r"acc must lie in \[0.5, 1\)"),
    (lambda: mb.info.roc_curve_type1("normal", [0.6, 0.7]), "single number"),
    (lambda: mb.info.roc_curve_type2("poisson", 0.7), "noise kind"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("acc", [0.6, 0.7, 0.85])
def test_lower_edge_classifiers_trace_proposition4_lower_bound(acc):
    x = np.linspace(0, 1, 201)
    lo, _ = mb.info.roc_bounds_type1(x, acc)
    curves = [mb.info.roc_from_responses(s, w) for s, w in mb.info.prop4_lower_edge_classifiers(acc).values()]
    for s, w in mb.info.prop4_lower_edge_classifiers(acc).values():
        q = np.where(s > 0, s, 1 + s)
        assert w @ np.abs(s) == pytest.approx(acc)   # accuracy acc
        assert w @ q == pytest.approx(0.5)           # equal priors
    edge = np.minimum(*[_interp(c, x) for c in curves])
    assert np.allclose(edge, lo, atol=1e-12)


def test_generic_roc_matches_noise_curves():
    acc = 0.7
    c_u, w_u = mb.info.discrete_confidence("uniform", acc)
    s = np.array([1.0, 0.5, -0.5, -1.0])
    w = np.array([w_u[1], w_u[0], w_u[0], w_u[1]]) / 2
    x = np.linspace(0, 1, 51)
    assert np.allclose(_interp(mb.info.roc_from_responses(s, w), x),
                       _interp(mb.info.roc_curve_type1("uniform", acc), x))
    assert np.allclose(_interp(mb.info.roc_type2_from_confidence(c_u, w_u), x),
                       _interp(mb.info.roc_curve_type2("uniform", acc), x))


@pytest.mark.parametrize("call, match", [
    (lambda: mb.info.roc_from_responses([0.3, -0.9], [0.5, 0.5]), r"\[-1, -0.5\] or \[0.5, 1\]"),
    (lambda: mb.info.roc_from_responses([0.7, -0.9], [0.5, 0.6]), "sum to 1"),
    (lambda: mb.info.roc_from_responses([0.7], [0.5, 0.5]), "same length"),
    (lambda: mb.info.roc_type2_from_confidence([1.0], [1.0]), "never wrong"),
])
def test_bad_generic_roc_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
