"""The maximum-likelihood fit of the meta-noise model (:mod:`metabits.sdt._meta_noise`): the
start, the optimisers and the fitted stack with its standard errors and status.

Fit: all tables at once by Fisher scoring (analytic gradient and expected information) with step
halving and the bounds :math:`0 \\le \\sigma^2 \\le 16` (a table whose likelihood falls with sigma
at sigma = 0 stops there: an estimate on the boundary, flagged; one still rising at the upper
bound is flagged as unbounded), from the best of a grid of sigma values at which the criteria
are matched to the observed rating proportions. Tables on which scoring converges slowly (the
expected information far from the observed) continue by Newton's method with the observed
Hessian (differences of the analytic gradient), and those on which both stall by L-BFGS-B
(scipy). A table that ends at the upper bound is fitted again from sigma = 0 and keeps the
higher maximum.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

from metabits.sdt._fisher import fisher_scoring, newton_step
from metabits.sdt._meta_noise_model import (_INV_SQRT_2PI, _loglik, _loglik_blocks, _nodes,
                                            _unpack)

#: a standard error of sigma_meta above this (the width of the fit's range of sigma_meta) says
#: the likelihood is flat in sigma: "sigma_unidentified"
_SE_FLAT = 4.0
#: largest sigma_meta**2 the fit goes to; a maximum there is "sigma_unbounded" (sigma_meta = 4,
#: a CASANDRE sigma_m of sqrt(e**16 - 1): confidence nearly independent of the evidence)
_S_MAX = 16.0


# --------------------------------------------------------------------------------- the start


#: the sigma_meta values of the starting grid (at each, the criteria match the observed ratings)
_GRID = (0.0, 0.5, 1.0, 1.8)


def _type1(counts):
    """d′, c, each side's observed P(rating >= j + 1 | response), j = 1 .. K−1 (n, 2, K−1),
    and the SDT rating model's criteria (distances from c, (n, 2, K−1)) of padded tables
    (n, 2, 2K)."""
    K = counts.shape[-1] // 2
    n_row = counts.sum(axis=-1)
    hr = counts[:, 1, K:].sum(-1) / n_row[:, 1]
    far = counts[:, 0, K:].sum(-1) / n_row[:, 0]
    zh, zf = ndtri(hr), ndtri(far)
    pooled = counts.sum(axis=1)  # (n, 2K)
    by_side = np.stack([pooled[:, :K][:, ::-1], pooled[:, K:]], axis=1)  # rating 1 .. K
    above = np.cumsum(by_side[..., ::-1], axis=-1)[..., ::-1]  # rating >= i
    d, c = zh - zf, -0.5 * (zh + zf)
    # SDT criteria: the cumulative splits' c_k (increasing in k), as distances from c
    tail = np.cumsum(counts[..., ::-1], axis=-1)[..., ::-1][..., 1:] / n_row[..., None]
    crit = -0.5 * (ndtri(tail[:, 1]) + ndtri(tail[:, 0]))  # (n, 2K - 1)
    sdt = np.stack([c[:, None] - crit[:, K - 2::-1], crit[:, K:] - c[:, None]], axis=1)
    sdt = np.maximum.accumulate(np.maximum(sdt, 1e-3), axis=-1)
    return d, c, above[..., 1:] / above[..., :1], sdt


def _match_criteria(d, c, s, target, counts, x0, iters=10):
    """Criteria medians (n, 2, K−1) that give each side's observed proportions of ratings
    (``target``, pooled over the stimuli) at d′, c and s: a safeguarded Newton search in
    log m, one criterion at a time (each proportion falls with its own criterion)."""
    n, _, J = target.shape
    mu = np.stack([-d / 2, d / 2], axis=1)
    a = np.stack([c[:, None] - mu, mu - c[:, None]], axis=2)  # (n, stimulus, side)
    n_row = counts.sum(axis=-1)  # (n, stimulus)
    resp = np.einsum("ns,nsr->nr", n_row, ndtr(a))  # model's responses per side
    lo, hi = np.full((n, 2, J), -12.0), np.full((n, 2, J), 6.0)  # bracket of log m
    x = np.clip(x0, -12, 6)
    for _ in range(iters):
        w, L = _nodes(s, np.exp(x), a)
        mL = (np.exp(x)[..., None] * L)[:, None]
        u = a[..., None, None] - mL
        f = np.einsum("nsrjq,nrjq,ns->nrj", ndtr(u), w, n_row) / resp[..., None]
        df = -np.einsum("nsrjq,nrjq,ns->nrj", _INV_SQRT_2PI * np.exp(-0.5 * u * u) * mL, w,
                        n_row) / resp[..., None]  # d f / d log m
        high = f > target  # proportion too high: the criterion must rise
        lo, hi = np.where(high, x, lo), np.where(high, hi, x)
        with np.errstate(all="ignore"):
            nxt = x - (f - target) / df
        x = np.where((nxt > lo) & (nxt < hi), nxt, 0.5 * (lo + hi))
    m = np.maximum.accumulate(np.exp(x), axis=-1)  # ordered (ties only where proportions tie)
    m = m * (1 + 1e-6 * np.arange(J))
    return m


def _start(counts):
    """Starting parameters (n, P): at each sigma of :data:`_GRID`, d′ and c of the counts and
    criteria matched to the observed rating proportions; the grid point of highest likelihood,
    and the one at sigma = 0 (the second start of :func:`_fit_stack`)."""
    n, _, L2 = counts.shape
    K = L2 // 2
    d, c, target, sdt = _type1(counts)
    x0 = np.log(sdt)
    best, best_ll, at_zero = None, np.full(n, -np.inf), None
    for sigma in _GRID:
        s = np.full(n, sigma ** 2)
        m = _match_criteria(d, c, s, target, counts, x0)
        inc = np.diff(np.concatenate([np.zeros((n, 2, 1)), m], axis=2), axis=2)
        theta = np.column_stack([d, c, np.log(inc).reshape(n, -1), s])
        ll = _loglik_blocks(theta, counts, derivatives=False)
        better = ll > best_ll
        best = theta if best is None else np.where(better[:, None], theta, best)
        best_ll = np.where(better, ll, best_ll)
        at_zero = theta if at_zero is None else at_zero
    return best, at_zero


# ----------------------------------------------------------------------------------- the fit


def _solve(F, g):
    """Scoring steps F⁻¹g (n, P), the systems scaled to a unit diagonal first (the information
    of s and of the criteria differ by orders of magnitude)."""
    P = F.shape[-1]
    scale = 1.0 / np.sqrt(np.maximum(np.abs(np.diagonal(F, axis1=1, axis2=2)), 1e-300))
    Fs = F * scale[:, :, None] * scale[:, None, :] + 1e-12 * np.eye(P)
    try:
        return np.linalg.solve(Fs, (g * scale)[..., None])[..., 0] * scale
    except np.linalg.LinAlgError:
        return np.stack([np.linalg.lstsq(f, x, rcond=None)[0]
                         for f, x in zip(Fs, g * scale)]) * scale


def _bounded_step(theta, g, F):
    """Fisher-scoring steps with the bounds 0 <= s <= _S_MAX: a table at a bound whose gradient
    or scoring step points out of it keeps s there (the other parameters take their scoring
    step); a step that would cross a bound is shortened to end on it. Returns the steps and the
    rises they promise."""
    s = theta[:, -1]
    step = _solve(F, g)
    held = (((s <= 0) & ((g[:, -1] <= 0) | (step[:, -1] < 0)))
            | ((s >= _S_MAX) & ((g[:, -1] >= 0) | (step[:, -1] > 0))))
    if held.any():
        Fh, gh = F[held].copy(), g[held].copy()
        Fh[:, -1, :], Fh[:, :, -1], Fh[:, -1, -1] = 0.0, 0.0, 1.0
        gh[:, -1] = 0.0
        step[held] = _solve(Fh, gh)
        g = g.copy()
        g[held, -1] = 0.0
    promised = 0.5 * np.einsum("np,np->n", g, step)
    ds = step[:, -1]
    low, high = s + ds < 0, s + ds > _S_MAX
    with np.errstate(all="ignore"):
        t = np.where(low, s / -ds, np.where(high, (_S_MAX - s) / ds, 1.0))
    step = step * np.clip(t, 0.0, 1.0)[:, None]
    step[low, -1], step[high, -1] = -s[low], _S_MAX - s[high]  # exactly on the bound
    return step, promised


def _hessian(theta, counts, h=1e-5):
    """The Hessian (n, P, P) of the log-likelihood in ``theta`` (s = sigma**2 last), by forward
    differences of the analytic gradient (steps up in s, so s stays >= 0)."""
    n, P = theta.shape
    steps = h * (1 + np.abs(theta))
    shifted = np.repeat(theta[None], P + 1, axis=0)  # (P + 1, n, P): unshifted, then each shift
    for k in range(P):
        shifted[k + 1, :, k] += steps[:, k]
    _, g, _ = _loglik_blocks(shifted.reshape(-1, P), np.tile(counts, (P + 1, 1, 1)))
    g = g.reshape(P + 1, n, P)
    H = (g[1:] - g[:1]).transpose(1, 0, 2) / steps[:, :, None]
    return 0.5 * (H + H.transpose(0, 2, 1)), g[0]


def _fisher_scoring(theta, counts, max_iter=40, xtol=1e-9):
    """Fisher scoring with step halving and the bounds on s (:func:`_bounded_step`) on a stack
    (:func:`metabits.sdt._fisher.fisher_scoring`); returns theta and a converged mask.

    A table is done when its promised rise is below :data:`~metabits.sdt._fisher.FLAT` times
    1 + |ll|, or every parameter's step is below ``xtol``. A step that lowers the
    log-likelihood is halved, at most 40 times; a table whose step still lowers it is left
    unconverged (to the fallback).
    """
    def information(th, rows):
        return _loglik_blocks(th, counts[rows])[1:]

    return fisher_scoring(theta, _ll(counts), information, _bounded_step, max_iter=max_iter,
                          xtol=xtol)


def _newton(theta, counts, max_iter=60):
    """Newton's method with the observed Hessian (its eigenvalues made negative where they are
    not), the bounds on s and step halving, for the tables on which scoring converges slowly
    (where the expected information is far from the observed one). Returns theta and a
    converged mask."""
    def information(th, rows):
        H, g = _hessian(th, counts[rows])
        return g, -H

    return fisher_scoring(theta, _ll(counts), information, newton_step(_bounded_step),
                          max_iter=max_iter)


def _ll(counts):
    """The log-likelihood of parameter rows of the tables ``rows`` of ``counts``."""
    return lambda th, rows: _loglik_blocks(th, counts[rows], derivatives=False)


def _fit_one(theta0, counts):
    """L-BFGS-B (scipy) on one table, with the bounds on s: the fallback where scoring stalls.
    Returns the parameters, or None if it finds no maximum."""
    from scipy.optimize import minimize  # imported here: slow to import, rarely needed

    scale = counts.sum()

    def neg(th):
        ll, g, _ = _loglik(th[None], counts[None])
        if not np.isfinite(ll[0]):
            return np.inf, np.zeros_like(th)
        return -ll[0] / scale, -g[0] / scale

    bounds = [(None, None)] * (len(theta0) - 1) + [(0.0, _S_MAX)]
    res = minimize(neg, theta0, jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"ftol": 1e-15, "gtol": 1e-10, "maxiter": 5000})
    g = -res.jac
    s = res.x[-1]
    free = np.ones_like(g, bool)
    free[-1] = not ((s <= 0 and g[-1] <= 0) or (s >= _S_MAX and g[-1] >= 0))
    if not (np.isfinite(res.fun) and np.max(np.abs(g[free])) < 1e-6):
        return None
    return res.x


def _observed_information(theta, counts, h=1e-5):
    """The observed information (n, P, P) in the parametrisation with sigma_meta in place of
    s = sigma_meta**2 (the likelihood is even and smooth in sigma; at sigma = 0 its curvature in
    sigma is twice the slope in s), by forward differences of the analytic gradient."""
    n, P = theta.shape
    sigma = np.sqrt(np.maximum(theta[:, -1], 0))

    def grad(psi):
        th = psi.copy()
        th[:, -1] = psi[:, -1] ** 2
        _, g, _ = _loglik_blocks(th, np.tile(counts, (len(psi) // n, 1, 1)))
        g[:, -1] *= 2 * psi[:, -1]
        return g

    psi = theta.copy()
    psi[:, -1] = sigma
    steps = h * (1 + np.abs(psi))
    shifted = np.repeat(psi[None], P + 1, axis=0)  # (P + 1, n, P): unshifted, then each shift
    for k in range(P):
        shifted[k + 1, :, k] += steps[:, k]
    g = grad(shifted.reshape(-1, P)).reshape(P + 1, n, P)
    H = (g[1:] - g[:1]).transpose(1, 0, 2) / steps[:, :, None]  # [n, k, :] = d g / d psi_k
    H = 0.5 * (H + H.transpose(0, 2, 1))
    return -H


def _optimise(start, counts):
    """Scoring, then Newton for the tables where it stalls, then L-BFGS-B for those where both
    do: theta (n, P) and a converged mask."""
    fitted, ok = _fisher_scoring(start, counts)
    slow = np.flatnonzero(~ok & np.all(np.isfinite(fitted), axis=1))
    if slow.size:
        fitted[slow], ok[slow] = _newton(fitted[slow], counts[slow])
    for i in np.flatnonzero(~ok):
        res = _fit_one(fitted[i] if np.all(np.isfinite(fitted[i])) else start[i], counts[i])
        if res is not None:
            fitted[i], ok[i] = res, True
    return fitted, ok


def _fit_stack(counts):
    """Fit padded tables (n, 2, 2K); a dict of arrays over the tables (criteria as mean
    distances from c, (n, 2, K−1)) with ``status``."""
    n, _, L2 = counts.shape
    K = L2 // 2
    P = 2 * K + 1
    status = np.full(n, "ok", dtype=object)
    theta = np.full((n, P), np.nan)
    n_row = counts.sum(axis=-1)
    s2 = counts[:, :, K:].sum(-1)
    infinite = np.any((s2 == 0) | (s2 == n_row), axis=1)
    status[infinite] = "d_infinite"
    idx = np.flatnonzero(~infinite)
    if idx.size:
        with np.errstate(all="ignore"):
            start, at_zero = _start(counts[idx])
        fitted, ok = _optimise(start, counts[idx])
        # a maximum at the upper bound of sigma may hide a higher one near sigma = 0 (the
        # likelihood can have both): those tables are fitted again from sigma = 0
        top = np.flatnonzero(fitted[:, -1] >= _S_MAX)
        if top.size:
            again, ok_again = _optimise(at_zero[top], counts[idx[top]])
            ll_top = _loglik_blocks(np.nan_to_num(fitted[top]), counts[idx[top]], False)
            ll_again = _loglik_blocks(np.nan_to_num(again), counts[idx[top]], False)
            better = ok_again & (~ok[top] | (ll_again > ll_top))
            fitted[top[better]], ok[top[better]] = again[better], True
        fitted[~ok] = np.nan
        status[idx[~ok]] = "no_convergence"
        theta[idx] = fitted
    good = np.all(np.isfinite(theta), axis=1)
    ll = np.full(n, np.nan)
    ll[good] = _loglik_blocks(theta[good], counts[good], derivatives=False)
    _, g, _ = (_loglik_blocks(theta[good], counts[good]) if good.any() else (None, None, None))
    s = theta[:, -1]
    sigma = np.sqrt(np.maximum(s, 0))
    zero, top = np.zeros(n, bool), np.zeros(n, bool)
    zero[good] = (s[good] <= 0) & (g[:, -1] <= 0)
    top[good] = (s[good] >= _S_MAX) & (g[:, -1] >= 0)
    status[zero], status[top] = "sigma_zero", "sigma_unbounded"
    se = np.full((n, 3), np.nan)  # d′, c, sigma_meta
    fin = good & ~top
    if fin.any():
        info = _observed_information(theta[fin], counts[fin])
        with np.errstate(all="ignore"):
            try:
                cov = np.linalg.inv(info)
            except np.linalg.LinAlgError:
                cov = np.stack([np.linalg.pinv(x) for x in info])
            var = np.diagonal(cov, axis1=1, axis2=2)[:, [0, 1, P - 1]]
            se[fin] = np.where(np.isfinite(var) & (var > 0), np.sqrt(np.abs(var)), np.nan)
    # a likelihood (nearly) flat in sigma over the fit's range, or without a strict maximum:
    # sigma is not estimated (e.g. d′ = 0, where the criteria absorb any sigma)
    flat = fin & ~(se[:, 2] <= _SE_FLAT)
    status[flat] = "sigma_unidentified"
    d, c, m, _, _ = _unpack(np.nan_to_num(theta), K)
    mean_crit = m * np.exp(np.nan_to_num(s) / 2)[:, None, None]  # mean criteria: statConfR's
    mean_crit[~good | top | flat] = np.nan  # where the fit stopped says nothing
    sigma[top] = np.inf
    sigma[flat], se[flat, 2] = np.nan, np.nan
    bad = ~good
    return dict(d=np.where(bad, np.nan, d), c=np.where(bad, np.nan, c),
                sigma_meta=np.where(bad, np.nan, sigma), se=se, criteria=mean_crit,
                log_likelihood=ll, status=status.astype(str))

