"""Tables copied from the papers into the package, each with its source in the CSV header.

The book never reads the papers themselves; these files are its only copies of their data.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import NamedTuple

import numpy as np

from metabits.results import Result
from metabits_book._data import read_csv
from metabits.io import TrialCounts, count_tables
from metabits.validation import (as_choice, as_int, as_int_array, as_same_length, as_size,
                                 as_trial_values)
from metabits_book._arguments import as_column_names

__all__ = ["MASKORI_SOAS", "MASKORI_STIMULI", "maskori_counts",
           "maskori_trials", "SERVAJEAN_MODELS", "SERVAJEAN_RISKS", "SERVAJEAN_TASKS", "SERVAJEAN_VERDICTS",
           "ServajeanCriteria", "ServajeanRow", "ServajeanTableS1", "ServajeanTableS2",
           "ServajeanVerdicts", "meyen_table1", "servajean_c_verdicts", "servajean_table_s1",
           "servajean_table_s2"]


def meyen_table1() -> np.ndarray:
    """Meyen et al. (2025), Table 1: a 2 × 4 table of counts.

    Row 0 is true label −1 (S1), row 1 is +1 (S2); columns are the responses r1 … r4, from
    "S1, high confidence" to "S2, high confidence" — the layout of
    :func:`metabits.type2_measures` (and the nR_S1 / nR_S2 layout of the meta-d′ literature).

    Parameters
    ----------
    None

    Returns
    -------
    ndarray of int, shape (2, 4)
        The counts, read from the package's ``data/meyen2025_table1.csv`` (a fresh array on every
        call, so callers may change it).

    Raises
    ------
    None
        The table ships with the package; a missing or damaged data file would raise
        ``FileNotFoundError`` or ``ValueError``.

    References
    ----------
    Meyen et al. (2025), Table 1 "Example of Observed Absolute Frequencies" (a fictitious
    participant, 200 trials per true label).

    Examples
    --------
    >>> meyen_table1().tolist()
    [[84, 56, 48, 12], [4, 56, 64, 76]]
    >>> meyen_table1().sum(axis=1).tolist()
    [200, 200]
    """
    _, rows = read_csv("meyen2025_table1.csv")
    return np.array([[int(v) for v in row[1:]] for row in rows])


# --- Servajean & Servajean (2026) ----------------------------------------------------------------

#: The three LLMs of Servajean & Servajean (2026), in the order of their tables.
SERVAJEAN_MODELS = ("GPT-5", "DeepSeek-V3.2-Exp", "Mistral-Medium-2508")
#: Their three tasks: A sentiment analysis, B oral vs written, C word depletion detection.
SERVAJEAN_TASKS = ("A", "B", "C")
#: The risk configurations of the c-calibration experiments (Table S2).
SERVAJEAN_RISKS = ("S1", "None", "S2")


@dataclass(frozen=True)
class ServajeanRow(Result):
    """One task × model row of Table S1 (:meth:`ServajeanTableS1.at`); also a mapping."""

    task: str
    model: str
    d_prime: float
    meta_d: float
    m_ratio: float


class ServajeanCriteria(NamedTuple):
    """One task × model of Table S2 (:meth:`ServajeanTableS2.at`): arrays over S1, None, S2."""

    c: np.ndarray
    half_width: np.ndarray


@dataclass(frozen=True)
class ServajeanTableS1(Result):
    """Servajean & Servajean (2026), Table S1; arrays indexed ``[task, model]``.

    Attributes
    ----------
    tasks, models : the row and column names (:data:`SERVAJEAN_TASKS`, :data:`SERVAJEAN_MODELS`).
    d_prime, meta_d, m_ratio : the printed posterior means, shape (3, 3).
    """

    tasks: tuple
    models: tuple
    d_prime: np.ndarray
    meta_d: np.ndarray
    m_ratio: np.ndarray

    def at(self, task: str, model: str) -> ServajeanRow:
        """The row of one task and model.

        Raises
        ------
        ValueError
            For an unknown task or model name.
        """
        i, j = _task_model(self, task, model)
        return ServajeanRow(task, model, *(float(self[k][i, j])
                                          for k in ("d_prime", "meta_d", "m_ratio")))


@dataclass(frozen=True)
class ServajeanTableS2(Result):
    """Servajean & Servajean (2026), Table S2; arrays indexed ``[task, risk, model]``.

    Attributes
    ----------
    tasks, risks, models : the names (:data:`SERVAJEAN_TASKS`, :data:`SERVAJEAN_RISKS`,
        :data:`SERVAJEAN_MODELS`).
    c : the printed criteria, shape (3, 3, 3).
    half_width : half-widths of their 95% confidence intervals (Delta method), shape (3, 3, 3).
    """

    tasks: tuple
    risks: tuple
    models: tuple
    c: np.ndarray
    half_width: np.ndarray

    def at(self, task: str, model: str) -> ServajeanCriteria:
        """The criteria and half-widths of one task and model over the risks S1, None, S2.

        Returns
        -------
        ServajeanCriteria
            ``(c, half_width)``, each of shape (3,).

        Raises
        ------
        ValueError
            For an unknown task or model name.
        """
        i, j = _task_model(self, task, model)
        return ServajeanCriteria(self.c[i, :, j].copy(), self.half_width[i, :, j].copy())


def _task_model(table, task: str, model: str) -> tuple:
    """Indices of a task and a model name in a Servajean table (ValueError for unknown names)."""
    return (table.tasks.index(as_choice(task, table.tasks, "task")),
            table.models.index(as_choice(model, table.models, "model")))


def _grid(rows, keys, names, columns):
    """Arrays indexed by the name tuples ``names`` from CSV rows keyed by ``keys`` columns."""
    out = [np.full(tuple(len(n) for n in names), np.nan) for _ in columns]
    for row in rows:
        idx = tuple(n.index(row[k]) for k, n in zip(keys, names))
        for arr, col in zip(out, columns):
            arr[idx] = float(row[col])
    if any(np.isnan(a).any() for a in out):
        raise ValueError("incomplete table file")  # a corrupted package, not user input
    return out


def servajean_table_s1() -> ServajeanTableS1:
    """Servajean & Servajean (2026), Table S1: d′, meta-d′ and M-ratio of three LLMs × 3 tasks.

    Returns
    -------
    ServajeanTableS1
        Arrays indexed ``[task, model]``; ``.at("B", "GPT-5")`` gives one row.

    References
    ----------
    Servajean & Servajean (2026), arXiv:2603.29693, Table S1 (posterior means of HMeta-d).

    Examples
    --------
    >>> t = servajean_table_s1()
    >>> t.at("A", "GPT-5").meta_d
    2.7738
    """
    header, rows = read_csv("servajean2026_table_s1.csv")
    rows = [dict(zip(header, r)) for r in rows]
    d, m, r = _grid(rows, ("task", "model"), (SERVAJEAN_TASKS, SERVAJEAN_MODELS),
                    ("d_prime", "meta_d", "m_ratio"))
    return ServajeanTableS1(SERVAJEAN_TASKS, SERVAJEAN_MODELS, d, m, r)


def servajean_table_s2() -> ServajeanTableS2:
    """Servajean & Servajean (2026), Table S2: criterion c ± 95% CI half-width × risk.

    Returns
    -------
    ServajeanTableS2
        Arrays indexed ``[task, risk, model]``; ``.at("C", "GPT-5")`` gives one model's three
        risk configurations.

    References
    ----------
    Servajean & Servajean (2026), arXiv:2603.29693, Table S2.

    Examples
    --------
    >>> c, hw = servajean_table_s2().at("B", "Mistral-Medium-2508")
    >>> c.tolist(), hw.tolist()
    ([-0.2748, 0.1666, 0.1487], [0.0328, 0.0317, 0.0318])
    """
    header, rows = read_csv("servajean2026_table_s2.csv")
    rows = [dict(zip(header, r)) for r in rows]
    c, hw = _grid(rows, ("task", "risk", "model"),
                  (SERVAJEAN_TASKS, SERVAJEAN_RISKS, SERVAJEAN_MODELS), ("c", "ci_half_width"))
    return ServajeanTableS2(SERVAJEAN_TASKS, SERVAJEAN_RISKS, SERVAJEAN_MODELS, c, hw)


#: The verdicts the paper's text gives on differences in c (:func:`servajean_c_verdicts`).
SERVAJEAN_VERDICTS = ("practically significant", "inconclusive", "not significant")


@dataclass(frozen=True)
class ServajeanVerdicts(Result):
    """The paper's verdict on every pairwise difference of Table S2's criteria.

    Attributes
    ----------
    tasks, models : as in :class:`ServajeanTableS2`.
    pairs : the risk pairs ``(("S1", "None"), ("S1", "S2"), ("None", "S2"))``, in the order
        of :func:`metabits.sdt.compare_criteria` over S1, None, S2.
    verdict : array of str, shape (3 tasks, 3 models, 3 pairs), from
        :data:`SERVAJEAN_VERDICTS`.
    """

    tasks: tuple
    models: tuple
    pairs: tuple
    verdict: np.ndarray


def servajean_c_verdicts() -> ServajeanVerdicts:
    """The paper's verdicts on the 27 differences in c between risk configurations.

    Read off the text of the Results ("c-calibration experiments"); the data file quotes the
    sentences each verdict comes from. "Significant" without qualification means statistically
    and practically significant (the paper's convention).

    Returns
    -------
    ServajeanVerdicts

    References
    ----------
    Servajean & Servajean (2026), arXiv:2603.29693, Results.

    Examples
    --------
    >>> v = servajean_c_verdicts()
    >>> v.verdict[0, 1].tolist()  # task A, DeepSeek-V3.2-Exp
    ['inconclusive', 'practically significant', 'inconclusive']
    """
    header, rows = read_csv("servajean2026_c_verdicts.csv")
    pairs = (("S1", "None"), ("S1", "S2"), ("None", "S2"))
    out = np.full((3, 3, 3), "", dtype=object)
    for row in rows:
        r = dict(zip(header, row))
        if r["verdict"] not in SERVAJEAN_VERDICTS:
            raise ValueError(f"unknown verdict {r['verdict']!r} in the data file")
        out[SERVAJEAN_TASKS.index(r["task"]), SERVAJEAN_MODELS.index(r["model"]),
            pairs.index((r["risk_a"], r["risk_b"]))] = r["verdict"]
    if np.any(out == ""):
        raise ValueError("incomplete verdict file")
    return ServajeanVerdicts(SERVAJEAN_TASKS, SERVAJEAN_MODELS, pairs, out.astype(str))


# --- Hellmann, Zehetleitner & Rausch (2023): masked orientation discrimination ------------------

#: The five stimulus-onset asynchronies of the MaskOri data set in ms, hardest first.
MASKORI_SOAS = (8.3, 16.7, 33.3, 66.7, 133.3)
#: The two orientations of the MaskOri data set in degrees: S1 horizontal (0), S2 vertical (90).
MASKORI_STIMULI = (0, 90)


def maskori_trials():
    """The MaskOri data: 16 people × 1,620 trials of masked orientation discrimination.

    Each trial showed a horizontal (0) or vertical (90) grating, masked after one of five
    stimulus-onset asynchronies (:data:`MASKORI_SOAS`, 324 trials each per person); the person
    reported the orientation and a confidence rating from 0 (lowest) to 4 (highest).

    Returns
    -------
    pandas.DataFrame
        25,920 rows; columns ``participant`` (1–16), ``trial``, ``soa_ms``, ``stimulus`` (0 or
        90), ``response`` (0 or 90), ``correct`` (1 or 0) and ``rating`` (0–4). A fresh frame on
        every call.

    Raises
    ------
    None
        The file ships with the package; a missing or damaged file would raise
        ``FileNotFoundError`` or a pandas parser error.

    References
    ----------
    Hellmann, Zehetleitner & Rausch (2023), *Psychological Review* 130(6), 1521–1543,
    doi:10.1037/rev0000411, Experiment 1; distributed as ``MaskOri`` with the R package statConfR
    (GPL ≥ 3; source and licence in the package's ``data/maskori.README.md``).

    Examples
    --------
    >>> d = maskori_trials()
    >>> d.shape, d.participant.nunique()
    ((25920, 7), 16)
    >>> d.groupby("soa_ms").correct.mean().round(3).tolist()
    [0.503, 0.557, 0.695, 0.929, 0.996]
    """
    import pandas as pd  # imported here: slow to import

    with files("metabits_book").joinpath("data", "maskori.csv").open("r", encoding="utf-8") as f:
        return pd.read_csv(f)


def maskori_counts(by=("participant", "soa_ms")) -> TrialCounts:
    """Count tables of the MaskOri data (:func:`maskori_trials`), S1 horizontal and S2 vertical.

    Parameters
    ----------
    by : str or sequence of str, default ("participant", "soa_ms")
        Grouping columns; the default gives the 16 × 5 tables of every participant and
        stimulus-onset asynchrony, ``"soa_ms"`` the five pooled conditions, ``()`` one table.

    Returns
    -------
    TrialCounts
        As :func:`count_tables`, with K = 5 confidence levels (10 response columns).

    Raises
    ------
    ValueError
        For a grouping column the data do not have.

    References
    ----------
    Hellmann, Zehetleitner & Rausch (2023), Experiment 1.

    Examples
    --------
    >>> t = maskori_counts()
    >>> t.counts.shape, t.by
    ((16, 5, 2, 10), ('participant', 'soa_ms'))
    >>> int(t.counts.sum()), t.counts[0, 0].sum(axis=-1).tolist()
    (25920, [170, 154])
    """
    return count_tables(maskori_trials(), by=by, stimuli=MASKORI_STIMULI, n_ratings=5)
