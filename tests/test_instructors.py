"""The instructor page (book/instructors.md) covers every chapter and every exercise of the book.

Its chapter map must list every chapter of the table of contents, and its "Exercises by level"
every exercise of the notebooks, once — counted against the ``{exercise}`` labels in the
chapters, so an exercise added to or removed from a chapter fails here until the page follows.
It names exercises as students see them, by number and title, with references the build fills
in (``{numref}`Exercise {number} ({name}) <label>```), so every exercise needs a title. Its
tables, and the class-setup page's, must be well-formed (MyST drops whatever follows a row's
closing ``|``) and narrow enough for a phone.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "instructors.md"
SETUP = ROOT / "book" / "class_setup.md"
#: how the page names an exercise: its number and title, both from the build
NUMBERED = re.compile(r"\{numref\}`Exercise \{number\} \(\{name\}\) <([^>`]+)>`")
#: the book's parts on the page, by the chapters' folders
PARTS = {"I": "meyen", "II": "servajean", "III": "oskr", "IV": "people"}


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
    """The labels that ``{ref}`` and ``{numref}`` roles of ``text`` point to."""
    return [m.group(2) or m.group(1)
            for m in re.finditer(r"\{(?:num)?ref\}`(?:([^<`]+)|[^`]*<([^>`]+)>)`", text)]


def _exercise_titles() -> dict[str, str]:
    """label -> the title of its ``{exercise}`` (empty if it has none)."""
    titles = {}
    for doc in _chapters():
        nb = json.loads((ROOT / "book" / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            text = "".join(cell["source"]) if cell["cell_type"] == "markdown" else ""
            for m in re.finditer(r"^:{3,}\{exercise\}([^\n]*)\n(?::\w+:[^\n]*\n)*?"
                                 r":label:\s*(\S+)", text, re.M):
                titles[m.group(2)] = m.group(1).strip()
    return titles


def _exercise_docs() -> dict[str, str]:
    """label -> the chapter (relative to book/) whose exercise it is."""
    docs = {}
    for doc in _chapters():
        nb = json.loads((ROOT / "book" / f"{doc}.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            for label in re.findall(r"^:label:\s*(ex-\S+)", "".join(cell["source"]), re.M):
                docs[label] = doc
    return docs


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
    section = _section("A six-session syllabus")
    assert re.findall(r"^\*\*Session (\d+)\.", section, re.M) == list("123456")
    assert NUMBERED.findall(section) and set(NUMBERED.findall(section)) <= set(_exercises())


def test_the_term_plan_has_twelve_weeks_that_read_every_chapter():
    section = _section("A 12-week term plan")
    assert re.findall(r"^- \*\*Week (\d+)\.", section, re.M) == [str(w) for w in range(1, 13)]
    assert NUMBERED.findall(section) and set(NUMBERED.findall(section)) <= set(_exercises())
    read = set(re.findall(r"\{doc\}`([^`]+)`", section))
    assert not set(_chapters()) - read, sorted(set(_chapters()) - read)


def test_every_exercise_has_a_title_for_the_page_to_show():
    untitled = sorted(label for label, title in _exercise_titles().items() if not title)
    assert not untitled, f"exercises without a title: {untitled}"


def test_exercises_are_named_by_number_and_title():
    """Every reference to an exercise reads "Exercise N (Title)", as its box on its page."""
    text = PAGE.read_text(encoding="utf-8")
    exercises = set(_exercises())
    refs = [label for label in _refs(text) if label in exercises]
    numbered = NUMBERED.findall(text)
    assert refs and sorted(refs) == sorted(numbered), sorted(set(refs) - set(numbered))


def test_the_assessment_has_two_exercises_of_each_part():
    section = _section("Assessment")
    docs = _exercise_docs()
    parts = re.findall(r"^\*\*Part (I{1,3}|IV)\.\*\*\n(.*?)(?=^\*\*Part |\Z)", section,
                       re.M | re.S)
    assert [p for p, _ in parts] == list(PARTS)
    for part, text in parts:
        labels = [m.group(1) for m in re.finditer(r"^- " + NUMBERED.pattern, text, re.M)]
        assert len(labels) == 2, (part, labels)
        assert {docs[label].split("/")[0] for label in labels} == {PARTS[part]}, (part, labels)


def test_the_class_setup_page_covers_what_a_class_needs():
    text = SETUP.read_text(encoding="utf-8")
    for words in ("Save a copy in Drive", "nothing persists", "_build/student", "Local Jupyter",
                  "bash scripts/build-book.sh --student"):
        assert words.lower() in text.lower(), words
    assert "{doc}`class_setup`" in PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("page", [PAGE, SETUP], ids=lambda p: p.name)
def test_tables_lose_nothing_after_a_closing_bar_and_fit_a_phone(page):
    """Every table row starts and ends with '|' and has as many cells as its header, and no
    table has more than four columns (the pages must read at 400 px)."""
    cells = None
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            cells = None
            continue
        assert line.rstrip().endswith("|"), f"line {number}: text after the closing '|'"
        # a '|' inside a role's backticks is not a cell border
        n = len(re.sub(r"`[^`]*`", "", line).strip().strip("|").split("|"))
        if cells is None:
            cells = n
        assert n == cells, f"line {number}: {n} cells, the header has {cells}"
        assert n <= 4, f"line {number}: {n} columns"
