"""metabits.hmetad: Fleming's HMeta-d for a study, conditions within people (metabits.sdt._hmetad).

Quick: the refusals of bad sampler settings and bad data (before any sampling or compiling), the
trials read into people × conditions tables, the diagnostics' sentences, the lazy export. Slow
(NUTS): one small two-condition fit shared by the checks of its summary, people, InferenceData
(coordinates, observed data, log likelihood for ``az.loo``, posterior predictive tables) and its
warning; one condition is the group model's fit draw for draw; the one-person path; and the
two-condition model's marginal for one condition against the one-condition fit of its data.
"""

import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits.sdt import _hmetad


def _tables(n=12, C=2, K=3, trials=200, m=(0.8, 0.6), sd=0.1, seed=3):
    """Simulated people × conditions (n, C, 2, 2K): d′ from 1.2 to 1.8, group M-ratio ``m``."""
    rng = np.random.default_rng(seed)
    d = rng.uniform(1.2, 1.8, (n, C))
    ratio = np.exp(np.log(np.asarray(m[:C])) + sd * rng.standard_normal((n, C)))
    c = rng.normal(0.0, 0.2, (n, C))
    return mb.sdt.simulate_ratings(d, ratio * d, trials, c=c, K=K, rng=seed + 1)[:, :, 0]


def _trials(tables, conditions=("easy", "hard")):
    """One row per trial of tables (n, C, 2, 2K), with columns subject, condition, stimulus,
    response, confidence."""
    n, C, _, L = tables.shape
    K = L // 2
    rows = []
    for s in range(n):
        for k in range(C):
            for stim in range(2):
                for col in range(L):
                    resp = int(col >= K)
                    conf = K - col if col < K else col - K + 1
                    rows += [(f"p{s:02d}", conditions[k], stim, resp, conf)] * int(
                        tables[s, k, stim, col])
    return pd.DataFrame(rows, columns=["subject", "condition", "stimulus", "response",
                                       "confidence"])


# --------------------------------------------------------------------- quick: no sampling

def test_exported_lazily():
    code = ("import sys, metabits; "
            "print(sorted(m for m in ('numpy', 'pymc', 'pytensor', 'nutpie', 'jax', 'arviz') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert "hmetad" in mb.__all__ and mb.hmetad is _hmetad.hmetad
    assert "HMetaDFit" in mb.sdt.__all__ and mb.sdt.HMetaDFit is _hmetad.HMetaDFit


TABLES = np.tile([[30, 10, 10, 5], [5, 10, 10, 30]], (3, 2, 1, 1))  # (3 people, 2 conditions)


@pytest.mark.parametrize("kwargs, name", [
    (dict(chains=0), "chains"), (dict(chains=65), "chains"), (dict(chains=10 ** 9), "chains"),
    (dict(chains=2.0), "chains"), (dict(chains=True), "chains"), (dict(chains="4"), "chains"),
    (dict(draws=0), "draws"), (dict(draws=100_001), "draws"), (dict(draws=10 ** 9), "draws"),
    (dict(draws=None), "draws"), (dict(tune=-1), "tune"), (dict(tune=100_001), "tune"),
    (dict(tune=1.5), "tune"), (dict(target_accept=0.0), "target_accept"),
    (dict(target_accept=1.0), "target_accept"), (dict(target_accept=1.5), "target_accept"),
    (dict(target_accept=float("nan")), "target_accept"),
    (dict(target_accept="0.9"), "target_accept"), (dict(target_accept=True), "target_accept"),
    (dict(target_accept=[0.9, 0.95]), "target_accept"), (dict(seed=-1), "seed"),
    (dict(seed=1.5), "seed"), (dict(seed="1"), "seed"),
])
def test_bad_sampler_settings_are_refused_before_any_work(kwargs, name):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=name) as info:
        mb.hmetad(TABLES, **kwargs)
    assert repr(next(iter(kwargs.values())))[:6] in str(info.value) or "got" in str(info.value)
    assert time.perf_counter() - t0 < 2.0


