"""Trials from a researcher's file or data frame: harmonised, grouped and counted into tables.

:func:`read_trials` reads one row per trial (a pandas DataFrame, or a CSV file) with a subject,
a stimulus, a response (or its correctness) and a confidence rating, and returns
:class:`Trials`: the harmonised trials, one count table per group
(:meth:`Trials.tables`) and a per-group report (:meth:`Trials.check`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from metabits.io._columns import (MAX_LEVELS, MISSING_MARKERS, confidence_scale, numbers,
                                  two_codes)
from metabits.results import Result
from metabits.validation._scalars import as_path

__all__ = ["FEW_TRIALS", "GroupTables", "Trials", "read_trials"]

#: Fewer trials than this in a group adds the flag ``few_trials`` (the measures are still
#: computed): below about a hundred trials the spread and bias of meta-d′, the M-ratio and the
#: information measures grow quickly.
FEW_TRIALS = 100

#: Column names looked for (case-insensitive) when an argument is not given; the first of each
#: tuple is the Confidence Database's own.
ALIASES = {
    "subject": ("Subj_idx", "subject", "participant", "subj", "subject_id", "participant_id"),
    "stimulus": ("Stimulus", "stimulus", "stim"),
    "response": ("Response", "response", "resp", "choice"),
    "confidence": ("Confidence", "confidence", "conf", "rating"),
    "correct": ("Accuracy", "accuracy", "correct"),
}
_ROLES = ("subject", "stimulus", "response", "confidence", "correct")
_S1 = (0, "0", "S1", "s1")
_S2 = (1, "1", "S2", "s2")


def read_file(path):
    """A CSV (or TSV) file, gzipped or not, as a pandas DataFrame; ValueError if unreadable.
    Shared with :func:`metabits.hmetad` (which reads the covariates' columns); not public."""
    import zlib

    import pandas as pd

    path = as_path(path, "data")
    if not path.exists():
        raise ValueError(f"data: no such file {str(path)!r}")
    if not path.is_file():
        raise ValueError(f"data must be a file or a pandas.DataFrame; {str(path)!r} is a folder")
    name = path.name.lower().removesuffix(".gz")
    sep = "\t" if name.endswith((".tsv", ".tab")) else ","
    try:
        return pd.read_csv(path, sep=sep, low_memory=False)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError, OSError,
            EOFError, zlib.error) as exc:
        raise ValueError(f"data: {path.name} is not a readable CSV file ({exc})") from None


def _column(frame, role, given):
    """The user's column for one role: the one given, or the one found by its usual names."""
    columns = [str(c) for c in frame.columns]
    if given is not None:
        if not isinstance(given, str):
            raise ValueError(f"{role} must be a column name (a str); got {given!r}")
        if given not in columns:
            raise ValueError(f"{role}={given!r}: the data have no such column (columns: "
                             f"{columns[:12]})")
        return given
    lower = {c.lower(): c for c in columns}
    for alias in ALIASES[role]:
        if alias.lower() in lower:
            return lower[alias.lower()]
    return None


def _labels(series, role, column):
    """A column's values as strings, missing values (and the missing markers) as None."""
    text = series.astype("string").str.strip()
    missing = text.isna() | text.str.lower().isin(MISSING_MARKERS)
    return np.array([None if m else v for v, m in zip(text.tolist(), missing.tolist())],
                    dtype=object)


