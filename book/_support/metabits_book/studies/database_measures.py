"""Every measure on every participant of the Confidence Database.

The shipped copy (:func:`metabits_book.studies.database_copy.confidence_database`) gives one
count table per participant, padded to 22 columns because the data sets' scales differ (K = 2 …
11). The functions here take such a stack with each participant's K, run the library's
vectorised measures once per K, and put the results back in participant order:

* :func:`database_measures` — the plug-in measures of :func:`metabits.all_measures` (accuracy,
  d′, meta-d′, M-ratio, meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ, RMI), OSKR
  of correctness (:func:`metabits.oskr_from_table` of :func:`metabits.oskr.correctness_table`), and
  the nuisance variables: the criterion c (response bias) and the mean confidence rescaled to
  0 … 1 (metacognitive bias).
* :func:`database_bootstrap` — the same with bootstrap intervals
  (:func:`metabits.bootstrap_measures`, B replicates per participant).

The metacognitive-bias manipulation of Xue, Shekhar & Rahnev (2021) on such stacks is the
library's :func:`metabits.io.merge_levels`: removing the highest confidence criterion (merging
the two highest levels) raises confidence, removing the lowest lowers it, on the same trials.
Rahnev's (2025) criteria computed from these — with the library's
:func:`metabits.reliability.paired_cohens_d` and
:func:`metabits.reliability.group_correlations`:
:func:`~metabits_book.studies.database_criteria.split_half`,
:func:`~metabits_book.studies.database_criteria.rahnev_criteria` and the shipped criteria
table — are in :mod:`metabits_book.studies.database_criteria`.

A participant whose table has an empty row (one stimulus only: two in Lebreton 2018) gets NaN
for every measure.

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (the criteria);
Xue, Shekhar & Rahnev (2021), *Consciousness and Cognition*, 103196 (criterion removal);
Meyen et al. (2025) (the information measures); Roberts (2026) (OSKR).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits import MEASURES
from metabits.results import Result
from metabits.validation import (as_choice, as_counts, as_int_array, as_pad, as_size,
                                 as_whole_counts, scalar_or_array)

__all__ = ["ALL_NAMES", "DatabaseMeasures", "EVERY_MEASURE", "METACOGNITION", "NAMES", "RAHNEV",
           "database_bootstrap", "database_measures"]

#: The measures of :func:`metabits.all_measures`, in its order (the first columns of
#: :data:`NAMES`): those of the registry :data:`metabits.MEASURES` in every stack.
PLUGIN = tuple(k for k, m in MEASURES.items() if m.stack and m.default)
#: The bias-reduced information measures :func:`metabits.bootstrap_measures` adds.
BIAS_REDUCED = tuple(f"{k}_br" for k in PLUGIN if MEASURES[k].bias_reducible)

#: Everything :func:`database_measures` returns, in its order: :data:`PLUGIN`, then OSKR of
#: correctness, the criterion c and the mean confidence rescaled to 0 … 1.
NAMES = PLUGIN + ("oskr", "c", "mean_conf")
#: The measures of metacognition among them (the others are task performance and biases).
METACOGNITION = ("auroc2", "gamma", "phi", "meta_d", "m_ratio", "m_diff", "meta_I", "meta_I1r",
                 "meta_I2r", "RMI", "oskr")
#: The measures of Rahnev (2025) that ``measures="all"`` adds (those of
#: :data:`metabits.MEASURES` outside ``measures="default"``): ΔConf on the 0–1 scale, the ratio
#: and difference forms of AUROC2, gamma, phi and ΔConf, and the model-based meta-noise
#: (σ_meta) and meta-uncertainty (σ_m).
RAHNEV = tuple(k for k, m in MEASURES.items() if not m.default)
#: Everything :func:`database_measures` returns with ``measures="all"``, in its order.
ALL_NAMES = NAMES + RAHNEV
#: The 22 measures of metacognition on Rahnev's criteria (every measure of
#: :data:`metabits.MEASURES` but task performance and bias), in his order — traditional (AUC2,
#: gamma, phi, ΔConf, meta-d′), ratio, difference, model-based (his Fig. 3) — then Meyen et
#: al.'s four information measures and OSKR.
EVERY_MEASURE = ("auroc2", "gamma", "phi", "dconf", "meta_d",
                 "m_ratio", "auroc2_ratio", "gamma_ratio", "phi_ratio", "dconf_ratio",
                 "m_diff", "auroc2_diff", "gamma_diff", "phi_diff", "dconf_diff",
                 "meta_noise", "meta_uncertainty",
                 "meta_I", "meta_I1r", "meta_I2r", "RMI", "oskr")


def _checked(tables, n_levels):
    """Tables (P, ..., 2, M) as floats and K (P,) broadcast to the leading axes."""
    t = as_counts(tables, "tables")
    if t.ndim < 3 or t.shape[-2] != 2 or t.shape[0] == 0:
        raise ValueError(f"tables must have shape (P, ..., 2, M) with P >= 1; got {t.shape}")
    K = as_int_array(n_levels, "n_levels", least=np.iinfo(np.int64).min)
    if K.ndim != 1 or len(K) != len(t):
        raise ValueError(f"n_levels must give one K per table of the first axis of tables "
                         f"({len(t)} tables); got shape {K.shape}")
    if K.min() < 2 or 2 * K.max() > t.shape[-1]:
        raise ValueError(f"n_levels must be whole numbers from 2 to {t.shape[-1] // 2} (the "
                         f"tables have {t.shape[-1]} columns)")
    lead = t.shape[:-2]
    Kb = np.broadcast_to(K.reshape((-1,) + (1,) * (len(lead) - 1)), lead).ravel()
    return t.reshape((-1,) + t.shape[-2:]), Kb, lead


def _by_k(flat: np.ndarray, K: np.ndarray, pad):
    """Per K, the indices of the tables (n, 2, M) of that K without an empty row, and the pad
    of their fits (``pad`` checked by :func:`_pad`; ``None``: 1/(2K))."""
    ok = (flat.sum(-1) > 0).all(-1)
    for k in np.unique(K):
        idx = np.flatnonzero((K == k) & ok)
        if idx.size:
            yield int(k), idx, as_pad(pad, k)


def _pad(pad):
    """``pad`` checked once for every K (None stays None: 1/(2K) for each K)."""
    return None if pad is None else as_pad(pad, 1, positive=True)


def _extra(t: np.ndarray, K: int, pad: float) -> np.ndarray:
    """OSKR of correctness, c and rescaled mean confidence of tables (n, 2, 2K)."""
    import warnings

    from metabits.oskr import correctness_table, oskr_from_table
    from metabits.sdt import type1_sdt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        o = np.asarray(oskr_from_table(correctness_table(t), undefined="nan").oskr, dtype=float)
    c = type1_sdt(t + pad).c
    level = np.concatenate([np.arange(K, 0, -1), np.arange(1, K + 1)]) - 1  # 0 … K − 1
    conf = (t.sum(-2) * level).sum(-1) / t.sum((-2, -1)) / (K - 1)
    return np.stack([o.reshape(len(t)), np.asarray(c).reshape(len(t)), conf], axis=-1)


@dataclass(frozen=True)
class DatabaseMeasures(Result):
    """Results of :func:`database_measures` and :func:`database_bootstrap`; also a mapping.

    Attributes
    ----------
    names : tuple of str
        The measures, one per entry of the last axis (:data:`NAMES`; the bootstrap adds the
        bias-reduced information measures ``*_br``).
    estimate : ndarray, shape (P, ..., len(names))
        Plug-in values (bias-reduced for ``*_br``); NaN where undefined.
    lower, upper, se : ndarray or None
        Bootstrap percentile interval and standard deviation (None without a bootstrap).
    n_boot : int
        Replicates per table (0 without a bootstrap).
    """

    names: tuple
    estimate: np.ndarray
    lower: object = None
    upper: object = None
    se: object = None
    n_boot: int = 0

    def value(self, name: str):
        """The estimates of one measure, shape ``estimate.shape[:-1]``."""
        j = self.names.index(as_choice(name, self.names, "measure"))
        return scalar_or_array(self.estimate[..., j])

    def interval(self, name: str):
        """The bootstrap interval of one measure as ``(lower, upper)``.

        Raises
        ------
        ValueError
            For results without a bootstrap, or an unknown measure.
        """
        from metabits.results import Bounds

        if self.lower is None:
            raise ValueError("these results have no bootstrap intervals")
        j = self.names.index(as_choice(name, self.names, "measure"))
        return Bounds(scalar_or_array(self.lower[..., j]), scalar_or_array(self.upper[..., j]))


def database_measures(tables, n_levels, pad=None, measures: str = "default") -> DatabaseMeasures:
    """Every measure of every participant's table, tables of different K at once.

    Parameters
    ----------
    tables : array_like, shape (P, ..., 2, M)
        Count tables, each in the library's convention in its first ``2 * n_levels[p]``
        columns (e.g. :meth:`ConfidenceDatabase.tables`, M = 22); extra leading axes (halves,
        difficulty levels) share the participant's K.
    n_levels : array_like of int, shape (P,)
        K of each participant, 2 … M/2.
    pad : float, optional
        Count added to every cell for the meta-d′, meta-noise and meta-uncertainty fits and for
        c; default 1/(2K).
    measures : {"default", "all"}
        ``"all"`` adds Rahnev's (2025) measures (:data:`RAHNEV`, from
        :func:`metabits.all_measures` with ``measures="all"``; the model fits make it slower).

    Returns
    -------
    DatabaseMeasures
        ``estimate`` of shape (P, ..., 15): :data:`NAMES` (with ``"all"``, (P, ..., 26):
        :data:`ALL_NAMES`). NaN for a table with an empty row; meta-noise and meta-uncertainty
        are inf where the likelihood still rises at the largest σ (confidence unrelated to
        accuracy in the fit).

    Raises
    ------
    ValueError
        For tables of the wrong shape (or none), negative or non-finite counts, K outside
        2 … M/2, a ``pad`` that is not one finite number > 0, or an unknown ``measures``.

    Examples
    --------
    >>> t = np.zeros((2, 2, 6)); t[0, :, :4] = [[84, 56, 48, 12], [4, 56, 64, 76]]
    >>> t[1] = [[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]
    >>> r = database_measures(t, [2, 3])
    >>> np.round(r.value("gamma"), 3).tolist(), (np.round(r.value("c"), 3) + 0).tolist()
    ([0.793, 0.581], [0.0, 0.0])
    >>> round(float(r.value("oskr")[0]), 3) == round(float(r.value("meta_I2r")[0]), 3)
    True
    >>> round(float(database_measures(t, [2, 3], measures="all").value("dconf")[1]), 3)
    0.317
    """
    from metabits import all_measures

    every = as_choice(measures, ("default", "all"), "measures") == "all"
    names = ALL_NAMES if every else NAMES
    flat, K, lead = _checked(tables, n_levels)
    pad = _pad(pad)
    out = np.full((len(flat), len(names)), np.nan)
    rahnev = [len(PLUGIN) + i for i in range(len(RAHNEV))]  # their columns in all_measures
    for k, idx, p in _by_k(flat, K, pad):
        t = flat[idx][..., : 2 * k]
        plugin = all_measures(t, pad=p, measures=measures).estimate
        out[idx, :len(PLUGIN)] = plugin[:, :len(PLUGIN)]
        out[idx, len(PLUGIN):len(NAMES)] = _extra(t, k, p)
        if every:
            out[idx, len(NAMES):] = plugin[:, rahnev]
    return DatabaseMeasures(names=names, estimate=out.reshape(lead + (len(names),)))


def database_bootstrap(tables, n_levels, n_boot: int = 200, level: float = 0.95, pad=None,
                       rng=None, chunk: int = 500) -> DatabaseMeasures:
    """:func:`database_measures`' Type 2 measures with bootstrap intervals, every participant.

    Each participant's table is resampled B times (rows kept, :func:`metabits.bootstrap_measures`)
    in chunks of ``chunk`` tables of one K, so memory stays bounded. OSKR's percentile interval
    comes from :func:`metabits.oskr_ci_from_table` (all trials resampled, B replicates; no
    ``se``); c and the mean confidence are not bootstrapped (NaN intervals).

    Parameters
    ----------
    tables, n_levels, pad
        As :func:`database_measures`.
    n_boot : int, default 200
        Replicates per table.
    level : float, default 0.95
        Coverage of the percentile intervals.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.
    chunk : int, default 500
        Tables resampled at once.

    Returns
    -------
    DatabaseMeasures
        ``names``: :data:`NAMES` followed by the bias-reduced ``meta_I_br``, ``meta_I1r_br``,
        ``meta_I2r_br``, ``RMI_br``; ``lower``, ``upper``, ``se`` and ``n_boot`` set.

    Raises
    ------
    ValueError
        As :func:`database_measures`, for counts that are not whole numbers, and for an
        ``n_boot``, ``level``, ``rng`` or ``chunk`` out of range.

    Examples
    --------
    >>> t = np.array([[[84, 56, 48, 12], [4, 56, 64, 76]]])
    >>> b = database_bootstrap(t, [2], n_boot=200, rng=1)
    >>> lo, hi = b.interval("RMI")
    >>> bool(lo[0] < b.value("RMI")[0] < hi[0])
    True
    """
    from metabits.validation import as_probability, as_rng, as_scalar
    from metabits import bootstrap_measures

    flat, K, lead = _checked(tables, n_levels)
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    as_whole_counts(flat, "the bootstrap", "tables")
    pad = _pad(pad)
    B = as_size(n_boot, "n_boot", least=2)
    chunk = as_size(chunk, "chunk", least=1)
    gen = as_rng(rng)
    names = NAMES + BIAS_REDUCED
    est = np.full((len(flat), len(names)), np.nan)
    lower, upper, se = (np.full_like(est, np.nan) for _ in range(3))
    where = list(range(len(PLUGIN))) + list(range(len(NAMES), len(names)))
    for k, idx, p in _by_k(flat, K, pad):
        for s in range(0, idx.size, chunk):
            part = idx[s:s + chunk]
            b = bootstrap_measures(flat[part][..., : 2 * k], n_boot=B, level=level, pad=p,
                                   rng=gen)
            est[np.ix_(part, where)] = b.estimate
            est[part, len(PLUGIN):len(NAMES)] = _extra(flat[part][..., : 2 * k], k, p)
            lower[np.ix_(part, where)] = b.lower
            upper[np.ix_(part, where)] = b.upper
            se[np.ix_(part, where)] = b.se
            _oskr_interval(flat[part][..., : 2 * k], B, level, gen, lower, upper, part)

    def back(x):
        return x.reshape(lead + (len(names),))

    return DatabaseMeasures(names=names, estimate=back(est), lower=back(lower),
                            upper=back(upper), se=back(se), n_boot=B)


def _oskr_interval(t, B, level, gen, lower, upper, part):
    """Percentile interval of OSKR of correctness (all trials resampled) into lower/upper."""
    import warnings

    from metabits.oskr import correctness_table, oskr_ci_from_table

    ct = correctness_table(t)
    varies = (ct.sum(-1) > 0).all(-1)  # correct and wrong trials both present: H(T) > 0
    if not varies.any():
        return
    j = NAMES.index("oskr")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lo, hi = oskr_ci_from_table(ct[varies], n_boot=B, level=level, rng=gen)
    lower[part[varies], j] = lo
    upper[part[varies], j] = hi
