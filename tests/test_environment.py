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
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "tests" / "requirements.txt"]
#: Wheel platforms of Binder's image (Ubuntu 22.04, glibc 2.35) and of CI (Debian 12, glibc 2.36):
#: pip takes a --platform literally, so list the manylinux tags the pinned wheels use.
PLATFORMS = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64",
             "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux1_x86_64", "linux_x86_64"]
#: how long pip may take (seconds)
PIP_TIMEOUT = 240


def pyproject() -> dict:
    """``lib/pyproject.toml``."""
    try:
        import tomllib
    except ImportError:  # Python >= 3.11, the version runtime.txt names
        pytest.skip("reading lib/pyproject.toml needs Python 3.11 (tomllib)")
    return tomllib.loads((ROOT / "lib" / "pyproject.toml").read_text(encoding="utf-8"))


def runtime_python() -> str:
    text = (ROOT / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", text)
    assert match, f"runtime.txt must read like 'python-3.11' (repo2docker's format), not {text!r}"
    return match.group(1)


#: the packages of this repository that the lock files install editable
EDITABLE = {(ROOT / "lib").resolve(), (ROOT / "book" / "_support").resolve()}
OWN = {"metabits", "metabits-book"}


def requirements_for_pip(folder: Path) -> Path:
    """The lock files with ``-e ./lib`` and ``-e ./book/_support`` replaced by their dependencies.

    The library and the book's code are this repository's code, not PyPI packages; what has to
    resolve is what they pull in (their ``pyproject.toml``), together with every pin.
    """
    import tomllib

    lines = []
    for path in REQUIREMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.split("#", 1)[0].strip()
            if not stripped:
                continue
            if stripped.startswith(("-e", "--editable")):
                target = (ROOT / stripped.split(maxsplit=1)[1]).resolve()
                assert target in EDITABLE, f"unexpected editable requirement in {path.name}: {line}"
                deps = tomllib.loads((target / "pyproject.toml").read_text())["project"]
                lines += [d for d in deps.get("dependencies", []) if _name(d) not in OWN]
                continue
            assert not stripped.startswith("-"), \
                f"{path.name}: option line {line!r} needs handling in this test"
            lines.append(stripped)
    out = folder / "requirements-resolve.txt"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


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
def test_pinned_requirements_resolve_for_the_runtime_python(tmp_path):
    """pip's dry-run install of every pin for Binder's Python, binary wheels only."""
    version = runtime_python()
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
               "--isolated", "--disable-pip-version-check", "--no-input", "--quiet",
               "--index-url", "https://pypi.org/simple", "--only-binary=:all:",
               "--implementation", "cp", "--python-version", version,
               *[arg for platform in PLATFORMS for arg in ("--platform", platform)],
               "-r", str(requirements_for_pip(tmp_path))]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT)
        code, output = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        code, output = None, ""
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


# --- the library's own imports -------------------------------------------------------------------

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
             "plotly",  # plotly: _ext/metabits_explore.py copies its plotly.min.js to the site
             "jupyterlab"}  # to open the launch notebooks locally (README)
    wanted = {_name(line) for line in (ROOT / "requirements.in").read_text().splitlines()
              if line.strip() and not line.startswith(("#", "-"))} - tools
    used = {DISTRIBUTION.get(n, n).lower() for n in _library_imports() | _book_imports()}
    assert wanted - used == set(), "pinned by hand in requirements.in but imported by neither"
    assert {"numpy", "scipy", "matplotlib", "pandas", "seaborn", "tqdm"} <= wanted