def _coded(series, role, column, codes, other=None):
    """A stimulus or response column as 0 (S1) / 1 (S2) / NaN, and its (S1, S2) codes."""
    if codes is not None:
        labels = _labels(series, role, column)
        mapping = {str(k).strip(): v for k, v in codes.items()}
        out = np.full(len(labels), np.nan)
        unknown = sorted({v for v in labels if v is not None and v not in mapping})
        if unknown:
            raise ValueError(f"{role} column {column!r} has values {unknown[:5]} that codes "
                             f"does not map (codes maps {sorted(mapping)[:6]})")
        s1 = s2 = None
        for i, v in enumerate(labels):
            if v is None:
                continue
            side = mapping[v]
            if side in _S1:
                out[i], s1 = 0.0, v
            elif side in _S2:
                out[i], s2 = 1.0, v
            else:
                raise ValueError(f"codes must map each label to 'S1' or 'S2' (or 0 or 1); got "
                                 f"{v!r}: {side!r}")
        return out, (s1, s2)
    if series.dtype.kind == "b":
        series = series.astype(float)
    try:
        values = numbers(series, column).to_numpy()
    except ValueError:
        labels = sorted({v for v in _labels(series, role, column) if v is not None})
        other = labels[-1] if len(labels) > 1 else "other"
        raise ValueError(
            f"{role} column {column!r} has the labels {labels[:5]}: pass codes= to say which is "
            f"S1 and which S2, e.g. codes={{{labels[0]!r}: 'S1', {other!r}: 'S2'}} (on the "
            f"command line: --codes {labels[0]}=S1,{other}=S2)") from None
    ok = ~np.isnan(values)
    if not np.any(ok):
        raise ValueError(f"{role} column {column!r} has no value to read")
    try:
        pair = two_codes(values[ok], "Stimulus" if role == "stimulus" else "Response", other)
    except ValueError as exc:
        raise ValueError(str(exc).replace("'Stimulus'", repr(column))
                         .replace("'Response'", repr(column))) from None
    out = np.where(ok, (values == pair[1]).astype(float), np.nan)
    return out, tuple(int(v) if float(v).is_integer() else float(v) for v in pair)


def _binned(conf, bins, column, group_codes):
    """Continuous confidence binned as the user said: levels 1 … K and the bin edges."""
    ok = ~np.isnan(conf)
    if isinstance(bins, tuple) and len(bins) == 2 and bins[0] == "quantile":
        n = bins[1]
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2 or n > MAX_LEVELS:
            raise ValueError(f"bins=('quantile', n) needs an integer n from 2 to {MAX_LEVELS}; got "
                             f"{bins!r}")
        out = np.full(len(conf), np.nan)
        for g in np.unique(group_codes[ok]):
            rows = ok & (group_codes == g)
            ranks = conf[rows].argsort(kind="stable").argsort(kind="stable")
            out[rows] = np.floor(ranks * n / rows.sum()) + 1
        return out, ("quantile", int(n))
    if isinstance(bins, (bool, str)) or bins is None:
        raise ValueError(f"bins must be a number of equal-width bins, a sequence of bin edges or "
                         f"('quantile', n); got {bins!r}")
    if np.ndim(bins) == 0:
        n = bins
        if not isinstance(n, (int, np.integer)) or n < 2 or n > MAX_LEVELS:
            raise ValueError(f"bins must be an integer from 2 to {MAX_LEVELS} (equal-width bins); "
                             f"got {bins!r}")
        lo, hi = np.min(conf[ok]), np.max(conf[ok])
        if hi == lo:
            raise ValueError(f"confidence column {column!r} holds one value ({lo:g}): nothing "
                             f"to bin")
        edges = np.linspace(lo, hi, int(n) + 1)
    else:
        try:
            edges = np.asarray(bins, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"bins must be numbers (bin edges); got {bins!r}") from None
        if edges.ndim != 1 or len(edges) < 3 or not np.all(np.isfinite(edges)) \
                or np.any(np.diff(edges) <= 0):
            raise ValueError(f"bins must be at least three increasing finite edges (two bins); "
                             f"got {bins!r}")
        outside = ok & ((conf < edges[0]) | (conf > edges[-1]))
        if np.any(outside):
            raise ValueError(f"confidence column {column!r} has values outside the bin edges "
                             f"{edges[0]:g} … {edges[-1]:g}, e.g. {conf[outside][:3].tolist()}")
    # bins are [e_k, e_{k+1}), the last one closed
    out = np.where(ok, np.clip(np.searchsorted(edges, conf, side="right"), 1, len(edges) - 1),
                   np.nan)
    return out, tuple(float(e) for e in edges)


