"""The Part III explorers: the essay's sliders as :class:`metabits.explore.Explorer` objects (Roberts, 2026).

*From Bits to Minds* (Roberts, 2026) is built around sliders. Each function here rebuilds one of
its demos as an explorer of :mod:`metabits.explore` — live ipywidgets in a kernel, precomputed
frames on the website — and every number a frame shows is computed by
:mod:`metabits.feedback_channel` (binary self-report channels in closed form) or
:mod:`metabits.information` (entropy). The explorers follow the readings the book chose in its
audit chapter (``book/oskr/05_audit``):

* :func:`oskr_explorer` — the essay's main explorer, its two unlabelled sliders read as the
  outcome's success rate and the share of steps on which a symmetric self-report is right; the
  linear score 2 × right − 1 (hit rate minus false-alarm rate), which reproduces the essay's
  displayed 0.60, is drawn beside OSKR;
* :func:`feedback_lab_explorer` — the binary feedback lab: prevalence, feedback error ε and
  verifier gain g, with ε_eff = ε(1 − g);
* :func:`oskr_surface_explorer` — the lab's OSKR surface over ε and g, as one line of OSKR
  against ε per gain;
* :func:`entropy_explorer` and :func:`channel_noise_explorer` — the primers;
* :func:`alpha_beta_explorer` — Systems Alpha and Beta (same accuracy, different OSKR);
* :func:`verifier_explorer` — actor, passive judge and proactive verifier on the lab's channel;
* :func:`deployment_explorer` and :func:`router_explorer` — the deployment matrix with thresholds
  the reader moves, and the task router with a verifier the reader upgrades (the essay gives no
  thresholds, tasks or loads: the caller supplies them).
"""

from __future__ import annotations

import functools

import numpy as np

from ._validate import as_float_array, as_int, as_probability
from .explore import Explorer, Panel, Trace, View, control

__all__ = ["alpha_beta_explorer", "channel_noise_explorer", "deployment_explorer",
           "entropy_explorer", "feedback_lab_explorer", "oskr_explorer", "oskr_surface_explorer",
           "router_explorer", "verifier_explorer"]

_BLUE, _ORANGE, _GREEN, _GREY, _PURPLE = "#0072b2", "#d55e00", "#009e73", "0.55", "#cc79a7"
_BITS = ("H(T)", "H(T | S)", "I(S; T)")


def _steps(lo: float, hi: float, step: float) -> tuple:
    """An evenly spaced grid from ``lo`` to ``hi`` (inclusive), rounded to 3 decimals."""
    n = int(round((hi - lo) / step))
    return tuple(float(v) for v in np.round(lo + step * np.arange(n + 1), 3))


def _grid(values, name: str, **kw) -> tuple:
    """A control grid of probabilities, checked now (not when the frames are computed)."""
    as_probability(np.asarray(list(values), dtype=float), name, **kw)
    return tuple(values)


def _prevalence_grid(values, name: str = "prevalence grid") -> tuple:
    return _grid(values, name, low_open=True, high_open=True,
                 why_low="at 0 or 1 the outcome never varies and OSKR is undefined",
                 why_high="at 0 or 1 the outcome never varies and OSKR is undefined")


def _default(values, preferred):
    return preferred if preferred in values else None


def _bits_trace(ch, panel: int) -> Trace:
    """H(T), H(T | S) and I(S; T) of a channel result as horizontal bars."""
    values = [float(ch.h_outcome), float(ch.h_outcome_given_signal), float(ch.mutual_info)]
    return Trace("bits", np.array(values), _BITS, kind="hbars", panel=panel, color=_BLUE)


_CELLS = ("success, says 'success'", "success, says 'failure'", "failure, says 'success'",
          "failure, says 'failure'")


def _confusion_trace(ch, panel: int) -> Trace:
    """The confusion structure, P(T, S) cell by cell, as one set of horizontal bars.

    One trace, not one per self-report: the live (matplotlib) front end draws bars of several
    traces at the same categories on top of each other.
    """
    return Trace("P(T, S)", np.asarray(ch.confusion, float).ravel(), _CELLS, kind="hbars",
                 panel=panel, color=_GREEN)


# --- the essay's main explorer -----------------------------------------------------------------------

