"""Turn the book's MyST notebooks into plain notebooks that read well in Jupyter, Binder and Colab.

The book's notebooks are written for MyST-NB: numbers are ``{glue:text}`` roles, theorems and
exercises are ``{prf:...}`` / ``{exercise}`` directives, solutions follow their exercises and the
math uses macros (``\\acc``) that only the website's MathJax configuration defines. Opened as they
are in Jupyter or Colab, a student reads raw MyST. After a book build, this module rewrites each
notebook's Markdown cells into plain (CommonMark + math) Markdown, using what the build knows:

* ``{glue:text}`key:fmt``` -> the text the website shows (MyST-NB's own formatter on the
  value in ``_build/jupyter_execute/<doc>.glue.json``), Markdown characters escaped; a wall time
  (a key ending in ``_seconds``) inside a ``<span title="wall time ...">``;
* ``{exercise}``, ``{prf:...}``, ``{admonition}``, ``{note}`` ... -> a bold lead-in with the
  number the website gives (``**Exercise 3**``), then the content; ``{prf:proof}`` -> *Proof.* … ∎;
* ``{solution}`` -> removed (student edition) or a ``<details>`` block (instructor edition);
* in the student edition, an exercise with a checker (:data:`Book.checks`, from
  :mod:`metabits_book.checks`) is followed by a code cell that checks the student's numbers;
* ``{figure}`` -> an image with its alt text, at an absolute address of the release, and its
  numbered caption; a code cell that draws a numbered figure gets its caption in a Markdown cell
  after it (the figure itself appears when the cell runs);
* ``{doc}``, ``{ref}``, ``{numref}``, ``{cite}`` -> text with a link to the website (a link
  within the same notebook becomes text: Colab cannot follow it);
* the MathJax macros of ``_config.yml`` -> their definitions, braced (``\\frac1\\acc`` ->
  ``\\frac1{\\mathrm{acc}}``), leaving longer names alone (``\\infty`` is not ``\\info``);
* the Colab install line -> installs the library from the release the launch buttons open.

The book's Markdown pages (``book/intro.md`` ...) become plain Markdown files the same way
(:func:`convert_page`), with their own directives rendered from what the build knows:

* ``{only}`` -> its content when the published website shows it (:attr:`Book.tags`), else nothing;
* ``{eval-rst}`` holding ``.. automodule::`` / ``.. autoclass::`` ... (the API page) -> for each
  module a heading, the first paragraph of its docstring and a list of the public names the
  website documents, each with its signature, a link to its entry on the website and the first
  paragraph of its docstring (:attr:`Book.api`);
* ``{bibliography}`` -> the formatted reference list (:attr:`Book.bibliography`);
* ``{nb-exec-table}`` -> the table of executed notebooks (:attr:`Book.executions`).

Code cells are copied unchanged (their ids too, so the output is deterministic); cells the
website hides are collapsed. Any role or directive this module does not know is an error, so a
new MyST feature in a chapter fails the tests instead of reaching students as raw text.

This module reads nothing from the build itself; :mod:`make_launch_notebooks` collects the build's
facts into a :class:`Book` and writes the files. ``tests/test_launch_notebooks.py`` tests both.
"""

from __future__ import annotations

import copy
import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable

EDITIONS = ("student", "instructor")

#: a line opening a directive: ```{name} argument  or  :::{name} argument
_DIRECTIVE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}"
                             r"\s*(?P<arg>.*?)\s*$")
#: a line opening a plain code fence
_CODE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
#: a directive option line at the top of its body
_OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
#: a MyST target line ``(label)=``
_TARGET = re.compile(r"^\s*\([\w.:-]+\)=\s*$")
#: a role, or a code span (left alone)
_INLINE = re.compile(r"(?P<role>\{(?P<name>[a-z][\w:-]*)\}`(?P<content>[^`]*)`)"
                     r"|(?P<code>(?P<ticks>`+)(?:.|\n)*?(?<!`)(?P=ticks)(?!`))")
#: an explicit title in a reference role: ``text <target>``
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
#: a link or image address in raw HTML
_HTML_LINK = re.compile(r'(?P<attr>\b(?:href|src))="(?P<target>[^"]+)"')
#: an ATX heading
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s")
#: a reStructuredText directive line inside ``{eval-rst}``
_RST_DIRECTIVE = re.compile(r"^\.\. (?P<name>[\w:-]+)::\s*(?P<arg>.*?)\s*$")
#: Markdown images and links with a relative target
_LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?P<rest>[^)]*)\)")
#: where a checker cell follows an exercise: a marker left in the converted Markdown, split off
#: by :func:`convert_notebook` (NUL characters cannot come from a notebook's text)
_CHECK = re.compile("\x00check:([\\w.:-]+)\x00")
#: characters a pasted text must not bring into Markdown
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}<>$|#])")


