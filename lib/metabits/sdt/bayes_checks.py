"""Checks of the Bayesian meta-d′ fits (:mod:`metabits.sdt.bayes_metad`): predictive checks and
parameter recovery.

* :func:`prior_predictive` and :func:`posterior_predictive` draw count tables from Fleming's
  HMeta-d model (parameters from its priors, or from a fit's posterior draws) and set them beside
  the observed table: per-cell predictive intervals, whether each observed count lies inside, and
  a posterior (or prior) predictive p-value of a chi-square distance from the model's average
  table (Box, 1980; Gelman, Meng & Stern, 1996).
* :func:`bayes_recovery` simulates tables at a known d′ and meta-d′, fits each with
  :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes` and with maximum likelihood
  (:func:`metabits.fit_meta_d`), and reports the coverage of the central posterior intervals
  (with its binomial Monte Carlo SE), the bias of the posterior means and the ML estimates.
  :func:`bayes_recovery_rows` reads the shipped study (``scripts/bayes_recovery.py`` writes it);
  :func:`recovery_summary` summarises per-fit rows by condition.

The predictive draws are NumPy: this module imports no PyMC (``import metabits`` loads it; a fit
passed to the checks has loaded PyMC already); :func:`bayes_recovery` loads
:mod:`~metabits.sdt.bayes_metad` for its fits.

**Which table is predicted.** The model's likelihood is HMeta-d's: the confidence ratings are
multinomial given the stimulus and the Type 1 response. With ``estimate_dprime=False`` (the
toolbox's default) the numbers of "S1" and "S2" responses to each stimulus are not modelled, so
a predicted table keeps the observed ones and redraws the ratings within them; with
``estimate_dprime=True`` the hits and false alarms are binomial too and are redrawn first (the
numbers of S1 and S2 trials stay the observed ones).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from .._formulas import sdt_rates
from .._results import Result
from .._validate import as_int, as_probability, as_rng, as_scalar

__all__ = ["BayesRecovery", "PredictiveCheck", "bayes_recovery", "bayes_recovery_rows",
           "posterior_predictive", "prior_predictive", "recovery_summary"]

#: docstrings whose Examples sample with NUTS (seconds; the first compiles the model): marked
#: slow by the test configuration, so the quick loop leaves them out
_SLOW_DOCTESTS = ("prior_predictive", "posterior_predictive", "bayes_recovery")

#: HMeta-d's ``Tol`` (as :data:`metabits.sdt._hmetad_model.TOL`, not imported: that module's
#: siblings load PyMC)
TOL = 1e-5


@dataclass(frozen=True)
class PredictiveCheck(Result):
    """Result of :func:`prior_predictive` and :func:`posterior_predictive`; also a mapping.

    Shapes: ``T`` is the observed table's shape, ``(2, 2K)`` for one subject or ``(n, 2, 2K)``
    for a group; ``S`` the number of predictive draws.

    Attributes
    ----------
    kind : str
        ``"prior"`` or ``"posterior"``.
    observed : ndarray, shape T
        The fitted counts (rows ``nR_S1``, ``nR_S2``).
    tables : ndarray of int, shape (S, *T)
        Predicted count tables, one per parameter draw.
    mean : ndarray, shape T
        Mean predicted count of each cell.
    lower, upper : ndarray, shape T
        Central ``level`` predictive interval of each cell's count (quantiles of ``tables``).
    inside : ndarray of bool, shape T
        Whether each observed count lies in its interval.
    fraction_inside : float
        Share of the cells whose observed count lies in its interval (near ``level`` or above
        for a model that fits; the cells are not independent).
    level : float
        The intervals' probability.
    chi2_observed : float
        Pearson's distance Σ (count − mean)² / mean of the observed table(s) from ``mean``, the
        model's average table (over all cells; cells with a mean of 0 left out).
    chi2_predicted : ndarray, shape (S,)
        The same distance of each predicted table.
    p_value : float
        Share of predicted tables at least as far from the average as the observed one
        (``chi2_predicted >= chi2_observed``): near 0 when the observed table is atypical of
        the model's tables (a misfit, or priors that exclude the data); not uniform under a
        true model (posterior predictive p-values are conservative), so read small values
        only.
    p_values : ndarray, shape T[:-2]
        The same per table (per subject of a group; a 0-d array for one subject).
    draws : int
        S.
    """

    kind: str
    observed: np.ndarray
    tables: np.ndarray
    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    inside: np.ndarray
    fraction_inside: float
    level: float
    chi2_observed: np.ndarray
    chi2_predicted: np.ndarray
    p_value: float
    p_values: np.ndarray
    draws: int


# ------------------------------------------------------------------------ the model in NumPy


def _hmetad_rating_probabilities(meta_d, c1, t2c_S1, t2c_S2) -> np.ndarray:
    """HMeta-d's rating probabilities given the stimulus and the Type 1 response.

    NumPy twin of the PyMC model's likelihood (meta-c = c, each probability floored at 10⁻⁵
    and renormalised, as the JAGS code).

    Parameters
    ----------
    meta_d, c1 : array_like, shape P
        meta-d′ and the Type 1 criterion c.
    t2c_S1, t2c_S2 : array_like, shape (*P, K - 1)
        Increasing confidence criteria below and above c.

    Returns
    -------
    ndarray, shape (*P, 2, 2, K)
        Axes: stimulus (S1, S2), Type 1 response ("S1", "S2"), rating in the table's column
        order (for "S1" from most to least confident, for "S2" from least to most); each last
        axis sums to 1.

    Examples
    --------
    >>> p = _hmetad_rating_probabilities(1.0, 0.0, [-1.0], [1.0])
    >>> p.round(4)
    array([[[0.4463, 0.5537],
            [0.7835, 0.2165]],
    <BLANKLINE>
           [[0.2165, 0.7835],
            [0.5537, 0.4463]]])
    """
    meta_d = np.asarray(meta_d, dtype=float)
    c1 = np.asarray(c1, dtype=float)
    cS1, cS2 = np.asarray(t2c_S1, dtype=float), np.asarray(t2c_S2, dtype=float)
    shape = np.broadcast_shapes(meta_d.shape, c1.shape, cS1.shape[:-1], cS2.shape[:-1])
    K = cS1.shape[-1] + 1
    edges = np.concatenate([np.broadcast_to(cS1, shape + (K - 1,)),
                            np.broadcast_to(c1, shape)[..., None],
                            np.broadcast_to(cS2, shape + (K - 1,))], axis=-1)
    mu = np.stack(np.broadcast_arrays(-meta_d / 2, meta_d / 2), axis=-1)  # (*P, 2)
    z = edges[..., None, :] - mu[..., None]  # (*P, 2, 2K - 1)
    zeros, ones = np.zeros(z.shape[:-1] + (1,)), np.ones(z.shape[:-1] + (1,))
    below = np.concatenate([zeros, ndtr(z), ones], axis=-1)
    above = np.concatenate([ones, ndtr(-z), zeros], axis=-1)
    lower = np.concatenate([zeros - 1.0, z], axis=-1)  # each bin's lower edge (sign only)
    cell = np.where(lower > 0, above[..., :-1] - above[..., 1:], below[..., 1:] - below[..., :-1])
    cell = cell.reshape(shape + (2, 2, K))
    with np.errstate(invalid="ignore", divide="ignore"):
        pr = cell / cell.sum(axis=-1, keepdims=True)
    pr = np.maximum(np.nan_to_num(pr, nan=0.0), TOL)
    return pr / pr.sum(axis=-1, keepdims=True)


def _fit_kind(fit):
    """The fit's class name ("single" or "group"), checked."""
    from dataclasses import is_dataclass

    name = type(fit).__name__
    if not is_dataclass(fit) or name not in ("BayesMetaDFit", "BayesMetaDGroupFit"):
        raise ValueError("fit must be a result of fit_meta_d_bayes or fit_meta_d_bayes_group; "
                         f"got {type(fit).__name__}")
    return "single" if name == "BayesMetaDFit" else "group"


