"""The built website, in a real browser, as a reader sees it.

Serves the built site (the ``built_site`` fixture from conftest.py: the ``_build/html`` folder)
on 127.0.0.1 and drives headless Chromium (Debian's ``/usr/bin/chromium``, through Playwright)
through every HTML page, with every request that leaves 127.0.0.1 blocked and recorded. Each
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
- the smallest text of every figure, at the width it is shown, is at least 9 px (at 1280 and at
  400 px; font sizes from the committed SVG of each figure in ``figures/``);
- rendered tables have no "NaN"/"None"/"inf" cells, no code names as row labels and no empty
  header cells;
- axe-core (npm ``axe-core``, unpacked into the venv by ``scripts/fetch_npm.py``) finds no
  critical or serious violation on any page, except theme-owned ones listed in ``THEME_OWNED``
  with their upstream issue;
- at 400 px the visible ☰ and "Contents" buttons open their drawers, and the ☰ drawer links every
  chapter of ``_toc.yml``.

Each page is loaded once, in one browser for the whole module, measured at 1280 px, then the
window is narrowed to 400 px and measured again (about 30 s for 20 pages on two cores).

Chromium and Playwright come from ``.ci/run`` (``apt-get install chromium``) and
``tests/requirements.txt``. Without them these tests fail under CI (``CI`` set) and are skipped
elsewhere. ``METABITS_SITE=_build/html`` tests an existing build (see conftest.py);
``METABITS_CHROMIUM`` names another Chromium binary.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

CHROMIUM = os.environ.get("METABITS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDE, NARROW = 1280, 400
HEIGHT = 900
TIMEOUT_MS = 20_000


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests: .ci/run installs chromium, "
                    "scripts/setup-env.sh installs playwright)", pytrace=False)
    pytest.skip(reason)


# --- the site on 127.0.0.1 -----------------------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection for a page's many files

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url(built_site):
    root = Path(built_site)
    assert (root / "index.html").is_file(), f"no built site at {root}"
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -r tests/requirements.txt)")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as error:  # noqa: BLE001 - any launch failure means no browser
            _unavailable(f"Chromium at {CHROMIUM} does not start under Playwright: {error}")
        yield chromium
        chromium.close()


# --- what each page shows ------------------------------------------------------------------------

# Runs in the page after it has loaded and MathJax has typeset it; returns plain data.
PAGE_REPORT_JS = r"""
async (width) => {
  // let layout settle (after a resize) before measuring
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const out = {};
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = (typeof el.className === 'string' ? el.className : '').trim().split(/\s+/)
      .filter(Boolean).slice(0, 3);
    if (cls.length) s += '.' + cls.join('.');
    const section = el.closest('section[id]');
    const text = (el.innerText || el.textContent || el.getAttribute('alt') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 70);
    return (section ? `section#${section.id} ` : '') + s + (text ? ` "${text}"` : '');
  };

  // Images: lazy ones are asked for now, then every image must have loaded.
  const imgs = Array.from(document.images);
  imgs.forEach((img) => { if (img.loading === 'lazy') img.loading = 'eager'; });
  await Promise.all(imgs.map((img) => img.complete ? null : new Promise((ok) => {
    img.addEventListener('load', ok, {once: true});
    img.addEventListener('error', ok, {once: true});
    setTimeout(ok, 5000);
  })));
  out.brokenImages = imgs.filter((img) => !(img.complete && img.naturalWidth > 0))
    .map((img) => img.getAttribute('src'));
  out.imagesWithoutAlt = imgs.filter((img) => !img.hasAttribute('alt'))
    .map((img) => img.getAttribute('src'));

  // Figures: every image in the article with its natural and displayed size.
  out.figures = imgs.filter((img) => img.closest('article') && img.naturalWidth > 0)
    .map((img) => ({src: img.getAttribute('src'), natural: [img.naturalWidth, img.naturalHeight],
                    shown: img.getBoundingClientRect().width}));

  // Tables: "NaN"-like cells, code names (snake_case identifiers) as row or column labels, and
  // empty header cells (a pandas index header with no name), in the article's tables.
  const tables = Array.from(document.querySelectorAll('article table'));
  const cellText = (c) => (c.innerText || c.textContent || '').replace(/\s+/g, ' ').trim();
  out.tableProblems = [];
  tables.forEach((table) => {
    const where = describe(table).split(' "')[0];
    table.querySelectorAll('td, th').forEach((cell) => {
      const text = cellText(cell);
      // (a header may be a category named "None", e.g. a risk configuration)
      if (cell.tagName === 'TD' && /^(nan|NaN|None|<NA>|NaT|-?inf)$/.test(text)) {
        out.tableProblems.push(`${where}: cell "${text}"`);
      } else if (cell.tagName === 'TH' && cell.closest('tbody') && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(text)) {
        out.tableProblems.push(`${where}: code name "${text}" as a label`);
      } else if (cell.tagName === 'TH' && text === '' && !cell.querySelector('img, mjx-container')) {
        out.tableProblems.push(`${where}: empty header cell`);
      }
    });
  });
  out.tableProblems = Array.from(new Set(out.tableProblems)).slice(0, 10);

  // Links: every href, resolved by the browser.
  out.links = Array.from(document.querySelectorAll('a[href]')).map((a) => a.href);

  // Math: MathJax output, MathJax errors, and TeX left raw outside code.
  out.mathElements = document.querySelectorAll('.math').length;
  out.mathjaxContainers = document.querySelectorAll('mjx-container').length;
  out.untypesetMath = Array.from(document.querySelectorAll('span.math, div.math'))
    .filter((el) => !el.querySelector('mjx-container')).map(describe).slice(0, 10);
  // A TeX error shows as <merror>; an undefined macro (say, one missing from mathjax3_config)
  // as red text, which the assistive MathML marks mathcolor="red".
  out.mathErrors = [
    ...Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
      .map((el) => 'TeX error: ' + (el.getAttribute('data-mjx-error') || el.textContent)),
    ...Array.from(document.querySelectorAll('mjx-assistive-mml [mathcolor="red"]'))
      .map((el) => 'undefined macro: ' + el.textContent),
  ].map((text) => text.slice(0, 100)).slice(0, 10);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => node.parentElement.closest(
      'pre, code, script, style, textarea, .highlight, mjx-container, [hidden]')
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const raw = [];
  const rawTeX = /\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{/;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    const m = text.match(rawTeX);
    if (m) {
      const i = Math.max(0, m.index - 30);
      raw.push(`${describe(node.parentElement).split(' "')[0]}: "...${
        text.slice(i, m.index + 50).replace(/\s+/g, ' ')}..."`);
    }
  }
  out.rawTeX = raw.slice(0, 10);

  // Width: what sticks out of the content column, and whether the page scrolls sideways.
  const scroller = document.scrollingElement;
  out.scrollWidth = scroller.scrollWidth;
  out.clientWidth = scroller.clientWidth;
  const article = document.querySelector('article.bd-article') ||
                  document.querySelector('main') || document.body;
  const box = article.getBoundingClientRect();
  // At 1280 px: the content column. At 400 px: the window (what makes the page scroll sideways).
  const limitLeft = width === null ? box.left : -Infinity;
  const limitRight = width === null ? box.right : scroller.clientWidth;
  // An element that scrolls or clips its own overflow keeps its children inside.
  const clips = (el) => getComputedStyle(el).overflowX !== 'visible';
  const wide = [];
  const visit = (el) => {
    for (const child of el.children) {
      const s = getComputedStyle(child);
      if (s.display === 'none' || s.visibility === 'hidden' || s.position === 'fixed') continue;
      const r = child.getBoundingClientRect();
      if (r.width > 0 && (r.right > limitRight + 1 || r.left < limitLeft - 1)) {
        wide.push(`${describe(child)} [${Math.round(r.left)}..${Math.round(r.right)} px, ` +
                  `column ${Math.round(limitLeft)}..${Math.round(limitRight)} px]`);
        continue;  // report the outermost element that sticks out, not its children
      }
      if (!clips(child)) visit(child);
    }
  };
  visit(width === null ? article : document.body);
  out.tooWide = wide.slice(0, 10);
  return out;
}
"""

WAIT_FOR_MATHJAX_JS = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
}
"""


