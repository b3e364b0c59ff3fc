"""The explorers: their frames equal the library, their pages parse, bad input fails.

Each Part I explorer of :mod:`metabits_book.explore` is checked at every point of a small grid
against direct calls of the library functions its docstring names, and where a theorem or an
independent computation exists, against that too (the confidence bars against a histogram of
:func:`~metabits.info.discrete_confidence` or the integral of the normal confidence density,
majority vote against the binomial distribution, the fitted M-ratio against meta-d′/d′ of the
model that made the table). Then the machinery: the order of :func:`grid` and :func:`frames`
(the last control fastest, as ``np.ravel_multi_index`` in :func:`static_html` assumes), the
static HTML (its controls and its JSON), the plotly figures (validated by plotly itself), the
matplotlib figure, the live ipywidgets explorer, and a ValueError naming the problem for bad
input. The website in a browser is tests/test_explore_browser.py; the Part III explorers are
tests/test_explore_part3.py.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from math import comb

import numpy as np
import pytest

from metabits_book import explore as ex
from metabits.info import info_bounds
from metabits.group import (cwmv_accuracy, group_accuracy_bounds, majority_vote_accuracy,
                            noise_group)
from metabits.info import type2_measures
from metabits.sdt import fit_meta_d
from metabits.info import discrete_confidence, dprime_from_accuracy, noise_info
from metabits.info import roc_bounds_type1, roc_bounds_type2, roc_curve_type1, roc_curve_type2
from metabits.sdt import rating_probabilities

KINDS = ("uniform", "normal", "binary")
# the noise explorer's confidence bins: [0.5, 0.55), [0.55, 0.6), ..., [0.95, 1]
EDGES = np.round(np.arange(0.55, 0.951, 0.05), 2)


def _settings(explorer):
    """Every setting of a small explorer with its view, built without :func:`ex.grid`."""
    shape = [len(c.values) for c in explorer.controls]
    for i in range(int(np.prod(shape))):
        idx = np.unravel_index(i, shape)
        yield {c.name: c.values[k] for c, k in zip(explorer.controls, idx)}


# --- the noise cases explorer --------------------------------------------------------------------

NOISE_ACC = (0.55, 0.62, 0.7, 0.85, 0.95)


def _confidence_histogram(kind, acc):
    """P(confidence in each bin), independently of metabits.info."""
    if kind == "normal":
        from scipy.integrate import quad

        from metabits.info import normal_confidence_pdf

        d = dprime_from_accuracy(acc)
        lims = np.concatenate([[0.5], EDGES, [1.0]])
        return np.array([quad(normal_confidence_pdf, lo, hi, args=(d,))[0]
                         for lo, hi in zip(lims[:-1], lims[1:])])
    values, weights = discrete_confidence(kind, acc)
    hist = np.zeros(EDGES.size + 1)
    np.add.at(hist, np.searchsorted(EDGES, values, side="right"), weights)
    return hist


@pytest.fixture(scope="module")
def noise_explorer():
    return ex.noise_cases_explorer(acc=NOISE_ACC)


def test_noise_explorer_every_frame_matches_the_library(noise_explorer):
    views = ex.frames(noise_explorer)
    settings = list(_settings(noise_explorer))
    assert len(views) == len(settings) == len(NOISE_ACC) * len(KINDS)
    for setting, view in zip(settings, views):
        acc, kind = setting["acc"], setting["kind"]
        point = view.trace("this classifier")
        assert point.panel == 1 and point.kind == "points"
        np.testing.assert_allclose(point.x, [acc])
        np.testing.assert_allclose(point.y, [noise_info(kind, acc)], rtol=1e-12)
        lo, hi = info_bounds(acc)
        assert lo - 1e-12 <= point.y[0] <= hi + 1e-12  # Theorem 3
        bars = view.trace("confidence")
        np.testing.assert_allclose(bars.y, _confidence_histogram(kind, acc), atol=1e-7,
                                   err_msg=f"{kind} noise at {acc}")
        assert bars.y.sum() == pytest.approx(1.0, abs=1e-9)
        assert np.all(bars.y >= 0)
        # Proposition 1: mean confidence = accuracy, up to the half-width of a bin
        assert abs(np.dot(bars.x, bars.y) - acc) <= 0.025 + 1e-12
        np.testing.assert_allclose(view.trace("mean confidence = accuracy").x, [acc, acc])
        assert f"{noise_info(kind, acc):.3f} bit" in view.caption
        assert f"{lo:.3f} to {hi:.3f} bit" in view.caption


def test_noise_explorer_fixed_traces_are_theorem_3(noise_explorer):
    fixed = {t.name: t for t in noise_explorer.fixed}
    region = fixed["Theorem 3 region"]
    lower, upper = info_bounds(region.x)
    np.testing.assert_allclose(region.y, lower)
    np.testing.assert_allclose(region.y2, upper)
    normal = fixed["normal noise"]
    inner = normal.x < 1.0
    np.testing.assert_allclose(normal.y[inner], noise_info("normal", normal.x[inner]))
    # the uniform and binary cases are the bounds themselves (Theorem 3)
    a = np.array([0.6, 0.75, 0.9])
    np.testing.assert_allclose(noise_info("uniform", a), info_bounds(a)[1], atol=1e-12)
    np.testing.assert_allclose(noise_info("binary", a), info_bounds(a)[0], atol=1e-12)


# --- the ROC explorer ----------------------------------------------------------------------------

ROC_ACC = (0.55, 0.7, 0.8, 0.95)


def test_roc_explorer_bands_and_curves_match_the_library():
    e = ex.roc_explorer(acc=ROC_ACC)
    for setting, view in zip(_settings(e), ex.frames(e)):
        acc = setting["acc"]
        for panel, bounds, curve in ((0, roc_bounds_type1, roc_curve_type1),
                                     (1, roc_bounds_type2, roc_curve_type2)):
            band = view.trace("possible curves", panel=panel)
            lo, hi = bounds(band.x, acc)
            np.testing.assert_allclose(band.y, lo, atol=1e-12)
            np.testing.assert_allclose(band.y2, hi, atol=1e-12)
            assert np.all(band.y <= band.y2 + 1e-12)
            for kind in KINDS:
                t = view.trace(f"{kind} noise", panel=panel)
                x, y = curve(kind, acc, n=61) if kind == "normal" else curve(kind, acc)
                np.testing.assert_allclose(t.x, x, atol=1e-12)
                np.testing.assert_allclose(t.y, y, atol=1e-12)
                # Propositions 4 and 5: every classifier's curve lies in the region
                assert np.all(np.interp(t.x, band.x, band.y) <= t.y + 1e-6), (kind, acc, panel)
                assert np.all(t.y <= np.interp(t.x, band.x, band.y2) + 1e-6), (kind, acc, panel)
        band = view.trace("possible curves", panel=0)
        area = np.sum(np.diff(band.x) * ((band.y2 - band.y)[1:] + (band.y2 - band.y)[:-1]) / 2)
        assert f"(area {area:.3f})" in view.caption


# --- the group explorer --------------------------------------------------------------------------

def _mv_binomial(acc, K):
    """Majority vote of K independent members, ties broken by a fair coin."""
    win = sum(comb(K, j) * acc**j * (1 - acc) ** (K - j) for j in range(K // 2 + 1, K + 1))
    tie = comb(K, K // 2) * (acc * (1 - acc)) ** (K // 2) if K % 2 == 0 else 0.0
    return win + tie / 2


def test_group_explorer_values_match_the_library():
    sizes = (1, 2, 3, 6)
    e = ex.group_explorer(acc=(0.55, 0.7, 0.9), K=sizes)
    Ks = np.arange(1, max(sizes) + 1)
    for setting, view in zip(_settings(e), ex.frames(e)):
        acc, K = setting["acc"], setting["K"]
        at_k = dict(zip(view.trace("at K").y, view.trace("at K").x))
        assert at_k["MV"] == pytest.approx(majority_vote_accuracy(acc, K), abs=1e-12)
        assert at_k["MV"] == pytest.approx(_mv_binomial(acc, K), abs=1e-12)
        assert at_k["CWMV"] == pytest.approx(cwmv_accuracy(np.full(K, acc)), abs=1e-12)
        bounds = group_accuracy_bounds(np.full(K, acc), np.full(K, acc))
        assert at_k["Theorem 8 lower"] == pytest.approx(bounds.lower, abs=1e-12)
        assert at_k["Theorem 8 upper"] == pytest.approx(bounds.upper, abs=1e-12)
        for kind in KINDS:
            value = at_k[f"PCWMV, {kind} noise"]
            assert value == pytest.approx(noise_group(kind, acc, K)["acc"], abs=1e-9)
            # Theorem 8: every confidence-weighted group lies within the bounds
            assert bounds.lower - 1e-9 <= value <= bounds.upper + 1e-9
        # the curves against group size, over 1..max K
        np.testing.assert_allclose(view.trace("MV").x, Ks)
        np.testing.assert_allclose(view.trace("MV").y, [_mv_binomial(acc, k) for k in Ks],
                                   atol=1e-12)
        band = view.trace("Theorem 8 bounds")
        np.testing.assert_allclose(
            band.y, [group_accuracy_bounds(np.full(k, acc), np.full(k, acc)).lower for k in Ks])
        point = view.trace("group of K")
        np.testing.assert_allclose(point.x, [K])
        np.testing.assert_allclose(point.y, [at_k["PCWMV, uniform noise"]])
        assert f"majority vote {_mv_binomial(acc, K):.3f}" in view.caption


# --- the Type 2 explorer -------------------------------------------------------------------------

def test_type2_explorer_table_and_measures_match_the_library():
    e = ex.type2_explorer(d=(1.0, 2.0), meta_d=(0.5, 1.0, 2.0), levels=4)
    for setting, view in zip(_settings(e), ex.frames(e)):
        d, meta_d = setting["d"], setting["meta_d"]
        table = rating_probabilities(d, meta_d, K=4)
        s1, s2 = view.trace("S1 presented"), view.trace("S2 presented")
        assert s1.x == s2.x == ("S1 4", "S1 3", "S1 2", "S1 1", "S2 1", "S2 2", "S2 3", "S2 4")
        np.testing.assert_allclose(s1.y, table[0], atol=1e-12)
        np.testing.assert_allclose(s2.y, table[1], atol=1e-12)
        assert s1.y.sum() == pytest.approx(1.0) and s2.y.sum() == pytest.approx(1.0)
        measures = dict(zip(view.trace("measure").y, view.trace("measure").x))
        fit = fit_meta_d(np.asarray(table) * 1000)
        assert measures["M-ratio"] == pytest.approx(fit.m_ratio, rel=1e-9)
        # the table is the meta-d′ model's own: the fit recovers meta-d′ / d′
        assert measures["M-ratio"] == pytest.approx(meta_d / d, abs=2e-3)
        m = type2_measures(table)
        assert measures["meta-I₁ʳ"] == pytest.approx(m.meta_I1r, rel=1e-12)
        assert measures["meta-I₂ʳ"] == pytest.approx(m.meta_I2r, rel=1e-12)
        assert measures["RMI"] == pytest.approx(m.RMI, rel=1e-12)
        assert f"M-ratio {meta_d / d:.2f}" in view.caption


# --- grid and frame order ------------------------------------------------------------------------

def test_grid_and_frames_run_the_last_control_fastest():
    e = ex.group_explorer(acc=(0.6, 0.7, 0.8), K=(1, 2, 4, 5))
    g = ex.grid(e)
    shape = (3, 4)
    assert len(g) == 12
    for i, setting in enumerate(g):
        a, k = np.unravel_index(i, shape)
        assert setting == {"acc": (0.6, 0.7, 0.8)[a], "K": (1, 2, 4, 5)[k]}
        assert int(np.ravel_multi_index((a, k), shape)) == i
    assert [s["K"] for s in g[:4]] == [1, 2, 4, 5]  # the last control moves first
    for setting, view in zip(g, ex.frames(e)):
        assert view.caption == e.draw(**setting).caption
        members = "1 member" if setting["K"] == 1 else f"{setting['K']} members"
        assert view.caption.startswith(f"{members} of {setting['acc']:.0%}")


# --- the static page -----------------------------------------------------------------------------

class _Controls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ranges, self.selects, self.options, self.panels = [], [], {}, 0
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("type") == "range":
            self.ranges.append(a)
        elif tag == "select":
            self.selects.append(a)
            self._select = a["data-control"]
            self.options[self._select] = []
        elif tag == "option":
            self.options[self._select].append(a)
        elif tag == "div" and "mbx-panel" in a.get("class", "").split():
            self.panels += 1


def _spec(page):
    found = re.findall(r'<script type="application/json" class="mbx-data">(.*?)</script>', page,
                       flags=re.S)
    assert len(found) == 1
    return json.loads(found[0])


@pytest.mark.parametrize("make", [
    lambda: ex.noise_cases_explorer(acc=(0.6, 0.7, 0.8)),
    lambda: ex.roc_explorer(acc=(0.6, 0.7, 0.8, 0.9)),
    lambda: ex.group_explorer(acc=(0.6, 0.7), K=(1, 2, 3)),
    lambda: ex.type2_explorer(d=(1.0, 2.0), meta_d=(0.5, 1.0)),
], ids=["noise", "roc", "group", "type2"])
def test_static_html_has_a_frame_per_setting_and_a_control_per_control(make):
    e = make()
    page = ex.static_html(e)
    parsed = _Controls()
    parsed.feed(page)
    numeric = [c for c in e.controls if c.numeric]
    menus = [c for c in e.controls if not c.numeric]
    assert len(parsed.ranges) == len(numeric)
    assert len(parsed.selects) == len(menus)
    assert parsed.panels == len(e.panels)
    for r, c in zip(parsed.ranges, numeric):
        assert (r["min"], r["max"], r["value"]) == ("0", str(len(c.values) - 1),
                                                    str(c.values.index(c.default)))
    for s, c in zip(parsed.selects, menus):
        assert len(parsed.options[s["data-control"]]) == len(c.values)
    spec = _spec(page)
    shape = [len(c.values) for c in e.controls]
    assert spec["shape"] == shape
    n = int(np.prod(shape))
    assert len(spec["frames"]) == len(spec["captions"]) == n
    assert all(len(frame) == len(e.panels) for frame in spec["frames"])
    settings = list(_settings(e))
    for i in range(n):  # frame i is the setting at np.unravel_index(i, shape)
        assert spec["captions"][i] == e.draw(**settings[i]).caption
    start = int(np.ravel_multi_index([c.values.index(c.default) for c in e.controls], shape))
    assert spec["start"] == list(np.unravel_index(start, shape))
    shown = html.escape(spec["captions"][start])
    assert f'<p class="mbx-caption" aria-live="polite">{shown}</p>' in page


def test_static_html_frame_data_are_the_library_numbers():
    e = ex.noise_cases_explorer(acc=(0.6, 0.7, 0.8))
    spec = _spec(ex.static_html(e))
    for i, setting in enumerate(_settings(e)):
        point = [t for t in spec["frames"][i][1] if t["name"] == "this classifier"]
        assert len(point) == 1
        # DIGITS significant digits on the page
        assert point[0]["y"][0] == pytest.approx(noise_info(setting["kind"], setting["acc"]),
                                                 rel=1e-4)


def test_plotly_figures_validate_with_plotly():
    go = pytest.importorskip("plotly.graph_objects")
    for e in (ex.noise_cases_explorer(acc=(0.6, 0.7)), ex.roc_explorer(acc=(0.6, 0.7)),
              ex.group_explorer(acc=(0.6, 0.7), K=(1, 3)),
              ex.type2_explorer(d=(1.0,), meta_d=(0.5, 1.0))):
        views = ex.frames(e)
        for view in (None, views[0], views[-1]):
            figs = ex.plotly_figures(e, view)
            assert len(figs) == len(e.panels)
            for p, fig in enumerate(figs):
                validated = go.Figure(fig)  # raises ValueError for any invalid property
                assert validated.layout.title.text == e.panels[p].title
                assert len(validated.data) == len(fig["data"]) > 0


def test_to_matplotlib_draws_one_axes_per_panel():
    for e in (ex.noise_cases_explorer(acc=(0.6, 0.7)),
              ex.group_explorer(acc=(0.6, 0.7), K=(1, 3)),
              ex.type2_explorer(d=(1.0,), meta_d=(0.5, 1.0))):
        fig = ex.to_matplotlib(e)
        assert len(fig.axes) == len(e.panels)
        assert [ax.get_title() for ax in fig.axes] == [p.title for p in e.panels]
        assert [ax.get_xlabel() for ax in fig.axes] == [p.xlabel for p in e.panels]
        assert all(ax.has_data() for ax in fig.axes)


# --- the live explorer ---------------------------------------------------------------------------

def _caption(out):
    return "".join(o.get("text", "") for o in out.outputs if o.get("output_type") == "stream")


def test_live_slider_and_menu_redraw_the_output():
    pytest.importorskip("ipywidgets")
    e = ex.noise_cases_explorer(acc=(0.6, 0.7, 0.8))
    box = ex.live(e)
    slider, menu = box.children[0].children
    out = box.children[1]
    assert type(slider).__name__ == "FloatSlider" and type(menu).__name__ == "Dropdown"
    assert _caption(out).strip() == e.view().caption
    assert any("image/png" in o.get("data", {}) for o in out.outputs)
    slider.value = 0.8
    assert _caption(out).strip() == e.view(acc=0.8, kind="uniform").caption
    assert "80% accuracy" in _caption(out)
    menu.value = "normal"
    assert _caption(out).strip() == e.view(acc=0.8, kind="normal").caption
    assert any("image/png" in o.get("data", {}) for o in out.outputs)


def test_live_integer_slider_of_the_group_explorer():
    pytest.importorskip("ipywidgets")
    e = ex.group_explorer(acc=(0.6, 0.7), K=(1, 2, 3, 4))
    box = ex.live(e)
    acc, size = box.children[0].children
    out = box.children[1]
    assert type(size).__name__ == "IntSlider"
    before = _caption(out)
    size.value = 4
    after = _caption(out)
    assert after != before and after.startswith("4 members of 70%")
    assert f"majority vote {_mv_binomial(0.7, 4):.3f}" in after


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("values, default, match", [
    ([], None, "must not be empty"),
    ([0.6, 0.6], None, "increase strictly"),
    ([0.7, 0.6], None, "increase strictly"),
    ([0.6, "normal"], None, "all numbers or all names"),
    (["a", "a"], None, "repeat a name"),
    ([0.6, float("nan")], None, "finite"),
    ([0.6, 0.7], 0.65, "default 0.65 of control 'acc' is not one of its values"),
    (["uniform", "normal"], "binary", "not one of its values"),
])
def test_control_rejects_bad_grids(values, default, match):
    with pytest.raises(ValueError, match=match):
        ex.control("acc", "accuracy", values, default=default)


def _toy(draw, controls=None):
    controls = (ex.control("a", "a", [1.0, 2.0]),) if controls is None else controls
    return ex.Explorer("toy", "toy", controls, (ex.Panel("p", "x", "y"),), draw)


def test_explorer_view_rejects_an_unknown_control():
    with pytest.raises(ValueError, match="unknown control 'accuracy'"):
        ex.roc_explorer(acc=(0.6, 0.7)).view(accuracy=0.6)


def test_an_explorer_without_controls_has_no_grid():
    with pytest.raises(ValueError, match="no controls"):
        ex.grid(_toy(lambda: ex.View((), ""), controls=()))


def test_a_draw_that_returns_no_view_is_rejected():
    with pytest.raises(ValueError, match="returned dict, not a View"):
        ex.frames(_toy(lambda a: {"x": [a]}))
    with pytest.raises(ValueError, match="not a View"):
        ex.static_html(_toy(lambda a: None))


@pytest.mark.parametrize("trace, match", [
    (ex.Trace("t", [0, 1, 2], [0, 1]), "trace 't' needs x, y"),
    (ex.Trace("t", [0, 1], [0, 1], kind="band"), "needs x, y"),  # a band without y2
    (ex.Trace("t", [0, 1], [0, 1], kind="area"), "trace kind"),
    (ex.Trace("t", [0, 1], [0, 1], dash="dashdot"), "line style"),
    (ex.Trace("t", [0, 1], [0, 1], panel=1), "panel of trace 't'"),
])
def test_bad_traces_are_rejected(trace, match):
    e = _toy(lambda a: ex.View((trace,), "c"))
    with pytest.raises(ValueError, match=match):
        ex.frames(e)
    with pytest.raises(ValueError, match=match):
        ex.to_matplotlib(e)


def test_group_sizes_beyond_20_or_not_integers_are_rejected():
    with pytest.raises(ValueError, match=r"group size K must be an integer >= 1 and <= 20; got 21"):
        ex.group_explorer(K=(1, 21))
    with pytest.raises(ValueError, match="group size K must be an integer"):
        ex.group_explorer(K=(1, 2.5))


@pytest.mark.parametrize("make", [
    lambda a: ex.noise_cases_explorer(acc=a),
    lambda a: ex.roc_explorer(acc=a),
], ids=["noise", "roc"])
@pytest.mark.parametrize("bad", [0.45, 1.0])
def test_accuracies_outside_half_to_one_are_rejected(make, bad):
    with pytest.raises(ValueError, match=r"acc must lie in \[0.5, 1\)"):
        ex.frames(make(tuple(sorted((0.6, bad)))))


def test_group_member_accuracies_below_half_are_rejected():
    with pytest.raises(ValueError, match="below the larger prior 0.5"):
        ex.frames(ex.group_explorer(acc=(0.4, 0.6), K=(1, 2)))


def test_bad_noise_kind_and_type2_parameters_are_rejected():
    with pytest.raises(ValueError, match="noise kind must be one of"):
        ex.noise_cases_explorer(kinds=("uniform", "gaussian"))
    with pytest.raises(ValueError, match="d' must be > 0"):
        ex.frames(ex.type2_explorer(d=(0.0, 1.0), meta_d=(1.0,)))
    with pytest.raises(ValueError, match="levels"):
        ex.type2_explorer(levels=1)


def test_show_needs_an_explorer():
    with pytest.raises(ValueError, match="show needs an Explorer; got dict"):
        ex.show({"acc": 0.7})


def test_live_bars_of_two_traces_stand_side_by_side():
    """S1 and S2 bars of the Type 2 table: grouped as on the website, not drawn on top."""
    e = ex.type2_explorer(d=[1.5], meta_d=[1.0])
    fig = ex.to_matplotlib(e)
    ax = fig.axes[0]
    s1, s2 = ax.containers[:2]
    table = rating_probabilities(1.5, 1.0, K=4)
    for bars, row in zip((s1, s2), table):
        np.testing.assert_allclose([b.get_height() for b in bars], row)
    for a, b in zip(s1, s2):  # same category: adjacent, not overlapping
        assert a.get_x() + a.get_width() == pytest.approx(b.get_x())
    assert [t.get_text() for t in ax.get_xticklabels()] == list(e.view().trace("S1 presented").x)


# --- captions, titles, legends, signatures -------------------------------------------------------

@pytest.mark.parametrize("caption, shown", [
    ("M-ratio -0.00, meta-I -0.000 bit, -0% (-0.00).", "M-ratio 0.00, meta-I 0.000 bit, 0% (0.00)."),
    ("kept: -0.01, -0.5, 1-0.00, -10.00, −0.001", "kept: -0.01, -0.5, 1-0.00, -10.00, −0.001"),
])
def test_captions_never_show_a_negative_zero(caption, shown):
    assert ex.View((), caption).caption == shown


def test_no_caption_of_any_explorer_shows_a_negative_zero():
    pattern = re.compile(r"(?<![\w.])[-−]0(?:\.0+)?(?!\.?\d)")
    for name in ex.__all__:
        make = getattr(ex, name)
        if not (callable(make) and name.endswith("_explorer")):
            continue
        for v in ex.frames(make()):
            assert not pattern.search(v.caption), (name, v.caption)


def test_group_caption_counts_one_member():
    e = ex.group_explorer(acc=[0.7], K=[1, 2])
    assert e.view(K=1).caption.startswith("1 member of 70%")
    assert e.view(K=2).caption.startswith("2 members of 70%")


def test_type2_title_panel_and_caption_agree():
    e = ex.type2_explorer(d=[1.5], meta_d=[0.5, 1.0])
    assert "six" in e.title and "four" not in e.title
    assert e.panels[1].title.startswith("Four of the six")
    assert len(e.view().trace("measure").y) == 4
    e = ex.type2_explorer(d=[1.0], meta_d=[0.5, 2.5])
    low, high = (e.view(meta_d=m).caption for m in (0.5, 2.5))
    acc = [type2_measures(rating_probabilities(1.0, m, K=4)).acc for m in (0.5, 2.5)]
    assert acc[0] == pytest.approx(0.6915, abs=1e-4)  # Φ(d′/2): the Type 1 accuracy
    assert acc[1] > acc[0] + 0.05                     # the recoded accuracy rises with meta-d'
    assert "recoded accuracy 69.1%" in low and "here the Type 1 accuracy" in low
    assert f"recoded accuracy {100 * acc[1]:.1f}%" in high
    assert "above the Type 1 accuracy 69.1%" in high and "rises with meta-d′" in high


def test_type2_default_grid_is_plain_floats():
    """The API page shows the signature: no ``np.float64(...)`` in the default."""
    import inspect

    default = inspect.signature(ex.type2_explorer).parameters["meta_d"].default
    assert all(type(v) is float for v in default) and "np." not in repr(default)
    assert default == tuple(np.round(np.arange(0, 3.01, 0.25), 2))


def test_legend_swatches_follow_the_frame():
    """A trace whose colour changes with the controls: the first swatch has the first frame's
    colour and carries the trace's name, so explorer.js can recolour it at every frame."""
    from matplotlib.colors import to_hex

    e = ex.noise_cases_explorer(acc=[0.7], kinds=("binary", "uniform"))
    page = ex.static_html(e)
    colour = to_hex(e.view().trace("confidence").color)   # the default: uniform noise
    assert f'style="background:{colour}" data-trace="confidence"' in page
    assert '<ul class="mbx-legend" data-panel="0">' in page
    assert "recolour(p, traces)" in ex.EXPLORER_JS
