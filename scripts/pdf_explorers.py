"""Sphinx extension for the PDF only (scripts/build-pdf.sh): an explorer becomes a pointer.

An explorer (``metabits.explore.show``) is an ipywidgets view on Binder and Colab and a plotly
figure on the website; the LaTeX builder can show neither and would print its plain-text
fallback, ``explorer: <title>``. This replaces that output with a sentence naming the explorer and
linking its page on the website (and the static figures of the chapter stay as they are).
"""

from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_launch_notebooks import website  # noqa: E402

PREFIX = "explorer: "


def replace_explorers(app, doctree, docname):
    if app.builder.format != "latex":
        return
    site = website(app.config.html_theme_options.get("repository_url", ""),
                   app.config.html_baseurl)
    # LaTeX joins every page into one tree, each page under a start_of_file node naming it
    # (inner pages come later in the traversal, so they win)
    page = {id(block): docname for block in doctree.findall(nodes.literal_block)}
    for start in doctree.findall(addnodes.start_of_file):
        for block in start.findall(nodes.literal_block):
            page[id(block)] = start["docname"]
    for block in list(doctree.findall(nodes.literal_block)):
        text = block.astext().strip()
        if not text.startswith(PREFIX) or "\n" in text:
            continue
        url = f"{site}{page[id(block)]}.html"
        title = text[len(PREFIX):]
        para = nodes.paragraph()
        para += nodes.emphasis(text=f"Explorer: {title}. ")
        para += nodes.Text("Interactive on the website, ")
        para += nodes.reference(url, url, refuri=url)
        para += nodes.Text(", and live in Binder or Colab.")
        block.replace_self(para)


def setup(app):
    app.connect("doctree-resolved", replace_explorers)  # after MyST-NB chose text/plain
    return {"parallel_read_safe": True, "parallel_write_safe": True}
