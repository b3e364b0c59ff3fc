"""Sphinx extension for the book's explorers (loaded from ``_config.yml``:
``sphinx.local_extensions``).

An explorer cell's output (``metabits_book.explore.show``) carries two renderings: an ipywidgets
view, which Jupyter, Binder and Colab show live, and a static HTML explorer with every frame
precomputed, which the website shows. This extension makes the website use the second and work
offline:

1. **plotly.js once, from the site.** At the end of an HTML build, ``plotly.min.js`` is copied
   from the installed ``plotly`` package into ``_static/`` (one file, cached by the browser across
   pages), and ``metabits-explorer.js`` (``metabits_book.explore.EXPLORER_JS``, the package
   data file ``metabits_book/explore/explorer.js``, which only selects precomputed frames) is
   written next to it. Pages with an explorer load both; other pages load neither.
2. **No widget scripts from a CDN.** ``_config.yml`` ranks the widget view below the HTML
   (``nb_mime_priority_overrides``), so MyST-NB renders the static explorer. A notebook executed
   by the book build itself stores its widget state in the notebook's metadata, and MyST-NB then
   adds require.js and the widget manager from a CDN plus the state (base64 images of the live
   plots): dead weight on a page with no kernel, and requests that fail offline. They are dropped
   here, before MyST-NB adds its per-page scripts.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

PLOTLY_JS = "plotly.min.js"
EXPLORER_JS = "metabits-explorer.js"
MARKER = '<div class="metabits-explorer"'  # the tag itself: a docstring's text is escaped


def _has_explorer(context) -> bool:
    return MARKER in (context.get("body") or "")


def drop_widget_scripts(app, pagename, templatename, context, doctree):
    """Forget the ipywidgets state and CDN scripts MyST-NB recorded for this page."""
    data = getattr(app.env, "nb_metadata", {}).get(pagename, {})
    js_files = data.get("js_files") if isinstance(data, dict) else None
    if js_files:
        for key in [k for k in js_files if k.startswith("ipywidgets")]:
            del js_files[key]


def add_explorer_scripts(app, pagename, templatename, context, doctree):
    """Load plotly.js and the explorer script on pages that show an explorer (deferred, in
    order)."""
    if app.builder.format == "html" and _has_explorer(context):
        app.add_js_file(PLOTLY_JS, loading_method="defer", priority=600)
        app.add_js_file(EXPLORER_JS, loading_method="defer", priority=601)


def copy_scripts(app, exception):
    """Write plotly.min.js and metabits-explorer.js into ``<html>/_static``."""
    if exception is not None or app.builder.format != "html":
        return
    from metabits_book.explore import EXPLORER_JS as SCRIPT, plotly_js_path

    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    shutil.copy2(plotly_js_path(), static / PLOTLY_JS)
    (static / EXPLORER_JS).write_text(SCRIPT, encoding="utf-8")


def setup(app):
    # before MyST-NB's own html-page-context handler (priority 500) adds the recorded scripts
    app.connect("html-page-context", drop_widget_scripts, priority=400)
    app.connect("html-page-context", add_explorer_scripts, priority=450)
    app.connect("build-finished", copy_scripts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
