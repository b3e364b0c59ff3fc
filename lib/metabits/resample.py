"""The bootstrap of count tables: the library's one resampler and one bootstrap engine.

Every bootstrap and the Monte Carlo bias reduction of the library redraw the trials behind a
table of counts. :func:`bootstrap_tables` is the engine, in the manner of
:func:`scipy.stats.bootstrap`: a statistic of a stack of tables, its replicates, their percentile
or BCa interval (BCa's acceleration from the leave-one-trial-out jackknife), standard error,
bias and the count of replicates in which the statistic is undefined. Every bootstrap interval
of the library comes from it (:func:`metabits.measure`, :func:`metabits.bootstrap_measures`,
:func:`metabits.sdt.bootstrap_meta_d`, :func:`metabits.oskr_ci_from_table`).

**What is resampled** (:data:`RESAMPLING`, the engine's ``resample``): ``"rows"`` redraws each
*row* of a table (the trials of one stimulus) from the multinomial of its own relative
frequencies with its total kept, the design of an experiment that fixes the trials per stimulus
(Meyen et al., 2025, section "Bias Reduction"; Efron & Tibshirani, 1993); ``"table"`` redraws
the whole table as one multinomial of its cells with the grand total kept, i.e. resamples the
trials whatever their row (Roberts, 2026, appendix "Confidence intervals", for OSKR, whose rows
are outcomes, not a design). :func:`multinomial_rows` draws the rows of a whole stack of tables
at once, and :func:`percentile_interval` and :func:`bca_interval` turn replicates into
intervals with one quantile rule (:func:`quantiles`: linear interpolation between the sorted
replicates in which the statistic is defined, i.e. finite; NaN and infinite replicates are left
out).

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

import numpy as np

from metabits._resampling import (RESAMPLING, TableBootstrap, _bca_quantiles, _quantiles,
                                  draw_multinomial_rows)
from metabits._resampling import bootstrap_tables as _bootstrap_tables
from metabits.results import Bounds
from metabits.validation import (as_choice, as_counts, as_float_array, as_probability, as_rng,
                                 as_scalar, as_size, as_whole_counts, scalar_or_array)
from metabits.validation._scalars import as_axis, as_broadcastable, as_numbers, as_text

__all__ = ["RESAMPLING", "TableBootstrap", "bca_interval", "bootstrap_tables", "multinomial_rows",
           "percentile_interval", "quantiles"]

#: The intervals of :func:`bootstrap_tables`.
METHODS = ("percentile", "bca")


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
    lo, hi = _bca_quantiles(reps, theta, accel, a_tail)
    return Bounds(scalar_or_array(lo), scalar_or_array(hi))


def bootstrap_tables(statistic, counts, *, n_boot: int = 1000, level: float = 0.95,
                     method: str = "percentile", resample: str = "rows", batch=None,
                     rng=None) -> TableBootstrap:
    r"""Bootstrap a statistic of count tables: replicates, interval, standard error and bias.

    Each table is resampled ``n_boot`` times by :func:`multinomial_rows` — its rows, or the
    whole table as one row of cells (``resample``) — and ``statistic`` is evaluated on every
    replicate of every table at once (or ``batch`` tables at a time).

    Parameters
    ----------
    statistic : callable
        ``statistic(tables)`` takes a float array of tables of shape ``(..., r, c)`` and returns
        an array of shape ``(...)`` (one value per table) or ``(...) + S`` (several values per
        table, e.g. several measures); NaN or infinity where the statistic is undefined. It is
        called on the observed tables, on the replicates (shape ``(b, n_boot, r, c)``) and,
        for BCa, on the jackknife tables (shape ``(n, r·c, r, c)``).
    counts : array_like, shape (..., r, c)
        Count tables of whole numbers; the leading axes are a stack.
    n_boot : int, default 1000
        Replicates per table (>= 2).
    level : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).
    method : {"percentile", "bca"}, default "percentile"
        Percentile interval (Efron & Tibshirani, 1993, ch. 13), or the bias-corrected and
        accelerated interval (Efron, 1987; :func:`bca_interval`) with the acceleration from the
        leave-one-trial-out jackknife (one jackknife table per cell, weighted by its count).
    resample : {"rows", "table"}, default "rows"
        ``"rows"``: each row redrawn from its own frequencies, its total kept (trials per
        stimulus fixed by the design); ``"table"``: all the table's trials redrawn together,
        the grand total kept.
    batch : int, optional
        Tables whose replicates are evaluated per call of ``statistic`` (all by default); it
        bounds the memory and does not change the draws.
    rng : numpy.random.Generator or int, optional
        Random generator or seed: ``c - 1`` uniforms per row and replicate (``r·c - 1`` per
        table with ``resample="table"``), drawn table by table.

    Returns
    -------
    TableBootstrap
        ``estimate`` (the statistic of the tables), ``interval`` (:class:`Bounds`),
        ``standard_error`` and ``bias`` (standard deviation and mean minus estimate of the
        defined replicates), ``replicates`` (shape ``estimate.shape + (n_boot,)``),
        ``n_undefined`` (replicates in which the statistic is not finite: left out of all of
        these) and the settings.

    Raises
    ------
    ValueError
        For a ``statistic`` that is not callable or returns an array of another leading shape,
        counts that are negative, not whole or not tables (fewer than two axes), a row too large
        to resample, ``n_boot`` < 2 or replicates of more than 10**8 counts, ``level`` outside
        (0, 1), an unknown ``method`` or ``resample``, or a ``batch`` < 1.

    See Also
    --------
    scipy.stats.bootstrap : the same for samples of observations.

    References
    ----------
    Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, chapters 6, 10 and 13;
    Efron (1987), Better bootstrap confidence intervals, JASA 82, 171–185.

    Examples
    --------
    Accuracy of Table 1 of Meyen et al. (2025), the trials of each stimulus resampled:

    >>> table = [[84, 56, 48, 12], [4, 56, 64, 76]]
    >>> def accuracy(t):
    ...     return (t[..., 0, :2].sum(-1) + t[..., 1, 2:].sum(-1)) / t.sum((-2, -1))
    >>> b = bootstrap_tables(accuracy, table, n_boot=2000, rng=1)
    >>> round(float(b.estimate), 3), [round(float(x), 2) for x in b.interval]
    (0.7, [0.66, 0.74])
    >>> round(float(b.standard_error), 3), int(b.n_undefined)
    (0.023, 0)
    """
    if not callable(statistic):
        raise ValueError(f"statistic must be a function of count tables; got {statistic!r}")
    arr = as_counts(counts, "counts")
    if arr.ndim < 2 or 0 in arr.shape[-2:]:
        raise ValueError(f"counts must be tables, shape (..., r, c) with r, c >= 1; got shape "
                         f"{arr.shape}")
    B = as_size(n_boot, "n_boot", least=2)
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    method = as_choice(method, METHODS, "method")
    resample = as_choice(resample, RESAMPLING, "resample")
    batch = None if batch is None else as_size(batch, "batch", least=1)
    rows = arr.reshape(arr.shape[:-2] + (-1,)) if resample == "table" else arr
    whole = as_whole_counts(rows, "the bootstrap", m=B, m_name="n_boot").reshape(arr.shape)
    lead = arr.shape[:-2]
    flat = whole.reshape((-1,) + arr.shape[-2:])
    r = _bootstrap_tables(statistic, flat, B, as_rng(rng), level=level, method=method,
                          resample=resample, batch=batch)

    def back(x):
        return scalar_or_array(np.asarray(x).reshape(lead + np.shape(x)[1:]))

    return TableBootstrap(estimate=back(r.estimate),
                          interval=Bounds(back(r.interval.lower), back(r.interval.upper)),
                          standard_error=back(r.standard_error), bias=back(r.bias),
                          replicates=np.asarray(r.replicates).reshape(
                              lead + r.replicates.shape[1:]),
                          n_undefined=back(r.n_undefined), n_boot=B, level=level,
                          method=method, resample=resample)
