"""The PyMC model of Fleming's HMeta-d (one subject and a group), compiled and sampled by nutpie.

Private: :mod:`metabits.sdt` (the fits, their results and the model's description)
is the public module. PyMC, PyTensor, nutpie and ArviZ are imported inside the functions, on
first use, not at import.
"""

from __future__ import annotations

import os
import warnings
from functools import lru_cache

import numpy as np

#: HMeta-d's ``Tol``: probability floor and the criteria's distance from c (one subject)
TOL = 1e-5
#: the single-subject model's chains start at log-gaps of the criteria near this (gaps of e⁻¹,
#: the K − 1 criteria of a side within (K − 1)/e of c before the jitter), not at 0 (gaps of 1).
#: Wide starting gaps put the outer criteria where a rating's probability is below :data:`TOL`:
#: there the floor makes the likelihood flat, its gradient 0, and only the prior pulls a chain
#: back; Fleming's priors do so quickly, near-flat ones (a large ``prior_scale``) hardly at all,
#: and a chain stays stuck on the plateau
GAP_START = -1.0


def _rating_probs(pt, meta_d, c1, cS1, cS2):
    """HMeta-d's rating probabilities, (n, 2 stimuli, 2 responses, K), floored at :data:`TOL`.

    ``meta_d`` and ``c1`` (n,), ``cS1`` and ``cS2`` (n, K − 1) increasing. Probabilities are
    conditional on the stimulus and the Type 1 response; a cell's mass is taken from the nearer
    tail of the normal, for accuracy.
    """
    n, K = cS1.shape[0], cS1.shape[1] + 1
    edges = pt.concatenate([cS1, c1[:, None], cS2], axis=1)  # (n, 2K - 1)
    mu = pt.stack([-meta_d / 2, meta_d / 2], axis=1)  # (n, 2): the S1 and S2 means
    z = edges[:, None, :] - mu[:, :, None]  # (n, 2, 2K - 1)
    below = 0.5 * pt.erfc(-z / np.sqrt(2.0))
    above = 0.5 * pt.erfc(z / np.sqrt(2.0))
    zeros, ones = pt.zeros_like(z[..., :1]), pt.ones_like(z[..., :1])
    below = pt.concatenate([zeros, below, ones], axis=-1)  # (n, 2, 2K + 1)
    above = pt.concatenate([ones, above, zeros], axis=-1)
    lower = pt.concatenate([zeros - 1.0, z], axis=-1)  # each bin's lower edge (sign only)
    cell = pt.where(lower > 0, above[..., :-1] - above[..., 1:], below[..., 1:] - below[..., :-1])
    cell = cell.reshape((n, 2, 2, K))
    pr = cell / cell.sum(axis=-1, keepdims=True)  # given the Type 1 response
    prT = pt.maximum(pr, TOL)  # JAGS: prT <- ifelse(pr < Tol, Tol, pr)
    return prT / prT.sum(axis=-1, keepdims=True)


def _sorted_truncated_normal_logp(pm, pt, x, mean, sd, bound, below):
    """Log density of sorted draws ``x`` (n, K − 1) of N(mean, sd) truncated below / above
    ``bound`` (n,): the product of the truncated densities (the sort's (K − 1)! is constant)."""
    mean, sd = pt.as_tensor_variable(mean), pt.as_tensor_variable(sd)
    # a mean and SD per row (n,) (the conditions model) meet the row's criteria (n, K − 1)
    dist = pm.Normal.dist(mean[:, None] if mean.ndim else mean, sd[:, None] if sd.ndim else sd)
    logp = pm.logp(dist, x).sum(axis=-1)
    z = (bound - mean) / sd if below else (mean - bound) / sd
    # log Φ(z); erfc is exact far into the lower tail (to z = -37), where the clip stops it
    log_mass = pt.log(0.5 * pt.erfc(-pt.maximum(z, -35.0) / np.sqrt(2.0)))
    return logp - x.shape[-1] * log_mass


