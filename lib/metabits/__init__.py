"""metabits: measuring metacognition with information theory and signal detection theory.

The library behind the book reproducing Meyen et al. (2025), Servajean & Servajean (2026) and
Roberts (2026). Packages by idea, one module per idea inside them (the old flat module names,
e.g. ``metabits.info.measures``, still import, as aliases):

**metabits.info** – information

* :mod:`metabits.info.information` – confidence, accuracy and transmitted information (Props. 1–2)
* :mod:`metabits.info.bounds` – accuracy bounds on the information (Theorems 3 and 6)
* :mod:`metabits.info.noise` – the uniform, normal and binary noise classifiers (Figure 2)
* :mod:`metabits.info.roc` – ROC bounds (Propositions 4–5) and the noise classifiers' ROC curves
* :mod:`metabits.info.measures` – meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI from counts (Tables 1–2)
* :mod:`metabits.info.relabel` – relabelled and re-coded responses; Dayan's reported-prediction
  measures (what the information measures do not see)
* :mod:`metabits.info.binning` – exact tables under any confidence bins, and the best bins
* :mod:`metabits.info.calibration` – linear-in-log-odds distortion and recalibration
  (Zhang & Maloney, 2012)

**metabits.sdt** – signal detection theory

* :mod:`metabits.sdt.model` – Type 1 d′ and c, the meta-d′ model's rating probabilities,
  simulated confidence-rating data and bootstrap intervals (Servajean & Servajean, 2026); its
  names are also ``metabits.sdt``'s
* :mod:`metabits.sdt.metad` – maximum-likelihood meta-d′ and M-ratio (Maniscalco & Lau, 2012)
* :mod:`metabits.sdt.bayes_metad` – Bayesian meta-d′, Fleming's HMeta-d model for one subject and
  a group (PyMC + nutpie; imported on first use)
* :mod:`metabits.sdt.bayes_checks` – prior and posterior predictive checks of those fits
* :mod:`metabits.sdt.criterion` – Delta-method z tests between criteria, Bonferroni, ROPE rules
* :mod:`metabits.sdt.type2_classic` – type 2 ROC, AUROC2, gamma, phi, meta-d′ − d′

**metabits.oskr** – outcome-specific knowledge retention (Roberts)

* :mod:`metabits.oskr.estimators`, :mod:`metabits.oskr.intervals` – OSKR = I(S; T)/H(T), its
  estimators and bootstrap intervals; their names are also ``metabits.oskr``'s
* :mod:`metabits.oskr.feedback_channel` – binary self-assessment channels in closed form
* :mod:`metabits_book.cognitive_chain` – the essay's eight operations, profiles and routing

**metabits.studies** – simulations and data

* :mod:`metabits_book.studies.simulation` – the noise classifiers' data sets, with
  :mod:`metabits_book.studies.study` (the study of Figures 6–7) and :mod:`metabits_book.studies.mc`
  (Monte Carlo summaries with their standard errors)
* :mod:`metabits.studies.stack_measures` – every Type 2 measure of a stack of tables
  (:func:`all_measures`, the one place that computes them all), and
  :mod:`metabits.studies.measure_bootstrap` – the same with bootstrap intervals
* :mod:`metabits_book.studies.bayes_recovery` – parameter recovery of the Bayesian meta-d′ (coverage
  of the posterior intervals, bias beside maximum likelihood)
* :mod:`metabits.info.recoding` – Meyen et al.'s recoding of predictions on observed
  tables
* :mod:`metabits.studies.reliability` – split-half reliability and within-person correlations of
  measures across people
* :mod:`metabits_book.studies.datasets` – tables copied from the papers, with their sources, and the
  MaskOri data of 16 people (Hellmann, Zehetleitner & Rausch, 2023)

* :mod:`metabits_book.studies.montecarlo` – the larger Monte Carlo studies of the corrections
  (RMI's bias at larger samples, OSKR interval coverage) and Fieller's interval
* :mod:`metabits.studies.confidence_database`, :mod:`metabits_book.studies.database_copy`,
  :mod:`metabits_book.studies.database_measures`, :mod:`metabits_book.studies.database_criteria` – the
  Confidence Database: its loader, the book's copy, every measure of every participant and
  Rahnev's (2025) criteria

**At the top**

* :mod:`metabits.group` – MV, CWMV, PCWMV, Theorem 8 and group simulations (Figure 8)
* :mod:`metabits.resample` – the one resampler of count tables (every bootstrap and the bias
  reduction) and the percentile and BCa intervals
* :mod:`metabits_book.plotting` – Figures 6–7 of Meyen et al. (imported on first use, so that
  ``import metabits`` does not load matplotlib); :mod:`metabits_book.palette` – the colours of the
  figures and the explorers
* :mod:`metabits_book.explore` – the explorers: a library function, its controls' grid, a static
  website rendering and a live one in a kernel (Parts I and III)
* :mod:`metabits_book.roberts2026` – the settings Roberts (2026) prints in its demos
* :mod:`metabits_book` – book-only code: the registry of paper numbers, the figure style, the
  notebooks' ``glue`` (not imported by ``import metabits``)

Conventions, each with one home:

* **Tables** (:mod:`metabits._validate`): shape ``(..., 2, 2K)``; row 0 is S1 (Y = −1), row 1
  is S2 (Y = +1); columns from "S1, most confident" to "S2, most confident" — rows are the
  ``nR_S1`` / ``nR_S2`` of metadpy and HMeta-d. Count tables hold counts, a group member's
  response table the probabilities :math:`P(r \\mid Y)`.
* **Input checks** (:mod:`metabits._validate`): bad input raises a ``ValueError`` naming the
  problem.
* **Results** (:mod:`metabits._results`): several named results come back as a frozen
  dataclass that is also a read-only mapping (:class:`Result`); a pair meant to be unpacked as a
  :class:`~typing.NamedTuple` (:class:`Bounds`, :class:`Curve`, :class:`Distribution`).
"""

