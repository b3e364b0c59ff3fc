"""All 22 measures on Rahnev's (2025) criteria, with bootstrap intervals over people.

:func:`assess` computes, on the Confidence Database copy, every criterion of Rahnev's summary
figure for every measure of :data:`~metabits_book.studies.database_measures.EVERY_MEASURE`
(his 17, Meyen et al.'s four information measures and OSKR):

* dependence on **task performance** within people (Cohen's d of the paired difference between
  each person's easiest and hardest difficulty level), and the correlation with d′ across the
  people of a data set;
* dependence on **response bias** (correlation with abs(c) across people);
* dependence on **metacognitive bias** (Cohen's d of the paired difference between removing the
  highest and removing the lowest confidence criterion, that is between confidence raised and
  lowered on the same trials, :func:`metabits.io.merge_levels`);
* **split-half reliability** (odd- against even-numbered trials) at bin sizes of 50 … 400 trials
  per half, and with all of each person's trials (``split_half_all``: the same people as at 100
  trials per half; not stepped up: :func:`metabits.reliability.spearman_brown`);
* **precision** (Cohen's d of the drop when a fifth of the ratings are redrawn at random,
  :func:`~metabits_book.studies.database_precision.corrupted_tables`);
* **test–retest reliability** (ICC(3,1) over consecutive days of Bang et al., 2019, and between
  the two tasks of Lebreton et al., 2018).

Meta-noise and meta-uncertainty are noise parameters: larger values mean less metacognition.
They are assessed as −σ (:data:`NEGATED`), so that every measure is oriented alike: it falls
when ratings are redrawn at random, and a positive dependence means more measured
metacognition. Their fits are censored: σ = 0 (a point mass at the floor) for people who rate
at least as well as the SDT observer, and unbounded for people whose ratings carry next to no
information. Pearson's r and Cohen's d leave the unbounded people out — the people with the
least metacognition, so the dropping is informative — and treat the point mass as a value.
Each criterion of :data:`INTERVALS` therefore also has a rank-based version
(``<criterion>_ranked``, :func:`_ranked_stat`) that keeps every censored person at their bound:
Spearman's ρ for the correlations and the test–retest reliability, and for the paired
differences the probit of the share of people whose value rises, Φ⁻¹(P(b > a)) (ties, two
values at the same bound among them, counting half), which is Cohen's d for normally
distributed differences. Ranks do not change under a monotone transform, so meta-noise and
meta-uncertainty, one fit on two scales (σ_m = √(exp(σ²) − 1)), get the same rank-based
values; for the measures without censoring the rank-based values are close to the others.
The ranks among the 22 and :func:`rahnev_claims` use the rank-based values for the measures
of :data:`NEGATED`.

Each statistic is computed per data set and averaged over data sets (test–retest: over pairs of
sessions), as :mod:`~metabits_book.studies.database_criteria` does for one criterion at a time;
the per-person values are computed once (the model fits of meta-noise and meta-uncertainty are
the slow part), and the people are then resampled within each data set to give each criterion a
percentile interval (recentred on the estimate: Cohen's d of resampled people is biased upward)
and each measure's rank among the 22 a percentile interval.

The book ships the result (:func:`write_assessment`; :func:`shipped_assessment`,
:func:`shipped_by_set`); the tests recompute the per-data-set values on a sample of data sets.

References
----------
Rahnev (2025), *Nature Communications* 16, doi:10.1038/s41467-025-56117-0 (the criteria and
their thresholds: 0.3 and 1 for Cohen's d, 0.5 for precision and for test–retest reliability);
Xue, Shekhar & Rahnev (2021) (criterion removal); Shrout & Fleiss (1979) (ICC).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metabits import MEASURES
from metabits.results import Result
from metabits.validation import as_int, as_size
from metabits_book._arguments import as_instance

from metabits_book.studies.database_measures import EVERY_MEASURE

__all__ = ["Assessment", "BY_SET", "CRITERIA", "FAMILIES", "INTERVALS", "N_BOOT", "SEED", "TABLE",
           "assess",
           "criteria_by_set", "rahnev_claims", "ranked_where_censored", "shipped_assessment",
           "shipped_by_set", "write_assessment"]

#: The criteria computed per data set (then averaged over data sets), in :func:`assess`'s order.
BY_SET = ("task_within", "task_across", "response_bias", "metacognitive_bias",
          "split_half_50", "split_half_100", "split_half_200", "split_half_400",
          "split_half_all", "precision")
#: Every criterion of :func:`assess`: those of :data:`BY_SET` and test–retest reliability over
#: days (Bang 2019) and over tasks (Lebreton 2018).
CRITERIA = BY_SET + ("test_retest", "test_retest_tasks")
#: The criteria of Rahnev's summary figure, each with the direction that is better: a smaller
#: absolute value (a dependence) or a larger value (precision, reliability). Split-half at his
#: bin size of 100 trials, test–retest at 400 trials per day.
TABLE = {"task_within": "smaller", "response_bias": "smaller", "metacognitive_bias": "smaller",
         "split_half_100": "larger", "precision": "larger", "test_retest": "larger"}
#: The criteria with bootstrap intervals and rank-based versions: those of :data:`TABLE` and the
#: split-half reliability with all trials (a claim of :func:`rahnev_claims`).
INTERVALS = (*TABLE, "split_half_all")
#: The seed of the precision's redrawn ratings and of the bootstrap, and the resamples.
SEED = 2025
N_BOOT = 1000
#: The trials of the precision (each person's first 200, a fifth of them redrawn) and of the
#: test–retest reliability (per day; per task in Lebreton 2018: each task's 108).
PRECISION_TRIALS, PRECISION_FRACTION = 200, 0.2
RETEST_TRIALS, TASKS_TRIALS = 400, 108
#: Fewest people of a data set for a correlation (a paired d needs three).
MIN_PEOPLE = 10
#: The measures whose larger values mean less metacognition (noise parameters, σ): assessed as
#: −σ, so that every measure falls when metacognition is lost (precision, validity) and the
#: signs of the dependences compare across measures.
NEGATED = ("meta_noise", "meta_uncertainty")

_SHIPPED = "confidence_database_assessment.csv"
_SHIPPED_BY_SET = "confidence_database_assessment_by_set.csv"


# --- the per-person values -----------------------------------------------------------------

def _signs(names):
    """−1 for the measures of :data:`NEGATED`, 1 for the others."""
    return np.array([-1.0 if k in NEGATED else 1.0 for k in names])


def _measures(tables, n_levels, names):
    """:func:`~metabits_book.studies.database_criteria._measures`, those of :data:`NEGATED`
    negated (d′ and c are not among them)."""
    from metabits_book.studies.database_criteria import _measures as measures

    if not len(tables):  # nobody with enough trials (a small copy)
        return np.zeros(np.shape(tables)[:-2] + (len(names),))
    est = measures(tables, n_levels, names)
    return est * _signs(names)


def _samples(db, part, names, seed):
    """The per-person values of one part of the assessment (a task for a process pool).

    Returns a dict criterion -> ``(kind, a, b, groups, least)``: ``kind`` ``"d"`` (Cohen's d
    of the paired difference b − a, arrays (people, measures)) or ``"r"`` (the correlation of a
    with b across people; ``b`` (people, 1) for d′ or abs(c)), the people's data set codes, and
    the fewest people of a data set with a value (3 for a within-person d, as
    :func:`metabits.reliability.paired_cohens_d`; :data:`MIN_PEOPLE` for a
    correlation and for the precision, as
    :func:`~metabits_book.studies.database_precision.precision`).
    """
    from metabits_book.studies.database_criteria import _hardest_and_easiest
    from metabits.io import merge_levels
    from metabits_book.studies.database_precision import corrupted_tables

    sets = db.dataset
    if part == "whole":
        est = _measures(db.tables(), db.n_levels, names + ("d_prime", "c"))
        m = est[:, :-2]
        return {"task_across": ("r", m, est[:, -2:-1], sets, MIN_PEOPLE),
                "response_bias": ("r", m, np.abs(est[:, -1:]), sets, MIN_PEOPLE),
                "counts": np.stack([np.isfinite(m).sum(0), np.isinf(m).sum(0),
                                    (m == 0).sum(0)])}
    if part == "within":
        people, est = _hardest_and_easiest(db, names)
        est = est * _signs(names)
        return {"task_within": ("d", est[:, 0], est[:, 1], sets[people], 3)}
    if part == "meta":
        many = np.flatnonzero(db.n_levels >= 3)
        t = db.tables()[many]
        top, K1 = merge_levels(t, db.n_levels[many], "top")
        bottom, _ = merge_levels(t, db.n_levels[many], "bottom")
        # d of (highest criterion removed) − (lowest removed): confidence raised − lowered
        return {"metacognitive_bias": ("d", _measures(bottom, K1, names),
                                       _measures(top, K1, names), sets[many], 3)}
    if part == "precision":
        n = PRECISION_TRIALS
        enough = db.n_trials >= n
        both = np.stack([db.tables(first=n),
                         corrupted_tables(db, PRECISION_FRACTION, seed, first=n)], 1)[enough]
        est = _measures(both, db.n_levels[enough], names)
        return {"precision": ("d", est[:, 1], est[:, 0], sets[enough], MIN_PEOPLE)}
    # split-half: a bin size, or "all" (all trials in odd and even halves)
    n = 1 if part == "all" else part
    first = None if part == "all" else 2 * n
    enough = db.n_trials >= (200 if part == "all" else 2 * n)
    both = np.stack([db.tables(half="odd", first=first), db.tables(half="even", first=first)],
                    1)[enough]
    est = _measures(both, db.n_levels[enough], names)
    return {f"split_half_{part}": ("r", est[:, 0], est[:, 1], sets[enough], MIN_PEOPLE)}


#: The parts of the per-person values, the slowest first (for a process pool).
_PARTS = ("whole", 50, 100, "all", 200, "precision", "meta", 400, "within")


# --- the statistics, vectorised over resamples ------------------------------------------------

def _stat(kind, a, b, least):
    """Cohen's d of b − a, or the correlation of a and b, over axis -2 of (..., people,
    measures), people with a value that is not finite left out; NaN with fewer than ``least``
    people or no variation."""
    if kind == "d":
        with np.errstate(invalid="ignore"):  # inf − inf: an unbounded σ twice
            x = b - a
        ok = np.isfinite(x)
        n = ok.sum(-2)
        x = np.where(ok, x, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = x.sum(-2) / n
            var = (np.where(ok, x - mean[..., None, :], 0.0) ** 2).sum(-2) / (n - 1)
            out = mean / np.sqrt(var)
        return np.where((n >= least) & (var > 0), out, np.nan)
    b = np.broadcast_to(b, a.shape)
    ok = np.isfinite(a) & np.isfinite(b)
    n = ok.sum(-2)
    a, b = np.where(ok, a, 0.0), np.where(ok, b, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ma, mb = a.sum(-2) / n, b.sum(-2) / n
        da = np.where(ok, a - ma[..., None, :], 0.0)
        db_ = np.where(ok, b - mb[..., None, :], 0.0)
        saa, sbb = (da ** 2).sum(-2), (db_ ** 2).sum(-2)
        r = (da * db_).sum(-2) / np.sqrt(saa * sbb)
    # a constant column (no variation: float rounding leaves ~1e-30, not 0) gives NaN
    flat = (saa <= 1e-24 * np.maximum(1.0, (a ** 2).sum(-2))) | \
           (sbb <= 1e-24 * np.maximum(1.0, (b ** 2).sum(-2)))
    return np.where((n >= least) & ~flat, np.clip(r, -1, 1), np.nan)


def _ranked_stat(kind, a, b, least):
    """The rank-based version of :func:`_stat`, which keeps unbounded values (±inf) at their
    bound and leaves out only undefined ones (NaN): Spearman's ρ of a and b (kind ``"r"``), or
    (kind ``"d"``) Φ⁻¹ of the share of people with b > a, ties (two values at the same bound
    among them) counting half, the share kept within [1/(2n), 1 − 1/(2n)]; for normally
    distributed differences b − a this is Cohen's d. NaN with fewer than ``least`` people."""
    from scipy.special import ndtri
    from scipy.stats import rankdata

    b = np.broadcast_to(b, a.shape)
    ok = ~np.isnan(a) & ~np.isnan(b)
    if kind == "d":
        n = ok.sum(-2)
        with np.errstate(invalid="ignore", divide="ignore"):
            up = (ok & (b > a)).sum(-2)
            tie = (ok & (b == a)).sum(-2)
            share = np.clip((up + tie / 2) / n, 0.5 / n, 1 - 0.5 / n)
            return np.where(n >= least, ndtri(share), np.nan)
    if not a.shape[-2]:
        return np.full(a.shape[:-2] + a.shape[-1:], np.nan)
    ra = rankdata(np.where(ok, a, np.nan), axis=-2, nan_policy="omit")
    rb = rankdata(np.where(ok, b, np.nan), axis=-2, nan_policy="omit")
    return _stat("r", ra, rb, least)


