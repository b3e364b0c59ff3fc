"""Data preparation of :func:`metabits.sdt.hmetad`: the sampler's settings, a study's trials or
count tables into tables (people × conditions), and the covariates' design."""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np

from metabits.results import Result
from metabits.validation import as_count_table, as_int, as_probability, as_scalar

#: most chains of a fit (each is a thread's sampler state; a billion asks nutpie for 32 GB)
MAX_CHAINS = 64
#: most draws, and most tuning steps, per chain
MAX_DRAWS = 100_000


def _text(label):
    return str(label.item() if isinstance(label, np.generic) else label)



def _frame(rows):
    import pandas as pd

    return pd.DataFrame(rows)



def _sampler(chains, draws, tune, target_accept, seed):
    chains = as_int(chains, "chains", least=1, most=MAX_CHAINS)
    draws = as_int(draws, "draws", least=1, most=MAX_DRAWS)
    tune = as_int(tune, "tune", least=0, most=MAX_DRAWS)
    if isinstance(target_accept, (bool, np.bool_)):
        raise ValueError(f"target_accept must be a number in (0, 1); got {target_accept!r}")
    target_accept = float(as_probability(as_scalar(target_accept, "target_accept"),
                                         "target_accept", 0.0, 1.0, low_open=True,
                                         high_open=True))
    if seed is None:
        seed = int(np.random.default_rng().integers(2 ** 31))
    else:
        seed = as_int(seed, "seed", least=0, most=2 ** 63 - 1)
    return dict(chains=chains, draws=draws, tune=tune, target_accept=target_accept, seed=seed,
                cores=1)


def _is_trials(data):
    import pandas as pd

    from metabits.io import Trials

    return isinstance(data, (pd.DataFrame, Trials, str, bytes, os.PathLike)) or (
        isinstance(data, Mapping) and not isinstance(data, Result))


def _covariate_names(covariates):
    """The covariates' column names, a tuple of str (None: none)."""
    if covariates is None:
        return ()
    names = (covariates,) if isinstance(covariates, str) else covariates
    try:
        names = tuple(names)
    except TypeError:
        names = None
    if not names or not all(isinstance(c, str) for c in names) or len(set(names)) < len(names):
        raise ValueError("covariates must be a column name or a list of different column names "
                         f"(for trials), or an array (n_people, n_covariates) (for count "
                         f"tables); got {covariates!r}")
    return names


