"""Benchmark: Meyen et al.'s whole simulation study behind Figures 6 and 7, at full size.

3 noise types x 4 accuracies x 200 data sets x 400 trials = 2,400 data sets; all six measures
(meta-d' and M-ratio by maximum likelihood, the four information measures) with Monte Carlo bias
reduction (m = 1000 resamples per data set). Prints the best of a few runs; not a test.

    .venv/bin/python scripts/bench_study.py
"""

import os
import platform
import time

import numpy as np

import metabits as mb
from metabits_book.studies import simulation as sim


def best_of(fn, repeat=3, cpu=False):
    """Best wall-clock time of a few runs (and, with ``cpu``, the best CPU time of this process:
    on a shared machine the wall clock also counts other users' work)."""
    times, cpus = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return (min(times), min(cpus), out) if cpu else (min(times), out)


def main():
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numpy {np.__version__}")
    t_sim, counts = best_of(lambda: sim.simulate_study(rng=1))
    print(f"simulate 2,400 data sets of 400 trials            {t_sim * 1e3:8.1f} ms")
    flat = counts.reshape(-1, 2, 4)
    t_fit, _ = best_of(lambda: mb.fit_meta_d(flat, pad=sim.SDT_PAD))
    print(f"meta-d' fits of all 2,400 tables                   {t_fit * 1e3:8.1f} ms")
    t_plain, _ = best_of(lambda: mb.type2_measures(counts, undefined="nan"))
    print(f"four information measures, plug-in                 {t_plain * 1e3:8.1f} ms")
    t_br, _ = best_of(lambda: mb.type2_measures(counts, bias_reduction=1000, rng=2,
                                                 undefined="nan"))
    print(f"four information measures, bias reduction m=1000   {t_br:8.2f} s")
    t_all, cpu_all, res = best_of(lambda: sim.measure_study(sim.simulate_study(rng=1),
                                                            bias_reduction=1000, rng=2), cpu=True)
    print(f"whole study (simulate + six measures, m = 1000)    {t_all:8.2f} s  (target: <= 0.5 s)")
    print(f"  the same, CPU time of this process               {cpu_all:8.2f} s")
    print(f"load average (1 min) during the runs: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"undefined measures: {res['undefined']}; resamples left out: {res['bias_excluded']}")


if __name__ == "__main__":
    main()
