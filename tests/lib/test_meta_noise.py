"""metabits.sdt._meta_noise: meta-noise (lognormal meta-noise model) and meta-uncertainty
(CASANDRE) by maximum likelihood, as statConfR 0.2.2 specifies them.

The likelihood against an adaptive quadrature and the SDT rating model (its sigma -> 0 limit),
the analytic gradient against differences, the fits against statConfR's (shipped reference fits
of tests/lib/data/statconfr_model_fits.csv, made by scripts/statconfr_model_fits.py; no R needed),
the two models' equivalence, the flags of tables without an interior maximum, and parameter
recovery by simulation (bias and coverage of the SE-based 95% interval).
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metabits as mb
from metabits.sdt import _meta_noise_model as mn
from metabits.sdt import rating_probabilities

REFERENCE = Path(__file__).parent / "data" / "statconfr_model_fits.csv"
TABLE1 = [[84, 56, 48, 12], [4, 56, 64, 76]]


def theta_of(d, c, crit_S1, crit_S2, sigma_meta):
    """The fit's parameter vector from d′, c, the mean criteria's distances from c (nearest
    first, each side) and sigma_meta."""
    s = sigma_meta ** 2
    med = np.array([crit_S1, crit_S2], float) * np.exp(-s / 2)
    inc = np.diff(np.concatenate([np.zeros((2, 1)), med], axis=1), axis=1)
    return np.r_[d, c, np.log(inc).ravel(), s]


def probabilities(theta, K):
    return mn._probabilities(np.atleast_2d(theta), K, derivatives=False)[0][0]


# ------------------------------------------------------------------------------- the likelihood


def _reference_G(a, m, sigma):
    """E[Phi(a - m exp(sigma Z))] by adaptive quadrature, split at the integrand's step."""
    from scipy import integrate
    from scipy.special import ndtr

    def f(z):
        return np.exp(-z * z / 2) / np.sqrt(2 * np.pi) * ndtr(a - m * np.exp(sigma * z))

    step = np.clip(np.log(max(abs(a), 1e-3) / m) / sigma, -13, 13)
    cuts = sorted({-14.0, float(step), 14.0})
    return sum(integrate.quad(f, lo, hi, epsabs=0, epsrel=1e-13, limit=500)[0]
               for lo, hi in zip(cuts[:-1], cuts[1:]))


@pytest.mark.parametrize("sigma", [0.05, pytest.param(0.5, marks=pytest.mark.slow), 1.0,
                                   pytest.param(2.0, marks=pytest.mark.slow), 3.0])
def test_cell_probabilities_match_an_adaptive_quadrature(sigma):
    theta = theta_of(1.3, 0.2, [0.4, 1.1], [0.3, 0.9], sigma)
    p = probabilities(theta, 3)
    d, c = 1.3, 0.2
    m = np.array([[0.4, 1.1], [0.3, 0.9]]) * np.exp(-sigma ** 2 / 2)
    from scipy.special import ndtr
    for s, mu in enumerate((-d / 2, d / 2)):
        a_B, a_A = mu - c, c - mu
        G_B = [ndtr(a_B)] + [_reference_G(a_B, x, sigma) for x in m[1]] + [0.0]
        G_A = [ndtr(a_A)] + [_reference_G(a_A, x, sigma) for x in m[0]] + [0.0]
        side_B = -np.diff(G_B)
        side_A = -np.diff(G_A)
        np.testing.assert_allclose(p[s], np.r_[side_A[::-1], side_B], rtol=1e-7, atol=1e-13)


