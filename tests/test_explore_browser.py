"""The website's explorers in a real browser.

Serves the built site on 127.0.0.1 and drives headless Chromium through every page that shows an
explorer (a ``<div class="metabits-explorer">``, written by
:func:`metabits_book.explore.static_html`), with every request outside 127.0.0.1 blocked. The
pages are visited once for this module and tests/test_browser.py together (the session fixture
``site_visits`` of conftest.py, which runs ``_browser.visit_site``): each page is loaded once (in
a tab taken from page to page with the browser's cache on; a file served from the cache is still
a request the page makes, and is seen); on a page with an explorer the visit also moves every
control, at 1280 px and at 400 px. This module checks the explorer pages for:

- no console error or uncaught script error, no failed request;
- ``plotly.min.js`` requested exactly once, from the site's own ``_static``;
- every explorer drew every panel (plotly's ``.main-svg`` inside each ``.mbx-panel``);
- every legend swatch shows the colour its trace is drawn in, at the first frame and after
  every control move;
- moving each control from the default setting (a range input set and its ``input`` event
  dispatched, or another option chosen in a menu) changes the plot's SVG, the ``data-frame``
  attribute and the caption; the frame shown is the one ``np.ravel_multi_index`` gives for the
  controls' positions, with that frame's caption from the page's JSON; moving it back restores
  the default frame and plot;
- the math on the page rendered (MathJax output, no raw ``\\(``);
- the page's HTML (without the shared plotly.min.js) is under 3 MB;
- at a 400 px wide window the page does not scroll sideways, the plots fit the window and the
  controls still move the plots.

A page that loads plotly.min.js must show an explorer (4.8 MB for nothing otherwise); that is
checked on the built files, without a browser. Skipped or failed without Chromium or Playwright
as tests/test_browser.py explains; ``METABITS_SITE`` tests an existing build.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from _browser import EXPLORER_DIV, LABELLED_POINTS, NARROW, WIDE, _fmt, site_pages

pytestmark = [pytest.mark.browser, pytest.mark.build]

PLOTLY_SCRIPT = re.compile(r'<script[^>]*src="[^"]*_static/plotly\.min\.js"')
MAX_PAGE_BYTES = 3_000_000


@pytest.fixture(scope="module")
def explorer_pages(built_site) -> list[str]:
    root = Path(built_site)
    pages = [p for p in site_pages(root)
             if EXPLORER_DIV.search((root / p).read_text(encoding="utf-8", errors="replace"))]
    if not pages:
        pytest.fail(f"no page of {root} shows an explorer (<div class=\"metabits-explorer\">)")
    return pages


def _move_problems(move: dict, same_drawing_back: bool = True) -> list[str]:
    """What is wrong with one control move (empty: the plot followed the control).

    ``same_drawing_back``: the plot after moving the control back must be the first one (up to
    half a pixel). Not after narrowing the window: plotly's first redraw there may size the plot
    a pixel narrower than its resize handler did, which moves every path a little.
    """
    k, to, before, after = move["control"], move["to"], move["before"], move["after"]
    where = f"{after['id']} control {k} -> position {to}"
    spec = after["spec"]
    found = []
    if after["controls"][k]["value"] != to:
        found.append(f"{where}: the control shows position {after['controls'][k]['value']}")
    if after["frame"] == before["frame"]:
        found.append(f"{where}: data-frame stayed {before['frame']}")
    expected = int(np.ravel_multi_index([c["value"] for c in after["controls"]], spec["shape"]))
    if after["frame"] != expected:
        found.append(f"{where}: frame {after['frame']} shown, the controls select {expected}")
    if after["caption"] == before["caption"]:
        found.append(f"{where}: the caption did not change")
    if after["caption"] != spec["captions"][expected]:
        found.append(f"{where}: caption {after['caption'][:60]!r} is not frame {expected}'s")
    if after["drawn"] == before["drawn"]:
        found.append(f"{where}: the plots' SVG did not change")
    found += _swatch_problems(after)
    if after["controls"][k]["shown"] != spec["labels"][k][to]:
        found.append(f"{where}: the control reads {after['controls'][k]['shown']!r}, "
                     f"not {spec['labels'][k][to]!r}")
    back = move["back"]
    if (back["frame"], back["caption"]) != (before["frame"], before["caption"]) or \
            (same_drawing_back and not all(map(_same_drawing, back["drawn"], before["drawn"]))):
        found.append(f"{where} and back: the explorer did not return to frame {before['frame']}")
    return found


def _trace_colour(t: dict) -> str | None:
    """The colour a plotly trace dict of the page is drawn in (as explorer.js reads it)."""
    if t.get("fillcolor"):
        return t["fillcolor"]
    if t.get("type") == "bar" or str(t.get("mode", "")).startswith("markers"):
        return (t.get("marker") or {}).get("color")
    return (t.get("line") or {}).get("color")


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))


def _swatch_problems(state: dict) -> list[str]:
    """Legend swatches whose colour is not their trace's in the frame shown (e.g. the noise
    explorer's bars change colour with the noise case: their swatch must follow)."""
    spec, f = state["spec"], state["frame"]
    if f is None:
        return []
    found = []
    for sw in state["swatches"]:
        p = sw["panel"]
        traces = spec["fixed"][p] + spec["frames"][f][p]
        colours = [_trace_colour(t) for t in traces if t.get("name") == sw["trace"]]
        if colours and colours[0] and _rgb(colours[0]) != sw["color"]:
            found.append(f"{state['id']} frame {f}: legend swatch {sw['trace']!r} shows "
                         f"{sw['color']}, its trace is drawn in {colours[0]}")
    return found


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def _same_drawing(a: str, b: str, px: float = 0.5) -> bool:
    """Whether two panels' SVG paths are the same drawing, up to ``px`` (plotly's automatic
    margins may redo a layout a hundredth of a pixel differently)."""
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    x, y = (np.array(_NUMBER.findall(s), dtype=float) for s in (a, b))
    return x.shape == y.shape and bool(np.all(np.abs(x - y) <= px))


