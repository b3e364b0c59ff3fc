"""Former home of the registry of paper numbers, now :mod:`metabits.book.paper_numbers`.

Kept so that ``from metabits import paper_numbers`` goes on working; new code imports
``from metabits.book import paper_numbers``.
"""

from .book.paper_numbers import *  # noqa: F401,F403
from .book.paper_numbers import __all__  # noqa: F401
