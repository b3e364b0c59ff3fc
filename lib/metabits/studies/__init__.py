"""Studies: simulations and real data, and what is computed over many data sets.

* :mod:`~metabits_book.studies.simulation` – Meyen et al.'s simulated data sets (and, re-exported,
  :mod:`~metabits_book.studies.study`'s lines and six measures and :mod:`~metabits_book.studies.mc`'s
  Monte Carlo summaries);
* :mod:`~metabits_book.studies.montecarlo` – the book's larger Monte Carlo studies (the bias of RMI
  at larger samples, the coverage of OSKR's bootstrap intervals) and Fieller's interval;
* :mod:`~metabits.studies.stack_measures` – every Type 2 measure of a stack of tables
  (:func:`~metabits.studies.stack_measures.all_measures`: the one place that computes them all;
  the functions below that report several measures choose from it);
* :mod:`~metabits.studies.measure_bootstrap` – the same measures with bootstrap intervals;
* :mod:`~metabits_book.studies.datasets` – tables from the papers and the MaskOri data;
* :mod:`~metabits.info.recoding` – recoding of predictions on observed tables;
* :mod:`~metabits.studies.reliability` – split-half reliability and within-person correlations;
* :mod:`~metabits.studies.confidence_database` – the Confidence Database (Rahnev et al., 2020):
  the loader of any data set in its format;
* :mod:`~metabits_book.studies.database_copy` – the book's compact copy of its 66 data sets;
* :mod:`~metabits_book.studies.database_measures` – every measure of every participant of the copy;
* :mod:`~metabits_book.studies.database_criteria` – Rahnev's (2025) criteria on those measures;
* :mod:`~metabits_book.studies.bayes_recovery` – parameter recovery of the Bayesian meta-d′ (coverage
  and bias of HMeta-d's posteriors beside maximum likelihood), shipped as a data file;
* :mod:`~metabits_book.studies.bayes_refits` – HMeta-d refits of Servajean's LLMs (simulated) and of
  the MaskOri people (hierarchical), shipped as data files.
"""

from metabits.studies import confidence_database, measure_bootstrap, reliability, stack_measures
from metabits.studies import tables
from metabits.studies.confidence_database import (confidence_database_citation,
                                                  confidence_database_tables,
                                                  read_confidence_database)

__all__ = ["confidence_database", "confidence_database_citation", "confidence_database_tables",
           "measure_bootstrap", "read_confidence_database", "reliability", "stack_measures",
           "tables"]
