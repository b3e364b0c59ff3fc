"""The library's own tests: they need the library (``lib/metabits``) and its dependencies only,
never the book's code (``metabits_book``) or its data.

``scripts/lib-tests.sh`` runs them with ``METABITS_LIB_ONLY=1``: then importing
``metabits_book`` raises ``ImportError``, so a test here that reaches for the book fails even on
a machine where the book's code is installed (as in the project's environment).
"""

import importlib.abc
import os
import sys

import pytest

LIB_ONLY = bool(os.environ.get("METABITS_LIB_ONLY"))


class _NoBook(importlib.abc.MetaPathFinder):
    """Refuses ``metabits_book`` and its modules."""

    def find_spec(self, name, path=None, target=None):
        if name == "metabits_book" or name.startswith("metabits_book."):
            raise ImportError(f"{name}: the library's tests run without the book's code "
                              "(METABITS_LIB_ONLY is set)")
        return None


if LIB_ONLY:
    if any(m == "metabits_book" or m.startswith("metabits_book.") for m in sys.modules):
        raise pytest.UsageError("metabits_book was imported before the library's tests were "
                                "collected: run tests/lib on its own (scripts/lib-tests.sh)")
    sys.meta_path.insert(0, _NoBook())
