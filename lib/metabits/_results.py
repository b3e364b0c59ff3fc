"""A frozen-dataclass base whose fields can also be read as a mapping (``result["RMI"]``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields


class ResultMapping(Mapping):
    """Mixin for frozen dataclasses of results: ``result[key]``, ``dict(result)``, ``key in result``."""

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
