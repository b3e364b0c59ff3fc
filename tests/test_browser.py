"""The built website, in a real browser, as a reader sees it.

Serves the built site (the ``built_site`` fixture from the root conftest.py: the ``_build/html`` folder)
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
- no horizontal scroll at a 400 px wide window (a phone).

Each page is loaded once, in one browser for the whole module, measured at 1280 px, then the
window is narrowed to 400 px and measured again (about 30 s for 20 pages on two cores).

Chromium and Playwright come from ``.ci/run`` (``apt-get install chromium``) and
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
from _browser import (HEIGHT, NARROW, PAGE_REPORT_JS, TIMEOUT_MS, WAIT_FOR_MATHJAX_JS, WIDE,
                      _fmt)

pytestmark = [pytest.mark.browser, pytest.mark.build]

# --- what each page shows ------------------------------------------------------------------------

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
