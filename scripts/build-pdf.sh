#!/usr/bin/env bash
# Build the whole book as one PDF, offline: _build/pdf/_build/latex/metabits.pdf
#
# Sphinx's LaTeX builder with XeLaTeX (Unicode text: d′, meta-I₂ʳ), Debian's TeX packages
# (installed with apt-get when xelatex or latexmk is missing). The website's configuration is
# used with a few changes written to a temporary copy (_config.yml itself is not touched):
#   - the MathJax macros of _config.yml (\acc, \info, ...) become \newcommand's in the preamble;
#   - solutions are left out (sphinx-exercise's hide_solutions);
#   - Jupyter Book's own LaTeX class is not used (it needs bbm.sty from texlive-fonts-extra);
#   - notebooks are executed into a jupyter-cache in _build/pdf, so a second run is quick;
#   - scripts/pdf_book.py makes the pages a book: the landing page one unnumbered chapter, the
#     numbered parts of the table of contents parts (chapters 1-21), the other pages appendices
#     (execution status, troubleshooting and the book's own package left to the website); the
#     title page with the authors of CITATION.cff, the library's version and the website's
#     address; "Try this" beside an explorer's picture worded for print; code the website
#     folds away (hide-input) not printed; exercise references across chapters numbered
#     (their titles escaped); each explorer the picture of its
#     first setting and a link to its page on the website; notebook tables (DataFrames) as
#     tables that fit the page; theorems, proofs and exercises as a book sets them; the
#     bibliography in its page's place (see its docstring).
# The website offers the PDF when it exists at an HTML build (_ext/metabits_pdf.py): build the
# PDF first, then the website (the publishing workflow does).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
bash scripts/setup-env.sh --book  # the book's packages; keeps the tests' if installed

if ! command -v xelatex >/dev/null || ! command -v latexmk >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y --no-install-recommends texlive-xetex texlive-latex-recommended \
    texlive-latex-extra texlive-fonts-recommended latexmk fonts-freefont-otf tex-gyre lmodern
fi

OUT="$ROOT/_build/pdf"
mkdir -p "$OUT"
# The cache knows the notebooks, not the library they import: one cache per state of lib/ (a
# change to the library executes every notebook again; the older caches are removed).
LIBHASH=$(find lib -name '*.py' -o -name '*.js' -o -name '*.csv' | LC_ALL=C sort | xargs cat |
          sha1sum | cut -c1-12)
CACHE="$OUT/jupyter_cache-$LIBHASH"
find "$OUT" -maxdepth 1 -name 'jupyter_cache*' ! -path "$CACHE" -exec rm -rf {} +
.venv/bin/python - "$ROOT" "$OUT" "$CACHE" <<'EOF'
import sys
from pathlib import Path

import yaml

root, out, cache = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
config["execute"] = {**config.get("execute", {}), "execute_notebooks": "cache",
                     "cache": str(cache)}
config["latex"] = {"latex_engine": "xelatex", "use_jupyterbook_latex": False,
                   "latex_documents": {"targetname": "metabits.tex"}}
sphinx = config.setdefault("sphinx", {})
local = sphinx.setdefault("local_extensions", {}) or {}
for name, folder in local.items():
    local[name] = str((root / folder).resolve())
local["pdf_book"] = str(root / "scripts")  # the pages as a book (its docstring)
sphinx["local_extensions"] = local
cfg = sphinx.setdefault("config", {})
macros = cfg.get("mathjax3_config", {}).get("tex", {}).get("macros", {})
preamble = "".join(f"\\newcommand{{\\{name}}}{{{body}}}\n" for name, body in macros.items())
cfg["hide_solutions"] = True
cfg["latex_elements"] = {"preamble": preamble, "papersize": "a4paper",
                         "extraclassoptions": "openany,oneside",  # no blank pages
                         "fontpkg": "\\setmainfont{FreeSerif}\\setsansfont{FreeSans}"
                                    "\\setmonofont{FreeMono}"}
cfg["latex_show_urls"] = "no"  # links stay clickable; DOIs are printed already
cfg["latex_use_xindy"] = False  # makeindex: xindy is another Debian package
# of the domains' indices only Python's modules: sphinx-proof's "Proof Index" lists the
# theorems' labels (def-uniform-noise, book/meyen/02_noise_cases), not what a reader looks up
cfg["latex_domain_indices"] = ["py-modindex"]
(out / "_config.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
EOF

start=$(date +%s)
# a build that writes no LaTeX (a configuration error Sphinx only warns about) must not make the
# PDF of an earlier run's .tex
rm -f "$OUT/_build/latex/metabits.tex"
# --all: every page is read again (from the cache), so that pdf_book's changes always apply
.venv/bin/jupyter-book build . --all --config "$OUT/_config.yml" --path-output "$OUT" --builder latex
pdf="$OUT/_build/latex/metabits.pdf"
rm -f "$pdf"  # a failed run leaves no PDF behind (the website would offer a stale or broken one)
make -C "$OUT/_build/latex" all-pdf LATEXMKOPTS="-interaction=nonstopmode -halt-on-error" \
  >"$OUT/latex.log" 2>&1 || { tail -40 "$OUT/latex.log"; rm -f "$pdf"; exit 1; }
echo "The PDF is at $pdf ($(du -h "$pdf" | cut -f1), $(( $(date +%s) - start )) s)"
