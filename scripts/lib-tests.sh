#!/usr/bin/env bash
# The library's own tests on their own: tests/lib (unit and property tests of lib/metabits) and
# the doctests of lib/metabits, without the book's code. METABITS_LIB_ONLY=1 makes importing
# metabits_book fail (tests/conftest.py), so they pass as on a machine with the library alone.
# Leaves out what scripts/quick-tests.sh leaves out (slow fits, the network, metadpy, NUTS).
# Extra arguments go to pytest, e.g. bash scripts/lib-tests.sh -x -q
set -euo pipefail
cd "$(dirname "$0")/.."
export METABITS_LIB_ONLY=1
exec bash scripts/run-tests.sh -m "not build and not browser and not network and not slow" \
  -k "not live_metadpy and not bayes_metad" tests/lib lib/metabits "$@"
