"""HMeta-d with conditions within people (:func:`metabits.hmetad`): recovery and calibration.

* :func:`conditions_recovery` simulates studies of people in two conditions at a known group
  M-ratio per condition, SD of log M-ratio and correlation of the people's log M-ratios across
  the conditions, fits each with :func:`metabits.hmetad`, and gives one row per study: the
  posterior mean and 95% equal-tailed interval of the paired difference of the group log
  M-ratios, of the group M-ratios, of the correlation and of each condition's parameters, the
  maximum-likelihood counterparts (:func:`metabits.fit_meta_d` per person and condition) and
  the diagnostics. :func:`conditions_recovery_summary` gives bias and coverage with their Monte
  Carlo SEs; :func:`conditions_recovery_rows` reads the shipped study.
* :func:`hmetad_sbc` is a simulation-based calibration (Talts et al., 2018) of the two-condition
  model: parameters drawn from the model's prior, data from its likelihood, and the rank of each
  true value among thinned posterior draws. :func:`sbc_uniformity` tests the ranks against the
  uniform distribution; :func:`hmetad_sbc_rows` reads the shipped ranks.
* :func:`maskori_conditions` fits the MaskOri people at two SOAs as conditions within people;
  ``scripts/hmetad_maskori.py`` ships its summary, its people and thinned draws, which
  :func:`maskori_conditions_summary`, :func:`maskori_conditions_subjects` and
  :func:`maskori_conditions_posterior` read.

A study of the fits, not a check of one fit: the library holds the fit. Importing this module
loads no PyMC: the fitting functions load it on their first call.
"""

from __future__ import annotations

import numpy as np

from metabits.validation import as_int, as_probability, as_scalar

__all__ = ["MASKORI_CONDITION_SOAS", "RECOVERY_QUANTITIES", "RECOVERY_SAMPLER", "SBC_QUANTITIES",
           "conditions_recovery", "conditions_recovery_rows", "conditions_recovery_summary",
           "hmetad_sbc", "hmetad_sbc_rows", "maskori_conditions", "maskori_conditions_posterior",
           "maskori_conditions_subjects", "maskori_conditions_summary", "maskori_draws_frame",
           "sbc_uniformity"]

#: docstrings whose Examples sample with NUTS: marked slow by the test configuration
_SLOW_DOCTESTS = ("conditions_recovery", "hmetad_sbc", "maskori_conditions")

#: the shipped recovery study (``metabits_book/data``), written by ``scripts/hmetad_recovery.py``
RECOVERY_FILE = "hmetad_recovery.csv"
#: the sampler settings of each fit of the shipped recovery study (its rows do not record them)
RECOVERY_SAMPLER = {"chains": 2, "draws": 500, "tune": 500}
#: the shipped calibration ranks, written by ``scripts/hmetad_sbc.py``
SBC_FILE = "hmetad_sbc.csv"

#: the quantities of :func:`conditions_recovery`: the paired difference of the group log
#: M-ratios (condition 2 minus 1), of the group M-ratios, the correlation across conditions, each
#: condition's group log M-ratio and SD of log M-ratio
RECOVERY_QUANTITIES = ("log_diff", "ratio_diff", "rho", "mu_1", "mu_2", "sigma_1", "sigma_2")
#: the quantities whose ranks :func:`hmetad_sbc` records
SBC_QUANTITIES = ("mu_1", "mu_2", "sigma_1", "sigma_2", "rho")

LEVEL = 0.95


def _rng(seed, i):
    return np.random.default_rng([int(seed), int(i)])


def _check_common(n_sets, start, seed, n_people, n_per_stimulus, K, d_range):
    n_sets = as_int(n_sets, "n_sets", least=1)
    start = as_int(start, "start", least=0)
    seed = as_int(seed, "seed", least=0, most=19_999)
    n_people = as_int(n_people, "n_people", least=2, most=1000)
    n_per_stimulus = as_int(n_per_stimulus, "n_per_stimulus", least=1)
    K = as_int(K, "K", least=2, most=20)
    try:
        lo, hi = (float(v) for v in d_range)
    except (TypeError, ValueError):
        raise ValueError(f"d_range must be two numbers (low, high); got {d_range!r}") from None
    if not 0 < lo <= hi < np.inf:
        raise ValueError(f"d_range must satisfy 0 < low <= high; got {d_range!r}")
    return n_sets, start, seed, n_people, n_per_stimulus, K, (lo, hi)


