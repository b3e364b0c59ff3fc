"""Group members as response tables (Meyen et al., 2025, Figure 8 and Theorem 8).

A member's table has shape ``(2, R)``: row 0 :math:`P(r \\mid Y = -1)`, row 1 :math:`P(r \\mid Y = +1)`,
responses from "predict −1, most confident" to "predict +1, most confident" — the library's table
convention (:mod:`metabits.validation`).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, ndtr

from metabits._formulas import dprime
from metabits.validation._scalars import as_callable, as_cdf_values
from metabits.validation import (as_accuracy, as_confidence, as_member_rates, as_positive, as_prior,
                                 as_scalar)
from metabits.validation._scalars import as_distribution
from metabits.validation._tables import as_response_table
from metabits.group._llr import MAX_CELLS
from metabits.info import discrete_confidence

__all__ = ["confidence_member", "lattice_member", "max_group_member", "member_confidence",
           "min_group_member", "noise_member"]


def _symmetric(right, wrong) -> np.ndarray:
    """The table of a member with label-independent confidence: ``right[j]`` and ``wrong[j]`` are
    the probabilities of a correct and a wrong prediction at strength j (least confident first)."""
    return np.array([np.concatenate([right[::-1], wrong]),
                     np.concatenate([wrong[::-1], right])])


def confidence_member(c, weights=None) -> np.ndarray:
    """Response table of a calibrated member with confidence values ``c`` and their ``weights``.

    Under equal priors and label-independent confidence (Assumptions 11–12) a member with
    confidence c is correct with probability c, so
    :math:`P(\\hat Y=+1, C=c \\mid Y=+1) = f_C(c)\\,c` and :math:`P(\\hat Y=-1, C=c \\mid Y=+1) = f_C(c)(1-c)`,
    and mirrored for Y = −1.

    Parameters
    ----------
    c : array_like, shape (R,)
        Confidence values in [0.5, 1].
    weights : array_like, shape (R,), optional
        Their probabilities (summing to 1); equal if omitted.

    Returns
    -------
    ndarray, shape (2, 2R)
        Responses "predict −1" from the highest confidence down, then "predict +1" from the
        lowest confidence up.

    Raises
    ------
    ValueError
        For confidences outside [0.5, 1], weights that are not a distribution, or mismatched lengths.

    References
    ----------
    Meyen et al. (2025), Assumptions 11–13 and Figure 8.

    Examples
    --------
    >>> confidence_member([0.5, 1.0], [0.6, 0.4])   # a uniform-noise member at 70%
    array([[0.4, 0.3, 0.3, 0. ],
           [0. , 0.3, 0.3, 0.4]])
    """
    c = np.atleast_1d(as_confidence(c))
    w = np.full(c.shape, 1.0 / c.size) if weights is None else np.atleast_1d(
        as_distribution(weights, "weights"))
    if c.ndim != 1 or c.shape != w.shape:
        raise ValueError(f"confidence values {c.shape} and weights {w.shape} must be 1-D of "
                         "equal length")
    order = np.argsort(c, kind="stable")
    c, w = c[order], w[order]
    return _symmetric(w * c, w * (1.0 - c))


def _round_up(x: float, digits: int = 3) -> float:
    """``x`` rounded up to ``digits`` significant digits (a smallest value that is allowed)."""
    unit = 10.0 ** (np.floor(np.log10(x)) - digits + 1)
    return float(np.ceil(x / unit) * unit)


def lattice_member(abs_llr_cdf, step: float = 0.01, tail: float = 1e-12) -> np.ndarray:
    """Response table of a continuous calibrated member, discretised on a log-odds lattice.

    The member's absolute log-odds :math:`\\Lambda = |\\log\\frac{C}{1-C}|` (label-independent,
    Assumptions 11–12) is binned into cells :math:`[(j-\\tfrac12)h, (j+\\tfrac12)h)` of width
    ``h = step``; a cell of mass :math:`m_j` becomes the confidence :math:`\\sigma(jh)`. The result is
    itself a calibrated member whose log-likelihood ratios lie on the lattice, so :func:`pcwmv`
    with the same ``step`` convolves it exactly by FFT. The discretisation changes group accuracy
    and information by O(h²): for normal noise with acc in [0.55, 0.95], K ≤ 25 and h = 0.01 the
    error is below 3e-5 (tested against the exact :func:`noise_group`).

    Parameters
    ----------
    abs_llr_cdf : callable
        Vectorised :math:`\\lambda \\mapsto P(\\Lambda \\le \\lambda)` for λ ≥ 0.
    step : float
        Lattice width h > 0, at least the width that puts the member on 5·10**6 cells, a table
        of 10**7 responses (the cells run from 0 to where the CDF is within ``tail`` of 1, at
        least to 8: the smallest step is then about 1.6e-6).
    tail : float
        Mass beyond the last cell that is folded into it, strictly between 0 and 1.

    Returns
    -------
    ndarray, shape (2, 2J)
        The member's table over the J lattice cells (see :func:`confidence_member`).

    Raises
    ------
    ValueError
        For a non-positive ``step`` or one so small that the lattice would have more than
        5·10**6 cells (the message gives the smallest step), a ``tail`` outside (0, 1), or a
        function that is not a CDF of :math:`|\\log\\text{-odds}|` (it does not reach 1).

    References
    ----------
    Meyen et al. (2025), Figure 8 (normal-noise groups).

    Examples
    --------
    >>> import numpy as np
    >>> t = lattice_member(lambda lam: 1 - np.exp(-lam), step=0.5)
    >>> t.shape[0], bool(np.allclose(t.sum(axis=1), 1))
    (2, True)
    """
    h = as_scalar(step, "step")
    tail = as_scalar(tail, "tail")
    if not 0.0 < tail < 1.0:
        raise ValueError(f"tail must lie strictly between 0 and 1; got {tail:g}")
    if h <= 0:
        raise ValueError(f"step must be positive; got {h:g}")
    as_callable(abs_llr_cdf, "abs_llr_cdf")
    top = 8.0
    while 1.0 - float(as_cdf_values(abs_llr_cdf(top), "abs_llr_cdf")) > tail:
        top *= 2.0
        if top > 4096:
            raise ValueError("abs_llr_cdf does not reach 1: is it a CDF of |log-odds|?")
    n_cells, most = np.ceil(top / h) + 1, MAX_CELLS // 2  # the table mirrors the cells
    if n_cells > most:
        cells = f"{int(n_cells):,}" if n_cells < 1e12 else f"{n_cells:.3g}"
        raise ValueError(f"step = {h:g} would put this member on {cells} lattice cells "
                         f"(|log-odds| 0 to {top:g}); at most {most:,} are built (a table of "
                         f"{MAX_CELLS:,} responses, as many as pcwmv convolves): the smallest "
                         f"step is {_round_up(top / (most - 1)):.3g}")
    edges = (np.arange(int(n_cells)) + 0.5) * h
    cdf = as_cdf_values(abs_llr_cdf(edges), "abs_llr_cdf")
    if cdf.shape != edges.shape:
        raise ValueError(f"abs_llr_cdf must return one value per point; got shape {cdf.shape} "
                         f"for {edges.shape}")
    cdf = np.maximum.accumulate(cdf)  # rounding noise only: as_cdf_values refused a decrease
    cdf = cdf[: np.count_nonzero(1.0 - cdf > tail) + 1]  # the last cell takes the remaining tail
    mass = np.diff(np.concatenate([[0.0], cdf[:-1], [1.0]]))
    lam = np.arange(mass.size) * h
    return _symmetric(mass * expit(lam), mass * expit(-lam))


def noise_member(kind: str, acc: float, step: float = 0.01) -> np.ndarray:
    """Response table of a uniform, binary (exact) or normal (lattice) noise classifier.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case (Figure 2).
    acc : float
        Accuracy in [0.5, 1] (below 1 for normal noise).
    step : float, default 0.01
        Lattice width of the normal-noise member (:func:`lattice_member`): > 0, and not so small
        that the lattice exceeds 5·10**6 cells (about 1.6e-6 at acc = 0.7, more at higher
        accuracies; the message gives the smallest step). Checked for every kind, used only for
        normal noise: the uniform and binary members are exact.

    Returns
    -------
    ndarray, shape (2, R)
        The member's table.

    Raises
    ------
    ValueError
        For an unknown kind, an accuracy out of range, or a ``step`` that is not a number > 0
        (or, for normal noise, too small: see ``step``).

    References
    ----------
    Meyen et al. (2025), Figures 2 and 8.

    Examples
    --------
    >>> noise_member("binary", 0.7)
    array([[0.7, 0.3],
           [0.3, 0.7]])
    """
    as_positive(as_scalar(step, "step"), "step", "the lattice width")
    if kind != "normal":
        return confidence_member(*discrete_confidence(kind, acc))
    acc = as_accuracy(acc, high_open=True, scalar=True,
                      why_high="normal noise at acc = 1 has infinite log-odds")
    d = float(dprime(acc))

    def cdf(lam):  # P(d'|X| <= lam) with X ~ N(d'/2, 1)
        if d == 0:
            return np.ones_like(np.asarray(lam, dtype=float))
        a = np.asarray(lam) / d
        return ndtr(a - d / 2) - ndtr(-a - d / 2)

    return lattice_member(cdf, step)


def _one_member(acc_pos, acc_neg, prior, bayes=True):
    tp, tn, p, acc = as_member_rates(acc_pos, acc_neg, prior, bayes)
    if tp.size != 1:
        raise ValueError(f"this builds one member: acc_pos and acc_neg must be single numbers; "
                         f"got shape {tp.shape}")
    return float(tp[0]), float(tn[0]), p, float(acc[0])


def max_group_member(acc_pos: float, acc_neg: float, prior: float = 0.5) -> np.ndarray:
    """A member with RMI = 1 and the given true positive / negative rates: it attains Theorem 8's
    upper bound in every group of such members, for any prior.

    Responses: certain −1, two responses with posterior exactly 1/2 (predicting −1 and +1), and
    certain +1. With :math:`e = 1 - acc` the certain responses have probability
    :math:`1 - e/p_+` given Y = +1 and :math:`1 - e/p_-` given Y = −1.

    Parameters
    ----------
    acc_pos, acc_neg : float
        True positive rate :math:`acc_+` and true negative rate :math:`acc_-`.
    prior : float, default 0.5
        :math:`P(Y = +1)`, strictly between 0 and 1.

    Returns
    -------
    ndarray, shape (2, 4)
        Responses: certain −1, unsure −1, unsure +1, certain +1.

    Raises
    ------
    ValueError
        For rates outside [0, 1], a prior outside (0, 1), or an accuracy below the larger prior.

    References
    ----------
    Meyen et al. (2025), Theorem 8 (upper bound).

    Examples
    --------
    >>> max_group_member(0.7, 0.7).round(2)
    array([[0.4, 0.3, 0.3, 0. ],
           [0. , 0.3, 0.3, 0.4]])
    """
    tp, tn, p, acc = _one_member(acc_pos, acc_neg, prior)
    e = 1.0 - acc
    sure_p, sure_n = max(1.0 - e / p, 0.0), max(1.0 - e / (1.0 - p), 0.0)
    odds = p / (1.0 - p)
    return np.array([[sure_n, (1.0 - tp) * odds, (tp - sure_p) * odds, 0.0],
                     [0.0, 1.0 - tp, tp - sure_p, sure_p]])


def min_group_member(acc_pos: float, acc_neg: float) -> np.ndarray:
    """A member that reports only its prediction (constant confidence per prediction).

    It attains Theorem 8's lower bound in every group of such members; RMI = 0 under
    Assumptions 11–12.

    Parameters
    ----------
    acc_pos, acc_neg : float
        True positive and true negative rate, in [0, 1].

    Returns
    -------
    ndarray, shape (2, 2)
        Responses: predict −1, predict +1.

    Raises
    ------
    ValueError
        For rates outside [0, 1].

    References
    ----------
    Meyen et al. (2025), Theorem 8 (lower bound).

    Examples
    --------
    >>> min_group_member(0.5, 0.9)
    array([[0.9, 0.1],
           [0.5, 0.5]])
    """
    tp, tn, _, _ = _one_member(acc_pos, acc_neg, 0.5, bayes=False)
    return np.array([[tn, 1.0 - tn], [1.0 - tp, tp]])


def member_confidence(table, prior=0.5) -> np.ndarray:
    """Calibrated confidence of each response of a member: the posterior of its predicted label,
    :math:`\\max\\{p_+P(r\\mid+),\\ p_-P(r\\mid-)\\}/(p_+P(r\\mid+) + p_-P(r\\mid-))` (Bayes' rule).

    Parameters
    ----------
    table : array_like, shape (2, R)
        The member's response table.
    prior : float, default 0.5
        :math:`P(Y = +1)`, strictly between 0 and 1.

    Returns
    -------
    ndarray, shape (R,)
        Confidences in [0.5, 1].

    Raises
    ------
    ValueError
        For a table that is not (2, R) with rows summing to 1, a prior outside (0, 1), or a response
        that never occurs.

    References
    ----------
    Meyen et al. (2025), Assumption 4 (calibrated confidence of Bayes predictions).

    Examples
    --------
    >>> member_confidence(min_group_member(0.7, 0.7), prior=0.6).round(3)
    array([0.609, 0.778])
    """
    t = as_response_table(table, "response table")
    p = as_prior(prior)
    pos, neg = p * t[1], (1.0 - p) * t[0]
    if np.any(pos + neg == 0):
        raise ValueError("a response of the member never occurs: its confidence is undefined")
    return np.maximum(pos, neg) / (pos + neg)