def test_statconfr_log_likelihood_is_reproduced_at_its_own_parameters():
    """statConfR's logN log-likelihood of Mei_2019_Exp1 AC at its fitted parameters (R's
    ll_lognorm with integrate(rel.tol = 1e-8), evaluated once when this test was written)."""
    counts = np.array([[116, 111, 50, 23], [28, 79, 106, 87]]) + 0.25
    d, c, sigma = 1.058414261, 0.1670042647, 0.558361375
    theta = theta_of(d, c, [c + 0.9334712675], [1.152204025 - c], sigma)
    ll = mn._loglik(theta[None], counts[None], derivatives=False)[0]
    assert ll == pytest.approx(-762.7372000474, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(K=st.integers(2, 6), d=st.floats(-3, 4), c=st.floats(-1.5, 1.5),
       sigma=st.floats(0, 4), data=st.data())
def test_each_row_of_probabilities_sums_to_one(K, d, c, sigma, data):
    logs = data.draw(st.lists(st.floats(-4, 2), min_size=2 * (K - 1), max_size=2 * (K - 1)))
    theta = np.r_[d, c, logs, sigma ** 2]
    p = probabilities(theta, K)
    assert np.all(p >= -1e-15)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(K=st.integers(2, 5), d=st.floats(0.2, 3), c=st.floats(-1, 1), data=st.data())
def test_sigma_to_zero_is_the_sdt_rating_model(K, d, c, data):
    gaps = np.array(data.draw(st.lists(st.floats(0.05, 1.5), min_size=2 * (K - 1),
                                       max_size=2 * (K - 1)))).reshape(2, K - 1)
    dist = np.cumsum(gaps, axis=1)
    sdt = rating_probabilities(d, d, c, K=K, criteria=(c - dist[0, ::-1], c + dist[1]))
    np.testing.assert_allclose(probabilities(theta_of(d, c, dist[0], dist[1], 0.0), K), sdt,
                               atol=1e-13)
    near = probabilities(theta_of(d, c, dist[0], dist[1], 1e-4), K)
    np.testing.assert_allclose(near, sdt, atol=1e-6)


@pytest.mark.parametrize("sigma", [0.0, 0.3, 1.2, 2.5])
def test_the_analytic_gradient_matches_differences(sigma):
    counts = np.array([[80, 40, 20, 10, 6, 4], [5, 7, 12, 25, 50, 90]], float) + 1 / 6
    theta = theta_of(1.4, -0.1, [0.3, 0.9], [0.4, 1.2], sigma)[None]
    _, g, F = mn._loglik(theta, counts[None])
    for k in range(theta.shape[1]):
        e = np.zeros_like(theta)
        e[0, k] = 1e-6
        lo = theta - e if not (k == theta.shape[1] - 1 and sigma == 0) else theta
        hi = theta + e
        fd = (mn._loglik(hi, counts[None], False) - mn._loglik(lo, counts[None], False)) \
            / (hi[0, k] - lo[0, k])
        assert g[0, k] == pytest.approx(fd[0], rel=1e-4, abs=1e-4)
    assert np.all(np.linalg.eigvalsh(F[0]) > 0)  # expected information: positive definite


# ------------------------------------------------------------------------------------- the fits


def test_table1_has_its_maximum_at_sigma_zero_with_a_likelihood_bound():
    fit = mb.fit_meta_noise(TABLE1)
    assert fit.status == "sigma_zero" and fit.sigma_meta == 0.0 and fit.pad == 0.25
    assert fit.d == pytest.approx(1.2713, abs=1e-4) and fit.c == pytest.approx(0.0151, abs=1e-4)
    assert 0.1 < fit.se_sigma_meta < 0.3
    theta = theta_of(fit.d, fit.c, fit.c - fit.t2c_S1[::-1], fit.t2c_S2 - fit.c, 0.0)
    counts = np.array(TABLE1, float)[None] + 0.25
    assert mn._loglik(theta[None], counts, False)[0] == pytest.approx(fit.log_likelihood)


def test_the_bound_at_sigma_zero_is_one_sided():
    """On the boundary sigma = 0 the 95% likelihood-ratio upper bound is where twice the
    profile log-likelihood has fallen by chi-square(1)'s 90% point (the 95% point of the 50:50
    mixture of chi-square(0) and chi-square(1)): at the documented 1.645 se, to the 5% the
    quadratic model misses by (2.57 against 2.71 here); 1.96 se, the two-sided bound, is 31%
    off (3.56)."""
    from scipy.optimize import minimize
    from scipy.stats import chi2

    from metabits.sdt._meta_noise import STATUS, _Z_BOUND

    assert _Z_BOUND == pytest.approx(1.6448536, abs=1e-7)
    assert f"{_Z_BOUND:.3f} se" in STATUS["sigma_zero"]
    fit = mb.fit_meta_noise(TABLE1)
    counts = np.array(TABLE1, float)[None] + 0.25
    start = theta_of(fit.d, fit.c, fit.c - fit.t2c_S1[::-1], fit.t2c_S2 - fit.c, 0.0)[:-1]

    def profile_fall(z):
        s = (z * fit.se_sigma_meta) ** 2
        res = minimize(lambda x: -mn._loglik(np.r_[x, s][None], counts, False)[0], start,
                       method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-12})
        return 2 * (fit.log_likelihood + res.fun)

    assert profile_fall(_Z_BOUND) == pytest.approx(chi2.ppf(0.90, 1), rel=0.06)
    assert profile_fall(1.96) > 1.25 * chi2.ppf(0.90, 1)


