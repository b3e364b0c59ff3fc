"""The checks of scalars, arrays of numbers, sizes, flags, choices, paths and text.

Part of :mod:`metabits.validation` (import every check from there).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["NOISE_TYPES", "TOL", "as_accuracy", "as_choice", "as_confidence", "as_distribution",
           "as_float_array", "as_int", "as_int_array", "as_labels", "as_noise_kind",
           "as_positive", "as_prior", "as_probability", "as_pad", "as_rng", "as_scalar",
           "as_undefined", "as_whole_numbers", "scalar_or_array", "UNDEFINED"]

#: Slack allowed when comparing floating-point probabilities with their limits.
TOL = 1e-9

#: The three noise classifiers of Meyen et al. (2025), Figure 2.
NOISE_TYPES = ("uniform", "normal", "binary")


def as_float_array(x, name: str, *, empty: bool = False) -> np.ndarray:
    """Return ``x`` as a float array, refusing non-numeric, boolean, ragged or non-finite input,
    and an empty array (no values to compute from: the library's rule, see
    :mod:`metabits.validation`) unless ``empty`` (where none is a choice, e.g. no bin edges)."""
    if x is None:
        raise ValueError(f"{name} must be a number or an array of numbers; got None")
    try:
        raw = np.asarray(x)
        if raw.dtype.kind not in "iuf":  # booleans, strings, objects (ragged lists) ...
            if raw.dtype.kind == "O":
                raw = np.asarray(x, dtype=float)  # lists of Python ints too large, ...
            else:
                raise TypeError(f"got values of type {raw.dtype}")
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc} "
                         f"({x!r:.60})") from None
    if arr.size == 0 and not empty:
        raise ValueError(f"{name} must not be empty; got an array of shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (found NaN or infinity); got "
                         f"{arr[~np.isfinite(arr)].ravel()[0]:g}")
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
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty; got an array of shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers >= {least}; got values of type {arr.dtype}")
    bad = (arr < least) | (arr > most)
    if np.any(bad):
        raise ValueError(f"{name} must be integers >= {least} and <= {most}; "
                         f"got {arr[bad].ravel()[0]}")
    return arr.astype(np.int64)


def as_whole_numbers(x, name: str, least: int = 1) -> np.ndarray:
    """Whole numbers ``>= least`` as a float array: counts of trials given as numbers (``1000``
    or ``1000.0``, as :func:`metabits.sdt.trials_per_stimulus` returns them), not 2.5 or
    0.001; the measured-number form of :func:`as_int_array`."""
    arr = as_float_array(x, name)
    bad = (arr < least) | (arr != np.floor(arr))
    if np.any(bad):
        raise ValueError(f"{name} must be whole numbers >= {least}; got {arr[bad].ravel()[0]:g}")
    return arr


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


def scalar_or_array(arr):
    """Give 0-d results back as Python floats, others unchanged."""
    return float(arr) if np.ndim(arr) == 0 else arr


# --- checks for arguments refused where they enter -------------------------------------------

#: The largest size one argument may ask for (draws, resamples, grid points, levels, ...):
#: beyond it an array would take gigabytes, and numpy fails with a MemoryError or the call runs
#: on at length before anything is refused.
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


def as_values_with_nan(x, name: str) -> np.ndarray:
    """Numbers (not strings, not booleans) as a float array in which NaN marks an undefined value
    and infinity is refused: e.g. simulated values of a measure that is sometimes undefined. Not
    empty."""
    try:
        arr = np.asarray(x) if not isinstance(x, (str, bytes)) else np.asarray([x])
        if arr.dtype.kind == "O":
            arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be numbers; got values of type {arr.dtype}")
    arr = arr.astype(float)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty; got an array of shape {arr.shape}")
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


__all__ += ["MAX_SIZE", "as_axis", "as_callable", "as_cdf_values", "as_flag", "as_size",
            "as_values_with_nan"]


# --- checks for the real-data studies (metabits.io) -----------------------------------------

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


def as_column_names(by, name: str = "by") -> tuple:
    """Column names to group by: one name (a ``str``) or a list or tuple of names, as a tuple
    (possibly empty)."""
    names = (by,) if isinstance(by, str) else by
    if not isinstance(names, (tuple, list)) or not all(isinstance(c, str) for c in names):
        raise ValueError(f"{name} must be a column name or a sequence of column names; "
                         f"got {by!r}")
    return tuple(names)


__all__ += ["as_column_names", "as_path"]


def as_text(text, name: str, identifier: bool = False) -> str:
    """A non-empty ``str`` (a label, a name); with ``identifier`` a Python identifier (a keyword
    argument's name)."""
    if not isinstance(text, str) or not text or (identifier and not text.isidentifier()):
        what = "a Python identifier" if identifier else "a non-empty str"
        raise ValueError(f"{name} must be {what}; got {text!r}")
    return text


__all__ += ["as_text"]


# --- checks for resampling (metabits.resample) ---------------------------------------------------

def as_numbers(x, name: str) -> np.ndarray:
    """Real numbers (not strings, booleans or complex numbers) of a regular shape as a float
    array, NaN and infinity kept: e.g. bootstrap replicates, in which a statistic that is
    undefined is NaN or infinite. Not empty."""
    try:
        arr = np.asarray(x) if not isinstance(x, (str, bytes)) else np.asarray([x])
        if arr.dtype.kind == "O":
            arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"{name} must be a numeric array of a regular shape: {exc}") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be real numbers; got values of type {arr.dtype}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty; got an array of shape {arr.shape}")
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
