"""The book's shipped compact copy of the Confidence Database (Rahnev et al., 2020).

:func:`build_confidence_database` reads a folder of the database's files with
:func:`metabits.io.read_confidence_database` and codes every trial as
one byte; :func:`write_confidence_database` writes that copy into the package's ``data`` folder,
and :func:`confidence_database` reads it back as a :class:`ConfidenceDatabase` (the book never
reads the raw files).

References
----------
Rahnev, Desender, Lee, et al. (2020). The Confidence Database. *Nature Human Behaviour* 4,
317–325, doi:10.1038/s41562-019-0813-1 (data: osf.io/s46pr).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from metabits.results import Result
from metabits.validation import as_choice, as_flag, as_int
from metabits_book._arguments import as_folder
from metabits.io import read_confidence_database

__all__ = ["DIFFICULTY", "SAME_PERSON", "SESSIONS", "SHIPPED_MAX_LEVELS", "ConfidenceDatabase",
           "build_confidence_database", "confidence_database", "write_confidence_database"]

#: Most confidence levels among the shipped data sets; the stride of the shipped trial codes.
SHIPPED_MAX_LEVELS = 11
#: Data sets with a difficulty manipulated within every participant: (column, True when a higher
#: value is easier). Their trials carry a difficulty level, 0 = hardest, in the shipped copy.
DIFFICULTY = {
    "Adler_2018_Expt2": ("Difficulty", False), "Adler_2018_Expt3": ("Difficulty", False),
    "Denison_2018": ("Difficulty", False), "Law_unpub": ("coh_level", True),
    "Maniscalco_2017_expt2": ("ContrastLevel", True), "OHora_2017": ("Coherence", True),
    "OHora_unpub_1": ("Coherence", True), "OHora_unpub_2": ("Coherence", True),
    "Paulewicz_unpub3": ("Difficulty", True), "Paulewicz_unpub4": ("Difficulty", True),
    "Rahnev_2013": ("Contrast", True), "vanBoxtel_2019_Expt1": ("NoiseLevel_Deg", False),
    "vanBoxtel_2019_Expt2": ("NoiseLevel_Deg", False),
}
#: Data sets whose participants were tested in several sessions on different days: the column
#: that numbers the session. Their trials carry a session index, 0 = first, in the shipped copy
#: (the only one of the 66 files with such a column).
SESSIONS = {"Bang_2019_Exp1": "Day"}
#: Data sets whose readme says that two subject numbers are one person, each mapping the later
#: number to the first. The copy keeps one participant per person, labelled with the first number,
#: whose trials under the first number are session 0 and those under the later number session 1
#: (in that order); the data set's other participants have no session (255). Lebreton et al.
#: (2018), Experiment 2: "the same subjects performed the two types of task, such that 21XX and
#: 22XX refer to the same subject" (21XX: confidence accuracy incentivised, 22XX: performance
#: accuracy incentivised; the readme gives neither the order nor the day of the two tasks).
SAME_PERSON = {"Lebreton_2018": {2200 + i: 2100 + i for i in range(1, 22)}}
#: The shipped files in ``metabits_book/data``.
SHIPPED_ARRAYS = "confidence_database.npz"
SHIPPED_SETS = "confidence_database.csv"
_SET_COLUMNS = ("name", "n_levels", "n_participants", "n_trials", "n_rows", "n_missed",
                "difficulty_column", "citation")
_NO_LEVEL = 255


def build_confidence_database(folder):
    """The compact copy of a folder of data sets: every trial as a one-byte code.

    Reads every ``data_*.csv[.gz]`` of ``folder`` with
    :func:`~metabits.io.read_confidence_database` (sorted
    by name); participants sorted within a data set, trials in file order.

    Parameters
    ----------
    folder : str or path-like
        A folder of Confidence Database files (and their readmes).

    Returns
    -------
    arrays : dict of ndarray
        ``names`` (data sets), ``dataset`` (index into ``names`` per participant),
        ``participant`` (labels as text), ``n_levels`` (K per participant), ``n_trials`` (per
        participant), ``code`` (per trial: ``stimulus * 22 + column``, the column of the count
        table, 0 … 2K − 1), ``difficulty`` (per trial: level 0 = hardest for the data sets
        of :data:`DIFFICULTY`, 255 elsewhere) and ``session`` (per trial: 0 = first session for
        the data sets of :data:`SESSIONS` and the people of :data:`SAME_PERSON`, 255
        elsewhere). A person of :data:`SAME_PERSON` is one participant.
    sets : list of dict
        One row per data set: name, K, participants, trials, rows in the file, rows dropped,
        the difficulty column used and the citation of its readme.

    Raises
    ------
    ValueError
        For a ``folder`` that is not an existing folder or has no data set files, or any file
        the loader refuses (the message names the folder and the file).
    """
    folder = as_folder(folder, "folder")
    files = sorted(folder.glob("data_*.csv*"))
    if not files:
        raise ValueError(f"no data_*.csv[.gz] files in the folder {folder}")
    out = {k: [] for k in ("dataset", "participant", "n_levels", "n_trials", "code",
                           "difficulty", "session")}
    names, sets = [], []
    for i, f in enumerate(files):
        try:
            d = read_confidence_database(f)
        except ValueError as exc:
            raise ValueError(f"folder {folder}: {exc}") from None
        name, K = d.attrs["name"], d.attrs["n_levels"]
        if K > SHIPPED_MAX_LEVELS:
            raise ValueError(f"folder {folder}: {f.name}: {K} confidence levels; the compact "
                             f"copy holds at most {SHIPPED_MAX_LEVELS}")
        names.append(name)
        part = np.zeros(len(d), dtype=np.int64)  # a person's session under SAME_PERSON
        if name in SAME_PERSON:
            later = SAME_PERSON[name]
            label = d.participant.to_numpy()
            second = np.isin(label, list(later))
            both = np.isin(label, list(later.values())) | second
            d = d.assign(participant=np.where(second, [later.get(v, v) for v in label], label))
            part = np.where(second, 1, np.where(both, 0, _NO_LEVEL))
        d["_key"] = d.participant.astype(str)
        # participants in the order of their labels (numbers numerically), trials in file order
        # (a person of SAME_PERSON: the first number's trials, then the later number's)
        order = np.unique(d.participant.to_numpy(), return_inverse=True)[1]
        d = d.assign(_order=order, _part=part).sort_values(["_order", "_part", "trial"],
                                                           kind="stable")
        conf = d.confidence.to_numpy() - 1
        col = np.where(d.response.to_numpy() == 0, K - 1 - conf, K + conf)
        out["code"].append((d.stimulus.to_numpy() * 2 * SHIPPED_MAX_LEVELS + col)
                           .astype(np.uint8))
        level = np.full(len(d), _NO_LEVEL, dtype=np.uint8)
        column = None
        if name in DIFFICULTY:
            column, easier_up = DIFFICULTY[name]
            values = np.unique(d[column].to_numpy(), return_inverse=True)[1]
            n_values = values.max() + 1
            level = (values if easier_up else n_values - 1 - values).astype(np.uint8)
        out["difficulty"].append(level)
        session = np.full(len(d), _NO_LEVEL, dtype=np.uint8)
        if name in SESSIONS:
            session = np.unique(d[SESSIONS[name]].to_numpy(), return_inverse=True)[1].astype(
                np.uint8)
        elif name in SAME_PERSON:
            session = d["_part"].to_numpy().astype(np.uint8)
        out["session"].append(session)
        keys, counts = np.unique(order, return_counts=True)
        labels = d.drop_duplicates("_order")["_key"].to_numpy()
        out["dataset"].append(np.full(len(keys), i, dtype=np.int16))
        out["participant"].append(labels.astype(str))
        out["n_levels"].append(np.full(len(keys), K, dtype=np.int8))
        out["n_trials"].append(counts.astype(np.int32))
        sets.append(dict(name=name, n_levels=K, n_participants=len(keys), n_trials=len(d),
                         n_rows=d.attrs["n_rows"],
                         n_missed=int(sum(d.attrs["n_missed"].values())),
                         difficulty_column=column or "", citation=d.attrs["citation"]))
    arrays = {k: np.concatenate(v) for k, v in out.items()}
    arrays["names"] = np.array(names)
    return arrays, sets


def write_confidence_database(folder, target):
    """Rebuild the shipped copy from the raw files: ``target``/confidence_database.{npz,csv}.

    Parameters
    ----------
    folder : str or path-like
        The raw data sets (:func:`build_confidence_database`).
    target : str or path-like
        The folder to write into (the package's ``metabits_book/data`` to update the shipped
        copy).

    Returns
    -------
    tuple of Path
        The two files written.

    Raises
    ------
    ValueError
        For a ``target`` that is not an existing folder (checked before anything is read), and
        as :func:`build_confidence_database`.
    """
    import csv

    target = as_folder(target, "target")
    arrays, sets = build_confidence_database(folder)
    npz, table = target / SHIPPED_ARRAYS, target / SHIPPED_SETS
    np.savez_compressed(npz, **arrays)
    with open(table, "w", encoding="utf-8", newline="") as f:
        f.write("# The Confidence Database (Rahnev et al., 2020, Nature Human Behaviour 4, "
                "317-325, doi:10.1038/s41562-019-0813-1), one row per data set; see "
                "confidence_database.README.md. Rebuilt by scripts/build_confidence_database.py\n")
        w = csv.DictWriter(f, fieldnames=_SET_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(sets)
    return npz, table


@dataclass(frozen=True)
class ConfidenceDatabase(Result):
    """The shipped compact copy of the Confidence Database (:func:`confidence_database`).

    Attributes
    ----------
    names : tuple of str
        The data sets, sorted.
    sets : pandas.DataFrame
        One row per data set: ``name``, ``n_levels``, ``n_participants``, ``n_trials``,
        ``n_rows``, ``n_missed``, ``difficulty_column`` and ``citation``.
    dataset : ndarray of int, shape (P,)
        Index into ``names`` of every participant.
    participant : ndarray of str, shape (P,)
        Each participant's label in its data set's file.
    n_levels : ndarray of int, shape (P,)
        K, the participant's data set's confidence levels.
    n_trials : ndarray of int, shape (P,)
        Trials of each participant.
    code : ndarray of uint8, shape (N,)
        Every trial, participants in order and trials in file order: ``stimulus * 22 +
        column`` (the column of the count table, 0 … 2K − 1).
    difficulty : ndarray of uint8, shape (N,)
        Difficulty level of each trial, 0 = hardest (255 where the data set has none).
    session : ndarray of uint8, shape (N,), or None
        Session of each trial, 0 = first (255 where the person has none: all but the data sets
        of :data:`SESSIONS` and the people of :data:`SAME_PERSON`); None for a copy made
        without sessions.
    """

    names: tuple
    sets: object
    dataset: np.ndarray
    participant: np.ndarray
    n_levels: np.ndarray
    n_trials: np.ndarray
    code: np.ndarray
    difficulty: np.ndarray
    session: object = None

    def to_frame(self):
        """One row per participant: data set, label, K and number of trials.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        return pd.DataFrame({"dataset": np.asarray(self.names, dtype=object)[self.dataset],
                             "participant": self.participant, "K": self.n_levels,
                             "n_trials": self.n_trials})

    @property
    def start(self) -> np.ndarray:
        """Index of every participant's first trial in ``code`` (shape (P,))."""
        return np.concatenate([[0], np.cumsum(self.n_trials)[:-1]]).astype(np.int64)

    def position(self) -> np.ndarray:
        """Each trial's position 0, 1, … within its participant (shape (N,))."""
        owner = np.repeat(np.arange(len(self.n_trials)), self.n_trials)
        return np.arange(len(self.code)) - self.start[owner]

    def tables(self, half=None, first=None, by_difficulty: bool = False,
               session=None) -> np.ndarray:
        """Every participant's count table, padded to 22 columns.

        Parameters
        ----------
        half : {None, "odd", "even"}
            All trials, or the odd-numbered (1st, 3rd, …) or even-numbered (2nd, 4th, …)
            trials of each participant — the halves of the split-half reliability.
        first : int, optional
            Only each participant's first ``first`` trials (before halving).
        by_difficulty : bool, default False
            One table per difficulty level (axis 1, hardest first, up to the most levels of
            any data set); participants without levels get zeros.
        session : int, optional
            Only the trials of this session (0 = first; :data:`SESSIONS`,
            :data:`SAME_PERSON`); ``first`` and
            ``half`` then count the trials of the session. Participants without sessions get
            zeros.

        Returns
        -------
        ndarray of int, shape (P, 2, 22) or (P, L, 2, 22)
            Participant ``p``'s table is ``[..., :2 * n_levels[p]]`` (library convention); the
            columns beyond are zero.

        Raises
        ------
        ValueError
            For an unknown ``half``, a ``first`` that is not a positive integer, a
            ``by_difficulty`` that is not True or False, or a ``session`` that is not an
            integer from 0 to 254 (or a copy without sessions).
        """
        M = 2 * SHIPPED_MAX_LEVELS
        P = len(self.n_trials)
        owner = np.repeat(np.arange(P), self.n_trials)
        keep = np.ones(len(self.code), dtype=bool)
        pos = self.position()
        if session is not None:
            s = as_int(session, "session", least=0, most=_NO_LEVEL - 1)
            if self.session is None:
                raise ValueError("session: this copy of the database has no sessions")
            keep &= self.session == s
            # positions counted within the session's trials of each participant
            idx = np.flatnonzero(keep)
            first_of = np.searchsorted(owner[idx], np.arange(P))
            pos = np.zeros(len(self.code), dtype=np.int64)
            pos[idx] = np.arange(len(idx)) - first_of[owner[idx]]
        by_difficulty = as_flag(by_difficulty, "by_difficulty")
        if first is not None:
            keep &= pos < as_int(first, "first", least=1)
        if half is not None:
            if half not in ("odd", "even"):
                raise ValueError(f"half must be None, 'odd' or 'even'; got {half!r}")
            keep &= (pos % 2) == (0 if half == "odd" else 1)
        code = self.code.astype(np.int64)
        if by_difficulty:
            L = int(self.difficulty[self.difficulty != _NO_LEVEL].max(initial=0)) + 1
            keep &= self.difficulty != _NO_LEVEL
            flat = (owner * L + self.difficulty) * 2 * M + code
            return np.bincount(flat[keep], minlength=P * L * 2 * M).reshape(P, L, 2, M)
        flat = owner * 2 * M + code
        return np.bincount(flat[keep], minlength=P * 2 * M).reshape(P, 2, M)

    def select(self, names):
        """The copy cut to some data sets: all their people and trials, in ``names``' order.

        Parameters
        ----------
        names : sequence of str
            Data sets of ``self.names``, each once.

        Returns
        -------
        ConfidenceDatabase

        Raises
        ------
        ValueError
            For ``names`` that are not a non-empty sequence of distinct data sets of the copy.

        Examples
        --------
        >>> db = confidence_database()
        >>> small = db.select(["Clark_2018", "Jachs_2015_Exp3"])
        >>> small.names, bool(np.array_equal(small.tables()[small.dataset == 0],
        ...                                  db.tables()[db.dataset == db.names.index("Clark_2018")]))
        (('Clark_2018', 'Jachs_2015_Exp3'), True)
        """
        if isinstance(names, str) or not isinstance(names, (tuple, list, np.ndarray)) \
                or not len(names):
            raise ValueError(f"names must be a non-empty sequence of data sets; got {names!r}")
        pick = [self.names.index(as_choice(n, self.names, "names (a data set)")) for n in names]
        if len(set(pick)) != len(pick):
            raise ValueError(f"names must name each data set once; got {list(names)!r}")
        people = np.concatenate([np.flatnonzero(self.dataset == i) for i in pick])
        first = self.start
        trial = np.concatenate([np.arange(first[p], first[p] + self.n_trials[p])
                                for p in people]) if people.size else np.zeros(0, np.int64)
        index = np.full(len(self.names), -1)
        index[pick] = np.arange(len(pick))
        sets = self.sets.set_index("name").loc[[self.names[i] for i in pick]].reset_index()
        return ConfidenceDatabase(
            names=tuple(self.names[i] for i in pick), sets=sets,
            dataset=index[self.dataset[people]], participant=self.participant[people],
            n_levels=self.n_levels[people], n_trials=self.n_trials[people],
            code=self.code[trial], difficulty=self.difficulty[trial],
            session=None if self.session is None else self.session[trial])

    def trials(self, name: str):
        """One data set's harmonised trials, rebuilt from the codes (a pandas.DataFrame).

        Columns ``participant`` (numbers where the raw file numbers them), ``trial``,
        ``stimulus``, ``response`` (0/1), ``confidence`` (1 … K), ``correct`` and ``difficulty``
        (0 = hardest; −1 where none).

        Raises
        ------
        ValueError
            For a name that is not one of ``names``.
        """
        import pandas as pd

        i = self.names.index(as_choice(name, self.names, "data set"))
        people = np.flatnonzero(self.dataset == i)
        K = int(self.n_levels[people[0]])
        lo = self.start[people[0]]
        hi = lo + int(self.n_trials[people].sum())
        code = self.code[lo:hi].astype(np.int64)
        stim, col = np.divmod(code, 2 * SHIPPED_MAX_LEVELS)
        resp = (col >= K).astype(np.int64)
        conf = np.where(resp == 1, col - K + 1, K - col)
        level = self.difficulty[lo:hi].astype(np.int64)
        labels = self.participant[people]
        if all(re.fullmatch(r"-?\d+", str(v)) for v in labels):
            labels = labels.astype(np.int64)  # numbered participants, as in the raw file
        return pd.DataFrame({
            "participant": np.repeat(labels, self.n_trials[people]),
            "trial": self.position()[lo:hi], "stimulus": stim, "response": resp,
            "confidence": conf, "correct": (stim == resp).astype(np.int64),
            "difficulty": np.where(level == _NO_LEVEL, -1, level)})


