"""Signal detection theory: the Type 1 and Type 2 model, meta-d′, criteria and the classic Type 2
measures.

* :mod:`~metabits.sdt.model` – Type 1 SDT, the Type 2 rating model, simulated ratings and the
  bootstrap of meta-d′ (its names are also this package's, as ``metabits.sdt`` was that module);
* :mod:`~metabits.sdt.metad` – maximum-likelihood meta-d′ (one table or stacks);
* :mod:`~metabits.sdt.bayes_metad` – Bayesian meta-d′ (HMeta-d; PyMC, imported on first use);
* :mod:`~metabits.sdt.bayes_checks` – predictive checks of those fits (the parameter-recovery
  study moved to :mod:`metabits_book.studies.bayes_recovery`; its names are still importable here);
* :mod:`~metabits.sdt.criterion` – Servajean & Servajean's criterion comparisons;
* :mod:`~metabits.sdt.type2_classic` – type 2 ROC, AUROC2, gamma, phi, meta-d′ − d′.
"""

from metabits.sdt import model
from metabits.sdt.model import *  # noqa: F401,F403  (metabits.sdt was this module)
from metabits.sdt import metad, criterion, type2_classic  # noqa: I001
from metabits.sdt import bayes_checks
from metabits.sdt.bayes_checks import PredictiveCheck, posterior_predictive, prior_predictive

__all__ = list(model.__all__) + list(bayes_checks.__all__)
