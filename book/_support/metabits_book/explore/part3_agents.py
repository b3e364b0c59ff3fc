"""The Part III explorers of agents (Roberts, 2026): Alpha and Beta, verifiers, routing.

* :func:`alpha_beta_explorer` — Systems Alpha and Beta (same accuracy, different OSKR);
* :func:`verifier_explorer` — actor, passive judge and proactive verifier on the lab's channel;
* :func:`deployment_explorer` and :func:`router_explorer` — the deployment matrix with thresholds
  the reader moves, and the task router with a verifier the reader upgrades (the essay gives no
  thresholds, tasks or loads: the caller supplies them).

The essay's printed settings come from :mod:`metabits_book.roberts2026`; the channels from
:mod:`metabits.oskr` and the operations, postures and routing from
:mod:`metabits_book.cognitive_chain`. The other Part III explorers are in
:mod:`metabits_book.explore.part3`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from metabits.oskr import (binary_channel, effective_error_for_oskr, feedback_channel,
                           hit_rate_for_oskr)
from metabits_book import cognitive_chain as cc, roberts2026
from metabits.validation import as_float_array, as_prior, as_probability
from metabits_book.palette import BLACK, BLUE, GREEN, GREY, PURPLE, VERMILLION
from metabits_book.explore.model import Explorer, Panel, Trace, View, control
from metabits_book.explore.part3 import _default, _grid, _steps

__all__ = ["alpha_beta_explorer", "deployment_explorer", "router_explorer", "verifier_explorer"]


# --- Alpha and Beta; actor, judge and verifier ---------------------------------------------------

def alpha_beta_explorer(wrong=_steps(0.0, 0.5, 0.01), accuracy: float = 0.72) -> Explorer:
    """Same accuracy, different self-knowledge: OSKR of a confidence flag as its error rate moves.

    T is "correct", S is "confident"; at the essay's accuracy (72%) the channel is
    :func:`metabits.oskr.binary_channel` with hit rate P(confident | correct) and
    false-alarm rate P(confident | wrong). Panel 1 draws OSKR against the hit rate at the chosen
    P(confident | wrong), with the essay's Systems Alpha (OSKR 0.81, confident on 9% of errors)
    and Beta (0.18, 24%) where :func:`metabits.oskr.hit_rate_for_oskr` places them;
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
    wrong = _grid(wrong, "grid of P(confident | wrong)")
    acc = as_prior(accuracy, "accuracy")
    fa_all = np.linspace(0.0, 1.0, 101)
    fixed = [Trace("largest OSKR (hit rate 1)", fa_all, binary_channel(acc, 1.0, fa_all).oskr,
                   panel=1, color=BLUE)]
    if np.isclose(acc, roberts2026.ALPHA[0]):
        for (name, (a, target, fa)), colour in zip(
                {"Alpha": roberts2026.ALPHA, "Beta": roberts2026.BETA}.items(), (GREEN, PURPLE)):
            fixed.append(Trace(f"System {name}", [hit_rate_for_oskr(target, a, fa)], [target],
                               kind="points", color=colour))

    def draw(wrong):
        hit = np.linspace(wrong, 1.0, 41)
        ch = binary_channel(acc, hit, wrong)
        best = binary_channel(acc, 1.0, wrong)
        caption = (f"At {acc:.0%} accuracy and confidence on {wrong:.0%} of errors, OSKR is "
                   f"at most {best.oskr:.2f} (confident on every success); being confident on "
                   f"{hit[20]:.0%} of successes gives {ch.oskr[20]:.2f}.")
        return View((Trace("OSKR at this P(confident | wrong)", hit, ch.oskr, color=BLUE),
                     Trace("this P(confident | wrong)", [wrong], [best.oskr], kind="points",
                           panel=1, color=VERMILLION)), caption)

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
    (:func:`metabits.oskr.feedback_channel`). The essay's schematic OSKRs — actor
    0.14, actor + passive judge 0.41, actor + proactive verifier 0.79
    (:data:`metabits_book.roberts2026.SETUPS`) — are drawn as levels; each is placed on the
    curve at the gain g = 1 − :math:`\\varepsilon_\\text{eff}` / ε that realises it
    (:func:`metabits.oskr.effective_error_for_oskr`), when that gain is in [0, 1].

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
    error = _grid(error, "feedback-error grid", low_open=True,
                  why_low="with no error there is nothing for a verifier to remove")
    names, levels = list(roberts2026.SETUPS), np.array(list(roberts2026.SETUPS.values()))
    eff = effective_error_for_oskr(levels, 0.5)
    g = np.linspace(0.0, 1.0, 51)
    colours = (GREY, VERMILLION, BLACK)
    fixed = tuple(Trace(f"{n} ({v:.2f})", [0.0, 1.0], [v, v], color=c, dash="dash")
                  for n, v, c in zip(names, levels, colours))

    def draw(error):
        curve = feedback_channel(0.5, error, g).oskr
        need = 1.0 - eff / error
        ok = (need >= 0) & (need <= 1)
        parts = [f"{n}: g = {x:.2f}" if k
                 else f"{n}: out of reach (needs an effective error ε(1 − g) of {e:.3f} > ε)"
                 for n, x, k, e in zip(names, need, ok, eff)]
        caption = (f"Feedback error ε = {error:.2f}: with no verifier OSKR = {curve[0]:.2f}. "
                   "Gain needed — " + "; ".join(parts) + ".")
        return View((Trace("OSKR against g", g, curve, color=BLUE),
                     Trace("set-ups on the curve", need[ok], levels[ok], kind="points",
                           color=VERMILLION)), caption)

    return Explorer(
        "actor-verifier", "Actor, passive judge, proactive verifier (Roberts)",
        (control("error", "feedback error ε", error, default=_default(error, 0.22),
                 fmt="{:.2f}"),),
        (Panel("OSKR as the verifier improves (balanced outcomes)", "verifier gain g", "OSKR",
               xrange=(-0.02, 1.02), yrange=(-0.02, 1.02)),),
        draw, fixed)