def test_the_two_models_are_one_fit_on_two_scales():
    tables = [[[60, 40, 30, 30], [30, 30, 40, 60]], TABLE1,
              [[50, 30, 20, 10, 5, 5], [8, 9, 15, 20, 40, 60]]]
    for t in tables:
        noise, unc = mb.fit_meta_noise(t), mb.fit_meta_uncertainty(t)
        assert unc.log_likelihood == pytest.approx(noise.log_likelihood, abs=1e-12)
        assert unc.sigma_m == pytest.approx(np.sqrt(np.expm1(noise.sigma_meta ** 2)))
        np.testing.assert_allclose(unc.t2c_S1, noise.t2c_S1 - noise.c)
        np.testing.assert_allclose(unc.t2c_S2, noise.t2c_S2 - noise.c)
        assert unc.status == noise.status


def test_a_stack_gives_each_table_its_own_fit_and_a_bad_table_a_flag():
    good = [[60, 40, 30, 30], [30, 30, 40, 60]]
    no_s2 = [[50, 50, 0, 0], [10, 15, 60, 40]]  # no 'S2' response to S1: a false-alarm rate 0
    fits = mb.fit_meta_noise([[good, no_s2], [TABLE1, good]], pad=0)
    one = mb.fit_meta_noise(good, pad=0)
    assert fits.sigma_meta.shape == (2, 2) and fits.t2c_S1.shape == (2, 2, 1)
    assert fits.status.tolist() == [["ok", "d_infinite"], ["sigma_zero", "ok"]]
    assert np.isnan([fits.d[0, 1], fits.sigma_meta[0, 1], fits.log_likelihood[0, 1]]).all()
    for i, j in ((0, 0), (1, 1)):
        assert fits.sigma_meta[i, j] == pytest.approx(one.sigma_meta, rel=1e-6)
        assert fits.se_sigma_meta[i, j] == pytest.approx(one.se_sigma_meta, rel=1e-4)
    frame = fits.to_frame()
    assert len(frame) == 4 and "status" in frame and "t2c_S2_0" in frame


def test_ratings_that_say_nothing_about_accuracy_give_an_unbounded_sigma():
    fit = mb.fit_meta_uncertainty([[40, 60, 15, 10], [10, 15, 60, 40]])
    assert fit.status == "sigma_unbounded" and fit.sigma_m == np.inf
    assert np.isnan(fit.se_sigma_m) and np.isnan(fit.t2c_S1).all()
    assert np.isfinite(fit.d) and np.isfinite(fit.log_likelihood)


def test_a_likelihood_flat_in_sigma_gives_nan_not_the_start():
    """With d′ = 0 the criteria absorb any sigma: the fit would stop where it started."""
    for f in (mb.fit_meta_noise, mb.fit_meta_uncertainty):
        fit = f([[25, 25, 25, 25], [25, 25, 25, 25]])
        noise = fit["sigma_meta"] if "sigma_meta" in fit else fit["sigma_m"]
        assert fit.status == "sigma_unidentified" and np.isnan(noise)
        assert fit.d == pytest.approx(0, abs=1e-9) and np.isfinite(fit.log_likelihood)


def test_mirrored_table_has_the_same_fit_with_c_reversed():
    t = np.array([[70, 40, 25, 10, 9, 6], [6, 10, 14, 30, 50, 80]])
    a, b = mb.fit_meta_noise(t), mb.fit_meta_noise(t[::-1, ::-1])
    assert b.d == pytest.approx(a.d, abs=1e-6) and b.c == pytest.approx(-a.c, abs=1e-6)
    assert b.sigma_meta == pytest.approx(a.sigma_meta, abs=1e-5)
    np.testing.assert_allclose(b.t2c_S2, -a.t2c_S1[::-1], atol=1e-5)


