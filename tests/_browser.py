"""Shared helpers of the browser tests (test_browser.py, test_explore_browser.py).

Constants of the headless Chromium, the scripts run in each page, a quiet HTTP handler, and
:func:`visit_site`, which loads every page of the built site once and records everything both
test modules check: the fixtures ``site_url`` and ``site_visits`` that use them are in
tests/conftest.py.

The visit drives one headless Chromium through Playwright's asyncio API with several pages in
flight at once (:data:`CONCURRENCY`), each in a tab taken from page to page in one browser
context with the cache on (:class:`_Tab`), as a reader clicks through the site. The phone menu,
which loads a page of its own, is one more job of the same visit; the explorers' point labels
are measured in their page's visit, at both widths.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import re
import shutil
import sys
import threading
import time
import traceback
from pathlib import Path
from urllib.parse import urlsplit

import pytest

#: ``$METABITS_CHROMIUM``, else Debian's ``chromium-headless-shell`` (the headless-only build of
#: Chromium, which Playwright itself runs for headless Chromium) when it is installed, else
#: Debian's ``chromium`` in headless mode.
CHROMIUM = os.environ.get("METABITS_CHROMIUM") or next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
     if Path(path).is_file()), "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: The site must work offline: every request that would leave 127.0.0.1 goes to a proxy that is not
#: there (a closed port) and fails at once (net::ERR_PROXY_CONNECTION_FAILED), a host name or an
#: IP address alike; Chromium never sends a request for 127.0.0.1 or localhost to a proxy.
#: The tabs record each such request (``_Tab``), which is what test_no_external_requests checks.
OFFLINE_ARGS = ["--proxy-server=http://127.0.0.1:9"]
WIDE, NARROW = 1280, 400
HEIGHT = 900
#: how long to wait for a page to load or for the explorers to draw (a bound: each wait ends as
#: soon as the page is ready)
TIMEOUT_MS = 60_000
#: how long to wait for an explorer to show another frame after a control moved
MOVE_TIMEOUT_MS = 15_000

#: the explorer element written by metabits_book.explore.static_html (a start tag, not the text
#: ``class="metabits-explorer"`` that the API page shows in a code example)
EXPLORER_DIV = re.compile(r'<div class="metabits-explorer"')

#: axe-core (scripts/fetch_npm.py puts the npm package, checked by its checksum, into the venv)
AXE = Path(sys.prefix) / "share" / "axe-core-4.14.1" / "axe.min.js"
#: the rules axe-core runs: those tagged WCAG 2.0 and 2.1, levels A and AA, and axe's best
#: practices (the rules ``axe.run`` runs by default)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
#: axe-core on the whole page: its serious and critical violations (the impact axe reports), one
#: entry per rule with the CSS selectors of its nodes
AXE_RUN_JS = """
async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map((n) => n.target.join(' ') + ' ' + n.html.slice(0, 150))}));
}
"""
#: how many pages the visit keeps in flight (Chromium renders each in its own process):
#: ``$METABITS_BROWSER_PAGES``, else the cores plus one less the xdist workers, from 1 to 4
CONCURRENCY = (int(os.environ.get("METABITS_BROWSER_PAGES", "0"))
               or max(1, min(4, (os.cpu_count() or 2) + 1
                             - int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0")))))


class BrowserUnavailable(RuntimeError):
    """Playwright or Chromium is missing or does not start (the tests skip, or fail under CI)."""


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests: .ci/run installs "
                    "chromium-headless-shell, scripts/setup-env.sh installs playwright)",
                    pytrace=False)
    pytest.skip(reason)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection for a page's many files

    def log_message(self, *args):
        pass


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

  // Figures: every image in the article with its natural and displayed size, whether it is a
  // figure's, and the address it links to (the image itself: its full size one tap away).
  out.figures = imgs.filter((img) => img.closest('article') && img.naturalWidth > 0)
    .map((img) => ({src: img.getAttribute('src'), natural: [img.naturalWidth, img.naturalHeight],
                    shown: img.getBoundingClientRect().width, url: img.src,
                    inFigure: img.closest('figure') !== null,
                    link: img.closest('a[href]') ? img.closest('a[href]').href : null}));

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
  // Tables wider than their box: the box (a table's own scroll container) scrolls sideways.
  out.overflowingTables = [];
  tables.forEach((table) => {
    for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowX === 'visible') continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        out.overflowingTables.push(`${describe(table).slice(0, 90)}: ${el.scrollWidth} px in a ` +
                                   `${el.clientWidth} px box`);
      }
      break;
    }
  });
  out.overflowingTables = out.overflowingTables.slice(0, 10);

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


# --- in the page ---------------------------------------------------------------------------------

# Every wait below ends as soon as its condition holds: a page's promise resolves on the next
# animation frame that shows it (or after 50 ms, whichever comes first), up to a bound.
NEXT_FRAME_JS = """
const nextFrame = () => new Promise((ok) => {
  requestAnimationFrame(() => ok());
  setTimeout(ok, 50);
});
const settle = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
"""

# The state of explorer i: what the reader sees and what the script recorded. The explorer's
# JSON (``spec``: every frame's traces and captions, megabytes on some pages) is a static
# <script> element: its text is read once per explorer (withSpec) and parsed in Python
# (:func:`_state`); a parsed object would cross Playwright's protocol value by value, which is
# slow for the largest.
STATE_JS = r"""
([i, withSpec]) => {
  const root = document.querySelectorAll('div.metabits-explorer')[i];
  const panels = Array.from(root.querySelectorAll('.mbx-panel'));
  const controls = Array.from(root.querySelectorAll('[data-control]'));
  return {
    id: root.id,
    ready: root.dataset.ready || null,
    frame: root.dataset.frame === undefined ? null : Number(root.dataset.frame),
    caption: root.querySelector('.mbx-caption').textContent,
    spec: withSpec ? root.querySelector('script.mbx-data').textContent : null,
    controls: controls.map((el) => ({
      kind: el.tagName.toLowerCase() === 'select' ? 'select' : el.type,
      value: Number(el.value), max: el.tagName.toLowerCase() === 'select'
        ? el.options.length - 1 : Number(el.max),
      shown: (el.tagName.toLowerCase() === 'select'
        ? el.options[el.selectedIndex].textContent
        : (root.querySelector(`output[data-for="${el.dataset.control}"]`) || {}).textContent)
        ?? null,
    })),
    svgs: panels.map((p) => p.querySelectorAll('.main-svg').length),
    // what plotly drew in the plotting area: path shapes (lines, bars, bands) and marker places
    drawn: panels.map((p) => Array.from(p.querySelectorAll('.main-svg .cartesianlayer path'))
      .map((el) => (el.getAttribute('d') || '') + '@' + (el.getAttribute('transform') || ''))
      .join('|')),
    panelWidths: panels.map((p) => Math.round(p.getBoundingClientRect().width)),
    svgRights: panels.map((p) => {
      const svg = p.querySelector('.main-svg');
      return svg ? Math.round(svg.getBoundingClientRect().right) : null;
    }),
    windowWidth: document.documentElement.clientWidth,
    // each legend swatch: its panel, the trace it stands for and the colour it shows
    swatches: Array.from(root.querySelectorAll('.mbx-legend [data-trace]')).map((el) => {
      const css = getComputedStyle(el);
      return {panel: Number(el.closest('.mbx-legend').dataset.panel), trace: el.dataset.trace,
              color: el.classList.contains('mbx-key-line') ? css.borderTopColor
                : css.backgroundColor};
    }),
  };
}
"""

# Control k of explorer i moved to position `to` (a range input set and told with 'input'; `to`
# null: a menu whose option Playwright has just chosen), then, in the same call: wait until
# data-frame changes from `old` (up to `timeout` ms; a frame that stays is reported by the test),
# let two frames show it, and return the explorer's state as JSON.
MOVE_JS = ("async ([i, k, to, old, timeout]) => {" + NEXT_FRAME_JS + "const state = " + STATE_JS
           + r""";
  const root = document.querySelectorAll('div.metabits-explorer')[i];
  if (to !== null) {
    const el = root.querySelectorAll('[data-control]')[k];
    el.value = String(to);
    el.dispatchEvent(new Event('input', {bubbles: true}));
  }
  const changed = () => root.dataset.frame !== undefined && Number(root.dataset.frame) !== old;
  const start = performance.now();
  while (!changed() && performance.now() - start < timeout) await nextFrame();
  await settle();
  return JSON.stringify(state([i, false]));
}
""")

#: hides the whole page (the one a tab leaves: _Tab.show); a hidden plotly plot does not redraw
#: when the window's width changes
HIDE_JS = "() => { document.documentElement.style.display = 'none'; }"

SETTLE_JS = """
async () => { await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))); }
"""

READY_JS = r"""
() => Array.from(document.querySelectorAll('div.metabits-explorer')).every((root) =>
  root.dataset.frame !== undefined &&
  Array.from(root.querySelectorAll('.mbx-panel')).every((p) => p.querySelector('.main-svg')))
