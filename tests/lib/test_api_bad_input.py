"""Every public function of the library, its arguments mutated one at a time: bad input is refused
with a ValueError where it enters.

For each public callable (the functions in ``__all__`` of ``metabits`` and of every public module
and package under it, incl. ``metabits.group.*``, and the public methods of result objects) the
test starts from a valid call (:data:`ARGS`, a table from parameter name to a valid value and its
kind, with per-function overrides in :data:`CALLS`) and replaces ONE argument at a time by each
bad value of its kind (:data:`BAD`). A mutation passes only if it raises a ``ValueError`` that
names the argument (its name or an alias in :data:`ALIASES`) within :data:`TIME_LIMIT` seconds.
It fails on

* a value returned for invalid input (a silent NaN, a plausible wrong number),
* a foreign exception (AttributeError, IndexError, TypeError, MemoryError, ...),
* a call that runs longer than :data:`TIME_LIMIT` (a hang, or a size refused only after work).

Callables that cannot be fuzzed this way are listed in :data:`EXCLUDED` (and modules in
:data:`EXCLUDED_MODULES`) with the reason; the completeness test fails for a public callable that
is neither covered nor listed. Tables are keyed by the callable's name (public names are unique),
so they survive modules moving into packages. The library's rule on empty arrays is tried on
every array parameter (:func:`test_empty_arrays_are_refused`, exceptions in
:data:`EMPTY_ALLOWED`). ``metabits.io`` is fuzzed on tiny files in a temporary folder, so that
every valid call is quick. The machinery (:class:`Fuzz`) serves the book's code too
(tests/test_book_bad_input.py), with the book's tables.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
import signal
import tempfile
import time
import warnings

import numpy as np
import pytest

import metabits as mb
from metabits.io import _confidence_database as cdb

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"),
                                reason="the time limit uses SIGALRM (not on Windows)")

#: Seconds a call may take; a call refused where its argument enters returns long before.
TIME_LIMIT = 2.0

TABLE1 = [[84, 56, 48, 12], [4, 56, 64, 76]]  # Meyen et al. (2025), Table 1

#: Modules (and packages) whose callables are not fuzzed yet, with the reason.
EXCLUDED_MODULES = {
    "metabits.sdt._bayes_metad": "every call samples the posterior with NUTS (seconds, and a JAX "
                                 "compile on the first call); its refusals of bad tables, pads, "
                                 "draws and seeds are tests/lib/test_bayes_metad.py's",
    "metabits.sdt._hmetad": "every valid call of hmetad samples the posterior with NUTS (seconds, "
                            "and a JAX compile per shape); its refusals of bad sampler settings "
                            "and data, before any sampling, are tests/lib/test_hmetad.py's",
    "metabits.validation": "the argument checks themselves: every function fuzzed here refuses "
                           "its bad input through them; tests/lib/test_validate.py tests each",
}

#: Public callables not fuzzed, with the reason (by name: public names are unique in the
#: library, so the table survives modules moving into packages).
EXCLUDED = {
    "Result.to_frame": "the base class's method, which every result inherits: each result's "
                       "to_frame is checked in tests/lib/test_results.py",
    "prior_predictive": "needs an HMeta-d fit (NUTS, seconds); its refusals of bad fits, draws "
                        "and levels are tests/lib/test_bayes_checks.py's",
    "posterior_predictive": "needs an HMeta-d fit (NUTS, seconds); its refusals of bad fits, "
                            "draws and levels are tests/lib/test_bayes_checks.py's",
}

NAN, INF = float("nan"), float("inf")
RAGGED = [[0.7], [0.8, 0.9]]

#: Bad values per kind of argument. A kind ending in "?" also accepts None (so None is not bad).
#: The numeric kinds include empty arrays: the library refuses an empty array of the values a
#: function computes from (metabits.validation's docstring; test_empty_arrays_are_refused).
BAD = {
    # accuracies in [0.5, 1]; "acc1": a single accuracy
    "acc": [NAN, INF, 0.3, 1.5, "0.7", True, None, RAGGED, 0.7j, {"acc": 0.7}, [], [[]]],
    # probabilities in [0, 1]
    "prob": [NAN, INF, -0.1, 1.1, "0.5", True, None, RAGGED, 0.5j, {"p": 0.5}, [], [[]]],
    # probabilities strictly between 0 and 1 (priors, prevalences, confidence levels)
    "open": [NAN, INF, 0.0, 1.0, -0.1, 1.1, "0.5", True, None, RAGGED, 0.5j, []],
    # any finite number
    "real": [NAN, INF, -INF, "1", True, None, RAGGED, 1j, {"x": 1}, [], [[]]],
    # a number > 0
    "pos": [NAN, INF, 0.0, -1.0, "1", True, None, RAGGED, 1j, []],
    # a number >= 0 (padding)
    "nonneg": [NAN, INF, -1.0, "abc", True, None, RAGGED, 1j, []],
    # sizes: integers >= 1 that allocate or loop (10**10 must be refused, not attempted)
    "size": [2.5, 0, -1, 10 ** 10, "3", True, None, [3], NAN, 3.0, np.float64(3.0), 3j],
    # counts of things that are only numbers (trials of a multinomial, comparisons): no upper end
    "count": [2.5, 0, -1, "3", True, None, [3], NAN, 3.0, 3j],
    # count tables (..., 2, 2K)
    "table": [[[84, -56, 48, 12], [4, 56, 64, 76]], [[84, NAN, 48, 12], [4, 56, 64, 76]],
              [[84, 56, 48], [4, 56, 64, 76]], [["a", "b", "c", "d"], ["e", "f", "g", "h"]],
              [[84, 56, 48, 12], [4, 56, 64, 76], [1, 2, 3, 4]], [84, 56, 48, 12],
              [[84, 56, 48], [4, 56, 64]], [[0, 0, 0, 0], [0, 0, 0, 0]], "abc", None, 3.0,
              [], [[]], [[True, False, True, False], [False, True, False, True]],
              [[84, 56j, 48, 12], [4, 56, 64, 76]], [[[84, 56, 48, 12], [4, 56, 64]]]],
    # flags
    "flag": ["yes", "False", 2, 1.5, None, [True], NAN, np.int64(1), 0],
    # random generators or seeds
    "rng": ["abc", 2.5, True, [1.5], -1, NAN, "0", 1j, np.random.RandomState(0)],
    # names from a fixed list
    "choice": ["nonsense", 3, None, ["x"], True, "", b"plugin", " optimal"],
    # axes of an array
    "axis": [5, -5, 2.5, "a", None, True, "0", (0, 0)],
    # free text (units, names, stems)
    "text": [3, None, ["a"], 1.5, b"a"],
}


def _none_ok(kind: str) -> bool:
    return kind.endswith("?")


#: Kinds whose single-number form also refuses an array (parameters annotated ``float``/``int``).
SCALAR_KINDS = ("acc", "prob", "open", "real", "pos", "nonneg")


def _bad_values(kind, scalar: bool = False):
    if isinstance(kind, list):  # explicit bad values for one argument
        return kind
    base = BAD[kind.rstrip("?")]
    if scalar and kind.rstrip("?") in SCALAR_KINDS:
        base = base + [[0.7, 0.8]]
    if _none_ok(kind):
        return [v for v in base if v is not None]
    return base


def _cdf(lam):
    return 1.0 - np.exp(-np.asarray(lam))


_MEMBER = mb.group.noise_member("binary", 0.7)
#: A researcher's trials: two people, 60 trials each, a 3-point scale (metabits.measure).
_OWN = __import__("pandas").DataFrame({
    "subject": np.repeat(["p1", "p2"], 60), "stimulus": np.tile([0, 1], 60),
    "response": np.where(np.random.default_rng(0).random(120) < 0.75, np.tile([0, 1], 60),
                         1 - np.tile([0, 1], 60)),
    "confidence": np.random.default_rng(1).integers(1, 4, 120)})

_MEASURED = mb.measure(_OWN, measures=["acc", "auroc2"], n_boot=20, rng=0)
_MEASURED_LONG = mb.measure(_OWN, measures=["acc", "auroc2"], long=True)
_TRIALS = {"stimulus": [0, 0, 90, 90, 90], "response": [0, 90, 90, 90, 0],
           "rating": [4, 0, 1, 4, 2]}

# --- the Confidence Database's format (metabits.io): tiny files --------------------------

#: A temporary folder, kept for the session: tiny data set files (valid and malformed), and
#: the targets the writers write into (the book's writers too).
_TMP = tempfile.TemporaryDirectory(prefix="metabits-fuzz-")
_FOLDER = f"{_TMP.name}/raw"     # one valid data set and its readme (build_confidence_database)
_BAD = f"{_TMP.name}/bad"        # malformed data set files, one per defect
_OUT = f"{_TMP.name}/out"        # where the writers write
_HEADER = "Subj_idx,Stimulus,Response,Confidence,Condition,Accuracy"


def _write_files() -> dict:
    import os
    for d in (_FOLDER, _BAD, _OUT):
        os.makedirs(d)
    rows = [f"{s},{st},{r},{c},{cond},{int(st == r)}" for s in (1, 2) for cond in ("a", "b")
            for st, r, c in ((1, 1, 0.9), (1, 2, 0.7), (2, 2, 0.5), (2, 1, 0.7), (2, 2, 0.9))]
    with open(f"{_FOLDER}/data_Tiny_2020.csv", "w") as f:
        f.write("\n".join([_HEADER] + rows) + "\n")
    with open(f"{_FOLDER}/readme_Tiny_2020.txt", "w") as f:
        f.write("Contributor\nA. B.\n\nCitation\nB, A. (2020). A paper. J 1, 1.\n")
    bad = {"no_response": "Subj_idx,Stimulus,Confidence\n1,1,1\n1,2,2\n",
           "three_stimuli": f"{_HEADER}\n1,1,1,1,a,1\n1,2,2,2,a,1\n1,3,2,1,a,0\n",
           "words": f"{_HEADER}\n1,1,left,1,a,1\n1,2,2,2,a,1\n",
           "one_level": f"{_HEADER}\n1,1,1,3,a,1\n1,2,2,3,a,1\n",
           "all_missing": f"{_HEADER}\n1,NaN,1,3,a,1\n1,2,NaN,3,a,1\n",
           "continuous": _HEADER + "\n" + "\n".join(f"1,{1 + i % 2},1,{i / 40:.3f},a,1"
                                                    for i in range(40)) + "\n",
           "empty": "", "header_only": _HEADER + "\n",
           "latin1": (_HEADER + "\n1,1,1,1,\xe9,1\n1,2,2,2,\xe9,1\n").replace("Subj", "\xff"),
           "infinite": f"{_HEADER}\n1,1,1,1,a,1\n1,2,2,inf,a,1\n1,2,1,2,a,0\n",
           "repeated": f"{_HEADER},Confidence\n1,1,1,1,a,1,2\n1,2,2,2,a,1,1\n"}
    paths = {}
    for key, text in bad.items():
        paths[key] = f"{_BAD}/data_{key}.csv"
        with open(paths[key], "w", encoding="latin-1") as f:
            f.write(text)
    paths["binary"] = f"{_BAD}/data_binary.csv.gz"
    with open(paths["binary"], "wb") as f:
        f.write(b"\x1f\x8b\x08\x00garbage\xff\xfe")
    return paths


_BAD_FILES = _write_files()
_TINY = f"{_FOLDER}/data_Tiny_2020.csv"

_DB_TRIALS = cdb.read_confidence_database(_TINY)
#: Two tables padded to six columns (K = 2 and 3) and three of K = 3 (for merge_levels).
_PADDED = [[[84, 56, 48, 12, 0, 0], [4, 56, 64, 76, 0, 0]],
           [[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]]
_PADDED3 = [[[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]] * 3
_BAD_PADDED = [[[84, -56, 48, 12, 0, 0], [4, 56, 64, 76, 0, 0]],
               [[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]]
_BAD_TABLES = [[_BAD_PADDED[0]], [[[84, NAN, 48, 12, 0, 0], [4, 56, 64, 76, 0, 0]]] * 2,
               [[[1, 2], [3, 4]]] * 2, TABLE1, "abc", None, [], 3.0,
               [[[1j, 2, 3, 4, 0, 0], [1, 2, 3, 4, 0, 0]]] * 2,
               [[["a"] * 6, ["b"] * 6]] * 2, [[[True] * 6, [False] * 6]] * 2]
_BAD_LEVELS = [[2], [2, 4], [2.0, 3.0], [1, 3], "ab", None, [2, NAN], 3, [True, True], [],
               [[2, 3]]]
_VALUES = [0.1, 0.5, 0.2, 0.9, 0.4, 0.3, 0.8, 0.6, 0.7, 0.05, 0.65, 0.35]
_VALUES2 = [0.2, 0.6, 0.1, 0.8, 0.5, 0.3, 0.9, 0.6, 0.6, 0.10, 0.70, 0.30]
_BAD_VALUES = [[0.1, "a"], [0.1, 0.2], "abc", None, 3, [[0.1] * 12], [True] * 12, []]
_BAD_GROUPS = [[0, 1], "abc", 3, [[0] * 12]]
#: Table 1 times 1e12: its resampling tables would take some 10**16 numbers (a MemoryError)
_TABLE1_HUGE = np.array(TABLE1) * 1e12

# --- metabits.resample and metabits.reliability -----------------------------------------

_BAD_COUNTS = [[[84, -56, 48, 12], [4, 56, 64, 76]], [[84, NAN, 48, 12], [4, 56, 64, 76]],
               [[84, INF, 48, 12], [4, 56, 64, 76]], [[84, 56.5, 48, 12], [4, 56, 64, 76]],
               [[84, 56, 48], [4, 56, 64, 76]], [["a", "b"], ["c", "d"]], "abc", None, 3.0, [],
               [[]], [[True, False], [False, True]], [[84, 56j], [4, 56]], [[2 ** 62, 2 ** 62]],
               [[1e300, 1e300]], {"counts": TABLE1}, np.array(TABLE1) * 10 ** 7]
_BAD_REPS = ["abc", None, 3.0, [], RAGGED, [True, False, True], [0.1, 0.2j, 0.3], ["a", "b"],
             {"reps": 0.1}, [[0.1, 0.2], [0.3]]]
_BAD_HALF_GROUPS = [[[0, 1, 2, 3], [4, 6]], [[0, 1, 2, 3], [3, 4, 5]], [[0, 1, 2, 3]],
                    [[0, 1, 2, 3], [4, -5]], [[0.5, 1, 2, 3], [4, 5]], [[0, 1, 2, 3], [4, NAN]],
                    [[0, 1, 2, 3], [True, False]], [[0, 1, 2, 3], ["a", "b"]],
                    [[0, 1, 2, 3], [4, 5j]], "abc", None, 3, [], [[0, 1, 2, 3], None],
                    [[0, 1, 2, 3], [[4], [5, 6]]], {"a": [0, 1, 2, 3], "b": [4, 5]}]
_BAD_HALVES = [[[1.0, 2.0, 3.0, INF]], [[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0, 4.0], "abc", None, 3.0,
               RAGGED, [[True, False, True, False]], [[1.0, 2j, 3.0, 4.0]], [["a"] * 4],
               {"x": 1.0}]
_PERSON_Y = [[0.1, 0.2, 0.3, 0.4], [0.3, 0.2, 0.5, 0.6]]
_PERSON_X = [[0.6, 0.7, 0.8, 0.9], [0.55, 0.65, 0.8, 0.95]]
_BAD_PEOPLE = [[[0.1, 0.2, 0.3, INF], [0.3, 0.2, 0.5, 0.6]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.5]],
               [0.1, 0.2, 0.3, 0.4], [[0.1, 0.2, 0.3, 0.4]], "abc", None, 3.0, RAGGED,
               [[True, False, True, False]] * 2, [[0.1, 0.2j, 0.3, 0.4]] * 2, [["a"] * 4] * 2,
               [[[0.1, 0.2, 0.3, 0.4]]] * 2, {"x": 1.0}]

def _share_first_cell(tables):
    """A statistic of count tables for :func:`metabits.resample.bootstrap_tables`."""
    return tables[..., 0, 0] / tables.sum(axis=(-2, -1))



#: Parameter name -> (a valid value, its kind) shared by all functions.
ARGS = {
    "acc": (0.7, "acc"),
    "c": (0.7, "acc"),  # confidences (overridden where c is a criterion)
    "conf": ([0.6, 0.9], "acc"),
    "d": (1.0, "real"),
    "meta_d": (1.0, "real"),
    "counts": (TABLE1, "table"),
    "counts_stack": ([TABLE1, TABLE1], "table"),
    "kind": ("normal", "choice"),
    "K": (3, "size"),
    "n": (11, "size"),
    "n_boot": (20, "size"),
    "n_sets": (2, "size"),
    "n_per_label": (20, "size"),
    "n_per_stimulus": (20, "size"),
    "n_groups": (20, "size"),
    "n_questions": (20, "size"),
    "n_topics": (20, "size"),
    "n_tasks": (100, "size"),
    "n_bins": (2, "size"),
    "neighbors": (3, "size"),
    "n_ratings": (5, "size"),
    "level": (0.95, "open"),
    "ci_level": (0.95, "open?"),
    "alpha": (0.05, "open"),
    "n_comparisons": (None, "count?"),
    "rng": (0, "rng?"),
    "prior": (0.5, "open"),
    "priors": (0.5, "open"),
    "pad": (0.25, "nonneg"),
    "undefined": ("raise", "choice"),
    "estimator": ("plugin", "choice"),
    "method": ("percentile", "choice"),
    "rule": ("optimal", "choice"),
    "step": (0.01, "pos"),
    "prevalence": (0.3, "open"),
    "hit_rate": (0.9, "prob"),
    "false_alarm": (0.2, "prob"),
    "axis": (-1, "axis"),
    "weights": (None, "real?"),
    "bias_reduction": (0, ["1", 2.5, -1, True, None, 10 ** 10]),
    "sdt": (True, "flag"),
    "random_bins": (False, "flag"),
    "refit": (False, "flag"),
    "coordinated": (False, "flag"),
    "concentration": (0.5, "pos"),
}

#: Per-function overrides: parameter -> (valid value, kind or list of bad values).
CALLS = {
    "accuracy": {"c": ([0.6, 0.9], "acc"),
                             "weights": ([0.5, 0.5], [[-1, 2], [NAN, 1], ["a", "b"], [1, 2, 3],
                                                      [1.0]])},
    "binary_entropy": {"p": (0.3, "prob")},
    "entropy": {"p": ([0.5, 0.5], [[0.5, 0.6], [-0.5, 1.5], [NAN, 1], ["a", "b"], []]),
                            "axis": (-1, "axis")},
    "mutual_information": {"joint": ([[0.4, 0.1], [0.1, 0.4]],
                                                 [[[0.4, 0.1], [0.1, 0.5]],
                                                  [[-0.4, 0.6], [0.4, 0.4]],
                                                  [[NAN, 0.1], [0.1, 0.4]], "abc", [0.5, 0.5]])},
    "pti": {"c": ([0.6, 0.9], "acc"),
                        "prior": (0.5, [NAN, INF, 0.3, 1.1, "0.5", True, None, [0.5, 0.6]])},
    "transmitted_information": {"c": ([0.6, 0.9], "acc"),
                                            "weights": ([0.5, 0.5],
                                                        [[-1, 2], [NAN, 1], [1, 2, 3], [1.0]])},
    "info_bounds": {},
    "info_lower_bound": {},
    "info_upper_bound": {},
    "max_info_classifier": {"acc": (0.7, "acc")},
    "min_info_classifier": {"acc": (0.7, "acc")},
    "accuracy_from_dprime": {},
    "confidence_from_observation": {"x": (0.3, "real")},
    "discrete_confidence": {"kind": ("binary", "choice")},
    "dprime_from_accuracy": {},
    "noise_info": {},
    "normal_confidence_pdf": {"c": (0.7, "acc"), "d": (1.0, "pos")},
    "normal_info": {"d": (1.0, "real")},
    "observation_pdf": {"x": (0.3, "real"), "label": (1, [0, 2, 0.5, "1", None, NAN])},
    "sample_observations": {"label": ([1, -1], [[0, 1], [NAN, 1], ["a", "b"], None])},
    "roc_bounds_type1": {"fpr": ([0.0, 0.3, 1.0], "prob")},
    "roc_bounds_type2": {"fpr2": ([0.0, 0.5, 1.0], "prob")},
    "roc_curve_type1": {},
    "roc_curve_type2": {},
    "roc_from_responses": {"signed_conf": ([0.9, 0.6, -0.6, -0.9],
                                               [[0.9, 0.4, -0.6, -0.9], [NAN, 0.6, -0.6, -0.9],
                                                ["a"] * 4, [0.9, 0.6], None]),
                               "weights": ([1 / 6, 1 / 3, 1 / 3, 1 / 6],
                                           [[-1, 1, 0.5, 0.5], [NAN, 0.5, 0.25, 0.25],
                                            [0.5, 0.5], None, "abc"])},
    "roc_type2_from_confidence": {"conf": ([0.6, 0.9], "acc"),
                                      "weights": ([2 / 3, 1 / 3], [[-1, 2], [NAN, 1], [1, 2, 3],
                                                                   None, [1.0]])},
    "prop4_lower_edge_classifiers": {},
    "meta_I_normal": {},
    "response_table": {},
    "type2_measures": {},
    "fit_meta_d": {"pad": (0.25, "nonneg?"),  # None: 1/(2K), as every meta-d′ pad
                   "meta_c": ("scaled", "choice")},
    "fit_meta_noise": {"pad": (None, "nonneg?")},  # None: 1/(2K), statConfR's fitConf pad
    "fit_meta_uncertainty": {"pad": (None, "nonneg?")},
    "hmetad_rating_probabilities": {
        "meta_d": (1.0, "real"), "c": (0.0, "real"),
        "t2c_S1": ([-1.0], [[0.5], [-1.0, -2.0], [NAN], [], "abc", None, [[-1.0], [-1.0, -0.5]]]),
        "t2c_S2": ([1.0], [[-0.5], [2.0, 1.0], [INF], [], "abc", None, [1.0, 2.0]])},
    "bootstrap_meta_d": {"pad": (0.25, "nonneg?"),  # None: 1/(2K), as every meta-d′ pad
                         "counts": (TABLE1, BAD["table"] + [_TABLE1_HUGE]),
                         "n_boot": (20, BAD["size"] + [10 ** 8])},
    "equiprobable_criteria": {"c": (0.0, "real")},
    "rating_probabilities": {"c": (0.0, "real"),
                                 "meta_d": (1.0, [NAN, INF, "1", True, None, 80.0, -1.0]),
                                 "criteria": (None, [[0.5, -0.5], [NAN, 1.0], "abc",
                                                     [[-1, 0], [0, 1]], True, 3.0, b"ab",
                                                     ([-1.0], [1.0], [2.0])])},
    "simulate_ratings": {"c": (0.0, "real"), "n_per_stimulus": (20, "count"),
                             "criteria": (None, [[0.5, -0.5], [NAN, 1.0], "abc", True, 3.0])},
    "type1_sdt": {},
    "compare_criteria": {"c": ([0.17, 0.15], [[0.17, NAN], [0.17], "abc", None]),
                                   "half_width": ([0.03, 0.03], [[0.03, -0.03], [0.03, NAN],
                                                                 [0.03], None, "a"])},
    "delta_variance": {"d": (1.0, BAD["real"] + [1e300]),
                       "c": (0.0, BAD["real"] + [1e300]),
                       "n_s1": (1000, BAD["pos"] + [2.5, 0.001]),
                       "n_s2": (None, [v for v in BAD["pos"] if v is not None] + [2.5, 0.001])},
    "pairwise_z_tests": {"estimate": ([0.0, 0.1, 0.3], [[0.0, NAN, 0.3], [0.1],
                                                                  "abc", None]),
                                   "se": ([0.03, 0.03, 0.03], [[0.03, -0.03, 0.03],
                                                               [0.03, 0.03], None, "a"])},
    "rope_range": {"lower": ([0.05, 0.2], [[0.05, NAN], [0.05], "a", None]),
                             "upper": ([0.15, 0.3], [[0.15, NAN], [0.15], "a", None,
                                                     [0.01, 0.3]]),
                             "verdicts": (["inconclusive", "practically significant"],
                                          [["inconclusive", "maybe"], ["inconclusive"], None,
                                           "inconclusive"])},
    "rope_verdict": {"lower": ([0.05, 0.2], [[0.05, NAN], [0.05], "a", None]),
                               "upper": ([0.15, 0.3], [[0.15, NAN], [0.15], "a", None,
                                                       [0.01, 0.3]]),
                               "rope": (0.1, "pos")},
    "se_from_ci": {"half_width": (0.03, "pos")},
    "trials_per_stimulus": {"d": (1.0, BAD["real"] + [1e300]),
                            "c": (0.0, BAD["real"] + [1e300]), "half_width": (0.03, "pos")},
    "contingency_table": {"outcome": ([1, 1, 0, 0], [[1, 1], [], None, [[1, 1], [0, 0]],
                                                          [1, NAN, 0, 0]]),
                               "signal": (["sure", "sure", "sure", "unsure"],
                                          [["sure"], [], None, [1.0, NAN, 0.0, 1.0]]),
                               "bins": (None, [0, -1, 2.5, "abc", [NAN, 1.0]])},
    "correctness_table": {},
    "oskr": {"outcome": ([1, 1, 1, 0, 0, 1, 0, 1], [[1, 1], [], None]),
                  "signal": (["s", "s", "s", "u", "u", "u", "s", "s"], [["s"], [], None]),
                  "bins": (None, [0, -1, 2.5, "abc"]), "neighbors": (3, "size")},
    "oskr_ci": {"outcome": ([1, 1, 1, 0, 0, 1, 0, 1], [[1, 1], [], None]),
                     "signal": (["s", "s", "s", "u", "u", "u", "s", "s"], [["s"], [], None]),
                     "bins": (None, [0, -1, 2.5, "abc"])},
    "oskr_ci_from_table": {"n_boot": (1000, BAD["size"] + [10 ** 8]),
                           "counts": ([[3, 1], [1, 3]], [_TABLE1_HUGE, [[3, -1], [1, 3]],
                                                              [[3, NAN], [1, 3]], "abc", None,
                                                              [[0, 0], [0, 0]]])},
    "oskr_from_table": {"counts": ([[3, 1], [1, 3]], [[[3, -1], [1, 3]],
                                                           [[3, NAN], [1, 3]], "abc", None,
                                                           [[0, 0], [0, 0]]])},
    "binary_channel": {},
    "effective_error_for_oskr": {"oskr": (0.3, "prob"),
                                                  "prevalence": (0.5, "open")},
    "feedback_channel": {"error": (0.1, "prob"), "gain": (0.5, "prob")},
    "hit_rate_for_oskr": {"oskr": (0.2, "prob"), "false_alarm": (0.1, "prob")},
    "confidence_member": {"c": ([0.6, 0.9], "acc"),
                                "weights": ([0.5, 0.5], [[-1, 2], [NAN, 1], [1, 2, 3], [1.0]])},
    "cwmv_accuracy": {"acc": ([0.7, 0.8, 0.6], "acc")},
    "group_accuracy_bounds": {"acc_pos": ([0.7, 0.8], "prob"),
                                    "acc_neg": ([0.7, 0.8], "prob")},
    "lattice_member": {"abs_llr_cdf": (_cdf, [lambda lam: np.full(np.shape(lam), NAN),
                                                     lambda lam: 2.0 * _cdf(lam),
                                                     lambda lam: 1.0 - _cdf(lam), 3, None,
                                                     lambda lam: "a"]),
                             "step": (0.5, BAD["pos"] + [[0.5, 0.6], 1e-9]),
                             "tail": (1e-12, "open")},
    "majority_vote_accuracy": {"K": (3, [2.5, 0, -1, "3", True, None, NAN, [3, 0]])},
    "max_group_member": {"acc_pos": (0.8, "prob"), "acc_neg": (0.7, "prob")},
    "member_confidence": {"table": (_MEMBER, "table")},
    "min_group_member": {"acc_pos": (0.8, "prob"), "acc_neg": (0.7, "prob")},
    "noise_group": {"K": (3, [2.5, 0, -1, "3", True, None, NAN, [3, 0]])},
    "noise_member": {"step": (0.01, BAD["pos"] + [[0.7, 0.8], 1e-9, 1e-300])},
    "pcwmv": {"members": ([_MEMBER] * 3, [[], None, "abc", [[[0.7, 0.3]]], [TABLE1]]),
                    "step": (None, "pos?")},
    "simulate_pcwmv": {"members": ([_MEMBER] * 3, [[], None, "abc", [TABLE1]]),
                             "n": (100, "size")},
    "simulate_students": {"kind": ("uniform", "choice"), "acc": (0.7, "acc")},
    "multilabel_group_accuracy": {"member": ([[0.7, 0.3], [0.3, 0.7]],
                                                   [[[0.7, 0.4], [0.3, 0.7]],
                                                    [[NAN, 0.3], [0.3, 0.7]],
                                                    "abc", None, [0.7, 0.3]]),
                                        "priors": (None, [[0.6, 0.6], [NAN, 0.5], "a", [1.0]])},
    "multilabel_member": {"values": ([[0.6, 0.4], [0.4, 0.6]],
                                           [[[0.6, NAN], [0.4, 0.6]], "abc", None, [0.6, 0.4]]),
                                "weights": ([0.5, 0.5], [[-1, 2], [NAN, 1], [1, 2, 3], None,
                                                         [1.0]]),
                                "priors": ([0.5, 0.5], [[0.6, 0.6], [NAN, 0.5], [1.0], None])},
    "random_multilabel_members": {"L": (3, "size"), "R": (4, "size"), "n": (2, "size")},
    "weighted_vote_accuracy": {"members": ([_MEMBER] * 3, [[], None, "abc", [TABLE1]]),
                                     "weights": ([[-1, 1]] * 3, [[[-1, 1]] * 2, [[NAN, 1]] * 3,
                                                                 "abc", None, [[-1]] * 3,
                                                                 [["a", "b"]] * 3])},
    "calibration_error": {"stated": ([0.9, 0.6, 0.6, 0.9],
                                             [[0.9, 0.6], [NAN, 0.6, 0.6, 0.9],
                                              [1.5, 0.6, 0.6, 0.9], "abc", None])},
    "invert_predictions": {"columns": ([2], [[4], [-5], [2.5], "abc", None]),
                                   "fraction": (0.5, "prob")},
    "reported_measures": {},
    "swap_confidence": {},
    "best_binning": {},
    "binned_response_probabilities": {"edges": ([0.75], [[1.5], [NAN], "abc", None,
                                                                 [[0.75]]])},
    "distort_confidence": {"c": (0.7, "open"), "gamma": (0.8, "pos"),
                                       "p0": (0.5, "open")},
    "fit_log_odds_map": {"stated": ([0.6, 0.9], [[0.6], [NAN, 0.9], [1.0, 0.9],
                                                             "ab", None]),
                                     "correct": ([0.55, 0.75], [[0.55], [NAN, 0.75],
                                                                [1.5, 0.75], "ab", None]),
                                     "weights": ([100, 100], [[-1, 100], [NAN, 100], [100],
                                                              "ab"])},
    "log_odds_weights": {"stated": ([0.6, 0.9], [[NAN, 0.9], [1.0, 0.9], "ab",
                                                             None])},
    "auroc2": {},
    "classic_type2": {"pad": (None, "nonneg?")},
    "confidence_by_correctness": {},
    "gamma": {},
    "phi": {},
    "type2_roc": {},
    "recoding": {},
    "all_measures": {"pad": (None, "nonneg?"),
                     "measures": ("all", ["nonsense", 3, None, ["dconf"]])},
    "dconf": {"scale": ("levels", ["nonsense", 3, None])},
    "relative_type2": {"pad": (None, [0, -1, NAN, INF, "a", [0.25]]),
                       "undefined": ("nan", "choice")},
    "bootstrap_measures": {"pad": (None, "nonneg?"), "n_boot": (10, BAD["size"] + [10 ** 8]),
                           "counts": (TABLE1, BAD["table"] + [_TABLE1_HUGE])},
    "read_trials": {
        "data": (_OWN, [None, 3, "abc", f"{_BAD}/nonexistent.csv", _BAD, [1, 2],
                        _OWN.drop(columns="stimulus"), _OWN.assign(stimulus="left"),
                        _OWN.assign(stimulus=np.arange(len(_OWN)) % 3),
                        _OWN.assign(confidence=np.linspace(0, 1, len(_OWN))),
                        _OWN.assign(confidence=1), _OWN.iloc[:0]]),
        "subject": (None, [3, "nonexistent", ["subject"], True]),
        "stimulus": (None, [3, "nonexistent", ["stimulus"]]),
        "response": (None, [3, "nonexistent", ["response"]]),
        "confidence": (None, [3, "nonexistent", ["confidence"]]),
        "correct": (None, [3, "nonexistent", "stimulus"]),
        "by": ((), [3, ("nonexistent",), None, ["subject"]]),
        "bins": (None, [1, 0, 100, "abc", [0.5], [3, 2, 1], [NAN, 1, 2], ("quantile", 1),
                        ("quantile", 2.5), True]),
        "levels": (None, [[1, 1, 2], [2], [NAN, 1, 2], "abc", [1, 2], [3, 2, 1]]),
        "codes": (None, ["abc", 3, {"x": "S1"}, [("0", "S1")]])},
    "measure": {
        "data": (_OWN, [None, 3, "abc", f"{_BAD}/nonexistent.csv", _OWN.drop(columns="subject"),
                        _OWN.assign(response=np.arange(len(_OWN)) % 3)]),
        "measures": ("default", [["nonsense"], 3, [], None, "meta"]),
        "n_boot": (0, [1, -1, 2.5, "10", True, None, 10 ** 7]),
        "level": (0.95, "open"), "interval": ("percentile", "choice"),
        "bias_reduction": (False, [1, -1, 2.5, "yes", None, 10 ** 7]),
        "pad": (None, "nonneg?"), "on_error": ("nan", "choice"), "rng": (None, "rng"),
        "long": (False, "flag"), "progress": (False, "flag"),
        "subject": (None, [3, "nonexistent"]), "stimulus": (None, [3, "nonexistent"]),
        "response": (None, [3, "nonexistent"]), "confidence": (None, [3, "nonexistent"]),
        "correct": (None, [3, "nonexistent"]), "by": ((), [3, ("nonexistent",)]),
        "bins": (None, [1, "abc"]), "levels": (None, [[1, 1], "abc"]),
        "codes": (None, ["abc", 3])},
    "forest": {"results": (_MEASURED, [None, 3, "abc", _OWN, _MEASURED_LONG]),
               "measure": ("auroc2", ["nonsense", 3, None, "meta_d"]),
               "hue": (None, [3, "nonexistent", "auroc2"]), "sort": (True, "flag"),
               "ax": (None, None)},
    "against_accuracy": {"results": (_MEASURED, [None, 3, "abc", _OWN, _MEASURED_LONG,
                                                 _MEASURED.drop(columns="acc")]),
                         "measure": ("auroc2", ["nonsense", 3, None]),
                         "hue": (None, [3, "nonexistent"]), "ax": (None, None)},
    "type2_roc_curves": {"data": (_OWN, [None, 3, "abc", _OWN.drop(columns="confidence")]),
                         "ax": (None, None)},
    **{f"{cls}.to_frame": {} for cls in ("AllMeasures", "MeasureBootstrap", "GroupTables",
                                         "Trials", "Bounds", "Curve", "Distribution",
                                         "TableBootstrap")},
    "Trials.tables": {}, "Trials.check": {},
    "count_tables": {"trials": (_TRIALS, [None, "abc", 3, {"stimulus": [0]}]),
                              "by": ((), [3, ("nonexistent",), None]),
                              "stimulus": ("stimulus", "text"), "response": ("response", "text"),
                              "rating": ("rating", "text"),
                              "stimuli": ((0, 90), [(0,), (0, 0), None, 3])},
    # metabits.io: the Confidence Database
    "dataset_name": {"path": (_TINY, [3, None, ["a"], b"data_x.csv", 1.5])},
    "confidence_database_citation": {"path": (_TINY, [3, None, ["a"], b"data_x.csv", 1.5])},
    "read_confidence_database": {
        "path": (_TINY, [3, None, ["a"], b"data_x.csv", f"{_BAD}/nonexistent.csv", _BAD]
                 + list(_BAD_FILES.values())),
        "levels": (None, [[0.5, 0.5, 0.9], [0.5, 0.7], [NAN, 0.5, 0.7, 0.9], "abc", [0.5], 3,
                          [[0.5, 0.7, 0.9]], [True, False], [], [0.9, 0.7, 0.5]]),
        "condition": (None, [3, "nonexistent", ["Condition"], b"Condition", ""])},
    "confidence_database_tables": {
        "trials": (_DB_TRIALS, [None, "abc", 3, _DB_TRIALS.drop(columns="response"),
                                _DB_TRIALS.assign(stimulus=2), _DB_TRIALS.assign(confidence=0),
                                _DB_TRIALS.assign(confidence=0.5), _DB_TRIALS.iloc[:0]]),
        "by": ("participant", [3, ("nonexistent",), None, ["participant", 3]]),
        "n_levels": (None, "size?")},
    # metabits.resample: the multinomial resampler and the intervals from replicates
    "multinomial_rows": {"counts": (TABLE1, _BAD_COUNTS), "m": (20, "size"),
                         "what": ("resampling", "text")},
    "quantiles": {"reps": (_VALUES, _BAD_REPS),
                  "q": ([0.25, 0.75], BAD["prob"] + [[[0.25, 0.75]], [[[0.5]]]]),
                  "axis": (0, "axis")},
    "percentile_interval": {"reps": (_VALUES, _BAD_REPS), "axis": (0, "axis")},
    "bootstrap_tables": {
        "statistic": (_share_first_cell, [3, None, "abc", [_share_first_cell]]),
        "counts": (TABLE1, [[[84, -56], [4, 56]], [[84, NAN], [4, 56]], [[1.5, 2], [3, 4]],
                            [[84, 56, 48], [4, 56]], [["a", "b"], ["c", "d"]], [84, 56, 48],
                            "abc", None, 3.0, [], [[]], [[84, 56j], [4, 56]],
                            [[True, False], [False, True]]]),
        "n_boot": (20, BAD["size"] + [1, 10 ** 8]), "resample": ("rows", "choice"),
        "batch": (None, "size?")},
    "bca_interval": {"reps": (_VALUES, _BAD_REPS),
                     "estimate": (0.4, BAD["real"] + [[0.4, 0.5], [[0.4]]]),
                     "acceleration": (0.05, BAD["real"] + [[0.05, 0.1], [[0.05]]]),
                     "axis": (0, "axis")},
    # metabits.reliability
    "random_halves": {"groups": ([[0, 1, 2, 3], [4, 5]], _BAD_HALF_GROUPS), "n_trials": (6, "size"),
                      "n_splits": (2, "size")},
    "split_half_reliability": {"first": ([[1.0, 2.0, 3.0, 4.0]], _BAD_HALVES),
                               "second": ([[2.0, 4.0, 6.0, 8.0]], _BAD_HALVES),
                               "min_people": (3, "count")},
    # a constant person has no rho: with two people, one constant leaves too few
    "within_person_correlation": {"y": (_PERSON_Y, _BAD_PEOPLE + [[_PERSON_Y[0], [0.3] * 4]]),
                                  "x": (_PERSON_X, _BAD_PEOPLE + [[_PERSON_X[0], [0.7] * 4]]),
                                  "min_points": (3, "count")},
    "odd_even_halves": {"groups": ([[0, 1, 2, 3], [4, 5]], _BAD_HALF_GROUPS),
                        "n_trials": (6, "size")},
    "paired_cohens_d": {"a": (_VALUES, _BAD_VALUES), "b": (_VALUES2, _BAD_VALUES),
                        "groups": (None, _BAD_GROUPS), "min_people": (3, [1, 0, 2.5, "3", True,
                                                                          None, [3], NAN])},
    "group_correlations": {"x": (_VALUES, _BAD_VALUES), "y": (_VALUES2, _BAD_VALUES),
                           "groups": (None, _BAD_GROUPS),
                           "min_people": (10, [2, 0, 2.5, "3", True, None, [3], NAN])},
    "spearman_brown": {"r": (0.6, [1.5, -1.2, "a", None, INF, [0.5, 2.0], [["a"]], [],
                                   True]),
                       "factor": (2.0, "pos")},
    "icc": {"x": ([[1.0, 2.0], [2.0, 3.5], [3.0, 3.0]],
                  [[1.0, 2.0], [[1.0], [2.0]], [[1.0, INF], [2.0, 3.0], [3.0, 4.0]], "ab",
                   None, [["a", "b"]], [[1.0, 2.0], [3.0]], 3.0, [], [[True, False]] * 3])},
    "redraw_confidence": {"confidence": ([1, 4, 2, 3], [[0, 1, 2, 3], [1, 5, 2, 3], [1.5, 2, 3, 4],
                                                         "abc", None, [], [True] * 4,
                                                         [1, NAN, 2, 3]]),
                          "n_levels": (4, [1, [4, 4], 2.5, "4", None, NAN, [], True, 3]),
                          "fraction": (0.2, "prob"), "rng": (1, "rng")},
    # metabits.io: stacks of tables of different K
    "stack_tables": {"tables": ([TABLE1, _PADDED[1]], [[], None, "abc", 3, [[[1, 2, 3], [4, 5, 6]]],
                                          [TABLE1, [[[1, 2], [3, 4]]] * 2], [[[1, -2], [3, 4]]],
                                          [[[1, NAN], [3, 4]]], [[["a", "b"], ["c", "d"]]],
                                          [[[True, False], [False, True]]], [[1, 2, 3, 4]]])},
    "merge_levels": {"tables": (_PADDED3, _BAD_TABLES),
                     "n_levels": ([3, 3, 3], _BAD_LEVELS + [[2, 3, 3]]),
                     "which": ("top", "choice")},
    # public methods of results
    "LogOddsMap.apply": {"c": ([0.6, 0.9], "open")},
    "AllMeasures.value": {"name": ("RMI", "choice")},
    "MeasureBootstrap.value": {"name": ("RMI", "choice")},
    "MeasureBootstrap.interval": {"name": ("RMI", "choice")},
}


#: Words that name a parameter in an error message besides its own name (e.g. "meta-d'" for
#: meta_d). A ValueError must name the argument it refuses, by its name or by one of these.
ALIASES = {
    # a problem in the data is named by the data's column (and its role)
    "data": ("column", "subject", "stimulus", "confidence", "response"),
    "priors": ("prior",), "prior": ("prior",), "meta_d": ("meta-d'",), "d": ("d'",),
    "half_width": ("half-width",), "se": ("standard error",),
    "criteria": ("t2c_", "Criteria"), "values": ("confidence vectors",), "members": ("member",),
    "weights": ("weight",), "columns": ("column",), "signed_conf": ("signed confidence",),
    "x": ("simulated values", "two simulated"), "kinds": ("noise kind",), "accs": ("acc",),
    "by": ("column",), "stimulus": ("column",), "response": ("column",), "rating": ("column",),
    "verdicts": ("verdict",), "bins": ("signal",),  # bins are refused for a non-numeric signal
    "c": ("estimate", "confidence"), "kind": ("noise kind",), "K": ("group size",),
    "counts": ("table",), "table": ("response table",), "abs_llr_cdf": ("abs_llr_cdf",),
    "acc": ("accurac",), "acc_pos": ("true positive",), "acc_neg": ("true negative",),
    "conf": ("confidence",), "p": ("numeric",), "fpr": ("false positive",),
    "fpr2": ("false positive",), "estimate": ("estimate",), "nR_S1": ("counts", "nR_S1"),
    "nR_S2": ("counts", "nR_S2"), "name": ("measure", "data set"), "counts_stack": ("counts",),
    "path": ("file", "path"), "folder": ("folder",), "target": ("folder", "target"),
    "levels": ("levels",), "condition": ("condition column",), "trials": ("trials",),
    "tables": ("tables",), "n_levels": ("n_levels",), "which": ("which",),
    "a": ("a and b", "values of a"), "b": ("a and b", "values of b"), "groups": ("groups",),
    "names": ("measure",),
}


def names_argument(message: str, name: str, aliases: dict | None = None) -> bool:
    """The message names the argument: its name or an alias (:data:`ALIASES`, or ``aliases``); a
    name of one or two letters ("a", "x", "K") as a word of its own, not inside another word."""
    aliases = ALIASES if aliases is None else aliases
    text = message.lower()
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(w.lower())}(?![a-z0-9_])", text)
               if len(w) <= 2 else w.lower() in text for w in (name,) + aliases.get(name, ()))


def public_modules(package=mb, excluded_modules: dict | None = None) -> list:
    """Every public module of ``package`` (no part of its name private), those in
    :data:`EXCLUDED_MODULES` (or ``excluded_modules``) aside."""
    excluded = EXCLUDED_MODULES if excluded_modules is None else excluded_modules
    top = package.__name__
    names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".")]
    return [importlib.import_module(n) for n in names
            if not any(part.startswith("_") for part in n.split("."))
            and not any(n == x or n.startswith(x + ".") for x in excluded)]


def _within(home: str, modules) -> bool:
    return any(home == x or home.startswith(x + ".") for x in modules)


def public_objects(kind, package=mb, excluded_modules: dict | None = None,
                   taken=()) -> dict:
    """Name -> each public object of one kind (``__all__`` of the public modules) that ``package``
    defines, once; ``taken``: names another package's objects already have."""
    excluded = EXCLUDED_MODULES if excluded_modules is None else excluded_modules
    found = {}
    for module in public_modules(package, excluded):
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            home = getattr(obj, "__module__", "") or ""
            if _within(home, excluded):
                continue  # re-exported from an excluded module (metabits.fit_meta_d_bayes)
            if not _within(home, [package.__name__]):
                continue  # another package's object (the library's, in the book's code)
            if kind(obj) and not any(obj is f for f in found.values()):
                assert obj.__name__ not in found and obj.__name__ not in taken, \
                    f"two public {obj.__name__}: rename one"
                found[obj.__name__] = obj
    return found


