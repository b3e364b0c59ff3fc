"""Monte Carlo studies whose precision the book states: ratios, biases and interval coverage.

The book's rule: a factor read off a simulation comes with its Monte Carlo standard error and an
interval, and a comparison of two simulated quantities uses enough repetitions to separate them.
This module holds the studies that need many repetitions, written so that they stay cheap:

* :func:`fieller_interval` — the confidence interval of a ratio of two independent Monte Carlo
  means (Fieller's theorem), which stays honest where the delta method of
  :func:`metabits_book.studies.mc.mc_ratio` is only a first-order approximation;
* :func:`rmi_bias` — the bias of the plug-in RMI of Meyen et al.'s simulation study for one
  noise classifier, over tens of thousands of data sets (the RMI alone, without the costly
  meta-I₁ʳ normaliser of :func:`metabits.type2_measures`);
* :func:`oskr_coverage` and :func:`oskr_coverage_table` — how often bootstrap intervals of
  OSKR (:func:`metabits.oskr_ci_from_table`) cover the truth. The book's table, with at least
  2,000 data sets per cell, is computed by :func:`oskr_coverage_study` and shipped as
  ``data/oskr_coverage.csv`` (too long a computation for a page build); every cell has its own
  seed, so a test recomputes cells exactly.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from scipy.special import ndtri
from metabits.results import Bounds
from metabits.validation import (as_accuracy, as_choice, as_int, as_noise_kind, as_positive,
                                 as_probability, as_rng, as_scalar, as_size)
from metabits_book._arguments import as_instance
from metabits_book.studies.simulation import (MCEstimate, mc_mean, response_probabilities,
                                              theoretical_measures)

__all__ = ["COVERAGE_AGENTS", "COVERAGE_N", "coverage_difference", "fieller_interval",
           "oskr_coverage", "oskr_coverage_study", "oskr_coverage_table", "rmi_bias"]


def fieller_interval(numerator: MCEstimate, denominator: MCEstimate,
                     level: float = 0.95) -> Bounds:
    """Fieller's confidence interval for the ratio of two independent Monte Carlo means.

    The ratio :math:`r = a/b` is in the interval when :math:`(a - r b)^2 \\le z^2(s_a^2 + r^2
    s_b^2)`, with :math:`z` the normal quantile of ``level``; the interval is bounded when the
    denominator is resolved, :math:`|b| > z s_b`. Unlike the delta method it is not symmetric:
    a noisy denominator stretches it upwards.

    Parameters
    ----------
    numerator, denominator : MCEstimate
        Independent estimates (e.g. :func:`metabits_book.studies.mc.mc_mean` of separate
        runs).
    level : float, default 0.95
        Coverage level, in (0, 1).

    Returns
    -------
    Bounds
        ``(lower, upper)``, floats or arrays.

    Raises
    ------
    ValueError
        If an argument is not an :class:`~metabits_book.studies.mc.MCEstimate` with a finite
        value and a finite standard error >= 0, ``level`` is not in (0, 1), or the denominator
        is within ``z`` standard errors of 0 (the interval would be
        unbounded).

    References
    ----------
    Fieller, E. C. (1954). Some problems in interval estimation. *JRSS B* 16, 175–185.

    Examples
    --------
    >>> lo, hi = fieller_interval(MCEstimate(0.02, 0.001, 200), MCEstimate(0.004, 0.0005, 200))
    >>> round(lo, 2), round(hi, 2)
    (3.91, 6.71)
    """
    a, sa = _estimate(numerator, "numerator")
    b, sb = _estimate(denominator, "denominator")
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    z = float(ndtri(0.5 + level / 2))
    q = b ** 2 - z ** 2 * sb ** 2
    if np.any(q <= 0):
        raise ValueError(f"the denominator is within {z:.2f} Monte Carlo standard errors of 0: "
                         "Fieller's interval is unbounded")
    disc = np.sqrt(np.maximum((a * b) ** 2 - q * (a ** 2 - z ** 2 * sa ** 2), 0.0))
    lo, hi = (a * b - disc) / q, (a * b + disc) / q
    if np.ndim(lo) == 0:
        return Bounds(float(lo), float(hi))
    return Bounds(lo, hi)


def _estimate(est, name: str):
    """An MCEstimate's value and standard error as float arrays: finite, the error >= 0."""
    as_instance(est, MCEstimate, name, "from mc_mean or mc_sd")
    value = np.asarray(est.value, float) if np.ndim(est.value) else as_scalar(est.value, name)
    se = np.asarray(est.se, float) if np.ndim(est.se) else as_scalar(est.se, name)
    if not (np.all(np.isfinite(value)) and np.all(np.isfinite(se))):
        raise ValueError(f"{name} must have a finite value and standard error; got {est!r}")
    if np.any(np.asarray(se) < 0):
        raise ValueError(f"{name} has a negative standard error: {est!r}")
    return np.asarray(value, float), np.asarray(se, float)


