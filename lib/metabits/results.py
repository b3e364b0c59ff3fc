"""The library's two result types.

* A function with several **named** results returns a frozen dataclass derived from
  :class:`Result`: fields are attributes (``r.acc``) and, because a :class:`Result` is also a
  read-only mapping, keys (``r["acc"]``, ``dict(r)``, ``pd.DataFrame([r])``). Attributes give
  readable code and tab completion; the mapping keeps tables of results one call away.
* A function whose result is an **ordered pair that callers unpack** — lower and upper bound, an
  ROC curve, a distribution's values and weights — returns a :class:`typing.NamedTuple`
  (:class:`Bounds`, :class:`Curve`, :class:`Distribution`), so ``lower, upper = info_bounds(acc)``
  reads naturally and ``.lower`` names the part.

Nothing returns a bare ``dict`` or an anonymous tuple.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import NamedTuple

import numpy as np

__all__ = ["Bounds", "Curve", "Distribution", "Result"]


class Result(Mapping):
    """Base of the frozen result dataclasses: ``result[key]``, ``dict(result)``, ``key in result``."""

    def __getitem__(self, key):
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())

    @classmethod
    def _keys(cls):
        return tuple(f.name for f in fields(cls))


class Bounds(NamedTuple):
    """A lower and an upper bound (floats, or arrays of one shape)."""

    lower: object
    upper: object


class Curve(NamedTuple):
    """An ROC curve: false positive rates and true positive rates, from (0, 0) to (1, 1)."""

    fpr: np.ndarray
    tpr: np.ndarray


class Distribution(NamedTuple):
    """A discrete distribution: its values (e.g. confidences) and their probabilities."""

    values: np.ndarray
    weights: np.ndarray