def _as_stack(fit):
    """The observed tables as a stack (n, 2, 2K), and whether the fit had one subject."""
    kind = _fit_kind(fit)
    counts = np.asarray(fit.counts, dtype=float)
    return (counts[None] if kind == "single" else counts), kind == "single"


def _truncnorm(rng, mean, sd, bound, below, size):
    """Draws of N(mean, sd) truncated below (``below``) or above ``bound``, sorted on the last
    axis (``size`` ends with K − 1)."""
    from scipy.stats import truncnorm  # scipy.stats takes a second to import: on first use

    mean, sd, bound = (np.asarray(x, dtype=float)[..., None] for x in (mean, sd, bound))
    z = (bound - mean) / sd
    a, b = (-np.inf, z) if below else (z, np.inf)
    x = truncnorm.rvs(a, b, loc=mean, scale=sd, size=size, random_state=rng)
    return np.sort(x, axis=-1)


def _prior_draws(fit, S, rng):
    """Parameters drawn from the fit's model's priors: dict of (S, n) arrays, criteria (S, n, K-1)."""
    counts, single = _as_stack(fit)
    n, K = counts.shape[0], counts.shape[-1] // 2
    est = fit.estimate_dprime
    if single:
        if est:
            c1 = rng.normal(0.0, 1 / np.sqrt(2), (S, 1))
            d1 = rng.normal(0.0, np.sqrt(2), (S, 1))
        else:
            d1 = np.full((S, 1), float(fit.d))
            c1 = np.full((S, 1), float(fit.c))
        meta_d = rng.normal(d1, np.sqrt(2))
        sd = 1 / np.sqrt(2)
        cS1 = _truncnorm(rng, 0.0, sd, c1 - TOL, True, (S, 1, K - 1))
        cS2 = _truncnorm(rng, 0.0, sd, c1 + TOL, False, (S, 1, K - 1))
    else:
        if est:
            mu_d, sigma_d = rng.normal(0, 10, (S, 1)), np.abs(rng.normal(0, 10, (S, 1)))
            mu_c, sigma_c = rng.normal(0, 10, (S, 1)), np.abs(rng.normal(0, 10, (S, 1)))
            d1 = mu_d + sigma_d * rng.normal(size=(S, n))
            c1 = mu_c + sigma_c * rng.normal(size=(S, n))
        else:
            d1 = np.broadcast_to(np.asarray(fit.d, float), (S, n))
            c1 = np.broadcast_to(np.asarray(fit.c, float), (S, n))
        mu = rng.normal(0.0, 1.0, (S, 1))
        sigma_delta = np.abs(rng.normal(0.0, 1.0, (S, 1)))
        epsilon = rng.uniform(0.0, 1.0, (S, 1))
        log_m = mu + epsilon * sigma_delta * rng.normal(size=(S, n))
        meta_d = np.exp(log_m) * d1
        mu_c2, sigma_c2 = rng.normal(0, 10, (S, 1)), np.abs(rng.normal(0, 10, (S, 1)))
        mu_c2, sigma_c2 = np.broadcast_to(mu_c2, (S, n)), np.broadcast_to(sigma_c2, (S, n))
        cS1 = _truncnorm(rng, -mu_c2, sigma_c2, c1, True, (S, n, K - 1))
        cS2 = _truncnorm(rng, mu_c2, sigma_c2, c1, False, (S, n, K - 1))
    return dict(d=np.asarray(d1, float), c=np.asarray(c1, float), meta_d=meta_d, t2c_S1=cS1,
                t2c_S2=cS2)


