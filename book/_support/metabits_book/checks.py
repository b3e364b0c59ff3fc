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

import functools
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


# Each helper computes what the exercise's solution computes, with the same calls and seeds;
# the slower ones keep their value for the session (the same inputs give the same number).

def _uniform_80(what: str) -> float:
    import metabits as mb

    c, w = mb.info.discrete_confidence("uniform", 0.8)  # ratings 50% and 100%
    return float(w[1] if what == "certain" else mb.info.transmitted_information(c, w))


def _four_labels(acc: float) -> float:
    import metabits as mb

    return float(mb.info.info_upper_bound(acc, [0.25] * 4))


def _auc2_uniform(acc: float) -> float:
    import metabits as mb

    fpr, tpr = mb.info.roc_curve_type2("uniform", acc)
    return float(np.trapezoid(tpr, fpr))


def _merged_table1(what: str) -> float:
    import metabits as mb

    return float(mb.type2_measures([[140, 60], [60, 140]])[what])


@functools.cache
def _paper_study():
    from metabits_book.studies import simulation as sim

    return sim.paper_study()  # the data sets of chapters 6 and 7 (seeded)


def _padded_m_ratio(pad: float) -> float:
    import metabits as mb

    # uniform noise (first noise type) at 70% (second accuracy), as in the solution's loop
    return float(mb.fit_meta_d(_paper_study()[0, 1], pad=pad)["m_ratio"].mean())


@functools.cache
def _negative_reduced_rmi() -> float:
    import metabits as mb

    reduced = mb.type2_measures(_paper_study()[2, 0], bias_reduction=1000, rng=1)
    return float(np.mean(reduced["RMI"] < 0))  # binary noise at 60%


def _five_voters(what: str) -> float:
    import metabits as mb

    if what == "mv":
        return float(mb.group.majority_vote_accuracy(0.7, 5))
    return float(mb.group.noise_group("uniform", 0.7, 5)["acc"])


def _three_bins(what: str) -> float:
    import metabits as mb
    from metabits import info as binning

    if what == "best":
        return float(binning.best_binning(0.7, 3).RMI)
    equal = np.linspace(0.5, 1.0, 4)[1:-1]  # [50, 66.7), [66.7, 83.3), [83.3, 100]
    return float(mb.type2_measures(binning.binned_response_probabilities("normal", 0.7,
                                                                         equal)).RMI)


def _ratio_range(end: str) -> float:
    from metabits_book import paper_numbers as pn

    bounds = pn.servajean_ratio_range("C", "DeepSeek-V3.2-Exp")
    return float(bounds.lower if end == "lower" else bounds.upper)


@functools.cache
def _mean_of_ratios_gap(what: str) -> float:
    from metabits_book.studies import bayes_refits as br

    t = br.servajean_bayes_table()
    row = t[(t.task == "C") & (t.model == "DeepSeek-V3.2-Exp")].iloc[0]
    if what == "gap":
        value = row.m_ratio_mean - row.ratio_of_means
    else:
        var_d = ((row.d_hi - row.d_lo) / (2 * 1.96)) ** 2
        value = row.ratio_of_means * var_d / row.d_mean ** 2
    return float(value * 1e4)  # the solution's table is in units of 10⁻⁴


def _flag_oskr(hit: float, false_alarm: float) -> float:
    import metabits as mb

    return float(mb.oskr.binary_channel(0.9, hit, false_alarm).oskr)


def _verifier_or_classifier(what: str) -> float:
    import metabits as mb

    if what == "verifier":
        return float(mb.oskr.binary_channel(0.6, 1.0, 0.0).oskr)
    lo, hi = mb.info.info_bounds(0.6)
    return float((hi - lo) / mb.info.binary_entropy(0.6))


@functools.cache
def _verify_interval_width(n_tasks: int) -> float:
    from metabits_book import cognitive_chain as cc

    prof = cc.roberts_profiles()
    r = cc.per_operation_oskr(cc.simulate_chain(prof.scores[3], n_tasks, rng=1), n_boot=500,
                              rng=2)  # agent C
    v = prof.operations.index("Verify")
    return float(r.upper[v] - r.lower[v])


