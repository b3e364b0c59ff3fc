#!/usr/bin/env bash
# Create (or update) the project's virtual environment .venv.
#   bash scripts/setup-env.sh          everything: the book (requirements.txt) and its tests
#                                      (tests/requirements.txt, axe-core)
#   bash scripts/setup-env.sh --book   only what building the website needs (build-book.sh and
#                                      the publishing workflow: no test-only packages)
# Both also put the official MathJax 3.2.2 from the npm registry, checked against its published
# checksum, into .venv/share (scripts/fetch_npm.py). Needs only python3 (>= 3.10) with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
files=(requirements.txt)
npm=(mathjax)
if [ "${1:-}" != "--book" ]; then
  files+=(tests/requirements.txt)
  npm+=(axe-core)
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.requirements-$(printf '%s\n' "${files[@]}" | sha256sum | cut -c1-8).sha
want=$(cat "${files[@]}" lib/pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet $(printf -- '-r %s ' "${files[@]}")
  echo "$want" > "$stamp"
fi
.venv/bin/python scripts/fetch_npm.py "${npm[@]}"
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