#: glued values that are wall times (``study_seconds``): they change from build to build, so
#: they are marked, and :func:`make_launch_notebooks.differences` does not compare them
WALL_TIME = re.compile(r"_seconds$")
WALL_TIME_TITLE = "wall time on the machine that built the book"
#: the titles of the other build-dependent text of the status page's execution table: when
#: and how the build executed a notebook ("force", or "cache" in the test suite's build)
BUILD_TIME_TITLE = "when the book was built"
BUILD_METHOD_TITLE = "how the book's build executed it"
#: every title that marks text :func:`make_launch_notebooks.same` does not compare
VARYING_TITLES = (WALL_TIME_TITLE, BUILD_TIME_TITLE, BUILD_METHOD_TITLE)


class ConversionError(ValueError):
    """Something in a notebook this converter cannot turn into plain Markdown."""


@dataclass(frozen=True)
class ApiObject:
    """One entry of the website's API page (a module, function, class, datum ...).

    ``signature`` is the parameter list as the website shows it (``"(acc, L=2)"``, or ``""``);
    ``summary`` the first paragraph of its docstring as the website renders it, in Markdown.
    """

    name: str
    objtype: str
    docname: str
    anchor: str
    signature: str = ""
    summary: str = ""


@dataclass(frozen=True)
class Reference:
    """One entry of a ``{bibliography}``: its label (``Meyen et al., 2025``), anchor and text."""

    key: str
    label: str
    anchor: str
    text: str


@dataclass(frozen=True)
class Target:
    """Where a label points and what a reference to it says (``name``: the title that
    ``{name}`` in a ``{numref}`` prints, e.g. an exercise's)."""

    docname: str
    anchor: str
    text: str
    name: str = ""


@dataclass
class Book:
    """What the converter needs to know about the whole book (collected from a build).

    Parameters
    ----------
    site : str
        the website's address, ending with ``/`` (links go to ``site + docname + ".html"``).
    raw : str
        where the repository's files of the release are served, ending with ``/``
        (images: ``raw + "figures/x.png"``).
    install : tuple of (str, str)
        the Colab install address as in the notebooks and as it should read in the launch
        notebooks (the release pinned).
    titles : dict
        docname -> title.
    labels : dict
        label -> :class:`Target` (sections, exercises, theorems, figures).
    numbers : dict
        (docname, kind, id) -> the number's text, e.g. ``("book/x", "figure", "fig-a") -> "3"``.
    numfig_format : dict
        kind -> format, e.g. ``{"figure": "Fig. %s", "exercise": "Exercise %s"}``.
    citations : dict
        BibTeX key -> (authors, year, docname, anchor).
    macros : dict
        MathJax macro name (no backslash) -> its definition.
    checks : dict
        exercise label -> the code of the cell that checks its answers (student edition).
    tags : frozenset
        the Sphinx tags ``{only}`` is evaluated against (those of the published website).
    api : dict
        fully qualified name -> :class:`ApiObject`, every object the website documents, in the
        order of its pages.
    bibliography : dict
        docname -> the :class:`Reference` list its ``{bibliography}`` shows, in its order.
    executions : list
        (docname, {column: text}) for each executed notebook, as MyST-NB's ``{nb-exec-table}``
        shows it; the columns are ``mtime``, ``method``, ``runtime`` and ``succeeded``.
    """

    site: str
    raw: str
    title: str = "metabits"
    install: tuple[str, str] = ("", "")
    titles: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    numbers: dict = field(default_factory=dict)
    numfig_format: dict = field(default_factory=dict)
    citations: dict = field(default_factory=dict)
    macros: dict = field(default_factory=dict)
    proof_title_format: str = " (%t)"
    checks: dict = field(default_factory=dict)
    tags: frozenset = frozenset({"html"})
    api: dict = field(default_factory=dict)
    bibliography: dict = field(default_factory=dict)
    executions: list = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# inline text: roles, macros, pasted values


