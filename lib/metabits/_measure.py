"""The front door: every measure of a researcher's trials, per group, with intervals and flags.

:func:`measure` is a table-shaped wrapper over the library's array core: the measures are the
registry's (:data:`metabits.MEASURES`, computed by ``metabits._registry.compute``), the
intervals the bootstrap engine's (:func:`metabits.resample.bootstrap_tables`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from metabits._registry import MEASURES, names as _names
from metabits._resampling import bootstrap_tables
from metabits._stack import plugin_matrix
from metabits.io._trials import Trials, group_flags, read_trials
from metabits.validation import (as_choice, as_flag, as_int, as_pad, as_probability, as_rng,
                                 as_scalar, as_size, as_whole_counts)

__all__ = ["MEASURE_COLUMNS", "measure"]

#: The measures of :func:`measure`, in its column order (``"all"``: all of them; the registry
#: :data:`metabits.MEASURES` describes each).
MEASURE_COLUMNS = tuple(MEASURES)
#: The measures of ``measures="default"``: all but Rahnev's (2025) further ones.
_DEFAULT = _names(default=True)
#: The measures ``bias_reduction`` adds bias-reduced (``<name>_br``).
_REDUCIBLE = _names(bias_reducible=True)
#: Tables (groups × replicates) per call of the measures in the bootstrap.
_CHUNK = 20_000
#: A measure undefined in more than this share of a group's replicates adds the flag
#: ``undefined_replicates``.
_UNDEFINED_SHARE = 0.05
#: Flags after which a group is not measured (its measures are NaN, accuracy aside).
_UNMEASURABLE = ("one_stimulus", "one_response")


def _bias_reduced(counts, m, rng):
    """Meyen et al.'s Monte Carlo bias reduction of the information measures, (n, 4)."""
    from metabits.info import type2_measures

    r = type2_measures(counts, bias_reduction=m, rng=rng, undefined="nan")
    return np.stack([np.asarray(r[k], dtype=float).reshape(len(counts)) for k in _REDUCIBLE],
                    axis=-1)


