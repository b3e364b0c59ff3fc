"""One stacked Fisher-scoring driver for the maximum-likelihood fits of :mod:`metabits.sdt`.

:func:`fisher_scoring` maximises many independent log-likelihoods at once, one per table of a
stack: the meta-d′ fit (:mod:`metabits.sdt._metad`) and the meta-noise fit (Fisher scoring and
its Newton continuation, :mod:`metabits.sdt._meta_noise_fit`). The model is passed in as
functions of the parameter rows and the tables they belong to; the driver keeps the active set,
halves the steps that lower the log-likelihood and ends each table's fit on its own.

Each table's numbers are computed on their own, so a table's fit does not depend on the other
tables of the stack, nor on how they are grouped into the calls of the likelihood.
"""

from __future__ import annotations

import numpy as np

__all__ = ["FLAT", "fisher_scoring", "newton_step", "scoring_step"]

#: the rise of the log-likelihood a step promises (``g·step / 2``, the quadratic model's),
#: relative to ``1 + |ll|``, below which a table's fit ends: ten thousand times the rounding of
#: ``ll`` (about 1e-16 |ll|)
FLAT = 1e-12


def scoring_step(theta, g, F):
    """The scoring steps ``F⁻¹g`` (n, P) and the rises they promise, ``g·step / 2`` (n,).

    A table whose information matrix is singular gets a NaN step (the driver then stops it,
    unconverged); if :func:`numpy.linalg.solve` refuses the stack but no matrix is singular by
    its rank, every step is NaN.
    """
    try:
        step = np.linalg.solve(F, g[..., None])[..., 0]
    except np.linalg.LinAlgError:
        step = np.full_like(g, np.nan)
        regular = np.linalg.matrix_rank(F) == F.shape[-1]
        if not regular.all():
            step[regular] = scoring_step(theta[regular], g[regular], F[regular])[0]
    return step, 0.5 * np.einsum("np,np->n", g, step)


def newton_step(step_rule):
    """A step rule for the observed information: ``F`` made positive definite (the absolute
    values of its eigenvalues, floored at 1e-10 of the largest) before ``step_rule``."""
    def rule(theta, g, F):
        lam, V = np.linalg.eigh(F)
        lam = np.maximum(np.abs(lam), 1e-10 * np.abs(lam).max(axis=1, keepdims=True) + 1e-300)
        return step_rule(theta, g, np.einsum("npk,nk,nqk->npq", V, lam, V))
    return rule


def fisher_scoring(theta, loglik, information, step=scoring_step, *, max_iter=100, xtol=1e-9,
                   halvings=(1,) * 40, polish=False):
    """Maximise the log-likelihood of every table of a stack by Fisher scoring with step
    halving; returns the parameters (n, P) and a mask of the tables whose fit converged.

    Parameters
    ----------
    theta : ndarray, shape (n, P)
        Starting parameters, one row per table.
    loglik : callable
        ``loglik(theta, rows)``: the log-likelihoods (m,) of parameter rows ``theta`` (m, P)
        of the tables ``rows`` (m,), indices into the stack (repeated when several steps of
        one table are tried at once); ``-inf`` outside the model's range.
    information : callable
        ``information(theta, rows)``: the gradient (m, P) and the information matrix (m, P, P)
        there, the expected one for Fisher scoring (or the negative Hessian, with
        :func:`newton_step`). A table with a non-finite one stops, unconverged.
    step : callable
        ``step(theta, g, F)``: the steps (m, P) and the rises they promise (m,), by default
        :func:`scoring_step`; a bounded problem shortens its steps here. A table with a
        non-finite step stops, unconverged.
    max_iter : int
        Most steps per table.
    xtol : float
        A step below this in every parameter ends the table's fit, converged.
    halvings : tuple of int
        The step halvings tried per call of ``loglik``, in blocks (their sum is the most
        halvings of a step): a block picks the same step as one halving at a time, the
        longest that does not lower the log-likelihood, at fewer calls where a call is
        cheap.
    polish : bool
        Whether a fit ending on ``xtol`` takes its last step, and one ending on a flat
        promised rise takes its step where it does not lower the log-likelihood (meta-d′'s
        rule); otherwise a table stops where it stands.

    Notes
    -----
    A table is done once its step is below ``xtol`` in every parameter, or once the rise its
    step promises is below :data:`FLAT` times ``1 + |ll|``, which ends the fits whose
    likelihood is flat along some direction (a parameter running off to infinity). A step that
    lowers the log-likelihood is halved until it does not; a table whose step still lowers it
    after every halving stops, unconverged (to its caller's fallback). Where the flat rule
    stops a fit does not hang on the last bits of the sums: the promised rise shrinks by a
    steady factor per step, so it crosses :data:`FLAT` at the same step on any CPU unless it
    lands within rounding of the line.
    """
    theta = theta.copy()
    n, P = theta.shape
    ll = loglik(theta, np.arange(n))
    active = np.isfinite(ll)
    converged = np.zeros(n, bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(active)
        if not idx.size:
            break
        g, F = information(theta[idx], idx)
        finite = np.all(np.isfinite(g), axis=1) & np.all(np.isfinite(F), axis=(1, 2))
        active[idx[~finite]] = False
        idx, g, F = idx[finite], g[finite], F[finite]
        delta, promised = step(theta[idx], g, F)
        bad = ~np.all(np.isfinite(delta), axis=1)
        active[idx[bad]] = False
        idx, delta, promised = idx[~bad], delta[~bad], promised[~bad]
        small = np.all(np.abs(delta) < xtol, axis=1)
        flat = promised <= FLAT * (1.0 + np.abs(ll[idx]))
        if polish:  # the last step of a small one, and of a flat one unless it falls
            theta[idx[small]] += delta[small]
            converged[idx[small]], active[idx[small]] = True, False
            idx, delta, flat = idx[~small], delta[~small], flat[~small]
        else:
            flat |= small
            converged[idx[flat]], active[idx[flat]] = True, False
            idx, delta, flat = idx[~flat], delta[~flat], np.zeros(int((~flat).sum()), bool)
        cand = theta[idx] + delta
        ll_cand = loglik(cand, idx)
        worse = ~(ll_cand >= ll[idx])
        last = idx[flat]
        theta[last[~worse[flat]]] = cand[flat & ~worse]
        converged[last], active[last] = True, False
        keep = ~flat
        idx, delta, cand, ll_cand, worse = (idx[keep], delta[keep], cand[keep], ll_cand[keep],
                                            worse[keep])
        halved = 0
        for block in halvings:  # halve the steps that lower the log-likelihood
            redo = np.flatnonzero(worse)
            if not redo.size:
                break
            t = 0.5 ** (halved + 1 + np.arange(block))  # the next `block` step lengths at once
            trial = theta[idx[redo], None] + t[:, None] * delta[redo, None]  # (redo, block, P)
            ll_trial = loglik(trial.reshape(-1, P), np.repeat(idx[redo], block)).reshape(-1, block)
            rise = ll_trial >= ll[idx[redo], None]
            first = np.where(rise.any(axis=1), rise.argmax(axis=1), block - 1)  # longest rise
            cand[redo] = trial[np.arange(redo.size), first]
            ll_cand[redo] = ll_trial[np.arange(redo.size), first]
            worse[redo] = ~rise.any(axis=1)
            halved += block
        # no ascent along the step's direction from a step that promised one: the fallback's
        active[idx[worse]] = False
        idx = idx[~worse]
        theta[idx], ll[idx] = cand[~worse], ll_cand[~worse]
    return theta, converged
