"""ΔConf and Rahnev's ratio and difference measures (metabits.sdt._relative)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metabits as mb
from metabits.sdt import dconf, relative_type2
from metabits.sdt._relative import RELATIVE, sdt_expected_table

TABLE1 = np.array([[84, 56, 48, 12], [4, 56, 64, 76]], dtype=float)  # Meyen et al. (2025)


def test_dconf_of_table1_by_hand():
    """Table 1 folds into 280 correct (160 at high confidence) and 120 errors (16 high): with
    K = 2 the levels are 0 and 1 on either scale."""
    assert dconf(TABLE1) == pytest.approx(160 / 280 - 16 / 120, abs=1e-14)
    assert dconf(TABLE1, scale="levels") == pytest.approx(160 / 280 - 16 / 120, abs=1e-14)


def test_dconf_scales_differ_by_k_minus_1_and_match_a_trial_level_mean():
    rng = np.random.default_rng(3)
    table = rng.integers(1, 40, size=(2, 8)).astype(float)  # K = 4
    # trial by trial: confidence level of each column and correctness
    K = 4
    level = np.r_[np.arange(K, 0, -1), np.arange(1, K + 1)]  # 4 3 2 1 | 1 2 3 4
    conf, correct = [], []
    for s in range(2):
        for j in range(2 * K):
            n = int(table[s, j])
            conf += [level[j]] * n
            correct += [int((j >= K) == (s == 1))] * n
    conf, correct = np.array(conf, float), np.array(correct, bool)
    by_hand = conf[correct].mean() - conf[~correct].mean()
    assert dconf(table, scale="levels") == pytest.approx(by_hand, abs=1e-12)
    assert dconf(table) == pytest.approx(by_hand / (K - 1), abs=1e-12)


def test_dconf_undefined_without_errors():
    perfect = [[10, 5, 0, 0], [0, 0, 5, 10]]
    with pytest.raises(ValueError, match="no errors"):
        dconf(perfect)
    assert np.isnan(dconf(perfect, undefined="nan"))


def test_expected_table_is_the_sdt_rating_model_at_the_tables_own_parameters():
    """The SDT observer's table is rating_probabilities(d′, meta-d′ = d′, c) with the criteria
    read off the padded table, times each row's number of trials."""
    flat = mb.sdt.simulate_ratings(1.2, 0.8, 60, n_sets=5, c=0.3, K=3, rng=1).astype(float)
    pad = 1 / 6
    expected = sdt_expected_table(flat, pad)
    for table, exp in zip(flat, expected):
        padded = table + pad
        tail = np.cumsum(padded[:, ::-1], axis=1)[:, ::-1][:, 1:] / padded.sum(1, keepdims=True)
        from scipy.stats import norm

        zf, zh = norm.ppf(tail[0]), norm.ppf(tail[1])
        crit = -(zf + zh) / 2
        d, c = zh[2] - zf[2], crit[2]
        p = mb.sdt.rating_probabilities(d, d, c, K=3, criteria=(crit[:2], crit[3:]))
        np.testing.assert_allclose(exp, table.sum(1, keepdims=True) * p, rtol=1e-10, atol=1e-10)


@settings(deadline=None, max_examples=40)
@given(d=st.floats(0.2, 3.0), c=st.floats(-0.8, 0.8), K=st.integers(2, 6))
def test_an_sdt_observers_table_has_every_ratio_one_and_every_difference_zero(d, c, K):
    """For the table an SDT observer produces in expectation, the observed measures are the
    SDT observer's own: every ratio is 1 and every difference 0 (any d′ > 0, c, K)."""
    p = mb.sdt.rating_probabilities(d, d, c, K=K)
    r = relative_type2(p * 1e6, pad=1e-9)
    for name in ("auroc2", "gamma", "phi", "dconf"):
        assert r[f"{name}_ratio"] == pytest.approx(1.0, abs=1e-6), name
        assert r[f"{name}_diff"] == pytest.approx(0.0, abs=1e-6), name


def test_less_metacognitive_sensitivity_lowers_every_ratio_below_one():
    """Tables from the meta-d′ model with meta-d′ = d′/2 (in expectation): confidence separates
    correct from wrong less well than an SDT observer's, so every ratio < 1, difference < 0."""
    p = mb.sdt.rating_probabilities(1.5, 0.75, 0.2, K=4)
    r = relative_type2(p * 1e5)
    for name in ("auroc2", "gamma", "phi", "dconf"):
        assert r[f"{name}_ratio"] < 0.95 and r[f"{name}_diff"] < 0, name


