"""One paper number: what a reproduced work prints, how the book recomputes it, and the verdict.

:class:`PaperNumber` is an entry of the book's registry (:mod:`metabits_book.paper_numbers`),
:class:`Row` its evaluation. Agreement means that the book's value lies within half a unit of
the paper's last printed digit, unless an entry states another tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from metabits.validation import as_int, as_scalar

__all__ = ["AGREES", "FLOAT_SLACK", "KNOWN_DISCREPANCY", "PaperNumber", "Row", "STATUSES",
           "WORKS", "format_value"]

AGREES = "agrees"
#: Status of an entry whose book value differs from the printed value, for a stated reason.
KNOWN_DISCREPANCY = "known discrepancy"
STATUSES = (AGREES, KNOWN_DISCREPANCY)

#: The reproduced works: registry key -> short citation (the keys of ``references.bib``).
WORKS = {
    "meyen2025": "Meyen, Göppert, Schrenk, von Luxburg & Franz (2025)",
    "servajean2026": "Servajean & Servajean (2026)",
    "roberts2026": "Roberts (2026)",
}

#: Floating-point slack added to every tolerance, as in ``tests/conftest.py``'s ``assert_paper``.
FLOAT_SLACK = 1e-12


def format_value(value: float, decimals: int, unit: str = "") -> str:
    """``value`` with two more decimals than the paper prints, and its unit.

    Parameters
    ----------
    value : float
        The number to show.
    decimals : int
        Decimals the paper prints; two more are shown, enough to see how the value rounds.
    unit : str, optional
        ``"%"`` is attached directly, any other unit after a space.

    Returns
    -------
    str
        For example ``format_value(0.17494, 2, "bit")`` is ``"0.1749 bit"``.

    Raises
    ------
    ValueError
        For a value that is not one finite number, ``decimals`` that is not an integer from 0
        to 15, or a ``unit`` that is not a string.

    Examples
    --------
    >>> format_value(0.17494, 2, "bit"), format_value(70.0, 0, "%")
    ('0.1749 bit', '70.00%')
    """
    value = as_scalar(value, "value")
    decimals = as_int(decimals, "decimals", least=0, most=15)
    if not isinstance(unit, str):
        raise ValueError(f"unit must be a string; got {unit!r}")
    text = f"{value:.{decimals + 2}f}"
    if not unit:
        return text
    return text + unit if unit == "%" else f"{text} {unit}"


@dataclass(frozen=True)
class PaperNumber:
    """One printed number of a reproduced work and how the book recomputes it.

    Parameters
    ----------
    id : str
        Unique identifier, ``"<work>/<name>"``.
    work : str
        Key of the work in :data:`WORKS`.
    where : str
        Where the number is printed, e.g. ``"Figure 5b"`` or ``"Table 2"``.
    what : str
        What the number is, in a few words.
    printed : str
        The number exactly as printed, without its unit (``"0.056"``, ``"0.50"``: trailing zeros
        count, they set the decimals).
    book : callable
        Zero-argument callable returning the book's value, in the unit of ``printed``.
    unit : str, optional
        ``"%"``, ``"bit"`` or ``""``.
    tolerance : float, optional
        Largest difference that counts as agreement; by default half a unit of the last printed
        digit.
    status : str, optional
        :data:`AGREES` (default) or :data:`KNOWN_DISCREPANCY`.
    explanation : str, optional
        Why the book's value differs (required for a known discrepancy), or a note on an agreeing
        entry. It may contain ``str.format`` fields filled from ``facts``.
    facts : callable, optional
        Zero-argument callable returning a mapping of computed values for ``explanation``, so
        that the explanation quotes computed, not typed, book numbers.
    paper_recipe : callable, optional
        For a known discrepancy: recomputes the printed value the way the explanation says the
        paper obtained it. It must agree with ``printed`` within the tolerance.
    """

    id: str
    work: str
    where: str
    what: str
    printed: str
    book: Callable[[], float]
    unit: str = ""
    tolerance: float | None = None
    status: str = AGREES
    explanation: str = ""
    facts: Callable[[], dict] | None = None
    paper_recipe: Callable[[], float] | None = None

    def __post_init__(self):
        float(self.printed)  # raises ValueError for a non-number
        if self.status not in STATUSES:
            raise ValueError(f"{self.id}: status must be one of {STATUSES}, not {self.status!r}")
        if self.status == KNOWN_DISCREPANCY and not self.explanation:
            raise ValueError(f"{self.id}: a known discrepancy needs an explanation")
        if self.tolerance is None:
            object.__setattr__(self, "tolerance", 0.5 * 10.0 ** (-self.decimals))

    @property
    def paper(self) -> float:
        """The printed value as a number."""
        return float(self.printed)

    @property
    def decimals(self) -> int:
        """Number of decimals printed (``"0.50"`` has 2)."""
        return len(self.printed.partition(".")[2])

    def agrees_with(self, value: float) -> bool:
        """Whether ``value`` lies within the tolerance of the printed value (a finite number)."""
        value = as_scalar(value, f"value compared with {self.id}")
        return bool(abs(value - self.paper) <= self.tolerance + FLOAT_SLACK)

    def explain(self) -> str:
        """The explanation with its computed facts filled in ("" if there is none)."""
        if self.facts is None:
            return self.explanation
        return self.explanation.format(**self.facts())

    def evaluate(self) -> "Row":
        """Compute the book's value and compare it with the printed one."""
        book = float(self.book())
        return Row(id=self.id, work=self.work, where=self.where, what=self.what,
                   printed=self.printed, unit=self.unit, decimals=self.decimals, paper=self.paper,
                   book=book, tolerance=float(self.tolerance), difference=book - self.paper,
                   agrees=self.agrees_with(book), status=self.status,
                   explanation=self.explain())


class Row(NamedTuple):
    """One evaluated entry: a plain record (``pandas.DataFrame(rows)`` makes a table of them).

    ``consistent`` is True when the outcome matches the recorded status: an agreeing entry
    agrees, a known discrepancy still disagrees.
    """

    id: str
    work: str
    where: str
    what: str
    printed: str
    unit: str
    decimals: int
    paper: float
    book: float
    tolerance: float
    difference: float
    agrees: bool
    status: str
    explanation: str

    @property
    def consistent(self) -> bool:
        return self.agrees == (self.status == AGREES)
