"""Type 1 and Type 2 signal detection theory: d′ and c from counts, the meta-d′ model's rating
probabilities, simulated confidence-rating data and bootstrap intervals for meta-d′ and M-ratio.

The generative model is the one that :func:`metabits.fit_meta_d` inverts (Maniscalco & Lau,
2012), as used by Servajean & Servajean (2026) through HMeta-d (Fleming, 2017):

* **Type 1.** Evidence :math:`x \\sim N(\\mp d'/2, 1)` for S1 / S2 stimuli; the response is "S2"
  when :math:`x > c` (here :math:`c` is measured from the midpoint, so
  :math:`HR = \\Phi(d'/2 - c)` and :math:`FAR = \\Phi(-d'/2 - c)`).
* **Type 2.** Given the Type 1 response, the confidence level comes from a second evidence
  sample :math:`x_2 \\sim N(\\mp meta\\text{-}d'/2, 1)` *conditioned on lying on the side of the
  response*, :math:`x_2 > meta\\text{-}c` for "S2", with
  :math:`meta\\text{-}c = c \\cdot meta\\text{-}d'/d'` (Maniscalco's convention) and K − 1
  increasing criteria on each side. The joint probability of a response column is the Type 1
  probability of the response times the Type 2 probability of the level given the response.

With meta-d′ = d′ this is the ideal observer: the confidence uses all the evidence the Type 1
decision had (M-ratio = 1). Tables follow the library's convention (:mod:`metabits.validation`):
shape ``(..., 2, 2K)``, rows S1 then S2, columns from "S1, most confident" to "S2, most
confident".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from metabits._formulas import sdt_rates, sdt_type1
from metabits.results import Bounds, Result
from metabits.validation import (as_count_table, as_float_array, as_int, as_positive,
                                 as_probability, as_rng, as_scalar, as_size, as_whole_counts,
                                 scalar_or_array)
from metabits._resampling import bootstrap_tables

__all__ = ["MetaDBootstrap", "Type1SDT", "bootstrap_meta_d", "equiprobable_criteria",
           "rating_probabilities", "simulate_ratings", "type1_sdt"]


@dataclass(frozen=True)
class Type1SDT(Result):
    """Results of :func:`type1_sdt`; also a mapping (``r["d"]``).

    Attributes
    ----------
    hit_rate, fa_rate : P("S2" | S2) and P("S2" | S1).
    d, c : sensitivity :math:`z(HR) - z(FAR)` and criterion :math:`-(z(HR) + z(FAR))/2`.
    n_s1, n_s2 : trials with S1 and with S2 stimuli.

    Floats for one table, arrays for a stack.
    """

    hit_rate: object
    fa_rate: object
    d: object
    c: object
    n_s1: object
    n_s2: object


def type1_sdt(counts) -> Type1SDT:
    """Type 1 sensitivity d′ and criterion c of a table of counts (equal-variance SDT).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Row 0 = S1 stimuli, row 1 = S2 stimuli; columns from "S1, most confident" to "S2, most
        confident" (K >= 1; K = 1 is a plain 2 × 2 table of S1 / S2 responses).

    Returns
    -------
    Type1SDT
        ``hit_rate``, ``fa_rate``, ``d``, ``c``, ``n_s1``, ``n_s2``.

    Raises
    ------
    ValueError
        For a table that is not 2 × 2K, an empty row, negative or non-finite counts, or a hit or
        false-alarm rate of 0 or 1 (d′ and c infinite; pad the counts).

    References
    ----------
    Servajean & Servajean (2026), Methods, Eqs. 1–3; Green & Swets (1966).

    Examples
    --------
    >>> r = type1_sdt([[80, 20], [10, 90]])  # 2 x 2: columns "S1", "S2"
    >>> round(r.d, 4), round(r.c, 4)
    (2.1232, -0.22)
    """
    t = as_count_table(counts)
    K = t.shape[-1] // 2
    n = t.sum(axis=-1)
    says_s2 = t[..., K:].sum(axis=-1)
    rates = says_s2 / n
    bad = (rates <= 0) | (rates >= 1)
    if np.any(bad):
        row = np.argwhere(bad)[0][-1]
        raise ValueError(f"the {('false-alarm', 'hit')[row]} rate is "
                         f"{rates[bad].ravel()[0]:g}, so d' and c are infinite; pad the counts")
    d, c = sdt_type1(rates[..., 1], rates[..., 0])
    return Type1SDT(*(scalar_or_array(v) for v in
                      (rates[..., 1], rates[..., 0], d, c, n[..., 0], n[..., 1])))


# ------------------------------------------------------------------------ the meta-d' model


#: How far (in SD) a stimulus' Type 2 evidence may lie from meta-c: beyond it a side's normal
#: probabilities underflow to 0 in double precision.
_MAX_Z = 35.0


def _parameters(d, meta_d, c):
    d = as_positive(d, "d'", "the simulated observer must discriminate better than chance")
    meta_d = as_float_array(meta_d, "meta-d'")
    if np.any(meta_d < 0):
        raise ValueError(f"meta-d' must be >= 0; got {meta_d[meta_d < 0].ravel()[0]:g}")
    c = as_float_array(c, "c")
    try:
        d, meta_d, c = np.broadcast_arrays(d, meta_d, c)
    except ValueError:
        raise ValueError(f"d', meta-d' and c must broadcast to one shape; got shapes {d.shape}, "
                         f"{meta_d.shape} and {c.shape}") from None
    # each stimulus' Type 2 evidence N(±meta-d'/2, 1) must put mass on both sides of meta-c
    far = meta_d / 2 + np.abs(c * meta_d / d)
    if np.any(far > _MAX_Z):
        i = np.argmax(far > _MAX_Z)
        raise ValueError(f"meta-d' = {meta_d.ravel()[i]:g} is too large (with d' = "
                         f"{d.ravel()[i]:g}, c = {c.ravel()[i]:g}): a stimulus' evidence lies "
                         f"more than {_MAX_Z:g} SD from meta-c, and its probabilities underflow")
    return d, meta_d, c


def _side_cdf(x, mu, meta_c, side):
    """P(x2 <= x | x2 on the response's side of meta_c) for evidence N(mu, 1).

    side 0 ("S1"): support (-inf, meta_c]; side 1 ("S2"): [meta_c, inf)."""
    if side == 0:
        return ndtr(np.minimum(x, meta_c) - mu) / ndtr(meta_c - mu)
    return 1.0 - ndtr(mu - np.maximum(x, meta_c)) / ndtr(mu - meta_c)  # survival: exact tails


def equiprobable_criteria(d, meta_d, c=0.0, K: int = 5) -> Bounds:
    """Type 2 criteria that make the K confidence levels equally frequent on each response side.

    On each side the criteria are the 1/K, 2/K, … quantiles of the Type 2 evidence of that
    response, a mixture of the two stimuli's truncated normals weighted by how often each
    stimulus gives the response. Simulated data then use the whole scale evenly, the best case
    for estimating meta-d′.

    Parameters
    ----------
    d, meta_d, c : array_like
        Type 1 sensitivity (> 0), meta-d′ (>= 0) and Type 1 criterion; broadcast together.
    K : int, default 5
        Confidence levels (>= 2); the paper's scale has 5.

    Returns
    -------
    Bounds
        ``lower`` = the criteria of "S1" responses, ``upper`` = those of "S2" responses, each of
        shape ``(..., K - 1)`` and increasing, on either side of meta-c = c · meta-d′ / d′.

    Raises
    ------
    ValueError
        For d′ <= 0, meta-d′ < 0, non-broadcastable shapes or K < 2.

    References
    ----------
    Maniscalco & Lau (2012); Servajean & Servajean (2026), Methods ("a scale from 1 to 5").

    Examples
    --------
    >>> lo, hi = equiprobable_criteria(2.0, 2.0, 0.0, K=2)
    >>> round(float(lo[0]), 4), round(float(hi[0]), 4)  # medians of each side, mirrored
    (-1.0505, 1.0505)
    """
    K = as_size(K, "K (confidence levels)", least=2)
    d, m, c = _parameters(d, meta_d, c)
    hr, far = sdt_rates(d, c)
    meta_c = (c * m / d)[..., None]  # trailing axis: the K - 1 quantiles
    m = m[..., None]
    q = np.arange(1, K) / K
    out = []
    for side, w2, w1 in ((0, 1 - hr, 1 - far), (1, hr, far)):
        weight2 = (w2 / (w1 + w2))[..., None]  # P(S2 stimulus | this response)
        lo = meta_c - 40.0 if side == 0 else meta_c + 0 * q
        hi = meta_c + 0 * q if side == 0 else meta_c + 40.0
        lo, hi = np.broadcast_arrays(lo, hi)
        for _ in range(60):  # bisection, vectorised over parameters and quantiles
            mid = 0.5 * (lo + hi)
            cdf = ((1 - weight2) * _side_cdf(mid, -m / 2, meta_c, side)
                   + weight2 * _side_cdf(mid, m / 2, meta_c, side))
            below = cdf < q
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        out.append(0.5 * (lo + hi))
    return Bounds(out[0], out[1])


def rating_probabilities(d, meta_d, c=0.0, K: int = 5, criteria=None) -> np.ndarray:
    """P(response column | stimulus) under the meta-d′ model: a table of probabilities.

    Parameters
    ----------
    d, meta_d, c : array_like
        Type 1 sensitivity (> 0), meta-d′ (>= 0) and Type 1 criterion; broadcast together.
    K : int, default 5
        Confidence levels (>= 2).
    criteria : pair of array_like, optional
        ``(t2c_S1, t2c_S2)``, each of shape ``(..., K - 1)``, increasing, below and above
        meta-c (as :class:`metabits.sdt.MetaDFit` reports them); by default
        :func:`equiprobable_criteria`.

    Returns
    -------
    numpy.ndarray, shape (..., 2, 2K)
        Rows S1, S2 (each sums to 1); columns from "S1, most confident" to "S2, most
        confident".

    Raises
    ------
    ValueError
        For d′ <= 0, meta-d′ < 0, K < 2, ``criteria`` that are not a pair, or criteria of the
        wrong length, unordered or on the wrong side of meta-c.

    References
    ----------
    Maniscalco & Lau (2012); Fleming (2017), ``metad_sim.m`` (which sets meta-c = c instead).

    Examples
    --------
    >>> p = rating_probabilities(1.0, 1.0, 0.0, K=2, criteria=([-1.0], [1.0]))
    >>> p.round(4)
    array([[0.3085, 0.3829, 0.2417, 0.0668],
           [0.0668, 0.2417, 0.3829, 0.3085]])
    """
    K = as_size(K, "K (confidence levels)", least=2)
    d, m, c = _parameters(d, meta_d, c)
    meta_c = c * m / d
    if criteria is None:
        t1, t2 = equiprobable_criteria(d, m, c, K)
    else:
        if isinstance(criteria, (str, bytes)) or not hasattr(criteria, "__len__") \
                or len(criteria) != 2:
            raise ValueError(f"criteria must be a pair (t2c_S1, t2c_S2) of arrays of K - 1 = "
                             f"{K - 1} criteria each; got {criteria!r:.80}")
        t1, t2 = (as_float_array(x, n) for x, n in zip(criteria, ("t2c_S1", "t2c_S2")))
        for t, name in ((t1, "t2c_S1"), (t2, "t2c_S2")):
            if t.ndim == 0 or t.shape[-1] != K - 1:
                raise ValueError(f"{name} needs K - 1 = {K - 1} criteria; got shape {t.shape}")
            if np.any(np.diff(t, axis=-1) <= 0):
                raise ValueError(f"{name} must be increasing")
        if np.any(t1 >= meta_c[..., None]) or np.any(t2 <= meta_c[..., None]):
            raise ValueError("t2c_S1 must lie below and t2c_S2 above meta-c = c * meta-d'/d'")
    inf = np.full(d.shape + (1,), np.inf)
    t1, t2 = (np.broadcast_to(t, d.shape + (K - 1,)) for t in (t1, t2))
    edges = np.concatenate([-inf, t1, meta_c[..., None], t2, inf], axis=-1)
    hr, far = sdt_rates(d, c)
    rows = []
    for mu, p_s2 in ((-m / 2, far), (m / 2, hr)):
        z = edges - mu[..., None]
        # below meta-c from the CDF, above it from the survival function: no 1 - 1 = 0 in a tail
        left = np.diff(ndtr(z[..., :K + 1]), axis=-1)
        right = np.maximum(-np.diff(ndtr(-z[..., K:]), axis=-1), 0.0)
        # Type 2: within each side, normalise by that side's area; Type 1: weight by P(response)
        left = left / left.sum(axis=-1, keepdims=True) * (1 - p_s2)[..., None]
        right = right / right.sum(axis=-1, keepdims=True) * p_s2[..., None]
        rows.append(np.concatenate([left, right], axis=-1))
    out = np.stack(rows, axis=-2)
    if not np.all(np.isfinite(out)):
        raise ValueError("meta-d' is too large for these criteria: a side's probabilities "
                         "underflow to 0 (meta-d'/2 more than ~37 standard deviations from a "
                         "criterion)")
    return out


def simulate_ratings(d, meta_d, n_per_stimulus: int, n_sets: int = 1, c=0.0, K: int = 5,
                     criteria=None, rng=None) -> np.ndarray:
    """Simulated count tables of confidence-rating data from the meta-d′ model.

    Each data set has ``n_per_stimulus`` S1 and as many S2 trials; each row is one multinomial
    draw from :func:`rating_probabilities`.

    Parameters
    ----------
    d, meta_d, c : array_like
        Generating d′ (> 0), meta-d′ (>= 0) and c; broadcast together to a shape ``P``.
    n_per_stimulus : int
        Trials per stimulus class (>= 1).
    n_sets : int, default 1
        Data sets per parameter combination.
    K : int, default 5
        Confidence levels.
    criteria : pair of array_like, optional
        As in :func:`rating_probabilities` (default: equiprobable).
    rng : numpy.random.Generator or int, optional
        Random generator or seed.

    Returns
    -------
    numpy.ndarray of int64, shape (*P, n_sets, 2, 2K)
        Count tables in the library's convention.

    Raises
    ------
    ValueError
        As :func:`rating_probabilities`, and for ``n_per_stimulus`` or ``n_sets`` < 1.

    References
    ----------
    Fleming (2017), ``metad_sim.m``; Servajean & Servajean (2026), Figure S3 (parameter
    recovery informing the trial counts).

    Examples
    --------
    >>> x = simulate_ratings([1.0, 2.0], 1.5, n_per_stimulus=100, n_sets=3, rng=0)
    >>> x.shape, x.sum(axis=-1).min(), x.sum(axis=-1).max()
    ((2, 3, 2, 10), np.int64(100), np.int64(100))
    """
    n = as_int(n_per_stimulus, "n_per_stimulus")
    sets = as_size(n_sets, "n_sets")
    p = rating_probabilities(d, meta_d, c, K, criteria)
    p = p / p.sum(axis=-1, keepdims=True)  # exact sums for the multinomial sampler
    shape = p.shape[:-2] + (sets, 2)
    return as_rng(rng).multinomial(n, p[..., None, :, :], size=shape).astype(np.int64)


# ------------------------------------------------------------------------------- bootstrap


@dataclass(frozen=True)
class MetaDBootstrap(Result):
    """Results of :func:`bootstrap_meta_d`; also a mapping.

    Attributes
    ----------
    d, meta_d, m_ratio : the estimates from the observed table(s).
    d_se, meta_d_se, m_ratio_se : bootstrap standard deviations.
    meta_d_ci, m_ratio_ci : percentile intervals, :class:`~metabits.results.Bounds`.
    meta_d_samples, m_ratio_samples : the bootstrap replicates, shape (..., n_boot).
    level : coverage of the intervals.
    """

    d: object
    meta_d: object
    m_ratio: object
    d_se: object
    meta_d_se: object
    m_ratio_se: object
    meta_d_ci: Bounds
    m_ratio_ci: Bounds
    meta_d_samples: np.ndarray
    m_ratio_samples: np.ndarray
    level: float


def bootstrap_meta_d(counts, n_boot: int = 1000, level: float = 0.95,
                     pad: float | None = 0.0, rng=None) -> MetaDBootstrap:
    """Nonparametric bootstrap of meta-d′ and M-ratio: resample the trials of each stimulus.

    Each replicate redraws each row's trials from the row's observed proportions (a multinomial
    with the row's total: the trials of each stimulus, which the design fixes;
    :func:`metabits.resample.bootstrap_tables` with ``resample="rows"``), then every replicate
    of every table is fitted at once with :func:`metabits.fit_meta_d`. The standard errors and
    percentile intervals are those of the replicates whose fit is defined.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        One table or a stack, K >= 2.
    n_boot : int, default 1000
        Replicates per table.
    level : float, default 0.95
        Coverage of the percentile intervals, in (0, 1).
    pad : float or None, default 0
        Passed to :func:`metabits.fit_meta_d`: a count >= 0 added to every cell of the table and
        of every replicate before the fit; ``None`` adds 1/(2K) (Maniscalco's ``padAmount``,
        statConfR's default).
    rng : numpy.random.Generator or int, optional
        Random generator or seed.

    Returns
    -------
    MetaDBootstrap

    Raises
    ------
    ValueError
        For a bad table (not 2 × 2K, K < 2, an empty row, counts that are not whole numbers, a
        row too large to resample: more than about 10**6 trials), ``n_boot`` < 2, replicates
        of more than 10**8 counts in all (``n_boot`` × ``counts.size``), ``level`` outside
        (0, 1), and, from the fit, a replicate with an empty cell (pass ``pad``).

    References
    ----------
    Efron & Tibshirani (1993); Servajean & Servajean (2026), Figure S3.

    Examples
    --------
    >>> counts = simulate_ratings(2.0, 1.6, n_per_stimulus=2000, rng=1)[0]
    >>> b = bootstrap_meta_d(counts, n_boot=200, rng=2)
    >>> bool(b.meta_d_ci.lower < b.meta_d < b.meta_d_ci.upper)
    True
    """
    from metabits.sdt._metad import fit_meta_d

    t = as_count_table(counts, min_levels=2)
    B = as_size(n_boot, "n_boot", least=2)
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    whole = as_whole_counts(t, "the bootstrap", m=B, m_name="n_boot")
    lead = t.shape[:-2]
    flat = whole.reshape((-1,) + t.shape[-2:])

    def fitted(tables):  # d′, meta-d′ and M-ratio of every table: (..., 3)
        fit = fit_meta_d(tables.reshape((-1,) + tables.shape[-2:]), pad=pad)
        return np.stack([np.asarray(x, dtype=float).reshape(tables.shape[:-2])
                         for x in (fit.d, fit.meta_d, fit.m_ratio)], axis=-1)

    r = bootstrap_tables(fitted, flat, B, as_rng(rng), level=level)

    def part(x, j):
        return scalar_or_array(np.asarray(x)[:, j].reshape(lead))

    def ci(j):
        return Bounds(part(r.interval.lower, j), part(r.interval.upper, j))

    return MetaDBootstrap(
        d=part(r.estimate, 0), meta_d=part(r.estimate, 1), m_ratio=part(r.estimate, 2),
        d_se=part(r.standard_error, 0), meta_d_se=part(r.standard_error, 1),
        m_ratio_se=part(r.standard_error, 2), meta_d_ci=ci(1), m_ratio_ci=ci(2),
        meta_d_samples=r.replicates[:, 1].reshape(lead + (B,)),
        m_ratio_samples=r.replicates[:, 2].reshape(lead + (B,)), level=level)
