"""Explorers: one metabits function, a grid of control values, two ways to move the controls.

An explorer is a function from the values of a few controls (an accuracy, a noise case, a group
size …) to a :class:`View` — the curves, points, bars and bands to draw, and a caption with the
numbers — plus the controls' grids and the panels' axes (:class:`Explorer`). Everything a view
shows is computed by the library when the function is called; the two front ends only draw it:

* **on the website** (:func:`static_html`): the function is called at every point of the grid
  of the controls (:func:`frames`), and the frames are written into the page as JSON with
  HTML sliders and menus. A small generic script (:data:`EXPLORER_JS`) picks the frame of the
  controls' positions and hands its traces to plotly.js (served once from the site's
  ``_static``, see ``_ext/metabits_explore.py``). No kernel, no network, no computation in
  JavaScript: moving a slider only selects a precomputed frame.
* **in a kernel** — Binder, Colab, local Jupyter (:func:`live`): ipywidgets sliders and menus
  call the same function at any value within the grid's range and draw its view with
  matplotlib (:func:`to_matplotlib`). Only widgets that exist in ipywidgets 7.7 (Colab) and 8
  are used (``FloatSlider``, ``IntSlider``, ``Dropdown``, ``Output``, ``HBox``, ``VBox``).

:func:`show` gives both at once: a notebook output whose website rendering is the static
explorer and whose rendering in Jupyter is the live one. This module imports no plotting or
widget library at its top level; matplotlib and ipywidgets are imported when first needed, and
the website needs only the plotly.js file that the ``plotly`` package ships.

The Part I explorers (Meyen et al., 2025) are :func:`noise_cases_explorer`,
:func:`roc_explorer`, :func:`group_explorer` and :func:`type2_explorer`. A new explorer is a
function returning an :class:`Explorer`; :func:`frames`, :func:`static_html`, :func:`live` and
:func:`show` need nothing else.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ._validate import as_choice, as_grid, as_int, as_noise_kind

__all__ = ["EXPLORER_JS", "Control", "Explorer", "ExplorerDisplay", "Panel", "Trace", "View",
           "control", "frames", "grid", "group_explorer", "live", "noise_cases_explorer",
           "plotly_figures", "plotly_js_path", "roc_explorer", "show", "static_html",
           "to_matplotlib", "type2_explorer"]

TRACE_KINDS = ("line", "points", "bars", "hbars", "band")
DASHES = ("solid", "dash", "dot")
#: significant digits of the numbers written into a page (a frame's data, not its captions)
DIGITS = 5


# --- the pieces of an explorer -------------------------------------------------------------------

@dataclass(frozen=True)
class Control:
    """One control: a keyword of the explorer's function and the grid of its values.

    Attributes
    ----------
    name : str
        The keyword argument of :attr:`Explorer.draw` it sets.
    label : str
        What the reader sees next to the slider or menu.
    values : tuple
        The grid: distinct numbers (a slider) or distinct strings (a menu).
    default : object
        The value shown first, one of ``values``.
    fmt : str
        Format of a value for display, e.g. ``"{:.0%}"``.
    """

    name: str
    label: str
    values: tuple
    default: object
    fmt: str = "{}"

    @property
    def numeric(self) -> bool:
        """Whether the values are numbers (a slider) rather than names (a menu)."""
        return not isinstance(self.values[0], str)

    def show(self, value) -> str:
        """``value`` formatted for display."""
        return self.fmt.format(value)


@dataclass(frozen=True)
class Trace:
    """One thing drawn in a panel.

    Attributes
    ----------
    name : str
        Legend entry (and how tests find the trace).
    x, y : ndarray or tuple
        Coordinates; ``x`` of ``"bars"`` and ``y`` of ``"hbars"`` may be category names.
    kind : {"line", "points", "bars", "hbars", "band"}
        A line, markers, vertical or horizontal bars, or the region between ``y`` and ``y2``.
    panel : int
        Index of the panel it is drawn in.
    color : str
        A matplotlib colour ("black", "#e69f00", "0.85").
    dash : {"solid", "dash", "dot"}
        Line style of ``"line"`` traces.
    y2 : ndarray or None
        Upper edge of a ``"band"``.
    width : float or None
        Width of ``"bars"`` in data units (``None``: the plotting library's default).
    """

    name: str
    x: object
    y: object
    kind: str = "line"
    panel: int = 0
    color: str = "black"
    dash: str = "solid"
    y2: object = None
    width: object = None

    def __post_init__(self):
        # numbers become float arrays, category names a tuple of str: one form for every consumer
        for name in ("x", "y", "y2"):
            value = getattr(self, name)
            if value is None:
                continue
            arr = np.asarray(value)
            object.__setattr__(self, name, tuple(str(v) for v in arr.ravel())
                               if arr.dtype.kind in "UO" else arr.astype(float).ravel())


@dataclass(frozen=True)
class Panel:
    """The axes of one panel.

    Attributes
    ----------
    title, xlabel, ylabel : str
        Title and axis labels (plain text: no TeX, see the design notes).
    xrange, yrange : tuple or None
        Fixed axis ranges; ``None`` fits the range to the data of *all* frames, so that the axes
        stay still while the controls move (``(0, None)`` fits only the upper end); ``"auto"``
        fits each frame on its own (plotly keeps margins it widened for long tick labels, so a
        control moved and moved back may not redraw exactly the same: prefer a fixed range).
    """

    title: str
    xlabel: str
    ylabel: str
    xrange: object = None
    yrange: object = None


@dataclass(frozen=True)
class View:
    """What an explorer shows at one setting of its controls.

    Attributes
    ----------
    traces : tuple of Trace
        Everything drawn, in drawing order.
    caption : str
        One or two sentences with the setting's numbers, shown under the panels.
    """

    traces: tuple
    caption: str

    def trace(self, name: str, panel: int | None = None) -> Trace:
        """The trace called ``name`` (in ``panel``, if given)."""
        for t in self.traces:
            if t.name == name and (panel is None or t.panel == panel):
                return t
        raise KeyError(f"no trace {name!r}" + ("" if panel is None else f" in panel {panel}"))


@dataclass(frozen=True)
class Explorer:
    """A function of a few controls, its grid and its panels.

    Attributes
    ----------
    key : str
        Identifier, unique on a page (letters, digits, ``-``); used in the HTML ids.
    title : str
        Heading of the explorer.
    controls : tuple of Control
        The controls, in the order shown; the grid is their product.
    panels : tuple of Panel
        The panels, drawn one above the other.
    draw : callable
        ``draw(**{control.name: value}) -> View``; the metabits computation.
    fixed : tuple of Trace
        Traces that are the same in every frame (drawn once, written once into the page).
    """

    key: str
    title: str
    controls: tuple
    panels: tuple
    draw: Callable = field(repr=False)
    fixed: tuple = ()

    def view(self, **values) -> View:
        """The view at ``values`` (missing controls at their defaults), fixed traces first."""
        unknown = set(values) - {c.name for c in self.controls}
        if unknown:
            raise ValueError(f"unknown control {sorted(unknown)[0]!r} of explorer {self.key!r}; "
                             f"its controls are {[c.name for c in self.controls]}")
        args = {c.name: values.get(c.name, c.default) for c in self.controls}
        v = self.draw(**args)
        return View(tuple(self.fixed) + tuple(v.traces), v.caption)


def control(name: str, label: str, values, default=None, fmt: str | None = None) -> Control:
    """A control over a grid of values: numbers give a slider, strings a menu.

    Parameters
    ----------
    name : str
        The keyword of the explorer's function that the control sets.
    label : str
        What the reader sees next to it.
    values : sequence of numbers or of strings
        The grid: distinct, at least one; numbers in increasing order.
    default : optional
        The first value shown, one of ``values``; by default the middle one.
    fmt : str, optional
        Format of a value for display (``"{:.2f}"``); by default ``"{:g}"`` for numbers and
        ``"{}"`` for strings.

    Returns
    -------
    Control

    Raises
    ------
    ValueError
        For an empty grid, repeated values, numbers not increasing or not finite, a mixture of
        numbers and strings, or a default that is not in the grid.

    References
    ----------
    The book's design notes on explorers (book/meyen/explorers).

    Examples
    --------
    >>> c = control("acc", "accuracy", [0.6, 0.7, 0.8], default=0.7, fmt="{:.0%}")
    >>> c.numeric, c.show(c.default)
    (True, '70%')
    >>> control("kind", "noise", ["uniform", "normal"]).default
    'normal'
    """
    grid_values = as_grid(values, f"values of control {name!r}")
    if default is None:
        default = grid_values[len(grid_values) // 2]
    elif default not in grid_values:
        raise ValueError(f"default {default!r} of control {name!r} is not one of its values "
                         f"{grid_values}")
    else:
        default = grid_values[grid_values.index(default)]
    if fmt is None:
        fmt = "{}" if isinstance(grid_values[0], str) else "{:g}"
    return Control(name, label, grid_values, default, fmt)


# --- the grid ------------------------------------------------------------------------------------

def grid(explorer: Explorer) -> list:
    """Every setting of the controls, in the order of the frames (the last control fastest).

    Parameters
    ----------
    explorer : Explorer

    Returns
    -------
    list of dict
        ``{control name: value}`` per setting; as many as the product of the grids' lengths.

    Raises
    ------
    ValueError
        If ``explorer`` has no controls.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> e = roc_explorer(acc=[0.6, 0.7])
    >>> grid(e)
    [{'acc': 0.6}, {'acc': 0.7}]
    """
    if not explorer.controls:
        raise ValueError(f"explorer {explorer.key!r} has no controls")
    names = [c.name for c in explorer.controls]
    return [dict(zip(names, combo))
            for combo in itertools.product(*(c.values for c in explorer.controls))]


def frames(explorer: Explorer) -> tuple:
    """The view at every setting of the controls, in the order of :func:`grid`.

    Parameters
    ----------
    explorer : Explorer

    Returns
    -------
    tuple of View
        Without the explorer's fixed traces (those are drawn once).

    Raises
    ------
    ValueError
        If the explorer's function raises it at a point of the grid (a grid beyond the range
        the library accepts), or returns something that is not a :class:`View` of valid traces.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> views = frames(roc_explorer(acc=[0.6, 0.7]))
    >>> len(views), views[1].trace("uniform noise", panel=0).y.round(2).tolist()
    (2, [0.0, 0.4, 1.0, 1.0])
    """
    out = []
    for setting in grid(explorer):
        v = explorer.draw(**setting)
        if not isinstance(v, View):
            raise ValueError(f"explorer {explorer.key!r} returned {type(v).__name__}, not a View")
        for t in v.traces:
            _check_trace(t, len(explorer.panels))
        out.append(v)
    return tuple(out)


def _check_trace(t: Trace, n_panels: int) -> None:
    as_choice(t.kind, TRACE_KINDS, "trace kind")
    as_choice(t.dash, DASHES, "line style")
    as_int(t.panel, f"panel of trace {t.name!r}", least=0, most=n_panels - 1)
    if len(t.x) != len(t.y) or (t.kind == "band" and (t.y2 is None or len(t.y2) != len(t.x))):
        raise ValueError(f"trace {t.name!r} needs x, y (and y2 for a band) of one length")


# --- website: plotly figures from the frames ------------------------------------------------------

def _css(color: str) -> str:
    from matplotlib.colors import to_hex  # imported here: plotting stays out of import metabits

    return to_hex(color)


def _numbers(a):
    """Numbers rounded to DIGITS significant digits for the page (categories unchanged)."""
    a = list(np.asarray(a).tolist()) if not isinstance(a, (tuple, list)) else list(a)
    return [float(f"{v:.{DIGITS}g}") if isinstance(v, float) else v for v in a]


def _plotly_traces(traces, n_panels: int) -> list:
    """Plotly trace dicts, one list per panel."""
    out = [[] for _ in range(n_panels)]
    for t in traces:
        color = _css(t.color)
        common = {"name": t.name, "legendgroup": t.name}
        if t.kind == "band":
            x = _numbers(t.x)
            d = {"type": "scatter", "mode": "lines", "x": x + x[::-1],
                 "y": _numbers(t.y2) + _numbers(t.y)[::-1], "fill": "toself",
                 "fillcolor": color, "line": {"width": 0}, "hoverinfo": "skip", **common}
        elif t.kind in ("bars", "hbars"):
            d = {"type": "bar", "x": _numbers(t.x), "y": _numbers(t.y), "marker": {"color": color},
                 **common}
            if t.width is not None:
                d["width"] = float(t.width)
            if t.kind == "hbars":
                d["orientation"] = "h"
        else:
            d = {"type": "scatter", "x": _numbers(t.x), "y": _numbers(t.y), **common}
            if t.kind == "line":
                d.update(mode="lines", line={"color": color, "dash": t.dash, "width": 2})
            else:
                d.update(mode="markers", marker={"color": color, "size": 10,
                                                 "line": {"color": "white", "width": 1}})
        out[t.panel].append(d)
    return out


def _data_range(values, pad: float = 0.04):
    lo, hi = float(np.min(values)), float(np.max(values))
    span = hi - lo or max(abs(hi), 1.0)
    return [float(f"{lo - pad * span:.4g}"), float(f"{hi + pad * span:.4g}")]


def _ranges(explorer: Explorer, views) -> list:
    """Per panel, the x and y ranges (fitted over all frames where the panel leaves them open)."""
    out = []
    for p, panel in enumerate(explorer.panels):
        traces = [t for v in views for t in tuple(explorer.fixed) + tuple(v.traces)
                  if t.panel == p]
        ranges = {}
        for axis, given in (("x", panel.xrange), ("y", panel.yrange)):
            if given == "auto":
                ranges[axis] = None
                continue
            if given is not None and None not in given:
                ranges[axis] = [float(given[0]), float(given[1])]
                continue
            vals = []
            for t in traces:
                data = [t.x] if axis == "x" else [t.y] + ([t.y2] if t.y2 is not None else [])
                for d in data:
                    arr = np.asarray(d)
                    if arr.dtype.kind in "iuf" and arr.size:
                        vals.append(arr.astype(float).ravel())
            if any(t.kind == ("bars" if axis == "y" else "hbars") for t in traces):
                vals.append(np.zeros(1))  # bars start at 0
            numeric = np.concatenate(vals) if vals else np.array([])
            ranges[axis] = _data_range(numeric) if numeric.size else None
            if given is not None and ranges[axis] is not None:  # one end given, e.g. (0, None)
                ranges[axis] = [ranges[axis][i] if g is None else float(g)
                                for i, g in enumerate(given)]
        if any(t.kind == "hbars" for t in traces):
            ranges["y"] = "reversed"  # categories from the top down, as they are listed
        out.append(ranges)
    return out


def _legend(explorer: Explorer, views, p: int) -> list:
    """Panel ``p``'s legend entries: one per trace name (first appearance), none for a lone trace."""
    entries = {}
    for v in views:
        for t in tuple(explorer.fixed) + tuple(v.traces):
            if t.panel == p and t.name not in entries:
                entries[t.name] = t
    return list(entries.values()) if len(entries) > 1 else []


