"""Tests of metabits_book.studies.simulation: the simulation study of Meyen et al. (2025),
Figures 6 and 7."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

import metabits as mb
from metabits_book.studies import simulation as sim

ACCS = np.array(sim.STUDY_ACCURACIES)


# ---------------------------------------------------------------- exact response probabilities

@pytest.mark.parametrize("kind", mb.info.NOISE_TYPES)
def test_response_probabilities_are_distributions_with_the_right_accuracy(kind):
    acc = np.linspace(0.5, 0.99, 30)
    p = sim.response_probabilities(kind, acc)
    assert p.shape == (30, 2, 4)
    assert np.all(p >= 0)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-14)
    # correct = S1 responses to label -1, S2 responses to label +1
    correct = 0.5 * (p[:, 0, :2].sum(-1) + p[:, 1, 2:].sum(-1))
    np.testing.assert_allclose(correct, acc, atol=1e-14)
    # the two labels are mirror images
    np.testing.assert_array_equal(p[:, 0], p[:, 1, ::-1])


@given(acc=st.floats(0.5, 0.999999), kind=st.sampled_from(mb.info.NOISE_TYPES))
def test_response_probabilities_property(acc, kind):
    p = sim.response_probabilities(kind, acc)
    assert p.shape == (2, 4)
    assert np.all(p >= 0) and np.allclose(p.sum(-1), 1.0, atol=1e-12)
    assert p[1, 2:].sum() == pytest.approx(acc, abs=1e-12)


def test_response_probabilities_closed_forms():
    np.testing.assert_allclose(sim.response_probabilities("uniform", 0.7)[1], [0, 0.3, 0.3, 0.4])
    np.testing.assert_allclose(sim.response_probabilities("binary", 0.7)[1],
                               [0.15, 0.15, 0.35, 0.35])
    # acc = 0.5: the normal classifier has d' = 0, confidence 0.5 always, so everything is low
    np.testing.assert_allclose(sim.response_probabilities("normal", 0.5)[1], [0, 0.5, 0.5, 0])


@pytest.mark.parametrize("acc", [0.6, 0.7, 0.9])
def test_normal_probabilities_by_quadrature_of_the_confidence(acc):
    """Integrate the label +1 observation density over the regions defined by the confidence."""
    f = lambda x: mb.info.observation_pdf("normal", x, 1, acc)  # noqa: E731
    conf = lambda x: mb.info.confidence_from_observation("normal", x, acc)  # noqa: E731
    from scipy.optimize import brentq
    t = brentq(lambda x: conf(x) - 0.75, 1e-9, 50)  # |X| where the confidence reaches 75 %
    q = lambda a, b: integrate.quad(f, a, b, epsabs=1e-13)[0]  # noqa: E731
    expected = [q(-np.inf, -t), q(-t, 0), q(0, t), q(t, np.inf)]
    np.testing.assert_allclose(sim.response_probabilities("normal", acc)[1], expected, atol=1e-10)


# --------------------------------------------------------------------------------- sampling

def test_trial_sampler_outputs():
    t = sim.sample_trials("normal", 0.7, n_per_label=50, n_sets=3, rng=0)
    assert set(t) == {"label", "x", "prediction", "confidence"}
    for v in t.values():
        assert v.shape == (3, 100)
    np.testing.assert_array_equal(t["label"][0], np.repeat([-1, 1], 50))
    np.testing.assert_array_equal(t["prediction"], np.sign(t["x"]))
    np.testing.assert_allclose(t["confidence"],
                               mb.info.confidence_from_observation("normal", t["x"], 0.7))
    u = sim.sample_trials("uniform", 0.8, n_per_label=2000, rng=1)
    np.testing.assert_array_equal(np.unique(u["confidence"]), [0.5, 1.0])
    # confidence 1 only outside the overlap, and then the prediction is always correct
    sure = u["confidence"] == 1
    assert np.all(u["prediction"][sure] == u["label"][sure])
    # inside the overlap (confidence 0.5) the prediction is a fair coin, independent of the label
    unsure = ~sure
    assert abs(np.mean(u["prediction"][unsure] == u["label"][unsure]) - 0.5) < 0.05
    b = sim.sample_trials("binary", 0.8, n_per_label=10, rng=2)
    assert np.all(b["confidence"] == 0.8) and set(np.unique(b["x"])) <= {-1.0, 1.0}


def test_bin_responses_and_counts():
    pred = np.array([-1, -1, 1, 1, 1, -1])
    conf = np.array([0.9, 0.5, 0.5, 0.75, 0.7499, 0.75])
    np.testing.assert_array_equal(sim.bin_responses(pred, conf), [0, 1, 2, 3, 2, 0])
    label = np.array([-1, -1, 1, 1, 1, 1])
    np.testing.assert_array_equal(sim.counts_from_trials(label, sim.bin_responses(pred, conf)),
                                  [[1, 1, 0, 0], [1, 0, 2, 1]])
    # binary noise: the bin is a fair coin even when every confidence is >= 75 %
    r = sim.bin_responses(np.ones(20000), np.full(20000, 0.9), random_bins=True, rng=3)
    assert set(np.unique(r)) == {2, 3} and abs(np.mean(r == 3) - 0.5) < 0.02


@pytest.mark.parametrize("kind", mb.info.NOISE_TYPES)
@pytest.mark.parametrize("acc", [0.6, 0.9])
def test_multinomial_and_trial_samplers_agree(kind, acc):
    """Both samplers' mean tables match the exact expectation within 4 standard errors."""
    n_sets, n = 3000, 200
    p = sim.response_probabilities(kind, acc)
    se = np.sqrt(n * p * (1 - p) / n_sets)
    means = {}
    for method in ("multinomial", "trials"):
        c = sim.simulate_counts(kind, acc, n_sets=n_sets, n_per_label=n, rng=11, method=method)
        assert c.shape == (n_sets, 2, 4) and c.dtype == np.int64
        assert np.all(c.sum(-1) == n)
        means[method] = c.mean(axis=0)
        np.testing.assert_array_less(np.abs(means[method] - n * p), 4 * se + 1e-12)
    # and with each other (difference of two independent means)
    np.testing.assert_array_less(np.abs(means["multinomial"] - means["trials"]),
                                 4 * np.sqrt(2) * se + 1e-12)
    # zero-probability cells stay empty under both samplers (uniform: no confident errors)
    if kind == "uniform":
        assert means["trials"][1, 0] == 0 and means["trials"][0, 3] == 0


