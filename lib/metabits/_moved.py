"""Names that live in another module and stay importable from this one, imported on first use.

One home for the module-level ``__getattr__`` (PEP 562) of every module that forwards names:
a name that moved keeps working from its former module, and a module whose helpers are slow
to import (matplotlib, MyST-NB) loads them only when a name is first used.
"""

from __future__ import annotations

import importlib

__all__ = ["forwarding"]


def forwarding(module: str, package: str, homes: dict):
    """A module ``__getattr__`` that imports each name of ``homes`` from its home on first use.

    Parameters
    ----------
    module : str
        The forwarding module's ``__name__`` (for the error message).
    package : str
        Its ``__package__``: what a relative home is relative to.
    homes : dict
        ``{name: home module}``, e.g. ``{"glue": ".notebook"}``.

    Returns
    -------
    callable
        ``__getattr__(name)``: the name from its home, or ``AttributeError`` as Python gives for
        a name a module does not have.

    Examples
    --------
    >>> __getattr__ = forwarding("metabits.book", "metabits.book", {"glue": ".notebook"})
    >>> __getattr__("glue").__name__
    'glue'
    >>> __getattr__("nonsense")
    Traceback (most recent call last):
    ...
    AttributeError: module 'metabits.book' has no attribute 'nonsense'
    """
    homes = dict(homes)

    def __getattr__(name):
        if name in homes:
            return getattr(importlib.import_module(homes[name], package), name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
