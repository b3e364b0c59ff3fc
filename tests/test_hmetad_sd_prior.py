"""The prior on the group SD of log M-ratio (metabits_book.studies.hmetad_sd_prior).

Fast: bad input; the model's rating probabilities are the library's
(metabits.sdt.hmetad_rating_probabilities); its SD priors are the ones named (Fleming's ε·σ_δ,
HMeta-d groupCorr's Gamma(0.001, 0.001) on the precision); its ratings term is the multinomial
log likelihood of the counts at the padded counts' d′ and c; the shipped comparison is
consistent, and its fit with metabits.hmetad's prior agrees with the chapter's fit by
metabits.hmetad itself. Slow (NUTS): the shipped comparison recomputed.
"""

import numpy as np
import pytest

import metabits as mb
from metabits_book.studies import hmetad_sd_prior as sp
from metabits_book.studies import hmetad_study as hs

COUNTS = np.tile([[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]], (4, 2, 1, 1))


#: PyTensor in Python for the model's log densities (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("pytensor_in_python")


# ------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, match", [
    ({"sd_prior": "flat"}, "sd_prior"), ({"counts": COUNTS[:, :1]}, "counts"),
    ({"counts": COUNTS[:1]}, "counts"), ({"counts": COUNTS[..., :2]}, "counts"),
    ({"counts": -COUNTS}, "counts"), ({"counts": COUNTS + 0.5}, "counts"),
])
def test_bad_input_of_the_model(kwargs, match):
    with pytest.raises(ValueError, match=match):
        sp.conditions_sd_prior_model(**({"counts": COUNTS} | kwargs))


@pytest.mark.parametrize("kwargs, match", [
    ({"chains": 0}, "chains"), ({"draws": 5}, "draws"), ({"tune": -1}, "tune"),
    ({"seed": -1}, "seed"), ({"target_accept": 1.0}, "target_accept"),
    ({"sd_prior": "uniform"}, "sd_prior"),
])
def test_bad_input_of_the_fit(kwargs, match):
    with pytest.raises(ValueError, match=match):
        sp.fit_sd_prior(COUNTS, **kwargs)


@pytest.mark.parametrize("priors", [[], ["uniform"], "uniform", ["gamma", "flat"]])
def test_bad_priors(priors):
    with pytest.raises(ValueError, match=r"priors must name .*uniform|priors must name .*flat|"
                                         r"priors must name .*\[\]"):
        sp.maskori_sd_prior(priors=priors)


@pytest.mark.parametrize("soas", [(33.3, 99.0), (33.3, 33.3), (33.3,), "short"])
def test_bad_soas(soas):
    with pytest.raises(ValueError, match="soas"):
        sp.maskori_sd_prior(soas=soas)


# ------------------------------------------------------------------------------- the model


def test_rating_probabilities_are_the_librarys():
    """The PyTensor probabilities equal metabits.sdt.hmetad_rating_probabilities to 1e-12, with
    criteria far in the tails (where the floor acts) and negative meta-d′."""
    import pytensor
    import pytensor.tensor as pt

    rng = np.random.default_rng(5)
    for K in (2, 3, 5):
        n = 9
        meta = rng.normal(1.0, 2.0, n)
        c = rng.normal(0.0, 0.7, n)
        s1 = np.sort(c[:, None] - rng.exponential(1.0, (n, K - 1)).cumsum(1), axis=1)
        s2 = c[:, None] + rng.exponential(1.0, (n, K - 1)).cumsum(1)
        s1[0] -= 9.0
        s2[1] += 9.0
        f = pytensor.function([], sp.rating_probabilities_tensor(
            pt, pt.as_tensor(meta), pt.as_tensor(c), pt.as_tensor(s1), pt.as_tensor(s2)))
        want = mb.sdt.hmetad_rating_probabilities(meta, c, s1, s2)
        np.testing.assert_allclose(f(), want, rtol=0, atol=1e-12)
        assert want.min() < 2 * sp.TOL  # the floor acts
        np.testing.assert_allclose(f().sum(-1), 1.0, rtol=1e-12)


def _point(model, rng):
    """A random point of the model's free variables (on their transformed scales)."""
    point = model.initial_point()
    return {k: v + rng.normal(0.0, 0.3, np.shape(v)) for k, v in point.items()}