@functools.lru_cache(maxsize=None)
def _instance(cls):
    """A valid result object of each class with public methods (made once per class)."""
    from metabits import _bootstrap as measure_bootstrap
    from metabits.info import _calibration as calibration
    return {calibration.LogOddsMap: lambda: calibration.fit_log_odds_map([0.6, 0.9],
                                                                          [0.55, 0.75]),
            measure_bootstrap.AllMeasures: lambda: measure_bootstrap.all_measures(TABLE1),
            measure_bootstrap.MeasureBootstrap: lambda: measure_bootstrap.bootstrap_measures(
                TABLE1, n_boot=10, rng=0),
            mb.resample.TableBootstrap: lambda: mb.resample.bootstrap_tables(
                _share_first_cell, TABLE1, n_boot=10, rng=0),
            mb.io.Trials: lambda: mb.read_trials(_OWN),
            mb.results.Bounds: lambda: mb.info.info_bounds(0.7),
            mb.results.Curve: lambda: mb.sdt.type2_roc(TABLE1),
            mb.results.Distribution: lambda: mb.info.discrete_confidence("uniform", 0.7),
            mb.io.GroupTables: lambda: mb.read_trials(_OWN).tables()}[cls]()


def public_methods(cls) -> list:
    return [k for k, v in vars(cls).items() if not k.startswith("_") and inspect.isfunction(v)]