@pytest.fixture(scope="module")
def visits(site_visits, explorer_pages):  # site_visits: conftest.py
    """Every explorer page as the shared visit saw it: ``{path: {"errors", "failed", "plotly",
    "report" (1280 px), "initial", "moves", "narrow": {"report", "states", "moves"}}}``."""
    assert sorted(site_visits["explorer_pages"]) == sorted(explorer_pages)
    results = {}
    for path in explorer_pages:
        seen = site_visits["pages"][path]
        explore = seen.get("explore", {})
        results[path] = {"errors": seen["errors"], "failed": seen["failed"],
                         "plotly": seen["plotly"], "report": seen.get(WIDE),
                         "initial": explore.get("initial", []), "moves": explore.get("moves", {}),
                         "narrow": {"report": seen.get(NARROW),
                                    "states": explore.get("narrow", {}).get("states", []),
                                    "moves": explore.get("narrow", {}).get("moves", [])}}
    external = {p: urls for p, urls in site_visits["external"].items() if p in explorer_pages}
    return {"pages": results, "external": external, "base": site_visits["base"]}


def _collect(visits, check) -> dict:
    problems = {}
    for path, seen in visits["pages"].items():
        found = check(seen)
        if found:
            problems[path] = found
    return problems


# --- the checks ----------------------------------------------------------------------------------

def test_explorer_pages_make_no_external_request(visits):
    external = {page: sorted(urls) for page, urls in visits["external"].items()}
    assert not external, "requests outside 127.0.0.1 (blocked):\n" + _fmt(external)


def test_explorer_pages_have_no_console_errors(visits):
    problems = _collect(visits, lambda seen: seen["errors"])
    assert not problems, "console errors:\n" + _fmt(problems)


def test_explorer_pages_have_no_failed_requests(visits):
    problems = _collect(visits, lambda seen: seen["failed"])
    assert not problems, "failed requests:\n" + _fmt(problems)


def test_plotly_is_loaded_once_from_the_sites_static(visits):
    wanted = visits["base"] + "_static/plotly.min.js"

    def check(seen):
        # Sphinx appends "?v=<checksum>" when the file is already in _static (an incremental
        # build); the file requested is the same
        if [url.split("?")[0] for url in seen["plotly"]] != [wanted]:
            return [f"plotly requests {seen['plotly']}, expected exactly [{wanted}]"]
        return []

    problems = _collect(visits, check)
    assert not problems, "plotly.js not loaded once from _static:\n" + _fmt(problems)


def test_every_explorer_draws_every_panel(visits):
    def check(seen):
        found = []
        if not seen.get("initial"):
            return ["no explorer found in the browser"]
        for state in seen["initial"]:
            if state["ready"] != "1" or state["frame"] is None:
                found.append(f"{state['id']}: the explorer script did not start "
                             f"(ready={state['ready']}, frame={state['frame']})")
            start = int(np.ravel_multi_index(state["spec"]["start"], state["spec"]["shape"]))
            if state["frame"] != start:
                found.append(f"{state['id']}: first frame {state['frame']}, default is {start}")
            empty = [p for p, n in enumerate(state["svgs"]) if n == 0]
            if empty or not state["svgs"]:
                found.append(f"{state['id']}: no plot (.main-svg) in panels {empty}")
            if state["caption"] != state["spec"]["captions"][start]:
                found.append(f"{state['id']}: caption is not the default frame's")
            found += _swatch_problems(state)
        return found

    problems = _collect(visits, check)
    assert not problems, "explorers that did not draw:\n" + _fmt(problems)


def test_moving_each_control_changes_the_plot(visits):
    def check(seen):
        found = []
        for i, state in enumerate(seen.get("initial", [])):
            moves = seen["moves"].get(i, [])
            if len(moves) != len(state["controls"]) or not moves:
                found.append(f"{state['id']}: {len(moves)} of {len(state['controls'])} "
                             "controls moved")
            for move in moves:
                found += _move_problems(move)
        return found

    problems = _collect(visits, check)
    assert not problems, "controls that did not move the plot:\n" + _fmt(problems)


