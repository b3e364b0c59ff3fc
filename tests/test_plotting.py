"""Layout of Figures 6-7 (metabits_book.plotting.plot_six_measures): legible in the book's column.

The book shows a figure at most 688 px wide; the notebook's inline figure is drawn at
``figure.dpi`` = 110 (use_book_style). A figure wider than 688 / 110 = 6.25 in is shrunk, so
its text must be large enough to survive that: the default 3 x 2 grid is 7.2 in wide (shrunk to
at most 87%) and has no text below 9 pt, which keeps every label at 9 px or more on screen.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from metabits_book.studies import simulation as sim  # noqa: E402
from metabits_book import use_book_style  # noqa: E402
from metabits_book.plotting import SIX_PANELS, plot_six_measures  # noqa: E402

KINDS = ("uniform", "normal", "binary")
COLUMN_PX = 688


@pytest.fixture(scope="module")
def study():
    results = sim.measure_study(sim.simulate_study(n_sets=5, rng=1))
    grid = np.linspace(0.51, 0.97, 12)
    lines = {kind: sim.theoretical_measures(kind, grid) for kind in KINDS}
    return results, lines


def texts(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [t for t in fig.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text().strip()
            and t.get_window_extent(renderer).width > 0]


def test_default_is_three_rows_of_two_and_fits_the_column(study):
    use_book_style()
    fig = plot_six_measures(*study)
    try:
        grid = [ax.get_subplotspec().get_geometry()[:2] for ax in fig.axes]
        assert set(grid) == {(3, 2)}
        assert [ax.get_title() for ax in fig.axes] == [title for _, title, _, _ in SIX_PANELS]
        width_in = fig.get_size_inches()[0]
        assert width_in <= 7.5
        shown = min(1.0, COLUMN_PX / (width_in * fig.dpi))        # the browser's shrink factor
        smallest = min(t.get_fontsize() for t in texts(fig))
        assert smallest >= 9
        assert smallest * fig.dpi / 72 * shown >= 9               # pixels on screen
        # x labels on the bottom row only (the x axis is shared)
        labelled = [ax.get_xlabel() == "accuracy acc" for ax in fig.axes]
        assert labelled == [False, False, False, False, True, True]
    finally:
        plt.close(fig)


def test_the_old_two_rows_of_three_are_still_available(study):
    fig = plot_six_measures(*study, ncols=3)
    try:
        assert {ax.get_subplotspec().get_geometry()[:2] for ax in fig.axes} == {(2, 3)}
        assert np.allclose(fig.get_size_inches(), (10.8, 5.5))
        assert [ax.get_xlabel() != "" for ax in fig.axes] == [False] * 3 + [True] * 3
    finally:
        plt.close(fig)


@pytest.mark.parametrize("ncols", [0, 4, 5, 2.5])
def test_ncols_must_divide_the_six_panels(study, ncols):
    with pytest.raises(ValueError, match="ncols"):
        plot_six_measures(*study, ncols=ncols)
    plt.close("all")


def test_given_axes_are_used_as_they_are(study):
    fig, axes = plt.subplots(1, 6, figsize=(12, 2))
    try:
        assert plot_six_measures(*study, axes=axes) is fig
        assert all(ax.get_xlabel() == "accuracy acc" for ax in axes)   # one row: all bottom
        assert len(fig.axes) == 6
    finally:
        plt.close(fig)


def test_unknown_kind_or_missing_measure_is_a_value_error(study):
    results, lines = study
    with pytest.raises(ValueError, match="noise"):
        plot_six_measures(results, lines, kinds=("uniform", "gaussian", "binary"))
    partial = {k: v for k, v in results.items() if k != "RMI"}
    with pytest.raises(ValueError, match="missing RMI"):
        plot_six_measures(partial, lines)
    with pytest.raises(ValueError, match="normal: meta_I"):
        plot_six_measures(results, {**lines, "normal": {k: v for k, v in lines["normal"].items()
                                                        if k != "meta_I"}})
