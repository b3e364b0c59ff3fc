"""Fit the two model-based measures with statConfR, for the comparison the tests make without R.

statConfR 0.2.2's ``fitConf(model = "logN")`` (the lognormal meta-noise model, Shekhar & Rahnev,
2021) and ``fitConf(model = "CAS")`` (CASANDRE, Boundy-Singer, Ziemba & Goris, 2023) on a fixed
comparison set of count tables, each one condition (one d′):

- MaskOri (Hellmann, Zehetleitner & Rausch, 2023, shipped with the book): participants 1–6, all
  trials pooled over the SOAs (K = 5 confidence levels);
- the book's copy of the Confidence Database: two people (the first two with at least 150
  trials) of each of :data:`DATABASE_SETS` (K = 2, 3, 4, 6; each person's trials pooled).

``--large-k`` adds one person of each of :data:`LARGE_K_SETS` (K = 9, 10, 11) to the rows
already in the file (statConfR's fits take several minutes per person and model at K = 6 already
— numerical integration for every cell at every Nelder–Mead step — and longer at K = 11).

statConfR is sourced from its repository (``--statconfr GITDIR``, a git directory of
github.com/ManuelRausch/StatConfR; its ``R/`` files at :data:`COMMIT` except the plotting ones,
as ``scripts/table1_references.py`` does, since the package Rmisc it imports for plots is not
needed) and run by ``Rscript`` on each table converted to trials (columns participant, stimulus,
response, rating, correct; one condition). ``fitConf`` pads every cell by 1/(2K) and reports the
negative log-likelihood of the padded counts. Writes :data:`TARGET`: one row per table and model
with the counts, statConfR's parameters, log-likelihood and seconds. ``--jobs 2`` runs the two
models in two R processes. tests/lib/test_meta_noise.py reads the file; it needs neither R nor a
refit.

Run ``python scripts/statconfr_model_fits.py --statconfr GITDIR [--jobs 2] [--large-k]`` from
the repository root (about an hour of R on one core; ``--large-k`` longer).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "tests" / "lib" / "data" / "statconfr_model_fits.csv"
#: statConfR 0.2.2
COMMIT = "7d0aa78"
VERSION = "statConfR 0.2.2 (commit 7d0aa78)"
MASKORI_PEOPLE = (1, 2, 3, 4, 5, 6)
#: Confidence Database sets of the comparison (K): two people of each
DATABASE_SETS = ("Clark_2018", "Mei_2019_Exp1",  # K = 2
                 "Fallow_unpub_1", "Kantner_2010",  # K = 3
                 "Adler_2018_Expt2", "Maniscalco_2017_expt1",  # K = 4
                 "Arbuzova_unpub_1", "Rouault_2018_Expt2")  # K = 6
#: Confidence Database sets with the longest scales (K = 9, 10, 11): one person of each
LARGE_K_SETS = ("Gherman_2018", "OHora_unpub_2", "Rouault_2018_Expt1")
MODELS = ("logN", "CAS")
HEADER = (
    "# Fits of the lognormal meta-noise model (statConfR 'logN') and CASANDRE ('CAS') by\n"
    f"# {VERSION}, fitConf(data, model) with its defaults (nInits = 5, nRestart = 4;\n"
    "# every cell padded by 1/(2K)), R sourced from github.com/ManuelRausch/StatConfR (GPL >= 3).\n"
    "# counts: the unpadded table, rows S1;S2, columns 'S1, most confident' .. 'S2, most\n"
    "# confident' (space-separated). d, c, sigma: statConfR's d_1, c, sigma; log_likelihood:\n"
    "# -negLogLik (of the padded counts);\n"
    "# criteria: logN's M_theta_minus.(K-1)..1 and M_theta_plus.1..(K-1) (positions on the\n"
    "# evidence axis), CAS's theta_minus.(K-1)..1 and theta_plus.1..(K-1) (relative to c), each\n"
    "# space-separated in increasing order. seconds: statConfR's wall time for the fit.\n"
    "# Written by scripts/statconfr_model_fits.py; read by tests/lib/test_meta_noise.py.\n")
COLUMNS = ["table", "source", "K", "counts", "model", "d", "c", "sigma", "criteria_S1",
           "criteria_S2", "log_likelihood", "seconds", "outcome"]


def comparison_tables(large_k=False):
    """(label, table) pairs of the comparison set: MaskOri first, then the database people; with
    ``large_k``, one person of each of :data:`LARGE_K_SETS` instead."""
    from metabits_book.studies import datasets
    from metabits_book.studies.database_copy import confidence_database

    out = []
    if not large_k:
        pooled = datasets.maskori_counts(by="participant")
        for p in MASKORI_PEOPLE:
            i = int(np.flatnonzero(pooled.levels[0] == p)[0])
            out.append((f"MaskOri participant {p}", np.asarray(pooled.counts[i], dtype=int)))
    db = confidence_database()
    tables = db.tables()
    frame = db.to_frame()
    for name in (LARGE_K_SETS if large_k else DATABASE_SETS):
        rows = np.flatnonzero((frame["dataset"] == name).to_numpy()
                              & (frame["n_trials"] >= 150).to_numpy())[:1 if large_k else 2]
        for r in rows:
            K = int(db.n_levels[r])
            out.append((f"{name} participant {frame['participant'].iloc[r]}",
                        np.asarray(tables[r, :, :2 * K], dtype=int)))
    return out


def table_trials(table):
    """A table as trials: (stimulus 1/2, response 1/2, rating 1..K, correct 0/1) rows."""
    K = table.shape[1] // 2
    rows = []
    for s in range(2):
        for j in range(2 * K):
            response = int(j >= K)
            rating = K - j if j < K else j - K + 1
            rows += [(s + 1, response + 1, rating, int(response == s))] * int(table[s, j])
    return rows


R_PROGRAM = r"""
suppressMessages({library(plyr); library(parallel)})
for (f in list.files(file.path(Sys.getenv("SRC"), "R"), full.names = TRUE)) {
  if (!grepl("plot", f, ignore.case = TRUE)) sys.source(f, envir = globalenv())
}
d <- read.csv(Sys.getenv("TRIALS"))
out <- Sys.getenv("OUT")
for (model in strsplit(Sys.getenv("MODELS"), ",")[[1]]) {
  for (p in unique(d$participant)) {
    x <- d[d$participant == p, ]
    K <- x$K[1]
    x$stimulus <- factor(x$stimulus, levels = 1:2)
    x$response <- factor(x$response, levels = 1:2)
    x$rating <- factor(x$rating, levels = 1:K)
    x$diffCond <- factor(rep(1, nrow(x)))
    t0 <- Sys.time()
    line <- tryCatch({
      r <- suppressWarnings(fitConf(x, model = model))
      secs <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
      if (model == "logN") { lo <- paste0("M_theta_minus.", (K - 1):1); hi <- paste0("M_theta_plus.", 1:(K - 1)) }
      else { lo <- paste0("theta_minus.", (K - 1):1); hi <- paste0("theta_plus.", 1:(K - 1)) }
      sprintf("%d,%s,%.10g,%.10g,%.10g,%s,%s,%.10f,%.1f,ok", p, model, r$d_1, r$c, r$sigma,
              paste(sprintf("%.10g", unlist(r[lo])), collapse = " "),
              paste(sprintf("%.10g", unlist(r[hi])), collapse = " "), -r$negLogLik, secs)
    }, error = function(e) sprintf("%d,%s,,,,,,,,error: %s", p, model,
                                     gsub("[,\n]", " ", conditionMessage(e))))
    cat(line, "\n", file = out, append = TRUE)
  }
}
"""


def run_statconfr(gitdir, tables, jobs=1):
    """statConfR's fits of ``tables`` (list of arrays): {(index, model): row dict}."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        archive = subprocess.run(["git", "--git-dir", str(gitdir), "archive", COMMIT, "R"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
        trials = tmp / "trials.csv"
        with open(trials, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["participant", "K", "stimulus", "response", "rating", "correct"])
            for i, t in enumerate(tables):
                w.writerows((i, t.shape[1] // 2, *row) for row in table_trials(t))
        program = tmp / "fit.R"
        program.write_text(R_PROGRAM)
        groups = [MODELS] if jobs == 1 else [(m,) for m in MODELS]
        procs = []
        for g, models in enumerate(groups):
            out = tmp / f"out{g}.csv"
            procs.append((out, subprocess.Popen(
                ["Rscript", str(program)],
                env={"SRC": str(tmp), "TRIALS": str(trials), "OUT": str(out),
                     "MODELS": ",".join(models), "PATH": "/usr/bin:/bin"})))
        results = {}
        for out, proc in procs:
            proc.wait()
            if not out.exists():
                continue
            for row in csv.reader(out.read_text().splitlines()):
                i, model, *rest = (x.strip() for x in row)
                results[int(i), model] = dict(zip(COLUMNS[5:], rest))
        return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statconfr", type=Path, required=True,
                        help="git directory of github.com/ManuelRausch/StatConfR")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--target", type=Path, default=TARGET)
    parser.add_argument("--large-k", action="store_true",
                        help="append one person of each of the K = 9, 10, 11 sets")
    args = parser.parse_args(argv)
    if shutil.which("Rscript") is None:
        sys.exit("needs Rscript")
    labelled = comparison_tables(args.large_k)
    start = time.perf_counter()
    results = run_statconfr(args.statconfr, [t for _, t in labelled], args.jobs)
    print(f"statConfR: {len(results)} fits in {time.perf_counter() - start:.0f} s")
    args.target.parent.mkdir(parents=True, exist_ok=True)
    first = 0
    if args.large_k:  # keep the rows there, number the new tables after them
        kept = [line for line in args.target.read_text().splitlines()
                if line and not line.startswith("#")][1:]
        kept = [line for line in kept if not any(n in line for n in LARGE_K_SETS)]
        first = 1 + max((int(line.split(",")[0]) for line in kept), default=-1)
    with open(args.target, "w", newline="") as f:
        f.write(HEADER)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        if args.large_k:
            f.write("".join(line + "\n" for line in kept))
        for i, (label, table) in enumerate(labelled, start=first):
            counts = ";".join(" ".join(str(int(x)) for x in row) for row in table)
            for model in MODELS:
                r = results.get((i - first, model), {"outcome": "error: no output"})
                w.writerow([i, label, table.shape[1] // 2, counts, model]
                           + [r.get(k, "") for k in COLUMNS[5:]])
    print(f"wrote {args.target}")


if __name__ == "__main__":
    main()
