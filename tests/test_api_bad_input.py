"""Every public function, its arguments mutated one at a time: bad input is refused with a
ValueError where it enters.

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
so they survive modules moving into packages. The explorers (:mod:`metabits_book.explore`) are
fuzzed on small grids: the factories' grids (:data:`EXPLORERS`), the renderers, ``control`` and
the :class:`~metabits_book.explore.Control` constructor (:data:`CONSTRUCTORS`), and each
explorer's ``view`` at values its controls cannot take (a dedicated test: its keywords are the
controls). The library's rule on empty arrays is tried on every array parameter
(:func:`test_empty_arrays_are_refused`, exceptions in :data:`EMPTY_ALLOWED`). ``metabits.io``
and the database studies are fuzzed on tiny files in a temporary folder and on a 24-person
subset of the shipped Confidence Database, so that every valid call is quick.
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
from metabits_book import cognitive_chain
from metabits_book import explore as ex
from metabits_book.studies.simulation import MCEstimate
from metabits.io import _confidence_database as cdb
from metabits_book.studies import database_assessment, database_copy, database_criteria
from metabits_book.studies import database_measures as dbm
from metabits_book.studies.database_intervals import PeopleIntervals, people_intervals

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"),
                                reason="the time limit uses SIGALRM (not on Windows)")

#: Seconds a call may take; a call refused where its argument enters returns long before.
TIME_LIMIT = 2.0

TABLE1 = [[84, 56, 48, 12], [4, 56, 64, 76]]  # Meyen et al. (2025), Table 1

#: Modules (and packages) whose callables are not fuzzed yet, with the reason.
EXCLUDED_MODULES = {
    "metabits.sdt._bayes_metad": "every call samples the posterior with NUTS (seconds, and a JAX "
                                 "compile on the first call); its refusals of bad tables, pads, "
                                 "draws and seeds are tests/test_bayes_metad.py's",
    "metabits.sdt._hmetad": "every valid call of hmetad samples the posterior with NUTS (seconds, "
                            "and a JAX compile per shape); its refusals of bad sampler settings "
                            "and data, before any sampling, are tests/lib/test_hmetad.py's",
    "metabits.validation": "the argument checks themselves: every function fuzzed here refuses "
                           "its bad input through them; tests/lib/test_validate.py tests each",
    "metabits_book.studies.bayes_recovery": "bayes_recovery fits with NUTS; its refusals of bad "
                                       "truths, sizes, seeds and levels, and recovery_summary's "
                                       "of bad rows, are tests/test_bayes_recovery.py's",
    "metabits_book.studies.hmetad_study": "conditions_recovery, hmetad_sbc and "
                                          "maskori_conditions fit with NUTS, maskori_draws_frame "
                                          "needs such a fit, and the readers take no argument; "
                                          "the refusals of bad designs, seeds, ranks and rows "
                                          "are tests/test_hmetad_study.py's",
    "metabits_book.studies.hmetad_sd_prior": "fit_sd_prior and maskori_sd_prior fit with NUTS, "
                                             "conditions_sd_prior_model builds a PyMC model "
                                             "(seconds), group_summary needs a fit, "
                                             "rating_probabilities_tensor takes PyTensor "
                                             "tensors; their refusals of bad priors, counts, "
                                             "SOAs and sampler settings are "
                                             "tests/test_hmetad_sd_prior.py's",
}

#: Public callables not fuzzed, with the reason (by name: public names are unique in the
#: library, so the table survives modules moving into packages).
EXCLUDED = {
    "glue": "stores any Python object under a name for the book's text: every value is "
                     "valid (book-only helper)",
    "plot_six_measures": "draws a matplotlib figure from a study's results (book-only; "
                                  "seconds per call)",
    "save_figure": "writes figure files to a folder (book-only)",
    "use_book_style": "takes no arguments, changes matplotlib's global style",
    "table1_bayes_rows": "refits Table 1 with NUTS three times (seconds)",
    "table1_candidates": "takes no argument: the shipped and computed fits of Table 1",
    "table1_meta_d_boundary": "takes no argument: Table 1's fit at the rounding boundary",
    "statconfr_maskori_meta_i": "takes no argument: statConfR's shipped values of MaskOri",
    "Result.to_frame": "the base class's method, which every result inherits: each result's "
                       "to_frame is checked in tests/test_results.py",
    "prior_predictive": "needs an HMeta-d fit (NUTS, seconds); its refusals of bad fits, draws "
                        "and levels are tests/lib/test_bayes_checks.py's",
    "posterior_predictive": "needs an HMeta-d fit (NUTS, seconds); its refusals of bad fits, "
                            "draws and levels are tests/lib/test_bayes_checks.py's",
    "servajean_bayes_refits": "nine NUTS fits (minutes; a JAX compile on the first): its "
                              "refusals of bad seeds, tasks and sampler sizes, before any "
                              "sampling, are tests/test_bayes_refits.py's",
    "servajean_gap_attribution": "nine NUTS fits (a minute; a JAX compile on the first): its "
                                 "refusals of bad seeds, tasks, prior scales and sampler sizes, "
                                 "before any sampling, are tests/test_bayes_refits.py's",
    "maskori_group_bayes": "five 16-person NUTS fits (minutes): its refusals of bad SOAs, seeds "
                           "and sampler sizes, before any sampling, are "
                           "tests/test_bayes_refits.py's",
    "maskori_posterior_check": "a 16-person NUTS fit (a minute): its refusals of bad SOAs, seeds, "
                               "sampler sizes and levels, before any sampling, are "
                               "tests/test_bayes_refits.py's",
    "evaluate": "re-computes every paper number of a work (seconds per call); its "
                              "only argument is checked by paper_numbers.entries, which is fuzzed",
    "Explorer.view": "its keywords are the controls of each explorer: fuzzed explorer by explorer "
                     "in test_explorer_views_refuse_values_their_controls_cannot_take",
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


_TRACE = cognitive_chain.simulate_chain(cognitive_chain.roberts_profiles().scores[0], 200,
                                           rng=0)
_MEMBER = mb.group.noise_member("binary", 0.7)
_EST = MCEstimate(0.02, 0.001, 200)
_DEN = MCEstimate(0.004, 0.0005, 200)
#: A researcher's trials: two people, 60 trials each, a 3-point scale (metabits.measure).
_OWN = __import__("pandas").DataFrame({
    "subject": np.repeat(["p1", "p2"], 60), "stimulus": np.tile([0, 1], 60),
    "response": np.where(np.random.default_rng(0).random(120) < 0.75, np.tile([0, 1], 60),
                         1 - np.tile([0, 1], 60)),
    "confidence": np.random.default_rng(1).integers(1, 4, 120)})
def _figure():
    """A tiny figure saved as PNG and SVG (the figure check's valid call)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from metabits_book import save_figure

    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, 1])
    paths = save_figure(fig, "fuzz", f"{_TMP.name}/figures")
    plt.close(fig)
    return paths


