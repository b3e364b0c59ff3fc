"""The PDF build's Sphinx extension (``scripts/pdf_book.py``) on small doctrees.

The PDF itself is built by ``bash scripts/build-pdf.sh``, not by the tests;
these check each change the extension makes to the pages: the landing page as one unnumbered
chapter and the parts as ``\\part``, folded code left out, exercise labels, and an explorer's
PNG recognised by the text the library writes into it.
"""

from __future__ import annotations

import re
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
                     _section("Who it is for"), _toc("Part II — Meyen & Co (2025)"), _toc(""))
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
    # the website's numeral is left to LaTeX, which numbers the parts itself
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

    from metabits_book import explore
    from metabits_book.explore import kernel

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
    from metabits_book import explore

    e = explore.deployment_explorer({"A": (0.7, 0.8)}, accuracy_threshold=[0.8],
                                    oskr_threshold=[0.5])
    bundle = explore.show(e)._repr_mimebundle_()
    assert bundle["image/png"] and bundle["text/plain"] == f"explorer: {e.title}"


# --- DataFrames (HTML tables) as tables --------------------------------------------------------

def _bundle(html: str, plain: str = "<DataFrame>") -> nodes.container:
    bundle = nodes.container(nb_element="mime_bundle")
    for mime, child in (("text/html", nodes.raw("", html, format="html")),
                        ("text/plain", nodes.literal_block(text=plain))):
        bundle += nodes.container("", child, mime_type=mime)
    return bundle


def test_a_dataframes_html_becomes_a_table_with_its_index_name_folded_up():
    import pandas as pd

    df = pd.DataFrame({"d prime": [-1.5, 2.25], "kind": ["gaussian", "uniform_noise"]},
                      index=pd.Index(["a", "b"], name="case [%]"))
    doc = _document()
    doc += _bundle(df._repr_html_())
    assert pdf_book.output_tables(doc) == 1
    assert not [n for n in doc.findall(nodes.container) if n.get("nb_element") == "mime_bundle"]
    (raw,) = doc.findall(nodes.raw)
    assert raw["format"] == "latex"
    head = "\\sphinxstyletheadfamily "
    # pandas' separate header row for the index name ("case", then blanks) moves up; numbers
    # right-aligned with a minus sign, text left; LaTeX's special characters escaped
    tex = raw.astext()
    assert tex.startswith("\\begingroup\n\\begin{savenotes}")    # narrow: the text's font size
    assert tex.endswith("\\end{tabular}\n\\sphinxtableafterendhook\\par\n"
                        "\\sphinxattableend\\end{savenotes}\n\\endgroup\n")
    assert "\\begin{tabular}[t]{lrl}\n" in tex
    assert _rows(tex) == [f"{head}case {{[}}\\%{{]}} & {head}d prime & {head}kind \\\\",
                          "a & \u22121.50 & gaussian \\\\",
                          "b & 2.25 & uniform\\_noise \\\\"]


def test_a_table_of_more_than_30_rows_is_a_longtable_repeating_its_header():
    head = [[("x", 1, 1), ("y", 1, 1)]]
    body = [[(str(i), 1, 1), ("a", 1, 1)] for i in range(40)]
    tex = pdf_book.table_latex(head, body, "rl")
    assert "\\begin{longtable}{rl}\n" in tex and "\\begin{tabular}" not in tex
    rows = _rows(tex)
    # the header on the first page and on each further page
    assert rows[:2] == ["\\sphinxstyletheadfamily x & \\sphinxstyletheadfamily y \\\\"] * 2
    assert len(rows) == 42
    assert "\\begin{tabular}" in pdf_book.table_latex(head, body[:29], "rl")


def _rows(tex: str) -> list:
    return [line for line in tex.splitlines() if line.endswith("\\\\") and "&" in line]


def test_a_styler_without_index_and_groups_of_rows_and_columns():
    import numpy as np
    import pandas as pd

    df = pd.DataFrame(np.arange(8).reshape(4, 2) / 8,
                      columns=pd.MultiIndex.from_tuples([("A", "x"), ("A", "y")]),
                      index=pd.MultiIndex.from_product([["u", "n"], [60, 70]]))
    html = df.style.format("{:.3f}")._repr_html_()
    (head, body), = pdf_book.html_tables(html)
    rows = _rows(pdf_book.table_latex(head, body, "llrr"))
    assert rows[0].endswith("& \\multicolumn{2}{c}{\\sphinxstyletheadfamily A} \\\\")
    # a group of rows: its name in its first row, the rows under it left empty
    assert rows[2:] == ["u & 60 & 0.000 & 0.125 \\\\", " & 70 & 0.250 & 0.375 \\\\",
                         "n & 60 & 0.500 & 0.625 \\\\", " & 70 & 0.750 & 0.875 \\\\"]
    hidden = df.style.hide(axis="index").format("{:.3f}")._repr_html_()
    (head, body), = pdf_book.html_tables(hidden)
    assert [t for t, _, _ in body[0]] == ["0.000", "0.125"]


