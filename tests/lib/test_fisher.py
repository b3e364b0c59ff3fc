"""metabits.sdt._fisher: the stacked Fisher-scoring driver of the meta-d′ and meta-noise fits,
on a model with a closed-form maximum: the multinomial in log-odds against its first category,
theta_j = log(p_j / p_0), whose maximum is theta_j = log(n_j / n_0)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metabits.sdt import _fisher


def _model(counts):
    """loglik and information of the log-odds multinomial for the tables ``counts`` (n, J+1)."""
    N = counts.sum(axis=1)

    def probabilities(theta):
        e = np.exp(np.column_stack([np.zeros(len(theta)), theta]))
        return e[:, 1:] / e.sum(axis=1, keepdims=True), np.log(e.sum(axis=1))

    def loglik(theta, rows):
        with np.errstate(all="ignore"):
            _, lse = probabilities(theta)
            ll = np.einsum("np,np->n", counts[rows, 1:], theta) - N[rows] * lse
        return np.where(np.isfinite(ll), ll, -np.inf)

    def information(theta, rows):
        p, _ = probabilities(theta)
        g = counts[rows, 1:] - N[rows, None] * p
        F = N[rows, None, None] * (np.einsum("np,pq->npq", p, np.eye(p.shape[1]))
                                   - p[:, :, None] * p[:, None, :])
        return g, F

    return loglik, information


def _tables(seed, n=40, J=3):
    rng = np.random.default_rng(seed)
    return rng.integers(1, 60, (n, J + 1)).astype(float)


def test_finds_the_closed_form_maximum():
    """With ``polish`` the last step is taken: the maximum to 1e-7; without, the fit stops
    where the step promises a rise below FLAT (1 + |ll|) (here ~1e-5 from it), so the
    log-likelihood is that close to its maximum (the quadratic model's rise, exact to a few
    percent so near)."""
    counts = _tables(1)
    start = np.random.default_rng(2).normal(0, 3, (len(counts), 3))  # far: steps get halved
    best = np.log(counts[:, 1:] / counts[:, :1])
    loglik, information = _model(counts)
    theta, ok = _fisher.fisher_scoring(start, loglik, information, polish=True)
    assert ok.all()
    np.testing.assert_allclose(theta, best, rtol=0, atol=1e-7)
    theta, ok = _fisher.fisher_scoring(start, loglik, information)
    assert ok.all()
    rows = np.arange(len(counts))
    ll_best = loglik(best, rows)
    fall = ll_best - loglik(theta, rows)
    assert np.all(fall >= -1e-12 * np.abs(ll_best))  # ll_best is the maximum
    assert np.all(fall <= 1.1 * _fisher.FLAT * (1 + np.abs(ll_best)))


@pytest.mark.parametrize("polish", [False, True])
def test_each_table_is_fitted_on_its_own_and_blocks_of_halvings_change_nothing(polish):
    counts = _tables(3)
    start = np.random.default_rng(4).normal(0, 4, (len(counts), 3))
    stack, ok = _fisher.fisher_scoring(start, *_model(counts), polish=polish)
    blocks, ok_b = _fisher.fisher_scoring(start, *_model(counts), polish=polish,
                                          halvings=(1, 2, 4, 8, 16, 9))
    np.testing.assert_array_equal(blocks, stack)
    np.testing.assert_array_equal(ok_b, ok)
    for i in range(0, len(counts), 7):
        one, ok_one = _fisher.fisher_scoring(start[i:i + 1], *_model(counts[i:i + 1]),
                                             polish=polish)
        np.testing.assert_array_equal(one[0], stack[i])
        assert ok_one[0] == ok[i]


def test_a_flat_direction_ends_on_the_promised_rise():
    """An empty category has its maximum at theta = -inf: the fit ends on the flat rule,
    converged, with that category's log-odds far down and the others at their maximum."""
    counts = np.array([[10.0, 0.0, 20.0], [10.0, 5.0, 20.0]])
    theta, ok = _fisher.fisher_scoring(np.zeros((2, 2)), *_model(counts))
    assert ok.all()
    assert theta[0, 0] < -20
    np.testing.assert_allclose(theta[0, 1], np.log(2), atol=1e-9)
    np.testing.assert_allclose(theta[1], np.log([0.5, 2]), atol=1e-9)


def test_a_table_without_a_finite_information_or_step_stops_unconverged():
    counts = _tables(5, n=3)
    loglik, information = _model(counts)

    def broken(theta, rows):
        g, F = information(theta, rows)
        F[rows == 1] = np.nan
        return g, F

    start = np.zeros((3, 3))
    theta, ok = _fisher.fisher_scoring(start, loglik, broken)
    assert ok.tolist() == [True, False, True]
    np.testing.assert_array_equal(theta[1], start[1])  # left where it stood
    theta, ok = _fisher.fisher_scoring(start, loglik, information, max_iter=2)
    assert not ok.any()  # two steps are not enough from 0


def test_scoring_step_of_a_singular_matrix_is_nan_for_that_table_only():
    F = np.stack([np.eye(2) * 2.0, np.ones((2, 2)), np.diag([1.0, 4.0])])
    g = np.array([[2.0, 4.0], [1.0, 1.0], [1.0, 4.0]])
    step, promised = _fisher.scoring_step(np.zeros((3, 2)), g, F)
    np.testing.assert_array_equal(step[[0, 2]], [[1.0, 2.0], [1.0, 1.0]])
    assert np.isnan(step[1]).all()
    np.testing.assert_array_equal(promised[[0, 2]], [5.0, 2.5])


@settings(deadline=None, max_examples=30)
@given(st.lists(st.floats(-3, 3), min_size=3, max_size=3),
       st.lists(st.floats(0.1, 10), min_size=3, max_size=3))
def test_newton_step_makes_the_information_positive_definite(g, eig):
    """The step of :func:`_fisher.newton_step` is an ascent direction (promises a rise >= 0)
    whatever the signs of the information's eigenvalues."""
    rng = np.random.default_rng(0)
    V, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    F = (V * (np.array(eig) * [1, -1, 1])) @ V.T  # indefinite
    rule = _fisher.newton_step(_fisher.scoring_step)
    step, promised = rule(np.zeros((1, 3)), np.array([g]), F[None])
    assert promised[0] >= 0
    assert np.dot(g, step[0]) == pytest.approx(2 * promised[0])
