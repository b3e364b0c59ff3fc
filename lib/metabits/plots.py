"""Figures of one's own data, drawn with seaborn: each person's estimates with their intervals, a
measure against accuracy, and the type 2 ROC curves.

Each function takes the table :func:`metabits.measure` returns (or trials, for the ROC curves),
draws into a matplotlib ``Axes`` (a new figure unless ``ax`` is given) and returns the ``Axes``.
matplotlib and seaborn are imported when a function is called.
"""

from __future__ import annotations

import numpy as np

from metabits._registry import MEASURES
from metabits.validation import as_choice, as_flag

__all__ = ["against_accuracy", "forest", "type2_roc_curves"]

#: Readable names of the measures' columns, for axis labels: every measure of the registry
#: (:data:`metabits.MEASURES`) and the bias-reduced ones (``<name>_br``).
LABELS = {**{k: m.label for k, m in MEASURES.items()},
          **{f"{k}_br": f"{m.label}, bias-reduced" for k, m in MEASURES.items()
             if m.bias_reducible}}


def _frame(results, name="results"):
    import pandas as pd

    if not isinstance(results, pd.DataFrame) or "n_trials" not in results.columns:
        raise ValueError(f"{name} must be the DataFrame metabits.measure returns (one row per "
                         f"group); got {type(results).__name__}")
    if "measure" in results.columns:
        raise ValueError(f"{name} is in long format: pass the wide table (long=False)")
    return results


def _measure(results, measure):
    names = [c for c in LABELS if c in results.columns]
    return as_choice(measure, names, "measure")


def _groups(results):
    """The group label columns of a results table (those before ``n_trials``)."""
    cols = list(results.columns)
    return cols[:cols.index("n_trials")]


def _axes(ax, size):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _errors(table, measure):
    """The distances from each estimate down and up to its interval's ends, shape (2, n), or
    None when the table has no interval for ``measure``."""
    lo, hi = f"{measure}_lo", f"{measure}_hi"
    if lo not in table.columns:
        return None
    est = table[measure].to_numpy(dtype=float)
    return np.vstack([est - table[lo].to_numpy(dtype=float), table[hi].to_numpy(dtype=float) - est])


def _finish(ax, hue):
    import seaborn as sns

    if hue is not None:
        ax.legend(title=hue, frameon=False)
    sns.despine(ax=ax)
    return ax


def forest(results, measure="m_ratio", *, hue=None, sort=True, ax=None):
    """Each group's estimate of one measure with its interval, one row per group (a forest plot).

    Parameters
    ----------
    results : pandas.DataFrame
        The table :func:`metabits.measure` returns; with ``n_boot`` > 0 the intervals
        (``<measure>_lo``, ``<measure>_hi``) are drawn as bars.
    measure : str, default "m_ratio"
        The measure's column.
    hue : str, optional
        A label column (e.g. a condition) that colours the points.
    sort : bool, default True
        Order the rows by the estimate; else as in ``results``. Each row is labelled by the
        label columns whose values differ between the rows drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        For ``results`` that are not :func:`metabits.measure`'s table, an unknown ``measure``
        or ``hue``, or no group with a finite estimate.

    Examples
    --------
    >>> import metabits as mb, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> d = pd.DataFrame({"subject": np.repeat(range(4), 120), "stimulus": np.tile([0, 1], 240)})
    >>> d["response"] = np.where(rng.random(480) < 0.75, d.stimulus, 1 - d.stimulus)
    >>> d["confidence"] = rng.integers(1, 4, 480) + (d.response == d.stimulus)
    >>> ax = forest(mb.measure(d, measures=["auroc2"], n_boot=100, rng=0), "auroc2")
    >>> len(ax.get_yticks())
    4
    """
    import seaborn as sns

    results = _frame(results)
    measure = _measure(results, measure)
    sort = as_flag(sort, "sort")
    labels = _groups(results)
    if hue is not None:
        as_choice(hue, labels, "hue")
    table = results[np.isfinite(results[measure].to_numpy(dtype=float))]
    if table.empty:
        raise ValueError(f"no group has a finite {measure}")
    if sort:
        table = table.sort_values(measure)
    shown = [c for c in labels if table[c].nunique() > 1] or labels[:1]  # what tells rows apart
    names = [", ".join(str(row[c]) for c in shown) or "all trials"
             for _, row in table.iterrows()]
    y = np.arange(len(table))
    ax = _axes(ax, (5.5, max(2.5, 0.28 * len(table) + 1.0)))
    err = _errors(table, measure)
    if err is not None:
        ax.errorbar(table[measure].to_numpy(dtype=float), y,
                    xerr=np.where(np.isfinite(err), err, 0.0), fmt="none", ecolor="0.55",
                    elinewidth=1.2, capsize=0)
    sns.scatterplot(x=table[measure].to_numpy(dtype=float), y=y,
                    hue=None if hue is None else table[hue].astype(str).to_numpy(), ax=ax,
                    s=28, zorder=3, color=None if hue else "C0", legend=hue is not None)
    ax.set_yticks(y, names)
    ax.set_xlabel(LABELS[measure] + ("" if err is None else " (with its interval)"))
    ax.set_ylabel(", ".join(shown))
    return _finish(ax, hue)