def oskr_explorer(success=_steps(0.1, 0.9, 0.05), right=_steps(0.5, 1.0, 0.025)) -> Explorer:
    """The essay's OSKR explorer: success rate and how often the self-report is right → OSKR.

    The essay's two sliders are unlabelled; the book reads them (``book/oskr/05_audit``) as the
    outcome's success rate P(T = success) and the share of steps on which a symmetric self-report
    is right, i.e. :func:`metabits.feedback_channel.feedback_channel` with feedback error
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
    from .feedback_channel import feedback_channel

    success = _prevalence_grid(success, "success-rate grid")
    right = _grid(right, "grid of 'self-report right'", low=0.5)
    r = np.linspace(0.5, 1.0, 51)
    lin = feedback_channel(0.5, 1.0 - r, 0.0)
    linear = (1.0 - lin.error_effective) - lin.error_effective   # hit rate − false-alarm rate
    fixed = (Trace("linear score: hit − false-alarm rate", r, linear, color=_GREY, dash="dash"),)

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
        return View((Trace("OSKR at this success rate", r, curve(success), color=_BLUE),
                     Trace("this setting", [right], [ch.oskr], kind="points", color=_ORANGE),
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


# --- the binary feedback lab ------------------------------------------------------------------------

def feedback_lab_explorer(prevalence=(0.5, 0.7, 0.9), error=_steps(0.0, 0.5, 0.05),
                          gain=_steps(0.0, 1.0, 0.1)) -> Explorer:
    """The essay's binary feedback lab: prevalence, feedback error ε, verifier gain g.

    Everything is :func:`metabits.feedback_channel.feedback_channel`: the verifier narrows the
    error to ε_eff = ε(1 − g) (the reading that reproduces the lab's ε_eff, see the audit
    chapter). Panel 1 shows H(T), H(T | S) and I(S; T); panel 2 the confusion structure (joint
    probabilities of outcome and self-report, cell by cell); panel 3 OSKR against the gain at the chosen
    prevalence and ε.

    Parameters
    ----------
    prevalence : sequence of float, default 0.5, 0.7, 0.9
        P(T = success) grid, in (0, 1).
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
    from .feedback_channel import feedback_channel

    prevalence = _prevalence_grid(prevalence)
    error = _grid(error, "feedback-error grid")
    gain = _grid(gain, "verifier-gain grid")
    g = np.linspace(0.0, 1.0, 41)

    def draw(prevalence, error, gain):
        ch = feedback_channel(prevalence, error, gain)
        curve = feedback_channel(prevalence, error, g).oskr
        caption = (f"Prevalence {prevalence:.0%}, feedback error ε = {error:.2f}, verifier gain "
                   f"g = {gain:.1f}: ε_eff = {ch.error_effective:.3f}, H(T) = "
                   f"{ch.h_outcome:.3f} bit, H(T | S) = {ch.h_outcome_given_signal:.3f} bit, "
                   f"OSKR = {ch.oskr:.2f}.")
        return View((_bits_trace(ch, 0), _confusion_trace(ch, 1),
                     Trace("OSKR against g", g, curve, panel=2, color=_BLUE),
                     Trace("this gain", [gain], [ch.oskr], kind="points", panel=2,
                           color=_ORANGE)), caption)

    return Explorer(
        "feedback-lab", "The binary feedback lab (Roberts)",
        (control("prevalence", "prevalence", prevalence, default=_default(prevalence, 0.5),
                 fmt="{:.0%}"),
         control("error", "feedback error ε", error, default=_default(error, 0.2),
                 fmt="{:.2f}"),
         control("gain", "verifier gain g", gain, default=_default(gain, 0.3), fmt="{:.1f}")),
        (Panel("Entropy and information", "bits", "", xrange=(0.0, 1.02)),
         Panel("Outcome and self-report", "joint probability", "",
               xrange=(0.0, 1.04)),
         Panel("OSKR as the verifier improves", "verifier gain g", "OSKR",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02))),
        draw)


