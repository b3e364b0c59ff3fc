"""Linear-in-log-odds distortion and recalibration (metabits.info; Zhang & Maloney, 2012).

Part of book/meyen/09_limits: the fit against scikit-learn's unpenalised logistic regression and
a known distortion, the inverse map exactly, and the chapter's group of three miscalibrated
members (majority of three by hand).
"""

import numpy as np
import pytest
from scipy.special import expit, logit

import metabits as mb
from metabits.info import _binning as binning
from metabits.info import _calibration as calibration
from metabits.group import weighted_vote_accuracy


# --- calibration in log-odds space -----------------------------------------------------------

def test_log_odds_fit_recovers_a_known_distortion():
    rng = np.random.default_rng(3)
    c = expit(np.abs(rng.normal(1.0, 1.0, 200_000) * 2.0))       # calibrated confidences
    correct = rng.random(c.size) < c
    gamma, p0 = 1.8, 0.65
    stated = calibration.distort_confidence(c, gamma, p0)
    fit = calibration.fit_log_odds_map(stated, correct)
    assert fit.slope == pytest.approx(1 / gamma, abs=0.02)
    assert fit.intercept == pytest.approx(-(1 - gamma) * logit(p0) / gamma, abs=0.03)
    np.testing.assert_allclose(fit.apply(stated), c, atol=0.01)
    # the same fit by scikit-learn's unpenalised logistic regression
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=np.inf, tol=1e-10, max_iter=1000).fit(
        logit(stated)[:, None], correct)
    assert fit.slope == pytest.approx(lr.coef_[0, 0], abs=1e-4)
    assert fit.intercept == pytest.approx(lr.intercept_[0], abs=1e-4)


def test_distortion_is_undone_exactly_by_its_inverse_map():
    c = np.linspace(0.51, 0.99, 9)
    s = calibration.distort_confidence(c, 0.4, 0.8)
    inverse = calibration.LogOddsMap(slope=1 / 0.4, intercept=-(1 - 0.4) * logit(0.8) / 0.4)
    np.testing.assert_allclose(inverse.apply(s), c, atol=1e-12)


def test_log_odds_fit_refuses_separable_records():
    with pytest.raises(ValueError, match="separates"):
        calibration.fit_log_odds_map([0.6, 0.6, 0.9, 0.9], [0, 0, 1, 1])


def test_chapter_group_of_three_miscalibrated_members():
    accs = (0.6, 0.7, 0.9)
    members = [binning.binned_response_probabilities("normal", a, [0.6, 0.75, 0.9]) for a in accs]
    votes = [np.repeat([-1.0, 1.0], 4)] * 3
    a, b, c = accs      # majority of three: at least two right
    mv = a * b * c + a * b * (1 - c) + a * (1 - b) * c + (1 - a) * b * c
    assert weighted_vote_accuracy(members, votes) == pytest.approx(mv, abs=1e-12)
    true_c = [mb.group.member_confidence(t) for t in members]
    stated = [calibration.distort_confidence(true_c[0], 3.0), true_c[1],
              calibration.distort_confidence(true_c[2], 0.4, 0.8)]
    miscal = weighted_vote_accuracy(members, [calibration.log_odds_weights(s) for s in stated])
    assert mv < miscal < mb.group.pcwmv(members).acc          # the chapter's ordering
    # the information measures of the members do not depend on what they state
    assert all(mb.type2_measures(t).RMI > 0 for t in members)
