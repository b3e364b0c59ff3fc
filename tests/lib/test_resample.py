"""metabits.resample: the one multinomial resampler, the intervals from its replicates and the
bootstrap engine of count tables (:func:`bootstrap_tables`)."""

import numpy as np
import pytest
from scipy import stats

import metabits as mb
from metabits._resampling import jackknife_acceleration, leave_one_out
from metabits.resample import (bca_interval, bootstrap_tables, multinomial_rows,
                               percentile_interval, quantiles)


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


# --- the engine ----------------------------------------------------------------------------------

TABLES = np.array([[[84, 56, 48, 12], [4, 56, 64, 76]], [[30, 20, 10, 5], [2, 3, 5, 10]],
                   [[9, 5, 3, 2], [1, 4, 6, 8]]])


def _accuracy(t):
    return (t[..., 0, :2].sum(-1) + t[..., 1, 2:].sum(-1)) / t.sum((-2, -1))


def _two(t):  # accuracy and AUROC2, one axis of statistics
    return np.stack([_accuracy(t), mb.sdt.auroc2(t, undefined="nan")], axis=-1)


def test_percentile_interval_is_the_quantiles_of_the_replicates():
    b = bootstrap_tables(_two, TABLES, n_boot=300, level=0.9, rng=1)
    assert b.replicates.shape == (3, 2, 300) and b.estimate.shape == (3, 2)
    np.testing.assert_allclose(b.estimate, _two(TABLES.astype(float)), rtol=0, atol=0)
    lo, hi = np.quantile(b.replicates, [0.05, 0.95], axis=-1)
    np.testing.assert_allclose(b.interval.lower, lo, rtol=0, atol=1e-14)
    np.testing.assert_allclose(b.interval.upper, hi, rtol=0, atol=1e-14)
    np.testing.assert_allclose(b.standard_error, b.replicates.std(-1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(b.bias, b.replicates.mean(-1) - b.estimate, atol=1e-14)
    assert np.all(b.n_undefined == 0)


def test_the_replicates_are_multinomial_rows_of_the_same_draws():
    b = bootstrap_tables(lambda t: t[..., 0, 0] + 10 * t[..., 1, 3], TABLES, n_boot=50, rng=7)
    x = multinomial_rows(TABLES, 50, rng=7)  # (50, 3, 2, 4)
    np.testing.assert_array_equal(b.replicates, (x[..., 0, 0] + 10 * x[..., 1, 3]).T)
    # resample="table": the whole table is one row of cells
    t = bootstrap_tables(lambda t: t[..., 0, 0], TABLES, n_boot=50, rng=7, resample="table")
    y = multinomial_rows(TABLES.reshape(3, 8), 50, rng=7)
    np.testing.assert_array_equal(t.replicates, y[..., 0].T)
    assert not np.array_equal(t.replicates, b.replicates)
    # the row totals are kept by "rows" only
    rows = bootstrap_tables(lambda t: t[..., 0, :].sum(-1), TABLES, n_boot=50, rng=1)
    table = bootstrap_tables(lambda t: t[..., 0, :].sum(-1), TABLES, n_boot=50, rng=1,
                             resample="table")
    assert np.all(rows.standard_error == 0) and np.all(table.standard_error > 0)


def test_batches_do_not_change_the_draws():
    a = bootstrap_tables(_two, TABLES, n_boot=40, rng=3, method="bca")
    b = bootstrap_tables(_two, TABLES, n_boot=40, rng=3, method="bca", batch=1)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    np.testing.assert_array_equal(a.interval.lower, b.interval.lower)


def test_bca_without_acceleration_and_median_unbiased_replicates_is_the_percentile():
    # a statistic that is 0 on the observed and the jackknife tables (a = 0) and spreads its
    # 101 replicates evenly around 0 (z0 = 0): BCa's quantiles are the percentile ones
    def stat(t):
        out = np.zeros(t.shape[:-2])
        return out + np.linspace(-1, 1, 101) if t.shape[1:2] == (101,) else out
    b = bootstrap_tables(stat, TABLES, n_boot=101, method="bca", rng=1)
    p = bootstrap_tables(stat, TABLES, n_boot=101, rng=1)
    np.testing.assert_allclose(b.interval.lower, p.interval.lower, atol=1e-12)
    np.testing.assert_allclose(b.interval.upper, p.interval.upper, atol=1e-12)
    np.testing.assert_allclose(p.interval.lower, -0.95, atol=1e-12)


def test_bca_equals_bca_interval_with_the_jackknife_acceleration():
    b = bootstrap_tables(_accuracy, TABLES, n_boot=200, method="bca", rng=5, level=0.8)
    loo, w = leave_one_out(TABLES.astype(float))
    a = jackknife_acceleration(_accuracy(loo), w, axis=-1)
    ref = bca_interval(b.replicates, b.estimate, a, level=0.8, axis=-1)
    np.testing.assert_array_equal(b.interval.lower, ref.lower)
    np.testing.assert_array_equal(b.interval.upper, ref.upper)


def test_the_undefined_replicates_are_counted_and_left_out():
    # AUROC2 is undefined where a replicate has no errors: likely with 1 error in 20 trials
    t = np.array([[[10, 9, 0, 1], [0, 0, 4, 6]]])
    b = bootstrap_tables(lambda x: mb.sdt.auroc2(x, undefined="nan"), t, n_boot=400, rng=2)
    rep = b.replicates[0]
    n_bad = int(np.sum(~np.isfinite(rep)))
    assert b.n_undefined[()] == n_bad > 0
    ok = rep[np.isfinite(rep)]
    assert b.standard_error == pytest.approx(ok.std(ddof=1), rel=1e-12)
    assert b.interval.lower == pytest.approx(np.quantile(ok, 0.025), abs=1e-14)
    assert b.bias == pytest.approx(ok.mean() - b.estimate, abs=1e-14)


def test_one_table_gives_floats_and_a_frame():
    b = bootstrap_tables(_accuracy, TABLES[0], n_boot=100, rng=1)
    assert isinstance(b.estimate, float) and isinstance(b.interval.lower, float)
    assert b.replicates.shape == (100,)
    frame = b.to_frame()
    assert list(frame.columns) == ["estimate", "lower", "upper", "standard_error", "bias",
                                   "n_undefined"]
    assert frame.estimate.iloc[0] == pytest.approx(0.7)


@pytest.mark.parametrize("kwargs, match", [
    (dict(statistic=3), "statistic must be a function.*3"),
    (dict(counts=[1, 2, 3]), r"counts must be tables.*\(3,\)"),
    (dict(counts=[[1.5, 2], [3, 4]]), "whole numbers"),
    (dict(counts=[[-1, 2], [3, 4]]), "non-negative"),
    (dict(n_boot=1), "n_boot.*1"),
    (dict(level=1.0), "level"),
    (dict(method="studentized"), "method 'studentized'"),
    (dict(resample="cells"), "resample 'cells'"),
    (dict(batch=0), "batch.*0"),
    (dict(statistic=lambda t: np.zeros(3)), r"statistic must return.*shape \(3,\)"),
])
def test_engine_bad_input_names_the_argument_and_value(kwargs, match):
    args = dict(statistic=_accuracy, counts=TABLES, n_boot=20, rng=1) | kwargs
    with pytest.raises(ValueError, match=match):
        bootstrap_tables(args.pop("statistic"), args.pop("counts"), **args)


def test_bca_acceleration_is_the_trial_by_trial_jackknife():
    counts = np.array([[[9, 5, 3, 2], [1, 4, 6, 8]]], dtype=float)
    loo, w = leave_one_out(counts)
    accel = jackknife_acceleration(_two(loo), w[..., None], axis=1)
    # the jackknife written out: one table per left-out trial
    cells = [(s, j) for s in range(2) for j in range(4) for _ in range(int(counts[0, s, j]))]
    for col, fn in enumerate((lambda t: (t[0, :2].sum() + t[1, 2:].sum()) / t.sum(),
                              lambda t: mb.sdt.auroc2(t))):
        theta = []
        for s, j in cells:
            t = counts[0].copy()
            t[s, j] -= 1
            theta.append(fn(t))
        theta = np.array(theta)
        d = theta.mean() - theta
        a = (d ** 3).sum() / (6 * ((d ** 2).sum()) ** 1.5)
        assert accel[0, col] == pytest.approx(a, abs=1e-12)
