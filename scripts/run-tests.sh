#!/usr/bin/env bash
# Run every test: the library's unit, property and doc tests, nbval on every notebook, and a full
# book build that fails on any warning or notebook error (tests/test_book_build.py), whose site
# the browser tests then visit.
# pytest-xdist runs one worker per core, at most 4. With --dist loadgroup, the tests marked with
# the same xdist_group run in one worker: conftest.py puts each notebook's cells in a group of
# their own and every test that needs the built site in the group "site".
# nbval collects the notebooks (--nbval-lax: each cell must run without error). A first argument
# --no-notebooks leaves the nbval plugin out (scripts/quick-tests.sh: loading it, with the
# Jupyter packages it imports, costs every process about 3 s).
# Extra arguments go to pytest, e.g. a subset: bash scripts/run-tests.sh tests/lib/test_sdt.py
# One process, no xdist: bash scripts/run-tests.sh -n 0
set -euo pipefail
cd "$(dirname "$0")/.."
notebooks=(--nbval-lax)
if [ "${1:-}" = "--no-notebooks" ]; then
  shift
  notebooks=(-p no:nbval)
fi
bash scripts/setup-env.sh
# Python may write the modules it compiles to __pycache__ (unless the machine turned that off).
unset PYTHONDONTWRITEBYTECODE
# One BLAS thread per process, unless the caller chose a number: the workers, the notebook
# kernels and the book build already keep every core busy.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
# No MPLBACKEND here: the notebooks' kernels inherit it, and with MPLBACKEND=Agg the notebooks
# show no figures. Without a display, matplotlib chooses Agg by itself.
exec .venv/bin/python -m pytest -n auto --maxprocesses 4 --dist loadgroup "${notebooks[@]}" "$@"
