"""The compiled multinomial resampler behind :mod:`metabits.resample`, and BCa's jackknife
acceleration of a count table (no input checks).

Shared by every bootstrap and bias reduction of the library; :mod:`metabits.resample` documents
how it draws and checks its input.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["draw_multinomial_rows", "jackknife_acceleration", "jit", "table_entries"]


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
