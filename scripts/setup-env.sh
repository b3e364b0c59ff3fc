#!/usr/bin/env bash
# Create (or update) the project's virtual environment .venv, exactly as the lock files say:
#   bash scripts/setup-env.sh          the book and its tests (tests/requirements.txt, axe-core)
#   bash scripts/setup-env.sh --book   only what building the website needs (requirements.txt:
#                                      build-book.sh and the publishing workflow install no
#                                      test-only packages; an environment that already has the
#                                      tests' packages keeps them)
# pip-sync installs, upgrades and removes packages until .venv matches the lock (and is skipped
# when it already does: scripts/env_in_sync.py). The lock files pin every package;
# scripts/lock.sh regenerates them.
# Both modes also put the official MathJax 3.2.2 from the npm registry, checked against its
# published checksum, into .venv/share (scripts/fetch_npm.py). Needs only python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
PIP_TOOLS="pip-tools==7.6.2"  # the version requirements.in pins
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if [ "${1:-}" = "--book" ] && [ ! -e .venv/.with-tests ]; then
  lock=requirements.txt
  npm=(mathjax)
else
  lock=tests/requirements.txt
  npm=(mathjax axe-core)
  touch .venv/.with-tests
fi
if [ ! -x .venv/bin/pip-sync ]; then
  .venv/bin/python -m pip install --quiet "$PIP_TOOLS"
fi
# pip-sync rebuilds the editable library (-e ./lib) every time, even when nothing changed:
# scripts/env_in_sync.py asks pip-tools' own comparison first and skips it when the lock's pins
# are installed and the library is installed editable from ./lib's unchanged pyproject.toml
if ! .venv/bin/python scripts/env_in_sync.py "$lock" 2>/dev/null; then
  .venv/bin/pip-sync --quiet --python-executable .venv/bin/python "$lock"
  .venv/bin/python scripts/env_in_sync.py --record "$lock"
fi
.venv/bin/python scripts/fetch_npm.py "${npm[@]}"
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