_MEASURED = mb.measure(_OWN, measures=["acc", "auroc2"], n_boot=20, rng=0)
_MEASURED_LONG = mb.measure(_OWN, measures=["acc", "auroc2"], long=True)
_TRIALS = {"stimulus": [0, 0, 90, 90, 90], "response": [0, 90, 90, 90, 0],
           "rating": [4, 0, 1, 4, 2]}


# --- the Confidence Database (metabits.io): tiny files and a small subset ---------------

#: A temporary folder, kept for the session: tiny data set files (valid and malformed), and
#: the targets the writers write into.
_TMP = tempfile.TemporaryDirectory(prefix="metabits-fuzz-")
_PNG, _SVG = (str(p) for p in _figure())
_SVG_TEXT = open(_SVG, encoding="utf-8").read()
_SVG_BYTES = _SVG_TEXT.encode("utf-8")
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


def _small_database(names=("Kantner_2010", "OHora_2017"), people=12, trials=120):
    """The shipped copy cut to two data sets (one with a difficulty manipulation, both K >= 3),
    each person's first ``trials`` trials of the first ``people`` people, so calls are quick."""
    db = database_copy.confidence_database()
    pick = [db.names.index(n) for n in names]
    # in the copy's order, as the trials below are (the names' order may differ)
    keep = np.sort(np.concatenate([np.flatnonzero(db.dataset == i)[:people] for i in pick]))
    owner = np.repeat(np.arange(len(db.n_trials)), db.n_trials)
    trial = np.isin(owner, keep) & (db.position() < trials)
    index = np.full(len(db.names), -1)
    index[pick] = np.arange(len(pick))
    return database_copy.ConfidenceDatabase(
        names=tuple(names), sets=db.sets[db.sets.name.isin(names)].reset_index(drop=True),
        dataset=index[db.dataset[keep]].astype(db.dataset.dtype),
        participant=db.participant[keep], n_levels=db.n_levels[keep],
        n_trials=np.minimum(db.n_trials[keep], trials).astype(db.n_trials.dtype),
        code=db.code[trial], difficulty=db.difficulty[trial], session=db.session[trial])


_DB = _small_database()
#: Bang et al. (2019): seven sessions, all trials of its twelve people (test_retest).
_DB_BANG = _small_database(("Bang_2019_Exp1",), people=12, trials=10 ** 6)
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
_BAD_DB = [None, "abc", 3, TABLE1]
_BAD_NAMES = [["nonsense"], "auroc2", None, 3, [], ["auroc2", 3]]
_BAD_WORKERS = [0, 65, 2.5, "2", True, None, [2]]
#: Three data sets (a difficulty manipulation, and the two with sessions), 12 people each
_DB_ASSESS = _small_database(("OHora_2017", "Bang_2019_Exp1", "Lebreton_2018"), trials=120)
_ASSESSED = database_assessment.shipped_assessment()

from metabits_book.studies import montecarlo as _mc  # noqa: E402

_COVERAGE = _mc.oskr_coverage_table()
#: Table 1 times 1e12: its resampling tables would take some 10**16 numbers (a MemoryError)
_TABLE1_HUGE = np.array(TABLE1) * 1e12
_BAD_SEEDS = [2.5, -1, "3", True, None, NAN, [3], 3j]

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

# --- the explorers (metabits_book.explore): small grids, so that every valid call is fast ----

#: Bad grids of one explorer control; each factory adds those outside its range.
_BAD_GRID = [3, None, "abc", (), (NAN,), (INF,), (0.7, 0.6), (0.6, 0.6), ("a",), (0.6, "a"),
             (True,), [[0.6]], {"a": 0.6}, 0.6]
_PROB_GRID = _BAD_GRID + [(-0.1,), (1.1,)]
_OPEN_GRID = _PROB_GRID + [(0.0,), (1.0,)]
_ACC_GRID = _BAD_GRID + [(0.3,), (1.5,), (0.45, 0.6)]
_LOADS = [0, 0, 0.3, 0, 0, 0.5, 0, 0.6]
_OSKRS = [.5, .5, .6, .5, .5, .8, .6, .2]

