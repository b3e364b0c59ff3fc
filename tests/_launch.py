"""Shared helpers of the launch-file tests (test_launch_notebooks.py, test_binder_notebooks.py).

The book's pages as the table of contents lists them, a notebook's cells and Markdown, the MyST
that plain Jupyter would show as raw text, and a temporary copy of what Binder's ``postBuild``
sees. Importing this module puts ``scripts/`` on the import path (the converter and Binder's
step are scripts, not library modules).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))


def toc_docs(suffix: str) -> list[str]:
    """The table of contents' documents that are ``<doc><suffix>`` files (``.ipynb``, ``.md``)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    docs = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return sorted(d for d in docs if (ROOT / f"{d}{suffix}").is_file())


NOTEBOOKS = toc_docs(".ipynb")
PAGES = toc_docs(".md")

#: MyST that plain Jupyter and Colab would show as raw text
MYST = {
    "a role": re.compile(r"\{[a-z][\w:-]*\}`"),
    "a directive": re.compile(r"^ {0,3}(?:`{3,}|:{3,})\{", re.M),
    "a colon fence": re.compile(r"^ {0,3}:{3,}", re.M),
    "a target": re.compile(r"^\([\w.:-]+\)=\s*$", re.M),
    "a directive option": re.compile(r"^:(?:label|class|name|alt|nonumber):", re.M),
    "a substitution": re.compile(r"\{\{\s*[A-Za-z_][\w.]*\s*\}\}"),
}
#: fenced code blocks and code spans (their text is code, not MyST)
CODE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1\s*$|(`+).+?\2", re.M | re.S)


def cells(path: Path) -> list[dict]:
    """A notebook's cells, each ``source`` one string."""
    out = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for cell in out:
        cell["source"] = "".join(cell["source"]) if isinstance(cell["source"], list) \
            else cell["source"]
    return out


def markdown(path: Path) -> str:
    """A notebook's Markdown cells, joined."""
    return "\n\n".join(c["source"] for c in cells(path) if c["cell_type"] == "markdown")


def repo_copy(tmp_path: Path, launch: str) -> Path:
    """The files Binder's postBuild sees, copied under ``tmp_path``: book/, ``launch`` (the
    launch folder's name) and _config.yml."""
    root = tmp_path / "repo"
    for name in ("book", launch):
        shutil.copytree(ROOT / name, root / name,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "_build"))
    shutil.copy(ROOT / "_config.yml", root / "_config.yml")
    return root
