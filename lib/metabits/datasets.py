"""Tables copied from the papers into the package, each with its source in the CSV header.

The book never reads the papers themselves; these files are its only copies of their data.
"""

from __future__ import annotations

from importlib.resources import files

import numpy as np


def _read_csv(name: str):
    text = files("metabits").joinpath("data", name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    return header, rows


def meyen_table1() -> np.ndarray:
    """Meyen et al. (2025), Table 1: a 2 × 4 table of counts.

    Row 0 is true label −1 (S1), row 1 is +1 (S2); columns are the responses r1 … r4, from
    "S1, high confidence" to "S2, high confidence" — the layout of
    :func:`metabits.type2_measures` (and the nR_S1 / nR_S2 layout of the meta-d′ literature).
    """
    _, rows = _read_csv("meyen2025_table1.csv")
    return np.array([[int(v) for v in row[1:]] for row in rows])