def test_trial_sampler_chi_square_against_exact_probabilities():
    c = sim.simulate_counts("normal", 0.7, n_sets=500, n_per_label=200, rng=5, method="trials")
    pooled = c.sum(axis=0)
    p = sim.response_probabilities("normal", 0.7)
    for row in range(2):
        res = stats.chisquare(pooled[row], pooled[row].sum() * p[row])
        assert res.pvalue > 1e-3


def test_simulate_study_shape_and_reproducibility():
    """(Its speed is measured by scripts/bench_study.py, not asserted here.)"""
    c = sim.simulate_study(rng=np.random.default_rng(2025))
    assert c.shape == (3, 4, 200, 2, 4)
    assert np.all(c.sum(-1) == 200)
    # seeded: same seed, same data; a Generator is advanced; other seeds differ
    np.testing.assert_array_equal(c, sim.simulate_study(rng=np.random.default_rng(2025)))
    np.testing.assert_array_equal(sim.simulate_study(rng=7), sim.simulate_study(rng=7))
    assert not np.array_equal(c, sim.simulate_study(rng=2026))
    g = np.random.default_rng(1)
    assert not np.array_equal(sim.simulate_counts("normal", 0.7, rng=g),
                              sim.simulate_counts("normal", 0.7, rng=g))
    t1 = sim.sample_trials("uniform", 0.6, 20, 2, rng=4)
    t2 = sim.sample_trials("uniform", 0.6, 20, 2, rng=4)
    for k in t1:
        np.testing.assert_array_equal(t1[k], t2[k])
    # order of kinds and accuracies in the study array
    sub = sim.simulate_study(kinds=["binary"], accs=[0.8], n_sets=5, rng=0)
    assert sub.shape == (1, 1, 5, 2, 4)


def test_vectorised_accuracy_axis():
    c = sim.simulate_counts("normal", ACCS, n_sets=7, n_per_label=30, rng=0)
    assert c.shape == (4, 7, 2, 4)
    t = sim.sample_trials("binary", ACCS, n_per_label=5, n_sets=2, rng=0)
    assert t["x"].shape == (4, 2, 10)


