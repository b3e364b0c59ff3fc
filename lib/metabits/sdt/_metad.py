"""Maximum-likelihood meta-d′ and M-ratio (Maniscalco & Lau, 2012), the SDT-based Type 2 measures
that Meyen et al. (2025) compare with the information-theoretic ones (Table 1; Figure 6a–b).

The model is equal-variance SDT. Type 1: :math:`d' = z(HR) - z(FAR)` and
:math:`c = -(z(HR) + z(FAR))/2` from the counts. Type 2: evidence
:math:`X \\sim N(\\mp meta\\text{-}d'/2, 1)` for S1/S2 stimuli, a Type 1 criterion
:math:`meta\\text{-}c = c \\cdot meta\\text{-}d'/d'` (Maniscalco's ``meta_c1 = c1 * meta_d1 / d1``)
and K − 1 ordered confidence criteria on each side of it. meta-d′ maximises the likelihood of the
confidence ratings *given* the Type 1 response, as in Maniscalco's ``fit_meta_d_MLE`` and its
ports (metadpy, metaSDT, statConfR's "ML" version).

Counts follow the meta-d′ literature: ``nR_S1`` are the responses to S1 stimuli, ordered from
"S1, most confident" to "S2, most confident" (length 2K); ``nR_S2`` likewise for S2 stimuli. In a
Meyen-style table ``counts`` (rows: true label −1, +1) that is ``nR_S1, nR_S2 = counts``.

``fit_meta_d(..., meta_c="c")`` fits the same likelihood with Fleming's (2017) HMeta-d
criterion instead, meta-c = c, the observed Type 1 criterion (d′ and c still from the padded
counts and held fixed).

Parameterisation: meta-d′ is free; each side's criteria are meta-c ∓ cumulative sums of
exponentials (log-increments), so their order holds without constraints.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.special import ndtr

from metabits._formulas import sdt_type1
from metabits.results import Result
from metabits.sdt._fisher import fisher_scoring
from metabits.validation import as_choice, as_count_table, as_pad, scalar_or_array

__all__ = ["MetaDFit", "fit_meta_d"]

_INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)


@dataclass(frozen=True)
class MetaDFit(Result):
    """Results of :func:`fit_meta_d`; also a mapping (``fit["meta_d"]``).

    Floats for one table; arrays over the tables (criteria: one more axis, K − 1) for a stack.

    Attributes
    ----------
    d : float or ndarray
        Type 1 sensitivity :math:`z(HR) - z(FAR)` of the (padded) counts.
    c : float or ndarray
        Type 1 criterion :math:`-(z(HR) + z(FAR))/2` of the (padded) counts.
    meta_d : float or ndarray
        Maximum-likelihood meta-d′.
    m_ratio : float or ndarray
        ``meta_d / d``.
    m_diff : float or ndarray
        ``meta_d - d``.
    meta_c : float or ndarray
        Type 1 criterion of the meta-d′ model: ``c * meta_d / d``, or ``c`` with
        ``meta_c="c"``.
    t2c_S1 : ndarray, shape (K - 1,) or (n, K - 1)
        The K − 1 Type 2 criteria of "S1" responses, increasing (most confident boundary
        first), all below ``meta_c``.
    t2c_S2 : ndarray, shape (K - 1,) or (n, K - 1)
        The K − 1 Type 2 criteria of "S2" responses, increasing, all above ``meta_c``.
    log_likelihood : float or ndarray
        :math:`\\sum n \\log p` of the ratings given the Type 1 response at the optimum (no
        multinomial constant; as metadpy's ``logL``).
    pad : float
        The constant that was added to every cell.
    """

    d: object
    c: object
    meta_d: object
    m_ratio: object
    m_diff: object
    meta_c: object
    t2c_S1: np.ndarray
    t2c_S2: np.ndarray
    log_likelihood: object
    pad: float


# ----------------------------------------------------------------------------------- validation


_ROWS = ("nR_S1", "nR_S2")


def _prepare(counts: np.ndarray, pad, where) -> np.ndarray:
    """Pad a checked stack of tables (n, 2, 2K) and refuse what the fit cannot take: an infinite
    d′ (a hit or false-alarm rate of 0 or 1) or an empty cell; ``where(i)`` names table i."""
    L = counts.shape[-1]
    pad = as_pad(pad, L // 2)
    names = _ROWS
    counts = counts + pad
    K = L // 2
    n_s2 = counts[..., K:].sum(axis=-1)  # "S2" responses to S1 (false alarms) and S2 (hits)
    n_s1 = counts[..., :K].sum(axis=-1)
    for s, rate in ((1, "hit rate"), (0, "false-alarm rate")):
        for none, value in ((n_s2[:, s] == 0, 0), (n_s1[:, s] == 0, 1)):
            if np.any(none):
                i = np.flatnonzero(none)[0]
                raise ValueError(
                    f"the {rate} is {value}{where(i)} ({names[s]} has no "
                    f"'S{2 - value}' responses), so d' is infinite; pad the counts, e.g. "
                    f"pad={1 / L:g} = 1/(2K)"
                )
    zero = np.argwhere(counts == 0)
    if zero.size:
        i, s, j = zero[0]
        raise ValueError(
            f"{names[s]}[{j}] is 0{where(i)}: empty cells can put the maximum at an infinite "
            "meta-d' or criterion (e.g. no high-confidence errors), where a fit would only "
            f"report where the optimiser stopped; pad the counts, e.g. pad={1 / L:g} = 1/(2K)"
        )
    return counts


def _type1(counts: np.ndarray):
    """d′, c and the cumulative-split criteria c_k (k = 1 .. 2K−1) of padded tables (n, 2, 2K)."""
    from metabits._formulas import split_type1

    return split_type1(counts)


# ----------------------------------------------------------------------------------- likelihood


def _edges(theta, kappa, K, derivatives=True, shift=None):
    """Bin edges (n, 2K+1) from -inf to +inf and, if ``derivatives``, their derivatives
    (n, 2K+1, 2K−1) wrt theta (else None). meta-c is ``kappa * meta-d′ + shift`` (``shift``
    (n,), default 0): ``kappa = c/d′`` for Maniscalco's meta-c, ``kappa = 0, shift = c`` for
    HMeta-d's."""
    n, P = theta.shape
    m = theta[:, 0]
    inc1, inc2 = np.exp(theta[:, 1:K]), np.exp(theta[:, K:])  # nearest meta-c first
    meta_c = kappa * m if shift is None else kappa * m + shift
    e = np.empty((n, 2 * K + 1))
    e[:, 0], e[:, -1], e[:, K] = -np.inf, np.inf, meta_c
    e[:, K - 1:0:-1] = meta_c[:, None] - np.cumsum(inc1, axis=1)
    e[:, K + 1:2 * K] = meta_c[:, None] + np.cumsum(inc2, axis=1)
    if not derivatives:
        return e, None
    tri = np.tril(np.ones((K - 1, K - 1)))
    de = np.zeros((n, 2 * K + 1, P))
    de[:, 1:-1, 0] = kappa[:, None]
    de[:, K - 1:0:-1, 1:K] = -inc1[:, None, :] * tri
    de[:, K + 1:2 * K, K:] = inc2[:, None, :] * tri
    return e, de


def _loglik(theta, counts, kappa, derivatives=True, shift=None):
    """Log-likelihood of the ratings given the Type 1 response, for a stack of tables.

    Returns ``ll`` (n,) and, if ``derivatives``, its gradient (n, P) and the expected (Fisher)
    information (n, P, P) with respect to ``theta = (meta-d′, log-increments S1, S2)``.
    Vectorised over the stack; each table's numbers are computed on their own, so they do not
    depend on the other tables of the stack (see :func:`_loglik_blocks`). meta-c as in
    :func:`_edges`.
    """
    (n, P), L = theta.shape, counts.shape[-1]
    K = L // 2
    with np.errstate(all="ignore"):  # trial steps may go wild: their ll is then -inf
        e, de = _edges(theta, kappa, K, derivatives, shift)
        half = theta[:, 0, None] / 2  # the means of S1 and S2 evidence are -half and +half
        z = np.stack([e + half, e - half], axis=1)  # (n, 2, 2K+1): edges minus the means
        below, above = ndtr(z), ndtr(-z)  # mass below and above each edge
        # bin probabilities from the nearer tail, for accuracy
        prob = np.where(z[..., :-1] > 0, above[..., :-1] - above[..., 1:],
                        below[..., 1:] - below[..., :-1])
        area = np.stack([below[..., K], above[..., K]], axis=-1)  # (n, 2, side)
        # log p(rating | response side) per cell: by side, (n, 2, side, K), then flat (n, 2, 2K)
        logp = (np.log(prob).reshape(n, 2, 2, K) - np.log(area)[..., None]).reshape(n, 2, L)
        ll = np.sum(counts * logp, axis=(1, 2))
        ll = np.where(np.isfinite(ll), ll, -np.inf)  # NaN from impossible parameters: -inf
        if not derivatives:
            return ll
        phi = _INV_SQRT_2PI * np.exp(-0.5 * z**2)  # 0 at the infinite edges
        fdz = np.empty((n, 2, L + 1, P))  # phi * dz/dtheta, dz = de - dmu; dmu = ∓1/2 in p = 0
        fdz[..., 0] = phi * (de[:, None, :, 0] - np.array([-0.5, 0.5])[:, None])
        fdz[..., 1:] = phi[..., None] * de[:, None, :, 1:]
        dprob = fdz[:, :, 1:] - fdz[:, :, :-1]
        darea = np.stack([fdz[:, :, K], -fdz[:, :, K]], axis=2) / area[..., None]  # (n, 2, 2, P)
        dlogp = (dprob / prob[..., None]).reshape(n, 2, 2, K, P) - darea[:, :, :, None]
        dlogp = dlogp.reshape(n, 2, L, P)
        grad = np.einsum("nsj,nsjp->np", counts, dlogp)
        totals = counts.reshape(n, 2, 2, K).sum(-1)  # (n, 2, side)
        expected = (totals[..., None] * np.exp(logp).reshape(n, 2, 2, K)).reshape(n, 2, L)
        # sum over the 2L cells of expected * dlogp dlogpᵀ as one product of (n, P, 2L) and
        # (n, 2L, P) arrays: several times faster than a three-operand einsum
        cells = dlogp.reshape(n, 2 * L, P)
        fisher = np.matmul(cells.transpose(0, 2, 1), expected.reshape(n, 2 * L, 1) * cells)
    return ll, grad, fisher


#: tables per call of :func:`_loglik` in :func:`_loglik_blocks`: small enough for a block's
#: arrays to stay in the CPU cache (a whole large stack at once does not), big enough to make
#: the Python overhead per block negligible
_BLOCK = 1000


def _loglik_blocks(theta, counts, kappa, derivatives=True, shift=None):
    """:func:`_loglik` of a stack of any size, evaluated :data:`_BLOCK` tables at a time.

    The same numbers (each table's are computed on its own), in bounded memory and faster.
    """
    n = len(theta)
    if n <= _BLOCK:
        return _loglik(theta, counts, kappa, derivatives, shift)
    parts = [_loglik(theta[i:i + _BLOCK], counts[i:i + _BLOCK], kappa[i:i + _BLOCK], derivatives,
                     None if shift is None else shift[i:i + _BLOCK])
             for i in range(0, n, _BLOCK)]
    if not derivatives:
        return np.concatenate(parts)
    return tuple(np.concatenate(part) for part in zip(*parts))


# ------------------------------------------------------------------------------------ optimisers


def _start(d, crit):
    """Start at meta-d′ = d′ and the criteria of the cumulative Type 1 splits (Maniscalco's)."""
    K = (crit.shape[1] + 1) // 2
    steps = np.log(np.diff(crit, axis=1))  # increasing: every cell is positive
    return np.column_stack([d, steps[:, K - 2::-1], steps[:, K - 1:]])


#: step halvings tried per likelihood call in :func:`_fisher_scoring` (39 in all): growing
#: blocks, so the many tables that need one or two halvings cost little and the few that need
#: many cost a handful of calls, not one call per halving
_HALVINGS = (1, 2, 4, 8, 16, 8)


def _fisher_scoring(theta, counts, kappa, max_iter=100, xtol=1e-9, shift=None):
    """Fisher scoring with step halving on a stack of tables (:func:`metabits.sdt._fisher.
    fisher_scoring`); returns theta and a converged mask. meta-c as in :func:`_edges`.

    A table is done once its full scoring step is below ``xtol`` in every parameter (the step
    is taken), or once the rise the step promises is below :data:`~metabits.sdt._fisher.FLAT`
    times ``1 + |ll|`` (the step is taken if the log-likelihood does not fall). Convergence is
    fast: the error shrinks ~20-100x per step on typical tables. A step that lowers the
    log-likelihood is halved until it does not, at most 39 times, in the blocks
    :data:`_HALVINGS`; a table whose step still lowers it is left unconverged (to the BFGS
    fallback).

    The second rule ends the fits whose likelihood is flat along some direction (a criterion
    running off to infinity, as in bootstrap replicates of small tables); where they stop is
    the same on any CPU (tests/lib/test_metad_blocks.py runs NumPy's baseline kernels against the
    machine's own). (A rule on the step's length, with "done" where rounding stops the rise,
    would make such a fit's outcome, a value or NaN, depend on the CPU: NumPy's AVX-512, AVX2
    and baseline kernels round differently.)
    """
    if shift is None:
        shift = np.zeros(len(theta))

    def loglik(th, rows):
        return _loglik_blocks(th, counts[rows], kappa[rows], derivatives=False, shift=shift[rows])

    def information(th, rows):
        return _loglik_blocks(th, counts[rows], kappa[rows], shift=shift[rows])[1:]

    return fisher_scoring(theta, loglik, information, max_iter=max_iter, xtol=xtol,
                          halvings=_HALVINGS, polish=True)


def _fit_one(theta0, counts, kappa, shift=0.0):
    """BFGS (scipy) on one table with the analytic gradient: the fallback if scoring stalls."""
    from scipy.optimize import minimize  # imported here: slow to import, rarely needed

    scale = counts.sum()

    def neg(th):
        ll, g, _ = _loglik(th[None], counts[None], np.array([kappa]), shift=np.array([shift]))
        if not np.isfinite(ll[0]):  # outside the model's range: let the line search back off
            return np.inf, np.zeros_like(th)
        return -ll[0] / scale, -g[0] / scale

    res = minimize(neg, theta0, jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 2000})
    # BFGS may stop on 'precision loss' right at the optimum: judge by the gradient instead
    if not (np.isfinite(res.fun) and np.max(np.abs(res.jac)) < 1e-6):
        raise ValueError(
            "the meta-d' fit did not converge: the likelihood seems to have no interior maximum "
            f"({res.message}). Usual causes: nearly empty cells (pad the counts, e.g. 1/(2K), or "
            "merge confidence levels)" + ("" if kappa == 0 else
            f" or d' near 0 with a large c (here c/d' = {kappa:.3g}), which puts meta-c = "
            "c * meta-d'/d' far out")
        )
    return res.x


