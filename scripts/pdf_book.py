"""Sphinx extension for the PDF only (scripts/build-pdf.sh): the website's pages as a book.

Loaded only by the PDF build's configuration; every function returns at once for another
builder than LaTeX. What it changes, and why:

1. **Landing page, parts and appendices.** Sphinx's LaTeX writer takes the root page's title as
   the document title and makes each of its sections a chapter ("Who it is for" would be
   chapter 1), and it drops the table of contents' part captions. Here the root page becomes one
   unnumbered chapter (its sections unnumbered too) and each numbered part of ``_toc.yml``
   ("Part II — ...") starts with ``\\part``: chapters 1 to 21 as on the website. The pages of
   the parts without a numeral (about the book, the library's reference) follow as appendices
   A, B, ... under one "Appendices" page; the pages that serve the website only
   (``WEBSITE_ONLY``: the execution status, troubleshooting, the book's own package) are left
   out, and a reference to one of them links its page on the website (``link_website_pages``).
2. **Code the website folds away is not printed.** MyST-NB removes ``remove-input`` and
   ``remove-cell`` cells for every builder, but ``hide-input`` (and ``hide-cell``) only fold on
   the website; in a PDF the code would be printed. Their inputs are removed; outputs stay.
3. **Exercise references across chapters.** sphinx-exercise labels an exercise
   ``exercise:<label>`` in LaTeX and rewrites references within a page only; a ``{numref}`` from
   another page would print "Exercise ??" and a ``{ref}`` point nowhere. Each exercise also gets
   the label Sphinx gives references (``<page>:<label>``), and a numbered reference from another
   page prints the number Sphinx computed (the one in the exercise's title).
4. **Explorers.** An explorer (``metabits_book.explore.show``) is an ipywidgets view in Jupyter
   and a plotly figure on the website; the PDF shows the PNG of its first view (the MIME bundle's
   ``image/png``, whose ``Description`` text names the explorer:
   ``metabits_book.explore.kernel.PNG_DESCRIPTION``) followed by a sentence linking its page on
   the website. An output with only the plain-text fallback (``explorer: <title>``) becomes that
   sentence alone.
5. **Tables of notebook outputs.** A DataFrame or Styler output is HTML on the website; the
   LaTeX builder would print its ``text/plain`` (wrapped lines, or ``<...Styler at 0x...>``). Its
   HTML is parsed into a LaTeX table in Sphinx's table style, sized to the page: numbers right-
   aligned, a smaller font (then a landscape page) when its columns need more than the line,
   paragraph columns sharing the line when its text does (``output_tables``).
6. **Theorems, proofs and exercises.** sphinx-proof and sphinx-exercise set each block as a
   Sphinx admonition with an empty title bar; here "Theorem 3 (Title)." runs in bold into the
   statement (in italics for theorem-like blocks), a proof opens with "Proof." and ends with a
   square, an exercise reads "Exercise 12 (Title)." (``book_statements``).
7. **The bibliography** takes the place of its page (else it is an empty chapter, the references a
   second "Bibliography" at the end: ``move_bibliography``); the index is set smaller with
   breaks after dots, and a few preamble lines keep the book's own tables and inline code
   inside the margins (``PREAMBLE``, ``PRINTINDEX``).
8. **Words for print.** An exercise with an explorer ("**Try this.** Move the accuracy ...")
   says that the explorer moves on the website (``print_try_this``); text that only the website
   can follow is written twice in the pages, ``{only} html`` and ``{only} latex``. An exercise
   reference's title is escaped (``escape_exercise_references``: "at 80%" cut the line).
9. **The title page** names the authors as ``CITATION.cff`` does, the library's version and the
   website's address (``title_page``, ``title_page_authors``).
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join, texescape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_launch_notebooks import website  # noqa: E402

PREFIX = "explorer: "
PNG_DESCRIPTION = "metabits explorer "   # metabits_book.explore.kernel.PNG_DESCRIPTION
HIDDEN_INPUT_TAGS = ("tag_hide-input", "tag_hide-cell")
#: the numeral the website's part captions start with ("Part II — "), which LaTeX's \part prints
PART_NUMERAL = re.compile(r"^Part [IVXLC]+ — ")
#: pages of the website that the PDF leaves out: the execution status of the website's build,
#: the troubleshooting of Binder, Colab, Jupyter and the website's build, and the reference of
#: the book's own package (the registry, glue and figure style the pages are made with; the
#: library's reference stays, as an appendix). A reference to one of them, or to an object
#: documented there, links its page on the website (``link_website_pages``)
WEBSITE_ONLY = ("book/status", "book/troubleshooting", "book/book_code")
#: after the four parts of the course: the other pages are appendices, lettered A, B, ...
APPENDIX = ("\\appendix\n\\clearpage\\phantomsection"
            "\\addcontentsline{toc}{part}{Appendices}\\part*{Appendices}\n")
#: the website's strong lead of an exercise with an explorer, and what the PDF prints instead:
#: the paragraph stands above the explorer's picture, under which its link is
TRY_THIS = "Try this."
TRY_THIS_PRINT = "Try this in the explorer on the website (its link is under the picture)."


def _latex(app) -> bool:
    return app.builder is not None and app.builder.format == "latex"


def _raw(tex: str) -> nodes.raw:
    return nodes.raw("", tex, format="latex")


# --- 1. the landing page and the parts -----------------------------------------------------------

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
    appendix = False
    for c in tocs:
        toctree = c.next_node(addnodes.toctree)
        leave_out(toctree, WEBSITE_ONLY)
        caption = toctree.get("caption")
        if caption and PART_NUMERAL.match(caption):
            # "Part II — Servajean ...": LaTeX prints the numeral itself ("Part II")
            caption = PART_NUMERAL.sub("", caption)
            wrapper += _raw("\\part{%s}\n" % _escape(caption))
        elif caption and not appendix:
            # the first part without a numeral ("About this book", then "Reference"): the
            # course text has ended, what follows is lettered A, B, ... under "Appendices"
            wrapper += _raw(APPENDIX)
            appendix = True
        # Sphinx names the table of contents after the first caption it finds ("Meyen et al.
        # (2025): ..." would head the contents); the parts carry the captions instead
        toctree.attributes.pop("caption", None)
        wrapper += c


def leave_out(toctree: addnodes.toctree, pages) -> None:
    """Remove ``pages`` (docnames) from a toctree: the LaTeX builder inlines only the pages a
    toctree includes, so they are not printed (the website still lists them: its table of
    contents was collected from the page as it was read)."""
    toctree["entries"] = [(title, doc) for title, doc in toctree["entries"] if doc not in pages]
    toctree["includefiles"] = [doc for doc in toctree.get("includefiles", [])
                               if doc not in pages]


def website_target(env, xref: addnodes.pending_xref, pages) -> tuple | None:
    """``(page, anchor)`` when ``xref`` (a ``{doc}``, a ``{ref}`` or a Python object's
    reference) points into ``pages``."""
    kind, target = xref.get("reftype"), xref.get("reftarget", "")
    if xref.get("refdomain") == "py":
        matches = env.get_domain("py").find_obj(
            env, xref.get("py:module"), xref.get("py:class"), target, kind,
            1 if xref.hasattr("refspecific") else 0)
        if len(matches) == 1 and matches[0][1].docname in pages:
            return matches[0][1].docname, matches[0][1].node_id
        return None
    if xref.get("refdomain") != "std":
        return None
    if kind == "doc":
        doc = docname_join(xref.get("refdoc", ""), target)
        return (doc, "") if doc in pages else None
    if kind in ("ref", "numref"):
        label = env.domaindata["std"]["labels"].get(target.lower())
        if label and label[0] in pages:
            return label[0], label[1]
    return None


def link_website_pages(app, doctree: nodes.document, pages) -> int:
    """Each reference to a page left out of the PDF (``pages``) as a link to that page on the
    website; the number changed. (Resolved, it would print its text without a link: the LaTeX
    builder has no address for a page it does not print.)"""
    site = website(app.config.html_theme_options.get("repository_url", ""),
                   app.config.html_baseurl)
    count = 0
    for xref in list(doctree.findall(addnodes.pending_xref)):
        found = website_target(app.env, xref, pages)
        if found is None:
            continue
        doc, anchor = found
        if xref.get("refexplicit") or xref.get("reftype") != "doc":
            text = xref.astext()
        else:                                   # {doc}`page`: the page's title
            title = app.env.titles.get(doc)
            text = title.astext() if title is not None else xref.astext()
        url = f"{site}{doc}.html" + (f"#{anchor}" if anchor else "")
        link = nodes.reference("", "", refuri=url, internal=False)
        link += xref.children[0].deepcopy() if xref.get("refdomain") == "py" and \
            xref.children else nodes.Text(text)    # code stays code
        xref.replace_self(link)
        count += 1
    return count


class WebsitePageReferences(SphinxPostTransform):
    """References to the pages the PDF leaves out link the website (``link_website_pages``);
    before Sphinx resolves references (priority 10)."""

    default_priority = 5
    builders = ("latex",)

    def run(self, **kwargs) -> None:
        link_website_pages(self.app, self.document, WEBSITE_ONLY)


def _escape(text: str) -> str:
    special = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
               "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
               "\\": r"\textbackslash{}"}
    return "".join(special.get(ch, ch) for ch in text)


# --- 2. folded code ------------------------------------------------------------------------------

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


# --- 3. exercises --------------------------------------------------------------------------------

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


def escape_exercise_references(doctree: nodes.document, engine: str = "xelatex") -> int:
    """Each exercise reference as LaTeX with its text escaped; the number replaced.

    sphinx-exercise writes ``\\hyperref[exercise:<label>]{<text>}`` with the text as it is, so
    a title with ``%`` ("Uniform noise at 80%") commented out the rest of the line and broke
    the build; here the reference becomes that LaTeX with the text escaped."""
    from sphinx_exercise.nodes import exercise_latex_number_reference

    count = 0
    for ref in list(doctree.findall(exercise_latex_number_reference)):
        ref.replace_self(_raw("\\hyperref[exercise:%s]{%s}" % (
            ref.get("refid"), texescape.escape(ref.astext(), engine))))
        count += 1
    return count


# --- 4. explorers --------------------------------------------------------------------------------

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


# --- 5. tables of notebook outputs ---------------------------------------------------------------

class _HTMLTables(HTMLParser):
    """The cells of each top-level ``<table>`` of an HTML fragment (pandas' ``to_html`` and
    ``Styler``): ``tables`` is a list of ``(head_rows, body_rows)``, each row a list of
    ``(text, colspan, rowspan)``; text inside ``<style>`` and ``<script>`` is ignored and
    whitespace (``&nbsp;`` included) is collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[list, list]] = []
        self._depth = 0          # of nested <table>s
        self._skip = 0           # inside <style> / <script>
        self._in_head = False
        self._row: list | None = None
        self._cell: list | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("style", "script"):
            self._skip += 1
        elif tag == "table":
            self._depth += 1
            if self._depth == 1:
                self.tables.append(([], []))
        elif self._depth != 1:
            return
        elif tag == "thead":
            self._in_head = True
        elif tag in ("tbody", "tfoot"):
            self._in_head = False
        elif tag == "tr":
            self._row = []
            self.tables[-1][0 if self._in_head else 1].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = [[], _span(a.get("colspan")), _span(a.get("rowspan"))]
            self._row.append(self._cell)
        elif tag == "br" and self._cell is not None:
            self._cell[0].append(" ")

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._skip = max(0, self._skip - 1)
        elif tag == "table":
            if self._depth == 1:
                self._close()
            self._depth = max(0, self._depth - 1)
        elif self._depth != 1:
            return
        elif tag in ("td", "th"):
            self._cell = None
        elif tag == "tr":
            self._row = self._cell = None
        elif tag == "thead":
            self._in_head = False

    def handle_data(self, data):
        if self._cell is not None and not self._skip and self._depth == 1:
            self._cell[0].append(data)

    def _close(self):
        head, body = self.tables[-1]
        for rows in (head, body):
            for row in rows:
                row[:] = [(" ".join("".join(text).split()), c, r) for text, c, r in row]
        self._row = self._cell = None


