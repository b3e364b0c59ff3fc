"""Group accuracy of optimally combined classifiers (Meyen et al., 2025, section "Relative
Metainformation Improves Group Accuracy").

Majority voting (MV), confidence weighted majority voting (CWMV), the exact accuracy and
information of predictionwise confidence weighted majority voting (PCWMV), the group accuracy
bounds of Theorem 8, the noise groups of Figure 8, and Monte Carlo simulations.

**Members.** A member is given by its *response table*, a ``(2, R)`` array whose rows are
:math:`P(r \\mid Y=+1)` and :math:`P(r \\mid Y=-1)` over its R responses (a response is a prediction
with a confidence). Members are conditionally independent given Y (Assumption 13) and the group
combines them optimally (Assumption 14), i.e. it predicts the sign of the summed log-likelihood
ratios plus the prior log-odds. :func:`confidence_member` builds the table of a calibrated member
from its confidence distribution (Assumptions 11–12), :func:`lattice_member` of a continuous one,
:func:`noise_member` of the three noise classifiers.

**Ties.** The paper's rule :math:`\\mathrm{sign}(\\sum_k \\log\\frac{C_k}{1-C_k}\\hat Y_k)` is undefined
when the sum is 0; the paper omits even groups ("tie-breaker problem") and attributes the step-like
trajectory of binary-noise groups in Figure 8b to it. We break exact ties with a fair coin. At an
exact tie the group posterior is 1/2, so *every* tie rule is correct with probability 1/2 there and
the optimal group accuracy is :math:`\\sum_s \\max\\{p_+P(s\\mid+),\\,p_-P(s\\mid-)\\}` over the values s
of the summed log-likelihood ratio. To find ties exactly despite rounding, log-likelihood ratios
are keyed by integers (multiples of 2⁻³⁰ ≈ 1e-9, or of ``step`` in the lattice mode) and sums are
taken over the integer keys (sums closer than about K·1e-9 count as ties); infinite ratios
(confidence 1) get the key ±2⁵².

**Unequal priors.** Theorem 8 drops Assumptions 11–12. Then the optimal rule adds the prior
log-odds :math:`\\log(p_+/p_-)` once to the summed log-*likelihood* ratios; summing the members'
posterior log-odds :math:`\\log\\frac{C_k}{1-C_k}` as printed counts the prior K times.
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from scipy.signal import convolve
from scipy.special import entr, expit, logit

from ._validate import (TOL, as_distribution, as_float_array, as_probability, as_rng, as_scalar,
                        scalar_or_array)
from .information import LN2, binary_entropy
from .noise import NOISE_TYPES, discrete_confidence, dprime_from_accuracy, normal_info

_RES = 2.0 ** -30      # log-odds resolution of the exact-tie keys
_INF_KEY = 2 ** 52     # key of an infinite log-likelihood ratio
MAX_MEMBERS = 1024     # keeps every sum of keys inside int64
MAX_PATTERN_K = 20     # CWMV and the lower bound enumerate 2**K prediction patterns


# --------------------------------------------------------------------------------- validation
def _group_size(K) -> np.ndarray:
    K = as_float_array(K, "group size K")
    if np.any(K < 1) or np.any(K != np.round(K)) or np.any(K > 2.0 ** 53):
        bad = K[(K < 1) | (K != np.round(K)) | (K > 2.0 ** 53)].ravel()[0]
        raise ValueError(f"group size K must be a positive integer up to 2**53; got {bad:g}")
    return K.astype(np.int64)


def _prior(prior) -> float:
    p = as_float_array(prior, "prior p+")
    if p.ndim or not 0.0 < float(p) < 1.0:
        raise ValueError(f"prior p+ must be a single probability strictly between 0 and 1; "
                         f"got {prior!r}")
    return float(p)


def _count(n, name: str, least: int = 1) -> int:
    try:
        ok = not isinstance(n, bool) and float(n).is_integer() and n >= least
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer >= {least}; got {n!r}")
    return int(n)


def _tables(members) -> list[np.ndarray]:
    if isinstance(members, np.ndarray) and members.ndim == 2:
        raise ValueError("members must be a sequence of (2, R) response tables; "
                         "wrap one member in a list")
    members = list(members)
    if not members:
        raise ValueError("a group needs at least one member (K >= 1); got no members")
    if len(members) > MAX_MEMBERS:
        raise ValueError(f"at most {MAX_MEMBERS} members are supported; got {len(members)}")
    out = []
    for i, t in enumerate(members):
        t = as_distribution(t, f"response table of member {i}")
        if t.ndim != 2 or t.shape[0] != 2:
            raise ValueError(f"response table of member {i} must have shape (2, R) with rows "
                             f"P(r|Y=+1), P(r|Y=-1); got shape {t.shape}")
        out.append(t)
    return out


# ------------------------------------------------------------------------------------ members
def confidence_member(c, weights=None) -> np.ndarray:
    """Response table of a calibrated member with confidence values ``c`` and their ``weights``.

    Under equal priors and label-independent confidence (Assumptions 11–12) a member with
    confidence c is correct with probability c, so
    :math:`P(\\hat Y=+1, C=c \\mid Y=+1) = f_C(c)\\,c` and :math:`P(\\hat Y=-1, C=c \\mid Y=+1) = f_C(c)(1-c)`,
    and mirrored for Y = −1.

    Parameters
    ----------
    c : array_like, shape (R,)
        Confidence values in [0.5, 1].
    weights : array_like, shape (R,), optional
        Their probabilities (summing to 1); equal if omitted.

    Returns
    -------
    ndarray, shape (2, 2R)
        Responses "predict +1 with c" then "predict −1 with c".

    Raises
    ------
    ValueError
        For confidences outside [0.5, 1], weights that are not a distribution, or mismatched lengths.
    """
    c = np.atleast_1d(as_probability(c, "confidence c", 0.5, 1.0))
    w = np.full(c.shape, 1.0 / c.size) if weights is None else np.atleast_1d(
        as_distribution(weights, "weights"))
    if c.ndim != 1 or c.shape != w.shape:
        raise ValueError(f"confidence values {c.shape} and weights {w.shape} must be 1-D of "
                         "equal length")
    right, wrong = w * c, w * (1.0 - c)
    return np.array([np.concatenate([right, wrong]), np.concatenate([wrong, right])])


def lattice_member(abs_llr_cdf, step: float = 0.01, tail: float = 1e-12) -> np.ndarray:
    """Response table of a continuous calibrated member, discretised on a log-odds lattice.

    The member's absolute log-odds :math:`\\Lambda = |\\log\\frac{C}{1-C}|` (label-independent,
    Assumptions 11–12) is binned into cells :math:`[(j-\\tfrac12)h, (j+\\tfrac12)h)` of width
    ``h = step``; a cell of mass :math:`m_j` becomes the confidence :math:`\\sigma(jh)`. The result is
    itself a calibrated member whose log-likelihood ratios lie on the lattice, so :func:`pcwmv`
    with the same ``step`` convolves it exactly by FFT. The discretisation changes group accuracy
    and information by O(h²): for normal noise with acc in [0.55, 0.95], K ≤ 25 and h = 0.01 the
    error is below 3e-5 (tested against the exact :func:`noise_group`).

    Parameters
    ----------
    abs_llr_cdf : callable
        Vectorised :math:`\\lambda \\mapsto P(\\Lambda \\le \\lambda)` for λ ≥ 0.
    step : float
        Lattice width h > 0.
    tail : float
        Mass beyond the last cell that is folded into it.
    """
    h = as_scalar(step, "step")
    tail = as_scalar(tail, "tail")
    if not 0.0 < tail < 1.0:
        raise ValueError(f"tail must lie strictly between 0 and 1; got {tail:g}")
    if h <= 0:
        raise ValueError(f"step must be positive; got {h:g}")
    top = 8.0
    while 1.0 - float(abs_llr_cdf(top)) > tail:
        top *= 2.0
        if top > 4096:
            raise ValueError("abs_llr_cdf does not reach 1: is it a CDF of |log-odds|?")
    edges = (np.arange(int(np.ceil(top / h)) + 1) + 0.5) * h
    cdf = np.maximum.accumulate(np.clip(abs_llr_cdf(edges), 0.0, 1.0))
    cdf = cdf[: np.count_nonzero(1.0 - cdf > tail) + 1]  # the last cell takes the remaining tail
    mass = np.diff(np.concatenate([[0.0], cdf[:-1], [1.0]]))
    lam = np.arange(mass.size) * h
    right, wrong = mass * expit(lam), mass * expit(-lam)
    return np.array([np.concatenate([right, wrong]), np.concatenate([wrong, right])])


def noise_member(kind: str, acc: float, step: float = 0.01) -> np.ndarray:
    """Response table of a uniform, binary (exact) or normal (lattice, see :func:`lattice_member`)
    noise classifier with accuracy ``acc`` (Meyen et al., 2025, Figure 2)."""
    if kind != "normal":
        return confidence_member(*discrete_confidence(kind, acc))
    d = float(dprime_from_accuracy(acc))
    if not np.isfinite(d):
        raise ValueError("normal noise with acc = 1 has infinite log-odds: use acc < 1")

    def cdf(lam):  # P(d'|X| <= lam) with X ~ N(d'/2, 1)
        if d == 0:
            return np.ones_like(np.asarray(lam, dtype=float))
        a = np.asarray(lam) / d
        return stats.norm.cdf(a - d / 2) - stats.norm.cdf(-a - d / 2)

    return lattice_member(cdf, step)


def max_group_member(acc_pos: float, acc_neg: float, prior: float = 0.5) -> np.ndarray:
    """A member with RMI = 1 and the given true positive / negative rates: it attains Theorem 8's
    upper bound in every group of such members, for any prior.

    Responses: certain +1, certain −1, and two responses with posterior exactly 1/2 (predicting
    +1 and −1). With :math:`e = 1 - acc` the certain responses have probability :math:`1 - e/p_+`
    given Y = +1 and :math:`1 - e/p_-` given Y = −1.
    """
    tp, tn, p, acc = _one_member(acc_pos, acc_neg, prior)
    e = 1.0 - acc
    sure_p, sure_n = max(1.0 - e / p, 0.0), max(1.0 - e / (1.0 - p), 0.0)
    odds = p / (1.0 - p)
    return np.array([[sure_p, 0.0, tp - sure_p, 1.0 - tp],
                     [0.0, sure_n, (tp - sure_p) * odds, (1.0 - tp) * odds]])


def min_group_member(acc_pos: float, acc_neg: float) -> np.ndarray:
    """A member that reports only its prediction (constant confidence per prediction): it attains
    Theorem 8's lower bound in every group of such members; RMI = 0 under Assumptions 11–12."""
    tp, tn, _, _ = _one_member(acc_pos, acc_neg, 0.5, check_bayes=False)
    return np.array([[tp, 1.0 - tp], [1.0 - tn, tn]])


