"""The API page (book/library.md) documents every public module of the library.

The page says it documents every public module; this test lists the library's modules (every
module whose dotted name has no part starting with ``_``) and checks each has an
``automodule`` entry on the page, so a module added to the library fails here until the page
follows. The former homes kept for old imports (:data:`ALIASES`) only re-export names the page
documents in their new homes.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import metabits

PAGE = Path(__file__).resolve().parents[1] / "book" / "library.md"
#: modules that only re-export names documented elsewhere on the page (their former homes)
ALIASES = {"metabits.notebook", "metabits.paper_numbers", "metabits.explore_oskr"}


def _public_modules() -> set[str]:
    return {m.name for m in pkgutil.walk_packages(metabits.__path__, "metabits.")
            if not any(part.startswith("_") for part in m.name.split("."))}


def _documented() -> set[str]:
    return set(re.findall(r"^\.\. automodule:: (\S+)\s*$", PAGE.read_text(encoding="utf-8"),
                          flags=re.M))


def test_every_public_module_has_its_section():
    missing = sorted(_public_modules() - ALIASES - _documented())
    assert not missing, f"book/library.md documents no automodule for {missing}"


def test_page_documents_only_modules_that_exist():
    unknown = sorted(_documented() - _public_modules() - {"metabits"})
    assert not unknown, f"book/library.md names modules the library does not have: {unknown}"


def test_aliases_only_re_export():
    """A former home defines nothing of its own: its body is its docstring, imports and
    ``__all__`` (so documenting the names in their new homes documents it)."""
    for name in sorted(ALIASES):
        module = importlib.import_module(name)
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in tree.body:
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            imports = isinstance(node, (ast.Import, ast.ImportFrom))
            all_ = (isinstance(node, ast.Assign)
                    and [getattr(t, "id", None) for t in node.targets] == ["__all__"])
            assert docstring or imports or all_, (
                f"{name} line {node.lineno} defines something: document it on the page")
