"""Servajean & Servajean (2026) by the library, on the book's copies of its Tables S1 and S2
(metabits_book.studies.datasets) and with its paper numbers (metabits_book.numbers_servajean2026):
the significance pattern of Table S2 and the ROPE half-widths its verdicts imply, the trials per
class its intervals imply, the printed M-ratios as means of ratios, and the Results' statements
on d′ at the book's trial counts.

Independent checks: the paper's statements, Monte Carlo for the precision of c and d′.
"""

import numpy as np
import pytest
from scipy.stats import norm

import metabits as mb
from metabits_book.studies import datasets

S1, S2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()


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


def test_servajean_results_on_d_prime_hold_at_the_books_precision():
    """The Results' statements on d′ (within and across tasks), tested with the precision of d′
    at the book's trial counts (chapter 'Metacognitive efficiency of three LLMs'): the delta-method
    SE of z(HR) − z(FAR), checked against the spread of d′ over simulated experiments."""
    s1, s2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()
    n = np.array([10_000, 5_000, 5_000])[:, None]                # trials per class, tasks A–C
    d, c = s1.d_prime, s2.c[:, 1]                                # c of the "None" configuration
    hr, far = norm.cdf(d / 2 - c), norm.cdf(-d / 2 - c)
    se = np.sqrt(hr * (1 - hr) / (n * norm.pdf(norm.ppf(hr)) ** 2)
                 + far * (1 - far) / (n * norm.pdf(norm.ppf(far)) ** 2))
    # the delta method against simulation (one cell per task)
    for i, j in ((0, 0), (1, 1), (2, 2)):
        x = mb.sdt.simulate_ratings(d[i, j], s1.meta_d[i, j], int(n[i, 0]), n_sets=400, c=c[i, j],
                                rng=10 + i)
        h = x[:, 1, 5:].sum(-1) / n[i, 0]
        f = x[:, 0, 5:].sum(-1) / n[i, 0]
        sd = np.std(norm.ppf(h) - norm.ppf(f), ddof=1)
        assert sd == pytest.approx(se[i, j], rel=0.15)            # MC SE of an SD: 3.5%

    def z(a, b):
        return (d[a] - d[b]) / np.hypot(se[a], se[b])

    G, D, M = 0, 1, 2
    for task in range(3):                                        # not different
        pairs = {0: [(G, D), (G, M), (D, M)], 1: [(G, M)], 2: [(D, M)]}[task]
        for a, b in pairs:
            assert abs(z((task, a), (task, b))) < 1.96
    for task, a, b in ((1, D, G), (1, D, M), (2, G, D), (2, G, M)):   # larger
        assert z((task, a), (task, b)) > 1.96
    for model in (G, D, M):                                      # every model varies across tasks
        for ta, tb in ((0, 1), (0, 2), (1, 2)):
            assert abs(z((ta, model), (tb, model))) > 1.96
