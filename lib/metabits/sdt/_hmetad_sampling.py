"""Sampling of :func:`metabits.sdt.hmetad`: the group, conditions and single-subject fits (their
model code and sampler are :mod:`metabits.sdt._hmetad_model`'s), the InferenceData with the
pointwise log likelihood and posterior predictive tables, and the convergence diagnostics."""

from __future__ import annotations

import os
import warnings

import numpy as np

from metabits.sdt._hmetad_data import MAX_DRAWS

#: most posterior predictive tables kept (draws thinned evenly within each chain)
MAX_PREDICTIVE = 4000
#: the diagnostics' thresholds: a warning when R-hat exceeds RHAT_MAX or an ESS is below ESS_MIN
#: (Vehtari et al., 2021), or when any transition diverged
RHAT_MAX = 1.01
ESS_MIN = 400


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
