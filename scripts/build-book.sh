#!/usr/bin/env bash
# Build the static website into _build/html. Jupyter Book executes each notebook into its cache,
# _build/.jupyter_cache, and reuses the outputs of a notebook whose code has not changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh --book
unset PYTHONDONTWRITEBYTECODE  # each notebook's kernel imports the same modules (run-tests.sh)
# The cache knows the notebooks' code, not the code they import: it is emptied when the library,
# the book's code or the lock file has changed since the last build (their SHA-256 is kept in
# _build/.library).
library=$( { find lib/metabits lib/pyproject.toml book/_support/metabits_book \
                book/_support/pyproject.toml -type f -not -path '*/__pycache__/*' -print0 |
             LC_ALL=C sort -z | xargs -0 sha256sum; sha256sum requirements.txt; } |
           sha256sum | cut -d' ' -f1)
if [ "$(cat _build/.library 2>/dev/null)" != "$library" ]; then
  rm -rf _build/.jupyter_cache
fi
.venv/bin/jupyter-book build . "$@"
echo "$library" > _build/.library
# the plain notebooks Binder and Colab open (launch/student, launch/instructor), from this build
.venv/bin/python scripts/make_launch_notebooks.py
echo "The book is at $(pwd)/_build/html/index.html"
