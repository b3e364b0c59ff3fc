"""The launch notebooks (``launch/``): what Binder and Colab open reads like the website.

``scripts/launch_notebooks.py`` converts a book notebook into plain Markdown and code; the first
tests check its hard cases on small inputs. The committed notebooks in ``launch/student`` and
``launch/instructor`` are then checked as a student or instructor would meet them: no MyST role
or directive left, no macro MathJax does not know, solutions absent from the student edition
and folded in the instructor one, the code cells the book's own. Two of them are executed on a
fresh kernel. The test marked ``build`` regenerates them from this session's book build and
fails when the committed folder is out of date (deselect it with ``-m "not build"``). The book's
Markdown pages, converted to plain Markdown (``launch/instructor/book/*.md``), are checked like
the notebooks: no MyST, no undefined macro, links to the website, the whole reference list and
every documented module. What Binder's ``postBuild`` does with them all is tested in
``tests/test_binder_notebooks.py``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from _launch import CODE as _CODE
from _launch import MYST, NOTEBOOKS, PAGES, ROOT
from _launch import cells as _cells
from _launch import markdown as _markdown

import launch_notebooks as ln  # noqa: E402 - scripts/, put on the path by _launch
import make_launch_notebooks as mk  # noqa: E402

LAUNCH = ROOT / mk.LAUNCH
LAUNCHED = [(edition, doc) for doc in NOTEBOOKS for edition in ln.EDITIONS]


# ---------------------------------------------------------------------------------------------
# the converter on small inputs

DOC = "book/part/01_first"


def small_book() -> ln.Book:
    return ln.Book(
        site="https://o.github.io/r/",
        raw="https://raw.githubusercontent.com/o/r/v1/",
        title="The book",
        install=("git+https://github.com/o/r#subdirectory=lib",
                 "git+https://github.com/o/r@v1#subdirectory=lib"),
        titles={DOC: "First", "book/part/02_second": "Second",
                "book/bibliography": "Bibliography"},
        labels={"ex-one": ln.Target(DOC, "ex-one", "Exercise 1"),
                "ex-two": ln.Target("book/part/02_second", "ex-two", "Exercise 2"),
                "fig-a": ln.Target("book/part/02_second", "fig-a", "Fig. 2"),
                "fig-here": ln.Target(DOC, "fig-here", "Fig. 1"),
                "a-section": ln.Target("book/part/02_second", "a-section", "A section")},
        numbers={(DOC, "exercise", "ex-one"): "1",
                 ("book/part/02_second", "exercise", "ex-two"): "2",
                 (DOC, "figure", "fig-here"): "1",
                 ("book/part/02_second", "figure", "fig-a"): "2"},
        numfig_format={"figure": "Fig. %s", "exercise": "Exercise %s"},
        citations={"meyen2025": ("Meyen et al.", "2025", "book/bibliography", "id2")},
        macros={"acc": r"\mathrm{acc}", "info": r"\mathrm{info}",
                "metaI": r"\mathrm{meta}\text{-}\mathcal{I}"},
    )


def convert(text: str, edition: str = "student", glue: dict | None = None) -> str:
    return ln.Converter(small_book(), DOC, glue or {}, edition).convert_markdown(text)


def test_macros_are_braced_so_an_argument_stays_whole():
    # \frac1\acc with a bare \mathrm{acc} would read as \frac{1}{\mathrm}{acc}
    assert convert(r"$\frac1\acc$") == r"$\frac1{\mathrm{acc}}$"
    assert convert(r"$\acc_k^2 + \metaI$") == r"${\mathrm{acc}}_k^2 + {\mathrm{meta}\text{-}\mathcal{I}}$"


def test_longer_names_and_line_breaks_are_not_macros():
    assert convert(r"$\info \to \infty$") == r"${\mathrm{info}} \to \infty$"
    assert convert(r"$a \\info$") == r"$a \\info$"  # a line break, then the word "info"
    assert convert(r"$\\\info$") == r"$\\{\mathrm{info}}$"
    assert convert(r"`\acc` in code") == r"`\acc` in code"


def test_glued_values_are_formatted_as_the_website_formats_them():
    glue = {"x": {"data": {"text/plain": "0.123456"}},
            "n": {"data": {"text/plain": "400"}},
            "s": {"data": {"text/plain": "'a_b *c* [d] $e | f'"}}}
    assert convert("{glue:text}`x:.2f` and {glue:text}`x:.1%`", glue=glue) == "0.12 and 12.3%"
    assert convert("{glue:text}`n` trials, {glue:text}`n:,d`", glue=glue) == "400 trials, 400"
    # Markdown characters in a glued string stay text: no emphasis, link, math or table cell
    assert convert("{glue:text}`s`", glue=glue) == r"a\_b \*c\* \[d\] \$e \| f"
    with pytest.raises(ln.ConversionError, match="no glued value 'y'"):
        convert("{glue:text}`y`", glue=glue)


def test_roles_inside_code_spans_are_left_alone():
    text = "Write ``{glue:text}`key:.2f` `` to paste a value."
    assert convert(text) == text


def test_a_fence_closes_with_as_many_colons_or_more():
    text = "::::{admonition} Outer\n:class: note\nA\n:::\nstill inside\n::::::\nafter"
    assert convert(text) == "**Outer**\n\nA\n:::\nstill inside\nafter"


def test_solutions_with_nested_code_fences():
    text = ("::::{exercise}\n:label: ex-one\nCompute $\\acc$.\n::::\n\n"
            "::::{solution} ex-one\n:class: dropdown\n```python\nprint(':::')\n::::\n```\n"
            "gives **70%**.\n::::\n\nAfter.")
    student = convert(text, "student")
    assert student == "**Exercise 1**\n\nCompute ${\\mathrm{acc}}$.\n\nAfter."
    instructor = convert(text, "instructor")
    assert instructor == (
        "**Exercise 1**\n\nCompute ${\\mathrm{acc}}$.\n\n<details>\n"
        "<summary>Solution to Exercise 1</summary>\n\n```python\nprint(':::')\n::::\n```\n"
        "gives **70%**.\n\n</details>\n\nAfter.")


def test_theorems_proofs_and_admonitions_become_bold_lead_ins():
    text = (":::{prf:theorem} Meyen et al., Theorem 3\n:label: thm\n:nonumber:\n"
            "Statement $\\info$.\n:::\n\n:::{prf:proof}\nBecause.\n:::\n\n"
            ":::{prf:proof}\n$$x$$\n:::\n\n:::{warning}\nCareful.\n:::")
    assert convert(text) == (
        "**Theorem** (Meyen et al., Theorem 3)\n\nStatement ${\\mathrm{info}}$.\n\n"
        "*Proof.* Because. ∎\n\n*Proof.*\n\n$$x$$\n\n∎\n\n**Warning**\n\nCareful.")


def test_references_link_to_the_website_and_read_as_there():
    text = ("{doc}`02_second`, {doc}`the next one <02_second>`, {ref}`ex-two`, "
            "{ref}`ex-one`, {ref}`a-section`, {numref}`fig-a`, {numref}`Figure %s <fig-a>`, "
            "{numref}`fig-here`, {cite}`meyen2025`, {cite:t}`meyen2025`")
    page = "https://o.github.io/r/book/part/02_second.html"
    bib = "https://o.github.io/r/book/bibliography.html#id2"
    assert convert(text) == (
        f"[Second]({page}), [the next one]({page}), [Exercise 2]({page}#ex-two), "
        f"Exercise 1, [A section]({page}#a-section), [Fig. 2]({page}#fig-a), "
        f"[Figure 2]({page}#fig-a), Fig. 1, \\[[Meyen et al., 2025]({bib})\\], "
        f"Meyen et al. \\[[2025]({bib})\\]")


def test_a_numbered_reference_prints_the_exercise_s_title():
    book = small_book()
    book.labels["ex-two"] = ln.Target("book/part/02_second", "ex-two", "Exercise 2", "Pooling")
    text = "{numref}`Exercise {number} ({name}) <ex-two>`"
    assert ln.Converter(book, DOC, {}, "student").convert_markdown(text) == (
        "[Exercise 2 (Pooling)](https://o.github.io/r/book/part/02_second.html#ex-two)")
    with pytest.raises(ln.ConversionError, match="'ex-one' has no title"):
        convert("{numref}`Exercise {number} ({name}) <ex-one>`")


def test_targets_and_relative_links_and_images():
    text = ("(a-section)=\n## Heading\n\n![a plot](../../figures/x.png) and "
            "[the other](02_second.ipynb#top) and [web](https://example.org)")
    assert convert(text) == (
        "## Heading\n\n![a plot](https://raw.githubusercontent.com/o/r/v1/figures/x.png) and "
        "[the other](https://o.github.io/r/book/part/02_second.html#top) and "
        "[web](https://example.org)")


def test_figures_keep_alt_text_and_number():
    text = ("```{figure} ../../figures/fig_a.png\n:name: fig-here\n:alt: Two [curves] rising\n\n"
            "The caption with $\\acc$.\n```")
    assert convert(text) == (
        "![Two \\[curves\\] rising](https://raw.githubusercontent.com/o/r/v1/figures/fig_a.png)"
        "\n\n**Fig. 1** The caption with ${\\mathrm{acc}}$.")


def test_unknown_syntax_is_an_error_not_raw_text():
    with pytest.raises(ln.ConversionError, match="role {eq}"):
        convert("see {eq}`my-eq`")
    with pytest.raises(ln.ConversionError, match="directive {tab-set}"):
        convert(":::{tab-set}\nx\n:::")
    with pytest.raises(ln.ConversionError, match="no label 'nowhere'"):
        convert("{ref}`nowhere`")
    with pytest.raises(ln.ConversionError, match="never closes"):
        convert("::::{note}\ntext\n:::")


def test_a_whole_notebook_keeps_code_ids_and_pins_the_install():
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
          "cells": [
              {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# First\n"]},
              {"cell_type": "code", "id": "c1", "metadata": {"tags": ["remove-cell"]},
               "execution_count": 3, "outputs": [{"output_type": "stream", "name": "stdout",
                                                  "text": "x"}],
               "source": '%pip install "metabits @ git+https://github.com/o/r#subdirectory=lib"'},
              {"cell_type": "code", "id": "c2", "execution_count": None, "outputs": [],
               "metadata": {"mystnb": {"figure": {"name": "fig-here", "caption": "A $\\acc$."},
                                       "image": {"alt": "a curve"}}},
               "source": "plot()"},
              {"cell_type": "markdown", "id": "m2", "metadata": {},
               "source": ":::{solution} ex-one\nOnly a solution.\n:::"}]}
    student = ln.convert_notebook(nb, small_book(), DOC, {}, "student")
    assert [c["id"] for c in student["cells"]] == ["launch-edition", "m1", "c1", "c2",
                                                   "c2-caption"]
    install = student["cells"][2]
    assert "git+https://github.com/o/r@v1#subdirectory=lib" in install["source"]
    assert install["outputs"] == [] and install["execution_count"] is None
    assert install["metadata"]["jupyter"] == {"source_hidden": True}
    assert student["cells"][4]["source"].startswith("**Fig. 1** A ${\\mathrm{acc}}$.")
    assert "<summary>Description of the figure</summary>\n\na curve" in \
        student["cells"][4]["source"]
    assert "student edition" in student["cells"][0]["source"]
    instructor = ln.convert_notebook(nb, small_book(), DOC, {}, "instructor")
    assert instructor["cells"][-1]["id"] == "m2"
    assert nb["cells"][1]["outputs"], "the book's notebook must not be changed"
    assert mk.dumps(student) == mk.dumps(ln.convert_notebook(nb, small_book(), DOC, {},
                                                             "student"))


def test_a_checked_exercise_is_followed_by_its_checker_cell_for_students():
    text = (":::{exercise}\n:label: ex-one\nCompute $\\acc$.\n:::\n\n"
            "::::{solution} ex-one\n:class: dropdown\n70%.\n::::\n\n"
            ":::{exercise}\nAnd this.\n:::\n\nAfter.")
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
          "cells": [{"cell_type": "markdown", "id": "m1", "metadata": {}, "source": text}]}
    book = small_book()
    book.checks = {"ex-one": 'check_exercise("ex-one", x=...)'}
    student = ln.convert_notebook(nb, book, DOC, {}, "student")["cells"][1:]
    assert [(c["cell_type"], c["id"]) for c in student] == [
        ("markdown", "m1"), ("code", "check-ex-one"), ("markdown", "m1-1")]
    assert student[0]["source"] == "**Exercise 1**\n\nCompute ${\\mathrm{acc}}$."
    assert student[1]["source"] == 'check_exercise("ex-one", x=...)'
    assert student[1]["outputs"] == [] and student[1]["metadata"]["tags"] == ["exercise-check"]
    assert student[2]["source"].startswith("**Exercise**\n\nAnd this.")
    instructor = ln.convert_notebook(nb, book, DOC, {}, "instructor")["cells"][1:]
    assert [c["id"] for c in instructor] == ["m1"] and "\x00" not in instructor[0]["source"]


def test_wall_times_are_marked_and_not_compared():
    glue = {"study_seconds": {"data": {"text/plain": "0.4812"}},
            "n_seconds_total": {"data": {"text/plain": "3"}}}
    text = convert("took {glue:text}`study_seconds:.2f` s", glue=glue)
    assert text == f'took <span title="{ln.WALL_TIME_TITLE}">0.48</span> s'
    assert convert("{glue:text}`n_seconds_total`", glue=glue) == "3"
    other = text.replace("0.48", "0.40")
    as_json = [json.dumps({"source": t}) for t in (text, other)]
    assert mk.same(*as_json) and not mk.same(as_json[0], as_json[0].replace("took", "tok"))


# ---------------------------------------------------------------------------------------------
# the Markdown pages' directives on small inputs

PAGE = "book/page"


def page_book() -> ln.Book:
    book = small_book()
    book.titles[PAGE] = "A page"
    site = book.site + "book/library.html#"
    book.api = {
        "pkg": ln.ApiObject("pkg", "module", "book/library", "module-pkg", "",
                            "The package: $x$ and more."),
        "pkg.f": ln.ApiObject("pkg.f", "function", "book/library", "pkg.f", "(x, *, n=2)",
                              "Compute `f`."),
        "pkg.C": ln.ApiObject("pkg.C", "class", "book/library", "pkg.C", "(a)", "A class."),
        "pkg.C.m": ln.ApiObject("pkg.C.m", "method", "book/library", "pkg.C.m", "()", "Meth."),
        "pkg.X": ln.ApiObject("pkg.X", "data", "book/library", "pkg.X", "", ""),
        "pkg.sub": ln.ApiObject("pkg.sub", "module", "book/library", "module-pkg.sub"),
    }
    book.bibliography = {PAGE: [ln.Reference("meyen2025", "Meyen et al., 2025", "id2",
                                             "Sascha Meyen\\. *Measures*\\.")]}
    book.executions = [("book/part/01_first",
                        {"mtime": "2026-01-01 10:00", "method": "force", "runtime": "4.5",
                         "succeeded": "✅"})]
    assert site  # anchors are on the website's API page
    return book


def convert_md(text: str, book: ln.Book | None = None, doc: str = PAGE) -> str:
    return ln.Converter(book or page_book(), doc, {}, "instructor").convert_markdown(text)


def test_only_shows_what_the_published_website_shows():
    text = ('```{only} html and metabits_pdf\nThe <a href="../metabits.pdf">PDF</a>.\n```\n\n'
            "```{only} latex\nPrinted only.\n```\nAfter.")
    book = page_book()
    book.tags = frozenset({"html", "metabits_pdf"})
    # raw HTML was written for the website's address of the page, so it is resolved there
    assert convert_md(text, book) == ('The <a href="https://o.github.io/r/metabits.pdf">PDF</a>.'
                                      "\n\nAfter.")
    book.tags = frozenset({"html"})
    assert convert_md(text, book) == "After."
    with pytest.raises(ln.ConversionError, match="cannot read {only}"):
        convert_md("```{only} html and (\nx\n```", book)


def test_only_is_read_with_the_published_websites_tags():
    # the publishing workflow builds the PDF first, so its website sets _ext/metabits_pdf's tag
    import importlib.util

    spec = importlib.util.spec_from_file_location("metabits_pdf", ROOT / "_ext" / "metabits_pdf.py")
    pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pdf)
    assert {"html", pdf.TAG} <= mk.PUBLISHED_TAGS
    intro = _page("book/intro")
    assert f'<a href="{_site()}{pdf.SITE_NAME}">' in intro


def test_autodoc_becomes_module_headings_and_linked_names():
    book = page_book()
    book.titles["book/library"] = "Library"
    text = ("## Section\n\n```{eval-rst}\n.. automodule:: pkg\n   :members:\n"
            "   :exclude-members: g,\n      h\n\n.. autodata:: pkg.X\n   :no-value:\n```\n\n"
            "### Sub\n\n```{eval-rst}\n.. automodule:: pkg.sub\n\n.. autoclass:: pkg.C\n```")
    api = "https://o.github.io/r/book/library.html#"
    # a module's members are the names the website documents in it (not a class's methods),
    # each once; module headings go one level below the page's last heading
    assert convert_md(text, book, "book/library") == (
        f"## Section\n\n### [pkg]({api}module-pkg)\n\nThe package: $x$ and more.\n\n"
        f"- [**f**]({api}pkg.f)`(x, *, n=2)` — Compute `f`.\n"
        f"- class [**C**]({api}pkg.C)`(a)` — A class.\n- data [**X**]({api}pkg.X)\n\n"
        f"### Sub\n\n#### [pkg.sub]({api}module-pkg.sub)\n\n"
        f"- class [**C**]({api}pkg.C)`(a)` — A class.")


def test_autodoc_of_something_the_website_does_not_document_is_an_error():
    with pytest.raises(ln.ConversionError, match="documents no 'pkg.nowhere'"):
        convert_md("```{eval-rst}\n.. autofunction:: pkg.nowhere\n```")
    with pytest.raises(ln.ConversionError, match="reStructuredText directive toctree"):
        convert_md("```{eval-rst}\n.. toctree::\n```")
    with pytest.raises(ln.ConversionError, match="cannot read 'Some text'"):
        convert_md("```{eval-rst}\nSome text\n```")


def test_bibliography_and_execution_table():
    assert convert_md("```{bibliography}\n:all:\n```") == (
        "- **\\[Meyen et al., 2025\\]** Sascha Meyen\\. *Measures*\\.")
    with pytest.raises(ln.ConversionError, match="no bibliography"):
        convert_md("```{bibliography}\n```", doc=DOC)
    table = convert_md("```{nb-exec-table}\n```")
    page = "https://o.github.io/r/book/part/01_first.html"
    assert table == (
        "| Document | Modified | Method | Run Time (s) | Status |\n"
        "| --- | --- | --- | --- | --- |\n"
        f"| [book/part/01\\_first]({page}) | <span title=\"{ln.BUILD_TIME_TITLE}\">2026-01-01 "
        f"10:00</span> | <span title=\"{ln.BUILD_METHOD_TITLE}\">force</span> | "
        f"<span title=\"{ln.WALL_TIME_TITLE}\">4.5</span> | ✅ |")
    # another build (the test suite's runs from the cache, at another time) is the same file
    other = table.replace("10:00", "11:00").replace("force", "cache").replace("4.5", "3.2")
    assert mk.same(table, other) and not mk.same(table, table.replace("✅", "❌"))


def test_docstring_paragraphs_as_markdown():
    from docutils import nodes
    from sphinx import addnodes

    xref = addnodes.pending_xref("", nodes.literal("", "pkg.f()"), refdomain="py",
                                 reftarget="pkg.f")
    para = nodes.paragraph("", "", nodes.Text("Use "), xref, nodes.Text(" with "),
                           nodes.emphasis("", "care"), nodes.Text(" (x_1 < 2)."))
    links = {"pkg.f": "https://o.github.io/r/book/library.html#pkg.f"}
    assert ln.docutils_markdown(para, {}, links.get) == (
        "Use [`pkg.f()`](https://o.github.io/r/book/library.html#pkg.f) with *care* "
        "(x\\_1 \\< 2).")
    # a name written inside its module, as autodoc's cross-references are
    short = addnodes.pending_xref("", nodes.literal("", "f()"), refdomain="py", reftarget="f",
                                  **{"py:module": "pkg"})
    assert ln.docutils_markdown(nodes.paragraph("", "", short), {}, links.get) == (
        "[`f()`](https://o.github.io/r/book/library.html#pkg.f)")
    with pytest.raises(ln.ConversionError, match="docutils node <footnote_reference>"):
        ln.docutils_markdown(nodes.paragraph("", "", nodes.footnote_reference("", "1")), {},
                             links.get)


def test_a_page_gets_a_note_under_its_title():
    text = ln.convert_page("# A page\n\nSee {doc}`part/02_second`.\n", page_book(), PAGE)
    assert text == (
        "# A page\n\n*This is the page [“A page”](https://o.github.io/r/book/page.html) of the "
        "book [The book](https://o.github.io/r/) as plain Markdown.*\n\nSee "
        "[Second](https://o.github.io/r/book/part/02_second.html).\n")


def test_docstring_examples():
    import doctest

    for module in (ln, mk):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_website_address_comes_from_the_repository():
    assert mk.website("https://github.com/o/r") == "https://o.github.io/r/"
    assert mk.website("https://github.com/o/o.github.io") == "https://o.github.io/"
    assert mk.website("https://github.com/o/r", "https://book.org") == "https://book.org/"


# ---------------------------------------------------------------------------------------------
# the committed launch notebooks

#: the TeX commands the launch notebooks may use: MathJax's own (those the book uses today; add
#: a new one here once you have checked that MathJax knows it)
KNOWN_TEX = set("""
Big Delta Phi approx arg begin big bigl bigr binom cdot chi cup dots end frac gamma ge hat in
infty lambda le left lfloor ln log mapsto mathbb mathcal mathrm max mid min mp mu ne operatorname
overline pm prod qquad quad rfloor right sigma sim sqrt sum text textstyle tfrac tilde times to
underbrace varepsilon varphi widehat
""".split())
#: fenced code blocks only, and a role outside a code span: removing the code spans too (as
#: _CODE does) would also remove a role's `content` and so hide the role
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1\s*$", re.M | re.S)
ROLE = re.compile(r"(?<!`)\{[a-z][\w:-]*\}`")
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(.+?)(?<!\\)\$", re.S)


def _math(text: str) -> list[str]:
    text = _CODE.sub("", text)
    return [m.group(1) or m.group(2) for m in _MATH.finditer(text)]


def test_the_math_extractor():
    text = "a $\\acc$ b `$\\x$` c $$\\frac1\\acc$$ d \\$5 and \\$6"
    assert _math(text) == ["\\acc", "\\frac1\\acc"]


def test_launch_buttons_open_the_student_edition():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["repository"]["path_to_book"] == f"{mk.LAUNCH}/student"


def test_every_notebook_of_the_book_is_launchable():
    have = sorted(p.relative_to(LAUNCH).as_posix() for p in LAUNCH.rglob("*.ipynb"))
    assert have == sorted(f"{e}/{d}.ipynb" for e, d in LAUNCHED), \
        "launch/ does not match the book's notebooks: run bash scripts/build-book.sh and commit"


@pytest.mark.parametrize("edition,doc", LAUNCHED, ids=lambda x: x)
def test_no_myst_and_no_undefined_macro(edition, doc):
    text = _markdown(LAUNCH / edition / f"{doc}.ipynb")
    assert "\x00" not in text, "a checker marker left in the Markdown"
    assert not ROLE.findall(_FENCE.sub("", text))
    prose = _CODE.sub("", text)
    found = {what: pattern.findall(prose) for what, pattern in MYST.items()}
    assert not any(found.values()), {k: v[:3] for k, v in found.items() if v}
    unknown = {name for math in _math(text) for name in re.findall(r"\\([A-Za-z]+)", math)
               } - KNOWN_TEX
    assert not unknown, f"TeX commands that plain MathJax does not define: {sorted(unknown)}"


@pytest.mark.parametrize("doc", NOTEBOOKS)
def test_solutions_are_absent_for_students_and_folded_for_instructors(doc):
    source = _markdown(ROOT / f"{doc}.ipynb")
    exercises = len(re.findall(r"^:{3,}\{exercise\}", source, re.M))
    solutions = len(re.findall(r"^:{3,}\{solution\}", source, re.M))
    student = _markdown(LAUNCH / "student" / f"{doc}.ipynb")
    instructor = _markdown(LAUNCH / "instructor" / f"{doc}.ipynb")
    for text in (student, instructor):
        assert len(re.findall(r"^\*\*Exercise \d+\*\*", text, re.M)) == exercises
    assert "Solution to" not in student and "<details>" not in student.replace(
        "<details>\n<summary>Description of the figure", "")
    folded = re.findall(r"^<details>\n<summary>Solution to Exercise \d+</summary>$",
                        instructor, re.M)
    assert len(folded) == solutions
    assert instructor.count("<details>") == instructor.count("</details>")


def _checker(cell: dict) -> bool:
    return "exercise-check" in cell.get("metadata", {}).get("tags", [])


@pytest.mark.parametrize("edition,doc", LAUNCHED, ids=lambda x: x)
def test_code_cells_are_the_books_own(edition, doc):
    book = [c for c in _cells(ROOT / f"{doc}.ipynb") if c["cell_type"] == "code"]
    launch = [c for c in _cells(LAUNCH / edition / f"{doc}.ipynb")
              if c["cell_type"] == "code" and not _checker(c)]
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    url, ref = config["repository"]["url"], config["repository"]["branch"]
    assert [c["id"] for c in launch] == [c["id"] for c in book]
    for b, l in zip(book, launch):
        assert l["source"] == b["source"].replace(f"git+{url}#", f"git+{url}@{ref}#")
        assert l["outputs"] == []


def test_checked_exercises_have_their_checker_in_the_student_edition_only():
    from metabits_book.checks import EXERCISES, checker_code

    found = {}
    for doc in NOTEBOOKS:
        assert not any(_checker(c) for c in _cells(LAUNCH / "instructor" / f"{doc}.ipynb"))
        cells = _cells(LAUNCH / "student" / f"{doc}.ipynb")
        for before, cell in zip(cells, cells[1:]):
            if _checker(cell):
                label = cell["id"].removeprefix("check-")
                found[label] = doc
                assert cell["source"] == checker_code(label)
                # right after its exercise: the Markdown cell before it ends with the exercise
                assert before["cell_type"] == "markdown"
                last = before["source"].rsplit("**Exercise", 1)[-1]
                assert "\n\n**" not in last.split("\n\n", 1)[-1], (doc, label)
    assert sorted(found) == sorted(EXERCISES)


# ---------------------------------------------------------------------------------------------
# the committed Markdown pages (launch/instructor/book/<page>.md)

#: reStructuredText and MyST-only syntax a page might leave besides MYST's
PAGE_MYST = {
    "a reStructuredText directive": re.compile(r"^\s*\.\. [\w:-]+::", re.M),
    "a MyST comment": re.compile(r"^%[^%]", re.M),
}
_LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)|\b(?:href|src)=\"([^\"]+)\"")


def _page(doc: str) -> str:
    return (LAUNCH / ln.PAGE_EDITION / f"{doc}.md").read_text(encoding="utf-8")


def _site() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return mk.website(config["repository"]["url"], config.get("html", {}).get("baseurl", ""))


def test_every_markdown_page_has_its_plain_version():
    assert PAGES, "no Markdown pages in _toc.yml?"
    have = sorted(p.relative_to(LAUNCH).as_posix() for p in LAUNCH.rglob("*.md"))
    assert have == sorted(f"{ln.PAGE_EDITION}/{d}.md" for d in PAGES), \
        "launch/ does not match the book's pages: run bash scripts/build-book.sh and commit"


@pytest.mark.parametrize("doc", PAGES)
def test_pages_have_no_myst_and_no_undefined_macro(doc):
    text = _page(doc)
    assert "\x00" not in text
    assert ROLE.findall(_FENCE.sub("", (ROOT / f"{doc}.md").read_text(encoding="utf-8"))) or \
        doc == "book/bibliography", "the check would find the roles of the source"
    assert not ROLE.findall(_FENCE.sub("", text))
    prose = _CODE.sub("", text)
    found = {what: pattern.findall(prose) for what, pattern in {**MYST, **PAGE_MYST}.items()}
    assert not any(found.values()), {k: v[:3] for k, v in found.items() if v}
    unknown = {name for math in _math(text) for name in re.findall(r"\\([A-Za-z]+)", math)
               } - KNOWN_TEX
    assert not unknown, f"TeX commands that plain MathJax does not define: {sorted(unknown)}"
    assert text.startswith("# ") and f"]({_site()}{doc}.html)" in text.split("\n\n")[1]


def _site_links(text: str) -> list[tuple[str, str]]:
    """(path on the website, anchor) of every link into the website."""
    site = _site()
    out = []
    for m in _LINK_TARGET.finditer(_CODE.sub("", text)):
        target = m.group(1) or m.group(2)
        if target.startswith(site):
            path, _, anchor = target[len(site):].partition("#")
            out.append((path, anchor))
    return out


@pytest.mark.parametrize("doc", PAGES)
def test_page_links_are_absolute_and_point_at_the_website(doc):
    text = _page(doc)
    targets = [m.group(1) or m.group(2) for m in _LINK_TARGET.finditer(_CODE.sub("", text))]
    assert targets and all(re.match(r"^https?://", t) for t in targets), \
        [t for t in targets if not re.match(r"^https?://", t)][:5]
    pages = {f"{d}.html" for d in NOTEBOOKS + PAGES} | {"", "metabits.pdf"}
    links = _site_links(text)
    assert links and all(path in pages for path, _ in links), \
        [p for p, _ in links if p not in pages][:5]


def test_page_links_resolve_on_the_built_site(built_site):
    """Every page and anchor the converted pages link to exists in the test run's build."""
    assert not _broken_site_links(Path(built_site))


