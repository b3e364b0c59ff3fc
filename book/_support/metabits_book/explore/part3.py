"""The Part III explorers (Roberts, 2026): the OSKR explorer, the feedback lab and the primers.

*From Bits to Minds* (Roberts, 2026) is built around sliders. Each function here and in
:mod:`metabits_book.explore.part3_agents` rebuilds one of its demos as an
:class:`~metabits_book.explore.model.Explorer` — live ipywidgets in a kernel, precomputed frames on
the website — and every number a frame shows is computed by :mod:`metabits.oskr`
(binary self-report channels in closed form) or :mod:`metabits.info` (entropy). The
explorers follow the readings the book chose in its audit chapter (``book/oskr/05_audit``):

* :func:`oskr_explorer` — the essay's main explorer, its two unlabelled sliders read as the
  outcome's success rate and the share of steps on which a symmetric self-report is right; the
  linear score 2 × right − 1 (hit rate minus false-alarm rate), which reproduces the essay's
  displayed 0.60, is drawn beside OSKR;
* :func:`feedback_lab_explorer` — the binary feedback lab: prevalence, feedback error ε and
  verifier gain g, with the effective error :math:`\\varepsilon_\\text{eff}` = ε(1 − g);
* :func:`oskr_surface_explorer` — the lab's OSKR surface over ε and g, as one line of OSKR
  against ε per gain;
* :func:`entropy_explorer` and :func:`channel_noise_explorer` — the primers.

Systems Alpha and Beta, the actor/judge/verifier set-ups, the deployment matrix and the task
router are in :mod:`metabits_book.explore.part3_agents`.
"""

from __future__ import annotations

import functools

import numpy as np

from metabits.info import entropy
from metabits.oskr import feedback_channel
from metabits_book._arguments import as_number_grid
from metabits_book.palette import BLACK, BLUE, GREEN, GREY, PURPLE, SKY_BLUE, VERMILLION
from metabits_book.explore.model import Explorer, Panel, Trace, View, control

__all__ = ["channel_noise_explorer", "entropy_explorer", "feedback_lab_explorer",
           "oskr_explorer", "oskr_surface_explorer"]

_BITS = ("H(T)", "H(T | S)", "I(S; T)")

#: the prevalence sliders' grid, shared by the feedback lab and the OSKR surface
PREVALENCE_GRID = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def _steps(lo: float, hi: float, step: float) -> tuple:
    """An evenly spaced grid from ``lo`` to ``hi`` (inclusive), rounded to 3 decimals."""
    n = int(round((hi - lo) / step))
    return tuple(float(v) for v in np.round(lo + step * np.arange(n + 1), 3))


def _grid(values, name: str, low: float = 0.0, high: float = 1.0, **kw) -> tuple:
    """A control grid of probabilities (increasing, in [``low``, ``high``]), checked now (not
    when the frames are computed)."""
    return as_number_grid(values, name, low, high, **kw)


def _prevalence_grid(values, name: str = "prevalence grid") -> tuple:
    return _grid(values, name, low_open=True, high_open=True,
                 why_low="at 0 or 1 the outcome never varies and OSKR is undefined",
                 why_high="at 0 or 1 the outcome never varies and OSKR is undefined")


def _default(values, preferred):
    return preferred if preferred in values else None


def _bits_trace(ch, panel: int) -> Trace:
    """H(T), H(T | S) and I(S; T) of a channel result as horizontal bars."""
    values = [float(ch.h_outcome), float(ch.h_outcome_given_signal), float(ch.mutual_info)]
    return Trace("bits", np.array(values), _BITS, kind="hbars", panel=panel, color=BLUE)


_CELLS = ("success, says 'success'", "success, says 'failure'", "failure, says 'success'",
          "failure, says 'failure'")


def _confusion_trace(ch, panel: int) -> Trace:
    """The confusion structure, P(T, S) cell by cell, as one set of horizontal bars.

    One trace, not one per self-report: the live (matplotlib) front end draws bars of several
    traces at the same categories on top of each other.
    """
    return Trace("P(T, S)", np.asarray(ch.confusion, float).ravel(), _CELLS, kind="hbars",
                 panel=panel, color=GREEN)


