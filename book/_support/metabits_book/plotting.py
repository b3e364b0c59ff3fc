"""The book's figure of Meyen et al.'s Figures 6–7 (six Type 2 measures against accuracy).

:func:`plot_six_measures` draws the results of
:func:`metabits_book.studies.simulation.measure_study` in the colours, markers and line styles of
the noise cases (:data:`metabits_book.palette.NOISE_STYLE`). The book's figure style and figure
files are :mod:`metabits_book.style`.
"""

from __future__ import annotations

from metabits_book.palette import ACCENT, NOISE_STYLE, NORMALISER, REGION_COLOR

__all__ = ["ACCENT", "NOISE_STYLE", "NORMALISER", "REGION_COLOR", "SIX_PANELS",
           "plot_six_measures"]



# --- Figures 6 and 7: six Type 2 measures against accuracy ---------------------------------------

#: the six panels of Figures 6 and 7: (key, panel title, y-axis label, default y-limits)
SIX_PANELS = (
    ("meta_d", "(a) meta-d′", "meta-d′", (-1.5, 7.0)),
    ("m_ratio", "(b) M-ratio", "M-ratio = meta-d′ / d′", (-3.0, 12.0)),
    ("meta_I", "(c) meta-I", "meta-I [bit]", (-0.03, 0.4)),
    ("meta_I1r", "(d) meta-I₁ʳ", "meta-I₁ʳ", (-2.0, 14.0)),
    ("meta_I2r", "(e) meta-I₂ʳ", "meta-I₂ʳ", (-0.03, 0.65)),
    ("RMI", "(f) RMI", "RMI", (-0.1, 1.2)),
)


