"""ROC bounds (Meyen et al., 2025, Propositions 4–5) and the ROC curves of the three noise cases.

Pseudo Type 1 ROC: thresholds on the signed confidence :math:`\\hat Y \\cdot C`;
TPR = P(signed > t | Y = +1), FPR = P(signed > t | Y = -1).
Type 2 ROC: thresholds on the confidence :math:`C`; TPR₂ = P(C > t | correct),
FPR₂ = P(C > t | error). Equal priors throughout, as in the propositions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from metabits._formulas import dprime
from metabits.results import Bounds, Curve, Distribution, Result
from metabits.validation import (as_accuracy, as_confidence, as_float_array, as_int, as_noise_kind,
                                 as_probability, as_same_length, as_size, scalar_or_array)
from metabits.validation._scalars import as_distribution

__all__ = ["roc_bounds_type1", "roc_bounds_type2", "roc_curve_type1", "roc_curve_type2",
           "roc_from_responses", "roc_type2_from_confidence", "prop4_lower_edge_classifiers"]


def _acc(acc) -> float:
    return as_accuracy(acc, high_open=True, scalar=True,
                       why_high="at acc = 1 there are no errors to rate")


def _curve_args(kind, acc, n) -> tuple:
    """The checked noise case, accuracy and number of thresholds of a noise classifier's curve."""
    return as_noise_kind(kind), _acc(acc), as_size(n, "n", least=2)


def roc_bounds_type1(fpr, acc):
    """Bounds on the pseudo Type 1 ROC curve of a classifier with accuracy ``acc`` (Proposition 4).

    .. math::

       \\begin{aligned}
       TPR &\\ge \\min\\Big\\{\\frac{FPR}{2(1-acc)}, \\\\
           &\\quad 2(1-acc)FPR + 2acc - 1\\Big\\}, \\\\
       TPR &\\le \\min\\{FPR + 2acc - 1,\\; 1\\}.
       \\end{aligned}

    The paper prints the upper bound without the cap at 1, which a rate cannot exceed.

    Parameters
    ----------
    fpr : float or array_like
        False positive rates in [0, 1].
    acc : float
        Accuracy in [0.5, 1).

    Returns
    -------
    Bounds
        ``lower`` and ``upper`` bound on the TPR, floats or arrays shaped like ``fpr``.

    Raises
    ------
    ValueError
        For rates outside [0, 1], or an accuracy that is not one number in [0.5, 1) (at acc = 1
        there are no errors to rate).

    References
    ----------
    Meyen et al. (2025), Proposition 4 and Figure 4a (the grey area, acc = 70%).

    Examples
    --------
    >>> lower, upper = roc_bounds_type1([0.0, 0.3, 0.6, 1.0], 0.7)
    >>> lower.round(3).tolist(), upper.round(3).tolist()
    ([0.0, 0.5, 0.76, 1.0], [0.4, 0.7, 1.0, 1.0])
    """
    fpr = as_probability(fpr, "FPR")
    acc = _acc(acc)
    e = 1.0 - acc
    lower = np.minimum(fpr / (2 * e), 2 * e * fpr + 2 * acc - 1)
    upper = np.minimum(fpr + 2 * acc - 1, 1.0)
    return Bounds(scalar_or_array(lower), scalar_or_array(upper))