def escape_markdown(text: str) -> str:
    """Backslash-escape the characters that would make pasted text Markdown or math.

    Examples
    --------
    >>> escape_markdown("a_b *c* $5 | x")
    'a\\\\_b \\\\*c\\\\* \\\\$5 \\\\| x'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def expand_macros(text: str, macros: dict) -> str:
    """Replace each macro by its definition in braces; longer names and ``\\\\`` stay.

    Examples
    --------
    >>> m = {"acc": r"\\mathrm{acc}", "info": r"\\mathrm{info}"}
    >>> expand_macros(r"\\frac1\\acc + \\info - \\infty \\\\info", m)
    '\\\\frac1{\\\\mathrm{acc}} + {\\\\mathrm{info}} - \\\\infty \\\\\\\\info'
    """
    if not macros:
        return text
    names = "|".join(sorted(map(re.escape, macros), key=len, reverse=True))
    pattern = re.compile(r"(?<!\\)((?:\\\\)*)\\(" + names + r")(?![A-Za-z])")
    for _ in range(10):  # definitions may use other macros
        new = pattern.sub(lambda m: m.group(1) + "{" + macros[m.group(2)] + "}", text)
        if new == text:
            return new
        text = new
    raise ConversionError("the macros' definitions refer to each other in a loop")


def docutils_markdown(node, macros: dict, link: Callable[[str], str | None]) -> str:
    """One docutils paragraph (a docstring's, as the website renders it) as inline Markdown.

    ``link`` gives the website's address of a cross-referenced Python name (or None: text).
    A node this function does not know is an error, as an unknown role is.

    Examples
    --------
    >>> from docutils import nodes
    >>> p = nodes.paragraph("", "", nodes.Text("Bits of "), nodes.literal("", "a*b"),
    ...                     nodes.Text(", "), nodes.math("", "x^2"), nodes.Text(" [1]."))
    >>> print(docutils_markdown(p, {}, lambda name: None))
    Bits of `a*b`, $x^2$ \\[1\\].
    """
    from docutils import nodes  # pinned: requirements.txt (Sphinx's)

    def walk(n) -> str:
        if isinstance(n, nodes.Text):
            return escape_markdown(n.astext())
        if isinstance(n, nodes.literal):
            return _code_span(n.astext())
        if isinstance(n, nodes.math):
            return "$" + expand_macros(n.astext(), macros) + "$"
        inner = "".join(walk(c) for c in n.children)
        if isinstance(n, (nodes.paragraph, nodes.inline)):
            return inner
        if isinstance(n, nodes.emphasis):
            return f"*{inner}*"
        if isinstance(n, nodes.strong):
            return f"**{inner}**"
        if isinstance(n, nodes.reference) and n.get("refuri"):
            return f"[{inner}]({n['refuri']})"
        if n.tagname == "pending_xref":  # sphinx.addnodes.pending_xref, not yet resolved
            url = None
            if n.get("refdomain") == "py":
                # the name as written, then inside the module and class it was written in
                target = n.get("reftarget", "").lstrip(".~")
                module, cls = n.get("py:module"), n.get("py:class")
                for name in (target, f"{module}.{target}" if module else None,
                             f"{module}.{cls}.{target}" if module and cls else None):
                    if name and (url := link(name)):
                        break
            return f"[{inner}]({url})" if url else inner
        raise ConversionError(f"no conversion for the docutils node <{n.tagname}> in "
                              f"{n.astext()[:60]!r}")

    return " ".join(walk(node).split("\n"))


def _code_span(text: str) -> str:
    """``text`` as a Markdown code span, fenced by more backticks than it holds."""
    ticks = "`" * (max((len(t) for t in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _split_titled(content: str) -> tuple[str | None, str]:
    m = _TITLED.match(content.strip())
    if m:
        return m.group("title"), m.group("target").strip()
    return None, content.strip()


class Converter:
    """Converts the Markdown cells of one notebook of :class:`Book` for one edition."""

    def __init__(self, book: Book, docname: str, glue: dict, edition: str):
        if edition not in EDITIONS:
            raise ValueError(f"edition must be one of {EDITIONS}, not {edition!r}")
        self.book, self.docname, self.glue, self.edition = book, docname, glue, edition
        self.roles: dict[str, Callable[[str], str]] = {
            "glue:text": self.role_glue_text,
            "doc": self.role_doc,
            "ref": self.role_ref,
            "numref": self.role_numref,
            "cite": self.role_cite_p,
            "cite:p": self.role_cite_p,
            "cite:t": self.role_cite_t,
            "math": lambda c: f"${c}$",
        }
        #: the level of the last Markdown heading seen (the API page's module headings go below)
        self.heading_level = 1

    # ----- links
    def page_url(self, docname: str, anchor: str = "") -> str:
        return self.book.site + docname + ".html" + (f"#{anchor}" if anchor else "")

    def link(self, text: str, docname: str, anchor: str = "") -> str:
        """A link to the website, or plain text when it points into this notebook."""
        if docname == self.docname:
            return text
        return f"[{text}]({self.page_url(docname, anchor)})"

    def resolve_doc(self, target: str) -> str:
        if target.startswith("/"):
            doc = target.lstrip("/")
        else:
            doc = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), target))
        if doc.endswith((".ipynb", ".md")):
            doc = doc.rsplit(".", 1)[0]
        if doc not in self.book.titles:
            raise ConversionError(f"{self.docname}: no document {target!r}")
        return doc

    # ----- roles
    def role_glue_text(self, content: str) -> str:
        from myst_nb.core.variables import format_plain_text  # pinned: requirements.txt

        key, _, fmt = content.rpartition(":")
        if not key:
            key, fmt = fmt, "s"
        if "::" in key:
            raise ConversionError(f"{self.docname}: glue from another document: {content!r}")
        if key not in self.glue:
            raise ConversionError(f"{self.docname}: no glued value {key!r}")
        data = self.glue[key].get("data", {})
        if "text/plain" not in data:
            raise ConversionError(f"{self.docname}: glued value {key!r} has no text/plain")
        text = escape_markdown(format_plain_text(data["text/plain"], fmt))
        if WALL_TIME.search(key):
            return f'<span title="{WALL_TIME_TITLE}">{text}</span>'
        return text

    def role_doc(self, content: str) -> str:
        title, target = _split_titled(content)
        doc = self.resolve_doc(target)
        return self.link(self.convert_inline(title) if title else self.book.titles[doc], doc)

    def _target(self, label: str) -> Target:
        for key in (label, label.lower()):  # Sphinx keeps labels in lower case
            if key in self.book.labels:
                return self.book.labels[key]
        raise ConversionError(f"{self.docname}: no label {label!r}")

    def role_ref(self, content: str) -> str:
        title, label = _split_titled(content)
        target = self._target(label)
        return self.link(self.convert_inline(title) if title else target.text,
                         target.docname, target.anchor)

    def role_numref(self, content: str) -> str:
        title, label = _split_titled(content)
        target = self._target(label)
        kind, number = self.number_of(label)
        fmt = title if title else self.book.numfig_format.get(kind, "%s")
        if "{name}" in fmt and not target.name:
            raise ConversionError(f"{self.docname}: {label!r} has no title for {{name}}")
        text = fmt.replace("%s", number).replace("{number}", number).replace("{name}",
                                                                              target.name)
        return self.link(text, target.docname, target.anchor)

    def number_of(self, label: str) -> tuple[str, str]:
        target = self._target(label)
        for (doc, kind, ident), number in self.book.numbers.items():
            if doc == target.docname and ident == target.anchor:
                return kind, number
        raise ConversionError(f"{self.docname}: {label!r} has no number")

    def _citation(self, key: str) -> tuple[str, str, str]:
        if key not in self.book.citations:
            raise ConversionError(f"{self.docname}: no citation {key!r}")
        authors, year, doc, anchor = self.book.citations[key]
        return authors, year, self.page_url(doc, anchor)

    def role_cite_p(self, content: str) -> str:
        parts = []
        for key in (k.strip() for k in content.split(",")):
            authors, year, url = self._citation(key)
            parts.append(f"[{authors}, {year}]({url})")
        return "\\[" + "; ".join(parts) + "\\]"

    def role_cite_t(self, content: str) -> str:
        parts = []
        for key in (k.strip() for k in content.split(",")):
            authors, year, url = self._citation(key)
            parts.append(f"{authors} \\[[{year}]({url})\\]")
        return ", ".join(parts)

    # ----- inline text
    def convert_inline(self, text: str) -> str:
        """Roles replaced, macros expanded and relative links made absolute, outside code spans."""
        out, pos = [], 0
        for m in _INLINE.finditer(text):
            out.append(self._plain(text[pos:m.start()]))
            if m.group("code"):
                out.append(m.group("code"))
            else:
                name = m.group("name")
                if name not in self.roles:
                    raise ConversionError(f"{self.docname}: no conversion for the role {{{name}}}")
                out.append(self.roles[name](m.group("content")))
            pos = m.end()
        out.append(self._plain(text[pos:]))
        return "".join(out)

    def _plain(self, text: str) -> str:
        text = expand_macros(text, self.book.macros)
        text = _HTML_LINK.sub(self._absolute_html_link, text)
        return _LINK.sub(self._absolute_link, text)

    def _absolute_html_link(self, m: re.Match) -> str:
        """A relative ``href``/``src`` in raw HTML: written for the website, so resolved there."""
        target = m.group("target")
        if re.match(r"^[a-z][\w+.-]*:|^#", target):
            return m.group(0)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), target))
        if path.startswith("../"):
            raise ConversionError(f"{self.docname}: {target!r} leaves the website")
        return f'{m.group("attr")}="{self.book.site}{path}"'

    def _absolute_link(self, m: re.Match) -> str:
        target = m.group("target")
        if re.match(r"^[a-z][\w+.-]*:|^#", target):
            return m.group(0)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), target))
        base, _, anchor = path.partition("#")
        if not m.group("bang") and base.rsplit(".", 1)[0] in self.book.titles:
            url = self.page_url(base.rsplit(".", 1)[0], anchor)
        else:
            url = self.book.raw + path
        return f"{m.group('bang')}[{m.group('text')}]({url}{m.group('rest')})"

    # ----- blocks
    def convert_markdown(self, text: str) -> str:
        """Convert one Markdown cell (or a directive's content)."""
        lines = text.split("\n")
        out: list[str] = []
        para: list[str] = []

        def flush():
            if para:
                out.append(self.convert_inline("\n".join(para)))
                para.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            directive = _DIRECTIVE_OPEN.match(line)
            code = None if directive else _CODE_OPEN.match(line)
            if directive or code:
                flush()
                m = directive or code
                end = _closing(lines, i + 1, m.group("fence"), nested=bool(directive))
                body = lines[i + 1:end]
                if directive:
                    out.append(self.directive(m.group("name"), m.group("arg"), body))
                else:
                    if m.group("info").strip().startswith("{"):
                        raise ConversionError(f"{self.docname}: cannot read {line!r}")
                    out.append("\n".join(lines[i:end + 1]))
                i = end + 1
                continue
            if _TARGET.match(line):
                flush()
                i += 1
                # drop the blank line a target leaves behind
                continue
            if line.lstrip().startswith("%") and not line.lstrip().startswith("%%"):
                flush()  # a MyST comment
                i += 1
                continue
            if heading := _HEADING.match(line):
                self.heading_level = len(heading.group(1))
            para.append(line)
            i += 1
        flush()
        result = "\n".join(out)
        return re.sub(r"\n{3,}", "\n\n", result).strip("\n")

    def directive(self, name: str, arg: str, body: list[str]) -> str:
        options, content = _options(body)
        handler = {
            "exercise": self.d_exercise,
            "solution": self.d_solution,
            "prf:proof": self.d_proof,
            "figure": self.d_figure,
            "admonition": self.d_admonition,
            "list-table": self.d_list_table,
            "only": self.d_only,
            "eval-rst": self.d_eval_rst,
            "bibliography": self.d_bibliography,
            "nb-exec-table": self.d_exec_table,
        }.get(name)
        if handler is None and name.startswith("prf:"):
            handler = self.d_prf
        if handler is None and name in _ADMONITIONS:
            handler = self.d_admonition
        if handler is None:
            raise ConversionError(f"{self.docname}: no conversion for the directive {{{name}}}")
        return handler(name, arg, options, content)

    def _lead(self, lead: str, content: str) -> str:
        """A bold lead-in, then the content as its own block(s)."""
        body = self.convert_markdown(content)
        return f"{lead}\n\n{body}" if body else lead

    def d_exercise(self, name, arg, options, content):
        label = options.get("label")
        number = ""
        if label:
            number = " " + self.number_of(label)[1]
        title = f" ({self.convert_inline(arg)})" if arg else ""
        text = self._lead(f"**Exercise{number}**{title}", content)
        if self.edition == "student" and label in self.book.checks:
            text += f"\n\n\x00check:{label}\x00"
        return text

    def d_solution(self, name, arg, options, content):
        if self.edition == "student":
            return ""
        label = arg.strip()
        kind, number = self.number_of(label)
        summary = f"Solution to Exercise {number}"
        body = self.convert_markdown(content)
        return f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>"

    def d_prf(self, name, arg, options, content):
        realtype = name.split(":", 1)[1]
        number = ""
        label = options.get("label")
        if label and "nonumber" not in options:
            number = " " + self.number_of(label)[1]
        title = ""
        if arg:
            title = self.book.proof_title_format.replace("%t", self.convert_inline(arg))
        return self._lead(f"**{realtype.capitalize()}{number}**{title}", content)

    def d_proof(self, name, arg, options, content):
        body = self.convert_markdown(content)
        first, sep, rest = body.partition("\n")
        if first and not re.match(r"^(\$\$|`{3}|~{3}|[-*+] |\d+\. |<|\\begin)", first):
            body = f"*Proof.* {body}"
        else:
            body = f"*Proof.*\n\n{body}"
        last = body.rsplit("\n", 1)[-1]
        if re.search(r"(\$\$|`{3}|~{3}|</details>)\s*$", last) or not last.strip():
            return body + "\n\n∎"
        return body + " ∎"

    def d_admonition(self, name, arg, options, content):
        title = self.convert_inline(arg) if arg else _ADMONITIONS.get(name, name.capitalize())
        return self._lead(f"**{title}**", content)

    def d_figure(self, name, arg, options, content):
        label = options.get("name")
        alt = options.get("alt", "")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), arg))
        image = f"![{_escape_alt(alt)}]({self.book.raw}{path})"
        caption = self.convert_markdown(content)
        if label:
            number = self.book.numfig_format.get("figure", "Fig. %s").replace(
                "%s", self.number_of(label)[1])
            caption = f"**{number}** {caption}" if caption else f"**{number}**"
        return f"{image}\n\n{caption}" if caption else image

    def d_list_table(self, name, arg, options, content):
        """A MyST list table as a Markdown pipe table, its caption (numbered) above it."""
        rows: list[list[str]] = []
        for line in content.splitlines():
            row = re.match(r"^\* - (.*)$", line)
            cell = re.match(r"^  - (.*)$", line)
            if row:
                rows.append([row.group(1)])
            elif cell and rows:
                rows[-1].append(cell.group(1))
            elif line.strip() and rows:
                rows[-1][-1] += " " + line.strip()
            elif line.strip():
                raise ConversionError(f"{self.docname}: cannot read the list table line {line!r}")
        if not rows or len({len(r) for r in rows}) != 1:
            raise ConversionError(f"{self.docname}: a list table needs rows of equal length")
        cells = [[self.convert_inline(c).replace("|", "\\|") for c in r] for r in rows]
        header = cells[0] if int(options.get("header-rows", "0") or 0) else [""] * len(cells[0])
        body = cells[1:] if int(options.get("header-rows", "0") or 0) else cells
        lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        caption = self.convert_inline(arg) if arg else ""
        label = options.get("name")
        if label:
            number = self.book.numfig_format.get("table", "Table %s").replace(
                "%s", self.number_of(label)[1])
            caption = f"**{number}** {caption}" if caption else f"**{number}**"
        table = "\n".join(lines)
        return f"{caption}\n\n{table}" if caption else table

    def d_only(self, name, arg, options, content):
        """``{only} expr``: its content if the published website's tags satisfy ``expr``."""
        from sphinx.util.tags import Tags  # pinned: requirements.txt

        try:
            shown = Tags(sorted(self.book.tags)).eval_condition(arg)
        except Exception as e:  # Sphinx parses the expression with jinja2
            raise ConversionError(f"{self.docname}: cannot read {{only}} {arg}: {e}") from e
        if options:
            raise ConversionError(f"{self.docname}: {{only}} takes no options")
        return self.convert_markdown(content) if shown else ""

    def d_bibliography(self, name, arg, options, content):
        """The reference list, each entry led by its label as in the website's citations."""
        references = self.book.bibliography.get(self.docname)
        if not references:
            raise ConversionError(f"{self.docname}: the build has no bibliography for this page")
        return "\n".join(f"- **\\[{escape_markdown(r.label)}\\]** {r.text}" for r in references)

    def d_exec_table(self, name, arg, options, content):
        """MyST-NB's table of executed notebooks; the build-dependent times are marked."""
        if not self.book.executions:
            raise ConversionError(f"{self.docname}: the build has no execution data")
        titles = {"mtime": BUILD_TIME_TITLE, "method": BUILD_METHOD_TITLE,
                  "runtime": WALL_TIME_TITLE}
        columns = list(self.book.executions[0][1])
        header = ["Document"] + [EXEC_HEADERS.get(c, c) for c in columns]
        lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
        for doc, cells in self.book.executions:
            row = [self.link(escape_markdown(doc), doc)]
            for column in columns:
                text = escape_markdown(cells[column])
                if column in titles:
                    text = f'<span title="{titles[column]}">{text}</span>'
                row.append(text)
            lines.append("| " + " | ".join(row) + " |")
        return "\n".join(lines)

    def d_eval_rst(self, name, arg, options, content):
        """The API page's autodoc directives, as the website documents them (:attr:`Book.api`).

        An ``automodule`` gets a heading one level below the page's last heading, the first
        paragraph of the module's docstring and, with ``:members:``, a list of the names the
        website documents in it; ``autoclass``, ``autofunction`` ... add one name to the list.
        """
        blocks, current = [], None
        for line in content.split("\n"):
            m = _RST_DIRECTIVE.match(line)
            if m:
                current = [m.group("name"), m.group("arg"), []]
                blocks.append(current)
            elif line.strip() and current is not None and line.startswith((" ", "\t")):
                current[2].append(line.strip())  # an option or its continuation
            elif line.strip():
                raise ConversionError(f"{self.docname}: cannot read {line!r} in {{eval-rst}}")
        if not blocks:
            raise ConversionError(f"{self.docname}: an empty {{eval-rst}}")
        out: list[str] = []
        items: list[str] = []

        def flush():
            if items:
                out.append("\n".join(items))
                items.clear()

        listed = set()  # a name documented apart from its module's members is listed once

        def add(obj: ApiObject):
            if obj.name not in listed:
                listed.add(obj.name)
                items.append(self.api_item(obj))

        for directive, target, opts in blocks:
            if directive not in _AUTODOC:
                raise ConversionError(f"{self.docname}: no conversion for the reStructuredText "
                                      f"directive {directive}")
            if directive == "automodule":
                flush()
                out.append(self.api_module(target))
                if any(o.split(":")[1:2] == ["members"] for o in opts):
                    for obj in self.api_members(target):
                        add(obj)
            else:
                add(self.api_object(target))
        flush()
        return "\n\n".join(out)

    def api_object(self, name: str) -> ApiObject:
        if name not in self.book.api:
            raise ConversionError(f"{self.docname}: the website documents no {name!r}")
        return self.book.api[name]

    def api_members(self, module: str) -> list[ApiObject]:
        """The names the website documents directly in ``module`` (not a class's methods)."""
        return [o for o in self.book.api.values() if o.docname == self.docname
                and o.objtype != "module" and o.name.rpartition(".")[0] == module]

    def api_module(self, name: str) -> str:
        module = self.api_object(name)
        level = "#" * min(self.heading_level + 1, 6)
        url = self.page_url(module.docname, module.anchor)
        # not a code span: JupyterLab shows a link around code in black, like plain code
        text = f"{level} [{escape_markdown(name)}]({url})"
        return f"{text}\n\n{module.summary}" if module.summary else text

    def api_item(self, obj: ApiObject) -> str:
        """One bullet: the name linked to its entry on the website, signature, summary."""
        short = obj.name.rpartition(".")[2]
        kind = "" if obj.objtype in ("function", "method") else f"{obj.objtype} "
        # the name a bold link (a link around code reads as plain code in JupyterLab), then
        # the signature as code
        line = (f"- {kind}[**{escape_markdown(short)}**]"
                f"({self.page_url(obj.docname, obj.anchor)})"
                + (_code_span(obj.signature) if obj.signature else ""))
        if obj.summary:
            line += " — " + obj.summary.replace("\n", " ")
        return line

    def figure_caption(self, meta: dict) -> str | None:
        """The Markdown cell shown after a code cell that draws a numbered figure."""
        figure = meta.get("figure") or {}
        label, caption = figure.get("name"), figure.get("caption", "")
        if not label and not caption:
            return None
        text = self.convert_inline(caption)
        if label:
            number = self.book.numfig_format.get("figure", "Fig. %s").replace(
                "%s", self.number_of(label)[1])
            text = f"**{number}** {text}"
        alt = (meta.get("image") or {}).get("alt")
        if alt:
            text += ("\n\n<details>\n<summary>Description of the figure</summary>\n\n"
                     f"{escape_markdown(alt)}\n\n</details>")
        return text


