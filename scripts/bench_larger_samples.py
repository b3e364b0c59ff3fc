"""Benchmark: the larger-sample study of book/meyen/09_limits at the paper's m = 1000.

3 noise types x 4 accuracies x 200 data sets, at 200, 800 and 3,200 trials per label: RMI
plug-in and with Monte Carlo bias reduction (m = 1000 resamples per data set; the chapter uses
m = 200 to stay fast). Prints the time of each size and the mean error of RMI (estimate minus its
line) with its Monte Carlo standard error, so the chapter's m = 200 results can be compared with
the full-size run. A benchmark, not a test.

    .venv/bin/python scripts/bench_larger_samples.py
"""

import os
import platform
import time

import numpy as np

import metabits as mb
from metabits_book.studies import simulation as sim

N_LARGE = (200, 800, 3200)
N_SETS, M = 200, 1000


def main():
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numpy {np.__version__}")
    accs = np.array(sim.STUDY_ACCURACIES)
    line = np.array([[sim.theoretical_measures(k, a, sdt=False).RMI for a in accs]
                     for k in mb.info.NOISE_TYPES])
    total = 0.0
    for j, n in enumerate(N_LARGE):     # the chapter's seeds for the data sets
        counts = sim.simulate_study(n_sets=N_SETS, n_per_label=n, rng=3000 + j)
        start = time.perf_counter()
        red = mb.type2_measures(counts, bias_reduction=M, rng=4000 + j, undefined="nan").RMI
        seconds = time.perf_counter() - start
        total += seconds
        print(f"{n:5d} trials per label: bias reduction of 2,400 tables, m = {M}: "
              f"{seconds:6.2f} s")
        est = sim.mc_mean(red - line[..., None])
        for i, kind in enumerate(mb.info.NOISE_TYPES):
            cells = "  ".join(f"{v:+.4f} ± {s:.4f}" for v, s in zip(est.value[i], est.se[i]))
            print(f"    reduced RMI − line, {kind:8s} (60/70/80/90 %): {cells}")
    print(f"total bias reduction, three sizes: {total:.2f} s")


if __name__ == "__main__":
    main()