#: Factory -> its valid arguments: (value, bad values) per parameter (also the explorers whose
#: views are fuzzed, :func:`test_explorer_views_refuse_values_their_controls_cannot_take`).
EXPLORERS = {
    "noise_cases_explorer": {"acc": ((0.6, 0.7), _ACC_GRID + [(0.7, 1.0)]),
                             "kinds": (("uniform", "normal"),
                                       [("gaussian",), "abc", 3, None, (), ("normal", "normal"),
                                        (0.7,), ["normal", 3]])},
    "roc_explorer": {"acc": ((0.6, 0.7), _ACC_GRID + [(0.7, 1.0)])},
    "group_explorer": {"acc": ((0.6, 0.7), _ACC_GRID),
                       "K": ((1, 3), [(0,), (1, 21), (1, 2.5), ("a",), 3, None, (), (3, 1),
                                      (True,), (10 ** 10,), (-1, 1)])},
    "type2_explorer": {"d": ((1.0, 1.5), _BAD_GRID + [(-1.0,), (0.0,)]),
                       "meta_d": ((1.0, 1.5), _BAD_GRID + [(-1.0,), (80.0,)]),
                       "levels": (4, "size")},
    "oskr_explorer": {"success": ((0.5, 0.6), _OPEN_GRID), "right": ((0.8, 0.9),
                                                                      _PROB_GRID + [(0.4,)])},
    "feedback_lab_explorer": {"prevalence": ((0.5,), _OPEN_GRID),
                              "error": ((0.2, 0.3), _PROB_GRID), "gain": ((0.3,), _PROB_GRID)},
    "oskr_surface_explorer": {"prevalence": ((0.5, 0.7), _OPEN_GRID),
                              "gains": ((0.0, 0.35), _PROB_GRID + [(0.7, 0.6),
                                                                   (0, .1, .2, .3, .4, .5, .6)])},
    "entropy_explorer": {"active": ((4, 8), _BAD_GRID + [(0,), (9,), (2.5,), (8.0,), (-1, 1)]),
                         "skew": ((0.0, 0.5), _BAD_GRID + [(-1.0,)])},
    "channel_noise_explorer": {"noise": ((0.1, 0.4), _PROB_GRID)},
    "alpha_beta_explorer": {"wrong": ((0.09, 0.2), _PROB_GRID), "accuracy": (0.72, "open")},
    "verifier_explorer": {"error": ((0.2, 0.22), _PROB_GRID + [(0.0,)])},
    "deployment_explorer": {
        "agents": ({"A": (0.72, 0.81), "B": (0.72, 0.18)},
                   [(("A", (0.72, 0.81)),), (0.72, 0.81), {}, {"A": (0.72,)}, {"A": (1.5, 0.8)},
                    {"A": "ab"}, {"A": None}, {"A": (0.72, NAN)}, 3, "abc", [("A", 0.7)]]),
        "accuracy_threshold": ((0.7, 0.8), _PROB_GRID), "oskr_threshold": ((0.5,), _PROB_GRID)},
    "router_explorer": {
        "tasks": ({"check": _LOADS, "all": [0.3] * 8},
                  [(("check", _LOADS),), {}, {"x": [0.3]}, {"x": [NAN] * 8}, {"x": [0] * 8},
                   {"x": [1.5] * 8}, {"x": "abc"}, {"x": None}, 3, "abc", [_LOADS]]),
        "oskr_by_operation": (_OSKRS, [[.5, .5], [NAN] * 8, [1.5] * 8, "abc", [[.5] * 8]]),
        "verify": ((0.2, 0.7), _PROB_GRID)},
    "people_explorer": {
        "sets": (("Shekhar_2018", "Kantner_2010"),
                 [("Nobody_2020",), "Shekhar_2018", (), 3, ("Shekhar_2018",) * 2,
                  (3,), [["Shekhar_2018"]]]),
        "measures": (("auroc2", "RMI"), [("nonsense",), "RMI", (), 3, ("RMI", "RMI"),
                                         ("acc",), (b"RMI",)]),
        "default_set": (None, ["Nobody_2020", "Rouault_2018_Expt1", 3, ["Shekhar_2018"], ""]),
        "default_measure": (None, ["nonsense", "m_ratio", 3, ["RMI"], ""])},
}


def _explorer(factory: str):
    return getattr(ex, factory)(**{k: v for k, (v, _) in EXPLORERS[factory].items()})


_EXPLORER = _explorer("roc_explorer")
_VIEW = _EXPLORER.view()
_BAD_EXPLORERS = [None, 3, "abc", _VIEW, {"acc": 0.7}, ex.roc_explorer]
_BAD_VIEWS = [3, "abc", _EXPLORER, {"traces": ()}, [_VIEW]]

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
    "explorer": (_EXPLORER, _BAD_EXPLORERS),
}

