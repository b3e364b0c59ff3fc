"""Bayesian meta-d′: Fleming's (2017) HMeta-d model, for one subject and for a group.

The model is HMeta-d's JAGS model (``Bayes_metad.txt``, ``Bayes_metad_group_nodp.txt`` and
``Bayes_metad_group.txt`` of github.com/metacoglab/HMeta-d) written in PyMC and sampled with NUTS
(nutpie). Equal-variance SDT as in :mod:`metabits.sdt`, with two differences from the
maximum-likelihood fit of Maniscalco & Lau (2012):

* **meta-c = c.** The Type 2 model's Type 1 criterion is the observed c itself (Fleming's ``c1``),
  not ``c * meta-d′ / d′``; the confidence criteria of "S1" responses lie below it, those of "S2"
  responses above it.
* **Priors.** One subject (JAGS writes normals with precisions; here standard deviations):
  meta-d′ ~ N(d′, √2); each confidence criterion ~ N(0, 1/√2) truncated to below c − 10⁻⁵ ("S1"
  side) or above c + 10⁻⁵ ("S2" side), then sorted. When d′ is estimated in the model
  (``estimate_dprime=True``): d′ ~ N(0, √2), c ~ N(0, 1/√2) with binomial hits and false alarms.
  ``prior_scale`` multiplies each of these SDs (1 by default: Fleming's).
  A group: log M-ratio_s = μ + ε·δ_s with μ ~ N(0, 1), δ_s ~ N(0, σ_δ), σ_δ ~ N⁺(0, 1),
  ε ~ Beta(1, 1) (so the SD of log M-ratio is ε·σ_δ); criteria ~ N(∓μ_c2, σ_c2) truncated at c_s,
  μ_c2 ~ N(0, 10), σ_c2 ~ N⁺(0, 10); with ``estimate_dprime=True`` also d′_s ~ N(μ_d, σ_d),
  c_s ~ N(μ_c, σ_c), μ ~ N(0, 10), σ ~ N⁺(0, 10).

The likelihood is HMeta-d's: the confidence ratings are multinomial *given* the stimulus and the
Type 1 response (four blocks: correct and incorrect "S1", incorrect and correct "S2"), each
probability floored at 10⁻⁵ as in the JAGS code. With ``estimate_dprime=False`` (the toolbox's
default) d′ and c are point estimates from the counts padded by ``pad`` = 1/(2K) per cell (the
toolbox's ``adj_f``); the multinomial sees the counts unpadded.

Equivalent reparameterisations, for NUTS (the model, i.e. the joint distribution, is Fleming's):
sorted criteria are sampled as log-gaps from c with the density of the sorted truncated normals
(their order statistics) and its Jacobian; the subjects' d′ and c (when estimated) are non-centred
(d′_s = μ_d + σ_d·z_s, z_s ~ N(0, 1)). The group model's sampler uses nutpie's low-rank
modified mass matrix. A single subject's chains start with the criteria near c (log-gaps near
−1), where every rating's probability is above the floor: the likelihood is flat beyond it, and
near-flat priors (``prior_scale``) would not pull a chain started there back.

Each fit compiles nothing after the first: one compiled model per shape (number of ratings, and
of subjects for a group) is kept and given the new counts. The first fit of a shape compiles it
(``scripts/bench_bayes_metad.py`` prints how long that takes).

This module imports PyMC, nutpie and ArviZ (``pip install metabits[bayes]``) on a fit's first
use: the model and its sampling are in the private ``metabits.sdt._hmetad_model``; ``import
metabits`` loads neither — :func:`metabits.fit_meta_d_bayes` loads this module on first use.
The first fit also sets JAX up for NUTS's many small gradient calls:
``jax_cpu_enable_async_dispatch`` False (each call runs in the calling thread instead of being
handed to XLA's thread pool) and, in ``XLA_FLAGS``,
``--xla_cpu_enable_concurrency_optimized_scheduler=false`` (a call's parts run one after
another; unless that variable names the option already, and only under a jaxlib known to have
it). Both make the small calls cheaper and leave the draws the same. (JAX reads both when it
starts its CPU client: in a process that computed with JAX before, the client it has stays.)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from metabits._formulas import sdt_type1
from metabits.results import Result
from metabits.validation import as_count_table, as_int, as_probability, as_scalar
# the model and its sampling (PyMC, nutpie and ArviZ imported there on first use)
from metabits.sdt._hmetad_model import TOL, _compiled, _diagnostics, _draws, _sample  # noqa: F401

#: docstrings whose Examples sample with NUTS: marked slow by the test configuration
_SLOW_DOCTESTS = ("fit_meta_d_bayes", "fit_meta_d_bayes_group")

__all__ = ["BayesMetaDFit", "BayesMetaDGroupFit", "fit_meta_d_bayes", "fit_meta_d_bayes_group"]


class _PosteriorDraws(Result):
    """What every HMeta-d result offers on top of its draws: their Monte Carlo SEs."""

    def mcse(self, name: str):
        """Monte Carlo SE of the posterior mean of the draws ``name`` (e.g. ``"m_ratio"``).

        ArviZ's ``mcse`` (mean, batch-means over the chains' ESS); an array for per-subject or
        per-criterion draws.
        """
        return _mcse(self, name)


@dataclass(frozen=True)
class BayesMetaDFit(_PosteriorDraws):
    """Result of :func:`fit_meta_d_bayes`; also a mapping (``fit["meta_d"]``).

    Posterior draws are flat arrays over chains × draws; their means are HMeta-d's point
    estimates (``fit.meta_d.mean()`` is the toolbox's ``fit.meta_d``, ``fit.m_ratio.mean()`` its
    ``fit.M_ratio``, a mean of ratios). ``fit.mcse(name)`` gives the Monte Carlo SE of the
    posterior mean of the draws ``name`` (e.g. ``"m_ratio"``).

    Attributes
    ----------
    d, c : float or ndarray
        Type 1 d′ and c: numbers from the padded counts (``estimate_dprime=False``) or posterior
        draws (``estimate_dprime=True``).
    meta_d, m_ratio, m_diff : ndarray, shape (S,)
        Posterior draws of meta-d′, meta-d′/d′ and meta-d′ − d′.
    t2c_S1, t2c_S2 : ndarray, shape (S, K - 1)
        Posterior draws of the confidence criteria of "S1" (below c) and "S2" responses (above
        c), increasing.
    r_hat : float
        The largest rank-normalised split R-hat over the sampled parameters (Vehtari et al.,
        2021); near 1 (say below 1.01) when the chains agree.
    ess_bulk, ess_tail : float
        The smallest bulk and tail effective sample sizes over the sampled parameters.
    divergences : int
        Divergent transitions after tuning; any means the posterior may be biased.
    chains, draws : int
        Chains and draws per chain (S = chains × draws).
    estimate_dprime : bool
        Whether d′ and c were estimated in the model.
    pad : float
        The constant added to every cell for the point estimates of d′ and c (0 when estimated).
    counts : ndarray, shape (2, 2K)
        The fitted counts (rows ``nR_S1``, ``nR_S2``), for the predictive checks of
        :mod:`metabits.sdt`.
    trace : arviz.InferenceData
        Everything the sampler returned (posterior, sampler statistics).
    """

    d: object
    c: object
    meta_d: np.ndarray
    m_ratio: np.ndarray
    m_diff: np.ndarray
    t2c_S1: np.ndarray
    t2c_S2: np.ndarray
    r_hat: float
    ess_bulk: float
    ess_tail: float
    divergences: int
    chains: int
    draws: int
    estimate_dprime: bool
    pad: float
    counts: np.ndarray
    trace: object


@dataclass(frozen=True)
class BayesMetaDGroupFit(_PosteriorDraws):
    """Result of :func:`fit_meta_d_bayes_group`; also a mapping. ``fit.mcse(name)`` gives the
    Monte Carlo SE of the posterior mean of the draws ``name``.

    Attributes
    ----------
    d, c : ndarray, shape (n,) or (S, n)
        Type 1 d′ and c of each subject: from the padded counts, or posterior draws.
    meta_d, m_ratio : ndarray, shape (S, n)
        Posterior draws of each subject's meta-d′ and M-ratio (M-ratio_s · d′_s = meta-d′_s).
    mu_log_m_ratio, sigma_log_m_ratio : ndarray, shape (S,)
        Posterior draws of the group mean and SD of log M-ratio; ``np.exp(mu_log_m_ratio)`` is
        the group M-ratio HMeta-d reports.
    r_hat, ess_bulk, ess_tail
        As in :class:`BayesMetaDFit`, over the model's identified quantities: the group mean and
        SD of log M-ratio, the subjects' M-ratios, the criteria and their group mean and SD (and
        d′, c and their group parameters when estimated). Fleming's ε and σ_δ, identified only
        through their product, are left out; their draws are in ``trace``.
    counts : ndarray, shape (n, 2, 2K)
        The fitted tables.
    divergences, chains, draws, estimate_dprime, pad, trace
        As in :class:`BayesMetaDFit`.
    """

    d: np.ndarray
    c: np.ndarray
    meta_d: np.ndarray
    m_ratio: np.ndarray
    mu_log_m_ratio: np.ndarray
    sigma_log_m_ratio: np.ndarray
    r_hat: float
    ess_bulk: float
    ess_tail: float
    divergences: int
    chains: int
    draws: int
    estimate_dprime: bool
    pad: float
    counts: np.ndarray
    trace: object


def _mcse(fit, name):
    import arviz as az

    draws = getattr(fit, name) if isinstance(name, str) and name in fit else None
    if not isinstance(draws, np.ndarray) or draws.shape[:1] != (fit.chains * fit.draws,):
        raise ValueError(f"{name!r} is not a field of posterior draws of this fit")
    x = draws.reshape((fit.chains, fit.draws) + draws.shape[1:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        value = az.mcse(az.convert_to_dataset(x))["x"].values
    return float(value) if value.ndim == 0 else value


# ----------------------------------------------------------------------------------- input


def _type1_padded(counts: np.ndarray, pad: float):
    """d′ and c of tables (n, 2, 2K) padded by ``pad`` per cell, as HMeta-d's Matlab code."""
    K = counts.shape[-1] // 2
    c = counts + pad
    hr = c[:, 1, K:].sum(-1) / c[:, 1].sum(-1)
    far = c[:, 0, K:].sum(-1) / c[:, 0].sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):  # a rate of 0 or 1: checked by caller
        return sdt_type1(hr, far)


