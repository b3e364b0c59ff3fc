"""What the information measures cannot see (book/meyen/09_limits): relabelling, re-coding,
binning, calibration in log-odds space, Monte Carlo summaries and L-label groups — each checked
against an independent computation."""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.special import expit, logit
from scipy.stats import norm

import metabits as mb
from metabits import binning, calibration, relabel, simulation as sim
from metabits.group import (multilabel_group_accuracy, multilabel_member, noise_member,
                            random_multilabel_members, weighted_vote_accuracy)

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
    m_a = mb.fit_meta_d(*np.asarray(table1, float)).m_ratio
    m_b = mb.fit_meta_d(*np.asarray(hand, float)).m_ratio
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
    fits = [mb.fit_meta_d(*t, pad=0.25) for t in tabs]
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
    where pandas' round(3) showed 0.852 (it rounds the scaled value half to even)."""
    chapter_rater = np.array([[6.0, 0.0, 150.0, 44.0], [1.0, 0.0, 14.0, 185.0]])
    tabs = relabel.invert_predictions(chapter_rater, columns=[2],
                                      fraction=np.linspace(0.0, 1.0, 11))
    recoded = mb.type2_measures(tabs, undefined="nan").acc
    assert np.allclose(recoded, 341 / 400, atol=1e-15)
    assert relabel.reported_measures(tabs).acc[-1] == pytest.approx(341 / 400, abs=1e-15)
    acc = float(recoded[0])
    assert f"{acc:.3f}" == "{:.3f}".format(acc) == "0.853"
    assert float(np.round(acc, 3)) == 0.852                 # the rule the tables no longer use


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


# --- binning -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["normal", "uniform"])
@pytest.mark.parametrize("acc", [0.6, 0.7, 0.8, 0.9])
def test_paper_binning_matches_the_simulation_module(kind, acc):
    np.testing.assert_allclose(binning.binned_response_probabilities(kind, acc, [0.75]),
                               sim.response_probabilities(kind, acc), atol=1e-14)


def test_binned_table_matches_binned_simulated_trials():
    t = sim.sample_trials("normal", 0.8, n_per_label=200_000, rng=5)
    edges = np.array([0.6, 0.9])
    level = np.digitize(t.confidence[0], edges)                    # 0, 1, 2
    col = np.where(t.prediction[0] > 0, 3 + level, 2 - level)
    counts = np.array([np.bincount(col[t.label[0] == y], minlength=6) for y in (-1, 1)])
    exact = binning.binned_response_probabilities("normal", 0.8, edges)
    np.testing.assert_allclose(counts / 200_000, exact, atol=4 * np.sqrt(0.25 / 200_000))


def test_fine_bins_recover_the_unbinned_information():
    edges = expit(np.linspace(0.02, 8, 400))
    for acc in (0.6, 0.8):
        info = mb.type2_measures(binning.binned_response_probabilities("normal", acc, edges)).info
        assert info == pytest.approx(mb.noise_info("normal", acc), abs=2e-4)
        assert info < mb.noise_info("normal", acc)


@given(st.lists(st.floats(0.51, 0.99), min_size=1, max_size=4, unique=True),
       st.floats(0.51, 0.99), st.floats(0.55, 0.95))
def test_another_edge_never_loses_information(edges, extra, acc):
    e = np.sort(edges)
    assume(np.all(np.diff(e) > 1e-3) and np.min(np.abs(e - extra)) > 1e-3)
    finer = np.sort(np.append(e, extra))
    coarse = mb.type2_measures(binning.binned_response_probabilities("normal", acc, e)).info
    fine = mb.type2_measures(binning.binned_response_probabilities("normal", acc, finer)).info
    assert fine >= coarse - 1e-12          # data processing inequality


def test_best_binning_against_a_grid():
    grid = np.linspace(0.505, 0.995, 981)
    for acc in (0.6, 0.9):
        info = [mb.type2_measures(binning.binned_response_probabilities("normal", acc, [e])).info
                for e in grid]
        best = binning.best_binning(acc, 2)
        assert best.info == pytest.approx(max(info), abs=1e-6)
        assert best.edges[0] == pytest.approx(grid[int(np.argmax(info))], abs=2e-3)
    three = binning.best_binning(0.7, 3)
    assert binning.best_binning(0.7, 2).info < three.info < three.info_unbinned


def test_binning_rejects_bad_edges():
    with pytest.raises(ValueError, match="increasing"):
        binning.binned_response_probabilities("normal", 0.7, [0.9, 0.8])
    with pytest.raises(ValueError, match="between 0.5 and 1"):
        binning.binned_response_probabilities("normal", 0.7, [0.5])


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


