"""The prior on the group SD of log M-ratio in HMeta-d with two conditions within people.

:func:`metabits.hmetad` with conditions gives each condition Fleming's single-condition prior
on the SD of log M-ratio, σ_k = ε_k·σ_δk with ε_k ~ Beta(1, 1) and σ_δk ~ N⁺(0, 1), and
correlates a person's two deviations with a uniform prior on ρ. HMeta-d's own two-domain model
(``fit_meta_d_mcmc_groupCorr.m``, model file ``Bayes_metad_group_corr.txt``) puts
Gamma(0.001, 0.001) priors on the precisions λ_k = σ_k⁻² instead. This module refits a study
with either prior and shows what the choice does to the group quantities when there are 16
people:

* :func:`conditions_sd_prior_model` is the two-condition model as a PyMC model, the SD prior
  chosen by ``sd_prior`` (everything else as :func:`metabits.hmetad`'s: μ_k ~ N(0, 1), ρ ~
  U(−1, 1), the criteria's group mean μ_c2k ~ N(0, 10) and SD σ_c2k ~ N⁺(0, 10) per condition,
  each person's K − 1 criteria on a side sorted draws of N(∓μ_c2k, σ_c2k) truncated at c, the
  ratings multinomial given the stimulus and the Type 1 response with HMeta-d's probabilities,
  d′ and c the counts' padded by 1/(2K));
* :func:`fit_sd_prior` samples it with nutpie (NUTS) and :func:`group_summary` gives the group
  quantities with their Monte Carlo SEs;
* :func:`maskori_sd_prior` fits the MaskOri people at two SOAs with both priors;
  ``scripts/hmetad_sd_prior.py`` ships the result, which :func:`maskori_sd_prior_rows` reads.

Importing this module loads no PyMC: the fitting functions load it on their first call.
"""

from __future__ import annotations

import numpy as np

from metabits.validation import as_int, as_probability

__all__ = ["GAMMA_PRIOR", "SD_PRIORS", "SD_PRIOR_FILE", "SD_PRIOR_QUANTITIES",
           "conditions_sd_prior_model", "fit_sd_prior", "group_summary", "maskori_sd_prior",
           "maskori_sd_prior_rows", "rating_probabilities_tensor"]

#: docstrings whose Examples sample with NUTS: marked slow by the test configuration
_SLOW_DOCTESTS = ("fit_sd_prior", "maskori_sd_prior")

#: the two priors on each condition's SD of log M-ratio: ``"hmetad"`` is :func:`metabits.hmetad`'s
#: (Fleming's single-condition prior, σ = ε·σ_δ), ``"gamma"`` HMeta-d groupCorr's
#: (precision σ⁻² ~ Gamma(0.001, 0.001))
SD_PRIORS = ("hmetad", "gamma")
#: shape and rate of the precision's gamma prior in HMeta-d's ``Bayes_metad_group_corr.txt``
GAMMA_PRIOR = (0.001, 0.001)
#: HMeta-d's ``Tol``: the floor of a rating's probability
TOL = 1e-5
#: the group quantities of :func:`group_summary`, in its row order
SD_PRIOR_QUANTITIES = ("m_ratio_1", "m_ratio_2", "difference", "sigma_1", "sigma_2", "rho")
#: the shipped comparison (``metabits_book/data``), written by ``scripts/hmetad_sd_prior.py``
SD_PRIOR_FILE = "hmetad_sd_prior.csv"


