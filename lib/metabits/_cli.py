"""The command line: ``metabits check``, ``metabits measures`` and ``metabits hmetad`` on a file
of trials."""

from __future__ import annotations

import argparse
import sys
import textwrap

PROG = "metabits"

DESCRIPTION = """\
Measures of metacognition from a file of trials: one row per trial with a subject, a
stimulus, a response (or its correctness) and a confidence rating. A file of the Confidence
Database is read with its own column names (Subj_idx, Stimulus, Response, Confidence); other
files name their columns with the options below, or use the usual names (subject, stimulus,
response, confidence, correct).

commands:
  check      what was read, per subject: codes, confidence levels, dropped rows, subjects
             with one stimulus or one response, below-chance d'
  measures   every measure per subject (and condition), with bootstrap intervals, to a CSV
  hmetad     Fleming's hierarchical Bayesian meta-d' (HMeta-d) of a study: the group M-ratio
             per condition, their differences, covariate effects, with diagnostics, to a CSV

Run "metabits COMMAND --help" for a command's options."""

EPILOG = """\
examples:
  metabits check data_Shekhar_2018.csv.gz
  metabits measures data_Shekhar_2018.csv.gz --n-boot 1000 --seed 1 -o shekhar.csv
  metabits measures trials.csv --subject id --stimulus stim --response resp \\
      --confidence conf --by condition --codes left=S1,right=S2 -o out.csv
  metabits measures ratings.csv --bins 4 --measures acc,d_prime,meta_d,m_ratio
  metabits hmetad trials.csv --condition difficulty --seed 1 -o summary.csv \
      --subjects people.csv --netcdf fit.nc

exit status: 0 on success, 2 for bad options or data (the message names the option or the
column and its value)."""

def _measures_help() -> str:
    """The description of ``metabits measures``: its columns, from the registry of measures."""
    from metabits._registry import names

    return textwrap.fill(
        "Every measure of each subject (one row per subject, and per combination of --by "
        f"columns): n_trials, K, {', '.join(names(default=True))} and flags; with --n-boot, "
        "each measure's interval (<measure>_lo, <measure>_hi). A subject who cannot be "
        "measured (one stimulus, one response) gets a row of NaN and a flag; the other rows "
        "are computed as usual.", width=92)


def _measures_option_help() -> str:
    """The help of ``--measures``, from the registry of measures."""
    from metabits._registry import names

    fitted = names(fitted=True, default=True)
    return (f"'all' (adds Rahnev's {', '.join(names(default=False))}) or only these measures "
            f"(default: the usual ones; leaving out {', '.join(fitted)} skips the meta-d' "
            "fits)")


def _column_options(group):
    """The file and its columns, as every command reads them."""
    group.add_argument("file", help="a CSV or TSV file of trials (optionally .gz)")
    group.add_argument("--subject", metavar="COL",
                       help="the subject column (default: Subj_idx, subject, participant, ...)")
    group.add_argument("--no-subject", action="store_true",
                       help="the file holds the trials of one subject")
    group.add_argument("--stimulus", metavar="COL", help="the stimulus column")
    group.add_argument("--response", metavar="COL", help="the Type 1 response column")
    group.add_argument("--confidence", metavar="COL", help="the confidence column")
    group.add_argument("--correct", metavar="COL",
                       help="the correctness column (1/0), instead of or besides --response")


def _scale_options(group):
    """How labels and confidence values are read, as every command reads them."""
    group.add_argument("--codes", metavar="LABEL=S1,LABEL=S2",
                       help="which label is S1 and which S2, for labels that are not numbers")
    group.add_argument("--bins", metavar="N|EDGES|quantile:N",
                       help="bin continuous confidence: N equal-width bins, comma-separated "
                            "edges, or quantile:N (N bins of equal counts per subject)")
    group.add_argument("--levels", metavar="V1,V2,...",
                       help="the whole confidence scale, when nobody used a level at an end")


def _data_options(parser):
    group = parser.add_argument_group("the data")
    _column_options(group)
    group.add_argument("--by", metavar="COL", action="append", default=[],
                       help="a further grouping column, e.g. a condition (repeatable)")
    _scale_options(group)
    group.add_argument("-o", "--output", metavar="OUT",
                       help="write the table to OUT (.csv, .tsv or .parquet); default: print it")


