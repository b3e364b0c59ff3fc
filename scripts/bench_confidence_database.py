"""Timing of every measure on every participant of the Confidence Database (4,323 people).

``python scripts/bench_confidence_database.py`` prints the wall time of

* loading the shipped compact copy and building every participant's count table;
* every measure for all participants, plug-in and maximum-likelihood meta-d′
  (``metabits_book.studies.database_measures.database_measures``: accuracy, d′, meta-d′, M-ratio,
  meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ, RMI, OSKR of correctness, c and
  the mean confidence) — target 10 s;
* the same with B = 200 bootstrap intervals (``database_bootstrap``; the information measures
  also bias-reduced) — target 120 s;
* the split-half reliability of every measure at a bin size of 100 trials per half;
* precision (confidence redrawn on 20% of trials) and test–retest reliability (Bang 2019);
* the full assessment of the book's chapter: all 22 measures (Rahnev's 17 with the model fits of
  meta-noise and meta-uncertainty, Meyen et al.'s four, OSKR) on every criterion with 1,000
  bootstrap resamples (``metabits_book.studies.database_assessment.assess`` on both cores, as
  ``scripts/build_confidence_database.py`` rebuilds it) — target 300 s.

Prints timings only; not a test. On a shared machine the wall time of the bootstrap can be
several times its CPU time, so both are printed, with the machine's load average (runnable
processes per core count: above the number of cores, the wall time is inflated by others). The
bootstrap fits meta-d′ to each of the 4,323 × 200 resampled tables. ``--quick`` bootstraps every
tenth participant only; ``--assessment`` times the full assessment only.
"""

import os
import resource
import sys
import time

import numpy as np

from metabits_book.studies.database_assessment import assess
from metabits_book.studies.database_copy import confidence_database
from metabits_book.studies.database_measures import database_bootstrap, database_measures
from metabits_book.studies.database_criteria import split_half
from metabits_book.studies.database_precision import precision, test_retest


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def main(argv):
    quick = "--quick" in argv
    t0 = time.perf_counter()
    db = confidence_database()
    if "--assessment" in argv:
        return _assessment(db)
    tables = db.tables()
    print(f"cores: {os.cpu_count()}; {len(db.names)} data sets, {len(db.participant)} "
          f"participants, {int(db.n_trials.sum()):,} trials")
    print(f"load the shipped copy and build every table: {time.perf_counter() - t0:6.2f} s")
    database_measures(tables[:2], db.n_levels[:2])  # warm up imports and the spline
    t0 = time.perf_counter()
    r = database_measures(tables, db.n_levels)
    undefined = int(np.isnan(r.value("meta_d")).sum())
    print(f"every measure (plug-in, ML meta-d'), all {len(tables)} participants: "
          f"{time.perf_counter() - t0:6.2f} s (target 10 s; meta-d' undefined for {undefined})")
    pick = np.arange(0, len(tables), 10) if quick else np.arange(len(tables))
    before = _load()
    t0, c0 = time.perf_counter(), time.process_time()
    b = database_bootstrap(tables[pick], db.n_levels[pick], n_boot=200, rng=1)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"with B = 200 bootstrap intervals, {len(pick)} participants: {elapsed:6.2f} s wall, "
          f"{cpu:6.2f} s CPU" + (" (--quick: every tenth participant)" if quick
                                 else " (target 120 s)"))
    print(f"  machine: {before} before, {_load()} after")
    del b
    t0 = time.perf_counter()
    split_half(db, 100)
    print(f"split-half reliability of every measure at 100 trials per half: "
          f"{time.perf_counter() - t0:6.2f} s")
    t0 = time.perf_counter()
    precision(db, rng=1)
    print(f"precision of every measure (20% of confidence redrawn, 200 trials): "
          f"{time.perf_counter() - t0:6.2f} s")
    t0 = time.perf_counter()
    test_retest(db)
    print(f"test-retest reliability (Bang 2019, 7 sessions): {time.perf_counter() - t0:6.2f} s")
    _assessment(db)


def _assessment(db):
    before = _load()
    t0, c0 = time.perf_counter(), time.process_time()
    a = assess(db, workers=2)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0 + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    print(f"the 22 measures on Rahnev's criteria, {a.n_boot} resamples, 2 processes: "
          f"{elapsed:6.2f} s wall, {cpu:6.2f} s CPU (target 300 s)")
    print(f"  machine: {before} before, {_load()} after")


if __name__ == "__main__":
    main(sys.argv)
