"""The checks of tables and per-trial data: count, response and contingency tables, group
members' rates, per-trial categories and values.

Part of :mod:`metabits.validation` (import every check from there); the table convention is in
its docstring.
"""

from __future__ import annotations

import numpy as np

from metabits.validation._scalars import (MAX_SIZE, TOL, as_distribution, as_float_array,
                                          as_prior, as_probability)

__all__ = ["as_categories", "as_contingency_table", "as_count_table", "as_counts",
           "as_member_rates", "as_member_tables", "as_response_table", "as_same_length",
           "as_trial_values", "as_whole_counts"]


def as_counts(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array of non-negative, finite counts."""
    arr = as_float_array(x, name)
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative; got {arr[arr < 0].ravel()[0]:g}")
    return arr


def as_whole_counts(counts: np.ndarray, what: str, name: str = "counts", *, m=None,
                    m_name: str = "m") -> np.ndarray:
    """Checked counts (from :func:`as_counts` or :func:`as_count_table`) as int64 for
    resampling (:mod:`metabits.resample`), checked before anything is allocated: whole
    numbers; rows (last axis) of at most 2**62 trials, whose resampling tables (the binomial
    distribution functions the resampler tabulates for a row, about 100 numbers per trial of a
    row of three or more categories, so rows of up to about a million trials) hold at most
    :data:`MAX_SIZE` numbers; and, where ``m`` resamples of all the counts are held at once,
    at most :data:`MAX_SIZE` numbers in them (``m`` × ``counts.size``: rows × categories × m).

    ``what`` names the caller (e.g. "bias reduction") in the message, ``name`` the argument of
    the counts and ``m_name`` that of ``m`` (a checked size, e.g. "n_boot").
    """
    from metabits._resampling import table_entries

    counts = np.asarray(counts, dtype=float)
    if np.any(counts != np.round(counts)):
        raise ValueError(f"{what} resamples trials: {name} must be whole numbers")
    if np.any(counts.sum(axis=-1) > 2.0 ** 62):
        raise ValueError(f"{what} resamples trials: a row of {name} holds more than 2**62 of "
                         "them")
    if counts.ndim and counts.size:
        tables = table_entries(counts)
        if np.any(tables > MAX_SIZE):
            at = np.unravel_index(int(np.argmax(tables)), tables.shape)
            row = counts[at]
            shown = ", ".join(f"{v:g}" for v in row[:6]) + (", …" if row.size > 6 else "")
            raise ValueError(f"{what} resamples trials: a row of {name} of {row.sum():,.0f} "
                             f"trials ([{shown}]) needs resampling tables of up to "
                             f"{tables[at]:,.0f} numbers; at most {MAX_SIZE:,} (about 100 "
                             f"numbers per trial: rows of up to about a million trials)")
    if m is not None and m * counts.size > MAX_SIZE:
        raise ValueError(f"{what}: {m_name} = {m:,} resamples of {counts.size:,} counts would "
                         f"hold {m * counts.size:,} numbers; at most {MAX_SIZE:,}")
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

    Their shapes must agree (and be 1-D unless ``one_d`` is False, e.g. stacks of data sets),
    and they must not be empty.
    """
    sa, sb = np.shape(a), np.shape(b)
    if sa != sb or not sa or (one_d and len(sa) != 1):
        kind = "1-D arrays" if one_d else "arrays"
        raise ValueError(f"{names} must be {kind} of the same shape (the same length, one value "
                         f"per trial each); got shapes {sa} and {sb}")
    if 0 in sa:
        raise ValueError(f"{names} must not be empty; got arrays of shape {sa}")
    return sa[-1]


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