def _span(value) -> int:
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return 1


def html_tables(html: str) -> list[tuple[list, list]]:
    """The tables of an HTML fragment as rows of ``(text, colspan, rowspan)`` cells."""
    parser = _HTMLTables()
    parser.feed(html)
    parser.close()
    return [t for t in parser.tables if t[0] or t[1]]


def _grid(rows: list) -> list[list]:
    """Each row's cells with the column each starts at, rowspans taken into account:
    a list of ``(column, text, colspan, rowspan)`` per row, and the number of columns."""
    taken: dict[tuple[int, int], bool] = {}
    placed = []
    ncols = 0
    for i, row in enumerate(rows):
        col, out = 0, []
        for text, colspan, rowspan in row:
            while taken.get((i, col)):
                col += 1
            out.append((col, text, colspan, rowspan))
            for di in range(rowspan):
                for dj in range(colspan):
                    taken[(i + di, col + dj)] = True
            col += colspan
        placed.append(out)
        ncols = max([ncols] + [j + 1 for (r, j) in taken if r == i])
    return placed, ncols


def _fold_index_names(head: list) -> list:
    """pandas puts the index's name on a header row of its own (``idx``, then empty cells)
    under the column names, whose first cell is empty: the name moves up into that cell."""
    if len(head) < 2:
        return head
    last, above = head[-1], head[-2]
    named = [i for i, (text, _, _) in enumerate(last) if text]
    if not named or len(last) != len(above) or \
            any(last[i][1:] != (1, 1) or above[i] != ("", 1, 1) for i in named) or \
            any(text for i, (text, _, _) in enumerate(last) if i > max(named)):
        return head
    merged = [(last[i][0], 1, 1) if i in named else cell for i, cell in enumerate(above)]
    return head[:-2] + [merged]


