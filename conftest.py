"""Project-wide pytest plumbing: each notebook is executed once per test run.

nbval (``pytest book``) executes every notebook cell by cell — the book's promise that every
notebook runs top to bottom on a fresh kernel. The hooks below keep the outputs nbval receives
and, per notebook, its run time. The session fixture :func:`built_site` then builds the whole
book once with Sphinx's ``-W`` (warnings are errors): notebooks that nbval ran in this session
go into a fresh jupyter-cache, so MyST-NB takes their outputs from there instead of executing
them a second time; any notebook nbval did not run (or that failed) is executed by the build.

Set ``METABITS_SITE=/path/to/_build/html`` to test an existing site without building.
``pytest.ini`` lists ``book`` before ``tests`` so that nbval runs before the build.

In parallel (pytest-xdist, ``-n``; ``scripts/run-tests.sh`` uses two workers) the chain holds
across processes: each notebook runs whole in one worker (:func:`pytest_xdist_make_scheduler`
hands out a notebook's cells, and a test module's tests, as one unit, notebooks first), the
worker writes the notebook it executed to the session's shared temporary folder when its last
cell has run, and the build waits until every notebook collected in the session is there. The
tests that need the built site (test_book_build, test_browser, test_explore_browser) form one
unit, so the build and the browser's visit of the site happen once, in one worker, while the
other workers run the unit tests; any other test that asks for the build waits for that one
(a lock in the shared folder) instead of building again.
"""

from __future__ import annotations

