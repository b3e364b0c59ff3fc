"""Outcome-specific knowledge retention (Roberts, 2026): estimators, intervals, channels, chain.

* :mod:`~metabits.oskr.estimators` – OSKR from trials or a contingency table (plug-in,
  Miller–Madow, KSG);
* :mod:`~metabits.oskr.intervals` – its bootstrap intervals (percentile, BCa);
* :mod:`~metabits.oskr.feedback_channel` – binary self-assessment channels;
* :mod:`~metabits_book.cognitive_chain` – the chain of operations and deployment postures;
* :mod:`~metabits_book.oskr_claims` – the essay's claims in words, computed (capacity share,
  calibration).

The names of the estimators and intervals are also this package's (``metabits.oskr`` was one
module).
"""

from metabits.oskr import estimators, intervals
from metabits.oskr.estimators import *  # noqa: F401,F403
from metabits.oskr.intervals import *  # noqa: F401,F403
from metabits.oskr import feedback_channel  # noqa: I001

__all__ = list(estimators.__all__) + list(intervals.__all__)
