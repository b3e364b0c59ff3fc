"""Sphinx extension for the PDF only (scripts/build-pdf.sh): the website's pages as a book.

Loaded only by the PDF build's configuration; every function returns at once for another
builder than LaTeX. What it changes, and why:

1. **Landing page and parts.** Sphinx's LaTeX writer takes the root page's title as the document
   title and makes each of its sections a chapter ("Who it is for" was chapter 1), and it drops
   the table of contents' part captions. Here the root page becomes one unnumbered chapter (its
   sections unnumbered too) and each captioned part of ``_toc.yml`` starts with ``\\part``.
2. **Code the website folds away is not printed.** MyST-NB removes ``remove-input`` and
   ``remove-cell`` cells for every builder, but ``hide-input`` (and ``hide-cell``) only fold on
   the website; in a PDF the code would be printed. Their inputs are removed; outputs stay.
3. **Exercise references across chapters.** sphinx-exercise labels an exercise
   ``exercise:<label>`` in LaTeX and rewrites references within a page only; a ``{numref}`` from
   another page printed "Exercise ??" and a ``{ref}`` pointed nowhere. Each exercise also gets
   the label Sphinx gives references (``<page>:<label>``), and a numbered reference from another
   page prints the number Sphinx computed (the one in the exercise's title).
4. **Explorers.** An explorer (``metabits.explore.show``) is an ipywidgets view in Jupyter and a
   plotly figure on the website; the PDF shows the PNG of its first view (the MIME bundle's
   ``image/png``, whose ``Description`` text names the explorer:
   ``metabits.explore.kernel.PNG_DESCRIPTION``) followed by a sentence linking its page on the
   website. An output with only the plain-text fallback (``explorer: <title>``) becomes that
   sentence alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_launch_notebooks import website  # noqa: E402

PREFIX = "explorer: "
PNG_DESCRIPTION = "metabits explorer "   # metabits.explore.kernel.PNG_DESCRIPTION
HIDDEN_INPUT_TAGS = ("tag_hide-input", "tag_hide-cell")


def _latex(app) -> bool:
    return app.builder is not None and app.builder.format == "latex"


def _raw(tex: str) -> nodes.raw:
    return nodes.raw("", tex, format="latex")


# --- 1. the landing page and the parts ------------------------------------------------------------

def restructure_root(doctree: nodes.document) -> None:
    """The root page as an unnumbered chapter, then each part as ``\\part`` and its chapters.

    The writer drops the first title it meets (the document's title comes from
    ``latex_documents``) and makes the next level chapters: so the page's section goes into a
    wrapper whose dummy title is dropped, and the toctrees (where the chapters are inlined)
    become the wrapper's children after it, each preceded by its caption as a ``\\part``.
    """
    top = next((s for s in doctree.children if isinstance(s, nodes.section)), None)
    if top is None:
        return
    tocs = [c for c in top.children
            if isinstance(c, nodes.compound) and c.next_node(addnodes.toctree) is not None]
    for c in tocs:
        top.remove(c)
    wrapper = nodes.section(ids=["metabits-pdf-book"])
    wrapper += nodes.title(text="metabits")   # dropped by the writer
    # the landing page: a chapter and sections without numbers (secnumdepth -1), then back
    wrapper += _raw("\\newcounter{mbsecnumdepth}\\setcounter{mbsecnumdepth}{\\value{secnumdepth}}"
                    "\\setcounter{secnumdepth}{-1}\n")
    doctree.replace(top, wrapper)
    wrapper += top
    wrapper += _raw("\\setcounter{secnumdepth}{\\value{mbsecnumdepth}}\n")
    for c in tocs:
        toctree = c.next_node(addnodes.toctree)
        caption = toctree.get("caption")
        if caption:
            wrapper += _raw("\\part{%s}\n" % _escape(caption))
        # Sphinx names the table of contents after the first caption it finds ("Meyen et al.
        # (2025): ..." headed the contents); the parts carry the captions now
        toctree.attributes.pop("caption", None)
        wrapper += c


def _escape(text: str) -> str:
    special = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
               "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
               "\\": r"\textbackslash{}"}
    return "".join(special.get(ch, ch) for ch in text)


# --- 2. folded code -------------------------------------------------------------------------------

def drop_folded_inputs(doctree: nodes.document) -> int:
    """Remove the input of every cell the website folds away; the number removed."""
    removed = 0
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code" or \
                not any(c in cell.get("classes", []) for c in HIDDEN_INPUT_TAGS):
            continue
        for part in [c for c in cell.children if isinstance(c, nodes.container)
                     and c.get("nb_element") == "cell_code_source"]:
            cell.remove(part)
            removed += 1
    return removed


# --- 3. exercises ---------------------------------------------------------------------------------

def _exercise_nodes(doctree):
    from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node

    return [n for n in doctree.findall(nodes.Element)
            if isinstance(n, (exercise_node, exercise_enumerable_node))]


def label_exercises(doctree: nodes.document, docname: str) -> None:
    """Give each exercise the label a Sphinx reference to it uses, ``<page>:<label>``, inside
    its box (after its title), where sphinx-exercise's ``\\phantomsection`` anchors it."""
    for node in _exercise_nodes(doctree):
        label = node.get("label")
        if not label:
            continue
        at = 1 if node.children and isinstance(node.children[0], nodes.title) else 0
        node.insert(at, _raw("\\label{\\detokenize{%s:%s}}" % (docname, label)))