def test_sd_priors_are_the_named_ones():
    """The gamma model's precisions have Gamma(shape 0.001, rate 0.001) log densities; the
    hmetad model's ε ~ Beta(1, 1) and σ | ε ~ N⁺(0, ε) (scipy's densities, to 1e-9)."""
    from scipy import stats

    rng = np.random.default_rng(2)
    gamma = sp.conditions_sd_prior_model(COUNTS, sd_prior="gamma")
    point = _point(gamma, rng)
    rv = gamma["precision_log_m_ratio"]
    lam = np.exp(point["precision_log_m_ratio_log__"])
    logp = gamma.compile_logp(vars=[rv], jacobian=False)(point)
    a, b = sp.GAMMA_PRIOR
    assert logp == pytest.approx(stats.gamma(a, scale=1 / b).logpdf(lam).sum(), rel=1e-9)
    sigma = gamma.compile_fn(gamma.replace_rvs_by_values([gamma["sigma_log_m_ratio"]]),
                             inputs=gamma.value_vars, on_unused_input="ignore")(point)[0]
    np.testing.assert_allclose(sigma, lam ** -0.5, rtol=1e-12)

    fleming = sp.conditions_sd_prior_model(COUNTS, sd_prior="hmetad")
    point = _point(fleming, rng)
    eps = 1 / (1 + np.exp(-point["epsilon_logodds__"]))
    sig = np.exp(point["sigma_log_m_ratio_log__"])
    logp = fleming.compile_logp(vars=[fleming["epsilon"], fleming["sigma_log_m_ratio"]],
                                jacobian=False)(point)
    want = stats.beta(1, 1).logpdf(eps).sum() + stats.halfnorm(scale=eps).logpdf(sig).sum()
    assert logp == pytest.approx(want, rel=1e-9)


def test_ratings_term_is_the_multinomial_of_the_counts():
    """At a random point the model's ratings term is Σ count · log p with the library's
    probabilities, meta-d′ = M-ratio · d′ and d′, c the counts' padded by 1/(2K): the person-
    and condition-major layout of counts, d′, c and the M-ratios agrees."""
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 40, size=(3, 2, 2, 8))
    model = sp.conditions_sd_prior_model(counts, sd_prior="gamma")
    point = _point(model, rng)
    fn = model.compile_fn(model.replace_rvs_by_values([model["ratings"], model["m_ratio"]]),
                          inputs=model.value_vars, on_unused_input="ignore")
    ratings, m_ratio = fn(point)
    K = 4
    sdt = mb.sdt.type1_sdt(counts + 1 / (2 * K))
    gaps1 = np.exp(point["criterion_log_gap_S1"]).reshape(3, 2, K - 1)
    gaps2 = np.exp(point["criterion_log_gap_S2"]).reshape(3, 2, K - 1)
    s1 = (sdt.c[..., None] - gaps1.cumsum(-1))[..., ::-1]
    s2 = sdt.c[..., None] + gaps2.cumsum(-1)
    p = mb.sdt.hmetad_rating_probabilities(m_ratio * sdt.d, sdt.c, s1, s2)
    want = float((counts.reshape(3, 2, 2, 2, K) * np.log(p)).sum())
    assert float(ratings) == pytest.approx(want, rel=1e-10)


def test_criteria_prior_is_the_truncated_normals():
    """At a random point the criteria's term is the log density of each side's K − 1 criteria as
    draws of N(∓μ_c2k, σ_c2k) truncated at c (scipy's truncnorm; the sort's constant (K − 1)!
    left out), plus the log Jacobian of the criteria's log gaps."""
    from scipy import stats

    rng = np.random.default_rng(4)
    counts = rng.integers(1, 40, size=(3, 2, 2, 6))
    model = sp.conditions_sd_prior_model(counts, sd_prior="hmetad")
    point = _point(model, rng)
    term = model.compile_fn(model.replace_rvs_by_values([model["criteria_prior"]]),
                            inputs=model.value_vars, on_unused_input="ignore")(point)[0]
    K = 3
    c = mb.sdt.type1_sdt(counts + 1 / (2 * K)).c.reshape(-1)
    g1, g2 = point["criterion_log_gap_S1"], point["criterion_log_gap_S2"]
    s1 = c[:, None] - np.exp(g1).cumsum(1)
    s2 = c[:, None] + np.exp(g2).cumsum(1)
    m = np.tile(point["mu_c2"], 3)[:, None]
    s = np.tile(np.exp(point["sigma_c2_log__"]), 3)[:, None]
    below = stats.truncnorm.logpdf(s1, -np.inf, (c[:, None] + m) / s, loc=-m, scale=s)
    above = stats.truncnorm.logpdf(s2, (c[:, None] - m) / s, np.inf, loc=m, scale=s)
    want = below.sum() + above.sum() + g1.sum() + g2.sum()
    assert float(term) == pytest.approx(want, rel=1e-9)