def _criteria(pm, pt, c1, K, n, offset, start=None):
    """Sorted criteria below and above ``c1`` from log-gaps (flat), with the gaps' Jacobian;
    the chains start at log-gaps ``start`` (jittered; default 0)."""
    init = None if start is None else np.full((n, K - 1), float(start))
    gap1 = pm.Flat("log_gap_S1", shape=(n, K - 1), initval=init)
    gap2 = pm.Flat("log_gap_S2", shape=(n, K - 1), initval=init)
    cS1 = (c1[:, None] - offset - pt.cumsum(pt.exp(gap1), axis=1))[:, ::-1]
    cS2 = c1[:, None] + offset + pt.cumsum(pt.exp(gap2), axis=1)
    jacobian = gap1.sum() + gap2.sum()
    return cS1, cS2, jacobian


def _type1_likelihood(pm, pt, counts, d1, c1, K):
    """HMeta-d's binomial hits and false alarms given d′ and c (``estimate_dprime``)."""
    phi = lambda x: 0.5 * pt.erfc(-x / np.sqrt(2.0))  # noqa: E731
    hits, signal = counts[:, 1, K:].sum(-1), counts[:, 1].sum(-1)
    fas, noise = counts[:, 0, K:].sum(-1), counts[:, 0].sum(-1)
    pm.Binomial("hits", n=signal, p=phi(d1 / 2 - c1), observed=hits)
    pm.Binomial("false_alarms", n=noise, p=phi(-d1 / 2 - c1), observed=fas)


def _ratings_likelihood(pm, pt, counts, meta_d, c1, cS1, cS2, n, K):
    """HMeta-d's multinomial ratings given the stimulus and the Type 1 response, as a potential:
    Σ count · log p, the multinomial's log likelihood without its constant (the counts'
    multinomial coefficients) and without PyMC's checks of counts and probabilities (the
    counts are checked on entry, the probabilities are normalised by construction). The
    gradient is the multinomial's exactly, and each evaluation is cheaper without the checks."""
    p = _rating_probs(pt, meta_d, c1, cS1, cS2)
    blocks = counts.reshape((n, 2, 2, K))
    pm.Potential("ratings", (blocks * pt.log(p)).sum())


def _single_model(K: int, estimate_dprime: bool):
    import pymc as pm
    import pytensor.tensor as pt

    with pm.Model() as model:
        counts = pm.Data("counts", np.ones((1, 2, 2 * K)))
        # multiplies every prior SD (1: Fleming's priors); data, so that one compiled model
        # takes any scale
        scale = pm.Data("prior_scale", np.array(1.0))
        if estimate_dprime:
            c1 = pm.Normal("c", 0.0, scale / np.sqrt(2.0), shape=1)
            d1 = pm.Normal("d", 0.0, scale * np.sqrt(2.0), shape=1)
            _type1_likelihood(pm, pt, counts, d1, c1, K)
        else:
            d1 = pm.Data("d", np.ones(1))
            c1 = pm.Data("c", np.zeros(1))
        meta_d = pm.Normal("meta_d", d1, scale * np.sqrt(2.0), shape=1)
        cS1, cS2, jac = _criteria(pm, pt, c1, K, 1, TOL, start=GAP_START)
        sd = scale / np.sqrt(2.0)
        prior = (_sorted_truncated_normal_logp(pm, pt, cS1, 0.0, sd, c1 - TOL, True)
                 + _sorted_truncated_normal_logp(pm, pt, cS2, 0.0, sd, c1 + TOL, False))
        pm.Potential("criteria_prior", prior.sum() + jac)
        pm.Deterministic("t2c_S1", cS1)
        pm.Deterministic("t2c_S2", cS2)
        _ratings_likelihood(pm, pt, counts, meta_d, c1, cS1, cS2, 1, K)
    return model


def _covariate_effect(pm, pt, n: int, J: int, scale):
    """Σ_j β_j x_sj of each person (n,), β_j ~ N(0, ``scale``) (HMeta-d's ``mu_beta ~ dnorm(0,
    1)``), x the data ``covariates`` (n, J), centred by the caller."""
    x = pm.Data("covariates", np.zeros((n, J)))
    beta = pm.Normal("beta", 0.0, scale, shape=J)
    return pt.dot(x, beta)


