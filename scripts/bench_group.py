"""Timings of metabits.group (not a test): exact group accuracy up to K = 25 identical members,
the lattice method, pattern enumeration and the Monte Carlo simulators.

Run: python scripts/bench_group.py
"""

import time

import numpy as np

from metabits.group import (confidence_member, cwmv_accuracy, group_accuracy_bounds, noise_group,
                            noise_member, simulate_pcwmv, simulate_students)
from metabits.group import pcwmv


def bench(label, fn, repeat=3):
    best = min(_timed(fn) for _ in range(repeat))
    print(f"{label:<58s} {best * 1e3:10.1f} ms")


def _timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    K = 25
    print(f"exact PCWMV of {K} identical members (pcwmv, exact keys unless a step is given)")
    for label, member, step in [
        ("uniform noise (acc 0.7)", noise_member("uniform", 0.7), None),
        ("binary noise (acc 0.7)", noise_member("binary", 0.7), None),
        ("3 confidence levels", confidence_member([0.55, 0.7, 0.9], [0.3, 0.4, 0.3]), None),
        ("4 confidence levels", confidence_member([0.55, 0.7, 0.9, 1.0], [0.3, 0.3, 0.3, 0.1]), None),
        ("normal noise, lattice h = 0.01", noise_member("normal", 0.7, 0.01), 0.01),
        ("normal noise, lattice h = 0.005", noise_member("normal", 0.7, 0.005), 0.005),
    ]:
        bench(f"  {label}", lambda: pcwmv([member] * K, step=step))
    bench("  4 levels, K = 12 (exact)", lambda: pcwmv(
        [confidence_member([0.55, 0.7, 0.9, 1.0], [0.3, 0.3, 0.3, 0.1])] * 12))
    print("closed forms and enumeration")
    for kind in ("uniform", "normal", "binary"):
        bench(f"  noise_group({kind!r}, 0.7, K = 1..25)", lambda: noise_group(kind, 0.7, np.arange(1, 26)))
    bench("  cwmv_accuracy, K = 20 (2^20 patterns)", lambda: cwmv_accuracy(np.linspace(0.55, 0.9, 20)))
    bench("  group_accuracy_bounds, K = 20", lambda: group_accuracy_bounds(
        np.full(20, 0.8), np.full(20, 0.7), 0.6))
    print("Monte Carlo")
    bench("  simulate_pcwmv, 1e6 trials, K = 3 uniform", lambda: simulate_pcwmv(
        [noise_member("uniform", 0.7)] * 3, 1_000_000, rng=0), repeat=1)
    bench("  simulate_pcwmv, 1e6 trials, K = 25 normal lattice", lambda: simulate_pcwmv(
        [noise_member("normal", 0.7)] * 25, 1_000_000, rng=0), repeat=1)
    for kind in ("uniform", "normal", "binary"):
        bench(f"  simulate_students({kind!r}), 1000 groups x 200 questions", lambda: simulate_students(
            kind, 0.7, 3, rng=0), repeat=1)


if __name__ == "__main__":
    main()
