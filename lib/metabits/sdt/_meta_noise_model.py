"""The likelihood of the lognormal meta-noise model (:mod:`metabits.sdt._meta_noise`): cell
probabilities, their derivatives, the log-likelihood with its gradient and expected information.

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
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_ndtr, ndtr

_INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)

#: trapezoid nodes over Z ~ N(0, 1)
_Q = 171
#: node spacing in Z while sigma <= _KAPPA / _H0 (the nodes then span |Z| <= 8.5)
_H0 = 0.1
#: largest node spacing in sigma * Z (the log of the noise factor) for larger sigma
_KAPPA = 0.1


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

