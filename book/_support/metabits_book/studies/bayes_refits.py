"""HMeta-d refits behind the chapter "The Bayesian estimate": Servajean's LLMs, the MaskOri people.

Two studies, each computed by a function here and shipped as a CSV in ``metabits_book/data``
(their NUTS fits are too slow to rerun for every build; the book's page and the quick tests read
the files):

* :func:`servajean_bayes_refits` simulates one experiment of each of Servajean & Servajean's
  (2026) nine task × model cells at the published parameters (Table S1's d′ and meta-d′, Table
  S2's criterion c without risk, an evenly used 1–5 scale, the trial counts the chapter
  "Metacognitive efficiency of three LLMs" reads off Table S2) from Fleming's HMeta-d model
  (meta-c = c), and refits each with :func:`metabits.fit_meta_d_bayes` as the paper did
  (``estimate_dprime=True``): posterior means, 95% intervals, the mean of ratios and the ratio
  of means, and the diagnostics. Shipped as ``data/servajean2026_bayes_refits.csv``, read by
  :func:`servajean_bayes_table`. :func:`servajean_tables` gives the simulated tables themselves
  (no fit), so that a reader can fit them by maximum likelihood beside the posterior.
  :func:`servajean_gap_attribution` walks from that posterior mean to the maximum-likelihood
  estimate one change at a time (near-flat priors; the likelihood's maximum; d′ and c fixed;
  padding; Maniscalco's meta-c): shipped as ``data/servajean2026_gap_attribution.csv``, read by
  :func:`servajean_gap_table`.
* :func:`maskori_group_bayes` fits Fleming's hierarchical model
  (:func:`metabits.fit_meta_d_bayes_group`) to the 16 MaskOri people at each SOA: the group
  M-ratio, the SD of log M-ratio and each person's M-ratio with 95% intervals and the
  diagnostics, one row each. Shipped as ``data/maskori_group_bayes.csv``, read by
  :func:`maskori_group_bayes_table`. :func:`maskori_posterior_check` refits one SOA and checks
  the fit against the data with :func:`metabits.sdt.posterior_predictive` (shipped as
  ``data/maskori_group_bayes_ppc.csv``, read by :func:`maskori_posterior_check_table`).

``scripts/make_bayes_refits.py`` regenerates the files; ``tests/test_bayes_refits.py`` checks
the shipped files and (marked slow) refits a cell and an SOA against them.

PyMC and its stack are imported only by the two fitting functions, on first use.
"""

from __future__ import annotations

import numpy as np

from metabits.validation import as_choice, as_int, as_probability, as_size
from metabits_book.studies import datasets

__all__ = ["MASKORI_GROUP_BAYES", "MASKORI_PPC", "SERVAJEAN_BAYES", "SERVAJEAN_GAP",
           "SERVAJEAN_N_PER_STIMULUS", "maskori_group_bayes", "maskori_group_bayes_table",
           "maskori_posterior_check", "maskori_posterior_check_table", "servajean_bayes_refits",
           "servajean_bayes_table", "servajean_gap_attribution", "servajean_gap_table",
           "servajean_tables"]

#: Trials per stimulus class of each task (A, B, C): the chapter "Metacognitive efficiency of
#: three LLMs" solves Table S2's Delta-method half-widths for them (20,000 sentences in task A,
#: 10,000 in B and C).
SERVAJEAN_N_PER_STIMULUS = {"A": 10_000, "B": 5_000, "C": 5_000}
#: the shipped result of :func:`servajean_bayes_refits`
SERVAJEAN_BAYES = "servajean2026_bayes_refits.csv"
#: the shipped result of :func:`maskori_group_bayes`
MASKORI_GROUP_BAYES = "maskori_group_bayes.csv"
#: the shipped result of :func:`maskori_posterior_check`
MASKORI_PPC = "maskori_group_bayes_ppc.csv"

_K = 5  # the paper's 1-5 confidence scale; MaskOri's ratings 0-4


def _seed(seed):
    return as_int(seed, "seed", least=0)


