"""The Part I explorers (Meyen et al., 2025): the noise cases, the ROC bounds, groups, Type 2.

Each function returns an :class:`~metabits_book.explore.model.Explorer` whose frames are
computed by the library functions its docstring names: :func:`noise_cases_explorer` (Figure 2 and
Theorem 3), :func:`roc_explorer` (Propositions 4–5), :func:`group_explorer` (Theorem 8) and
:func:`type2_explorer` (the six measures). Colours are :mod:`metabits_book.palette`'s.
"""

from __future__ import annotations

import functools

import numpy as np

from metabits import info as binning
from metabits.group import (cwmv_accuracy, group_accuracy_bounds, majority_vote_accuracy,
                            noise_group)
from metabits.info import (discrete_confidence, info_bounds, noise_info, roc_bounds_type1,
                           roc_bounds_type2, roc_curve_type1, roc_curve_type2)
from metabits import fit_meta_d, type2_measures
from metabits.sdt import rating_probabilities
from metabits.validation import as_int, as_noise_kind, as_positive, as_size
from metabits_book._arguments import as_grid, as_number_grid
from metabits_book.palette import (ACCENT, BLUE, GREEN, LIGHT_GREY, NOISE_DASH, NOISE_STYLE,
                                   ORANGE, REGION_COLOR)
from metabits_book.explore.model import Explorer, Panel, Trace, View, control

__all__ = ["ACC_GRID", "group_explorer", "noise_cases_explorer", "roc_explorer",
           "type2_explorer"]

#: the accuracy sliders' grid: 55%, 60%, …, 95%
ACC_GRID = tuple(round(0.55 + 0.05 * i, 2) for i in range(9))


def _line_style(kind: str) -> dict:
    return {"color": NOISE_STYLE[kind]["color"], "dash": NOISE_DASH[kind]}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%" if abs(100 * x - round(100 * x)) < 1e-9 else f"{100 * x:.1f}%"


def _acc_grid(acc, high_open: bool, why_low: str = "") -> tuple:
    """An accuracy slider's grid, checked when the explorer is made (not in its frames)."""
    return as_number_grid(acc, "acc", 0.5, 1.0, high_open=high_open, why_low=why_low)


def noise_cases_explorer(acc=ACC_GRID, kinds=("uniform", "normal", "binary")) -> Explorer:
    """The three noise cases: accuracy and noise type → confidence, information, Theorem 3.

    Panel 1 shows the distribution of the calibrated confidence in bins of 5 percentage points
    (:func:`metabits.info.binned_response_probabilities` with equal priors) with its mean, the
    accuracy (Proposition 1); panel 2 the point (accuracy, transmitted information)
    (:func:`metabits.info.noise_info`) in the region Theorem 3 allows
    (:func:`metabits.info.info_bounds`), with the normal-noise curve.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The accuracy slider's grid, in [0.5, 1).
    kinds : sequence of str
        The noise cases of the menu (Figure 2): ``"uniform"``, ``"normal"``, ``"binary"``.

    Returns
    -------
    Explorer
        Controls ``acc`` and ``kind``.

    Raises
    ------
    ValueError
        For an accuracy grid that is not increasing numbers in [0.5, 1), or ``kinds`` that are
        not distinct noise kinds.

    References
    ----------
    Meyen et al. (2025), Figure 2 (the noise cases), Theorem 3 and Figure 3 (the region).

    Examples
    --------
    >>> e = noise_cases_explorer(acc=[0.7])
    >>> v = e.view(acc=0.7, kind="uniform")
    >>> v.trace("this classifier").y.round(3).tolist()
    [0.4]
    >>> v.trace("confidence").y[[0, -1]].round(2).tolist()
    [0.6, 0.4]
    """
    acc = _acc_grid(acc, high_open=True)
    kinds = tuple(as_noise_kind(k) for k in as_grid(kinds, "kinds (noise kinds)"))
    edges = np.round(np.arange(0.55, 0.951, 0.05), 2)
    centres = np.round(np.arange(0.525, 1.0, 0.05), 3)
    a = np.linspace(0.5, 1.0, 101)
    lower, upper = info_bounds(a)
    normal = _line_style("normal")
    fixed = (
        Trace("Theorem 3 region", a, lower, kind="band", panel=1, color=REGION_COLOR, y2=upper),
        Trace("upper bound (uniform noise)", a, upper, panel=1, **_line_style("uniform")),
        Trace("normal noise", a, noise_info("normal", a), panel=1, **normal),
        Trace("lower bound (binary noise)", a, lower, panel=1, **_line_style("binary")),
    )

    def draw(acc, kind):
        table = binning.binned_response_probabilities(kind, acc, edges)   # (2, 20): Y = -1, +1
        K = edges.size + 1
        p_bin = table[1, K:] + table[1, :K][::-1]                 # P(C in bin | Y = +1)
        info = noise_info(kind, acc)
        lo, hi = info_bounds(acc)
        colour = NOISE_STYLE[kind]["color"]
        if kind == "normal":
            how = f"confidence spread over (50%, 100%), most often near {_pct(centres[np.argmax(p_bin)])}"
        else:
            values, weights = discrete_confidence(kind, acc)
            how = "confidence " + " or ".join(
                f"{_pct(v)} ({_pct(w)} of trials)" for v, w in zip(values, weights))
        caption = (f"{kind.capitalize()} noise at {_pct(acc)} accuracy: {how}. It transmits "
                   f"{info:.3f} bit; Theorem 3 allows {lo:.3f} to {hi:.3f} bit at this accuracy.")
        return View((
            Trace("confidence", centres, p_bin, kind="bars", color=colour, width=0.045),
            Trace("mean confidence = accuracy", [acc, acc], [0.0, 1.0], color=ACCENT,
                  dash="dash"),
            Trace("this classifier", [acc], [info], kind="points", panel=1, color=colour),
        ), caption)

    return Explorer(
        "noise-cases", "The three noise cases (Meyen et al., Figure 2 and Theorem 3)",
        (control("acc", "accuracy", acc, default=0.7 if 0.7 in acc else None, fmt="{:.0%}"),
         control("kind", "noise", kinds, default="uniform" if "uniform" in kinds else None)),
        (Panel("Confidence, in bins of 5 points", "calibrated confidence",
               "probability", xrange=(0.48, 1.02), yrange=(0.0, 1.02)),
         Panel("Accuracy and transmitted information", "accuracy", "information (bits)",
               xrange=(0.49, 1.01), yrange=(-0.02, 1.02))),
        draw, fixed)


