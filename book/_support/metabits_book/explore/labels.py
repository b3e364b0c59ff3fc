"""Where the text labels of an explorer's points go, the same on the website and in a kernel.

``_label_places`` gives each labelled ``"points"`` trace of a view its labels' positions
(plotly ``textposition`` strings such as ``"middle right"``), chosen panel by panel so that no
two labels overlap, no label covers a marker and none runs off the plot at any of the plot sizes
of :data:`LABEL_PLOT_SIZES`. The website (:mod:`metabits_book.explore.web`) hands the positions to
plotly, the live explorer (:mod:`metabits_book.explore.kernel`) turns them into matplotlib offsets.
"""

from __future__ import annotations

import numpy as np

__all__ = ["LABEL_PLOT_SIZES"]

#: Plot areas (width, height in px) a panel's labels must fit without overlapping: the website's
#: panel in a 400 px window, a middle one and a 1280 px window (measured in Chromium: 296 × 227
#: and 616 × 227) and a page without the book's sidebar, with a few pixels to spare; the label
#: font is the layout's 13 px.
LABEL_PLOT_SIZES = ((290.0, 222.0), (450.0, 222.0), (610.0, 222.0), (1100.0, 222.0))
_LABEL_FONT_PX = 13.0
_LABEL_CHAR_PX = 0.52 * _LABEL_FONT_PX   # a generous average width of a sans-serif character
_LABEL_LINE_PX = 1.3 * _LABEL_FONT_PX
_MARKER_R_PX = 5.0                        # the website's markers are 10 px wide
_LABEL_GAP_PX = 3.0
_LABEL_SEARCH_LIMIT = 20_000


def _label_box(px: float, py: float, text: str, position: str) -> tuple:
    """The box (left, top, right, bottom, in px) of ``text`` placed at ``position`` (plotly's
    ``textposition``: ``"middle right"``, ``"top center"``, ...) beside a marker at (px, py)."""
    w, h = _LABEL_CHAR_PX * len(text), _LABEL_LINE_PX
    off = _MARKER_R_PX + _LABEL_GAP_PX
    vertical, horizontal = position.split()
    if vertical == "middle":
        top = py - h / 2
    else:   # a corner label sits diagonally: it need not clear the marker's full radius
        off_v = off if horizontal == "center" else _LABEL_GAP_PX
        top = py - off_v - h if vertical == "top" else py + off_v
    if horizontal == "center":
        left = px - w / 2
    else:
        off_h = off if vertical == "middle" else 0.0
        left = px + off_h if horizontal == "right" else px - off_h - w
    return left, top, left + w, top + h