import copy
import fcntl
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: notebook path -> {"nb": nbval's parsed notebook, "seconds": float, "failed": bool, "cells": int}
_EXECUTED: dict[Path, dict] = {}
#: notebook path -> how many of its cells this session collected / has finished (this process)
_COLLECTED: Counter = Counter()
_FINISHED: Counter = Counter()
#: the test modules that need the built site: one unit of work for pytest-xdist
SITE_MODULES = ("tests/test_book_build.py", "tests/test_browser.py",
                "tests/test_explore_browser.py")
#: how long the build waits for notebooks that other workers are still executing (seconds)
NOTEBOOK_WAIT = float(os.environ.get("METABITS_NOTEBOOK_WAIT", "1800"))


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


def pytest_configure(config):
    """A notebook's kernel that dies before it answers is started again, once.

    nbval starts each notebook's kernel on TCP ports that jupyter_client finds free and releases
    just before the kernel binds them, and sends the kernel's errors to /dev/null. With two
    xdist workers starting kernels at the same moment, one kernel died before replying in one
    of about ten runs of the full command (the first notebook's, at the start), which looks like
    both picking the same port. A second start, on newly chosen ports, runs the notebook as
    before; a kernel that dies twice still fails its notebook."""
    try:
        import nbval.kernel as kernel
    except ImportError:  # nbval is not installed: no notebooks are collected
        return
    if getattr(kernel.start_new_kernel, "_retries", False):
        return
    start = kernel.start_new_kernel

    def start_new_kernel(*args, **kwargs):
        try:
            return start(*args, **kwargs)
        except RuntimeError as error:
            if "died" not in str(error):
                raise
            return start(*args, **kwargs)

    start_new_kernel._retries = True
    kernel.start_new_kernel = start_new_kernel


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
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # An xdist worker: the notebooks first, then the built site's unit (it waits for the
        # notebooks; started early, the build and the browser overlap the unit tests), then the
        # modules with slow tests (while one worker builds and browses the site, the other takes
        # the long units, so that the short ones are left to even out the end), then the rest
        # as collected. Every worker collects the same order, which the scheduler follows.
        slow = {item.nodeid.split("::", 1)[0] for item in items
                if item.get_closest_marker("slow") is not None}

        def rank(item):
            if type(item).__name__ == "IPyNbCell":
                return 0
            module = item.nodeid.split("::", 1)[0]
            if module in SITE_MODULES:
                return 1
            return 2 if module in slow else 3

        items[:] = sorted(items, key=rank)


def pytest_collection_finish(session):
    """Count the cells of each notebook this session runs (after ``-k``/``-m`` deselection)."""
    _COLLECTED.clear()
    _COLLECTED.update(Path(str(item.parent.fspath)).resolve() for item in session.items
                      if type(item).__name__ == "IPyNbCell")


def _shared_dir(config) -> Path:
    """The session's temporary folder that every xdist worker sees (the worker's own one's
    parent under xdist), for the executed notebooks and the book build."""
    base = config._tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base


@pytest.fixture(scope="session")
def shared_dir(request) -> Path:
    """The session's temporary folder that every xdist worker (and the controller) sees."""
    return _shared_dir(request.config)


def _test_helper(name: str, folder: str = "tests"):
    """The module ``folder``/``name``.py, loaded from its path: the controlling process of xdist
    collects no tests, so tests/ is not on its import path (nor is _ext/ on any)."""
    import importlib.util

    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module


def _pip_resolve():
    """tests/_pip_resolve.py, the network test's pip."""
    return _test_helper("_pip_resolve")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, called in the controlling process
def pytest_xdist_node_collection_finished(node, ids):
    """Start the network test's pip (tests/_pip_resolve.py) as soon as a worker has collected
    that test: pip waits about half its time for PyPI, and so it waits while the workers run the
    notebooks instead of at the end; the test reads its outcome from the shared folder."""
    pip, shared = _pip_resolve(), _shared_dir(node.config)
    if pip.TEST in ids and not (shared / pip.STARTED).is_file():  # the first worker to collect it
        pip.start(shared)


def _notebook_file(config, path: Path) -> Path:
    folder = _shared_dir(config) / "executed-notebooks"
    folder.mkdir(exist_ok=True)
    return folder / (hashlib.sha1(str(path).encode()).hexdigest()[:16] + ".json")


def _save_executed(config, path: Path) -> None:
    """Write what nbval did with one notebook (all its collected cells have run) for the build."""
    import nbformat

    entry = _EXECUTED.get(path)
    record = {"path": str(path), "failed": True, "seconds": 0.0, "cells": 0, "nb": None}
    if entry is not None:
        record.update(failed=entry["failed"], seconds=entry["seconds"], cells=entry["cells"],
                      nb=nbformat.writes(entry["nb"]))
    target = _notebook_file(config, path)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    tmp.replace(target)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: without it, unused
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's scheduling in whole units: a notebook's cells (nbval runs them in order in
    one kernel), a test module's tests, and the modules that need the built site together, in
    the order the workers collected them (:func:`pytest_collection_modifyitems`)."""
    from xdist.scheduler import LoadScopeScheduling

    class BookScheduling(LoadScopeScheduling):
        def __init__(self, config, log=None):
            super().__init__(config, log)
            config.option.loadscopereorder = False  # keep the order given below

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return "built-site" if module in SITE_MODULES else module

    return BookScheduling(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _is_nbval_cell(item):
        return
    if call.when == "teardown":
        path = Path(str(item.parent.fspath)).resolve()
        _FINISHED[path] += 1
        if _FINISHED[path] == _COLLECTED[path]:
            _save_executed(item.config, path)
        return
    if call.when != "call":
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


def _executed_notebooks(config) -> dict[Path, dict]:
    """What nbval did with every notebook of this session, from every worker: waits (up to
    ``METABITS_NOTEBOOK_WAIT`` seconds) for notebooks that another xdist worker still runs."""
    import nbformat

    wanted = {path: _notebook_file(config, path) for path in _COLLECTED}
    if os.environ.get("PYTEST_XDIST_WORKER"):
        deadline = time.monotonic() + NOTEBOOK_WAIT
        while (any(not f.is_file() for f in wanted.values())
               and time.monotonic() < deadline):
            time.sleep(0.5)
    executed = {}
    for path, file in wanted.items():
        if not file.is_file():
            continue  # not run (or not finished in time): the build executes it
        record = json.loads(file.read_text(encoding="utf-8"))
        if record["nb"] is not None:
            executed[path] = {"nb": nbformat.reads(record["nb"], as_version=4),
                              "seconds": record["seconds"], "failed": record["failed"],
                              "cells": record["cells"]}
    return executed


def _fill_cache(cache_dir: Path, executed: dict[Path, dict]) -> list[Path]:
    """Put every notebook nbval executed without failure into a new jupyter-cache."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_dir))
    done = []
    for path, entry in executed.items():
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


@contextmanager
def _locked(path: Path):
    """An exclusive lock on ``path`` across the session's processes (xdist workers)."""
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def book_build(request) -> BookBuild:
    """Build the book once per session with ``-W --keep-going`` (see the module docstring).

    Under xdist the first worker that needs it builds it; another one waits and reads the result.
    """
    shared = _shared_dir(request.config)
    with _locked(shared / "book-build.lock"):
        result = shared / "book-build.json"
        if result.is_file():
            done = json.loads(result.read_text(encoding="utf-8"))
            return BookBuild(done["returncode"], done["log"], Path(done["html"]),
                             [Path(p) for p in done["cached"]])
        build = _build_book(request.config, shared / "book")
        result.write_text(json.dumps({**asdict(build), "html": str(build.html),
                                      "cached": [str(p) for p in build.cached]}),
                          encoding="utf-8")
        return build


def _build_book(config, out: Path) -> BookBuild:
    import yaml

    out.mkdir()
    config_yml = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    cache_dir = out / "jupyter_cache"
    cached = _fill_cache(cache_dir, _executed_notebooks(config)) if _COLLECTED else []
    config_yml.setdefault("execute", {})
    config_yml["execute"]["execute_notebooks"] = "cache"
    config_yml["execute"]["cache"] = str(cache_dir)
    local = config_yml.get("sphinx", {}).get("local_extensions") or {}
    for name, folder in local.items():  # relative to the config file, which now lives in out/
        local[name] = str((ROOT / folder).resolve())
    config_file = out / "_config.yml"
    config_file.write_text(yaml.safe_dump(config_yml, allow_unicode=True), encoding="utf-8")
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
