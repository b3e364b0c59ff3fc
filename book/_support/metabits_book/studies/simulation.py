"""The simulation study of Meyen et al. (2025), Figures 6 and 7, and its theoretical lines.

Section "Comparison of Type 2 Performance Measures: Setup": the three noise classifiers of
Figure 2 (:mod:`metabits.info`) at accuracies 60, 70, 80 and 90 %, 200 data sets each of 400
trials (200 per true label). Each trial's observation gives the prediction
:math:`\\hat Y = \\mathrm{sign}(X)` and a calibrated confidence, binned into a low bin
:math:`c \\in [50\\%, 75\\%)` and a high bin :math:`c \\in [75\\%, 100\\%]`; binary noise, whose
confidence is always ``acc``, goes into either bin with probability 1/2.

Tables of counts use the layout of :func:`metabits.type2_measures`: shape ``(..., 2, 4)``, row 0
the true label −1 (S1), row 1 the label +1 (S2), and the columns the responses

``"S1 high"``, ``"S1 low"``, ``"S2 low"``, ``"S2 high"``

from "S1, most confident" to "S2, most confident" (so row 0 and row 1 are also the ``nR_S1`` and
``nR_S2`` of the meta-d′ literature).

Two equivalent samplers are provided. Given the label, the trials of a data set are independent
and each lands in one of the four response columns with the exact probabilities of
:func:`response_probabilities`, so a data set's row is a multinomial draw; this is what
:func:`simulate_counts` does by default (fast). :func:`sample_trials` draws the observations,
predictions and confidences themselves (for teaching and as a cross-check).

:func:`theoretical_measures` gives the infinite-sample values of the measures — the lines of
Figures 6 and 7 — by applying the plug-in measures to the exact table of response probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import ndtr

from metabits.info import INFO_MEASURES, dprime_from_accuracy, type2_measures
from metabits.results import Result
from metabits.sdt import classic_type2
from metabits_book.studies.mc import MCEstimate, mc_mean, mc_ratio, mc_sd
from metabits.validation import (NOISE_TYPES, as_accuracy, as_confidence, as_count_table, as_flag,
                                 as_int, as_labels, as_noise_kind, as_pad, as_rng, as_same_length,
                                 as_size, scalar_or_array)
from metabits.info import confidence_from_observation, sample_observations

__all__ = ["CONFIDENCE_SPLIT", "RESPONSES", "SDT_PAD", "SIX_MEASURES", "STUDY_ACCURACIES",
           "STUDY_SEED", "StudyMeasures", "TheoreticalMeasures", "bin_responses", "counts_from_trials",
           "measure_study", "paper_study", "response_probabilities", "sample_trials",
           "simulate_counts",
           "simulate_study", "theoretical_measures"]

#: The accuracies of the paper's simulation study.
STUDY_ACCURACIES = (0.6, 0.7, 0.8, 0.9)

#: Lower edge of the high-confidence bin: low is [0.5, 0.75), high is [0.75, 1].
CONFIDENCE_SPLIT = 0.75

#: Response columns of the count tables, from "S1, most confident" to "S2, most confident".
RESPONSES = ("S1 high", "S1 low", "S2 low", "S2 high")

#: Total count by which the tests scale the exact tables to fit their meta-d′ lines.
SDT_TOTAL = 1_000_000

#: the six Type 2 measures of Figures 6 and 7, in the paper's panel order
SIX_MEASURES = ("meta_d", "m_ratio", "meta_I", "meta_I1r", "meta_I2r", "RMI")

#: padding of the meta-d′ fits: 1/(2K) for K = 2 confidence levels, as statConfR (the
#: implementation the paper used) always adds
SDT_PAD = 0.25


@dataclass(frozen=True)
class Trials(Result):
    """Single simulated trials (:func:`sample_trials`); arrays of one shape.

    Attributes
    ----------
    label : ndarray
        True labels ±1.
    x : ndarray
        Observations.
    prediction : ndarray
        Predictions sign(x), ±1.
    confidence : ndarray
        Calibrated confidences in [0.5, 1].
    """

    label: np.ndarray
    x: np.ndarray
    prediction: np.ndarray
    confidence: np.ndarray


def _acc(acc, strict_low: bool = False) -> np.ndarray:
    """Accuracies in [0.5, 1) (or (0.5, 1) if ``strict_low``)."""
    return as_accuracy(acc, low_open=strict_low, high_open=True,
                       why_low="at acc = 0.5 the measures are 0/0" if strict_low else "",
                       why_high="acc = 1 makes the normal classifier's d' infinite and leaves "
                                "no uncertainty")


def response_probabilities(kind: str, acc):
    """Exact probabilities :math:`P(\\text{response} \\mid Y)` of the binned responses.

    The classifier predicts :math:`\\hat Y = \\mathrm{sign}(X)` with calibrated confidence
    :math:`C`, and the response is the prediction with the bin of :math:`C` (low
    :math:`[0.5, 0.75)`, high :math:`[0.75, 1]`; Meyen et al., 2025, section "Comparison of Type 2
    Performance Measures: Setup"). For the true label +1 (row 1), with the three noise cases of
    :mod:`metabits.info`:

    * **normal**, :math:`d' = 2\\Phi^{-1}(acc)`:
      :math:`C \\ge 0.75 \\iff |X| \\ge t = \\ln 3 / d'`, so S2 high :math:`= \\Phi(d'/2 - t)`,
      S2 low :math:`= \\Phi(d'/2) - \\Phi(d'/2 - t)`,
      S1 low :math:`= \\Phi(-d'/2) - \\Phi(-d'/2 - t)`, S1 high :math:`= \\Phi(-d'/2 - t)`;
    * **uniform**: confidence 1 (high) outside the overlap of the two supports and 0.5 (low)
      inside it, where the prediction is a fair coin: S2 high :math:`= 2acc - 1`,
      S2 low = S1 low :math:`= 1 - acc`, S1 high = 0 (no confident errors);
    * **binary**: confidence is always ``acc``; the bin is a fair coin, so
      S2 high = S2 low :math:`= acc/2` and S1 low = S1 high :math:`= (1 - acc)/2`.

    Row 0 (true label −1) is row 1 reversed. Each row sums to 1, and
    :math:`P(\\hat Y = Y) = acc`.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    acc : float or array_like
        Accuracies in [0.5, 1).

    Returns
    -------
    ndarray, shape ``acc.shape + (2, 4)``
        Rows: true label −1, +1; columns: :data:`RESPONSES`.

    Raises
    ------
    ValueError
        For an unknown ``kind`` or an accuracy outside [0.5, 1).

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup" (the binning)
    and Figure 2 (the three noise cases).

    Examples
    --------
    >>> response_probabilities("uniform", 0.7)[1]
    array([0. , 0.3, 0.3, 0.4])
    >>> response_probabilities("normal", 0.7).round(3).tolist()
    [[0.3, 0.4, 0.242, 0.058], [0.058, 0.242, 0.4, 0.3]]
    """
    kind = as_noise_kind(kind)
    acc = _acc(acc)
    if kind == "uniform":
        zero = np.zeros_like(acc)
        row = np.stack([zero, 1.0 - acc, 1.0 - acc, 2.0 * acc - 1.0], axis=-1)
    elif kind == "binary":
        row = np.stack([(1.0 - acc) / 2, (1.0 - acc) / 2, acc / 2, acc / 2], axis=-1)
    else:
        d = dprime_from_accuracy(acc)
        # high bin: d'|X| >= ln 3; at d' = 0 (acc = 0.5) nothing is confident
        t = np.divide(np.log(3.0), d, out=np.full_like(d, np.inf), where=d > 0)
        h = d / 2.0
        s1_high = ndtr(-h - t)
        s2_high = ndtr(h - t)
        s1_low = ndtr(-h) - s1_high
        s2_low = ndtr(h) - s2_high
        row = np.stack([s1_high, s1_low, s2_low, s2_high], axis=-1)
    return np.stack([row[..., ::-1], row], axis=-2)


def sample_trials(kind: str, acc, n_per_label: int = 200, n_sets: int = 1, rng=None):
    """Simulate single trials of a noise classifier: label, observation, prediction, confidence.

    Each data set has ``n_per_label`` trials with true label −1 followed by ``n_per_label``
    with +1. Observations follow :mod:`metabits.info` (Meyen et al., 2025, Figure 2); the
    prediction is :math:`\\mathrm{sign}(X)` and the confidence its calibrated value
    (as :func:`metabits.info.confidence_from_observation`). Inside the uniform-noise overlap,
    :math:`X \\mid Y` is uniform on an interval symmetric about 0, so ``sign(X)`` is a fair coin
    independent of the label, as a confidence of 0.5 requires.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    acc : float or array_like
        Accuracies in [0.5, 1); an array adds its shape in front of the outputs.
    n_per_label : int, default 200
        Trials per true label and data set.
    n_sets : int, default 1
        Number of data sets.
    rng : numpy.random.Generator or int, optional
        Random generator (or seed).

    Returns
    -------
    Trials
        A frozen dataclass that is also a mapping, with ``label`` (±1), ``x`` (observation),
        ``prediction`` (±1) and ``confidence`` (in [0.5, 1]): arrays each shaped
        ``acc.shape + (n_sets, 2 * n_per_label)``.

    Raises
    ------
    ValueError
        For an unknown ``kind``, an accuracy outside [0.5, 1) or non-positive sizes.

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup": "Each
    observation determines the prediction and calibrated confidence rating based on the
    respective noise distribution"; Figure 2.

    Examples
    --------
    >>> t = sample_trials("normal", 0.7, n_per_label=2000, rng=1)
    >>> t.label.shape
    (1, 4000)
    >>> correct = t.prediction == t.label
    >>> round(float(correct.mean()), 2)   # the accuracy, up to sampling
    0.7
    """
    kind = as_noise_kind(kind)
    acc = _acc(acc)
    n_per_label = as_size(n_per_label, "n_per_label")
    n_sets = as_size(n_sets, "n_sets")
    rng = as_rng(rng)
    shape = acc.shape + (n_sets, 2 * n_per_label)
    a = acc[..., None, None]
    label = np.broadcast_to(np.repeat([-1.0, 1.0], n_per_label), shape)
    x = sample_observations(kind, a, label, rng)
    conf = np.array(confidence_from_observation(kind, x, a), dtype=float)
    pred = np.sign(x)
    tie = pred == 0  # probability zero for the continuous cases: break it with a fair coin
    if np.any(tie):
        pred[tie] = rng.choice([-1.0, 1.0], size=int(tie.sum()))
    return Trials(label=label.copy(), x=x, prediction=pred, confidence=conf)


def bin_responses(prediction, confidence, random_bins: bool = False, rng=None):
    """Response column (index into :data:`RESPONSES`) of each trial.

    The confidence goes into the low bin [0.5, 0.75) or the high bin [0.75, 1]; with
    ``random_bins`` (the paper's treatment of binary noise) into either with probability 1/2,
    regardless of its value.

    Parameters
    ----------
    prediction : array_like of ±1
    confidence : array_like
        Confidences in [0.5, 1], same shape as ``prediction``.
    random_bins : bool, default False
    rng : numpy.random.Generator or int, optional
        Needed only for ``random_bins``.

    Returns
    -------
    ndarray of int
        0 = S1 high, 1 = S1 low, 2 = S2 low, 3 = S2 high.

    Raises
    ------
    ValueError
        For predictions other than ±1, confidences outside [0.5, 1] or mismatched shapes.

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup": "a low
    confidence bin c ∈ [50%, 75%) and a high confidence bin c ∈ [75%, 100%]"; binary noise is
    assigned to either bin "with equal probabilities".

    Examples
    --------
    >>> bin_responses([-1, -1, 1, 1], [0.9, 0.6, 0.6, 0.9]).tolist()
    [0, 1, 2, 3]
    """
    pred = as_labels(prediction, "prediction")
    conf = as_confidence(confidence, "confidence")
    as_same_length(pred, conf, "prediction and confidence", one_d=False)
    gen = as_rng(rng)
    if as_flag(random_bins, "random_bins"):
        high = gen.random(pred.shape) < 0.5
    else:
        high = conf >= CONFIDENCE_SPLIT
    return np.where(pred > 0, 2 + high, 1 - high).astype(np.intp)


def counts_from_trials(label, response):
    """Count tables ``(..., 2, 4)`` from per-trial labels (±1) and response indices (0–3).

    The last axis of ``label`` and ``response`` runs over the trials of one data set; leading
    axes are kept. Vectorised with a single ``bincount``.

    Parameters
    ----------
    label : array_like of ±1
        True label of each trial, trials on the last axis.
    response : array_like of int
        Response column of each trial (0 = S1 high, 1 = S1 low, 2 = S2 low, 3 = S2 high, as
        :func:`bin_responses` returns), same shape as ``label``.

    Returns
    -------
    ndarray of int, shape ``label.shape[:-1] + (2, 4)``
        Count tables in the layout of :func:`metabits.type2_measures` (row 0: label −1).

    Raises
    ------
    ValueError
        For labels other than ±1, responses outside 0–3, mismatched shapes or no trials.

    References
    ----------
    Meyen et al. (2025), Table 1 (the layout of a table of counts).

    Examples
    --------
    >>> counts_from_trials([-1, -1, 1, 1, 1], [0, 1, 3, 3, 2]).tolist()
    [[1, 1, 0, 0], [0, 0, 1, 2]]
    """
    label = as_labels(label)
    response = np.asarray(response)
    if as_same_length(label, response, "label and response", one_d=False) == 0:
        raise ValueError("label and response must have the same shape, with trials on the last "
                         f"axis; got {label.shape} and {response.shape}")
    if not np.issubdtype(response.dtype, np.integer) or np.any((response < 0) | (response > 3)):
        raise ValueError("response must contain the integer column indices 0, 1, 2, 3")
    lead = label.shape[:-1]
    n_tables = int(np.prod(lead))
    cell = (label > 0) * 4 + response
    flat = cell.reshape(n_tables, -1) + 8 * np.arange(n_tables)[:, None]
    counts = np.bincount(flat.ravel(), minlength=8 * n_tables)
    return counts.reshape(lead + (2, 4))


def simulate_counts(kind: str, acc, n_sets: int = 200, n_per_label: int = 200, rng=None,
                    method: str = "multinomial"):
    """Simulated count tables of one noise classifier, in the paper's binning.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    acc : float or array_like
        Accuracies in [0.5, 1); an array adds its shape in front of the output.
    n_sets : int, default 200
        Data sets per accuracy.
    n_per_label : int, default 200
        Trials per true label in each data set (the paper: 200, i.e. 400 per data set).
    rng : numpy.random.Generator or int, optional
    method : {"multinomial", "trials"}
        ``"multinomial"`` draws each row from the multinomial of :func:`response_probabilities`
        (exactly equivalent, and fast); ``"trials"`` simulates every trial with
        :func:`sample_trials` and bins it with :func:`bin_responses`.

    Returns
    -------
    ndarray of int64, shape ``acc.shape + (n_sets, 2, 4)``
        Count tables in the layout of :func:`metabits.type2_measures`.

    Raises
    ------
    ValueError
        For an unknown ``kind`` or ``method``, an accuracy outside [0.5, 1) or non-positive
        sizes.

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup": 400
    observations per data set, 200 from each true label.

    Examples
    --------
    >>> simulate_counts("normal", 0.7, n_sets=2, rng=1).shape
    (2, 2, 4)
    >>> table = simulate_counts("uniform", 0.7, n_sets=1, rng=1)[0]
    >>> table.tolist()   # no confident errors
    [[80, 54, 66, 0], [0, 61, 63, 76]]
    """
    kind = as_noise_kind(kind)
    acc = _acc(acc)
    n_sets = as_size(n_sets, "n_sets")
    n_per_label = as_int(n_per_label, "n_per_label")  # multinomial counts: any number of trials
    if method not in ("multinomial", "trials"):
        raise ValueError(f"method must be 'multinomial' or 'trials'; got {method!r}")
    rng = as_rng(rng)
    if method == "trials":
        t = sample_trials(kind, acc, n_per_label, n_sets, rng)
        resp = bin_responses(t["prediction"], t["confidence"], random_bins=kind == "binary",
                             rng=rng)
        return counts_from_trials(t["label"], resp).astype(np.int64)
    p = response_probabilities(kind, acc)
    p = np.broadcast_to(p[..., None, :, :], acc.shape + (n_sets, 2, 4))
    return rng.multinomial(n_per_label, p).astype(np.int64)


def simulate_study(kinds=NOISE_TYPES, accs=STUDY_ACCURACIES, n_sets: int = 200,
                   n_per_label: int = 200, rng=None, method: str = "multinomial"):
    """Count tables of the whole simulation study of Meyen et al. (2025), Figures 6 and 7.

    By default 3 noise types × 4 accuracies × 200 data sets × 400 trials (200 per label).

    Parameters
    ----------
    kinds : sequence of {"uniform", "normal", "binary"}, default :data:`metabits.info.NOISE_TYPES`
        The noise cases (one name is taken as a sequence of one).
    accs : sequence of float, default :data:`STUDY_ACCURACIES`
        Accuracies in [0.5, 1), a 1-D sequence.
    n_sets, n_per_label, rng, method
        As in :func:`simulate_counts`; one generator draws all the tables, kind after kind.

    Returns
    -------
    ndarray of int64, shape ``(len(kinds), len(accs), n_sets, 2, 4)``
        Count tables in the layout of :func:`metabits.type2_measures`.

    Raises
    ------
    ValueError
        As :func:`simulate_counts`, for an empty ``kinds``, or ``accs`` that is not 1-D.

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup": 12 noise ×
    accuracy conditions, 200 data sets each; Figures 6 and 7.

    Examples
    --------
    >>> study = simulate_study(rng=1)
    >>> study.shape
    (3, 4, 200, 2, 4)
    >>> bool((study.sum(axis=-1) == 200).all())   # 200 trials per label
    True
    """
    if isinstance(kinds, str):
        kinds = (kinds,)
    if not isinstance(kinds, (list, tuple, np.ndarray)):
        raise ValueError(f"kinds must be a sequence of noise types; got {kinds!r}")
    kinds = tuple(as_noise_kind(k) for k in kinds)
    if not kinds:
        raise ValueError("kinds must name at least one noise type")
    acc = _acc(accs)
    if acc.ndim != 1 or acc.size == 0:
        raise ValueError(f"accs must be a non-empty 1-D sequence of accuracies; got shape "
                         f"{acc.shape}")
    rng = as_rng(rng)
    return np.stack([simulate_counts(k, acc, n_sets, n_per_label, rng, method) for k in kinds])


#: Seed of the book's data sets of Figures 6 and 7 (chapters 6 and 7 share them).
STUDY_SEED = 2025


@lru_cache(maxsize=1)
def _paper_study() -> np.ndarray:
    counts = simulate_study(n_sets=200, n_per_label=200, rng=STUDY_SEED)
    counts.setflags(write=False)  # shared by every caller: read-only
    return counts


def paper_study() -> np.ndarray:
    """The count tables of the book's Figure 6–7 study: the paper's design, the book's seed.

    3 noise types × 4 accuracies × 200 data sets of 400 trials (:func:`simulate_study` with its
    defaults and ``rng=`` :data:`STUDY_SEED`). Chapters 6 and 7 both call this function, so the
    two figures show the same data sets by construction; within one Python process the tables
    are computed once and shared (read-only).

    Returns
    -------
    ndarray of int64, shape (3, 4, 200, 2, 4)
        Read-only count tables in the order of :data:`metabits.info.NOISE_TYPES` and
        :data:`STUDY_ACCURACIES`.

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup".

    Examples
    --------
    >>> counts = paper_study()
    >>> counts.shape, int(counts[0, 0, 0].sum())
    ((3, 4, 200, 2, 4), 400)
    """
    return _paper_study()


# --- the study as a whole: the lines of Figures 6 and 7 and the measures of every data set ---


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


# --- theoretical (infinite-sample) values: the lines of Figures 6 and 7 --------------------------

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

    The SDT measures (``meta_d``, ``m_ratio``) are added when ``sdt`` is true. Their lines are
    known in closed form (fitting the exact tables, scaled to :data:`SDT_TOTAL` trials and
    unpadded, reproduces them; tested):

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


# --- the six measures of a whole study -----------------------------------------------------------


def measure_study(counts, bias_reduction: int = 0, rng=None,
                  pad: float | None = SDT_PAD) -> StudyMeasures:
    """All six Type 2 measures and the accuracy of every simulated data set, vectorised.

    The six columns of Meyen et al.'s Figures 6–7 chosen from the library's one computation of
    every measure of a stack (:mod:`metabits._stack`, as
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
    pad : float or None, default :data:`SDT_PAD`
        Added to every cell before the meta-d′ fit; must be > 0. ``None`` adds 1/(2K) = 0.25
        for these K = 2 tables (statConfR's padding), which is :data:`SDT_PAD`.

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
    flat = counts.reshape(-1, 2, 4)
    info = type2_measures(flat, bias_reduction=bias_reduction, rng=rng, undefined="nan")
    sdt = classic_type2(flat, pad=pad, undefined="nan")
    values = {"meta_d": sdt.meta_d, "m_ratio": sdt.m_ratio,
              **{k: info[k] for k in INFO_MEASURES}}
    out = {k: np.asarray(values[k], dtype=float).reshape(lead) for k in SIX_MEASURES}
    out["acc"] = np.asarray(info.acc, dtype=float).reshape(lead)  # the information measures'
    out["undefined"] = {k: int(np.isnan(out[k]).sum()) for k in SIX_MEASURES}
    out["bias_excluded"] = {k: int(np.sum(n)) for k, n in info.bias_excluded.items()}
    return StudyMeasures(**out)
