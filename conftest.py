"""Project-wide pytest configuration: notebooks, the book build and pytest-xdist groups.

- nbval (``--nbval-lax`` in pytest.ini) runs every notebook under ``book/`` cell by cell, each
  notebook on a fresh kernel.
- :func:`book_build` builds the whole book once per session with
  ``jupyter-book build ROOT --path-output TMP -W --keep-going``: Jupyter Book executes every
  notebook as ``_config.yml`` says, its outputs and cache in the session's temporary folder
  ``TMP``. :func:`built_site` is the built HTML folder, or ``$METABITS_SITE`` to test an existing
  site without building.
- Every test that uses either fixture is marked ``build``, so ``-m "not build"`` leaves out the
  build however a test reaches it.
- Under pytest-xdist with ``--dist loadgroup`` (``scripts/run-tests.sh``), the ``xdist_group``
  marks added here keep every cell of a notebook in one worker (group ``nb:<path>``), and every
  test that needs the built site in one worker (group ``site``), so the book is built once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: the fixtures that build the book
BUILD_FIXTURES = {"book_build", "built_site"}
#: the xdist group of every test that uses them
SITE_GROUP = "site"


def _is_notebook_cell(item) -> bool:
    """A cell that nbval runs: every test item of a notebook file is one."""
    return item.path.suffix == ".ipynb"


def _slow_doctest(item) -> bool:
    """A doctest whose name its module lists in ``_SLOW_DOCTESTS`` (Examples that run NUTS)."""
    if not isinstance(item, pytest.DoctestItem) or item.dtest is None:
        return False
    module = sys.modules.get(item.dtest.globs.get("__name__"))
    return item.dtest.name.rsplit(".", 1)[-1] in getattr(module, "_SLOW_DOCTESTS", ())


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(items):
    for item in items:
        if _is_notebook_cell(item):
            notebook = item.nodeid.split("::", 1)[0]
            item.add_marker(pytest.mark.xdist_group(f"nb:{notebook}"))
        elif BUILD_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.build)
            item.add_marker(pytest.mark.xdist_group(SITE_GROUP))
        if _slow_doctest(item):
            item.add_marker(pytest.mark.slow)


@dataclass
class BookBuild:
    """The outcome of the session's book build."""

    returncode: int
    log: str
    html: Path


@pytest.fixture(scope="session")
def book_build(tmp_path_factory) -> BookBuild:
    """The book built once per session with Sphinx's ``-W --keep-going`` (warnings are errors)."""
    out = tmp_path_factory.mktemp("book")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jupyter_book), "build", str(ROOT), "--path-output", str(out),
                           "-W", "--keep-going"], capture_output=True, text=True, cwd=ROOT)
    log = proc.stdout + proc.stderr
    (out / "build.log").write_text(log, encoding="utf-8")
    return BookBuild(proc.returncode, log, out / "_build" / "html")


@pytest.fixture(scope="session")
def built_site(request) -> Path:
    """The built website's HTML folder: ``$METABITS_SITE`` if set, else this session's build."""
    given = os.environ.get("METABITS_SITE")
    if given:
        return Path(given)
    build = request.getfixturevalue("book_build")
    if not (build.html / "index.html").is_file():
        pytest.fail("the book did not build:\n" + build.log[-3000:])
    return build.html
