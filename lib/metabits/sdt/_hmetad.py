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

The stages: the data into tables, :mod:`metabits.sdt._hmetad_data`; the sampling, the
InferenceData and the diagnostics, :mod:`metabits.sdt._hmetad_sampling`; the result, here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.sdt._hmetad_data import (_covariate_design, _frame, _from_tables, _from_trials,
                                       _is_trials, _sampler, _table_covariates, _text)
from metabits.sdt._hmetad_sampling import (_fit_group, _fit_one_person, _inference_data,
                                           _problems)

#: docstrings whose Examples sample with NUTS: marked slow by the test configuration
_SLOW_DOCTESTS = ("hmetad",)

__all__ = ["HMetaDFit", "hmetad"]

#: most numbers the posterior may hold (chains × draws × numbers per draw)
MAX_POSTERIOR = 10 ** 8
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
