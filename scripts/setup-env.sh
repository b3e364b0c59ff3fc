#!/usr/bin/env bash
# Create (or update) the project's virtual environment .venv, exactly as the lock files say:
#   bash scripts/setup-env.sh          the book and its tests (tests/requirements.txt, axe-core)
#   bash scripts/setup-env.sh --book   only what building the website needs (requirements.txt:
#                                      build-book.sh and the publishing workflow install no
#                                      test-only packages; an environment that already has the
#                                      tests' packages keeps them)
# pip-sync installs, upgrades and removes packages until .venv matches the lock. It runs when the
# lock file, or the pyproject.toml of a package the lock installs editable (its "-e PATH" lines),
# has changed since the last sync: .venv/.synced holds their SHA-256. Delete that file to sync
# again. The lock files pin every package; scripts/lock.sh regenerates them.
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
# the lock file's name and text, then the pyproject.toml of every editable requirement in it
mapfile -t editables < <(sed -nE 's/^(-e|--editable)[[:space:]=]+([^[:space:]#]+).*/\2/p' "$lock")
synced=$({ echo "$lock"; cat "$lock"; for path in "${editables[@]}"; do
             echo "$path"; cat "$path/pyproject.toml"; done; } | sha256sum | cut -d' ' -f1)
if [ "$(cat .venv/.synced 2>/dev/null)" != "$synced" ]; then
  rm -f .venv/.synced
  .venv/bin/pip-sync --quiet --python-executable .venv/bin/python "$lock"
  echo "$synced" > .venv/.synced
fi
.venv/bin/python scripts/fetch_npm.py "${npm[@]}"
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