def roc_bounds_type2(fpr2, acc):
    """Bounds on the Type 2 ROC curve of a classifier with accuracy ``acc`` (Proposition 5).

    .. math::

       \\begin{aligned}
       TPR_2 &\\ge FPR_2, \\\\
       TPR_2 &\\le 1 - \\frac{1 - acc}{acc}(1 - FPR_2).
       \\end{aligned}

    The lower bound is the chance diagonal (binary noise); the upper is attained by uniform noise.

    Parameters
    ----------
    fpr2 : float or array_like
        Type 2 false positive rates :math:`P(C > t \\mid \\text{error})` in [0, 1].
    acc : float
        Accuracy in [0.5, 1).

    Returns
    -------
    Bounds
        ``lower`` (equal to ``fpr2``) and ``upper`` bound on the Type 2 TPR, floats or arrays
        shaped like ``fpr2``.

    Raises
    ------
    ValueError
        For rates outside [0, 1], or an accuracy that is not one number in [0.5, 1).

    References
    ----------
    Meyen et al. (2025), Proposition 5 and Figure 4b.

    Examples
    --------
    >>> lower, upper = roc_bounds_type2([0.0, 0.5, 1.0], 0.7)
    >>> lower.tolist(), upper.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.571, 0.786, 1.0])
    """
    fpr2 = as_probability(fpr2, "FPR2")
    acc = _acc(acc)
    upper = 1.0 - (1.0 - acc) / acc * (1.0 - fpr2)
    return Bounds(scalar_or_array(fpr2), scalar_or_array(upper))


def roc_curve_type1(kind: str, acc, n: int = 201):
    """Pseudo Type 1 ROC curve (FPR, TPR) of a noise classifier with accuracy ``acc``.

    Normal noise gives the binormal curve :math:`TPR = \\Phi(d' + \\Phi^{-1}(FPR))`. The discrete
    classifiers give their corner points joined by straight lines, which randomising between
    neighbouring thresholds attains (Figure 4 caption).

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case (:mod:`metabits.info`).
    acc : float
        Accuracy in [0.5, 1).
    n : int, default 201
        Number of thresholds on the observation for normal noise (the curve then has n + 2
        points, (0, 0) and (1, 1) included); ignored by the discrete cases.

    Returns
    -------
    Curve
        ``fpr`` and ``tpr``, increasing from (0, 0) to (1, 1).

    Raises
    ------
    ValueError
        For an unknown ``kind``, an accuracy that is not one number in [0.5, 1), or ``n`` not an
        integer >= 2.

    References
    ----------
    Meyen et al. (2025), Figure 4a: uniform noise traces the upper bound of Proposition 4.

    Examples
    --------
    >>> fpr, tpr = roc_curve_type1("uniform", 0.7)
    >>> fpr.round(3).tolist(), tpr.round(3).tolist()
    ([0.0, 0.0, 0.6, 1.0], [0.0, 0.4, 1.0, 1.0])
    """
    kind, acc, n = _curve_args(kind, acc, n)
    if kind == "normal":
        d = dprime(acc)
        x = np.linspace(-(d / 2 + 5), d / 2 + 5, n)[::-1]  # threshold on the observation
        fpr = np.concatenate([[0.0], ndtr(-(x + d / 2)), [1.0]])
        tpr = np.concatenate([[0.0], ndtr(-(x - d / 2)), [1.0]])
        return Curve(fpr, tpr)
    if kind == "uniform":
        e = 1.0 - acc
        return Curve(np.array([0.0, 0.0, 2 * e, 1.0]), np.array([0.0, 2 * acc - 1, 1.0, 1.0]))
    return Curve(np.array([0.0, 1.0 - acc, 1.0]), np.array([0.0, acc, 1.0]))


def roc_curve_type2(kind: str, acc, n: int = 201):
    """Type 2 ROC curve (FPR₂, TPR₂) of a noise classifier with accuracy ``acc``.

    For normal noise a confidence above t means :math:`|X| > a_t`, so
    :math:`TPR_2 = \\Phi(d'/2 - a_t)/acc` and :math:`FPR_2 = \\Phi(-d'/2 - a_t)/(1 - acc)`.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case (:mod:`metabits.info`).
    acc : float
        Accuracy in [0.5, 1).
    n : int, default 201
        Number of thresholds :math:`a_t` for normal noise (the curve then has n + 1 points,
        (0, 0) included); ignored by the discrete cases.

    Returns
    -------
    Curve
        ``fpr`` (FPR₂) and ``tpr`` (TPR₂), increasing from (0, 0) to (1, 1).

    Raises
    ------
    ValueError
        For an unknown ``kind``, an accuracy that is not one number in [0.5, 1), or ``n`` not an
        integer >= 2.

    References
    ----------
    Meyen et al. (2025), Figure 4b: uniform noise traces the upper bound of Proposition 5 and
    binary noise the diagonal.

    Examples
    --------
    >>> fpr2, tpr2 = roc_curve_type2("uniform", 0.7)
    >>> fpr2.tolist(), tpr2.round(3).tolist()
    ([0.0, 0.0, 1.0], [0.0, 0.571, 1.0])
    """
    kind, acc, n = _curve_args(kind, acc, n)
    if kind == "normal":
        d = dprime(acc)
        a = np.linspace(d / 2 + 5, 0, n)
        tpr = np.concatenate([[0.0], ndtr(d / 2 - a) / acc])
        fpr = np.concatenate([[0.0], ndtr(-d / 2 - a) / (1 - acc)])
        return Curve(fpr, tpr)
    if kind == "uniform":
        return Curve(np.array([0.0, 0.0, 1.0]), np.array([0.0, (2 * acc - 1) / acc, 1.0]))
    return Curve(np.array([0.0, 1.0]), np.array([0.0, 1.0]))