#: Per-function overrides: parameter -> (valid value, kind or list of bad values).
CALLS = {
    # a student's answer of any kind gets a verdict (tests/test_checks.py); the checker's own
    # arguments are refused
    "check": {"answer": (0.7, []), "expected": (0.75, [NAN, INF, "a", None, [1, 2]]),
              "tol": (0.01, [0, -0.01, NAN, INF, "a", None])},
    "check_exercise": {"label": ("ex-s1-criterion", ["ex-nope", 3, None, ""])},
    "checker_code": {"label": ("ex-s1-criterion", ["ex-nope", 3, None, ""])},
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
    "bin_responses": {"prediction": ([-1, -1, 1, 1], [[0, -1, 1, 1], [NAN, 1, 1, 1],
                                                                  [1, 1], "abc", None]),
                                 "confidence": ([0.9, 0.6, 0.6, 0.9], [[0.9, 0.4, 0.6, 0.9],
                                                                       [NAN, 0.6, 0.6, 0.9],
                                                                       [0.9], "abc", None])},
    "counts_from_trials": {"label": ([-1, -1, 1, 1, 1], [[0, -1, 1, 1, 1],
                                                                    [-1, 1], "abc", None]),
                                      "response": ([0, 1, 3, 3, 2], [[0, 1, 4, 3, 2],
                                                                     [0, 1, 3.5, 3, 2],
                                                                     [0, 1], "abc", None])},
    "measure_study": {"counts": (np.array(TABLE1)[None], "table"), "pad": (0.25, "nonneg?")},
    "paper_study": {},
    "response_probabilities": {},
    "sample_trials": {},
    "simulate_counts": {"method": ("multinomial", "choice"),
                                   "n_per_label": (20, "count")},
    "simulate_study": {"kinds": (("normal",), [["nonsense"], [], None, 3]),
                                  "n_per_label": (20, "count"),
                                  "accs": ((0.7,), [[0.3], [NAN], [], None, "abc"]),
                                  "method": ("multinomial", "choice")},
    "theoretical_measures": {"sdt": (False, "flag")},
    "mc_mean": {"x": ([1.0, 2.0, 3.0, 4.0], [[1.0, INF], [1.0], ["a", "b", "c"],
                                                        "abcd", None, [[1, 2], [3]]])},
    "mc_sd": {"x": ([1.0, 2.0, 3.0, 4.0], [[1.0, INF], [1.0], ["a", "b", "c"],
                                                      "abcd", None, [[1, 2], [3]]])},
    "mc_ratio": {
        "numerator": (_EST, [MCEstimate(INF, 0.001, 200), MCEstimate(0.02, -0.001, 200),
                             MCEstimate(NAN, 0.001, 200), MCEstimate("a", 0.001, 200),
                             MCEstimate(0.02, INF, 200), 0.02, None]),
        "denominator": (_DEN, [MCEstimate(INF, 0.0005, 200), MCEstimate(0.004, -0.0005, 200),
                               MCEstimate(NAN, 0.0005, 200), MCEstimate("a", 0.0005, 200),
                               MCEstimate(0.004, INF, 200), 0.004, None])},
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
    "deployment_posture": {"accuracy": (0.9, "prob"), "oskr": (0.2, "prob"),
                                           "accuracy_threshold": (0.8, "prob"),
                                           "oskr_threshold": (0.5, "prob")},
    "per_operation_oskr": {"trace": (_TRACE, [None, "abc", 3, TABLE1])},
    "roberts_profiles": {},
    "route_task": {"load": ([0, 0, 0.3, 0, 0, 0.5, 0, 0.6],
                                            [[0, 0, 0.3], [NAN] * 8, [-1] * 8, "abc", None]),
                                   "oskr_by_operation": ([.5, .5, .6, .5, .5, .8, .6, .2],
                                                         [[.5, .5], [NAN] * 8, [1.5] * 8,
                                                          "abc", None])},
    "simulate_chain": {"scores": ([3, 4, 4.5, 3.5, 4, 4.8, 4, 2],
                                                  [[3, 4], [NAN] * 8, "abc", None]),
                                       "success_range": ((0.75, 0.99), [(0.75,), (NAN, 0.9),
                                                                        (1.5, 0.9), "ab", None]),
                                       "false_alarm_range": ((0.9, 0.05),
                                                             [(0.9,), (NAN, 0.05), (1.5, 0.05),
                                                              "ab", None]),
                                       "hit_rate": (0.95, "prob")},
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
    "theorem8_upper_as_printed": {"acc_pos": ([0.7, 0.8], "prob"),
                                        "acc_neg": ([0.7, 0.8], "prob")},
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
    "meta_I1r_variants": {},
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
                                         "ConfidenceDatabase", "Assessment", "TableBootstrap")},
    "Trials.tables": {}, "Trials.check": {},
    "svg_difference": {"committed": (_SVG_TEXT, [None, 3, b"<svg/>", ["a"]]),
                       "rebuilt": (_SVG_TEXT, [None, 3, b"<svg/>"]), "tol": (1e-3, "nonneg")},
    "png_difference": {"committed": (_PNG, [None, 3, f"{_BAD}/nonexistent.png", _BAD]),
                       "rebuilt": (_PNG, [None, 3, f"{_BAD}/nonexistent.png"]),
                       "tol": (1.0, "nonneg")},
    "figure_difference": {"committed": (_SVG_BYTES, [None, 3, "<svg/>"]),
                          "rebuilt": (_SVG, [None, 3, f"{_BAD}/nonexistent.svg", _BAD])},
    "example_file": {"name": ("data_Shekhar_2018.csv.gz", [3, None, "nonexistent.csv",
                                                            "../pyproject.toml"])},
    "count_tables": {"trials": (_TRIALS, [None, "abc", 3, {"stimulus": [0]}]),
                              "by": ((), [3, ("nonexistent",), None]),
                              "stimulus": ("stimulus", "text"), "response": ("response", "text"),
                              "rating": ("rating", "text"),
                              "stimuli": ((0, 90), [(0,), (0, 0), None, 3])},
    "maskori_counts": {"by": ("soa_ms", [3, ("nonexistent",), None])},
    "maskori_trials": {},
    "meyen_table1": {},
    "servajean_c_verdicts": {},
    "servajean_table_s1": {},
    "servajean_table_s2": {},
    "entries": {"work": (None, ["nonsense", 3, ["meyen2025"]])},
    "format_value": {"value": (0.123, "real"), "decimals": (2, [-1, 2.5, "2", None,
                                                                              10 ** 10]),
                                   "unit": ("", "text")},
    "get": {"id": ("meyen2025/fig1-acc", ["nonsense", 3, None])},
    "servajean_mean_of_ratios": {"task": ("A", "choice"),
                                               "model": ("GPT-5", "choice")},
    "servajean_ratio_range": {"task": ("A", "choice"),
                                            "model": ("GPT-5", "choice")},
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
    "build_confidence_database": {"folder": (_FOLDER, [3, None, ["a"], b"x", _OUT, _TINY,
                                                      f"{_TMP.name}/nonexistent", _BAD])},
    "write_confidence_database": {"folder": (_FOLDER, [3, None, ["a"], _OUT, _TINY]),
                                  "target": (_OUT, [3, None, ["a"], b"x", _TINY,
                                                    f"{_TMP.name}/nonexistent"])},
    "confidence_database": {},
    "database_measures": {"tables": (_PADDED, _BAD_TABLES), "n_levels": ([2, 3], _BAD_LEVELS),
                          "pad": (None, "nonneg?"), "measures": ("default", "choice")},
    "database_bootstrap": {"tables": (_PADDED, _BAD_TABLES), "n_levels": ([2, 3], _BAD_LEVELS),
                           "pad": (None, "nonneg?"), "n_boot": (20, "size"),
                           "level": (0.95, "open"), "chunk": (500, "size")},
    "split_half": {"db": (_DB, _BAD_DB), "bin_size": (20, "size"),
                   "names": (dbm.METACOGNITION, [["nonsense"], "auroc2", None, 3, [],
                                                 ["auroc2", 3]]),
                   "min_people": (10, "count"), "all_trials": (False, "flag")},
    "rahnev_criteria": {"db": (_DB, _BAD_DB),
                        "bin_sizes": ((20,), [[0], [2.5], "ab", None, [], [10 ** 10], 20,
                                              [True], [[20]]]),
                        "min_people": (10, "count"), "names": (dbm.METACOGNITION, _BAD_NAMES),
                        "workers": (1, _BAD_WORKERS)},
    "criteria_frame": {"criteria": (database_criteria.rahnev_criteria(_DB, bin_sizes=(20,)),
                                    [None, "abc", 3, dbm.database_measures(_PADDED, [2, 3])])},
    # metabits_book.studies.database_assessment (a small copy with the two data sets with
    # sessions, so the valid calls are quick)
    "assess": {"db": (_DB_ASSESS, _BAD_DB + [_DB]), "names": (("auroc2", "meta_I"),
                                                              _BAD_NAMES),
               "n_boot": (20, "size"), "workers": (1, _BAD_WORKERS),
               "seed": (2025, _BAD_SEEDS)},
    "criteria_by_set": {"db": (_DB, _BAD_DB), "names": (("auroc2", "meta_I"), _BAD_NAMES),
                        "workers": (1, _BAD_WORKERS), "seed": (2025, _BAD_SEEDS)},
    "rahnev_claims": {"summary": (_ASSESSED, [None, "abc", 3, TABLE1,
                                              _ASSESSED.drop(columns="precision"),
                                              _ASSESSED.iloc[:5]])},
    "write_assessment": {"db": (_DB_ASSESS, _BAD_DB), "n_boot": (20, "size"),
                         "names": (("auroc2",), _BAD_NAMES),
                         "workers": (1, _BAD_WORKERS),
                         "folder": (_OUT, [3, None, ["a"], b"x", _TINY,
                                           f"{_TMP.name}/nonexistent"])},
    "shipped_assessment": {},
    "shipped_by_set": {},
    "task_effect": {"db": (_DB, _BAD_DB), "name": ("m_ratio", "choice"),
                    "confidence": (0.95, "open"), "n_resamples": (50, "size"),
                    "rng": (1, "rng")},
    "explorer_sets": {"db": (_DB, _BAD_DB), "min_people": (10, "count"),
                      "min_trials": (100, "count")},
    "people_intervals": {"db": (_DB, _BAD_DB),
                         "sets": (None, [["Nobody_2020"], "Kantner_2010", [], 3, [3],
                                         ["Shekhar_2018"]]),
                         "n_boot": (10, "size"), "seed": (2025, _BAD_SEEDS)},
    "write_intervals": {"db": (_DB, _BAD_DB), "n_boot": (10, "size"),
                        "seed": (2025, _BAD_SEEDS),
                        "path": (f"{_OUT}/intervals.npz",
                                 [3, None, ["a"], b"x.npz", _OUT,
                                  f"{_TMP.name}/nonexistent/i.npz"])},
    "shipped_intervals": {},
    "corrupted_tables": {"db": (_DB, _BAD_DB), "fraction": (0.2, "prob"), "rng": (1, "rng"),
                         "first": (None, "count?")},
    "precision": {"db": (_DB, _BAD_DB), "fraction": (0.2, "prob"), "n_trials": (100, "size"),
                  "names": (dbm.METACOGNITION, [["nonsense"], "auroc2", None, 3, [],
                                                ["auroc2", 3]]),
                  "rng": (1, "rng"), "min_people": (10, "count")},
    "test_retest": {"db": (_DB_BANG, _BAD_DB + [_DB]),
                    "dataset": ("Bang_2019_Exp1", "choice"), "n_trials": (100, "size"),
                    "names": (dbm.METACOGNITION, [["nonsense"], "auroc2", None, 3, [],
                                                  ["auroc2", 3]])},
    # metabits_book.studies.montecarlo (small sizes: the shipped study is large)
    "fieller_interval": {"numerator": (_EST, [MCEstimate(INF, 0.001, 200),
                                              MCEstimate(0.02, -0.001, 200),
                                              MCEstimate(NAN, 0.001, 200), 0.02, None]),
                         "denominator": (_DEN, [MCEstimate(NAN, 0.0005, 200),
                                                MCEstimate(0.004, -0.0005, 200),
                                                MCEstimate(0.004, INF, 200), 0.004, None])},
    "rmi_bias": {"kind": ("binary", "choice"), "n_per_label": (20, "size"),
                 "n_sets": (2, "size"), "chunk": (20_000, "size")},
    "oskr_coverage": {"agent": ("agent B", "choice"), "n": (11, "size"), "n_sets": (2, "size"),
                      "n_boot": (20, "size"), "seed": (2026, _BAD_SEEDS)},
    "oskr_coverage_study": {"n_sets": (2, "size"), "n_boot": (20, "size"),
                            "seed": (2026, _BAD_SEEDS), "target_se": (None, "pos?")},
    "oskr_coverage_table": {},
    # metabits_book.studies.bayes_refits (the fits themselves are EXCLUDED: NUTS)
    "servajean_tables": {"seed": (2026, _BAD_SEEDS)},
    "servajean_bayes_table": {},
    "servajean_gap_table": {},
    "maskori_group_bayes_table": {},
    "maskori_posterior_check_table": {},
    "coverage_difference": {"table": (_COVERAGE, [None, "abc", 3, TABLE1, _COVERAGE.iloc[:0],
                                                  _COVERAGE.drop(columns="covered_by_both")]),
                            "agent": ("weak flag", "choice"),
                            "n": (100, [2.5, 0, -1, "100", True, None, NAN, 100.0, 7,
                                        10 ** 10])},
    # metabits_book.oskr_claims
    "channel_capacity": {},
    "capacity_share": {},
    "calibration_gap": {"joint": ([[0.4, 0.1], [0.1, 0.4]],
                                  [[[0.4, -0.1], [0.1, 0.4]], [[NAN, 0.1], [0.1, 0.4]], "abc",
                                   None, 3, [0.5, 0.5], [[0, 0], [0, 0]],
                                   [[1, 2], [3, 4], [5, 6]], [["a", "b"], ["c", "d"]],
                                   [[True, False], [False, True]], [[0.4, 0.1j], [0.1, 0.4]],
                                   [[INF, 0.1], [0.1, 0.4]]]),
                        "stated": ([0.8, 0.2], [[0.8], [NAN, 0.2], [1.5, 0.2], "ab", None,
                                                [[0.8, 0.2]], [True, False], 0.8])},
    # metabits_book: the registries of reproduced numbers
    "meyen2025": {},
    "servajean2026": {},
    "roberts2026_numbers": {},
    "one_sided_detector_oskr": {"flagged": (0.8, "prob")},
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
    # metabits_book.explore: the factories (their grids), the renderers, the controls
    **EXPLORERS,
    "grid": {}, "frames": {}, "static_html": {}, "live": {}, "show": {}, "plotly_js_path": {},
    "plotly_figures": {"view": (None, _BAD_VIEWS)},
    "to_matplotlib": {"view": (None, _BAD_VIEWS)},
    "control": {"name": ("acc", [3, None, "", "a b", ["acc"], b"acc"]),
                "label": ("accuracy", [3, None, "", ["a"], b"a"]),
                "values": ((0.6, 0.7, 0.8), [(), (0.6, 0.6), (0.7, 0.6), (0.6, "a"), ("a", "a"),
                                             (NAN,), 3, None, [[0.6]], (True,)]),
                "default": (0.7, [0.65, "0.7", True, NAN, [0.7]]),
                "fmt": ("{:.0%}", ["{:.2q}", "{y}", 3, "{}{}", "{1}", b"{}", "plain", "{:d}"])},
    "Control": {"name": ("acc", [3, None, "", "a b", ["acc"], b"acc"]),
                "label": ("accuracy", [3, None, "", ["a"], b"a"]),
                "values": ((0.6, 0.7, 0.8), [(), (0.6, 0.6), (0.7, 0.6), (0.6, "a"), ("a", "a"),
                                             (NAN,), 3, None, [[0.6]], (True,)]),
                "default": (0.7, [0.65, "0.7", True, NAN, [0.7], None]),
                "fmt": ("{:.0%}", ["{:.2q}", "{y}", 3, "{}{}", "{1}", b"{}", "plain", "{:d}",
                                   None])},
    "Control.show": {"value": (0.7, [0.5, 0.9, "0.7", None, NAN, True, [0.7], 0.7j])},
    "View.trace": {"name": ("uniform noise", ["nonsense", 3, None, ["uniform noise"]]),
                   "panel": (None, [5, -1, 2.5, "0", True, NAN])},
    # public methods of results
    "LogOddsMap.apply": {"c": ([0.6, 0.9], "open")},
    "AllMeasures.value": {"name": ("RMI", "choice")},
    "MeasureBootstrap.value": {"name": ("RMI", "choice")},
    "MeasureBootstrap.interval": {"name": ("RMI", "choice")},
    "ServajeanTableS1.at": {"task": ("A", "choice"), "model": ("GPT-5", "choice")},
    "ServajeanTableS2.at": {"task": ("A", "choice"), "model": ("GPT-5", "choice")},
    "PaperNumber.agrees_with": {"value": (0.7, "real")},
    "PaperNumber.evaluate": {},
    "PaperNumber.explain": {},
    "ConfidenceDatabase.position": {},
    "ConfidenceDatabase.tables": {"half": (None, ["third", 3, ["odd"], True, "", b"odd"]),
                                  "first": (None, "count?"), "by_difficulty": (False, "flag"),
                                  "session": (None, [2.5, -1, "3", True, [3], NAN, 255,
                                                     3.0])},
    "ConfidenceDatabase.trials": {"name": ("Kantner_2010", "choice")},
    "ConfidenceDatabase.select": {"names": (["Kantner_2010"],
                                            [None, "Kantner_2010", [], ["Nobody_2020"], 3, [3],
                                             ["Kantner_2010", "Kantner_2010"], b"x"])},
    "DatabaseMeasures.value": {"name": ("RMI", "choice")},
    "DatabaseMeasures.interval": {"name": ("RMI", "choice")},
    "PeopleIntervals.measure": {"name": ("RMI", "choice")},
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
    "x": ("simulated values", "two simulated"), "numerator": ("MCEstimate",),
    "denominator": ("MCEstimate",), "kinds": ("noise kind",), "accs": ("acc",),
    "by": ("column",), "stimulus": ("column",), "response": ("column",), "rating": ("column",),
    "verdicts": ("verdict",), "bins": ("signal",),  # bins are refused for a non-numeric signal
    "c": ("estimate", "confidence"), "kind": ("noise kind",), "K": ("group size",),
    "counts": ("table",), "table": ("response table",), "abs_llr_cdf": ("abs_llr_cdf",),
    "acc": ("accurac",), "acc_pos": ("true positive",), "acc_neg": ("true negative",),
    "conf": ("confidence",), "p": ("numeric",), "fpr": ("false positive",),
    "fpr2": ("false positive",), "estimate": ("estimate",), "nR_S1": ("counts", "nR_S1"),
    "nR_S2": ("counts", "nR_S2"), "name": ("measure", "data set"), "counts_stack": ("counts",),
    "id": ("id", "paper number"),
    "path": ("file", "path"), "folder": ("folder",), "target": ("folder", "target"),
    "levels": ("levels",), "condition": ("condition column",), "trials": ("trials",),
    "tables": ("tables",), "n_levels": ("n_levels",), "which": ("which",),
    "a": ("a and b", "values of a"), "b": ("a and b", "values of b"), "groups": ("groups",),
    "db": ("ConfidenceDatabase",), "names": ("measure",), "bin_sizes": ("bin_size",),
    "half": ("half",),
}


