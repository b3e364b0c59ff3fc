"""Benchmark the model-based measures: meta-noise and meta-uncertainty by maximum likelihood.

Prints wall and CPU time (on a shared machine the wall time overstates) beside the targets:

- one participant (a MaskOri person, K = 5; a Confidence Database person with K = 11) with each
  of ``metabits.fit_meta_noise`` and ``metabits.fit_meta_uncertainty``: target <= 0.2 s each;
- both functions on every participant of the book's copy of the Confidence Database, one stack
  per number of confidence levels: target <= 120 s together (participants with an empty
  stimulus row, which the functions refuse, are left out and counted);
- statConfR 0.2.2's ``fitConf(model = "logN")`` and ``("CAS")`` on a sample of the same people
  (one person per K = 2, 3, 4), with the time that rate would take for all of them, where
  ``Rscript`` and statConfR's source are present: ``--statconfr GITDIR`` (or the environment
  variable ``STATCONFR_GITDIR``), a clone of github.com/ManuelRausch/StatConfR; that line is
  skipped otherwise.

Run ``python scripts/bench_model_measures.py [--statconfr GITDIR]`` from the repository root.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def timed(f, *args, repeat=1):
    """(result, best wall seconds, CPU seconds of that run) of ``repeat`` calls."""
    best = None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = f(*args)
        w, c = time.perf_counter() - w, time.process_time() - c
        if best is None or w < best[0]:
            best = (w, c)
    return out, *best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statconfr", type=Path, default=os.environ.get("STATCONFR_GITDIR"),
                        help="git directory of github.com/ManuelRausch/StatConfR (default: "
                             "$STATCONFR_GITDIR; without it statConfR's timing is skipped)")
    args = parser.parse_args(argv)
    if args.statconfr is not None and not Path(args.statconfr).is_dir():
        parser.error(f"--statconfr {args.statconfr}: no such folder (a clone of "
                     "github.com/ManuelRausch/StatConfR)")

    w = time.perf_counter()
    import metabits as mb
    from metabits_book.studies import datasets
    from metabits_book.studies.database_copy import confidence_database
    mb.fit_meta_noise([[84, 56, 48, 12], [4, 56, 64, 76]])  # the imports' and first call's cost
    print(f"imports and a first call: {time.perf_counter() - w:.2f} s")

    db = confidence_database()
    tables = db.tables()
    maskori = datasets.maskori_counts(by="participant").counts[0]
    k11 = tables[np.flatnonzero(db.n_levels == 11)[0]]
    print("\none participant (best of 5; target <= 0.2 s each)")
    for label, table in (("MaskOri 1, K = 5", maskori), ("database, K = 11", k11)):
        for f in (mb.fit_meta_noise, mb.fit_meta_uncertainty):
            fit, wall, cpu = timed(f, table, repeat=5)
            noise = fit["sigma_meta"] if "sigma_meta" in fit else fit["sigma_m"]
            print(f"  {label:18s} {f.__name__:21s} {wall:6.3f} s wall {cpu:6.3f} s CPU "
                  f"(sigma {noise:.3f}, {fit.status})")

    usable = np.all(tables.sum(axis=-1) > 0, axis=1)
    print(f"\nall {usable.sum():,} people of the database copy ({(~usable).sum()} with an empty "
          "stimulus row left out); target <= 120 s for both")
    total_w = total_c = 0.0
    statuses = {}
    for f in (mb.fit_meta_noise, mb.fit_meta_uncertainty):
        fw = fc = 0.0
        for K in np.unique(db.n_levels):
            sel = np.flatnonzero((db.n_levels == K) & usable)
            fit, wall, cpu = timed(f, tables[sel, :, :2 * K])
            fw, fc = fw + wall, fc + cpu
            for s, n in zip(*np.unique(fit.status, return_counts=True)):
                statuses[f.__name__, str(s)] = statuses.get((f.__name__, str(s)), 0) + int(n)
        print(f"  {f.__name__:21s} {fw:6.1f} s wall {fc:6.1f} s CPU")
        total_w, total_c = total_w + fw, total_c + fc
    print(f"  both                  {total_w:6.1f} s wall {total_c:6.1f} s CPU")
    for name in ("fit_meta_noise",):
        print("  status: " + ", ".join(f"{s} {n}" for (f, s), n in sorted(statuses.items())
                                       if f == name))

    if args.statconfr is None or not (args.statconfr / "HEAD").exists() \
            or shutil.which("Rscript") is None:
        print("\nstatConfR skipped: needs Rscript and --statconfr GITDIR")
        return
    sys.path.insert(0, str(HERE))
    from statconfr_model_fits import run_statconfr

    frame = db.to_frame()
    sample = []
    for K in (2, 3, 4):
        r = int(np.flatnonzero((db.n_levels == K) & usable & (frame["n_trials"] >= 150))[0])
        sample.append(tables[r, :, :2 * K])
    w = time.perf_counter()
    fits = run_statconfr(args.statconfr, sample, jobs=1)
    wall = time.perf_counter() - w
    secs = {m: [float(fits[i, m]["seconds"]) for i in range(len(sample))
                if fits.get((i, m), {}).get("outcome") == "ok"] for m in ("logN", "CAS")}
    print(f"\nstatConfR 0.2.2 fitConf on {len(sample)} people (K = 2, 3, 4): {wall:.0f} s wall")
    for m, s in secs.items():
        if s:
            print(f"  {m:4s}: {np.mean(s):6.1f} s per person (K = 2..4; CAS fails at K = 2), "
                  f"{np.mean(s) * usable.sum() / 3600:6.1f} h for all {usable.sum():,} at "
                  "that rate")
    ours = [timed(mb.fit_meta_noise, t)[1] for t in sample]
    print(f"  metabits on the same people: {np.mean(ours):.3f} s per person per model")


if __name__ == "__main__":
    main()
