"""metabits.plots: figures of one's own data, checked by what they draw."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import metabits as mb  # noqa: E402
from conftest import SHEKHAR_2018  # noqa: E402


@pytest.fixture(scope="module")
def results():
    return mb.measure(SHEKHAR_2018, measures=["acc", "m_ratio", "auroc2"], n_boot=50, rng=0)


@pytest.fixture(autouse=True)
def close():
    yield
    plt.close("all")


def test_forest_draws_each_person_in_order_with_the_interval(results):
    ax = mb.plots.forest(results, "m_ratio")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    order = results.sort_values("m_ratio")["Subj_idx"].astype(str).tolist()
    assert labels == order
    points = ax.collections[-1].get_offsets()
    np.testing.assert_allclose(points[:, 0], np.sort(results["m_ratio"]))
    segments = ax.collections[0].get_segments()  # the interval bars, bottom row first
    lows = [s[0][0] for s in segments]
    np.testing.assert_allclose(lows, results.sort_values("m_ratio")["m_ratio_lo"])
    assert "M-ratio" in ax.get_xlabel()


def test_against_accuracy_puts_each_person_at_their_accuracy(results):
    ax = mb.plots.against_accuracy(results, "auroc2")
    points = ax.collections[-1].get_offsets()
    np.testing.assert_allclose(points[:, 0], results["acc"])
    np.testing.assert_allclose(points[:, 1], results["auroc2"])


def test_type2_roc_curves_are_the_library_curves():
    ax = mb.plots.type2_roc_curves(SHEKHAR_2018)
    counts = mb.read_trials(SHEKHAR_2018).tables().counts
    fpr, tpr = mb.sdt.type2_roc(counts)
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) == fpr.shape[-1]]
    assert len(lines) == len(counts)
    np.testing.assert_allclose(lines[0].get_xdata(), fpr[0])
    np.testing.assert_allclose(lines[0].get_ydata(), tpr[0])


def test_bad_input_is_named(results):
    with pytest.raises(ValueError, match="results must be the DataFrame metabits.measure"):
        mb.plots.forest(results[["acc"]], "acc")
    with pytest.raises(ValueError, match="unknown measure 'meta_d'"):
        mb.plots.forest(results, "meta_d")
    with pytest.raises(ValueError, match="long format"):
        mb.plots.forest(mb.measure(SHEKHAR_2018, measures=["acc"], long=True), "acc")


@pytest.mark.slow
def test_every_measure_of_measures_all_can_be_drawn():
    rng = np.random.default_rng(0)
    import pandas as pd

    d = pd.DataFrame({"subject": np.repeat(range(3), 200), "stimulus": np.tile([0, 1], 300)})
    d["response"] = np.where(rng.random(600) < 0.75, d.stimulus, 1 - d.stimulus)
    d["confidence"] = rng.integers(1, 4, 600) + (d.response == d.stimulus)
    r = mb.measure(d, measures="all", bias_reduction=20, rng=0)
    measures = [c for c in r.columns if c not in ("subject", "n_trials", "K", "flags")]
    assert measures == list(mb.MEASURE_COLUMNS) + ["meta_I_br", "meta_I1r_br", "meta_I2r_br",
                                                  "RMI_br"]
    drawn = 0
    for name in measures:
        if not np.isfinite(r[name]).any():
            continue
        ax = mb.plots.forest(r, name)
        assert ax.get_xlabel() == mb.plots.LABELS[name]
        ax = mb.plots.against_accuracy(r, name)
        assert ax.get_ylabel() == mb.plots.LABELS[name]
        plt.close("all")
        drawn += 1
    assert drawn >= len(measures) - 2  # at most meta-noise and meta-uncertainty not finite