def _legend_html(entries) -> str:
    """An HTML legend (a list of swatches and names): it wraps with the column at any width."""
    if not entries:
        return ""
    items = []
    for t in entries:
        color = _css(t.color)
        if t.kind == "line":
            css_dash = {"solid": "solid", "dash": "dashed", "dot": "dotted"}[t.dash]
            style, cls = f"border-top:3px {css_dash} {color}", "mbx-key mbx-key-line"
        elif t.kind == "points":
            style, cls = f"background:{color}", "mbx-key mbx-key-point"
        else:
            style, cls = f"background:{color}", "mbx-key mbx-key-area"
        items.append(f'<li><span class="{cls}" style="{style}"></span>{html.escape(t.name)}</li>')
    return f'<ul class="mbx-legend">{"".join(items)}</ul>'


def _plotly_layout(panel: Panel, ranges: dict) -> dict:
    axis = {"automargin": True, "zeroline": False, "showline": True, "linecolor": "#444",
            "ticks": "outside", "gridcolor": "#e5e5e5"}
    x = {**axis, "title": {"text": panel.xlabel}}
    y = {**axis, "title": {"text": panel.ylabel}}
    if ranges["x"] is not None:
        x.update(range=ranges["x"], autorange=False)
    if ranges["y"] == "reversed":
        y.update(autorange="reversed")
    elif ranges["y"] is not None:
        y.update(range=ranges["y"], autorange=False)
    return {"title": {"text": panel.title, "font": {"size": 15}, "x": 0.01, "xanchor": "left"},
            "xaxis": x, "yaxis": y, "height": 320, "autosize": True,
            "margin": {"l": 60, "r": 12, "t": 40, "b": 40},
            "font": {"size": 13, "family": "sans-serif"},
            "plot_bgcolor": "white", "paper_bgcolor": "white", "barmode": "group",
            "hovermode": "closest", "showlegend": False}  # the legend is HTML: _legend_html


