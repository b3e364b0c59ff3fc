"""The library's only input checks: every bad input becomes a ``ValueError`` naming the problem.

Each kind of value the library takes has exactly one checker here, and every public function
calls it instead of testing the value itself:

=================================  =========================================================
value                              checker
=================================  =========================================================
numbers, arrays                    :func:`as_float_array`, :func:`as_scalar`
probabilities, distributions       :func:`as_probability`, :func:`as_distribution`
accuracies                         :func:`as_accuracy`
priors                             :func:`as_prior`
confidences                        :func:`as_confidence`
integers (sizes, counts of things) :func:`as_int`, :func:`as_int_array`
noise kinds                        :func:`as_noise_kind`
labels and predictions (±1)        :func:`as_labels`
count tables                       :func:`as_count_table`
whole counts (for resampling)      :func:`as_whole_counts`
response tables (probabilities)    :func:`as_response_table`, :func:`as_member_tables`
group members' rates               :func:`as_member_rates`
random generators                  :func:`as_rng`
positive sizes (CI half-widths, …) :func:`as_positive`
names from a fixed list            :func:`as_choice`
per-trial categories (outcomes)    :func:`as_categories`
per-trial values (fixed list)      :func:`as_trial_values`
per-trial pairs (outcome, signal)  :func:`as_same_length`
meta-d′ padding                    :func:`as_pad`
what to do where undefined         :func:`as_undefined`
contingency tables (outcome × S)   :func:`as_contingency_table`
explorer grids (control values)    :func:`as_grid`
=================================  =========================================================

**The table convention** (:func:`as_count_table`, :func:`as_response_table`): a table has shape
``(..., 2, R)``; row 0 is the stimulus S1 (true label Y = −1), row 1 is S2 (Y = +1); the R
columns are the responses ordered from "S1, most confident" to "S2, most confident" (R = 2K for
K confidence levels). Rows are therefore the ``nR_S1`` and ``nR_S2`` vectors of metadpy and
HMeta-d. A count table holds counts (joint frequencies up to scale); a response table holds the
conditional probabilities :math:`P(r \\mid Y)`, each row summing to 1.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["NOISE_TYPES", "TOL", "as_accuracy", "as_categories", "as_choice", "as_confidence",
           "as_contingency_table", "as_count_table", "as_counts", "as_distribution",
           "as_float_array", "as_grid", "as_int", "as_int_array", "as_labels", "as_member_rates",
           "as_member_tables", "as_noise_kind", "as_positive", "as_prior", "as_probability",
           "as_pad", "as_response_table", "as_rng", "as_same_length", "as_scalar", "as_undefined",
           "as_whole_counts", "scalar_or_array", "UNDEFINED"]

#: Slack allowed when comparing floating-point probabilities with their limits.
TOL = 1e-9

#: The three noise classifiers of Meyen et al. (2025), Figure 2.
NOISE_TYPES = ("uniform", "normal", "binary")


def as_float_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array, refusing non-numeric, boolean, ragged or non-finite input."""
    try:
        raw = np.asarray(x)
        if raw.dtype.kind not in "iuf":  # booleans, strings, objects (ragged lists) ...
            if raw.dtype.kind == "O":
                raw = np.asarray(x, dtype=float)  # lists of Python ints too large, ...
            else:
                raise TypeError(f"got values of type {raw.dtype}")
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    return arr


def as_scalar(x, name: str) -> float:
    """Return ``x`` as one finite float, refusing arrays with more than one element."""
    arr = as_float_array(x, name)
    if arr.ndim:
        raise ValueError(f"{name} must be a single number; got an array of shape {arr.shape}")
    return float(arr)