def _meta_d_or_nan(counts: np.ndarray, pad: float, fallback: bool = True):
    """d′ and meta-d′ of a stack (n, 2, 2K) padded by ``pad`` > 0, NaN where the fit fails.

    The library's one lenient fit (the measures of whole stacks, bootstraps, simulation
    studies): the fit of :func:`fit_meta_d` (Fisher scoring, BFGS from where scoring
    stalled unless ``fallback`` is False), but a table with d′ = 0 or a likelihood without a
    finite maximum gives NaN instead of stopping the whole stack: one odd table or replicate
    must not stop the others.
    """
    padded = counts + pad
    d, c, crit = _type1(padded)
    meta = np.full(len(padded), np.nan)
    idx = np.flatnonzero(np.abs(d) >= 1e-8)
    if not idx.size:
        return d, meta
    kappa = c[idx] / d[idx]
    theta, ok = _fisher_scoring(_start(d[idx], crit[idx]), padded[idx], kappa)
    for i in np.flatnonzero(~ok):
        stalled = theta[i].copy()
        theta[i, 0] = np.nan
        if fallback:
            try:
                theta[i] = _fit_one(stalled, padded[idx[i]], kappa[i])
            except ValueError:
                pass
    meta[idx] = theta[:, 0]
    return d, meta