def _posterior_draws(fit, S, rng):
    """The fit's posterior draws (a random subset of ``S`` of them, or all): (S, n) arrays."""
    counts, single = _as_stack(fit)
    n = counts.shape[0]
    total = fit.chains * fit.draws
    idx = np.arange(total) if S is None else rng.choice(total, size=S, replace=S > total)
    post = fit.trace.posterior

    def draws(name):
        v = post[name].values
        return v.reshape((total,) + v.shape[2:])[idx]

    meta_d = draws("meta_d").reshape(len(idx), n)
    cS1, cS2 = (draws(x).reshape(len(idx), n, -1) for x in ("t2c_S1", "t2c_S2"))
    if fit.estimate_dprime:
        d1, c1 = (draws(x).reshape(len(idx), n) for x in ("d", "c"))
    else:
        d1 = np.broadcast_to(np.asarray(fit.d, float).reshape(-1), (len(idx), n))
        c1 = np.broadcast_to(np.asarray(fit.c, float).reshape(-1), (len(idx), n))
    return dict(d=d1, c=c1, meta_d=meta_d, t2c_S1=cS1, t2c_S2=cS2)


def _predict(fit, params, rng, level, kind):
    """Predicted tables from parameter draws, and their summary against the observed table."""
    counts, single = _as_stack(fit)
    n, K = counts.shape[0], counts.shape[-1] // 2
    S = params["meta_d"].shape[0]
    probs = _hmetad_rating_probabilities(params["meta_d"], params["c"], params["t2c_S1"],
                                        params["t2c_S2"])  # (S, n, 2, 2, K)
    blocks = counts.reshape(n, 2, 2, K)
    observed_totals = blocks.sum(-1)  # (n, 2 stimuli, 2 responses)
    if fit.estimate_dprime:
        trials = observed_totals.sum(-1)  # (n, 2): S1 and S2 trials
        d1, c1 = params["d"], params["c"]
        hit_rate, fa_rate = sdt_rates(d1, c1)
        p_s2 = np.stack([fa_rate, hit_rate], axis=-1)  # P("S2" | S1), P("S2" | S2): (S, n, 2)
        s2 = rng.binomial(np.broadcast_to(trials, p_s2.shape).astype(np.int64), p_s2)
        totals = np.stack([trials - s2, s2], axis=-1)  # (S, n, 2, 2)
    else:
        totals = np.broadcast_to(observed_totals, (S, n, 2, 2))
    totals = np.rint(totals).astype(np.int64)
    tables = rng.multinomial(totals, probs).reshape(S, n, 2, 2 * K)
    expected = tables.mean(axis=0)  # the model's average table (n, 2, 2K)

    def chi2(x):  # Pearson's distance of tables from the average table, per table (..., n)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(expected > 0, (x - expected) ** 2 / expected, 0.0)
        return terms.sum(axis=(-2, -1))

    chi_obs, chi_rep = chi2(counts), chi2(tables)  # (n,), (S, n)
    if single:
        tables, observed = tables[:, 0], counts[0]
    else:
        observed = counts
    alpha = (1 - level) / 2
    lower = np.quantile(tables, alpha, axis=0, method="lower")
    upper = np.quantile(tables, 1 - alpha, axis=0, method="higher")
    inside = (observed >= lower) & (observed <= upper)
    per_table = np.mean(chi_rep >= chi_obs, axis=0)
    return PredictiveCheck(
        kind=kind, observed=observed, tables=tables, mean=tables.mean(axis=0), lower=lower,
        upper=upper, inside=inside, fraction_inside=float(inside.mean()), level=level,
        chi2_observed=float(chi_obs.sum()), chi2_predicted=chi_rep.sum(-1),
        p_value=float(np.mean(chi_rep.sum(-1) >= chi_obs.sum(-1))),
        p_values=per_table[0] if single else per_table, draws=int(S))


