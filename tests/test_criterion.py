"""metabits.sdt and the Table S1 / S2 loaders: Delta-method variances, pairwise z tests,
the ROPE rule and its inverse, and the significance pattern of Servajean & Servajean (2026).

Independent checks: Monte Carlo for the Delta method, scipy.stats.norm for the z tests, brute
force over a grid of ROPE widths for the inverse of the ROPE rule, and the paper's statements.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm

import metabits as mb
from metabits_book.studies import datasets

finite = dict(allow_nan=False, allow_infinity=False)
S1, S2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()


# ------------------------------------------------------------------------- data files

def test_tables_as_printed():
    assert S1.d_prime.shape == S1.meta_d.shape == S1.m_ratio.shape == (3, 3)
    assert S2.c.shape == S2.half_width.shape == (3, 3, 3)
    row = S1.at("C", "DeepSeek-V3.2-Exp")
    assert (row.d_prime, row.meta_d, row.m_ratio) == (1.2565, 0.8866, 0.7061)
    c, hw = S2.at("C", "GPT-5")
    assert c.tolist() == [-1.4297, -0.0265, 0.7667] and hw.tolist() == [0.0644, 0.0356, 0.0465]
    assert S2.c[0, 0, 0] == -0.6304 and S2.half_width[2, 2, 2] == 0.0300
    assert S1.models == S2.models == ("GPT-5", "DeepSeek-V3.2-Exp", "Mistral-Medium-2508")


def test_data_files_carry_their_source():
    from importlib.resources import files
    for name in ("servajean2026_table_s1.csv", "servajean2026_table_s2.csv"):
        head = files("metabits_book").joinpath("data", name).read_text().splitlines()[0]
        assert head.startswith("# Servajean & Servajean (2026)") and "2603.29693" in head


@pytest.mark.parametrize("call, match", [
    (lambda: S1.at("D", "GPT-5"), "unknown task 'D'"),
    (lambda: S1.at("A", "GPT-4"), "unknown model 'GPT-4'"),
    (lambda: S2.at("A", "gpt-5"), "unknown model"),
    (lambda: S2.at(1, "GPT-5"), "unknown task"),
])
def test_unknown_names(call, match):
    with pytest.raises(ValueError, match=match):
        call()


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
    c, hw = S2.at("A", "DeepSeek-V3.2-Exp")
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


# ------------------------------------------------------------------------- the paper

def _table_s2_tests():
    """Every pairwise test of Table S2: arrays (task, model, pair), pairs (S1, None), (S1, S2),
    (None, S2)."""
    return mb.sdt.compare_criteria(np.moveaxis(S2.c, 1, 2), np.moveaxis(S2.half_width, 1, 2))


def test_significance_pattern_of_table_s2():
    """Results: exactly two of the 27 differences are not significant — Mistral's None vs S2 in
    task B and DeepSeek's S1 vs None in task C — and every significant one has the direction of
    the risk (c_S1 < c_None < c_S2)."""
    r = _table_s2_tests()
    assert r.diff.shape == (3, 3, 3) and r.n_comparisons == 3
    not_sig = {(S2.tasks[t], S2.models[m], r.pairs[k])
               for t, m, k in zip(*np.nonzero(~r.significant))}
    assert not_sig == {("B", "Mistral-Medium-2508", (1, 2)), ("C", "DeepSeek-V3.2-Exp", (0, 1))}
    assert np.all(r.diff[r.significant] > 0)
    assert np.all(r.diff[~r.significant] < 0)  # both non-significant pairs point the wrong way
    # GPT-5 alone differs significantly between every pair of configurations in every task
    assert r.significant[:, 0].all()
    assert not r.significant[:, 1].all() and not r.significant[:, 2].all()
    # GPT-5: c below 0 under risk S1, above 0 under risk S2, in every task
    assert np.all(S2.c[:, 0, 0] < 0) and np.all(S2.c[:, 2, 0] > 0)


def _rope_range(adjusted: bool):
    """ROPE half-widths consistent with the paper's verdicts; "not significant" constrains none."""
    ci_level = 1 - 0.05 / 3 if adjusted else 0.95
    r = mb.sdt.compare_criteria(np.moveaxis(S2.c, 1, 2), np.moveaxis(S2.half_width, 1, 2),
                            ci_level=ci_level)
    v = datasets.servajean_c_verdicts()
    verdicts = [None if x == "not significant" else x for x in v.verdict.ravel()]
    where = [(t, m, p) for t in v.tasks for m in v.models for p in v.pairs]
    return mb.sdt.rope_range(r.ci.lower.ravel(), r.ci.upper.ravel(), verdicts), where, r, v