def test_rowspans_place_later_cells_in_the_right_columns():
    html = ("<table><tr><th rowspan='2'>g</th><td>1</td></tr><tr><td>2</td></tr>"
            "<tr><td>h</td><td>3</td></tr></table>")
    (head, body), = pdf_book.html_tables(html)
    placed, ncols = pdf_book._grid(head + body)
    assert ncols == 2
    assert [[c[0] for c in row] for row in placed] == [[0, 1], [1], [0, 1]]


def test_text_in_style_elements_and_nested_tables_is_not_a_cell():
    html = ("<style>td {color: red}</style><table><tr><td>x&nbsp;</td><td>"
            "<table><tr><td>inner</td></tr></table></td></tr></table>")
    tables = pdf_book.html_tables(html)
    assert tables == [([], [[("x", 1, 1), ("", 1, 1)]])]


def test_other_html_outputs_are_left_to_myst_nb():
    doc = _document()
    doc += _bundle("<div>plotly figure</div>")
    assert pdf_book.output_tables(doc) == 0
    assert doc.children[0].get("nb_element") == "mime_bundle"


@pytest.mark.parametrize("ncols, width, expected", [
    (3, 8, ("", False)),                    # 3 * (8 + 2.4) = 31 <= 84 characters: as it is
    (8, 9, ("\\small", False)),             # 8 * (0.9 * 9 + 1.8) = 79 (narrower gaps too)
    (9, 9, ("\\footnotesize", False)),
    (10, 9, ("\\scriptsize", False)),
    (3, 41, ("\\small", True)),             # too wide for a portrait page: landscape
    (14, 9, ("\\scriptsize", True)),
    (30, 9, ("\\scriptsize", True)),        # the smallest: its columns share the line
])
def test_wide_tables_get_a_smaller_font_then_a_landscape_page(ncols, width, expected):
    head = [[(f"c{i}", 1, 1) for i in range(ncols)]]
    body = [[("1" * width, 1, 1) for _ in range(ncols)]]
    size, spec, landscape = pdf_book.table_layout(head, body)
    assert (size.replace(pdf_book.NARROW_GAPS, ""), landscape) == expected
    assert (pdf_book.NARROW_GAPS in size) == bool(expected[0])
    if ncols * width < 200:
        assert spec == "r" * ncols


def _fraction(column: str) -> float:
    return float(column.split("dimexpr ")[1].split("\\linewidth")[0])


def test_long_header_words_count_but_wrapping_text_does_not():
    head = [[("estimate", 1, 1), ("a rather long column name", 1, 1)]]
    body = [[("0.1", 1, 1), ("many words that LaTeX wraps into lines " * 5, 1, 1)]]
    size, spec, landscape = pdf_book.table_layout(head, body)
    assert (size, landscape) == ("", False)
    # the number's column as wide as its header; the text a ragged paragraph taking the rest
    assert spec.startswith("r>{\\raggedright\\arraybackslash}p{\\dimexpr ")
    assert 0.8 < _fraction(spec) < 0.95


def test_a_long_header_wraps_above_its_numbers():
    head = [[("case", 1, 1), ("value shown as OSKR, rounded to five places", 1, 1)] +
            [(f"c{i}", 1, 1) for i in range(6)]]
    body = [[("Alpha", 1, 1), ("0.12345", 1, 1)] + [("12.3456", 1, 1)] * 6]
    size, spec, landscape = pdf_book.table_layout(head, body)
    assert (size, landscape) == ("", False)
    columns = spec.split(">")
    assert columns[0] == "l"
    assert columns[1].startswith("{\\raggedleft\\arraybackslash}p{")
    assert columns[1].endswith("}" + "r" * 6)


# --- theorems, proofs and exercises ------------------------------------------------------------

def _page(docname: str, *children) -> nodes.document:
    """A joined doctree as the LaTeX builder makes it: the page under its start_of_file."""
    doc = _document()
    start = addnodes.start_of_file(docname=docname)
    for c in children:
        start += c
    doc += start
    return doc