def test_table1_values_and_the_stack():
    r = relative_type2(TABLE1)
    assert r.gamma == pytest.approx(mb.sdt.gamma(TABLE1))
    assert r.auroc2 == pytest.approx(mb.sdt.auroc2(TABLE1))
    assert r.d == pytest.approx(mb.fit_meta_d(TABLE1, pad=0.25).d, abs=1e-12)
    for name in ("auroc2", "gamma", "phi", "dconf"):
        assert r[f"{name}_ratio"] == pytest.approx(r[name] / r[f"{name}_sdt"])
        assert r[f"{name}_diff"] == pytest.approx(r[name] - r[f"{name}_sdt"])
        assert r[f"{name}_ratio"] > 1
    stack = np.stack([TABLE1, TABLE1[::-1, ::-1], TABLE1 * 3])
    rs = relative_type2(stack)
    for i, table in enumerate(stack):
        one = relative_type2(table)
        for name in ("gamma_ratio", "phi_diff", "dconf_sdt", "auroc2_ratio"):
            assert rs[name][i] == pytest.approx(one[name], abs=1e-12)
    # the mirror image (labels and responses swapped) has the same measures
    assert rs["gamma_ratio"][1] == pytest.approx(rs["gamma_ratio"][0], abs=1e-12)


def test_undefined_tables_and_below_chance():
    perfect = np.array([[10, 5, 0, 0], [0, 0, 5, 10]], dtype=float)
    r = relative_type2(np.stack([perfect, TABLE1]))
    assert np.isnan(r.gamma_ratio[0]) and np.isfinite(r.gamma_ratio[1])
    with pytest.raises(ValueError, match="undefined"):
        relative_type2(perfect, undefined="raise")
    below = TABLE1[::-1]  # responses swapped: d′ < 0, the SDT observer's gamma < 0
    r = relative_type2(below)
    assert r.d < 0 and r.gamma_sdt < 0 and np.isnan(r.gamma_ratio)
    assert np.isfinite(r.gamma_diff)


def test_all_measures_and_measure_give_the_same_values():
    r = mb.all_measures(np.stack([TABLE1, TABLE1 * 2]), measures="all")
    rel = relative_type2(np.stack([TABLE1, TABLE1 * 2]))
    start = r.names.index("dconf")
    assert r.names[start:start + len(RELATIVE) + 1] == ("dconf", *RELATIVE)
    for name in ("dconf", *RELATIVE):
        np.testing.assert_allclose(r.value(name), rel[name], rtol=1e-12)
    assert mb.all_measures(TABLE1).names == mb.all_measures(TABLE1, measures="default").names
    with pytest.raises(ValueError, match="measures"):
        mb.all_measures(TABLE1, measures="everything")


def test_measure_all_gives_the_relative_measures_of_each_subjects_table():
    from conftest import SHEKHAR_2018

    trials = mb.read_trials(SHEKHAR_2018)
    frame = mb.measure(trials, measures="all")
    start = list(frame.columns).index("dconf")
    assert list(frame.columns[start:start + len(RELATIVE) + 1]) == ["dconf", *RELATIVE]
    assert "dconf" not in mb.measure(trials).columns
    rel = relative_type2(trials.tables().counts)
    assert len(frame) == len(rel.gamma_ratio) == 19
    for name in ("dconf", *RELATIVE):
        np.testing.assert_allclose(frame[name], rel[name], rtol=1e-12, err_msg=name)


def _sampled(d, c, K, n_per_stimulus, n_tables, seed):
    """Tables drawn from the SDT observer's rating probabilities (d′ = meta-d′ = d)."""
    p = mb.sdt.rating_probabilities(d, d, c, K=K)
    rng = np.random.default_rng(seed)
    return np.stack([rng.multinomial(n_per_stimulus, p[0], size=n_tables),
                     rng.multinomial(n_per_stimulus, p[1], size=n_tables)], 1).astype(float), p


