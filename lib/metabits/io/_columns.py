"""Reading the columns of a file of trials, shared by :func:`metabits.io.read_trials` and
:func:`metabits.io.read_confidence_database`: numbers with the missing-value markers, the two
codes of a stimulus or response column, and the confidence scale."""

from __future__ import annotations

import numpy as np

from metabits.validation import as_float_array

__all__ = ["MAX_LEVELS", "MISSING_MARKERS", "confidence_scale", "numbers", "two_codes"]

#: Most confidence levels a discrete scale may have; more is treated as continuous confidence.
MAX_LEVELS = 20
#: Cell values (case-insensitive, stripped) that mean "no response" in the database's files.
MISSING_MARKERS = frozenset({"", "nan", "na", "n/a", "none", "null", "timeout", "missing"})


def numbers(series, column: str):
    """A column as floats, missing markers as NaN; ValueError for any other non-number."""
    import pandas as pd

    if series.dtype.kind in "biuf":
        values = series.astype(float)
    else:
        text = series.astype("string").str.strip()
        missing = text.isna() | text.str.lower().isin(MISSING_MARKERS)
        values = pd.to_numeric(text.where(~missing), errors="coerce")
        bad = values.isna() & ~missing
        if bad.any():
            examples = sorted(set(text[bad].astype(str)))[:3]
            raise ValueError(f"column {column!r} has non-numeric values {examples} (only "
                             f"numbers and the missing-value markers NaN, NA, TIMEOUT … are "
                             f"read)")
        values = values.astype(float)
    infinite = np.isinf(values.to_numpy())
    if infinite.any():
        raise ValueError(f"column {column!r} has infinite values ({int(infinite.sum())} of "
                         f"them, e.g. {values[infinite].iloc[0]:g}): only finite numbers and "
                         f"the missing-value markers are read")
    return values


def two_codes(values: np.ndarray, column: str, other=None) -> tuple:
    """The (S1, S2) codes of a stimulus or response column: its two values, lower first."""
    kind = "stimuli" if column == "Stimulus" else "responses"
    codes = np.unique(values)
    if len(codes) > 2:
        shown = ", ".join(f"{v:g}" for v in codes[:6]) + (" …" if len(codes) > 6 else "")
        raise ValueError(f"more than two {kind}: column {column!r} has {len(codes)} values "
                         f"({shown}); the count tables need a binary {column.lower()}")
    if len(codes) == 2:
        return float(codes[0]), float(codes[1])
    if len(codes) == 1 and other is not None and codes[0] in other:
        return other  # one value used: read it in the other column's coding
    for pair in ((0.0, 1.0), (1.0, 2.0), (-1.0, 1.0)):
        if len(codes) == 1 and codes[0] in pair:
            return pair
    raise ValueError(f"column {column!r} has no trials with a value to read")


def confidence_scale(values: np.ndarray, levels=None) -> np.ndarray:
    """The confidence scale (raw values, increasing) of a column; ValueError if continuous."""
    if levels is not None:
        given = as_float_array(levels, "levels")
        if given.ndim != 1:
            raise ValueError(f"levels must be a sequence of confidence values (one axis); got "
                             f"shape {given.shape}")
        if np.any(np.diff(given) <= 0):
            raise ValueError(f"levels must be distinct and in increasing order (the scale from "
                             f"its lowest to its highest level); got {given.tolist()}")
        scale = given
        outside = np.setdiff1d(np.unique(values), scale)
        if len(outside):
            raise ValueError(f"confidence values {outside[:5].tolist()} are not among the "
                             f"given levels {scale.tolist()}")
    else:
        used = np.unique(values)
        if len(used) > MAX_LEVELS:
            raise ValueError(f"continuous confidence: column 'Confidence' has {len(used)} "
                             f"distinct values (at most {MAX_LEVELS} discrete levels are read; "
                             f"bin it first)")
        scale = used
        if len(used) >= 2:
            gap = np.min(np.diff(used))
            for m in range(1, MAX_LEVELS):  # the step: the largest gap/m all values sit on
                step = gap / m
                pos = (used - used[0]) / step
                if round(pos[-1]) + 1 > MAX_LEVELS:
                    break
                if np.allclose(pos, np.round(pos), atol=1e-6):
                    grid = np.round(used[0] + step * np.arange(round(pos[-1]) + 1), 10)
                    if used[0] < 0 < used[-1] and not np.any(np.isclose(used, 0.0)):
                        grid = grid[~np.isclose(grid, 0.0, atol=step * 1e-6)]  # signed wager
                    scale = grid
                    break
    if len(scale) < 2 and levels is not None:
        raise ValueError(f"levels must give at least two confidence levels; got "
                         f"{scale.tolist()}")
    if len(scale) < 2:
        raise ValueError(f"one confidence level ({scale.tolist()}): a count table needs at "
                         f"least two")
    return scale