def _check_tables(counts, name, estimate_dprime, pad, where):
    """Checked stack (n, 2, 2K) of count tables and the pad; d′, c from the padded counts."""
    counts = as_count_table(counts, name, min_levels=2)
    if not isinstance(estimate_dprime, (bool, np.bool_)):
        raise ValueError(f"estimate_dprime must be True or False; got {estimate_dprime!r}")
    L = counts.shape[-1]
    if estimate_dprime:
        if pad is not None:
            raise ValueError("pad only applies to the point estimates of d′ and c "
                             "(estimate_dprime=False); the model sees the counts unpadded")
        return counts, 0.0, None, None
    pad = 1.0 / L if pad is None else as_scalar(pad, "pad")
    if not pad >= 0:
        raise ValueError(f"pad must be non-negative; got {pad:g}")
    d, c = _type1_padded(counts, pad)
    bad = np.flatnonzero(~np.isfinite(d))
    if bad.size:
        raise ValueError(f"d′ is infinite{where(bad[0])} (a hit or false-alarm rate of 0 or 1); "
                         f"pad the counts for d′, e.g. pad={1 / L:g} = 1/(2K) (the default), or "
                         "estimate d′ in the model (estimate_dprime=True)")
    zero = np.flatnonzero(d == 0)
    if zero.size:
        raise ValueError(f"d′ = 0{where(zero[0])}: the M-ratio meta-d′/d′ is undefined")
    return counts, pad, d, c