# --- the essay's main explorer -------------------------------------------------------------------

def oskr_explorer(success=_steps(0.1, 0.9, 0.05), right=_steps(0.5, 1.0, 0.025)) -> Explorer:
    """The essay's OSKR explorer: success rate and how often the self-report is right → OSKR.

    The essay's two sliders are unlabelled; the book reads them (``book/oskr/05_audit``) as the
    outcome's success rate P(T = success) and the share of steps on which a symmetric self-report
    is right, i.e. :func:`metabits.oskr.feedback_channel` with feedback error
    1 − right and no verifier. Panel 1 shows OSKR against "right" at the chosen success rate, with
    the linear score hit rate − false-alarm rate (Youden's J, which reproduces the essay's
    displayed 0.60 at 80%) for comparison; panel 2 the bits: H(T), H(T | S) and I(S; T).

    Parameters
    ----------
    success : sequence of float, default 10%, 15%, …, 90%
        The success-rate slider's grid, in (0, 1).
    right : sequence of float, default 50%, 52.5%, …, 100%
        The grid of the share of steps the self-report is right, in [0.5, 1].

    Returns
    -------
    Explorer
        Controls ``success`` and ``right``.

    Raises
    ------
    ValueError
        For a success rate outside (0, 1), a share outside [0.5, 1], or a grid that is empty,
        repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, the OSKR explorer ("captures 60% of outcome
    uncertainty", sliders at 50% and 80%).

    Examples
    --------
    >>> e = oskr_explorer(success=[0.5], right=[0.8])
    >>> v = e.view()
    >>> round(float(v.trace("this setting").y[0]), 3)
    0.278
    >>> round(float(v.trace("linear score: hit − false-alarm rate").y[-1]), 2)
    1.0
    """
    success = _prevalence_grid(success, "success-rate grid")
    right = _grid(right, "grid of 'self-report right'", low=0.5)
    r = np.linspace(0.5, 1.0, 51)
    lin = feedback_channel(0.5, 1.0 - r, 0.0)
    linear = (1.0 - lin.error_effective) - lin.error_effective   # hit rate − false-alarm rate
    fixed = (Trace("linear score: hit − false-alarm rate", r, linear, color=GREY, dash="dash"),)

    @functools.lru_cache(maxsize=None)
    def curve(success):
        return feedback_channel(success, 1.0 - r, 0.0).oskr

    def draw(success, right):
        ch = feedback_channel(success, 1.0 - right, 0.0)
        youden = (1.0 - ch.error_effective) - ch.error_effective
        caption = (f"Success rate {success:.0%}, self-report right on {right:.1%} of steps: OSKR "
                   f"{ch.oskr:.2f} — the self-report removes {ch.mutual_info:.3f} of the "
                   f"outcome's {ch.h_outcome:.3f} bit. The linear score hit − false-alarm rate "
                   f"is {youden:.2f}.")
        return View((Trace("OSKR at this success rate", r, curve(success), color=BLUE),
                     Trace("this setting", [right], [ch.oskr], kind="points", color=VERMILLION),
                     _bits_trace(ch, 1)), caption)

    return Explorer(
        "oskr-explorer", "The OSKR explorer (Roberts, the essay's two sliders)",
        (control("success", "success rate", success, default=_default(success, 0.5),
                 fmt="{:.0%}"),
         control("right", "self-report right", right, default=_default(right, 0.8),
                 fmt="{:.1%}")),
        (Panel("OSKR against how often the self-report is right", "self-report right",
               "OSKR or score", xrange=(0.49, 1.01), yrange=(-0.02, 1.02)),
         Panel("The outcome's bits", "bits", "", xrange=(0.0, 1.02))),
        draw, fixed)


# --- the binary feedback lab ---------------------------------------------------------------------