def rating_probabilities_tensor(pt, meta_d, c, t2c_S1, t2c_S2):
    """HMeta-d's rating probabilities as a PyTensor expression, (n, 2, 2, K).

    The same probabilities as :func:`metabits.sdt.hmetad_rating_probabilities`: the evidence
    of an S1 (S2) stimulus is N(∓meta-d′/2, 1), cut at c and at the K − 1 criteria on each side;
    each cell's probability given the stimulus and the Type 1 response is floored at
    :data:`TOL` and renormalised.

    Parameters
    ----------
    pt : module
        ``pytensor.tensor``.
    meta_d, c : tensor, shape (n,)
        meta-d′ and the Type 1 criterion of each row.
    t2c_S1, t2c_S2 : tensor, shape (n, K - 1)
        The increasing criteria below and above c.

    Returns
    -------
    tensor, shape (n, 2, 2, K)
        Axes: stimulus, Type 1 response, rating in the table's column order.
    """
    n, km1 = t2c_S1.shape[0], t2c_S1.shape[1]
    edges = pt.concatenate([t2c_S1, c[:, None], t2c_S2], axis=1)  # (n, 2K - 1)
    means = pt.stack([-meta_d / 2, meta_d / 2], axis=1)  # (n, 2)
    z = edges[:, None, :] - means[:, :, None]  # (n, 2, 2K - 1)
    below = 0.5 * pt.erfc(-z / np.sqrt(2.0))  # Φ(z)
    above = 0.5 * pt.erfc(z / np.sqrt(2.0))  # 1 − Φ(z), accurate in the upper tail
    zero, one = pt.zeros_like(z[..., :1]), pt.ones_like(z[..., :1])
    below = pt.concatenate([zero, below, one], axis=-1)  # (n, 2, 2K + 1)
    above = pt.concatenate([one, above, zero], axis=-1)
    # a cell's mass from the tail it lies in: above the mean, differences of 1 − Φ
    upper = pt.concatenate([zero - 1.0, z], axis=-1) > 0  # each cell's lower edge above the mean
    cell = pt.where(upper, above[..., :-1] - above[..., 1:], below[..., 1:] - below[..., :-1])
    cell = cell.reshape((n, 2, 2, km1 + 1))
    p = cell / cell.sum(axis=-1, keepdims=True)
    p = pt.maximum(p, TOL)
    return p / p.sum(axis=-1, keepdims=True)


def _log_phi(pt):
    """log Φ as a PyTensor function: erfc is exact far into the lower tail (to −37), where the
    clip at −35 stops it."""
    return lambda x: pt.log(0.5 * pt.erfc(-pt.maximum(x, -35.0) / np.sqrt(2.0)))


def _check_sd_prior(sd_prior):
    if sd_prior not in SD_PRIORS:
        raise ValueError(f"sd_prior must be one of {SD_PRIORS}; got {sd_prior!r}")
    return sd_prior