def _group_model(n: int, K: int, estimate_dprime: bool, scale: float = 1.0):
    """HMeta-d's group model (``Bayes_metad_group_nodp.txt``). ``scale`` multiplies the SD of every fixed prior (1: Fleming's); a number of the graph, not
    data, so that at 1 the graph, and so the draws, are those of the model without it."""
    import pymc as pm
    import pytensor.tensor as pt

    with pm.Model() as model:
        counts = pm.Data("counts", np.ones((n, 2, 2 * K)))
        if estimate_dprime:
            mu_d = pm.Normal("mu_d", 0.0, 10.0 * scale)
            sigma_d = pm.HalfNormal("sigma_d", 10.0 * scale)
            mu_c = pm.Normal("mu_c", 0.0, 10.0 * scale)
            sigma_c = pm.HalfNormal("sigma_c", 10.0 * scale)
            z_d = pm.Normal("z_d", 0.0, 1.0, shape=n)
            z_c = pm.Normal("z_c", 0.0, 1.0, shape=n)
            d1 = pm.Deterministic("d", mu_d + sigma_d * z_d)
            c1 = pm.Deterministic("c", mu_c + sigma_c * z_c)
            _type1_likelihood(pm, pt, counts, d1, c1, K)
        else:
            d1 = pm.Data("d", np.ones(n))
            c1 = pm.Data("c", np.zeros(n))
        mu = pm.Normal("mu_log_m_ratio", 0.0, 1.0 * scale)
        sigma_delta = pm.HalfNormal("sigma_delta", 1.0 * scale)
        epsilon = pm.Beta("epsilon", 1.0, 1.0)
        # centred, as Fleming writes it: with hundreds of trials a subject the data pin each
        # log M-ratio, where the non-centred form mixes worse (a far smaller ESS of the group SD
        # on the MaskOri people)
        delta = pm.Normal("delta_log_m_ratio", 0.0, sigma_delta, shape=n)
        log_m = mu + epsilon * delta
        m_ratio = pm.Deterministic("m_ratio", pt.exp(log_m))
        pm.Deterministic("sigma_log_m_ratio", epsilon * sigma_delta)
        meta_d = pm.Deterministic("meta_d", m_ratio * d1)
        mu_c2 = pm.Normal("mu_c2", 0.0, 10.0 * scale)
        sigma_c2 = pm.HalfNormal("sigma_c2", 10.0 * scale)
        cS1, cS2, jac = _criteria(pm, pt, c1, K, n, 0.0)
        prior = (_sorted_truncated_normal_logp(pm, pt, cS1, -mu_c2, sigma_c2, c1, True)
                 + _sorted_truncated_normal_logp(pm, pt, cS2, mu_c2, sigma_c2, c1, False))
        pm.Potential("criteria_prior", prior.sum() + jac)
        pm.Deterministic("t2c_S1", cS1)
        pm.Deterministic("t2c_S2", cS2)
        _ratings_likelihood(pm, pt, counts, meta_d, c1, cS1, cS2, n, K)
    return model


def _corr_cholesky(pm, pt, C: int, eta: float = 1.0):
    """The Cholesky factor of a C × C correlation matrix with the LKJ(``eta``) distribution, from
    its canonical partial correlations (Lewandowski, Kurowicka & Joe, 2009): those of the vine's
    level j + 1 are independent, each (2·Beta(b_j, b_j) − 1) with b_j = eta + (C − 2 − j)/2. For
    C = 2 the one correlation is uniform on (−1, 1) (eta = 1), HMeta-d's ``rho ~ dunif(-1, 1)``."""
    rows = []
    for i in range(C):
        row, total = [], 0.0
        for j in range(i):
            b = eta + (C - 2 - j) / 2.0
            z = 2.0 * pm.Beta(f"cpc_{i}_{j}", b, b) - 1.0
            entry = z if j == 0 else z * pt.sqrt(1.0 - total)
            total = total + entry ** 2
            row.append(entry)
        row.append(pt.sqrt(1.0 - total) if i else pt.constant(1.0))
        row += [pt.constant(0.0)] * (C - i - 1)
        rows.append(pt.stack(row))
    return pt.stack(rows)


