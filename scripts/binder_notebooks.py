#!/usr/bin/env python3
"""On Binder, put the launch notebooks and plain pages in place of the book's MyST sources.

    python3 scripts/binder_notebooks.py [--root .] [--edition instructor] [--lab-app-dir DIR]

Binder (repo2docker) runs this from ``postBuild``, once, when it builds the image of a release.
A student who opens ``book/<part>/<chapter>.ipynb`` from JupyterLab's file browser would
otherwise read the chapter's MyST source: ``{glue:text}`` placeholders instead of the numbers,
raw ``{exercise}`` and ``{prf:theorem}`` blocks and red ``\\acc`` macros (JupyterLab's Markdown
renderer knows none of them; jupyterlab-myst 2.7 knows the directives but not MyST-NB's glue
roles, and a notebook's math macros only from a YAML block that would show as text on GitHub and
Colab). The launch notebooks (``launch/``, committed with the chapters and checked against them
by ``tests/test_launch_notebooks.py``) read like the website, so each chapter's source is
overwritten, in the image only, by its launch notebook of the ``instructor`` edition, whose
solutions are folded under their exercises as on the website. The launch buttons still open
``launch/student/...``.

A chapter is replaced only when its launch notebook has the same code cells (ids and sources,
the Colab install line aside), so a launch folder that is out of date leaves the MyST source in
place, with a warning, rather than showing a chapter whose code is not the release's. The first
cell says where the notebook came from and links the source on GitHub.

The book's Markdown pages (``book/intro.md``, ``book/library.md`` ...) are MyST too: roles,
``{eval-rst}`` autodoc blocks, ``{bibliography}``. Each is overwritten by its plain-Markdown
version, ``launch/instructor/<page>.md`` (written with the launch notebooks, one edition for
both: pages hold no solutions), with a line under its title linking the source on GitHub; a
page without one keeps its MyST source, with a warning. And since JupyterLab opens ``.md``
files in its text editor, a settings override (``<JupyterLab's app dir>/settings/
overrides.json``: ``@jupyterlab/docmanager-extension:plugin``, ``defaultViewers``) makes it
open them in its Markdown preview, rendered, math typeset (the editor is one right-click away:
Open With → Editor).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = "launch"
#: the id of the launch notebooks' first cell (``launch_notebooks.convert_notebook``)
NOTE_ID = "launch-edition"
_INSTALL = re.compile(r"git\+\S+?#subdirectory=(lib|book/_support)")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def code_cells(nb: dict) -> list[tuple[str, str]]:
    """(id, source) of each code cell, the install address blanked out."""
    return [(c.get("id", ""), _INSTALL.sub(r"git+URL#subdirectory=\1", _source(c)))
            for c in nb["cells"] if c["cell_type"] == "code"]


#: the Markdown pages' edition (``launch_notebooks.PAGE_EDITION``)
PAGE_EDITION = "instructor"
#: the JupyterLab setting that opens Markdown files rendered: the document manager's default
#: viewer of the file type ``markdown``, the factory of @jupyterlab/markdownviewer-extension
#: (schema: ``schemas/@jupyterlab/docmanager-extension/plugin.json``, checked by hand with
#: JupyterLab 4.4.10: ``defaultViewers`` maps a file type to a viewer's name, and a double-click
#: on a .md file then opened it rendered; the test environment has no JupyterLab to check it in)
LAB_SETTINGS = {"@jupyterlab/docmanager-extension:plugin":
                {"defaultViewers": {"markdown": "Markdown Preview"}}}


def source_url(root: Path, doc: str, suffix: str = ".ipynb") -> str:
    """The chapter's source on GitHub at the release (``repository`` in ``_config.yml``)."""
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    repo = config.get("repository", {})
    url = str(repo.get("url", "")).rstrip("/")
    return f"{url}/blob/{repo.get('branch') or 'main'}/{doc}{suffix}"


def binder_note(doc: str, edition: str, url: str) -> str:
    """The sentence put before the launch notebook's own first cell.

    >>> print(binder_note("book/a/01_x", "instructor", "URL"))  # doctest: +NORMALIZE_WHITESPACE
    *On Binder this file is the chapter's launch notebook
    (`launch/instructor/book/a/01_x.ipynb`), which reads like the website; its MyST source is
    [on GitHub](URL).*
    """
    return (f"*On Binder this file is the chapter's launch notebook "
            f"(`{LAUNCH}/{edition}/{doc}.ipynb`), which reads like the website; its MyST source "
            f"is [on GitHub]({url}).*")