HMETAD_HELP = """\
Fleming's hierarchical Bayesian meta-d' (HMeta-d) of a study (metabits.hmetad): one row per
quantity of the summary -- the group M-ratio of each condition (m_ratio), the paired
difference of each two conditions (difference), their correlation across people
(correlation), each covariate's coefficient on log M-ratio (beta[NAME]) -- with the posterior
mean, median, SD, 95% equal-tailed (eti_lo, eti_hi) and highest-density (hdi_lo, hdi_hi)
intervals, R-hat, ESS, Monte Carlo SE and divergences. Sampled with NUTS (PyMC and nutpie:
pip install metabits[bayes]), so slower than the other commands; the first fit of a shape
also compiles the model. A warning on stderr names any divergence, R-hat above 1.01 or ESS
below 400, with what to try."""

HMETAD_EPILOG = """\
examples:
  metabits hmetad trials.csv --seed 1 -o summary.csv
  metabits hmetad trials.csv --subject id --stimulus stim --response resp --confidence conf \\
      --codes left=S1,right=S2 --condition task --covariate age --covariate group \\
      --seed 1 -o summary.csv --subjects people.csv --netcdf fit.nc

--netcdf writes ArviZ's InferenceData (posterior, log likelihood, observed data, posterior
predictive): read it with arviz.from_netcdf("fit.nc").

exit status: 0 on success (also when the diagnostics warn), 2 for bad options or data (the
message names the option or the column and its value)."""


def _hmetad_options(parser):
    group = parser.add_argument_group("the data")
    _column_options(group)
    group.add_argument("--condition", metavar="COL",
                       help="the condition column, within people (each person has trials in "
                            "every condition)")
    group.add_argument("--covariate", metavar="COL", action="append", default=[],
                       help="a column constant within each person (age, group, ...): its "
                            "effect on log M-ratio; numbers as they are, other values as "
                            "groups against the first (repeatable)")
    _scale_options(group)
    group = parser.add_argument_group("the model and the sampler")
    group.add_argument("--prior-scale", type=float, default=1.0, metavar="X",
                       help="multiplies the SD of every prior (default 1: Fleming's)")
    group.add_argument("--chains", type=int, default=4, metavar="N", help="chains (4)")
    group.add_argument("--draws", type=int, default=1000, metavar="N",
                       help="draws kept per chain (1000)")
    group.add_argument("--tune", type=int, default=1000, metavar="N",
                       help="tuning steps per chain (1000)")
    group.add_argument("--target-accept", type=float, default=0.95, metavar="P",
                       help="NUTS's target acceptance rate, nearer 1 for fewer divergences "
                            "(0.95)")
    group.add_argument("--seed", type=int, metavar="S",
                       help="seed of the sampler (the same seed gives the same fit)")
    group = parser.add_argument_group("the output")
    group.add_argument("-o", "--output", metavar="OUT",
                       help="write the summary to OUT (.csv, .tsv or .parquet); default: print "
                            "it")
    group.add_argument("--subjects", metavar="OUT",
                       help="also write each person's M-ratio, meta-d' and d' per condition "
                            "to OUT (.csv, .tsv or .parquet)")
    group.add_argument("--netcdf", metavar="OUT.nc",
                       help="also write the InferenceData (ArviZ) to OUT.nc")
    group.add_argument("-q", "--quiet", action="store_true",
                       help="no line saying that the fit has started")


def _parser():
    from metabits import __version__

    parser = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = sub.add_parser(
        "check", help="what was read, per subject", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Report what was read from the file, per subject: trials per stimulus, "
                    "responses, confidence levels used, accuracy, d' and flags; and the codes "
                    "and scale found, and the rows dropped.", epilog=EPILOG)
    _data_options(check)
    measures = sub.add_parser(
        "measures", help="every measure per subject, with intervals",
        formatter_class=argparse.RawDescriptionHelpFormatter, description=_measures_help(),
        epilog=EPILOG)
    _data_options(measures)
    group = measures.add_argument_group("the measures")
    group.add_argument("--measures", metavar="M1,M2,...", help=_measures_option_help())
    group.add_argument("--n-boot", type=int, default=0, metavar="N",
                       help="bootstrap replicates per subject for intervals (default 0: none)")
    group.add_argument("--level", type=float, default=0.95, help="interval coverage (0.95)")
    group.add_argument("--interval", choices=("percentile", "bca"), default="percentile",
                       help="percentile or BCa intervals (percentile)")
    group.add_argument("--bias-reduction", action="store_true",
                       help="add the bias-reduced information measures (*_br)")
    group.add_argument("--pad", type=float, metavar="X",
                       help="count added to every cell for d', c and meta-d' (default 1/(2K))")
    group.add_argument("--seed", type=int, metavar="S", help="seed of the random draws")
    group.add_argument("--long", action="store_true", help="one row per subject and measure")
    group.add_argument("--on-error", choices=("nan", "raise"), default="nan",
                       help="a subject that cannot be measured: a NaN row (default) or stop")
    group.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    hmetad = sub.add_parser(
        "hmetad", help="hierarchical Bayesian meta-d' (HMeta-d) of a study",
        formatter_class=argparse.RawDescriptionHelpFormatter, description=HMETAD_HELP,
        epilog=HMETAD_EPILOG)
    _hmetad_options(hmetad)
    return parser


