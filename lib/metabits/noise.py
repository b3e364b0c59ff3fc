"""The three noise cases of Meyen et al. (2025), Figure 2: normal, binary and uniform noise.

Each is a calibrated, Bayes-optimal classifier for two equally probable labels, described by its
accuracy ``acc``. Observations :math:`X` given the label :math:`Y = \\pm 1` are

* **normal**: :math:`X \\sim N(\\pm d'/2, 1)` with :math:`acc = \\Phi(d'/2)`; confidence
  :math:`C = (1 + e^{-d'|X|})^{-1}`;
* **binary**: :math:`X = Y` with probability ``acc``, else :math:`-Y`; confidence always ``acc``
  (the lower bound of Theorem 3);
* **uniform**: :math:`X \\sim U(\\pm s - 1/2, \\pm s + 1/2)` with :math:`s = acc - 1/2`; confidence
  1 outside the overlap of the two supports and 0.5 inside it (the upper bound of Theorem 3).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._validate import as_float_array, as_probability, as_scalar, scalar_or_array
from .information import binary_entropy

NOISE_TYPES = ("uniform", "normal", "binary")

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
_GL_H = None  # H2(sigmoid(l)) at the nodes, filled on first use


def _kind(kind: str) -> str:
    if kind not in NOISE_TYPES:
        raise ValueError(f"noise kind must be one of {NOISE_TYPES}; got {kind!r}")
    return kind


def _acc(acc) -> np.ndarray:
    return as_probability(acc, "acc", 0.5, 1.0)


def _one_acc(acc, kind: str) -> float:
    """One accuracy in [0.5, 1], below 1 for normal noise (whose d′ would be infinite)."""
    acc = float(as_probability(as_scalar(acc, "acc"), "acc", 0.5, 1.0))
    if kind == "normal" and acc >= 1.0:
        raise ValueError("acc must be below 1 for normal noise (d' would be infinite)")
    return acc


def dprime_from_accuracy(acc):
    """Sensitivity :math:`d' = 2\\Phi^{-1}(acc)` of the unbiased equal-variance normal classifier.

    Raises
    ------
    ValueError
        If ``acc`` is outside [0.5, 1].

    Returns
    -------
    float or ndarray
        d′ >= 0; ``inf`` at ``acc = 1`` (a perfect classifier has an unbounded sensitivity).
    """
    return scalar_or_array(2.0 * stats.norm.ppf(_acc(acc)))


def accuracy_from_dprime(d):
    """Accuracy :math:`\\Phi(d'/2)` of the unbiased normal-noise classifier with sensitivity d′ >= 0."""
    d = as_float_array(d, "d'")
    if np.any(d < 0):
        raise ValueError(f"d' must be non-negative; got {d[d < 0].ravel()[0]:g}")
    return scalar_or_array(stats.norm.cdf(d / 2.0))


def normal_info(d):
    """Transmitted information (bits) of the normal-noise classifier with sensitivity ``d``.

    :math:`info = 1 - E[H_2(C)]` with :math:`C = (1 + e^{-d'|X|})^{-1}` (Meyen et al., 2025,
    section "A Signal Detection Theory Example"). Because :math:`H_2` is symmetric, the integrand
    :math:`H_2(\\sigma(d'X))` is smooth. For d′ < 1 a 120-point Gauss–Hermite rule over
    :math:`X \\sim N(d'/2, 1)` integrates it; for d′ >= 1 the expectation is taken over the log-odds
    :math:`d'X \\sim N(d'^2/2, d'^2)` with a 1,600-point composite Gauss–Legendre rule on [-50, 50].
    Both agree with adaptive quadrature to 1e-12 (tested). Vectorised over ``d``.

    Raises
    ------
    ValueError
        If ``d`` is negative or not finite.
    """
    d = as_float_array(d, "d'")
    if np.any(d < 0):
        raise ValueError(f"d' must be non-negative; got {d[d < 0].ravel()[0]:g}")
    global _GL_H
    if _GL_H is None:
        _GL_H = binary_entropy(1.0 / (1.0 + np.exp(-np.abs(_GL_L))))
    small = d < 1.0
    ds = np.where(small, d, 0.5)[..., None]
    d = np.minimum(d, 1e6)  # beyond d' = 40 the information is 1 to double precision
    c = 1.0 / (1.0 + np.exp(-np.abs(ds * (ds / 2.0 + _GH_Z))))
    h_small = (binary_entropy(c) * _GH_W).sum(axis=-1)
    dl = np.where(small, 1.0, d)[..., None]
    dens = np.exp(-0.5 * ((_GL_L - dl**2 / 2.0) / dl) ** 2) / (dl * np.sqrt(2.0 * np.pi))
    h_large = (_GL_H * dens * _GL_W).sum(axis=-1)
    return scalar_or_array(1.0 - np.where(small, h_small, h_large))


def noise_info(kind: str, acc):
    """Transmitted information (bits) of a noise classifier with accuracy ``acc``.

    Uniform and binary noise attain the upper and lower bounds of Theorem 3; normal noise is
    :func:`normal_info` at :math:`d' = 2\\Phi^{-1}(acc)`.
    """
    acc = _acc(acc)
    kind = _kind(kind)
    if kind == "uniform":
        return scalar_or_array(1.0 - 2.0 * (1.0 - acc))
    if kind == "binary":
        return scalar_or_array(1.0 - binary_entropy(acc))
    with np.errstate(over="ignore"):
        d = 2.0 * stats.norm.ppf(acc)
    out = np.where(acc >= 1.0, 1.0, normal_info(np.where(acc >= 1.0, 0.0, d)))
    return scalar_or_array(out)


def discrete_confidence(kind: str, acc: float):
    """Confidence values and their probabilities for the binary and uniform noise classifiers.

    Returns
    -------
    c, weights : ndarray
        Binary noise: ``[acc]`` with weight 1. Uniform noise: ``[0.5, 1]`` with weights
        ``[2(1 - acc), 2 acc - 1]``.
    """
    acc = _one_acc(acc, _kind(kind))
    if kind == "binary":
        return np.array([acc]), np.array([1.0])
    if kind == "uniform":
        return np.array([0.5, 1.0]), np.array([2.0 * (1.0 - acc), 2.0 * acc - 1.0])
    raise ValueError("the normal-noise confidence is continuous: use normal_confidence_pdf")


def normal_confidence_pdf(c, d):
    """Density of the confidence :math:`C = (1 + e^{-d'|X|})^{-1}` of the normal-noise classifier.

    With :math:`a = \\mathrm{logit}(c)/d'` the distance of the observation from the criterion,
    :math:`f_C(c) = [\\varphi(a - d'/2) + \\varphi(a + d'/2)] / (d' c (1 - c))` on (0.5, 1).
    """
    c = as_probability(c, "confidence c", 0.5, 1.0)
    d = as_scalar(d, "d'")
    if d <= 0:
        raise ValueError("d' must be positive for a confidence density")
    inner = (c > 0.5) & (c < 1.0)
    cc = np.where(inner, c, 0.75)
    a = np.log(cc / (1 - cc)) / d
    dens = (stats.norm.pdf(a - d / 2) + stats.norm.pdf(a + d / 2)) / (d * cc * (1 - cc))
    return scalar_or_array(np.where(inner, dens, 0.0))


def observation_pdf(kind: str, x, label: int, acc: float):
    """Density (normal, uniform) or probability mass (binary, at x = ±1) of the observation X | Y.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    x : array_like
        Observation values.
    label : {-1, +1}
        The true label Y.
    acc : float
        The classifier's accuracy, in [0.5, 1).
    """
    if isinstance(label, bool) or label not in (-1, 1):
        raise ValueError(f"label must be -1 or +1; got {label!r}")
    x = as_float_array(x, "x")
    kind = _kind(kind)
    acc = _one_acc(acc, kind)
    if kind == "normal":
        d = 2.0 * stats.norm.ppf(acc)
        return scalar_or_array(stats.norm.pdf(x, loc=label * d / 2.0))
    if kind == "uniform":
        s = acc - 0.5
        return scalar_or_array(((x >= label * s - 0.5) & (x <= label * s + 0.5)).astype(float))
    return scalar_or_array(np.where(x == label, acc, np.where(x == -label, 1.0 - acc, 0.0)))


def confidence_from_observation(kind: str, x, acc: float):
    """Calibrated confidence of the Bayes prediction :math:`\\hat Y = \\mathrm{sign}(X)` given X."""
    x = as_float_array(x, "x")
    kind = _kind(kind)
    acc = _one_acc(acc, kind)
    if kind == "normal":
        d = 2.0 * stats.norm.ppf(acc)
        with np.errstate(over="ignore"):
            return scalar_or_array(1.0 / (1.0 + np.exp(-d * np.abs(x))))
    if kind == "uniform":
        return scalar_or_array(np.where(np.abs(x) > 1.0 - acc, 1.0, 0.5))
    return scalar_or_array(np.full(x.shape, acc))
