"""metabits_book.checks: the exercise checkers of the student launch notebooks.

A checker says right or not yet (too high, too low, a percentage, the wrong sign) and never
prints the book's value; each checked exercise exists in a chapter, and its expected values are
the ones the chapter's solution states.
"""

from __future__ import annotations

import json
import math
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
    ("ex-ch2-uniform-80", "certain"): (2 * 0.8 - 1, 1e-9),  # "a share 2acc − 1"
    ("ex-ch2-uniform-80", "info"): (2 * 0.8 - 1, 1e-9),     # "info = 2acc − 1"
    ("ex-ch3-third", "info_third"): (2 - math.log2(3), 1e-9),  # "info = 2 − log2 3 bit"
    ("ex-ch3-third", "info_quarter"): (0.0, 1e-9),         # "both bounds are 0"
    ("ex-ch4-auc2-uniform", "auc2"): ((3 * 0.9 - 1) / (2 * 0.9), 1e-9),  # "(3acc − 1)/(2acc)"
    ("ex-ch5-collapse", "acc"): (0.7, 1e-9),               # "keeps the accuracy at 0.7"
    ("ex-ch5-collapse", "rmi"): (0.0, 1e-9),               # "gives RMI = 0"
    ("ex-ch8-mv5", "mv"): (math.comb(5, 3) * 0.7**3 * 0.3**2 + math.comb(5, 4) * 0.7**4 * 0.3
                           + 0.7**5, 1e-9),                 # the binomial sum
    ("ex-s2-ratio", "lower"): (0.88655 / 1.25655, 1e-9),   # "[0.88655/1.25655, ...]"
    ("ex-s2-ratio", "upper"): (0.88665 / 1.25645, 1e-9),   # "[..., 0.88665/1.25645]"
    ("ex-oskr-flag", "always_done"): (0.0, 1e-9),          # "is 0"
    ("ex-oskr-flag", "symmetric"): (0.45, 0.005),          # "about 0.45"
    ("ex-measures-verifier", "verifier"): (1.0, 1e-9),     # "is 1"
    ("ex-measures-verifier", "classifier"): (0.18, 0.005),  # "about 0.18"
}


@pytest.mark.parametrize("label,name", sorted(SOLUTIONS), ids=lambda x: x)
def test_expected_values_are_the_solutions(label, name):
    answer = next(a for a in EXERCISES[label] if a.name == name)
    value, tol = SOLUTIONS[(label, name)]
    assert answer.expected() == pytest.approx(value, abs=tol)


def test_the_negative_pti_is_negative():
    (answer,) = EXERCISES["ex-ch1-negative-pti"]
    assert -0.3 < answer.expected() < -0.2  # the solution: "is negative"


def _decimals(tol: float) -> int:
    """The decimals an answer needs to be within ``tol`` once rounded (at least two)."""
    return max(2, math.ceil(-math.log10(2 * tol) - 1e-9))


@pytest.mark.parametrize("label", sorted(EXERCISES))
def test_rounded_answers_pass_and_others_do_not(label):
    right = {a.name: round(a.expected(), _decimals(a.tol)) for a in EXERCISES[label]}
    assert check_exercise(label, **right).ok
    wrong = {a.name: a.expected() + 3 * a.tol for a in EXERCISES[label]}
    verdict = check_exercise(label, **wrong)
    assert not verdict.ok and verdict.message.count("too high") == len(right)
    low = {a.name: a.expected() - 3 * a.tol for a in EXERCISES[label]}
    verdict = check_exercise(label, **low)
    assert not verdict.ok and verdict.message.count("not yet") == len(right)


def test_every_chapter_with_exercises_has_a_checker():
    chapters = set(_exercise_labels().values())
    checked = {_exercise_labels()[label] for label in EXERCISES}
    assert chapters <= checked, sorted(chapters - checked)


# --- the solutions' own code gives values the checkers accept ------------------------------------

def _solution(label: str) -> str:
    """The text of the ``{solution}`` of ``label`` in its notebook."""
    path = ROOT / _exercise_labels()[label]
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        text = "".join(cell["source"])
        m = re.search(rf"^:{{3,}}\{{solution\}} {re.escape(label)}\n(.*?)^:{{3,}}$", text,
                      re.M | re.S)
        if m:
            return m.group(1)
    raise AssertionError(f"no solution of {label}")


def _solution_code(label: str) -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", _solution(label), re.M | re.S)
    assert blocks, f"the solution of {label} has no code"
    return blocks[0]


def _inline(label: str, start: str) -> str:
    """The solution's inline code (between backticks) that starts with ``start``."""
    calls = [c for c in re.findall(r"`([^`]+)`", _solution(label)) if c.startswith(start)]
    assert calls, f"the solution of {label} has no inline code starting with {start!r}"
    return calls[0]


