"""Precision and test–retest reliability on the Confidence Database copy
(metabits_book.studies.database_precision).

Independent checks: the corruption counted trial by trial from the rebuilt trials of one data set
(ConfidenceDatabase.trials), a hand-computed Cohen's d, and the ICC of the sessions' tables
computed directly (metabits.reliability.icc, tested in tests/lib/test_reliability.py).
"""

import numpy as np
import pytest

from metabits_book.studies.database_copy import confidence_database
from metabits_book.studies.database_measures import NAMES, database_measures
from metabits.reliability import icc
from metabits_book.studies.database_precision import (corrupted_tables, precision,
                                                      test_retest as retest)


@pytest.fixture(scope="module")
def db():
    return confidence_database()


def test_no_corruption_is_the_copy_and_full_corruption_keeps_responses(db):
    assert np.array_equal(corrupted_tables(db, 0.0, rng=3), db.tables())
    t, whole = corrupted_tables(db, 1.0, rng=3), db.tables()
    K = db.n_levels
    side = np.arange(22)[None, :] >= K[:, None]          # columns of the response S2
    for a in (t, whole):
        assert a.sum(-1).shape == (len(K), 2)
    # stimulus and response of every trial unchanged: the counts per (stimulus, response) agree
    for resp in (False, True):
        m = (side == resp)[:, None, :]
        assert np.array_equal((t * m).sum(-1), (whole * m).sum(-1))
    # confidence uniform over the K levels: Rouault 2018 Expt 1 (K = 11, 104,580 trials)
    people = db.dataset == db.names.index("Rouault_2018_Expt1")
    levels = t[people][..., :22].sum((0, 1))[:22]
    k = 11
    per_level = levels[:k][::-1] + levels[k:2 * k]     # confidence 1 … 11 of both responses
    share = per_level / per_level.sum()
    assert np.abs(share - 1 / k).max() < 0.004           # 104,580 trials: SE about 0.001


def test_corruption_share_matches_fraction_on_one_data_set(db):
    """Of the trials of one data set, about ``fraction`` × (K − 1)/K change their column."""
    name = "Shekhar_2018"
    people = np.flatnonzero(db.dataset == db.names.index(name))
    before = db.tables()[people]
    after = corrupted_tables(db, 0.5, rng=11)[people]
    moved = np.abs(after - before).sum() / 2            # trials that left a column (at least)
    n = before.sum()
    K = 4
    # every changed trial leaves one column and enters another; net changes undercount swaps
    assert moved <= 0.5 * n * (K - 1) / K * 1.1
    assert moved > 0.05 * n


def test_precision_by_set_is_a_hand_computed_paired_d(db):
    p = precision(db, fraction=0.3, n_trials=150, names=["auroc2", "RMI"], rng=5)
    gen = np.random.default_rng(5)
    enough = db.n_trials >= 150
    orig = database_measures(db.tables(first=150)[enough], db.n_levels[enough]).estimate
    bad = database_measures(corrupted_tables(db, 0.3, gen, first=150)[enough],
                            db.n_levels[enough]).estimate
    i = db.names.index("Rouault_2018_Expt2")
    m = db.dataset[enough] == i
    for j, name in enumerate(["auroc2", "RMI"]):
        c = NAMES.index(name)
        diff = orig[m, c] - bad[m, c]
        diff = diff[np.isfinite(diff)]
        assert p.by_set[i, j] == pytest.approx(diff.mean() / diff.std(ddof=1), rel=1e-12)
    assert p.n_sets == int(np.isfinite(p.by_set[:, 0]).sum())
    assert p.d == pytest.approx(np.nanmean(p.by_set, axis=0))
    # the manipulation lowers every measure of metacognition on average: d > 0
    assert (p.d > 0).all()


@pytest.mark.slow
def test_precision_grows_with_the_corrupted_share(db):
    small = precision(db, fraction=0.05, names=["auroc2"], rng=2).d[0]
    large = precision(db, fraction=0.4, names=["auroc2"], rng=2).d[0]
    assert large > small > 0


def test_test_retest_on_bang_2019(db):
    r = retest(db, n_trials=300, names=["auroc2", "m_ratio"])
    assert r.dataset == "Bang_2019_Exp1" and r.n_people == 12
    assert r.pairs == tuple((s, s + 1) for s in range(6))
    people = np.flatnonzero(db.dataset == db.names.index("Bang_2019_Exp1"))
    d = db.trials("Bang_2019_Exp1")
    assert len(d) == int(db.n_trials[people].sum())
    # sessions 0 and 1, first 300 trials of each: tables from the sessions' trials directly
    t0 = db.tables(first=300, session=0)[people]
    t1 = db.tables(first=300, session=1)[people]
    assert (t0.sum((1, 2)) == 300).all() and (t1.sum((1, 2)) == 300).all()
    e0 = database_measures(t0, db.n_levels[people]).value("auroc2")
    e1 = database_measures(t1, db.n_levels[people]).value("auroc2")
    assert r.by_pair[0, 0] == pytest.approx(icc(np.stack([e0, e1], 1)), rel=1e-12)
    assert r.icc == pytest.approx(r.by_pair.mean(0))
    with pytest.raises(ValueError, match="dataset"):
        retest(db, dataset="Shekhar_2018")


def test_test_retest_on_the_two_tasks_of_lebreton_2018(db):
    """Lebreton 2018's 21 people under two subject numbers (SAME_PERSON): two sessions of 108
    trials; the data set's other people, without sessions, are left out."""
    r = retest(db, dataset="Lebreton_2018", n_trials=108, names=["auroc2", "meta_I"])
    assert r.n_people == 21 and r.pairs == ((0, 1),)
    people = np.flatnonzero(db.dataset == db.names.index("Lebreton_2018"))
    twice = people[np.char.startswith(db.participant[people].astype(str), "21")]
    e = [database_measures(db.tables(session=s)[twice], db.n_levels[twice]).value("auroc2")
         for s in (0, 1)]
    assert r.by_pair[0, 0] == pytest.approx(icc(np.stack(e, 1)), rel=1e-12)
    assert r.icc[0] == pytest.approx(0.323, abs=5e-4)   # as computed; the chapter glues it
    with pytest.raises(ValueError, match="n_trials: nobody of Lebreton_2018 has 109"):
        retest(db, dataset="Lebreton_2018", n_trials=109, names=["auroc2"])
