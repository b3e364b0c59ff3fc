#!/usr/bin/env bash
# Regenerate the lock files from the hand-written requirements (run after editing a *.in file):
#   requirements.in        -> requirements.txt         the book (Binder, the build)
#   tests/requirements.in  -> tests/requirements.txt   the book and its tests (CI, run-tests.sh)
# Every package of the environment is pinned, for the Python of runtime.txt on Linux; commit all
# four files. scripts/setup-env.sh then installs exactly these versions with pip-sync.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh --book >/dev/null
compile() {
  .venv/bin/pip-compile --quiet --strip-extras --allow-unsafe --no-emit-index-url \
    --no-emit-find-links --no-emit-trusted-host --index-url https://pypi.org/simple \
    --output-file "$2" "$1"
  # the library and the book's code are installed from this repository: keep their paths relative
  sed -i -e "s#^-e file://$(pwd)/lib\$#-e ./lib#" \
         -e "s#^-e file://$(pwd)/book/_support\$#-e ./book/_support#" "$2"
}
compile requirements.in requirements.txt
compile tests/requirements.in tests/requirements.txt
