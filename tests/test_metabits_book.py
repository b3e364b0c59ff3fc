"""metabits_book (the book's code) keeps the shape tests/lib/test_metabits.py asks of the
library: every public path importable, no import circles, and only the library's public names
imported (no private name, no private path of ``metabits``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "lib"))  # the library's checks
from test_metabits import (PACKAGES, import_circles, private_imports,  # noqa: E402
                           public_paths_import)

import metabits_book  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOOK = {**PACKAGES, "metabits_book": ROOT / "book" / "_support" / "metabits_book"}


def test_every_public_path_imports():
    public_paths_import(metabits_book)


def test_the_book_imports_only_public_names_of_the_library():
    offences = private_imports("metabits_book", BOOK)
    assert not offences, "\n".join(offences)


def test_no_import_circles_between_modules():
    real = import_circles("metabits_book", BOOK)
    assert not real, real
