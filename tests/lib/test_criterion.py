"""metabits.sdt._criterion: Delta-method variances, pairwise z tests, the ROPE rule and its
inverse.

Independent checks: Monte Carlo for the Delta method, scipy.stats.norm for the z tests, brute
force over a grid of ROPE widths for the inverse of the ROPE rule. The significance pattern of
Servajean & Servajean's (2026) Table S2 is tests/test_numbers_servajean2026.py's.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm

import metabits as mb

finite = dict(allow_nan=False, allow_infinity=False)


# ------------------------------------------------------------------------- Delta method

def test_delta_method_matches_monte_carlo():
    """SDs of d′ and c over 20,000 simulated experiments of 2,000 trials per class (±3%)."""
    rng = np.random.default_rng(5)
    d, c, n = 2.3, -0.13, 2000
    hr, far = norm.cdf(d / 2 - c), norm.cdf(-d / 2 - c)
    h = rng.binomial(n, hr, 20000) / n
    f = rng.binomial(n, far, 20000) / n
    d_hat, c_hat = norm.ppf(h) - norm.ppf(f), -(norm.ppf(h) + norm.ppf(f)) / 2
    v = mb.sdt.delta_variance(d, c, n)
    assert v.se_d == pytest.approx(d_hat.std(), rel=0.03)
    assert v.se_c == pytest.approx(c_hat.std(), rel=0.03)


@given(d=st.floats(0.1, 4, **finite), c=st.floats(-1.5, 1.5, **finite),
       n1=st.integers(10, 10 ** 6), n2=st.integers(10, 10 ** 6))
def test_se_of_d_is_twice_se_of_c(d, c, n1, n2):
    v = mb.sdt.delta_variance(d, c, n1, n2)
    assert v.var_d == pytest.approx(4 * v.var_c, rel=1e-12)
    assert v.se_d == pytest.approx(2 * v.se_c, rel=1e-12)


@given(d=st.floats(0.2, 4, **finite), c=st.floats(-1, 1, **finite),
       n=st.integers(50, 10 ** 6), level=st.floats(0.5, 0.999, **finite))
def test_trials_per_stimulus_inverts_delta_variance(d, c, n, level):
    hw = norm.ppf(0.5 + level / 2) * mb.sdt.delta_variance(d, c, n).se_c
    assert mb.sdt.trials_per_stimulus(d, c, hw, level) == pytest.approx(n, rel=1e-9)


def test_delta_method_keeps_its_precision_for_extreme_rates():
    """At d' = 20, c = 0 the hit rate rounds to 1 in floating point; the two rate terms are
    still equal (by symmetry), and whole floats count as trials."""
    x = 10.0
    term = norm.cdf(-x) / norm.pdf(x) ** 2         # Phi(x) Phi(-x) / phi(x)^2, Phi(x) = 1
    v = mb.sdt.delta_variance(20.0, 0.0, 1000.0)
    assert v.var_d == pytest.approx(2 * term / 1000, rel=1e-12)
    assert mb.sdt.trials_per_stimulus(20.0, 0.0, 1.96 * v.se_c, level=0.95) == \
        pytest.approx(1000 * (1.959963984540054 / 1.96) ** 2, rel=1e-9)


def test_se_from_ci():
    assert mb.sdt.se_from_ci(1.959963984540054) == pytest.approx(1.0)
    assert mb.sdt.se_from_ci(norm.ppf(0.95), level=0.9) == pytest.approx(1.0)
    np.testing.assert_allclose(mb.sdt.se_from_ci([0.0330, 0.0291]), np.array([0.0330, 0.0291]) / 1.96,
                               rtol=2e-5)


# ------------------------------------------------------------------------- z tests

def test_pairwise_z_tests_against_scipy():
    x, se = np.array([0.2, 0.5, 0.41]), np.array([0.05, 0.07, 0.06])
    r = mb.sdt.pairwise_z_tests(x, se)
    assert r.pairs == ((0, 1), (0, 2), (1, 2))
    for k, (i, j) in enumerate(r.pairs):
        z = (x[j] - x[i]) / np.hypot(se[i], se[j])
        assert r.z[k] == pytest.approx(z)
        assert r.p[k] == pytest.approx(2 * norm.sf(abs(z)))
        assert r.p_adjusted[k] == pytest.approx(min(1, 3 * 2 * norm.sf(abs(z))))
        assert r.significant[k] == (abs(z) > norm.ppf(1 - 0.05 / 6))
        assert r.ci.upper[k] - r.ci.lower[k] == pytest.approx(2 * 1.959964 * np.hypot(se[i], se[j]),
                                                              rel=1e-6)


def test_compare_criteria_is_pairwise_z_on_recovered_ses():
    c = np.array([0.1356, 0.2149, 0.3116])  # Servajean & Servajean (2026), Table S2: task A,
    hw = np.array([0.0291, 0.0300, 0.0303])  # DeepSeek-V3.2-Exp, risks S1, None and S2
    a = mb.sdt.compare_criteria(c, hw)
    b = mb.sdt.pairwise_z_tests(c, hw / norm.ppf(0.975))
    np.testing.assert_allclose(a.z, b.z)
    assert a.n_comparisons == 3


# ------------------------------------------------------------------------- ROPE

@given(st.lists(st.tuples(st.floats(-1, 1, **finite), st.floats(0.001, 0.5, **finite)),
                min_size=1, max_size=8),
       st.floats(0.005, 0.8, **finite))
def test_rope_range_is_exactly_the_set_of_rules_that_reproduce_the_verdicts(intervals, r0):
    """Verdicts made with one ROPE r0: r reproduces them iff lower <= r < upper. Exhaustive: a
    verdict changes only where r crosses an interval's end (|lower| or |upper|), so the verdicts
    are constant between consecutive ends; one r inside every such piece, and one beyond the
    last end, try every set of verdicts any r > 0 gives."""
    mid, half = np.array(intervals).T
    lo, hi = mid - half, mid + half
    verdicts = mb.sdt.rope_verdict(lo, hi, r0).tolist()
    rr = mb.sdt.rope_range(lo, hi, verdicts)
    assert rr.consistent and rr.lower <= r0 < rr.upper
    ends = np.unique(np.r_[0.0, np.abs(np.r_[lo, hi])])
    assume(np.all(np.diff(ends) > 1e-9))  # no piece too narrow to hold an r of its own
    for r in np.r_[(ends[:-1] + ends[1:]) / 2, ends[-1] + 1.0]:
        same = mb.sdt.rope_verdict(lo, hi, r).tolist() == verdicts
        assert same == (rr.lower <= r < rr.upper), r


def test_rope_verdict_and_range_edge_cases():
    assert mb.sdt.rope_verdict([-0.3], [-0.2], 0.1).tolist() == ["practically significant"]
    rr = mb.sdt.rope_range([0.05], [0.15], [None])
    assert (rr.lower, rr.upper, rr.lower_from, rr.upper_from) == (0.0, np.inf, -1, -1)
    rr = mb.sdt.rope_range([0.2, 0.05], [0.3, 0.1], ["inconclusive", "practically significant"])
    assert not rr.consistent
    with pytest.raises(ValueError, match="unknown verdict"):
        mb.sdt.rope_range([0.1], [0.2], ["significant"])
    with pytest.raises(ValueError, match="one verdict per interval"):
        mb.sdt.rope_range([0.1, 0.2], [0.2, 0.3], ["inconclusive"])
    with pytest.raises(ValueError, match="lower <= upper"):
        mb.sdt.rope_verdict([0.3], [0.2], 0.1)


@pytest.mark.parametrize("call, match", [
    (lambda: mb.sdt.se_from_ci(0.0), "CI half-width must be > 0"),
    (lambda: mb.sdt.se_from_ci(-0.03), "CI half-width must be > 0"),
    (lambda: mb.sdt.compare_criteria([0.1, 0.2], [0.03, 0.0]), "CI half-width must be > 0"),
    (lambda: mb.sdt.compare_criteria([0.1], [0.03]), "at least two conditions"),
    (lambda: mb.sdt.compare_criteria([0.1, 0.2], [0.03, 0.03, 0.03]), "same shape"),
    (lambda: mb.sdt.pairwise_z_tests([0.1, 0.2], [0.03, 0.03], alpha=0), "alpha"),
    # the parameter is ci_level (the message said "level")
    (lambda: mb.sdt.pairwise_z_tests([0.1, 0.2], [0.03, 0.03], ci_level=0),
     r"^ci_level must lie in \(0, 1\); got 0$"),
    (lambda: mb.sdt.compare_criteria([0.1, 0.2], [0.03, 0.03], ci_level=1.5), "^ci_level must"),
    (lambda: mb.sdt.pairwise_z_tests([0.1, 0.2], [0.03, 0.03], n_comparisons=0), "n_comparisons"),
    (lambda: mb.sdt.delta_variance(1.0, 0.0, 0), "n_s1"),
    # trials are counted: a fraction of a trial is refused (it gave a variance)
    (lambda: mb.sdt.delta_variance(2.0, 0.0, 2.5), r"n_s1 .* whole numbers >= 1; got 2.5"),
    (lambda: mb.sdt.delta_variance(2.0, 0.0, 0.001), r"n_s1 .* whole numbers >= 1; got 0.001"),
    (lambda: mb.sdt.delta_variance(2.0, 0.0, 100, [100, 99.5]), r"n_s2 .* got 99.5"),
    # a rate within ~1e-300 of 0 or 1: the variance overflows (it was NaN)
    (lambda: mb.sdt.delta_variance(1e300, 0.0, 1000), r"d' = 1e\+300, c = 0 exceeds"),
    (lambda: mb.sdt.delta_variance([2.0, 80.0], 0.1, 1000), r"d' = 80, c = 0.1 exceeds"),
    (lambda: mb.sdt.trials_per_stimulus(1e300, 0.0, 0.03), r"d' = 1e\+300, c = 0"),
    (lambda: mb.sdt.trials_per_stimulus(2.0, 0.0, 1e-300), r"half-width is too small"),
    (lambda: mb.sdt.rope_verdict([0.1], [0.2], 0.0), "rope half-width must be > 0"),
    (lambda: mb.sdt.trials_per_stimulus(1.0, 0.0, -0.01), "CI half-width must be > 0"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
