"""The library's result types, and how every result becomes a table.

* A function with several **named** results returns a frozen dataclass derived from
  :class:`Result`: fields are attributes (``r.acc``) and, because a :class:`Result` is also a
  read-only mapping, keys (``r["acc"]``, ``dict(r)``). ``r.to_frame()`` gives a
  :class:`pandas.DataFrame`; ``pd.DataFrame(r)`` raises instead of guessing.
* A function whose result is an **ordered pair that callers unpack** — lower and upper bound, an
  ROC curve, a distribution's values and weights — returns a :class:`typing.NamedTuple`
  (:class:`Bounds`, :class:`Curve`, :class:`Distribution`), so ``lower, upper = info_bounds(acc)``
  reads naturally and ``.lower`` names the part; these have ``to_frame()`` too (one column per
  part). Being tuples, they are read by ``pd.DataFrame(pair)`` as any tuple is, one row per part.

Nothing returns a bare ``dict`` or an anonymous tuple.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import NamedTuple

import numpy as np

__all__ = ["Bounds", "Curve", "Distribution", "Result"]


#: Most columns one field may spread over (its entries beyond the rows); a larger field is left out
_MAX_EXTRA = 64


def _frame_columns(items, index_names=None):
    """A DataFrame of named values: one row per entry of their common leading shape.

    Each value is a scalar, an array, a string, a mapping (its entries become columns
    ``name_key``) or a result (its fields become columns ``name_field``). The rows are the
    entries of the longest leading shape all arrays share (one row where most values are
    scalars: a result of one table); an array with more axes than that gives one column per
    entry of the extra axes (``name_0``, ``name_1``, ...); scalars and strings are repeated on
    every row; arrays that do not run along the rows, or would spread over more than
    :data:`_MAX_EXTRA` columns, are left out. Values that are not numbers, strings or arrays of them
    (functions, explorer objects) are left out.
    """
    import pandas as pd

    flat = []

    def add(name, value):
        if isinstance(value, Result) or (isinstance(value, tuple) and hasattr(value, "_fields")):
            for key in (value._keys() if isinstance(value, Result) else value._fields):
                add(f"{name}_{key}", getattr(value, key))
        elif isinstance(value, Mapping):
            for key, entry in value.items():
                add(f"{name}_{key}", entry)
        elif isinstance(value, (str, bytes)) or value is None:
            flat.append((name, value, False))
        else:
            arr = np.asarray(value)
            if arr.dtype.kind in "biufcUSM" or (arr.dtype.kind == "O" and arr.ndim == 0
                                                and isinstance(arr.item(), (int, float))):
                flat.append((name, arr, True))
            elif arr.dtype.kind == "O" and arr.ndim >= 1 and all(
                    isinstance(x, (str, int, float, np.number)) for x in arr.ravel()):
                flat.append((name, arr, True))

    for name, value in items:
        add(name, value)
    shapes = [v.shape for _, v, is_array in flat if is_array and v.ndim]
    n_scalars = sum(1 for _, v, is_array in flat if is_array and not v.ndim)
    lead = ()
    if shapes and len(shapes) >= n_scalars:  # else: a result of one table with a few arrays
        n = min(len(s) for s in shapes)
        while n and len({s[:n] for s in shapes}) > 1:
            n -= 1
        lead = shapes[0][:n]
    rows = int(np.prod(lead)) if lead else 1
    columns = {}
    for name, value, is_array in flat:
        if not is_array:
            columns[name] = [value] * rows
            continue
        if value.ndim == 0:
            columns[name] = np.repeat(value[None], rows)
            continue
        if value.shape[:len(lead)] != lead:
            continue  # an array that does not run along the rows (e.g. a grid of settings)
        extra = value.shape[len(lead):]
        if int(np.prod(extra)) > _MAX_EXTRA:
            continue  # not a few columns (e.g. per-trial data beside per-person data)
        block = value.reshape((rows,) + extra)
        if not extra:
            columns[name] = block
        else:
            for idx in np.ndindex(extra):
                columns[name + "_" + "_".join(str(i) for i in idx)] = block[(slice(None),) + idx]
    index = None
    if lead and len(lead) > 1:
        index = pd.MultiIndex.from_tuples(list(np.ndindex(lead)), names=index_names)
    return pd.DataFrame(columns, index=index)


class Result(Mapping):
    """Base of the frozen result dataclasses: ``result[key]``, ``dict(result)``, ``key in result``.

    ``result.to_frame()`` gives the result as a :class:`pandas.DataFrame`.
    """

    def __getitem__(self, key):
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"a {type(self).__name__} is not an array: use its to_frame() for a "
                        f"pandas DataFrame, or its fields ({', '.join(self._keys())})")

    @classmethod
    def _keys(cls):
        return tuple(f.name for f in fields(cls))

    def to_frame(self):
        """The result as a :class:`pandas.DataFrame`.

        One row for a result of one table (or one value), one row per table for a stack; each
        field is a column (a field with more axes than the rows gives a column per entry of the
        extra axes, a mapping or a nested result a column per entry, named ``field_key``).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from metabits.sdt import type1_sdt
        >>> type1_sdt([[80, 20], [10, 90]]).to_frame().round(3)[["d", "c"]]
               d     c
        0  2.123 -0.22
        """
        return _frame_columns([(key, getattr(self, key)) for key in self._keys()])


def _tuple_to_frame(self):
    """The result as a :class:`pandas.DataFrame`: one column per part, one row per entry.

    Returns
    -------
    pandas.DataFrame
    """
    return _frame_columns([(key, getattr(self, key)) for key in self._fields])


class Bounds(NamedTuple):
    """A lower and an upper bound (floats, or arrays of one shape)."""

    lower: object
    upper: object

    to_frame = _tuple_to_frame


class Curve(NamedTuple):
    """An ROC curve: false positive rates and true positive rates, from (0, 0) to (1, 1)."""

    fpr: np.ndarray
    tpr: np.ndarray

    to_frame = _tuple_to_frame


class Distribution(NamedTuple):
    """A discrete distribution: its values (e.g. confidences) and their probabilities."""

    values: np.ndarray
    weights: np.ndarray

    to_frame = _tuple_to_frame