class Method:
    """A public method of a result class, called on a valid result of that class, which
    ``instance(cls)`` makes on the first call: collecting this module makes none, in every xdist
    worker, so that no worker waits for them before its first test. Its signature is the bound
    method's, for :meth:`Fuzz.valid_call`."""

    def __init__(self, cls, name: str, instance=_instance):
        self.cls, self.__name__, self.instance = cls, name, instance
        signature = inspect.signature(getattr(cls, name))
        self.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])

    def __call__(self, *args, **kwargs):
        return getattr(self.instance(self.cls), self.__name__)(*args, **kwargs)



class _TimeLimit(BaseException):
    """Raised by the alarm (a BaseException, so that no ``except Exception`` swallows it)."""


def _on_alarm(signum, frame):
    raise _TimeLimit


def run_limited(func, kwargs, limit: float = TIME_LIMIT):
    """("value", result) | ("raised", exception) | ("timeout", None), and the seconds taken."""
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            outcome = ("value", func(**kwargs))
    except _TimeLimit:
        outcome = ("timeout", None)
    except Exception as exc:  # noqa: BLE001 - the type is what is checked
        outcome = ("raised", exc)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return outcome, time.perf_counter() - start


def _show(value) -> str:
    if callable(value) and getattr(value, "__name__", "") == "<lambda>":
        return "<lambda>"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_scalar(func, name: str) -> bool:
    """A parameter annotated as one number, or one that is one number by its nature."""
    annotation = inspect.signature(func).parameters[name].annotation
    return annotation in ("float", "int", float, int) or name in ALWAYS_SCALAR


