"""Compare a rebuilt figure with its committed version by what it shows, not by its bytes.

Another CPU, BLAS kernel or libm rounds the last bit of a coordinate differently, and matplotlib
writes SVG coordinates to six decimals, so a figure redrawn on another machine can differ from
the committed file in the sixth decimal of a few numbers (``y="118.127538"`` against
``y="118.127539"``) — and in the ids matplotlib derives from hashes of those numbers. Neither is
a change a reader could see. This module tells such noise from a real change:

* **SVG** (the exact check): the text of the two files must be identical once every id is
  renamed in order of first appearance and every number is taken out; the numbers must agree to
  :data:`SVG_TOLERANCE` (in SVG user units, i.e. points: 1e-3 pt is a thousandth of a screen
  pixel); and the labels (which matplotlib writes as ``<!-- text -->`` comments) must be equal,
  digits included.
* **embedded rasters** (a scatter drawn with ``rasterized=True`` sits in the SVG as a PNG):
  compared as images, as below, not as text;
* **PNG** (a second look): :func:`matplotlib.testing.compare.compare_images` on the two images,
  whose root-mean-square difference per colour channel (0–255) must stay under
  :data:`PNG_TOLERANCE`.

:func:`metabits_book.style.save_figure` leaves a figure file as it is when the new drawing shows
the same (so a build on another machine leaves ``git status`` clean), and the book's build test
applies the check to every committed figure.
"""

from __future__ import annotations

import base64
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np

from metabits_book._arguments import as_nonnegative, as_path

__all__ = ["PNG_TOLERANCE", "SVG_TOLERANCE", "figure_difference", "png_difference",
           "svg_difference"]

#: largest difference between two SVG numbers taken as the same (SVG user units = points)
SVG_TOLERANCE = 1e-3
#: largest root-mean-square difference of two PNGs (per colour channel, on 0–255)
PNG_TOLERANCE = 1.0

_COMMENT = re.compile(r"<!--(.*?)-->", re.S)
_EMBEDDED = re.compile(r'data:image/png;base64,\s*([A-Za-z0-9+/=\s]+)"')
_ID = re.compile(r'\bid="([^"]+)"')
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _rename_ids(text: str) -> str:
    """Rename every ``id`` (and its references) to ``id0``, ``id1``, … in order of appearance."""
    ids = list(dict.fromkeys(_ID.findall(text)))
    if not ids:
        return text
    names = {old: f"id{i}" for i, old in enumerate(ids)}
    pattern = re.compile(r'(?<=["#])(' + "|".join(map(re.escape, sorted(ids, key=len, reverse=True)))
                         + r')(?=["\)])')
    return pattern.sub(lambda m: names[m.group(1)], text)


def _short(line: str, width: int = 80) -> str:
    """A line of an SVG cut to ``width`` characters (embedded images are long)."""
    line = line.strip()
    return line if len(line) <= width else line[:width] + "…"


def _embedded_images(text: str) -> tuple[str, list[bytes]]:
    """The SVG with each embedded PNG (a rasterised scatter) replaced by a marker, and the PNGs."""
    images = [base64.b64decode(re.sub(r"\s+", "", m)) for m in _EMBEDDED.findall(text)]
    return _EMBEDDED.sub('data:image/png;base64,EMBEDDED"', text), images


def _rms(png_a: bytes, png_b: bytes) -> float | None:
    """Root-mean-square difference (0–255 per channel) of two PNGs; None if the sizes differ."""
    import io

    from matplotlib.image import imread

    a, b = imread(io.BytesIO(png_a)), imread(io.BytesIO(png_b))
    if a.shape != b.shape:
        return None
    return float(np.sqrt(np.mean((255.0 * (a.astype(float) - b.astype(float))) ** 2)))


def _svg_parts(text: str) -> tuple[list[str], str, list[float]]:
    """The labels, the skeleton (text without numbers) and the numbers of an SVG document."""
    text = _rename_ids(text)
    labels = _COMMENT.findall(text)
    body = _COMMENT.sub("<!---->", text)
    numbers = [float(n) for n in _NUMBER.findall(body)]
    return labels, _NUMBER.sub("#", body), numbers


