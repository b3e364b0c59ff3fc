"""Parameter recovery of the Bayesian meta-d′ (HMeta-d, metabits.sdt): the shipped study.

Simulates tables at known d′ and meta-d′ (metabits.sdt.simulate_ratings, c = 0, K = 2 confidence
levels, equiprobable criteria), fits each with metabits.fit_meta_d_bayes (the toolbox's default d′
path: d′ from the counts padded by 1/(2K); 4 chains x 500 draws after 500 tuning steps) and with
maximum likelihood (metabits.fit_meta_d, same pad), via bayes_recovery: 100 tables per
condition, 4 conditions (meta-d′ = 0.75 and 1.5 at d′ = 1.5; 50 and 200 trials per stimulus), seed
2026. Writes book/_support/metabits_book/data/bayes_recovery.csv (one row per fit; its header says how it was
made) and prints the summary by condition (recovery_summary): coverage of the 95%
central intervals of meta-d′ and of the M-ratio with their binomial Monte Carlo SEs, the bias of
the posterior means and of ML.

Run ``python scripts/bayes_recovery.py`` (400 NUTS fits); ``--sets N`` for a smaller study.
tests/test_bayes_recovery.py refits some rows (marked slow) and checks them against the shipped
file.
"""

import argparse
import time
from pathlib import Path

import pandas as pd

import metabits as mb
from metabits_book.studies.bayes_recovery import bayes_recovery, recovery_summary

SEED = 2026
D = 1.5
META_D = (0.75, 1.5)
N_PER_STIMULUS = (50, 200)
K = 2
SAMPLER = dict(chains=4, draws=500, tune=500)
DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"
OUT = DATA / "bayes_recovery.csv"

HEADER = """# Parameter recovery of the Bayesian meta-d' (Fleming's HMeta-d, metabits.fit_meta_d_bayes,
# estimate_dprime=False, 4 chains x 500 draws after 500 tuning steps) beside ML (metabits.fit_meta_d,
# pad 1/(2K)): one row per simulated table (metabits.sdt.simulate_ratings, c = 0, K = 2). Written by
# scripts/bayes_recovery.py via bayes_recovery(d, meta_d, n_per_stimulus, n_sets, K=2,
# seed=2026): table `set` is simulated with numpy.random.default_rng([2026, set]) and fitted with
# sampler seed 2026 * 100000 + set. tests/test_bayes_recovery.py refits some rows (marked slow).
"""


def conditions():
    return [(m, n) for n in N_PER_STIMULUS for m in META_D]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", type=int, default=100, help="tables per condition")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    frames = []
    t0 = time.perf_counter()
    for meta_d, n in conditions():
        t = time.perf_counter()
        r = bayes_recovery(D, meta_d, n, args.sets, K=K, seed=SEED, **SAMPLER)
        frames.append(r.rows())
        print(f"meta-d' {meta_d}, {n} trials per stimulus: {args.sets} fits in "
              f"{time.perf_counter() - t:.0f} s; coverage meta-d' {r.coverage_meta_d:.3f} ± "
              f"{r.coverage_meta_d_se:.3f}, M-ratio {r.coverage_m_ratio:.3f} ± "
              f"{r.coverage_m_ratio_se:.3f}", flush=True)
        rows = pd.concat(frames, ignore_index=True)
        with open(args.out, "w", encoding="utf-8") as f:  # written after every condition
            f.write(HEADER)
            rows.to_csv(f, index=False)
    print(f"{len(rows)} fits in {time.perf_counter() - t0:.0f} s -> {args.out}")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(recovery_summary(rows).round(4).T)


if __name__ == "__main__":
    main()