#: Parameters that are one number in every function (no annotation says so everywhere).
ALWAYS_SCALAR = ("level", "alpha", "ci_level", "step", "tail", "pad", "concentration", "rope")


class Fuzz:
    """The fuzz of one package: its public callables (name -> callable), their valid calls
    (``calls``: per-function overrides of ``args``), the words that name their arguments
    (``aliases``) and the callables left out (``excluded``)."""

    def __init__(self, functions: dict, calls: dict, args: dict, aliases: dict, excluded: dict):
        self.functions, self.calls, self.args = functions, calls, args
        self.aliases, self.excluded = aliases, excluded
        self.fuzzed = sorted(n for n in functions if n not in excluded and n in calls)

    def missing(self) -> list:
        """Problems of the tables: a public callable neither fuzzed nor excluded, a name in
        ``excluded`` or ``calls`` that is not public."""
        out = [f"public callables without a valid call in CALLS: {sorted(missing)}"
               for missing in [set(self.functions) - set(self.fuzzed) - set(self.excluded)]
               if missing]
        out += [f"excluded but not public (any more): {sorted(x)}"
                for x in [set(self.excluded) - set(self.functions)] if x]
        out += [f"not public: {sorted(x)}" for x in [set(self.calls) - set(self.functions)] if x]
        return out

    def valid_call(self, qualname: str):
        """The function, its valid keyword arguments, and each argument's kind (None: not
        fuzzed)."""
        func = self.functions[qualname]
        overrides = self.calls[qualname]
        kwargs, kinds = {}, {}
        for p in inspect.signature(func).parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue  # e.g. check_exercise's answers: leaving them out is valid
            if p.name in overrides:
                value, kind = overrides[p.name]
            elif p.name in self.args:
                value, kind = self.args[p.name]
            elif p.default is not p.empty:
                value, kind = p.default, None
            else:
                raise KeyError(f"{qualname}: no valid value for {p.name}")
            kwargs[p.name], kinds[p.name] = value, kind
        return func, kwargs, kinds

    def mutations(self, qualname: str):
        """(parameter, bad value) pairs of one function."""
        func, _, kinds = self.valid_call(qualname)
        return [(name, bad) for name, kind in kinds.items() if kind is not None
                for bad in _bad_values(kind, _is_scalar(func, name))]

    def check_mutation(self, qualname: str, name: str, bad) -> str | None:
        """None if ``bad`` for ``name`` is refused with a ValueError in time, else what went
        wrong."""
        func, kwargs, _ = self.valid_call(qualname)
        (how, what), seconds = run_limited(func, {**kwargs, name: bad})
        call = f"{qualname}({name}={_show(bad)})"
        if how == "timeout":
            return f"{call}: still running after {TIME_LIMIT:g} s"
        if how == "value":
            return f"{call}: returned {_show(what)}"
        if not isinstance(what, ValueError):
            return f"{call}: {type(what).__name__}: {str(what)[:120]}"
        if seconds > TIME_LIMIT:
            return f"{call}: refused only after {seconds:.1f} s"
        if not names_argument(str(what), name, self.aliases):
            return f"{call}: the ValueError does not name {name}: {str(what)[:120]}"
        return None

    def refusals(self, qualname: str) -> list:
        """What went wrong in each mutation of one function, after a warm-up call (lazy imports
        are not the call's time)."""
        func, kwargs, _ = self.valid_call(qualname)
        run_limited(func, kwargs, limit=60.0)
        return [f for name, bad in self.mutations(qualname)
                if (f := self.check_mutation(qualname, name, bad)) is not None]

    def array_parameters(self, empty_allowed: dict) -> list:
        """(function, parameter) of every fuzzed call whose valid value is a non-empty numeric
        array (or a number where the parameter may be an array), and the allowed ones."""
        pairs = []
        for qualname in self.fuzzed:
            func, kwargs, kinds = self.valid_call(qualname)
            for name, kind in kinds.items():
                if kind is None:
                    continue
                try:
                    value = np.asarray(kwargs[name])
                except Exception:  # noqa: BLE001 - objects that are no arrays
                    continue
                if value.dtype.kind in "iufb" and value.size and not (
                        value.ndim == 0 and _is_scalar(func, name)):
                    pairs.append((qualname, name))
        return pairs + [p for p in empty_allowed if p not in pairs]

    def empty_array_problem(self, qualname: str, name: str, allowed: bool) -> str | None:
        """None if an empty array for ``name`` is refused with a ValueError naming it (or, if
        ``allowed``, gives a result), else what went wrong."""
        func, kwargs, _ = self.valid_call(qualname)
        for empty in ([],) if allowed else ([], np.zeros(0)):
            (how, what), _ = run_limited(func, {**kwargs, name: empty})
            if allowed:
                if how != "value":
                    return f"{qualname}({name}={empty!r}) -> {how}: {what!r}"
                continue
            if how != "raised" or not isinstance(what, ValueError):
                return f"{qualname}({name}={empty!r}) -> {how}: {_show(what)}"
            if not names_argument(str(what), name, self.aliases):
                return f"{qualname}({name}=[]): {what}"
        return None


