"""Studies: simulations and real data, and what is computed over many data sets.

* :mod:`~metabits.studies.simulation` – Meyen et al.'s simulated data sets (and, re-exported,
  :mod:`~metabits.studies.study`'s lines and six measures and :mod:`~metabits.studies.mc`'s
  Monte Carlo summaries);
* :mod:`~metabits.studies.measure_bootstrap` – every Type 2 measure of many tables with
  bootstrap intervals;
* :mod:`~metabits.studies.datasets` – tables from the papers and the MaskOri data;
* :mod:`~metabits.studies.bayes_recoding` – recoding of predictions on observed tables;
* :mod:`~metabits.studies.reliability` – split-half reliability and within-person correlations.
"""

from . import simulation, mc, study, measure_bootstrap, datasets, bayes_recoding, reliability  # noqa: I001

__all__ = ["bayes_recoding", "datasets", "mc", "measure_bootstrap", "reliability", "simulation",
           "study"]