def _hmeta_d_probabilities(d, meta_d, c, K):
    """P(column | stimulus) under HMeta-d's generative model: Type 1 from d′ and c, confidence
    from meta-d′ with the Type 2 evidence cut at c itself (meta-c = c; Fleming's ``metad_sim``),
    K − 1 criteria a side that the Type 2 stage (sensitivity meta-d′) uses equally often.

    The confidence given the Type 1 response is the model's own
    (:func:`metabits.sdt.hmetad_rating_probabilities`, HMeta-d's likelihood, its
    10⁻⁵ floor included) at the criteria that make an observer with d′ = meta-d′ use each level
    equally often: that observer's meta-c = c·meta-d′/d′ is c."""
    from scipy.special import ndtr

    import metabits as mb

    lower, upper = mb.sdt.equiprobable_criteria(meta_d, meta_d, c, K)
    given_response = mb.sdt.hmetad_rating_probabilities(meta_d, c, lower, upper)
    hr, far = ndtr(np.asarray(d) / 2 - c), ndtr(-np.asarray(d) / 2 - c)
    p_s2 = np.stack(np.broadcast_arrays(far, hr), axis=-1)  # P("S2" | S1), P("S2" | S2)
    out = given_response * np.stack([1 - p_s2, p_s2], axis=-1)[..., None]
    return out.reshape(out.shape[:-2] + (2 * K,))


def servajean_tables(seed: int = 2026) -> np.ndarray:
    """One simulated experiment per task × model of Servajean & Servajean (2026).

    Each cell's counts are drawn from Fleming's HMeta-d model (meta-c = c) at Table S1's d′ and
    meta-d′ and Table S2's c without risk ("None"), with a 1–5 scale whose levels the Type 2
    stage (sensitivity meta-d′) uses equally often on each side, and
    :data:`SERVAJEAN_N_PER_STIMULUS` trials of each class. Cell
    (task i, model j) uses the generator ``numpy.random.default_rng([seed, i, j])``.

    Parameters
    ----------
    seed : int, default 2026
        Seed (>= 0).

    Returns
    -------
    numpy.ndarray of int64, shape (3, 3, 2, 10)
        Tasks A, B, C × the models of ``datasets.SERVAJEAN_MODELS`` × one count table.

    Raises
    ------
    ValueError
        For a seed that is not an integer >= 0.

    Examples
    --------
    >>> x = servajean_tables()
    >>> x.shape, int(x[0, 0].sum()), int(x[2, 1].sum())
    ((3, 3, 2, 10), 20000, 10000)
    """
    seed = _seed(seed)
    s1, s2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()
    none = s2.risks.index("None")
    out = np.empty((len(s1.tasks), len(s1.models), 2, 2 * _K), dtype=np.int64)
    for i, task in enumerate(s1.tasks):
        n = SERVAJEAN_N_PER_STIMULUS[task]
        for j in range(len(s1.models)):
            p = _hmeta_d_probabilities(s1.d_prime[i, j], s1.meta_d[i, j], s2.c[i, none, j], _K)
            p = p / p.sum(-1, keepdims=True)
            out[i, j] = np.random.default_rng([seed, i, j]).multinomial(n, p)
    return out


def _target_accept(x):
    return float(as_probability(x, "target_accept", 0.0, 1.0, low_open=True, high_open=True))


def _summary(draws):
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return float(np.mean(draws)), float(lo), float(hi)


