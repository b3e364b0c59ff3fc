"""The API pages document every public module: the library's (book/library.md) and the book's own
code (book/book_code.md).

Each page lists, in ``automodule`` entries, the public modules of its package (every module
whose dotted name has no part starting with ``_``), so a module added to either package fails
here until its page follows; and neither page documents the other package.
"""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import pytest

import metabits
import metabits_book

BOOK = Path(__file__).resolve().parents[1] / "book"
PAGES = {metabits: BOOK / "library.md", metabits_book: BOOK / "book_code.md"}


def _public_modules(package) -> set[str]:
    found = [package.__name__] + [m.name for m in pkgutil.walk_packages(
        package.__path__, package.__name__ + ".")]
    return {name for name in found if not any(part.startswith("_") for part in name.split("."))}


def _documented(page: Path) -> set[str]:
    return set(re.findall(r"^\.\. automodule:: (\S+)\s*$", page.read_text(encoding="utf-8"),
                          flags=re.M))


@pytest.mark.parametrize("package", list(PAGES), ids=lambda p: p.__name__)
def test_every_public_module_has_its_section(package):
    missing = sorted(_public_modules(package) - _documented(PAGES[package]))
    assert not missing, f"{PAGES[package].name} documents no automodule for {missing}"


@pytest.mark.parametrize("package", list(PAGES), ids=lambda p: p.__name__)
def test_page_documents_only_the_modules_of_its_package(package):
    unknown = sorted(_documented(PAGES[package]) - _public_modules(package))
    assert not unknown, f"{PAGES[package].name} names modules {package.__name__} lacks: {unknown}"