def names_argument(message: str, name: str) -> bool:
    """The message names the argument: its name or an alias; a name of one or two letters
    ("a", "x", "K") as a word of its own, not inside another word."""
    text = message.lower()
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(w.lower())}(?![a-z0-9_])", text)
               if len(w) <= 2 else w.lower() in text for w in (name,) + ALIASES.get(name, ()))


def public_modules() -> list:
    """Every public module of the library and of the book's code (no part of its name private),
    explorers aside."""
    import metabits_book

    names = ["metabits"] + [m.name for m in pkgutil.walk_packages(mb.__path__, "metabits.")]
    names += ["metabits_book"] + [m.name for m in pkgutil.walk_packages(metabits_book.__path__,
                                                                         "metabits_book.")]
    return [importlib.import_module(n) for n in names
            if not any(part.startswith("_") for part in n.split("."))
            and not any(n == x or n.startswith(x + ".") for x in EXCLUDED_MODULES)]


def _public(kind) -> dict:
    """Name -> each public object of one kind (``__all__`` of the public modules), once."""
    found = {}
    for module in public_modules():
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            home = getattr(obj, "__module__", "") or ""
            if any(home == x or home.startswith(x + ".") for x in EXCLUDED_MODULES):
                continue  # re-exported from an excluded module (metabits.fit_meta_d_bayes)
            if kind(obj) and not any(obj is f for f in found.values()):
                assert obj.__name__ not in found, f"two public {obj.__name__}: rename one"
                found[obj.__name__] = obj
    return found