# --- the deployment matrix and the task router ---------------------------------------------------

def deployment_explorer(agents=None, accuracy_threshold=_steps(0.6, 0.95, 0.05),
                        oskr_threshold=_steps(0.1, 0.9, 0.1)) -> Explorer:
    """The deployment matrix: move its two thresholds and watch agents change posture.

    The essay draws the quadrants (accuracy × self-knowledge) but gives no thresholds; the
    postures are :func:`metabits_book.cognitive_chain.deployment_posture` at the chosen thresholds.
    Each agent's point is labelled with its name and coloured by its posture; the labels are
    placed so that they do not overlap at any width of the website's panel. The accuracy axis
    starts at chance (50%), or lower for an agent or a threshold below it.

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
        For ``agents`` that is not a mapping of at least one agent to a pair (accuracy, OSKR),
        an accuracy or OSKR outside [0, 1], a threshold outside [0, 1], or a grid that is empty,
        repeats a value or is not increasing.

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
    if agents is None:
        agents = {"System Alpha": roberts2026.ALPHA[:2], "System Beta": roberts2026.BETA[:2]}
    if not isinstance(agents, Mapping) or not agents:
        raise ValueError("agents must be a mapping with at least one agent, name: (accuracy, "
                         f"OSKR); got {agents!r}")
    names = [str(n) for n in agents]
    values = []
    for n, v in agents.items():
        pair = as_float_array(v, f"agents[{n!r}]")
        if pair.shape != (2,):
            raise ValueError(f"agents[{n!r}] must be (accuracy, OSKR); got {v!r}")
        values.append(pair)
    values = np.array(values)
    acc = as_probability(values[:, 0], "agents' accuracy")
    k = as_probability(values[:, 1], "agents' OSKR")
    a_grid = _grid(accuracy_threshold, "accuracy_threshold grid")
    k_grid = _grid(oskr_threshold, "oskr_threshold grid")
    colours = dict(zip(cc.POSTURES.values(), (GREEN, BLUE, PURPLE, VERMILLION)))
    # accuracy from chance (50%), as in the book's figure, unless an agent or a threshold is
    # lower: the agents' labels need the width (at 400 px they overlap on an axis from 0)
    x_low = float(min(0.5, max(0.0, np.floor(min(np.min(acc), min(a_grid)) * 20) / 20 - 0.05)))

    def draw(accuracy_threshold, oskr_threshold):
        posture = cc.deployment_posture(acc, k, accuracy_threshold=accuracy_threshold,
                                     oskr_threshold=oskr_threshold)
        traces = [Trace("accuracy threshold", [accuracy_threshold] * 2, [0.0, 1.0],
                        color=GREY, dash="dash"),
                  Trace("OSKR threshold", [0.0, 1.0], [oskr_threshold] * 2, color=GREY,
                        dash="dot")]
        for name, colour in colours.items():   # one trace per posture, empty ones too
            here = posture == name
            traces.append(Trace(name, acc[here], k[here], kind="points", color=colour,
                                text=[n for n, h in zip(names, here) if h]))
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
        (Panel("Accuracy × self-knowledge", "accuracy", "OSKR", xrange=(x_low, 1.04),
               yrange=(0.0, 1.0)),),
        draw)


def router_explorer(tasks=None, oskr_by_operation=None,
                    verify=_steps(0.0, 1.0, 0.05)) -> Explorer:
    """The task router: pick a task, upgrade the agent's verifier, see what is delegated.

    Each loaded operation goes to the agent when the agent's OSKR for it is at least the task's
    load on it (:func:`metabits_book.cognitive_chain.route_task`); the bars are the margins, OSKR −
    load. The slider replaces the agent's OSKR on Verify (a better or worse verifier).

    Parameters
    ----------
    tasks : mapping of str to array_like, optional
        Each task's load on the eight operations
        (:data:`metabits_book.cognitive_chain.OPERATIONS`), in [0, 1]. The essay lists no tasks;
        by default one task loads every operation at 0.3.
    oskr_by_operation : array_like, shape (8,), optional
        The agent's OSKR per operation, in [0, 1]; by default that of the book's cognitive-chain
        model of the essay's Agent A on Linux
        (:func:`metabits_book.cognitive_chain.simulate_chain`, 20,000 tasks, seed 7; point
        estimates of :func:`metabits_book.cognitive_chain.per_operation_oskr`).
    verify : sequence of float, default 0, 0.05, …, 1
        Grid of the agent's OSKR on Verify, in [0, 1].

    Returns
    -------
    Explorer
        Controls ``task`` (a menu) and ``verify``.

    Raises
    ------
    ValueError
        For ``tasks`` that is not a mapping of at least one task to its loads, loads or OSKRs
        outside [0, 1] or not one per operation, a task that loads no operation, or a grid that
        is empty, repeats a value or is not increasing.

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
    if tasks is None:
        tasks = {"every operation at load 0.3": np.full(len(cc.OPERATIONS), 0.3)}
    if not isinstance(tasks, Mapping) or not tasks:
        raise ValueError("tasks must be a mapping with at least one task, name: loads; got "
                         f"{tasks!r}")
    if oskr_by_operation is None:
        trace = cc.simulate_chain(cc.roberts_profiles().scores[0], 20_000, rng=7)
        oskr_by_operation = cc.per_operation_oskr(trace, n_boot=2, rng=8).oskr
    base = np.array(as_probability(oskr_by_operation, "oskr_by_operation"), dtype=float)
    if base.shape != (len(cc.OPERATIONS),):
        raise ValueError(f"oskr_by_operation needs one value per operation ({len(cc.OPERATIONS)}); "
                         f"got shape {base.shape}")
    loads = {str(n): as_float_array(w, f"tasks[{n!r}] (loads)") for n, w in tasks.items()}
    for name, w in loads.items():
        try:   # checks each task now: shape, range, at least one operation
            cc.route_task(w, base)
        except ValueError as exc:
            raise ValueError(f"tasks[{name!r}]: {exc}") from None
    grid_v = _grid(verify, "grid of the Verify OSKR")
    iv = cc.OPERATIONS.index("Verify")

    def draw(task, verify):
        k = base.copy()
        k[iv] = verify
        r = cc.route_task(loads[task], k)
        used = ~np.isnan(r.margin)
        ops = tuple(op for op, u in zip(cc.OPERATIONS, used) if u)
        caption = (f"{task}, agent's Verify OSKR {verify:.2f}: {r.verdict}. To the agent: "
                   f"{', '.join(r.to_agent) or 'nothing'}; to a human: "
                   f"{', '.join(r.to_human) or 'nothing'}.")
        return View((Trace("OSKR − load", r.margin[used], ops, kind="hbars", color=BLUE),
                     Trace("delegate from here", [0.0, 0.0], [ops[0], ops[-1]],
                           color=GREY, dash="dot")), caption)

    names = tuple(loads)
    return Explorer(
        "task-router", "The task router (Roberts): route each operation by OSKR and load",
        (control("task", "task", names, default=names[0]),
         control("verify", "agent's Verify OSKR", grid_v,
                 default=min(grid_v, key=lambda v: abs(v - base[iv])), fmt="{:.2f}")),
        (Panel("Margin per loaded operation (right of 0: delegate)", "OSKR − load", "",
               xrange=(-1.05, 1.05)),),
        draw)
