"""Two model-based measures of metacognition by maximum likelihood: the lognormal meta-noise model
(Shekhar & Rahnev, 2021) and CASANDRE (Boundy-Singer, Ziemba & Goris, 2023), as statConfR 0.2.2
specifies them (its models "logN" and "CAS").

Both models are equal-variance SDT for the Type 1 choice: evidence :math:`x \\sim N(\\mp d'/2, 1)`
for S1/S2 stimuli, response "S2" when :math:`x > c`. Confidence compares :math:`|x - c|`, divided
by a lognormal factor :math:`L` drawn afresh on every trial, with fixed criteria
:math:`c_{R,1} < \\dots < c_{R,K-1}` on each response's side: the rating is at least
:math:`j + 1` when :math:`|x - c| / L > c_{R,j}`.

* **meta-noise** (statConfR's "logN"): the confidence criteria themselves are noisy, the
  criterion :math:`c_{R,j} L` lognormal with mean :math:`c_{R,j}` and log-scale
  :math:`\\sigma_{meta}` (one draw shared by all criteria of a trial, so they stay ordered):
  :math:`\\log L \\sim N(-\\sigma_{meta}^2/2, \\sigma_{meta}^2)`.
* **meta-uncertainty** (CASANDRE, statConfR's "CAS"): confidence is the evidence divided by a
  noisy estimate :math:`\\hat\\sigma = L` of its own noise, lognormal with mean 1 and standard
  deviation :math:`\\sigma_m`: :math:`\\log L \\sim N(-s^2/2, s^2)` with
  :math:`s^2 = \\log(1 + \\sigma_m^2)`.

So in statConfR's formulation the two are **one model in two parametrisations**:
:math:`\\sigma_{meta}^2 = \\log(1 + \\sigma_m^2)`, with the same criteria (statConfR's logN
reports them as positions :math:`c \\pm c_{R,j}` on the evidence axis, CAS as :math:`\\pm c_{R,j}`
on the axis of the confidence variable); their maximum likelihoods are equal. Both functions
use the one fit below and report its noise parameter on their own scale.

Likelihood: the probability of "rating >= j + 1 with response S2" to stimulus s is
:math:`E_Z[\\Phi(\\mu_s - c - m_j e^{\\sigma Z})]`, :math:`Z \\sim N(0, 1)`, where
:math:`m_j = c_{S2,j} e^{-\\sigma^2/2}` is the criterion's median (the parametrisation the fit
works in: the criteria do not drift with sigma); S1's side likewise with
:math:`c - \\mu_s`. The expectation is a trapezoid sum over Z, one window of nodes per
criterion (see :func:`_nodes`: spacing shrinking with sigma, the window ending where the
criterion's probability reaches 0, an Euler–Maclaurin end correction and the mass below the
window at its conditional mean of L), accurate to about 1e-9 relative up to sigma = 3 against
adaptive quadrature; the cells are differences of these. The derivative in
:math:`s = \\sigma^2` is taken through Stein's identity (:math:`E[Z h(Z)] = E[h'(Z)]`), so it
stays finite at sigma = 0, where the model is the SDT rating model.

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

from dataclasses import dataclass

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri

from metabits.results import Result
from metabits.validation import as_count_table, as_pad, scalar_or_array

__all__ = ["MetaNoiseFit", "MetaUncertaintyFit", "fit_meta_noise", "fit_meta_uncertainty"]

_INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)
_ROWS = ("nR_S1", "nR_S2")

#: what ``status`` says of each table's fit
STATUS = {
    "ok": "an interior maximum",
    "sigma_zero": "the maximum is at sigma = 0 (the SDT rating model): the ratings are at least "
                  "as informative as the SDT observer's; the standard error is the likelihood's "
                  "curvature there, so sigma <= 1.96 se is the 95% likelihood-ratio bound",
    "sigma_unbounded": "the likelihood still rises at sigma_meta = 4 (sigma_m = 8,900), the "
                       "fit's bound: the ratings carry next to no information about accuracy "
                       "beyond the Type 1 response; sigma is reported as inf, without a "
                       "standard error or criteria",
    "sigma_unidentified": "the likelihood is (nearly) flat in sigma (standard error above 4, "
                          "or no strict maximum), as where d′ = 0: sigma, its standard error "
                          "and the criteria are NaN; d′, c and the log-likelihood are given",
    "d_infinite": "a hit or false-alarm rate of 0 or 1 (pad the counts): no fit, NaN",
    "no_convergence": "the optimisers found no maximum: NaN",
}

# ---------------------------------------------------------------------------------- quadrature

#: trapezoid nodes over Z ~ N(0, 1)
_Q = 171
#: node spacing in Z while sigma <= _KAPPA / _H0 (the nodes then span |Z| <= 8.5)
_H0 = 0.1
#: largest node spacing in sigma * Z (the log of the noise factor) for larger sigma
_KAPPA = 0.1
#: a standard error of sigma_meta above this (the width of the fit's range of sigma_meta) says
#: the likelihood is flat in sigma: "sigma_unidentified"
_SE_FLAT = 4.0
#: largest sigma_meta**2 the fit goes to; a maximum there is "sigma_unbounded" (sigma_meta = 4
#: is a CASANDRE sigma_m of 8,900: confidence nearly independent of the evidence)
_S_MAX = 16.0


def _nodes(s, m, a):
    """Quadrature over Z for each criterion: weights ``w`` and noise factors
    ``L = exp(sigma Z)``, both (n, 2, K − 1, Q + 1), for criteria medians ``m`` (n, 2, K − 1)
    and the distances ``a`` (n, stimulus, side) of the stimulus means beyond c.

    The nodes are spaced ``h = min(h0, kappa / sigma)`` and end where the criterion times L
    passes ``max(a) + 8.5`` (above, every probability of a rating above this criterion is 0 to
    double precision: the mass there is left out), or at Z = 8.5. Trapezoid weights, with the
    lowest node's weight halved and corrected by the Euler–Maclaurin term of the density's
    slope there (the integrand is flat at that end); the last node stands for the mass below
    the nodes, at the conditional mean of L there (the integrand's first-order change in that
    tail is exact)."""
    Q, h0, kappa = _Q, _H0, _KAPPA
    sigma = np.sqrt(np.maximum(s, 0.0))[:, None, None]
    h = np.minimum(h0, kappa / np.maximum(sigma, 1e-300))
    top = np.log(np.maximum(a.max(axis=1), 0.0) + 8.5)[:, :, None]  # (n, side, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z_top = np.where(sigma > 0, (top - np.log(m)) / sigma, np.inf)
    # at most 8.5; at least -8.5: a criterion beyond max(a) + 8.5 even at Z = -8.5 has no mass
    # above it to speak of, and a tiny sigma would otherwise send the nodes to -1e150
    z_top = np.clip(z_top, -8.5, 8.5)
    z = z_top[..., None] - h[..., None] * np.arange(Q - 1, -1, -1)  # (n, 2, K-1, Q)
    shape = z.shape[:-1] + (Q + 1,)
    w, L = np.empty(shape), np.empty(shape)
    pdf = _INV_SQRT_2PI * np.exp(-0.5 * z * z)
    w[..., :-1] = h[..., None] * pdf
    z0, h_ = z[..., 0], np.broadcast_to(h, z_top.shape)
    w[..., 0] = 0.5 * h_ * pdf[..., 0] - h_ ** 2 / 12 * z0 * pdf[..., 0]
    w[..., -1] = ndtr(z0)
    L[..., :-1] = np.exp(sigma[..., None] * z)
    L[..., -1] = np.exp(0.5 * np.square(sigma) + log_ndtr(z0 - sigma) - log_ndtr(z0))
    return w, L


def _unpack(theta, K):
    """d′, c, the criteria's medians ``m`` (n, 2, K−1; side S1 then S2, nearest c first) and
    s = sigma_meta**2 from the parameter vectors (n, 2K+1)."""
    d, c, s = theta[:, 0], theta[:, 1], theta[:, -1]
    inc = np.exp(theta[:, 2:2 * K].reshape(-1, 2, K - 1))
    return d, c, np.cumsum(inc, axis=2), inc, s


#: d a / d d′ and d a / d c of a = mu_s - c (side S2) and c - mu_s (side S1), by (stimulus, side)
_DA_DD = np.array([[0.5, -0.5], [-0.5, 0.5]])
_DA_DC = np.array([[1.0, -1.0], [1.0, -1.0]])


def _probabilities(theta, K, derivatives=True):
    """Cell probabilities (n, 2, 2K) of tables in the library's layout and, if ``derivatives``,
    their derivatives (n, 2, 2K, P) with respect to ``theta = (d′, c, log-increments of the
    criteria's medians on side S1 then S2, sigma_meta**2)``."""
    n, P = theta.shape
    d, c, m, inc, s = _unpack(theta, K)
    mu = np.stack([-d / 2, d / 2], axis=1)  # (n, stimulus)
    # a = distance of the stimulus mean beyond c on each response's side: (n, stimulus, side)
    a = np.stack([c[:, None] - mu, mu - c[:, None]], axis=2)
    w, L = _nodes(s, m, a)
    mL = m[..., None] * L  # (n, side, K-1, Q+1)
    u = a[:, :, :, None, None] - mL[:, None]
    G = np.empty((n, 2, 2, K + 1))  # P(rating >= j + 1 and this response), j = 0 .. K
    G[..., 0] = ndtr(a)
    G[..., 1:K] = np.einsum("nsrjq,nrjq->nsrj", ndtr(u), w)
    G[..., K] = 0.0
    side = G[..., :-1] - G[..., 1:]  # P(rating i and this response), i = 1 .. K: (n, 2, 2, K)
    p = np.concatenate([side[:, :, 0, ::-1], side[:, :, 1]], axis=2)
    if not derivatives:
        return p, None
    phi = _INV_SQRT_2PI * np.exp(-0.5 * u * u)
    phi_a = _INV_SQRT_2PI * np.exp(-0.5 * a * a)
    E0 = np.einsum("nsrjq,nrjq->nsrj", phi, w)
    E1 = np.einsum("nsrjq,nrjq->nsrj", phi, w * L)  # E[L phi(u)]
    E2 = np.einsum("nsrjq,nrjq->nsrj", phi * u, w * L * L)  # E[L^2 u phi(u)]
    dG = np.zeros((n, 2, 2, K + 1, P))
    base = np.concatenate([phi_a[..., None], E0], axis=3)  # d G_j / d a, j = 0 .. K-1
    dG[..., :K, 0] = base * _DA_DD[None, :, :, None]
    dG[..., :K, 1] = base * _DA_DC[None, :, :, None]
    # criteria: d G_j / d log-increment k = -E1_j * inc_k for k <= j (same side)
    tri = np.tril(np.ones((K - 1, K - 1)))  # [j, k] = 1 for k <= j
    for r in range(2):
        cols = slice(2 + r * (K - 1), 2 + (r + 1) * (K - 1))
        dG[:, :, r, 1:K, cols] = -E1[:, :, r, :, None] * (inc[:, None, r, None, :] * tri)
    # s = sigma**2, by Stein's identity: d G_j / d s = -m_j (E1_j + m_j E2_j) / 2
    dG[..., 1:K, P - 1] = -0.5 * m[:, None] * (E1 + m[:, None] * E2)
    dside = dG[..., :-1, :] - dG[..., 1:, :]
    dp = np.concatenate([dside[:, :, 0, ::-1], dside[:, :, 1]], axis=2)
    return p, dp


def _loglik(theta, counts, derivatives=True):
    """Log-likelihood :math:`\\sum n \\log p` (n,) of (padded) tables (n, 2, 2K) and, if
    ``derivatives``, its gradient (n, P) and expected information (n, P, P)."""
    K = counts.shape[-1] // 2
    with np.errstate(all="ignore"):
        p, dp = _probabilities(theta, K, derivatives)
        logp = np.log(np.where(counts > 0, p, 1.0))
        ll = np.sum(counts * logp, axis=(1, 2))
        ll = np.where(np.isfinite(ll) & np.all((p > 0) | (counts == 0), axis=(1, 2)), ll, -np.inf)
        if not derivatives:
            return ll
        ratio = np.where(counts > 0, counts / p, 0.0)
        grad = np.einsum("nsj,nsjp->np", ratio, dp)
        n_rows = counts.sum(axis=-1, keepdims=True)  # trials per stimulus
        weight = np.where(p > 0, n_rows / p, 0.0).reshape(len(p), -1, 1)
        cells = dp.reshape(len(p), -1, dp.shape[-1])
        fisher = np.matmul(cells.transpose(0, 2, 1), weight * cells)
    return ll, grad, fisher


#: numbers of (tables × 4(K−1) × nodes) per call of :func:`_loglik` in :func:`_loglik_blocks`
_BLOCK_CELLS = 2_000_000


def _loglik_blocks(theta, counts, derivatives=True):
    """:func:`_loglik` of a stack of any size, a block of tables at a time (bounded memory)."""
    K = counts.shape[-1] // 2
    block = max(1, _BLOCK_CELLS // (4 * (K - 1) * _Q))
    n = len(theta)
    if n <= block:
        return _loglik(theta, counts, derivatives)
    parts = [_loglik(theta[i:i + block], counts[i:i + block], derivatives)
             for i in range(0, n, block)]
    if not derivatives:
        return np.concatenate(parts)
    return tuple(np.concatenate(part) for part in zip(*parts))


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


#: the rise of the log-likelihood a scoring step promises, relative to 1 + |ll|, below which a
#: table's fit ends
_FLAT = 1e-12


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


def _fisher_scoring(theta, counts, max_iter=40, xtol=1e-9):
    """Fisher scoring with step halving on a stack; returns theta and a converged mask.

    A table is done when its promised rise is below :data:`_FLAT` times 1 + |ll|, or every
    parameter's step is below ``xtol``. A step that lowers the log-likelihood is halved, at most
    40 times; a table whose step still lowers it is left unconverged (to the fallback).
    """
    theta = theta.copy()
    ll, g, F = _loglik_blocks(theta, counts)
    active = np.isfinite(ll)
    converged = np.zeros(len(theta), bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(active)
        if not idx.size:
            break
        step, promised = _bounded_step(theta[idx], g[idx], F[idx])
        bad = ~np.all(np.isfinite(step), axis=1)
        active[idx[bad]] = False
        done = ~bad & ((promised <= _FLAT * (1.0 + np.abs(ll[idx])))
                       | np.all(np.abs(step) < xtol, axis=1))
        converged[idx[done]], active[idx[done]] = True, False
        keep = ~bad & ~done
        idx, step = idx[keep], step[keep]
        if not idx.size:
            break
        t = np.ones(len(idx))
        cand = theta[idx] + step
        ll_c = _loglik_blocks(cand, counts[idx], derivatives=False)
        worse = ~(ll_c >= ll[idx])
        for _ in range(40):
            if not worse.any():
                break
            t[worse] *= 0.5
            w = np.flatnonzero(worse)
            cand[w] = theta[idx[w]] + t[w, None] * step[w]
            ll_c[w] = _loglik_blocks(cand[w], counts[idx[w]], derivatives=False)
            worse[w] = ~(ll_c[w] >= ll[idx[w]])
        active[idx[worse]] = False  # no ascent along the scoring direction: the fallback's
        idx, cand = idx[~worse], cand[~worse]
        theta[idx] = cand
        ll[idx], g[idx], F[idx] = _loglik_blocks(cand, counts[idx])
    return theta, converged


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


def _newton(theta, counts, max_iter=60):
    """Newton's method with the observed Hessian (its eigenvalues made negative where they are
    not) and step halving, for the tables on which scoring converges slowly (where the expected
    information is far from the observed one). Returns theta and a converged mask."""
    theta = theta.copy()
    n = len(theta)
    ll = _loglik_blocks(theta, counts, derivatives=False)
    active = np.isfinite(ll)
    converged = np.zeros(n, bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(active)
        if not idx.size:
            break
        H, g = _hessian(theta[idx], counts[idx])
        finite = np.all(np.isfinite(H), axis=(1, 2)) & np.all(np.isfinite(g), axis=1)
        active[idx[~finite]] = False
        idx, H, g = idx[finite], H[finite], g[finite]
        if not idx.size:
            break
        lam, V = np.linalg.eigh(-H)
        lam = np.maximum(np.abs(lam), 1e-10 * np.abs(lam).max(axis=1, keepdims=True) + 1e-300)
        A = np.einsum("npk,nk,nqk->npq", V, lam, V)
        step, promised = _bounded_step(theta[idx], g, A)
        bad = ~np.all(np.isfinite(step), axis=1)
        active[idx[bad]] = False
        done = ~bad & ((promised <= _FLAT * (1.0 + np.abs(ll[idx])))
                       | np.all(np.abs(step) < 1e-9, axis=1))
        converged[idx[done]], active[idx[done]] = True, False
        keep = ~bad & ~done
        idx, step = idx[keep], step[keep]
        t = np.ones(len(idx))
        cand = theta[idx] + step
        ll_c = _loglik_blocks(cand, counts[idx], derivatives=False)
        worse = ~(ll_c >= ll[idx])
        for _ in range(40):
            if not worse.any():
                break
            t[worse] *= 0.5
            w = np.flatnonzero(worse)
            cand[w] = theta[idx[w]] + t[w, None] * step[w]
            ll_c[w] = _loglik_blocks(cand[w], counts[idx[w]], derivatives=False)
            worse[w] = ~(ll_c[w] >= ll[idx[w]])
        active[idx[worse]] = False
        theta[idx[~worse]], ll[idx[~worse]] = cand[~worse], ll_c[~worse]
    return theta, converged


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


# ------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class MetaNoiseFit(Result):
    """Results of :func:`fit_meta_noise`; also a mapping (``fit["sigma_meta"]``).

    Floats (and strings) for one table; arrays over the tables (criteria: one more axis, K − 1)
    for a stack.

    Attributes
    ----------
    d : float or ndarray
        Type 1 sensitivity d′ of the model (fitted jointly with the ratings: close to, but not
        the same as, :math:`z(HR) - z(FAR)`).
    c : float or ndarray
        Type 1 criterion (statConfR's ``c``, the model's θ): response "S2" where the evidence
        exceeds it.
    sigma_meta : float or ndarray
        The meta-noise: the log-scale standard deviation of the lognormal noise on the
        confidence criteria (statConfR's ``sigma``). 0 is the SDT rating model (no
        metacognitive loss), larger is worse metacognition; ``inf`` where the likelihood rises
        without bound (``status`` "sigma_unbounded").
    se_sigma_meta, se_d, se_c : float or ndarray
        Standard errors from the observed information (the negative Hessian of the
        log-likelihood at the maximum, by differences of its analytic gradient, inverted). At
        sigma_meta = 0 ("sigma_zero") the likelihood is even in sigma and its curvature there
        gives ``se_sigma_meta``, so ``1.96 * se_sigma_meta`` is the 95% likelihood-ratio upper
        bound. NaN for "sigma_unbounded" and for the tables without a fit.
    t2c_S1 : ndarray, shape (K − 1,) or (..., K − 1)
        The mean positions of the "S1" responses' confidence criteria on the evidence axis,
        increasing (most confident boundary first), all below ``c`` (statConfR's
        ``M_theta_minus``); NaN for "sigma_unbounded" (where the fit stopped says nothing).
    t2c_S2 : ndarray, shape (K − 1,) or (..., K − 1)
        The "S2" responses' criteria, increasing, all above ``c`` (``M_theta_plus``).
    log_likelihood : float or ndarray
        :math:`\\sum n \\log p` of the (padded) counts at the maximum, no multinomial constant
        (statConfR's ``-negLogLik``).
    status : str or ndarray of str
        "ok", "sigma_zero" (the maximum is at sigma_meta = 0), "sigma_unbounded",
        "sigma_unidentified" (sigma NaN: the likelihood is flat in it), "d_infinite" or
        "no_convergence" (both: every number NaN); see :data:`STATUS`.
    pad : float
        The constant that was added to every cell.
    """

    d: object
    c: object
    sigma_meta: object
    se_sigma_meta: object
    se_d: object
    se_c: object
    t2c_S1: np.ndarray
    t2c_S2: np.ndarray
    log_likelihood: object
    status: object
    pad: float


@dataclass(frozen=True)
class MetaUncertaintyFit(Result):
    """Results of :func:`fit_meta_uncertainty`; also a mapping (``fit["sigma_m"]``).

    Floats (and strings) for one table; arrays over the tables (criteria: one more axis, K − 1)
    for a stack.

    Attributes
    ----------
    d : float or ndarray
        Type 1 sensitivity d′ of the model (fitted jointly with the ratings).
    c : float or ndarray
        Type 1 criterion (statConfR's ``c``).
    sigma_m : float or ndarray
        The meta-uncertainty: the standard deviation of the observer's lognormal estimate of its
        own (unit) sensory noise (statConfR's ``sigma``). 0 is the SDT rating model, larger is
        worse metacognition; ``inf`` where the likelihood rises without bound.
    se_sigma_m, se_d, se_c : float or ndarray
        Standard errors from the observed information (``se_sigma_m`` by the delta method from
        the meta-noise fit's); NaN where ``status`` says why.
    t2c_S1 : ndarray, shape (K − 1,) or (..., K − 1)
        The "S1" responses' confidence criteria on the axis of the confidence variable
        :math:`(x - c)/\\hat\\sigma`, increasing (most confident boundary first), all below 0
        (statConfR's ``theta_minus``); NaN for "sigma_unbounded".
    t2c_S2 : ndarray, shape (K − 1,) or (..., K − 1)
        The "S2" responses' criteria, increasing, all above 0 (``theta_plus``).
    log_likelihood : float or ndarray
        :math:`\\sum n \\log p` of the (padded) counts at the maximum (statConfR's
        ``-negLogLik``).
    status : str or ndarray of str
        As :class:`MetaNoiseFit`'s.
    pad : float
        The constant that was added to every cell.
    """

    d: object
    c: object
    sigma_m: object
    se_sigma_m: object
    se_d: object
    se_c: object
    t2c_S1: np.ndarray
    t2c_S2: np.ndarray
    log_likelihood: object
    status: object
    pad: float


def sigma_m_from_sigma_meta(sigma_meta):
    """CASANDRE's sigma_m of a meta-noise sigma_meta (the same model in statConfR's forms):
    :math:`\\sigma_m = \\sqrt{e^{\\sigma_{meta}^2} - 1}`."""
    with np.errstate(over="ignore"):
        return np.sqrt(np.expm1(np.square(sigma_meta)))


def _fit(counts, pad):
    """Validate, pad and fit; the fields as arrays over the flat stack, and the leading shape."""
    table = as_count_table(counts, "counts", min_levels=2, row_names=_ROWS)
    K = table.shape[-1] // 2
    pad = as_pad(pad, K)
    lead = table.shape[:-2]
    flat = table.reshape((-1,) + table.shape[-2:]) + pad
    return _fit_stack(flat), lead, float(pad)


def _shape(cls, fields, lead, pad):
    if not lead:
        out = {k: (v[0] if k == "status" else scalar_or_array(v[0])) for k, v in fields.items()}
        out["status"] = str(fields["status"][0])
    else:
        out = {k: v.reshape(lead + v.shape[1:]) for k, v in fields.items()}
    return cls(**out, pad=pad)


def fit_meta_noise(counts, pad=None) -> MetaNoiseFit:
    """Maximum-likelihood fit of the lognormal meta-noise model (Shekhar & Rahnev, 2021) to a
    table or a stack of tables, as statConfR's ``fitConf(model = "logN")``.

    The Type 1 choice is equal-variance SDT (evidence :math:`N(\\mp d'/2, 1)`, response "S2"
    above the criterion c); confidence compares the evidence's distance from c with criteria
    that are noisy from trial to trial, each lognormal with its own mean and the common
    log-scale :math:`\\sigma_{meta}` (one draw per trial moves all of them, so they stay
    ordered). :math:`\\sigma_{meta}` is the measure: 0 is the SDT rating model, the larger the
    worse the ratings track accuracy. d′, c, the 2(K − 1) mean criteria and
    :math:`\\sigma_{meta}` are fitted jointly to all cells of the table.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables: ``counts[..., 0, :]`` are the responses to S1 stimuli and
        ``counts[..., 1, :]`` those to S2, from "S1, most confident" to "S2, most confident";
        K >= 2 confidence levels.
    pad : float or None, default None
        Constant added to every cell before fitting; ``None`` adds 1/(2K), as statConfR's
        ``fitConf`` does (its log-likelihood is that of the padded counts, as this one's).

    Returns
    -------
    MetaNoiseFit
        ``d``, ``c``, ``sigma_meta``, ``se_sigma_meta``, ``se_d``, ``se_c``, ``t2c_S1``,
        ``t2c_S2``, ``log_likelihood``, ``status``, ``pad``: floats (and a string) for one
        table, arrays of shape ``counts.shape[:-2]`` for a stack (the criteria with one more
        axis of length K − 1).

    Raises
    ------
    ValueError
        For counts that are negative, not finite or not of shape (..., 2, 2K) with K >= 2, an
        all-zero row, or a negative or non-scalar ``pad``. A table that cannot be fitted (a hit
        or false-alarm rate of 0 or 1 without padding, a fit that finds no maximum) does not
        raise: its numbers are NaN and ``status`` says why, so one such table does not stop a
        stack.

    Notes
    -----
    In statConfR's formulation this model and CASANDRE (:func:`fit_meta_uncertainty`) are the
    same model in two parametrisations, :math:`\\sigma_{meta}^2 = \\log(1 + \\sigma_m^2)`, with
    the same criteria: their maximum likelihoods are equal. The noise's effect on the
    probabilities is of order :math:`\\sigma_{meta}^2`, so the likelihood is flat in
    :math:`\\sigma_{meta}` at 0 and its maximum is often there (people whose ratings are as
    informative as the SDT observer's, or more): ``status`` "sigma_zero". Where the ratings
    carry no information beyond the Type 1 response, the likelihood rises without bound as
    :math:`\\sigma_{meta}` grows: still rising at the fit's bound, sigma_meta = 4, it is
    "sigma_unbounded", sigma reported as ``inf``. Unlike statConfR, which keeps d′ > 0, d′ is
    free (negative below chance).

    The fit is Fisher scoring on all tables at once from the best of a grid of sigma values
    (where the criteria match the observed rating proportions), with Newton's method and
    L-BFGS-B where it stalls;
    it finds likelihoods equal to or higher than statConfR's Nelder–Mead fits.

    References
    ----------
    Shekhar & Rahnev (2021), *Psychological Review* 128(1), 45–70, doi:10.1037/rev0000249, the
    lognormal meta-noise model; Rausch, Hellmann & Meyen, statConfR 0.2.2 (model "logN"), the
    implementation followed; Rahnev (2025), *Nature Communications* 16, 1–17,
    doi:10.1038/s41467-025-56117-0, which assesses it among 17 measures of metacognition.

    Examples
    --------
    Meyen et al.'s (2025) Table 1, padded by 1/(2K) = 0.25 as statConfR pads it:

    >>> fit = fit_meta_noise([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(fit.d, 3), round(fit.c, 3), fit.sigma_meta, fit.status
    (1.271, 0.015, 0.0, 'sigma_zero')

    Its ratings are at least as informative as the SDT observer's; the 95% likelihood bound on
    sigma_meta is 1.96 standard errors:

    >>> round(1.96 * fit.se_sigma_meta, 2)
    0.35

    A table whose confident responses are nearly as common among errors as among correct
    responses has a large meta-noise, and one where they are as common has no maximum:

    >>> fit = fit_meta_noise([[60, 40, 30, 30], [30, 30, 40, 60]])
    >>> round(fit.sigma_meta, 2), round(fit.se_sigma_meta, 2), fit.status
    (0.96, 1.14, 'ok')
    >>> fit = fit_meta_noise([[40, 60, 15, 10], [10, 15, 60, 40]])
    >>> fit.sigma_meta, fit.status
    (inf, 'sigma_unbounded')
    """
    fields, lead, pad = _fit(counts, pad)
    se = fields.pop("se")
    crit = fields.pop("criteria")
    c = fields["c"]
    out = dict(d=fields["d"], c=c, sigma_meta=fields["sigma_meta"], se_sigma_meta=se[:, 2],
               se_d=se[:, 0], se_c=se[:, 1], t2c_S1=c[:, None] - crit[:, 0, ::-1],
               t2c_S2=c[:, None] + crit[:, 1], log_likelihood=fields["log_likelihood"],
               status=fields["status"])
    return _shape(MetaNoiseFit, out, lead, pad)


def fit_meta_uncertainty(counts, pad=None) -> MetaUncertaintyFit:
    """Maximum-likelihood fit of CASANDRE (Boundy-Singer, Ziemba & Goris, 2023) to a table or a
    stack of tables, as statConfR's ``fitConf(model = "CAS")``.

    The Type 1 choice is equal-variance SDT (evidence :math:`N(\\mp d'/2, 1)`, response "S2"
    above the criterion c). Confidence is the evidence's distance from c divided by the
    observer's estimate of its own sensory noise, an estimate that is lognormal with mean 1 (the
    true noise) and standard deviation :math:`\\sigma_m`, drawn afresh on every trial, compared
    with fixed criteria on each response's side. :math:`\\sigma_m`, the meta-uncertainty, is
    the measure: 0 is the SDT rating model, the larger the worse the ratings track accuracy.
    d′, c, the 2(K − 1) criteria and :math:`\\sigma_m` are fitted jointly to all cells.

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables: ``counts[..., 0, :]`` are the responses to S1 stimuli and
        ``counts[..., 1, :]`` those to S2, from "S1, most confident" to "S2, most confident";
        K >= 2 confidence levels.
    pad : float or None, default None
        Constant added to every cell before fitting; ``None`` adds 1/(2K), as statConfR's
        ``fitConf`` does (its log-likelihood is that of the padded counts, as this one's).

    Returns
    -------
    MetaUncertaintyFit
        ``d``, ``c``, ``sigma_m``, ``se_sigma_m``, ``se_d``, ``se_c``, ``t2c_S1``, ``t2c_S2``,
        ``log_likelihood``, ``status``, ``pad``: floats (and a string) for one table, arrays of
        shape ``counts.shape[:-2]`` for a stack (the criteria with one more axis of length
        K − 1).

    Raises
    ------
    ValueError
        For counts that are negative, not finite or not of shape (..., 2, 2K) with K >= 2, an
        all-zero row, or a negative or non-scalar ``pad``. A table that cannot be fitted does
        not raise: its numbers are NaN and ``status`` says why.

    Notes
    -----
    In statConfR's formulation CASANDRE and the lognormal meta-noise model
    (:func:`fit_meta_noise`) are the same model in two parametrisations: the noise factor is
    lognormal with mean 1 in both, with log-scale :math:`\\sigma_{meta}` there and
    :math:`\\sqrt{\\log(1 + \\sigma_m^2)}` here, and the criteria are the same. So this is
    :func:`fit_meta_noise`'s fit with :math:`\\sigma_m = \\sqrt{e^{\\sigma_{meta}^2} - 1}` (its
    standard error by the delta method) and the criteria given relative to c; the two
    log-likelihoods are equal. statConfR fits the two separately, from different starting
    grids, and its two optima can differ where Nelder–Mead stops early. ``status`` as in
    :func:`fit_meta_noise`.

    References
    ----------
    Boundy-Singer, Ziemba & Goris (2023), *Nature Human Behaviour* 7, 142–154,
    doi:10.1038/s41562-022-01464-x, CASANDRE; Rausch, Hellmann & Meyen, statConfR 0.2.2 (model
    "CAS"), the implementation followed; Rahnev (2025), *Nature Communications* 16,
    doi:10.1038/s41467-025-56117-0, which assesses meta-uncertainty among 17 measures.

    Examples
    --------
    >>> fit = fit_meta_uncertainty([[60, 40, 30, 30], [30, 30, 40, 60]])
    >>> round(fit.sigma_m, 2), fit.t2c_S1.round(2).tolist(), fit.t2c_S2.round(2).tolist()
    (1.24, [-0.81], [0.81])

    The same fit as :func:`fit_meta_noise`'s, on CASANDRE's scale:

    >>> noise = fit_meta_noise([[60, 40, 30, 30], [30, 30, 40, 60]])
    >>> round(float(np.sqrt(np.expm1(noise.sigma_meta ** 2))), 2)
    1.24

    A stack gives arrays, one entry per table:

    >>> fits = fit_meta_uncertainty([[[60, 40, 30, 30], [30, 30, 40, 60]],
    ...                              [[84, 56, 48, 12], [4, 56, 64, 76]]])
    >>> fits.sigma_m.round(2).tolist(), fits.status.tolist()
    ([1.24, 0.0], ['ok', 'sigma_zero'])
    """
    fields, lead, pad = _fit(counts, pad)
    se = fields.pop("se")
    crit = fields.pop("criteria")
    sigma = fields["sigma_meta"]
    sigma_m = sigma_m_from_sigma_meta(sigma)
    with np.errstate(all="ignore"):  # d sigma_m / d sigma_meta, 1 at 0
        slope = np.where(sigma > 1e-8, sigma * np.exp(np.square(sigma)) / sigma_m, 1.0)
    out = dict(d=fields["d"], c=fields["c"], sigma_m=sigma_m, se_sigma_m=se[:, 2] * slope,
               se_d=se[:, 0], se_c=se[:, 1], t2c_S1=-crit[:, 0, ::-1], t2c_S2=crit[:, 1],
               log_likelihood=fields["log_likelihood"], status=fields["status"])
    return _shape(MetaUncertaintyFit, out, lead, pad)
