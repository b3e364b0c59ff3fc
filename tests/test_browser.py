"""The built website, in a real browser, as a reader sees it.

Serves the built site (the ``built_site`` fixture from the root conftest.py: the ``_build/html``
folder) on 127.0.0.1 and drives headless Chromium (Debian's
``/usr/bin/chromium-headless-shell``, else ``/usr/bin/chromium``, through Playwright) through
every HTML page, with every request that leaves 127.0.0.1 blocked and recorded. Each
test below checks one thing on every page and lists every page that fails it:

- the site makes no external request (MathJax and its fonts come from the site);
- no console error or uncaught script error;
- no failed request (4xx/5xx or aborted);
- every ``<img>`` loads;
- every internal link and ``#anchor`` resolves (the page exists and has that id);
- math is rendered: MathJax containers on pages with math, no raw ``\\(``, ``\\[`` or ``$$``
  left in the text, no MathJax error (an undefined macro, e.g. a missing ``mathjax3_config``
  macro, shows as one);
- nothing is wider than the content column at a 1280 px wide window;
- no horizontal scroll at a 400 px wide window (a phone);
- the smallest text of every figure is at least 9 px: at 1280 px as the page shows it; at 400 px,
  where the figure is scaled to the column, in its full-size image, which the figure links to
  (font sizes from the committed SVG of each figure in ``figures/``);
- rendered tables have no "NaN"/"None"/"inf" cells, no code names as row labels and no empty
  header cells, and at 1280 px each fits its box (no table scrolls sideways);
- axe-core (npm ``axe-core``, unpacked into the venv by ``scripts/fetch_npm.py``), run with the
  rules tagged WCAG 2.0/2.1 A and AA and best practice, finds no critical or serious violation on
  any page, except theme-owned ones listed in ``THEME_OWNED`` with their upstream issue;
- at 400 px the visible ☰ and "Contents" buttons open their drawers, and the ☰ drawer links every
  chapter of ``_toc.yml``.

Each page is loaded once, measured at 1280 px, then the window is narrowed to 400 px and measured
again. The one visit (``_browser.visit_site``, the session fixture ``site_visits`` of
conftest.py) keeps a few tabs, each taken from page to page with the browser's cache on, as a
reader clicks through the site (a request served from the cache is still seen). It also records
what tests/test_explore_browser.py checks, and clicks the phone menu's buttons on a page loaded
at 400 px.

Chromium and Playwright come from ``.ci/run`` (``apt-get install chromium-headless-shell``) and
``tests/requirements.txt``. Without them these tests fail under CI (``CI`` set) and are skipped
elsewhere. ``METABITS_SITE=_build/html`` tests an existing build (see conftest.py);
``METABITS_CHROMIUM`` names another Chromium binary.
"""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from _browser import AXE, DRAWERS, MENU_PAGE, NARROW, WIDE, _fmt, _unavailable

pytestmark = [pytest.mark.browser, pytest.mark.build]

# --- what each page shows ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def visits(site_visits):
    """Every HTML page of the site at 1280 px and at 400 px: ``{"pages": {path: {width: report,
    "errors", "failed"}}, "external", "root", "base"}`` (the session fixture of conftest.py,
    shared with tests/test_explore_browser.py)."""
    for seen in site_visits["pages"].values():
        for width in (WIDE, NARROW):
            seen[width].update(errors=seen["errors"], failed=seen["failed"])
    return site_visits


def _problems(visits, key, width=WIDE):
    return {path: by_width[width][key] for path, by_width in visits["pages"].items()
            if by_width[width][key]}


# --- the checks ----------------------------------------------------------------------------------

def test_no_external_requests(visits):
    external = {page: sorted(urls) for page, urls in visits["external"].items()}
    assert not external, "requests outside 127.0.0.1 (blocked):\n" + _fmt(external)


