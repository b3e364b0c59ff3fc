"""The bootstrap engine behind :mod:`metabits.resample` (no input checks): the compiled
multinomial resampler, the resampling of stacks of count tables in batches, the quantile rule of
the intervals, the leave-one-trial-out jackknife and :func:`bootstrap_tables`, which every
bootstrap interval of the library comes from.

:mod:`metabits.resample` documents how it draws, checks the input and exposes the engine
(:func:`metabits.resample.bootstrap_tables`); the library's own callers, which have checked
their input already, call :func:`bootstrap_tables` here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from metabits.results import Bounds, Result

__all__ = ["RESAMPLING", "TableBootstrap", "bootstrap_tables", "draw_multinomial_rows",
           "jackknife_acceleration", "jit", "leave_one_out", "replicate_batches",
           "table_entries"]

#: The resampling schemes of a count table (..., r, c): ``"rows"`` redraws each row from the
#: multinomial of its own relative frequencies, its total kept (the trials of each stimulus);
#: ``"table"`` redraws the whole table as one multinomial of its r·c cells, the grand total
#: kept (all trials, whatever their row).
RESAMPLING = ("rows", "table")


def jit(fn):
    """``fn`` compiled by numba (imported only when a resampling runs: it is slow to import)."""
    from numba import njit

    return njit(cache=True, nogil=True)(fn)


#: the resampler builds guide tables for a category of a row when its distribution functions
#: hold at most this many entries per draw (``_draw_rows``); the fastest of 0 (always bisect),
#: 2, 4, 8, 16 and infinity (always guide) for tables of 30 to 3,200 trials and m = 200 or 1000
_GUIDE_RATIO = 8


def _draw_rows(counts, u, out):
    """Compiled kernel: ``out[t, :, s]`` is a multinomial draw of row ``counts[t]`` from the
    uniforms ``u[t, :, s]`` (shapes (T, K), (T, K - 1, m), (T, K, m))."""
    n_rows, n_cat = counts.shape
    m = u.shape[2]
    left = np.empty(m, np.int64)
    table = np.empty(1, np.float64)
    guide = np.empty(1, np.int64)
    for t in range(n_rows):
        n = 0
        for j in range(n_cat):
            n += counts[t, j]
        for s in range(m):
            left[s] = n
        rest = n
        for j in range(n_cat - 1):
            c = counts[t, j]
            if c == 0 or c == rest:  # nothing, or everything that is left, lands here
                for s in range(m):
                    out[t, j, s] = left[s] if c == rest else 0
                    if c == rest:
                        left[s] = 0
                rest -= c
                continue
            q = c / rest
            rest -= c
            flip = q > 0.5
            if flip:
                q = 1.0 - q
            r = q / (1.0 - q)
            lo_n, hi_n = left[0], left[0]
            for s in range(m):
                lo_n = min(lo_n, left[s])
                hi_n = max(hi_n, left[s])
            # window of outcomes k that carries all the mass for every trial number reached
            sd = math.sqrt(hi_n * q * (1.0 - q))
            half = int(9.0 * sd) + 20
            mode_lo = int((lo_n + 1) * q)
            lo = max(0, min(mode_lo, lo_n) - half)
            hi = min(hi_n, int((hi_n + 1) * q) + half)
            width = hi - lo + 1
            span = hi_n - lo_n + 1
            if table.shape[0] < span * width:
                table = np.empty(span * width, np.float64)
                guide = np.empty(span * width, np.int64)
            # first row: the distribution function of Bin(lo_n, q) from its pmf relative to the
            # mode, normalised
            mode = min(mode_lo, lo_n)
            for k in range(width):
                table[k] = 0.0
            p = 1.0
            table[mode - lo] = 1.0
            k = mode
            while k > lo:  # pmf below the mode
                p = p * k / ((lo_n - k + 1) * r)
                k -= 1
                table[k - lo] = p
            p = 1.0
            k = mode
            while k < min(hi, lo_n):  # and above it
                p = p * (lo_n - k) / (k + 1) * r
                k += 1
                table[k - lo] = p
            total = 0.0
            for k in range(width):
                total += table[k]
                table[k] = total
            for k in range(width):
                table[k] = table[k] / total if lo + k < lo_n else 1.0
            # the other rows by F_{N+1}(k) = (1 - q) F_N(k) + q F_N(k - 1)
            for i in range(1, span):
                prev = (i - 1) * width
                row = i * width
                table[row] = (1.0 - q) * table[prev]
                for k in range(1, width):
                    table[row + k] = (1.0 - q) * table[prev + k] + q * table[prev + k - 1]
            # a draw is the first k with F(k) >= u (the last k of the window if none). With many
            # draws per row of the table, guide tables: guide[b] is the first k with
            # F(k) >= b / width, so that a draw starts at most a step or two below its outcome.
            # With few, building them would cost more than it saves: each draw bisects its row
            # (F does not decrease in k, so both find the same k)
            guided = span * width <= _GUIDE_RATIO * m
            if guided:
                for i in range(span):
                    row = i * width
                    k = 0
                    for b in range(width):
                        while k < width - 1 and table[row + k] < b / width:
                            k += 1
                        guide[row + b] = k
            for s in range(m):
                big_n = left[s]
                row = (big_n - lo_n) * width
                target = u[t, j, s]
                if guided:
                    k = guide[row + int(target * width)]
                    while k < width - 1 and table[row + k] < target:
                        k += 1
                else:
                    k, last = 0, width - 1
                    while k < last:
                        mid = (k + last) >> 1
                        if table[row + mid] < target:
                            k = mid + 1
                        else:
                            last = mid
                k += lo
                x = big_n - k if flip else k
                out[t, j, s] = x
                left[s] = big_n - x
        for s in range(m):
            out[t, n_cat - 1, s] = left[s]


def table_entries(counts: np.ndarray) -> np.ndarray:
    """For each row of ``counts`` (shape (..., K), whole numbers), the entries of the largest
    distribution-function table :func:`_draw_rows` builds for it, at most, before it draws.

    It follows the kernel's windows category by category with the range of trials left over
    all resamples (a table spans that range times the window). The range is what draws inside
    the windows can reach, narrowed to nine standard deviations of its multinomial marginal
    around its mean: a draw beyond that has a probability below 1e-18 (the windows themselves
    leave out less than 1e-17), so the bound holds for any realistic number of resamples.
    Returns floats of shape ``counts.shape[:-1]``."""
    c = np.asarray(counts, dtype=float)
    lead = c.shape[:-1]
    c = c.reshape(-1, c.shape[-1])
    n = c.sum(axis=1)
    lmin, lmax, rest = n.copy(), n.copy(), n.copy()  # trials left, over all resamples
    worst = np.zeros(len(c))
    for j in range(c.shape[1] - 1):
        cj = c[:, j]
        full, skip = cj == rest, (cj == 0) | (cj == rest)  # no table for these
        q = np.where(skip, 0.0, cj / np.where(rest > 0, rest, 1.0))
        rest = rest - cj
        flip = q > 0.5
        q = np.where(flip, 1.0 - q, q)
        half = np.floor(9.0 * np.sqrt(lmax * q * (1.0 - q))) + 20
        lo = np.maximum(0.0, np.minimum(np.floor((lmin + 1) * q), lmin) - half)
        hi = np.minimum(lmax, np.floor((lmax + 1) * q) + half)
        worst = np.where(skip, worst, np.maximum(worst, (lmax - lmin + 1) * (hi - lo + 1)))
        lmin = np.where(full, 0.0, np.where(skip, lmin, np.where(flip, lo, lmin - hi)))
        lmax = np.where(full, 0.0, np.where(skip, lmax, np.where(flip, hi, lmax - lo)))
        # the trials left after category j: binomial (n, rest / n) across the resamples
        p = np.where(n > 0, rest / np.where(n > 0, n, 1.0), 0.0)
        reach = 9.0 * np.sqrt(n * p * (1.0 - p)) + 1
        lmin = np.floor(np.maximum(np.maximum(lmin, n * p - reach), 0.0))
        lmax = np.ceil(np.minimum(lmax, n * p + reach))
    return worst.reshape(lead)


_KERNEL = None


def _kernel():
    global _KERNEL
    if _KERNEL is None:
        _KERNEL = jit(_draw_rows)
    return _KERNEL


def draw_multinomial_rows(counts: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`metabits.resample.multinomial_rows` without input checks: whole-number int64
    ``counts`` of shape (..., K); returns int64 resamples of shape ``(m,) + counts.shape`` (a
    view)."""
    lead, n_cat = counts.shape[:-1], counts.shape[-1]
    flat = np.ascontiguousarray(counts.reshape(-1, n_cat))
    out = np.empty((flat.shape[0], n_cat, m), dtype=np.int64)
    if n_cat == 1:
        out[:, 0, :] = flat
    elif flat.shape[0] and m:
        _kernel()(flat, rng.random((flat.shape[0], n_cat - 1, m)), out)
    return np.moveaxis(out, -1, 0).reshape((m,) + lead + (n_cat,))


