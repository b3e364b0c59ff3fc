"""Regenerate the shipped HMeta-d refits of the chapter "The Bayesian estimate".

Writes ``book/_support/metabits_book/data/servajean2026_bayes_refits.csv`` (nine single-subject NUTS fits,
metabits_book.studies.bayes_refits.servajean_bayes_refits),
``book/_support/metabits_book/data/maskori_group_bayes.csv`` (five 16-person hierarchical fits,
metabits_book.studies.bayes_refits.maskori_group_bayes) and
``book/_support/metabits_book/data/maskori_group_bayes_ppc.csv`` (a posterior predictive check of one of them,
maskori_posterior_check) and ``book/_support/metabits_book/data/servajean2026_gap_attribution.csv``
(nine near-flat-prior NUTS fits and four maximum-likelihood fits a cell,
servajean_gap_attribution), each with a header saying what it is, its seeds and how it was made,
and prints the time each took.

Run ``python scripts/make_bayes_refits.py [servajean] [maskori] [ppc] [gap]`` (all by
default). Needs ``metabits[bayes]``. The seeds are fixed, but NUTS on another CPU may take other floating-point
paths: a rerun agrees with the shipped files within Monte Carlo error
(tests/test_bayes_refits.py checks it, marked slow), not digit for digit.
"""

import sys
import time
from pathlib import Path

from metabits_book.studies import bayes_refits as br

DATA = Path(__file__).resolve().parent.parent / "book" / "_support" / "metabits_book" / "data"
SETTINGS = dict(chains=4, draws=1000, tune=1000)

HEADERS = {
    "servajean": (
        "# Servajean & Servajean (2026), simulated and refitted with HMeta-d: one experiment per task and model\n"
        "# simulated from Fleming's model (meta-c = c) at Table S1's d' and meta-d' and Table S2's c (no risk),\n"
        "# an evenly used 1-5 scale and 10,000 (task A) or 5,000 (B, C) trials per class, then fitted with\n"
        "# metabits.fit_meta_d_bayes(estimate_dprime=True), 4 chains x (1000 tune + 1000 draws), as the paper\n"
        "# (fit_meta_d_mcmc.m, estimate_dprime = 1). Tables: servajean_tables(seed=2026); sampler seed per row.\n"
        "# Written by metabits_book.studies.bayes_refits.servajean_bayes_refits(seed=2026) via\n"
        "# scripts/make_bayes_refits.py servajean; tests/test_bayes_refits.py refits a row (slow).\n"),
    "maskori": (
        "# MaskOri (Hellmann et al., 2023; statConfR, GPL >= 3): Fleming's hierarchical HMeta-d fitted to the\n"
        "# 16 people at each SOA (metabits.fit_meta_d_bayes_group, d' and c from counts padded by 0.1),\n"
        "# 4 chains x (1000 tune + 1000 draws), target_accept 0.99; participant 0 = the group's rows;\n"
        "# seed = 2023 + index of SOA.\n"
        "# Written by metabits_book.studies.bayes_refits.maskori_group_bayes(seed=2023) via\n"
        "# scripts/make_bayes_refits.py maskori; tests/test_bayes_refits.py refits one SOA (slow).\n"),
    "ppc": (
        "# MaskOri, SOA 66.7 ms: posterior predictive check of the hierarchical HMeta-d fit of the 16 people\n"
        "# (the fit of maskori_group_bayes.csv at that SOA, same seed), metabits.sdt.posterior_predictive with\n"
        "# 4,000 predicted tables (rng 2023): per person, stimulus and response column the observed count, the\n"
        "# predictive mean and 95% interval; per person the chi-square predictive p-value.\n"
        "# Written by metabits_book.studies.bayes_refits.maskori_posterior_check(66.7, seed=2023) via\n"
        "# scripts/make_bayes_refits.py ppc.\n"),
    "gap": (
        "# Servajean & Servajean (2026), simulated as in servajean2026_bayes_refits.csv (same tables): from HMeta-d's\n"
        "# posterior mean M-ratio to the book's maximum likelihood, one change at a time. flat: HMeta-d\n"
        "# (estimate_dprime=True) with every prior SD x 100 (metabits.fit_meta_d_bayes(prior_scale=100)),\n"
        "# 4 chains x (1000 tune + 1000 draws), the refits' sampler seeds; ml_joint: the maximum of HMeta-d's\n"
        "# likelihood (d', c, meta-d', criteria; unpadded; meta-c = c); ml_fixed: the same with d', c fixed\n"
        "# at the unpadded counts'; ml_padded: metabits.fit_meta_d(pad=0.1, meta_c='c'); ml: fit_meta_d(pad=0.1).\n"
        "# Written by metabits_book.studies.bayes_refits.servajean_gap_attribution(seed=2026) via\n"
        "# scripts/make_bayes_refits.py gap; tests/test_bayes_refits.py refits a task (slow).\n"),
}


def write(name, table, filename):
    path = DATA / filename
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(HEADERS[name])
        table.to_csv(f, index=False, float_format="%.6g", lineterminator="\n")
    print(f"wrote {path} ({len(table)} rows)")


def main(which):
    if "servajean" in which:
        t0 = time.perf_counter()
        table = br.servajean_bayes_refits(seed=2026, **SETTINGS)
        print(f"servajean: {time.perf_counter() - t0:.0f} s")
        write("servajean", table, br.SERVAJEAN_BAYES)
    if "maskori" in which:
        t0 = time.perf_counter()
        table = br.maskori_group_bayes(seed=2023, target_accept=0.99, **SETTINGS)
        print(f"maskori: {time.perf_counter() - t0:.0f} s")
        write("maskori", table, br.MASKORI_GROUP_BAYES)
    if "ppc" in which:
        t0 = time.perf_counter()
        table = br.maskori_posterior_check(66.7, seed=2023, target_accept=0.99, **SETTINGS)
        print(f"ppc: {time.perf_counter() - t0:.0f} s")
        write("ppc", table, br.MASKORI_PPC)
    if "gap" in which:
        t0 = time.perf_counter()
        table = br.servajean_gap_attribution(seed=2026, prior_scale=100.0, **SETTINGS)
        print(f"gap: {time.perf_counter() - t0:.0f} s")
        write("gap", table, br.SERVAJEAN_GAP)


if __name__ == "__main__":
    main(sys.argv[1:] or ["servajean", "maskori", "ppc", "gap"])
