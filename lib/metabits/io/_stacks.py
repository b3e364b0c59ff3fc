"""Count tables of different K in one array: stacks padded to the widest scale."""

from __future__ import annotations

import numpy as np

from metabits.validation import as_choice, as_counts, as_int_array

__all__ = ["merge_levels", "stack_tables"]


def stack_tables(tables):
    """Count tables of different confidence scales (K) stacked in one array, zero-padded.

    Data sets, and people in them, rate confidence on scales of different lengths; a stack
    holds person p's table in its first ``2 * n_levels[p]`` columns and zeros beyond, so that
    tables of every K travel through one array (and :func:`merge_levels` works on all at once).

    Parameters
    ----------
    tables : sequence of array_like
        Count tables ``(..., 2, 2K)`` in the library's convention (:mod:`metabits.validation`),
        each with its own K >= 1 and all with the same leading shape (e.g. ``(2, 2K)``, or
        ``(L, 2, 2K)`` for L conditions each).

    Returns
    -------
    stack : ndarray, shape (P, ..., 2, 2 * max(K))
        The tables, padded with zero columns; integer when every table is.
    n_levels : ndarray of int, shape (P,)
        K of each table.

    Raises
    ------
    ValueError
        For no tables, a table that is not counts (non-negative finite numbers) of shape
        ``(..., 2, 2K)``, or tables of different leading shapes.

    References
    ----------
    Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325: the Confidence Database, whose
    data sets rate confidence on scales of 2 to 11 levels.

    Examples
    --------
    >>> stack, K = stack_tables([[[3, 1, 1, 0], [0, 1, 1, 3]],
    ...                          [[5, 2, 1, 1, 0, 0], [0, 0, 1, 1, 2, 5]]])
    >>> stack.shape, K.tolist()
    ((2, 2, 6), [2, 3])
    >>> stack[0].tolist()
    [[3, 1, 1, 0, 0, 0], [0, 1, 1, 3, 0, 0]]
    """
    if isinstance(tables, (str, bytes)) or not hasattr(tables, "__len__"):
        raise ValueError(f"tables must be a sequence of count tables (..., 2, 2K); got "
                         f"{tables!r:.60}")
    if not len(tables):
        raise ValueError("tables must not be empty: a stack needs one table at least")
    checked = []
    for i, t in enumerate(tables):
        c = as_counts(t, f"tables[{i}]")
        if c.ndim < 2 or c.shape[-2] != 2 or c.shape[-1] % 2 or c.shape[-1] < 2:
            raise ValueError(f"tables[{i}] must be a count table (..., 2, 2K) with K >= 1; got "
                             f"shape {c.shape}")
        if checked and c.shape[:-2] != checked[0][0].shape[:-2]:
            raise ValueError(f"tables must share their leading shape; tables[0] has "
                             f"{checked[0][0].shape[:-2]}, tables[{i}] {c.shape[:-2]}")
        checked.append((c, np.asarray(t).dtype.kind in "iu"))
    K = np.array([c.shape[-1] // 2 for c, _ in checked], dtype=np.int64)
    dtype = np.int64 if all(whole for _, whole in checked) else float
    stack = np.zeros((len(checked),) + checked[0][0].shape[:-1] + (2 * int(K.max()),),
                     dtype=dtype)
    for p, (c, _) in enumerate(checked):
        stack[p, ..., : c.shape[-1]] = c
    return stack, K


def _checked(tables, n_levels):
    """Tables (P, ..., 2, M) as floats (flattened to (n, 2, M)), K broadcast to the flat axis,
    and the leading shape."""
    t = as_counts(tables, "tables")
    if t.ndim < 3 or t.shape[-2] != 2 or t.shape[0] == 0:
        raise ValueError(f"tables must have shape (P, ..., 2, M) with P >= 1; got {t.shape}")
    K = as_int_array(n_levels, "n_levels", least=np.iinfo(np.int64).min)
    if K.ndim != 1 or len(K) != len(t):
        raise ValueError(f"n_levels must give one K per table of the first axis of tables "
                         f"({len(t)} tables); got shape {K.shape}")
    if K.min() < 2 or 2 * K.max() > t.shape[-1]:
        raise ValueError(f"n_levels must be whole numbers from 2 to {t.shape[-1] // 2} (the "
                         f"tables have {t.shape[-1]} columns)")
    lead = t.shape[:-2]
    Kb = np.broadcast_to(K.reshape((-1,) + (1,) * (len(lead) - 1)), lead).ravel()
    return t.reshape((-1,) + t.shape[-2:]), Kb, lead


def merge_levels(tables, n_levels, which: str):
    """Remove the highest or the lowest confidence criterion: K levels become K − 1.

    ``which="top"`` merges the two highest confidence levels of each response (more ratings at
    the new top level: a higher metacognitive bias); ``"bottom"`` merges the two lowest (a lower
    bias). The trials and the Type 1 responses are unchanged: a measure of metacognition that
    differs between the two depends on metacognitive bias.

    Parameters
    ----------
    tables : array_like, shape (P, ..., 2, M)
        A stack of count tables of different K (:func:`stack_tables`): table p in its first
        ``2 * n_levels[p]`` columns; extra leading axes (halves, conditions) share K.
    n_levels : array_like of int, shape (P,)
        K of each table, 3 … M/2.
    which : {"top", "bottom"}

    Returns
    -------
    tables : ndarray, shape (P, ..., 2, M)
        The merged tables, padded the same way, of the input's dtype.
    n_levels : ndarray of int, shape (P,)
        K − 1.

    Raises
    ------
    ValueError
        For tables of the wrong shape (or none), negative or non-finite counts, K outside
        3 … M/2, or an unknown ``which``.

    References
    ----------
    Xue, Shekhar & Rahnev (2021), *Consciousness and Cognition* 92, 103196 (criterion
    removal); Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (the
    dependence on metacognitive bias as Cohen's d between the two).

    Examples
    --------
    >>> t, K = merge_levels(np.array([[[5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5]]]), [3], "top")
    >>> t.tolist(), K.tolist()
    ([[[9, 3, 2, 1, 0, 0], [1, 2, 3, 9, 0, 0]]], [2])
    >>> merge_levels(np.array([[[5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5]]]), [3], "bottom")[0].tolist()
    [[[5, 7, 3, 0, 0, 0], [0, 3, 7, 5, 0, 0]]]
    """
    which = as_choice(which, ("top", "bottom"), "which")
    flat, K, lead = _checked(tables, n_levels)
    if K.min() < 3:
        raise ValueError(f"n_levels must be >= 3 to merge two levels (K >= 3); got "
                         f"{int(K.min())}")
    out = np.zeros_like(flat)
    for k in np.unique(K):
        idx = np.flatnonzero(K == k)
        t = flat[idx]
        s1, s2 = t[..., :k][..., ::-1], t[..., k:2 * k]  # each from lowest to highest confidence
        if which == "top":
            s1 = np.concatenate([s1[..., :k - 2], s1[..., k - 2:].sum(-1, keepdims=True)], -1)
            s2 = np.concatenate([s2[..., :k - 2], s2[..., k - 2:].sum(-1, keepdims=True)], -1)
        else:
            s1 = np.concatenate([s1[..., :2].sum(-1, keepdims=True), s1[..., 2:]], -1)
            s2 = np.concatenate([s2[..., :2].sum(-1, keepdims=True), s2[..., 2:]], -1)
        out[idx, :, : 2 * (k - 1)] = np.concatenate([s1[..., ::-1], s2], -1)
    dtype = np.asarray(tables).dtype
    K_out = np.asarray(n_levels)
    return out.reshape(lead + flat.shape[-2:]).astype(dtype), (K_out - 1).astype(K_out.dtype)