_ADMONITIONS = {"note": "Note", "tip": "Tip", "warning": "Warning", "important": "Important",
                "caution": "Caution", "attention": "Attention", "danger": "Danger",
                "error": "Error", "hint": "Hint", "seealso": "See also"}


#: the autodoc directives ``{eval-rst}`` may hold
_AUTODOC = {"automodule", "autoclass", "autoexception", "autofunction", "autodata",
            "autodecorator", "automethod", "autoattribute", "autoproperty"}
#: the column headers of MyST-NB's ``{nb-exec-table}`` (``myst_nb.ext.execution_tables``)
EXEC_HEADERS = {"mtime": "Modified", "method": "Method", "runtime": "Run Time (s)",
                "succeeded": "Status"}


def _escape_alt(alt: str) -> str:
    return alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace("\n", " ")


def _closing(lines: list[str], start: int, fence: str, nested: bool = True) -> int:
    """Index of the line closing ``fence``: the same character, at least as many, nothing else.

    With ``nested``, fences of the other character inside are skipped whole (a ``:::`` line in a
    code example does not close a directive); a code block (``nested=False``) holds no fences.
    """
    char, n = fence[0], len(fence)
    close = re.compile(r"^ {0,3}" + re.escape(char) + "{" + str(n) + r",}\s*$")
    i = start
    while i < len(lines):
        if close.match(lines[i]):
            return i
        inner = nested and (_DIRECTIVE_OPEN.match(lines[i]) or _CODE_OPEN.match(lines[i]))
        if inner and inner.group("fence")[0] != char:
            i = _closing(lines, i + 1, inner.group("fence"), nested=bool(
                _DIRECTIVE_OPEN.match(lines[i]))) + 1
            continue
        i += 1
    raise ConversionError(f"a fence {fence} that never closes")