def test_visit_blocks_and_records_external_requests(site_visits):
    """What test_no_external_requests relies on: a page that asks for an image from another host
    (_browser.OFFLINE_PROBE_HTML, by name and by IP address) has both requests recorded, and
    both fail without leaving the machine (_browser.OFFLINE_ARGS: a proxy that is not there)."""
    probe = site_visits["offline_probe"]
    urls = ["http://192.0.2.1/probe.png", "http://example.org/probe.png"]
    assert probe["requested"] == urls
    assert probe["failed"] == [(url, "net::ERR_PROXY_CONNECTION_FAILED") for url in urls]


def test_no_console_errors(visits):
    problems = _problems(visits, "errors")
    assert not problems, "console errors:\n" + _fmt(problems)


def test_no_failed_requests(visits):
    problems = _problems(visits, "failed")
    assert not problems, "failed requests:\n" + _fmt(problems)


def test_every_image_loads(visits):
    problems = _problems(visits, "brokenImages")
    assert not problems, "images that did not load:\n" + _fmt(problems)


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)


@functools.lru_cache(maxsize=None)
def _ids(path: Path) -> frozenset:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(parser.ids)


def test_internal_links_resolve(visits):
    root, base = visits["root"], visits["base"]
    problems: dict[str, list] = {}
    for path, by_width in visits["pages"].items():
        for href in sorted(set(by_width[WIDE]["links"])):
            if not href.startswith(base):
                continue  # external links (launch, repository) are links, not requests
            parts = urlsplit(href)
            target = root / unquote(parts.path.lstrip("/"))
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.setdefault(path, []).append(f"{href[len(base):]}: no such file")
            elif parts.fragment and target.suffix == ".html" and \
                    unquote(parts.fragment) not in _ids(target):
                problems.setdefault(path, []).append(
                    f"{href[len(base):]}: no id {unquote(parts.fragment)!r} on that page")
    assert not problems, "broken internal links:\n" + _fmt(problems)


def test_math_is_rendered(visits):
    problems: dict[str, list] = {}
    for path, by_width in visits["pages"].items():
        report = by_width[WIDE]
        found = []
        if report["mathElements"] and not report["mathjaxContainers"]:
            found.append(f"{report['mathElements']} math elements but no MathJax output")
        found += [f"not typeset: {what}" for what in report["untypesetMath"]]
        found += [f"MathJax: {what}" for what in report["mathErrors"]]
        found += [f"raw TeX: {what}" for what in report["rawTeX"]]
        if found:
            problems[path] = found
    assert not problems, "math not rendered:\n" + _fmt(problems)


def test_nothing_wider_than_the_content_column_at_1280px(visits):
    problems = _problems(visits, "tooWide", WIDE)
    assert not problems, (f"elements wider than the content column at {WIDE} px "
                          "(outermost only):\n" + _fmt(problems))


def test_no_horizontal_scroll_at_400px(visits):
    problems = {}
    for path, by_width in visits["pages"].items():
        report = by_width[NARROW]
        if report["scrollWidth"] > report["clientWidth"]:
            problems[path] = [f"page is {report['scrollWidth']} px wide in a "
                              f"{report['clientWidth']} px window"] + report["tooWide"]
    assert not problems, f"horizontal scroll at {NARROW} px:\n" + _fmt(problems)


# --- the phone menu ------------------------------------------------------------------------------

# The drawers (DRAWERS) and the page that opens them (MENU_PAGE) are in _browser.py, which clicks
# the buttons during the site's visit (_browser.phone_menu).


def _toc_pages(root: Path) -> set[str]:
    """Every page of the table of contents, as paths relative to the site root."""
    import yaml

    toc = yaml.safe_load((Path(__file__).resolve().parents[1] / "_toc.yml").read_text("utf-8"))
    files = [toc["root"]] + [chapter["file"] for part in toc.get("parts", [])
                             for chapter in part.get("chapters", [])]
    return {f"{file}.html" for file in files}


