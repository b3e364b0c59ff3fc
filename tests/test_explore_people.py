"""The Confidence Database explorer (metabits_book.explore.people) and its shipped intervals
(metabits_book.studies.database_intervals).

Independent checks: the shipped file against a fresh bootstrap of some data sets (the rule that
regenerates it), every frame's points against the shipped numbers, the least-squares line
against numpy's polyfit of the frame's own points, the correlation in the caption against
numpy's corrcoef, and the page weight of the whole explorer.
"""

import re

import numpy as np
import pytest

from metabits_book import explore
from metabits_book.explore.people import PEOPLE_LABELS, explorer_sets, people_explorer
from metabits_book.studies.database_copy import confidence_database
from metabits_book.studies.database_intervals import (INTERVAL_MEASURES, people_intervals, rounded,
                                                      shipped_intervals)


@pytest.fixture(scope="module")
def db():
    return confidence_database()


@pytest.fixture(scope="module")
def shipped():
    return shipped_intervals()


@pytest.fixture(scope="module")
def explorer():
    return people_explorer()


def test_shipped_intervals_equal_a_fresh_bootstrap_of_some_data_sets(db, shipped):
    """Each data set has its own seeded generator, so two of them recomputed alone give their
    rows of the shipped file (rounded to thousandths as shipped)."""
    sets = ["Clark_2018", "Jachs_2015_Exp3"]
    fresh = rounded(people_intervals(db, sets, n_boot=shipped.n_boot, seed=shipped.seed))
    rows = np.isin(shipped.dataset, [db.names.index(s) for s in sets])
    assert rows.sum() == 14
    for a, b in ((fresh.acc, shipped.acc[rows]), (fresh.estimate, shipped.estimate[rows]),
                 (fresh.lower, shipped.lower[rows]), (fresh.upper, shipped.upper[rows])):
        np.testing.assert_allclose(a, b, atol=1.01e-3, equal_nan=True)
    assert shipped.names == INTERVAL_MEASURES and shipped.n_boot == 200


def test_shipped_intervals_hold_their_estimates(shipped):
    est, lo, hi = shipped.estimate, shipped.lower, shipped.upper
    ok = np.isfinite(est) & np.isfinite(lo) & np.isfinite(hi)
    # the plug-in value lies in its percentile interval for nearly every person and measure
    inside = ((lo <= est + 1e-3) & (est <= hi + 1e-3))[ok].mean()
    assert inside > 0.97
    assert len(shipped.acc) == 4323 and np.nanmin(shipped.acc) >= 0.0


def test_explorer_menus(db, explorer):
    names = explorer_sets(db)
    sizes = {n: (db.dataset == i).sum() for i, n in enumerate(db.names)}
    for n in names:
        i = db.names.index(n)
        assert sizes[n] >= 10 and np.median(db.n_trials[db.dataset == i]) >= 100
    assert explorer.controls[0].values == names
    assert explorer.controls[1].values == tuple(PEOPLE_LABELS.values())
    assert len(explore.grid(explorer)) == len(names) * len(PEOPLE_LABELS)


@pytest.mark.parametrize("dataset, measure", [("Shekhar_2018", "RMI"),
                                              ("Rouault_2018_Expt1", "M-ratio"),
                                              ("Kantner_2010", "AUROC2"),
                                              ("Adler_2018_Expt3", "meta-d′")])
def test_frames_are_the_shipped_numbers(db, shipped, explorer, dataset, measure):
    key = {v: k for k, v in PEOPLE_LABELS.items()}[measure]
    v = explorer.view(dataset=dataset, measure=measure)
    people = v.trace("people")
    rows = shipped.dataset == db.names.index(dataset)
    est, lo, hi = (a[rows] for a in shipped.measure(key))
    ok = np.isfinite(est)
    if key == "m_ratio":
        ok &= (est >= -1) & (est <= 3)
    if key == "meta_d":
        ok &= (est >= -1) & (est <= 5)
    np.testing.assert_allclose(people.x, np.round(shipped.acc[rows][ok], 3))
    np.testing.assert_allclose(people.y, np.round(est[ok], 2))
    assert (people.ylow <= people.y).all() and (people.y <= people.yhigh).all()
    n = int(ok.sum())
    assert re.search(rf"{dataset}, {re.escape(measure)}: {n} people", v.caption)
    slope, icept = np.polyfit(people.x, people.y, 1)
    line = v.trace("least-squares line")
    np.testing.assert_allclose(line.y, np.round(icept + slope * line.x, 2), atol=0.006)
    r = np.corrcoef(people.x, people.y)[0, 1]
    assert f"r = {r:.2f}" in v.caption
    width = np.median(people.yhigh - people.ylow)
    assert f"intervals {width:.2f}" in v.caption


def test_explorer_page_weight_and_error_bars(explorer):
    """All frames are in the page: the explorer stays under 1.5 MB (the browser test's page
    budget is 3 MB), and the web frames carry the intervals as plotly error bars."""
    page = explore.static_html(explorer)
    assert len(page.encode()) < 1_500_000, f"{len(page.encode()) / 1e6:.2f} MB"
    figs = explore.plotly_figures(explorer)
    d = figs[0]["data"][0]
    assert d["error_y"]["type"] == "data" and len(d["error_y"]["array"]) == len(d["x"])
    assert all(a >= 0 for a in d["error_y"]["array"] + d["error_y"]["arrayminus"])


def test_live_explorer_draws_error_bars(explorer):
    fig = explore.to_matplotlib(explorer)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "accuracy" and len(ax.collections) >= 1   # the error bars


def test_bad_menus_are_refused():
    with pytest.raises(ValueError, match="sets"):
        people_explorer(sets=["Nobody_2020"])
    with pytest.raises(ValueError, match="measures"):
        people_explorer(measures=["auroc2", "auroc2"])
    with pytest.raises(ValueError, match="default_set"):
        people_explorer(sets=["Shekhar_2018"], default_set="Kantner_2010")
    with pytest.raises(ValueError, match="ylow"):
        explore.frames(explore.Explorer(
            "x", "x", (explore.control("a", "a", (1.0,)),), (explore.Panel("p", "x", "y"),),
            lambda a: explore.View((explore.Trace("t", [1.0], [1.0], kind="line", ylow=[0.0],
                                                  yhigh=[2.0]),), "c")))
