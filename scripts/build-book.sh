#!/usr/bin/env bash
# Build the static website into _build/html (executes every notebook).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh --book
unset PYTHONDONTWRITEBYTECODE  # each notebook's kernel imports the same modules (run-tests.sh)
.venv/bin/jupyter-book build . "$@"
# the plain notebooks Binder and Colab open (launch/student, launch/instructor), from this build
.venv/bin/python scripts/make_launch_notebooks.py
echo "The book is at $(pwd)/_build/html/index.html"