def public_callables() -> dict:
    """Name -> public function, "Class.method" -> public method bound to a valid result, and
    the constructors that check their arguments (:data:`CONSTRUCTORS`)."""
    return {**_public(inspect.isfunction), **METHODS, **CONSTRUCTORS}


@functools.lru_cache(maxsize=None)
def _instance(cls):
    """A valid result object of each class with public methods (made once per class)."""
    from metabits_book import paper_numbers
    from metabits.info import _calibration as calibration
    from metabits_book.studies import datasets
    from metabits import _bootstrap as measure_bootstrap
    return {calibration.LogOddsMap: lambda: calibration.fit_log_odds_map([0.6, 0.9],
                                                                          [0.55, 0.75]),
            measure_bootstrap.AllMeasures: lambda: measure_bootstrap.all_measures(TABLE1),
            measure_bootstrap.MeasureBootstrap: lambda: measure_bootstrap.bootstrap_measures(
                TABLE1, n_boot=10, rng=0),
            mb.resample.TableBootstrap: lambda: mb.resample.bootstrap_tables(
                _share_first_cell, TABLE1, n_boot=10, rng=0),
            datasets.ServajeanTableS1: datasets.servajean_table_s1,
            datasets.ServajeanTableS2: datasets.servajean_table_s2,
            paper_numbers.PaperNumber: lambda: paper_numbers.entries()[0],
            database_copy.ConfidenceDatabase: lambda: _DB,
            database_assessment.Assessment: lambda: database_assessment.assess(
                _DB_ASSESS, names=("auroc2",), n_boot=10),
            ex.Explorer: lambda: _EXPLORER, ex.View: lambda: _VIEW,
            ex.Control: lambda: ex.control("acc", "accuracy", (0.6, 0.7, 0.8), fmt="{:.0%}"),
            dbm.DatabaseMeasures: lambda: dbm.database_bootstrap(_PADDED, [2, 3], n_boot=20,
                                                                 rng=0),
            PeopleIntervals: lambda: people_intervals(_DB, n_boot=10),
            mb.io.Trials: lambda: mb.read_trials(_OWN),
            mb.results.Bounds: lambda: mb.info.info_bounds(0.7),
            mb.results.Curve: lambda: mb.sdt.type2_roc(TABLE1),
            mb.results.Distribution: lambda: mb.info.discrete_confidence("uniform", 0.7),
            mb.io.GroupTables: lambda: mb.read_trials(_OWN).tables()}[cls]()