# ------------------------------------------------------------------- the shipped comparison


@pytest.fixture(scope="module")
def shipped():
    return sp.maskori_sd_prior_rows()


def test_shipped_layout(shipped):
    """Both priors, the six group quantities each, one set of sampler settings; intervals hold
    their medians and means, and the difference's mean is the difference of the means."""
    assert shipped.sd_prior.tolist() == [p for p in sp.SD_PRIORS
                                         for _ in sp.SD_PRIOR_QUANTITIES]
    assert shipped.quantity.tolist() == list(sp.SD_PRIOR_QUANTITIES) * 2
    settings = ["chains", "draws", "tune", "target_accept", "seed"]
    assert len(shipped[settings].drop_duplicates()) == 1
    for centre in ("median", "mean"):
        assert shipped[centre].between(shipped.eti_lo, shipped.eti_hi).all(), centre
    assert (shipped[["mcse_mean", "mcse_eti_lo", "mcse_eti_hi", "ess_bulk"]] > 0).all().all()
    for _, rows in shipped.groupby("sd_prior"):
        m = rows.set_index("quantity")["mean"]
        assert m["difference"] == pytest.approx(m["m_ratio_2"] - m["m_ratio_1"], abs=1e-9)
        assert (rows.loc[rows.quantity.str.startswith("sigma"), "eti_lo"] > 0).all()
        assert rows.loc[rows.quantity == "rho", ["eti_lo", "eti_hi"]].abs().max().max() < 1


def test_shipped_hmetad_prior_agrees_with_the_chapters_fit(shipped):
    """The module's model with metabits.hmetad's prior gives the chapter's group M-ratios and
    their difference (the fit of metabits.hmetad itself, hmetad_study's shipped summary) within
    4 combined Monte Carlo SEs."""
    mine = shipped[shipped.sd_prior == "hmetad"].set_index("quantity")
    chapter = hs.maskori_conditions_summary()
    for i, q in enumerate(("m_ratio_1", "m_ratio_2", "difference")):
        se = np.hypot(mine.loc[q, "mcse_mean"], chapter.mcse_mean[i])
        assert abs(mine.loc[q, "mean"] - chapter["mean"][i]) <= 4 * se, q


def test_shipped_diagnostics(shipped):
    """No divergences; every quantity's R-hat at most 1.01 and bulk ESS at least 100."""
    assert (shipped.divergences == 0).all()
    assert (shipped.r_hat <= 1.01).all()
    assert (shipped.ess_bulk >= 100).all()


# ---------------------------------------------------------------------------------- slow: NUTS


@pytest.mark.slow
def test_a_shorter_refit_agrees_with_the_shipped_comparison(shipped):
    """HMeta-d groupCorr's prior refitted with a quarter of the shipped draws: every quantity's
    mean within 4 combined Monte Carlo SEs of the shipped one (on another CPU, floating point
    sends NUTS along other trajectories, so no bit-for-bit check). The other prior's fit is
    checked against the chapter's ``hmetad`` fit above; ``scripts/hmetad_sd_prior.py``
    recomputes both at the shipped settings."""
    first = shipped.iloc[0]
    new = sp.maskori_sd_prior(priors=["gamma"], chains=int(first.chains), draws=500, tune=500,
                              target_accept=float(first.target_accept), seed=int(first.seed))
    old = shipped[shipped.sd_prior == "gamma"].reset_index(drop=True)
    assert new.quantity.tolist() == old.quantity.tolist()
    se = np.hypot(new.mcse_mean, old.mcse_mean)
    assert (np.abs(new["mean"] - old["mean"]) <= 4 * se).all()
