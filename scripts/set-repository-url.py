#!/usr/bin/env python3
"""Move the book, or its release: set the repository address or release tag everywhere at once.

    python3 scripts/set-repository-url.py https://github.com/OWNER/REPO
    python3 scripts/set-repository-url.py --release main
    python3 scripts/set-repository-url.py https://github.com/OWNER/REPO --release main

The address is one setting, ``repository.url`` in ``_config.yml`` (the launch, repository and
issue buttons read it). The ref is another, ``repository.branch``: the branch (or tag) whose
launch notebooks the Binder and Colab buttons open, and from which those notebooks install the
library — ``main``, the branch the website is published from.
Copies live where ``_config.yml`` is not read: ``CITATION.cff`` (``repository-code``), each
chapter's Colab install line, and the launch notebooks in ``launch/`` (their install line pinned
to the release, figures at ``raw.githubusercontent.com/OWNER/REPO/<release>/``, links to the
website at ``OWNER.github.io/REPO``). This script rewrites all of them;
``tests/test_environment.py``, ``tests/test_repository_url.py`` and
``tests/test_launch_notebooks.py`` fail if they ever disagree.

``tests/test_repository_url.py`` also checks that the ref is the branch
``.github/workflows/book.yml`` publishes the website from.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_launch_notebooks import LAUNCH, github_parts, website  # noqa: E402


def _setting(text: str, key: str) -> tuple[str, re.Match]:
    block = re.search(r"^repository:\n((?:  .*\n|\s*\n)*)", text, re.M)
    if not block:
        raise SystemExit("no repository: section in _config.yml")
    match = re.search(rf"^  {key}: (\S+)$", block.group(1), re.M)
    if not match:
        raise SystemExit(f"no repository.{key} in _config.yml")
    return match.group(1), match


def _files(root: Path, launch_only: bool = False) -> list[Path]:
    launch = sorted((root / LAUNCH).rglob("*.ipynb"))
    if launch_only:
        return launch
    return [root / "_config.yml", root / "CITATION.cff", root / "README.md",
            root / "lib" / "README.md", root / "lib" / "pyproject.toml",
            *sorted((root / "book").rglob("*.ipynb")), *launch]


def _rewrite(paths, replacements: list[tuple[str, str]], root: Path) -> list[Path]:
    changed = []
    for path in paths:
        if ".ipynb_checkpoints" in path.parts or not path.is_file():
            continue
        before = path.read_text(encoding="utf-8")
        after = before
        for old, new in replacements:
            after = after.replace(old, new)
        if after != before:
            path.write_text(after, encoding="utf-8")
            changed.append(path.relative_to(root))
    return changed


def move(root: Path = ROOT, url: str | None = None, release: str | None = None) -> list[Path]:
    """Set the repository address and/or the release everywhere; return the files changed."""
    config = root / "_config.yml"
    changed = []
    if url is not None:
        if not re.fullmatch(r"https://[^\s\"'#]+", url):
            raise SystemExit(f"not an https address: {url!r}")
        url = url.rstrip("/")
        text = config.read_text(encoding="utf-8")
        old, _ = _setting(text, "url")
        ref, _ = _setting(text, "branch")
        replacements = [(f"git+{old}@", f"git+{url}@"), (f"git+{old}#", f"git+{url}#")]
        if old.startswith("https://github.com/") and url.startswith("https://github.com/"):
            (oo, orr), (no, nr) = github_parts(old), github_parts(url)
            replacements += [(f"https://raw.githubusercontent.com/{oo}/{orr}/",
                              f"https://raw.githubusercontent.com/{no}/{nr}/"),
                             (website(old), website(url))]
        replacements.append((old, url))
        changed += _rewrite(_files(root), replacements, root)
        print(f"{old} -> {url}")
    if release is not None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", release):
            raise SystemExit(f"not a branch or tag name: {release!r}")
        text = config.read_text(encoding="utf-8")
        repo, _ = _setting(text, "url")
        old, match = _setting(text, "branch")
        block_start = re.search(r"^repository:\n", text, re.M).end()
        start, end = block_start + match.start(1), block_start + match.end(1)
        config.write_text(text[:start] + release + text[end:], encoding="utf-8")
        changed.append(config.relative_to(root))
        replacements = [(f"git+{repo}@{old}#", f"git+{repo}@{release}#")]
        if repo.startswith("https://github.com/"):
            owner, name = github_parts(repo)
            raw = f"https://raw.githubusercontent.com/{owner}/{name}/"
            replacements.append((f"{raw}{old}/", f"{raw}{release}/"))
        changed += _rewrite(_files(root, launch_only=True), replacements, root)
        print(f"release {old} -> {release}")
    return sorted(set(changed))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="the new repository address")
    parser.add_argument("--release", help="the branch or tag Binder and Colab open (main)")
    args = parser.parse_args(argv)
    if args.url is None and args.release is None:
        raise SystemExit(__doc__)
    changed = move(ROOT, args.url, args.release)
    print("\n".join(f"  {p}" for p in changed))


if __name__ == "__main__":
    main()
