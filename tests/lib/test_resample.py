"""metabits.resample: the one multinomial resampler and the intervals from its replicates."""

import numpy as np
import pytest
from scipy import stats

from metabits.resample import bca_interval, multinomial_rows, percentile_interval, quantiles


ROWS = np.array([[30, 50, 70, 50], [84, 56, 48, 12], [1, 2, 3, 194], [0, 100, 0, 100],
                 [150, 20, 20, 10]])


def test_rows_keep_their_totals_and_shape():
    x = multinomial_rows(ROWS.reshape(5, 1, 4), 50, rng=1)
    assert x.shape == (50, 5, 1, 4)
    assert np.all(x.sum(axis=-1) == ROWS.sum(axis=-1)[:, None])
    assert x.dtype == np.int64


def test_seeded_and_reproducible():
    a = multinomial_rows(ROWS, 20, rng=3)
    b = multinomial_rows(ROWS, 20, rng=np.random.default_rng(3))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, multinomial_rows(ROWS, 20, rng=4))


def test_empty_categories_stay_empty_and_a_full_one_keeps_everything():
    x = multinomial_rows([[0, 7, 0, 0], [0, 100, 0, 100]], 200, rng=2)
    assert np.all(x[:, 0] == [0, 7, 0, 0])
    assert np.all(x[:, 1, [0, 2]] == 0)


def test_every_marginal_and_partial_sum_is_the_right_binomial():
    # each category, and each sum of categories, of a multinomial row is Bin(n, p): chi-square
    # goodness of fit of 200,000 resamples, 0.1 % level per test
    m = 200_000
    x = multinomial_rows(ROWS, m, rng=7)
    for r, row in enumerate(ROWS):
        n, p = row.sum(), row / row.sum()
        for subset in [(0,), (1,), (2,), (3,), (0, 1), (1, 2)]:
            q = p[list(subset)].sum()
            v = x[:, r, list(subset)].sum(axis=-1)
            if q in (0.0, 1.0):
                assert np.all(v == n * q)
                continue
            expected = stats.binom.pmf(np.arange(n + 1), n, q) * m
            observed = np.bincount(v, minlength=n + 1)
            keep = expected > 5
            o = np.append(observed[keep], observed[~keep].sum())
            e = np.append(expected[keep], expected[~keep].sum())
            assert stats.chisquare(o, e * o.sum() / e.sum()).pvalue > 1e-3, (row, subset)


@pytest.mark.parametrize("rows, m", [
    # many draws per row: the kernel's guide tables
    ([[30, 50, 70, 50], [84, 56, 48, 12], [1, 2, 3, 194], [900, 1100, 700, 500]], 20_000),
    # few draws of rows of 32,000 trials: each draw bisects its distribution function
    ([[9000, 11000, 7000, 5000], [20, 31000, 900, 80]], 50),
])
def test_each_draw_inverts_the_binomial_distribution_function(rows, m):
    # the module's stream: category j of a resampled row is the smallest x with
    # F(x) >= u for the row's j-th uniform, F that of Bin(trials left, c_j / sum of c_i, i >= j)
    # (drawn as the complement, Bin(trials left, 1 - q), when q > 1/2); scipy's binom.ppf
    # inverts the same function, so every draw must agree exactly
    rows = np.array(rows)
    x = multinomial_rows(rows, m, rng=11)
    u = np.random.default_rng(11).random((len(rows), 3, m))
    for r, row in enumerate(rows):
        left, rest = np.full(m, row.sum()), row.sum()
        for j in range(3):
            q = row[j] / rest
            rest -= row[j]
            expected = (stats.binom.ppf(u[r, j], left, q) if q <= 0.5
                        else left - stats.binom.ppf(u[r, j], left, 1 - q))
            assert np.array_equal(x[:, r, j], expected), (row, j)
            left = left - x[:, r, j]


def test_covariances_are_multinomial():
    m = 100_000
    row = np.array([30, 50, 70, 50])
    x = multinomial_rows(row, m, rng=5)
    n, p = row.sum(), row / row.sum()
    cov = n * (np.diag(p) - np.outer(p, p))
    assert np.allclose(np.cov(x.T), cov, atol=0.5)   # SE of each entry about 0.15


