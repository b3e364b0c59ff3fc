"""Reliability and precision of measures across people: split halves, ICC, paired effects.

Rahnev (2025) assesses a measure of metacognition, computed per person, by criteria that this
module computes from the measure's values:

* **Split-half reliability**: split each person's trials into two halves, compute the measure
  on each half and correlate the halves across people. :func:`odd_even_halves` splits into odd-
  and even-numbered trials (Rahnev's split), :func:`random_halves` at random (several splits);
  :func:`split_half_reliability` averages Spearman's correlation over the splits and steps it
  up to the full length with the Spearman–Brown formula (:func:`spearman_brown`);
  :func:`group_correlations` gives Pearson's correlation per group of people (per data set).
* **Test–retest reliability**: the same people measured in two or more sessions; the
  intraclass correlation ICC(3,1) (:func:`icc`).
* **Dependences and precision** within people: Cohen's d of paired differences
  (:func:`paired_cohens_d`), e.g. between a person's easiest and hardest condition, or between
  the measure on the trials as recorded and after a known loss of metacognition, confidence
  redrawn at random on a share of the trials (:func:`redraw_confidence`): the precision.
* **Within-person correlation**: how a measure moves with accuracy inside each person across
  conditions: Spearman's ρ per person, averaged over people with its standard error
  (:func:`within_person_correlation`).

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0; Spearman (1910);
Brown (1910); Shrout & Fleiss (1979), *Psychological Bulletin* 86, 420–428.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import (MAX_SIZE, as_categories, as_float_array, as_int, as_int_array,
                                 as_positive, as_probability, as_rng, as_scalar, as_size,
                                 as_values_with_nan, scalar_or_array)
from metabits.validation._scalars import as_numbers

__all__ = ["PersonCorrelation", "group_correlations", "icc", "odd_even_halves", "paired_cohens_d",
           "random_halves", "redraw_confidence", "spearman_brown", "split_half_reliability",
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


def odd_even_halves(groups, n_trials: int) -> np.ndarray:
    """Odd- and even-numbered trials of every group (e.g. person × condition): Rahnev's split.

    Within each group, the trials in the order given are numbered 1, 2, 3, …; the odd-numbered
    ones (1st, 3rd, …) go to half 1, the even-numbered ones to half 0. Unlike
    :func:`random_halves`, the split interleaves the trials in time, so that a slow drift over
    the session (learning, fatigue) falls into both halves alike.

    Parameters
    ----------
    groups : sequence of array_like of int
        The trial indices of each group in the order the trials were run (e.g.
        ``DataFrame.groupby(...).indices.values()`` of a frame sorted by trial); together they
        cover trials 0 … ``n_trials`` − 1 once.
    n_trials : int
        Number of trials.

    Returns
    -------
    ndarray of int, shape (1, n_trials)
        0 or 1: the half of each trial, as one split in the shape :func:`random_halves` returns,
        so that either split feeds the same code (:func:`split_half_reliability`).

    Raises
    ------
    ValueError
        For indices that are not integers in 0 … n_trials − 1, a trial in two groups or in
        none, or an ``n_trials`` that is not a positive integer.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0: split-half
    reliability from odd- and even-numbered trials.

    Examples
    --------
    >>> odd_even_halves([[0, 2, 4, 5], [1, 3]], 6).tolist()
    [[1, 1, 0, 0, 1, 0]]
    """
    n = as_size(n_trials, "n_trials")
    idx = _group_indices(groups)
    seen = np.concatenate(idx) if idx else np.array([], dtype=np.int64)
    if seen.size != n or np.any((seen < 0) | (seen >= n)) or np.unique(seen).size != n:
        raise ValueError("groups must cover the trials 0 .. n_trials - 1 once each")
    sizes = np.array([g.size for g in idx], dtype=np.int64)
    start = np.repeat(np.cumsum(sizes) - sizes, sizes)
    out = np.empty((1, n), dtype=int)
    out[0, seen] = ((np.arange(n) - start) % 2 == 0).astype(int)
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


def spearman_brown(r, factor: float = 2.0):
    """The Spearman–Brown prophecy: a reliability ``r`` stepped up to ``factor`` times the length.

    :math:`k r / (1 + (k − 1) r)` with :math:`k` = ``factor``; for a split half (k = 2),
    :math:`2r / (1 + r)`, the reliability of the whole from the correlation of its halves.

    Parameters
    ----------
    r : array_like
        Correlations in [−1, 1]; NaN (undefined) stays NaN.
    factor : float, default 2
        Length of the whole over the length of one part, > 0 (< 1 steps down).

    Returns
    -------
    float or ndarray
        The stepped-up reliability, of ``r``'s shape.

    Raises
    ------
    ValueError
        For ``r`` that are not numbers, infinite or outside [−1, 1], or a ``factor`` that is
        not one number > 0.

    References
    ----------
    Spearman (1910); Brown (1910); Rahnev (2025), *Nature Communications* 16,
    doi:10.1038/s41467-025-56117-0, who reports split-half correlations without the step-up.

    Examples
    --------
    >>> spearman_brown(0.6)
    0.75
    >>> spearman_brown([0.5, np.nan], factor=3).tolist()
    [0.75, nan]
    """
    if r is None:
        raise ValueError("r must be correlations in [-1, 1]; got None")
    x = as_values_with_nan(r, "r")
    if np.any(np.abs(x[np.isfinite(x)]) > 1):
        bad = x[np.isfinite(x) & (np.abs(x) > 1)].ravel()[0]
        raise ValueError(f"r must be correlations in [-1, 1]; got {bad:g}")
    k = float(as_positive(as_scalar(factor, "factor"), "factor"))
    with np.errstate(invalid="ignore", divide="ignore"):
        return scalar_or_array(k * x / (1 + (k - 1) * x))


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


# --- paired effects, correlations and ICC across people -------------------------------------

def _per_person(a, b, name_a: str, name_b: str):
    """Two arrays (people, ...) of one shape: real numbers, NaN or infinity an undefined value."""
    x, y = as_numbers(a, name_a), as_numbers(b, name_b)
    if x.shape != y.shape or x.ndim < 1:
        raise ValueError(f"{name_a} and {name_b} must be arrays of one shape (people, ...); got "
                         f"shapes {x.shape} and {y.shape}")
    return x, y


def _group_codes(groups, n_people: int):
    """The group codes 0 … G − 1 of the people (all 0 without groups) and G."""
    if groups is None:
        return np.zeros(n_people, dtype=np.int64), 1
    codes, levels = as_categories(groups, "groups")
    if codes.size != n_people:
        raise ValueError(f"groups must give one group per person ({n_people}); got "
                         f"{codes.size}")
    return codes, len(levels)


def paired_cohens_d(a, b, groups=None, min_people: int = 3):
    """Cohen's d of the paired differences ``b − a``: their mean over their SD, per group.

    Parameters
    ----------
    a, b : array_like, shape (n_people, ...)
        A measure of each person in two conditions (e.g. the hardest and the easiest; the
        trials as recorded and with confidence redrawn); trailing axes (e.g. measures) are
        kept. A pair whose difference is NaN or infinite (an undefined measure) is left out.
    groups : array_like, shape (n_people,), optional
        The group (data set) of each person: numbers, booleans or strings. Default: one group.
    min_people : int, default 3
        A group with fewer complete pairs gives NaN; at least 2.

    Returns
    -------
    float or ndarray
        d of shape ``a.shape[1:]``; with ``groups``, shape ``(G,) + a.shape[1:]``, the groups
        in the order of ``np.unique(groups)``. NaN where too few pairs or the differences do
        not vary. The SD has ``ddof=1``.

    Raises
    ------
    ValueError
        For ``a`` and ``b`` that are not real numbers of one shape (at least one axis), empty,
        ``groups`` that are not one value per person, or a ``min_people`` that is not an
        integer >= 2.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0: a measure's
    dependence on task performance and on metacognitive bias, and its precision, are Cohen's d
    of paired differences within people; d of 0.3 and 1 mark weak and strong dependences.

    Examples
    --------
    >>> round(paired_cohens_d([1, 2, 3, 4], [2, 4, 4, 6]), 3)
    2.598
    >>> paired_cohens_d([1, 2, 3, 1, 2, 3], [2, 4, 4, 2, 2, 3], groups=[0, 0, 0, 1, 1, 1],
    ...                 min_people=3).round(3).tolist()
    [2.309, 0.577]
    """
    x, y = _per_person(a, b, "a", "b")
    least = as_int(min_people, "min_people", least=2)
    codes, G = _group_codes(groups, len(x))
    with np.errstate(invalid="ignore"):  # inf − inf: undefined twice
        diff = y - x
    ok = np.isfinite(diff)
    out = np.full((G,) + x.shape[1:], np.nan)
    for i in range(G):
        m = codes == i
        d, k = np.where(ok[m], diff[m], 0.0), ok[m]
        n = k.sum(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = d.sum(0) / n
            var = (np.where(k, d - mean, 0.0) ** 2).sum(0) / (n - 1)
            out[i] = np.where((n >= least) & (var > 0), mean / np.sqrt(var), np.nan)
    return out if groups is not None else scalar_or_array(out[0])


def group_correlations(x, y, groups=None, min_people: int = 10):
    """Pearson's correlation of ``x`` and ``y`` across the people of each group.

    Parameters
    ----------
    x, y : array_like, shape (n_people, ...)
        E.g. a measure on the odd and on the even trials of each person, or a measure and d′;
        trailing axes (e.g. measures) are kept. A pair with a NaN or an infinity is left out.
    groups : array_like, shape (n_people,), optional
        The group (data set) of each person; default one group.
    min_people : int, default 10
        A group with fewer complete pairs gives NaN; at least 3.

    Returns
    -------
    float or ndarray
        r of shape ``x.shape[1:]``; with ``groups``, ``(G,) + x.shape[1:]`` in the order of
        ``np.unique(groups)``. NaN where too few pairs or ``x`` or ``y`` does not vary.

    Raises
    ------
    ValueError
        As :func:`paired_cohens_d`, and for a ``min_people`` that is not an integer >= 3.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0: split-half
    reliability (odd against even trials, :func:`odd_even_halves`) and the dependence on d′
    and on the response bias across the people of a data set, averaged over data sets.

    Examples
    --------
    >>> x = np.arange(20.0)
    >>> group_correlations(x, 2 * x + 1, np.repeat(["a", "b"], 10)).tolist()
    [1.0, 1.0]
    """
    a, b = _per_person(x, y, "x", "y")
    least = as_int(min_people, "min_people", least=3)
    codes, G = _group_codes(groups, len(a))
    ok = np.isfinite(a) & np.isfinite(b)
    out = np.full((G,) + a.shape[1:], np.nan)
    for i in range(G):
        m = codes == i
        k = ok[m]
        n = k.sum(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            da = np.where(k, a[m] - np.where(k, a[m], 0.0).sum(0) / n, 0.0)
            db = np.where(k, b[m] - np.where(k, b[m], 0.0).sum(0) / n, 0.0)
            saa, sbb = (da ** 2).sum(0), (db ** 2).sum(0)
            r = np.clip((da * db).sum(0) / np.sqrt(saa * sbb), -1.0, 1.0)
        out[i] = np.where((n >= least) & (saa > 0) & (sbb > 0), r, np.nan)
    return out if groups is not None else scalar_or_array(out[0])


def icc(x):
    """Test–retest reliability as the intraclass correlation ICC(3,1) of people over sessions.

    :math:`(MS_R − MS_E) / (MS_R + (k − 1) MS_E)` of the two-way table of people (rows) and k
    sessions (columns): the consistency of single measurements, session effects removed.

    Parameters
    ----------
    x : array_like, shape (n_people, k_sessions, ...)
        A measure of each person in each session (or task); trailing axes (e.g. measures) are
        kept. A person with a NaN in any session is left out of that trailing index's ICC.

    Returns
    -------
    float or ndarray
        ICC(3,1) of shape ``x.shape[2:]``; NaN with fewer than three complete people or no
        variation.

    Raises
    ------
    ValueError
        For values that are not numbers, infinite values, or an array with fewer than two
        axes or fewer than two sessions.

    References
    ----------
    Shrout & Fleiss (1979), *Psychological Bulletin* 86, 420–428 (ICC(3,1)); Rahnev (2025),
    *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (test–retest reliability of
    measures of metacognition between consecutive days).

    Examples
    --------
    Shrout & Fleiss's six targets rated by four judges (their Table 2; ICC(3,1) = .71):

    >>> round(icc([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
    ...            [6, 2, 4, 7]]), 2)
    0.71
    >>> icc([[1, 1], [2, 2], [3, 3]])
    1.0
    """
    a = as_values_with_nan(x, "x")
    if a.ndim < 2 or a.shape[1] < 2:
        raise ValueError(f"x must be (people, sessions, ...) with at least two sessions; got "
                         f"shape {a.shape}")
    k = a.shape[1]
    ok = np.isfinite(a).all(1)                        # (people, ...)
    full = ok[:, None]
    w = np.where(full, a, 0.0)
    n = ok.sum(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        grand = w.sum((0, 1)) / (n * k)
        rows = w.sum(1) / k
        cols = w.sum(0) / n
        ms_rows = k * (np.where(ok, rows - grand, 0.0) ** 2).sum(0) / (n - 1)
        ss_cols = n * ((cols - grand) ** 2).sum(0)
        ss_err = (np.where(full, a - grand, 0.0) ** 2).sum((0, 1)) - ms_rows * (n - 1) - ss_cols
        ms_err = ss_err / ((n - 1) * (k - 1))
        denom = ms_rows + (k - 1) * ms_err
        out = np.where((n >= 3) & (denom > 0), (ms_rows - ms_err) / denom, np.nan)
    return scalar_or_array(out)


def redraw_confidence(confidence, n_levels, fraction: float, rng=None) -> np.ndarray:
    """Confidence redrawn at random on a share of the trials: a known loss of metacognition.

    Each trial is chosen with probability ``fraction``; a chosen trial's confidence becomes a
    level drawn uniformly from 1 … K (possibly its own). The stimulus and the response are not
    touched, so accuracy and d′ stay as they were while confidence tells less about accuracy.
    A measure of metacognition should fall; Cohen's d of the paired drop across people
    (:func:`paired_cohens_d`) is its precision: how far the known loss stands out from the
    measure's noise.

    Parameters
    ----------
    confidence : array_like of int
        Each trial's confidence level, 1 … K.
    n_levels : int or array_like of int
        K: one for all trials or one per trial (broadcast against ``confidence``), >= 2.
    fraction : float
        Probability that a trial's confidence is redrawn, in [0, 1].
    rng : numpy.random.Generator or int, optional
        Random generator or seed. Two uniform numbers per trial are drawn, ``rng.random((2,
        n))`` for n trials: the first chooses the trial, the second its new level.

    Returns
    -------
    ndarray of int
        The confidence levels, of ``confidence``'s shape.

    Raises
    ------
    ValueError
        For confidence levels that are not integers in 1 … K, K that are not integers >= 2 or
        do not broadcast, a ``fraction`` outside [0, 1], or a bad ``rng``.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0: validity and
    precision of measures of metacognition from confidence corrupted on a share of the trials.

    Examples
    --------
    >>> conf = np.array([1, 4, 2, 3, 4, 4, 1, 2])
    >>> bool(np.array_equal(redraw_confidence(conf, 4, 0.0, rng=1), conf))
    True
    >>> new = redraw_confidence(conf, 4, 1.0, rng=1)
    >>> bool(new.min() >= 1 and new.max() <= 4)
    True
    """
    conf = as_int_array(confidence, "confidence", least=1)
    K = as_int_array(n_levels, "n_levels", least=2)
    try:
        K = np.broadcast_to(K, conf.shape)
    except ValueError:
        raise ValueError(f"n_levels must be one K or one per trial (shape {conf.shape}); got "
                         f"shape {K.shape}") from None
    if np.any(conf > K):
        bad = conf[conf > K].ravel()[0]
        raise ValueError(f"confidence must be levels 1 … K (n_levels); got {bad} above K")
    p = float(as_probability(as_scalar(fraction, "fraction"), "fraction"))
    gen = as_rng(rng)
    u = gen.random((2,) + conf.shape)
    new = np.minimum((u[1] * K).astype(np.int64), K - 1) + 1
    return np.where(u[0] < p, new, conf)
