"""Sphinx extension for the metabits website (loaded from ``_config.yml``:
``sphinx.local_extensions``).

It does eight things the stock Jupyter Book 1 stack does not:

1. **MathJax from the site itself.** Sphinx loads MathJax 3 from a CDN by default, so a reader
   offline sees raw TeX. ``mathjax_path`` in ``_config.yml`` points at ``_static/mathjax/``, and
   :func:`copy_mathjax` fills that folder at the end of every HTML build from the official npm
   package ``mathjax@3.2.2``, which ``scripts/fetch_npm.py`` (run by ``scripts/setup-env.sh``)
   downloads from the npm registry, checks against the registry's sha512 checksum and unpacks into
   ``.venv/share/mathjax-3.2.2``. Only the ``tex-chtml`` component and the folders it loads on
   demand (TeX extensions, CHTML fonts, the menu, accessibility and speech data) are copied, with
   MathJax's licence.
2. **Author-year bibliography labels.** The text cites author-year (``bibtex_reference_style:
   author_year``), so the bibliography is labelled the same way: ``[Meyen et al., 2025]``, with
   ``a``/``b`` suffixes if an author-year pair repeats. Use ``bibtex_default_style:
   metabits_author_year``.
3. **One copy of each inline script.** sphinx-thebe registers its inline configuration script both
   with the builder and with the registry, so every page would declare ``const THEBE_JS_URL``
   twice and the browser log a SyntaxError. :func:`dedupe_scripts` drops exact repeats.
4. **Accessible tables and bibliography.** :func:`tidy_body` turns pandas' empty corner header
   cells into plain cells and drops docutils' ``role="list"`` from the bibliography.
5. **A lighter navigation sidebar.** The sidebar lists the pages by title only, yet Sphinx copies
   every page's whole table of contents into it on every page before it cuts them to their
   titles; the API page's alone has about 3,200 entries, one per documented function.
   :func:`titles_only_tocs` hands that call tables of contents already cut to their titles, once
   per build: the same sidebar, without copying the whole tables of contents on every page.
6. **Figures one tap from full size.** :func:`tidy_body` wraps each figure's image in a link to
   the image file: the figure scales to the column (``_static/metabits.css``), so on a phone
   its full-size picture is one tap away.
7. **The colour-mode button's name.** pydata-sphinx-theme names its colour-mode button
   "Color mode" while the icon inside shows "Light", "Dark" or "System Settings" (its
   ``title``), which axe-core reports as ``label-content-name-mismatch``: the template in
   ``_ext/templates`` (added to ``templates_path`` by :func:`add_templates`) names it with all
   three.
8. **Exercise titles in references.** sphinx-exercise records every exercise under the name
   "Exercise", so ``{numref}`Exercise {number}: {name} <ex-label>``` would print that word
   instead of the exercise's title. :func:`exercise_titles` records each titled exercise under
   its title, so such a reference prints the number and the title the exercise's page shows.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

from docutils import nodes
from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

MATHJAX_VERSION = "3.2.2"
MATHJAX_COMPONENT = "tex-chtml.js"
#: Folders of MathJax's ``es5`` tree that ``tex-chtml.js`` loads on demand.
MATHJAX_FOLDERS = ("input", "output/chtml", "ui", "a11y", "sre")


# --- MathJax -------------------------------------------------------------------------------------

def mathjax_source() -> Path:
    """The ``es5`` folder of MathJax 3.2.2 from npm, unpacked by ``scripts/fetch_npm.py``."""
    dist = Path(sys.prefix) / "share" / f"mathjax-{MATHJAX_VERSION}"
    package = dist / "package.json"
    if package.is_file() and (dist / "es5" / MATHJAX_COMPONENT).is_file():
        version = json.loads(package.read_text(encoding="utf-8")).get("version")
        if version == MATHJAX_VERSION:
            return dist / "es5"
    raise ExtensionError(
        f"MathJax {MATHJAX_VERSION} is not installed at {dist}: the website serves MathJax "
        "itself. Run `bash scripts/setup-env.sh` (it runs scripts/fetch_npm.py, which "
        "downloads mathjax@3.2.2 from the npm registry and checks its checksum)."
    )


def check_mathjax(app):
    """Fail early, before notebooks run, when MathJax is missing."""
    if app.builder.format == "html":
        mathjax_source()


def copy_mathjax(app, exception):
    """Copy the MathJax component and what it loads into ``<html>/_static/mathjax/``."""
    if exception is not None or app.builder.format != "html":
        return
    src = mathjax_source()
    dest = Path(app.outdir) / "_static" / "mathjax"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src / MATHJAX_COMPONENT, dest / MATHJAX_COMPONENT)
    shutil.copy2(src.parent / "LICENSE", dest / "LICENSE")
    for folder in MATHJAX_FOLDERS:
        shutil.copytree(src / folder, dest / folder, dirs_exist_ok=True)


# --- inline scripts ------------------------------------------------------------------------------

def _script_key(script):
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (filename, tuple(sorted((k, str(v)) for k, v in attributes.items() if k != "priority")))


def dedupe_scripts(app, pagename, templatename, context, doctree):
    """Remove exact repeats (same file or same inline body) from the page's scripts."""
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    seen, unique = set(), []
    for script in scripts:
        key = _script_key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


