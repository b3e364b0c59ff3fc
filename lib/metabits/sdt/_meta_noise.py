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

The likelihood is :mod:`metabits.sdt._meta_noise_model`'s, the fit
:mod:`metabits.sdt._meta_noise_fit`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from metabits.results import Result
from metabits.sdt._meta_noise_fit import _S_MAX, _SE_FLAT, _fit_stack
from metabits.validation import as_count_table, as_pad, scalar_or_array

__all__ = ["MetaNoiseFit", "MetaUncertaintyFit", "fit_meta_noise", "fit_meta_uncertainty"]

_ROWS = ("nR_S1", "nR_S2")

#: z of a one-sided 95% bound, 1.645: the 95% point of the likelihood-ratio statistic on the
#: boundary sigma = 0, a 50:50 mixture of chi-square(0) and chi-square(1), is chi-square(1)'s
#: 90% point, z**2
_Z_BOUND = float(ndtri(0.95))

#: what ``status`` says of each table's fit
STATUS = {
    "ok": "an interior maximum",
    "sigma_zero": "the maximum is at sigma = 0 (the SDT rating model): the ratings are at least "
                  "as informative as the SDT observer's; the standard error is the likelihood's "
                  f"curvature there, so sigma <= {_Z_BOUND:.3f} se is the 95% likelihood-ratio "
                  "upper bound (one-sided, on the boundary: the statistic is a 50:50 mixture "
                  "of chi-square(0) and chi-square(1), whose 95% point is chi-square(1)'s 90%)",
    "sigma_unbounded": f"the likelihood still rises at sigma_meta = {np.sqrt(_S_MAX):g} "
                       f"(sigma_m = {float(np.sqrt(np.expm1(_S_MAX))):,.0f}), the "
                       "fit's bound: the ratings carry next to no information about accuracy "
                       "beyond the Type 1 response; sigma is reported as inf, without a "
                       "standard error or criteria",
    "sigma_unidentified": "the likelihood is (nearly) flat in sigma (standard error above "
                          f"{_SE_FLAT:g}, or no strict maximum), as where d′ = 0: sigma, its "
                          "standard error and the criteria are NaN; d′, c and the "
                          "log-likelihood are given",
    "d_infinite": "a hit or false-alarm rate of 0 or 1 (pad the counts): no fit, NaN",
    "no_convergence": "the optimisers found no maximum: NaN",
}

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
        gives ``se_sigma_meta``. There sigma_meta is on the boundary of its range, so the 95%
        likelihood-ratio upper bound is one-sided, ``1.645 * se_sigma_meta`` (z of 0.95): the
        statistic is a 50:50 mixture of :math:`\\chi^2_0` and :math:`\\chi^2_1`, whose 95%
        point is :math:`\\chi^2_1`'s 90% point, :math:`1.645^2`. NaN for "sigma_unbounded" and
        for the tables without a fit.
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

    Its ratings are at least as informative as the SDT observer's. sigma_meta = 0 is the
    boundary of its range, so the 95% likelihood-ratio upper bound on it is one-sided, z of
    0.95 = 1.645 standard errors:

    >>> from scipy.special import ndtri
    >>> round(float(ndtri(0.95)) * fit.se_sigma_meta, 2)
    0.3

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
