"""The book's compact copy of the Confidence Database (metabits_book.studies.database_copy):
its sizes and documentation, its tables against the library's reader, the people counted once,
and (where a maintainer has the raw files, METABITS_CONFIDENCE_DATABASE) the shipped copy against
a rebuild from them. The library's reader itself is tested in tests/lib/test_confidence_database.py.
"""

import numpy as np
import pandas as pd
import pytest

from metabits.io import confidence_database_tables, read_confidence_database
from metabits_book.studies.database_copy import (DIFFICULTY, SHIPPED_MAX_LEVELS,
                                                 build_confidence_database,
                                                 confidence_database, write_confidence_database)

from conftest import DATABASE_HEADER as HEADER
from conftest import RAW_DATABASE as RAW
from conftest import write_database_file as write


@pytest.fixture(scope="module")
def db():
    return confidence_database()


def test_shipped_copy_is_compact_and_documented():
    from importlib.resources import files

    data = files("metabits_book").joinpath("data")
    size = sum(data.joinpath(f).stat().st_size if hasattr(data.joinpath(f), "stat") else
               len(data.joinpath(f).read_bytes())
               for f in ("confidence_database.npz", "confidence_database.csv"))
    assert size < 2_000_000
    note = data.joinpath("confidence_database.README.md").read_text(encoding="utf-8")
    assert "10.1038/s41562-019-0813-1" in note and "osf.io/s46pr" in note
    assert "build_confidence_database.py" in note


def test_shipped_copy_sizes(db):
    # 4,344 subject numbers in the files; Lebreton 2018's 21 people under two numbers each
    # count once (SAME_PERSON)
    assert len(db.names) == 66 and len(db.participant) == 4323
    assert int(db.n_trials.sum()) == len(db.code) == 1_357_541
    assert db.sets.n_trials.sum() == 1_357_541 and db.sets.n_participants.sum() == 4323
    assert (db.sets.citation.str.len() > 0).all()
    for i, name in enumerate(db.names):
        assert (db.n_levels[db.dataset == i] == db.sets.n_levels[i]).all()


