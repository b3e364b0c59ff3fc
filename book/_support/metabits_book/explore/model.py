"""The explorer model: controls, traces, panels, views and the grid of frames.

An :class:`Explorer` is a function from the values of a few :class:`Control` objects to a
:class:`View` (the :class:`Trace` objects to draw in its :class:`Panel` objects, and a caption),
plus the controls' grids. :func:`grid` lists every setting of the controls and :func:`frames`
the view at each; the renderers (:mod:`metabits_book.explore.web` for the website,
:mod:`metabits_book.explore.kernel` for a live kernel) only draw what these return, with the point
labels where :mod:`metabits_book.explore.labels` places them. This module imports no plotting or
widget library.
"""

from __future__ import annotations

import itertools
import numbers
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from metabits.validation import as_choice, as_int
from metabits_book._arguments import as_format, as_grid, as_instance, as_text

__all__ = ["DASHES", "TRACE_KINDS", "Control", "Explorer", "Panel", "Trace", "View", "control",
           "frames", "grid"]

TRACE_KINDS = ("line", "points", "bars", "hbars", "band")
DASHES = ("solid", "dash", "dot")

# the minus sign of a number that rounded to zero ("-0.00", "-0%"): dropped from every caption
_NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-−](?=0(?:\.0+)?(?!\.?\d))")

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

    Raises
    ------
    ValueError
        When made with a ``name`` that is not an identifier, a ``label`` that is not a non-empty
        str, a bad grid (:func:`control`), a ``default`` not in the grid or a ``fmt`` that cannot
        format the grid's values.
    """

    name: str
    label: str
    values: tuple
    default: object
    fmt: str = "{}"

    def __post_init__(self):
        # checked when the control is made, not when a value is first shown
        as_text(self.name, "name of a control", identifier=True)
        as_text(self.label, f"label of control {self.name!r}")
        values = as_grid(self.values, f"values of control {self.name!r}")
        object.__setattr__(self, "values", values)
        if not _in_grid(self.default, values):
            raise ValueError(f"default {self.default!r} of control {self.name!r} is not one of "
                             f"its values {values}")
        as_format(self.fmt, f"fmt of control {self.name!r}", values)

    @property
    def numeric(self) -> bool:
        """Whether the values are numbers (a slider) rather than names (a menu)."""
        return not isinstance(self.values[0], str)

    def show(self, value) -> str:
        """``value`` (a value the control can take, :meth:`Explorer.view`) formatted for
        display."""
        return self.fmt.format(_control_value(self, value))


def _in_grid(value, values: tuple) -> bool:
    """Whether ``value`` is one of a grid's ``values`` (a number or a name; not a bool)."""
    return (isinstance(value, (str, numbers.Real)) and not isinstance(value, (bool, np.bool_))
            and value in values)


