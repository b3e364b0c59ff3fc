"""Calibration: distorting and repairing stated confidences by a linear map in log-odds space.

Meyen et al. (2025) estimate confidences from frequencies, so their Type 2 measures do not need
calibrated raters — but their group bounds do (Discussion, "Limiting Assumptions for Group
Bounds"): a group that weights its members by *stated* confidences weights them wrongly when the
statements are off. Zhang & Maloney (2012) found human probability distortions to be linear in
log-odds,

.. math::

    \\mathrm{LO}(\\tilde c) = \\gamma\\,\\mathrm{LO}(c) + (1 - \\gamma)\\,\\mathrm{LO}(p_0),
    \\qquad \\mathrm{LO}(c) = \\log\\frac{c}{1 - c},

with slope γ (γ < 1: too moderate, γ > 1: too extreme) and crossover point :math:`p_0`; so a
linear map in log-odds, fitted to a member's record, can undo them.

* :func:`distort_confidence` – the linear-in-log-odds distortion;
* :func:`fit_log_odds_map` – fit the map from stated log-odds to the probability of being right
  (logistic regression), returned as a :class:`LogOddsMap` that recalibrates new statements;
* :func:`log_odds_weights` – the signed log-odds votes of a member's responses, the weights a
  group adds up (:func:`metabits.group.weighted_vote_accuracy`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logit

from metabits.results import Result
from metabits.validation import (as_float_array, as_positive, as_probability, as_same_length,
                                 as_scalar, scalar_or_array)

__all__ = ["LogOddsMap", "distort_confidence", "fit_log_odds_map", "log_odds_weights"]


def _open_unit(c, name: str) -> np.ndarray:
    return as_probability(c, name, 0.0, 1.0, low_open=True, high_open=True,
                          why_low="its log-odds would be -infinite",
                          why_high="its log-odds would be infinite")


def distort_confidence(c, gamma, p0=0.5):
    """Zhang & Maloney's linear-in-log-odds distortion of probabilities.

    :math:`\\mathrm{LO}(\\tilde c) = \\gamma\\,\\mathrm{LO}(c) + (1 - \\gamma)\\,\\mathrm{LO}(p_0)`.

    Parameters
    ----------
    c : float or array_like
        Probabilities (calibrated confidences) strictly between 0 and 1.
    gamma : float
        Slope γ > 0: below 1 the statements are too moderate, above 1 too extreme.
    p0 : float, default 0.5
        Crossover point, the probability left unchanged, strictly between 0 and 1.

    Returns
    -------
    float or ndarray
        The distorted (stated) probabilities, shaped like ``c``.

    Raises
    ------
    ValueError
        For probabilities or p0 outside (0, 1), or γ not positive.

    References
    ----------
    Zhang & Maloney (2012), "Ubiquitous log odds"; Meyen et al. (2025), Discussion, "Limiting
    Assumptions for Group Bounds".

    Examples
    --------
    >>> distort_confidence([0.6, 0.9], gamma=2.0).round(3).tolist()   # too extreme
    [0.692, 0.988]
    >>> round(distort_confidence(0.7, gamma=0.5, p0=0.7), 6)          # p0 stays put
    0.7
    """
    c = _open_unit(c, "confidence c")
    g = float(as_positive(as_scalar(gamma, "gamma"), "gamma",
                          "a non-positive slope would reverse or erase the ordering"))
    lo0 = float(logit(_open_unit(as_scalar(p0, "p0"), "p0")))
    return scalar_or_array(expit(g * logit(c) + (1.0 - g) * lo0))


@dataclass(frozen=True)
class LogOddsMap(Result):
    """A linear map in log-odds space, :math:`\\mathrm{LO} \\mapsto a\\,\\mathrm{LO} + b`
    (:func:`fit_log_odds_map`).

    Attributes
    ----------
    slope : float
        a.
    intercept : float
        b.
    """

    slope: float
    intercept: float

    def apply(self, c):
        """The recalibrated probabilities :math:`\\sigma(a\\,\\mathrm{LO}(c) + b)` of statements
        ``c`` (strictly between 0 and 1)."""
        return scalar_or_array(expit(self.slope * logit(_open_unit(c, "confidence c"))
                                     + self.intercept))


def fit_log_odds_map(stated, correct, weights=None) -> LogOddsMap:
    """Fit the linear map from stated log-odds to the log-odds of being right.

    Maximum-likelihood logistic regression
    :math:`P(\\text{correct} \\mid \\tilde c) = \\sigma(a\\,\\mathrm{LO}(\\tilde c) + b)` by Newton's
    method. If the statements follow :func:`distort_confidence` of calibrated confidences, the
    true map is :math:`a = 1/\\gamma`, :math:`b = -(1 - \\gamma)\\,\\mathrm{LO}(p_0)/\\gamma`, and the fit
    recovers it as the record grows.

    Parameters
    ----------
    stated : array_like, shape (n,)
        Stated confidences of the predictions, strictly between 0 and 1.
    correct : array_like, shape (n,)
        Whether each prediction was right (booleans or 0/1), or, with ``weights``, the share of
        right predictions among the ``weights[i]`` trials with statement ``stated[i]``.
    weights : array_like, shape (n,), optional
        Number of trials behind each entry (aggregated records); 1 each if omitted.

    Returns
    -------
    LogOddsMap
        ``slope`` and ``intercept``; ``.apply(c)`` recalibrates.

    Raises
    ------
    ValueError
        For mismatched lengths, fewer than two distinct statements, shares outside [0, 1],
        negative weights, or records that separate right from wrong perfectly (no finite fit).

    References
    ----------
    Zhang & Maloney (2012); Meyen et al. (2025), Discussion: "post hoc calibration can often be
    achieved by a linear mapping in log odds space".

    Examples
    --------
    A member that states 0.6 and 0.9 but is right 55% and 75% of the time:

    >>> m = fit_log_odds_map([0.6, 0.9], [0.55, 0.75], weights=[100, 100])
    >>> m.apply([0.6, 0.9]).round(3).tolist()
    [0.55, 0.75]
    """
    s = np.atleast_1d(_open_unit(stated, "stated confidences"))
    correct = np.asarray(correct)
    if correct.dtype == bool:  # right / wrong per trial
        correct = correct.astype(float)
    y = np.atleast_1d(as_probability(correct, "correct (0/1 or shares)"))
    w = np.ones_like(s) if weights is None else np.atleast_1d(as_float_array(weights, "weights"))
    as_same_length(s, y, "stated and correct")
    as_same_length(s, w, "stated and weights")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative trial counts")
    x = logit(s)
    if np.unique(x[w > 0]).size < 2:
        raise ValueError("a slope needs at least two distinct stated confidences")
    X = np.column_stack([x, np.ones_like(x)])
    beta = np.array([1.0, 0.0])
    for _ in range(100):
        p = expit(X @ beta)
        grad = X.T @ (w * (y - p))
        hess = (X * (w * p * (1.0 - p))[:, None]).T @ X
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:  # the weights p(1 - p) vanished: a separating fit
            beta = np.full(2, np.inf)
            break
        beta = beta + step
        if np.max(np.abs(step)) < 1e-12 * (1.0 + np.max(np.abs(beta))):
            break
        if np.max(np.abs(beta)) > 1e3:
            break
    if not np.all(np.isfinite(beta)) or np.max(np.abs(beta)) > 1e3:
        raise ValueError("the record separates right from wrong predictions perfectly: the "
                         "log-odds map has no finite maximum-likelihood fit")
    return LogOddsMap(slope=float(beta[0]), intercept=float(beta[1]))


def log_odds_weights(stated) -> np.ndarray:
    """Signed log-odds votes of a member's responses from their stated confidences.

    In the library's table convention the first half of the 2J responses predicts −1 and the
    second half +1; a response predicting :math:`\\hat y` with stated confidence
    :math:`\\tilde c` votes :math:`\\hat y\\,\\log\\frac{\\tilde c}{1 - \\tilde c}`, its term in the
    paper's rule :math:`\\mathrm{sign}(\\sum_k \\log\\frac{C_k}{1 - C_k}\\hat Y_k)`.

    Parameters
    ----------
    stated : array_like, shape (2J,)
        Stated confidence of each response, in (0, 1).

    Returns
    -------
    ndarray, shape (2J,)
        The votes (negative for the "predict −1" half).

    Raises
    ------
    ValueError
        For confidences outside (0, 1) or an odd number of responses.

    References
    ----------
    Meyen et al. (2025), section "Relative Metainformation Improves Group Accuracy" (PCWMV).

    Examples
    --------
    >>> log_odds_weights([0.9, 0.6, 0.6, 0.9]).round(3).tolist()
    [-2.197, -0.405, 0.405, 2.197]
    """
    s = np.atleast_1d(_open_unit(stated, "stated confidences"))
    if s.ndim != 1 or s.size % 2:
        raise ValueError(f"stated needs one confidence for each of 2J responses; got shape "
                         f"{s.shape}")
    J = s.size // 2
    return np.concatenate([-logit(s[:J]), logit(s[J:])])