def _by_set(sample, n_sets, stat=_stat):
    """A criterion's value per data set (n_sets, measures)."""
    kind, a, b, groups, least = sample
    out = np.full((n_sets, a.shape[-1]), np.nan)
    for i in np.unique(groups):
        m = groups == i
        out[i] = stat(kind, a[m], b[m], least)
    return out


def _boot_by_set(sample, n_sets, n_boot, gen, chunk=100, stat=_stat):
    """The criterion per data set for ``n_boot`` resamples of the people within each data set:
    (n_boot, n_sets, measures)."""
    kind, a, b, groups, least = sample
    out = np.full((n_boot, n_sets, a.shape[-1]), np.nan)
    for i in np.unique(groups):
        m = np.flatnonzero(groups == i)
        for s in range(0, n_boot, chunk):
            idx = m[gen.integers(0, len(m), (min(chunk, n_boot - s), len(m)))]
            out[s:s + chunk, i] = stat(kind, a[idx], b[idx], least)
    return out


def _censoring(sample, n_sets, names):
    """People (pairs of values for a paired criterion) of the data sets where the criterion is
    defined: ``(used, unbounded, floor)`` per measure — those with finite values (what r and d
    use), those left out for an unbounded value, and those with a value at the floor 0 of −σ
    (:data:`NEGATED` only; 0 for the other measures)."""
    kind, a, b, groups, least = sample
    measure_b = np.shape(b) == a.shape  # b a measure too (not d′ or abs(c))
    b = np.broadcast_to(b, a.shape)
    defined = np.isfinite(_by_set(sample, n_sets))  # (n_sets, measures)
    rows = defined[groups]  # (people, measures): the person's data set counts
    ok = ~np.isnan(a) & ~np.isnan(b) & rows
    finite = ok & np.isfinite(a) & np.isfinite(b)
    floor = ok & ((a == 0) | ((b == 0) if measure_b else False))
    floor = floor & (_signs(names) < 0)
    return finite.sum(0), (ok & ~finite).sum(0), floor.sum(0)


