"""Information: what a classifier's confidences transmit about the labels (Meyen et al., 2025).

Measures of metacognition from a table of counts
    :func:`type2_measures` (meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI, with Monte Carlo bias
    reduction), :func:`response_table`, :func:`meta_I_normal`, :data:`INFO_MEASURES`.
Confidence and information
    :func:`accuracy`, :func:`transmitted_information`, :func:`mutual_information`,
    :func:`entropy`, :func:`binary_entropy`, :func:`pti` (Propositions 1–2).
Bounds (Theorems 3 and 6)
    :func:`info_bounds`, :func:`info_lower_bound`, :func:`info_upper_bound`,
    :func:`min_info_classifier`, :func:`max_info_classifier`.
The three noise classifiers (Figure 2)
    :func:`noise_info`, :func:`normal_info`, :func:`discrete_confidence`,
    :func:`confidence_from_observation`, :func:`observation_pdf`,
    :func:`normal_confidence_pdf`, :func:`sample_observations`, :func:`accuracy_from_dprime`,
    :func:`dprime_from_accuracy`, :data:`NOISE_TYPES`.
ROC curves and their bounds (Propositions 4–5)
    :func:`roc_curve_type1`, :func:`roc_curve_type2`, :func:`roc_bounds_type1`,
    :func:`roc_bounds_type2`, :func:`roc_from_responses`, :func:`roc_type2_from_confidence`,
    :func:`prop4_lower_edge_classifiers`.
Binning, relabelling, recoding and calibration
    :func:`best_binning`, :func:`binned_response_probabilities`, :func:`reported_measures`,
    :func:`swap_confidence`, :func:`invert_predictions`, :func:`calibration_error`,
    :func:`recoding`, :func:`fit_log_odds_map`, :func:`distort_confidence`,
    :func:`log_odds_weights`.
"""

from metabits.info._binning import BestBinning, best_binning, binned_response_probabilities
from metabits.info._bounds import (info_bounds, info_lower_bound, info_upper_bound,
                                   max_info_classifier, min_info_classifier)
from metabits.info._calibration import (LogOddsMap, distort_confidence, fit_log_odds_map,
                                        log_odds_weights)
from metabits.info._information import (accuracy, binary_entropy, entropy, mutual_information,
                                        pti, transmitted_information)
from metabits.info._measures import (INFO_MEASURES, ResponseTable, Type2Measures, meta_I_normal,
                                     response_table, type2_measures)
from metabits.info._noise import (NOISE_TYPES, accuracy_from_dprime, confidence_from_observation,
                                  discrete_confidence, dprime_from_accuracy, noise_info,
                                  normal_confidence_pdf, normal_info, observation_pdf,
                                  sample_observations)
from metabits.info._recoding import Recoding, recoding
from metabits.info._relabel import (ReportedMeasures, calibration_error, invert_predictions,
                                    reported_measures, swap_confidence)
from metabits.info._roc import (EdgeClassifiers, prop4_lower_edge_classifiers, roc_bounds_type1,
                                roc_bounds_type2, roc_curve_type1, roc_curve_type2,
                                roc_from_responses, roc_type2_from_confidence)

__all__ = [
    "INFO_MEASURES", "NOISE_TYPES", "BestBinning", "EdgeClassifiers", "LogOddsMap", "Recoding",
    "ReportedMeasures", "ResponseTable", "Type2Measures", "accuracy", "accuracy_from_dprime",
    "best_binning", "binary_entropy", "binned_response_probabilities", "calibration_error",
    "confidence_from_observation", "discrete_confidence", "distort_confidence",
    "dprime_from_accuracy", "entropy", "fit_log_odds_map", "info_bounds", "info_lower_bound",
    "info_upper_bound", "invert_predictions", "log_odds_weights", "max_info_classifier",
    "meta_I_normal", "min_info_classifier", "mutual_information", "noise_info",
    "normal_confidence_pdf", "normal_info", "observation_pdf", "prop4_lower_edge_classifiers",
    "pti", "recoding", "reported_measures", "response_table", "roc_bounds_type1",
    "roc_bounds_type2", "roc_curve_type1", "roc_curve_type2", "roc_from_responses",
    "roc_type2_from_confidence", "sample_observations", "swap_confidence",
    "transmitted_information", "type2_measures",
]