# --- accessible tables and lists ----------------------------------------------------------------

#: pandas' header cell over an unnamed index (``<th></th>``, or the Styler's
#: ``<th class="blank ...">&nbsp;</th>``): an empty header that names no column.
_EMPTY_HEADER = re.compile(r'<th((?:\s+class="[^"]*")?)\s*>(?:\s|&nbsp;)*</th>')


_CITATION_LIST = re.compile(
    r'<div (?:role="list" class="citation-list"|class="citation-list" role="list")>')


#: the image of a figure (``<figure>`` then its ``<img>``, which Sphinx copied to ``_images/``)
_FIGURE_IMAGE = re.compile(r'(<figure\b[^>]*>\s*)(<img\b[^>]*?\bsrc="([^"]*_images/[^"]+)"[^>]*>)')


def link_figure_images(body: str) -> str:
    """Each figure's image wrapped in a link to the image file (an image already in a link,
    or outside a figure, is left alone)."""
    return _FIGURE_IMAGE.sub(
        r'\1<a class="reference internal image-reference" href="\3">\2</a>', body)


def tidy_body(app, pagename, templatename, context, doctree):
    """Fix two things in the page body that screen readers trip over.

    - An empty header cell (pandas' corner cell over an unnamed index) becomes an ordinary empty
      cell: a ``<th>`` that heads nothing is announced as a nameless column header (axe-core:
      empty-table-header).
    - docutils marks the bibliography's citation list ``role="list"`` but its entries
      ``role="doc-biblioentry"``, which a list may not contain (axe-core:
      aria-required-children, critical); without the role it is a plain group of entries.

    And each figure's image links to its file (:func:`link_figure_images`).
    """
    body = context.get("body")
    if not isinstance(body, str):
        return
    body = _EMPTY_HEADER.sub(r"<td\1></td>", body)
    body = _CITATION_LIST.sub('<div class="citation-list">', body)
    context["body"] = link_figure_images(body)


# --- the navigation sidebar --------------------------------------------------------------------

def _titles(toc):
    """``toc`` (a page's table of contents) cut to its top-level titles, as Sphinx's toctree with
    ``titles_only`` cuts it, or None when it cannot be cut alike (it holds a toctree, whose
    pages the sidebar lists, or a node other than a list item at the top)."""
    if (not all(isinstance(item, nodes.list_item) for item in toc.children)
            or next(toc.findall(addnodes.toctree), None) is not None):
        return None
    cut = toc.copy()
    for item in toc.children:
        # titles_only removes an item's second child (its sub-list) and keeps the rest
        top = item.copy()
        top += [child.deepcopy() for i, child in enumerate(item.children) if i != 1]
        cut += top
    return cut


def cut_tocs(app, env):
    """Every page's table of contents cut to its titles, once per build, after the chapters are
    numbered (``env-get-updated``); returns no page to rewrite."""
    app.metabits_title_tocs = {doc: cut for doc, toc in env.tocs.items()
                               if (cut := _titles(toc)) is not None}
    return []