AXE = Path(sys.prefix) / "share" / "axe-core-4.14.1" / "axe.min.js"
# axe-core (scripts/fetch_npm.py puts the npm package, checked by its checksum, into the venv),
# run on the whole page at 1280 px: the serious and critical violations, one entry per rule with
# the CSS selectors of its nodes.
AXE_RUN_JS = """
async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map((n) => n.target.join(' ') + ' ' + n.html.slice(0, 150))}));
}
"""


def _axe(page):
    if not AXE.is_file():
        return None
    page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN_JS)


def _visit(context, url, base, redirects=False):
    """Load ``url`` at 1280 px, then narrow the window to 400 px: ``{width: what the page shows}``.

    Each page is loaded once and measured at both widths (the theme's narrow layout is CSS media
    queries, and MathJax 3 does not break lines, so resizing shows what a phone shows); that keeps
    the whole site's check within a minute on two cores.
    """
    page = context.new_page()
    errors, failed = [], []
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.on("requestfailed", lambda req: failed.append(
        f"{req.url} ({req.failure})") if req.url.startswith(base) else None)
    page.on("response", lambda resp: failed.append(f"{resp.url} (HTTP {resp.status})")
            if resp.status >= 400 else None)
    reports = {}
    try:
        page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        if redirects:  # index.html sends the reader on: check the page it lands on
            page.wait_for_url(lambda now: now.split("#")[0] != url, timeout=TIMEOUT_MS)
            page.wait_for_load_state("load", timeout=TIMEOUT_MS)
        page.evaluate(WAIT_FOR_MATHJAX_JS)
        reports[WIDE] = page.evaluate(PAGE_REPORT_JS, None)
        reports[WIDE]["axe"] = _axe(page)
        page.set_viewport_size({"width": NARROW, "height": HEIGHT})
        reports[NARROW] = page.evaluate(PAGE_REPORT_JS, NARROW)
    finally:
        page.close()
    for report in reports.values():
        report.update(errors=errors, failed=failed)
    return reports


