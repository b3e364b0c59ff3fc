"""Groups that add up given weights, not the optimal ones: miscalibrated members (Meyen et al.,
2025, Discussion, "Limiting Assumptions for Group Bounds")."""

from __future__ import annotations

import numpy as np

from metabits.validation import as_float_array, as_prior
from metabits.validation._scalars import as_numbers
from metabits.validation._tables import as_member_tables
from metabits.group._llr import INF_KEY, MAX_MEMBERS, RES
from metabits.group._pcwmv import _add_exact

__all__ = ["weighted_vote_accuracy"]


def _weight_keys(w: np.ndarray) -> np.ndarray:
    finite = np.isfinite(w)
    return np.where(finite, np.rint(np.where(finite, w, 0.0) / RES),
                    np.sign(w) * INF_KEY).astype(np.int64)


def weighted_vote_accuracy(members, weights, prior=0.5) -> float:
    """Exact accuracy of a group voting :math:`\\mathrm{sign}(\\sum_k w_k(r_k))` with given weights.

    Member k answers r with probability ``members[k][y, r]`` given Y (conditionally independent,
    Assumption 13) and its answer adds the vote ``weights[k][r]`` (positive for +1). The group
    says +1 when the sum is positive, −1 when negative, and flips a fair coin at 0. With the
    members' true log-likelihood ratios as weights this is the optimal group
    (:func:`~metabits.group`, equal priors); with *stated* log-odds
    (:func:`metabits.info.log_odds_weights`) it is the paper's PCWMV rule applied to
    miscalibrated members; with ±1 it is majority voting.

    Parameters
    ----------
    members : sequence of array_like, each shape (2, R_k)
        The members' response tables.
    weights : sequence of array_like, each shape (R_k,)
        The vote of each response (±inf allowed: a vote that decides alone).
    prior : float, default 0.5
        :math:`P(Y = +1)`, strictly between 0 and 1 (it weights the two labels' accuracies; the
        rule itself does not add the prior).

    Returns
    -------
    float
        The group accuracy.

    Raises
    ------
    ValueError
        For invalid tables, weights of the wrong length or NaN, or a prior outside (0, 1).

    References
    ----------
    Meyen et al. (2025), section "Relative Metainformation Improves Group Accuracy" and
    Discussion, "Limiting Assumptions for Group Bounds"; Zhang & Maloney (2012).

    Examples
    --------
    Three 70% members voting with equal weights: majority voting, 78.4%.

    >>> from metabits.group import noise_member
    >>> round(weighted_vote_accuracy([noise_member("binary", 0.7)] * 3, [[-1, 1]] * 3), 3)
    0.784
    """
    tables = as_member_tables(members, MAX_MEMBERS)
    p = as_prior(prior)
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__iter__"):
        raise ValueError(f"weights must be one weight vector per member; got {weights!r}")
    weights = list(weights)
    if len(weights) != len(tables):
        raise ValueError(f"one weight vector per member: got {len(weights)} for "
                         f"{len(tables)} members")
    parts = []
    for i, (t, w) in enumerate(zip(tables, weights)):
        w = as_numbers(w, f"weights of member {i}")
        if w.shape != (t.shape[1],) or np.any(np.isnan(w)):
            raise ValueError(f"weights of member {i} must be {t.shape[1]} numbers (no NaN), one "
                             f"per response; got {w.tolist()}")
        if np.any(np.isfinite(w)):
            as_float_array(w[np.isfinite(w)], f"weights of member {i}", empty=True)
        parts.append((_weight_keys(w), t[1], t[0]))
    total = parts[0]
    for part in parts[1:]:
        total = _add_exact(total, part)
    keys, pos, neg = total
    says_pos = (keys > 0) + 0.5 * (keys == 0)
    says_neg = (keys < 0) + 0.5 * (keys == 0)
    return float(p * np.sum(pos * says_pos) + (1.0 - p) * np.sum(neg * says_neg))