def _measure_tables(counts, pad, chosen, B, level, interval, m_br, gen, progress):
    """The array core of :func:`measure`: every requested value of whole-count tables (n, 2, 2K) —
    ``estimate`` (n, M); with ``m_br``, ``reduced`` (n, 4); with ``B``, ``lower``, ``upper``
    and ``undefined`` (the share of replicates in which each measure is undefined), (n, M)."""
    est = plugin_matrix(counts.astype(float), pad, chosen)
    out = {"estimate": est}
    if m_br:
        out["reduced"] = _bias_reduced(counts, m_br, gen)
    if B:
        bar = _progress_bar(len(counts), progress)
        r = bootstrap_tables(lambda t: plugin_matrix(t, pad, chosen), counts, B, gen,
                             level=level, method=interval, batch=max(1, _CHUNK // B),
                             estimate=est, progress=None if bar is None else bar.update,
                             replicate_statistic=lambda t: plugin_matrix(t, pad, chosen,
                                                                         careful=False))
        if bar is not None:
            bar.close()
        out["lower"], out["upper"] = r.interval
        out["undefined"] = 1.0 - (B - r.n_undefined) / B
    return out


def _as_measures(measures):
    if isinstance(measures, str):
        if measures == "default":
            return _DEFAULT
        if measures == "all":
            return MEASURE_COLUMNS
        measures = [measures]
    try:
        chosen = list(measures)
    except TypeError:
        raise ValueError(f"measures must be 'default', 'all' or a list of names from "
                         f"{list(MEASURE_COLUMNS)}; got {measures!r}") from None
    if not chosen:
        raise ValueError("measures must name at least one measure")
    for name in chosen:
        as_choice(name, MEASURE_COLUMNS, "measures")
    return tuple(k for k in MEASURE_COLUMNS if k in chosen)


def _as_bias_reduction(value) -> int:
    if isinstance(value, (bool, np.bool_)):
        return 1000 if value else 0
    return as_int(value, "bias_reduction", least=2, most=100_000)


def _label(labels, i) -> str:
    if labels.shape[1] == 0:
        return "the trials"
    values = [labels.iloc[i][c] for c in labels.columns]
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    return ", ".join(f"{c}={v!r}" for c, v in zip(labels.columns, values))


def measure(data, *, subject=None, stimulus=None, response=None, confidence=None, correct=None,
            by=(), measures="default", n_boot=0, level=0.95, interval="percentile",
            bias_reduction=False, pad=None, bins=None, on_error="nan", rng=None, levels=None,
            codes=None, long=False, progress=False):
    """Every measure of metacognition of each subject (and condition), from a table of trials.

    Parameters
    ----------
    data : pandas.DataFrame, str, path-like or metabits.io.Trials
        One row per trial, a CSV file of them (``.csv``, ``.tsv``, optionally ``.gz``), or the
        trials :func:`metabits.io.read_trials` read. A file of the Confidence Database is read
        with its own column names (``Subj_idx``, ``Stimulus``, ``Response``, ``Confidence``).
    subject, stimulus, response, confidence, correct : str, optional
        The data's columns; by default those with the usual names (see
        :func:`metabits.io.read_trials`, which also takes ``subject=False`` for one subject).
        ``correct`` (1 or 0) can stand in for ``response``.
    by : str or sequence of str, default ()
        Further grouping columns, e.g. ``"condition"`` or ``("session", "condition")``: one row
        per subject and combination of their values.
    measures : "default", "all" or sequence of str, default "default"
        The measures to compute, from :data:`MEASURE_COLUMNS`. "default": accuracy, d′, c, the
        SDT measures, AUROC2, gamma, phi, Meyen et al.'s information measures and OSKR; "all"
        adds Rahnev's (2025) ΔConf (``dconf``, on the 0–1 scale), the ratio and difference
        forms of AUROC2, gamma, phi and ΔConf (``auroc2_ratio``, ``auroc2_diff``, …,
        ``dconf_diff``; :func:`metabits.sdt.relative_type2`) and the model-based
        ``meta_noise`` and ``meta_uncertainty`` (:func:`metabits.fit_meta_noise`; 0 where σ is
        fitted at 0, inf where it is unbounded, NaN where it is not identified). Leaving out
        ``meta_d``, ``m_ratio`` and ``m_diff`` skips the meta-d′ fits, which take most of the
        time.
    n_boot : int, default 0
        Bootstrap replicates per group (>= 2), for intervals; 0 for none. Each replicate redraws
        the trials of each stimulus from the group's own frequencies, as the design fixes them
        (:func:`metabits.resample.bootstrap_tables` with ``resample="rows"``, up to about 10**6
        trials of a stimulus in a group), for every measure alike: OSKR's interval therefore
        differs a little from :func:`metabits.oskr_ci_from_table`'s, which redraws all trials
        together (``resample="table"``).
    level : float, default 0.95
        Coverage of the intervals.
    interval : {"percentile", "bca"}, default "percentile"
        Percentile intervals, or bias-corrected and accelerated ones (the acceleration from the
        leave-one-trial-out jackknife).
    bias_reduction : bool or int, default False
        Add the information measures with Meyen et al.'s Monte Carlo bias reduction
        (``meta_I_br``, ``meta_I1r_br``, ``meta_I2r_br``, ``RMI_br``): ``True`` draws 1,000
        resamples per group, an integer that many.
    pad : float, optional
        Count added to every cell for d′, c and the meta-d′ fit; default 1/(2K) (statConfR's).
    bins : int, sequence of float or ("quantile", int), optional
        How to bin continuous confidence (see :func:`metabits.io.read_trials`).
    on_error : {"nan", "raise"}, default "nan"
        What a group that cannot be measured gives: a row of NaN (accuracy and trial counts
        aside) with its flag, or a ``ValueError`` naming the group.
    rng : numpy.random.Generator or int, optional
        Seed of every random draw (bootstrap, bias reduction).
    levels : sequence of float, optional
        The confidence scale, when a level nobody used lies at either end.
    codes : mapping, optional
        Which label of the stimulus and response columns is S1 and which S2, e.g.
        ``{"left": "S1", "right": "S2"}``; needed for labels that are not numbers.
    long : bool, default False
        One row per group and measure (columns ``measure``, ``estimate``, ``lo``, ``hi``)
        instead of one row per group.
    progress : bool, default False
        Show a progress bar (tqdm) over the bootstrap.

    Returns
    -------
    pandas.DataFrame
        One row per group: its labels in columns named as the data's, ``n_trials``, ``K``, the
        measures (with ``n_boot`` > 0 each followed by ``<measure>_lo`` and ``<measure>_hi``),
        the bias-reduced measures if asked for, and ``flags``: ``few_trials``, ``one_stimulus``,
        ``one_response``, ``below_chance``, ``no_errors``, ``one_level``,
        ``undefined_replicates:<share>`` (a measure undefined in more than 5% of the replicates),
        ``meta_d_undefined`` (the meta-d′ fit has no interior maximum), ``meta_noise_unbounded``
        (σ of meta-noise runs off to infinity: confidence carries no information a finite noise
        explains), ``meta_noise_undefined`` (σ is not identified), ``sdt_ratio_undefined``
        (a ratio form is NaN because the SDT observer's value is not above its standard error:
        d′ near or below 0; :func:`metabits.sdt.relative_type2`) and ``error:<message>``,
        separated by ``;`` (empty when there is nothing to say).
        ``attrs`` holds the settings and what was read (codes, scale, rows dropped).

    Raises
    ------
    ValueError
        For bad data (see :func:`metabits.io.read_trials`) or a bad argument, naming it and
        its value; with ``on_error="raise"``, for a group that cannot be measured.

    Notes
    -----
    d′ and c are those of the padded table (as statConfR's meta-d′ fit uses them), so that
    M-ratio = meta-d′/d′ and meta-d′ − d′ share one d′. The information measures and OSKR are
    computed from the unpadded counts. A group whose trials show one stimulus or one response
    gets NaN for every measure but accuracy.

    References
    ----------
    Meyen et al. (2025) (meta-I, meta-I₁ʳ, meta-I₂ʳ, RMI and their bias reduction); Maniscalco
    & Lau (2012) (meta-d′); Fleming & Lau (2014) (AUROC2, gamma, phi); Roberts (2026) (OSKR);
    Efron (1987) (BCa intervals).

    Examples
    --------
    Two people, 40 trials each, a 2-point confidence scale:

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> d = pd.DataFrame({"subject": np.repeat(["a", "b"], 40),
    ...                   "stimulus": np.tile([0, 1], 40)})
    >>> d["response"] = np.where(rng.random(80) < 0.75, d.stimulus, 1 - d.stimulus)
    >>> d["confidence"] = np.where((d.response == d.stimulus) & (rng.random(80) < 0.7), 2, 1)
    >>> r = measure(d, measures=["acc", "d_prime", "auroc2"], n_boot=200, rng=1)
    >>> list(r.columns)[:6]
    ['subject', 'n_trials', 'K', 'acc', 'acc_lo', 'acc_hi']
    >>> r[["subject", "acc", "flags"]].values.tolist()
    [['a', 0.725, 'few_trials'], ['b', 0.6, 'few_trials']]
    """
    opts = _settings(measures, n_boot, level, interval, bias_reduction, on_error, long, progress,
                     rng)
    trials = data if isinstance(data, Trials) else read_trials(
        data, subject=subject, stimulus=stimulus, response=response, confidence=confidence,
        correct=correct, by=by, bins=bins, levels=levels, codes=codes)
    pad = as_pad(pad, trials.n_levels, positive=True)
    tables = trials.tables()
    flags, rows = _measurable(tables, opts)
    parts = _measure_groups(tables, rows, pad, opts, flags)
    _flag_results(parts["estimate"], parts["undefined"], rows, flags, opts)
    return _frame(trials, tables, parts, flags, pad, opts)


@dataclass(frozen=True)
class _Settings:
    """:func:`measure`'s checked options."""

    chosen: tuple
    n_boot: int
    level: float
    interval: str
    bias_reduction: int
    on_error: str
    long: bool
    progress: bool
    rng: np.random.Generator


def _settings(measures, n_boot, level, interval, bias_reduction, on_error, long, progress, rng):
    """Stage 1: the options, checked before the data are read."""
    B = as_size(n_boot, "n_boot", least=0, most=100_000)
    if B == 1:
        raise ValueError("n_boot must be 0 (no intervals) or at least 2; got 1")
    return _Settings(
        chosen=_as_measures(measures), n_boot=B,
        level=float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                   high_open=True)),
        interval=as_choice(interval, ("percentile", "bca"), "interval"),
        bias_reduction=_as_bias_reduction(bias_reduction),
        on_error=as_choice(on_error, ("nan", "raise"), "on_error"),
        long=as_flag(long, "long"), progress=as_flag(progress, "progress"), rng=as_rng(rng))