def _mean(x, axis):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(x, axis=axis)


def _retest(db, names, dataset, n_trials):
    """(people, sessions, measures) of a data set with sessions, as
    :func:`~metabits_book.studies.database_precision.test_retest` computes them."""
    owner = np.repeat(np.arange(len(db.n_trials)), db.n_trials)
    mine = (db.dataset[owner] == db.names.index(dataset)) & (db.session != 255)
    people = np.unique(owner[mine])
    if not people.size:  # a copy without the people with sessions
        return np.zeros((0, 2, len(names)))
    n_sessions = int(db.session[mine].max()) + 1
    tables = np.stack([db.tables(first=n_trials, session=s)[people] for s in range(n_sessions)],
                      1)
    full = (tables.sum((-2, -1)) >= n_trials).all(1)
    # unbounded values (±inf) kept: ICC(3,1) leaves them out, the rank-based version keeps them
    return _measures(tables[full], db.n_levels[people][full], names)


def _icc_mean(est):
    """Mean over consecutive pairs of sessions of ICC(3,1), per measure (values that are not
    finite left out)."""
    from metabits.reliability import icc

    est = np.where(np.isfinite(est), est, np.nan)
    pairs = [(s, s + 1) for s in range(est.shape[1] - 1)]
    if len(est) < 3:  # ICC(3,1) needs three people
        return np.full(est.shape[2], np.nan)
    return _mean(np.array([icc(est[:, [p, q]]) for p, q in pairs]).reshape(len(pairs), -1), 0)


