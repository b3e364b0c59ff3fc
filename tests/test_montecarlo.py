"""Tests of metabits_book.studies.montecarlo: Fieller's interval, the fast RMI bias study
(chapter 9, larger samples) and the coverage study of bootstrap intervals of OSKR (OSKR
chapter)."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm

import metabits as mb
from metabits_book.studies import montecarlo
from metabits_book.studies import simulation as sim
from metabits_book.studies.simulation import MCEstimate

# ------------------------------------------------------------------------------ Fieller's interval


@given(st.floats(0.1, 10), st.floats(0.001, 1), st.floats(0.1, 10), st.floats(0.001, 1))
def test_fieller_interval_is_the_set_of_ratios_the_test_accepts(a, sa, b, sb):
    assume(b > 2.5 * sb)
    lo, hi = montecarlo.fieller_interval(MCEstimate(a, sa, 100), MCEstimate(b, sb, 100))
    z = norm.ppf(0.975)
    grid = np.linspace(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo), 2001)
    accepted = (a - grid * b) ** 2 <= z ** 2 * (sa ** 2 + grid ** 2 * sb ** 2)
    inside = (grid >= lo) & (grid <= hi)
    # grid points not within a hair of the ends are accepted exactly when inside
    far = np.minimum(np.abs(grid - lo), np.abs(grid - hi)) > 1e-9 * (1 + abs(hi))
    assert np.array_equal(accepted[far], inside[far])
    assert lo <= a / b <= hi


def test_fieller_interval_covers_the_true_ratio():
    rng = np.random.default_rng(3)
    a_true, b_true, sa, sb = 2.0, 0.5, 0.1, 0.08          # a noisy denominator (CV 16%)
    a = rng.normal(a_true, sa, 4000)
    b = rng.normal(b_true, sb, 4000)
    lo, hi = montecarlo.fieller_interval(MCEstimate(a, np.full(4000, sa), 1),
                                         MCEstimate(b, np.full(4000, sb), 1))
    cover = np.mean((lo <= 4.0) & (4.0 <= hi))
    assert abs(cover - 0.95) < 3 * np.sqrt(0.95 * 0.05 / 4000) + 0.005


def test_fieller_interval_refuses_an_unresolved_denominator_and_bad_input():
    with pytest.raises(ValueError, match="unbounded"):
        montecarlo.fieller_interval(MCEstimate(1.0, 0.1, 10), MCEstimate(0.1, 0.06, 10))
    with pytest.raises(ValueError, match="MCEstimate"):
        montecarlo.fieller_interval(1.0, MCEstimate(1.0, 0.1, 10))
    with pytest.raises(ValueError, match="level"):
        montecarlo.fieller_interval(MCEstimate(1.0, 0.1, 10), MCEstimate(1.0, 0.1, 10), level=1.0)


# ------------------------------------------------------------------------------ RMI bias study


@pytest.mark.parametrize("kind", mb.info.NOISE_TYPES)
def test_fast_rmi_is_type2_measures_rmi(kind):
    counts = sim.simulate_counts(kind, 0.7, n_sets=300, n_per_label=20, rng=4)
    fast = montecarlo._rmi_plugin(counts)
    slow = mb.type2_measures(counts, undefined="nan").RMI
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-15)
    assert np.array_equal(np.isnan(fast), np.isnan(slow))


def test_rmi_bias_is_the_study_mean_minus_the_line():
    b = montecarlo.rmi_bias("normal", 0.8, 400, 500, rng=7)
    counts = sim.simulate_counts("normal", 0.8, n_sets=500, n_per_label=400, rng=7)
    line = sim.theoretical_measures("normal", 0.8, sdt=False).RMI
    direct = sim.mc_mean(mb.type2_measures(counts, undefined="nan").RMI - line)
    assert b.value == pytest.approx(direct.value, abs=1e-14)
    assert b.se == pytest.approx(direct.se, rel=1e-10)


def test_rmi_bias_rejects_bad_input():
    with pytest.raises(ValueError):
        montecarlo.rmi_bias("gaussian", 0.7, 200, 100)
    with pytest.raises(ValueError):
        montecarlo.rmi_bias("normal", 0.7, 200, 1)


def _chapter9_study():
    """The normal-noise study of chapter 9 ('Larger samples'), with the chapter's seeds."""
    n_big, sizes = 80_000, (200, 800, 3200)
    return {(a, m): montecarlo.rmi_bias("normal", a, m, n_big, rng=5000 + 10 * k + j)
            for k, a in enumerate(sim.STUDY_ACCURACIES) for j, m in enumerate(sizes)}