def public_classes() -> dict:
    """Name -> public class (results and a warning category)."""
    return _public(inspect.isclass)


def _public_methods(cls) -> list:
    return [k for k, v in vars(cls).items() if not k.startswith("_") and inspect.isfunction(v)]


class _Method:
    """A public method of a result class, called on a valid result of that class, which is made
    on the first call (:func:`_instance`): collecting this module makes none, in every xdist
    worker, so that no worker waits for them before its first test. Its signature is the bound
    method's, for :func:`valid_call`."""

    def __init__(self, cls, name: str):
        self.cls, self.__name__ = cls, name
        signature = inspect.signature(getattr(cls, name))
        self.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])

    def __call__(self, *args, **kwargs):
        return getattr(_instance(self.cls), self.__name__)(*args, **kwargs)


#: Public methods of the result classes, called on a valid result (qualified as
#: module.Class.name).
METHODS = {f"{q}.{m}": _Method(cls, m) for q, cls in public_classes().items()
           for m in _public_methods(cls)}


#: Public classes made by the user, not only by the library: their constructors are fuzzed.
CONSTRUCTORS = {"Control": ex.Control}

FUNCTIONS = public_callables()
FUZZED = sorted(n for n in FUNCTIONS if n not in EXCLUDED and n in CALLS)


def valid_call(qualname: str):
    """The function, its valid keyword arguments, and each argument's kind (None: not fuzzed)."""
    func = FUNCTIONS[qualname]
    overrides = CALLS[qualname]
    kwargs, kinds = {}, {}
    for p in inspect.signature(func).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue  # e.g. check_exercise's answers: leaving them out is valid
        if p.name in overrides:
            value, kind = overrides[p.name]
        elif p.name in ARGS:
            value, kind = ARGS[p.name]
        elif p.default is not p.empty:
            value, kind = p.default, None
        else:
            raise KeyError(f"{qualname}: no valid value for {p.name}")
        kwargs[p.name], kinds[p.name] = value, kind
    return func, kwargs, kinds


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


def mutations(qualname: str):
    """(parameter, bad value) pairs of one function."""
    func, _, kinds = valid_call(qualname)
    return [(name, bad) for name, kind in kinds.items() if kind is not None
            for bad in _bad_values(kind, _is_scalar(func, name))]


def check_mutation(qualname: str, name: str, bad) -> str | None:
    """None if ``bad`` for ``name`` is refused with a ValueError in time, else what went wrong."""
    func, kwargs, _ = valid_call(qualname)
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
    if not names_argument(str(what), name):
        return f"{call}: the ValueError does not name {name}: {str(what)[:120]}"
    return None


