#!/usr/bin/env python3
"""Write the launch notebooks (student and instructor editions) from a finished book build.

    .venv/bin/python scripts/make_launch_notebooks.py [--build _build] [--out launch] [--check]

The Binder and Colab buttons of the website open ``launch/student/<chapter>.ipynb`` at the
release set in ``_config.yml`` (``repository.branch``, ``repository.path_to_book``): plain
notebooks with the numbers, exercises, theorems and figures a student reads on the website
(see ``scripts/launch_notebooks.py`` for what is converted and how). ``launch/instructor/`` holds
the same notebooks with every solution folded under its exercise.
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
  sphinxcontrib-bibtex 2.7) and the configuration (MathJax macros, repository, numfig formats).

From the library it takes the exercise checkers (``metabits.book.checks``): in the student
edition, each exercise of ``EXERCISES`` is followed by a cell that checks the student's numbers.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from pathlib import Path

from metabits.book.checks import EXERCISES, checker_code

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launch_notebooks import (EDITIONS, WALL_TIME_TITLE, Book, Target,  # noqa: E402
                              convert_notebook)

ROOT = Path(__file__).resolve().parents[1]
#: where the launch notebooks live, one folder per edition
LAUNCH = "launch"


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


def book_from_env(env) -> Book:
    """Everything the converter needs, from the build's Sphinx environment."""
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
        if kind:
            text = formats.get(kind, "%s").replace("%s", numbers[(doc, kind, anchor)])
        labels[label] = Target(doc, anchor, text)
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
    install = f"git+{url}#subdirectory=lib"
    return Book(
        site=website(url, env.config.html_baseurl),
        raw=f"https://raw.githubusercontent.com/{owner}/{repo}/{ref}/",
        title=env.config.html_title or env.config.project,
        install=(install, f"git+{url}@{ref}#subdirectory=lib"),
        titles={doc: title.astext() for doc, title in env.titles.items()},
        labels=labels,
        numbers=numbers,
        numfig_format=formats,
        citations=citations,
        macros=macros,
        proof_title_format=getattr(env.config, "proof_title_format", " (%t)"),
        checks={label: checker_code(label) for label in EXERCISES},
    )


def notebooks(env, root: Path) -> list[str]:
    """Docnames of the book's notebooks (pages built from ``.ipynb`` files)."""
    return sorted(doc for doc in env.found_docs if (root / f"{doc}.ipynb").is_file())


def dumps(nb: dict) -> str:
    """nbformat's own layout (indent 1, sorted keys), so the output is the same every time."""
    import nbformat

    node = nbformat.from_dict(nb)
    nbformat.validate(node)
    return nbformat.writes(node)


def convert_all(build: Path, root: Path = ROOT) -> dict[str, str]:
    """Relative path under ``launch/`` -> notebook text, for every notebook and edition."""
    env = load_env(build)
    book = book_from_env(env)
    out = {}
    for doc in notebooks(env, root):
        glue_file = build / "jupyter_execute" / f"{doc}.glue.json"
        glue = json.loads(glue_file.read_text(encoding="utf-8")) if glue_file.is_file() else {}
        nb = json.loads((root / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for edition in EDITIONS:
            out[f"{edition}/{doc}.ipynb"] = dumps(convert_notebook(nb, book, doc, glue, edition))
    return out


_WALL_TIME = re.compile(r'(<span title=\\?"' + re.escape(WALL_TIME_TITLE)
                        + r'\\?">)[^<]*(</span>)')


def same(a: str, b: str) -> bool:
    """Whether two launch notebooks agree but for the wall times they report.

    >>> t = '<span title=\\"' + WALL_TIME_TITLE + '\\">{}</span> s'
    >>> same(t.format("0.48"), t.format("0.40")), same(t.format("1") + "a", t.format("1") + "b")
    (True, False)
    """
    return _WALL_TIME.sub(r"\1\2", a) == _WALL_TIME.sub(r"\1\2", b)


def differences(expected: dict[str, str], folder: Path) -> list[str]:
    """What differs between ``expected`` and the notebooks in ``folder`` (wall times aside)."""
    have = {p.relative_to(folder).as_posix() for p in folder.rglob("*.ipynb")
            if ".ipynb_checkpoints" not in p.parts} if folder.is_dir() else set()
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "_build",
                        help="the build folder (holding .doctrees and jupyter_execute)")
    parser.add_argument("--out", type=Path, default=ROOT / LAUNCH)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the folder is not what the build gives")
    args = parser.parse_args(argv)
    expected = convert_all(args.build)
    if args.check:
        problems = differences(expected, args.out)
        print("\n".join(problems) or f"{args.out} is up to date")
        return 1 if problems else 0
    write(expected, args.out)
    print(f"wrote {len(expected)} notebooks into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
