"""metabits._cli: the command line, run as a user runs it (a subprocess, ``python -m metabits``)
and in-process for its options."""

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits._cli import main
from conftest import SHEKHAR_2018


def run(*args):
    return subprocess.run([sys.executable, "-m", "metabits", *map(str, args)],
                          capture_output=True, text=True)


def test_help_reads_like_a_manual_and_needs_no_numpy():
    out = run("--help")
    assert out.returncode == 0
    for text in ("usage: metabits", "check", "measures", "examples:", "exit status"):
        assert text in out.stdout
    code = "import sys; from metabits._cli import _parser; _parser(); print('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True).stdout.strip() == "False"


def test_version():
    out = run("--version")
    assert out.stdout.strip() == f"metabits {mb.__version__}"


@pytest.mark.slow
def test_measures_writes_the_front_doors_table(tmp_path):
    target = tmp_path / "out.csv"
    out = run("measures", SHEKHAR_2018, "--n-boot", 20, "--seed", 3, "--measures",
              "acc,m_ratio", "-o", target)
    assert out.returncode == 0, out.stderr
    assert "19 rows (0 flagged)" in out.stderr
    written = pd.read_csv(target, keep_default_na=False, na_values=[""])
    expected = mb.measure(SHEKHAR_2018, measures=["acc", "m_ratio"], n_boot=20, rng=3)
    np.testing.assert_allclose(written["m_ratio_lo"], expected["m_ratio_lo"], rtol=1e-12)
    assert list(written.columns) == list(expected.columns)


@pytest.mark.slow
def test_check_reports_codes_levels_and_flags(tmp_path):
    d = pd.read_csv(SHEKHAR_2018)
    d = pd.concat([d, pd.DataFrame({"Subj_idx": 99, "Stimulus": 2, "Response": [1, 2] * 5,
                                    "Confidence": 1})], ignore_index=True)
    d.loc[0, "Confidence"] = np.nan
    path = tmp_path / "trials.csv"
    d.to_csv(path, index=False)
    out = run("check", path)
    assert out.returncode == 0, out.stderr
    assert "stimulus codes: S1=1, S2=2" in out.stderr
    assert "K=4 levels" in out.stderr and "dropped rows (a missing value): {'Confidence': 1}" \
        in out.stderr
    last = out.stdout.strip().splitlines()[-1].split()
    assert last[0] == "99" and last[-1] == "few_trials;one_stimulus;one_level"