def _from_trials(data, columns, condition, read=None, covariates=None):
    """Count tables (n, C, 2, 2K) of a study's trials, the people's and conditions' labels, and
    the people's values of the covariate columns (a DataFrame, one row per person; None
    without covariates)."""
    import pandas as pd

    from metabits.io._trials import Trials, read_file, group_flags, read_trials

    read = {k: v for k, v in (read or {}).items() if v is not None}
    if condition is not None and not isinstance(condition, str):
        raise ValueError(f"condition must be a column name (a str); got {condition!r}")
    by = () if condition is None else (condition,)
    names = _covariate_names(covariates)
    if isinstance(data, Trials):
        if any(v is not None for v in columns.values()) or read:
            given = ", ".join(f"{k}=" for k, v in {**columns, **read}.items() if v is not None)
            raise ValueError("data are read trials (metabits.io.Trials): their columns are "
                             f"chosen already; got {given}")
        trials = data
        missing = [c for c in names if c not in trials.groups]
        if missing:
            raise ValueError(f"covariates={covariates!r}: read trials keep only their grouping "
                             f"columns {list(trials.groups)}, not {missing[0]!r}; read them "
                             f"with by=[..., {missing[0]!r}], or pass the trials' DataFrame")
        raw = trials.frame
        extra = [g for g in trials.groups
                 if g != trials.columns["subject"] and g not in by and g not in names]
        if len(extra) > 1 or (extra and condition is not None):
            raise ValueError(f"condition={condition!r}: the trials are grouped by "
                             f"{list(trials.groups)}; hmetad takes a person and one condition")
        if extra:
            raise ValueError(f"condition=None: the trials are grouped by {list(trials.groups)}; "
                             f"pass condition={extra[0]!r}")
        if not set(by) <= set(trials.groups):
            raise ValueError(f"condition={condition!r}: the trials are not grouped by it; read "
                             f"them with by={condition!r}")
    else:
        raw = None
        if names:  # the raw rows, for the covariates' values (read_trials drops some rows)
            if isinstance(data, pd.DataFrame):
                raw = data
            elif isinstance(data, Mapping):
                raw = pd.DataFrame(dict(data))
            else:
                raw = read_file(data)
            raw = raw.rename(columns=lambda c: str(c).replace("\ufeff", "").strip())
            for c in names:
                if c not in raw.columns:
                    raise ValueError(f"covariates={covariates!r}: the data have no column "
                                     f"{c!r} (columns: {[str(x) for x in raw.columns][:12]})")
            data = raw
        trials = read_trials(data, **columns, by=by, **read)
    subject = trials.columns["subject"]
    cov_values = None
    if names:
        cov_values = _person_values(raw, subject, names, covariates, by)
    tables = trials.tables()
    labels, counts = tables.labels, tables.counts
    flags = group_flags(counts)
    for i, fl in enumerate(flags):
        bad = [f for f in fl if f in ("one_stimulus", "one_response")]
        if bad:
            where = ", ".join(f"{col}={_plain(labels.iloc[i][col])!r}" for col in labels.columns)
            raise ValueError(f"{where or 'the trials'} cannot be fitted: "
                             f"{bad[0].replace('_', ' ')} in all its {int(counts[i].sum())} "
                             "trials")
    people = list(dict.fromkeys(labels[subject])) if subject is not None else ["the trials"]
    conds = list(dict.fromkeys(labels[condition])) if condition is not None else ["all"]
    n, C = len(people), len(conds)
    out = np.zeros((n, C) + counts.shape[1:], dtype=counts.dtype)
    seen = np.zeros((n, C), dtype=bool)
    p_index = {p: i for i, p in enumerate(people)}
    c_index = {c: i for i, c in enumerate(conds)}
    for row in range(len(counts)):
        i = p_index[labels[subject].iloc[row]] if subject is not None else 0
        k = c_index[labels[condition].iloc[row]] if condition is not None else 0
        out[i, k], seen[i, k] = counts[row], True
    if not seen.all():
        i, k = np.argwhere(~seen)[0]
        raise ValueError(f"{subject}={_text(people[i])!r} has no trials in "
                         f"{condition}={_text(conds[k])!r}: each person needs trials in every "
                         "condition (leave the person or the condition out)")
    if cov_values is not None:
        cov_values = cov_values.loc[people]
    return out, [_plain(p) for p in people], [_plain(c) for c in conds], cov_values


def _person_values(raw, subject, names, covariates, by):
    """One row per person of the covariate columns ``names`` of the trials ``raw``; ValueError
    for a missing value or a value that varies within a person."""
    if subject is None:
        raise ValueError(f"covariates={covariates!r}: the trials are one person's "
                         "(subject=False); covariates are the people's")
    for c in names:
        if c == subject or c in by:
            raise ValueError(f"covariates={covariates!r}: {c!r} is the "
                             f"{'subject' if c == subject else 'condition'} column")
    rows = raw[raw[subject].notna()]
    for c in names:
        gone = rows[c].isna()
        if gone.any():
            at = rows.index[np.flatnonzero(gone.to_numpy())[0]]
            raise ValueError(f"covariates={covariates!r}: column {c!r} has a missing value "
                             f"for {subject}={_text(rows.loc[at, subject])!r}")
        spread = rows.groupby(subject, sort=False)[c].nunique()
        if (spread > 1).any():
            who = spread.index[np.flatnonzero(spread.to_numpy() > 1)[0]]
            seen = list(dict.fromkeys(rows.loc[rows[subject] == who, c]))[:3]
            raise ValueError(f"covariates={covariates!r}: column {c!r} varies within "
                             f"{subject}={_text(who)!r} ({', '.join(map(repr, seen))}); a "
                             "covariate is constant within each person")
    return rows.groupby(subject, sort=False)[list(names)].first()


