"""metabits: measures of metacognition, from information theory and signal detection theory.

Start here
    :func:`measure` gives every measure of each subject (and condition) of a table of trials,
    with intervals and flags; :func:`read_trials` reads the trials and reports on them.
    :func:`all_measures` and :func:`bootstrap_measures` give every measure of a stack of count
    tables (with bootstrap intervals); :func:`type2_measures` the information-theoretic ones
    (Meyen et al., 2025), :func:`classic_type2` AUROC2, gamma, phi and the meta-d′ measures,
    :func:`type1_sdt` d′ and c, :func:`fit_meta_d` maximum-likelihood meta-d′,
    :func:`fit_meta_d_bayes` and :func:`fit_meta_d_bayes_group` Bayesian meta-d′ (HMeta-d),
    :func:`hmetad` HMeta-d for a study's trials, with conditions within people,
    :func:`fit_meta_noise` and :func:`fit_meta_uncertainty` the model-based meta-noise and
    meta-uncertainty,
    :func:`oskr_from_table` and :func:`oskr_ci_from_table` OSKR (Roberts, 2026).
    :data:`MEASURES` describes every measure of a count table (name, label, family, whether it
    can be bias-reduced, whether it needs a fit); these functions, the figures and the command
    line read it.

Packages
    :mod:`metabits.info` (information, bounds, noise classifiers, ROC), :mod:`metabits.sdt`
    (signal detection theory, meta-d′, criteria), :mod:`metabits.oskr` (OSKR),
    :mod:`metabits.group` (group accuracy), :mod:`metabits.io` (reading trials into tables),
    :mod:`metabits.resample` (the bootstrap and its intervals), :mod:`metabits.reliability`
    (split-half reliability), :mod:`metabits.plots` (figures of one's own data),
    :mod:`metabits.validation` (the argument checks) and :mod:`metabits.results` (the result
    types). The command line ``metabits`` (``python -m metabits``) runs :func:`measure` and
    :func:`hmetad` on a file.

Conventions
    A **count table** has shape ``(..., 2, 2K)``: row 0 is the stimulus S1, row 1 is S2; the 2K
    columns are the responses from "S1, most confident" to "S2, most confident" (the ``nR_S1``
    and ``nR_S2`` of metadpy and HMeta-d). Functions vectorise over the leading axes. Bad input
    raises a ``ValueError`` that names the argument and the value. Results are frozen
    dataclasses (:class:`metabits.results.Result`) with ``to_frame()``.
"""

import importlib

__version__ = "0.3.0"

#: where each public name lives: everything loads on first use, so that ``import metabits`` (and
#: the command line's ``--help``) imports neither NumPy nor SciPy
_HOMES = {
    "MEASURES": "metabits._registry",
    "MEASURE_COLUMNS": "metabits._measure", "measure": "metabits._measure",
    "read_trials": "metabits.io",
    "AllMeasures": "metabits._stack", "all_measures": "metabits._stack",
    "MeasureBootstrap": "metabits._bootstrap", "bootstrap_measures": "metabits._bootstrap",
    "Result": "metabits.results",
    "classic_type2": "metabits.sdt", "fit_meta_d": "metabits.sdt", "type1_sdt": "metabits.sdt",
    "fit_meta_d_bayes": "metabits.sdt", "fit_meta_d_bayes_group": "metabits.sdt",
    "hmetad": "metabits.sdt",
    "fit_meta_noise": "metabits.sdt", "fit_meta_uncertainty": "metabits.sdt",
    "type2_measures": "metabits.info",
    "oskr_ci_from_table": "metabits.oskr", "oskr_from_table": "metabits.oskr",
}
_PACKAGES = ("group", "info", "io", "oskr", "plots", "reliability", "resample", "results",
             "sdt", "validation")

#: ``Result`` (the base of the result types) is importable from here too, but listed in
#: :mod:`metabits.results` only.
__all__ = [
    "MEASURES", "MEASURE_COLUMNS", "measure", "read_trials",
    "AllMeasures", "MeasureBootstrap", "all_measures", "bootstrap_measures",
    "classic_type2", "fit_meta_d", "fit_meta_d_bayes", "fit_meta_d_bayes_group", "hmetad",
    "fit_meta_noise", "fit_meta_uncertainty",
    "oskr_ci_from_table", "oskr_from_table", "type1_sdt", "type2_measures",
    "group", "info", "io", "oskr", "plots", "reliability", "resample", "sdt",
]


def __getattr__(name):  # PEP 562: each name and package loads on first use
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    elif name in _PACKAGES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOMES) | set(_PACKAGES))
