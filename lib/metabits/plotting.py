"""The book's figure style and deterministic figure files.

Colours and markers follow Meyen et al. (2025): uniform noise (highest information) black with
inverted triangles and solid lines, normal noise orange with diamonds and dashed lines, binary
noise (lowest information) green with triangles and dotted lines.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl

#: colour, marker and line style of each noise case
NOISE_STYLE = {
    "uniform": {"color": "black", "marker": "v", "linestyle": "-", "label": "uniform noise"},
    "normal": {"color": "#e69f00", "marker": "D", "linestyle": "--", "label": "normal noise"},
    "binary": {"color": "#009e73", "marker": "^", "linestyle": ":", "label": "binary noise"},
}
#: fill of the admissible (accuracy, information) region
REGION_COLOR = "0.85"
#: highlight colour for the measured quantity in Figure 5
ACCENT = "#d55e00"
NORMALISER = "#0072b2"


def use_book_style() -> None:
    """Set matplotlib defaults for the book: readable sizes and reproducible SVG output."""
    mpl.rcParams.update({
        "figure.dpi": 110,
        "savefig.dpi": 150,
        "font.size": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.titlesize": 10,
        "axes.titleweight": "bold",
        "legend.frameon": False,
        "svg.hashsalt": "metabits",  # fixed ids in SVG files, so a rebuild leaves git clean
        "svg.fonttype": "path",
    })


def figures_dir(start: Path | None = None) -> Path:
    """The book's ``figures/`` folder: found by walking up from ``start`` (default: the working
    directory) to the folder holding ``_toc.yml``; ``./figures`` when there is none (e.g. Colab)."""
    here = Path.cwd() if start is None else Path(start)
    for folder in (here, *here.parents):
        if (folder / "_toc.yml").is_file():
            return folder / "figures"
    return here / "figures"


def save_figure(fig, stem: str, folder: Path | None = None) -> list[Path]:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.svg`` without timestamps, so that
    regenerating an unchanged figure leaves the files byte for byte the same.

    Returns the paths written.
    """
    if not stem or "/" in stem or stem.endswith((".png", ".svg")):
        raise ValueError(f"stem must be a bare file name without extension; got {stem!r}")
    folder = figures_dir() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.png", folder / f"{stem}.svg"]
    with mpl.rc_context({"svg.hashsalt": "metabits"}):
        fig.savefig(paths[0], metadata={"Software": None}, bbox_inches="tight")
        fig.savefig(paths[1], metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    return paths
