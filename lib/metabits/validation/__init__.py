"""Argument checks: each returns the checked value or raises a ``ValueError`` naming the argument.

Every public function of the library checks its arguments with these, and code built on the
library can use them to refuse bad input the same way. Each kind of value has one checker:

====================================  =========================================================
value                                 checker
====================================  =========================================================
numbers, arrays                       :func:`as_float_array`, :func:`as_scalar`
probabilities, distributions          :func:`as_probability`, :func:`as_distribution`
accuracies                            :func:`as_accuracy`
priors                                :func:`as_prior`
confidences                           :func:`as_confidence`
integers (sizes, counts of things)    :func:`as_int`, :func:`as_int_array`
whole numbers (trials as floats)      :func:`as_whole_numbers`
noise kinds                           :func:`as_noise_kind`
labels and predictions (±1)           :func:`as_labels`
count tables                          :func:`as_count_table`
whole counts (for resampling)         :func:`as_whole_counts`
response tables (probabilities)       :func:`as_response_table`, :func:`as_member_tables`
group members' rates                  :func:`as_member_rates`
random generators                     :func:`as_rng`
positive sizes (CI half-widths, …)    :func:`as_positive`
names from a fixed list               :func:`as_choice`
per-trial categories (outcomes)       :func:`as_categories`
per-trial values (fixed list)         :func:`as_trial_values`
per-trial pairs (outcome, signal)     :func:`as_same_length`
meta-d′ padding                       :func:`as_pad`
what to do where undefined            :func:`as_undefined`
contingency tables (outcome × S)      :func:`as_contingency_table`
explorer grids (control values)       :func:`as_grid`
====================================  =========================================================

**Empty arrays.** An array the function computes from (numbers, probabilities, counts, tables,
per-trial data) must not be empty: ``info_upper_bound([])``, ``simulate_ratings([], ...)`` or a
stack of no tables is refused with a ``ValueError`` "<name> must not be empty", not answered
with an empty result. The checks above do this for every caller (:func:`as_float_array` and
the checks built on it, :func:`as_numbers`, :func:`as_values_with_nan`, :func:`as_int_array`,
:func:`as_same_length`, :func:`as_categories`, :func:`as_trial_values`, :func:`as_grid`). An
argument that lists choices rather than values may be empty where none is a choice: grouping
columns (``by=()``, all trials together) and bin edges (``edges=[]``, one bin;
``as_float_array(..., empty=True)``).

**The table convention** (:func:`as_count_table`, :func:`as_response_table`): a table has shape
``(..., 2, R)``; row 0 is the stimulus S1 (true label Y = −1), row 1 is S2 (Y = +1); the R
columns are the responses ordered from "S1, most confident" to "S2, most confident" (R = 2K for
K confidence levels). Rows are therefore the ``nR_S1`` and ``nR_S2`` vectors of metadpy and
HMeta-d. A count table holds counts (joint frequencies up to scale); a response table holds the
conditional probabilities :math:`P(r \\mid Y)`, each row summing to 1.
"""

from metabits.validation import _scalars, _tables
from metabits.validation._scalars import *  # noqa: F401,F403
from metabits.validation._scalars import _interval  # noqa: F401
from metabits.validation._tables import *  # noqa: F401,F403

__all__ = _scalars.__all__ + _tables.__all__
