"""Timings of Part II (Servajean & Servajean, 2026): the parameter-recovery study of chapter
"Metacognitive efficiency of three LLMs" — simulate 200 data sets of 5-point ratings for each of
the 9 model × task cells at Table S1's d′ and meta-d′, fit all 1,800 tables, compute the
information measures — and a bootstrap of 1,000 replicates for each of the 9 cells.

Run with any Python that has metabits installed: ``python scripts/bench_servajean.py``. Prints
timings only; not a test.
"""

import statistics
import time

import numpy as np

import metabits as mb
from metabits_book.studies import datasets


def timed(fn, repeat):
    """Median wall time of ``fn()`` over ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


S1, S2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()
N = np.array([10_000, 5_000, 5_000])


def simulate():
    return np.stack([mb.sdt.simulate_ratings(S1.d_prime[i], S1.meta_d[i], int(N[i]), n_sets=200,
                                         c=S2.c[i, 1], rng=100 + i) for i in range(3)])


def recovery():
    sims = simulate().reshape(-1, 2, 10)
    mb.fit_meta_d(sims, pad=0.1)
    mb.type2_measures(sims, undefined="nan")


def bootstrap():
    mb.sdt.bootstrap_meta_d(simulate()[:, :, 0], n_boot=1000, pad=0.1, rng=7)


if __name__ == "__main__":
    recovery()  # warm up imports
    print(f"simulate 1,800 rating tables (9 cells x 200):          {timed(simulate, 5):.3f} s")
    print(f"recovery study (simulate, 1,800 fits, info measures):  {timed(recovery, 5):.3f} s")
    print(f"bootstrap, 9 cells x 1,000 replicates (9,000 fits):    {timed(bootstrap, 3):.3f} s")