def _fit(tables, chains, draws, tune, seed):
    import warnings

    import metabits as mb

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the diagnostics are recorded instead
        return mb.hmetad(tables, chains=chains, draws=draws, tune=tune, seed=seed)


def _diagnostics(fit):
    return dict(r_hat=fit.r_hat, ess_bulk=fit.ess_bulk, ess_tail=fit.ess_tail,
                divergences=int(fit.divergences))


# ----------------------------------------------------------------------------------- recovery


def _true_ratio_diff_of_means(mu, sd):
    """E[M_2 − M_1] for log-normal M-ratios: exp(μ_k + σ²/2)."""
    return float(np.exp(mu[1] + sd ** 2 / 2) - np.exp(mu[0] + sd ** 2 / 2))


def conditions_recovery(n_sets, *, start=0, seed=0, n_people=16, m_ratio=(0.8, 0.6), sd=0.25,
                        rho=0.5, n_per_stimulus=100, K=4, d_range=(1.0, 2.0), chains=2,
                        draws=500, tune=500):
    """Recovery of the condition effect and the correlation across conditions of :func:`hmetad`.

    Study i (``i = start, ..., start + n_sets - 1``) draws, with
    ``rng = numpy.random.default_rng([seed, i])``, each person's d′ in each of two conditions
    uniformly from ``d_range``, and their log M-ratios in the two conditions from a bivariate
    normal with means log ``m_ratio``, SD ``sd`` and correlation ``rho``; it simulates their
    tables with :func:`metabits.sdt.simulate_ratings` (c = 0, equiprobable criteria; the same
    ``rng``) and fits them with :func:`metabits.hmetad` (sampler seed ``seed * 100_000 + i``).
    Any subset of a study is reproduced by itself (``start``).

    Parameters
    ----------
    n_sets : int
        Number of simulated studies.
    start : int, default 0
        Index of the first study.
    seed : int, default 0
        The study's seed (0 to 19,999).
    n_people : int, default 16
        People per study (>= 2).
    m_ratio : pair of float, default (0.8, 0.6)
        The group M-ratio exp(μ_k) of each condition (> 0).
    sd : float, default 0.25
        SD of log M-ratio across people, in each condition (> 0).
    rho : float, default 0.5
        Correlation of a person's log M-ratios across the conditions, in (−1, 1).
    n_per_stimulus : int, default 100
        Trials per stimulus, person and condition.
    K : int, default 4
        Confidence levels.
    d_range : pair of float, default (1.0, 2.0)
        Range of the people's d′.
    chains, draws, tune : int, default 2, 500, 500
        Sampler settings of each fit.

    Returns
    -------
    pandas.DataFrame
        One row per study: the design (``seed``, ``set``, ``n_people``, ``n_per_stimulus``,
        ``K``, ``m_ratio_1``, ``m_ratio_2``, ``sd``, ``rho``), for each of
        :data:`RECOVERY_QUANTITIES` its posterior ``_mean`` and 95% equal-tailed interval
        (``_lo``, ``_hi``); maximum likelihood's paired difference of the people's M-ratios
        averaged over people (``ml_ratio_diff``) and the correlation across people of their ML
        M-ratios (``ml_rho``); the diagnostics ``r_hat`` (largest), ``ess_bulk``, ``ess_tail``
        (smallest over the fit's identified quantities) and ``divergences``, and the R-hat and
        bulk ESS of the difference and of the correlation themselves (``r_hat_log_diff``,
        ``ess_bulk_log_diff``, ``r_hat_rho``, ``ess_bulk_rho``).

    Raises
    ------
    ValueError
        For bad counts, seeds, M-ratios, SDs, correlations or ranges (the argument is named).

    Examples
    --------
    A replicate fits in seconds (the tests redraw a shipped one from its seed):

    >>> rows = conditions_recovery(1, n_people=6, chains=2, draws=200, tune=200)  # doctest: +SKIP
    >>> rows[["set", "n_people", "m_ratio_1"]].values.tolist()  # doctest: +SKIP
    [[0.0, 6.0, 0.8]]
    >>> bool(rows.log_diff_lo[0] < rows.log_diff_hi[0])  # doctest: +SKIP
    True
    """
    import pandas as pd

    import metabits as mb

    n_sets, start, seed, n_people, n_per_stimulus, K, d_range = _check_common(
        n_sets, start, seed, n_people, n_per_stimulus, K, d_range)
    try:
        m = np.array([float(v) for v in m_ratio])
    except (TypeError, ValueError):
        raise ValueError(f"m_ratio must be two numbers; got {m_ratio!r}") from None
    if m.shape != (2,) or not np.all(m > 0) or not np.all(np.isfinite(m)):
        raise ValueError(f"m_ratio must be two positive numbers; got {m_ratio!r}")
    sd = as_scalar(sd, "sd")
    if not 0 < sd < np.inf:
        raise ValueError(f"sd must be positive; got {sd!r}")
    rho = float(as_probability(rho, "rho", -1.0, 1.0, low_open=True, high_open=True))
    mu = np.log(m)
    cov = sd ** 2 * np.array([[1.0, rho], [rho, 1.0]])
    alpha = (1 - LEVEL) / 2
    rows = []
    for i in range(start, start + n_sets):
        rng = _rng(seed, i)
        d = rng.uniform(*d_range, size=(n_people, 2))
        log_m = rng.multivariate_normal(mu, cov, size=n_people)
        tables = mb.sdt.simulate_ratings(d, np.exp(log_m) * d, n_per_stimulus, K=K,
                                         rng=rng)[:, :, 0]
        fit = _fit(tables, chains, draws, tune, seed * 100_000 + i)
        post = fit.trace.posterior
        mu_cd = post["mu_log_m_ratio"].values  # (chain, draw, 2)
        own = _rhat_ess({"log_diff": mu_cd[..., 1] - mu_cd[..., 0],
                         "rho": post["corr_log_m_ratio"].values[..., 0, 1]})
        mu_d = post["mu_log_m_ratio"].values.reshape(-1, 2)
        sig = post["sigma_log_m_ratio"].values.reshape(-1, 2)
        corr = post["corr_log_m_ratio"].values.reshape(-1, 2, 2)[:, 0, 1]
        draws_of = {"log_diff": mu_d[:, 1] - mu_d[:, 0],
                    "ratio_diff": np.exp(mu_d[:, 1]) - np.exp(mu_d[:, 0]), "rho": corr,
                    "mu_1": mu_d[:, 0], "mu_2": mu_d[:, 1], "sigma_1": sig[:, 0],
                    "sigma_2": sig[:, 1]}
        row = dict(seed=seed, set=i, n_people=n_people, n_per_stimulus=n_per_stimulus, K=K,
                   m_ratio_1=m[0], m_ratio_2=m[1], sd=sd, rho=rho)
        for name in RECOVERY_QUANTITIES:
            x = draws_of[name]
            lo, hi = np.quantile(x, [alpha, 1 - alpha])
            row.update({f"{name}_mean": float(x.mean()), f"{name}_lo": float(lo),
                        f"{name}_hi": float(hi)})
        ml = np.array([[mb.fit_meta_d(tables[s, k], pad=1 / (2 * K)).m_ratio for k in range(2)]
                       for s in range(n_people)])
        row["ml_ratio_diff"] = float(np.mean(ml[:, 1] - ml[:, 0]))
        row["ml_rho"] = float(np.corrcoef(ml[:, 0], ml[:, 1])[0, 1])
        row.update(_diagnostics(fit))
        row.update(own)
        rows.append(row)
    return pd.DataFrame(rows)


