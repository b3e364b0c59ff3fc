"""Formulas as Meyen et al. (2025) print them, beside the library's, for the book's comparisons."""

from __future__ import annotations

import numpy as np

from metabits.validation import as_member_rates, scalar_or_array

__all__ = ["theorem8_upper_as_printed"]


def theorem8_upper_as_printed(acc_pos, acc_neg, prior=0.5):
    """Theorem 8's upper bound exactly as the paper prints it,
    :math:`1 - \\prod_k(1 - acc_k)/p_+^{K-1}`.

    For comparison only: it equals the upper bound of
    :func:`metabits.group.group_accuracy_bounds` when :math:`p_+ \\ge 0.5` (the paper's
    Assumption 2) and is exceeded by RMI = 1 groups when
    :math:`p_+ < 0.5`.

    Parameters
    ----------
    acc_pos, acc_neg, prior
        As in :func:`metabits.group.group_accuracy_bounds`.

    Returns
    -------
    float or ndarray
        The printed upper bound.

    Raises
    ------
    ValueError
        As :func:`metabits.group.group_accuracy_bounds`.

    References
    ----------
    Meyen et al. (2025), Theorem 8.

    Examples
    --------
    >>> round(theorem8_upper_as_printed([0.5] * 3, [0.9] * 3, prior=0.3), 4)
    0.8817
    """
    tp, tn, p, acc = as_member_rates(acc_pos, acc_neg, prior)
    K = tp.shape[-1]
    return scalar_or_array(1.0 - np.prod(1.0 - acc, axis=-1) / p ** (K - 1))
