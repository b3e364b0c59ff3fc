#!/usr/bin/env python3
"""Write the launch notebooks (student and instructor editions) from a finished book build.

    .venv/bin/python scripts/make_launch_notebooks.py [--build _build] [--out launch] [--check]

The Binder and Colab buttons of the website open ``launch/student/<chapter>.ipynb`` at the
release set in ``_config.yml`` (``repository.branch``, ``repository.path_to_book``): plain
notebooks with the numbers, exercises, theorems and figures a student reads on the website
(see ``scripts/launch_notebooks.py`` for what is converted and how). ``launch/instructor/`` holds
the same notebooks with every solution folded under its exercise.
The book's Markdown pages (``book/intro.md``, ``book/library.md`` ...) are written as plain
Markdown to ``launch/instructor/<page>.md`` (one edition: they hold no solutions, and only
Binder's ``postBuild`` uses them, in place of the MyST pages; ``scripts/binder_notebooks.py``).
``bash scripts/build-book.sh`` runs this after the build, so the folder is regenerated like
``figures/``; commit it with the chapters. ``--check`` writes nothing and exits 1 when the
committed folder differs from what the build gives (``tests/test_launch_notebooks.py`` does the
same inside the test run).

What it reads from the build, all pinned in ``requirements.txt``:

* ``<build>/jupyter_execute/<doc>.glue.json`` — MyST-NB 1.4's glued outputs of each notebook;
* ``<build>/.doctrees/environment.pickle`` — the Sphinx 7.4 environment: page titles
  (``env.titles``), labels (``domaindata["std"]["labels"]``), figure and exercise numbers
  (``env.toc_fignumbers``, numbered as on the website), theorems (``env.proof_list``,
  sphinx-proof 0.4), the bibliography labels (``domaindata["cite"]["citations"]``,
  sphinxcontrib-bibtex 2.7) and the configuration (MathJax macros, repository, numfig formats);
  for the Markdown pages also the Python objects the API page documents
  (``domaindata["py"]["objects"]``), the formatted reference list (each citation's
  ``formatted_entry``, rendered by pybtex's Markdown backend) and MyST-NB's execution data
  (``env.nb_metadata[doc]["exec_data"]``, formatted as ``myst_nb.ext.execution_tables`` does);
* ``<build>/.doctrees/<doc>.doctree`` of the API page — the signatures and docstrings' first
  paragraphs as the website renders them (autodoc, napoleon).

From the book's code it takes the exercise checkers (``metabits_book.checks``): in the student
edition, each exercise of ``EXERCISES`` is followed by a cell that checks the student's numbers.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from datetime import datetime
from pathlib import Path

from metabits_book.checks import EXERCISES, checker_code

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launch_notebooks import (EDITIONS, PAGE_EDITION, VARYING_TITLES,  # noqa: E402
                              WALL_TIME_TITLE, ApiObject, Book, Reference, Target,
                              convert_notebook, convert_page, docutils_markdown)

ROOT = Path(__file__).resolve().parents[1]
#: where the launch notebooks live, one folder per edition
LAUNCH = "launch"
#: the Sphinx tags of the published website, which ``{only}`` is evaluated against: the
#: publishing workflow builds the PDF first, so its website has the tag ``metabits_pdf``
#: (``_ext/metabits_pdf.py``) whether or not the local build that writes launch/ had a PDF
PUBLISHED_TAGS = frozenset({"html", "format_html", "builder_html", "metabits_pdf"})


def github_parts(url: str) -> tuple[str, str]:
    m = re.fullmatch(r"https://github\.com/([^/\s]+)/([^/\s]+?)(?:\.git)?/?", url)
    if not m:
        raise SystemExit(f"repository.url is not a GitHub address: {url!r}")
    return m.group(1), m.group(2)


def website(url: str, baseurl: str = "") -> str:
    """The published website: ``html_baseurl`` if set, else the repository's GitHub Pages.

    >>> website("https://github.com/o/r")
    'https://o.github.io/r/'
    """
    if baseurl:
        return baseurl.rstrip("/") + "/"
    owner, repo = github_parts(url)
    if repo.lower() == f"{owner.lower()}.github.io":
        return f"https://{repo}/"
    return f"https://{owner}.github.io/{repo}/"


def load_env(build: Path):
    path = build / ".doctrees" / "environment.pickle"
    if not path.is_file():
        raise SystemExit(f"no {path}: build the book first (bash scripts/build-book.sh)")
    with path.open("rb") as f:
        return pickle.load(f)


def book_from_env(env, build: Path | None = None) -> Book:
    """Everything the converter needs, from the build's Sphinx environment.

    With ``build`` (the folder holding ``.doctrees``), also what the API page documents.
    """
    options = env.config.html_theme_options
    url = options["repository_url"].rstrip("/")
    ref = options.get("repository_branch") or "main"
    owner, repo = github_parts(url)
    numbers, labels = {}, {}
    for doc, kinds in env.toc_fignumbers.items():
        for kind, ids in kinds.items():
            for ident, number in ids.items():
                numbers[(doc, kind, ident)] = ".".join(map(str, number))
    formats = dict(env.config.numfig_format)
    for label, (doc, anchor, text) in env.domaindata["std"]["labels"].items():
        kind = next((k for (d, k, i) in numbers if d == doc and i == anchor), None)
        name = text or ""  # what {name} prints: a figure's caption, an exercise's title
        if kind:
            text = formats.get(kind, "%s").replace("%s", numbers[(doc, kind, anchor)])
        labels[label] = Target(doc, anchor, text, name)
    for label, info in getattr(env, "proof_list", {}).items():
        text = info["realtype"].capitalize()
        number = numbers.get((info["docname"], info["countertype"], label))
        labels.setdefault(label, Target(info["docname"], info["ids"][0],
                                        f"{text} {number}" if number else text))
    citations = {}
    for cite in env.domaindata["cite"]["citations"]:
        authors, _, year = cite.formatted_entry.label.rpartition(", ")
        citations[cite.key] = (authors, year, cite.bibliography_key.docname, cite.citation_id)
    macros = {}
    for name, value in (env.config.mathjax3_config or {}).get("tex", {}).get("macros",
                                                                              {}).items():
        if not isinstance(value, str):
            raise SystemExit(f"macro \\{name} takes arguments; launch_notebooks cannot expand it")
        macros[name] = value
    install = f"git+{url}#"  # both packages: #subdirectory=lib and =book/_support
    return Book(
        site=website(url, env.config.html_baseurl),
        raw=f"https://raw.githubusercontent.com/{owner}/{repo}/{ref}/",
        title=env.config.html_title or env.config.project,
        install=(install, f"git+{url}@{ref}#"),
        titles={doc: title.astext() for doc, title in env.titles.items()},
        labels=labels,
        numbers=numbers,
        numfig_format=formats,
        citations=citations,
        macros=macros,
        proof_title_format=getattr(env.config, "proof_title_format", " (%t)"),
        checks={label: checker_code(label) for label in EXERCISES},
        tags=PUBLISHED_TAGS,
        api=api_from_build(env, build, macros) if build is not None else {},
        bibliography=bibliography_from_env(env),
        executions=executions_from_env(env),
    )


def bibliography_from_env(env) -> dict[str, list[Reference]]:
    """docname -> its ``{bibliography}``'s entries, in their order, as Markdown.

    sphinxcontrib-bibtex keeps one citation per entry shown, in the order of the list, each with
    its pybtex ``formatted_entry`` (label and rich text).
    """
    from pybtex.backends.markdown import Backend

    out: dict[str, list[Reference]] = {}
    for cite in env.domaindata["cite"]["citations"]:
        text = " ".join(cite.formatted_entry.text.render(Backend()).split("\n"))
        out.setdefault(cite.bibliography_key.docname, []).append(
            Reference(cite.key, cite.formatted_entry.label, cite.citation_id, text))
    return out


#: MyST-NB's execution data, each field formatted as its ``{nb-exec-table}`` shows it on the
#: website (a modification time to the minute, the method, the run time to 0.01 s, a tick)
EXEC_FIELDS = {
    "mtime": lambda x: datetime.fromtimestamp(x).strftime("%Y-%m-%d %H:%M") if x else "",
    "method": str,
    "runtime": lambda x: "-" if x is None else str(round(x, 2)),
    "succeeded": lambda x: "✅" if x is True else "❌",
}


def executions_from_env(env) -> list[tuple[str, dict[str, str]]]:
    """MyST-NB's execution data of each notebook, formatted as its ``{nb-exec-table}`` does."""
    from myst_nb.sphinx_ import NbMetadataCollector

    rows = []
    metadata = NbMetadataCollector.get_doc_data(env)
    for doc in sorted(metadata):
        data = metadata[doc].get("exec_data")
        if data:
            rows.append((doc, {key: fmt(data[key]) for key, fmt in EXEC_FIELDS.items()}))
    return rows


