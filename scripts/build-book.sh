#!/usr/bin/env bash
# Build the static website into _build/html. Jupyter Book executes each notebook into its cache,
# _build/.jupyter_cache, and reuses the outputs of a notebook whose code has not changed.
#
#   bash scripts/build-book.sh [--student] [jupyter-book options]
#
# The public edition (default) folds each solution under its exercise, as the launch notebooks
# of launch/instructor do, and its download button gives those notebooks. --student builds the
# student edition into _build/student/_build/html: no solutions on the site (sphinx-exercise's
# hide_solutions), the download button and the launch notebooks without them (launch/student,
# with the exercise checkers). An instructor hosts that folder for a class.
set -euo pipefail
cd "$(dirname "$0")/.."
edition=public
if [ "${1:-}" = "--student" ]; then
  edition=student
  shift
fi
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
if [ "$edition" = student ]; then
  # the website's configuration with the solutions left out, written to a copy (_config.yml
  # is not touched); the notebooks' outputs come from the same cache as the public edition's
  mkdir -p _build/student
  .venv/bin/python - "$(pwd)" <<'EOF'
import sys
from pathlib import Path

import yaml

root = Path(sys.argv[1])
config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
config["execute"] = {**config.get("execute", {}), "execute_notebooks": "cache",
                     "cache": str(root / "_build" / ".jupyter_cache")}
sphinx = config.setdefault("sphinx", {})
sphinx["local_extensions"] = {name: str((root / folder).resolve())
                              for name, folder in (sphinx.get("local_extensions") or {}).items()}
cfg = sphinx.setdefault("config", {})
cfg["hide_solutions"] = True
pdf = cfg.get("metabits_pdf")
if pdf:
    cfg["metabits_pdf"] = str(root / pdf)
(root / "_build" / "student" / "_config.yml").write_text(
    yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
EOF
  .venv/bin/jupyter-book build . --config _build/student/_config.yml \
    --path-output _build/student "$@"
  echo "$library" > _build/.library
  .venv/bin/python scripts/make_launch_notebooks.py --build _build/student/_build \
    --downloads student
  echo "The student edition is at $(pwd)/_build/student/_build/html/index.html"
else
  .venv/bin/jupyter-book build . "$@"
  echo "$library" > _build/.library
  # the plain notebooks Binder and Colab open (launch/student, launch/instructor), from this
  # build; the download button gives the instructor edition, solutions folded as on the site
  .venv/bin/python scripts/make_launch_notebooks.py --downloads instructor
  echo "The book is at $(pwd)/_build/html/index.html"
fi
