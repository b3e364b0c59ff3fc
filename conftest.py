"""Project-wide pytest plumbing: each notebook is executed once per test run.

nbval (``pytest book``) executes every notebook cell by cell — the book's promise that every
notebook runs top to bottom on a fresh kernel. The hooks below keep the outputs nbval receives
and, per notebook, its run time. The session fixture :func:`built_site` then builds the whole
book once with Sphinx's ``-W`` (warnings are errors): notebooks that nbval ran in this session
go into a fresh jupyter-cache, so MyST-NB takes their outputs from there instead of executing
them a second time; any notebook nbval did not run (or that failed) is executed by the build.

Set ``METABITS_SITE=/path/to/_build/html`` to test an existing site without building.
``pytest.ini`` lists ``book`` before ``tests`` so that nbval runs before the build.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: notebook path -> {"nb": nbval's parsed notebook, "seconds": float, "failed": bool, "cells": int}
_EXECUTED: dict[Path, dict] = {}


def _ends_with_semicolon(source: str) -> bool:
    """Whether IPython hides the cell's value (a trailing ``;``, e.g. after ``save_figure``).

    IPython reads the ``;`` from its input history, which nbval does not write
    (``store_history=False``), so nbval's outputs keep the value (the figure paths); the book's
    build, which executes normally, does not show it. Dropping it here makes the two agree.
    """
    from IPython.core.displayhook import DisplayHook

    return DisplayHook.semicolon_at_end_of_expression(source)


def _is_nbval_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "test_outputs")


def pytest_collection_modifyitems(items):
    """Mark every test that needs the book built (it uses ``book_build`` or ``built_site``) as
    ``build``, so that ``-m "not build"`` leaves out the build however a test reaches it."""
    for item in items:
        if {"book_build", "built_site"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.build)
        # a module lists the docstrings whose Examples sample with NUTS in ``_SLOW_DOCTESTS``
        if type(item).__name__ == "DoctestItem" and getattr(item, "dtest", None) is not None:
            module = item.dtest.globs.get("__name__")
            slow = getattr(sys.modules.get(module), "_SLOW_DOCTESTS", ())
            if item.dtest.name.rsplit(".", 1)[-1] in slow:
                item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _is_nbval_cell(item) or call.when != "call":
        return
    report = outcome.get_result()
    path = Path(str(item.parent.fspath)).resolve()
    entry = _EXECUTED.setdefault(path, {"nb": item.parent.nb, "seconds": 0.0, "failed": False,
                                        "cells": 0})
    entry["seconds"] += report.duration
    entry["cells"] += 1
    if report.passed and item.test_outputs is not None:
        item.cell.outputs = [copy.deepcopy(out) for out in item.test_outputs
                             if not (out.get("output_type") == "execute_result"
                                     and _ends_with_semicolon(item.cell.source))]
    else:
        entry["failed"] = True


def _fill_cache(cache_dir: Path) -> list[Path]:
    """Put every notebook nbval executed without failure into a new jupyter-cache."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_dir))
    done = []
    for path, entry in _EXECUTED.items():
        code_cells = sum(c.cell_type == "code" for c in entry["nb"].cells)
        if entry["failed"] or entry["cells"] != code_cells:
            continue
        cache.cache_notebook_bundle(
            CacheBundleIn(copy.deepcopy(entry["nb"]), str(path),
                          data={"execution_seconds": entry["seconds"]}),
            check_validity=False, overwrite=True)
        done.append(path)
    return done


@dataclass
class BookBuild:
    """The outcome of the session's book build."""

    returncode: int
    log: str
    html: Path
    cached: list  # notebooks whose outputs came from this session's nbval run


@pytest.fixture(scope="session")
def book_build(tmp_path_factory) -> BookBuild:
    """Build the book once per session with ``-W --keep-going`` (see the module docstring)."""
    import yaml

    out = tmp_path_factory.mktemp("book")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    cache_dir = out / "jupyter_cache"
    cached = _fill_cache(cache_dir) if _EXECUTED else []
    config.setdefault("execute", {})
    config["execute"]["execute_notebooks"] = "cache"
    config["execute"]["cache"] = str(cache_dir)
    local = config.get("sphinx", {}).get("local_extensions") or {}
    for name, folder in local.items():  # relative to the config file, which now lives in out/
        local[name] = str((ROOT / folder).resolve())
    config_file = out / "_config.yml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(ROOT), "--config", str(config_file),
                           "--path-output", str(out), "-W", "--keep-going"],
                          capture_output=True, text=True, cwd=ROOT)
    log = proc.stdout + proc.stderr
    (out / "build.log").write_text(log, encoding="utf-8")
    return BookBuild(proc.returncode, log, out / "_build" / "html", cached)


@pytest.fixture(scope="session")
def built_site(request) -> Path:
    """The built website's html folder: ``$METABITS_SITE`` if set, else this session's build."""
    given = os.environ.get("METABITS_SITE")
    if given:
        return Path(given)
    build = request.getfixturevalue("book_build")
    if not (build.html / "index.html").is_file():
        pytest.fail("the book did not build:\n" + build.log[-3000:])
    return build.html