def _one_member(acc_pos, acc_neg, prior, check_bayes=True):
    tp, tn, p, acc = _rates(acc_pos, acc_neg, prior, check_bayes)
    if tp.size != 1:
        raise ValueError(f"this builds one member: acc_pos and acc_neg must be single numbers; "
                         f"got shape {tp.shape}")
    return float(tp[0]), float(tn[0]), p, float(acc[0])


# ------------------------------------------------------------------------- MV, CWMV, Theorem 8
def majority_vote_accuracy(acc, K):
    """Accuracy of majority voting among K members of equal accuracy ``acc`` (Assumptions 9–14).

    :math:`acc_{MV} = \\sum_{i=\\lfloor K/2\\rfloor+1}^{K}\\binom{K}{i} acc^i (1-acc)^{K-i}` for odd K. For
    even K a tie is broken by a fair coin, adding :math:`\\frac12\\binom{K}{K/2}acc^{K/2}(1-acc)^{K/2}`,
    which makes :math:`acc_{MV}(2m) = acc_{MV}(2m-1)` (the steps of Figure 8b). Broadcasts over
    ``acc`` and ``K``.

    Raises
    ------
    ValueError
        For accuracies outside [0, 1] or K not a positive integer.
    """
    acc, K = np.broadcast_arrays(as_probability(acc, "acc"), _group_size(K))
    half = K // 2
    tie = np.where(K % 2 == 0, 0.5 * stats.binom.pmf(half, K, acc), 0.0)
    return scalar_or_array(stats.binom.sf(half, K, acc) + tie)


