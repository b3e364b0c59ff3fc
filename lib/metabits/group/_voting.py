"""Majority voting (MV) and confidence weighted majority voting (CWMV): group accuracy from the
members' accuracies alone (Meyen et al., 2025, Assumptions 9–14; Figure 8b)."""

from __future__ import annotations

import numpy as np

from metabits.validation import as_accuracy, as_int_array, scalar_or_array

__all__ = ["cwmv_accuracy", "majority_vote_accuracy"]

#: CWMV and Theorem 8's lower bound enumerate 2**K prediction patterns
MAX_PATTERN_K = 20


def patterns_accuracy(tp, tn, p):
    """:math:`\\sum_{\\hat y \\in \\{\\pm1\\}^K}\\max\\{p_+P(\\hat y\\mid+), p_-P(\\hat y\\mid-)\\}`:
    the accuracy of the optimal group of members that report only their predictions, with true
    positive rates ``tp`` and true negative rates ``tn`` along the last axis (K ≤ 20)."""
    K = tp.shape[-1]
    if K > MAX_PATTERN_K:
        raise ValueError(f"enumerating 2**K patterns is limited to K <= {MAX_PATTERN_K}; "
                         f"got K = {K} (use pcwmv with min_group_member tables for larger groups)")
    plus = ((np.arange(2 ** K)[:, None] >> np.arange(K)) & 1).astype(bool)  # (2^K, K)
    tp, tn = tp[..., None, :], tn[..., None, :]
    given_pos = np.where(plus, tp, 1.0 - tp).prod(axis=-1)
    given_neg = np.where(plus, 1.0 - tn, tn).prod(axis=-1)
    return np.maximum(p * given_pos, (1.0 - p) * given_neg).sum(axis=-1)


def majority_vote_accuracy(acc, K):
    """Accuracy of majority voting among K members of equal accuracy ``acc`` (Assumptions 9–14).

    :math:`acc_{MV} = \\sum_{i > K/2}\\binom{K}{i} acc^i (1-acc)^{K-i}` for odd K.
    For even K a tie is broken by a fair coin, adding
    :math:`\\frac12\\binom{K}{K/2}acc^{K/2}(1-acc)^{K/2}`, which makes
    :math:`acc_{MV}(2m) = acc_{MV}(2m-1)` (the steps of Figure 8b). Broadcasts over ``acc``
    and ``K``.

    Parameters
    ----------
    acc : float or array_like
        Member accuracies in [0.5, 1] (Bayes predictions, Assumption 4).
    K : int or array_like of int
        Group sizes, 1 ≤ K ≤ 2⁵³.

    Returns
    -------
    float or ndarray
        The group accuracy.

    Raises
    ------
    ValueError
        For accuracies outside [0.5, 1] or K not a positive integer.

    References
    ----------
    Meyen et al. (2025), section "Relative Metainformation Improves Group Accuracy", Figure 8b.

    Examples
    --------
    >>> round(majority_vote_accuracy(0.7, 3), 3)   # Figure 8: binary noise, K = 3
    0.784
    """
    from scipy import stats  # imported here: slow to import

    acc, K = np.broadcast_arrays(as_accuracy(acc), as_int_array(K, "group size K"))
    half = K // 2
    tie = np.where(K % 2 == 0, 0.5 * stats.binom.pmf(half, K, acc), 0.0)
    return scalar_or_array(stats.binom.sf(half, K, acc) + tie)


def cwmv_accuracy(acc):
    """Accuracy of confidence weighted majority voting for members with accuracies ``acc``.

    The group votes with weights :math:`\\log\\frac{acc_k}{1-acc_k}` (Assumptions 10–14), and a
    tie is a fair coin. Enumerating the :math:`2^K` prediction patterns,

    .. math::

        \\begin{aligned}
        acc_{CWMV} = \\frac12 \\sum_{\\hat y\\in\\{\\pm1\\}^K} \\max\\Big\\{
            &\\prod_k acc_k^{[\\hat y_k=+1]} (1-acc_k)^{[\\hat y_k=-1]},\\\\
            &\\prod_k (1-acc_k)^{[\\hat y_k=+1]} acc_k^{[\\hat y_k=-1]}\\Big\\}
        \\end{aligned}

    (the max is missing in the formula as printed, which would always give 1/2). Equals the lower
    bound of Theorem 8 with equal priors; with equal accuracies it equals MV.

    Parameters
    ----------
    acc : array_like, shape (..., K)
        Member accuracies in [0.5, 1] along the last axis (K ≤ 20); leading axes are vectorised.

    Returns
    -------
    float or ndarray
        The group accuracy.

    Raises
    ------
    ValueError
        For accuracies outside [0.5, 1], no members, or K > 20.

    References
    ----------
    Meyen et al. (2025), section "Relative Metainformation Improves Group Accuracy".

    Examples
    --------
    >>> round(cwmv_accuracy([0.9, 0.7, 0.7]), 3)   # the expert decides unless both others disagree
    0.9
    """
    acc = as_accuracy(acc)
    if acc.ndim == 0 or acc.shape[-1] == 0:
        raise ValueError("acc must list the K >= 1 members' accuracies along its last axis")
    return scalar_or_array(patterns_accuracy(acc, acc, 0.5))