def _prior_scale(prior_scale):
    if isinstance(prior_scale, (bool, np.bool_)):
        raise ValueError(f"prior_scale must be a number > 0; got {prior_scale!r}")
    value = as_scalar(prior_scale, "prior_scale")
    if not value > 0:
        raise ValueError(f"prior_scale must be > 0; got {value:g}")
    return value


def _sampler_args(chains, draws, tune, target_accept, seed, cores):
    chains = as_int(chains, "chains", least=1)
    draws = as_int(draws, "draws", least=1)
    tune = as_int(tune, "tune", least=0)
    target_accept = as_probability(target_accept, "target_accept", 0.0, 1.0,
                                   low_open=True, high_open=True)
    if seed is None:
        seed = int(np.random.default_rng().integers(2 ** 31))
    else:
        seed = as_int(seed, "seed", least=0)
    cores = 1 if cores is None else as_int(cores, "cores", least=1)
    return dict(chains=chains, draws=draws, tune=tune, target_accept=float(target_accept),
                seed=seed, cores=cores)


# ----------------------------------------------------------------------------------- the fits


def fit_meta_d_bayes(nR_S1, nR_S2, *, estimate_dprime=False, pad=None, prior_scale=1.0,
                     chains=4, draws=1000, tune=1000, target_accept=0.8, seed=None,
                     cores=None) -> BayesMetaDFit:
    """Bayesian meta-d′ of one table: Fleming's (2017) HMeta-d single-subject model, NUTS.

    Parameters
    ----------
    nR_S1, nR_S2 : array_like, shape (2K,)
        Counts of responses to S1 and to S2 stimuli, from "S1, most confident" to "S2, most
        confident"; K >= 2 confidence levels (as :func:`metabits.fit_meta_d`, metadpy, HMeta-d).
    estimate_dprime : bool, default False
        False (the toolbox's default): d′ and c are computed from the counts padded by ``pad``
        and held fixed; meta-d′'s prior is centred on that d′. True: d′ and c get Fleming's priors
        and are estimated in the model from the unpadded hits and false alarms.
    pad : float, optional
        Added to every cell for d′ and c when ``estimate_dprime=False``; default 1/(2K) as in
        HMeta-d (``adj_f``). Not allowed with ``estimate_dprime=True``.
    prior_scale : float, default 1
        Multiplies the SD of every prior (meta-d′'s, the confidence criteria's, and d′'s and c's
        when estimated); their means stay. 1 is Fleming's model; a large value (say 100) makes
        the priors nearly flat over any plausible value, so that the posterior is close to the
        normalised likelihood and what the priors contribute to an estimate can be measured
        (fit once at 1, once at 100). Must be a finite number > 0.
    chains, draws, tune : int, default 4, 1000, 1000
        NUTS chains, draws kept per chain and tuning steps per chain (HMeta-d's JAGS default is
        3 chains of 10,000 after 1,000 burn-in; NUTS draws are far less autocorrelated, see
        ``ess_bulk``).
    target_accept : float, default 0.8
        NUTS's target acceptance rate; raise it (e.g. 0.95) if there are divergences.
    seed : int, optional
        Seed of the sampler; the same seed gives the same draws.
    cores : int, optional
        How many chains run at once (threads); default 1, one chain after another. The JAX
        gradient is called from Python, which holds the GIL, so parallel chains wait for each
        other: they take longer, and more CPU, than one after another
        (``scripts/bench_bayes_metad.py`` compares 1 and 2). The draws are the same whatever
        ``cores``.

    Returns
    -------
    BayesMetaDFit
        Posterior draws of ``meta_d``, ``m_ratio``, ``m_diff``, the criteria, with ``d``, ``c``,
        ``r_hat``, ``ess_bulk``, ``ess_tail``, ``divergences`` and the ``trace``.

    Raises
    ------
    ValueError
        For counts that are not two equal-length rows of non-negative finite numbers with an even
        number 2K >= 4 of columns, an empty row, an infinite or zero d′ from the padded counts,
        a negative pad, a pad with ``estimate_dprime=True``, a non-boolean ``estimate_dprime``,
        a ``prior_scale`` that is not a finite number > 0, or bad sampler settings.

    Notes
    -----
    HMeta-d's M-ratio is the posterior mean of meta-d′/d′ (``fit.m_ratio.mean()``); with
    ``estimate_dprime=False`` d′ is a constant, so it equals ``fit.meta_d.mean() / fit.d``. The
    first call for a number of ratings K compiles the model; later calls reuse it.

    References
    ----------
    Fleming (2017), HMeta-d: hierarchical Bayesian estimation of metacognitive efficiency from
    confidence ratings, Neuroscience of Consciousness 2017(1), nix007; its code,
    github.com/metacoglab/HMeta-d (``fit_meta_d_mcmc.m``, ``Bayes_metad.txt``).

    Examples
    --------
    Meyen et al.'s (2025) Table 1 with the toolbox's defaults (d′ from the counts padded by
    1/(2K) = 1/4):

    >>> fit = fit_meta_d_bayes([84, 56, 48, 12], [4, 56, 64, 76], seed=1)
    >>> print(f"d′ {fit.d:.3f}, meta-d′ {fit.meta_d.mean():.1f}, M-ratio {fit.m_ratio.mean():.1f}")
    d′ 1.043, meta-d′ 1.9, M-ratio 1.8
    >>> fit.r_hat < 1.01, fit.ess_bulk > 400, fit.divergences
    (True, True, 0)
    """
    counts = np.stack([np.asarray(nR_S1, dtype=float), np.asarray(nR_S2, dtype=float)]) \
        if np.ndim(nR_S1) == 1 and np.shape(nR_S1) == np.shape(nR_S2) else None
    if counts is None:
        raise ValueError(f"nR_S1 and nR_S2 must be 1-D count vectors of one length 2K; got "
                         f"shapes {np.shape(nR_S1)} and {np.shape(nR_S2)}")
    counts, pad, d, c = _check_tables(counts[None], "counts (nR_S1, nR_S2)", estimate_dprime,
                                      pad, lambda i: "")
    prior_scale = _prior_scale(prior_scale)
    args = _sampler_args(chains, draws, tune, target_accept, seed, cores)
    K = counts.shape[-1] // 2
    data = {"counts": counts, "prior_scale": np.array(prior_scale)}
    if not estimate_dprime:
        data.update(d=d, c=c)
    trace = _sample(_compiled("single", 1, K, bool(estimate_dprime)), data, args)
    names = ["meta_d", "log_gap_S1", "log_gap_S2"] + (["d", "c"] if estimate_dprime else [])
    r_hat, ess_bulk, ess_tail, divergences = _diagnostics(trace, names)
    meta_d = _draws(trace, "meta_d")[:, 0]
    if estimate_dprime:
        d_out, c_out = _draws(trace, "d")[:, 0], _draws(trace, "c")[:, 0]
        d_safe = np.where(d_out == 0, 1e-4, d_out)  # as HMeta-d: d′ draws of exactly 0
    else:
        d_out, c_out = float(d[0]), float(c[0])
        d_safe = d_out
    return BayesMetaDFit(d=d_out, c=c_out, meta_d=meta_d, m_ratio=meta_d / d_safe,
                         m_diff=meta_d - d_out, t2c_S1=_draws(trace, "t2c_S1")[:, 0],
                         t2c_S2=_draws(trace, "t2c_S2")[:, 0], r_hat=r_hat, ess_bulk=ess_bulk,
                         ess_tail=ess_tail, divergences=divergences, chains=args["chains"],
                         draws=args["draws"], estimate_dprime=bool(estimate_dprime), pad=pad,
                         counts=counts[0], trace=trace)


