"""The paper numbers the book recomputes: printed value, book value, tolerance and status.

This module is the single source of the book's reproducibility claims. Each
:class:`PaperNumber` records one number a reproduced work prints — where it is printed, what it
is, the printed text — together with a zero-argument callable that recomputes it with public
``metabits`` calls. ``tests/test_paper_numbers.py`` asserts every entry, and the book's
reproducibility report renders :func:`evaluate`, so the page and the tests cannot disagree.

Agreement means that the book's value lies within half a unit of the paper's last printed digit
(the rule of the whole test suite), unless an entry states another tolerance. An entry is either
``"agrees"`` or a ``"known discrepancy"``: the book's value deliberately differs, the entry
explains why, and — where the explanation names how the paper arrived at its number — a second
callable, ``paper_recipe``, recomputes the printed value that way. The tests then assert that the
discrepancy persists and that the recipe reproduces the paper, so an explanation cannot go stale
unnoticed.

Where the paper prints one number for several quantities ("each 20%"), the book value is the
one of them farthest from the printed number, so agreement covers all of them.

Adding a work follows the Meyen et al. pattern: add its key and citation to :data:`WORKS`, write
a module returning its entries (like :mod:`metabits_book.numbers_meyen2025`) and append them to
:data:`REGISTRY`. Entry ids are ``"<work>/<name>"`` and unique across the registry.

The module imports no pandas: :func:`evaluate` returns plain named tuples, which
``pandas.DataFrame(rows)`` turns into a table.
"""


from __future__ import annotations

from metabits_book.numbers_meyen2025 import meyen2025
from metabits_book.numbers_roberts2026 import (ROBERTS_ALPHA, ROBERTS_BETA, ROBERTS_LAB,
                                               ROBERTS_SETUPS, one_sided_detector_oskr,
                                               roberts2026_numbers)
from metabits_book.numbers_servajean2026 import (servajean2026, servajean_mean_of_ratios,
                                                 servajean_ratio_range)
from metabits_book.paper_number import (AGREES, FLOAT_SLACK, KNOWN_DISCREPANCY, STATUSES, WORKS,
                                        PaperNumber, Row, format_value)

__all__ = ["AGREES", "FLOAT_SLACK", "KNOWN_DISCREPANCY", "PaperNumber", "REGISTRY",
           "ROBERTS_ALPHA", "ROBERTS_BETA", "ROBERTS_LAB", "ROBERTS_SETUPS", "Row", "STATUSES",
           "WORKS", "entries", "evaluate", "format_value", "get", "one_sided_detector_oskr",
           "servajean_mean_of_ratios", "servajean_ratio_range"]

REGISTRY: tuple[PaperNumber, ...] = meyen2025() + servajean2026() + roberts2026_numbers()


def entries(work: str | None = None) -> tuple[PaperNumber, ...]:
    """The registry's entries, all or those of one ``work`` (a key of :data:`WORKS`).

    Parameters
    ----------
    work : str, optional
        A key of :data:`WORKS`; by default every work.

    Returns
    -------
    tuple of PaperNumber
        The entries in the registry's order.

    Raises
    ------
    ValueError
        If ``work`` is not a key of :data:`WORKS`.

    Examples
    --------
    >>> entries("meyen2025")[0].id
    'meyen2025/fig1-acc'
    """
    if work is None:
        return REGISTRY
    if not isinstance(work, str) or work not in WORKS:
        raise ValueError(f"work must be one of {sorted(WORKS)}, not {work!r}")
    return tuple(e for e in REGISTRY if e.work == work)


def get(id: str) -> PaperNumber:
    """The entry with this ``id``.

    Parameters
    ----------
    id : str
        ``"<work>/<name>"``, e.g. ``"meyen2025/fig1-acc"``.

    Returns
    -------
    PaperNumber

    Raises
    ------
    KeyError
        If there is none (the error is also a ``ValueError``, as for any bad input).
    ValueError
        For an ``id`` that is not a string.

    Examples
    --------
    >>> e = get("meyen2025/fig1-acc")
    >>> e.where, e.printed
    ('Figure 1a', '70')
    """
    if not isinstance(id, str):
        raise ValueError(f"id must be a string such as 'meyen2025/fig1-acc'; got {id!r}")
    for entry in REGISTRY:
        if entry.id == id:
            return entry
    raise _UnknownId(f"no paper number has the id {id!r}")


class _UnknownId(KeyError, ValueError):
    """An id not in the registry: a KeyError (a failed lookup) that is also a ValueError."""


def evaluate(work: str | None = None) -> list[Row]:
    """Recompute every entry (of one ``work``, or all) and compare it with the paper.

    Parameters
    ----------
    work : str, optional
        A key of :data:`WORKS`; by default every work.

    Returns
    -------
    list of Row
        One row per entry: id, work, where, what, printed, unit, decimals, paper, book,
        tolerance, difference (book − paper), agrees, status and explanation.

    Examples
    --------
    >>> rows = evaluate("meyen2025")
    >>> all(row.consistent for row in rows)
    True
    """
    return [entry.evaluate() for entry in entries(work)]