def test_a_posterior_too_large_to_hold_is_refused():
    with pytest.raises(ValueError, match="draws"):
        mb.hmetad(np.tile([[30, 10, 10, 5, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 5, 10, 10, 30, 1]],
                          (40, 2, 1, 1)), chains=64, draws=100_000)


@pytest.mark.parametrize("data, kwargs, match", [
    (np.ones((3, 2, 5)), {}, "even number"),  # odd columns
    (np.ones((3, 2, 2)), {}, "K >= 2"),  # one confidence level
    (-TABLES, {}, "data"),
    (np.full((3, 2, 2, 4), np.nan), {}, "data"),
    (np.ones((2, 3, 2, 2, 4)), {}, "shape"),
    (np.zeros((3, 2, 2, 4)), {}, "all zero"),
    (np.array([[[10, 0, 0, 0], [0, 0, 0, 0]]] * 3), {}, "empty row"),
    (np.array([[[5, 5, 5, 5], [5, 5, 5, 5]]] * 3), {}, "d′ = 0 for participant 0"),
    (TABLES, dict(subject="who"), "subject"),
    (TABLES, dict(condition="cond"), "condition"),
    ("no/such/file.csv", {}, "no such file"),
    (pd.DataFrame({"subject": [1, 1], "stimulus": [0, 1], "response": [0, 1],
                   "confidence": [1, 2]}), dict(condition=3), "condition"),
    (pd.DataFrame({"subject": [1, 1], "stimulus": [0, 1], "response": [0, 1],
                   "confidence": [1, 2]}), dict(condition="block"), "block"),
])
def test_bad_data_are_refused(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        mb.hmetad(data, **kwargs)


def test_trials_need_every_person_in_every_condition():
    d = _trials(_tables(n=3, trials=30))
    d = d[~((d.subject == "p01") & (d.condition == "hard"))]
    with pytest.raises(ValueError, match=r"subject='p01' has no trials in condition='hard'"):
        mb.hmetad(d, condition="condition")


def test_a_person_with_one_stimulus_is_refused_by_name():
    d = _trials(_tables(n=3, trials=30))
    d = d[~((d.subject == "p02") & (d.condition == "easy") & (d.stimulus == 1))]
    with pytest.raises(ValueError, match="subject='p02', condition='easy' cannot be fitted: one "
                                         "stimulus"):
        mb.hmetad(d, condition="condition")


def test_trials_become_people_by_conditions_tables():
    tables = _tables(n=3, trials=30)
    d = _trials(tables).sample(frac=1.0, random_state=0)  # any row order
    counts, people, conds, values = _hmetad._from_trials(
        d, dict(subject=None, stimulus=None, response=None, confidence=None, correct=None),
        "condition")
    assert values is None  # no covariates
    assert people == ["p00", "p01", "p02"] and conds == ["easy", "hard"]
    np.testing.assert_array_equal(counts, tables)
    one, people, conds, _ = _hmetad._from_trials(
        d[d.condition == "easy"], dict(subject=None, stimulus=None, response=None,
                                       confidence=None, correct=None), None)
    np.testing.assert_array_equal(one[:, 0], tables[:, 0])


def test_read_trials_are_taken_with_their_grouping():
    d = _trials(_tables(n=3, trials=30))
    counts, people, conds, _ = _hmetad._from_trials(mb.read_trials(d, by="condition"),
                                                    dict(subject=None), "condition")
    assert counts.shape == (3, 2, 2, 6) and conds == ["easy", "hard"]
    with pytest.raises(ValueError, match="pass condition='condition'"):
        mb.hmetad(mb.read_trials(d, by="condition"))
    with pytest.raises(ValueError, match="not grouped by it"):
        mb.hmetad(mb.read_trials(d), condition="condition")
    with pytest.raises(ValueError, match="columns are chosen already"):
        mb.hmetad(mb.read_trials(d, by="condition"), subject="subject", condition="condition")


def test_the_diagnostics_say_what_is_wrong_and_what_to_try():
    args = dict(chains=4, draws=1000, tune=1000, target_accept=0.95)
    worst = {"r_hat": "m_ratio", "ess_bulk": "sigma_log_m_ratio", "ess_tail": "t2c_S1"}
    assert _hmetad._problems(1.002, 900.0, 800.0, worst, 0, args) == ""
    text = _hmetad._problems(1.002, 900.0, 800.0, worst, 3, args)
    assert "3 divergent transitions" in text and "target_accept=0.975" in text
    assert "tune=2000" in text
    text = _hmetad._problems(1.05, 900.0, 800.0, worst, 0, args)
    assert "R-hat up to 1.050 (of m_ratio)" in text and "tune=2000" in text
    text = _hmetad._problems(1.0, 150.0, 800.0, worst, 0, args)
    assert "bulk ESS down to 150 (of sigma_log_m_ratio) < 400" in text and "draws=" in text
    # NaN R-hat (one chain) is not a finding
    assert _hmetad._problems(float("nan"), 900.0, 800.0, worst, 0, dict(args, chains=1)) == ""


# --------------------------------------------------------------------- slow: NUTS fits

SMALL = dict(chains=2, draws=200, tune=300)


@pytest.fixture(scope="module")
def small_fit():
    """12 people × 2 conditions, K = 3, short chains (they warn about their ESS)."""
    tables = _tables()
    with pytest.warns(RuntimeWarning, match="ESS"):
        return tables, mb.hmetad(tables, seed=1, **SMALL)


@pytest.mark.slow
def test_summary_rows_and_columns(small_fit):
    tables, fit = small_fit
    s = fit.summary()
    assert s[["quantity", "condition"]].values.tolist() == [
        ["m_ratio", "0"], ["m_ratio", "1"], ["difference", "1 - 0"], ["correlation", "0, 1"]]
    assert list(s.columns) == ["quantity", "condition", "mean", "median", "sd", "eti_lo",
                               "eti_hi", "hdi_lo", "hdi_hi", "r_hat", "ess_bulk", "ess_tail",
                               "mcse_mean", "divergences"]
    assert np.isfinite(s.drop(columns=["quantity", "condition"]).to_numpy(float)).all()
    assert (s.eti_lo < s["median"]).all() and (s["median"] < s.eti_hi).all()
    assert (s.hdi_lo < s.hdi_hi).all()
    post = fit.trace.posterior
    diff = (post.group_m_ratio[..., 1] - post.group_m_ratio[..., 0]).values
    assert s["mean"][2] == pytest.approx(diff.mean())
    assert -1 < s.eti_lo[3] < s.eti_hi[3] < 1
    assert fit.to_frame().equals(s)
    assert fit.problems and "ESS" in fit.problems[0]


@pytest.mark.slow
def test_subjects(small_fit):
    tables, fit = small_fit
    p = fit.subjects()
    assert len(p) == 24 and p.participant.tolist()[:4] == [0, 0, 1, 1]
    assert p.condition.tolist()[:4] == [0, 1, 0, 1]
    np.testing.assert_array_equal(p.n_trials, tables.sum(axis=(-2, -1)).ravel())
    type1 = mb.sdt.type1_sdt(tables.reshape(24, 2, 6) + 1 / 6)  # HMeta-d's pad 1/(2K)
    np.testing.assert_allclose(p.d, type1.d, rtol=1e-10)
    np.testing.assert_allclose(p.c, type1.c, rtol=1e-10, atol=1e-12)
    assert ((p.m_ratio_lo < p.m_ratio) & (p.m_ratio < p.m_ratio_hi)).all()
    np.testing.assert_allclose(p.meta_d, fit.trace.posterior.meta_d.mean(("chain", "draw"))
                               .values.ravel())


@pytest.mark.slow
def test_inference_data(small_fit):
    import arviz as az

    tables, fit = small_fit
    idata = fit.to_inference_data()
    assert {"posterior", "observed_data", "log_likelihood", "posterior_predictive",
            "sample_stats", "constant_data"} <= set(idata.groups())
    post = idata.posterior
    assert not [v for v in post.data_vars if "__" in v]
    assert post.m_ratio.dims == ("chain", "draw", "participant", "condition")
    assert post.t2c_S1.dims == ("chain", "draw", "participant", "condition", "criterion")
    assert post.criterion.values.tolist() == [1, 2]
    assert post.group_m_ratio.dims == ("chain", "draw", "condition")
    assert post.corr_log_m_ratio.dims == ("chain", "draw", "condition", "condition2")
    np.testing.assert_allclose(post.corr_log_m_ratio[..., 0, 0], 1.0)
    np.testing.assert_array_equal(idata.observed_data.counts.values, tables)
    assert idata.log_likelihood.counts.shape == (2, 200, 12, 2)
    assert np.isfinite(idata.log_likelihood.counts.values).all()
    pred = idata.posterior_predictive.counts.values  # (chain, draw, n, C, 2, 2K)
    assert pred.shape == (2, 200, 12, 2, 2, 6)
    # the Type 1 responses' numbers are the observed ones; the ratings are redrawn
    np.testing.assert_array_equal(pred[..., :3].sum(-1), np.broadcast_to(
        tables[..., :3].sum(-1), pred.shape[:-1]))
    assert not (pred == tables).all(axis=(-2, -1)).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pareto k: each person × condition has its own criteria
        loo = az.loo(idata)
    assert np.isfinite(loo.elpd_loo) and loo.n_data_points == 24


@pytest.mark.slow
def test_trials_with_a_condition_column_from_a_csv(tmp_path):
    tables = _tables(n=3, trials=60)
    path = tmp_path / "study.csv"
    _trials(tables).to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = mb.hmetad(str(path), condition="condition", chains=1, draws=20, tune=20, seed=2)
    assert fit.participants == ("p00", "p01", "p02") and fit.conditions == ("easy", "hard")
    assert fit.summary().condition.tolist() == ["easy", "hard", "hard - easy", "easy, hard"]
    assert fit.trace.posterior.participant.values.tolist() == ["p00", "p01", "p02"]
    assert np.isnan(fit.r_hat)  # one chain


@pytest.mark.slow
def test_one_condition_is_the_group_model_draw_for_draw():
    tables = _tables(n=6, C=1, K=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = mb.hmetad(tables[:, 0], chains=2, draws=100, tune=100, seed=5)
    group = mb.fit_meta_d_bayes_group(tables[:, 0], chains=2, draws=100, tune=100, seed=5)
    np.testing.assert_array_equal(fit.trace.posterior.m_ratio.values[..., 0],
                                  group.m_ratio.reshape(2, 100, 6))
    np.testing.assert_array_equal(fit.trace.posterior.group_m_ratio.values[..., 0],
                                  np.exp(group.mu_log_m_ratio).reshape(2, 100))
    s = fit.summary()
    assert s.quantity.tolist() == ["m_ratio"]


@pytest.mark.slow
def test_one_person_in_two_conditions():
    tables = _tables(n=1, K=2, trials=300)
    fit = mb.hmetad(tables, chains=2, draws=500, tune=500, seed=3, target_accept=0.9)
    s = fit.summary()
    assert s.quantity.tolist() == ["m_ratio", "m_ratio", "difference"]
    single = mb.fit_meta_d_bayes(*tables[0, 1], chains=2, draws=500, tune=500, seed=4,
                                 target_accept=0.9)
    # condition 1 is fitted on its own with seed + 1: the single-subject model's draws
    np.testing.assert_array_equal(fit.trace.posterior.meta_d.values[:, :, 0, 1],
                                  single.meta_d.reshape(2, 500))
    assert fit.trace.posterior.m_ratio.dims[2:] == ("participant", "condition")
    assert fit.subjects().shape[0] == 2


@pytest.mark.slow
def test_short_chains_warn_and_name_the_problem():
    tables = _tables(n=4, K=2, trials=100)
    with pytest.warns(RuntimeWarning, match=r"ESS down to \d+ \(of [a-z_0-9]+\) < 400.*Try .*"
                                            r"more draws"):
        mb.hmetad(tables, chains=2, draws=30, tune=30, seed=1)


@pytest.mark.slow
def test_two_conditions_marginal_agrees_with_the_one_condition_fit():
    """Condition 0 of a two-condition fit against the one-condition (group) fit of its tables.

    The models differ only in the second condition and the correlation of the people's effects
    across conditions: with conditions simulated independently (ρ = 0) and 200 trials for each
    of 10 people and condition, what condition 1 tells about condition 0 is small. The group M-ratio's
    posterior mean and SD agree within 4 combined Monte Carlo SEs (and 10% of its SD)."""
    import arviz as az

    tables = _tables(n=10, K=3, sd=0.15, seed=11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        two = mb.hmetad(tables, seed=1, chains=2, draws=400, tune=300)
    one = mb.fit_meta_d_bayes_group(tables[:, 0], seed=2, chains=2, draws=400, tune=300)
    a = two.trace.posterior.group_m_ratio.values[..., 0]
    b = np.exp(one.mu_log_m_ratio).reshape(2, -1)
    se = np.hypot(az.mcse(a), az.mcse(b))
    assert abs(a.mean() - b.mean()) < 4 * se + 0.1 * b.std()
    assert a.std() == pytest.approx(b.std(), rel=0.15)


@pytest.mark.slow
@pytest.mark.parametrize("C", [2, 3, 4])
def test_the_correlation_prior_is_lkj_1(C, pytensor_in_python):
    """The correlation matrix built from canonical partial correlations has LKJ(1)'s marginals:
    each correlation Beta(C/2, C/2) on (−1, 1), variance 1/(C + 1) (uniform for C = 2)."""
    import pymc as pm
    import pytensor.tensor as pt

    from metabits.sdt._hmetad_model import _corr_cholesky

    with pm.Model():
        L = _corr_cholesky(pm, pt, C)
    R = pm.draw(L @ L.T, draws=20_000, random_seed=1)
    np.testing.assert_allclose(R[:, np.arange(C), np.arange(C)], 1.0)
    i, j = np.triu_indices(C, 1)
    np.testing.assert_allclose(R[:, i, j].var(0), 1 / (C + 1), rtol=0.05)
    assert np.abs(R[:, i, j].mean(0)).max() < 0.02


# ------------------------------------------------------------------------------- prior_scale

@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), "1", True, [1.0, 2.0],
                                   None])