def _namespace(**chapter):
    """What the chapters import, plus the chapter's own variables."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    import metabits as mb

    return {"mb": mb, "np": np, "pd": pd, "plt": plt, **chapter}


def _run(label: str, namespace: dict) -> dict:
    """Run the solution's code block in ``namespace`` (its prints and plots discarded)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(_solution_code(label), f"<solution of {label}>", "exec"), namespace)
    return namespace


def _paper_study():
    from metabits_book.studies import simulation as sim

    return sim.paper_study()


def _ch2_uniform_80():
    ns = _run("ex-ch2-uniform-80", _namespace())
    return {"certain": ns["w"][1], "info": eval("mb.info.transmitted_information(c, w)", ns)}


def _ch3_third():
    call = _inline("ex-ch3-third", "mb.info.info_upper_bound(1/3")
    ns = _namespace()
    return {"info_third": eval(call, ns),
            "info_quarter": eval(call.replace("1/3", "1/4"), ns)}


def _ch4_auc2():
    ns = _run("ex-ch4-auc2-uniform", _namespace())
    assert ns["a"] == 0.9  # the loop's last accuracy
    return {"auc2": eval("np.trapezoid(t, f)", ns)}


def _ch5_collapse():
    r = eval(_inline("ex-ch5-collapse", "mb.type2_measures("), _namespace())
    return {"acc": r["acc"], "rmi": r["RMI"]}


def _ch6_pad():
    from metabits_book.studies import simulation as sim

    code = _solution_code("ex-ch6-pad")
    call = re.search(r"mb\.fit_meta_d\(counts\[0, j\], pad=p\)\[\"m_ratio\"\]\.mean\(\)",
                     code).group(0)
    ns = _namespace(counts=_paper_study(), ACCS=np.array(sim.STUDY_ACCURACIES), j=1)
    assert ns["ACCS"][1] == 0.7
    return {"pad_01": eval(call.replace("pad=p", "pad=0.1"), ns),
            "pad_05": eval(call.replace("pad=p", "pad=0.5"), ns)}


def _ch7_twice():
    ns = _run("ex-ch7-twice", _namespace(counts=_paper_study()))
    return {"share": eval('np.mean(r["RMI"] < 0)', ns)}


def _ch8_mv5():
    ns = _namespace()
    return {"mv": eval(_inline("ex-ch8-mv5", "mb.group.majority_vote_accuracy("), ns),
            "uniform": eval(_inline("ex-ch8-mv5", 'mb.group.noise_group("uniform"'), ns)}


def _ch9_three_bins():
    import metabits as mb

    ns = _run("ex-ch9-three-bins", _namespace(
        binning=mb.info, EQUAL={K: np.linspace(0.5, 1.0, K + 1)[1:-1] for K in (3, 4, 8)}))
    return {"rmi_best": ns["b3"].RMI, "rmi_equal": ns["eq3"]}


def _s2_ratio():
    from metabits_book import paper_numbers as pn

    r = eval(_inline("ex-s2-ratio", "pn.servajean_ratio_range("), _namespace(pn=pn))
    return {"lower": r.lower, "upper": r.upper}


def _s4_gap():
    from metabits_book.studies import bayes_refits as br

    ns = _run("ex-s4-gap", _namespace(br=br))
    t = ns["t"]
    row = (t.task == "C") & (t.model == "DeepSeek-V3.2-Exp")
    return {"gap": float((t.m_ratio_mean - t.ratio_of_means)[row].iloc[0] * 1e4),
            "second_order": float(ns["pred"][row].iloc[0] * 1e4)}


def _oskr_flag():
    ns = _namespace()
    return {"always_done": eval(_inline("ex-oskr-flag", "mb.oskr.binary_channel(0.9, 1.0"), ns),
            "symmetric": eval(_inline("ex-oskr-flag", "mb.oskr.binary_channel(0.9, 0.9"), ns)}


def _measures_verifier():
    ns = _run("ex-measures-verifier", _namespace())
    return {"verifier": eval(_inline("ex-measures-verifier", "mb.oskr.binary_channel("), ns),
            "classifier": eval("(hi - lo) / mb.info.binary_entropy(0.6)", ns)}


def _chain_attribution():
    from metabits_book import cognitive_chain as cc

    code = _solution_code("ex-chain-attribution")
    code = code.replace("(1000, 6000, 20000)", "(1000, 6000)")  # the two the checker asks for
    width = "round(r.upper[v] - r.lower[v], 3)"  # printed to 3 decimals: keep every digit
    assert width in code
    code = code.replace(width, "r.upper[v] - r.lower[v]").replace("print(n, ", "widths[n] = (")
    ns = _namespace(cc=cc, prof=cc.roberts_profiles(), widths={})
    exec(compile(code, "<solution of ex-chain-attribution>", "exec"), ns)
    return {f"width_{n}": w[0] for n, w in ns["widths"].items()}


def _audit_alpha():
    ns = _run("ex-audit-alpha", _namespace())
    return {"fa": eval("brentq(lambda fa: mb.oskr.binary_channel(0.72, 1.0, fa).oskr - 0.81, 0, "
                       "0.5)", ns)}


