"""metabits: measuring metacognition with information theory and signal detection theory.

The library behind the book reproducing Meyen et al. (2025), Servajean & Servajean (2026) and
Roberts (2026). One module per idea:

* :mod:`metabits.information` – confidence, accuracy and transmitted information (Props. 1–2)
* :mod:`metabits.bounds` – accuracy bounds on the information (Theorems 3 and 6)
* :mod:`metabits.noise` – the uniform, normal and binary noise classifiers (Figure 2)
* :mod:`metabits.roc` – ROC bounds (Propositions 4–5) and the noise classifiers' ROC curves
* :mod:`metabits.measures` – meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI from counts (Tables 1–2)
* :mod:`metabits.metad` – maximum-likelihood meta-d′ and M-ratio (Maniscalco & Lau, 2012)
* :mod:`metabits.bayes_metad` – Bayesian meta-d′, Fleming's HMeta-d model for one subject and a
  group (PyMC + nutpie; imported on first use)
* :mod:`metabits.sdt` – Type 1 d′ and c, the meta-d′ model's rating probabilities, simulated
  confidence-rating data and bootstrap intervals (Servajean & Servajean, 2026)
* :mod:`metabits.criterion` – Delta-method z tests between criteria, Bonferroni, ROPE rules
* :mod:`metabits.simulation` – the noise classifiers' data sets and the study of Figures 6–7
* :mod:`metabits.oskr` – OSKR = I(S; T)/H(T), its estimators and bootstrap intervals (Roberts)
* :mod:`metabits.feedback_channel` – binary self-assessment channels in closed form (Roberts)
* :mod:`metabits.cognitive_chain` – the essay's eight operations, profiles and routing (Roberts)
* :mod:`metabits.group` – MV, CWMV, PCWMV, Theorem 8 and group simulations (Figure 8)
* :mod:`metabits.relabel` – relabelled and re-coded responses; Dayan's reported-prediction
  measures (what the information measures do not see)
* :mod:`metabits.binning` – exact tables under any confidence bins, and the best bins
* :mod:`metabits.calibration` – linear-in-log-odds distortion and recalibration
  (Zhang & Maloney, 2012)
* :mod:`metabits.type2_classic` – type 2 ROC, AUROC2, gamma, phi, meta-d′ − d′
* :mod:`metabits.bayes_recoding` – Meyen et al.'s recoding of predictions on observed tables
* :mod:`metabits.measure_bootstrap` – every Type 2 measure of many tables with bootstrap
  intervals
* :mod:`metabits.datasets` – tables copied from the papers, with their sources, and the MaskOri
  data of 16 people (Hellmann, Zehetleitner & Rausch, 2023)
* :mod:`metabits.plotting` – the book's colours and deterministic figure files (imported on
  first use, so that ``import metabits`` does not load matplotlib)

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

from . import criterion, datasets, group, sdt, simulation
from . import binning, calibration, relabel
from . import bayes_recoding, measure_bootstrap, type2_classic
from ._results import Bounds, Curve, Distribution, Result
from .bounds import (info_bounds, info_lower_bound, info_upper_bound, max_info_classifier,
                     min_info_classifier)
from .criterion import (CriterionComparison, RopeRange, SDTVariance, compare_criteria,
                        delta_variance, pairwise_z_tests, rope_range, rope_verdict, se_from_ci,
                        trials_per_stimulus)
from .group import (GroupResult, SimulatedAccuracy, StudentsResult, confidence_member,
                    cwmv_accuracy, group_accuracy_bounds, lattice_member,
                    majority_vote_accuracy, max_group_member, member_confidence,
                    min_group_member, noise_group, noise_member, pcwmv, simulate_pcwmv,
                    simulate_students, theorem8_upper_as_printed)
from .information import (accuracy, binary_entropy, entropy, mutual_information, pti,
                          transmitted_information)
from .measures import ResponseTable, Type2Measures, meta_I_normal, response_table, type2_measures
from .metad import MetaDFit, fit_meta_d, fit_meta_d_many
from .feedback_channel import (BinaryChannel, FeedbackChannel, binary_channel,
                               effective_error_for_oskr, feedback_channel, hit_rate_for_oskr)
from .oskr import (LowOutcomeEntropyWarning, OSKREstimate, contingency_table, correctness_table,
                   oskr, oskr_ci, oskr_ci_from_table, oskr_from_table)
from . import cognitive_chain  # noqa: E402  (after .oskr, which it uses)
from .noise import (NOISE_TYPES, accuracy_from_dprime, confidence_from_observation,
                    discrete_confidence, dprime_from_accuracy, noise_info, normal_confidence_pdf,
                    normal_info, observation_pdf, sample_observations)
from .roc import (EdgeClassifiers, prop4_lower_edge_classifiers, roc_bounds_type1,
                  roc_bounds_type2, roc_curve_type1, roc_curve_type2, roc_from_responses,
                  roc_type2_from_confidence)
from .sdt import (MetaDBootstrap, Type1SDT, bootstrap_meta_d, equiprobable_criteria,
                  rating_probabilities, simulate_ratings, type1_sdt)
from .type2_classic import (ClassicType2, auroc2, classic_type2, confidence_by_correctness,
                           gamma, phi, type2_roc)
from .bayes_recoding import Recoding, recoding
from .measure_bootstrap import AllMeasures, MeasureBootstrap, all_measures, bootstrap_measures

__version__ = "0.2.0"

_LAZY = ("plotting", "bayes_metad")
#: names imported from a module on first use: PyMC, nutpie and JAX take seconds to import
_LAZY_NAMES = {name: "bayes_metad" for name in
               ("BayesMetaDFit", "BayesMetaDGroupFit", "fit_meta_d_bayes", "fit_meta_d_bayes_group")}


def __getattr__(name):  # PEP 562: metabits.plotting and the Bayesian fits load on first use
    import importlib

    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
    raise AttributeError(f"module 'metabits' has no attribute {name!r}")


__all__ = [
    # modules
    "criterion", "datasets", "group", "plotting", "sdt", "simulation",
    "binning", "calibration", "relabel",
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
    # OSKR and binary self-assessment channels (Roberts, 2026)
    "cognitive_chain",
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
    "bayes_recoding", "measure_bootstrap", "type2_classic",
    "AllMeasures", "ClassicType2", "MeasureBootstrap", "Recoding", "all_measures", "auroc2",
    "bootstrap_measures", "classic_type2", "confidence_by_correctness", "gamma", "phi",
    "type2_roc",
]
