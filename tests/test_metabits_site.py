"""The site extension (``_ext/metabits_site.py``): its navigation sidebar's tables of contents,
the link from each figure to its full-size image, and the colour-mode button's name.

The theme's sidebar asks Sphinx's ``toctree`` template function for titles only;
``titles_only_tocs`` answers that call from tables of contents cut to their titles in advance.
A small Sphinx project (a page with nested sections and documented functions, a page whose
section holds a toctree, and a page it lists) is built with the extension's two handlers, and on
every page the ``toctree`` function with them must give exactly what Sphinx's own gives.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CONF = """
import sys
sys.path.insert(0, {ext!r})
from metabits_site import cut_tocs, titles_only_tocs

extensions = []
html_theme = "basic"
CALLS = [dict(titles_only=True, includehidden=True),
         dict(titles_only=True, collapse=True, maxdepth=2),
         dict(titles_only=True, collapse=False, includehidden=True, maxdepth=-1),
         dict(titles_only=False, collapse=False, includehidden=True)]


def keep_sphinx_toctree(app, pagename, templatename, context, doctree):
    context["sphinx_toctree"] = context.get("toctree")


def compare(app, pagename, templatename, context, doctree):
    if context.get("sphinx_toctree") is None:
        return
    seen = app.config.html_context.setdefault("seen", {{}})
    seen[pagename] = [(context["sphinx_toctree"](**kw), context["toctree"](**kw)) for kw in CALLS]


def setup(app):
    app.connect("env-get-updated", cut_tocs, priority=900)
    app.connect("html-page-context", keep_sphinx_toctree, priority=100)
    app.connect("html-page-context", titles_only_tocs)
    app.connect("html-page-context", compare, priority=900)
"""

PAGES = {
    "index.rst": """Home
====

.. toctree::
   :caption: Parts
   :numbered: 1

   api
   part
""",
    "api.rst": """API
===

Module one
----------

.. py:function:: first(x)

   The first.

.. py:function:: second(y)

   The second.

Deeper
~~~~~~

Deepest
^^^^^^^

Module two
----------

.. py:function:: third(z)
""",
    "part.rst": """A part
======

Its chapters
------------

.. toctree::

   chapter

After them
----------
""",
    "chapter.rst": """A chapter
=========

A section
---------
""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from sphinx.application import Sphinx

    src = tmp_path_factory.mktemp("site")
    (src / "conf.py").write_text(CONF.format(ext=str(ROOT / "_ext")), encoding="utf-8")
    for name, text in PAGES.items():
        (src / name).write_text(text, encoding="utf-8")
    app = Sphinx(str(src), str(src), str(src / "_build"), str(src / "_doctrees"), "html",
                 status=None, warning=None, freshenv=True)
    try:
        app.build()
    finally:
        if str(ROOT / "_ext") in sys.path:  # conf.py put it there
            sys.path.remove(str(ROOT / "_ext"))
    return app


def test_the_sidebar_toctree_is_what_sphinx_gives_on_every_page(built):
    seen = built.config.html_context["seen"]
    assert set(seen) >= {"index", "api", "part", "chapter"}
    for page, calls in seen.items():
        for sphinx_html, ours in calls:
            assert ours == sphinx_html, page


def test_the_cut_tables_of_contents_are_titles_only(built):
    cut = built.metabits_title_tocs
    assert "api" in cut and "chapter" in cut
    assert "part" not in cut  # it holds a toctree, which the sidebar follows: left whole
    assert cut["api"].astext() == "API"
    assert "Module one" in built.env.tocs["api"].astext()  # the page's own contents stay whole


def test_the_comparison_is_not_vacuous(built):
    *_, titles, whole = built.config.html_context["seen"]["api"]  # neither collapsed
    assert "A chapter" in titles[0] and "Module one" not in titles[0]
    assert "Module one" in whole[0] and "Its chapters" in whole[0]


def test_the_sidebar_keeps_the_chapters_numbers_on_every_page(built):
    """The toctree is numbered: the cut tables of contents are taken after Sphinx numbers the
    chapters, so every page's sidebar shows "1. API", not only the root page's."""
    for page, calls in built.config.html_context["seen"].items():
        titles = calls[0][1]
        assert "1. API" in titles and "2. " in titles, page


# --- figures one tap from full size; the colour-mode button's name -------------------------------

def _site_module():
    sys.path.insert(0, str(ROOT / "_ext"))
    try:
        import metabits_site
    finally:
        sys.path.remove(str(ROOT / "_ext"))
    return metabits_site


def test_a_figures_image_links_to_its_file_and_other_images_do_not():
    site = _site_module()
    figure = ('<figure class="align-default" id="fig-a">\n<img alt="Two curves." '
              'src="../../_images/abc123.png" />\n<figcaption>A.</figcaption></figure>')
    linked = ('<figure id="fig-b"><a href="x.html"><img src="../_images/b.png" /></a></figure>')
    logo = '<img alt="Binder logo" src="../../_static/images/logo_binder.svg">'
    out = site.link_figure_images(figure + linked + logo)
    assert out == ('<figure class="align-default" id="fig-a">\n'
                   '<a class="reference internal image-reference" href="../../_images/abc123.png">'
                   '<img alt="Two curves." src="../../_images/abc123.png" /></a>\n'
                   '<figcaption>A.</figcaption></figure>' + linked + logo)


def test_the_colour_mode_buttons_name_contains_what_its_icon_shows():
    """The book's template names the button with the three titles its icons show (axe-core:
    label-content-name-mismatch), and keeps everything else of the theme's template."""
    import re

    import pydata_sphinx_theme

    site = _site_module()
    ours = (site.TEMPLATES / "theme-switcher.html").read_text(encoding="utf-8")
    theirs = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" /
              "components" / "theme-switcher.html").read_text(encoding="utf-8")
    label = re.search(r'aria-label="([^"]*)"', ours).group(1)
    titles = re.findall(r'(?<![-\w])title="([^"]*)"', ours)
    assert titles == re.findall(r'(?<![-\w])title="([^"]*)"', theirs) and len(titles) == 3
    assert all(title in label for title in titles)
    assert label.startswith("{{ _('Color mode') }}")
    # the rest is the theme's template as it is
    body = lambda text: re.sub(r'aria-label="[^"]*"', "", text.split("<button", 1)[1])  # noqa: E731
    assert body(ours) == body(theirs)
    config = type("Config", (), {"templates_path": ["_templates"]})()
    site.add_templates(None, config)
    assert config.templates_path == [str(site.TEMPLATES), "_templates"]
