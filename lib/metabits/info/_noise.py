"""The three noise cases of Meyen et al. (2025), Figure 2: normal, binary and uniform noise.

Each is a calibrated, Bayes-optimal classifier for two equally probable labels, described by its
accuracy ``acc``. Observations :math:`X` given the label :math:`Y = \\pm 1` are

* **normal**: :math:`X \\sim N(\\pm d'/2, 1)` with :math:`acc = \\Phi(d'/2)`; confidence
  :math:`C = (1 + e^{-d'|X|})^{-1}`;
* **binary**: :math:`X = Y` with probability ``acc``, else :math:`-Y`; confidence always ``acc``
  (the lower bound of Theorem 3);
* **uniform**: :math:`X \\sim U(\\pm s - 1/2, \\pm s + 1/2)` with :math:`s = acc - 1/2`; confidence
  1 outside the overlap of the two supports and 0.5 inside it (the upper bound of Theorem 3).

This module is the one home of these three classifiers: their observations
(:func:`sample_observations`, :func:`observation_pdf`), confidences
(:func:`confidence_from_observation`, :func:`discrete_confidence`,
:func:`normal_confidence_pdf`) and transmitted information (:func:`noise_info`,
:func:`normal_info`). Other modules (the simulation study, the group members) call them.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from metabits._formulas import accuracy_of, dprime, h2, norm_pdf
from metabits.results import Distribution
from metabits.validation import (NOISE_TYPES, as_accuracy, as_confidence, as_float_array,
                                 as_labels, as_noise_kind, as_rng, as_scalar, scalar_or_array)

__all__ = ["NOISE_TYPES", "accuracy_from_dprime", "confidence_from_observation",
           "discrete_confidence", "dprime_from_accuracy", "noise_info", "normal_confidence_pdf",
           "normal_info", "observation_pdf", "sample_observations"]

# Quadrature rules for E[H2(C)] of the normal-noise classifier (see normal_info):
# Gauss–Hermite over the observation for small d', and composite Gauss–Legendre over the
# log-odds on [-50, 50] (outside it H2(sigmoid(l)) < 1e-19) for d' >= 1.
_GH_T, _GH_W = np.polynomial.hermite.hermgauss(120)
_GH_Z = np.sqrt(2.0) * _GH_T
_GH_W = _GH_W / np.sqrt(np.pi)
_GL_T, _GL_W = np.polynomial.legendre.leggauss(8)
_GL_EDGES = np.linspace(-50.0, 50.0, 201)
_GL_HALF = np.diff(_GL_EDGES)[:, None] / 2.0
_GL_L = (_GL_HALF * _GL_T + (_GL_EDGES[:-1, None] + _GL_EDGES[1:, None]) / 2.0).ravel()
_GL_W = (_GL_HALF * _GL_W).ravel()
_GL_H = h2(expit(np.abs(_GL_L)))  # H2(sigmoid(l)) at the nodes

_NORMAL_BELOW_1 = "normal noise at acc = 1 would need an infinite d'"


def _noise_acc(kind: str, acc, scalar: bool = False):
    """Accuracies of a noise classifier: [0.5, 1], below 1 for normal noise."""
    normal = kind == "normal"
    return as_accuracy(acc, high_open=normal, why_high=_NORMAL_BELOW_1 if normal else "",
                       scalar=scalar)


def _non_negative_dprime(d) -> np.ndarray:
    d = as_float_array(d, "d'")
    if np.any(d < 0):
        raise ValueError(f"d' must be non-negative; got {d[d < 0].ravel()[0]:g}")
    return d


def dprime_from_accuracy(acc):
    """Sensitivity :math:`d' = 2\\Phi^{-1}(acc)` of the unbiased equal-variance normal classifier.

    Parameters
    ----------
    acc : float or array_like
        Accuracies in [0.5, 1].

    Returns
    -------
    float or ndarray
        d′ >= 0; ``inf`` at ``acc = 1`` (a perfect classifier has an unbounded sensitivity).

    Raises
    ------
    ValueError
        If ``acc`` is outside [0.5, 1].

    References
    ----------
    Meyen et al. (2025), section "A Signal Detection Theory Example": the normal-noise
    classifier of Figure 2 has :math:`acc = \\Phi(d'/2)`.

    Examples
    --------
    >>> round(dprime_from_accuracy(0.7), 4)
    1.0488
    """
    return scalar_or_array(dprime(as_accuracy(acc)))


def accuracy_from_dprime(d):
    """Accuracy :math:`\\Phi(d'/2)` of the unbiased normal-noise classifier with sensitivity d′.

    Parameters
    ----------
    d : float or array_like
        Sensitivities d′ >= 0.

    Returns
    -------
    float or ndarray
        Accuracies in [0.5, 1).

    Raises
    ------
    ValueError
        If ``d`` is negative or not finite.

    References
    ----------
    Meyen et al. (2025), Figure 2: d′ = 1.05 gives the "70%" normal-noise classifier.

    Examples
    --------
    >>> round(accuracy_from_dprime(1.05), 4)
    0.7002
    """
    return scalar_or_array(accuracy_of(_non_negative_dprime(d)))


def normal_info(d):
    """Transmitted information (bits) of the normal-noise classifier with sensitivity ``d``.

    :math:`info = 1 - E[H_2(C)]` with :math:`C = (1 + e^{-d'|X|})^{-1}`. Because :math:`H_2` is
    symmetric, the integrand :math:`H_2(\\sigma(d'X))` is smooth. For d′ < 1 a 120-point
    Gauss–Hermite rule over :math:`X \\sim N(d'/2, 1)` integrates it; for d′ >= 1 the expectation
    is taken over the log-odds :math:`d'X \\sim N(d'^2/2, d'^2)` with a 1,600-point composite
    Gauss–Legendre rule on [-50, 50]. Both agree with adaptive quadrature to 1e-12 (tested).

    Parameters
    ----------
    d : float or array_like
        Sensitivities d′ >= 0 (vectorised).

    Returns
    -------
    float or ndarray
        Information in bits, in [0, 1].

    Raises
    ------
    ValueError
        If ``d`` is negative or not finite.

    References
    ----------
    Meyen et al. (2025), section "A Signal Detection Theory Example" and Figure 2.

    Examples
    --------
    >>> round(normal_info(1.05), 2)   # Figure 2: the paper's 0.18
    0.18
    """
    d = _non_negative_dprime(d)
    small = d < 1.0
    ds = np.where(small, d, 0.5)[..., None]
    d = np.minimum(d, 1e6)  # beyond d' = 40 the information is 1 to double precision
    c = expit(np.abs(ds * (ds / 2.0 + _GH_Z)))
    h_small = (h2(c) * _GH_W).sum(axis=-1)
    dl = np.where(small, 1.0, d)[..., None]
    dens = norm_pdf((_GL_L - dl**2 / 2.0) / dl) / dl
    h_large = (_GL_H * dens * _GL_W).sum(axis=-1)
    return scalar_or_array(1.0 - np.where(small, h_small, h_large))


def noise_info(kind: str, acc):
    """Transmitted information (bits) of a noise classifier with accuracy ``acc``.

    Uniform and binary noise attain the upper and lower bounds of Theorem 3,
    :math:`1 - 2(1 - acc)` and :math:`1 - H_2(acc)`; normal noise is :func:`normal_info` at
    :math:`d' = 2\\Phi^{-1}(acc)` (1 at acc = 1).

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case.
    acc : float or array_like
        Accuracies in [0.5, 1].

    Returns
    -------
    float or ndarray
        Information in bits.

    Raises
    ------
    ValueError
        For an unknown ``kind`` or an accuracy outside [0.5, 1].

    References
    ----------
    Meyen et al. (2025), Figure 2 (the three cases) and Theorem 3 (the bounds they attain).

    Examples
    --------
    >>> [round(noise_info(k, 0.7), 2) for k in ("uniform", "normal", "binary")]
    [0.4, 0.17, 0.12]
    """
    kind = as_noise_kind(kind)
    acc = as_accuracy(acc)
    if kind == "uniform":
        return scalar_or_array(1.0 - 2.0 * (1.0 - acc))
    if kind == "binary":
        return scalar_or_array(1.0 - h2(acc))
    sure = acc >= 1.0
    out = np.where(sure, 1.0, normal_info(dprime(np.where(sure, 0.5, acc))))
    return scalar_or_array(out)


def discrete_confidence(kind: str, acc: float) -> Distribution:
    """Confidence values and their probabilities for the binary and uniform noise classifiers.

    Parameters
    ----------
    kind : {"binary", "uniform"}
        A noise case with discrete confidence (normal noise has a density:
        :func:`normal_confidence_pdf`).
    acc : float
        Accuracy in [0.5, 1].

    Returns
    -------
    Distribution
        ``(values, weights)``. Binary noise: ``[acc]`` with weight 1. Uniform noise: ``[0.5, 1]``
        with weights ``[2(1 - acc), 2 acc - 1]``.

    Raises
    ------
    ValueError
        For ``kind="normal"`` or an unknown kind, or ``acc`` not one number in [0.5, 1].

    References
    ----------
    Meyen et al. (2025), Figure 2b–c.

    Examples
    --------
    >>> c, w = discrete_confidence("uniform", 0.7)
    >>> c.tolist(), w.round(2).tolist()
    ([0.5, 1.0], [0.6, 0.4])
    """
    kind = as_noise_kind(kind)
    if kind == "normal":
        raise ValueError("the normal-noise confidence is continuous: use normal_confidence_pdf")
    acc = _noise_acc(kind, acc, scalar=True)
    if kind == "binary":
        return Distribution(np.array([acc]), np.array([1.0]))
    return Distribution(np.array([0.5, 1.0]), np.array([2.0 * (1.0 - acc), 2.0 * acc - 1.0]))


def normal_confidence_pdf(c, d):
    """Density of the confidence :math:`C = (1 + e^{-d'|X|})^{-1}` of the normal-noise classifier.

    With :math:`a = \\mathrm{logit}(c)/d'` the distance of the observation from the criterion,
    :math:`f_C(c) = [\\varphi(a - d'/2) + \\varphi(a + d'/2)] / (d' c (1 - c))` on (0.5, 1).

    Parameters
    ----------
    c : float or array_like
        Confidences in [0.5, 1]; the density is 0 at the two ends.
    d : float
        Sensitivity d′ > 0.

    Returns
    -------
    float or ndarray
        The density, shaped like ``c``.

    Raises
    ------
    ValueError
        For confidences outside [0.5, 1] or a ``d`` that is not one positive number.

    References
    ----------
    Meyen et al. (2025), Figure 2a (the confidence distribution of normal noise).

    Examples
    --------
    >>> round(normal_confidence_pdf(0.75, 1.05), 3)
    2.359
    """
    c = as_confidence(c)
    d = as_scalar(d, "d'")
    if d <= 0:
        raise ValueError("d' must be positive for a confidence density")
    inner = (c > 0.5) & (c < 1.0)
    cc = np.where(inner, c, 0.75)
    a = np.log(cc / (1 - cc)) / d
    dens = (norm_pdf(a - d / 2) + norm_pdf(a + d / 2)) / (d * cc * (1 - cc))
    return scalar_or_array(np.where(inner, dens, 0.0))


def _label(label) -> int:
    if isinstance(label, (bool, np.bool_)) or label not in (-1, 1):
        raise ValueError(f"label must be -1 or +1; got {label!r}")
    return int(label)


def observation_pdf(kind: str, x, label: int, acc: float):
    """Density (normal, uniform) or probability mass (binary, at x = ±1) of the observation X | Y.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case.
    x : array_like
        Observation values.
    label : {-1, +1}
        The true label Y.
    acc : float
        The classifier's accuracy, in [0.5, 1] (below 1 for normal noise).

    Returns
    -------
    float or ndarray
        Density or probability of each ``x``.

    Raises
    ------
    ValueError
        For an unknown kind, a label other than ±1 or an accuracy out of range.

    References
    ----------
    Meyen et al. (2025), Figure 2, top row.

    Examples
    --------
    >>> observation_pdf("uniform", [0.0, 0.6, 0.8], +1, 0.7).tolist()
    [1.0, 1.0, 0.0]
    """
    kind = as_noise_kind(kind)
    label = _label(label)
    x = as_float_array(x, "x")
    acc = _noise_acc(kind, acc, scalar=True)
    if kind == "normal":
        return scalar_or_array(norm_pdf(x - label * dprime(acc) / 2.0))
    if kind == "uniform":
        s = acc - 0.5
        return scalar_or_array(((x >= label * s - 0.5) & (x <= label * s + 0.5)).astype(float))
    return scalar_or_array(np.where(x == label, acc, np.where(x == -label, 1.0 - acc, 0.0)))


def _confidence(kind: str, x, acc):
    """Calibrated confidence of sign(x) (validated ``kind``; ``x`` and ``acc`` broadcast)."""
    if kind == "normal":
        return expit(dprime(acc) * np.abs(x))
    if kind == "uniform":
        return np.where(np.abs(x) > 1.0 - acc, 1.0, 0.5)
    return np.broadcast_to(acc, np.broadcast_shapes(np.shape(x), np.shape(acc))).astype(float)


def confidence_from_observation(kind: str, x, acc):
    """Calibrated confidence of the Bayes prediction :math:`\\hat Y = \\mathrm{sign}(X)` given X.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case.
    x : array_like
        Observations.
    acc : float or array_like
        Accuracies in [0.5, 1] (below 1 for normal noise), broadcast against ``x``.

    Returns
    -------
    float or ndarray
        Normal noise :math:`\\sigma(d'|x|)`; uniform noise 1 outside the overlap
        :math:`|x| \\le 1 - acc` and 0.5 inside; binary noise ``acc``.

    Raises
    ------
    ValueError
        For an unknown kind, non-finite ``x`` or an accuracy out of range.

    References
    ----------
    Meyen et al. (2025), Figure 2, middle row.

    Examples
    --------
    >>> confidence_from_observation("uniform", [0.1, 0.5], 0.7).tolist()
    [0.5, 1.0]
    """
    kind = as_noise_kind(kind)
    x = as_float_array(x, "x")
    acc = _noise_acc(kind, acc)
    return scalar_or_array(_confidence(kind, x, acc))


def sample_observations(kind: str, acc, label, rng=None):
    """Draw observations :math:`X \\mid Y` of a noise classifier, vectorised.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case.
    acc : float or array_like
        Accuracies in [0.5, 1] (below 1 for normal noise), broadcast against ``label``.
    label : array_like of ±1
        True labels; the output has the broadcast shape of ``acc`` and ``label``.
    rng : numpy.random.Generator or int, optional
        Random generator (or seed).

    Returns
    -------
    ndarray
        Normal: :math:`\\pm d'/2 + N(0, 1)`; uniform: :math:`\\pm(acc - 1/2) + U(-1/2, 1/2)`;
        binary: the label with probability ``acc``, else its negation.

    Raises
    ------
    ValueError
        For an unknown kind, labels other than ±1 or accuracies out of range.

    References
    ----------
    Meyen et al. (2025), Figure 2 and section "Comparison of Type 2 Performance Measures: Setup".

    Examples
    --------
    >>> x = sample_observations("normal", 0.7, [-1, 1] * 5000, rng=1)
    >>> round(float(np.mean(np.sign(x) == [-1, 1] * 5000)), 2)
    0.7
    """
    kind = as_noise_kind(kind)
    acc = _noise_acc(kind, acc)
    label = as_labels(label)
    rng = as_rng(rng)
    shape = np.broadcast_shapes(acc.shape, label.shape)
    if kind == "normal":
        return label * dprime(acc) / 2.0 + rng.standard_normal(shape)
    if kind == "uniform":
        return label * (acc - 0.5) + rng.uniform(-0.5, 0.5, shape)
    return np.where(rng.random(shape) < acc, label, -label)