def plotly_figures(explorer: Explorer, view: View | None = None) -> list:
    """Plotly figure dicts (``data``, ``layout``) of one view, one per panel.

    What the website draws for a setting; the tests validate these dicts with plotly's
    ``graph_objects``. No plotly import is needed to build them.

    Parameters
    ----------
    explorer : Explorer
    view : View, optional
        A view returned by ``explorer.draw`` (without fixed traces); by default the view at the
        controls' defaults.

    Returns
    -------
    list of dict
        ``[{"data": [...], "layout": {...}}, ...]``, one per panel; the axis ranges are those of
        the whole grid, as on the page.

    Raises
    ------
    ValueError
        As :func:`frames`.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> figs = plotly_figures(roc_explorer(acc=[0.6, 0.7]))
    >>> len(figs), figs[0]["layout"]["xaxis"]["title"]["text"]
    (2, 'false positive rate')
    """
    views = frames(explorer)
    if view is None:
        view = explorer.draw(**{c.name: c.default for c in explorer.controls})
    ranges = _ranges(explorer, views)
    n = len(explorer.panels)
    fixed = _plotly_traces(explorer.fixed, n)
    data = _plotly_traces(view.traces, n)
    return [{"data": fixed[p] + data[p], "layout": _plotly_layout(explorer.panels[p], ranges[p])}
            for p in range(n)]


