"""Binary self-assessment channels in closed form: the essay's feedback-channel lab (Roberts, 2026).

The world's outcome T is success (probability ``prevalence``) or failure; the agent's
self-report S says "success" or "failure". A binary channel is fixed by two rates,

* the **hit rate** :math:`P(S = \\text{success} \\mid T = \\text{success})` and
* the **false-alarm rate** :math:`P(S = \\text{success} \\mid T = \\text{failure})`
  (the essay's "confident when wrong"),

and everything else — the confusion structure, H(T), H(T | S), I(S; T) and OSKR — follows in
closed form (:func:`binary_channel`). The essay's lab is the symmetric case: feedback error ε,
and a verifier with gain g that narrows it to :math:`\\varepsilon_{eff} = \\varepsilon(1 - g)`
(:func:`feedback_channel`; the essay prints no formula, and this is the reading that reproduces
its ε_eff = 0.14 at ε = 0.22, g = 0.35). The inverse functions find the channel that realises a
given OSKR, which is how the book tests whether the essay's illustrative numbers can be realised.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits._formulas import binary_channel_info, h2
from metabits.results import Result
from metabits.validation import as_probability, scalar_or_array

__all__ = ["BinaryChannel", "FeedbackChannel", "binary_channel", "effective_error_for_oskr",
           "feedback_channel", "hit_rate_for_oskr"]

_WHY_PREVALENCE = "at prevalence 0 or 1 the outcome never varies, H(T) = 0, and OSKR is undefined"


@dataclass(frozen=True)
class BinaryChannel(Result):
    """Result of :func:`binary_channel`; also readable as a mapping.

    Attributes
    ----------
    prevalence : P(T = success).
    hit_rate : P(S = success | T = success).
    false_alarm : P(S = success | T = failure).
    agreement : P(S = T), how often the self-report is right.
    h_outcome : H(T) in bits.
    h_outcome_given_signal : H(T | S) in bits.
    mutual_info : I(S; T) in bits.
    oskr : I(S; T) / H(T).
    confusion : joint probabilities, shape (..., 2, 2): rows T = success, failure; columns
        S = "success", "failure" — [[true positive, false negative], [false positive, true
        negative]].
    """

    prevalence: object
    hit_rate: object
    false_alarm: object
    agreement: object
    h_outcome: object
    h_outcome_given_signal: object
    mutual_info: object
    oskr: object
    confusion: np.ndarray


@dataclass(frozen=True)
class FeedbackChannel(Result):
    """Result of :func:`feedback_channel`: the lab's controls, ε_eff and the channel's values.

    Attributes
    ----------
    prevalence, error, gain : the lab's three controls (prevalence, ε, g).
    error_effective : ε_eff = ε (1 − g).
    h_outcome, h_outcome_given_signal, mutual_info, oskr, confusion : as in
        :class:`BinaryChannel`, for hit rate 1 − ε_eff and false-alarm rate ε_eff.
    """

    prevalence: object
    error: object
    gain: object
    error_effective: object
    h_outcome: object
    h_outcome_given_signal: object
    mutual_info: object
    oskr: object
    confusion: np.ndarray


def _channel(pi, hit, fa):
    """Kernel: H(T), H(T|S), I, OSKR and the confusion of a binary channel (checked input)."""
    pi, hit, fa = np.broadcast_arrays(pi, hit, fa)
    h_t = h2(pi)
    mi = np.clip(binary_channel_info(pi, hit, fa), 0.0, h_t)
    confusion = np.stack([np.stack([pi * hit, pi * (1 - hit)], axis=-1),
                          np.stack([(1 - pi) * fa, (1 - pi) * (1 - fa)], axis=-1)], axis=-2)
    agreement = pi * hit + (1.0 - pi) * (1.0 - fa)
    return h_t, h_t - mi, mi, mi / h_t, confusion, agreement


def _prevalence(prevalence):
    return as_probability(prevalence, "prevalence", low_open=True, high_open=True,
                          why_low=_WHY_PREVALENCE, why_high=_WHY_PREVALENCE)


def binary_channel(prevalence, hit_rate, false_alarm) -> BinaryChannel:
    """H(T), H(T | S), I(S; T), OSKR and the confusion structure of a binary self-report.

    Parameters
    ----------
    prevalence : float or array_like
        P(T = success), in (0, 1).
    hit_rate : float or array_like
        P(S = success | T = success), in [0, 1].
    false_alarm : float or array_like
        P(S = success | T = failure), in [0, 1]. Arrays broadcast together.

    Returns
    -------
    BinaryChannel

    Raises
    ------
    ValueError
        For a prevalence of 0 or 1 (H(T) = 0: OSKR undefined) or rates outside [0, 1].

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Same Accuracy, Different Self-Knowledge" and the
    binary feedback lab; Cover & Thomas (2006), ch. 2.

    Examples
    --------
    >>> r = binary_channel(0.72, 1.0, 0.09)
    >>> round(r.oskr, 3), round(r.agreement, 4)
    (0.814, 0.9748)
    """
    pi = _prevalence(prevalence)
    hit = as_probability(hit_rate, "hit_rate")
    fa = as_probability(false_alarm, "false_alarm")
    h_t, h_c, mi, ratio, conf, agree = _channel(pi, hit, fa)
    pi, hit, fa = np.broadcast_arrays(pi, hit, fa)
    out = {k: scalar_or_array(v) for k, v in dict(
        prevalence=pi, hit_rate=hit, false_alarm=fa, agreement=agree, h_outcome=h_t,
        h_outcome_given_signal=h_c, mutual_info=mi, oskr=ratio).items()}
    return BinaryChannel(**out, confusion=conf)


def feedback_channel(prevalence, error, gain) -> FeedbackChannel:
    """The essay's binary feedback lab: prevalence, feedback error ε and verifier gain g.

    The verifier narrows the error to :math:`\\varepsilon_{eff} = \\varepsilon(1 - g)`, and the
    self-report is a binary symmetric channel with that error: hit rate 1 − ε_eff, false-alarm
    rate ε_eff. Then

    .. math::

        H(T \\mid S) = H_2(\\pi) + H_2(\\varepsilon_{eff})
                       - H_2\\bigl(\\pi(1 - \\varepsilon_{eff}) + (1 - \\pi)\\varepsilon_{eff}\\bigr),

    which is :math:`H_2(\\varepsilon_{eff})` at π = 0.5, and OSKR = 1 − H(T | S) / H(T).

    Parameters
    ----------
    prevalence : float or array_like
        P(T = success), in (0, 1).
    error : float or array_like
        Feedback error ε, in [0, 1].
    gain : float or array_like
        Verifier gain g, in [0, 1]. Arrays broadcast together (e.g. a grid over ε and g).

    Returns
    -------
    FeedbackChannel

    Raises
    ------
    ValueError
        For a prevalence of 0 or 1, or ε or g outside [0, 1].

    References
    ----------
    Roberts (2026), *From Bits to Minds*, "Quantitative lab · binary feedback model".

    Examples
    --------
    >>> r = feedback_channel(0.5, 0.22, 0.35)
    >>> round(r.error_effective, 3), round(r.h_outcome_given_signal, 3), round(r.oskr, 3)
    (0.143, 0.592, 0.408)
    """
    pi = _prevalence(prevalence)
    eps = as_probability(error, "feedback error")
    g = as_probability(gain, "verifier gain")
    eff = eps * (1.0 - g)
    h_t, h_c, mi, ratio, conf, _ = _channel(pi, 1.0 - eff, eff)
    pi, eps, g, eff = np.broadcast_arrays(pi, eps, g, eff)
    out = {k: scalar_or_array(v) for k, v in dict(
        prevalence=pi, error=eps, gain=g, error_effective=eff, h_outcome=h_t,
        h_outcome_given_signal=h_c, mutual_info=mi, oskr=ratio).items()}
    return FeedbackChannel(**out, confusion=conf)


def _bisect(f, lo, hi, iters: int = 60):
    """Vectorised bisection for an increasing ``f`` with f(lo) <= 0 <= f(hi)."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, float), np.asarray(hi, float))
    lo, hi = lo.copy(), hi.copy()
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        up = f(mid) > 0
        hi = np.where(up, mid, hi)
        lo = np.where(up, lo, mid)
    return 0.5 * (lo + hi)


