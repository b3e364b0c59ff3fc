"""ROC bounds (Meyen et al., 2025, Propositions 4–5) and the ROC curves of the three noise cases.

Pseudo Type 1 ROC: thresholds on the signed confidence :math:`\\hat Y \\cdot C`;
TPR = P(signed > t | Y = +1), FPR = P(signed > t | Y = -1).
Type 2 ROC: thresholds on the confidence :math:`C`; TPR₂ = P(C > t | correct),
FPR₂ = P(C > t | error). Equal priors throughout, as in the propositions.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._validate import as_probability, scalar_or_array
from .noise import _kind

__all__ = ["roc_bounds_type1", "roc_bounds_type2", "roc_curve_type1", "roc_curve_type2"]


def _acc(acc) -> float:
    acc = as_probability(acc, "acc", 0.5, 1.0)
    if acc.ndim:
        raise ValueError("acc must be a single accuracy")
    if acc >= 1.0:
        raise ValueError("acc must be below 1 (at acc = 1 there are no errors to rate)")
    return float(acc)


def roc_bounds_type1(fpr, acc):
    """Bounds on the pseudo Type 1 ROC curve of a classifier with accuracy ``acc`` (Proposition 4).

    .. math:: \\min\\left\\{\\frac{FPR}{2(1-acc)},\\; 2(1-acc)FPR + 2acc - 1\\right\\}
              \\le TPR \\le \\min\\{FPR + 2acc - 1, 1\\}

    Parameters
    ----------
    fpr : array_like
        False positive rates in [0, 1].
    acc : float
        Accuracy in [0.5, 1).

    Returns
    -------
    (lower, upper) : ndarrays like ``fpr``
    """
    fpr = as_probability(fpr, "FPR")
    acc = _acc(acc)
    e = 1.0 - acc
    lower = np.minimum(fpr / (2 * e), 2 * e * fpr + 2 * acc - 1)
    upper = np.minimum(fpr + 2 * acc - 1, 1.0)
    return scalar_or_array(lower), scalar_or_array(upper)


def roc_bounds_type2(fpr2, acc):
    """Bounds on the Type 2 ROC curve of a classifier with accuracy ``acc`` (Proposition 5).

    .. math:: FPR_2 \\le TPR_2 \\le 1 - \\frac{1 - acc}{acc}(1 - FPR_2)

    The lower bound is the chance diagonal (binary noise); the upper is attained by uniform noise.
    """
    fpr2 = as_probability(fpr2, "FPR2")
    acc = _acc(acc)
    upper = 1.0 - (1.0 - acc) / acc * (1.0 - fpr2)
    return scalar_or_array(fpr2), scalar_or_array(upper)


def roc_curve_type1(kind: str, acc, n: int = 201):
    """Pseudo Type 1 ROC curve (FPR, TPR) of a noise classifier with accuracy ``acc``.

    Normal noise gives the binormal curve :math:`TPR = \\Phi(d' + \\Phi^{-1}(FPR))`. The discrete
    classifiers give their corner points joined by straight lines, which randomising between
    neighbouring thresholds attains (Figure 4 caption).
    """
    acc = _acc(acc)
    if _kind(kind) == "normal":
        d = 2 * stats.norm.ppf(acc)
        x = np.linspace(-(d / 2 + 5), d / 2 + 5, n)[::-1]  # threshold on the observation
        fpr = np.concatenate([[0.0], stats.norm.sf(x, loc=-d / 2), [1.0]])
        tpr = np.concatenate([[0.0], stats.norm.sf(x, loc=d / 2), [1.0]])
        return fpr, tpr
    if kind == "uniform":
        e = 1.0 - acc
        return np.array([0.0, 0.0, 2 * e, 1.0]), np.array([0.0, 2 * acc - 1, 1.0, 1.0])
    return np.array([0.0, 1.0 - acc, 1.0]), np.array([0.0, acc, 1.0])


def roc_curve_type2(kind: str, acc, n: int = 201):
    """Type 2 ROC curve (FPR₂, TPR₂) of a noise classifier with accuracy ``acc``.

    For normal noise a confidence above t means :math:`|X| > a_t`, so
    :math:`TPR_2 = \\Phi(d'/2 - a_t)/acc` and :math:`FPR_2 = \\Phi(-d'/2 - a_t)/(1 - acc)`.
    """
    acc = _acc(acc)
    if _kind(kind) == "normal":
        d = 2 * stats.norm.ppf(acc)
        a = np.linspace(d / 2 + 5, 0, n)
        tpr = np.concatenate([[0.0], stats.norm.cdf(d / 2 - a) / acc])
        fpr = np.concatenate([[0.0], stats.norm.cdf(-d / 2 - a) / (1 - acc)])
        return fpr, tpr
    if kind == "uniform":
        return np.array([0.0, 0.0, 1.0]), np.array([0.0, (2 * acc - 1) / acc, 1.0])
    return np.array([0.0, 1.0]), np.array([0.0, 1.0])