def _patterns_accuracy(tp, tn, p):
    """:math:`\\sum_{\\hat y \\in \\{\\pm1\\}^K}\\max\\{p_+P(\\hat y\\mid+), p_-P(\\hat y\\mid-)\\}` (last axis = K)."""
    K = tp.shape[-1]
    if K > MAX_PATTERN_K:
        raise ValueError(f"enumerating 2**K patterns is limited to K <= {MAX_PATTERN_K}; "
                         f"got K = {K} (use pcwmv with min_group_member tables for larger groups)")
    plus = ((np.arange(2 ** K)[:, None] >> np.arange(K)) & 1).astype(bool)  # (2^K, K)
    tp, tn = tp[..., None, :], tn[..., None, :]
    given_pos = np.where(plus, tp, 1.0 - tp).prod(axis=-1)
    given_neg = np.where(plus, 1.0 - tn, tn).prod(axis=-1)
    return np.maximum(p * given_pos, (1.0 - p) * given_neg).sum(axis=-1)


def cwmv_accuracy(acc):
    """Accuracy of confidence weighted majority voting for members with accuracies ``acc``.

    The group votes with weights :math:`\\log\\frac{acc_k}{1-acc_k}` (Assumptions 10–14), and a tie
    is a fair coin. Enumerating the :math:`2^K` prediction patterns,

    .. math:: acc_{CWMV} = \\frac12 \\sum_{\\hat y\\in\\{\\pm1\\}^K} \\max\\Big\\{\\prod_k acc_k^{[\\hat y_k=+1]}
              (1-acc_k)^{[\\hat y_k=-1]},\\ \\prod_k (1-acc_k)^{[\\hat y_k=+1]} acc_k^{[\\hat y_k=-1]}\\Big\\}

    (the max is missing in the formula as printed, which would always give 1/2). Equals the lower
    bound of Theorem 8 with equal priors.

    Parameters
    ----------
    acc : array_like, shape (..., K)
        Member accuracies in [0, 1] along the last axis (K ≤ 20); leading axes are vectorised.
    """
    acc = as_probability(acc, "acc")
    if acc.ndim == 0 or acc.shape[-1] == 0:
        raise ValueError("acc must list the K >= 1 members' accuracies along its last axis")
    return scalar_or_array(_patterns_accuracy(acc, acc, 0.5))


