#!/usr/bin/env bash
# Run every test: the library's unit and property tests, nbval on every notebook, and a full
# book build that fails on any warning or notebook error (tests/test_book_build.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
export MPLBACKEND=Agg
exec .venv/bin/python -m pytest "$@"