from metabits import info, resample, sdt, studies
from metabits.info import binning, bounds, calibration, information, measures, noise, relabel, roc
from metabits.sdt import bayes_checks, criterion, metad, type2_classic
from metabits.oskr import feedback_channel
from metabits.info import recoding
from metabits.studies import measure_bootstrap, reliability
from metabits import group
from metabits._results import Bounds, Curve, Distribution, Result
from metabits.info.bounds import (info_bounds, info_lower_bound, info_upper_bound, max_info_classifier,
                                  min_info_classifier)
from metabits.sdt.criterion import (CriterionComparison, RopeRange, SDTVariance, compare_criteria,
                                    delta_variance, pairwise_z_tests, rope_range, rope_verdict,
                                    se_from_ci, trials_per_stimulus)
from metabits.group import (GroupResult, SimulatedAccuracy, StudentsResult, confidence_member,
                            cwmv_accuracy, group_accuracy_bounds, lattice_member,
                            majority_vote_accuracy, max_group_member, member_confidence,
                            min_group_member, noise_group, noise_member, pcwmv, simulate_pcwmv,
                            simulate_students, theorem8_upper_as_printed)
from metabits.info.information import (accuracy, binary_entropy, entropy, mutual_information, pti,
                                       transmitted_information)
from metabits.info.measures import (ResponseTable, Type2Measures, meta_I_normal, response_table,
                                    type2_measures)
from metabits.sdt.metad import MetaDFit, fit_meta_d, fit_meta_d_many
from metabits.sdt.bayes_checks import PredictiveCheck, posterior_predictive, prior_predictive
from metabits.oskr.feedback_channel import (BinaryChannel, FeedbackChannel, binary_channel,
                                            effective_error_for_oskr, feedback_channel, hit_rate_for_oskr)
from metabits.oskr import (LowOutcomeEntropyWarning, OSKREstimate, contingency_table, correctness_table,
                           oskr, oskr_ci, oskr_ci_from_table, oskr_from_table)
from metabits.info.noise import (NOISE_TYPES, accuracy_from_dprime, confidence_from_observation,
                                 discrete_confidence, dprime_from_accuracy, noise_info,
                                 normal_confidence_pdf, normal_info, observation_pdf, sample_observations)
from metabits.info.roc import (EdgeClassifiers, prop4_lower_edge_classifiers, roc_bounds_type1,
                               roc_bounds_type2, roc_curve_type1, roc_curve_type2, roc_from_responses,
                               roc_type2_from_confidence)
from metabits.sdt import (MetaDBootstrap, Type1SDT, bootstrap_meta_d, equiprobable_criteria,
                          rating_probabilities, simulate_ratings, type1_sdt)
