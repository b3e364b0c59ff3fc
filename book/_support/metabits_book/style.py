"""The book's figure style and deterministic figure files.

:func:`use_book_style` sets matplotlib's defaults for the book's figures and
:func:`save_figure` writes a figure as PNG and SVG files that a rebuild leaves byte for byte the
same. The colours are :mod:`metabits_book.palette`'s. The figures of
:mod:`metabits_book.plotting` draw into whatever style is active.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib as mpl

from metabits_book.figure_check import figure_difference

__all__ = ["save_figure", "use_book_style"]


def use_book_style() -> None:
    """Set matplotlib defaults for the book: readable sizes and reproducible SVG output.

    Font size 10 pt (titles bold), no top or right spines, no legend frame, 150 dpi PNG files,
    and SVG files with fixed element ids and text as paths, so that a rebuild leaves the
    committed figures unchanged. Changes :data:`matplotlib.rcParams` for the whole session.

    Parameters
    ----------
    None

    Returns
    -------
    None

    Raises
    ------
    None
        It sets only parameters that matplotlib knows, with valid values.

    References
    ----------
    Meyen et al. (2025), Figures 2–8: the book redraws them in this style (colours and markers
    of the noise cases in :data:`metabits_book.palette.NOISE_STYLE`).

    Examples
    --------
    >>> import matplotlib as mpl
    >>> use_book_style()
    >>> mpl.rcParams["font.size"], mpl.rcParams["savefig.dpi"]
    (10.0, 150.0)
    """
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


def save_figure(fig, stem: str, folder) -> list[Path]:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.svg`` in ``folder``, without timestamps.

    A file that already shows the same figure
    (:func:`metabits_book.figure_check.figure_difference`: the same drawing up to the last
    digits another machine's arithmetic changes) is left byte for byte as it is, so committed
    figures show in ``git status`` only when they really change. A file that changes is
    replaced whole, at once. The function knows nothing of the book's layout: the caller names
    the folder (the book's notebooks pass its ``figures/``).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    stem : str
        Bare file name without extension, e.g. ``"fig6_measures"``.
    folder : str or pathlib.Path
        Where to write (created if missing).

    Returns
    -------
    list of pathlib.Path
        The PNG and SVG paths written.

    Raises
    ------
    ValueError
        For a stem with a folder or an extension in it.

    Examples
    --------
    >>> import tempfile, matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> [p.name for p in save_figure(fig, "demo", tempfile.mkdtemp())]
    ['demo.png', 'demo.svg']
    """
    if not stem or "/" in stem or stem.endswith((".png", ".svg")):
        raise ValueError(f"stem must be a bare file name without extension; got {stem!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.png", folder / f"{stem}.svg"]
    metadata = {".png": {"Software": None}, ".svg": {"Date": None, "Creator": None}}
    with mpl.rc_context({"svg.hashsalt": "metabits"}):
        for path in paths:
            new = path.with_name(f".{stem}.new{path.suffix}")
            fig.savefig(new, metadata=metadata[path.suffix], bbox_inches="tight")
            if path.is_file() and figure_difference(path.read_bytes(), new) is None:
                new.unlink()  # the same figure up to another machine's last digits: kept
            else:
                os.replace(new, path)  # whole, at once: a reader never sees half a file
    return paths
