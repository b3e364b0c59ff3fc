"""The live explorers for a kernel (Binder, Colab, local Jupyter), and :func:`show`.

:func:`live` gives ipywidgets sliders and menus that call the explorer's function at any value
within the grid's range and draw its view with matplotlib (:func:`to_matplotlib`). Only widgets
that exist in ipywidgets 7.7 (Colab) and 8 are used (``FloatSlider``, ``IntSlider``,
``Dropdown``, ``Output``, ``HBox``, ``VBox``). :func:`show` gives both renderings at once: a
notebook output whose website rendering is the static explorer
(:func:`~metabits_book.explore.web.static_html`) and whose rendering in Jupyter is the live one.
matplotlib and ipywidgets are imported when first needed.
"""

from __future__ import annotations

import numpy as np

from metabits_book._arguments import as_instance
from metabits_book.explore.labels import _label_places
from metabits_book.explore.model import Control, Explorer, Trace, View, _check_trace
from metabits_book.explore.web import static_html

__all__ = ["ExplorerDisplay", "live", "show", "to_matplotlib"]


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
        For an ``explorer`` that is not an :class:`Explorer`, a ``view`` that is not a
        :class:`View`, or a view whose traces are not valid (:func:`frames`).

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
    >>> fig = to_matplotlib(roc_explorer(acc=[0.6, 0.7]))
    >>> len(fig.axes), fig.axes[0].get_xlabel()
    (2, 'false positive rate')
    """
    from matplotlib.figure import Figure  # imported here: not at import metabits_book.explore

    as_instance(explorer, Explorer, "explorer")
    if view is not None:
        as_instance(view, View, "view", "from explorer.view")
    if view is None:
        view = explorer.view()
    n = len(explorer.panels)
    fig = Figure(figsize=(6.4, 3.3 * n), layout="constrained")
    axes = fig.subplots(n, 1, squeeze=False)[:, 0]
    places = _label_places(view.traces, explorer.panels)   # as on the website
    for t in view.traces:
        _check_trace(t, n)
        ax = axes[t.panel]
        if t.kind == "band":
            ax.fill_between(np.asarray(t.x, float), np.asarray(t.y, float),
                            np.asarray(t.y2, float), color=t.color, lw=0, label=t.name)
        elif t.kind in ("bars", "hbars"):
            _grouped_bars(ax, t, [u for u in view.traces
                                  if u.kind == t.kind and u.panel == t.panel])
        elif t.kind == "points" and t.ylow is not None:   # with error bars
            y = np.asarray(t.y, float)
            ax.errorbar(t.x, y, yerr=[y - np.asarray(t.ylow, float),
                                      np.asarray(t.yhigh, float) - y],
                        fmt="o", color=t.color, ms=3, lw=0.7, label=t.name, zorder=5)
        elif t.kind == "points":
            ax.plot(t.x, t.y, "o", color=t.color, ms=7, mec="white", label=t.name, zorder=5)
            for x, y, label, where in zip(t.x, t.y, t.text or (), places.get(id(t), ())):
                vertical, horizontal = where.split()
                dx = {"left": -1, "center": 0, "right": 1}[horizontal]
                dy = {"bottom": -1, "middle": 0, "top": 1}[vertical]
                ax.annotate(label, (x, y), xytext=(6 * dx, 6 * dy), textcoords="offset points",
                            ha={"left": "right", "center": "center", "right": "left"}[horizontal],
                            va={"bottom": "top", "middle": "center", "top": "bottom"}[vertical],
                            color=t.color, fontsize=9)
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


#: what the PNG of an explorer says in its ``Description`` text chunk, followed by the explorer's
#: key: how the PDF build (scripts/pdf_book.py) recognises an explorer's picture
PNG_DESCRIPTION = "metabits explorer "


def _png(fig, explorer: Explorer | None = None):
    """The figure as an IPython PNG image (of ``explorer``: its title and key in the PNG's text).

    A bare matplotlib ``Figure`` displays as an image only where pyplot's inline backend has
    registered its formatter (after ``import matplotlib.pyplot``); as PNG bytes it shows the same
    in every front end.
    """
    import io

    from IPython.display import Image

    buf = io.BytesIO()
    meta = None if explorer is None else {"Title": explorer.title,
                                          "Description": PNG_DESCRIPTION + explorer.key}
    fig.savefig(buf, format="png", dpi=100, metadata=meta)
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
        If ``explorer`` is not an :class:`Explorer`, or its function rejects the default
        setting.

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
    >>> box = live(roc_explorer(acc=[0.6, 0.7]))
    >>> type(box).__name__, [type(w).__name__ for w in box.children[0].children]
    ('VBox', ['FloatSlider'])
    >>> "image/png" in box.children[1].outputs[0]["data"]
    True
    """
    import ipywidgets as widgets  # imported here: only a live explorer needs it

    as_instance(explorer, Explorer, "explorer")
    controls = [_widget(c) for c in explorer.controls]
    out = widgets.Output()

    def redraw(change=None):
        values = {c.name: w.value for c, w in zip(explorer.controls, controls)}
        view = explorer.view(**values)
        out.outputs = ()
        out.append_display_data(_png(to_matplotlib(explorer, view), explorer))
        out.append_stdout(view.caption + "\n")

    for w in controls:
        w.observe(redraw, names="value")
    redraw()
    return widgets.VBox([widgets.VBox(controls), out])


class ExplorerDisplay:
    """A notebook output that is the live explorer in Jupyter and the static one on the website.

    Its MIME bundle holds the ipywidgets view (which Jupyter, Binder and Colab render), the
    static HTML of :func:`static_html` (which the book's website renders: its Sphinx extension
    tells MyST-NB not to render widget views, which would be dead controls without a kernel) and
    a PNG of the view the live explorer draws first (for what shows neither: the book's PDF, a
    notebook viewer without widgets). The PNG is the live view's own, so it costs nothing more;
    its ``Description`` text chunk is :data:`PNG_DESCRIPTION` and the explorer's key.
    """

    def __init__(self, explorer: Explorer):
        self.explorer = explorer
        self.widget = None

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.widget is None:
            self.widget = live(self.explorer)
        shown = self.widget.children[1].outputs   # the live view's picture and caption
        png = [o["data"]["image/png"] for o in shown if "image/png" in o.get("data", {})]
        bundle = {"text/plain": f"explorer: {self.explorer.title}",
                  "text/html": static_html(self.explorer),
                  **({"image/png": png[0]} if png else {}),
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

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
    >>> out = show(roc_explorer(acc=[0.6, 0.7]))
    >>> sorted(out._repr_mimebundle_())  # doctest: +NORMALIZE_WHITESPACE
    ['application/vnd.jupyter.widget-view+json', 'image/png', 'text/html', 'text/plain']
    """
    if not isinstance(explorer, Explorer):
        raise ValueError(f"show needs an Explorer; got {type(explorer).__name__}")
    return ExplorerDisplay(explorer)