"""

# After the window narrowed: plotly's responsive resize (100 ms after the resize event) redraws
# each plot as wide as its panel; wait until every plot is (up to `timeout` ms: a plot that does
# not fit is reported by test_explorers_work_at_400px), then let two frames show it.
FIT_JS = "async (timeout) => {" + NEXT_FRAME_JS + r"""
  const fits = () => Array.from(document.querySelectorAll('div.metabits-explorer .mbx-panel'))
    .every((p) => {
      const svg = p.querySelector('.main-svg');
      return svg && Math.abs(Number(svg.getAttribute('width')) -
                             p.getBoundingClientRect().width) <= 1;
    });
  const start = performance.now();
  while (!fits() && performance.now() - start < timeout) await nextFrame();
  await settle();
}
"""

# Per labelled panel of every explorer: the plot area and each text label's box (px, page).
LABEL_BOXES_JS = r"""
() => Array.from(document.querySelectorAll('div.metabits-explorer')).flatMap((root) =>
  Array.from(root.querySelectorAll('.mbx-panel')).map((p, k) => {
    const area = p.querySelector('.main-svg .draglayer .nsewdrag');
    const box = (el) => { const r = el.getBoundingClientRect();
                          return [r.left, r.top, r.right, r.bottom]; };
    return {where: `${root.id} panel ${k} frame ${root.dataset.frame}`,
            area: area ? box(area) : null,
            labels: Array.from(p.querySelectorAll('.textpoint text'))
              .map((t) => [t.textContent, box(t)])};
  }).filter((panel) => panel.labels.length))
