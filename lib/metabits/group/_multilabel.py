"""Groups of classifiers with L > 2 labels: exploration, not theorem.

Meyen et al. (2025) prove their group bounds (Theorem 8) for two labels only and leave L > 2
open: "there are different 'routes' of refinement. One of these routes leads to the highest
information-theoretic Type 2 performance (as given by our Theorem 6) but it is not clear to us
whether this also constitutes the best group performance" (Discussion, "Limiting Assumptions for
Group Bounds"). This module computes the exact accuracy of optimally combined groups of L-label
members, so that candidate members — Theorem 6's extreme classifiers, other refinement routes,
random members — can be compared. Nothing here is a bound.

An L-label member is a response table of shape ``(L, R)``: row y is :math:`P(r \\mid Y = y)`.
"""

from __future__ import annotations

import numpy as np

from metabits.validation import as_int, as_probability, as_rng, as_scalar, as_size
from metabits.validation._scalars import as_distribution

__all__ = ["multilabel_group_accuracy", "multilabel_member", "random_multilabel_members"]


def _tables(member) -> np.ndarray:
    t = as_distribution(member, "member table")
    if t.ndim < 2 or t.shape[-2] < 2:
        raise ValueError(f"a member table has shape (..., L, R) with L >= 2 labels; got shape "
                         f"{t.shape}")
    return t


def multilabel_member(values, weights, priors) -> np.ndarray:
    """Response table :math:`P(r \\mid y)` of a calibrated L-label classifier.

    A classifier given by its confidence vectors (posteriors :math:`P(y \\mid r)`, one row per
    response) and their weights :math:`P(r)` — e.g. :func:`metabits.info.max_info_classifier` or
    :func:`metabits.info.min_info_classifier` — has :math:`P(r \\mid y) = P(r)\\,P(y \\mid r) / p_y`
    (Bayes' rule).

    Parameters
    ----------
    values : array_like, shape (R, L)
        Confidence vectors, rows summing to 1.
    weights : array_like, shape (R,)
        Their probabilities.
    priors : array_like, shape (L,)
        Label priors; must equal the mixture ``weights @ values`` (calibration).

    Returns
    -------
    ndarray, shape (L, R)
        The member's table.

    Raises
    ------
    ValueError
        For rows or weights that are not distributions, mismatched shapes, or priors that the
        mixture does not reproduce.

    References
    ----------
    Meyen et al. (2025), Assumptions 5–8 and Theorem 6.

    Examples
    --------
    >>> multilabel_member([[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]], [1/3] * 3,
    ...                   [1/3] * 3).round(2).tolist()
    [[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]]
    """
    v = as_distribution(values, "confidence vectors")
    w = as_distribution(weights, "weights")
    p = as_distribution(priors, "priors")
    if v.ndim != 2 or w.shape != (v.shape[0],) or p.shape != (v.shape[1],):
        raise ValueError(f"values (R, L), weights (R,) and priors (L,) must match; got "
                         f"{v.shape}, {w.shape}, {p.shape}")
    if np.any(np.abs(w @ v - p) > 1e-6) or np.any(p == 0):
        raise ValueError("the responses' mixture weights @ values must reproduce the (positive) "
                         "priors")
    return (w[:, None] * v / p).T


def multilabel_group_accuracy(member, K: int, priors=None):
    """Exact accuracy of an optimally combined group of K identical L-label members.

    The members answer independently given Y (Assumption 13) and the group picks the label with
    the largest posterior (Assumption 14), so its accuracy is
    :math:`\\sum_{r_1, \\dots, r_K} \\max_y p_y \\prod_k P(r_k \\mid y)`, summed here over all
    :math:`R^K` answer patterns (ties cost nothing: any tie rule is right with the same
    probability).

    Parameters
    ----------
    member : array_like, shape (..., L, R)
        The member's table, or a stack of tables (one group per table).
    K : int
        Group size, with :math:`R^K \\le 2^{20}`.
    priors : array_like, shape (L,), optional
        Label priors; equal if omitted.

    Returns
    -------
    float or ndarray
        The group accuracy, one per table.

    Raises
    ------
    ValueError
        For tables whose rows are not distributions, a bad K, too many answer patterns, or
        priors that are not a distribution over the L labels.

    References
    ----------
    Meyen et al. (2025), Assumptions 13–14 and the Discussion's open question for L > 2.

    Examples
    --------
    Three two-label members with 70% accuracy and constant confidence: majority voting.

    >>> round(multilabel_group_accuracy([[0.7, 0.3], [0.3, 0.7]], 3), 3)
    0.784
    """
    t = _tables(member)
    K = as_int(K, "group size K")
    L, R = t.shape[-2:]
    if K * np.log2(R) > 20:  # not R ** K: Python's exact integer power is huge for a huge K
        raise ValueError(f"R^K = {R}^{K} answer patterns is too many to enumerate (max 2^20)")
    p = np.full(L, 1.0 / L) if priors is None else as_distribution(priors, "priors")
    if p.shape != (L,):
        raise ValueError(f"priors must give one probability per label ({L}); got {p.shape}")
    joint = p[:, None] * t                           # (..., L, R): p_y P(r | y)
    lik = t
    for _ in range(K - 1):                           # (..., L, R^k)
        lik = (lik[..., :, None] * t[..., None, :]).reshape(t.shape[:-1] + (-1,))
    group = (p[:, None] * lik).max(axis=-2).sum(axis=-1) if K > 1 else joint.max(axis=-2).sum(-1)
    return float(group) if np.ndim(group) == 0 else group


def random_multilabel_members(L: int, R: int, n: int, rng=None, concentration: float = 0.5):
    """Random L-label members: each row :math:`P(\\cdot \\mid y)` drawn from a Dirichlet.

    With equal priors every such table is a calibrated classifier (its confidence vectors are the
    posteriors it implies); small ``concentration`` gives sharper, more varied members.

    Parameters
    ----------
    L, R : int
        Labels (≥ 2) and responses (≥ 1) per member.
    n : int
        Number of members.
    rng : numpy.random.Generator or int, optional
        Random generator (or seed).
    concentration : float, default 0.5
        Dirichlet parameter of every response, > 0.

    Returns
    -------
    ndarray, shape (n, L, R)
        The members' tables.

    Raises
    ------
    ValueError
        For sizes that are not positive integers or a non-positive concentration.

    References
    ----------
    Meyen et al. (2025), Discussion (L > 2 left open); exploration only.

    Examples
    --------
    >>> random_multilabel_members(3, 4, 2, rng=1).shape
    (2, 3, 4)
    """
    L = as_size(L, "L", least=2)
    R = as_size(R, "R")
    n = as_size(n, "n")
    a = float(as_probability(as_scalar(concentration, "concentration"), "concentration", 0.0,
                             np.inf, low_open=True))
    return as_rng(rng).dirichlet(np.full(R, a), size=(n, L))
