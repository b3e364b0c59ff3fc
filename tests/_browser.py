"""Shared helpers of the browser tests (test_browser.py, test_explore_browser.py).

Constants of the headless Chromium, the scripts run in each page, a quiet HTTP handler, and
:func:`visit_site`, which loads every page of the built site once and records everything both
test modules check: the fixtures ``site_url``, ``browser`` and ``site_visits`` that use them are
in conftest.py. One visit per page serves both modules (each page used to be loaded by each of
them: the explorer pages twice).
"""

from __future__ import annotations

import http.server
import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = os.environ.get("METABITS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDE, NARROW = 1280, 400
HEIGHT = 900
# How long to wait for a page to load or for the explorers to draw. Only a bound on a wait that
# ends as soon as the page is ready: 20 s was too short on a 2-core machine under a load of 20.
TIMEOUT_MS = 60_000
#: how long to wait for an explorer to show another frame after a control moved
MOVE_TIMEOUT_MS = 15_000

#: the explorer element written by metabits.explore.static_html (a start tag, not the text
#: ``class="metabits-explorer"`` that the API page shows in a code example)
EXPLORER_DIV = re.compile(r'<div class="metabits-explorer"')

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


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests: .ci/run installs chromium, "
                    "scripts/setup-env.sh installs playwright)", pytrace=False)
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


# --- in the page ---------------------------------------------------------------------------------