def _broken_site_links(html: Path) -> list[str]:
    broken, ids = [], {}
    for doc in PAGES:
        for path, anchor in _site_links(_page(doc)):
            if path in ("", "metabits.pdf"):  # the site's root; the PDF the publishing adds
                continue
            if path not in ids:
                page = html / path
                ids[path] = set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8"))
                                ) if page.is_file() else None
            if ids[path] is None or (anchor and anchor not in ids[path]):
                broken.append(f"{doc}: {path}#{anchor}")
    return broken


def test_bibliography_lists_every_cited_work():
    from pybtex.database import parse_file

    entries = parse_file(str(ROOT / "references.bib")).entries
    cited = set()
    for path in list((ROOT / "book").rglob("*.md")) + list((ROOT / "book").rglob("*.ipynb")):
        for m in re.finditer(r"\{cite(?::[pt])?\}`([^`]+)`", path.read_text(encoding="utf-8")):
            cited |= {key.strip() for key in m.group(1).split(",")}
    assert cited and cited <= set(entries)
    page = re.sub(r"\\(.)", r"\1", _page("book/bibliography")).lower()  # Markdown escapes off
    missing = [key for key in sorted(cited) if re.sub(
        r"[{}]", "", entries[key].fields["title"]).lower() not in page]
    assert not missing
    # the bibliography lists every entry (":all:"), each led by its label
    assert len(re.findall(r"^- \*\*\\\[.+?\\\]\*\* ", _page("book/bibliography"), re.M)) == \
        len(entries)


