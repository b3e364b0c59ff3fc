"""Bootstrap intervals of every person of the Confidence Database, shipped for the explorer.

The B = 200 bootstrap of all 4,323 people
(:func:`~metabits_book.studies.database_measures.database_bootstrap`) fits meta-d′ to some
870,000 resampled tables, too much for a page that is rebuilt with the book.
:func:`people_intervals` computes it one data set at a time,
each with its own seeded generator (``numpy.random.default_rng([seed, i])`` for the data set of
index ``i``), so that any data set can be recomputed alone and equals its rows of the whole run;
:func:`write_intervals` writes the result into the package's ``data`` folder, rounded to
thousandths, and :func:`shipped_intervals` reads it back. The tests recompute some data sets
and compare them with the shipped file (the rule that regenerates it is code the tests run).

References
----------
Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325 (the database); Efron & Tibshirani
(1993) (the percentile bootstrap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_choice, as_int, as_size
from metabits_book._arguments import as_instance

__all__ = ["INTERVAL_MEASURES", "SHIPPED_INTERVALS", "PeopleIntervals", "people_intervals",
           "shipped_intervals", "write_intervals"]

#: The measures whose intervals are shipped (with the accuracy, which has none).
INTERVAL_MEASURES = ("auroc2", "meta_d", "m_ratio", "meta_I", "meta_I2r", "RMI", "oskr")
#: The shipped file in ``metabits_book/data``.
SHIPPED_INTERVALS = "confidence_database_intervals.npz"
#: Replicates and seed of the shipped file.
SHIPPED_BOOT, SHIPPED_SEED = 200, 2025
_SCALE = 1000           # thousandths
_MISSING = np.iinfo(np.int32).min


@dataclass(frozen=True)
class PeopleIntervals(Result):
    """Bootstrap intervals of every person (:func:`people_intervals`, :func:`shipped_intervals`).

    Attributes
    ----------
    names : tuple of str
        The measures (:data:`INTERVAL_MEASURES`).
    dataset : ndarray of int, shape (P,)
        Index of each person's data set in ``db.names``.
    acc : ndarray, shape (P,)
        Accuracy of each person.
    estimate, lower, upper : ndarray, shape (P, len(names))
        Plug-in value and 95% percentile interval; NaN where undefined.
    n_boot, seed : int
        Replicates per person and the seed of the generators.
    """

    names: tuple
    dataset: np.ndarray
    acc: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    n_boot: int
    seed: int

    def measure(self, name: str):
        """``(estimate, lower, upper)`` of one measure, each of shape (P,)."""
        j = self.names.index(as_choice(name, self.names, "measure"))
        return self.estimate[:, j], self.lower[:, j], self.upper[:, j]


def people_intervals(db, sets=None, n_boot: int = SHIPPED_BOOT,
                     seed: int = SHIPPED_SEED) -> PeopleIntervals:
    """B bootstrap intervals of :data:`INTERVAL_MEASURES` for the people of some data sets.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    sets : sequence of str, optional
        Data sets (names in ``db.names``); default all.
    n_boot : int, default 200
        Replicates per person.
    seed : int, default 2025
        Data set ``i`` is resampled by ``numpy.random.default_rng([seed, i])``.

    Returns
    -------
    PeopleIntervals
        The people of ``sets`` in the order of the copy.

    Raises
    ------
    ValueError
        For a ``db`` that is not a ConfidenceDatabase, an unknown data set, an ``n_boot`` < 2 or
        a ``seed`` that is not an integer >= 0.

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> r = people_intervals(confidence_database(), ["Clark_2018"], n_boot=50)
    >>> est, lo, hi = r.measure("auroc2")
    >>> len(est), bool(np.all((lo <= est) & (est <= hi)))
    (4, True)
    """
    from metabits_book.studies.database_copy import ConfidenceDatabase
    from metabits_book.studies.database_measures import database_bootstrap

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    if sets is None:
        sets = db.names
    if not isinstance(sets, (tuple, list, np.ndarray)) or not len(sets):
        raise ValueError(f"sets must be a non-empty sequence of data set names; got {sets!r}")
    idx = sorted(db.names.index(as_choice(s, db.names, "sets entry (a data set)")) for s in sets)
    B = as_size(n_boot, "n_boot", least=2)
    seed = as_int(seed, "seed", least=0)
    tables = db.tables()
    people = np.flatnonzero(np.isin(db.dataset, idx))
    P, M = len(people), len(INTERVAL_MEASURES)
    est, lo, hi = (np.full((P, M), np.nan) for _ in range(3))
    acc = np.full(P, np.nan)
    for i in idx:
        rows = np.flatnonzero(db.dataset[people] == i)
        mine = people[rows]
        b = database_bootstrap(tables[mine], db.n_levels[mine], n_boot=B,
                               rng=np.random.default_rng([seed, i]))
        cols = [b.names.index(k) for k in INTERVAL_MEASURES]
        est[rows], lo[rows], hi[rows] = (b.estimate[:, cols], b.lower[:, cols],
                                         b.upper[:, cols])
        acc[rows] = b.value("acc")
    return PeopleIntervals(names=INTERVAL_MEASURES, dataset=db.dataset[people], acc=acc,
                           estimate=est, lower=lo, upper=hi, n_boot=B, seed=seed)


def _code(x):
    x = np.asarray(x, float)
    out = np.full(x.shape, _MISSING, dtype=np.int32)
    ok = np.isfinite(x)
    out[ok] = np.clip(np.round(x[ok] * _SCALE), -2**31 + 1, 2**31 - 1).astype(np.int32)
    return out


def _decode(x):
    x = np.asarray(x)
    return np.where(x == _MISSING, np.nan, x / _SCALE)


def rounded(r: PeopleIntervals) -> PeopleIntervals:
    """``r`` rounded to thousandths, as the shipped file holds it."""
    as_instance(r, PeopleIntervals, "r", "people_intervals()")
    return PeopleIntervals(names=r.names, dataset=r.dataset, acc=_decode(_code(r.acc)),
                           estimate=_decode(_code(r.estimate)), lower=_decode(_code(r.lower)),
                           upper=_decode(_code(r.upper)), n_boot=r.n_boot, seed=r.seed)


def write_intervals(db, path, n_boot: int = SHIPPED_BOOT, seed: int = SHIPPED_SEED) -> float:
    """Recompute :func:`people_intervals` for every person and write it to ``path`` (.npz).

    The rule behind ``metabits_book/data/confidence_database_intervals.npz`` (values in
    thousandths, as int32).

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    path : str or path-like
        The file to write.
    n_boot, seed : int
        As in :func:`people_intervals`; by default the shipped file's.

    Returns
    -------
    float
        Wall time of the bootstrap in seconds.

    Raises
    ------
    ValueError
        For a ``path`` that is a folder or lies in no existing folder (before anything is
        computed), and as :func:`people_intervals`.
    """
    import time

    from metabits_book._arguments import as_file_to_write

    path = as_file_to_write(path, "path")
    t0 = time.perf_counter()
    r = people_intervals(db, n_boot=n_boot, seed=seed)
    seconds = time.perf_counter() - t0
    np.savez_compressed(path, names=np.array(r.names), dataset=r.dataset.astype(np.int16),
                        acc=_code(r.acc), estimate=_code(r.estimate), lower=_code(r.lower),
                        upper=_code(r.upper), n_boot=r.n_boot, seed=r.seed)
    return seconds


def shipped_intervals() -> PeopleIntervals:
    """The shipped B = 200 bootstrap intervals of every person (:func:`write_intervals`).

    Examples
    --------
    >>> r = shipped_intervals()
    >>> r.estimate.shape, r.n_boot
    ((4323, 7), 200)
    """
    from importlib.resources import files

    with files("metabits_book").joinpath("data", SHIPPED_INTERVALS).open("rb") as f:
        a = dict(np.load(f))
    return PeopleIntervals(names=tuple(str(n) for n in a["names"]),
                           dataset=a["dataset"].astype(np.int64), acc=_decode(a["acc"]),
                           estimate=_decode(a["estimate"]), lower=_decode(a["lower"]),
                           upper=_decode(a["upper"]), n_boot=int(a["n_boot"]),
                           seed=int(a["seed"]))