def servajean_bayes_refits(seed: int = 2026, *, tasks=None, chains: int = 4, draws: int = 1000,
                           tune: int = 1000):
    """HMeta-d (``estimate_dprime=True``, as the paper) fitted to :func:`servajean_tables`.

    Parameters
    ----------
    seed : int, default 2026
        Seed of the simulated tables (:func:`servajean_tables`); cell (i, j)'s sampler gets
        ``seed + 3 i + j``.
    tasks : sequence of str, optional
        Only these tasks (default all three).
    chains, draws, tune : int, default 4, 1000, 1000
        NUTS settings of every fit.

    Returns
    -------
    pandas.DataFrame
        One row per task and model: ``task``, ``model``, ``n_per_stimulus``, the generating
        ``d_true``, ``meta_d_true``, ``m_ratio_true`` and ``c_true``; posterior mean and 95%
        interval (2.5% and 97.5% quantiles) of d′ (``d_mean``, ``d_lo``, ``d_hi``), meta-d′ and
        the M-ratio; ``m_ratio_mcse``; ``ratio_of_means`` (mean meta-d′ / mean d′, beside the
        mean of ratios ``m_ratio_mean``) and ``gap_mcse``, the Monte Carlo SE of their difference
        (from its spread over the chains; NaN for one chain); ``r_hat``, ``ess_bulk``,
        ``ess_tail``, ``divergences``; ``chains``, ``draws``, ``seed``. The layout of
        ``data/servajean2026_bayes_refits.csv``.

    Raises
    ------
    ValueError
        For a bad seed, an unknown task, or sampler sizes that are not integers >= 1.

    Notes
    -----
    Nine NUTS fits with K = 5, one compiled model for all (compiled by the first fit in a
    process). Needs ``metabits[bayes]``.
    """
    import pandas as pd

    from metabits.sdt import fit_meta_d_bayes

    seed = _seed(seed)
    s1, s2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()
    tasks = list(s1.tasks) if tasks is None else [as_choice(t, s1.tasks, "task")
                                                  for t in _as_list(tasks, "tasks")]
    chains, draws = as_size(chains, "chains", most=64), as_size(draws, "draws", most=10 ** 6)
    tune = as_size(tune, "tune", most=10 ** 6)
    tables = servajean_tables(seed)
    none = s2.risks.index("None")
    rows = []
    for task in tasks:
        i = s1.tasks.index(task)
        for j, model in enumerate(s1.models):
            x = tables[i, j]
            fit = fit_meta_d_bayes(x[0], x[1], estimate_dprime=True, chains=chains, draws=draws,
                                   tune=tune, seed=seed + 3 * i + j)
            row = {"task": task, "model": model,
                   "n_per_stimulus": SERVAJEAN_N_PER_STIMULUS[task],
                   "d_true": float(s1.d_prime[i, j]), "meta_d_true": float(s1.meta_d[i, j]),
                   "m_ratio_true": float(s1.meta_d[i, j] / s1.d_prime[i, j]),
                   "c_true": float(s2.c[i, none, j])}
            for name, value in (("d", fit.d), ("meta_d", fit.meta_d), ("m_ratio", fit.m_ratio)):
                row[f"{name}_mean"], row[f"{name}_lo"], row[f"{name}_hi"] = _summary(value)
            # the Jensen gap mean(m/d) − mean(m)/mean(d), chain by chain: its spread over
            # the chains gives its Monte Carlo SE (batch means, one batch per chain)
            gap = [np.mean(r) - np.mean(m) / np.mean(d) for r, m, d in
                   zip(*(np.reshape(v, (chains, draws)) for v in (fit.m_ratio, fit.meta_d, fit.d)))]
            row.update(m_ratio_mcse=fit.mcse("m_ratio"),
                       ratio_of_means=float(np.mean(fit.meta_d) / np.mean(fit.d)),
                       gap_mcse=float(np.std(gap, ddof=1) / np.sqrt(chains)) if chains > 1
                       else float("nan"),
                       r_hat=fit.r_hat, ess_bulk=fit.ess_bulk, ess_tail=fit.ess_tail,
                       divergences=fit.divergences, chains=chains, draws=draws,
                       seed=seed + 3 * i + j)
            rows.append(row)
    return pd.DataFrame(rows)


def _as_list(values, name):
    if isinstance(values, str) or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a sequence of names; got {values!r}")
    values = list(values)
    if not values:
        raise ValueError(f"{name} must name at least one; got none")
    return values