def _measurable(tables, opts):
    """Stage 2: each group's flags from its counts, and the groups that can be measured."""
    labels, counts = tables.labels, tables.counts
    if opts.n_boot or opts.bias_reduction:  # the resampler's limit on a row, before any work
        as_whole_counts(counts, "the bootstrap" if opts.n_boot else "bias reduction", "data")
    flags = group_flags(counts)
    measurable = np.array([not any(f in _UNMEASURABLE for f in fl) for fl in flags])
    if opts.on_error == "raise" and not measurable.all():
        i = int(np.flatnonzero(~measurable)[0])
        raise ValueError(f"{_label(labels, i)} cannot be measured: "
                         f"{[f for f in flags[i] if f in _UNMEASURABLE][0].replace('_', ' ')} "
                         f"in all its {int(counts[i].sum())} trials")
    return flags, np.flatnonzero(measurable)


def _measure_groups(tables, rows, pad, opts, flags):
    """Stage 3: the measures of the groups ``rows`` (all at once; one at a time after an
    error, which NaN's the group, accuracy aside, and flags it), as arrays (G, ...) of
    :func:`_measure_tables`; the other groups are NaN but for their accuracy."""
    labels, counts = tables.labels, tables.counts
    G, M, K, chosen = len(counts), len(opts.chosen), counts.shape[-1] // 2, opts.chosen
    parts = {"estimate": np.full((G, M), np.nan),
             "reduced": np.full((G, len(_REDUCIBLE)), np.nan),
             "lower": np.full((G, M), np.nan), "upper": np.full((G, M), np.nan),
             "undefined": np.zeros((G, M))}
    acc = (counts[:, 0, :K].sum(-1) + counts[:, 1, K:].sum(-1)) / counts.sum(axis=(-2, -1))
    whole = np.asarray(counts, dtype=np.int64)

    def run(at):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = _measure_tables(whole[at], pad, chosen, opts.n_boot, opts.level,
                                  opts.interval, opts.bias_reduction, opts.rng, opts.progress)
        for key, value in out.items():
            parts[key][at] = value

    try:
        if len(rows):
            run(rows)
    except ValueError:
        for i in rows:  # one group at a time, so that one bad group leaves the rest
            try:
                run(np.array([i]))
            except ValueError as exc:
                if opts.on_error == "raise":
                    raise ValueError(f"{_label(labels, i)}: {exc}") from None
                for key in ("estimate", "reduced", "lower", "upper"):
                    parts[key][i] = np.nan
                parts["undefined"][i] = 0.0
                flags[i].append(f"error:{exc}")
    if "acc" in chosen:  # also for the groups that cannot be measured
        parts["estimate"][:, chosen.index("acc")] = acc
    return parts


