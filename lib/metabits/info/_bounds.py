"""Bounds that the accuracy imposes on the transmitted information.

Theorem 3 (binary labels) and Theorem 6 (L labels) of Meyen et al. (2025), and the extreme
classifiers that attain them.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy.special import entr

from metabits._formulas import LN2, entropy_bits, theorem3_lower, theorem3_upper
from metabits.results import Bounds, Distribution
from metabits.validation import as_accuracy, as_float_array, as_probability, scalar_or_array
from metabits.validation._scalars import TOL, as_distribution

__all__ = ["info_bounds", "info_lower_bound", "info_upper_bound", "max_info_classifier",
           "min_info_classifier"]


def _priors(priors, sort: bool = True) -> np.ndarray:
    """Turn the ``priors`` argument into a 1-D distribution (sorted decreasingly if ``sort``)."""
    if as_float_array(priors, "priors").ndim == 0:
        p_plus = as_probability(priors, "prior p+")
        p = np.array([float(p_plus), 1.0 - float(p_plus)])
    else:
        p = as_distribution(priors, "priors")
        if p.ndim != 1:
            raise ValueError(f"priors must be a 1-D sequence; got shape {p.shape}")
        if p.size < 2:
            raise ValueError("priors must list at least two labels (L >= 2)")
    return np.sort(p)[::-1] if sort else p


def _accuracy_for(acc, p: np.ndarray, scalar: bool = False):
    """``acc`` in [max prior, 1], the range Theorems 3 and 6 cover (``p`` sorted decreasingly)."""
    return as_accuracy(acc, low=float(p[0]), scalar=scalar,
                       why_low="a classifier that predicts the most probable label (Assumptions 4 "
                           "and 8) has acc >= the largest prior, so the bounds do not cover less")


def info_upper_bound(acc, priors=0.5):
    """Highest transmitted information of a classifier with accuracy ``acc`` (bits).

    Theorem 6 (Berger, 2003), which for two labels is the upper bound of Theorem 3,
    :math:`\\max info = H_2(p_+) - 2(1 - acc)`. With :math:`m_1 = \\lfloor 1/acc \\rfloor` and
    :math:`m_2 = m_1 + 1`,

    .. math::

       \\begin{aligned}
       \\max info &= H(Y) - \\frac{N}{1/m_1 - 1/m_2}, \\\\
       N &= (1/m_1 - acc)\\log m_2 \\\\
         &\\quad + (acc - 1/m_2)\\log m_1,
       \\end{aligned}

    that is, :math:`H(Y)` minus the linear interpolation of :math:`\\log m` between the points
    :math:`(1/m, \\log m)`.

    Parameters
    ----------
    acc : float or array_like
        Accuracies in [max prior, 1].
    priors : float or sequence of float, default 0.5
        The prior :math:`p_+` of one label (binary case) or the L label priors.

    Returns
    -------
    float or ndarray
        The bound in bits, shaped like ``acc``.

    Raises
    ------
    ValueError
        For priors that are not a distribution, or an accuracy outside [max prior, 1].

    References
    ----------
    Meyen et al. (2025), Theorem 3 (upper bound; attained by uniform noise, Figure 3) and
    Theorem 6 (upper bound); Berger (2003).

    Examples
    --------
    Theorem 3 at acc = 0.7 (Meyen et al., 2025, section "Our New Information-Theoretic Measure:
    Relative Metainformation": "0.4 (upper bound)"), and Theorem 6's example of L = 4 equally
    likely labels at acc = 0.4:

    >>> round(info_upper_bound(0.7), 3)
    0.4
    >>> round(info_upper_bound(0.4, [0.25, 0.25, 0.25, 0.25]), 3)
    0.649
    """
    p = _priors(priors)
    acc = _accuracy_for(acc, p)
    if p.size == 2:
        return scalar_or_array(theorem3_upper(acc, p[0]))
    h = entropy_bits(p)
    m1 = np.floor(1.0 / acc + 1e-12)
    m2 = m1 + 1.0
    lost = ((1.0 / m1 - acc) * np.log2(m2) + (acc - 1.0 / m2) * np.log2(m1)) / (1.0 / m1 - 1.0 / m2)
    return scalar_or_array(np.maximum(h - lost, 0.0))


def _lower_parts(acc: np.ndarray, p: np.ndarray):
    """m3 and q of Theorem 6 for each accuracy (arrays shaped like ``acc``)."""
    L = p.size
    m = np.arange(2, L + 1)
    cum = np.cumsum(p)[1:]  # sum_{l<=m} p_l for m = 2..L
    ok = p[1:] >= (cum - acc[..., None]) / (m - 1) - TOL  # condition for each m
    # largest m with the condition; m = 2 always satisfies it when acc >= p_1
    idx = np.where(ok, np.arange(ok.shape[-1]), -1).max(axis=-1)
    idx = np.maximum(idx, 0)
    return m[idx].astype(float), cum[idx]


def info_lower_bound(acc, priors=0.5):
    """Lowest transmitted information of a classifier with accuracy ``acc`` (bits).

    Theorem 6 (Hledík et al., 2019), which for two labels is the lower bound of Theorem 3,
    :math:`\\min info = H_2(p_+) - H_2(acc)` (Fano's inequality). With priors sorted in decreasing
    order, :math:`m_3` the largest :math:`m` with
    :math:`p_m \\ge (\\sum_{l\\le m} p_l - acc)/(m-1)` and :math:`q = \\sum_{l \\le m_3} p_l`,

    .. math::

       \\begin{aligned}
       \\min info &= \\sum_{l=1}^{m_3} p_l \\log\\frac{1}{p_l} - acc\\log\\frac1{acc} \\\\
                 &\\quad - (q - acc)\\log\\frac{m_3 - 1}{q - acc}.
       \\end{aligned}

    Parameters
    ----------
    acc : float or array_like
        Accuracies in [max prior, 1].
    priors : float or sequence of float, default 0.5
        The prior :math:`p_+` of one label (binary case) or the L label priors.

    Returns
    -------
    float or ndarray
        The bound in bits, shaped like ``acc``.

    Raises
    ------
    ValueError
        For priors that are not a distribution, or an accuracy outside [max prior, 1].

    References
    ----------
    Meyen et al. (2025), Theorem 3 (lower bound; attained by binary noise, Figure 3) and
    Theorem 6 (lower bound); Hledík et al. (2019); Cover & Thomas (2006), Fano's inequality.

    Examples
    --------
    Theorem 3 at acc = 0.7 (Meyen et al., 2025, section "Example Computation of Existing
    Information-Theoretic Measures": "min info(acc) = 0.12 bit"), and Theorem 6 for L = 4 equally
    likely labels at acc = 0.4:

    >>> round(info_lower_bound(0.7), 2)
    0.12
    >>> round(info_lower_bound(0.4, [0.25, 0.25, 0.25, 0.25]), 3)
    0.078
    """
    p = _priors(priors)
    acc = _accuracy_for(acc, p)
    if p.size == 2:
        return scalar_or_array(np.maximum(theorem3_lower(acc, p[0]), 0.0))
    m3, q = _lower_parts(acc, p)
    head = np.where(np.arange(p.size) < m3[..., None], entr(p), 0.0).sum(axis=-1)
    rest = np.clip(q - acc, 0.0, None)
    value = head - entr(acc) - rest * np.log(m3 - 1.0) - entr(rest)
    return scalar_or_array(np.maximum(value / LN2, 0.0))


def info_bounds(acc, priors=0.5):
    """Lower and upper bound on the transmitted information given the accuracy (bits).

    Theorem 3 when ``priors`` is the float :math:`p_+` (or two probabilities), Theorem 6 when it
    is a sequence of L priors; see :func:`info_lower_bound` and :func:`info_upper_bound`.

    Parameters
    ----------
    acc : float or array_like
        Accuracies; they must lie in [max prior, 1].
    priors : float or sequence of float, default 0.5
        :math:`p_+` (binary labels) or the L label priors (summing to 1).

    Returns
    -------
    Bounds
        ``lower = min info(acc)`` and ``upper = max info(acc)`` in bits (floats, or arrays shaped
        like ``acc``); a named tuple, so ``lo, hi = info_bounds(acc)`` works.

    Raises
    ------
    ValueError
        For priors outside [0, 1] or not summing to 1, fewer than two labels, or an accuracy outside
        [max prior, 1].

    References
    ----------
    Meyen et al. (2025), Theorem 3 (binary labels), Theorem 6 (L labels) and Figure 3; at
    acc = 0.7 the information lies between 0.12 and 0.4 bit (section "Our New
    Information-Theoretic Measure: Relative Metainformation").

    Examples
    --------
    >>> lo, hi = info_bounds(0.7)
    >>> round(lo, 3), round(hi, 3)
    (0.119, 0.4)
    """
    return Bounds(info_lower_bound(acc, priors), info_upper_bound(acc, priors))


def min_info_classifier(acc: float, priors):
    """The classifier attaining the lower bound of Theorem 6, as confidence vectors and weights.

    Each response predicts one of the :math:`m_3` most probable labels with confidence ``acc``,
    spreads :math:`q - acc` evenly over the other :math:`m_3 - 1` of them, and gives each rarer label
    its prior. The response predicting label :math:`l` has weight
    :math:`w_l = (p_l - b)/(acc - b)` with :math:`b = (q - acc)/(m_3 - 1)`, so that the mixture of the
    responses reproduces the priors.

    Parameters
    ----------
    acc : float
        Accuracy in [max prior, 1].
    priors : sequence of float
        The L label priors (in any order; the result uses the same label order).

    Returns
    -------
    Distribution
        ``values``: ndarray of shape (R, L), the posterior probability of each label given each
        of the R responses (rows sum to 1); ``weights``: ndarray of shape (R,), the probability of
        each response.

    Raises
    ------
    ValueError
        For priors that are not a distribution of at least two labels, or an accuracy that is not
        one number in [max prior, 1].

    References
    ----------
    Meyen et al. (2025), Theorem 6 and the example after it: with priors (32%, 32%, 32%, 4%)
    and acc = 40% the worst classifier answers "Y = 1 with probability 40%, Y = 2 or Y = 3 each
    with probability 28%, or as always Y = 4 with probability 4%".

    Examples
    --------
    >>> worst = min_info_classifier(0.4, [0.32, 0.32, 0.32, 0.04])
    >>> worst.values.round(2).tolist()
    [[0.4, 0.28, 0.28, 0.04],
     [0.28, 0.4, 0.28, 0.04],
     [0.28, 0.28, 0.4, 0.04]]
    >>> worst.weights.round(3).tolist()
    [0.333, 0.333, 0.333]
    """
    p_in = _priors(priors, sort=False)
    order = np.argsort(-p_in, kind="stable")
    p = p_in[order]
    acc = _accuracy_for(acc, p, scalar=True)
    m3, q = (float(v) for v in _lower_parts(np.array(acc), p))
    m3i = int(m3)
    b = (q - acc) / (m3 - 1)
    conf = np.tile(p, (m3i, 1))
    conf[:, :m3i] = b
    conf[np.arange(m3i), np.arange(m3i)] = acc
    if acc - b > TOL:
        weights = (p[:m3i] - b) / (acc - b)
    else:  # acc == b: every response is the prior itself
        weights = np.full(m3i, 1.0 / m3i)
    weights = np.clip(weights, 0.0, None)
    weights /= weights.sum()
    back = np.empty_like(order)
    back[order] = np.arange(order.size)
    return Distribution(conf[:, back], weights)


def max_info_classifier(acc: float, priors):
    """A classifier attaining the upper bound of Theorem 6, as confidence vectors and weights.

    Each response names a set of :math:`m_1 = \\lfloor 1/acc\\rfloor` or :math:`m_2 = m_1 + 1`
    labels, excludes all others with certainty and gives the named ones equal confidence. The
    weights of the sets are found by non-negative least squares so that the mixture reproduces
    the priors and the accuracy. Many mixtures do; the one returned is a sparse one (not
    necessarily symmetric in the labels, even for uniform priors), and only sets with positive
    weight are kept.

    Parameters
    ----------
    acc : float
        Accuracy in [max prior, 1].
    priors : float or sequence of float
        The prior :math:`p_+` of one label (binary case) or the L label priors, in any order; the
        result uses the same label order.

    Returns
    -------
    Distribution
        ``values``: ndarray of shape (R, L), each row the confidence vector of one response
        (:math:`1/m` on its m named labels, 0 elsewhere); ``weights``: ndarray of shape (R,), the
        probability of each response.

    Raises
    ------
    ValueError
        As :func:`info_bounds`, or if no mixture of such sets reproduces the priors.

    References
    ----------
    Meyen et al. (2025), Theorem 6 and the example after it: with L = 4 equally likely labels
    and acc = 40%, the best classifier names 2 or 3 labels ("The true label is Y = 1 or Y = 2");
    Berger (2003).

    Examples
    --------
    >>> best = max_info_classifier(0.4, [0.25, 0.25, 0.25, 0.25])
    >>> (best.values > 0).sum(axis=1).tolist()   # labels named
    [2, 2, 3, 3]
    >>> acc = best.weights @ best.values.max(axis=1)   # E[max C]
    >>> round(float(acc), 3)
    0.4
    """
    p = _priors(priors, sort=False)
    from scipy.optimize import nnls  # imported here: scipy.optimize is slow to import

    acc = _accuracy_for(acc, np.sort(p)[::-1], scalar=True)
    L = p.size
    m1 = int(np.floor(1.0 / acc + 1e-12))
    sizes = [m1] if abs(1.0 / m1 - acc) < 1e-12 else [m1, m1 + 1]
    sets = [s for m in sizes if m <= L for s in combinations(range(L), m)]
    conf = np.zeros((len(sets), L))
    for i, s in enumerate(sets):
        conf[i, list(s)] = 1.0 / len(s)
    # rows: reproduce every prior, the accuracy, and total probability 1
    A = np.vstack([conf.T, conf.max(axis=1), np.ones(len(sets))])
    rhs = np.concatenate([p, [acc, 1.0]])
    weights, resid = nnls(A, rhs)
    if resid > 1e-7:
        raise ValueError("no exclude-all-but-m1-or-m2 classifier reproduces these priors")
    keep = weights > 1e-12
    return Distribution(conf[keep], weights[keep] / weights[keep].sum())