def maskori_group_bayes(soas=None, *, seed: int = 2023, chains: int = 4, draws: int = 1000,
                        tune: int = 1000, target_accept: float = 0.99):
    """Fleming's hierarchical HMeta-d fitted to the 16 MaskOri people, SOA by SOA.

    Each SOA's 16 count tables (:func:`metabits_book.studies.datasets.maskori_counts`, K = 5) get
    :func:`metabits.fit_meta_d_bayes_group` with the toolbox's default path (each person's d′
    and c from the counts padded by 1/(2K) = 0.1, held fixed).

    Parameters
    ----------
    soas : sequence of float, optional
        SOAs in ms, from ``datasets.MASKORI_SOAS`` (default all five).
    seed : int, default 2023
        The SOA ``datasets.MASKORI_SOAS[k]`` is sampled with seed ``seed + k``.
    chains, draws, tune : int, default 4, 1000, 1000
        NUTS settings of every fit.
    target_accept : float, default 0.99
        NUTS's target acceptance rate; above the group fit's default 0.95, whose larger steps
        leave divergences at most SOAs.

    Returns
    -------
    pandas.DataFrame
        One row per SOA and quantity: ``soa_ms``, ``participant`` (0 for the group's rows),
        ``quantity`` (``"group_m_ratio"``: exp of the group mean of log M-ratio, the group
        M-ratio HMeta-d reports; ``"sigma_log_m_ratio"``: the group SD of log M-ratio;
        ``"m_ratio"``: one person's M-ratio), posterior ``mean``, ``lo`` and ``hi`` (2.5% and
        97.5% quantiles), ``mcse`` (of the mean), ``d`` (the person's padded d′; the group's
        mean d′ on group rows), and the fit's ``r_hat``, ``ess_bulk``, ``ess_tail``,
        ``divergences``, ``chains``, ``draws``, ``target_accept``, ``seed``. The layout of
        ``data/maskori_group_bayes.csv``.

    Raises
    ------
    ValueError
        For an SOA not in the data, a bad seed, or sampler sizes that are not integers >= 1.

    Notes
    -----
    One hierarchical NUTS fit per SOA; needs ``metabits[bayes]``. At the shortest SOA the
    people are at chance: their d′ scatter around
    0 (several negative), where an M-ratio means nothing; the model still returns a posterior,
    which the prior mostly decides.
    """
    import pandas as pd

    from metabits.sdt import fit_meta_d_bayes_group

    all_soas = tuple(float(s) for s in datasets.MASKORI_SOAS)
    if soas is None:
        soas = all_soas
    else:
        soas = _as_list(soas, "soas")
        for s in soas:
            if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, float, np.number)) \
                    or float(s) not in all_soas:
                raise ValueError(f"unknown SOA {s!r} (soas); must be among {all_soas} ms")
        soas = [float(s) for s in soas]
    seed = _seed(seed)
    chains, draws = as_size(chains, "chains", most=64), as_size(draws, "draws", most=10 ** 6)
    tune = as_size(tune, "tune", most=10 ** 6)
    target_accept = _target_accept(target_accept)
    tables = datasets.maskori_counts()
    people = [int(p) for p in tables.levels[0]]
    rows = []
    for soa in soas:
        k = all_soas.index(soa)
        fit = fit_meta_d_bayes_group(tables.counts[:, k], chains=chains, draws=draws, tune=tune,
                                     target_accept=target_accept, seed=seed + k)
        common = dict(r_hat=fit.r_hat, ess_bulk=fit.ess_bulk, ess_tail=fit.ess_tail,
                      divergences=fit.divergences, chains=chains, draws=draws,
                      target_accept=target_accept, seed=seed + k)
        group = {"group_m_ratio": np.exp(fit.mu_log_m_ratio),
                 "sigma_log_m_ratio": fit.sigma_log_m_ratio}
        for name, value in group.items():
            mean, lo, hi = _summary(value)
            rows.append({"soa_ms": soa, "participant": 0, "quantity": name, "mean": mean,
                         "lo": lo, "hi": hi, "mcse": _mcse(value, chains, draws),
                         "d": float(np.mean(fit.d)), **common})
        mcse = fit.mcse("m_ratio")
        for s, person in enumerate(people):
            mean, lo, hi = _summary(fit.m_ratio[:, s])
            rows.append({"soa_ms": soa, "participant": person, "quantity": "m_ratio",
                         "mean": mean, "lo": lo, "hi": hi, "mcse": float(mcse[s]),
                         "d": float(fit.d[s]), **common})
    return pd.DataFrame(rows)