def feedback_lab_explorer(prevalence=PREVALENCE_GRID, error=_steps(0.0, 0.5, 0.05),
                          gain=_steps(0.0, 1.0, 0.1)) -> Explorer:
    """The essay's binary feedback lab: prevalence, feedback error ε, verifier gain g.

    Everything is :func:`metabits.oskr.feedback_channel`: the verifier narrows the
    error to :math:`\\varepsilon_\\text{eff}` = ε(1 − g) (the reading that reproduces the lab's
    :math:`\\varepsilon_\\text{eff}`, see the audit chapter). Panel 1, next to the controls,
    shows OSKR against the gain at the chosen prevalence and ε; panel 2 H(T), H(T | S) and
    I(S; T); panel 3 the confusion structure (joint probabilities of outcome and self-report,
    cell by cell).

    Parameters
    ----------
    prevalence : sequence of float, default 0.5, 0.6, …, 0.9, 0.95
        P(T = success) grid, in (0, 1) (:data:`PREVALENCE_GRID`, the OSKR surface's).
    error : sequence of float, default 0, 0.05, …, 0.5
        Feedback error ε grid, in [0, 1].
    gain : sequence of float, default 0, 0.1, …, 1
        Verifier gain g grid, in [0, 1].

    Returns
    -------
    Explorer
        Controls ``prevalence``, ``error`` and ``gain``.

    Raises
    ------
    ValueError
        For a prevalence of 0 or 1 or outside (0, 1), ε or g outside [0, 1], or a grid that is
        empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Quantitative lab · binary feedback model".

    Examples
    --------
    >>> v = feedback_lab_explorer(prevalence=[0.5], error=[0.2], gain=[0.5]).view()
    >>> v.trace("bits").x.round(3).tolist()
    [1.0, 0.469, 0.531]
    >>> v.trace("P(T, S)").x.round(3).tolist()
    [0.45, 0.05, 0.05, 0.45]
    """
    prevalence = _prevalence_grid(prevalence)
    error = _grid(error, "feedback-error grid")
    gain = _grid(gain, "verifier-gain grid")
    g = np.linspace(0.0, 1.0, 41)

    def draw(prevalence, error, gain):
        ch = feedback_channel(prevalence, error, gain)
        curve = feedback_channel(prevalence, error, g).oskr
        caption = (f"Prevalence {prevalence:.0%}, feedback error ε = {error:.2f}, verifier gain "
                   f"g = {gain:.1f}: effective error ε(1 − g) = {ch.error_effective:.3f}, "
                   f"H(T) = "
                   f"{ch.h_outcome:.3f} bit, H(T | S) = {ch.h_outcome_given_signal:.3f} bit, "
                   f"OSKR = {ch.oskr:.2f}.")
        return View((Trace("OSKR against g", g, curve, color=BLUE),
                     Trace("this gain", [gain], [ch.oskr], kind="points", color=VERMILLION),
                     _bits_trace(ch, 1), _confusion_trace(ch, 2)), caption)

    return Explorer(
        "feedback-lab", "The binary feedback lab (Roberts)",
        (control("prevalence", "prevalence", prevalence, default=_default(prevalence, 0.5),
                 fmt="{:.0%}"),
         control("error", "feedback error ε", error, default=_default(error, 0.2),
                 fmt="{:.2f}"),
         control("gain", "verifier gain g", gain, default=_default(gain, 0.3), fmt="{:.1f}")),
        (Panel("OSKR as the verifier improves", "verifier gain g", "OSKR",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02)),
         Panel("Entropy and information", "bits", "", xrange=(0.0, 1.02)),
         Panel("Outcome and self-report", "joint probability", "",
               xrange=(0.0, 1.04))),
        draw)


