"""The API page (book/library.md) documents every public module of the library.

The page says it documents every public module; this test lists the library's modules (every
module whose dotted name has no part starting with ``_``) and checks each has an
``automodule`` entry on the page, so a module added to the library fails here until the page
follows. The former homes kept for old imports (:data:`ALIASES`) only re-export names the page
documents in their new homes.
"""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import metabits
import metabits_book

PAGE = Path(__file__).resolve().parents[1] / "book" / "library.md"
#: modules that only re-export names documented elsewhere on the page (their former homes)
ALIASES = {"metabits_book.explore"}


def _public_modules() -> set[str]:
    found = [m.name for package in (metabits, metabits_book)
             for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return {name for name in found if not any(part.startswith("_") for part in name.split("."))}


def _documented() -> set[str]:
    return set(re.findall(r"^\.\. automodule:: (\S+)\s*$", PAGE.read_text(encoding="utf-8"),
                          flags=re.M))


def test_every_public_module_has_its_section():
    missing = sorted(_public_modules() - ALIASES - _documented())
    assert not missing, f"book/library.md documents no automodule for {missing}"


def test_page_documents_only_modules_that_exist():
    unknown = sorted(_documented() - _public_modules() - {"metabits", "metabits_book"})
    assert not unknown, f"book/library.md names modules the library does not have: {unknown}"