def _overlap(a: tuple, b: tuple) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _label_positions(traces, panel) -> dict:
    """Where each text label of a panel goes (plotly ``textposition`` strings), so that no two
    labels overlap, no label covers a marker and none runs off the plot.

    ``traces``: the panel's traces of one view; returns ``{index in traces: [position per
    point]}`` for the traces with ``text``. Each label prefers the side of its marker away from
    the nearer edge (left of points in the right 40% of the x range); where that collides, the
    other side, above, below or a corner, checked at every plot size of
    :data:`LABEL_PLOT_SIZES`: the labels are the same size at any width, the points move apart as
    the plot widens. Without fixed x and y ranges the sides follow the 40% rule alone.
    """
    labelled = [(i, j, float(x), float(y), s) for i, t in enumerate(traces)
                if t.kind == "points" and t.text is not None
                for j, (x, y, s) in enumerate(zip(np.asarray(t.x, float),
                                                  np.asarray(t.y, float), t.text))]
    out = {i: [None] * len(t.text) for i, t in enumerate(traces)
           if t.kind == "points" and t.text is not None}
    if not labelled:
        return out
    xr, yr = panel.xrange, panel.yrange

    def fixed(r):
        return isinstance(r, (tuple, list)) and len(r) == 2 and None not in r

    if not fixed(xr):
        for i, j, *_ in labelled:
            out[i][j] = "middle right"
        return out
    cut = xr[0] + 0.6 * (xr[1] - xr[0])
    prefs = []
    for _, _, x, _, _ in labelled:
        near, far = ("left", "right") if x > cut else ("right", "left")
        prefs.append((f"middle {near}", f"middle {far}", "top center", "bottom center",
                      f"top {near}", f"bottom {near}", f"top {far}", f"bottom {far}"))
    if not fixed(yr):
        for (i, j, *_), p in zip(labelled, prefs):
            out[i][j] = p[0]
        return out
    # every labelled and unlabelled marker of the panel is an obstacle
    markers = [(float(x), float(y)) for t in traces if t.kind == "points"
               for x, y in zip(np.asarray(t.x, float), np.asarray(t.y, float))]
    sizes = []
    for width, height in LABEL_PLOT_SIZES:
        def px(x, y, width=width, height=height):
            return ((x - xr[0]) / (xr[1] - xr[0]) * width, (yr[1] - y) / (yr[1] - yr[0]) * height)
        dots = [(px(x, y)) for x, y in markers]
        dots = [(a - _MARKER_R_PX, b - _MARKER_R_PX, a + _MARKER_R_PX, b + _MARKER_R_PX)
                for a, b in dots]
        boxes = [[_label_box(*px(x, y), s, pos) for pos in p]
                 for (_, _, x, y, s), p in zip(labelled, prefs)]
        sizes.append((width, height, dots, boxes))

    def cost(k: int, c: int, chosen: list) -> float:
        """How badly candidate c of label k collides, at the sizes, with the edges, the markers
        and the labels already placed (0: not at all)."""
        total = 0.0
        for width, height, dots, boxes in sizes:
            b = boxes[k][c]
            area = (b[2] - b[0]) * (b[3] - b[1])
            total += area - _overlap(b, (0.0, 0.0, width, height))
            total += sum(_overlap(b, d) for d in dots)
            total += sum(_overlap(b, boxes[m][cm]) for m, cm in enumerate(chosen))
        return total

    chosen, visited = [], 0

    def search() -> bool:   # depth-first: the first assignment, in preference order, that fits
        nonlocal visited
        k = len(chosen)
        if k == len(labelled):
            return True
        for c in range(len(prefs[k])):
            visited += 1
            if visited > _LABEL_SEARCH_LIMIT:
                return False
            if cost(k, c, chosen) == 0.0:
                chosen.append(c)
                if search():
                    return True
                chosen.pop()
        return False

    if not search():   # crowded: each label where it collides least with those before it
        chosen = []
        for k in range(len(labelled)):
            chosen.append(min(range(len(prefs[k])), key=lambda c: (cost(k, c, chosen), c)))
    for (i, j, *_), p, c in zip(labelled, prefs, chosen):
        out[i][j] = p[c]
    return out



def _label_places(traces, panels) -> dict:
    """The positions of every point label of a view, placed panel by panel.

    Parameters
    ----------
    traces : sequence of Trace
        The traces of one view (fixed traces included), checked (:func:`frames`).
    panels : sequence of Panel
        The explorer's panels.

    Returns
    -------
    dict
        ``{id(trace): [position per point]}`` for each trace with ``text`` (plotly
        ``textposition`` strings).

    Examples
    --------
    >>> from metabits_book.explore.model import Panel, Trace
    >>> t = Trace("agents", [0.6, 0.9], [0.5, 0.5], kind="points", text=["A", "B"])
    >>> _label_places([t], [Panel("", "", "", xrange=(0.5, 1), yrange=(0, 1))])[id(t)]
    ['middle right', 'middle left']
    """
    places = {}
    for p, panel in enumerate(panels):
        mine = [t for t in traces if t.panel == p]
        places.update({id(mine[i]): pos for i, pos in _label_positions(mine, panel).items()})
    return places
