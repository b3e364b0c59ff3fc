"""Recovery, calibration and the MaskOri fit of metabits.hmetad (metabits_book.studies.hmetad_study).

Fast: bad input; the simulation of the calibration (its data come from the model's prior and
likelihood); the shipped recovery study (bias and 95% coverage of the condition effect and the
correlation, within their Monte Carlo errors), the shipped calibration ranks (uniform), the
shipped MaskOri fit (its files agree with each other). Slow (NUTS): a shipped recovery study and
a shipped calibration replicate recomputed from their seeds, and the MaskOri fit refitted.
"""

import numpy as np
import pandas as pd
import pytest

from metabits_book.studies import hmetad_study as hs
from metabits_book.studies.hmetad_study import (conditions_recovery, conditions_recovery_rows,
                                                conditions_recovery_summary, hmetad_sbc,
                                                hmetad_sbc_rows, sbc_uniformity)


# ------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, match", [
    ({"n_sets": 0}, "n_sets"), ({"seed": 20_000}, "seed"), ({"start": -1}, "start"),
    ({"n_people": 1}, "n_people"), ({"K": 1}, "K"), ({"n_per_stimulus": 0}, "n_per_stimulus"),
    ({"d_range": (2.0, 1.0)}, "d_range"), ({"d_range": "wide"}, "d_range"),
    ({"m_ratio": (0.8, -0.6)}, "m_ratio"), ({"m_ratio": 0.8}, "m_ratio"), ({"sd": 0}, "sd"),
    ({"rho": 1.0}, "rho"),
])
def test_bad_input_of_recovery(kwargs, match):
    with pytest.raises(ValueError, match=match):
        conditions_recovery(**({"n_sets": 1} | kwargs))