@dataclass(frozen=True)
class GroupTables(Result):
    """Results of :meth:`Trials.tables`; also a mapping.

    Attributes
    ----------
    labels : pandas.DataFrame
        One row per group: its labels, in columns named as the data's grouping columns.
    counts : ndarray of int, shape (n_groups, 2, 2K)
        Each group's count table in the library's convention: row 0 the stimulus S1, row 1 S2;
        columns from "S1, most confident" to "S2, most confident".
    """

    labels: object
    counts: np.ndarray

    def to_frame(self):
        """Each group's labels, trial count and cells (``nR_S1_1`` … ``nR_S2_2K``).

        Returns
        -------
        pandas.DataFrame
        """
        frame = self.labels.copy()
        frame["n_trials"] = self.counts.sum(axis=(-2, -1))
        L = self.counts.shape[-1]
        for s, row in enumerate(("nR_S1", "nR_S2")):
            for j in range(L):
                frame[f"{row}_{j + 1}"] = self.counts[:, s, j]
        return frame


@dataclass(frozen=True)
class Trials(Result):
    """Harmonised trials: results of :func:`read_trials`; also a mapping.

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per trial that has every value needed, in the data's order: the grouping
        columns (named as in the data), ``stimulus`` and ``response`` (0 = S1, 1 = S2),
        ``confidence`` (1 … K) and ``correct`` (1 or 0).
    groups : tuple of str
        The grouping columns: the subject column (if any), then ``by``.
    n_levels : int
        K, the number of confidence levels.
    scale : tuple
        The confidence scale: the raw value of each level, the bin edges, or
        ``("quantile", K)`` for quantile bins.
    codes : dict
        ``{"stimulus": (S1, S2), "response": (S1, S2)}``: the data's codes of S1 and S2.
    columns : dict
        The data's column for each role (``subject``, ``stimulus``, ``response``,
        ``confidence``, ``correct``; None where not used).
    n_rows : int
        Rows in the data.
    n_dropped : dict
        Rows dropped, by the first column in which a value was missing.
    n_mismatch : int or None
        Trials on which the correctness column disagrees with stimulus == response (None
        without both columns).
    source : str
        The file read, or ``"DataFrame"``.
    """

    frame: object
    groups: tuple
    n_levels: int
    scale: tuple
    codes: dict
    columns: dict
    n_rows: int
    n_dropped: dict
    n_mismatch: object
    source: str

    def to_frame(self):
        """The harmonised trials (a copy of :attr:`frame`).

        Returns
        -------
        pandas.DataFrame
        """
        return self.frame.copy()

    def tables(self) -> GroupTables:
        """One count table per group of trials (each combination of the grouping columns that
        has trials, in sorted order).

        Returns
        -------
        GroupTables

        Examples
        --------
        >>> import pandas as pd
        >>> d = pd.DataFrame({"subject": [1, 1, 1, 2, 2], "stimulus": [0, 1, 1, 0, 1],
        ...                   "response": [0, 1, 0, 0, 1], "confidence": [2, 1, 2, 1, 2]})
        >>> t = read_trials(d).tables()
        >>> t.labels.subject.tolist(), t.counts[0].tolist()
        ([1, 2], [[1, 0, 0, 0], [1, 0, 1, 0]])
        """
        import pandas as pd

        f = self.frame
        K = self.n_levels
        if self.groups:
            grouped = f.groupby(list(self.groups), sort=True, observed=True)
            code = grouped.ngroup().to_numpy()
            labels = grouped.size().index.to_frame(index=False)
            n = len(labels)
        else:
            code, labels, n = np.zeros(len(f), dtype=np.int64), pd.DataFrame(index=[0]), 1
        conf = f["confidence"].to_numpy() - 1
        col = np.where(f["response"].to_numpy() == 0, K - 1 - conf, K + conf)
        flat = np.ravel_multi_index((code, f["stimulus"].to_numpy(), col), (n, 2, 2 * K))
        counts = np.bincount(flat, minlength=n * 4 * K).reshape(n, 2, 2 * K)
        return GroupTables(labels=labels, counts=counts.astype(np.int64))

    def check(self):
        """A report per group: what was read and what stands in the way of measuring it.

        Returns
        -------
        pandas.DataFrame
            One row per group: its labels, ``n_trials``, ``n_s1`` and ``n_s2`` (trials per
            stimulus), ``n_said_s2`` (responses "S2"), ``levels_used`` (confidence levels
            used), ``acc``, ``d_prime`` (of the table padded by 1/(2K)) and ``flags``
            (:func:`metabits.measure`'s). ``attrs`` holds the data's codes, K, the scale, the
            rows read and the rows dropped.

        Examples
        --------
        >>> import pandas as pd
        >>> d = pd.DataFrame({"subject": ["a"] * 4 + ["b"] * 2,
        ...                   "stimulus": [0, 1, 0, 1, 1, 1], "response": [0, 1, 1, 1, 1, 0],
        ...                   "confidence": [1, 2, 1, 2, 2, 1]})
        >>> r = read_trials(d).check()
        >>> r[["subject", "n_trials", "flags"]].values.tolist()
        [['a', 4, 'few_trials'], ['b', 2, 'few_trials;one_stimulus']]
        """
        t = self.tables()
        frame = t.labels.copy()
        counts = t.counts
        K = self.n_levels
        frame["n_trials"] = counts.sum(axis=(-2, -1))
        frame["n_s1"] = counts[:, 0].sum(-1)
        frame["n_s2"] = counts[:, 1].sum(-1)
        frame["n_said_s2"] = counts[:, :, K:].sum(axis=(-2, -1))
        folded = counts[..., :K][..., ::-1].sum(-2) + counts[..., K:].sum(-2)
        frame["levels_used"] = (folded > 0).sum(-1)
        correct = counts[:, 0, :K].sum(-1) + counts[:, 1, K:].sum(-1)
        frame["acc"] = correct / frame["n_trials"].to_numpy()
        frame["d_prime"] = _padded_dprime(counts)
        frame["flags"] = [";".join(f) for f in group_flags(counts)]
        frame.attrs.update(codes=self.codes, n_levels=K, scale=self.scale, n_rows=self.n_rows,
                           n_dropped=self.n_dropped, n_mismatch=self.n_mismatch,
                           columns=self.columns, source=self.source)
        return frame


