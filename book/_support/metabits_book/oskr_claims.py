"""Two verbal claims of Roberts (2026) about OSKR, made computable.

* OSKR "is the fraction of channel capacity actually used by the self-assessment signal". OSKR is
  :math:`I(S;T)/H(T)`; the share of the self-report channel's capacity in use is
  :math:`I(S;T)/C` with :math:`C = \\max_{P(T)} I(S;T)` (:func:`channel_capacity`,
  :func:`capacity_share`). The two agree only for a symmetric channel at a balanced outcome.
* OSKR is "calibration expressed in the native currency of information theory". OSKR reads only
  the joint distribution of outcome and self-report, not what the self-report *states*, so it
  cannot see miscalibration: :func:`calibration_gap` measures how far stated success
  probabilities are from the observed ones, and a relabelled or distorted statement changes it
  while OSKR stays the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.info import binary_entropy
from metabits.results import Result
from metabits.validation import as_counts, as_probability, scalar_or_array

__all__ = ["Capacity", "calibration_gap", "capacity_share", "channel_capacity"]

_GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0


@dataclass(frozen=True)
class Capacity(Result):
    """Capacity of a binary self-report channel (:func:`channel_capacity`).

    Attributes
    ----------
    capacity : float or ndarray
        :math:`C = \\max_{P(T)} I(S;T)` in bits.
    prevalence : float or ndarray
        The success rate P(T = success) that attains it.
    """

    capacity: object
    prevalence: object



def _channel_info(pi, hit, fa):
    """I(S; T) in bits of a binary channel with input rate ``pi``, hit and false-alarm rates."""
    return binary_entropy(pi * hit + (1.0 - pi) * fa) - (pi * binary_entropy(hit)
                                                          + (1.0 - pi) * binary_entropy(fa))

def channel_capacity(hit_rate, false_alarm) -> Capacity:
    """Capacity of the binary channel from outcome T to self-report S, in bits.

    The channel is :math:`P(S = \\text{success} \\mid T = \\text{success})` = ``hit_rate`` and
    :math:`P(S = \\text{success} \\mid T = \\text{failure})` = ``false_alarm``, as in
    :func:`metabits.oskr.binary_channel`. The mutual information is concave in the input
    distribution, so a golden-section search over the success rate finds the maximum
    (vectorised; 100 steps, accurate to about 1e-15 in the rate).

    Parameters
    ----------
    hit_rate, false_alarm : float or array_like
        Rates in [0, 1]; arrays broadcast together.

    Returns
    -------
    Capacity
        ``capacity`` (bits) and the ``prevalence`` that attains it.

    Raises
    ------
    ValueError
        For rates outside [0, 1].

    References
    ----------
    Cover & Thomas (2006), *Elements of Information Theory*, ch. 7 (the binary symmetric channel:
    :math:`C = 1 - H_2(\\varepsilon)` at a balanced input; the Z-channel).

    Examples
    --------
    >>> c = channel_capacity(0.8, 0.2)          # symmetric: 1 - H2(0.2), balanced input
    >>> round(c.capacity, 4), round(c.prevalence, 4)
    (0.2781, 0.5)
    >>> round(channel_capacity(1.0, 0.5).capacity, 4)    # the Z-channel: log2(1.25)
    0.3219
    """
    hit = as_probability(hit_rate, "hit_rate")
    fa = as_probability(false_alarm, "false_alarm")
    hit, fa = np.broadcast_arrays(np.asarray(hit, float), np.asarray(fa, float))
    lo, hi = np.zeros(hit.shape), np.ones(hit.shape)
    for _ in range(100):
        a = hi - _GOLDEN * (hi - lo)
        b = lo + _GOLDEN * (hi - lo)
        left = _channel_info(a, hit, fa) >= _channel_info(b, hit, fa)
        hi = np.where(left, b, hi)
        lo = np.where(left, lo, a)
    pi = (lo + hi) / 2
    cap = np.maximum(_channel_info(pi, hit, fa), 0.0)
    pi = np.where(cap > 0, pi, 0.5)          # a useless channel: every input attains 0
    return Capacity(capacity=scalar_or_array(cap), prevalence=scalar_or_array(pi))


def capacity_share(prevalence, hit_rate, false_alarm):
    """:math:`I(S;T)/C`: the share of the self-report channel's capacity in use at this outcome.

    Compare OSKR :math:`= I(S;T)/H(T)` (:func:`metabits.oskr.binary_channel`): the same
    numerator, a different denominator. The share is 1 whenever the success rate is the one that
    attains the
    capacity — for a symmetric channel, a balanced outcome — however noisy the self-report;
    OSKR is then :math:`C/H(T)`.

    Parameters
    ----------
    prevalence : float or array_like
        P(T = success), in (0, 1).
    hit_rate, false_alarm : float or array_like
        As in :func:`channel_capacity`.

    Returns
    -------
    float or ndarray
        In [0, 1]; NaN for a channel of capacity 0 (nothing to use).

    Raises
    ------
    ValueError
        For a prevalence outside (0, 1) or rates outside [0, 1].

    Examples
    --------
    >>> round(capacity_share(0.5, 0.8, 0.2), 4)      # OSKR is 0.2781 here
    1.0
    >>> round(capacity_share(0.72, 1.0, 0.09), 3)
    0.893
    """
    from metabits.oskr import binary_channel

    mi = np.asarray(binary_channel(prevalence, hit_rate, false_alarm).mutual_info, float)
    cap = np.asarray(channel_capacity(hit_rate, false_alarm).capacity, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(cap > 0, np.minimum(mi / np.where(cap > 0, cap, 1.0), 1.0), np.nan)
    return scalar_or_array(share)


def calibration_gap(joint, stated):
    """How far stated success probabilities are from the observed ones: :math:`\\sum_s P(s)
    |\\text{stated}_s - P(T = \\text{success} \\mid s)|`.

    Parameters
    ----------
    joint : array_like, shape (2, k)
        Joint probabilities (or counts) of outcome (row 0 success, row 1 failure, the layout of
        :func:`metabits.oskr.binary_channel`'s ``confusion``) and the k self-report values.
    stated : array_like, shape (k,)
        The success probability each self-report value states, in [0, 1].

    Returns
    -------
    float
        0 for a calibrated self-report.

    Raises
    ------
    ValueError
        For a joint table that is not 2 × k with non-negative entries and a positive sum, or
        stated values of the wrong length or outside [0, 1].

    Examples
    --------
    >>> joint = [[0.4, 0.1], [0.1, 0.4]]          # "sure" right 80% of the time
    >>> calibration_gap(joint, [0.8, 0.2]), round(calibration_gap(joint, [0.99, 0.5]), 3)
    (0.0, 0.245)
    """
    j = as_counts(joint, "joint")
    if j.ndim != 2 or j.shape[0] != 2 or j.sum() <= 0:
        raise ValueError("joint must be a 2 × k table of non-negative numbers with a positive sum")
    s = np.asarray(as_probability(stated, "stated"), dtype=float)
    if s.ndim != 1 or s.size != j.shape[1]:
        raise ValueError(f"stated needs one value per self-report value ({j.shape[1]}); "
                         f"got shape {s.shape}")
    j = j / j.sum()
    m = j.sum(axis=0)
    observed = np.divide(j[0], m, out=np.zeros_like(m), where=m > 0)
    return float(np.sum(m * np.abs(s - observed)))
