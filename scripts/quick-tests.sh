#!/usr/bin/env bash
# The quick loop while working on the library: its unit and property tests and its doctests.
# Leaves out what needs the book built (marker "build"), a browser ("browser"), the network
# ("network"), the slow recomputations ("slow": NUTS fits, shipped studies recomputed), the
# notebooks (nbval runs only on book/, which is not given here) and the live comparisons with
# metadpy (importing metadpy alone takes about 5 s) and the Bayesian fits' doctests (NUTS);
# CI runs them all.
# Extra arguments go to pytest, e.g. bash scripts/quick-tests.sh -x -q
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/run-tests.sh -m "not build and not browser and not network and not slow" \
  -k "not live_metadpy and not bayes_metad" tests lib/metabits "$@"