def effective_error_for_oskr(oskr, prevalence=0.5):
    """The symmetric channel error ε_eff in [0, 0.5] whose OSKR is ``oskr``.

    OSKR falls from 1 (ε_eff = 0) to 0 (ε_eff = 0.5) as the error grows, so each OSKR has one
    error; with the lab's ε, the verifier gain that realises it is g = 1 − ε_eff / ε.

    Parameters
    ----------
    oskr : float or array_like
        Target OSKR, in [0, 1].
    prevalence : float or array_like, default 0.5
        P(T = success), in (0, 1).

    Returns
    -------
    float or ndarray
        ε_eff (to about 1e-15).

    Raises
    ------
    ValueError
        For an OSKR outside [0, 1] or a prevalence of 0 or 1.

    References
    ----------
    Roberts (2026), "Actor vs Verifier" (OSKR 0.14, 0.41, 0.79).

    Examples
    --------
    >>> round(effective_error_for_oskr(0.41), 4)
    0.1422
    """
    target = as_probability(oskr, "target OSKR")
    pi = _prevalence(prevalence)
    # OSKR decreases in ε_eff; bisect on minus it
    eff = _bisect(lambda e: target - _channel(pi, 1.0 - e, e)[3], np.zeros_like(target + pi),
                  0.5)
    return scalar_or_array(eff)


