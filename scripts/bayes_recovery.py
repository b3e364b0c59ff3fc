"""Parameter recovery of the Bayesian meta-d′ (HMeta-d, metabits.sdt): the shipped study.

Simulates tables at known d′ and meta-d′ (metabits.sdt.simulate_ratings, c = 0, equiprobable
criteria), fits each with metabits.fit_meta_d_bayes (4 chains x 500 draws after 500 tuning
steps) and with maximum likelihood (metabits.fit_meta_d, pad 1/(2K)), via bayes_recovery, in two
regimes:

* "small": K = 2 confidence levels, the toolbox's default d′ path (d′ from the counts padded by
  1/(2K)); 100 tables per condition, 4 conditions (meta-d′ = 0.75 and 1.5 at d′ = 1.5; 50 and
  200 trials per stimulus), seed 2026.
* "llm": the regime of Servajean & Servajean's (2026) LLM cells: K = 5, d′ estimated in the
  model (estimate_dprime=True, as the paper); 200 tables per condition, 3 conditions near
  Table S1's cells (d′ 3.25, meta-d′ 2.8, 10,000 trials per stimulus, like task A; d′ 2.3,
  meta-d′ 1.8, 1,000 trials, task B's parameters with a tenth of its trials; d′ 1.25,
  meta-d′ 0.875, 5,000 trials, like task C's DeepSeek and Mistral), seed 2027.

Writes book/_support/metabits_book/data/bayes_recovery.csv (one row per fit; its header says how
it was made) and prints the summary by condition (recovery_summary): coverage of the 95%
central intervals of meta-d′ and of the M-ratio with their binomial Monte Carlo SEs, the bias of
the posterior means and of ML.

Run ``python scripts/bayes_recovery.py`` (1,000 NUTS fits, about 20 minutes on one core);
``--regime small`` or ``--regime llm`` refits one regime and keeps the other's rows from the
file; ``--sets N`` for a smaller study. tests/test_bayes_recovery.py refits some rows (marked
slow) and checks them against the shipped file.
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from metabits_book.studies.bayes_recovery import bayes_recovery, recovery_summary

SAMPLER = dict(chains=4, draws=500, tune=500)
#: regime -> (seed, K, estimate_dprime, tables per condition, [(d′, meta-d′, trials per stimulus)])
REGIMES = {
    "small": (2026, 2, False, 100, [(1.5, m, n) for n in (50, 200) for m in (0.75, 1.5)]),
    "llm": (2027, 5, True, 200, [(3.25, 2.8, 10_000), (2.3, 1.8, 1_000), (1.25, 0.875, 5_000)]),
}
DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"
OUT = DATA / "bayes_recovery.csv"

HEADER = """# Parameter recovery of the Bayesian meta-d' (Fleming's HMeta-d, metabits.fit_meta_d_bayes,
# 4 chains x 500 draws after 500 tuning steps) beside ML (metabits.fit_meta_d, pad 1/(2K)): one row
# per simulated table (metabits.sdt.simulate_ratings, c = 0, equiprobable criteria). Two regimes:
# K = 2 with d' from the padded counts (estimate_dprime=False; 50 and 200 trials per stimulus,
# seed 2026) and K = 5 with d' estimated (estimate_dprime=True; 1,000 to 10,000 trials, seed 2027).
# Written by scripts/bayes_recovery.py via metabits_book.studies.bayes_recovery.bayes_recovery(d,
# meta_d, n_per_stimulus, n_sets, K=K, estimate_dprime=..., seed=seed): table `set` is simulated
# with numpy.random.default_rng([seed, set]) and fitted with sampler seed seed * 100000 + set.
# tests/test_bayes_recovery.py refits some rows (marked slow).
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", type=int, default=None, help="tables per condition")
    parser.add_argument("--regime", choices=["all", *REGIMES], default="all")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    regimes = list(REGIMES) if args.regime == "all" else [args.regime]
    kept = {}
    if args.regime != "all" and args.out.is_file():  # the other regime's rows stay
        old = pd.read_csv(args.out, comment="#")
        for name, (_, K, estimate, _, _) in REGIMES.items():
            if name not in regimes:
                kept[name] = old[(old.K == K) & (old.estimate_dprime == estimate)]
    frames = []
    t0 = time.perf_counter()
    for name in REGIMES:
        if name not in regimes:
            frames.append(kept.get(name, pd.DataFrame()))
            continue
        seed, K, estimate, sets, conditions = REGIMES[name]
        sets = args.sets or sets
        for d, meta_d, n in conditions:
            t = time.perf_counter()
            r = bayes_recovery(d, meta_d, n, sets, K=K, estimate_dprime=estimate, seed=seed,
                               **SAMPLER)
            frames.append(r.rows())
            print(f"{name}: d' {d}, meta-d' {meta_d}, {n} trials per stimulus: {sets} fits in "
                  f"{time.perf_counter() - t:.0f} s; coverage meta-d' {r.coverage_meta_d:.3f} ± "
                  f"{r.coverage_meta_d_se:.3f}, M-ratio {r.coverage_m_ratio:.3f} ± "
                  f"{r.coverage_m_ratio_se:.3f}", flush=True)
            rows = pd.concat(frames, ignore_index=True)
            with open(args.out, "w", encoding="utf-8") as f:  # written after every condition
                f.write(HEADER)
                rows.to_csv(f, index=False)
    rows = pd.concat(frames, ignore_index=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(HEADER)
        rows.to_csv(f, index=False)
    print(f"{len(rows)} fits in {time.perf_counter() - t0:.0f} s -> {args.out}")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(recovery_summary(rows).round(4).T)


if __name__ == "__main__":
    main()
