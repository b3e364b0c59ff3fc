"""The Confidence Database explorer: one data set, one measure, every person with an interval.

:func:`people_explorer` shows, for a data set and a measure chosen from menus, each person's
value against their accuracy with a 95% bootstrap interval (B = 200, the shipped
:func:`metabits_book.studies.database_intervals.shipped_intervals`), the least-squares line through
the people, and a caption with the number of people, the correlation with accuracy and the
median interval width. The frames are the shipped numbers; nothing is resampled when the page
is built.

To keep the page light, the menus hold only the data sets where an interval per person says
something (:func:`explorer_sets`: at least ten people and a median of at least 100 trials per
person) and seven measures; values are written with two decimals (accuracy with three).
meta-d′ and the M-ratio are drawn within a fixed range (intervals cut at its ends; the caption
counts the people outside it).

References
----------
Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325 (the database); Rahnev (2025),
*Nature Communications* 16 (why a measure against accuracy matters).
"""

from __future__ import annotations

import numpy as np

from metabits_book.palette import BLUE, GREY
from metabits_book.explore.model import Explorer, Panel, Trace, View, control

__all__ = ["PEOPLE_LABELS", "explorer_sets", "people_explorer"]

#: The measures of the explorer, as the menu shows them.
PEOPLE_LABELS = {"auroc2": "AUROC2", "meta_d": "meta-d′", "m_ratio": "M-ratio",
                 "meta_I": "meta-I", "meta_I2r": "meta-I₂ʳ", "RMI": "RMI", "oskr": "OSKR"}
#: Fixed display ranges of the measures whose values can run off (intervals cut at the ends).
_RANGE = {"meta_d": (-1.0, 5.0), "m_ratio": (-1.0, 3.0)}


def explorer_sets(db, min_people: int = 10, min_trials: int = 100) -> tuple:
    """The data sets of the explorer: enough people, and enough trials per person.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    min_people : int, default 10
    min_trials : int, default 100
        Least median number of trials per person.

    Returns
    -------
    tuple of str
        Names in the order of ``db.names``.

    Raises
    ------
    ValueError
        For a ``db`` that is not a ConfidenceDatabase, or thresholds that are not integers >= 1.

    Examples
    --------
    >>> from metabits_book.studies.database_copy import confidence_database
    >>> names = explorer_sets(confidence_database())
    >>> "Shekhar_2018" in names, "Siedlecka_2016" in names   # 29 trials per person
    (True, False)
    """
    from metabits.validation import as_int
    from metabits_book._arguments import as_instance
    from metabits_book.studies.database_copy import ConfidenceDatabase

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    least_people = as_int(min_people, "min_people", least=1)
    least_trials = as_int(min_trials, "min_trials", least=1)
    out = []
    for i, name in enumerate(db.names):
        n = db.n_trials[db.dataset == i]
        if len(n) >= least_people and np.median(n) >= least_trials:
            out.append(name)
    return tuple(out)


def _r2(x):
    return np.round(np.asarray(x, float), 2)