_NUMBER = re.compile(r"^[-+\u2212]?(\d[\d,]*)?(\.\d+)?([eE][-+]?\d+)?%?$")
_NOT_A_NUMBER = {"nan", "NaN", "inf", "-inf", "None", "<NA>", "NaT", "undefined", "—", "–", "-",
                 "±", "…", "..."}


def _is_number(text: str) -> bool:
    """A cell of numbers: each word a number (or a bracket or comma around one), ``±``, or
    a missing value (``nan``, ``undefined``, a dash): ``0.25``, ``-1.2e-05``, ``95%``,
    ``0.57 ± 0.02``, ``[0.1, 0.3]``."""
    words = text.split()
    return bool(words) and all(
        w in _NOT_A_NUMBER or (any(ch.isdigit() for ch in w) and _NUMBER.match(w.strip("[](),;")))
        for w in words)


def _len(text: str) -> float:
    """A text's width in characters of the body font (a digit's or lower-case letter's width):
    capitals are wider, a space narrower (the headers' sans serif capitals ran over)."""
    return sum(1.35 if ch.isupper() else 0.5 if ch.isspace() else 1.0 for ch in text)


def _width(text: str) -> float:
    """Characters a cell needs on one line: its longest word (or number)."""
    return max((_len(w) for w in text.split()), default=0.0)


