"""The front door: every measure of a researcher's trials, per group, with intervals and flags."""

from __future__ import annotations

import warnings

import numpy as np

from metabits._formulas import sdt_type1
from metabits._resampling import draw_multinomial_rows, jackknife_acceleration
from metabits._stack import RAHNEV, model_measures
from metabits.io._trials import Trials, group_flags, read_trials
from metabits.validation import (as_choice, as_flag, as_int, as_pad, as_probability, as_rng,
                                 as_scalar, as_size, as_whole_counts)

__all__ = ["MEASURE_COLUMNS", "measure"]

#: The measures of :func:`measure`, in its column order (``"all"``: all of them).
MEASURE_COLUMNS = ("acc", "d_prime", "c", "meta_d", "m_ratio", "m_diff", "auroc2", "gamma",
                   "phi", "meta_I", "meta_I1r", "meta_I2r", "RMI", "oskr", *RAHNEV)
#: The measures of ``measures="default"``: all but Rahnev's (2025) further ones.
_DEFAULT = MEASURE_COLUMNS[:MEASURE_COLUMNS.index(RAHNEV[0])]
#: The information measures, which ``bias_reduction`` adds bias-reduced (``<name>_br``).
_INFO = ("meta_I", "meta_I1r", "meta_I2r", "RMI")
_METAD = ("meta_d", "m_ratio", "m_diff")
#: The model-based measures (one maximum-likelihood fit gives both).
_MODEL = ("meta_noise", "meta_uncertainty")
#: Groups of this many tables (groups × replicates) at a time in the bootstrap.
_CHUNK = 20_000
#: A measure undefined in more than this share of a group's replicates adds the flag
#: ``undefined_replicates``.
_UNDEFINED_SHARE = 0.05
#: Flags after which a group is not measured (its measures are NaN, accuracy aside).
_UNMEASURABLE = ("one_stimulus", "one_response")


def _values(flat, pad, names, fallback=True):
    """The measures ``names`` of checked count tables (n, 2, 2K): name -> array (n,), NaN where
    undefined. Without ``fallback`` (bootstrap replicates) meta-d′ fits that stall give NaN."""
    from metabits._stack import _measures_of_stack
    from metabits.oskr import correctness_table, oskr_from_table
    from metabits.sdt import auroc2, gamma, phi

    n, K = len(flat), flat.shape[-1] // 2
    out = {}
    padded = flat + pad
    said_s2 = padded[..., K:].sum(-1) / padded.sum(-1)  # P("S2" | S1), P("S2" | S2)
    out["d_prime"], out["c"] = sdt_type1(said_s2[:, 1], said_s2[:, 0])
    correct = flat[:, 0, :K].sum(-1) + flat[:, 1, K:].sum(-1)
    out["acc"] = correct / flat.sum(axis=(-2, -1))
    if any(k in names for k in _METAD + _INFO):
        v, _ = _measures_of_stack(flat, pad, fallback=fallback)
        out.update({k: v[k] for k in _METAD + _INFO + ("auroc2", "gamma", "phi")})
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for name, fn in (("auroc2", auroc2), ("gamma", gamma), ("phi", phi)):
                if name in names:
                    out[name] = np.asarray(fn(flat, undefined="nan"), dtype=float).reshape(n)
    if any(k in names for k in RAHNEV):
        from metabits.sdt._relative import relative_stack

        out.update(relative_stack(flat, pad)[0])
    if any(k in names for k in _MODEL):
        out.update(model_measures(flat, pad)[0])
    if "oskr" in names:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out["oskr"] = np.asarray(oskr_from_table(correctness_table(flat), undefined="nan")
                                     .oskr, dtype=float).reshape(n)
    return {k: np.asarray(out[k], dtype=float) for k in names}


def _bias_reduced(flat, m, rng):
    """Meyen et al.'s Monte Carlo bias reduction of the information measures: name -> (values,
    biases), each (n,)."""
    from metabits.info import type2_measures

    r = type2_measures(flat, bias_reduction=m, rng=rng, undefined="nan")
    return {k: (np.asarray(r[k], dtype=float).reshape(len(flat)),
                np.asarray(r.bias[k], dtype=float).reshape(len(flat))) for k in _INFO}