def _rho_mean(est):
    """The rank-based test–retest reliability: the mean over consecutive pairs of sessions of
    Spearman's ρ, unbounded values kept at their bound (:func:`_ranked_stat`)."""
    if len(est) < 3:
        return np.full(est.shape[2], np.nan)
    return _mean(np.array([_ranked_stat("r", est[:, p], est[:, p + 1], 3)
                           for p in range(est.shape[1] - 1)]), 0)


def _retest_censoring(est, names):
    """:func:`_censoring` of the test–retest values, summed over consecutive pairs of sessions."""
    out = np.zeros((3, est.shape[2]), dtype=int)
    for p in range(est.shape[1] - 1):
        sample = ("d", est[:, p], est[:, p + 1], np.zeros(len(est), dtype=int), 3)
        out += np.array(_censoring(sample, 1, names))
    return out


# --- the assessment ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Assessment(Result):
    """Result of :func:`assess`.

    Attributes
    ----------
    names : tuple of str
        The measures.
    summary : pandas.DataFrame
        One row per measure: ``n_finite``, ``n_infinite`` and ``n_zero``, the people (of all
        their trials) whose value is finite, infinite (an unbounded σ) or 0 (a σ at its floor:
        no metacognitive noise); each criterion of :data:`CRITERIA` (averaged over data sets or
        pairs of sessions); for those of :data:`TABLE`, ``<criterion>_lower`` and ``_upper``
        (95% percentile bootstrap interval recentred on the estimate: people resampled within
        data sets, the interval shifted by the median of the resamples minus the estimate) and
        ``<criterion>_rank``, ``_rank_lower`` and ``_rank_upper`` (the measure's rank among
        ``names``, 1 the best, and its 95% interval over the same resamples; for the measures
        of :data:`NEGATED` from their rank-based values); for those of :data:`INTERVALS`,
        ``split_half_all_lower`` and ``_upper`` too, ``<criterion>_ranked`` with
        ``_ranked_lower`` and ``_ranked_upper`` (the rank-based version, :func:`_ranked_stat`,
        and its interval from resamples of its own), and ``<criterion>_n_used``,
        ``_n_unbounded``, ``_n_floor`` (people, or pairs of values, of the data sets with a
        value: finite, left out as unbounded, at the floor σ = 0).
    by_set : pandas.DataFrame
        One row per criterion of :data:`BY_SET` and data set (columns ``criterion``,
        ``dataset``, then one per measure); data sets without a value are left out.
    n_boot : int
    """

    names: tuple
    summary: object
    by_set: object
    n_boot: int

    def to_frame(self):
        """:attr:`summary`."""
        return self.summary


def criteria_by_set(db, names=EVERY_MEASURE, workers: int = 1, seed: int = SEED):
    """Every criterion of :data:`BY_SET` per data set: the values :func:`assess` averages.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`, or a copy cut to some
        data sets (their values do not depend on the others).
    names : sequence of str, default :data:`~metabits_book.studies.database_measures.EVERY_MEASURE`
        Measures from :data:`~metabits_book.studies.database_measures.ALL_NAMES`.
    workers : int, default 1
        Processes computing the parts side by side (1 to 64).
    seed : int, default :data:`SEED`
        The seed of the redrawn ratings of the precision.

    Returns
    -------
    pandas.DataFrame
        As :attr:`Assessment.by_set`.

    Raises
    ------
    ValueError
        For a ``db`` that is not a ConfidenceDatabase, unknown ``names``, or a ``workers`` or
        ``seed`` out of range.
    """
    return _by_set_frame(db, *_computed(db, names, workers, seed))