def oskr_surface_explorer(prevalence=(0.5, 0.6, 0.7, 0.8, 0.9, 0.95),
                          gains=(0.0, 0.2, 0.35, 0.5, 0.7, 0.9)) -> Explorer:
    """The lab's OSKR surface over ε and g, as one line of OSKR against ε per verifier gain.

    Each line is :func:`metabits.feedback_channel.feedback_channel` over ε in [0, 0.5] at one
    gain; the marker is the essay's setting (ε = 0.22, g = 0.35) when 0.35 is one of ``gains``.

    Parameters
    ----------
    prevalence : sequence of float, default 0.5, …, 0.95
        The prevalence slider's grid, in (0, 1).
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
    from .feedback_channel import feedback_channel

    prevalence = _prevalence_grid(prevalence)
    gains = tuple(float(v) for v in as_probability(as_float_array(list(gains), "gains"),
                                                   "verifier gains"))
    if not 1 <= len(gains) <= 6:
        raise ValueError(f"give 1 to 6 gains to draw as lines; got {len(gains)}")
    eps = np.linspace(0.0, 0.5, 51)
    colours = ("#000000", "#56b4e9", _ORANGE, _GREEN, _BLUE, _PURPLE)
    dashes = ("solid", "dash", "solid", "dot", "dash", "solid")

    def draw(prevalence):
        table = feedback_channel(prevalence, eps[None, :], np.array(gains)[:, None]).oskr
        traces = [Trace(f"g = {g:g}", eps, row, color=c, dash=d)
                  for g, row, c, d in zip(gains, table, colours, dashes)]
        at = feedback_channel(prevalence, 0.22, 0.35)
        if 0.35 in gains:
            traces.append(Trace("the essay's setting", [0.22], [at.oskr], kind="points",
                                color=_ORANGE))
        caption = (f"Prevalence {prevalence:.0%}: with no verifier OSKR falls from 1 at ε = 0 to "
                   f"{table[0, -1]:.2f} at ε = 0.5; at the essay's ε = 0.22 and g = 0.35 it is "
                   f"{at.oskr:.2f}. A larger gain flattens the fall: OSKR depends on ε and g "
                   "only through ε_eff = ε(1 − g).")
        return View(tuple(traces), caption)

    return Explorer(
        "oskr-surface", "The OSKR surface over ε and g (Roberts, the lab)",
        (control("prevalence", "prevalence", prevalence, default=_default(prevalence, 0.5),
                 fmt="{:.0%}"),),
        (Panel("OSKR against feedback error, one line per gain", "feedback error ε", "OSKR",
               xrange=(-0.01, 0.51), yrange=(-0.02, 1.02)),),
        draw)


# --- the primers --------------------------------------------------------------------------------------

def entropy_explorer(active=tuple(range(1, 9)), skew=_steps(0.0, 3.0, 0.25)) -> Explorer:
    """The entropy primer: reshape a distribution over eight outcomes and read H(X).

    The first ``active`` outcomes have probability proportional to exp(−skew × i), i = 0, 1, …;
    the others have none. ``active = 8, skew = 0`` is the essay's uniform distribution (3 bits).
    H(X) is :func:`metabits.information.entropy`.

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
    from .information import entropy

    for k in active:
        as_int(k, "number of outcomes", least=1, most=8)
    skew_values = as_float_array(list(skew), "skew grid")
    if np.any(skew_values < 0):
        raise ValueError(f"skew must be >= 0; got {skew_values.min():g}")
    labels = tuple(str(i) for i in range(1, 9))

    def draw(active, skew):
        w = np.where(np.arange(8) < active, np.exp(-skew * np.arange(8)), 0.0)
        p = w / w.sum()
        h = float(entropy(p))
        h_max = float(entropy(np.full(active, 1.0 / active)))
        caption = (f"{active} possible outcome{'s' if active > 1 else ''}, skew {skew:g}: "
                   f"H(X) = {h:.2f} bits, the most likely outcome has probability "
                   f"{p[0]:.1%}; spreading the mass evenly over these outcomes would give "
                   f"{h_max:.2f} bits.")
        return View((Trace("P(X)", labels, p, kind="bars", color=_BLUE),
                     Trace("bits", np.array([h, h_max]), ("H(X)", "even spread"), kind="hbars",
                           panel=1, color=_GREEN)), caption)

    return Explorer(
        "entropy-primer", "Entropy of a distribution you reshape (Roberts, the primer)",
        (control("active", "possible outcomes", active, default=_default(active, 8),
                 fmt="{:d}"),
         control("skew", "skew", skew, default=_default(skew, 0.0), fmt="{:g}")),
        (Panel("The distribution", "outcome", "probability", yrange=(0.0, 1.02)),
         Panel("Entropy", "bits", "", xrange=(0.0, 3.1))),
        draw)