def _alpha_largest_false_alarm() -> float:
    import metabits as mb
    from scipy.optimize import brentq

    return float(brentq(lambda fa: mb.oskr.binary_channel(0.72, 1.0, fa).oskr - 0.81, 0, 0.5))


@functools.cache
def _pooled_people(what: str) -> float:
    import metabits as mb
    from metabits_book.studies import datasets

    if what == "pooled":
        pooled = mb.all_measures(datasets.maskori_counts(by="soa_ms").counts)
        return float(pooled.value("m_ratio")[3])  # 66.7 ms
    # the chapter's estimates: the bootstrap's point values (N_BOOT = 200, SEED = 2023)
    boot = mb.bootstrap_measures(datasets.maskori_counts().counts, n_boot=200, rng=2023)
    return float(np.median(boot.value("m_ratio")[:, 3]))


@functools.cache
def _retest_m_ratio(n_trials: int) -> float:
    from metabits_book.studies.database_copy import confidence_database
    from metabits_book.studies.database_precision import test_retest

    retest = test_retest(confidence_database(), n_trials=n_trials)
    return float(retest.icc[retest.names.index("m_ratio")])


@functools.cache
def _conditions_log_difference(what: str) -> float:
    """The shipped MaskOri draws' difference of the two SOAs' mean log M-ratio: its posterior
    mean (``"mean"``) or the 2.5% and 97.5% quantiles (``"lo"``, ``"hi"``)."""
    from metabits_book.studies import hmetad_study as hs

    mu = hs.maskori_conditions_posterior().posterior["mu_log_m_ratio"]
    a, b = (f"{s:g} ms" for s in hs.MASKORI_CONDITION_SOAS)
    d = (mu.sel(soa=b) - mu.sel(soa=a)).values.ravel()
    lo, hi = np.quantile(d, [0.025, 0.975])
    return float({"mean": d.mean(), "lo": lo, "hi": hi}[what])


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
    "ex-ch2-uniform-80": (
        _Answer("certain", "share of certain predictions (a proportion)",
                lambda: _uniform_80("certain"), 0.005),
        _Answer("info", "transmitted information (bit)", lambda: _uniform_80("info"), 0.005),
    ),
    "ex-ch3-third": (
        _Answer("info_third", "information at acc = 1/3 (bit)", lambda: _four_labels(1 / 3),
                0.005),
        _Answer("info_quarter", "information at acc = 1/4 (bit)", lambda: _four_labels(1 / 4),
                0.005),
    ),
    "ex-ch4-auc2-uniform": (
        _Answer("auc2", "area under the Type 2 ROC at acc = 90%", lambda: _auc2_uniform(0.9),
                0.005),
    ),
    "ex-ch5-collapse": (
        _Answer("acc", "accuracy (a proportion)", lambda: _merged_table1("acc"), 0.005),
        _Answer("rmi", "RMI", lambda: _merged_table1("RMI"), 0.005),
    ),
    "ex-ch6-pad": (
        _Answer("pad_01", "mean M-ratio, uniform noise at 70%, pad 0.1",
                lambda: _padded_m_ratio(0.1), 0.01),
        _Answer("pad_05", "mean M-ratio, uniform noise at 70%, pad 0.5",
                lambda: _padded_m_ratio(0.5), 0.01),
    ),
    "ex-ch7-twice": (
        # another seed moves the share by a few tables: the tolerance lets it pass
        _Answer("share", "share of binary-noise tables at 60% with a negative reduced RMI "
                "(a proportion)", _negative_reduced_rmi, 0.02),
    ),
    "ex-ch8-mv5": (
        _Answer("mv", "MV accuracy of five members (3 decimals)", lambda: _five_voters("mv"),
                0.0005),
        _Answer("uniform", "accuracy of five uniform-noise members (3 decimals)",
                lambda: _five_voters("uniform"), 0.0005),
    ),
    "ex-ch9-three-bins": (
        _Answer("rmi_best", "RMI of the best three bins (3 decimals)",
                lambda: _three_bins("best"), 0.0005),
        _Answer("rmi_equal", "RMI of the three equal-width bins (3 decimals)",
                lambda: _three_bins("equal"), 0.0005),
    ),
    "ex-s2-ratio": (
        _Answer("lower", "smallest consistent ratio (4 decimals)", lambda: _ratio_range("lower"),
                0.00005),
        _Answer("upper", "largest consistent ratio (4 decimals)", lambda: _ratio_range("upper"),
                0.00005),
    ),
    "ex-s4-gap": (
        _Answer("gap", "DeepSeek's gap in task C, in units of 10⁻⁴",
                lambda: _mean_of_ratios_gap("gap"), 0.005),
        _Answer("second_order", "its second-order prediction, in units of 10⁻⁴",
                lambda: _mean_of_ratios_gap("second_order"), 0.005),
    ),
    "ex-oskr-flag": (
        _Answer("always_done", "OSKR of the flag that always says done",
                lambda: _flag_oskr(1.0, 1.0), 0.005),
        _Answer("symmetric", "OSKR of the symmetric flag", lambda: _flag_oskr(0.9, 0.1), 0.005),
    ),
    "ex-measures-verifier": (
        _Answer("verifier", "OSKR of the perfect verifier",
                lambda: _verifier_or_classifier("verifier"), 0.005),
        _Answer("classifier", "OSKR of the best calibrated classifier",
                lambda: _verifier_or_classifier("classifier"), 0.005),
    ),
    "ex-chain-attribution": (
        # the width depends on the seeds (the simulation's and the bootstrap's): the label
        # names the solution's calls
        _Answer("width_1000", "Verify's interval width with 1,000 tasks (simulate_chain rng=1, "
                "per_operation_oskr n_boot=500, rng=2; 3 decimals)",
                lambda: _verify_interval_width(1000), 0.0005),
        _Answer("width_6000", "Verify's interval width with 6,000 tasks (simulate_chain rng=1, "
                "per_operation_oskr n_boot=500, rng=2; 3 decimals)",
                lambda: _verify_interval_width(6000), 0.0005),
    ),
    "ex-audit-alpha": (
        _Answer("fa", "largest P(confident | wrong) (a proportion, 3 decimals)",
                _alpha_largest_false_alarm, 0.0005),
    ),
    "ex-people-pool": (
        _Answer("pooled", "pooled M-ratio at 66.7 ms", lambda: _pooled_people("pooled"), 0.005),
        _Answer("median", "median of the individual M-ratios at 66.7 ms",
                lambda: _pooled_people("median"), 0.005),
    ),
    "ex-cdb-retest-trials": (
        _Answer("icc_100", "ICC of the M-ratio with 100 trials a day",
                lambda: _retest_m_ratio(100), 0.005),
        _Answer("icc_400", "ICC of the M-ratio with 400 trials a day",
                lambda: _retest_m_ratio(400), 0.005),
    ),
    "ex-cond-log": (
        _Answer("mean", "posterior mean of the difference of mean log M-ratio",
                lambda: _conditions_log_difference("mean"), 0.005),
        _Answer("lo", "2.5% quantile of that difference",
                lambda: _conditions_log_difference("lo"), 0.005),
        _Answer("hi", "97.5% quantile of that difference",
                lambda: _conditions_log_difference("hi"), 0.005),
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
        number the exercise asks for, each on its own line with what it is.

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
    check_exercise(
        "ex-s1-criterion",
        d_prime=...,  # d′
        c=...,  # c
    )
    """
    args = "".join(f"    {a.name}=...,  # {a.label}\n" for a in _answers(label))
    return ("# Check your answers: replace each ... with your number, then run this cell.\n"
            "from metabits_book.checks import check_exercise\n\n"
            f'check_exercise(\n    "{label}",\n{args})')