def _conditions_model(n: int, C: int, K: int, J: int = 0, scale: float = 1.0):
    """HMeta-d's group model over C >= 2 conditions within each of n people (d′, c fixed);
    with covariates, also C = 1 (its prior is then :func:`_group_model`'s).

    Rows of ``counts``, ``d`` and ``c`` are (person, condition) pairs, person-major (row
    s·C + k). Condition k has Fleming's one-condition hierarchy: log M-ratio_sk = μ_k + ε_k·δ_sk,
    μ_k ~ N(0, 1), ε_k ~ Beta(1, 1), δ_sk ~ N(0, σ_δk), σ_δk ~ N⁺(0, 1); and its own criteria's
    group mean and SD (μ_c2k, σ_c2k, HMeta-d's ``mu_c2[task]``). A person's δ_s· are jointly
    normal with an LKJ(1) correlation (for C = 2, ρ ~ U(−1, 1) as HMeta-d's ``groupCorr``), so
    that each condition's marginal prior is the one-condition model's.

    Sampled in an equivalent form: the SD of log M-ratio σ_k = ε_k·σ_δk itself, σ_k | ε_k ~
    N⁺(0, ε_k) (σ_δk = σ_k/ε_k), so that NUTS moves σ_k directly, not along the ridge
    ε_k·σ_δk = σ_k; the people's
    effects non-centred, log M-ratio_s· = μ + σ ⊙ (L z_s) with z_s ~ N(0, I) and L the
    correlation's Cholesky factor (:func:`_corr_cholesky`).

    With J covariates (constant within a person, centred by the caller), log M-ratio_sk gains
    Σ_j β_j x_sj, the same in every condition (:func:`_covariate_effect`): HMeta-d's regression
    model (``Bayes_metad_group_regress_nodp.txt``) for C = 1, but for the people's effects,
    which keep the group model's priors. ``scale``
    multiplies the SD of every fixed prior (1: the model above), as in :func:`_group_model`."""
    import pymc as pm
    import pytensor.tensor as pt

    rows = n * C
    cond = np.tile(np.arange(C), n)  # each row's condition
    with pm.Model() as model:
        counts = pm.Data("counts", np.ones((rows, 2, 2 * K)))
        d1 = pm.Data("d", np.ones(rows))
        c1 = pm.Data("c", np.zeros(rows))
        mu = pm.Normal("mu_log_m_ratio", 0.0, 1.0 * scale, shape=C)
        epsilon = pm.Beta("epsilon", 1.0, 1.0, shape=C)
        sigma = pm.HalfNormal("sigma_log_m_ratio", epsilon if scale == 1.0 else epsilon * scale,
                              shape=C)
        pm.Deterministic("sigma_delta", sigma / epsilon)
        chol = _corr_cholesky(pm, pt, C)
        pm.Deterministic("corr_log_m_ratio", chol @ chol.T)
        # non-centred: with a few hundred trials a person and condition the data leave each log
        # M-ratio uncertain, and the centred form's funnel diverges (40 people × 2 conditions,
        # 200 trials each, 4 × (1000 + 1000): 10 divergences and a bulk ESS of 83 for σ, against
        # none and 250 to 700 in three fits)
        z = pm.Normal("z_log_m_ratio", 0.0, 1.0, shape=(n, C))
        log_m = mu[None, :] + sigma[None, :] * (z @ chol.T)
        if J:
            log_m = log_m + _covariate_effect(pm, pt, n, J, scale)[:, None]
        m_ratio = pm.Deterministic("m_ratio", pt.exp(log_m))
        meta_d = pm.Deterministic("meta_d", m_ratio * d1.reshape((n, C)))
        mu_c2 = pm.Normal("mu_c2", 0.0, 10.0 * scale, shape=C)
        sigma_c2 = pm.HalfNormal("sigma_c2", 10.0 * scale, shape=C)
        cS1, cS2, jac = _criteria(pm, pt, c1, K, rows, 0.0)
        prior = (_sorted_truncated_normal_logp(pm, pt, cS1, -mu_c2[cond], sigma_c2[cond], c1, True)
                 + _sorted_truncated_normal_logp(pm, pt, cS2, mu_c2[cond], sigma_c2[cond], c1,
                                                 False))
        pm.Potential("criteria_prior", prior.sum() + jac)
        pm.Deterministic("t2c_S1", cS1.reshape((n, C, K - 1)))
        pm.Deterministic("t2c_S2", cS2.reshape((n, C, K - 1)))
        _ratings_likelihood(pm, pt, counts, meta_d.reshape((rows,)), c1, cS1, cS2, rows, K)
    return model


#: XLA's option that runs a compiled function's independent parts one after another instead of
#: spreading them over its thread pool (its "concurrency-optimized scheduler")
SEQUENTIAL_XLA = "--xla_cpu_enable_concurrency_optimized_scheduler=false"
#: the jaxlib releases whose XLA is known to have that option: XLA stops the process on an
#: option it does not know, so another release runs with XLA's default (slower, same draws)
SEQUENTIAL_XLA_JAXLIB = ("0.10.",)