def oskr_surface_explorer(prevalence=PREVALENCE_GRID,
                          gains=(0.0, 0.2, 0.35, 0.5, 0.7, 0.9)) -> Explorer:
    """The lab's OSKR surface over ε and g, as one line of OSKR against ε per verifier gain.

    Each line is :func:`metabits.oskr.feedback_channel` over ε in [0, 0.5] at one
    gain; the marker is the essay's setting (ε = 0.22, g = 0.35) when 0.35 is one of ``gains``.

    Parameters
    ----------
    prevalence : sequence of float, default 0.5, 0.6, …, 0.9, 0.95
        The prevalence slider's grid, in (0, 1) (:data:`PREVALENCE_GRID`, the feedback lab's).
    gains : sequence of float, default 0, 0.2, 0.35, 0.5, 0.7, 0.9
        The gains drawn as lines, in [0, 1] (at most 6).

    Returns
    -------
    Explorer
        Control ``prevalence``.

    Raises
    ------
    ValueError
        For a prevalence outside (0, 1), a gain outside [0, 1], more than 6 gains, or a grid that
        is empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, the lab's "OSKR phase surface".

    Examples
    --------
    >>> v = oskr_surface_explorer(prevalence=[0.5]).view()
    >>> round(float(v.trace("the essay's setting").y[0]), 3)
    0.408
    """
    prevalence = _prevalence_grid(prevalence)
    gains = tuple(float(v) for v in _grid(gains, "gains (verifier gains)"))
    if not 1 <= len(gains) <= 6:
        raise ValueError(f"give 1 to 6 gains to draw as lines; got {len(gains)}")
    eps = np.linspace(0.0, 0.5, 51)
    colours = (BLACK, SKY_BLUE, VERMILLION, GREEN, BLUE, PURPLE)
    dashes = ("solid", "dash", "solid", "dot", "dash", "solid")

    def draw(prevalence):
        table = feedback_channel(prevalence, eps[None, :], np.array(gains)[:, None]).oskr
        traces = [Trace(f"g = {g:g}", eps, row, color=c, dash=d)
                  for g, row, c, d in zip(gains, table, colours, dashes)]
        at = feedback_channel(prevalence, 0.22, 0.35)
        if 0.35 in gains:
            traces.append(Trace("the essay's setting", [0.22], [at.oskr], kind="points",
                                color=VERMILLION))
        caption = (f"Prevalence {prevalence:.0%}: with no verifier OSKR falls from 1 at ε = 0 to "
                   f"{table[0, -1]:.2f} at ε = 0.5; at the essay's ε = 0.22 and g = 0.35 it is "
                   f"{at.oskr:.2f}. A larger gain flattens the fall: OSKR depends on ε and g "
                   "only through the effective error ε(1 − g).")
        return View(tuple(traces), caption)

    return Explorer(
        "oskr-surface", "The OSKR surface over ε and g (Roberts, the lab)",
        (control("prevalence", "prevalence", prevalence, default=_default(prevalence, 0.5),
                 fmt="{:.0%}"),),
        (Panel("OSKR against feedback error, one line per gain", "feedback error ε", "OSKR",
               xrange=(-0.01, 0.51), yrange=(-0.02, 1.02)),),
        draw)


# --- the primers ---------------------------------------------------------------------------------