@pytest.mark.parametrize("kwargs, match", [
    ({"n_sets": 0}, "n_sets"), ({"conditions": 3}, "conditions"), ({"thin": 0}, "thin"),
    ({"d_range": (0.0, 1.0)}, "d_range"),
])
def test_bad_input_of_sbc(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hmetad_sbc(**({"n_sets": 1} | kwargs))


def test_sbc_uniformity():
    stat, p, counts = sbc_uniformity(np.arange(101), 100)  # 101 ranks in 10 unequal bins
    assert stat == pytest.approx(0.0) and p == pytest.approx(1.0)
    assert counts.sum() == 101 and set(counts) == {10, 11}
    stat, p, counts = sbc_uniformity(np.zeros(100, int), 99)  # all in the first bin
    assert stat == pytest.approx(900.0) and p < 1e-100
    for bad in ([-1, 3], [0, 101], [0.5], []):
        with pytest.raises(ValueError, match="ranks"):
            sbc_uniformity(bad, 100)
    with pytest.raises(ValueError, match="bins"):
        sbc_uniformity([0, 1], 5, bins=7)


def test_recovery_summary_bad_input():
    rows = conditions_recovery_rows()
    with pytest.raises(ValueError, match="DataFrame"):
        conditions_recovery_summary(rows.to_dict())
    with pytest.raises(ValueError, match="lacks the columns"):
        conditions_recovery_summary(rows.drop(columns="rho_lo"))
    with pytest.raises(ValueError, match="empty"):
        conditions_recovery_summary(rows.iloc[:0])
    with pytest.raises(ValueError, match="more than one design"):
        conditions_recovery_summary(pd.concat([rows, rows.assign(sd=0.5)]))


# ------------------------------------------------------------- the calibration's simulation


def test_sbc_data_come_from_the_model():
    """The generator's d′ and c are the padded counts' as the fit computes them
    (metabits.sdt.type1_sdt of the padded tables), its criteria are sorted on the right side of c,
    every person and condition has the trials asked for, and the same seed gives the same data."""
    import metabits as mb

    rng = np.random.default_rng([7, 3])
    tables, truth, d, c = hs._sbc_draw(rng, 5, 60, 3, (1.0, 2.0), 2)
    assert tables.shape == (5, 2, 2, 6) and (tables.sum(-1) == 60).all()
    sdt = mb.sdt.type1_sdt(tables + 1 / 6)
    np.testing.assert_allclose(d, sdt.d, rtol=1e-12)
    np.testing.assert_allclose(c, sdt.c, rtol=1e-12, atol=1e-12)
    assert set(truth) == set(hs.SBC_QUANTITIES) and -1 < truth["rho"] < 1
    again = hs._sbc_draw(np.random.default_rng([7, 3]), 5, 60, 3, (1.0, 2.0), 2)
    np.testing.assert_array_equal(tables, again[0])
    crit = hs._truncated_sorted(np.random.default_rng(1), np.array([3.0, -2.0]),
                                np.array([1.0, 5.0]), np.array([0.5, 0.0]), True, (2, 4))
    assert (np.diff(crit, axis=-1) >= 0).all() and (crit > np.array([[0.5], [0.0]])).all()


# ---------------------------------------------------------------- the shipped recovery study


@pytest.fixture(scope="module")
def recovery():
    return conditions_recovery_rows()


@pytest.fixture(scope="module")
def recovery_summary(recovery):
    return conditions_recovery_summary(recovery).set_index("quantity")


def test_shipped_recovery_layout(recovery):
    """At least 100 studies, sets 0, 1, ... of one seed and one design (scripts/hmetad_recovery.py)."""
    assert len(recovery) >= 100
    assert list(recovery["set"]) == list(range(len(recovery)))
    assert (recovery.seed == 2039).all() and (recovery.n_people == 16).all()
    assert (recovery[["m_ratio_1", "m_ratio_2", "sd", "rho"]].drop_duplicates().values.tolist()
            == [[0.8, 0.6, 0.25, 0.5]])


def test_condition_effect_is_recovered(recovery_summary):
    """The paired difference of the group log M-ratios (truth log 0.6 − log 0.8 = −0.288) and of
    the group M-ratios (−0.2): posterior means unbiased within 3 Monte Carlo SEs, 95% intervals
    covering within 3 binomial SEs of 95% (at the nominal rate: 2.2 points for 100 studies)."""
    for q in ("log_diff", "ratio_diff"):
        row = recovery_summary.loc[q]
        assert abs(row.bias) <= 3 * row.bias_se, q
        assert abs(row.coverage - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / row.studies), q
    assert recovery_summary.loc["log_diff", "truth"] == pytest.approx(np.log(0.6 / 0.8))


def test_correlation_is_covered_but_shrunk(recovery_summary):
    """The correlation across conditions (truth 0.5) is weakly identified by 16 people with 100
    trials a stimulus: its 95% intervals cover the truth at the nominal rate (within 3 binomial
    SEs), span most of (−1, 1) (1.7 wide on average), and the posterior mean is pulled towards
    the uniform prior's 0 (by −0.37 ± 0.03). Maximum likelihood's correlation of the people's
    M-ratios is attenuated as much by their measurement error."""
    row = recovery_summary.loc["rho"]
    assert abs(row.coverage - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / row.studies)
    assert row.width > 1.0
    assert row.bias < -3 * row.bias_se
    ml = recovery_summary.loc["ml_rho"]
    assert ml.bias < -3 * ml.bias_se


def test_group_means_and_sds(recovery_summary):
    """Each condition's group log M-ratio covers at the nominal rate within 3 binomial SEs."""
    for q in ("mu_1", "mu_2", "sigma_1", "sigma_2"):
        row = recovery_summary.loc[q]
        assert abs(row.coverage - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / row.studies), q


def test_recovery_diagnostics(recovery):
    """The short chains (2 x (500 + 500)) diverged in no study. The difference mixed well in
    every study (R-hat at most 1.011, bulk ESS at least 470); the correlation less well (R-hat
    up to 1.061, above 1.01 in about a quarter of the studies, bulk ESS down to 34), which
    coarsens each study's interval of the correlation but not the coverage over 100 studies.
    The fits' worst quantities (among them the people's criteria and an SD near 0) reach an
    R-hat of 1.16: the shipped rows record it."""
    assert recovery.divergences.sum() == 0
    assert recovery.r_hat_log_diff.max() < 1.02
    assert recovery.ess_bulk_log_diff.min() > 400
    assert recovery.r_hat_rho.max() < 1.07 and (recovery.r_hat_rho > 1.01).mean() < 0.35
    assert recovery.ess_bulk_rho.min() > 30


# ---------------------------------------------------------------------- the shipped SBC ranks


#: the significance level of each quantity's chi-square test of uniformity (10 bins); the five
#: quantities together are tested at 5 x ALPHA = 0.05 (Bonferroni)
ALPHA = 0.01


@pytest.fixture(scope="module")
def sbc():
    return hmetad_sbc_rows()


def test_shipped_sbc_layout(sbc):
    assert len(sbc) >= 100
    assert list(sbc["set"]) == list(range(len(sbc)))
    assert sbc.L.nunique() == 1
    assert sbc.d_max_error.max() < 1e-9 and sbc.c_max_error.max() < 1e-9
    for name in hs.SBC_QUANTITIES:
        if f"{name}_rank" in sbc:
            assert sbc[f"{name}_rank"].between(0, sbc.L).all()


def test_sbc_ranks_are_uniform(sbc):
    """Each quantity's ranks are compatible with the uniform distribution on 0..L (chi-square,
    10 bins, p > ALPHA = 0.01 each)."""
    L = int(sbc.L.iloc[0])
    for name in hs.SBC_QUANTITIES:
        if f"{name}_rank" in sbc:
            _, p, _ = sbc_uniformity(sbc[f"{name}_rank"], L)
            assert p > ALPHA, name


# ---------------------------------------------------------------------- the shipped MaskOri fit


def test_shipped_maskori_files_agree():
    """The thinned draws give the summary's group M-ratios and difference to within 4 Monte
    Carlo SEs of the thinned draws' means, and the subjects' M-ratios likewise."""
    import arviz as az

    post = hs.maskori_conditions_posterior().posterior
    summary = hs.maskori_conditions_summary()
    subjects = hs.maskori_conditions_subjects()
    ratio = post["group_m_ratio"]
    assert list(summary.quantity) == ["m_ratio", "m_ratio", "difference", "correlation"]
    def mcse(x):  # of the mean of draws (chain, draw)
        return float(az.mcse(az.convert_to_dataset(x))["x"])

    for k in range(2):
        x = ratio.values[..., k]
        assert abs(x.mean() - summary["mean"][k]) <= 4 * mcse(x)
    diff = ratio.values[..., 1] - ratio.values[..., 0]
    assert abs(diff.mean() - summary["mean"][2]) <= 4 * mcse(diff)
    m = post["m_ratio"].values.reshape(-1, 16, 2).mean(0).ravel()
    assert np.allclose(m, subjects.m_ratio, atol=0.05)
    assert summary.divergences.iloc[0] == 0 and (summary.r_hat <= 1.011).all()
    assert "of sigma_log_m_ratio" in summary.fit_problems[0]  # the one warning, of an SD


# ---------------------------------------------------------------------------------- slow: NUTS


@pytest.mark.slow
def test_a_shipped_recovery_study_is_what_the_rule_gives(recovery):
    """Study 37 recomputed alone from its seed: the ML estimates (so the simulated tables) agree
    exactly; the posterior means of the difference and the correlation within 4 Monte Carlo SEs
    (another CPU's floating point sends NUTS along other trajectories)."""
    old = recovery[recovery["set"] == 37].reset_index(drop=True)
    new = conditions_recovery(1, start=37, seed=2039, n_people=16, n_per_stimulus=100, K=4,
                              **hs.RECOVERY_SAMPLER)
    assert new.ml_ratio_diff[0] == pytest.approx(old.ml_ratio_diff[0], rel=1e-9)
    assert new.ml_rho[0] == pytest.approx(old.ml_rho[0], rel=1e-9)
    for q in ("log_diff", "rho"):
        sd = (old[f"{q}_hi"][0] - old[f"{q}_lo"][0]) / 3.92
        assert abs(new[f"{q}_mean"][0] - old[f"{q}_mean"][0]) <= 4 * sd / np.sqrt(
            old[f"ess_bulk_{q}"][0]) * np.sqrt(2), q


@pytest.mark.slow
def test_a_shipped_sbc_replicate_is_what_the_rule_gives(sbc):
    """Replicate 12 redrawn from its seed: the true values agree exactly, the ranks within a
    tenth of L (the same CPU gives the same ranks; another's floating point, other draws).
    Replicate 12 samples easily (R-hat 1.013, one divergence), so the test takes seconds; the
    hardest replicates take a minute."""
    row = sbc[sbc["set"] == 12].iloc[0]
    kw = {k: int(row[k]) for k in ("n_people", "conditions", "n_per_stimulus", "K", "chains",
                                   "draws", "tune", "thin")}
    new = hmetad_sbc(1, start=12, seed=int(row.seed), **kw).iloc[0]
    for name in hs.SBC_QUANTITIES:
        if f"{name}_rank" in sbc:
            assert new[f"{name}_true"] == pytest.approx(row[f"{name}_true"], rel=1e-12)
            assert abs(new[f"{name}_rank"] - row[f"{name}_rank"]) <= 0.1 * row.L, name


@pytest.mark.slow
def test_the_shipped_maskori_fit_matches_a_fresh_fit():
    """A fresh fit with other seeds and shorter chains (2 x (400 + 400)) gives the shipped group
    M-ratios and their difference within 4 combined Monte Carlo SEs."""
    fresh = hs.maskori_conditions(seed=7, chains=2, draws=400, tune=400).summary()
    shipped = hs.maskori_conditions_summary()
    for i in range(3):
        se = np.hypot(fresh.mcse_mean[i], shipped.mcse_mean[i])
        assert abs(fresh["mean"][i] - shipped["mean"][i]) <= 4 * se, i
