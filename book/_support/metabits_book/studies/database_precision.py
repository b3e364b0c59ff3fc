"""Precision and test–retest reliability of the measures on the Confidence Database copy.

Rahnev (2025) assesses two more properties of a measure of metacognition than
:mod:`metabits_book.studies.database_criteria` computes:

* **Precision** — how well a measure picks up a true change of metacognition rather than noise.
  :func:`precision` makes the change: on a random ``fraction`` of each person's trials the
  confidence rating is replaced by a level drawn uniformly from the scale
  (:func:`corrupted_tables`, with :func:`metabits.reliability.redraw_confidence` on each
  person's trials; the Type 1 response is kept, so accuracy and d′ do not move),
  which lowers metacognition by a known manipulation. A measure's precision in a data set is
  the Cohen's d of the paired drop (original − corrupted) across its people; larger d means
  the same loss stands out further from the measure's noise. The manipulation and the
  statistic are the book's own choice, in the spirit of Rahnev's (a known loss of
  metacognition set against a measure's noise); its values are compared with his in ranking,
  not in size.
* **Test–retest reliability** — the same people tested again on another day.
  :func:`test_retest` computes a measure on each session of the data sets with sessions
  (:data:`~metabits_book.studies.database_copy.SESSIONS`: Bang et al., 2019, seven days;
  :data:`~metabits_book.studies.database_copy.SAME_PERSON`: Lebreton et al., 2018, two tasks)
  and the intraclass correlation ICC(3,1) between consecutive sessions
  (:func:`metabits.reliability.icc`).

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0; Shrout & Fleiss
(1979), *Psychological Bulletin* 86, 420–428 (ICC); Bang, Shekhar & Rahnev (2019), *Journal of
Experimental Psychology: General* 148, 437–452 (the sessions).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.reliability import icc, paired_cohens_d, redraw_confidence
from metabits.results import Result
from metabits.validation import as_int, as_probability, as_rng, as_scalar, as_size
from metabits_book._arguments import as_instance
from metabits_book.studies.database_criteria import _mean_over_sets, _measure_names, _measures
from metabits_book.studies.database_measures import METACOGNITION

__all__ = ["Precision", "TestRetest", "corrupted_tables", "precision", "test_retest"]


def _database(db):
    from metabits_book.studies.database_copy import ConfidenceDatabase

    return as_instance(db, ConfidenceDatabase, "db", "confidence_database()")


def corrupted_tables(db, fraction: float, rng=None, first=None) -> np.ndarray:
    """Every person's table after replacing the confidence of a random share of trials.

    Each trial is chosen with probability ``fraction``; a chosen trial's confidence becomes a
    level drawn uniformly from 1 … K (possibly the same), its stimulus and response unchanged
    (:func:`metabits.reliability.redraw_confidence`).

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    fraction : float
        Probability that a trial's confidence is redrawn, in [0, 1].
    rng : numpy.random.Generator or int, optional
        A generator draws every trial from one stream. A seed gives each data set its own
        generator, seeded by the seed and the data set's name, so that a data set's tables do
        not depend on the other data sets of the copy (a copy cut to some data sets gives
        them the same tables).
    first : int, optional
        Only each person's first ``first`` trials (as :meth:`ConfidenceDatabase.tables`).

    Returns
    -------
    ndarray of int, shape (P, 2, 22)
        Padded tables as :meth:`ConfidenceDatabase.tables`.

    Raises
    ------
    ValueError
        For a ``db`` that is not a ConfidenceDatabase, a ``fraction`` outside [0, 1], a bad
        ``rng`` or a ``first`` that is not a positive integer.

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> db = confidence_database()
    >>> bool(np.array_equal(corrupted_tables(db, 0.0, rng=1), db.tables()))
    True
    >>> t = corrupted_tables(db, 1.0, rng=1)   # confidence all random: rows keep their totals
    >>> bool(np.array_equal(t.sum(-1), db.tables().sum(-1)))
    True
    """
    from metabits_book.studies.database_copy import SHIPPED_MAX_LEVELS

    db = _database(db)
    fraction = float(as_probability(as_scalar(fraction, "fraction"), "fraction"))
    import numbers
    import zlib

    seeded = isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_))
    gen = as_rng(rng)
    first = None if first is None else as_int(first, "first", least=1)
    M = 2 * SHIPPED_MAX_LEVELS
    P = len(db.n_trials)
    owner = np.repeat(np.arange(P), db.n_trials)
    K = db.n_levels.astype(np.int64)[owner]
    stim, col = np.divmod(db.code.astype(np.int64), M)
    resp = col >= K
    level = np.where(resp, col - K + 1, K - col)        # confidence 1 … K
    if not len(col):
        new = level
    elif seeded:  # one generator per data set
        new = np.empty_like(level)
        sets = db.dataset[owner]
        for i, name in enumerate(db.names):
            mine = sets == i
            if mine.any():
                new[mine] = redraw_confidence(
                    level[mine], K[mine], fraction,
                    np.random.default_rng([int(rng), zlib.crc32(name.encode())]))
    else:
        new = redraw_confidence(level, K, fraction, gen)
    col = np.where(resp, K + new - 1, K - new)
    keep = np.ones(len(col), dtype=bool) if first is None else db.position() < first
    flat = owner * 2 * M + stim * M + col
    return np.bincount(flat[keep], minlength=P * 2 * M).reshape(P, 2, M)


@dataclass(frozen=True)
class Precision(Result):
    """Results of :func:`precision`.

    Attributes
    ----------
    names : tuple of str
        The measures.
    by_set : ndarray, shape (len(db.names), len(names))
        Cohen's d of the paired drop per data set (NaN where fewer than ``min_people``).
    d : ndarray, shape (len(names),)
        Its mean over data sets.
    fraction : float
    n_trials : int
        Trials per person (each person's first ``n_trials``; people with fewer left out).
    n_sets : int
        Data sets averaged.
    """

    names: tuple
    by_set: np.ndarray
    d: np.ndarray
    fraction: float
    n_trials: int
    n_sets: int


def precision(db, fraction: float = 0.2, n_trials: int = 200, names=METACOGNITION, rng=None,
              min_people: int = 10) -> Precision:
    """Precision of every measure: Cohen's d of its drop when confidence is partly randomised.

    Each person with at least ``n_trials`` trials contributes the measure on their first
    ``n_trials`` trials, as recorded and after :func:`corrupted_tables`; per data set, the
    paired Cohen's d of original − corrupted across its people; averaged over the data sets
    with at least ``min_people`` such people.

    Parameters
    ----------
    db : ConfidenceDatabase
    fraction : float, default 0.2
        Share of trials whose confidence is redrawn, in (0, 1].
    n_trials : int, default 200
        Trials per person (the first ones).
    names : sequence of str, default METACOGNITION
        Measures from :data:`~metabits_book.studies.database_measures.ALL_NAMES`.
    rng : numpy.random.Generator or int, optional
    min_people : int, default 10
        At least 3.

    Returns
    -------
    Precision

    Raises
    ------
    ValueError
        For a bad ``db``, a ``fraction`` outside (0, 1], an ``n_trials`` that is not a
        positive integer, unknown ``names``, a bad ``rng`` or a ``min_people`` < 3.

    References
    ----------
    Rahnev (2025) (precision as a criterion; the manipulation here is the book's).

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> p = precision(confidence_database(), names=["auroc2"], rng=1)
    >>> bool(p.d[0] > 1)            # the drop of AUROC2 stands out clearly
    True
    """
    db = _database(db)
    fraction = float(as_probability(as_scalar(fraction, "fraction"), "fraction",
                                    low_open=True))
    n = as_size(n_trials, "n_trials", least=1)
    names = _measure_names(names)
    min_people = as_int(min_people, "min_people", least=3)
    gen = as_rng(rng)
    enough = db.n_trials >= n
    both = np.stack([db.tables(first=n), corrupted_tables(db, fraction, gen, first=n)], 1)
    est = _measures(both[enough], db.n_levels[enough], names)
    sets = db.dataset[enough]
    by_set = np.full((len(db.names), len(names)), np.nan)
    for i in np.unique(sets):
        m = sets == i
        if m.sum() < min_people:
            continue
        by_set[i] = paired_cohens_d(est[m, 1], est[m, 0])
    return Precision(names=names, by_set=by_set,
                     d=_mean_over_sets(by_set), fraction=fraction, n_trials=n,
                     n_sets=int(np.isfinite(by_set[:, 0]).sum()))


@dataclass(frozen=True)
class TestRetest(Result):
    """Results of :func:`test_retest`.

    Attributes
    ----------
    names : tuple of str
        The measures.
    dataset : str
        The data set with sessions.
    pairs : tuple of (int, int)
        The pairs of consecutive sessions (0 = first).
    by_pair : ndarray, shape (len(pairs), len(names))
        ICC(3,1) of each pair of sessions.
    icc : ndarray, shape (len(names),)
        Its mean over the pairs.
    n_people : int
        People with ``n_trials`` trials in every session.
    n_trials : int
        Trials per session (each session's first).
    """

    __test__ = False  # not a pytest test class

    names: tuple
    dataset: str
    pairs: tuple
    by_pair: np.ndarray
    icc: np.ndarray
    n_people: int
    n_trials: int


def test_retest(db, dataset: str = "Bang_2019_Exp1", n_trials: int = 400,
                names=METACOGNITION) -> TestRetest:
    """Test–retest reliability: ICC(3,1) of each measure between consecutive sessions.

    Each person's first ``n_trials`` trials of every session (people with fewer in any session
    are left out); the measure per person and session; ICC(3,1) (:func:`metabits.reliability.icc`) of each pair of
    consecutive sessions, and its mean over the pairs.

    Parameters
    ----------
    db : ConfidenceDatabase
    dataset : str, default "Bang_2019_Exp1"
        A data set of :data:`~metabits_book.studies.database_copy.SESSIONS` or
        :data:`~metabits_book.studies.database_copy.SAME_PERSON` (its people with sessions).
    n_trials : int, default 400
        Trials per session (Rahnev's test–retest figure is at 400 trials).
    names : sequence of str, default METACOGNITION
        Measures from :data:`~metabits_book.studies.database_measures.ALL_NAMES`; a value that
        is not finite (undefined, or an unbounded meta-noise) leaves its person out of the ICC
        of that measure.

    Returns
    -------
    TestRetest

    Raises
    ------
    ValueError
        For a bad ``db``, a data set without sessions, an ``n_trials`` that is not a positive
        integer or that nobody has in every session, or unknown ``names``.

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> r = test_retest(confidence_database(), names=["auroc2"])
    >>> r.n_people, len(r.pairs)
    (12, 6)
    """
    from metabits.validation import as_choice
    from metabits_book.studies.database_copy import SAME_PERSON, SESSIONS

    db = _database(db)
    with_sessions = tuple(n for n in (*SESSIONS, *SAME_PERSON) if n in db.names)
    if db.session is None or not with_sessions:
        raise ValueError("db: this copy of the database has no data set with sessions")
    name = as_choice(dataset, with_sessions, "dataset (a data set with sessions)")
    n = as_size(n_trials, "n_trials", least=1)
    names = _measure_names(names)
    owner = np.repeat(np.arange(len(db.n_trials)), db.n_trials)
    mine = (db.dataset[owner] == db.names.index(name)) & (db.session != 255)
    people = np.unique(owner[mine])  # the data set's people with sessions
    if not people.size:
        raise ValueError(f"dataset: {name} has no person with sessions in this copy")
    n_sessions = int(db.session[mine].max()) + 1
    tables = np.stack([db.tables(first=n, session=s)[people] for s in range(n_sessions)], 1)
    full = (tables.sum((-2, -1)) >= n).all(1)
    if not full.any():
        raise ValueError(f"n_trials: nobody of {name} has {n} trials in every session")
    est = _measures(tables[full], db.n_levels[people][full], names)
    est[~np.isfinite(est)] = np.nan  # an unbounded meta-noise is left out, as an undefined value
    pairs = tuple((s, s + 1) for s in range(n_sessions - 1))
    by_pair = np.array([icc(est[:, [a, b]]) for a, b in pairs]).reshape(len(pairs), len(names))
    return TestRetest(names=names, dataset=name, pairs=pairs,
                      by_pair=by_pair, icc=_mean_over_sets(by_pair), n_people=int(full.sum()),
                      n_trials=n)


test_retest.__test__ = False  # a library function, not a pytest test (when pytest is given
#                               this file to run its doctests)