def _rhat_ess(draws):
    """R-hat and bulk ESS of each named array of draws (chain, draw)."""
    import warnings

    import arviz as az

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, x in draws.items():
            ds = az.convert_to_dataset(x)
            out[f"r_hat_{name}"] = float(az.rhat(ds)["x"])
            out[f"ess_bulk_{name}"] = float(az.ess(ds, method="bulk")["x"])
    return out


def _truths(design):
    """True values of :data:`RECOVERY_QUANTITIES` and of the ML quantities of one design row."""
    mu = np.log([design["m_ratio_1"], design["m_ratio_2"]])
    return {"log_diff": mu[1] - mu[0], "ratio_diff": float(np.exp(mu[1]) - np.exp(mu[0])),
            "rho": design["rho"], "mu_1": mu[0], "mu_2": mu[1], "sigma_1": design["sd"],
            "sigma_2": design["sd"],
            "ml_ratio_diff": _true_ratio_diff_of_means(mu, design["sd"]),
            "ml_rho": design["rho"]}


def conditions_recovery_summary(rows):
    """Bias and 95% coverage of each quantity of a recovery study, with Monte Carlo SEs.

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per simulated study of one design, as :func:`conditions_recovery` gives.

    Returns
    -------
    pandas.DataFrame
        One row per quantity (:data:`RECOVERY_QUANTITIES`, then maximum likelihood's
        ``ml_ratio_diff`` — whose truth is the mean paired difference of the people's M-ratios,
        exp(μ_2 + σ²/2) − exp(μ_1 + σ²/2) — and ``ml_rho``): ``truth``, ``bias`` of the
        posterior mean (or the ML estimate) with ``bias_se`` (SD / √m), ``coverage`` of the 95%
        interval with its binomial ``coverage_se`` (NaN for ML), the mean interval ``width``,
        and ``studies`` m.

    Raises
    ------
    ValueError
        For rows without the needed columns, no rows, or rows of more than one design.

    Examples
    --------
    >>> s = conditions_recovery_summary(conditions_recovery_rows())
    >>> s.quantity.tolist()[:3]
    ['log_diff', 'ratio_diff', 'rho']
    """
    import pandas as pd

    design = ["n_people", "n_per_stimulus", "K", "m_ratio_1", "m_ratio_2", "sd", "rho"]
    if not isinstance(rows, pd.DataFrame):
        raise ValueError(f"rows must be a pandas DataFrame; got {type(rows).__name__}")
    need = design + [f"{q}_{s}" for q in RECOVERY_QUANTITIES for s in ("mean", "lo", "hi")]
    missing = [k for k in need + ["ml_ratio_diff", "ml_rho"] if k not in rows.columns]
    if missing:
        raise ValueError(f"rows lacks the columns {missing}")
    if len(rows) == 0:
        raise ValueError("rows is empty")
    if len(rows[design].drop_duplicates()) != 1:
        raise ValueError("rows hold more than one design; summarise each on its own")
    truth = _truths(rows.iloc[0])
    m = len(rows)
    out = []
    for name in RECOVERY_QUANTITIES + ("ml_ratio_diff", "ml_rho"):
        est = rows[name if name.startswith("ml_") else f"{name}_mean"].to_numpy(float)
        row = dict(quantity=name, truth=truth[name], bias=float(est.mean() - truth[name]),
                   bias_se=float(est.std(ddof=1) / np.sqrt(m)) if m > 1 else float("nan"),
                   coverage=float("nan"), coverage_se=float("nan"), width=float("nan"),
                   studies=m)
        if not name.startswith("ml_"):
            lo, hi = rows[f"{name}_lo"].to_numpy(float), rows[f"{name}_hi"].to_numpy(float)
            p = float(np.mean((lo <= truth[name]) & (truth[name] <= hi)))
            row.update(coverage=p, coverage_se=float(np.sqrt(p * (1 - p) / m)),
                       width=float(np.mean(hi - lo)))
        out.append(row)
    return pd.DataFrame(out)


