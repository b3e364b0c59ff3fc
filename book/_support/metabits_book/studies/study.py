"""Meyen et al.'s (2025) simulation study as a whole: the theoretical lines of Figures 6 and 7 and
the six measures of every simulated data set (the data sets themselves: :mod:`metabits_book.studies.simulation`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits._results import Result
from metabits._validate import as_count_table, as_flag, as_noise_kind, as_pad
from metabits.info.measures import INFO_MEASURES, type2_measures
from metabits_book.studies.simulation import SDT_PAD, SIX_MEASURES, _acc, response_probabilities
from metabits.studies.stack_measures import _measures_of_stack

__all__ = ["StudyMeasures", "TheoreticalMeasures", "measure_study", "theoretical_measures"]


@dataclass(frozen=True)
class TheoreticalMeasures(Result):
    """Infinite-sample measures of a noise classifier (:func:`theoretical_measures`).

    Fields are floats for one accuracy, arrays shaped like ``acc`` otherwise.

    Attributes
    ----------
    acc : float or ndarray
        Accuracy of the binned classifier.
    info : float or ndarray
        Transmitted information (bits) of the binned classifier.
    meta_I, meta_I1r, meta_I2r, RMI : float or ndarray
        The information-theoretic Type 2 measures.
    d_prime : float or ndarray
        :math:`2\\Phi^{-1}(acc)`.
    meta_d, m_ratio : float, ndarray or None
        The SDT measures (``None`` when not asked for with ``sdt=True``).
    """

    acc: object
    info: object
    meta_I: object
    meta_I1r: object
    meta_I2r: object
    RMI: object
    d_prime: object
    meta_d: object = None
    m_ratio: object = None


@dataclass(frozen=True)
class StudyMeasures(Result):
    """The six measures of every data set of a study (:func:`measure_study`).

    Attributes
    ----------
    acc : ndarray
        Plug-in accuracy of each data set.
    meta_d, m_ratio, meta_I, meta_I1r, meta_I2r, RMI : ndarray
        The six measures (NaN where undefined), arrays shaped like the stack of tables.
    undefined : dict
        Per measure, the number of NaN entries.
    bias_excluded : dict
        Per information measure, the total number of resamples left out of the bias estimate
        (empty without bias reduction).
    """

    acc: np.ndarray
    meta_d: np.ndarray
    m_ratio: np.ndarray
    meta_I: np.ndarray
    meta_I1r: np.ndarray
    meta_I2r: np.ndarray
    RMI: np.ndarray
    undefined: dict
    bias_excluded: dict


# --- theoretical (infinite-sample) values: the lines of Figures 6 and 7 ---------------------------

def theoretical_measures(kind: str, acc, sdt: bool = True):
    """Infinite-sample values of the Type 2 measures under the paper's binning (the lines).

    The plug-in measures of :func:`metabits.type2_measures` applied to the exact table of
    :func:`response_probabilities` (bias reduction off; a table of probabilities is a table of
    counts up to scale) are the limits of the estimates as the number of trials grows, i.e. the
    lines of Meyen et al. (2025), Figures 6 and 7:

    * **uniform**: the low bin holds exactly the confidence-0.5 responses and the high bin the
      confidence-1 responses, so binning loses nothing: ``info = max info(acc)`` and ``RMI = 1``.
    * **binary**: the random bin carries no information: ``meta_I = RMI = 0`` (and all others 0).
    * **normal**: in between; binning loses information (Dayan, 2023), so ``meta_I1r < 1``.

    The SDT measures (``meta_d``, ``m_ratio``) are added when ``sdt`` is true. Their lines are known
    in closed form (fitting the exact tables, scaled to :data:`SDT_TOTAL` trials and unpadded,
    reproduces them; tested):

    * **normal**: the binned table is exactly an SDT model with :math:`d' = 2\\Phi^{-1}(acc)`, an
      unbiased criterion and Type 2 criteria :math:`\\pm \\ln 3 / d'`, so meta-d′ = d′ and
      M-ratio = 1;
    * **binary**: high and low confidence are equally likely after correct and incorrect
      predictions, so meta-d′ = 0 and M-ratio = 0;
    * **uniform**: there are no confident errors (zero cells) but some confident correct
      responses. No finite meta-d′ produces that: the likelihood keeps increasing as meta-d′ →
      ∞, so the infinite-sample meta-d′ and M-ratio are **+inf** (not fitted; the line lies above
      any plot range). Finite-sample fits of uniform-noise data, which also always have these
      zero cells, return optimiser- or padding-dependent finite values.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    acc : float or array_like
        Accuracies in (0.5, 1): at 0.5 the measures are 0/0, at 1 d′ is infinite.
    sdt : bool, default True
        Add ``meta_d`` and ``m_ratio``.

    Returns
    -------
    TheoreticalMeasures
        ``acc``, ``info``, ``meta_I``, ``meta_I1r``, ``meta_I2r``, ``RMI`` and ``d_prime``
        (:math:`2\\Phi^{-1}(acc)`), floats or arrays shaped like ``acc``; ``meta_d`` and
        ``m_ratio`` when ``sdt`` (else ``None``).

    Raises
    ------
    ValueError
        For an unknown ``kind`` or an accuracy outside (0.5, 1).

    References
    ----------
    Meyen et al. (2025), Figures 6 and 7 ("Lines represent theoretically to-be-expected values
    (e.g., with infinitely many samples)"); Dayan (2023) on the information lost by binning.

    Examples
    --------
    >>> r = theoretical_measures("uniform", 0.7, sdt=False)
    >>> round(r["RMI"], 12), round(r["meta_I"], 3)
    (1.0, 0.281)
    >>> n = theoretical_measures("normal", 0.7)
    >>> round(n.meta_I1r, 3), round(n.RMI, 3), n.m_ratio
    (0.694, 0.139, 1.0)
    """
    kind = as_noise_kind(kind)
    acc = _acc(acc, strict_low=True)
    sdt = as_flag(sdt, "sdt")
    p = response_probabilities(kind, acc)
    m = type2_measures(p)
    keys = ("acc", "info") + INFO_MEASURES + ("d_prime",)
    out = {k: np.asarray(m[k], dtype=float) for k in keys}
    if sdt:
        # the closed forms above; tests check that fitting the exact tables reproduces them
        if kind == "uniform":
            meta_d = np.full(acc.shape, np.inf)
            m_ratio = np.full(acc.shape, np.inf)
        elif kind == "normal":
            meta_d, m_ratio = out["d_prime"].copy(), np.ones(acc.shape)
        else:
            meta_d, m_ratio = np.zeros(acc.shape), np.zeros(acc.shape)
        out["meta_d"], out["m_ratio"] = meta_d, m_ratio
    return TheoreticalMeasures(**{k: float(v) if v.ndim == 0 else v for k, v in out.items()})


# --- the six measures of a whole study ------------------------------------------------------------


def measure_study(counts, bias_reduction: int = 0, rng=None, pad: float = SDT_PAD) -> StudyMeasures:
    """All six Type 2 measures and the accuracy of every simulated data set, vectorised.

    The six columns of Meyen et al.'s Figures 6–7 chosen from the library's one computation of
    every measure of a stack (:mod:`metabits.studies.stack_measures`, as
    :func:`metabits.all_measures`): meta-d′ and M-ratio fitted on the counts padded by ``pad``
    (never bias-reduced, as in the paper); the four information measures of
    :func:`metabits.type2_measures`, with Monte Carlo bias reduction when ``bias_reduction`` > 0;
    ``acc`` is their accuracy (each column recoded to its more frequent label,
    :func:`metabits.type2_measures`' ``acc``; :func:`metabits.all_measures`' ``acc`` is the
    accuracy reached).
    A measure that is undefined for a data set (meta-I₁ʳ when d′ = 0, say) is NaN there; the
    result counts such data sets under ``"undefined"`` so that none is dropped silently.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 4)
        Count tables, e.g. from :func:`simulate_study` (shape (3, 4, n_sets, 2, 4)).
    bias_reduction : int
        Resamples for the bias reduction of the information measures (0: plug-in).
    rng : numpy.random.Generator or int, optional
        For the resampling.
    pad : float, default :data:`SDT_PAD`
        Added to every cell before the meta-d′ fit; must be > 0.

    Returns
    -------
    StudyMeasures
        ``acc`` (plug-in accuracy) and the six measures, arrays shaped like ``counts.shape[:-2]``;
        ``undefined``: per measure, the number of NaN entries; ``bias_excluded``: per information
        measure, the total number of resamples left out of the bias estimate.

    Raises
    ------
    ValueError
        For counts that are not a stack of valid 2 × 4 count tables (negative, non-finite, an
        empty row, a single table without a stack axis), a pad that is not > 0, or, with bias
        reduction, counts that are not whole numbers.

    References
    ----------
    Meyen et al. (2025), sections "Comparison of Type 2 Performance Measures: Evaluation" and
    "Bias Reduction"; Figures 6 and 7.

    Examples
    --------
    The mean plug-in RMI of 50 data sets per noise case at acc = 0.7; the lines of Figure 6f
    are 1 (uniform), 0.14 (normal) and 0 (binary):

    >>> import numpy as np
    >>> from metabits_book.studies.simulation import simulate_study
    >>> m = measure_study(simulate_study(accs=[0.7], n_sets=50, rng=1))
    >>> m.RMI.shape
    (3, 1, 50)
    >>> np.nanmean(m.RMI, axis=(1, 2)).round(1).tolist()
    [0.9, 0.2, 0.0]
    """
    counts = as_count_table(counts)
    if counts.ndim < 3 or counts.shape[-2:] != (2, 4):
        raise ValueError(f"counts must be count tables of shape (..., 2, 4); got {counts.shape}")
    pad = as_pad(pad, 2, positive=True)
    lead = counts.shape[:-2]
    v, excluded = _measures_of_stack(counts.reshape(-1, 2, 4), pad,
                                     bias_reduction=bias_reduction, rng=rng)
    out = {k: v[k].reshape(lead) for k in SIX_MEASURES}
    out["acc"] = v["acc_recoded"].reshape(lead)  # the information measures' accuracy
    out["undefined"] = {k: int(np.isnan(out[k]).sum()) for k in SIX_MEASURES}
    out["bias_excluded"] = {k: int(np.sum(n)) for k, n in excluded.items()}
    return StudyMeasures(**out)
