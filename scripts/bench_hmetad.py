"""Timings of metabits.hmetad (Fleming's HMeta-d for a study with conditions within people).

Prints, each with R-hat, the smallest bulk and tail ESS and the divergences beside it (a fast fit
that does not converge is not fast):

* 40 people × 2 conditions simulated with ``metabits.sdt.simulate_ratings`` (d′ from 1 to 2,
  group M-ratio 0.8 and 0.6, person SD of log M-ratio 0.2, c ~ N(0, 0.2), 100 trials per
  stimulus and condition, K = 4), 4 chains × (1,000 tuning + 1,000 draws), the defaults: the
  first fit in the process (JAX compilation included; target <= 120 s) and a second fit of the
  same shape on new data (target <= 60 s);
* one person (one condition, 200 trials per stimulus, K = 4: HMeta-d's single-subject model): a
  first and a second fit (target <= 5 s once compiled); then one person in two conditions (the
  single-subject model fitted to each).

Beside each wall time: the process's CPU seconds and the load average before and after (the
machine is shared: the wall time overstates under load), and the leapfrog steps (one gradient
each) of the kept draws, which do not depend on the load.

Run ``.venv/bin/python scripts/bench_hmetad.py``. Prints timings only; not a test.
"""

import os
import time
import warnings

import numpy as np

TARGETS = {"40 people × 2 conditions, first (compiles)": 120.0,
           "40 people × 2 conditions, second": 60.0,
           "one person, first (compiles)": None,
           "one person, second": 5.0,
           "one person × 2 conditions (a fit per condition)": None}


def study(seed, n=40, C=2, K=4, trials=100):
    """Simulated count tables (n, C, 2, 2K)."""
    import metabits as mb

    rng = np.random.default_rng(seed)
    d = rng.uniform(1.0, 2.0, (n, C))
    ratio = np.exp(np.log([0.8, 0.6][:C]) + 0.2 * rng.standard_normal((n, C)))
    c = rng.normal(0.0, 0.2, (n, C))
    return mb.sdt.simulate_ratings(d, ratio * d, trials, c=c, K=K, rng=seed + 1000)[:, :, 0]


def evaluations(fit):
    """Leapfrog steps (one gradient each) of all chains' kept draws (the fit's InferenceData
    keeps no tuning statistics)."""
    return int(fit.trace.sample_stats["n_steps"].values.sum())


def timed(label, tables, seed):
    import metabits as mb

    load0 = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        fit = mb.hmetad(tables, seed=seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    load1 = os.getloadavg()[0]
    target = TARGETS[label]
    verdict = "" if target is None else \
        f" (target <= {target:g} s: {'met' if wall <= target else 'NOT met'})"
    print(f"{label}: {wall:.1f} s wall{verdict}, {cpu:.1f} s CPU, load {load0:.1f} -> {load1:.1f}")
    print(f"    R-hat {fit.r_hat:.4f}, ESS bulk {fit.ess_bulk:.0f}, tail {fit.ess_tail:.0f}, "
          f"divergences {fit.divergences}, leapfrog steps of the draws {evaluations(fit):,}")
    for w in caught:
        print(f"    warning: {w.message}")
    s = fit.summary()
    for row in s.itertuples():
        print(f"    {row.quantity:>11} {row.condition:>6}: {row.mean:.3f} "
              f"[{row.eti_lo:.3f}, {row.eti_hi:.3f}]  R-hat {row.r_hat:.3f}, "
              f"ESS {row.ess_bulk:.0f}/{row.ess_tail:.0f}")
    return fit


def main():
    t0 = time.perf_counter()
    import metabits as mb

    mb.hmetad  # noqa: B018  (loads the module; PyMC, nutpie, JAX load on the first fit)
    print(f"import metabits.hmetad: {time.perf_counter() - t0:.2f} s; 4 chains × (1000 + 1000), "
          "target_accept 0.95 (the defaults)")
    timed("40 people × 2 conditions, first (compiles)", study(1), seed=1)
    timed("40 people × 2 conditions, second", study(2), seed=2)
    timed("one person, first (compiles)", study(3, n=1, C=1, trials=200), seed=3)
    timed("one person, second", study(4, n=1, C=1, trials=200), seed=4)
    timed("one person × 2 conditions (a fit per condition)", study(5, n=1, trials=200), seed=5)


if __name__ == "__main__":
    main()
