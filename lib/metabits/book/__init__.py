"""Book-only code: the registry of paper numbers, the figure style and the notebooks' glue.

What the book needs and a user of the library does not:

* :mod:`metabits.book.paper_numbers` — every number the book reproduces, with its printed
  value, tolerance and status, which ``tests/test_paper_numbers.py`` asserts and the
  reproducibility report renders (:mod:`~metabits.book.paper_number` is one entry;
  :mod:`~metabits.book.numbers_meyen2025`, :mod:`~metabits.book.numbers_servajean2026` and
  :mod:`~metabits.book.numbers_roberts2026` hold each work's entries);
* :mod:`metabits.book.style` — :func:`~metabits.book.style.use_book_style` and
  :func:`~metabits.book.style.save_figure` (deterministic PNG and SVG files);
* :mod:`metabits.book.notebook` — :func:`~metabits.book.notebook.glue`, MyST-NB's ``glue`` or
  a stand-in where MyST-NB is missing (Colab).
* :mod:`metabits.book.checks` — the exercise checkers of the student launch notebooks
  (:func:`~metabits.book.checks.check_exercise`): right or not yet, never the answer.

``from metabits.book import glue, save_figure, use_book_style`` imports the three helpers; each
module is imported on first use, so the registry loads no matplotlib and the glue no MyST-NB
until it is called. The colours are the library's (:mod:`metabits.palette`), shared with the
explorers.
"""

from __future__ import annotations

from .._moved import forwarding

__all__ = ["glue", "save_figure", "use_book_style"]

# PEP 562: the helpers' modules are imported on first use
__getattr__ = forwarding(__name__, __package__, {"glue": ".notebook", "save_figure": ".style",
                                                 "use_book_style": ".style"})