def test_a_bad_prior_scale_is_refused_before_any_work(value):
    with pytest.raises(ValueError, match="prior_scale"):
        mb.hmetad(TABLES, prior_scale=value)


#: draws of fits made before ``prior_scale`` existed (the code of commit 7226ab1, 1 chain,
#: 30 tuning steps, 5 draws, seed 7; _tables(n=4, C, K=2, trials=100)): the first condition's
#: group M-ratio and SD of log M-ratio of the group model (C = 1) and of the conditions model
#: (C = 2), and the one person's M-ratio (n = 1)
BEFORE_PRIOR_SCALE = {
    1: ([0.5407853789595626, 1.1694124003035766, 0.7885050882510504, 0.41358963416229017,
         0.8088918949492289],
        [0.5182736591227475, 0.6685772580977491, 0.3812918622263377, 0.10494401342095114,
         0.3905332777739539]),
    2: ([1.3959419477731978, 1.202005596172459, 0.7096189178671383, 0.8699551150662241,
         0.9388113818837622],
        [0.48825510933595995, 0.5963798425378376, 0.681802407819781, 0.28987863674632447,
         0.38857989766884404]),
    "one person": [1.1194090524993865, 1.1944630160635954, 0.8225271426042016,
                   0.6074019426038781, 0.4363184672903077],
}


