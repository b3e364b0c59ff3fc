"""Reading trials: files and data frames into count tables.

:func:`read_trials` reads a researcher's trials (a data frame or a CSV file, a Confidence
Database file included) into harmonised :class:`Trials`, with one count table per subject and
condition (:meth:`Trials.tables`) and a report of what was read (:meth:`Trials.check`).
:func:`read_confidence_database` reads a data set of the Confidence Database (Rahnev et al.,
2020) with its own harmonisation, and :func:`count_tables` counts trials with coded columns
into tables on a grid of grouping values. :func:`stack_tables` puts tables of different
confidence scales (K) into one zero-padded array, and :func:`merge_levels` removes a confidence
criterion from every table of such a stack.
"""

from metabits.io._columns import MAX_LEVELS, MISSING_MARKERS
from metabits.io._confidence_database import (confidence_database_citation,
                                              confidence_database_tables, dataset_name,
                                              read_confidence_database)
from metabits.io._stacks import merge_levels, stack_tables
from metabits.io._tables import TrialCounts, count_tables
from metabits.io._trials import FEW_TRIALS, GroupTables, Trials, read_trials

__all__ = ["FEW_TRIALS", "MAX_LEVELS", "MISSING_MARKERS", "GroupTables", "TrialCounts", "Trials",
           "confidence_database_citation", "confidence_database_tables", "count_tables",
           "dataset_name", "merge_levels", "read_confidence_database", "read_trials",
           "stack_tables"]
