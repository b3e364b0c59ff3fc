"""metabits: measures of metacognition, from information theory and signal detection theory.

Start here
    :func:`all_measures` and :func:`bootstrap_measures` give every measure of a stack of count
    tables (with bootstrap intervals); :func:`type2_measures` the information-theoretic ones
    (Meyen et al., 2025), :func:`classic_type2` AUROC2, gamma, phi and the meta-d′ measures,
    :func:`type1_sdt` d′ and c, :func:`fit_meta_d` maximum-likelihood meta-d′,
    :func:`fit_meta_d_bayes` and :func:`fit_meta_d_bayes_group` Bayesian meta-d′ (HMeta-d),
    :func:`oskr_from_table` and :func:`oskr_ci_from_table` OSKR (Roberts, 2026).

Packages
    :mod:`metabits.info` (information, bounds, noise classifiers, ROC), :mod:`metabits.sdt`
    (signal detection theory, meta-d′, criteria), :mod:`metabits.oskr` (OSKR),
    :mod:`metabits.group` (group accuracy), :mod:`metabits.io` (reading trials into tables),
    :mod:`metabits.resample` (the bootstrap and its intervals), :mod:`metabits.reliability`
    (split-half reliability), :mod:`metabits.validation` (the argument checks) and
    :mod:`metabits.results` (the result types).

Conventions
    A **count table** has shape ``(..., 2, 2K)``: row 0 is the stimulus S1, row 1 is S2; the 2K
    columns are the responses from "S1, most confident" to "S2, most confident" (the ``nR_S1``
    and ``nR_S2`` of metadpy and HMeta-d). Functions vectorise over the leading axes. Bad input
    raises a ``ValueError`` that names the argument and the value. Results are frozen
    dataclasses (:class:`Result`) with ``to_frame()``.
"""

import importlib

from metabits import group, info, io, oskr, reliability, resample, sdt
from metabits._bootstrap import MeasureBootstrap, bootstrap_measures
from metabits._stack import AllMeasures, all_measures
from metabits.info import type2_measures
from metabits.oskr import oskr_ci_from_table, oskr_from_table
from metabits.results import Result
from metabits.sdt import classic_type2, fit_meta_d, type1_sdt

__version__ = "0.3.0"

#: imported on first use: PyMC, nutpie and JAX (the Bayesian fits) take seconds to import
_LAZY = {"fit_meta_d_bayes": "metabits.sdt", "fit_meta_d_bayes_group": "metabits.sdt"}

__all__ = [
    "AllMeasures", "MeasureBootstrap", "Result", "all_measures", "bootstrap_measures", "classic_type2", "fit_meta_d",
    "fit_meta_d_bayes", "fit_meta_d_bayes_group", "oskr_ci_from_table", "oskr_from_table",
    "type1_sdt", "type2_measures",
    "group", "info", "io", "oskr", "reliability", "resample", "sdt",
]


def __getattr__(name):  # PEP 562: the Bayesian fits load on first use
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
