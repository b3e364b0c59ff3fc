"""metabits.reliability: split halves, Spearman-Brown reliability, within-person correlations."""

import numpy as np
import pytest
from scipy.stats import spearmanr

from metabits.reliability import random_halves, split_half_reliability, within_person_correlation


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
