"""The Confidence Database: reading one data set file into harmonised trials and count tables
(metabits.io).

Every coding trap of the database is written into a small synthetic file in ``tmp_path``;
independent checks are hand-written expected values and pandas' crosstab. One test reads all 66
data sets of the project's raw copy and compares them with the copy's README table; it is
skipped when the raw files are absent (the book never reads them).
"""

import re

import numpy as np
import pandas as pd
import pytest

import metabits as mb
from metabits.io import (MAX_LEVELS, confidence_database_citation, confidence_database_tables,
                         read_confidence_database)

from conftest import DATABASE_HEADER as HEADER
from conftest import RAW_DATABASE as RAW
from conftest import write_database_file as write


def core(d):
    return d[["participant", "stimulus", "response", "confidence", "correct"]].values.tolist()


# --- the public name --------------------------------------------------------------------------

def test_reexported_from_metabits():
    assert mb.io.read_confidence_database is read_confidence_database


# --- codings ----------------------------------------------------------------------------------

@pytest.mark.parametrize("s1,s2", [(0, 1), (1, 2), (-1, 1)])
def test_stimulus_and_response_codings_become_0_1(tmp_path, s1, s2):
    p = write(tmp_path, f"{HEADER}\n1,{s1},{s1},1\n1,{s1},{s2},2\n1,{s2},{s2},2\n1,{s2},{s1},1\n")
    d = read_confidence_database(p)
    assert core(d) == [[1, 0, 0, 1, 1], [1, 0, 1, 2, 0], [1, 1, 1, 2, 1], [1, 1, 0, 1, 0]]
    assert d.attrs["stimulus_codes"] == [s1, s2] == d.attrs["response_codes"]


def test_lebreton_minus_one_one(tmp_path):
    # Lebreton 2018: stimulus and response 1 (left) / -1 (right); -1 is the lower code, S1
    p = write(tmp_path, "Subj_idx,Stimulus,Response,Confidence,accuracy\n"
                        "1001,1,-1,0.7,0\n1001,-1,-1,0.9,1\n1001,1,1,0.55,1\n")
    d = read_confidence_database(p)  # the scale's step is the smallest gap used: 0.05
    assert core(d) == [[1001, 1, 0, 4, 0], [1001, 0, 0, 8, 1], [1001, 1, 1, 1, 1]]
    assert d.attrs["accuracy_column"] == "accuracy" and d.attrs["n_accuracy_mismatch"] == 0


def test_siedlecka_stimulus_0_1_response_1_2(tmp_path):
    # Siedlecka 2016: stimulus 0 = "not the solution", 1 = "the solution"; response 1 = "not",
    # 2 = "the solution". Raw equality would call every trial wrong; the Accuracy column agrees
    # with the harmonised codes.
    p = write(tmp_path, "Subj_idx,Stimulus,Response,Confidence,Accuracy\n"
                        "1,0,1,4,1\n1,1,2,3,1\n1,0,2,1,0\n1,1,1,2,0\n1,0,NaN,4,NaN\n")
    d = read_confidence_database(p)
    assert d.correct.tolist() == d.Accuracy.astype(int).tolist() == [1, 1, 0, 0]
    assert d.attrs["stimulus_codes"] == [0, 1] and d.attrs["response_codes"] == [1, 2]
    assert d.attrs["n_accuracy_mismatch"] == 0 and d.attrs["n_missed"] == {"Response": 1}


def test_accuracy_column_disagreeing_is_counted_not_used(tmp_path):
    p = write(tmp_path, "Subj_idx,Stimulus,Response,Confidence,Correct\n"
                        "1,1,1,1,0\n1,1,2,1,0\n1,2,2,2,1\n")
    d = read_confidence_database(p)
    assert d.correct.tolist() == [1, 0, 1] and d.attrs["n_accuracy_mismatch"] == 1


def test_one_value_used_is_read_in_the_other_columns_coding(tmp_path):
    # everybody answered "2": the response column alone cannot say whether 2 is S2
    p = write(tmp_path, f"{HEADER}\n1,1,2,1\n1,2,2,2\n")
    d = read_confidence_database(p)
    assert d.response.tolist() == [1, 1] and d.correct.tolist() == [0, 1]