def public_classes() -> dict:
    """Name -> public class of the library (results and a warning category)."""
    return public_objects(inspect.isclass)


#: Public methods of the result classes, called on a valid result (qualified as Class.name).
METHODS = {f"{q}.{m}": Method(cls, m) for q, cls in public_classes().items()
           for m in public_methods(cls)}

#: Name -> public function, "Class.method" -> public method bound to a valid result.
FUNCTIONS = {**public_objects(inspect.isfunction), **METHODS}
FUZZ = Fuzz(FUNCTIONS, CALLS, ARGS, ALIASES, EXCLUDED)
FUZZED = FUZZ.fuzzed
valid_call, mutations, check_mutation = FUZZ.valid_call, FUZZ.mutations, FUZZ.check_mutation


def test_result_classes_are_not_fuzzed_as_constructors():
    """Public classes are results (frozen dataclasses and named tuples the library builds) or a
    warning category; their public methods are fuzzed (:data:`METHODS`), their constructors
    not."""
    from metabits.results import Result
    for name, cls in public_classes().items():
        assert issubclass(cls, (Result, tuple, Warning)), name


def test_every_public_callable_is_fuzzed_or_excluded_with_a_reason():
    problems = FUZZ.missing()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("qualname", FUZZED)
def test_valid_call_works(qualname):
    func, kwargs, _ = valid_call(qualname)
    (how, what), seconds = run_limited(func, kwargs, limit=60.0)  # the first call imports
    assert how == "value", f"{qualname}(**{kwargs}) -> {how}: {what!r}"