def _rmi_plugin(counts: np.ndarray) -> np.ndarray:
    """The plug-in RMI of a stack of tables (NaN where undefined), without meta-I₁ʳ."""
    from metabits.info import type2_measures

    return np.asarray(type2_measures(counts, undefined="nan").RMI, dtype=float)


def rmi_bias(kind: str, acc: float, n_per_label: int, n_sets: int, rng=None,
             chunk: int = 20_000) -> MCEstimate:
    """Mean plug-in RMI minus its infinite-sample value (the line), over simulated data sets.

    The data sets are those of :func:`metabits_book.studies.simulation.simulate_counts` (the
    paper's binning); the RMI of each is the plug-in RMI of :func:`metabits.type2_measures`
    (tested equal), and the line is
    :func:`metabits_book.studies.simulation.theoretical_measures`. Only the RMI is computed, in
    chunks, so that a study of 100,000 data sets stays cheap.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
    acc : float
        Accuracy in [0.5, 1).
    n_per_label : int
        Trials per true label in each data set.
    n_sets : int
        Number of data sets (at least 2).
    rng : numpy.random.Generator or int, optional
    chunk : int, default 20000
        Data sets simulated at once (caps the memory).

    Returns
    -------
    MCEstimate
        The bias, its Monte Carlo standard error and the number of data sets with a defined RMI.

    Raises
    ------
    ValueError
        For an unknown ``kind``, an accuracy outside [0.5, 1) or sizes that are not positive
        integers (``chunk`` at most 10**6).

    References
    ----------
    Meyen et al. (2025), Figures 6–7 and the supplement's study "with more observations".

    Examples
    --------
    >>> b = rmi_bias("binary", 0.7, 200, 4000, rng=1)
    >>> round(b.value, 3), bool(b.se < 0.001)
    (0.014, True)
    """
    kind = as_noise_kind(kind)
    acc = as_accuracy(acc, "acc", high_open=True, scalar=True)
    n_sets = as_size(n_sets, "n_sets", least=2)
    n_per_label = as_size(n_per_label, "n_per_label")
    chunk = as_size(chunk, "chunk", most=10 ** 6)
    p = response_probabilities(kind, acc)
    line = float(theoretical_measures(kind, acc, sdt=False).RMI)
    gen = as_rng(rng)
    values = []
    for start in range(0, n_sets, chunk):
        size = min(chunk, n_sets - start)
        counts = gen.multinomial(n_per_label, np.broadcast_to(p, (size, 2, 4)))
        values.append(_rmi_plugin(counts) - line)
    return mc_mean(np.concatenate(values))


# --- coverage of bootstrap intervals of OSKR -----------------------------------------------------

#: The agents of the OSKR chapter's coverage study: name -> (success rate, report error ε),
#: symmetric self-reports built with :func:`metabits.oskr` (gain 0).
COVERAGE_AGENTS = {"agent B": (0.7, 0.15), "weak flag": (0.7, 0.4)}
#: Trials per data set in the coverage study.
COVERAGE_N = (30, 100, 400, 2000)
#: Interval methods compared.
COVERAGE_METHODS = ("percentile", "bca")
_CHUNK = 1000  # data sets bootstrapped at once (fixed: the results depend on it)


def _agent_joint(agent: str) -> np.ndarray:
    from metabits.oskr import feedback_channel

    if not isinstance(agent, str) or agent not in COVERAGE_AGENTS:
        raise ValueError(f"agent must be one of {sorted(COVERAGE_AGENTS)}; got {agent!r}")
    prev, eps = COVERAGE_AGENTS[agent]
    return np.asarray(feedback_channel(prev, eps, 0.0).confusion)


