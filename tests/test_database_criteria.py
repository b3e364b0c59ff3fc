"""The interval of a measure's dependence on task performance
(metabits_book.studies.database_criteria.task_effect).

Independent checks: the point estimate is the shipped criterion (rahnev_criteria's task_within),
the interval is compared with the standard large-sample interval of Cohen's d of paired
differences, d ± 1.96 · SE with SE² = 1/n + d²/(2n) per data set, averaged over the data sets.
"""

import numpy as np
import pytest

from metabits_book.studies.database_copy import confidence_database
from metabits_book.studies.database_assessment import shipped_assessment
from metabits_book.studies.database_criteria import task_effect


@pytest.fixture(scope="module")
def db():
    return confidence_database()


@pytest.fixture(scope="module")
def m_ratio(db):
    return task_effect(db, "m_ratio", n_resamples=4000, rng=2025)


def test_the_estimate_is_the_shipped_criterion(db, m_ratio):
    crit = shipped_assessment().set_index("measure")
    assert m_ratio.d == pytest.approx(crit.loc["m_ratio", "task_within"], abs=1e-4)
    assert len(m_ratio.sets) == 13 and m_ratio.n_people.sum() == 349
    assert m_ratio.d == pytest.approx(m_ratio.by_set.mean(), rel=1e-12)
    for k in ("auroc2", "m_diff"):
        r = task_effect(db, k, n_resamples=200, rng=1)
        assert r.d == pytest.approx(crit.loc[k, "task_within"], abs=1e-4)


def test_the_interval_agrees_with_the_large_sample_interval(db, m_ratio):
    """For the M-ratio (d near 0) the BCa interval is within 0.02 of d ± 1.96 SE."""
    d, n = m_ratio.by_set, m_ratio.n_people
    se = np.sqrt(np.sum(1 / n + d ** 2 / (2 * n))) / len(n)
    assert m_ratio.lower == pytest.approx(m_ratio.d - 1.96 * se, abs=0.02)
    assert m_ratio.upper == pytest.approx(m_ratio.d + 1.96 * se, abs=0.02)
    assert m_ratio.lower < 0 < m_ratio.upper          # the chapter says so
    assert -0.20 < m_ratio.lower and m_ratio.upper < 0.10


def test_a_large_effect_is_not_pushed_up_by_the_small_data_sets(db):
    """Cohen's d of a few people is biased upwards, and so is its percentile interval; the BCa
    interval of AUROC2's d contains d near its middle, as the large-sample interval does."""
    r = task_effect(db, "auroc2", n_resamples=2000, rng=3)
    assert r.lower < r.d < r.upper
    assert abs((r.d - r.lower) - (r.upper - r.d)) < 0.15


def test_levels_and_seeds(db, m_ratio):
    narrow = task_effect(db, "m_ratio", confidence=0.5, n_resamples=4000, rng=2025)
    assert m_ratio.lower < narrow.lower < narrow.d < narrow.upper < m_ratio.upper
    again = task_effect(db, "m_ratio", n_resamples=4000, rng=2025)
    assert (again.lower, again.upper) == (m_ratio.lower, m_ratio.upper)
    with pytest.raises(ValueError, match="name"):
        task_effect(db, "accuracy")
    with pytest.raises(ValueError, match="confidence"):
        task_effect(db, confidence=1.0)
