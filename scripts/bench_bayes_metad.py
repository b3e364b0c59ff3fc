"""Timings of metabits.sdt (Fleming's HMeta-d model, NUTS by nutpie on JAX).

Prints: the import of the PyMC stack; the first single-subject fit (it compiles the model) and
the median of later fits of Meyen et al.'s Table 1 (targets: <= 5 s); the first and a later
16-person hierarchical fit of the MaskOri people (one table each, pooled over SOAs, K = 5;
target: <= 60 s once compiled). Defaults throughout: 4 chains x (1000 tuning + 1000 draws);
target_accept 0.95 for the group. Then both fits with 1 and with 2 chains at once (``cores``),
twice each: wall and CPU time, and whether the draws are the same. Last, both fits in fresh
processes, with JAX as it comes (each call dispatched to XLA's thread pool, its parts scheduled
concurrently), with only the dispatch in line, and as the fits set it (in line, the parts one
after another; ``metabits.sdt._hmetad_model._configure_jax``): wall and CPU time, and whether
the draws are the same.

Beside the wall times: the process's CPU seconds, the load average before and after (the machine
is shared: wall time overstates under load) and the gradient evaluations of the group fit
(tuning and draws), which do not depend on the load: CPU seconds per evaluation say what a fit
costs on an idle machine.

Run ``python scripts/bench_bayes_metad.py``. Prints timings only; not a test.
"""

import os
import statistics
import subprocess
import sys
import time

import numpy as np

TABLE1 = ([84, 56, 48, 12], [4, 56, 64, 76])


def timed(fn):
    """Wall time of ``fn()`` in seconds (and its result); the CPU time goes to CPU[-1]."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    CPU.append(time.process_time() - c0)
    return time.perf_counter() - t0, out


CPU = []  # process CPU seconds of each timed call: on a shared machine wall time overstates


def slowest(fit):
    """The sampled quantity with the smallest bulk ESS."""
    import arviz as az

    ess = az.ess(fit.trace.posterior)
    name = min(ess.data_vars, key=lambda v: float(ess[v].min()))
    return f"{name} ({float(ess[name].min()):.0f})"


def gradient_evaluations(fit):
    """Leapfrog steps (one gradient each) of all chains, tuning and draws."""
    trace = fit.trace
    return int(trace.sample_stats["n_steps"].values.sum()
               + trace.warmup_sample_stats["n_steps"].values.sum())


#: Table 1 (4 chains x (1000 + 2500)) and the 16 MaskOri people (2 chains x (300 + 300)) fitted
#: in a fresh process, after warm-up fits that compile the models, with JAX set up as argv[1]
#: says: "jax-default" (asynchronous dispatch, XLA's concurrent scheduling), "in-line" (only
#: the dispatch in line) or "metabits" (what the fits set: in line and XLA's parts in sequence).
#: Prints wall and CPU seconds and the draws' sum of each fit.
JAX_CHILD = """
import sys, time
import jax
from metabits.sdt import _hmetad_model
from metabits.sdt import _bayes_metad as bayes_metad
from metabits_book.studies import datasets
if sys.argv[1] != "metabits":
    _hmetad_model._configure_jax = lambda: None
if sys.argv[1] == "in-line":
    jax.config.update("jax_cpu_enable_async_dispatch", False)
T = ([84, 56, 48, 12], [4, 56, 64, 76])
people = datasets.maskori_counts(by="participant").counts
bayes_metad.fit_meta_d_bayes(*T, chains=2, draws=50, tune=50, seed=1)
bayes_metad.fit_meta_d_bayes_group(people, chains=2, draws=20, tune=20, seed=1)
for fit, given in ((bayes_metad.fit_meta_d_bayes, dict(nR_S1=T[0], nR_S2=T[1], chains=4,
                                                         draws=2500, seed=2025)),
                   (bayes_metad.fit_meta_d_bayes_group, dict(counts=people, chains=2, draws=300,
                                                             tune=300, seed=1))):
    t0, c0 = time.perf_counter(), time.process_time()
    f = fit(**given)
    print(time.perf_counter() - t0, time.process_time() - c0, repr(float(f.meta_d.sum())))
