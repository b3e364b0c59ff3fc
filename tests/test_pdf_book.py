"""The PDF build's Sphinx extension (``scripts/pdf_book.py``) on small doctrees.

The PDF itself takes minutes to build (``bash scripts/build-pdf.sh``, not part of the tests);
these check each change the extension makes to the pages: the landing page as one unnumbered
chapter and the parts as ``\\part``, folded code left out, exercise labels, and an explorer's
PNG recognised by the text the library writes into it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from sphinx import addnodes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import pdf_book  # noqa: E402


def _document() -> nodes.document:
    return new_document("test", get_default_settings(Parser))


def _section(title: str, *children) -> nodes.section:
    s = nodes.section(ids=[title.lower().replace(" ", "-")])
    s += nodes.title(text=title)
    for c in children:
        s += c
    return s


def _toc(caption: str) -> nodes.compound:
    c = nodes.compound(classes=["toctree-wrapper"])
    c += addnodes.toctree(caption=caption, entries=[(None, "book/x")])
    return c


def test_root_page_becomes_one_unnumbered_chapter_and_captions_parts():
    doc = _document()
    intro = _section("Measuring metacognition", nodes.paragraph(text="hello"),
                     _section("Who it is for"), _toc("Meyen & Co (2025)"), _toc(""))
    doc += intro
    pdf_book.restructure_root(doc)
    (wrapper,) = doc.children
    kinds = [type(c).__name__ for c in wrapper.children]
    # the dummy title (dropped by the LaTeX writer), numbering off, the page, numbering back,
    # then each part: a \part for a caption, and its toctree
    assert kinds == ["title", "raw", "section", "raw", "raw", "compound", "compound"]
    assert wrapper.children[2] is intro
    assert "\\setcounter{secnumdepth}{-1}" in wrapper.children[1].astext()
    assert "\\value{mbsecnumdepth}" in wrapper.children[3].astext()
    assert wrapper.children[4].astext() == "\\part{Meyen \\& Co (2025)}\n"
    assert not list(intro.findall(addnodes.toctree))   # the chapters are no longer inside it
    # no caption left for Sphinx to name the table of contents after
    assert all("caption" not in t for t in doc.findall(addnodes.toctree))


def _cell(*tags) -> nodes.container:
    cell = nodes.container(nb_element="cell_code",
                           classes=["cell"] + [f"tag_{t}" for t in tags])
    cell += nodes.container(nodes.literal_block(text="plot()"), nb_element="cell_code_source")
    cell += nodes.container(nodes.paragraph(text="out"), nb_element="cell_code_output")
    return cell


@pytest.mark.parametrize("tags, kept", [((), ["cell_code_source", "cell_code_output"]),
                                        (("hide-input",), ["cell_code_output"]),
                                        (("hide-cell",), ["cell_code_output"]),
                                        (("hide-output",), ["cell_code_source",
                                                            "cell_code_output"])])
def test_code_the_website_folds_is_not_printed(tags, kept):
    doc = _document()
    doc += _cell(*tags)
    pdf_book.drop_folded_inputs(doc)
    assert [c["nb_element"] for c in doc.children[0].children] == kept


def test_each_exercise_gets_the_label_sphinx_references_use():
    from sphinx_exercise.nodes import exercise_enumerable_node

    doc = _document()
    ex = exercise_enumerable_node(label="ex-ch6-range")
    ex += nodes.title(text="Exercise 16")
    ex += nodes.paragraph(text="Show it.")
    doc += ex
    pdf_book.label_exercises(doc, "book/meyen/06_comparison")
    assert isinstance(ex.children[0], nodes.title)   # inside the box, after its title
    assert ex.children[1].astext() == "\\label{\\detokenize{book/meyen/06_comparison:ex-ch6-range}}"


def test_a_numbered_reference_to_another_pages_exercise_prints_its_number():
    from sphinx_exercise.nodes import exercise_latex_number_reference

    doc = _document()
    para = nodes.paragraph()
    para += addnodes.number_reference("", "Exercise 16", refuri="%book/meyen/06_comparison#ex-ch6-range",
                                      title="Exercise %s")
    para += addnodes.number_reference("", "Book figure 3", refuri="%book/x#fig-a", title="Book figure %s")
    doc += para
    app = SimpleNamespace(env=SimpleNamespace(sphinx_exercise_registry={"ex-ch6-range": {}}))
    pdf_book.number_exercise_references(app, doc)
    first, second = para.children
    assert isinstance(first, exercise_latex_number_reference)
    assert (first["refid"], first.astext()) == ("ex-ch6-range", "Exercise 16")
    assert not isinstance(second, exercise_latex_number_reference)   # figures: LaTeX numbers them


def test_an_explorers_png_names_it_and_another_png_does_not(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from metabits import explore
    from metabits.explore import kernel

    assert pdf_book.PNG_DESCRIPTION == kernel.PNG_DESCRIPTION
    e = explore.deployment_explorer({"A": (0.7, 0.8)}, accuracy_threshold=[0.8],
                                    oskr_threshold=[0.5])
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "explorer.png").write_bytes(kernel._png(explore.to_matplotlib(e), e).data)
    (tmp_path / "book" / "other.png").write_bytes(kernel._png(Figure()).data)
    app = SimpleNamespace(srcdir=str(tmp_path))
    assert pdf_book._explorer(app, nodes.image(uri="explorer.png"), "book/page") == (e.key, e.title)
    assert pdf_book._explorer(app, nodes.image(uri="other.png"), "book/page") is None
    assert pdf_book._explorer(app, nodes.image(uri="missing.png"), "book/page") is None


def test_the_explorer_output_carries_its_png():
    from metabits import explore

    e = explore.deployment_explorer({"A": (0.7, 0.8)}, accuracy_threshold=[0.8],
                                    oskr_threshold=[0.5])
    bundle = explore.show(e)._repr_mimebundle_()
    assert bundle["image/png"] and bundle["text/plain"] == f"explorer: {e.title}"
