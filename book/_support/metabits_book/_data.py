"""The book's shipped data files (``metabits_book/data``), read with their source headers."""

from __future__ import annotations

from importlib.resources import files

__all__ = ["read_csv"]


def read_csv(name: str):
    """Header and rows (lists of strings) of a shipped CSV, its ``#`` comment lines left out."""
    text = files("metabits_book").joinpath("data", name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    return header, rows
