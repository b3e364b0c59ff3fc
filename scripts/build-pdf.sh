#!/usr/bin/env bash
# Build the whole book as one PDF, offline: _build/pdf/_build/latex/metabits.pdf
#
# Sphinx's LaTeX builder with XeLaTeX (Unicode text: d′, meta-I₂ʳ), Debian's TeX packages
# (installed with apt-get when xelatex or latexmk is missing). The website's configuration is
# used with a few changes written to a temporary copy (_config.yml itself is not touched):
#   - the MathJax macros of _config.yml (\acc, \info, ...) become \newcommand's in the preamble;
#   - solutions are left out (sphinx-exercise's hide_solutions);
#   - Jupyter Book's own LaTeX class is not used (it needs bbm.sty from texlive-fonts-extra);
#   - notebooks are executed into a jupyter-cache in _build/pdf, so a second run is quick.
#   - each explorer becomes a sentence linking its page on the website (scripts/pdf_explorers.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
bash scripts/setup-env.sh

if ! command -v xelatex >/dev/null || ! command -v latexmk >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get install -y --no-install-recommends texlive-xetex texlive-latex-recommended \
    texlive-latex-extra texlive-fonts-recommended latexmk fonts-freefont-otf tex-gyre lmodern
fi

OUT="$ROOT/_build/pdf"
mkdir -p "$OUT"
.venv/bin/python - "$ROOT" "$OUT" <<'EOF'
import sys
from pathlib import Path

import yaml

root, out = Path(sys.argv[1]), Path(sys.argv[2])
config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
config["execute"] = {**config.get("execute", {}), "execute_notebooks": "cache",
                     "cache": str(out / "jupyter_cache")}
config["latex"] = {"latex_engine": "xelatex", "use_jupyterbook_latex": False,
                   "latex_documents": {"targetname": "metabits.tex"}}
sphinx = config.setdefault("sphinx", {})
local = sphinx.setdefault("local_extensions", {}) or {}
for name, folder in local.items():
    local[name] = str((root / folder).resolve())
local["pdf_explorers"] = str(root / "scripts")  # an explorer: a link to its page
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
(out / "_config.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
EOF

start=$(date +%s)
.venv/bin/jupyter-book build . --config "$OUT/_config.yml" --path-output "$OUT" --builder latex
make -C "$OUT/_build/latex" all-pdf LATEXMKOPTS="-interaction=nonstopmode -halt-on-error" \
  >"$OUT/latex.log" 2>&1 || { tail -40 "$OUT/latex.log"; exit 1; }
pdf="$OUT/_build/latex/metabits.pdf"
echo "The PDF is at $pdf ($(du -h "$pdf" | cut -f1), $(( $(date +%s) - start )) s)"
