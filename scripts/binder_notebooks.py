#!/usr/bin/env python3
"""On Binder, put the launch notebooks in place of the chapters' MyST sources.

    python3 scripts/binder_notebooks.py [--root .] [--edition instructor]

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
_INSTALL = re.compile(r"git\+\S+?#subdirectory=lib")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def code_cells(nb: dict) -> list[tuple[str, str]]:
    """(id, source) of each code cell, the install address blanked out."""
    return [(c.get("id", ""), _INSTALL.sub("git+URL#subdirectory=lib", _source(c)))
            for c in nb["cells"] if c["cell_type"] == "code"]


def source_url(root: Path, doc: str) -> str:
    """The chapter's source on GitHub at the release (``repository`` in ``_config.yml``)."""
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    repo = config.get("repository", {})
    url = str(repo.get("url", "")).rstrip("/")
    return f"{url}/blob/{repo.get('branch') or 'main'}/{doc}.ipynb"


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--edition", default="instructor", choices=["student", "instructor"])
    args = parser.parse_args(argv)
    replaced, skipped = replace_sources(args.root, args.edition)
    print(f"binder_notebooks: {len(replaced)} chapters now open as their {args.edition} "
          f"launch notebooks")
    for doc, why in skipped:
        print(f"binder_notebooks: WARNING: {doc}.ipynb left as MyST source: {why}",
              file=sys.stderr)
    return 0  # never fail the Binder build: a MyST source is still a working notebook


if __name__ == "__main__":
    sys.exit(main())
