#!/usr/bin/env bash
# The quick loop while working on the library: the library's own unit and property tests
# (tests/lib) and its doctests, without the book's code. METABITS_LIB_ONLY=1 makes importing
# metabits_book fail (tests/conftest.py), so they pass as on a machine with the library alone.
#
#   bash scripts/quick-tests.sh [--book] [pytest options]
#
# --book adds the fast tests of the book's code (tests/ beside tests/lib, with metabits_book).
# Either way leaves out what needs the book built (marker "build"), a browser ("browser"), the
# network ("network"), the tests marked "slow" (NUTS fits, shipped studies recomputed, sweeps
# over every measure or public module), the notebooks (run-tests.sh --no-notebooks), the live
# comparisons with metadpy (importing metadpy alone takes about 5 s) and the Bayesian fits'
# doctests (NUTS); the full command (scripts/run-tests.sh) runs them all.
# Extra arguments go to pytest, e.g. bash scripts/quick-tests.sh -x -q
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(tests/lib lib/metabits)
if [ "${1:-}" = "--book" ]; then
  shift
  paths=(tests lib/metabits)
else
  export METABITS_LIB_ONLY=1
fi
exec bash scripts/run-tests.sh --no-notebooks \
  -m "not build and not browser and not network and not slow" \
  -k "not live_metadpy and not bayes_metad" "${paths[@]}" "$@"