def _read(name):
    from importlib.resources import files

    import pandas as pd

    with files("metabits_book").joinpath("data", name).open(encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")


def conditions_recovery_rows():
    """The shipped recovery study of :func:`metabits.hmetad`: one row per simulated study.

    Written by ``scripts/hmetad_recovery.py`` (:func:`conditions_recovery`).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`conditions_recovery`.

    Examples
    --------
    >>> rows = conditions_recovery_rows()
    >>> len(rows) >= 100
    True
    """
    return _read(RECOVERY_FILE)


# ---------------------------------------------------------------------------------------- SBC


def _type1_point(hits, fas, n, K):
    """d′ and c from Type 1 counts padded as :func:`metabits.hmetad` pads them: 1/(2K) in each
    of the K cells of a response, so 1/2 per response."""
    from scipy.special import ndtri

    hr = (hits + 0.5) / (n + 1.0)
    far = (fas + 0.5) / (n + 1.0)
    return ndtri(hr) - ndtri(far), -(ndtri(hr) + ndtri(far)) / 2


def _truncated_sorted(rng, mean, sd, bound, above, size):
    """Sorted draws of N(mean, sd) truncated to (bound, ∞) (``above``) or (−∞, bound)."""
    from scipy.stats import truncnorm

    a = (bound - mean) / sd
    far = np.full_like(a, np.inf)
    lo, hi = (a, far) if above else (-far, a)
    x = truncnorm.rvs(lo[..., None], hi[..., None], loc=mean[..., None], scale=sd[..., None],
                      size=size, random_state=rng)
    return np.sort(x, axis=-1)


def _sbc_draw(rng, n_people, n_per_stimulus, K, d_range, C=2):
    """One data set from the prior and likelihood of :func:`metabits.hmetad`'s model of C = 1 or
    2 conditions (d′ and c the padded counts'): the tables and the true parameters."""
    from scipy.special import ndtr as phi

    from metabits.sdt import hmetad_rating_probabilities

    d_gen = rng.uniform(*d_range, size=(n_people, C))
    hits = rng.binomial(n_per_stimulus, phi(d_gen / 2))
    fas = rng.binomial(n_per_stimulus, phi(-d_gen / 2))
    d, c = _type1_point(hits, fas, n_per_stimulus, K)
    mu = rng.normal(0.0, 1.0, C)
    epsilon = rng.beta(1.0, 1.0, C)
    sigma_delta = np.abs(rng.normal(0.0, 1.0, C))
    sigma = epsilon * sigma_delta
    z = rng.standard_normal((n_people, C))
    if C == 2:
        rho = rng.uniform(-1.0, 1.0)  # LKJ(1) for two conditions
        chol = np.array([[1.0, 0.0], [rho, np.sqrt(1 - rho ** 2)]])
        z = z @ chol.T
    log_m = mu + sigma * z
    mu_c2 = rng.normal(0.0, 10.0, C)
    sigma_c2 = np.abs(rng.normal(0.0, 10.0, C))
    mean2, sd2 = np.broadcast_to(mu_c2, (n_people, C)), np.broadcast_to(sigma_c2, (n_people, C))
    cS1 = _truncated_sorted(rng, -mean2, sd2, c, False, (n_people, C, K - 1))
    cS2 = _truncated_sorted(rng, mean2, sd2, c, True, (n_people, C, K - 1))
    p = hmetad_rating_probabilities(np.exp(log_m) * d, c, cS1, cS2)  # (n, C, stim, resp, K)
    p = p / p.sum(-1, keepdims=True)
    resp = np.stack([np.stack([n_per_stimulus - fas, fas], -1),
                     np.stack([n_per_stimulus - hits, hits], -1)], -2)  # (n, C, stim, resp)
    ratings = rng.multinomial(resp, p)  # (n, C, 2, 2, K)
    tables = ratings.reshape(n_people, C, 2, 2 * K)
    truth = {"mu_1": mu[0], "sigma_1": sigma[0]}
    if C == 2:
        truth.update(mu_2=mu[1], sigma_2=sigma[1], rho=rho)
    return tables, truth, d, c


def hmetad_sbc(n_sets, *, start=0, seed=0, n_people=8, conditions=2, n_per_stimulus=100, K=3,
               d_range=(1.0, 2.0), chains=2, draws=500, tune=500, thin=10):
    """Simulation-based calibration of :func:`metabits.hmetad`'s group model.

    Replicate i (``i = start, ...``; ``rng = numpy.random.default_rng([seed, i])``) draws each
    person's generating d′ in each condition uniformly from ``d_range`` and their Type 1
    responses (c = 0); d′ and c are then the padded counts' (1/(2K) a cell), as the fit takes
    them. Everything else is drawn from the model's prior: the group log M-ratios μ_k ~ N(0, 1),
    ε_k ~ Beta(1, 1), σ_δk ~ N⁺(0, 1) (the SD σ_k = ε_k·σ_δk), the correlation ρ ~ U(−1, 1)
    (LKJ(1); two conditions), the people's log M-ratios μ + σ ⊙ (L z), the criteria's group means μ_c2k ~ N(0,
    10) and SDs σ_c2k ~ N⁺(0, 10), and each person's K − 1 confidence criteria on a side as
    sorted draws of N(∓μ_c2k, σ_c2k) truncated at c; the ratings are multinomial given the
    stimulus and the Type 1 response with HMeta-d's probabilities
    (:func:`metabits.sdt.hmetad_rating_probabilities`, meta-d′ = M-ratio · d′). The fit
    (:func:`metabits.hmetad`, sampler seed ``seed * 100_000 + i``) keeps every ``thin``-th draw
    of each chain, and the rank of each true value among them is recorded. So the calibration
    covers the Type 2 part of the model given d′ and c.

    Parameters
    ----------
    n_sets : int
        Number of replicates.
    start : int, default 0
        Index of the first replicate.
    seed : int, default 0
        The study's seed (0 to 19,999).
    n_people : int, default 8
        People per replicate (>= 2).
    conditions : int, default 2
        1 (Fleming's group model) or 2 (conditions within people, with their correlation).
    n_per_stimulus : int, default 100
        Trials per stimulus, person and condition.
    K : int, default 3
        Confidence levels.
    d_range : pair of float, default (1.0, 2.0)
        Range of the generating d′.
    chains, draws, tune : int, default 2, 500, 500
        Sampler settings of each fit.
    thin : int, default 10
        Keep every ``thin``-th draw of each chain (so that the kept draws are nearly
        independent); the ranks run from 0 to L = chains · ceil(draws / thin).

    Returns
    -------
    pandas.DataFrame
        One row per replicate: ``seed``, ``set``, the design, ``L``, the largest difference
        between the fit's d′ and c and those the simulation computed (``d_max_error``,
        ``c_max_error``: 0 up to rounding), for each of :data:`SBC_QUANTITIES` (those of
        condition 1 only, with one condition) its true value (``_true``) and its rank (``_rank``, the number
        of kept draws below the truth), and the diagnostics ``r_hat``, ``ess_bulk``,
        ``ess_tail`` and ``divergences``.

    Raises
    ------
    ValueError
        For bad counts, seeds or ranges (the argument is named).

    References
    ----------
    Talts, Betancourt, Simpson, Vehtari & Gelman (2018), Validating Bayesian inference
    algorithms with simulation-based calibration, arXiv:1804.06788.

    Examples
    --------
    A replicate fits in seconds (the tests redraw a shipped one from its seed):

    >>> rows = hmetad_sbc(1, n_people=4, draws=200, tune=200, thin=4)  # doctest: +SKIP
    >>> int(rows.L[0]), bool(0 <= rows.mu_1_rank[0] <= rows.L[0])  # doctest: +SKIP
    (100, True)
    """
    import pandas as pd

    n_sets, start, seed, n_people, n_per_stimulus, K, d_range = _check_common(
        n_sets, start, seed, n_people, n_per_stimulus, K, d_range)
    thin = as_int(thin, "thin", least=1)
    C = as_int(conditions, "conditions", least=1, most=2)
    rows = []
    for i in range(start, start + n_sets):
        rng = _rng(seed, i)
        tables, truth, d, c = _sbc_draw(rng, n_people, n_per_stimulus, K, d_range, C)
        fit = _fit(tables, chains, draws, tune, seed * 100_000 + i)
        post = fit.trace.posterior
        mu = post["mu_log_m_ratio"].values[:, ::thin]
        sig = post["sigma_log_m_ratio"].values[:, ::thin]
        kept = {"mu_1": mu[..., 0], "sigma_1": sig[..., 0]}
        if C == 2:
            kept.update(mu_2=mu[..., 1], sigma_2=sig[..., 1],
                        rho=post["corr_log_m_ratio"].values[:, ::thin, 0, 1])
        row = dict(seed=seed, set=i, n_people=n_people, conditions=C,
                   n_per_stimulus=n_per_stimulus, K=K, chains=chains, draws=draws, tune=tune,
                   thin=thin, L=int(mu[..., 0].size),
                   d_max_error=float(np.max(np.abs(fit.d - d))),
                   c_max_error=float(np.max(np.abs(fit.c - c))))
        for name in kept:
            row[f"{name}_true"] = float(truth[name])
            row[f"{name}_rank"] = int(np.sum(kept[name] < truth[name]))
        row.update(_diagnostics(fit))
        rows.append(row)
    return pd.DataFrame(rows)


def sbc_uniformity(ranks, L, bins=10):
    """Chi-square test that SBC ranks are uniform on 0, ..., L.

    The L + 1 possible ranks are grouped into ``bins`` bins of (nearly) equal numbers of ranks,
    each bin's expected count proportional to its number of ranks.

    Parameters
    ----------
    ranks : array_like of int
        Ranks in 0..L.
    L : int
        The number of kept posterior draws.
    bins : int, default 10
        Bins (2 to L + 1).

    Returns
    -------
    tuple of (float, float, ndarray)
        The chi-square statistic, its p-value (``bins`` − 1 degrees of freedom) and the counts
        per bin.

    Raises
    ------
    ValueError
        For ranks outside 0..L, or bad L or bins.

    Examples
    --------
    >>> stat, p, counts = sbc_uniformity(np.arange(100), 99)
    >>> float(stat), counts.tolist()
    (0.0, [10, 10, 10, 10, 10, 10, 10, 10, 10, 10])
    """
    from scipy.stats import chi2

    L = as_int(L, "L", least=1)
    bins = as_int(bins, "bins", least=2, most=L + 1)
    r = np.asarray(ranks)
    if r.ndim != 1 or r.size == 0 or not np.issubdtype(r.dtype, np.number) \
            or np.any(r != np.round(r)) or r.min() < 0 or r.max() > L:
        raise ValueError(f"ranks must be integers in 0..L = 0..{L}; got {ranks!r}")
    which = (r.astype(int) * bins) // (L + 1)
    counts = np.bincount(which, minlength=bins)
    sizes = np.bincount((np.arange(L + 1) * bins) // (L + 1), minlength=bins)
    expected = r.size * sizes / (L + 1)
    stat = float(np.sum((counts - expected) ** 2 / expected))
    return stat, float(chi2.sf(stat, bins - 1)), counts


def hmetad_sbc_rows():
    """The shipped calibration ranks of :func:`metabits.hmetad`: one row per replicate.

    Written by ``scripts/hmetad_sbc.py`` (:func:`hmetad_sbc`).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`hmetad_sbc`.

    Examples
    --------
    >>> rows = hmetad_sbc_rows()
    >>> len(rows) >= 100
    True
    """
    return _read(SBC_FILE)


# ------------------------------------------------------------------- MaskOri across two SOAs

#: the two SOAs (ms) of the MaskOri people analysed as conditions within people: the shortest
#: two leave the people near chance (d′ near 0, where an M-ratio divides by almost nothing) and
#: the longest near ceiling (many error-free tables)
MASKORI_CONDITION_SOAS = (33.3, 66.7)
#: the shipped fit of :func:`maskori_conditions`: its summary, its people and thinned draws
MASKORI_SUMMARY_FILE = "maskori_hmetad_summary.csv"
MASKORI_SUBJECTS_FILE = "maskori_hmetad_subjects.csv"
MASKORI_DRAWS_FILE = "maskori_hmetad_draws.csv"
#: the posterior's variables kept in the thinned draws
_KEPT = ("group_m_ratio", "mu_log_m_ratio", "sigma_log_m_ratio", "corr_log_m_ratio", "m_ratio")


def maskori_conditions(*, soas=MASKORI_CONDITION_SOAS, seed=2039, chains=4, draws=2000,
                       tune=1000, target_accept=0.95):
    """The MaskOri people as a within-person design across two SOAs: :func:`metabits.hmetad`.

    Parameters
    ----------
    soas : pair of float, default (33.3, 66.7)
        The SOAs (ms) taken as the conditions, from ``datasets.MASKORI_SOAS``.
    seed : int, default 2039
        The sampler's seed.
    chains, draws, tune, target_accept
        Sampler settings, as :func:`metabits.hmetad`.

    Returns
    -------
    metabits.sdt.HMetaDFit
        The fit of the 16 people's trials (``condition="soa_ms"``, confidence ``rating``, K = 5).

    Raises
    ------
    ValueError
        For SOAs not in the data, or bad sampler settings.

    Examples
    --------
    The fit takes some seconds (the tests compare a fresh one with the shipped draws):

    >>> fit = maskori_conditions(chains=2, draws=200, tune=200)  # doctest: +SKIP
    >>> fit.conditions, len(fit.participants)  # doctest: +SKIP
    ((33.3, 66.7), 16)
    """
    import warnings

    import metabits as mb
    from metabits_book.studies import datasets

    try:
        soas = tuple(float(s) for s in soas)
    except (TypeError, ValueError):
        raise ValueError(f"soas must be SOAs in ms; got {soas!r}") from None
    bad = [s for s in soas if s not in datasets.MASKORI_SOAS]
    if bad or len(set(soas)) < 2:
        raise ValueError(f"soas must be two or more of {datasets.MASKORI_SOAS}; got {soas!r}")
    trials = datasets.maskori_trials()
    trials = trials[trials.soa_ms.isin(soas)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the diagnostics are shipped
        return mb.hmetad(trials, subject="participant", stimulus="stimulus",
                         response="response", confidence="rating", condition="soa_ms",
                         chains=chains, draws=draws, tune=tune, target_accept=target_accept,
                         seed=seed)


def maskori_draws_frame(fit, thin=4):
    """Every ``thin``-th draw of each chain of a fit's group quantities and people's M-ratios.

    Parameters
    ----------
    fit : metabits.sdt.HMetaDFit
        A fit of two or more conditions.
    thin : int, default 4
        Keep every ``thin``-th draw of each chain.

    Returns
    -------
    pandas.DataFrame
        One row per kept draw: ``chain``, ``draw``, and a column per number, named
        ``variable[condition]`` (``corr_log_m_ratio[a,b]`` for the correlation,
        ``m_ratio[participant,condition]`` for a person's M-ratio); the layout that
        :func:`maskori_conditions_posterior` reads.
    """
    import pandas as pd

    thin = as_int(thin, "thin", least=1)
    post = fit.trace.posterior.isel(draw=slice(None, None, thin))
    chains, draws = post.sizes["chain"], post.sizes["draw"]
    cols = {"chain": np.repeat(np.arange(chains), draws), "draw": np.tile(
        post["draw"].values, chains)}
    conds = [str(c) for c in fit.conditions]
    for name in _KEPT:
        v = post[name].values.reshape((chains * draws,) + post[name].shape[2:])
        if name == "corr_log_m_ratio":
            for i in range(len(conds)):
                for j in range(i + 1, len(conds)):
                    cols[f"{name}[{conds[i]},{conds[j]}]"] = v[:, i, j]
        elif name == "m_ratio":
            for s, person in enumerate(fit.participants):
                for k, c in enumerate(conds):
                    cols[f"{name}[{person},{c}]"] = v[:, s, k]
        else:
            for k, c in enumerate(conds):
                cols[f"{name}[{c}]"] = v[:, k]
    return pd.DataFrame(cols)


def maskori_conditions_posterior():
    """The shipped thinned posterior of :func:`maskori_conditions` as ArviZ's InferenceData.

    Returns
    -------
    arviz.InferenceData
        ``posterior`` with ``group_m_ratio``, ``mu_log_m_ratio``, ``sigma_log_m_ratio``
        (dimension ``soa``), ``corr_log_m_ratio`` (one correlation) and ``m_ratio``
        (``participant`` × ``soa``), every 8th draw of 4 chains of 2,000.

    Examples
    --------
    >>> post = maskori_conditions_posterior().posterior
    >>> dict(post["m_ratio"].sizes)
    {'chain': 4, 'draw': 250, 'participant': 16, 'soa': 2}
    """
    import warnings

    import arviz as az

    frame = _read(MASKORI_DRAWS_FILE)
    chains = int(frame["chain"].max()) + 1
    draws = len(frame) // chains

    def block(prefix):
        cols = [c for c in frame.columns if c.startswith(prefix + "[")]
        keys = [tuple(c[len(prefix) + 1:-1].split(",")) for c in cols]
        return cols, keys

    soas = [k[0] for k in block("group_m_ratio")[1]]
    values, dims = {}, {}
    for name in ("group_m_ratio", "mu_log_m_ratio", "sigma_log_m_ratio"):
        cols, _ = block(name)
        values[name] = frame[cols].to_numpy().reshape(chains, draws, len(cols))
        dims[name] = ["soa"]
    cols, _ = block("corr_log_m_ratio")
    values["corr_log_m_ratio"] = frame[cols[0]].to_numpy().reshape(chains, draws)
    cols, keys = block("m_ratio")
    people = list(dict.fromkeys(int(k[0]) for k in keys))
    values["m_ratio"] = frame[cols].to_numpy().reshape(chains, draws, len(people), len(soas))
    dims["m_ratio"] = ["participant", "soa"]
    coords = {"soa": [f"{float(s):g} ms" for s in soas], "participant": people,
              "draw": frame["draw"].to_numpy()[:draws]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return az.from_dict(posterior=values, coords=coords, dims=dims)


def maskori_conditions_summary():
    """The shipped :meth:`~metabits.sdt.HMetaDFit.summary` of :func:`maskori_conditions`.

    Returns
    -------
    pandas.DataFrame
        Its rows and columns (the condition labels are the SOAs in ms).

    Examples
    --------
    >>> maskori_conditions_summary().quantity.tolist()
    ['m_ratio', 'm_ratio', 'difference', 'correlation']
    """
    return _read(MASKORI_SUMMARY_FILE)


def maskori_conditions_subjects():
    """The shipped :meth:`~metabits.sdt.HMetaDFit.subjects` of :func:`maskori_conditions`.

    Returns
    -------
    pandas.DataFrame
        One row per person and SOA.

    Examples
    --------
    >>> maskori_conditions_subjects().shape[0]
    32
    """
    return _read(MASKORI_SUBJECTS_FILE)