def test_chapter9_normal_noise_bias_shrinks_roughly_like_one_over_n():
    big = _chapter9_study()
    inside16 = 0
    for a in sim.STUDY_ACCURACIES:
        f = sim.mc_ratio(big[a, 200], big[a, 3200])
        lo, hi = montecarlo.fieller_interval(big[a, 200], big[a, 3200])
        assert f.se / f.value < 0.10                       # the ratio resolved to 10%
        assert lo > 4.0 * 2                                # far from sqrt(16) = 4
        assert lo <= f.value <= hi
        step = sim.mc_ratio(big[a, 800], big[a, 3200])   # the last fourfold step decreases
        assert step.value - 2 * step.se > 1
        inside16 += lo <= 16 <= hi
    lo70, hi70 = montecarlo.fieller_interval(big[0.7, 200], big[0.7, 3200])
    assert lo70 <= 16 <= hi70                              # "roughly like 1/n" at 70%
    assert 1 <= inside16 < 4                               # ... an order, not an exact law


# ------------------------------------------------------------------ coverage of OSKR intervals


def test_shipped_coverage_table_has_the_promised_precision():
    t = montecarlo.oskr_coverage_table()
    assert len(t) == len(montecarlo.COVERAGE_AGENTS) * len(montecarlo.COVERAGE_N) * 2
    assert (t.data_sets >= 2000).all()
    assert (t.mc_se <= 0.005).all()
    assert (t.covered_by_both <= t.covered).all()


@pytest.mark.slow
def test_shipped_coverage_cell_is_recomputed_exactly():
    """The weak flag at N = 100, the cell of the chapter's clearest contrast, from its own seed."""
    t = montecarlo.oskr_coverage_table()
    cell = t[(t.agent == "weak flag") & (t.N == 100)].set_index("method")
    r = montecarlo.oskr_coverage("weak flag", 100, int(cell.data_sets.iloc[0]),
                                 n_boot=int(cell.n_boot.iloc[0]), seed=int(cell.seed.iloc[0]))
    assert r["percentile"] == (cell.covered["percentile"], cell.data_sets["percentile"])
    assert r["bca"] == (cell.covered["bca"], cell.data_sets["bca"])
    assert r["both"] == cell.covered_by_both.iloc[0]


@pytest.mark.slow
def test_coverage_agrees_with_an_independent_smaller_run():
    """Another seed, 2,000 data sets: within four standard errors of the shipped coverage."""
    t = montecarlo.oskr_coverage_table()
    r = montecarlo.oskr_coverage("agent B", 400, 2000, n_boot=500, seed=7)
    for method in ("percentile", "bca"):
        shipped = t[(t.agent == "agent B") & (t.N == 400) & (t.method == method)].iloc[0]
        p = r[method][0] / r[method][1]
        se = np.hypot(shipped.mc_se, np.sqrt(p * (1 - p) / r[method][1]))
        assert abs(p - shipped.coverage) < 4 * se


def test_oskr_chapter_statements_on_coverage():
    t = montecarlo.oskr_coverage_table()

    def cov(agent, n, method):
        return t[(t.agent == agent) & (t.N == n) & (t.method == method)].coverage.iloc[0]

    for n in (30, 100, 400):          # informative flag: BCa closer to 95%, resolved
        d = montecarlo.coverage_difference(t, "agent B", n)
        assert abs(cov("agent B", n, "bca") - 0.95) < abs(cov("agent B", n, "percentile") - 0.95)
        assert abs(d.value) > 2 * d.se
    d = montecarlo.coverage_difference(t, "agent B", 2000)
    assert abs(d.value) < 0.005       # "differ by only" a few tenths of a point at N = 2000
    for n in (30, 100):               # weak flag: percentile closer, BCa under-covers
        assert abs(cov("weak flag", n, "percentile") - 0.95) < abs(cov("weak flag", n, "bca") - 0.95)
        assert cov("weak flag", n, "bca") < 0.95 - 0.03
    assert cov("weak flag", 100, "percentile") > 0.95      # "or above it"
    assert cov("agent B", 30, "bca") < 0.90 and cov("agent B", 30, "percentile") < 0.90
    for agent in montecarlo.COVERAGE_AGENTS:               # from 400 on, both close to 95%
        for n in (400, 2000):
            for method in ("percentile", "bca"):
                assert abs(cov(agent, n, method) - 0.95) < 0.01


def test_coverage_rejects_bad_input():
    with pytest.raises(ValueError, match="agent"):
        montecarlo.oskr_coverage("agent Z", 100, 10)
    with pytest.raises(ValueError, match="no cell"):
        montecarlo.coverage_difference(montecarlo.oskr_coverage_table(), "agent B", 31)


def test_coverage_agents_are_the_chapters_channels():
    joint = montecarlo._agent_joint("agent B")
    assert np.allclose(joint, mb.oskr.feedback_channel(0.7, 0.15, 0.0).confusion)


def test_coverage_study_layout_and_precision_check():
    """The function that regenerates data/oskr_coverage.csv, on a tiny run."""
    t = montecarlo.oskr_coverage_study(n_sets=40, n_boot=50, seed=1)
    shipped = montecarlo.oskr_coverage_table()
    assert list(t.columns) == list(shipped.columns)
    assert len(t) == len(shipped) and (t.data_sets <= 40).all()
    with pytest.raises(ValueError, match="simulate more"):
        montecarlo.oskr_coverage_study(n_sets=40, n_boot=50, seed=1, target_se=0.005)
