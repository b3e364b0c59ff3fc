"""Confidence, accuracy and transmitted information (Meyen et al., 2025, Propositions 1–2).

All information is in bits. A calibrated classifier with binary labels is described by its
confidence distribution: confidence values ``c`` in [0.5, 1] with probabilities ``weights``.
"""

from __future__ import annotations

import numpy as np

from metabits._formulas import entropy_bits, h2, mutual_info_bits
from metabits.validation import as_confidence, as_prior, as_probability, as_scalar, scalar_or_array
from metabits.validation._scalars import TOL, as_distribution

__all__ = ["accuracy", "binary_entropy", "entropy", "mutual_information", "pti",
           "transmitted_information"]


def binary_entropy(p):
    """Binary entropy :math:`H_2(p) = p\\log_2\\frac1p + (1-p)\\log_2\\frac1{1-p}` in bits.

    Parameters
    ----------
    p : float or array_like
        Probabilities in [0, 1]. :math:`H_2(0) = H_2(1) = 0` by the usual convention.

    Returns
    -------
    float or ndarray
        The entropy, elementwise.

    Raises
    ------
    ValueError
        If any ``p`` lies outside [0, 1] or is not finite.

    References
    ----------
    Meyen et al. (2025), section "Transmitted Information": :math:`H(Y) = H_2(p_+)`, and a
    response with confidence 70% leaves :math:`H_2(0.7) = 0.88` bit of uncertainty.

    Examples
    --------
    >>> round(binary_entropy(0.7), 2)
    0.88
    >>> binary_entropy([0.0, 0.5, 1.0]).tolist()
    [0.0, 1.0, 0.0]
    """
    return scalar_or_array(h2(as_probability(p, "p")))


def entropy(p, axis: int = -1):
    """Shannon entropy :math:`H = \\sum_l p_l \\log_2(1/p_l)` of distributions along ``axis``.

    Parameters
    ----------
    p : array_like
        Probabilities in [0, 1] that sum to 1 along ``axis``; other axes index several
        distributions. :math:`0 \\log_2(1/0) = 0`.
    axis : int, default -1
        The axis that runs over the labels.

    Returns
    -------
    float or ndarray
        The entropy in bits: a float for one distribution, else an array with ``axis`` removed.

    Raises
    ------
    ValueError
        If ``p`` has entries outside [0, 1] or does not sum to 1 along ``axis``, or if ``axis`` is
        not an integer or out of range.

    References
    ----------
    Meyen et al. (2025), section "Transmitted Information": the baseline uncertainty
    :math:`H(Y) = \\sum_y P(y)\\log_2\\frac{1}{P(y)}`; Theorem 6 uses it for L labels.

    Examples
    --------
    >>> entropy([0.25, 0.25, 0.25, 0.25])
    2.0
    >>> entropy([[0.5, 0.5], [1.0, 0.0]]).tolist()
    [1.0, 0.0]
    """
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"axis must be an integer; got {axis!r}")
    arr = np.asarray(p) if not isinstance(p, np.ndarray) else p
    if not -max(np.ndim(arr), 1) <= axis < max(np.ndim(arr), 1):
        raise ValueError(f"axis {axis} is out of range for p with {np.ndim(arr)} dimension(s)")
    p = as_distribution(p, "p", axis=axis)
    return scalar_or_array(entropy_bits(p, axis=axis))


def pti(c, prior=0.5):
    """Predictionwise transmitted information :math:`\\mathrm{pti}(c) = H_2(p_+) - H_2(c)`.

    Meyen et al. (2025), section "Transmitted Information": the reduction of uncertainty about
    the true label when the classifier answers with calibrated confidence ``c``.

    Parameters
    ----------
    c : float or array_like
        Calibrated confidence ratings in [0.5, 1] (Assumption 4, Bayes predictions).
    prior : float, default 0.5
        The prior :math:`p_+` of the more frequent label, in [0.5, 1].

    Returns
    -------
    float or ndarray
        The information in bits, shaped like ``c``; 0 at :math:`c = p_+` and :math:`H_2(p_+)` at
        :math:`c = 1`.

    Raises
    ------
    ValueError
        If ``c`` is outside [0.5, 1] or ``prior`` outside [0.5, 1].

    References
    ----------
    Meyen et al. (2025), section "Transmitted Information" and Figure 1b:
    pti(60%) = 0.03 bit and pti(90%) = 0.53 bit.

    Examples
    --------
    >>> pti([0.6, 0.9]).round(2).tolist()
    [0.03, 0.53]
    """
    c = as_confidence(c)
    prior = float(as_probability(as_scalar(prior, "prior p+"), "prior p+", 0.5, 1.0))
    return scalar_or_array(h2(prior) - h2(c))


