"""Binary self-assessment channels (metabits.oskr) and OSKR ≡ meta-I₂ʳ.

Independent checks: the closed forms against OSKR of the channel's own joint table computed from
counts, H(T | S) = H₂(ε_eff) at prevalence 0.5, round trips of the inverse functions, and
Meyen et al.'s meta-I₂ʳ (metabits.type2_measures) for the identity.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

import metabits as mb

unit = st.floats(0.0, 1.0)
inner = st.floats(0.01, 0.99)


@given(inner, unit, unit)
def test_binary_channel_matches_oskr_of_its_joint_table(pi, hit, fa):
    r = mb.oskr.binary_channel(pi, hit, fa)
    assert r.confusion.sum() == pytest.approx(1.0)
    est = mb.oskr_from_table(r.confusion * 1e6) if r.h_outcome >= 0.1 else None
    if est is not None:
        assert r.oskr == pytest.approx(est.oskr, abs=1e-9)
        assert r.h_outcome_given_signal == pytest.approx(est.h_outcome_given_signal, abs=1e-9)
    assert r.h_outcome == pytest.approx(stats.entropy([pi, 1 - pi], base=2))
    assert 0 <= r.oskr <= 1 + 1e-12


@given(unit, unit)
def test_feedback_lab_at_balanced_outcomes(eps, g):
    r = mb.oskr.feedback_channel(0.5, eps, g)
    eff = eps * (1 - g)
    assert r.error_effective == pytest.approx(eff)
    h2 = stats.entropy([eff, 1 - eff], base=2) if 0 < eff < 1 else 0.0
    assert r.h_outcome == pytest.approx(1.0)
    assert r.h_outcome_given_signal == pytest.approx(h2, abs=1e-12)
    assert r.oskr == pytest.approx(1 - h2, abs=1e-12)
    assert np.allclose(r.confusion, [[0.5 * (1 - eff), 0.5 * eff], [0.5 * eff, 0.5 * (1 - eff)]])


def test_feedback_channel_broadcasts_over_a_grid():
    eps, g = np.meshgrid(np.linspace(0, 0.5, 6), np.linspace(0, 1, 5))
    r = mb.oskr.feedback_channel(0.5, eps, g)
    assert r.oskr.shape == (5, 6) and r.confusion.shape == (5, 6, 2, 2)
    assert np.all(np.diff(r.oskr, axis=1) <= 1e-12)  # more error, less OSKR
    assert np.all(np.diff(r.oskr, axis=0) >= -1e-12)  # more gain, more OSKR


@given(st.floats(0.0, 1.0), st.floats(0.05, 0.95))
def test_effective_error_round_trip(target, pi):
    eff = mb.oskr.effective_error_for_oskr(target, pi)
    assert 0 <= eff <= 0.5
    assert mb.oskr.feedback_channel(pi, eff, 0.0).oskr == pytest.approx(target, abs=1e-9)


@given(st.floats(0.05, 0.95), st.floats(0.0, 0.9), st.floats(0.0, 1.0))
def test_hit_rate_round_trip(pi, fa, frac):
    best = mb.oskr.binary_channel(pi, 1.0, fa).oskr
    target = frac * best
    hit = mb.oskr.hit_rate_for_oskr(target, pi, fa)
    assert fa - 1e-12 <= hit <= 1
    assert mb.oskr.binary_channel(pi, hit, fa).oskr == pytest.approx(target, abs=1e-9)


def test_unreachable_targets_and_bad_input_are_refused():
    with pytest.raises(ValueError, match="largest OSKR it allows"):
        mb.oskr.hit_rate_for_oskr(0.9, 0.72, 0.09)
    with pytest.raises(ValueError, match="H\\(T\\) = 0"):
        mb.oskr.feedback_channel(1.0, 0.2, 0.3)
    with pytest.raises(ValueError, match="verifier gain"):
        mb.oskr.feedback_channel(0.5, 0.2, 1.3)
    with pytest.raises(ValueError, match="target OSKR"):
        mb.oskr.effective_error_for_oskr(1.2)


# --- OSKR of correctness given the response is meta-I₂ʳ ------------------------------------------

@st.composite
def majority_tables(draw):
    """2 × 2K count tables in which each response's predicted label is its column's majority."""
    k = draw(st.integers(1, 3))
    pairs = draw(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), min_size=2 * k,
                          max_size=2 * k))
    big = np.array([max(p) for p in pairs])
    small = np.array([min(p) for p in pairs])
    return np.vstack([np.r_[big[:k], small[k:]], np.r_[small[:k], big[k:]]])


def _predictions_are_majorities(counts):
    k = counts.shape[1] // 2
    return bool(np.all(counts[0, :k] >= counts[1, :k]) and np.all(counts[1, k:] >= counts[0, k:]))


@given(majority_tables())
def test_oskr_of_correctness_is_meta_I2r(counts):
    assert _predictions_are_majorities(counts)
    assume(np.all(counts.sum(axis=1) > 0))
    m = mb.type2_measures(counts, undefined="nan")
    assume(m.acc < 1.0 and m.H_acc > 0.1)
    ours = mb.oskr_from_table(mb.oskr.correctness_table(counts))
    assert ours.oskr == pytest.approx(m.meta_I2r, abs=1e-10)
    assert ours.h_outcome == pytest.approx(m.H_acc, abs=1e-12)
    assert ours.mutual_info == pytest.approx(m.meta_I, abs=1e-12)


def test_identity_on_meyen_table1(table1):
    counts = np.array(table1)
    assert mb.oskr_from_table(mb.oskr.correctness_table(counts)).oskr == pytest.approx(
        mb.type2_measures(counts).meta_I2r, abs=1e-12)


def test_identity_needs_majority_predictions():
    """A response whose predicted label is the rarer one: meta-I₂ʳ recodes it, OSKR does not."""
    counts = np.array([[30, 10, 20, 5], [10, 40, 20, 60]])  # column 2 predicts −1, mostly +1
    assert not _predictions_are_majorities(counts)
    ours = mb.oskr_from_table(mb.oskr.correctness_table(counts)).oskr
    assert abs(ours - mb.type2_measures(counts).meta_I2r) > 0.01