def svg_difference(committed: str, rebuilt: str, tol: float = SVG_TOLERANCE) -> str | None:
    """Why two SVG documents show different things, or ``None`` when they show the same.

    Parameters
    ----------
    committed, rebuilt : str
        The two SVG documents.
    tol : float
        Largest difference between corresponding numbers taken as equal.

    Returns
    -------
    str or None
        A one-line description of the first difference found.

    Raises
    ------
    ValueError
        For a document that is not a str, or a negative ``tol``.

    Examples
    --------
    >>> a = '<svg><path d="M 1.000001 2"/><!-- x --></svg>'
    >>> svg_difference(a, a.replace("1.000001", "1.000002")) is None   # another machine's digits
    True
    >>> svg_difference(a, a.replace("1.000001", "1.5"))
    'a coordinate moved by 0.5 (tolerance 0.001)'
    """
    for name, text in (("committed", committed), ("rebuilt", rebuilt)):
        if not isinstance(text, str):
            raise ValueError(f"{name} must be an SVG document (a str); got {type(text).__name__}")
    tol = as_nonnegative(tol, "tol")
    committed, images_a = _embedded_images(committed)
    rebuilt, images_b = _embedded_images(rebuilt)
    if len(images_a) != len(images_b):
        return f"{len(images_a)} embedded images became {len(images_b)}"
    for i, (a, b) in enumerate(zip(images_a, images_b)):
        rms = _rms(a, b)
        if rms is None or rms > PNG_TOLERANCE:
            what = "a different size" if rms is None else f"RMS {rms:.3g} > {PNG_TOLERANCE:g}"
            return f"embedded image {i + 1} differs: {what}"
    labels_a, skeleton_a, numbers_a = _svg_parts(committed)
    labels_b, skeleton_b, numbers_b = _svg_parts(rebuilt)
    if labels_a != labels_b:
        changed = [(a, b) for a, b in zip(labels_a, labels_b) if a != b]
        return (f"labels differ: {changed[:3]}" if changed
                else f"{len(labels_a)} labels became {len(labels_b)}")
    if skeleton_a != skeleton_b:
        lines_a, lines_b = skeleton_a.splitlines(), skeleton_b.splitlines()
        for i, (a, b) in enumerate(zip(lines_a, lines_b)):
            if a != b:
                return (f"structure differs at line {i + 1}: {_short(a)!r} -> {_short(b)!r}")
        return f"structure differs: {len(lines_a)} lines became {len(lines_b)}"
    worst = max((abs(a - b) for a, b in zip(numbers_a, numbers_b)), default=0.0)
    if worst > tol:
        return f"a coordinate moved by {worst:.4g} (tolerance {tol:g})"
    return None


def png_difference(committed: Path, rebuilt: Path, tol: float = PNG_TOLERANCE) -> str | None:
    """Why two PNG files show different images, or ``None`` when they look the same.

    The comparison runs on copies in a temporary folder, so matplotlib's diff images never land
    beside the figures.

    Parameters
    ----------
    committed, rebuilt : path-like
        The two PNG files.
    tol : float, default :data:`PNG_TOLERANCE`
        Largest root-mean-square difference per colour channel (0–255) taken as the same.

    Returns
    -------
    str or None
        Why the images differ (their sizes, or their RMS difference), or ``None``.

    Raises
    ------
    ValueError
        For a path that is not an existing file, or a negative ``tol``.
    """
    from matplotlib.testing.compare import compare_images
    from matplotlib.testing.exceptions import ImageComparisonFailure

    committed, rebuilt = _png(committed, "committed"), _png(rebuilt, "rebuilt")
    tol = as_nonnegative(tol, "tol")
    with tempfile.TemporaryDirectory() as tmp:
        expected = Path(tmp) / "committed.png"
        actual = Path(tmp) / "rebuilt.png"
        shutil.copyfile(committed, expected)
        shutil.copyfile(rebuilt, actual)
        try:
            result = compare_images(str(expected), str(actual), tol=tol, in_decorator=True)
        except ImageComparisonFailure as err:  # different sizes
            return str(err).splitlines()[0]
    if result is not None:
        return f"images differ: RMS {result['rms']:.3g} > {tol:g}"
    return None


def _png(path, name: str) -> Path:
    """An existing file's path (a PNG's, or any figure file's)."""
    path = as_path(path, name)
    if not path.is_file():
        raise ValueError(f"{name} must be a figure file; {str(path)!r} is not a file")
    return path


def figure_difference(committed: bytes, rebuilt) -> str | None:
    """Compare a committed figure (its bytes) with the file now at ``rebuilt``.

    Parameters
    ----------
    committed : bytes
        The committed file's contents.
    rebuilt : str or path-like
        The file drawn now (``.svg``, ``.png`` or another kind, compared by its bytes).

    Returns
    -------
    str or None
        Why the two show different things, or ``None`` when they show the same.

    Raises
    ------
    ValueError
        For ``committed`` that is not bytes or a ``rebuilt`` that is not a file.
    """
    if not isinstance(committed, bytes):
        raise ValueError(f"committed must be a file's contents (bytes); got "
                         f"{type(committed).__name__}")
    rebuilt = _png(rebuilt, "rebuilt")
    if rebuilt.suffix == ".svg":
        return svg_difference(committed.decode("utf-8"), rebuilt.read_text(encoding="utf-8"))
    if rebuilt.suffix == ".png":
        with tempfile.TemporaryDirectory() as tmp:
            old = Path(tmp) / "old.png"
            old.write_bytes(committed)
            return png_difference(old, rebuilt)
    return None if committed == rebuilt.read_bytes() else "contents differ"