from metabits.sdt.type2_classic import (ClassicType2, auroc2, classic_type2, confidence_by_correctness,
                                        gamma, phi, type2_roc)
from metabits.info.recoding import Recoding, recoding
from metabits.studies.measure_bootstrap import MeasureBootstrap, bootstrap_measures
from metabits.studies.stack_measures import AllMeasures, all_measures
from metabits.studies.confidence_database import read_confidence_database


__version__ = "0.2.0"

_LAZY = {"bayes_metad": "sdt.bayes_metad"}
#: names imported from a module on first use: PyMC, nutpie and JAX take seconds to import
_LAZY_NAMES = {name: "sdt.bayes_metad" for name in
               ("BayesMetaDFit", "BayesMetaDGroupFit", "fit_meta_d_bayes", "fit_meta_d_bayes_group")}


def __getattr__(name):  # PEP 562: metabits_book.plotting and the Bayesian fits load on first use
    import importlib

    if name in _LAZY:
        return importlib.import_module(f".{_LAZY[name]}", __name__)
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
    raise AttributeError(f"module 'metabits' has no attribute {name!r}")


__all__ = [
    # packages and modules
    "info", "sdt", "studies", "group", "resample",
    "criterion", "binning", "calibration", "relabel",
    # result types
    "Bounds", "Curve", "Distribution", "EdgeClassifiers", "GroupResult", "MetaDFit", "Result",
    "ResponseTable", "SimulatedAccuracy", "StudentsResult", "Type2Measures",
    # information and bounds
    "accuracy", "binary_entropy", "entropy", "info_bounds", "info_lower_bound",
    "info_upper_bound", "max_info_classifier", "min_info_classifier", "mutual_information",
    "pti", "transmitted_information",
    # noise classifiers
    "NOISE_TYPES", "accuracy_from_dprime", "confidence_from_observation", "discrete_confidence",
    "dprime_from_accuracy", "noise_info", "normal_confidence_pdf", "normal_info",
    "observation_pdf", "sample_observations",
    # ROC
    "prop4_lower_edge_classifiers", "roc_bounds_type1", "roc_bounds_type2", "roc_curve_type1",
    "roc_curve_type2", "roc_from_responses", "roc_type2_from_confidence",
    # Type 2 measures
    "fit_meta_d", "fit_meta_d_many", "meta_I_normal",
    # Bayesian meta-d′ (HMeta-d), imported on first use
    "bayes_metad", "BayesMetaDFit", "BayesMetaDGroupFit", "fit_meta_d_bayes",
    "fit_meta_d_bayes_group", "response_table", "type2_measures",
    # checks of the Bayesian fits: predictive checks, parameter recovery
    "bayes_checks", "PredictiveCheck", "posterior_predictive", "prior_predictive",
    # OSKR and binary self-assessment channels (Roberts, 2026)
    "BinaryChannel", "FeedbackChannel", "LowOutcomeEntropyWarning", "OSKREstimate",
    "binary_channel", "contingency_table", "correctness_table", "effective_error_for_oskr",
    "feedback_channel", "hit_rate_for_oskr", "oskr", "oskr_ci", "oskr_ci_from_table",
    "oskr_from_table",
    # groups
    "confidence_member", "cwmv_accuracy", "group_accuracy_bounds", "lattice_member",
    "majority_vote_accuracy", "max_group_member", "member_confidence", "min_group_member",
    "noise_group", "noise_member", "pcwmv", "simulate_pcwmv", "simulate_students",
    "theorem8_upper_as_printed",
    # signal detection and criteria (Servajean & Servajean, 2026)
    "CriterionComparison", "MetaDBootstrap", "RopeRange", "SDTVariance", "Type1SDT",
    "bootstrap_meta_d", "compare_criteria", "delta_variance", "equiprobable_criteria",
    "pairwise_z_tests", "rating_probabilities", "rope_range", "rope_verdict", "se_from_ci",
    "simulate_ratings", "trials_per_stimulus", "type1_sdt",
    # classic Type 2 measures, recoding and all measures with bootstrap intervals (real data)
    "recoding", "measure_bootstrap", "reliability", "resample", "type2_classic",
    "AllMeasures", "ClassicType2", "MeasureBootstrap", "Recoding", "all_measures", "auroc2",
    "bootstrap_measures", "classic_type2", "confidence_by_correctness", "gamma", "phi",
    "type2_roc", "read_confidence_database",
]