def _rates(acc_pos, acc_neg, prior, check_bayes: bool = True):
    tp = np.atleast_1d(as_probability(acc_pos, "acc_pos (true positive rates)"))
    tn = np.atleast_1d(as_probability(acc_neg, "acc_neg (true negative rates)"))
    if tp.shape != tn.shape:
        raise ValueError(f"acc_pos and acc_neg need one rate per member each; got shapes "
                         f"{tp.shape} and {tn.shape}")
    if tp.shape[-1] == 0:
        raise ValueError("a group needs at least one member (K >= 1); got no rates")
    p = _prior(prior)
    acc = p * tp + (1.0 - p) * tn
    top = max(p, 1.0 - p)
    if check_bayes and np.any(acc < top - TOL):
        bad = acc[acc < top - TOL].ravel()[0]
        raise ValueError(f"member accuracy p+·acc+ + (1−p+)·acc− = {bad:g} is below the larger "
                         f"prior {top:g}: its predictions are not Bayes predictions (Assumption 4)")
    return tp, tn, p, np.clip(acc, top, 1.0)


def group_accuracy_bounds(acc_pos, acc_neg, prior=0.5):
    """Lowest and highest PCWMV group accuracy given the members' label-specific accuracies
    (Theorem 8).

    Upper bound :math:`1 - \\prod_k (1 - acc_k) / \\max(p_+, p_-)^{K-1}` with
    :math:`acc_k = p_+ acc_{k+} + p_- acc_{k-}`, attained by RMI = 1 members (:func:`max_group_member`).
    The paper prints :math:`p_+^{K-1}`, the same under its Assumption 2 (:math:`p_+ \\ge 0.5`); for
    :math:`p_+ < 0.5` that printed value is exceeded by such groups. Lower bound
    :math:`\\sum_{\\hat y}\\max\\{p_+\\prod_k acc_{k+}^{[\\hat y_k=+1]}(1-acc_{k+})^{[\\hat y_k=-1]},
    p_-\\prod_k(1-acc_{k-})^{[\\hat y_k=+1]}acc_{k-}^{[\\hat y_k=-1]}\\}`, attained by members that
    report only their prediction (:func:`min_group_member`); with equal priors and rates it is the
    CWMV accuracy.

    Parameters
    ----------
    acc_pos, acc_neg : array_like, shape (..., K)
        True positive rates :math:`acc_{k+}` and true negative rates :math:`acc_{k-}` (K ≤ 20 for
        the lower bound); leading axes are vectorised.
    prior : float
        :math:`p_+ = P(Y=+1)`, strictly between 0 and 1.

    Returns
    -------
    (lower, upper) : tuple of float or ndarray

    Raises
    ------
    ValueError
        For rates outside [0, 1], mismatched shapes, no members, a prior outside (0, 1), or a member
        whose accuracy is below the larger prior (its predictions would not be Bayes predictions).
    """
    tp, tn, p, acc = _rates(acc_pos, acc_neg, prior)
    K = tp.shape[-1]
    upper = 1.0 - np.prod(1.0 - acc, axis=-1) / max(p, 1.0 - p) ** (K - 1)
    return scalar_or_array(_patterns_accuracy(tp, tn, p)), scalar_or_array(upper)