def _configure_jax():
    """Make JAX's many small CPU calls cheap: in line, and each one's parts in sequence.

    NUTS calls the model's gradient tens of thousands of times a fit, and each call is small:

    * ``jax_cpu_enable_async_dispatch`` False: JAX's default hands every call to XLA's thread
      pool and waits for it, and for calls this small waking the threads, their spinning and the
      kernel's task switches cost more than the call itself; in line, each call runs in the
      calling thread.
    * :data:`SEQUENTIAL_XLA` added to ``XLA_FLAGS`` (unless it names that option already, or
      jaxlib is not among :data:`SEQUENTIAL_XLA_JAXLIB`): the group model's gradient is many
      small fused loops, which XLA by default schedules to run concurrently on its thread pool;
      run one after another they cost less.

    The draws are the same either way (``scripts/bench_bayes_metad.py`` times both). JAX reads
    both when it creates its CPU client: they act in a process whose first JAX computation comes
    after this call, and ``XLA_FLAGS`` passes on to the process's children.
    """
    from importlib.metadata import version

    flags = os.environ.get("XLA_FLAGS", "")
    option = SEQUENTIAL_XLA.split("=")[0]
    if option not in flags and version("jaxlib").startswith(SEQUENTIAL_XLA_JAXLIB):
        os.environ["XLA_FLAGS"] = f"{flags} {SEQUENTIAL_XLA}".strip()
    import jax

    jax.config.update("jax_cpu_enable_async_dispatch", False)


def _compiled(kind: str, n: int, K: int, estimate_dprime: bool, C: int = 1, J: int = 0,
              scale: float = 1.0):
    """The nutpie-compiled model of one shape, compiled once per process (``kind`` "single",
    "group" or "conditions", the last with C conditions, d′ fixed and J covariates; the group
    models with their priors' SDs multiplied by ``scale``, which the single-subject model
    takes as data instead). The same model asked for with or without its defaults is one entry
    of the cache."""
    return _compiled_once(str(kind), int(n), int(K), bool(estimate_dprime), int(C), int(J),
                          float(scale))


@lru_cache(maxsize=None)
def _compiled_once(kind, n, K, estimate_dprime, C, J, scale):
    _configure_jax()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # arviz's notice of its refactor
        # pytensor's C backend finds no BLAS in a pip install; the JAX backend needs none
        warnings.filterwarnings("ignore", message=".*could not link to a BLAS", category=UserWarning)
        import nutpie

        if kind == "conditions":
            model = _conditions_model(n, C, K, J, scale)
        else:
            model = (_single_model(K, estimate_dprime) if kind == "single"
                     else _group_model(n, K, estimate_dprime, scale))
        # JAX: compiles far quicker than numba, whose compilation repeats in every process; the
        # data stay shared variables (not frozen into the graph) so that one compiled model
        # takes any table
        return nutpie.compile_pymc_model(model, backend="jax", gradient_backend="jax",
                                         freeze_model=False)


def _sample(compiled, data, args):
    import nutpie

    model = compiled.with_data(**data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return nutpie.sample(model, draws=args["draws"], tune=args["tune"],
                             chains=args["chains"], cores=args["cores"], seed=args["seed"],
                             target_accept=args["target_accept"], progress_bar=False,
                             low_rank_modified_mass_matrix=args.get("low_rank", False))


def _diagnostics(trace, names):
    """Largest R-hat, smallest bulk / tail ESS over ``names``, and the divergences."""
    import arviz as az

    post = trace.posterior[list(names)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # R-hat of one chain: NaN
        rhat = az.rhat(post)
        bulk = az.ess(post, method="bulk")
        tail = az.ess(post, method="tail")

    def pool(ds, fn):
        values = np.concatenate([np.ravel(ds[v].values) for v in ds.data_vars])
        return float(fn(values))

    divergences = int(np.sum(trace.sample_stats["diverging"].values))
    return pool(rhat, np.max), pool(bulk, np.min), pool(tail, np.min), divergences


def _draws(trace, name):
    """Posterior draws of ``name`` flattened over chains and draws: (S, ...)."""
    values = trace.posterior[name].values
    return values.reshape((-1,) + values.shape[2:])