def test_library_page_lists_every_module_the_website_documents():
    source = (ROOT / "book" / "library.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\.\. automodule:: (\S+)", source, re.M)
    page = _page("book/library")
    site = _site() + "book/library.html#"
    headings = re.findall(r"^#{3,6} \[(.+?)\]\(" + re.escape(site) + r"module-(\S+?)\)$",
                          page, re.M)
    assert [name.replace("\\_", "_") for name, _ in headings] == documented
    assert [anchor for _, anchor in headings] == documented
    # each module's public names, linked to their entries on the website
    items = re.findall(r"^- (?:\w+ )?\[\*\*(.+?)\*\*\]\(" + re.escape(site) + r"(\S+?)\)", page,
                       re.M)
    names = {anchor for _, anchor in items}
    for name in ("metabits.info.info_bounds", "metabits.results.Result",
                 "metabits.io.read_confidence_database", "metabits.all_measures"):
        assert name in names
    assert not [name for name in names if name.startswith("metabits_book")]
    assert len(items) == len(names), "a name listed twice"


EXECUTED = [("student", "book/meyen/01_confidence_information"),
            ("instructor", "book/meyen/10_explorers")]


@pytest.mark.slow  # a fresh kernel per notebook
@pytest.mark.parametrize("edition,doc", EXECUTED, ids=lambda x: x)
def test_launch_notebook_runs_on_a_fresh_kernel(edition, doc, tmp_path):
    """Run as Binder or Colab would, away from the book (figures go to ./figures there)."""
    import nbformat
    from nbclient import NotebookClient

    path = tmp_path / Path(doc).name
    shutil.copy(LAUNCH / edition / f"{doc}.ipynb", path)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    if "explorers" in doc:  # the explorers are live: ipywidgets views, not static pictures
        views = [c for c in nb.cells if c.cell_type == "code" and any(
            "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c.outputs)]
        assert len(views) >= 4
    assert not (LAUNCH / edition / Path(doc).parent / "figures").exists()


@pytest.mark.build
def test_committed_launch_notebooks_are_what_the_build_gives(book_build):
    if not (book_build.html / "index.html").is_file():
        pytest.fail("the book did not build:\n" + book_build.log[-3000:])
    expected = mk.convert_all(book_build.html.parent)
    problems = mk.differences(expected, LAUNCH)
    assert not problems, (
        "launch/ is out of date: run `bash scripts/build-book.sh` (or, after a build, "
        "`.venv/bin/python scripts/make_launch_notebooks.py`) and commit launch/\n"
        + "\n".join(problems))


def test_downloads_replace_the_sources_the_website_serves(tmp_path):
    """make_launch_notebooks --downloads EDITION writes that edition's notebooks over the
    site's _sources copies (what the download button fetches), and only over existing ones."""
    import make_launch_notebooks as mln

    sources = tmp_path / "html" / "_sources" / "book" / "meyen"
    sources.mkdir(parents=True)
    (sources / "03_bounds.ipynb").write_text("MyST source", encoding="utf-8")
    expected = {"student/book/meyen/03_bounds.ipynb": "student text",
                "instructor/book/meyen/03_bounds.ipynb": "instructor text",
                "student/book/meyen/04_roc.ipynb": "not on this site",
                "instructor/book/intro.md": "a page"}
    written = mln.publish_downloads(expected, tmp_path, "student")
    assert written == [sources / "03_bounds.ipynb"]
    assert (sources / "03_bounds.ipynb").read_text(encoding="utf-8") == "student text"
    assert not (sources / "04_roc.ipynb").exists()
    mln.publish_downloads(expected, tmp_path, "instructor")
    assert (sources / "03_bounds.ipynb").read_text(encoding="utf-8") == "instructor text"