def jackknife_acceleration(theta, weight, axis: int = -1) -> np.ndarray:
    r"""BCa's acceleration from jackknife values ``theta``, each taken ``weight`` times along
    ``axis`` (no input checks): :math:`a = \sum w d^3 / (6 (\sum w d^2)^{3/2})` with
    :math:`d = \bar\theta - \theta` and :math:`\bar\theta` the weighted mean. Values that are
    not finite get no weight; ``a = 0`` where the values do not spread.

    The leave-one-trial-out jackknife of a count table has one value per cell (leaving out any
    trial of a cell gives the same table), weighted by the cell's count.
    """
    weight = np.where(np.isfinite(theta) & (weight > 0), weight, 0.0)
    theta = np.where(weight > 0, theta, 0.0)
    total = weight.sum(axis, keepdims=True)
    d = (weight * theta).sum(axis, keepdims=True) / np.where(total > 0, total, 1.0) - theta
    num = (weight * d ** 3).sum(axis)
    den = 6.0 * (weight * d ** 2).sum(axis) ** 1.5
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def replicate_batches(whole: np.ndarray, m: int, rng: np.random.Generator,
                      resample: str = "rows", batch: int | None = None):
    """Yield ``(start, draws)`` for consecutive batches of the tables ``whole`` (checked int64
    counts, shape (n, r, c)): ``draws`` are the ``m`` resamples of ``whole[start:start + b]``,
    int64 of shape (m, b, r, c), drawn by :data:`RESAMPLING` scheme ``resample``.

    Every batch takes its uniforms from ``rng`` in the order of the tables, so the draws do not
    depend on ``batch`` (tables per batch; all at once by default).
    """
    n, shape = len(whole), whole.shape[1:]
    step = n if batch is None else max(1, int(batch))
    cells = whole.reshape(n, 1, -1) if resample == "table" else whole
    for start in range(0, n, max(step, 1)):
        block = cells[start:start + step]
        yield start, draw_multinomial_rows(block, m, rng).reshape((m, len(block)) + shape)