def _pairs(text: str, option: str) -> dict:
    out = {}
    for part in text.split(","):
        label, sep, side = part.partition("=")
        if not sep or not label.strip() or side.strip() not in ("S1", "S2", "0", "1"):
            raise ValueError(f"{option} must read LABEL=S1,LABEL=S2; got {text!r}")
        out[label.strip()] = side.strip()
    return out


def _numbers(text: str, option: str) -> list:
    try:
        return [float(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"{option} must be comma-separated numbers; got {text!r}") from None


def _bins(text):
    if text is None:
        return None
    if text.startswith("quantile:"):
        try:
            return ("quantile", int(text.split(":", 1)[1]))
        except ValueError:
            raise ValueError(f"--bins quantile:N needs an integer N; got {text!r}") from None
    if "," in text:
        return _numbers(text, "--bins")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"--bins must be N, comma-separated edges or quantile:N; got "
                         f"{text!r}") from None


def _read_options(args) -> dict:
    return dict(subject=False if args.no_subject else args.subject, stimulus=args.stimulus,
                response=args.response, confidence=args.confidence, correct=args.correct,
                by=tuple(getattr(args, "by", ())), bins=_bins(args.bins),
                levels=None if args.levels is None else _numbers(args.levels, "--levels"),
                codes=None if args.codes is None else _pairs(args.codes, "--codes"))


def _table_path(output, option):
    """Refuse, before any work, an output that :func:`_write` could not write."""
    if output is not None and not output.lower().endswith(
            (".csv", ".csv.gz", ".tsv", ".tsv.gz", ".parquet")):
        raise ValueError(f"{option} must end in .csv, .tsv or .parquet; got {output!r}")
    _folder(output, option)


def _folder(output, option):
    import os

    if output is not None:
        folder = os.path.dirname(os.path.abspath(output))
        if not os.path.isdir(folder):
            raise ValueError(f"{option}: no such folder {folder!r} for {output!r}")


def _write(frame, output):
    if output is None:
        import pandas as pd

        with pd.option_context("display.max_rows", None, "display.max_columns", None,
                               "display.width", 200):
            print(frame.round(3).to_string(index=False))  # the file keeps every digit
        return
    lower = output.lower()
    if lower.endswith(".parquet"):
        try:
            frame.to_parquet(output, index=False)
        except ImportError:
            raise ValueError("--output: writing Parquet needs pyarrow (pip install pyarrow); "
                             "or write a .csv") from None
    elif lower.endswith((".tsv", ".tsv.gz")):
        frame.to_csv(output, sep="\t", index=False)
    elif lower.endswith((".csv", ".csv.gz")):
        frame.to_csv(output, index=False)
    else:
        raise ValueError(f"--output must end in .csv, .tsv or .parquet; got {output!r}")


def _check(args):
    from metabits.io import read_trials

    trials = read_trials(args.file, **_read_options(args))
    report = trials.check()
    cols = {k: v for k, v in trials.columns.items() if v}
    codes = trials.codes
    print(f"{args.file}: {trials.n_rows} rows, {len(trials.frame)} trials read", file=sys.stderr)
    print(f"  columns: {', '.join(f'{k}={v}' for k, v in cols.items())}", file=sys.stderr)
    print(f"  stimulus codes: S1={codes['stimulus'][0]!r}, S2={codes['stimulus'][1]!r}; "
          f"response codes: S1={codes['response'][0]!r}, S2={codes['response'][1]!r}",
          file=sys.stderr)
    print(f"  confidence: K={trials.n_levels} levels, scale {list(trials.scale)}",
          file=sys.stderr)
    if trials.n_dropped:
        print(f"  dropped rows (a missing value): {trials.n_dropped}", file=sys.stderr)
    if trials.n_mismatch:
        print(f"  correctness column disagrees with stimulus == response on "
              f"{trials.n_mismatch} trials (the response is used)", file=sys.stderr)
    flagged = report[report["flags"] != ""]
    print(f"  groups: {len(report)}, flagged: {len(flagged)}", file=sys.stderr)
    _write(report, args.output)


