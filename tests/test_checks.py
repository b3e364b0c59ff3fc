"""metabits_book.checks: the exercise checkers of the student launch notebooks.

A checker says right or not yet (too high, too low, a percentage, the wrong sign) and never
prints the book's value; each checked exercise exists in a chapter, and its expected values are
the ones the chapter's solution states.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from metabits_book import checks
from metabits_book.checks import EXERCISES, check, check_exercise, checker_code

ROOT = Path(__file__).resolve().parents[1]


def _exercise_labels() -> dict[str, str]:
    """label -> notebook, for every ``{exercise}`` of the book's notebooks."""
    labels = {}
    for path in sorted((ROOT / "book").rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            for m in re.finditer(r"^:{3,}\{exercise\}.*\n:label: (\S+)", text, re.M):
                labels[m.group(1)] = path.relative_to(ROOT).as_posix()
    return labels


def test_every_checked_exercise_is_in_a_chapter():
    labels = _exercise_labels()
    assert set(EXERCISES) <= set(labels), sorted(set(EXERCISES) - set(labels))


#: the values the chapters' solutions state, to the digits they print
SOLUTIONS = {
    ("ex-ch1-guess-or-know", "accuracy"): (0.75, 0.005),   # "an accuracy of 75%"
    ("ex-ch1-guess-or-know", "info"): (0.5, 0.005),        # "and 0.5 bit"
    ("ex-s1-criterion", "d_prime"): (2.17, 0.005),         # "d' = z(0.95) - z(0.30) ≈ 2.17"
    ("ex-s1-criterion", "c"): (-0.56, 0.005),              # "c ≈ -0.56"
    ("ex-s3-se", "z"): (3.72, 0.005),                      # "z = 0.0793/0.0213 = 3.72"
    ("ex-demos-lab", "gain"): (0.62, 0.005),               # "g ≈ 0.62"
}


@pytest.mark.parametrize("label,name", sorted(SOLUTIONS), ids=lambda x: x)
def test_expected_values_are_the_solutions(label, name):
    answer = next(a for a in EXERCISES[label] if a.name == name)
    value, tol = SOLUTIONS[(label, name)]
    assert answer.expected() == pytest.approx(value, abs=tol)


def test_the_negative_pti_is_negative():
    (answer,) = EXERCISES["ex-ch1-negative-pti"]
    assert -0.3 < answer.expected() < -0.2  # the solution: "is negative"


@pytest.mark.parametrize("label", sorted(EXERCISES))
def test_answers_rounded_to_two_decimals_pass_and_others_do_not(label):
    right = {a.name: round(a.expected(), 2) for a in EXERCISES[label]}
    assert check_exercise(label, **right).ok
    wrong = {a.name: a.expected() + 3 * a.tol for a in EXERCISES[label]}
    verdict = check_exercise(label, **wrong)
    assert not verdict.ok and verdict.message.count("too high") == len(right)


@pytest.mark.parametrize("label", sorted(EXERCISES))
def test_the_checker_cell_runs_and_asks_for_every_answer(label, capsys):
    code = checker_code(label)
    for answer in EXERCISES[label]:
        assert f"{answer.name}=..." in code
    namespace = {}
    exec(compile(code, "<checker cell>", "exec"), namespace)  # the cell as a notebook runs it
    verdict = check_exercise(label)  # nothing answered yet
    assert not verdict.ok and verdict.message.count("replace the ...") == len(EXERCISES[label])


def test_the_verdicts():
    assert check(0.755, 0.75, 0.01).ok and check(0.74, 0.75, 0.01).ok
    assert not check(0.7601, 0.75, 0.01).ok
    assert str(check(0.9, 0.75, 0.01)) == "your answer: not yet — too high."
    assert str(check(0.6, 0.75, 0.01, name="acc")) == "acc: not yet — too low."
    assert "percentage" in str(check(75.0, 0.75, 0.01))
    assert not re.search(r"\d", str(check(75.0, 0.75, 0.01, name="x")))
    assert "sign" in str(check(0.56, -0.56, 0.01))
    assert "replace the ..." in str(check(None, 1.0, 0.1))
    assert check(np.float64(2.17), 2.169, 0.01).ok and check(np.array([2.17]), 2.169, 0.01).ok
    assert "one number" in str(check([1.0, 2.0], 1.0, 0.1))
    assert "a number" in str(check("2.17x", 2.169, 0.01))
    assert "finite" in str(check(float("nan"), 1.0, 0.1))


def test_the_checker_s_own_mistakes_are_errors():
    with pytest.raises(ValueError, match="tol must be positive"):
        check(1.0, 1.0, 0)
    with pytest.raises(ValueError, match="expected must be finite"):
        check(1.0, float("inf"), 0.1)
    with pytest.raises(ValueError, match="expected must be a number"):
        check(1.0, "one", 0.1)
    with pytest.raises(ValueError, match="label 'ex-none' names no exercise with a checker"):
        check_exercise("ex-none")
    with pytest.raises(ValueError, match="asks for d_prime, c, not dprime"):
        check_exercise("ex-s1-criterion", dprime=2.17)


@given(expected=st.floats(-100, 100), answer=st.floats(-1e4, 1e4),
       tol=st.floats(1e-4, 1.0))
def test_a_verdict_never_shows_the_expected_value(expected, answer, tol):
    assume(abs(expected) > 1e-3 and abs(abs(answer - expected) - tol) > 1e-6)
    verdict = check(answer, expected, tol, name="x")
    assert not re.search(r"\d", verdict.message)  # no number at all: neither value nor answer
    assert verdict.ok == (abs(answer - expected) <= tol)


def test_docstring_examples():
    import doctest

    assert doctest.testmod(checks).failed == 0
