"""The classic Type 2 measures that researchers report beside (or instead of) the information
measures: the type 2 ROC and its area AUROC2, Goodman–Kruskal gamma and the phi correlation
between confidence and correctness, and meta-d′ − d′.

All of them read a count table in the library's convention (:mod:`metabits.validation`): shape
``(..., 2, 2K)``, row 0 the stimulus S1, row 1 S2, columns from "S1, most confident" to "S2, most
confident". The first three only ask how confidence separates correct from wrong responses, so
they fold the table into two rows of K confidence levels (:func:`confidence_by_correctness`):

* **type 2 ROC**: the Type 2 hit rate P(level ≥ t | correct) against the Type 2 false-alarm
  rate P(level ≥ t | error) for every threshold t (Galvin et al., 2003); both response sides are
  pooled, as in Fleming & Lau (2014);
* **AUROC2**: the area under that curve (trapezoids), which equals
  P(level of a correct trial > level of an error) + ½ P(equal levels) — the Mann–Whitney form;
* **gamma**: Goodman & Kruskal's (1954) :math:`(C - D)/(C + D)` over all (correct, error)
  pairs, C the pairs where the correct trial has the higher level, D the lower, ties left out
  (Nelson, 1984);
* **phi**: Pearson's correlation between correctness (1/0) and the confidence level, as
  Fleming & Lau (2014) define it; for K = 2 levels it is the phi coefficient of the 2 × 2
  table of correctness and high/low confidence.

meta-d′ − d′ (the "M-diff") is the other SDT form of metacognitive efficiency, read off
:func:`metabits.fit_meta_d` with the usual padding of 1/(2K) per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Curve, Result
from metabits.validation import as_count_table, as_pad, scalar_or_array
from metabits.validation._scalars import as_undefined

__all__ = ["ClassicType2", "auroc2", "classic_type2", "confidence_by_correctness", "gamma",
           "phi", "type2_roc"]



def _fold(counts: np.ndarray):
    """Correct and error counts per confidence level (lowest level first) of checked tables."""
    K = counts.shape[-1] // 2
    s1, s2 = counts[..., 0, :], counts[..., 1, :]
    correct = s1[..., K - 1::-1] + s2[..., K:]
    error = s2[..., K - 1::-1] + s1[..., K:]
    return correct, error


def confidence_by_correctness(counts) -> np.ndarray:
    """Fold count tables into correct and error trials per confidence level.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention (rows S1, S2; columns from "S1, most
        confident" to "S2, most confident").

    Returns
    -------
    ndarray, shape (..., 2, K)
        Row 0: correct trials at confidence levels 1 (lowest) … K (highest), both responses
        pooled; row 1: errors.

    Raises
    ------
    ValueError
        For a table that is not a valid count table (negative or non-finite counts, not
        2 × 2K, an empty row).

    References
    ----------
    Galvin et al. (2003); Fleming & Lau (2014), "How to measure metacognition", Figure 2.

    Examples
    --------
    Meyen et al.'s (2025) Table 1, with K = 2 levels (low, high):

    >>> confidence_by_correctness([[84, 56, 48, 12], [4, 56, 64, 76]]).tolist()
    [[120.0, 160.0], [104.0, 16.0]]
    """
    correct, error = _fold(as_count_table(counts))
    return np.stack([correct, error], axis=-2)


def _roc(correct, error):
    """Type 2 ROC points (..., K + 1) from the strictest threshold to the laxest."""
    zero = np.zeros(correct.shape[:-1] + (1,))
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = (np.concatenate([zero, np.cumsum(correct[..., ::-1], -1)], -1)
               / correct.sum(-1)[..., None])
        fpr = (np.concatenate([zero, np.cumsum(error[..., ::-1], -1)], -1)
               / error.sum(-1)[..., None])
    return fpr, tpr


def _pairs(correct, error):
    """(C, D): (correct, error) pairs with the correct trial at a higher, at a lower level."""
    below = np.cumsum(error, -1) - error  # errors at lower levels than each level
    above = error.sum(-1)[..., None] - below - error
    return (correct * below).sum(-1), (correct * above).sum(-1)


def _phi(correct, error):
    """Point-biserial correlation of correctness and level, and the levels' SD."""
    levels = np.arange(correct.shape[-1], dtype=float)
    n_c, n_e = correct.sum(-1), error.sum(-1)
    n = n_c + n_e
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_c = (correct * levels).sum(-1) / n_c
        mean_e = (error * levels).sum(-1) / n_e
        both = correct + error
        mean = (both * levels).sum(-1) / n
        sd = np.sqrt(np.maximum((both * (levels - mean[..., None]) ** 2).sum(-1) / n, 0.0))
        p = n_c / n
        return (mean_c - mean_e) * np.sqrt(p * (1.0 - p)) / sd, sd


def _auroc2(correct, error):
    """AUROC2 (trapezoids under :func:`_roc`) of folded tables, NaN without (correct, error)
    pairs; returns ``(value, undefined)``."""
    bad = (correct.sum(-1) == 0) | (error.sum(-1) == 0)
    fpr, tpr = _roc(correct, error)
    area = (np.diff(fpr, axis=-1) * (tpr[..., 1:] + tpr[..., :-1]) / 2).sum(-1)
    return np.where(bad, np.nan, area), bad


def _gamma(correct, error):
    """Goodman–Kruskal gamma of folded tables, NaN without untied pairs; ``(value, undefined)``."""
    C, D = _pairs(correct, error)
    bad = C + D == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bad, np.nan, (C - D) / np.where(bad, 1.0, C + D)), bad