def replace_sources(root: Path = ROOT, edition: str = "instructor") -> tuple[list, list]:
    """Overwrite each ``<doc>.ipynb`` that has a matching launch notebook; (replaced, skipped).

    ``skipped`` holds (doc, reason) pairs: no launch notebook, or code cells that differ.
    """
    replaced, skipped = [], []
    folder = root / LAUNCH / edition
    for launch in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in launch.parts:
            continue
        doc = launch.relative_to(folder).with_suffix("").as_posix()
        target = root / f"{doc}.ipynb"
        if not target.is_file():
            skipped.append((doc, "no such chapter"))
            continue
        nb = json.loads(launch.read_text(encoding="utf-8"))
        source = json.loads(target.read_text(encoding="utf-8"))
        if code_cells(nb) != code_cells(source):
            skipped.append((doc, "its launch notebook's code cells are not the chapter's"))
            continue
        note = binder_note(doc, edition, source_url(root, doc))
        first = nb["cells"][0]
        if first.get("id") == NOTE_ID:
            first["source"] = note + "\n\n" + _source(first)
        else:
            nb["cells"].insert(0, {"cell_type": "markdown", "id": NOTE_ID, "metadata": {},
                                   "source": note})
        target.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        replaced.append(doc)
    for doc in sorted(p.relative_to(root).with_suffix("").as_posix()
                      for p in (root / "book").rglob("*.ipynb")
                      if ".ipynb_checkpoints" not in p.parts):
        if doc not in replaced and all(doc != d for d, _ in skipped):
            skipped.append((doc, "no launch notebook"))
    return replaced, skipped


def page_note(doc: str, url: str) -> str:
    """The sentence added to a converted page's own note (no file path: it would not wrap).

    >>> print(page_note("book/intro", "URL"))  # doctest: +NORMALIZE_WHITESPACE
    *On Binder it replaces the page's MyST source, which is [on GitHub](URL).*
    """
    return f"*On Binder it replaces the page's MyST source, which is [on GitHub]({url}).*"


def replace_pages(root: Path = ROOT) -> tuple[list, list]:
    """Overwrite each ``book/<page>.md`` with its plain-Markdown version; (replaced, skipped).

    A page whose version is missing keeps its MyST source (``skipped``: (doc, reason)).
    """
    replaced, skipped = [], []
    folder = root / LAUNCH / PAGE_EDITION
    for source in sorted((root / "book").rglob("*.md")):
        if any(part.startswith((".", "_")) for part in source.relative_to(root).parts):
            continue  # checkpoints, and the book's code (book/_support) with its data notes
        doc = source.relative_to(root).with_suffix("").as_posix()
        converted = folder / f"{doc}.md"
        if not converted.is_file():
            skipped.append((doc, f"no plain-Markdown version in {LAUNCH}/{PAGE_EDITION}/"))
            continue
        text = converted.read_text(encoding="utf-8")
        note = page_note(doc, source_url(root, doc, ".md"))
        # after the converter's own note under the title ("# Title", "*This is the page ...*")
        parts = text.split("\n\n", 2)
        if len(parts) == 3 and parts[0].startswith("# ") and parts[1].startswith("*"):
            text = "\n\n".join([parts[0], f"{parts[1]} {note}", parts[2]])
        else:
            text = f"{note}\n\n{text}"
        source.write_text(text, encoding="utf-8")
        replaced.append(doc)
    return replaced, skipped


def lab_app_dir() -> Path:
    """JupyterLab's application directory (where ``settings/overrides.json`` is read from)."""
    try:
        from jupyterlab.commands import get_app_dir
    except ImportError:  # JupyterLab not in this Python: its default place
        return Path(sys.prefix) / "share" / "jupyter" / "lab"
    return Path(get_app_dir())


def open_markdown_rendered(app_dir: Path | None = None) -> Path:
    """Make JupyterLab open ``.md`` files in its Markdown preview; the overrides file written.

    Merged into ``<app_dir>/settings/overrides.json`` (JupyterLab's defaults for everyone;
    a user's own setting still wins), keeping what is already there.
    """
    path = (app_dir or lab_app_dir()) / "settings" / "overrides.json"
    settings = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    for plugin, values in LAB_SETTINGS.items():
        merged = settings.setdefault(plugin, {})
        for key, value in values.items():
            merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--edition", default="instructor", choices=["student", "instructor"])
    parser.add_argument("--lab-app-dir", type=Path, default=None,
                        help="JupyterLab's application directory (default: the one JupyterLab "
                             "in this Python uses)")
    args = parser.parse_args(argv)
    # never fail the Binder build: a MyST source is still a working notebook, a readable page
    replaced, skipped = replace_sources(args.root, args.edition)
    print(f"binder_notebooks: {len(replaced)} chapters now open as their {args.edition} "
          f"launch notebooks")
    for doc, why in skipped:
        print(f"binder_notebooks: WARNING: {doc}.ipynb left as MyST source: {why}",
              file=sys.stderr)
    pages, skipped = replace_pages(args.root)
    print(f"binder_notebooks: {len(pages)} Markdown pages now plain Markdown")
    for doc, why in skipped:
        print(f"binder_notebooks: WARNING: {doc}.md left as MyST source: {why}", file=sys.stderr)
    try:
        path = open_markdown_rendered(args.lab_app_dir)
    except (OSError, ValueError) as e:  # ValueError: an overrides.json that is not JSON
        print(f"binder_notebooks: WARNING: Markdown files will open in the editor: {e}",
              file=sys.stderr)
    else:
        print(f"binder_notebooks: JupyterLab opens Markdown files rendered ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