# ------------------------------------------------------------------------- theoretical lines

def test_theoretical_values_at_acc_07():
    """Uniform and binary noise against the closed forms of Theorem 3."""
    u = sim.theoretical_measures("uniform", 0.7, sdt=False)
    b = sim.theoretical_measures("binary", 0.7, sdt=False)
    lo, hi = mb.info.info_bounds(0.7)
    # uniform: info = max info, meta-I = max - min info
    assert u["info"] == pytest.approx(hi, abs=1e-12)
    assert u["meta_I"] == pytest.approx(hi - lo, abs=1e-12)
    assert u["meta_I2r"] == pytest.approx((hi - lo) / mb.info.binary_entropy(0.7), abs=1e-12)
    assert u["meta_I1r"] == pytest.approx((hi - lo) / mb.info.meta_I_normal(u["d_prime"]), rel=1e-9)
    # binary: everything 0, info = min info
    assert b["info"] == pytest.approx(lo, abs=1e-12)
    for k in mb.info.INFO_MEASURES:
        assert b[k] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.regression
def test_theoretical_normal_values_snapshot():
    """Regression snapshot of our own output, not an independent value: the binned normal-noise
    lines at acc = 0.7 and at the study's accuracies, as the book's simulation chapter quotes them
    (its text and figures are glued from the same code). It exists to catch an unintended change
    of the binning; the properties that do not need a pinned number (binning loses information,
    the ordering of the three lines, meta-I₁ʳ < 1) are tested independently above and below.
    """
    n = sim.theoretical_measures("normal", 0.7, sdt=False)
    assert n["info"] == pytest.approx(0.157752, abs=1e-6)
    assert n["meta_I"] == pytest.approx(0.039043, abs=1e-6)
    assert n["meta_I1r"] == pytest.approx(0.694234, abs=1e-6)
    assert n["meta_I2r"] == pytest.approx(0.044302, abs=1e-6)
    assert n["RMI"] == pytest.approx(0.138799, abs=1e-6)
    u = sim.theoretical_measures("uniform", 0.7, sdt=False)
    assert u["meta_I1r"] == pytest.approx(5.0017, abs=1e-4)
    at = sim.theoretical_measures("normal", ACCS, sdt=False)["meta_I1r"]
    np.testing.assert_allclose(at, [0.2510, 0.6942, 0.6843, 0.6128], atol=1e-4)


def test_binning_loses_information_for_normal_noise():
    """Dayan (2023): binning reduces the transmitted information; uniform noise loses nothing."""
    acc = np.linspace(0.55, 0.95, 9)
    binned = sim.theoretical_measures("normal", acc, sdt=False)["info"]
    unbinned = mb.info.noise_info("normal", acc)
    assert np.all(binned < unbinned)
    np.testing.assert_allclose(sim.theoretical_measures("uniform", acc, sdt=False)["info"],
                               mb.info.noise_info("uniform", acc), atol=1e-12)


def test_rmi_lines_ordering_and_meta_I1r_below_one():
    acc = np.linspace(0.55, 0.95, 50)
    th = {k: sim.theoretical_measures(k, acc, sdt=False) for k in mb.info.NOISE_TYPES}
    np.testing.assert_allclose(th["uniform"]["RMI"], 1.0, atol=1e-12)
    np.testing.assert_allclose(th["binary"]["RMI"], 0.0, atol=1e-12)
    assert np.all((th["normal"]["RMI"] > 0) & (th["normal"]["RMI"] < 1))
    for k in mb.info.INFO_MEASURES:  # all measures agree on the ordering
        assert np.all(th["uniform"][k] > th["normal"][k])
        assert np.all(th["normal"][k] > th["binary"][k])
    # the paper: meta-I1r of normal noise "consistently lies below 1 due to the binning"
    assert np.all(th["normal"]["meta_I1r"] < 1)
    np.testing.assert_allclose(th["normal"]["d_prime"], 2 * stats.norm.ppf(acc), atol=1e-12)


def test_plug_in_estimates_converge_to_the_lines():
    acc = np.array([0.6, 0.8])
    for kind in mb.info.NOISE_TYPES:
        c = sim.simulate_counts(kind, acc, n_sets=1, n_per_label=2_000_000, rng=9)[:, 0]
        est = mb.type2_measures(c)
        line = sim.theoretical_measures(kind, acc, sdt=False)
        for k in ("meta_I", "meta_I2r", "RMI"):
            np.testing.assert_allclose(est[k], line[k], atol=3e-3)