def test_phone_menu_buttons_open_their_drawers(site_visits, built_site):
    """At 400 px the visible ☰ and "Contents" buttons open their drawers, and the ☰ drawer links
    every chapter of the table of contents (a phone reader can reach every chapter)."""
    root, site_url = Path(built_site), site_visits["base"]
    problems = []
    for toggle, drawer in DRAWERS.items():
        clicked = site_visits["menu"][toggle]
        if not clicked:
            problems.append(f"no visible {toggle} button at {NARROW} px")
            continue
        for seen in clicked:
            if not seen["opened"]:
                problems.append(f"the visible {toggle} button ({seen['title']!r}) does not "
                                f"open {drawer}")
                continue
            if toggle == ".primary-toggle":
                reached = {urlsplit(h).path.lstrip("/") for h in seen["hrefs"]
                           if h.startswith(site_url)}
                missing = sorted(_toc_pages(root) - reached - {MENU_PAGE})
                if missing:
                    problems.append(f"the {drawer} drawer does not link {missing}")
            if not seen["closed"]:
                problems.append(f"Escape does not close {drawer}")
    assert not problems, "phone menu:\n    " + "\n    ".join(problems)


# --- figures readable where shown ----------------------------------------------------------------

FIGURES = Path(__file__).resolve().parents[1] / "figures"
BOOK = Path(__file__).resolve().parents[1] / "book"
MIN_TEXT_PX = 9.0  # the smallest text of a figure, in CSS pixels as displayed


