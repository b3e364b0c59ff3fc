"""The Outcome Self-Knowledge Ratio OSKR = I(S; T) / H(T) and its estimation (Roberts, 2026).

T is a discrete outcome (did the step succeed?), S the agent's self-assessment (a flag, a
confidence, a verifier score). OSKR is the fraction of the outcome's entropy that the
self-assessment removes: 0 when S says nothing about T, 1 when S determines T. All information
is in bits.

Estimators, as the essay's appendix lists them:

* ``"plugin"``: relative frequencies of the contingency table of T and S;
* ``"miller-madow"``: the plug-in mutual information minus
  :math:`(|T| - 1)(|S| - 1) / (2 N \\ln 2)`, with :math:`|T|` and :math:`|S|` the numbers of
  *observed* outcome and signal values, divided by the plug-in H(T); the corrected value may
  fall slightly below 0;
* ``"ksg"``: for a continuous S and a discrete T, the nearest-neighbour estimator of Kraskov,
  Stögbauer & Grassberger (2004) in Ross's (2014) form for a discrete variable, as implemented by
  scikit-learn's ``mutual_info_classif``, divided by the plug-in H(T).

Choices where the essay is silent (each is explained in the book's OSKR chapter):

* **H(T) = 0** (the outcome never varies) makes OSKR undefined: a ``ValueError``, not NaN.
* **H(T) < 0.1 bit**: a :class:`LowOutcomeEntropyWarning`; the result carries I(S; T) beside
  OSKR, as the appendix asks.
* **Intervals** resample the contingency table (multinomial), which is the trial-wise bootstrap
  of a discrete signal done in one vectorised draw. BCa's jackknife leaves out one trial per
  *cell*, weighted by the cell's count. KSG has no bootstrap interval: resampling with
  replacement duplicates trials, and duplicated points sit at distance 0 from each other, which
  inflates a nearest-neighbour estimate (the book's OSKR chapter shows how much).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from metabits._formulas import LN2, entropy_bits, mutual_info_bits
from metabits.results import Bounds, Result
from metabits.validation import (as_categories, as_choice, as_count_table, as_float_array, as_int,
                                 as_probability, as_rng, as_same_length, as_scalar, as_size,
                                 as_whole_counts, scalar_or_array)
from metabits.validation._scalars import as_undefined
from metabits.validation._tables import as_contingency_table

__all__ = ["CI_METHODS", "ESTIMATORS", "LOW_ENTROPY_BITS", "LowOutcomeEntropyWarning",
           "OSKREstimate", "contingency_table", "correctness_table", "oskr", "oskr_from_table"]

#: The estimators of :func:`oskr`.
ESTIMATORS = ("plugin", "miller-madow", "ksg")
#: The bootstrap intervals of :func:`oskr_ci`.
CI_METHODS = ("percentile", "bca")
#: Below this outcome entropy (bits) the essay calls OSKR noisy and asks for I(S; T) beside it.
LOW_ENTROPY_BITS = 0.1


class LowOutcomeEntropyWarning(UserWarning):
    """H(T) < 0.1 bit: OSKR divides by a small, noisy number; report I(S; T) beside it."""


@dataclass(frozen=True)
class OSKREstimate(Result):
    """Result of :func:`oskr` and :func:`oskr_from_table`; also readable as a mapping.

    Attributes
    ----------
    oskr : I(S; T) / H(T).
    mutual_info : the estimate of I(S; T) in bits (after the Miller–Madow correction, if any).
    h_outcome : plug-in H(T) in bits.
    h_outcome_given_signal : ``h_outcome - mutual_info``, the uncertainty S leaves.
    n : number of trials.
    n_outcomes, n_signals : observed distinct outcomes and signal values (bins); ``n_signals``
        is 0 for the KSG estimator, which does not discretise S.
    estimator : the estimator's name.
    """

    oskr: object
    mutual_info: object
    h_outcome: object
    h_outcome_given_signal: object
    n: object
    n_outcomes: object
    n_signals: object
    estimator: str

    def __float__(self) -> float:
        """``float(estimate)`` is the OSKR of one table (a stack has no single value)."""
        if np.ndim(self.oskr):
            raise ValueError("float() needs a single OSKR; this estimate holds a stack")
        return float(self.oskr)


# --- kernels (no input checks): stacks of tables (..., k_T, k_S) ---------------------------------

def _entropies(counts: np.ndarray):
    """Plug-in H(T) and I(S; T) in bits, and N, of a stack of tables."""
    n = counts.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = counts / n[..., None, None]
    return entropy_bits(p.sum(axis=-1)), np.maximum(mutual_info_bits(p), 0.0), n


def _miller_madow(counts: np.ndarray, n: np.ndarray):
    """The Miller–Madow term (|T| − 1)(|S| − 1) / (2 N ln 2) with observed |T| and |S|."""
    k_t = (counts.sum(axis=-1) > 0).sum(axis=-1)
    k_s = (counts.sum(axis=-2) > 0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (k_t - 1) * (k_s - 1) / (2.0 * n * LN2)


def _oskr_kernel(counts: np.ndarray, estimator: str) -> np.ndarray:
    """OSKR of each table of a stack; NaN where H(T) = 0."""
    h_t, mi, n = _entropies(counts)
    if estimator == "miller-madow":
        mi = mi - _miller_madow(counts, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(h_t > 1e-12, mi / np.where(h_t > 1e-12, h_t, 1.0), np.nan)


def _check_outcome_entropy(h_t: np.ndarray, mi: np.ndarray):
    """Refuse H(T) = 0; warn below :data:`LOW_ENTROPY_BITS`, quoting I(S; T)."""
    if np.any(h_t <= 1e-12):
        where = np.argwhere(np.atleast_1d(h_t) <= 1e-12)[0]
        at = f" (table {tuple(int(i) for i in where)})" if np.ndim(h_t) else ""
        raise ValueError(f"OSKR is undefined{at}: the outcome never varies, H(T) = 0, so there "
                         "is nothing for the self-assessment to know")
    low = h_t < LOW_ENTROPY_BITS
    if np.any(low):
        i = np.argwhere(np.atleast_1d(low))[0]
        ht, m = np.atleast_1d(h_t)[tuple(i)], np.atleast_1d(mi)[tuple(i)]
        warnings.warn(f"H(T) = {ht:.3g} bit < {LOW_ENTROPY_BITS} bit: the outcome is nearly "
                      f"constant and OSKR is noisy; report I(S;T) = {m:.3g} bit beside it",
                      LowOutcomeEntropyWarning, stacklevel=3)


# --- tables from trials --------------------------------------------------------------------------

def _bin_codes(signal: np.ndarray, bins):
    """Codes 0..B-1 of a continuous signal in ``bins`` (a count or increasing edges)."""
    if np.ndim(bins) == 0:
        edges = np.histogram_bin_edges(signal, bins=as_int(bins, "bins"))
    else:
        edges = as_float_array(bins, "bins")
        if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) <= 0):
            raise ValueError("bins must be an integer >= 1 or at least two strictly increasing "
                             "bin edges")
        outside = (signal < edges[0]) | (signal > edges[-1])
        if np.any(outside):
            raise ValueError(f"signal value {signal[outside][0]:g} lies outside the bins "
                             f"[{edges[0]:g}, {edges[-1]:g}]")
    codes = np.clip(np.searchsorted(edges, signal, side="right") - 1, 0, edges.size - 2)
    return codes, edges.size - 1


def _trial_codes(outcome, signal, bins, continuous: bool):
    t, _ = as_categories(outcome, "outcome")
    if continuous or bins is not None:
        s = as_float_array(signal, "signal")
        if s.ndim != 1:
            raise ValueError(f"signal must be 1-D (one value per trial); got shape {s.shape}")
    else:
        s, _ = as_categories(signal, "signal")
    as_same_length(t, s, "outcome and signal")
    return t, s


def contingency_table(outcome, signal, *, bins=None) -> np.ndarray:
    """Counts of each (outcome, signal value) pair: rows T, columns S.

    Parameters
    ----------
    outcome : array_like, shape (N,)
        Per-trial outcomes T (numbers, booleans or strings).
    signal : array_like, shape (N,)
        Per-trial self-assessments S. Without ``bins`` each distinct value is a category.
    bins : int or array_like, optional
        Discretise a continuous signal: a number of equal-width bins over the observed range,
        or increasing bin edges (the last bin includes its right edge).

    Returns
    -------
    ndarray, shape (k_T, k_S)
        Rows: the sorted distinct outcomes; columns: the sorted distinct signal values, or the
        bins (empty bins included).

    Raises
    ------
    ValueError
        For arrays of different lengths, empty, non-1-D or non-finite input, and signal values
        outside given bin edges.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, appendix "Discrete vs continuous S".

    Examples
    --------
    >>> contingency_table([1, 1, 0, 0], ["sure", "sure", "sure", "unsure"])
    array([[1., 1.],
           [2., 0.]])
    """
    t, s = _trial_codes(outcome, signal, bins, continuous=False)
    if bins is not None:
        s, k_s = _bin_codes(s, bins)
    else:
        k_s = int(s.max()) + 1
    k_t = int(t.max()) + 1
    return np.bincount(t * k_s + s, minlength=k_t * k_s).reshape(k_t, k_s).astype(float)


def correctness_table(counts) -> np.ndarray:
    """Turn a Type 2 count table into the contingency table of correctness T and response S.

    With T = "the response's prediction is correct" and S = the response (prediction and
    confidence level), OSKR of this table is Meyen et al.'s meta-I₂ʳ whenever each response's
    predicted label is at least as frequent as the other label in its column (the book's
    chapter "OSKR among the other measures" derives it).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        A count table in the library's convention (:func:`metabits.type2_measures`): row 0 is
        Y = −1, row 1 is Y = +1; the first K columns predict −1, the last K predict +1.

    Returns
    -------
    ndarray, shape (..., 2, 2K)
        Row 0: correct trials of each response; row 1: wrong trials.

    Raises
    ------
    ValueError
        For a table that is not a valid count table (:func:`metabits.validation.as_count_table`).

    References
    ----------
    Roberts (2026), section 02; Meyen et al. (2025), Figure 5c.

    Examples
    --------
    >>> correctness_table([[84, 56, 48, 12], [4, 56, 64, 76]])
    array([[84., 56., 64., 76.],
           [ 4., 56., 48., 12.]])
    """
    c = as_count_table(counts)
    k = c.shape[-1] // 2
    correct = np.concatenate([c[..., 0, :k], c[..., 1, k:]], axis=-1)
    wrong = np.concatenate([c[..., 1, :k], c[..., 0, k:]], axis=-1)
    return np.stack([correct, wrong], axis=-2)


# --- public estimators ---------------------------------------------------------------------------

def oskr_from_table(counts, *, estimator: str = "plugin",
                    undefined: str = "raise") -> OSKREstimate:
    """OSKR = I(S; T) / H(T) from a contingency table (or a stack of them).

    Parameters
    ----------
    counts : array_like, shape (..., k_T, k_S)
        Counts of each outcome (rows) and signal value (columns).
    estimator : {"plugin", "miller-madow"}
        Plug-in frequencies, or the Miller–Madow corrected mutual information divided by the
        plug-in H(T) (module docstring).
    undefined : {"raise", "nan"}, default "raise"
        Where H(T) = 0: raise a ``ValueError``, or, when asked explicitly (large simulated
        stacks), give NaN for that table.

    Returns
    -------
    OSKREstimate
        Floats for one table, arrays for a stack.

    Raises
    ------
    ValueError
        For negative or non-finite counts, an empty table, an unknown estimator, or H(T) = 0
        (the outcome never varies: OSKR is undefined) unless ``undefined="nan"``.

    Warns
    -----
    LowOutcomeEntropyWarning
        If H(T) < 0.1 bit (not with ``undefined="nan"``, which is meant for simulations).

    References
    ----------
    Roberts (2026), *From Bits to Minds*, section 02 and appendix "Entropy estimation".

    Examples
    --------
    >>> r = oskr_from_table([[40, 10], [10, 40]])
    >>> round(r.oskr, 4), round(r.h_outcome, 4)
    (0.2781, 1.0)
    >>> round(oskr_from_table([[40, 10], [10, 40]], estimator="miller-madow").oskr, 4)
    0.2709
    """
    counts = as_contingency_table(counts)
    as_choice(estimator, ESTIMATORS[:2], "estimator for a table")
    undefined = as_undefined(undefined)
    h_t, mi, n = _entropies(counts)
    if estimator == "miller-madow":
        mi = mi - _miller_madow(counts, n)
    if undefined == "raise":
        _check_outcome_entropy(h_t, mi)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(h_t > 1e-12, mi / np.where(h_t > 1e-12, h_t, 1.0), np.nan)
    k_t = (counts.sum(axis=-1) > 0).sum(axis=-1)
    k_s = (counts.sum(axis=-2) > 0).sum(axis=-1)
    return OSKREstimate(oskr=scalar_or_array(ratio), mutual_info=scalar_or_array(mi),
                        h_outcome=scalar_or_array(h_t),
                        h_outcome_given_signal=scalar_or_array(h_t - mi),
                        n=_whole(n), n_outcomes=_whole(k_t), n_signals=_whole(k_s),
                        estimator=estimator)


def _whole(arr):
    """Counts as a Python int (one table) or an int64 array (a stack)."""
    arr = np.asarray(arr).astype(np.int64)
    return int(arr) if arr.ndim == 0 else arr


def _ksg_bits(t_codes: np.ndarray, s: np.ndarray, neighbors: int) -> float:
    """I(S; T) in bits by scikit-learn's nearest-neighbour estimator (Ross, 2014)."""
    from sklearn.feature_selection import mutual_info_classif  # imported here: slow to import

    nats = mutual_info_classif(s[:, None], t_codes, discrete_features=False,
                               n_neighbors=neighbors, random_state=0)[0]
    return float(nats) / LN2


