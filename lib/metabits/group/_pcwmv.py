"""The exact accuracy and information of an optimally combined group (PCWMV): the members'
log-likelihood ratios convolved (Meyen et al., 2025, section "Relative Metainformation Improves
Group Accuracy")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits._formulas import h2, mutual_info_bits
from metabits.results import Result
from metabits.validation import as_prior, as_scalar
from metabits.validation._tables import as_member_tables
from metabits.group._llr import INF_KEY, MAX_CELLS, MAX_MEMBERS, RES, llr_keys

__all__ = ["GroupResult", "pcwmv"]


@dataclass(frozen=True)
class GroupResult(Result):
    """Accuracy and transmitted information of a group (:func:`pcwmv`, :func:`noise_group`).

    Attributes
    ----------
    acc : float or ndarray
        Group accuracy.
    info : float or ndarray
        Transmitted information :math:`I(Y; S)` of the group's summed evidence, in bits.
    """

    acc: object
    info: object


def _keys(table: np.ndarray, step):
    """Integer log-likelihood-ratio keys of a member's responses, dropping impossible ones."""
    pn, pp = table
    keep = (pp > 0) | (pn > 0)
    pp, pn = pp[keep], pn[keep]
    if step is not None and np.any((pp == 0) | (pn == 0)):
        raise ValueError("the lattice mode (step) needs finite log-odds, but a member has a "
                         "response with confidence 1: use step=None")
    return llr_keys(pn, pp, RES if step is None else step), pp, pn


def _add_exact(a, b):
    k = (a[0][:, None] + b[0][None, :]).ravel()
    pp, pn = np.outer(a[1], b[1]).ravel(), np.outer(a[2], b[2]).ravel()
    keep = (pp > 0) | (pn > 0)
    k, inv = np.unique(k[keep], return_inverse=True)
    return k, np.bincount(inv, pp[keep], k.size), np.bincount(inv, pn[keep], k.size)


def _dense(a):
    lo = a[0].min()
    n = int(a[0].max() - lo) + 1
    if n > MAX_CELLS:
        raise ValueError(f"step is too small for these log-odds: a member spans {n} lattice cells")
    return lo, np.bincount(a[0] - lo, a[1], n), np.bincount(a[0] - lo, a[2], n)


def _add_dense(a, b):
    from scipy.signal import convolve  # imported here: slow to import

    return (a[0] + b[0], np.clip(convolve(a[1], b[1]), 0.0, None),
            np.clip(convolve(a[2], b[2]), 0.0, None))


def pcwmv(members, prior=0.5, step=None, rule: str = "optimal") -> GroupResult:
    """Exact accuracy and transmitted information of an optimally combined group (PCWMV).

    The summed log-likelihood ratio S of conditionally independent members (Assumption 13) is a
    sufficient statistic; its distribution given each label is the convolution of the members'.
    The optimal group (Assumption 14, ties by a fair coin) has

    .. math::

        acc = \\sum_s \\max\\{p_+P(S=s\\mid+),\\\\
              p_-P(S=s\\mid-)\\},

        info = I(Y; S) = H_2(p_+)\\\\
               - E[H_2(P(Y=+1\\mid S))].

    With equal priors and symmetric members this is :math:`P(S>0\\mid+) + \\frac12 P(S=0\\mid+)`.

    Parameters
    ----------
    members : sequence of array_like, each shape (2, R)
        Response tables (see :mod:`metabits.group`); build them with
        :func:`~metabits.group.confidence_member`, :func:`~metabits.group.noise_member` or
        :func:`~metabits.group.max_group_member` / :func:`~metabits.group.min_group_member`.
    prior : float
        :math:`p_+ = P(Y = +1)`, strictly between 0 and 1.
    step : float, optional
        ``None`` (default): exact; responses with the same summed log-odds (to 1e-9) are
        merged, so the cost grows with the number of distinct sums (fine for few confidence
        levels, e.g. 25 identical members with up to three levels; ``scripts/bench_group.py``
        times it). A float: lattice mode; log-odds are rounded to multiples of ``step`` and
        convolved by FFT; exact for members from :func:`~metabits.group.lattice_member` with the
        same step.
    rule : {"optimal", "printed"}
        ``"optimal"`` (default): the Bayes group decision above, which adds the prior log-odds once
        to the summed log-likelihood ratios. ``"printed"``: the paper's
        :math:`\\mathrm{sign}(\\sum_k \\log\\frac{C_k}{1-C_k}\\hat Y_k)` with each member's
        calibrated (posterior) confidence, which counts the prior K times; it equals the optimal
        rule when :math:`p_+ = 0.5` and is given to show the difference otherwise (ties: fair
        coin).

    Returns
    -------
    GroupResult
        ``acc`` and ``info`` (bits).

    Raises
    ------
    ValueError
        For no members, tables that are not (2, R) with rows summing to 1, a prior outside (0, 1),
        an unknown rule, or confidence-1 responses in the lattice mode.

    References
    ----------
    Meyen et al. (2025), Assumptions 13–14, Theorem 8 and Figure 8.

    Examples
    --------
    >>> from metabits.group import noise_member
    >>> round(pcwmv([noise_member("uniform", 0.7)] * 3)["acc"], 3)   # Figure 8: 89.2%
    0.892
    """
    tables = as_member_tables(members, MAX_MEMBERS)
    p = as_prior(prior)
    if rule not in ("optimal", "printed"):
        raise ValueError(f"rule must be 'optimal' or 'printed'; got {rule!r}")
    if step is not None:
        step = as_scalar(step, "step")
        if not step > 0:
            raise ValueError(f"step must be positive; got {step!r}")
    parts = [_keys(t, step) for t in tables]
    if step is None:
        total = parts[0]
        for part in parts[1:]:
            total = _add_exact(total, part)
    else:
        total = _dense(parts[0])
        for part in parts[1:]:
            total = _add_dense(total, _dense(part))
    pos, neg = p * total[1], (1.0 - p) * total[2]
    h_y = float(h2(p))
    info = float(np.clip(mutual_info_bits(np.stack([pos, neg])), 0.0, h_y))
    if rule == "optimal":
        return GroupResult(acc=float(np.maximum(pos, neg).sum()), info=info)
    # the printed rule: sign of the summed posterior log-odds, S + K log(p+/p-)
    K = len(tables)
    if step is None:
        keys = total[0]
        infinite = np.abs(keys) >= INF_KEY // 2
        s = np.where(infinite, np.where(keys > 0, np.inf, -np.inf), np.where(infinite, 0, keys) * RES)
        tol = K * RES
    else:
        s = (total[0] + np.arange(total[1].size)) * float(step)
        tol = K * float(step) / 2
    v = s + K * np.log(p / (1.0 - p))
    say_pos, tie = v > tol, np.abs(v) <= tol
    acc = pos[say_pos].sum() + neg[~say_pos & ~tie].sum() + 0.5 * (pos + neg)[tie].sum()
    return GroupResult(acc=float(acc), info=info)