# font sizes tried in turn (the commands, and their size relative to the text's); a table set
# smaller also has narrower gaps between its columns (\tabcolsep 0.5em of its font, not 6pt)
TABLE_SIZES = ((r"\small", 0.9), (r"\footnotesize", 0.8), (r"\scriptsize", 0.7))
NARROW_GAPS = r"\setlength{\tabcolsep}{0.5em}"
TEXT_WIDTH_CHARS = 84      # characters of the body font on one line of the text block (A4)
LANDSCAPE_FACTOR = 1.45    # the text block's height over its width: a landscape page's line
CELL_PAD_CHARS = 2.4       # the space between two columns (2\tabcolsep = 12pt), in characters
NARROW_PAD_CHARS = 2.0     # the same at 2 x 0.5em, in characters of that (smaller) font


def table_layout(head: list, body: list) -> tuple[str, str, bool]:
    """(font size command, column spec, landscape) for a table of these cells.

    A column needs at least the width of its longest number or word (``_width``), and at most
    that of its longest cell. The font is the largest of ``TABLE_SIZES`` at which every column
    gets what it needs within the text block; a table that does not fit even at the smallest
    goes on a landscape page. The spec is ``_column_spec``'s: each column as wide as its
    longest cell if all fit, otherwise the spare width shared out.
    """
    placed, ncols = _grid(head + body)
    need, natural = [0] * ncols, [0] * ncols
    numeric = [True] * ncols
    filled = [False] * ncols
    for r, row in enumerate(placed):
        for col, text, colspan, _ in row:
            if colspan != 1:
                continue
            num = _is_number(text)
            if r >= len(head) and text:
                filled[col] = True
                numeric[col] = numeric[col] and num
            need[col] = max(need[col], _width(text))
            natural[col] = max(natural[col], _len(text))
    right = [numeric[c] and filled[c] for c in range(ncols)]
    sizes = (("", 1.0, CELL_PAD_CHARS),) + tuple(
        (command + NARROW_GAPS, scale, NARROW_PAD_CHARS * scale) for command, scale in TABLE_SIZES)
    for landscape, width in ((False, TEXT_WIDTH_CHARS),
                             (True, TEXT_WIDTH_CHARS * LANDSCAPE_FACTOR)):
        for command, scale, pad in sizes:
            if sum(need) * scale + pad * ncols <= width:
                return command, _column_spec(need, natural, right, scale, width, pad), landscape
    command, scale, pad = sizes[-1]   # wider than a landscape page: its columns share the line
    return command, _column_spec(need, natural, right, scale, width, pad), True


def _column_spec(need: list, natural: list, right: list, scale: float, width: float,
                 gap: float = CELL_PAD_CHARS) -> str:
    """The columns: ``r`` (numbers) and ``l`` (text) when every cell fits on one line;
    otherwise each column gets what it needs plus a share of the spare width that grows with
    its longest cell, and one still too narrow for that cell is a paragraph column (ragged
    right, numbers' columns ragged left: a long header wraps above them). Widths in
    characters of the text's font (``scale``: the table's font size relative to it; ``gap``:
    the space between two columns)."""
    pad = gap * len(need)
    if sum(natural) * scale + pad <= width:
        return "".join("r" if r else "l" for r in right)
    spare = max(0.0, width - pad - sum(need) * scale)
    wants = [max(0, n - m) * scale for n, m in zip(natural, need)]
    cols = []
    for c, (n, m, w) in enumerate(zip(natural, need, wants)):
        share = m * scale + (spare * w / sum(wants) if sum(wants) else 0.0)
        if share >= n * scale:
            cols.append("r" if right[c] else "l")
            continue
        align = r"\raggedleft" if right[c] else r"\raggedright"
        cols.append(r">{%s\arraybackslash}p{\dimexpr %.3f\linewidth-2\tabcolsep\relax}"
                    % (align, (share + gap) / width))
    return "".join(cols)


