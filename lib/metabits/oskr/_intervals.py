"""Bootstrap intervals of OSKR (Roberts, 2026, appendix "Confidence intervals"), from the
library's bootstrap engine (:func:`metabits.resample.bootstrap_tables`, ``resample="table"``):
a percentile or BCa interval, BCa's acceleration from the cell-wise jackknife."""

from __future__ import annotations

import warnings

import numpy as np

from metabits.results import Bounds
from metabits.validation import (as_choice, as_probability, as_rng, as_scalar, as_size,
                                 as_whole_counts, scalar_or_array)
from metabits.validation._tables import as_contingency_table
from metabits._resampling import bootstrap_tables
from metabits.oskr._estimators import (CI_METHODS, ESTIMATORS, _check_outcome_entropy, _entropies,
                                       _oskr_kernel, contingency_table)

__all__ = ["oskr_ci", "oskr_ci_from_table"]


def oskr_ci_from_table(counts, *, estimator: str = "plugin", method: str = "percentile",
                       n_boot: int = 1000, level: float = 0.95, rng=None) -> Bounds:
    """Bootstrap confidence interval of OSKR from a contingency table (or a stack of them).

    Each resample draws N trials from the table's relative frequencies — one multinomial draw per
    resample of the whole table, the same as resampling the (T, S) pairs with replacement
    (:func:`metabits.resample.bootstrap_tables` with ``resample="table"``). The rows are not
    kept: they are the outcome, which the trials sample, not a design that fixes them (Roberts,
    2026, resamples the trials). All resamples of all tables are drawn and evaluated at once.

    Parameters
    ----------
    counts : array_like, shape (..., k_T, k_S)
        Whole-number counts: rows outcomes, columns signal values.
    estimator : {"plugin", "miller-madow"}
        The estimator bootstrapped.
    method : {"percentile", "bca"}
        Percentile interval (the essay's recommendation), or the bias-corrected and accelerated
        interval (Efron, 1987) with the acceleration from the cell-wise jackknife.
    n_boot : int, default 1000
        Number of resamples (the essay's 1000).
    level : float, default 0.95
        Coverage level, in (0, 1).
    rng : numpy.random.Generator or int, optional
        Random generator or seed.

    Returns
    -------
    Bounds
        ``(lower, upper)``: floats for one table, arrays for a stack.

    Raises
    ------
    ValueError
        For bad counts (non-integer, negative, empty tables, a table too large to resample:
        more than about 10**6 trials), an unknown estimator or method, ``level`` outside
        (0, 1), too few resamples or more than 10**8 counts in all of them (``n_boot`` ×
        ``counts.size``), or H(T) = 0 in a table.

    Warns
    -----
    UserWarning
        If some resamples have a constant outcome (OSKR undefined); they are left out.

    References
    ----------
    Roberts (2026), appendix "Confidence intervals"; Efron (1987), Better bootstrap confidence
    intervals, JASA 82, 171–185.

    Examples
    --------
    >>> lo, hi = oskr_ci_from_table([[400, 100], [100, 400]], rng=0)
    >>> bool(lo < 0.2781 < hi), round(hi - lo, 2)
    (True, 0.1)
    """
    counts = as_contingency_table(counts)
    as_choice(estimator, ESTIMATORS[:2], "estimator for a bootstrap interval")
    as_choice(method, CI_METHODS, "interval method")
    b = as_size(n_boot, "n_boot", least=2)
    whole = as_whole_counts(counts.reshape(counts.shape[:-2] + (-1,)), "the bootstrap", m=b,
                            m_name="n_boot")
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    h_t, mi, n = _entropies(counts)
    _check_outcome_entropy(h_t, mi)
    flat = whole.reshape((-1,) + counts.shape[-2:])
    r = bootstrap_tables(lambda t: _oskr_kernel(t, estimator), flat, b, as_rng(rng), level=level,
                         method=method, resample="table")
    undefined = r.n_undefined.reshape(counts.shape[:-2])
    if np.any(undefined > 0):
        warnings.warn(f"{int(undefined.max())} of {b} resamples had a constant outcome "
                      "(OSKR undefined) and were left out", UserWarning, stacklevel=2)
    if np.any(b - undefined < 2):
        raise ValueError("fewer than two resamples have a varying outcome: too few trials of "
                         "the rarer outcome for a bootstrap interval")
    lead = counts.shape[:-2]
    return Bounds(scalar_or_array(r.interval.lower.reshape(lead)),
                  scalar_or_array(r.interval.upper.reshape(lead)))


def oskr_ci(outcome, signal, *, estimator: str = "plugin", method: str = "percentile",
            n_boot: int = 1000, level: float = 0.95, rng=None, bins=None) -> Bounds:
    """Bootstrap confidence interval of OSKR from per-trial outcomes and self-assessments.

    The trials are tabulated (:func:`contingency_table`, with ``bins`` for a continuous signal)
    and the table is resampled (:func:`oskr_ci_from_table`).

    Parameters
    ----------
    outcome, signal : array_like, shape (N,)
        As for :func:`oskr`.
    estimator : {"plugin", "miller-madow"}
        The estimator bootstrapped. ``"ksg"`` is refused: see the module docstring.
    method : {"percentile", "bca"}
        Percentile or BCa interval.
    n_boot : int, default 1000
        Number of resamples.
    level : float, default 0.95
        Coverage level.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.
    bins : int or array_like, optional
        Discretise a continuous signal first.

    Returns
    -------
    Bounds
        ``(lower, upper)``.

    Raises
    ------
    ValueError
        As :func:`oskr_ci_from_table` and :func:`contingency_table`; for ``"ksg"``.

    References
    ----------
    Roberts (2026), appendix "Confidence intervals".

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> t = rng.random(2000) < 0.7
    >>> s = np.where(rng.random(2000) < 0.8, t, ~t)
    >>> lo, hi = oskr_ci(t, s, method="bca", rng=4)
    >>> from metabits.oskr import oskr
    >>> bool(lo < oskr(t, s).oskr < hi)
    True
    """
    as_choice(estimator, ESTIMATORS, "estimator")
    if estimator == "ksg":
        raise ValueError("no bootstrap interval for the KSG estimator: resampling with "
                         "replacement duplicates trials, and duplicates at distance 0 inflate "
                         "nearest-neighbour estimates; use bins= with 'plugin' or 'miller-madow'")
    counts = contingency_table(outcome, signal, bins=bins)
    return oskr_ci_from_table(counts, estimator=estimator, method=method, n_boot=n_boot,
                              level=level, rng=rng)