def test_theoretical_scalar_and_array_types():
    r = sim.theoretical_measures("normal", 0.8, sdt=False)
    assert isinstance(r["RMI"], float)
    r = sim.theoretical_measures("normal", [0.6, 0.8], sdt=False)
    assert r["RMI"].shape == (2,)


def test_theoretical_sdt_measures():
    """The closed-form lines agree with unpadded fits of the exact (scaled) tables."""
    from metabits.sdt import fit_meta_d
    acc = np.array([0.6, 0.7, 0.8, 0.9])
    for kind in ("normal", "binary"):
        lines = sim.theoretical_measures(kind, acc)
        fits = fit_meta_d(sim.response_probabilities(kind, acc) * sim.SDT_TOTAL / 2, pad=0.0)
        np.testing.assert_allclose(lines["meta_d"], fits["meta_d"], atol=1e-6)
        np.testing.assert_allclose(lines["m_ratio"], fits["m_ratio"], atol=1e-6)
    n = sim.theoretical_measures("normal", acc)
    np.testing.assert_allclose(n["meta_d"], 2 * stats.norm.ppf(acc), atol=1e-12)
    np.testing.assert_allclose(n["m_ratio"], 1.0, atol=1e-12)
    u = sim.theoretical_measures("uniform", acc)
    assert np.all(np.isposinf(u["meta_d"])) and np.all(np.isposinf(u["m_ratio"]))
    no_sdt = sim.theoretical_measures("normal", 0.7, sdt=False)
    assert no_sdt.meta_d is None and no_sdt.m_ratio is None


def test_uniform_meta_d_grows_without_bound():
    """Why the uniform line is +inf: padded fits of the exact table grow with the sample size."""
    from metabits.sdt import _metad as metad
    p = sim.response_probabilities("uniform", 0.7)
    with pytest.raises(ValueError, match="empty cells"):  # zero cells: no finite maximum
        metad.fit_meta_d(np.asarray(p) * 1e6, pad=0.0)
    md = [metad.fit_meta_d(np.asarray(p) * n, pad=0.25)["meta_d"] for n in (2e2, 2e4, 2e6)]
    assert md[0] < md[1] < md[2]


# ---------------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("acc", [1.0, 0.49, -0.1, 1.5, np.nan, np.inf])
def test_bad_accuracy(acc):
    with pytest.raises(ValueError, match="acc"):
        sim.response_probabilities("normal", acc)
    with pytest.raises(ValueError, match="acc"):
        sim.simulate_counts("uniform", acc, rng=0)
    with pytest.raises(ValueError, match="acc"):
        sim.sample_trials("binary", acc, rng=0)
    with pytest.raises(ValueError, match="acc"):
        sim.theoretical_measures("normal", acc)


def test_theoretical_rejects_chance_accuracy():
    with pytest.raises(ValueError, match=r"\(0.5, 1\)"):
        sim.theoretical_measures("normal", 0.5)


@pytest.mark.parametrize("kind", ["gauss", "Normal", "", None, 3])
def test_unknown_kind(kind):
    with pytest.raises(ValueError, match="noise kind"):
        sim.response_probabilities(kind, 0.7)
    with pytest.raises(ValueError, match="noise kind"):
        sim.simulate_counts(kind, 0.7, rng=0)
    with pytest.raises(ValueError, match="noise kind"):
        sim.simulate_study(kinds=["normal", kind], rng=0)


@pytest.mark.parametrize("n", [0, -1, 2.5, True, "200", None])
def test_bad_sizes(n):
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        sim.simulate_counts("normal", 0.7, n_sets=n, rng=0)
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        sim.simulate_counts("normal", 0.7, n_per_label=n, rng=0)
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        sim.sample_trials("normal", 0.7, n_per_label=n, rng=0)