def _people_pool():
    import metabits as mb
    from metabits_book.studies import datasets

    # the chapter's estimates (N_BOOT = 200, SEED = 2023), then the solution's code
    boot = mb.bootstrap_measures(datasets.maskori_counts().counts, n_boot=200, rng=2023)
    ns = _run("ex-people-pool", _namespace(datasets=datasets,
                                           est={k: boot.value(k) for k in boot.names}))
    return {"pooled": eval('pooled.value("m_ratio")[3]', ns),
            "median": eval('np.median(est["m_ratio"][:, 3])', ns)}


def _cdb_retest():
    from metabits_book.studies.database_copy import confidence_database
    from metabits_book.studies.database_precision import test_retest

    db = confidence_database()
    ns = _namespace(db=db, test_retest=test_retest, retest=test_retest(db, n_trials=400),
                    LABELS={})
    ns["LABELS"] = {k: k for k in ns["retest"].names}
    table = _run("ex-cdb-retest-trials", ns)["short"]
    i = table.names.index("m_ratio")
    return {"icc_100": table.icc[i], "icc_400": ns["retest"].icc[i]}


def _cond_log():
    from metabits_book.studies import hmetad_study as hs

    ns = _namespace(post=hs.maskori_conditions_posterior(), SOAS=hs.MASKORI_CONDITION_SOAS)
    ns = _run("ex-cond-log", ns)
    return {"mean": ns["log_diff"].mean(), "lo": ns["lo"], "hi": ns["hi"]}


#: label -> the answers, computed by the solution's own code (taken from the notebook)
SOLUTION_ANSWERS = {
    "ex-ch2-uniform-80": _ch2_uniform_80, "ex-ch3-third": _ch3_third,
    "ex-ch4-auc2-uniform": _ch4_auc2, "ex-ch5-collapse": _ch5_collapse, "ex-ch6-pad": _ch6_pad,
    "ex-ch7-twice": _ch7_twice, "ex-ch8-mv5": _ch8_mv5, "ex-ch9-three-bins": _ch9_three_bins,
    "ex-s2-ratio": _s2_ratio, "ex-s4-gap": _s4_gap, "ex-oskr-flag": _oskr_flag,
    "ex-measures-verifier": _measures_verifier, "ex-chain-attribution": _chain_attribution,
    "ex-audit-alpha": _audit_alpha, "ex-people-pool": _people_pool,
    "ex-cdb-retest-trials": _cdb_retest, "ex-cond-log": _cond_log,
}


#: solutions that need a chapter's bootstrap first (seconds): left to the full test run
SLOW_SOLUTIONS = {"ex-people-pool"}


@pytest.mark.parametrize("label", [pytest.param(label, marks=pytest.mark.slow)
                                   if label in SLOW_SOLUTIONS else label
                                   for label in sorted(SOLUTION_ANSWERS)])
def test_the_solution_s_code_passes_its_checker(label):
    answers = SOLUTION_ANSWERS[label]()
    assert set(answers) == {a.name for a in EXERCISES[label]}
    for answer in EXERCISES[label]:  # the same computation: equal, not merely within tol
        assert answer.expected() == pytest.approx(float(answers[answer.name]), abs=1e-12)
    verdict = check_exercise(label, **answers)
    assert verdict.ok, verdict.message
    assert check_exercise(label, **{k: round(float(v), _decimals(a.tol)) for a in EXERCISES[label]
                                    for k, v in answers.items() if k == a.name}).ok


def test_what_the_solutions_say_of_their_numbers():
    """The claims of the solutions' prose, for the checkers whose values the prose only
    describes."""
    value = {(label, a.name): a.expected() for label in EXERCISES for a in EXERCISES[label]}
    assert value[("ex-ch6-pad", "pad_01")] > value[("ex-ch6-pad", "pad_05")]  # keeps growing
    assert 0.4 < value[("ex-ch7-twice", "share")] < 0.6                     # about half
    assert abs(value[("ex-ch9-three-bins", "rmi_best")]
               - value[("ex-ch9-three-bins", "rmi_equal")]) < 0.002        # about a thousandth
    assert value[("ex-ch9-three-bins", "rmi_best")] >= value[("ex-ch9-three-bins", "rmi_equal")]
    gap, pred = value[("ex-s4-gap", "gap")], value[("ex-s4-gap", "second_order")]
    assert abs(gap - pred) < 0.2 * gap                                       # a small fraction
    assert value[("ex-chain-attribution", "width_6000")] < 0.05 < value[
        ("ex-chain-attribution", "width_1000")]
    assert 0.09 < value[("ex-audit-alpha", "fa")] < 0.1                      # just above 9%
    assert value[("ex-people-pool", "pooled")] > value[("ex-people-pool", "median")]
    assert value[("ex-cdb-retest-trials", "icc_100")] < value[("ex-cdb-retest-trials", "icc_400")]


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