def channel_noise_explorer(noise=_steps(0.0, 0.5, 0.025)) -> Explorer:
    """The mutual-information primer: a binary channel's information shrinks as its noise grows.

    The channel has equally likely inputs and flips each with probability ``noise``; I(X; Y) is
    :func:`metabits.feedback_channel.feedback_channel` at prevalence 0.5, error ``noise`` and no
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
    from .feedback_channel import feedback_channel

    noise = _grid(noise, "noise grid")
    x = np.linspace(0.0, 0.5, 51)
    fixed = (Trace("I(X; Y)", x, feedback_channel(0.5, x, 0.0).mutual_info, color=_BLUE),)

    def draw(noise):
        ch = feedback_channel(0.5, noise, 0.0)
        caption = (f"At {noise:.1%} noise the channel carries {ch.mutual_info:.3f} of its input's "
                   f"1 bit; the output agrees with the input on {1 - noise:.1%} of uses.")
        return View((Trace("this noise", [noise], [ch.mutual_info], kind="points",
                           color=_ORANGE),
                     Trace("P(X, Y)", ("X = 0, Y = 0", "X = 0, Y = 1", "X = 1, Y = 0",
                                       "X = 1, Y = 1"),
                           np.asarray(ch.confusion, float).ravel(), kind="bars", panel=1,
                           color=_GREEN)), caption)

    return Explorer(
        "channel-noise", "Mutual information and channel noise (Roberts, the primer)",
        (control("noise", "channel noise", noise, default=_default(noise, 0.4), fmt="{:.1%}"),),
        (Panel("Information the channel carries", "channel noise", "I(X; Y) in bits",
               xrange=(-0.01, max(0.51, max(noise) + 0.01)), yrange=(-0.02, 1.02)),
         Panel("Joint distribution of input and output", "", "probability",
               yrange=(0.0, 0.52))),
        draw, fixed)


# --- Alpha and Beta; actor, judge and verifier ------------------------------------------------------

def alpha_beta_explorer(wrong=_steps(0.0, 0.5, 0.01), accuracy: float = 0.72) -> Explorer:
    """Same accuracy, different self-knowledge: OSKR of a confidence flag as its error rate moves.

    T is "correct", S is "confident"; at the essay's accuracy (72%) the channel is
    :func:`metabits.feedback_channel.binary_channel` with hit rate P(confident | correct) and
    false-alarm rate P(confident | wrong). Panel 1 draws OSKR against the hit rate at the chosen
    P(confident | wrong), with the essay's Systems Alpha (OSKR 0.81, confident on 9% of errors)
    and Beta (0.18, 24%) where :func:`metabits.feedback_channel.hit_rate_for_oskr` places them;
    panel 2 the largest OSKR (hit rate 1) each P(confident | wrong) allows.

    Parameters
    ----------
    wrong : sequence of float, default 0, 0.01, …, 0.5
        Grid of P(confident | wrong), in [0, 1].
    accuracy : float, default 0.72
        P(correct), in (0, 1); Alpha and Beta are drawn only at the essay's 0.72.

    Returns
    -------
    Explorer
        Control ``wrong``.

    Raises
    ------
    ValueError
        For an accuracy outside (0, 1), a rate outside [0, 1], or a grid that is empty, repeats
        a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Same Accuracy, Different Self-Knowledge".

    Examples
    --------
    >>> v = alpha_beta_explorer(wrong=[0.09]).view()
    >>> round(float(v.trace("this P(confident | wrong)", panel=1).y[0]), 3)
    0.814
    """
    from . import paper_numbers as pn
    from .feedback_channel import binary_channel, hit_rate_for_oskr

    wrong = _grid(wrong, "grid of P(confident | wrong)")
    acc = float(_prevalence_grid([accuracy], "accuracy")[0])
    fa_all = np.linspace(0.0, 1.0, 101)
    fixed = [Trace("largest OSKR (hit rate 1)", fa_all, binary_channel(acc, 1.0, fa_all).oskr,
                   panel=1, color=_BLUE)]
    if np.isclose(acc, pn.ROBERTS_ALPHA[0]):
        for (name, (a, target, fa)), colour in zip(
                {"Alpha": pn.ROBERTS_ALPHA, "Beta": pn.ROBERTS_BETA}.items(), (_GREEN, _PURPLE)):
            fixed.append(Trace(f"System {name}", [hit_rate_for_oskr(target, a, fa)], [target],
                               kind="points", color=colour))

    def draw(wrong):
        hit = np.linspace(wrong, 1.0, 41)
        ch = binary_channel(acc, hit, wrong)
        best = binary_channel(acc, 1.0, wrong)
        caption = (f"At {acc:.0%} accuracy and confidence on {wrong:.0%} of errors, OSKR is "
                   f"at most {best.oskr:.2f} (confident on every success); being confident on "
                   f"{hit[20]:.0%} of successes gives {ch.oskr[20]:.2f}.")
        return View((Trace("OSKR at this P(confident | wrong)", hit, ch.oskr, color=_BLUE),
                     Trace("this P(confident | wrong)", [wrong], [best.oskr], kind="points",
                           panel=1, color=_ORANGE)), caption)

    return Explorer(
        "alpha-beta", "Same accuracy, different self-knowledge (Roberts, Alpha and Beta)",
        (control("wrong", "P(confident | wrong)", wrong, default=_default(wrong, 0.09),
                 fmt="{:.0%}"),),
        (Panel("OSKR against P(confident | correct)", "P(confident | correct)", "OSKR",
               xrange=(-0.02, 1.04), yrange=(-0.02, 1.02)),
         Panel("The most a flag can know", "P(confident | wrong)", "largest OSKR",
               xrange=(-0.02, 1.04), yrange=(-0.02, 1.02))),
        draw, tuple(fixed))


def verifier_explorer(error=_steps(0.14, 0.5, 0.02)) -> Explorer:
    """Actor, passive judge, proactive verifier: the verifier gain each set-up's OSKR needs.

    On the lab's channel (balanced outcomes, feedback error ε) OSKR rises with the verifier gain g
    (:func:`metabits.feedback_channel.feedback_channel`). The essay's schematic OSKRs — actor
    0.14, actor + passive judge 0.41, actor + proactive verifier 0.79
    (:data:`metabits.paper_numbers.ROBERTS_SETUPS`) — are drawn as levels; each is placed on the
    curve at the gain g = 1 − ε_eff / ε that realises it
    (:func:`metabits.feedback_channel.effective_error_for_oskr`), when that gain is in [0, 1].

    Parameters
    ----------
    error : sequence of float, default 0.14, 0.16, …, 0.5
        The feedback-error slider's grid, in (0, 1].

    Returns
    -------
    Explorer
        Control ``error``.

    Raises
    ------
    ValueError
        For an error outside (0, 1] or a grid that is empty, repeats a value or is not
        increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Actor vs Verifier" (0.14, 0.41, 0.79) and the
    feedback lab.

    Examples
    --------
    >>> v = verifier_explorer(error=[0.22]).view()
    >>> v.trace("set-ups on the curve").x.round(2).tolist()
    [0.35, 0.85]
    """
    from . import paper_numbers as pn
    from .feedback_channel import effective_error_for_oskr, feedback_channel

    error = _grid(error, "feedback-error grid", low_open=True,
                  why_low="with no error there is nothing for a verifier to remove")
    names, levels = list(pn.ROBERTS_SETUPS), np.array(list(pn.ROBERTS_SETUPS.values()))
    eff = effective_error_for_oskr(levels, 0.5)
    g = np.linspace(0.0, 1.0, 51)
    colours = (_GREY, _ORANGE, "#000000")
    fixed = tuple(Trace(f"{n} ({v:.2f})", [0.0, 1.0], [v, v], color=c, dash="dash")
                  for n, v, c in zip(names, levels, colours))

    def draw(error):
        curve = feedback_channel(0.5, error, g).oskr
        need = 1.0 - eff / error
        ok = (need >= 0) & (need <= 1)
        parts = [f"{n}: g = {x:.2f}" if k else f"{n}: out of reach (needs ε_eff = {e:.3f} > ε)"
                 for n, x, k, e in zip(names, need, ok, eff)]
        caption = (f"Feedback error ε = {error:.2f}: with no verifier OSKR = {curve[0]:.2f}. "
                   "Gain needed — " + "; ".join(parts) + ".")
        return View((Trace("OSKR against g", g, curve, color=_BLUE),
                     Trace("set-ups on the curve", need[ok], levels[ok], kind="points",
                           color=_ORANGE)), caption)

    return Explorer(
        "actor-verifier", "Actor, passive judge, proactive verifier (Roberts)",
        (control("error", "feedback error ε", error, default=_default(error, 0.22),
                 fmt="{:.2f}"),),
        (Panel("OSKR as the verifier improves (balanced outcomes)", "verifier gain g", "OSKR",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02)),),
        draw, fixed)


# --- the deployment matrix and the task router --------------------------------------------------------

def deployment_explorer(agents=None, accuracy_threshold=_steps(0.6, 0.95, 0.05),
                        oskr_threshold=_steps(0.1, 0.9, 0.1)) -> Explorer:
    """The deployment matrix: move its two thresholds and watch agents change posture.

    The essay draws the quadrants (accuracy × self-knowledge) but gives no thresholds; the
    postures are :func:`metabits.cognitive_chain.deployment_posture` at the chosen thresholds.

    Parameters
    ----------
    agents : mapping of str to (float, float), optional
        Each agent's (accuracy, OSKR), both in [0, 1]; by default the essay's Systems Alpha and
        Beta (72% accuracy, OSKR 0.81 and 0.18).
    accuracy_threshold : sequence of float, default 0.6, 0.65, …, 0.95
        Grid of the accuracy where "high" begins, in [0, 1].
    oskr_threshold : sequence of float, default 0.1, 0.2, …, 0.9
        Grid of the OSKR where "high" begins, in [0, 1].

    Returns
    -------
    Explorer
        Controls ``accuracy_threshold`` and ``oskr_threshold``.

    Raises
    ------
    ValueError
        For no agents, an accuracy or OSKR outside [0, 1], a threshold outside [0, 1], or a grid
        that is empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "The Deployment Matrix".

    Examples
    --------
    >>> e = deployment_explorer({"Alpha": (0.72, 0.81), "Beta": (0.72, 0.18)},
    ...                         accuracy_threshold=[0.7, 0.8], oskr_threshold=[0.5])
    >>> e.view(accuracy_threshold=0.8).trace("scout / draft generator").x.tolist()
    [0.72]
    """
    from . import paper_numbers as pn
    from .cognitive_chain import POSTURES, deployment_posture

    if agents is None:
        agents = {"System Alpha": pn.ROBERTS_ALPHA[:2], "System Beta": pn.ROBERTS_BETA[:2]}
    if not agents:
        raise ValueError("give at least one agent as name: (accuracy, OSKR)")
    names = [str(n) for n in agents]
    values = np.array([tuple(v) for v in agents.values()], dtype=float)
    if values.ndim != 2 or values.shape[1] != 2:
        raise ValueError("each agent needs (accuracy, OSKR)")
    acc = as_probability(values[:, 0], "agent accuracy")
    k = as_probability(values[:, 1], "agent OSKR")
    a_grid = _grid(accuracy_threshold, "accuracy-threshold grid")
    k_grid = _grid(oskr_threshold, "OSKR-threshold grid")
    colours = dict(zip(POSTURES.values(), (_GREEN, _BLUE, _PURPLE, _ORANGE)))

    def draw(accuracy_threshold, oskr_threshold):
        posture = deployment_posture(acc, k, accuracy_threshold=accuracy_threshold,
                                     oskr_threshold=oskr_threshold)
        traces = [Trace("accuracy threshold", [accuracy_threshold] * 2, [0.0, 1.0],
                        color=_GREY, dash="dash"),
                  Trace("OSKR threshold", [0.0, 1.0], [oskr_threshold] * 2, color=_GREY,
                        dash="dot")]
        for name, colour in colours.items():   # one trace per posture, empty ones too
            here = posture == name
            traces.append(Trace(name, acc[here], k[here], kind="points", color=colour))
        caption = "; ".join(f"{n}: {p}" for n, p in zip(names, posture)) + (
            f" (high accuracy from {accuracy_threshold:.0%}, high OSKR from "
            f"{oskr_threshold:.1f}).")
        return View(tuple(traces), caption)

    return Explorer(
        "deployment-matrix", "The deployment matrix (Roberts), with thresholds you choose",
        (control("accuracy_threshold", "high accuracy from", a_grid,
                 default=_default(a_grid, 0.8), fmt="{:.0%}"),
         control("oskr_threshold", "high OSKR from", k_grid, default=_default(k_grid, 0.5),
                 fmt="{:.1f}")),
        (Panel("Accuracy × self-knowledge", "accuracy", "OSKR", xrange=(0.0, 1.04),
               yrange=(0.0, 1.0)),),
        draw)


def router_explorer(tasks=None, oskr_by_operation=None,
                    verify=_steps(0.0, 1.0, 0.05)) -> Explorer:
    """The task router: pick a task, upgrade the agent's verifier, see what is delegated.

    Each loaded operation goes to the agent when the agent's OSKR for it is at least the task's
    load on it (:func:`metabits.cognitive_chain.route_task`); the bars are the margins, OSKR −
    load. The slider replaces the agent's OSKR on Verify (a better or worse verifier).

    Parameters
    ----------
    tasks : mapping of str to array_like, optional
        Each task's load on the eight operations (:data:`metabits.cognitive_chain.OPERATIONS`),
        in [0, 1]. The essay lists no tasks; by default one task loads every operation at 0.3.
    oskr_by_operation : array_like, shape (8,), optional
        The agent's OSKR per operation, in [0, 1]; by default that of the book's cognitive-chain
        model of the essay's Agent A on Linux (:func:`metabits.cognitive_chain.simulate_chain`,
        20,000 tasks, seed 7; point estimates of :func:`metabits.cognitive_chain.per_operation_oskr`).
    verify : sequence of float, default 0, 0.05, …, 1
        Grid of the agent's OSKR on Verify, in [0, 1].

    Returns
    -------
    Explorer
        Controls ``task`` (a menu) and ``verify``.

    Raises
    ------
    ValueError
        For no tasks, loads or OSKRs outside [0, 1] or not one per operation, a task that loads
        no operation, or a grid that is empty, repeats a value or is not increasing.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Routing Work Along the Grain".

    Examples
    --------
    >>> e = router_explorer({"check": [0, 0, 0.3, 0, 0, 0.5, 0, 0.6]},
    ...                     [.5, .5, .6, .5, .5, .8, .6, .2], verify=[0.2, 0.7])
    >>> v = e.view(verify=0.7)
    >>> v.trace("OSKR − load").y, v.trace("OSKR − load").x.round(2).tolist()
    (('Extract', 'Compute', 'Verify'), [0.3, 0.3, 0.1])
    """
    from .cognitive_chain import (OPERATIONS, per_operation_oskr, roberts_profiles, route_task,
                                  simulate_chain)

    if tasks is None:
        tasks = {"every operation at load 0.3": np.full(len(OPERATIONS), 0.3)}
    if oskr_by_operation is None:
        trace = simulate_chain(roberts_profiles().scores[0], 20_000, rng=7)
        oskr_by_operation = per_operation_oskr(trace, n_boot=2, rng=8).oskr
    if not tasks:
        raise ValueError("give at least one task as name: loads")
    base = np.array(as_probability(oskr_by_operation, "oskr_by_operation"), dtype=float)
    if base.shape != (len(OPERATIONS),):
        raise ValueError(f"oskr_by_operation needs one value per operation ({len(OPERATIONS)}); "
                         f"got shape {base.shape}")
    loads = {str(n): np.asarray(w, dtype=float) for n, w in tasks.items()}
    for name, w in loads.items():
        route_task(w, base)   # checks each task now: shape, range, at least one operation
    grid_v = _grid(verify, "grid of the Verify OSKR")
    iv = OPERATIONS.index("Verify")

    def draw(task, verify):
        k = base.copy()
        k[iv] = verify
        r = route_task(loads[task], k)
        used = ~np.isnan(r.margin)
        ops = tuple(op for op, u in zip(OPERATIONS, used) if u)
        caption = (f"{task}, agent's Verify OSKR {verify:.2f}: {r.verdict}. To the agent: "
                   f"{', '.join(r.to_agent) or 'nothing'}; to a human: "
                   f"{', '.join(r.to_human) or 'nothing'}.")
        return View((Trace("OSKR − load", r.margin[used], ops, kind="hbars", color=_BLUE),
                     Trace("delegate from here", [0.0, 0.0], [ops[0], ops[-1]],
                           color=_GREY, dash="dot")), caption)

    names = tuple(loads)
    return Explorer(
        "task-router", "The task router (Roberts): route each operation by OSKR and load",
        (control("task", "task", names, default=names[0]),
         control("verify", "agent's Verify OSKR", grid_v,
                 default=min(grid_v, key=lambda v: abs(v - base[iv])), fmt="{:.2f}")),
        (Panel("Margin per loaded operation (right of 0: delegate)", "OSKR − load", "",
               xrange=(-1.05, 1.05)),),
        draw)
