"""Every measure on every participant of the Confidence Database and Rahnev's criteria
(metabits_book.studies.database_measures).

Independent checks: the library's single-stack functions called table by table
(metabits.all_measures, metabits.oskr_from_table, metabits.bootstrap_measures), scipy's normal
quantiles for c, the trial-level mean confidence and numpy's corrcoef.
"""

import numpy as np
import pytest
from scipy.stats import norm

import metabits as mb
from metabits_book.studies.database_copy import confidence_database
from metabits.io import merge_levels
from metabits_book.studies.database_measures import (METACOGNITION, NAMES, database_bootstrap,
                                                     database_measures)
from metabits_book.studies.database_criteria import split_half


@pytest.fixture(scope="module")
def mixed():
    """Six tables of K = 2, 3 and 4, padded to 22 columns, and their K."""
    rng = np.random.default_rng(7)
    K = np.array([2, 3, 4, 2, 3, 4])
    t = np.zeros((6, 2, 22), dtype=np.int64)
    for i, k in enumerate(K):
        p = rng.dirichlet(np.arange(1, 2 * k + 1)[::-1] + 1.0)
        t[i, 0, :2 * k] = rng.multinomial(150, p)
        t[i, 1, :2 * k] = rng.multinomial(150, p[::-1])
    return t, K


@pytest.fixture(scope="module")
def db():
    return confidence_database()


def test_measures_equal_the_library_table_by_table(mixed):
    t, K = mixed
    r = database_measures(t, K)
    assert r.names == NAMES and r.estimate.shape == (6, len(NAMES))
    for i, k in enumerate(K):
        table = t[i, :, :2 * k]
        ref = mb.all_measures(table)
        np.testing.assert_allclose(r.estimate[i, :12], ref.estimate, rtol=1e-7, atol=1e-9)
        o = mb.oskr_from_table(mb.oskr.correctness_table(table)).oskr
        assert r.value("oskr")[i] == pytest.approx(o, abs=1e-12)
        padded = table + 1 / (2 * k)
        hit = padded[1, k:].sum() / padded[1].sum()
        fa = padded[0, k:].sum() / padded[0].sum()
        assert r.value("c")[i] == pytest.approx(-(norm.ppf(hit) + norm.ppf(fa)) / 2, abs=1e-9)
        # mean confidence from the trials: level 0 … K − 1 of each column, rescaled to 0 … 1
        level = np.r_[np.arange(k - 1, -1, -1), np.arange(k)]
        trials = np.repeat(np.tile(level, 2), table.ravel())
        assert r.value("mean_conf")[i] == pytest.approx(trials.mean() / (k - 1), abs=1e-12)


def test_extra_axes_share_the_participants_k(mixed):
    t, K = mixed
    both = np.stack([t, 2 * t], axis=1)
    r = database_measures(both, K)
    assert r.estimate.shape == (6, 2, len(NAMES))
    np.testing.assert_allclose(r.estimate[:, 0], database_measures(t, K).estimate)
    np.testing.assert_allclose(r.value("acc")[:, 1], r.value("acc")[:, 0])


def test_a_table_with_an_empty_row_gives_nan(mixed):
    t, K = mixed
    t = t.copy()
    t[2, 0] = 0
    r = database_measures(t, K)
    assert np.isnan(r.estimate[2]).all() and np.isfinite(r.value("acc")[[0, 1, 3]]).all()


@pytest.mark.parametrize("tables,levels,message", [
    (np.zeros((2, 3, 22)), [2, 2], r"shape"),
    (np.ones((2, 2, 22)), [2], r"one K per table"),
    (np.ones((2, 2, 22)), [2, 12], r"from 2 to 11"),
    (np.ones((2, 2, 22)), [1, 2], r"from 2 to 11"),
    (-np.ones((2, 2, 22)), [2, 2], r"tables must be non-negative"),
])
def test_bad_input(tables, levels, message):
    with pytest.raises(ValueError, match=message):
        database_measures(tables, np.array(levels))


@pytest.mark.parametrize("pad", [0, -1, np.nan, np.inf, "abc"])
def test_a_pad_that_is_not_positive_is_refused_where_it_enters(mixed, pad):
    t, K = mixed
    for f in (database_measures, database_bootstrap):
        with pytest.raises(ValueError, match=r"^pad must be"):
            f(np.zeros_like(t), K, pad=pad)   # refused even where no table is fitted