def maskori_posterior_check(soa: float = 66.7, *, seed: int = 2023, chains: int = 4,
                            draws: int = 1000, tune: int = 1000, target_accept: float = 0.99,
                            level: float = 0.95):
    """Posterior predictive check of the hierarchical fit of the MaskOri people at one SOA.

    Refits the SOA exactly as :func:`maskori_group_bayes` does (same seed, so the same
    posterior as the shipped rows) and passes the fit to
    :func:`metabits.sdt.posterior_predictive`: a table of counts predicted from each posterior
    draw, set beside each person's observed table.

    Parameters
    ----------
    soa : float, default 66.7
        One of ``datasets.MASKORI_SOAS`` (ms).
    seed : int, default 2023
        As in :func:`maskori_group_bayes`; the predictive draws use ``seed`` too.
    chains, draws, tune : int, default 4, 1000, 1000
    target_accept : float, default 0.99
        NUTS settings, as in :func:`maskori_group_bayes`.
    level : float, default 0.95
        Central probability of the per-cell predictive intervals.

    Returns
    -------
    pandas.DataFrame
        One row per person, stimulus and response column (16 × 2 × 2K): ``soa_ms``,
        ``participant``, ``stimulus`` (``"S1"`` or ``"S2"``), ``column`` (1 … 2K, from "S1, most
        confident" to "S2, most confident"), ``observed``, predictive ``mean``, ``lower`` and
        ``upper``, ``inside``, the person's predictive ``p_value`` (chi-square distance from the
        predictive mean table), ``level``, and the fit's ``r_hat``, ``ess_bulk``,
        ``divergences``, ``chains``, ``draws``, ``target_accept``, ``seed``. The layout of
        ``data/maskori_group_bayes_ppc.csv``.

    Raises
    ------
    ValueError
        For an SOA not in the data, a bad seed, sampler sizes that are not integers >= 1, or a
        level outside (0, 1).

    Notes
    -----
    One hierarchical NUTS fit; needs ``metabits[bayes]``.
    """
    import pandas as pd

    from metabits.sdt import posterior_predictive
    from metabits.sdt import fit_meta_d_bayes_group

    all_soas = tuple(float(s) for s in datasets.MASKORI_SOAS)
    if isinstance(soa, (bool, np.bool_)) or not isinstance(soa, (int, float, np.number)) \
            or float(soa) not in all_soas:
        raise ValueError(f"unknown SOA {soa!r} (soa); must be one of {all_soas} ms")
    seed = _seed(seed)
    chains, draws = as_size(chains, "chains", most=64), as_size(draws, "draws", most=10 ** 6)
    tune = as_size(tune, "tune", most=10 ** 6)
    target_accept = _target_accept(target_accept)
    level = float(as_probability(level, "level", 0.0, 1.0, low_open=True, high_open=True))
    k = all_soas.index(float(soa))
    tables = datasets.maskori_counts()
    fit = fit_meta_d_bayes_group(tables.counts[:, k], chains=chains, draws=draws, tune=tune,
                                 target_accept=target_accept, seed=seed + k)
    check = posterior_predictive(fit, level=level, rng=seed)
    rows = []
    for s, person in enumerate(int(p) for p in tables.levels[0]):
        for r, stimulus in enumerate(("S1", "S2")):
            for col in range(check.observed.shape[-1]):
                i = (s, r, col)
                rows.append({"soa_ms": float(soa), "participant": person, "stimulus": stimulus,
                             "column": col + 1, "observed": int(check.observed[i]),
                             "mean": float(check.mean[i]), "lower": float(check.lower[i]),
                             "upper": float(check.upper[i]), "inside": bool(check.inside[i]),
                             "p_value": float(check.p_values[s]), "level": level,
                             "r_hat": fit.r_hat, "ess_bulk": fit.ess_bulk,
                             "divergences": fit.divergences, "chains": chains, "draws": draws,
                             "target_accept": target_accept, "seed": seed + k})
    return pd.DataFrame(rows)


def _mcse(draws, chains, n):
    import warnings

    import arviz as az

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        x = az.convert_to_dataset(np.asarray(draws).reshape(chains, n))
        return float(az.mcse(x)["x"].values)


