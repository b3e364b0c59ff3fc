"""pip's resolution of the pinned requirements for Binder's Python (the network test's work).

``tests/test_environment.py::test_pinned_requirements_resolve_for_the_runtime_python`` asks PyPI,
through pip's resolver in ``--dry-run`` mode, whether every pin resolves as binary wheels for the
Python ``runtime.txt`` names. pip spends about half of its 5-10 s waiting for PyPI's answers.
Under pytest-xdist, the controlling process, which runs no test, starts that pip as soon as a
worker has collected the test (``conftest.py``: :func:`start`), so the waiting overlaps the
workers' notebooks; the test then reads its outcome (:func:`outcome`). Run without xdist, or when
nothing started it, the test runs pip itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "tests" / "requirements.txt"]
#: Wheel platforms of Binder's image (Ubuntu 22.04, glibc 2.35) and of CI (Debian 12, glibc 2.36):
#: pip takes a --platform literally, so list the manylinux tags the pinned wheels use.
PLATFORMS = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64",
             "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux1_x86_64", "linux_x86_64"]
#: the test whose pip the controlling process starts early
TEST = "tests/test_environment.py::test_pinned_requirements_resolve_for_the_runtime_python"
#: how long pip may take (seconds)
TIMEOUT = 240
STARTED, DONE = "pip-resolve.started", "pip-resolve.json"


def pyproject() -> dict:
    """``lib/pyproject.toml`` (Python >= 3.11, the version ``runtime.txt`` names: tomllib)."""
    import tomllib

    return tomllib.loads((ROOT / "lib" / "pyproject.toml").read_text(encoding="utf-8"))


def runtime_python() -> str:
    text = (ROOT / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", text)
    assert match, f"runtime.txt must read like 'python-3.11' (repo2docker's format), not {text!r}"
    return match.group(1)


def requirements_for_pip(folder: Path) -> Path:
    """The requirement files with ``-e ./lib`` replaced by the library's own dependencies.

    The library itself is this repository's code, not a PyPI package; what has to resolve is what
    it pulls in (``lib/pyproject.toml``), together with every pin.
    """
    lines = []
    for path in REQUIREMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.split("#", 1)[0].strip()
            if not stripped:
                continue
            if stripped.startswith(("-e", "--editable")):
                target = stripped.split(maxsplit=1)[1]
                assert (ROOT / target).resolve() == (ROOT / "lib").resolve(), \
                    f"unexpected editable requirement in {path.name}: {line}"
                lines += pyproject()["project"].get("dependencies", [])
                continue
            assert not stripped.startswith("-"), \
                f"{path.name}: option line {line!r} needs handling in this test"
            lines.append(stripped)
    out = folder / "requirements-resolve.txt"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def command(folder: Path) -> list[str]:
    """pip's dry-run install of every pin for the runtime Python, binary wheels only."""
    return [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
            "--isolated", "--disable-pip-version-check", "--no-input", "--quiet",
            "--index-url", "https://pypi.org/simple",
            "--only-binary=:all:", "--implementation", "cp", "--python-version",
            runtime_python(), *[arg for platform in PLATFORMS for arg in ("--platform", platform)],
            "-r", str(requirements_for_pip(folder))]


def run(folder: Path) -> dict:
    """Run pip now: ``{"returncode": int or None (timed out), "output": str}``."""
    try:
        proc = subprocess.run(command(folder), capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"returncode": None, "output": ""}
    return {"returncode": proc.returncode, "output": proc.stdout + proc.stderr}


def start(folder: Path) -> None:
    """Run pip in a background thread (``folder/pip-resolve.started`` marks it begun); its
    outcome goes to ``folder/pip-resolve.json``."""
    (folder / STARTED).write_text(str(os.getpid()), encoding="utf-8")

    def work():
        try:
            result = run(folder)
        except Exception as error:  # noqa: BLE001 - the test reports it
            result = {"returncode": -1, "output": f"starting pip failed: {error!r}"}
        tmp = folder / (DONE + ".tmp")
        tmp.write_text(json.dumps(result), encoding="utf-8")
        tmp.replace(folder / DONE)

    threading.Thread(target=work, name="pip-resolve", daemon=True).start()


def outcome(shared: Path, own: Path) -> dict:
    """pip's outcome: the one started early in ``shared`` (waited for), else a run in ``own``."""
    if not (shared / STARTED).is_file():
        return run(own)
    deadline = time.monotonic() + TIMEOUT + 30
    while not (shared / DONE).is_file():
        if time.monotonic() > deadline:
            return {"returncode": None, "output": ""}
        time.sleep(0.2)
    return json.loads((shared / DONE).read_text(encoding="utf-8"))
