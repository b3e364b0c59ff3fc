"""Which committed figures a build changed visibly (the comparison itself is
:mod:`metabits_book.figure_check`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from metabits_book.figure_check import figure_difference


def changed_figures(root: Path, folder: str = "figures") -> dict[str, str]:
    """Every figure in ``folder`` that differs visibly from the last commit, with the reason.

    Untracked figures (drawn but never committed) and deleted ones count as changes; files whose
    bytes differ only by float noise do not.
    """
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", folder],
                            cwd=root, capture_output=True, text=True, check=True).stdout
    problems = {}
    for line in status.splitlines():
        code, path = line[:2], line[3:]
        if code == "??":
            problems[path] = "new figure, not committed"
        elif "D" in code:
            problems[path] = "deleted"
        else:
            committed = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=root,
                                       capture_output=True, check=True).stdout
            reason = figure_difference(committed, root / path)
            if reason:
                problems[path] = reason
    return problems