def _check_args(fit, level, rng):
    _fit_kind(fit)
    level = as_probability(level, "level", 0.0, 1.0, low_open=True, high_open=True)
    return float(level), as_rng(rng)


def prior_predictive(fit, *, draws=1000, level=0.95, rng=None) -> PredictiveCheck:
    """Prior predictive check of an HMeta-d fit: tables drawn from the model's priors.

    Parameters are drawn from Fleming's priors of the fitted model (one subject or a group,
    ``estimate_dprime`` as fitted; with ``estimate_dprime=False`` the fit's fixed d′ and c),
    and a table is drawn from each with the observed numbers of trials (see the module's note on
    which margins are kept). Shows what the priors expect before seeing the ratings.

    Parameters
    ----------
    fit : BayesMetaDFit or BayesMetaDGroupFit
        A result of :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes` or
        :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes_group` (its counts and settings are
        used; its posterior is not).
    draws : int, default 1000
        Prior draws (one predicted table each).
    level : float, default 0.95
        Probability of the per-cell predictive intervals.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.

    Returns
    -------
    PredictiveCheck
        ``kind = "prior"``; the predicted ``tables``, per-cell ``lower``/``upper``, ``inside``,
        ``fraction_inside`` and the chi-square ``p_value``.

    Raises
    ------
    ValueError
        For a ``fit`` that is not an HMeta-d fit, ``draws`` < 1, or ``level`` outside (0, 1).

    Examples
    --------
    >>> import metabits as mb
    >>> fit = mb.fit_meta_d_bayes([84, 56, 48, 12], [4, 56, 64, 76], chains=2, draws=100,
    ...                           tune=100, seed=1)
    >>> check = prior_predictive(fit, draws=2000, rng=0)
    >>> check.tables.shape, check.kind
    ((2000, 2, 4), 'prior')
    >>> np.unique(check.tables[:, 0, :2].sum(axis=-1))  # "S1" responses to S1 kept: 84 + 56
    array([140])
    >>> print(check.lower[0], check.upper[0])  # the priors allow almost any split of the ratings
    [19  1  1  2] [139 121  58  59]
    >>> check.fraction_inside, bool(check.p_value > 0.1)
    (1.0, True)
    """
    level, rng = _check_args(fit, level, rng)
    draws = as_int(draws, "draws", least=1)
    return _predict(fit, _prior_draws(fit, draws, rng), rng, level, "prior")


