"""metabits: measuring metacognition with information theory and signal detection theory.

The library behind the book reproducing Meyen et al. (2025), Servajean & Servajean (2026) and
Roberts (2026). One module per idea:

* :mod:`metabits.information` – confidence, accuracy and transmitted information (Props. 1–2)
* :mod:`metabits.bounds` – accuracy bounds on the information (Theorems 3 and 6)
* :mod:`metabits.noise` – the uniform, normal and binary noise classifiers (Figure 2)
* :mod:`metabits.roc` – ROC bounds (Propositions 4–5) and the noise classifiers' ROC curves
* :mod:`metabits.measures` – meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI from counts (Tables 1–2)
* :mod:`metabits.metad` – maximum-likelihood meta-d′ and M-ratio (Maniscalco & Lau, 2012)
* :mod:`metabits.simulation` – the noise classifiers' data sets and the study of Figures 6–7
* :mod:`metabits.group` – MV, CWMV, PCWMV, Theorem 8 and group simulations (Figure 8)
* :mod:`metabits.datasets` – tables copied from the papers, with their sources
* :mod:`metabits.plotting` – the book's colours and deterministic figure files
"""

from .bounds import (info_bounds, info_lower_bound, info_upper_bound, max_info_classifier,
                     min_info_classifier)
from .information import (accuracy, binary_entropy, entropy, mutual_information, pti,
                          transmitted_information)
from .metad import MetaDFit, fit_meta_d, fit_meta_d_many
from .measures import Type2Measures, meta_I_normal, response_table, type2_measures
from .noise import (NOISE_TYPES, accuracy_from_dprime, confidence_from_observation,
                    discrete_confidence, dprime_from_accuracy, noise_info, normal_confidence_pdf,
                    normal_info, observation_pdf)
from . import datasets, plotting, simulation
from .group import (confidence_member, cwmv_accuracy, group_accuracy_bounds, lattice_member,
                    member_confidence, theorem8_upper_as_printed,
                    majority_vote_accuracy, max_group_member, min_group_member, noise_group,
                    noise_member, pcwmv, simulate_pcwmv, simulate_students)
from .roc import (prop4_lower_edge_classifiers, roc_bounds_type1, roc_bounds_type2, roc_curve_type1,
                  roc_curve_type2, roc_from_responses, roc_type2_from_confidence)

__version__ = "0.1.0"

__all__ = [
    "MetaDFit", "datasets", "fit_meta_d", "fit_meta_d_many", "plotting", "simulation",
    "NOISE_TYPES", "Type2Measures", "confidence_member", "cwmv_accuracy", "group_accuracy_bounds",
    "lattice_member", "majority_vote_accuracy", "max_group_member", "min_group_member",
    "noise_group", "noise_member", "pcwmv", "simulate_pcwmv", "simulate_students",
    "member_confidence", "theorem8_upper_as_printed", "accuracy", "accuracy_from_dprime", "binary_entropy",
    "confidence_from_observation", "discrete_confidence", "dprime_from_accuracy", "entropy",
    "info_bounds", "info_lower_bound", "info_upper_bound", "max_info_classifier", "meta_I_normal",
    "min_info_classifier", "mutual_information", "noise_info", "normal_confidence_pdf",
    "normal_info", "observation_pdf", "prop4_lower_edge_classifiers", "pti", "response_table",
    "roc_bounds_type1", "roc_from_responses", "roc_type2_from_confidence",
    "roc_bounds_type2", "roc_curve_type1", "roc_curve_type2", "transmitted_information",
    "type2_measures",
]