@pytest.fixture(scope="module")
def visits(browser, site_url, built_site):
    """Every HTML page of the site at 1280 px and at 400 px: ``{path: {width: report}}``."""
    root = Path(built_site)
    pages = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                   if not p.relative_to(root).parts[0].startswith(("_static", "_sources")))
    assert pages, f"no HTML pages in {root}"
    external: dict[str, set] = {}
    current = {"page": None}

    def route(route_, request):
        if urlsplit(request.url).hostname == "127.0.0.1":
            route_.continue_()
        else:  # the site must work offline: nothing may leave this machine
            external.setdefault(current["page"], set()).add(request.url)
            route_.abort("blockedbyclient")

    context = browser.new_context(viewport={"width": WIDE, "height": HEIGHT},
                                  service_workers="block")
    context.route("**/*", route)
    results = {}
    try:
        for path in pages:
            current["page"] = path
            redirects = 'http-equiv="refresh"' in (root / path).read_text(
                encoding="utf-8", errors="replace").lower()
            results[path] = _visit(context, site_url + path, site_url, redirects)
    finally:
        context.close()
    return {"pages": results, "external": external, "root": root, "base": site_url}


def _problems(visits, key, width=WIDE):
    return {path: by_width[width][key] for path, by_width in visits["pages"].items()
            if by_width[width][key]}


def _fmt(problems):
    return "\n".join(f"{page}:\n    " + "\n    ".join(map(str, items))
                     for page, items in sorted(problems.items()))


# --- the checks ----------------------------------------------------------------------------------

def test_no_external_requests(visits):
    external = {page: sorted(urls) for page, urls in visits["external"].items()}
    assert not external, "requests outside 127.0.0.1 (blocked):\n" + _fmt(external)


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

# pydata-sphinx-theme opens a sidebar as a modal <dialog> (the drawer); its handler sat on a hidden
# copy of the toggle button (pydata/pydata-sphinx-theme#2451) and _static/metabits-toggles.js
# forwards the visible copy's click to it.
DRAWERS = {".primary-toggle": "#pst-primary-sidebar-modal",
           ".secondary-toggle": "#pst-secondary-sidebar-modal"}
MENU_PAGE = "book/meyen/03_bounds.html"  # a chapter with sections, so it has a "Contents" drawer


def _toc_pages(root: Path) -> set[str]:
    """Every page of the table of contents, as paths relative to the site root."""
    import yaml

    toc = yaml.safe_load((Path(__file__).resolve().parents[1] / "_toc.yml").read_text("utf-8"))
    files = [toc["root"]] + [chapter["file"] for part in toc.get("parts", [])
                             for chapter in part.get("chapters", [])]
    return {f"{file}.html" for file in files}


