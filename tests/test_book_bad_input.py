"""Every public function of the book's code (metabits_book), its arguments mutated one at a time:
bad input is refused with a ValueError where it enters.

The library's fuzz (tests/lib/test_api_bad_input.py: its machinery, :class:`Fuzz`, its bad values
per kind and its valid arguments) applied to the callables of ``metabits_book``, with the book's
own tables here: :data:`CALLS`, :data:`EXCLUDED`, :data:`EXCLUDED_MODULES` and the words that
name the book's arguments (:data:`ALIASES`). The explorers (:mod:`metabits_book.explore`) are
fuzzed on small grids: the factories' grids (:data:`EXPLORERS`), the renderers, ``control`` and
the :class:`~metabits_book.explore.Control` constructor (:data:`CONSTRUCTORS`), and each
explorer's ``view`` at values its controls cannot take (a dedicated test: its keywords are the
controls). The database studies are fuzzed on a 24-person subset of the shipped Confidence
Database, so that every valid call is quick.
"""

from __future__ import annotations

import functools
import inspect
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "lib"))  # the library's fuzz and result checks
import test_api_bad_input as lib  # noqa: E402
import test_results  # noqa: E402
from test_api_bad_input import (_BAD, _BAD_LEVELS, _BAD_TABLES, _FOLDER,  # noqa: E402
                                _OUT, _PADDED, _TINY, _TMP, INF, NAN, TABLE1, Fuzz, Method,
                                _show, names_argument, public_methods, public_objects,
                                run_limited)

import metabits_book  # noqa: E402
from metabits_book import cognitive_chain  # noqa: E402
from metabits_book import explore as ex  # noqa: E402
from metabits_book.studies import (database_assessment, database_copy,  # noqa: E402
                                   database_criteria)
from metabits_book.studies import database_measures as dbm  # noqa: E402
from metabits_book.studies.database_intervals import (PeopleIntervals,  # noqa: E402
                                                      people_intervals)
from metabits_book.studies.simulation import MCEstimate  # noqa: E402

pytestmark = lib.pytestmark

