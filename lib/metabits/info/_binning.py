"""Confidence bins: how the choice of bins changes what the information measures can see.

A calibrated classifier's confidence is continuous (normal noise) or discrete (uniform, binary
noise); an experiment records it in K bins. Binning is a function of the response, so by the
data processing inequality it can only lose transmitted information, and fewer or badly placed
bins lose more (Meyen et al., 2025, Discussion: "Fewer bins and sub-optimal positioning can
decrease information-theoretic measures of Type 2 performance").

* :func:`binned_response_probabilities` – the exact table :math:`P(r \\mid Y)` of a noise
  classifier under any confidence bins;
* :func:`best_binning` – the K bins that keep the most information of the normal-noise
  classifier.

The simulation study's binning (low [50%, 75%), high [75%, 100%]) is ``edges=[0.75]``; there the
binary-noise classifier is put into a *random* bin in Meyen et al.'s (2025) simulation study,
whereas here every response goes into the bin of its confidence, so binary noise fills one bin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logit, ndtr

from metabits._formulas import dprime
from metabits.results import Result
from metabits.validation import as_accuracy, as_float_array, as_int, as_noise_kind, scalar_or_array
from metabits.info._measures import type2_measures

__all__ = ["BestBinning", "best_binning", "binned_response_probabilities"]


def _edges(edges) -> np.ndarray:
    e = np.atleast_1d(as_float_array(edges, "edges", empty=True))  # none: one bin
    if e.ndim != 1:
        raise ValueError(f"edges must be a 1-D sequence of confidences; got shape {e.shape}")
    if np.any((e <= 0.5) | (e >= 1.0)):
        raise ValueError("edges must lie strictly between 0.5 and 1 (the bins are [0.5, e1), "
                         f"[e1, e2), ..., [e_last, 1]); got {e.tolist()}")
    if np.any(np.diff(e) <= 0):
        raise ValueError(f"edges must be strictly increasing; got {e.tolist()}")
    return e


def binned_response_probabilities(kind: str, acc, edges) -> np.ndarray:
    """Exact table :math:`P(r \\mid Y)` of a noise classifier whose confidence is binned.

    The bins are :math:`[0.5, e_1), [e_1, e_2), \\dots, [e_{K-1}, 1]` for the interior edges
    ``edges`` (K − 1 of them); a response is the prediction :math:`\\mathrm{sign}(X)` with the bin
    of its calibrated confidence. For the label +1 (row 1):

    * **normal**, :math:`d' = 2\\Phi^{-1}(acc)`: :math:`C \\ge e \\iff |X| \\ge t = \\mathrm{logit}(e)/d'`,
      so "predict +1 in bin j" has probability :math:`\\Phi(d'/2 - t_j) - \\Phi(d'/2 - t_{j+1})`
      and "predict −1 in bin j" :math:`\\Phi(-d'/2 - t_j) - \\Phi(-d'/2 - t_{j+1})`
      (:math:`t_0 = 0`, :math:`t_K = \\infty`);
    * **uniform**: confidence 0.5 (first bin, either prediction, :math:`1 - acc` each) or 1
      (last bin, correct, :math:`2acc - 1`);
    * **binary**: confidence ``acc`` always, in the bin that contains it.

    Row 0 (label −1) is row 1 reversed.

    Parameters
    ----------
    kind : {"uniform", "normal", "binary"}
        The noise case (Figure 2).
    acc : float or array_like
        Accuracies in [0.5, 1); an array adds its shape in front.
    edges : sequence of float
        Interior bin edges, strictly increasing in (0.5, 1); empty for one bin.

    Returns
    -------
    ndarray, shape ``acc.shape + (2, 2K)``
        Columns from "S1, most confident" to "S2, most confident" (the library's convention).

    Raises
    ------
    ValueError
        For an unknown kind, an accuracy outside [0.5, 1), or edges that are not increasing in
        (0.5, 1).

    References
    ----------
    Meyen et al. (2025), section "Comparison of Type 2 Performance Measures: Setup" (the binning
    [50%, 75%) / [75%, 100%]) and Discussion (the alternative [50%, 90%) / [90%, 100%]).

    Examples
    --------
    >>> binned_response_probabilities("normal", 0.7, [0.75]).round(3).tolist()
    [[0.3, 0.4, 0.242, 0.058], [0.058, 0.242, 0.4, 0.3]]
    >>> binned_response_probabilities("binary", 0.7, [0.75]).round(2).tolist()
    [[0.0, 0.7, 0.3, 0.0], [0.0, 0.3, 0.7, 0.0]]
    """
    kind = as_noise_kind(kind)
    acc = as_accuracy(acc, high_open=True,
                      why_high="acc = 1 makes the normal classifier's d' infinite")
    e = _edges(edges) if np.size(edges) else np.zeros(0)
    K = e.size + 1
    a = acc[..., None]
    if kind == "normal":
        d = dprime(a)
        t = np.divide(logit(e), d, out=np.full(np.broadcast_shapes(d.shape, e.shape), np.inf),
                      where=d > 0)
        t = np.concatenate([np.zeros(acc.shape + (1,)), t, np.full(acc.shape + (1,), np.inf)],
                           axis=-1)
        right = ndtr(d / 2 - t[..., :-1]) - ndtr(d / 2 - t[..., 1:])
        wrong = ndtr(-d / 2 - t[..., :-1]) - ndtr(-d / 2 - t[..., 1:])
    else:
        right = np.zeros(acc.shape + (K,))
        wrong = np.zeros(acc.shape + (K,))
        if kind == "uniform":
            right[..., 0] = wrong[..., 0] = 1.0 - acc
            right[..., -1] += 2.0 * acc - 1.0
        else:
            j = np.searchsorted(e, acc, side="right")
            np.put_along_axis(right, j[..., None], a, axis=-1)
            np.put_along_axis(wrong, j[..., None], 1.0 - a, axis=-1)
    row = np.concatenate([wrong[..., ::-1], right], axis=-1)
    return np.stack([row[..., ::-1], row], axis=-2)


@dataclass(frozen=True)
class BestBinning(Result):
    """The most informative K bins of the normal-noise classifier (:func:`best_binning`).

    Attributes
    ----------
    edges : ndarray
        The K − 1 interior edges (confidences).
    info : float
        Transmitted information of the binned classifier, bits.
    RMI : float
        Its relative metainformation.
    info_unbinned : float
        Information of the unbinned classifier, the limit of ever finer bins.
    """

    edges: np.ndarray
    info: float
    RMI: float
    info_unbinned: float


def best_binning(acc: float, n_bins: int = 2) -> BestBinning:
    """The K confidence bins that keep the most information of the normal-noise classifier.

    Maximises the transmitted information of :func:`binned_response_probabilities` over the
    K − 1 interior edges (Nelder–Mead over increasing log-odds thresholds). Only normal noise has
    a choice to make: uniform noise keeps all its information with any edge (its confidences are
    0.5 and 1), binary noise none with any.

    Parameters
    ----------
    acc : float
        Accuracy in (0.5, 1).
    n_bins : int, default 2
        Number of bins K, from 2 to 8.

    Returns
    -------
    BestBinning
        ``edges``, ``info``, ``RMI`` and ``info_unbinned``.

    Raises
    ------
    ValueError
        For an accuracy outside (0.5, 1) or K outside 2–8.

    References
    ----------
    Meyen et al. (2025), Discussion ("Fewer bins and sub-optimal positioning can decrease
    information-theoretic measures"); Dayan (2023) on the information lost by binning.

    Examples
    --------
    >>> b = best_binning(0.7)
    >>> round(float(b.edges[0]), 3), round(b.info, 4), round(b.info_unbinned, 4)
    (0.727, 0.1582, 0.1749)
    """
    from scipy.optimize import minimize  # imported here: slow to import

    from metabits.info._noise import noise_info

    a = as_accuracy(acc, low_open=True, high_open=True, scalar=True,
                    why_low="at acc = 0.5 nothing is transmitted", why_high="d' would be infinite")
    K = as_int(n_bins, "n_bins", least=2, most=8)
    d = float(dprime(a))

    def edges_of(theta):  # increasing log-odds thresholds -> confidences
        return 1.0 / (1.0 + np.exp(-np.cumsum(np.exp(theta))))

    def loss(theta):
        return -float(type2_measures(binned_response_probabilities("normal", a, edges_of(theta)))
                      .info)

    # start at the quantiles of the log-odds d'|X| (K equally filled bins)
    x = np.abs(np.random.default_rng(0).normal(d / 2, 1.0, 20000)) * d
    lam = np.quantile(x, np.arange(1, K) / K)
    theta0 = np.log(np.diff(np.concatenate([[0.0], np.maximum.accumulate(lam) + 1e-3 *
                                            np.arange(1, K)])))
    opt = minimize(loss, theta0, method="Nelder-Mead",
                   options={"xatol": 1e-7, "fatol": 1e-12, "maxiter": 4000})
    e = edges_of(opt.x)
    m = type2_measures(binned_response_probabilities("normal", a, e))
    return BestBinning(edges=e, info=float(m.info), RMI=float(m.RMI),
                       info_unbinned=float(scalar_or_array(noise_info("normal", a))))
