#!/usr/bin/env bash
# Run every test: the library's unit and property tests, nbval on every notebook, and a full
# book build that fails on any warning or notebook error (tests/test_book_build.py).
# In parallel (pytest-xdist): one worker per core, at most 4; conftest.py keeps each notebook and
# the built site's tests in one worker and lets the build reuse every worker's nbval outputs.
# Serial: bash scripts/run-tests.sh -n 0
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
# Let Python keep the modules it compiles (a machine may turn that off with
# PYTHONDONTWRITEBYTECODE): every worker, notebook kernel and the book build import the same
# library, pandas, matplotlib and test modules, and pytest rewrites the test modules' asserts;
# compiled once, the rest load them from __pycache__ (collection 6.9 s -> 3.5 s a worker).
unset PYTHONDONTWRITEBYTECODE
# No MPLBACKEND here: Jupyter kernels inherit it, and with MPLBACKEND=Agg the notebooks that nbval
# runs (and the book build reuses) show no figures. Headless, matplotlib picks Agg by itself.
exec .venv/bin/python -m pytest -n auto --maxprocesses 4 "$@"
