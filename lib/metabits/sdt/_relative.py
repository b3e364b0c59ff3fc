"""ΔConf and the ratio and difference forms of AUROC2, gamma, phi and ΔConf (Rahnev, 2025).

Rahnev (2025) assessed 17 measures of metacognition. Besides meta-d′, the M-ratio, meta-d′ − d′,
AUROC2, gamma and phi (:mod:`metabits.sdt._type2_classic`) and the two model-based measures, they
are ΔConf — mean confidence on correct trials minus mean confidence on errors — and a ratio and a
difference form of each of AUROC2, gamma, phi and ΔConf. As the M-ratio divides meta-d′ by the
meta-d′ an SDT observer without metacognitive loss would reach (its d′), each ratio form divides
the observed measure by the value that an SDT observer with the person's d′ and criteria would
produce, and each difference form subtracts it.

That observer's value is computed here, not simulated. Equal-variance SDT with evidence
N(∓d′/2, 1) and 2K − 1 ordered criteria gives the probability of every response column for
each stimulus; the criteria are read off the table as d′ and c are: criterion j is
−(z(HR_j) + z(FAR_j))/2 at the j-th cumulative split of the (padded) rating columns, the middle
split giving c, and d′ is z(HR) − z(FAR) at the middle split (the d′ of
:func:`metabits.fit_meta_d`). The observer's expected table has the person's number of trials
per stimulus, and the measure is computed on it as on the observed table.

Ratio 1 and difference 0 describe that expected table only. Tables *sampled* from the SDT
observer scatter around it, and a ratio of two sampled quantities is biased: with d′ = 1, c = 0,
K = 4 and 100 trials per stimulus the mean gamma-ratio over sampled tables is about 1.03, not 1
(``tests/test_relative.py``). Near chance the SDT observer's gamma, phi and ΔConf go to 0 and a
ratio divides by almost nothing (an expected gamma of 1e-14 where d′ is 0 up to rounding gives
a ratio of 1e14). Their ratios are therefore left undefined (NaN) where the SDT observer's value
is not above its own sampling standard error at the table's numbers of trials (the delta method
for multinomial rows, :func:`sdt_standard_error`): there a table sampled from that observer
would have a ratio whose standard deviation exceeds 1, its own expected value, so the ratio
says nothing about metacognition. AUROC2's SDT value is 0.5 at chance, so its ratio is left
undefined only where that value is not > 0. The difference forms stay defined.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from metabits.results import Result
from metabits.sdt._type2_classic import _auroc2, _check, _fold, _gamma, _phi_or_nan
from metabits.validation import as_choice, as_count_table, as_pad, scalar_or_array
from metabits.validation._scalars import as_undefined

__all__ = ["RelativeType2", "dconf", "relative_type2"]

#: the measures that have ratio and difference forms, in Rahnev's order
BASES = ("auroc2", "gamma", "phi", "dconf")
#: the names of the ratio and difference forms, in the order of :func:`relative_stack`
RELATIVE = tuple(f"{m}_{kind}" for m in BASES for kind in ("ratio", "diff"))


def _dconf(correct, error):
    """ΔConf of folded tables on the 0–1 scale (level k of K as (k − 1)/(K − 1)); NaN without
    correct responses or without errors. Returns ``(value, undefined)``."""
    K = correct.shape[-1]
    levels = np.arange(K, dtype=float) / (K - 1)
    n_c, n_e = correct.sum(-1), error.sum(-1)
    bad = (n_c == 0) | (n_e == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (correct * levels).sum(-1) / n_c - (error * levels).sum(-1) / n_e
    return np.where(bad, np.nan, value), bad


_KERNELS = {"auroc2": _auroc2, "gamma": _gamma, "phi": _phi_or_nan, "dconf": _dconf}


def sdt_expected_table(flat: np.ndarray, pad: float) -> np.ndarray:
    """The table an SDT observer with each table's d′ and criteria would produce in expectation.

    ``flat`` (n, 2, 2K) are checked count tables; the criteria and d′ come from the tables
    padded by ``pad`` (> 0, so every split's rates lie strictly between 0 and 1); the expected
    table keeps each row's observed number of trials. NaN rows where d′ or a criterion is not
    finite (a table with a zero row).
    """
    K = flat.shape[-1] // 2
    padded = flat + pad
    with np.errstate(invalid="ignore", divide="ignore"):
        # P(column >= j | stimulus) for the splits j = 1 .. 2K − 1
        tail = np.cumsum(padded[..., ::-1], axis=-1)[..., ::-1] / padded.sum(-1, keepdims=True)
        z = ndtri(tail[..., 1:])  # (n, 2, 2K − 1): z(FAR_j), z(HR_j)
        criteria = -(z[:, 0] + z[:, 1]) / 2
        d = z[:, 1, K - 1] - z[:, 0, K - 1]
        edges = np.concatenate([np.full((len(flat), 1), -np.inf), criteria,
                                np.full((len(flat), 1), np.inf)], axis=-1)
        means = np.stack([-d / 2, d / 2], axis=-1)  # (n, 2)
        below = ndtr(edges[:, None, :] - means[..., None])  # (n, 2, 2K + 1)
        probs = np.diff(below, axis=-1)
        return flat.sum(-1, keepdims=True) * probs


def sdt_standard_error(sdt: np.ndarray, expected=None) -> dict:
    """The sampling standard error of each measure of :data:`BASES` for tables drawn from the
    expected tables ``sdt`` (n, 2, 2K): each row multinomial with the row's number of trials,
    by the delta method (the gradient by forward differences of 1e-4 of a row's trials).
    ``expected`` (the measures of ``sdt``) saves their computation. NaN where ``sdt`` is."""
    if expected is None:
        expected = {name: kernel(*_fold(sdt))[0] for name, kernel in _KERNELS.items()}
    n_row = sdt.sum(-1)  # (n, 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = sdt / n_row[..., None]
        h = 1e-4 * n_row
        grads = {name: np.empty(sdt.shape) for name in BASES}
        for s in range(2):
            for j in range(sdt.shape[-1]):
                step = sdt.copy()
                step[:, s, j] += h[:, s]
                folded = _fold(step)
                for name, kernel in _KERNELS.items():
                    grads[name][:, s, j] = (kernel(*folded)[0] - expected[name]) / h[:, s]
        out = {}
        for name, g in grads.items():
            mean = (p * g).sum(-1)
            var = (n_row * ((p * g * g).sum(-1) - mean ** 2)).sum(-1)
            out[name] = np.sqrt(np.maximum(var, 0.0))
    return out


def relative_stack(flat: np.ndarray, pad: float):
    """ΔConf and the eight ratio and difference forms of checked tables (n, 2, 2K).

    Returns ``(values, expected, se)``: ``values`` maps ``"dconf"`` and each name of
    :data:`RELATIVE` to an array (n,), NaN where undefined (the observed measure undefined, or
    for the ratio of gamma, phi or ΔConf the SDT observer's value not above its standard error
    ``se``, for AUROC2's not > 0); ``expected`` and
    ``se`` map each of :data:`BASES` to the SDT observer's value and its sampling standard error
    (:func:`sdt_standard_error`). ``pad`` (> 0) pads the tables for d′ and the criteria only.
    """
    observed = {name: kernel(*_fold(flat))[0] for name, kernel in _KERNELS.items()}
    sdt = sdt_expected_table(flat, pad)
    folded = _fold(sdt)
    expected = {name: kernel(*folded)[0] for name, kernel in _KERNELS.items()}
    se = sdt_standard_error(sdt, expected)
    values = {"dconf": observed["dconf"]}
    with np.errstate(invalid="ignore", divide="ignore"):
        for name in BASES:
            obs, exp = observed[name], expected[name]
            # AUROC2's SDT value is 0.5 at chance: only the others divide by almost nothing
            ok = exp > 0 if name == "auroc2" else exp > se[name]  # False where one is NaN
            values[f"{name}_ratio"] = np.where(ok, obs / np.where(ok, exp, 1.0), np.nan)
            values[f"{name}_diff"] = obs - exp
    return values, expected, se


def dconf(counts, scale: str = "unit", undefined: str = "raise"):
    """ΔConf: mean confidence on correct trials minus mean confidence on errors.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention, K >= 2 confidence levels.
    scale : {"unit", "levels"}, default "unit"
        ``"unit"``: confidence level k of K counts as (k − 1)/(K − 1), so ΔConf lies in
        [−1, 1] whatever K; ``"levels"``: in the scale's own units, level k counting k (the
        unit value times K − 1).
    undefined : {"raise", "nan"}, default "raise"
        What to do with a table that has no errors or no correct responses.

    Returns
    -------
    float or ndarray
        ΔConf of each table, shape ``counts.shape[:-2]``.

    Raises
    ------
    ValueError
        For an invalid count table, an unknown ``scale`` or ``undefined``, or (with
        ``undefined="raise"``) a table without errors or without correct responses.

    References
    ----------
    Rahnev (2025), Nature Communications 16, 701, "ΔConf"; Fleming & Lau (2014).

    Examples
    --------
    Meyen et al.'s (2025) Table 1, K = 2: 160 of 280 correct responses and 16 of 120 errors at
    high confidence, so ΔConf = 160/280 − 16/120 on either scale.

    >>> round(dconf([[84, 56, 48, 12], [4, 56, 64, 76]]), 4)
    0.4381
    >>> round(dconf([[84, 56, 48, 12], [4, 56, 64, 76]], scale="levels"), 4)
    0.4381

    With K = 3 levels the two scales differ by the factor K − 1 = 2:

    >>> t = [[30, 20, 10, 5, 3, 2], [2, 3, 5, 10, 20, 30]]
    >>> round(dconf(t), 4), round(dconf(t, scale="levels"), 4)
    (0.3167, 0.6333)
    """
    t = as_count_table(counts, min_levels=2)
    scale = as_choice(scale, ("unit", "levels"), "scale")
    value, bad = _dconf(*_fold(t))
    _check(undefined, bad, "auroc2")
    if scale == "levels":
        value = value * (t.shape[-1] // 2 - 1)
    return scalar_or_array(value)


@dataclass(frozen=True)
class RelativeType2(Result):
    """Results of :func:`relative_type2`; also a mapping. Floats for one table, arrays for a stack.

    Attributes
    ----------
    auroc2, gamma, phi, dconf : float or ndarray
        The observed measures (ΔConf on the 0–1 scale).
    auroc2_sdt, gamma_sdt, phi_sdt, dconf_sdt : float or ndarray
        The values an SDT observer with the table's d′ and criteria would produce in
        expectation.
    auroc2_sdt_se, gamma_sdt_se, phi_sdt_se, dconf_sdt_se : float or ndarray
        The sampling standard error of the measure for tables drawn from that observer with the
        table's numbers of trials (delta method).
    auroc2_ratio, gamma_ratio, phi_ratio, dconf_ratio : float or ndarray
        Observed / SDT observer's; for gamma, phi and ΔConf NaN where the SDT observer's value
        is not above its standard error, for AUROC2 where it is not > 0 (``ratio_undefined``).
    auroc2_diff, gamma_diff, phi_diff, dconf_diff : float or ndarray
        Observed − SDT observer's.
    d : float or ndarray
        d′ of the padded table, the SDT observer's.
    ratio_undefined : bool or ndarray
        True where a ratio whose observed measure is defined is NaN because the SDT observer's
        value is not above its standard error (d′ near or below 0).
    pad : float
        The count added to every cell for d′ and the criteria.
    """

    auroc2: object
    gamma: object
    phi: object
    dconf: object
    auroc2_sdt: object
    gamma_sdt: object
    phi_sdt: object
    dconf_sdt: object
    auroc2_sdt_se: object
    gamma_sdt_se: object
    phi_sdt_se: object
    dconf_sdt_se: object
    auroc2_ratio: object
    gamma_ratio: object
    phi_ratio: object
    dconf_ratio: object
    auroc2_diff: object
    gamma_diff: object
    phi_diff: object
    dconf_diff: object
    d: object
    ratio_undefined: object
    pad: float


def relative_type2(counts, pad=None, undefined: str = "nan") -> RelativeType2:
    """AUROC2, gamma, phi and ΔConf against an SDT observer's: Rahnev's ratio and difference forms.

    Each measure is also computed for the table that an equal-variance SDT observer with the
    table's own d′ and confidence criteria — and no metacognitive loss — would produce in
    expectation; the ratio form divides the observed value by it and the difference form
    subtracts it, as the M-ratio and meta-d′ − d′ do for meta-d′. d′ and the 2K − 1 criteria
    are read off the padded table like d′ and c: at each cumulative split j of the rating
    columns, criterion j = −(z(HR_j) + z(FAR_j))/2, and d′ = z(HR) − z(FAR) at the middle split.

    The SDT observer's expected table has every ratio 1 and every difference 0; tables sampled
    from it do not (a ratio of sampled quantities is biased, by a few per cent with 100 trials
    per stimulus). The ratio of gamma, phi or ΔConf is NaN where the SDT observer's value is
    not above its own sampling standard error at the table's numbers of trials: near chance
    (d′ near 0) it divides by almost nothing, and a table sampled from that observer would
    have a ratio whose standard deviation exceeds 1. AUROC2's ratio, whose SDT value is 0.5 at
    chance, is NaN where that value is not > 0.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention, K >= 2 confidence levels.
    pad : float, optional
        Count added to every cell for d′ and the criteria (not for the observed measures);
        default 1/(2K), as for meta-d′. Must be > 0.
    undefined : {"nan", "raise"}, default "nan"
        What to do with a table without errors or without correct responses: NaN for its
        measures, or a ``ValueError``.

    Returns
    -------
    RelativeType2
        The ratio of gamma, phi or ΔConf is NaN where the SDT observer's value is not above its
        standard error (d′ near or below 0; ``ratio_undefined``).

    Raises
    ------
    ValueError
        For an invalid count table (K < 2 included), a pad that is not > 0, an unknown
        ``undefined``, or (with ``undefined="raise"``) a table where a measure is undefined.

    References
    ----------
    Rahnev (2025), A comprehensive assessment of current methods for measuring metacognition,
    Nature Communications 16, 701 (the ratio and difference measures); Maniscalco & Lau (2012)
    for the logic of the M-ratio.

    Examples
    --------
    Meyen et al.'s (2025) Table 1: confidence separates correct from wrong better than an SDT
    observer's would, so every ratio exceeds 1 (its M-ratio is 1.87).

    >>> r = relative_type2([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(r.gamma, 3), round(r.gamma_sdt, 3), round(r.gamma_ratio, 2)
    (0.793, 0.506, 1.57)
    >>> bool(r.auroc2_ratio > 1 and r.phi_ratio > 1 and r.dconf_ratio > 1)
    True

    A table of 400 trials near chance (d′ = 0.06): the SDT observer's gamma is below its
    standard error at these numbers of trials, so the ratio is undefined; the difference is not
    (Rahnev, 2025, defines both forms; the undefined ratio is this library's rule).

    >>> near = relative_type2([[60, 50, 45, 45], [55, 50, 50, 45]])
    >>> round(near.d, 2), bool(near.gamma_sdt < near.gamma_sdt_se), near.gamma_ratio
    (0.06, True, nan)
    >>> bool(near.ratio_undefined), round(near.gamma_diff, 3)
    (True, -0.031)
    """
    t = as_count_table(counts, min_levels=2)
    undefined = as_undefined(undefined)
    pad = as_pad(pad, t.shape[-1] // 2, positive=True)
    lead = t.shape[:-2]
    flat = t.reshape((-1,) + t.shape[-2:])
    values, expected, se = relative_stack(flat, pad)
    correct, error = _fold(flat)
    for name in ("auroc2", "gamma", "phi"):
        _check(undefined, _KERNELS[name](correct, error)[1].reshape(lead), name)
    observed = {name: kernel(correct, error)[0] for name, kernel in _KERNELS.items()}
    K = t.shape[-1] // 2
    padded = flat + pad
    said_s2 = padded[..., K:].sum(-1) / padded.sum(-1)
    d = ndtri(said_s2[:, 1]) - ndtri(said_s2[:, 0])
    out = {**{k: observed[k] for k in BASES}, **{f"{k}_sdt": expected[k] for k in BASES},
           **{f"{k}_sdt_se": se[k] for k in BASES},
           **{f"{k}_ratio": values[f"{k}_ratio"] for k in BASES},
           **{f"{k}_diff": values[f"{k}_diff"] for k in BASES}, "d": d}
    undefined_ratio = np.zeros(len(flat), dtype=bool)
    for k in BASES:
        undefined_ratio |= np.isnan(values[f"{k}_ratio"]) & np.isfinite(observed[k]) \
            & np.isfinite(expected[k])
    return RelativeType2(**{k: scalar_or_array(np.asarray(v, dtype=float).reshape(lead))
                            for k, v in out.items()},
                         ratio_undefined=(bool(undefined_ratio[0]) if not lead
                                          else undefined_ratio.reshape(lead)),
                         pad=pad)
