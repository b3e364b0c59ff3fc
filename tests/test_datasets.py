"""The data shipped with the book (metabits_book.studies.datasets): the MaskOri trials of 16
people and their count tables (Hellmann, Zehetleitner & Rausch, 2023), checked against pandas'
crosstab and groupby on the trials. The ``trials`` and ``tables`` fixtures are in conftest.py.
"""

from importlib.resources import files

import numpy as np
import pandas as pd
import pytest

from metabits.io import count_tables
from metabits_book.studies import datasets


# --- the data and its source -------------------------------------------------------------------

def test_data_ships_with_its_source_and_licence():
    note = files("metabits_book").joinpath("data", "maskori.README.md").read_text(encoding="utf-8")
    assert "Hellmann" in note and "10.1037/rev0000411" in note and "GPL" in note
    assert "S1 is the horizontal grating (0)" in note


def test_the_trials_are_as_described(trials):
    assert trials.shape == (25920, 7)
    assert trials.groupby(["participant", "soa_ms"]).size().eq(324).all()
    assert sorted(trials.soa_ms.unique()) == list(datasets.MASKORI_SOAS)
    # statConfR's response column agrees with its stimulus and correctness columns
    assert ((trials.response == trials.stimulus) == (trials.correct == 1)).all()
    assert set(trials.response.unique()) == set(datasets.MASKORI_STIMULI)


def test_data_note_does_not_call_the_response_column_derived():
    note = files("metabits_book").joinpath("data", "maskori.README.md").read_text(encoding="utf-8")
    assert "derived" not in note and "statConfR's own `response` column" in note


def test_count_tables_equal_pandas_crosstabs(trials, tables):
    K = 5
    col = np.where(trials.response == 0, K - 1 - trials.rating, K + trials.rating)
    for (p, soa), g in trials.assign(col=col).groupby(["participant", "soa_ms"]):
        ct = pd.crosstab(g.stimulus, g.col).reindex(index=[0, 90], columns=range(10),
                                                    fill_value=0)
        i, j = list(tables.levels[0]).index(p), list(tables.levels[1]).index(soa)
        assert np.array_equal(tables.counts[i, j], ct.to_numpy())
    assert tables.counts.sum() == len(trials)


def test_rows_are_orientations_and_columns_run_from_s1_to_s2_confidence():
    trials = {"stimulus": [0, 90, 90], "response": [0, 90, 0], "rating": [4, 4, 0]}
    t = count_tables(trials, stimuli=(0, 90), n_ratings=5).counts
    assert t[0, 0] == 1  # horizontal, answered horizontal, top confidence: "S1, most confident"
    assert t[1, 9] == 1  # vertical, answered vertical with top confidence: "S2, most confident"
    assert t[1, 4] == 1  # vertical, answered horizontal with lowest confidence: "S1, least"


def test_pooled_and_by_condition_tables_are_sums(tables):
    by_soa = datasets.maskori_counts(by="soa_ms").counts
    pooled = datasets.maskori_counts(by=()).counts
    assert np.array_equal(by_soa, tables.counts.sum(axis=0))
    assert np.array_equal(pooled, tables.counts.sum(axis=(0, 1)))


@pytest.mark.parametrize("change, match", [
    (dict(stimulus=[0, 45]), "must be one of \\(0, 90\\)"),
    (dict(response=[0, 1]), "must be one of"),
    (dict(rating=[0, 5]), "integers >= 0 and <= 4"),
    (dict(rating=[0.0, 1.5]), "integers"),
    (dict(rating=[0, 1, 2]), "one value per trial"),
])
def test_bad_trials_are_refused(change, match):
    trials = {"stimulus": [0, 90], "response": [0, 90], "rating": [0, 1]} | change
    with pytest.raises(ValueError, match=match):
        count_tables(trials, stimuli=(0, 90), n_ratings=5)


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match="no column 'participant'"):
        count_tables({"stimulus": [0], "response": [0], "rating": [0]}, by="participant",
                     stimuli=(0, 90), n_ratings=5)
