"""Every measure of a stack of count tables, plug-in: :func:`all_measures`.

The measures and how each is computed are the registry's (:data:`metabits.MEASURES`,
``metabits._registry``); :func:`all_measures` gives those of its specs marked ``stack``
(:data:`PLUGIN`, and with ``measures="all"`` Rahnev's, :data:`RAHNEV`) and
:func:`metabits.bootstrap_measures` the same with bootstrap intervals; :func:`metabits.measure`
gives them per group of a researcher's trials. :func:`model_measures` is the kernel of
meta-noise and meta-uncertainty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits._registry import compute, names
from metabits.results import Result
from metabits.validation import as_choice, as_count_table, as_pad, scalar_or_array

__all__ = ["AllMeasures", "PLUGIN", "RAHNEV", "all_measures", "model_measures",
           "plugin_matrix"]

#: The plug-in measures of :func:`all_measures`, in its order.
PLUGIN = names(stack=True, default=True)
#: The measures of Rahnev (2025) that ``measures="all"`` adds: ΔConf and the ratio and
#: difference forms of AUROC2, gamma, phi and ΔConf (:func:`metabits.sdt.relative_type2`), and
#: the two model-based measures, meta-noise σ_meta (:func:`metabits.fit_meta_noise`) and
#: meta-uncertainty σ_m (:func:`metabits.fit_meta_uncertainty`), fitted with the same padding.
RAHNEV = names(default=False)


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


def plugin_matrix(flat: np.ndarray, pad: float, chosen=PLUGIN, careful: bool = True):
    """The measures ``chosen`` of checked tables (n, 2, 2K) as columns (..., len(chosen)), any
    leading axes (:func:`metabits._registry.compute`; ``careful``: see there)."""
    lead = flat.shape[:-2]
    values = compute(chosen, flat.reshape((-1,) + flat.shape[-2:]), pad, careful)
    return np.stack([values[k] for k in chosen], axis=-1).reshape(lead + (len(chosen),))


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
    chosen = PLUGIN + (RAHNEV if as_choice(measures, ("default", "all"), "measures") == "all"
                       else ())
    return AllMeasures(names=chosen, estimate=plugin_matrix(t, pad, chosen), pad=pad)