def _theorem(realtype="theorem", title=" (Bounds)", label="thm-bound", *body):
    from sphinx_proof.nodes import NODE_TYPES

    node = NODE_TYPES[realtype](ids=[label], label=label, realtype=realtype,
                                countertype=realtype, title=title)
    node += nodes.title("", "", *([nodes.Text(title)] if title else []))
    content = nodes.section(ids=["proof-content"])
    for b in body or (nodes.paragraph(text="Meta-I is at most I."),):
        content += b
    node += content
    return node


def _latex_of(doc):
    return [n.astext() for n in doc.findall(nodes.raw)]


def test_a_theorem_reads_theorem_number_title_in_bold_run_into_its_text():
    env = SimpleNamespace(toc_fignumbers={"book/meyen/03_bounds": {"theorem": {"thm-bound": (3,)}}})
    doc = _page("book/meyen/03_bounds", _theorem())
    assert pdf_book.book_statements(env, doc, "index") == 1
    start, para, end = doc.children[0].children
    assert start.astext() == ("\\begin{mbstatement}{\\phantomsection\\label{\\detokenize"
                              "{book/meyen/03_bounds:thm-bound}}}\n")
    assert end.astext() == "\\end{mbstatement}\n"
    assert isinstance(para[0], nodes.strong)
    assert para[0].astext() == "Theorem 3 (Bounds)."
    # the statement in italics, its heading upright
    assert para[1].astext() == "\\itshape{}"
    assert para.astext() == "Theorem 3 (Bounds).\\itshape{} Meta-I is at most I."


def test_a_definition_is_upright_and_one_opening_with_math_gets_its_own_lead_line():
    env = SimpleNamespace(toc_fignumbers={"p": {"definition": {"def-x": (1,)}}})
    doc = _page("p", _theorem("definition", "", "def-x", nodes.math_block(text="x=1"),
                              nodes.paragraph(text="where x is one.")))
    pdf_book.book_statements(env, doc, "index")
    start, lead, math, para, end = doc.children[0].children
    assert "\\itshape" not in lead.astext()
    assert lead.astext() == "Definition 1."
    assert isinstance(math, nodes.math_block) and para.astext() == "where x is one."


def test_a_proof_starts_with_proof_in_italics_and_ends_with_a_square():
    from sphinx_proof.nodes import proof_node

    proof = proof_node()
    adm = nodes.admonition(classes=["proof", "proof"], ids=["proof"])
    adm += nodes.paragraph(text="Proof. By Jensen.")
    adm += nodes.paragraph(text="Hence the bound.")
    proof += adm
    doc = _page("p", proof)
    assert pdf_book.book_statements(SimpleNamespace(), doc, "index") == 1
    start, first, last, end = doc.children[0].children
    assert isinstance(first[0], nodes.emphasis) and first.astext() == "Proof. By Jensen."
    assert last.astext().endswith("Hence the bound.\\mbqed")
    assert start.astext() == "\\begin{mbstatement}{}\n"


def test_an_exercise_keeps_its_numbered_title_and_both_labels():
    from sphinx_exercise.nodes import exercise_enumerable_node

    ex = exercise_enumerable_node(label="ex-roc")
    ex += nodes.title("", "Exercise 12 (ROC)")
    content = nodes.section(ids=["exercise-content"])
    content += nodes.paragraph(text="Draw it.")
    ex += content
    doc = _page("book/meyen/04_roc", ex)
    pdf_book.label_exercises(doc, "book/meyen/04_roc")     # when the page is read
    pdf_book.book_statements(SimpleNamespace(), doc, "index")
    start, label, para, end = doc.children[0].children
    assert start.astext() == "\\begin{mbstatement}{\\phantomsection\\label{exercise:ex-roc}}\n"
    assert label.astext() == "\\label{\\detokenize{book/meyen/04_roc:ex-roc}}"
    assert para.astext() == "Exercise 12 (ROC). Draw it."
    assert isinstance(para[0], nodes.strong)


def test_the_preamble_defines_what_the_blocks_and_tables_use():
    config = SimpleNamespace(latex_elements={"preamble": "\\newcommand{\\acc}{acc}\n"},
                             html_theme_options={"repository_url": "https://github.com/o/r"},
                             html_baseurl="")
    pdf_book.on_config_inited(SimpleNamespace(srcdir=str(ROOT)), config)
    pre = config.latex_elements["preamble"]
    assert pre.startswith("\\newcommand{\\acc}")
    assert config.latex_elements["printindex"].endswith("\\printindex")
    for name in ("{mbstatement}", "\\mbqed", "{pdflscape}", "\\mbbreakafterdots", "{T}{L}",
                 "\\authoraddress"):
        assert name in pre