def _flag_results(est, undefined, rows, flags, opts):
    """Stage 4: the flags of the bootstrap (``undefined_replicates``) and of the fits."""
    chosen = opts.chosen
    if opts.n_boot:
        shares = np.where(np.isfinite(est) & (undefined > _UNDEFINED_SHARE), undefined,
                          0.0).max(axis=1)
        for i in np.flatnonzero(shares > 0):
            flags[i].append(f"undefined_replicates:{shares[i]:.0%}")
    failed = np.array([any(f.startswith("error") for f in fl) for fl in flags], dtype=bool)
    if "meta_d" in chosen:
        for i in rows[np.isnan(est[rows, chosen.index("meta_d")]) & ~failed[rows]]:
            flags[i].append("meta_d_undefined")
    # a ratio undefined where its difference (or measure) is not: the SDT value near 0
    column = {k: est[:, j] for j, k in enumerate(chosen)}
    ratios = [(column[k], [column[j] for j in (k[:-6] + "_diff", k[:-6]) if j in column])
              for k in _names(family="ratio", default=False) if k in column]
    for i in rows:
        if not failed[i] and any(np.isnan(r[i]) and any(np.isfinite(v[i]) for v in other)
                                 for r, other in ratios):
            flags[i].append("sdt_ratio_undefined")
    model = [k for k in chosen if MEASURES[k].family == "model-based"]
    if model:
        sigma = est[:, chosen.index(model[0])]
        for i in rows:
            if np.isposinf(sigma[i]):
                flags[i].append("meta_noise_unbounded")
            elif np.isnan(sigma[i]) and not failed[i]:
                flags[i].append("meta_noise_undefined")


