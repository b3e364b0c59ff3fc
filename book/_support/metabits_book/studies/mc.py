"""Monte Carlo summaries with their standard errors: the book's rule that a number read off a
simulation comes with its Monte Carlo SE."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_float_array, as_values_with_nan, scalar_or_array
from metabits_book._arguments import as_axis

__all__ = ["MCEstimate", "mc_mean", "mc_ratio", "mc_sd"]


@dataclass(frozen=True)
class MCEstimate(Result):
    """A quantity read off a simulation, with its Monte Carlo standard error
    (:func:`mc_mean`, :func:`mc_sd`, :func:`mc_ratio`).

    Attributes
    ----------
    value : float or ndarray
        The estimate.
    se : float or ndarray
        Its Monte Carlo standard error.
    n : int or ndarray
        Number of simulated values behind it (for a ratio: of the numerator).
    """

    value: object
    se: object
    n: object


def _mc_values(x, axis):
    x = as_values_with_nan(x, "simulated values x")
    if x.ndim == 0:
        raise ValueError("a Monte Carlo standard error needs at least two simulated values")
    axis = as_axis(axis, x.ndim)
    if x.shape[axis] < 2:
        raise ValueError("a Monte Carlo standard error needs at least two simulated values")
    if np.any(np.isinf(x)):
        raise ValueError("simulated values must be finite (NaN marks an undefined value)")
    n = np.sum(~np.isnan(x), axis=axis)
    if np.any(n < 2):
        raise ValueError("a Monte Carlo standard error needs at least two defined values")
    return x, n


def mc_mean(x, axis: int = -1) -> MCEstimate:
    """Mean of simulated values and its Monte Carlo standard error :math:`s/\\sqrt n`.

    NaN entries (undefined values) are left out and not counted.

    Parameters
    ----------
    x : array_like
        Simulated values, independent along ``axis``.
    axis : int, default -1
        The axis of the replications.

    Returns
    -------
    MCEstimate
        ``value`` (mean), ``se`` (sample SD over the square root of n) and ``n``.

    Raises
    ------
    ValueError
        For infinite values, or fewer than two defined values.

    References
    ----------
    Meyen et al. (2025), Figures 6–7 and the supplement's larger-sample study (means over
    simulated data sets); the book's rule that a number read off a simulation comes with its
    Monte Carlo standard error.

    Examples
    --------
    >>> r = mc_mean([1.0, 2.0, 3.0, 4.0])
    >>> r.value, round(r.se, 4), int(r.n)
    (2.5, 0.6455, 4)
    """
    x, n = _mc_values(x, axis)
    axis = as_axis(axis, x.ndim)
    mean = np.nanmean(x, axis=axis)
    se = np.nanstd(x, axis=axis, ddof=1) / np.sqrt(n)
    return MCEstimate(value=scalar_or_array(mean), se=scalar_or_array(se),
                      n=int(n) if np.ndim(n) == 0 else n)


def mc_sd(x, axis: int = -1) -> MCEstimate:
    """Standard deviation of simulated values and its Monte Carlo standard error.

    The SE is :math:`s\\sqrt{(\\hat\\kappa - (n - 3)/(n - 1))/(4n)}` with the sample kurtosis
    :math:`\\hat\\kappa` (delta method on the variance), which is :math:`s/\\sqrt{2(n - 1)}` for
    normal data but stays honest for the skewed spreads of information estimates.

    Parameters
    ----------
    x : array_like
        Simulated values, independent along ``axis`` (NaN left out).
    axis : int, default -1
        The axis of the replications.

    Returns
    -------
    MCEstimate
        ``value`` (SD, ``ddof=1``), ``se`` and ``n``.

    Raises
    ------
    ValueError
        For infinite values, or fewer than two defined values.

    References
    ----------
    Meyen et al. (2025), supplement: the spread of the measures with more trials per data set.

    Examples
    --------
    >>> import numpy as np
    >>> r = mc_sd(np.random.default_rng(1).normal(size=20000))
    >>> round(r.value, 2), round(r.se, 4)
    (1.0, 0.005)
    """
    x, n = _mc_values(x, axis)
    axis = as_axis(axis, x.ndim)
    mean = np.nanmean(x, axis=axis, keepdims=True)
    m2 = np.nanmean((x - mean) ** 2, axis=axis)
    m4 = np.nanmean((x - mean) ** 4, axis=axis)
    sd = np.nanstd(x, axis=axis, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        kurt = np.where(m2 > 0, m4 / np.where(m2 > 0, m2, 1.0) ** 2, 3.0)
    var_of_var = np.maximum(kurt - (n - 3.0) / (n - 1.0), 0.0) * sd ** 4 / n
    se = np.sqrt(var_of_var) / np.where(sd > 0, 2.0 * sd, np.inf)
    return MCEstimate(value=scalar_or_array(sd), se=scalar_or_array(se),
                      n=int(n) if np.ndim(n) == 0 else n)


def _mc_parts(est: MCEstimate, name: str):
    """An estimate's value (finite) and standard error (finite, >= 0)."""
    value = as_float_array(est.value, f"{name}.value")
    se = as_float_array(est.se, f"{name}.se")
    if np.any(se < 0):
        raise ValueError(f"{name}.se must be >= 0 (a standard error); got "
                         f"{se[se < 0].ravel()[0]:g}")
    return value, se


