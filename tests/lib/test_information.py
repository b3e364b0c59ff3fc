"""Propositions 1–2 and the Figure 1 example (Meyen et al., 2025)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import metabits as mb


def test_binary_entropy_known_values():
    assert mb.info.binary_entropy(0.5) == pytest.approx(1.0)
    assert mb.info.binary_entropy(0.0) == 0.0 and mb.info.binary_entropy(1.0) == 0.0
    # pti(c) = 1 - H2(c) (the paper's printed 0.88 and 0.12 at c = 0.7:
    # metabits_book.paper_numbers)
    assert mb.info.pti(0.7) == pytest.approx(1 - stats.entropy([0.7, 0.3], base=2))
    assert mb.info.binary_entropy(0.11) == pytest.approx(stats.entropy([0.11, 0.89], base=2))


@given(st.lists(st.tuples(st.floats(0.5, 1.0), st.floats(0.01, 1.0)), min_size=1, max_size=6),
       st.floats(0.0, 1.0))
def test_proposition_2_matches_mutual_information(pairs, lam):
    """info = E[pti(C)] equals I(Y; response) computed from the joint table.

    Build a calibrated classifier: responses predicting +1 with confidence c (a share ``lam``),
    and the same confidences predicting -1; its prior P(Y = +1) = lam·E[C] + (1 − lam)(1 − E[C])
    follows. Every example is a valid classifier (no example is discarded).
    """
    c = np.array([p[0] for p in pairs])
    w = np.array([p[1] for p in pairs])
    w = w / w.sum()
    mean_c = (w * c).sum()
    p_plus = lam * mean_c + (1 - lam) * (1 - mean_c)
    post_plus = np.concatenate([c, 1 - c])           # P(Y=+1 | response)
    weights = np.concatenate([lam * w, (1 - lam) * w])
    joint = np.vstack([weights * (1 - post_plus), weights * post_plus])
    direct = mb.info.mutual_information(joint)
    via_prop2 = mb.info.transmitted_information(c, w, prior=max(p_plus, 1 - p_plus))
    assert via_prop2 == pytest.approx(direct, abs=1e-9)
    assert mb.info.accuracy(c, w) == pytest.approx(np.maximum(joint[0], joint[1]).sum(), abs=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: mb.info.binary_entropy(1.2), r"p must lie in \[0, 1\]"),
    (lambda: mb.info.binary_entropy(np.nan), "finite"),
    (lambda: mb.info.pti(0.4), r"confidence c must lie in \[0.5, 1\]"),
    (lambda: mb.info.pti(0.7, prior=0.3), r"prior p\+ must lie in \[0.5, 1\]"),
    (lambda: mb.info.accuracy([0.6, 0.9], [0.5, 0.6]), "weights must sum to 1"),
    (lambda: mb.info.accuracy([0.6, 0.9, 0.7], [0.5, 0.5]), "one probability per confidence"),
    # one weight is not stretched over two values (it gave 1.5 and 0.560 bit)
    (lambda: mb.info.accuracy([0.6, 0.9], [1.0]), r"weights of shape \(1,\)"),
    (lambda: mb.info.transmitted_information([0.6, 0.9], [1.0]), r"weights of shape \(1,\)"),
    (lambda: mb.info.accuracy([0.7], [0.5, 0.5]), "one probability per confidence"),
    (lambda: mb.info.accuracy([[0.6, 0.9], [0.7]]), "regular shape"),
    (lambda: mb.info.entropy([0.5, 0.6]), "sum to 1"),
    (lambda: mb.info.mutual_information([0.5, 0.5]), "two dimensions"),
    (lambda: mb.info.mutual_information([[0.5, 0.5], [0.5, 0.5]]), "sum to 1"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_weights_broadcast_over_leading_axes_only():
    """Several distributions share one weight vector, or one set of values several weight
    vectors: the leading axes broadcast, the last (the values) must match."""
    assert mb.info.accuracy([[0.6, 0.9], [0.7, 0.8]], [0.5, 0.5]).tolist() == [0.75, 0.75]
    assert mb.info.accuracy([0.6, 0.9], [[0.5, 0.5], [0.2, 0.8]]).round(2).tolist() == \
        [0.75, 0.84]