# ------------------------------------------------------------------------------------ public API


#: where the meta-d′ model puts its Type 1 criterion: Maniscalco & Lau's c·meta-d′/d′, or
#: HMeta-d's c itself
META_C = ("scaled", "c")


def _fit(counts, pad, where, meta_c="scaled") -> MetaDFit:
    """Validate, pad and fit a stack of tables (n, 2, 2K); fields are arrays over the tables."""
    pad = as_pad(pad, counts.shape[-1] // 2)
    counts = _prepare(counts, pad, where)
    d, c, crit = _type1(counts)
    zero = np.flatnonzero(np.abs(d) < 1e-8)
    if zero.size:
        raise ValueError(
            f"d' = 0{where(zero[0])} (hit rate = false-alarm rate): "
            + ("meta-c = c * meta-d'/d' and " if meta_c == "scaled" else "")
            + "the M-ratio are undefined"
        )
    # meta-c = kappa * meta-d′ + shift
    kappa, shift = (c / d, np.zeros_like(c)) if meta_c == "scaled" else (np.zeros_like(c), c)
    theta, ok = _fisher_scoring(_start(d, crit), counts, kappa, shift=shift)
    for i in np.flatnonzero(~ok):
        try:
            theta[i] = _fit_one(theta[i], counts[i], kappa[i], shift[i])
        except ValueError as exc:
            raise ValueError(f"{exc}{where(i)}") from None
    K = counts.shape[-1] // 2
    e, _ = _edges(theta, kappa, K, shift=shift)
    meta_d = theta[:, 0]
    return MetaDFit(d=d, c=c, meta_d=meta_d, m_ratio=meta_d / d, m_diff=meta_d - d,
                    meta_c=kappa * meta_d + shift, t2c_S1=e[:, 1:K], t2c_S2=e[:, K + 1:2 * K],
                    log_likelihood=_loglik(theta, counts, kappa, derivatives=False, shift=shift),
                    pad=float(pad))


def fit_meta_d(counts, pad=0.0, *, meta_c="scaled") -> MetaDFit:
    """Maximum-likelihood meta-d′ of a table or a stack of tables (Maniscalco & Lau, 2012).

    Parameters
    ----------
    counts : array_like, shape (..., 2, 2K)
        Count tables: ``counts[..., 0, :]`` are the responses to S1 stimuli and
        ``counts[..., 1, :]`` those to S2 (the ``nR_S1`` and ``nR_S2`` of the meta-d′
        literature), from "S1, most confident" to "S2, most confident"; K >= 2 confidence
        levels. Meyen et al.'s Table 1 is ``[[84, 56, 48, 12], [4, 56, 64, 76]]``.
    pad : float or None, default 0
        Constant added to every cell before anything is computed (d′ and c included); ``None``
        adds 1/(2K) (Maniscalco's ``padAmount``, statConfR's and metaSDT's default).
    meta_c : {"scaled", "c"}, default "scaled"
        The Type 1 criterion of the meta-d′ model, which divides each response's confidence
        ratings from the other response's: ``"scaled"``, meta-c = c·meta-d′/d′ (Maniscalco &
        Lau, 2012, and its ports: metadpy, statConfR, metaSDT); ``"c"``, meta-c = c, the
        observed criterion itself, as in Fleming's (2017) HMeta-d model
        (:func:`metabits.fit_meta_d_bayes`). They agree where c = 0 or meta-d′ = d′.

    Returns
    -------
    MetaDFit
        ``d``, ``c``, ``meta_d``, ``m_ratio``, ``m_diff``, ``meta_c``, ``t2c_S1``, ``t2c_S2``,
        ``log_likelihood``, ``pad``: floats for one table, arrays of shape ``counts.shape[:-2]``
        for a stack (the criteria with one more axis of length K − 1).

    Raises
    ------
    ValueError
        For counts that are negative, not finite or not of shape (..., 2, 2K) with K >= 2, an
        all-zero row, a hit or false-alarm rate of 0 or 1 (d′ infinite), d′ = 0, a zero cell
        after padding, a negative or non-scalar ``pad``, a ``meta_c`` other than ``"scaled"`` or
        ``"c"``, or a fit that does not converge (no interior maximum); the message names the
        first offending table of a stack.

    Notes
    -----
    Zero cells are refused rather than fitted: an empty cell *can* put the maximum at an
    infinite meta-d′ or criterion (no high-confidence errors on both sides, as for Meyen et al.'s
    uniform noise), and the optimiser's stopping point would then pass for an estimate
    (Maniscalco's code and metadpy return it, at most with a warning; statConfR and metaSDT pad
    by default). Pass ``pad``; a single empty cell often has a finite maximum all the same,
    which small pads approach.

    d′ < 0 (below-chance responding) is fitted as by Maniscalco's code; the M-ratio is then hard
    to interpret. All tables are fitted together by Fisher scoring (analytic gradient and
    expected information, step halving) from meta-d′ = d′ and Maniscalco's starting criteria,
    converged to about 1e-9 in every parameter, or until a step promises a rise of the
    log-likelihood below 1e-12 of it (where the likelihood is flat along some direction); a table
    on which scoring stalls is refitted on its own by BFGS (scipy). Each table's fit does not
    depend on the other tables of the stack.

    References
    ----------
    Maniscalco & Lau (2012), the meta-d′ model and its maximum-likelihood fit; Meyen et al.
    (2025), section "Example Computation of Existing Information-Theoretic Measures" (Table 1:
    meta-d′ = 1.9, M-ratio = 1.8) and Figures 6a–b and 7a–b; Rausch & Hellmann (2023),
    statConfR, the implementation the paper used, which pads every cell by 1/(2K).

    Examples
    --------
    Table 1 of Meyen et al. (2025), unpadded and with statConfR's padding 1/(2K) = 0.25, which
    gives the printed meta-d′ = 1.9:

    >>> fit = fit_meta_d([[84, 56, 48, 12], [4, 56, 64, 76]])
    >>> round(fit.d, 4), round(fit.meta_d, 3), round(fit["m_ratio"], 3)
    (1.0488, 1.97, 1.878)
    >>> padded = fit_meta_d([[84, 56, 48, 12], [4, 56, 64, 76]], pad=None)
    >>> round(padded.meta_d, 1), round(padded.m_ratio, 2)
    (1.9, 1.87)

    A stack: Table 1 and its mirror image (labels and responses swapped), which has the same
    meta-d′:

    >>> fits = fit_meta_d([[[84, 56, 48, 12], [4, 56, 64, 76]],
    ...                    [[76, 64, 56, 4], [12, 48, 56, 84]]])
    >>> fits.meta_d.round(3).tolist(), fits.t2c_S1.shape
    ([1.97, 1.97], (2, 1))

    With HMeta-d's meta-c = c the boundary between the two responses' ratings is c itself, not
    c·meta-d′/d′ (Table 1 has c = 0, where the two agree; here c = −0.26 and meta-d′ > d′):

    >>> x = [[84, 56, 48, 12], [4, 26, 64, 106]]
    >>> ml, hm = fit_meta_d(x), fit_meta_d(x, meta_c="c")
    >>> round(ml.c, 3), round(ml.meta_c, 3), round(hm.meta_c, 3)
    (-0.256, -0.298, -0.256)
    >>> round(ml.meta_d, 3), round(hm.meta_d, 3)
    (1.82, 1.852)
    """
    meta_c = as_choice(meta_c, META_C, "meta_c")
    table = as_count_table(counts, "counts", min_levels=2, row_names=_ROWS)
    lead = table.shape[:-2]
    flat = table.reshape((-1,) + table.shape[-2:])
    if lead:
        def where(i):
            at = tuple(int(j) for j in np.unravel_index(i, lead))
            return f" (table {at if len(lead) > 1 else at[0]})"
    else:
        def where(i):
            return ""
    fit = _fit(flat, pad, where, meta_c)
    if not lead:
        return replace(fit, **{k: scalar_or_array(fit[k][0]) for k in fit if k != "pad"})
    return replace(fit, **{k: fit[k].reshape(lead + fit[k].shape[1:]) for k in fit
                           if k != "pad"})
