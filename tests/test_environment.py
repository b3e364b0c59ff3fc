"""The environment the book promises: Binder's Python, the pinned requirements, one repository URL.

- ``runtime.txt`` names the Python that CI and the publishing workflow use, so Binder
  (repo2docker) builds the same one instead of its default (3.10, for which several pins have no
  release).
- Every pinned requirement resolves for that Python from PyPI as binary wheels (pip's resolver in
  ``--dry-run`` mode, nothing installed). This asks PyPI, so it needs the network: it fails under
  CI (``CI`` set) and is skipped elsewhere when PyPI cannot be reached.
- ``CITATION.cff`` cites the repository at the one address the book uses, ``repository.url`` in
  ``_config.yml``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import _pip_resolve
import pytest
import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]


def pyproject() -> dict:
    try:
        return _pip_resolve.pyproject()
    except ImportError:  # tomllib: Python >= 3.11, the version runtime.txt names
        pytest.skip("reading lib/pyproject.toml needs Python 3.11 (tomllib)")


runtime_python = _pip_resolve.runtime_python


def test_runtime_txt_is_the_python_ci_uses():
    version = runtime_python()
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text("utf-8"))
    steps = [step for job in workflow["jobs"].values() for step in job.get("steps", [])]
    setup = [step["with"]["python-version"] for step in steps
             if step.get("uses", "").startswith("actions/setup-python")]
    assert setup == [version], f"the workflow sets up Python {setup}, runtime.txt says {version}"
    requires = pyproject()["project"].get("requires-python", "")
    assert version in SpecifierSet(requires), f"lib/ requires Python {requires}, not {version}"


@pytest.mark.network
def test_pinned_requirements_resolve_for_the_runtime_python(tmp_path, shared_dir):
    """pip resolves every pin for Binder's Python; under xdist its pip was started early by the
    controlling process (tests/_pip_resolve.py), so its waits for PyPI overlap the notebooks."""
    version = runtime_python()
    result = _pip_resolve.outcome(shared_dir, tmp_path)
    code, output = result["returncode"], result["output"]
    if code == 0:
        return
    offline = code is None or re.search(
        r"NewConnectionError|ConnectionError|Max retries exceeded|Temporary failure in name "
        r"resolution|Name or service not known|ProxyError|SSLError|Read timed out", output)
    if offline:
        why = "timed out" if code is None else f"failed:\n{output[-2000:]}"
        if os.environ.get("CI"):
            pytest.fail(f"pip could not reach PyPI ({why})", pytrace=False)
        pytest.skip(f"PyPI not reachable: pip {why}")
    pytest.fail(f"the pinned requirements do not resolve for Python {version} (runtime.txt), "
                f"so Binder cannot build:\n{output[-4000:]}", pytrace=False)


def test_citation_cites_the_configured_repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    assert citation["repository-code"] == config["repository"]["url"], (
        "CITATION.cff's repository-code must equal repository.url in _config.yml "
        "(the one place the repository's address is set)")


# --- the library's own imports ---------------------------------------------------------------------

#: import name -> distribution name, where they differ
DISTRIBUTION = {"sklearn": "scikit-learn", "IPython": "ipython", "myst_nb": "myst-nb"}


def _imports(package: Path, own: str) -> set:
    """Top-level names of every package a package imports (at any depth, lazily or not)."""
    import ast

    names = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != own}


def _library_imports() -> set:
    return _imports(ROOT / "lib" / "metabits", "metabits")


def _book_imports() -> set:
    return _imports(ROOT / "book" / "_support" / "metabits_book", "metabits_book")


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()


def test_every_import_of_the_library_is_declared():
    """``pip install ./lib`` gets everything the library imports: a dependency, or an extra for
    what only one feature needs (the KSG estimator, the live explorers, the book's glue)."""
    project = pyproject()["project"]
    declared = {_name(r) for r in project["dependencies"]}
    extras = {_name(r) for reqs in project["optional-dependencies"].values() for r in reqs}
    imports = {DISTRIBUTION.get(n, n).lower() for n in _library_imports()}
    assert {"numpy", "scipy", "matplotlib", "pandas"} <= declared
    assert imports - declared - extras == set(), "imported but not declared in lib/pyproject.toml"


def test_every_import_of_the_books_code_is_declared():
    """``pip install ./book/_support`` gets what the book's code imports beyond the library's."""
    import tomllib

    project = tomllib.loads((ROOT / "book" / "_support" / "pyproject.toml").read_text())["project"]
    declared = {_name(r) for r in project["dependencies"]}
    extras = {_name(r) for reqs in project["optional-dependencies"].values() for r in reqs}
    library = {_name(r) for r in pyproject()["project"]["dependencies"]}
    imports = {DISTRIBUTION.get(n, n).lower() for n in _book_imports()} - {"metabits"}
    assert "metabits" in declared
    assert imports - declared - extras - library == set(), \
        "imported but not declared in book/_support/pyproject.toml"


def test_every_library_pinned_by_hand_is_used():
    """Each library requirements.in names for the book is imported by the library or the book's
    code (the build and test tools aside)."""
    tools = {"pip-tools", "jupyter-book", "sphinx", "myst-nb", "myst-parser", "sphinx-book-theme",
             "pydata-sphinx-theme", "docutils", "sphinx-proof", "sphinx-exercise",
             "sphinxcontrib-bibtex", "ipykernel", "soupsieve", "pytensor", "jaxlib",
             "plotly"}  # plotly: _ext/metabits_explore.py copies its plotly.min.js to the site
    wanted = {_name(line) for line in (ROOT / "requirements.in").read_text().splitlines()
              if line.strip() and not line.startswith(("#", "-"))} - tools
    used = {DISTRIBUTION.get(n, n).lower() for n in _library_imports() | _book_imports()}
    assert wanted - used == set(), "pinned by hand in requirements.in but imported by neither"
    assert {"numpy", "scipy", "matplotlib", "pandas", "seaborn", "tqdm"} <= wanted
