"""Every Type 2 measure of a stack of count tables: the library's one place computing them all.

:func:`all_measures` gives, per table: accuracy, d′, meta-d′, M-ratio, meta-d′ − d′ (the SDT
measures, fitted with the padding 1/(2K)), AUROC2, gamma and phi
(:mod:`metabits.sdt`), and meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI
(:mod:`metabits.info`), plug-in, NaN where a measure is undefined or a meta-d′ fit
fails.

The other functions that report several measures of a stack read the same computation
(``_measures_of_stack``) and only choose, rename or add to its columns:

* :func:`metabits.bootstrap_measures` — these measures of the observed tables and of their
  bootstrap replicates;
* :func:`metabits.measure` — these measures of each group of a researcher's trials.

Code that needs only some of the measures (e.g. the six of Meyen et al.'s Figures 6–7) calls
the two parts of the computation itself, :func:`metabits.type2_measures` and
:func:`metabits.classic_type2`. :func:`metabits.classic_type2` (AUROC2, gamma, phi and the
meta-d′ measures) is the SDT part: both it and this module read
``metabits.sdt._type2_classic.classic_stack`` (:mod:`metabits.sdt` does not import this module:
the dependencies run one way).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_choice, as_count_table, as_pad, scalar_or_array

__all__ = ["AllMeasures", "PLUGIN", "RAHNEV", "all_measures", "model_measures"]

#: The plug-in measures of :func:`all_measures`, in its order.
PLUGIN = ("acc", "d_prime", "meta_d", "m_ratio", "m_diff", "auroc2", "gamma", "phi",
          "meta_I", "meta_I1r", "meta_I2r", "RMI")
#: The measures of Rahnev (2025) that ``measures="all"`` adds: ΔConf and the ratio and
#: difference forms of AUROC2, gamma, phi and ΔConf (:func:`metabits.sdt.relative_type2`), and
#: the two model-based measures, meta-noise σ_meta (:func:`metabits.fit_meta_noise`) and
#: meta-uncertainty σ_m (:func:`metabits.fit_meta_uncertainty`), fitted with the same padding.
RAHNEV = ("dconf", "auroc2_ratio", "auroc2_diff", "gamma_ratio", "gamma_diff", "phi_ratio",
          "phi_diff", "dconf_ratio", "dconf_diff", "meta_noise", "meta_uncertainty")
#: The information measures (those that can be bias-reduced).
_INFO = ("meta_I", "meta_I1r", "meta_I2r", "RMI")
#: The names of :data:`PLUGIN` in ``metabits.sdt._type2_classic.classic_stack``, where they differ.
_CLASSIC_NAME = {"d_prime": "d"}


def _measures_of_stack(flat: np.ndarray, pad: float, fallback: bool = True,
                       bias_reduction: int = 0, rng=None, rahnev: bool = False):
    """Every measure of checked tables (n, 2, 2K) whose meta-d′ fits are padded by ``pad`` > 0.

    Returns ``(values, bias_excluded)``: ``values`` maps each name of :data:`PLUGIN`, and
    ``acc_recoded`` (the accuracy of the information measures: each column recoded to its more
    frequent label), to an array (n,), NaN where undefined; with ``bias_reduction`` m > 0 the
    four information measures are bias-reduced (:func:`metabits.type2_measures`, m resamples
    from ``rng``) and ``bias_excluded`` counts, per measure, the resamples left out (else it is
    empty). Without ``fallback`` (bootstrap replicates) meta-d′ fits that stall give NaN, and
    meta-I(d′) comes from the spline of the bias reduction (error below 1e-10) instead of
    quadrature; ``bias_reduction`` must then be 0. ``rahnev`` adds the measures of
    :data:`RAHNEV`.
    """
    from metabits.info._measures import measures_of_stats, normalise_measures, table_stats, type2_measures
    from metabits.sdt._type2_classic import classic_stack

    if fallback:  # validates bias_reduction and rng first (and whole counts when m > 0)
        info = type2_measures(flat, bias_reduction=bias_reduction, rng=rng, undefined="nan")
        excluded = dict(info.bias_excluded)
    else:
        info, _ = normalise_measures(measures_of_stats(table_stats(flat)), fast=True)
        excluded = {}
    classic, _ = classic_stack(flat, pad, fallback=fallback)
    values = {k: classic[_CLASSIC_NAME.get(k, k)] for k in PLUGIN if k not in _INFO}
    values.update({k: info[k] for k in _INFO}, acc_recoded=info["acc"])
    if rahnev:
        from metabits.sdt._relative import relative_stack

        values.update(relative_stack(flat, pad)[0])
        values.update(model_measures(flat, pad)[0])
    n = len(flat)
    return {k: np.asarray(v, dtype=float).reshape(n) for k, v in values.items()}, excluded


def model_measures(flat: np.ndarray, pad: float):
    """Meta-noise and meta-uncertainty of checked tables (n, 2, 2K), fitted padded by ``pad``.

    Returns ``(values, status)``: ``values`` maps ``meta_noise`` (σ_meta) and
    ``meta_uncertainty`` (σ_m = √(exp(σ_meta²) − 1)) to arrays (n,) — 0 where the fit puts σ at
    0, inf where the likelihood still rises at the largest σ, NaN where σ is not identified,
    the fit fails or a row of the table is empty — and ``status`` is the fit's status per table
    (``"empty_row"`` for a table with an empty row, which is not fitted).
    """
    from metabits.sdt._meta_noise import fit_meta_noise

    n = len(flat)
    sigma = np.full(n, np.nan)
    status = np.full(n, "empty_row", dtype=object)
    ok = (flat.sum(-1) > 0).all(-1)
    if ok.any():
        fit = fit_meta_noise(flat[ok], pad=pad)
        sigma[ok] = np.asarray(fit.sigma_meta, dtype=float).reshape(-1)
        status[ok] = np.asarray(fit.status, dtype=object).reshape(-1)
    with np.errstate(over="ignore", invalid="ignore"):
        sigma_m = np.sqrt(np.expm1(sigma ** 2))
    return {"meta_noise": sigma, "meta_uncertainty": sigma_m}, status


def _plugin(flat: np.ndarray, pad: float, fallback: bool, names=PLUGIN) -> np.ndarray:
    """The measures ``names`` (:data:`PLUGIN`, or with :data:`RAHNEV`) as columns
    (n, len(names)) of :func:`_measures_of_stack`."""
    values, _ = _measures_of_stack(flat, pad, fallback, rahnev=names != PLUGIN)
    return np.stack([values[k] for k in names], axis=-1)


@dataclass(frozen=True)
class AllMeasures(Result):
    """Results of :func:`all_measures`; also a mapping.

    Attributes
    ----------
    names : tuple of str
        The measures (:data:`PLUGIN`, then :data:`RAHNEV` with ``measures="all"``), one per
        entry of the last axis of ``estimate``.
    estimate : ndarray, shape (..., len(names))
        Their plug-in values; NaN where a measure is undefined for a table.
    pad : float
        The count added to every cell for the meta-d′ fit.
    """

    names: tuple
    estimate: np.ndarray
    pad: float

    def to_frame(self):
        """The measures as a :class:`pandas.DataFrame`: one row per table, one column per measure.

        Returns
        -------
        pandas.DataFrame
            Rows in the order of the stack's leading axes (a MultiIndex for more than one).

        Examples
        --------
        >>> all_measures([[84, 56, 48, 12], [4, 56, 64, 76]]).to_frame()[["gamma", "RMI"]].round(3)
           gamma    RMI
        0  0.793  0.499
        """
        from metabits.results import _frame_columns

        return _frame_columns([(name, self.estimate[..., j]) for j, name in enumerate(self.names)])

    def value(self, name: str):
        """The values of one measure, shape ``estimate.shape[:-1]`` (a float for one table)."""
        return scalar_or_array(self.estimate[..., self.names.index(as_choice(name, self.names,
                                                                            "measure"))])


def all_measures(counts, pad=None, measures: str = "default") -> AllMeasures:
    """All the library's Type 2 measures of a stack of tables, plug-in, NaN where undefined.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables in the library's convention, K >= 2.
    pad : float, optional
        Count added to every cell before the meta-d′ fit (d′ is the padded table's); default
        1/(2K). Must be > 0.
    measures : {"default", "all"}, default "default"
        ``"all"`` adds Rahnev's (2025) measures (:data:`RAHNEV`): ΔConf on the 0–1 scale
        (``dconf``), the ratio and difference forms of AUROC2, gamma, phi and ΔConf against
        an SDT observer with the table's d′ and criteria (:func:`metabits.sdt.relative_type2`),
        and meta-noise and meta-uncertainty (:func:`metabits.fit_meta_noise`,
        :func:`metabits.fit_meta_uncertainty`: 0 where σ is fitted at 0, inf where it is
        unbounded, NaN where it is not identified).

    Returns
    -------
    AllMeasures
        ``estimate[..., j]`` is measure ``names[j]`` (:data:`PLUGIN`): accuracy reached, d′,
        meta-d′, M-ratio, meta-d′ − d′, AUROC2, gamma, phi, meta-I, meta-I₁ʳ, meta-I₂ʳ, RMI,
        then those of :data:`RAHNEV` with ``measures="all"``.

    Raises
    ------
    ValueError
        For an invalid count table (K < 2 included), a pad that is not > 0 or an unknown
        ``measures``.

    References
    ----------
    Meyen et al. (2025), Figure 6 (the information measures, meta-d′ and M-ratio); Fleming &
    Lau (2014) (AUROC2, gamma, phi, meta-d′ − d′).

    Examples
    --------
    >>> r = all_measures([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(r.value("gamma"), 3), round(r.value("RMI"), 3)
    (0.793, 0.499)
    >>> r = all_measures([[84, 56, 48, 12], [4, 56, 64, 76]], measures="all")
    >>> round(r.value("dconf"), 3), round(r.value("gamma_ratio"), 2)
    (0.438, 1.57)
    """
    t = as_count_table(counts, min_levels=2)
    pad = as_pad(pad, t.shape[-1] // 2, positive=True)
    names = PLUGIN + (RAHNEV if as_choice(measures, ("default", "all"), "measures") == "all"
                      else ())
    flat = t.reshape((-1,) + t.shape[-2:])
    values = _plugin(flat, pad, fallback=True, names=names).reshape(t.shape[:-2] + (len(names),))
    return AllMeasures(names=names, estimate=values, pad=pad)
