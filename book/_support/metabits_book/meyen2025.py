"""Formulas as Meyen et al. (2025) print them, beside the library's, for the book's comparisons."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_count_table, as_member_rates, scalar_or_array

__all__ = ["MetaI1rVariants", "meta_I1r_variants", "statconfr_maskori_meta_i",
           "theorem8_upper_as_printed"]


def theorem8_upper_as_printed(acc_pos, acc_neg, prior=0.5):
    """Theorem 8's upper bound exactly as the paper prints it,
    :math:`1 - \\prod_k(1 - acc_k)/p_+^{K-1}`.

    For comparison only: it equals the upper bound of
    :func:`metabits.group.group_accuracy_bounds` when :math:`p_+ \\ge 0.5` (the paper's
    Assumption 2) and is exceeded by RMI = 1 groups when
    :math:`p_+ < 0.5`.

    Parameters
    ----------
    acc_pos, acc_neg, prior
        As in :func:`metabits.group.group_accuracy_bounds`.

    Returns
    -------
    float or ndarray
        The printed upper bound.

    Raises
    ------
    ValueError
        As :func:`metabits.group.group_accuracy_bounds`.

    References
    ----------
    Meyen et al. (2025), Theorem 8.

    Examples
    --------
    >>> round(theorem8_upper_as_printed([0.5] * 3, [0.9] * 3, prior=0.3), 4)
    0.8817
    """
    tp, tn, p, acc = as_member_rates(acc_pos, acc_neg, prior)
    K = tp.shape[-1]
    return scalar_or_array(1.0 - np.prod(1.0 - acc, axis=-1) / p ** (K - 1))


@dataclass(frozen=True)
class MetaI1rVariants(Result):
    """Results of :func:`meta_I1r_variants`: arrays over the tables (floats for one table).

    Attributes
    ----------
    book : float or ndarray
        The library's meta-I₁ʳ: meta-I divided by meta-I(d′) at the absolute d′ = z(HR) −
        z(FAR) of the stimulus-conditional rates, the normaliser at equal priors.
    d_response : float or ndarray
        statConfR's sensitivity: z(P(S1 | "S1")) − z(P(S1 | "S2")), from the
        response-conditional rates (a count of 0 or of all raised or lowered by 0.5).
    response_d : float or ndarray
        meta-I divided by meta-I(d′) at the absolute ``d_response``: the library's normaliser
        at statConfR's sensitivity.
    statconfr : float or ndarray
        statConfR's meta-I₁ʳ: meta-I divided by the normal-noise classifier's information at
        the absolute ``d_response`` minus the lowest information its accuracy allows, the lower
        bound at the table's own priors.
    """

    book: object
    d_response: object
    response_d: object
    statconfr: object


def meta_I1r_variants(counts) -> MetaI1rVariants:
    """meta-I₁ʳ as the library defines it and as statConfR 0.2.2's ``estimateMetaI`` computes it.

    Both divide meta-I by the metainformation of a normal-noise classifier; they differ in its
    sensitivity and priors. The library (and Dayan's definition) takes d′ = z(HR) − z(FAR) from
    the rates conditional on the stimulus and the normaliser at equal priors; statConfR takes
    z(P(S1 | "S1")) − z(P(S1 | "S2")), rates conditional on the *response*, and the lower bound
    of the normaliser at the table's own share of each stimulus. ``response_d`` changes only
    the sensitivity, so the two differences can be told apart.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention.

    Returns
    -------
    MetaI1rVariants

    Raises
    ------
    ValueError
        For an invalid count table.

    References
    ----------
    Dayan (2023); Meyen et al. (2025), Figure 5b; statConfR 0.2.2 (Rausch, Meyen & Hellmann),
    ``estimateMetaI`` and its ``estimate_sensitivity``.

    Examples
    --------
    Meyen et al.'s Table 1 is symmetric, so the two sensitivities coincide:

    >>> v = meta_I1r_variants([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(v.book, 2), round(v.statconfr, 2)
    (2.51, 2.51)
    """
    import metabits as mb
    from scipy.special import ndtr, ndtri

    t = as_count_table(counts, min_levels=1)
    lead, flat = t.shape[:-2], t.reshape((-1,) + t.shape[-2:])
    K = flat.shape[-1] // 2
    said = np.stack([flat[..., :K].sum(-1), flat[..., K:].sum(-1)], axis=-1)  # (n, stim, resp)
    right = np.stack([said[:, 0, 0], said[:, 1, 1]], axis=-1)  # correct "S1", correct "S2"
    total = said.sum(axis=1)
    right = np.where(right == total, right - 0.5, np.where(right == 0, 0.5, right))
    d_resp = ndtri(right[:, 0] / total[:, 0]) - ndtri(1 - right[:, 1] / total[:, 1])
    meta_I = np.asarray(mb.info.type2_measures(flat).meta_I, dtype=float).reshape(-1)
    book = np.asarray(mb.info.type2_measures(flat).meta_I1r, dtype=float).reshape(-1)
    d_abs = np.abs(d_resp)
    priors = flat.sum(-1) / flat.sum(axis=(-2, -1))[:, None]
    lower = np.array([mb.info.info_lower_bound(a, priors=list(p))
                      for a, p in zip(ndtr(d_abs / 2), priors)])
    out = {"book": book, "d_response": d_resp,
           "response_d": meta_I / mb.info.meta_I_normal(d_abs),
           "statconfr": meta_I / (mb.info.normal_info(d_abs) - lower)}
    return MetaI1rVariants(**{k: scalar_or_array(v.reshape(lead)) for k, v in out.items()})


def statconfr_maskori_meta_i():
    """statConfR 0.2.2's ``estimateMetaI`` of the 16 MaskOri people, pooled over the SOAs.

    Shipped (``data/maskori_statconfr_meta_i.csv``, written by ``scripts/statconfr_meta_i.py``
    with R): one row per participant, columns ``meta_I``, ``meta_Ir1``, ``meta_Ir1_acc``,
    ``meta_Ir2`` and ``RMI`` as statConfR names them.

    Returns
    -------
    pandas.DataFrame
        Indexed by participant.

    Examples
    --------
    >>> len(statconfr_maskori_meta_i())
    16
    """
    import pandas as pd
    from importlib.resources import files

    with files("metabits_book").joinpath("data", "maskori_statconfr_meta_i.csv").open(
            encoding="utf-8") as f:
        return pd.read_csv(f, comment="#").set_index("participant")
