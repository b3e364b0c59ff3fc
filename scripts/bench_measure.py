"""Timings of the front door, metabits.measure, and of the command line, beside metadpy.

``python scripts/bench_measure.py`` prints

* ``import metabits`` and ``metabits --help`` in fresh processes (best of five);
* ``metabits.measure`` on every person of the book's copy of the Confidence Database (4,323
  people in 66 data sets, one call per data set), every measure, plug-in;
* ``metabits.measure`` with 1,000 bootstrap replicates on 35 people;
* for comparison, metadpy's maximum-likelihood meta-d′ (``metadpy.mle.metad``) of the same 35
  people, if metadpy is installed (it fits one person at a time, meta-d′ only, no intervals).

Prints timings only; not a test. Wall times on a shared machine overstate: the process's CPU
time is printed beside them.
"""

import os
import subprocess
import sys
import time
import warnings

import metabits as mb
from metabits_book.studies.database_copy import confidence_database


def fresh(code, repeat=5):
    """Best wall time of running ``code`` in a new Python process, and of an empty one."""
    def once(c):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", c], check=True, capture_output=True)
        return time.perf_counter() - t0
    return min(once(code) for _ in range(repeat)), min(once("pass") for _ in range(repeat))


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def main():
    took, empty = fresh("import metabits")
    print(f"python -c 'import metabits': {1000 * took:.0f} ms, an empty python {1000 * empty:.0f} "
          f"ms (target: the import within 300 ms)")
    help_code = "import sys; sys.argv = ['metabits', '--help']; from metabits._cli import main\n" \
                "try:\n    main()\nexcept SystemExit:\n    pass"
    took, _ = fresh(help_code)
    print(f"metabits --help: {1000 * took:.0f} ms in all (target 500 ms)")

    db = confidence_database()
    frames = {name: db.trials(name) for name in db.names}
    mb.measure(frames[db.names[0]], subject="participant")  # the first loads of SciPy's parts
    import scipy.optimize  # noqa: F401  (BFGS, for the few fits that Fisher scoring leaves)
    results, wall, cpu = timed(lambda: [mb.measure(f, subject="participant")
                                        for f in frames.values()])
    people = sum(len(r) for r in results)
    print(f"measure, every measure of {people:,} people in {len(frames)} data sets, plug-in: "
          f"{wall:.2f} s wall, {cpu:.2f} s CPU (target 1 s)")

    name = next(n for n in db.names if (db.dataset == db.names.index(n)).sum() >= 35)
    frame = frames[name]
    keep = frame["participant"].isin(frame["participant"].unique()[:35])
    some = frame[keep]
    r, wall, cpu = timed(lambda: mb.measure(some, subject="participant", n_boot=1000, rng=1))
    print(f"measure, 35 people of {name} ({len(some):,} trials), B = 1,000 intervals: "
          f"{wall:.2f} s wall, {cpu:.2f} s CPU (target 2 s)")

    try:
        from metadpy.mle import metad
    except ImportError:
        print("metadpy: not installed")
        return
    counts = mb.read_trials(some, subject="participant").tables().counts
    K = counts.shape[-1] // 2

    def each():  # one person at a time, from the counts (metadpy's data-frame path breaks on
        failed = 0  # pandas 3 and stops a whole call at a person it cannot fit)
        for table in counts:
            try:
                metad(nR_S1=table[0].astype(float), nR_S2=table[1].astype(float), nRatings=K,
                      verbose=0)
            except (ZeroDivisionError, ValueError):
                failed += 1
        return failed

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failed, wall, cpu = timed(each)
    print(f"metadpy 0.1.2 metad, the same 35 people one by one, meta-d' only, no intervals: "
          f"{wall:.2f} s wall, {cpu:.2f} s CPU ({failed} people it could not fit)")


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    main()
