"""Input checks shared by the library: every bad input becomes a ``ValueError`` naming the problem."""

from __future__ import annotations

import numbers

import numpy as np

#: Slack allowed when comparing floating-point probabilities with their limits.
TOL = 1e-9


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
    if rng is None or (isinstance(rng, (numbers.Integral, np.random.SeedSequence))
                       and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    raise ValueError(f"rng must be a numpy.random.Generator, an integer seed or None; got {rng!r}")


def as_probability(x, name: str, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """Return ``x`` as a float array of probabilities in ``[low, high]``."""
    arr = as_float_array(x, name)
    if np.any(arr < low - TOL) or np.any(arr > high + TOL):
        bad = arr[(arr < low - TOL) | (arr > high + TOL)].ravel()[0]
        raise ValueError(f"{name} must lie in [{low:g}, {high:g}]; got {bad:g}")
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


def as_counts(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array of non-negative, finite counts."""
    arr = as_float_array(x, name)
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative; got {arr[arr < 0].ravel()[0]:g}")
    return arr


def scalar_or_array(arr: np.ndarray):
    """Give 0-d results back as Python floats, others unchanged."""
    return float(arr) if np.ndim(arr) == 0 else arr