def entropy_explorer(active=tuple(range(1, 9)), skew=_steps(0.0, 3.0, 0.25)) -> Explorer:
    """The entropy primer: reshape a distribution over eight outcomes and read H(X).

    The first ``active`` outcomes have probability proportional to exp(−skew × i), i = 0, 1, …;
    the others have none. ``active = 8, skew = 0`` is the essay's uniform distribution (3 bits).
    H(X) is :func:`metabits.info.entropy`.

    Parameters
    ----------
    active : sequence of int, default 1, …, 8
        Grid of the number of possible outcomes, integers in [1, 8].
    skew : sequence of float, default 0, 0.25, …, 3
        Grid of the skew (>= 0): 0 spreads the mass evenly, large values pile it on outcome 1.

    Returns
    -------
    Explorer
        Controls ``active`` and ``skew``.

    Raises
    ------
    ValueError
        For a number of outcomes that is not an integer in [1, 8], a negative or non-finite skew,
        or a grid that is empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, the opening primer ("H(X) = 3.00 bits, eight equally
    likely outcomes = maximum uncertainty"); Cover & Thomas (2006), ch. 2.

    Examples
    --------
    >>> v = entropy_explorer(active=[8], skew=[0.0]).view()
    >>> v.trace("P(X)").y.round(3).tolist()[:2], float(v.trace("bits").x[0])
    ([0.125, 0.125], 3.0)
    """
    active = as_number_grid(active, "active (grid of the number of outcomes)", 1, 8,
                            integer=True)
    skew = as_number_grid(skew, "skew grid", 0.0)
    labels = tuple(str(i) for i in range(1, 9))

    def draw(active, skew):
        w = np.where(np.arange(8) < active, np.exp(-skew * np.arange(8)), 0.0)
        p = w / w.sum()
        h = float(entropy(p))
        h_max = float(entropy(np.full(active, 1.0 / active)))
        caption = (f"{active} possible outcome{'s' if active > 1 else ''}, skew {skew:g} "
                   "(outcome k has probability ∝ exp(−skew·(k − 1)); skew 0 is even): "
                   f"H(X) = {h:.2f} bits, the most likely outcome has probability "
                   f"{p[0]:.1%}; spreading the mass evenly over these outcomes would give "
                   f"{h_max:.2f} bits.")
        return View((Trace("P(X)", labels, p, kind="bars", color=BLUE),
                     Trace("bits", np.array([h, h_max]), ("H(X)", "even spread"), kind="hbars",
                           panel=1, color=GREEN)), caption)

    return Explorer(
        "entropy-primer", "Entropy of a distribution you reshape (Roberts, the primer)",
        (control("active", "possible outcomes", active, default=_default(active, 8),
                 fmt="{:d}"),
         control("skew", "skew (0 = even)", skew, default=_default(skew, 0.0), fmt="{:g}")),
        (Panel("The distribution", "outcome", "probability", yrange=(0.0, 1.02)),
         Panel("Entropy", "bits", "", xrange=(0.0, 3.1))),
        draw)


def channel_noise_explorer(noise=_steps(0.0, 0.5, 0.025)) -> Explorer:
    """The mutual-information primer: a binary channel's information shrinks as its noise grows.

    The channel has equally likely inputs and flips each with probability ``noise``; I(X; Y) is
    :func:`metabits.oskr.feedback_channel` at prevalence 0.5, error ``noise`` and no
    verifier.

    Parameters
    ----------
    noise : sequence of float, default 0, 0.025, …, 0.5
        The noise slider's grid, in [0, 1].

    Returns
    -------
    Explorer
        Control ``noise``.

    Raises
    ------
    ValueError
        For a noise outside [0, 1] or a grid that is empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, the opening primer ("intent noise 40%");
    Cover & Thomas (2006), ch. 7 (the binary symmetric channel).

    Examples
    --------
    >>> v = channel_noise_explorer(noise=[0.1]).view()
    >>> round(float(v.trace("this noise").y[0]), 3)
    0.531
    """
    noise = _grid(noise, "noise grid")
    x = np.linspace(0.0, 0.5, 51)
    fixed = (Trace("I(X; Y)", x, feedback_channel(0.5, x, 0.0).mutual_info, color=BLUE),)

    def draw(noise):
        ch = feedback_channel(0.5, noise, 0.0)
        caption = (f"At {noise:.1%} noise the channel carries {ch.mutual_info:.3f} of its input's "
                   f"1 bit; the output agrees with the input on {1 - noise:.1%} of uses.")
        return View((Trace("this noise", [noise], [ch.mutual_info], kind="points",
                           color=VERMILLION),
                     Trace("P(X, Y)", ("X = 0, Y = 0", "X = 0, Y = 1", "X = 1, Y = 0",
                                       "X = 1, Y = 1"),
                           np.asarray(ch.confusion, float).ravel(), kind="bars", panel=1,
                           color=GREEN)), caption)

    return Explorer(
        "channel-noise", "Mutual information and channel noise (Roberts, the primer)",
        (control("noise", "channel noise", noise, default=_default(noise, 0.4), fmt="{:.1%}"),),
        (Panel("Information the channel carries", "channel noise", "I(X; Y) in bits",
               xrange=(-0.01, max(0.51, max(noise) + 0.01)), yrange=(-0.02, 1.02)),
         Panel("Joint distribution of input and output", "", "probability",
               yrange=(0.0, 0.52))),
        draw, fixed)
