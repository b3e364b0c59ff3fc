"""Binder's ``postBuild`` (``scripts/binder_notebooks.py``): the chapters, the Markdown pages and
JupyterLab.

``postBuild`` puts each chapter's instructor-edition launch notebook in place of its MyST source,
each Markdown page's plain version (``launch/instructor/book/<page>.md``) in place of its source,
and tells JupyterLab to open Markdown files rendered. These tests run it on a temporary copy of the
repository and a temporary JupyterLab application directory.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from _launch import CODE, MYST, NOTEBOOKS, PAGES, ROOT, cells, markdown, repo_copy

import binder_notebooks as bn  # noqa: E402 - scripts/, put on the path by _launch
import launch_notebooks as ln  # noqa: E402

LAUNCH = ROOT / bn.LAUNCH
#: MyST that JupyterLab's Markdown preview would show as raw text: a role outside a code span,
#: a directive, an autodoc line
PREVIEW_MYST = re.compile(
    r"(?<!`)\{[a-z][\w:-]*\}`|^ {0,3}(?:`{3,}|:{3,})\{|^\s*\.\. [\w:-]+::", re.M)
#: fenced code blocks (a directive's fence is not one: its info string starts with "{")
_FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,})(?!\{).*?^ {0,3}\1\s*$", re.M | re.S)


def _copy(tmp_path: Path) -> Path:
    return repo_copy(tmp_path, bn.LAUNCH)


def test_the_pages_edition_is_the_converters():
    assert bn.PAGE_EDITION == ln.PAGE_EDITION


def test_binder_opens_every_page_as_plain_markdown(tmp_path):
    root = _copy(tmp_path)
    sources = [(root / f"{d}.md").read_text(encoding="utf-8") for d in PAGES]
    assert any(PREVIEW_MYST.search(_FENCED.sub("", s)) for s in sources), "the sources are MyST"
    replaced, skipped = bn.replace_pages(root)
    assert replaced == PAGES and skipped == []
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]
    for doc in PAGES:
        text = (root / f"{doc}.md").read_text(encoding="utf-8")
        converted = (LAUNCH / bn.PAGE_EDITION / f"{doc}.md").read_text(encoding="utf-8")
        assert not PREVIEW_MYST.search(_FENCED.sub("", text)), doc
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


# ---------------------------------------------------------------------------------------------
# the chapters


def test_binder_post_build_runs_the_replacement():
    post_build = ROOT / "postBuild"  # repo2docker runs ./postBuild from the repository's root
    assert post_build.stat().st_mode & 0o111, "postBuild must be executable"
    assert "scripts/binder_notebooks.py" in post_build.read_text(encoding="utf-8")
    assert not (ROOT / "binder").exists() and not (ROOT / ".binder").exists(), \
        "a binder/ folder would make repo2docker ignore runtime.txt, requirements.txt, postBuild"


def test_binder_opens_every_chapter_as_it_reads_on_the_website(tmp_path):
    root = _copy(tmp_path)
    replaced, skipped = bn.replace_sources(root)
    assert sorted(replaced) == NOTEBOOKS and skipped == []
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    for doc in NOTEBOOKS:
        text = markdown(root / f"{doc}.ipynb")
        assert not any(p.findall(CODE.sub("", text)) for p in MYST.values()), doc
        first = cells(root / f"{doc}.ipynb")[0]["source"]
        source = f"{config['repository']['url']}/blob/{config['repository']['branch']}/{doc}.ipynb"
        assert first.startswith("*On Binder") and f"({source})" in first
        assert "**instructor edition**" in first  # solutions folded, as on the website
        assert [c["id"] for c in cells(root / f"{doc}.ipynb") if c["cell_type"] == "code"] == \
            [c["id"] for c in cells(ROOT / f"{doc}.ipynb") if c["cell_type"] == "code"]


def test_binder_keeps_a_source_whose_launch_notebook_is_out_of_date(tmp_path):
    root = _copy(tmp_path)
    doc = NOTEBOOKS[0]
    nb = json.loads((root / f"{doc}.ipynb").read_text(encoding="utf-8"))
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["source"] = "x = 1  # a change the launch notebooks do not have yet"
    original = json.dumps(nb)
    (root / f"{doc}.ipynb").write_text(original, encoding="utf-8")
    replaced, skipped = bn.replace_sources(root)
    assert doc not in replaced and [d for d, _ in skipped] == [doc]
    assert (root / f"{doc}.ipynb").read_text(encoding="utf-8") == original