def posterior_predictive(fit, *, draws=None, level=0.95, rng=None) -> PredictiveCheck:
    """Posterior predictive check of an HMeta-d fit: tables drawn at the posterior draws.

    For each posterior draw of meta-d′ and the criteria (and d′, c when estimated) a table is
    drawn with the observed numbers of trials; observed counts outside their cells' intervals,
    or a small chi-square ``p_value``, point to a misfit of the model (e.g. unequal variances,
    or confidence that does not follow one meta-d′).

    Parameters
    ----------
    fit : BayesMetaDFit or BayesMetaDGroupFit
        A result of :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes` or
        :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes_group`.
    draws : int, optional
        Number of posterior draws used, picked at random (with replacement if more than the fit
        has); default: all ``chains × draws`` of the fit.
    level : float, default 0.95
        Probability of the per-cell predictive intervals.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.

    Returns
    -------
    PredictiveCheck
        ``kind = "posterior"``; as :func:`prior_predictive`.

    Raises
    ------
    ValueError
        As :func:`prior_predictive`.

    References
    ----------
    Gelman, Meng & Stern (1996), Posterior predictive assessment of model fitness via realized
    discrepancies, Statistica Sinica 6, 733-807.

    Examples
    --------
    Table 1 fits: every observed count lies inside its 95% interval, and the p-value is not small.

    >>> import metabits as mb
    >>> fit = mb.fit_meta_d_bayes([84, 56, 48, 12], [4, 56, 64, 76], chains=2, draws=500,
    ...                           tune=500, seed=1)
    >>> check = posterior_predictive(fit, rng=0)
    >>> check.draws, check.fraction_inside, bool(check.p_value > 0.1)
    (1000, 1.0, True)
    """
    level, rng = _check_args(fit, level, rng)
    if draws is not None:
        draws = as_int(draws, "draws", least=1)
    return _predict(fit, _posterior_draws(fit, draws, rng), rng, level, "posterior")


# ------------------------------------------------------------------------ parameter recovery