def _cell_latex(text: str, header: bool) -> str:
    if not text:
        return ""
    if not header and _is_number(text):
        # a minus sign, not a hyphen, in front of a number
        text = re.sub(r"(?<![^\s\[(])-(?=[\d.])", "\u2212", text)
    if not texescape.tex_replace_map:
        texescape.init()      # the LaTeX builder does this; a unit test does not
    tex = texescape.escape(text, "xelatex")
    return r"\sphinxstyletheadfamily " + tex if header else tex


LONG_TABLE_ROWS = 30   # a table of more rows is a longtable (Sphinx's rule), shorter a tabular


def table_latex(head: list, body: list, spec: str) -> str:
    r"""The cells as a centred table in the book's table style (Sphinx's templates: its
    rules and row colours): a ``tabular``, or for more than ``LONG_TABLE_ROWS`` rows a
    ``longtable``, which breaks across pages and repeats its header. A cell over several
    columns is a ``\multicolumn``, one over several rows printed in its first row (the rows
    under it left empty, as a book does).

    Not a longtable for every table: a figure that follows a longtable on the same page was
    set over the page's foot (longtable's output routine and the float's ``h``)."""
    placed, ncols = _grid(head + body)
    rows = []
    for r, row in enumerate(placed):
        header = r < len(head)
        starts = {col: (text, colspan) for col, text, colspan, _ in row}
        cells, col = [], 0
        while col < ncols:
            text, colspan = starts.get(col, ("", 1))
            tex = _cell_latex(text, header)
            if colspan > 1:
                tex = r"\multicolumn{%d}{c}{%s}" % (colspan, tex)
            cells.append(tex)
            col += colspan
        rows.append(" & ".join(cells) + " \\\\\n")
    header = "\\sphinxtoprule\n" + "".join(rows[:len(head)]) + \
        ("\\sphinxmidrule\n" if head else "")
    body = "\\sphinxtableatstartofbodyhook\n" + "".join(rows[len(head):]) + "\\sphinxbottomrule\n"
    style = "\\sphinxthistablewithglobalstyle\\sphinxthistablewithnovlinesstyle\n"
    if len(placed) <= LONG_TABLE_ROWS:
        return ("\\begin{savenotes}\\sphinxattablestart\n" + style + "\\centering\n"
                "\\begin{tabular}[t]{%s}\n" % spec + header + body +
                "\\end{tabular}\n\\sphinxtableafterendhook\\par\n"
                "\\sphinxattableend\\end{savenotes}\n")
    return ("\\begin{savenotes}\\sphinxatlongtablestart\n" + style +
            "\\makeatletter\n"
            "  \\LTleft \\@totalleftmargin plus1fill\n"
            "  \\LTright\\dimexpr\\columnwidth-\\@totalleftmargin-\\linewidth\\relax plus1fill\n"
            "\\makeatother\n"
            "\\begin{longtable}{%s}\n" % spec +
            header + "\\endfirsthead\n" + header + "\\endhead\n"
            "\\sphinxbottomrule\n\\endfoot\n\\endlastfoot\n" + body +
            "\\end{longtable}\n"
            "\\sphinxtableafterendhook\\sphinxatlongtableend\\end{savenotes}\n")


def _html_of_bundle(bundle: nodes.container) -> str | None:
    for mime in bundle.children:
        if isinstance(mime, nodes.container) and mime.get("mime_type") == "text/html":
            return "".join(n.astext() for n in mime.findall(nodes.raw))
    return None


def output_tables(doctree: nodes.document) -> int:
    """Replace each notebook output that is an HTML table (a DataFrame, a Styler) by a
    table; the number replaced.

    The LaTeX builder would print such an output's ``text/plain`` (a DataFrame as wrapped
    lines of text, a Styler as ``<pandas.io.formats.style.Styler at 0x...>``). The HTML is
    in the output's MIME bundle until MyST-NB picks one type per builder (a post-transform),
    so here, when the page is read, it becomes a table: set in a smaller font when it is
    wide, on a landscape page when it is wider still (``table_layout``). An output with
    other HTML is left to MyST-NB.
    """
    count = 0
    for bundle in list(doctree.findall(nodes.container)):
        if bundle.get("nb_element") != "mime_bundle":
            continue
        html = _html_of_bundle(bundle)
        if not html or "<table" not in html:
            continue
        tables = html_tables(html)
        if not tables:
            continue
        out = []
        for head, body in tables:
            head = _fold_index_names(head)
            size, spec, landscape = table_layout(head, body)
            tex = "\\begingroup%s\n%s\\endgroup\n" % (size, table_latex(head, body, spec))
            if landscape:
                tex = "\\begin{landscape}\n" + tex + "\\end{landscape}\n"
            out.append(_raw(tex))
        bundle.replace_self(out)
        count += 1
    return count


