"""The book's own code, apart from the library: what the book needs and a researcher does not.

* :mod:`metabits_book.paper_numbers` — every number the book reproduces, with its printed
  value, tolerance and status, which ``tests/test_paper_numbers.py`` asserts and the
  reproducibility report renders (:mod:`~metabits_book.paper_number` is one entry;
  :mod:`~metabits_book.numbers_meyen2025`, :mod:`~metabits_book.numbers_servajean2026` and
  :mod:`~metabits_book.numbers_roberts2026` hold each work's entries);
* :mod:`metabits_book.studies` — the papers' data and the book's studies of them (the
  simulation study of Meyen et al., the Confidence Database copy, the Bayesian refits);
* :mod:`metabits_book.explore` — the explorers, on the static website and live in a kernel;
* :mod:`metabits_book.cognitive_chain`, :mod:`metabits_book.oskr_claims`,
  :mod:`metabits_book.roberts2026` — Roberts's (2026) demos and claims;
* :mod:`metabits_book.style`, :mod:`metabits_book.palette`, :mod:`metabits_book.plotting` — the
  figure style, the colours and Meyen et al.'s Figures 6–7;
* :mod:`metabits_book.notebook` — :func:`~metabits_book.notebook.glue`, MyST-NB's ``glue`` or a
  stand-in where MyST-NB is missing (Colab);
* :mod:`metabits_book.checks` — the exercise checkers of the student notebooks;
* :func:`example_file` — a Confidence Database file of trials, for the chapter "Your own data".

``from metabits_book import glue, save_figure, use_book_style`` imports the three helpers; their
modules load on first use, so that the registry imports no matplotlib and the glue no MyST-NB
until they are called.
"""

from __future__ import annotations

import importlib

__all__ = ["example_file", "glue", "save_figure", "use_book_style"]

_HOMES = {"example_file": "._data", "glue": ".notebook", "save_figure": ".style",
          "use_book_style": ".style"}


def __getattr__(name):  # PEP 562: each helper's module is imported on first use
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