@dataclass(frozen=True)
class BayesRecovery(Result):
    """Result of :func:`bayes_recovery`; also a mapping. ``rows()`` gives one row per fit.

    Per-fit arrays have shape (m,), m the number of simulated tables.

    Attributes
    ----------
    d, meta_d, m_ratio, c : float
        The generating d′, meta-d′, M-ratio meta-d′/d′ and c.
    n_per_stimulus, K : int
        Trials per stimulus and confidence levels of each table.
    estimate_dprime : bool
        How d′ was treated in the fits (see :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes`).
    level : float
        Probability of the central posterior intervals.
    seed : int
        The study's seed: table i is simulated with ``numpy.random.default_rng([seed, i])`` and
        fitted with sampler seed ``seed * 100_000 + i``.
    sets : ndarray of int
        The indices i of the tables.
    meta_d_mean, meta_d_lower, meta_d_upper : ndarray
        Posterior mean and central interval of meta-d′ of each table.
    m_ratio_mean, m_ratio_lower, m_ratio_upper : ndarray
        The same for the M-ratio.
    d_hat : ndarray
        The d′ of each fit: from the padded counts, or its posterior mean when estimated.
    ml_meta_d, ml_m_ratio : ndarray
        Maximum-likelihood meta-d′ and M-ratio (:func:`metabits.fit_meta_d`, counts padded by
        1/(2K) as the Bayesian fit's d′).
    r_hat, ess_bulk : ndarray
        Each fit's largest R-hat and smallest bulk ESS.
    divergences : ndarray of int
        Each fit's divergent transitions.
    coverage_meta_d, coverage_m_ratio : float
        Share of the tables whose interval contains the true value.
    coverage_meta_d_se, coverage_m_ratio_se : float
        Their binomial Monte Carlo SEs, √(p(1 − p)/m) at the observed share p.
    bias_meta_d, bias_m_ratio, ml_bias_meta_d, ml_bias_m_ratio : float
        Mean estimate minus the truth: posterior means, and ML estimates.
    bias_meta_d_se, bias_m_ratio_se, ml_bias_meta_d_se, ml_bias_m_ratio_se : float
        Their Monte Carlo SEs (SD of the estimates / √m).
    """

    d: float
    meta_d: float
    m_ratio: float
    c: float
    n_per_stimulus: int
    K: int
    estimate_dprime: bool
    level: float
    seed: int
    sets: np.ndarray
    meta_d_mean: np.ndarray
    meta_d_lower: np.ndarray
    meta_d_upper: np.ndarray
    m_ratio_mean: np.ndarray
    m_ratio_lower: np.ndarray
    m_ratio_upper: np.ndarray
    d_hat: np.ndarray
    ml_meta_d: np.ndarray
    ml_m_ratio: np.ndarray
    r_hat: np.ndarray
    ess_bulk: np.ndarray
    divergences: np.ndarray
    coverage_meta_d: float
    coverage_meta_d_se: float
    coverage_m_ratio: float
    coverage_m_ratio_se: float
    bias_meta_d: float
    bias_meta_d_se: float
    bias_m_ratio: float
    bias_m_ratio_se: float
    ml_bias_meta_d: float
    ml_bias_meta_d_se: float
    ml_bias_m_ratio: float
    ml_bias_m_ratio_se: float

    def rows(self):
        """One row per fit (pandas DataFrame): the condition, the fit and the ML estimates, in the
        columns of the shipped study (:func:`bayes_recovery_rows`)."""
        import pandas as pd

        m = len(self.sets)
        cond = {k: [getattr(self, k)] * m for k in ("d", "meta_d", "m_ratio", "c",
                                                    "n_per_stimulus", "K", "estimate_dprime",
                                                    "level", "seed")}
        cond["set"] = self.sets
        per_fit = {k: getattr(self, k) for k in _PER_FIT}
        return pd.DataFrame({**cond, **per_fit})


_PER_FIT = ("meta_d_mean", "meta_d_lower", "meta_d_upper", "m_ratio_mean", "m_ratio_lower",
            "m_ratio_upper", "d_hat", "ml_meta_d", "ml_m_ratio", "r_hat", "ess_bulk",
            "divergences")


def _coverage(covered):
    p = float(np.mean(covered))
    return p, float(np.sqrt(p * (1 - p) / len(covered)))


def _bias(est, truth):
    est = np.asarray(est, float)
    se = float(est.std(ddof=1) / np.sqrt(est.size)) if est.size > 1 else float("nan")
    return float(est.mean() - truth), se


def _summaries(truth_meta_d, truth_m_ratio, level, per_fit):
    """Coverage and bias from per-fit arrays."""
    out = {}
    for name, truth in (("meta_d", truth_meta_d), ("m_ratio", truth_m_ratio)):
        covered = (per_fit[f"{name}_lower"] <= truth) & (truth <= per_fit[f"{name}_upper"])
        out[f"coverage_{name}"], out[f"coverage_{name}_se"] = _coverage(covered)
        out[f"bias_{name}"], out[f"bias_{name}_se"] = _bias(per_fit[f"{name}_mean"], truth)
        out[f"ml_bias_{name}"], out[f"ml_bias_{name}_se"] = _bias(per_fit[f"ml_{name}"], truth)
    return out