def static_html(explorer: Explorer) -> str:
    """The kernel-free explorer: HTML controls, one plot per panel and every frame as JSON.

    The page must load ``plotly.min.js`` and :data:`EXPLORER_JS` (the book's Sphinx extension
    ``_ext/metabits_explore.py`` adds both, from the site's ``_static``, to every page with an
    explorer); the script finds each ``div.metabits-explorer`` and draws it.

    Parameters
    ----------
    explorer : Explorer

    Returns
    -------
    str
        An HTML fragment: a ``<div class="metabits-explorer">`` with a labelled range slider
        (numbers) or menu (names) per control, a ``<div>`` per panel, the caption of the
        default setting, and a ``<script type="application/json">`` with the frames.

    Raises
    ------
    ValueError
        As :func:`frames`.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> page = static_html(roc_explorer(acc=[0.6, 0.7]))
    >>> page.startswith('<div class="metabits-explorer"'), page.count('type="range"')
    (True, 1)
    """
    views = frames(explorer)
    n = len(explorer.panels)
    ranges = _ranges(explorer, views)
    start = [c.values.index(c.default) for c in explorer.controls]
    shape = [len(c.values) for c in explorer.controls]
    spec = {
        "shape": shape,
        "start": start,
        "labels": [[c.show(v) for v in c.values] for c in explorer.controls],
        "layouts": [_plotly_layout(explorer.panels[p], ranges[p]) for p in range(n)],
        "fixed": _plotly_traces(explorer.fixed, n),
        "frames": [_plotly_traces(v.traces, n) for v in views],
        "captions": [v.caption for v in views],
    }
    key = html.escape(explorer.key)
    parts = [f'<div class="metabits-explorer" id="explorer-{key}">',
             f'<p class="mbx-title"><strong>{html.escape(explorer.title)}</strong></p>',
             '<form class="mbx-controls" onsubmit="return false">']
    for k, c in enumerate(explorer.controls):
        cid = f"explorer-{key}-{html.escape(c.name)}"
        label = f'<label for="{cid}">{html.escape(c.label)}</label>'
        shown = html.escape(c.show(c.default))
        if c.numeric:
            parts.append(
                f'<div class="mbx-control">{label} <output data-for="{k}" for="{cid}">{shown}'
                f'</output><input type="range" id="{cid}" data-control="{k}" min="0" '
                f'max="{shape[k] - 1}" step="1" value="{start[k]}" aria-valuetext="{shown}">'
                '</div>')
        else:
            options = "".join(f'<option value="{i}"{" selected" if i == start[k] else ""}>'
                              f'{html.escape(c.show(v))}</option>' for i, v in enumerate(c.values))
            parts.append(f'<div class="mbx-control">{label} <select id="{cid}" '
                         f'data-control="{k}">{options}</select></div>')
    parts.append("</form>")
    parts += [f'<div class="mbx-panel" data-panel="{p}" role="img" '
              f'aria-label="{html.escape(explorer.panels[p].title)}: interactive plot"></div>'
              + _legend_html(_legend(explorer, views, p)) for p in range(n)]
    index = int(np.ravel_multi_index(start, shape))
    parts.append(f'<p class="mbx-caption" aria-live="polite">{html.escape(views[index].caption)}'
                 '</p>')
    data = json.dumps(spec, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    parts.append(f'<script type="application/json" class="mbx-data">{data}</script>')
    parts.append("</div>")
    return "".join(parts)


#: The website's script: reads each explorer's JSON, builds nothing but plotly calls from it.
EXPLORER_JS = r"""/* metabits explorers: precomputed frames, selected by the controls (metabits.explore).
   Nothing is computed here: each frame was computed by the metabits library when the book was
   built; this script only picks the frame of the controls' positions and draws it with plotly. */
(function () {
  'use strict';
  var config = {responsive: true, displayModeBar: false, typesetMath: false,
                scrollZoom: false, doubleClick: false};
  function copy(x) { return JSON.parse(JSON.stringify(x)); }
  function init(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = '1';
    var spec = JSON.parse(root.querySelector('script.mbx-data').textContent);
    var inputs = Array.prototype.slice.call(root.querySelectorAll('[data-control]'));
    var panels = Array.prototype.slice.call(root.querySelectorAll('.mbx-panel'));
    var caption = root.querySelector('.mbx-caption');
    if (!window.Plotly) {
      caption.textContent = 'This explorer needs plotly.min.js, which the book\'s website ' +
        'serves; in Jupyter, run the notebook for the live version.';
      return;
    }
    function frameIndex() {
      var i = 0;
      inputs.forEach(function (el, k) { i = i * spec.shape[k] + Number(el.value); });
      return i;
    }
    function draw() {
      var f = frameIndex();
      inputs.forEach(function (el, k) {
        var text = spec.labels[k][Number(el.value)];
        var out = root.querySelector('output[data-for="' + k + '"]');
        if (out) out.textContent = text;
        if (el.type === 'range') el.setAttribute('aria-valuetext', text);
      });
      panels.forEach(function (div, p) {
        Plotly.react(div, copy(spec.fixed[p].concat(spec.frames[f][p])), copy(spec.layouts[p]),
                     config);
      });
      caption.textContent = spec.captions[f];
      root.dataset.frame = String(f);
    }
    inputs.forEach(function (el) {
      el.addEventListener('input', draw);
      el.addEventListener('change', draw);
    });
    draw();
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll('.metabits-explorer'), init);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
"""


def plotly_js_path() -> Path:
    """The ``plotly.min.js`` that the installed ``plotly`` package ships (for the website).

    Parameters
    ----------
    None

    Returns
    -------
    pathlib.Path
        ``plotly/package_data/plotly.min.js`` of the installed package.

    Raises
    ------
    ValueError
        If the ``plotly`` package is not installed or has no ``plotly.min.js``.

    References
    ----------
    The book's design notes on explorers (why plotly, and why one shared file).

    Examples
    --------
    >>> plotly_js_path().name
    'plotly.min.js'
    """
    import importlib.util

    spec = importlib.util.find_spec("plotly")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / "package_data" / "plotly.min.js"
        if path.is_file():
            return path
    raise ValueError("the plotly package (with package_data/plotly.min.js) is not installed: "
                     "pip install -r requirements.txt")


# --- in a kernel: matplotlib and ipywidgets -------------------------------------------------------

_MPL_DASH = {"solid": "-", "dash": "--", "dot": ":"}


def _grouped_bars(ax, t: Trace, group: list) -> None:
    """Draw bar trace ``t`` side by side with the other bar traces of its panel (``group``),
    as plotly's ``barmode="group"`` does on the website."""
    horizontal = t.kind == "hbars"
    where, length = (t.y, t.x) if horizontal else (t.x, t.y)
    categorical = isinstance(where, tuple)
    pos = np.arange(len(where), dtype=float) if categorical else np.asarray(where, float)
    if t.width is not None:
        total = float(t.width)
    else:
        gaps = np.diff(np.unique(pos))
        total = 0.8 * (float(gaps.min()) if gaps.size else 1.0)
    k, j = len(group), group.index(t)
    shifted = pos - total / 2 + total / k * (j + 0.5)
    draw = ax.barh if horizontal else ax.bar
    draw(shifted, np.asarray(length, float), total / k, color=t.color, label=t.name)
    if categorical:
        (ax.set_yticks if horizontal else ax.set_xticks)(pos, list(where))


def to_matplotlib(explorer: Explorer, view: View | None = None):
    """Draw one view with matplotlib, the panels one above the other.

    Parameters
    ----------
    explorer : Explorer
    view : View, optional
        A view from ``explorer.view(...)`` (fixed traces included); by default the view at the
        controls' defaults.

    Returns
    -------
    matplotlib.figure.Figure
        A figure not registered with pyplot (so it is shown only where it is displayed).

    Raises
    ------
    ValueError
        For a view whose traces are not valid (:func:`frames`).

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> fig = to_matplotlib(roc_explorer(acc=[0.6, 0.7]))
    >>> len(fig.axes), fig.axes[0].get_xlabel()
    (2, 'false positive rate')
    """
    from matplotlib.figure import Figure  # imported here: not at import metabits

    if view is None:
        view = explorer.view()
    n = len(explorer.panels)
    fig = Figure(figsize=(6.4, 3.3 * n), layout="constrained")
    axes = fig.subplots(n, 1, squeeze=False)[:, 0]
    for t in view.traces:
        _check_trace(t, n)
        ax = axes[t.panel]
        if t.kind == "band":
            ax.fill_between(np.asarray(t.x, float), np.asarray(t.y, float),
                            np.asarray(t.y2, float), color=t.color, lw=0, label=t.name)
        elif t.kind in ("bars", "hbars"):
            _grouped_bars(ax, t, [u for u in view.traces
                                  if u.kind == t.kind and u.panel == t.panel])
        elif t.kind == "points":
            ax.plot(t.x, t.y, "o", color=t.color, ms=7, mec="white", label=t.name, zorder=5)
        else:
            ax.plot(t.x, t.y, color=t.color, ls=_MPL_DASH[t.dash], lw=1.8, label=t.name)
    for p, (ax, panel) in enumerate(zip(axes, explorer.panels)):
        ax.set(title=panel.title, xlabel=panel.xlabel, ylabel=panel.ylabel)
        if panel.xrange not in (None, "auto"):
            ax.set_xlim(*panel.xrange)   # a None end stays automatic
        if panel.yrange not in (None, "auto"):
            ax.set_ylim(*panel.yrange)
        mine = [t for t in view.traces if t.panel == p]
        if len({t.name for t in mine}) > 1:  # as on the website: no legend for a lone trace
            ax.legend(fontsize=9, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        if any(t.kind == "hbars" for t in mine):
            ax.invert_yaxis()  # first category on top, as on the website
    return fig


def _widget(c: Control):
    import ipywidgets as widgets  # imported here: only a live explorer needs it

    style = {"description_width": "initial"}
    layout = widgets.Layout(width="min(100%, 420px)")
    if not c.numeric:
        return widgets.Dropdown(options=list(c.values), value=c.default, description=c.label,
                                style=style)
    values = np.asarray(c.values, dtype=float)
    steps = np.diff(values)
    even = values.size > 1 and np.allclose(steps, steps[0], rtol=1e-6, atol=1e-12)
    integers = all(isinstance(v, (int, np.integer)) for v in c.values)
    if even and integers:
        return widgets.IntSlider(value=int(c.default), min=int(values[0]), max=int(values[-1]),
                                 step=int(steps[0]), description=c.label,
                                 continuous_update=False, style=style, layout=layout)
    if even:
        return widgets.FloatSlider(value=float(c.default), min=float(values[0]),
                                   max=float(values[-1]), step=float(steps[0]),
                                   description=c.label, continuous_update=False, style=style,
                                   readout_format=".3g", layout=layout)
    return widgets.Dropdown(options=[(c.show(v), v) for v in c.values], value=c.default,
                            description=c.label, style=style)


def _png(fig):
    """The figure as an IPython PNG image.

    A bare matplotlib ``Figure`` displays as an image only where pyplot's inline backend has
    registered its formatter (after ``import matplotlib.pyplot``); as PNG bytes it shows the same
    in every front end.
    """
    import io

    from IPython.display import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return Image(data=buf.getvalue(), format="png")


def live(explorer: Explorer):
    """The live explorer for Jupyter, Binder and Colab: ipywidgets controls, matplotlib plots.

    Evenly spaced numbers become a ``FloatSlider`` (or ``IntSlider`` for integers) over the
    grid's range, so the function is called at any value the slider reaches, not only the
    grid's; other grids and names become a ``Dropdown``. Each change calls the explorer's
    function and draws its view into an ``Output`` as a PNG image (``append_display_data``,
    which works the same in ipywidgets 7.7 and 8), whatever matplotlib backend is active.

    Parameters
    ----------
    explorer : Explorer

    Returns
    -------
    ipywidgets.VBox
        The controls above the plot and its caption.

    Raises
    ------
    ValueError
        If the explorer's function rejects the default setting.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> box = live(roc_explorer(acc=[0.6, 0.7]))
    >>> type(box).__name__, [type(w).__name__ for w in box.children[0].children]
    ('VBox', ['FloatSlider'])
    >>> "image/png" in box.children[1].outputs[0]["data"]
    True
    """
    import ipywidgets as widgets  # imported here: only a live explorer needs it

    controls = [_widget(c) for c in explorer.controls]
    out = widgets.Output()

    def redraw(change=None):
        values = {c.name: w.value for c, w in zip(explorer.controls, controls)}
        view = explorer.view(**values)
        out.outputs = ()
        out.append_display_data(_png(to_matplotlib(explorer, view)))
        out.append_stdout(view.caption + "\n")

    for w in controls:
        w.observe(redraw, names="value")
    redraw()
    return widgets.VBox([widgets.VBox(controls), out])


class ExplorerDisplay:
    """A notebook output that is the live explorer in Jupyter and the static one on the website.

    Its MIME bundle holds the ipywidgets view (which Jupyter, Binder and Colab render) and the
    static HTML of :func:`static_html` (which the book's website renders: its Sphinx extension
    tells MyST-NB not to render widget views, which would be dead controls without a kernel).
    """

    def __init__(self, explorer: Explorer):
        self.explorer = explorer
        self.widget = None

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.widget is None:
            self.widget = live(self.explorer)
        bundle = {"text/plain": f"explorer: {self.explorer.title}",
                  "text/html": static_html(self.explorer),
                  "application/vnd.jupyter.widget-view+json": {
                      "version_major": 2, "version_minor": 0,
                      "model_id": self.widget.model_id}}
        return bundle


def show(explorer: Explorer) -> ExplorerDisplay:
    """Show an explorer in a notebook: live in a kernel's front end, static on the website.

    Parameters
    ----------
    explorer : Explorer

    Returns
    -------
    ExplorerDisplay
        Make it a cell's last value (or ``display`` it).

    Raises
    ------
    ValueError
        As :func:`static_html` and :func:`live`, when the output is rendered.

    References
    ----------
    The book's design notes on explorers.

    Examples
    --------
    >>> out = show(roc_explorer(acc=[0.6, 0.7]))
    >>> sorted(out._repr_mimebundle_())  # doctest: +NORMALIZE_WHITESPACE
    ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
    """
    if not isinstance(explorer, Explorer):
        raise ValueError(f"show needs an Explorer; got {type(explorer).__name__}")
    return ExplorerDisplay(explorer)


# --- the Part I explorers (Meyen et al., 2025) ---------------------------------------------------

ACC_GRID = tuple(round(0.55 + 0.05 * i, 2) for i in range(9))  # 55%, 60%, ..., 95%
_REGION = "0.85"


def _styles() -> dict:
    from .plotting import NOISE_STYLE  # the book's colours; imported here (matplotlib)

    return NOISE_STYLE


def _line_style(kind: str) -> dict:
    st = _styles()[kind]
    dash = {"-": "solid", "--": "dash", ":": "dot"}[st["linestyle"]]
    return {"color": st["color"], "dash": dash}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%" if abs(100 * x - round(100 * x)) < 1e-9 else f"{100 * x:.1f}%"


def noise_cases_explorer(acc=ACC_GRID, kinds=("uniform", "normal", "binary")) -> Explorer:
    """The three noise cases: accuracy and noise type → confidence, information, Theorem 3.

    Panel 1 shows the distribution of the calibrated confidence in bins of 5 percentage points
    (:func:`metabits.binning.binned_response_probabilities` with equal priors) with its mean, the
    accuracy (Proposition 1); panel 2 the point (accuracy, transmitted information)
    (:func:`metabits.noise.noise_info`) in the region Theorem 3 allows
    (:func:`metabits.bounds.info_bounds`), with the normal-noise curve.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The accuracy slider's grid, in [0.5, 1).
    kinds : sequence of str
        The noise cases of the menu (Figure 2): ``"uniform"``, ``"normal"``, ``"binary"``.

    Returns
    -------
    Explorer
        Controls ``acc`` and ``kind``.

    Raises
    ------
    ValueError
        For accuracies outside [0.5, 1) or an unknown noise kind (when the frames are computed).

    References
    ----------
    Meyen et al. (2025), Figure 2 (the noise cases), Theorem 3 and Figure 3 (the region).

    Examples
    --------
    >>> e = noise_cases_explorer(acc=[0.7])
    >>> v = e.view(acc=0.7, kind="uniform")
    >>> v.trace("this classifier").y.round(3).tolist()
    [0.4]
    >>> v.trace("confidence").y[[0, -1]].round(2).tolist()
    [0.6, 0.4]
    """
    from .bounds import info_bounds
    from .noise import noise_info

    kinds = tuple(as_noise_kind(k) for k in kinds)
    edges = np.round(np.arange(0.55, 0.951, 0.05), 2)
    centres = np.round(np.arange(0.525, 1.0, 0.05), 3)
    a = np.linspace(0.5, 1.0, 101)
    lower, upper = info_bounds(a)
    normal = _line_style("normal")
    fixed = (
        Trace("Theorem 3 region", a, lower, kind="band", panel=1, color=_REGION, y2=upper),
        Trace("upper bound (uniform noise)", a, upper, panel=1, **_line_style("uniform")),
        Trace("normal noise", a, noise_info("normal", a), panel=1, **normal),
        Trace("lower bound (binary noise)", a, lower, panel=1, **_line_style("binary")),
    )

    def draw(acc, kind):
        from .binning import binned_response_probabilities
        from .noise import discrete_confidence

        table = binned_response_probabilities(kind, acc, edges)   # (2, 20): rows Y = -1, +1
        K = edges.size + 1
        p_bin = table[1, K:] + table[1, :K][::-1]                 # P(C in bin | Y = +1)
        info = noise_info(kind, acc)
        lo, hi = info_bounds(acc)
        colour = _styles()[kind]["color"]
        if kind == "normal":
            how = f"confidence spread over (50%, 100%), most often near {_pct(centres[np.argmax(p_bin)])}"
        else:
            values, weights = discrete_confidence(kind, acc)
            how = "confidence " + " or ".join(
                f"{_pct(v)} ({_pct(w)} of trials)" for v, w in zip(values, weights))
        caption = (f"{kind.capitalize()} noise at {_pct(acc)} accuracy: {how}. It transmits "
                   f"{info:.3f} bit; Theorem 3 allows {lo:.3f} to {hi:.3f} bit at this accuracy.")
        return View((
            Trace("confidence", centres, p_bin, kind="bars", color=colour, width=0.045),
            Trace("mean confidence = accuracy", [acc, acc], [0.0, 1.0], color="#d55e00",
                  dash="dash"),
            Trace("this classifier", [acc], [info], kind="points", panel=1, color=colour),
        ), caption)

    return Explorer(
        "noise-cases", "The three noise cases (Meyen et al., Figure 2 and Theorem 3)",
        (control("acc", "accuracy", acc, default=0.7 if 0.7 in acc else None, fmt="{:.0%}"),
         control("kind", "noise", kinds, default="uniform" if "uniform" in kinds else None)),
        (Panel("Confidence, in bins of 5 points", "calibrated confidence",
               "probability", xrange=(0.48, 1.02), yrange=(0.0, 1.02)),
         Panel("Accuracy and transmitted information", "accuracy", "information (bits)",
               xrange=(0.49, 1.01), yrange=(-0.02, 1.02))),
        draw, fixed)


def roc_explorer(acc=ACC_GRID) -> Explorer:
    """The ROC bounds: accuracy → the regions of Propositions 4 and 5 and the three classifiers.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The accuracy slider's grid, in [0.5, 1).

    Returns
    -------
    Explorer
        Control ``acc``; panel 1 the pseudo Type 1 ROC (:func:`metabits.roc.roc_bounds_type1`,
        :func:`metabits.roc.roc_curve_type1`), panel 2 the Type 2 ROC
        (:func:`metabits.roc.roc_bounds_type2`, :func:`metabits.roc.roc_curve_type2`).

    Raises
    ------
    ValueError
        For accuracies outside [0.5, 1) (when the frames are computed).

    References
    ----------
    Meyen et al. (2025), Propositions 4 and 5 and Figure 4.

    Examples
    --------
    >>> v = roc_explorer(acc=[0.7]).view()
    >>> v.trace("uniform noise", panel=1).y.round(3).tolist()
    [0.0, 0.571, 1.0]
    """
    from .roc import roc_bounds_type1, roc_bounds_type2, roc_curve_type1, roc_curve_type2

    fpr = np.linspace(0.0, 1.0, 101)
    diag = Trace("chance", [0.0, 1.0], [0.0, 1.0], color="0.6", dash="dot")

    def draw(acc):
        traces = []
        for panel, bounds, curve in ((0, roc_bounds_type1, roc_curve_type1),
                                     (1, roc_bounds_type2, roc_curve_type2)):
            lo, hi = bounds(fpr, acc)
            traces.append(Trace("possible curves", fpr, lo, kind="band", panel=panel,
                                color=_REGION, y2=hi))
            for kind in ("uniform", "normal", "binary"):
                x, y = curve(kind, acc, n=61) if kind == "normal" else curve(kind, acc)
                traces.append(Trace(f"{kind} noise", x, y, panel=panel, **_line_style(kind)))
        area_1 = float(np.trapezoid(np.subtract(*roc_bounds_type1(fpr, acc)[::-1]), fpr))
        caption = (f"At {_pct(acc)} accuracy every classifier's pseudo Type 1 ROC curve lies in "
                   f"the grey region (area {area_1:.3f}); its Type 2 ROC curve lies between the "
                   "diagonal (binary noise) and the uniform-noise curve.")
        return View(tuple(traces), caption)

    fixed = (diag, Trace("chance", [0.0, 1.0], [0.0, 1.0], panel=1, color="0.6", dash="dot"))
    return Explorer(
        "roc-bounds", "The ROC bounds (Meyen et al., Propositions 4–5, Figure 4)",
        (control("acc", "accuracy", acc, default=0.7 if 0.7 in acc else None, fmt="{:.0%}"),),
        (Panel("Pseudo Type 1 ROC", "false positive rate", "true positive rate",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02)),
         Panel("Type 2 ROC", "Type 2 false positive rate", "Type 2 true positive rate",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02))),
        draw, fixed)


