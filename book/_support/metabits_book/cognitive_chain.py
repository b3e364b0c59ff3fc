"""The essay's Cognitive Chain: eight operations, per-operation OSKR and routing (Roberts, 2026).

Roberts (2026) decomposes a GUI task into eight operations — Orient, Find, Extract, Recall,
Decide, Compute, Create, Verify — prints an illustrative 1–5 profile of four agents
(:func:`roberts_profiles`), and proposes to measure OSKR per operation and to route work by it.
The essay gives no model that turns a profile score into outcomes and self-reports; the book's
model (:func:`simulate_chain`, labelled as ours wherever it is shown) maps a score linearly to a
step's success probability and to its self-report's false-alarm rate, simulates task traces, and
estimates each operation's OSKR from them (:func:`per_operation_oskr`), attributing a failed task
to its earliest failed operation as the essay's appendix says. The deployment matrix and the
task router are the essay's rules with thresholds it does not state, which the caller sets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_float_array, as_int, as_probability, as_rng, as_scalar, as_size
from metabits_book._arguments import as_pair
from metabits_book._data import read_csv
from metabits.oskr import oskr_from_table
from metabits.oskr import oskr_ci_from_table

__all__ = ["OPERATIONS", "POSTURES", "ChainTrace", "OperationOSKR", "ProfileTable", "Route",
           "deployment_posture", "per_operation_oskr", "roberts_profiles", "route_task",
           "simulate_chain"]

#: The eight operations of the cognitive chain, in the essay's order.
OPERATIONS = ("Orient", "Find", "Extract", "Recall", "Decide", "Compute", "Create", "Verify")

#: The deployment matrix's four postures: (high accuracy?, high self-knowledge?) -> posture.
POSTURES = {(True, True): "automate", (True, False): "automate with verification",
            (False, True): "scout / draft generator", (False, False): "do not delegate"}


@dataclass(frozen=True)
class ProfileTable(Result):
    """The essay's illustrative profile table: ``scores[agent, operation]`` on a 1–5 scale."""

    agents: tuple
    operations: tuple
    scores: np.ndarray


def roberts_profiles() -> ProfileTable:
    """Roberts (2026), section 04: the illustrative 1–5 profiles of four agents.

    Returns
    -------
    ProfileTable
        ``agents`` (4 names), ``operations`` (:data:`OPERATIONS`) and ``scores`` (4 × 8).

    Raises
    ------
    ValueError
        Never for the shipped file; a damaged copy raises when its scores do not parse.

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Cognitive Profiles of Frontier Agents" (labelled
    "Illustrative model" by the essay).

    Examples
    --------
    >>> p = roberts_profiles()
    >>> p.agents[0], float(p.scores[0, p.operations.index("Verify")])
    ('Agent A (Linux env)', 2.4)
    """
    header, rows = read_csv("roberts2026_profiles.csv")
    scores = as_float_array([[float(v) for v in row[1:]] for row in rows], "profile scores")
    return ProfileTable(agents=tuple(row[0] for row in rows), operations=tuple(header[1:]),
                        scores=scores)


@dataclass(frozen=True)
class ChainTrace(Result):
    """Simulated task traces of :func:`simulate_chain` (leading axes: agents, if several).

    Attributes
    ----------
    success : bool array (..., tasks, 8): did the operation succeed (where reached)?
    report : bool array (..., tasks, 8): did the agent report success?
    reached : bool array (..., tasks, 8): was the operation attempted (no earlier failure)?
    failed_at : int array (..., tasks): index of the first failed operation, −1 for a success.
    p_success, hit_rate, false_alarm : the model's per-operation rates (..., 8).
    """

    success: np.ndarray
    report: np.ndarray
    reached: np.ndarray
    failed_at: np.ndarray
    p_success: np.ndarray
    hit_rate: np.ndarray
    false_alarm: np.ndarray


def _score_fraction(scores):
    s = as_float_array(scores, "profile scores")
    if s.shape[-1:] != (len(OPERATIONS),):
        raise ValueError(f"profile scores need one value per operation ({len(OPERATIONS)}); "
                         f"got shape {s.shape}")
    if np.any((s < 1) | (s > 5)):
        raise ValueError("profile scores must lie on the essay's 1–5 scale")
    return (s - 1.0) / 4.0