def test_a_long_table_gets_columns_a_longtable_accepts():
    head = [[("where", 1, 1), ("value", 1, 1)]]
    short = [[("row", 1, 1), ("1.0", 1, 1)] for _ in range(40)]
    assert pdf_book.table_layout(head, short) == ("", "lr", False)   # tabulary's L/R: an error
    wordy = [[("a sentence of many words " * 6, 1, 1), ("1.0", 1, 1)] for _ in range(40)]
    size, spec, landscape = pdf_book.table_layout(head, wordy)
    assert (size, landscape) == ("", False)
    assert spec.startswith(r">{\raggedright\arraybackslash}p{\dimexpr ") and spec.endswith("r")
    assert 0.5 < _fraction(spec) < 1      # the text column takes what the number leaves


def test_the_references_take_the_bibliography_pages_place():
    from sphinx.builders.latex.nodes import thebibliography

    page = _section("Bibliography", nodes.paragraph(text="The works cited."))
    doc = _page("book/bibliography", page)
    other = addnodes.start_of_file(docname="book/intro")
    other += _section("Intro")
    doc.insert(0, other)
    bib = thebibliography()
    bib += nodes.citation("", nodes.label(text="Meyen 2025"))
    doc += bib                                 # where Sphinx puts it: the end of the book
    assert pdf_book.move_bibliography(doc, {"book/bibliography"})
    new_page, _ = doc.children[1:]
    assert new_page.astext() == "\\clearpage\n"     # before Sphinx's anchor of the page
    anchor, moved = doc.children[2].children
    assert moved is bib and bib.parent is doc.children[2]
    assert anchor.astext() == ("\\phantomsection\\label{\\detokenize{"
                               "book/bibliography:bibliography}}\n")
    assert not pdf_book.move_bibliography(_page("x", _section("X")), {"x"})   # no references


def test_capitals_count_wider_and_spaces_narrower_than_digits():
    assert pdf_book._len("OSKR") == pytest.approx(4 * 1.35)
    assert pdf_book._len("0.81") == 4
    assert pdf_book._len("a b") == 2.5
    assert pdf_book._width("value shown as OSKR") == pytest.approx(5.4)   # "OSKR" is widest


# --- what the PDF leaves out, the appendix, print words, the title page ---------------------------

def _tocs(*parts) -> list:
    """Toctree wrappers: ``(caption, [docnames])`` each."""
    out = []
    for caption, docs in parts:
        c = nodes.compound(classes=["toctree-wrapper"])
        c += addnodes.toctree(caption=caption, entries=[(None, d) for d in docs],
                              includefiles=list(docs))
        out.append(c)
    return out


def test_the_parts_without_a_numeral_are_appendices_and_website_pages_are_left_out():
    doc = _document()
    intro = _section("Intro", *_tocs(("Part I — Meyen", ["book/meyen/01"]),
                                     ("About this book", ["book/report", "book/status",
                                                          "book/troubleshooting"]),
                                     ("Reference", ["book/library", "book/book_code"])))
    doc += intro
    pdf_book.restructure_root(doc)
    raws = [c.astext() for c in doc.children[0].children if isinstance(c, nodes.raw)]
    parts = [r for r in raws if "\\part" in r]
    # the numbered part, then "Appendices" once (chapters lettered A, B, ...), no part per caption
    assert parts == ["\\part{Meyen}\n", pdf_book.APPENDIX]
    assert pdf_book.APPENDIX.startswith("\\appendix\n")
    assert "\\addcontentsline{toc}{part}{Appendices}" in pdf_book.APPENDIX
    included = [t["includefiles"] for t in doc.findall(addnodes.toctree)]
    assert included == [["book/meyen/01"], ["book/report"], ["book/library"]]
    assert [t["entries"] for t in doc.findall(addnodes.toctree)][1] == [(None, "book/report")]


