"""Resampling of count tables: the library's one multinomial resampler.

Every bootstrap and the Monte Carlo bias reduction of the library redraw the trials behind a
table of counts: each *row* (the last axis) is redrawn from the multinomial of its own relative
frequencies with its total kept (Meyen et al., 2025, section "Bias Reduction"; Efron &
Tibshirani, 1993). :func:`multinomial_rows` does that for a whole stack of tables at once, and
:func:`percentile_interval` and :func:`bca_interval` turn the replicates into intervals with one
quantile rule (:func:`quantiles`: linear interpolation between the sorted replicates in which the
statistic is defined, i.e. finite; NaN and infinite replicates are left out).

**How it draws.** A row with counts :math:`c_1, \\dots, c_K` and total :math:`n` is drawn as the
chain of binomials :math:`x_j \\sim \\mathrm{Bin}(n - \\sum_{i<j} x_i,\\; c_j / \\sum_{i \\ge j} c_i)`,
each by inverting the binomial distribution function at one uniform number of the given
generator (``K - 1`` uniforms per resampled row). The distribution functions of all the trial
numbers a row's resamples reach are tabulated once per row and category (by the recursion
:math:`F_{N+1}(k) = (1-q)F_N(k) + qF_N(k-1)`), so each draw is a short table search (from a
guide table, or a bisection when the row has few draws); the loop is compiled with numba.
Probabilities farther than about nine standard deviations from the mean (below about 1e-17) are
left out of the tables, which is below the resolution of a uniform double. The draws are exact
multinomial draws; they are not numpy's ``Generator.multinomial`` stream.

**Its limits.** A category's table spans the trial numbers the resamples reach (a few standard
deviations of the trials left) times the outcomes within nine standard deviations: with three
or more categories it holds some 15 to 45 numbers per trial of the row, and at most about 100
(two categories need a few thousand numbers at most). The tables of a row, bounded before
anything is drawn, may hold at most :data:`metabits.validation.MAX_SIZE` = 10**8 numbers (rows
of up to about a million trials), and the resamples of a stack (rows × categories × m) as many.
Both are checked by :func:`metabits.validation.as_whole_counts` before anything is allocated.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr, ndtri

from metabits._resampling import draw_multinomial_rows
from metabits.results import Bounds
from metabits.validation import (as_counts, as_float_array, as_probability, as_rng, as_scalar,
                                 as_size, as_whole_counts, scalar_or_array)
from metabits.validation._scalars import as_axis, as_broadcastable, as_numbers, as_text

__all__ = ["bca_interval", "multinomial_rows", "percentile_interval", "quantiles"]


def multinomial_rows(counts, m: int, rng=None, *, what: str = "resampling") -> np.ndarray:
    """Redraw every row of a stack of count tables ``m`` times from its own relative frequencies.

    Each row (the last axis) is a multinomial draw with the row's total and the row's observed
    proportions: the trials of that row resampled with replacement. Rows are independent.

    Parameters
    ----------
    counts : array_like, shape (..., K)
        Whole, non-negative counts; any leading axes (tables, rows of a table) are kept. The
        tables the resampler builds for a row grow with its trials, to at most 10**8 numbers:
        rows of up to about a million trials (see the module's notes).
    m : int
        Number of resamples (>= 1; the resamples may hold at most 10**8 numbers, ``m`` ×
        ``counts.size``).
    rng : numpy.random.Generator or int, optional
        Random generator or seed; ``K - 1`` uniform numbers are drawn per resampled row.
    what : str, default "resampling"
        Names the caller in error messages.

    Returns
    -------
    ndarray of int64, shape ``(m,) + counts.shape``
        The resampled tables; every row keeps its total.

    Raises
    ------
    ValueError
        For negative, non-finite or non-whole counts, a row too large to resample (its
        tables would exceed 10**8 numbers: more than about a million trials),
        ``m`` < 1, resamples of more than 10**8 numbers, or a ``what`` that is no text.

    References
    ----------
    Efron & Tibshirani (1993), the nonparametric bootstrap; Meyen et al. (2025), section "Bias
    Reduction" (each row resampled with its total kept).

    Examples
    --------
    >>> x = multinomial_rows([[84, 56, 48, 12], [4, 56, 64, 76]], 1000, rng=1)
    >>> x.shape, x.sum(axis=-1)[0].tolist()
    ((1000, 2, 4), [200, 200])
    >>> x.mean(axis=0).round(-1).tolist()
    [[80.0, 60.0, 50.0, 10.0], [0.0, 60.0, 60.0, 80.0]]
    """
    what = as_text(what, "what")
    arr = as_counts(counts, "counts")
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError("counts must have at least one category on the last axis; got shape "
                         f"{arr.shape}")
    m = as_size(m, "m")
    return draw_multinomial_rows(as_whole_counts(arr, what, m=m), m, as_rng(rng))


# --- intervals from replicates -----------------------------------------------------------------


def _quantiles(reps: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantiles ``q`` (shape (k,) + reps.shape[1:], or broadcastable) of the finite replicates
    along axis 0; NaN where fewer than one replicate is finite."""
    defined = np.isfinite(reps)
    valid = defined.sum(axis=0)
    ordered = np.sort(np.where(defined, reps, np.inf), axis=0)  # the undefined last
    q = np.broadcast_to(q, q.shape[:1] + reps.shape[1:])
    pos = q * np.maximum(valid - 1, 0)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    low = np.take_along_axis(ordered, lo, axis=0)
    high = np.take_along_axis(ordered, hi, axis=0)
    with np.errstate(invalid="ignore"):
        out = low + frac * (high - low)
    return np.where(valid > 0, out, np.nan)


def _fits(shape: tuple, other: tuple) -> bool:
    """``shape``, padded with trailing axes of length 1, broadcasts to ``other``."""
    padded = tuple(shape) + (1,) * (len(other) - len(shape))
    return all(a in (1, b) for a, b in zip(padded, other))


def _replicates(reps, axis) -> np.ndarray:
    """Checked replicates (numbers; NaN and infinity mark an undefined statistic) with the
    replicates on axis 0."""
    arr = as_numbers(reps, "reps")
    if arr.ndim == 0:
        raise ValueError("reps must be an array of replicates; got one number")
    ax = as_axis(axis, arr.ndim)
    return np.moveaxis(arr, ax, 0)


def quantiles(reps, q, axis: int = 0):
    """The library's one quantile rule for bootstrap replicates.

    Linear interpolation between the order statistics of the replicates in which the statistic
    is defined (finite), as :func:`numpy.nanquantile`'s default; NaN and infinite replicates are
    left out, and a statistic with no defined replicate gives NaN.

    Parameters
    ----------
    reps : array_like
        Replicates, along ``axis``.
    q : float or array_like
        Probabilities in [0, 1]; an array of shape (k,) gives k quantiles (first axis of the
        result), one of shape (k,) + the other axes of ``reps`` gives per-statistic
        probabilities (as BCa needs).
    axis : int, default 0
        The axis of the replicates.

    Returns
    -------
    float or ndarray
        Shape ``q.shape[:1] + other axes`` (a scalar q gives no leading axis).

    Raises
    ------
    ValueError
        For probabilities outside [0, 1] or of a shape that does not fit ``reps``, a
        non-numeric ``reps`` or one without replicates, or an ``axis`` it does not have.

    References
    ----------
    Hyndman & Fan (1996), definition 7 (numpy's default).

    Examples
    --------
    >>> quantiles([1.0, 2.0, np.nan, 3.0, 4.0], [0.25, 0.5]).tolist()
    [1.75, 2.5]
    """
    reps = _replicates(reps, axis)
    q = np.asarray(as_probability(q, "q"), dtype=float)
    scalar = q.ndim == 0
    if not scalar and not (q.ndim <= reps.ndim and _fits(q.shape[1:], reps.shape[1:])):
        raise ValueError(f"q must be one probability, k of them, or k per statistic (shape (k,) "
                         f"+ {reps.shape[1:]}, the other axes of reps); got shape {q.shape}")
    q = q.reshape((1,) + (1,) * (reps.ndim - 1)) if scalar else \
        q.reshape(q.shape + (1,) * (reps.ndim - q.ndim))
    out = _quantiles(reps, q)
    return scalar_or_array(out[0]) if scalar else out


def _tails(level) -> float:
    value = as_scalar(level, "level")
    return (1.0 - float(as_probability(value, "level", low_open=True, high_open=True))) / 2.0


def percentile_interval(reps, level: float = 0.95, axis: int = 0) -> Bounds:
    """Percentile bootstrap interval: the (1 − level)/2 and (1 + level)/2 quantiles of the
    replicates (:func:`quantiles`).

    Parameters
    ----------
    reps : array_like
        Bootstrap replicates along ``axis``; NaN or infinite ones (undefined) are left out.
    level : float, default 0.95
        Coverage, in (0, 1).
    axis : int, default 0
        The axis of the replicates.

    Returns
    -------
    Bounds
        ``(lower, upper)``: floats for one statistic, arrays over the other axes.

    Raises
    ------
    ValueError
        For ``level`` outside (0, 1), a non-numeric ``reps`` or one without replicates, or an
        ``axis`` it does not have.

    References
    ----------
    Efron & Tibshirani (1993), chapter 13.

    Examples
    --------
    >>> percentile_interval(np.arange(101.0), level=0.9)
    Bounds(lower=5.0, upper=95.0)
    """
    a = _tails(level)
    lo, hi = quantiles(reps, [a, 1.0 - a], axis=axis)
    return Bounds(scalar_or_array(lo), scalar_or_array(hi))


def bca_interval(reps, estimate, acceleration=0.0, level: float = 0.95, axis: int = 0) -> Bounds:
    r"""Bias-corrected and accelerated (BCa) bootstrap interval (Efron, 1987).

    The bias correction :math:`z_0 = \Phi^{-1}(\hat p)` comes from the share :math:`\hat p` of
    defined replicates below the estimate (ties count half; clipped to half a replicate from 0
    and 1); the interval is the :func:`quantiles` at
    :math:`\Phi(z_0 + (z_0 + z_\alpha)/(1 - a(z_0 + z_\alpha)))` for the two tails.

    Parameters
    ----------
    reps : array_like
        Bootstrap replicates along ``axis``; NaN or infinite ones are left out.
    estimate : float or array_like
        The estimate from the observed data (shaped like the other axes of ``reps``).
    acceleration : float or array_like, default 0
        The acceleration a (e.g. from a jackknife); 0 gives the bias-corrected interval.
    level : float, default 0.95
        Coverage, in (0, 1).
    axis : int, default 0
        The axis of the replicates.

    Returns
    -------
    Bounds
        ``(lower, upper)``.

    Raises
    ------
    ValueError
        For ``level`` outside (0, 1), non-finite estimates or accelerations or ones of a shape
        other than one per statistic, a non-numeric ``reps`` or one without replicates, or an
        ``axis`` it does not have.

    References
    ----------
    Efron (1987), Better bootstrap confidence intervals, JASA 82, 171–185.

    Examples
    --------
    Without bias and acceleration BCa is the percentile interval:

    >>> reps = np.arange(101.0)
    >>> [round(float(x), 9) for x in bca_interval(reps, 50.0, level=0.9)]
    [5.0, 95.0]
    """
    a_tail = _tails(level)
    reps = _replicates(reps, axis)
    stats = "statistic (the other axes of reps)"
    theta = as_broadcastable(as_float_array(estimate, "estimate"), reps.shape[1:], "estimate",
                             stats)
    accel = as_broadcastable(as_float_array(acceleration, "acceleration"), reps.shape[1:],
                             "acceleration", stats)
    defined = np.isfinite(reps)
    valid = np.maximum(defined.sum(axis=0), 1)
    below = (np.where(defined, reps < theta, False).sum(axis=0)
             + 0.5 * np.where(defined, reps == theta, False).sum(axis=0))
    z0 = ndtri(np.clip(below / valid, 0.5 / valid, 1.0 - 0.5 / valid))
    z = ndtri(np.array([a_tail, 1.0 - a_tail])).reshape((2,) + (1,) * (reps.ndim - 1))
    q = ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z)))
    lo, hi = _quantiles(reps, q)
    return Bounds(scalar_or_array(lo), scalar_or_array(hi))
