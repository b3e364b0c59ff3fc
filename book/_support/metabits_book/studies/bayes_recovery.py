"""Parameter recovery of the Bayesian meta-d′ (:mod:`metabits.sdt`): a study.

* :func:`bayes_recovery` simulates tables at a known d′ and meta-d′, fits each with
  :func:`~metabits.sdt.fit_meta_d_bayes` and with maximum likelihood
  (:func:`metabits.fit_meta_d`), and reports the coverage of the central posterior intervals
  (with its binomial Monte Carlo SE), the bias of the posterior means and the ML estimates.
* :func:`bayes_recovery_rows` reads the shipped study (``scripts/bayes_recovery.py`` writes it);
  :func:`recovery_summary` summarises per-fit rows by condition.

A study of the Bayesian fits, not a check of one fit: the library (:mod:`metabits.sdt`) holds
the fits and their predictive checks, the book this study. Importing this module loads no PyMC:
:func:`bayes_recovery` loads the fits on its first call.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_int, as_probability, as_scalar

__all__ = ["BayesRecovery", "bayes_recovery", "bayes_recovery_rows", "recovery_summary"]

#: docstrings whose Examples sample with NUTS (the first compiles the model): marked slow by
#: the test configuration, so the quick loop leaves them out
_SLOW_DOCTESTS = ("bayes_recovery",)


@dataclass(frozen=True)
class BayesRecovery(Result):
    """Result of :func:`bayes_recovery`; also a mapping. ``rows()`` gives one row per fit.

    Per-fit arrays have shape (m,), m the number of simulated tables.

    Attributes
    ----------
    d, meta_d, m_ratio, c : float
        The generating d′, meta-d′, M-ratio meta-d′/d′ and c.
    n_per_stimulus, K : int
        Trials per stimulus and confidence levels of each table.
    estimate_dprime : bool
        How d′ was treated in the fits (see :func:`~metabits.sdt.fit_meta_d_bayes`).
    level : float
        Probability of the central posterior intervals.
    seed : int
        The study's seed: table i is simulated with ``numpy.random.default_rng([seed, i])`` and
        fitted with sampler seed ``seed * 100_000 + i``.
    sets : ndarray of int
        The indices i of the tables.
    meta_d_mean, meta_d_lower, meta_d_upper : ndarray
        Posterior mean and central interval of meta-d′ of each table.
    m_ratio_mean, m_ratio_lower, m_ratio_upper : ndarray
        The same for the M-ratio.
    d_hat : ndarray
        The d′ of each fit: from the padded counts, or its posterior mean when estimated.
    ml_meta_d, ml_m_ratio : ndarray
        Maximum-likelihood meta-d′ and M-ratio (:func:`metabits.fit_meta_d`, counts padded by
        1/(2K) as the Bayesian fit's d′).
    r_hat, ess_bulk : ndarray
        Each fit's largest R-hat and smallest bulk ESS.
    divergences : ndarray of int
        Each fit's divergent transitions.
    coverage_meta_d, coverage_m_ratio : float
        Share of the tables whose interval contains the true value.
    coverage_meta_d_se, coverage_m_ratio_se : float
        Their binomial Monte Carlo SEs, √(p(1 − p)/m) at the observed share p.
    bias_meta_d, bias_m_ratio, ml_bias_meta_d, ml_bias_m_ratio : float
        Mean estimate minus the truth: posterior means, and ML estimates.
    bias_meta_d_se, bias_m_ratio_se, ml_bias_meta_d_se, ml_bias_m_ratio_se : float
        Their Monte Carlo SEs (SD of the estimates / √m).
    """

    d: float
    meta_d: float
    m_ratio: float
    c: float
    n_per_stimulus: int
    K: int
    estimate_dprime: bool
    level: float
    seed: int
    sets: np.ndarray
    meta_d_mean: np.ndarray
    meta_d_lower: np.ndarray
    meta_d_upper: np.ndarray
    m_ratio_mean: np.ndarray
    m_ratio_lower: np.ndarray
    m_ratio_upper: np.ndarray
    d_hat: np.ndarray
    ml_meta_d: np.ndarray
    ml_m_ratio: np.ndarray
    r_hat: np.ndarray
    ess_bulk: np.ndarray
    divergences: np.ndarray
    coverage_meta_d: float
    coverage_meta_d_se: float
    coverage_m_ratio: float
    coverage_m_ratio_se: float
    bias_meta_d: float
    bias_meta_d_se: float
    bias_m_ratio: float
    bias_m_ratio_se: float
    ml_bias_meta_d: float
    ml_bias_meta_d_se: float
    ml_bias_m_ratio: float
    ml_bias_m_ratio_se: float

    def rows(self):
        """One row per fit (pandas DataFrame): the condition, the fit and the ML estimates, in the
        columns of the shipped study (:func:`bayes_recovery_rows`)."""
        import pandas as pd

        m = len(self.sets)
        cond = {k: [getattr(self, k)] * m for k in ("d", "meta_d", "m_ratio", "c",
                                                    "n_per_stimulus", "K", "estimate_dprime",
                                                    "level", "seed")}
        cond["set"] = self.sets
        per_fit = {k: getattr(self, k) for k in _PER_FIT}
        return pd.DataFrame({**cond, **per_fit})


_PER_FIT = ("meta_d_mean", "meta_d_lower", "meta_d_upper", "m_ratio_mean", "m_ratio_lower",
            "m_ratio_upper", "d_hat", "ml_meta_d", "ml_m_ratio", "r_hat", "ess_bulk",
            "divergences")


def _coverage(covered):
    p = float(np.mean(covered))
    return p, float(np.sqrt(p * (1 - p) / len(covered)))


def _bias(est, truth):
    est = np.asarray(est, float)
    se = float(est.std(ddof=1) / np.sqrt(est.size)) if est.size > 1 else float("nan")
    return float(est.mean() - truth), se


def _summaries(truth_meta_d, truth_m_ratio, level, per_fit):
    """Coverage and bias from per-fit arrays."""
    out = {}
    for name, truth in (("meta_d", truth_meta_d), ("m_ratio", truth_m_ratio)):
        covered = (per_fit[f"{name}_lower"] <= truth) & (truth <= per_fit[f"{name}_upper"])
        out[f"coverage_{name}"], out[f"coverage_{name}_se"] = _coverage(covered)
        out[f"bias_{name}"], out[f"bias_{name}_se"] = _bias(per_fit[f"{name}_mean"], truth)
        out[f"ml_bias_{name}"], out[f"ml_bias_{name}_se"] = _bias(per_fit[f"ml_{name}"], truth)
    return out


def bayes_recovery(d, meta_d, n_per_stimulus, n_sets, *, K=2, c=0.0, estimate_dprime=False,
                   level=0.95, start=0, seed=0, chains=4, draws=1000, tune=1000,
                   cores=None) -> BayesRecovery:
    """Parameter recovery of the Bayesian meta-d′: simulate tables at a known d′ and meta-d′,
    fit each, and report interval coverage, bias and the ML fit beside it.

    Table i (``i = start, ..., start + n_sets - 1``) is simulated by
    :func:`metabits.sdt.simulate_ratings` (equiprobable criteria) with
    ``rng=numpy.random.default_rng([seed, i])`` and fitted by
    :func:`~metabits.sdt.fit_meta_d_bayes` with sampler seed
    ``seed * 100_000 + i``, so any subset of a study is reproduced by itself (``start``).

    Parameters
    ----------
    d, meta_d : float
        Generating d′ (> 0) and meta-d′ (>= 0).
    n_per_stimulus : int
        Trials per stimulus of each table.
    n_sets : int
        Number of tables (>= 1).
    K : int, default 2
        Confidence levels.
    c : float, default 0
        Generating Type 1 criterion. The simulation's model has meta-c = c·meta-d′/d′
        (Maniscalco & Lau), HMeta-d's has meta-c = c: they agree at c = 0 only.
    estimate_dprime : bool, default False
        Passed to the fits.
    level : float, default 0.95
        Probability of the central posterior intervals.
    start : int, default 0
        Index of the first table.
    seed : int, default 0
        The study's seed (>= 0, below 20,000 so that sampler seeds stay distinct).
    chains, draws, tune, cores
        Sampler settings of each fit.

    Returns
    -------
    BayesRecovery
        Per-fit posterior means, intervals, ML estimates and diagnostics; coverage with its
        Monte Carlo SE and bias with its SE, for meta-d′ and the M-ratio.

    Raises
    ------
    ValueError
        For d′ <= 0, meta-d′ < 0, bad counts, levels, seeds or sampler settings (the argument is
        named).

    Notes
    -----
    With ``estimate_dprime=False`` the M-ratio's interval is meta-d′'s divided by the point
    estimate of d′: it ignores d′'s own uncertainty, so its coverage of the true M-ratio can
    fall short of ``level`` where meta-d′'s does not.

    Examples
    --------
    >>> r = bayes_recovery(1.5, 1.5, 200, 2, chains=2, draws=300, tune=300)
    >>> r.sets, r.coverage_meta_d, r.meta_d_mean.round(1)
    (array([0, 1]), 1.0, array([1.1, 1.7]))
    """
    from metabits import sdt as model
    from metabits.sdt import fit_meta_d_bayes
    from metabits.sdt import fit_meta_d

    d = as_scalar(d, "d")
    meta_d = as_scalar(meta_d, "meta_d")
    if not d > 0:
        raise ValueError(f"d must be positive; got {d:g}")
    if not meta_d >= 0:
        raise ValueError(f"meta_d must be non-negative; got {meta_d:g}")
    c = as_scalar(c, "c")
    n_per_stimulus = as_int(n_per_stimulus, "n_per_stimulus", least=1)
    n_sets = as_int(n_sets, "n_sets", least=1)
    K = as_int(K, "K", least=2)
    start = as_int(start, "start", least=0)
    seed = as_int(seed, "seed", least=0, most=19_999)
    level = float(as_probability(level, "level", 0.0, 1.0, low_open=True, high_open=True))
    if not isinstance(estimate_dprime, (bool, np.bool_)):
        raise ValueError(f"estimate_dprime must be True or False; got {estimate_dprime!r}")
    alpha = (1 - level) / 2
    sets = np.arange(start, start + n_sets)
    per_fit = {k: np.empty(n_sets) for k in _PER_FIT}
    for j, i in enumerate(sets):
        table = model.simulate_ratings(d, meta_d, n_per_stimulus, c=c, K=K,
                                       rng=np.random.default_rng([seed, int(i)]))[0]
        fit = fit_meta_d_bayes(*table, estimate_dprime=estimate_dprime, chains=chains,
                               draws=draws, tune=tune, seed=seed * 100_000 + int(i), cores=cores)
        for name in ("meta_d", "m_ratio"):
            x = getattr(fit, name)
            per_fit[f"{name}_mean"][j] = x.mean()
            per_fit[f"{name}_lower"][j], per_fit[f"{name}_upper"][j] = np.quantile(
                x, [alpha, 1 - alpha])
        per_fit["d_hat"][j] = np.mean(fit.d)
        ml = fit_meta_d(table, pad=1 / (2 * K))
        per_fit["ml_meta_d"][j], per_fit["ml_m_ratio"][j] = ml.meta_d, ml.m_ratio
        per_fit["r_hat"][j], per_fit["ess_bulk"][j] = fit.r_hat, fit.ess_bulk
        per_fit["divergences"][j] = fit.divergences
    per_fit["divergences"] = per_fit["divergences"].astype(int)
    return BayesRecovery(d=d, meta_d=meta_d, m_ratio=meta_d / d, c=c,
                         n_per_stimulus=n_per_stimulus, K=K,
                         estimate_dprime=bool(estimate_dprime), level=level, seed=seed,
                         sets=sets, **per_fit, **_summaries(meta_d, meta_d / d, level, per_fit))


#: the shipped recovery study (``metabits_book/data``), written by ``scripts/bayes_recovery.py``
RECOVERY_FILE = "bayes_recovery.csv"


def bayes_recovery_rows():
    """The shipped recovery study of the Bayesian meta-d′: one row per fit (pandas DataFrame).

    Written by ``scripts/bayes_recovery.py`` (:func:`bayes_recovery` over a grid of conditions,
    then :meth:`BayesRecovery.rows`); ``tests/test_bayes_recovery.py`` refits some of its rows.

    Examples
    --------
    >>> rows = bayes_recovery_rows()
    >>> {"d", "meta_d", "n_per_stimulus", "set", "meta_d_lower", "ml_meta_d"} <= set(rows)
    True
    """
    from importlib.resources import files

    import pandas as pd

    with files("metabits_book").joinpath("data", RECOVERY_FILE).open(encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")


def recovery_summary(rows):
    """Coverage and bias by condition from per-fit rows (as :func:`bayes_recovery_rows`).

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per fit with the columns of :meth:`BayesRecovery.rows`.

    Returns
    -------
    pandas.DataFrame
        One row per condition (d, meta_d, c, n_per_stimulus, K, estimate_dprime, level): the
        number of fits ``fits``, ``coverage_meta_d``, ``coverage_m_ratio`` with their ``_se``,
        the biases of the posterior means and of ML with their ``_se``, the mean posterior-mean
        minus ML difference of meta-d′ ``bayes_minus_ml_meta_d`` (with ``_se``), the largest
        R-hat and the total divergences.

    Raises
    ------
    ValueError
        For rows without the needed columns, or no rows.

    Examples
    --------
    >>> s = recovery_summary(bayes_recovery_rows())
    >>> bool((s.fits >= 100).all())
    True
    """
    import pandas as pd

    keys = ["d", "meta_d", "c", "n_per_stimulus", "K", "estimate_dprime", "level"]
    if not isinstance(rows, pd.DataFrame):
        raise ValueError(f"rows must be a pandas DataFrame; got {type(rows).__name__}")
    missing = [k for k in keys + list(_PER_FIT) if k not in rows.columns]
    if missing:
        raise ValueError(f"rows lacks the columns {missing}")
    if len(rows) == 0:
        raise ValueError("rows is empty")
    out = []
    for cond, g in rows.groupby(keys, sort=False):
        per_fit = {k: g[k].to_numpy() for k in _PER_FIT}
        summary = dict(zip(keys, cond))
        summary["fits"] = len(g)
        summary.update(_summaries(summary["meta_d"], summary["meta_d"] / summary["d"],
                                  summary["level"], per_fit))
        diff = per_fit["meta_d_mean"] - per_fit["ml_meta_d"]
        summary["bayes_minus_ml_meta_d"] = float(diff.mean())
        summary["bayes_minus_ml_meta_d_se"] = float(diff.std(ddof=1) / np.sqrt(diff.size)) \
            if diff.size > 1 else float("nan")
        summary["max_r_hat"] = float(per_fit["r_hat"].max())
        summary["divergences"] = int(per_fit["divergences"].sum())
        out.append(summary)
    return pd.DataFrame(out)
