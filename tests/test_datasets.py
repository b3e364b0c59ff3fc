"""The data shipped with the book (metabits_book.studies.datasets): the MaskOri trials of 16
people and their count tables (Hellmann, Zehetleitner & Rausch, 2023), checked against pandas'
crosstab and groupby on the trials; the copies of the data in the library's tests
(tests/lib/data) are the same trials; the loaders of Servajean & Servajean's (2026) Tables S1
and S2 give the tables as printed.
"""

import gzip
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metabits.io import count_tables
from metabits_book.studies import datasets

LIB_DATA = Path(__file__).parent / "lib" / "data"


@pytest.fixture(scope="module")
def trials():
    """The book's MaskOri trials (conftest.py's ``trials`` are the library tests' copy)."""
    return datasets.maskori_trials()


@pytest.fixture(scope="module")
def tables():
    return datasets.maskori_counts()


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


def test_the_library_tests_copies_are_the_books_data(trials):
    """tests/lib/data holds the MaskOri trials compressed (the same frame) and the Shekhar &
    Rahnev (2018) file and its description byte for byte, each cited in its README.md."""
    pd.testing.assert_frame_equal(pd.read_csv(LIB_DATA / "maskori.csv.gz"), trials)
    book = files("metabits_book").joinpath("data")
    with gzip.open(LIB_DATA / "maskori.csv.gz", "rt", encoding="utf-8") as f:
        assert f.read() == book.joinpath("maskori.csv").read_text(encoding="utf-8")
    for name in ("data_Shekhar_2018.csv.gz", "readme_Shekhar_2018.txt"):
        assert (LIB_DATA / name).read_bytes() == book.joinpath(name).read_bytes(), name
    note = (LIB_DATA / "README.md").read_text(encoding="utf-8")
    assert "10.1037/rev0000411" in note and "GNU General Public License" in note
    assert "10.1523/JNEUROSCI.3484-17.2018" in note and "10.1038/s41562-019-0813-1" in note


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


# --- Servajean & Servajean (2026), Tables S1 and S2 ---------------------------------------------

S1, S2 = datasets.servajean_table_s1(), datasets.servajean_table_s2()


def test_servajean_tables_as_printed():
    assert S1.d_prime.shape == S1.meta_d.shape == S1.m_ratio.shape == (3, 3)
    assert S2.c.shape == S2.half_width.shape == (3, 3, 3)
    row = S1.at("C", "DeepSeek-V3.2-Exp")
    assert (row.d_prime, row.meta_d, row.m_ratio) == (1.2565, 0.8866, 0.7061)
    c, hw = S2.at("C", "GPT-5")
    assert c.tolist() == [-1.4297, -0.0265, 0.7667] and hw.tolist() == [0.0644, 0.0356, 0.0465]
    assert S2.c[0, 0, 0] == -0.6304 and S2.half_width[2, 2, 2] == 0.0300
    assert S1.models == S2.models == ("GPT-5", "DeepSeek-V3.2-Exp", "Mistral-Medium-2508")


def test_servajean_data_files_carry_their_source():
    for name in ("servajean2026_table_s1.csv", "servajean2026_table_s2.csv"):
        head = files("metabits_book").joinpath("data", name).read_text().splitlines()[0]
        assert head.startswith("# Servajean & Servajean (2026)") and "2603.29693" in head


@pytest.mark.parametrize("call, match", [
    (lambda: S1.at("D", "GPT-5"), "unknown task 'D'"),
    (lambda: S1.at("A", "GPT-4"), "unknown model 'GPT-4'"),
    (lambda: S2.at("A", "gpt-5"), "unknown model"),
    (lambda: S2.at(1, "GPT-5"), "unknown task"),
])
def test_servajean_unknown_names(call, match):
    with pytest.raises(ValueError, match=match):
        call()
