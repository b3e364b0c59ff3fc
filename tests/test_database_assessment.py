"""All 22 measures on Rahnev's criteria (metabits_book.studies.database_assessment).

Independent checks: the vectorised statistics equal the loop-based ones of
``metabits.reliability`` (paired Cohen's d, correlations per data set) on data with gaps; the
shipped values per data set are what the rule gives now on a sample of data sets (a copy cut to
them: each data set's values do not depend on the others); the shipped summary is the mean of
the shipped values per data set, and for the eleven measures of ``rahnev_criteria`` equals that
independent rule on the whole copy; the test–retest reliabilities equal ``test_retest``;
Rahnev's claims are decided by the rules their table states.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metabits_book.studies import database_assessment as da
from metabits_book.studies.database_copy import confidence_database
from metabits.reliability import group_correlations, paired_cohens_d
from metabits_book.studies.database_criteria import criteria_frame, rahnev_criteria
from metabits_book.studies.database_measures import EVERY_MEASURE, METACOGNITION


@pytest.fixture(scope="module")
def db():
    return confidence_database()


@pytest.fixture(scope="module")
def shipped():
    return da.shipped_assessment().set_index("measure")


@pytest.fixture(scope="module")
def by_set():
    return da.shipped_by_set()


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(3, 40), st.floats(0, 0.5), st.floats(-1, 1))
def test_the_vectorised_statistics_equal_the_loop_rule(seed, n, gaps, rho):
    # correlated values with gaps (NaN) and unbounded values (inf) where the measures have them
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = rho * a + np.sqrt(1 - rho ** 2) * rng.normal(size=n) + 0.3
    a[rng.random(n) < gaps] = np.nan
    b[rng.random(n) < gaps / 2] = np.inf
    d = da._stat("d", a[:, None], b[:, None], 3)[0]
    np.testing.assert_allclose(d, paired_cohens_d(a, b), rtol=1e-9, atol=1e-12,
                               equal_nan=True)
    r = da._stat("r", a[:, None], b[:, None], 3)[0]
    np.testing.assert_allclose(r, group_correlations(a, b, min_people=3), rtol=1e-9,
                               atol=1e-12, equal_nan=True)


def test_a_constant_column_has_no_correlation():
    a = np.array([[0.1], [0.1], [0.1], [0.1]])
    b = np.array([[1.0], [2.0], [3.0], [5.0]])
    assert np.isnan(da._stat("r", a, b, 3)[0])
    assert np.isnan(da._stat("d", a, a, 3)[0])   # no variation in the differences


def test_the_summary_is_the_mean_of_the_values_per_data_set(shipped, by_set):
    assert shipped.index.tolist() == list(EVERY_MEASURE)
    for c in da.BY_SET:
        rows = by_set[by_set["criterion"] == c]
        assert len(rows) >= 3, c
        np.testing.assert_allclose(rows[list(EVERY_MEASURE)].mean().to_numpy(),
                                   shipped[c].to_numpy(), rtol=0, atol=1e-8, err_msg=c)


def test_intervals_and_ranks_are_coherent(shipped):
    n = len(EVERY_MEASURE)
    for c in da.TABLE:
        lo, hi, v = shipped[f"{c}_lower"], shipped[f"{c}_upper"], shipped[c]
        assert (lo <= hi).all(), c
        # a percentile interval holds its estimate but where Cohen's d of small data sets is
        # biased (the resampled d's lie mostly above it); the shipped values: all but one
        assert ((lo <= v) & (v <= hi)).mean() >= 0.9, c
        rank = shipped[f"{c}_rank"]
        assert sorted(rank.astype(int)) == list(range(1, n + 1)), c
        assert (shipped[f"{c}_rank_lower"] >= 1).all() and (shipped[f"{c}_rank_upper"] <= n).all()
        assert (shipped[f"{c}_rank_lower"] <= shipped[f"{c}_rank_upper"]).all()
        # the censored measures are ranked by their rank-based values
        v = v.where(~v.index.isin(da.NEGATED), shipped[f"{c}_ranked"])
        better = v.abs() if da.TABLE[c] == "smaller" else -v
        assert rank.idxmin() == better.idxmin(), c


@pytest.mark.slow
def test_shipped_values_per_data_set_are_the_rule_on_a_sample(db, by_set):
    """The rule recomputed on a copy cut to three data sets (a difficulty manipulation, K = 3
    to 11, enough trials for every bin size but 400 in some) gives the shipped values of those
    data sets, to 1e-6 (the optimiser of meta-noise stops at a relative change of 1e-10 in the
    log-likelihood; its σ moves by less on another CPU)."""
    names = ("Denison_2018", "Clark_unpub", "Jachs_2015_Exp1")
    fresh = da.criteria_by_set(db.select(names))
    mine = by_set[by_set.dataset.isin(names)]
    key = ["criterion", "dataset"]
    merged = fresh.merge(mine, on=key, suffixes=("", "_shipped"))
    assert len(merged) == len(fresh) == len(mine) > 10
    np.testing.assert_allclose(merged[list(EVERY_MEASURE)].to_numpy(float),
                               merged[[f"{k}_shipped" for k in EVERY_MEASURE]].to_numpy(float),
                               rtol=0, atol=1e-6, equal_nan=True)


@pytest.mark.slow
def test_the_shipped_summary_equals_the_independent_rule(db, shipped):
    """For the eleven measures of ``rahnev_criteria`` (its own loops over data sets), the
    shipped summary's criteria agree to 1e-5: the vectorised statistics, the parts computed in
    separate processes and the averaging do not move them. (Not to 1e-9: the fits of meta-d′
    stop once a step is below 1e-9 or the log-likelihood is flat to rounding, and on another
    CPU the M-ratio's metacognitive-bias criterion moved by 5.6e-6, every other criterion by
    at most 2e-9.)"""
    old = criteria_frame(rahnev_criteria(db)).set_index("measure")
    for c in old.columns:
        np.testing.assert_allclose(shipped.loc[list(METACOGNITION), c].to_numpy(),
                                   old.loc[list(METACOGNITION), c].to_numpy(), rtol=0,
                                   atol=1e-5, err_msg=c)


@pytest.mark.slow
def test_test_retest_is_test_retest(db, shipped):
    from metabits_book.studies.database_precision import test_retest

    days = test_retest(db, n_trials=da.RETEST_TRIALS, names=EVERY_MEASURE)
    tasks = test_retest(db, "Lebreton_2018", n_trials=da.TASKS_TRIALS, names=EVERY_MEASURE)
    np.testing.assert_allclose(days.icc, shipped.test_retest.to_numpy(), rtol=0, atol=1e-6)
    np.testing.assert_allclose(tasks.icc, shipped.test_retest_tasks.to_numpy(), rtol=0,
                               atol=1e-6)


def test_rahnev_claims_on_the_shipped_summary(shipped):
    claims = da.rahnev_claims(da.shipped_assessment())
    assert len(claims) == 10
    assert set(claims.verdict) <= {"reproduced", "partly reproduced", "not reproduced",
                                   "undecided"}
    assert (claims[["meet", "fail", "undecided"]].sum(axis=1) == [17, 17, 17, 17, 5, 5, 7, 17, 17,
                                                             17]).all()
    s = shipped.loc[[k for f in da.FAMILIES.values() for k in f]].copy()
    neg = s.index.isin(da.NEGATED)
    # the verdicts follow the intervals: two checked by hand
    lo = np.where(neg, s.response_bias_ranked_lower, s.response_bias_lower)
    hi = np.where(neg, s.response_bias_ranked_upper, s.response_bias_upper)
    weak = ((lo > -da.WEAK) & (hi < da.WEAK)).all()
    assert (claims.verdict[2] == "reproduced") == bool(weak)
    lo = np.where(neg, s.test_retest_ranked_lower, s.test_retest_lower)
    hi = np.where(neg, s.test_retest_ranked_upper, s.test_retest_upper)
    poor, good = int((hi < da.GOOD).sum()), int((lo >= da.GOOD).sum())
    assert claims.book[9].startswith(f"{poor} meet, {good} fail, {17 - poor - good} undecided")
    # every ICC interval of the 15 uncensored measures holds 0.5: "mostly poor" is undecided
    assert poor <= 8 < 17 - good and claims.verdict[9] == "undecided"
    # the traditional measures: gamma's and phi's intervals hold d = 1, so undecided
    assert claims.verdict[4] == "undecided"


def test_an_interval_holding_the_threshold_leaves_a_measure_undecided():
    status = da._status([0.79, 1.1, 0.5], [1.30, 1.4, 0.9], "at_least", 1.0)
    assert status.tolist() == [0, 1, -1]
    assert da._status([-1.04], [-0.67], "at_most", -1.0).tolist() == [0]
    assert da._status([0.2, 0.31], [0.29, 0.5], "within", 0.3).tolist() == [1, -1]
    # all 3 must meet: 1 meets, 1 undecided, 1 fails -> never all: partly or not -> undecided
    assert da._interval_verdict(np.array([1, 0, -1])) == "undecided"
    assert da._interval_verdict(np.array([1, 1, 0])) == "undecided"    # 2 or 3 of 3
    assert da._interval_verdict(np.array([1, -1, -1, 0, -1])) == "not reproduced"
    assert da._interval_verdict(np.array([1, 1, 0]), most=True) == "reproduced"


def test_rahnev_claims_follow_their_rules():
    seventeen = [k for f in da.FAMILIES.values() for k in f]
    ok = pd.DataFrame({"measure": seventeen, "precision": 1.0, "response_bias": 0.1,
                       "metacognitive_bias": -0.1, "task_within": 0.0, "split_half_100": 0.9,
                       "split_half_all": 0.9, "test_retest": 0.3})
    trad = ok.measure.isin(da.FAMILIES["traditional"])
    diff = ok.measure.isin(da.FAMILIES["difference"])
    ok.loc[trad, "task_within"], ok.loc[diff, "task_within"] = 1.5, -1.2

    def narrow(frame, half=0.05):
        frame = frame.copy()
        for c in da.INTERVALS:
            frame[f"{c}_lower"], frame[f"{c}_upper"] = frame[c] - half, frame[c] + half
            if c.startswith("split_half"):   # correlations
                frame[[f"{c}_lower", f"{c}_upper"]] = frame[[f"{c}_lower", f"{c}_upper"]].clip(
                    -1, 1)
        return frame

    assert (da.rahnev_claims(narrow(ok)).verdict == "reproduced").all()
    bad = ok.copy()
    bad.loc[:8, "response_bias"] = 0.5          # 9 of 17 depend on response bias
    bad.loc[:3, "split_half_100"] = 0.5         # 4 of 17 are not very reliable
    verdict = da.rahnev_claims(narrow(bad)).set_index("rule").verdict
    assert verdict["abs(r) with abs(c) below 0.3"] == "not reproduced"
    assert verdict["r at least 0.8, 100 trials per half"] == "partly reproduced"
    # wide intervals: the same values decide nothing
    wide = da.rahnev_claims(narrow(ok, half=1.0)).set_index("rule").verdict
    assert wide["abs(r) with abs(c) below 0.3"] == "undecided"
    # the censored measures enter with their rank-based values where the summary has them
    ranked = narrow(ok)
    ranked["response_bias_ranked"] = 0.1
    ranked["response_bias_ranked_lower"], ranked["response_bias_ranked_upper"] = 0.05, 0.15
    ranked.loc[ranked.measure.isin(da.NEGATED), "response_bias"] = 0.9   # left aside
    assert da.rahnev_claims(ranked).verdict[2] == "reproduced"
    with pytest.raises(ValueError, match="lacks"):
        da.rahnev_claims(narrow(ok).drop(columns="precision_lower"))
    with pytest.raises(ValueError, match="summary"):
        da.rahnev_claims(None)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(10, 60), st.floats(-0.9, 0.9),
       st.floats(0, 0.4))
def test_the_ranked_statistics_ignore_the_scale_and_keep_the_censored(seed, n, rho, censored):
    """One fit on two scales, −σ and −√(exp(σ²) − 1), gives the same rank-based values, and a
    person censored at a bound (σ = 0, or unbounded) stays in them."""
    rng = np.random.default_rng(seed)
    sigma = np.abs(rng.normal(size=(n, 2)) + 0.5)
    sigma[:, 1] = np.abs(rho * sigma[:, 0] + np.sqrt(1 - rho ** 2) * rng.normal(size=n))
    sigma[rng.random((n, 2)) < censored] = 0.0
    sigma[rng.random((n, 2)) < censored / 3] = np.inf
    with np.errstate(over="ignore"):
        scaled = -np.sqrt(np.expm1(sigma ** 2))   # meta-uncertainty's scale, −σ_m
    for kind in ("r", "d"):
        one = da._ranked_stat(kind, -sigma[:, :1], -sigma[:, 1:], 3)[0]
        other = da._ranked_stat(kind, scaled[:, :1], scaled[:, 1:], 3)[0]
        np.testing.assert_allclose(one, other, rtol=0, atol=1e-12, equal_nan=True)
    # every person is used, the censored ones too: P(rise) has n in its denominator
    assert np.isfinite(da._ranked_stat("d", -sigma[:, :1], -sigma[:, 1:], 3)[0])


def test_ranked_and_parametric_statistics_agree_without_censoring():
    """Normal data, 4,000 people: Spearman's ρ and the probit of P(rise) estimate what Pearson's r
    and Cohen's d do (ρ = (6/π) asin(r/2) for a normal pair, within 0.01 of r here)."""
    rng = np.random.default_rng(5)
    a = rng.normal(size=(4000, 1))
    b = 0.6 * a + 0.8 * rng.normal(size=(4000, 1)) + 0.4
    assert da._ranked_stat("r", a, b, 3)[0] == pytest.approx(da._stat("r", a, b, 3)[0], abs=0.03)
    assert da._ranked_stat("d", a, b, 3)[0] == pytest.approx(da._stat("d", a, b, 3)[0], abs=0.05)


