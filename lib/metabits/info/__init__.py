"""Information: what a classifier's confidences transmit about the labels (Meyen et al., 2025).

* :mod:`~metabits.info.information` – entropy, pti, transmitted and mutual information;
* :mod:`~metabits.info.bounds` – Theorem 3's bounds on info given accuracy, and the classifiers
  that attain them;
* :mod:`~metabits.info.noise` – the three noise classifiers of Figure 2;
* :mod:`~metabits.info.roc` – Type 1 and Type 2 ROC curves and their bounds;
* :mod:`~metabits.info.measures` – meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI from a table of counts,
  with Monte Carlo bias reduction;
* :mod:`~metabits.info.binning`, :mod:`~metabits.info.relabel`,
  :mod:`~metabits.info.calibration` – what binning, relabelling and miscalibration do to them.
"""

from metabits.info import information, noise, bounds, roc, measures, binning, relabel, calibration  # noqa: I001

__all__ = ["binning", "bounds", "calibration", "information", "measures", "noise", "relabel",
           "roc"]