def _options(body: list[str]) -> tuple[dict, str]:
    """A directive's ``:key: value`` options and the rest of its content."""
    options = {}
    i = 0
    if body and body[0].strip() == "---":
        raise ConversionError("YAML directive options are not supported; use :key: value")
    while i < len(body) and (m := _OPTION.match(body[i])):
        options[m.group("key")] = m.group("value") or ""
        i += 1
    return options, "\n".join(body[i:]).strip("\n")


# --------------------------------------------------------------------------------------------
# whole notebooks

#: tags of cells whose source the website does not show
HIDDEN_TAGS = {"remove-cell", "remove-input", "hide-input", "hide-cell"}


def convert_notebook(nb: dict, book: Book, docname: str, glue: dict, edition: str) -> dict:
    """The launch notebook of one edition from a book notebook (a dict in nbformat 4).

    Markdown cells are converted, code cells kept (the Colab install line pinned to the
    release), outputs dropped, cell ids kept; a code cell drawing a numbered figure is followed
    by a Markdown cell with its caption (id: the code cell's id + ``-caption``), and the
    notebook opens with a Markdown cell naming the edition and linking the website.
    """
    conv = Converter(book, docname, glue, edition)
    new = copy.deepcopy(nb)
    cells = []
    for cell in new["cells"]:
        cell.pop("attachments", None)
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown":
            text = conv.convert_markdown(source)
            # an exercise with a checker ends the cell; its checker cell, then the rest follow
            pieces = _CHECK.split(text)
            for i in range(0, len(pieces), 2):
                part = pieces[i].strip("\n")
                if part.strip():  # not e.g. a cell holding only a solution (student edition)
                    cells.append({**cell, "source": part} if i == 0 else
                                 {"cell_type": "markdown", "id": f"{cell['id']}-{i // 2}",
                                  "metadata": {}, "source": part})
                if i + 1 < len(pieces):
                    label = pieces[i + 1]
                    cells.append({"cell_type": "code", "id": f"check-{label}",
                                  "metadata": {"tags": ["exercise-check"]},
                                  "execution_count": None, "outputs": [],
                                  "source": book.checks[label]})
        elif cell["cell_type"] == "code":
            old, pinned = book.install
            if old:
                source = source.replace(old, pinned)
            cell["source"] = source
            cell["outputs"] = []
            cell["execution_count"] = None
            meta = cell.setdefault("metadata", {})
            if HIDDEN_TAGS & set(meta.get("tags", [])):
                meta.setdefault("jupyter", {})["source_hidden"] = True
            cells.append(cell)
            caption = conv.figure_caption(meta.get("mystnb") or {})
            if caption:
                cells.append({"cell_type": "markdown", "id": f"{cell['id']}-caption",
                              "metadata": {}, "source": caption})
        else:
            cell["source"] = source
            cells.append(cell)
    cells.insert(0, {"cell_type": "markdown", "id": "launch-edition", "metadata": {},
                     "source": edition_note(book, docname, edition)})
    new["cells"] = cells
    new["metadata"].pop("widgets", None)
    return new


