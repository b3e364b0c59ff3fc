"""Rahnev's (2025) criteria for measures of metacognition, on the Confidence Database copy.

The statistics of the criteria — :func:`metabits.reliability.paired_cohens_d` (a within-person effect as
Cohen's d of paired differences), :func:`metabits.reliability.group_correlations` (correlations
across the people of each data set) and :func:`split_half` (split-half reliability, odd- against even-numbered trials, at a bin
size) — and :func:`rahnev_criteria`, which applies them to every measure of
:func:`metabits_book.studies.database_measures.database_measures` on the shipped copy:
dependence on task performance and on response and metacognitive bias (confidence criteria
removed with :func:`metabits.io.merge_levels`), and split-half
reliability. The book ships these criteria for all 22 measures, with bootstrap intervals, from
:mod:`metabits_book.studies.database_assessment`.
:func:`task_effect` adds a bootstrap interval over people to one measure's dependence on task
performance.

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (the criteria);
Xue, Shekhar & Rahnev (2021), *Consciousness and Cognition*, 103196 (criterion removal);
Efron & Tibshirani (1993), *An Introduction to the Bootstrap* (the BCa interval).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.io import merge_levels
from metabits.reliability import group_correlations, paired_cohens_d
from metabits.results import Result
from metabits.validation import as_choice, as_int, as_size
from metabits_book._arguments import as_instance
from metabits_book.studies.database_measures import (ALL_NAMES, EVERY_MEASURE, METACOGNITION,
                                                     RAHNEV, database_measures)

__all__ = ["BIN_SIZES", "Criteria", "TaskEffect", "criteria_frame", "rahnev_criteria",
           "split_half", "task_effect"]


def _measure_names(names) -> tuple:
    """A non-empty sequence of measures from
    :data:`~metabits_book.studies.database_measures.ALL_NAMES`."""
    if isinstance(names, str) or not isinstance(names, (tuple, list, np.ndarray)) \
            or not len(names):
        raise ValueError(f"names must be a non-empty sequence of measure names from "
                         f"{ALL_NAMES}; got {names!r}")
    return tuple(as_choice(k, ALL_NAMES, "measure") for k in names)


def _measures(tables, n_levels, names) -> np.ndarray:
    """:func:`database_measures` of ``tables``, the columns ``names`` (checked) last: shape
    (P, ..., len(names)); Rahnev's measures (and their model fits) only when asked for."""
    names = _measure_names(names)
    every = any(k in RAHNEV for k in names)
    est = database_measures(tables, n_levels, measures="all" if every else "default").estimate
    return est[..., [ALL_NAMES.index(k) for k in names]]


def split_half(db, bin_size: int, names=METACOGNITION, min_people: int = 10,
               all_trials: bool = False):
    """Split-half reliability of every measure at a bin size, per data set.

    Each participant's first ``2 * bin_size`` trials are split into odd- and even-numbered
    trials (``bin_size`` trials each); a measure's reliability in a data set is the Pearson
    correlation, across its participants with at least ``2 * bin_size`` trials, of the measure
    on the two halves (no Spearman–Brown correction: :func:`metabits.reliability.spearman_brown`).

    Parameters
    ----------
    db : ConfidenceDatabase
        The shipped copy (:func:`metabits_book.studies.database_copy.confidence_database`).
    bin_size : int
        Trials per half.
    names : sequence of str, default :data:`~metabits_book.studies.database_measures.METACOGNITION`
        The measures (from :data:`~metabits_book.studies.database_measures.ALL_NAMES`).
    min_people : int, default 10
        Data sets with fewer participants (with enough trials and both halves defined) give NaN;
        at least 3.
    all_trials : bool, default False
        Split all of each participant's trials into odd and even ones, not only the first
        ``2 * bin_size`` (the same participants: those with at least ``2 * bin_size`` trials).

    Returns
    -------
    ndarray, shape (len(db.names), len(names))
        r per data set (rows in the order of ``db.names``) and measure; all NaN when nobody has
        ``2 * bin_size`` trials.

    Raises
    ------
    ValueError
        For a ``db`` that is not a
        :class:`~metabits_book.studies.database_copy.ConfidenceDatabase`, a bin size that is not a
        positive integer (at most :data:`metabits.validation.MAX_SIZE`), ``names`` that are not
        a non-empty sequence of measures, a ``min_people`` that is not an integer >= 3, or an
        ``all_trials`` that is not True or False.
    """
    from metabits.validation import as_flag
    from metabits_book.studies.database_copy import ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    n = as_size(bin_size, "bin_size", least=1)
    names = _measure_names(names)
    min_people = as_int(min_people, "min_people", least=3)
    all_trials = as_flag(all_trials, "all_trials")
    enough = db.n_trials >= 2 * n
    out = np.full((len(db.names), len(names)), np.nan)
    if not enough.any():
        return out  # nobody has 2 * bin_size trials
    first = None if all_trials else 2 * n
    odd = db.tables(half="odd", first=first)[enough]
    even = db.tables(half="even", first=first)[enough]
    both = np.stack([odd, even], axis=1)
    est = _measures(both, db.n_levels[enough], names)
    sets = db.dataset[enough]
    out[np.unique(sets)] = group_correlations(est[:, 0], est[:, 1], sets, min_people)
    return out


