"""metabits.reliability: split halves, Spearman-Brown reliability, within-person correlations,
paired Cohen's d, correlations per group, ICC(3,1) and redrawn confidence.

Independent checks: scipy's Spearman correlation, numpy's corrcoef, Cohen's d and a two-way
ANOVA written out with pandas, Shrout & Fleiss's (1979) worked example of ICC(3,1), and the
binomial law of the redrawn share.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, spearmanr

from metabits.reliability import (group_correlations, icc, odd_even_halves, paired_cohens_d,
                                  random_halves, redraw_confidence, spearman_brown,
                                  split_half_reliability, within_person_correlation)


def test_random_halves_split_every_group_in_half():
    groups = [np.arange(0, 7), np.arange(7, 10), np.arange(10, 20)]
    h = random_halves(groups, 20, n_splits=5, rng=3)
    assert h.shape == (5, 20) and set(np.unique(h)) <= {0, 1}
    for g in groups:
        assert np.all(h[:, g].sum(axis=1) == g.size // 2)
    assert not np.all(h[0] == h[1])                      # splits differ
    assert np.array_equal(h, random_halves(groups, 20, n_splits=5, rng=3))


def test_random_halves_consume_one_permutation_per_group_and_split():
    # the people chapter's glued reliabilities rely on this order of draws
    groups = [np.array([0, 2, 4]), np.array([1, 3, 5, 6])]
    rng = np.random.default_rng(9)
    want = np.empty((2, 7), dtype=int)
    for s in range(2):
        for g in groups:
            part = np.zeros(g.size, dtype=int)
            part[rng.permutation(g.size)[: g.size // 2]] = 1
            want[s, g] = part
    assert np.array_equal(random_halves(groups, 7, n_splits=2, rng=9), want)


def test_split_half_reliability_is_spearman_brown_of_the_mean_correlation():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 16, 3))
    b = a + rng.normal(size=(4, 16, 3))
    b[0, :10, 2] = np.nan                                # split 0 leaves condition 2 (6 people)
    r = np.array([[spearmanr(a[s, :, j], b[s, :, j]).statistic for j in range(3)]
                  for s in range(4)])
    mean = np.array([r[:, 0].mean(), r[:, 1].mean(), r[1:, 2].mean()])
    assert np.allclose(split_half_reliability(a, b), 2 * mean / (1 + mean), atol=1e-12)


def test_split_half_reliability_nan_where_no_split_qualifies():
    a = np.arange(5.0)[None, :, None] * np.ones((2, 5, 1))
    assert np.isnan(split_half_reliability(a, a))        # 5 people < min_people = 8
    assert split_half_reliability(a, a, min_people=5) == pytest.approx(1.0)


def test_within_person_correlation():
    rng = np.random.default_rng(2)
    x = rng.random((6, 5))
    y = x + 0.3 * rng.normal(size=(6, 5))
    y[0, :3] = np.nan                                    # person 0 has 2 values: left out
    rhos = np.array([spearmanr(x[i], y[i]).statistic for i in range(1, 6)])
    r = within_person_correlation(y, x)
    assert r.n_people == 5
    assert r.mean == pytest.approx(rhos.mean(), abs=1e-12)
    assert r.se == pytest.approx(rhos.std(ddof=1) / np.sqrt(5), abs=1e-12)


def test_within_person_correlation_leaves_out_a_constant_person():
    """A person whose y (or x) does not vary has no rho; that person is left out, as one with
    too few values (the mean and SE were NaN)."""
    y = np.array([[0.1, 0.2, 0.3, 0.4], [0.3, 0.3, 0.3, 0.3], [0.4, 0.3, 0.2, 0.5],
                  [0.1, 0.3, 0.2, 0.4]])
    x = np.array([[0.6, 0.7, 0.8, 0.9], [0.55, 0.65, 0.8, 0.95], [0.6, 0.6, 0.6, 0.6],
                  [0.6, 0.7, 0.8, 0.9]])
    r = within_person_correlation(y, x)
    rhos = np.array([spearmanr(x[i], y[i]).statistic for i in (0, 3)])
    assert r.n_people == 2 and np.isfinite(r.mean) and np.isfinite(r.se)
    assert r.mean == pytest.approx(rhos.mean(), abs=1e-12)
    with pytest.raises(ValueError, match="not all equal"):
        within_person_correlation(y[:3], x[:3])      # one person left


@pytest.mark.parametrize("call, match", [
    (lambda: random_halves([[0, 1], [1, 2]], 3), "once each"),
    (lambda: random_halves([[0, 1]], 3), "once each"),
    (lambda: random_halves([[0, 1]], 2, n_splits=0), "n_splits"),
    (lambda: split_half_reliability(np.ones((2, 8)), np.ones((2, 9))), "one shape"),
    (lambda: split_half_reliability(np.full((2, 8), np.inf), np.ones((2, 8))), "finite"),
    (lambda: within_person_correlation(np.ones((3, 4)), np.ones((3, 5))), "one shape"),
    (lambda: within_person_correlation(np.ones((1, 4)), np.ones((1, 4))), "fewer than two"),
    (lambda: within_person_correlation(np.ones((3, 4)), np.ones((3, 4)), min_points=2),
     "min_points"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: random_halves([[0, 1], [2.0, 3]], 4), "groups"),
    (lambda: random_halves("abc", 3), "groups must be a sequence"),
    (lambda: random_halves([[0, 1, 2]], 3, n_splits=10 ** 8), "at most"),
    (lambda: split_half_reliability([[True, False, True]], [[1.0, 2.0, 3.0]]), "first"),
    (lambda: within_person_correlation(np.full((3, 4), np.inf), np.ones((3, 4))), "y must be"),
])
def test_bad_input_refused_where_it_enters(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_random_halves_keep_empty_groups():
    h = random_halves([[0, 1, 2, 3], [], [4, 5]], 6, n_splits=2, rng=1)
    assert h[:, :4].sum(axis=1).tolist() == [2, 2] and h[:, 4:].sum(axis=1).tolist() == [1, 1]


# --- odd and even halves ---------------------------------------------------------------------

def test_odd_even_halves_alternate_within_each_group_in_its_order():
    groups = [np.array([5, 0, 3]), np.array([1, 2, 4, 6])]
    h = odd_even_halves(groups, 7)
    assert h.shape == (1, 7)
    assert h[0, [5, 0, 3]].tolist() == [1, 0, 1]          # the group's 1st, 2nd, 3rd trial
    assert h[0, [1, 2, 4, 6]].tolist() == [1, 0, 1, 0]
    assert odd_even_halves([[], [0, 1]], 2).tolist() == [[1, 0]]


def test_odd_even_halves_feed_split_half_reliability():
    """One split: the reliability is Spearman–Brown of Spearman's correlation of the halves."""
    rng = np.random.default_rng(3)
    people, trials = 12, 40
    skill = rng.normal(size=people)
    score = skill[:, None] + rng.normal(size=(people, trials))
    groups = [np.arange(p * trials, (p + 1) * trials) for p in range(people)]
    h = odd_even_halves(groups, people * trials)[0].reshape(people, trials)
    first = np.array([score[p, h[p] == 1].mean() for p in range(people)])
    second = np.array([score[p, h[p] == 0].mean() for p in range(people)])
    assert np.allclose(first, score[:, 0::2].mean(1)) and np.allclose(second, score[:, 1::2].mean(1))
    r = spearmanr(first, second).statistic
    assert split_half_reliability(first[None], second[None]) == pytest.approx(2 * r / (1 + r),
                                                                             abs=1e-12)