def _checked(db, names, workers, seed):
    from metabits_book.studies.database_copy import ConfidenceDatabase
    from metabits_book.studies.database_criteria import _measure_names

    as_instance(db, ConfidenceDatabase, "db", "confidence_database()")
    return (_measure_names(names), as_int(workers, "workers", least=1, most=64),
            as_int(seed, "seed", least=0))


def _computed(db, names, workers, seed):
    """The checked names and the samples of every criterion of :data:`BY_SET`."""
    names, workers, seed = _checked(db, names, workers, seed)
    if workers == 1:
        parts = [_samples(db, part, names, seed) for part in _PARTS]
    else:
        from concurrent.futures import ProcessPoolExecutor

        k = len(_PARTS)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_samples, [db] * k, _PARTS, [names] * k, [seed] * k))
    samples = {}
    for p in parts:
        samples.update(p)
    return names, {c: samples[c] for c in (*BY_SET, "counts")}


def _by_set_frame(db, names, samples):
    import pandas as pd

    rows = []
    for c in BY_SET:
        values = _by_set(samples[c], len(db.names))
        for i in np.flatnonzero(np.isfinite(values).any(1)):
            rows.append({"criterion": c, "dataset": db.names[i],
                         **dict(zip(names, values[i]))})
    return pd.DataFrame(rows, columns=["criterion", "dataset", *names])


def _recentred(boot, estimate, level=0.95):
    """The percentile interval of the resamples (resamples, measures) shifted by the bootstrap's
    estimate of the bias, the median of the resamples minus the estimate. Cohen's d of resampled
    people is biased upward (the duplicates among them shrink the SD of the differences), by
    more than the spread of its average over many data sets: the plain percentile interval
    can miss the estimate, and Efron's bias correction, which reads the bias off the share of
    resamples below the estimate, fails when that share is near 0."""
    alpha = 100 * (1 - level) / 2
    lo, mid, hi = np.nanpercentile(boot, [alpha, 50, 100 - alpha], axis=0)
    return lo - (mid - estimate), hi - (mid - estimate)


def _ranks(values, better):
    """Ranks (1 = best) along the last axis; NaN stays NaN (ranked last)."""
    key = np.abs(values) if better == "smaller" else -values
    key = np.where(np.isfinite(key), key, np.inf)
    order = key.argsort(-1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, key.shape[-1] + 1)
                      * np.ones_like(order), axis=-1)
    return np.where(np.isfinite(values), ranks, np.nan)


def assess(db, names=EVERY_MEASURE, n_boot: int = N_BOOT, workers: int = 1,
           seed: int = SEED) -> Assessment:
    """Every measure on Rahnev's (2025) criteria, with bootstrap intervals and ranks.

    Parameters
    ----------
    db : ConfidenceDatabase
        :func:`metabits_book.studies.database_copy.confidence_database`.
    names : sequence of str, default :data:`~metabits_book.studies.database_measures.EVERY_MEASURE`
        Measures from :data:`~metabits_book.studies.database_measures.ALL_NAMES`.
    n_boot : int, default :data:`N_BOOT`
        Resamples of the people (within each data set; of the people with sessions for the
        test–retest reliability).
    workers : int, default 1
        Processes computing the per-person values side by side (1 to 64).
    seed : int, default :data:`SEED`
        Seed of the redrawn ratings (precision) and of the resamples.

    Returns
    -------
    Assessment

    Raises
    ------
    ValueError
        For a ``db`` that is not a ConfidenceDatabase or lacks Bang et al. (2019) and Lebreton
        et al. (2018), unknown ``names``, an ``n_boot`` < 2, or a ``workers`` or ``seed`` out
        of range.
    """
    names, workers, seed = _checked(db, names, workers, seed)
    for name in ("Bang_2019_Exp1", "Lebreton_2018"):
        if name not in db.names:
            raise ValueError(f"db: the test–retest reliability needs {name}, which this copy "
                             f"lacks")
    B = as_size(n_boot, "n_boot", least=2)
    names, samples = _computed(db, names, workers, seed)
    samples["days"] = _retest(db, names, "Bang_2019_Exp1", RETEST_TRIALS)
    samples["tasks"] = _retest(db, names, "Lebreton_2018", TASKS_TRIALS)
    return _summarise(db, names, samples, B, seed)


