"""Information-theoretic Type 2 measures from a table of counts (Meyen et al., 2025).

meta-I (Dayan, 2023; Proposition 7), meta-I₁ʳ, meta-I₂ʳ and the relative metainformation RMI,
estimated by plug-in from a 2 × R table of counts, optionally with Monte Carlo bias reduction.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np
from scipy.special import ndtri

from metabits._formulas import accuracy_of, h2, sdt_type1, theorem3_lower, theorem3_upper, xlog2x
from metabits.results import Result
from metabits.validation import (MAX_SIZE, as_count_table, as_float_array, as_int, as_rng, as_size,
                                 as_whole_counts, scalar_or_array)
from metabits.validation._scalars import as_undefined
from metabits._resampling import jit, replicate_batches
from metabits.info._noise import normal_info

__all__ = ["INFO_MEASURES", "ResponseTable", "Type2Measures", "meta_I_normal", "response_table",
           "type2_measures"]

#: The four information-theoretic Type 2 measures, in the paper's order.
INFO_MEASURES = ("meta_I", "meta_I1r", "meta_I2r", "RMI")


def meta_I_normal(d):
    """Metainformation meta-I(d′) of the unbiased normal-noise classifier with sensitivity d′.

    :math:`meta\\text{-}I(d') = info_{normal}(d') - \\min info(\\Phi(d'/2))`: the normaliser of
    meta-I₁ʳ (Dayan, 2023; Meyen et al., 2025, Figure 5b). For d′ = 1.05 it is 0.056 bit.

    Parameters
    ----------
    d : float or array_like
        Sensitivities d′ >= 0 (vectorised).

    Returns
    -------
    float or ndarray
        meta-I(d′) in bits, shaped like ``d``; 0 at d′ = 0.

    Raises
    ------
    ValueError
        If d′ is negative or not finite.

    References
    ----------
    Meyen et al. (2025), section "Example Computation of Existing Information-Theoretic
    Measures" and Figure 5b: "the sensitivity d' = 1.05 determines the normalizer
    meta-I(d') = 0.056 bit"; Dayan (2023).

    Examples
    --------
    >>> round(meta_I_normal(1.05), 3)
    0.056
    """
    info = normal_info(d)
    acc = accuracy_of(as_float_array(d, "d'"))
    return scalar_or_array(info - theorem3_lower(acc, 0.5))


_SPLINE_DMAX = 12.0
#: stacks of more tables read meta-I(d′) from the spline (error below 1e-10) rather than
#: integrate it table by table
_QUADRATURE_MOST = 2000

#: below this |d′| the normaliser meta-I(d′) (about 0.05 d′²) drowns in rounding error, so
#: meta-I₁ʳ is treated as undefined
_D_MIN = 1e-5


@lru_cache(maxsize=1)
def _meta_I_spline():
    from scipy.interpolate import CubicSpline  # imported here: slow to import

    grid = np.linspace(0.0, _SPLINE_DMAX, 4801)
    return CubicSpline(grid, meta_I_normal(grid))


def _meta_I_normal_fast(d):
    """:func:`meta_I_normal` through a cubic spline on [0, 12] (error below 1e-10), for the many
    resampled tables of the bias reduction; exact quadrature beyond 12. The spline's pieces are
    evaluated directly on its uniform grid (as ``CubicSpline.__call__`` would, without its
    search for the piece)."""
    d = np.asarray(d, dtype=float)
    spline = _meta_I_spline()
    step = _SPLINE_DMAX / (spline.c.shape[1])
    x = np.clip(d, 0.0, _SPLINE_DMAX)
    piece = np.minimum((x / step).astype(np.intp), spline.c.shape[1] - 1)
    t = x - spline.x[piece]
    c = spline.c
    out = ((c[0].take(piece) * t + c[1].take(piece)) * t + c[2].take(piece)) * t + c[3].take(piece)
    far = d > _SPLINE_DMAX
    if np.any(far):
        out = np.where(far, meta_I_normal(np.where(far, d, 0.0)), out)
    return out


@dataclass(frozen=True)
class Type2Measures(Result):
    """Results of :func:`type2_measures`; also readable as a mapping (``result["RMI"]``).

    Fields are floats for one table and arrays over the stack for a stack of tables.

    Attributes
    ----------
    acc : float or ndarray
        Accuracy, the mean of the estimated confidences (Proposition 1).
    info : float or ndarray
        Transmitted information in bits, :math:`I(Y; R)` of the table (Proposition 2).
    min_info : float or ndarray
        Theorem 3's lower bound at ``acc`` for the table's prior.
    max_info : float or ndarray
        Theorem 3's upper bound at ``acc`` for the table's prior.
    meta_I : float or ndarray
        Surplus information ``info - min_info`` (Proposition 7).
    d_prime : float or ndarray
        Type 1 sensitivity :math:`z(HR) - z(FAR)`, splitting the responses in the middle.
    meta_I_dprime : float or ndarray
        meta-I(d′) of the normal-noise classifier with that d′.
    meta_I1r : float or ndarray
        ``meta_I / meta_I_dprime``.
    H_acc : float or ndarray
        Remaining uncertainty :math:`H(Y = \\hat Y) = H_2(acc)`.
    meta_I2r : float or ndarray
        ``meta_I / H_acc``.
    RMI : float or ndarray
        ``meta_I / (max_info - min_info)``.
    bias : dict
        Estimated Monte Carlo bias of each of the four information measures (empty without
        bias reduction); the four fields then hold the bias-reduced values.
    bias_excluded : dict
        Per measure, how many resamples were left out of its mean because the measure was
        undefined in them (empty without bias reduction).
    """

    acc: object
    info: object
    min_info: object
    max_info: object
    meta_I: object
    d_prime: object
    meta_I_dprime: object
    meta_I1r: object
    H_acc: object
    meta_I2r: object
    RMI: object
    bias: dict
    bias_excluded: dict


@dataclass(frozen=True)
class ResponseTable(Result):
    """Results of :func:`response_table`; also readable as a mapping (``result["c"]``).

    Attributes
    ----------
    freq : ndarray, shape (..., 2, R)
        Joint relative frequencies, shaped like the table.
    m : ndarray, shape (..., R)
        Margins of the responses (column sums of ``freq``).
    c : ndarray, shape (..., R)
        Estimated calibrated confidence of each response.
    pti : ndarray, shape (..., R)
        Predictionwise transmitted information of each response, in bits.
    """

    freq: np.ndarray
    m: np.ndarray
    c: np.ndarray
    pti: np.ndarray


def response_table(counts) -> ResponseTable:
    """Per-response estimates of Table 2: relative frequencies, margins, confidences and pti.

    Parameters
    ----------
    counts : array_like, shape (2, R)
        Row 0: true label -1 (S1); row 1: +1 (S2); columns: responses.

    Returns
    -------
    ResponseTable
        ``freq`` (2 × R joint relative frequencies), ``m`` (margins), ``c`` (estimated calibrated
        confidence: the larger frequency of the column over its margin; 0.5 for an empty column),
        ``pti`` (predictionwise transmitted information, with the table's prior). Stacks of
        tables ``(..., 2, R)`` give arrays with the same leading axes.

    Raises
    ------
    ValueError
        For negative, non-finite, ragged or wrongly shaped counts (not 2 × 2K), an all-zero table
        or an empty row.

    References
    ----------
    Meyen et al. (2025), Table 2 (the rows :math:`\\hat m_i`, :math:`\\hat c_i` and
    :math:`\\mathrm{pti}(\\hat c_i)` computed from Table 1) and Figure 5a.

    Examples
    --------
    Table 1 of Meyen et al. (2025) gives the rows of their Table 2:

    >>> t = response_table([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> t.m.round(2).tolist()
    [0.22, 0.28, 0.28, 0.22]
    >>> t.c.round(2).tolist()
    [0.95, 0.5, 0.57, 0.86]
    >>> t.pti.round(2).tolist()
    [0.73, 0.0, 0.01, 0.43]
    """
    counts = as_count_table(counts)
    freq = counts / counts.sum(axis=(-2, -1), keepdims=True)
    m = freq.sum(axis=-2)
    c = np.divide(freq.max(axis=-2), m, out=np.full(m.shape, 0.5), where=m > 0)
    prior = freq.sum(axis=-1).max(axis=-1)
    return ResponseTable(freq=freq, m=m, c=c, pti=h2(prior)[..., None] - h2(c))


def table_stats(counts: np.ndarray):
    """What the measures need of a stack of valid tables (..., 2, R): the row totals, the
    summed column entropies ``ent`` (:math:`n \\cdot H(Y \\mid R)` in bits), the summed column
    maxima ``top`` (:math:`n \\cdot acc`), and the S2 and S1 trials answered "S2" (hits and false
    alarms of the Type 1 split in the middle)."""
    R = counts.shape[-1]
    col = counts.sum(axis=-2)
    ent = (xlog2x(col) - xlog2x(counts).sum(axis=-2)).sum(axis=-1)
    return dict(n0=counts[..., 0, :].sum(axis=-1), n1=counts[..., 1, :].sum(axis=-1), ent=ent,
                top=counts.max(axis=-2).sum(axis=-1), hits=counts[..., 1, R // 2:].sum(axis=-1),
                fas=counts[..., 0, R // 2:].sum(axis=-1))


def measures_of_stats(stats: dict):
    """Plug-in measures from :func:`table_stats` (no validation of the values produced)."""
    n0, n1 = stats["n0"], stats["n1"]
    n = n0 + n1
    acc = stats["top"] / n
    prior = np.maximum(n0, n1) / n
    info = h2(prior) - stats["ent"] / n
    h_acc = h2(acc)
    min_info = theorem3_lower(acc, prior, h_acc)
    max_info = theorem3_upper(acc, prior)
    out = dict(acc=acc, info=info, min_info=min_info, max_info=max_info,
               meta_I=info - min_info, H_acc=h_acc)
    if "d_prime" in stats:
        out["d_prime"] = stats["d_prime"]
    else:
        out["hr"], out["far"] = stats["hits"] / n1, stats["fas"] / n0
    return out


def normalise_measures(v: dict, fast: bool):
    """Add d′, meta-I(d′) and the three normalised measures, and masks of where each is defined."""
    if "d_prime" in v:  # looked up for resampled tables (:func:`_bias`)
        d = v["d_prime"]
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            d, _ = sdt_type1(v["hr"], v["far"])
    d_ok = np.isfinite(d) & (np.abs(d) > _D_MIN)
    d_abs = np.where(d_ok, np.abs(d), 1.0)
    fast = fast or d_abs.size > _QUADRATURE_MOST
    mid = (_meta_I_normal_fast if fast else meta_I_normal)(d_abs)
    ok = {
        "meta_I": np.ones(np.shape(v["acc"]), dtype=bool),
        "meta_I1r": d_ok,
        "meta_I2r": v["acc"] < 1.0,
        "RMI": (v["acc"] < 1.0) & (v["max_info"] - v["min_info"] > 1e-12),
    }
    v["d_prime"] = d
    v["meta_I_dprime"] = np.where(d_ok, mid, np.nan)
    v["meta_I1r"] = np.where(d_ok, v["meta_I"] / mid, np.nan)
    v["meta_I2r"] = np.where(ok["meta_I2r"], v["meta_I"] / np.where(ok["meta_I2r"], v["H_acc"], 1), np.nan)
    span = np.where(ok["RMI"], v["max_info"] - v["min_info"], 1.0)
    v["RMI"] = np.where(ok["RMI"], v["meta_I"] / span, np.nan)
    return v, ok


_WHY = {
    "meta_I1r": "d' is infinite or (nearly) 0 (a hit or false-alarm rate of 0 or 1, or equal "
                "rates), so meta-I(d') cannot normalise; pad the counts (e.g. add 1/(2K) to every "
                "cell)",
    "meta_I2r": "acc = 1: no uncertainty remains to normalise by",
    "RMI": "the information range max - min info is empty (acc = 1, or acc = p+ = 0.5)",
}


def _check_defined(ok: dict, undefined: str):
    if undefined == "nan":
        return
    for key, why in _WHY.items():
        if not np.all(ok[key]):
            where = "" if ok[key].ndim == 0 else f" (table {tuple(int(i) for i in np.argwhere(~ok[key])[0])})"
            raise ValueError(f"{key} is undefined{where}: {why}. Pass undefined='nan' to get NaN "
                             "for such tables instead")


def _resample_stats(sims, xlogx, z_hit, z_fa, offset, ent, top, d_prime):
    """Compiled: :func:`table_stats` of resampled whole-count tables ``sims`` (m, T, 2, R), with
    ``x log2 x`` looked up in ``xlogx`` and the d′ of the Type 1 split from the z-scores of each
    table's possible hit and false-alarm rates (``z_hit[offset[t] + k]``); writes (T, m) arrays."""
    m, n_tab, _, R = sims.shape
    half = R // 2
    for t in range(n_tab):
        for s in range(m):
            e = 0.0
            tp = 0
            h = 0
            f = 0
            for j in range(R):
                a = sims[s, t, 0, j]
                b = sims[s, t, 1, j]
                e += xlogx[a + b] - xlogx[a] - xlogx[b]
                tp += max(a, b)
                if j >= half:
                    h += b
                    f += a
            ent[t, s] = e
            top[t, s] = tp
            d_prime[t, s] = z_hit[offset[t] + h] - z_fa[offset[t] + f]


_STATS_KERNEL = None


def _bias(counts: np.ndarray, observed: dict, m: int, rng, rows_per_chunk: int = 1000):
    """Monte Carlo bias of the four information measures, resampling each row m times (the
    bootstrap engine's draws, :func:`metabits._resampling.replicate_batches`, ``"rows"``),
    summed batch by batch by a compiled kernel without holding the replicates."""
    global _STATS_KERNEL
    if _STATS_KERNEL is None:
        _STATS_KERNEL = jit(_resample_stats)
    whole = as_whole_counts(counts, "bias reduction")
    lead = counts.shape[:-2]
    flat = whole.reshape((-1,) + counts.shape[-2:])
    n0, n1 = flat[:, 0].sum(axis=-1), flat[:, 1].sum(axis=-1)
    largest = int((n0 + n1).max())
    if largest + 1 + 2 * (int(np.maximum(n0, n1).max()) + 1) > MAX_SIZE:
        raise ValueError(f"bias reduction tabulates n log n and the z-scores of every trial "
                         f"count up to a table's total, about three numbers per trial: a table "
                         f"of counts with {largest:,} trials is too large (at most "
                         f"{MAX_SIZE:,} numbers)")
    xlogx = xlog2x(np.arange(int((n0 + n1).max()) + 1, dtype=float))
    # the z-scores of every possible hit and false-alarm rate, table by table
    size = np.maximum(n0, n1) + 1
    offset = np.concatenate([[0], np.cumsum(size)[:-1]])
    k = np.arange(size.sum()) - np.repeat(offset, size)
    with np.errstate(divide="ignore", invalid="ignore"):
        z_hit = ndtri(k / np.repeat(n1, size))
        z_fa = ndtri(k / np.repeat(n0, size))
    total = {key: np.zeros(len(flat)) for key in INFO_MEASURES}
    used = {key: np.zeros(len(flat), dtype=np.int64) for key in INFO_MEASURES}
    step = max(1, rows_per_chunk * 1000 // max(m, 1))  # chunks of tables cap the memory
    for start, sims in replicate_batches(flat, m, rng, "rows", batch=step):
        n_tab = sims.shape[1]
        part = slice(start, start + n_tab)
        stats = {key: np.empty((n_tab, m)) for key in ("ent", "top", "d_prime")}
        _STATS_KERNEL(sims, xlogx, z_hit, z_fa, offset[part], stats["ent"], stats["top"],
                      stats["d_prime"])
        stats["n0"], stats["n1"] = n0[part, None], n1[part, None]
        w, ok = normalise_measures(measures_of_stats(stats), fast=True)
        for key in INFO_MEASURES:
            total[key][part] = np.where(ok[key], w[key], 0.0).sum(axis=-1)
            used[key][part] = ok[key].sum(axis=-1)
    bias, excluded = {}, {}
    for key in INFO_MEASURES:
        with np.errstate(invalid="ignore", divide="ignore"):
            b = np.where(used[key] > 0, total[key] / np.maximum(used[key], 1), np.nan)
        bias[key] = b.reshape(lead) - observed[key]
        excluded[key] = (m - used[key]).reshape(lead)
    return bias, excluded


def type2_measures(counts, bias_reduction: int = 0, rng=None, undefined: str = "raise"):
    """Accuracy, transmitted information and the four information-theoretic Type 2 measures.

    Plug-in estimates from a table of counts (Meyen et al., 2025, Tables 1–2 and Figure 5): the
    joint distribution is estimated by relative frequencies; each response's confidence by the
    larger frequency in its column over the column's margin (Assumption 4).

    * ``meta_I = info - min info(acc)`` (Proposition 7; Theorem 3's lower bound),
    * ``meta_I1r = meta_I / meta-I(|d′|)`` with d′ = z(HR) − z(FAR) from the Type 1 split of the
      columns (the information measures recode predictions to the more probable label, so a
      table with d′ < 0 is compared with the normal classifier of sensitivity ``|d′|``),
    * ``meta_I2r = meta_I / H_2(acc)``,
    * ``RMI = meta_I / (max info(acc) - min info(acc))``.

    Parameters
    ----------
    counts : array_like, shape (..., 2, R)
        Row 0 = true label −1 (S1), row 1 = +1 (S2); columns = responses from "S1, most
        confident" to "S2, most confident" (R even). Stacks of tables are processed at once.
    bias_reduction : int, default 0
        If m > 0, Monte Carlo bias reduction (section "Bias Reduction"): each row is resampled m
        times from the multinomial of its own relative frequencies (row totals kept); the bias of
        each information measure is its mean over the resamples minus the observed value, and
        the reduced value is observed − bias. A resample in which a measure is undefined (e.g.
        d′ = ±∞ for meta-I₁ʳ) is left out of that measure's mean; ``bias_excluded`` counts them.
        It takes rows of up to about a million trials (the resampler's limit,
        :func:`metabits.resample.multinomial_rows`; two-column tables, K = 1, up to about
        3·10**7 trials per table, where n log n and the z-scores are tabulated).
    rng : numpy.random.Generator or int, optional
        Random generator (or seed) for the resampling.
    undefined : {"raise", "nan"}, default "raise"
        What to do where a measure is undefined in an observed table — meta-I₁ʳ when d′ is
        infinite or 0, meta-I₂ʳ when acc = 1, RMI when the information range is empty: raise a
        ``ValueError`` naming the measure and the table, or, when asked explicitly, return NaN
        for that measure of that table (useful for large simulated stacks).

    Returns
    -------
    Type2Measures
        A dataclass that is also a mapping; fields are floats for one table, arrays for a stack.

    Raises
    ------
    ValueError
        For negative, non-finite, ragged or wrongly shaped counts, an all-zero table or an empty
        row, non-integer counts with bias reduction, and (with ``undefined="raise"``) where a
        measure is undefined.

    Notes
    -----
    meta-I₁ʳ's normaliser meta-I(d′) is integrated for each table; for a stack of more than
    2,000 tables, and for the resamples of the bias reduction, it is read from a cubic spline of
    the integral on 0 ≤ d′ ≤ 12 instead (error below 1e-10).

    References
    ----------
    Meyen et al. (2025), sections "Example Computation of Existing Information-Theoretic
    Measures" (Tables 1–2, Figure 5), "Our New Information-Theoretic Measure: Relative
    Metainformation" and "Bias Reduction" (Figure 7); Proposition 7; Dayan (2023) for meta-I,
    meta-I₁ʳ and meta-I₂ʳ.

    Examples
    --------
    Table 1 of Meyen et al. (2025): info = 0.26, meta-I = 0.14 bit, meta-I₁ʳ = 2.5,
    meta-I₂ʳ = 0.16 and RMI = 0.50.

    >>> table = [[84, 56, 48, 12], [4, 56, 64, 76]]
    >>> r = type2_measures(table)
    >>> round(r.acc, 2), round(r.info, 2)
    (0.7, 0.26)
    >>> round(r["meta_I"], 2), round(r["RMI"], 2)
    (0.14, 0.5)
    >>> round(r.meta_I1r, 1), round(r.meta_I2r, 2)
    (2.5, 0.16)

    With bias reduction (m = 1,000 resamples, as in the paper's example) the estimate is the
    observed value minus the estimated bias; here the plug-in RMI is biased low:

    >>> rb = type2_measures(table, bias_reduction=1000, rng=1)
    >>> round(rb.bias["RMI"], 2), round(rb.RMI, 2)
    (-0.03, 0.53)
    """
    counts = as_count_table(counts)
    undefined = as_undefined(undefined)
    m = as_size(bias_reduction, "bias_reduction", least=0)
    gen = as_rng(rng)  # checked even when unused (bias_reduction=0)
    v, ok = normalise_measures(measures_of_stats(table_stats(counts)), fast=False)
    _check_defined(ok, undefined)
    bias, excluded = {}, {}
    if m:
        bias, excluded = _bias(counts, v, int(m), gen)
        if undefined == "raise":
            for k in INFO_MEASURES:
                if np.any(excluded[k] == m):
                    raise ValueError(f"{k} is undefined in every Monte Carlo resample of a table: "
                                     f"{_WHY.get(k, '')}")
        for k in INFO_MEASURES:
            v[k] = v[k] - bias[k]
        bias = {k: scalar_or_array(b) for k, b in bias.items()}
        excluded = {k: scalar_or_array(e) for k, e in excluded.items()}
    keys = [f.name for f in fields(Type2Measures) if f.name not in ("bias", "bias_excluded")]
    return Type2Measures(**{k: scalar_or_array(np.asarray(v[k])) for k in keys}, bias=bias,
                         bias_excluded=excluded)