def test_named_columns_codes_and_bins(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 200
    d = pd.DataFrame({"id": np.repeat(["a", "b"], n // 2), "stim": np.tile(["L", "R"], n // 2)})
    d["resp"] = np.where(rng.random(n) < 0.8, d.stim, np.where(d.stim == "L", "R", "L"))
    d["sure"] = rng.uniform(0, 100, n)
    path = tmp_path / "mine.csv"
    d.to_csv(path, index=False)
    status = main(["measures", str(path), "--subject", "id", "--stimulus", "stim",
                   "--response", "resp", "--confidence", "sure", "--codes", "L=S1,R=S2",
                   "--bins", "quantile:4", "--measures", "acc,auroc2"])
    assert status == 0
    printed = capsys.readouterr().out
    expected = mb.measure(d, subject="id", stimulus="stim", response="resp", confidence="sure",
                          codes={"L": "S1", "R": "S2"}, bins=("quantile", 4),
                          measures=["acc", "auroc2"])
    assert f"{expected.loc[0, 'auroc2']:.3f}" in printed  # the terminal gets three decimals
    status = main(["check", str(path), "--subject", "id", "--stimulus", "stim",
                   "--response", "resp", "--confidence", "sure"])  # labels without --codes
    assert status == 2
    assert "(on the command line: --codes L=S1,R=S2)" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["measures", "nonexistent.csv"], "measures: data: no such file"),
    (["measures", "{file}", "--measures", "acc,nonsense"], "--measures: unknown ['nonsense']"),
    (["measures", "{file}", "--codes", "left"], "--codes must read LABEL=S1,LABEL=S2"),
    (["measures", "{file}", "--bins", "quantile:x"], "--bins quantile:N needs an integer"),
    (["measures", "{file}", "--n-boot", "1"], "n_boot must be 0"),
    (["measures", "{file}", "-o", "out.xlsx"], "--output must end in .csv"),
    (["check", "{file}", "--confidence", "nonexistent"], "confidence='nonexistent'"),
])
def test_bad_options_exit_2_and_name_the_option(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = [a.format(file=SHEKHAR_2018) for a in args]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_no_command_prints_the_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: metabits" in capsys.readouterr().out


# ------------------------------------------------------------------------------ metabits hmetad

def _study(path, n=4, trials=60):
    """A CSV of n people's trials in two conditions (HMeta-d's model, simulated), with an age
    and a group column constant within each person."""
    rng = np.random.default_rng(5)
    d = rng.uniform(1.2, 1.8, (n, 2))
    ratio = np.exp(np.log([0.8, 0.6]) + 0.1 * rng.standard_normal((n, 2)))
    tables = mb.sdt.simulate_ratings(d, ratio * d, trials, K=3, rng=6)[:, :, 0]
    rows = []
    for s in range(n):
        for k, cond in enumerate(("easy", "hard")):
            for stim in range(2):
                for col in range(6):
                    conf = 3 - col if col < 3 else col - 2
                    rows += [(f"p{s}", cond, ["L", "R"][stim], ["L", "R"][col >= 3], conf,
                              20 + 10 * s, "ab"[s % 2])] * int(tables[s, k, stim, col])
    frame = pd.DataFrame(rows, columns=["id", "task", "stim", "resp", "conf", "age", "group"])
    frame.to_csv(path, index=False)
    return frame


COLUMNS = ["--subject", "id", "--stimulus", "stim", "--response", "resp", "--confidence", "conf",
           "--codes", "L=S1,R=S2", "--condition", "task"]


def test_hmetad_help_names_its_options():
    out = run("hmetad", "--help")
    assert out.returncode == 0
    for text in ("usage: metabits hmetad", "--condition COL", "--covariate COL", "--netcdf",
                 "--subjects OUT", "--prior-scale", "--target-accept", "m_ratio", "beta[NAME]",
                 "exit status"):
        assert text in out.stdout, text
    assert "hmetad" in run("--help").stdout


@pytest.mark.parametrize("args, message", [
    (["nonexistent.csv"], "hmetad: data: no such file 'nonexistent.csv'"),
    (["{file}", "--confidence", "sure"], "confidence='sure'"),
    (["{file}", "--covariate", "agee"], "covariates=['agee']: the data have no column 'agee'"),
    (["{file}", "--chains", "0"], "chains"),
    (["{file}", "--prior-scale", "-1"], "prior_scale must be > 0; got -1"),
    (["{file}", "-o", "out.xlsx"], "--output must end in .csv"),
    (["{file}", "--subjects", "no/such/folder/people.csv"], "--subjects: no such folder"),
    (["{file}", "--netcdf", "fit.csv"], "--netcdf must end in .nc"),
    (["{file}", "-o", "a.csv", "--subjects", "a.csv"], "name the same file 'a.csv'"),
])
def test_hmetad_bad_options_exit_2_before_any_fit(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _study(tmp_path / "study.csv")
    argv = ["hmetad", "-q"] + [a.format(file="study.csv") for a in args]
    if args[0] == "{file}":
        argv[3:3] = COLUMNS
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("metabits hmetad: ")
    assert not list(tmp_path.glob("*.nc"))


def test_hmetad_labels_without_codes_get_the_command_lines_hint(tmp_path, capsys):
    _study(tmp_path / "study.csv")
    argv = ["hmetad", str(tmp_path / "study.csv"), "-q"] + COLUMNS
    i = argv.index("--codes")
    assert main(argv[:i] + argv[i + 2:]) == 2
    assert "(on the command line: --codes L=S1,R=S2)" in capsys.readouterr().err


@pytest.mark.slow
def test_hmetad_writes_the_summary_people_and_inference_data(tmp_path):
    import arviz as az

    frame = _study(tmp_path / "study.csv")
    target, people, nc = tmp_path / "summary.csv", tmp_path / "people.csv", tmp_path / "fit.nc"
    out = run("hmetad", tmp_path / "study.csv", *COLUMNS, "--covariate", "group", "--chains", 2,
              "--draws", 60, "--tune", 60, "--seed", 3, "-o", target, "--subjects", people,
              "--netcdf", nc)
    assert out.returncode == 0, out.stderr
    # short chains: the diagnostics warn, in the command line's words
    assert "metabits hmetad: " in out.stderr and "Try " in out.stderr and "--draws " in out.stderr
    assert "4 people x 2 conditions, seed 3" in out.stderr
    written = pd.read_csv(target, keep_default_na=False, na_values=[""])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = mb.hmetad(frame, subject="id", stimulus="stim", response="resp", confidence="conf",
                        codes={"L": "S1", "R": "S2"}, condition="task", covariates="group",
                        chains=2, draws=60, tune=60, seed=3)
    expected = fit.summary()
    assert written.quantity.tolist() == ["m_ratio", "m_ratio", "difference", "correlation",
                                         "beta[group=b]"]
    assert written.condition.tolist() == ["easy", "hard", "hard - easy", "easy, hard", "all"]
    assert list(written.columns) == list(expected.columns)
    # the same seed gives the same draws, in a subprocess as in this process
    np.testing.assert_allclose(written["mean"], expected["mean"], rtol=1e-12)
    np.testing.assert_allclose(written.eti_hi, expected.eti_hi, rtol=1e-12)
    subjects = pd.read_csv(people)
    assert subjects.participant.tolist()[:4] == ["p0", "p0", "p1", "p1"]
    np.testing.assert_allclose(subjects.m_ratio, fit.subjects().m_ratio, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        idata = az.from_netcdf(nc)
    assert {"posterior", "log_likelihood", "observed_data"} <= set(idata.groups())
    np.testing.assert_array_equal(idata.posterior.m_ratio.values,
                                  fit.trace.posterior.m_ratio.values)
    assert idata.posterior.participant.values.tolist() == ["p0", "p1", "p2", "p3"]
    assert idata.posterior.beta.dims == ("chain", "draw", "covariate")


@pytest.mark.slow
def test_hmetad_prints_the_summary_without_output(tmp_path):
    _study(tmp_path / "study.csv", n=3)
    out = run("hmetad", tmp_path / "study.csv", *COLUMNS, "--chains", 1, "--draws", 30,
              "--tune", 30, "--seed", 1)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["quantity", "condition", "mean"]
    assert [line.split()[0] for line in lines[1:]] == ["m_ratio", "m_ratio", "difference",
                                                       "correlation"]