def _padded_dprime(counts):
    """d′ of tables (n, 2, 2K) padded by 1/(2K) (NaN for a group without both stimuli)."""
    from scipy.special import ndtri

    K = counts.shape[-1] // 2
    pad = 1.0 / (2 * K)
    n = counts.sum(-1) + pad * 2 * K
    said_s2 = counts[..., K:].sum(-1) + pad * K
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = said_s2 / n
        d = ndtri(rates[:, 1]) - ndtri(rates[:, 0])
    both = (counts.sum(-1) > 0).all(-1)
    return np.where(both, d, np.nan)


def group_flags(counts):
    """The flags of each group's table (n, 2, 2K): a list of names per group.

    ``one_stimulus`` (no trial of S1 or of S2: nothing is measurable but accuracy),
    ``one_response`` (always the same Type 1 response: d′ and the Type 2 measures are
    meaningless), ``few_trials`` (fewer than :data:`FEW_TRIALS`), ``below_chance`` (d′ < 0 on the
    padded table: the M-ratio is not interpretable), ``no_errors`` (every response correct: the
    Type 2 measures that compare correct and error trials are undefined) and ``one_level``
    (one confidence level used: no Type 2 measure is defined).
    """
    K = counts.shape[-1] // 2
    n = counts.sum(axis=(-2, -1))
    rows = counts.sum(-1)
    said_s2 = counts[..., K:].sum(axis=(-2, -1))
    correct = counts[:, 0, :K].sum(-1) + counts[:, 1, K:].sum(-1)
    folded = counts[..., :K][..., ::-1].sum(-2) + counts[..., K:].sum(-2)
    d = _padded_dprime(counts)
    out = []
    for i in range(len(counts)):
        flags = []
        if n[i] < FEW_TRIALS:
            flags.append("few_trials")
        if (rows[i] == 0).any():
            flags.append("one_stimulus")
        elif said_s2[i] in (0, n[i]):
            flags.append("one_response")
        else:
            if d[i] < 0:
                flags.append("below_chance")
            if correct[i] == n[i]:
                flags.append("no_errors")
        if (folded[i] > 0).sum() < 2:
            flags.append("one_level")
        out.append(flags)
    return out


