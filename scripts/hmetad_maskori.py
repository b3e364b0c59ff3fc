"""The MaskOri people across two SOAs as conditions within people: the shipped HMeta-d fit.

Fits metabits.hmetad to the 16 MaskOri people's trials at 33.3 and 66.7 ms (condition
"soa_ms"; 4 chains x (1000 tuning + 2000 draws), seed 2039: with 1000 draws the correlation's
bulk ESS was about 240, below the fit's threshold of 400) via
metabits_book.studies.hmetad_study.maskori_conditions, and writes to
book/_support/metabits_book/data:

* maskori_hmetad_summary.csv: fit.summary() (group M-ratio per SOA, their difference, the
  correlation across SOAs);
* maskori_hmetad_subjects.csv: fit.subjects() (each person's M-ratio per SOA);
* maskori_hmetad_draws.csv: every 8th draw of each chain of the group quantities and the people's
  M-ratios (maskori_draws_frame), read back as ArviZ InferenceData by
  maskori_conditions_posterior.

Prints the summary and the time of the fit.

    python scripts/hmetad_maskori.py
"""

import time
from pathlib import Path

from metabits_book.studies.hmetad_study import (MASKORI_DRAWS_FILE, MASKORI_SUBJECTS_FILE,
                                                MASKORI_SUMMARY_FILE, maskori_conditions,
                                                maskori_draws_frame)

DATA = Path(__file__).resolve().parents[1] / "book" / "_support" / "metabits_book" / "data"
SETTINGS = dict(seed=2039, chains=4, draws=2000, tune=1000, target_accept=0.95)
THIN = 8

HEADER = """# MaskOri (Hellmann et al., 2023; statConfR, GPL >= 3): the 16 people at SOAs 33.3 and 66.7 ms
# as conditions within people, fitted with metabits.hmetad (condition="soa_ms", confidence
# "rating", K = 5; d' and c from counts padded by 0.1; 4 chains x (1000 tuning + 2000 draws),
# target_accept 0.95, seed 2039). {what}
# Written by scripts/hmetad_maskori.py via
# metabits_book.studies.hmetad_study.maskori_conditions(); tests/test_hmetad_study.py checks it
# against a fresh fit (slow).
"""


def write(frame, name, what):
    with open(DATA / name, "w", encoding="utf-8") as f:
        f.write(HEADER.format(what=what))
        frame.to_csv(f, index=False, float_format="%.6g")


def main():
    t0 = time.perf_counter()
    fit = maskori_conditions(**SETTINGS)
    print(f"fit in {time.perf_counter() - t0:.0f} s; R-hat {fit.r_hat:.3f}, bulk ESS "
          f"{fit.ess_bulk:.0f}, tail ESS {fit.ess_tail:.0f}, {fit.divergences} divergences")
    print("problems:", fit.problems)
    summary = fit.summary()
    # the fit's diagnostics over all its identified quantities (people's M-ratios, criteria, SDs)
    summary["fit_r_hat"], summary["fit_ess_bulk"] = fit.r_hat, fit.ess_bulk
    summary["fit_ess_tail"] = fit.ess_tail
    summary["fit_problems"] = fit.problems[0] if fit.problems else ""
    write(summary, MASKORI_SUMMARY_FILE, "The fit's summary(): a row per quantity; fit_r_hat, "
          "fit_ess_bulk, fit_ess_tail:\n# the fit's largest R-hat and smallest ESS over all its "
          "identified quantities; fit_problems: its RuntimeWarning's text.")
    write(fit.subjects(), MASKORI_SUBJECTS_FILE, "The fit's subjects(): a row per person and SOA.")
    write(maskori_draws_frame(fit, THIN), MASKORI_DRAWS_FILE,
          f"Every {THIN}th draw of each chain (maskori_draws_frame(fit, {THIN})).")
    print(summary.round(3).to_string())


if __name__ == "__main__":
    main()
