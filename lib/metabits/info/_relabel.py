"""Relabelling and re-coding responses: what the information measures do not see.

The information measures of Meyen et al. (2025) estimate each response's confidence from the
relative frequencies of its column and recode its prediction to the more probable label
(Assumption 4). They therefore depend on the table only up to a permutation of its columns: the
*names* of the responses — which one is called "high" confidence, which one "predicts S2" — do
not enter (section "Information-Theoretic Measures Only Evaluate Uncertainty Differentiation").
This module builds the relabelled and re-coded tables that show it, and the measures that *do*
read the names:

* :func:`swap_confidence` – swap the meaning of the confidence levels within each prediction;
* :func:`invert_predictions` – move part of some responses to the opposite prediction (the
  Type 1 / Type 2 trade-off of Supplement E and Desender et al., 2022);
* :func:`calibration_error` – how far stated confidences lie from the observed accuracies;
* :func:`reported_measures` – Dayan's (2023) metainformation with the predictions as reported,
  not recoded (the rationale of meta-I₂ʳ).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits._formulas import h2
from metabits.results import Result
from metabits.validation import (as_count_table, as_float_array, as_int, as_probability,
                                 scalar_or_array)
from metabits.info._information import mutual_information

__all__ = ["ReportedMeasures", "calibration_error", "invert_predictions", "reported_measures",
           "swap_confidence"]


def swap_confidence(counts) -> np.ndarray:
    """Reverse the order of the confidence levels within each prediction of a count table.

    Column j of the "S1" half becomes column K − 1 − j, and likewise in the "S2" half: with two
    levels, "S1 high" and "S1 low" trade places, as do "S2 low" and "S2 high". The trials are
    unchanged; only the names of the confidence levels are swapped, so a rater who says "high"
    when unsure and "low" when sure gets the table of one who says what they mean.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention (:mod:`metabits.validation`).

    Returns
    -------
    ndarray, shape (..., 2, 2K)
        The relabelled tables.

    Raises
    ------
    ValueError
        For anything that is not a stack of valid count tables.

    References
    ----------
    Meyen et al. (2025), section "Information-Theoretic Measures Only Evaluate Uncertainty
    Differentiation": the measures "do not differentiate between this situation and one in which
    these response labels are swapped".

    Examples
    --------
    >>> swap_confidence([[84, 56, 48, 12], [4, 56, 64, 76]]).tolist()
    [[56.0, 84.0, 12.0, 48.0], [56.0, 4.0, 76.0, 64.0]]
    """
    c = as_count_table(counts)
    K = c.shape[-1] // 2
    return np.concatenate([c[..., :K][..., ::-1], c[..., K:][..., ::-1]], axis=-1)


def invert_predictions(counts, columns, fraction=1.0) -> np.ndarray:
    """Move a fraction of some responses to the opposite prediction, keeping their confidence level.

    For each listed column j (0-based), ``fraction`` of its counts move to its mirror column
    2K − 1 − j: "S2 low" becomes "S1 low", and so on. This is a rater who reverses some of its
    predictions — for example those it rated with low confidence, because it knows they are
    usually wrong (Meyen et al., 2025, Discussion and Supplement E).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables (counts, or probabilities up to scale).
    columns : int or sequence of int
        The columns whose responses are (partly) inverted, each in 0 … 2K − 1.
    fraction : float or array_like, default 1
        Share of each listed column that moves, in [0, 1]; an array adds its shape in front of
        the result (a sweep over fractions).

    Returns
    -------
    ndarray, shape ``fraction.shape + counts.shape``
        The new tables (fractional counts when ``fraction`` is not 0 or 1).

    Raises
    ------
    ValueError
        For invalid tables, a column out of range or repeated, or a fraction outside [0, 1].

    References
    ----------
    Meyen et al. (2025), section "Relation of Information-Theoretic Measures to Meta-d' and
    M-ratio" and Supplement E; Desender et al. (2022).

    Examples
    --------
    >>> invert_predictions([[1, 2, 30, 3], [1, 1, 4, 40]], columns=[2], fraction=0.5).tolist()
    [[1.0, 17.0, 15.0, 3.0], [1.0, 3.0, 2.0, 40.0]]
    """
    c = as_count_table(counts)
    R = c.shape[-1]
    cols = np.atleast_1d(np.asarray(columns))
    if cols.ndim != 1 or cols.size == 0:
        raise ValueError("columns must name at least one response column")
    cols = [as_int(j, "column", least=0, most=R - 1) for j in cols.tolist()]
    mirrors = [R - 1 - j for j in cols]
    if len(set(cols)) != len(cols) or set(cols) & set(mirrors):
        raise ValueError("columns must be distinct and must not include each other's mirror "
                         "column (2K - 1 - j)")
    f = as_probability(fraction, "fraction")
    out = np.broadcast_to(c, f.shape + c.shape).copy()
    fb = f[(...,) + (None,) * (c.ndim - 1)]
    for j, m in zip(cols, mirrors):
        moved = fb * c[..., j]
        out[..., j] = c[..., j] - moved
        out[..., m] = c[..., m] + moved
    return out


def calibration_error(counts, stated) -> object:
    """Expected calibration error of stated confidences: :math:`\\sum_r m_r |s_r - a_r|`.

    Each response r (column) comes with a stated confidence :math:`s_r` that its prediction —
    the S1 half predicts Y = −1, the S2 half Y = +1 — is correct; :math:`a_r` is the observed
    share of correct predictions in that column and :math:`m_r` the column's share of all trials.
    0 for a calibrated rater; relabelling the confidence levels (:func:`swap_confidence`) changes
    it, while the information measures stay the same.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables.
    stated : array_like, shape (2K,)
        The stated confidence of each response, in [0, 1].

    Returns
    -------
    float or ndarray
        The calibration error, one per table.

    Raises
    ------
    ValueError
        For invalid tables, stated confidences outside [0, 1] or of the wrong length.

    References
    ----------
    Meyen et al. (2025), Discussion: refinement versus calibration (DeGroot & Fienberg, 1983).

    Examples
    --------
    >>> round(calibration_error([[84, 56, 48, 12], [4, 56, 64, 76]], [0.9, 0.6, 0.6, 0.9]), 3)
    0.056
    """
    c = as_count_table(counts)
    s = as_probability(stated, "stated confidences")
    R = c.shape[-1]
    if s.shape != (R,):
        raise ValueError(f"stated must give one confidence per response column ({R}); got shape "
                         f"{s.shape}")
    n = c.sum(axis=(-2, -1))
    m = c.sum(axis=-2)
    right = np.concatenate([c[..., 0, : R // 2], c[..., 1, R // 2:]], axis=-1)
    a = np.divide(right, m, out=np.zeros_like(m), where=m > 0)
    return scalar_or_array((m * np.abs(s - a)).sum(axis=-1) / n)


@dataclass(frozen=True)
class ReportedMeasures(Result):
    """Dayan's measures with the predictions as reported (:func:`reported_measures`).

    Attributes
    ----------
    acc : float or ndarray
        Accuracy of the reported predictions (S1 half predicts −1, S2 half +1).
    info : float or ndarray
        Transmitted information :math:`I(Y; R)` of the responses, bits (as reported or recoded:
        the same).
    type1_info : float or ndarray
        :math:`I(Y; \\hat Y)` of the reported predictions alone.
    meta_I : float or ndarray
        ``info - type1_info``: what the confidence adds to the reported predictions.
    meta_I2r : float or ndarray
        ``meta_I / H_2(acc)``: that surplus relative to the uncertainty about correctness.
    """

    acc: object
    info: object
    type1_info: object
    meta_I: object
    meta_I2r: object


def reported_measures(counts) -> ReportedMeasures:
    """Dayan's (2023) meta-I and meta-I₂ʳ with the predictions as reported, not recoded.

    Meyen et al. recode each response to its more probable label (Assumption 4) before
    attributing information, so confidence can only add what the optimal predictions leave. Dayan
    allows suboptimally coded predictions: the reported prediction :math:`\\hat Y` (the half of the
    table a column is in) carries :math:`I(Y; \\hat Y)`, and the confidence adds
    :math:`\\mathrm{meta\\text{-}I} = I(Y; R) - I(Y; \\hat Y)`, at most :math:`H(Y) - I(Y; \\hat Y)`.
    With equal priors and symmetric errors that ceiling is :math:`H_2(acc)`, the normaliser of
    meta-I₂ʳ — reached when the confidence tells every correct prediction from every error.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables.

    Returns
    -------
    ReportedMeasures
        ``acc``, ``info``, ``type1_info``, ``meta_I`` and ``meta_I2r`` (NaN where acc is 0 or 1).

    Raises
    ------
    ValueError
        For invalid tables.

    References
    ----------
    Meyen et al. (2025), section "Example Computation of Existing Information-Theoretic
    Measures" (Dayan "suggested this normalization for potentially suboptimally coded
    predictions") and Supplement E; Dayan (2023).

    Examples
    --------
    A rater that always predicts S2 but says "high" exactly when it is right: its predictions
    alone carry nothing, its confidence everything.

    >>> r = reported_measures([[0, 0, 50, 0], [0, 0, 0, 50]])
    >>> r.acc, round(r.type1_info, 12), round(r.meta_I, 12), round(r.meta_I2r, 12)
    (0.5, 0.0, 1.0, 1.0)
    """
    c = as_count_table(counts)
    R = c.shape[-1]
    joint = c / c.sum(axis=(-2, -1), keepdims=True)
    pred = np.stack([joint[..., : R // 2].sum(axis=-1), joint[..., R // 2:].sum(axis=-1)], axis=-1)
    info = np.asarray(mutual_information(joint))
    t1 = np.asarray(mutual_information(pred))
    acc = pred[..., 0, 0] + pred[..., 1, 1]
    h = h2(acc)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(h > 0, (info - t1) / np.where(h > 0, h, 1.0), np.nan)
    return ReportedMeasures(acc=scalar_or_array(acc), info=scalar_or_array(info),
                            type1_info=scalar_or_array(t1), meta_I=scalar_or_array(info - t1),
                            meta_I2r=scalar_or_array(ratio))