#: Modules (and packages) of the book's code whose callables are not fuzzed, with the reason.
EXCLUDED_MODULES = {
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

#: Public callables of the book's code not fuzzed, with the reason.
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

_TRACE = cognitive_chain.simulate_chain(cognitive_chain.roberts_profiles().scores[0], 200,
                                           rng=0)
_EST = MCEstimate(0.02, 0.001, 200)
_DEN = MCEstimate(0.004, 0.0005, 200)


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


_PNG, _SVG = (str(p) for p in _figure())
_SVG_TEXT = open(_SVG, encoding="utf-8").read()
_SVG_BYTES = _SVG_TEXT.encode("utf-8")


# --- the Confidence Database: a small subset of the shipped copy --------------------------------

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
_BAD_DB = [None, "abc", 3, TABLE1]
_BAD_NAMES = [["nonsense"], "auroc2", None, 3, [], ["auroc2", 3]]
_BAD_WORKERS = [0, 65, 2.5, "2", True, None, [2]]
#: Three data sets (a difficulty manipulation, and the two with sessions), 12 people each
_DB_ASSESS = _small_database(("OHora_2017", "Bang_2019_Exp1", "Lebreton_2018"), trials=120)
_ASSESSED = database_assessment.shipped_assessment()

from metabits_book.studies import montecarlo as _mc  # noqa: E402

_COVERAGE = _mc.oskr_coverage_table()
_BAD_SEEDS = [2.5, -1, "3", True, None, NAN, [3], 3j]

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

#: Parameter name -> (a valid value, its kind): the library's, and the explorers.
ARGS = {**lib.ARGS, "explorer": (_EXPLORER, _BAD_EXPLORERS)}

#: Per-function overrides: parameter -> (valid value, kind or list of bad values).
CALLS = {
    # a student's answer of any kind gets a verdict (tests/test_checks.py); the checker's own
    # arguments are refused
    "check": {"answer": (0.7, []), "expected": (0.75, [NAN, INF, "a", None, [1, 2]]),
              "tol": (0.01, [0, -0.01, NAN, INF, "a", None])},
    "check_exercise": {"label": ("ex-s1-criterion", ["ex-nope", 3, None, ""])},
    "checker_code": {"label": ("ex-s1-criterion", ["ex-nope", 3, None, ""])},
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
    "theorem8_upper_as_printed": {"acc_pos": ([0.7, 0.8], "prob"),
                                        "acc_neg": ([0.7, 0.8], "prob")},
    "meta_I1r_variants": {},
    **{f"{cls}.to_frame": {} for cls in ("ConfidenceDatabase", "Assessment")},
    "svg_difference": {"committed": (_SVG_TEXT, [None, 3, b"<svg/>", ["a"]]),
                       "rebuilt": (_SVG_TEXT, [None, 3, b"<svg/>"]), "tol": (1e-3, "nonneg")},
    "png_difference": {"committed": (_PNG, [None, 3, f"{_BAD}/nonexistent.png", _BAD]),
                       "rebuilt": (_PNG, [None, 3, f"{_BAD}/nonexistent.png"]),
                       "tol": (1.0, "nonneg")},
    "figure_difference": {"committed": (_SVG_BYTES, [None, 3, "<svg/>"]),
                          "rebuilt": (_SVG, [None, 3, f"{_BAD}/nonexistent.svg", _BAD])},
    "example_file": {"name": ("data_Shekhar_2018.csv.gz", [3, None, "nonexistent.csv",
                                                            "../pyproject.toml"])},
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
    "ranked_where_censored": {"summary": (_ASSESSED.set_index("measure"),
                                          [None, "abc", 3, TABLE1])},
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

#: Words that name a parameter in an error message besides its own name: the library's, and
#: the book's own.
ALIASES = {**lib.ALIASES, "numerator": ("MCEstimate",), "denominator": ("MCEstimate",),
           "id": ("id", "paper number"), "db": ("ConfidenceDatabase",),
           "bin_sizes": ("bin_size",), "half": ("half",)}


@functools.lru_cache(maxsize=None)
def _instance(cls):
    """A valid result object of each class of the book's code with public methods (made once per
    class)."""
    from metabits_book import paper_numbers
    from metabits_book.studies import datasets
    return {datasets.ServajeanTableS1: datasets.servajean_table_s1,
            datasets.ServajeanTableS2: datasets.servajean_table_s2,
            paper_numbers.PaperNumber: lambda: paper_numbers.entries()[0],
            database_copy.ConfidenceDatabase: lambda: _DB,
            database_assessment.Assessment: lambda: database_assessment.assess(
                _DB_ASSESS, names=("auroc2",), n_boot=10),
            ex.Explorer: lambda: _EXPLORER, ex.View: lambda: _VIEW,
            ex.Control: lambda: ex.control("acc", "accuracy", (0.6, 0.7, 0.8), fmt="{:.0%}"),
            dbm.DatabaseMeasures: lambda: dbm.database_bootstrap(_PADDED, [2, 3], n_boot=20,
                                                                 rng=0),
            PeopleIntervals: lambda: people_intervals(_DB, n_boot=10)}[cls]()


def _public(kind) -> dict:
    """Name -> each public object of one kind that the book's code defines (its names differ
    from the library's)."""
    return public_objects(kind, metabits_book, EXCLUDED_MODULES, taken=lib.FUNCTIONS)


def public_classes() -> dict:
    """Name -> public class of the book's code."""
    return _public(inspect.isclass)


#: Public methods of the result classes, called on a valid result (qualified as Class.name).
METHODS = {f"{q}.{m}": Method(cls, m, _instance) for q, cls in public_classes().items()
           for m in public_methods(cls)}

#: Public classes made by the user, not only by the book's code: their constructors are fuzzed.
CONSTRUCTORS = {"Control": ex.Control}

FUNCTIONS = {**_public(inspect.isfunction), **METHODS, **CONSTRUCTORS}
FUZZ = Fuzz(FUNCTIONS, CALLS, ARGS, ALIASES, EXCLUDED)
FUZZED = FUZZ.fuzzed


def test_result_classes_are_not_fuzzed_as_constructors():
    """Public classes are results (frozen dataclasses and named tuples), or the explorers'
    building blocks; their public methods are fuzzed (:data:`METHODS`), their constructors
    not, except those in :data:`CONSTRUCTORS`. Of the explorers' blocks,
    :class:`~metabits_book.explore.Explorer`, :class:`~metabits_book.explore.Panel`,
    :class:`~metabits_book.explore.Trace` and :class:`~metabits_book.explore.View` are made by the
    factories (whose arguments are fuzzed) and checked by ``frames`` when drawn;
    :class:`~metabits_book.explore.ExplorerDisplay` is made by ``show``."""
    from metabits.results import Result
    blocks = (ex.Explorer, ex.ExplorerDisplay, ex.Panel, ex.Trace, ex.View)
    for name, cls in public_classes().items():
        assert issubclass(cls, (Result, tuple, Warning)) or cls in blocks \
            or cls.__name__ in ("PaperNumber", *CONSTRUCTORS), name


def test_every_public_callable_is_fuzzed_or_excluded_with_a_reason():
    problems = FUZZ.missing()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("qualname", FUZZED)
def test_valid_call_works(qualname):
    func, kwargs, _ = FUZZ.valid_call(qualname)
    (how, what), seconds = run_limited(func, kwargs, limit=60.0)  # the first call imports
    assert how == "value", f"{qualname}(**{kwargs}) -> {how}: {what!r}"


@pytest.mark.parametrize("qualname", [n for n in FUZZED if FUZZ.mutations(n)])
def test_bad_arguments_are_refused_with_value_error(qualname):
    failures = FUZZ.refusals(qualname)
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


#: (function, parameter) pairs whose valid value is an array and that may be empty.
EMPTY_ALLOWED = {
    ("check", "answer"): "a student's answer of any kind gets a verdict, not an error",
}


@pytest.mark.parametrize("qualname, name", FUZZ.array_parameters(EMPTY_ALLOWED))
def test_empty_arrays_are_refused(qualname, name):
    """The library's rule on empty arrays (tests/lib/test_api_bad_input.py), in the book's code."""
    problem = FUZZ.empty_array_problem(qualname, name, (qualname, name) in EMPTY_ALLOWED)
    assert problem is None, problem


def test_the_fuzz_is_large_enough():
    n_mutations = sum(len(FUZZ.mutations(n)) for n in FUZZED)
    assert len(FUZZED) >= 110 and n_mutations >= 2100, (len(FUZZED), n_mutations)


# --- the results of the book's code convert to DataFrames (tests/lib/test_results.py's checks) ---

def test_every_result_gives_its_numbers_in_a_frame_and_pandas_refuses_it():
    results = test_results.results_of(FUZZ)  # made here, not while every worker collects
    assert len(results) >= 30, len(results)
    test_results.check_all(results)