def _summarise(db, names, samples, B, seed):
    """:func:`assess`'s result from the per-person values."""
    import warnings

    import pandas as pd

    gen = np.random.default_rng([seed, 1])
    n_sets = len(db.names)
    n_finite, n_infinite, n_zero = samples["counts"]
    summary = pd.DataFrame({"measure": list(names), "n_finite": n_finite,
                            "n_infinite": n_infinite, "n_zero": n_zero})
    boots = {}
    for c in BY_SET:
        summary[c] = _mean(_by_set(samples[c], n_sets), 0)
        if c in TABLE:
            boots[c] = _mean(_boot_by_set(samples[c], n_sets, B, gen), 1)
    days, tasks = samples["days"], samples["tasks"]
    summary["test_retest"] = _icc_mean(days)
    summary["test_retest_tasks"] = _icc_mean(tasks)
    boots["test_retest"] = (np.array([_icc_mean(days[gen.integers(0, len(days), len(days))])
                                      for _ in range(B)]) if len(days) >= 3
                            else np.full((B, len(names)), np.nan))
    # generators of their own, so that the intervals above do not move
    gen_all, gen_ranked = np.random.default_rng([seed, 2]), np.random.default_rng([seed, 3])
    boots["split_half_all"] = _mean(_boot_by_set(samples["split_half_all"], n_sets, B,
                                                 gen_all), 1)
    ranked, ranked_boots = {}, {}
    for c in INTERVALS:
        if c == "test_retest":
            ranked[c] = _rho_mean(days)
            ranked_boots[c] = (np.array([_rho_mean(days[gen_ranked.integers(0, len(days),
                                                                             len(days))])
                                         for _ in range(B)]) if len(days) >= 3
                               else np.full((B, len(names)), np.nan))
            counts = _retest_censoring(days, names)
        else:
            ranked[c] = _mean(_by_set(samples[c], n_sets, _ranked_stat), 0)
            ranked_boots[c] = _mean(_boot_by_set(samples[c], n_sets, B, gen_ranked,
                                                 stat=_ranked_stat), 1)
            counts = _censoring(samples[c], n_sets, names)
        for suffix, n in zip(("n_used", "n_unbounded", "n_floor"), counts):
            summary[f"{c}_{suffix}"] = n
    negated = np.isin(list(names), NEGATED)
    for c in INTERVALS:
        with warnings.catch_warnings():  # a criterion without any value (a small copy)
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = _recentred(boots[c], summary[c].to_numpy())
            r_lo, r_hi = _recentred(ranked_boots[c], ranked[c])
        summary[f"{c}_lower"], summary[f"{c}_upper"] = lo, hi
        summary[f"{c}_ranked"] = ranked[c]
        summary[f"{c}_ranked_lower"], summary[f"{c}_ranked_upper"] = r_lo, r_hi
    for c, better in TABLE.items():
        # the measures of NEGATED ranked by their rank-based values
        value = np.where(negated, ranked[c], summary[c].to_numpy())
        draws = np.where(negated, ranked_boots[c], boots[c])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            rank_draws = _ranks(draws, better)
        summary[f"{c}_rank"] = _ranks(value, better)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            summary[f"{c}_rank_lower"], summary[f"{c}_rank_upper"] = np.nanpercentile(
                rank_draws, [2.5, 97.5], axis=0)
    return Assessment(names=names, summary=summary,
                      by_set=_by_set_frame(db, names, samples), n_boot=B)


# --- Rahnev's abstract, claim by claim ---------------------------------------------------------

#: Rahnev's 17 measures by family (his Fig. 3 and 7): traditional, ratio, difference and
#: model-based (the families of :data:`metabits.MEASURES`), each in his order.
FAMILIES = {family: tuple(k for k in EVERY_MEASURE if MEASURES[k].family == family)
            for family in ("traditional", "ratio", "difference", "model-based")}
#: His thresholds (Fig. 7): Cohen's d below WEAK is a weak dependence, from STRONG on a strong
#: one; precision and test–retest reliability below GOOD are problematic.
WEAK, STRONG, GOOD = 0.3, 1.0, 0.5
#: The book's reading of words his abstract does not quantify: a correlation with abs(c) below
#: WEAK is weak; a split-half reliability from VERY_HIGH on is very high; precisions within
#: SIMILAR (a share) of the 17's median are similar.
VERY_HIGH, SIMILAR = 0.8, 0.25


def _status(lower, upper, rule, threshold):
    """Per measure: 1 where the whole interval meets the rule, -1 where none of it does, 0 where
    it holds the threshold (undecided). ``rule``: ``"above"`` (value > threshold), ``"at_least"``
    (>=), ``"below"`` (<), ``"at_most"`` (<=), ``"within"`` (abs(value) < threshold) or
    ``"band"`` (``threshold`` a pair (low, high): low <= value <= high)."""
    lo, hi = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    if rule == "above":
        yes, no = lo > threshold, hi <= threshold
    elif rule == "at_least":
        yes, no = lo >= threshold, hi < threshold
    elif rule == "below":
        yes, no = hi < threshold, lo >= threshold
    elif rule == "at_most":
        yes, no = hi <= threshold, lo > threshold
    elif rule == "within":
        yes, no = (lo > -threshold) & (hi < threshold), (lo >= threshold) | (hi <= -threshold)
    else:
        low, high = threshold
        yes, no = (lo >= low) & (hi <= high), (hi < low) | (lo > high)
    return np.where(yes, 1, np.where(no, -1, 0))


