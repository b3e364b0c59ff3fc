#!/usr/bin/env bash
# Do the notebooks and the library run with Google Colab's package versions?
#
# Builds a separate virtual environment, .venv-colab (git-ignored), from tests/colab-constraints.txt:
# metabits installed from ./lib as a regular (not editable) package, the way a chapter's first cell
# installs it on Colab, and no myst-nb, jupyter-book or sphinx. Then
#
#   1. executes every notebook in book/, each copied alone into a scratch folder (Colab opens a
#      single notebook, without the rest of the repository: its figures go to ./figures there,
#      and the committed figures/ are not touched), with nbval --nbval-lax;
#   2. runs the library's doctests (on the installed package) and its unit tests, except those
#      that need the book build, a browser, the network, the website's own stack (Sphinx, MyST-NB:
#      the PDF and launch-notebook converters) or metadpy (a test dependency that Colab does not
#      have).
#
# Colab runs Python 3.13, which this machine cannot install; the check uses python3 (3.11 here)
# with Colab's package versions. Not part of CI: run it by hand, e.g. after raising a pin.
#   bash scripts/check-colab.sh            # PYTHON=python3.12 bash scripts/check-colab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY="${PYTHON:-python3}"
VENV=.venv-colab
start=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
pip_quiet() {  # pip's output goes to a log, shown only if pip fails
  "$VENV/bin/python" -m pip "$@" > "$VENV/pip.log" 2>&1 || { cat "$VENV/pip.log"; exit 1; }
}
stamp="$VENV/.constraints.sha"
want=$(cat tests/colab-constraints.txt lib/pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  pip_quiet install --upgrade pip
  # every package named in the constraints, at its pinned version
  mapfile -t pins < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/colab-constraints.txt)
  pip_quiet install -c tests/colab-constraints.txt "${pins[@]}"
  echo "$want" > "$stamp"
fi
# the library as Colab gets it: a regular install from lib/ (reinstalled every run, so that the
# check tests the current code), its dependencies held at Colab's versions
pip_quiet install --force-reinstall --no-deps ./lib
# with the Bayesian extra, as each chapter's install cell asks for it on Colab (PyMC, nutpie, JAX:
# not pinned in the constraints; pip resolves them against Colab's NumPy and SciPy as it does there)
pip_quiet install -c tests/colab-constraints.txt "./lib[bayes]"
"$VENV/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null

echo "== Python and Colab's versions in $VENV"
"$VENV/bin/python" - <<'EOF'
import importlib.metadata as md, importlib.util, platform
print("python", platform.python_version())
for name in ["numpy", "scipy", "matplotlib", "pandas", "ipywidgets", "ipython", "ipykernel",
             "pymc", "nutpie", "jax", "metabits"]:
    print(f"{name:10s} {md.version(name)}")
for absent in ["myst_nb", "jupyter_book", "sphinx"]:
    assert importlib.util.find_spec(absent) is None, f"{absent} must not be installed here"
print("myst_nb, jupyter_book, sphinx: not installed (as on Colab)")
EOF

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# each notebook alone, in its own folder, as Colab opens it
mapfile -t notebooks < <(cd book && find . -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
for nb in "${notebooks[@]}"; do
  dir="$scratch/$(dirname "$nb")/$(basename "$nb" .ipynb)"
  mkdir -p "$dir"
  cp "book/$nb" "$dir/"
done

status=0
echo "== ${#notebooks[@]} notebooks (nbval --nbval-lax, each alone in a scratch folder)"
(cd "$scratch" && MPLBACKEND=Agg "$ROOT/$VENV/bin/python" -m pytest -q -p no:cacheprovider \
   -o addopts="" --rootdir="$scratch" --nbval-lax --nbval-current-env .) || status=1

echo "== library doctests (installed package) and unit tests"
site=$("$VENV/bin/python" -c "import metabits, pathlib; print(pathlib.Path(metabits.__file__).parent)")
MPLBACKEND=Agg "$VENV/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" \
  --doctest-modules -o doctest_optionflags="NORMALIZE_WHITESPACE NUMBER ELLIPSIS" "$site" \
  || status=1
MPLBACKEND=Agg "$VENV/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" tests \
  -m "not build and not browser and not network" \
  --ignore=tests/test_environment.py --ignore=tests/test_repository_url.py \
  --ignore=tests/test_metabits_pdf.py --ignore=tests/test_pdf_book.py \
  --ignore=tests/test_launch_notebooks.py \
  -k "not live_metadpy" || status=1

elapsed=$(( $(date +%s) - start ))
if [ "$status" -eq 0 ]; then
  echo "check-colab: PASS in ${elapsed} s"
else
  echo "check-colab: FAIL in ${elapsed} s"
fi
exit "$status"