# --- 6. theorems, proofs and exercises as a book sets them ---------------------------------------

# sphinx-proof and sphinx-exercise write each block as a Sphinx admonition whose title bar stays
# empty in LaTeX (they insert the title where Sphinx 7 does not put it). Here each block becomes
# a run-in heading, "Theorem 3 (Title)." in bold at the start of its first paragraph, with a
# little space above and below; theorem-like statements in italics; a proof starts with an
# italic "Proof." and ends with a square at the right margin.
ITALIC_STATEMENTS = ("theorem", "proposition", "lemma", "corollary", "conjecture")
STATEMENT_LATEX = r"""
% a block of the book (pdf_book.py, book_statements): space above and below, the first
% paragraph not indented; #1 its anchors and font
\newenvironment{mbstatement}[1]{\par\addvspace{\medskipamount}%
  \everypar{{\setbox0\lastbox}\everypar{}}#1}{\par\addvspace{\medskipamount}}
% the end of a proof: a square at the right margin of its last line (or of a line of its own)
\newcommand{\mbqed}{\leavevmode\unskip\nobreak\hfil\penalty50\hskip1em\null\nobreak\hfil
  \ensuremath{\blacksquare}\parfillskip=0pt\finalhyphendemerits=0\relax}
"""


def _run_in(block: list, lead: list) -> list:
    """``block``'s nodes with ``lead`` (inline nodes) run into its first paragraph (the raw
    labels and targets before it stay first); a paragraph of its own if none comes first."""
    at = next((i for i, n in enumerate(block) if not isinstance(n, (nodes.raw, nodes.target))),
              len(block))
    if at < len(block) and isinstance(block[at], nodes.paragraph):
        for i, n in enumerate(lead + [nodes.Text(" ")]):
            block[at].insert(i, n)
        return block
    para = nodes.paragraph()
    para.extend(lead)
    return block[:at] + [para] + block[at:]


def _content(node: nodes.Element) -> list:
    """A block's body: the children of its content section (or its own), title left out."""
    body = []
    for child in node.children:
        if isinstance(child, nodes.title):
            continue
        if isinstance(child, (nodes.section, nodes.admonition)) and \
                not isinstance(child, type(node)):
            body.extend(child.children)
        else:
            body.append(child)
    return body


def _number(env, docname: str, node: nodes.Element, counter: str) -> str:
    ids = node.get("ids") or [""]
    number = getattr(env, "toc_fignumbers", {}).get(docname, {}).get(counter, {}).get(ids[0])
    return ".".join(map(str, number or ()))


def _pages(doctree: nodes.document, docname: str) -> dict:
    """id(node) -> the page each element of a (joined) doctree comes from."""
    page = {id(n): docname for n in doctree.findall(nodes.Element)}
    for start in doctree.findall(addnodes.start_of_file):
        for n in start.findall(nodes.Element):
            page[id(n)] = start["docname"]
    return page


def _statement(node: nodes.Element, lead: list, anchors: str, italic: bool) -> list:
    """The block as LaTeX sets it: ``anchors``, then ``lead`` (inline nodes) in bold with a
    full stop, run into the block's first paragraph."""
    strong = nodes.strong()
    strong.extend(lead)
    strong += nodes.Text(".")
    # the statement in italics after its upright heading (\itshape holds to the block's end)
    body = _run_in(_content(node), [strong] + ([_raw("\\itshape{}")] if italic else []))
    return [_raw("\\begin{mbstatement}{%s}\n" % anchors)] + body + \
        [_raw("\\end{mbstatement}\n")]


def _title_children(node: nodes.Element) -> list:
    title = node.children[0] if node.children and isinstance(node.children[0], nodes.title) \
        else None
    return [c.deepcopy() for c in title.children] if title is not None else []