def _verdict(n_true, n, most=False):
    """The verdict of a claim on n measures of which n_true meet its rule."""
    if n_true == n or (most and n_true > n / 2):
        return "reproduced"
    return "partly reproduced" if n_true > n / 2 else "not reproduced"


def _interval_verdict(status, most=False):
    """The verdict of :func:`_verdict` when every count of measures meeting the rule that the
    intervals allow (from those meeting it with the whole interval to those plus the undecided
    ones) gives it; "undecided" when they give different verdicts."""
    n, yes, open_ = len(status), int(np.sum(status == 1)), int(np.sum(status == 0))
    verdicts = {_verdict(k, n, most) for k in range(yes, yes + open_ + 1)}
    return verdicts.pop() if len(verdicts) == 1 else "undecided"


def ranked_where_censored(summary):
    """The summary with the censored measures' criteria by their rank-based values.

    Parameters
    ----------
    summary : pandas.DataFrame
        :attr:`Assessment.summary` indexed by measure (a subset of its rows will do).

    Returns
    -------
    pandas.DataFrame
        A copy in which, for meta-noise and meta-uncertainty (:data:`NEGATED`), each criterion
        of :data:`INTERVALS` and its interval is its ``_ranked`` value: ranks keep the fits at
        σ = 0 and the unbounded ones, which r and d cannot.

    Raises
    ------
    ValueError
        For a summary that is not a DataFrame.

    Examples
    --------
    >>> s = ranked_where_censored(shipped_assessment().set_index("measure"))
    >>> bool(s.loc["meta_noise", "precision"] == s.loc["meta_noise", "precision_ranked"])
    True
    """
    import pandas as pd

    if not isinstance(summary, pd.DataFrame):
        raise ValueError(f"summary must be the assessment's summary (a DataFrame indexed by "
                         f"measure); got {type(summary).__name__} {summary!r:.80}")
    s = summary.copy()
    censored = s.index.isin(NEGATED)
    for c in INTERVALS:
        for x in ("", "_lower", "_upper"):
            if f"{c}_ranked{x}" in s:
                s.loc[censored, f"{c}{x}"] = s.loc[censored, f"{c}_ranked{x}"]
    return s


def rahnev_claims(summary):
    """Each claim of Rahnev's (2025) abstract (and of his caption on task performance) checked
    on :func:`assess`'s summary of his 17 measures, by the 95% intervals.

    A measure meets a claim's rule when its whole interval lies on the rule's side of the
    threshold, fails it when the whole interval lies on the other side, and is undecided when
    the interval holds the threshold. A claim's verdict is the one that every number of measures
    meeting the rule that the intervals allow would give (from those that meet it to those and
    the undecided ones): "reproduced" (all measures meet the rule, or more than half for a claim
    about most of them), "partly reproduced" (more than half), "not reproduced"; "undecided"
    where the intervals allow two verdicts. The measures of :data:`NEGATED` enter with their
    rank-based values (``<criterion>_ranked``, when the summary has them).

    Parameters
    ----------
    summary : pandas.DataFrame
        :attr:`Assessment.summary` or :func:`shipped_assessment`, with a row for each of the 17
        measures of :data:`FAMILIES`.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``claim`` (his words), ``measures``, ``rule`` (the number that
        decides it, with his thresholds :data:`WEAK`, :data:`STRONG`, :data:`GOOD` or the book's
        reading :data:`VERY_HIGH`, :data:`SIMILAR`), ``meet``, ``fail``, ``undecided`` (numbers
        of measures), ``book`` (what the data give: those numbers and the range of the values)
        and ``verdict``.

    Raises
    ------
    ValueError
        For a ``summary`` without a row for each of the 17 measures or without a criterion of
        :data:`INTERVALS` and its ``_lower`` and ``_upper`` columns.
    """
    import pandas as pd

    if not isinstance(summary, pd.DataFrame) or "measure" not in summary:
        raise ValueError(f"summary must be the DataFrame of assess() or shipped_assessment(); "
                         f"got {type(summary).__name__}")
    s = summary.set_index("measure")
    seventeen = [k for f in FAMILIES.values() for k in f]
    missing = [k for k in seventeen if k not in s.index] + \
              [f"{c}{x}" for c in INTERVALS for x in ("", "_lower", "_upper") if f"{c}{x}" not in s]
    if missing:
        raise ValueError(f"summary lacks {missing}")
    from metabits.reliability import spearman_brown

    s = ranked_where_censored(s.loc[seventeen])
    rows = []

    def add(claim, measures, rule, status, values, most=False):
        yes, no, open_ = (int(np.sum(status == v)) for v in (1, -1, 0))
        rows.append({"claim": claim, "measures": measures, "rule": rule, "meet": yes,
                     "fail": no, "undecided": open_,
                     "book": f"{yes} meet, {no} fail, {open_} undecided; "
                             f"{np.nanmin(values):.2f} to {np.nanmax(values):.2f}",
                     "verdict": _interval_verdict(status, most)})

    def column(c, keys=seventeen):
        return s.loc[keys, c], s.loc[keys, f"{c}_lower"], s.loc[keys, f"{c}_upper"]

    p, lo, hi = column("precision")
    add("all 17 measures are valid", "all 17",
        "precision above 0 (redrawn ratings lower the measure)",
        _status(lo, hi, "above", 0.0), p)
    med = float(np.median(p))
    add("most show similar levels of precision", "all 17",
        f"precision within {SIMILAR:.0%} of the 17's median",
        _status(lo, hi, "band", ((1 - SIMILAR) * med, (1 + SIMILAR) * med)), p, most=True)
    r, lo, hi = column("response_bias")
    add("only weak dependences on response bias", "all 17",
        f"abs(r) with abs(c) below {WEAK}", _status(lo, hi, "within", WEAK), r)
    d, lo, hi = column("metacognitive_bias")
    add("only weak dependences on metacognitive bias", "all 17",
        f"abs(d) below {WEAK}", _status(lo, hi, "within", WEAK), d)
    for family, sign in (("traditional", 1), ("difference", -1)):
        keys = list(FAMILIES[family])
        d, lo, hi = column("task_within", keys)
        add(f"strong {'positive' if sign > 0 else 'negative'} dependence on task performance",
            f"{family} ({len(keys)})", f"d {'at least' if sign > 0 else 'at most'} "
            f"{sign * STRONG:g}",
            _status(lo, hi, "at_least" if sign > 0 else "at_most", sign * STRONG), d)
    keys = list(FAMILIES["ratio"] + FAMILIES["model-based"])
    d, lo, hi = column("task_within", keys)
    add("ratio and model-based measures: only weak dependence on task performance",
        f"ratio and model-based ({len(keys)})", f"abs(d) below {WEAK}",
        _status(lo, hi, "within", WEAK), d)
    r, lo, hi = column("split_half_100")
    add("very high split-half reliabilities", "all 17",
        f"r at least {VERY_HIGH}, 100 trials per half", _status(lo, hi, "at_least", VERY_HIGH),
        r)
    r, lo, hi = (spearman_brown(x.to_numpy()) for x in column("split_half_all"))
    add("very high split-half reliabilities", "all 17",
        f"r at least {VERY_HIGH}, all trials, Spearman–Brown",
        _status(lo, hi, "at_least", VERY_HIGH), r)
    icc, lo, hi = column("test_retest")
    add("most have poor test–retest reliabilities", "all 17",
        f"ICC below {GOOD}, 400 trials per day", _status(lo, hi, "below", GOOD), icc, most=True)
    return pd.DataFrame(rows)