@pytest.mark.slow
@pytest.mark.regression
def test_prior_scale_1_is_the_model_as_it_was_draw_for_draw():
    run = dict(chains=1, draws=5, tune=30, seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for C in (1, 2):
            tables = _tables(n=4, C=C, K=2, trials=100)
            fit = mb.hmetad(tables if C == 2 else tables[:, 0], prior_scale=1, **run)
            post = fit.trace.posterior
            ratio, sigma = BEFORE_PRIOR_SCALE[C]
            np.testing.assert_allclose(post.group_m_ratio.values[0, :, 0], ratio, rtol=1e-12)
            np.testing.assert_allclose(post.sigma_log_m_ratio.values[0, :, 0], sigma,
                                       rtol=1e-12)
        fit = mb.hmetad(_tables(n=1, C=1, K=2, trials=100), **run)
    np.testing.assert_allclose(fit.trace.posterior.m_ratio.values[0, :, 0, 0],
                               BEFORE_PRIOR_SCALE["one person"], rtol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("kind, C, J", [("group", 1, 0), ("conditions", 2, 2),
                                        ("conditions", 1, 2)])
def test_prior_scale_multiplies_the_sd_of_every_fixed_prior(kind, C, J, pytensor_in_python):
    """Between two random points, the change of the model's log density at prior_scale s minus
    its change at 1 is that of the scaled priors' log densities: μ, σ_δ (or σ | ε), μ_c2, σ_c2
    and β (the group model; the conditions model, as for one condition with covariates). (Changes between points: PyTensor keeps a constant such as 2.5 in float32 and takes
    its log there, which shifts the log density by a constant that the posterior ignores.)"""
    from scipy.stats import halfnorm, norm

    from metabits.sdt._hmetad_model import _conditions_model, _group_model

    n, K, s = 3, 3, 2.5
    build = ((lambda scale: _group_model(n, K, False, scale)) if kind == "group"
             else (lambda scale: _conditions_model(n, C, K, J, scale)))
    one, scaled = build(1.0), build(s)
    f1, fs = one.compile_logp(), scaled.compile_logp()
    rng = np.random.default_rng(0)

    def change(point):
        """log density at s minus at 1: the model's and the scaled priors'."""
        x = {k.removesuffix("_log__").removesuffix("_logodds__"): v for k, v in point.items()}
        expected = sum((norm.logpdf(x[k], 0, sd * s) - norm.logpdf(x[k], 0, sd)).sum()
                       for k, sd in (("mu_log_m_ratio", 1.0), ("mu_c2", 10.0), ("beta", 1.0))
                       if k in x)
        assert ("beta" in x) == bool(J)
        expected += (halfnorm.logpdf(np.exp(x["sigma_c2"]), 0, 10 * s)
                     - halfnorm.logpdf(np.exp(x["sigma_c2"]), 0, 10)).sum()
        if kind == "group":
            sd = np.exp(x["sigma_delta"])
            expected += (halfnorm.logpdf(sd, 0, s) - halfnorm.logpdf(sd, 0, 1)).sum()
        else:
            eps = 1 / (1 + np.exp(-x["epsilon"]))
            sd = np.exp(x["sigma_log_m_ratio"])
            expected += (halfnorm.logpdf(sd, 0, eps * s) - halfnorm.logpdf(sd, 0, eps)).sum()
        return fs(point) - f1(point), expected

    points = [{v.name: rng.normal(0, 0.5, size=one.initial_point()[v.name].shape)
               for v in one.value_vars} for _ in range(4)]
    changes = np.array([change(p) for p in points])  # (point, [model, priors])
    steps = np.diff(changes, axis=0)
    assert np.abs(steps[:, 1]).min() > 0.01  # the points differ in the scaled priors
    np.testing.assert_allclose(steps[:, 0], steps[:, 1], rtol=1e-9)


@pytest.mark.slow
def test_one_persons_prior_scale_is_the_single_subject_models():
    tables = _tables(n=1, C=1, K=2, trials=150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # short chains: the ESS warning
        fit = mb.hmetad(tables, prior_scale=10, chains=2, draws=100, tune=200, seed=4,
                        target_accept=0.9)
    single = mb.fit_meta_d_bayes(*tables[0, 0], prior_scale=10, chains=2, draws=100, tune=200,
                                 seed=4, target_accept=0.9)
    np.testing.assert_array_equal(fit.trace.posterior.meta_d.values[:, :, 0, 0],
                                  single.meta_d.reshape(2, 100))
    assert fit.prior_scale == 10.0


# -------------------------------------------------------------------------------- covariates

def _study(n=6, trials=40):
    """Trials of n people × 2 conditions with an age and a group column per person."""
    d = _trials(_tables(n=n, trials=trials))
    people = sorted(d.subject.unique())
    d["age"] = d.subject.map(dict(zip(people, 20.0 + 7 * np.arange(n))))
    d["group"] = d.subject.map(dict(zip(people, ["patient", "control"] * (n // 2))))
    return d


def test_covariate_columns_become_a_design_matrix_per_person():
    d = _study().sample(frac=1.0, random_state=1)  # any row order
    counts, people, conds, values = _hmetad._from_trials(
        d, dict(subject=None, stimulus=None, response=None, confidence=None, correct=None),
        "condition", None, ["age", "group"])
    assert people == [f"p0{i}" for i in range(6)]
    x, names = _hmetad._covariate_design(values, ["age", "group"])
    # text: indicators against the first level in sorted order (control)
    assert names == ["age", "group=patient"]
    np.testing.assert_array_equal(x, np.column_stack([20.0 + 7 * np.arange(6),
                                                      [1, 0, 1, 0, 1, 0]]))
    three = pd.DataFrame({"site": pd.Categorical(["b", "a", "c", "b"],
                                                 categories=["c", "b", "a"])})
    x, names = _hmetad._covariate_design(three, "site")
    assert names == ["site=b", "site=a"]  # a categorical's own order: c first
    np.testing.assert_array_equal(x, [[1, 0], [0, 1], [0, 0], [1, 0]])


def test_read_trials_carry_covariates_as_grouping_columns():
    d = _study()
    counts, people, conds, values = _hmetad._from_trials(
        mb.read_trials(d, by=["condition", "age"]), dict(subject=None), "condition", None, "age")
    assert counts.shape == (6, 2, 2, 6) and values.age.tolist() == list(20.0 + 7 * np.arange(6))
    with pytest.raises(ValueError, match=r"covariates='group': read trials keep only their "
                                         r"grouping columns .*by=\[..., 'group'\]"):
        mb.hmetad(mb.read_trials(d, by="condition"), condition="condition", covariates="group")


@pytest.mark.parametrize("change, covariates, match", [
    (None, "agee", r"covariates='agee': the data have no column 'agee'"),
    (None, ["age", 3], r"covariates must be a column name or a list"),
    (None, ["age", "age"], r"covariates must be a column name or a list"),
    (None, "subject", r"covariates='subject': 'subject' is the subject column"),
    (None, "condition", r"covariates='condition': 'condition' is the condition column"),
    (lambda d: d.assign(age=np.where(d.subject == "p03", np.nan, d.age)), "age",
     r"covariates='age': column 'age' has a missing value for subject='p03'"),
    (lambda d: d.assign(age=np.where((d.subject == "p02") & (d.condition == "hard"), 99.0,
                                     d.age)), "age",
     r"covariates='age': column 'age' varies within subject='p02' \(34.0, 99.0\)"),
    (lambda d: d.assign(age=30.0), "age", r"covariates='age': 'age' is the same for every"),
    (lambda d: d.assign(group="x"), "group", r"covariates='group': column 'group' has one "
                                             r"level \('x'\)"),
    (lambda d: d.assign(old=d.age * 2), ["age", "old"], r"are collinear"),
])
def test_bad_covariates_of_trials_are_refused_by_name(change, covariates, match):
    d = _study()
    if change is not None:
        d = change(d)
    with pytest.raises(ValueError, match=match):
        mb.hmetad(d, condition="condition", covariates=covariates)


@pytest.mark.parametrize("covariates, match", [
    ([1.0, 2.0], r"covariates must have shape \(3,\) or \(3, n_covariates\).*got shape \(2,\)"),
    (np.ones((3, 2, 1)), r"covariates must have shape"),
    ([1.0, np.nan, 2.0], r"covariates must be finite; got nan for person 1, covariate 0"),
    ([1.0, np.inf, 2.0], r"covariates must be finite; got inf"),
    ("age", r"covariates='age': column names are for trials"),
    ([[1, 2], [2, 4], [3, 6]], r"collinear"),
    ([5, 5, 5], r"covariates=\[5, 5, 5\]: '0' is the same for every person"),
    (pd.DataFrame({"age": [1.0, 2.0]}), r"covariates: a row per person is needed \(3\); got 2"),
    (["a", "b", "c"], r"covariates=\['a', 'b', 'c'\]: column names are for trials"),
])
def test_bad_covariates_of_tables_are_refused_by_name(covariates, match):
    with pytest.raises(ValueError, match=match):
        mb.hmetad(TABLES, covariates=covariates)


def test_covariates_need_a_group():
    with pytest.raises(ValueError, match=r"covariates=\[1.0\]: covariates need two people"):
        mb.hmetad(TABLES[:1], covariates=[1.0])
    d = _study()
    with pytest.raises(ValueError, match=r"covariates='age': the trials are one person's"):
        mb.hmetad(d[d.subject == "p00"], subject=False, condition="condition", covariates="age")


@pytest.mark.slow
def test_a_covariates_effect_on_log_m_ratio_is_recovered():
    """24 people whose log M-ratio is log 0.7 + 0.8·x_s + N(0, 0.1²), x_s evenly spread on
    [−1, 1], 150 trials per stimulus, K = 3: the 95% interval of β covers 0.8 and excludes 0;
    an unrelated covariate's covers 0. The group M-ratio (at the covariates' means, x̄ = 0) is
    near 0.7. Short chains, which agree."""
    rng = np.random.default_rng(21)
    n = 24
    x = np.linspace(-1, 1, n)
    noise = rng.permutation(x)  # uncorrelated with x by construction (shuffled)
    d = rng.uniform(1.2, 1.8, n)
    ratio = np.exp(np.log(0.7) + 0.8 * x + 0.1 * rng.standard_normal(n))
    tables = mb.sdt.simulate_ratings(d, ratio * d, 150, K=3, rng=22)[:, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # short chains: the ESS warning
        fit = mb.hmetad(tables, covariates=pd.DataFrame({"x": x, "noise": noise}), chains=2,
                        draws=250, tune=250, seed=1)
    s = fit.summary().set_index("quantity")
    # the chains agree (the group model's centred form left one stuck here: R-hat 2.2)
    assert fit.divergences == 0 and s.r_hat.max() < 1.05
    assert s.loc["beta[x]", "eti_lo"] < 0.8 < s.loc["beta[x]", "eti_hi"]
    assert s.loc["beta[x]", "eti_lo"] > 0
    assert s.loc["beta[noise]", "eti_lo"] < 0 < s.loc["beta[noise]", "eti_hi"]
    assert s.loc["m_ratio", "eti_lo"] < 0.7 < s.loc["m_ratio", "eti_hi"]
    assert s.loc["beta[x]", "condition"] == "all" and fit.covariates == ("x", "noise")
    idata = fit.to_inference_data()
    assert idata.posterior.beta.dims == ("chain", "draw", "covariate")
    assert idata.posterior.covariate.values.tolist() == ["x", "noise"]
    np.testing.assert_array_equal(idata.constant_data.covariates.values,
                                  np.column_stack([x, noise]))


@pytest.mark.slow
def test_covariate_columns_of_trials_are_the_tables_array_draw_for_draw():
    d = _study(n=6, trials=40)
    tables = _tables(n=6, trials=40)
    run = dict(chains=1, draws=20, tune=20, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        by_column = mb.hmetad(d, condition="condition", covariates=["age", "group"], **run)
        by_array = mb.hmetad(tables, covariates=np.column_stack(
            [20.0 + 7 * np.arange(6), [1, 0, 1, 0, 1, 0]]), **run)
    np.testing.assert_array_equal(by_column.trace.posterior.beta.values,
                                  by_array.trace.posterior.beta.values)
    assert by_column.covariates == ("age", "group=patient") and by_array.covariates == ("0", "1")
    assert by_column.summary().quantity.tolist()[-2:] == ["beta[age]", "beta[group=patient]"]
