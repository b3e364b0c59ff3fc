"""Fleming's HMeta-d for a study: people, conditions within people, a reportable result.

:func:`hmetad` fits Fleming's (2017) hierarchical meta-d′ model to a study's trials (the tidy
trials of :func:`metabits.measure`) or count tables, with conditions within people:

* **One condition** (no ``condition`` column, or tables (n, 2, 2K)): HMeta-d's group model
  (``Bayes_metad_group_nodp.txt``), the model of :func:`metabits.sdt.fit_meta_d_bayes_group`.
* **C >= 2 conditions**: log M-ratio_sk = μ_k + ε_k·δ_sk per person s and condition k, with
  each condition's group mean μ_k ~ N(0, 1), Fleming's ε_k ~ Beta(1, 1) and δ_sk with SD σ_δk ~
  N⁺(0, 1) (so each condition's prior is the one-condition model's); a person's effects δ_s·
  are jointly normal across conditions with an LKJ(1) prior on their correlation — for C = 2 a
  uniform prior on ρ, as HMeta-d's ``Bayes_metad_group_corr.txt`` (whose SDs have gamma priors
  on their precisions instead). The confidence criteria have a group mean and SD per condition
  (HMeta-d's ``mu_c2[task]``, ``sigma_c2[task]``). NUTS samples an equivalent form: each
  condition's SD of log M-ratio σ_k = ε_k·σ_δk itself (σ_k | ε_k ~ N⁺(0, ε_k)), and the people's
  effects non-centred through the correlation's Cholesky factor.
* **Covariates** (``covariates=``): between-person effects on log M-ratio, HMeta-d's
  regression model (``Bayes_metad_group_regress_nodp.txt``): Σ_j β_j x_sj added to each
  person's log M-ratio in every condition, β_j ~ N(0, 1), the covariates centred. Sampled in
  the C-condition model's form, also for one condition (its prior is the group model's).
* **prior_scale** multiplies the SD of every fixed prior (1: the models above).
* **One person**: HMeta-d's single-subject model (``Bayes_metad.txt``, the model of
  :func:`metabits.sdt.fit_meta_d_bayes`), fitted per condition.

d′ and c of each person and condition are point estimates from the counts padded by 1/(2K)
(HMeta-d's default, ``adj_f``); the ratings are multinomial given the stimulus and the Type 1
response. The model code, its compilation (once per shape) and its sampler (NUTS, nutpie on
JAX) are :mod:`metabits.sdt._hmetad_model`'s, shared with :mod:`metabits.sdt._bayes_metad`.
PyMC, nutpie and ArviZ are imported on the first fit.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_count_table, as_int, as_probability, as_scalar

#: docstrings whose Examples sample with NUTS: marked slow by the test configuration
_SLOW_DOCTESTS = ("hmetad",)

__all__ = ["HMetaDFit", "hmetad"]

#: most chains of a fit (each is a thread's sampler state; a billion asks nutpie for 32 GB)
MAX_CHAINS = 64
#: most draws, and most tuning steps, per chain
MAX_DRAWS = 100_000
#: most numbers the posterior may hold (chains × draws × numbers per draw)
MAX_POSTERIOR = 10 ** 8
#: most posterior predictive tables kept (draws thinned evenly within each chain)
MAX_PREDICTIVE = 4000
#: the diagnostics' thresholds: a warning when R-hat exceeds RHAT_MAX or an ESS is below ESS_MIN
#: (Vehtari et al., 2021), or when any transition diverged
RHAT_MAX = 1.01
ESS_MIN = 400
#: the probability of the intervals of :meth:`HMetaDFit.summary` and :meth:`HMetaDFit.subjects`
LEVEL = 0.95


@dataclass(frozen=True)
class HMetaDFit(Result):
    """Result of :func:`hmetad`; also a mapping.

    The posterior, the observed counts, the pointwise log likelihood and posterior predictive
    tables are in :meth:`to_inference_data` (ArviZ); :meth:`summary` is the table to report,
    :meth:`subjects` the people's estimates.

    Attributes
    ----------
    participants, conditions : tuple
        The people's and the conditions' labels, in the order of the fit's axes (sorted; for count
        tables 0, 1, ...).
    counts : ndarray, shape (n, C, 2, 2K)
        The fitted count table of each person and condition.
    d, c : ndarray, shape (n, C)
        Type 1 d′ and c of each person and condition, from the counts padded by ``pad``.
    pad : float
        1/(2K), the toolbox's padding for d′ and c (the model sees the counts unpadded).
    r_hat : float
        The largest rank-normalised split R-hat over the identified quantities (group means and
        SDs, the people's M-ratios, the criteria and their group parameters, the correlations);
        NaN with one chain.
    ess_bulk, ess_tail : float
        The smallest bulk and tail effective sample sizes over the same quantities.
    divergences : int
        Divergent transitions after tuning (any means the posterior may be misrepresented).
    problems : tuple of str
        What the diagnostics found (divergences, R-hat above 1.01, ESS below 400): the text of the
        ``RuntimeWarning`` the fit gave; empty when there was nothing to say.
    chains, draws, tune : int
        Chains, draws kept per chain, tuning steps per chain.
    target_accept : float
        NUTS's target acceptance rate.
    seed : int
        The sampler's seed (drawn when none was given).
    trace : arviz.InferenceData
        As :meth:`to_inference_data` returns it.
    covariates : tuple of str
        The names of the covariates' coefficients (``column`` or ``column=level``; empty
        without covariates).
    prior_scale : float
        The factor of the priors' SDs (1: Fleming's).
    """

    participants: tuple
    conditions: tuple
    counts: np.ndarray
    d: np.ndarray
    c: np.ndarray
    pad: float
    r_hat: float
    ess_bulk: float
    ess_tail: float
    divergences: int
    problems: tuple
    chains: int
    draws: int
    tune: int
    target_accept: float
    seed: int
    trace: object
    covariates: tuple = ()
    prior_scale: float = 1.0

    def summary(self):
        """The group M-ratio of each condition, their paired differences, the correlations and
        the covariates' coefficients.

        Returns
        -------
        pandas.DataFrame
            One row per quantity: ``quantity`` (``"m_ratio"``, the group M-ratio exp(μ_k) —
            with covariates, at their means; for one person, that person's M-ratio;
            ``"difference"``, a later condition's group M-ratio minus an earlier one's;
            ``"correlation"``, the correlation across people of log M-ratio in two conditions;
            ``"beta[<name>]"``, a covariate's coefficient on log M-ratio, with covariates),
            ``condition`` (its label; ``"b - a"`` for a difference, ``"a, b"`` for a
            correlation, ``"all"`` for a coefficient, which is the same in every condition),
            the posterior ``mean``, ``median`` and
            ``sd``, the 95% equal-tailed interval (``eti_lo``, ``eti_hi``) and highest-density
            interval (``hdi_lo``, ``hdi_hi``), ``r_hat``, ``ess_bulk``, ``ess_tail``,
            ``mcse_mean`` (the Monte Carlo SE of the mean) and ``divergences`` (of the fit).
        """
        rows = []
        for quantity, label, draws in self._quantities():
            rows.append({"quantity": quantity, "condition": label, **_describe(draws)})
        frame = _frame(rows)
        frame["divergences"] = self.divergences
        frame.attrs.update(level=LEVEL, chains=self.chains, draws=self.draws)
        return frame

    def subjects(self):
        """Each person's M-ratio, meta-d′ and d′ in each condition.

        Returns
        -------
        pandas.DataFrame
            One row per person and condition: ``participant``, ``condition``, ``n_trials``,
            ``d`` and ``c`` (from the padded counts), the posterior mean and 95% equal-tailed
            interval of ``meta_d`` (``meta_d_lo``, ``meta_d_hi``) and ``m_ratio``
            (``m_ratio_lo``, ``m_ratio_hi``), and the M-ratio's ``r_hat`` and ``ess_bulk``.
        """
        import pandas as pd

        post = self.trace.posterior
        m = _flat(post["m_ratio"].values)  # (S, n, C)
        meta = _flat(post["meta_d"].values)
        q = [(1 - LEVEL) / 2, (1 + LEVEL) / 2]
        m_q, meta_q = np.quantile(m, q, axis=0), np.quantile(meta, q, axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rhat, ess = _rhat_ess(post["m_ratio"].values)
        n, C = self.d.shape
        frame = pd.DataFrame({
            "participant": np.repeat(np.asarray(self.participants, dtype=object), C),
            "condition": np.tile(np.asarray(self.conditions, dtype=object), n),
            "n_trials": self.counts.sum(axis=(-2, -1)).ravel(),
            "d": self.d.ravel(), "c": self.c.ravel(),
            "meta_d": meta.mean(0).ravel(), "meta_d_lo": meta_q[0].ravel(),
            "meta_d_hi": meta_q[1].ravel(),
            "m_ratio": m.mean(0).ravel(), "m_ratio_lo": m_q[0].ravel(),
            "m_ratio_hi": m_q[1].ravel(),
            "r_hat": np.asarray(rhat).ravel(), "ess_bulk": np.asarray(ess).ravel()})
        frame.attrs.update(level=LEVEL)
        return frame

    def to_inference_data(self):
        """The fit in ArviZ's terms.

        Returns
        -------
        arviz.InferenceData
            ``posterior`` (no transformed variables; dimensions ``participant``, ``condition``,
            ``criterion``: ``m_ratio``, ``meta_d``, ``t2c_S1``, ``t2c_S2``, and for a group
            ``mu_log_m_ratio``, ``group_m_ratio``, ``sigma_log_m_ratio``, ``mu_c2``,
            ``sigma_c2``, Fleming's ``epsilon`` and ``sigma_delta`` and, for two conditions or
            more, ``corr_log_m_ratio`` (``condition`` × ``condition2``); with covariates,
            ``beta`` (``covariate``)); ``observed_data`` and ``constant_data`` (``counts``;
            ``d``, ``c`` and, with covariates, their values ``covariates``, ``participant`` ×
            ``covariate``); ``log_likelihood`` (``counts``: the
            log probability of each person's ratings in each condition, so that ``az.loo`` and
            ``az.compare`` treat each person × condition as an observation);
            ``posterior_predictive`` (``counts``, tables drawn with the observed numbers of
            each Type 1 response, at most 4,000 draws, thinned evenly within each chain) and
            ``sample_stats``.
        """
        return self.trace

    def to_frame(self):
        """The summary (:meth:`summary`).

        Returns
        -------
        pandas.DataFrame
        """
        return self.summary()

    def _quantities(self):
        """(quantity, label, draws (chain, draw)) of each row of the summary."""
        post = self.trace.posterior
        conds = list(self.conditions)
        if "group_m_ratio" in post:
            ratio = post["group_m_ratio"].values  # (chain, draw, C)
        else:  # one person: their M-ratio
            ratio = post["m_ratio"].values[:, :, 0]
        out = [("m_ratio", _text(k), ratio[:, :, i]) for i, k in enumerate(conds)]
        pairs = [(i, j) for i in range(len(conds)) for j in range(i + 1, len(conds))]
        out += [("difference", f"{_text(conds[j])} - {_text(conds[i])}",
                 ratio[:, :, j] - ratio[:, :, i]) for i, j in pairs]
        if "corr_log_m_ratio" in post:
            corr = post["corr_log_m_ratio"].values
            out += [("correlation", f"{_text(conds[i])}, {_text(conds[j])}", corr[:, :, i, j])
                    for i, j in pairs]
        if "beta" in post:
            beta = post["beta"].values
            out += [(f"beta[{name}]", "all", beta[:, :, j])
                    for j, name in enumerate(self.covariates)]
        return out


def _text(label):
    return str(label.item() if isinstance(label, np.generic) else label)


def _flat(values):
    """(chain, draw, ...) -> (chain · draw, ...)."""
    return values.reshape((-1,) + values.shape[2:])


def _rhat_ess(values):
    """Rank-normalised split R-hat and bulk ESS of draws (chain, draw, ...), per entry."""
    import arviz as az

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = az.convert_to_dataset(values)
        return az.rhat(ds)["x"].values, az.ess(ds, method="bulk")["x"].values


def _describe(draws):
    """Posterior summary of one quantity's draws (chain, draw)."""
    import arviz as az

    flat = draws.ravel()
    lo, hi = np.quantile(flat, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # arviz's FutureWarning; R-hat of one chain
        ds = az.convert_to_dataset(draws)
        hdi = az.hdi(ds, hdi_prob=LEVEL)["x"].values
        return dict(mean=float(flat.mean()), median=float(np.median(flat)),
                    sd=float(flat.std(ddof=1)) if flat.size > 1 else float("nan"),
                    eti_lo=float(lo), eti_hi=float(hi), hdi_lo=float(hdi[0]),
                    hdi_hi=float(hdi[1]), r_hat=float(az.rhat(ds)["x"]),
                    ess_bulk=float(az.ess(ds, method="bulk")["x"]),
                    ess_tail=float(az.ess(ds, method="tail")["x"]),
                    mcse_mean=float(az.mcse(ds, method="mean")["x"]))


def _frame(rows):
    import pandas as pd

    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------- input


def _sampler(chains, draws, tune, target_accept, seed):
    chains = as_int(chains, "chains", least=1, most=MAX_CHAINS)
    draws = as_int(draws, "draws", least=1, most=MAX_DRAWS)
    tune = as_int(tune, "tune", least=0, most=MAX_DRAWS)
    if isinstance(target_accept, (bool, np.bool_)):
        raise ValueError(f"target_accept must be a number in (0, 1); got {target_accept!r}")
    target_accept = float(as_probability(as_scalar(target_accept, "target_accept"),
                                         "target_accept", 0.0, 1.0, low_open=True,
                                         high_open=True))
    if seed is None:
        seed = int(np.random.default_rng().integers(2 ** 31))
    else:
        seed = as_int(seed, "seed", least=0, most=2 ** 63 - 1)
    return dict(chains=chains, draws=draws, tune=tune, target_accept=target_accept, seed=seed,
                cores=1)


def _is_trials(data):
    import pandas as pd

    from metabits.io._trials import Trials

    return isinstance(data, (pd.DataFrame, Trials, str, bytes, os.PathLike)) or (
        isinstance(data, Mapping) and not isinstance(data, Result))


def _covariate_names(covariates):
    """The covariates' column names, a tuple of str (None: none)."""
    if covariates is None:
        return ()
    names = (covariates,) if isinstance(covariates, str) else covariates
    try:
        names = tuple(names)
    except TypeError:
        names = None
    if not names or not all(isinstance(c, str) for c in names) or len(set(names)) < len(names):
        raise ValueError("covariates must be a column name or a list of different column names "
                         f"(for trials), or an array (n_people, n_covariates) (for count "
                         f"tables); got {covariates!r}")
    return names


def _from_trials(data, columns, condition, read=None, covariates=None):
    """Count tables (n, C, 2, 2K) of a study's trials, the people's and conditions' labels, and
    the people's values of the covariate columns (a DataFrame, one row per person; None
    without covariates)."""
    import pandas as pd

    from metabits.io._trials import Trials, read_file, group_flags, read_trials

    read = {k: v for k, v in (read or {}).items() if v is not None}
    if condition is not None and not isinstance(condition, str):
        raise ValueError(f"condition must be a column name (a str); got {condition!r}")
    by = () if condition is None else (condition,)
    names = _covariate_names(covariates)
    if isinstance(data, Trials):
        if any(v is not None for v in columns.values()) or read:
            given = ", ".join(f"{k}=" for k, v in {**columns, **read}.items() if v is not None)
            raise ValueError("data are read trials (metabits.io.Trials): their columns are "
                             f"chosen already; got {given}")
        trials = data
        missing = [c for c in names if c not in trials.groups]
        if missing:
            raise ValueError(f"covariates={covariates!r}: read trials keep only their grouping "
                             f"columns {list(trials.groups)}, not {missing[0]!r}; read them "
                             f"with by=[..., {missing[0]!r}], or pass the trials' DataFrame")
        raw = trials.frame
        extra = [g for g in trials.groups
                 if g != trials.columns["subject"] and g not in by and g not in names]
        if len(extra) > 1 or (extra and condition is not None):
            raise ValueError(f"condition={condition!r}: the trials are grouped by "
                             f"{list(trials.groups)}; hmetad takes a person and one condition")
        if extra:
            raise ValueError(f"condition=None: the trials are grouped by {list(trials.groups)}; "
                             f"pass condition={extra[0]!r}")
        if not set(by) <= set(trials.groups):
            raise ValueError(f"condition={condition!r}: the trials are not grouped by it; read "
                             f"them with by={condition!r}")
    else:
        raw = None
        if names:  # the raw rows, for the covariates' values (read_trials drops some rows)
            if isinstance(data, pd.DataFrame):
                raw = data
            elif isinstance(data, Mapping):
                raw = pd.DataFrame(dict(data))
            else:
                raw = read_file(data)
            raw = raw.rename(columns=lambda c: str(c).replace("\ufeff", "").strip())
            for c in names:
                if c not in raw.columns:
                    raise ValueError(f"covariates={covariates!r}: the data have no column "
                                     f"{c!r} (columns: {[str(x) for x in raw.columns][:12]})")
            data = raw
        trials = read_trials(data, **columns, by=by, **read)
    subject = trials.columns["subject"]
    cov_values = None
    if names:
        cov_values = _person_values(raw, subject, names, covariates, by)
    tables = trials.tables()
    labels, counts = tables.labels, tables.counts
    flags = group_flags(counts)
    for i, fl in enumerate(flags):
        bad = [f for f in fl if f in ("one_stimulus", "one_response")]
        if bad:
            where = ", ".join(f"{col}={_plain(labels.iloc[i][col])!r}" for col in labels.columns)
            raise ValueError(f"{where or 'the trials'} cannot be fitted: "
                             f"{bad[0].replace('_', ' ')} in all its {int(counts[i].sum())} "
                             "trials")
    people = list(dict.fromkeys(labels[subject])) if subject is not None else ["the trials"]
    conds = list(dict.fromkeys(labels[condition])) if condition is not None else ["all"]
    n, C = len(people), len(conds)
    out = np.zeros((n, C) + counts.shape[1:], dtype=counts.dtype)
    seen = np.zeros((n, C), dtype=bool)
    p_index = {p: i for i, p in enumerate(people)}
    c_index = {c: i for i, c in enumerate(conds)}
    for row in range(len(counts)):
        i = p_index[labels[subject].iloc[row]] if subject is not None else 0
        k = c_index[labels[condition].iloc[row]] if condition is not None else 0
        out[i, k], seen[i, k] = counts[row], True
    if not seen.all():
        i, k = np.argwhere(~seen)[0]
        raise ValueError(f"{subject}={_text(people[i])!r} has no trials in "
                         f"{condition}={_text(conds[k])!r}: each person needs trials in every "
                         "condition (leave the person or the condition out)")
    if cov_values is not None:
        cov_values = cov_values.loc[people]
    return out, [_plain(p) for p in people], [_plain(c) for c in conds], cov_values


def _person_values(raw, subject, names, covariates, by):
    """One row per person of the covariate columns ``names`` of the trials ``raw``; ValueError
    for a missing value or a value that varies within a person."""
    if subject is None:
        raise ValueError(f"covariates={covariates!r}: the trials are one person's "
                         "(subject=False); covariates are the people's")
    for c in names:
        if c == subject or c in by:
            raise ValueError(f"covariates={covariates!r}: {c!r} is the "
                             f"{'subject' if c == subject else 'condition'} column")
    rows = raw[raw[subject].notna()]
    for c in names:
        gone = rows[c].isna()
        if gone.any():
            at = rows.index[np.flatnonzero(gone.to_numpy())[0]]
            raise ValueError(f"covariates={covariates!r}: column {c!r} has a missing value "
                             f"for {subject}={_text(rows.loc[at, subject])!r}")
        spread = rows.groupby(subject, sort=False)[c].nunique()
        if (spread > 1).any():
            who = spread.index[np.flatnonzero(spread.to_numpy() > 1)[0]]
            seen = list(dict.fromkeys(rows.loc[rows[subject] == who, c]))[:3]
            raise ValueError(f"covariates={covariates!r}: column {c!r} varies within "
                             f"{subject}={_text(who)!r} ({', '.join(map(repr, seen))}); a "
                             "covariate is constant within each person")
    return rows.groupby(subject, sort=False)[list(names)].first()


def _covariate_design(values, covariates):
    """The design matrix (n, J) of covariate columns (a DataFrame, one row per person) and the
    names of its columns: a numeric column as it is; any other (text, bool, categorical) as
    indicators of its levels after the first (sorted, or a categorical's order), named
    ``column=level``. ValueError for a column the same for every person, or collinear columns."""
    import pandas as pd

    columns, labels = [], []
    for name in values.columns:
        col = values[name]
        if col.dtype.kind in "iuf":
            x = col.to_numpy(dtype=float)
            if not np.isfinite(x).all():
                raise ValueError(f"covariates={covariates!r}: column {name!r} has a value that "
                                 "is missing or not finite")
            columns.append(x)
            labels.append(str(name))
            continue
        if isinstance(col.dtype, pd.CategoricalDtype):
            levels = [v for v in col.cat.categories if (col == v).any()]
        else:
            levels = sorted(col.unique(), key=lambda v: (str(type(v)), v))
        if len(levels) < 2:
            raise ValueError(f"covariates={covariates!r}: column {name!r} has one level "
                             f"({_text(levels[0])!r}) for every person")
        for level in levels[1:]:
            columns.append((col == level).to_numpy(dtype=float))
            labels.append(f"{name}={_text(level)}")
    x = np.column_stack(columns)
    centred = x - x.mean(axis=0)
    flat = np.flatnonzero(np.ptp(x, axis=0) == 0)
    if flat.size:
        raise ValueError(f"covariates={covariates!r}: {labels[flat[0]]!r} is the same for "
                         "every person (its effect cannot be told from the group mean)")
    if np.linalg.matrix_rank(centred) < x.shape[1]:
        raise ValueError(f"covariates={covariates!r}: the columns {labels} are collinear once "
                         f"centred ({x.shape[0]} people): leave one out")
    return x, labels


def _table_covariates(covariates, n):
    """Covariates of count tables: a DataFrame (n rows) or an array (n,) or (n, J)."""
    import pandas as pd

    if isinstance(covariates, pd.Series):
        covariates = covariates.to_frame()
    if isinstance(covariates, pd.DataFrame):
        if len(covariates) != n:
            raise ValueError(f"covariates: a row per person is needed ({n}); got "
                             f"{len(covariates)} rows")
        return _covariate_design(covariates.reset_index(drop=True), "<DataFrame>")
    if isinstance(covariates, str) or (isinstance(covariates, (list, tuple)) and covariates
                                       and all(isinstance(c, str) for c in covariates)):
        raise ValueError(f"covariates={covariates!r}: column names are for trials; for count "
                         "tables pass an array (n_people, n_covariates)")
    try:
        x = np.asarray(covariates, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"covariates must be numbers, an array (n_people, n_covariates); got "
                         f"{covariates!r}") from None
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] != n or x.shape[1] == 0:
        raise ValueError(f"covariates must have shape ({n},) or ({n}, n_covariates), a row per "
                         f"person; got shape {np.shape(covariates)}")
    bad = np.argwhere(~np.isfinite(x))
    if bad.size:
        raise ValueError(f"covariates must be finite; got {float(x[tuple(bad[0])])!r} for "
                         f"person {bad[0][0]}, covariate {bad[0][1]}")
    return _covariate_design(pd.DataFrame(x, columns=[str(j) for j in range(x.shape[1])]),
                             covariates if x.size <= 12 else f"<array of shape {x.shape}>")


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _from_tables(data):
    tables = as_count_table(data, "data", min_levels=2)
    if tables.ndim == 2:
        tables = tables[None, None]
    elif tables.ndim == 3:
        tables = tables[:, None]
    elif tables.ndim != 4:
        raise ValueError(f"data as count tables must have shape (n, 2, 2K) or (n, C, 2, 2K); "
                         f"got shape {tables.shape}")
    n, C = tables.shape[:2]
    return tables, list(range(n)), list(range(C))


# ----------------------------------------------------------------------------------- the fit


def hmetad(data, *, subject=None, stimulus=None, response=None, confidence=None, correct=None,
           condition=None, covariates=None, codes=None, bins=None, levels=None,
           prior_scale=1.0, chains=4, draws=1000, tune=1000, target_accept=0.95,
           seed=None) -> HMetaDFit:
    """Hierarchical Bayesian M-ratio of a study, conditions within people: Fleming's HMeta-d.

    Parameters
    ----------
    data : pandas.DataFrame, str, path-like or array_like
        One row per trial (or a CSV file of them), read as :func:`metabits.measure` reads them
        (:func:`metabits.io.read_trials`: column names, codes, missing values); or count tables,
        shape (n, 2, 2K) (one condition) or (n, C, 2, 2K) (people × conditions), in the
        library's layout (row 0 ``nR_S1``, row 1 ``nR_S2``), K >= 2.
    subject, stimulus, response, confidence, correct : str, optional
        The trials' columns, as in :func:`metabits.measure` (by default those with the usual
        names; ``subject=False`` for one person's trials). Only for trials.
    condition : str, optional
        The column of the condition (within people: each person needs trials in every
        condition). Only for trials; count tables carry their conditions on their second axis.
    covariates : str, sequence of str or array_like, optional
        Between-person covariates of log M-ratio (HMeta-d's regression model): log M-ratio_sk =
        μ_k + Σ_j β_j x_sj + the person's effect, with one coefficient β_j per covariate, the
        same in every condition. For trials, the name(s) of column(s) constant within each
        person: a numeric column as it is; any other (text, bool, categorical: a between-group
        column) as indicators of its levels against the first (sorted; a categorical's own
        order), one coefficient ``column=level`` per other level. For count tables, an array
        (n_people,) or (n_people, n_covariates), or a DataFrame with a row per person (its
        columns' names name the coefficients; an array's are 0, 1, ...). See Notes.
    codes, bins, levels : optional
        As in :func:`metabits.measure` (:func:`metabits.io.read_trials`): which stimulus and
        response labels are S1 and S2, how to bin continuous confidence, the whole confidence
        scale. Only for trials.
    prior_scale : float, default 1
        Multiplies the SD of every fixed prior, as in :func:`metabits.fit_meta_d_bayes`: for a
        group, those of the group means μ_k (1), of the SDs of the people's effects σ_δk (1), of
        the criteria's group mean and SD μ_c2, σ_c2 (10) and of the covariates' coefficients β_j
        (1); Fleming's ε ~ Beta(1, 1) and the correlations' LKJ(1) prior have no SD and stay.
        For one person, the single-subject model's priors (those of
        :func:`metabits.fit_meta_d_bayes`). 1 is Fleming's model; a large value (say 10) shows
        what the priors contribute (fit once at 1, once at 10). A finite number > 0. Each new
        value compiles the group model anew (once per shape).
    chains, draws, tune : int, default 4, 1000, 1000
        NUTS chains (1 to 64), draws kept per chain and tuning steps per chain (up to 100,000
        each).
    target_accept : float, default 0.95
        NUTS's target acceptance rate, in (0, 1); nearer 1 gives smaller steps and fewer
        divergences.
    seed : int, optional
        Seed of the sampler and of the posterior predictive draws; the same seed gives the same
        fit.

    Returns
    -------
    HMetaDFit
        ``summary()``: the group M-ratio per condition, their paired differences and the
        correlations across conditions, with intervals and diagnostics; ``subjects()``: each
        person's M-ratio, meta-d′ and d′ per condition; ``to_inference_data()``: ArviZ's
        InferenceData.

    Raises
    ------
    ValueError
        For bad data (as :func:`metabits.measure`; also a person without trials in a condition,
        one stimulus or one response in all of a person's trials of a condition, d′ = 0), column
        arguments with count tables, a bad covariate (an unknown column, a missing value, a
        value that varies within a person, the wrong number of rows, the same value for
        everyone, collinear covariates, covariates of one person), a ``prior_scale`` that is not
        a finite number > 0, or sampler settings out of their ranges.

    Warns
    -----
    RuntimeWarning
        When a transition diverged, an R-hat exceeds 1.01 or an effective sample size is below
        400, naming the quantity and what to try (more tuning, a target_accept nearer 1, more
        draws). The same text is in ``problems``.

    Notes
    -----
    Two or more people: the hierarchical model (see :mod:`metabits.sdt._hmetad`); one condition
    is HMeta-d's group model exactly. One person: HMeta-d's single-subject model, fitted to
    each condition on its own (there is no group to pool over; the differences between
    conditions are those of independent posteriors). The first fit of a shape (people,
    conditions, ratings) compiles the model (seconds); later fits reuse it.

    **Comparing models.** ``to_inference_data()`` holds the log likelihood of each person's
    ratings in each condition, so that ``az.loo`` and ``az.compare`` compare fits of the same
    observations by their expected log predictive density (PSIS-LOO), e.g. a study by
    condition with and without a between-group effect (``trials`` with columns ``task`` and
    ``group``)::

        import arviz as az
        without = hmetad(trials, condition="task", seed=1)
        with_group = hmetad(trials, condition="task", covariates="group", seed=1)
        az.loo(with_group.to_inference_data())  # one model's elpd_loo and Pareto k
        az.compare({"no group effect": without.to_inference_data(),
                    "group effect": with_group.to_inference_data()})

    A fit without ``condition`` pools each person's conditions into one table — other
    observations — and does not compare with a fit by condition: there the condition's effect
    is the interval of the ``difference`` rows of :meth:`HMetaDFit.summary`. Each person ×
    condition has its own meta-d′ and criteria, which leaving it out moves far: PSIS-LOO then
    often reports Pareto k above 0.7 (``az.loo(..., pointwise=True).pareto_k`` shows which
    observations), and its estimate is unreliable — ArviZ says so in its ``warning`` column;
    refitting without each flagged observation (or K-fold cross-validation over people) is the
    sound comparison then.

    **Covariates** follow HMeta-d's regression model (``fit_meta_d_mcmc_regression.m``,
    ``Bayes_metad_group_regress_nodp.txt``): each coefficient β_j ~ N(0, 1) (times
    ``prior_scale``) on the covariate in its own units, as HMeta-d's ``mu_beta ~ dnorm(0, 1)``
    on the covariate as the user passes it — not standardised here, so that β_j is the change
    of log M-ratio per unit of the covariate (exp(β_j) multiplies the M-ratio) and the prior is
    HMeta-d's; standardise a covariate yourself (e.g. ``(x - x.mean()) / x.std()``) when N(0, 1)
    per unit would be far too wide or too narrow for its units. The covariates are centred
    (their mean over people subtracted) before the fit, which changes no β_j but makes μ_k —
    and the ``m_ratio`` rows of :meth:`HMetaDFit.summary`, exp(μ_k) — the group's log M-ratio
    at the covariates' means (for an indicator, at the sample's mix of groups), not at zero.
    The people's effects keep the group model's priors (HMeta-d's regression model puts a
    gamma prior on their precision instead); the coefficients are in ``summary()`` (rows
    ``beta[<name>]``) and in the posterior as ``beta`` (coordinate ``covariate``), the
    covariates' values (uncentred) in ``constant_data``.

    References
    ----------
    Fleming (2017), HMeta-d: hierarchical Bayesian estimation of metacognitive efficiency from
    confidence ratings, Neuroscience of Consciousness 2017(1), nix007; its code,
    github.com/metacoglab/HMeta-d (``fit_meta_d_mcmc_group.m``, ``fit_meta_d_mcmc_groupCorr.m``).
    Lewandowski, Kurowicka & Joe (2009), Generating random correlation matrices based on vines
    and extended onion method, Journal of Multivariate Analysis 100(9), 1989–2001 (the LKJ prior).
    Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), Rank-normalization, folding, and
    localization: an improved R-hat, Bayesian Analysis 16(2), 667–718 (the diagnostics).

    Examples
    --------
    Twelve people simulated from Fleming's (2017) model in two conditions (d′ from 1.2 to 1.8,
    group M-ratio 0.8 in one condition and 0.6 in the other, 200 trials per stimulus and
    condition, 3 confidence levels); short chains, which warn about their ESS:

    >>> import warnings
    >>> import metabits as mb
    >>> rng = np.random.default_rng(3)
    >>> d = rng.uniform(1.2, 1.8, (12, 2))
    >>> m = np.exp(np.log([0.8, 0.6]) + 0.1 * rng.standard_normal((12, 2)))
    >>> tables = mb.sdt.simulate_ratings(d, m * d, 200, K=3, rng=4)[:, :, 0]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", RuntimeWarning)
    ...     fit = hmetad(tables, chains=2, draws=300, tune=300, seed=1)
    >>> s = fit.summary()
    >>> s[["quantity", "condition"]].values.tolist()
    [['m_ratio', '0'], ['m_ratio', '1'], ['difference', '1 - 0'], ['correlation', '0, 1']]
    >>> bool(s.eti_lo[2] < 0.6 - 0.8 < s.eti_hi[2])  # the difference's interval holds the truth
    True
    >>> fit.subjects().shape
    (24, 13)
    """
    from metabits.sdt._bayes_metad import _check_tables, _prior_scale

    args = _sampler(chains, draws, tune, target_accept, seed)
    scale = _prior_scale(prior_scale)
    columns = dict(subject=subject, stimulus=stimulus, response=response,
                   confidence=confidence, correct=correct)
    read = dict(codes=codes, bins=bins, levels=levels)
    x, names = None, []

    def one_person():
        raise ValueError(f"covariates={covariates!r}: covariates need two people or more (the "
                         "group model); the data are one person's")

    if _is_trials(data):
        counts, people, conds, values = _from_trials(data, columns, condition, read, covariates)
        if values is not None:
            if len(people) < 2:
                one_person()
            x, names = _covariate_design(values, covariates)
    else:
        given = {k: v for k, v in {**columns, "condition": condition, **read}.items()
                 if v is not None}
        if given:
            name, value = next(iter(given.items()))
            raise ValueError(f"{name}={value!r}: {name} is for trials; data are count tables")
        counts, people, conds = _from_tables(data)
        if covariates is not None:
            if len(people) < 2:
                one_person()
            x, names = _table_covariates(covariates, counts.shape[0])

    if np.all(counts == np.round(counts)):
        counts = counts.astype(np.int64)
    n, C, _, L = counts.shape
    K = L // 2

    def where(row):
        i, k = divmod(int(row), C)
        return (f" for participant {people[i]!r}"
                + ("" if C == 1 and conds == ["all"] else f", condition {conds[k]!r}"))

    flat, pad, d, c = _check_tables(counts.reshape(n * C, 2, L).astype(float), "data", False,
                                    None, where)
    J = 0 if x is None else x.shape[1]
    numbers = n * C * (5 * K + 2) + 6 * C + C * C + J
    if args["chains"] * args["draws"] * numbers > MAX_POSTERIOR:
        raise ValueError(f"draws: {args['chains']} chains × {args['draws']:,} draws of "
                         f"{numbers:,} numbers each would hold more than {MAX_POSTERIOR:,} "
                         "numbers; fewer draws or chains")
    d, c = d.reshape(n, C), c.reshape(n, C)
    if n == 1:
        post, stats = _fit_one_person(flat, d, c, K, C, args, scale)
    else:
        post, stats = _fit_group(flat, d, c, n, K, C, args, scale, x)
    trace, diag = _inference_data(post, stats, counts, d, c, people, conds, args, x, names)
    r_hat, ess_bulk, ess_tail, worst = diag
    divergences = int(np.sum(stats["diverging"]))
    problems = _problems(r_hat, ess_bulk, ess_tail, worst, divergences, args)
    if problems:
        warnings.warn(f"hmetad: {problems}", RuntimeWarning, stacklevel=2)
    return HMetaDFit(participants=tuple(people), conditions=tuple(conds), counts=counts,
                     d=d, c=c, pad=pad, r_hat=r_hat, ess_bulk=ess_bulk, ess_tail=ess_tail,
                     divergences=divergences, problems=(problems,) if problems else (),
                     chains=args["chains"], draws=args["draws"], tune=args["tune"],
                     target_accept=args["target_accept"], seed=args["seed"], trace=trace,
                     covariates=tuple(names), prior_scale=scale)


def _fit_group(flat, d, c, n, K, C, args, scale=1.0, x=None):
    """The hierarchical fit: posterior arrays (chain, draw, ...) in the shapes of (n, C); with
    covariates ``x`` (n, J), centred here, their coefficients ``beta`` (chain, draw, J)."""
    from metabits.sdt._hmetad_model import _compiled, _sample

    # the group models' sampler uses nutpie's low-rank modified mass matrix (as
    # fit_meta_d_bayes_group: it follows the ridge between the group mean and the people's effects)
    # chains side by side, one per core: the group model's gradient is large enough for XLA's
    # work (outside the GIL) to outweigh the threads' waiting (a fit of one person is not:
    # its chains run one after another); the draws are the same whatever the cores
    run = dict(args, low_rank=True, cores=max(1, min(args["chains"], os.cpu_count() or 1)))
    J = 0 if x is None else x.shape[1]
    data = {"counts": flat, "d": d.ravel(), "c": c.ravel()}
    if J:
        data["covariates"] = x - x.mean(axis=0)  # so that μ is the group mean at their means
    if C == 1 and not J:
        trace = _sample(_compiled("group", n, K, False, 1, 0, scale), data, run)
    else:
        # with covariates, one condition too is sampled in the conditions model's form: its
        # people's effects non-centred. Covariates that explain much of the people's spread
        # leave a small SD of log M-ratio, where the group model's centred effects form a funnel
        # (24 people simulated with a residual SD of 0.1, 2 × (250 + 250): one chain stuck,
        # every transition divergent, R-hat 2.2; non-centred, in three seeds, no divergence,
        # R-hat <= 1.012 and bulk ESS >= 450)
        trace = _sample(_compiled("conditions", n, K, False, C, J, scale), data, run)
    p = trace.posterior

    def get(name, shape):
        v = p[name].values
        return v.reshape(v.shape[:2] + shape)

    post = {"mu_log_m_ratio": get("mu_log_m_ratio", (C,)),
            "sigma_log_m_ratio": get("sigma_log_m_ratio", (C,)),
            "epsilon": get("epsilon", (C,)), "sigma_delta": get("sigma_delta", (C,)),
            "mu_c2": get("mu_c2", (C,)), "sigma_c2": get("sigma_c2", (C,)),
            "m_ratio": get("m_ratio", (n, C)), "meta_d": get("meta_d", (n, C)),
            "t2c_S1": get("t2c_S1", (n, C, K - 1)), "t2c_S2": get("t2c_S2", (n, C, K - 1))}
    post["group_m_ratio"] = np.exp(post["mu_log_m_ratio"])
    if C > 1:
        post["corr_log_m_ratio"] = get("corr_log_m_ratio", (C, C))
    if J:
        post["beta"] = get("beta", (J,))
    return post, {k: trace.sample_stats[k].values for k in ("diverging", "tree_depth",
                                                             "n_steps", "step_size", "lp")
                  if k in trace.sample_stats}


def _fit_one_person(flat, d, c, K, C, args, scale=1.0):
    """One person: HMeta-d's single-subject model per condition, stacked along the conditions."""
    from metabits.sdt._hmetad_model import _compiled, _sample

    parts, stats = [], []
    for k in range(C):
        data = {"counts": flat[k:k + 1], "prior_scale": np.array(scale), "d": d[0, k:k + 1],
                "c": c[0, k:k + 1]}
        trace = _sample(_compiled("single", 1, K, False), data, dict(args, seed=args["seed"] + k))
        parts.append(trace.posterior)
        stats.append(trace.sample_stats)

    def stack(name):  # (chain, draw, 1, ...) per condition -> (chain, draw, 1, C, ...)
        return np.stack([p[name].values for p in parts], axis=3)

    meta_d = stack("meta_d")
    post = {"meta_d": meta_d, "m_ratio": meta_d / d[None, None],
            "t2c_S1": stack("t2c_S1"), "t2c_S2": stack("t2c_S2")}
    keys = [k for k in ("diverging", "tree_depth", "n_steps", "step_size", "lp")
            if all(k in s for s in stats)]
    return post, {k: np.stack([s[k].values for s in stats], axis=-1) for k in keys}


# ------------------------------------------------------------------- InferenceData, diagnostics


def _log_likelihood_and_predictive(post, counts, c, args):
    """Pointwise log likelihood (chain, draw, n, C) of each person's ratings in each condition,
    and posterior predictive tables of a thinned set of draws (chain, kept, n, C, 2, 2K)."""
    from scipy.special import gammaln

    from metabits.sdt._bayes_checks import _hmetad_rating_probabilities

    chains, draws = post["meta_d"].shape[:2]
    n, C, _, L = counts.shape
    K = L // 2
    blocks = counts.reshape(n, C, 2, 2, K).astype(float)
    totals = blocks.sum(-1)
    const = (gammaln(totals + 1).sum((-2, -1)) - gammaln(blocks + 1).sum((-3, -2, -1)))
    loglik = np.empty((chains, draws, n, C))
    step = max(1, int(np.ceil(chains * draws / MAX_PREDICTIVE)))
    kept = np.arange(0, draws, step)
    rng = np.random.default_rng(args["seed"])
    predictive = np.empty((chains, len(kept), n, C, 2, L), dtype=np.int64)
    chunk = max(1, 200_000 // (n * C * L))  # draws at a time
    for ch in range(chains):
        for start in range(0, draws, chunk):
            stop = min(draws, start + chunk)
            p = _hmetad_rating_probabilities(post["meta_d"][ch, start:stop], c,
                                             post["t2c_S1"][ch, start:stop],
                                             post["t2c_S2"][ch, start:stop])  # (s, n, C, 2, 2, K)
            loglik[ch, start:stop] = const + (blocks * np.log(p)).sum((-3, -2, -1))
            take = (kept >= start) & (kept < stop)
            if take.any():
                drawn = rng.multinomial(np.rint(totals).astype(np.int64), p[kept[take] - start])
                predictive[ch, np.flatnonzero(take)] = drawn.reshape(drawn.shape[:3] + (2, L))
    return loglik, predictive, kept


def _inference_data(post, stats, counts, d, c, people, conds, args, x=None, names=()):
    import arviz as az

    n, C, _, L = counts.shape
    K = L // 2
    chains, draws = post["meta_d"].shape[:2]
    coords = {"chain": np.arange(chains), "draw": np.arange(draws),
              "participant": np.asarray(people, dtype=object),
              "condition": np.asarray(conds, dtype=object),
              "condition2": np.asarray(conds, dtype=object),
              "criterion": np.arange(1, K), "stimulus": ["S1", "S2"],
              "response": np.arange(1, L + 1), "covariate": np.asarray(names, dtype=object)}
    dims = {"mu_log_m_ratio": ["condition"], "group_m_ratio": ["condition"],
            "sigma_log_m_ratio": ["condition"], "epsilon": ["condition"],
            "sigma_delta": ["condition"], "mu_c2": ["condition"], "sigma_c2": ["condition"],
            "beta": ["covariate"],
            "corr_log_m_ratio": ["condition", "condition2"],
            "m_ratio": ["participant", "condition"], "meta_d": ["participant", "condition"],
            "t2c_S1": ["participant", "condition", "criterion"],
            "t2c_S2": ["participant", "condition", "criterion"]}

    def dataset(values, names=None, sample=True, draw=None):
        """A Dataset of arrays named in ``values``, with the dimensions ``names`` gives them
        (default: the posterior's), after chain and draw when ``sample``."""
        names = names or dims
        used = {k for v in values for k in names[v]} | ({"chain", "draw"} if sample else set())
        vcoords = {k: coords[k] for k in used}
        if draw is not None:
            vcoords["draw"] = draw
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return az.dict_to_dataset(values, coords=vcoords,
                                      dims={v: names[v] for v in values},
                                      default_dims=None if sample else [])

    order = ["group_m_ratio", "mu_log_m_ratio", "sigma_log_m_ratio", "corr_log_m_ratio", "beta",
             "m_ratio", "meta_d", "t2c_S1", "t2c_S2", "mu_c2", "sigma_c2", "epsilon",
             "sigma_delta"]
    posterior = dataset({k: post[k] for k in order if k in post})
    loglik, predictive, kept = _log_likelihood_and_predictive(post, counts, c, args)
    table_dims = {"counts": ["participant", "condition", "stimulus", "response"],
                  "d": ["participant", "condition"], "c": ["participant", "condition"],
                  "covariates": ["participant", "covariate"]}
    log_likelihood = dataset({"counts": loglik}, {"counts": ["participant", "condition"]})
    posterior_predictive = dataset({"counts": predictive}, table_dims, draw=kept)
    observed = dataset({"counts": counts}, table_dims, sample=False)
    constant = dataset({"d": d, "c": c, **({} if x is None else {"covariates": x})}, table_dims,
                       sample=False)
    # one person: a run per condition, so each sampler statistic has a condition axis
    sample_stats = dataset(stats, {k: ["condition"] if n == 1 else [] for k in stats})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        trace = az.InferenceData(posterior=posterior, log_likelihood=log_likelihood,
                                 posterior_predictive=posterior_predictive,
                                 observed_data=observed, constant_data=constant,
                                 sample_stats=sample_stats)
    return trace, _diagnostics(post)


def _diagnostics(post):
    """Largest R-hat, smallest bulk and tail ESS over the identified quantities, and the names of
    the quantities where they are reached."""
    import arviz as az

    names = [k for k in ("group_m_ratio", "sigma_log_m_ratio", "beta", "m_ratio", "t2c_S1",
                         "t2c_S2", "mu_c2", "sigma_c2") if k in post]
    values = {k: post[k] for k in names}
    if "corr_log_m_ratio" in post:
        C = post["corr_log_m_ratio"].shape[-1]
        i, j = np.triu_indices(C, 1)
        values["corr_log_m_ratio"] = post["corr_log_m_ratio"][:, :, i, j]
    rhat, bulk, tail = {}, {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # arviz's FutureWarning; R-hat of one chain
        for k, v in values.items():
            ds = az.convert_to_dataset(v)
            rhat[k] = np.ravel(az.rhat(ds)["x"].values)
            bulk[k] = np.ravel(az.ess(ds, method="bulk")["x"].values)
            tail[k] = np.ravel(az.ess(ds, method="tail")["x"].values)

    def extreme(table, fn):
        finite = {k: v[np.isfinite(v)] for k, v in table.items()}
        finite = {k: v for k, v in finite.items() if v.size}
        if not finite:
            return float("nan"), None
        k = (max if fn is np.max else min)(finite, key=lambda name: fn(finite[name]))
        return float(fn(finite[k])), k

    r, r_name = extreme(rhat, np.max)
    b, b_name = extreme(bulk, np.min)
    t, t_name = extreme(tail, np.min)
    return r, b, t, {"r_hat": r_name, "ess_bulk": b_name, "ess_tail": t_name}


def _problems(r_hat, ess_bulk, ess_tail, worst, divergences, args):
    """The diagnostics' findings and what to try, as one sentence (empty when all is well)."""
    found, tries = [], []
    if divergences:
        found.append(f"{divergences} divergent transition{'s' * (divergences > 1)} after tuning "
                     "(the posterior may be misrepresented)")
        higher = min(0.99, round(1 - (1 - args["target_accept"]) / 2, 3))
        if higher > args["target_accept"]:
            tries.append(f"a target_accept nearer 1 (e.g. target_accept={higher:g})")
        tries.append(f"more tuning (e.g. tune={max(2 * args['tune'], 1000)})")
    if r_hat > RHAT_MAX:
        found.append(f"R-hat up to {r_hat:.3f} (of {worst['r_hat']}) > {RHAT_MAX} (the chains "
                     "disagree)")
        tries.append(f"more tuning (e.g. tune={max(2 * args['tune'], 1000)})")
    low = min(ess_bulk, ess_tail)
    if low < ESS_MIN:
        kind, name = (("bulk", worst["ess_bulk"]) if ess_bulk <= ess_tail
                      else ("tail", worst["ess_tail"]))
        found.append(f"{kind} ESS down to {low:.0f} (of {name}) < {ESS_MIN} (too few "
                     "effective draws for the intervals)")
        need = int(np.ceil(args["draws"] * ESS_MIN / max(low, 1.0) / 100.0)) * 100
        tries.append(f"more draws (e.g. draws={min(max(need, 2 * args['draws']), MAX_DRAWS)})"
                     f"{' or chains' if args['chains'] < 4 else ''}")
    if not found:
        return ""
    tries = list(dict.fromkeys(tries))
    return "; ".join(found) + ". Try " + ", ".join(tries) + "."
