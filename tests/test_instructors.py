"""The instructor page (book/instructors.md) covers every chapter and every exercise of the book.

Its chapter map must list every chapter of the table of contents, and its "Exercises by level"
table every exercise of the notebooks, once — counted against the ``{exercise}`` labels in the
chapters, so an exercise added to or removed from a chapter fails here until the page follows.
Its tables must be well-formed: MyST drops whatever follows a row's closing ``|``, which would
hide exercises from the page.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "instructors.md"


def _chapters() -> list[str]:
    """The chapters' documents (relative to book/), in the order of the table of contents."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [c["file"].removeprefix("book/") for part in toc["parts"] for c in part["chapters"]
            if (ROOT / f"{c['file']}.ipynb").is_file() and c["file"] != "book/report"]


def _exercises() -> Counter:
    """label -> how many ``{exercise}`` blocks carry it, over every notebook of the book."""
    labels = Counter()
    for doc in _chapters():
        nb = json.loads((ROOT / "book" / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                text = "".join(cell["source"])
                labels.update(re.findall(r"^:{3,}\{exercise\}[^\n]*\n(?::\w+:[^\n]*\n)*?"
                                         r":label:\s*(\S+)", text, re.M))
    return labels


def _section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"instructors.md has no section '{title}'"
    return match.group(1)


def _refs(text: str) -> list[str]:
    return [m.group(2) or m.group(1)
            for m in re.finditer(r"\{ref\}`(?:([^<`]+)|[^`]*<([^>`]+)>)`", text)]


def test_the_exercise_count_is_read_from_the_notebooks():
    exercises = _exercises()
    assert len(exercises) >= 45 and set(exercises.values()) == {1}
    assert "ex-ch1-guess-or-know" in exercises and "ex-audit-alpha" in exercises


def test_every_exercise_is_sorted_by_level_once():
    listed = Counter(_refs(_section("Exercises by level")))
    exercises = _exercises()
    assert sum(listed.values()) == sum(exercises.values()), (
        f"the page lists {sum(listed.values())} exercises, the notebooks have "
        f"{sum(exercises.values())}")
    assert listed == exercises, {
        "not on the page": sorted(set(exercises) - set(listed)),
        "not in a notebook": sorted(set(listed) - set(exercises)),
        "listed twice": sorted(k for k, n in listed.items() if n > 1)}


def test_every_chapter_is_in_the_chapter_map():
    linked = set(re.findall(r"\{doc\}`([^`]+)`", _section("Chapter map")))
    assert not set(_chapters()) - linked, sorted(set(_chapters()) - linked)


def test_the_syllabus_has_six_sessions_and_cites_only_real_exercises():
    rows = [line for line in _section("A six-session syllabus").splitlines()
            if re.match(r"^\| \d\. ", line)]
    assert [row[2] for row in rows] == list("123456")
    assert set(_refs("\n".join(rows))) <= set(_exercises())


def test_tables_lose_nothing_after_a_closing_bar():
    """Every table row starts and ends with '|' and has as many cells as its header."""
    cells = None
    for number, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            cells = None
            continue
        assert line.rstrip().endswith("|"), f"line {number}: text after the closing '|'"
        # a '|' inside a role's backticks is not a cell border
        n = len(re.sub(r"`[^`]*`", "", line).strip().strip("|").split("|"))
        if cells is None:
            cells = n
        assert n == cells, f"line {number}: {n} cells, the header has {cells}"
