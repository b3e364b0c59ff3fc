"""statConfR's information-theoretic measures of the 16 MaskOri people, for the measures chapter.

Runs ``estimateMetaI(data, bias_reduction = FALSE)`` of statConfR 0.2.2 (its R sources, read
from a git directory of github.com/ManuelRausch/StatConfR: ``--statconfr GITDIR``) on each
MaskOri participant's trials pooled over the five SOAs, and writes meta-I, meta-I₁ʳ, meta-I₂ʳ and
RMI per participant to ``book/_support/metabits_book/data/maskori_statconfr_meta_i.csv``.
Needs ``Rscript`` with the plyr package; the tests read the file and need no R.

Run ``python scripts/statconfr_meta_i.py --statconfr GITDIR`` from the repository root.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from metabits_book.studies import datasets

DATA = Path(__file__).resolve().parent.parent / "book" / "_support" / "metabits_book" / "data"
TARGET = DATA / "maskori_statconfr_meta_i.csv"
COMMIT = "7d0aa78"  # statConfR 0.2.2
HEADER = (
    "# MaskOri (Hellmann et al., 2023): statConfR 0.2.2's estimateMetaI(bias_reduction = FALSE) of each\n"
    "# participant's trials pooled over the five SOAs (statConfR, github.com/ManuelRausch/StatConfR,\n"
    "# commit 7d0aa78, GPL >= 3; its R sources loaded with sys.source).\n"
    "# Written by scripts/statconfr_meta_i.py.\n")
R_PROGRAM = r"""
suppressMessages({library(plyr); library(parallel)})
for (f in list.files(file.path(Sys.getenv("SRC"), "R"), full.names = TRUE)) {
  if (!grepl("plot", f, ignore.case = TRUE)) sys.source(f, envir = globalenv())
}
d <- read.csv(Sys.getenv("TRIALS"))
d$stimulus <- factor(d$stimulus); d$rating <- factor(d$rating)
r <- estimateMetaI(d, bias_reduction = FALSE)
write.csv(r, Sys.getenv("OUT"), row.names = FALSE)
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statconfr", required=True, help="git directory of StatConfR")
    args = parser.parse_args(argv)
    trials = datasets.maskori_trials()[["participant", "stimulus", "rating", "correct"]]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trials.to_csv(tmp / "trials.csv", index=False)
        archive = subprocess.run(["git", "--git-dir", args.statconfr, "archive", COMMIT, "R"],
                                 check=True, capture_output=True).stdout
        (tmp / "src").mkdir()
        subprocess.run(["tar", "-x", "-C", str(tmp / "src")], input=archive, check=True)
        (tmp / "run.R").write_text(R_PROGRAM)
        subprocess.run(["Rscript", str(tmp / "run.R")], check=True,
                       env={"SRC": str(tmp / "src"), "TRIALS": str(tmp / "trials.csv"),
                            "OUT": str(tmp / "out.csv"), "PATH": "/usr/bin:/bin"})
        result = pd.read_csv(tmp / "out.csv")
    with open(TARGET, "w", encoding="utf-8", newline="") as f:
        f.write(HEADER)
        result.to_csv(f, index=False, float_format="%.12g", lineterminator="\n")
    print(f"wrote {TARGET} ({len(result)} rows)")


if __name__ == "__main__":
    main()