def roc_from_responses(signed_conf, weights):
    """Pseudo Type 1 ROC curve (FPR, TPR) of any discrete calibrated classifier.

    Parameters
    ----------
    signed_conf : array_like
        The signed confidences :math:`\\hat y \\cdot c` of the possible responses, in
        [-1, -0.5] or [0.5, 1]. By calibration a response :math:`s > 0` has
        :math:`P(Y = +1 \\mid s) = s` and one with :math:`s < 0` has :math:`1 + s`.
    weights : array_like
        The probabilities of the responses (summing to 1).

    Returns
    -------
    Curve
        ``fpr`` and ``tpr``: the corner points, from (0, 0) to (1, 1), as the threshold on the
        signed confidence falls.

    Raises
    ------
    ValueError
        For weights that are not a distribution, shapes that differ or are not 1-D, signed
        confidences with :math:`|s| < 0.5` or :math:`|s| > 1`, or responses that imply that one
        label never occurs.

    References
    ----------
    Meyen et al. (2025), section "Bounds for Receiver Operator Characteristic (ROC) Curves":
    thresholds on the pseudo observation :math:`\\hat Y \\cdot C`, Proposition 4 and Figure 4a.

    Examples
    --------
    The classifier of Figure 1 (confidence 60% or 90%, each prediction equally likely):

    >>> signed = [0.9, 0.6, -0.6, -0.9]
    >>> fpr, tpr = roc_from_responses(signed, [1/6, 1/3, 1/3, 1/6])
    >>> fpr.round(3).tolist(), tpr.round(3).tolist()
    ([0.0, 0.033, 0.3, 0.7, 1.0], [0.0, 0.3, 0.7, 0.967, 1.0])
    """
    s = as_float_array(signed_conf, "signed_conf")
    w = as_distribution(weights, "weights")
    as_same_length(s, w, "signed_conf and weights")
    if np.any(np.abs(s) < 0.5 - 1e-12) or np.any(np.abs(s) > 1 + 1e-12):
        raise ValueError("signed confidences must lie in [-1, -0.5] or [0.5, 1]")
    q = np.where(s > 0, s, 1.0 + s)
    order = np.argsort(-s, kind="stable")
    hits, fas = (w * q)[order], (w * (1.0 - q))[order]
    if hits.sum() == 0 or fas.sum() == 0:
        raise ValueError("the responses imply that one label never occurs")
    tpr = np.concatenate([[0.0], np.cumsum(hits) / hits.sum()])
    fpr = np.concatenate([[0.0], np.cumsum(fas) / fas.sum()])
    return Curve(fpr, tpr)