def test_large_rows():
    x = multinomial_rows([[10**6, 3 * 10**6]], 2000, rng=1)
    assert np.all(x.sum(axis=-1) == 4 * 10**6)
    assert abs(x[:, 0, 0].mean() - 10**6) < 5 * np.sqrt(0.1875 * 4e6 / 2000)
    # a row of a million trials in four categories is within the tables' limit
    assert multinomial_rows(np.array(ROWS[1]) * 5000, 20, rng=1).shape == (20, 4)


def test_table_bound_holds_for_the_kernel(monkeypatch):
    """table_entries bounds every table the compiled kernel allocates (run here as plain
    Python with numpy's np.empty recorded), from above and within a small factor."""
    import metabits._resampling as r

    sizes = []

    class Numpy:
        def __getattr__(self, name):
            return getattr(np, name)

        def empty(self, n, dtype=float):
            sizes.append(n)
            return np.empty(n, dtype)

    monkeypatch.setattr(r, "np", Numpy())
    for row in ([84, 56, 48, 12], [4, 56, 64, 76], [30, 50, 70, 50, 20, 40], [1, 2, 3, 194],
                [0, 100, 0, 100], [500, 0, 500], [120, 80]):
        counts = np.array([row])
        u = np.random.default_rng(sum(row)).random((1, len(row) - 1, 400))
        sizes.clear()
        r._draw_rows(counts, u, np.empty((1, len(row), 400), dtype=np.int64))
        bound = r.table_entries(counts)[0]
        grown = max(sizes[3:], default=1)  # after left, and the first table and guide
        assert grown <= bound <= 10 * grown + 100, (row, grown, bound)


@pytest.mark.parametrize("scale, m", [(10 ** 7, 20), (1e12, 20)])
def test_rows_too_large_for_the_tables_are_refused_before_drawing(scale, m):
    # Table 1 times 10**7 asked for some 2·10**11 numbers of tables: a MemoryError
    with pytest.raises(ValueError, match=r"a row of counts of [\d,]+ trials \(\[8.4e\+"
                                         r".*at most 100,000,000"):
        multinomial_rows(np.array(ROWS[1:2]) * scale, m, rng=1)


@pytest.mark.parametrize("counts, m, match", [
    ([[1.5, 2]], 10, "whole numbers"),
    ([[-1, 2]], 10, "non-negative"),
    ([[np.nan, 2]], 10, "finite"),
    (5, 10, "last axis"),
    ([[1, 2]], 0, "m must be an integer >= 1"),
    ([[1, 2]], 2.0, "m must be an integer"),
    ([[1, 2]], 10 ** 8, r"m = 100,000,000 resamples of 2 counts .* at most 100,000,000"),
])
def test_bad_input(counts, m, match):
    with pytest.raises(ValueError, match=match):
        multinomial_rows(counts, m, rng=1)


def test_intervals_take_one_value_per_statistic():
    """The shape checks of the intervals accept what the per-statistic forms need: replicates
    on any axis, one estimate, acceleration and probability per statistic."""
    reps = np.random.default_rng(0).normal(size=(3, 200))          # 3 statistics, axis 1
    lo, hi = percentile_interval(reps, 0.9, axis=1)
    assert np.allclose(lo, np.quantile(reps, 0.05, axis=1), atol=1e-12)
    assert np.allclose(hi, np.quantile(reps, 0.95, axis=1), atol=1e-12)
    lo, hi = bca_interval(reps.T, np.zeros(3), [0.0, 0.0, 0.0], 0.9)
    assert lo.shape == (3,) and np.all(lo < 0) and np.all(hi > 0)
    q = np.array([[0.1, 0.2, 0.3], [0.9, 0.8, 0.7]])                # 2 quantiles per statistic
    got = quantiles(reps.T, q)
    want = [[np.quantile(reps[j], q[i, j]) for j in range(3)] for i in range(2)]
    assert np.allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: quantiles([1.0, 2.0], [[0.5, 0.6]]), "q must be"),
    (lambda: bca_interval(np.ones((5, 3)), [0.0, 1.0]),
     "estimate must be one value or one per statistic"),
    (lambda: percentile_interval([True, False]), "reps must be"),
    (lambda: percentile_interval(np.ones((0, 2))), "reps must not be empty"),
    (lambda: multinomial_rows([[1, 2]], 10 ** 8), "at most 100,000,000"),
])
def test_intervals_refuse_bad_shapes(call, match):
    with pytest.raises(ValueError, match=match):
        call()