def group_explorer(acc=ACC_GRID, K=tuple(range(1, 16))) -> Explorer:
    """Group accuracy: group size and member accuracy → MV, CWMV, PCWMV and Theorem 8's bounds.

    Members are identical and conditionally independent (Assumptions 9–14). MV is
    :func:`metabits.group.majority_vote_accuracy`; CWMV (:func:`metabits.group.cwmv_accuracy`)
    equals it for equal members; PCWMV of uniform-, normal- and binary-noise members is
    :func:`metabits.group.noise_group`; the band is :func:`metabits.group.group_accuracy_bounds`.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The member-accuracy slider's grid, in [0.5, 1].
    K : sequence of int, default 1, …, 15
        The group-size slider's grid (at most 20: CWMV enumerates the 2^K vote patterns).

    Returns
    -------
    Explorer
        Controls ``acc`` and ``K``; panel 1 accuracy against group size, panel 2 the rules at K.

    Raises
    ------
    ValueError
        For accuracies outside [0.5, 1] or group sizes that are not integers in [1, 20].

    References
    ----------
    Meyen et al. (2025), Theorem 8 and Figure 8.

    Examples
    --------
    >>> v = group_explorer(acc=[0.7], K=[1, 3]).view(K=3)
    >>> dict(zip(v.trace("at K").y, v.trace("at K").x.round(3).tolist()))["MV"]
    0.784
    """
    from .group import cwmv_accuracy, group_accuracy_bounds, majority_vote_accuracy, noise_group

    sizes = as_grid(K, "group sizes K")
    for k in sizes:
        as_int(k, "group size K", least=1, most=20)
    Ks = np.arange(1, max(sizes) + 1)

    @functools.lru_cache(maxsize=None)
    def curves(acc):
        bounds = [group_accuracy_bounds(np.full(k, acc), np.full(k, acc)) for k in Ks]
        return {"MV": majority_vote_accuracy(acc, Ks),
                "CWMV": np.array([cwmv_accuracy(np.full(k, acc)) for k in Ks]),
                **{f"PCWMV, {kind} noise": noise_group(kind, acc, Ks)["acc"]
                   for kind in ("uniform", "normal", "binary")},
                "lower": np.array([b.lower for b in bounds]),
                "upper": np.array([b.upper for b in bounds])}

    def draw(acc, K):
        c = curves(acc)
        i = K - 1
        traces = [Trace("Theorem 8 bounds", Ks, c["lower"], kind="band", color=_REGION,
                        y2=c["upper"]),
                  Trace("MV", Ks, c["MV"], color="#0072b2")]
        for kind in ("uniform", "normal", "binary"):
            traces.append(Trace(f"PCWMV, {kind} noise", Ks, c[f"PCWMV, {kind} noise"],
                                **_line_style(kind)))
        traces.append(Trace("group of K", [K], [c["PCWMV, uniform noise"][i]], kind="points",
                            color="#d55e00"))
        names = ["Theorem 8 upper", "PCWMV, uniform noise", "PCWMV, normal noise",
                 "PCWMV, binary noise", "CWMV", "MV", "Theorem 8 lower"]
        key = {"Theorem 8 upper": "upper", "Theorem 8 lower": "lower"}
        values = np.array([c[key.get(n, n)][i] for n in names])
        traces.append(Trace("at K", values, names, kind="hbars", panel=1, color="#0072b2"))
        caption = (f"{K} members of {_pct(acc)} accuracy: majority vote {c['MV'][i]:.3f}; "
                   f"optimally weighted (PCWMV) {c['PCWMV, binary noise'][i]:.3f} to "
                   f"{c['PCWMV, uniform noise'][i]:.3f} depending on the members' confidence; "
                   f"Theorem 8 allows {c['lower'][i]:.3f} to {c['upper'][i]:.3f}.")
        return View(tuple(traces), caption)

    return Explorer(
        "group-accuracy", "Group accuracy (Meyen et al., Theorem 8 and Figure 8)",
        (control("acc", "member accuracy", acc, default=0.7 if 0.7 in acc else None,
                 fmt="{:.0%}"),
         control("K", "group size K", sizes, default=3 if 3 in sizes else None, fmt="{:d}")),
        (Panel("Group accuracy against group size", "group size K", "group accuracy",
               xrange=(0.5, max(sizes) + 0.5), yrange=(0.49, 1.01)),
         Panel("The rules at this K", "group accuracy", "", xrange=(0.49, 1.01))),
        draw)


