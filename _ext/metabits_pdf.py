"""Sphinx extension: the website offers the whole book as one PDF when there is one.

``scripts/build-pdf.sh`` writes the PDF (``metabits_pdf`` in ``_config.yml``, a path relative to
the book's root: ``_build/pdf/_build/latex/metabits.pdf``). When an HTML build starts and that
file exists, this extension

- sets the Sphinx tag ``metabits_pdf``, so that text inside ``{only} html and metabits_pdf``
  (the intro page's download line) is shown, and
- copies the PDF to the root of the site as ``metabits.pdf`` when the build finishes.

Without the file (a local build where nobody ran ``build-pdf.sh``, or the test suite's build) the
site has no PDF and no link to one, so the offline build and its link tests never meet a missing
file. The publishing workflow (``.github/workflows/book.yml``) builds the PDF first and the
website second, so the published site has both.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

#: the file name of the PDF on the website (at its root, next to index.html)
SITE_NAME = "metabits.pdf"
TAG = "metabits_pdf"


def _pdf(app) -> Path | None:
    """The book's PDF if it exists (``metabits_pdf``, relative to the configuration's folder)."""
    if not app.config.metabits_pdf:
        return None
    path = Path(app.confdir) / app.config.metabits_pdf
    return path if path.is_file() else None


def tag_pdf(app, config) -> None:
    # at config-inited, before the HTML builder records the tags (a change rebuilds every page);
    # the text says ``{only} html and metabits_pdf``, so that the PDF does not link itself
    if _pdf(app) is not None:
        app.tags.add(TAG)


def copy_pdf(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    pdf = _pdf(app)
    if pdf is None:
        return
    shutil.copyfile(pdf, Path(app.outdir) / SITE_NAME)
    logger.info(f"the book's PDF ({pdf.stat().st_size / 1e6:.1f} MB) copied to {SITE_NAME}")


def setup(app):
    app.add_config_value("metabits_pdf", "", "html", types=[str])
    app.connect("config-inited", tag_pdf)
    app.connect("build-finished", copy_pdf)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