def _doctree(build: Path, docname: str):
    with (build / ".doctrees" / f"{docname}.doctree").open("rb") as f:
        return pickle.load(f)


def api_from_build(env, build: Path, macros: dict) -> dict[str, ApiObject]:
    """Every Python object the website documents, with its signature and summary.

    The objects and their anchors are the Python domain's (aliases left out); the signature
    and the first paragraph of each docstring come from the documenting page's doctree (a
    module's: the paragraph after its index entry), as autodoc and napoleon rendered them.
    """
    from docutils import nodes
    from sphinx import addnodes

    objects = {name: entry for name, entry in env.domaindata["py"]["objects"].items()
               if not entry.aliased}

    def link(target: str) -> str | None:
        entry = objects.get(target)
        if entry is None:
            return None
        return f"{website_of(env)}{entry.docname}.html#{entry.node_id}"

    found: dict[str, tuple[str, str]] = {}  # node id -> (signature, summary)
    for doc in sorted({entry.docname for entry in objects.values()}):
        tree = _doctree(build, doc)
        for desc in tree.findall(addnodes.desc):
            signature, summary, ids = None, "", []
            for child in desc.children:
                if isinstance(child, addnodes.desc_signature):
                    ids += child["ids"]
                    params = next(iter(child.findall(addnodes.desc_parameterlist)), None)
                    if signature is None:
                        signature = "" if params is None else \
                            "(" + ", ".join(p.astext() for p in params.children) + ")"
                elif isinstance(child, addnodes.desc_content) and child.children and \
                        isinstance(child.children[0], nodes.paragraph):
                    summary = docutils_markdown(child.children[0], macros, link)
            for ident in ids:
                found[ident] = (signature or "", summary)
        for index in tree.findall(addnodes.index):
            for entry in index["entries"]:
                if entry[1].startswith("module; "):
                    parent, at = index.parent, index.parent.index(index)
                    after = parent.children[at + 1] if at + 1 < len(parent.children) else None
                    summary = (docutils_markdown(after, macros, link)
                               if isinstance(after, nodes.paragraph) else "")
                    found[entry[2]] = ("", summary)
    api = {}
    for name, entry in objects.items():
        signature, summary = found.get(entry.node_id, ("", ""))
        if entry.objtype not in ("function", "class", "method", "exception", "decorator"):
            signature = ""
        api[name] = ApiObject(name, entry.objtype, entry.docname, entry.node_id, signature,
                              summary)
    return api


