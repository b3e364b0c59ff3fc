"""The book's shipped data files (``metabits_book/data``), read with their source headers."""

from __future__ import annotations

from importlib.resources import files

__all__ = ["example_file", "read_csv"]


def read_csv(name: str):
    """Header and rows (lists of strings) of a shipped CSV, its ``#`` comment lines left out."""
    text = files("metabits_book").joinpath("data", name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    return header, rows


def example_file(name: str = "data_Shekhar_2018.csv.gz"):
    """The path of a file of trials shipped with the book, for the chapter "Your own data".

    Parameters
    ----------
    name : str, default "data_Shekhar_2018.csv.gz"
        The file's name in ``metabits_book/data``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        For a name that is not a shipped file of trials.

    Examples
    --------
    >>> example_file().name
    'data_Shekhar_2018.csv.gz'
    """
    from pathlib import Path

    shipped = ("data_Shekhar_2018.csv.gz",)
    if name not in shipped:
        raise ValueError(f"name must be one of {shipped}; got {name!r}")
    return Path(str(files("metabits_book").joinpath("data", name)))
