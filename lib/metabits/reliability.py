"""Reliability of measures across people: random split halves and within-person correlations.

The people chapter asks two questions of every measure computed per person and condition:

* **Split-half reliability**: split each person's trials of a condition at random into two
  halves (:func:`random_halves`), compute the measure on each half, correlate the halves across
  people (Spearman) and step the correlation up to the full length with the Spearman–Brown
  formula :math:`2r/(1 + r)`, averaging r over several random splits
  (:func:`split_half_reliability`).
* **Within-person correlation**: how a measure moves with accuracy inside each person across
  conditions: Spearman's ρ per person, averaged over people with its standard error
  (:func:`within_person_correlation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import (MAX_SIZE, as_float_array, as_int, as_int_array, as_rng, as_size,
                                 as_values_with_nan, scalar_or_array)

__all__ = ["PersonCorrelation", "random_halves", "split_half_reliability",
           "within_person_correlation"]


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho; NaN (no warning) for a constant input, which the callers count as
    undefined and leave out."""
    import warnings

    from scipy.stats import ConstantInputWarning, spearmanr  # imported here: slow to import

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConstantInputWarning)
        return float(spearmanr(x, y).statistic)


def _group_indices(groups) -> list:
    """The trial indices of each group: 1-D int64 arrays of integers >= 0 (empty groups kept)."""
    if isinstance(groups, (str, bytes, Mapping)) or not isinstance(groups, Iterable):
        raise ValueError("groups must be a sequence of arrays of trial indices, one per group "
                         f"(e.g. DataFrame.groupby(...).indices.values()); got {groups!r}")
    idx = []
    for i, g in enumerate(groups):
        name = f"groups (group {i})"
        try:
            arr = np.asarray(g)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be an array of trial indices: {exc}") from None
        if arr.size == 0 and arr.dtype.kind in "iuf":
            idx.append(np.empty(0, dtype=np.int64))
        else:
            idx.append(as_int_array(arr, f"{name} trial indices", least=0).ravel())
    return idx


