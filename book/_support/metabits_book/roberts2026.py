"""What Roberts (2026), *From Bits to Minds*, prints in its demos: the settings the book reuses.

One home for the essay's printed operating points, shared by the Part III explorers
(:mod:`metabits_book.explore.part3`), the registry of paper numbers
(:mod:`metabits_book.paper_numbers`, which asserts the book's value of each against its print)
and the audit chapter (``book/oskr/05_audit``). They are numbers copied from the essay, like the
tables of :mod:`metabits_book.studies.datasets`, not results: the library recomputes what the
essay derives from them.

Examples
--------
>>> accuracy, oskr, wrong = ALPHA
>>> accuracy, oskr, wrong
(0.72, 0.81, 0.09)
>>> SETUPS["actor + passive judge"]
0.41
"""

from __future__ import annotations

__all__ = ["ALPHA", "BETA", "LAB", "SETUPS"]

#: The feedback lab's printed operating point: prevalence, feedback error ε, verifier gain g.
LAB = (0.5, 0.22, 0.35)
#: System Alpha ("Same Accuracy, Different Self-Knowledge"): accuracy, OSKR and the share of
#: errors on which it is confident, as printed.
ALPHA = (0.72, 0.81, 0.09)
#: System Beta: accuracy, OSKR and the share of errors on which it is confident, as printed.
BETA = (0.72, 0.18, 0.24)
#: "Actor vs Verifier": the schematic OSKR of each verification set-up, as printed.
SETUPS = {"actor only": 0.14, "actor + passive judge": 0.41, "actor + proactive verifier": 0.79}
