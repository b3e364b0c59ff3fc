"""Timings of metabits.oskr (Roberts, 2026): its two speed targets, and more.

* ``oskr_ci`` with BCa and 2,000 resamples on 100,000 trials of a discrete signal (target < 1 s),
  from the trials (tabulating included) and from the table;
* KSG OSKR on 10,000 trials of a continuous signal (target < 2 s), with scikit-learn already
  imported (its first import is paid once per session and shown separately);
* the coverage study of the book's OSKR chapter: 400 simulated tables, 1,000 resamples each.

Run with ``python scripts/bench_oskr.py``. Prints timings only; not a test.
"""

import os
import statistics
import time

import numpy as np

import metabits as mb


def timed(fn, repeat):
    """Median wall time of ``fn()`` over ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    rng = np.random.default_rng(0)
    n = 100_000
    outcome = rng.random(n) < 0.7
    signal = np.where(rng.random(n) < 0.8, outcome.astype(int) * 2 + rng.integers(0, 2, n),
                      rng.integers(0, 4, n))  # a 4-level self-assessment
    table = mb.oskr.contingency_table(outcome, signal)
    print(f"machine: {os.cpu_count()} cores")
    t = timed(lambda: mb.oskr.oskr_ci(outcome, signal, method="bca", n_boot=2000, rng=1), 7)
    print(f"oskr_ci BCa, 2,000 resamples, 100,000 trials (from the trials): {t * 1e3:.1f} ms "
          "(target < 1 s)")
    t = timed(lambda: mb.oskr_ci_from_table(table, method="bca", n_boot=2000, rng=1), 7)
    print(f"oskr_ci_from_table BCa, 2,000 resamples, the same table: {t * 1e3:.1f} ms")

    t0 = time.perf_counter()
    from sklearn.feature_selection import mutual_info_classif  # noqa: F401
    print(f"first import of scikit-learn's estimator: {time.perf_counter() - t0:.2f} s "
          "(once per session)")
    y = rng.integers(0, 2, 10_000)
    conf = rng.normal(1.5 * y, 1.0)
    t = timed(lambda: mb.oskr.oskr(y, conf, estimator="ksg"), 5)
    print(f"KSG OSKR, 10,000 trials: {t * 1e3:.0f} ms (target < 2 s)")

    truth = mb.oskr.feedback_channel(0.7, 0.15, 0.0)
    tables = rng.multinomial(1000, truth.confusion.ravel(), size=400).reshape(-1, 2, 2)
    t = timed(lambda: mb.oskr_ci_from_table(tables, method="bca", n_boot=1000, rng=2), 3)
    print(f"coverage study: BCa intervals of 400 tables x 1,000 resamples: {t:.2f} s")


if __name__ == "__main__":
    main()