def _check_counts(counts):
    counts = np.asarray(counts)
    if counts.ndim != 4 or counts.shape[1] != 2 or counts.shape[2] != 2 \
            or counts.shape[3] % 2 or counts.shape[3] < 4 or counts.shape[0] < 2:
        raise ValueError("counts must have shape (people >= 2, 2 conditions, 2, 2K) with K >= 2; "
                         f"got shape {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise ValueError("counts must be non-negative whole numbers")
    return counts.astype(float)


def conditions_sd_prior_model(counts, *, sd_prior="hmetad"):
    """The two-condition HMeta-d model with a chosen prior on the SDs of log M-ratio.

    log M-ratio_s· = μ + σ ⊙ (L z_s), z_s ~ N(0, I), L the Cholesky factor of the correlation
    [[1, ρ], [ρ, 1]], ρ ~ U(−1, 1), μ_k ~ N(0, 1). The SD σ_k of condition k has

    * ``sd_prior="hmetad"``: :func:`metabits.hmetad`'s prior, Fleming's single-condition one:
      σ_k = ε_k·σ_δk, ε_k ~ Beta(1, 1), σ_δk ~ N⁺(0, 1) (sampled as σ_k | ε_k ~ N⁺(0, ε_k));
    * ``sd_prior="gamma"``: HMeta-d groupCorr's, the precision σ_k⁻² ~ Gamma(0.001, 0.001)
      (shape, rate: :data:`GAMMA_PRIOR`).

    The criteria and the likelihood are as in the module's description; d′ and c are the counts'
    padded by 1/(2K) (:func:`metabits.sdt.type1_sdt`).

    Parameters
    ----------
    counts : array_like, shape (n, 2, 2, 2K)
        Each person's count table in each of the two conditions (n >= 2, K >= 2).
    sd_prior : {"hmetad", "gamma"}, default "hmetad"
        The prior on each condition's SD of log M-ratio.

    Returns
    -------
    pymc.Model
        With the variables ``mu_log_m_ratio``, ``sigma_log_m_ratio`` (2,), ``rho``, ``m_ratio``
        (n, 2) among others.

    Raises
    ------
    ValueError
        For a bad ``sd_prior`` or counts of the wrong shape or values.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.tile([[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]], (4, 2, 1, 1))
    >>> model = conditions_sd_prior_model(counts, sd_prior="gamma")
    >>> sorted(v.name for v in model.free_RVs)[:4]
    ['criterion_log_gap_S1', 'criterion_log_gap_S2', 'mu_c2', 'mu_log_m_ratio']
    """
    import pymc as pm
    import pytensor.tensor as pt

    import metabits as mb

    sd_prior = _check_sd_prior(sd_prior)
    counts = _check_counts(counts)
    n, C, K = counts.shape[0], 2, counts.shape[3] // 2
    sdt = mb.sdt.type1_sdt(counts + 1 / (2 * K))
    d, c = sdt.d.reshape(-1), sdt.c.reshape(-1)  # rows person-major: s·C + k
    rows = n * C
    cond = np.tile(np.arange(C), n)
    with pm.Model() as model:
        mu = pm.Normal("mu_log_m_ratio", 0.0, 1.0, shape=C)
        if sd_prior == "hmetad":
            epsilon = pm.Beta("epsilon", 1.0, 1.0, shape=C)
            sigma = pm.HalfNormal("sigma_log_m_ratio", epsilon, shape=C)
        else:
            precision = pm.Gamma("precision_log_m_ratio", alpha=GAMMA_PRIOR[0],
                                 beta=GAMMA_PRIOR[1], shape=C)
            sigma = pm.Deterministic("sigma_log_m_ratio", precision ** -0.5)
        rho = pm.Uniform("rho", -1.0, 1.0)
        z = pm.Normal("z_log_m_ratio", 0.0, 1.0, shape=(n, C))
        # (z_1, ρ z_1 + √(1 − ρ²) z_2): the people's effects with correlation ρ, non-centred
        effects = pt.stack([z[:, 0], rho * z[:, 0] + pt.sqrt(1.0 - rho ** 2) * z[:, 1]], axis=1)
        m_ratio = pm.Deterministic("m_ratio", pt.exp(mu[None, :] + sigma[None, :] * effects))
        mu_c2 = pm.Normal("mu_c2", 0.0, 10.0, shape=C)
        sigma_c2 = pm.HalfNormal("sigma_c2", 10.0, shape=C)
        # each side's sorted criteria from their log gaps (flat), with the map's Jacobian
        gap1 = pm.Flat("criterion_log_gap_S1", shape=(rows, K - 1))
        gap2 = pm.Flat("criterion_log_gap_S2", shape=(rows, K - 1))
        cS1 = (c[:, None] - pt.cumsum(pt.exp(gap1), axis=1))[:, ::-1]
        cS2 = c[:, None] + pt.cumsum(pt.exp(gap2), axis=1)
        m2, s2 = mu_c2[cond][:, None], sigma_c2[cond][:, None]
        log_phi = _log_phi(pt)
        # sorted draws of N(∓μ_c2, σ_c2) truncated at c: the normal densities over the mass
        # on the criteria's side of c, Φ((c + μ_c2)/σ_c2) below and Φ((μ_c2 − c)/σ_c2) above
        prior = (pm.logp(pm.Normal.dist(-m2, s2), cS1).sum()
                 + pm.logp(pm.Normal.dist(m2, s2), cS2).sum()
                 - (K - 1) * (log_phi((c[:, None] + m2) / s2)
                              + log_phi((m2 - c[:, None]) / s2)).sum())
        pm.Potential("criteria_prior", prior + gap1.sum() + gap2.sum())
        p = rating_probabilities_tensor(pt, m_ratio.reshape((rows,)) * d, pt.as_tensor(c),
                                        cS1, cS2)
        pm.Potential("ratings", (counts.reshape((rows, 2, 2, K)) * pt.log(p)).sum())
    return model


def fit_sd_prior(counts, *, sd_prior="hmetad", chains=2, draws=1000, tune=1000,
                 target_accept=0.95, seed=0):
    """Sample :func:`conditions_sd_prior_model` with nutpie's NUTS.

    Parameters
    ----------
    counts : array_like, shape (n, 2, 2, 2K)
        As :func:`conditions_sd_prior_model`.
    sd_prior : {"hmetad", "gamma"}, default "hmetad"
        The prior on each condition's SD of log M-ratio.
    chains, draws, tune : int, default 2, 1000, 1000
        Sampler settings (chains run side by side, one per core).
    target_accept : float, default 0.95
        NUTS's target acceptance rate, in (0, 1).
    seed : int, default 0
        The sampler's seed.

    Returns
    -------
    arviz.InferenceData
        The posterior and nutpie's sample statistics.

    Raises
    ------
    ValueError
        For bad counts, prior or sampler settings (the argument is named).

    Examples
    --------
    >>> counts = np.tile([[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]], (4, 2, 1, 1))
    >>> trace = fit_sd_prior(counts, chains=2, draws=100, tune=100)  # doctest: +SKIP
    >>> dict(trace.posterior["m_ratio"].sizes)  # doctest: +SKIP
    {'chain': 2, 'draw': 100, 'm_ratio_dim_0': 4, 'm_ratio_dim_1': 2}
    """
    import os
    import warnings

    chains = as_int(chains, "chains", least=1, most=64)
    draws = as_int(draws, "draws", least=10)
    tune = as_int(tune, "tune", least=0)
    seed = as_int(seed, "seed", least=0)
    target_accept = float(as_probability(target_accept, "target_accept", low_open=True,
                                         high_open=True))
    model = conditions_sd_prior_model(counts, sd_prior=sd_prior)
    import jax

    jax.config.update("jax_cpu_enable_async_dispatch", False)  # many small calls: run them inline
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.filterwarnings("ignore", message=".*could not link to a BLAS",
                                category=UserWarning)
        import nutpie

        compiled = nutpie.compile_pymc_model(model, backend="jax", gradient_backend="jax")
        return nutpie.sample(compiled, draws=draws, tune=tune, chains=chains,
                             cores=max(1, min(chains, os.cpu_count() or 1)), seed=seed,
                             target_accept=target_accept, progress_bar=False,
                             low_rank_modified_mass_matrix=True)


def group_summary(trace):
    """The group quantities of a two-condition fit, with their diagnostics.

    Parameters
    ----------
    trace : arviz.InferenceData
        A fit of :func:`fit_sd_prior` (or any posterior with ``mu_log_m_ratio``,
        ``sigma_log_m_ratio`` (chain, draw, 2) and ``rho`` (chain, draw)).

    Returns
    -------
    pandas.DataFrame
        One row per quantity of :data:`SD_PRIOR_QUANTITIES` — the group M-ratio exp(μ_k) of
        each condition, their difference (condition 2 minus 1), each condition's SD of log
        M-ratio and the correlation ρ — with its posterior ``mean``, ``median``, 95%
        equal-tailed interval (``eti_lo``, ``eti_hi``), the Monte Carlo SEs of the mean and of
        the interval's ends (``mcse_mean``, ``mcse_eti_lo``, ``mcse_eti_hi``), ``r_hat``,
        ``ess_bulk``, ``ess_tail``, and the fit's ``divergences``.
    """
    import warnings

    import arviz as az
    import pandas as pd

    post = trace.posterior
    mu = post["mu_log_m_ratio"].values
    sig = post["sigma_log_m_ratio"].values
    rho = post["rho"].values
    ratio = np.exp(mu)
    draws = {"m_ratio_1": ratio[..., 0], "m_ratio_2": ratio[..., 1],
             "difference": ratio[..., 1] - ratio[..., 0], "sigma_1": sig[..., 0],
             "sigma_2": sig[..., 1], "rho": rho}
    divergences = int(np.sum(trace.sample_stats["diverging"].values))
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in SD_PRIOR_QUANTITIES:
            x = draws[name]
            ds = az.convert_to_dataset(x)
            lo, hi = np.quantile(x, [0.025, 0.975])
            rows.append(dict(quantity=name, mean=float(x.mean()), median=float(np.median(x)),
                             eti_lo=float(lo), eti_hi=float(hi),
                             mcse_mean=float(az.mcse(ds)["x"]),
                             mcse_eti_lo=float(az.mcse(ds, method="quantile", prob=0.025)["x"]),
                             mcse_eti_hi=float(az.mcse(ds, method="quantile", prob=0.975)["x"]),
                             r_hat=float(az.rhat(ds)["x"]),
                             ess_bulk=float(az.ess(ds, method="bulk")["x"]),
                             ess_tail=float(az.ess(ds, method="tail")["x"]),
                             divergences=divergences))
    return pd.DataFrame(rows)


def _maskori_counts(soas):
    """The MaskOri people's count tables at two SOAs, (16, 2, 2, 10), in the SOAs' order."""
    import metabits as mb
    from metabits_book.studies import datasets

    trials = datasets.maskori_trials()
    trials = trials[trials.soa_ms.isin(soas)]
    tables = mb.read_trials(trials, subject="participant", stimulus="stimulus",
                            response="response", confidence="rating", by="soa_ms").tables()
    labels = tables.labels.reset_index(drop=True)
    people = list(dict.fromkeys(labels["participant"]))
    out = np.zeros((len(people), 2) + tables.counts.shape[1:])
    for row, (person, soa) in enumerate(zip(labels["participant"], labels["soa_ms"])):
        out[people.index(person), soas.index(float(soa))] = tables.counts[row]
    return out


def maskori_sd_prior(*, soas=(33.3, 66.7), priors=SD_PRIORS, chains=2, draws=2000, tune=1000,
                     target_accept=0.95, seed=2039):
    """The MaskOri people at two SOAs fitted with each prior on the SD of log M-ratio.

    Parameters
    ----------
    soas : pair of float, default (33.3, 66.7)
        The two SOAs (ms), condition 1 and 2 (the chapter's, ``MASKORI_CONDITION_SOAS``).
    priors : sequence of str, default :data:`SD_PRIORS`
        The priors on the SD to fit, each of :data:`SD_PRIORS`.
    chains, draws, tune, target_accept, seed
        Sampler settings of each fit, as :func:`fit_sd_prior` (both fits the same).

    Returns
    -------
    pandas.DataFrame
        :func:`group_summary`'s rows of each fit, with the column ``sd_prior`` (:data:`SD_PRIORS`)
        first and the sampler settings (``chains``, ``draws``, ``tune``, ``target_accept``,
        ``seed``) last.

    Raises
    ------
    ValueError
        For SOAs not in the data, an unknown prior or bad sampler settings.

    Examples
    --------
    >>> rows = maskori_sd_prior(chains=2, draws=200, tune=200)  # doctest: +SKIP
    >>> rows.groupby("sd_prior").size().to_dict()  # doctest: +SKIP
    {'gamma': 6, 'hmetad': 6}
    """
    import pandas as pd

    from metabits_book.studies import datasets

    try:
        soas = tuple(float(s) for s in soas)
    except (TypeError, ValueError):
        raise ValueError(f"soas must be two SOAs in ms; got {soas!r}") from None
    if len(soas) != 2 or len(set(soas)) != 2 or any(s not in datasets.MASKORI_SOAS
                                                       for s in soas):
        raise ValueError(f"soas must be two of {datasets.MASKORI_SOAS}; got {soas!r}")
    names = [priors] if isinstance(priors, str) else list(priors)
    if not names or any(prior not in SD_PRIORS for prior in names):
        raise ValueError(f"priors must name one or more of {SD_PRIORS}; got {priors!r}")
    priors = names
    counts = _maskori_counts(soas)
    frames = []
    for prior in priors:
        trace = fit_sd_prior(counts, sd_prior=prior, chains=chains, draws=draws, tune=tune,
                             target_accept=target_accept, seed=seed)
        frame = group_summary(trace)
        frame.insert(0, "sd_prior", prior)
        frame = frame.assign(chains=chains, draws=draws, tune=tune, target_accept=target_accept,
                             seed=seed)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def maskori_sd_prior_rows():
    """The shipped :func:`maskori_sd_prior` (``scripts/hmetad_sd_prior.py``).

    Returns
    -------
    pandas.DataFrame
        Its rows: each prior's group quantities.

    Examples
    --------
    >>> rows = maskori_sd_prior_rows()
    >>> rows.sd_prior.unique().tolist()
    ['hmetad', 'gamma']
    """
    from importlib.resources import files

    import pandas as pd

    with files("metabits_book").joinpath("data", SD_PRIOR_FILE).open(encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")