def as_rng(rng) -> np.random.Generator:
    """A numpy Generator from a Generator, a seed (int or SeedSequence) or None."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, np.random.SeedSequence) or (
            isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_))
            and rng >= 0):
        return np.random.default_rng(rng)
    raise ValueError("rng must be a numpy.random.Generator, a non-negative integer seed or None; "
                     f"got {rng!r}")


def _interval(low: float, high: float, low_open: bool, high_open: bool) -> str:
    return f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"


def as_probability(x, name: str, low: float = 0.0, high: float = 1.0, *,
                   low_open: bool = False, high_open: bool = False, why_low: str = "",
                   why_high: str = "") -> np.ndarray:
    """Return ``x`` as a float array in ``[low, high]`` (ends excluded when ``*_open``).

    Values within :data:`TOL` outside a closed end are clipped onto it (rounding noise);
    ``why_low`` / ``why_high``, if given, are appended to the error message for a value beyond
    that end, to say why the range is what it is.
    """
    arr = as_float_array(x, name)
    below = (arr <= low) if low_open else (arr < low - TOL)
    above = (arr >= high) if high_open else (arr > high + TOL)
    if np.any(below) or np.any(above):
        bad = arr[below | above].ravel()[0]
        why = why_low if bad <= low else why_high
        raise ValueError(f"{name} must lie in {_interval(low, high, low_open, high_open)}; "
                         f"got {bad:g}" + (f" ({why})" if why else ""))
    return np.clip(arr, low, high)


def as_distribution(p, name: str, axis: int = -1) -> np.ndarray:
    """Return ``p`` as probabilities in [0, 1] that sum to 1 along ``axis``."""
    arr = as_probability(p, name)
    if arr.ndim == 0 or arr.shape[axis] == 0:
        raise ValueError(f"{name} must be a non-empty sequence of probabilities")
    total = arr.sum(axis=axis)
    if np.any(np.abs(total - 1.0) > 1e-6):
        raise ValueError(f"{name} must sum to 1; got a sum of {np.ravel(total)[0]:g}")
    return arr


def as_accuracy(acc, name: str = "acc", *, low: float = 0.5, high: float = 1.0,
                low_open: bool = False, high_open: bool = False, why_low: str = "",
                why_high: str = "", scalar: bool = False):
    """Accuracies in ``[low, high]``: by default [0.5, 1], the accuracies of Bayes predictions.

    A calibrated classifier that predicts the more probable label (Meyen et al., 2025,
    Assumption 4) is right at least half the time with two equally likely labels, so 0.5 is the
    default lower end. Functions that need less (an open end, a prior-dependent floor) say so
    through the keywords. With ``scalar`` the result is one float.
    """
    arr = as_probability(acc, name, low, high, low_open=low_open, high_open=high_open,
                         why_low=why_low, why_high=why_high)
    if scalar:
        if arr.ndim:
            raise ValueError(f"{name} must be a single number; got an array of shape {arr.shape}")
        return float(arr)
    return arr


def as_prior(p, name: str = "prior p+", *, majority: bool = False) -> float:
    """One prior probability.

    ``majority=False``: :math:`P(Y = +1)` strictly between 0 and 1 (either label may be the more
    frequent). ``majority=True``: :math:`p_+`, the prior of the *more frequent* label (Meyen et
    al., 2025, Assumption 2), in [0.5, 1].
    """
    value = as_scalar(p, name)
    if majority:
        return float(as_probability(value, name, 0.5, 1.0))
    return float(as_probability(value, name, 0.0, 1.0, low_open=True, high_open=True))


def as_confidence(c, name: str = "confidence c") -> np.ndarray:
    """Confidences of Bayes predictions, in [0.5, 1]."""
    return as_probability(c, name, 0.5, 1.0)


def as_int(n, name: str, least: int = 1, most: int | None = None) -> int:
    """One integer ``>= least`` (and ``<= most``): a Python or NumPy integer, not a bool or float.

    Floats are refused even when whole (``3.0``): a size is counted, not measured.
    """
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= {least}; got {n!r}")
    if n < least or (most is not None and n > most):
        upto = "" if most is None else f" and <= {most}"
        raise ValueError(f"{name} must be an integer >= {least}{upto}; got {n!r}")
    return int(n)


def as_int_array(n, name: str, least: int = 1, most: int = 2 ** 53) -> np.ndarray:
    """Integers ``>= least`` (and ``<= most``) as an int64 array; the array form of :func:`as_int`."""
    arr = np.asarray(n)
    if arr.dtype == object and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                   for v in arr.ravel()):
        try:
            arr = arr.astype(np.int64)
        except OverflowError:
            raise ValueError(f"{name} must be integers >= {least} and <= {most}; "
                             "got a value beyond int64") from None
    if arr.dtype.kind not in "iu" or arr.size == 0 and arr.ndim:
        raise ValueError(f"{name} must be integers >= {least}; got values of type {arr.dtype}"
                         if arr.dtype.kind not in "iu" else f"{name} must not be empty")
    bad = (arr < least) | (arr > most)
    if np.any(bad):
        raise ValueError(f"{name} must be integers >= {least} and <= {most}; "
                         f"got {arr[bad].ravel()[0]}")
    return arr.astype(np.int64)


def as_noise_kind(kind) -> str:
    """One of :data:`NOISE_TYPES`: "uniform", "normal" or "binary"."""
    if not isinstance(kind, str) or kind not in NOISE_TYPES:
        raise ValueError(f"noise kind must be one of {NOISE_TYPES}; got {kind!r}")
    return kind


def as_labels(y, name: str = "label") -> np.ndarray:
    """Binary labels or predictions: a float array of −1 and +1 only."""
    arr = as_float_array(y, name)
    if np.any((arr != 1) & (arr != -1)):
        raise ValueError(f"{name} must contain only -1 and +1")
    return arr


def as_positive(x, name: str, why: str = "") -> np.ndarray:
    """Return ``x`` as a float array of strictly positive, finite values (e.g. CI half-widths).

    ``why``, if given, is appended to the error message to say why the value must be positive.
    """
    arr = as_float_array(x, name)
    if np.any(arr <= 0):
        bad = arr[arr <= 0].ravel()[0]
        raise ValueError(f"{name} must be > 0; got {bad:g}" + (f" ({why})" if why else ""))
    return arr


def as_choice(value, options, name: str) -> str:
    """One of the names in ``options`` (e.g. a model or task of a paper's table), exactly."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"unknown {name} {value!r}; must be one of {tuple(options)}")
    return value


def as_counts(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array of non-negative, finite counts."""
    arr = as_float_array(x, name)
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative; got {arr[arr < 0].ravel()[0]:g}")
    return arr


def as_whole_counts(counts: np.ndarray, what: str) -> np.ndarray:
    """Checked counts (from :func:`as_counts` or :func:`as_count_table`) as int64, refusing
    non-whole counts and rows (last axis) of more than 2**62 trials: what resampling needs.

    ``what`` names the caller (e.g. "bias reduction") in the message.
    """
    counts = np.asarray(counts, dtype=float)
    if np.any(counts != np.round(counts)):
        raise ValueError(f"{what} resamples trials: counts must be whole numbers")
    if np.any(counts.sum(axis=-1) > 2.0 ** 62):
        raise ValueError(f"{what} resamples trials: a row of counts holds more than 2**62 of "
                         "them")
    return counts.astype(np.int64)


def as_count_table(counts, name: str = "counts", *, min_levels: int = 1,
                   row_names=("S1 (Y = -1)", "S2 (Y = +1)")) -> np.ndarray:
    """A stack of count tables ``(..., 2, 2K)`` in the library's table convention.

    Checks: non-negative finite counts; two rows; an even number 2K of columns with
    K >= ``min_levels`` confidence levels; no empty row (each stimulus needs a trial); no row
    total that overflows a float.
    """
    c = as_counts(counts, name)
    if c.ndim < 2 or c.shape[-2] != 2:
        raise ValueError(f"{name} must be a 2 x 2K table (rows: S1 / Y = -1, then S2 / Y = +1); "
                         f"got shape {c.shape}")
    R = c.shape[-1]
    if R % 2 or R < 2 * min_levels:
        need = "2K >= 2" if min_levels == 1 else f"2K >= {2 * min_levels} (K >= {min_levels} " \
                                                   "confidence levels)"
        raise ValueError(f"{name} needs an even number {need} of response columns, from "
                         f"'S1, most confident' to 'S2, most confident'; got {R}")
    with np.errstate(over="ignore"):
        rows = c.sum(axis=-1)
    if not np.all(np.isfinite(rows.sum(axis=-1))):
        raise ValueError(f"{name} are too large: a table's total overflows a float")
    empty = np.argwhere(rows == 0)
    if empty.size:
        if np.all(c == 0):
            raise ValueError(f"{name} is all zero: there is nothing to estimate from")
        *where, row = empty[0]
        at = f" (table {tuple(int(i) for i in where)})" if where else ""
        raise ValueError(f"{name} has an empty row {row_names[row]}{at}: each stimulus needs at "
                         "least one trial")
    return c


def as_response_table(table, name: str = "response table") -> np.ndarray:
    """One ``(2, R)`` table of conditional probabilities :math:`P(r \\mid Y)` (rows sum to 1).

    Row 0 is Y = −1 (S1), row 1 is Y = +1 (S2); columns as in :func:`as_count_table`, though R
    may be odd here (a member's responses need not come in pairs).
    """
    t = as_distribution(table, name)
    if t.ndim != 2 or t.shape[0] != 2:
        raise ValueError(f"{name} must have shape (2, R) with rows P(r | Y = -1), P(r | Y = +1); "
                         f"got shape {t.shape}")
    return t


def as_member_tables(members, most: int) -> list:
    """A group's members: a non-empty sequence of at most ``most`` response tables
    (:func:`as_response_table`), one per member."""
    if isinstance(members, np.ndarray) and members.ndim == 2:
        raise ValueError("members must be a sequence of (2, R) response tables; "
                         "wrap one member in a list")
    if isinstance(members, (str, bytes)) or not hasattr(members, "__iter__"):
        raise ValueError(f"members must be a sequence of (2, R) response tables; got {members!r}")
    members = list(members)
    if not members:
        raise ValueError("a group needs at least one member (K >= 1); got no members")
    if len(members) > most:
        raise ValueError(f"at most {most} members are supported; got {len(members)}")
    return [as_response_table(t, f"response table of member {i}") for i, t in enumerate(members)]


def as_member_rates(acc_pos, acc_neg, prior, bayes: bool = True):
    r"""Label-specific accuracies of group members and the prior :math:`P(Y = +1)`.

    Returns ``(tp, tn, p, acc)``: true positive and true negative rates (1-D arrays over the
    members, each in [0, 1]), the prior, and each member's accuracy
    :math:`p\,acc_+ + (1 - p)\,acc_-`. With ``bayes`` the accuracy must reach the larger prior:
    below it the member's predictions are not Bayes predictions (Meyen et al., 2025,
    Assumption 4), and Theorem 8 does not cover it.
    """
    tp = np.atleast_1d(as_probability(acc_pos, "acc_pos (true positive rates)"))
    tn = np.atleast_1d(as_probability(acc_neg, "acc_neg (true negative rates)"))
    if tp.shape != tn.shape:
        raise ValueError(f"acc_pos and acc_neg need one rate per member each; got shapes "
                         f"{tp.shape} and {tn.shape}")
    if tp.shape[-1] == 0:
        raise ValueError("a group needs at least one member (K >= 1); got no rates")
    p = as_prior(prior)
    acc = p * tp + (1.0 - p) * tn
    top = max(p, 1.0 - p)
    if bayes and np.any(acc < top - TOL):
        bad = acc[acc < top - TOL].ravel()[0]
        raise ValueError(f"member accuracy p+·acc+ + (1−p+)·acc− = {bad:g} is below the larger "
                         f"prior {top:g}: its predictions are not Bayes predictions (Assumption 4)")
    return tp, tn, p, np.clip(acc, top, 1.0) if bayes else acc


def as_categories(x, name: str):
    """Per-trial categories (outcomes, discrete signals): a non-empty 1-D array of numbers,
    booleans or strings. Returns ``(codes, levels)``: integer codes 0..k-1 and the sorted distinct
    values they stand for."""
    arr = np.asarray(x)
    if arr.dtype.kind not in "biufUS" or arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of numbers, booleans or strings "
                         f"(one value per trial); got {arr.dtype} of shape {arr.shape}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    levels, codes = np.unique(arr, return_inverse=True)
    return codes.astype(np.int64), levels


def as_trial_values(x, options, name: str) -> np.ndarray:
    """Per-trial values that must each be one of ``options`` (e.g. the two stimuli of a task, 0
    and 90 degrees): a non-empty 1-D array. Returns integer codes, the index of each value in
    ``options``."""
    arr = np.asarray(x)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iufUSO":
        raise ValueError(f"{name} must be a non-empty 1-D array with one value per trial; got "
                         f"{arr.dtype} of shape {arr.shape}")
    codes = np.full(arr.shape, -1, dtype=np.int64)
    for i, option in enumerate(options):
        codes[arr == option] = i
    if np.any(codes < 0):
        bad = arr[codes < 0][0]
        raise ValueError(f"{name} must be one of {tuple(options)}; got {bad!r}")
    return codes


def as_same_length(a, b, names: str, *, one_d: bool = True) -> int:
    """The common number of trials of two per-trial arrays (trials on the last axis).

    Their shapes must agree (and be 1-D unless ``one_d`` is False, e.g. stacks of data sets).
    """
    sa, sb = np.shape(a), np.shape(b)
    if sa != sb or not sa or (one_d and len(sa) != 1):
        kind = "1-D arrays" if one_d else "arrays"
        raise ValueError(f"{names} must be {kind} of the same shape (the same length, one value "
                         f"per trial each); got shapes {sa} and {sb}")
    return sa[-1]


#: What a function does where a measure is undefined: raise, or give NaN.
UNDEFINED = ("raise", "nan")


def as_undefined(undefined) -> str:
    """The ``undefined`` flag: "raise" (a ``ValueError`` naming the measure) or "nan"."""
    if not isinstance(undefined, str) or undefined not in UNDEFINED:
        raise ValueError(f"undefined must be one of 'raise' or 'nan'; got {undefined!r}")
    return undefined


def as_pad(pad, K: int, *, positive: bool = False) -> float:
    """The count added to every cell before a meta-d′ fit.

    ``None`` gives 1/(2K) (statConfR's padding); otherwise one finite number >= 0, or > 0 when
    ``positive`` (where an empty cell must not put the meta-d′ maximum at infinity).
    """
    if pad is None:
        return 1.0 / (2 * K)
    value = as_scalar(pad, "pad")
    if value < 0 or (positive and value == 0):
        need = "> 0 (an empty cell can put the meta-d' maximum at infinity)" if positive \
            else "non-negative"
        raise ValueError(f"pad must be {need}; got {value:g}")
    return value


def as_contingency_table(counts, name: str = "counts") -> np.ndarray:
    """A stack of contingency tables ``(..., k_T, k_S)``: rows are the outcomes T, columns the
    values of the signal S. Non-negative finite counts; no table may be empty."""
    c = as_counts(counts, name)
    if c.ndim < 2 or c.shape[-1] == 0 or c.shape[-2] == 0:
        raise ValueError(f"{name} must be a table (..., outcomes, signal values) of counts; "
                         f"got shape {c.shape}")
    totals = c.sum(axis=(-2, -1))
    if not np.all(np.isfinite(totals)):
        raise ValueError(f"{name} are too large: a table's total overflows a float")
    if np.any(totals == 0):
        where = np.argwhere(totals == 0)[0] if totals.ndim else ()
        at = f" (table {tuple(int(i) for i in where)})" if len(where) else ""
        raise ValueError(f"{name} has an empty table{at}: there is nothing to estimate from")
    return c


def as_grid(values, name: str) -> tuple:
    """The grid of one explorer control: distinct finite numbers in increasing order, or distinct
    names (strings); at least one value. Returned as a tuple of Python ints/floats or strings."""
    try:
        vals = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of numbers or of names; "
                         f"got {values!r}") from None
    if not vals:
        raise ValueError(f"{name} must not be empty")
    if all(isinstance(v, str) for v in vals):
        if len(set(vals)) != len(vals):
            raise ValueError(f"{name} repeat a name: {vals}")
        return tuple(vals)
    if any(isinstance(v, (str, bool, np.bool_)) or not isinstance(v, numbers.Real) for v in vals):
        raise ValueError(f"{name} must be all numbers or all names; got {vals}")
    arr = np.asarray(vals, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite; got {vals}")
    if np.any(np.diff(arr) <= 0):
        raise ValueError(f"{name} must increase strictly (no repeats); got {vals}")
    return tuple(int(v) if isinstance(v, numbers.Integral) else float(v) for v in vals)


def scalar_or_array(arr):
    """Give 0-d results back as Python floats, others unchanged."""
    return float(arr) if np.ndim(arr) == 0 else arr


# --- checks for arguments refused where they enter (issue 17) --------------------------------

#: The largest size one argument may ask for (draws, resamples, grid points, levels, ...):
#: beyond it an array would take gigabytes, and numpy fails with a MemoryError or the call runs
#: for minutes before anything is refused.
MAX_SIZE = 10 ** 8


def as_size(n, name: str, least: int = 1, most: int = MAX_SIZE) -> int:
    """One integer size that allocates memory or loops (resamples, trials, grid points):
    :func:`as_int` with an upper end, :data:`MAX_SIZE` by default."""
    return as_int(n, name, least=least, most=most)


def as_flag(flag, name: str) -> bool:
    """A switch: ``True`` or ``False`` (a Python or NumPy bool), nothing else — not 0/1, not a
    string such as "False", not None."""
    if not isinstance(flag, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {flag!r}")
    return bool(flag)


def as_axis(axis, ndim: int, name: str = "axis") -> int:
    """An axis of an array with ``ndim`` dimensions (negative counts from the end), as a
    non-negative int."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, numbers.Integral) \
            or not -ndim <= axis < ndim:
        raise ValueError(f"{name} must be an integer in [{-ndim}, {ndim - 1}] for an array of "
                         f"{ndim} dimension(s); got {axis!r}")
    return int(axis) % ndim


def as_nonnegative(x, name: str) -> float:
    """One finite number >= 0 (e.g. the padding added to each cell of a table)."""
    value = as_scalar(x, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0; got {value:g}")
    return value


def as_values_with_nan(x, name: str) -> np.ndarray:
    """Numbers (not strings, not booleans) as a float array in which NaN marks an undefined value
    and infinity is refused: e.g. simulated values of a measure that is sometimes undefined."""
    try:
        arr = np.asarray(x) if not isinstance(x, (str, bytes)) else np.asarray([x])
        if arr.dtype.kind == "O":
            arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be numbers; got values of type {arr.dtype}")
    arr = arr.astype(float)
    if np.any(np.isinf(arr)):
        raise ValueError(f"{name} must be finite (NaN marks an undefined value; found infinity)")
    return arr


def as_callable(f, name: str):
    """A function (e.g. a CDF the library evaluates)."""
    if not callable(f):
        raise ValueError(f"{name} must be a function; got {f!r}")
    return f


def as_cdf_values(values, name: str) -> np.ndarray:
    """Values returned by a cumulative distribution function at increasing points: finite, in
    [0, 1] and non-decreasing."""
    arr = as_probability(values, f"{name} (a CDF's values)")
    if np.any(np.diff(np.atleast_1d(arr)) < -TOL):
        raise ValueError(f"{name} must be non-decreasing (a CDF); its values decrease")
    return arr


def as_pair(x, name: str) -> np.ndarray:
    """Exactly two values (e.g. the two ends of a range), already checked by another checker."""
    arr = np.asarray(x)
    if arr.shape != (2,):
        raise ValueError(f"{name} must be a pair of two values; got shape {arr.shape}")
    return arr


__all__ += ["MAX_SIZE", "as_axis", "as_callable", "as_cdf_values", "as_flag", "as_nonnegative",
            "as_pair", "as_size", "as_values_with_nan"]


# --- checks for the real-data studies (metabits.studies) -----------------------------------------

def as_path(path, name: str = "path"):
    """A file-system path: a ``str`` or an ``os.PathLike`` giving one (not bytes, not a number),
    as a :class:`pathlib.Path`; whether it exists is the caller's business."""
    import os
    from pathlib import Path

    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path:
        raise ValueError(f"{name} must be a file path (a non-empty str or path-like); "
                         f"got {path!r}")
    return Path(path)


def as_folder(path, name: str = "folder"):
    """An existing folder (:func:`as_path`), as a :class:`pathlib.Path`."""
    folder = as_path(path, name)
    if not folder.is_dir():
        raise ValueError(f"{name} must be an existing folder; {str(folder)!r} "
                         f"{'is a file' if folder.exists() else 'does not exist'}")
    return folder


def as_instance(obj, cls, name: str, what: str = ""):
    """An object of class ``cls`` (e.g. a result the library built), nothing else."""
    if not isinstance(obj, cls):
        raise ValueError(f"{name} must be a {cls.__name__}{f' ({what})' if what else ''}; "
                         f"got {type(obj).__name__}")
    return obj


__all__ += ["as_folder", "as_instance", "as_path"]


# --- checks for the explorers (metabits.explore) and the Monte Carlo studies ---------------------

def as_number_grid(values, name: str, low: float = -np.inf, high: float = np.inf, *,
                   low_open: bool = False, high_open: bool = False, integer: bool = False,
                   why_low: str = "", why_high: str = "") -> tuple:
    """The grid of one numeric explorer control (:func:`as_grid`: distinct finite numbers in
    increasing order), every value in ``[low, high]`` (ends excluded when ``*_open``) and, with
    ``integer``, every value an integer. Returned as :func:`as_grid` returns it."""
    g = as_grid(values, name)
    if isinstance(g[0], str):
        raise ValueError(f"{name} must be numbers; got names {list(g)}")
    if integer and any(not isinstance(v, int) for v in g):
        raise ValueError(f"{name} must be integers; got {list(g)}")
    as_probability(np.asarray(g, dtype=float), name, low, high, low_open=low_open,
                   high_open=high_open, why_low=why_low, why_high=why_high)
    return g


def as_format(fmt, name: str, examples=()) -> str:
    """A ``str.format`` pattern with one positional field (e.g. ``"{:.0%}"``) that formats every
    value of ``examples`` (a control's grid): a bad pattern is refused now, not when a value is
    first displayed."""
    if not isinstance(fmt, str):
        raise ValueError(f"{name} must be a format string such as '{{:.2f}}'; got {fmt!r}")
    for value in examples:
        try:
            fmt.format(value)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise ValueError(f"{name} {fmt!r} cannot format the value {value!r}: "
                             f"{type(exc).__name__}: {exc}") from None
    if "{" not in fmt.replace("{{", ""):
        raise ValueError(f"{name} {fmt!r} has no field for the value (e.g. '{{:.2f}}')")
    return fmt


def as_text(text, name: str, identifier: bool = False) -> str:
    """A non-empty ``str`` (a label, a name); with ``identifier`` a Python identifier (a keyword
    argument's name)."""
    if not isinstance(text, str) or not text or (identifier and not text.isidentifier()):
        what = "a Python identifier" if identifier else "a non-empty str"
        raise ValueError(f"{name} must be {what}; got {text!r}")
    return text


__all__ += ["as_format", "as_number_grid", "as_text"]


# --- checks for resampling (metabits.resample) ---------------------------------------------------

def as_numbers(x, name: str) -> np.ndarray:
    """Real numbers (not strings, booleans or complex numbers) of a regular shape as a float
    array, NaN and infinity kept: e.g. bootstrap replicates, in which a statistic that is
    undefined is NaN or infinite."""
    try:
        arr = np.asarray(x) if not isinstance(x, (str, bytes)) else np.asarray([x])
        if arr.dtype.kind == "O":
            arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be real numbers; got values of type {arr.dtype}")
    return arr.astype(float, copy=False)


def as_broadcastable(x: np.ndarray, shape: tuple, name: str, what: str) -> np.ndarray:
    """An array (already checked by another checker) whose shape broadcasts to ``shape``
    without growing it (e.g. one value per statistic, or one for all); ``what`` says what
    ``shape`` is in the message."""
    try:
        ok = np.broadcast_shapes(np.shape(x), tuple(shape)) == tuple(shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one value or one per {what} (shape {tuple(shape)}); "
                         f"got shape {np.shape(x)}")
    return x


__all__ += ["as_broadcastable", "as_numbers"]