def member_confidence(table, prior=0.5) -> np.ndarray:
    """Calibrated confidence of each response of a member: the posterior of its predicted label,
    :math:`\\max\\{p_+P(r\\mid+),\\ p_-P(r\\mid-)\\}/(p_+P(r\\mid+) + p_-P(r\\mid-))` (Bayes' rule).

    Raises
    ------
    ValueError
        For a table that is not (2, R) with rows summing to 1, a prior outside (0, 1), or a response
        that never occurs.
    """
    (t,) = _tables([table])
    p = _prior(prior)
    pos, neg = p * t[0], (1.0 - p) * t[1]
    if np.any(pos + neg == 0):
        raise ValueError("a response of the member never occurs: its confidence is undefined")
    return np.maximum(pos, neg) / (pos + neg)


def theorem8_upper_as_printed(acc_pos, acc_neg, prior=0.5):
    """Theorem 8's upper bound exactly as the paper prints it, :math:`1 - \\prod_k(1 - acc_k)/p_+^{K-1}`.

    For comparison only: it equals the upper bound of :func:`group_accuracy_bounds` when
    :math:`p_+ \\ge 0.5` (the paper's Assumption 2) and is exceeded by RMI = 1 groups when
    :math:`p_+ < 0.5`. Arguments and errors as :func:`group_accuracy_bounds`.
    """
    tp, tn, p, acc = _rates(acc_pos, acc_neg, prior)
    K = tp.shape[-1]
    return scalar_or_array(1.0 - np.prod(1.0 - acc, axis=-1) / p ** (K - 1))


# ------------------------------------------------------------------------------ exact PCWMV
def _llr_keys(pp, pn, scale):
    """Integer keys of the log-likelihood ratios log(pp/pn) in units of ``scale``; ±_INF_KEY for a
    response that only one label produces (0 for one that neither does)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        llr = np.log(pp) - np.log(pn)
    finite = np.isfinite(llr)
    cells = np.where(finite, llr, 0.0) / scale
    if np.any(np.abs(cells) > 2.0 ** 50):
        raise ValueError(f"step = {scale:g} is too small for these log-odds (over 2**50 cells)")
    return np.where(finite, np.rint(cells), np.sign(np.nan_to_num(llr)) * _INF_KEY).astype(np.int64)


def _keys(table: np.ndarray, step):
    """Integer log-likelihood-ratio keys of a member's responses, dropping impossible ones."""
    pp, pn = table
    keep = (pp > 0) | (pn > 0)
    pp, pn = pp[keep], pn[keep]
    if step is not None and np.any((pp == 0) | (pn == 0)):
        raise ValueError("the lattice mode (step) needs finite log-odds, but a member has a "
                         "response with confidence 1: use step=None")
    return _llr_keys(pp, pn, _RES if step is None else step), pp, pn


