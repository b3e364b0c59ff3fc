"""Former home of the notebooks' ``glue`` helper, now :mod:`metabits.book.notebook`.

Kept so that ``from metabits.notebook import glue`` goes on working; new code imports
``from metabits.book import glue``.
"""

from .book.notebook import glue

__all__ = ["glue"]