@pytest.mark.parametrize("bad, match", [
    ([[84, -56, 48, 12], [4, 56, 64, 76]], "counts"),
    ([[84, 56, 48], [4, 56, 64]], "counts"),
    ([[0, 0, 0, 0], [4, 56, 64, 76]], "empty row nR_S1"),
])
def test_bad_tables_are_refused(bad, match):
    for f in (mb.fit_meta_noise, mb.fit_meta_uncertainty):
        with pytest.raises(ValueError, match=match):
            f(bad)
    with pytest.raises(ValueError, match="pad"):
        mb.fit_meta_noise(TABLE1, pad=-1)


# ------------------------------------------------------------------------ against statConfR


def _reference_rows():
    with open(REFERENCE) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    for r in rows:
        r["table"] = np.array([[int(x) for x in row.split()] for row in r["counts"].split(";")])
    return rows


ROWS = _reference_rows() if REFERENCE.exists() else []


def test_the_reference_file_covers_maskori_and_several_database_sets():
    assert len({r["source"] for r in ROWS}) >= 23
    assert {int(r["K"]) for r in ROWS} >= {2, 3, 4, 5, 6, 9, 10, 11}
    assert sum(r["source"].startswith("MaskOri") for r in ROWS) >= 10


@functools.cache
def _our_fits():
    return _ours(ROWS)


def _ours(rows):
    tables = {}
    for r in rows:
        tables.setdefault(int(r["K"]), {})[r["source"]] = r["table"]
    fits = {}
    for K, by in tables.items():
        noise = mb.fit_meta_noise(np.stack(list(by.values())))
        unc = mb.fit_meta_uncertainty(np.stack(list(by.values())))
        for i, source in enumerate(by):
            fits[source, "logN"] = {k: noise[k][i] for k in noise if k != "pad"}
            fits[source, "CAS"] = {k: unc[k][i] for k in unc if k != "pad"}
    return fits


def statconfr_loglik(r):
    """The log-likelihood of a reference row's table at statConfR's parameters, by this module's
    quadrature (accurate to ~1e-9 relative; R's integrate to its rel.tol 1e-8 at best)."""
    t = r["table"]
    K = t.shape[1] // 2
    d, c, sigma = float(r["d"]), float(r["c"]), float(r["sigma"])
    lo = np.array(r["criteria_S1"].split(), float)
    hi = np.array(r["criteria_S2"].split(), float)
    if r["model"] == "logN":
        theta = theta_of(d, c, (c - lo)[::-1], hi - c, sigma)
    else:
        theta = theta_of(d, c, (-lo)[::-1], hi, np.sqrt(np.log1p(sigma ** 2)))
    return mn._loglik(theta[None], t[None] + 1 / (2 * K), derivatives=False)[0]


def test_statconfr_s_likelihood_is_ours_at_its_parameters():
    """Our likelihood at statConfR's fitted parameters is the one it reports, to 1e-4 for most
    fits. The exceptions are R's quadrature errors (integrate, rel.tol 1e-8), all in
    statConfR's favour (Nelder–Mead settles where the error flatters): where sigma or a
    criterion is near 0 the integrand over the evidence is nearly a step (MaskOri 1, CAS,
    sigma_m = 0.002: reported 0.007 above the likelihood at its own parameters; Rouault 1, CAS,
    criteria 0.002 from c: 0.015 above; O'Hora 101, K = 10, CAS, two criteria 0.0008 and 0.0015
    from c: 0.19 above). Our quadrature agrees with scipy's adaptive one there to 1e-12 (the
    cell-probability tests above; for O'Hora 101 both give -1156.2083 at statConfR's
    parameters)."""
    gaps = {(r["source"], r["model"]): float(r["log_likelihood"]) - statconfr_loglik(r)
            for r in ROWS if r["outcome"] == "ok"}
    large = {k: round(v, 2) for k, v in gaps.items() if v >= 0.02}
    assert large == {("OHora_unpub_2 participant 101", "CAS"): 0.19}
    values = np.array(list(gaps.values()))
    assert np.all(values > -1e-4)
    assert np.sum(np.abs(values) < 1e-4) >= 40