def _replicates(whole, pad, names, n_boot, rng, progress=None):
    """The measures of ``n_boot`` bootstrap replicates of each table: name -> (n, n_boot)."""
    n, shape = len(whole), whole.shape[1:]
    reps = {k: np.empty((n, n_boot)) for k in names}
    step = max(1, _CHUNK // n_boot)
    for start in range(0, n, step):
        block = whole[start:start + step]
        draws = np.moveaxis(draw_multinomial_rows(block, n_boot, rng), 0, 1)
        values = _values(draws.reshape((-1,) + shape).astype(float), pad, names, fallback=False)
        for k in names:
            reps[k][start:start + step] = values[k].reshape(len(block), n_boot)
        if progress is not None:
            progress(len(block))
    return reps


def _acceleration(flat, pad, names):
    """BCa's acceleration per table and measure from the leave-one-trial-out jackknife: leaving
    out any trial of a cell gives the same table, so the jackknife values are one per cell,
    weighted by its count."""
    n, shape = len(flat), flat.shape[1:]
    cells = shape[0] * shape[1]
    eye = np.eye(cells).reshape((cells,) + shape)
    loo = np.maximum(flat[:, None] - eye[None], 0.0)  # (n, cells, 2, 2K)
    w = flat.reshape(n, cells)
    values = _values(loo.reshape((-1,) + shape), pad, names)
    return {k: jackknife_acceleration(values[k].reshape(n, cells), w, axis=-1) for k in names}


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
        the trials of each stimulus from the group's own frequencies (up to about 10**6 trials
        of a stimulus in a group, as :func:`metabits.resample.multinomial_rows`).
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
    import pandas as pd

    names = _as_measures(measures)
    B = as_size(n_boot, "n_boot", least=0, most=100_000)
    if B == 1:
        raise ValueError("n_boot must be 0 (no intervals) or at least 2; got 1")
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    interval = as_choice(interval, ("percentile", "bca"), "interval")
    m_br = _as_bias_reduction(bias_reduction)
    on_error = as_choice(on_error, ("nan", "raise"), "on_error")
    long = as_flag(long, "long")
    progress = as_flag(progress, "progress")
    gen = as_rng(rng)
    if isinstance(data, Trials):
        trials = data
    else:
        trials = read_trials(data, subject=subject, stimulus=stimulus, response=response,
                             confidence=confidence, correct=correct, by=by, bins=bins,
                             levels=levels, codes=codes)
    K = trials.n_levels
    pad = as_pad(pad, K, positive=True)
    tables = trials.tables()
    labels, counts = tables.labels, tables.counts
    if B or m_br:  # the resampler's limit on the trials of a row, before any work
        as_whole_counts(counts, "the bootstrap" if B else "bias reduction", "data")
    G = len(counts)
    flags = group_flags(counts)
    measurable = np.array([not any(f in _UNMEASURABLE for f in fl) for fl in flags])
    if on_error == "raise" and not measurable.all():
        i = int(np.flatnonzero(~measurable)[0])
        raise ValueError(f"{_label(labels, i)} cannot be measured: "
                         f"{[f for f in flags[i] if f in _UNMEASURABLE][0].replace('_', ' ')} "
                         f"in all its {int(counts[i].sum())} trials")
    result = {k: np.full(G, np.nan) for k in names}
    lo = {k: np.full(G, np.nan) for k in names}
    hi = {k: np.full(G, np.nan) for k in names}
    br = {k: np.full(G, np.nan) for k in _INFO} if m_br else {}
    br_lo = {k: np.full(G, np.nan) for k in _INFO} if m_br else {}
    br_hi = {k: np.full(G, np.nan) for k in _INFO} if m_br else {}
    if "acc" in names:
        correct_ = counts[:, 0, :K].sum(-1) + counts[:, 1, K:].sum(-1)
        result["acc"] = correct_ / counts.sum(axis=(-2, -1))

    def compute(rows):
        """Every requested value of the groups ``rows`` (indices), written into the arrays."""
        flat = counts[rows].astype(float)
        est = _values(flat, pad, names)
        for k in names:
            result[k][rows] = est[k]
        if m_br:
            reduced = _bias_reduced(counts[rows], m_br, gen)
            for k in _INFO:
                br[k][rows] = reduced[k][0]
        if B:
            bar = _progress_bar(len(rows), progress)
            reps = _replicates(counts[rows], pad, names, B, gen,
                               None if bar is None else bar.update)
            if bar is not None:
                bar.close()
            if interval == "bca":
                accel = _acceleration(flat, pad, names)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                for k in names:
                    r = reps[k].T  # (B, n)
                    if interval == "bca":
                        bounds = _bca(r, est[k], accel[k], level)
                    else:
                        from metabits.resample import percentile_interval

                        bounds = percentile_interval(r, level, axis=0)
                    lo[k][rows] = np.asarray(bounds.lower, dtype=float)
                    hi[k][rows] = np.asarray(bounds.upper, dtype=float)
                    share = 1.0 - np.isfinite(r).mean(axis=0)
                    for j, i in enumerate(rows):
                        if share[j] > _UNDEFINED_SHARE and np.isfinite(est[k][j]):
                            undefined[i] = max(undefined.get(i, 0.0), share[j])
                if m_br:
                    for k in _INFO:
                        bias = result[k][rows] - br[k][rows]
                        br_lo[k][rows] = lo[k][rows] - bias
                        br_hi[k][rows] = hi[k][rows] - bias

    undefined = {}
    rows = np.flatnonzero(measurable)
    if len(rows):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                compute(rows)
        except ValueError:
            for i in rows:  # one group at a time, so that one bad group leaves the rest
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        compute(np.array([i]))
                except ValueError as exc:
                    if on_error == "raise":
                        raise ValueError(f"{_label(labels, i)}: {exc}") from None
                    for arrays in (result, lo, hi, br, br_lo, br_hi):
                        for k in arrays:
                            if k != "acc" or arrays is not result:
                                arrays[k][i] = np.nan
                    flags[i].append(f"error:{exc}")
    for i, share in undefined.items():
        flags[i].append(f"undefined_replicates:{share:.0%}")
    if "meta_d" in names:
        for i in rows:
            if np.isnan(result["meta_d"][i]) and not any(f.startswith("error") for f in flags[i]):
                flags[i].append("meta_d_undefined")
    # a ratio undefined where its difference (or measure) is not: the SDT value near 0
    ratios = [(k, [result[j] for j in (k[:-6] + "_diff", k[:-6]) if j in result])
              for k in RAHNEV if k.endswith("_ratio") and k in names]
    for i in rows:
        if any(np.isnan(result[k][i]) and any(np.isfinite(v[i]) for v in other)
               for k, other in ratios) and not any(f.startswith("error") for f in flags[i]):
            flags[i].append("sdt_ratio_undefined")
    model = [k for k in _MODEL if k in names]
    if model:
        for i in rows:
            value = result[model[0]][i]
            if np.isposinf(value):
                flags[i].append("meta_noise_unbounded")
            elif np.isnan(value) and not any(f.startswith("error") for f in flags[i]):
                flags[i].append("meta_noise_undefined")

    columns = {"n_trials": counts.sum(axis=(-2, -1)), "K": np.full(G, K)}
    for k in names:
        columns[k] = result[k]
        if B:
            columns[f"{k}_lo"], columns[f"{k}_hi"] = lo[k], hi[k]
    for k in br:
        columns[f"{k}_br"] = br[k]
        if B:
            columns[f"{k}_br_lo"], columns[f"{k}_br_hi"] = br_lo[k], br_hi[k]
    columns["flags"] = [";".join(f) for f in flags]
    frame = pd.concat([labels.reset_index(drop=True), pd.DataFrame(columns)], axis=1)
    attrs = dict(source=trials.source, columns=trials.columns, codes=trials.codes,
                 scale=trials.scale, n_rows=trials.n_rows, n_dropped=trials.n_dropped,
                 pad=pad, n_boot=B, level=level, interval=interval, bias_reduction=m_br)
    if long:
        frame = _long(frame, list(labels.columns), list(names) + [f"{k}_br" for k in br], B)
    frame.attrs.update(attrs)
    return frame


def _bca(reps, estimate, acceleration, level):
    """BCa bounds per column of ``reps`` (B, n); NaN where the estimate is undefined."""
    from metabits.resample import bca_interval
    from metabits.results import Bounds

    ok = np.isfinite(estimate)
    lower, upper = np.full(len(estimate), np.nan), np.full(len(estimate), np.nan)
    if ok.any():
        b = bca_interval(reps[:, ok], estimate[ok], acceleration[ok], level, axis=0)
        lower[ok], upper[ok] = b.lower, b.upper
    return Bounds(lower, upper)


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