def test_tables_halves_and_first_trials(db):
    whole, odd, even = db.tables(), db.tables(half="odd"), db.tables(half="even")
    assert np.array_equal(odd + even, whole)
    assert np.array_equal(whole.sum(axis=(1, 2)), db.n_trials)
    assert np.array_equal(odd.sum(axis=(1, 2)), (db.n_trials + 1) // 2)
    first = db.tables(first=100)
    assert np.array_equal(first.sum(axis=(1, 2)), np.minimum(db.n_trials, 100))
    # padding: nothing beyond a participant's 2K columns
    cols = np.arange(2 * SHIPPED_MAX_LEVELS)
    assert not np.any(whole * (cols >= 2 * db.n_levels[:, None, None]))
    by = db.tables(by_difficulty=True)
    has = np.isin(db.dataset, [db.names.index(n) for n in DIFFICULTY])
    assert np.array_equal(by.sum(axis=(1, 2, 3))[has], db.n_trials[has])
    assert not by[~has].any()
    with pytest.raises(ValueError, match=r"half must be"):
        db.tables(half="first")
    with pytest.raises(ValueError, match=r"first"):
        db.tables(first=0)


def test_trials_rebuilt_from_codes_give_the_same_tables(db):
    d = db.trials("Shekhar_2018")
    t = confidence_database_tables(d, n_levels=4)
    people = np.flatnonzero(db.dataset == db.names.index("Shekhar_2018"))
    assert np.array_equal(t.counts, db.tables()[people, :, :8])
    assert [str(v) for v in t.levels[0]] == list(db.participant[people])
    assert d.participant.dtype.kind == "i"
    with pytest.raises(ValueError, match=r"data set"):
        db.trials("Nobody_2020")


def test_build_from_synthetic_files(tmp_path):
    write(tmp_path, f"{HEADER},Coherence\n2,1,1,1,0.1\n2,2,1,2,0.2\n10,2,2,2,0.1\n"
                    "2,2,2,1,0.2\n", name="data_OHora_2017.csv")
    write(tmp_path, f"{HEADER}\nb,0,0,0.5\nb,1,1,1.0\na,1,0,0.75\n", name="data_A.csv")
    npz, csv_path = write_confidence_database(tmp_path, tmp_path)
    arrays = dict(np.load(npz))
    assert arrays["names"].tolist() == ["A", "OHora_2017"]
    assert arrays["participant"].tolist() == ["a", "b", "2", "10"]  # 2 before 10: numbers
    assert arrays["n_trials"].tolist() == [1, 2, 3, 1]
    # A: K = 3 (0.5, 0.75, 1.0); a: S2 answered S1 with confidence 2 -> row 1, column 1
    assert arrays["code"][0] == 22 + 1
    # OHora_2017 (difficulty: Coherence, higher easier): levels 0, 1, 1 for participant 2
    assert arrays["difficulty"].tolist() == [255, 255, 255, 0, 1, 1, 0]
    assert "A,3,2,3,3,0,," in csv_path.read_text()


def test_build_counts_the_same_person_once(tmp_path):
    """Lebreton 2018's readme: subjects 21XX and 22XX are the same people. The copy keeps one
    participant labelled 21XX, its 21XX trials (session 0) before its 22XX ones (session 1),
    whatever the order of the file's rows."""
    write(tmp_path, f"{HEADER}\n2201,1,1,0.9\n1001,1,-1,0.5\n2101,-1,-1,0.6\n2201,-1,1,0.7\n"
                    "2101,1,1,1.0\n", name="data_Lebreton_2018.csv")
    arrays, sets = build_confidence_database(tmp_path)
    assert arrays["participant"].tolist() == ["1001", "2101"]
    assert arrays["n_trials"].tolist() == [1, 4]
    assert arrays["session"].tolist() == [255, 0, 0, 1, 1]
    # K = 6 (0.5 … 1.0 in steps of 0.1); 2101's trials: its own two in file order, then 2201's
    stim, col = np.divmod(arrays["code"][1:].astype(int), 22)
    assert stim.tolist() == [0, 1, 1, 0]
    assert col.tolist() == [6 - 1 - 1, 6 + 5, 6 + 4, 6 + 2]
    assert sets[0]["n_participants"] == 2 and sets[0]["n_trials"] == 5


def test_lebreton_2018_people_once_with_two_sessions(db):
    from metabits_book.studies.database_copy import SAME_PERSON

    i = db.names.index("Lebreton_2018")
    people = np.flatnonzero(db.dataset == i)
    labels = db.participant[people].astype(int)
    assert len(people) == 104 == db.sets.n_participants[i]
    assert not np.isin(labels, list(SAME_PERSON["Lebreton_2018"])).any()   # no 22XX left
    twice = people[(labels > 2100) & (labels < 2200)]
    assert len(twice) == 21 and (db.n_trials[twice] == 216).all()
    for s in (0, 1):
        t = db.tables(session=s)
        assert (t[twice].sum((1, 2)) == 108).all()
        assert not t[np.setdiff1d(people, twice)].any()
    owner = np.repeat(np.arange(len(db.n_trials)), db.n_trials)
    # session 0 comes first in each person's trials
    first = db.position()[np.isin(owner, twice)] < 108
    assert (db.session[np.isin(owner, twice)] == np.where(first, 0, 1)).all()


@pytest.mark.skipif(not RAW.exists(), reason="set METABITS_CONFIDENCE_DATABASE to the raw files")
def test_shipped_copy_equals_the_rebuild_from_the_raw_files(db):
    arrays, sets = build_confidence_database(RAW)
    from importlib.resources import files

    with files("metabits_book").joinpath("data", "confidence_database.npz").open("rb") as f:
        shipped = dict(np.load(f))
    assert shipped.keys() == arrays.keys()
    for k in arrays:
        assert np.array_equal(shipped[k], arrays[k]), k
    rebuilt = pd.DataFrame(sets)
    pd.testing.assert_frame_equal(db.sets[list(rebuilt.columns)], rebuilt,
                                  check_dtype=False)


@pytest.mark.skipif(not RAW.exists(), reason="set METABITS_CONFIDENCE_DATABASE to the raw files")
def test_lebreton_2018_sessions_are_the_raw_subject_numbers(db):
    """Person 21XX's session 0 is the raw file's subject 21XX, session 1 its subject 22XX."""
    raw = read_confidence_database(RAW / "data_Lebreton_2018.csv.gz")
    n = raw.attrs["n_levels"]
    tables = confidence_database_tables(raw, n_levels=n)
    row = {str(v): k for k, v in enumerate(tables.levels[0])}
    people = np.flatnonzero(db.dataset == db.names.index("Lebreton_2018"))
    for p in people[np.char.startswith(db.participant[people].astype(str), "21")]:
        label = str(db.participant[p])
        for s, number in ((0, label), (1, "22" + label[2:])):
            got = db.tables(session=s)[p, :, :2 * n]
            assert np.array_equal(got, tables.counts[row[number]]), (label, s)


def test_sessions_of_bang_2019(db):
    """Bang et al. (2019) tested its people on seven days (SESSIONS): each trial carries its
    session; tables(session=s) count that day's trials, and first/half count within it."""
    from metabits_book.studies.database_copy import SESSIONS

    assert list(SESSIONS) == ["Bang_2019_Exp1"]
    people = np.flatnonzero(db.dataset == db.names.index("Bang_2019_Exp1"))
    owner = np.repeat(np.arange(len(db.n_trials)), db.n_trials)
    mine = np.isin(owner, people)
    lebreton = db.dataset[owner] == db.names.index("Lebreton_2018")   # SAME_PERSON
    assert (db.session[~mine & ~lebreton] == 255).all()
    assert set(np.unique(db.session[mine])) == set(range(7))
    days = [db.tables(session=s) for s in range(7)]
    assert np.array_equal(sum(days)[people], db.tables()[people])
    others = ~np.isin(np.arange(len(db.n_trials)), people)
    assert not days[2][others].any()   # only Bang 2019 has a third session
    # per person, the first 100 trials of day 3 are trials in file order within that day
    p = people[0]
    day = np.flatnonzero((owner == p) & (db.session == 3))[:100]
    expect = np.bincount(db.code[day].astype(np.int64), minlength=44).reshape(2, 22)
    assert np.array_equal(db.tables(session=3, first=100)[p], expect)
    odd = db.tables(session=3, first=100, half="odd")[p]
    assert odd.sum() == 50
    with pytest.raises(ValueError, match="session"):
        db.tables(session=255)
