"""Trials into count tables: one table per group of trials, in the library's table convention."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_int_array, as_same_length, as_size, as_trial_values
from metabits.validation._scalars import as_column_names

__all__ = ["TrialCounts", "count_tables"]


@dataclass(frozen=True)
class TrialCounts(Result):
    """Results of :func:`count_tables`; also a mapping.

    Attributes
    ----------
    counts : ndarray of int, shape (n_1, ..., n_g, 2, 2K)
        One count table per combination of the grouping columns, in the library's table
        convention (:mod:`metabits.validation`): row 0 the stimulus S1, row 1 S2; columns from
        "S1, most confident" to "S2, most confident".
    by : tuple of str
        The grouping columns, one per leading axis of ``counts`` (empty when pooled).
    levels : tuple of ndarray
        The sorted values of each grouping column: ``counts[i, j]`` belongs to
        ``levels[0][i]``, ``levels[1][j]``.
    """

    counts: np.ndarray
    by: tuple
    levels: tuple


def count_tables(trials, by=(), *, stimulus: str = "stimulus", response: str = "response",
                 rating: str = "rating", stimuli=(0, 1), n_ratings: int) -> TrialCounts:
    """Turn trials (one row each) into count tables: by participant, by condition, or pooled.

    A trial with stimulus ``s``, response ``r`` and confidence rating ``k`` (0 = lowest,
    ``n_ratings - 1`` = highest) is counted in row ``s`` (S1 = ``stimuli[0]``, S2 =
    ``stimuli[1]``) and in column ``K - 1 - k`` if ``r`` is S1, ``K + k`` if ``r`` is S2
    (K = ``n_ratings``): the columns run from "S1, most confident" to "S2, most confident".

    Parameters
    ----------
    trials : pandas.DataFrame or mapping of column name to 1-D array
        One row per trial (e.g. a data set of the Confidence Database, read by
        :func:`read_confidence_database`).
    by : str or sequence of str, default ()
        Grouping columns, one axis of the result each; ``()`` pools all trials into one table.
    stimulus, response, rating : str
        The columns with the stimulus shown, the response given and the confidence rating.
    stimuli : pair, default (0, 1)
        The values of S1 and S2 in the stimulus and response columns.
    n_ratings : int
        Number K of confidence levels; ratings are the integers 0 .. K − 1.

    Returns
    -------
    TrialCounts
        ``counts`` of shape ``(n_1, ..., n_g, 2, 2K)`` with one axis per grouping column, ``by``
        and the sorted ``levels`` of each grouping column. A combination without trials gets a
        table of zeros.

    Raises
    ------
    ValueError
        For a missing column, a stimulus or response other than the two ``stimuli``, a rating
        that is not an integer in 0 .. K − 1, or columns of different lengths.

    References
    ----------
    The column order is the ``nR_S1`` / ``nR_S2`` layout of Maniscalco & Lau (2012) and Meyen
    et al. (2025), Table 1.

    Examples
    --------
    >>> trials = {"stimulus": [0, 0, 90, 90, 90], "response": [0, 90, 90, 90, 0],
    ...           "rating": [4, 0, 1, 4, 2]}
    >>> count_tables(trials, stimuli=(0, 90), n_ratings=5).counts.tolist()
    [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 1, 0, 0, 1]]
    >>> trials["who"] = ["a", "a", "b", "b", "b"]
    >>> t = count_tables(trials, by="who", stimuli=(0, 90), n_ratings=5)
    >>> t.counts.shape, t.levels[0].tolist()
    ((2, 2, 10), ['a', 'b'])
    """
    K = as_size(n_ratings, "n_ratings", least=1)
    by = as_column_names(by)
    if not isinstance(stimuli, (list, tuple, np.ndarray)) or len(stimuli) != 2 \
            or stimuli[0] == stimuli[1]:
        raise ValueError(f"stimuli must be two different values (S1, S2); got {stimuli!r}")

    def column(name):
        try:
            return np.asarray(trials[name])
        except (KeyError, IndexError, TypeError):
            raise ValueError(f"trials have no column {name!r}") from None

    s = as_trial_values(column(stimulus), stimuli, f"stimulus column {stimulus!r}")
    r = as_trial_values(column(response), stimuli, f"response column {response!r}")
    k = as_int_array(column(rating), f"rating column {rating!r}", least=0, most=K - 1)
    as_same_length(s, r, "stimulus and response")
    as_same_length(s, k, "stimulus and rating")
    col = np.where(r == 0, K - 1 - k, K + k)
    codes, levels = [], []
    for name in by:
        values = column(name)
        as_same_length(values, s, f"{name!r} and stimulus")
        level, code = np.unique(values, return_inverse=True)
        codes.append(code.ravel())
        levels.append(level)
    shape = tuple(len(v) for v in levels) + (2, 2 * K)
    flat = np.ravel_multi_index(tuple(codes) + (s, col), shape)
    counts = np.bincount(flat, minlength=int(np.prod(shape))).reshape(shape)
    return TrialCounts(counts=counts.astype(np.int64), by=by, levels=tuple(levels))