@pytest.mark.parametrize("qualname", [n for n in FUZZED if mutations(n)])
def test_bad_arguments_are_refused_with_value_error(qualname):
    failures = FUZZ.refusals(qualname)
    assert not failures, "\n".join(failures)


#: (function, parameter) pairs whose valid value is an array and that may be empty: they list
#: choices, not values to compute from (the rule in metabits.validation's docstring).
EMPTY_ALLOWED = {
    ("binned_response_probabilities", "edges"): "no bin edges: one bin",
    ("count_tables", "by"): "no grouping columns: all trials in one table",
    ("read_trials", "by"): "no grouping columns besides the subject",
    ("measure", "by"): "no grouping columns besides the subject",
}


@pytest.mark.parametrize("qualname, name", FUZZ.array_parameters(EMPTY_ALLOWED))
def test_empty_arrays_are_refused(qualname, name):
    """The library's rule: an empty array where a function computes from its values is a
    ValueError naming the argument, not an empty result; only :data:`EMPTY_ALLOWED` may be
    empty (and then gives a result)."""
    problem = FUZZ.empty_array_problem(qualname, name, (qualname, name) in EMPTY_ALLOWED)
    assert problem is None, problem


def test_the_fuzz_is_large_enough():
    n_mutations = sum(len(mutations(n)) for n in FUZZED)
    assert len(FUZZED) >= 125 and n_mutations >= 3300, (len(FUZZED), n_mutations)
