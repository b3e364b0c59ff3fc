"""Simulation-based calibration of metabits.hmetad's group model: the shipped ranks.

Runs metabits_book.studies.hmetad_study.hmetad_sbc (parameters from the model's prior, data
from its likelihood given d′ and c, the rank of each true value among thinned posterior draws)
and writes one row per replicate to book/_support/metabits_book/data/hmetad_sbc.csv (rewritten
after every block of replicates). Prints the chi-square test of uniformity of each quantity's
ranks (sbc_uniformity, 10 bins) and the diagnostics.

    python scripts/hmetad_sbc.py [--sets 100] [--out PATH]
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from metabits_book.studies.hmetad_study import SBC_QUANTITIES, hmetad_sbc, sbc_uniformity

SEED = 2040
DESIGN = dict(n_people=6, conditions=2, n_per_stimulus=100, K=2, d_range=(1.0, 2.0), chains=2,
              draws=400, tune=400, thin=8)
DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"
OUT = DATA / "hmetad_sbc.csv"

HEADER = """# Simulation-based calibration (Talts et al., 2018) of metabits.hmetad's group model:
# one row per replicate of {n_people} people x {conditions} conditions, K = {K}, {n_per_stimulus} trials
# per stimulus, person and condition, generating d' uniform on 1-2 (c = 0); d' and c are the padded
# counts' (as the fit takes them) and every other parameter is drawn from the model's prior; the
# fit has {chains} chains x ({tune} tuning + {draws} draws), every {thin}th draw kept; `_rank` is the
# number of kept draws below the true value (0..L). Written by scripts/hmetad_sbc.py via
# metabits_book.studies.hmetad_study.hmetad_sbc(n_sets, seed={seed}, ...): replicate `set` is drawn
# with numpy.random.default_rng([{seed}, set]) and fitted with sampler seed {seed} * 100000 + set.
# tests/test_hmetad_study.py tests the ranks' uniformity and redraws one replicate (slow).
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", type=int, default=100)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    frames, t0 = [], time.perf_counter()
    for start in range(0, args.sets, args.block):
        frames.append(hmetad_sbc(min(args.block, args.sets - start), start=start, seed=SEED,
                                 **DESIGN))
        rows = pd.concat(frames, ignore_index=True)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(HEADER.format(seed=SEED, **DESIGN))
            rows.to_csv(f, index=False)
        print(f"{len(rows)} replicates in {time.perf_counter() - t0:.0f} s", flush=True)
    L = int(rows.L.iloc[0])
    for name in SBC_QUANTITIES:
        if f"{name}_rank" in rows:
            stat, p, counts = sbc_uniformity(rows[f"{name}_rank"], L)
            print(f"{name}: chi-square {stat:.1f}, p {p:.3f}, bins {counts.tolist()}")
    print(rows[["r_hat", "ess_bulk", "divergences"]].describe().round(3))


if __name__ == "__main__":
    main()
