"""The website's link to the book's PDF (``_ext/metabits_pdf.py``).

The PDF is built by ``scripts/build-pdf.sh`` (not part of the tests); a website built
after it offers the PDF as ``metabits.pdf`` and links it from the intro page, one built without
it has neither, so that an offline build never links a missing file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import yaml
from sphinx.util.tags import Tags

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import metabits_pdf  # noqa: E402


def _app(tmp_path, builder="html", exists=True):
    pdf = tmp_path / "_build" / "pdf" / "metabits.pdf"
    if exists:
        pdf.parent.mkdir(parents=True)
        pdf.write_bytes(b"%PDF-1.5 test")
    out = tmp_path / "_build" / "html"
    out.mkdir(parents=True)
    return SimpleNamespace(confdir=str(tmp_path), outdir=str(out), tags=Tags(),
                           builder=SimpleNamespace(format=builder),
                           config=SimpleNamespace(metabits_pdf="_build/pdf/metabits.pdf"))


def test_a_built_pdf_is_copied_to_the_site_and_tagged(tmp_path):
    app = _app(tmp_path)
    metabits_pdf.tag_pdf(app, app.config)
    assert app.tags.has(metabits_pdf.TAG)
    metabits_pdf.copy_pdf(app, None)
    assert (Path(app.outdir) / "metabits.pdf").read_bytes() == b"%PDF-1.5 test"


def test_without_a_pdf_there_is_neither_file_nor_link(tmp_path):
    app = _app(tmp_path, exists=False)
    metabits_pdf.tag_pdf(app, app.config)
    assert not app.tags.has(metabits_pdf.TAG)
    metabits_pdf.copy_pdf(app, None)
    assert not (Path(app.outdir) / "metabits.pdf").exists()


def test_the_latex_build_and_a_failed_build_copy_nothing(tmp_path):
    app = _app(tmp_path, builder="latex")
    metabits_pdf.copy_pdf(app, None)
    assert not (Path(app.outdir) / "metabits.pdf").exists()
    app.builder.format = "html"
    metabits_pdf.copy_pdf(app, RuntimeError("build failed"))
    assert not (Path(app.outdir) / "metabits.pdf").exists()


def test_the_configuration_and_the_intro_page_agree():
    """_config.yml loads the extension and names the PDF build-pdf.sh writes; the intro page's
    link is shown only with the tag, only on the website, and points at the copied file."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["local_extensions"]["metabits_pdf"] == "_ext"
    path = config["sphinx"]["config"]["metabits_pdf"]
    assert path == "_build/pdf/_build/latex/metabits.pdf"
    assert path.rsplit("/", 1)[0] in (ROOT / "scripts" / "build-pdf.sh").read_text(
        encoding="utf-8").replace("$OUT", "_build/pdf")
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    block = intro.split("```{only} html and metabits_pdf", 1)[1].split("```", 1)[0]
    assert f'href="../{metabits_pdf.SITE_NAME}"' in block
