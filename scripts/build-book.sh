#!/usr/bin/env bash
# Build the static website into _build/html (executes every notebook).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh --book
.venv/bin/jupyter-book build . "$@"
echo "The book is at $(pwd)/_build/html/index.html"
