"""Tests of metabits_book.oskr_claims: channel capacity against closed forms and brute force, the
capacity share against OSKR, and OSKR's blindness to calibration (the audit chapter's 'Claims in
words')."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import metabits as mb
from metabits_book import oskr_claims
from metabits_book import paper_numbers as pn

rate = st.floats(0.0, 1.0)


def _h2(p):
    p = np.clip(p, 1e-300, 1.0)
    q = np.clip(1 - p, 1e-300, 1.0)
    return -(p * np.log2(p) + q * np.log2(q))


def test_capacity_of_the_symmetric_and_z_channels_in_closed_form():
    eps = np.linspace(0.01, 0.49, 25)
    c = oskr_claims.channel_capacity(1 - eps, eps)
    np.testing.assert_allclose(c.capacity, 1 - _h2(eps), atol=1e-12)
    np.testing.assert_allclose(c.prevalence, 0.5, atol=1e-6)
    f = np.linspace(0.05, 0.95, 19)          # Z-channel: a success is always reported as one
    z = oskr_claims.channel_capacity(1.0, f)
    np.testing.assert_allclose(z.capacity, np.log2(1 + (1 - f) * f ** (f / (1 - f))), atol=1e-12)


@given(rate, rate)
def test_capacity_is_the_maximum_over_a_grid(hit, fa):
    pi = np.linspace(0.0005, 0.9995, 2000)
    mi = np.asarray(mb.oskr.binary_channel(pi, hit, fa).mutual_info)
    c = oskr_claims.channel_capacity(hit, fa)
    assert c.capacity >= mi.max() - 1e-12
    assert c.capacity <= mi.max() + 1e-5


@given(st.floats(0.02, 0.98), rate, rate)
def test_capacity_share_and_oskr_have_the_same_numerator(p, hit, fa):
    assume(abs(hit - fa) > 1e-3)
    ch = mb.oskr.binary_channel(p, hit, fa)
    share = oskr_claims.capacity_share(p, hit, fa)
    cap = oskr_claims.channel_capacity(hit, fa).capacity
    assert 0 <= share <= 1
    assert share * cap == pytest.approx(ch.oskr * ch.h_outcome, abs=1e-9)


def test_a_symmetric_channel_at_a_balanced_outcome_uses_all_its_capacity():
    lab = mb.oskr.feedback_channel(*pn.ROBERTS_LAB)
    eff = float(lab.error_effective)
    assert oskr_claims.capacity_share(0.5, 1 - eff, eff) == pytest.approx(1.0, abs=1e-9)
    assert lab.oskr < 0.5                      # ... while its OSKR is low: not the same quantity


def test_audit_chapter_capacity_statements():
    acc, _, wrong = pn.ROBERTS_ALPHA
    hit = mb.oskr.hit_rate_for_oskr(pn.ROBERTS_ALPHA[1], acc, wrong)
    share = oskr_claims.capacity_share(acc, hit, wrong)
    assert share > mb.oskr.binary_channel(acc, hit, wrong).oskr + 0.05
    acc_b, t_b, w_b = pn.ROBERTS_BETA
    hit_b = mb.oskr.hit_rate_for_oskr(t_b, acc_b, w_b)
    assert oskr_claims.capacity_share(acc_b, hit_b, w_b) > 4 * t_b


def test_a_useless_channel_has_no_share():
    assert oskr_claims.channel_capacity(0.3, 0.3).capacity == 0
    assert np.isnan(oskr_claims.capacity_share(0.5, 0.3, 0.3))


@given(st.floats(0.05, 0.95), st.floats(0.01, 0.99), st.floats(0.01, 0.99),
       st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_oskr_cannot_see_what_the_reports_state(p, hit, fa, s1, s2):
    """Any statements attached to the reports: the calibration gap changes, OSKR does not."""
    joint = mb.oskr.binary_channel(p, hit, fa).confusion
    observed = joint[0] / joint.sum(axis=0)
    assert oskr_claims.calibration_gap(joint, observed) == pytest.approx(0, abs=1e-12)
    gap = oskr_claims.calibration_gap(joint, [s1, s2])
    m = joint.sum(axis=0)
    assert gap == pytest.approx(np.sum(m * np.abs(np.array([s1, s2]) - observed)), abs=1e-12)
    assert mb.oskr_from_table(joint).oskr == pytest.approx(mb.oskr.binary_channel(p, hit, fa).oskr)


def test_calibration_gap_rejects_bad_input():
    with pytest.raises(ValueError, match="2 × k"):
        oskr_claims.calibration_gap([[1, 2, 3]], [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="one value per"):
        oskr_claims.calibration_gap([[1, 2], [3, 4]], [0.5])
    with pytest.raises(ValueError):
        oskr_claims.calibration_gap([[1, 2], [3, 4]], [0.5, 1.5])
    with pytest.raises(ValueError):
        oskr_claims.channel_capacity(1.2, 0.1)


def test_one_sided_detector_reading_of_the_explorer():
    """The audit's second reading of the explorer's 0.60: OSKR 0.60999..., 0.61 rounded, 0.60
    cut."""
    v = pn.one_sided_detector_oskr(0.5, 0.8)
    # by hand: flagged trials (40%) are failures for sure; the rest are 5/6 successes
    assert v == pytest.approx(1 - 0.6 * _h2(1 / 6), abs=1e-12)
    assert f"{v:.2f}" == "0.61" and np.floor(100 * v) / 100 == 0.60
