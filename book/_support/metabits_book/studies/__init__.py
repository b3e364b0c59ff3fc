"""The papers' data and the book's studies of them.

* :mod:`~metabits_book.studies.datasets` – tables from the papers and the MaskOri data;
* :mod:`~metabits_book.studies.simulation`, :mod:`~metabits_book.studies.mc` – Meyen et al.'s
  simulation study (Figures 6–7) and its Monte Carlo summaries;
* :mod:`~metabits_book.studies.montecarlo` – the book's larger Monte Carlo studies (the bias of
  RMI at larger samples, the coverage of OSKR's bootstrap intervals) and Fieller's interval;
* :mod:`~metabits_book.studies.database_copy` – the book's compact copy of 66 data sets of the
  Confidence Database, with :mod:`~metabits_book.studies.database_measures`,
  :mod:`~metabits_book.studies.database_criteria`, :mod:`~metabits_book.studies.database_precision`,
  :mod:`~metabits_book.studies.database_assessment` and
  :mod:`~metabits_book.studies.database_intervals` (every measure of every participant, Rahnev's
  (2025) criteria, precision, all 22 measures on his criteria and the shipped intervals);
* :mod:`~metabits_book.studies.bayes_recovery` – parameter recovery of the Bayesian meta-d′;
* :mod:`~metabits_book.studies.hmetad_study` – recovery and simulation-based calibration of
  HMeta-d with conditions within people, and the MaskOri people across two SOAs;
* :mod:`~metabits_book.studies.hmetad_sd_prior` – the two-condition model with HMeta-d
  groupCorr's gamma prior on the group SDs beside Fleming's, fitted to the MaskOri people;
* :mod:`~metabits_book.studies.bayes_refits` – HMeta-d refits of Servajean's LLMs and of the
  MaskOri people.
"""