def _proof(node: nodes.Element) -> list:
    """A proof: an italic "Proof." run in (sphinx-proof wrote "Proof. " into its first
    paragraph), and the end-of-proof square after its last line."""
    body = _content(node)
    lead = nodes.emphasis(text="Proof.")
    first = body[0] if body and isinstance(body[0], nodes.paragraph) else None
    if first is not None and first.children and isinstance(first[0], nodes.Text) and \
            str(first[0]).startswith("Proof. "):
        first.replace(first[0], nodes.Text(str(first[0])[len("Proof. "):]))
        first.insert(0, lead)
        first.insert(1, nodes.Text(" "))
    else:
        body = _run_in(body, [lead])
    if isinstance(body[-1], nodes.paragraph):
        body[-1] += _raw("\\mbqed")
    else:
        body.append(nodes.paragraph("", "", _raw("\\mbqed")))
    return [_raw("\\begin{mbstatement}{}\n")] + body + [_raw("\\end{mbstatement}\n")]


def book_statements(env, doctree: nodes.document, docname: str) -> int:
    """Replace sphinx-proof's and sphinx-exercise's boxes by book-style blocks; the number
    replaced. Runs when references are resolved: exercise titles carry their numbers then
    ("Exercise 3 (Subtitle)"), and a theorem's number is Sphinx's (``env.toc_fignumbers``)."""
    from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node
    from sphinx_proof.nodes import NODE_TYPES, proof_node, unenumerable_node

    page = _pages(doctree, docname)
    statements = tuple(NODE_TYPES.values()) + (unenumerable_node,)
    count = 0
    for node in list(doctree.findall(nodes.Element)):
        if isinstance(node, statements):
            realtype = node.get("realtype", "")
            number = "" if isinstance(node, unenumerable_node) else \
                _number(env, page[id(node)], node, node.get("countertype", realtype))
            lead = [nodes.Text((realtype.title() + " " + number).strip())] + \
                _title_children(node)                      # " (Title)", math included
            anchors = "\\phantomsection\\label{\\detokenize{%s:%s}}" % (
                page[id(node)], node.get("label", ""))
            new = _statement(node, lead, anchors, realtype in ITALIC_STATEMENTS)
        elif isinstance(node, (exercise_node, exercise_enumerable_node)):
            # the label references within the page use (label_exercises added the page's)
            anchors = "\\phantomsection\\label{exercise:%s}" % node.get("label", "")
            new = _statement(node, _title_children(node), anchors, italic=False)
        elif isinstance(node, proof_node):
            new = _proof(node)
        else:
            continue
        node.replace_self(new)
        count += 1
    return count


# the index: the API's long dotted names (metabits.oskr.FeedbackChannel) would run
# into the margin of its two columns; a smaller font, ragged right, and a break allowed after
# each dot and slash (XeTeX's inter-character tokens, switched on for the index only)
INDEX_LATEX = r"""
\newXeTeXintercharclass\mbbreakclass
\newcommand{\mbbreakafterdots}{\XeTeXinterchartokenstate=1
  \XeTeXcharclass`\.=\mbbreakclass \XeTeXcharclass`\/=\mbbreakclass
  \XeTeXinterchartoks\mbbreakclass 0={\allowbreak}}
"""
PRINTINDEX = r"\footnotesize\raggedright\mbbreakafterdots\printindex"

# pdflscape: the widest tables
# --- 7. the bibliography ------------------------------------------------------------------------

def move_bibliography(doctree: nodes.document, pages: set) -> bool:
    """Put the list of references where the bibliography page is; whether it moved.

    Sphinx's LaTeX writer gathers every citation into one list at the end of the book, under
    a chapter of its own ("Bibliography"), so the page holding the ``bibliography``
    directive printed as a chapter with a title and one sentence, then the real bibliography
    after it. The list takes the page's place (and its labels: the text links to the page).
    """
    from sphinx.builders.latex.nodes import thebibliography

    bib = next(iter(doctree.findall(thebibliography)), None)
    if bib is None:
        return False
    for start in doctree.findall(addnodes.start_of_file):
        if start["docname"] not in pages:
            continue
        section = next((c for c in start.children if isinstance(c, nodes.section)), None)
        if section is None:
            continue
        name = start["docname"]
        labels = "".join("\\label{\\detokenize{%s:%s}}" % (name, i) for i in section["ids"])
        bib.parent.remove(bib)
        # a new page before the page's own anchor (``<page>::doc``, which Sphinx writes)
        start.parent.insert(start.parent.index(start), _raw("\\clearpage\n"))
        section.replace_self([_raw("\\phantomsection%s\n" % labels), bib])
        return True
    return False


def _bibliography_pages(env) -> set:
    try:
        return {key.docname for key in env.get_domain("cite").bibliographies}
    except Exception:       # no sphinxcontrib-bibtex: nothing to move
        return set()


