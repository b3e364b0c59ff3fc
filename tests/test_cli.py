"""metabits._cli: the command line, run as a user runs it (a subprocess, ``python -m metabits``)
and in-process for its options."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits._cli import main
from metabits_book import example_file


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


def test_measures_writes_the_front_doors_table(tmp_path):
    target = tmp_path / "out.csv"
    out = run("measures", example_file(), "--n-boot", 20, "--seed", 3, "--measures",
              "acc,m_ratio", "-o", target)
    assert out.returncode == 0, out.stderr
    assert "19 rows (0 flagged)" in out.stderr
    written = pd.read_csv(target, keep_default_na=False, na_values=[""])
    expected = mb.measure(example_file(), measures=["acc", "m_ratio"], n_boot=20, rng=3)
    np.testing.assert_allclose(written["m_ratio_lo"], expected["m_ratio_lo"], rtol=1e-12)
    assert list(written.columns) == list(expected.columns)


def test_check_reports_codes_levels_and_flags(tmp_path):
    d = pd.read_csv(example_file())
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
    args = [a.format(file=example_file()) for a in args]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_no_command_prints_the_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: metabits" in capsys.readouterr().out