# The state of explorer i: what the reader sees and what the script recorded. The explorer's
# JSON (``spec``: every frame's traces and captions, megabytes on some pages) is a static
# <script> element: it is read once per explorer (withSpec) and reused by :func:`_state`.
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
    spec: withSpec ? JSON.parse(root.querySelector('script.mbx-data').textContent) : null,
    controls: controls.map((el) => ({
      kind: el.tagName.toLowerCase() === 'select' ? 'select' : el.type,
      value: Number(el.value), max: el.tagName.toLowerCase() === 'select'
        ? el.options.length - 1 : Number(el.max),
      shown: el.tagName.toLowerCase() === 'select'
        ? el.options[el.selectedIndex].textContent
        : (root.querySelector(`output[data-for="${el.dataset.control}"]`) || {}).textContent,
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

# Move control k of explorer i to position `to`: a range input is set and told ('input'); a menu
# gets another option chosen by Playwright (select_option), which fires input and change.
SET_RANGE_JS = r"""
([i, k, to]) => {
  const root = document.querySelectorAll('div.metabits-explorer')[i];
  const el = root.querySelectorAll('[data-control]')[k];
  el.value = String(to);
  el.dispatchEvent(new Event('input', {bubbles: true}));
}
"""

FRAME_CHANGED_JS = r"""
([i, old]) => {
  const root = document.querySelectorAll('div.metabits-explorer')[i];
  return root.dataset.frame !== undefined && Number(root.dataset.frame) !== old;
}
"""

SETTLE_JS = """
async () => { await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))); }
"""

READY_JS = r"""
() => Array.from(document.querySelectorAll('div.metabits-explorer')).every((root) =>
  root.dataset.frame !== undefined &&
  Array.from(root.querySelectorAll('.mbx-panel')).every((p) => p.querySelector('.main-svg')))
"""


def _state(page, i: int, specs: dict | None = None) -> dict:
    """The state of explorer ``i`` (STATE_JS), its ``spec`` read from the page once per page
    (``specs``: explorer index -> spec, filled on first use; the element never changes)."""
    specs = {} if specs is None else specs
    state = page.evaluate(STATE_JS, [i, i not in specs])
    if i in specs:
        state["spec"] = specs[i]
    else:
        specs[i] = state["spec"]
    return state


def _set(page, i: int, k: int, to: int, state: dict) -> dict:
    """Put control k of explorer i at position ``to``; the explorer's state afterwards."""
    if state["controls"][k]["kind"] == "select":
        page.locator("div.metabits-explorer").nth(i).locator("[data-control]").nth(k) \
            .select_option(index=to)
    else:
        page.evaluate(SET_RANGE_JS, [i, k, to])
    try:
        page.wait_for_function(FRAME_CHANGED_JS, arg=[i, state["frame"]], timeout=MOVE_TIMEOUT_MS)
    except Exception:  # noqa: BLE001 - reported by _move_problems as "data-frame stayed"
        pass
    page.evaluate(SETTLE_JS)
    return _state(page, i, _specs(page))


def _move(page, i: int, k: int, state: dict) -> dict:
    """Move control k of explorer i from the default setting to its far end (or to 0), then back.

    Every control is moved from the default setting (not from where the previous control left
    the others), where the book's explorers show something to change: from some settings a
    control rightly changes nothing (the skew of a distribution with one outcome).
    """
    c = state["controls"][k]
    to = c["max"] if c["value"] != c["max"] else 0
    after = _set(page, i, k, to, state)
    back = _set(page, i, k, c["value"], after)
    return {"control": k, "to": to, "before": state, "after": after, "back": back}


def _axe(page):
    if not AXE.is_file():
        return None
    page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN_JS)


def _specs(page) -> dict:
    """The explorers' specs read so far on this page (kept with the page object)."""
    if not hasattr(page, "_metabits_specs"):
        page._metabits_specs = {}
    return page._metabits_specs


def _explorer_states(page) -> list[dict]:
    n = page.locator("div.metabits-explorer").count()
    return [_state(page, i, _specs(page)) for i in range(n)]


def visit_page(context, url: str, base: str, redirects: bool = False,
               explorer: bool = False) -> dict:
    """Load ``url`` once and record what the browser tests check, at 1280 px, then at 400 px.

    Returns ``{WIDE: report, NARROW: report, "errors", "failed", "plotly"}``: the reports of
    ``PAGE_REPORT_JS`` (the one at 1280 px with axe-core's violations), the console and script
    errors, the failed requests and the requests for plotly.js during the whole visit. A page
    with an explorer (``explorer``) also gets ``"explore"``: every explorer's first state, each
    control moved from the default setting to its far end and back at 1280 px, and at 400 px
    (after plotly's resize) the explorers' states and their first control moved.

    Each page is loaded once and measured at both widths (the theme's narrow layout is CSS media
    queries, and MathJax 3 does not break lines, so resizing shows what a phone shows).
    ``redirects``: the page sends the reader on (index.html); the page it lands on is measured.
    """
    page = context.new_page()
    errors, failed, plotly = [], [], []
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.on("requestfailed", lambda req: failed.append(
        f"{req.url} ({req.failure})") if req.url.startswith(base) else None)
    page.on("response", lambda resp: failed.append(f"{resp.url} (HTTP {resp.status})")
            if resp.status >= 400 else None)
    page.on("request", lambda req: plotly.append(req.url)
            if "plotly" in urlsplit(req.url).path.rsplit("/", 1)[-1] else None)
    out = {"errors": errors, "failed": failed, "plotly": plotly}
    try:
        page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        if redirects:
            page.wait_for_url(lambda now: now.split("#")[0] != url, timeout=TIMEOUT_MS)
            page.wait_for_load_state("load", timeout=TIMEOUT_MS)
        page.evaluate(WAIT_FOR_MATHJAX_JS)
        if explorer:
            try:
                page.wait_for_function(READY_JS, timeout=TIMEOUT_MS)
            except Exception:  # noqa: BLE001 - reported by the panel test
                pass
            page.evaluate(SETTLE_JS)
            explore = {"initial": _explorer_states(page), "moves": {}, "narrow": {}}
        out[WIDE] = page.evaluate(PAGE_REPORT_JS, None)
        out[WIDE]["axe"] = _axe(page)
        if explorer:
            for i, state in enumerate(explore["initial"]):
                moves = []
                for k in range(len(state["controls"])):
                    move = _move(page, i, k, state)
                    moves.append(move)
                    state = move["back"]
                explore["moves"][i] = moves
        page.set_viewport_size({"width": NARROW, "height": HEIGHT})
        if explorer:
            page.evaluate(SETTLE_JS)
            page.wait_for_timeout(300)  # plotly's responsive resize runs on the resize event
        out[NARROW] = page.evaluate(PAGE_REPORT_JS, NARROW)
        if explorer:
            explore["narrow"]["states"] = _explorer_states(page)
            explore["narrow"]["moves"] = [_move(page, i, 0, _state(page, i, _specs(page)))
                                          for i in range(len(explore["narrow"]["states"]))]
            out["explore"] = explore
    finally:
        page.close()
    return out


def site_pages(root: Path) -> list[str]:
    """Every HTML page of the built site (not Sphinx's _static and _sources), sorted."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                  if not p.relative_to(root).parts[0].startswith(("_static", "_sources")))


def visit_site(browser, site_url: str, root: Path) -> dict:
    """Every HTML page of the site, each loaded once in a fresh browser context (so that no
    request is served from another page's cache) with every request outside 127.0.0.1 blocked
    and recorded: ``{"pages": {path: what visit_page saw}, "external": {path: {urls}},
    "explorer_pages": [...], "root", "base"}``."""
    pages = site_pages(root)
    assert pages, f"no HTML pages in {root}"
    external: dict[str, set] = {}
    results, explorers = {}, []
    for path in pages:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        redirects = 'http-equiv="refresh"' in text.lower()
        explorer = bool(EXPLORER_DIV.search(text))
        if explorer:
            explorers.append(path)

        def route(route_, request, path=path):
            if urlsplit(request.url).hostname == "127.0.0.1":
                route_.continue_()
            else:  # the site must work offline: nothing may leave this machine
                external.setdefault(path, set()).add(request.url)
                route_.abort("blockedbyclient")

        context = browser.new_context(viewport={"width": WIDE, "height": HEIGHT},
                                      service_workers="block")
        context.route("**/*", route)
        try:
            results[path] = visit_page(context, site_url + path, site_url, redirects, explorer)
        finally:
            context.close()
    return {"pages": results, "external": external, "explorer_pages": explorers,
            "root": root, "base": site_url}


def _fmt(problems):
    return "\n".join(f"{page}:\n    " + "\n    ".join(map(str, items))
                     for page, items in sorted(problems.items()))
