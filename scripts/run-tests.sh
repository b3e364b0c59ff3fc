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
# One BLAS thread per process (unless the caller chose a number): the run already keeps every core
# busy with one worker per core, and each Python process that imports NumPy and SciPy (the workers,
# every notebook kernel, the book build) starts two OpenBLAS thread pools, one per library, whose
# threads spin while they wait. With two pools of two threads, `import numpy, scipy.special,
# metabits` cost 0.6 core-seconds for 0.3 s of work; nbval on the 22 notebooks, alternate runs on
# the 2-core machine: 72.5 and 74.1 core-seconds against 83.0 and 79.4. The results are the same:
# the figures and launch notebooks the run rewrites came out as committed.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
# No MPLBACKEND here: Jupyter kernels inherit it, and with MPLBACKEND=Agg the notebooks that nbval
# runs (and the book build reuses) show no figures. Headless, matplotlib picks Agg by itself.
exec .venv/bin/python -m pytest -n auto --maxprocesses 4 "$@"
