"""The book's PDF as ``bash scripts/build-pdf.sh`` built it, read back with pdftotext.

The PDF is not built by the tests (the build executes every notebook and runs XeLaTeX): these
read the one in ``_build/pdf/_build/latex/metabits.pdf`` (or ``$METABITS_PDF``) and are skipped
when there is none, or no pdftotext (poppler-utils). What they check is what a reader of the
printed book meets: the title page, the course's parts and chapters numbered as on the website
and the other pages as appendices after them, the book's figures numbered through the book, and
no instruction that only the website can follow.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import pdf_book  # noqa: E402
from make_launch_notebooks import website  # noqa: E402

PDF = Path(os.environ.get("METABITS_PDF") or ROOT / "_build" / "pdf" / "_build" / "latex" /
           "metabits.pdf")
NUMBERS = ("ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN "
           "FIFTEEN SIXTEEN SEVENTEEN EIGHTEEN NINETEEN TWENTY TWENTYONE").split()


@lru_cache(maxsize=None)
def _pages() -> tuple[str, ...]:
    if not PDF.is_file():
        pytest.skip(f"no PDF at {PDF} (bash scripts/build-pdf.sh builds it)")
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (Debian: poppler-utils)")
    text = subprocess.run(["pdftotext", "-layout", str(PDF), "-"], check=True,
                          capture_output=True, text=True).stdout
    return tuple(text.split("\f"))


def _toc():
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def test_the_title_page_names_authors_version_and_website():
    import metabits

    title = _pages()[0]
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert f"Version {metabits.__version__}" in title
    assert website(config["repository"]["url"]) in title
    for name in pdf_book.citation_authors(ROOT / "CITATION.cff"):
        assert name in title


def test_the_course_chapters_are_numbered_as_on_the_website_then_the_appendices():
    """Chapter 1 to the last chapter of the numbered parts, in the order of _toc.yml, each
    under its part ("Part II"); then a page "Appendices", the other pages lettered A, B, ..."""
    pages = _pages()
    parts = [p for p in _toc()["parts"] if p.get("numbered")]
    n_chapters = sum(len(p["chapters"]) for p in parts)
    openings = [(i, m.group(1)) for i, page in enumerate(pages)
                for m in [re.search(r"^\s*CHAPTER\s*\n\s*\n?\s*([A-Z]+)\s*$", page, re.M)] if m]
    assert [word for _, word in openings] == NUMBERS[:n_chapters]
    # a part's page: "Part II", its caption without the website's numeral, the page number
    part_pages = [(i, m.group(1), " ".join(m.group(2).split())) for i, page in enumerate(pages)
                  for m in [re.fullmatch(r"\s*Part ([IVX]+)\s*\n(.*\S)\s*\n\s*\d+\s*", page,
                                         re.S)] if m]
    assert [(f"Part {numeral}", caption) for _, numeral, caption in part_pages] == \
        [tuple(p["caption"].split(" — ", 1)) for p in parts]
    # each part before its chapters: chapter 1 after Part I, ...
    starts = [sum(len(p["chapters"]) for p in parts[:k]) for k in range(len(parts))]
    assert all(part_pages[k][0] < openings[start][0] for k, start in enumerate(starts))
    assert all(openings[start - 1][0] < part_pages[k][0] for k, start in enumerate(starts) if k)
    appendices = [i for i, page in enumerate(pages) if re.fullmatch(r"\s*Appendices\s+\d+\s*", page)]
    assert len(appendices) == 1 and appendices[0] > openings[-1][0]
    letters = re.findall(r"^\s*APPENDIX\s*\n\s*\n?\s*([A-Z])\s*$", "\f".join(
        pages[appendices[0]:]), re.M)
    assert letters and letters == [chr(ord("A") + i) for i in range(len(letters))]


def test_pages_for_the_website_only_are_left_out():
    text = "\f".join(_pages())
    for heading in ("EXECUTION STATUS", "TROUBLESHOOTING", "THE BOOK’S OWN CODE"):
        assert not re.search(rf"^\s*{heading}\s*$", text, re.M), heading


def test_figures_are_numbered_through_the_book():
    text = "\f".join(_pages())
    numbers = sorted({int(n) for n in re.findall(r"Book figure (\d+):", text)})
    assert numbers and numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("words", ["rocket icon", "Show code cell source", "Click to show",
                                   "Try this. ", "on this website", "at the top of the page"])
def test_no_instruction_only_the_website_can_follow(words):
    text = " ".join("\f".join(_pages()).split())
    at = text.find(words)
    assert at < 0, f"...{text[max(0, at - 100):at + 100]}..."