# --- the shipped files --------------------------------------------------------------------------

def write_assessment(db, folder, names=EVERY_MEASURE, n_boot: int = N_BOOT,
                     workers: int = 1) -> tuple:
    """Compute :func:`assess` on ``db`` and write the two shipped CSVs.

    The rule behind ``metabits_book/data/confidence_database_assessment.csv`` (the summary) and
    ``confidence_database_assessment_by_set.csv`` (the values per data set); the chapter reads
    them, the tests recompute the per-data-set values on a sample of data sets.

    Parameters
    ----------
    db : ConfidenceDatabase
    folder : str or path-like
        An existing folder.
    names, n_boot, workers
        As :func:`assess` (the shipped files: all 22 measures).

    Returns
    -------
    tuple of pathlib.Path
        The two files written.

    Raises
    ------
    ValueError
        For a ``folder`` that is not an existing folder (before anything is computed), and as
        :func:`assess`.
    """
    from pathlib import Path

    folder = Path(folder) if isinstance(folder, (str, Path)) else None
    if folder is None or not folder.is_dir():
        raise ValueError(f"folder must be an existing folder; got {folder!r}")
    result = assess(db, names=names, n_boot=n_boot, workers=workers)
    head = ("# Rahnev's (2025) criteria for the 22 measures on the shipped Confidence Database "
            "copy, from metabits_book.studies.database_assessment.write_assessment "
            f"(scripts/build_confidence_database.py; {result.n_boot} resamples, seed {SEED})\n")
    out = []
    for name, frame in ((_SHIPPED, result.summary), (_SHIPPED_BY_SET, result.by_set)):
        path = folder / name
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(head)
            frame.to_csv(f, index=False, float_format="%.10g", lineterminator="\n")
        out.append(path)
    return tuple(out)


def _read(name):
    import pandas as pd
    from importlib.resources import files

    with files("metabits_book").joinpath("data", name).open("r", encoding="utf-8") as f:
        return pd.read_csv(f, comment="#")


def shipped_assessment():
    """The shipped :attr:`Assessment.summary` of the 22 measures (a pandas.DataFrame).

    Examples
    --------
    >>> a = shipped_assessment()
    >>> a.measure.tolist() == list(EVERY_MEASURE), "precision_rank_upper" in a
    (True, True)
    """
    return _read(_SHIPPED)


def shipped_by_set():
    """The shipped :attr:`Assessment.by_set` (a pandas.DataFrame).

    Examples
    --------
    >>> sorted(set(shipped_by_set()["criterion"])) == sorted(BY_SET)
    True
    """
    return _read(_SHIPPED_BY_SET)