def test_ratio_one_holds_in_expectation_not_for_sampled_tables():
    """d′ = 1, c = 0, K = 4, 100 trials per stimulus: the expected table has every ratio exactly
    1, but the mean ratio over 8,000 tables sampled from the same observer exceeds 1 by more than
    five Monte Carlo standard errors for gamma, phi and ΔConf (a ratio of two sampled quantities
    is biased; about 1.03, 1.04 and 1.05)."""
    tables, p = _sampled(1.0, 0.0, 4, 100, 8000, seed=2025)
    exact = relative_type2(p * 200, pad=1e-12)
    r = relative_type2(tables)
    for name in ("gamma", "phi", "dconf"):
        assert exact[f"{name}_ratio"] == pytest.approx(1.0, abs=1e-9), name
        x = r[f"{name}_ratio"]
        x = x[np.isfinite(x)]
        mc_se = x.std(ddof=1) / np.sqrt(len(x))
        assert len(x) >= 7990, name                    # no table near chance at d′ = 1
        assert x.mean() - 1 > 5 * mc_se, (name, x.mean(), mc_se)
        assert x.mean() < 1.1, name


def test_the_sdt_standard_error_is_the_spread_of_sampled_tables():
    """The delta-method standard error of each measure for tables sampled from the SDT observer
    (d′ = 0.5, c = 0.2, K = 4, 100 trials per stimulus) is the standard deviation of the measure
    over 6,000 sampled tables, to 6% (the Monte Carlo error of an SD from 6,000 draws is about
    1%; the delta method's own error at 100 trials a few per cent)."""
    tables, p = _sampled(0.5, 0.2, 4, 100, 6000, seed=7)
    expected = relative_type2(p * 100, pad=1e-12)
    r = relative_type2(tables)
    for name in ("auroc2", "gamma", "phi", "dconf"):
        simulated = np.nanstd(r[name], ddof=1)
        assert expected[f"{name}_sdt_se"] == pytest.approx(simulated, rel=0.06), name


def test_a_ratio_is_undefined_where_the_sdt_value_is_below_its_standard_error():
    """Why the floor: where the SDT observer's gamma equals its standard error (d′ ≈ 0.25 at
    100 trials per stimulus), the observed gamma of tables sampled from that observer, divided
    by the observer's gamma, has a standard deviation of about 1 — as large as the ratio's own
    value; below it the ratio says nothing. A table whose d′ is 0 up to rounding (the SDT
    observer's gamma about 1e-16, which once gave a ratio of 1e14) is NaN and flagged."""
    from scipy.optimize import brentq

    def gap(d):
        e = relative_type2(mb.sdt.rating_probabilities(d, d, 0.0, K=4) * 100, pad=1e-12)
        return e.gamma_sdt - e.gamma_sdt_se

    d = brentq(gap, 0.01, 2.0)
    assert 0.1 < d < 0.5
    tables, p = _sampled(d, 0.0, 4, 100, 6000, seed=11)
    exact = relative_type2(p * 100, pad=1e-12)
    spread = np.nanstd(relative_type2(tables).gamma / exact.gamma_sdt, ddof=1)
    assert spread == pytest.approx(1.0, abs=0.08)
    # a table with d′ = 0 up to rounding: equal rows
    flat = np.array([[20, 10, 10, 20], [20, 10, 10, 20]], dtype=float)
    r = relative_type2(flat)
    assert abs(r.d) < 1e-12 and abs(r.gamma_sdt) < 1e-12
    assert np.isnan(r.gamma_ratio) and np.isnan(r.phi_ratio) and np.isnan(r.dconf_ratio)
    assert r.ratio_undefined and np.isfinite(r.gamma_diff)
    assert np.isfinite(r.auroc2_ratio)   # AUROC2's SDT value is 0.5 at chance
    # the stack: the flag per table, False where every ratio is defined
    rs = relative_type2(np.stack([flat, TABLE1]))
    assert rs.ratio_undefined.tolist() == [True, False]


def test_measure_flags_an_undefined_ratio():
    import pandas as pd

    rows = []
    for subject, table in (("near", [[20, 10, 10, 20], [20, 10, 10, 20]]), ("t1", TABLE1)):
        table = np.asarray(table, dtype=int)
        for s in range(2):
            for j in range(4):
                rows += [{"subject": subject, "stimulus": s, "response": int(j >= 2),
                          "confidence": (2 - j) if j < 2 else (j - 1)}] * int(table[s, j])
    frame = mb.measure(pd.DataFrame(rows), measures=["gamma", "gamma_ratio", "gamma_diff"])
    flags = dict(zip(frame.subject, frame["flags"]))
    assert "sdt_ratio_undefined" in flags["near"] and "sdt_ratio_undefined" not in flags["t1"]
    assert np.isnan(frame.gamma_ratio[0]) and np.isfinite(frame.gamma_diff[0])
