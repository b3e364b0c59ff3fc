"""Every Type 2 measure of the library on a stack of count tables, with bootstrap intervals.

One call gives, per table, the measures of :func:`metabits.all_measures`
(:mod:`metabits._stack`, the one place that computes them; :func:`all_measures`,
:class:`AllMeasures` and :data:`PLUGIN` are also importable from here): accuracy, d′, meta-d′,
M-ratio, meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI, both plug-in
and, for the four information measures, bias-reduced.

**The bootstrap** is the library's engine (:func:`metabits.resample.bootstrap_tables`,
``resample="rows"``): it redraws each row of each table from the multinomial of its own
relative frequencies (row totals kept: the trials of each stimulus, which the design fixes),
for all tables at once. Intervals are percentile intervals over the replicates in which a
measure is defined (``n_undefined`` counts the others), and so are the standard errors.

**Bias reduction** is Meyen et al.'s Monte Carlo bias reduction, and it needs no extra draws:
its resamples are exactly these bootstrap replicates, so the bias of an information measure is
the mean over the replicates minus the plug-in value, the reduced estimate is the plug-in value
minus that bias, and its interval is the plug-in percentile interval shifted by the same bias.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Bounds, Result
from metabits.validation import (as_choice, as_count_table, as_flag, as_pad, as_probability,
                                 as_rng, as_scalar, as_size, as_whole_counts, scalar_or_array)
from metabits._registry import names
from metabits._resampling import bootstrap_tables
from metabits._stack import PLUGIN, AllMeasures, all_measures, plugin_matrix

__all__ = ["AllMeasures", "MEASURES", "MeasureBootstrap", "PLUGIN", "all_measures",
           "bootstrap_measures"]

#: The measures that can be bias-reduced (Meyen et al.'s information measures).
_REDUCIBLE = tuple(k for k in PLUGIN if k in names(bias_reducible=True))
#: Every measure of :func:`bootstrap_measures`, in its order.
MEASURES = PLUGIN + tuple(f"{k}_br" for k in _REDUCIBLE)


@dataclass(frozen=True)
class MeasureBootstrap(Result):
    """Results of :func:`bootstrap_measures`; also a mapping.

    Attributes
    ----------
    names : tuple of str
        The measures (:data:`MEASURES`), one per entry of the last axis of the arrays.
    estimate : ndarray, shape (..., len(names))
        Plug-in values, and for ``*_br`` the bias-reduced values; NaN where undefined.
    lower, upper : ndarray, shape (..., len(names))
        Percentile bootstrap interval (for ``*_br``: shifted by the estimated bias).
    se : ndarray, shape (..., len(names))
        Bootstrap standard deviation.
    n_undefined : ndarray of int, shape (..., len(names))
        Replicates in which the measure was undefined (or its fit failed), left out.
    n_boot, level, pad : int, float, float
        Replicates per table, coverage, and the meta-d′ padding.
    """

    names: tuple
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    se: np.ndarray
    n_undefined: np.ndarray
    n_boot: int
    level: float
    pad: float

    def _at(self, name):
        return self.names.index(as_choice(name, self.names, "measure"))

    def value(self, name: str):
        """The estimates of one measure, shape ``estimate.shape[:-1]``."""
        return scalar_or_array(self.estimate[..., self._at(name)])

    def to_frame(self):
        """The measures as a :class:`pandas.DataFrame`: one row per table; for each measure its
        estimate, interval (``_lo``, ``_hi``), standard error (``_se``) and undefined replicates
        (``_n_undefined``).

        Returns
        -------
        pandas.DataFrame
        """
        from metabits.results import _frame_columns

        items = []
        for j, name in enumerate(self.names):
            items += [(name, self.estimate[..., j]), (f"{name}_lo", self.lower[..., j]),
                      (f"{name}_hi", self.upper[..., j]), (f"{name}_se", self.se[..., j]),
                      (f"{name}_n_undefined", self.n_undefined[..., j])]
        return _frame_columns(items)

    def interval(self, name: str) -> Bounds:
        """The bootstrap interval of one measure as ``(lower, upper)``."""
        j = self._at(name)
        return Bounds(scalar_or_array(self.lower[..., j]), scalar_or_array(self.upper[..., j]))


def bootstrap_measures(counts, n_boot: int = 200, level: float = 0.95, pad=None, rng=None,
                       refit: bool = False) -> MeasureBootstrap:
    """All the library's Type 2 measures of a stack of tables with bootstrap intervals.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables of whole numbers in the library's convention, K >= 2.
    n_boot : int, default 200
        Replicates per table (>= 2); also the m of the bias reduction.
    level : float, default 0.95
        Coverage of the percentile intervals, in (0, 1).
    pad : float, optional
        Count added to every cell before each meta-d′ fit; default 1/(2K); must be > 0.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.
    refit : bool, default False
        Refit by BFGS every replicate on which the vectorised meta-d′ fit stalls (slow: one
        table at a time); by default such replicates count as undefined for meta-d′, M-ratio
        and meta-d′ − d′. The observed tables are always refitted.

    Returns
    -------
    MeasureBootstrap

    Raises
    ------
    ValueError
        For an invalid count table (K < 2, counts that are not whole numbers, a row too large
        to resample: more than about 10**6 trials), ``n_boot`` < 2, replicates of more than
        10**8 counts in all (``n_boot`` × ``counts.size``), ``level`` outside (0, 1) or a pad
        that is not > 0.

    References
    ----------
    Efron & Tibshirani (1993) for the percentile bootstrap; Meyen et al. (2025), section "Bias
    Reduction" (the same multinomial resamples).

    Examples
    --------
    >>> b = bootstrap_measures([[84, 56, 48, 12], [4, 56, 64, 76]], n_boot=200, rng=1)
    >>> lo, hi = b.interval("RMI")
    >>> bool(lo < b.value("RMI") < hi), bool(b.value("RMI_br") > b.value("RMI"))   # biased low
    (True, True)
    """
    t = as_count_table(counts, min_levels=2)
    B = as_size(n_boot, "n_boot", least=2)
    whole = as_whole_counts(t, "the bootstrap", m=B, m_name="n_boot")
    refit = as_flag(refit, "refit")
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    pad = as_pad(pad, t.shape[-1] // 2, positive=True)
    lead = t.shape[:-2]
    flat = whole.reshape((-1,) + t.shape[-2:])
    r = bootstrap_tables(lambda x: plugin_matrix(x, pad), flat, B, as_rng(rng), level=level,
                         replicate_statistic=lambda x: plugin_matrix(x, pad, careful=refit))
    obs, bias = r.estimate, r.bias
    info = [PLUGIN.index(k) for k in _REDUCIBLE]
    with np.errstate(invalid="ignore"):  # inf - inf (meta-I1r near d' = 0) is NaN
        est = np.concatenate([obs, obs[:, info] - bias[:, info]], axis=-1)
        lower = np.concatenate([r.interval.lower, r.interval.lower[:, info] - bias[:, info]], -1)
        upper = np.concatenate([r.interval.upper, r.interval.upper[:, info] - bias[:, info]], -1)
    se = np.concatenate([r.standard_error, r.standard_error[:, info]], axis=-1)
    undef = np.concatenate([r.n_undefined, r.n_undefined[:, info]], axis=-1)
    M = len(MEASURES)

    def back(x):
        return x.reshape(lead + (M,))

    return MeasureBootstrap(names=MEASURES, estimate=back(est), lower=back(lower),
                            upper=back(upper), se=back(se), n_undefined=back(undef),
                            n_boot=B, level=level, pad=pad)
