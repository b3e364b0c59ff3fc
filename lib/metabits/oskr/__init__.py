"""OSKR, the outcome self-knowledge ratio I(S; T)/H(T) (Roberts, 2026).

Estimators
    :func:`oskr` (from per-trial outcomes and self-assessments: plug-in, Miller–Madow, KSG),
    :func:`oskr_from_table`, :func:`contingency_table`, :func:`correctness_table`.
Intervals
    :func:`oskr_ci`, :func:`oskr_ci_from_table` (percentile and BCa bootstrap).
Binary self-assessment channels
    :func:`binary_channel`, :func:`feedback_channel`, :func:`effective_error_for_oskr`,
    :func:`hit_rate_for_oskr`.
"""

from metabits.oskr._estimators import (CI_METHODS, ESTIMATORS, LOW_ENTROPY_BITS,
                                       LowOutcomeEntropyWarning, OSKREstimate, contingency_table,
                                       correctness_table, oskr, oskr_from_table)
from metabits.oskr._feedback_channel import (BinaryChannel, FeedbackChannel, binary_channel,
                                             effective_error_for_oskr, feedback_channel,
                                             hit_rate_for_oskr)
from metabits.oskr._intervals import oskr_ci, oskr_ci_from_table

__all__ = [
    "CI_METHODS", "ESTIMATORS", "LOW_ENTROPY_BITS", "BinaryChannel", "FeedbackChannel",
    "LowOutcomeEntropyWarning", "OSKREstimate", "binary_channel", "contingency_table",
    "correctness_table", "effective_error_for_oskr", "feedback_channel", "hit_rate_for_oskr",
    "oskr", "oskr_ci", "oskr_ci_from_table", "oskr_from_table",
]