def mc_ratio(numerator: MCEstimate, denominator: MCEstimate) -> MCEstimate:
    """Ratio of two independent Monte Carlo estimates, with its delta-method standard error.

    :math:`r = a/b`,
    :math:`\\mathrm{SE}(r) \\approx |r|\\sqrt{(\\mathrm{SE}_a/a)^2 + (\\mathrm{SE}_b/b)^2}`.
    The delta method is a first-order approximation: trust it only when both estimates are
    resolved (each several standard errors away from 0); a ratio whose denominator is within
    two standard errors of 0 is noise, and this function refuses it.

    Parameters
    ----------
    numerator, denominator : MCEstimate
        Independent estimates (e.g. from :func:`mc_mean` or :func:`mc_sd` of separate runs).

    Returns
    -------
    MCEstimate
        ``value`` (the ratio), ``se`` and ``n`` (the numerator's).

    Raises
    ------
    ValueError
        If an argument is not an :class:`MCEstimate`, or a denominator is within two standard
        errors of 0.

    References
    ----------
    The book's rule for factors read off simulations (e.g. how much a bias shrinks with more
    trials in Meyen et al.'s larger-sample study).

    Examples
    --------
    >>> r = mc_ratio(MCEstimate(0.02, 0.001, 200), MCEstimate(0.004, 0.0005, 200))
    >>> round(r.value, 2), round(r.se, 2)
    (5.0, 0.67)
    """
    if not isinstance(numerator, MCEstimate) or not isinstance(denominator, MCEstimate):
        raise ValueError("mc_ratio takes two MCEstimate results (from mc_mean or mc_sd)")
    a, sa = _mc_parts(numerator, "numerator")
    b, sb = _mc_parts(denominator, "denominator")
    if np.any(np.abs(b) <= 2.0 * sb):
        raise ValueError("the denominator is within two Monte Carlo standard errors of 0: the "
                         "ratio is not resolved (state the two estimates instead)")
    r = a / b
    with np.errstate(invalid="ignore", divide="ignore"):
        rel_a = np.where(a != 0, sa / np.where(a != 0, np.abs(a), 1.0), 0.0)
    se = np.abs(r) * np.sqrt(rel_a ** 2 + (sb / b) ** 2)
    if np.any(a == 0):  # first order around a = 0: SE(a)/|b|
        se = np.where(a == 0, sa / np.abs(b), se)
    return MCEstimate(value=scalar_or_array(r), se=scalar_or_array(se), n=numerator.n)
