"""Checks of the Bayesian meta-d′ fits (:mod:`metabits.sdt`): predictive checks.

* :func:`prior_predictive` and :func:`posterior_predictive` draw count tables from Fleming's
  HMeta-d model (parameters from its priors, or from a fit's posterior draws) and set them beside
  the observed table: per-cell predictive intervals, whether each observed count lies inside, and
  a posterior (or prior) predictive p-value of a chi-square distance from the model's average
  table (Box, 1980; Gelman, Meng & Stern, 1996).

A parameter-recovery study of these fits (simulate from known parameters, fit, compare) is a
study of many fits, not a check of one, and is not part of this package.

The predictive draws are NumPy: this module imports no PyMC (:mod:`metabits.sdt` imports it
when it loads; a fit passed to the checks has loaded PyMC already).

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

from metabits._formulas import sdt_rates
from metabits.results import Result
from metabits.validation import as_float_array, as_int, as_probability, as_rng

__all__ = ["PredictiveCheck", "hmetad_rating_probabilities", "posterior_predictive",
           "prior_predictive"]

#: docstrings whose Examples sample with NUTS (the first compiles the model): marked slow by
#: the test configuration, so the quick loop leaves them out
_SLOW_DOCTESTS = ("prior_predictive", "posterior_predictive")

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
    tables : ndarray of int, shape ``(S, *T)``
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

    :func:`hmetad_rating_probabilities` without input checks; the predictive checks draw from it.

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


def hmetad_rating_probabilities(meta_d, c, t2c_S1, t2c_S2) -> np.ndarray:
    """Rating probabilities of Fleming's HMeta-d model, given the stimulus and the Type 1 response.

    The likelihood of :func:`fit_meta_d_bayes` in NumPy: the Type 2 evidence of an S1 (S2)
    stimulus is normal with mean −meta-d′/2 (+meta-d′/2) and unit variance, cut at the Type 1
    criterion c itself (HMeta-d's meta-c = c) and at K − 1 confidence criteria on each side;
    each probability is floored at 10⁻⁵ and renormalised, as in HMeta-d's JAGS code.

    Parameters
    ----------
    meta_d, c : float or array_like
        meta-d′ and the Type 1 criterion c (broadcast together).
    t2c_S1, t2c_S2 : array_like, shape (..., K - 1)
        The confidence criteria of "S1" responses (below ``c``) and of "S2" responses (above
        ``c``), each increasing; K >= 2.

    Returns
    -------
    ndarray, shape (..., 2, 2, K)
        Axes: stimulus (S1, S2), Type 1 response ("S1", "S2"), rating in the table's column order
        (for "S1" from most to least confident, for "S2" from least to most); each last axis sums
        to 1.

    Raises
    ------
    ValueError
        For values that are not finite numbers, criteria that do not increase, criteria on the
        wrong side of ``c``, or shapes that do not broadcast.

    References
    ----------
    Fleming (2017), HMeta-d, *Neuroscience of Consciousness* 2017(1), nix007.

    Examples
    --------
    >>> p = hmetad_rating_probabilities(1.0, 0.0, [-1.0], [1.0])
    >>> p.round(4)
    array([[[0.4463, 0.5537],
            [0.7835, 0.2165]],
    <BLANKLINE>
           [[0.2165, 0.7835],
            [0.5537, 0.4463]]])
    """
    meta_d = as_float_array(meta_d, "meta_d")
    c = as_float_array(c, "c")
    low = as_float_array(t2c_S1, "t2c_S1")
    high = as_float_array(t2c_S2, "t2c_S2")
    for crit, name in ((low, "t2c_S1"), (high, "t2c_S2")):
        if crit.ndim < 1 or crit.shape[-1] < 1:
            raise ValueError(f"{name} must have K - 1 >= 1 criteria on its last axis; "
                             f"got shape {crit.shape}")
        if np.any(np.diff(crit, axis=-1) <= 0):
            raise ValueError(f"{name} must increase along its last axis; got {crit.tolist()}")
    if low.shape[-1] != high.shape[-1]:
        raise ValueError(f"t2c_S1 and t2c_S2 must have as many criteria; got {low.shape[-1]} "
                         f"and {high.shape[-1]}")
    try:
        np.broadcast_shapes(meta_d.shape, c.shape, low.shape[:-1], high.shape[:-1])
    except ValueError:
        raise ValueError(f"meta_d, c and the criteria must broadcast; got shapes {meta_d.shape}, "
                         f"{c.shape}, {low.shape} and {high.shape}") from None
    if np.any(low[..., -1] >= c) or np.any(high[..., 0] <= c):
        raise ValueError("t2c_S1 must lie below c and t2c_S2 above it")
    return _hmetad_rating_probabilities(meta_d, c, low, high)


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
    from scipy.stats import truncnorm  # imported here, on first use: slow to import

    mean, sd, bound = (np.asarray(x, dtype=float)[..., None] for x in (mean, sd, bound))
    z = (bound - mean) / sd
    a, b = (-np.inf, z) if below else (z, np.inf)
    x = truncnorm.rvs(a, b, loc=mean, scale=sd, size=size, random_state=rng)
    return np.sort(x, axis=-1)


def _prior_draws(fit, S, rng):
    """Parameters drawn from the fit's model's priors: dict of (S, n) arrays, the criteria
    (S, n, K-1)."""
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
        A result of :func:`~metabits.sdt.fit_meta_d_bayes` or
        :func:`~metabits.sdt.fit_meta_d_bayes_group` (its counts and settings are
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
        A result of :func:`~metabits.sdt.fit_meta_d_bayes` or
        :func:`~metabits.sdt.fit_meta_d_bayes_group`.
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


