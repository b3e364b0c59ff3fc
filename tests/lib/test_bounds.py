"""Theorems 3 and 6 (Meyen et al., 2025) and their extreme classifiers."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import metabits as mb

priors_st = st.lists(st.floats(0.01, 1.0), min_size=2, max_size=6).map(
    lambda v: np.array(v) / np.sum(v))


def test_theorem3_at_70_percent():
    """The closed forms at 70% (the paper's printed 0.12 and 0.40: metabits_book.paper_numbers)."""
    lo, hi = mb.info.info_bounds(0.7)
    assert lo == pytest.approx(mb.info.pti(0.7), abs=1e-12)  # 1 - H2(0.7): a calibrated 70%
    assert hi == pytest.approx(0.4, abs=1e-12)   # H2(0.5) - 2(1 - 0.7) exactly


def test_theorem3_closed_forms_and_vectorised():
    acc = np.array([0.5, 0.6, 0.9, 1.0])
    lo, hi = mb.info.info_bounds(acc, 0.5)
    assert np.allclose(lo, 1 - mb.info.binary_entropy(acc))
    assert np.allclose(hi, 1 - 2 * (1 - acc))
    lo8, hi8 = mb.info.info_bounds([0.8, 0.9], priors=0.8)
    assert np.allclose(hi8, mb.info.binary_entropy(0.8) - 2 * (1 - np.array([0.8, 0.9])))
    assert lo8[0] == pytest.approx(0.0, abs=1e-12)   # acc = prior: nothing transmitted


@given(st.floats(0.5, 1.0), st.floats(0.0, 1.0))
def test_theorem6_reduces_to_theorem3(p_plus, t):
    acc = max(p_plus, 1 - p_plus) + t * (1 - max(p_plus, 1 - p_plus))
    two = mb.info.info_bounds(acc, [p_plus, 1 - p_plus])
    one = mb.info.info_bounds(acc, p_plus)
    assert two[0] == pytest.approx(one[0], abs=1e-12)
    assert two[1] == pytest.approx(one[1], abs=1e-12)
    assert one[0] == pytest.approx(mb.info.binary_entropy(p_plus) - mb.info.binary_entropy(acc), abs=1e-12)


@given(st.lists(st.tuples(st.floats(0.5, 1.0), st.floats(0.001, 1.0)), min_size=1, max_size=8))
def test_random_calibrated_classifiers_lie_within_theorem3(pairs):
    c = np.array([p[0] for p in pairs])
    w = np.array([p[1] for p in pairs])
    w /= w.sum()
    acc = mb.info.accuracy(c, w)
    info = mb.info.transmitted_information(c, w)
    lo, hi = mb.info.info_bounds(acc)
    assert lo - 1e-12 <= info <= hi + 1e-12


@given(st.integers(2, 5), st.lists(st.lists(st.floats(0.0, 1.0), min_size=5, max_size=5),
                                   min_size=1, max_size=6),
       st.lists(st.floats(0.01, 1.0), min_size=6, max_size=6))
def test_random_L_label_classifiers_lie_within_theorem6(L, rows, raw_w):
    """Any mixture of calibrated posterior vectors: its priors are the mixture's mean."""
    conf = np.array([r[:L] for r in rows]) + 1e-3
    conf /= conf.sum(axis=1, keepdims=True)
    w = np.array(raw_w[: len(rows)])
    w /= w.sum()
    priors = w @ conf
    acc = float(w @ conf.max(axis=1))
    info = mb.info.mutual_information((conf * w[:, None]).T)
    lo, hi = mb.info.info_bounds(acc, priors)
    assert lo - 1e-9 <= info <= hi + 1e-9


@given(priors_st, st.floats(0.0, 1.0))
def test_extreme_classifiers_attain_theorem6(priors, t):
    acc = priors.max() + t * (1 - priors.max())
    assume(acc < 1 - 1e-6)
    lo, hi = mb.info.info_bounds(acc, priors)
    for build, bound in ((mb.info.min_info_classifier, lo), (mb.info.max_info_classifier, hi)):
        conf, w = build(acc, priors)
        assert np.allclose(conf.sum(axis=1), 1)
        assert np.allclose(w @ conf, priors, atol=1e-7)           # reproduces the priors
        assert w @ conf.max(axis=1) == pytest.approx(acc, abs=1e-7)  # and the accuracy
        assert mb.info.mutual_information((conf * w[:, None]).T) == pytest.approx(bound, abs=1e-6)


def test_worked_examples_L4():
    """The paper's L = 4, acc = 0.4 examples (section "Bounds for Finite Number of Labels")."""
    conf, w = mb.info.max_info_classifier(0.4, [0.25] * 4)
    sizes = (conf > 0).sum(axis=1)
    assert set(sizes) == {2, 3}            # m1 = 2, m2 = 3
    # "The true label is Y = 3 with probability 40%, or any of the other three labels each 20%"
    # (the printed percentages are asserted once, in metabits_book.paper_numbers; here exactly)
    worst, _ = mb.info.min_info_classifier(0.4, [0.25] * 4)
    assert np.allclose(np.sort(worst[0]), [0.2, 0.2, 0.2, 0.4])
    # priors 32/32/32/4 %: "Y = 1 with probability 40%, Y = 2 or Y = 3 each 28%, Y = 4 4%"
    worst_r, _ = mb.info.min_info_classifier(0.4, [0.32, 0.32, 0.32, 0.04])
    assert np.allclose(worst_r[0], [0.4, 0.28, 0.28, 0.04])
    assert mb.info.info_lower_bound(0.4, [0.25] * 4) == pytest.approx(
        2 - 0.4 * np.log2(1 / 0.4) - 0.6 * np.log2(3 / 0.6))


@pytest.mark.parametrize("call, match", [
    (lambda: mb.info.info_bounds(0.4), r"acc must lie in \[0.5, 1\].*the largest prior"),
    (lambda: mb.info.info_bounds(0.7, priors=0.8), r"acc must lie in \[0.8, 1\].*the largest prior"),
    (lambda: mb.info.info_bounds(1.1), r"acc must lie in \[0.5, 1\]"),
    (lambda: mb.info.info_bounds(0.7, [0.5, 0.6]), "sum to 1"),
    (lambda: mb.info.info_bounds(0.7, [1.2, -0.2]), r"priors must lie in \[0, 1\]"),
    (lambda: mb.info.info_bounds(0.7, [1.0]), "at least two labels"),
    (lambda: mb.info.info_bounds(0.7, [[0.5, 0.5]]), "1-D"),
    (lambda: mb.info.info_bounds(np.nan), "finite"),
    (lambda: mb.info.info_bounds(0.7, priors=1.5), r"prior p\+ must lie in \[0, 1\]"),
    (lambda: mb.info.min_info_classifier([0.5, 0.6], [0.5, 0.5]), "single number"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