def _phi_or_nan(correct, error):
    """phi of folded tables, NaN without pairs or with one level only; ``(value, undefined)``."""
    r, sd = _phi(correct, error)
    bad = (correct.sum(-1) == 0) | (error.sum(-1) == 0) | ~(sd > 0)
    return np.where(bad, np.nan, r), bad


#: The measures of :func:`classic_type2`, in its order.
_CLASSIC = ("auroc2", "gamma", "phi", "d", "meta_d", "m_ratio", "m_diff")


def classic_stack(flat: np.ndarray, pad: float, lenient: bool = True, fallback: bool = True):
    """The classic measures of checked tables (n, 2, 2K): the library's one computation of them
    (:func:`classic_type2` reads it, and :func:`metabits.all_measures` adds the information
    measures to it).

    Returns ``(values, undefined)``: arrays (n,) named as :data:`_CLASSIC` plus ``acc`` (the
    accuracy reached), NaN where undefined, and the masks (n,) where AUROC2, gamma and phi are
    undefined. ``lenient``: meta-d′ is NaN where its fit fails
    (:func:`metabits.sdt._metad._meta_d_or_nan`; BFGS retried unless ``fallback`` is False);
    otherwise :func:`metabits.fit_meta_d` fits, and raises there.
    """
    from metabits.sdt import _metad as metad

    correct, error = _fold(flat)
    if lenient:
        d, meta = metad._meta_d_or_nan(flat, pad, fallback)
    else:
        fit = metad.fit_meta_d(flat, pad=pad)
        d, meta = np.asarray(fit.d, dtype=float), np.asarray(fit.meta_d, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(np.isfinite(meta) & (d != 0), meta / np.where(d != 0, d, 1.0), np.nan)
        n_c = correct.sum(-1)
        acc = n_c / (n_c + error.sum(-1))
    values, bad = {"d": d, "meta_d": meta, "m_ratio": ratio, "m_diff": meta - d, "acc": acc}, {}
    for name, kernel in (("auroc2", _auroc2), ("gamma", _gamma), ("phi", _phi_or_nan)):
        values[name], bad[name] = kernel(correct, error)
    return values, bad


_NO_PAIRS = "there are no errors or no correct responses, so no (correct, error) pair to compare"
#: Where AUROC2, gamma and phi are undefined: their names in messages and the reasons.
_UNDEFINED = {"auroc2": ("AUROC2", _NO_PAIRS),
              "gamma": ("gamma", _NO_PAIRS + ", or every pair is tied"),
              "phi": ("phi", _NO_PAIRS + ", or every trial has the same confidence level")}


def _check(undefined: str, bad: np.ndarray, measure: str):
    """Raise, with ``undefined="raise"``, where ``measure`` (a key of :data:`_UNDEFINED`) is
    undefined (``bad``); ``undefined`` is checked either way."""
    undefined = as_undefined(undefined)
    if undefined == "raise" and np.any(bad):
        what, why = _UNDEFINED[measure]
        where = "" if bad.ndim == 0 else f" (table {tuple(int(i) for i in np.argwhere(bad)[0])})"
        raise ValueError(f"{what} is undefined{where}: {why}. Pass undefined='nan' to get NaN "
                         "for such tables instead")


def type2_roc(counts) -> Curve:
    """The type 2 ROC curve: how well confidence separates correct responses from errors.

    For each threshold t on the confidence level (both response sides pooled), the Type 2 hit
    rate P(level ≥ t | correct) against the Type 2 false-alarm rate P(level ≥ t | error), from
    the strictest threshold (0, 0) to the laxest (1, 1).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention.

    Returns
    -------
    Curve
        ``(fpr, tpr)``, each of shape ``(..., K + 1)``, non-decreasing; NaN in a table without
        errors (``fpr``) or without correct responses (``tpr``).

    Raises
    ------
    ValueError
        For a table that is not a valid count table.

    References
    ----------
    Galvin et al. (2003), Type 2 tasks in the theory of signal detectability; Fleming & Lau
    (2014), Figure 2; Meyen et al. (2025), Proposition 5 (the bounds on this curve).

    Examples
    --------
    >>> fpr, tpr = type2_roc([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> fpr.round(3).tolist(), tpr.round(3).tolist()
    ([0.0, 0.133, 1.0], [0.0, 0.571, 1.0])
    """
    return Curve(*_roc(*_fold(as_count_table(counts))))


def auroc2(counts, undefined: str = "raise"):
    """AUROC2, the area under the type 2 ROC curve (:func:`type2_roc`).

    Equal to P(a correct trial's confidence level > an error's) + ½ P(equal levels) over all
    (correct, error) pairs: 0.5 when confidence says nothing about correctness, 1 when every
    correct response is rated above every error.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention.
    undefined : {"raise", "nan"}, default "raise"
        What to do with a table that has no errors or no correct responses.

    Returns
    -------
    float or ndarray
        AUROC2 of each table, shape ``counts.shape[:-2]``.

    Raises
    ------
    ValueError
        For an invalid count table, an unknown ``undefined``, or (with ``undefined="raise"``) a
        table without errors or without correct responses.

    References
    ----------
    Galvin et al. (2003); Fleming & Lau (2014), section "Type 2 ROC analysis".

    Examples
    --------
    >>> round(auroc2([[84, 56, 48, 12], [4, 56, 64, 76]]), 4)
    0.7190
    >>> auroc2([[10, 0, 0, 0], [0, 0, 0, 5]], undefined="nan")
    nan
    """
    area, bad = _auroc2(*_fold(as_count_table(counts)))
    _check(undefined, bad, "auroc2")
    return scalar_or_array(area)


def gamma(counts, undefined: str = "raise"):
    """Goodman–Kruskal gamma between confidence level and correctness.

    :math:`\\gamma = (C - D)/(C + D)`, where C counts the (correct, error) pairs of trials in
    which the correct trial has the higher confidence level and D those in which it has the
    lower; tied pairs are left out. Ranges from −1 to 1; 0 when confidence says nothing about
    correctness.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention.
    undefined : {"raise", "nan"}, default "raise"
        What to do with a table that has no errors, no correct responses, or only tied pairs
        (every trial at one confidence level).

    Returns
    -------
    float or ndarray
        gamma of each table, shape ``counts.shape[:-2]``.

    Raises
    ------
    ValueError
        For an invalid count table, an unknown ``undefined``, or (with ``undefined="raise"``)
        where gamma is undefined.

    References
    ----------
    Goodman & Kruskal (1954); Nelson (1984), gamma as a measure of feeling-of-knowing accuracy;
    Fleming & Lau (2014).

    Examples
    --------
    Table 1 of Meyen et al. (2025): 160 · 104 concordant and 120 · 16 discordant pairs.

    >>> round(gamma([[84, 56, 48, 12], [4, 56, 64, 76]]), 4)
    0.7931
    """
    value, bad = _gamma(*_fold(as_count_table(counts)))
    _check(undefined, bad, "gamma")
    return scalar_or_array(value)


def phi(counts, undefined: str = "raise"):
    """The phi correlation: Pearson's correlation between correctness (1/0) and confidence level.

    With K = 2 confidence levels it is the phi coefficient of the 2 × 2 table of correctness and
    high/low confidence; with more levels, the point-biserial correlation that Fleming & Lau
    (2014) call phi. The levels enter as 1, …, K (equally spaced).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention.
    undefined : {"raise", "nan"}, default "raise"
        What to do with a table that has no errors, no correct responses, or one confidence
        level only.

    Returns
    -------
    float or ndarray
        phi of each table, shape ``counts.shape[:-2]``.

    Raises
    ------
    ValueError
        For an invalid count table, an unknown ``undefined``, or (with ``undefined="raise"``)
        where phi is undefined.

    References
    ----------
    Fleming & Lau (2014), section "Correlation measures"; Nelson (1984).

    Examples
    --------
    The 2 × 2 phi coefficient (160 · 104 − 120 · 16) / √(280 · 120 · 176 · 224) of Table 1 of
    Meyen et al. (2025):

    >>> round(phi([[84, 56, 48, 12], [4, 56, 64, 76]]), 4)
    0.4044
    """
    value, bad = _phi_or_nan(*_fold(as_count_table(counts)))
    _check(undefined, bad, "phi")
    return scalar_or_array(value)


@dataclass(frozen=True)
class ClassicType2(Result):
    """Results of :func:`classic_type2`; also a mapping. Floats for one table, arrays for a stack.

    Attributes
    ----------
    auroc2, gamma, phi : float or ndarray
        :func:`auroc2`, :func:`gamma`, :func:`phi`.
    d : float or ndarray
        Type 1 d′ of the padded table (the d′ of the meta-d′ fit).
    meta_d : float or ndarray
        Maximum-likelihood meta-d′ (:func:`metabits.fit_meta_d`).
    m_ratio : float or ndarray
        meta-d′ / d′.
    m_diff : float or ndarray
        meta-d′ − d′.
    pad : float
        The count added to every cell before the meta-d′ fit.
    """

    auroc2: object
    gamma: object
    phi: object
    d: object
    meta_d: object
    m_ratio: object
    m_diff: object
    pad: float


def classic_type2(counts, pad=None, undefined: str = "raise") -> ClassicType2:
    """The classic Type 2 measures of a stack of tables at once: AUROC2, gamma, phi, meta-d′,
    M-ratio and meta-d′ − d′.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention, K >= 2 confidence levels.
    pad : float, optional
        Count added to every cell before the meta-d′ fit (not before AUROC2, gamma and phi);
        default 1/(2K), statConfR's and the book's convention. Must be > 0 with
        ``undefined="nan"``.
    undefined : {"raise", "nan"}, default "raise"
        What to do where a measure is undefined (no errors; d′ = 0; a meta-d′ likelihood
        without a finite maximum): raise a ``ValueError``, or return NaN for that measure of
        that table.

    Returns
    -------
    ClassicType2

    Raises
    ------
    ValueError
        For an invalid count table (K < 2 included), a negative pad (or a zero pad with
        ``undefined="nan"``), an unknown ``undefined``, and (with ``undefined="raise"``) where a
        measure is undefined.

    References
    ----------
    Fleming & Lau (2014); Maniscalco & Lau (2012) for meta-d′ and meta-d′ − d′; Rausch &
    Hellmann (statConfR) for the padding of 1/(2K).

    Examples
    --------
    Table 1 of Meyen et al. (2025), padded by 1/(2K) = 0.25 for the meta-d′ fit:

    >>> r = classic_type2([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(r.auroc2, 3), round(r.gamma, 3), round(r.phi, 3)
    (0.719, 0.793, 0.404)
    >>> round(r.meta_d, 2), round(r.m_diff, 2)
    (1.95, 0.91)
    """
    t = as_count_table(counts, min_levels=2)
    undefined = as_undefined(undefined)
    pad = as_pad(pad, t.shape[-1] // 2, positive=undefined == "nan")
    lead = t.shape[:-2]
    v, bad = classic_stack(t.reshape((-1,) + t.shape[-2:]), pad, lenient=undefined == "nan")
    for name in _UNDEFINED:
        _check(undefined, bad[name].reshape(lead), name)
    return ClassicType2(**{k: scalar_or_array(v[k].reshape(lead)) for k in _CLASSIC}, pad=pad)
