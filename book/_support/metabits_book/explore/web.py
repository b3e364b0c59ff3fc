"""The website's explorers: every frame precomputed, written into the page as JSON.

:func:`static_html` calls an explorer's function at every point of its grid
(:func:`metabits_book.explore.model.frames`) and writes the frames, as plotly trace dicts, into an
HTML fragment with sliders and menus. A small generic script (:data:`EXPLORER_JS`, the package
data file ``explorer.js``) picks the frame of the controls' positions and hands its traces to
plotly.js (served once from the site's ``_static``, see ``_ext/metabits_explore.py``). No
kernel, no network, no computation in JavaScript: moving a slider only selects a precomputed
frame. Nothing here imports plotly; matplotlib is imported only to turn colours into CSS.
"""

from __future__ import annotations

import html
import json
from importlib.resources import files
from pathlib import Path

import numpy as np

from metabits_book._arguments import as_instance
from metabits_book.palette import WEB_AXIS, WEB_GRID
from metabits_book.explore.labels import _label_places
from metabits_book.explore.model import Explorer, Panel, View, frames

__all__ = ["DIGITS", "EXPLORER_JS", "plotly_figures", "plotly_js_path", "static_html"]

#: significant digits of the numbers written into a page (a frame's data, not its captions)
DIGITS = 5



def _css(color: str) -> str:
    from matplotlib.colors import to_hex  # imported here: no plotting library at import

    return to_hex(color)


def _numbers(a):
    """Numbers rounded to DIGITS significant digits for the page (categories unchanged)."""
    a = list(np.asarray(a).tolist()) if not isinstance(a, (tuple, list)) else list(a)
    return [float(f"{v:.{DIGITS}g}") if isinstance(v, float) else v for v in a]


def _plotly_traces(traces, panels) -> list:
    """Plotly trace dicts, one list per panel (``panels``: the explorer's)."""
    out = [[] for _ in range(len(panels))]
    places = _label_places(traces, panels)
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
                if t.ylow is not None:   # error bars: smaller markers, thin bars
                    y = np.asarray(t.y, float)
                    d["marker"].update(size=6, line={"width": 0})
                    d["error_y"] = {"type": "data", "symmetric": False,
                                    "array": _numbers(np.asarray(t.yhigh, float) - y),
                                    "arrayminus": _numbers(y - np.asarray(t.ylow, float)),
                                    "color": color, "thickness": 1, "width": 0}
                if t.text is not None:
                    d.update(mode="markers+text", text=list(t.text), textfont={"color": color},
                             textposition=places[id(t)])
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
                data = [t.x] if axis == "x" else [t.y] + [e for e in (t.y2, t.ylow, t.yhigh)
                                                          if e is not None]
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
    """Panel ``p``'s legend entries: one per trace name (first appearance), none for a lone
    trace."""
    entries = {}
    for v in views:
        for t in tuple(explorer.fixed) + tuple(v.traces):
            if t.panel == p and t.name not in entries:
                entries[t.name] = t
    return list(entries.values()) if len(entries) > 1 else []


def _legend_html(entries, shown=(), p: int = 0) -> str:
    """An HTML legend (a list of swatches and names): it wraps with the column at any width.

    A swatch takes its colour from the trace of that name among ``shown`` (the traces of the
    frame first drawn) when there is one; ``explorer.js`` recolours the swatches at every frame,
    so a trace whose colour changes with the controls keeps a true swatch.
    """
    if not entries:
        return ""
    now = {}
    for t in shown:
        if t.panel == p:
            now.setdefault(t.name, t)
    items = []
    for t in entries:
        color = _css(now.get(t.name, t).color)
        if t.kind == "line":
            css_dash = {"solid": "solid", "dash": "dashed", "dot": "dotted"}[t.dash]
            style, cls = f"border-top:3px {css_dash} {color}", "mbx-key mbx-key-line"
        elif t.kind == "points":
            style, cls = f"background:{color}", "mbx-key mbx-key-point"
        else:
            style, cls = f"background:{color}", "mbx-key mbx-key-area"
        items.append(f'<li><span class="{cls}" style="{style}" '
                     f'data-trace="{html.escape(t.name)}"></span>{html.escape(t.name)}</li>')
    return f'<ul class="mbx-legend" data-panel="{p}">{"".join(items)}</ul>'


def _plotly_layout(panel: Panel, ranges: dict) -> dict:
    axis = {"automargin": True, "zeroline": False, "showline": True, "linecolor": WEB_AXIS,
            "ticks": "outside", "gridcolor": WEB_GRID}
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
        As :func:`frames`, or for a ``view`` that is not a :class:`View`.

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
    >>> figs = plotly_figures(roc_explorer(acc=[0.6, 0.7]))
    >>> len(figs), figs[0]["layout"]["xaxis"]["title"]["text"]
    (2, 'false positive rate')
    """
    as_instance(explorer, Explorer, "explorer")
    if view is not None:
        as_instance(view, View, "view", "from explorer.draw")
    views = frames(explorer)
    if view is None:
        view = explorer.draw(**{c.name: c.default for c in explorer.controls})
    ranges = _ranges(explorer, views)
    n = len(explorer.panels)
    fixed = _plotly_traces(explorer.fixed, explorer.panels)
    data = _plotly_traces(view.traces, explorer.panels)
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

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
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
        "fixed": _plotly_traces(explorer.fixed, explorer.panels),
        "frames": [_plotly_traces(v.traces, explorer.panels) for v in views],
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
    index = int(np.ravel_multi_index(start, shape))
    first = tuple(explorer.fixed) + tuple(views[index].traces)
    parts += [f'<div class="mbx-panel" data-panel="{p}" role="img" '
              f'aria-label="{html.escape(explorer.panels[p].title)}: interactive plot"></div>'
              + _legend_html(_legend(explorer, views, p), first, p) for p in range(n)]
    parts.append(f'<p class="mbx-caption" aria-live="polite">{html.escape(views[index].caption)}'
                 '</p>')
    data = json.dumps(spec, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    parts.append(f'<script type="application/json" class="mbx-data">{data}</script>')
    parts.append("</div>")
    return "".join(parts)


#: The website's script (the package data file ``explorer.js``): reads each explorer's JSON and
#: builds nothing but plotly calls from it. ``_ext/metabits_explore.py`` writes it into the
#: site's ``_static`` as ``metabits-explorer.js``.
EXPLORER_JS = files(__package__).joinpath("explorer.js").read_text(encoding="utf-8")


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

    Notes
    -----
    The chapter "Explore Part I" (``book/meyen/10_explorers``), section "How the explorers
    work", says why the explorers use plotly and why every page loads one shared copy.

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