# --- Spearman–Brown --------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.floats(-0.99, 1.0), st.floats(0.1, 10.0))
def test_spearman_brown_is_the_reliability_of_k_parallel_parts(r, k):
    """Stepping up by k then by 1/k gives r back; with r > 0 a longer test is more reliable."""
    up = spearman_brown(r, k)
    if 1 + (k - 1) * r > 1e-6 and abs(up) <= 1:
        assert spearman_brown(up, 1 / k) == pytest.approx(r, abs=1e-9)
    if r > 0 and k > 1:
        assert r - 1e-12 <= up <= 1 + 1e-12


def test_spearman_brown_of_a_split_half():
    assert spearman_brown(0.6) == pytest.approx(0.75, abs=1e-15)
    out = spearman_brown(np.array([0.2, np.nan, 1.0]))
    assert out[0] == pytest.approx(0.4 / 1.2) and np.isnan(out[1]) and out[2] == 1.0


# --- paired Cohen's d and correlations per group -----------------------------------------------

def test_paired_cohens_d_by_group_and_over_measures():
    a = np.array([1.0, 2, 3, 4, 5, 6])
    b = a + np.array([1.0, 2, 1, 2, 1, np.nan])
    d = paired_cohens_d(a, b, groups=[0, 0, 0, 1, 1, 1])
    x = np.array([1.0, 2, 1])
    assert d[0] == pytest.approx(x.mean() / x.std(ddof=1), abs=1e-12)
    assert np.isnan(d[1])                                  # two complete pairs only
    assert paired_cohens_d(a, b, groups=[0, 0, 0, 1, 1, 1], min_people=2)[1] == \
        pytest.approx(1.5 / np.sqrt(0.5), abs=1e-12)       # differences 2 and 1
    # measures on a trailing axis: each column as its own call
    rng = np.random.default_rng(5)
    A, B = rng.normal(size=(30, 3)), rng.normal(0.4, 1, size=(30, 3))
    B[[2, 7], 1] = np.inf                                   # undefined: left out
    g = np.repeat(["x", "y", "z"], 10)
    both = paired_cohens_d(A, B, g)
    assert both.shape == (3, 3)
    for j in range(3):
        assert np.allclose(both[:, j], paired_cohens_d(A[:, j], B[:, j], g), atol=1e-12)
        diff = B[:10, j] - A[:10, j]
        diff = diff[np.isfinite(diff)]
        assert both[0, j] == pytest.approx(diff.mean() / diff.std(ddof=1), abs=1e-12)
    assert np.isnan(paired_cohens_d([1.0, 2, 3], [2.0, 3, 4]))    # the differences do not vary