def titles_only_tocs(app, pagename, templatename, context, doctree):
    """Give the page's ``toctree`` template function, when it is asked for titles only (the
    theme's navigation sidebar), the tables of contents of :func:`cut_tocs` instead of the
    whole ones: what it shows is the same."""
    toctree, cut = context.get("toctree"), getattr(app, "metabits_title_tocs", None)
    if not callable(toctree) or not cut:
        return

    def toctree_of_titles(**kwargs):
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        tocs = app.env.tocs
        whole = {doc: tocs[doc] for doc in cut}
        tocs.update(cut)
        try:
            return toctree(**kwargs)
        finally:
            tocs.update(whole)

    context["toctree"] = toctree_of_titles


# --- author-year bibliography labels -------------------------------------------------------------

def _surname(person) -> str:
    parts = [*person.rich_prelast_names, *person.rich_last_names]
    return " ".join(part.render_as("text") for part in parts)


class AuthorYearLabelStyle(BaseLabelStyle):
    """Labels ``Roberts, 2026``, ``Maniscalco and Lau, 2012``, ``Meyen et al., 2025``."""

    def format_label(self, entry) -> str:
        persons = entry.persons.get("author") or entry.persons.get("editor") or []
        if not persons:
            names = entry.fields.get("organization") or entry.fields.get("title") or entry.key
        elif len(persons) == 1:
            names = _surname(persons[0])
        elif len(persons) == 2:
            names = f"{_surname(persons[0])} and {_surname(persons[1])}"
        else:
            names = f"{_surname(persons[0])} et al."
        return f"{names}, {entry.fields.get('year', 'n.d.')}"

    def format_labels(self, sorted_entries):
        labels = [self.format_label(entry) for entry in sorted_entries]
        repeats = Counter(labels)
        used = Counter()
        for label in labels:
            if repeats[label] > 1:
                suffix = chr(ord("a") + used[label])
                used[label] += 1
                yield label + suffix
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    """BibTeX ``plain`` (sorted by author, year, title) with author-year labels."""

    default_label_style = AuthorYearLabelStyle


register_plugin("pybtex.style.labels", "metabits_author_year", AuthorYearLabelStyle)
register_plugin("pybtex.style.formatting", "metabits_author_year", AuthorYearStyle)


# --- exercise titles -----------------------------------------------------------------------------

def exercise_titles(app, doctree):
    """Record each titled exercise of the page under its title (Sphinx's ``{name}``)."""
    from sphinx_exercise.nodes import exercise_enumerable_node, exercise_subtitle

    labels = app.env.get_domain("std").labels
    for node in doctree.findall(exercise_enumerable_node):
        subtitle = next(iter(node.findall(exercise_subtitle)), None)
        name = (node.get("names") or [None])[0]
        if subtitle is not None and name in labels:
            docname, labelid, _ = labels[name]
            labels[name] = docname, labelid, subtitle.astext()


# --- templates ----------------------------------------------------------------------------------

TEMPLATES = Path(__file__).resolve().parent / "templates"


def add_templates(app, config):
    """Put ``_ext/templates`` first on ``templates_path``: its files replace the theme's."""
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path = [str(TEMPLATES), *config.templates_path]


def setup(app):
    app.connect("config-inited", add_templates)
    app.connect("builder-inited", check_mathjax)
    # After sphinx-thebe and the theme have added their scripts.
    app.connect("html-page-context", dedupe_scripts, priority=900)
    app.connect("html-page-context", tidy_body)
    # after Sphinx numbers the chapters (its toctree collector, on the same event, priority 500),
    # so that the cut tables of contents keep their numbers
    app.connect("env-get-updated", cut_tocs, priority=900)
    app.connect("html-page-context", titles_only_tocs)
    app.connect("build-finished", copy_mathjax)
    # after sphinx-exercise's own doctree-read, which records every exercise as "Exercise"
    app.connect("doctree-read", exercise_titles, priority=600)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
