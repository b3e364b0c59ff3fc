"""Signal detection theory: d′ and c, meta-d′ and the M-ratio, criteria, classic Type 2 measures.

Type 1
    :func:`type1_sdt` (d′ and c, with their standard errors), :func:`equiprobable_criteria`.
meta-d′
    :func:`fit_meta_d` (maximum likelihood, Maniscalco & Lau, 2012; one table or a stack),
    :func:`bootstrap_meta_d`; Bayesian: :func:`fit_meta_d_bayes` and
    :func:`fit_meta_d_bayes_group` (Fleming's HMeta-d; PyMC, imported on first use),
    :func:`hmetad` (HMeta-d for a study: trials or tables, conditions within people),
    :func:`prior_predictive`, :func:`posterior_predictive`, :func:`hmetad_rating_probabilities`.
Model-based measures (maximum likelihood, as statConfR's "logN" and "CAS")
    :func:`fit_meta_noise` (meta-noise, Shekhar & Rahnev, 2021), :func:`fit_meta_uncertainty`
    (meta-uncertainty, CASANDRE, Boundy-Singer, Ziemba & Goris, 2023).
The rating model
    :func:`rating_probabilities`, :func:`simulate_ratings`.
Classic Type 2 measures
    :func:`classic_type2`, :func:`auroc2`, :func:`gamma`, :func:`phi`, :func:`type2_roc`,
    :func:`confidence_by_correctness`, :func:`dconf`; their ratio and difference forms against
    an SDT observer (Rahnev, 2025): :func:`relative_type2`.
Comparing criteria (Servajean & Servajean, 2026)
    :func:`compare_criteria`, :func:`pairwise_z_tests`, :func:`delta_variance`,
    :func:`rope_range`, :func:`rope_verdict`, :func:`se_from_ci`, :func:`trials_per_stimulus`.
"""

import importlib

from metabits.sdt._bayes_checks import (PredictiveCheck, hmetad_rating_probabilities,
                                         posterior_predictive, prior_predictive)
from metabits.sdt._criterion import (ROPE_VERDICTS, CriterionComparison, RopeRange, SDTVariance,
                                     compare_criteria, delta_variance, pairwise_z_tests,
                                     rope_range, rope_verdict, se_from_ci, trials_per_stimulus)
from metabits.sdt._meta_noise import (MetaNoiseFit, MetaUncertaintyFit, fit_meta_noise,
                                      fit_meta_uncertainty)
from metabits.sdt._metad import MetaDFit, fit_meta_d
from metabits.sdt._model import (MetaDBootstrap, Type1SDT, bootstrap_meta_d,
                                 equiprobable_criteria, rating_probabilities, simulate_ratings,
                                 type1_sdt)
from metabits.sdt._relative import RelativeType2, dconf, relative_type2
from metabits.sdt._type2_classic import (ClassicType2, auroc2, classic_type2,
                                         confidence_by_correctness, gamma, phi, type2_roc)

#: the Bayesian fits, imported on first use: PyMC, nutpie and JAX are slow to import
_BAYES = ("BayesMetaDFit", "BayesMetaDGroupFit", "fit_meta_d_bayes", "fit_meta_d_bayes_group",
          "HMetaDFit", "hmetad")
#: the module of each Bayesian name that is not metabits.sdt._bayes_metad's
_BAYES_HOMES = {"HMetaDFit": "metabits.sdt._hmetad", "hmetad": "metabits.sdt._hmetad"}

__all__ = [
    "ROPE_VERDICTS", "ClassicType2", "CriterionComparison", "MetaDBootstrap", "MetaDFit",
    "MetaNoiseFit", "MetaUncertaintyFit", "fit_meta_noise", "fit_meta_uncertainty",
    "PredictiveCheck", "RelativeType2", "RopeRange", "SDTVariance", "Type1SDT", "auroc2",
    "bootstrap_meta_d", "classic_type2", "compare_criteria", "confidence_by_correctness",
    "dconf", "delta_variance",
    "equiprobable_criteria", "fit_meta_d", "gamma", "hmetad_rating_probabilities", "pairwise_z_tests", "phi",
    "posterior_predictive", "prior_predictive", "rating_probabilities", "relative_type2",
    "rope_range",
    "rope_verdict", "se_from_ci", "simulate_ratings", "trials_per_stimulus", "type1_sdt",
    "type2_roc", *_BAYES,
]


def __getattr__(name):  # PEP 562: the Bayesian fits load on first use
    if name in _BAYES:
        return getattr(importlib.import_module(_BAYES_HOMES.get(name, "metabits.sdt._bayes_metad")),
                       name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_BAYES))
