"""The argument checks of the book's own code that the library does not need.

The library's checks (:mod:`metabits.validation`) cover the values a researcher passes to
metabits; the book's code adds arguments of its own: the explorers' control grids and format
patterns (:func:`as_grid`, :func:`as_number_grid`, :func:`as_format`, :func:`as_text`), the
studies' results and files (:func:`as_instance`, :func:`as_path`, :func:`as_folder`,
:func:`as_file_to_write`, :func:`as_column_names`), the Monte Carlo helpers' axes
(:func:`as_axis`), a figure tolerance (:func:`as_nonnegative`) and ranges (:func:`as_pair`).
Each returns the checked value or raises a ``ValueError`` naming the argument, as the
library's do.
"""

from __future__ import annotations

import numbers

import numpy as np

from metabits.validation import as_probability, as_scalar

__all__ = ["as_axis", "as_column_names", "as_file_to_write", "as_folder", "as_format", "as_grid",
           "as_instance", "as_nonnegative", "as_number_grid", "as_pair", "as_path", "as_text"]


# --- the explorers' controls -----------------------------------------------------------------

def as_grid(values, name: str) -> tuple:
    """The grid of one explorer control: distinct finite numbers in increasing order, or distinct
    names (strings); at least one value. Returned as a tuple of Python ints/floats or strings."""
    try:
        vals = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of numbers or of names; "
                         f"got {values!r}") from None
    if not vals:
        raise ValueError(f"{name} must not be empty")
    if all(isinstance(v, str) for v in vals):
        if len(set(vals)) != len(vals):
            raise ValueError(f"{name} repeat a name: {vals}")
        return tuple(vals)
    if any(isinstance(v, (str, bool, np.bool_)) or not isinstance(v, numbers.Real) for v in vals):
        raise ValueError(f"{name} must be all numbers or all names; got {vals}")
    arr = np.asarray(vals, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite; got {vals}")
    if np.any(np.diff(arr) <= 0):
        raise ValueError(f"{name} must increase strictly (no repeats); got {vals}")
    return tuple(int(v) if isinstance(v, numbers.Integral) else float(v) for v in vals)


def as_number_grid(values, name: str, low: float = -np.inf, high: float = np.inf, *,
                   low_open: bool = False, high_open: bool = False, integer: bool = False,
                   why_low: str = "", why_high: str = "") -> tuple:
    """The grid of one numeric explorer control (:func:`as_grid`: distinct finite numbers in
    increasing order), every value in ``[low, high]`` (ends excluded when ``*_open``) and, with
    ``integer``, every value an integer. Returned as :func:`as_grid` returns it."""
    g = as_grid(values, name)
    if isinstance(g[0], str):
        raise ValueError(f"{name} must be numbers; got names {list(g)}")
    if integer and any(not isinstance(v, int) for v in g):
        raise ValueError(f"{name} must be integers; got {list(g)}")
    as_probability(np.asarray(g, dtype=float), name, low, high, low_open=low_open,
                   high_open=high_open, why_low=why_low, why_high=why_high)
    return g


def as_format(fmt, name: str, examples=()) -> str:
    """A ``str.format`` pattern with one positional field (e.g. ``"{:.0%}"``) that formats every
    value of ``examples`` (a control's grid): a bad pattern is refused now, not when a value is
    first displayed."""
    if not isinstance(fmt, str):
        raise ValueError(f"{name} must be a format string such as '{{:.2f}}'; got {fmt!r}")
    for value in examples:
        try:
            fmt.format(value)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise ValueError(f"{name} {fmt!r} cannot format the value {value!r}: "
                             f"{type(exc).__name__}: {exc}") from None
    if "{" not in fmt.replace("{{", ""):
        raise ValueError(f"{name} {fmt!r} has no field for the value (e.g. '{{:.2f}}')")
    return fmt


def as_text(text, name: str, identifier: bool = False) -> str:
    """A non-empty ``str`` (a label, a name); with ``identifier`` a Python identifier (a keyword
    argument's name)."""
    if not isinstance(text, str) or not text or (identifier and not text.isidentifier()):
        what = "a Python identifier" if identifier else "a non-empty str"
        raise ValueError(f"{name} must be {what}; got {text!r}")
    return text


# --- the studies' results, files and arrays ----------------------------------------------

def as_instance(obj, cls, name: str, what: str = ""):
    """An object of class ``cls`` (e.g. a result the book's code built), nothing else."""
    if not isinstance(obj, cls):
        raise ValueError(f"{name} must be a {cls.__name__}{f' ({what})' if what else ''}; "
                         f"got {type(obj).__name__}")
    return obj


def as_path(path, name: str = "path"):
    """A file-system path: a ``str`` or an ``os.PathLike`` giving one (not bytes, not a number),
    as a :class:`pathlib.Path`; whether it exists is the caller's business."""
    import os
    from pathlib import Path

    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path:
        raise ValueError(f"{name} must be a file path (a non-empty str or path-like); "
                         f"got {path!r}")
    return Path(path)


def as_folder(path, name: str = "folder"):
    """An existing folder (:func:`as_path`), as a :class:`pathlib.Path`."""
    folder = as_path(path, name)
    if not folder.is_dir():
        raise ValueError(f"{name} must be an existing folder; {str(folder)!r} "
                         f"{'is a file' if folder.exists() else 'does not exist'}")
    return folder


def as_file_to_write(path, name: str = "path"):
    """A path (:func:`as_path`) that names a file in an existing folder (not a folder), as a
    :class:`pathlib.Path`: checked before a writer computes anything."""
    path = as_path(path, name)
    if path.is_dir() or not path.parent.is_dir():
        raise ValueError(f"{name} must name a file in an existing folder; got {str(path)!r}")
    return path


def as_column_names(by, name: str = "by") -> tuple:
    """Column names to group by: one name (a ``str``) or a list or tuple of names, as a tuple
    (possibly empty)."""
    names = (by,) if isinstance(by, str) else by
    if not isinstance(names, (tuple, list)) or not all(isinstance(c, str) for c in names):
        raise ValueError(f"{name} must be a column name or a sequence of column names; "
                         f"got {by!r}")
    return tuple(names)


def as_axis(axis, ndim: int, name: str = "axis") -> int:
    """An axis of an array with ``ndim`` dimensions (negative counts from the end), as a
    non-negative int."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral) \
            or not -ndim <= axis < ndim:
        raise ValueError(f"{name} must be an integer in [{-ndim}, {ndim - 1}] for an array of "
                         f"{ndim} dimension(s); got {axis!r}")
    return int(axis) % ndim


def as_nonnegative(x, name: str) -> float:
    """One finite number >= 0 (e.g. the padding added to each cell of a table)."""
    value = as_scalar(x, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0; got {value:g}")
    return value


def as_pair(x, name: str) -> np.ndarray:
    """Exactly two values (e.g. the two ends of a range), already checked by another checker."""
    arr = np.asarray(x)
    if arr.shape != (2,):
        raise ValueError(f"{name} must be a pair of two values; got shape {arr.shape}")
    return arr
