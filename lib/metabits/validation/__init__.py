"""Argument checks: each returns the checked value or raises a ``ValueError`` naming the argument.

Every public function of the library checks its arguments this way, and code built on the
library can use these checks to refuse bad input as the library does. Each kind of value has
one checker:

====================================  =========================================================
value                                 checker
====================================  =========================================================
numbers, arrays                       :func:`as_float_array`, :func:`as_scalar`
numbers with undefined values (NaN)   :func:`as_values_with_nan`
probabilities                         :func:`as_probability`
accuracies                            :func:`as_accuracy`
priors                                :func:`as_prior`
confidences                           :func:`as_confidence`
positive sizes (CI half-widths, …)    :func:`as_positive`
integers (counts of things)           :func:`as_int`, :func:`as_int_array`
sizes that allocate (resamples, …)    :func:`as_size` (at most :data:`MAX_SIZE`)
switches                              :func:`as_flag`
names from a fixed list               :func:`as_choice`
noise kinds                           :func:`as_noise_kind` (:data:`NOISE_TYPES`)
random generators                     :func:`as_rng`
labels and predictions (±1)           :func:`as_labels`
counts, count tables                  :func:`as_counts`, :func:`as_count_table`
whole counts (for resampling)         :func:`as_whole_counts`
meta-d′ padding                       :func:`as_pad`
group members' rates                  :func:`as_member_rates`
per-trial categories (outcomes)       :func:`as_categories`
per-trial values (fixed list)         :func:`as_trial_values`
per-trial pairs (outcome, signal)     :func:`as_same_length`
====================================  =========================================================

:func:`scalar_or_array` gives a 0-d result back as a Python float, as the library's functions
do. The library's own modules share a few more checks (of distributions, contingency and
response tables, axes, paths, …) from this package's private modules; they are not part of the
public interface.

**Empty arrays.** An array the function computes from (numbers, probabilities, counts, tables,
per-trial data) must not be empty: ``info_upper_bound([])``, ``simulate_ratings([], ...)`` or a
stack of no tables is refused with a ``ValueError`` "<name> must not be empty", not answered
with an empty result. The checks above do this for every caller (:func:`as_float_array` and
the checks built on it, :func:`as_values_with_nan`, :func:`as_int_array`,
:func:`as_same_length`, :func:`as_categories`, :func:`as_trial_values`). An argument that lists
choices rather than values may be empty where none is a choice: grouping columns (``by=()``,
all trials together) and bin edges (``edges=[]``, one bin; ``as_float_array(..., empty=True)``).

**The table convention** (:func:`as_count_table`): a table has shape ``(..., 2, R)``; row 0 is
the stimulus S1 (true label Y = −1), row 1 is S2 (Y = +1); the R columns are the responses
ordered from "S1, most confident" to "S2, most confident" (R = 2K for K confidence levels).
Rows are therefore the ``nR_S1`` and ``nR_S2`` vectors of metadpy and HMeta-d. A count table
holds counts (joint frequencies up to scale); a response table holds the conditional
probabilities :math:`P(r \\mid Y)`, each row summing to 1.

Examples
--------
A function built on the library refuses a bad accuracy as the library does (Meyen et al.,
2025, take accuracies in [0.5, 1]):

>>> from metabits.validation import as_accuracy
>>> float(as_accuracy(0.8))
0.8
>>> try:
...     as_accuracy(1.2)
... except ValueError as error:
...     print(error)
acc must lie in [0.5, 1]; got 1.2
"""

from metabits.validation._scalars import (MAX_SIZE, NOISE_TYPES, as_accuracy, as_choice,
                                          as_confidence, as_flag, as_float_array, as_int,
                                          as_int_array, as_labels, as_noise_kind, as_pad,
                                          as_positive, as_prior, as_probability, as_rng,
                                          as_scalar, as_size, as_values_with_nan,
                                          scalar_or_array)
from metabits.validation._tables import (as_categories, as_count_table, as_counts,
                                         as_member_rates, as_same_length, as_trial_values,
                                         as_whole_counts)

__all__ = ["MAX_SIZE", "NOISE_TYPES", "as_accuracy", "as_categories", "as_choice",
           "as_confidence", "as_count_table", "as_counts", "as_flag", "as_float_array", "as_int",
           "as_int_array", "as_labels", "as_member_rates", "as_noise_kind", "as_pad",
           "as_positive", "as_prior", "as_probability", "as_rng", "as_same_length", "as_scalar",
           "as_size", "as_trial_values", "as_values_with_nan", "as_whole_counts",
           "scalar_or_array"]