def _covariate_design(values, covariates):
    """The design matrix (n, J) of covariate columns (a DataFrame, one row per person) and the
    names of its columns: a numeric column as it is; any other (text, bool, categorical) as
    indicators of its levels after the first (sorted, or a categorical's order), named
    ``column=level``. ValueError for a column the same for every person, or collinear columns."""
    import pandas as pd

    columns, labels = [], []
    for name in values.columns:
        col = values[name]
        if col.dtype.kind in "iuf":
            x = col.to_numpy(dtype=float)
            if not np.isfinite(x).all():
                raise ValueError(f"covariates={covariates!r}: column {name!r} has a value that "
                                 "is missing or not finite")
            columns.append(x)
            labels.append(str(name))
            continue
        if isinstance(col.dtype, pd.CategoricalDtype):
            levels = [v for v in col.cat.categories if (col == v).any()]
        else:
            levels = sorted(col.unique(), key=lambda v: (str(type(v)), v))
        if len(levels) < 2:
            raise ValueError(f"covariates={covariates!r}: column {name!r} has one level "
                             f"({_text(levels[0])!r}) for every person")
        for level in levels[1:]:
            columns.append((col == level).to_numpy(dtype=float))
            labels.append(f"{name}={_text(level)}")
    x = np.column_stack(columns)
    centred = x - x.mean(axis=0)
    flat = np.flatnonzero(np.ptp(x, axis=0) == 0)
    if flat.size:
        raise ValueError(f"covariates={covariates!r}: {labels[flat[0]]!r} is the same for "
                         "every person (its effect cannot be told from the group mean)")
    if np.linalg.matrix_rank(centred) < x.shape[1]:
        raise ValueError(f"covariates={covariates!r}: the columns {labels} are collinear once "
                         f"centred ({x.shape[0]} people): leave one out")
    return x, labels


def _table_covariates(covariates, n):
    """Covariates of count tables: a DataFrame (n rows) or an array (n,) or (n, J)."""
    import pandas as pd

    if isinstance(covariates, pd.Series):
        covariates = covariates.to_frame()
    if isinstance(covariates, pd.DataFrame):
        if len(covariates) != n:
            raise ValueError(f"covariates: a row per person is needed ({n}); got "
                             f"{len(covariates)} rows")
        return _covariate_design(covariates.reset_index(drop=True), "<DataFrame>")
    if isinstance(covariates, str) or (isinstance(covariates, (list, tuple)) and covariates
                                       and all(isinstance(c, str) for c in covariates)):
        raise ValueError(f"covariates={covariates!r}: column names are for trials; for count "
                         "tables pass an array (n_people, n_covariates)")
    try:
        x = np.asarray(covariates, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"covariates must be numbers, an array (n_people, n_covariates); got "
                         f"{covariates!r}") from None
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] != n or x.shape[1] == 0:
        raise ValueError(f"covariates must have shape ({n},) or ({n}, n_covariates), a row per "
                         f"person; got shape {np.shape(covariates)}")
    bad = np.argwhere(~np.isfinite(x))
    if bad.size:
        raise ValueError(f"covariates must be finite; got {float(x[tuple(bad[0])])!r} for "
                         f"person {bad[0][0]}, covariate {bad[0][1]}")
    return _covariate_design(pd.DataFrame(x, columns=[str(j) for j in range(x.shape[1])]),
                             covariates if x.size <= 12 else f"<array of shape {x.shape}>")


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _from_tables(data):
    tables = as_count_table(data, "data", min_levels=2)
    if tables.ndim == 2:
        tables = tables[None, None]
    elif tables.ndim == 3:
        tables = tables[:, None]
    elif tables.ndim != 4:
        raise ValueError(f"data as count tables must have shape (n, 2, 2K) or (n, C, 2, 2K); "
                         f"got shape {tables.shape}")
    n, C = tables.shape[:2]
    return tables, list(range(n)), list(range(C))

