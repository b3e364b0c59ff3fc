"""Comparing Type 1 decision criteria: Delta-method standard errors, pairwise z tests with a
Bonferroni correction, and regions of practical equivalence (ROPE).

Servajean & Servajean (2026) estimate the criterion :math:`c = -(z(HR) + z(FAR))/2` of three
LLMs under three risk configurations, report it with a 95% confidence interval from the Delta
method (Table S2), and compare the configurations pairwise "for a two-sided Z-test where we
computed the variances of the differences using the Delta method", Bonferroni-corrected over
the pairs, and against a ROPE. This module rebuilds those steps from the published estimates and
interval half-widths, and inverts the ROPE rule: which ROPE half-widths agree with the paper's
verbal verdicts.

The Delta method for binomial rates: :math:`\\mathrm{Var}\\,z(\\widehat{HR}) \\approx
HR(1 - HR) / (n_{S2}\\,\\varphi(z(HR))^2)`, likewise for FAR with :math:`n_{S1}`. Because the
two rates come from independent trials, :math:`\\mathrm{Var}(\\hat d') = \\mathrm{Var}\\,z(HR) +
\\mathrm{Var}\\,z(FAR) = 4\\,\\mathrm{Var}(\\hat c)`: the standard error of d′ is twice that of c.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy.special import log_ndtr, ndtr

from metabits._formulas import z_two_sided
from metabits.results import Bounds, Result
from metabits.validation import (as_float_array, as_int, as_positive, as_probability, as_scalar,
                                 scalar_or_array)
from metabits.validation._scalars import as_whole_numbers

__all__ = ["ROPE_VERDICTS", "CriterionComparison", "RopeRange", "SDTVariance",
           "compare_criteria", "delta_variance", "pairwise_z_tests", "rope_range", "rope_verdict",
           "se_from_ci", "trials_per_stimulus"]

#: The three verdicts of a ROPE rule (Makowski et al., 2019), as the paper words them.
ROPE_VERDICTS = ("practically significant", "inconclusive", "negligible")


def _z(level: float) -> float:
    return float(z_two_sided(level))


def _level(level, name: str = "level") -> float:
    return float(as_probability(as_scalar(level, name), name, low_open=True, high_open=True))


def se_from_ci(half_width, level: float = 0.95):
    """Standard error behind a symmetric normal confidence interval: half-width / z.

    Parameters
    ----------
    half_width : array_like
        Half-widths of the intervals (> 0), e.g. Table S2's "±0.0330".
    level : float, default 0.95
        Their coverage; z = Φ⁻¹((1 + level)/2) = 1.96 for 95%.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        For a half-width <= 0 or a level outside (0, 1).

    References
    ----------
    Servajean & Servajean (2026), Table S2 and Methods.

    Examples
    --------
    >>> round(se_from_ci(0.0330), 5)
    0.01684
    """
    hw = as_positive(half_width, "CI half-width", "an interval must have a width")
    return scalar_or_array(hw / _z(_level(level)))


@dataclass(frozen=True)
class SDTVariance(Result):
    """Results of :func:`delta_variance`; also a mapping.

    Attributes
    ----------
    var_d, var_c : Delta-method variances of d′ and c (``var_d == 4 * var_c``).
    se_d, se_c : their square roots.
    """

    var_d: object
    var_c: object
    se_d: object
    se_c: object


def _log_rate_terms(d, c):
    """The logs of n · Var z(HR) and n · Var z(FAR), the Delta-method variances of the
    z-transformed rates times the trials of their stimulus class: :math:`\\Phi(x)\\Phi(-x) /
    \\varphi(x)^2` at x = d/2 − c (hits) and −d/2 − c (false alarms). In logs, so that a rate
    near 0 or 1 keeps its precision (1 − HR does not round to 0) and the term does not
    underflow to 0/0."""
    with np.errstate(over="ignore", invalid="ignore"):
        return tuple(log_ndtr(x) + log_ndtr(-x) + x ** 2 + np.log(2 * np.pi)
                     for x in (d / 2 - c, -d / 2 - c))


def _finite(value, what: str, **args):
    """``value``, or a ValueError naming the arguments (``args``: name shown -> values) at the
    first place where it overflowed: a rate too near 0 or 1 (or, for the trials, a tiny
    half-width)."""
    bad = ~np.isfinite(value)
    if np.any(bad):
        shown = ", ".join(f"{k} = {np.broadcast_to(v, bad.shape)[bad].ravel()[0]:g}"
                          for k, v in args.items())
        raise ValueError(f"{what} at {shown} exceeds the largest float: d' and c put a hit or "
                         f"false-alarm rate within about 1e-300 of 0 or 1 (the Delta method "
                         f"needs rates away from 0 and 1)" + (
                             ", or the half-width is too small" if "half-width" in args else ""))
    return value


def delta_variance(d, c, n_s1, n_s2=None) -> SDTVariance:
    """Delta-method variances of the estimated d′ and c of equal-variance SDT.

    Parameters
    ----------
    d, c : array_like
        True (or estimated) sensitivity and criterion; broadcast together.
    n_s1 : array_like
        Trials with S1 stimuli: whole numbers >= 1 (ints, or floats such as 1000.0).
    n_s2 : array_like, optional
        Trials with S2 stimuli (whole numbers >= 1); by default ``n_s1``.

    Returns
    -------
    SDTVariance
        ``var_d``, ``var_c``, ``se_d``, ``se_c``.

    Raises
    ------
    ValueError
        For non-finite values, trial counts that are not whole numbers >= 1, or d′ and c so
        large that a rate is within about 1e-300 of 0 or 1 (the variance exceeds the largest
        float).

    References
    ----------
    Gourevitch & Galanter (1967); Servajean & Servajean (2026), Methods ("the Delta method").

    Examples
    --------
    >>> v = delta_variance(2.0, 0.0, 1000)
    >>> round(v.se_c, 5), round(v.se_d / v.se_c, 6)
    (0.03376, 2.0)
    """
    d, c = as_float_array(d, "d'"), as_float_array(c, "c")
    n1 = as_whole_numbers(n_s1, "n_s1 (trials with S1 stimuli)")
    n2 = n1 if n_s2 is None else as_whole_numbers(n_s2, "n_s2 (trials with S2 stimuli)")
    hit_term, fa_term = _log_rate_terms(d, c)
    with np.errstate(over="ignore", invalid="ignore"):
        var_d = np.exp(hit_term - np.log(n2)) + np.exp(fa_term - np.log(n1))
    var_d = _finite(var_d, "the Delta-method variance of d'", **{"d'": d, "c": c})
    var_c = var_d / 4
    return SDTVariance(*(scalar_or_array(v) for v in
                         (var_d, var_c, np.sqrt(var_d), np.sqrt(var_c))))


def trials_per_stimulus(d, c, half_width, level: float = 0.95):
    """Trials per stimulus class that give c's Delta-method interval this half-width.

    The inverse of :func:`delta_variance` (equal numbers of S1 and S2 trials): with the paper's
    estimate of c, its printed CI half-width and a value of d′, it says how many trials the
    interval implies.

    Parameters
    ----------
    d, c : array_like
        Sensitivity and criterion.
    half_width : array_like
        Half-width of c's confidence interval (> 0).
    level : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    float or numpy.ndarray
        n per stimulus class (not rounded).

    Raises
    ------
    ValueError
        For a half-width <= 0, a level outside (0, 1), non-finite d′ or c, or d′ and c so
        large that a rate is within about 1e-300 of 0 or 1 (the number of trials exceeds the
        largest float).

    References
    ----------
    Servajean & Servajean (2026), Table S2 and Methods ("Number of trials").

    Examples
    --------
    >>> v = delta_variance(2.0, 0.3, 5000)
    >>> round(trials_per_stimulus(2.0, 0.3, 1.959963984540054 * v.se_c), 6)
    5000.0
    """
    d, c = as_float_array(d, "d'"), as_float_array(c, "c")
    se = np.asarray(se_from_ci(half_width, level))
    hit_term, fa_term = _log_rate_terms(d, c)
    with np.errstate(over="ignore", invalid="ignore"):
        scale = np.log(4.0) + 2 * np.log(se)
        n = np.exp(hit_term - scale) + np.exp(fa_term - scale)
    return scalar_or_array(_finite(n, "the number of trials", **{"d'": d, "c": c,
                                                                  "half-width": half_width}))


@dataclass(frozen=True)
class CriterionComparison(Result):
    """Results of :func:`compare_criteria`; also a mapping.

    Attributes
    ----------
    pairs : tuple of (i, j) condition indices, i < j; each difference is ``c[j] - c[i]``.
    diff, se, z : the differences, their standard errors and z statistics, shape (..., n_pairs).
    p, p_adjusted : two-sided p-values, and Bonferroni-adjusted ones (``min(1, m p)``).
    significant : ``p_adjusted < alpha`` (equivalently ``|z| > z_{1 - alpha / (2m)}``).
    ci : :class:`~metabits.results.Bounds` of the differences at ``level`` (not adjusted).
    n_comparisons, alpha, level : the settings used.
    """

    pairs: tuple
    diff: np.ndarray
    se: np.ndarray
    z: np.ndarray
    p: np.ndarray
    p_adjusted: np.ndarray
    significant: np.ndarray
    ci: Bounds
    n_comparisons: int
    alpha: float
    level: float


def pairwise_z_tests(estimate, se, alpha: float = 0.05, n_comparisons: int | None = None,
                     ci_level: float = 0.95) -> CriterionComparison:
    """Two-sided z tests between every pair of independent estimates with known standard errors.

    For conditions i < j along the last axis: :math:`\\Delta = x_j - x_i`,
    :math:`SE = \\sqrt{SE_i^2 + SE_j^2}`, :math:`z = \\Delta / SE`, and a Bonferroni correction
    over m comparisons.

    Parameters
    ----------
    estimate : array_like, shape (..., J)
        Estimates of J >= 2 conditions (criteria, log M-ratios, …).
    se : array_like, shape (..., J)
        Their standard errors (> 0).
    alpha : float, default 0.05
        Family-wise significance level.
    n_comparisons : int, optional
        m of the Bonferroni correction; by default the number of pairs, J(J − 1)/2. Pass 1 for
        uncorrected tests.
    ci_level : float, default 0.95
        Coverage of the reported intervals of the differences; pass ``1 - alpha / m`` for
        Bonferroni-adjusted intervals.

    Returns
    -------
    CriterionComparison

    Raises
    ------
    ValueError
        For J < 2, shapes that differ, an SE <= 0, ``alpha`` or ``ci_level`` outside (0, 1), or
        ``n_comparisons`` < 1.

    References
    ----------
    Servajean & Servajean (2026), Methods ("Statistical analysis"); Dunn (1961).

    Examples
    --------
    >>> r = pairwise_z_tests([0.0, 0.1, 0.3], [0.03, 0.03, 0.03])
    >>> r.pairs, r.significant.tolist()
    (((0, 1), (0, 2), (1, 2)), [False, True, True])
    """
    x = as_float_array(estimate, "estimate")
    se = as_positive(se, "standard error")
    if x.ndim == 0 or x.shape != se.shape:
        raise ValueError(f"estimates and standard errors need the same shape (..., J); got "
                         f"{x.shape} and {se.shape}")
    J = x.shape[-1]
    if J < 2:
        raise ValueError(f"need at least two conditions to compare; got {J}")
    pairs = tuple(combinations(range(J), 2))
    m = len(pairs) if n_comparisons is None else as_int(n_comparisons, "n_comparisons")
    alpha = float(as_probability(as_scalar(alpha, "alpha"), "alpha", low_open=True,
                                 high_open=True))
    ci_level = _level(ci_level, "ci_level")
    i, j = np.array(pairs).T
    diff = x[..., j] - x[..., i]
    sd = np.sqrt(se[..., i] ** 2 + se[..., j] ** 2)
    z = diff / sd
    p = 2 * ndtr(-np.abs(z))
    p_adj = np.minimum(1.0, m * p)
    half = _z(ci_level) * sd
    return CriterionComparison(pairs=pairs, diff=diff, se=sd, z=z, p=p, p_adjusted=p_adj,
                               significant=p_adj < alpha, ci=Bounds(diff - half, diff + half),
                               n_comparisons=m, alpha=alpha, level=ci_level)


def compare_criteria(c, half_width, level: float = 0.95, alpha: float = 0.05,
                     n_comparisons: int | None = None, ci_level: float | None = None
                     ) -> CriterionComparison:
    """Pairwise z tests between criteria published with Delta-method confidence intervals.

    The paper's test: each standard error is recovered from its interval (:func:`se_from_ci`),
    the variance of a difference of independent estimates is the sum of their variances, and
    :func:`pairwise_z_tests` does the rest, Bonferroni-corrected over the pairs.

    Parameters
    ----------
    c : array_like, shape (..., J)
        Estimated criteria of J >= 2 conditions (e.g. risk S1, None, S2).
    half_width : array_like, shape (..., J)
        Half-widths of their confidence intervals (> 0).
    level : float, default 0.95
        Coverage of the published intervals.
    alpha : float, default 0.05
        Family-wise significance level.
    n_comparisons : int, optional
        m of the Bonferroni correction; by default the number of pairs, J(J − 1)/2.
    ci_level : float, optional
        Coverage of the intervals of the differences (default ``level``).

    Returns
    -------
    CriterionComparison

    Raises
    ------
    ValueError
        As :func:`pairwise_z_tests`, and for a half-width <= 0 or ``level`` outside (0, 1).

    References
    ----------
    Servajean & Servajean (2026), Methods ("Statistical analysis"); Dunn (1961).

    Examples
    --------
    >>> r = compare_criteria([0.1666, 0.1487], [0.0317, 0.0318])  # Mistral, task B: None, S2
    >>> round(float(r.z[0]), 3), bool(r.significant[0])
    (-0.781, False)
    """
    se = se_from_ci(half_width, level)
    if np.shape(se) != as_float_array(c, "c (criteria)").shape:
        raise ValueError(f"c and half_width must have the same shape (one value per criterion); "
                         f"got {np.shape(c)} and {np.shape(se)}")
    return pairwise_z_tests(c, se, alpha, n_comparisons,
                            level if ci_level is None else ci_level)


def _gaps(lower, upper):
    """Distances from 0 to the nearest and to the farthest point of each interval."""
    lo, hi = as_float_array(lower, "lower"), as_float_array(upper, "upper")
    if lo.shape != hi.shape or np.any(lo > hi):
        raise ValueError("interval ends must have one shape and lower <= upper")
    near = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    far = np.maximum(np.abs(lo), np.abs(hi))
    return near, far


def rope_verdict(lower, upper, rope):
    """The ROPE rule: an interval entirely outside [−rope, rope] is practically significant,
    entirely inside negligible, otherwise inconclusive.

    Parameters
    ----------
    lower, upper : array_like
        Ends of the intervals of the differences.
    rope : float
        Half-width of the region of practical equivalence (> 0).

    Returns
    -------
    numpy.ndarray of str
        One of :data:`ROPE_VERDICTS` per interval.

    Raises
    ------
    ValueError
        For ends of different shapes, lower > upper, or rope <= 0.

    References
    ----------
    Makowski, Ben-Shachar & Lüdecke (2019), bayestestR; Kruschke (2018); Servajean & Servajean
    (2026), Methods.

    Examples
    --------
    >>> rope_verdict([0.05, 0.2, -0.02], [0.15, 0.3, 0.04], 0.1).tolist()
    ['inconclusive', 'practically significant', 'negligible']
    """
    r = float(as_positive(as_scalar(rope, "rope half-width"), "rope half-width"))
    near, far = _gaps(lower, upper)
    return np.where(near > r, ROPE_VERDICTS[0], np.where(far <= r, ROPE_VERDICTS[2],
                                                         ROPE_VERDICTS[1]))


@dataclass(frozen=True)
class RopeRange(Result):
    """Results of :func:`rope_range`; also a mapping.

    Attributes
    ----------
    lower, upper : the ROPE half-widths r consistent with every verdict form the interval
        ``lower <= r < upper`` (empty if ``lower >= upper``).
    lower_from, upper_from : index of the comparison that sets each end (−1: no constraint).
    consistent : whether any r agrees with all verdicts.
    """

    lower: float
    upper: float
    lower_from: int
    upper_from: int
    consistent: bool


def rope_range(lower, upper, verdicts) -> RopeRange:
    """The ROPE half-widths that reproduce a list of verdicts: the inverse of :func:`rope_verdict`.

    "Practically significant" needs r < the interval's distance from 0; "inconclusive" needs
    r >= that distance and r < the distance of its far end; "negligible" needs r >= the far end.

    Parameters
    ----------
    lower, upper : array_like, shape (n,)
        Intervals of the differences.
    verdicts : sequence of str, length n
        One of :data:`ROPE_VERDICTS` per interval, or ``None`` for no statement.

    Returns
    -------
    RopeRange

    Raises
    ------
    ValueError
        For an unknown verdict, lengths that differ, or ends of different shapes.

    References
    ----------
    Servajean & Servajean (2026), Results ("practically inconclusive") and Methods.

    Examples
    --------
    >>> r = rope_range([0.05, 0.2], [0.15, 0.3], ["inconclusive", "practically significant"])
    >>> r.lower, r.upper, r.consistent
    (0.05, 0.2, True)
    """
    near, far = _gaps(lower, upper)
    near, far = np.atleast_1d(near), np.atleast_1d(far)
    if isinstance(verdicts, str) or not isinstance(verdicts, (list, tuple, np.ndarray)):
        raise ValueError(f"verdicts must be a sequence with one verdict (or None) per interval; "
                         f"got {verdicts!r}")
    verdicts = list(verdicts)
    if len(verdicts) != near.size:
        raise ValueError(f"need one verdict per interval; got {len(verdicts)} for {near.size}")
    for v in verdicts:
        if v is not None and v not in ROPE_VERDICTS:
            raise ValueError(f"unknown verdict {v!r}; must be one of {ROPE_VERDICTS} or None")
    lows, highs = [(0.0, -1)], [(np.inf, -1)]
    for k, v in enumerate(verdicts):
        if v == ROPE_VERDICTS[0]:
            highs.append((near[k], k))
        elif v == ROPE_VERDICTS[1]:
            lows.append((near[k], k))
            highs.append((far[k], k))
        elif v == ROPE_VERDICTS[2]:
            lows.append((far[k], k))
    lo, lo_k = max(lows, key=lambda t: t[0])
    hi, hi_k = min(highs, key=lambda t: t[0])
    return RopeRange(lower=float(lo), upper=float(hi), lower_from=int(lo_k), upper_from=int(hi_k),
                     consistent=bool(lo < hi))