def test_verdict_file_matches_the_statistical_pattern():
    """"Not significant" in the text is exactly where our z test is not significant."""
    _, _, r, v = _rope_range(False)
    assert np.array_equal(v.verdict == "not significant", ~r.significant)
    assert (v.verdict == "inconclusive").sum() == 3
    assert (v.verdict == "practically significant").sum() == 22


def test_rope_range_of_table_s2():
    """The paper's verdicts: 22 practically significant, 3 practically inconclusive differences.
    With unadjusted 95% intervals the consistent ROPE half-widths are [0.0541, 0.1211); with
    Bonferroni-adjusted ones [0.0446, 0.1247). Both contain 0.1. Values checked by hand from
    Table S2: e.g. DeepSeek, task A, None vs S2: 0.3116 − 0.2149 = 0.0967 minus
    √(0.0300² + 0.0303²) = 0.0426 gives 0.0541."""
    for adjusted, (lo, hi, lo_from, hi_from) in {
            False: (0.0541, 0.1211, ("A", "DeepSeek-V3.2-Exp", ("None", "S2")),
                    ("A", "DeepSeek-V3.2-Exp", ("S1", "None"))),
            True: (0.0446, 0.1247, ("A", "DeepSeek-V3.2-Exp", ("None", "S2")),
                   ("A", "DeepSeek-V3.2-Exp", ("S1", "S2")))}.items():
        rr, where, _, _ = _rope_range(adjusted)
        assert rr.consistent
        assert rr.lower == pytest.approx(lo, abs=5e-5) and rr.upper == pytest.approx(hi, abs=5e-5)
        assert where[rr.lower_from] == lo_from and where[rr.upper_from] == hi_from
        assert rr.lower <= 0.1 < rr.upper


def test_trial_counts_implied_by_table_s2():
    """Chapter 'Metacognitive efficiency': the "None" intervals imply about 10,000 trials per
    class in task A and 5,000 in tasks B and C (the paper: more trials in task A, where d′ > 3).
    Independent check: simulating the criterion at the implied count reproduces the half-width."""
    n = mb.sdt.trials_per_stimulus(S1.d_prime, S2.c[:, 1, :], S2.half_width[:, 1, :])
    assert np.all((9000 < n[0]) & (n[0] < 10500))
    assert np.all((4500 < n[1:]) & (n[1:] < 5500))
    rng = np.random.default_rng(3)
    d, c, k = S1.d_prime[0, 0], S2.c[0, 1, 0], int(round(n[0, 0]))
    h = rng.binomial(k, norm.cdf(d / 2 - c), 40000) / k
    f = rng.binomial(k, norm.cdf(-d / 2 - c), 40000) / k
    c_hat = -(norm.ppf(h) + norm.ppf(f)) / 2
    assert 1.959964 * c_hat.std() == pytest.approx(S2.half_width[0, 1, 0], rel=0.02)


def test_printed_m_ratios_are_means_of_ratios():
    """Every printed M-ratio exceeds meta-d′/d′, and the second-order mean-of-ratios correction
    with Var d′ = 4 Var c from Table S2 brings every row closer (within 1.3e-4 of the print)."""
    from metabits_book import paper_numbers as pn

    ratio = S1.meta_d / S1.d_prime
    assert np.all(S1.m_ratio > ratio)
    for i, task in enumerate(S1.tasks):
        for j, model in enumerate(S1.models):
            approx = pn.servajean_mean_of_ratios(task, model)
            assert abs(approx - S1.m_ratio[i, j]) < abs(ratio[i, j] - S1.m_ratio[i, j])
            assert abs(approx - S1.m_ratio[i, j]) < 1.3e-4