def _confidence_distribution(c, weights):
    c = as_confidence(c)
    if c.ndim == 0:
        c = c[None]
    if weights is None:
        weights = np.full(c.shape[-1], 1.0 / c.shape[-1])
    w = as_distribution(weights, "weights")
    try:
        if w.shape[-1] != c.shape[-1]:
            raise ValueError
        c, w = np.broadcast_arrays(c, w)
    except ValueError:
        raise ValueError(
            f"weights must hold one probability per confidence value (the same length along the "
            f"last axis, leading axes broadcasting); got weights of shape {w.shape} for "
            f"confidence values of shape {c.shape}"
        ) from None
    return c, w


def accuracy(c, weights=None):
    """Accuracy of a calibrated classifier, :math:`acc = E[C]` (Proposition 1).

    Parameters
    ----------
    c : array_like
        Confidence values in [0.5, 1] along the last axis.
    weights : array_like, optional
        Their probabilities (summing to 1 along the last axis), one per confidence value: the
        last axes of ``c`` and ``weights`` have the same length (leading axes broadcast); equal
        weights if omitted.

    Returns
    -------
    float or ndarray
        The accuracy :math:`\\sum_i w_i c_i`: a float for one distribution, else an array over
        the leading axes.

    Raises
    ------
    ValueError
        For confidences outside [0.5, 1], weights that are not a distribution, or weights of
        another length than ``c`` (a single weight is not stretched over several values).

    References
    ----------
    Meyen et al. (2025), Proposition 1 and Figure 1a: confidence 60% in 2/3 and 90% in 1/3 of
    the cases give acc = 70%.

    Examples
    --------
    >>> round(accuracy([0.6, 0.9], [2 / 3, 1 / 3]), 2)
    0.7
    """
    c, w = _confidence_distribution(c, weights)
    return scalar_or_array((c * w).sum(axis=-1))


def transmitted_information(c, weights=None, prior=0.5):
    """Transmitted information :math:`info = I(Y;\\hat Y, C) = E[\\mathrm{pti}(C)]` (Proposition 2).

    Parameters
    ----------
    c, weights : array_like
        The confidence distribution, as in :func:`accuracy`.
    prior : float, default 0.5
        The prior :math:`p_+` of the more frequent label, in [0.5, 1].

    Returns
    -------
    float or ndarray
        The information in bits, :math:`\\sum_i w_i\\,\\mathrm{pti}(c_i)`: a float for one
        distribution, else an array over the leading axes.

    Raises
    ------
    ValueError
        As :func:`accuracy`; for a prior that is not one number in [0.5, 1]; or when the
        confidences' mean (the accuracy) is below the prior, which no calibrated classifier with
        Bayes predictions can have.

    References
    ----------
    Meyen et al. (2025), Proposition 2 and Figure 1c: the classifier of Figure 1 transmits
    info = 0.20 bit.

    Examples
    --------
    >>> round(transmitted_information([0.6, 0.9], [2 / 3, 1 / 3]), 2)
    0.2
    """
    c, w = _confidence_distribution(c, weights)
    prior = as_prior(prior, majority=True)
    acc = (c * w).sum(axis=-1)
    if np.any(acc < prior - TOL):
        raise ValueError(
            f"these confidences give acc = {np.min(acc):g}, below the prior p+ = {prior:g}: a "
            "calibrated classifier that predicts the more probable label has acc >= p+"
        )
    return scalar_or_array((pti(c, prior) * w).sum(axis=-1))


def mutual_information(joint):
    """Mutual information (bits) between rows and columns of a joint probability table.

    The general definition :math:`I(Y;R) = H(Y) + H(R) - H(Y,R)`, used to check the closed-form
    bounds against explicitly constructed classifiers. Works on stacks of tables (last two axes).

    Parameters
    ----------
    joint : array_like, shape (..., rows, columns)
        Joint probabilities, e.g. :math:`P(Y = y, R = r)` with the labels in the rows and the
        responses in the columns; each table sums to 1.

    Returns
    -------
    float or ndarray
        The mutual information in bits: a float for one table, else an array over the stack.

    Raises
    ------
    ValueError
        If the table has entries outside [0, 1], fewer than two dimensions, or does not sum to 1.

    References
    ----------
    Meyen et al. (2025), section "Transmitted Information": info is the mutual information
    between the true label and the response (Cover & Thomas, 2006).

    Examples
    --------
    A classifier that is right 70% of the time with constant confidence transmits
    :math:`1 - H_2(0.7)` bit, Theorem 3's lower bound at acc = 0.7:

    >>> round(mutual_information([[0.35, 0.15], [0.15, 0.35]]), 3)
    0.119
    """
    j = as_probability(joint, "joint")
    if j.ndim < 2:
        raise ValueError("joint must be a table with at least two dimensions (rows × columns)")
    total = j.sum(axis=(-2, -1))
    if np.any(np.abs(total - 1.0) > 1e-6):
        raise ValueError(f"joint must sum to 1; got {np.ravel(total)[0]:g}")
    return scalar_or_array(mutual_info_bits(j))
