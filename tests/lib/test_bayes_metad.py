"""Bayesian meta-d′ (metabits.sdt): Fleming's HMeta-d model sampled with NUTS.

Kept fast: every single-subject fit here has K = 2 ratings, so one compiled model serves them all
(the module keeps it; tests/lib/test_bayes_checks.py and the doctests share it) and draws are
small. Checked: agreement with the maximum-likelihood fit where the data swamp the prior, the
diagnostics, bad input and the group model. Meyen et al.'s Table 1 under both d′ options, as the
book's registry fits it, is tests/test_paper_numbers.py's; parameter recovery (coverage of the 95%
intervals with its Monte Carlo SE) is the shipped study of tests/test_bayes_recovery.py.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _bayes_fits import FAST, TABLE1, group_fit, group_tables, table1_fast

import metabits as mb
from metabits.sdt import _bayes_metad as bayes_metad
from metabits.sdt import (BayesMetaDFit, BayesMetaDGroupFit, fit_meta_d_bayes,
                          fit_meta_d_bayes_group)


# every test samples a posterior with NUTS: not in the quick loop
pytestmark = pytest.mark.slow


def test_import_metabits_loads_no_pymc():
    code = ("import sys, metabits; "
            "print(sorted(m for m in ('pymc', 'pytensor', 'nutpie', 'jax', 'arviz') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert mb.fit_meta_d_bayes is fit_meta_d_bayes
    assert mb.fit_meta_d_bayes_group is fit_meta_d_bayes_group
    assert mb.sdt.BayesMetaDFit is BayesMetaDFit


def test_agrees_with_maximum_likelihood_on_a_large_table():
    """20,000 trials per stimulus: the posterior mean is the ML estimate to a fraction of the
    posterior SD. c = 0, where HMeta-d's meta-c = c and Maniscalco's c·meta-d′/d′ coincide."""
    table = mb.sdt.simulate_ratings(1.5, 1.1, 20_000, K=2, rng=5)[0]
    fit = fit_meta_d_bayes(*table, **FAST, seed=3)
    ml = mb.fit_meta_d(table, pad=0.25)
    sd = fit.meta_d.std()
    assert 0.01 < sd < 0.05
    assert fit.meta_d.mean() == pytest.approx(ml.meta_d, abs=0.25 * sd)
    assert fit.t2c_S1.mean(0) == pytest.approx(ml.t2c_S1, abs=0.02)
    assert fit.t2c_S2.mean(0) == pytest.approx(ml.t2c_S2, abs=0.02)


def test_near_flat_priors_give_the_maximum_of_hmetad_likelihood():
    """``prior_scale=100`` (every prior SD × 100): on a small table (200 trials per stimulus,
    c = 0.39, no empty cell) the posterior mean of meta-d′ lies within a tenth of a posterior SD
    of the maximum of HMeta-d's own likelihood (``fit_meta_d(..., meta_c="c")``, unpadded as the
    model's ratings), while Fleming's priors move it by more than twice the Monte Carlo error of
    the difference, away from that maximum (to 1.574 from 1.613 here, ML 1.603)."""
    table = mb.sdt.simulate_ratings(1.5, 1.0, 200, c=0.4, K=2, rng=11)[0]
    assert table.min() > 0
    ml = mb.fit_meta_d(table, meta_c="c")
    settings = dict(pad=0, chains=4, draws=1000, tune=1000, seed=3)
    fleming = fit_meta_d_bayes(*table, **settings)
    flat = fit_meta_d_bayes(*table, prior_scale=100, **settings)
    assert fleming.d == pytest.approx(ml.d, abs=1e-12) and fleming.c == pytest.approx(ml.c)
    for fit in (fleming, flat):
        assert fit.r_hat < 1.01 and fit.divergences == 0
    sd = flat.meta_d.std()
    assert abs(flat.meta_d.mean() - ml.meta_d) < 0.1 * sd + 3 * flat.mcse("meta_d")
    se = np.hypot(flat.mcse("meta_d"), fleming.mcse("meta_d"))
    assert flat.meta_d.mean() - fleming.meta_d.mean() > 2 * se
    assert abs(fleming.meta_d.mean() - ml.meta_d) > abs(flat.meta_d.mean() - ml.meta_d)


def test_cores_change_the_time_not_the_draws():
    """Chains run one after another by default (``cores=1``: the gradient holds Python's lock,
    so parallel chains only add CPU time); 2 chains at once give the same draws as 1 after
    another."""
    from metabits.sdt._bayes_metad import _sampler_args

    assert _sampler_args(4, 10, 10, 0.8, 1, None)["cores"] == 1
    assert _sampler_args(4, 10, 10, 0.8, 1, 3)["cores"] == 3
    one = fit_meta_d_bayes(*TABLE1, chains=2, draws=100, tune=100, seed=7)
    two = fit_meta_d_bayes(*TABLE1, chains=2, draws=100, tune=100, seed=7, cores=2)
    assert np.array_equal(one.meta_d, two.meta_d)
    assert np.array_equal(one.t2c_S2, two.t2c_S2)


def test_fits_set_jax_up_for_small_calls():
    """A fit sets JAX's asynchronous CPU dispatch off and XLA's concurrent scheduling of a
    call's parts off before JAX starts (cheaper small calls; ``scripts/bench_bayes_metad.py``
    times them and shows the same draws), keeping other XLA flags, leaving
    the option alone where it is given, and under a jaxlib not known to have it (XLA stops the
    process on an option it does not know)."""
    import jax

    from metabits.sdt._hmetad_model import SEQUENTIAL_XLA

    table1_fast()
    assert jax.config.read("jax_cpu_enable_async_dispatch") is False
    assert SEQUENTIAL_XLA in os.environ["XLA_FLAGS"].split()
    # one fresh process (JAX not started): XLA_FLAGS as given, jaxlib releases known to have
    # the option (none: the module's list), then XLA_FLAGS after two calls
    code = textwrap.dedent("""
        import json, os, sys
        from metabits.sdt import _hmetad_model as m
        known = m.SEQUENTIAL_XLA_JAXLIB
        for given, releases in json.loads(sys.argv[1]):
            os.environ["XLA_FLAGS"] = given
            m.SEQUENTIAL_XLA_JAXLIB = tuple(releases) or known
            m._configure_jax()
            m._configure_jax()
            print(os.environ["XLA_FLAGS"])
        """)
    other, told = "--xla_dump_to=/dev/null", SEQUENTIAL_XLA.replace("false", "true")
    cases = [(other, [], f"{other} {SEQUENTIAL_XLA}"), (told, [], told),
             (other, ["0.9.", "1."], other)]
    out = subprocess.run([sys.executable, "-c", code, json.dumps([c[:2] for c in cases])],
                         capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [c[2] for c in cases]


def test_result_and_diagnostics():
    fit = table1_fast()  # 2 chains x 300 draws, seed 4
    assert isinstance(fit, BayesMetaDFit)
    S = fit.chains * fit.draws
    assert S == 600
    for name in ("meta_d", "m_ratio", "m_diff"):
        assert fit[name].shape == (S,)
    assert fit.t2c_S1.shape == fit.t2c_S2.shape == (S, 1)
    assert np.all(fit.t2c_S1[:, 0] < fit.c) and np.all(fit.t2c_S2[:, 0] > fit.c)
    assert fit.m_diff == pytest.approx(fit.meta_d - fit.d)
    assert 1.0 <= fit.r_hat < 1.05 and fit.ess_bulk > 150 and fit.ess_tail > 150
    assert isinstance(fit.divergences, int) and fit.divergences == 0
    assert fit.trace.posterior.sizes["chain"] == 2
    # the same seed gives the same draws
    again = fit_meta_d_bayes(*TABLE1, **FAST, seed=4)
    assert np.array_equal(again.meta_d, fit.meta_d)
    with pytest.raises(ValueError, match="not a field of posterior draws"):
        fit.mcse("d")


BAD = [
    (([1, 2, 3], [3, 2, 1]), {}, "even number"),
    (([5, 5], [5, 5]), {}, "K >= 2"),
    (([1, 2, 3, -4], [1, 2, 3, 4]), {}, "non-negative"),
    (([1, 2, 3, 4], [1, 2, 3, 4, 5, 6]), {}, "one length"),
    (([[1, 2, 3, 4]], [[1, 2, 3, 4]]), {}, "1-D"),
    (([0, 0, 0, 0], [1, 2, 3, 4]), {}, "empty row"),
    (([5, 5, 0, 0], [0, 0, 5, 5]), {"pad": 0}, "d′ is infinite"),
    (([5, 5, 5, 5], [5, 5, 5, 5]), {}, "d′ = 0"),
    (TABLE1, {"pad": -1}, "non-negative"),
    (TABLE1, {"estimate_dprime": True, "pad": 0.25}, "pad only applies"),
    (TABLE1, {"estimate_dprime": "yes"}, "True or False"),
    (TABLE1, {"chains": 0}, "chains"),
    (TABLE1, {"draws": 2.5}, "draws"),
    (TABLE1, {"target_accept": 1.0}, "target_accept"),
    (TABLE1, {"seed": -1}, "seed"),
    (TABLE1, {"prior_scale": 0}, "prior_scale must be > 0; got 0"),
    (TABLE1, {"prior_scale": -2.5}, "prior_scale must be > 0; got -2.5"),
    (TABLE1, {"prior_scale": float("nan")}, "prior_scale must be finite"),
    (TABLE1, {"prior_scale": float("inf")}, "prior_scale must be finite"),
    (TABLE1, {"prior_scale": True}, "prior_scale must be a number > 0; got True"),
    (TABLE1, {"prior_scale": "10"}, "prior_scale"),
    (TABLE1, {"prior_scale": [1.0, 2.0]}, "prior_scale must be a single number"),
]


@pytest.mark.parametrize("args, kwargs, match", BAD)
def test_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        fit_meta_d_bayes(*args, **kwargs)


@pytest.mark.parametrize("counts, kwargs, match", [
    (np.ones((2, 4)), {}, "stack"),
    (np.ones((1, 2, 4)), {}, "at least 2 subjects"),
    (np.ones((3, 2, 3)), {}, "even number"),
    ([[[4, 3, 2, 1], [1, 2, 3, 4]], [[5, 5, 5, 5], [5, 5, 5, 5]]], {}, "d′ = 0 for subject 1"),
    (np.ones((3, 2, 4)), {"estimate_dprime": True, "pad": 0}, "pad only applies"),
])
def test_group_bad_input(counts, kwargs, match):
    with pytest.raises(ValueError, match=match):
        fit_meta_d_bayes_group(counts, **kwargs)


def test_group_model():
    """Six simulated subjects, M-ratio 0.8 each: the group M-ratio's posterior covers it, the
    subjects' M-ratios are shrunk together, and the diagnostics are reported."""
    tables, fit = group_tables(), group_fit()  # 2 chains x (300 tuning + 300 draws)
    assert isinstance(fit, BayesMetaDGroupFit)
    S = fit.chains * fit.draws
    assert fit.meta_d.shape == fit.m_ratio.shape == (S, 6)
    assert fit.mu_log_m_ratio.shape == fit.sigma_log_m_ratio.shape == (S,)
    assert np.all(fit.sigma_log_m_ratio >= 0)
    assert fit.meta_d == pytest.approx(fit.m_ratio * fit.d)
    assert np.array_equal(fit.counts, tables)
    lo, hi = np.quantile(np.exp(fit.mu_log_m_ratio), [0.025, 0.975])
    assert lo < 0.8 < hi
    ml = mb.fit_meta_d(tables, pad=0.25).m_ratio
    assert np.std(fit.m_ratio.mean(0)) < np.std(ml)  # shrinkage towards the group
    # 2 chains x 300 draws: diagnostics reported and acceptable, not publication-grade
    assert fit.r_hat < 1.05 and fit.ess_bulk > 50
    assert isinstance(fit.divergences, int) and fit.divergences < 10
    assert fit.mcse("m_ratio").shape == (6,)
