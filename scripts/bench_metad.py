"""Timings of metabits.sdt: one meta-d′ fit (ours vs metadpy 0.1.2, if installed) and the
vectorised fit of 2,400 tables of 2 × 4 counts (the size of Figure 6's simulation).

Run with any Python that has metabits (and optionally metadpy) installed:
``python scripts/bench_metad.py``. Prints timings only; not a test.
"""

import os
import statistics
import time
import warnings

import numpy as np
from metabits.sdt import fit_meta_d
from scipy.stats import norm

TABLE1 = (np.array([84, 56, 48, 12.0]), np.array([4, 56, 64, 76.0]))


def timed(fn, repeat):
    """Median wall time of ``fn()`` over ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def normal_noise_tables(n_tables, n=200, seed=0):
    """2 × 4 tables of normal-noise observers (acc 60–90 %), confidence binned at 75 %."""
    rng = np.random.default_rng(seed)
    tables = np.empty((n_tables, 2, 4), dtype=int)
    for i in range(n_tables):
        d = 2 * norm.ppf((0.6, 0.7, 0.8, 0.9)[i % 4])
        for s, y in enumerate((-1, 1)):
            x = rng.normal(y * d / 2, 1, n)
            conf = 1 / (1 + np.exp(-d * np.abs(x)))
            col = np.where(x < 0, 0, 2) + np.where(x < 0, conf < 0.75, conf >= 0.75)
            tables[i, s] = np.bincount(col, minlength=4)
    return tables


def main():
    print(f"cores: {os.cpu_count()}")
    ours = timed(lambda: fit_meta_d(TABLE1), 200)
    print(f"metabits fit_meta_d, Table 1:           {ours * 1e3:8.2f} ms (median of 200)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from metadpy.mle import fit_metad
    except ImportError:
        print("metadpy not installed: no comparison")
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            fit_metad(*TABLE1, nRatings=2)
            first = time.perf_counter() - t0
            theirs = timed(lambda: fit_metad(*TABLE1, nRatings=2), 30)
        print(f"metadpy 0.1.2 fit_metad, first call:    {first * 1e3:8.2f} ms (numba compiles)")
        print(f"metadpy 0.1.2 fit_metad, Table 1:       {theirs * 1e3:8.2f} ms (median of 30)")
        print(f"speed-up (warm metadpy / ours):         {theirs / ours:8.1f} x")

    tables = normal_noise_tables(2400)
    many = timed(lambda: fit_meta_d(tables, pad=0.25), 5)
    print(f"metabits fit_meta_d, 2,400 2x4:    {many:8.3f} s  (median of 5; "
          f"{many / 2400 * 1e6:.0f} us per table)")
    loop = timed(lambda: [fit_meta_d(t, pad=0.25) for t in tables[:240]], 1) * 10
    print(f"fit_meta_d in a loop, 2,400 (est.):     {loop:8.3f} s  (240 timed, x10)")


if __name__ == "__main__":
    main()