"""

# Every control of every explorer to its last position (a second set of frames to measure); each
# control keeps the setting it had (data-saved) for RESTORE_JS.
LAST_FRAMES_JS = r"""
() => document.querySelectorAll('div.metabits-explorer').forEach((root) =>
  root.querySelectorAll('[data-control]').forEach((el) => {
    el.dataset.saved = el.value;
    el.value = el.tagName.toLowerCase() === 'select'
      ? el.options[el.options.length - 1].value : el.max;
    el.dispatchEvent(new Event('input', {bubbles: true}));
  }))
"""

# Every control back where LAST_FRAMES_JS found it; resolves when every explorer shows the frame
# it showed then (`frames`, up to `timeout` ms), and two more frames have been drawn.
RESTORE_JS = "async ([frames, timeout]) => {" + NEXT_FRAME_JS + r"""
  const roots = Array.from(document.querySelectorAll('div.metabits-explorer'));
  roots.forEach((root) => root.querySelectorAll('[data-control]').forEach((el) => {
    el.value = el.dataset.saved;
    el.dispatchEvent(new Event('input', {bubbles: true}));
  }));
  const back = () => roots.every((root, i) => Number(root.dataset.frame) === frames[i]);
  const start = performance.now();
  while (!back() && performance.now() - start < timeout) await nextFrame();
  await settle();
}
"""

#: explorer pages with labelled points (plotly's ``markers+text``) have their labels measured
LABELLED_POINTS = '"markers+text"'

# pydata-sphinx-theme opens a sidebar as a modal <dialog> (the drawer); its handler sits on a
# hidden copy of the toggle button (pydata/pydata-sphinx-theme#2451) and
# _static/metabits-toggles.js forwards the visible copy's click to it.
DRAWERS = {".primary-toggle": "#pst-primary-sidebar-modal",
           ".secondary-toggle": "#pst-secondary-sidebar-modal"}
MENU_PAGE = "book/meyen/03_bounds.html"  # a chapter with sections, so it has a "Contents" drawer
#: how long a drawer may take to open or close after a click or Escape
DRAWER_TIMEOUT_MS = 10_000

#: A page that asks for an image from another host, by name and by IP address: both requests must
#: be recorded and fail (test_browser.py::test_visit_blocks_and_records_external_requests).
OFFLINE_PROBE_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>offline probe</title></head>
<body><img src="http://example.org/probe.png" alt="a"><img src="http://192.0.2.1/probe.png" alt="b">
</body></html>
"""