@functools.lru_cache(maxsize=None)
def _svg_text(stem: str):
    """``(width in pt, height in pt, smallest font size in pt)`` of ``figures/<stem>.svg``.

    The book's figures are saved by ``metabits_book.style.save_figure`` as PNG and as SVG with text
    as paths: matplotlib draws each text at ``scale(size/100)``, so the SVG gives every font size.
    """
    import re

    text = (FIGURES / f"{stem}.svg").read_text(encoding="utf-8")
    width = float(re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"', text).group(1))
    height = float(re.search(r'<svg[^>]*\bheight="([\d.]+)pt"', text).group(1))
    sizes = [100 * float(s) for s in re.findall(r"scale\(([\d.]+) -[\d.]+\)", text)]
    sizes = [s for s in sizes if s < 50]  # 100 pt: markers drawn as glyphs, not text
    return width, height, min(sizes) if sizes else None


@functools.lru_cache(maxsize=None)
def _page_figures(page: str) -> tuple:
    """The figure stems that the page's notebook saves with ``save_figure``."""
    import re

    notebook = (BOOK.parent / page).with_suffix(".ipynb")
    if not notebook.is_file():
        return ()
    return tuple(re.findall(r'save_figure\(fig, \\"([\w-]+)\\"', notebook.read_text("utf-8")))


def _figure_stem(page: str, src: str, natural) -> str | None:
    """The ``figures/`` stem of an image: by file name, or (a notebook's own output image, named
    by a hash) the figure of that page whose aspect ratio matches."""
    stem = Path(urlsplit(src).path).stem
    if (FIGURES / f"{stem}.svg").is_file():
        return stem
    ratio = natural[0] / natural[1]
    matches = [s for s in _page_figures(page) if (FIGURES / f"{s}.svg").is_file() and
               abs(_svg_text(s)[0] / _svg_text(s)[1] - ratio) < 0.01 * ratio]
    return matches[0] if len(matches) == 1 else None


def _figure_text(visits, width):
    """``{page: [(stem, smallest text in px as displayed, shown px, natural px)]}``."""
    out = {}
    for path, by_width in visits["pages"].items():
        for fig in by_width[width].get("figures", []):
            stem = _figure_stem(path, fig["src"], fig["natural"])
            if stem is None:
                continue
            svg_width, _, smallest = _svg_text(stem)
            if smallest is None:
                continue
            px = smallest * fig["shown"] / svg_width
            out.setdefault(path, []).append((stem, round(px, 1), round(fig["shown"]),
                                             fig["natural"][0]))
    return out


def test_figure_text_is_readable_at_1280px(visits):
    """The smallest text of every figure, at the width the page shows it, is at least 9 px."""
    shown = _figure_text(visits, WIDE)
    assert shown, "no figure of figures/ found on any page"
    problems = {page: [f"{stem}: smallest text {px} px (figure shown {w} px wide of {n} px)"
                       for stem, px, w, n in figs if px < MIN_TEXT_PX]
                for page, figs in shown.items()}
    problems = {page: items for page, items in problems.items() if items}
    assert not problems, f"figure text under {MIN_TEXT_PX} px at {WIDE} px:\n" + _fmt(problems)


def test_figures_fit_the_column_at_400px_and_link_their_full_size(visits):
    """At 400 px every figure is scaled to the column (no sideways scroll), and its image links
    to the image file, whose smallest text at full size is at least 9 px: one tap away."""
    problems: dict[str, list] = {}
    for path, by_width in visits["pages"].items():
        report = by_width[NARROW]
        for fig in report.get("figures", []):
            if not fig.get("inFigure"):
                continue
            found = []
            if fig["shown"] > report["clientWidth"]:
                found.append(f"shown {round(fig['shown'])} px wide in a "
                             f"{report['clientWidth']} px window")
            if fig.get("link") != fig["url"]:
                found.append(f"links to {fig.get('link')!r}, not to its image")
            stem = _figure_stem(path, fig["src"], fig["natural"])
            if stem is not None and _svg_text(stem)[2] is not None:
                svg_width, _, smallest = _svg_text(stem)
                px = smallest * fig["natural"][0] / svg_width
                if px < MIN_TEXT_PX:
                    found.append(f"smallest text {px:.1f} px at full size")
            if found:
                problems.setdefault(path, []).append(f"{Path(fig['src']).name}: {'; '.join(found)}")
    shown = _figure_text(visits, NARROW)
    assert shown, "no figure of figures/ found on any page"
    assert not problems, f"figures at {NARROW} px:\n" + _fmt(problems)


# --- tables --------------------------------------------------------------------------------------

def test_tables_have_no_nan_code_names_or_empty_headers(visits):
    """Rendered tables say what a blank means (no "NaN"), label rows and columns in words (no
    ``max_group_member``), and have no empty header cells (pandas' unnamed index header)."""
    problems = _problems(visits, "tableProblems")
    assert not problems, "tables:\n" + _fmt(problems)


def test_tables_fit_their_box_at_1280px(visits):
    """No table is wider than the box it is in at 1280 px: wide notebook tables are set smaller
    (_static/metabits.css), and their headers wrap."""
    problems = _problems(visits, "overflowingTables", WIDE)
    assert not problems, f"tables that scroll sideways at {WIDE} px:\n" + _fmt(problems)


# --- accessibility -------------------------------------------------------------------------------

#: Serious or critical axe-core violations that the themes own, with the upstream issue; nodes
#: matching the selector pattern are not counted against the book.
THEME_OWNED: dict[str, list[tuple[str, str]]] = {
    # (none: pydata-sphinx-theme 0.17's colour-mode button, named "Color mode" while its icon
    # shows "Light", "Dark" or "System Settings", is named with all three by the book's
    # template, _ext/templates/theme-switcher.html)
}


def test_no_serious_accessibility_violations(visits):
    """axe-core on every page at 1280 px: no critical or serious violation that the book controls
    (theme-owned ones are fixed by configuration or listed in THEME_OWNED with their upstream
    issue)."""
    import re

    if not AXE.is_file():
        _unavailable(f"axe-core is not installed at {AXE} (scripts/setup-env.sh runs "
                     "scripts/fetch_npm.py axe-core)")
    problems = {}
    for path, by_width in visits["pages"].items():
        for violation in by_width[WIDE].get("axe") or []:
            owned = THEME_OWNED.get(violation["id"], [])
            nodes = [node for node in violation["nodes"]
                     if not any(re.search(pattern, node) for pattern, _ in owned)]
            if nodes:
                problems.setdefault(path, []).append(
                    f"{violation['id']} ({violation['impact']}, {len(nodes)} nodes: "
                    f"{violation['help']}): {nodes[:4]}")
    assert not problems, "accessibility violations (axe-core):\n" + _fmt(problems)