def _xref_app(tmp_path=None):
    from sphinx.domains.python import ObjectEntry

    class PyDomain:
        def find_obj(self, env, modname, classname, name, kind, searchmode):
            objects = {"metabits_book.glue": ObjectEntry("book/book_code", "metabits_book.glue",
                                                         "function", False),
                       "metabits.measure": ObjectEntry("book/library", "metabits.measure",
                                                       "function", False)}
            return [(name, objects[name])] if name in objects else []

    labels = {"sec-binder": ("book/troubleshooting", "binder-is-slow", "Binder is slow"),
              "sec-roc": ("book/meyen/04_roc", "roc", "ROC")}
    env = SimpleNamespace(domaindata={"std": {"labels": labels}},
                          titles={"book/troubleshooting": nodes.title(text="Troubleshooting")},
                          get_domain=lambda name: PyDomain())
    config = SimpleNamespace(html_theme_options={"repository_url": "https://github.com/o/r"},
                             html_baseurl="")
    return SimpleNamespace(env=env, config=config)


def _xref(domain, kind, target, text, **extra):
    xref = addnodes.pending_xref("", refdomain=domain, reftype=kind, reftarget=target,
                                 refdoc="book/intro", **extra)
    xref += nodes.literal(text=text) if domain == "py" else nodes.inline(text=text)
    return xref


def test_references_to_pages_left_out_link_the_website():
    doc = _document()
    para = nodes.paragraph()
    para += [_xref("std", "doc", "troubleshooting", "troubleshooting"),
             _xref("std", "ref", "sec-binder", "when Binder is slow", refexplicit=True),
             _xref("py", "func", "metabits_book.glue", "glue()"),
             _xref("std", "ref", "sec-roc", "ROC"),
             _xref("py", "func", "metabits.measure", "measure()")]
    doc += para
    assert pdf_book.link_website_pages(_xref_app(), doc, pdf_book.WEBSITE_ONLY) == 3
    links = [(n.astext(), n["refuri"]) for n in para.findall(nodes.reference)]
    site = "https://o.github.io/r/book/"
    assert links == [("Troubleshooting", site + "troubleshooting.html"),   # the page's title
                     ("when Binder is slow", site + "troubleshooting.html#binder-is-slow"),
                     ("glue()", site + "book_code.html#metabits_book.glue")]
    assert next(para.findall(nodes.reference)).get("internal") is False
    assert isinstance(para.children[2].children[0], nodes.literal)      # code stays code
    # the pages the PDF prints keep their references for Sphinx to resolve
    assert [x["reftarget"] for x in para.findall(addnodes.pending_xref)] == \
        ["sec-roc", "metabits.measure"]


def test_an_exercise_reference_escapes_its_title():
    from sphinx.util import texescape
    from sphinx_exercise.nodes import exercise_latex_number_reference

    texescape.init()
    doc = _document()
    para = nodes.paragraph()
    ref = exercise_latex_number_reference(refid="ex-ch2-uniform-80")
    ref += nodes.Text("Exercise 4 (Uniform noise at 80%)")
    para += ref
    doc += para
    assert pdf_book.escape_exercise_references(doc) == 1
    (raw,) = para.children
    assert raw.astext() == "\\hyperref[exercise:ex-ch2-uniform-80]{Exercise 4 (Uniform noise at 80\\%)}"


def test_try_this_above_an_explorer_says_where_the_explorer_moves():
    doc = _document()
    try_this = nodes.paragraph()
    try_this += [nodes.Text(""), nodes.strong(text="Try this."), nodes.Text(" Move the accuracy.")]
    other = nodes.paragraph()
    other += [nodes.strong(text="Limits."), nodes.Text(" None.")]
    doc += [try_this, other]
    assert pdf_book.print_try_this(doc) == 1
    assert try_this.astext() == pdf_book.TRY_THIS_PRINT + " Move the accuracy."
    assert "website" in pdf_book.TRY_THIS_PRINT
    assert other.astext() == "Limits. None."


def test_the_title_page_authors_come_from_the_citation_file(tmp_path):
    cff = tmp_path / "CITATION.cff"
    cff.write_text("authors:\n  - given-names: Ulrike\n    name-particle: von\n"
                   "    family-names: Luxburg\n  - name: The metabits authors\n", encoding="utf-8")
    assert pdf_book.citation_authors(cff) == ["Ulrike von Luxburg", "The metabits authors"]
    cff.write_text("title: x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no authors"):
        pdf_book.citation_authors(cff)
    # the book's own
    assert pdf_book.citation_authors(ROOT / "CITATION.cff")