def simulate_chain(scores, n_tasks: int, rng=None, *, success_range=(0.75, 0.99),
                   false_alarm_range=(0.9, 0.05), hit_rate: float = 0.95) -> ChainTrace:
    """Simulate task traces through the eight operations from a 1–5 profile (the book's model).

    A score s maps to q = (s − 1)/4 in [0, 1]; the operation succeeds with probability
    ``success_range[0] + q·(success_range[1] − success_range[0])``, and the agent reports
    success with probability ``hit_rate`` after a success and
    ``false_alarm_range[0] + q·(false_alarm_range[1] − false_alarm_range[0])`` after a failure
    (a low score: confident even when wrong). A task runs the operations in order and stops at the
    first failure, to which the failure is attributed.

    Parameters
    ----------
    scores : array_like, shape (..., 8)
        Profile scores on the essay's 1–5 scale, one per operation (rows: agents).
    n_tasks : int
        Tasks per agent.
    rng : numpy.random.Generator or int, optional
        Random generator or seed.
    success_range, false_alarm_range : pairs of floats in [0, 1]
        Rates at score 1 and at score 5.
    hit_rate : float
        P(report success | success), the same for every operation.

    Returns
    -------
    ChainTrace

    Raises
    ------
    ValueError
        For scores off the 1–5 scale or not one per operation, rates outside [0, 1], or a
        non-positive number of tasks.

    References
    ----------
    Roberts (2026), "Cognitive Chain Modelling" and the appendix's "Step-level attribution".

    Examples
    --------
    >>> tr = simulate_chain(roberts_profiles().scores[0], 1000, rng=0)
    >>> tr.success.shape, bool(tr.reached[:, 0].all())
    ((1000, 8), True)
    """
    q = _score_fraction(scores)
    n = as_size(n_tasks, "n_tasks")
    s0, s1 = as_pair(as_probability(success_range, "success_range"), "success_range")
    f0, f1 = as_pair(as_probability(false_alarm_range, "false_alarm_range"), "false_alarm_range")
    hit = float(as_probability(as_scalar(hit_rate, "hit_rate"), "hit_rate"))
    gen = as_rng(rng)
    p_s = s0 + q * (s1 - s0)
    fa = f0 + q * (f1 - f0)
    lead = q.shape[:-1]
    shape = lead + (n, len(OPERATIONS))
    success = gen.random(shape) < p_s[..., None, :]
    u = gen.random(shape)
    report = np.where(success, u < hit, u < fa[..., None, :])
    failed_before = np.cumsum(~success, axis=-1) - ~success  # failures strictly before each step
    reached = failed_before == 0
    first_fail = np.where((~success).any(axis=-1), np.argmax(~success, axis=-1), -1)
    return ChainTrace(success=success, report=report, reached=reached, failed_at=first_fail,
                      p_success=p_s, hit_rate=np.full(p_s.shape, hit), false_alarm=fa)


@dataclass(frozen=True)
class OperationOSKR(Result):
    """Per-operation OSKR of :func:`per_operation_oskr` (arrays over (..., 8) operations)."""

    oskr: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    accuracy: np.ndarray
    n_steps: np.ndarray


def per_operation_oskr(trace: ChainTrace, *, n_boot: int = 1000, rng=None) -> OperationOSKR:
    """Plug-in OSKR of each operation from the steps that reached it, with percentile intervals.

    Parameters
    ----------
    trace : ChainTrace
        From :func:`simulate_chain` (or real traces in the same layout).
    n_boot : int, default 1000
        Bootstrap resamples per operation.
    rng : numpy.random.Generator or int, optional
        Random generator or seed for the bootstrap.

    Returns
    -------
    OperationOSKR
        ``oskr``, its 95% percentile interval ``lower``/``upper``, the operation's accuracy
        among the steps that reached it and their number.

    Raises
    ------
    ValueError
        If an operation was never reached, or its outcome never varied (OSKR undefined).

    References
    ----------
    Roberts (2026), "Cognitive Chain Modelling"; appendix "Confidence intervals".

    Examples
    --------
    >>> r = per_operation_oskr(simulate_chain([3, 4, 4.5, 3.5, 4, 4.8, 4, 2], 4000, rng=1), rng=2)
    >>> bool(r.oskr[-1] < r.oskr[5])
    True
    """
    if not isinstance(trace, ChainTrace):
        raise ValueError("trace must be a ChainTrace (from simulate_chain)")
    n_boot = as_size(n_boot, "n_boot", least=2)
    as_rng(rng)
    s, r, m = trace.success, trace.report, trace.reached
    cells = [(s & r & m), (s & ~r & m), (~s & r & m), (~s & ~r & m)]
    counts = np.stack([c.sum(axis=-2) for c in cells], axis=-1).astype(float)  # (..., 8, 4)
    tables = counts.reshape(counts.shape[:-1] + (2, 2))
    n_steps = counts.sum(axis=-1)
    if np.any(n_steps == 0):
        raise ValueError("an operation was never reached: simulate more tasks")
    est = oskr_from_table(tables)
    lo, hi = oskr_ci_from_table(tables, n_boot=n_boot, rng=rng)
    return OperationOSKR(oskr=np.asarray(est.oskr), lower=np.asarray(lo), upper=np.asarray(hi),
                         accuracy=tables[..., 0, :].sum(axis=-1) / n_steps, n_steps=n_steps)