def _add_exact(a, b):
    k = (a[0][:, None] + b[0][None, :]).ravel()
    pp, pn = np.outer(a[1], b[1]).ravel(), np.outer(a[2], b[2]).ravel()
    keep = (pp > 0) | (pn > 0)
    k, inv = np.unique(k[keep], return_inverse=True)
    return k, np.bincount(inv, pp[keep], k.size), np.bincount(inv, pn[keep], k.size)


def _dense(a):
    lo = a[0].min()
    n = int(a[0].max() - lo) + 1
    if n > 10 ** 7:
        raise ValueError(f"step is too small for these log-odds: a member spans {n} lattice cells")
    return lo, np.bincount(a[0] - lo, a[1], n), np.bincount(a[0] - lo, a[2], n)


def _add_dense(a, b):
    return (a[0] + b[0], np.clip(convolve(a[1], b[1]), 0.0, None),
            np.clip(convolve(a[2], b[2]), 0.0, None))


def pcwmv(members, prior=0.5, step=None, rule: str = "optimal") -> dict:
    """Exact accuracy and transmitted information of an optimally combined group (PCWMV).

    The summed log-likelihood ratio S of conditionally independent members (Assumption 13) is a
    sufficient statistic; its distribution given each label is the convolution of the members'.
    The optimal group (Assumption 14, ties by a fair coin) has

    .. math:: acc = \\sum_s \\max\\{p_+P(S=s\\mid+),\\ p_-P(S=s\\mid-)\\},\\qquad
              info = I(Y; S) = H_2(p_+) - E[H_2(P(Y=+1\\mid S))].

    With equal priors and symmetric members this is :math:`P(S>0\\mid+) + \\frac12 P(S=0\\mid+)`.

    Parameters
    ----------
    members : sequence of array_like, each shape (2, R)
        Response tables (see the module docstring); build them with :func:`confidence_member`,
        :func:`noise_member` or :func:`max_group_member` / :func:`min_group_member`.
    prior : float
        :math:`p_+`, strictly between 0 and 1.
    step : float, optional
        ``None`` (default): exact; responses with the same summed log-odds (to 1e-9) are merged, so
        the cost grows with the number of distinct sums (fine for few confidence levels; 25
        identical members with up to three levels take well under a second). A float: lattice
        mode; log-odds are rounded to multiples of ``step`` and convolved by FFT; exact for members
        from :func:`lattice_member` with the same step.
    rule : {"optimal", "printed"}
        ``"optimal"`` (default): the Bayes group decision above, which adds the prior log-odds once
        to the summed log-likelihood ratios. ``"printed"``: the paper's
        :math:`\\mathrm{sign}(\\sum_k \\log\\frac{C_k}{1-C_k}\\hat Y_k)` with each member's
        calibrated (posterior) confidence, which counts the prior K times; it equals the optimal rule
        when :math:`p_+ = 0.5` and is given to show the difference otherwise (ties: fair coin).

    Returns
    -------
    dict
        ``acc`` and ``info`` (bits).

    Raises
    ------
    ValueError
        For no members, tables that are not (2, R) with rows summing to 1, a prior outside (0, 1), or
        confidence-1 responses in the lattice mode.
    """
    tables = _tables(members)
    p = _prior(prior)
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
    info = (entr(pos + neg).sum() - entr(pos).sum() - entr(neg).sum()) / LN2
    h_y = float(binary_entropy(p))
    info = float(np.clip(info + h_y, 0.0, h_y))
    if rule == "optimal":
        return {"acc": float(np.maximum(pos, neg).sum()), "info": info}
    # the printed rule: sign of the summed posterior log-odds, S + K log(p+/p-)
    K = len(tables)
    if step is None:
        keys = total[0]
        infinite = np.abs(keys) >= _INF_KEY // 2
        s = np.where(infinite, np.where(keys > 0, np.inf, -np.inf), np.where(infinite, 0, keys) * _RES)
        tol = K * _RES
    else:
        s = (total[0] + np.arange(total[1].size)) * float(step)
        tol = K * float(step) / 2
    v = s + K * np.log(p / (1.0 - p))
    say_pos, tie = v > tol, np.abs(v) <= tol
    acc = pos[say_pos].sum() + neg[~say_pos & ~tie].sum() + 0.5 * (pos + neg)[tie].sum()
    return {"acc": float(acc), "info": info}