def confidence_database() -> ConfidenceDatabase:
    """The shipped compact copy of the Confidence Database: 66 data sets, 4,323 people.

    Read from the package's ``data/confidence_database.npz`` and ``.csv`` (rebuilt from the raw
    files by ``scripts/build_confidence_database.py`` with :func:`write_confidence_database`;
    source, licence and citations in ``data/confidence_database.README.md``). The book never
    reads the raw files.

    Returns
    -------
    ConfidenceDatabase

    References
    ----------
    Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325; each data set's own paper is
    in ``sets.citation``.

    Examples
    --------
    >>> db = confidence_database()
    >>> len(db.names), len(db.participant), int(db.n_trials.sum())
    (66, 4323, 1357541)
    >>> t = db.tables()
    >>> p = int(np.flatnonzero(db.dataset == db.names.index("Shekhar_2018"))[0])
    >>> t[p, :, : 2 * db.n_levels[p]].tolist()
    [[91, 77, 71, 56, 32, 23, 10, 0], [3, 5, 12, 19, 38, 74, 85, 124]]
    """
    import pandas as pd
    from importlib.resources import files

    data = files("metabits_book").joinpath("data")
    with data.joinpath(SHIPPED_ARRAYS).open("rb") as f:
        arrays = dict(np.load(f))
    with data.joinpath(SHIPPED_SETS).open("r", encoding="utf-8") as f:
        sets = pd.read_csv(f, comment=None, skiprows=1, keep_default_na=False)
    names = tuple(str(n) for n in arrays["names"])
    if tuple(sets["name"]) != names:
        raise ValueError("the shipped data set table and arrays disagree")  # damaged package
    return ConfidenceDatabase(names=names, sets=sets, dataset=arrays["dataset"],
                              participant=arrays["participant"], n_levels=arrays["n_levels"],
                              n_trials=arrays["n_trials"], code=arrays["code"],
                              difficulty=arrays["difficulty"], session=arrays.get("session"))
