"""The guard of the library's tests (tests/conftest.py): with METABITS_LIB_ONLY set, the book's
code cannot be imported, so the tests in tests/lib run as on a machine without it."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not os.environ.get("METABITS_LIB_ONLY"), reason="METABITS_LIB_ONLY not set")
def test_the_book_cannot_be_imported():
    with pytest.raises(ImportError, match="without the book's code"):
        importlib.import_module("metabits_book")
    assert not any(m.startswith("metabits_book") for m in sys.modules)


def test_the_library_imports_no_module_of_the_book():
    """Every public module of the library loads without ``metabits_book`` (checked in a fresh
    interpreter that refuses it, whatever this run's mode)."""
    code = ("import importlib.abc, pkgutil, sys, importlib\n"
            "class F(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'metabits_book': raise ImportError(name)\n"
            "sys.meta_path.insert(0, F())\n"
            "import metabits\n"
            "for m in pkgutil.walk_packages(metabits.__path__, 'metabits.'):\n"
            "    if not any(p.startswith('_') for p in m.name.split('.')) and "
            "m.name != 'metabits.__main__':\n"
            "        importlib.import_module(m.name)\n"
            "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