# --------------------------------------------------------------------------------- noise groups
def noise_group(kind: str, acc, K) -> dict:
    """Accuracy and information of a group of K identical noise members of accuracy ``acc``.

    Closed forms (Figure 8), broadcasting over ``acc`` and ``K``:

    * **uniform** (RMI = 1): the group is wrong only by a coin flip when every member is unsure,
      :math:`acc = 1 - \\frac12(2(1-acc_1))^K` (the Theorem 8 upper bound) and
      :math:`info = 1 - (2(1-acc_1))^K`: again a uniform-noise classifier.
    * **normal**: the summed log-odds :math:`d'\\sum X_k` are those of one normal classifier with
      :math:`d'_K = \\sqrt K d'`, so :math:`acc = \\Phi(\\sqrt K d'/2)`, info = ``normal_info(√K d′)``.
    * **binary** (RMI = 0): MV with fair-coin ties (the Theorem 8 lower bound) and
      :math:`info = 1 - \\sum_n \\binom Kn acc_1^n(1-acc_1)^{K-n} H_2(\\sigma((2n-K)\\,\\mathrm{logit}\\,acc_1))`.

    Raises
    ------
    ValueError
        For an unknown kind, ``acc`` outside [0.5, 1] or K not a positive integer.
    """
    if kind not in NOISE_TYPES:
        raise ValueError(f"noise kind must be one of {NOISE_TYPES}; got {kind!r}")
    a, K = np.broadcast_arrays(as_probability(acc, "acc", 0.5, 1.0), _group_size(K))
    if kind == "uniform":
        miss = (2.0 * (1.0 - a)) ** K
        g_acc, info = 1.0 - miss / 2.0, 1.0 - miss
    elif kind == "normal":
        with np.errstate(over="ignore", invalid="ignore"):
            dk = np.sqrt(K) * 2.0 * stats.norm.ppf(a)
        sure = ~np.isfinite(dk)
        g_acc = np.where(sure, 1.0, stats.norm.cdf(np.where(sure, 0.0, dk) / 2.0))
        info = np.where(sure, 1.0, normal_info(np.where(sure, 0.0, dk)))
    else:
        g_acc = majority_vote_accuracy(a, K)
        n = np.arange(int(K.max()) + 1)
        pmf = stats.binom.pmf(n, K[..., None], a[..., None])
        margin = 2 * n - K[..., None]  # (correct − wrong) votes
        with np.errstate(invalid="ignore"):
            post = np.where(margin == 0, 0.5, expit(margin * logit(a[..., None])))
        h = np.where(pmf > 0, binary_entropy(np.nan_to_num(post, nan=0.5)), 0.0)
        info = 1.0 - (pmf * h).sum(axis=-1)
    return {"acc": scalar_or_array(np.asarray(g_acc, dtype=float)),
            "info": scalar_or_array(np.asarray(info, dtype=float))}


# ------------------------------------------------------------------------------- simulations
def simulate_pcwmv(members, n: int, rng=None, prior=0.5) -> dict:
    """Monte Carlo accuracy of an optimally combined group: ``n`` independent trials.

    Each trial draws Y (P(Y=+1) = ``prior``), each member's response from its table given Y, and
    the group prediction from the summed log-likelihood-ratio keys against the prior's (fair coin
    on exact ties), exactly as :func:`pcwmv` scores it.

    Returns
    -------
    dict
        ``acc`` (fraction correct) and ``se`` (its binomial standard error).
    """
    tables = _tables(members)
    p = _prior(prior)
    n = _count(n, "n")
    rng = as_rng(rng)
    y_pos = rng.random(n) < p
    total = np.zeros(n, dtype=np.int64)
    for t in tables:
        keys = _llr_keys(t[0], t[1], _RES)
        u = rng.random(n)
        r = np.where(y_pos, np.searchsorted(np.cumsum(t[0]), u, side="right"),
                     np.searchsorted(np.cumsum(t[1]), u, side="right"))
        total += keys[np.minimum(r, t.shape[1] - 1)]
    threshold = np.int64(np.rint(np.log((1.0 - p) / p) / _RES))
    says_pos = np.where(total == threshold, rng.random(n) < 0.5, total > threshold)
    acc = float(np.mean(says_pos == y_pos))
    return {"acc": acc, "se": float(np.sqrt(acc * (1.0 - acc) / n))}


