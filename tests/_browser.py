"""Shared helpers of the browser tests (test_browser.py, test_explore_browser.py).

Constants of the headless Chromium, the scripts run in each page, and a quiet HTTP handler;
the fixtures ``site_url`` and ``browser`` that use them are in conftest.py.
"""

from __future__ import annotations

import http.server
import os

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


def _fmt(problems):
    return "\n".join(f"{page}:\n    " + "\n    ".join(map(str, items))
                     for page, items in sorted(problems.items()))