def fit_meta_d_bayes_group(counts, *, estimate_dprime=False, pad=None, chains=4, draws=1000,
                           tune=1000, target_accept=0.95, seed=None,
                           cores=None) -> BayesMetaDGroupFit:
    """Hierarchical Bayesian M-ratio of a group: Fleming's (2017) HMeta-d group model, NUTS.

    Parameters
    ----------
    counts : array_like, shape (n, 2, 2K)
        One count table per subject in the library's layout (row 0: ``nR_S1``, row 1:
        ``nR_S2``); n >= 2 subjects, K >= 2 confidence levels.
    estimate_dprime : bool, default False
        False (the toolbox's default, ``Bayes_metad_group_nodp``): each subject's d′ and c from
        the counts padded by ``pad``. True (``Bayes_metad_group``): d′ and c hierarchical too.
    pad : float, optional
        As in :func:`fit_meta_d_bayes`; default 1/(2K).
    chains, draws, tune, target_accept, seed
        As in :func:`fit_meta_d_bayes`; ``target_accept`` is 0.95 here: the criteria's group SD
        makes a funnel, which the larger steps of a lower target cross with divergences.
    cores : int, optional
        How many chains run at once; default 1, for the reason given in
        :func:`fit_meta_d_bayes`.

    Returns
    -------
    BayesMetaDGroupFit
        Posterior draws of ``mu_log_m_ratio``, ``sigma_log_m_ratio`` and of each subject's
        ``meta_d`` and ``m_ratio``, with ``d``, ``c`` and the diagnostics.

    Raises
    ------
    ValueError
        As :func:`fit_meta_d_bayes`, naming the subject; also for fewer than two subjects.

    Notes
    -----
    Subjects' M-ratios are shrunk towards the group's: a subject with few trials borrows from
    the others. The model is compiled once per (n, K, ``estimate_dprime``).

    Examples
    --------
    Six simulated subjects, 200 trials per stimulus and 2 confidence levels each, M-ratio 0.8
    each (d′ from 1.0 to 2.0, c from 0.2 to -0.2); 2 short chains (a demonstration, not
    publication-grade):

    >>> import metabits as mb
    >>> d = np.linspace(1.0, 2.0, 6)
    >>> tables = mb.sdt.simulate_ratings(d, 0.8 * d, 200, c=np.linspace(0.2, -0.2, 6), K=2,
    ...                              rng=7)[:, 0]
    >>> fit = fit_meta_d_bayes_group(tables, seed=6, chains=2, draws=300, tune=300)
    >>> print(f"group M-ratio {np.exp(fit.mu_log_m_ratio).mean():.1f}")
    group M-ratio 0.8
    >>> fit.r_hat < 1.05, fit.divergences < 10
    (True, True)

    Shrinkage: the subjects' M-ratios (posterior means) spread less than their
    maximum-likelihood M-ratios, estimated from each table alone:

    >>> bool(fit.m_ratio.mean(0).std() < mb.fit_meta_d(tables, pad=0.25).m_ratio.std())
    True
    """
    tables = as_count_table(counts, "counts", min_levels=2)
    if tables.ndim != 3:
        raise ValueError(f"counts must be a stack (n, 2, 2K) of one table per subject; got shape "
                         f"{tables.shape}")
    n = tables.shape[0]
    if n < 2:
        raise ValueError(f"a group needs at least 2 subjects; got {n} (use fit_meta_d_bayes)")
    tables, pad, d, c = _check_tables(tables, "counts", estimate_dprime, pad,
                                      lambda i: f" for subject {i}")
    args = _sampler_args(chains, draws, tune, target_accept, seed, cores)
    K = tables.shape[-1] // 2
    data = {"counts": tables}
    if not estimate_dprime:
        data.update(d=d, c=c)
    # a low-rank correction of the mass matrix follows the ridge between the group mean and the
    # subjects' effects, along which the group mean's chains otherwise mix slowly
    args["low_rank"] = True
    trace = _sample(_compiled("group", n, K, bool(estimate_dprime)), data, args)
    # identified quantities only: Fleming's ε and σ_δ enter only through σ = ε·σ_δ, so their
    # own chains wander along the ridge ε·σ_δ = σ (low ESS that says nothing about σ)
    names = ["mu_log_m_ratio", "sigma_log_m_ratio", "m_ratio", "mu_c2", "sigma_c2", "t2c_S1",
             "t2c_S2"]
    if estimate_dprime:
        names += ["mu_d", "sigma_d", "mu_c", "sigma_c", "d", "c"]
    r_hat, ess_bulk, ess_tail, divergences = _diagnostics(trace, names)
    return BayesMetaDGroupFit(
        d=_draws(trace, "d") if estimate_dprime else d,
        c=_draws(trace, "c") if estimate_dprime else c,
        meta_d=_draws(trace, "meta_d"), m_ratio=_draws(trace, "m_ratio"),
        mu_log_m_ratio=_draws(trace, "mu_log_m_ratio"),
        sigma_log_m_ratio=_draws(trace, "sigma_log_m_ratio"), r_hat=r_hat, ess_bulk=ess_bulk,
        ess_tail=ess_tail, divergences=divergences, chains=args["chains"], draws=args["draws"],
        estimate_dprime=bool(estimate_dprime), pad=pad, counts=tables, trace=trace)