def test_math_is_rendered_on_explorer_pages(visits):
    def check(seen):
        report = seen.get("report")
        if report is None:
            return ["page not measured"]
        found = []
        if report["mathElements"] and not report["mathjaxContainers"]:
            found.append(f"{report['mathElements']} math elements but no MathJax output")
        found += [f"not typeset: {what}" for what in report["untypesetMath"]]
        found += [f"MathJax: {what}" for what in report["mathErrors"]]
        found += [f"raw TeX: {what}" for what in report["rawTeX"]]
        return found

    problems = _collect(visits, check)
    assert not problems, "math not rendered next to the explorers:\n" + _fmt(problems)
    # plotly.js and MathJax must coexist: at least one explorer page has typeset math
    assert any(seen["report"]["mathjaxContainers"] for seen in visits["pages"].values()), \
        "no explorer page has MathJax output to check that it coexists with plotly.js"


def test_explorer_pages_are_under_3_mb(built_site, explorer_pages):
    root = Path(built_site)
    sizes = {p: (root / p).stat().st_size for p in explorer_pages}
    big = {p: [f"{size / 1e6:.2f} MB"] for p, size in sizes.items() if size >= MAX_PAGE_BYTES}
    assert not big, f"explorer pages of {MAX_PAGE_BYTES / 1e6:.0f} MB or more:\n" + _fmt(big)


def test_explorers_work_at_400px(visits):
    def check(seen):
        narrow = seen.get("narrow") or {}
        report = narrow.get("report")
        if report is None:
            return ["not measured at 400 px"]
        found = []
        if report["scrollWidth"] > report["clientWidth"]:
            found.append(f"page is {report['scrollWidth']} px wide in a "
                         f"{report['clientWidth']} px window")
            found += report["tooWide"]
        for state in narrow["states"]:
            for p, right in enumerate(state["svgRights"]):
                if right is None or right > state["windowWidth"]:
                    found.append(f"{state['id']} panel {p}: plot ends at {right} px in a "
                                 f"{state['windowWidth']} px window")
        for move in narrow["moves"]:
            found += [f"at {NARROW} px: {what}"
                      for what in _move_problems(move, same_drawing_back=False)]
        return found

    problems = _collect(visits, check)
    assert not problems, f"explorers at a {NARROW} px window:\n" + _fmt(problems)


def test_only_pages_with_an_explorer_load_plotly(built_site):
    """plotly.min.js is 4.8 MB: a page without an explorer must not ask for it."""
    root = Path(built_site)
    wasted = []
    for path in site_pages(root):
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        if PLOTLY_SCRIPT.search(text) and not EXPLORER_DIV.search(text):
            wasted.append(path)
    assert not wasted, ("pages that load plotly.min.js but show no explorer:\n    "
                        + "\n    ".join(wasted))


# --- point labels: none overlaps another or leaves the plot --------------------------------------

# _browser.label_boxes measures the labels (its LABEL_BOXES_JS) in their page's visit.


def _label_problems(panels: list, width: int) -> list[str]:
    """Labels that overlap each other or leave the plot area (1 px of anti-aliasing allowed)."""
    found = []
    for panel in panels:
        labels, area = panel["labels"], panel["area"]
        for n, (text, (l, t, r, b)) in enumerate(labels):
            if area and (l < area[0] - 1 or r > area[2] + 1 or t < area[1] - 1 or b > area[3] + 1):
                found.append(f"at {width} px, {panel['where']}: label {text!r} leaves the plot")
            for other, (l2, t2, r2, b2) in labels[n + 1:]:
                if min(r, r2) - max(l, l2) > 1 and min(b, b2) - max(t, t2) > 1:
                    found.append(f"at {width} px, {panel['where']}: labels {text!r} and "
                                 f"{other!r} overlap")
    return found


def test_point_labels_do_not_overlap_at_400_and_1280_px(site_visits, built_site):
    """No point label overlaps another or leaves the plot (at 400 px, the narrow axis of the
    deployment matrix crowds "Alpha" and "verified agent" together). Checked on every explorer
    page with labelled points (plotly's ``markers+text``), at both widths (the
    page loaded at 1280 px, then narrowed to 400 px as in the rest of its visit), at the default
    frame and with every control at its far end (``_browser.label_boxes``)."""
    root = Path(built_site)
    pages = [p for p in site_pages(root) if LABELLED_POINTS in (root / p).read_text(
        encoding="utf-8", errors="replace")]
    assert pages, "no explorer with labelled points (the deployment matrix has them)"
    assert sorted(site_visits["labels"]) == sorted(pages)
    problems, measured = {}, 0
    for path in pages:
        for width in (WIDE, NARROW):
            seen = site_visits["labels"][path][width]
            measured += sum(len(panel["labels"]) for panel in seen)
            found = _label_problems(seen, width)
            if found:
                problems.setdefault(path, []).extend(found)
    assert measured, "no label measured in the browser"
    assert not problems, "point labels:\n" + _fmt(problems)
