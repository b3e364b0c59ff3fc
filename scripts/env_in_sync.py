"""Whether .venv already matches a lock file, so that scripts/setup-env.sh can skip pip-sync.

pip-sync compares the installed packages with the lock file's pins and installs or removes
what differs; but it cannot compare an editable requirement (``-e ./lib``, the book's library)
with what is installed, so it uninstalls and rebuilds the library every time (2.7 s of the
test command on a warm environment, and a build environment fetched for setuptools). This
script asks pip-tools' own comparison (``piptools.sync.diff``, the one pip-sync runs) and calls
the environment in sync when the only difference it finds is an editable requirement that is
installed, editable, from the same folder, from the same ``pyproject.toml`` as at the last sync
(its SHA-256, which ``--record`` writes after pip-sync has run).

Run with the environment's Python (pip-tools is installed there):
``.venv/bin/python scripts/env_in_sync.py LOCK`` exits 0 when pip-sync would only rebuild the
editable requirements, 1 otherwise; ``--record LOCK`` writes the stamp.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

STAMP = Path(sys.prefix) / ".editable-pyprojects.sha256"


def _editables(lock: str):
    """The lock's requirements and, of those, the editable ones: folder -> requirement."""
    from pip._internal.commands import create_command
    from piptools import sync
    from piptools._compat import parse_requirements

    install = create_command("install")
    options, _ = install.parse_args([])
    session = install._build_session(options)
    finder = install._build_package_finder(options=options, session=session)
    requirements = list(sync.merge(parse_requirements(lock, finder=finder, session=session),
                                   ignore_conflicts=False))
    editables = {Path(r.link.file_path).resolve(): r for r in requirements if r.editable}
    return requirements, editables


def _fingerprint(folders) -> str:
    """One line per editable folder: its path and the SHA-256 of its pyproject.toml."""
    lines = []
    for folder in sorted(folders):
        digest = hashlib.sha256((folder / "pyproject.toml").read_bytes()).hexdigest()
        lines.append(f"{digest}  {folder}")
    return "\n".join(lines) + "\n"


def in_sync(lock: str) -> bool:
    from piptools import sync
    from piptools.scripts.sync import _get_installed_distributions

    requirements, editables = _editables(lock)
    installed = {d.key: d for d in _get_installed_distributions()}
    to_install, to_uninstall = sync.diff(requirements, installed.values())
    if any(not r.editable for r in to_install):
        return False
    if not STAMP.is_file() or STAMP.read_text(encoding="utf-8") != _fingerprint(editables):
        return False
    # each editable requirement is installed, editable, from its folder; nothing else differs
    names = set()
    for folder in editables:
        found = [d for d in installed.values() if d.direct_url is not None
                 and d.direct_url.url == folder.as_uri()
                 and getattr(d.direct_url.dir_info, "editable", False)]
        if len(found) != 1:
            return False
        names.add(found[0].key)
    return set(to_uninstall) == names


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--record":
        _, editables = _editables(argv[1])
        STAMP.write_text(_fingerprint(editables), encoding="utf-8")
        return 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    return 0 if in_sync(argv[0]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