def people_explorer(sets=None, measures=tuple(PEOPLE_LABELS), default_set=None,
                    default_measure=None) -> Explorer:
    """Choose a data set and a measure: every person's value against accuracy, with intervals.

    Parameters
    ----------
    sets : sequence of str, optional
        Data sets of the menu; default :func:`explorer_sets` of the shipped copy.
    measures : sequence of str, default all of :data:`PEOPLE_LABELS`
        Measures of the menu (keys of :data:`PEOPLE_LABELS`).
    default_set, default_measure : str, optional
        The setting shown first, one of the menus' entries (a data set name; a key of
        :data:`PEOPLE_LABELS`); by default Shekhar_2018 and RMI where the menus hold them, else
        the first entry.

    Returns
    -------
    Explorer
        Controls ``dataset`` (names) and ``measure`` (the labels of :data:`PEOPLE_LABELS`).

    Raises
    ------
    ValueError
        For an unknown data set or measure, empty menus, or a default not in its menu.

    References
    ----------
    Rahnev et al. (2020) (the data); Efron & Tibshirani (1993) (percentile intervals).

    Examples
    --------
    >>> e = people_explorer(sets=["Shekhar_2018"], measures=["auroc2"])
    >>> v = e.view()
    >>> len(v.trace("people").x), v.caption.startswith("Shekhar_2018, AUROC2: 19 people")
    (19, True)
    """
    from metabits.validation import as_choice
    from metabits_book.studies.database_copy import confidence_database
    from metabits_book.studies.database_intervals import shipped_intervals

    db = confidence_database()
    r = shipped_intervals()
    if sets is None:
        sets = explorer_sets(db)
    for name, what in ((sets, "sets"), (measures, "measures")):
        if not isinstance(name, (tuple, list, np.ndarray)) or not len(name):
            raise ValueError(f"{what} must be a non-empty sequence of names; got {name!r}")
    sets = tuple(as_choice(s, db.names, "sets entry (a data set)") for s in sets)
    measures = tuple(as_choice(m, tuple(PEOPLE_LABELS), "measures entry") for m in measures)
    for name, what in ((sets, "sets"), (measures, "measures")):
        if len(set(name)) != len(name):
            raise ValueError(f"{what} must not repeat a name; got {name!r}")
    label_of = {PEOPLE_LABELS[m]: m for m in measures}
    if default_set is None:
        default_set = "Shekhar_2018" if "Shekhar_2018" in sets else sets[0]
    if default_measure is None:
        default_measure = "RMI" if "RMI" in measures else measures[0]
    default_set = as_choice(default_set, sets, "default_set (a data set of the menu)")
    default_measure = as_choice(default_measure, measures,
                                "default_measure (a measure of the menu)")

    def draw(dataset, measure):
        key = label_of[measure]
        rows = r.dataset == db.names.index(dataset)
        acc = r.acc[rows]
        est, lo, hi = (a[rows] for a in r.measure(key))
        ok = np.isfinite(est) & np.isfinite(acc)
        n_undefined = int((~ok).sum())
        outside = 0
        if key in _RANGE:
            a, b = _RANGE[key]
            inside = (est >= a) & (est <= b)
            outside = int((ok & ~inside).sum())
            ok &= inside
            lo, hi = np.clip(lo, a, b), np.clip(hi, a, b)
        lo = np.where(np.isfinite(lo), lo, est)
        hi = np.where(np.isfinite(hi), hi, est)
        x, y, lo, hi = np.round(acc[ok], 3), _r2(est[ok]), _r2(lo[ok]), _r2(hi[ok])
        traces = [Trace("people", x, y, kind="points", color=BLUE, ylow=np.minimum(lo, y),
                        yhigh=np.maximum(hi, y))]
        n = int(ok.sum())
        if n >= 3 and np.ptp(x) > 0:
            slope, icept = np.polyfit(x, y, 1)
            ends = np.array([x.min(), x.max()])
            traces.append(Trace("least-squares line", np.round(ends, 3),
                                _r2(icept + slope * ends), color=GREY, dash="dash"))
            rho = float(np.corrcoef(x, y)[0, 1]) if np.ptp(y) > 0 else float("nan")
            trend = f"; correlation with accuracy r = {rho:.2f}"
        else:
            trend = ""
        width = float(np.median(hi - lo)) if n else float("nan")
        notes = []
        if n_undefined:
            notes.append(f"{n_undefined} undefined")
        if outside:
            notes.append(f"{outside} outside the axes")
        note = f" ({', '.join(notes)})" if notes else ""
        caption = (f"{dataset}, {measure}: {n} people{note}{trend}; median width of the 95% "
                   f"bootstrap intervals {width:.2f} (B = {r.n_boot}).")
        return View(tuple(traces), caption)

    return Explorer(
        "people-explorer", "Every person of a data set: a measure against accuracy",
        (control("dataset", "data set", sets, default=default_set),
         control("measure", "measure", tuple(label_of),
                 default=PEOPLE_LABELS[default_measure])),
        (Panel("A measure against accuracy, one point per person", "accuracy",
               "value of the measure", xrange="auto", yrange="auto"),),
        draw)
