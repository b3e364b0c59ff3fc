"""Recovery of the condition effect and of the correlation across conditions of metabits.hmetad.

Simulates studies of 16 people in two conditions (group M-ratio 0.8 and 0.6, SD of log M-ratio
0.25 in each, correlation of a person's log M-ratios across the conditions 0.5; d′ uniform on
1–2; 100 trials per stimulus, person and condition; K = 4; metabits.sdt.simulate_ratings, c = 0,
equiprobable criteria), fits each with metabits.hmetad (2 chains x (500 tuning + 500 draws)),
via metabits_book.studies.hmetad_study.conditions_recovery, and writes one row per study to
book/_support/metabits_book/data/hmetad_recovery.csv (rewritten after every block of studies,
so that an interrupted run keeps what it did). Prints bias and coverage with their Monte Carlo
SEs (conditions_recovery_summary).

    python scripts/hmetad_recovery.py [--sets 100] [--out PATH]
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from metabits_book.studies.hmetad_study import (RECOVERY_SAMPLER, conditions_recovery,
                                                conditions_recovery_summary)

SEED = 2039
DESIGN = dict(n_people=16, m_ratio=(0.8, 0.6), sd=0.25, rho=0.5, n_per_stimulus=100, K=4,
              d_range=(1.0, 2.0), **RECOVERY_SAMPLER)
DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"
OUT = DATA / "hmetad_recovery.csv"

HEADER = """# Recovery of the condition effect and of the correlation across conditions of metabits.hmetad:
# one row per simulated study of 16 people x 2 conditions (group M-ratio 0.8 and 0.6, SD of log
# M-ratio 0.25, correlation across conditions 0.5, d' uniform on 1-2, 100 trials per stimulus,
# person and condition, K = 4; metabits.sdt.simulate_ratings, c = 0), fitted with 2 chains x
# (500 tuning + 500 draws). Written by scripts/hmetad_recovery.py via
# metabits_book.studies.hmetad_study.conditions_recovery(n_sets, seed=2039, ...): study `set` is
# simulated with numpy.random.default_rng([2039, set]) and fitted with sampler seed
# 2039 * 100000 + set. tests/test_hmetad_study.py refits one row (marked slow).
"""


def write(frames, out):
    rows = pd.concat(frames, ignore_index=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(HEADER)
        rows.to_csv(f, index=False)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", type=int, default=100)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    frames, t0 = [], time.perf_counter()
    for start in range(0, args.sets, args.block):
        frames.append(conditions_recovery(min(args.block, args.sets - start), start=start,
                                          seed=SEED, **DESIGN))
        rows = write(frames, args.out)
        print(f"{len(rows)} studies in {time.perf_counter() - t0:.0f} s", flush=True)
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(conditions_recovery_summary(rows).round(4))
        print(rows[["r_hat", "ess_bulk", "divergences", "r_hat_log_diff", "ess_bulk_log_diff",
                    "r_hat_rho", "ess_bulk_rho"]].describe().round(3))


if __name__ == "__main__":
    main()
