"""Fit Meyen et al.'s Table 1 with other implementations of meta-d′, for the book's candidates.

The paper prints meta-d′ = 1.9 and M-ratio = 1.8 for its Table 1 and names statConfR (version
0.0.1) as its implementation, with the implementations of Craddock (2021) and Lee (2019) for
validation. The book computes its own candidates (``metabits_book.numbers_meyen2025
.table1_candidates``); this script adds the implementations it cannot run at build time and writes
``book/_support/metabits_book/data/meyen2025_table1_references.csv``:

- metadpy 0.1.2's Bayesian ``hmetad`` (PyMC; its model: d′ and c estimated in the model, meta-d′
  ~ N(d′, 1/√2), reported M-ratio = posterior mean of meta-d′ / the padded point estimate of d′),
  4 chains x (1000 tune + 2500 draws), seed 2025;
- statConfR's maximum-likelihood ``fitMetaDprime`` (model "ML") at its current version and at
  0.0.1, each sourced from its repository at that version (``--statconfr PATH``: a git directory
  of github.com/ManuelRausch/StatConfR; skipped without ``Rscript`` or that path). A version that
  stops with an error is recorded with its message.

Run ``python scripts/table1_references.py [--statconfr GITDIR]`` from the repository root. The
tests read the file; they need neither R nor a refit.
"""

from __future__ import annotations

import argparse
import csv
import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from metabits_book.studies import datasets

DATA = Path(__file__).resolve().parent.parent / "book" / "_support" / "metabits_book" / "data"
TARGET = DATA / "meyen2025_table1_references.csv"
#: statConfR versions: (label, commit) — 0.0.1 is the version the paper cites
STATCONFR = {"statConfR 0.2.2": "7d0aa78", "statConfR 0.0.1": "c4c1f7e"}
HEADER = (
    "# Meyen et al. (2025), Table 1, fitted by implementations the book does not run when it builds.\n"
    "# metadpy 0.1.2 hmetad (PyMC, 4 chains x (1000 tune + 2500 draws), seed 2025): d = its padded\n"
    "# point estimate of d', meta_d = posterior mean, m_ratio = meta_d / d as metadpy reports it.\n"
    "# statConfR fitMetaDprime(model = 'ML') at the commit named, sourced from its repository\n"
    "# (github.com/ManuelRausch/StatConfR, GPL >= 3); outcome 'error: ...' where that version stops.\n"
    "# Written by scripts/table1_references.py.\n")
COLUMNS = ["implementation", "version", "d", "meta_d", "m_ratio", "r_hat", "outcome"]


def table1_trials():
    """Table 1 as trials: stimulus (1 = Y −1, 2 = Y +1), response, rating (1 low, 2 high)."""
    counts = datasets.meyen_table1()
    rows = []
    for s, row in enumerate(counts, start=1):
        for j, n in enumerate(row):          # r1 = "-1" sure, r2 = "-1" unsure, r3, r4 = "+1"
            response = 1 if j < 2 else 2
            rating = 2 if j in (0, 3) else 1
            rows += [(s, response, rating, int(s == response))] * int(n)
    return rows


def metadpy_row(seed=2025):
    """metadpy's hmetad, sampled with a seed (metadpy itself does not pass one to PyMC)."""
    import arviz as az
    import pymc as pm
    from metadpy import bayesian

    counts = datasets.meyen_table1()
    model, _ = bayesian.hmetad(nR_S1=counts[0], nR_S2=counts[1], nRatings=2,
                               sample_model=False)
    model = model[0] if isinstance(model, tuple) else model
    with model:
        trace = pm.sample(draws=2500, tune=1000, chains=4, random_seed=seed, progressbar=False)
    data = bayesian.extractParameters(counts[0], counts[1])
    meta_d = float(trace.posterior["meta_d"].mean())
    r_hat = float(az.rhat(trace).to_array().max())
    return {"implementation": "metadpy hmetad", "version": "0.1.2", "d": data["d1"],
            "meta_d": meta_d, "m_ratio": meta_d / data["d1"], "r_hat": r_hat, "outcome": "ok"}


R_PROGRAM = r"""
suppressMessages({library(plyr); library(parallel)})
for (f in list.files(file.path(Sys.getenv("SRC"), "R"), full.names = TRUE)) {
  if (!grepl("plot", f, ignore.case = TRUE)) sys.source(f, envir = globalenv())
}
d <- read.csv(Sys.getenv("TRIALS"))
d$participant <- 1
d$stimulus <- factor(d$stimulus); d$response <- factor(d$response)
d$rating <- factor(d$rating)
set.seed(2025)
out <- tryCatch({
  r <- suppressWarnings(fitMetaDprime(d, model = "ML"))
  sprintf("ok,%.9f,%.9f,%.9f", r$dprime, r$metaD, r$Ratio)
}, error = function(e) sprintf("error: %s,,,", gsub("[,\n]", " ", conditionMessage(e))))
cat(out, "\n")
"""


def statconfr_rows(gitdir):
    """statConfR's ML fit at each version of :data:`STATCONFR`, or nothing without R."""
    if gitdir is None or shutil.which("Rscript") is None:
        print("statConfR skipped: needs Rscript and --statconfr GITDIR")
        return []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        trials = Path(tmp) / "table1.csv"
        with open(trials, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["stimulus", "response", "rating", "correct"])
            w.writerows(table1_trials())
        program = Path(tmp) / "fit.R"
        program.write_text(R_PROGRAM)
        for label, commit in STATCONFR.items():
            src = Path(tmp) / commit
            src.mkdir()
            archive = subprocess.run(["git", "--git-dir", gitdir, "archive", commit, "R"],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
            done = subprocess.run(["Rscript", str(program)], capture_output=True, text=True,
                                  env={"SRC": str(src), "TRIALS": str(trials),
                                       "PATH": "/usr/bin:/bin"})
            line = (done.stdout.strip().splitlines() or ["error: no output,,,"])[-1]
            outcome, d, meta_d, ratio = next(csv.reader(io.StringIO(line)))
            name, version = label.split()
            rows.append({"implementation": f"{name} fitMetaDprime ML", "version": version,
                         "d": d, "meta_d": meta_d, "m_ratio": ratio, "r_hat": "",
                         "outcome": outcome.strip()})
            print(label, rows[-1])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statconfr", help="git directory of StatConfR's repository")
    parser.add_argument("--skip-metadpy", action="store_true")
    args = parser.parse_args(argv)
    rows = [] if args.skip_metadpy else [metadpy_row()]
    if rows:
        print("metadpy", rows[0])
    rows += statconfr_rows(args.statconfr)
    if TARGET.exists():  # keep the rows of implementations not rerun now
        with open(TARGET, encoding="utf-8") as f:
            old = list(csv.DictReader(line for line in f if not line.startswith("#")))
        done = {(r["implementation"], r["version"]) for r in rows}
        rows = [r for r in old if (r["implementation"], r["version"]) not in done] + rows
    rows.sort(key=lambda r: (r["implementation"], r["version"]))
    with open(TARGET, "w", encoding="utf-8", newline="") as f:
        f.write(HEADER)
        w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.9g}" if isinstance(r[k], (float, np.floating)) else r[k])
                        for k in COLUMNS})
    print(f"wrote {TARGET} ({len(rows)} rows)")


if __name__ == "__main__":
    main()