def read_trials(data, *, subject=None, stimulus=None, response=None, confidence=None,
                correct=None, by=(), bins=None, levels=None, codes=None) -> Trials:
    """Read trials (one row each) into harmonised trials, ready to count into tables.

    Parameters
    ----------
    data : pandas.DataFrame, str or path-like
        One row per trial, or a CSV file of them (``.csv``, ``.tsv``, optionally ``.gz``). A
        file of the Confidence Database (Rahnev et al., 2020) is read with its own column names
        (``Subj_idx``, ``Stimulus``, ``Response``, ``Confidence``).
    subject : str or False, optional
        The column naming the subject (participant); default the first column named
        ``Subj_idx``, ``subject``, ``participant``, ``subj``, ``subject_id`` or
        ``participant_id`` (any capitalisation). ``False``: no subject column, the trials
        form one group (or the groups of ``by``).
    stimulus, response, confidence, correct : str, optional
        The columns of the stimulus, the Type 1 response, the confidence rating and the
        correctness (1 or 0); default the first column with one of the role's usual names
        (``stimulus``/``stim``, ``response``/``resp``/``choice``,
        ``confidence``/``conf``/``rating``, ``accuracy``/``correct``). ``response`` may be left
        out when ``correct`` is there: the response is then the stimulus on correct trials and
        the other one on errors.
    by : str or sequence of str, default ()
        Further grouping columns (a condition, a session): one table per subject and
        combination of their values.
    bins : int, sequence of float or ("quantile", int), optional
        How to bin continuous confidence: a number of equal-width bins from the lowest to the
        highest rating, bin edges, or ``("quantile", n)`` for n bins of equal counts within each
        group. Without ``bins``, confidence with more than 20 distinct values is refused.
    levels : sequence of float, optional
        The confidence scale in increasing order, when a level nobody used lies at either end
        (e.g. ``[1, 2, 3, 4]`` when nobody answered 4). Default: the evenly spaced grid from the
        lowest to the highest rating used.
    codes : mapping, optional
        Which label of the stimulus and response columns is S1 and which S2, e.g.
        ``{"left": "S1", "right": "S2"}`` (values ``"S1"``/``"S2"`` or 0/1). Needed for labels
        that are not numbers; numeric codes (0/1, 1/2, −1/1, or any two numbers) are read with
        the lower one as S1.

    Returns
    -------
    Trials
        The harmonised trials; :meth:`Trials.tables` counts them into one table per group,
        :meth:`Trials.check` reports on each group.

    Raises
    ------
    ValueError
        Naming the argument or the data's column and the offending values: a missing or unknown
        column, more than two stimuli or responses, labels without ``codes``, continuous
        confidence without ``bins``, fewer than two confidence levels, a correctness column
        that is not 0/1, or bad ``bins``, ``levels`` or ``codes``.

    Notes
    -----
    Rows with a missing value in a column that is used (``NaN``, an empty cell, ``NA``,
    ``TIMEOUT``, ...) are dropped and counted (``n_dropped``). Ratings may be floats
    (``1.0`` … ``4.0``, as pandas reads a column with a missing value).

    References
    ----------
    Rahnev, Desender, Lee, et al. (2020). The Confidence Database. *Nature Human Behaviour* 4,
    317–325 (the format of its files).

    Examples
    --------
    >>> import pandas as pd
    >>> d = pd.DataFrame({"participant": [1, 1, 1, 2], "stim": ["L", "R", "R", "L"],
    ...                   "resp": ["L", "R", "L", "L"], "rating": [4.0, 2.0, None, 1.0]})
    >>> t = read_trials(d, codes={"L": "S1", "R": "S2"})
    >>> t.n_levels, t.n_dropped, t.frame.confidence.tolist()
    (4, {'rating': 1}, [4, 2, 1])
    """
    frame, source = _frame_of(data)
    by = _grouping(frame, codes, by)
    cols = _roles(frame, by, subject=subject, stimulus=stimulus, response=response,
                  confidence=confidence, correct=correct)
    stim, resp, conf, corr, found = _coded_values(frame, cols, codes)
    keep, n_dropped = _complete(frame, cols, by, stim, resp, conf)
    groups = tuple(c for c in ([cols["subject"]] if cols["subject"] else []) + list(by))
    kept = frame.loc[keep, list(groups)].reset_index(drop=True)
    stim, resp = stim[keep].astype(np.int8), resp[keep].astype(np.int8)
    rating, scale, K = _ratings(conf[keep], kept, groups, cols["confidence"], bins, levels)
    out = kept.copy()
    out["stimulus"] = stim
    out["response"] = resp
    out["confidence"] = rating.astype(np.int64)
    out["correct"] = (stim == resp).astype(np.int8)
    mismatch = None
    if corr is not None and cols["response"] is not None:
        c = corr[keep]
        mismatch = int(np.sum(~np.isnan(c) & (c != out["correct"].to_numpy())))
    return Trials(frame=out, groups=groups, n_levels=int(K), scale=scale, codes=found,
                  columns=cols, n_rows=len(frame), n_dropped=n_dropped, n_mismatch=mismatch,
                  source=source)


