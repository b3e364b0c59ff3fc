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
        rows = by_set[by_set.criterion == c]
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
    shipped summary's criteria agree to 1e-9: the vectorised statistics, the parts computed in
    separate processes and the averaging do not move them."""
    old = criteria_frame(rahnev_criteria(db)).set_index("measure")
    for c in old.columns:
        np.testing.assert_allclose(shipped.loc[list(METACOGNITION), c].to_numpy(),
                                   old.loc[list(METACOGNITION), c].to_numpy(), rtol=0,
                                   atol=1e-9, err_msg=c)


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
    assert set(claims.verdict) <= {"reproduced", "partly reproduced", "not reproduced"}
    s = shipped.loc[[k for f in da.FAMILIES.values() for k in f]]
    # the verdicts follow the rules: two checked by hand
    weak_rb = (s.response_bias.abs() < da.WEAK).all()
    assert (claims.verdict[2] == "reproduced") == bool(weak_rb)
    poor = (s.test_retest < da.GOOD).sum()
    assert (claims.verdict[9] == "reproduced") == bool(poor > len(s) / 2)
    assert claims.book[9].startswith(f"{poor} of 17")


def test_rahnev_claims_follow_their_rules():
    seventeen = [k for f in da.FAMILIES.values() for k in f]
    ok = pd.DataFrame({"measure": seventeen, "precision": 1.0, "precision_lower": 0.5,
                       "response_bias": 0.1, "metacognitive_bias": -0.1,
                       "task_within": 0.0, "split_half_100": 0.9, "split_half_all": 0.9,
                       "test_retest": 0.3})
    trad = ok.measure.isin(da.FAMILIES["traditional"])
    diff = ok.measure.isin(da.FAMILIES["difference"])
    ok.loc[trad, "task_within"], ok.loc[diff, "task_within"] = 1.5, -1.2
    assert (da.rahnev_claims(ok).verdict == "reproduced").all()
    bad = ok.copy()
    bad.loc[:8, "response_bias"] = 0.5          # 9 of 17 depend on response bias
    bad.loc[:3, "split_half_100"] = 0.5         # 4 of 17 are not very reliable
    verdict = da.rahnev_claims(bad).set_index("rule").verdict
    assert verdict["abs(r) with abs(c) below 0.3"] == "not reproduced"
    assert verdict["r at least 0.8, 100 trials per half"] == "partly reproduced"
    with pytest.raises(ValueError, match="lacks"):
        da.rahnev_claims(ok.drop(columns="precision_lower"))
    with pytest.raises(ValueError, match="summary"):
        da.rahnev_claims(None)


def test_the_cut_copy_keeps_its_data_sets(db):
    small = db.select(["Jachs_2015_Exp1", "Clark_unpub"])
    i = db.names.index("Clark_unpub")
    assert small.names == ("Jachs_2015_Exp1", "Clark_unpub")
    assert np.array_equal(small.tables()[small.dataset == 1], db.tables()[db.dataset == i])
    assert small.sets.name.tolist() == list(small.names)
    with pytest.raises(ValueError, match="names"):
        db.select(["Clark_unpub", "Clark_unpub"])
    with pytest.raises(ValueError, match="names"):
        db.select(["Nobody_2020"])