def _measures(args):
    from metabits._measure import MEASURE_COLUMNS, measure

    names = "default"
    if args.measures and args.measures.strip() in ("all", "default"):
        names = args.measures.strip()
    elif args.measures:
        names = [m.strip() for m in args.measures.split(",") if m.strip()]
        unknown = [m for m in names if m not in MEASURE_COLUMNS]
        if unknown:
            raise ValueError(f"--measures: unknown {unknown}; choose from "
                             f"{','.join(MEASURE_COLUMNS)}")
    frame = measure(args.file, **_read_options(args), measures=names, n_boot=args.n_boot,
                    level=args.level, interval=args.interval,
                    bias_reduction=args.bias_reduction, pad=args.pad, on_error=args.on_error,
                    rng=args.seed, long=args.long,
                    progress=bool(args.n_boot) and not args.quiet and sys.stderr.isatty())
    _write(frame, args.output)
    if args.output:
        flagged = int((frame["flags"] != "").sum())
        print(f"{args.output}: {len(frame)} rows ({flagged} flagged)", file=sys.stderr)


def _hmetad(args):
    import re
    import warnings

    _table_path(args.output, "--output")
    _table_path(args.subjects, "--subjects")
    if args.netcdf is not None and not args.netcdf.lower().endswith((".nc", ".nc4", ".netcdf")):
        raise ValueError(f"--netcdf must end in .nc; got {args.netcdf!r}")
    _folder(args.netcdf, "--netcdf")
    for option in ("output", "subjects", "netcdf"):
        for other in ("subjects", "netcdf"):
            value = getattr(args, option)
            if option != other and value is not None and value == getattr(args, other):
                raise ValueError(f"--{option} and --{other} name the same file {value!r}")
    from metabits.sdt._hmetad import hmetad

    if not args.quiet:
        print(f"{PROG} hmetad: fitting {args.file} ({args.chains} chains x ({args.tune} tuning "
              f"+ {args.draws} draws); the first fit of a shape compiles the model)",
              file=sys.stderr)
    options = _read_options(args)
    del options["by"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        fit = hmetad(args.file, **options, condition=args.condition,
                     covariates=args.covariate or None, prior_scale=args.prior_scale,
                     chains=args.chains, draws=args.draws, tune=args.tune,
                     target_accept=args.target_accept, seed=args.seed)
    for w in caught:
        if issubclass(w.category, RuntimeWarning) and str(w.message).startswith("hmetad:"):
            # what to try, in the command line's words: "tune=2000" -> "--tune 2000"
            text = re.sub(r"\b(target_accept|tune|draws)=",
                          lambda m: f"--{m.group(1).replace('_', '-')} ", str(w.message))
            print(f"{PROG} {text.replace(' or chains', ' or --chains')}", file=sys.stderr)
    summary = fit.summary()
    _write(summary, args.output)
    if args.subjects:
        _write(fit.subjects(), args.subjects)
    if args.netcdf:
        fit.to_inference_data().to_netcdf(args.netcdf)
    people, conds = len(fit.participants), len(fit.conditions)
    print(f"{PROG} hmetad: {people} people x {conds} condition{'s' * (conds > 1)}, seed "
          f"{fit.seed}: R-hat {fit.r_hat:.3f}, ESS bulk {fit.ess_bulk:.0f}, tail "
          f"{fit.ess_tail:.0f}, divergences {fit.divergences}", file=sys.stderr)
    for name, path in (("summary", args.output), ("people", args.subjects),
                       ("InferenceData", args.netcdf)):
        if path:
            print(f"  {name}: {path}", file=sys.stderr)


def main(argv=None) -> int:
    """Run the command line; returns the exit status (0, or 2 for bad options or data)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        {"check": _check, "measures": _measures, "hmetad": _hmetad}[args.command](args)
    except ValueError as exc:
        print(f"{PROG} {args.command}: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if args.command != "hmetad":
            raise
        print(f"{PROG} hmetad: needs PyMC, nutpie and ArviZ (pip install metabits[bayes]): "
              f"{exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