def _frame(trials, tables, parts, flags, pad, opts):
    """Stage 5: the table, one row per group (or per group and measure with ``long``)."""
    import pandas as pd

    labels, counts = tables.labels, tables.counts
    B, chosen, est = opts.n_boot, opts.chosen, parts["estimate"]
    columns = {"n_trials": counts.sum(axis=(-2, -1)), "K": np.full(len(counts), trials.n_levels)}
    for j, k in enumerate(chosen):
        columns[k] = est[:, j]
        if B:
            columns[f"{k}_lo"], columns[f"{k}_hi"] = parts["lower"][:, j], parts["upper"][:, j]
    reduced = _REDUCIBLE if opts.bias_reduction else ()
    for j, k in enumerate(reduced):
        columns[f"{k}_br"] = parts["reduced"][:, j]
        if B:  # the plug-in interval shifted by the estimated bias
            bias = columns[k] - columns[f"{k}_br"] if k in chosen else np.nan
            columns[f"{k}_br_lo"] = (columns[f"{k}_lo"] if k in chosen else np.nan) - bias
            columns[f"{k}_br_hi"] = (columns[f"{k}_hi"] if k in chosen else np.nan) - bias
    columns["flags"] = [";".join(f) for f in flags]
    frame = pd.concat([labels.reset_index(drop=True), pd.DataFrame(columns)], axis=1)
    if opts.long:
        frame = _long(frame, list(labels.columns), list(chosen) + [f"{k}_br" for k in reduced],
                      B)
    frame.attrs.update(source=trials.source, columns=trials.columns, codes=trials.codes,
                       scale=trials.scale, n_rows=trials.n_rows, n_dropped=trials.n_dropped,
                       pad=pad, n_boot=B, level=opts.level, interval=opts.interval,
                       bias_reduction=opts.bias_reduction)
    return frame


def _progress_bar(n, show):
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=n, unit="group", desc="bootstrap")


def _long(frame, label_cols, names, B):
    """One row per group and measure."""
    import pandas as pd

    parts = []
    for k in names:
        part = frame[label_cols + ["n_trials", "K"]].copy()
        part["measure"] = k
        part["estimate"] = frame[k].to_numpy()
        if B:
            part["lo"], part["hi"] = frame[f"{k}_lo"].to_numpy(), frame[f"{k}_hi"].to_numpy()
        part["flags"] = frame["flags"].to_numpy()
        parts.append(part)
    return pd.concat(parts, ignore_index=True)