def _control_value(c: Control, value):
    """``value`` if control ``c`` can take it: one of a menu's names, or a number within a
    slider's range (between grid points too: the live sliders move freely), an integer if the
    grid's values are integers."""
    if not c.numeric:
        if not isinstance(value, str) or value not in c.values:
            raise ValueError(f"the value of control {c.name!r} must be one of {c.values}; "
                             f"got {value!r}")
        return value
    lo, hi = c.values[0], c.values[-1]
    integer = all(isinstance(v, int) for v in c.values)
    what = "an integer" if integer else "a number"
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, numbers.Integral if integer else numbers.Real) \
            or not lo <= value <= hi:   # NaN fails the comparison
        raise ValueError(f"the value of control {c.name!r} must be {what} in [{lo:g}, {hi:g}]; "
                         f"got {value!r}")
    return value


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
        A matplotlib colour (``black``, ``#e69f00``, ``0.85``): one of
        :mod:`metabits_book.palette`.
    dash : {"solid", "dash", "dot"}
        Line style of ``"line"`` traces.
    y2 : ndarray or None
        Upper edge of a ``"band"``.
    width : float or None
        Width of ``"bars"`` in data units (``None``: the plotting library's default).
    text : tuple of str or None
        Labels written beside the markers of a ``"points"`` trace, one per point (e.g. which
        agent each point is).
    ylow, yhigh : ndarray or None
        Ends of a vertical error bar at each point of a ``"points"`` trace (e.g. a bootstrap
        interval); both or neither.
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
    text: object = None
    ylow: object = None
    yhigh: object = None

    def __post_init__(self):
        # numbers become float arrays, category names a tuple of str: one form for every consumer
        for name in ("x", "y", "y2", "ylow", "yhigh"):
            value = getattr(self, name)
            if value is None:
                continue
            arr = np.asarray(value)
            object.__setattr__(self, name, tuple(str(v) for v in arr.ravel())
                               if arr.dtype.kind in "UO" else arr.astype(float).ravel())
        if self.text is not None:
            object.__setattr__(self, "text", tuple(str(v) for v in np.asarray(self.text,
                                                                            dtype=object).ravel()))


@dataclass(frozen=True)
class Panel:
    """The axes of one panel.

    Attributes
    ----------
    title, xlabel, ylabel : str
        Title and axis labels, in plain text: no TeX, so that plotly never calls MathJax.
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
        One or two sentences with the setting's numbers, shown under the panels. A number that
        rounded to zero is written without a minus sign (``"-0.00"`` becomes ``"0.00"``).
    """

    traces: tuple
    caption: str

    def __post_init__(self):
        if isinstance(self.caption, str):
            object.__setattr__(self, "caption", _NEGATIVE_ZERO.sub("", self.caption))

    def trace(self, name: str, panel: int | None = None) -> Trace:
        """The trace called ``name`` (in ``panel``, if given).

        Raises
        ------
        ValueError
            If there is no such trace, or ``panel`` is not an integer >= 0.
        """
        if panel is not None:
            as_int(panel, "panel", least=0)
        for t in self.traces:
            if t.name == name and (panel is None or t.panel == panel):
                return t
        raise ValueError(f"no trace named {name!r}"
                         + ("" if panel is None else f" in panel {panel}")
                         + f"; the traces are {sorted({t.name for t in self.traces})}")


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
        """The view at ``values`` (missing controls at their defaults), fixed traces first.

        A value may lie between a slider's grid points (the live sliders call it there) but not
        outside its range; a menu's value must be one of its names.

        Raises
        ------
        ValueError
            For an unknown control or a value the control cannot take.
        """
        unknown = set(values) - {c.name for c in self.controls}
        if unknown:
            raise ValueError(f"unknown control {sorted(unknown)[0]!r} of explorer {self.key!r}; "
                             f"its controls are {[c.name for c in self.controls]}")
        args = {c.name: _control_value(c, values[c.name]) if c.name in values else c.default
                for c in self.controls}
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
        For a ``name`` that is not an identifier, a ``label`` that is not a non-empty str, an
        empty grid, repeated values, numbers not increasing or not finite, a mixture of numbers
        and strings, a default that is not in the grid, or a ``fmt`` that is not a format string
        for the grid's values.

    Notes
    -----
    The chapter "Explore Part I" (``book/meyen/10_explorers``), section "How the explorers
    work", describes the controls of both front ends.

    Examples
    --------
    >>> c = control("acc", "accuracy", [0.6, 0.7, 0.8], default=0.7, fmt="{:.0%}")
    >>> c.numeric, c.show(c.default)
    (True, '70%')
    >>> control("kind", "noise", ["uniform", "normal"]).default
    'normal'
    """
    as_text(name, "name of a control", identifier=True)
    grid_values = as_grid(values, f"values of control {name!r}")
    if default is None:
        default = grid_values[len(grid_values) // 2]
    elif not _in_grid(default, grid_values):
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
        If ``explorer`` is not an :class:`Explorer` or has no controls.

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
    >>> e = roc_explorer(acc=[0.6, 0.7])
    >>> grid(e)
    [{'acc': 0.6}, {'acc': 0.7}]
    """
    as_instance(explorer, Explorer, "explorer")
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
        If ``explorer`` is not an :class:`Explorer`, or its function raises it at a point of the
        grid, or returns something that is not a :class:`View` of valid traces.

    Examples
    --------
    >>> from metabits_book.explore import roc_explorer
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
    if t.text is not None and (t.kind != "points" or len(t.text) != len(t.x)):
        raise ValueError(f"trace {t.name!r}: text labels are for points, one per point")
    if (t.ylow is None) != (t.yhigh is None) or (t.ylow is not None and (
            t.kind != "points" or len(t.ylow) != len(t.x) or len(t.yhigh) != len(t.x))):
        raise ValueError(f"trace {t.name!r}: error bars (ylow and yhigh, both) are for points, "
                         "one per point")