def test_the_title_page_shows_the_librarys_version_and_the_website():
    import metabits
    from sphinx.util import texescape

    assert pdf_book.library_version(ROOT / "lib" / "pyproject.toml") == metabits.__version__
    config = SimpleNamespace(html_theme_options={"repository_url": "https://github.com/o/r"},
                             html_baseurl="", latex_elements={"preamble": "% mine\n"},
                             latex_engine="xelatex",
                             latex_documents=[("book/intro", "metabits.tex", "metabits",
                                               "Nobody", "manual")])
    pdf_book.title_page(config, ROOT)
    assert config.release == config.version == metabits.__version__
    assert config.latex_elements["releasename"] == "Version"
    assert config.latex_elements["preamble"] == \
        "% mine\n\\authoraddress{\\url{https://o.github.io/r/}}\n"
    texescape.init()
    pdf_book.title_page_authors(config, ROOT)
    authors = pdf_book.citation_authors(ROOT / "CITATION.cff")
    assert config.latex_documents == [("book/intro", "metabits.tex", "metabits",
                                       " \\and ".join(authors), "manual")]


# --- a small book through Sphinx's LaTeX builder and XeLaTeX -------------------------------------

MINI_PAGES = {
    "book/intro.rst": """Mini book
=========

The landing page.

.. toctree::
   :caption: Part I — Alpha
   :numbered: 1

   one

.. toctree::
   :caption: About this book

   report
   status
""",
    "book/one.rst": """Chapter one
===========

**Try this.** Move the accuracy.

See :doc:`status` and :numref:`Exercise {number} (at 80%) <ex-eighty>`.
""",
    "book/report.rst": """Reproducibility report
======================

.. exercise:: Uniform noise at 80%
   :label: ex-eighty

   Compute it.
""",
    "book/status.rst": """Execution status
================

The website's build.
""",
}


def test_a_small_book_prints_its_title_page_parts_appendix_and_print_words(tmp_path):
    """The extension in a real LaTeX build (Sphinx, then XeLaTeX through latexmk), read back
    from the PDF with pdftotext: skipped where TeX or poppler is not installed."""
    import shutil
    import subprocess

    missing = [tool for tool in ("xelatex", "latexmk", "pdftotext") if not shutil.which(tool)]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (scripts/build-pdf.sh installs TeX)")
    src = tmp_path / "src"
    for name, text in MINI_PAGES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    (src / "CITATION.cff").write_text("authors:\n  - given-names: Ada\n    family-names: Lovelace\n"
                                      "  - name: The mini team\n", encoding="utf-8")
    (src / "lib").mkdir()
    (src / "lib" / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "9.8.7"\n',
                                                encoding="utf-8")
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'scripts')!r})\n"
        "extensions = ['sphinx_exercise', 'pdf_book']\n"
        "project = 'Mini book'\nroot_doc = 'book/intro'\nnumfig = True\n"
        "latex_engine = 'xelatex'\nhide_solutions = True\n"
        "latex_documents = [('book/intro', 'mini.tex', 'Mini book', 'Nobody', 'manual')]\n"
        "latex_elements = {'extraclassoptions': 'openany,oneside'}\n"
        "html_theme_options = {'repository_url': 'https://github.com/o/r'}\n", encoding="utf-8")
    out = tmp_path / "latex"
    subprocess.run([sys.executable, "-m", "sphinx", "-b", "latex", "-q", str(src), str(out)],
                   check=True)
    tex = (out / "mini.tex").read_text(encoding="utf-8")
    made = subprocess.run(["make", "-C", str(out), "all-pdf",
                           "LATEXMKOPTS=-interaction=nonstopmode -halt-on-error"],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stdout[-3000:]
    text = subprocess.run(["pdftotext", "-layout", str(out / "mini.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    title = text.split("\f")[0]
    for words in ("Mini book", "Version 9.8.7", "Ada Lovelace", "The mini team",
                  "https://o.github.io/r/"):
        assert words in title
    assert "Nobody" not in text
    # the numbered part and its chapter, then the appendices: a part page, the report as A
    assert re.search(r"Part I\s+Alpha", text)
    assert re.search(r"Appendices.*APPENDIX\s+A\s+REPRODUCIBILITY REPORT", text, re.S)
    assert "\\appendix" in tex and "\\part{About this book}" not in tex
    # the status page is not printed; the reference to it links the website
    assert "\\chapter{Execution status}" not in tex and "The website's build" not in text
    assert "\\sphinxhref{https://o.github.io/r/book/status.html}{Execution status}" in tex
    assert pdf_book.TRY_THIS_PRINT + " Move the accuracy." in " ".join(text.split())
    assert "Exercise 1 (at 80%)" in text              # the % escaped, the line not cut