# the book's own (Markdown) tables: tabulary's columns ragged right, not justified ("the def-
# inition  and  the"), and none squeezed below 4em (a word would run over the next column)
TABLE_LATEX = r"""
\expandafter\let\csname NC@find@T\endcsname\relax   % array warned "Column T is already defined"
\newcolumntype{T}{L}
\setlength{\tymin}{4em}
% inline code may break after an underscore too (Sphinx breaks it after . , ; ? ! /):
% estimate_dprime ran 18pt into the next column of a table
% (names without @: \sphinxupquote reads its argument again with \scantokens)
\let\mbsphinxupquote\sphinxupquote
\protected\def\sphinxupquote#1{\mbsphinxupquote{\let\_\mbunderscore#1}}
\def\mbunderscore{\textunderscore\allowbreak}
"""
PREAMBLE = "\\usepackage{pdflscape}\n" + STATEMENT_LATEX + INDEX_LATEX + TABLE_LATEX


# --- 8. words for print ---------------------------------------------------------------------------

def print_try_this(doctree: nodes.document) -> int:
    """An exercise with an explorer ("**Try this.** Move the accuracy ...") names where the
    explorer moves: in print it stands beside a picture. The number changed."""
    count = 0
    for para in list(doctree.findall(nodes.paragraph)):
        # (MyST starts some paragraphs with an empty text node)
        first = next((c for c in para.children
                      if not (isinstance(c, nodes.Text) and not c.strip())), None)
        if isinstance(first, nodes.strong) and first.astext() == TRY_THIS:
            first.replace_self(nodes.strong(TRY_THIS_PRINT, TRY_THIS_PRINT))
            count += 1
    return count


# --- 9. the title page --------------------------------------------------------------------------

def citation_authors(path: Path) -> list[str]:
    """The authors as ``CITATION.cff`` names them: an entity's ``name``, a person's given
    names, name particle, family names and suffix."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    names = []
    for author in data.get("authors") or []:
        name = author.get("name") or " ".join(
            str(author[key]) for key in ("given-names", "name-particle", "family-names",
                                         "name-suffix") if author.get(key))
        if name:
            names.append(name)
    if not names:
        raise ValueError(f"no authors in {path}")
    return names


def library_version(pyproject: Path) -> str:
    """The version of the ``metabits`` library (its ``pyproject.toml``)."""
    import tomllib

    return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]


def title_page(config, root: Path) -> None:
    """The title page shows the library's version ("Version 0.3.0", also in the running
    heads) and the website's address (under the date); ``title_page_authors`` its authors."""
    config.version = config.release = library_version(root / "lib" / "pyproject.toml")
    site = website(config.html_theme_options.get("repository_url", ""), config.html_baseurl)
    elements = dict(config.latex_elements or {})
    elements["releasename"] = "Version"
    elements["preamble"] = elements.get("preamble", "") + \
        "\\authoraddress{\\url{%s}}\n" % site
    config.latex_elements = elements


def title_page_authors(config, root: Path) -> None:
    """The authors of ``CITATION.cff`` on the title page (``latex_documents``, which Jupyter
    Book completes after the configuration is read: so when the pages have been read)."""
    if not texescape.tex_replace_map:
        texescape.init()
    authors = " \\and ".join(texescape.escape(name, config.latex_engine)
                              for name in citation_authors(root / "CITATION.cff"))
    document = list(config.latex_documents[0])
    document[3] = authors
    config.latex_documents = [tuple(document)] + list(config.latex_documents[1:])


# --- wiring --------------------------------------------------------------------------------------

def on_config_inited(app, config) -> None:
    """The LaTeX the blocks and tables use, after the build's own preamble; the title page."""
    elements = dict(config.latex_elements or {})
    elements["preamble"] = elements.get("preamble", "") + PREAMBLE
    elements.setdefault("printindex", PRINTINDEX)
    config.latex_elements = elements
    title_page(config, Path(app.srcdir))


def on_env_updated(app, env) -> None:
    if _latex(app):
        title_page_authors(app.config, Path(app.srcdir))


def on_doctree_read(app, doctree) -> None:
    if not _latex(app):
        return
    docname = app.env.docname
    drop_folded_inputs(doctree)
    output_tables(doctree)
    print_try_this(doctree)
    label_exercises(doctree, docname)
    if docname == app.config.root_doc:
        restructure_root(doctree)


def on_doctree_resolved(app, doctree, docname) -> None:
    if not _latex(app):
        return
    number_exercise_references(app, doctree)
    escape_exercise_references(doctree, app.config.latex_engine)
    replace_explorers(app, doctree, docname)
    book_statements(app.env, doctree, docname)
    move_bibliography(doctree, _bibliography_pages(app.env))


def setup(app):
    app.connect("config-inited", on_config_inited)
    app.connect("doctree-read", on_doctree_read)
    app.connect("env-updated", on_env_updated)
    app.connect("doctree-resolved", on_doctree_resolved)  # after MyST-NB chose the output
    app.add_post_transform(WebsitePageReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