#: Rahnev's (2025) bin sizes for split-half reliability used here (trials per half).
BIN_SIZES = (50, 100, 200, 400)


@dataclass(frozen=True)
class Criteria(Result):
    """Results of :func:`rahnev_criteria`: one value per measure (arrays over ``names``).

    Attributes
    ----------
    names : tuple of str
        The measures (:data:`~metabits_book.studies.database_measures.METACOGNITION`).
    task_within : ndarray
        Dependence on task performance within people: Cohen's d of the paired difference
        easiest − hardest difficulty level, averaged over the data sets with a difficulty
        manipulation (:data:`~metabits_book.studies.database_copy.DIFFICULTY`).
    task_across : ndarray
        Correlation with d′ across the people of a data set, averaged over data sets.
    response_bias : ndarray
        Correlation with the absolute criterion, abs(c), across people, averaged over data sets.
    metacognitive_bias : ndarray
        Cohen's d of the paired difference between removing the highest and removing the lowest
        confidence criterion (:func:`metabits.io.merge_levels`),
        averaged over the data sets with K >= 3.
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


def _hardest_and_easiest(db, names):
    """The participants of the data sets of
    :data:`~metabits_book.studies.database_copy.DIFFICULTY` (indices) and the measures
    ``names`` on their hardest and easiest difficulty level (shape (people, 2, len(names)))."""
    from metabits_book.studies.database_copy import DIFFICULTY

    diff_sets = [db.names.index(n) for n in DIFFICULTY if n in db.names]
    people = np.flatnonzero(np.isin(db.dataset, diff_sets))
    if not people.size:
        return people, np.full((0, 2, len(names)), np.nan)
    by = db.tables(by_difficulty=True)[people]
    levels = by.sum(axis=(2, 3)) > 0
    hardest = levels.argmax(axis=1)
    easiest = levels.shape[1] - 1 - levels[:, ::-1].argmax(axis=1)
    ends = np.stack([by[np.arange(len(people)), hardest],
                     by[np.arange(len(people)), easiest]], 1)
    return people, _measures(ends, db.n_levels[people], names)


def _criterion(db, part, names, min_people):
    """One part of :func:`rahnev_criteria` (a separate task for a process pool): ``"whole"``
    (correlations with d′ and abs(c) across people, per data set, shape (2, sets, measures)),
    ``"within"`` and ``"meta"`` (Cohen's d per data set, (sets, measures)), or a bin size
    (split-half r averaged over data sets, (measures,))."""
    if part == "whole":
        est = _measures(db.tables(), db.n_levels, names + ("d_prime", "c"))
        m, n = est[:, :-2], len(names)
        d_prime, c = np.repeat(est[:, -2:-1], n, 1), np.repeat(np.abs(est[:, -1:]), n, 1)
        return np.stack([group_correlations(m, d_prime, db.dataset, min_people),
                         group_correlations(m, c, db.dataset, min_people)])
    if part == "within":  # easiest against hardest difficulty level of each participant
        people, est = _hardest_and_easiest(db, names)
        if not people.size:  # a copy without a difficulty manipulation
            return np.full((0, len(names)), np.nan)
        return paired_cohens_d(est[:, 0], est[:, 1], db.dataset[people])
    if part == "meta":  # remove the highest against the lowest criterion (K >= 3)
        many = np.flatnonzero(db.n_levels >= 3)
        if not many.size:  # a copy of two-level scales only
            return np.full((0, len(names)), np.nan)
        t = db.tables()[many]
        top, K1 = merge_levels(t, db.n_levels[many], "top")
        bottom, _ = merge_levels(t, db.n_levels[many], "bottom")
        e_top, e_bottom = _measures(top, K1, names), _measures(bottom, K1, names)
        return paired_cohens_d(e_bottom, e_top, db.dataset[many])
    return _mean_over_sets(split_half(db, part, names, min_people=min_people))


def rahnev_criteria(db, bin_sizes=BIN_SIZES, min_people: int = 10, names=METACOGNITION,
                    workers: int = 1) -> Criteria:
    """Rahnev's (2025) criteria for measures of metacognition on the shipped copy.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    bin_sizes : sequence of int, default :data:`BIN_SIZES`
        Trials per half for the split-half reliability.
    min_people : int, default 10
        Data sets with fewer participants (with defined values) are left out of a correlation;
        at least 3.
    names : sequence of str, default :data:`~metabits_book.studies.database_measures.METACOGNITION`
        The measures, from :data:`~metabits_book.studies.database_measures.ALL_NAMES`
        (:data:`~metabits_book.studies.database_measures.EVERY_MEASURE`: Rahnev's 17, Meyen et
        al.'s four and OSKR). Values that are not finite (an undefined measure; a meta-noise
        or meta-uncertainty whose likelihood still rises at the largest σ) are left out of
        every statistic.
    workers : int, default 1
        Processes that compute the criteria's parts (the whole copy, the difficulty levels, the
        merged criteria and each bin size) side by side; 1 computes them in this process.

    Returns
    -------
    Criteria
        A criterion without a data set to average (a copy without a difficulty manipulation,
        or with two confidence levels only) is NaN, with 0 in ``n_sets``.

    Raises
    ------
    ValueError
        For a ``db`` that is not a
        :class:`~metabits_book.studies.database_copy.ConfidenceDatabase`, ``bin_sizes`` that
        are not a non-empty sequence of positive integers, a ``min_people`` that is not an
        integer >= 3, unknown ``names``, or a ``workers`` that is not an integer from 1 to 64.

    References
    ----------
    Rahnev (2025), *Nature Communications* 16 (the criteria; his exact procedures are described
    in the book's chapter, with what differs here); Xue, Shekhar & Rahnev (2021).
    """
    from metabits_book.studies.database_copy import ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    if isinstance(bin_sizes, str) or not isinstance(bin_sizes, (tuple, list, np.ndarray)) \
            or not len(bin_sizes):
        raise ValueError(f"bin_sizes must be a non-empty sequence of bin sizes (trials per "
                         f"half); got {bin_sizes!r}")
    bin_sizes = tuple(as_size(n, "bin_sizes", least=1) for n in bin_sizes)
    min_people = as_int(min_people, "min_people", least=3)
    names = _measure_names(names)
    workers = as_int(workers, "workers", least=1, most=64)
    parts = ("whole", "within", "meta") + bin_sizes
    if workers == 1:
        done = [_criterion(db, part, names, min_people) for part in parts]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            done = list(pool.map(_criterion, [db] * len(parts), parts,
                                 [names] * len(parts), [min_people] * len(parts)))
    (across, bias), within, meta, halves = done[0], done[1], done[2], np.array(done[3:])
    n_sets = {"task_within": int(np.isfinite(within[:, 0]).sum()),
              "task_across": int(np.isfinite(across[:, 0]).sum()),
              "response_bias": int(np.isfinite(bias[:, 0]).sum()),
              "metacognitive_bias": int(np.isfinite(meta[:, 0]).sum())}
    return Criteria(names=names, task_within=_mean_over_sets(within),
                    task_across=_mean_over_sets(across), response_bias=_mean_over_sets(bias),
                    metacognitive_bias=_mean_over_sets(meta), split_half=halves,
                    bin_sizes=bin_sizes, n_sets=n_sets)


@dataclass(frozen=True)
class TaskEffect(Result):
    """Result of :func:`task_effect`: one measure's dependence on task performance within
    people, with a bootstrap interval over people.

    Attributes
    ----------
    name : str
        The measure.
    d : float
        Cohen's d of the paired difference easiest − hardest difficulty level, averaged over
        data sets (:attr:`Criteria.task_within` of the measure).
    lower, upper : float
        The bias-corrected and accelerated (BCa) bootstrap interval of ``d``.
    confidence : float
        Its level.
    sets : tuple of str
        The data sets averaged.
    by_set : ndarray, shape (len(sets),)
        d of each data set.
    n_people : ndarray of int, shape (len(sets),)
        People with the measure defined on both levels, per data set.
    n_resamples : int
    """

    name: str
    d: float
    lower: float
    upper: float
    confidence: float
    sets: tuple
    by_set: np.ndarray
    n_people: np.ndarray
    n_resamples: int


def task_effect(db, name: str = "m_ratio", confidence: float = 0.95,
                n_resamples: int = 10_000, rng=None) -> TaskEffect:
    """One measure's dependence on task performance within people, with a bootstrap interval.

    The statistic is :func:`rahnev_criteria`'s ``task_within`` for the measure: per data set of
    :data:`~metabits_book.studies.database_copy.DIFFICULTY`, Cohen's d of the paired
    difference between each person's easiest and hardest difficulty level
    (:func:`metabits.reliability.paired_cohens_d`), averaged over the data sets. Its interval resamples the people
    with replacement within each data set, independently across data sets
    (:func:`scipy.stats.bootstrap` with one sample of paired differences per data set), and
    recomputes the average: the bias-corrected and accelerated (BCa) interval of
    ``n_resamples`` resamples, which corrects the upward bias of Cohen's d in the small data
    sets (a percentile interval of a large d would lie mostly above it).

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    name : str, default "m_ratio"
        A measure of :data:`~metabits_book.studies.database_measures.EVERY_MEASURE`.
    confidence : float, default 0.95
        Level of the interval, in (0, 1).
    n_resamples : int, default 10000
        Bootstrap resamples (at least 2).
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    TaskEffect

    Raises
    ------
    ValueError
        For a ``db`` that is not a
        :class:`~metabits_book.studies.database_copy.ConfidenceDatabase` or has no data set
        with a difficulty manipulation and three people, an unknown measure, a ``confidence``
        outside (0, 1), an ``n_resamples`` < 2 or a bad ``rng``.

    References
    ----------
    Rahnev (2025) (the criterion); Efron & Tibshirani (1993), ch. 14 (the BCa interval).

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> r = task_effect(confidence_database(), "auroc2", n_resamples=200, rng=1)
    >>> bool(r.lower < r.d < r.upper), len(r.sets)
    (True, 13)
    """
    from scipy.stats import bootstrap

    from metabits.validation import as_probability, as_rng, as_scalar
    from metabits_book.studies.database_copy import ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    key = as_choice(name, EVERY_MEASURE, "name (a measure)")
    level = float(as_probability(as_scalar(confidence, "confidence"), "confidence",
                                 low_open=True, high_open=True))
    B = as_size(n_resamples, "n_resamples", least=2)
    gen = as_rng(rng)
    people, est = _hardest_and_easiest(db, (key,))
    diff = est[:, 1, 0] - est[:, 0, 0]
    groups = db.dataset[people]
    samples, sets = [], []
    for i in np.unique(groups):
        x = diff[(groups == i) & np.isfinite(diff)]
        if len(x) >= 3 and x.std(ddof=1) > 0:  # as paired_cohens_d
            samples.append(x)
            sets.append(db.names[i])
    if not samples:
        raise ValueError("db: no data set with a difficulty manipulation and three people "
                         "with the measure defined")

    def mean_d(*xs, axis=-1):
        return np.mean([x.mean(axis=axis) / x.std(axis=axis, ddof=1) for x in xs], axis=0)

    with np.errstate(invalid="ignore", divide="ignore"):
        res = bootstrap(tuple(samples), mean_d, n_resamples=B, confidence_level=level,
                        method="BCa", vectorized=True, rng=gen)
    by_set = np.array([x.mean() / x.std(ddof=1) for x in samples])
    return TaskEffect(name=key, d=float(by_set.mean()),
                      lower=float(res.confidence_interval.low),
                      upper=float(res.confidence_interval.high), confidence=level,
                      sets=tuple(sets), by_set=by_set,
                      n_people=np.array([len(x) for x in samples]), n_resamples=B)


def criteria_frame(criteria: Criteria):
    """:class:`Criteria` as a pandas.DataFrame, one row per measure.

    Parameters
    ----------
    criteria : Criteria
        A result of :func:`rahnev_criteria`.

    Returns
    -------
    pandas.DataFrame
        Columns ``measure``, ``task_within``, ``task_across``, ``response_bias``,
        ``metacognitive_bias`` and ``split_half_<n>`` per bin size n.

    Raises
    ------
    ValueError
        For ``criteria`` that is not a :class:`Criteria`.
    """
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