# ------------------------------------------------------------- the stages of read_trials


def _frame_of(data):
    """The data as a DataFrame (a file read, a mapping made a frame) with clean column names,
    and where it came from."""
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        frame, source = data, "DataFrame"
    elif isinstance(data, Mapping):
        frame, source = pd.DataFrame(dict(data)), "DataFrame"
    else:
        if not isinstance(data, (str, bytes)) and not hasattr(data, "__fspath__"):
            raise ValueError(f"data must be a pandas.DataFrame or the path of a CSV file; got "
                             f"{type(data).__name__}")
        frame = read_file(data)
        source = str(data)
    frame = frame.rename(columns=lambda c: str(c).replace("\ufeff", "").strip())
    if frame.columns.duplicated().any():
        dup = sorted(set(frame.columns[frame.columns.duplicated()]))
        raise ValueError(f"data has the column {dup[0]!r} twice")
    return frame, source


def _grouping(frame, codes, by):
    """``by`` as a tuple of the data's columns (``codes`` checked to be a mapping first)."""
    if codes is not None and not isinstance(codes, Mapping):
        raise ValueError(f"codes must be a mapping of labels to 'S1' or 'S2'; got {codes!r}")
    if isinstance(by, str):
        by = (by,)
    try:
        by = tuple(by)
    except TypeError:
        raise ValueError(f"by must be a column name or a sequence of them; got {by!r}") from None
    for b in by:
        if not isinstance(b, str) or b not in frame.columns:
            raise ValueError(f"by={b!r}: the data have no such column (columns: "
                             f"{[str(c) for c in frame.columns][:12]})")
    return by


def _roles(frame, by, **given):
    """The data's column of each role (None where absent): the ones given, else found by their
    usual names; ValueError for a required role without a column or a column in two roles."""
    cols = {}
    if given["subject"] is False:
        cols["subject"] = None
    else:
        cols["subject"] = _column(frame, "subject", given["subject"])
        if cols["subject"] is None:
            raise ValueError(f"subject: no column named like a subject (looked for "
                             f"{list(ALIASES['subject'])}); pass subject='your column', or "
                             f"subject=False for trials of one subject")
    for role in ("stimulus", "response", "confidence", "correct"):
        cols[role] = _column(frame, role, given[role])
    for role in ("stimulus", "confidence"):
        if cols[role] is None:
            raise ValueError(f"{role}: no column named like a {role} (looked for "
                             f"{list(ALIASES[role])}); pass {role}='your column'")
    if cols["response"] is None and cols["correct"] is None:
        raise ValueError(f"response: no column named like a response (looked for "
                         f"{list(ALIASES['response'])}) and none of correctness; pass "
                         f"response='your column' or correct='your column'")
    used = [c for c in (cols["subject"], cols["stimulus"], cols["response"], cols["confidence"],
                        cols["correct"]) if c is not None] + list(by)
    if len(set(used)) < len(used):
        raise ValueError(f"one column serves two roles: {cols} by={by}")
    return cols


