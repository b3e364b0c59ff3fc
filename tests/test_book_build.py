"""The whole book builds with no warning and no notebook error, and leaves the figures unchanged.

The build (the ``book_build`` fixture in the project's root conftest.py) is the README's build
with Sphinx's -W (warnings are errors): a broken glue key, a missing reference, a bad directive
or a notebook cell that raises fails it. Jupyter Book executes every notebook itself, into a
fresh cache in the build's temporary folder.
"""

import json
import re
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.build

ROOT = Path(__file__).resolve().parents[1]


def _toc_files():
    """Every document of the table of contents, as a path without suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]]
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            files.append(chapter["file"])
            files += [s["file"] for s in chapter.get("sections", [])]
    return files


def _source(doc: str) -> Path:
    for suffix in (".ipynb", ".md"):
        if (ROOT / f"{doc}{suffix}").is_file():
            return ROOT / f"{doc}{suffix}"
    raise FileNotFoundError(doc)


def _text_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return path.read_text(encoding="utf-8")


def test_build_has_no_warnings(book_build):
    warnings = [line for line in book_build.log.splitlines()
                if "WARNING" in line and "IPKernelApp" not in line]
    assert book_build.returncode == 0 and not warnings, \
        "\n".join(warnings) or book_build.log[-3000:]


def test_every_page_of_the_toc_is_rendered(built_site):
    for doc in _toc_files():
        page = built_site / f"{doc}.html"
        assert page.is_file(), f"{doc} has no page"
        text = page.read_text(encoding="utf-8")
        assert "Traceback" not in text, f"{doc} shows a traceback"
        if "save_figure(" in _source(doc).read_text(encoding="utf-8"):
            assert "<img" in text, f"{doc} saves a figure but shows none"


def test_glued_values_are_pasted(built_site):
    """Every ``{glue:...}`` role of a page is replaced by a pasted value (typed text would not be
    inside a ``pasted-*`` element), and no role is left unresolved."""
    for doc in _toc_files():
        source = _source(doc)
        roles = len(re.findall(r"\{glue(?::text|:md)?\}`", _text_of(source)))
        html = (built_site / f"{doc}.html").read_text(encoding="utf-8")
        pasted = len(re.findall(r'class="pasted-(?:text|inline)', html))
        assert "{glue" not in html, f"{doc}: an unresolved glue role"
        assert pasted >= roles, f"{doc}: {roles} glue roles but only {pasted} pasted values"


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_figures_match_the_committed_ones(book_build):
    """Running the notebooks must redraw every committed figure as it was and draw no new one.

    Figures are compared by what they show (``tests/figure_check.py``): SVG numbers to 1e-3 pt
    with the labels equal, PNGs to an RMS difference of 1 in 255, so the last-bit differences of
    another CPU pass and a moved line, a changed label, a new or a deleted figure fail. A real
    change fails here until the new figures are committed."""
    from figure_check import changed_figures

    problems = changed_figures(ROOT)
    assert not problems, "figures differ from the last commit (commit them):\n" + "\n".join(
        f"{path}: {why}" for path, why in sorted(problems.items()))
