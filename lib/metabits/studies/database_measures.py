"""Every measure on every participant of the Confidence Database, and Rahnev's (2025) criteria.

The shipped copy (:func:`metabits.studies.confidence_database.confidence_database`) gives one
count table per participant, padded to 22 columns because the data sets' scales differ (K = 2 …
11). The functions here take such a stack with each participant's K, run the library's
vectorised measures once per K, and put the results back in participant order:

* :func:`database_measures` — the plug-in measures of :func:`metabits.all_measures` (accuracy,
  d′, meta-d′, M-ratio, meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ, RMI), OSKR
  of correctness (:func:`metabits.oskr_from_table` of :func:`metabits.correctness_table`), and
  the nuisance variables: the criterion c (response bias) and the mean confidence rescaled to
  0 … 1 (metacognitive bias).
* :func:`database_bootstrap` — the same with bootstrap intervals
  (:func:`metabits.bootstrap_measures`, B replicates per participant).
* :func:`merge_levels` — the metacognitive-bias manipulation of Xue, Shekhar & Rahnev (2021):
  removing the highest confidence criterion (merging the two highest levels) raises confidence,
  removing the lowest lowers it, on the same trials.
* :func:`paired_cohens_d`, :func:`group_correlations` and :func:`split_half` — the statistics of
  Rahnev's criteria: a within-person effect as Cohen's d of paired differences, correlations
  across the people of each data set, split-half reliability (odd- against even-numbered
  trials) at a bin size.

A participant whose table has an empty row (one stimulus only: five in Lebreton 2018) gets NaN
for every measure.

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (the criteria);
Xue, Shekhar & Rahnev (2021), *Consciousness and Cognition*, 103196 (criterion removal);
Meyen et al. (2025) (the information measures); Roberts (2026) (OSKR).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import Result
from .._validate import (as_categories, as_choice, as_float_array, as_instance, as_int,
                         as_int_array, as_nonnegative, as_same_length, as_size, scalar_or_array)

__all__ = ["BIN_SIZES", "Criteria", "DatabaseMeasures", "METACOGNITION", "NAMES",
           "criteria_frame", "database_bootstrap", "rahnev_criteria", "shipped_criteria",
           "write_criteria",
           "database_measures", "group_correlations", "merge_levels", "paired_cohens_d",
           "split_half"]

#: Everything :func:`database_measures` returns, in its order.
NAMES = ("acc", "d_prime", "meta_d", "m_ratio", "m_diff", "auroc2", "gamma", "phi", "meta_I",
         "meta_I1r", "meta_I2r", "RMI", "oskr", "c", "mean_conf")
#: The measures of metacognition among them (the others are task performance and biases).
METACOGNITION = ("auroc2", "gamma", "phi", "meta_d", "m_ratio", "m_diff", "meta_I", "meta_I1r",
                 "meta_I2r", "RMI", "oskr")


def _checked(tables, n_levels):
    """Tables (P, ..., 2, M) as floats and K (P,) broadcast to the leading axes."""
    t = as_float_array(tables, "tables")
    if np.any(t < 0):
        raise ValueError("tables must hold finite counts >= 0")
    if t.ndim < 3 or t.shape[-2] != 2 or t.shape[0] == 0:
        raise ValueError(f"tables must have shape (P, ..., 2, M) with P >= 1; got {t.shape}")
    K = as_int_array(n_levels, "n_levels", least=np.iinfo(np.int64).min)
    if K.ndim != 1 or len(K) != len(t):
        raise ValueError(f"n_levels must give one K per table of the first axis of tables "
                         f"({len(t)} tables); got shape {K.shape}")
    if K.min() < 2 or 2 * K.max() > t.shape[-1]:
        raise ValueError(f"n_levels must be whole numbers from 2 to {t.shape[-1] // 2} (the "
                         f"tables have {t.shape[-1]} columns)")
    lead = t.shape[:-2]
    Kb = np.broadcast_to(K.reshape((-1,) + (1,) * (len(lead) - 1)), lead).ravel()
    return t.reshape((-1,) + t.shape[-2:]), Kb, lead


def _extra(t: np.ndarray, K: int, pad: float) -> np.ndarray:
    """OSKR of correctness, c and rescaled mean confidence of tables (n, 2, 2K)."""
    import warnings

    from ..sdt import metad
    from ..oskr import correctness_table, oskr_from_table

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        o = np.asarray(oskr_from_table(correctness_table(t), undefined="nan").oskr, dtype=float)
    _, c, _ = metad._type1(t + pad)
    level = np.concatenate([np.arange(K, 0, -1), np.arange(1, K + 1)]) - 1  # 0 … K − 1
    conf = (t.sum(-2) * level).sum(-1) / t.sum((-2, -1)) / (K - 1)
    return np.stack([o.reshape(len(t)), np.asarray(c).reshape(len(t)), conf], axis=-1)


@dataclass(frozen=True)
class DatabaseMeasures(Result):
    """Results of :func:`database_measures` and :func:`database_bootstrap`; also a mapping.

    Attributes
    ----------
    names : tuple of str
        The measures, one per entry of the last axis (:data:`NAMES`; the bootstrap adds the
        bias-reduced information measures ``*_br``).
    estimate : ndarray, shape (P, ..., len(names))
        Plug-in values (bias-reduced for ``*_br``); NaN where undefined.
    lower, upper, se : ndarray or None
        Bootstrap percentile interval and standard deviation (None without a bootstrap).
    n_boot : int
        Replicates per table (0 without a bootstrap).
    """

    names: tuple
    estimate: np.ndarray
    lower: object = None
    upper: object = None
    se: object = None
    n_boot: int = 0

    def value(self, name: str):
        """The estimates of one measure, shape ``estimate.shape[:-1]``."""
        j = self.names.index(as_choice(name, self.names, "measure"))
        return scalar_or_array(self.estimate[..., j])

    def interval(self, name: str):
        """The bootstrap interval of one measure as ``(lower, upper)``.

        Raises
        ------
        ValueError
            For results without a bootstrap, or an unknown measure.
        """
        from .._results import Bounds

        if self.lower is None:
            raise ValueError("these results have no bootstrap intervals")
        j = self.names.index(as_choice(name, self.names, "measure"))
        return Bounds(scalar_or_array(self.lower[..., j]), scalar_or_array(self.upper[..., j]))


def database_measures(tables, n_levels, pad=None) -> DatabaseMeasures:
    """Every measure of every participant's table, tables of different K at once.

    Parameters
    ----------
    tables : array_like, shape (P, ..., 2, M)
        Count tables, each in the library's convention in its first ``2 * n_levels[p]``
        columns (e.g. :meth:`ConfidenceDatabase.tables`, M = 22); extra leading axes (halves,
        difficulty levels) share the participant's K.
    n_levels : array_like of int, shape (P,)
        K of each participant, 2 … M/2.
    pad : float, optional
        Count added to every cell for the meta-d′ fit and for c; default 1/(2K).

    Returns
    -------
    DatabaseMeasures
        ``estimate`` of shape (P, ..., 15): :data:`NAMES`. NaN for a table with an empty row.

    Raises
    ------
    ValueError
        For tables of the wrong shape (or none), negative or non-finite counts, K outside
        2 … M/2, or a negative or non-finite ``pad``.

    Examples
    --------
    >>> t = np.zeros((2, 2, 6)); t[0, :, :4] = [[84, 56, 48, 12], [4, 56, 64, 76]]
    >>> t[1] = [[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]
    >>> r = database_measures(t, [2, 3])
    >>> np.round(r.value("gamma"), 3).tolist(), (np.round(r.value("c"), 3) + 0).tolist()
    ([0.793, 0.581], [0.0, 0.0])
    >>> round(float(r.value("oskr")[0]), 3) == round(float(r.value("meta_I2r")[0]), 3)
    True
    """
    from .measure_bootstrap import all_measures

    flat, K, lead = _checked(tables, n_levels)
    pad = None if pad is None else as_nonnegative(pad, "pad")
    out = np.full((len(flat), len(NAMES)), np.nan)
    ok = (flat.sum(-1) > 0).all(-1)
    for k in np.unique(K):
        idx = np.flatnonzero((K == k) & ok)
        if not idx.size:
            continue
        t = flat[idx][..., : 2 * k]
        p = 1.0 / (2 * k) if pad is None else float(pad)
        out[idx, :12] = all_measures(t, pad=p).estimate
        out[idx, 12:] = _extra(t, int(k), p)
    return DatabaseMeasures(names=NAMES, estimate=out.reshape(lead + (len(NAMES),)))


def database_bootstrap(tables, n_levels, n_boot: int = 200, level: float = 0.95, pad=None,
                       rng=None, chunk: int = 500) -> DatabaseMeasures:
    """:func:`database_measures`' Type 2 measures with bootstrap intervals, every participant.

    Each participant's table is resampled B times (rows kept, :func:`metabits.bootstrap_measures`)
    in chunks of ``chunk`` tables of one K, so memory stays bounded. OSKR's percentile interval
    comes from :func:`metabits.oskr_ci_from_table` (all trials resampled, B replicates; no
    ``se``); c and the mean confidence are not bootstrapped (NaN intervals).

    Parameters
    ----------
    tables, n_levels, pad
        As :func:`database_measures`.
    n_boot : int, default 200
        Replicates per table.
    level : float, default 0.95
        Coverage of the percentile intervals.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.
    chunk : int, default 500
        Tables resampled at once.

    Returns
    -------
    DatabaseMeasures
        ``names``: :data:`NAMES` followed by the bias-reduced ``meta_I_br``, ``meta_I1r_br``,
        ``meta_I2r_br``, ``RMI_br``; ``lower``, ``upper``, ``se`` and ``n_boot`` set.

    Raises
    ------
    ValueError
        As :func:`database_measures`, for counts that are not whole numbers, and for an
        ``n_boot``, ``level``, ``rng`` or ``chunk`` out of range.

    Examples
    --------
    >>> t = np.array([[[84, 56, 48, 12], [4, 56, 64, 76]]])
    >>> b = database_bootstrap(t, [2], n_boot=200, rng=1)
    >>> lo, hi = b.interval("RMI")
    >>> bool(lo[0] < b.value("RMI")[0] < hi[0])
    True
    """
    from .._validate import as_probability, as_rng, as_scalar
    from .measure_bootstrap import MEASURES, PLUGIN, bootstrap_measures

    flat, K, lead = _checked(tables, n_levels)
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    if np.any(flat != np.round(flat)):
        raise ValueError("tables must hold counts that are whole numbers to be resampled")
    pad = None if pad is None else as_nonnegative(pad, "pad")
    B = as_size(n_boot, "n_boot", least=2)
    chunk = as_size(chunk, "chunk", least=1)
    gen = as_rng(rng)
    names = NAMES + MEASURES[len(PLUGIN):]
    est = np.full((len(flat), len(names)), np.nan)
    lower, upper, se = (np.full_like(est, np.nan) for _ in range(3))
    where = [NAMES.index(k) for k in PLUGIN] + list(range(len(NAMES), len(names)))
    ok = (flat.sum(-1) > 0).all(-1)
    for k in np.unique(K):
        idx = np.flatnonzero((K == k) & ok)
        p = 1.0 / (2 * k) if pad is None else float(pad)
        for s in range(0, idx.size, chunk):
            part = idx[s:s + chunk]
            b = bootstrap_measures(flat[part][..., : 2 * k], n_boot=B, level=level, pad=p,
                                   rng=gen)
            est[np.ix_(part, where)] = b.estimate
            est[part, len(PLUGIN):len(NAMES)] = _extra(flat[part][..., : 2 * k], int(k), p)
            lower[np.ix_(part, where)] = b.lower
            upper[np.ix_(part, where)] = b.upper
            se[np.ix_(part, where)] = b.se
            _oskr_interval(flat[part][..., : 2 * k], B, level, gen, lower, upper, part)

    def back(x):
        return x.reshape(lead + (len(names),))

    return DatabaseMeasures(names=names, estimate=back(est), lower=back(lower),
                            upper=back(upper), se=back(se), n_boot=B)


def _oskr_interval(t, B, level, gen, lower, upper, part):
    """Percentile interval of OSKR of correctness (all trials resampled) into lower/upper."""
    import warnings

    from ..oskr import correctness_table, oskr_ci_from_table

    ct = correctness_table(t)
    varies = (ct.sum(-1) > 0).all(-1)  # correct and wrong trials both present: H(T) > 0
    if not varies.any():
        return
    j = NAMES.index("oskr")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lo, hi = oskr_ci_from_table(ct[varies], n_boot=B, level=level, rng=gen)
    lower[part[varies], j] = lo
    upper[part[varies], j] = hi


def merge_levels(tables, n_levels, which: str):
    """Remove the highest or the lowest confidence criterion: K levels become K − 1.

    ``which="top"`` merges the two highest confidence levels of each response (more ratings
    at the new top level: higher metacognitive bias); ``"bottom"`` merges the two lowest (lower
    bias). The trials and the Type 1 responses are unchanged.

    Parameters
    ----------
    tables : array_like, shape (P, ..., 2, M)
        Padded tables as :func:`database_measures`.
    n_levels : array_like of int, shape (P,)
        K of each participant, at least 3.
    which : {"top", "bottom"}

    Returns
    -------
    tables : ndarray, shape (P, ..., 2, M)
        The merged tables, padded the same way.
    n_levels : ndarray of int, shape (P,)
        K − 1.

    Raises
    ------
    ValueError
        For an unknown ``which``, or K < 3.

    References
    ----------
    Xue, Shekhar & Rahnev (2021), *Consciousness and Cognition*, 103196.

    Examples
    --------
    >>> t, K = merge_levels(np.array([[[5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5]]]), [3], "top")
    >>> t.tolist(), K.tolist()
    ([[[9, 3, 2, 1, 0, 0], [1, 2, 3, 9, 0, 0]]], [2])
    >>> merge_levels(np.array([[[5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5]]]), [3], "bottom")[0].tolist()
    [[[5, 7, 3, 0, 0, 0], [0, 3, 7, 5, 0, 0]]]
    """
    which = as_choice(which, ("top", "bottom"), "which")
    flat, K, lead = _checked(tables, n_levels)
    if K.min() < 3:
        raise ValueError(f"n_levels must be >= 3 to merge two levels (K >= 3); got "
                         f"{int(K.min())}")
    out = np.zeros_like(flat)
    for k in np.unique(K):
        idx = np.flatnonzero(K == k)
        t = flat[idx]
        s1, s2 = t[..., :k][..., ::-1], t[..., k:2 * k]  # each from lowest to highest confidence
        if which == "top":
            s1 = np.concatenate([s1[..., :k - 2], s1[..., k - 2:].sum(-1, keepdims=True)], -1)
            s2 = np.concatenate([s2[..., :k - 2], s2[..., k - 2:].sum(-1, keepdims=True)], -1)
        else:
            s1 = np.concatenate([s1[..., :2].sum(-1, keepdims=True), s1[..., 2:]], -1)
            s2 = np.concatenate([s2[..., :2].sum(-1, keepdims=True), s2[..., 2:]], -1)
        merged = np.concatenate([s1[..., ::-1], s2], -1)
        out[idx, :, : 2 * (k - 1)] = merged
    dtype = np.asarray(tables).dtype
    return (out.reshape(lead + flat.shape[-2:]).astype(dtype),
            (np.asarray(n_levels) - 1).astype(np.asarray(n_levels).dtype))


def _per_person(a, b, groups, name_a: str, name_b: str):
    """Two arrays of one value per participant (NaN or infinity: undefined, left out) and the
    group codes 0, 1, …."""
    def one(x, name):
        arr = np.asarray(x) if not isinstance(x, (str, bytes)) else np.asarray([x])
        if arr.dtype.kind == "O":
            try:
                arr = arr.astype(float)
            except (TypeError, ValueError):
                raise ValueError(f"{name} must be numbers (one per participant)") from None
        if arr.dtype.kind not in "iuf":
            raise ValueError(f"{name} must be numbers (one per participant); got values of "
                             f"type {arr.dtype}")
        arr = arr.astype(float)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"{name} must be a non-empty 1-D array of one value per "
                             f"participant; got shape {arr.shape}")
        return arr

    a, b = one(a, name_a), one(b, name_b)
    as_same_length(a, b, f"{name_a} and {name_b}")
    if groups is None:
        return a, b, np.zeros(len(a), dtype=np.int64)
    g, _ = as_categories(groups, "groups")
    as_same_length(a, g, f"{name_a} and groups")
    return a, b, g


def paired_cohens_d(a, b, groups=None):
    """Cohen's d of paired differences b − a (mean over SD), per group of participants.

    Parameters
    ----------
    a, b : array_like, shape (P,)
        One value per participant in two conditions; pairs with a NaN (or an infinity: an
        undefined measure) are left out.
    groups : array_like, shape (P,), optional
        Group (data set) of each participant; default one group.

    Returns
    -------
    ndarray, shape (G,)
        d of each group in the order of ``np.unique(groups)``; NaN for a group with fewer than
        three complete pairs or no variation in the differences.

    Raises
    ------
    ValueError
        For values that are not numbers, not one-dimensional or empty, or ``a``, ``b`` and
        ``groups`` of different lengths.

    Examples
    --------
    >>> paired_cohens_d([1, 2, 3, 4], [2, 4, 4, 6]).round(3).tolist()
    [2.598]
    """
    a, b, g = _per_person(a, b, groups, "a", "b")
    out = np.full(g.max() + 1 if len(g) else 0, np.nan)
    diff = b - a
    for i in range(len(out)):
        x = diff[(g == i) & np.isfinite(diff)]
        if len(x) >= 3 and x.std(ddof=1) > 0:
            out[i] = x.mean() / x.std(ddof=1)
    return out


def group_correlations(x, y, groups=None, min_size: int = 10):
    """Pearson correlation of x and y across the participants of each group.

    Parameters
    ----------
    x, y : array_like, shape (P,)
        Pairs with a NaN or an infinity are left out.
    groups : array_like, shape (P,), optional
        Group (data set) of each participant; default one group.
    min_size : int, default 10
        Groups with fewer complete pairs give NaN; at least 3.

    Returns
    -------
    ndarray, shape (G,)
        r of each group in the order of ``np.unique(groups)``.

    Raises
    ------
    ValueError
        As :func:`paired_cohens_d`, and for a ``min_size`` that is not an integer >= 3.

    Examples
    --------
    >>> x = np.arange(20.0)
    >>> group_correlations(x, 2 * x + 1, np.repeat([0, 1], 10)).tolist()
    [1.0, 1.0]
    """
    x, y, g = _per_person(x, y, groups, "x", "y")
    min_size = as_int(min_size, "min_size", least=3)
    out = np.full(g.max() + 1 if len(g) else 0, np.nan)
    for i in range(len(out)):
        m = (g == i) & np.isfinite(x) & np.isfinite(y)
        if m.sum() >= min_size and x[m].std() > 0 and y[m].std() > 0:
            out[i] = float(np.corrcoef(x[m], y[m])[0, 1])
    return out


def _measure_names(names) -> tuple:
    """A non-empty sequence of measures from :data:`NAMES`."""
    if isinstance(names, str) or not isinstance(names, (tuple, list, np.ndarray)) \
            or not len(names):
        raise ValueError(f"names must be a non-empty sequence of measure names from {NAMES}; "
                         f"got {names!r}")
    return tuple(as_choice(k, NAMES, "measure") for k in names)


def split_half(db, bin_size: int, names=METACOGNITION, min_people: int = 10):
    """Split-half reliability of every measure at a bin size, per data set.

    Each participant's first ``2 * bin_size`` trials are split into odd- and even-numbered
    trials (``bin_size`` trials each); a measure's reliability in a data set is the Pearson
    correlation, across its participants with at least ``2 * bin_size`` trials, of the measure
    on the two halves (no Spearman–Brown correction).

    Parameters
    ----------
    db : ConfidenceDatabase
        The shipped copy (:func:`metabits.studies.confidence_database.confidence_database`).
    bin_size : int
        Trials per half.
    names : sequence of str, default :data:`METACOGNITION`
        The measures (from :data:`NAMES`).
    min_people : int, default 10
        Data sets with fewer participants (with enough trials and both halves defined) give NaN;
        at least 3.

    Returns
    -------
    ndarray, shape (len(db.names), len(names))
        r per data set (rows in the order of ``db.names``) and measure; all NaN when nobody has
        ``2 * bin_size`` trials.

    Raises
    ------
    ValueError
        For a ``db`` that is not a :class:`ConfidenceDatabase`, a bin size that is not a
        positive integer (at most :data:`metabits._validate.MAX_SIZE`), ``names`` that are not
        a non-empty sequence of measures, or a ``min_people`` that is not an integer >= 3.
    """
    from .confidence_database import ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    n = as_size(bin_size, "bin_size", least=1)
    cols = [NAMES.index(k) for k in _measure_names(names)]
    min_people = as_int(min_people, "min_people", least=3)
    enough = db.n_trials >= 2 * n
    out = np.full((len(db.names), len(cols)), np.nan)
    if not enough.any():
        return out  # nobody has 2 * bin_size trials
    odd = db.tables(half="odd", first=2 * n)[enough]
    even = db.tables(half="even", first=2 * n)[enough]
    both = np.stack([odd, even], axis=1)
    est = database_measures(both, db.n_levels[enough]).estimate[..., cols]
    sets = db.dataset[enough]
    for i in range(len(db.names)):
        m = sets == i
        for j in range(len(cols)):
            out[i, j] = group_correlations(est[m, 0, j], est[m, 1, j],
                                           min_size=min_people)[0] if m.any() else np.nan
    return out


#: Rahnev's (2025) bin sizes for split-half reliability used here (trials per half).
BIN_SIZES = (50, 100, 200, 400)


@dataclass(frozen=True)
class Criteria(Result):
    """Results of :func:`rahnev_criteria`: one value per measure (arrays over ``names``).

    Attributes
    ----------
    names : tuple of str
        The measures (:data:`METACOGNITION`).
    task_within : ndarray
        Dependence on task performance within people: Cohen's d of the paired difference
        easiest − hardest difficulty level, averaged over the data sets with a difficulty
        manipulation (:data:`~metabits.studies.confidence_database.DIFFICULTY`).
    task_across : ndarray
        Correlation with d′ across the people of a data set, averaged over data sets.
    response_bias : ndarray
        Correlation with the absolute criterion, abs(c), across people, averaged over data sets.
    metacognitive_bias : ndarray
        Cohen's d of the paired difference between removing the highest and removing the lowest
        confidence criterion (:func:`merge_levels`), averaged over the data sets with K >= 3.
    split_half : ndarray, shape (len(BIN_SIZES), len(names))
        Split-half reliability (:func:`split_half`) averaged over data sets, per bin size.
    bin_sizes : tuple of int
    n_sets : dict
        Data sets averaged for each criterion.
    """

    names: tuple
    task_within: np.ndarray
    task_across: np.ndarray
    response_bias: np.ndarray
    metacognitive_bias: np.ndarray
    split_half: np.ndarray
    bin_sizes: tuple
    n_sets: dict


def _mean_over_sets(values):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=0)


def rahnev_criteria(db, bin_sizes=BIN_SIZES, min_people: int = 10) -> Criteria:
    """Rahnev's (2025) criteria for every measure of :data:`METACOGNITION` on the shipped copy.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits.studies.confidence_database.confidence_database`.
    bin_sizes : sequence of int, default :data:`BIN_SIZES`
        Trials per half for the split-half reliability.
    min_people : int, default 10
        Data sets with fewer participants (with defined values) are left out of a correlation;
        at least 3.

    Returns
    -------
    Criteria
        A criterion without a data set to average (a copy without a difficulty manipulation,
        or with two confidence levels only) is NaN, with 0 in ``n_sets``.

    Raises
    ------
    ValueError
        For a ``db`` that is not a :class:`ConfidenceDatabase`, ``bin_sizes`` that are not a
        non-empty sequence of positive integers, or a ``min_people`` that is not an integer
        >= 3.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16 (the criteria; his exact procedures are described
    in the book's chapter, with what differs here); Xue, Shekhar & Rahnev (2021).
    """
    from .confidence_database import DIFFICULTY, ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    if isinstance(bin_sizes, str) or not isinstance(bin_sizes, (tuple, list, np.ndarray)) \
            or not len(bin_sizes):
        raise ValueError(f"bin_sizes must be a non-empty sequence of bin sizes (trials per "
                         f"half); got {bin_sizes!r}")
    bin_sizes = tuple(as_size(n, "bin_sizes", least=1) for n in bin_sizes)
    min_people = as_int(min_people, "min_people", least=3)
    cols = [NAMES.index(k) for k in METACOGNITION]
    whole = database_measures(db.tables(), db.n_levels).estimate
    d_prime, c = whole[:, NAMES.index("d_prime")], whole[:, NAMES.index("c")]
    sets = db.dataset
    across = np.array([group_correlations(whole[:, j], d_prime, sets, min_people)
                       for j in cols]).T
    bias = np.array([group_correlations(whole[:, j], np.abs(c), sets, min_people)
                     for j in cols]).T
    # within people over difficulty levels: easiest against hardest level of each participant
    diff_sets = [db.names.index(n) for n in DIFFICULTY if n in db.names]
    people = np.flatnonzero(np.isin(sets, diff_sets))
    within = np.full((0, len(cols)), np.nan)  # a copy without a difficulty manipulation
    if people.size:
        by = db.tables(by_difficulty=True)[people]
        levels = by.sum(axis=(2, 3)) > 0
        hardest = levels.argmax(axis=1)
        easiest = levels.shape[1] - 1 - levels[:, ::-1].argmax(axis=1)
        ends = np.stack([by[np.arange(len(people)), hardest],
                         by[np.arange(len(people)), easiest]], 1)
        est = database_measures(ends, db.n_levels[people]).estimate
        within = np.array([paired_cohens_d(est[:, 0, j], est[:, 1, j], sets[people])
                           for j in cols]).T
    # metacognitive bias: remove the highest against the lowest criterion (K >= 3)
    many = np.flatnonzero(db.n_levels >= 3)
    meta = np.full((0, len(cols)), np.nan)  # a copy of two-level scales only
    if many.size:
        t = db.tables()[many]
        top, K1 = merge_levels(t, db.n_levels[many], "top")
        bottom, _ = merge_levels(t, db.n_levels[many], "bottom")
        e_top = database_measures(top, K1).estimate
        e_bottom = database_measures(bottom, K1).estimate
        meta = np.array([paired_cohens_d(e_bottom[:, j], e_top[:, j], sets[many])
                         for j in cols]).T
    halves = np.array([_mean_over_sets(split_half(db, n, min_people=min_people))
                       for n in bin_sizes])
    n_sets = {"task_within": int(np.isfinite(within[:, 0]).sum()),
              "task_across": int(np.isfinite(across[:, 0]).sum()),
              "response_bias": int(np.isfinite(bias[:, 0]).sum()),
              "metacognitive_bias": int(np.isfinite(meta[:, 0]).sum())}
    return Criteria(names=METACOGNITION, task_within=_mean_over_sets(within),
                    task_across=_mean_over_sets(across), response_bias=_mean_over_sets(bias),
                    metacognitive_bias=_mean_over_sets(meta), split_half=halves,
                    bin_sizes=tuple(int(n) for n in bin_sizes), n_sets=n_sets)


#: The shipped precomputed criteria (``metabits/data``), rebuilt by :func:`write_criteria`.
SHIPPED_CRITERIA = "confidence_database_criteria.csv"


def criteria_frame(criteria: Criteria):
    """:class:`Criteria` as a pandas.DataFrame, one row per measure (columns: the criteria,
    ``split_half_<n>`` per bin size)."""
    import pandas as pd

    as_instance(criteria, Criteria, "criteria", "rahnev_criteria()")
    out = pd.DataFrame({"measure": list(criteria.names),
                        "task_within": criteria.task_within,
                        "task_across": criteria.task_across,
                        "response_bias": criteria.response_bias,
                        "metacognitive_bias": criteria.metacognitive_bias})
    for n, row in zip(criteria.bin_sizes, criteria.split_half):
        out[f"split_half_{n}"] = row
    return out


def write_criteria(db, path) -> None:
    """Recompute :func:`rahnev_criteria` on ``db`` and write it as the shipped CSV ``path``.

    The rule behind ``metabits/data/confidence_database_criteria.csv`` (the chapter reads the
    file instead of spending about 20 s recomputing it; the tests recompute and compare).
    A ``path`` that is a folder or lies in no existing folder is refused (ValueError) before
    anything is computed.
    """
    from .._validate import as_path

    path = as_path(path, "path")
    if path.is_dir() or not path.parent.is_dir():
        raise ValueError(f"path must name a file in an existing folder; got {str(path)!r}")
    frame = criteria_frame(rahnev_criteria(db))
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("# Rahnev's (2025) criteria on the shipped Confidence Database copy, from "
                "metabits.studies.database_measures.write_criteria (scripts/"
                "build_confidence_database.py)\n")
        frame.to_csv(f, index=False, float_format="%.12g", lineterminator="\n")


def shipped_criteria():
    """The shipped :func:`rahnev_criteria` of the Confidence Database copy (a pandas.DataFrame,
    as :func:`criteria_frame`).

    Examples
    --------
    >>> c = shipped_criteria()
    >>> c.measure.tolist() == list(METACOGNITION), "split_half_100" in c
    (True, True)
    """
    import pandas as pd
    from importlib.resources import files

    with files("metabits").joinpath("data", SHIPPED_CRITERIA).open("r", encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")