# --- confidence scales ------------------------------------------------------------------------

@pytest.mark.parametrize("values,K", [
    ([0.5, 0.6, 0.7, 0.8, 0.9, 1.0], 6),          # Hainguerlot: 50 % … 100 %
    ([0.5, 0.55, 0.6, 0.75, 1.0], 11),            # Lebreton: 5 % steps, some unused inside
    ([0.0, 0.1, 0.3, 0.7], 8),                     # 0.0 … 0.7
    ([0, 1, 2, 3, 4], 5),                          # from 0 (Gajdos, Paulewicz)
    ([50, 60, 100], 6),                            # 50 … 100 in tens (grid step 10)
    ([10, 20, 30, 40, 50], 5),                     # O'Hora wagers
])
def test_scales_become_1_to_K(tmp_path, values, K):
    lines = "".join(f"1,{1 + i % 2},{1 + i % 2},{v}\n" for i, v in enumerate(values))
    d = read_confidence_database(write(tmp_path, HEADER + "\n" + lines))
    assert d.attrs["n_levels"] == K
    step = (values[-1] - values[0]) / (K - 1)
    expected = [1 + round((v - values[0]) / step) for v in values]
    assert d.confidence.tolist() == expected
    assert len(d.attrs["confidence_levels"]) == K
    assert d.attrs["confidence_levels"][0] == pytest.approx(values[0])
    assert d.attrs["confidence_levels"][-1] == pytest.approx(values[-1])


def test_signed_wagers_drop_zero(tmp_path):
    # O'Hora unpub 2: a wager against one's own response is negative; no 0 on the scale
    values = [-50, -20, -10, 10, 30, 50]
    lines = "".join(f"1,{i % 2},{i % 2},{v}\n" for i, v in enumerate(values))
    d = read_confidence_database(write(tmp_path, HEADER + "\n" + lines))
    assert d.attrs["n_levels"] == 10
    assert d.confidence.tolist() == [1, 4, 5, 6, 8, 10]


def test_uneven_scale_is_ranked(tmp_path):
    lines = "".join(f"1,1,1,{v}\n" for v in (1, 2, 2.7183))
    d = read_confidence_database(write(tmp_path, HEADER + "\n" + lines))
    assert d.attrs["n_levels"] == 3 and d.confidence.tolist() == [1, 2, 3]


def test_levels_give_the_whole_scale(tmp_path):
    # nobody used the top of a 1-6 scale
    p = write(tmp_path, f"{HEADER}\n1,1,1,1\n1,2,2,3\n")
    d = read_confidence_database(p, levels=[1, 2, 3, 4, 5, 6])
    assert d.attrs["n_levels"] == 6 and d.confidence.tolist() == [1, 3]
    with pytest.raises(ValueError, match=r"not among the given levels"):
        read_confidence_database(p, levels=[1, 2])
    with pytest.raises(ValueError, match=r"distinct"):
        read_confidence_database(p, levels=[1, 1, 3])
    # a scale given high to low is refused, not silently re-sorted
    with pytest.raises(ValueError, match=r"levels must be distinct and in increasing order "
                                         r".*got \[6.0, 5.0, 4.0, 3.0, 2.0, 1.0\]"):
        read_confidence_database(p, levels=[6, 5, 4, 3, 2, 1])


# --- missed trials, participants, file quirks --------------------------------------------------

def test_missed_trials_are_dropped_and_counted(tmp_path):
    p = write(tmp_path, HEADER + "\n"
              "1,1,1,1\n"
              "1,1,NaN,2\n"        # no response
              "1,1,Nan,2\n"        # Siedlecka unpub's spelling
              "1,1,TIMEOUT,2\n"    # O'Hora's marker
              "1,,2,2\n"           # no stimulus (Siedlecka 2019)
              "1,2,2,\n"           # confidence not asked (Maniscalco 2017 Expts 3-4)
              "1,2,2,NA\n"
              ",2,2,2\n"           # no participant
              "1,2,2,2\n")
    d = read_confidence_database(p)
    assert len(d) == 2 and d.attrs["n_rows"] == 9
    assert d.attrs["n_missed"] == {"Subj_idx": 1, "Stimulus": 1, "Response": 3, "Confidence": 2}
    assert d.trial.tolist() == [0, 1]