def roc_explorer(acc=ACC_GRID) -> Explorer:
    """The ROC bounds: accuracy → the regions of Propositions 4 and 5 and the three classifiers.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The accuracy slider's grid, in [0.5, 1).

    Returns
    -------
    Explorer
        Control ``acc``; panel 1 the pseudo Type 1 ROC (:func:`metabits.info.roc_bounds_type1`,
        :func:`metabits.info.roc_curve_type1`), panel 2 the Type 2 ROC
        (:func:`metabits.info.roc_bounds_type2`, :func:`metabits.info.roc_curve_type2`).

    Raises
    ------
    ValueError
        For an accuracy grid that is not increasing numbers in [0.5, 1).

    References
    ----------
    Meyen et al. (2025), Propositions 4 and 5 and Figure 4.

    Examples
    --------
    >>> v = roc_explorer(acc=[0.7]).view()
    >>> v.trace("uniform noise", panel=1).y.round(3).tolist()
    [0.0, 0.571, 1.0]
    """
    acc = _acc_grid(acc, high_open=True)
    fpr = np.linspace(0.0, 1.0, 101)
    diag = Trace("chance", [0.0, 1.0], [0.0, 1.0], color=LIGHT_GREY, dash="dot")

    def draw(acc):
        traces = []
        for panel, bounds, curve in ((0, roc_bounds_type1, roc_curve_type1),
                                     (1, roc_bounds_type2, roc_curve_type2)):
            lo, hi = bounds(fpr, acc)
            traces.append(Trace("possible curves", fpr, lo, kind="band", panel=panel,
                                color=REGION_COLOR, y2=hi))
            for kind in ("uniform", "normal", "binary"):
                x, y = curve(kind, acc, n=61) if kind == "normal" else curve(kind, acc)
                traces.append(Trace(f"{kind} noise", x, y, panel=panel, **_line_style(kind)))
        area_1 = float(np.trapezoid(np.subtract(*roc_bounds_type1(fpr, acc)[::-1]), fpr))
        caption = (f"At {_pct(acc)} accuracy every classifier's pseudo Type 1 ROC curve lies in "
                   f"the grey region (area {area_1:.3f}); its Type 2 ROC curve lies between the "
                   "diagonal (binary noise) and the uniform-noise curve.")
        return View(tuple(traces), caption)

    fixed = (diag, Trace("chance", [0.0, 1.0], [0.0, 1.0], panel=1, color=LIGHT_GREY, dash="dot"))
    return Explorer(
        "roc-bounds", "The ROC bounds (Meyen et al., Propositions 4–5, Figure 4)",
        (control("acc", "accuracy", acc, default=0.7 if 0.7 in acc else None, fmt="{:.0%}"),),
        (Panel("Pseudo Type 1 ROC", "false positive rate", "true positive rate",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02)),
         Panel("Type 2 ROC", "Type 2 false positive rate", "Type 2 true positive rate",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02))),
        draw, fixed)


