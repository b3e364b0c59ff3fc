"""Meyen et al.'s optimal recoding of predictions on observed tables (Assumptions 4 and 8).

The information measures assume Bayes predictions: every response predicts the label that is
more probable given it (Assumption 4; Assumption 8 for L labels). On a count table the estimate
therefore reads each response column's *more frequent* row as its prediction
(:func:`metabits.info.response_table`), whatever the person actually answered. Where a column's own
label is the less frequent one — a *majority-wrong* response category, e.g. "vertical, low
confidence" given mostly to horizontal gratings — the measures silently recode it, and the
accuracy they work with (the recoded accuracy, the mean of the column maxima) exceeds the
accuracy the person reached.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_count_table, scalar_or_array

__all__ = ["Recoding", "recoding"]


@dataclass(frozen=True)
class Recoding(Result):
    """Results of :func:`recoding`; also a mapping. Floats for one table, arrays for a stack.

    Attributes
    ----------
    acc_reached : float or ndarray
        Proportion of trials whose response (the first K columns answer S1, the last K S2)
        matches the stimulus.
    acc_recoded : float or ndarray
        Accuracy after recoding every column to its more frequent label: the accuracy the
        information measures use (:func:`metabits.type2_measures`' ``acc``).
    majority_wrong : ndarray of bool, shape (..., 2K)
        Columns whose own label is strictly less frequent than the other one.
    n_majority_wrong : int or ndarray
        Number of such columns per table.
    share_recoded : float or ndarray
        Proportion of the trials that lie in majority-wrong columns.
    """

    acc_reached: object
    acc_recoded: object
    majority_wrong: np.ndarray
    n_majority_wrong: object
    share_recoded: object


def recoding(counts) -> Recoding:
    """How Meyen et al.'s Bayes-prediction recoding changes an observed table.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention (rows S1, S2; the first K columns are "S1"
        responses, from most confident, the last K "S2" responses, to most confident).

    Returns
    -------
    Recoding
        ``acc_reached``, ``acc_recoded`` (never below ``acc_reached``; equal when no column is
        majority-wrong), ``majority_wrong``, ``n_majority_wrong``, ``share_recoded``.

    Raises
    ------
    ValueError
        For a table that is not a valid count table.

    References
    ----------
    Meyen et al. (2025), Assumptions 4 and 8 (Bayes predictions) and the estimation of Table 2
    ("the highest relative frequency per column divided by the marginals").

    Examples
    --------
    A low-confidence "S2" column answered mostly to S1 stimuli is recoded to S1:

    >>> r = recoding([[50, 20, 30, 0], [5, 10, 15, 70]])
    >>> r.majority_wrong.tolist(), round(r.acc_reached, 3), round(r.acc_recoded, 3)
    ([False, False, True, False], 0.775, 0.85)
    """
    t = as_count_table(counts)
    K = t.shape[-1] // 2
    n = t.sum(axis=(-2, -1))
    own = np.concatenate([t[..., 0, :K], t[..., 1, K:]], axis=-1)
    other = np.concatenate([t[..., 1, :K], t[..., 0, K:]], axis=-1)
    wrong = other > own
    return Recoding(acc_reached=scalar_or_array(own.sum(-1) / n),
                    acc_recoded=scalar_or_array(np.maximum(own, other).sum(-1) / n),
                    majority_wrong=wrong,
                    n_majority_wrong=scalar_or_array(wrong.sum(-1)) if wrong.ndim > 1
                    else int(wrong.sum()),
                    share_recoded=scalar_or_array(np.where(wrong, own + other, 0).sum(-1) / n))
