"""Reading trials: files and data frames into count tables.

:func:`read_confidence_database` reads a data set of the Confidence Database (Rahnev et al.,
2020) into harmonised trials, :func:`confidence_database_tables` turns those into count tables,
and :func:`count_tables` turns any trials with coded columns into count tables.
"""

from metabits.io._confidence_database import (MAX_LEVELS, MISSING_MARKERS,
                                              confidence_database_citation,
                                              confidence_database_tables, dataset_name,
                                              read_confidence_database)
from metabits.io._tables import TrialCounts, count_tables

__all__ = ["MAX_LEVELS", "MISSING_MARKERS", "TrialCounts", "confidence_database_citation",
           "confidence_database_tables", "count_tables", "dataset_name",
           "read_confidence_database"]