def simulate_students(kind: str, acc: float, K: int, n_groups: int = 1000, n_questions: int = 200,
                      rng=None, n_topics: int = 1000, coordinated: bool = False) -> dict:
    """Simulate the exam of section "Specialists Outperform Generalists Even Without Coordination".

    ``n_groups · K`` students prepare for yes/no questions (equally likely answers) on
    ``n_topics`` topics and are then randomly assigned to groups of K that combine their
    calibrated confidences optimally. Every student has individual accuracy ``acc``:

    * ``"uniform"`` — *specialists*: each learns a random set of ``round((2 acc − 1) n_topics)``
      topics exhaustively (answers there correctly with confidence 1) and guesses with confidence
      0.5 elsewhere: uniform-noise members. With ``coordinated=True`` the K members of a group split
      the topics between them instead (violating Assumption 13).
    * ``"binary"`` — generalists always answering with confidence ``acc``.
    * ``"normal"`` — generalists with normal noise (confidence ``σ(d′|X|)``).

    Returns
    -------
    dict
        ``acc``: fraction of correct group answers; ``se``: its standard error from the spread of
        the independent groups' means; ``exact``: the exact value (:func:`noise_group`, or
        ``1/2 + min(1, K·q)/2`` for coordinated specialists knowing a fraction q each);
        ``individual_acc``: the students' actual accuracy (topics come in whole units).
    """
    if kind not in NOISE_TYPES:
        raise ValueError(f"student kind must be one of {NOISE_TYPES}; got {kind!r}")
    a = float(as_probability(acc, "acc", 0.5, 1.0))
    K, n_groups, n_questions, n_topics = (_count(v, name, least) for v, name, least in [
        (K, "group size K", 1), (n_groups, "n_groups (the standard error needs two groups)", 2),
        (n_questions, "n_questions", 1), (n_topics, "n_topics", 1)])
    rng = as_rng(rng)
    y = rng.choice(np.array([-1, 1]), n_questions)
    shape = (n_groups, K, n_questions)
    exact = None
    if kind == "uniform":
        m = int(round((2.0 * a - 1.0) * n_topics))
        a = 0.5 + m / (2.0 * n_topics)
        if coordinated:  # member j of a group learns the j-th block of its group's topic order
            order = rng.permuted(np.tile(np.arange(n_topics), (n_groups, 1)), axis=1)
            learned = order[:, (np.arange(K)[:, None] * m + np.arange(m)) % n_topics]
            exact = 0.5 + min(1.0, K * m / n_topics) / 2.0
        else:  # each student learns m random topics; then random assignment to groups
            order = rng.permuted(np.tile(np.arange(n_topics), (n_groups * K, 1)), axis=1)[:, :m]
            learned = order[rng.permutation(n_groups * K)].reshape(n_groups, K, m)
        known = np.zeros((n_groups, K, n_topics), dtype=bool)
        np.put_along_axis(known, learned, True, axis=2)
        knows = known[:, :, rng.integers(n_topics, size=n_questions)]
        keys = np.where(knows, y * _INF_KEY, 0)
    elif kind == "binary":
        correct = rng.random(shape) < a
        key = _INF_KEY if a == 1.0 else np.int64(np.rint(logit(a) / _RES))
        keys = np.where(correct, y, -y) * key
    else:
        if a == 1.0:
            raise ValueError("normal-noise students with acc = 1 have infinite d': use acc < 1")
        d = float(dprime_from_accuracy(a))
        x = y * d / 2.0 + rng.standard_normal(shape)
        keys = np.rint(d * x / _RES).astype(np.int64)
    total = keys.sum(axis=1)
    answer = np.where(total == 0, rng.choice(np.array([-1, 1]), total.shape), np.sign(total))
    per_group = (answer == y).mean(axis=1)
    return {"acc": float(per_group.mean()), "se": float(per_group.std(ddof=1) / np.sqrt(n_groups)),
            "exact": float(noise_group(kind, a, K)["acc"]) if exact is None else exact,
            "individual_acc": a}