# --- driving the pages (Playwright's asyncio API) ------------------------------------------------

async def _json(page, js: str, arg=None):
    """``js`` (a function) evaluated in the page, its value passed as one JSON string: a large
    value crosses Playwright's protocol value by value, which is slow in Python."""
    wrapped = f"async (arg) => JSON.stringify(await ({js})(arg))"
    return json.loads(await page.evaluate(wrapped, arg))


def _with_spec(state: dict, specs: dict, i: int) -> dict:
    if i in specs:
        state["spec"] = specs[i]
    else:
        specs[i] = state["spec"] = json.loads(state["spec"])
    return state


async def _state(page, i: int, specs: dict) -> dict:
    """The state of explorer ``i`` (STATE_JS), its ``spec`` read from the page once per page
    (``specs``: explorer index -> spec, filled on first use; the element never changes)."""
    return _with_spec(await _json(page, STATE_JS, [i, i not in specs]), specs, i)


async def _set(page, i: int, k: int, to: int, state: dict, specs: dict) -> dict:
    """Put control k of explorer i at position ``to``; the explorer's state afterwards."""
    if state["controls"][k]["kind"] == "select":
        await page.locator("div.metabits-explorer").nth(i).locator("[data-control]").nth(k) \
            .select_option(index=to)
        to = None
    after = json.loads(await page.evaluate(MOVE_JS, [i, k, to, state["frame"], MOVE_TIMEOUT_MS]))
    return _with_spec(after, specs, i)


async def _move(page, i: int, k: int, state: dict, specs: dict) -> dict:
    """Move control k of explorer i from the default setting to its far end (or to 0), then back.

    Every control is moved from the default setting (not from where the previous control left
    the others), where the book's explorers show something to change: from some settings a
    control rightly changes nothing (the skew of a distribution with one outcome).
    """
    c = state["controls"][k]
    to = c["max"] if c["value"] != c["max"] else 0
    after = await _set(page, i, k, to, state, specs)
    back = await _set(page, i, k, c["value"], after, specs)
    return {"control": k, "to": to, "before": state, "after": after, "back": back}


async def _axe(page):
    if not AXE.is_file():
        return None
    await page.add_script_tag(path=str(AXE))
    return await _json(page, AXE_RUN_JS, AXE_TAGS)


async def _explorer_states(page, specs: dict) -> list[dict]:
    n = await page.locator("div.metabits-explorer").count()
    return [await _state(page, i, specs) for i in range(n)]


