"""Timing of every Type 2 measure with bootstrap intervals on real people: the 16 participants ×
5 stimulus-onset asynchronies of the MaskOri data (80 count tables of 324 trials, K = 5).

``python scripts/bench_people.py`` prints the wall time of
``metabits.bootstrap_measures(counts, n_boot=B)`` — accuracy, d′, meta-d′, M-ratio,
meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI, plug-in and (for the
information measures) bias-reduced, each with a 95% percentile interval — for B = 200 (the
chapter's setting) and B = 1000. Prints timings only; not a test.

The bootstrap fits meta-d′ to each of the 80·B resampled tables (Fisher scoring in
``metabits.sdt``, evaluated 1,000 tables at a time so each block's arrays stay in the CPU
cache, with step halvings tried in blocks). Profile with
``python -m cProfile -s tottime scripts/bench_people.py``.
"""

import os
import statistics
import time

import metabits as mb
from metabits_book.studies import datasets


def main():
    counts = datasets.maskori_counts().counts
    print(f"cores: {os.cpu_count()}; tables: {counts.shape[0]} x {counts.shape[1]} = "
          f"{counts.shape[0] * counts.shape[1]}, {int(counts[0, 0].sum())} trials each")
    mb.bootstrap_measures(counts[:1, :1], n_boot=10, rng=0)  # warm up imports and the spline
    for B, repeat in ((200, 3), (1000, 1)):
        times = []
        for r in range(repeat):
            t0 = time.perf_counter()
            b = mb.bootstrap_measures(counts, n_boot=B, rng=r)
            times.append(time.perf_counter() - t0)
        undefined = int(b.n_undefined[..., b.names.index("meta_d")].sum())
        print(f"all measures with bootstrap intervals, 80 tables, B = {B:4d}: "
              f"{statistics.median(times):6.2f} s (median of {repeat}); meta-d' undefined in "
              f"{undefined} of {80 * B} replicates")
    t0 = time.perf_counter()
    mb.all_measures(counts)
    print(f"plug-in values only, 80 tables: {time.perf_counter() - t0:6.2f} s")


if __name__ == "__main__":
    main()