def _read(name):
    from importlib.resources import files

    import pandas as pd

    with files("metabits_book").joinpath("data", name).open("r", encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")


def servajean_bayes_table():
    """The shipped result of :func:`servajean_bayes_refits`
    (``data/servajean2026_bayes_refits.csv``).

    Returns
    -------
    pandas.DataFrame
        Nine rows, one per task and model, in the layout of :func:`servajean_bayes_refits`.

    Examples
    --------
    >>> t = servajean_bayes_table()
    >>> len(t), bool((t.r_hat < 1.01).all()), int(t.divergences.sum())
    (9, True, 0)
    """
    return _read(SERVAJEAN_BAYES)


def maskori_posterior_check_table():
    """The shipped result of :func:`maskori_posterior_check`
    (``data/maskori_group_bayes_ppc.csv``).

    Returns
    -------
    pandas.DataFrame
        320 rows: 16 people × 2 stimuli × 10 response columns at one SOA, in the layout of
        :func:`maskori_posterior_check`.

    Examples
    --------
    >>> t = maskori_posterior_check_table()
    >>> len(t), t.participant.nunique(), bool(t.p_value.between(0, 1).all())
    (320, 16, True)
    """
    return _read(MASKORI_PPC)


def maskori_group_bayes_table():
    """The shipped result of :func:`maskori_group_bayes` (``data/maskori_group_bayes.csv``).

    Returns
    -------
    pandas.DataFrame
        90 rows: per SOA the group M-ratio, the SD of log M-ratio and 16 people's M-ratios, in
        the layout of :func:`maskori_group_bayes`.

    Examples
    --------
    >>> t = maskori_group_bayes_table()
    >>> len(t), sorted(set(t.quantity))
    (90, ['group_m_ratio', 'm_ratio', 'sigma_log_m_ratio'])
    """
    return _read(MASKORI_GROUP_BAYES)


# --- what separates HMeta-d's posterior mean from the book's maximum likelihood ------------------

#: the shipped result of :func:`servajean_gap_attribution`
SERVAJEAN_GAP = "servajean2026_gap_attribution.csv"
#: the pad of the book's maximum-likelihood fits of the LLM tables (1/(2K), K = 5)
_ML_PAD = 0.1


def _hmetad_negloglik(x, K, d=None, c=None):
    """Negative log-likelihood of HMeta-d's single-subject model for one table ``x`` (2, 2K),
    per trial, as a function of ``(d′, c, meta-d′, log-gaps)`` (``d`` and ``c`` None: d′ and c
    free, with HMeta-d's binomial hits and false alarms) or of ``(meta-d′, log-gaps)`` (d′ and
    c given: the ratings alone). The ratings' probabilities are HMeta-d's own
    (:func:`metabits.sdt.hmetad_rating_probabilities`, meta-c = c, the 10⁻⁵ floor); the
    criteria lie at c ∓ cumulative sums of exp(log-gap) on each side."""
    from scipy.special import log_ndtr

    import metabits as mb

    blocks = np.asarray(x, float).reshape(2, 2, K)  # stimulus, response, rating
    hits, signal = x[1, K:].sum(), x[1].sum()
    fas, noise = x[0, K:].sum(), x[0].sum()
    total = float(x.sum())
    joint = d is None

    def f(p):
        d1, c1, rest = (p[0], p[1], p[2:]) if joint else (d, c, p)
        meta_d, g1, g2 = rest[0], np.exp(rest[1:K]), np.exp(rest[K:])
        low, high = (c1 - np.cumsum(g1))[::-1], c1 + np.cumsum(g2)
        if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))) \
                or np.any(np.diff(low) <= 0) or np.any(np.diff(high) <= 0) \
                or low[-1] >= c1 or high[0] <= c1:  # gaps rounded away: outside the model
            return np.inf
        p_r = mb.sdt.hmetad_rating_probabilities(meta_d, c1, low, high)
        ll = float(np.sum(blocks * np.log(p_r)))
        if joint:
            ll += (hits * log_ndtr(d1 / 2 - c1) + (signal - hits) * log_ndtr(c1 - d1 / 2)
                   + fas * log_ndtr(-d1 / 2 - c1) + (noise - fas) * log_ndtr(d1 / 2 + c1))
        return -ll / total

    return f


