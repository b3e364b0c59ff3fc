"""The registry of the library's measures of a count table: one spec per measure.

:data:`MEASURES` maps each measure's name to its :class:`Measure` (name, label, family, how it is
computed, whether it can be bias-reduced, whether it needs a fit), in the column order of
:func:`metabits.measure`. :func:`metabits.measure`, :func:`metabits.all_measures`,
:func:`metabits.bootstrap_measures`, the command line's help and :mod:`metabits.plots` read it;
:func:`compute` computes any of the measures of a stack of tables. Adding a measure is one entry
here and its kernel.

A *kernel* computes one or more measures of checked float tables ``flat`` (n, 2, 2K):
``kernel(flat, pad, careful)`` returns a dict of arrays (n,), NaN where a measure is undefined.
``pad`` (> 0) is the count added to every cell where a measure pads the table (d′, c, the fits);
``careful`` is True for observed tables and False for bootstrap replicates, where a stalled
meta-d′ fit gives NaN instead of a BFGS refit and meta-I(d′) comes from its spline. Measures
of one kernel (e.g. meta-d′, M-ratio and meta-d′ − d′, from one fit) are computed together.

This module imports neither NumPy nor SciPy until a kernel runs, so that the command line's
``--help`` stays quick.
"""

from __future__ import annotations

import types
import warnings
from dataclasses import dataclass
from typing import Callable

__all__ = ["FAMILIES", "MEASURES", "Measure", "compute", "names"]

#: The families of measures, in their order.
FAMILIES = ("performance", "bias", "traditional", "ratio", "difference", "model-based",
            "information")


@dataclass(frozen=True)
class Measure:
    """One measure of a count table: a spec of :data:`MEASURES`.

    Attributes
    ----------
    name : str
        Its column in :func:`metabits.measure`'s table.
    label : str
        A readable name, for axes and tables.
    family : str
        One of :data:`FAMILIES`: task performance (accuracy, d′), response bias (c), and the
        families of measures of metacognition — Rahnev's (2025) traditional, ratio, difference
        and model-based measures, and the information-theoretic ones (Meyen et al., 2025;
        OSKR, Roberts, 2026).
    kernel : callable
        ``kernel(flat, pad, careful)``, computing this measure (with others of its kernel) of
        float tables (n, 2, 2K): see the module's notes.
    bias_reducible : bool
        Meyen et al.'s (2025) Monte Carlo bias reduction applies (``<name>_br``).
    fitted : bool
        Computed by a maximum-likelihood fit (slower; a stalled fit gives NaN).
    default : bool
        Among :func:`metabits.measure`'s ``measures="default"``.
    stack : bool
        Among the measures of :func:`metabits.all_measures` and
        :func:`metabits.bootstrap_measures` (c and OSKR of correctness are
        :func:`metabits.measure`'s only).
    """

    name: str
    label: str
    family: str
    kernel: Callable
    bias_reducible: bool = False
    fitted: bool = False
    default: bool = True
    stack: bool = True


# --- the kernels (each imports what it needs when it runs) ---------------------------------------

def _type1(flat, pad, careful):
    """Accuracy (unpadded), and d′ and c of the padded tables: those of the meta-d′ fit."""
    from metabits._formulas import split_type1

    K = flat.shape[-1] // 2
    d, c, _ = split_type1(flat + pad)
    correct = flat[:, 0, :K].sum(-1) + flat[:, 1, K:].sum(-1)
    return {"acc": correct / flat.sum(axis=(-2, -1)), "d_prime": d, "c": c}


def _meta_d(flat, pad, careful):
    """Meta-d′, M-ratio and meta-d′ − d′ from one padded maximum-likelihood fit."""
    from metabits.sdt._type2_classic import classic_stack

    values, _ = classic_stack(flat, pad, fallback=careful)
    return {k: values[k] for k in ("meta_d", "m_ratio", "m_diff")}


def _classic(flat, pad, careful):
    """AUROC2, gamma and phi (Fleming & Lau, 2014)."""
    from metabits.sdt import auroc2, gamma, phi

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return {fn.__name__: fn(flat, undefined="nan") for fn in (auroc2, gamma, phi)}


def _information(flat, pad, careful):
    """Meyen et al.'s (2025) meta-I, meta-I₁ʳ, meta-I₂ʳ and RMI, plug-in."""
    from metabits.info._measures import (measures_of_stats, normalise_measures, table_stats,
                                         type2_measures)

    if careful:
        v = type2_measures(flat, undefined="nan")
    else:
        v, _ = normalise_measures(measures_of_stats(table_stats(flat)), fast=True)
    return {k: v[k] for k in ("meta_I", "meta_I1r", "meta_I2r", "RMI")}


