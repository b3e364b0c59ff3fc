"""Closed forms for groups of K identical noise members (Meyen et al., 2025, Figure 8)."""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logit, ndtr

from metabits._formulas import dprime, h2
from metabits.validation import as_accuracy, as_int_array, as_noise_kind, scalar_or_array
from metabits.info import normal_info
from metabits.group._pcwmv import GroupResult
from metabits.group._voting import majority_vote_accuracy

__all__ = ["noise_group"]


def noise_group(kind: str, acc, K) -> GroupResult:
    """Accuracy and information of a group of K identical noise members of accuracy ``acc``.

    Closed forms, broadcasting over ``acc`` and ``K``:

    * **uniform** (RMI = 1): the group is wrong only by a coin flip when every member is unsure,
      :math:`acc = 1 - \\frac12(2(1-acc_1))^K` (the Theorem 8 upper bound) and
      :math:`info = 1 - (2(1-acc_1))^K`: again a uniform-noise classifier.
    * **normal**: the summed log-odds :math:`d'\\sum X_k` are those of one normal classifier with
      :math:`d'_K = \\sqrt K d'`, so :math:`acc = \\Phi(\\sqrt K d'/2)`, info = ``normal_info(√K d′)``.
    * **binary** (RMI = 0): MV with fair-coin ties (the Theorem 8 lower bound) and
      :math:`info = 1 - \\sum_n \\binom Kn acc_1^n(1-acc_1)^{K-n}
      H_2(\\sigma((2n-K)\\,\\mathrm{logit}\\,acc_1))`.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The members' noise case.
    acc : float or array_like
        Member accuracy in [0.5, 1].
    K : int or array_like of int
        Group sizes ≥ 1.

    Returns
    -------
    GroupResult
        ``acc`` and ``info`` (bits), broadcast over ``acc`` and ``K``.

    Raises
    ------
    ValueError
        For an unknown kind, ``acc`` outside [0.5, 1] or K not a positive integer.

    References
    ----------
    Meyen et al. (2025), Figure 8a–b.

    Examples
    --------
    >>> [round(noise_group(k, 0.7, 3)["acc"], 3) for k in ("uniform", "normal", "binary")]
    [0.892, 0.818, 0.784]
    """
    kind = as_noise_kind(kind)
    a, K = np.broadcast_arrays(as_accuracy(acc), as_int_array(K, "group size K"))
    if kind == "uniform":
        miss = (2.0 * (1.0 - a)) ** K
        g_acc, info = 1.0 - miss / 2.0, 1.0 - miss
    elif kind == "normal":
        dk = np.sqrt(K) * dprime(a)
        sure = ~np.isfinite(dk)
        g_acc = np.where(sure, 1.0, ndtr(np.where(sure, 0.0, dk) / 2.0))
        info = np.where(sure, 1.0, normal_info(np.where(sure, 0.0, dk)))
    else:
        from scipy import stats  # imported here: slow to import

        g_acc = majority_vote_accuracy(a, K)
        n = np.arange(int(K.max()) + 1)
        pmf = stats.binom.pmf(n, K[..., None], a[..., None])
        margin = 2 * n - K[..., None]  # (correct − wrong) votes
        with np.errstate(invalid="ignore"):
            post = np.where(margin == 0, 0.5, expit(margin * logit(a[..., None])))
        h = np.where(pmf > 0, h2(np.nan_to_num(post, nan=0.5)), 0.0)
        info = 1.0 - (pmf * h).sum(axis=-1)
    return GroupResult(acc=scalar_or_array(np.asarray(g_acc, dtype=float)),
                       info=scalar_or_array(np.asarray(info, dtype=float)))
