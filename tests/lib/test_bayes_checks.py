"""Checks of the Bayesian meta-d′ (metabits.sdt): predictive checks.

Fast: the NumPy twin of the model's likelihood by hand, the prior sampler's distributions, bad
input. Slow (NUTS): the NumPy likelihood against the PyMC model's and the predictive checks on a
few small fits (K = 2, the compiled model the other Bayesian tests share). The parameter-recovery
study (metabits_book.studies.bayes_recovery) is tests/test_bayes_recovery.py's.
"""

import numpy as np
import pytest

import metabits as mb
from _bayes_fits import group_fit, group_tables, table1_fast
from metabits.sdt import _bayes_checks as bc
from metabits.sdt import PredictiveCheck, posterior_predictive, prior_predictive

TABLE1 = ([84, 56, 48, 12], [4, 56, 64, 76])  # Meyen et al. (2025), Table 1
#: "S1" responses say meta-d′ is large (misses rarely confident), "S2" responses that it is
#: near 0 (false alarms as confident as hits): no single meta-d′ fits both
MISFIT = ([270, 30, 60, 40], [10, 90, 60, 240])
SMALL = dict(chains=2, draws=300, tune=300)


def test_exported():
    for name in bc.__all__:
        assert getattr(mb.sdt, name) is getattr(bc, name)


# ------------------------------------------------------------------ the model in NumPy


def test_rating_probabilities_hand_values_and_floor():
    """meta-d′ = 1, c = 0, criteria ∓1: P(high confidence | S2, "S2") = Φ(−0.5) / Φ(0.5)."""
    from scipy.stats import norm

    p = bc._hmetad_rating_probabilities(1.0, 0.0, [-1.0], [1.0])
    assert p.shape == (2, 2, 2)
    assert p.sum(-1) == pytest.approx(np.ones((2, 2)))
    assert p[1, 1, 1] == pytest.approx(norm.sf(0.5) / norm.sf(-0.5), rel=1e-12)
    assert p[0, 0, 0] == pytest.approx(p[1, 1, 1], rel=1e-12)  # symmetric at c = 0
    # far criteria: a cell's probability floored at 1e-5 (HMeta-d's Tol), then renormalised
    p = bc._hmetad_rating_probabilities(1.0, 0.0, [-40.0], [40.0])
    assert p[1, 1, 1] == pytest.approx(1e-5 / (1 + 1e-5), rel=1e-9)


@pytest.mark.slow
def test_rating_probabilities_are_the_pymc_models(pytensor_in_python):
    """The NumPy twin equals the PyTensor likelihood of the fitted model, K = 4, to rounding."""
    import pytensor.tensor as pt

    from metabits.sdt._hmetad_model import _rating_probs

    rng = np.random.default_rng(0)
    m, c = rng.normal(1, 1, 5), rng.normal(0, 0.3, 5)
    s1 = np.sort(c[:, None] - np.abs(rng.normal(0, 1, (5, 3))), axis=1)
    s2 = np.sort(c[:, None] + np.abs(rng.normal(0, 1, (5, 3))), axis=1)
    s2[0, -1] = 40.0  # a floored cell
    want = _rating_probs(pt, *(pt.as_tensor(x) for x in (m, c, s1, s2))).eval()
    assert bc._hmetad_rating_probabilities(m, c, s1, s2) == pytest.approx(want, abs=1e-14)


def _fake_fit(kind, estimate_dprime, counts, d=1.0, c=0.1):
    """A stand-in with the fields the prior sampler reads (no NUTS)."""
    from dataclasses import make_dataclass

    name = "BayesMetaDFit" if kind == "single" else "BayesMetaDGroupFit"
    Fake = make_dataclass(name, ["counts", "d", "c", "estimate_dprime"], frozen=True)
    return Fake(np.asarray(counts, float), d, c, estimate_dprime)


def test_prior_draws_follow_flemings_priors():
    """One subject, d′ fixed: meta-d′ ~ N(d′, √2); criteria from N(0, 1/√2) truncated at c,
    sorted (K = 3). Means within 4 Monte Carlo SEs."""
    fit = _fake_fit("single", False, np.ones((2, 6)), d=1.2, c=0.3)
    S = 20_000
    p = bc._prior_draws(fit, S, np.random.default_rng(1))
    m = p["meta_d"].ravel()
    assert abs(m.mean() - 1.2) < 4 * np.sqrt(2 / S)
    assert m.std() == pytest.approx(np.sqrt(2), rel=0.03)
    assert p["t2c_S1"].shape == (S, 1, 2)
    assert np.all(p["t2c_S1"] < 0.3 - 1e-5) and np.all(p["t2c_S2"] > 0.3 + 1e-5)
    assert np.all(np.diff(p["t2c_S1"], axis=-1) >= 0) and np.all(np.diff(p["t2c_S2"], axis=-1) >= 0)
    # a criterion of the "S2" side: N(0, 1/√2) truncated above 0.3, mean by the Mills ratio
    from scipy.stats import truncnorm

    sd = 1 / np.sqrt(2)
    mean = truncnorm.mean((0.3 + 1e-5) / sd, np.inf, scale=sd)
    x = p["t2c_S2"].ravel()
    assert abs(x.mean() - mean) < 4 * x.std() / np.sqrt(x.size)