def hit_rate_for_oskr(oskr, prevalence, false_alarm):
    """The hit rate P(S = success | T = success) >= ``false_alarm`` that gives OSKR ``oskr``.

    With the false-alarm rate fixed, OSKR rises from 0 (hit rate = false-alarm rate) to its
    largest value at hit rate 1 (I(S; T) is convex in the channel and 0 where the rates agree).

    Parameters
    ----------
    oskr : float or array_like
        Target OSKR, in [0, 1].
    prevalence : float or array_like
        P(T = success), in (0, 1) (the accuracy, when T is correctness).
    false_alarm : float or array_like
        P(S = success | T = failure), in [0, 1].

    Returns
    -------
    float or ndarray
        The hit rate.

    Raises
    ------
    ValueError
        If the target exceeds the largest OSKR this false-alarm rate allows (the error names
        it), or for input outside its range.

    References
    ----------
    Roberts (2026), "Same Accuracy, Different Self-Knowledge" (Systems Alpha and Beta).

    Examples
    --------
    >>> round(hit_rate_for_oskr(0.18, 0.72, 0.24), 4)
    0.7413
    """
    target = as_probability(oskr, "target OSKR")
    pi = _prevalence(prevalence)
    fa = as_probability(false_alarm, "false_alarm")
    best = _channel(pi, 1.0, fa)[3]
    t_b, fa_b, best_b = (np.ravel(a) for a in np.broadcast_arrays(target, fa, best))
    over = np.flatnonzero(t_b > best_b + 1e-12)
    if over.size:
        i = over[0]
        raise ValueError(f"OSKR {t_b[i]:g} cannot be reached with false-alarm rate {fa_b[i]:g}: "
                         f"the largest OSKR it allows (hit rate 1) is {best_b[i]:.4g}")
    hit = _bisect(lambda h: _channel(pi, h, fa)[3] - target, fa + 0 * target, 1.0)
    return scalar_or_array(hit)