def type2_explorer(d=(1.0, 1.5, 2.0, 2.5), meta_d=tuple(np.round(np.arange(0, 3.01, 0.25), 2)),
                   levels: int = 4) -> Explorer:
    """Type 2 measures of a rating table whose Type 2 separation you vary.

    The table is the meta-d′ model's :math:`P(\\text{rating} \\mid S)`
    (:func:`metabits.sdt.rating_probabilities`, equal priors, unbiased, ``levels`` confidence
    levels): d′ sets the Type 1 separation and meta-d′ how well the ratings separate correct from
    wrong. Its measures are :func:`metabits.measures.type2_measures` (meta-I, the ratios and RMI)
    and :func:`metabits.metad.fit_meta_d` (meta-d′ and the M-ratio, fitted to the table).

    Parameters
    ----------
    d : sequence of float
        The d′ slider's grid (> 0).
    meta_d : sequence of float
        The meta-d′ slider's grid (>= 0).
    levels : int, default 4
        Confidence levels per response.

    Returns
    -------
    Explorer
        Controls ``d`` and ``meta_d``.

    Raises
    ------
    ValueError
        For d′ <= 0, meta-d′ < 0 or fewer than 2 levels (when the frames are computed).

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures" (the six measures);
    Maniscalco & Lau (2012) (meta-d′).

    Examples
    --------
    >>> v = type2_explorer(d=[1.5], meta_d=[1.5]).view()
    >>> dict(zip(v.trace("measure").y, v.trace("measure").x.round(2).tolist()))["M-ratio"]
    1.0
    """
    from .measures import type2_measures
    from .metad import fit_meta_d
    from .sdt import rating_probabilities

    levels = as_int(levels, "levels", least=2)
    columns = [f"S1 {k}" for k in range(levels, 0, -1)] + [f"S2 {k}" for k in range(1, levels + 1)]
    names = ["M-ratio", "meta-I₁ʳ", "meta-I₂ʳ", "RMI"]

    def draw(d, meta_d):
        table = rating_probabilities(d, meta_d, K=levels)
        m = type2_measures(table)
        fit = fit_meta_d(table[0] * 1000, table[1] * 1000)  # expected counts of 1000 trials each
        values = [fit.m_ratio + 0.0, m.meta_I1r, m.meta_I2r, m.RMI]  # + 0.0: no "-0.00"
        caption = (f"d′ = {d:g}, meta-d′ = {meta_d:g} (accuracy {_pct(m.acc)}): fitted meta-d′ "
                   f"{fit.meta_d + 0.0:.2f}, M-ratio {fit.m_ratio + 0.0:.2f}, meta-I {m.meta_I:.3f} bit, "
                   f"meta-I₁ʳ {m.meta_I1r:.2f}, meta-I₂ʳ {m.meta_I2r:.3f}, RMI {m.RMI:.3f}.")
        return View((
            Trace("S1 presented", columns, table[0], kind="bars", color="#0072b2"),
            Trace("S2 presented", columns, table[1], kind="bars", color="#e69f00"),
            Trace("measure", np.array(values), names, kind="hbars", panel=1, color="#009e73"),
        ), caption)

    return Explorer(
        "type2-measures", "Type 2 measures of a rating table (Meyen et al., six measures)",
        (control("d", "d′", d, default=1.5 if 1.5 in d else None, fmt="{:g}"),
         control("meta_d", "meta-d′", meta_d, default=1.0 if 1.0 in meta_d else None,
                 fmt="{:g}")),
        (Panel("The table: P(response | stimulus)", "response (confidence 1 = lowest)",
               "probability", yrange=(0.0, None)),
         Panel("The four normalised measures", "value", "", xrange=(-0.05, None))),
        draw)