def test_weighted_vote_with_true_llrs_is_the_optimal_group():
    members = [noise_member("normal", 0.7, step=0.05), noise_member("uniform", 0.8),
               mb.confidence_member([0.6, 0.9], [0.5, 0.5])]
    with np.errstate(divide="ignore"):     # uniform noise: certain responses, infinite votes
        w = [np.log(t[1] / t[0]) for t in members]
    assert weighted_vote_accuracy(members, w) == pytest.approx(mb.pcwmv(members).acc, abs=1e-9)
    votes = [np.where(np.arange(t.shape[1]) < t.shape[1] // 2, -1.0, 1.0) for t in members]
    assert weighted_vote_accuracy([members[2]] * 5, votes[2:] * 5) == pytest.approx(
        mb.majority_vote_accuracy(0.75, 5), abs=1e-12)


def test_weighted_vote_by_brute_force():
    rng = np.random.default_rng(8)
    members = [rng.dirichlet(np.ones(4), size=2) for _ in range(3)]
    weights = [rng.normal(size=4) for _ in range(3)]
    acc = 0.0
    for r in itertools.product(range(4), repeat=3):
        s = sum(w[j] for w, j in zip(weights, r))
        for y, row in ((1, 1), (-1, 0)):
            p = 0.5 * np.prod([t[row, j] for t, j in zip(members, r)])
            acc += p * (1.0 if np.sign(s) == y else 0.5 if s == 0 else 0.0)
    assert weighted_vote_accuracy(members, weights) == pytest.approx(acc, abs=1e-12)


# --- Monte Carlo summaries ---------------------------------------------------------------------

def test_mc_standard_errors_match_the_spread_of_repeated_runs():
    rng = np.random.default_rng(11)
    x = rng.gamma(4.0, size=(4000, 200))             # 4000 independent runs of 200 values
    y = rng.gamma(8.0, size=(4000, 200))
    m, s = sim.mc_mean(x), sim.mc_sd(x)
    assert np.mean(m.se) == pytest.approx(np.std(m.value), rel=0.06)
    assert np.mean(s.se) == pytest.approx(np.std(s.value), rel=0.08)   # kurtosis-aware SE
    r = sim.mc_ratio(sim.mc_mean(y), m)
    assert np.median(r.se) == pytest.approx(np.std(r.value), rel=0.12)


def test_mc_ratio_refuses_an_unresolved_denominator():
    with pytest.raises(ValueError, match="within two"):
        sim.mc_ratio(sim.MCEstimate(0.02, 0.001, 200), sim.MCEstimate(0.0007, 0.001, 200))


# --- groups with L labels (exploration) ------------------------------------------------------

def test_multilabel_groups_with_two_labels_are_pcwmv():
    member = mb.confidence_member([0.55, 0.8, 0.95], [0.3, 0.5, 0.2])
    for K in (1, 2, 3, 4):
        assert multilabel_group_accuracy(member, K) == pytest.approx(
            mb.pcwmv([member] * K).acc, abs=1e-12)
    best = mb.max_info_classifier(0.7, [0.5, 0.5])
    upper = multilabel_member(best.values, best.weights, [0.5, 0.5])
    assert multilabel_group_accuracy(upper, 3) == pytest.approx(
        mb.group_accuracy_bounds([0.7] * 3, [0.7] * 3).upper, abs=1e-12)


def test_multilabel_group_accuracy_against_simulation():
    rng = np.random.default_rng(4)
    member = random_multilabel_members(3, 4, 1, rng=rng)[0]
    exact = multilabel_group_accuracy(member, 3)
    n = 200_000
    y = rng.integers(3, size=n)
    cum = np.cumsum(member, axis=1)
    r = np.stack([(rng.random(n)[:, None] > cum[y]).sum(1) for _ in range(3)], axis=1)
    loglik = np.log(member[:, r]).sum(axis=-1)                 # (3 labels, n)
    acc = np.mean(np.argmax(loglik, axis=0) == y)
    assert acc == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / n))


def test_multilabel_member_is_calibrated():
    worst = mb.min_info_classifier(0.5, [1 / 3] * 3)
    t = multilabel_member(worst.values, worst.weights, [1 / 3] * 3)
    post = t / t.sum(axis=0)                      # equal priors: P(y | r)
    np.testing.assert_allclose(post.T, worst.values, atol=1e-12)
    assert multilabel_group_accuracy(t, 1) == pytest.approx(0.5, abs=1e-12)


# --- the chapter's key numbers, recomputed independently ----------------------------------------

def test_chapter_group_of_three_miscalibrated_members():
    accs = (0.6, 0.7, 0.9)
    members = [binning.binned_response_probabilities("normal", a, [0.6, 0.75, 0.9]) for a in accs]
    votes = [np.repeat([-1.0, 1.0], 4)] * 3
    a, b, c = accs      # majority of three: at least two right
    mv = a * b * c + a * b * (1 - c) + a * (1 - b) * c + (1 - a) * b * c
    assert weighted_vote_accuracy(members, votes) == pytest.approx(mv, abs=1e-12)
    true_c = [mb.member_confidence(t) for t in members]
    stated = [calibration.distort_confidence(true_c[0], 3.0), true_c[1],
              calibration.distort_confidence(true_c[2], 0.4, 0.8)]
    miscal = weighted_vote_accuracy(members, [calibration.log_odds_weights(s) for s in stated])
    assert mv < miscal < mb.pcwmv(members).acc          # the chapter's ordering
    # the information measures of the members do not depend on what they state
    assert all(mb.type2_measures(t).RMI > 0 for t in members)


def test_chapter_three_label_routes():
    P3 = np.full(3, 1 / 3)
    for acc in (0.6, 0.7, 0.8):
        q = 2 * acc - 1
        vals = np.vstack([np.eye(3), [[0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]])
        w = np.r_[np.full(3, q / 3), np.full(3, (1 - q) / 3)]
        sym = multilabel_member(vals, w, P3)
        # wrong only when all three name a pair and it is the same pair: 1 - (1 - acc)^3
        assert multilabel_group_accuracy(sym, 3) == pytest.approx(1 - (1 - acc) ** 3, abs=1e-12)
        best = mb.max_info_classifier(acc, P3)
        lib = multilabel_member(best.values, best.weights, P3)
        assert mb.mutual_information(P3[:, None] * lib) == pytest.approx(
            mb.mutual_information(P3[:, None] * sym), abs=1e-9)         # same information ...
        assert multilabel_group_accuracy(lib, 3) < multilabel_group_accuracy(sym, 3) - 0.05