def deployment_posture(accuracy, oskr, *, accuracy_threshold: float, oskr_threshold: float):
    """The essay's deployment matrix: accuracy × self-knowledge → one of four postures.

    Parameters
    ----------
    accuracy, oskr : float or array_like
        Success rates and OSKR values in [0, 1] (broadcast together).
    accuracy_threshold, oskr_threshold : float
        Where "high" begins (inclusive). The essay draws the quadrants but states no thresholds,
        so the caller must choose them.

    Returns
    -------
    str or ndarray of str
        Values of :data:`POSTURES`.

    Raises
    ------
    ValueError
        For values or thresholds outside [0, 1].

    References
    ----------
    Roberts (2026), "The Deployment Matrix".

    Examples
    --------
    >>> deployment_posture(0.9, 0.2, accuracy_threshold=0.8, oskr_threshold=0.5)
    'automate with verification'
    """
    acc = as_probability(accuracy, "accuracy")
    k = as_probability(oskr, "oskr")
    a_t = float(as_probability(as_scalar(accuracy_threshold, "accuracy_threshold"),
                             "accuracy_threshold"))
    k_t = float(as_probability(as_scalar(oskr_threshold, "oskr_threshold"), "oskr_threshold"))
    high_a, high_k = np.broadcast_arrays(acc >= a_t, k >= k_t)
    out = np.empty(high_a.shape, dtype=object)
    for key, posture in POSTURES.items():
        out[(high_a == key[0]) & (high_k == key[1])] = posture
    return str(out[()]) if out.ndim == 0 else out.astype(str)


@dataclass(frozen=True)
class Route(Result):
    """Result of :func:`route_task`.

    Attributes
    ----------
    verdict : "agent", "human" or "hybrid".
    to_agent, to_human : the loaded operations routed to each (tuples of names).
    margin : OSKR minus load per operation (negative: keep the human), NaN where unloaded.
    """

    verdict: str
    to_agent: tuple
    to_human: tuple
    margin: np.ndarray


def route_task(load, oskr_by_operation) -> Route:
    """The essay's router: delegate an operation when the agent's OSKR for it exceeds its load.

    Parameters
    ----------
    load : array_like, shape (8,)
        The task's cognitive load on each operation, in [0, 1]; 0 = not used.
    oskr_by_operation : array_like, shape (8,)
        The agent's OSKR per operation.

    Returns
    -------
    Route
        ``"agent"`` if every loaded operation clears its load, ``"human"`` if none does,
        ``"hybrid"`` otherwise.

    Raises
    ------
    ValueError
        For arrays without one value per operation, values outside [0, 1], or a task that
        loads no operation.

    References
    ----------
    Roberts (2026), "Routing Work Along the Grain" ("If the agent's metacognitive reliability
    for that operation exceeds the task's cognitive load, delegate").

    Examples
    --------
    >>> route_task([0, 0, 0.3, 0, 0, 0.5, 0, 0.6], [.5, .5, .6, .5, .5, .8, .6, .2]).verdict
    'hybrid'
    """
    w = as_probability(load, "load")
    k = as_probability(oskr_by_operation, "oskr_by_operation")
    if w.shape != (len(OPERATIONS),) or k.shape != (len(OPERATIONS),):
        raise ValueError(f"load and oskr_by_operation need one value per operation "
                         f"({len(OPERATIONS)}); got shapes {w.shape} and {k.shape}")
    used = w > 0
    if not used.any():
        raise ValueError("the task loads no operation: nothing to route")
    margin = np.where(used, k - w, np.nan)
    ok = used & (k >= w)
    to_agent = tuple(op for op, o in zip(OPERATIONS, ok) if o)
    to_human = tuple(op for op, u, o in zip(OPERATIONS, used, ok) if u and not o)
    verdict = "agent" if not to_human else "human" if not to_agent else "hybrid"
    return Route(verdict=verdict, to_agent=to_agent, to_human=to_human, margin=margin)