def _cell_seed(agent: str, n: int, seed: int) -> int:
    """A seed of its own for every (agent, N) cell, so that any cell can be recomputed alone."""
    return seed * 100_000 + list(COVERAGE_AGENTS).index(agent) * 10_000 + int(n)


def oskr_coverage(agent: str, n: int, n_sets: int, n_boot: int = 500, level: float = 0.95,
                  seed: int = 2026) -> dict:
    """How often 95% bootstrap intervals of OSKR contain the truth, for one agent and size.

    ``n_sets`` data sets of ``n`` trials are drawn from the agent's joint table (data sets in
    which an outcome never occurs, where OSKR is undefined, are left out and not counted); for
    each, :func:`metabits.oskr_ci_from_table` computes the percentile and the BCa interval from
    the same ``n_boot`` resamples' generator state.

    Parameters
    ----------
    agent : str
        A key of :data:`COVERAGE_AGENTS`.
    n : int
        Trials per data set.
    n_sets : int
        Data sets simulated (before leaving out those with a constant outcome).
    n_boot : int, default 500
        Bootstrap resamples per interval.
    level : float, default 0.95
    seed : int, default 2026
        Combined with the agent and ``n`` into the cell's own seed.

    Returns
    -------
    dict
        ``{"percentile": (covered, used), "bca": (covered, used), "both": covered_by_both}``:
        data sets whose interval contains the true OSKR, data sets used, and data sets whose
        two intervals both contain it (for the paired comparison of :func:`coverage_difference`).

    Raises
    ------
    ValueError
        For an unknown agent, sizes that are not positive integers (or beyond 10**6 data sets
        or resamples), a level outside (0, 1) or a seed that is not an integer >= 0.

    Examples
    --------
    >>> r = oskr_coverage("agent B", 400, n_sets=200, n_boot=200)
    >>> r["percentile"][1], 0.85 < r["percentile"][0] / 200 <= 1
    (200, True)
    """
    from metabits.oskr import oskr_ci_from_table, oskr_from_table

    joint = _agent_joint(agent)
    n = as_size(n, "n")
    n_sets = as_size(n_sets, "n_sets", most=10 ** 6)
    n_boot = as_size(n_boot, "n_boot", most=10 ** 6)
    level = float(as_probability(as_scalar(level, "level"), "level", low_open=True,
                                 high_open=True))
    seed = as_int(seed, "seed", least=0)
    true = float(oskr_from_table(joint).oskr)
    gen = np.random.default_rng(_cell_seed(agent, n, seed))
    tables = gen.multinomial(n, joint.ravel(), size=n_sets).reshape(-1, 2, 2)
    tables = tables[tables.sum(axis=2).min(axis=1) > 0]  # both outcomes observed
    hits = {}
    for method in COVERAGE_METHODS:
        boot = np.random.default_rng(gen.integers(2 ** 63))
        parts = []
        for start in range(0, len(tables), _CHUNK):  # chunks cap the memory
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # resamples with one outcome are left out
                lo, hi = oskr_ci_from_table(tables[start:start + _CHUNK], method=method,
                                            n_boot=n_boot, level=level, rng=boot)
            parts.append((lo <= true) & (true <= hi))
        hits[method] = np.concatenate(parts)
    out = {m: (int(h.sum()), int(h.size)) for m, h in hits.items()}
    out["both"] = int(np.sum(hits["percentile"] & hits["bca"]))
    return out


