"""Monte Carlo simulations of groups (Meyen et al., 2025, Figure 8 and section "Specialists
Outperform Generalists Even Without Coordination")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logit

from metabits._formulas import dprime
from metabits.results import Result
from metabits.validation import as_flag, as_size
from metabits.validation import as_accuracy, as_int, as_noise_kind, as_prior, as_rng
from metabits.validation._tables import as_member_tables
from metabits.group._llr import INF_KEY, MAX_MEMBERS, RES, llr_keys
from metabits.info import sample_observations
from metabits.group._noise_groups import noise_group

__all__ = ["SimulatedAccuracy", "StudentsResult", "simulate_pcwmv", "simulate_students"]


@dataclass(frozen=True)
class SimulatedAccuracy(Result):
    """A Monte Carlo group accuracy (:func:`simulate_pcwmv`).

    Attributes
    ----------
    acc : float
        Fraction of correct group decisions.
    se : float
        Its binomial standard error.
    """

    acc: float
    se: float


@dataclass(frozen=True)
class StudentsResult(Result):
    """The simulated exam of :func:`simulate_students`.

    Attributes
    ----------
    acc : float
        Fraction of correct group answers.
    se : float
        Its standard error from the spread of the independent groups' means.
    exact : float
        The exact value (:func:`~metabits.group.noise_group`, or ``1/2 + min(1, K·q)/2`` for
        coordinated specialists knowing a fraction q each).
    individual_acc : float
        The students' actual accuracy (topics come in whole units).
    """

    acc: float
    se: float
    exact: float
    individual_acc: float


def simulate_pcwmv(members, n: int, rng=None, prior=0.5) -> SimulatedAccuracy:
    """Monte Carlo accuracy of an optimally combined group: ``n`` independent trials.

    Each trial draws Y (P(Y=+1) = ``prior``), each member's response from its table given Y, and
    the group prediction from the summed log-likelihood-ratio keys against the prior's (fair coin
    on exact ties), exactly as :func:`~metabits.group` scores it.

    Parameters
    ----------
    members : sequence of array_like, each shape (2, R)
        The members' response tables.
    n : int
        Number of trials, ≥ 1.
    rng : numpy.random.Generator or int, optional
        Random generator (or seed).
    prior : float, default 0.5
        :math:`P(Y = +1)`, strictly between 0 and 1.

    Returns
    -------
    SimulatedAccuracy
        ``acc`` and its standard error ``se``.

    Raises
    ------
    ValueError
        For invalid tables, a prior outside (0, 1), ``n`` not a positive integer or a bad ``rng``.

    References
    ----------
    Meyen et al. (2025), Assumptions 13–14.

    Examples
    --------
    >>> from metabits.group import noise_member
    >>> r = simulate_pcwmv([noise_member("binary", 0.7)] * 3, 100_000, rng=1)
    >>> abs(r.acc - 0.784) < 4 * r.se
    True
    """
    tables = as_member_tables(members, MAX_MEMBERS)
    p = as_prior(prior)
    n = as_size(n, "n")
    rng = as_rng(rng)
    y_pos = rng.random(n) < p
    total = np.zeros(n, dtype=np.int64)
    for t in tables:
        keys = llr_keys(t[0], t[1], RES)
        u = rng.random(n)
        r = np.where(y_pos, np.searchsorted(np.cumsum(t[1]), u, side="right"),
                     np.searchsorted(np.cumsum(t[0]), u, side="right"))
        total += keys[np.minimum(r, t.shape[1] - 1)]
    threshold = np.int64(np.rint(np.log((1.0 - p) / p) / RES))
    says_pos = np.where(total == threshold, rng.random(n) < 0.5, total > threshold)
    acc = float(np.mean(says_pos == y_pos))
    return SimulatedAccuracy(acc=acc, se=float(np.sqrt(acc * (1.0 - acc) / n)))


def simulate_students(kind: str, acc: float, K: int, n_groups: int = 1000, n_questions: int = 200,
                      rng=None, n_topics: int = 1000, coordinated: bool = False) -> StudentsResult:
    """Simulate the exam of section "Specialists Outperform Generalists Even Without Coordination".

    ``n_groups · K`` students prepare for yes/no questions (equally likely answers) on
    ``n_topics`` topics and are then randomly assigned to groups of K that combine their
    calibrated confidences optimally. Every student has individual accuracy ``acc``:

    * ``"uniform"`` — *specialists*: each learns a random set of ``round((2 acc − 1) n_topics)``
      topics exhaustively (answers there correctly with confidence 1) and guesses with confidence
      0.5 elsewhere: uniform-noise members. With ``coordinated=True`` the K members of a group split
      the topics between them instead (violating Assumption 13).
    * ``"binary"`` — generalists always answering with confidence ``acc``.
    * ``"normal"`` — generalists with normal noise (confidence ``σ(d′|X|)``).

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The students' noise case.
    acc : float
        Individual accuracy in [0.5, 1] (below 1 for normal noise).
    K : int
        Group size ≥ 1.
    n_groups : int, default 1000
        Number of groups (≥ 2, for the standard error).
    n_questions : int, default 200
        Questions in the exam.
    rng : numpy.random.Generator or int, optional
        Random generator (or seed).
    n_topics : int, default 1000
        Topics the questions are drawn from.
    coordinated : bool, default False
        Specialists split the topics within a group.

    Returns
    -------
    StudentsResult
        ``acc``, ``se``, ``exact`` and ``individual_acc``.

    Raises
    ------
    ValueError
        For an unknown kind, an accuracy out of range or sizes that are not positive integers.

    References
    ----------
    Meyen et al. (2025), section "Specialists Outperform Generalists Even Without Coordination".

    Examples
    --------
    >>> r = simulate_students("uniform", 0.7, 3, n_groups=200, rng=1)
    >>> round(r.exact, 3)
    0.892
    """
    kind = as_noise_kind(kind)
    a = as_accuracy(acc, scalar=True, high_open=kind == "normal",
                    why_high="normal-noise students with acc = 1 have infinite d'"
                        if kind == "normal" else "")
    K, n_groups, n_questions, n_topics = (as_size(v, name, least) for v, name, least in [
        (K, "group size K", 1), (n_groups, "n_groups (the standard error needs two groups)", 2),
        (n_questions, "n_questions", 1), (n_topics, "n_topics", 1)])
    coordinated = as_flag(coordinated, "coordinated")
    rng = as_rng(rng)
    y = rng.choice(np.array([-1, 1]), n_questions)
    shape = (n_groups, K, n_questions)
    exact = None
    if kind == "uniform":
        m = int(round((2.0 * a - 1.0) * n_topics))
        a = 0.5 + m / (2.0 * n_topics)
        if coordinated:  # member j of a group learns the j-th block of its group's topic order
            order = rng.permuted(np.tile(np.arange(n_topics), (n_groups, 1)), axis=1)
            learned = order[:, (np.arange(K)[:, None] * m + np.arange(m)) % n_topics]
            exact = 0.5 + min(1.0, K * m / n_topics) / 2.0
        else:  # each student learns m random topics; then random assignment to groups
            order = rng.permuted(np.tile(np.arange(n_topics), (n_groups * K, 1)), axis=1)[:, :m]
            learned = order[rng.permutation(n_groups * K)].reshape(n_groups, K, m)
        known = np.zeros((n_groups, K, n_topics), dtype=bool)
        np.put_along_axis(known, learned, True, axis=2)
        knows = known[:, :, rng.integers(n_topics, size=n_questions)]
        keys = np.where(knows, y * INF_KEY, 0)
    else:  # generalists: the members' observations of the noise case
        x = sample_observations(kind, a, np.broadcast_to(y, shape), rng)
        if kind == "binary":  # x = ±1: the vote, with log-odds logit(acc)
            key = INF_KEY if a == 1.0 else np.int64(np.rint(logit(a) / RES))
            keys = x.astype(np.int64) * key
        else:
            keys = np.rint(dprime(a) * x / RES).astype(np.int64)
    total = keys.sum(axis=1)
    answer = np.where(total == 0, rng.choice(np.array([-1, 1]), total.shape), np.sign(total))
    per_group = (answer == y).mean(axis=1)
    return StudentsResult(
        acc=float(per_group.mean()), se=float(per_group.std(ddof=1) / np.sqrt(n_groups)),
        exact=float(noise_group(kind, a, K)["acc"]) if exact is None else exact,
        individual_acc=a)
