#!/usr/bin/env python3
"""Move the book: set its repository address everywhere from one command.

    python3 scripts/set-repository-url.py https://github.com/OWNER/REPO

The address is one setting, ``repository.url`` in ``_config.yml`` (the launch, repository and
issue buttons read it). Two files must carry copies, because they are read where ``_config.yml``
is not: ``CITATION.cff`` (``repository-code``) and each notebook's Colab install line. This script
rewrites all three from the new address; ``tests/test_environment.py`` and
``tests/test_repository_url.py`` fail if they ever disagree.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(new: str) -> None:
    if not re.fullmatch(r"https://[^\s\"'#]+", new):
        raise SystemExit(f"not an https address: {new!r}")
    new = new.rstrip("/")
    config = ROOT / "_config.yml"
    text = config.read_text(encoding="utf-8")
    match = re.search(r"^repository:\n(?:  .*\n)*?  url: (\S+)$", text, re.M)
    if not match:
        raise SystemExit("no repository.url in _config.yml")
    old = match.group(1)
    changed = []
    for path in [config, ROOT / "CITATION.cff", *sorted((ROOT / "book").rglob("*.ipynb"))]:
        if ".ipynb_checkpoints" in path.parts:
            continue
        before = path.read_text(encoding="utf-8")
        after = before.replace(old, new)
        if after != before:
            path.write_text(after, encoding="utf-8")
            changed.append(path.relative_to(ROOT))
    print(f"{old} -> {new}")
    print("\n".join(f"  {p}" for p in changed))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