def number_exercise_references(app, doctree: nodes.document) -> None:
    """A numbered reference to an exercise of another page prints Sphinx's number."""
    from sphinx_exercise.nodes import exercise_latex_number_reference

    registry = getattr(app.env, "sphinx_exercise_registry", {})
    for ref in list(doctree.findall(addnodes.number_reference)):
        if isinstance(ref, exercise_latex_number_reference):
            continue
        target = ref.get("refid") or ref.get("refuri", "").rpartition("#")[2]
        if target not in registry:
            continue
        new = exercise_latex_number_reference()
        new["refid"] = target
        new += nodes.Text(ref.astext())
        ref.replace_self(new)


# --- 4. explorers ---------------------------------------------------------------------------------

def _explorer(app, image: nodes.image, docname: str) -> tuple | None:
    """(key, title) of the explorer whose PNG ``image`` shows; None for any other image."""
    uri = image.get("uri", "")
    if not uri.endswith(".png"):
        return None
    src = Path(app.srcdir)
    for path in (src / uri, src / Path(docname).parent / uri, Path(uri)):
        if path.is_file():
            break
    else:
        return None
    from PIL import Image

    with Image.open(path) as im:
        text = getattr(im, "text", None) or im.info
    description = text.get("Description", "")
    if not description.startswith(PNG_DESCRIPTION):
        return None
    return description[len(PNG_DESCRIPTION):], text.get("Title")


def _pointer(url: str, title: str | None) -> nodes.paragraph:
    para = nodes.paragraph()
    para += nodes.emphasis(text=f"Explorer: {title}. " if title else "Explorer. ")
    para += nodes.Text("Shown at its default setting; interactive on the website, ")
    para += nodes.reference(url, url, refuri=url)
    para += nodes.Text(", and live in Binder or Colab.")
    return para


def replace_explorers(app, doctree: nodes.document, docname: str) -> None:
    site = website(app.config.html_theme_options.get("repository_url", ""),
                   app.config.html_baseurl)
    # LaTeX joins every page into one tree, each page under a start_of_file node naming it
    # (inner pages come later in the traversal, so they win)
    page = {}
    for kind in (nodes.literal_block, nodes.image):
        page.update({id(n): docname for n in doctree.findall(kind)})
        for start in doctree.findall(addnodes.start_of_file):
            for n in start.findall(kind):
                page[id(n)] = start["docname"]
    for image in list(doctree.findall(nodes.image)):
        found = _explorer(app, image, page[id(image)])
        if found is None:
            continue
        key, title = found
        url = f"{site}{page[id(image)]}.html#explorer-{key}"
        image.parent.insert(image.parent.index(image) + 1, _pointer(url, title))
    for block in list(doctree.findall(nodes.literal_block)):
        text = block.astext().strip()
        if not text.startswith(PREFIX) or "\n" in text:
            continue
        block.replace_self(_pointer(f"{site}{page[id(block)]}.html", text[len(PREFIX):]))


# --- wiring ---------------------------------------------------------------------------------------

def on_doctree_read(app, doctree) -> None:
    if not _latex(app):
        return
    docname = app.env.docname
    drop_folded_inputs(doctree)
    label_exercises(doctree, docname)
    if docname == app.config.root_doc:
        restructure_root(doctree)


def on_doctree_resolved(app, doctree, docname) -> None:
    if not _latex(app):
        return
    number_exercise_references(app, doctree)
    replace_explorers(app, doctree, docname)


def setup(app):
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)  # after MyST-NB chose the output
    return {"parallel_read_safe": True, "parallel_write_safe": True}