def group_explorer(acc=ACC_GRID, K=tuple(range(1, 16))) -> Explorer:
    """Group accuracy: group size and member accuracy → MV, CWMV, PCWMV and Theorem 8's bounds.

    Members are identical and conditionally independent (Assumptions 9–14). MV is
    :func:`metabits.group.majority_vote_accuracy`; CWMV (:func:`metabits.group.cwmv_accuracy`)
    equals it for equal members; PCWMV of uniform-, normal- and binary-noise members is
    :func:`metabits.group.noise_group`; the band is :func:`metabits.group.group_accuracy_bounds`.

    Parameters
    ----------
    acc : sequence of float, default 55%, 60%, …, 95%
        The member-accuracy slider's grid, in [0.5, 1].
    K : sequence of int, default 1, …, 15
        The group-size slider's grid (at most 20: CWMV enumerates the 2^K vote patterns).

    Returns
    -------
    Explorer
        Controls ``acc`` and ``K``; panel 1 accuracy against group size, panel 2 the rules at K.

    Raises
    ------
    ValueError
        For an accuracy grid that is not increasing numbers in [0.5, 1], or group sizes that
        are not increasing integers in [1, 20].

    References
    ----------
    Meyen et al. (2025), Theorem 8 and Figure 8.

    Examples
    --------
    >>> v = group_explorer(acc=[0.7], K=[1, 3]).view(K=3)
    >>> dict(zip(v.trace("at K").y, v.trace("at K").x.round(3).tolist()))["MV"]
    0.784
    """
    acc = _acc_grid(acc, high_open=False,
                    why_low="a member accuracy below the larger prior 0.5 is not a Bayes "
                            "prediction's (Assumption 4)")
    sizes = as_grid(K, "group sizes K")
    for k in sizes:
        as_int(k, "group size K", least=1, most=20)
    Ks = np.arange(1, max(sizes) + 1)

    @functools.lru_cache(maxsize=None)
    def curves(acc):
        bounds = [group_accuracy_bounds(np.full(k, acc), np.full(k, acc)) for k in Ks]
        return {"MV": majority_vote_accuracy(acc, Ks),
                "CWMV": np.array([cwmv_accuracy(np.full(k, acc)) for k in Ks]),
                **{f"PCWMV, {kind} noise": noise_group(kind, acc, Ks)["acc"]
                   for kind in ("uniform", "normal", "binary")},
                "lower": np.array([b.lower for b in bounds]),
                "upper": np.array([b.upper for b in bounds])}

    def draw(acc, K):
        c = curves(acc)
        i = K - 1
        traces = [Trace("Theorem 8 bounds", Ks, c["lower"], kind="band", color=REGION_COLOR,
                        y2=c["upper"]),
                  Trace("MV", Ks, c["MV"], color=BLUE)]
        for kind in ("uniform", "normal", "binary"):
            traces.append(Trace(f"PCWMV, {kind} noise", Ks, c[f"PCWMV, {kind} noise"],
                                **_line_style(kind)))
        traces.append(Trace("group of K", [K], [c["PCWMV, uniform noise"][i]], kind="points",
                            color=ACCENT))
        names = ["Theorem 8 upper", "PCWMV, uniform noise", "PCWMV, normal noise",
                 "PCWMV, binary noise", "CWMV", "MV", "Theorem 8 lower"]
        key = {"Theorem 8 upper": "upper", "Theorem 8 lower": "lower"}
        values = np.array([c[key.get(n, n)][i] for n in names])
        traces.append(Trace("at K", values, names, kind="hbars", panel=1, color=BLUE))
        members = f"{K} member" + ("s" if K != 1 else "")
        caption = (f"{members} of {_pct(acc)} accuracy: majority vote {c['MV'][i]:.3f}; "
                   f"optimally weighted (PCWMV) {c['PCWMV, binary noise'][i]:.3f} to "
                   f"{c['PCWMV, uniform noise'][i]:.3f} depending on the members' confidence; "
                   f"Theorem 8 allows {c['lower'][i]:.3f} to {c['upper'][i]:.3f}.")
        return View(tuple(traces), caption)

    return Explorer(
        "group-accuracy", "Group accuracy (Meyen et al., Theorem 8 and Figure 8)",
        (control("acc", "member accuracy", acc, default=0.7 if 0.7 in acc else None,
                 fmt="{:.0%}"),
         control("K", "group size K", sizes, default=3 if 3 in sizes else None, fmt="{:d}")),
        (Panel("Group accuracy against group size", "group size K", "group accuracy",
               xrange=(0.5, max(sizes) + 0.5), yrange=(0.49, 1.01)),
         Panel("The rules at this K", "group accuracy", "", xrange=(0.49, 1.01))),
        draw)