def test_string_and_float_participants(tmp_path):
    p = write(tmp_path, f"{HEADER}\nah,1,1,1\nah,2,1,2\nb c,2,2,2\n")
    d = read_confidence_database(p)
    assert d.participant.tolist() == ["ah", "ah", "b c"] and d.trial.tolist() == [0, 1, 0]
    p = write(tmp_path, f"{HEADER}\n1.0,1.0,2.0,2.0\n2.0,2.0,2.0,1.0\n", name="data_F.csv")
    d = read_confidence_database(p)
    assert d.participant.tolist() == [1, 2] and d.participant.dtype.kind == "i"


def test_bom_quotes_index_column_and_trailing_comma(tmp_path):
    text = ('\ufeff"","Subj_idx","Stimulus","Response","Confidence","Condition",\n'
            '"1",37,2,2,3,"DS",\n"2",37,1,2,2,"PAS",\n')
    d = read_confidence_database(write(tmp_path, text, gz=True))
    assert core(d) == [[37, 1, 1, 2, 1], [37, 0, 1, 1, 0]]
    assert d.condition.tolist() == ["DS", "PAS"] and d.attrs["condition"] == "Condition"
    assert not any(c.startswith("Unnamed") for c in d.columns)


def test_condition_column_and_other_columns_kept(tmp_path):
    p = write(tmp_path, "Subj_idx,Stimulus,Response,Confidence,RT_dec,Contrast\n"
                        "1,1,1,1,0.5,0.07\n1,2,1,2,0.7,0.09\n")
    d = read_confidence_database(p)
    assert "condition" not in d and d.attrs["condition"] is None
    assert d.RT_dec.tolist() == [0.5, 0.7]
    d = read_confidence_database(p, condition="Contrast")
    assert d.condition.tolist() == [0.07, 0.09]
    with pytest.raises(ValueError, match=r"no condition column 'Task'"):
        read_confidence_database(p, condition="Task")


def test_name_and_citation(tmp_path):
    p = write(tmp_path, f"{HEADER}\n1,1,1,1\n1,2,2,2\n", name="data_Doe_2020.csv", gz=True,
              readme="Contributor\r\nJ. Doe\r\n\r\nCitation\r\n--------\r\nDoe, J. (2020). "
                     "A study.\r\nJournal 1, 2.\r\n\r\nStimulus\r\n...")
    d = read_confidence_database(p)
    assert d.attrs["name"] == "Doe_2020"
    assert d.attrs["citation"] == "Doe, J. (2020). A study. Journal 1, 2."


@pytest.mark.parametrize("readme,expected", [
    (b"Citation: Roe, R. (2019). Title. J 3.\nStimulus: x", "Roe, R. (2019). Title. J 3."),
    ("Citation:\nWierzcho\u0144, M. (2014).\n\nx".encode("cp1250"), "Wierzcho\u00f1, M. (2014)."),
    (b"Contributor: A\rCitation: * Song, C. (2011).\rStimulus", "Song, C. (2011)."),
    (b"Dataset from: N. Faivre (2018). bioRxiv.\n\nx", "N. Faivre (2018). bioRxiv."),
    (b"Contributor: A\nNothing to cite here.", ""),
])
def test_citation_from_readme(tmp_path, readme, expected):
    (tmp_path / "readme_X.txt").write_bytes(readme)
    # cp1250's "ń" is read as cp1252 "ñ": the encoding is guessed, the text kept
    assert confidence_database_citation(tmp_path / "data_X.csv.gz") == expected


def test_no_readme_no_citation(tmp_path):
    assert confidence_database_citation(tmp_path / "data_None.csv") == ""