def bayes_recovery(d, meta_d, n_per_stimulus, n_sets, *, K=2, c=0.0, estimate_dprime=False,
                   level=0.95, start=0, seed=0, chains=4, draws=1000, tune=1000,
                   cores=None) -> BayesRecovery:
    """Parameter recovery of the Bayesian meta-d′: simulate tables at a known d′ and meta-d′,
    fit each, and report interval coverage, bias and the ML fit beside it.

    Table i (``i = start, ..., start + n_sets - 1``) is simulated by
    :func:`metabits.simulate_ratings` (equiprobable criteria) with
    ``rng=numpy.random.default_rng([seed, i])`` and fitted by
    :func:`~metabits.sdt.bayes_metad.fit_meta_d_bayes` with sampler seed
    ``seed * 100_000 + i``, so any subset of a study is reproduced by itself (``start``).

    Parameters
    ----------
    d, meta_d : float
        Generating d′ (> 0) and meta-d′ (>= 0).
    n_per_stimulus : int
        Trials per stimulus of each table.
    n_sets : int
        Number of tables (>= 1).
    K : int, default 2
        Confidence levels.
    c : float, default 0
        Generating Type 1 criterion. The simulation's model has meta-c = c·meta-d′/d′
        (Maniscalco & Lau), HMeta-d's has meta-c = c: they agree at c = 0 only.
    estimate_dprime : bool, default False
        Passed to the fits.
    level : float, default 0.95
        Probability of the central posterior intervals.
    start : int, default 0
        Index of the first table.
    seed : int, default 0
        The study's seed (>= 0, below 20,000 so that sampler seeds stay distinct).
    chains, draws, tune, cores
        Sampler settings of each fit.

    Returns
    -------
    BayesRecovery
        Per-fit posterior means, intervals, ML estimates and diagnostics; coverage with its
        Monte Carlo SE and bias with its SE, for meta-d′ and the M-ratio.

    Raises
    ------
    ValueError
        For d′ <= 0, meta-d′ < 0, bad counts, levels, seeds or sampler settings (the argument is
        named).

    Notes
    -----
    With ``estimate_dprime=False`` the M-ratio's interval is meta-d′'s divided by the point
    estimate of d′: it ignores d′'s own uncertainty, so its coverage of the true M-ratio can
    fall short of ``level`` where meta-d′'s does not.

    Examples
    --------
    >>> r = bayes_recovery(1.5, 1.5, 200, 2, chains=2, draws=300, tune=300)
    >>> r.sets, r.coverage_meta_d, r.meta_d_mean.round(1)
    (array([0, 1]), 1.0, array([1.1, 1.7]))
    """
    from . import model
    from .bayes_metad import fit_meta_d_bayes
    from .metad import fit_meta_d

    d = as_scalar(d, "d")
    meta_d = as_scalar(meta_d, "meta_d")
    if not d > 0:
        raise ValueError(f"d must be positive; got {d:g}")
    if not meta_d >= 0:
        raise ValueError(f"meta_d must be non-negative; got {meta_d:g}")
    c = as_scalar(c, "c")
    n_per_stimulus = as_int(n_per_stimulus, "n_per_stimulus", least=1)
    n_sets = as_int(n_sets, "n_sets", least=1)
    K = as_int(K, "K", least=2)
    start = as_int(start, "start", least=0)
    seed = as_int(seed, "seed", least=0, most=19_999)
    level = float(as_probability(level, "level", 0.0, 1.0, low_open=True, high_open=True))
    if not isinstance(estimate_dprime, (bool, np.bool_)):
        raise ValueError(f"estimate_dprime must be True or False; got {estimate_dprime!r}")
    alpha = (1 - level) / 2
    sets = np.arange(start, start + n_sets)
    per_fit = {k: np.empty(n_sets) for k in _PER_FIT}
    for j, i in enumerate(sets):
        table = model.simulate_ratings(d, meta_d, n_per_stimulus, c=c, K=K,
                                       rng=np.random.default_rng([seed, int(i)]))[0]
        fit = fit_meta_d_bayes(*table, estimate_dprime=estimate_dprime, chains=chains,
                               draws=draws, tune=tune, seed=seed * 100_000 + int(i), cores=cores)
        for name in ("meta_d", "m_ratio"):
            x = getattr(fit, name)
            per_fit[f"{name}_mean"][j] = x.mean()
            per_fit[f"{name}_lower"][j], per_fit[f"{name}_upper"][j] = np.quantile(
                x, [alpha, 1 - alpha])
        per_fit["d_hat"][j] = np.mean(fit.d)
        ml = fit_meta_d(*table, pad=1 / (2 * K))
        per_fit["ml_meta_d"][j], per_fit["ml_m_ratio"][j] = ml.meta_d, ml.m_ratio
        per_fit["r_hat"][j], per_fit["ess_bulk"][j] = fit.r_hat, fit.ess_bulk
        per_fit["divergences"][j] = fit.divergences
    per_fit["divergences"] = per_fit["divergences"].astype(int)
    return BayesRecovery(d=d, meta_d=meta_d, m_ratio=meta_d / d, c=c,
                         n_per_stimulus=n_per_stimulus, K=K,
                         estimate_dprime=bool(estimate_dprime), level=level, seed=seed,
                         sets=sets, **per_fit, **_summaries(meta_d, meta_d / d, level, per_fit))