def test_other_bad_input():
    with pytest.raises(ValueError, match="method"):
        sim.simulate_counts("normal", 0.7, method="exact", rng=0)
    with pytest.raises(ValueError, match="rng"):
        sim.simulate_counts("normal", 0.7, rng="seed")
    with pytest.raises(ValueError, match="kinds"):
        sim.simulate_study(kinds=[], rng=0)
    with pytest.raises(ValueError, match="1-D"):
        sim.simulate_study(accs=[[0.6, 0.7]], rng=0)
    with pytest.raises(ValueError, match="prediction"):
        sim.bin_responses([0, 1], [0.6, 0.8])
    with pytest.raises(ValueError, match="confidence"):
        sim.bin_responses([1, 1], [0.4, 0.8])
    with pytest.raises(ValueError, match="same shape"):
        sim.bin_responses([1, 1], [0.6])
    with pytest.raises(ValueError, match="label"):
        sim.counts_from_trials([0, 1], [0, 1])
    with pytest.raises(ValueError, match="response"):
        sim.counts_from_trials([-1, 1], [0, 4])


def test_measure_study_full_size():
    """The whole Figure 6 study: shapes, no silently dropped data set, and the expected
    ordering."""
    from metabits_book.studies import simulation as sim
    counts = sim.simulate_study(rng=11)
    res = sim.measure_study(counts)
    for key in ("acc",) + sim.SIX_MEASURES:
        assert res[key].shape == (3, 4, 200)
    assert all(np.all(np.isfinite(res[k])) for k in sim.SIX_MEASURES if res["undefined"][k] == 0)
    rmi = np.nanmean(res["RMI"], axis=-1)          # (kind, acc): uniform > normal > binary
    assert np.all(rmi[0] > rmi[1]) and np.all(rmi[1] > rmi[2])
    m_ratio = np.nanmean(res["m_ratio"], axis=-1)
    assert np.all(np.abs(m_ratio[1] - 1) < 0.2)      # normal noise: M-ratio near 1
    assert np.all(m_ratio[0] > 1.5)                  # uniform noise: far above


def test_measure_study_marks_undefined_tables():
    """A table with d′ = 0 cannot be fitted or normalised: NaN there, counted, the rest kept."""
    from metabits_book.studies import simulation as sim
    table1 = [[84, 56, 48, 12], [4, 56, 64, 76]]
    flat = [[10, 10, 10, 10], [10, 10, 10, 10]]
    res = sim.measure_study(np.array([table1, flat, table1]))
    assert np.isnan(res["meta_d"][1]) and np.isnan(res["meta_I1r"][1]) and np.isnan(res["RMI"][1])
    assert res["undefined"] == {"meta_d": 1, "m_ratio": 1, "meta_I": 0, "meta_I1r": 1,
                                "meta_I2r": 0, "RMI": 1}
    # statConfR's padding 1/(2K) on Table 1: metadpy's meta-d' 1.9497 (recorded in test_metad)
    assert res["meta_d"][0] == pytest.approx(1.9497, abs=1e-4)
    assert res["meta_d"][2] == res["meta_d"][0]


def test_measure_study_bad_shape():
    from metabits_book.studies import simulation as sim
    with pytest.raises(ValueError, match=r"\(\.\.\., 2, 4\)"):
        sim.measure_study(np.ones((5, 2, 6)))


# ---------------------------------------------------------------- Monte Carlo summaries

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


@pytest.mark.parametrize("pad", ["abc", -1.0, 0.0, float("nan"), float("inf"), [0.25, 0.25]])
def test_measure_study_refuses_a_bad_pad(pad):
    # a bad pad would make every meta-d' NaN silently: it is refused
    counts = sim.simulate_study(accs=[0.7], n_sets=3, rng=1)
    with pytest.raises(ValueError, match="pad"):
        sim.measure_study(counts, pad=pad)


def test_measure_study_pad_none_is_one_over_2k():
    """pad=None pads 1/(2K) = 0.25 for the 2 x 4 tables, which is SDT_PAD (documented)."""
    counts = sim.simulate_study(accs=[0.7], n_sets=3, rng=1)
    np.testing.assert_array_equal(sim.measure_study(counts, pad=None).meta_d,
                                  sim.measure_study(counts, pad=0.25).meta_d)
    assert sim.SDT_PAD == 0.25
    assert "pad : float or None" in sim.measure_study.__doc__


def test_measure_study_meta_d_is_nan_only_where_a_fit_fails():
    counts = sim.simulate_study(accs=[0.7], n_sets=4, rng=1).copy()
    counts[1, 0, 0] = [[50, 50, 50, 50], [50, 50, 50, 50]]      # d' = 0: no meta-d'
    r = sim.measure_study(counts)
    assert np.isnan(r.meta_d[1, 0, 0]) and r.undefined["meta_d"] == 1
    assert np.all(np.isfinite(np.delete(r.meta_d.ravel(), 4)))