# --- refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text,message", [
    ("Subj_idx,Stimulus,Confidence\n1,1,1\n", r"no column 'Response'"),
    ("Subj,Stimulus,Response,Confidence\n1,1,1,1\n", r"no column 'Subj_idx'"),
    (f"{HEADER}\n1,1,1,1\n1,2,2,2\n1,3,2,1\n", r"more than two stimuli: column 'Stimulus' has 3"),
    (f"{HEADER}\n1,1,1,1\n1,2,2,2\n1,2,3,1\n", r"more than two responses"),
    (f"{HEADER}\n1,1,left,1\n1,2,2,2\n", r"non-numeric values \['left'\]"),
    (f"{HEADER}\n1,1,1,3\n1,2,2,3\n", r"one confidence level"),
    (f"{HEADER}\n1,NaN,1,3\n1,2,NaN,3\n", r"no trial with"),
    # infinity is not a rating (it was an OverflowError) nor a stimulus code
    (f"{HEADER}\n1,1,1,1\n1,2,2,inf\n1,2,1,2\n", r"column 'Confidence' has infinite values"),
    (f"{HEADER}\n1,1,1,1\n1,-inf,2,2\n1,2,1,2\n", r"column 'Stimulus' has infinite values"),
    # a repeated column is ambiguous (the first one was read), also when only blanks differ
    (f"{HEADER},Confidence\n1,1,1,1,3\n1,2,2,2,1\n", r"2 columns named 'Confidence'"),
    (f"{HEADER}, Confidence \n1,1,1,1,3\n1,2,2,2,1\n", r"2 columns named 'Confidence'"),
    (f"Stimulus,{HEADER}\n1,1,1,1,3\n2,1,2,2,1\n", r"2 columns named 'Stimulus'"),
])
def test_malformed_files_are_refused(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        read_confidence_database(write(tmp_path, text))


def test_continuous_confidence_is_refused(tmp_path):
    rng = np.random.default_rng(0)
    conf = rng.uniform(0, 100, 60).round(2)
    lines = "".join(f"1,{1 + i % 2},{1 + i % 2},{c}\n" for i, c in enumerate(conf))
    with pytest.raises(ValueError, match=r"continuous confidence: column 'Confidence' has 60 "):
        read_confidence_database(write(tmp_path, HEADER + "\n" + lines))
    # a 0-100 slider in whole numbers is continuous too, even though every value is an integer
    lines = "".join(f"1,{1 + i % 2},{1 + i % 2},{i}\n" for i in range(MAX_LEVELS + 5))
    with pytest.raises(ValueError, match=r"continuous confidence"):
        read_confidence_database(write(tmp_path, HEADER + "\n" + lines, name="data_B.csv"))


def test_missing_or_unreadable_file(tmp_path):
    with pytest.raises(ValueError, match=r"no such file"):
        read_confidence_database(tmp_path / "data_nothing.csv")
    p = tmp_path / "data_empty.csv"
    p.write_text("")
    with pytest.raises(ValueError, match=r"not a readable CSV"):
        read_confidence_database(p)


# --- count tables -----------------------------------------------------------------------------

@pytest.fixture
def small(tmp_path):
    rng = np.random.default_rng(3)
    n = 400
    df = pd.DataFrame({"Subj_idx": rng.choice(["p1", "p2", "p3"], n),
                       "Stimulus": rng.choice([1, 2], n), "Response": rng.choice([1, 2], n),
                       "Confidence": rng.choice([0.5, 0.6, 0.7, 0.8], n),
                       "Condition": rng.choice(["a", "b"], n)})
    p = tmp_path / "data_Small.csv"
    df.to_csv(p, index=False)
    return read_confidence_database(p)


def test_count_tables_equal_crosstabs(small):
    K = small.attrs["n_levels"]
    assert K == 4
    t = confidence_database_tables(small, by=("participant", "condition"))
    assert t.counts.shape == (3, 2, 2, 2 * K) and t.by == ("participant", "condition")
    col = np.where(small.response == 0, K - small.confidence, K - 1 + small.confidence)
    for (p, c), g in small.assign(col=col).groupby(["participant", "condition"]):
        ct = pd.crosstab(g.stimulus, g.col).reindex(index=[0, 1], columns=range(2 * K),
                                                    fill_value=0)
        i, j = list(t.levels[0]).index(p), list(t.levels[1]).index(c)
        assert np.array_equal(t.counts[i, j], ct.to_numpy())
    assert t.counts.sum() == len(small)
    pooled = confidence_database_tables(small, by=()).counts
    assert np.array_equal(pooled, t.counts.sum(axis=(0, 1)))


def test_count_table_convention(tmp_path):
    # S1 answered S1 with the highest confidence -> column 0; S2 answered S2 highest -> last
    p = write(tmp_path, f"{HEADER}\n1,1,1,3\n1,2,2,3\n1,2,1,1\n1,1,1,2\n")
    t = confidence_database_tables(read_confidence_database(p))
    assert t.counts[0].tolist() == [[1, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 1]]


def test_count_tables_refuse_bad_frames():
    d = pd.DataFrame({"participant": [1], "stimulus": [0], "response": [2], "confidence": [1]})
    with pytest.raises(ValueError, match=r"response column"):
        confidence_database_tables(d, n_levels=2)
    with pytest.raises(ValueError, match=r"no column 'confidence'"):
        confidence_database_tables(d.drop(columns="confidence"), n_levels=2)
    with pytest.raises(ValueError, match=r"no column 'session'"):
        confidence_database_tables(d.assign(response=1), by="session", n_levels=2)
    with pytest.raises(ValueError, match=r"rating column"):
        confidence_database_tables(d.assign(response=1, confidence=3), n_levels=2)


# --- the 66 data sets of the raw copy ------------------------------------------------------------

#: Rows the raw copy's README counts as trials that the loader drops as missed: O'Hora's
#: "TIMEOUT" responses and Siedlecka unpub's one "Nan" response.
README_DIFFERENCES = {"OHora_unpub_1": 117, "OHora_unpub_2": 84, "Siedlecka_unpub": 1}


@pytest.mark.skipif(not RAW.exists(), reason="set METABITS_CONFIDENCE_DATABASE to the raw files")
def test_reads_all_66_data_sets_of_the_raw_copy():
    readme = (RAW / "README.md").read_text(encoding="utf-8")
    table = {m[0]: (int(m[1]), int(m[2]), int(m[3].replace(",", ""))) for m in
             re.findall(r"^\| (\S+) \| (\d+) \| (\d+) \| ([\d,]+) \|$", readme, re.M)}
    files = sorted(RAW.glob("data_*.csv.gz"))
    assert len(files) == len(table) == 66
    total, mismatched = 0, {}
    for f in files:
        d = read_confidence_database(f)
        name = d.attrs["name"]
        K, n_people, n_trials = table[name]
        assert d.attrs["n_levels"] == K, name
        assert d.participant.nunique() == n_people, name
        assert len(d) == n_trials - README_DIFFERENCES.get(name, 0), name
        assert set(d.stimulus) == set(d.response) == {0, 1}, name
        assert d.confidence.between(1, K).all(), name
        t = confidence_database_tables(d)
        assert t.counts.shape == (n_people, 2, 2 * K) and t.counts.sum() == len(d), name
        if d.attrs["n_accuracy_mismatch"]:
            mismatched[name] = d.attrs["n_accuracy_mismatch"]
        total += len(d)
    assert total == 1_357_743 - sum(README_DIFFERENCES.values())
    assert mismatched == {"Sherman_2016_JN": 129, "Ye_2018": 61}


@pytest.mark.skipif(not RAW.exists(), reason="set METABITS_CONFIDENCE_DATABASE to the raw files")
def test_the_traps_of_the_raw_copy():
    d = read_confidence_database(RAW / "data_Siedlecka_2016.csv.gz")
    assert d.attrs["stimulus_codes"] == [0, 1] and d.attrs["response_codes"] == [1, 2]
    assert (d.correct == d.Accuracy).all()
    d = read_confidence_database(RAW / "data_Lebreton_2018.csv.gz")
    assert d.attrs["stimulus_codes"] == [-1, 1] and (d.correct == d.accuracy).all()
    assert d.attrs["confidence_levels"][:2] == [0.5, 0.55]
    d = read_confidence_database(RAW / "data_Maniscalco_2017_expt3.csv.gz")
    assert d.attrs["n_rows"] - len(d) == 21000 - 15393
    assert d.attrs["citation"].startswith("Maniscalco, B., McCurdy")
    d = read_confidence_database(RAW / "data_Jachs_2015_Exp1.csv.gz")
    assert pd.api.types.is_string_dtype(d.participant) and "ah" in set(d.participant)