def test_phone_menu_buttons_open_their_drawers(browser, site_url, built_site):
    """At 400 px the visible ☰ and "Contents" buttons open their drawers, and the ☰ drawer links
    every chapter of the table of contents (a phone reader can reach every chapter)."""
    root = Path(built_site)
    context = browser.new_context(viewport={"width": NARROW, "height": HEIGHT},
                                  service_workers="block")
    context.route("**/*", lambda route, request: route.continue_()
                  if urlsplit(request.url).hostname == "127.0.0.1" else route.abort())
    page = context.new_page()
    problems = []
    try:
        page.goto(site_url + MENU_PAGE, wait_until="load", timeout=TIMEOUT_MS)
        for toggle, drawer in DRAWERS.items():
            visible = [b for b in page.query_selector_all(toggle) if b.is_visible()]
            if not visible:
                problems.append(f"no visible {toggle} button at {NARROW} px")
                continue
            for button in visible:
                button.click()
                try:
                    page.wait_for_selector(f"{drawer}[open]", state="visible", timeout=3000)
                except Exception:  # noqa: BLE001 - the drawer did not open
                    problems.append(f"the visible {toggle} button "
                                    f"({button.get_attribute('title')!r}) does not open {drawer}")
                    continue
                if toggle == ".primary-toggle":
                    hrefs = page.eval_on_selector_all(
                        f"{drawer} nav a[href]", "els => els.map((a) => a.href)")
                    reached = {urlsplit(h).path.lstrip("/") for h in hrefs
                               if h.startswith(site_url)}
                    missing = sorted(_toc_pages(root) - reached - {MENU_PAGE})
                    if missing:
                        problems.append(f"the {drawer} drawer does not link {missing}")
                page.keyboard.press("Escape")
                page.wait_for_selector(f"{drawer}[open]", state="detached", timeout=3000)
    finally:
        context.close()
    assert not problems, "phone menu:\n    " + "\n    ".join(problems)


# --- figures readable where shown ----------------------------------------------------------------

FIGURES = Path(__file__).resolve().parents[1] / "figures"
BOOK = Path(__file__).resolve().parents[1] / "book"
MIN_TEXT_PX = 9.0  # the smallest text of a figure, in CSS pixels as displayed


@functools.lru_cache(maxsize=None)
def _svg_text(stem: str):
    """``(width in pt, height in pt, smallest font size in pt)`` of ``figures/<stem>.svg``.

    The book's figures are saved by ``metabits.plotting.save_figure`` as PNG and as SVG with text
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


@pytest.mark.parametrize("width", [WIDE, NARROW])
def test_figure_text_is_readable(visits, width):
    """The smallest text of every figure, at the width the page shows it, is at least 9 px (at
    400 px a figure is shown wider than the column, in a box that scrolls sideways)."""
    shown = _figure_text(visits, width)
    assert shown, "no figure of figures/ found on any page"
    problems = {page: [f"{stem}: smallest text {px} px (figure shown {w} px wide of {n} px)"
                       for stem, px, w, n in figs if px < MIN_TEXT_PX]
                for page, figs in shown.items()}
    problems = {page: items for page, items in problems.items() if items}
    assert not problems, f"figure text under {MIN_TEXT_PX} px at {width} px:\n" + _fmt(problems)


# --- tables ----------------------------------------------------------------------------------------

def test_tables_have_no_nan_code_names_or_empty_headers(visits):
    """Rendered tables say what a blank means (no "NaN"), label rows and columns in words (no
    ``max_group_member``), and have no empty header cells (pandas' unnamed index header)."""
    problems = _problems(visits, "tableProblems")
    assert not problems, "tables:\n" + _fmt(problems)


# --- accessibility -----------------------------------------------------------------------------------

#: Serious or critical axe-core violations that the themes own, with the upstream issue; nodes
#: matching the selector pattern are not counted against the book.
THEME_OWNED: dict[str, list[tuple[str, str]]] = {
    # pydata-sphinx-theme 0.17's colour-mode button: aria-label "Color mode", its visible icon
    # titled "Light"/"Dark"/"System Settings". Upstream replaced the button by a dropdown
    # (https://github.com/pydata/pydata-sphinx-theme/pull/2340), not yet released with 0.17.1.
    "label-content-name-mismatch": [
        (r"theme-switch-button", "https://github.com/pydata/pydata-sphinx-theme/pull/2340")],
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
