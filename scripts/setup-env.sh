#!/usr/bin/env bash
# Create (or update) the project's virtual environment .venv from requirements.txt.
# Used by build-book.sh and run-tests.sh; needs only python3 (>= 3.10) with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.requirements.sha
want=$(cat requirements.txt tests/requirements.txt lib/pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt -r tests/requirements.txt
  echo "$want" > "$stamp"
fi
.venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