def roc_type2_from_confidence(conf, weights):
    """Type 2 ROC curve (FPR₂, TPR₂) of a calibrated classifier from its confidence distribution.

    A response with confidence c is correct with probability c, so thresholds on the confidence
    give TPR₂ = P(C > t | correct) and FPR₂ = P(C > t | error).

    Parameters
    ----------
    conf : array_like
        The confidences of the possible responses, in [0.5, 1] (1-D).
    weights : array_like
        Their probabilities (summing to 1), same length.

    Returns
    -------
    Curve
        ``fpr`` (FPR₂) and ``tpr`` (TPR₂): the corner points from (0, 0) to (1, 1) as the
        threshold on the confidence falls.

    Raises
    ------
    ValueError
        For confidences outside [0.5, 1], weights that are not a distribution, shapes that differ
        or are not 1-D, or a classifier that is never wrong (every confidence 1).

    References
    ----------
    Meyen et al. (2025), section "Bounds for Receiver Operator Characteristic (ROC) Curves",
    Proposition 5 and Figure 4b.

    Examples
    --------
    The classifier of Figure 1 (confidence 60% in 2/3 and 90% in 1/3 of the cases):

    >>> fpr2, tpr2 = roc_type2_from_confidence([0.6, 0.9], [2/3, 1/3])
    >>> fpr2.round(3).tolist(), tpr2.round(3).tolist()
    ([0.0, 0.111, 1.0], [0.0, 0.429, 1.0])
    """
    c = as_confidence(conf)
    w = as_distribution(weights, "weights")
    as_same_length(c, w, "conf and weights")
    order = np.argsort(-c, kind="stable")
    correct, errors = (w * c)[order], (w * (1.0 - c))[order]
    if errors.sum() == 0:
        raise ValueError("a classifier that is never wrong has no Type 2 ROC curve")
    tpr2 = np.concatenate([[0.0], np.cumsum(correct) / correct.sum()])
    fpr2 = np.concatenate([[0.0], np.cumsum(errors) / errors.sum()])
    return Curve(fpr2, tpr2)


@dataclass(frozen=True)
class EdgeClassifiers(Result):
    """The two classifiers of :func:`prop4_lower_edge_classifiers`; also a mapping.

    Attributes
    ----------
    A, B : Distribution
        Each classifier's signed confidences (``values``) and their probabilities
        (``weights``), ready for :func:`roc_from_responses`.
    """

    A: Distribution
    B: Distribution


def prop4_lower_edge_classifiers(acc):
    """Two calibrated classifiers whose ROC curves together trace Proposition 4's lower bound.

    Classifier "A" predicts −1 only when certain (a share :math:`acc - 1/2` of trials) and
    otherwise +1 with confidence :math:`1/(3 - 2acc)`; "B" is its mirror image. Their
    confidence depends on the prediction, which Proposition 4 allows; each attains one of the two
    lines of the lower bound, and the bound is their pointwise minimum.

    Parameters
    ----------
    acc : float
        Accuracy in [0.5, 1).

    Returns
    -------
    EdgeClassifiers
        ``A`` and ``B``, each a :class:`~metabits.results.Distribution` of signed confidences
        and their weights for :func:`roc_from_responses` (also readable as ``result["A"]``).

    Raises
    ------
    ValueError
        For an accuracy that is not one number in [0.5, 1).

    References
    ----------
    Meyen et al. (2025), Proposition 4 and Figure 4a: the lower edge of the grey area lies below
    the binary-noise curve because confidence may depend on the prediction.

    Examples
    --------
    >>> edge = prop4_lower_edge_classifiers(0.7)
    >>> edge.A.values.tolist(), edge.A.weights.round(3).tolist()
    ([0.625, -1.0], [0.8, 0.2])
    >>> fpr, tpr = roc_from_responses(*edge.A)   # TPR = FPR / 0.6
    >>> fpr.round(3).tolist(), tpr.round(3).tolist()
    ([0.0, 0.6, 1.0], [0.0, 1.0, 1.0])
    """
    acc = _acc(acc)
    e = 1.0 - acc
    c_unsure = 1.0 / (1.0 + 2.0 * e)
    w_unsure, w_sure = (1.0 + 2.0 * e) / 2.0, (1.0 - 2.0 * e) / 2.0
    return EdgeClassifiers(A=Distribution(np.array([c_unsure, -1.0]), np.array([w_unsure, w_sure])),
                           B=Distribution(np.array([1.0, -c_unsure]), np.array([w_sure, w_unsure])))