def _oskr(flat, pad, careful):
    """OSKR of correctness (Roberts, 2026): how much confidence knows of being right."""
    from metabits.oskr import correctness_table, oskr_from_table

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"oskr": oskr_from_table(correctness_table(flat), undefined="nan").oskr}


def _relative(flat, pad, careful):
    """Rahnev's (2025) ΔConf and the ratio and difference forms of AUROC2, gamma, phi and ΔConf
    against an SDT observer with the table's d′ and criteria."""
    from metabits.sdt._relative import relative_stack

    return relative_stack(flat, pad)[0]


def _model(flat, pad, careful):
    """Meta-noise σ_meta and meta-uncertainty σ_m from one maximum-likelihood fit."""
    from metabits._stack import model_measures

    return model_measures(flat, pad)[0]


def _spec(name, label, family, kernel, **flags):
    return Measure(name=name, label=label, family=family, kernel=kernel, **flags)


_RAHNEV = dict(default=False)
_SPECS = (
    _spec("acc", "accuracy", "performance", _type1),
    _spec("d_prime", "d′", "performance", _type1),
    _spec("c", "criterion c", "bias", _type1, stack=False),
    _spec("meta_d", "meta-d′", "traditional", _meta_d, fitted=True),
    _spec("m_ratio", "M-ratio", "ratio", _meta_d, fitted=True),
    _spec("m_diff", "meta-d′ − d′", "difference", _meta_d, fitted=True),
    _spec("auroc2", "AUROC2", "traditional", _classic),
    _spec("gamma", "gamma", "traditional", _classic),
    _spec("phi", "phi", "traditional", _classic),
    _spec("meta_I", "meta-I (bits)", "information", _information, bias_reducible=True),
    _spec("meta_I1r", "meta-I₁ʳ", "information", _information, bias_reducible=True),
    _spec("meta_I2r", "meta-I₂ʳ", "information", _information, bias_reducible=True),
    _spec("RMI", "RMI", "information", _information, bias_reducible=True),
    _spec("oskr", "OSKR", "information", _oskr, stack=False),
    _spec("dconf", "ΔConf", "traditional", _relative, **_RAHNEV),
    _spec("auroc2_ratio", "AUROC2 ratio", "ratio", _relative, **_RAHNEV),
    _spec("auroc2_diff", "AUROC2 difference", "difference", _relative, **_RAHNEV),
    _spec("gamma_ratio", "gamma ratio", "ratio", _relative, **_RAHNEV),
    _spec("gamma_diff", "gamma difference", "difference", _relative, **_RAHNEV),
    _spec("phi_ratio", "phi ratio", "ratio", _relative, **_RAHNEV),
    _spec("phi_diff", "phi difference", "difference", _relative, **_RAHNEV),
    _spec("dconf_ratio", "ΔConf ratio", "ratio", _relative, **_RAHNEV),
    _spec("dconf_diff", "ΔConf difference", "difference", _relative, **_RAHNEV),
    _spec("meta_noise", "meta-noise σ", "model-based", _model, fitted=True, **_RAHNEV),
    _spec("meta_uncertainty", "meta-uncertainty σ", "model-based", _model, fitted=True,
          **_RAHNEV),
)

#: Every measure of a count table, a read-only mapping from its name to its spec, in the column
#: order of :func:`metabits.measure`. Each spec has ``name``, ``label`` (readable), ``family``
#: (performance, bias, traditional, ratio, difference, model-based, information), ``kernel``
#: (the function computing it of a stack of tables), ``bias_reducible``, ``fitted`` (needs a
#: maximum-likelihood fit), ``default`` (in ``measures="default"``) and ``stack`` (in
#: :func:`metabits.all_measures`), e.g. ``MEASURES["m_ratio"].label == "M-ratio"``.
MEASURES = types.MappingProxyType({s.name: s for s in _SPECS})


def names(*, family=None, default=None, stack=None, bias_reducible=None, fitted=None) -> tuple:
    """The names of the measures whose specs have the given values (None: any), in order."""
    wanted = dict(family=family, default=default, stack=stack, bias_reducible=bias_reducible,
                  fitted=fitted)
    return tuple(k for k, s in MEASURES.items()
                 if all(v is None or getattr(s, f) == v for f, v in wanted.items()))


def compute(chosen, flat, pad: float, careful: bool = True) -> dict:
    """The measures ``chosen`` (names of :data:`MEASURES`) of checked float tables ``flat``
    (n, 2, 2K): name -> float array (n,), NaN where undefined; each kernel runs once."""
    import numpy as np

    out, done = {}, set()
    for name in chosen:
        kernel = MEASURES[name].kernel
        if kernel not in done:
            done.add(kernel)
            out.update(kernel(flat, pad, careful))
    n = len(flat)
    return {k: np.asarray(out[k], dtype=float).reshape(n) for k in chosen}