#: the shipped recovery study (``metabits/data``), written by ``scripts/bayes_recovery.py``
RECOVERY_FILE = "bayes_recovery.csv"


def bayes_recovery_rows():
    """The shipped recovery study of the Bayesian meta-d′: one row per fit (pandas DataFrame).

    Written by ``scripts/bayes_recovery.py`` (:func:`bayes_recovery` over a grid of conditions,
    then :meth:`BayesRecovery.rows`); ``tests/test_bayes_checks.py`` refits some of its rows.

    Examples
    --------
    >>> rows = bayes_recovery_rows()
    >>> {"d", "meta_d", "n_per_stimulus", "set", "meta_d_lower", "ml_meta_d"} <= set(rows)
    True
    """
    from importlib.resources import files

    import pandas as pd

    with files("metabits").joinpath("data", RECOVERY_FILE).open(encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")


def recovery_summary(rows):
    """Coverage and bias by condition from per-fit rows (as :func:`bayes_recovery_rows`).

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per fit with the columns of :meth:`BayesRecovery.rows`.

    Returns
    -------
    pandas.DataFrame
        One row per condition (d, meta_d, c, n_per_stimulus, K, estimate_dprime, level): the
        number of fits ``fits``, ``coverage_meta_d``, ``coverage_m_ratio`` with their ``_se``,
        the biases of the posterior means and of ML with their ``_se``, the mean posterior-mean
        minus ML difference of meta-d′ ``bayes_minus_ml_meta_d`` (with ``_se``), the largest
        R-hat and the total divergences.

    Raises
    ------
    ValueError
        For rows without the needed columns, or no rows.

    Examples
    --------
    >>> s = recovery_summary(bayes_recovery_rows())
    >>> bool((s.fits >= 100).all())
    True
    """
    import pandas as pd

    keys = ["d", "meta_d", "c", "n_per_stimulus", "K", "estimate_dprime", "level"]
    if not isinstance(rows, pd.DataFrame):
        raise ValueError(f"rows must be a pandas DataFrame; got {type(rows).__name__}")
    missing = [k for k in keys + list(_PER_FIT) if k not in rows.columns]
    if missing:
        raise ValueError(f"rows lacks the columns {missing}")
    if len(rows) == 0:
        raise ValueError("rows is empty")
    out = []
    for cond, g in rows.groupby(keys, sort=False):
        per_fit = {k: g[k].to_numpy() for k in _PER_FIT}
        summary = dict(zip(keys, cond))
        summary["fits"] = len(g)
        summary.update(_summaries(summary["meta_d"], summary["meta_d"] / summary["d"],
                                  summary["level"], per_fit))
        diff = per_fit["meta_d_mean"] - per_fit["ml_meta_d"]
        summary["bayes_minus_ml_meta_d"] = float(diff.mean())
        summary["bayes_minus_ml_meta_d_se"] = float(diff.std(ddof=1) / np.sqrt(diff.size)) \
            if diff.size > 1 else float("nan")
        summary["max_r_hat"] = float(per_fit["r_hat"].max())
        summary["divergences"] = int(per_fit["divergences"].sum())
        out.append(summary)
    return pd.DataFrame(out)