"""


def jax_comparison():
    """Both fits with JAX as it comes, with the dispatch in line, and as the fits set it."""
    # without XLA_FLAGS: this process's first fit set the option there, which children inherit
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    sums = {}
    for mode in ("jax-default", "in-line", "metabits") * 2:
        out = subprocess.run([sys.executable, "-c", JAX_CHILD, mode], capture_output=True,
                             text=True, check=True, env=env).stdout.split()
        for k, label in enumerate(("Table 1, 4 chains x 2,500 draws",
                                   "16 people, 2 chains x (300 + 300)")):
            wall, cpu, total = float(out[3 * k]), float(out[3 * k + 1]), out[3 * k + 2]
            sums.setdefault(label, set()).add(total)
            print(f"{label}, JAX {mode}: {wall:.1f} s (CPU {cpu:.1f} s)")
    for label, totals in sums.items():
        print(f"  {label}: the same draws in all three: {len(totals) == 1}")


def main():
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (1 min), "
          f"{os.getloadavg()[1]:.1f} (5 min)")
    t, _ = timed(lambda: __import__("metabits.sdt._bayes_metad"))
    import metabits as mb
    from metabits.sdt import _bayes_metad as bayes_metad

    t_imp, _ = timed(lambda: (__import__("pymc"), __import__("nutpie"), __import__("jax")))
    print(f"import metabits.sdt: {t:.1f} s; PyMC, nutpie and JAX: {t_imp:.1f} s")

    t_first, fit = timed(lambda: bayes_metad.fit_meta_d_bayes(*TABLE1, seed=0))
    c_first = CPU[-1]
    times = [timed(lambda i=i: bayes_metad.fit_meta_d_bayes(*TABLE1, seed=i))[0]
             for i in range(1, 4)]
    print(f"one subject (Table 1, K = 2): first call {t_first:.1f} s (CPU {c_first:.1f} s; "
          f"compiles the model), then {statistics.median(times):.1f} s a fit (median of 3, CPU "
          f"{statistics.median(CPU[-3:]):.1f} s; target <= 5 s); "
          f"R-hat {fit.r_hat:.3f}, bulk ESS {fit.ess_bulk:.0f}, {fit.divergences} divergences")

    tables = datasets.maskori_counts(by="participant").counts
    t_first, g = timed(lambda: bayes_metad.fit_meta_d_bayes_group(tables, seed=0))
    c_first = CPU[-1]
    t_again, g = timed(lambda: bayes_metad.fit_meta_d_bayes_group(tables, seed=1))
    evals = gradient_evaluations(g)
    print(f"16 people (MaskOri pooled over SOAs, K = 5): first call {t_first:.1f} s (CPU "
          f"{c_first:.1f} s; compiles), then {t_again:.1f} s a fit (CPU {CPU[-1]:.1f} s; target "
          f"<= 60 s); {evals} gradient evaluations ({CPU[-1] / evals * 1e6:.0f} us CPU each); "
          f"group M-ratio {np.exp(g.mu_log_m_ratio.mean()):.2f}, R-hat "
          f"{g.r_hat:.3f}, bulk ESS {g.ess_bulk:.0f} (smallest: {slowest(g)}), "
          f"{g.divergences} divergences")
    # cores: how many chains run at once (threads); the draws do not depend on it
    for label, fit, given in (
            ("Table 1, 4 chains x 2,500 draws", bayes_metad.fit_meta_d_bayes,
             dict(nR_S1=TABLE1[0], nR_S2=TABLE1[1], chains=4, draws=2500, seed=2025)),
            ("16 people, 2 chains x (300 + 300)", bayes_metad.fit_meta_d_bayes_group,
             dict(counts=tables, chains=2, draws=300, tune=300, seed=1))):
        seen = {}
        for cores in (1, 2, 1, 2):
            t, f = timed(lambda: fit(**given, cores=cores))
            print(f"{label}, cores={cores}: {t:.1f} s (CPU {CPU[-1]:.1f} s)")
            seen.setdefault(cores, f.meta_d)
        print(f"  same draws with 1 and 2: {np.array_equal(seen[1], seen[2])}")
    jax_comparison()
    print(f"load average at the end {os.getloadavg()[0]:.1f} (1 min), "
          f"{os.getloadavg()[1]:.1f} (5 min)")


if __name__ == "__main__":
    main()
