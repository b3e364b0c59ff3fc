"""Exercise checkers: a student learns whether a number is right, not what is right.

The student edition of the launch notebooks (``launch/student``, what Binder and Colab open)
follows some exercises with a cell like ::

    from metabits_book.checks import check_exercise

    check_exercise("ex-s1-criterion", d_prime=..., c=...)

The student replaces each ``...`` with a number and runs the cell; the verdict says, for each
answer, whether it is right (within a tolerance that lets a value rounded as the exercise asks
pass), or too high, too low, given as a percentage or of the wrong sign. It never prints the
book's value. :data:`EXERCISES` holds the exercises that have checkers: their expected values
are computed by the library, when checked, never typed in. ``scripts/make_launch_notebooks.py``
asks :func:`checker_code` for the cell's code, so the notebooks and this module cannot disagree
on the names.

:func:`check` is the one-number checker the others use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from metabits.results import Result

__all__ = ["EXERCISES", "Verdict", "check", "check_exercise", "checker_code"]


@dataclass(frozen=True)
class Verdict(Result):
    """The outcome of a check: ``ok`` and the message a notebook shows (its ``repr``).

    ``bool(verdict)`` is ``ok``; ``ok`` is False as well when no answer was given yet.
    """

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.message

    __repr__ = __str__


def _number(value, what: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, not {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{what} must be finite, not {number}")
    return number


def check(answer, expected, tol, *, name: str = "your answer") -> Verdict:
    """Whether ``answer`` is within ``tol`` of ``expected``, as a friendly verdict.

    Parameters
    ----------
    answer : float or Ellipsis
        The student's number (a NumPy scalar or a one-element array will do); ``...`` or None
        means "not answered yet".
    expected : float
        The right value (finite).
    tol : float
        The largest accepted absolute difference (> 0).
    name : str, default "your answer"
        What the answer is, for the message.

    Returns
    -------
    Verdict
        Right; or not yet, saying whether the answer is too high or too low, looks like a
        percentage of the right proportion, or has the wrong sign. The message never contains
        ``expected``.

    Raises
    ------
    ValueError
        For an ``expected`` that is not a finite number or a ``tol`` that is not positive
        (the checker's mistakes; a student's answer that is not a number gets a verdict).

    Examples
    --------
    >>> check(0.75, 0.75, 0.01, name="accuracy")
    accuracy: right.
    >>> check(75, 0.75, 0.01, name="accuracy")
    accuracy: not yet — it looks like a percentage; give it as a proportion.
    >>> check(0.56, -0.5602, 0.01, name="c")
    c: not yet — check its sign.
    >>> check(2.5, 2.169, 0.01, name="d′")
    d′: not yet — too high.
    >>> check(..., 2.169, 0.01, name="d′")
    d′: replace the ... with your answer, then run the cell again.
    >>> bool(check(2.17, 2.169, 0.01))
    True
    """
    expected = _number(expected, "expected")
    tol = _number(tol, "tol")
    if tol <= 0:
        raise ValueError(f"tol must be positive, not {tol}")
    if answer is ... or answer is None:
        return Verdict(False, f"{name}: replace the ... with your answer, then run the cell again.")
    try:
        value = np.asarray(answer, dtype=float)
        if value.size != 1:
            return Verdict(False, f"{name}: give one number, not {value.size} of them.")
        value = float(value.reshape(()))
    except (TypeError, ValueError):
        return Verdict(False, f"{name}: give a number, not {answer!r}.")
    if not math.isfinite(value):
        return Verdict(False, f"{name}: not yet — {value} is not a finite number.")
    if abs(value - expected) <= tol * (1 + 1e-9):  # 0.74 is within 0.01 of 0.75
        return Verdict(True, f"{name}: right.")
    if 0 <= expected <= 1 and abs(value) > 1 and abs(value / 100 - expected) <= tol:
        return Verdict(False, f"{name}: not yet — it looks like a percentage; give it as a "
                              "proportion.")
    if abs(expected) > tol and abs(value + expected) <= tol:
        return Verdict(False, f"{name}: not yet — check its sign.")
    return Verdict(False, f"{name}: not yet — too {'high' if value > expected else 'low'}.")


@dataclass(frozen=True)
class _Answer:
    """One number an exercise asks for.

    Parameters
    ----------
    name : str
        The keyword of :func:`check_exercise` (a Python name).
    label : str
        How the message names it (e.g. ``"d′"``).
    expected : callable
        Computes the right value with the library (called when checked).
    tol : float
        Accepted absolute difference: at least half a unit of the last digit the exercise
        expects, so that a correctly rounded answer passes.
    """

    name: str
    label: str
    expected: Callable[[], float]
    tol: float


def _guess_or_know(what: str) -> float:
    import metabits as mb

    conf, weights = [0.5, 1.0], [0.5, 0.5]
    if what == "accuracy":
        return float(mb.info.accuracy(conf, weights))
    return float(mb.info.transmitted_information(conf, weights))


def _pti_unequal_prior() -> float:
    import metabits as mb

    return float(mb.info.pti(0.6, prior=0.8))


def _llm_sdt(what: str) -> float:
    import metabits as mb

    result = mb.type1_sdt([[70, 30], [5, 95]])  # S2 answers on 30% of S1, 95% of S2 items
    return float(result.d if what == "d" else result.c)


def _lab_gain() -> float:
    import metabits as mb

    eff = mb.oskr.effective_error_for_oskr(0.5, prevalence=0.9)
    return float(1 - eff / 0.22)  # g = 1 - ε_eff / ε with the lab's ε = 0.22


def _criterion_z() -> float:
    from metabits.sdt import se_from_ci

    # DeepSeek, task A: 0.1356 ± 0.0291 (risk S1) and 0.2149 ± 0.0300 (None), 95% half-widths
    return float((0.2149 - 0.1356) / math.hypot(se_from_ci(0.0291), se_from_ci(0.0300)))


#: exercise label (as in the chapter's ``{exercise}``) -> the numbers it asks for
EXERCISES: dict[str, tuple[_Answer, ...]] = {
    "ex-ch1-guess-or-know": (
        _Answer("accuracy", "accuracy (a proportion)", lambda: _guess_or_know("accuracy"), 0.01),
        _Answer("info", "transmitted information (bit)", lambda: _guess_or_know("info"), 0.01),
    ),
    "ex-ch1-negative-pti": (
        _Answer("pti", "pti(0.6) with p+ = 0.8 (bit)", _pti_unequal_prior, 0.01),
    ),
    "ex-s1-criterion": (
        _Answer("d_prime", "d′", lambda: _llm_sdt("d"), 0.01),
        _Answer("c", "c", lambda: _llm_sdt("c"), 0.01),
    ),
    "ex-s3-se": (
        _Answer("z", "z statistic", _criterion_z, 0.02),
    ),
    "ex-demos-lab": (
        _Answer("gain", "verifier gain g", _lab_gain, 0.01),
    ),
}


def _answers(label: str) -> tuple[_Answer, ...]:
    if label not in EXERCISES:
        raise ValueError(f"label {label!r} names no exercise with a checker; the exercises with one are "
                         + ", ".join(sorted(EXERCISES)))
    return EXERCISES[label]


def check_exercise(label: str, **answers) -> Verdict:
    """Check a student's answers to one exercise of :data:`EXERCISES`.

    Parameters
    ----------
    label : str
        The exercise's label, e.g. ``"ex-s1-criterion"``.
    **answers
        One keyword per number the exercise asks for (:func:`checker_code` lists them); ``...``
        or a missing keyword means not answered yet.

    Returns
    -------
    Verdict
        ``ok`` when every answer is right; the message has one line per answer.

    Raises
    ------
    ValueError
        For an unknown exercise or a keyword the exercise does not ask for.

    Examples
    --------
    >>> check_exercise("ex-ch1-guess-or-know", accuracy=0.75, info=...)
    accuracy (a proportion): right.
    transmitted information (bit): replace the ... with your answer, then run the cell again.
    """
    expected = _answers(label)
    names = [a.name for a in expected]
    unknown = sorted(set(answers) - set(names))
    if unknown:
        raise ValueError(f"the exercise {label!r} asks for {', '.join(names)}, "
                         f"not {', '.join(unknown)}")
    verdicts = [check(answers.get(a.name, ...), a.expected(), a.tol, name=a.label)
                for a in expected]
    return Verdict(all(verdicts), "\n".join(v.message for v in verdicts))


def checker_code(label: str) -> str:
    """The code of the checker cell that follows the exercise ``label`` in the student edition.

    Parameters
    ----------
    label : str
        An exercise of :data:`EXERCISES`, e.g. ``"ex-s1-criterion"``.

    Returns
    -------
    str
        A comment line, the import of :func:`check_exercise` and its call with one ``...`` per
        number the exercise asks for.

    Raises
    ------
    ValueError
        For a label that names no exercise with a checker.

    Examples
    --------
    >>> print(checker_code("ex-s1-criterion"))
    # Check your answers: replace each ... with your number, then run this cell.
    from metabits_book.checks import check_exercise
    <BLANKLINE>
    check_exercise("ex-s1-criterion", d_prime=..., c=...)
    """
    args = ", ".join(f"{a.name}=..." for a in _answers(label))
    return ("# Check your answers: replace each ... with your number, then run this cell.\n"
            "from metabits_book.checks import check_exercise\n\n"
            f'check_exercise("{label}", {args})')