def test_counts_that_are_not_whole_are_refused_naming_tables(mixed):
    t, K = mixed
    with pytest.raises(ValueError, match=r"tables must be whole numbers"):
        database_bootstrap(t + 0.5, K, n_boot=20)


def test_bootstrap_equals_the_library_for_one_k(mixed):
    t, K = mixed
    pick = K == 3
    b = database_bootstrap(t[pick], K[pick], n_boot=50, rng=3)
    ref = mb.bootstrap_measures(t[pick][..., :6], n_boot=50, rng=3)
    where = [b.names.index(k) for k in ref.names]
    np.testing.assert_allclose(b.lower[:, where], ref.lower, rtol=1e-9)
    np.testing.assert_allclose(b.upper[:, where], ref.upper, rtol=1e-9)
    np.testing.assert_allclose(b.estimate[:, where], ref.estimate, rtol=1e-9)
    np.testing.assert_allclose(b.estimate[:, :len(NAMES)],
                               database_measures(t[pick], K[pick]).estimate, rtol=1e-9)
    lo, hi = b.interval("oskr")
    assert np.all(lo <= b.value("oskr")) and np.all(b.value("oskr") <= hi)
    assert np.isnan(b.interval("c").lower).all() and b.n_boot == 50
    with pytest.raises(ValueError, match=r"no bootstrap"):
        database_measures(t, K).interval("RMI")
    with pytest.raises(ValueError, match=r"whole numbers"):
        database_bootstrap(t + 0.5, K)


def test_merging_levels_moves_confidence_not_performance(mixed):
    t, K = mixed
    sel = K >= 3
    top, K_top = merge_levels(t[sel], K[sel], "top")
    bottom, K_bottom = merge_levels(t[sel], K[sel], "bottom")
    assert (K_top == K[sel] - 1).all() and (K_bottom == K[sel] - 1).all()
    assert (top.sum(-1) == t[sel].sum(-1)).all() and (bottom.sum(-1) == t[sel].sum(-1)).all()
    a, b = database_measures(top, K_top), database_measures(bottom, K_bottom)
    base = database_measures(t[sel], K[sel])
    np.testing.assert_allclose(a.value("acc"), base.value("acc"))
    # the mean confidence on the common 0 … 1 scale rises when the top criterion goes
    conf_a = a.value("mean_conf")
    conf_b = b.value("mean_conf")
    assert np.all(conf_a > conf_b)
    with pytest.raises(ValueError, match=r"K >= 3"):
        merge_levels(t, K, "top")
    with pytest.raises(ValueError, match=r"which"):
        merge_levels(t[sel], K[sel], "middle")


def test_split_half_is_the_correlation_of_the_halves(db):
    r = split_half(db, 100)
    assert r.shape == (len(db.names), len(METACOGNITION))
    i = db.names.index("Rouault_2018_Expt2")
    people = (db.dataset == i) & (db.n_trials >= 200)
    odd = db.tables(half="odd", first=200)[people]
    even = db.tables(half="even", first=200)[people]
    K = db.n_levels[people]
    a, b = database_measures(odd, K).value("auroc2"), database_measures(even, K).value("auroc2")
    m = np.isfinite(a) & np.isfinite(b)
    assert r[i, METACOGNITION.index("auroc2")] == pytest.approx(np.corrcoef(a[m], b[m])[0, 1])
    # data sets with fewer than 10 people with 200 trials give NaN
    small = [j for j in range(len(db.names))
             if ((db.dataset == j) & (db.n_trials >= 200)).sum() < 10]
    assert np.isnan(r[small]).all()
    with pytest.raises(ValueError, match=r"bin_size"):
        split_half(db, 0)


# --- Rahnev's criteria: the shipped precomputation and its rule ---------------------------------

from metabits_book.studies.database_assessment import shipped_assessment  # noqa: E402
from metabits_book.studies.database_criteria import rahnev_criteria  # noqa: E402