def test_group_correlations_are_pearsons_r_per_group():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=40), rng.normal(size=40)
    g = np.repeat(["b", "a"], 20)
    r = group_correlations(x, y, g)
    assert r[0] == pytest.approx(np.corrcoef(x[20:], y[20:])[0, 1], abs=1e-12)  # "a" first
    assert r[1] == pytest.approx(np.corrcoef(x[:20], y[:20])[0, 1], abs=1e-12)
    assert np.isnan(group_correlations(x[:5], y[:5]))       # fewer than min_people = 10
    assert np.isnan(group_correlations(np.ones(12), y[:12]))  # x does not vary
    y2 = y.copy()
    y2[3] = np.nan
    keep = np.arange(40) != 3
    assert group_correlations(x, y2, min_people=3) == pytest.approx(
        np.corrcoef(x[keep], y[keep])[0, 1], abs=1e-12)


# --- ICC(3,1) ---------------------------------------------------------------------------------

def test_icc_shrout_fleiss_example():
    """Shrout & Fleiss (1979), Table 2: six targets rated by four judges; ICC(3,1) = .71."""
    x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    assert abs(icc(x) - 0.71) <= 0.005                      # the paper prints two decimals


def test_icc_equals_a_two_way_anova_and_ignores_people_with_nan():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(9, 3)) + rng.normal(size=(9, 1)) * 2
    long = pd.DataFrame({"v": x.ravel(), "p": np.repeat(np.arange(9), 3),
                         "s": np.tile(np.arange(3), 9)})
    g = long.v.mean()
    ss_p = 3 * ((long.groupby("p").v.mean() - g) ** 2).sum()
    ss_s = 9 * ((long.groupby("s").v.mean() - g) ** 2).sum()
    ss_e = ((long.v - g) ** 2).sum() - ss_p - ss_s
    ms_p, ms_e = ss_p / 8, ss_e / 16
    assert icc(x) == pytest.approx((ms_p - ms_e) / (ms_p + 2 * ms_e), rel=1e-12)
    y = np.vstack([x, [np.nan, 1.0, 2.0]])
    assert icc(y) == pytest.approx(icc(x), rel=1e-12)
    assert np.isnan(icc([[1.0, 2.0], [2.0, 3.0]]))          # fewer than three people
    # a trailing axis of measures: each its own ICC, people with NaN left out per measure
    z = np.stack([x, x[:, ::-1] * 2, np.vstack([x[:8], [[np.nan, 0.0, 0.0]]])], -1)
    assert np.allclose(icc(z), [icc(x), icc(x[:, ::-1]), icc(x[:8])], atol=1e-12)


