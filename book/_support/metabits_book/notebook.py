"""Helpers for running the book's notebooks anywhere: the website build, Binder, Colab, a laptop.

:func:`glue` is MyST-NB's ``glue`` when MyST-NB is installed (the book build, Binder, a local
install) and a stand-in that shows the value otherwise (e.g. on Colab), so that a notebook's
``glue`` calls never stop it from running.
"""

from __future__ import annotations

__all__ = ["glue"]


def glue(name: str, variable, display: bool = True):
    """Store ``variable`` under ``name`` for the book's text, as ``myst_nb.glue`` does.

    Parameters
    ----------
    name : str
        The key the book's text refers to with the glue role.
    variable : object
        The value to store.
    display : bool, default True
        Show the value in the notebook as well.

    Returns
    -------
    None or object
        Without MyST-NB: ``variable`` when ``display`` (so the notebook shows it), else None.

    Examples
    --------
    >>> glue("answer", 42, display=False)
    """
    try:
        from myst_nb import glue as myst_glue
    except ImportError:  # e.g. on Colab: nothing to glue into, so show the value or nothing
        return variable if display else None
    myst_glue(name, variable, display=display)
    return None