def _hmetad_ml(x, joint):
    """The maximum of HMeta-d's likelihood for one unpadded table: d′, c and meta-d′.

    ``joint``: d′, c, meta-d′ and the criteria together (the mode of the posterior under flat
    priors); else d′ and c are the unpadded counts' and only the ratings are fitted. Starts at
    the maximum-likelihood fit with meta-c = c of the table padded by :data:`_ML_PAD`; BFGS,
    then Nelder–Mead from its end, until a round moves the log-likelihood by less than 10⁻¹²
    per trial. An empty cell sends its outer criterion outwards until HMeta-d's floor holds its
    probability; meta-d′ stays finite."""
    from scipy.optimize import minimize

    import metabits as mb

    x = np.asarray(x, float)
    K = x.shape[-1] // 2
    t1 = mb.sdt.type1_sdt(x)
    start = mb.fit_meta_d(x, pad=_ML_PAD, meta_c="c")
    gaps = np.r_[np.log(np.diff(np.r_[start.t2c_S1, start.c]))[::-1],
                 np.log(np.diff(np.r_[start.c, start.t2c_S2]))]
    p = np.r_[start.meta_d, gaps]
    if joint:
        f, p = _hmetad_negloglik(x, K), np.r_[t1.d, t1.c, p]
    else:
        f = _hmetad_negloglik(x, K, float(t1.d), float(t1.c))
    value = f(p)
    for _ in range(20):
        p = minimize(f, p, method="BFGS", options={"gtol": 1e-10, "maxiter": 5000}).x
        p = minimize(f, p, method="Nelder-Mead",
                     options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 20_000}).x
        if value - f(p) < 1e-12:
            break
        value = f(p)
    else:
        raise RuntimeError("the maximum of HMeta-d's likelihood was not reached")
    if joint:
        return float(p[0]), float(p[1]), float(p[2])
    return float(t1.d), float(t1.c), float(p[0])


