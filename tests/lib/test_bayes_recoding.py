"""Meyen et al.'s recoding of predictions on observed tables (metabits.info), on the
MaskOri tables (fixtures in conftest.py) and on any count table (hypothesis): the reached accuracy
is the trials' own, the recoded one the information measures' estimated accuracy, and the gain
exactly the columns where the majority is wrong.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metabits as mb
from metabits.info import recoding


# --- recoding ----------------------------------------------------------------------------------

def test_reached_accuracy_is_the_trials_accuracy(trials, tables):
    r = recoding(tables.counts)
    acc = trials.groupby(["participant", "soa_ms"]).correct.mean().unstack().to_numpy()
    assert np.allclose(r.acc_reached, acc, atol=1e-12)


def test_recoded_accuracy_is_the_information_measures_accuracy(tables):
    r = recoding(tables.counts)
    assert np.allclose(r.acc_recoded, mb.type2_measures(tables.counts, undefined="nan").acc,
                       atol=1e-12)


count_tables = arrays(np.int64, st.sampled_from([(2, 4), (2, 10)]), elements=st.integers(0, 20)
                      ).filter(lambda t: np.all(t.sum(axis=1) > 0))


@given(count_tables)
def test_recoding_never_lowers_accuracy_and_gains_exactly_the_majority_wrong_columns(table):
    r = recoding(table)
    K = table.shape[1] // 2
    own = np.r_[table[0, :K], table[1, K:]]
    other = np.r_[table[1, :K], table[0, K:]]
    gain = ((other - own) * (other > own)).sum() / table.sum()
    assert r.acc_recoded - r.acc_reached == pytest.approx(gain, abs=1e-12)
    assert r.acc_recoded >= r.acc_reached
    assert r.n_majority_wrong == int((other > own).sum())