def _recoded(acc: float, type1: float) -> str:
    """The type 2 caption's sentence on the accuracy the information measures use."""
    if _pct(acc) == _pct(type1):
        return (f"The information measures use the recoded accuracy {_pct(acc)} (each response "
                "counted correct for its more probable stimulus), here the Type 1 accuracy; it "
                "rises with meta-d′ once meta-d′ is well above d′.")
    return (f"The information measures use the recoded accuracy {_pct(acc)} (each response "
            f"counted correct for its more probable stimulus), above the Type 1 accuracy "
            f"{_pct(type1)}: with meta-d′ well above d′ the least confident responses flip, so "
            "it rises with meta-d′.")


def type2_explorer(d=(1.0, 1.5, 2.0, 2.5),
                   meta_d=(0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0),
                   levels: int = 4) -> Explorer:
    """Type 2 measures of a rating table whose Type 2 separation you vary.

    The table is the meta-d′ model's :math:`P(\\text{rating} \\mid S)`
    (:func:`metabits.sdt.rating_probabilities`, equal priors, unbiased, ``levels`` confidence
    levels): d′ sets the Type 1 separation and meta-d′ how well the ratings separate correct from
    wrong. Its measures are :func:`metabits.info.type2_measures` (meta-I, the ratios and RMI)
    and :func:`metabits.sdt.fit_meta_d` (meta-d′ and the M-ratio, fitted to the table).

    Parameters
    ----------
    d : sequence of float
        The d′ slider's grid (> 0).
    meta_d : sequence of float
        The meta-d′ slider's grid (>= 0).
    levels : int, default 4
        Confidence levels per response.

    Returns
    -------
    Explorer
        Controls ``d`` and ``meta_d``.

    Raises
    ------
    ValueError
        For grids that are not increasing numbers, d′ <= 0, meta-d′ < 0, a pair (d′, meta-d′)
        whose rating table underflows (:func:`metabits.sdt.rating_probabilities`), or levels
        that are not an integer in [2, 20].

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures" (the six measures);
    Maniscalco & Lau (2012) (meta-d′).

    Examples
    --------
    >>> v = type2_explorer(d=[1.5], meta_d=[1.5]).view()
    >>> dict(zip(v.trace("measure").y, v.trace("measure").x.round(2).tolist()))["M-ratio"]
    1.0
    """
    levels = as_size(levels, "levels", least=2, most=20)
    d = as_grid(d, "d' grid")
    as_positive(d, "d'")
    meta_d = as_grid(meta_d, "meta_d grid")
    if isinstance(d[0], str) or isinstance(meta_d[0], str):
        raise ValueError(f"the d' and meta_d grids must be numbers; got {d} and {meta_d}")
    if min(meta_d) < 0:
        raise ValueError(f"meta_d (meta-d') must be >= 0; got {min(meta_d):g}")
    for dv in d:   # every table of the grid exists (cheap: the fits are done in the frames)
        for mv in meta_d:
            rating_probabilities(dv, mv, K=levels)
    columns = [f"S1 {k}" for k in range(levels, 0, -1)] + [f"S2 {k}" for k in range(1, levels + 1)]
    names = ["M-ratio", "meta-I₁ʳ", "meta-I₂ʳ", "RMI"]

    def draw(d, meta_d):
        table = rating_probabilities(d, meta_d, K=levels)
        m = type2_measures(table)
        fit = fit_meta_d(np.asarray(table) * 1000)  # expected counts of 1000 trials each
        values = [fit.m_ratio + 0.0, m.meta_I1r, m.meta_I2r, m.RMI]  # + 0.0: no "-0.00"
        caption = (f"d′ = {d:g}, meta-d′ = {meta_d:g}: fitted meta-d′ "
                   f"{fit.meta_d + 0.0:.2f}, M-ratio {fit.m_ratio + 0.0:.2f}, meta-I {m.meta_I:.3f} bit, "
                   f"meta-I₁ʳ {m.meta_I1r:.2f}, meta-I₂ʳ {m.meta_I2r:.3f}, RMI {m.RMI:.3f}. "
                   + _recoded(m.acc, (table[0, :levels].sum() + table[1, levels:].sum()) / 2))
        return View((
            Trace("S1 presented", columns, table[0], kind="bars", color=BLUE),
            Trace("S2 presented", columns, table[1], kind="bars", color=ORANGE),
            Trace("measure", np.array(values), names, kind="hbars", panel=1, color=GREEN),
        ), caption)

    return Explorer(
        "type2-measures", "The six Type 2 measures of a rating table (Meyen et al.)",
        (control("d", "d′", d, default=1.5 if 1.5 in d else None, fmt="{:g}"),
         control("meta_d", "meta-d′", meta_d, default=1.0 if 1.0 in meta_d else None,
                 fmt="{:g}")),
        (Panel("The table: P(response | stimulus)", "response (confidence 1 = lowest)",
               "probability", yrange=(0.0, None)),
         Panel("Four of the six, normalised (all six in the caption)", "value", "",
               xrange=(-0.05, None))),
        draw)
