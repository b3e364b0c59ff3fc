"""Formulas used by several modules, written once and without input checks.

Public functions validate their input (:mod:`metabits.validation`) and then call these kernels,
so each formula of the papers has one home. Only SciPy's special functions are imported here,
which keeps ``import metabits`` fast.
"""

from __future__ import annotations

import numpy as np
from scipy.special import entr, ndtr, ndtri

__all__ = ["LN2", "accuracy_of", "binary_channel_info", "dprime", "entropy_bits", "h2",
           "mutual_info_bits", "norm_pdf", "sdt_rates", "sdt_type1", "split_type1",
           "theorem3_lower",
           "theorem3_upper", "xlog2x", "z_two_sided"]

#: :math:`\ln 2`, to turn nats into bits.
LN2 = float(np.log(2.0))


def h2(p):
    """Binary entropy :math:`H_2(p)` in bits (``p`` already in [0, 1])."""
    return (entr(p) + entr(1.0 - p)) / LN2


def entropy_bits(p, axis=-1):
    """Entropy :math:`H(p) = -\\sum p \\log_2 p` in bits of (stacks of) distributions along
    ``axis`` (an int or a tuple of axes); terms with p = 0 count 0."""
    return entr(p).sum(axis=axis) / LN2


def mutual_info_bits(joint):
    """Mutual information :math:`I = H(\\text{rows}) + H(\\text{columns}) - H(\\text{joint})` in
    bits of (stacks of) joint probability tables (last two axes), each summing to 1."""
    return (entropy_bits(joint.sum(axis=-1)) + entropy_bits(joint.sum(axis=-2))
            - entropy_bits(joint, axis=(-2, -1)))


def binary_channel_info(pi, hit, fa):
    """Mutual information :math:`I(S; T) = H_2(P(S)) - H(S \\mid T)` in bits of a binary channel:
    input success rate ``pi`` = P(T = success), hit rate P(S = success | T = success) and
    false-alarm rate P(S = success | T = failure), all already in [0, 1]; not clipped."""
    p_s = pi * hit + (1.0 - pi) * fa  # P(S = success)
    return h2(p_s) - (pi * h2(hit) + (1.0 - pi) * h2(fa))


def xlog2x(x):
    """:math:`x \\log_2 x` (0 at x = 0): entropies in bits of counts, summed without dividing."""
    return -entr(x) / LN2


def dprime(acc):
    """:math:`d' = 2\\Phi^{-1}(acc)`: the sensitivity of the unbiased equal-variance normal
    classifier with accuracy ``acc`` (``inf`` at acc = 1)."""
    with np.errstate(divide="ignore"):
        return 2.0 * ndtri(acc)


def z_two_sided(level):
    """:math:`z = \\Phi^{-1}((1 + level)/2)`, the half-width in standard errors of a two-sided
    normal interval of coverage ``level`` (already in (0, 1)): 1.96 for 95%."""
    return ndtri(0.5 + level / 2)


def accuracy_of(d):
    """:math:`acc = \\Phi(d'/2)`, the inverse of :func:`dprime`."""
    return ndtr(np.asarray(d, dtype=float) / 2.0)


def sdt_type1(hit_rate, fa_rate):
    """Equal-variance SDT from the rates: :math:`d' = z(HR) - z(FAR)` and
    :math:`c = -(z(HR) + z(FAR))/2` (rates already in (0, 1)); returns ``(d, c)``."""
    zh, zf = ndtri(hit_rate), ndtri(fa_rate)
    return zh - zf, -0.5 * (zh + zf)


def split_type1(counts):
    """d′, c and the cumulative-split criteria c_k (k = 1 .. 2K−1) of (padded) tables
    (n, 2, 2K): SDT of every split of the 2K responses into "below" and "above", the Type 1
    split (k = K) giving d′ and c. The one d′ and c of the meta-d′ fit and of the measures."""
    tail = np.cumsum(counts[..., ::-1], axis=-1)[..., ::-1][..., 1:]  # responses above split k
    rates = tail / counts.sum(axis=-1, keepdims=True)  # row 0: FAR_k, row 1: HR_k
    d_k, crit = sdt_type1(rates[:, 1], rates[:, 0])  # d' and c of every cumulative split
    K = counts.shape[-1] // 2
    return d_k[:, K - 1], crit[:, K - 1], crit


def sdt_rates(d, c):
    """The inverse of :func:`sdt_type1`: :math:`HR = \\Phi(d'/2 - c)`, :math:`FAR = \\Phi(-d'/2 - c)`;
    returns ``(hit_rate, fa_rate)``."""
    d, c = np.asarray(d, dtype=float), np.asarray(c, dtype=float)
    return ndtr(d / 2.0 - c), ndtr(-d / 2.0 - c)


def norm_pdf(x):
    """The standard normal density :math:`\\varphi(x)`."""
    return np.exp(-0.5 * np.square(x)) / np.sqrt(2.0 * np.pi)


def theorem3_lower(acc, prior, h2_acc=None):
    """Theorem 3's lower bound :math:`H_2(p_+) - H_2(acc)` (Fano; binary labels); ``h2_acc`` is
    :math:`H_2(acc)` where the caller has it already (the many resampled tables)."""
    return h2(prior) - (h2(acc) if h2_acc is None else h2_acc)


def theorem3_upper(acc, prior):
    """Theorem 3's upper bound :math:`H_2(p_+) - 2(1 - acc)` (binary labels)."""
    return h2(prior) - 2.0 * (1.0 - acc)