def leave_one_out(flat: np.ndarray):
    """The leave-one-trial-out jackknife of count tables (n, r, c): leaving out any trial of a
    cell gives the same table, so the jackknife tables are one per cell, shape (n, r·c, r, c)
    (floats; an empty cell's is the table itself, with no weight), and their weights (n, r·c)
    are the cells' counts."""
    n, shape = len(flat), flat.shape[1:]
    cells = shape[0] * shape[1]
    eye = np.eye(cells).reshape((cells,) + shape)
    return np.maximum(flat[:, None] - eye[None], 0.0), flat.reshape(n, cells)


def _quantiles(reps: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantiles ``q`` (shape (k,) + reps.shape[1:], or broadcastable) of the finite replicates
    along axis 0 (linear interpolation between order statistics); NaN where none is finite."""
    defined = np.isfinite(reps)
    valid = defined.sum(axis=0)
    ordered = np.sort(np.where(defined, reps, np.inf), axis=0)  # the undefined last
    q = np.broadcast_to(q, q.shape[:1] + reps.shape[1:])
    pos = q * np.maximum(valid - 1, 0)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    low = np.take_along_axis(ordered, lo, axis=0)
    high = np.take_along_axis(ordered, hi, axis=0)
    with np.errstate(invalid="ignore"):
        out = low + frac * (high - low)
    return np.where(valid > 0, out, np.nan)


def _bca_quantiles(reps: np.ndarray, theta, accel, tail: float) -> np.ndarray:
    """BCa's lower and upper bounds (2,) + reps.shape[1:] of replicates along axis 0, from the
    estimate ``theta`` and the acceleration ``accel`` (finite, broadcastable to the
    statistics)."""
    defined = np.isfinite(reps)
    valid = np.maximum(defined.sum(axis=0), 1)
    below = (np.where(defined, reps < theta, False).sum(axis=0)
             + 0.5 * np.where(defined, reps == theta, False).sum(axis=0))
    z0 = ndtri(np.clip(below / valid, 0.5 / valid, 1.0 - 0.5 / valid))
    z = ndtri(np.array([tail, 1.0 - tail])).reshape((2,) + (1,) * (reps.ndim - 1))
    return _quantiles(reps, ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z))))


@dataclass(frozen=True)
class TableBootstrap(Result):
    """Results of :func:`metabits.resample.bootstrap_tables`; also a mapping.

    Attributes
    ----------
    estimate : ndarray, shape S
        The statistic of the observed tables (S: the tables' leading axes, then the axes the
        statistic adds).
    interval : Bounds
        The bootstrap interval, arrays of shape S; NaN where no replicate is defined (and, for
        BCa, where the estimate is not finite).
    standard_error : ndarray, shape S
        Standard deviation (ddof = 1) of the defined replicates.
    bias : ndarray, shape S
        Mean of the defined replicates minus the estimate (Efron & Tibshirani's bootstrap
        estimate of bias).
    replicates : ndarray, shape S + (n_boot,)
        The statistic of every replicate, NaN or infinite where it is undefined.
    n_undefined : ndarray of int, shape S
        Replicates in which the statistic is undefined (not finite): left out of the interval,
        the standard error and the bias.
    n_boot, level, method, resample : int, float, str, str
        The settings.
    """

    estimate: np.ndarray
    interval: Bounds
    standard_error: np.ndarray
    bias: np.ndarray
    replicates: np.ndarray
    n_undefined: np.ndarray
    n_boot: int
    level: float
    method: str
    resample: str

    def to_frame(self):
        """The result as a :class:`pandas.DataFrame`: one row per statistic (the entries of
        ``estimate``), with ``estimate``, ``lower``, ``upper``, ``standard_error``, ``bias`` and
        ``n_undefined`` (without the replicates).

        Returns
        -------
        pandas.DataFrame
        """
        from metabits.results import _frame_columns

        return _frame_columns([("estimate", self.estimate), ("lower", self.interval.lower),
                               ("upper", self.interval.upper),
                               ("standard_error", self.standard_error), ("bias", self.bias),
                               ("n_undefined", self.n_undefined)])


def _evaluate(statistic, tables: np.ndarray, lead: tuple) -> np.ndarray:
    """``statistic`` of float tables of shape ``lead + (r, c)``, checked to have shape ``lead``
    + any axes it adds."""
    out = np.asarray(statistic(tables), dtype=float)
    if out.shape[:len(lead)] != lead:
        raise ValueError(f"statistic must return one value (or array of values) per table, an "
                         f"array of shape {lead} + its own axes; got shape {out.shape}")
    return out


def bootstrap_tables(statistic, whole: np.ndarray, n_boot: int, rng: np.random.Generator, *,
                     level: float = 0.95, method: str = "percentile", resample: str = "rows",
                     batch: int | None = None, estimate=None, replicate_statistic=None,
                     progress=None) -> TableBootstrap:
    """:func:`metabits.resample.bootstrap_tables` without input checks, on checked int64
    tables ``whole`` (n, r, c) (a stack's leading axes flattened), with three further hooks:
    ``estimate`` (the statistic of the observed tables, when the caller has it already),
    ``replicate_statistic`` (used on the replicates instead of ``statistic``: e.g. one that
    gives up on a stalled fit rather than refitting) and ``progress`` (called with the number
    of tables after each batch). ``statistic`` sees float64 tables of shape (b, B, r, c) for
    the replicates of a batch of b tables, (n, r·c, r, c) for BCa's jackknife and (n, r, c)
    for the observed tables."""
    n = len(whole)
    if estimate is None:
        estimate = _evaluate(statistic, whole.astype(float), (n,))
    estimate = np.asarray(estimate, dtype=float)
    stat_shape = estimate.shape[1:]
    replicate_statistic = statistic if replicate_statistic is None else replicate_statistic
    reps = np.empty((n,) + stat_shape + (n_boot,))
    for start, draws in replicate_batches(whole, n_boot, rng, resample, batch):
        b = draws.shape[1]
        values = _evaluate(replicate_statistic, np.moveaxis(draws, 0, 1).astype(float), (b, n_boot))
        reps[start:start + b] = np.moveaxis(values, 1, -1)
        if progress is not None:
            progress(b)
    defined = np.isfinite(reps)
    n_undefined = n_boot - defined.sum(axis=-1)
    tail = (1.0 - level) / 2.0
    along = np.moveaxis(reps, -1, 0)  # the replicates on axis 0, for the quantiles
    if method == "bca":
        loo, weight = leave_one_out(whole.astype(float))
        theta = _evaluate(statistic, loo, loo.shape[:2])  # (n, cells) + stat_shape
        theta = np.ascontiguousarray(np.moveaxis(theta, 1, -1))
        weight = weight.reshape((n,) + (1,) * len(stat_shape) + (weight.shape[-1],))
        accel = jackknife_acceleration(theta, weight, axis=-1)
        ok = np.isfinite(estimate)
        bounds = np.full((2,) + estimate.shape, np.nan)
        if ok.any():
            bounds[:, ok] = _bca_quantiles(along[:, ok], estimate[ok], accel[ok], tail)
    else:
        bounds = _quantiles(along, np.array([tail, 1.0 - tail]).reshape(
            (2,) + (1,) * estimate.ndim))
    finite = np.where(defined, reps, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        count = np.maximum(n_boot - n_undefined, 1)
        mean = np.where(defined, reps, 0.0).sum(axis=-1) / count
        dev = np.where(defined, finite - mean[..., None], 0.0)
        se = np.sqrt((dev ** 2).sum(axis=-1) / (n_boot - n_undefined - 1))
    mean = np.where(n_undefined < n_boot, mean, np.nan)
    se = np.where(n_boot - n_undefined > 1, se, np.nan)
    with np.errstate(invalid="ignore"):  # inf - inf is NaN
        bias = mean - estimate
    return TableBootstrap(estimate=estimate, interval=Bounds(bounds[0], bounds[1]),
                          standard_error=se, bias=bias, replicates=reps, n_undefined=n_undefined,
                          n_boot=n_boot, level=level, method=method, resample=resample)
