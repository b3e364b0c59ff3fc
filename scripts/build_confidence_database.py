"""Rebuild the shipped compact copy of the Confidence Database from the raw files.

    .venv/bin/python scripts/build_confidence_database.py RAW_FOLDER

RAW_FOLDER is a folder of the Confidence Database's raw files (osf.io/s46pr: the 66 data sets'
``data_<name>.csv`` with their readmes); without the argument, the environment variable
METABITS_CONFIDENCE_DATABASE names it (as for tests/test_confidence_database.py). Writes book/_support/metabits_book/data/confidence_database.npz
(every trial as a one-byte code, per participant) and confidence_database.csv (one row per
data set, with its citation), through metabits_book.studies.database_copy.
write_confidence_database — the rule that tests/test_confidence_database.py checks against the
shipped files whenever the raw files are at hand — and, from the copy just written, the two
derived files: confidence_database_assessment.csv and _by_set.csv (Rahnev's criteria for the 22
measures, metabits_book.studies.database_assessment.write_assessment, on both cores) and
confidence_database_intervals.npz
(every person's bootstrap intervals, metabits_book.studies.database_intervals.write_intervals;
the longest step, a few minutes). The book itself never reads the raw files.
"""

import os
import sys
import time
from pathlib import Path

from metabits_book.studies.database_copy import confidence_database, write_confidence_database
from metabits_book.studies.database_assessment import write_assessment
from metabits_book.studies.database_intervals import SHIPPED_INTERVALS, write_intervals

ROOT = Path(__file__).resolve().parents[1]


def main(argv):
    given = argv[1] if len(argv) > 1 else os.environ.get("METABITS_CONFIDENCE_DATABASE")
    if not given:
        sys.exit("usage: scripts/build_confidence_database.py RAW_FOLDER (a folder of the "
                 "Confidence Database's raw data_<name>.csv files; or set "
                 "METABITS_CONFIDENCE_DATABASE)")
    raw = Path(given)
    if not raw.is_dir():
        sys.exit(f"RAW_FOLDER {str(raw)!r} is not a folder (the Confidence Database's raw files)")
    t0 = time.perf_counter()
    data = ROOT / "book" / "_support" / "metabits_book" / "data"
    written = write_confidence_database(raw, data)
    db = confidence_database()  # the copy just written
    assessed = write_assessment(db, data, workers=2)
    write_intervals(db, data / SHIPPED_INTERVALS)
    for path in (*written, *assessed, data / SHIPPED_INTERVALS):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1024:.0f} kB")
    print(f"rebuilt from {raw} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv)