def oskr_coverage_study(n_sets: int = 10_000, n_boot: int = 500, seed: int = 2026,
                        target_se: float | None = None):
    """The whole coverage study: every agent, size and method (the shipped table's rule).

    Parameters
    ----------
    n_sets : int, default 10000
        Data sets per cell: 10,000 keep the Monte Carlo standard error of every coverage at
        most :math:`\\sqrt{0.25/10000}` = 0.005 whatever the coverage.
    n_boot : int, default 500
    seed : int, default 2026
    target_se : float, optional
        If given (> 0), raise ``ValueError`` when a cell's standard error exceeds it.

    Returns
    -------
    pandas.DataFrame
        Columns ``agent``, ``N``, ``method``, ``covered``, ``covered_by_both``, ``data_sets``,
        ``coverage``, ``mc_se``, ``n_boot``, ``seed`` — the layout of ``data/oskr_coverage.csv``.

    Raises
    ------
    ValueError
        For sizes that are not positive integers (or beyond 10**6), a seed that is not an
        integer >= 0, a ``target_se`` that is not a number > 0, or a cell above ``target_se``.
    """
    import pandas as pd

    n_sets = as_size(n_sets, "n_sets", most=10 ** 6)
    n_boot = as_size(n_boot, "n_boot", most=10 ** 6)
    seed = as_int(seed, "seed", least=0)
    if target_se is not None:
        target_se = float(as_positive(as_scalar(target_se, "target_se"), "target_se"))
    rows = []
    for agent in COVERAGE_AGENTS:
        for n in COVERAGE_N:
            res = oskr_coverage(agent, n, n_sets, n_boot=n_boot, seed=seed)
            for method in COVERAGE_METHODS:
                covered, used = res[method]
                rows.append({"agent": agent, "N": n, "method": method, "covered": covered,
                             "covered_by_both": res["both"], "data_sets": used,
                             "n_boot": n_boot, "seed": seed})
    table = _with_rates(pd.DataFrame(rows))
    if target_se is not None and (table.mc_se > target_se).any():
        raise ValueError(f"a cell's Monte Carlo SE exceeds {target_se}: simulate more data sets")
    return table


def _with_rates(table):
    p = table.covered / table.data_sets
    table = table.assign(coverage=p, mc_se=np.sqrt(p * (1 - p) / table.data_sets))
    return table[["agent", "N", "method", "covered", "covered_by_both", "data_sets", "coverage",
                  "mc_se", "n_boot", "seed"]]


def coverage_difference(table, agent: str, n: int) -> MCEstimate:
    """BCa minus percentile coverage of one cell, with its paired Monte Carlo standard error.

    Both intervals are computed on the same data sets, so the difference's standard error comes
    from the discordant data sets (covered by one interval only), as in McNemar's test:
    :math:`\\sqrt{(b + c - (b - c)^2/n)}/n` with :math:`b`, :math:`c` the two discordant counts.

    Parameters
    ----------
    table : pandas.DataFrame
        A coverage table (:func:`oskr_coverage_table` or :func:`oskr_coverage_study`).
    agent : str
    n : int
        Trials per data set.

    Returns
    -------
    MCEstimate

    Raises
    ------
    ValueError
        If ``table`` is not a coverage table, or has no cell for ``agent`` and ``n``.

    Examples
    --------
    >>> d = coverage_difference(oskr_coverage_table(), "weak flag", 100)
    >>> bool(d.value < -5 * d.se)     # BCa covers less than the percentile interval
    True
    """
    import pandas as pd

    need = {"agent", "N", "method", "covered", "covered_by_both", "data_sets"}
    if not isinstance(table, pd.DataFrame) or not need <= set(table.columns) or table.empty:
        raise ValueError("table must be a non-empty coverage table (oskr_coverage_table or "
                         f"oskr_coverage_study) with columns {sorted(need)}")
    agent = as_choice(agent, sorted(set(table.agent)), "agent")
    n = as_int(n, "n")
    cell = table[(table.agent == agent) & (table.N == n)].set_index("method")
    if set(cell.index) != set(COVERAGE_METHODS):
        raise ValueError(f"the table has no cell for agent {agent!r} and N = {n}")
    used = int(cell.data_sets.iloc[0])
    both = int(cell.covered_by_both.iloc[0])
    b = int(cell.covered["bca"]) - both          # BCa only
    c = int(cell.covered["percentile"]) - both   # percentile only
    se = math.sqrt(max(b + c - (b - c) ** 2 / used, 0.0)) / used
    return MCEstimate(value=(b - c) / used, se=se, n=used)


def oskr_coverage_table():
    """The shipped result of :func:`oskr_coverage_study` (``data/oskr_coverage.csv``).

    Returns
    -------
    pandas.DataFrame
        One row per agent, size and method; ``coverage`` and its ``mc_se`` are recomputed from
        the counts.

    Examples
    --------
    >>> t = oskr_coverage_table()
    >>> len(t), bool(t.mc_se.max() <= 0.005)
    (16, True)
    """
    from importlib.resources import files

    import pandas as pd

    with files("metabits_book").joinpath("data", "oskr_coverage.csv").open("r", encoding="utf-8") as f:
        table = pd.read_csv(f, comment="#")
    return _with_rates(table)
