"""Theorem 8 of Meyen et al. (2025): bounds on the accuracy of an optimally combined group."""

from __future__ import annotations

import numpy as np

from metabits.results import Bounds
from metabits.validation import as_member_rates, scalar_or_array
from metabits.group._voting import patterns_accuracy

__all__ = ["group_accuracy_bounds"]


def group_accuracy_bounds(acc_pos, acc_neg, prior=0.5) -> Bounds:
    """Lowest and highest PCWMV group accuracy given the members' label-specific accuracies.

    Upper bound :math:`1 - \\prod_k (1 - acc_k) / \\max(p_+, p_-)^{K-1}` with
    :math:`acc_k = p_+ acc_{k+} + p_- acc_{k-}`, attained by RMI = 1 members
    (:func:`~metabits.group.max_group_member`). The paper prints :math:`p_+^{K-1}`, the same under
    its Assumption 2 (:math:`p_+ \\ge 0.5`); for :math:`p_+ < 0.5` that printed value is exceeded
    by such groups.
    Lower bound

    .. math::

        \\begin{aligned}
        \\sum_{\\hat y}\\max\\Big\\{&p_+\\prod_k acc_{k+}^{[\\hat y_k=+1]}
            (1-acc_{k+})^{[\\hat y_k=-1]},\\\\
        &p_-\\prod_k(1-acc_{k-})^{[\\hat y_k=+1]}acc_{k-}^{[\\hat y_k=-1]}\\Big\\},
        \\end{aligned}

    attained by members that report only their prediction
    (:func:`~metabits.group.min_group_member`); with equal priors and rates it is the CWMV
    accuracy.

    Parameters
    ----------
    acc_pos, acc_neg : array_like, shape (..., K)
        True positive rates :math:`acc_{k+}` and true negative rates :math:`acc_{k-}` of the K
        members (K ≤ 20 for the lower bound), in [0, 1].
    prior : float, default 0.5
        :math:`p_+ = P(Y = +1)`, strictly between 0 and 1.

    Returns
    -------
    Bounds
        ``(lower, upper)``.

    Raises
    ------
    ValueError
        For rates outside [0, 1] or of different shapes, no members, a prior outside (0, 1), or a
        member whose accuracy is below the larger prior (its predictions would not be Bayes
        predictions).

    References
    ----------
    Meyen et al. (2025), Theorem 8 and Figure 8b.

    Examples
    --------
    >>> lower, upper = group_accuracy_bounds([0.7] * 3, [0.7] * 3)
    >>> round(lower, 3), round(upper, 3)
    (0.784, 0.892)
    """
    tp, tn, p, acc = as_member_rates(acc_pos, acc_neg, prior)
    K = tp.shape[-1]
    upper = 1.0 - np.prod(1.0 - acc, axis=-1) / max(p, 1.0 - p) ** (K - 1)
    return Bounds(scalar_or_array(patterns_accuracy(tp, tn, p)), scalar_or_array(upper))