def website_of(env) -> str:
    options = env.config.html_theme_options
    return website(options["repository_url"].rstrip("/"), env.config.html_baseurl)


def notebooks(env, root: Path) -> list[str]:
    """Docnames of the book's notebooks (pages built from ``.ipynb`` files)."""
    return sorted(doc for doc in env.found_docs if (root / f"{doc}.ipynb").is_file())


def dumps(nb: dict) -> str:
    """nbformat's own layout (indent 1, sorted keys), so the output is the same every time."""
    import nbformat

    node = nbformat.from_dict(nb)
    nbformat.validate(node)
    return nbformat.writes(node)


def pages(env, root: Path) -> list[str]:
    """Docnames of the book's Markdown pages (built from ``.md`` files)."""
    return sorted(doc for doc in env.found_docs if (root / f"{doc}.md").is_file())


def convert_all(build: Path, root: Path = ROOT) -> dict[str, str]:
    """Relative path under ``launch/`` -> text, for every notebook and edition and every page."""
    env = load_env(build)
    book = book_from_env(env, build)
    out = {}
    for doc in pages(env, root):
        text = (root / f"{doc}.md").read_text(encoding="utf-8")
        out[f"{PAGE_EDITION}/{doc}.md"] = convert_page(text, book, doc)
    for doc in notebooks(env, root):
        glue_file = build / "jupyter_execute" / f"{doc}.glue.json"
        glue = json.loads(glue_file.read_text(encoding="utf-8")) if glue_file.is_file() else {}
        nb = json.loads((root / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for edition in EDITIONS:
            out[f"{edition}/{doc}.ipynb"] = dumps(convert_notebook(nb, book, doc, glue, edition))
    return out


_WALL_TIME = re.compile(r'(<span title=\\?"(?:' + "|".join(map(re.escape, VARYING_TITLES))
                        + r')\\?">)[^<]*(</span>)')


def same(a: str, b: str) -> bool:
    """Whether two launch files agree but for the wall and build times they report.

    >>> t = '<span title=\\"' + WALL_TIME_TITLE + '\\">{}</span> s'
    >>> same(t.format("0.48"), t.format("0.40")), same(t.format("1") + "a", t.format("1") + "b")
    (True, False)
    """
    return _WALL_TIME.sub(r"\1\2", a) == _WALL_TIME.sub(r"\1\2", b)


def differences(expected: dict[str, str], folder: Path) -> list[str]:
    """What differs between ``expected`` and the notebooks in ``folder`` (wall times aside)."""
    have = {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.suffix in (".ipynb", ".md") and p.is_file()
            and ".ipynb_checkpoints" not in p.parts} if folder.is_dir() else set()
    problems = [f"missing: {p}" for p in sorted(set(expected) - have)]
    problems += [f"not in the book: {p}" for p in sorted(have - set(expected))]
    problems += [f"differs: {p}" for p in sorted(set(expected) & have)
                 if not same((folder / p).read_text(encoding="utf-8"), expected[p])]
    return problems


def write(expected: dict[str, str], folder: Path) -> None:
    for rel in differences(expected, folder):
        kind, path = rel.split(": ", 1)
        if kind == "not in the book":
            (folder / path).unlink()
    for rel, text in expected.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        # a rebuild that only timed differently leaves the committed file alone
        if not target.is_file() or not same(target.read_text(encoding="utf-8"), text):
            target.write_text(text, encoding="utf-8")


def publish_downloads(expected: dict[str, str], build: Path, edition: str) -> list[Path]:
    """Write ``edition``'s notebooks over the website's copies of the chapters' sources.

    The website's download button fetches ``_sources/<doc>.ipynb``: the MyST source, with glue
    placeholders, directives and macros a reader cannot use. The launch notebook of the same
    page reads as the page does. Returns the files written.
    """
    written = []
    for rel, text in expected.items():
        head, _, doc = rel.partition("/")
        if head == edition and doc.endswith(".ipynb"):
            target = build / "html" / "_sources" / doc
            if target.is_file():
                target.write_text(text, encoding="utf-8")
                written.append(target)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "_build",
                        help="the build folder (holding .doctrees and jupyter_execute)")
    parser.add_argument("--out", type=Path, default=ROOT / LAUNCH)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the folder is not what the build gives")
    parser.add_argument("--downloads", choices=EDITIONS,
                        help="also put this edition's notebooks where the website's download "
                             "button fetches them (<build>/html/_sources), in place of the "
                             "chapters' MyST sources")
    args = parser.parse_args(argv)
    expected = convert_all(args.build)
    if args.check:
        problems = differences(expected, args.out)
        print("\n".join(problems) or f"{args.out} is up to date")
        return 1 if problems else 0
    write(expected, args.out)
    if args.downloads:
        publish_downloads(expected, args.build, args.downloads)
    n_pages = sum(rel.endswith(".md") for rel in expected)
    print(f"wrote {len(expected) - n_pages} notebooks and {n_pages} Markdown pages into "
          f"{args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
