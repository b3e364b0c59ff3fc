"""Exact tables under any confidence bins, and the best bins (metabits.info).

Checked against binned simulated trials, the unbinned information and a grid search (the
book's simulation module, at the paper's one edge, is tests/test_simulation.py's).
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.special import expit

import metabits as mb
from metabits.info import _binning as binning


# --- binning -----------------------------------------------------------------------------------

def test_binned_table_matches_binned_simulated_trials():
    # 200,000 trials per label of a normal-noise classifier at 80%: observation, its sign the
    # prediction, its calibrated confidence (metabits.info)
    label = np.repeat([-1.0, 1.0], 200_000)
    x = mb.info.sample_observations("normal", 0.8, label, np.random.default_rng(5))
    confidence = mb.info.confidence_from_observation("normal", x, 0.8)
    edges = np.array([0.6, 0.9])
    level = np.digitize(confidence, edges)                         # 0, 1, 2
    col = np.where(x > 0, 3 + level, 2 - level)
    counts = np.array([np.bincount(col[label == y], minlength=6) for y in (-1, 1)])
    exact = binning.binned_response_probabilities("normal", 0.8, edges)
    np.testing.assert_allclose(counts / 200_000, exact, atol=4 * np.sqrt(0.25 / 200_000))


def test_fine_bins_recover_the_unbinned_information():
    edges = expit(np.linspace(0.02, 8, 400))
    for acc in (0.6, 0.8):
        info = mb.type2_measures(binning.binned_response_probabilities("normal", acc, edges)).info
        assert info == pytest.approx(mb.info.noise_info("normal", acc), abs=2e-4)
        assert info < mb.info.noise_info("normal", acc)


@given(st.lists(st.floats(0.51, 0.99), min_size=1, max_size=4, unique=True),
       st.floats(0.51, 0.99), st.floats(0.55, 0.95))
def test_another_edge_never_loses_information(edges, extra, acc):
    e = np.sort(edges)
    assume(np.all(np.diff(e) > 1e-3) and np.min(np.abs(e - extra)) > 1e-3)
    finer = np.sort(np.append(e, extra))
    coarse = mb.type2_measures(binning.binned_response_probabilities("normal", acc, e)).info
    fine = mb.type2_measures(binning.binned_response_probabilities("normal", acc, finer)).info
    assert fine >= coarse - 1e-12          # data processing inequality


@pytest.mark.slow
def test_best_binning_against_a_grid():
    grid = np.linspace(0.505, 0.995, 981)
    for acc in (0.6, 0.9):
        info = [mb.type2_measures(binning.binned_response_probabilities("normal", acc, [e])).info
                for e in grid]
        best = binning.best_binning(acc, 2)
        assert best.info == pytest.approx(max(info), abs=1e-6)
        assert best.edges[0] == pytest.approx(grid[int(np.argmax(info))], abs=2e-3)
    three = binning.best_binning(0.7, 3)
    assert binning.best_binning(0.7, 2).info < three.info < three.info_unbinned


def test_binning_rejects_bad_edges():
    with pytest.raises(ValueError, match="increasing"):
        binning.binned_response_probabilities("normal", 0.7, [0.9, 0.8])
    with pytest.raises(ValueError, match="between 0.5 and 1"):
        binning.binned_response_probabilities("normal", 0.7, [0.5])
