"""metabits.io._trials: a researcher's trials read, harmonised and counted into tables.

The reference for every coding is the same trials written with the library's own coding (0/1
stimulus and response, ratings 1 … K): whatever codes, labels, missing values or float ratings a
file uses, the tables must be those of the reference, and the Confidence Database's own reader
must give the same tables for a file in its format.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import metabits as mb
from metabits.io import read_confidence_database, read_trials
from conftest import SHEKHAR_2018


def _reference(n=240, K=4, seed=0, people=3):
    rng = np.random.default_rng(seed)
    d = pd.DataFrame({"subject": np.repeat(np.arange(1, people + 1), n // people),
                      "stimulus": rng.integers(0, 2, n)})
    d["response"] = np.where(rng.random(n) < 0.75, d.stimulus, 1 - d.stimulus)
    d["confidence"] = rng.integers(1, K + 1, n)
    return d


def _tables(d, **kw):
    return read_trials(d, **kw).tables().counts


def test_tables_count_each_trial_in_its_cell():
    d = pd.DataFrame({"subject": [1] * 6, "stimulus": [0, 0, 1, 1, 1, 0],
                      "response": [0, 1, 1, 0, 1, 0], "confidence": [3, 1, 3, 2, 1, 3]})
    counts = _tables(d)[0]
    # S1 row: "S1" at 3 (most confident, column 0) twice, "S2" at 1 (least, column 3) once
    assert counts.tolist() == [[2, 0, 0, 1, 0, 0], [0, 1, 0, 1, 0, 1]]


@pytest.mark.parametrize("s1, s2", [(1, 2), (-1, 1), (0.0, 1.0), (0, 90), (True, False)])
def test_numeric_codes_read_lower_as_s1(s1, s2):
    ref = _reference()
    d = ref.assign(stimulus=np.where(ref.stimulus == 0, s1, s2),
                   response=np.where(ref.response == 0, s1, s2))
    if isinstance(s1, bool):  # False < True: False is S1
        d = ref.assign(stimulus=ref.stimulus.astype(bool), response=ref.response.astype(bool))
    np.testing.assert_array_equal(_tables(d), _tables(ref))


def test_labels_need_codes_and_are_read_with_them():
    ref = _reference()
    d = ref.assign(stimulus=np.where(ref.stimulus == 0, "left", "right"),
                   response=np.where(ref.response == 0, "left", "right"))
    with pytest.raises(ValueError, match=r"stimulus column 'stimulus' has the labels "
                                         r"\['left', 'right'\]: pass codes="):
        read_trials(d)
    np.testing.assert_array_equal(_tables(d, codes={"left": "S1", "right": "S2"}), _tables(ref))
    np.testing.assert_array_equal(_tables(d, codes={"left": 1, "right": 0}),
                                  _tables(ref.assign(stimulus=1 - ref.stimulus,
                                                     response=1 - ref.response)))
    with pytest.raises(ValueError, match=r"values \['right'\] that codes does not map"):
        read_trials(d, codes={"left": "S1"})


def test_missing_values_are_dropped_and_counted_and_float_ratings_read():
    ref = _reference()
    d = ref.astype({"confidence": float})
    d.loc[[3, 7], "confidence"] = np.nan
    d.loc[[5], "response"] = np.nan
    d.loc[[9], "stimulus"] = np.nan
    t = read_trials(d)
    assert t.n_dropped == {"stimulus": 1, "response": 1, "confidence": 2}
    assert t.n_rows == len(ref) and len(t.frame) == len(ref) - 4
    np.testing.assert_array_equal(t.tables().counts,
                                  _tables(ref.drop(index=[3, 5, 7, 9])))


def test_missing_value_markers_of_the_database_are_missing():
    ref = _reference(n=30, people=1)
    d = ref.astype({"response": object})
    d.loc[[0, 1], "response"] = ["TIMEOUT", "NaN"]
    assert read_trials(d).n_dropped == {"response": 2}


def test_response_from_correctness_and_mismatches_counted():
    ref = _reference()
    correct = (ref.stimulus == ref.response).astype(int)
    only = ref.drop(columns="response").assign(accuracy=correct)
    np.testing.assert_array_equal(_tables(only), _tables(ref))
    wrong = ref.assign(correct=np.where(np.arange(len(ref)) < 5, 1 - correct, correct))
    assert read_trials(wrong).n_mismatch == 5
    np.testing.assert_array_equal(_tables(wrong), _tables(ref))  # the response is used
    with pytest.raises(ValueError, match="correct column 'correct' must hold 1"):
        read_trials(ref.drop(columns="response").assign(correct=2))


def test_continuous_confidence_is_refused_until_binned():
    rng = np.random.default_rng(3)
    ref = _reference()
    d = ref.assign(confidence=rng.uniform(0, 100, len(ref)))
    with pytest.raises(ValueError, match=r"has 240 distinct values .*bins=4.*"
                                         r"bins=\('quantile', 4\)"):
        read_trials(d)
    t = read_trials(d, bins=4)
    assert t.n_levels == 4 and t.scale[0] == pytest.approx(d.confidence.min())
    expected = np.clip(np.searchsorted(np.asarray(t.scale), d.confidence, side="right"), 1, 4)
    np.testing.assert_array_equal(t.frame.confidence, expected)
    edges = read_trials(d, bins=[0, 50, 80, 100])
    np.testing.assert_array_equal(edges.frame.confidence,
                                  np.where(d.confidence < 50, 1, np.where(d.confidence < 80,
                                                                          2, 3)))
    q = read_trials(d, bins=("quantile", 4))
    counts = q.frame.groupby(["subject", "confidence"]).size().unstack()
    assert (counts == 20).all().all()  # 80 trials a person: 20 in each quantile bin
    with pytest.raises(ValueError, match="values outside the bin edges"):
        read_trials(d, bins=[10, 50, 100])


def test_levels_keep_an_unused_end_of_the_scale():
    ref = _reference(K=3)
    t = read_trials(ref, levels=[1, 2, 3, 4])
    assert t.n_levels == 4
    assert t.tables().counts.shape[-1] == 8 and t.tables().counts[..., 0].sum() == 0


def test_columns_found_by_their_usual_names_or_named():
    ref = _reference()
    d = ref.rename(columns={"subject": "Participant", "stimulus": "stim", "response": "resp",
                            "confidence": "rating"})
    np.testing.assert_array_equal(_tables(d), _tables(ref))
    e = ref.rename(columns={"subject": "id", "confidence": "sure"})
    with pytest.raises(ValueError, match="subject: no column named like a subject.*"
                                         "subject='your column'"):
        read_trials(e)
    np.testing.assert_array_equal(_tables(e, subject="id", confidence="sure"), _tables(ref))
    with pytest.raises(ValueError, match=r"confidence='nonexistent': the data have no such "
                                         r"column"):
        read_trials(ref, confidence="nonexistent")


def test_groups_by_subject_and_condition_and_without_subject():
    ref = _reference()
    d = ref.assign(condition=np.tile(["easy", "hard"], len(ref) // 2))
    t = read_trials(d, by="condition").tables()
    assert t.labels.columns.tolist() == ["subject", "condition"] and len(t.labels) == 6
    pooled = read_trials(d.drop(columns="subject"), subject=False).tables()
    assert pooled.counts.shape[0] == 1
    np.testing.assert_array_equal(pooled.counts[0], t.counts.sum(0))


def test_a_confidence_database_file_gives_the_databases_own_tables():
    path = SHEKHAR_2018
    ours = read_trials(path).tables()
    theirs = mb.io.confidence_database_tables(read_confidence_database(path))
    np.testing.assert_array_equal(ours.counts, theirs.counts)
    assert ours.labels["Subj_idx"].tolist() == theirs.levels[0].tolist()
    t = read_trials(path)
    assert t.columns["subject"] == "Subj_idx" and t.codes["stimulus"] == (1, 2)


def test_check_reports_and_flags_each_group():
    ref = _reference(n=300)
    d = pd.concat([ref, pd.DataFrame({"subject": 9, "stimulus": [1] * 20, "response": 1,
                                      "confidence": np.tile([1, 2], 10)}),
                   pd.DataFrame({"subject": 8, "stimulus": np.tile([0, 1], 10), "response": 1,
                                 "confidence": 2})])
    r = read_trials(d).check()
    row = r.set_index("subject")
    assert row.loc[9, "flags"] == "few_trials;one_stimulus" and row.loc[9, "n_s1"] == 0
    assert row.loc[8, "flags"] == "few_trials;one_response;one_level"
    assert row.loc[1, "flags"] == "" and row.loc[1, "n_trials"] == 100
    assert row.loc[1, "acc"] == pytest.approx(
        (d[d.subject == 1].stimulus == d[d.subject == 1].response).mean())
    assert r.attrs["n_levels"] == 4


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(1, 5)),
                min_size=2, max_size=60))
def test_every_trial_is_counted_once(rows):
    d = pd.DataFrame(rows, columns=["stimulus", "response", "confidence"]).assign(subject=1)
    d = pd.concat([d, pd.DataFrame({"stimulus": [0, 1], "response": [0, 1],
                                    "confidence": [1, 5], "subject": 1})])
    counts = read_trials(d, levels=[1, 2, 3, 4, 5]).tables().counts
    assert counts.sum() == len(d)
    assert counts[0, 0].sum() == (d.stimulus == 0).sum()
    said_s2 = (d.response == 1).sum()
    assert counts[0, :, 5:].sum() == said_s2


@pytest.mark.parametrize("kwargs, match", [
    (dict(data=3), "data must be a pandas.DataFrame or the path"),
    (dict(data="no/such/file.csv"), "data: no such file 'no/such/file.csv'"),
    (dict(data=_reference().assign(stimulus=np.arange(240) % 3)), "more than two stimuli: "
                                                                 "column 'stimulus' has 3"),
    (dict(data=_reference(), by="nonexistent"), "by='nonexistent': the data have no such"),
    (dict(data=_reference(), codes="abc"), "codes must be a mapping"),
    (dict(data=_reference(), bins=1), "bins must be an integer from 2"),
    (dict(data=_reference(), bins=4, levels=[1, 2, 3, 4]), "bins or levels, not both"),
    (dict(data=_reference().assign(confidence=3)), "holds one value \\(3\\)"),
])
def test_bad_input_names_the_argument_or_column(kwargs, match):
    with pytest.raises(ValueError, match=match):
        read_trials(**kwargs)


def test_the_same_column_cannot_serve_two_roles():
    with pytest.raises(ValueError, match="one column serves two roles"):
        read_trials(_reference(), correct="stimulus")


def test_a_file_is_read_like_its_frame(tmp_path):
    ref = _reference()
    path = tmp_path / "trials.csv.gz"
    ref.to_csv(path, index=False)
    np.testing.assert_array_equal(_tables(path), _tables(ref))
    tsv = tmp_path / "trials.tsv"
    ref.to_csv(tsv, sep="\t", index=False)
    np.testing.assert_array_equal(_tables(tsv), _tables(ref))
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\x1f\x8b\x08garbage")
    with pytest.raises(ValueError, match="bad.csv is not a readable CSV"):
        read_trials(bad)