def test_prior_draws_of_the_group_and_estimated_dprime():
    fit = _fake_fit("single", True, np.ones((2, 4)))
    p = bc._prior_draws(fit, 20_000, np.random.default_rng(2))
    assert p["d"].std() == pytest.approx(np.sqrt(2), rel=0.03)  # d′ ~ N(0, √2)
    assert p["c"].std() == pytest.approx(1 / np.sqrt(2), rel=0.03)  # c ~ N(0, 1/√2)
    assert np.all(p["t2c_S1"][..., -1] < p["c"]) and np.all(p["t2c_S2"][..., 0] > p["c"])
    group = _fake_fit("group", False, np.ones((3, 2, 4)), d=np.array([1.0, 1.5, 2.0]),
                      c=np.zeros(3))
    p = bc._prior_draws(group, 20_000, np.random.default_rng(3))
    assert p["meta_d"].shape == (20_000, 3)
    log_m = np.log(p["meta_d"] / np.array([1.0, 1.5, 2.0]))
    # log M-ratio = μ + ε·δ: mean 0, variance 1 + E[ε²]·E[σ_δ²] = 1 + 1/3
    assert abs(log_m.mean()) < 0.05
    assert log_m.var() == pytest.approx(4 / 3, rel=0.05)


# ------------------------------------------------------------------ predictive checks


@pytest.fixture(scope="module")
def table1_fit():
    return table1_fast()  # shared with tests/lib/test_bayes_metad.py: 2 chains x 300 draws


@pytest.mark.slow
def test_posterior_predictive_of_table1_fits(table1_fit):
    check = posterior_predictive(table1_fit, rng=0)
    assert isinstance(check, PredictiveCheck) and check.kind == "posterior"
    assert check.draws == 600 and check.tables.shape == (600, 2, 4)
    assert np.array_equal(check.observed, np.array(TABLE1, float))
    # HMeta-d's likelihood conditions on the Type 1 responses: their numbers are kept
    blocks = check.tables.reshape(600, 2, 2, 2).sum(-1)
    assert np.all(blocks == np.array(TABLE1).reshape(2, 2, 2).sum(-1))
    assert np.all(check.lower <= check.mean) and np.all(check.mean <= check.upper)
    assert check.fraction_inside == 1.0 and check.p_value > 0.1
    assert check.chi2_predicted.shape == (600,) and check.p_values.shape == ()
    # fewer draws, picked at random, reproducibly
    again = posterior_predictive(table1_fit, draws=50, rng=1)
    assert again.draws == 50
    assert np.array_equal(again.tables, posterior_predictive(table1_fit, draws=50, rng=1).tables)


@pytest.mark.slow
def test_checks_flag_a_table_the_model_cannot_fit(table1_fit):
    """The posterior predictive check rejects MISFIT (every cell outside its interval, p = 0);
    the prior predictive does not: the priors allow such a table."""
    fit = mb.fit_meta_d_bayes(*MISFIT, **SMALL, seed=8)
    post = posterior_predictive(fit, rng=0)
    assert post.p_value < 0.01 and post.fraction_inside < 0.5
    prior = prior_predictive(fit, draws=2000, rng=0)
    assert prior.kind == "prior" and prior.p_value > 0.1 and prior.fraction_inside == 1.0
    # the priors are wide: intervals far wider than the posterior's
    assert np.all(prior.upper - prior.lower >= post.upper - post.lower)


@pytest.mark.slow
def test_checks_of_estimated_dprime_redraw_the_type1_responses():
    fit = mb.fit_meta_d_bayes(*TABLE1, estimate_dprime=True, **SMALL, seed=9)
    check = posterior_predictive(fit, rng=0)
    rows = check.tables.sum(-1)
    assert np.all(rows == [200, 200])  # trials per stimulus kept
    s2 = check.tables[:, :, 2:].sum(-1)
    assert s2[:, 1].std() > 1  # hits redrawn
    assert abs(s2[:, 1].mean() - 140) < 3  # near the observed 140 hits
    assert check.p_value > 0.05


@pytest.mark.slow
def test_checks_of_a_group():
    tables, fit = group_tables(), group_fit()  # shared with tests/lib/test_bayes_metad.py
    post = posterior_predictive(fit, draws=400, rng=0)
    assert post.tables.shape == (400, 6, 2, 4) and post.p_values.shape == (6,)
    assert post.fraction_inside > 0.9 and post.p_value > 0.05
    prior = prior_predictive(fit, draws=300, rng=0)
    assert prior.tables.shape == (300, 6, 2, 4)
    assert np.all(prior.tables.reshape(300, 6, 2, 2, 2).sum(-1)
                  == tables.reshape(6, 2, 2, 2).sum(-1))


@pytest.mark.parametrize("kwargs, match", [
    ({"draws": 0}, "draws"), ({"level": 1.0}, "level"), ({"level": 0}, "level"),
    ({"rng": "x"}, "rng|random|seed"),
])
def test_bad_input_of_checks(kwargs, match):
    fit = _fake_fit("single", False, np.array(TABLE1, float))
    for fn in (prior_predictive, posterior_predictive):
        with pytest.raises(ValueError, match=match):
            fn(fit, **kwargs)


@pytest.mark.parametrize("fit", [None, mb.fit_meta_d(TABLE1), {"counts": TABLE1}])
def test_checks_refuse_what_is_not_an_hmeta_d_fit(fit):
    for fn in (prior_predictive, posterior_predictive):
        with pytest.raises(ValueError, match="fit must be a result of fit_meta_d_bayes"):
            fn(fit)
