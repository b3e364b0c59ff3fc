"""The table of contents (_toc.yml) and the pages that number its parts and chapters."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _toc():
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def numbered_chapters() -> list[str]:
    """The chapters the website numbers, in order: those of the parts marked ``numbered``
    (Jupyter Book numbers them through the book, 1, 2, ... across the parts)."""
    return [c["file"] for part in _toc()["parts"] if part.get("numbered")
            for c in part["chapters"]]


def test_the_parts_are_the_three_papers_then_real_people_numbered_i_to_iv():
    captions = [p["caption"] for p in _toc()["parts"] if p.get("numbered")]
    assert [c.split(" — ")[0] for c in captions] == ["Part I", "Part II", "Part III", "Part IV"]
    assert [c.split(" — ")[1].split(" (")[0] for c in captions[:3]] == [
        "Meyen et al.", "Servajean & Servajean", "Roberts"]
    assert "real people" in captions[3]
    # the appendix parts are not numbered
    assert all(not p.get("numbered") for p in _toc()["parts"] if "Part" not in p["caption"])


def test_the_intro_map_numbers_each_chapter_as_the_website_does():
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    listed = [(int(n), f"book/{doc}") for n, doc in
              re.findall(r"(?m)^(\d+)\. \{doc\}`([^`]+)`", text)]
    assert listed == list(enumerate(numbered_chapters(), start=1))
    # each part's paragraph carries its numeral, in the table of contents' order
    numerals = re.findall(r"(?m)^\*\*(Part [IV]+) — ", text)
    assert numerals == ["Part I", "Part II", "Part III", "Part IV"]
