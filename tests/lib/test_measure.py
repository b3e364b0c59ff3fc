"""metabits._measure: the front door, from trials to a table of every measure.

Each column is checked against the library's table-level function that computes it (the same
numbers, to 1e-12), the intervals against the bootstrap of :func:`metabits.bootstrap_measures`
drawn from the same seed, the BCa acceleration against a leave-one-trial-out jackknife written
out trial by trial, and the flags and NaN rows on people who cannot be measured.
"""

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits._measure import _DEFAULT, MEASURE_COLUMNS
from conftest import SHEKHAR_2018

@pytest.fixture(scope="module")
def maskori(trials, tables):
    """MaskOri's trials and their tables by participant and SOA (K = 5)."""
    return trials, tables


@pytest.mark.slow
def test_every_measure_equals_the_library_table_by_table(maskori):
    trials, tables = maskori
    r = mb.measure(trials, subject="participant", by="soa_ms", confidence="rating")
    counts = tables.counts.reshape(-1, 2, 10)
    assert r[["participant", "soa_ms"]].values.tolist() == [
        [p, s] for p in tables.levels[0] for s in tables.levels[1]]
    ref = mb.all_measures(counts, pad=0.1)
    for name in ref.names:
        np.testing.assert_allclose(r[name], ref.value(name), rtol=0, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(r["c"], mb.type1_sdt(counts + 0.1).c, atol=1e-12)
    oskr = mb.oskr_from_table(mb.oskr.correctness_table(counts), undefined="nan").oskr
    np.testing.assert_allclose(r["oskr"], oskr, atol=1e-12)
    assert (r["n_trials"] == 324).all() and (r["K"] == 5).all()
    assert list(r.columns) == ["participant", "soa_ms", "n_trials", "K", *_DEFAULT, "flags"]
    # measures="all" adds Rahnev's measures, equal to all_measures(measures="all")
    r = mb.measure(trials, subject="participant", by="soa_ms", confidence="rating",
                   measures="all")
    assert list(r.columns) == ["participant", "soa_ms", "n_trials", "K", *MEASURE_COLUMNS,
                               "flags"]
    ref = mb.all_measures(counts, pad=0.1, measures="all")
    for name in ref.names:
        np.testing.assert_allclose(r[name], ref.value(name), rtol=0, atol=1e-12, err_msg=name)


def test_intervals_are_those_of_the_bootstrap_of_the_same_seed(maskori):
    trials, tables = maskori
    people = trials[trials.participant <= 4]
    r = mb.measure(people, subject="participant", by="soa_ms", confidence="rating",
                   n_boot=50, rng=7)
    counts = tables.counts[:4].reshape(-1, 2, 10)
    ref = mb.bootstrap_measures(counts, n_boot=50, pad=0.1, rng=7)
    for name in ("acc", "d_prime", "meta_d", "m_ratio", "auroc2", "gamma", "meta_I", "RMI"):
        lo, hi = ref.interval(name)
        np.testing.assert_allclose(r[f"{name}_lo"], lo, atol=1e-12, equal_nan=True)
        np.testing.assert_allclose(r[f"{name}_hi"], hi, atol=1e-12, equal_nan=True)


def test_the_criterion_c_has_an_interval_around_it():
    r = mb.measure(SHEKHAR_2018, measures=["c"], n_boot=200, rng=1)
    assert ((r["c_lo"] < r["c"]) & (r["c"] < r["c_hi"])).all()
    assert (r["c_hi"] - r["c_lo"]).between(0.05, 0.5).all()  # 720 trials a person


def test_seeded_runs_repeat_and_a_new_seed_differs():
    a = mb.measure(SHEKHAR_2018, measures=["m_ratio"], n_boot=40, rng=3)
    b = mb.measure(SHEKHAR_2018, measures=["m_ratio"], n_boot=40, rng=3)
    c = mb.measure(SHEKHAR_2018, measures=["m_ratio"], n_boot=40, rng=4)
    pd.testing.assert_frame_equal(a, b)
    assert not np.allclose(a["m_ratio_lo"], c["m_ratio_lo"])


def test_bca_intervals_differ_from_percentile_ones_and_cover_the_estimate():
    p = mb.measure(SHEKHAR_2018, measures=["meta_I1r"], n_boot=300, rng=2)
    b = mb.measure(SHEKHAR_2018, measures=["meta_I1r"], n_boot=300, rng=2, interval="bca")
    assert not np.allclose(p["meta_I1r_lo"], b["meta_I1r_lo"])
    ok = np.isfinite(b["meta_I1r"])
    assert ((b["meta_I1r_lo"] <= b["meta_I1r"]) & (b["meta_I1r"] <= b["meta_I1r_hi"]))[ok].all()


def test_bias_reduction_is_meyens_with_the_seed(maskori):
    _, tables = maskori
    counts = tables.counts[:2].reshape(-1, 2, 10)
    trials = maskori[0][maskori[0].participant <= 2]
    r = mb.measure(trials, subject="participant", by="soa_ms", confidence="rating",
                   bias_reduction=200, rng=5, measures=["meta_I", "RMI"])
    ref = mb.type2_measures(counts, bias_reduction=200, rng=5, undefined="nan")
    for name in ("meta_I", "meta_I1r", "meta_I2r", "RMI"):
        np.testing.assert_allclose(r[f"{name}_br"], ref[name], atol=1e-12, equal_nan=True)


def test_one_bad_person_gives_a_flagged_nan_row_and_the_rest_go_on():
    d = pd.read_csv(SHEKHAR_2018)
    one_stimulus = pd.DataFrame({"Subj_idx": 100, "Stimulus": 1, "Response": [1, 2] * 60,
                                 "Confidence": [1, 2, 3, 4] * 30})
    always_s2 = pd.DataFrame({"Subj_idx": 101, "Stimulus": [1, 2] * 60, "Response": 2,
                              "Confidence": [1, 2, 3, 4] * 30})
    r = mb.measure(pd.concat([d, one_stimulus, always_s2]), measures=["acc", "d_prime",
                                                                     "m_ratio"])
    row = r.set_index("Subj_idx")
    assert row.loc[100, "flags"] == "one_stimulus" and np.isnan(row.loc[100, "d_prime"])
    assert row.loc[101, "flags"] == "one_response" and np.isnan(row.loc[101, "m_ratio"])
    assert row.loc[101, "acc"] == 0.5  # accuracy stays
    alone = mb.measure(d, measures=["acc", "d_prime", "m_ratio"])
    pd.testing.assert_frame_equal(r.iloc[:len(alone)], alone, check_like=True)
    with pytest.raises(ValueError, match=r"Subj_idx=100 cannot be measured: one stimulus in "
                                         r"all its 120 trials"):
        mb.measure(pd.concat([d, one_stimulus]), on_error="raise")


def test_flags_of_few_trials_below_chance_and_undefined_replicates():
    rng = np.random.default_rng(0)
    n = 60
    stim = np.tile([0, 1], n // 2)
    d = pd.DataFrame({"subject": "x", "stimulus": stim,
                      "response": np.where(rng.random(n) < 0.3, stim, 1 - stim),
                      "confidence": rng.integers(1, 3, n)})
    r = mb.measure(d, measures=["d_prime", "gamma"], n_boot=100, rng=0)
    flags = r.loc[0, "flags"].split(";")
    assert "few_trials" in flags and "below_chance" in flags and r.loc[0, "d_prime"] < 0
    perfect = d.assign(response=d.stimulus)
    flags = mb.measure(perfect, measures=["gamma"], n_boot=50, rng=0).loc[0, "flags"]
    assert "no_errors" in flags.split(";")


def test_long_format_holds_the_same_numbers():
    wide = mb.measure(SHEKHAR_2018, measures=["acc", "m_ratio"], n_boot=30, rng=1)
    long = mb.measure(SHEKHAR_2018, measures=["acc", "m_ratio"], n_boot=30, rng=1, long=True)
    assert len(long) == 2 * len(wide)
    m = long[long.measure == "m_ratio"].reset_index(drop=True)
    np.testing.assert_allclose(m["estimate"], wide["m_ratio"])
    np.testing.assert_allclose(m["lo"], wide["m_ratio_lo"])


def test_a_subset_of_measures_skips_the_fits_and_keeps_the_values():
    full = mb.measure(SHEKHAR_2018)
    part = mb.measure(SHEKHAR_2018, measures=["auroc2", "gamma", "acc"])
    assert list(part.columns) == ["Subj_idx", "n_trials", "K", "acc", "auroc2", "gamma", "flags"]
    np.testing.assert_allclose(part["gamma"], full["gamma"], atol=1e-12)


def test_settings_travel_with_the_table():
    r = mb.measure(SHEKHAR_2018, measures=["acc"], n_boot=10, rng=0)
    assert r.attrs["pad"] == 0.125 and r.attrs["n_boot"] == 10
    assert r.attrs["codes"] == {"stimulus": (1, 2), "response": (1, 2)}


@pytest.mark.parametrize("kwargs, match", [
    (dict(measures=["nonsense"]), "unknown measures 'nonsense'"),
    (dict(n_boot=1), "n_boot must be 0 .* or at least 2"),
    (dict(interval="normal"), "unknown interval 'normal'"),
    (dict(level=1.0), "level"),
    (dict(pad=0), "pad must be > 0"),
    (dict(on_error="skip"), "unknown on_error 'skip'"),
    (dict(bias_reduction=1), "bias_reduction"),
])
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mb.measure(SHEKHAR_2018, **kwargs)


def test_pandas_cannot_mistake_a_result_for_a_frame():
    fit = mb.fit_meta_d([[84, 56, 48, 12], [4, 56, 64, 76]])
    with pytest.raises(TypeError, match="use its to_frame"):
        pd.DataFrame(fit)
    assert fit.to_frame().loc[0, "meta_d"] == pytest.approx(fit.meta_d)


@pytest.mark.slow  # 1,000 replicates for 19 people, as the README says
def test_the_readmes_quick_start_runs_as_written(tmp_path, monkeypatch):
    """The README's lines for one's own data run on a file of trials and give the table."""
    import re
    import shutil
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    block = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert "mb.measure(" in block and len(block.strip().splitlines()) <= 5
    shutil.copy(SHEKHAR_2018, tmp_path / "my_trials.csv.gz")
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(block.replace('"my_trials.csv"', '"my_trials.csv.gz"'), scope)
    written = pd.read_csv(tmp_path / "measures.csv")
    assert len(written) == 19 and {"m_ratio", "m_ratio_lo", "m_ratio_hi", "flags"} <= set(
        written.columns)


def test_meta_noise_flags_an_unbounded_or_undefined_sigma():
    """Shekhar 2018's participant 2 has no metacognitive sensitivity (M-ratio < 0): the
    meta-noise likelihood rises without bound, σ is inf and the row says so."""
    r = mb.measure(SHEKHAR_2018, measures=["meta_noise", "meta_uncertainty", "m_ratio"])
    unbounded = np.isposinf(r["meta_noise"])
    assert unbounded.any() and (r.loc[unbounded, "m_ratio"] < 0.1).all()
    assert r.loc[unbounded, "flags"].str.contains("meta_noise_unbounded").all()
    assert not r.loc[~unbounded, "flags"].str.contains("meta_noise").any()
    np.testing.assert_allclose(r["meta_uncertainty"], np.sqrt(np.expm1(r["meta_noise"] ** 2)))