def random_halves(groups, n_trials: int, n_splits: int = 10, rng=None) -> np.ndarray:
    """Random split halves of the trials of every group (e.g. person × condition).

    In each split, every group's trials are permuted at random and the first half (rounded
    down) goes to half 1, the rest to half 0.

    Parameters
    ----------
    groups : sequence of array_like of int
        The trial indices of each group (e.g. ``DataFrame.groupby(...).indices.values()``);
        together they cover trials 0 … ``n_trials`` − 1 once.
    n_trials : int
        Number of trials.
    n_splits : int, default 10
        Number of random splits.
    rng : numpy.random.Generator or int, optional
        Random generator or seed; one permutation per group and split, in that order.

    Returns
    -------
    ndarray of int, shape (n_splits, n_trials)
        0 or 1: the half of each trial in each split.

    Raises
    ------
    ValueError
        For indices that are not integers in 0 … n_trials − 1, a trial in two groups or in
        none, sizes < 1, or more than 10**8 halves (``n_splits`` × ``n_trials``).

    References
    ----------
    Spearman (1910), Brown (1910): split-half reliability.

    Examples
    --------
    >>> h = random_halves([[0, 1, 2, 3], [4, 5]], 6, n_splits=2, rng=1)
    >>> h.shape, h[:, :4].sum(axis=1).tolist(), h[:, 4:].sum(axis=1).tolist()
    ((2, 6), [2, 2], [1, 1])
    """
    n = as_size(n_trials, "n_trials")
    splits = as_size(n_splits, "n_splits")
    if splits * n > MAX_SIZE:
        raise ValueError(f"n_splits × n_trials = {splits} × {n} halves; at most {MAX_SIZE:,}")
    idx = _group_indices(groups)
    seen = np.concatenate(idx) if idx else np.array([], dtype=np.int64)
    if seen.size != n or np.any((seen < 0) | (seen >= n)) or np.unique(seen).size != n:
        raise ValueError("groups must cover the trials 0 .. n_trials - 1 once each")
    gen = as_rng(rng)
    out = np.empty((splits, n), dtype=int)
    for s in range(splits):
        for g in idx:
            h = np.zeros(g.size, dtype=int)
            h[gen.permutation(g.size)[: g.size // 2]] = 1
            out[s, g] = h
    return out


def split_half_reliability(first, second, min_people: int = 8):
    """Spearman–Brown split-half reliability from a measure on two halves of every person.

    For each split, Spearman's correlation across people between the two halves (people with a
    finite value in both); r is the mean over the splits, and the reliability of the full
    length :math:`2r/(1 + r)`.

    Parameters
    ----------
    first, second : array_like, shape (n_splits, n_people, ...)
        The measure on half 1 and half 2 of each split; trailing axes (e.g. conditions) are
        kept. NaN marks an undefined value.
    min_people : int, default 8
        A split enters only if at least this many people have both halves defined.

    Returns
    -------
    float or ndarray
        The reliability per trailing index (NaN where no split qualifies).

    Raises
    ------
    ValueError
        For arrays of different shapes, fewer than two axes, values that are not numbers, or
        infinite values.

    References
    ----------
    Spearman (1910); Brown (1910).

    Examples
    --------
    Halves that rank people identically are perfectly reliable:

    >>> a = np.array([[1.0, 2.0, 3.0, 4.0]])
    >>> float(split_half_reliability(a, 2 * a, min_people=3))
    1.0
    """
    a = as_values_with_nan(first, "first")
    b = as_values_with_nan(second, "second")
    if a.shape != b.shape or a.ndim < 2:
        raise ValueError("first and second must have one shape (n_splits, n_people, ...); got "
                         f"{a.shape} and {b.shape}")
    least = as_int(min_people, "min_people", least=3)
    rest = a.shape[2:]
    out = np.full(rest, np.nan)
    for j in np.ndindex(*rest):
        rs = []
        for s in range(a.shape[0]):
            x, y = a[(s, slice(None)) + j], b[(s, slice(None)) + j]
            ok = np.isfinite(x) & np.isfinite(y)
            if ok.sum() >= least:
                rs.append(_spearman(x[ok], y[ok]))
        if rs:
            r = np.mean(rs)
            out[j] = 2 * r / (1 + r)
    return scalar_or_array(out)


@dataclass(frozen=True)
class PersonCorrelation(Result):
    """Results of :func:`within_person_correlation`; also a mapping.

    Attributes
    ----------
    mean : float
        Mean over people of each person's Spearman ρ.
    se : float
        Its standard error: SD over people (``ddof=1``) over the square root of their number.
    n_people : int
        People who enter: with enough defined values, and neither ``y`` nor ``x`` constant
        over them.
    """

    mean: float
    se: float
    n_people: int


def within_person_correlation(y, x, min_points: int = 3) -> PersonCorrelation:
    """Spearman's ρ between ``y`` and ``x`` inside each person, averaged over people.

    Parameters
    ----------
    y, x : array_like, shape (n_people, n_conditions)
        E.g. a measure and the accuracy of each person in each condition; NaN in ``y`` marks an
        undefined value (left out of that person's ρ).
    min_points : int, default 3
        A person enters with at least this many defined conditions.

    Returns
    -------
    PersonCorrelation
        ``mean``, ``se`` and ``n_people``. A person whose defined values of ``y`` (or whose
        ``x``) are all equal has no ρ (a constant has no ranks to correlate): like one with too
        few defined values, that person does not enter the mean, the SE or ``n_people``.

    Raises
    ------
    ValueError
        For arrays of different shapes, not two-dimensional, values that are not numbers,
        non-finite ``x``, infinite ``y``, or fewer than two people who qualify.

    References
    ----------
    The people chapter's question whether a measure is independent of accuracy within a person
    (Meyen et al., 2025, on the dependence of the measures on accuracy).

    Examples
    --------
    >>> acc = np.array([[0.6, 0.7, 0.8, 0.9], [0.55, 0.65, 0.8, 0.95]])
    >>> r = within_person_correlation(-acc, acc)
    >>> r.mean, r.n_people
    (-1.0, 2)
    """
    yy = as_values_with_nan(y, "y")
    xx = as_float_array(x, "x")
    if yy.shape != xx.shape or yy.ndim != 2:
        raise ValueError(f"y and x must be (people, conditions) arrays of one shape; got "
                         f"{yy.shape} and {xx.shape}")
    least = as_int(min_points, "min_points", least=3)
    rhos = []
    for i in range(yy.shape[0]):
        ok = np.isfinite(yy[i])
        if ok.sum() >= least:
            rhos.append(_spearman(xx[i, ok], yy[i, ok]))  # NaN: y or x constant
    rhos = np.array(rhos)
    rhos = rhos[np.isfinite(rhos)]
    if len(rhos) < 2:
        raise ValueError(f"fewer than two people have min_points = {least} or more defined "
                         "values of y, not all equal, and x not constant over them: a mean and "
                         "its standard error need two")
    return PersonCorrelation(mean=float(rhos.mean()),
                             se=float(rhos.std(ddof=1) / np.sqrt(rhos.size)),
                             n_people=int(rhos.size))