@pytest.mark.slow
def test_our_maxima_are_at_least_as_high_as_statconfr_s():
    """Ours >= the likelihood at statConfR's parameters (both by our quadrature), and >= the
    value statConfR reports less its quadrature's error (previous test). Ours is higher by more
    than 0.001 on 20 of the 40 fits, by up to 4.4 (Adler 2, whose maximum is at sigma = inf,
    where statConfR's Nelder–Mead stopped at sigma_meta = 1.8 and sigma_m = 2.8), 2.4
    (Arbuzova 1, CAS) and 0.96 (MaskOri 3, CAS): statConfR's default five starts and four
    restarts of Nelder–Mead stop short, more often for CAS, whose starting grid differs. The
    K = 9–11 tables (one person each of Gherman 2018, O'Hora unpublished 2, Rouault 2018 Expt 1)
    are among them: at K = 10 ours is 0.07 above the likelihood at statConfR's CAS parameters,
    which report 0.12 more than ours through their quadrature error (previous test)."""
    ours = _our_fits()
    ok_rows = [r for r in ROWS if r["outcome"] == "ok"]
    assert len(ok_rows) == 46 and {int(r["K"]) for r in ok_rows} >= {9, 10, 11}
    better = 0
    for r in ok_rows:
        mine = ours[r["source"], r["model"]]["log_likelihood"]
        theirs = statconfr_loglik(r)
        assert mine >= theirs - 1e-6, (r["source"], r["model"])
        reported = float(r["log_likelihood"])
        if (r["source"], r["model"]) == ("OHora_unpub_2 participant 101", "CAS"):
            reported = theirs  # R's quadrature error of 0.19 taken out (previous test)
        assert mine >= reported - 0.02, (r["source"], r["model"])
        better += mine > theirs + 1e-3
    assert better >= 15


def test_parameters_agree_where_both_optima_coincide():
    """Where the likelihood at statConfR's parameters is within 1e-3 of our maximum (17 of the
    40 fits), both sit at the same maximum: d′, c, sigma and the criteria agree within the
    flatness of the likelihood there (Nelder–Mead stops at reltol 1e-8 of the likelihood); a
    sigma on the boundary (our "sigma_zero") is matched by a statConfR sigma near 0."""
    ours = _our_fits()
    compared = 0
    for r in (r for r in ROWS if r["outcome"] == "ok"):
        mine = ours[r["source"], r["model"]]
        if mine["log_likelihood"] - statconfr_loglik(r) > 1e-3:
            continue  # ours is higher: statConfR stopped short of the maximum
        if mine["status"] == "sigma_unidentified":
            # Kantner 6: the likelihood is flat in sigma (our se > 4); statConfR's sigma_meta =
            # 2.6 (sigma_m = 28) is where Nelder-Mead stopped on the plateau
            assert float(r["sigma"]) > 2, r["source"]
            continue
        compared += 1
        sig = "sigma_meta" if r["model"] == "logN" else "sigma_m"
        assert mine["d"] == pytest.approx(float(r["d"]), abs=0.01), r["source"]
        assert mine["c"] == pytest.approx(float(r["c"]), abs=0.01), r["source"]
        if mine["status"] == "sigma_zero":
            assert float(r["sigma"]) < 0.1, r["source"]
        else:
            assert mine[sig] == pytest.approx(float(r["sigma"]), abs=0.05, rel=0.05), r["source"]
            crit = np.r_[[float(x) for x in r["criteria_S1"].split()],
                         [float(x) for x in r["criteria_S2"].split()]]
            np.testing.assert_allclose(np.r_[mine["t2c_S1"], mine["t2c_S2"]], crit, atol=0.05,
                                       rtol=0.05, err_msg=r["source"])
    assert compared >= 15