def edition_note(book: Book, docname: str, edition: str) -> str:
    """The first cell of a launch notebook: which edition it is and where the website is."""
    page = f"{book.site}{docname}.html"
    what = ("solutions removed" if edition == "student"
            else "every solution folded under its exercise")
    return (f"*This is the **{edition} edition** of the chapter "
            f"[“{book.titles.get(docname, docname)}”]({page}) of the book "
            f"[{book.title}]({book.site}) "
            f"({what}). The numbers in the text are the ones the book computed; run the cells "
            f"(Run all) to recompute them and to use the explorers.*")


#: the edition the Markdown pages are converted for: they hold no solutions, so the editions
#: would be the same, and only Binder, which shows the instructor edition, opens them (launch
#: buttons are on notebook pages only, and Colab opens no Markdown files)
PAGE_EDITION = "instructor"


def convert_page(text: str, book: Book, docname: str) -> str:
    """The plain-Markdown version of one of the book's Markdown pages (``book/intro.md`` ...).

    Converted as a notebook's Markdown cell is (roles, macros, directives; see the module's
    docstring), with a note under the page's title that says where the website's page is.
    """
    conv = Converter(book, docname, {}, PAGE_EDITION)
    body = conv.convert_markdown(text)
    note = page_note(book, docname)
    first, sep, rest = body.partition("\n")
    if re.match(r"^# ", first):
        body = f"{first}\n\n{note}\n\n{rest.lstrip(chr(10))}"
    else:
        body = f"{note}\n\n{body}"
    return body.rstrip("\n") + "\n"


def page_note(book: Book, docname: str) -> str:
    """The italic line under a converted page's title: the website's version of the page.

    >>> print(page_note(Book(site="https://o.github.io/r/", raw="", title="B",
    ...                      titles={"book/intro": "Hello"}), "book/intro"))
    *This is the page [“Hello”](https://o.github.io/r/book/intro.html) of the book [B](https://o.github.io/r/) as plain Markdown.*
    """
    return (f"*This is the page [“{book.titles.get(docname, docname)}”]"
            f"({book.site}{docname}.html) of the book [{book.title}]({book.site}) "
            f"as plain Markdown.*")