def oskr(outcome, signal, *, estimator: str = "plugin", bins=None,
         neighbors: int = 3) -> OSKREstimate:
    """OSKR = I(S; T) / H(T) from per-trial outcomes T and self-assessments S.

    Parameters
    ----------
    outcome : array_like, shape (N,)
        Per-trial outcomes (e.g. success True/False, or graded outcomes).
    signal : array_like, shape (N,)
        Per-trial self-assessments: categories (a flag, a rating) for ``"plugin"`` and
        ``"miller-madow"`` without ``bins``; numbers for ``bins`` or ``"ksg"``.
    estimator : {"plugin", "miller-madow", "ksg"}
        See the module docstring. ``"ksg"`` needs a continuous signal and no ``bins``.
    bins : int or array_like, optional
        Discretise a continuous signal first (:func:`contingency_table`).
    neighbors : int, default 3
        k of the KSG estimator.

    Returns
    -------
    OSKREstimate
        ``oskr`` with the mutual information and entropies it is made of; ``float(result)`` is
        the OSKR itself.

    Raises
    ------
    ValueError
        For bad input (see :func:`contingency_table`), an unknown estimator, ``bins`` with
        ``"ksg"``, too few trials for ``neighbors``, or H(T) = 0 (OSKR undefined).

    Warns
    -----
    LowOutcomeEntropyWarning
        If H(T) < 0.1 bit.
    UserWarning
        If the plug-in sees fewer than 2 trials per signal value on average (a continuous
        signal passed without ``bins``: each value becomes its own category and OSKR is
        overestimated).

    References
    ----------
    Roberts (2026), *From Bits to Minds*, section 02 and the estimation appendix; Kraskov,
    Stögbauer & Grassberger (2004), Phys. Rev. E 69, 066138; Ross (2014), PLoS ONE 9, e87357.

    Examples
    --------
    >>> t = [1, 1, 1, 0, 0, 1, 0, 1]
    >>> s = ["sure", "sure", "sure", "unsure", "unsure", "unsure", "sure", "sure"]
    >>> round(oskr(t, s).oskr, 4)
    0.1665
    >>> rng = np.random.default_rng(1)
    >>> y = rng.integers(0, 2, 4000)
    >>> round(oskr(y, rng.normal(3.0 * y, 1.0), estimator="ksg").oskr, 1)
    0.8
    """
    as_choice(estimator, ESTIMATORS, "estimator")
    k = as_size(neighbors, "neighbors")  # checked even when unused (estimator other than "ksg")
    if estimator == "ksg":
        if bins is not None:
            raise ValueError("the KSG estimator works on the continuous signal; do not pass bins")
        t, s = _trial_codes(outcome, signal, None, continuous=True)
        if k >= len(t):
            raise ValueError(f"neighbors = {k} needs more than {k} trials; got {len(t)}")
        counts_t = np.bincount(t).astype(float)
        h_t = float(entropy_bits(counts_t / counts_t.sum()))
        mi = _ksg_bits(t, s, k)
        _check_outcome_entropy(np.asarray(h_t), np.asarray(mi))
        return OSKREstimate(oskr=mi / h_t, mutual_info=mi, h_outcome=h_t,
                            h_outcome_given_signal=h_t - mi, n=len(t),
                            n_outcomes=int((counts_t > 0).sum()), n_signals=0,
                            estimator=estimator)
    counts = contingency_table(outcome, signal, bins=bins)
    n_values = int((counts.sum(axis=0) > 0).sum())
    if bins is None and counts.sum() < 2 * n_values:
        warnings.warn(f"the signal takes {n_values} distinct values in {int(counts.sum())} "
                      "trials (fewer than 2 per value): the plug-in treats each value as a "
                      "category and overestimates OSKR; pass bins= or estimator='ksg'",
                      UserWarning, stacklevel=2)
    return oskr_from_table(counts, estimator=estimator)