def test_statconfr_s_two_fits_of_one_model_differ_where_ours_are_equal():
    """statConfR fits logN and CAS separately (different starting grids; CAS at K = 2 stops
    with an error: its starting grid leaves the criteria NA); ours is one fit, whose likelihood
    is at least the higher of statConfR's two (less R's quadrature error, see above)."""
    by = {}
    for r in ROWS:
        by.setdefault(r["source"], {})[r["model"]] = r
    ours = _our_fits()
    for source, pair in by.items():
        # each fit's likelihood at its own parameters (R's quadrature error taken out)
        best = max(statconfr_loglik(r) for r in pair.values() if r["outcome"] == "ok")
        assert ours[source, "logN"]["log_likelihood"] >= best - 1e-6, source
        if int(pair["CAS"]["K"]) == 2:
            assert pair["CAS"]["outcome"].startswith("error")


# ---------------------------------------------------------------------------------- recovery


def recovery(model, truth, n_per_stimulus, n_sims, rng):
    """Simulate ``n_sims`` tables from the model at ``truth`` (d, c, mean criteria distances of
    S1 and S2, sigma_meta), fit each (pad 1/(2K)) and return the fits' bias in the noise
    parameter, the share of 95% intervals (estimate ± 1.96 se) that cover the truth and the
    share of tables with an interior maximum ("ok")."""
    d, c, crit1, crit2, sigma = truth
    K = len(crit1) + 1
    p = probabilities(theta_of(d, c, crit1, crit2, sigma), K)
    rng = np.random.default_rng(rng)
    tables = np.stack([rng.multinomial(n_per_stimulus, p[0], size=n_sims),
                       rng.multinomial(n_per_stimulus, p[1], size=n_sims)], axis=1)
    if model == "meta_noise":
        fit, true, est, se = mb.fit_meta_noise(tables), sigma, "sigma_meta", "se_sigma_meta"
    else:
        fit, est, se = mb.fit_meta_uncertainty(tables), "sigma_m", "se_sigma_m"
        true = float(np.sqrt(np.expm1(sigma ** 2)))
    x, s = fit[est], fit[se]
    finite = np.isfinite(x) & np.isfinite(s)
    lo, hi = np.maximum(x - 1.96 * s, 0), x + 1.96 * s
    cover = finite & (lo <= true) & (true <= hi)  # an unbounded fit counts as a miss
    return {"bias": float(np.median(x[finite]) - true), "coverage": float(cover.mean()),
            "ok": float(np.mean(fit.status == "ok"))}


TRUTH = (1.5, 0.1, [0.5, 1.0, 1.6], [0.4, 0.9, 1.5])


@pytest.mark.parametrize("model", ["meta_noise", "meta_uncertainty"])
def test_recovery_is_unbiased_with_nominal_coverage_quick(model):
    r = recovery(model, (*TRUTH, 0.8), 400, 80, rng=1)
    assert abs(r["bias"]) < 0.08 and 0.88 <= r["coverage"] <= 0.99 and r["ok"] > 0.95


@pytest.mark.slow
@pytest.mark.parametrize("model", ["meta_noise", "meta_uncertainty"])
@pytest.mark.parametrize("sigma, n", [(0.5, 400), (0.8, 200), (1.2, 1000)])
def test_recovery_is_unbiased_with_nominal_coverage(model, sigma, n):
    """1,000 tables each. Near sigma = 0 the intervals over-cover (a maximum on the boundary
    gives [0, 1.96 se]); sigma_m's Wald interval under-covers where sigma_m is large (its
    estimate is skewed: at sigma_meta = 1.2 with 400 trials per stimulus, 0.89)."""
    r = recovery(model, (*TRUTH, sigma), n, 1000, rng=2)
    assert abs(r["bias"]) < 0.1 * max(sigma, 1) and 0.9 <= r["coverage"] <= 0.995, r


def test_a_vanishing_sigma_gives_the_sdt_probabilities():
    """sigma_meta so small that its square underflows (found by hypothesis: 2.7e-157) gives
    the probabilities at sigma = 0, not NaN: the quadrature's nodes stay within |Z| <= 8.5."""
    K = 5
    base = np.r_[0.0, 0.0, np.zeros(2 * (K - 1) - 1), 2.0]
    tiny = probabilities(np.r_[base, 2.7e-157 ** 2], K)
    zero = probabilities(np.r_[base, 0.0], K)
    assert np.isfinite(tiny).all()
    np.testing.assert_allclose(tiny, zero, atol=1e-12)