def against_accuracy(results, measure="m_ratio", *, hue=None, ax=None):
    """One measure against accuracy, one point per group, with its interval if there is one.

    A measure of metacognitive efficiency should not follow accuracy; this figure shows whether
    it does in one's data (Rahnev, 2025, assessed the measures on this criterion).

    Parameters
    ----------
    results : pandas.DataFrame
        The table :func:`metabits.measure` returns.
    measure : str, default "m_ratio"
        The measure's column.
    hue : str, optional
        A label column (e.g. a condition) that colours the points.
    ax : matplotlib.axes.Axes, optional
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        For ``results`` that are not :func:`metabits.measure`'s table (or have no ``acc``), an
        unknown ``measure`` or ``hue``.

    Examples
    --------
    >>> import metabits as mb, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> d = pd.DataFrame({"subject": np.repeat(range(5), 100), "stimulus": np.tile([0, 1], 250)})
    >>> d["response"] = np.where(rng.random(500) < 0.8, d.stimulus, 1 - d.stimulus)
    >>> d["confidence"] = rng.integers(1, 4, 500) + (d.response == d.stimulus)
    >>> ax = against_accuracy(mb.measure(d, measures=["acc", "gamma"]), "gamma")
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('accuracy', 'gamma')
    """
    import seaborn as sns

    results = _frame(results)
    if "acc" not in results.columns:
        raise ValueError("results have no column 'acc': measure with 'acc' among the measures")
    measure = _measure(results, measure)
    if hue is not None:
        as_choice(hue, _groups(results), "hue")
    ax = _axes(ax, (4.8, 3.6))
    x = results["acc"].to_numpy(dtype=float)
    y = results[measure].to_numpy(dtype=float)
    err = _errors(results, measure)
    if err is not None:
        ok = np.isfinite(y) & np.all(np.isfinite(err), axis=0)
        ax.errorbar(x[ok], y[ok], yerr=err[:, ok], fmt="none", ecolor="0.7", elinewidth=1,
                    capsize=0, zorder=1)
    sns.scatterplot(x=x, y=y, hue=None if hue is None else results[hue].astype(str).to_numpy(),
                    ax=ax, s=24, zorder=2, legend=hue is not None)
    ax.set_xlabel("accuracy")
    ax.set_ylabel(LABELS[measure])
    return _finish(ax, hue)


def type2_roc_curves(data, *, ax=None, **read):
    """The type 2 ROC curve of each group: how well confidence tells its correct responses from
    its errors (the diagonal is no metacognitive sensitivity).

    Parameters
    ----------
    data : pandas.DataFrame, str, path-like or metabits.io.Trials
        Trials, as :func:`metabits.measure` takes them.
    ax : matplotlib.axes.Axes, optional
        Where to draw.
    **read
        The column options of :func:`metabits.io.read_trials` (``subject``, ``stimulus``,
        ``response``, ``confidence``, ``correct``, ``by``, ``bins``, ``levels``, ``codes``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        As :func:`metabits.io.read_trials`; or if no group has both correct responses and
        errors.

    References
    ----------
    Galvin et al. (2003); Fleming & Lau (2014), Figure 2.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> d = pd.DataFrame({"subject": np.repeat(range(3), 100), "stimulus": np.tile([0, 1], 150)})
    >>> d["response"] = np.where(rng.random(300) < 0.8, d.stimulus, 1 - d.stimulus)
    >>> d["confidence"] = rng.integers(1, 4, 300) + (d.response == d.stimulus)
    >>> ax = type2_roc_curves(d)
    >>> len(ax.lines) >= 3
    True
    """
    import pandas as pd
    import seaborn as sns

    from metabits.io import Trials, read_trials
    from metabits.sdt import type2_roc as curve

    trials = data if isinstance(data, Trials) else read_trials(data, **read)
    tables = trials.tables()
    fpr, tpr = curve(tables.counts)
    ok = np.all(np.isfinite(fpr), axis=-1) & np.all(np.isfinite(tpr), axis=-1)
    if not ok.any():
        raise ValueError("no group has both correct responses and errors: no type 2 ROC curve")
    labels = tables.labels
    names = [", ".join(str(v) for v in row) or "all trials"
             for row in labels.itertuples(index=False)] if labels.shape[1] else ["all trials"]
    rows = [pd.DataFrame({"group": names[i], "fpr": fpr[i], "tpr": tpr[i]})
            for i in np.flatnonzero(ok)]
    long = pd.concat(rows, ignore_index=True)
    ax = _axes(ax, (4.2, 4.0))
    ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", zorder=1)
    sns.lineplot(data=long, x="fpr", y="tpr", units="group", estimator=None, ax=ax,
                 color="C0", alpha=0.6 if ok.sum() > 1 else 1.0, lw=1.2, marker="o",
                 markersize=3, sort=False)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("P(confidence ≥ t | error)")
    ax.set_ylabel("P(confidence ≥ t | correct)")
    sns.despine(ax=ax)
    return ax