# --- the library's binning (metabits.info) at the paper's one edge ------------------------------

@pytest.mark.parametrize("kind", ["normal", "uniform"])
@pytest.mark.parametrize("acc", [0.6, 0.7, 0.8, 0.9])
def test_response_probabilities_are_the_librarys_binning_at_the_papers_edge(kind, acc):
    np.testing.assert_allclose(mb.info.binned_response_probabilities(kind, acc, [0.75]),
                               sim.response_probabilities(kind, acc), atol=1e-14)



# --- measure_study: a choice of the library's all_measures columns ----------------------------

@pytest.fixture(scope="module")
def study():
    """A small study of all three noise kinds (3, 4, 20, 2, 4), some with undefined measures."""
    return sim.simulate_study(n_sets=20, n_per_label=40, rng=3)


def test_measure_study_is_a_choice_of_all_measures_columns(study):
    res = sim.measure_study(study)
    a = mb.all_measures(study, pad=sim.SDT_PAD)
    for name in sim.SIX_MEASURES:
        assert np.array_equal(res[name], a.value(name), equal_nan=True), name
    # acc is the information measures' accuracy (columns recoded to their majority label)
    assert np.array_equal(res.acc, mb.type2_measures(study, undefined="nan").acc)
    assert np.array_equal(res.acc, mb.info.recoding(study).acc_recoded)


def test_measure_study_bias_reduction_is_type2_measures(study):
    res = sim.measure_study(study, bias_reduction=50, rng=9)
    ref = mb.type2_measures(study, bias_reduction=50, rng=9, undefined="nan")
    for name in ("meta_I", "meta_I1r", "meta_I2r", "RMI"):
        assert np.array_equal(res[name], ref[name], equal_nan=True), name
        assert res.bias_excluded[name] == int(np.sum(ref.bias_excluded[name]))
    plain = sim.measure_study(study)  # the SDT measures are never bias-reduced
    assert np.array_equal(res.meta_d, plain.meta_d, equal_nan=True)


def test_the_two_accuracies_differ_where_a_column_has_more_errors():
    # the low-confidence "S2" column holds more S1 than S2 trials
    t = np.array([[[30, 10, 12, 8], [5, 10, 8, 37]]], dtype=float)
    res = sim.measure_study(t)
    assert res.acc[0] == pytest.approx((30 + 10 + 12 + 37) / 120, abs=1e-12)
    assert mb.all_measures(t).value("acc")[0] == pytest.approx((30 + 10 + 8 + 37) / 120, abs=1e-12)


# --- bad input (with tests/lib/test_bad_input.py's rule: a ValueError, no warning on the way) ----

TABLE1 = [[84, 56, 48, 12], [4, 56, 64, 76]]


@pytest.mark.parametrize("call, match", [
    (lambda: sim.simulate_counts("normal", 0.7, rng=True), "rng must be"),
    (lambda: sim.measure_study(np.array(TABLE1)[None], pad="abc"), "pad"),
    (lambda: sim.measure_study(np.array(TABLE1)[None], pad=-1), "pad must be"),
    (lambda: sim.measure_study(np.array(TABLE1)[None], pad=np.inf), "pad must be finite"),
    (lambda: sim.mc_ratio(sim.MCEstimate(1.0, 0.1, 10), sim.MCEstimate(np.inf, 0.1, 10)),
     "denominator.value must be finite"),
    (lambda: sim.mc_ratio(sim.MCEstimate(1.0, -0.1, 10), sim.MCEstimate(2.0, 0.1, 10)),
     "numerator.se must be >= 0"),
    (lambda: sim.mc_mean([1.0, 2.0, 3.0], axis=1), "axis must be an integer in"),
    (lambda: sim.mc_sd([1.0, 2.0, 3.0], axis="0"), "axis must be an integer in"),
    (lambda: sim.mc_mean(["1", "2", "3"]), "must be numbers"),
    (lambda: sim.bin_responses([1], [0.7], random_bins=1), "random_bins must be True or False"),
])
def test_bad_input_raises_value_error(call, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning on the way is a defect too
        with pytest.raises(ValueError, match=match):
            call()