def plot_six_measures(results, lines, axes=None, *, kinds=("uniform", "normal", "binary"),
                      ylims=None, xlim=(0.52, 0.98), marker_size=9.0, alpha=0.3, ncols=2):
    """Six Type 2 measures against accuracy, one point per data set: Meyen et al. (2025), Fig. 6–7.

    Panels (a) meta-d′, (b) M-ratio, (c) meta-I, (d) meta-I₁ʳ, (e) meta-I₂ʳ and (f) RMI on the
    y-axis, each against the data set's estimated accuracy on the x-axis. Every data set is a
    small semi-transparent marker in the colour and marker of its noise case
    (:data:`NOISE_STYLE`); the theoretical (infinite-sample) values are lines in the noise case's
    line style.

    Points outside a panel's y-limits are not drawn; their number is written in the panel's
    lower right corner, so that none disappears silently. A line that is +inf everywhere (the
    uniform-noise meta-d′ and M-ratio) is marked by an arrow pointing up at the top of the panel;
    other non-finite line values are skipped.

    Parameters
    ----------
    results : mapping
        ``"acc"`` and the six measures of
        :data:`metabits_book.studies.simulation.SIX_MEASURES`, arrays whose first axis runs over
        ``kinds`` (e.g. :func:`metabits_book.studies.simulation.measure_study` of a study of
        shape ``(3, 4, n_sets)``). NaN entries (undefined measures) are skipped.
    lines : mapping or None
        ``{kind: mapping}`` with ``"acc"`` (an accuracy grid) and the six measures on it, e.g.
        ``{k: metabits_book.studies.simulation.theoretical_measures(k, grid) for k in
        kinds}``. Kinds that are missing get no line; ``None`` draws no lines.
    axes : array_like of 6 matplotlib Axes, optional
        Where to draw, in panel order; a new figure of ``ncols`` columns (with a legend below)
        if omitted.
    kinds : sequence of str, default ("uniform", "normal", "binary")
        The noise case of each entry along the first axis of the results.
    ylims : mapping, optional
        y-limits per measure key, overriding the defaults of :data:`SIX_PANELS`.
    xlim : (float, float), default (0.52, 0.98)
        Common x-limits (accuracy).
    marker_size, alpha : float
        Size (points²) and opacity of the data-set markers.
    ncols : {1, 2, 3, 6}, default 2
        Panels per row of a new figure, 3.6 in wide each: the default 3 × 2 grid is 7.2 in wide,
        so that its 10-pt text stays legible in the book's 688 px column (a 2 × 3 grid would be
        shrunk to 60%).

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Raises
    ------
    ValueError
        If ``axes`` does not hold 6 Axes, ``ncols`` does not divide the 6 panels, the results'
        first axis does not have one entry per name in ``kinds``, a kind is not "uniform",
        "normal" or "binary", or the results or lines lack one of the six measures.

    References
    ----------
    Meyen et al. (2025), Figure 6 (plug-in estimates) and Figure 7 (bias-reduced information
    measures).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from metabits_book.studies import simulation as sim
    >>> results = sim.measure_study(sim.simulate_study(n_sets=5, rng=1))
    >>> grid = [0.55, 0.7, 0.95]
    >>> kinds = ("uniform", "normal", "binary")
    >>> lines = {k: sim.theoretical_measures(k, grid) for k in kinds}
    >>> fig = plot_six_measures(results, lines)
    >>> [ax.get_title() for ax in fig.axes[:3]]
    ['(a) meta-d′', '(b) M-ratio', '(c) meta-I']
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.lines import Line2D

    from metabits.validation import as_noise_kind

    kinds = tuple(as_noise_kind(k) for k in kinds)
    needed = ["acc"] + [key for key, _, _, _ in SIX_PANELS]
    missing = [k for k in needed if k not in results]
    missing += [f"{kind}: {k}" for kind in (lines or {}) for k in needed if k not in lines[kind]]
    if missing:
        raise ValueError(f"plot_six_measures needs the accuracy and the six measures; missing "
                         f"{', '.join(missing)}")
    limits = {key: lim for key, _, _, lim in SIX_PANELS}
    limits.update(ylims or {})
    new_figure = axes is None
    if new_figure:
        if ncols not in (1, 2, 3, 6):
            raise ValueError(f"ncols must divide the 6 panels (1, 2, 3 or 6); got {ncols!r}")
        nrows = 6 // ncols
        fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 2.75 * nrows), sharex=True)
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.size != 6:
        raise ValueError(f"axes must hold 6 Axes (one per measure); got {axes.size}")
    fig = axes[0].figure
    acc = np.asarray(results["acc"], dtype=float)
    if acc.shape[0] != len(kinds):
        raise ValueError(f"the results' first axis has {acc.shape[0]} entries but {len(kinds)} "
                         "kinds were named")
    for ax, (key, title, ylabel, _) in zip(axes, SIX_PANELS):
        lo, hi = limits[key]
        values = np.asarray(results[key], dtype=float)
        off_scale = 0
        for i, kind in enumerate(kinds):
            st = NOISE_STYLE[kind]
            x, y = acc[i].ravel(), values[i].ravel()
            ok = np.isfinite(x) & np.isfinite(y)
            inside = ok & (y >= lo) & (y <= hi)
            off_scale += int(np.sum(ok & ~inside))
            ax.scatter(x[inside], y[inside], s=marker_size, marker=st["marker"],
                       color=st["color"], alpha=alpha, linewidths=0, zorder=2,
                       rasterized=True)  # thousands of points: keep the SVG small
        for kind in kinds:
            if lines is None or kind not in lines:
                continue
            st = NOISE_STYLE[kind]
            gx = np.asarray(lines[kind]["acc"], dtype=float)
            gy = np.asarray(lines[kind][key], dtype=float)
            if np.all(np.isposinf(gy)):
                ax.annotate(f"{kind} line: +∞", xy=(0.5, 1.0), xytext=(0.5, 0.88),
                            xycoords="axes fraction", textcoords="axes fraction",
                            color=st["color"], fontsize=9, ha="center", va="top",
                            arrowprops={"arrowstyle": "->", "color": st["color"]})
                continue
            finite = np.isfinite(gy)
            ax.plot(gx[finite], gy[finite], color=st["color"], ls=st["linestyle"], lw=1.6,
                    zorder=3)
        if off_scale:
            ax.text(0.98, 0.02, f"{off_scale} off scale", transform=ax.transAxes, ha="right",
                    va="bottom", fontsize=9, color="0.35")
        ax.axhline(0.0, color="0.8", lw=0.6, zorder=1)
        ax.set(xlim=xlim, ylim=(lo, hi), title=title, ylabel=ylabel)
        ax.set_xticks([0.6, 0.7, 0.8, 0.9])
    for ax in axes:  # x labels on the bottom row of a grid (on every panel otherwise)
        spec = ax.get_subplotspec()
        if spec is None or spec.is_last_row():
            ax.set_xlabel("accuracy acc")
    handles = [Line2D([], [], color=NOISE_STYLE[k]["color"], marker=NOISE_STYLE[k]["marker"],
                      ls=NOISE_STYLE[k]["linestyle"], label=NOISE_STYLE[k]["label"])
               for k in kinds]
    if new_figure:
        fig.legend(handles=handles, loc="lower center", ncol=len(kinds), bbox_to_anchor=(0.5, 0))
        fig.tight_layout(rect=(0, 0.05, 1, 1))
    else:
        axes[0].legend(handles=handles, fontsize=9, loc="upper right")
    return fig