def test_meta_noise_and_meta_uncertainty_are_one_fit_in_the_ranked_criteria(shipped):
    """The shipped rank-based criteria of the two model-based measures are equal (one fit on two
    scales); Pearson's r and Cohen's d are not, and they use fewer people than have a fit."""
    for c in da.INTERVALS:
        a, b = shipped.loc["meta_noise", f"{c}_ranked"], shipped.loc["meta_uncertainty",
                                                                      f"{c}_ranked"]
        assert a == pytest.approx(b, abs=1e-12), c
        # Bang et al.'s people have no unbounded fit at 400 trials a day; every other criterion
        # leaves some out
        assert (shipped.loc["meta_noise", f"{c}_n_unbounded"] > 0) == (c != "test_retest"), c
        assert shipped.loc["meta_noise", f"{c}_n_floor"] > 0, c
        assert shipped.loc["auroc2", f"{c}_n_unbounded"] == 0, c
    assert abs(shipped.loc["meta_noise", "precision"]
               - shipped.loc["meta_uncertainty", "precision"]) > 0.1
    # the shipped counts of all people: σ = 0 and unbounded for many of those with a fit
    noise = shipped.loc["meta_noise"]
    assert noise.n_zero + noise.n_infinite > 0.4 * (noise.n_finite + noise.n_infinite)


def test_the_ratio_near_chance_is_left_out(by_set):
    """Paulewicz_unpub3: people whose hardest difficulty level is at chance had SDT-expected
    gammas of 1e-14 (d′ = 0 up to rounding) and gamma-ratios of 1e14, which set the data set's
    task effect (d = −0.24 for gamma-ratio, +0.30 for phi-ratio). Their ratios are now
    undefined: gamma-ratio keeps fewer than three people there (no value), and phi-ratio's
    effect is negative, as the other data sets' (to 0.01: the shipped value, −0.38)."""
    row = by_set[(by_set["criterion"] == "task_within") & (by_set.dataset == "Paulewicz_unpub3")]
    assert len(row) == 1
    assert np.isnan(row.gamma_ratio.iloc[0])
    assert float(row.phi_ratio.iloc[0]) == pytest.approx(-0.376, abs=0.01)
