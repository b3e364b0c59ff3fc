"""metabits: measuring metacognition with information theory and signal detection theory.

The library behind the book reproducing Meyen et al. (2025), Servajean & Servajean (2026) and
Roberts (2026). One module per idea:

* :mod:`metabits.information` – confidence, accuracy and transmitted information (Props. 1–2)
* :mod:`metabits.bounds` – accuracy bounds on the information (Theorems 3 and 6)
* :mod:`metabits.noise` – the uniform, normal and binary noise classifiers (Figure 2)
* :mod:`metabits.roc` – ROC bounds (Propositions 4–5) and the noise classifiers' ROC curves
* :mod:`metabits.measures` – meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI from counts (Tables 1–2)
* :mod:`metabits.plotting` – the book's colours and deterministic figure files
"""

from .bounds import (info_bounds, info_lower_bound, info_upper_bound, max_info_classifier,
                     min_info_classifier)
from .information import (accuracy, binary_entropy, entropy, mutual_information, pti,
                          transmitted_information)
from .measures import Type2Measures, meta_I_normal, response_table, type2_measures
from .noise import (NOISE_TYPES, accuracy_from_dprime, confidence_from_observation,
                    discrete_confidence, dprime_from_accuracy, noise_info, normal_confidence_pdf,
                    normal_info, observation_pdf)
from . import datasets, plotting
from .roc import roc_bounds_type1, roc_bounds_type2, roc_curve_type1, roc_curve_type2

__version__ = "0.1.0"

__all__ = [
    "NOISE_TYPES", "Type2Measures", "accuracy", "accuracy_from_dprime", "binary_entropy",
    "confidence_from_observation", "discrete_confidence", "dprime_from_accuracy", "entropy",
    "info_bounds", "info_lower_bound", "info_upper_bound", "max_info_classifier", "meta_I_normal",
    "min_info_classifier", "mutual_information", "noise_info", "normal_confidence_pdf",
    "normal_info", "observation_pdf", "pti", "response_table", "roc_bounds_type1",
    "roc_bounds_type2", "roc_curve_type1", "roc_curve_type2", "transmitted_information",
    "type2_measures",
]