@pytest.mark.parametrize("bad", [[1.0, 2.0], [[1.0], [2.0], [3.0]], [[1, np.inf], [2, 3], [3, 4]],
                                 "ab"])
def test_icc_refuses(bad):
    with pytest.raises(ValueError, match="x"):
        icc(bad)


# --- redrawn confidence ---------------------------------------------------------------------

def test_redraw_confidence_redraws_the_share_and_keeps_the_levels():
    rng = np.random.default_rng(8)
    K = np.repeat([2, 4, 6], 4000)
    conf = np.minimum(rng.integers(1, 7, K.size), K)
    new = redraw_confidence(conf, K, 0.3, rng=1)
    assert new.shape == conf.shape and (new >= 1).all() and (new <= K).all()
    # a redrawn trial keeps its level with probability 1/K: P(changed) = 0.3 (1 − 1/K)
    for k in (2, 4, 6):
        m = K == k
        changed = int((new[m] != conf[m]).sum())
        assert binomtest(changed, int(m.sum()), 0.3 * (1 - 1 / k)).pvalue > 1e-4
        # the new levels of changed trials are uniform over the other K − 1 levels
        assert set(np.unique(new[m & (new != conf)])) == set(range(1, k + 1))
    assert np.array_equal(redraw_confidence(conf, K, 0.0, rng=2), conf)
    assert np.array_equal(redraw_confidence(conf, K, 0.3, rng=1), new)     # seeded


def test_redraw_confidence_consumes_two_uniforms_per_trial():
    conf, gen = np.array([1, 2, 3, 3, 2]), np.random.default_rng(4)
    u = np.random.default_rng(4).random((2, 5))
    want = np.where(u[0] < 0.5, np.minimum((u[1] * 3).astype(int), 2) + 1, conf)
    assert np.array_equal(redraw_confidence(conf, 3, 0.5, gen), want)


@pytest.mark.parametrize("call, match", [
    (lambda: redraw_confidence([1, 5], 4, 0.2), "confidence"),
    (lambda: redraw_confidence([1, 2], [3, 3, 3], 0.2), "n_levels"),
    (lambda: redraw_confidence([1, 2], 1, 0.2), "n_levels"),
    (lambda: redraw_confidence([1, 2], 3, 1.2), "fraction"),
    (lambda: paired_cohens_d([1.0, 2.0], [1.0, 2.0, 3.0]), "one shape"),
    (lambda: paired_cohens_d([1.0, 2.0], [1.0, 2.0], groups=[0, 1, 1]), "groups"),
    (lambda: group_correlations(np.ones(12), np.ones(12), min_people=2), "min_people"),
    (lambda: spearman_brown(1.5), "r must be correlations"),
    (lambda: spearman_brown(0.5, factor=0), "factor"),
    (lambda: odd_even_halves([[0, 1], [1]], 2), "once each"),
])
def test_bad_input_of_the_criteria(call, match):
    with pytest.raises(ValueError, match=match):
        call()