def test_criteria_reproduce_rahnevs_qualitative_findings():
    # Rahnev (2025), Fig. 3 caption (stored text): the traditional measures (AUC2, gamma, phi,
    # meta-d') rise strongly with task performance, the difference measure (M-diff) falls
    # strongly, the ratio measure (M-ratio) depends on it only weakly. His thresholds for Cohen's
    # d in Fig. 7: 0.3 and 1.
    c = shipped_assessment().set_index("measure")
    for k in ("auroc2", "gamma", "phi", "meta_d"):
        assert c.loc[k, "task_within"] > 0.5
    assert c.loc["m_diff", "task_within"] < -0.5
    assert abs(c.loc["m_ratio", "task_within"]) < 0.3
    # weak dependence on response bias for every measure (his abstract)
    assert (c.response_bias.abs() < 0.3).all()
    # split-half reliability rises with the bin size for every measure (meta-uncertainty, the
    # least reliable, from 100 trials per half on)
    halves = c[[f"split_half_{n}" for n in (50, 100, 200, 400)]]
    assert (np.diff(halves.drop("meta_uncertainty").to_numpy(), axis=1) > 0).all()
    assert (np.diff(halves.loc["meta_uncertainty"].to_numpy()[1:]) > 0).all()


def _subset(db, names):
    """The shipped copy cut to some data sets (all their people and trials)."""
    from metabits_book.studies.database_copy import ConfidenceDatabase

    pick = [db.names.index(n) for n in names]
    keep = np.isin(db.dataset, pick)
    trial = np.repeat(keep, db.n_trials)
    index = np.full(len(db.names), -1)
    index[pick] = np.arange(len(pick))
    return ConfidenceDatabase(names=tuple(names),
                              sets=db.sets[db.sets.name.isin(names)].reset_index(drop=True),
                              dataset=index[db.dataset[keep]], participant=db.participant[keep],
                              n_levels=db.n_levels[keep], n_trials=db.n_trials[keep],
                              code=db.code[trial], difficulty=db.difficulty[trial])


def test_criteria_of_a_copy_without_difficulty_or_more_than_two_levels(db):
    # Clark 2018 and Jachs 2015 Exp 3: K = 2, no difficulty manipulation. The criteria that
    # need one are NaN (no data set), the others are computed; a bin size larger than anyone's
    # trials gives NaN reliabilities (not numpy's empty-reduction error).
    small = _subset(db, ("Clark_2018", "Jachs_2015_Exp3"))
    c = rahnev_criteria(small, bin_sizes=(50, 10 ** 6), min_people=3)
    assert c.n_sets["task_within"] == 0 and c.n_sets["metacognitive_bias"] == 0
    assert np.isnan(c.task_within).all() and np.isnan(c.metacognitive_bias).all()
    assert c.n_sets["task_across"] == 2 and np.isfinite(c.task_across).all()
    assert np.isfinite(c.split_half[0]).all() and np.isnan(c.split_half[1]).all()
    assert np.isnan(split_half(small, 10 ** 6)).all()


def test_database_measures_carry_all_measures():
    """The library's all_measures, column for column (MaskOri, four people at 33.3 ms)."""
    from metabits._stack import PLUGIN
    from metabits_book.studies import datasets

    t = datasets.maskori_counts().counts[:4, 2]
    db = database_measures(t, [5] * 4)
    a = mb.all_measures(t)
    for name in PLUGIN:
        assert np.array_equal(db.value(name), a.value(name), equal_nan=True), name
    assert NAMES[:len(PLUGIN)] == PLUGIN


def test_the_books_names_of_the_library_measures_are_the_librarys():
    from metabits._bootstrap import MEASURES
    from metabits._stack import PLUGIN as LIBRARY_PLUGIN
    from metabits_book.studies.database_measures import BIAS_REDUCED, PLUGIN

    assert PLUGIN == LIBRARY_PLUGIN == NAMES[:len(PLUGIN)]
    assert PLUGIN + BIAS_REDUCED == MEASURES


def test_the_lists_of_measures_are_the_registrys():
    from metabits import MEASURES
    from metabits_book.studies.database_assessment import FAMILIES
    from metabits_book.studies.database_measures import EVERY_MEASURE, RAHNEV

    metacognition = {k for k, m in MEASURES.items() if m.family not in ("performance", "bias")}
    assert sorted(EVERY_MEASURE) == sorted(metacognition) and len(EVERY_MEASURE) == 22
    table = [[84, 56, 48, 12], [4, 56, 64, 76]]
    assert RAHNEV == mb.all_measures(table, measures="all").names[-len(RAHNEV):]
    assert FAMILIES["traditional"] == ("auroc2", "gamma", "phi", "dconf", "meta_d")
    assert sum(len(f) for f in FAMILIES.values()) == 17