def test_result_classes_are_not_fuzzed_as_constructors():
    """Public classes are results (frozen dataclasses and named tuples the library builds), a
    warning category, or the explorers' building blocks; their public methods are fuzzed
    (:data:`METHODS`), their constructors not, except those in :data:`CONSTRUCTORS`. Of the
    explorers' blocks, :class:`~metabits_book.explore.Explorer`,
    :class:`~metabits_book.explore.Panel`, :class:`~metabits_book.explore.Trace` and
    :class:`~metabits_book.explore.View` are made by the
    factories (whose arguments are fuzzed) and checked by ``frames`` when drawn;
    :class:`~metabits_book.explore.ExplorerDisplay` is made by ``show``."""
    from metabits.results import Result
    blocks = (ex.Explorer, ex.ExplorerDisplay, ex.Panel, ex.Trace, ex.View)
    for name, cls in public_classes().items():
        assert issubclass(cls, (Result, tuple, Warning)) or cls in blocks \
            or cls.__name__ in ("PaperNumber", *CONSTRUCTORS), name


def test_every_public_callable_is_fuzzed_or_excluded_with_a_reason():
    missing = set(FUNCTIONS) - set(FUZZED) - set(EXCLUDED)
    assert not missing, f"public callables without a valid call in CALLS: {sorted(missing)}"
    assert set(EXCLUDED) <= set(FUNCTIONS), "an excluded name is not public (any more)"
    assert set(CALLS) <= set(FUNCTIONS), f"not public: {sorted(set(CALLS) - set(FUNCTIONS))}"


@pytest.mark.parametrize("qualname", FUZZED)
def test_valid_call_works(qualname):
    func, kwargs, _ = valid_call(qualname)
    (how, what), seconds = run_limited(func, kwargs, limit=60.0)  # the first call imports
    assert how == "value", f"{qualname}(**{kwargs}) -> {how}: {what!r}"


@pytest.mark.parametrize("qualname", [n for n in FUZZED if mutations(n)])
def test_bad_arguments_are_refused_with_value_error(qualname):
    func, kwargs, _ = valid_call(qualname)
    run_limited(func, kwargs, limit=60.0)  # warm up: lazy imports are not the call's time
    failures = [f for name, bad in mutations(qualname)
                if (f := check_mutation(qualname, name, bad)) is not None]
    assert not failures, "\n".join(failures)


def _bad_control_values(c) -> list:
    """Values control ``c`` cannot take: outside a slider's range or of the wrong type, or not
    one of a menu's names."""
    if not c.numeric:
        return ["nonsense", 3, None, [c.default], c.default.upper() + "x", True]
    lo, hi = c.values[0], c.values[-1]
    bad = [lo - 1, hi + 1, lo - 0.01, hi + 0.01, NAN, INF, -INF, str(lo), None, True, [lo],
           1j, np.array([lo, hi])]
    if all(isinstance(v, int) for v in c.values):
        bad += [lo + 0.5, float(lo)]
    return bad


@pytest.mark.parametrize("factory", sorted(EXPLORERS))
def test_explorer_views_refuse_values_their_controls_cannot_take(factory):
    """``Explorer.view``: a value outside a slider's range or of the wrong type, or not one of a
    menu's names, is refused with a ValueError naming the control; a value between two grid
    points is a view (the live sliders call it there)."""
    explorer = _explorer(factory)
    failures = []
    for c in explorer.controls:
        for bad in _bad_control_values(c):
            (how, what), seconds = run_limited(explorer.view, {c.name: bad})
            call = f"{factory}(...).view({c.name}={_show(bad)})"
            if how != "raised" or not isinstance(what, ValueError):
                failures.append(f"{call}: {how} {_show(what)}")
            elif not names_argument(str(what), c.name):
                failures.append(f"{call}: the ValueError does not name {c.name}: {what}")
        if c.numeric and len(c.values) > 1:
            between = (c.values[0] + c.values[1]) / 2
            if all(isinstance(v, int) for v in c.values):
                between = c.values[0] + 1
            assert isinstance(explorer.view(**{c.name: between}), ex.View)
    assert not failures, "\n".join(failures)


#: (function, parameter) pairs whose valid value is an array and that may be empty: they list
#: choices, not values to compute from (the rule in metabits.validation's docstring).
EMPTY_ALLOWED = {
    ("binned_response_probabilities", "edges"): "no bin edges: one bin",
    ("count_tables", "by"): "no grouping columns: all trials in one table",
    ("read_trials", "by"): "no grouping columns besides the subject",
    ("measure", "by"): "no grouping columns besides the subject",
    ("check", "answer"): "a student's answer of any kind gets a verdict, not an error",
}


def _array_parameters():
    """(function, parameter) of every fuzzed call whose valid value is a non-empty numeric
    array (or a number where the parameter may be an array), and the explicitly allowed ones."""
    pairs = []
    for qualname in FUZZED:
        func, kwargs, kinds = valid_call(qualname)
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
    return pairs + [p for p in EMPTY_ALLOWED if p not in pairs]


@pytest.mark.parametrize("qualname, name", _array_parameters())
def test_empty_arrays_are_refused(qualname, name):
    """The library's rule: an empty array where a function computes from its values is a
    ValueError naming the argument, not an empty result; only :data:`EMPTY_ALLOWED` may be
    empty (and then gives a result)."""
    func, kwargs, _ = valid_call(qualname)
    allowed = (qualname, name) in EMPTY_ALLOWED
    for empty in ([],) if allowed else ([], np.zeros(0)):
        (how, what), _ = run_limited(func, {**kwargs, name: empty})
        if allowed:
            assert how == "value", f"{qualname}({name}={empty!r}) -> {how}: {what!r}"
            continue
        assert how == "raised" and isinstance(what, ValueError), \
            f"{qualname}({name}={empty!r}) -> {how}: {_show(what)}"
        assert names_argument(str(what), name), f"{qualname}({name}=[]): {what}"


def test_the_fuzz_is_large_enough():
    n_mutations = sum(len(mutations(n)) for n in FUZZED)
    assert len(FUZZED) >= 125 and n_mutations >= 2300, (len(FUZZED), n_mutations)