def _coded_values(frame, cols, codes):
    """Every row's stimulus and response (0 = S1, 1 = S2), raw confidence and correctness (or
    None) as floats, NaN where missing, and the data's codes of S1 and S2."""
    stim, stim_codes = _coded(frame[cols["stimulus"]], "stimulus", cols["stimulus"], codes)
    corr = None
    if cols["correct"] is not None:
        values = frame[cols["correct"]]
        if values.dtype.kind == "b":
            values = values.astype(float)
        corr = numbers(values, cols["correct"]).to_numpy()
        bad = ~np.isnan(corr) & ~np.isin(corr, (0.0, 1.0))
        if np.any(bad):
            raise ValueError(f"correct column {cols['correct']!r} must hold 1 (correct) or 0 "
                             f"(error); got {np.unique(corr[bad])[:5].tolist()}")
    if cols["response"] is not None:
        resp, resp_codes = _coded(frame[cols["response"]], "response", cols["response"], codes,
                                  other=None if codes else stim_codes)
        if codes is None and len(np.unique(stim[~np.isnan(stim)])) == 1:
            stim, stim_codes = _coded(frame[cols["stimulus"]], "stimulus", cols["stimulus"],
                                      codes, other=resp_codes)
    else:
        resp = np.where(np.isnan(corr), np.nan, np.where(corr == 1, stim, 1 - stim))
        resp_codes = stim_codes
    conf_raw = frame[cols["confidence"]]
    if conf_raw.dtype.kind == "b":
        conf_raw = conf_raw.astype(float)
    conf = numbers(conf_raw, cols["confidence"]).to_numpy()
    return stim, resp, conf, corr, {"stimulus": stim_codes, "response": resp_codes}


def _missing(series):
    """Where a grouping column's value is missing (NaN or a missing-value marker)."""
    gone = series.isna().to_numpy().copy()
    if series.dtype.kind in "OSU" or str(series.dtype) == "string":
        gone |= series.astype("string").str.strip().str.lower().isin(MISSING_MARKERS) \
            .fillna(False).to_numpy()
    return gone


def _complete(frame, cols, by, stim, resp, conf):
    """The rows with every value needed, and the rows dropped, by the first column in which a
    value was missing (the subject, ``by``, stimulus, response or correctness, confidence)."""
    checks = [(c, _missing(frame[c])) for c in ([cols["subject"]] if cols["subject"] else [])
              + list(by)]
    checks += [(cols["stimulus"], np.isnan(stim))]
    if cols["response"] is not None:
        checks.append((cols["response"], np.isnan(resp)))
    else:
        checks.append((cols["correct"], np.isnan(resp)))
    checks.append((cols["confidence"], np.isnan(conf)))
    keep = np.ones(len(frame), dtype=bool)
    n_dropped = {}
    for c, missing in checks:
        gone = keep & missing
        if gone.any():
            n_dropped[c] = int(gone.sum())
        keep &= ~gone
    if not keep.any():
        raise ValueError("data: no trial has every value needed (subject, stimulus, response "
                         f"and confidence); dropped {n_dropped}")
    return keep, n_dropped


def _ratings(conf, kept, groups, column, bins, levels):
    """The confidence levels 1 … K of the kept trials, the scale and K: binned as ``bins``
    says, else on the scale of :func:`metabits.io._columns.confidence_scale`."""
    if bins is not None:
        if levels is not None:
            raise ValueError("give bins or levels, not both")
        code = kept.groupby(list(groups), sort=False).ngroup().to_numpy() if groups else \
            np.zeros(len(kept), dtype=np.int64)
        rating, scale = _binned(conf, bins, column, code)
        return rating, scale, len(scale) - 1 if scale[0] != "quantile" else scale[1]
    try:
        grid = confidence_scale(conf, levels)
    except ValueError as exc:
        text = str(exc)
        if "continuous confidence" in text:
            raise ValueError(
                f"confidence column {column!r} has {len(np.unique(conf))} "
                f"distinct values (continuous?): pass bins=4 (equal-width bins), "
                f"bins=[0, 25, 50, 75, 100] (bin edges) or bins=('quantile', 4)") from None
        if "one confidence level" in text:
            raise ValueError(f"confidence column {column!r} holds one value "
                             f"({np.unique(conf)[0]:g}): a table needs at least two "
                             f"levels (pass levels= for the whole scale)") from None
        raise
    rating = np.abs(conf[:, None] - grid[None, :]).argmin(axis=1) + 1
    return rating, tuple(int(v) if float(v).is_integer() else float(v) for v in grid), len(grid)
