"""Tables 1–2, Proposition 7 and Figure 5 (Meyen et al., 2025): the Type 2 measures."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import metabits as mb


def test_mapping_contract(table1):
    r = mb.type2_measures(table1)
    for key in ("acc", "info", "meta_I", "meta_I1r", "meta_I2r", "RMI"):
        assert key in r and r[key] == getattr(r, key)
    assert r.bias == {} and r.bias_excluded == {}


def test_meta_I_normal_and_fast_path():
    d = np.linspace(0, 14, 1001)
    from metabits.info._measures import _meta_I_normal_fast as meta_I_normal_fast
    assert np.allclose(meta_I_normal_fast(d), mb.info.meta_I_normal(d), atol=1e-9)


@given(st.lists(st.integers(0, 60), min_size=8, max_size=8))
def test_proposition7_and_rmi_range(cells):
    """meta-I = I(correct; response) (Prop. 7), 0 <= RMI <= 1, min <= info <= max."""
    counts = np.array(cells, dtype=float).reshape(2, 4)
    counts[:, 0] += 1  # no empty rows
    r = mb.type2_measures(counts, undefined="nan")
    freq = counts / counts.sum()
    correct = np.vstack([freq.max(axis=0), freq.min(axis=0)])   # (correct?, response)
    assert r["meta_I"] == pytest.approx(mb.info.mutual_information(correct), abs=1e-10)
    assert r["min_info"] - 1e-12 <= r["info"] <= r["max_info"] + 1e-12
    if np.isfinite(r["RMI"]):
        assert -1e-9 <= r["RMI"] <= 1 + 1e-9


def test_stack_equals_loop():
    rng = np.random.default_rng(3)
    stack = rng.integers(1, 80, size=(5, 2, 4))
    res = mb.type2_measures(stack)
    for i, t in enumerate(stack):
        one = mb.type2_measures(t)
        for k in ("acc", "info", "meta_I", "meta_I1r", "meta_I2r", "RMI"):
            assert res[k][i] == pytest.approx(one[k], abs=1e-12)


def test_extreme_tables():
    no_meta = mb.type2_measures([[70, 70, 30, 30], [30, 30, 70, 70]])
    assert no_meta["RMI"] == pytest.approx(0, abs=1e-12)
    best = mb.type2_measures([[80, 60, 60, 0], [0, 60, 60, 80]])
    assert best["RMI"] == pytest.approx(1, abs=1e-12)
    flipped = mb.type2_measures([[12, 48, 56, 84], [76, 64, 56, 4]])  # responses reversed
    assert flipped["d_prime"] < 0
    assert flipped["meta_I1r"] == pytest.approx(mb.type2_measures(
        [[84, 56, 48, 12], [4, 56, 64, 76]])["meta_I1r"])


def test_bias_reduction_is_seeded_and_moves_towards_truth():
    """Binary-noise data (true RMI = 0): the plug-in RMI is biased upwards; reduction lowers it."""
    rng = np.random.default_rng(7)
    # each label: 70% correct, confidence bin chosen at random -> no metacognition at all
    p = np.array([[0.35, 0.35, 0.15, 0.15], [0.15, 0.15, 0.35, 0.35]])
    counts = np.stack([rng.multinomial(200, p[0], size=300), rng.multinomial(200, p[1], size=300)],
                      axis=1)
    plain = mb.type2_measures(counts)
    reduced = mb.type2_measures(counts, bias_reduction=200, rng=1)
    again = mb.type2_measures(counts, bias_reduction=200, rng=1)
    assert np.array_equal(reduced["RMI"], again["RMI"])
    assert plain["RMI"].mean() > 0.01
    assert abs(reduced["RMI"].mean()) < plain["RMI"].mean() / 3
    assert np.allclose(reduced["RMI"], plain["RMI"] - reduced.bias["RMI"])


def test_undefined_measures():
    perfect = [[100, 0, 0, 0], [0, 0, 0, 100]]
    with pytest.raises(ValueError, match="meta_I1r is undefined"):
        mb.type2_measures(perfect)
    r = mb.type2_measures(perfect, undefined="nan")
    assert np.isnan(r["RMI"]) and np.isnan(r["meta_I1r"]) and r["acc"] == 1.0
    with pytest.raises(ValueError, match=r"undefined \(table \(1,\)\)"):
        mb.type2_measures([[[84, 56, 48, 12], [4, 56, 64, 76]],
                           [[50, 50, 50, 50], [50, 50, 50, 50]]])


@pytest.mark.parametrize("counts, match", [
    ([[84, 56, 48, -12], [4, 56, 64, 76]], "non-negative"),
    ([[84, 56, 48, np.nan], [4, 56, 64, 76]], "finite"),
    ([[84, 56, 48], [4, 56, 64, 76]], "regular shape"),
    ([[84, 56, 48, 12]], r"2 x 2K table"),
    ([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], r"2 x 2K table"),
    ([[1, 2, 3], [4, 5, 6]], "even number"),
    ([[0, 0, 0, 0], [0, 0, 0, 0]], "all zero"),
    ([[0, 0, 0, 0], [4, 56, 64, 76]], "empty row"),
    ("not a table", "numeric array"),
])
def test_bad_counts(counts, match):
    with pytest.raises(ValueError, match=match):
        mb.type2_measures(counts)


@pytest.mark.parametrize("kwargs, match", [
    (dict(bias_reduction=-1), "integer >= 0"),
    (dict(bias_reduction=2.5), "integer >= 0"),
    (dict(undefined="ignore"), "'raise' or 'nan'"),
])
def test_bad_options(table1, kwargs, match):
    with pytest.raises(ValueError, match=match):
        mb.type2_measures(table1, **kwargs)


@pytest.mark.parametrize("counts, match", [
    (np.array([[84, 56, 48, 12], [4, 56, 64, 76]]) * 10 ** 7, "needs resampling tables"),
    ([[1e9, 1e9], [1e9, 3e9]], r"a table of counts with 6,000,000,000 trials is too large"),
])
def test_bias_reduction_refuses_tables_too_large_before_allocating(counts, match):
    # both were MemoryErrors (the resampler's tables; the n log n and z-score tabulations)
    with pytest.raises(ValueError, match=match):
        mb.type2_measures(counts, bias_reduction=2, rng=0)


def test_bias_reduction_needs_whole_counts():
    with pytest.raises(ValueError, match="whole numbers"):
        mb.type2_measures([[84.5, 56, 48, 12], [4, 56, 64, 76]], bias_reduction=10, rng=0)