def servajean_gap_attribution(seed: int = 2026, *, tasks=None, prior_scale: float = 100.0,
                              chains: int = 4, draws: int = 1000, tune: int = 1000):
    """What separates HMeta-d's posterior mean M-ratio from the book's maximum likelihood, on
    :func:`servajean_tables`: a chain of fits that changes one thing at a time.

    From HMeta-d as the paper fitted it (:func:`servajean_bayes_refits`, shipped) to the book's
    maximum-likelihood fit (:func:`metabits.fit_meta_d`, every cell padded by 0.1, Maniscalco's
    meta-c = c·meta-d′/d′), each cell gets:

    1. ``flat``: HMeta-d with ``estimate_dprime=True`` and near-flat priors
       (:func:`metabits.fit_meta_d_bayes` with ``prior_scale``; same sampler seeds as the shipped
       refits): the posterior mean of meta-d′/d′ and its Monte Carlo SE.
    2. ``ml_joint``: the maximum of the same likelihood, d′, c, meta-d′ and the criteria
       together (the posterior's mode under flat priors): meta-d′/d′.
    3. ``ml_fixed``: the maximum of HMeta-d's ratings likelihood with d′ and c fixed at the
       unpadded counts' point estimates.
    4. ``ml_padded``: the same with every cell padded by 0.1 (d′, c and ratings;
       ``fit_meta_d(..., pad=0.1, meta_c="c")``).
    5. ``ml``: the book's fit, ``fit_meta_d(..., pad=0.1)``: meta-c = c·meta-d′/d′.

    Parameters
    ----------
    seed : int, default 2026
        Seed of the tables (:func:`servajean_tables`); cell (i, j)'s sampler gets
        ``seed + 3 i + j``, as in :func:`servajean_bayes_refits`.
    tasks : sequence of str, optional
        Only these tasks (default all three).
    prior_scale : float, default 100
        Multiplies every prior SD of the near-flat fit (> 0).
    chains, draws, tune : int, default 4, 1000, 1000
        NUTS settings of the near-flat fits.

    Returns
    -------
    pandas.DataFrame
        One row per task and model: ``task``, ``model``, ``flat`` and ``flat_mcse``, the flat
        fit's ``flat_d`` and ``flat_meta_d`` (posterior means), ``flat_r_hat``,
        ``flat_ess_bulk``, ``flat_divergences``; ``ml_joint`` (with its ``ml_joint_d`` and
        ``ml_joint_c``), ``ml_fixed`` (with the unpadded ``d`` and ``c``), ``ml_padded``,
        ``ml`` (M-ratios); ``prior_scale``, ``chains``, ``draws``, ``seed`` (the sampler's).
        The layout of ``data/servajean2026_gap_attribution.csv``.

    Raises
    ------
    ValueError
        For a bad seed, an unknown task, a ``prior_scale`` that is not a number > 0, or sampler
        sizes that are not integers >= 1.

    Notes
    -----
    Nine NUTS fits with K = 5 (needs ``metabits[bayes]``) and four maximum-likelihood fits a
    cell. The likelihood maxima of steps 2 and 3 see the counts unpadded, as HMeta-d does: an
    empty cell (no "S2, most confident" answer to S1 in task A's Mistral table) sends its
    criterion outwards until HMeta-d's floor of 10⁻⁵ holds its probability, and meta-d′ stays
    finite; ``fit_meta_d`` refuses such a table unpadded, which is why step 4 pads.
    """
    import pandas as pd

    import metabits as mb

    seed = _seed(seed)
    s1 = datasets.servajean_table_s1()
    tasks = list(s1.tasks) if tasks is None else [as_choice(t, s1.tasks, "task")
                                                  for t in _as_list(tasks, "tasks")]
    if isinstance(prior_scale, (bool, np.bool_)) or not isinstance(prior_scale,
                                                                   (int, float, np.number)) \
            or not np.isfinite(prior_scale) or not prior_scale > 0:
        raise ValueError(f"prior_scale must be a number > 0; got {prior_scale!r}")
    chains, draws = as_size(chains, "chains", most=64), as_size(draws, "draws", most=10 ** 6)
    tune = as_size(tune, "tune", most=10 ** 6)
    tables = servajean_tables(seed)
    rows = []
    for task in tasks:
        i = s1.tasks.index(task)
        for j, model in enumerate(s1.models):
            x = tables[i, j]
            flat = mb.fit_meta_d_bayes(x[0], x[1], estimate_dprime=True,
                                       prior_scale=float(prior_scale), chains=chains,
                                       draws=draws, tune=tune, seed=seed + 3 * i + j)
            dj, cj, mj = _hmetad_ml(x, joint=True)
            d0, c0, m0 = _hmetad_ml(x, joint=False)
            rows.append({
                "task": task, "model": model,
                "flat": float(flat.m_ratio.mean()), "flat_mcse": flat.mcse("m_ratio"),
                "flat_d": float(flat.d.mean()), "flat_meta_d": float(flat.meta_d.mean()),
                "flat_r_hat": flat.r_hat, "flat_ess_bulk": flat.ess_bulk,
                "flat_divergences": flat.divergences,
                "ml_joint": mj / dj, "ml_joint_d": dj, "ml_joint_c": cj,
                "ml_fixed": m0 / d0, "d": d0, "c": c0,
                "ml_padded": float(mb.fit_meta_d(x, pad=_ML_PAD, meta_c="c").m_ratio),
                "ml": float(mb.fit_meta_d(x, pad=_ML_PAD).m_ratio),
                "prior_scale": float(prior_scale), "chains": chains, "draws": draws,
                "seed": seed + 3 * i + j})
    return pd.DataFrame(rows)


def servajean_gap_table():
    """The shipped result of :func:`servajean_gap_attribution`
    (``data/servajean2026_gap_attribution.csv``).

    Returns
    -------
    pandas.DataFrame
        Nine rows, one per task and model, in the layout of :func:`servajean_gap_attribution`.

    Examples
    --------
    >>> t = servajean_gap_table()
    >>> len(t), bool((t.flat_r_hat < 1.01).all()), int(t.flat_divergences.sum())
    (9, True, 0)
    """
    return _read(SERVAJEAN_GAP)
