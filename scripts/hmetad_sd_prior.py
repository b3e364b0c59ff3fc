"""The prior on the group SD of log M-ratio: the MaskOri people fitted with two priors.

Fits the 16 MaskOri people at the SOAs 33.3 and 66.7 ms (conditions within people) with the
two-condition HMeta-d model twice, once with metabits.hmetad's prior on each condition's SD of
log M-ratio (Fleming's single-condition prior, sigma = epsilon * sigma_delta) and once with
HMeta-d groupCorr's Gamma(0.001, 0.001) prior on its precision, everything else equal
(metabits_book.studies.hmetad_sd_prior.maskori_sd_prior: 2 chains x (1000 tuning + 2000 draws),
seed 2039, each fit a few minutes on two cores), and writes the group quantities of both fits with
their Monte Carlo SEs and diagnostics to book/_support/metabits_book/data/hmetad_sd_prior.csv.

    python scripts/hmetad_sd_prior.py [--out PATH]
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from metabits_book.studies.hmetad_sd_prior import SD_PRIOR_FILE, maskori_sd_prior

SETTINGS = dict(soas=(33.3, 66.7), chains=2, draws=2000, tune=1000, target_accept=0.95,
                seed=2039)
DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"

HEADER = """# The MaskOri people (16) at the SOAs 33.3 ms (condition 1) and 66.7 ms (condition 2)
# fitted with the two-condition HMeta-d model and two priors on each condition's SD of log M-ratio:
# sd_prior = hmetad (metabits.hmetad's: sigma = epsilon * sigma_delta, epsilon ~ Beta(1, 1),
# sigma_delta ~ N+(0, 1)) and gamma (HMeta-d's Bayes_metad_group_corr.txt: precision
# sigma^-2 ~ Gamma(0.001, 0.001)); everything else equal. Rows: the group M-ratio of each SOA,
# their difference (66.7 minus 33.3 ms), each SOA's SD of log M-ratio and the correlation rho,
# with the posterior mean, median, 95% equal-tailed interval, the Monte Carlo SEs of the mean
# and of the interval's ends, and the diagnostics. Written by scripts/hmetad_sd_prior.py via
# metabits_book.studies.hmetad_sd_prior.maskori_sd_prior(chains=2, draws=2000, tune=1000,
# target_accept=0.95, seed=2039); tests/test_hmetad_sd_prior.py refits it (marked slow).
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=DATA / SD_PRIOR_FILE)
    args = parser.parse_args()
    t0 = time.perf_counter()
    rows = maskori_sd_prior(**SETTINGS)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(HEADER)
        rows.to_csv(f, index=False)
    print(f"two fits in {time.perf_counter() - t0:.0f} s")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(rows.round(4))


if __name__ == "__main__":
    main()
