"""The Confidence Database (Rahnev et al., 2020): one data set file into harmonised trials.

The database's data sets share four columns — ``Subj_idx``, ``Stimulus``, ``Response``,
``Confidence`` — but not their codings: stimulus and response as 0/1, 1/2 or −1/1 (Lebreton
2018 codes both −1/1; Siedlecka 2016 codes the stimulus 0/1 and the response 1/2), confidence
from 0 or from 1, on integer or fractional scales (0.5, 0.6, … 1.0; 0.0 … 1.0; 50 … 100; a
wager of 10 … 50 points, signed in O'Hora's second data set), missed responses as ``NaN``,
``Nan`` or ``TIMEOUT``, participants named by numbers or by strings.
:func:`read_confidence_database` turns any such file into one harmonised frame, and
:func:`confidence_database_tables` turns that frame into count tables in the library's
convention (:func:`metabits.io.count_tables`).

**Harmonisation.**

* *Stimulus and response* are each mapped to 0 (S1) and 1 (S2) by the order of their two
  values: the lower code is S1. This is the database's convention for every coding it uses
  (0/1, 1/2, −1/1), and it is why Siedlecka 2016's stimulus 0 ("target is not the solution")
  and response 1 ("not the solution") both become S1. Where the data set has its own accuracy
  column (``Accuracy``, ``accuracy`` or ``Correct``), the number of trials on which it disagrees
  with ``stimulus == response`` is reported (``attrs["n_accuracy_mismatch"]``). In the book's
  copy it is 0 in every data set but two, where the accuracy column, not the codes, is off:
  Sherman 2016 (129 trials of participants 4, 9 and 10) and Ye 2018 (61 trials of
  participant 13) — trials whose stimulus and response agree marked incorrect and vice versa.
  ``correct`` is always ``stimulus == response``.
* *Confidence* becomes 1 … K. The scale is the evenly spaced grid from the lowest to the
  highest value used (step: the largest one on which every value used lies — 0.05 for
  Lebreton's 0.50, 0.55, … 1.00), so a level inside the scale that nobody used keeps its
  place; a scale signed around zero without zero (O'Hora's wagers for and against the
  response, −50 … −10, 10 … 50) drops zero from the grid. A scale
  that is not evenly spaced is ranked. ``levels=`` gives the scale explicitly (e.g. when nobody
  used its top level).
* *Missed trials* — a missing stimulus, response or confidence (including trials on which
  confidence was not asked, as in Maniscalco et al.'s Experiments 3–4) or a missing participant
  — are dropped and counted (``attrs["n_missed"]``, by column).

**Refusals.** A ``ValueError`` names the problem for a file without one of the four columns
(or with one of them twice), with more than two stimuli or responses, with non-numeric or
infinite codes other than the missing-value markers, with continuous confidence (more than
:data:`MAX_LEVELS` levels), or with fewer than two confidence levels.

References
----------
Rahnev, Desender, Lee, et al. (2020). The Confidence Database. *Nature Human Behaviour* 4,
317–325, doi:10.1038/s41562-019-0813-1 (data: osf.io/s46pr). Each data set's own paper is named
in its ``readme_<name>.txt`` (:func:`confidence_database_citation`).
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np

from metabits.io._columns import MISSING_MARKERS, confidence_scale, numbers, two_codes
from metabits.validation import MAX_SIZE, as_size
from metabits.validation._scalars import as_column_names, as_path

__all__ = ["confidence_database_citation", "confidence_database_tables", "dataset_name",
           "read_confidence_database"]

#: The four columns every data set has, and their harmonised names.
_CORE = {"Subj_idx": "participant", "Stimulus": "stimulus", "Response": "response",
         "Confidence": "confidence"}
#: Accuracy columns some data sets carry (checked against stimulus == response).
_ACCURACY = ("Accuracy", "accuracy", "Correct", "correct")
#: A readme line that starts its next field ("Stimulus:", "- Confidence scale:", …).
_HEADING = re.compile(r"^[-*\s]*[A-Z][A-Za-z ()/_-]{0,40}:")


def dataset_name(path) -> str:
    """The data set's name from its file name: ``data_Shekhar_2018.csv.gz`` → ``Shekhar_2018``.

    Parameters
    ----------
    path : str or path-like
        A data set file of the Confidence Database (``data_<name>.csv`` or ``.csv.gz``), or any
        file.

    Returns
    -------
    str
        The file name without its folder, a ``.csv`` or ``.csv.gz`` ending and a leading
        ``data_``.

    Raises
    ------
    ValueError
        For a ``path`` that is not a str or path-like.

    References
    ----------
    Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325 (the database's file names).

    Examples
    --------
    >>> dataset_name("/x/data_Shekhar_2018.csv.gz"), dataset_name("mine.csv")
    ('Shekhar_2018', 'mine')
    """
    name = as_path(path).name
    for ext in (".csv.gz", ".csv"):
        if name.lower().endswith(ext):
            name = name[: -len(ext)]
            break
    return name[5:] if name.startswith("data_") else name


def _clean_names(columns) -> list:
    """Column names without byte-order marks, quotes and surrounding blanks."""
    return [str(c).replace("\ufeff", "").strip().strip('"').strip() for c in columns]


def read_confidence_database(path, *, levels=None, condition=None):
    """Read one data set of the Confidence Database into harmonised trials.

    Parameters
    ----------
    path : str or path-like
        A data set file in the database's format (``.csv`` or ``.csv.gz``), e.g.
        ``data_Shekhar_2018.csv.gz``.
    levels : sequence of float, optional
        The raw confidence scale in increasing order, when it cannot be read off the values
        used (a level nobody used at either end). Default: the evenly spaced grid from the
        lowest to the highest value used (see the module's notes).
    condition : str, optional
        The column to copy into ``condition``; default the data set's ``Condition`` column
        (any capitalisation) when it has one, else none.

    Returns
    -------
    pandas.DataFrame
        One row per trial with a stimulus, a response and a confidence rating, in file order:
        ``participant`` (as in the file: numbers, or strings), ``stimulus`` and ``response``
        (0 = S1, 1 = S2), ``confidence`` (1 … K), ``correct`` (1 or 0), ``trial`` (0, 1, … in
        file order within each participant), ``condition`` where there is one, then the data
        set's other columns unchanged. ``attrs`` holds ``name``, ``n_levels`` (K),
        ``confidence_levels`` (the raw scale), ``stimulus_codes`` and ``response_codes`` (the
        raw S1 and S2 codes), ``n_rows`` (rows in the file), ``n_missed`` (dropped rows by
        first missing column), ``accuracy_column`` and ``n_accuracy_mismatch``, ``condition``
        (the column used, or None) and ``citation`` (from the readme beside the file, or "").

    Raises
    ------
    ValueError
        For a ``path`` that is not a path (a str or path-like), no file or a folder; a file that
        is not a readable CSV; a file without ``Subj_idx``, ``Stimulus``, ``Response`` or
        ``Confidence``; with
        more than two stimuli or responses; with non-numeric codes other than the missing-value
        markers or infinite values in those columns; with two columns of the same name among
        those read (the four, the condition and the accuracy column); with continuous
        confidence (more than :data:`MAX_LEVELS` levels); with fewer than two confidence
        levels; ``levels`` that are not finite numbers in strictly increasing order (at least
        two) covering the values used; or an unknown ``condition`` column (or one not named by
        a str). A message about the file's content starts with the file's name.

    References
    ----------
    Rahnev et al. (2020), *Nature Human Behaviour* 4, 317–325 (the database and its format).

    Examples
    --------
    >>> import io, gzip, tempfile, os
    >>> text = ("Subj_idx,Stimulus,Response,Confidence,Accuracy\\n"
    ...         "a,1,-1,0.7,0\\n" "a,-1,-1,0.9,1\\n" "b,1,1,NaN,1\\n" "b,-1,1,0.5,0\\n")
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "data_Demo.csv")
    >>> _ = open(path, "w").write(text)
    >>> d = read_confidence_database(path)
    >>> d[["participant", "stimulus", "response", "confidence", "correct"]].values.tolist()
    [['a', 1, 0, 2, 0], ['a', 0, 0, 3, 1], ['b', 0, 1, 1, 0]]
    >>> d.attrs["n_levels"], d.attrs["confidence_levels"], d.attrs["n_missed"]
    (3, [0.5, 0.7, 0.9], {'Confidence': 1})
    >>> read_confidence_database(path, levels=[0.5, 0.6, 0.7, 0.8, 0.9]).confidence.tolist()
    [3, 5, 1]
    """
    import pandas as pd

    path = as_path(path)
    name = dataset_name(path)
    if not path.exists():
        raise ValueError(f"no such file: {path}")
    if not path.is_file():
        raise ValueError(f"path must be a data set file; {str(path)!r} is a folder")
    if condition is not None and not isinstance(condition, str):
        raise ValueError(f"condition must be a column name (a str) or None; got {condition!r}")
    if levels is not None:
        confidence_scale(np.array([], dtype=float), levels)  # bad levels: before reading
    try:
        raw = pd.read_csv(path, low_memory=False, na_values=["NaN", "Nan", "NA", "nan"],
                          keep_default_na=True)
        # the header as written: read_csv renames a repeated column ("Confidence.1")
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError, OSError,
            EOFError, zlib.error) as exc:
        raise ValueError(f"{path.name} is not a readable CSV file: {exc}") from None
    names = _clean_names(header.iloc[0].tolist()) if len(header) else []
    try:
        return _harmonised(raw, path, name, levels, condition, names)
    except ValueError as exc:
        if "file" in str(exc) or str(exc).startswith("levels"):
            raise
        raise ValueError(f"file {path.name}: {exc}") from None


def _harmonised(raw, path, name, levels, condition, names):
    """The body of :func:`read_confidence_database`: the raw frame into harmonised trials
    (``names``: the file's column names as written, cleaned)."""
    import pandas as pd

    read = set(_CORE) | set(_ACCURACY) | ({condition} if condition is not None else set())
    repeated = sorted({c for c in names if names.count(c) > 1 and
                       (c in read or c.lower() == "condition")})
    if repeated:
        raise ValueError(f"file {path.name} has {names.count(repeated[0])} columns named "
                         f"{repeated[0]!r}: which one to read is ambiguous (rename or drop "
                         f"the others)")
    raw.columns = _clean_names(raw.columns)
    raw = raw.loc[:, [c for c in raw.columns if c and not c.startswith("Unnamed:")]]
    missing = [c for c in _CORE if c not in raw.columns]
    if missing:
        raise ValueError(f"{path.name} has no column {missing[0]!r} (a Confidence Database "
                         f"file has Subj_idx, Stimulus, Response and Confidence; found "
                         f"{list(raw.columns)[:8]})")
    if condition is None:
        found = [c for c in raw.columns if c.lower() == "condition"]
        condition = found[0] if found else None
    elif condition not in raw.columns:
        raise ValueError(f"file {path.name} has no condition column {condition!r}")

    values = {c: numbers(raw[c], c) for c in ("Stimulus", "Response", "Confidence")}
    subj = raw["Subj_idx"]
    if subj.dtype.kind == "O":
        subj = subj.astype("string").str.strip()
        subj = subj.where(~subj.str.lower().isin(MISSING_MARKERS))
    n_missed, keep = {}, np.ones(len(raw), dtype=bool)
    for col, series in (("Subj_idx", subj), *values.items()):
        gone = keep & series.isna().to_numpy()
        if gone.any():
            n_missed[col] = int(gone.sum())
        keep &= ~gone
    if not keep.any():
        raise ValueError(f"file {path.name} has no trial with a participant, stimulus, response "
                         f"and confidence")
    s_raw = values["Stimulus"].to_numpy()[keep]
    r_raw = values["Response"].to_numpy()[keep]
    c_raw = values["Confidence"].to_numpy()[keep]
    s_codes = two_codes(s_raw, "Stimulus")
    r_codes = two_codes(r_raw, "Response", other=s_codes)
    if len(np.unique(s_raw)) == 1:  # one stimulus used: read it in the response's coding
        s_codes = two_codes(s_raw, "Stimulus", other=r_codes)
    scale = confidence_scale(c_raw, levels)
    stimulus = (s_raw == s_codes[1]).astype(np.int8)
    response = (r_raw == r_codes[1]).astype(np.int8)
    conf = np.abs(c_raw[:, None] - scale[None, :]).argmin(axis=1) + 1

    subj = subj[keep]
    if subj.dtype.kind == "f" and np.all(subj == np.round(subj)):
        subj = subj.astype(np.int64)
    elif subj.dtype.kind not in "iu":
        subj = subj.astype(str)
    out = pd.DataFrame({"participant": subj.to_numpy(), "stimulus": stimulus,
                        "response": response, "confidence": conf.astype(np.int64),
                        "correct": (stimulus == response).astype(np.int8)})
    out["trial"] = out.groupby("participant", sort=False).cumcount().to_numpy()
    rest = raw.loc[keep].reset_index(drop=True)
    if condition is not None:
        out["condition"] = rest[condition].to_numpy()
    for c in rest.columns:
        if c not in _CORE and c not in out.columns:
            out[c] = rest[c].to_numpy()

    acc_col = next((c for c in _ACCURACY if c in raw.columns), None)
    mismatch = None
    if acc_col is not None:
        acc = pd.to_numeric(rest[acc_col], errors="coerce").to_numpy()
        ok = np.isin(acc, (0, 1))
        mismatch = int(np.sum(ok & (acc != out["correct"].to_numpy())))
    out.attrs.update(
        name=name, n_levels=len(scale), confidence_levels=[float(v) for v in scale],
        stimulus_codes=[float(v) for v in s_codes], response_codes=[float(v) for v in r_codes],
        n_rows=len(raw), n_missed=n_missed, accuracy_column=acc_col,
        n_accuracy_mismatch=mismatch, condition=condition,
        citation=confidence_database_citation(path))
    return out


def _readme_text(path: Path) -> str:
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def confidence_database_citation(path) -> str:
    """The citation a data set's contributors give in its ``readme_<name>.txt``.

    Parameters
    ----------
    path : str or path-like
        The data set file (``data_<name>.csv[.gz]``; the readme is looked for beside it) or the
        readme itself.

    Returns
    -------
    str
        The text after the readme's "Citation" heading (up to the next blank line, at most 400
        characters, blanks collapsed), or the line naming the source ("Dataset from: …") when
        there is no such heading; "" when there is no readme or nothing to cite. Several data
        sets say "Unpublished" or "in preparation": that is what is returned.

    Raises
    ------
    ValueError
        For a ``path`` that is not a str or path-like.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "readme_Demo.txt"), "w").write(
    ...     "Contributor\\nA. B.\\n\\nCitation\\nB, A. (2020). A paper.\\nJournal 1, 1.\\n\\nMore")
    >>> confidence_database_citation(os.path.join(folder, "data_Demo.csv.gz"))
    'B, A. (2020). A paper. Journal 1, 1.'
    """
    path = as_path(path)
    readme = path if path.name.startswith("readme_") else \
        path.with_name(f"readme_{dataset_name(path)}.txt")
    if not readme.exists():
        return ""
    text = _readme_text(readme)
    match = re.search(r"citation\s*:?[ \t]*", text, flags=re.IGNORECASE)
    if match is None:
        match = re.search(r"(dataset from|reference)\s*:?[ \t]*", text, flags=re.IGNORECASE)
    if match is None:
        return ""
    lines, started = [], False
    for line in text[match.end():].split("\n"):
        bare = line.strip()
        if not bare or set(bare) <= set("-=*_ "):
            if started and not bare:
                break
            continue
        if started and (_HEADING.match(bare) or len(bare.split()) <= 2 and "." not in bare):
            break  # the next field of the readme
        lines.append(bare.lstrip("*-– ").strip())
        started = True
    cite = re.sub(r"\s+", " ", " ".join(lines)).strip()
    return cite[:400].rstrip() + ("…" if len(cite) > 400 else "")


def confidence_database_tables(trials, by="participant", n_levels=None):
    """Count tables, in the library's convention, of harmonised trials.

    Parameters
    ----------
    trials : pandas.DataFrame
        A frame from :func:`read_confidence_database` (or any frame with ``stimulus`` and
        ``response`` in 0/1 and ``confidence`` in 1 … K).
    by : str or sequence of str, default "participant"
        Grouping columns, one axis of the result each (e.g. ``("participant", "condition")``);
        ``()`` pools all trials.
    n_levels : int, optional
        K; default ``trials.attrs["n_levels"]``, else the highest confidence in the frame.

    Returns
    -------
    metabits.io.TrialCounts
        ``counts`` of shape ``(n_1, …, n_g, 2, 2K)``, ``by`` and the sorted ``levels`` of each
        grouping column (from :func:`metabits.io.count_tables`).

    Raises
    ------
    ValueError
        For ``trials`` that are not a frame (a pandas.DataFrame or a mapping of columns), a
        missing column, ``by`` that is not a column name or a sequence of them, a stimulus or
        response other than 0/1, or a confidence outside 1 … K (messages about the frame's
        columns start with "trials:").

    Examples
    --------
    >>> import pandas as pd
    >>> d = pd.DataFrame({"participant": ["a", "a", "b"], "stimulus": [0, 1, 1],
    ...                   "response": [0, 1, 0], "confidence": [2, 1, 2]})
    >>> t = confidence_database_tables(d, n_levels=2)
    >>> t.counts.tolist(), t.levels[0].tolist()
    ([[[1, 0, 0, 0], [0, 0, 1, 0]], [[0, 0, 0, 0], [1, 0, 0, 0]]], ['a', 'b'])
    """
    from collections.abc import Mapping

    import pandas as pd

    from metabits.io._tables import count_tables

    if not isinstance(trials, (pd.DataFrame, Mapping)):
        raise ValueError(f"trials must be a pandas.DataFrame of harmonised trials; got "
                         f"{type(trials).__name__}")
    by_cols = as_column_names(by)
    try:
        confidence = np.asarray(trials["confidence"])
    except (KeyError, TypeError):
        raise ValueError("trials have no column 'confidence'") from None
    if n_levels is None:
        n_levels = getattr(trials, "attrs", {}).get("n_levels")
        if n_levels is None:
            if confidence.size == 0 or confidence.dtype.kind not in "iuf":
                raise ValueError("trials must have integer confidence ratings 1 … K")
            n_levels = int(np.nanmax(confidence))
    K = as_size(n_levels, "n_levels", least=2, most=MAX_SIZE // 100)
    columns = {"_rating": confidence - 1 if confidence.dtype.kind in "iuf" else confidence}
    for c in ("stimulus", "response") + by_cols:
        try:
            columns[c] = np.asarray(trials[c])
        except (KeyError, TypeError):
            raise ValueError(f"trials have no column {c!r}") from None
    try:
        return count_tables(columns, by=by, rating="_rating", stimuli=(0, 1), n_ratings=K)
    except ValueError as exc:
        text = str(exc).replace("rating column '_rating'", "rating column (confidence − 1)")
        raise ValueError(f"trials: {text}") from None

