"""Binder's ``postBuild`` (``scripts/binder_notebooks.py``): the book's Markdown pages and JupyterLab.

Besides the chapters (``tests/test_launch_notebooks.py``), ``postBuild`` puts each Markdown page's
plain version (``launch/instructor/book/<page>.md``) in place of its MyST source and tells
JupyterLab to open Markdown files rendered. These tests run it on a temporary copy of the
repository and a temporary JupyterLab application directory.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import binder_notebooks as bn  # noqa: E402
import launch_notebooks as ln  # noqa: E402

LAUNCH = ROOT / bn.LAUNCH
PAGES = sorted(p.relative_to(ROOT).with_suffix("").as_posix()
               for p in (ROOT / "book").rglob("*.md") if ".ipynb_checkpoints" not in p.parts)
#: MyST that JupyterLab's Markdown preview would show as raw text: a role outside a code span,
#: a directive, an autodoc line
MYST = re.compile(r"(?<!`)\{[a-z][\w:-]*\}`|^ {0,3}(?:`{3,}|:{3,})\{|^\s*\.\. [\w:-]+::",
                  re.M)
#: fenced code blocks (a directive's fence is not one: its info string starts with "{")
_CODE = re.compile(r"^ {0,3}(`{3,}|~{3,})(?!\{).*?^ {0,3}\1\s*$", re.M | re.S)


def _copy(tmp_path: Path) -> Path:
    """The files Binder's postBuild sees: book/, launch/ and _config.yml."""
    root = tmp_path / "repo"
    for name in ("book", bn.LAUNCH):
        shutil.copytree(ROOT / name, root / name,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "_build"))
    shutil.copy(ROOT / "_config.yml", root / "_config.yml")
    return root


def test_the_pages_edition_is_the_converters():
    assert bn.PAGE_EDITION == ln.PAGE_EDITION


def test_binder_opens_every_page_as_plain_markdown(tmp_path):
    root = _copy(tmp_path)
    assert any(MYST.search(_CODE.sub("", (root / f"{d}.md").read_text(encoding="utf-8")))
               for d in PAGES), "the sources are MyST"
    replaced, skipped = bn.replace_pages(root)
    assert replaced == PAGES and skipped == []
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]
    for doc in PAGES:
        text = (root / f"{doc}.md").read_text(encoding="utf-8")
        converted = (LAUNCH / bn.PAGE_EDITION / f"{doc}.md").read_text(encoding="utf-8")
        assert not MYST.search(_CODE.sub("", text)), doc
        title, note, rest = text.split("\n\n", 2)
        assert (title, rest) == tuple(converted.split("\n\n", 2)[::2])
        # the converter's note under the title, and where the MyST source is
        assert note.startswith("*This is the page") and note.endswith(
            f"[on GitHub]({repo['url']}/blob/{repo['branch']}/{doc}.md).*")


def test_a_page_without_its_plain_version_keeps_its_source(tmp_path):
    root = _copy(tmp_path)
    doc = PAGES[0]
    (root / bn.LAUNCH / bn.PAGE_EDITION / f"{doc}.md").unlink()
    replaced, skipped = bn.replace_pages(root)
    assert doc not in replaced and [d for d, _ in skipped] == [doc]
    assert (root / f"{doc}.md").read_text(encoding="utf-8") == \
        (ROOT / f"{doc}.md").read_text(encoding="utf-8")


def test_jupyterlab_opens_markdown_rendered(tmp_path):
    app = tmp_path / "lab"
    path = bn.open_markdown_rendered(app)
    assert path == app / "settings" / "overrides.json"
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {
            "markdown": "Markdown Preview"}}}
    # settings already there (e.g. from the image) are kept
    path.write_text(json.dumps({
        "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
        "@jupyterlab/docmanager-extension:plugin": {"autosave": False,
                                                    "defaultViewers": {"python": "Editor"}}}),
        encoding="utf-8")
    bn.open_markdown_rendered(app)
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
        "@jupyterlab/docmanager-extension:plugin": {
            "autosave": False, "defaultViewers": {"python": "Editor",
                                                  "markdown": "Markdown Preview"}}}