class _Tab:
    """One tab of the visit's browser, taken from page to page as a reader clicks through the site,
    with what it records of the page it shows (:meth:`show` starts a page's records).

    The tabs share one browser context with its cache on: a page loads the theme's scripts,
    MathJax and plotly.js from the cache as a reader's browser does. A request served from the
    cache is still a request: the ``request`` event reports it, so every page's requests are seen
    whatever was loaded before it.
    """

    def __init__(self, page, base: str, external: dict):
        self.page, self.path = page, None
        self.seen = {"errors": [], "failed": [], "plotly": []}
        page.on("console", lambda msg: self.seen["errors"].append(
            f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.seen["errors"].append(f"uncaught: {exc}"))
        page.on("requestfailed", lambda req: self.seen["failed"].append(
            f"{req.url} ({req.failure})") if req.url.startswith(base) else None)
        page.on("response", lambda resp: self.seen["failed"].append(
            f"{resp.url} (HTTP {resp.status})") if resp.status >= 400 else None)

        def request(req):
            if urlsplit(req.url).hostname != "127.0.0.1":  # blocked by OFFLINE_ARGS
                external.setdefault(self.path, set()).add(req.url)
            if "plotly" in urlsplit(req.url).path.rsplit("/", 1)[-1]:
                self.seen["plotly"].append(req.url)
        page.on("request", request)

    async def show(self, path: str, url: str, width: int = WIDE, redirects: bool = False) -> dict:
        """Load ``url`` (the site's ``path``) at ``width`` px; its records from now on: ``{"errors"
        (console and script errors), "failed" (failed requests to the site), "plotly" (requests
        for plotly.js)}``. ``redirects``: the page sends the reader on (index.html); wait for
        the page it lands on."""
        if (self.page.viewport_size or {}).get("width") != width and self.path is not None:
            # The page being left (last measured at the other width) is hidden first, so that
            # the window's new width does not lay it out again just before it goes
            await self.page.evaluate(HIDE_JS)
        self.path = path
        self.seen = {"errors": [], "failed": [], "plotly": []}
        await self.page.set_viewport_size({"width": width, "height": HEIGHT})
        await self.page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        if redirects:
            await self.page.wait_for_url(lambda now: now.split("#")[0] != url,
                                         timeout=TIMEOUT_MS)
            await self.page.wait_for_load_state("load", timeout=TIMEOUT_MS)
        return self.seen


async def visit_page(tab: _Tab, path: str, url: str, redirects: bool = False,
                     explorer: bool = False, labels: bool = False) -> dict:
    """Load ``url`` (the site's ``path``) in ``tab`` and record what the browser tests check, at
    1280 px, then at 400 px.

    Returns ``{WIDE: report, NARROW: report, "errors", "failed", "plotly"}``: the reports of
    ``PAGE_REPORT_JS`` (the one at 1280 px with axe-core's violations), the console and script
    errors, the failed requests and the requests for plotly.js during the whole visit. A page
    with an explorer (``explorer``) also gets ``"explore"``: every explorer's first state, each
    control moved from the default setting to its far end and back at 1280 px, and at 400 px
    (after plotly's resize) the explorers' states and their first control moved. A page with
    labelled points (``labels``) also gets ``"labels"``: ``{WIDE: boxes, NARROW: boxes}``, the
    boxes of :func:`label_boxes` at each width.

    Each page is loaded once and measured at both widths (the theme's narrow layout is CSS media
    queries, and MathJax 3 does not break lines, so resizing shows what a phone shows).
    ``redirects``: the page sends the reader on (index.html); the page it lands on is measured.
    """
    if labels and not explorer:
        raise ValueError("labels are measured on explorer pages only (explorer=True)")
    out = await tab.show(path, url, WIDE, redirects)
    page, specs = tab.page, {}
    await page.evaluate(WAIT_FOR_MATHJAX_JS)
    if explorer:
        try:
            await page.wait_for_function(READY_JS, timeout=TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - reported by the panel test
            pass
        await page.evaluate(SETTLE_JS)
        explore = {"initial": await _explorer_states(page, specs), "moves": {}, "narrow": {}}
    out[WIDE] = await _json(page, PAGE_REPORT_JS, None)
    out[WIDE]["axe"] = await _axe(page)
    if explorer:
        for i, state in enumerate(explore["initial"]):
            moves = []
            for k in range(len(state["controls"])):
                move = await _move(page, i, k, state, specs)
                moves.append(move)
                state = move["back"]
            explore["moves"][i] = moves
    if labels:
        out["labels"] = {WIDE: await label_boxes(page)}
        await page.evaluate(RESTORE_JS, [[s["frame"] for s in explore["initial"]],
                                         MOVE_TIMEOUT_MS])
    await page.set_viewport_size({"width": NARROW, "height": HEIGHT})
    if explorer:
        await page.evaluate(FIT_JS, MOVE_TIMEOUT_MS)
    out[NARROW] = await _json(page, PAGE_REPORT_JS, NARROW)
    if explorer:
        explore["narrow"]["states"] = await _explorer_states(page, specs)
        explore["narrow"]["moves"] = [await _move(page, i, 0, state, specs)
                                      for i, state in enumerate(explore["narrow"]["states"])]
        out["explore"] = explore
    if labels:
        out["labels"][NARROW] = await label_boxes(page)
    return out


async def label_boxes(page) -> list:
    """The text labels' boxes of every labelled panel of ``page`` (its explorers drawn, at the
    default frame), then with every control at its far end, where it leaves them
    (``LAST_FRAMES_JS``; ``RESTORE_JS`` puts them back)."""
    seen = await page.evaluate(LABEL_BOXES_JS)
    await page.evaluate(LAST_FRAMES_JS)
    await page.evaluate(SETTLE_JS)
    seen += await page.evaluate(LABEL_BOXES_JS)
    return seen


async def phone_menu(tab: _Tab, path: str, url: str) -> dict:
    """``url`` (the site's ``path``) at 400 px, every visible button of each toggle of ``DRAWERS``
    clicked: ``{toggle: [{"title", "opened", "hrefs" (the primary drawer's links), "closed"}]}``
    (``None``: no visible button)."""
    await tab.show(path, url, NARROW)
    page = tab.page
    out: dict = {}
    for toggle, drawer in DRAWERS.items():
        visible = [b for b in await page.query_selector_all(toggle) if await b.is_visible()]
        if not visible:
            out[toggle] = None
            continue
        out[toggle] = []
        for button in visible:
            await button.click()
            seen = {"title": None, "opened": True, "hrefs": None, "closed": True}
            out[toggle].append(seen)
            try:
                await page.wait_for_selector(f"{drawer}[open]", state="visible",
                                             timeout=DRAWER_TIMEOUT_MS)
            except Exception:  # noqa: BLE001 - the drawer did not open
                seen.update(opened=False, title=await button.get_attribute("title"))
                continue
            if toggle == ".primary-toggle":
                seen["hrefs"] = await page.eval_on_selector_all(
                    f"{drawer} nav a[href]", "els => els.map((a) => a.href)")
            await page.keyboard.press("Escape")
            try:
                await page.wait_for_selector(f"{drawer}[open]", state="detached",
                                             timeout=DRAWER_TIMEOUT_MS)
            except Exception:  # noqa: BLE001 - Escape did not close it
                seen["closed"] = False
    return out


async def offline_probe(context) -> dict:
    """A page that asks for files outside 127.0.0.1 (``OFFLINE_PROBE_HTML``), in a tab of its
    own: ``{"requested": [urls], "failed": [(url, failure)]}``."""
    page = await context.new_page()
    external: dict = {}
    tab = _Tab(page, "http://127.0.0.1/", external)
    failed = []
    page.on("requestfailed", lambda req: failed.append((req.url, req.failure)))
    try:
        tab.path = "offline probe"
        await page.set_content(OFFLINE_PROBE_HTML, wait_until="load", timeout=TIMEOUT_MS)
    finally:
        await page.close()
    return {"requested": sorted(external.get("offline probe", ())), "failed": sorted(failed)}


def site_pages(root: Path) -> list[str]:
    """Every HTML page of the built site (not Sphinx's _static and _sources), sorted."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                  if not p.relative_to(root).parts[0].startswith(("_static", "_sources")))


async def _visit_site(site_url: str, root: Path, concurrency: int) -> dict:
    from playwright.async_api import async_playwright

    pages = site_pages(root)
    assert pages, f"no HTML pages in {root}"
    external: dict[str, set] = {}
    out = {"pages": {}, "external": external, "explorer_pages": [], "labels": {}, "menu": None,
           "offline_probe": None, "root": root, "base": site_url, "timings": {}}
    jobs = []  # (estimated cost, name, coroutine function of a tab)
    for path in pages:
        file = root / path
        text = file.read_text(encoding="utf-8", errors="replace")
        redirects = 'http-equiv="refresh"' in text.lower()
        explorer = bool(EXPLORER_DIV.search(text))
        if explorer:
            out["explorer_pages"].append(path)
        labels = explorer and LABELLED_POINTS in text
        jobs.append((file.stat().st_size, path,
                     _page_job(out, path, redirects, explorer, labels)))
    jobs.append((0, "phone menu", _menu_job(out)))
    # the longest first (their size is a fair guess), so that no long page starts last
    jobs.sort(key=lambda job: -job[0])
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job[1:])
    errors = []

    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                       args=CHROMIUM_ARGS + OFFLINE_ARGS)
        except Exception as error:  # noqa: BLE001 - any launch failure means no browser
            raise BrowserUnavailable(
                f"Chromium at {CHROMIUM} does not start under Playwright: {error}") from error
        context = await browser.new_context(viewport={"width": WIDE, "height": HEIGHT},
                                            service_workers="block")

        async def run(name, job):
            start = time.perf_counter()
            try:
                await job
            except Exception:  # noqa: BLE001 - reported below, after the other jobs
                errors.append(f"{name}:\n{traceback.format_exc()}")
            out["timings"][name] = time.perf_counter() - start

        async def worker():
            tab = _Tab(await context.new_page(), site_url, external)
            while not queue.empty():
                name, job = queue.get_nowait()
                await run(name, job(tab, site_url))

        async def probe():
            out["offline_probe"] = await offline_probe(context)

        try:
            await asyncio.gather(run("offline probe", probe()),
                                 *(worker() for _ in range(max(1, concurrency))))
        finally:
            await browser.close()
    if errors:
        raise RuntimeError("the visit of the built site failed:\n" + "\n".join(errors))
    out["pages"] = dict(sorted(out["pages"].items()))
    return out


def _page_job(out, path, redirects, explorer, labels):
    async def job(tab, site_url):
        seen = await visit_page(tab, path, site_url + path, redirects, explorer, labels)
        if labels:
            out["labels"][path] = seen.pop("labels")
        out["pages"][path] = seen
    return job


def _menu_job(out):
    async def job(tab, site_url):
        out["menu"] = await phone_menu(tab, MENU_PAGE, site_url + MENU_PAGE)
    return job


def visit_site(site_url: str, root: Path, concurrency: int = CONCURRENCY) -> dict:
    """Every HTML page of the site, each loaded once, with every request outside 127.0.0.1
    blocked and recorded, ``concurrency`` pages at a time (a tab each, :class:`_Tab`): ``{"pages":
    {path: what visit_page saw}, "external": {path: {urls}}, "explorer_pages": [...], "labels":
    {path: {width: label_boxes}} (measured in the page's visit), "menu": phone_menu's record,
    "offline_probe" (:func:`offline_probe`), "root", "base", "timings": {job: seconds}}``.

    Runs in a thread of its own (an asyncio loop of its own, whatever the caller's thread runs);
    raises :class:`BrowserUnavailable` when Playwright or Chromium is missing.
    """
    try:
        import playwright.async_api  # noqa: F401
    except ImportError as error:
        raise BrowserUnavailable("playwright is not installed "
                                 "(pip install -r tests/requirements.txt)") from error
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        raise BrowserUnavailable(f"no Chromium at {CHROMIUM} "
                                 "(apt-get install chromium-headless-shell)")
    result: dict = {}

    def run():
        try:
            result["value"] = asyncio.run(_visit_site(site_url, root, concurrency))
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = error

    thread = threading.Thread(target=run, name="visit_site", daemon=True)  # Ctrl-C ends it
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def _fmt(problems):
    return "\n".join(f"{page}:\n    " + "\n    ".join(map(str, items))
                     for page, items in sorted(problems.items()))
